"""Track building: routes that are colourless track beds until a player builds them (France).

Rules (Ticket to Ride France, Days of Wonder, Map Collection 6, 2017; thoun/tickettoride
modules/maps/france/map.php, whose rule lines agree):

- "On this map, most of the Routes are in fact Track Beds and cannot be claimed at the
  beginning of the game. They must first be built." Written as the route attribute ``bed``
  on a gray route: a bed is closed to claims (``route_open``) until a piece is built on it.
- "After drawing Train Car cards, you must build one route: place an available Track Piece
  on a Track Bed of the same length. The Track Piece determines the route color. Any player
  may later claim the built route." (map.php). ``pieces 2:3 3:3 4:1 5:1`` says how
  many pieces of each length every card colour has (France: 64 pieces, 8 colours × 8). A
  draw's last card taken, the player decides (phase ``track_piece``, hook ``after_draw``)
  which bed to build and in which colour: ``build Amiens-Calais red``, one action per bed
  and colour. When no piece fits any free bed the decision is skipped (thoun's
  ``States/PlaceTrackPiece.php``). The built route's colour lives in the state
  (``bed_colour``), and a claim of it pays that colour's cards or locomotives (hook
  ``route_colour``).
- "A Track Piece cannot cross another Track Piece or a claimed route. Building a crossing
  route permanently cuts off the crossed routes, even after the built route is claimed."
  (map.php; the rule booklet: "you can never place a Track Piece on top of or under another
  Track Piece or through a claimed Route"). ``crossing A - B / C - D``: the beds of the two
  city pairs cross; a bed one of whose crossing beds has been built (or claimed) can never
  be built.
- "In 2 and 3 Player games, only one Track of the Double or Triple Routes can be built. In
  4 and 5 player games, when a player builds a Track Piece on a Double or Triple Route, he
  only builds one track of the route" (rule booklet). ``tracks buildable 1 for 2..3
  players``: at those player counts a bed whose route already has that many tracks built
  or claimed cannot be built.
- "When a route is claimed, its Track Piece returns to the supply." (map.php; thoun's
  ``Game.php`` ``applyClaimRoute``). The route keeps its colour (``bed_colour``), and its
  crossings stay closed.

No scoring of its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import MAX_PILE, MAX_TRACKS, Limit
from ...compiler.base.schema import PH_TURN, Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    Caches,
    Drawing,
    Invariants,
    Looks,
    Mechanic,
    Sample,
    Sampled,
    Tables,
)
from .state_view import TrackBuildingState
from .syntax import BedAttr, Crossing, TrackPieces, TracksBuildable

BUILD_TRACK = "build_track"
PH_TRACK_PIECE = "track_piece"


@dataclass(frozen=True)
class TrackBuildingRule(ir.Rule):
    mechanic: ClassVar[str] = "track_building"
    pieces: tuple[int, ...]                      # index = length: the pieces of each colour of that length
    beds: tuple[int, ...]                        # the track beds' route ids, ascending
    crossings: tuple[tuple[int, int], ...]       # pairs of beds that cross (lower id first), each once
    buildable: tuple[tuple[int, int, int], ...]  # (least players, most players, tracks of a route buildable)
    span: Span | None = field(default=None, compare=False)

    def tracks_buildable(self, players: int) -> int:
        """How many tracks of one double or triple route may be built (or claimed) in a game
        of ``players``."""
        for low, high, tracks in self.buildable:
            if low <= players <= high:
                return tracks
        return MAX_TRACKS

    @property
    def lengths(self) -> int:
        """The row width of a colour's pieces in ``pieces_out``: every length up to the longest piece."""
        return len(self.pieces)

    def crossing(self, route: int) -> list[int]:
        """The beds crossing ``route``'s bed."""
        return sorted({b for a, b in self.crossings if a == route} | {a for a, b in self.crossings if b == route})


def twin_tracks(variant: ir.Variant, route: ir.Route) -> list[int]:
    """The other tracks of ``route``'s double or triple route."""
    return [o.id for o in variant.routes if o.group == route.group and o.id != route.id]


class TrackBuildingReference(MechanicReference[TrackBuildingState, TrackBuildingRule]):
    """Track building in plain Python."""

    def __init__(self, rules: Services, rule: TrackBuildingRule):
        super().__init__(rules, rule)
        variant = rules.variant
        self.beds = frozenset(rule.beds)
        self.crossing = {r: rule.crossing(r) for r in rule.beds}
        self.twins = {r: twin_tracks(variant, variant.routes[r]) for r in rule.beds}
        self.builds: dict[int, list[ir.Action]] = {r: [] for r in rule.beds}
        for a in variant.actions:
            if a.kind == BUILD_TRACK:
                self.builds[a.route].append(a)

    def route_open(self, state: TrackBuildingState, route: ir.Route, player: int) -> bool:
        """A track bed is claimed only once built."""
        return route.id not in self.beds or state.bed_colour[route.id] >= 0

    def route_colour(self, state: TrackBuildingState, route: ir.Route, colour: int) -> int:
        """A built bed is claimed in its piece's colour."""
        if route.id in self.beds and state.bed_colour[route.id] >= 0:
            return state.bed_colour[route.id]
        return colour

    def bed_free(self, state: TrackBuildingState, route: int) -> bool:
        """Whether a piece may be built on bed ``route`` now: not built, no crossing bed built
        or claimed, and fewer of its route's tracks built or claimed than the player count allows."""
        if state.bed_colour[route] >= 0 or state.owner[route] != -1:
            return False
        if any(state.bed_colour[o] >= 0 or state.owner[o] != -1 for o in self.crossing[route]):
            return False
        taken = sum(1 for o in self.twins[route] if state.bed_colour[o] >= 0 or state.owner[o] != -1)
        return taken < self.rule.tracks_buildable(state.players)

    def legal_builds(self, state: TrackBuildingState) -> list[int]:
        """Every (free bed, colour with a piece of the bed's length left), ascending ids."""
        out: list[int] = []
        width = self.rule.lengths
        for r in self.rule.beds:
            if not self.bed_free(state, r):
                continue
            length = self.rules.variant.routes[r].length
            out.extend(a.id for a in self.builds[r]
                       if state.pieces_out[a.colour * width + length] < self.rule.pieces[length])
        return out

    def after_draw(self, state: TrackBuildingState, player: int) -> None:
        """After drawing train cards the player must build, when any piece fits a free bed."""
        if self.legal_builds(state):
            state.phase = PH_TRACK_PIECE

    def phase_legal(self, state: TrackBuildingState) -> list[int]:
        return self.legal_builds(state)

    def apply(self, state: TrackBuildingState, action: ir.Action) -> None:
        """Build: the piece leaves the supply and colours the bed; the turn ends."""
        length = self.rules.variant.routes[action.route].length
        state.bed_colour[action.route] = action.colour
        state.pieces_out[action.colour * self.rule.lengths + length] += 1
        state.phase = PH_TURN
        self.rules.end_turn(state, passed=False)

    def after_claim(self, state: TrackBuildingState, route: ir.Route, player: int) -> None:
        """A claimed bed's piece goes back to the supply; the bed keeps its colour."""
        if route.id in self.beds:
            state.pieces_out[state.bed_colour[route.id] * self.rule.lengths + route.length] -= 1


class TrackBuilding(Mechanic[TrackBuildingRule], Caches, Invariants[TrackBuildingRule], AgentRules[TrackBuildingRule],
                    Drawing[TrackBuildingRule], Sampled):
    name = "track_building"
    order = 260
    title = "track beds built with track pieces"
    # two cities of its own (the tools writing samples may offer only {city0} and {city1}) and
    # one-space beds (a sample's spec may score only length 1)
    sample = Sample(("pieces 1:2", "city Bedford", "city Crossley", "route {city0} - Bedford 1 gray bed",
                     "route {city1} - Crossley 1 gray bed", "route Bedford - Crossley 1 gray bed",
                     "crossing {city0} - Bedford / {city1} - Crossley"))
    rule = TrackBuildingRule
    state_fields = (
        Field("bed_colour", "the colour of the piece built on each track bed (-1: none yet; kept once claimed)",
              owner="track_building", size="N_ROUTES", low="-1", high="N_COLOURS-1", initial=-1, names="card"),
        Field("pieces_out", "track pieces on the board, by colour and length (colour × PIECE_LENGTHS + length)",
              owner="track_building", size="PIECE_SLOTS", high="PIECE_MOST"),
        # the compiled engine's cache: the beds not built yet, as a route bitset (the same for
        # every seat), so that a turn's legal claims drop them a word at a time
        Field("beds_closed", "bit r set while bed r is not built (from bed_colour)", owner="track_building",
              kind="u64", per_player=True, size="ROUTE_WORDS", derived=True),
        # the compiled engine's cache: the beds a piece may be built on now (bed_free), kept at
        # each build and claim, so that a build decision walks these bits, not every bed
        Field("beds_free", "bit r set while bed r may be built (from bed_colour, owner, crossings, players)",
              owner="track_building", kind="u64", size="ROUTE_WORDS", derived=True),
        Field("pieces_left", "per length, bit c set while colour c has a piece of that length in the supply "
              "(from pieces_out)", owner="track_building", size="PIECE_LENGTHS", derived=True),
    )
    closed_routes = "beds_closed"  # route_open reads only it
    # a build decision offers up to every bed times every colour (976 ids in France), of which
    # a random playout plays one: it counts them and picks the one it would draw from the list
    playout_hooks = ("phase_count", "phase_nth")
    phases = (PH_TRACK_PIECE,)
    kinds = (BUILD_TRACK,)
    reference = TrackBuildingReference
    statements = (TrackPieces, TracksBuildable, Crossing, BedAttr)
    limits = (Limit("pieces LENGTH:COUNT …", f"lengths rising without holes; COUNT 0 … {MAX_PILE:,}",
                    "a pile of pieces per colour"),
              Limit("tracks buildable N for LOW..HIGH players", f"N 1 … {MAX_TRACKS}; ranges inside the game's, apart",
                    "a route has at most that many tracks"))

    def check(self, ctx: Any) -> TrackBuildingRule | None:
        """Beds are gray routes with pieces of their length; crossings name two city pairs
        with beds; ``tracks buildable`` ranges lie inside the game's and apart."""
        stmt = ctx.one(TrackPieces)
        beds = [route for route, _attr in ctx.routes_with(BedAttr.name)]
        pieces: list[int] = []
        if stmt is not None:
            table, longest = ctx.table(stmt.entries, "track pieces", stmt.span, open_allowed=False, from_one=False)
            pieces = [0] * (longest + 1) if table else []
            for length, count in (table or {}).items():
                pieces[length] = count
                if count > MAX_PILE:
                    ctx.errors.add(stmt.span, f"{count:,} track pieces of length {length}: at most {MAX_PILE:,}")
        for route, attr in ctx.routes_with(BedAttr.name):
            if route.colour != ir.GRAY:
                ctx.errors.add(attr.span, f"a track bed has no colour until a piece is built on it: write "
                                          f"{route.name} as 'gray bed'")
            elif stmt is None:
                ctx.errors.add(attr.span, "a track bed needs track pieces: add 'pieces LENGTH:COUNT …'")
            elif (pieces[route.length] if route.length < len(pieces) else 0) == 0:
                ctx.errors.add(attr.span, f"no track piece has length {route.length}: {route.name} could never be "
                                          f"built")
        if stmt is not None and not beds:
            ctx.errors.add(stmt.span, "track pieces, but no route is a track bed: add 'bed' to a gray route")
        crossings = self._crossings(ctx, {r.id for r in beds})
        buildable = self._buildable(ctx, bool(beds))
        if stmt is None or not beds:
            return None
        return TrackBuildingRule(pieces=tuple(pieces), beds=tuple(r.id for r in beds), crossings=crossings,
                                 buildable=buildable, span=stmt.span)

    @staticmethod
    def _crossings(ctx: Any, beds: set[int]) -> tuple[tuple[int, int], ...]:
        """Each ``crossing`` statement's pairs of beds (every bed of one city pair against every
        bed of the other)."""
        out: set[tuple[int, int]] = set()
        for stmt in ctx.many(Crossing):
            sides: list[list[int]] = []
            for a, b in ((stmt.a, stmt.b), (stmt.c, stmt.d)):
                ia, ib = ctx.places.ref(a, "a crossing"), ctx.places.ref(b, "a crossing")
                if ia is None or ib is None:
                    sides = []
                    break
                tracks = [r.id for r in ctx.board.routes if {r.a, r.b} == {ia, ib} and r.id in beds]
                if not tracks:
                    ctx.errors.add(stmt.span, f"no track bed joins {a.text} and {b.text}: a crossing names two "
                                              f"routes written 'bed'")
                sides.append(tracks)
            if len(sides) == 2:
                if set(sides[0]) & set(sides[1]):
                    ctx.errors.add(stmt.span, "a route cannot cross itself")
                    continue
                out.update((min(x, y), max(x, y)) for x in sides[0] for y in sides[1])
        return tuple(sorted(out))

    @staticmethod
    def _buildable(ctx: Any, used: bool) -> tuple[tuple[int, int, int], ...]:
        """``tracks buildable N for LOW..HIGH players``, as ``tracks usable`` is checked."""
        players = ctx.players
        out: list[tuple[int, int, int]] = []
        for tb in ctx.many(TracksBuildable):
            n = ctx.positive(tb.tracks, "the number of buildable tracks")
            if n > MAX_TRACKS:
                ctx.errors.add(tb.tracks.span, f"{n} buildable tracks, but a route has at most {MAX_TRACKS}")
            if tb.low.value > tb.high.value:
                ctx.errors.add(tb.span, f"player range {tb.low.value}..{tb.high.value} is empty")
            elif players.ok and (tb.low.value < players.low or tb.high.value > players.high):
                ctx.errors.add(tb.span, f"player range {tb.low.value}..{tb.high.value} is outside the game's "
                                        f"{players.low}..{players.high}")
            for low, high, _ in out:
                if not (tb.high.value < low or tb.low.value > high):
                    ctx.errors.add(tb.span, f"'tracks buildable' ranges overlap at {max(low, tb.low.value)} players")
            if not used:
                ctx.errors.add(tb.span, "'tracks buildable' needs track beds: add 'bed' to a gray route")
            out.append((tb.low.value, tb.high.value, n))
        return tuple(out)

    def actions(self, variant: ir.Variant, rule: TrackBuildingRule) -> list[dict]:
        """``build ROUTE COLOUR``: a piece of that colour on that bed, bed by bed, colour by colour."""
        return [dict(kind=BUILD_TRACK, name=f"build {variant.routes[r].name} {c.name}", route=r, colour=c.id)
                for r in rule.beds for c in variant.colours]

    def dimensions(self, variant: ir.Variant, rule: TrackBuildingRule) -> dict[str, int]:
        return {"PIECE_LENGTHS": rule.lengths, "PIECE_SLOTS": len(variant.colours) * rule.lengths,
                "PIECE_MOST": max(rule.pieces)}

    def tables(self, variant: ir.Variant, rule: TrackBuildingRule) -> Tables:
        """Per route: whether it is a bed, its first build action, its crossing beds and the
        other tracks of its route (rows of MAX_TRACKS - 1, -1 padded); the pieces per length;
        the tracks buildable by player count."""
        beds = set(rule.beds)
        first = {}
        for a in variant.actions:
            if a.kind == BUILD_TRACK and a.route not in first:
                first[a.route] = a.id
        cross_first: list[int] = []
        cross: list[int] = []
        for r in variant.routes:
            cross_first.append(len(cross))
            cross.extend(rule.crossing(r.id) if r.id in beds else [])
        cross_first.append(len(cross))
        twins = []
        for r in variant.routes:
            others = twin_tracks(variant, r)
            twins.extend(others + [-1] * (MAX_TRACKS - 1 - len(others)))
        buildable = [rule.tracks_buildable(p) for p in range(variant.max_players + 1)]
        return Tables(constants=[("MAX_TWINS", MAX_TRACKS - 1)],
                      arrays=[("T_BED", [int(r.id in beds) for r in variant.routes]),
                              ("T_BED_FIRST_BUILD", [first.get(r.id, -1) for r in variant.routes]),
                              ("T_CROSS_FIRST", cross_first), ("T_CROSS", cross or [0]),
                              ("T_BED_TWINS", twins), ("T_PIECES", list(rule.pieces)),
                              ("T_TRACKS_BUILDABLE", buildable)])

    def agent_play(self, variant: ir.Variant, rule: TrackBuildingRule) -> AgentPlay:
        """A piece is built on a bed the agent's tickets want, in the colour it holds most of
        (the generic ``open_route`` rule: the planner counts free beds as routes to claim later)."""
        return AgentPlay(rules={BUILD_TRACK: "open_route"},
                         routes={a.id: (a.route,) for a in variant.actions if a.kind == BUILD_TRACK})

    def looks(self, variant: ir.Variant, rule: TrackBuildingRule) -> Looks:
        """Track beds are drawn dashed; a built one, in a drawn state, in its piece's colour."""
        return Looks(dashed=frozenset(rule.beds), route_colours=("bed_colour",),
                     legend={"dashed": "a track bed: claimed once a track piece is built on it",
                             "route_colours": "a built track bed, in its piece's colour"})

    def state_problems(self, variant: ir.Variant, rule: TrackBuildingRule, state: dict) -> list[str]:
        """Only beds are built; the pieces on the board are the built beds not yet claimed,
        never more than the supply; no two crossing beds both built; no more tracks of a
        route built or claimed than the player count allows; the build decision only after a draw."""
        problems = []
        colour, owner, out = state["bed_colour"], state["owner"], state["pieces_out"]
        beds = set(rule.beds)
        on_board = [0] * (len(variant.colours) * rule.lengths)
        for r in variant.routes:
            if colour[r.id] >= 0:
                if r.id not in beds:
                    problems.append(f"state field 'bed_colour': {r.name} is not a track bed but has a colour")
                elif owner[r.id] == -1:
                    on_board[colour[r.id] * rule.lengths + r.length] += 1
        if list(out) != on_board:
            problems.append(f"state field 'pieces_out': {list(out)}, but the built beds not yet claimed hold "
                            f"{on_board}")
        for slot, count in enumerate(out):
            if count > rule.pieces[slot % rule.lengths]:
                problems.append(f"state field 'pieces_out': {count} pieces of length {slot % rule.lengths} out, the "
                                f"supply has {rule.pieces[slot % rule.lengths]}")
        for a, b in rule.crossings:
            if colour[a] >= 0 and colour[b] >= 0:
                problems.append(f"state field 'bed_colour': {variant.routes[a].name} and {variant.routes[b].name} "
                                f"cross, but both are built")
        allowed = rule.tracks_buildable(state["players"])
        for bed in rule.beds:
            taken = [o for o in [bed] + twin_tracks(variant, variant.routes[bed]) if colour[o] >= 0 or owner[o] != -1]
            if taken and taken[0] == bed and len(taken) > allowed:  # said once, by the group's first track taken
                problems.append(f"state field 'bed_colour': {len(taken)} tracks of {variant.routes[bed].name}'s route "
                                f"are built or claimed, a {state['players']}-player game allows {allowed}")
            if owner[bed] != -1 and colour[bed] < 0:
                problems.append(f"state field 'owner': {variant.routes[bed].name} is claimed but was never built")
        return problems
