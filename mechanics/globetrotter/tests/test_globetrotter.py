"""The Globetrotter bonus (mechanics/globetrotter): its statement and its errors, and its rule
on the Pennsylvania map (shared/seeds/003_dff6463ca3838127.txt, the Italian edition:
Calcolare il punteggio).
"""
from __future__ import annotations

import pytest
from conftest import add, assert_located_error, bad_spec_params, checked, mini

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


# --- the statement: 'globetrotter N' ----------------------------------------------------------

def test_globetrotter_pennsylvania():
    """Pennsylvania, 'Calcolare il punteggio': the Globetrotter bonus of 15 points."""
    v = checked(mini("globetrotter 15"))
    assert v.rule("globetrotter").bonus == 15 and "globetrotter" in v.mechanics


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("globetrotter-misspelt", add(18, "globetroter 15"), S, 18, 1,
     "unknown statement 'globetroter' (did you mean 'globetrotter'?)"),
    ("globetrotter-no-number", add(18, "globetrotter"), S, 18, 13, "the form is: globetrotter N"),
    ("globetrotter-too-large", add(18, "globetrotter 5000000"), C, 18, 14,
     "the Globetrotter bonus must be at most 1,000,000, got 5000000"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- Calcolare il punteggio (Pennsylvania) ----------------------------------------------------

@pytest.mark.parametrize("completed,bonus", [([2, 2, 1], [15, 15, 0]), ([0, 3], [0, 15]), ([0, 0], [0, 0])])
def test_globetrotter(penn, completed, bonus):
    """Calcolare il punteggio: the Globetrotter bonus, 15, to the player or players who
    completed the most tickets; nobody completed one, nobody scores it (docs/rules.md #17)."""
    from railspec.mechanics.globetrotter import globetrotter_bonus
    assert globetrotter_bonus(penn.ir.rule("globetrotter"), completed) == bonus
