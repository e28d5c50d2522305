"""Bullet Trains: shared routes that no player owns, built from a shared pool of pieces and
ranked on a contribution track (Japan).

The rules (Ticket to Ride Map Collection 7, Japan; the rule summary in thoun/tickettoride
modules/maps/japan/map.php rulesDifferences; justpushstart.com's review and the publisher's
description agree): some gray routes carry a Bullet Train icon. While Bullet Train pieces
are left, a player claims such a route as a gray route (cards of one colour, as many as its
spaces), places one shared piece on it instead of their own trains, scores no route points,
and moves their marker on the Bullet Train track as many spaces as the cards they paid. The
route belongs to nobody: every player's tickets may use it ("To complete Destination Tickets
players can use any mix of routes with wagons in their color or claimed Bullet Train
Routes whether or not they claimed them themselves"). Once the pieces run out, the bullet
routes are ordinary gray routes. At the end the players are ranked by their place on the
track and score the table of their player count; tied players share the place and the next
places are skipped; a player whose marker never moved scores the penalty the spec gives
(-20 in Japan, map.php getBulletTrainBonuses). The last round needs the pieces down too:
``end when trains <= 2 and bullet trains <= 2``.

Written ``bullet trains N`` (the pieces), the route attribute ``bullet``, ``bullet ranking
N players: P1 P2 …`` (one per player count), ``bullet without contribution score P`` and the
end condition ``and bullet trains <= M`` (``syntax.py``, ``grammar.lark``).

In both engines (docs/engine.md, "Bullet trains"): the hook ``takes_for_nobody`` says a
claim of a bullet route takes it for no player while ``bullet_pieces`` is above 0 (the core
then needs and takes no trains, scores no route points and makes the route's owner
``players``); ``after_nobody_claim`` places the piece and moves the claimer's marker
(``bullet_track``); ``score_graph`` joins the bullet routes taken for nobody (the core's
service ``nobody_routes``) into every player's network, not into their own routes (the
longest path would not count them); ``score_awards`` ranks the track; ``end_gate`` holds
while the pieces left are at most the end condition's number.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import PositionError, Span
from ...compiler.base.limits import MAX_PILE, MAX_POINTS, Limit, shown_number
from ...compiler.base.schema import PH_TURN, Field
from ...compiler.check.context import CheckContext
from ...compiler.hooks import MechanicReference, Services
from ...compiler.lang import ast
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    DescribedPositions,
    Drawing,
    HardCases,
    Invariants,
    Looks,
    Mechanic,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
)
from .state_view import BulletTrainsState
from .syntax import BulletAttr, BulletEnd, BulletPieces, BulletRanking, BulletWithout


@dataclass(frozen=True)
class BulletTrainsRule(ir.Rule):
    mechanic: ClassVar[str] = "bullet_trains"
    pieces: int                                        # the shared pieces at the start
    routes: tuple[int, ...]                            # the bullet routes
    ranking: tuple[tuple[int, tuple[int, ...]], ...]   # (players, points by place)
    without: int | None = None      # the points of a player whose marker never moved (None: ranked)
    end_pieces: int | None = None   # the last round needs the pieces left at most this (None: no condition)
    span: Span | None = field(default=None, compare=False)

    def table(self, players: int) -> tuple[int, ...]:
        """The points by place for this many players."""
        return dict(self.ranking).get(players, ())


def track_bonus(rule: BulletTrainsRule, track: list[int]) -> list[int]:
    """Each player's Bullet Train bonus from everyone's place on the track: the table's
    points for their place, the places before held by players further along; tied players
    share the place (map.php getBulletTrainBonuses: rank = 1 + the players further along);
    a player whose marker never moved scores ``without`` when the spec gives it."""
    table = rule.table(len(track))
    out = []
    for mine in track:
        if mine == 0 and rule.without is not None:
            out.append(rule.without)
            continue
        place = sum(1 for other in track if other > mine)
        out.append(table[place] if place < len(table) else 0)
    return out


class BulletWorth:
    """What a claim of each free bullet route brings the observing player now besides its
    route points (AgentPlay.worth_now; called with the player's observation). While pieces
    are left it scores none of them (minus its points) and moves the claimer's marker as many
    spaces as the route has: a first move lifts the player from the penalty of a marker at 0
    to the last place at least, and each space is worth the table's spread (first place less
    last) over the spaces a player's marker moves in a game whose pieces are all placed (the
    pieces times the bullet routes' mean length, shared by the players). Not the change were
    the game to end now: two players racing for one place would each count the whole place
    for a space, and chase the track at the expense of their routes. Nothing once the pieces
    are gone (the routes are then ordinary)."""

    def __init__(self, variant: ir.Variant, rule: BulletTrainsRule):
        self.rule = rule
        self.lengths = {r: variant.routes[r].length for r in rule.routes}
        self.points = {r: variant.route_points[n] if n < len(variant.route_points) else 0
                       for r, n in self.lengths.items()}
        self.mean_length = sum(self.lengths.values()) / len(self.lengths) if self.lengths else 0.0
        #: the routes it may give a worth (the agents ask only when a claim of one is legal)
        self.priced = frozenset(self.lengths)
        self._spaces: dict[int, tuple[int, list[tuple[int, float, int]]] | None] = {}  # spaces() by players

    def __call__(self, observation: dict) -> dict[int, float]:
        rule = self.rule
        if observation["bullet_pieces"] <= 0 or not self.lengths or observation["phase"] != PH_TURN:
            return {}  # no piece left, or no claim to make (claims are a turn's first decision)
        player, owner, players = observation["player"], observation["owner"], observation["players"]
        spaces = self._spaces.get(players)
        if spaces is None:
            spaces = self._spaces[players] = self.spaces(players)
        if spaces is None:
            return {}
        last, moves = spaces
        first = last - rule.without if rule.without is not None and observation["bullet_track"][player] == 0 else 0
        return {r: first + moved - points for r, moved, points in moves if owner[r] == -1}

    def spaces(self, players: int) -> tuple[int, list[tuple[int, float, int]]] | None:
        """For this many players: the last place's points, and each bullet route with what
        its spaces are worth (the table's spread over the spaces a marker moves in a game,
        times its length) and its route points; None without a table."""
        rule = self.rule
        table = rule.table(players)
        if not table:
            return None
        per_space = (table[0] - table[-1]) / (rule.pieces * self.mean_length / players)
        return table[-1], [(r, per_space * length, self.points[r]) for r, length in self.lengths.items()]


class BulletTrainsReference(MechanicReference[BulletTrainsState, BulletTrainsRule]):
    """Bullet Trains in plain Python."""

    def __init__(self, rules: Services, rule: BulletTrainsRule):
        super().__init__(rules, rule)
        self.bullet = frozenset(rule.routes)
        self.end_pieces = rule.pieces if rule.end_pieces is None else rule.end_pieces

    def takes_for_nobody(self, state: BulletTrainsState, route: ir.Route, player: int) -> bool:
        return route.id in self.bullet and state.bullet_pieces > 0

    def after_nobody_claim(self, state: BulletTrainsState, route: ir.Route, player: int) -> None:
        state.bullet_pieces -= 1
        state.bullet_track[player] += route.length

    def end_gate(self, state: BulletTrainsState) -> bool:
        return state.bullet_pieces <= self.end_pieces

    def score_graph(self, state: BulletTrainsState, player: int, network: list[int], row: dict[str, int]) -> None:
        routes = self.rules.variant.routes
        self.rules.join_routes(network, [routes[r] for r in self.rules.nobody_routes(state) if r in self.bullet])

    def score_player(self, state: BulletTrainsState, player: int, row: dict[str, int], network: list[int]) -> None:
        row["bullet_track"] = state.bullet_track[player]

    def score_awards(self, state: BulletTrainsState, rows: list[dict[str, int]]) -> None:
        for row, points in zip(rows, track_bonus(self.rule, list(state.bullet_track[:state.players]))):
            row["bullet_bonus"] = points


class BulletTrains(Mechanic[BulletTrainsRule], DescribedPositions[BulletTrainsRule], Invariants[BulletTrainsRule],
                   AgentRules[BulletTrainsRule], Drawing[BulletTrainsRule], HardCases[BulletTrainsRule], Sampled):
    name = "bullet_trains"
    order = 220
    title = "Bullet Train routes"
    sample = Sample(("bullet trains 3", "bullet ranking 2 players: 10 -10", "bullet ranking 3 players: 15 5 -10",
                     "bullet ranking 4 players: 20 10 0 -10", "bullet without contribution score -20"),
                    route=" bullet")
    rule = BulletTrainsRule
    reference = BulletTrainsReference
    state_fields = (
        Field("bullet_pieces", "the shared Bullet Train pieces left", owner="bullet_trains", high="BULLET_PIECES",
              initial="BULLET_PIECES"),
        Field("bullet_track", "each player's place on the Bullet Train track: the cards they paid for bullet "
                              "routes taken for nobody", owner="bullet_trains", per_player=True,
              high="BULLET_TRACK_MAX"),
    )
    score_items = (
        ScoreItem("bullet_track", "the player's place on the Bullet Train track (the cards paid for bullet routes)",
                  False, "bullet_trains", label="bullet"),
        ScoreItem("bullet_bonus", "the Bullet Train bonus: the ranking table's points for the player's place on "
                                  "the track", True, "bullet_trains", label="bullet pts"),
    )
    position_keys = (PositionKey("bullet_track", "the player's place on the Bullet Train track"),)
    statements = (BulletPieces, BulletRanking, BulletWithout, BulletAttr, BulletEnd)
    limits = (Limit("bullet trains N", f"1 … {MAX_PILE:,}", "the size of a pile"),
              Limit("bullet ranking N players: P…", f"at most N places, each -{MAX_POINTS:,} … {MAX_POINTS:,}",
                    "places beyond the players are never reached; a place may cost points"),
              Limit("bullet without contribution score P", f"-{MAX_POINTS:,} … {MAX_POINTS:,}", "a points value"),
              Limit("end when trains <= N and bullet trains <= M", "M 0 … the pieces",
                    "the last round needs the pieces left down to M"))

    def check(self, ctx: CheckContext) -> BulletTrainsRule | None:
        """``bullet trains N`` with the bullet routes, a ranking for every player count, the
        penalty and the end condition: each needs the pieces, and the pieces need routes."""
        stmt = ctx.one(BulletPieces)
        pieces = ctx.positive(stmt.count, "the number of Bullet Train pieces", most=MAX_PILE) if stmt else 0
        bullet = ctx.routes_with(BulletAttr.name)
        if bullet and not stmt:
            ctx.errors.add(bullet[0][1].span, "a bullet route needs the shared pieces: add 'bullet trains N'")
        ranking = self._ranking(ctx, stmt)
        without = ctx.one(BulletWithout)
        end = ctx.one(ast.EndWhen)
        end_part = end.part(BulletEnd) if end is not None else None
        for given, words in ((without, "'bullet without contribution'"), (end_part, "'and bullet trains <= N'")):
            if given and not stmt:
                ctx.errors.add(given.span, f"{words} needs the shared pieces: add 'bullet trains N'")
        if not stmt:
            return None
        if not bullet:
            ctx.warn(stmt.span, "Bullet Train pieces are declared but no route is a bullet route: none is ever "
                                "placed")
        end_pieces = None
        if end_part is not None:
            end_pieces = ctx.positive(end_part.pieces_at_most, "the Bullet Train pieces the last round waits for",
                                      allow_zero=True, most=MAX_PILE)
            if end_pieces >= pieces > 0:
                ctx.warn(end_part.span, f"'and bullet trains <= {end_pieces}' holds from the start ({pieces} "
                                        f"pieces): it never delays the last round")
        return BulletTrainsRule(pieces=pieces, routes=tuple(route.id for route, _attr in bullet),
                                ranking=tuple(sorted(ranking)),
                                without=_signed_points(ctx, without.points, "the points without contribution")
                                if without else None,
                                end_pieces=end_pieces, span=stmt.span)

    @staticmethod
    def _ranking(ctx: CheckContext, stmt: BulletPieces | None) -> list[tuple[int, tuple[int, ...]]]:
        """The ranking tables, one per player count of the game, none twice, no place
        beyond the players; a table for a count outside the game is left out (a warning)."""
        players = ctx.players
        ranking, seen = [], {}
        for br in ctx.many(BulletRanking):
            n = br.players.value
            if n in seen:
                ctx.errors.add(br.span, f"bullet ranking for {n} players is given twice")
                continue
            seen[n] = br
            if players.ok and not players.low <= n <= players.high:
                # never read, and harmless: a spec extending Japan with fewer players keeps its
                # parent's tables (a statement cannot be taken away)
                ctx.warn(br.players.span, f"bullet ranking for {n} players, but the game is for "
                                          f"{players.low}..{players.high}: never used")
                continue
            if len(br.points) > n > 0:
                ctx.errors.add(br.points[n].span, f"bullet ranking for {n} players has {len(br.points)} places; a "
                                                  f"place beyond the players is never reached")
            ranking.append((n, tuple(_signed_points(ctx, p, "a bullet ranking entry") for p in br.points)))
        if seen and not stmt:
            first = min(seen.values(), key=lambda b: (b.span.line, b.span.col))
            ctx.errors.add(first.span, "'bullet ranking' needs the shared pieces: add 'bullet trains N'")
        if stmt and players.ok:
            for n in range(players.low, players.high + 1):
                if n not in seen:
                    ctx.errors.add(stmt.span, f"Bullet Trains need a 'bullet ranking {n} players: …' table")
        return ranking

    def dimensions(self, variant: ir.Variant, rule: BulletTrainsRule) -> dict[str, int]:
        return {"BULLET_PIECES": rule.pieces,
                "BULLET_TRACK_MAX": max(1, sum(variant.routes[r].length for r in rule.routes))}

    def score_bound(self, variant: ir.Variant, rule: BulletTrainsRule) -> int:
        """One place of one table, or the penalty: the most the bonus adds or takes."""
        values = [abs(p) for _, points in rule.ranking for p in points] + [abs(rule.without or 0)]
        return max(values, default=0)

    def tables(self, variant: ir.Variant, rule: BulletTrainsRule) -> Tables:
        places = max((len(points) for _, points in rule.ranking), default=0) or 1
        table, counts = [], []
        for players in range(variant.max_players + 1):
            points = rule.table(players)
            table.extend(list(points) + [0] * (places - len(points)))
            counts.append(len(points))
        bullet = set(rule.routes)
        return Tables(constants=[("BULLET_PLACES", places),
                                 ("BULLET_END_PIECES", rule.pieces if rule.end_pieces is None else rule.end_pieces),
                                 ("BULLET_WITHOUT_SET", int(rule.without is not None)),
                                 ("BULLET_WITHOUT", rule.without or 0)],
                      arrays=[("T_BULLET_POINTS", table), ("T_BULLET_PLACE_COUNT", counts),
                              ("T_ROUTE_BULLET", [int(r.id in bullet) for r in variant.routes] or [0])])

    # --- the tools -------------------------------------------------------------------
    def agent_play(self, variant: ir.Variant, rule: BulletTrainsRule) -> AgentPlay:
        """No decision of its own (a bullet claim is a claim): the routes it takes for nobody
        join every player's network, so the agents plan through them as through their own;
        while pieces are left, a bullet claim brings no route points but moves the claimer's
        marker, worth what it changes in their track bonus as the track stands
        (:class:`BulletWorth`)."""
        return AgentPlay(nobody_routes_join=True, worth_now=BulletWorth(variant, rule))

    def looks(self, variant: ir.Variant, rule: BulletTrainsRule) -> Looks:
        """A bullet route carries a ``B`` badge."""
        return Looks(badges={route: "B" for route in rule.routes},
                     legend={"badges": "B: a Bullet Train route; while pieces last, a claim places a shared piece "
                                       "(no trains, no points) and every player's tickets may use it"})

    def hard_cases(self, variant: ir.Variant, rule: BulletTrainsRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Players tied on the track, and a player without contribution."""
        track = state["bullet_track"][:state["players"]]
        labels = []
        moved = [t for t in track if t > 0 or rule.without is None]
        if len(moved) != len(set(moved)):
            labels.append("a tie on the Bullet Train track")
        if rule.without is not None and 0 in track:
            labels.append("a player without Bullet Train contribution")
        return tuple(labels)

    # --- invariants and described positions -----------------------------------------------
    def _taken(self, variant: ir.Variant, rule: BulletTrainsRule, owner: list[int], players: int) -> list[ir.Route]:
        return [variant.routes[r] for r in rule.routes if owner[r] == players]

    def state_problems(self, variant: ir.Variant, rule: BulletTrainsRule, state: dict) -> list[str]:
        """The pieces placed are the bullet routes taken for nobody; the markers moved as far
        as those routes' spaces; a player owns a bullet route only once the pieces ran out."""
        players, owner = state["players"], state["owner"]
        taken = self._taken(variant, rule, owner, players)
        problems = []
        if state["bullet_pieces"] + len(taken) != rule.pieces:
            problems.append(f"state field 'bullet_pieces': {state['bullet_pieces']} left and {len(taken)} bullet "
                            f"routes taken for nobody, the game has {rule.pieces} pieces")
        if sum(state["bullet_track"][:players]) != sum(r.length for r in taken):
            problems.append(f"state field 'bullet_track': the markers moved {sum(state['bullet_track'][:players])} "
                            f"spaces, the bullet routes taken for nobody have {sum(r.length for r in taken)}")
        owned = [variant.routes[r].name for r in rule.routes if 0 <= owner[r] < players]
        if owned and state["bullet_pieces"] > 0:
            problems.append(f"state field 'owner': bullet route {owned[0]} is a player's while "
                            f"{state['bullet_pieces']} pieces are left")
        return problems

    def seat_position(self, variant: ir.Variant, rule: BulletTrainsRule, state: dict, player: int) -> dict:
        return {"bullet_track": state["bullet_track"][player]}

    def position(self, variant: ir.Variant, rule: BulletTrainsRule, player: int, seat: dict, fields: dict) -> None:
        value = seat.get("bullet_track", 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PositionError(f"player {player}: 'bullet_track' is a place on the Bullet Train track, got "
                                f"{value!r}")
        fields.setdefault("bullet_track", [0] * fields["players"])[player] = value

    def position_top(self, variant: ir.Variant, rule: BulletTrainsRule, position: dict, fields: dict) -> None:
        """The pieces left follow from the bullet routes taken for nobody (``nobody_routes``),
        and the markers must have moved as far as those routes' spaces."""
        players = fields["players"]
        taken = self._taken(variant, rule, fields["owner"], players)
        if len(taken) > rule.pieces:
            raise PositionError(f"{len(taken)} bullet routes taken for nobody, the game has {rule.pieces} pieces")
        track = fields.setdefault("bullet_track", [0] * players)
        if sum(track) != sum(r.length for r in taken):
            raise PositionError(f"the players' 'bullet_track' add up to {sum(track)}, but the bullet routes taken "
                                f"for nobody have {sum(r.length for r in taken)} spaces")
        fields["bullet_pieces"] = rule.pieces - len(taken)


def _signed_points(ctx: CheckContext, num: ast.Num, what: str) -> int:
    """A points value that may be negative (a place that costs points): at most
    ``MAX_POINTS`` either way."""
    if abs(num.value) > MAX_POINTS:
        ctx.errors.add(num.span, f"{what} must be between -{MAX_POINTS:,} and {MAX_POINTS:,}, got "
                                 f"{shown_number(num.value)}")
        return 0
    return num.value
