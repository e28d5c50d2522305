"""What a tuning run aims at (:class:`Target`), and how far a campaign's games are from it.

A target is ``styles-equal`` (every style seated wins as often as the others), ``seats-equal``
(no seat wins more often than another) or a TOML file of desired win shares per style and
per seat, with optional bounds on tickets and routes (docs/tuning.md gives the format).

Each game of a campaign becomes one row of numbers (:meth:`Measures.row`): the wins and
seats of each style, the wins of each seat, and, when the target bounds them, the tickets
held and completed and the connections claimed. A set of games is judged by the column
sums of its rows (:meth:`Measures.distance`), so a paired bootstrap only needs to re-weight
rows. The distance is the mean of the target's parts, each in [0, 1]:

- styles, seats: the Euclidean distance between the desired and the measured shares of
  the wins, divided by the largest it can be: 0 when they agree, 1 when every win goes
  where the target wants fewest. Unlike half the sum of the absolute differences, it
  counts a win moved from the strongest style to a weaker one above its share as a gain,
  so evening out the leaders is rewarded;
- tickets: by how much the completion rates fall outside the bounds, averaged over the
  times the tickets were held;
- routes: by how much the connections claimed too rarely fall short of the floor, as a
  fraction of it, averaged over the connections.

The row arithmetic uses numpy (the ``balance`` extra brings it with pandas).
"""
from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...compiler import ir
from ...compiler.base.errors import RailspecError
from ..agents.kernel import kernel
from ..balance import DEFAULT_AGENTS
from ..tally import parallel_group

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as a package (a dependency there)
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

#: The named targets.
STYLES_EQUAL = "styles-equal"
SEATS_EQUAL = "seats-equal"
#: The parts a distance may have, in the order they are reported.
PARTS = ("styles", "seats", "tickets", "routes")
#: How far from 1 the shares of a TOML target may add up (they are written by hand).
SHARE_SLACK = 1e-3


class TargetError(RailspecError, ValueError):
    """A target that cannot be used: unknown name, a style that does not exist, shares
    that do not add up, bounds out of order (one line, for the command line)."""


def numpy() -> Any:
    """The numpy module, or a one-line error naming the extra that brings it."""
    try:
        import numpy as np
    except ImportError:
        raise TargetError("railspec tune needs the balance extra: pip install 'railspec[balance]'") from None
    return np


def tunable_agents() -> tuple[str, ...]:
    """The agents a target may seat: the scripted styles and the random player (a search
    agent is far too slow for the hundreds of thousands of games a tuning run plays)."""
    return tuple(kernel().STYLES) + ("random",)


@dataclass(frozen=True)
class Target:
    """What a tuning run aims at. ``agents``: the styles seated, rotated through the seats
    as a balance campaign does; ``styles``: the desired share of the wins of each agent
    (empty: not aimed at); ``seats``: the desired share of the wins of each seat;
    ``tickets``: each ticket completed between these shares of the times it is held;
    ``routes``: each connection claimed in at least this share of the games."""

    name: str
    agents: tuple[str, ...] = DEFAULT_AGENTS
    styles: tuple[float, ...] = ()
    seats: tuple[float, ...] = ()
    tickets: tuple[float, float] | None = None
    routes: float | None = None

    def parts(self) -> tuple[str, ...]:
        """The parts of the distance this target has, in :data:`PARTS` order."""
        have = {"styles": bool(self.styles), "seats": bool(self.seats), "tickets": self.tickets is not None,
                "routes": self.routes is not None}
        return tuple(p for p in PARTS if have[p])

    def as_json(self) -> dict[str, Any]:
        """The target as tune.json records it."""
        out: dict[str, Any] = {"name": self.name, "agents": list(self.agents)}
        if self.styles:
            out["styles"] = dict(zip(self.agents, self.styles))
        if self.seats:
            out["seats"] = list(self.seats)
        if self.tickets is not None:
            out["tickets_completed"] = list(self.tickets)
        if self.routes is not None:
            out["routes_claimed_at_least"] = self.routes
        return out


def read_target(given: str, players: int) -> Target:
    """The target ``given`` names (``styles-equal``, ``seats-equal`` or a TOML file) for
    games of ``players`` players; a :class:`TargetError` saying what is wrong."""
    if given == STYLES_EQUAL:
        return Target(given, DEFAULT_AGENTS, styles=_equal(len(DEFAULT_AGENTS)))
    if given == SEATS_EQUAL:
        return Target(given, DEFAULT_AGENTS, seats=_equal(players))
    path = Path(given)
    if not given.endswith(".toml") or not path.is_file():
        raise TargetError(f"target {given!r}: give {STYLES_EQUAL}, {SEATS_EQUAL} or a .toml file of desired win "
                          "fractions (docs/tuning.md)")
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise TargetError(f"target {given}: cannot read it: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise TargetError(f"target {given}: not TOML: {err}") from None
    return target_from_table(table, players, given)


def target_from_table(table: dict[str, Any], players: int, name: str) -> Target:
    """A target from a TOML file's table (see :func:`read_target`)."""
    unknown = sorted(set(table) - {"agents", "styles", "seats", "tickets", "routes"})
    if unknown:
        raise TargetError(f"target {name}: unknown key {unknown[0]!r} (the keys are agents, styles, seats, "
                          "tickets, routes)")
    agents, styles = _styles(table, name)
    seats = _seats(table.get("seats"), players, name)
    tickets = _ticket_bounds(table.get("tickets"), name)
    routes = _route_floor(table.get("routes"), name)
    target = Target(name, agents, styles, seats, tickets, routes)
    if not target.parts():
        raise TargetError(f"target {name}: it asks for nothing (give styles, seats, tickets or routes)")
    return target


def _equal(n: int) -> tuple[float, ...]:
    return tuple(1.0 / n for _ in range(n))


def _styles(table: dict[str, Any], name: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The agents seated and their desired shares (empty when the target does not aim at them)."""
    given = table.get("styles")
    agents = table.get("agents")
    if agents is not None:
        if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
            raise TargetError(f"target {name}: agents is a list of style names")
        _known(agents, name)
    if isinstance(given, dict):
        if agents is not None:
            raise TargetError(f"target {name}: give the styles' fractions or an agents list, not both")
        _known(list(given), name)
        fractions = tuple(_share(v, f"styles.{k}", name) for k, v in given.items())
        _adds_up(fractions, "styles", name)
        return tuple(given), fractions
    seated = tuple(agents) if agents is not None else DEFAULT_AGENTS
    if given == "equal":
        return seated, _equal(len(seated))
    if given is not None:
        raise TargetError(f"target {name}: styles is a table of fractions or \"equal\", not {given!r}")
    return seated, ()


def _known(names: list[str], where: str) -> None:
    allowed = tunable_agents()
    for style in names:
        if style not in allowed:
            raise TargetError(f"target {where}: no style named {style!r}; the styles are {', '.join(allowed)}")
    if len(set(names)) != len(names):
        raise TargetError(f"target {where}: a style is named twice")


def _share(value: object, key: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise TargetError(f"target {name}: {key} is a fraction between 0 and 1, not {value!r}")
    return float(value)


def _adds_up(fractions: Sequence[float], what: str, name: str) -> None:
    if abs(sum(fractions) - 1) > SHARE_SLACK:
        raise TargetError(f"target {name}: the {what} fractions add up to {sum(fractions):g}, not 1")


def _seats(given: object, players: int, name: str) -> tuple[float, ...]:
    if given is None:
        return ()
    if given == "equal":
        return _equal(players)
    if not isinstance(given, list):
        raise TargetError(f"target {name}: seats is a list of fractions, first seat first, or \"equal\"")
    if len(given) != players:
        raise TargetError(f"target {name}: seats gives {len(given)} fractions for games of {players} players")
    fractions = tuple(_share(v, f"seats[{k}]", name) for k, v in enumerate(given))
    _adds_up(fractions, "seat", name)
    return fractions


def _ticket_bounds(given: object, name: str) -> tuple[float, float] | None:
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) != {"completed"}:
        raise TargetError(f"target {name}: [tickets] holds one key, completed = [LOW, HIGH]")
    bounds = given["completed"]
    if not isinstance(bounds, list) or len(bounds) != 2:
        raise TargetError(f"target {name}: tickets.completed is [LOW, HIGH], two fractions")
    low, high = (_share(v, "tickets.completed", name) for v in bounds)
    if low > high:
        raise TargetError(f"target {name}: tickets.completed's low bound {low:g} is above its high bound {high:g}")
    return low, high


def _route_floor(given: object, name: str) -> float | None:
    if given is None:
        return None
    if not isinstance(given, dict) or set(given) != {"claimed"}:
        raise TargetError(f"target {name}: [routes] holds one key, claimed = FRACTION (the least part of the games)")
    floor = _share(given["claimed"], "routes.claimed", name)
    if floor == 0:
        raise TargetError(f"target {name}: routes.claimed of 0 asks for nothing")
    return floor


#: What a played game hands back to a tuning run: each seat's share of the win, and, when
#: the target needs them, each seat's tickets held and completed and the routes claimed.
@dataclass(frozen=True)
class Outcome:
    wins: tuple[float, ...]
    held: tuple[tuple[int, ...], ...] = ()
    done: tuple[tuple[int, ...], ...] = ()
    claimed: tuple[int, ...] = ()


@dataclass
class Measures:
    """The columns of a game's row for one target, variant and player count, and the
    distance of a set of rows from the target (see the module's docstring)."""

    target: Target
    variant: ir.Variant
    players: int
    groups: list[tuple[int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.k = len(self.target.agents)
        self.index = {name: i for i, name in enumerate(self.target.agents)}
        self.groups = sorted({parallel_group(r) for r in self.variant.routes})
        self.group_of = {r.id: self.groups.index(parallel_group(r)) for r in self.variant.routes}
        t = len(self.variant.tickets)
        offsets = {}
        at = 0
        for part, width in (("styles", 2 * self.k), ("seats", self.players), ("tickets", 2 * t),
                            ("routes", len(self.groups))):
            offsets[part] = at
            if part in ("styles", "seats") or part in self.target.parts():
                at += width
        self.offsets = offsets
        self.width = at

    @property
    def needs_tickets(self) -> bool:
        """Whether a game's outcome must list the tickets held and completed."""
        return self.target.tickets is not None

    @property
    def needs_routes(self) -> bool:
        """Whether a game's outcome must list the routes claimed."""
        return self.target.routes is not None

    def row(self, outcome: Outcome, names: Sequence[str]) -> list[float]:
        """One game's row: ``outcome`` of a game whose seats held the agents ``names``."""
        row = [0.0] * self.width
        style, seat = self.offsets["styles"], self.offsets["seats"]
        for p, won in enumerate(outcome.wins):
            k = self.index[names[p]]
            row[style + k] += won
            row[style + self.k + k] += 1
            row[seat + p] = won
        if self.needs_tickets:
            base, t = self.offsets["tickets"], len(self.variant.tickets)
            for held in outcome.held:
                for ticket in held:
                    row[base + ticket] += 1
            for done in outcome.done:
                for ticket in done:
                    row[base + t + ticket] += 1
        if self.needs_routes:
            base = self.offsets["routes"]
            for g in {self.group_of[r] for r in outcome.claimed}:
                row[base + g] = 1.0
        return row

    def fractions(self, sums: Any) -> tuple[Any, Any]:
        """The measured share of the wins of each style and of each seat, from column
        sums (a vector, or a matrix of one set of sums per row)."""
        np = numpy()
        sums = np.asarray(sums, dtype=float)
        style = self.offsets["styles"]
        wins, seats = sums[..., style:style + self.k], sums[..., style + self.k:style + 2 * self.k]
        rates = np.divide(wins, seats, out=np.zeros_like(wins), where=seats > 0)
        total = rates.sum(axis=-1, keepdims=True)
        style_shares = np.divide(rates, total, out=np.full_like(rates, 1.0 / self.k), where=total > 0)
        seat = self.offsets["seats"]
        seat_wins = sums[..., seat:seat + self.players]
        seat_total = seat_wins.sum(axis=-1, keepdims=True)
        seat_shares = np.divide(seat_wins, seat_total, out=np.full_like(seat_wins, 1.0 / self.players),
                                where=seat_total > 0)
        return style_shares, seat_shares

    def part_distances(self, sums: Any, games: Any) -> dict[str, Any]:
        """Each part's distance (in [0, 1]) for column sums over ``games`` games (vectors,
        or one per row of a matrix)."""
        np = numpy()
        sums = np.asarray(sums, dtype=float)
        games = np.asarray(games, dtype=float)
        style_shares, seat_shares = self.fractions(sums)
        out: dict[str, Any] = {}
        if self.target.styles:
            out["styles"] = share_distance(style_shares, self.target.styles)
        if self.target.seats:
            out["seats"] = share_distance(seat_shares, self.target.seats)
        if self.target.tickets is not None:
            low, high = self.target.tickets
            base, t = self.offsets["tickets"], len(self.variant.tickets)
            held, done = sums[..., base:base + t], sums[..., base + t:base + 2 * t]
            rate = np.divide(done, held, out=np.zeros_like(done), where=held > 0)
            outside = np.maximum(0.0, np.maximum(low - rate, rate - high))
            total = held.sum(axis=-1)
            out["tickets"] = np.divide((outside * held).sum(axis=-1), total, out=np.zeros_like(total),
                                       where=total > 0)
        if self.target.routes is not None:
            floor = self.target.routes
            base = self.offsets["routes"]
            claimed = sums[..., base:base + len(self.groups)]
            rate = claimed / np.maximum(games, 1.0)[..., None]
            out["routes"] = (np.maximum(0.0, floor - rate) / floor).mean(axis=-1)
        return out

    def distance(self, sums: Any, games: Any) -> Any:
        """The distance from the target: the mean of its parts' distances."""
        parts = self.part_distances(sums, games)
        return sum(parts.values()) / len(parts)

    def summary(self, rows: Any) -> dict[str, Any]:
        """What tune.json says of a set of rows: the distance, each part's, and the shares
        of the wins by style and by seat."""
        np = numpy()
        rows = np.asarray(rows, dtype=float)
        sums, games = rows.sum(axis=0), len(rows)
        style_shares, seat_shares = self.fractions(sums)
        parts = self.part_distances(sums, games)
        return {"distance": round(float(sum(parts.values()) / len(parts)), 6),
                "parts": {k: round(float(v), 6) for k, v in parts.items()},
                "styles": {name: round(float(s), 6) for name, s in zip(self.target.agents, style_shares)},
                "seats": [round(float(s), 6) for s in seat_shares],
                "spread": round(float(style_shares.max() - style_shares.min()), 6),
                "games": games}


def share_distance(fractions: Any, aim: Sequence[float]) -> Any:
    """How far measured shares (the last axis of ``shares``) are from the desired ones
    ``aim``: their Euclidean distance divided by the largest it can be (all the wins to
    the style or seat the target wants least), so 0 is a match and 1 the worst case."""
    np = numpy()
    aim_array = np.asarray(aim, dtype=float)
    # the farthest point of the simplex is a corner k: (1 - a_k)^2 + sum of a_j^2 over j != k
    worst = math.sqrt(max(0.0, 1 - 2 * float(aim_array.min()) + float((aim_array ** 2).sum())))
    if worst == 0:
        return np.zeros(np.shape(fractions)[:-1])
    return np.sqrt(((np.asarray(fractions) - aim_array) ** 2).sum(axis=-1)) / worst
