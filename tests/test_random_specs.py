"""Both engines agree on maps nobody drew: small random specs (seeded, so reproducible)
with odd parameters the stock maps never use — one colour or eight, no locomotives, a
one-card market, triple routes, shuffled returns, no ticket draws — compiled at run time
and played side by side with the reference interpreter."""
from __future__ import annotations

import random

import pytest

import railspec
from railspec.tools import conformance

COLOURS = ["red", "blue", "green", "black", "white", "orange", "pink", "yellow"]


def random_spec(seed: int, ferries: bool = False, europe: bool = False, players: tuple[int, int] | None = None) -> str:
    """A valid random spec: a spanning tree of routes plus extras, doubles and triples;
    with ``ferries``, some routes need locomotives; with ``europe``, some are tunnels
    (revealing 1 to 4 cards), players build stations (1 to 3, random costs and bonus) and
    are dealt a long ticket, and set-up returns may leave the game; ``players`` (LOW, HIGH)
    replaces the drawn player range. Each option draws from a generator of its own, so a
    seed's map is otherwise the same.

    The deck always holds every hand and then the market, at the most players (locomotives
    are added when the drawn cards fall short), and no route is longer than the trains
    (the trains are raised to the longest route): the checker refuses other specs."""
    r = random.Random(seed)
    ferry_draws = random.Random(seed + 10_000)
    europe_draws = random.Random(seed + 20_000)
    colours = COLOURS[:r.randint(1, 8)]
    cities = [f"C{i}" for i in range(r.randint(3, 14))]
    low = r.randint(2, 4)
    high = r.randint(low, 5)
    if players is not None:
        low, high = players
    trains = r.randint(5, 40)
    market = r.randint(1, 6)
    longest = r.randint(1, 8)
    trains = max(trains, longest)
    hand = r.randint(0, 5)
    counts = [r.randint(1, 14) for _ in colours]
    locomotives = r.randint(0, 14)
    locomotives += max(0, hand * high + market - sum(counts) - locomotives)
    lines = [f'variant "Random {seed}"', f"players {low}..{high}", f"trains {trains}", f"hand {hand}"]
    lines += [f"card {c} {n}" for c, n in zip(colours, counts)]
    lines.append(f"locomotives {locomotives}")
    lines.append(f"market {market} reset {r.randint(1, market)} locomotives")
    r.randint(0, 4)  # once the market's redeal limit: still drawn, so each seed keeps its map
    lines += [f"city {c}" for c in cities]
    pairs = [(cities[r.randrange(i)], cities[i]) for i in range(1, len(cities))]
    pairs += [tuple(r.sample(cities, 2)) for _ in range(r.randint(0, 2 * len(cities)))]
    tracks: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for a, b in pairs:
        key = tuple(sorted((a, b)))
        if key in tracks and len(tracks[key]) >= r.choice([1, 2, 3]):
            continue
        length = tracks[key][0][0] if key in tracks else r.randint(1, longest)
        colour = r.choice(["gray", *colours])
        if any(c == colour != "gray" for _, c in tracks.get(key, [])):
            colour = "gray"
        tracks.setdefault(key, []).append((length, colour))
        ferry = f" ferry {ferry_draws.randint(1, length)}" if ferries and ferry_draws.random() < 0.3 else ""
        tunnel = " tunnel" if europe and europe_draws.random() < 0.3 else ""
        lines.append(f"route {a} - {b} {length} {colour}{ferry}{tunnel}")
    lines.append("route points " + " ".join(f"{n}:{n * n}" for n in range(1, longest + 1)))
    deal = r.randint(1, 4)
    held: set[tuple[str, str, int]] = set()
    while len(held) < deal * high + 3:
        a, b = sorted(r.sample(cities, 2))
        held.add((a, b, r.randint(1, 20)))
    lines += [f"ticket {a} - {b} {points}" for a, b, points in sorted(held)]
    keep = r.randint(0, deal)
    if europe:
        long = set()
        while len(long) < high + europe_draws.randint(0, 2):
            a, b = sorted(europe_draws.sample(cities, 2))
            long.add((a, b, europe_draws.randint(10, 25)))
        lines += [f"ticket long {a} - {b} {points}" for a, b, points in sorted(long)]
        lines.append(f"deal tickets {deal} long 1 keep {keep}")
        lines.append(f"returned long {europe_draws.choice(['removed', 'bottom'])}")
        if europe_draws.random() < 0.6:
            lines.append("returned setup removed")
        count = europe_draws.randint(1, 3)
        costs = " ".join(str(europe_draws.randint(1, 3)) for _ in range(count))
        lines += [f"stations {count} cost {costs}", "action build station",
                  f"station bonus {europe_draws.randint(0, 5)}"]
        if any(" tunnel" in line for line in lines):
            lines.append(f"tunnels reveal {europe_draws.randint(1, 4)}")
    else:
        lines.append(f"deal tickets {deal} keep {keep}")
    if r.random() < 0.5:
        lines.append("returned tickets shuffled bottom")
    lines += ["action draw cards 2", "action claim route"]
    if r.random() < 0.8:
        draw = r.randint(1, 5)
        lines.append(f"action draw tickets {draw} keep {r.randint(1, draw)}")
    if low <= 3 and r.random() < 0.5:
        lines.append(f"tracks usable 1 for {low}..{min(3, high)} players")
    lines.append(f"end when trains <= {r.randint(0, min(3, trains - 1))}")
    stations = ", fewest stations" if europe else ""
    if r.random() < 0.7:
        lines += [f"longest path {r.randint(0, 12)}", f"tiebreak most tickets{stations}, longest path"]
    else:
        lines.append(f"tiebreak most tickets{stations}")
    return "\n".join(lines) + "\n"


def write_spec(tmp_path, seed: int, ferries: bool = False, europe: bool = False, players=None):
    """A random spec written to a file and loaded (its compiled engine built, or taken from
    the build cache)."""
    path = tmp_path / f"random{seed}{'f' if ferries else ''}{'e' if europe else ''}.rail"
    path.write_text(random_spec(seed, ferries, europe, players), encoding="utf-8")
    return railspec.load(path)


# 4: a triple route, 2-5 players; 9: eight colours, no locomotives, no ticket draws,
# a tracks-usable rule; 30: a one-card market, shuffled returns, 2-3 players; 12: ferries;
# 12 and 14 with tunnels, stations and long tickets (12: on ferries too; 14: shuffled
# returns, set-up returns leaving the game)
@pytest.mark.parametrize("seed,ferries,europe", [(4, False, False), (9, False, False), (30, False, False),
                                                 (12, True, False), (12, True, True), (14, False, True)])
def test_engines_agree_on_a_random_map(tmp_path, seed, ferries, europe):
    path = tmp_path / f"random{seed}.rail"
    path.write_text(random_spec(seed, ferries, europe), encoding="utf-8")
    v = railspec.load(path)
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    report = conformance.run(v, range(30), lambda s: counts[s % len(counts)], api_every=10)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])


def test_random_specs_are_valid():
    for seed in range(40):
        for ferries, europe in ((False, False), (True, False), (False, True), (True, True)):
            railspec.compiler.check([railspec.compiler.parse(random_spec(seed, ferries, europe),
                                                             f"random{seed}.rail")], "random")


# The specs of the test above (built once: the build cache has them), and two with more
# seats than the stock maps: 6 players on a plain map, 2 to 8 with tunnels and stations.
INVARIANT_SPECS = [(4, False, False, None), (9, False, False, None), (30, False, False, None),
                   (12, True, True, None), (14, False, True, None), (5, False, False, (6, 6)),
                   (8, False, True, (2, 8))]


@pytest.mark.parametrize("seed,ferries,europe,players", INVARIANT_SPECS,
                         ids=[f"{s}{'f' if f else ''}{'e' if e else ''}{'-%d..%d' % p if p else ''}"
                              for s, f, e, p in INVARIANT_SPECS])
@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_game_not_over_always_has_a_legal_action(tmp_path, seed, ferries, europe, players, engine):
    """The invariant `railspec check` promises (docs/language.md, "Limits"): in a game that
    is not over, the player to move has at least one legal action. Checked after every
    decision of a few games per spec and player count, each engine on its own, with
    choices drawn by a generator of the test (not the engines' documented agent)."""
    v = write_spec(tmp_path, seed, ferries, europe, players)
    chooser = random.Random(seed)
    for count in range(v.ir.min_players, v.ir.max_players + 1):
        for game_seed in range(2):
            game = v.new_game(players=count, seed=game_seed, engine=engine)
            decisions = 0
            while not game.is_over:
                legal = game.legal_actions()
                assert legal, (f"{v.ir.key}, {count} players, seed {game_seed}: no legal action after "
                               f"{decisions} decisions, phase {game.state()['phase']}")
                game.apply(chooser.choice(legal))
                decisions += 1
            assert game.legal_actions() == []


@pytest.mark.parametrize("seed,europe,players", [(5, False, (6, 6)), (8, True, (2, 8))])
def test_engines_agree_with_more_seats_than_the_stock_maps(tmp_path, seed, europe, players):
    """`players 2..8`: the generated engine sized from the spec's maximum, the reference
    and the compiled engine agree decision by decision at every count up to 8."""
    v = write_spec(tmp_path, seed, False, europe, players)
    assert (v.ir.min_players, v.ir.max_players) == players
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    report = conformance.run(v, range(14), lambda s: counts[s % len(counts)], api_every=10)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])
    assert report.games == 14
