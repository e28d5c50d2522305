"""Property-based tests of the engines: a Hypothesis state machine plays the compiled
engine and the reference interpreter side by side on a stock variant, with random legal
actions, illegal ones, clones and JSON round trips, and checks after every step that the
two agree and that the position keeps the conformance suite's invariants
(``railspec.conformance.invariant_problems``: the state validator, conservation of
cards, trains and tickets, each mechanic's invariants, the breakdown re-derived from the
board).

The number of games and steps comes from the Hypothesis profile registered in
conftest.py (at the root): ``ci`` (the default, a few seconds) or ``long``
(``RAILSPEC_HYPOTHESIS_PROFILE=long``).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.tools import conformance

VARIANTS = ("usa", "europe", "amsterdam", "italy", "pennsylvania")
_loaded: dict = {}


def variant(name: str):
    """A stock variant, loaded once for all the machines' examples."""
    if name not in _loaded:
        _loaded[name] = railspec.load(name)
    return _loaded[name]


def agreement_problems(v, compiled, reference) -> list[str]:
    """What differs between the two engines' games, then what breaks an invariant of the
    conformance suite in either; empty when all is well."""
    a, b = compiled.state(), reference.state()
    if a != b:
        return [f"states differ at {conformance.first_difference(a, b)}"]
    problems = []
    if compiled.is_over != reference.is_over or compiled.current_player != reference.current_player:
        problems.append("is_over or current_player differ")
    legal = compiled.legal_actions()
    if legal != reference.legal_actions():
        problems.append("legal actions differ")
    if not compiled.is_over and not legal:
        problems.append("a live game has no legal action")
    if compiled.score_breakdown() != reference.score_breakdown():
        problems.append("score breakdowns differ")
    for game in (compiled, reference):
        problems += [f"{game.engine}: {p}" for p in conformance.invariant_problems(v.ir, game)]
    return problems


class Lockstep(RuleBasedStateMachine):
    """One game per engine, always in the same position (of the variant ``NAME``)."""

    NAME = "usa"

    @initialize(data=st.data())
    def start(self, data):
        self.v = variant(self.NAME)
        players = data.draw(st.integers(self.v.ir.min_players, self.v.ir.max_players), label="players")
        seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
        self.compiled = self.v.new_game(players=players, seed=seed, engine="compiled")
        self.reference = self.v.new_game(players=players, seed=seed, engine="reference")
        # a head start, so that short runs also see the late game and its end: the engines
        # play it in lockstep, their legal lists compared at each decision (the full checks
        # start with the machine's own steps)
        head = data.draw(st.sampled_from([0, 0, 40, 150, 200, 260]), label="head start")
        rng = random.Random(seed)
        for _ in range(head):
            if self.compiled.is_over:
                break
            legal = self.compiled.legal_actions()
            assert legal == self.reference.legal_actions()
            self.play(rng.randrange(2**16))

    def games(self):
        return (self.compiled, self.reference)

    def play(self, pick: int) -> None:
        legal = self.compiled.legal_actions()
        action = legal[pick % len(legal)]
        for game in self.games():
            game.apply(action)

    @precondition(lambda self: not self.compiled.is_over)
    @rule(pick=st.integers(0, 2**16))
    def play_a_legal_action(self, pick):
        self.play(pick)

    @precondition(lambda self: not self.compiled.is_over)
    @rule(count=st.integers(1, 80), seed=st.integers(0, 2**32))
    def play_on(self, count, seed):
        """Many decisions at once (so games reach their end), checked after each."""
        rng = random.Random(seed)
        for _ in range(count):
            if self.compiled.is_over:
                break
            self.play(rng.randrange(2**16))
            assert not agreement_problems(self.v, self.compiled, self.reference)

    @rule(data=st.data())
    def an_illegal_action_is_refused_and_changes_nothing(self, data):
        legal = set(self.compiled.legal_actions())
        size = len(self.v.actions)
        unused = [a for a in range(size) if a not in legal]
        choices = [st.sampled_from([-1, -2**63, size, size + 1, 2**31 - 1, 2**63, 2**64, -2**70])]
        if unused:
            choices.append(st.sampled_from(unused))
        action = data.draw(st.one_of(*choices), label="action")
        for game in self.games():
            before = game.to_json()
            with pytest.raises(IllegalActionError):
                game.apply(action)
            assert game.to_json() == before, f"{game.engine}: refusing {action!r} changed the state"

    @rule(data=st.data())
    def a_non_integer_action_is_refused_and_changes_nothing(self, data):
        legal = self.compiled.legal_actions() or [0]
        first = legal[0]
        action = data.draw(st.sampled_from([None, "0", str(first), float(first), first + 0.5, [first], b"\x00",
                                            True, False]), label="action")
        for game in self.games():
            before = game.to_json()
            with pytest.raises(IllegalActionError):
                game.apply(action)
            assert game.to_json() == before, f"{game.engine}: refusing {action!r} changed the state"

    @rule(count=st.integers(1, 20), seed=st.integers(0, 2**32), adopt=st.booleans())
    def a_clone_plays_on_alone(self, count, seed, adopt):
        """Clones of both engines play on in lockstep; the originals do not move. With
        ``adopt`` the clones carry on as the game."""
        before = [g.to_json() for g in self.games()]
        twins = [g.clone() for g in self.games()]
        assert [t.to_json() for t in twins] == before
        rng = random.Random(seed)
        for _ in range(count):
            if twins[0].is_over:
                break
            legal = twins[0].legal_actions()
            action = legal[rng.randrange(len(legal))]
            for twin in twins:
                twin.apply(action)
        assert not agreement_problems(self.v, *twins)
        assert [g.to_json() for g in self.games()] == before, "playing on a clone moved its source"
        if adopt:
            self.compiled, self.reference = twins

    @rule(cross=st.booleans())
    def the_state_reads_back_as_json(self, cross):
        """``game_from_json(to_json())`` gives the same state, in the same engine or (with
        ``cross``) in the other one; the game goes on from the loaded copies."""
        text = self.compiled.to_json()
        assert self.reference.to_json() == text
        engines = ("reference", "compiled") if cross else ("compiled", "reference")
        loaded = [self.v.game_from_json(g.to_json(), engine=e) for g, e in zip(self.games(), engines)]
        assert [g.to_json() for g in loaded] == [text, text]
        by_engine = {g.engine: g for g in loaded}
        self.compiled, self.reference = by_engine["compiled"], by_engine["reference"]

    @invariant()
    def the_engines_agree_and_keep_the_invariants(self):
        if hasattr(self, "v"):
            assert not agreement_problems(self.v, self.compiled, self.reference)


# one machine per stock variant, so that every run covers all of them
for _name in VARIANTS:
    globals()[f"TestLockstep_{_name}"] = type(f"Lockstep_{_name}", (Lockstep,), {"NAME": _name}).TestCase
