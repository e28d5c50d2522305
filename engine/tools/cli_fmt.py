"""The command line's formatter (docs/language.md, "Layout and railspec fmt"):

    railspec fmt FILE… [--check] [--diff]

Writes each spec in its canonical layout (:func:`railspec.compiler.format_text`), in place:
the new text goes to a temporary file beside the spec, which then replaces it, so a spec is
never left half written. ``--check`` writes nothing: it lists the files whose layout would
change and exits with status 1 if there is one (``--diff`` also shows how, as a unified
diff). ``-`` reads a spec from standard input and writes it, formatted, to standard output.

A file that does not parse is reported as the checker reports it (``file:line:col``, the
line, a caret), left as it is, and the others are still formatted; the status is then 2.
Files are read as every spec is (``compiler/base/files.py``): a regular file of at most the
spec size limit, in UTF-8.

``cli`` registers it with :func:`add_commands`.
"""
from __future__ import annotations

import contextlib
import difflib
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from .. import compiler
from ..compiler.base import files
from ..compiler.base.errors import RailspecError, SpecError
from .args import UsageError

STDIN = "-"


def _stdin_text() -> str:
    """A spec from standard input, read as a spec file is: at most the size limit, UTF-8."""
    limit = files.MAX_BYTES["spec file"]
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise files.UnreadableFile("<stdin>", f"larger than the {limit // (1024 * 1024)} MB a spec file may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise files.UnreadableFile("<stdin>", f"not UTF-8 text ({err.reason} at byte {err.start})") from None


def replace_file(path: str | Path, text: str) -> None:
    """Write ``text`` over the file ``path`` atomically: into a temporary file in the same
    folder, which then takes the file's place (a symbolic link keeps pointing at it, the
    file keeps its permissions). On failure the file is as it was, and no temporary file
    is left."""
    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".fmt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _lines(text: str) -> list[str]:
    # lines as the language counts them, at '\n' only (a name may hold U+2028)
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def diff(name: str, before: str, after: str) -> str:
    """A unified diff of a spec's text as written and formatted."""
    out = difflib.unified_diff(_lines(before), _lines(after), fromfile=f"{name} (as written)",
                               tofile=f"{name} (formatted)")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def cmd_fmt(args) -> int:
    """``fmt``: format each file in place, or (``--check``, ``--diff``) say which would
    change; 2 when a file cannot be read or parsed (the others are still done), else 1
    when checking and a file would change, else 0."""
    if args.files.count(STDIN) > 1:
        raise UsageError("'-' (standard input) may be given once")
    check = args.check or args.diff
    failed = changed = False
    for name in args.files:
        try:
            text = _stdin_text() if name == STDIN else files.read_text(name, "spec file")
            formatted = compiler.format_text(text, "<stdin>" if name == STDIN else name)
        except SpecError as err:
            print(err.format(), file=sys.stderr)
            failed = True
            continue
        except RailspecError as err:
            print(f"railspec: {err}", file=sys.stderr)
            failed = True
            continue
        if name == STDIN and not check:
            sys.stdout.write(formatted)
            continue
        if formatted == text:
            continue
        changed = True
        if check:
            print(name)
            if args.diff:
                sys.stdout.write(diff(name, text, formatted))
            continue
        try:
            replace_file(name, formatted)
        except OSError as err:
            print(f"railspec: cannot write {name}: {err.strerror or err}", file=sys.stderr)
            failed = True
            continue
        print(f"reformatted {name}", file=sys.stderr)
    return 2 if failed else 1 if check and changed else 0


def add_commands(sub, formatter) -> None:
    """Register ``fmt`` with the command line's subparsers."""
    p = sub.add_parser("fmt", help="write specs in the canonical layout (or, with --check, list those that are not)",
                       formatter_class=formatter)
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="the .rail files to format in place; - reads standard input and writes standard output")
    p.add_argument("--check", action="store_true",
                   help="write nothing: list the files whose layout would change, and exit with status 1 if any")
    p.add_argument("--diff", action="store_true", help="as --check, and show each change as a unified diff")
    p.set_defaults(run=cmd_fmt)
