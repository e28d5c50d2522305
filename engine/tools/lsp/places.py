"""Positions between the protocol and the compiler.

The protocol counts lines from 0 and columns in UTF-16 code units; the compiler counts
lines from 1 and columns in characters from 1. Each conversion goes through the line's
text: the editor's text of the file when it is open, else the text the analysis read,
else the file on disk.
"""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import from_fs_path

from ... import compiler
from ...compiler.base.errors import SpecError
from . import features
from .analysis import Analysis, Analyzer


def utf16(line: str, col: int) -> int:
    """A 1-based character column of ``line`` as a 0-based UTF-16 offset."""
    return len(line[:max(0, col - 1)].encode("utf-16-le", "surrogatepass")) // 2


def chars(line: str, offset: int) -> int:
    """A 0-based UTF-16 offset of ``line`` as a 1-based character column."""
    units = 0
    for k, char in enumerate(line):
        if units >= offset:
            return k + 1
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line) + 1


def uri_of(path: str) -> str:
    """The file URI of a path the compiler gave."""
    try:
        return from_fs_path(str(Path(path).resolve())) or path
    except (OSError, ValueError, RuntimeError):
        return path


class Places:
    """Conversions for one check or one answer, through an analyzer's view of the editor's
    texts (:meth:`.analysis.Analyzer.with_texts`)."""

    def __init__(self, analyzer: Analyzer) -> None:
        self.analyzer = analyzer

    def file_lines(self, path: str, analysis: Analysis | None = None) -> list[str]:
        """The lines of a file the positions refer to: the editor's text, else the chain's."""
        text = self.analyzer.open_text(path)
        if text is None and analysis is not None:
            text = next((s.text for s in analysis.files if s.path == path), None)
        if text is None:
            try:  # read as a spec is read: a regular file within the size limit
                text = compiler.read_spec_text(path)
            except SpecError:
                text = ""
        return text.split("\n")

    def position(self, lines: list[str], line: int, col: int) -> lsp.Position:
        """The compiler's (line, column) in ``lines`` as a protocol position."""
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return lsp.Position(line=max(0, line - 1), character=utf16(text, col))

    def range(self, where: features.Range, analysis: Analysis | None = None) -> lsp.Range:
        """A compiler range as a protocol range."""
        lines = self.file_lines(where.file, analysis)
        return lsp.Range(start=self.position(lines, where.line, where.col),
                         end=self.position(lines, where.end_line, where.end_col))

    def location(self, where: features.Range, analysis: Analysis) -> lsp.Location:
        """A compiler range as a protocol location (its file's URI and range)."""
        return lsp.Location(uri=uri_of(where.file), range=self.range(where, analysis))

    @staticmethod
    def at(analysis: Analysis, pos: lsp.Position) -> tuple[int, int]:
        """A protocol position as the compiler's (1-based line, character column)."""
        lines = analysis.lines
        text = lines[pos.line] if pos.line < len(lines) else ""
        return pos.line + 1, chars(text, pos.character)
