"""The use of train stations at scoring, checked against brute force (Europe rulebook,
CALCOLO DEI PUNTEGGI; docs/engine.md "Train stations"; docs/rules.md #16).

Each station lets its owner use one route of another player at its city, the same route
for all the owner's tickets. The engines pick, for each player, the assignment scoring the
most ticket points, then the most completed tickets, then the lowest route ids. The
compiled engine leaves out routes that cannot change the choice and chooses with
railspec.mechanics.stations.choice (compiled once with railspec), which is also tested
here by itself, on problems given as components; the reference tries every assignment.
This test holds its own plain brute force, written from the rulebook's sentence and
sharing no code with either engine, and compares both engines with it on
end-of-game positions: those random games reach, random boards denser than play makes
(every route owned, many tickets, three stations each), and the positions the benchmark
times as the slowest to score (the mechanic's ``hard_position`` and those the hill-climb
of bench/adversarial_positions.py kept).
"""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import railspec
from railspec.compiler.mechanic import HardCases, part

RANDOM_GAMES = 600   # positions at the end of seeded random games
RANDOM_BOARDS = 800  # positions drawn at random (each with 2-5 players)
HARD_POSITIONS = 40  # the benchmark's hard case, drawn as bench/benchmark.py draws it
ADVERSARIAL = Path(__file__).resolve().parents[1] / "bench" / "adversarial" / "europe-stations-positions.json"


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


def components(node_count: int, edges) -> list[int]:
    """A label per node, equal for nodes joined by ``edges``."""
    label = list(range(node_count))

    def find(x: int) -> int:
        while label[x] != x:
            x = label[x]
        return x
    for a, b in edges:
        label[find(a)] = find(b)
    return [find(n) for n in range(node_count)]


def brute_force(v, owner: list[int], tickets: list[int], stations: list[int], player: int):
    """(ticket points, completed, route ids by station) of the best use of ``stations``
    (city ids, ascending) by ``player``: every assignment tried."""
    ir = v.ir
    own = [(r.node_a, r.node_b) for r in ir.routes if owner[r.id] == player]
    options = [[None] + [r for r in ir.routes if city in (r.a, r.b) and owner[r.id] not in (-1, player)]
               for city in stations]
    best = None
    for choice in itertools.product(*options):
        label = components(ir.node_count, own + [(r.node_a, r.node_b) for r in choice if r is not None])
        points = done = 0
        for t in (ir.tickets[i] for i in tickets):
            joined = any(label[a] == label[b] for a in ir.city_nodes[t.a] for b in ir.city_nodes[t.b])
            points += t.points if joined else -t.points
            done += joined
        ids = tuple(-1 if r is None else r.id for r in choice)
        key = (-points, -done, ids)
        if best is None or key < best:
            best = key
    return -best[0], -best[1], best[2]


def expected_rows(v, state: dict) -> list[tuple]:
    out = []
    for p in range(state["players"]):
        stations = [c for c, o in enumerate(state["station_owner"]) if o == p]
        out.append(brute_force(v, state["owner"], state["tickets"][p], stations, p))
    return out


def got_rows(rows: list[dict]) -> list[tuple]:
    return [(row["tickets"], row["tickets_completed"],
             tuple(row[f"station_{k}_route"] for k in range(1, 4) if row[f"station_{k}_route"] != -1 or
                   k <= row["stations_built"]))
            for row in rows]


def final_states(v, count: int) -> list[dict]:
    states = []
    for seed in range(count):
        game = v.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        states.append(game.state())
    return states


def random_board(v, rng: random.Random) -> dict:
    """A described position: routes dealt out at random (each player within 45 trains),
    3 to 8 tickets and 1 to 3 stations each."""
    ir = v.ir
    players = rng.randint(2, 5)
    seats = [{"routes": [], "tickets": [], "stations": []} for _ in range(players)]
    trains = [0] * players
    usable = 2 if players >= 4 else 1  # Europe: one track of a double route with 2 or 3 players
    group_owners: dict[int, list[int]] = {}
    for route in rng.sample(list(ir.routes), len(ir.routes)):
        p = rng.randrange(players)
        owners = group_owners.setdefault(route.group, [])
        if p in owners or len(owners) >= usable:
            continue  # the rules forbid it: positions refuse it
        if trains[p] + route.length <= ir.trains and rng.random() < 0.85:
            seats[p]["routes"].append(route.name)
            trains[p] += route.length
            owners.append(p)
    tickets = rng.sample(list(ir.tickets), len(ir.tickets))
    free = {c.name for c in ir.cities if not c.dead_end}
    for seat in seats:
        held = [tickets.pop() for _ in range(rng.randint(3, 8))]
        seat["tickets"] = [t.name for t in held]
        # stations mostly at the ends of the player's own tickets, where they can help
        ends = [ir.cities[c].name for t in held for c in (t.a, t.b)] + rng.sample(sorted(free), 3)
        wanted = rng.randint(1, 3)
        for name in ends:
            if len(seat["stations"]) < wanted and name in free:
                seat["stations"].append(name)
                free.discard(name)
    return {"variant": "europe", "players": seats}


def test_station_use_is_the_best_of_every_assignment_on_played_positions(europe):
    """End-of-game positions of random games, both engines against the brute force."""
    checked = 0
    for state in final_states(europe, RANDOM_GAMES):
        expected = expected_rows(europe, state)
        for engine in ("compiled", "reference"):
            rows = europe.game_from_state(state, engine=engine).score_breakdown()
            assert got_rows(rows) == expected, f"{engine}, seed {state['seed']}"
        checked += 1
    assert checked == RANDOM_GAMES


def test_station_use_is_the_best_of_every_assignment_on_dense_boards(europe):
    """Random boards with most routes owned and stations at the players' ticket ends: many
    options, and stations that matter."""
    from railspec.runtime.position import position_fields
    from railspec.runtime.reference import score_fields
    rng = random.Random(2026)
    options_seen = 0
    for _ in range(RANDOM_BOARDS):
        position = random_board(europe, rng)
        fields = position_fields(europe.ir, position)
        state = {"players": fields["players"], "owner": fields["owner"], "tickets": fields["tickets"],
                 "station_owner": fields["station_owner"]}
        expected = expected_rows(europe, state)
        compiled = europe.score(position)
        reference = score_fields(europe.ir, fields)
        assert got_rows(compiled) == expected, position
        assert got_rows(reference) == expected, position
        options_seen += sum(1 for row in expected for route in row[2] if route != -1)
    assert options_seen > RANDOM_BOARDS // 2, options_seen  # the boards make stations use routes


def hard_positions(v) -> list[dict]:
    """The positions bench/benchmark.py times for the station choice, each with whether
    it is the mechanic's hard case (drawn with the benchmark's seeds) rather than one the
    hill-climb kept (bench/adversarial/)."""
    mechanic, rule = next((m, rule) for m, rule in v.ir.present() if m.name == "stations")
    hard = part(mechanic, HardCases)
    drawn = [hard.hard_position(v.ir, rule, random.Random(9000 + i)) for i in range(HARD_POSITIONS)]
    found = [f["position"] for f in json.loads(ADVERSARIAL.read_text(encoding="utf-8"))["positions"]]
    assert found, ADVERSARIAL
    return [(position, True) for position in drawn] + [(position, False) for position in found]


def test_station_use_is_the_best_of_every_assignment_on_the_benchmarks_hard_positions(europe):
    """The slowest positions to score the benchmark knows: three stations, each with many
    routes of other players to choose from, and most tickets at stake. Both engines give
    the same whole breakdown, and the use of the stations is the brute force's."""
    from railspec.runtime.position import position_fields
    from railspec.runtime.reference import score_fields
    choices_made = 0
    for position, drawn in hard_positions(europe):
        fields = position_fields(europe.ir, position)
        state = {"players": fields["players"], "owner": fields["owner"], "tickets": fields["tickets"],
                 "station_owner": fields["station_owner"]}
        stations = [c for c, o in enumerate(state["station_owner"]) if o == 0]
        lent = [sum(1 for r in europe.ir.routes if c in (r.a, r.b) and state["owner"][r.id] not in (-1, 0))
                for c in stations]
        # the hard case is hard: three stations with four or more routes each to choose
        # from, 40 tickets (the hill-climb keeps what is slowest, whatever it looks like)
        assert len(stations) == 3, position
        assert not drawn or (min(lent) >= 4 and len(state["tickets"][0]) >= 40), (lent, position)
        compiled = europe.module().Engine.for_scoring(fields).score_breakdown()
        reference = score_fields(europe.ir, fields)
        assert [dict(row) for row in compiled] == [dict(row) for row in reference], position
        expected = expected_rows(europe, state)
        assert got_rows(compiled) == expected, position
        choices_made += sum(1 for route in expected[0][2] if route != -1)
    assert choices_made > HARD_POSITIONS, choices_made  # the stations do use routes there


def test_station_use_with_more_assignments_than_the_compiled_engine_tables(tmp_path):
    """Five stations each (a spec extending Europe's), placed as the hard case places three:
    more assignments than the compiled engine tables the core tickets' gains for
    (``choice.TABLE``), so it scores every ticket on each assignment's network instead.
    Both engines give the same breakdown, and the station choice is the brute force's."""
    from railspec.mechanics.stations import choice, crowded_stations
    from railspec.runtime.position import position_fields
    from railspec.runtime.reference import score_fields
    spec = tmp_path / "five.rail"
    spec.write_text('extends "europe"\nvariant "Europe, five stations"\nstations 5 cost 1 1 1 1 1\n', encoding="utf-8")
    five = railspec.load(spec)
    assert five.ir.rule("stations").count == 5
    for seed in range(2):
        position = crowded_stations(five.ir, 5, random.Random(seed))
        fields = position_fields(five.ir, position)
        state = {"players": fields["players"], "owner": fields["owner"], "tickets": fields["tickets"],
                 "station_owner": fields["station_owner"]}
        stations = [c for c, o in enumerate(state["station_owner"]) if o == 0]
        own = [(r.node_a, r.node_b) for r in five.ir.routes if state["owner"][r.id] == 0]
        label = components(five.ir.node_count, own)
        assignments = 1
        for c in stations:  # a station's routes leading to distinct components, and no route
            assignments *= 1 + len({label[r.node_a if r.b == c else r.node_b] for r in five.ir.routes
                                    if c in (r.a, r.b) and state["owner"][r.id] not in (-1, 0)})
        assert assignments > choice.TABLE, assignments
        compiled = five.module().Engine.for_scoring(fields).score_breakdown()
        assert [dict(row) for row in compiled] == [dict(row) for row in score_fields(five.ir, fields)]
        got = [(row["tickets"], row["tickets_completed"], tuple(row[f"station_{k}_route"] for k in range(1, 6)))
               for row in compiled]
        assert got[0] == brute_force(five, state["owner"], state["tickets"][0], stations, 0)


def test_station_use_with_a_mechanics_ticket_beside_the_cores(tmp_path):
    """A ticket of several destinations (the multi_target mechanic, scored by its own hook)
    held beside Europe's on the hard case: the compiled engine tables the core tickets'
    gains and scores that one on each assignment's network. Both engines give the same
    breakdown (the reference tries every assignment)."""
    from railspec.mechanics.stations import crowded_stations
    from railspec.runtime.position import position_fields
    from railspec.runtime.reference import score_fields
    spec = tmp_path / "either.rail"
    spec.write_text('extends "europe"\nvariant "Europe, one ticket of three ends"\n'
                    'ticket either Paris - Wien:8 | Berlin:6 | Kyiv:11\n', encoding="utf-8")
    either = railspec.load(spec)
    name = next(t.name for t in either.ir.tickets if t.name.startswith("Paris") and "Berlin" in t.name)
    held = 0
    for seed in range(30):
        position = crowded_stations(either.ir, 3, random.Random(seed))
        fields = position_fields(either.ir, position)
        held += name in position["players"][0]["tickets"]
        compiled = either.module().Engine.for_scoring(fields).score_breakdown()
        assert [dict(row) for row in compiled] == [dict(row) for row in score_fields(either.ir, fields)], seed
    assert held >= 20, held


# --- the compiled choice by itself -----------------------------------------------------

def brute_use(stations, tickets, points_first: bool):
    """(points, completed, choice) of the best assignment of a problem of
    ``choice.best_use``, every assignment tried in the engines' order (the first station's
    choice most significant, none first, then its options in order): the first best."""
    def find(parent: dict, x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    best = None
    for assignment in itertools.product(*[range(-1, len(options)) for _, options in stations]):
        parent: dict = {}
        for (root, options), pick in zip(stations, assignment):
            if pick >= 0:
                parent[find(parent, root)] = find(parent, options[pick])
        points = completed = 0
        for ends_a, ends_b, worth in tickets:
            joined = any(find(parent, a) == find(parent, b) for a in ends_a for b in ends_b)
            points += worth if joined else -worth
            completed += joined
        key = (points, completed) if points_first else (completed, points)
        if best is None or key > best[0]:
            best = (key, (points, completed, assignment))
    return best[1]


def random_problem(rng: random.Random, most_options: int):
    """A player's stations and tickets as components: 1 to 5 stations, each at a random
    component with up to ``most_options`` options (distinct components, not its own),
    and up to 12 tickets whose ends have 1 or 2 components each (a city of several
    nodes), now and then joined already."""
    components = rng.randint(2, 14)
    stations = []
    for _ in range(rng.randint(1, 5)):
        root = rng.randrange(components)
        others = [c for c in range(components) if c != root]
        stations.append((root, rng.sample(others, rng.randint(0, min(most_options, len(others))))))
    tickets = [([rng.randrange(components) for _ in range(rng.randint(1, 2))],
                [rng.randrange(components) for _ in range(rng.randint(1, 2))], rng.randint(1, 20))
               for _ in range(rng.randint(0, 12))]
    return stations, tickets


@pytest.mark.parametrize("table", [True, False], ids=["tabled", "scored on each"])
@pytest.mark.parametrize("points_first", [True, False], ids=["points first", "tickets first"])
def test_the_compiled_choice_by_itself(table, points_first):
    """choice.best_use against every assignment, on random problems: the core's tickets
    tabled (the engines' way up to choice.TABLE assignments), or scored on each
    assignment's network (their way for a mechanic's tickets, and past the table), by
    points then tickets or the other way. Problems of up to 4 options a station stay
    under the table; those of up to 7, with 5 stations, can pass it (8 ** 5 assignments),
    where the table gives way to the scoring on each."""
    from railspec.mechanics.stations import choice
    rng = random.Random(f"{table} {points_first}")
    past_table = 0
    for trial in range(400):
        stations, tickets = random_problem(rng, 4 if trial % 4 else 7)
        assignments = 1
        for _, options in stations:
            assignments *= len(options) + 1
        past_table += assignments > choice.TABLE
        got = choice.best_use(stations, tickets, points_first=points_first, table=table)
        assert got == brute_use(stations, tickets, points_first), (trial, stations, tickets)
    assert past_table >= 3, past_table


def test_the_compiled_choice_has_room_for_every_station():
    """The language allows MAX_STATIONS stations a player; the compiled choice has room for
    as many, and refuses more."""
    from railspec.mechanics.stations import MAX_STATIONS, choice
    assert choice.STATIONS == MAX_STATIONS
    with pytest.raises(ValueError):
        choice.best_use([(0, [1])] * (MAX_STATIONS + 1), [])
    with pytest.raises(ValueError):
        choice.best_use([(0, [1, 1])], [])  # options lead to distinct components
