"""Names as text: one spelling for each name, whatever way its characters were typed.

Unicode writes ``ü`` either as one character or as ``u`` followed by a combining
diaeresis (as some systems paste it). Every name railspec reads, in a spec, a position,
an action's name or a variant's name, is put in the composed form (NFC) first, so the two
spellings are the same name.
"""
from __future__ import annotations

import unicodedata


def canonical(name: str) -> str:
    """``name`` in Unicode's composed form (NFC); any other value unchanged."""
    if isinstance(name, str) and not unicodedata.is_normalized("NFC", name):
        return unicodedata.normalize("NFC", name)
    return name
