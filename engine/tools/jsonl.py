"""JSON Lines as railspec's record files (traces, perft files) write and read them: one
JSON object a line, split at "\n" only, whatever the names hold; numbers bounded in length;
any problem a named error that says on which line."""
from __future__ import annotations

import json

#: Integers in a record file are counts, ids and a 64-bit seed: a longer one is a broken file.
MAX_DIGITS = 30

# Characters that some line readers (str.splitlines, editors, JavaScript) take for line
# breaks but JSON leaves unescaped: written as escapes so every reader sees one record per
# line. The others (\n, \r, \x0b, \x0c, \x1c-\x1e) are control characters JSON escapes.
_LINE_BREAKS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class _Refused(ValueError):
    """A value inside a line that no record file holds (raised by the parser hooks)."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str):
    raise _Refused(f"{name} is not a number a record holds")


def dumps(records: list[dict]) -> str:
    """JSON Lines text: one compact record per line."""
    return "".join(json.dumps(record, separators=(",", ":"), ensure_ascii=False).translate(_LINE_BREAKS) + "\n"
                   for record in records)


def loads(text: str, error: type[Exception], what: str) -> list[tuple[int, object]]:
    """The records of JSON Lines text, each with its line number (from 1): lines are split
    at "\\n" only (a "\\r" before it is ignored), a UTF-8 byte order mark is skipped, blank
    lines are ignored. Anything else wrong raises ``error`` naming the line (``what`` names
    the file's kind when the text is not text at all)."""
    if not isinstance(text, str):
        raise error(f"a {what} is JSON Lines text, got {type(text).__name__}")
    out = []
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        if not raw.strip():
            continue
        try:
            out.append((number, json.loads(raw, parse_int=_int, parse_constant=_constant)))
        except json.JSONDecodeError as err:
            raise error(f"line {number}: not JSON ({err.msg} at column {err.colno})") from None
        except RecursionError:
            raise error(f"line {number}: JSON nested too deeply") from None
        except _Refused as err:
            raise error(f"line {number}: {err}") from None
    return out
