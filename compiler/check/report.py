"""How the checker reports: located errors and warnings collected in one list, and the
wording helpers every stage uses ("did you mean", where an earlier declaration is)."""
from __future__ import annotations

import difflib
from collections import defaultdict

from ..base import limits
from ..base.errors import Span, SpecCheckError, SpecError, SpecWarning
from ..lang import ast


class Errors:
    """Collects located errors; knows each file's text so it can quote the line.

    Raised, the errors come in source order, at most ``MAX_ERRORS_PER_FILE`` of each file
    followed by a line counting the rest, and with every name longer than ``NAME_SHOWN``
    characters shortened (the caret still marks all of it)."""

    def __init__(self, files: list[ast.SpecFile]):
        # split only on "\n", as the parser counts lines (str.splitlines also splits on
        # form feeds and other separators that can sit inside a line)
        self.lines = {f.path: [ln.rstrip("\r") for ln in f.text.split("\n")] for f in files}
        self.long_names = sorted({text for f in files for stmt in f.statements for text in stmt.texts()
                                  if len(text) > limits.NAME_SHOWN}, key=len, reverse=True)
        self.removed_cities: dict[str, Span] = {}
        self.items: list[SpecError] = []
        self.warnings: list[SpecWarning] = []
        self.per_file: dict[str, int] = defaultdict(int)

    def add(self, span: Span, message: str) -> None:
        """An error at ``span``."""
        lines = self.lines.get(span.file, [])
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else None
        self.items.append(SpecError(message, span, line))
        self.per_file[span.file] += 1

    def warn(self, span: Span, message: str) -> None:
        """A located warning: content that checks but does nothing (see SpecWarning)."""
        lines = self.lines.get(span.file, [])
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else None
        self.warnings.append(SpecWarning(self._shortened(message), span, line))

    def sorted_warnings(self) -> tuple[SpecWarning, ...]:
        """The warnings in source order."""
        # every warning the report adds is located (add takes a span)
        return tuple(sorted(self.warnings, key=lambda w: (w.span.file, w.span.line, w.span.col) if w.span
                            else ("", 0, 0)))

    def full(self, file: str) -> bool:
        """Whether the file has as many errors as are shown: further ones are only counted,
        so work spent on their wording (suggestions) is skipped."""
        return self.per_file[file] >= limits.MAX_ERRORS_PER_FILE

    def _shortened(self, message: str) -> str:
        for name in self.long_names:
            if name in message:
                message = message.replace(name, limits.shown(name))
        return message

    def raise_if_any(self) -> None:
        """Raise one SpecCheckError listing the errors found, if any."""
        if not self.items:
            return
        self.items.sort(key=lambda e: (e.span.file, e.span.line, e.span.col) if e.span else ("", 0, 0))
        shown: list[SpecError] = []
        by_file: dict[str, list[SpecError]] = {}
        for e in self.items:
            by_file.setdefault(e.span.file if e.span else "", []).append(e)
        for file, items in by_file.items():
            for e in items[:limits.MAX_ERRORS_PER_FILE]:
                shown.append(SpecError(self._shortened(e.message), e.span, e.source_line))
            rest = len(items) - limits.MAX_ERRORS_PER_FILE
            if rest > 0:
                shown.append(SpecError(f"{file}: {rest} more error{'s' if rest > 1 else ''} not shown "
                                       f"(the first {limits.MAX_ERRORS_PER_FILE} are above)"))
        raise SpecCheckError(shown)


def suggest(name: str, known) -> str:
    """" (did you mean 'X'?)" for the known name closest to ``name``, or ""."""
    same_but_case = [k for k in known if k.lower() == name.lower()]
    close = same_but_case or difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def line_of(earlier: Span | None, here: Span) -> str:
    """Where an earlier declaration is, from the point of view of a later one: "line 12",
    or "usa.rail:12" when it is in another file of the extends chain (an IR record made
    without a span: "an earlier line")."""
    if earlier is None:
        return "an earlier line"
    if earlier.file == here.file:
        return f"line {earlier.line}"
    return f"{earlier.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{earlier.line}"


def pair(a: str, b: str) -> tuple[str, str]:
    """Two city names in a fixed order: a route or ticket between them, either way round."""
    return (a, b) if a <= b else (b, a)
