"""Shared fixtures and helpers: the USA variant, both engines, a way to arrange a position,
described positions in both scorers, bad specs located, and the mini variant.

The tests live in two places: tests/ (the core, the maps, the tools) and beside each
mechanic, mechanics/NAME/tests/ (``pytest mechanics/NAME`` runs everything about it). This
file, at the root of both, serves them alike; a test imports its helpers with ``from
conftest import ...``. The test folders are no packages: pytest imports each test file by
its base name, so a name (``test_tunnels.py``) is used once across both places.

Rule tests build exact situations by editing a real game's state (moving cards between
piles so every card stays accounted for) and loading it with ``game_from_state``, which
checks the state first: a test cannot build an impossible position by accident.
"""
from __future__ import annotations

import copy
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import railspec
from railspec.compiler import check_file, ir, parse
from railspec.compiler.base.errors import SpecError
from railspec.compiler.check import check
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.tables import policy_of, worth_now
from railspec.runtime import reference
from railspec.runtime.position import position_fields
from railspec.tools.cli import main as cli_main

# Hypothesis profiles for the property-based tests (tests/test_stateful.py): "ci", few
# and short runs, the same examples every time; "long", many more
# (RAILSPEC_HYPOTHESIS_PROFILE=long). No example database is kept in either.
settings.register_profile("ci", max_examples=5, stateful_step_count=12, deadline=None, database=None,
                          derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=200, stateful_step_count=60, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("RAILSPEC_HYPOTHESIS_PROFILE", "ci"))

ENGINES = ["reference", "compiled"]
ROOT = Path(__file__).resolve().parent
#: The stock mechanics' folders: railspec.mechanics.NAME once installed.
MECHANICS = ROOT / "mechanics"


def pytest_collect_directory(path, parent):
    """The mechanics' folders are collected as plain folders, not as packages: pytest would
    import a package folder's ``__init__.py`` under the name the repository gives it
    (``mechanics.tunnels``), where its relative imports of the compiler fail; the tests
    import the mechanic as installed, ``railspec.mechanics.tunnels``."""
    if path == MECHANICS or MECHANICS in path.parents:
        return pytest.Dir.from_parent(parent, path=path)
    return None


def implemented_stock_variants() -> list:
    """The stock variants whose mechanics the engines implement (the others are refused at
    load with UnsupportedMechanicError and are covered by the checker's tests only)."""
    from railspec.compiler import stock_names
    loaded = []
    for name in stock_names():
        try:
            loaded.append(railspec.load(name))
        except railspec.UnsupportedMechanicError:
            continue
    return loaded


@pytest.fixture(scope="session")
def usa():
    return railspec.load("usa")


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


def names(game) -> list[str]:
    return [game.action_name(a) for a in game.legal_actions()]


def start_turns(v, players: int, seed: int = 1, engine: str = "reference", keep: str = "keep tickets 1,2,3"):
    """A new game with every player's dealt tickets kept: the first turn is next."""
    g = v.new_game(players=players, seed=seed, engine=engine)
    while g.state()["phase"] == "setup_keep":
        g.apply_name(keep)
    return g


class Arranged:
    """Edits a state while keeping every card where exactly one pile holds it."""

    def __init__(self, v, game):
        self.v = v
        self.state = copy.deepcopy(game.state())
        self.loco = len(v.colours)

    def card(self, name: str) -> int:
        if name == "loco":
            return self.loco
        return next(c.id for c in self.v.colours if c.name == name)

    def _take(self, card: int) -> None:
        """Remove one card of this kind from the deck, else the discards, else a face-up slot."""
        s = self.state
        if card in s["deck"]:
            s["deck"].remove(card)
        elif s["discard"][card]:
            s["discard"][card] -= 1
        elif card in s["faceup"]:
            s["faceup"][s["faceup"].index(card)] = -1
        else:
            for hand in s["hands"]:
                if hand[card]:
                    hand[card] -= 1
                    return
            raise AssertionError(f"no card {card} left to move")

    def clear_hands(self) -> "Arranged":
        for hand in self.state["hands"]:
            for card, n in enumerate(hand):
                self.state["discard"][card] += n
                hand[card] = 0
        return self

    def hand(self, player: int, **cards) -> "Arranged":
        """Give ``player`` exactly these cards (the rest of their hand goes to the discards)."""
        s = self.state
        for card, n in enumerate(s["hands"][player]):
            s["discard"][card] += n
            s["hands"][player][card] = 0
        for name, n in cards.items():
            cid = self.card(name)
            for _ in range(n):
                self._take(cid)
                s["hands"][player][cid] += 1
        return self

    def faceup(self, *names_: str) -> "Arranged":
        s = self.state
        for card in s["faceup"]:
            if card >= 0:
                s["discard"][card] += 1
        s["faceup"] = [-1] * len(s["faceup"])
        for slot, name in enumerate(names_):
            cid = self.card(name)
            self._take(cid)
            s["faceup"][slot] = cid
        return self

    def deck_top(self, *names_: str) -> "Arranged":
        """Put these cards on top of the deck, the last named on the very top."""
        for name in names_:
            cid = self.card(name)
            self._take(cid)
            self.state["deck"].append(cid)
        return self

    def everything_to_discard(self) -> "Arranged":
        s = self.state
        for card in s["deck"]:
            s["discard"][card] += 1
        s["deck"] = []
        return self

    def own(self, player: int, *route_names: str) -> "Arranged":
        s = self.state
        for name in route_names:
            r = self.v.ir.route_named(name)
            s["owner"][r.id] = player
            s["trains"][player] -= r.length
            s["route_score"][player] += self.v.ir.route_points[r.length]
        return self

    def set(self, **fields) -> "Arranged":
        self.state.update(fields)
        return self

    def game(self, engine: str):
        return self.v.game_from_state(self.state, engine=engine)


# --- described positions ------------------------------------------------------------------

def score_both(v, position: dict) -> list[dict]:
    """The score rows of a described position (docs/formats.md, "Position"): the compiled
    scorer's, checked against the reference interpreter's."""
    rows = railspec.score(v, position)
    fields = position_fields(v.ir, position)
    assert reference.score_fields(v.ir, fields) == [{k: x for k, x in r.items() if k != "winner"} for r in rows]
    return rows


# --- the agents: a style with and without what a mechanic says now ---------------------------

def worth_now_match(v, players: int, games: int, styles: tuple[str, ...]) -> tuple[list[float], list[float]]:
    """``games`` seeded games of ``v`` on the compiled engine, every seat one style (game i's:
    ``styles[i % len(styles)]``), seat ``i % players`` told before each of its decisions what a
    mechanic says claims and options bring now (AgentPlay.worth_now, option_worth_now: the
    agents' ``set_worth``), the others never; played once so and once with nobody told, on the
    same seeds. Returns that seat's results in each, a game each: 1 won, 0.5 tied, 0 lost."""
    k, policy = kernel(), policy_of(v.ir)
    results: tuple[list[float], list[float]] = ([], [])
    for told, out in zip((True, False), results):
        for seed in range(games):
            user = seed % players
            seats = [k.Seat(k.STYLES[styles[seed % len(styles)]], seed * 7 + n) for n in range(players)]
            g = v.new_game(players=players, seed=seed, engine="compiled")
            while not g.is_over:
                p = g.current_player
                worth = worth_now(v.ir, g) if told and p == user else None
                if worth is not None:
                    seats[p].set_worth(policy, *worth)
                g.apply(policy.decide_compiled(seats[p], g._e))
            scores = g.scores()
            best = max(s for n, s in enumerate(scores) if n != user)
            out.append(1.0 if scores[user] > best else 0.5 if scores[user] == best else 0.0)
    return results


# --- bad specs: tests/base.rail with one line edited ---------------------------------------
# Line numbers of BASE, for reading the tables of bad specs (tests/test_bad_specs.py and the
# mechanics' own):
#  1 variant   9 deal      17 longest path   24-25 Alpha - Beta (a double route)
#  2 players  10 returned  18 tiebreak       26 Beta - Gamma   27 Gamma - Delta
#  3 trains   11-13 action 19-23 cities      28 Delta - Epsilon
#  4 hand     14 tracks    (Alpha … Epsilon) 29-36 tickets
#  5-6 cards  15 end when
#  7 locos    16 route points
#  8 market
BASE = (ROOT / "tests" / "base.rail").read_text(encoding="utf-8")


def edit(line: int, text: str) -> str:
    """BASE with line ``line`` (1-based) replaced by ``text`` ("" empties it)."""
    lines = BASE.splitlines()
    lines[line - 1] = text
    return "\n".join(lines) + "\n"


def add(line: int, text: str) -> str:
    """BASE with ``text`` inserted so that it becomes line ``line``."""
    lines = BASE.splitlines()
    lines.insert(line - 1, text)
    return "\n".join(lines) + "\n"


def child(*lines: str) -> str:
    """A spec that extends BASE (written next to it as base.rail)."""
    return "\n".join(lines) + "\n"


def bad_spec_params(cases) -> list:
    """A table of bad specs, (id, spec text, error class, line, col, message fragment[, file
    the error is in]), as the parameters of :func:`assert_located_error`."""
    return [pytest.param(*case[1:], *([None] if len(case) == 6 else []), id=case[0]) for case in cases]


def assert_located_error(tmp_path, text, kind, line, col, fragment, where=None) -> None:
    """The spec ``text`` (written beside BASE, as the CLI reads a file) fails with a
    SpecError of class ``kind`` printed as ``path:line:col: message``, then the source line,
    then a caret under the column."""
    (tmp_path / "base.rail").write_text(BASE, encoding="utf-8")
    path = tmp_path / "bad.rail"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        check_file(path)
    err = info.value
    assert type(err) is kind, err.format()
    shown = tmp_path / where if where else path
    out = err.format()
    first, source, caret = out.split("\n")[:3]
    assert out.startswith(f"{shown}:{line}:{col}: "), out
    assert fragment in first, out
    assert source == "    " + shown.read_text(encoding="utf-8").split("\n")[line - 1], out
    assert re.fullmatch(r" {4}" + " " * (col - 1) + r"\^~*", caret), out


#: The words of the warning a crowded map gets (more trains than its routes hold): the small
#: test maps (tests/base.rail, mini) are crowded on purpose, so that games reach the end by
#: nobody being able to act; a test of another warning looks past it.
CROWDED = "before the last round can start"


def assert_located_warning(tmp_path, text, line, col, fragment) -> None:
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it. (The
    crowded map's warning of the small test maps is not the one looked for.)"""
    path = tmp_path / "spec.rail"
    path.write_text(text, encoding="utf-8")
    variant = check_file(str(path))
    warnings = [w for w in variant.warnings if CROWDED not in w.message or CROWDED in fragment]
    assert [(w.span.line, w.span.col) for w in warnings] == [(line, col)], variant.warnings
    shown = warnings[0].format()
    assert shown.startswith(f"{path}:{line}:{col}: warning: ") and fragment in shown and "\n    " in shown
    assert cli_main(["check", str(path)]) == 0
    assert cli_main(["check", str(path), "--strict"]) == 1


# --- the mini variant: a spec text built statement by statement ------------------------------
# A small valid variant: a test replaces the statements it is about and adds lines of its own.
# Six cities in a row, every pair a ticket (twice, with different points), so any deal up to 6
# tickets for 5 players has enough tickets.
CITIES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
DEFAULTS = {
    "variant": 'variant "Mini"',
    "players": "players 2..5",
    "trains": "trains 45",
    "hand": "hand 4",
    "cards": "card red 12\ncard blue 12\ncard green 12",
    "locomotives": "locomotives 14",
    "market": "market 5 reset 3 locomotives",
    "deal": "deal tickets 3 keep 2",
    "actions": "action draw cards 2\naction claim route\naction draw tickets 3 keep 1",
    "end": "end when trains <= 2",
    "route points": "route points 1:1 2:2 3:4 4:7 5:10 6:15",
    "cities": "\n".join(f"city {c}" for c in CITIES),
    "routes": "\n".join(f"route {a} - {b} 2 gray" for a, b in zip(CITIES, CITIES[1:])),
    "tickets": "\n".join(f"ticket {a} - {b} {p + i + j}"
                         for p in (1, 20) for i, a in enumerate(CITIES) for j, b in enumerate(CITIES) if i < j),
}


def mini(extra: str = "", **replace: str) -> str:
    """The mini variant's text, with statements replaced (by key; "" drops one) and
    ``extra`` lines appended."""
    parts = dict(DEFAULTS)
    for key, text in replace.items():
        parts[key.replace("_", " ")] = text
    return "\n".join(p for p in parts.values() if p) + "\n" + extra + "\n"


def checked(text: str) -> ir.Variant:
    """Parse and check one spec text; the catalogue's action names must be unique."""
    v = check([parse(text, "x.rail")], "x")
    action_names = [a.name for a in v.actions]
    assert len(set(action_names)) == len(action_names), [n for n, k in Counter(action_names).items() if k > 1]
    assert [a.id for a in v.actions] == list(range(len(v.actions)))
    return v


def statements(text: str, kind: type) -> list:
    """The statements of class ``kind`` in a parsed spec text."""
    return [s for s in parse(text, "x.rail").statements if isinstance(s, kind)]
