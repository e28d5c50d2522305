"""The conformance kit for other engines (docs/conformance.md): the test vectors, their
JSON Schemas, the driver protocol and ``railspec test-engine``.

railspec's own engines behind the protocol (examples/conformance/railspec_engine.py) pass
every check; engines that crash, hang, answer garbage or flood are reported as such within
the timeout; an engine that differs is stopped at its first difference, which is named."""
from __future__ import annotations

import dataclasses
import itertools
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler.base.schema import CORE_PHASES
from railspec.tools import driver, export, perft, schemas, vectors
from railspec.tools.cli import main

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "examples" / "conformance" / "railspec_engine.py"
VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each stock variant's vectors, exported twice with the same arguments."""
    out = {}
    for v in VARIANTS:
        first, second = (tmp_path_factory.mktemp(f"{v.key}{k}") for k in "ab")
        vectors.export(v, first, games=2, seed=5)
        vectors.export(v, second, games=2, seed=5)
        out[v.key] = (first, second)
    return out


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_vectors_regenerate_identically(v, exported):
    first, second = exported[v.key]
    names = sorted(str(p.relative_to(first)) for p in first.rglob("*") if p.is_file())
    assert names == ["games.jsonl", "perft.jsonl", "schemas/driver-answer.schema.json",
                     "schemas/driver-request.schema.json", "schemas/games.schema.json", "schemas/perft.schema.json",
                     "schemas/position.schema.json", "schemas/scores.schema.json", "schemas/trace.schema.json",
                     "schemas/variant.schema.json", "scores.jsonl", "variant.json"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_exported_line_meets_its_schema(v, exported):
    folder = exported[v.key][0]
    for kind in vectors.KINDS:
        schema = json.loads((folder / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(schema)
        lines = (folder / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) > 1, kind
        for number, line in enumerate(lines, 1):
            errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.path))
            assert not errors, f"{kind}.jsonl line {number}: {errors[0].message[:300]} at {list(errors[0].path)}"
    # positions on their own, and a wrong one is caught
    position = jsonschema.Draft202012Validator(
        json.loads((folder / "schemas" / "position.schema.json").read_text(encoding="utf-8")))
    start = json.loads((folder / "games.jsonl").read_text(encoding="utf-8").splitlines()[1])["start"]
    assert not list(position.iter_errors(start))
    start["deck"] = start["deck"][:-1] + ["mauve"]
    assert list(position.iter_errors(start))


def test_the_golden_traces_meet_the_trace_schema():
    for path in sorted((ROOT / "tests" / "golden").glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        variant = railspec.load(lines[0]["variant"])
        validator = jsonschema.Draft202012Validator(schemas.trace_schema(variant))
        for number, line in enumerate(lines, 1):
            errors = list(validator.iter_errors(line))
            assert not errors, f"{path.name} line {number}: {errors[0].message[:200]}"


STANDALONE = ROOT / "examples" / "conformance" / "standalone_usa.py"


@pytest.mark.parametrize("engine", [ADAPTER, STANDALONE], ids=["railspec", "standalone"])
def test_every_request_and_answer_meets_the_driver_schemas(engine, monkeypatch):
    """The driver's requests and two engines' answers, over a game with the edge cases, two
    scored positions and a perft count, each against the driver's schemas (an answer
    against the one for its request); and answers that break the protocol do not."""
    variant = railspec.load("usa")
    requests = jsonschema.Draft202012Validator(schemas.driver_request_schema(variant))
    answer_schema = schemas.driver_answer_schema(variant)
    traffic = []
    ask = driver.EngineProcess.request

    def recorded(self: driver.EngineProcess, message: dict, timeout: float | None = None) -> dict:
        answer = ask(self, message, timeout)
        traffic.append((message, answer))
        return answer

    monkeypatch.setattr(driver.EngineProcess, "request", recorded)
    first_turn = variant.new_game(players=3, seed=2)
    while first_turn.state()["phase"] != "turn":  # the set-up's keeps
        first_turn.apply(first_turn.legal_actions()[0])
    counted = {"type": "perft", "name": "the first turn", "position": first_turn.position(),
               "counts": perft.counts(first_turn, 2), "divide": perft.divide(first_turn, 2)}
    cases = {"games": vectors.game_records(variant, 1, 2),
             "scores": itertools.islice(vectors.score_records(variant, 1, 2), 2), "perft": [counted]}
    report = driver.run(variant, [sys.executable, str(engine)], cases)
    assert report.ok, report.table()
    assert {m["cmd"] for m, _ in traffic} == {"hello", "position", "position?", "legal", "apply", "score", "perft"}
    answers = {}  # an answer's definition -> a validator of it
    for message, answer in traffic + [({"cmd": "quit"}, None)]:
        assert not list(requests.iter_errors(message)), message
        if answer is not None:
            name = schemas.answer_def(message["cmd"] if answer["ok"] else None)
            if name not in answers:
                one = {k: v for k, v in answer_schema.items() if k != "anyOf"} | {"$ref": f"#/$defs/{name}"}
                answers[name] = jsonschema.Draft202012Validator(one)
            errors = list(answers[name].iter_errors(answer))
            assert not errors, (message["cmd"], errors[0].message[:300])
    anything = jsonschema.Draft202012Validator(answer_schema)
    for wrong in ({"ok": True, "legal": ["draw blindly"]}, {"ok": True, "legal": ["draw blind", "draw blind"]},
                  {"ok": True, "protocol": schemas.DRIVER_PROTOCOL, "supports": ["legal"]}, {"ok": False},
                  {"ok": True, "counts": [], "divide": {}}, {"ok": True, "breakdown": [{"total": 1}], "winners": [0]}):
        assert list(anything.iter_errors(wrong)), wrong
    assert list(requests.iter_errors({"cmd": "apply", "action": "claim Nowhere-Else gray 9loco"}))


def _exported(v: railspec.Variant, capsys: pytest.CaptureFixture) -> dict:
    assert main(["export", v.key]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_variant_export_meets_its_schema_and_rebuilds_the_route_table(v, capsys):
    """``railspec export``: the document validates; from it alone, each route's name (its
    cities, and its track for a double), length, colour and points, each ticket's name,
    places and points, and the cards are those railspec plays."""
    doc = _exported(v, capsys)
    assert doc == json.loads(json.dumps(export.variant_document(v)))
    assert main(["export", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert not errors, errors[0].message[:300]
    cities = [c["name"] for c in doc["cities"]]
    assert cities == [c.name for c in v.ir.cities]
    rebuilt = [(f"{r['a']}-{r['b']}" + (f"/{r['track']}" if r["tracks"] > 1 else ""), cities.index(r["a"]),
                cities.index(r["b"]), r["length"], r["colour"], doc["game"]["route_points"][r["length"]])
               for r in doc["routes"]]
    assert rebuilt == [(r.name, r.a, r.b, r.length, r.colour_name, v.ir.route_points[r.length])
                       for r in v.ir.routes]
    assert [(t["name"], cities.index(t["from"]), cities.index(t["to"]), t["points"]) for t in doc["tickets"]] \
        == [(t.name, t.a, t.b, t.points) for t in v.ir.tickets]
    assert [(c["name"], c["count"]) for c in doc["cards"]][:-1] == [(c.name, c.count) for c in v.ir.colours]
    assert sum(len(names) for names in doc["decks"]["tickets"].values()) == len(v.ir.tickets)
    assert [m["name"] for m in doc["mechanics"]] == [r.mechanic for r in v.ir.rules]


def test_a_rule_record_of_any_shape_is_written_as_json():
    """An outside mechanic's record may hold what it likes: records inside, sets, floats,
    values of no JSON form (written as their text); spans are left out."""
    @dataclasses.dataclass(frozen=True)
    class Inner:
        cities: tuple[int, ...]
        span: object = dataclasses.field(default="spec.rail:3:1", compare=False)

    @dataclasses.dataclass(frozen=True)
    class Odd:
        inner: tuple[Inner, ...]
        costs: frozenset
        share: float
        pace: object
        table: dict

    record = Odd((Inner((3, 1)),), frozenset({10, 9}), 0.5, float("inf"), {2: "two"})
    assert export.plain(record) == {"inner": [{"cities": [3, 1]}], "costs": [9, 10], "share": 0.5, "pace": "inf",
                                    "table": {"2": "two"}}
    value = {"$defs": schemas.variant_schema()["$defs"], "$ref": "#/$defs/value"}
    assert not list(jsonschema.Draft202012Validator(value).iter_errors(export.plain(record)))
    json.dumps(export.plain(record), allow_nan=False)


def _claims(doc: dict) -> list[str]:
    """The claim names docs/conformance.md ("Action names") gives, from an exported
    document alone: the core's payments, a ferry's least locomotives (its ``ferry N``
    attribute) and, where a rule record lists the only routes locomotives are wild on,
    no locomotives elsewhere."""
    colours = [c["name"] for c in doc["cards"] if not c["locomotive"]]
    rules = {m["name"]: m["rule"] for m in doc["mechanics"]}
    wild_on = set(rules["wild_locomotives"]["routes"]) if "wild_locomotives" in rules else None
    out = []
    for r in doc["routes"]:
        least = sum(a["value"] for a in r["attributes"] if a["name"] == "ferry")
        wild = wild_on is None or r["id"] in wild_on
        for locos in range(least, r["length"] if wild else least + 1):
            for colour in (colours if r["gray"] else [r["colour"]]):
                out.append(f"claim {r['name']} {r['colour']} {r['length'] - locos}{colour}"
                           + (f"+{locos}loco" if locos else ""))
        if wild:
            out.append(f"claim {r['name']} {r['colour']} {r['length']}loco")
    return sorted(out)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_claim_names_rebuild_from_the_variant_export(v, capsys):
    """The catalogue's claims from the export alone, for every stock map whose payments
    are the core's, a ferry's and wild locomotives' (seven of nine); of the two others'
    claims, exactly those that pay in a payment column (Nordic sets of any cards, Italy's
    ferry cards, whose wave spaces the rebuild leaves out) are missing."""
    doc = _exported(v, capsys)
    real = sorted(a.name for a in v.ir.actions if a.kind == "claim")
    mine = _claims(doc)
    columns = tuple(c["text"] for c in doc["payment_columns"])
    if not columns:
        assert mine == real
    else:
        assert {name for name in real if name not in mine} == {name for name in real if name.endswith(columns)}
        assert v.key == "italy" or set(mine) <= set(real)


HARD_CASES = {
    "usa": {vectors.TIE_LABEL, "network with two or more cycles", "longest path tied", vectors.ORDER_LABEL},
    "europe": {"a station choosing among routes", "network with two or more cycles", vectors.ORDER_LABEL},
    "amsterdam": {"a tie in the goods ranking"},
    "pennsylvania": {"a tied company majority", "globetrotter tied"},
    "italy": {"a double region reached"},
    "legendary_asia": {"explorer tied", "explorer tied after its keys"},
    "india": {"a grand tour ticket", "network with two or more cycles"},
    "japan": {"a tie on the Bullet Train track", "a player without Bullet Train contribution"},
}
#: Random games scanned for them: a Grand Tour is rare in random play (the first of these
#: seeds comes in the 62nd game scanned).
SCAN = {"india": 80}


@pytest.mark.parametrize("name", sorted(HARD_CASES))
def test_the_vectors_hold_each_mechanics_hard_cases(name):
    """Positions whose scoring is easy to get wrong are kept, labelled by the core (a tie
    the tie-break settles) and by each mechanic's hard_cases hook."""
    found = {r["name"].rsplit(" ", 1)[0]
             for r in vectors.score_records(railspec.load(name), 1, 1, scan=SCAN.get(name, 60))}
    assert HARD_CASES[name] <= found, found


#: The edge cases a stock variant's rules leave out (docs/conformance.md, "Edge cases"):
#: Nordic Countries', Northern Lights' and the United Kingdom's markets have no reset; in
#: Italy a player with no train card to draw may still draw a ferry card, so passing is not
#: all that is left.
EDGES_LEFT_OUT = {"nordic_countries": {vectors.EDGE_SHORTAGE}, "northern_lights": {vectors.EDGE_SHORTAGE},
                  "united_kingdom": {vectors.EDGE_SHORTAGE}, "italy": {vectors.EDGE_PASSES}}


def _state_at(v: railspec.Variant, position: dict) -> dict:
    return v.game_from_position(position).state()


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_each_variant_has_its_edge_cases_and_each_reaches_its_rule(v):
    """Every stock variant's games vectors end with the edge cases its rules allow, each in
    the position the table of docs/conformance.md gives and doing what it says a correct
    engine does; both of railspec's engines play them alike behind the protocol."""
    edges = list(vectors.edge_records(v, 1, first=10))
    assert [r["name"] for r in edges] == [n for n in vectors.EDGES if n not in EDGES_LEFT_OUT.get(v.key, set())]
    assert [r["game"] for r in edges] == list(range(10, 10 + len(edges)))
    colours = len(v.ir.colours)
    for record in edges:
        start, steps = _state_at(v, record["start"]), record["steps"]
        after = [_state_at(v, step["position"]) for step in steps]
        piles_empty = not start["deck"] and not sum(start["discard"])
        name = record["name"]
        if name == vectors.EDGE_NO_CARD:
            assert piles_empty and all(c >= 0 for c in start["faceup"])
            assert not any(a.startswith(("draw blind", "draw faceup")) for a in steps[0]["legal"]), steps[0]["legal"]
            assert len({s["current"] for s in after}) == start["players"]  # every seat took a turn
        elif name in (vectors.EDGE_LAST_BLIND, vectors.EDGE_LAST_FACEUP):
            assert len(start["deck"]) == 1 and not sum(start["discard"])
            assert steps[0]["action"].startswith("draw blind" if name == vectors.EDGE_LAST_BLIND else "draw faceup ")
            # no second draw: the turn is over, unless a mechanic opens a decision of the same
            # player once a draw is over (after_draw: France's track piece)
            if after[0]["phase"] == "turn":
                assert after[0]["current"] != start["current"]
            else:
                assert after[0]["phase"] not in CORE_PHASES and after[0]["current"] == start["current"], after[0]
        elif name == vectors.EDGE_PASSES:
            assert piles_empty and not start["ticket_deck"] and start["passes"] == start["players"] - 1
            assert not any(start["hands"][start["current"]])
            assert [s["action"] for s in steps] == ["pass"] and after[-1]["phase"] == "over"
        else:
            assert not start["deck"] and set(i for i, n in enumerate(start["discard"]) if n) == {colours}
            assert start["faceup"].count(colours) == v.ir.market_reset_locomotives
            assert all(s["faceup"] == start["faceup"] for s in after)  # no redeal
    for engine in ("compiled", "reference"):
        report = driver.run(v, [sys.executable, str(ADAPTER), "--engine", engine], {"games": edges},
                            checks=("legal", "apply"))
        assert report.ok and report.run["apply"] == sum(len(r["steps"]) for r in edges), (engine, report.table())


@pytest.mark.parametrize("variant,engine", [("usa", "reference"), ("europe", "compiled"),
                                            ("pennsylvania", "compiled"), ("amsterdam", "reference")])
def test_railspec_behind_the_protocol_passes(variant, engine, capsys):
    status = main(["test-engine", variant, "--games", "2", "--seed", "3", "--",
                   sys.executable, str(ADAPTER), "--engine", engine])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.rstrip().endswith("passed")
    for check in driver.CHECKS:
        assert any(line.startswith(check) and line.split()[-1] == "0" for line in out.splitlines()), (check, out)


def test_test_engine_reads_exported_vectors(tmp_path, capsys):
    vectors.export(railspec.load("italy"), tmp_path, games=1, seed=2)
    assert main(["test-engine", "italy", "--vectors", str(tmp_path), "--", sys.executable, str(ADAPTER)]) == 0


def _fake_engine(tmp_path, body: str) -> list[str]:
    """An engine script: it answers hello as the protocol asks, then does ``body`` on the
    next request."""
    path = tmp_path / "fake.py"
    path.write_text(textwrap.dedent('''
        import json, sys, time
        def answer(obj):
            sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
        hello = json.loads(sys.stdin.readline())
        answer({"ok": True, "protocol": "railspec-driver/1", "engine": "fake",
                "supports": ["legal", "apply", "position", "score", "perft"]})
        request = json.loads(sys.stdin.readline())
    ''') + textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


@pytest.mark.parametrize("body,kind,fragment", [
    ("print('something went wrong', file=sys.stderr); sys.exit(3)", "crashed", "status 3"),
    ("time.sleep(60)", "hung", "no answer to 'position' within 1 s"),
    ("print('hello world'); sys.stdout.flush(); time.sleep(60)", "garbled", "not JSON"),
    ("print('[1, 2]'); sys.stdout.flush(); time.sleep(60)", "garbled", "not an object with 'ok'"),
    ("sys.stdout.write('x' * 3_000_000); sys.stdout.flush(); time.sleep(60)", "flooding", "longer than 1,000,000"),
    ("sys.stdout.write('{\"ok\": true, \"pad\": \"' + 'x' * 50_000_000 + '\"}\\n'); sys.stdout.flush()",
     "flooding", "longer than 1,000,000"),
])
def test_an_engine_that_stops_answering_is_named_and_never_waited_on(tmp_path, body, kind, fragment, capsys):
    command = _fake_engine(tmp_path, body)
    start = time.monotonic()
    status = main(["test-engine", "usa", "--games", "1", "--timeout", "1", "--max-line", "1000000", "--",
                   *command])
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 1 and f"the engine {kind}: " in out and fragment in out, out
    assert elapsed < 30, "the driver waited on a broken engine"
    if kind == "crashed":
        assert "stderr: something went wrong" in out


def test_an_engine_that_refuses_the_spec_is_reported(tmp_path, capsys):
    path = tmp_path / "refuse.py"
    path.write_text("import json, sys\nsys.stdin.readline()\n"
                    "print(json.dumps({'ok': False, 'error': 'I only play Europe'}), flush=True)\n", encoding="utf-8")
    assert main(["test-engine", "usa", "--games", "1", "--", sys.executable, str(path)]) == 1
    assert "I only play Europe" in capsys.readouterr().out


WRAPPER = '''
import sys
sys.path.insert(0, {folder!r})
import railspec_engine as base

class Wrong(base.Adapter):
{method}

base.Adapter = Wrong
sys.exit(base.main([]))
'''


@pytest.mark.parametrize("method,check,fragment", [
    ("    def legal(self, request):\n        out = super().legal(request)\n"
     "        out['legal'] = [a for a in out['legal'] if a != 'draw blind']\n        return out\n",
     "legal", "also [\"draw blind\"]"),
    ("    def score(self, request):\n        out = super().score(request)\n"
     "        out['breakdown'][1]['total'] += 1\n        return out\n", "score", "seat 1 'total': "),
    ("    def score(self, request):\n        out = super().score(request)\n"
     "        del out['breakdown'][0]['tickets']\n        return out\n", "score", "seat 0: no 'tickets'"),
    ("    def perft(self, request):\n        out = super().perft(request)\n"
     "        out['counts'][-1] += 1\n        return out\n", "perft", "perft"),
    ("    def apply(self, request):\n        out = super().apply(request)\n"
     "        self.game = self.variant.game_from_position(self.game.position())\n"
     "        if self.game.state()['turn'] == 3:\n"
     "            p = self.game.position(); p['passes'] = 1\n"
     "            self.game = self.variant.game_from_position(p)\n"
     "        return out\n", "apply", "'passes' differs"),
])
def test_a_difference_is_stopped_at_and_named(tmp_path, method, check, fragment, capsys):
    path = tmp_path / "wrong.py"
    path.write_text(WRAPPER.format(folder=str(ADAPTER.parent), method=method), encoding="utf-8")
    status = main(["test-engine", "usa", "--games", "2", "--seed", "1", "--", sys.executable, str(path)])
    out = capsys.readouterr().out
    assert status == 1 and out.rstrip().endswith("FAILED"), out
    assert f"\n{check}: " in out and fragment in out and "position: railspec-position/1 usa" in out, out


def _rows(out: str) -> dict[str, str]:
    """The summary table's rows, by check."""
    return {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()
            if line.split() and line.split()[0] in driver.CHECKS}


def test_only_the_checks_the_engine_supports_are_sent(capsys):
    """An engine whose hello lists only some checks (the adapter refuses every other
    request, so one sent would fail the run) is given those alone, and the table says
    which were not run."""
    status = main(["test-engine", "usa", "--games", "1", "--", sys.executable, str(ADAPTER),
                   "--supports", "position,legal"])
    out = capsys.readouterr().out
    assert status == 0, out
    rows = _rows(out)
    assert int(rows["legal"].split()[0]) > 100 and rows["legal"].split()[-1] == "0", out
    for check in ("apply", "score", "perft"):
        assert rows[check] == "not supported by the engine", out
    # an engine of positions alone runs nothing, and fails saying so
    assert main(["test-engine", "usa", "--games", "1", "--", sys.executable, str(ADAPTER),
                 "--supports", "position"]) == 1
    out = capsys.readouterr().out
    assert "no case ran: the engine supports none of the checks asked for" in out and out.rstrip().endswith("FAILED")


def test_checks_not_asked_for_are_not_sent(tmp_path, capsys):
    """``--checks legal``: an engine that supports everything but dies on any other
    check's request passes, and the table names the checks not asked for (not "not
    supported")."""
    dying = "".join(f"    def {name}(self, request):\n        sys.exit(5)\n"
                    for name in ("apply", "score", "perft", "get_position"))
    path = tmp_path / "legal_only.py"
    path.write_text(WRAPPER.format(folder=str(ADAPTER.parent), method=dying), encoding="utf-8")
    status = main(["test-engine", "usa", "--games", "1", "--checks", "legal", "--", sys.executable, str(path)])
    out = capsys.readouterr().out
    assert status == 0, out
    rows = _rows(out)
    assert rows["legal"].split()[-1] == "0" and "not supported" not in out, out
    assert all(rows[check] == "not asked (--checks)" for check in ("apply", "score", "perft")), out


@pytest.mark.parametrize("got,fragment", [
    ("a string", "not a list of objects"),
    ([{"routes": 1, "total": 1}], "1 seats"),
    ([{"routes": 1, "total": 1}, {"routes": 2, "total": 3}], "seat 1 'total': 3"),
    ([{"routes": 1, "total": 1}, {"routes": 2, "total": 2.0}], "seat 1 'total': 2.0"),
    ([{"routes": 1, "total": 1}, {"routes": 2}], "seat 1: no 'total'"),
    ([{"routes": 1, "total": 1, "bonus": 0}, {"routes": 2, "total": 2}], "seat 0 bonus: 0"),
])
def test_a_breakdown_difference_names_the_seat_and_the_item(got, fragment):
    expected = [{"routes": 1, "total": 1}, {"routes": 2, "total": 2}]
    assert driver.breakdown_difference(expected, expected) is None
    mine, theirs = driver.breakdown_difference(expected, got)
    assert fragment in theirs, (mine, theirs)


@pytest.mark.parametrize("argv,fragment", [
    (["test-engine", "usa"], "give the engine's command after --"),
    (["test-engine", "usa", "--"], "give the engine's command after --"),
    (["test-engine", "usa", "--checks", "speed", "--", "x"], "the checks are legal, apply, score, perft"),
    (["test-engine", "usa", "--timeout", "0", "--", "x"], "give more than 0"),
    (["test-engine", "usa", "--vectors", "/no/such/folder", "--", "x"], "no such folder"),
    (["suite", "export", "usa"], "--out"),
    (["export"], "give a VARIANT to export, or --schema"),
    (["export", "usa", "--schema"], "(not both)"),
    (["export", "usa", "--out", "/no/such/folder/usa.json"], "no directory /no/such/folder"),
])
def test_bad_conformance_command_lines_are_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err


def test_a_missing_engine_program_is_reported(capsys):
    assert main(["test-engine", "usa", "--games", "1", "--", "/no/such/engine"]) == 1
    assert "could not be started" in capsys.readouterr().out
