"""Bad specs: every one must fail with a located SpecError, never a traceback.

Each case takes the small valid spec BASE (tests/base.rail; conftest.py lists its lines) and
edits one line (or inserts one; a line may join several statements with ';'), so the expected
position is easy to see. A mechanic's own statements have their table beside it
(mechanics/NAME/tests/), checked the same way. The
spec is written to a file and checked the way the CLI does (railspec.compiler.check_file);
the error must print as ``path:line:col: message``, then the source line, then a caret under
the column.
"""
from __future__ import annotations

import random
import re

import pytest
from conftest import BASE, add, assert_located_error, assert_located_warning, bad_spec_params, child, edit

from railspec.compiler import check_file, stock_names, stock_path
from railspec.compiler.base.errors import SpecCheckError, SpecError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError

# (id, spec text, error class, line, col, message fragment[, file the error is in])
CASES = [
    # --- syntax -------------------------------------------------------------------
    ("unterminated-string", edit(1, 'variant "Base'), S, 1, 9,
     "unterminated string: a quoted name must end with '\"' on the same line"),
    ("unknown-escape", edit(1, 'variant "US\\A\\n"'), S, 1, 12,
     "unknown escape '\\A' in a quoted string: the escapes are \\\" (a quote) and \\\\ (a backslash)"),
    ("unterminated-city-name", edit(24, 'route Alpha - "Beta 2 red'), S, 24, 15, "unterminated string"),
    ("stray-character", edit(3, "trains 12 $"), S, 3, 11, "unexpected character '$'"),
    ("keyword-run-into-number", edit(3, "trains12"), S, 3, 7, "put a space between a word and a number"),
    ("en-dash", edit(24, "route Alpha \u2013 Beta 2 red"), S, 24, 13,
     "an en dash: use a plain '-' with spaces around it"),
    ("route-without-spaces", edit(24, "route Alpha-Beta 2 red"), S, 24, 7,
     "'Alpha-Beta' is read as one name: write a route as 'A - B' with spaces around the dash"),
    ("ticket-without-spaces", edit(29, "ticket Alpha-Gamma 5"), S, 29, 8,
     "write a ticket as 'A - B' with spaces around the dash"),
    ("missing-length", edit(24, "route Alpha - Beta red"), S, 24, 23,
     "unexpected end of line, expected a number; the form is: route CITY - CITY LENGTH COLOUR"),
    ("missing-ticket-points", edit(29, "ticket Alpha - Gamma"), S, 29, 21,
     "expected a number; the form is: ticket [long] [either] CITY - CITY POINTS [copies N]"),
    ("missing-colour", edit(26, "route Beta - Gamma 3"), S, 26, 21, "expected a name"),
    ("unknown-statement", edit(3, "train 12"), S, 3, 1, "unknown statement 'train' (did you mean 'trains'?)"),
    ("place-without-y", edit(19, "city Alpha at 10"), S, 19, 17, "expected a number"),
    ("place-not-a-number", edit(19, "city Alpha at ten 5"), S, 19, 15, "expected a number"),
    ("place-too-far", edit(19, "city Alpha at 10 2000000"), C, 19, 18, "a map coordinate is at most 1,000,000"),
    ("statement-word-with-a-tail", edit(19, "cityx Alpha"), S, 19, 1,
     "unknown statement 'cityx' (did you mean 'city'?)"),
    ("keyword-run-into-a-word", add(4, "stations 3 costing 1 2 3"), S, 4, 12,
     "unexpected 'costing', expected a number; the form is: stations N cost C1 C2 …"),
    ("trailing-semicolon", edit(3, "trains 12;"), S, 3, 10, "remove this ';'"),
    ("double-semicolon", edit(3, "trains 12;; hand 4"), S, 3, 11, "remove this ';'"),
    ("two-statements-no-semicolon", edit(3, "trains 12 hand 4"), S, 3, 11,
     "unexpected 'hand', expected one of ';', end of file, end of line"),
    ("player-range-with-dash", edit(2, "players 2-4"), S, 2, 10, "the form is: players LOW..HIGH"),
    ("word-for-number", edit(3, "trains ten"), S, 3, 8, "unexpected 'ten', expected a number"),
    ("unquoted-variant", edit(1, "variant Base"), S, 1, 9, "expected a quoted string"),
    ("unknown-return-place", edit(10, "returned tickets sideways"), S, 10, 18,
     "expected one of 'bottom', 'removed', 'shuffled'"),
    ("unknown-route-attribute", edit(24, "route Alpha - Beta 2 red bridge"), S, 24, 26,
     "unexpected 'bridge', expected one of ';', 'apart', 'bed', 'bullet', 'draw', 'ferry'"),
    ("end-without-comparison", edit(15, "end when trains 2"), S, 15, 17, "expected '<='"),
    ("empty-city", edit(19, "city"), S, 19, 5, "the form is: city NAME"),

    # --- the mechanics' statements: each mechanic's table is beside it (mechanics/NAME/tests/) ---

    # --- components -----------------------------------------------------------------
    ("missing-trains", edit(3, ""), C, 1, 1, "missing 'trains' statement: every spec needs one"),
    ("empty-spec", "# nothing yet\n", C, 1, 1,
     "missing statements 'variant', 'players', 'trains', 'hand', 'locomotives', 'market', 'deal tickets', "
     "'end when', 'route points', 'card COLOUR N', 'action draw cards', 'action claim route': every spec needs each"),
    ("missing-claim-action", edit(12, "# no claim"), C, 1, 1, "missing 'action claim route'"),
    ("zero-trains", edit(3, "trains 0"), C, 3, 8, "trains per player must be positive, got 0"),
    ("negative-card-count", edit(5, "card red -12"), C, 5, 10, "the number of red cards must be positive, got -12"),
    ("negative-hand", edit(4, "hand -1"), C, 4, 6, "the starting hand must be zero or more, got -1"),
    ("reserved-colour-gray", add(6, "card gray 12"), C, 6, 6, "'gray' is reserved and cannot name a card colour"),
    ("colour-twice", add(6, "card red 10"), C, 6, 6, "card colour 'red' is declared twice (first at line 5)"),
    ("scalar-twice", add(4, "trains 14"), C, 4, 1, "'trains' is given twice (first at line 3)"),
    ("empty-player-range", edit(2, "players 4..2"), C, 2, 1, "player range 4..2 is empty"),
    ("one-player", edit(2, "players 1..4"), C, 2, 9, "a game needs at least 2 players, got 1"),
    ("nine-players", edit(2, "players 2..9"), C, 2, 12, "at most 8 players are supported, got 9"),
    ("market-redeal-limit-removed", edit(8, "market 5 reset 3 locomotives max 3"), C, 8, 34,
     "the market has no redeal limit any more: three face-up locomotives always cause a redeal while "
     "a market with fewer can be dealt (docs/rules.md); remove 'max N'"),
    ("market-no-reset-with-a-number", edit(8, "market 5 no reset 3"), S, 8, 19,
     "unexpected '3', expected one of ';', end of file, end of line; the form is: market N reset L locomotives | "
     "market N no reset"),
    ("market-reset-without-a-number", edit(8, "market 5 reset locomotives"), S, 8, 16,
     "unexpected 'locomotives', expected a number"),
    ("market-reset-impossible", edit(8, "market 5 reset 6 locomotives"), C, 8, 16,
     "a reset at 6 locomotives can never happen with 5 face-up cards"),

    # --- bounds: what the engines can hold (docs/language.md, "Limits") -------------------
    ("trains-beyond-an-int", edit(3, "trains 2147483648"), C, 3, 8,
     "trains per player must be at most 1,000, got 2147483648"),
    ("hand-beyond-an-int", edit(4, "hand 2147483648"), C, 4, 6,
     "a hand of 2147483648 cards for each of 4 players needs 8,589,934,592 train cards; the game has 38"),
    ("hand-larger-than-the-deck", edit(4, "hand 10"), C, 4, 6,
     "a hand of 10 cards for each of 4 players needs 40 train cards; the game has 38"),
    ("market-larger-than-what-is-left", edit(4, "hand 8").replace("market 5 reset", "market 7 reset"), C, 8, 8,
     "a market of 7 cards, but 6 train cards are left once 4 players have their hands of 8"),
    ("market-too-large", edit(8, "market 13 reset 3 locomotives"), C, 8, 8,
     "the number of face-up cards must be at most 12, got 13"),
    ("locomotives-beyond-a-deck", edit(7, "locomotives 4294967296"), C, 7, 13,
     "the number of locomotives must be at most 1,000, got 4294967296"),
    ("cards-beyond-a-deck", edit(5, "card red 990"), C, 5, 10,
     "the game has 1,016 train cards, more than the 1,000 a deck may hold"),
    ("too-many-colours", add(7, "; ".join(f"card c{i} 1" for i in range(15))), C, 7,
     "; ".join(f"card c{i} 1" for i in range(15)).index("c14 ") + 1,
     "at most 16 card colours are supported"),
    ("ticket-points-beyond-an-int", edit(29, "ticket Alpha - Gamma 2147483649"), C, 29, 22,
     "ticket points must be at most 1,000,000, got 2147483649"),
    ("route-points-beyond-an-int", edit(16, "route points 1:1 2:2147483649 3:4 4:7"), C, 16, 20,
     "route points must be at most 1,000,000, got 2147483649"),
    ("route-points-key-beyond-the-longest-route", edit(16, "route points 1:1 2:2 3:4 4:7 5:9 6:9 7:9 8:9 9:9 10:9 "
                                                           "11:9 12:9 13:9"), C, 16, 65,
     "route points table key 13: no route is longer than 12"),

    # --- games that cannot be played -------------------------------------------------------
    ("route-longer-than-the-trains", edit(3, "trains 3"), C, 27, 21,
     "route length 4 is more than the 3 trains a player has: the route could never be claimed"),

    # --- set-up and actions ---------------------------------------------------------
    ("keep-more-than-dealt", edit(9, "deal tickets 2 keep 3"), C, 9, 21, "cannot keep 3 of 2 dealt tickets"),
    ("keep-more-than-drawn", edit(13, "action draw tickets 3 keep 4"), C, 13, 28, "cannot keep 4 of 3 drawn tickets"),
    ("deal-too-many", edit(9, "deal tickets 7 keep 1"), C, 9, 1, "at most 6 tickets can be dealt at once"),
    ("deck-too-small", edit(9, "deal tickets 3 keep 1"), C, 9, 1, "8 tickets cannot deal 3 to each of 4 players"),
    ("draw-three-cards", edit(11, "action draw cards 3"), C, 11, 19, "drawing 3 cards is not supported"),
    ("action-twice", add(12, "action draw cards 2"), C, 12, 1,
     "action 'draw cards' is given twice (first at line 11)"),
    ("end-at-once", edit(15, "end when trains <= 12"), C, 15, 20, "the game would end at once: 12 >= 12 trains"),

    # --- the map ----------------------------------------------------------------------
    ("unknown-city", edit(24, "route Alpha - Betta 2 red"), C, 24, 15,
     "unknown city 'Betta' in route (did you mean 'Beta'?)"),
    ("duplicate-city", add(21, "city Beta"), C, 21, 6, "city 'Beta' is declared twice (first at line 20)"),
    ("city-without-route", add(24, "city Omega"), C, 24, 6, "city 'Omega' is declared but no route reaches it"),
    ("duplicate-route", add(25, "route Alpha - Beta 2 red"), C, 25, 1,
     "duplicate route Alpha - Beta red (already declared at line 24)"),
    ("route-to-itself", add(29, "route Gamma - Gamma 2 gray"), C, 29, 1, "route from 'Gamma' to itself"),
    ("unknown-colour", edit(26, "route Beta - Gamma 3 purple"), C, 26, 22,
     "unknown colour 'purple'; colours are gray, red, blue"),
    ("colour-wrong-case", edit(24, "route Alpha - Beta 2 Red"), C, 24, 22,
     "unknown colour 'Red' (did you mean 'red'?)"),
    ("route-length-zero", edit(24, "route Alpha - Beta 0 red"), C, 24, 20, "a route length must be positive, got 0"),
    ("route-too-long", edit(24, "route Alpha - Beta 13 red"), C, 24, 20,
     "route length 13 is longer than the longest supported (12)"),
    ("length-not-in-table", edit(27, "route Gamma - Delta 5 blue"), C, 27, 21,
     "route length 5 has no entry in the route points table (line 16)"),
    # Nordic Countries' card economy (locomotives wild only on some routes, sets of any cards)
    ("attribute-twice", edit(24, "route Alpha - Beta 2 red tunnel tunnel"), C, 24, 33,
     "route attribute 'tunnel' is given twice"),

    # --- tickets ------------------------------------------------------------------------
    ("ticket-unreachable", edit(26, "route Gamma - Epsilon 3 gray"), C, 29, 1,
     "ticket Alpha - Gamma can never be completed: no chain of routes joins the two cities"),
    ("ticket-to-itself", add(30, "ticket Alpha - Alpha 5"), C, 30, 1, "ticket from 'Alpha' to itself"),
    ("duplicate-ticket-reversed", add(30, "ticket Gamma - Alpha 5"), C, 30, 1,
     "duplicate ticket Gamma - Alpha 5 (already declared at line 29)"),
    ("ticket-zero-points", edit(29, "ticket Alpha - Gamma 0"), C, 29, 22, "ticket points must be positive, got 0"),
    ("ticket-unknown-city", edit(29, "ticket Alpha - Gama 5"), C, 29, 16,
     "unknown city 'Gama' in ticket (did you mean 'Gamma'?)"),

    # tickets printed several times, tickets to one of several destinations (Switzerland)
    ("ticket-copies-zero", edit(29, "ticket Alpha - Gamma 5 copies 0"), C, 29, 31,
     "the copies of a ticket must be positive, got 0"),
    ("ticket-copies-too-many", edit(29, "ticket Alpha - Gamma 5 copies 1001"), C, 29, 31,
     "the copies of a ticket must be at most 1,000, got 1001"),
    ("ticket-twice-instead-of-copies", add(30, "ticket Alpha - Gamma 5"), C, 30, 1,
     "duplicate ticket Alpha - Gamma 5 (already declared at line 29) (write 'copies N' for a ticket printed "
     "several times)"),

    # --- scoring tables ------------------------------------------------------------------
    ("route-points-hole", edit(16, "route points 1:1 2:2 4:7"), C, 16, 22,
     "route points table has no entry for 3 (between 2 and 4)"),
    ("route-points-twice", edit(16, "route points 1:1 1:2 2:2 3:4 4:7"), C, 16, 18, "route points table gives 1 twice"),
    ("route-points-open-ended", edit(16, "route points 1:1 2:2 3:4 4+:7"), C, 16, 26,
     "the route points table cannot have an open-ended entry '4+'"),
    ("route-points-negative", edit(16, "route points 1:1 2:2 3:4 4:-7"), C, 16, 28,
     "route points must be zero or more, got -7"),
    ("tiebreak-twice", edit(18, "tiebreak most tickets, most tickets"), C, 18, 1,
     "tie-break 'most tickets' is given twice"),

    # --- extends ---------------------------------------------------------------------------
    ("without-nothing", add(24, "without route Alpha - Omega"), C, 24, 1,
     "'without route Alpha - Omega': no such route to remove"),
    ("extends-missing-file", add(2, 'extends "nowhere"'), C, 2, 1,
     "extends 'nowhere': no stock variant or file of that name"),
    ("child-without-wrong-length", child('extends "base.rail"', 'variant "Child"', "without route Alpha - Beta 3"),
     C, 3, 1, "'without route Alpha - Beta': no such route to remove"),
    ("child-without-ticket", child('extends "base.rail"', "without ticket Alpha - Omega"),
     C, 2, 1, "'without ticket Alpha - Omega': no such ticket to remove"),
    ("child-redeclares-colour-twice", child('extends "base.rail"', "card red 10", "card red 11"), C, 3, 6,
     "card colour 'red' is declared twice (first at line 2)"),
    ("child-scalar-twice", child('extends "base.rail"', "trains 20", "trains 30"), C, 3, 1,
     "'trains' is given twice (first at line 2)"),
    ("child-extends-twice", child('extends "base.rail"', 'extends "base.rail"'), C, 2, 1,
     "'extends' is given twice (first at line 1)"),
    ("child-extends-itself", child('extends "bad.rail"'), C, 1, 1, "extends cycle"),
    ("child-removes-used-city", child('extends "base.rail"', "without city Epsilon"), C, 28, 15,
     "city 'Epsilon' in route was removed by 'without city' at", "base.rail"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(CASES))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# Content that checks but does nothing is a located warning; the mechanics' statements are
# all there is of it, and their tables are beside them (mechanics/NAME/tests/).
def test_the_stock_specs_have_no_warnings():
    assert all(not check_file(stock_path(name)).warnings for name in stock_names())


def test_the_table_is_big_enough():
    assert len(CASES) >= 30
    assert len({c[0] for c in CASES}) == len(CASES)


def test_base_is_valid(tmp_path):
    path = tmp_path / "base.rail"
    path.write_text(BASE, encoding="utf-8")
    v = check_file(path)
    assert [r.name for r in v.routes][:2] == ["Alpha-Beta/1", "Alpha-Beta/2"]


def test_every_problem_is_reported_in_source_order(tmp_path):
    """A check error lists every problem, not just the first, sorted by position."""
    text = edit(5, "card red -12").replace("route Beta - Gamma 3 gray", "route Beta - Gamma 3 purple")
    path = tmp_path / "two.rail"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecCheckError) as info:
        check_file(path)
    positions = [(e.span.line, e.span.col) for e in info.value.errors]
    assert positions == [(5, 10), (26, 22)]
    assert len(re.findall(r"^ +\^", info.value.format(), re.M)) == 2


def test_missing_file_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match="no such spec file"):
        check_file(tmp_path / "absent.rail")


def test_non_utf8_file_is_a_spec_error(tmp_path):
    path = tmp_path / "latin1.rail"
    path.write_bytes(BASE.replace("Alpha", "Z\xfcrich").encode("latin-1"))
    with pytest.raises(SpecError, match="not UTF-8"):
        check_file(path)


def test_byte_order_mark_is_ignored(tmp_path):
    path = tmp_path / "bom.rail"
    path.write_text("\ufeff" + BASE, encoding="utf-8")
    assert check_file(path).name == "Base"


def test_form_feed_does_not_shift_the_quoted_line(tmp_path):
    """Lines are counted on '\\n' only: a form feed (blank to the grammar) in an earlier
    line must not make the error quote the wrong line."""
    text = edit(2, "players 2..4 \f").replace("trains 12", "trains 0")
    path = tmp_path / "ff.rail"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecCheckError) as info:
        check_file(path)
    assert info.value.source_line == "trains 0"


# --- fuzz: single-line mutations of the USA spec ------------------------------------------

_JUNK = ["$", '"', "-", ";", ":", "..", "+", "#", "é", "\t", "\f", "\u2013", "\u2028", "0", "x", "\\",
         "{", "\ufeff", "<=", "\u00a0"]


def _mutate(rng: random.Random, lines: list[str]) -> tuple[str, list[str]]:
    lines = list(lines)
    i = rng.randrange(len(lines))
    line = lines[i]
    tokens = line.split(" ")
    op = rng.choice(["delete", "duplicate", "swap", "number", "truncate", "junk"])
    if op == "delete" and len(tokens) > 1:
        del tokens[rng.randrange(len(tokens))]
        lines[i] = " ".join(tokens)
    elif op == "duplicate":
        lines.insert(i, line)
    elif op == "swap" and len(tokens) > 1:
        a, b = rng.sample(range(len(tokens)), 2)
        tokens[a], tokens[b] = tokens[b], tokens[a]
        lines[i] = " ".join(tokens)
    elif op == "number" and re.search(r"\d+", line):
        m = rng.choice(list(re.finditer(r"\d+", line)))
        lines[i] = line[:m.start()] + rng.choice(["-1", "0"]) + line[m.end():]
    elif op == "junk":
        k = rng.randrange(len(line) + 1)
        lines[i] = line[:k] + rng.choice(_JUNK) + line[k:]
    else:
        op = "truncate"
        lines[i] = line[: rng.randrange(len(line) + 1)]
    return f"{op} line {i + 1}", lines


def _mutants_fail_only_with_located_spec_errors(tmp_path, stock: str, count: int, seed: int) -> dict:
    original = stock_path(stock).read_text(encoding="utf-8").split("\n")
    rng = random.Random(seed)
    path = tmp_path / "mutant.rail"
    outcomes = {"ok": 0, "syntax": 0, "check": 0}
    for _ in range(count):
        what, lines = _mutate(rng, original)
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            check_file(path)
            outcomes["ok"] += 1
        except SpecError as err:
            outcomes["syntax" if isinstance(err, SpecSyntaxError) else "check"] += 1
            assert err.span is not None and err.span.file == str(path), (what, err.format())
            assert err.format().startswith(f"{path}:{err.span.line}:{err.span.col}: "), (what, err.format())
            written = path.read_text(encoding="utf-8").split("\n")
            for e in getattr(err, "errors", [err]):
                assert e.source_line == written[e.span.line - 1], (what, e.format())
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{what}: {type(exc).__name__}: {exc}\n" + "\n".join(lines))
    return outcomes


def test_mutated_usa_specs_fail_only_with_located_spec_errors(tmp_path):
    outcomes = _mutants_fail_only_with_located_spec_errors(tmp_path, "usa", 300, 20240611)
    # the mutations must reach both stages and leave some specs valid (e.g. a duplicated city line
    # is an error, a swapped pair of tokens in a comment is not)
    assert all(outcomes.values()), outcomes


@pytest.mark.parametrize("stock", ["europe", "amsterdam", "pennsylvania", "italy"])
def test_mutated_stock_specs_fail_only_with_located_spec_errors(tmp_path, stock):
    """The same on the other stock specs, whose mechanics (stations, goods, shares, zones,
    regions, ferry cards) the USA spec does not reach; fewer mutations each."""
    outcomes = _mutants_fail_only_with_located_spec_errors(tmp_path, stock, 40, 7)
    assert outcomes["syntax"] + outcomes["check"] > 0, outcomes


def test_a_map_too_small_for_the_players_trains_is_a_warning(tmp_path):
    """docs/rules.md #44: 94 cars, 40 trains a player, up to 4 players: from 3 players the
    players bring more trains than the routes hold before the end trigger (a player at 2 or
    fewer), so most games end with nobody able to act. It checks and plays; it is warned."""
    cities = [f"C{i}" for i in range(17)]
    lines = ['variant "Crowded"', "players 2..4", "trains 40", "hand 4", "card red 60", "card blue 60",
             "locomotives 14", "market 5 reset 3 locomotives", "deal tickets 2 keep 1", "returned tickets bottom",
             "action draw cards 2", "action claim route", "end when trains <= 2",
             "route points 1:1 2:2 3:4 4:7 5:10 6:15"]
    lines += [f"city {c}" for c in cities]
    lines += [f"route {a} - {b} {4 if i == 15 else 6} {'red' if i % 2 else 'blue'}"
              for i, (a, b) in enumerate(zip(cities, cities[1:]))]
    lines += [f"ticket C0 - C{k} {k}" for k in range(1, 9)]
    assert_located_warning(tmp_path, "\n".join(lines) + "\n", 3, 1,
                           "with 3 players or more the map's routes hold 94 cars, fewer than the 3 x 38 trains the "
                           "players place before the last round can start")


def test_no_stock_map_is_too_small_for_its_players():
    for name in stock_names():
        assert not [w for w in check_file(stock_path(name)).warnings if "last round" in w.message], name
