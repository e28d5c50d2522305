"""The required core of a mechanic: what every mechanic is made of.

=======================  ================================================================
part                     what it is
=======================  ================================================================
``name``, ``title``,     its name (a stock mechanic's is its folder's), a line for
``order``                listings, where it comes among the others
``statements``,          its language: node classes of its statements and of the parts it
``limits``               adds to the core's extension points (their rules in its
                         ``grammar.lark``), and the bounds their numbers keep
``rule``, ``check``      its record in the IR and the checker stage that makes it
``state_fields``,        its fields of the state schema (``compiler/base/schema.py``) and
``dimensions``           the sizes they use
``phases``, ``kinds``,   the decision phases and action kinds it adds, its entries of the
``actions``              action catalogue
``tables``               the constants and tables it hands the emitter
``reference``            its reference class (``hooks.MechanicReference``): the hooks it
                         overrides are the hooks it fills; ``engine.pyx.j2`` in its folder
                         holds the same hooks as C functions
``score_items``,         the columns it adds to a score breakdown, the most they add to a
``score_bound``,         total, the tie-break keys it defines
``tiebreaks``
=======================  ================================================================

Everything else is an optional capability (``capabilities.py``), named among the class's
bases and checked by ``contract.py``.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, ClassVar, Generic

from .. import hooks, ir
from ..base.limits import Limit
from ..base.schema import Field
from ..hooks import MechanicReference, RuleT
from ..lang.ast import ActionKind, DealPart, EndPart, Node, RouteAttr, Stmt, TicketForm
from .capabilities import Caches
from .parts import ScoreItem, Tables, TieBreak

#: The package whose subpackages are the stock mechanics, one folder each.
STOCK_PACKAGE = "railspec.mechanics"


class Mechanic(Generic[RuleT]):
    """A mechanic: subclass it in a folder of its own, declare what it adds (each part has a
    default that adds nothing), and it is found by the registry (``registry.discover``).

    ``name`` and ``title`` name it; ``rule`` is its record in the IR (an ``ir.Rule``
    subclass) and :meth:`check` makes it from the spec. Its state fields, decision phases,
    action kinds, score items and tie-break keys are the tuples below; its reference class
    (a :class:`~railspec.compiler.hooks.MechanicReference` subclass) fills the hooks it
    needs in the reference interpreter, and its ``engine.pyx.j2`` the same hooks in the
    compiled engine. ``implemented`` is False while the engines lack the mechanic: a spec
    using it checks, and ``load`` refuses it by name. The optional parts are capabilities
    (``railspec.compiler.mechanic.capabilities``), named among the class's bases.

    The type parameter is the class of its rule, which the methods taking ``rule`` receive;
    the capabilities with such methods take it too: ``class Tunnels(Mechanic[TunnelsRule],
    Drawing[TunnelsRule], Sampled)``. Without it, ``rule`` is untyped."""

    name: ClassVar[str]
    title: ClassVar[str]
    implemented: ClassVar[bool] = True
    #: Where the mechanic comes among the others: the order of their catalogue entries,
    #: state fields and hook calls (then by name). The stock mechanics use 10 to 170, in
    #: steps of 10; a mechanic from elsewhere comes after them unless it says otherwise.
    order: ClassVar[int] = 1000
    rule: ClassVar[type]
    state_fields: ClassVar[tuple[Field, ...]] = ()
    phases: ClassVar[tuple[str, ...]] = ()
    kinds: ClassVar[tuple[str, ...]] = ()
    reference: ClassVar[type[MechanicReference[Any, Any]]] = MechanicReference
    score_items: ClassVar[tuple[ScoreItem, ...]] = ()
    tiebreaks: ClassVar[tuple[TieBreak, ...]] = ()
    #: Compiled-only hooks its engine fills so that random playouts need not list every legal
    #: id of its phases: ``("phase_count", "phase_nth")``, both or neither, for a mechanic
    #: whose phases can offer many ids of which a playout plays one. They decide nothing
    #: (the playout picks the id the list would give it), so the reference does not fill them.
    playout_hooks: ClassVar[tuple[str, ...]] = ()
    #: Its language: the node classes (``lang.ast.Node`` subclasses) of its statements and
    #: of the parts it adds to the core's extension points (route attributes, ticket forms,
    #: deal parts, action kinds); their grammar rules are ``grammar.lark`` in its folder.
    statements: ClassVar[tuple[type[Node], ...]] = ()
    #: The bounds its statements' numbers keep, as docs/language.md's "Limits" lists them;
    #: each is checked where the statement is checked.
    limits: ClassVar[tuple[Limit, ...]] = ()

    def check(self, ctx: Any) -> RuleT | None:
        """The mechanic's checker stage: its record when the spec uses the mechanic, else
        None. ``ctx`` is the checker's ``CheckContext``: read statements with ``ctx.one``,
        ``ctx.all``, ``ctx.action``, ``ctx.routes_with``; report problems with
        ``ctx.errors.add(span, message)``."""
        raise NotImplementedError

    def actions(self, variant: ir.Variant, rule: RuleT) -> list[dict]:
        """Catalogue entries (``dict(kind=…, name=…, …)`` of ``ir.Action`` fields)."""
        return []

    def tables(self, variant: ir.Variant, rule: RuleT) -> Tables:
        """The constants and tables its ``engine.pyx.j2`` reads."""
        return Tables()

    def variant_state_fields(self, variant: ir.Variant, rule: RuleT) -> tuple[Field, ...]:
        """Its state fields in this variant: ``state_fields``, less any it needs only beside
        other mechanics (ferry cards paid towards a claim another mechanic may hold). The
        class's ``state_fields`` lists them all (the documentation's state table)."""
        return self.state_fields

    def variant_phases(self, variant: ir.Variant, rule: RuleT) -> tuple[str, ...]:
        """Its phases in this variant: ``phases``, less any only an option of its statements
        opens (the variants without the option keep the phases they had). The class's
        ``phases`` lists them all."""
        return self.phases

    def variant_kinds(self, variant: ir.Variant, rule: RuleT) -> tuple[str, ...]:
        """Its action kinds in this variant: ``kinds``, less any only an option of its
        statements plays, as :meth:`variant_phases`."""
        return self.kinds

    def dimensions(self, variant: ir.Variant, rule: RuleT) -> dict[str, int]:
        """Sizes the mechanic's state fields use (names of C constants)."""
        return {}

    def score_bound(self, variant: ir.Variant, rule: RuleT) -> int | None:
        """The most its score items that count in the total can add to, or take from, one
        player's total in any game of the variant. The checker adds up the core's and every
        mechanic's bound and refuses a spec whose sum a score could not hold
        (``limits.MAX_SCORE``). 0 for a mechanic that scores nothing; a mechanic that scores
        must override it (None: not known, and then nothing is guaranteed)."""
        return 0 if not any(item.in_total for item in self.variant_score_items(variant, rule)) else None

    def variant_score_items(self, variant: ir.Variant, rule: RuleT) -> tuple[ScoreItem, ...]:
        """The breakdown columns for this variant: ``score_items``, and any that depend on the
        variant (one per company, say)."""
        return self.score_items

    @classmethod
    def filled_hooks(cls) -> frozenset[str]:
        """The hooks it fills: those its reference class overrides; and when it keeps
        derived state fields (the compiled engine's caches), ``derive`` and its upkeep
        hooks (``Caches.upkeep_hooks``); its ``playout_hooks``. Whether these are consistent is the contract's
        check (``contract.contract_problems``)."""
        filled = set(hooks.filled(cls.reference)) | set(cls.playout_hooks)
        if any(f.derived for f in cls.state_fields):
            filled.add("derive")
            if issubclass(cls, Caches):
                filled.update(cls.upkeep_hooks)
        return frozenset(filled)

    @classmethod
    def scoring_hooks(cls) -> frozenset[str]:
        """The scoring hooks its reference fills (``hooks.SCORING_HOOKS``): those that may
        read its state fields when a described position is scored."""
        return frozenset(hooks.filled(cls.reference) & set(hooks.SCORING_HOOKS))

    # --- where the mechanic's files are --------------------------------------------------
    @classmethod
    def folder(cls) -> Path:
        """The folder of the module that defines the mechanic."""
        return Path(sys.modules[cls.__module__].__file__ or ".").resolve().parent

    @classmethod
    def _own(cls, name: str) -> Path | None:
        """The file or folder ``name`` of the nearest class of the mechanic's lineage that
        has one in its folder: a subclass made elsewhere (a test's variation of a stock
        mechanic) keeps its parent's grammar and templates."""
        for klass in cls.__mro__:
            if klass is Mechanic or not (isinstance(klass, type) and issubclass(klass, Mechanic)):
                continue
            path = Path(sys.modules[klass.__module__].__file__ or ".").resolve().parent / name
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
            elif issubclass(node, EndPart):
                out.append(f"end when trains <= N {node.form}")
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
        where = f"{cls.__module__} ({Path(module.__file__ or '.').resolve()})"
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
