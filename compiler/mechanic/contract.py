"""The contract a mechanic class keeps, checked once per class without running anything.

:func:`contract_problems` lists what is wrong with a mechanic class: a required part
missing, a capability named without its members or a capability's member defined without
the capability, a method whose parameters are not the documented ones, a public name one
letter away from a member (a misspelt part would otherwise be ignored), hooks its reference
misspells, derived caches declared inconsistently. The registry keeps each mechanic's
problems (``Registry.problems``); loading a variant that uses a mechanic with problems
raises an ``UnsupportedMechanicError`` naming them, and ``railspec mechanics`` lists them.
The behaviour behind the contract (round trips, both engines alike) is checked by playing:
``railspec.testing.check_mechanic``.
"""
from __future__ import annotations

import dataclasses
import difflib
import inspect
from typing import Any

from .. import hooks, ir
from ..base.schema import Field
from ..hooks import MechanicReference
from ..lang.ast import Node
from .capabilities import CAPABILITIES, Caches, Capability, DescribedPositions
from .core import Mechanic

#: The keys of a described position that are not a mechanic's to take: a seat's (the
#: core's) and the position's own.
RESERVED_POSITION_KEYS = frozenset({"routes", "tickets", "name", "players", "variant", "spec_hash", "format"})

#: How close a public name must be to a member's to be taken for a misspelling of it.
_CLOSE = 0.86


def _core_members() -> frozenset[str]:
    return frozenset(name for name in vars(Mechanic) if not name.startswith("_"))


def _defining_class(cls: type, name: str) -> type | None:
    """The first class of ``cls``'s lineage whose own body defines ``name``."""
    return next((klass for klass in cls.__mro__ if name in vars(klass)), None)


def _defines_itself(cls: type, name: str) -> bool:
    """Whether the mechanic defines ``name`` in a class of its own (not a capability's
    default, nor the core's)."""
    owner = _defining_class(cls, name)
    return owner is not None and owner not in CAPABILITIES and owner not in (Capability, Mechanic, object)


def _own_public_names(cls: type) -> set[str]:
    """The public names the mechanic's own classes define (not the core's, nor a
    capability's, nor object's)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is Mechanic or klass is object or klass is Capability or klass in CAPABILITIES:
            continue
        names.update(name for name in vars(klass) if not name.startswith("_"))
    return names


def _positional(function) -> int | None:
    """How many positional parameters a function takes after ``self`` or ``cls`` (None
    when it takes any number)."""
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    return len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])


def _signature_problem(name: str, cls: type, default, where: str) -> str | None:
    """A problem when ``cls``'s method ``name`` does not take the default's parameters."""
    mine = inspect.getattr_static(cls, name, None)
    theirs = inspect.getattr_static(default, name, None)
    if not callable(theirs) or isinstance(theirs, (classmethod, staticmethod)):
        return None
    if isinstance(mine, staticmethod):
        mine_count = _positional(mine.__func__)
        mine_count = None if mine_count is None else mine_count + 1
    elif callable(mine):
        mine_count = _positional(mine)
    else:
        return f"{name} is {type(mine).__name__}, not a method like {where}.{name}{_shown(theirs)}"
    wanted = _positional(theirs)
    if mine_count is not None and wanted is not None and mine_count != wanted:
        return f"{name} takes {mine_count - 1} arguments, {where}.{name}{_shown(theirs)} takes {wanted - 1}"
    return None


def _shown(function) -> str:
    try:
        params = list(inspect.signature(function).parameters)[1:]
    except (TypeError, ValueError):
        return "(…)"
    return "(" + ", ".join(params) + ")"


def _identity_problems(cls: type[Mechanic[Any]]) -> list[str]:
    problems = []
    for required in ("name", "title", "rule"):
        if not isinstance(getattr(cls, required, None), (str, type)):
            problems.append(f"it declares no {required}")
    rule = getattr(cls, "rule", None)
    if isinstance(rule, type):
        if not (dataclasses.is_dataclass(rule) and issubclass(rule, ir.Rule)):
            problems.append(f"its rule {rule.__name__} is not a frozen dataclass subclass of ir.Rule")
        elif getattr(rule, "mechanic", None) != getattr(cls, "name", None):
            problems.append(f"its rule {rule.__name__} says mechanic {getattr(rule, 'mechanic', None)!r}")
    if not (isinstance(cls.reference, type) and issubclass(cls.reference, MechanicReference)):
        problems.append("its reference is not a MechanicReference subclass")
    for node in cls.statements:
        if not (isinstance(node, type) and issubclass(node, Node) and node.rule):
            problems.append(f"statement {node!r} is not a lang.ast node class naming its grammar rule")
    if cls.statements and not cls.grammar():
        problems.append("it has statements but no grammar.lark beside it")
    return problems


def _capability_problems(cls: type[Mechanic[Any]]) -> list[str]:
    problems = []
    for capability in CAPABILITIES:
        has = issubclass(cls, capability)
        members = capability.members()
        defined = [m for m in members if _defines_itself(cls, m)]
        if has:
            missing = [m for m in capability.required if m not in defined]
            if missing:
                problems.append(f"it names the capability {capability.__name__} but does not define "
                                f"{', '.join(missing)}")
            if capability.any_of and not any(m in defined for m in capability.any_of):
                problems.append(f"it names the capability {capability.__name__} but defines none of "
                                f"{', '.join(capability.any_of)}")
            problems += [p for m in defined if (p := _signature_problem(m, cls, capability, capability.__name__))]
        elif defined:
            problems.append(f"it defines {', '.join(defined)}, part of the {capability.__name__} capability "
                            f"({capability.purpose}), without naming the capability: "
                            f"class {cls.__name__}(Mechanic, {capability.__name__}, …)")
    for name in _core_members():
        if _defines_itself(cls, name):
            problem = _signature_problem(name, cls, Mechanic, "Mechanic")
            if problem:
                problems.append(problem)
    return problems


def _misspelling_problems(cls: type[Mechanic[Any]]) -> list[str]:
    known = set(_core_members()).union(*(c.members() for c in CAPABILITIES))
    problems = []
    for name in sorted(_own_public_names(cls) - known):
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=_CLOSE)
        if close:
            problems.append(f"it defines {name}, which is no part of a mechanic: did you mean {close[0]}?")
    return problems


def _reference_problems(cls: type[Mechanic[Any]]) -> list[str]:
    reference = cls.reference
    if not (isinstance(reference, type) and issubclass(reference, MechanicReference)):
        return []
    known = {name for name in dir(MechanicReference) if not name.startswith("_")}
    hook_names = sorted(h.name for h in hooks.HOOKS if not h.compiled_only)
    problems = []
    for klass in reference.__mro__:
        if klass is MechanicReference or klass is object:
            break
        for name in sorted(n for n in vars(klass) if not n.startswith("_")):
            if name in known:
                problem = _signature_problem(name, reference, MechanicReference, "MechanicReference")
                if problem:
                    problems.append(f"its reference's {problem}")
                continue
            close = difflib.get_close_matches(name, hook_names, n=1, cutoff=_CLOSE)
            if close:
                problems.append(f"its reference defines {name}, which is no hook: did you mean {close[0]}?")
    filled = hooks.filled(reference)
    if cls.phases and "phase_legal" not in filled:
        problems.append("it declares phases of its own, and its reference fills no phase_legal to say what is "
                        "legal in them")
    if cls.kinds and "apply" not in filled:
        problems.append("it declares action kinds of its own, and its reference fills no apply to play them")
    if cls.playout_hooks and sorted(cls.playout_hooks) != ["phase_count", "phase_nth"]:
        problems.append(f"its playout hooks are {', '.join(cls.playout_hooks)}: they are phase_count and phase_nth, "
                        f"both (one counts a phase's legal ids, the other picks one)")
    elif cls.playout_hooks and not cls.phases:
        problems.append("it has playout hooks, which count the legal ids of its own phases, and declares no phase")
    return problems


def _cache_problems(cls: type[Mechanic[Any]]) -> list[str]:
    if not issubclass(cls, Caches):
        return []
    problems = []
    derived = [f for f in cls.state_fields if f.derived]
    if cls.upkeep_hooks and not derived:
        problems.append("it has upkeep hooks (Caches.upkeep_hooks), which keep derived state fields, and declares "
                        "none")
    for name in cls.upkeep_hooks:
        if hooks.BY_NAME.get(name) is None or hooks.BY_NAME[name].protocol != "each":
            problems.append(f"upkeep hook {name!r} is not a hook whose functions are each called in turn (they "
                            f"may keep caches, not decide)")
    if cls.closed_routes:
        found = next((f for f in cls.state_fields if f.name == cls.closed_routes), None)
        if found is None or not (found.derived and found.per_player and found.kind == "u64"
                                 and found.size == "ROUTE_WORDS"):
            problems.append(f"closed_routes names {cls.closed_routes!r}, which is not one of its derived state "
                            f"fields of kind u64, per player, of size ROUTE_WORDS")
        if "route_open" not in hooks.filled(cls.reference):
            problems.append("closed_routes holds what route_open refuses, and its reference does not fill "
                            "route_open")
    return problems


def derived_position_fields(cls: type[Mechanic[Any]]) -> tuple[Field, ...]:
    """The state fields a described position carries for a mechanic without the
    :class:`DescribedPositions` capability: when its scoring hooks may read its state
    (``Mechanic.scoring_hooks``), every field of its own that is not a cache
    (``derived``) nor a claim under way (``pending_claim``), each under its own name; else
    none."""
    if issubclass(cls, DescribedPositions) or not cls.scoring_hooks():
        return ()
    return tuple(f for f in cls.state_fields if not f.derived and not f.pending_claim)


def _position_problems(cls: type[Mechanic[Any]]) -> list[str]:
    if issubclass(cls, DescribedPositions):
        keys = [key.name for key in cls.position_keys]
    else:
        keys = [f.name for f in derived_position_fields(cls)]
    taken = sorted(set(keys) & RESERVED_POSITION_KEYS)
    if taken:
        return [f"its position key {taken[0]!r} is one of the core's ({', '.join(sorted(RESERVED_POSITION_KEYS))})"]
    return []


def _co_owner_problems(cls: type[Mechanic[Any]]) -> list[str]:
    """A further owner's field (``Field.co_owner``) is recorded by its mechanic as a shared
    claim completes, and a described position carries it (the trains on shared routes)."""
    fields = [f.name for f in cls.state_fields if f.co_owner]
    if not fields:
        return []
    problems = []
    if "after_shared_claim" not in hooks.filled(cls.reference):
        problems.append(f"it keeps a further owner's field ({fields[0]}), and its reference fills no "
                        f"after_shared_claim to record the claimer of a shared claim in it")
    if not issubclass(cls, DescribedPositions) and fields[0] not in {f.name for f in derived_position_fields(cls)}:
        problems.append(f"its further owner's field {fields[0]} is no part of a described position (fill a "
                        f"scoring hook that reads it, or describe positions): their trains would be lost")
    return problems


def contract_problems(cls: type[Mechanic[Any]]) -> list[str]:
    """Everything wrong with a mechanic class by its contract, as messages that name the
    part (empty when it keeps it)."""
    if not (isinstance(cls, type) and issubclass(cls, Mechanic)):
        return [f"{cls!r} is not a Mechanic subclass"]
    problems = _identity_problems(cls)
    for check in (_capability_problems, _misspelling_problems, _reference_problems, _cache_problems,
                  _position_problems, _co_owner_problems):
        problems += check(cls)
    return problems
