"""The registry: the mechanics an installation has, in order, found without a list.

The stock mechanics are the subpackages of ``railspec.mechanics`` (a new one is a new
folder); others are distributions registered under the ``railspec.mechanics`` entry-point
group, the way pytest finds its plugins. Each mechanic's contract problems
(``contract.contract_problems``) are kept beside it: a variant using a mechanic with
problems is refused at load, naming them.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from importlib import metadata
from typing import Any

from .. import ir
from ..lang.parse import Language, language
from .capabilities import Questions, part
from .contract import contract_problems
from .core import STOCK_PACKAGE, Mechanic
from .parts import CORE_TIEBREAKS, Query, TieBreak


class Registry:
    """An ordered set of mechanics. The order fixes the catalogue order of their actions,
    the key order of their state fields, and the order in which hooks run."""

    def __init__(self, mechanics: Iterable[Mechanic[Any]]):
        self.mechanics: tuple[Mechanic[Any], ...] = tuple(mechanics)
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

    def __iter__(self) -> Iterator[Mechanic[Any]]:
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
            for query in part(m, Questions).queries:
                if query.name in out:
                    raise ValueError(f"two mechanics answer the query {query.name!r}")
                out[query.name] = (query, m.name in used)
        return out

    def unimplemented(self, variant: ir.Variant) -> list[tuple[Mechanic, ir.Rule]]:
        """The mechanics the variant uses that the engines do not implement yet."""
        return [(m, r) for m, r in self.present(variant) if not m.implemented]

    def problems(self, mechanic: Mechanic) -> list[str]:
        """A mechanic's contract problems (``contract.contract_problems``), found once per
        class and process, when first asked (a start-up checks only what it loads)."""
        return _problems_of(type(mechanic))

    def broken(self, variant: ir.Variant) -> list[tuple[Mechanic, list[str]]]:
        """The mechanics the variant uses that break their contract, with their problems."""
        return [(m, found) for m, _ in self.present(variant) if (found := self.problems(m))]

    def tiebreak(self, name: str) -> TieBreak | None:
        for tb in CORE_TIEBREAKS:
            if tb.name == name:
                return tb
        for m in self.mechanics:
            for tb in m.tiebreaks:
                if tb.name == name:
                    return tb
        return None

    def tiebreak_words(self) -> dict[str, TieBreak]:
        """Every tie-break key of the core and the registry, by the words a spec uses."""
        out = {tb.words: tb for tb in CORE_TIEBREAKS}
        for m in self.mechanics:
            out.update({tb.words: tb for tb in m.tiebreaks})
        return out

#: The entry-point group under which a mechanic distribution registers its ``Mechanic``
#: subclass (``[project.entry-points."railspec.mechanics"]``, the way pytest finds plugins).
ENTRY_POINT_GROUP = "railspec.mechanics"


def _stock_mechanics() -> list[type[Mechanic[Any]]]:
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


def _installed_mechanics() -> list[type[Mechanic[Any]]]:
    """The ``Mechanic`` subclasses other distributions register under :data:`ENTRY_POINT_GROUP`."""
    found = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        cls = entry.load()
        if not (isinstance(cls, type) and issubclass(cls, Mechanic)):
            raise TypeError(f"entry point {entry.name} = {entry.value} ({ENTRY_POINT_GROUP}) is not a Mechanic "
                            f"subclass")
        found.append(cls)
    return found


_PROBLEMS: dict[type[Mechanic[Any]], list[str]] = {}


def _problems_of(cls: type[Mechanic[Any]]) -> list[str]:
    """A class's contract problems, found once per process."""
    if cls not in _PROBLEMS:
        _PROBLEMS[cls] = contract_problems(cls)
    return _PROBLEMS[cls]


def _ordered(classes: Iterable[type[Mechanic[Any]]]) -> Registry:
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


