"""The records a mechanic declares its parts with: score items, tie-break keys, position
keys, questions, a sample use, how agents play it, how a map shows it, and the tables it
hands the emitter. Plain frozen data: the mechanic's class (``core.Mechanic``) and its
capabilities (``capabilities``) hold them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

#: What a score item's value may be (``ScoreItem.measure``).
SCORE_MEASURES = ("amount", "route", "place")


@dataclass(frozen=True)
class ScoreItem:
    """A column of the score breakdown. ``in_total`` items add up to ``total``. ``enum``
    names its column in the compiled engine (``B_<enum>``); by default the name in capitals
    (give one when the name comes from a spec, e.g. a company's)."""

    name: str
    doc: str
    in_total: bool
    owner: str = "core"
    c_name: str | None = None
    label: str | None = None  # a short column heading (``railspec score``); the name by default
    #: What the value is, for summaries over many games (the balance report): ``amount``
    #: (points or a count: a mean per game means something), ``route`` (a route id, -1 for
    #: none: a report counts how often there is one) or ``place`` (a rank from 1, 0 for
    #: none: a report gives the mean place of those placed).
    measure: str = "amount"

    @property
    def enum(self) -> str:
        return self.c_name or self.name.upper()

    @property
    def heading(self) -> str:
        return self.label or self.name


def _column_key(column: str, sign: int, best_of_all: bool) -> Callable[[dict, list[dict]], int]:
    """A tie-break key read from one breakdown column (see :class:`TieBreak`)."""
    if best_of_all:
        def key(row: dict, rows: list[dict]) -> int:
            best = max(r[column] for r in rows)
            return int(best > 0 and row[column] == best)
    else:
        def key(row: dict, rows: list[dict]) -> int:
            return sign * row[column]
    return key


@dataclass(frozen=True)
class TieBreak:
    """A tie-break key a spec may name (``tiebreak most tickets, …``): among players still
    tied, those with the highest ``key(row, rows)`` stay (``rows``: every player's
    breakdown, for keys that compare a player with all the others). ``words`` is how a
    spec writes it; ``unavailable`` is the checker's message when the spec names the key
    without using its mechanic. A key declared by its ``column`` (below) needs no
    function: ``key`` is then made from the column, so both engines and the compiled
    playout read one definition."""

    name: str
    words: str
    doc: str
    key: Callable[[dict, list[dict]], int] | None = None
    owner: str = "core"
    unavailable: str = ""
    #: When the key is one column of the breakdown (``sign`` × ``row[column]``), that
    #: column: an award scored inside the engines may then break its own ties on the key
    #: (both engines read the column), and the compiled playout computes the key itself.
    column: str = ""
    sign: int = 1
    #: With ``column``: the key is not the row's own value but 1 when that value is the
    #: highest of every player's and above 0, else 0 (a card held by the best, such as the
    #: longest path's; ``sign`` stays 1). Computed from every row, it is no use to an
    #: award's own ties, but the compiled playout computes it from the breakdown. ``key``
    #: is made from it when not given.
    best_of_all: bool = False

    def __post_init__(self):
        if self.sign not in (1, -1) or (self.best_of_all and (not self.column or self.sign != 1)):
            raise ValueError(f"tie-break {self.name!r}: sign is 1 or -1, and best_of_all needs a column and "
                             f"sign 1")
        if self.key is None:
            if not self.column:
                raise ValueError(f"tie-break {self.name!r}: a key function, or the column it reads")
            object.__setattr__(self, "key", _column_key(self.column, self.sign, self.best_of_all))

    @property
    def own_column(self) -> bool:
        """Whether the key is ``sign`` × one column of the player's own row (what an award
        scored inside the engines can break its ties on)."""
        return bool(self.column) and not self.best_of_all

    @property
    def compiled(self) -> tuple[str, int, bool] | None:
        """The key as data, ``(column, sign, best_of_all)``, or None when it is only a
        function (``key``) that the compiled engines cannot compute."""
        return (self.column, self.sign, self.best_of_all) if self.column else None


@dataclass(frozen=True)
class PositionKey:
    """A key of a seat in a described position (DESIGN.md, "Positions and traces").
    ``names``: what the names it lists are, "city", "route" or "ticket" ("" when its value
    is not a list of names), so that a tool may vary a position without knowing the key
    (bench/adversarial_positions.py)."""

    name: str
    doc: str
    names: str = ""


@dataclass(frozen=True)
class Query:
    """A question about a game that a mechanic answers on both engines, offered by
    ``Game`` as a method of that name (``game.longest_path(player)``): the compiled
    Engine's method (the mechanic's ``methods.pyx.j2``) and the reference's (its
    ``MechanicReference.methods``). ``player``: its one argument is a seat, which ``Game``
    checks. ``absent``: the answer in a variant without the mechanic (None: such a game
    has no such method). ``hard_board``: for the benchmark, a board on which the answer
    is slow to find, as the ids of the routes one player owns, or as a pair (those ids,
    the ids of the tickets the player holds) when the answer reads the tickets too
    (``hard_board(variant, rng)``, ``rng`` a ``random.Random``)."""

    name: str
    doc: str
    player: bool = True
    absent: object = None
    hard_board: Callable | None = None


@dataclass(frozen=True)
class Sample:
    """A small use of the mechanic that checks when added to a spec of a few cities and
    routes, for the tools that write specs (the fuzzer): ``lines`` to add (``{city0}``,
    ``{city1}``, … stand for the spec's cities, in order), and ``route`` an attribute to
    append to a route line (with its leading space; "" for none)."""

    lines: tuple[str, ...] = ()
    route: str = ""

    def written(self, cities: list[str]) -> list[str]:
        """The lines, the spec's cities in place of the placeholders."""
        names = {f"city{i}": city for i, city in enumerate(cities)}
        return [line.format(**names) for line in self.lines]


@dataclass(frozen=True)
class AgentPlay:
    """How the scripted agents play a mechanic's decisions (docs/agents.md): each of its
    action kinds by one of the agents' generic rules (``pay``, ``withdraw``,
    ``by_routes``, ``payment_draw``, ``rescue``, ``unlock``, ``open_route``, ``by_plan``,
    ``never``), and,
    for ``by_routes``, ``rescue``, ``unlock`` and ``open_route``, the routes each action is
    about (a share: the routes showing its company; a station: the routes at its city; a
    technology: the routes it opens; a track piece: the bed it builds). A kind left out is
    played only when nothing else is legal. ``worth`` adds to a route's points what a claim
    of it brings the claimer besides (a draw bonus's cards), in points: the styles that
    choose among claims by their points (one-step, greedy, long-route near its end) weigh it
    too. ``worth_now`` says the same of the position as it stands: a function of the
    deciding player's observation (``game.observation()``) giving route id -> points a claim
    of it brings now besides its own (negative where a claim does not score its points: a
    route taken for no player), asked before each of the player's decisions (a Bullet Train
    track's ranking, bonus cards dealt at set-up). ``option_worth_now``, likewise, gives
    action id -> points taking that option brings now, its price already taken off (a
    technology that scores per route claimed afterwards): the styles take the legal option
    worth most when that is above 0, after the rules above and before a claim (the generic
    rule ``invest``). ``claims_owned`` names the options (action ids) after which the player
    claims a route another player owns, then both own it (a shared claim: the core's
    ``route_claims``, hook ``after_shared_claim``, a ``co_owner`` field): the styles play them
    by the rule ``claim_owned`` whatever their kind's rule, taking one when a route of another
    player on a held ticket's way would join that ticket or save trains on it, and then claim
    that route. Either worth function may carry ``priced``, the ids it can ever give a worth
    (route ids, action ids): the agents then ask it only at decisions where a claim of one of
    those routes, or one of those options, is legal (elsewhere no figure is read); without
    it, every claim (every action) counts."""

    rules: dict = field(default_factory=dict)    # action kind -> rule name
    routes: dict = field(default_factory=dict)   # action id -> the route ids it is about
    #: the routes its claims take for no player (``takes_for_nobody``) join every player's
    #: network: the agents plan through them as through their own routes
    nobody_routes_join: bool = False
    worth: dict = field(default_factory=dict)    # route id -> points a claim of it is worth besides its own
    #: its route_open closes the free routes touching none of the player's own routes (the
    #: player's network may only grow from where it is): the agents plan over those routes
    #: as open, since the network opens them as it grows towards them
    network_grows: bool = False
    #: observation -> {route id: points a claim of it brings now besides its own}; None: nothing
    worth_now: Callable[[dict], dict[int, float]] | None = None
    #: observation -> {action id: points taking it brings now, its price paid}; None: nothing
    option_worth_now: Callable[[dict], dict[int, float]] | None = None
    #: action ids of the options after which the player claims a route another player owns
    #: (played by the rule ``claim_owned``)
    claims_owned: frozenset = frozenset()


#: The looks a map's legend can explain (:attr:`Looks.legend`): the fields of :class:`Looks`
#: that mark routes and cities, and ``dead_ends``, the squares the core draws for the
#: places a mechanic declares as dead ends (``ir.City.dead_end``).
LEGEND_KEYS = ("dashed", "badges", "groups", "city_markers", "route_groups", "route_colours", "dead_ends")


@dataclass(frozen=True)
class Looks:
    """How a drawn map shows what a mechanic adds (``railspec render``, the balance
    report's map): routes drawn dashed (tunnels), a badge after a route's length (a ferry's
    locomotives), named groups of cities ringed in a colour of their own (Italy's regions),
    state fields holding a seat per city (-1 for none), each drawn as a marker in that
    player's colour (stations), and named groups of routes, each route marked with a dot
    in the colour of every group it belongs to (Pennsylvania's companies), and state fields
    holding a card colour per route (-1 for none), a free route drawn in that colour instead
    of its printed one (France's built track beds).

    ``legend`` says what the map's legend writes for each of these looks, keyed by the
    field's name (one of :data:`LEGEND_KEYS`; ``dead_ends`` explains the squares of
    dead-end places). A look the mechanic gives without a legend text is listed under the
    mechanic's ``title``, so every mark on a map is explained. The renderer never names a
    mechanic: what it writes comes from here."""

    dashed: frozenset = frozenset()                # route ids
    badges: dict = field(default_factory=dict)     # route id -> a short text
    groups: tuple = ()                             # (name, city ids)
    city_markers: tuple[str, ...] = ()             # state field names
    route_groups: tuple = ()                       # (name, route ids)
    route_colours: tuple[str, ...] = ()            # state fields holding a card colour per route (-1: none)
    legend: dict = field(default_factory=dict)     # one of LEGEND_KEYS -> what the legend says of it

    def __post_init__(self):
        unknown = sorted(set(self.legend) - set(LEGEND_KEYS))
        if unknown:  # a typo would otherwise silently fall back to the title
            raise ValueError(f"Looks.legend: unknown look {unknown[0]!r}; the looks are {', '.join(LEGEND_KEYS)}")


@dataclass
class Tables:
    """What a mechanic hands the emitter: C constants, ``static const int`` tables, bitset
    tables, and template variables for its own fragments. The constants and tables go in
    the module's numbers block, which the code only names; the template variables choose
    the code, so give them what a spec's numbers do not change (a switch, a name), and a
    number as a constant: then every spec with the same mechanics shares one Cython
    translation (compiler/numbers_block.py)."""

    constants: list[tuple[str, int]] = field(default_factory=list)
    arrays: list[tuple[str, list[int]]] = field(default_factory=list)
    bitsets: list[tuple[str, list[int]]] = field(default_factory=list)
    context: dict = field(default_factory=dict)



#: The core's score breakdown columns, before the mechanics' and ``total``.
CORE_SCORE_ITEMS = (
    ScoreItem("routes", "route points", True),
    ScoreItem("tickets", "ticket points, plus for each completed ticket and minus for each other", True),
    ScoreItem("tickets_completed", "how many held tickets are completed", False, label="done"),
)

#: The core's tie-break keys, before the mechanics'.
CORE_TIEBREAKS = (
    TieBreak("most_tickets", "most tickets", "the most completed tickets", column="tickets_completed"),
)
