"""Mechanics: the unit of change of the Ticket to Ride family.

The core game (train cards and the face-up market, claiming routes, destination tickets,
the end of the game) lives in the compiler's templates and the reference interpreter.
Everything a map adds on top of it is a *mechanic*: tunnels, stations, the longest-path
bonus, double routes… Each mechanic is one package (a folder of ``railspec.mechanics``, or
one of another distribution registered under the ``railspec.mechanics`` entry-point
group) whose ``Mechanic`` subclass declares everything about it in one place.

A mechanic is a contract in two parts:

- **the required core** (:mod:`.core`, :class:`Mechanic`): its language, rule record and
  checker stage, state fields, phases, action kinds and catalogue entries, tables, the
  hooks it fills in both engines (its reference class and ``engine.pyx.j2``), and its
  score items and tie-break keys. Every part has a default that adds nothing;
- **optional capabilities** (:mod:`.capabilities`), each a small protocol the class names
  among its bases: :class:`Payments`, :class:`Caches`, :class:`DescribedPositions`,
  :class:`Invariants`, :class:`Questions`, :class:`AgentRules`, :class:`Drawing`,
  :class:`HardCases`, :class:`Sampled`. Code reads one with :func:`part`, which gives the
  documented defaults when a mechanic lacks it.

:mod:`.contract` checks a class against the contract (nothing is dropped silently: a
capability's member defined without the capability, or misspelt, is a problem), and
``railspec.testing.check_mechanic`` checks its behaviour by playing it. The registry
(:mod:`.registry`) finds the installed mechanics and orders them; both engines call the
mechanics a variant uses at the hook points of ``compiler/hooks.py``, in registry order.

This module is the documented surface for mechanic authors: everything a mechanic's
``__init__.py`` needs from railspec's compiler besides the IR (``compiler/ir.py``), the
state schema (``compiler/base/schema.py``), the language's node classes
(``compiler/lang/ast.py``) and the limits (``compiler/base/limits.py``) is here.
"""
from __future__ import annotations

from ..hooks import HOOKS, MechanicReference
from .capabilities import (
    CAPABILITIES,
    AgentRules,
    Caches,
    Capability,
    DescribedPositions,
    Drawing,
    HardCases,
    Invariants,
    Payments,
    Questions,
    Sampled,
    capabilities_of,
    part,
)
from .contract import RESERVED_POSITION_KEYS, contract_problems, derived_position_fields
from .core import STOCK_PACKAGE, Mechanic
from .names import kind_of, lookup_name, names_in
from .parts import (
    CORE_SCORE_ITEMS,
    CORE_TIEBREAKS,
    LEGEND_KEYS,
    SCORE_MEASURES,
    AgentPlay,
    Looks,
    PositionKey,
    Query,
    Sample,
    ScoreItem,
    Tables,
    TieBreak,
)
from .registry import ENTRY_POINT_GROUP, Registry, default_registry, discover, stock_registry

__all__ = [
    "HOOKS", "MechanicReference", "CAPABILITIES", "AgentRules", "Caches", "Capability", "DescribedPositions",
    "Drawing", "HardCases", "Invariants", "Payments", "Questions", "Sampled", "capabilities_of", "part",
    "RESERVED_POSITION_KEYS", "contract_problems", "derived_position_fields", "STOCK_PACKAGE", "Mechanic",
    "kind_of", "lookup_name", "names_in", "CORE_SCORE_ITEMS", "CORE_TIEBREAKS", "LEGEND_KEYS",
    "SCORE_MEASURES", "AgentPlay", "Looks", "PositionKey", "Query", "Sample", "ScoreItem", "Tables", "TieBreak",
    "ENTRY_POINT_GROUP", "Registry", "default_registry", "discover", "stock_registry",
]
