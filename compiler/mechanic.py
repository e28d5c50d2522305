"""Mechanics: the unit of change of the Ticket to Ride family.

The core game (train cards and the face-up market, claiming routes, destination tickets,
the end of the game) lives in the compiler's templates and the reference interpreter.
Everything a map adds on top of it is a *mechanic*: tunnels, stations, the longest-path
bonus, double routes… Each mechanic is one package (a folder of ``railspec.mechanics``, or
one of another distribution registered under the ``railspec.mechanics`` entry-point
group) whose ``Mechanic`` subclass declares everything about it in one place:

=======================  ================================================================
part                     what it is
=======================  ================================================================
``statements``           its language: node classes of its statements and of the parts it
                         adds to the core's extension points; ``grammar.lark`` their rules
``limits``               the bounds its statements' numbers keep
``rule``, ``check``      its record in the IR and the checker stage that makes it
``state_fields``         its fields of the state schema (``compiler/base/schema.py``)
``upkeep_hooks``         the compiled hooks that keep its derived fields (caches) current
``closed_routes``        the derived route bitset that holds what its ``route_open`` refuses
``phases``, ``kinds``    the decision phases and action kinds it adds
``actions``              its entries of the action catalogue
``payment_columns``,     what its claims pay besides cards, and how a route's payments
``payment_shapes``       are laid out
``tables``               the constants and tables it hands the emitter
``engine.pyx.j2``        its compiled hooks, ``cdef inline`` functions (``compiler/hooks.py``)
``reference``            its reference class: the same hooks, as methods
``queries``              the questions a game answers for it (``game.longest_path(p)``)
``score_items``,         the columns it adds to a score breakdown, the tie-break keys it
``tiebreaks``            defines
``position_keys``        the keys it adds to a described position
``hard_position``        a position whose scoring it makes slow, for the benchmark
``state_problems``       the invariants it adds (state validation and conformance)
``agent_play``,          how the tools meet it: the scripted agents' rules, the drawn
``looks``, ``sample``    map's marks, a small use of it for tools that write specs
=======================  ================================================================

Both engines call the mechanics a variant uses at the fixed hook points of :data:`HOOKS`,
in registry order; a mechanic the spec does not use leaves no code in its module. Which
mechanics the engines support follows from the registry (``Mechanic.implemented``) and is
checked once, at load.
"""
from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
import reprlib
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable, ClassVar

from . import hooks, ir
from .base.errors import PositionError
from .base.limits import Limit
from .base.schema import Field
from .hooks import MechanicReference
from .lang.ast import ActionKind, DealPart, RouteAttr, Stmt, TicketForm
from .lang.parse import Language, language

# --- what a mechanic declares ---------------------------------------------------------------

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
    ``by_routes``, ``payment_draw``, ``rescue``, ``never``), and, for ``by_routes`` and
    ``rescue``, the routes each action is about (a share: the routes showing its company;
    a station: the routes at its city). A kind left out is played only when nothing else
    is legal."""

    rules: dict = field(default_factory=dict)    # action kind -> rule name
    routes: dict = field(default_factory=dict)   # action id -> the route ids it is about


#: The looks a map's legend can explain (:attr:`Looks.legend`): the fields of :class:`Looks`
#: that mark routes and cities, and ``dead_ends``, the squares the core draws for the
#: places a mechanic declares as dead ends (``ir.City.dead_end``).
LEGEND_KEYS = ("dashed", "badges", "groups", "city_markers", "route_groups", "dead_ends")


@dataclass(frozen=True)
class Looks:
    """How a drawn map shows what a mechanic adds (``railspec render``, the balance
    report's map): routes drawn dashed (tunnels), a badge after a route's length (a ferry's
    locomotives), named groups of cities ringed in a colour of their own (Italy's regions),
    state fields holding a seat per city (-1 for none), each drawn as a marker in that
    player's colour (stations), and named groups of routes, each route marked with a dot
    in the colour of every group it belongs to (Pennsylvania's companies).

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


class Mechanic:
    """A mechanic: subclass it in a folder of its own, declare what it adds (each part has a
    default that adds nothing), and it is found by the registry (:func:`discover`).

    ``name`` and ``title`` name it; ``rule`` is its record in the IR (an ``ir.Rule``
    subclass) and :meth:`check` makes it from the spec. Its state fields, decision phases,
    action kinds, score items, tie-break keys and position keys are the tuples below; its
    reference class (a :class:`~railspec.compiler.hooks.MechanicReference` subclass) fills
    the hooks it needs in the reference interpreter, and its ``engine.pyx.j2`` the same
    hooks in the compiled engine. ``implemented`` is False while the engines lack the
    mechanic: a spec using it checks, and ``load`` refuses it by name."""

    name: ClassVar[str]
    title: ClassVar[str]
    implemented: ClassVar[bool] = True
    #: Where the mechanic comes among the others: the order of their catalogue entries,
    #: state fields and hook calls (then by name). The stock mechanics use 10 to 170, in
    #: steps of 10; a mechanic from elsewhere comes after them unless it says otherwise.
    order: ClassVar[int] = 1000
    rule: ClassVar[type]
    state_fields: ClassVar[tuple[Field, ...]] = ()
    #: Hooks its compiled engine fills only to keep its derived state fields current as
    #: the game moves (``after_claim``): they decide nothing, so the reference, which keeps
    #: no caches, does not fill them. Each must be a hook chained ``each``.
    upkeep_hooks: ClassVar[tuple[str, ...]] = ()
    #: When its compiled ``route_open`` only reads a bit of one of its derived state fields
    #: (per player, kind u64, size ROUTE_WORDS: bit r of word r >> 6 set while route r is
    #: closed to that player), that field's name: a turn's legal claims then drop its routes
    #: from their candidates a word at a time, and ask ``route_open`` route by route only
    #: of the other mechanics that fill it. Its ``route_open`` must refuse exactly the
    #: routes the field holds; everything else (one claim's check, ``route_claimable``)
    #: still calls it.
    closed_routes: ClassVar[str] = ""
    phases: ClassVar[tuple[str, ...]] = ()
    kinds: ClassVar[tuple[str, ...]] = ()
    reference: ClassVar[type] = MechanicReference
    score_items: ClassVar[tuple[ScoreItem, ...]] = ()
    tiebreaks: ClassVar[tuple[TieBreak, ...]] = ()
    position_keys: ClassVar[tuple[PositionKey, ...]] = ()
    queries: ClassVar[tuple[Query, ...]] = ()
    #: A small use of it that tools writing specs may add (None: they leave it out).
    sample: ClassVar[Sample | None] = None
    #: Its language: the node classes (``lang.ast.Node`` subclasses) of its statements and
    #: of the parts it adds to the core's extension points (route attributes, ticket forms,
    #: deal parts, action kinds); their grammar rules are ``grammar.lark`` in its folder.
    statements: ClassVar[tuple[type, ...]] = ()
    #: The bounds its statements' numbers keep, as docs/language.md's "Limits" lists them;
    #: each is checked where the statement is checked.
    limits: ClassVar[tuple[Limit, ...]] = ()
    #: What its claims pay besides colour cards and locomotives: each column's amounts are
    #: laid out in the route's payment blocks (see :meth:`payment_shapes`).
    payment_columns: ClassVar[tuple[ir.PaymentColumn, ...]] = ()

    def check(self, ctx) -> ir.Rule | None:
        """The mechanic's checker stage: its record when the spec uses the mechanic, else
        None. Report problems with ``ctx.errors.add(span, message)``."""
        raise NotImplementedError

    def actions(self, variant: ir.Variant, rule) -> list[dict]:
        """Catalogue entries (``dict(kind=…, name=…, …)`` of ``ir.Action`` fields)."""
        return []

    def tables(self, variant: ir.Variant, rule) -> Tables:
        """The constants and tables its ``engine.pyx.j2`` reads."""
        return Tables()

    @classmethod
    def filled_hooks(cls) -> frozenset[str]:
        """The hooks it fills: those its reference class overrides; and when it keeps
        derived state fields (the compiled engine's caches), ``derive`` and its
        ``upkeep_hooks``."""
        filled = set(hooks.filled(cls.reference))
        if any(f.derived for f in cls.state_fields):
            filled.add("derive")
            filled.update(cls.upkeep_hooks)
        elif cls.upkeep_hooks:
            raise ValueError(f"mechanic {cls.name}: upkeep hooks keep derived state fields, and it declares none")
        for name in cls.upkeep_hooks:
            if hooks.BY_NAME.get(name) is None or hooks.BY_NAME[name].protocol != "each":
                raise ValueError(f"mechanic {cls.name}: upkeep hook {name!r} is not a hook whose functions are "
                                 f"each called in turn (they may keep caches, not decide)")
        if cls.closed_routes:
            field = next((f for f in cls.state_fields if f.name == cls.closed_routes), None)
            if field is None or not (field.derived and field.per_player and field.kind == "u64"
                                     and field.size == "ROUTE_WORDS"):
                raise ValueError(f"mechanic {cls.name}: closed_routes names {cls.closed_routes!r}, which is not one "
                                 "of its derived state fields of kind u64, per player, of size ROUTE_WORDS")
            if "route_open" not in filled:
                raise ValueError(f"mechanic {cls.name}: closed_routes holds what route_open refuses, and it does "
                                 "not fill route_open")
        return frozenset(filled)

    def payment_shapes(self, variant: ir.Variant, rule, route: ir.Route,
                       shapes: list[ir.PaymentShape]) -> list[ir.PaymentShape]:
        """The ways to pay for ``route`` (one payment block each), given those the core and
        the mechanics before this one made: a mechanic reshapes the routes its rules touch
        (a ferry needs locomotives; a wave space may be paid by ferry cards instead, one
        block per number of them; ``wild=False`` keeps locomotives off a route's plain
        spaces) and returns the others unchanged. Payments are fixed when the catalogue is
        built; what depends on the state goes in the ``payment_ok`` hook."""
        return shapes

    def dimensions(self, variant: ir.Variant, rule) -> dict[str, int]:
        """Sizes the mechanic's state fields use (names of C constants)."""
        return {}

    def extra_trains(self, variant: ir.Variant, rule, route: ir.Route) -> int:
        """The trains a claim of ``route`` takes from its owner's supply besides one per
        space (a mountain's crossings): the core's invariants and described positions
        count them (``Assembly.route_trains``). The mechanic's own hooks take them in play
        (``after_claim``) and keep a claim without them from being legal (``payment_ok``)."""
        return 0

    def score_bound(self, variant: ir.Variant, rule) -> int | None:
        """The most its score items that count in the total can add to, or take from, one
        player's total in any game of the variant. The checker adds up the core's and every
        mechanic's bound and refuses a spec whose sum a score could not hold
        (``limits.MAX_SCORE``). 0 for a mechanic that scores nothing; a mechanic that scores
        must override it (None: not known, and then nothing is guaranteed)."""
        return 0 if not any(item.in_total for item in self.variant_score_items(variant, rule)) else None

    def variant_score_items(self, variant: ir.Variant, rule) -> tuple[ScoreItem, ...]:
        """The breakdown columns for this variant: ``score_items``, and any that depend on the
        variant (one per company, say)."""
        return self.score_items

    def position_top(self, variant: ir.Variant, rule, position: dict, fields: dict) -> None:
        """Read the keys a mechanic adds at the top of a described position (beside
        ``players``) into ``fields``."""

    def state_problems(self, variant: ir.Variant, rule, state: dict) -> list[str]:
        """What is wrong with a (shape-checked) state, from this mechanic's point of view."""
        return []

    def position(self, variant: ir.Variant, rule, player: int, seat: dict, fields: dict) -> None:
        """Write a seat's position keys into the state ``fields`` being scored."""

    def seat_position(self, variant: ir.Variant, rule, state: dict, player: int) -> dict:
        """The keys of a described position that show ``player``'s part of a state (the
        inverse of :meth:`position`): e.g. ``{"stations": [city names]}``."""
        return {}

    def position_problems(self, variant: ir.Variant, rule, fields: dict) -> list[str]:
        """What is wrong, by the mechanic's rules, with the board of a described position:
        ``fields`` holds ``players``, ``owner`` (each route's owner) and ``tickets``. Each
        problem is a message naming the routes or cities by name."""
        return []

    def agent_play(self, variant: ir.Variant, rule) -> AgentPlay:
        """How the scripted agents play its decisions (none by default: its kinds are taken
        only when nothing else is legal)."""
        return AgentPlay()

    def score_notes(self, variant: ir.Variant, rule, rows: list[dict]) -> list[str]:
        """Lines ``railspec score`` prints under the breakdown (what a column of numbers
        cannot say, e.g. the routes stations used)."""
        return []

    def looks(self, variant: ir.Variant, rule) -> Looks:
        """How a drawn map shows what the mechanic adds (nothing by default)."""
        return Looks()

    def hard_position(self, variant: ir.Variant, rule, rng) -> dict | None:
        """A described position (the notation ``railspec.score`` reads, with this
        mechanic's position keys) whose scoring is slow because of the mechanic, such as
        a choice among many assignments; ``rng`` is a ``random.Random``, so each draw may
        differ. ``bench/benchmark.py`` times the whole score breakdown of such positions
        on both engines against the goal for one score, and the mechanic's tests check the
        engines agree on them. None (the default): its part of scoring is never slow."""
        return None

    def hard_cases(self, variant: ir.Variant, rule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Why a position is a hard case for the mechanic's scoring, as short labels (a tie
        in its ranking, a choice between routes), given the state and its breakdown rows:
        the conformance test vectors (``railspec suite export``) keep positions of each
        label, so another engine is checked where it is easiest to get wrong. None by
        default."""
        return ()

    # --- where the mechanic's files are --------------------------------------------------
    @classmethod
    def folder(cls) -> Path:
        return Path(sys.modules[cls.__module__].__file__).resolve().parent

    @classmethod
    def _own(cls, name: str) -> Path | None:
        """The file or folder ``name`` of the nearest class of the mechanic's lineage that
        has one in its folder: a subclass made elsewhere (a test's variation of a stock
        mechanic) keeps its parent's grammar and templates."""
        for klass in cls.__mro__:
            if klass is Mechanic or not (isinstance(klass, type) and issubclass(klass, Mechanic)):
                continue
            path = Path(sys.modules[klass.__module__].__file__).resolve().parent / name
            if path.exists():
                return path
        return None

    @classmethod
    def written_forms(cls) -> list[str]:
        """How each statement and part of its language is written, in the spec's terms
        (``tunnels reveal N``, ``route … [tunnel]``): what ``railspec mechanics`` lists."""
        out = []
        for node in cls.statements:
            if issubclass(node, Stmt):
                out.append(node.form)
            elif issubclass(node, RouteAttr):
                out.append(f"route … [{node.form}]")
            elif issubclass(node, ActionKind):
                out.append(f"action {node.form}")
            elif issubclass(node, TicketForm):
                out.append(f"ticket {node.written}" if node.written else f"ticket {node.form} CITY - CITY POINTS")
            elif issubclass(node, DealPart):
                out.append(f"deal tickets N {node.form} keep K")
        keyword_points = r'%extend\s+(returned_deck|return_place)\s*:\s*((?:"[^"]*"\s*)+)'
        for point, words in re.findall(keyword_points, cls.grammar()):
            word = " ".join(re.findall(r'"([^"]*)"', words))
            out.append(f"returned {word} PLACE" if point == "returned_deck" else f"returned DECK {word}")
        return out

    @classmethod
    def documentation(cls) -> str:
        """Where the mechanic is documented: its module (the docstring holds its rules and
        how they are written), and docs/language.md for railspec's own."""
        module = sys.modules[cls.__module__]
        where = f"{cls.__module__} ({Path(module.__file__).resolve()})"
        return where + (', docs/language.md' if cls.__module__.startswith(STOCK_PACKAGE + ".") else "")

    @classmethod
    def grammar(cls) -> str:
        """Its grammar fragment (``grammar.lark`` in its folder), or "" when it has none."""
        path = cls._own("grammar.lark")
        return path.read_text(encoding="utf-8") if path is not None else ""

    @classmethod
    def template_dir(cls) -> Path:
        """The folder of its templates: ``engine.pyx.j2`` (its C functions, the hooks it
        fills among them) and ``methods.pyx.j2`` (the game's methods it adds: functions
        ``def NAME(self, …)`` that the variant's games offer as methods, and that reach a
        game's state as ``state_of(self)``)."""
        found = cls._own("engine.pyx.j2") or cls._own("methods.pyx.j2")
        return found.parent if found is not None else cls.folder()

    def __repr__(self) -> str:
        return f"<mechanic {self.name}>"


class Registry:
    """An ordered set of mechanics. The order fixes the catalogue order of their actions,
    the key order of their state fields, and the order in which hooks run."""

    def __init__(self, mechanics):
        self.mechanics: tuple[Mechanic, ...] = tuple(mechanics)
        names = [m.name for m in self.mechanics]
        if len(set(names)) != len(names):
            raise ValueError(f"a mechanic is registered twice: {names}")
        self.by_name = {m.name: m for m in self.mechanics}
        self.by_rule = {m.rule: m for m in self.mechanics}
        self._language: Language | None = None

    @property
    def language(self) -> Language:
        """The language of the core and these mechanics (their grammar fragments and node
        classes), built once."""
        if self._language is None:
            self._language = language([(m.name, m.grammar()) for m in self.mechanics],
                                      [(m.name, cls) for m in self.mechanics for cls in m.statements])
        return self._language

    def __iter__(self):
        return iter(self.mechanics)

    def __contains__(self, name: str) -> bool:
        return name in self.by_name

    def with_mechanics(self, *extra: Mechanic) -> "Registry":
        """A new registry: this one's mechanics, then ``extra``."""
        return Registry(self.mechanics + tuple(extra))

    def replacing(self, mechanic: Mechanic) -> "Registry":
        """A new registry with ``mechanic`` in the place of the one of the same name."""
        if mechanic.name not in self.by_name:
            raise ValueError(f"no mechanic named {mechanic.name} to replace")
        return Registry(mechanic if m.name == mechanic.name else m for m in self.mechanics)

    def present(self, variant: ir.Variant) -> list[tuple[Mechanic, ir.Rule]]:
        """(mechanic, its rule record) for each mechanic the variant uses, in registry order."""
        out = []
        for rule in variant.rules:
            mech = self.by_rule.get(type(rule))
            if mech is None:
                raise ValueError(f"{variant.name}: the rule record {type(rule).__name__} belongs to no "
                                 f"mechanic of this registry")
            out.append((mech, rule))
        order = {m.name: i for i, m in enumerate(self.mechanics)}
        return sorted(out, key=lambda pair: order[pair[0].name])

    def queries(self, variant: ir.Variant) -> dict[str, tuple[Query, bool]]:
        """Every query of the registry's mechanics, by name, with whether ``variant`` uses
        the mechanic that answers it."""
        used = {m.name for m, _ in self.present(variant)}
        out: dict[str, tuple[Query, bool]] = {}
        for m in self.mechanics:
            for query in m.queries:
                if query.name in out:
                    raise ValueError(f"two mechanics answer the query {query.name!r}")
                out[query.name] = (query, m.name in used)
        return out

    def unimplemented(self, variant: ir.Variant) -> list[tuple[Mechanic, ir.Rule]]:
        return [(m, r) for m, r in self.present(variant) if not m.implemented]

    def tiebreak(self, name: str) -> TieBreak | None:
        for tb in CORE_TIEBREAKS:
            if tb.name == name:
                return tb
        for m in self.mechanics:
            for tb in getattr(m, "tiebreaks", ()):
                if tb.name == name:
                    return tb
        return None

    def tiebreak_words(self) -> dict[str, TieBreak]:
        """Every tie-break key of the core and the registry, by the words a spec uses."""
        out = {tb.words: tb for tb in CORE_TIEBREAKS}
        for m in self.mechanics:
            out.update({tb.words: tb for tb in getattr(m, "tiebreaks", ())})
        return out


#: The core's score breakdown columns, before the mechanics' and ``total``.
CORE_SCORE_ITEMS = (
    ScoreItem("routes", "route points", True),
    ScoreItem("tickets", "ticket points, plus for each completed ticket and minus for each other", True),
    ScoreItem("tickets_completed", "how many held tickets are completed", False, label="done"),
)

CORE_TIEBREAKS = (
    TieBreak("most_tickets", "most tickets", "the most completed tickets", column="tickets_completed"),
)


#: The entry-point group under which a mechanic distribution registers its ``Mechanic``
#: subclass (``[project.entry-points."railspec.mechanics"]``, the way pytest finds plugins).
ENTRY_POINT_GROUP = "railspec.mechanics"
#: The package whose subpackages are the stock mechanics, one folder each.
STOCK_PACKAGE = "railspec.mechanics"


def _stock_mechanics() -> list[type]:
    """The ``Mechanic`` subclass each folder of the stock package defines (found by a scan of
    its subpackages, so that a new stock mechanic is a new folder, not a line in a list)."""
    package = importlib.import_module(STOCK_PACKAGE)
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{STOCK_PACKAGE}.{info.name}")
        classes = [obj for obj in vars(module).values()
                   if isinstance(obj, type) and issubclass(obj, Mechanic) and obj.__module__ == module.__name__]
        if len(classes) != 1:
            raise TypeError(f"{module.__name__} must define one Mechanic subclass, found {len(classes)}")
        found.append(classes[0])
    return found


def _installed_mechanics() -> list[type]:
    """The ``Mechanic`` subclasses other distributions register under :data:`ENTRY_POINT_GROUP`."""
    found = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        cls = entry.load()
        if not (isinstance(cls, type) and issubclass(cls, Mechanic)):
            raise TypeError(f"entry point {entry.name} = {entry.value} ({ENTRY_POINT_GROUP}) is not a Mechanic "
                            f"subclass")
        found.append(cls)
    return found


def _ordered(classes) -> Registry:
    return Registry(cls() for cls in sorted(classes, key=lambda cls: (cls.order, cls.name)))


def discover() -> Registry:
    """Every mechanic this installation has: the stock ones and the installed ones, in the
    order of their ``order`` (then their names)."""
    classes = {cls.name: cls for cls in _stock_mechanics()}
    for cls in _installed_mechanics():
        if cls.name in classes and classes[cls.name] is not cls:
            raise ValueError(f"two mechanics are named {cls.name!r}: {classes[cls.name].__module__} and "
                             f"{cls.__module__}")
        classes[cls.name] = cls
    return _ordered(classes.values())


_DEFAULT: Registry | None = None
_STOCK: Registry | None = None


def default_registry() -> Registry:
    """The registry of every mechanic installed (:func:`discover`), found once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = discover()
    return _DEFAULT


def stock_registry() -> Registry:
    """The registry of railspec's own mechanics only, whatever else is installed: what the
    documentation describes."""
    global _STOCK
    if _STOCK is None:
        _STOCK = _ordered(_stock_mechanics())
    return _STOCK


# --- reading a mechanic's keys of a described position ---------------------------------------

_show = reprlib.Repr()
_show.maxstring = _show.maxother = 60
_show.maxlist = _show.maxdict = 4
_show.maxlevel = 2


def kind_of(value) -> str:
    """How JSON would call a value's type, for messages."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def names_in(seat: dict, key: str, where: str) -> list:
    """The list of names a seat of a described position holds under ``key`` (empty when
    absent), or a :class:`PositionError` saying what it holds instead."""
    value = seat.get(key, [])
    if not isinstance(value, list):
        raise PositionError(f"{where}: '{key}' must be a list of names, got {kind_of(value)}")
    return value


def lookup_name(names: dict[str, int], name, what: str, where: str) -> int:
    """The id of a name in ``names`` (e.g. the cities a station may be built in), or a
    :class:`PositionError` with the closest spelling."""
    if not isinstance(name, str):
        raise PositionError(f"{where}: a {what} is named by a string, got {_show.repr(name)}")
    if name not in names:
        close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7) if len(name) <= 200 else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise PositionError(f"{where}: no {what} named {_show.repr(name)}{hint}")
    return names[name]
