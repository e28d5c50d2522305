"""Agents and determinization, on every stock variant that loads.

``resample`` (the determinization the search agents use) is checked on both of its
halves: what the player sees is unchanged, and what the player cannot see is redrawn.
Every agent plays full games of every variant through the public API without an illegal
action; the long campaigns (1,000 games per agent and variant, the styles' win rates)
are ``make agents-campaign``.
"""
from __future__ import annotations

import pytest
from conftest import ENGINES, implemented_stock_variants

import railspec
from railspec.compiler.base import schema
from railspec.compiler.base.rng import SplitMix64
from railspec.playtest import agents
from railspec.playtest.agents import ismcts
from railspec.playtest.agents.kernel import kernel as agents_kernel
from railspec.playtest.agents.tables import kind_codes, policy_of, worth_now
from railspec.runtime import determinize

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


def _positions(v, games: int, every: int):
    """States met along random games of ``v``: every ``every``-th decision, all phases."""
    for seed in range(games):
        players = v.ir.min_players + seed % (v.ir.max_players - v.ir.min_players + 1)
        g = v.new_game(players=players, seed=seed)
        rng = SplitMix64(seed)
        step = 0
        while not g.is_over:
            if step % every == 0:
                yield g
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
            step += 1
        yield g


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_resample_keeps_what_the_player_sees(v):
    """Every observation of every seat is the same in the world drawn for that seat, and
    the world is a valid state (the validator accounts for every card and ticket)."""
    checked = 0
    for g in _positions(v, games=3, every=9):
        state = g.state()
        for player in range(g.players):
            world = determinize.resample(v.ir, state, player, seed=checked)
            again = v.game_from_state(world)  # validated
            assert again.observation(player) == g.observation(player)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_resample_redraws_what_the_player_cannot_see(v):
    """Across seeds, the deck's order and the opponents' hands differ; a seed gives the
    same world twice; the game generator is reseeded."""
    g = v.new_game(players=v.ir.min_players, seed=5)
    rng = SplitMix64(5)
    for step in range(60):  # 12 decisions, and on while the opponents hold no card to redraw
        if step >= 12 and any(map(sum, g.state()["hands"][1:])):
            break
        legal = g.legal_actions()
        g.apply(legal[rng.below(len(legal))])
    state = g.state()
    worlds = [determinize.resample(v.ir, state, 0, seed) for seed in range(8)]
    assert determinize.resample(v.ir, state, 0, 3) == worlds[3]
    assert len({tuple(w["deck"]) for w in worlds}) > 1
    assert len({tuple(map(tuple, w["hands"][1:])) for w in worlds}) > 1
    assert len({w["rng"] for w in worlds}) == 8
    for w in worlds:
        assert w["hands"][0] == state["hands"][0] and w["tickets"][0] == state["tickets"][0]
        assert [sum(h) for h in w["hands"]] == [sum(h) for h in state["hands"]]
        assert [len(t) for t in w["tickets"]] == [len(t) for t in state["tickets"]]


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_compiled_draw_is_the_python_draw(v):
    """Engine.resampled (the world drawn in C, what Game.resample uses on the compiled
    engine) gives the world determinize.resample draws from the exported state, for every
    seat, in every core phase met; in a mechanic's phase it leaves the draw to Python."""
    drawn = 0
    for g in _positions(v, games=3, every=5):
        state = g._e.export_state()
        for player in range(g.players):
            seed = 7919 * drawn + player
            world = g._e.resampled(player, seed)
            if state["phase"] not in schema.CORE_PHASES:
                assert world is None
                continue
            assert world.export_state() == determinize.resample(v.ir, state, player, seed)
            drawn += 1
    assert drawn > 50


@pytest.mark.parametrize("engine", ENGINES)
def test_resample_game_plays_on_the_same_engine(usa, engine):
    g = usa.new_game(players=3, seed=4, engine=engine)
    world = g.resample(0, 11)
    assert world.engine == engine
    assert world.observation(0) == g.observation(0)
    while not world.is_over:
        world.apply(world.legal_actions()[0])
    assert not g.is_over


@pytest.mark.parametrize("bad", [-1, 5, True, "0", 1.0])
def test_resample_refuses_a_seat_that_is_not_there(usa, bad):
    state = usa.new_game(players=3, seed=1).state()
    with pytest.raises((ValueError, TypeError)):
        determinize.resample(usa.ir, state, bad, 0)


SCRIPTED = ["one-step", "long-route", "route-focus", "destination-hungry", "greedy", "random"]


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_scripted_agent_finishes_games_legally(v):
    """A game of scripted agents reaches its end; ``agents.play`` raises AgentError on
    the first illegal choice, so finishing is the check."""
    players = min(4, v.ir.max_players)
    for seed in range(2):
        seats = [agents.make(SCRIPTED[(seed + i) % len(SCRIPTED)], seed=seed) for i in range(players)]
        g = agents.play(v, seats, seed=seed)
        assert g.is_over


def _observed_view(v, obs: dict) -> list[int]:
    """The agent view's parts a player's observation holds (all but the open flags):
    header, hand, owners, and then tickets and offer."""
    player = obs["player"]
    offer = obs["offer"] or obs["setup_offer"]
    header = [player, obs["players"], obs["trains"][player], len(obs["tickets"]), len(offer), 0, 0, 0]
    return header + list(obs["hand"]) + list(obs["owner"]), list(obs["tickets"]) + list(offer)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_agent_view_is_the_same_on_both_engines_and_holds_only_the_observation(v):
    """The view the compiled engine writes for the styles equals the reference engine's at
    every decision, set-up and offers included; everything in it but the open flags is in
    the player's observation, and the flags are the rules' (a route with a legal claim is
    open, an owned one is not)."""
    checked = 0
    n_routes = len(v.ir.routes)
    for g in _positions(v, games=6, every=1):
        if g.is_over:
            continue
        view = g.agent_view()
        assert view == v.game_from_state(g.state(), engine="reference").agent_view(), g.state()["phase"]
        front, back = _observed_view(v, g.observation())
        assert view[:len(front)] == front and view[len(front) + n_routes:] == back
        flags = view[len(front):len(front) + n_routes]
        owner = g.state()["owner"]
        assert all(not flags[r] for r in range(n_routes) if owner[r] != -1)
        claimed = {v.ir.actions[a].route for a in g.legal_actions() if v.ir.actions[a].kind == "claim"}
        assert all(flags[r] for r in claimed)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_scripted_agents_play_the_same_game_on_both_engines(v):
    """The compiled engine's view and the reference engine's observation lead the styles to
    the same choices: a seeded game of every style is the same game on both engines."""
    players = min(4, v.ir.max_players)
    styles = SCRIPTED[:5]
    for seed in range(2):
        games = [agents.play(v, [agents.make(styles[(seed + i) % 5], seed=seed + i) for i in range(players)],
                             seed=seed, engine=engine).to_json() for engine in ENGINES]
        assert games[0] == games[1]


def test_a_policy_refuses_an_engine_of_another_variant(usa):
    europe = railspec.load("europe")
    policy = policy_of(usa.ir)
    with pytest.raises(ValueError, match="not of the variant"):
        policy.decide_compiled(agents.make("one-step").seat, europe.new_game(players=2, seed=1)._e)


def test_a_mechanic_names_only_known_agent_rules(usa):
    """``Mechanic.agent_play`` maps a kind to one of the generic rules; a rule the agents
    do not know is refused, naming the mechanic and the rules there are."""
    from railspec.compiler.mechanic import AgentPlay
    from railspec.mechanics import stations

    class Bargaining(stations.Stations):
        def agent_play(self, variant, rule):
            return AgentPlay(rules={"station_pay": "bargain"})
    mech = Bargaining()
    registry = railspec.load("europe").registry.replacing(mech)
    with pytest.raises(ValueError, match="stations: no agent rule named 'bargain'.*pay"):
        kind_codes(railspec.load("europe", registry=registry).ir)


def test_agents_are_deterministic_given_their_seeds(usa):
    def run():
        seats = [agents.make(n, seed=9) for n in ("one-step", "long-route", "route-focus", "destination-hungry")]
        return agents.play(usa, seats, seed=9).to_json()
    assert run() == run()


def test_the_styles_differ(usa):
    """The four styles are different players: on the same seeds they make different games."""
    endings = set()
    for name in ("one-step", "long-route", "route-focus", "destination-hungry"):
        g = agents.play(usa, [agents.make(name, seed=1), agents.make("random", seed=2)], seed=1)
        endings.add(tuple(g.scores()))
    assert len(endings) == 4


def test_ismcts_plays_a_legal_game(usa):
    g = agents.play(usa, [agents.make("ismcts", seed=1, iterations=8), agents.make("random", seed=2)], seed=3)
    assert g.is_over


def _midgame(v, decisions: int, seed: int):
    g = v.new_game(players=2, seed=seed)
    stylist = agents.make("one-step", seed=seed)
    for _ in range(decisions):
        g.apply(stylist.act(g))
    return g


def test_ismcts_chooses_alike_on_both_engines(usa):
    """The search draws the same worlds and its rollouts are the same games on both
    engines (the compiled one plays them in C), so it makes the same choice."""
    for seed, decisions in ((1, 0), (2, 25), (3, 60)):
        choices = {engine: agents.make("ismcts", seed=7, iterations=6).act(
            usa.game_from_state(_midgame(usa, decisions, seed).state(), engine=engine)) for engine in ENGINES}
        assert choices["compiled"] == choices["reference"]


def test_ismcts_plays_what_every_style_agrees_on_without_searching(usa):
    """With one action in the portfolio there is nothing to compare: the agent plays it
    and draws no world (its generator is untouched)."""
    g = usa.new_game(players=2, seed=4)
    bot = agents.make("ismcts", seed=1, iterations=50, portfolio=("one-step",))
    before = bot.rng.next()
    bot = agents.make("ismcts", seed=1, iterations=50, portfolio=("one-step",))
    assert bot.act(g) == agents.make("one-step").act(g)
    assert bot.rng.next() == before


@pytest.mark.parametrize("options, message", [
    (dict(iterations=0), "iterations must be a positive integer"),
    (dict(rollout="estimate"), "rollout must be 'policy' or 'random'"),
    (dict(rollout_style="timid"), "no scripted style named 'timid'"),
    (dict(portfolio=("one-step", "hoarder")), "no scripted style named 'hoarder'"),
    (dict(portfolio=()), "at least one style"),
    (dict(depth=-1), "depth must be a non-negative integer"),
    (dict(opponent_styles=("one-step", "bully")), "no scripted style named 'bully'"),
    (dict(opponent_styles=()), "opponent_styles needs at least one style"),
])
def test_ismcts_refuses_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        agents.make("ismcts", **options)


def test_an_illegal_choice_names_the_agent_and_seat(usa):
    class Stubborn:
        name = "stubborn"

        def act(self, game):
            return len(game.variant.actions) - 1  # "pass", never legal while moves exist

    with pytest.raises(agents.AgentError, match="'stubborn' in seat 0"):
        agents.play(usa, [Stubborn(), agents.make("random")], seed=1)


def test_take_turns_stops_at_the_seat_and_resumes_the_same_game(usa):
    """take_turns (the loop agents.play and the Gymnasium opponents share) returns when the
    given seat is to decide, never asking that seat's entry; resumed, the game is the one
    agents.play plays without a stop."""
    def seats():
        return [agents.make(name, seed=k) for k, name in enumerate(("random", "one-step", "greedy"))]
    whole = agents.play(usa, seats(), seed=4)
    g = usa.new_game(players=3, seed=4)
    seated = seats()
    stops = 0
    while not g.is_over:
        agents.take_turns(g, [None, *seated[1:]], until_seat=0)
        if g.is_over:
            break
        assert g.current_player == 0
        g.apply(seated[0].act(g))
        stops += 1
    assert stops > 10
    assert g.to_json() == whole.to_json()


@pytest.mark.parametrize("bad", ["randm", "", "ISMCTS"])
def test_unknown_agent_names_are_refused_with_the_list(bad):
    with pytest.raises(agents.AgentError, match="the agents are random"):
        agents.make(bad)


def test_user_agents_fit_the_protocol():
    assert isinstance(agents.make("greedy"), agents.Agent)
    assert isinstance(agents.make("ismcts", iterations=1), agents.Agent)


@pytest.mark.parametrize("engine", ENGINES)
def test_game_resample_is_the_determinization(usa, engine):
    """g.resample(player, seed): the game API's face of resample_game, argument-checked."""
    g = usa.new_game(players=3, seed=8, engine=engine)
    world = g.resample(1, 5)
    assert world.engine == engine and world.observation(1) == g.observation(1)
    assert world.to_json() == g.resample(1, 5).to_json()
    with pytest.raises(railspec.RailspecError):
        g.resample(3, 0)
    with pytest.raises(TypeError):
        g.resample(0, 1.5)


@pytest.mark.parametrize("change, message", [
    (lambda view, legal: (view, [99999]), "legal ids must be ascending action ids"),
    (lambda view, legal: (view, legal[::-1]), "legal ids must be ascending"),
    (lambda view, legal: (view, []), "no legal action"),
    (lambda view, legal: (view[:-1], legal), "does not fit this variant"),
    (lambda view, legal: (view[:8] + [-1] + view[9:], legal), "cannot hold -1 cards"),
    (lambda view, legal: ([5] + view[1:], legal), "player 5 of 2"),
    (lambda view, legal: (view[:-1] + [999], legal), "no ticket 999"),
])
def test_a_policy_refuses_a_view_it_cannot_read(usa, change, message):
    """Views and legal lists from Python are checked before the compiled styles index
    their tables with them: a clear ValueError, never a crash."""
    g = usa.new_game(players=2, seed=1)
    view, legal = g.agent_view(), g.legal_actions()
    policy = policy_of(usa.ir)
    with pytest.raises(ValueError, match=message):
        policy.decide(agents.make("one-step").seat, *change(view, legal))


def test_a_finished_game_has_no_view_and_no_choice(usa):
    g = agents.play(usa, [agents.make("greedy", seed=1), agents.make("greedy", seed=2)], seed=1)
    with pytest.raises(ValueError, match="game is over"):
        g._e.agent_view()
    with pytest.raises(ValueError, match="game is over"):
        policy_of(usa.ir).decide_compiled(agents.make("one-step").seat, g._e)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_seats_view_is_the_same_on_both_engines(v):
    """A seat's view of a moment that is not its turn (the search's value estimate reads
    every seat of a world it drew) is written alike by both engines; it is the seat's own
    hand, trains and tickets, with no offer unless that seat is choosing, and the player
    to move's is the plain agent view."""
    checked = 0
    for g in _positions(v, games=3, every=7):
        if g.is_over:
            continue
        reference = v.game_from_state(g.state(), engine="reference")
        state = g.state()
        assert g.agent_view(g.current_player) == g.agent_view()
        for p in range(g.players):
            view = g.agent_view(p)
            assert view == reference.agent_view(p), (p, state["phase"])
            assert view[0] == p and view[2] == state["trains"][p] and view[3] == len(state["tickets"][p])
            if p != g.current_player and state["phase"] != "setup_keep":
                assert view[4] == 0
            checked += 1
    assert checked > 20
    with pytest.raises(railspec.RailspecError, match="no player"):
        v.new_game(players=2, seed=1).agent_view(2)


def _estimate_views(usa, seat_routes: str):
    """Two seats' views of a constructed board: seat 0 holds one ticket and the routes are
    all free (``"free"``), all seat 1's (``"blocked"``) or all seat 0's (``"joined"``)."""
    g = usa.new_game(players=2, seed=1)
    while g.state()["phase"] == "setup_keep":
        g.apply(agents.make("one-step").act(g))
    n_cards, n_routes = len(usa.ir.colours) + 1, len(usa.ir.routes)
    owner = {"free": -1, "blocked": 1, "joined": 0}[seat_routes]
    views = []
    for p in range(2):
        view = g.agent_view(p)
        header, hand = view[:8], view[8:8 + n_cards]
        tickets = [0] if p == 0 else []
        header[3], header[4] = len(tickets), 0
        views.append(header + hand + [owner] * n_routes + [int(owner == -1)] * n_routes + tickets)
    return views


def test_the_value_estimate_counts_the_score_now_and_what_the_position_promises(usa):
    """The estimate of a seat is its total now plus what its trains and open tickets
    promise: a point more now is a point more in the estimate; a ticket still to join over
    free routes is worth more than the same ticket out of reach or already joined (both of
    which the total now already counts); a ticket is worth nothing more once the trains
    the seat will still lay cannot cover it."""
    policy = policy_of(usa.ir)
    points = usa.ir.tickets[0].points
    free, blocked, joined = (_estimate_views(usa, case) for case in ("free", "blocked", "joined"))
    base = policy.estimate(free, [10, 10])
    more = policy.estimate(free, [15, 10])
    assert more[0] == pytest.approx(base[0] + 5) and more[1] == pytest.approx(base[1])
    swing = base[0] - policy.estimate(blocked, [10, 10])[0]
    assert 0 < swing <= 2 * points
    assert policy.estimate(joined, [10, 10])[0] == pytest.approx(policy.estimate(blocked, [10, 10])[0])
    assert base[0] > base[1]  # the same trains, and seat 0 has a ticket in reach
    few = [list(view) for view in free]
    few[0][2] = few[1][2] = 1  # one train each: the ticket's way is longer
    assert policy.estimate(few, [10, 10])[0] == pytest.approx(policy.estimate(few, [10, 10])[1])
    with pytest.raises(ValueError, match="views"):
        policy.estimate(free, [10])
    with pytest.raises(ValueError, match=r"views\[0\] is player 1's"):
        policy.estimate(free[::-1], [10, 10])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rollout_stopped_at_its_horizon_is_judged_by_the_estimate(usa, engine):
    """A playout with a horizon stops after that many decisions and returns the estimate
    of the position it reached; with none it plays to the end and returns the totals. The
    search's rewards read the same figures on both engines."""
    policy = policy_of(usa.ir)
    kernel = agents_kernel()
    g = _midgame(usa, 30, 2)
    stopped = g.clone()
    values = policy.playout(stopped._e, [0, 0], [kernel.Seat(0, 1), kernel.Seat(0, 2)], 12)
    assert stopped.state()["decisions"] == g.state()["decisions"] + 12
    assert values == policy.estimate([stopped.agent_view(p) for p in range(2)], stopped.scores())
    ended = g.clone()
    assert policy.playout(ended._e, [0, 0], [kernel.Seat(0, 1), kernel.Seat(0, 2)]) == ended.scores()
    assert ended.is_over
    bot = agents.make("ismcts", seed=3, iterations=12, horizon=10)
    walk = usa.game_from_state(g.state(), engine=engine)
    assert bot.act(walk) in walk.legal_actions()


def test_the_same_seed_makes_the_same_decision(usa):
    """Two searches with one seed draw the same worlds and play the same rollouts: the same
    choice at every position (and a search's own generator moves on between them)."""
    for decisions in (0, 20, 45):
        g = _midgame(usa, decisions, 5)
        first = agents.make("ismcts", seed=11, iterations=40).act(g.clone())
        again = agents.make("ismcts", seed=11, iterations=40).act(g.clone())
        assert first == again and first in g.legal_actions()


def test_the_search_drops_a_root_action_clearly_beaten_on_the_same_worlds():
    """An action the leader beats on every world by a steady margin is dropped; one that
    differs from it only by noise of both signs stays; the leader always stays."""
    rewards = {1: [0.8, 0.7, 0.9, 0.75] * 3, 2: [0.3, 0.2, 0.35, 0.25] * 3, 3: [0.85, 0.6, 0.95, 0.7] * 3}
    race = ismcts.Race([1, 2, 3])
    for world in range(12):
        race.add({a: rewards[a][world] for a in (1, 2, 3)})
    assert race.leader() == 1
    assert race.drop_beaten(2.5) == [1, 3] and race.alive == [1, 3]
    alone = ismcts.Race([2])
    for _ in range(8):
        alone.add({2: 0.1})
    assert alone.drop_beaten(2.5) == [2]
    with pytest.raises(ValueError, match="confidence"):
        agents.make("ismcts", confidence=0)
    with pytest.raises(ValueError, match="horizon"):
        agents.make("ismcts", horizon=-1)


def test_the_inner_loops_rewards_are_the_documented_ones():
    """The rewards the search computes from a rollout's totals are game_rewards with the
    best totals winning, ties shared."""
    for totals in ([10, 20], [20, 10], [15, 15], [3, 90, 40], [7, 7, 1], [50.5, 49.25], [0]):
        best = max(totals)
        winners = [p for p, t in enumerate(totals) if t == best]
        assert ismcts._rewards_from_totals(totals) == pytest.approx(ismcts.game_rewards(totals, winners))


# --- what a mechanic says claims and options bring now ----------------------------------------

def test_worth_now_steers_the_claim_and_the_option_and_a_stock_map_asks_nothing(usa):
    """AgentPlay.worth_now and option_worth_now reach the compiled styles through
    Seat.set_worth: greedy, told a claim it can make brings more now than any other, makes
    that one; told an option (here a claim, any action id will do) is worth taking, takes it
    before any rule of its own; forget() drops both. A stock map's mechanics say nothing now,
    so no observation is asked of its games (their decisions cost what they did)."""
    k = agents_kernel()
    policy = policy_of(usa.ir)
    g = usa.new_game(players=2, seed=3, engine="compiled")
    while not any(usa.ir.actions[a].kind == "claim" for a in g.legal_actions()):
        g.apply(agents.make("one-step", seed=1).act(g))
    assert worth_now(usa.ir, g) is None
    seat = k.Seat(k.STYLES["greedy"], 5)
    plain = policy.decide_compiled(seat, g._e)
    claims = [a for a in g.legal_actions() if usa.ir.actions[a].kind == "claim"]
    other = next(a for a in claims if usa.ir.actions[a].route != usa.ir.actions[plain].route)
    route = usa.ir.actions[other].route
    seat.set_worth(policy, {route: 4 * 100})
    assert usa.ir.actions[policy.decide_compiled(seat, g._e)].route == route
    seat.set_worth(policy, {}, {other: 1})
    assert policy.decide_compiled(seat, g._e) == other
    seat.forget()
    assert policy.decide_compiled(seat, g._e) == plain
    with pytest.raises(ValueError):
        seat.set_worth(policy, {len(usa.ir.routes): 1})
    with pytest.raises(ValueError):
        seat.set_worth(policy, {}, {len(usa.ir.actions): 1})
