"""The language server's byte stream: messages framed as the Language Server Protocol
frames them (``Content-Length: N``, other header lines, a blank line, then N bytes of
JSON), read robustly.

A client with a bug, or bytes that were never meant for the server, must not leave it
deaf: what is not a header is skipped up to the next ``Content-Length`` header (which may
follow garbage on the same line), a header block without a usable length is skipped, a
body that is not JSON is reported and the reading goes on after it, and when such a body
holds the start of the next message (its length was too long) the reading resumes there.
A length beyond :data:`MAX_MESSAGE` is not believed: what follows it is skipped as
garbage up to the next header.

Nothing here knows JSON-RPC: :class:`Reader` yields parsed JSON values and
:class:`Unreadable` markers; the server answers them.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import BinaryIO, Iterator

#: The largest message read (bytes). A document is sent whole in one message, and a
#: document above the spec size limit (4 MB) must still arrive to be told it is too
#: large; far beyond that a length is a broken client's.
MAX_MESSAGE = 64 * 1024 * 1024
#: A header line longer than this is not one (it is read, in pieces, as garbage).
MAX_HEADER_LINE = 64 * 1024
#: How much is read from the stream at a time (bytes).
CHUNK = 64 * 1024
#: How deep a message's JSON may nest (the protocol's messages nest a few levels).
MAX_DEPTH = 200

_LENGTH = re.compile(rb"Content-Length:[ \t]*([0-9]{1,12})[ \t]*\r?\n?$", re.IGNORECASE)
_HEADER = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*\r?\n$")
_NEXT = re.compile(rb"Content-Length:", re.IGNORECASE)
_OPEN = re.compile(rb"[\[{]")


@dataclass(frozen=True)
class Unreadable:
    """A framed body that is not a JSON message (the server answers it with an error);
    ``why`` says what is wrong, in words for a log; ``msg_id`` is the request's id when
    one could be found at the body's top level (see :func:`top_level_id`), so that the
    client waiting for it is answered; ``json`` whether the body was JSON (too deep)."""

    why: str
    msg_id: int | str | None = None
    json: bool = False


@dataclass(frozen=True)
class Skipped:
    """Bytes skipped while looking for the next header (logged by the server)."""

    size: int


def too_deep(data: bytes) -> bool:
    """Whether JSON text nests deeper than :data:`MAX_DEPTH` (counted over brackets
    outside strings; the parser's own recursion limit would be a RecursionError)."""
    if len(_OPEN.findall(data)) <= MAX_DEPTH:
        return False
    depth, in_string, escaped = 0, False, False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


_ID_VALUE = re.compile(rb'[ \t\r\n]*:[ \t\r\n]*(-?[0-9]{1,30}(?![0-9.eE])|"(?:[^"\\\x00-\x1f]|\\.){0,1000}")')


def top_level_id(data: bytes) -> int | str | None:
    """The ``"id"`` of a JSON object's top level, found without parsing the object (it
    may be too deep to parse, or broken further on): an integer or a string, else None."""
    depth, in_string, escaped, start = 0, False, False, -1
    for k, byte in enumerate(data):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
                if depth == 1 and data[start:k + 1] == b'"id"':
                    found = _ID_VALUE.match(data, k + 1)
                    if found is not None:
                        try:
                            return json.loads(found.group(1))
                        except ValueError:
                            return None
        elif byte == 0x22:
            in_string, start = True, k
        elif byte in (0x5B, 0x7B):
            depth += 1
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return None


def parse_body(body: bytes) -> object:
    """The JSON value of a message body (UTF-8), or ValueError saying why not."""
    if too_deep(body):
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ValueError(f"not UTF-8 ({err.reason} at byte {err.start})") from None
    except RecursionError:
        raise ValueError("nested too deep") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON ({err.msg} at byte {err.pos})") from None


def encode(message: object) -> bytes:
    """A JSON value as one framed message. Written in ASCII: a string the client sent may
    hold a lone surrogate (an id "\\ud800"), which UTF-8 cannot encode but JSON's escape can."""
    body = json.dumps(message, separators=(",", ":")).encode("ascii")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Reader:
    """The messages of a byte stream, in order: each a parsed JSON value, an
    :class:`Unreadable` body, or a :class:`Skipped` run of bytes. Iteration ends with the
    stream."""

    def __init__(self, stream: BinaryIO) -> None:
        #: read in chunks (``read(n)`` answering what is there, as a raw file does): a
        #: buffered reader's lock, held by a reading thread, would stall the interpreter's exit
        self.stream = stream
        self.pending = b""  # bytes read and not used yet (or given back to be read again)
        self.ended = False

    def _fill(self) -> bool:
        """Read one more chunk into ``pending``; False at the end of the stream."""
        if self.ended:
            return False
        chunk = self.stream.read(CHUNK)
        if not chunk:
            self.ended = True
            return False
        self.pending += chunk
        return True

    def _line(self) -> bytes:
        """The next line (with its line end), at most MAX_HEADER_LINE bytes; b"" at the end."""
        while True:
            end = self.pending.find(b"\n", 0, MAX_HEADER_LINE)
            if end >= 0 or len(self.pending) >= MAX_HEADER_LINE or not self._fill():
                cut = end + 1 if end >= 0 else min(len(self.pending), MAX_HEADER_LINE)
                line, self.pending = self.pending[:cut], self.pending[cut:]
                return line

    def _read(self, size: int) -> bytes:
        """``size`` bytes (fewer at the end of the stream)."""
        head, self.pending = self.pending[:size], self.pending[size:]
        chunks, got = [head], len(head)
        while got < size and not self.ended:
            chunk = self.stream.read(min(size - got, CHUNK * 16))
            if not chunk:
                self.ended = True
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def __iter__(self) -> Iterator[object]:
        length: int | None = None  # the length the header block read so far gives
        in_header = False
        skipped = 0
        while True:
            line = self._line()
            if not line:
                if skipped:
                    yield Skipped(skipped)
                return
            if line.strip(b"\r\n") == b"":
                if in_header and length is not None:
                    if skipped:
                        yield Skipped(skipped)
                        skipped = 0
                    yield from self._body(length)
                elif in_header:
                    skipped += len(line)  # a header block without a length: nothing to read
                # else a blank line between messages
                length, in_header = None, False
                continue
            found = _LENGTH.match(line)
            if found and int(found.group(1)) <= MAX_MESSAGE:
                length, in_header = int(found.group(1)), True
                continue
            if found:
                # a length no message has: what follows is skipped as garbage, up to the
                # next header
                skipped += len(line)
                length, in_header = None, False
                continue
            # a length header may start further on the line: after garbage, or after a body
            # shorter than its length said
            at = _NEXT.search(line, 1)
            if at is not None:
                skipped += at.start()
                self.pending = line[at.start():] + self.pending
            elif _HEADER.match(line):
                in_header = True  # another header (Content-Type …), before or after the length
            else:
                skipped += len(line)  # not a header: skipped, the block's length kept

    def _body(self, length: int) -> Iterator[object]:
        body = self._read(length)
        if len(body) < length:
            yield Unreadable(f"the stream ended {length - len(body):,} bytes into a message", top_level_id(body))
            return
        try:
            yield parse_body(body)
            return
        except ValueError as why:
            problem = str(why)
        # a length too long: the message is whole, and the bytes after it (the start of
        # the next message) are read again
        whole = _leading_value(body)
        if whole is not None:
            value, end = whole
            self.pending = body[end:] + self.pending
            yield value
            return
        # a length too short, or a broken body: read on from the next header in it
        at = _NEXT.search(body, 1)
        if at is not None:
            self.pending = body[at.start():] + self.pending
        yield Unreadable(problem, top_level_id(body[:at.start()] if at is not None else body),
                         json=problem.startswith("nested"))


def _leading_value(body: bytes) -> tuple[object, int] | None:
    """The JSON object a body starts with and the byte offset where it ends, when more
    follows it; else None."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        text = body[:err.start].decode("utf-8")
    if too_deep(body):
        return None
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or end >= len(text):
        return None
    return value, len(text[:end].encode("utf-8"))
