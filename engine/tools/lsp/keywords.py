"""A statement's entry in docs/language.md, for the language server's hovers.

The page documents each statement once: a row of a table whose first cell shows how it is
written (``| `trains N` | Trains (carts) per player. … |``) or a paragraph that begins
with it (```city NAME` declares a city …``). An entry is found by how well its written
form matches the statement as the spec writes it: every keyword the form begins with must
begin the statement too, the entry with the most of them wins, and then the one whose
other keywords the statement uses (``market N no reset`` over ``market N reset L
locomotives`` for ``market 5 no reset``). No entry is written here per keyword: a new
statement is found once the page documents it.

The page is read from the source tree (an installed wheel does not ship docs/); without
it a hover shows the statement's form as the node class gives it.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

#: docs/language.md in the source tree (engine/tools/lsp/ is three folders below it).
LANGUAGE_PAGE = Path(__file__).resolve().parents[3] / "docs" / "language.md"
_CODE = re.compile(r"`([^`]+)`")
_KEYWORD = re.compile(r"[a-z][a-z'’]*")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Entry:
    """One documented form: how it is written, the markdown shown for it, its section."""

    written: str
    text: str
    section: str


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def entries_of(page: str) -> list[Entry]:
    """Every entry of a language page: table rows whose first cell is code, and paragraphs
    that begin with code. The table of statements by mechanic (one row per mechanic, not
    per statement) is left out."""
    out: list[Entry] = []
    section = ""
    header: list[str] = []
    lines = page.split("\n")
    fenced = False
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("```"):
            fenced = not fenced
            k += 1
            continue
        if fenced:
            k += 1
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            header = []
        elif line.startswith("|"):
            cells = _cells(line)
            if not header:
                header = cells
            elif cells and not set(cells[0]) <= set("-: ") and cells[0].startswith("`") and header[0] != "mechanic":
                text = "\n\n".join(f"**{h}**: {c}" if i else c for i, (h, c) in enumerate(zip(header, cells)) if c)
                for written in _CODE.findall(cells[0]):
                    out.append(Entry(written, text, section))
        else:
            header = [] if not line.strip() else header
            if line.startswith("`") and (k == 0 or not lines[k - 1].strip()):
                para = [line]
                while k + 1 < len(lines) and lines[k + 1].strip() and not lines[k + 1].startswith(("|", "#", "```")):
                    k += 1
                    para.append(lines[k])
                first = _CODE.match(line)
                if first:
                    out.append(Entry(first.group(1), " ".join(para), section))
        k += 1
    return out


@functools.lru_cache(maxsize=2)
def _page_entries(path: str) -> tuple[Entry, ...]:
    try:
        return tuple(entries_of(Path(path).read_text(encoding="utf-8")))
    except OSError:
        return ()


def _leading(written: str) -> list[str]:
    """The keywords an entry's form begins with, up to its first placeholder or number."""
    out = []
    for word in _WORD.findall(written):
        if not _KEYWORD.fullmatch(word):
            break
        out.append(word)
    return out


def best_entry(statement: str, entries) -> Entry | None:
    """The entry documenting ``statement`` (its text as written, comments left out), or None."""
    words = _WORD.findall(statement)
    used = set(words)
    best, best_score = None, None
    for entry in entries:
        leading = _leading(entry.written)
        if not leading or words[:len(leading)] != leading:
            continue
        others = [w for w in _WORD.findall(entry.written)[len(leading):] if _KEYWORD.fullmatch(w)]
        score = (len(leading), sum(1 if w in used else -1 for w in others))
        if best_score is None or score > best_score:
            best, best_score = entry, score
    return best


def documentation(statement: str, page: Path = LANGUAGE_PAGE) -> str | None:
    """The markdown of ``statement``'s entry in the language page, with where it is, or None."""
    entry = best_entry(statement, _page_entries(str(page)))
    if entry is None:
        return None
    return f"{entry.text}\n\n*docs/language.md, {entry.section}*"
