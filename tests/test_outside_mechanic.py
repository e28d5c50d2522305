"""A mechanic from outside railspec: the postcards of tests/outside_mechanic, a distribution
of its own that make test installs and railspec finds through the railspec.mechanics
entry-point group. It brings a statement, an action, a route attribute, a payment column,
state fields, hooks in both engines, score items, a tie-break key, a position key, the
agents' play and the map's marks; no file of railspec names it.

What a user of such a mechanic expects of railspec is checked here: a spec using it checks
(with located errors when it is wrong), plays the same on both engines, scores, renders,
is observed by the RL tensor and is played by the scripted agents.
"""
from __future__ import annotations

import json
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.mechanic import default_registry
from railspec.playtest import agents
from railspec.playtest.render import render_svg
from railspec.runtime.scoring import winners
from railspec.tools import conformance
from railspec.tools.cli import main

railspec_postcards = pytest.importorskip("railspec_postcards", reason="make install installs tests/outside_mechanic")

ROOT = Path(__file__).resolve().parent.parent
SPEC = Path(railspec_postcards.__file__).resolve().parent / "postcards.rail"


@pytest.fixture(scope="module")
def postcards(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAILSPEC_CACHE", str(tmp_path_factory.mktemp("cache")))
        v = railspec.load(SPEC)
        v.module()  # built here, into the test's own cache
        yield v


def test_it_is_found_by_its_entry_point_and_lives_outside_railspec():
    points = {e.name: e.value for e in metadata.entry_points(group="railspec.mechanics")}
    assert points.get("postcards") == "railspec_postcards:Postcards"
    assert "postcards" in default_registry()
    package = Path(railspec.__file__).resolve().parent
    assert package not in Path(railspec_postcards.__file__).resolve().parents
    assert "postcards" not in railspec.load("usa").ir.mechanics


def test_no_file_of_railspec_names_it():
    """Its name, its statements' words and its state fields appear nowhere in railspec's
    own code: the core, the tools and the stock mechanics."""
    words = ["postcard", "post_office", "scenic"]
    found = subprocess.run(["git", "grep", "-l", "-i", "-E", "|".join(words), "--", "compiler", "engine", "mechanics",
                            "fuzz", "bench", "setup.py", "pyproject.toml"],
                           cwd=ROOT, capture_output=True, text=True, check=False)
    assert found.stdout == "", found.stdout


def test_railspec_mechanics_lists_it(capsys):
    assert main(["mechanics", "--json"]) == 0
    listed = {m["name"]: m for m in json.loads(capsys.readouterr().out)}
    assert listed["postcards"]["statements"] == ["postcards N max M score P", "action buy postcard",
                                                 "route … [scenic N]"]
    assert "railspec_postcards" in listed["postcards"]["documented"]
    assert set(listed["postcards"]["hooks"]) == {"turn_actions", "apply", "payment_ok", "claim_pay", "score_player"}


def test_the_spec_checks_and_the_catalogue_lays_out_its_payments(postcards):
    assert postcards.ir.mechanics >= {"postcards", "multi_track", "longest_path"}
    rule = postcards.ir.rule("postcards")
    assert (rule.count, rule.hand_limit, rule.points) == (12, 3, 2)
    route = postcards.ir.route_named("Denver-Salt Lake City/1")
    blocks = postcards.ir.claim_layout.blocks_of(route.id)
    assert [postcards.ir.paid_by_block(b, "postcards") for b in blocks] == [0, 1, 2]
    assert [b.plain for b in blocks] == [3, 2, 1]
    names = [a.name for a in postcards.actions]
    assert "claim Denver-Salt Lake City/1 red 1red+2post" in names and "buy postcard" in names
    assert postcards.ir.tiebreaks == ("most_tickets", "most_postcards", "longest_path")


BAD = [
    ("postcards 0 max 3 score 2", SpecCheckError, 5, 11, "the number of postcards must be positive, got 0"),
    ("postcards 12 max 30 score 2", SpecCheckError, 5, 18, "a postcard hand limit of 30, but there are 12 postcards"),
    ("postcard 12 max 3 score 2", SpecSyntaxError, 5, 1, "unknown statement 'postcard' (did you mean 'postcards'?)"),
    ("postcards 12 max 3", SpecSyntaxError, 5, 19, "the form is: postcards N max M score P"),
    ("postcards 12 max 3 score 2\nroute Miami - Seattle 3 red scenic 4", SpecCheckError, 6, 36,
     "a scenic route of length 3 cannot take 4 postcards"),
    ("postcards 12 max 3 score 2\nroute Miami - Seattle 3 red scenic", SpecSyntaxError, 6, 35, "[scenic N]"),
]


@pytest.mark.parametrize("line,error,at_line,at_col,message", BAD, ids=[b[0].split("\n")[-1] for b in BAD])
def test_a_bad_spec_gets_a_located_error(tmp_path, line, error, at_line, at_col, message):
    head = SPEC.read_text(encoding="utf-8").split("\n")[:4]  # the comments, extends and variant
    path = tmp_path / "bad.rail"
    path.write_text("\n".join(head + [line.replace('extends "usa"', ""), "action buy postcard"]) + "\n",
                    encoding="utf-8")
    with pytest.raises(error) as raised:
        railspec.load(path)
    text = raised.value.format()
    assert text.startswith(f"{path}:{at_line}:{at_col}: "), text
    assert message in text, text


def test_an_unknown_statement_names_the_mechanics_installed(tmp_path):
    path = tmp_path / "bad.rail"
    path.write_text('extends "usa"\nvariant "x"\nzeppelins 3\n', encoding="utf-8")
    with pytest.raises(SpecSyntaxError, match=r"unknown statement 'zeppelins': neither the core language nor an "
                                              r"installed mechanic has it \(installed: .*postcards"):
        railspec.load(path)


def test_both_engines_play_it_the_same(postcards):
    """The differential suite on the spec: every decision, the state after it, the
    validator's invariants and the scores re-derived from the state, 2 to 5 players."""
    report = conformance.run(postcards, range(30), lambda s: 2 + s % 4, api_every=10)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])
    assert report.games == 30


@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_a_claim_pays_postcards_and_they_score(postcards, engine):
    from conftest import Arranged
    g = postcards.new_game(players=2, seed=3, engine=engine)
    while g.state()["phase"] == "setup_keep":
        g.apply(g.legal_actions()[0])
    buy = postcards.action_id("buy postcard")
    g.apply(buy)
    assert g.state()["postcards"][0] == 1 and g.state()["post_office"] == 11
    g = Arranged(postcards, g).set(current=0, postcards=[2, 0], post_office=10).hand(0, red=1).game(engine)
    claim = postcards.action_id("claim Denver-Salt Lake City/1 red 1red+2post")
    assert claim in g.legal_actions()
    assert postcards.action_id("claim Denver-Salt Lake City/1 red 2red+1post") not in g.legal_actions()
    g.apply(claim)
    s = g.state()
    assert s["postcards"] == [0, 0] and s["post_office"] == 12 and s["owner"][postcards.ir.route_named(
        "Denver-Salt Lake City/1").id] == 0
    rows = g.score_breakdown()
    assert [r["postcards_held"] for r in rows] == [0, 0] and "postcard_points" in rows[0]


def test_a_described_position_scores_it_and_the_tie_break_counts_it(postcards):
    rows = postcards.score({"players": [{"routes": ["Calgary-Helena"], "tickets": [], "postcards": 3},
                                        {"routes": ["Calgary-Helena"][:0], "tickets": [], "postcards": 1}]})
    assert [r["postcard_points"] for r in rows] == [6, 2] and [r["postcards_held"] for r in rows] == [3, 1]
    tied = [dict(total=10, tickets_completed=1, postcards_held=1, longest_path=0),
            dict(total=10, tickets_completed=1, postcards_held=2, longest_path=0)]
    assert winners(postcards.ir, tied) == [1]
    with pytest.raises(railspec.PositionError, match="'postcards' is a number of postcards, 0 to 3"):
        postcards.score({"players": [{"routes": [], "tickets": [], "postcards": 4}, {"routes": [], "tickets": []}]})


def test_playout_settles_ties_on_a_key_without_a_compiled_form(postcards):
    """Its tie-break key is a function of the rows only (no column): the compiled playout
    names the seats at the best total, and the tied games go through winners()."""
    from railspec.runtime.scoring import rows_of_playout, tiebreak_plan
    keys = postcards.assembly.breakdown_keys
    assert tiebreak_plan(postcards.ir, keys) is None
    players = min(4, postcards.ir.max_players)
    result = postcards.playout(games=1500, players=players, seed=3)
    rows = rows_of_playout(result, keys)
    assert result["winners"] == [winners(postcards.ir, game) for game in rows]
    settled = [g for g, t in enumerate(result["totals"]) if t.count(max(t)) > 1 and len(result["winners"][g]) == 1]
    assert settled, "no tied game that a key settled"


def test_it_is_drawn_on_the_map(postcards):
    svg = render_svg(postcards.ir)
    assert svg.count(" P2<") == 2 and svg.count(" P3<") == 2 and svg.count(" P1<") == 1


def test_the_rl_tensor_observes_it(postcards):
    np = pytest.importorskip("numpy")
    from railspec.rl import tensor
    spec = postcards.observation_spec()
    assert {"postcards", "post_office"} <= set(spec.names)
    g = postcards.new_game(players=3, seed=4)
    encoder = tensor.ObservationEncoder(postcards)
    compiled = encoder.encode(g, 1)
    assert np.array_equal(compiled, encoder.fill(g.state(), 1))
    assert spec.view(compiled, "post_office")[0] == 1.0  # every postcard at the post office


def test_the_scripted_agents_play_it(postcards):
    """The four styles play games of it with no illegal move (an illegal one raises); they
    buy postcards for scenic routes (the payment_draw rule) and pay claims with them."""
    styles = ("one-step", "long-route", "route-focus", "destination-hungry")
    bought = paid = 0
    for seed in range(8):
        seats = [agents.make(name, seed=seed) for name in styles]
        game = postcards.new_game(players=4, seed=seed)
        while not game.is_over:
            action = seats[game.current_player].act(game)
            name = game.action_name(action)
            bought += name == "buy postcard"
            paid += name.startswith("claim ") and "post" in name.rsplit(" ", 1)[-1]
            game.apply(action)
    assert bought > 0 and paid > 0
