"""Double and triple routes: several parallel tracks between the same two cities.

USA rulebook, Claiming Routes, Double-Routes: one player cannot claim two tracks of the
same route; in 2 or 3 player games only one track of a double route can be used (Italy
applies the same to its triple route). The spec says how many tracks of one route may be
owned at each player count (``tracks usable N for LOW..HIGH players``; by default all).
The mechanic is present when some route has more than one track.

A route written ``apart`` (Switzerland's Kreuzlingen - Deutschland, two border crossings
into one country drawn apart on the board) is not a track of its pair's other route: the
core gives it a group of its own, so the group rules above never join them (it keeps its
pair's names, ``/1``, ``/2``).
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.limits import MAX_TRACKS, Limit
from ...compiler.base.schema import Field
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import Caches, Invariants, Mechanic, Sample, Sampled, Tables
from .syntax import ApartAttr, TracksUsable


@lru_cache(maxsize=64)
def _multi_track_groups(variant: ir.Variant) -> tuple:
    """The tracks of every route of more than one track, as (their route ids, a function
    picking their owners out of the state's owner list, each one's group), worked out once
    per variant: a state's check then looks at the owned ones among these alone."""
    groups: dict[int, list[ir.Route]] = {}
    for r in variant.routes:
        groups.setdefault(r.group, []).append(r)
    tracks = [r for _, group in sorted(groups.items()) if len(group) > 1 for r in group]
    if len(tracks) < 2:
        return (), (lambda owner: ()), ()
    return tuple(tracks), operator.itemgetter(*(r.id for r in tracks)), tuple(r.group for r in tracks)


@dataclass(frozen=True)
class MultiTrackRule(ir.Rule):
    mechanic: ClassVar[str] = "multi_track"
    tracks_usable: tuple[tuple[int, int, int], ...]  # (least players, most players, tracks usable)

    def usable(self, players: int) -> int:
        """How many tracks of one route may be owned in a game of ``players``."""
        for low, high, tracks in self.tracks_usable:
            if low <= players <= high:
                return tracks
        return MAX_TRACKS


class MultiTrackReference(MechanicReference[StateView, MultiTrackRule]):
    """The group rule in plain Python (docs/engine.md, "A turn": claim)."""

    def __init__(self, rules: Services, rule: MultiTrackRule):
        super().__init__(rules, rule)
        routes = rules.variant.routes
        self.other_tracks = {r.id: [o.id for o in routes if o.group == r.group and o.id != r.id] for r in routes}

    def route_open(self, state: StateView, route: ir.Route, player: int) -> bool:
        others = self.other_tracks[route.id]
        if any(state.owner[r] == player for r in others):
            return False
        taken = sum(1 for r in others if state.owner[r] != -1)
        return taken < self.rule.usable(state.players)


class MultiTrack(Mechanic[MultiTrackRule], Caches, Invariants[MultiTrackRule], Sampled):
    name = "multi_track"
    order = 10
    title = "double and triple routes"
    sample = Sample(("tracks usable 1 for 2..3 players",))
    rule = MultiTrackRule
    # the compiled engine's caches: usable(players), and per player the tracks the group
    # rule has closed to them (a claim only ever closes tracks, so it is kept at each claim,
    # and a turn's legal claims read one bit per route instead of the route's group)
    state_fields = (Field("tracks_usable", "tracks of one route that may be owned (from players)",
                          owner="multi_track", high="3", derived=True),
                    Field("tracks_closed", "bit r set while route r's group rule bars the player from it "
                                           "(from owner and players)",
                          owner="multi_track", kind="u64", per_player=True, size="ROUTE_WORDS", derived=True))
    upkeep_hooks = ("after_claim", "after_nobody_claim")
    closed_routes = "tracks_closed"  # route_open reads only it: legal claims drop a word at a time
    reference = MultiTrackReference
    statements = (TracksUsable, ApartAttr)
    limits = (Limit("tracks usable N for LOW..HIGH players", f"N 1 … {MAX_TRACKS}; ranges inside the game's, apart",
                    "a range's count applies to every route of the map"),)

    def check(self, ctx) -> MultiTrackRule | None:
        """``tracks usable N for LOW..HIGH players``: N at most 3, ranges inside the game's
        and not overlapping."""
        players = ctx.players
        tracks_usable: list[tuple[int, int, int]] = []
        for tu in ctx.many(TracksUsable):
            n = ctx.positive(tu.tracks, "the number of usable tracks")
            if n > MAX_TRACKS:
                ctx.errors.add(tu.tracks.span, f"{n} usable tracks, but a route has at most {MAX_TRACKS}")
            if tu.low.value > tu.high.value:
                ctx.errors.add(tu.span, f"player range {tu.low.value}..{tu.high.value} is empty")
            elif players.ok and (tu.low.value < players.low or tu.high.value > players.high):
                ctx.errors.add(tu.span, f"player range {tu.low.value}..{tu.high.value} is outside the game's "
                                        f"{players.low}..{players.high}")
            for low, high, _ in tracks_usable:
                if not (tu.high.value < low or tu.low.value > high):
                    ctx.errors.add(tu.span, f"'tracks usable' ranges overlap at {max(low, tu.low.value)} players")
            tracks_usable.append((tu.low.value, tu.high.value, n))
        for route, attr in ctx.routes_with(ApartAttr.name):
            if route.tracks == 1:
                ctx.warn(attr.span, f"'apart' does nothing here: {route.name} is the only route of its city pair")
        if not any(r.tracks > 1 for r in ctx.board.routes):
            return None
        return MultiTrackRule(tuple(tracks_usable))

    def tables(self, variant: ir.Variant, rule: MultiTrackRule) -> Tables:
        siblings = []
        max_siblings = MAX_TRACKS - 1
        for r in variant.routes:
            others = [o.id for o in variant.routes if o.group == r.group and o.id != r.id]
            siblings.extend(others + [-1] * (max_siblings - len(others)))
        usable = [rule.usable(p) if p >= variant.min_players else 0 for p in range(variant.max_players + 1)]
        return Tables(constants=[("MAX_SIBLINGS", max_siblings)],
                      arrays=[("T_ROUTE_SIBLINGS", siblings or [0]), ("T_TRACKS_USABLE", usable)])

    def position_problems(self, variant: ir.Variant, rule: MultiTrackRule, fields: dict) -> list[str]:
        """USA rulebook, Double-Routes: a described board where a player owns two tracks of
        one route, or more tracks of a route are owned than the player count allows."""
        owner, players = fields["owner"], fields["players"]
        usable = rule.usable(players)
        groups: dict[int, list[ir.Route]] = {}
        for r in variant.routes:
            if owner[r.id] != -1 and r.tracks > 1:
                groups.setdefault(r.group, []).append(r)
        problems = []
        for owned in groups.values():
            by_player: dict[int, list[str]] = {}
            for r in owned:
                if owner[r.id] < players:  # a track taken for no player (owner players) is nobody's
                    by_player.setdefault(owner[r.id], []).append(repr(r.name))
            for p, names in sorted(by_player.items()):
                if len(names) > 1:
                    problems.append(f"player {p}: owns {', '.join(names[:-1])} and {names[-1]}, tracks of one route "
                                    f"(a player may claim only one of them)")
            if len(owned) > usable:
                owners = " and ".join(f"{r.name!r} (player {owner[r.id]})" for r in owned)
                problems.append(f"in a {players}-player game only {usable} track{'s' * (usable > 1)} of a double "
                                f"or triple route may be used, but {owners} are owned")
        return problems

    def state_problems(self, variant: ir.Variant, rule: MultiTrackRule, state: dict) -> list[str]:
        """Double-Routes: no player owns two tracks of one route, and no more tracks of it
        are owned than the player count allows."""
        problems = []
        usable = rule.usable(state["players"])
        tracks, owners_of, group_of = _multi_track_groups(variant)
        owned: dict[int, list[ir.Route]] = {}  # group -> its owned tracks
        for route, who, group in zip(tracks, owners_of(state["owner"]), group_of):
            if who != -1:
                owned.setdefault(group, []).append(route)
        for group_tracks in owned.values():
            if len(group_tracks) < 2:
                continue
            who = [state["owner"][r.id] for r in group_tracks]
            if len(who) <= usable and len(set(who)) == len(who):
                continue  # the usual case: different players on a route open to both
            names = ", ".join(r.name for r in group_tracks)
            if len(who) > usable:
                problems.append(f"state field 'owner': {len(who)} tracks of one route are owned ({names}), but "
                                f"a {state['players']}-player game may use {usable}")
            for p in sorted(set(who)):
                if p < state["players"] and who.count(p) > 1:  # tracks taken for nobody are no player's
                    problems.append(f"state field 'owner': player {p} owns {who.count(p)} tracks of one route "
                                    f"({names}), the rules allow one")
        return problems
