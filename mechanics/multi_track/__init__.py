"""Double and triple routes: several parallel tracks between the same two cities.

USA rulebook, Claiming Routes, Double-Routes: one player cannot claim two tracks of the
same route; in 2 or 3 player games only one track of a double route can be used (Italy
applies the same to its triple route). The spec says how many tracks of one route may be
owned at each player count (``tracks usable N for LOW..HIGH players``; by default all),
and may say it apart for the routes of S tracks (``tracks usable N of S for LOW..HIGH
players``, which wins over the first form for those routes). Northern Lights' rules
(thoun/tickettoride northernlights/map.php, rulesDifferences): "Double routes are only fully
available in 4 and 5-player games. For triple routes, only 1 route can be claimed at 2
players, 2 routes at 3 players, and all 3 routes at 4 or 5 players." The mechanic is
present when some route has more than one track.

A route written ``apart`` (Switzerland's Kreuzlingen - Deutschland, two border crossings
into one country drawn apart on the board) is not a track of its pair's other route: the
core gives it a group of its own, so the group rules above never join them (it keeps its
pair's names, ``/1``, ``/2``).
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.limits import MAX_TRACKS, Limit
from ...compiler.base.schema import Field
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import Caches, Invariants, Mechanic, Sample, Sampled, Tables
from .syntax import ApartAttr, TracksUsable, TracksUsableSized


def _groups(routes) -> dict[int, list]:
    """The routes by group (the tracks of one double or triple route share one)."""
    groups: dict[int, list] = {}
    for r in routes:
        groups.setdefault(r.group, []).append(r)
    return groups


@lru_cache(maxsize=64)
def _group_sizes(variant: ir.Variant) -> dict[int, int]:
    """Each group's number of tracks, worked out once per variant."""
    return {group: len(tracks) for group, tracks in _groups(variant.routes).items()}


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
    # (tracks of the route, least players, most players, tracks usable): the sized form, which
    # wins for routes of that many tracks; left out of the spec hash while empty
    sized: tuple[tuple[int, int, int, int], ...] = field(default=(), metadata={ir.OMIT_AT_DEFAULT: True})

    def usable(self, players: int, size: int = 0) -> int:
        """How many tracks of one route of ``size`` tracks may be owned in a game of
        ``players`` (``size`` 0: the form for every route)."""
        for tracks_of, low, high, tracks in self.sized:
            if tracks_of == size and low <= players <= high:
                return tracks
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
        return taken < self.rule.usable(state.players, len(others) + 1)


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
    statements = (TracksUsable, TracksUsableSized, ApartAttr)
    limits = (Limit("tracks usable N for LOW..HIGH players", f"N 1 … {MAX_TRACKS}; ranges inside the game's, apart",
                    "a range's count applies to every route of the map"),
              Limit("tracks usable N of S for LOW..HIGH players",
                    f"S 2 … {MAX_TRACKS}, N 1 … S; ranges inside the game's, apart for each S",
                    "it wins over the form without S for the routes of S tracks"))

    def check(self, ctx) -> MultiTrackRule | None:
        """``tracks usable N for LOW..HIGH players``: N at most 3, ranges inside the game's
        and not overlapping; ``tracks usable N of S for …``: the same for the routes of S
        tracks, N at most S, ranges apart for each S."""
        tracks_usable: list[tuple[int, int, int]] = []
        for tu in ctx.many(TracksUsable):
            n = ctx.positive(tu.tracks, "the number of usable tracks")
            if n > MAX_TRACKS:
                ctx.errors.add(tu.tracks.span, f"{n} usable tracks, but a route has at most {MAX_TRACKS}")
            self._check_range(ctx, tu, [(low, high) for low, high, _ in tracks_usable])
            tracks_usable.append((tu.low.value, tu.high.value, n))
        sized: list[tuple[int, int, int, int]] = []
        sizes = {len(group) for group in _groups(ctx.board.routes).values()}
        for tu in ctx.many(TracksUsableSized):
            size = ctx.positive(tu.size, "the tracks of the routes it is for")
            if size and not 2 <= size <= MAX_TRACKS:
                ctx.errors.add(tu.size.span, f"routes of {size} track{'s' * (size != 1)}: a double or triple route "
                                             f"has 2 or {MAX_TRACKS} tracks")
            elif size and size not in sizes:
                ctx.warn(tu.span, f"'tracks usable N of {size}' does nothing here: no route has {size} tracks")
            n = ctx.positive(tu.tracks, "the number of usable tracks")
            if size and n > size:
                ctx.errors.add(tu.tracks.span, f"{n} usable tracks, but these routes have {size}")
            self._check_range(ctx, tu, [(low, high) for of, low, high, _ in sized if of == size])
            sized.append((size, tu.low.value, tu.high.value, n))
        for route, attr in ctx.routes_with(ApartAttr.name):
            if route.tracks == 1:
                ctx.warn(attr.span, f"'apart' does nothing here: {route.name} is the only route of its city pair")
        if not any(r.tracks > 1 for r in ctx.board.routes):
            return None
        return MultiTrackRule(tuple(tracks_usable), tuple(sized))

    @staticmethod
    def _check_range(ctx, tu, taken: list[tuple[int, int]]) -> None:
        """A statement's player range: not empty, inside the game's, apart from ``taken``."""
        players = ctx.players
        if tu.low.value > tu.high.value:
            ctx.errors.add(tu.span, f"player range {tu.low.value}..{tu.high.value} is empty")
        elif players.ok and (tu.low.value < players.low or tu.high.value > players.high):
            ctx.errors.add(tu.span, f"player range {tu.low.value}..{tu.high.value} is outside the game's "
                                    f"{players.low}..{players.high}")
        for low, high in taken:
            if not (tu.high.value < low or tu.low.value > high):
                ctx.errors.add(tu.span, f"'tracks usable' ranges overlap at {max(low, tu.low.value)} players")

    def tables(self, variant: ir.Variant, rule: MultiTrackRule) -> Tables:
        siblings = []
        max_siblings = MAX_TRACKS - 1
        for r in variant.routes:
            others = [o.id for o in variant.routes if o.group == r.group and o.id != r.id]
            siblings.extend(others + [-1] * (max_siblings - len(others)))
        usable = [rule.usable(p) if p >= variant.min_players else 0 for p in range(variant.max_players + 1)]
        # by the route's tracks, then the players; read only when SIZED_USABLE (the sized form)
        sized = [rule.usable(p, size) if p >= variant.min_players else 0
                 for size in range(MAX_TRACKS + 1) for p in range(variant.max_players + 1)]
        return Tables(constants=[("MAX_SIBLINGS", max_siblings), ("SIZED_USABLE", int(bool(rule.sized))),
                                 ("USABLE_ROW", variant.max_players + 1)],
                      arrays=[("T_ROUTE_SIBLINGS", siblings or [0]), ("T_TRACKS_USABLE", usable),
                              ("T_SIZED_USABLE", sized)])

    def position_problems(self, variant: ir.Variant, rule: MultiTrackRule, fields: dict) -> list[str]:
        """USA rulebook, Double-Routes: a described board where a player owns two tracks of
        one route, or more tracks of a route are owned than the player count allows."""
        owner, players = fields["owner"], fields["players"]
        sizes = _group_sizes(variant)
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
            usable = rule.usable(players, sizes[owned[0].group])
            if len(owned) > usable:
                owners = " and ".join(f"{r.name!r} (player {owner[r.id]})" for r in owned)
                problems.append(f"in a {players}-player game only {usable} track{'s' * (usable > 1)} of a double "
                                f"or triple route may be used, but {owners} are owned")
        return problems

    def state_problems(self, variant: ir.Variant, rule: MultiTrackRule, state: dict) -> list[str]:
        """Double-Routes: no player owns two tracks of one route, and no more tracks of it
        are owned than the player count allows."""
        problems = []
        tracks, owners_of, group_of = _multi_track_groups(variant)
        sizes = _group_sizes(variant)
        owned: dict[int, list[ir.Route]] = {}  # group -> its owned tracks
        for route, who, group in zip(tracks, owners_of(state["owner"]), group_of):
            if who != -1:
                owned.setdefault(group, []).append(route)
        for group_tracks in owned.values():
            if len(group_tracks) < 2:
                continue
            who = [state["owner"][r.id] for r in group_tracks]
            usable = rule.usable(state["players"], sizes[group_tracks[0].group])
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
