"""The draw bonus (mechanics/draw_bonus): its route attribute's errors and its rule beside a
held claim. The map's own play tests are in tests/test_rules_northern_lights.py (SUMMARY:
thoun/tickettoride northernlights/map.php rulesDifferences, "After claiming a route with a
+X drawing bonus, draw X Train Car cards from the top of the deck")."""
from __future__ import annotations

import pytest
from conftest import assert_located_error, bad_spec_params, checked, edit

from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError


def test_the_attribute():
    """``draw N`` on a route: the rule records the route and its cards."""
    v = checked(edit(27, "route Gamma - Delta 4 blue draw 2"))
    route = v.route_named("Gamma-Delta")
    assert v.rule("draw_bonus").of(route.id) == 2 and "draw_bonus" in v.mechanics


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("draw-bonus-zero", edit(27, "route Gamma - Delta 4 blue draw 0"), C, 27, 33,
     "a route's draw bonus is 1 to 10 cards, got 0"),
    ("draw-bonus-too-many", edit(27, "route Gamma - Delta 4 blue draw 11"), C, 27, 33,
     "a route's draw bonus is 1 to 10 cards, got 11"),
    ("draw-bonus-no-number", edit(27, "route Gamma - Delta 4 blue draw"), S, 27, 32,
     "expected a number"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)
