"""The hook points: where both engines call the mechanics a variant uses, in registry order.

A hook is a function with a fixed signature in each engine:

- in the compiled engine, a ``cdef inline`` C function a mechanic defines in its
  ``engine.pyx.j2``, named after the mechanic and the hook (``multi_track_route_open``);
  the emitter chains the functions of the variant's mechanics into one ``hook_<name>``
  function per hook (:data:`HOOKS` says how: every one called, all must agree, a value
  passed along …), which the core's templates call at the hook's point. A hook no
  mechanic fills is its default, which the C compiler folds away;
- in the reference interpreter, a method of the mechanic's reference class: a subclass
  of :class:`MechanicReference`, whose methods are the hooks' documented defaults (the way
  python-chess's variants override a board's methods). The methods a mechanic overrides
  are the hooks it fills, in both engines: nothing else declares them.

Both cores offer the mechanics services, so that no mechanic reads another's rule: in the
reference, the methods of ``Rules`` :class:`MechanicReference` lists; in the compiled
engine, these C functions (``State* s`` first where they take the state):

- ``route_claimable(s, r, p)``: route ``r`` is free and no mechanic closes it to ``p``;
- ``route_claims(s, r, p, out, n)``: append to ``out[n:]`` the claims of route ``r`` that
  player ``p`` could make now whatever its owner (enough trains, every route_open, the
  payment blocks' payment_ok and claim_payable, the hand's cards); returns the new end.
  A mechanic's phase lists with it the claims of routes another player owns, whose
  completion is a shared claim (hook ``after_shared_claim``; emitted in a variant with a
  further owner's state field, ``Field.co_owner``);
- ``route_owned_by(s, r, p)``: player ``p`` owns route ``r``, as its owner or as a further
  owner (a ``co_owner`` field, a shared claim): what a mechanic that scores a player's
  routes reads, so that shared routes count for both their owners;
- ``complete_claim(s, p, r)``, ``discard_payment(s, card, cards, locos)``: finish a claim
  a mechanic held back, put paid cards on the discards; ``withdraw_claim(s, p, r)``: give
  such a claim up (the mechanics whose payment columns it paid give them back, hook
  ``claim_withdrawn``);
- ``draw_card(s)``, ``refill_market(s)``, ``faceup_locomotives(s)``: the train deck and
  the market;
- ``end_turn(s, passed)``: end the turn of the player to move;
- ``owned_routes(s, p, routes)``: player ``p``'s routes, read from the ``owned`` bitsets
  (``s.owned[p]``, and ``s.unowned`` for the free routes), as many steps as routes;
  ``nobody_routes(s, routes)``: the routes claims took for no player (owner ``players``,
  hook ``takes_for_nobody``), which a mechanic may join into every player's network in
  ``score_graph`` with ``uf_find``;
- ``player_network(s, p, parent)``, ``uf_find(parent, x)``, ``cities_joined(network, a,
  b)``, ``ticket_score(s, p, network, &points, &completed)``: a player's network and
  their tickets on it; ``ticket_network(s, p, parent, network, row)`` builds both
  networks as scoring does (``row``: a scratch breakdown row the ``score_graph`` hooks
  may write), and ``ticket_result(s, p, t, network, &worth)`` says whether one held
  ticket is completed on it; ``award_best(s, out, column, bonus_column, bonus)`` gives
  ``bonus`` to every player whose breakdown ``column`` is the highest of all (above 0);
- the game's generator, ``rs_below`` and ``rs_shuffle`` (compiler/templates/rng.pyx.j2).

``derive`` is the compiled engine's alone (it recomputes the caches a mechanic keeps as
derived state fields, which the reference does not have); a mechanic fills it exactly when
it has derived fields. Such a mechanic may also keep its caches current as the game moves
through other hooks chained ``each`` (``Mechanic.upkeep_hooks``: the compiled engine
fills them, the reference does not need to). ``claim_routes`` is the compiled engine's alone
too: with its caches, a mechanic may narrow the routes a turn looks for claims on to those
its deciding hooks would let the player pay, which leaves the legal moves as they are.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from . import ir
from .base.state_view import StateView

#: How the emitter chains the mechanics' functions of one hook (``hook_<name>``):
#: ``each``: called in turn; ``all``: True unless one says False (the rest are not asked);
#: ``any``: False unless one says True; ``thread``: a value passed through each, the
#: core's first; ``first``: the first that says True handled it; ``phase``/``kind``:
#: called for the mechanic's own phases or action kinds only.
PROTOCOLS = ("each", "all", "any", "thread", "first", "phase", "kind")


@dataclass(frozen=True)
class Hook:
    """One hook point. ``args`` are the C parameters after the state (``State* s``) as
    ``(type, name)``; ``returns`` the C type; ``threaded`` the parameter a ``thread`` hook
    passes along (and returns). ``call`` is the reference method's signature, ``where``
    the point in play where both engines call it."""

    name: str
    protocol: str
    returns: str
    args: tuple[tuple[str, str], ...]
    call: str
    where: str
    threaded: str = ""

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"hook {self.name}: unknown protocol {self.protocol!r}")

    def function(self, owner: str) -> str:
        """The C name of ``owner``'s function for this hook (``owner``: a mechanic's name,
        or ``hook`` for the chain)."""
        return f"{owner}_{self.name}"

    @property
    def params(self) -> str:
        """The C parameter list: ``State* s, int r, int p``."""
        return ", ".join(["State* s"] + [f"{kind} {name}" for kind, name in self.args])

    @property
    def names(self) -> str:
        """The C argument list of a call: ``s, r, p``."""
        return ", ".join(["s"] + [name for _, name in self.args])

    @property
    def compiled_only(self) -> bool:
        return self.call == ""


HOOKS: tuple[Hook, ...] = (
    Hook("setup_piles", "each", "void", (), "setup_piles(state)",
         "set-up, after the train and ticket decks are shuffled"),
    Hook("setup_offer", "each", "void", (("int", "p"),), "setup_offer(state, player)",
         "set-up, after player p is dealt their regular tickets"),
    Hook("derive", "each", "void", (), "",
         "after set-up and after a state is loaded: the compiled engine's derived fields"),
    Hook("returned_tickets", "thread", "int", (("int*", "items"), ("int", "n"), ("bint", "at_setup")),
         "returned_tickets(state, tickets, at_setup) -> the tickets still going under the deck",
         "the tickets a player did not keep (items[0:n]), before they go under the deck: a mechanic may "
         "reorder them or take some", threaded="n"),
    Hook("setup_over", "each", "void", (), "setup_over(state)",
         "set-up is over: the last player has kept their dealt tickets, and player 0's first turn is about to "
         "start; a mechanic may open a phase of its own (decisions every player makes before the first turn), "
         "and then starts the first turn itself"),
    Hook("route_open", "all", "bint", (("int", "r"), ("int", "p")), "route_open(state, route, player) -> bool",
         "whether a free route is open to a player: legal claims, and the route_claimable service"),
    Hook("payment_ok", "all", "bint", (("int", "block"), ("int", "p")),
         "payment_ok(state, block, player) -> bool",
         "legal claims: whether a payment block of an open route (ir.PaymentBlock) is open to the player"),
    Hook("claim_payable", "all", "bint", (("int", "action"), ("int", "p")),
         "claim_payable(state, action, player) -> bool",
         "legal claims: whether one claim of an open payment block, whose cards the hand holds, can be paid "
         "(what it pays besides may depend on the colour the claim names)"),
    Hook("claim_routes", "each", "void", (("int", "p"), ("unsigned long long*", "candidates")), "",
         "legal claims, in the compiled engine alone: the routes a turn looks for claims on (ROUTE_WORDS words, "
         "those free, short enough and affordable), which a mechanic may narrow to the routes its payment_ok "
         "and claim_payable could let the player pay (it decides nothing: the reference asks every route)"),
    Hook("turn_actions", "thread", "int", (("int*", "out"), ("int", "n")), "turn_actions(state) -> legal ids",
         "the legal moves of a turn, after the ticket draw: more ids (ascending)", threaded="n"),
    Hook("route_colour", "thread", "int", (("int", "r"), ("int", "colour")),
         "route_colour(state, route, colour) -> colour",
         "legal claims: the colour a route open to the player is claimed in now (its printed colour, or GRAY: any "
         "one colour); a mechanic may hold a gray route's colour in the state, and then only that colour's cards "
         "(and locomotives) pay for it", threaded="colour"),
    Hook("phase_legal", "phase", "int", (("int", "phase"), ("int*", "out")), "phase_legal(state) -> legal ids",
         "the legal moves of the mechanic's own phases"),
    Hook("phase_count", "phase", "int", (("int", "phase"),), "",
         "random playouts, in one of the mechanic's own phases: how many ids phase_legal would list, counted "
         "without listing them (0: not counted, phase_legal lists them); Mechanic.playout_hooks"),
    Hook("phase_nth", "phase", "int", (("int", "phase"), ("int", "k")), "",
         "random playouts, after phase_count counted n ids: the id phase_legal would list k-th (0 <= k < n), so "
         "the playout picks what it would pick from the list"),
    Hook("apply", "kind", "void", (("int", "kind"), ("int", "action")), "apply(state, action)",
         "the transitions of the mechanic's own action kinds"),
    Hook("faceup_cost", "thread", "int", (("int", "card"), ("int", "cost")),
         "faceup_cost(state, card, cost) -> cost",
         "what taking a face-up card costs of a two-card draw (2: the whole draw, and never the second card; "
         "the core's is 2 for a locomotive, else 1)", threaded="cost"),
    Hook("market_resets", "thread", "bint", (("bint", "resets"),), "market_resets(state, resets) -> bool",
         "whether the face-up market is discarded and dealt again (the core's: the reset number of "
         "locomotives showing, and a market with fewer can be dealt); False once a reset cannot change it",
         threaded="resets"),
    Hook("after_draw", "each", "void", (("int", "p"),), "after_draw(state, player)",
         "a turn's train card draw is over (its last card taken), before the turn ends: a mechanic may open a phase "
         "of its own, and then ends the turn itself"),
    Hook("claim_pay", "each", "void", (("int", "p"), ("int", "action")), "claim_pay(state, action)",
         "a claim, after its colour cards and locomotives leave the hand: what the mechanic's payment "
         "columns take, or what the claim uses up whoever then holds it (a card that offered a shared claim)"),
    Hook("before_claim_completes", "all", "bint", (("int", "p"), ("int", "r"), ("int", "action")),
         "before_claim_completes(state, action) -> False to hold the claim",
         "a claim, after payment and before the paid cards are discarded: False leaves the claim pending in a "
         "phase of the mechanic, which then holds the payment until it discards it or gives it back"),
    Hook("takes_for_nobody", "any", "bint", (("int", "r"), ("int", "p")),
         "takes_for_nobody(state, route, player) -> bool",
         "legal claims, and a claim as it completes: whether player p's claim of free route r takes it for no "
         "player now (it needs and takes none of their trains, scores no route points, and the route's owner "
         "becomes the value players: taken, by nobody)"),
    Hook("after_claim", "each", "void", (("int", "p"), ("int", "r")), "after_claim(state, route, player)",
         "after a route is owned; may open a phase"),
    Hook("after_nobody_claim", "each", "void", (("int", "p"), ("int", "r")),
         "after_nobody_claim(state, route, player)",
         "after player p's claim took route r for no player (takes_for_nobody; after_claim is not called); "
         "may open a phase"),
    Hook("after_shared_claim", "each", "void", (("int", "p"), ("int", "r")),
         "after_shared_claim(state, route, player)",
         "a claim completes of route r that a player already owns (a shared claim: a mechanic's phase offered it "
         "through the route_claims service, in a variant with a co_owner state field): the owner stays, player "
         "p's trains are placed, and every mechanic filling the hook is called in registry order, as after_claim "
         "is for a claim of a free route (which is not called): the mechanic keeping the co_owner field records "
         "p as a further owner and scores the route for them; any other says what a claim it pays or places "
         "besides does on a shared route (a mountain's crossings, ferry cards committed to the claim)"),
    Hook("claim_withdrawn", "each", "void", (("int", "p"), ("int", "r")), "claim_withdrawn(state, route, player)",
         "a claim a mechanic held (before_claim_completes said False) is given up, through the withdraw_claim "
         "service: what the mechanic's payment columns took (claim_pay) goes back"),
    Hook("end_of_turn", "each", "void", (), "end_of_turn(state)", "the end of a turn, before the market is refilled"),
    Hook("end_triggered", "any", "bint", (("int", "p"),), "end_triggered(state, player) -> bool",
         "the end of a turn: whether player p's turn starts the last round (besides the core's trigger, "
         "their trains at most the end number)"),
    Hook("end_gate", "all", "bint", (), "end_gate(state) -> bool",
         "the end of a turn: whether the conditions a spec joins to the core's trigger hold (end when trains "
         "<= N and …); with any, the core's trigger reads the lowest train supply of all players"),
    Hook("game_over", "each", "void", (), "game_over(state)", "as the game ends"),
    Hook("score_graph", "each", "void", (("int", "p"), ("int*", "network"), ("int*", "row")),
         "score_graph(state, player, network, row)",
         "scoring: player p's network (a union-find over the graph's nodes, first their own routes) before "
         "tickets are checked: a mechanic may join more of it, and fill its items of the row"),
    Hook("ticket_score", "first", "bint", (("int", "p"), ("int", "t"), ("int*", "network"), ("int*", "points"),
                                            ("int*", "completed")),
         "ticket_score(state, player, ticket, network) -> (points, completed[, place]) or None",
         "scoring one ticket a player holds against their network: a mechanic that scores it (a ticket of "
         "several destinations) says what it is worth and whether it counts as completed"),
    Hook("score_player", "each", "void", (("int", "p"), ("int*", "row"), ("int*", "parent"), ("int*", "network")),
         "score_player(state, player, row, network)",
         "scoring: a player's own items, after their routes and tickets (parent: their own routes)"),
    Hook("score_awards", "each", "void", (("int*", "out"),), "score_awards(state, rows)",
         "scoring: bonuses comparing the players, after every player's row"),
)
HOOK_NAMES = tuple(h.name for h in HOOKS)
#: The hooks that score: a mechanic filling one may read its state fields when a described
#: position is scored, so those fields must be part of the position.
SCORING_HOOKS = ("score_graph", "ticket_score", "score_player", "score_awards")
BY_NAME = {h.name: h for h in HOOKS}


class Breakdown(Protocol):
    """What a reference class may read of the variant's assembly: the keys of a score
    breakdown row, in order."""

    @property
    def breakdown_keys(self) -> tuple[str, ...]: ...


class Services(Protocol):
    """The reference interpreter's services to the mechanics (the methods of its ``Rules``,
    railspec.runtime.reference, which sits above this layer): the variant, the locomotive's
    card id, the deck and the market, claims held and completed, the end of a turn, a
    player's network and their tickets on it."""

    variant: ir.Variant
    loco: int
    assembly: Breakdown

    def draw_from_deck(self, state: StateView) -> int: ...
    def refill_market(self, state: StateView) -> None: ...
    def discard_payment(self, state: StateView, colour: int, colour_cards: int, locomotives: int) -> None: ...
    def complete_claim(self, state: StateView, route: ir.Route, player: int) -> None: ...
    def withdraw_claim(self, state: StateView, route: ir.Route, player: int) -> None: ...
    def end_turn(self, state: StateView, passed: bool) -> None: ...
    def route_claimable(self, state: StateView, route: ir.Route, player: int) -> bool: ...
    def route_claims(self, state: StateView, route: ir.Route, player: int) -> list[int]: ...
    def route_owned_by(self, state: StateView, route: ir.Route, player: int) -> bool: ...
    def network(self, state: StateView, player: int) -> list[int]: ...
    def ticket_network(self, state: StateView, player: int, row: dict[str, int]) -> list[int]: ...
    def ticket_result(self, state: StateView, player: int, ticket_id: int, network: list[int]) -> tuple[int, bool]: ...
    def ticket_score(self, state: StateView, player: int, network: list[int]) -> tuple[int, int]: ...
    def nobody_routes(self, state: StateView) -> list[int]: ...
    def join_routes(self, network: list[int], routes: Iterable[ir.Route]) -> None: ...


#: The state a reference class reads: the core's view, or a mechanic's (its ``state_view.py``).
StateT = TypeVar("StateT", bound=StateView)
#: The mechanic's record in the IR.
RuleT = TypeVar("RuleT", bound=ir.Rule)


class MechanicReference(Generic[StateT, RuleT]):
    """A mechanic's rules in the reference interpreter. Subclass it and override the hooks
    the mechanic fills; each method here is the hook's default, which changes nothing.

    ``rules`` is the variant's :class:`railspec.runtime.reference.Rules`, whose services a
    mechanic uses (:class:`Services`): ``variant``, ``loco`` (the locomotive's card id),
    ``draw_from_deck``, ``discard_payment``, ``complete_claim``, ``withdraw_claim``,
    ``end_turn``, ``refill_market``, ``network``, ``ticket_network``, ``ticket_result``,
    ``ticket_score``, ``route_claimable`` (a free route the player may claim, whatever
    their cards and trains), ``route_claims`` (the claims of one route the player could
    make now, whatever its owner), ``route_owned_by`` (the player owns the route, as its
    owner or as a further owner: a shared claim), ``nobody_routes`` (the routes claims took
    for no player) and
    ``join_routes`` (join routes into a network's labels, as ``score_graph`` may).
    ``rule`` is the mechanic's record in the IR.

    The two type parameters say what the hooks read: the state (``StateView``, or the
    mechanic's own view from its ``state_view.py``, which ``make docs`` writes) and the
    rule's class: ``class TunnelsReference(MechanicReference[TunnelsState, TunnelsRule])``.
    The state object is always the interpreter's ``PlainState``; the view only tells the
    type checker which fields it holds."""

    def __init__(self, rules: Services, rule: RuleT):
        self.rules = rules
        self.rule = rule

    def setup_piles(self, state: StateT) -> None:
        """Set-up, after the train and ticket decks are shuffled."""

    def setup_offer(self, state: StateT, player: int) -> None:
        """Set-up, after ``player`` is dealt their regular tickets."""

    def setup_over(self, state: StateT) -> None:
        """Set-up is over (every dealt ticket kept or returned), before the first turn: a
        mechanic may open a phase of its own, and then starts the first turn itself
        (``current`` 0, ``PH_TURN``)."""

    def returned_tickets(self, state: StateT, tickets: list[int], at_setup: bool) -> list[int]:
        """The tickets a player did not keep, about to go under the deck in this order: the
        ones still going there (a mechanic may reorder them or take some)."""
        return tickets

    def route_open(self, state: StateT, route: ir.Route, player: int) -> bool:
        """Whether a free route is open to ``player``."""
        return True

    def payment_ok(self, state: StateT, block: ir.PaymentBlock, player: int) -> bool:
        """Whether a payment block (``ir.PaymentBlock``) of an open route is open to ``player``."""
        return True

    def claim_payable(self, state: StateT, action: ir.Action, player: int) -> bool:
        """Legal claims: whether one claim (an ``ir.Action`` of an open block, whose colour
        cards and locomotives the hand holds) can be paid."""
        return True

    def turn_actions(self, state: StateT) -> list[int]:
        """More legal ids of a turn, ascending."""
        return []

    def phase_legal(self, state: StateT) -> list[int]:
        """The legal ids in one of the mechanic's own phases (``Mechanic.phases``)."""
        raise NotImplementedError(f"{type(self).__name__} declares phases but no phase_legal")

    def apply(self, state: StateT, action: ir.Action) -> None:
        """Play one of the mechanic's own action kinds (``Mechanic.kinds``)."""
        raise NotImplementedError(f"{type(self).__name__} declares action kinds but no apply")

    def route_colour(self, state: StateT, route: ir.Route, colour: int) -> int:
        """The colour ``route`` (free and open to the player) is claimed in now: ``colour``,
        what its printed colour and the mechanics before this one say (``ir.GRAY``: any one
        colour)."""
        return colour

    def after_draw(self, state: StateT, player: int) -> None:
        """``player``'s train card draw is over, before the turn ends; a mechanic may open a
        phase of its own (the turn then ends when it calls ``end_turn``)."""

    def faceup_cost(self, state: StateT, card: int, cost: int) -> int:
        """What taking face-up ``card`` costs of a two-card draw (``cost``: what the core
        and the mechanics before this one say)."""
        return cost

    def market_resets(self, state: StateT, resets: bool) -> bool:
        """Whether the market is discarded and dealt again (``resets``: what the core and
        the mechanics before this one say); False once a reset cannot change it."""
        return resets

    def claim_pay(self, state: StateT, action: ir.Action) -> None:
        """A claim, after its colour cards and locomotives leave the hand: what the
        mechanic's payment columns take, or what the claim uses up whichever mechanic then
        holds it (``before_claim_completes`` stops at the first that holds it)."""

    def before_claim_completes(self, state: StateT, action: ir.Action) -> bool:
        """A claim, after payment and before the paid cards are discarded: False leaves it
        pending in a phase of the mechanic, which then holds the payment."""
        return True

    def takes_for_nobody(self, state: StateT, route: ir.Route, player: int) -> bool:
        """Whether ``player``'s claim of the free ``route`` takes it for no player now: the
        claim then needs and takes none of their trains, scores no route points, and the
        route's owner becomes ``state.players`` (taken, by nobody)."""
        return False

    def after_claim(self, state: StateT, route: ir.Route, player: int) -> None:
        """After ``route`` is owned by ``player``; may open a phase."""

    def after_nobody_claim(self, state: StateT, route: ir.Route, player: int) -> None:
        """After ``player``'s claim took ``route`` for no player (:meth:`takes_for_nobody`);
        may open a phase."""

    def after_shared_claim(self, state: StateT, route: ir.Route, player: int) -> None:
        """After ``player``'s claim of ``route``, which another player owns, placed their
        trains (a shared claim: a mechanic's phase offered it, :meth:`Services.route_claims`,
        in a variant with a ``co_owner`` state field); called in place of
        :meth:`after_claim`, for every mechanic in registry order. The mechanic keeping the
        ``co_owner`` field records them as a further owner and scores the route for them;
        another fills it when what its after_claim does for the claim itself (trains it
        takes besides, a payment it holds) holds for a shared route too. By default a
        shared claim changes nothing of the mechanic's."""

    def claim_withdrawn(self, state: StateT, route: ir.Route, player: int) -> None:
        """A claim of ``route`` that a mechanic held is given up by ``player`` (the
        ``withdraw_claim`` service): give back what :meth:`claim_pay` took."""

    def end_of_turn(self, state: StateT) -> None:
        """The end of a turn, before the market is refilled."""

    def end_triggered(self, state: StateT, player: int) -> bool:
        """Whether ``player``'s turn starts the last round (besides the core's trigger)."""
        return False

    def end_gate(self, state: StateT) -> bool:
        """Whether the conditions the spec joins to the core's end trigger hold (``end when
        trains <= N and …``): the last round starts only while they do."""
        return True

    def game_over(self, state: StateT) -> None:
        """As the game ends."""

    def score_graph(self, state: StateT, player: int, network: list[int], row: dict[str, int]) -> None:
        """Scoring: ``network[node]`` labels the component of each graph node (the
        player's own routes); relabel to join more of it for the tickets."""

    def ticket_score(self, state: StateT, player: int, ticket: int,
                     network: list[int]) -> tuple[int, bool] | tuple[int, bool, int | None] | None:
        """Scoring one ticket: (points, completed) when the mechanic scores it, else None.
        A third element may say which place (a city id, or None) the points are for: the
        per-ticket detail of ``railspec.score(..., tickets=True)`` shows it (a ticket of
        several destinations)."""
        return None

    def score_player(self, state: StateT, player: int, row: dict[str, int], network: list[int]) -> None:
        """Scoring: the player's own items, after their routes and tickets."""

    def score_awards(self, state: StateT, rows: list[dict[str, int]]) -> None:
        """Scoring: bonuses comparing the players."""

    def methods(self) -> dict[str, Callable[..., Any]]:
        """Methods the game offers for the mechanic: name -> callable(state, *args) (the
        compiled engine's are in the mechanic's ``methods.pyx.j2``)."""
        return {}


def filled(reference: type[MechanicReference[Any, Any]]) -> frozenset[str]:
    """The hooks a reference class fills: the methods of :class:`MechanicReference` it overrides."""
    return frozenset(h.name for h in HOOKS if not h.compiled_only
                     and getattr(reference, h.name) is not getattr(MechanicReference, h.name))


def markdown_table() -> str:
    """The hook table of docs/architecture.md."""
    rows = ["| hook | called | chained | compiled function | reference method |", "|---|---|---|---|---|"]
    for h in HOOKS:
        rows.append(f"| `{h.name}` | {h.where} | {h.protocol} | `{h.returns} NAME_{h.name}({h.params})` | "
                    + (f"`{h.call}`" if h.call else "— (the compiled engine's alone)") + " |")
    return "\n".join(rows) + "\n"
