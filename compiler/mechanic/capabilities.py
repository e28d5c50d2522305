"""A mechanic's optional parts, each a small protocol of its own: its *capabilities*.

Every mechanic has the required core (:class:`~railspec.compiler.mechanic.core.Mechanic`:
its language, rule record, state fields, actions, hooks and score items). What only some
mechanics have is a capability, a class the mechanic names among its bases::

    class Stations(Mechanic, DescribedPositions, AgentRules, Drawing, HardCases, Sampled):
        ...

A capability is checked, not guessed (``contract.contract_problems``): a mechanic that
names one defines the members the capability requires (``required``, or at least one of
``any_of``), with the documented parameters; a mechanic that defines a capability's member
without naming the capability is refused, so that a part is never dropped silently; and a
public name one letter away from a member is refused as a likely misspelling.

Code that reads a capability asks for it with :func:`part`, which gives the mechanic
itself when it has the capability and the capability's documented defaults when it does
not: ``part(m, Drawing).looks(variant, rule)``. Described positions are the one
capability whose absence is not a default: a mechanic that scores from state fields of its
own and does not describe them gets keys derived from the state schema
(``railspec.runtime.position``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from .. import ir
from ..hooks import RuleT
from .parts import AgentPlay, Looks, PositionKey, Query, Sample

if TYPE_CHECKING:
    import random


class Capability(Generic[RuleT]):
    """An optional part of a mechanic. A subclass lists its members in its body (each with
    its documented default) and says which of them a mechanic naming it must define itself:
    every name of ``required``, and at least one of ``any_of`` when that is given.

    The type parameter is the mechanic's rule class, for the capabilities whose methods take
    the rule (a mechanic names it: ``Drawing[TunnelsRule]``). Every capability is generic, so
    that ``typing.Generic`` comes after all of them in any mechanic's method resolution order,
    whichever capabilities a class or its subclasses add."""

    #: The members a mechanic with the capability must define itself.
    required: ClassVar[tuple[str, ...]] = ()
    #: When not empty: of these members, the mechanic defines at least one.
    any_of: ClassVar[tuple[str, ...]] = ()
    #: What the capability is for, in a few words (``railspec mechanics``, messages).
    purpose: ClassVar[str] = ""

    @classmethod
    def members(cls) -> tuple[str, ...]:
        """The names the capability adds to a mechanic: the public names of its own body."""
        return tuple(name for name in vars(cls) if not name.startswith("_")
                     and name not in ("required", "any_of", "purpose", "members"))


class Payments(Capability[RuleT]):
    """What its claims pay besides colour cards and locomotives, and the trains a claim takes
    besides one per space."""

    any_of: ClassVar[tuple[str, ...]] = ("payment_columns", "payment_shapes", "extra_trains")
    purpose = "claims that pay more than cards"

    #: The payment columns its claims add: each column's amounts are laid out in the
    #: route's payment blocks (see :meth:`payment_shapes`).
    payment_columns: ClassVar[tuple[ir.PaymentColumn, ...]] = ()

    def used_columns(self, rule: RuleT) -> tuple[ir.PaymentColumn, ...]:
        """The payment columns of ``payment_columns`` a variant with this rule has (all of
        them, unless the mechanic says otherwise): a column its spec's statements never
        pay would be in every claim's ``paid`` and name for nothing, and in the spec hash."""
        return self.payment_columns

    def payment_shapes(self, variant: ir.Variant, rule: RuleT, route: ir.Route,
                       shapes: list[ir.PaymentShape]) -> list[ir.PaymentShape]:
        """The ways to pay for ``route`` (one payment block each), given those the core and
        the mechanics before this one made: a mechanic reshapes the routes its rules touch
        (a ferry needs locomotives; a wave space may be paid by ferry cards instead, one
        block per number of them; ``wild=False`` keeps locomotives off a route's plain
        spaces) and returns the others unchanged. Payments are fixed when the catalogue is
        built; what depends on the state goes in the ``payment_ok`` hook."""
        return shapes

    def extra_trains(self, variant: ir.Variant, rule: RuleT, route: ir.Route) -> int:
        """The trains a claim of ``route`` takes from its owner's supply besides one per
        space (a mountain's crossings): the core's invariants and described positions
        count them (``Assembly.route_trains``). The mechanic's own hooks take them in play
        (``after_claim``) and keep a claim without them from being legal (``payment_ok``)."""
        return 0


class Caches(Capability):
    """Derived state fields (``Field(derived=True)``): caches the compiled engine keeps,
    recomputed by its ``derive`` hook after a load, and kept current as the game moves."""

    any_of: ClassVar[tuple[str, ...]] = ("upkeep_hooks", "closed_routes")
    purpose = "caches the compiled engine keeps current"

    #: Hooks its compiled engine fills only to keep its derived state fields current as
    #: the game moves (``after_claim``), or to narrow a search with them as its deciding
    #: hooks would (``claim_routes``): they decide nothing, so the reference, which keeps
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


class DescribedPositions(Capability[RuleT]):
    """The keys it adds to a described position (DESIGN.md, "Positions and traces"), read
    and written. Without this capability, a mechanic whose scoring hooks may read its own
    state fields gets one key per field, derived from the state schema."""

    required: ClassVar[tuple[str, ...]] = ("position_keys", "position", "seat_position")
    purpose = "its own keys of a described position"

    position_keys: ClassVar[tuple[PositionKey, ...]] = ()

    def position(self, variant: ir.Variant, rule: RuleT, player: int, seat: dict, fields: dict) -> None:
        """Write a seat's position keys into the state ``fields`` being scored (a
        ``PositionError`` for a value it cannot hold)."""

    def seat_position(self, variant: ir.Variant, rule: RuleT, state: dict, player: int) -> dict:
        """The keys of a described position that show ``player``'s part of a state (the
        inverse of :meth:`position`): e.g. ``{"stations": [city names]}``."""
        return {}

    def position_top(self, variant: ir.Variant, rule: RuleT, position: dict, fields: dict) -> None:
        """Read the keys it adds at the top of a described position (beside ``players``)
        into ``fields``."""

    def top_position(self, variant: ir.Variant, rule: RuleT, state: dict) -> dict:
        """The keys at the top of a described position that show a state's part held by no
        player (the inverse of :meth:`position_top`)."""
        return {}


class Invariants(Capability[RuleT]):
    """What its rules say a state, or the board of a described position, may not be."""

    any_of: ClassVar[tuple[str, ...]] = ("state_problems", "position_problems")
    purpose = "invariants of states and boards"

    def state_problems(self, variant: ir.Variant, rule: RuleT, state: dict) -> list[str]:
        """What is wrong with a (shape-checked) state by its rules: the state validator and
        so the conformance suite check it at every decision."""
        return []

    def position_problems(self, variant: ir.Variant, rule: RuleT, fields: dict) -> list[str]:
        """What is wrong, by its rules, with the board of a described position: ``fields``
        holds ``players``, ``owner`` (each route's owner) and ``tickets``. Each problem is a
        message naming the routes or cities by name."""
        return []


class Questions(Capability):
    """Questions a game answers for it on both engines, offered by ``Game`` as methods
    (``game.longest_path(player)``)."""

    required: ClassVar[tuple[str, ...]] = ("queries",)
    purpose = "questions a game answers"

    queries: ClassVar[tuple[Query, ...]] = ()


class AgentRules(Capability[RuleT]):
    """How the scripted agents play its decisions (docs/agents.md). Without it, its action
    kinds are taken only when nothing else is legal."""

    required: ClassVar[tuple[str, ...]] = ("agent_play",)
    purpose = "how the scripted agents play it"

    def agent_play(self, variant: ir.Variant, rule: RuleT) -> AgentPlay:
        """The agents' generic rule for each of its action kinds, and the routes each action
        is about."""
        return AgentPlay()


class Drawing(Capability[RuleT]):
    """How the tools show it: marks on a drawn map, lines under a score table, and the names
    of the items its state fields hold (``Field.items``)."""

    any_of: ClassVar[tuple[str, ...]] = ("looks", "score_notes", "item_names")
    purpose = "how maps, score tables and states in words show it"

    def looks(self, variant: ir.Variant, rule: RuleT) -> Looks:
        """How a drawn map shows what the mechanic adds."""
        return Looks()

    def score_notes(self, variant: ir.Variant, rule: RuleT, rows: list[dict]) -> list[str]:
        """Lines ``railspec score`` prints under the breakdown (what a column of numbers
        cannot say, e.g. the routes stations used)."""
        return []

    def item_names(self, variant: ir.Variant, rule: RuleT) -> dict[str, list[str]]:
        """The names of its own items by id, for each kind its state fields name
        (``Field.items``: ``{"technology": [...]}``): the play page writes them for the
        numbers."""
        return {}


class HardCases(Capability[RuleT]):
    """Positions its scoring makes slow or easy to get wrong: the benchmark times them, the
    conformance vectors keep them."""

    any_of: ClassVar[tuple[str, ...]] = ("hard_position", "hard_cases")
    purpose = "positions hard to score"

    def hard_position(self, variant: ir.Variant, rule: RuleT, rng: random.Random) -> dict | None:
        """A described position (the notation ``railspec.score`` reads, with this
        mechanic's position keys) whose scoring is slow because of the mechanic, such as
        a choice among many assignments; ``rng`` is a ``random.Random``, so each draw may
        differ. ``bench/benchmark.py`` times the whole score breakdown of such positions
        on both engines, and the mechanic's tests check the engines agree on them. None:
        its part of scoring is never slow."""
        return None

    def hard_cases(self, variant: ir.Variant, rule: RuleT, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Why a position is a hard case for its scoring, as short labels (a tie in its
        ranking, a choice between routes), given the state and its breakdown rows: the
        conformance test vectors (``railspec suite export``) keep positions of each label."""
        return ()


class Sampled(Capability):
    """A small use of the mechanic that checks when added to a spec of a few cities and
    routes: the fuzzer writes it into specs, and the contract check
    (``railspec.testing.check_mechanic``) plays it, alone and beside every other."""

    required: ClassVar[tuple[str, ...]] = ("sample",)
    purpose = "a small use of it for tools that write specs"

    sample: ClassVar[Sample | None] = None


#: Every capability, in the order the documentation lists them.
CAPABILITIES: tuple[type[Capability], ...] = (Payments, Caches, DescribedPositions, Invariants, Questions,
                                              AgentRules, Drawing, HardCases, Sampled)

_DEFAULTS: dict[type, Capability] = {}
C = TypeVar("C", bound=Capability)


def part(mechanic: object, capability: type[C]) -> C:
    """The mechanic seen through one capability: the mechanic itself when it has the
    capability, else an object holding the capability's documented defaults."""
    if isinstance(mechanic, capability):
        return mechanic
    default = _DEFAULTS.get(capability)
    if not isinstance(default, capability):  # not made yet
        default = _DEFAULTS[capability] = capability()
    return default


def capabilities_of(mechanic: object) -> tuple[type[Capability], ...]:
    """The capabilities a mechanic (an instance or its class) has, in :data:`CAPABILITIES` order."""
    cls = mechanic if isinstance(mechanic, type) else type(mechanic)
    return tuple(c for c in CAPABILITIES if issubclass(cls, c))
