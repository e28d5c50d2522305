"""Reading a file someone handed railspec: a spec, a state, a position, a trace, a perft
file. Every reader goes through :func:`read_text`, with the same rules: only a regular file
is read (a pipe could block forever, a device never end), at most a stated size per kind
of file (checked before reading and while reading, for a file that grows), and UTF-8 text.
A file that breaks a rule is an :class:`UnreadableFile` naming the file and the rule,
never a traceback and never the file's contents.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import RailspecError
from .limits import MAX_SPEC_BYTES

_MB = 1024 * 1024
#: The largest file of each kind railspec reads, by the kind's name in messages. Far above
#: anything real: the largest stock spec is under 20 KB, a state under 20 KB, a traced game
#: under 2 MB, a perft file under 1 MB.
MAX_BYTES = {
    "spec file": MAX_SPEC_BYTES,
    "state file": 8 * _MB,
    "position file": 4 * _MB,
    "trace file": 64 * _MB,
    "perft file": 64 * _MB,
    "vector file": 256 * _MB,
}


class UnreadableFile(RailspecError):
    """A file that is not a regular file, is too large, or is not UTF-8 text. The message
    is ``path: why``; ``reason`` is the why alone."""

    def __init__(self, path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


def _kind_of(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a special file")


def read_bytes(path: str | Path, what: str) -> bytes:
    """The bytes of a regular file of the kind ``what`` (a key of :data:`MAX_BYTES`), or
    :class:`UnreadableFile`."""
    limit = MAX_BYTES[what]
    too_big = f"larger than the {limit // _MB} MB a {what} may be"
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer; the checks below are
        # made on the file actually opened, not on the name
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise UnreadableFile(path, f"no such {what}") from None
    except IsADirectoryError:
        raise UnreadableFile(path, "not a regular file (a folder)") from None
    except OSError as err:
        raise UnreadableFile(path, f"cannot read ({err.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise UnreadableFile(path, "cannot read (the name holds a NUL character)") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(path, f"not a regular file ({_kind_of(info.st_mode)})")
        if info.st_size > limit:
            raise UnreadableFile(path, f"{info.st_size:,} bytes, {too_big}")
        chunks, size = [], 0
        while size <= limit:  # a file growing while it is read stops at the limit too
            chunk = os.read(fd, min(_MB, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnreadableFile(path, too_big)
    except OSError as err:
        raise UnreadableFile(path, f"cannot read ({err.strerror})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(path: str | Path, what: str) -> str:
    """The UTF-8 text of a regular file of the kind ``what``, a leading byte order mark
    left for the format's reader to skip, or :class:`UnreadableFile`."""
    data = read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UnreadableFile(path, f"not UTF-8 text ({err.reason} at byte {err.start})") from None
