"""The standalone USA engine (examples/conformance/standalone_usa.py): written from the
documents alone, it imports nothing of railspec and passes ``railspec test-engine``; each
of its seeded bugs is caught, the tie-break one by the scored positions whose winners
change when the keys are taken in another order. Also the driver's comparison after a
shuffle, which such an engine needs: the cards drawn after a reshuffle are the engine's
own luck (docs/conformance.md, "Comparing positions")."""
from __future__ import annotations

import ast
import copy
import random
import sys
from pathlib import Path

import pytest

import railspec
from railspec.tools import driver, vectors
from railspec.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "examples" / "conformance" / "standalone_usa.py"


def _test_engine(capsys, *engine_args, games=4):
    status = main(["test-engine", "usa", "--games", str(games), "--seed", "1", "--",
                   sys.executable, str(ENGINE), *engine_args])
    return status, capsys.readouterr().out


def test_the_standalone_engine_uses_the_standard_library_only():
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    modules = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
               for alias in node.names}
    modules |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert modules <= set(sys.stdlib_module_names), modules - set(sys.stdlib_module_names)


def test_the_standalone_engine_passes(capsys):
    status, out = _test_engine(capsys)
    assert status == 0, out
    assert out.rstrip().endswith("passed")
    for check in driver.CHECKS:
        assert any(line.startswith(check) and line.split()[-1] == "0" for line in out.splitlines()), (check, out)


SEEDED = [
    ("double-route", "\nlegal: "),          # a second track of a route offered to its owner
    ("longest-reuse", "\nscore: "),         # a trail that comes back along its first route
    ("tiebreak", "the order of the tie-breaks decides"),  # keys applied last first
]
EDGE_BUGS = [
    ("empty-draw", vectors.EDGE_NO_CARD),        # face-up cards offered with nothing to draw
    ("second-draw", vectors.EDGE_LAST_BLIND),    # a second draw after the last card
    ("endless-passes", vectors.EDGE_PASSES),     # a round of passes that does not end the game
    ("reset-shortage", vectors.EDGE_SHORTAGE),   # a redeal the cards outside the hands forbid
]


def test_the_readme_says_how_each_mutant_is_caught():
    """examples/conformance/README.md's table lists every mutant the engine has, each with
    what catches it (none passes: each is caught by a test below), and the edge cases by
    their names."""
    readme = (ENGINE.parent / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[3] for line in readme.splitlines()
            if line.startswith("| `")}
    mutants = ast.literal_eval(next(node.value for node in ast.parse(ENGINE.read_text(encoding="utf-8")).body
                                    if isinstance(node, ast.Assign) and node.targets[0].id == "MUTANTS"))
    assert set(rows) == set(mutants) == {m for m, _ in SEEDED + EDGE_BUGS}
    assert "passes this mutant" not in readme and "only a tie on the total" not in readme
    for mutant, edge in EDGE_BUGS:
        assert edge.removeprefix("edge: ") in rows[mutant], (mutant, rows[mutant])


@pytest.mark.parametrize("mutant,fragment", SEEDED)
def test_each_seeded_bug_is_caught(mutant, fragment, capsys):
    status, out = _test_engine(capsys, "--mutant", mutant)
    assert status == 1 and out.rstrip().endswith("FAILED"), out
    assert fragment in out and "position: railspec-position/1 usa" in out, out


@pytest.mark.parametrize("mutant,edge", EDGE_BUGS)
def test_each_edge_bug_passes_a_random_game_and_fails_its_edge_case(mutant, edge):
    """Bugs in rules random games almost never reach (30 random games pass each of these
    mutants): the games vectors' hand-made edge cases catch each, and nothing else does."""
    variant = railspec.load("usa")
    report = driver.run(variant, [sys.executable, str(ENGINE), "--mutant", mutant],
                        {"games": vectors.game_records(variant, 1, 1)}, checks=("legal", "apply"))
    cases = [d.case for d in report.divergences]
    assert report.failure is None and any(f"({edge}," in case for case in cases), cases
    assert all("(edge: " in case for case in cases), cases  # the random game passed


def _a_blind_draw_after_a_reshuffle():
    """A USA decision 'draw blind' from an empty deck (the discards reshuffled): the
    position after it, and the drawing seat."""
    v = railspec.load("usa")
    for seed in range(1, 40):
        g = v.new_game(players=3, seed=seed)
        pick = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            names = [v.action_name(a) for a in legal]
            if not g.position()["deck"] and "draw blind" in names:
                seat = g.current_player
                g.apply(legal[names.index("draw blind")])
                return v, g.position(), seat
            g.apply(legal[pick.randrange(len(legal))])
    raise AssertionError("no blind draw from an empty deck in 39 games")


def test_after_a_reshuffle_the_cards_drawn_are_the_engines_own():
    v, expected, seat = _a_blind_draw_after_a_reshuffle()
    hand = expected["hands"][seat]
    drawn = next(c for c in hand if hand[c])
    other = next(i for i, c in enumerate(expected["deck"]) if c != drawn)
    luck = copy.deepcopy(expected)           # the engine's shuffle put another card on top
    luck["hands"][seat][drawn] -= 1
    luck["hands"][seat][luck["deck"][other]] = luck["hands"][seat].get(luck["deck"][other], 0) + 1
    luck["deck"][other] = drawn
    assert driver.compare_positions(v, expected, luck, shuffled=True) is None
    assert "differs" in driver.compare_positions(v, expected, luck, shuffled=False)

    lost = copy.deepcopy(luck)               # a card of the hand discarded instead
    colour = next(c for c, n in lost["hands"][seat].items() if n)
    lost["hands"][seat][colour] -= 1
    lost["discard"][colour] = lost["discard"].get(colour, 0) + 1
    assert "'hands' differs in size" in driver.compare_positions(v, expected, lost, shuffled=True)

    swapped = copy.deepcopy(luck)            # a card that is not in the game any more
    swapped["deck"][0] = "loco" if swapped["deck"][0] != "loco" else "red"
    assert "the train cards differ" in driver.compare_positions(v, expected, swapped, shuffled=True)

    other_field = copy.deepcopy(luck)        # what no shuffle decides must still be equal
    other_field["trains"][seat] -= 1
    assert "'trains' differs" in driver.compare_positions(v, expected, other_field, shuffled=True)
