"""Returned tickets shuffled before they go under the deck (mechanics/shuffled_returns): its
statements and their errors. Italy rulebook (shared/seeds/004_7923d32833fcf0ff.txt, the
Portuguese edition), Preparação. (Italy's set-up, which shuffles, is tested in
tests/test_rules_italy.py; a tiny map's shuffled returns on both engines in
tests/test_emit_build.py.)
"""
from __future__ import annotations

import pytest
from conftest import assert_located_error, bad_spec_params, checked, edit, mini

from railspec.compiler.base.errors import SpecSyntaxError

S = SpecSyntaxError


# --- the statements: 'returned tickets shuffled bottom', 'returned setup shuffled bottom' -----

def test_returned_tickets_italy_preparacao():
    """Italy, 'Preparação': the discarded tickets are shuffled and put under the deck."""
    v = checked(mini("returned tickets shuffled bottom"))
    assert (v.rule("shuffled_returns").draws, v.rule("shuffled_returns").setup) == (True, True)
    assert checked(mini("returned tickets bottom")).rule("shuffled_returns") is None
    assert checked(mini()).rule("shuffled_returns") is None
    v = checked(mini("returned setup shuffled bottom"))
    assert (v.rule("shuffled_returns").draws, v.rule("shuffled_returns").setup) == (False, True)


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("returned-shuffled-top", edit(10, "returned tickets shuffled top"), S, 10, 27,
     "unexpected 'top', expected 'bottom'"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)
