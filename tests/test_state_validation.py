"""The state validator (docs/engine.md, "Checking a state"): a state read back from
anywhere is accepted only when it looks reachable, and so can be played on to an end.

Three kinds of test: every state of seeded games of each stock variant is accepted (the
checks never refuse a reachable state); a table of bad states, each a real state with one
thing changed, is refused by both engines with a message naming the field; and seeded
random edits of real states are either refused with a ``StateError`` or played on by both
engines alike, with a legal action in every position that is not over.
"""
from __future__ import annotations

import copy
import functools
import json
import random
import warnings

import pytest
from conftest import ENGINES, implemented_stock_variants

import railspec
from railspec.compiler.base.rng import agent_for
from railspec.runtime import reference, state_format
from railspec.tools import perft

warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
VARIANTS = {v.key: v for v in implemented_stock_variants()}


def play_states(v, players: int, seed: int, every: int = 1):
    """The states of game ``seed`` of the random agent (compiled engine): every
    ``every``-th decision, each decision of a phase other than ``turn`` and
    ``second_draw``, and the end."""
    g = v.new_game(players=players, seed=seed)
    agent = agent_for(seed)
    n = 0
    while not g.is_over:
        state = g.state()
        if n % every == 0 or state["phase"] not in ("turn", "second_draw"):
            yield state
        legal = g.legal_actions()
        g.apply(legal[agent.below(len(legal))])
        n += 1
    yield g.state()


@functools.cache
def _reach(key: str, players: int, phase: str, skip: int) -> str:
    v = VARIANTS[key]
    seen = 0
    for seed in range(200):
        for state in play_states(v, players, seed):
            if state["phase"] == phase:
                if seen == skip:
                    return json.dumps(state)
                seen += 1
    raise AssertionError(f"no {phase} state in 200 games of {key}")


def reach(key: str, players: int, phase: str, skip: int = 0) -> dict:
    """A state of a seeded random game in ``phase`` (the ``skip``-th such state met)."""
    return json.loads(_reach(key, players, phase, skip))


# --- every reachable state is accepted ----------------------------------------------------

@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_state_of_played_games_is_accepted(key):
    """Seeded games at every player count: each sampled state validates and loads in both
    engines, and every phase of the variant is met (so each phase's checks see real states)."""
    v = VARIANTS[key]
    phases = set()
    for i, players in enumerate(list(range(v.ir.min_players, v.ir.max_players + 1)) * 2):
        for n, state in enumerate(play_states(v, players, seed=100 + i, every=6)):
            phases.add(state["phase"])
            state_format.validate(v.ir, state)
            if n % 25 == 0:  # the whole road in, once in a while: JSON, both engines
                text = json.dumps(state)
                for engine in ENGINES:
                    assert v.game_from_state(state_format.loads(text), engine=engine).to_json() == \
                        json.dumps(state, separators=(",", ":"))
    # a phase random play never reaches (Right of Way's: 4 locomotives saved, an owned
    # route): the games the perft files find it with (tools/perft.rare_phases)
    for phase, state in perft.rare_phases(v, set(v.assembly.phases) - phases, range(1, 40)).items():
        phases.add(phase)
        state_format.validate(v.ir, state)
        for engine in ENGINES:
            assert v.game_from_state(state_format.loads(json.dumps(state)), engine=engine).state() == state
    assert phases == set(v.assembly.phases), f"phases never met: {set(v.assembly.phases) - phases}"


# --- bad states -----------------------------------------------------------------------------

def add(row: list, index: int, amount: int) -> None:
    row[index] += amount


def return_all(s: dict, tickets: list) -> None:
    """Put these tickets under the ticket deck."""
    s["ticket_deck"].extend(tickets)
    tickets.clear()


def move_ticket(s: dict, to: list, source: str = "ticket_deck") -> None:
    to.append(s[source].pop(0))


def own(v, s: dict, player: int, route) -> None:
    s["owner"][route.id] = player
    s["trains"][player] -= route.length
    s["route_score"][player] += v.ir.route_points[route.length]


def give_route(v, s: dict, route, player: int) -> None:
    """Move an owned route to another player (-1: nobody)."""
    before = s["owner"][route.id]
    s["trains"][before] += route.length
    s["route_score"][before] -= v.ir.route_points[route.length]
    if player == -1:
        s["owner"][route.id] = -1
    else:
        own(v, s, player, route)


def return_routes(v, s: dict) -> None:
    """Every route back to the box, every player's trains back."""
    for r in v.routes:
        if s["owner"][r.id] != -1:
            give_route(v, s, r, -1)


def own_free_routes(v, s: dict, player: int, at_most: int, spare=()) -> None:
    """Give ``player`` free routes (one track of a free group each, longest first) until
    they have ``at_most`` trains left; ``spare``: groups to leave alone."""
    taken = {r.group for r in v.routes if s["owner"][r.id] != -1} | set(spare)
    for r in sorted(v.routes, key=lambda r: (-r.length, r.id)):
        if s["trains"][player] <= at_most:
            break
        if r.group not in taken and r.length <= s["trains"][player]:
            own(v, s, player, r)
            taken.add(r.group)
    assert s["trains"][player] <= at_most


def free_double(v, s: dict):
    groups: dict[int, list] = {}
    for r in v.routes:
        groups.setdefault(r.group, []).append(r)
    return next(g for g in groups.values() if len(g) == 2 and all(s["owner"][r.id] == -1 for r in g))


def empty_the_draw_piles(s: dict) -> None:
    hand = s["hands"][s["current"]]
    for card in s["deck"]:
        hand[card] += 1
    for card, n in enumerate(s["discard"]):
        hand[card] += n
        s["discard"][card] = 0
    s["deck"] = []


def discard_hand(s: dict, player: int) -> None:
    for card, n in enumerate(s["hands"][player]):
        s["discard"][card] += n
        s["hands"][player][card] = 0


def take_all_shares(v, s: dict, companies, holder: int) -> None:
    rule = v.ir.rule("shares")
    for c in companies:
        first = rule.first_share(c)
        for i in range(first, first + rule.companies[c].shares):
            if s["share_owner"][i] == -1:
                s["share_owner"][i] = holder


def other_track_to(player_offset: int):
    """Give the other track of the double a pending tunnel claim is on to a player (0: the
    claiming one)."""
    def mutate(v, s: dict) -> None:
        pending = v.routes[s["tunnel_route"]]
        other = next(r for r in v.routes if r.group == pending.group and r.id != pending.id)
        own(v, s, (s["current"] + player_offset) % s["players"], other)
    return mutate


def mid(key: str, players: int = 3) -> tuple[str, int, str, int]:
    return (key, players, "turn", 60)


# (name, (variant, players, phase, skip), mutation, fragment of the message)
BAD_STATES = [
    # the phase and what it needs
    ("keep without an offer", mid("usa"), lambda v, s: s.update(phase="keep"), "'offer'"),
    ("keep with nothing to keep", ("usa", 3, "keep", 0), lambda v, s: s.update(offer_keep=0), "'offer_keep'"),
    ("keep with too much to keep", ("usa", 3, "keep", 0), lambda v, s: s.update(offer_keep=2), "'offer_keep'"),
    ("keep with more than a draw", ("europe", 3, "keep", 0), lambda v, s: move_ticket(s, s["offer"]), "'offer'"),
    ("an offer during a turn", mid("usa"), lambda v, s: move_ticket(s, s["offer"]), "'offer'"),
    ("something to keep during a turn", mid("usa"), lambda v, s: s.update(offer_keep=1), "'offer_keep'"),
    ("set-up without an offer", ("usa", 3, "setup_keep", 0),
     lambda v, s: return_all(s, s["setup_offer"][0]), "'setup_offer[0]'"),
    ("set-up, a later player without an offer", ("usa", 3, "setup_keep", 0),
     lambda v, s: return_all(s, s["setup_offer"][2]), "'setup_offer[2]'"),
    ("set-up offer smaller than the keep", ("usa", 3, "setup_keep", 0),
     lambda v, s: s["ticket_deck"].extend([s["setup_offer"][0].pop(), s["setup_offer"][0].pop()]),
     "'setup_offer[0]'"),
    ("set-up offer of a player who chose", ("usa", 3, "setup_keep", 1),
     lambda v, s: move_ticket(s, s["setup_offer"][0]), "'setup_offer[0]'"),
    ("set-up offer during a turn", mid("usa"), lambda v, s: move_ticket(s, s["setup_offer"][1]), "'setup_offer[1]'"),
    ("tickets kept before choosing", ("usa", 3, "setup_keep", 0), lambda v, s: move_ticket(s, s["tickets"][2]),
     "'tickets[2]'"),
    ("nothing kept after choosing", ("usa", 3, "setup_keep", 1),
     lambda v, s: return_all(s, s["tickets"][0]), "'tickets[0]'"),
    ("set-up after turns", ("usa", 3, "setup_keep", 0), lambda v, s: s.update(turn=5), "'turn'"),
    ("set-up with routes owned", ("usa", 3, "setup_keep", 0), lambda v, s: own(v, s, 1, v.routes[0]), "'owner'"),
    ("second draw from nothing", ("usa", 3, "second_draw", 3), lambda v, s: empty_the_draw_piles(s), "'deck'"),
    # the end of the game
    ("final_turns 0 mid-game", mid("usa"), lambda v, s: s.update(final_turns=0), "'final_turns'"),
    ("a last round nobody started", mid("usa"), lambda v, s: s.update(final_turns=2), "'final_turns'"),
    ("a last round not started in time", mid("usa"),
     lambda v, s: own_free_routes(v, s, (s["current"] + 1) % 3, v.ir.end_trains), "'final_turns'"),
    ("a full round of passes mid-game", mid("usa"), lambda v, s: s.update(passes=3), "'passes'"),
    ("over for no reason", ("usa", 3, "over", 0), lambda v, s: s.update(final_turns=1, passes=0), "'phase'"),
    ("over, a last round nobody started", ("usa", 3, "over", 0), lambda v, s: return_routes(v, s), "'final_turns'"),
    # routes
    ("two tracks of a double, one player", mid("usa", 4),
     lambda v, s: [own(v, s, 0, r) for r in free_double(v, s)], "'owner'"),
    ("two tracks of a double, three players", mid("usa"),
     lambda v, s: [own(v, s, p, r) for p, r in enumerate(free_double(v, s))], "'owner'"),
    ("route points off", mid("usa"), lambda v, s: add(s["route_score"], 0, 1), "'route_score[0]'"),
    ("trains off", mid("usa"), lambda v, s: add(s["trains"], 1, -1), "'trains[1]'"),
    ("an unknown key", mid("usa"), lambda v, s: s.update(final_turn=1), "'final_turn'"),
    # the mechanics' phases
    ("a station nobody can pay", ("europe", 3, "station", 0), lambda v, s: discard_hand(s, s["current"]),
     "'hands["),
    ("a tunnel without the trains", ("europe", 3, "tunnel", 0),
     lambda v, s: own_free_routes(v, s, s["current"], v.routes[s["tunnel_route"]].length - 1,
                                  spare=[v.routes[s["tunnel_route"]].group]), "'trains["),
    # random games of Europe reach a tunnel claim on Madrid-Pamplona (a double tunnel) there
    ("a tunnel on a double the player has a track of", ("europe", 4, "tunnel", 8), other_track_to(0),
     "'tunnel_route'"),
    ("a tunnel on a double used up", ("europe", 3, "tunnel", 20), other_track_to(1), "'tunnel_route'"),
    ("a share of companies with none left", ("pennsylvania", 3, "share", 0),
     lambda v, s: take_all_shares(v, s, v.ir.rule("shares").companies_of(s["share_route"]), (s["current"] + 1) % 3),
     "'share_owner'"),
    ("a share for a route someone else claimed", ("pennsylvania", 3, "share", 0),
     lambda v, s: give_route(v, s, v.routes[s["share_route"]], (s["current"] + 1) % 3), "'share_route'"),
    ("a neutral share without the neutral", ("pennsylvania", 3, "share", 0),
     lambda v, s: s.update(phase="neutral_share"), "'phase'"),
    ("a neutral share with none left", ("pennsylvania", 2, "neutral_share", 0),
     lambda v, s: take_all_shares(v, s, v.ir.rule("shares").companies_of(s["share_route"]), s["current"]),
     "'share_owner'"),
]


@pytest.mark.parametrize("name,base,mutate,fragment", BAD_STATES, ids=[b[0] for b in BAD_STATES])
def test_bad_states_are_refused_by_both_engines(name, base, mutate, fragment):
    v = VARIANTS[base[0]]
    state = reach(*base)
    state_format.validate(v.ir, state)  # the base is fine: the mutation is what is refused
    mutate(v, state)
    for engine in ENGINES:
        with pytest.raises(railspec.StateError, match=fragment.replace("[", r"\[")):
            v.game_from_state(copy.deepcopy(state), engine=engine)


STUCK = ["keep without an offer", "set-up without an offer", "second draw from nothing", "a station nobody can pay",
         "a share of companies with none left", "a neutral share with none left"]


@pytest.mark.parametrize("name", STUCK)
def test_unchecked_such_states_leave_no_legal_action(name):
    """Why the phase checks matter: handed such a state without the validator, both
    engines find no legal action in a game that is not over, so it can never end."""
    _, base, mutate, _ = next(b for b in BAD_STATES if b[0] == name)
    v = VARIANTS[base[0]]
    state = reach(*base)
    mutate(v, state)
    for game in (reference.ReferenceEngine.from_state(v.ir, copy.deepcopy(state)),
                 v.module().Engine.from_state(copy.deepcopy(state))):
        assert not game.is_over and game.legal_actions() == []


def test_a_phase_without_a_legal_action_is_refused_whatever_the_reason(monkeypatch):
    """The last check plays no favourites: should a phase have no legal action for a reason
    no earlier check names, the state is refused all the same."""
    v = VARIANTS["usa"]
    state = reach("usa", 3, "second_draw", 0)
    rules = reference.rules_for(v.ir)
    monkeypatch.setitem(rules.phase_legal, "second_draw", lambda s: [])
    with pytest.raises(railspec.StateError, match="no legal action"):
        state_format.validate(v.ir, state)


# --- JSON that no state is -----------------------------------------------------------------

HOSTILE_JSON = [
    ("nested 100,000 deep", "[" * 100_000 + "]" * 100_000, "nested"),
    ("an object nested deep", '{"a":' * 100_000 + "1" + "}" * 100_000, "nested"),
    ("a 5,000-digit integer", '{"players": ' + "7" * 5000 + "}", "digits"),
    ("NaN", '{"players": NaN}', "NaN"),
    ("not JSON", "{", "not a railspec state"),
    ("bytes that are not UTF-8", b"\xff\xfe{", "not a railspec state"),
]


@pytest.mark.parametrize("name,text,fragment", HOSTILE_JSON, ids=[h[0] for h in HOSTILE_JSON])
def test_hostile_json_is_a_state_error(name, text, fragment):
    with pytest.raises(railspec.StateError, match=fragment):
        state_format.loads(text)


@pytest.mark.parametrize("engine", ENGINES)
def test_game_from_json_gives_state_errors_for_hostile_json(engine):
    v = VARIANTS["usa"]
    for _, text, _ in HOSTILE_JSON:
        with pytest.raises(railspec.StateError):
            v.game_from_json(text, engine=engine)


def test_values_too_big_to_print_are_named_not_printed():
    """A dict handed over directly (no JSON) may hold what repr() cannot print."""
    v = VARIANTS["usa"]
    state = reach(*mid("usa"))
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for field, value in (("turn", 10 ** 5000), ("turn", deep), ("variant", deep), ("phase", 10 ** 5000),
                         ("deck", [10 ** 5000])):
        bad = dict(state, **{field: value})
        with pytest.raises(railspec.StateError, match=field):
            state_format.validate(v.ir, bad)


# --- random edits -----------------------------------------------------------------------------

def _rows(v, state: dict, pile: str):
    """(name, row) of every row of the pile fields of one kind (per-player ones by seat)."""
    for f in v.assembly.exported_fields:
        if f.pile == pile:
            rows = state[f.name] if f.per_player else [state[f.name]]
            for i, row in enumerate(rows):
                yield (f"{f.name}[{i}]" if f.per_player else f.name), row


def _move_component(rng: random.Random, v, state: dict) -> str:
    """Move one train card, or one ticket, from one pile to another: every component stays
    accounted for, so the deeper checks get their turn."""
    if rng.random() < 0.5:
        rows = list(_rows(v, state, "tickets"))
        source = rng.choice([r for r in rows if r[1]])
        dest = rng.choice(rows)
        dest[1].insert(rng.randrange(len(dest[1]) + 1), source[1].pop(rng.randrange(len(source[1]))))
        return f"a ticket from {source[0]} to {dest[0]}"
    counts = [r for r in _rows(v, state, "card_counts")]
    ids = [r for r in _rows(v, state, "card_ids")]
    sources = [(n, r, True) for n, r in counts if any(r)] + [(n, r, False) for n, r in ids if any(c >= 0 for c in r)]
    name, row, counted = rng.choice(sources)
    if counted:
        card = rng.choice([c for c, n in enumerate(row) if n])
        row[card] -= 1
    else:
        slot = rng.choice([i for i, c in enumerate(row) if c >= 0])
        card = row[slot]
        if name == "faceup":
            row[slot] = -1
        else:
            row.pop(slot)
    dest_name, dest, dest_counted = rng.choice([(n, r, True) for n, r in counts] + [(n, r, False) for n, r in ids])
    if dest_counted:
        dest[card] += 1
    elif dest_name == "faceup":
        if -1 not in dest:
            return f"card {card} from {name} lost (no empty face-up slot)"
        dest[dest.index(-1)] = card
    else:
        dest.insert(rng.randrange(len(dest) + 1), card)
    return f"card {card} from {name} to {dest_name}"


def _edit(rng: random.Random, v, state: dict) -> str:
    """One random change: a component moved between piles, or one value of one field (a
    nearby number, another phase, an entry, a length)."""
    if rng.random() < 0.4:
        return _move_component(rng, v, state)
    fields = [f for f in v.assembly.exported_fields if f.kind != "u64"]
    field = rng.choice(fields)
    name = field.name
    if field.kind == "phase":
        state[name] = rng.choice(v.assembly.phases)
        return f"{name}={state[name]}"
    holder, key = state, name
    if field.per_player and state[name]:  # the edit may have changed 'players' first
        holder, key = state[name], rng.randrange(len(state[name]))
    value = holder[key]
    if isinstance(value, list):
        if value and rng.random() < 0.7:
            i = rng.randrange(len(value))
            value[i] += rng.choice((-2, -1, 1, 2))
            return f"{name}[{i}] {value[i]}"
        if value and rng.random() < 0.5:
            value.pop(rng.randrange(len(value)))
            return f"{name} dropped an entry"
        value.append(rng.randrange(-1, 4))
        return f"{name} appended {value[-1]}"
    holder[key] = value + rng.choice((-3, -2, -1, 1, 2, 3))
    return f"{name}={holder[key]}"


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_random_edits_are_refused_or_played_alike(key):
    """One or two random edits of real states: a StateError, or a state both engines load,
    play the same way and find a legal action in (unless the game is over)."""
    v = VARIANTS[key]
    rng = random.Random(f"edits of {key}")
    pool = [s for players in (2, 3) for s in play_states(v, players, seed=7, every=5)]
    accepted = 0
    for _ in range(250):
        state = copy.deepcopy(rng.choice(pool))
        what = [_edit(rng, v, state) for _ in range(rng.choice((1, 1, 2)))]
        try:
            state_format.validate(v.ir, copy.deepcopy(state))
        except railspec.StateError:
            continue
        accepted += 1
        games = [v.game_from_state(copy.deepcopy(state), engine=engine) for engine in ENGINES]
        for _step in range(3):
            legal = [g.legal_actions() for g in games]
            assert legal[0] == legal[1], what
            if games[0].is_over:
                break
            assert legal[0], f"accepted, not over, and no legal action after {what}"
            action = legal[0][rng.randrange(len(legal[0]))]
            for g in games:
                g.apply(action)
            assert games[0].to_json() == games[1].to_json(), what
            state_format.validate(v.ir, games[0].state())
    assert accepted  # some edits keep a valid state (a pass count, the turn number, the seed…)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_state_text_of_hundreds_of_megabytes_is_refused_unread(engine):
    """Found by `make fuzz`: a 200 MB mutation of a Europe state outlasted the campaign's
    10-second case timeout. Text longer than any state is refused before it is parsed."""
    text = "[" * (state_format.MAX_STATE_CHARS + 1)
    with pytest.raises(railspec.StateError, match="more than any state holds"):
        VARIANTS["usa"].game_from_json(text, engine=engine)


def _odd_value(rng: random.Random):
    """A value of the wrong kind for any field: what hostile JSON can hold."""
    return rng.choice(["3", 1.5, None, [], [[1]], {"a": 1}, 2**70, -2**40, True, False, [True], [0.0]])


def _retype(rng: random.Random, v, state: dict) -> str:
    """One field's value, or one entry of it, replaced by a value of the wrong kind."""
    name = rng.choice([f.name for f in v.assembly.exported_fields])
    holder, key = state, name
    while isinstance(holder[key], list) and holder[key] and rng.random() < 0.6:
        holder, key = holder[key], rng.randrange(len(holder[key]))
    holder[key] = _odd_value(rng)
    return f"{name}: {holder[key]!r}"


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_game_from_json_decides_as_the_whole_check(key):
    """game_from_json lets the compiled loader check the fields' shapes and ranges and the
    validator only the rest (when the text holds no true or false): on edited and retyped
    states it refuses exactly what the whole check refuses, always as a StateError, and
    loads the rest into the same game."""
    v = VARIANTS[key]
    rng = random.Random(f"json of {key}")
    pool = [s for players in (2, 3) for s in play_states(v, players, seed=11, every=7)]
    outcomes = {True: 0, False: 0}
    for _ in range(300):
        state = copy.deepcopy(rng.choice(pool))
        what = _retype(rng, v, state) if rng.random() < 0.5 else _edit(rng, v, state)
        text = json.dumps(state)
        try:
            state_format.validate(v.ir, json.loads(text))
            whole = None
        except railspec.StateError as err:
            whole = err
        try:
            game = v.game_from_json(text)
        except railspec.StateError:
            assert whole is not None, f"refused only by the quick path: {what}"
            outcomes[False] += 1
            continue
        assert whole is None, f"accepted only by the quick path: {what} ({whole})"
        assert game.to_json() == v.game_from_state(json.loads(text)).to_json()
        outcomes[True] += 1
    assert outcomes[True] and outcomes[False]
