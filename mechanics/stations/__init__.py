"""Train stations (Europe).

Europe rulebook, Costruire una stazione ferroviaria: a station in a city with none lets
its owner use one route of another player at that city for all their tickets; the first
station costs one card, the second two of one colour, the third three (locomotives
wild); each station not built scores 4. Written ``stations N cost C1 … CN``, ``action
build station`` and ``station bonus N``. At the end the engine picks, for each player,
the use of the stations that scores best by ``stations choose KEY, KEY`` (by default the
most ticket points, then the most tickets completed), then the lowest route ids.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...compiler.catalogue import payment_text
from ...compiler.check import MAX_ROUTE_LENGTH
from ...errors import Span
from .. import Mechanic, PositionKey, TieBreak

BUILD_STATION = "build_station"
STATION_PAY = "station_pay"


@dataclass(frozen=True)
class StationsRule(ir.Rule):
    mechanic: ClassVar[str] = "stations"
    count: int                # stations per player
    costs: tuple[int, ...]    # cards the k-th station costs
    bonus: int                # points per station not built
    choose: tuple[str, ...]   # how the best use is picked: "most_points", "most_tickets", in order
    span: Span | None = field(default=None, compare=False)


class Stations(Mechanic):
    name = "stations"
    title = "train stations"
    implemented = False
    position_keys = (PositionKey('stations', 'the cities where the player built a station'),)
    rule = StationsRule
    tiebreaks = (
        TieBreak("fewest_stations", "fewest stations", "the fewest stations built",
                 lambda row, rows: -row["stations_built"], owner="stations",
                 unavailable="tie-break on stations, but the variant has no stations"),
    )

    def check(self, ctx) -> StationsRule | None:
        stmt = ctx.one(ast.Stations)
        count = 0
        costs: tuple[int, ...] = ()
        if stmt:
            count = ctx.positive(stmt.count, "the number of stations")
            costs = tuple(ctx.positive(c, "a station cost") for c in stmt.costs)
            for c in stmt.costs:
                if c.value > MAX_ROUTE_LENGTH:
                    ctx.errors.add(c.span, f"a station cost of {c.value} cards is more than the supported "
                                           f"{MAX_ROUTE_LENGTH}")
            if count and len(costs) != count:
                ctx.errors.add(stmt.span, f"{count} stations need {count} costs, got {len(costs)}")
        action = ctx.action("build_station")
        if action and not stmt:
            ctx.errors.add(action.span, "'action build station' needs a 'stations N cost C…' statement")
        if stmt and not action:
            ctx.errors.add(stmt.span, "stations are declared but no 'action build station' uses them")
        bonus_stmt = ctx.one(ast.StationBonus)
        bonus = ctx.positive(bonus_stmt.points if bonus_stmt else None, "the station bonus", allow_zero=True)
        if bonus_stmt and not stmt:
            ctx.errors.add(bonus_stmt.span, "'station bonus' needs a 'stations' statement")
        choose_stmt = ctx.one(ast.StationUse)
        choose = ("most_points", "most_tickets")
        if choose_stmt:
            if not stmt:
                ctx.errors.add(choose_stmt.span, "'stations choose' needs a 'stations' statement")
            if sorted(choose_stmt.keys) != sorted(choose):
                ctx.errors.add(choose_stmt.span, "'stations choose' names 'most points' and 'most tickets', "
                                                 "each once, in the order they count")
            else:
                choose = choose_stmt.keys
        if not stmt:
            return None
        return StationsRule(count=count, costs=costs, bonus=bonus, choose=choose, span=stmt.span)

    def actions(self, variant: ir.Variant, rule: StationsRule) -> list[dict]:
        """Two decisions: ``build station CITY`` (a city, never a zone), then the payment,
        ``station pay 2red+1loco``, one id per way to pay any of the costs. One action per
        city and payment would be 47 × 51 ids on Europe's map, most never legal."""
        out = [dict(kind=BUILD_STATION, name=f"build station {city.name}", city=city.id)
               for city in variant.cities if not city.zone]
        for cost in sorted(set(rule.costs)):
            for c in variant.colours:
                for locos in range(0, cost):
                    pay = payment_text(c.name, cost - locos, locos)
                    out.append(dict(kind=STATION_PAY, name=f"station pay {pay}", colour=c.id,
                                    colour_cards=cost - locos, locomotives=locos))
            out.append(dict(kind=STATION_PAY, name=f"station pay {cost}loco", colour=ir.NO_COLOUR,
                            colour_cards=0, locomotives=cost))
        return out
