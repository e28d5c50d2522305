"""The observation vector: one fixed-length float32 vector per player (docs/rl.md), its
layout and its fill in Python.

The layout is derived from the state schema, field by field, the way ``observation()``
is: a field's view says what a player may see of it, and its bounds say how to write it
as numbers. Nothing is listed by hand, so a mechanic's public fields reach the tensor
with no code here. The rules, in the order they are tried for each value:

- a ``phase`` is a one-hot over the variant's phases;
- a value bounded by ``players-1`` names a seat; one bounded by ``players+k`` a seat or
  one of ``k`` owners beyond the seats (Pennsylvania's neutral shareholder). Seats are
  written relative to the observer: category 0 is the observer, category ``k`` the
  player ``k`` seats after them, up to the variant's largest table; then the extra
  owners; then "none" when the field may hold -1;
- train cards (a ``card_ids`` pile) are counted per card; a count per card (a
  ``card_counts`` pile) is divided by the copies of that card in the game, so both lie
  in [0, 1];
- ids bounded by ``N_X-1`` (tickets, routes, cities) are a one-hot over the ``N_X`` ids
  (plus "none" when the field may hold -1); a list of at most :data:`SLOT_LIMIT` ids is
  written slot by slot (the keep actions name offer slots, so the order matters), a
  longer one as a multi-hot (a count per id);
- any other number is divided by its upper bound (taken at the largest table); a
  counter without a real bound (over :data:`OPEN_BOUND`: turns, decisions) is written as
  ``n / (n + OPEN_SCALE)``, which stays below 1 however long the game; a number that may
  be -1 gets a flag "unset" before it;
- a per-player field has one row per seat, relative to the observer (row 0 the
  observer's), padded to the variant's largest table with zeros;
- what the player may not see is left out: a hidden field contributes only its public
  summary (the deck's size), an ``own`` field the observer's own entry plus everyone's
  summary (hand sizes, ticket counts), a ``decider`` field (an offer being chosen from)
  zeros unless the observer is deciding.

The layout depends on the variant only, not on the number of players, so one network
serves every table size. :func:`observation_spec` names every slice.

The compiled engine fills the same vector in C (``Game.observation_into``): the emitter
reads :func:`assembly_plan` and generates the fill from it, so the layout has one
definition. The Python fill below (:func:`fill`) serves the reference engine and exported
states, and is what the compiled one is tested against.

numpy is needed to fill vectors in Python but not by the core: the layout itself
(:func:`assembly_plan`) needs no numpy, since the emitter reads it for every variant it
compiles. The RL adapters (``railspec.rl``, whose extras all bring numpy) wrap the fill
in :class:`railspec.rl.tensor.ObservationEncoder`.
"""
from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass
from typing import Any

from .base import schema
from .base.errors import RailspecError


def numpy() -> Any:
    """numpy, imported on first use (filling vectors in Python needs it; the layout does not,
    and the core install has none), or None when it is not installed."""
    global _numpy
    if _numpy is False:
        module: Any
        try:
            import numpy as module
        except ImportError:  # the core install
            module = None
        _numpy = module
    return _numpy


_numpy: Any = False  # not looked for yet

#: Lists of ids at most this long are written slot by slot; longer ones as a multi-hot.
SLOT_LIMIT = 8
#: Rows of categories at least this long are written with numpy (see _CategoricalPart).
DIRECT_ROW = 16
#: A bound above this is a counter without a real bound (turns, decisions) ...
OPEN_BOUND = 1_000_000
#: ... and is written as n / (n + OPEN_SCALE) instead (a half at OPEN_SCALE).
OPEN_SCALE = 200.0

_ID_BOUND = re.compile(r"^(?P<dim>[A-Z][A-Z0-9_]*)\s*-\s*1$")
_SEAT_BOUND = re.compile(r"^players\s*(?:(?P<sign>[+-])\s*(?P<k>\d+))?$")


class ObservationError(RailspecError, ValueError):
    """A request the observation encoder cannot serve: a player outside the game, a state
    of another variant, an output buffer of the wrong shape or type."""


@dataclass(frozen=True)
class Slice:
    """One named part of the observation vector: ``vector[start:start + length]``,
    which reshapes to ``shape``."""

    name: str
    start: int
    length: int
    shape: tuple
    meaning: str
    field: str  # the schema field it is made from
    private: bool = False  # only the observer may see it (their own entry, an offer to them)

    @property
    def stop(self) -> int:
        return self.start + self.length


class ObservationSpec:
    """The layout of a variant's observation vector: its ``size`` and every
    :class:`Slice` in order (``spec["owner"]``, ``for s in spec``)."""

    def __init__(self, variant_key: str, slices: tuple, seats: int):
        self.variant = variant_key
        self.slices = slices
        self.seats = seats
        self.size = slices[-1].stop if slices else 0
        self._by_name = {s.name: s for s in slices}

    def __getitem__(self, name: str) -> Slice:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"the {self.variant} observation has no slice {name!r} "
                           f"(slices: {', '.join(self._by_name)})") from None

    def __iter__(self):
        return iter(self.slices)

    def __len__(self) -> int:
        return len(self.slices)

    def __contains__(self, name) -> bool:
        return name in self._by_name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.slices)

    def view(self, vector, name: str):
        """The part of ``vector`` that slice ``name`` covers, in its shape (a view, not
        a copy)."""
        s = self[name]
        return numpy().asarray(vector)[s.start:s.stop].reshape(s.shape)

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/rl.md shows USA's)."""
        rows = ["| slice | start | length | shape | seen by | meaning |", "|---|---|---|---|---|---|"]
        for s in self.slices:
            rows.append(f"| `{s.name}` | {s.start} | {s.length} | {' × '.join(map(str, s.shape))} | "
                        f"{'the observer' if s.private else 'all'} | {s.meaning} |")
        return "\n".join(rows) + "\n"

    def __repr__(self) -> str:
        return f"<ObservationSpec {self.variant}: {self.size} floats in {len(self.slices)} slices>"


# --- how one value is written ------------------------------------------------------------
#
# Filling works on plain Python lists: each part appends the positions it sets and their
# values, and one numpy assignment writes them all. The vectors are small and sparse, and
# a numpy call per field would cost more than the Python loop it replaces.

_PLUS_ONE = (1).__add__


class _Categories:
    """A categorical value: ``count`` categories, and ``table(player, players)``, what
    maps a value to its category (-1: nothing written, an empty slot)."""

    #: in a count per category, what one value adds (cards: one over their copies)
    weights: list[float] | None = None

    def __init__(self, count: int, labels: str):
        self.count = count
        self.labels = labels

    def table(self, player: int, players: int) -> list[int]:
        """The category of value ``v`` at index ``v + 1`` (v from -1), for the observer
        ``player``; the phases are written by their index instead."""
        raise NotImplementedError


class _Seats(_Categories):
    def __init__(self, seats: int, extras: int, none: bool):
        self.seats, self.extras, self.none = seats, extras, none
        names = ["me"] + [f"+{k}" for k in range(1, seats)]
        names += ["value players" if k == 0 else f"value players+{k}" for k in range(extras)]
        names += ["none"] if none else []
        super().__init__(seats + extras + (1 if none else 0),
                         "seats relative to the observer [" + ", ".join(names) + "]")
        self._tables: dict = {}

    def table(self, player: int, players: int) -> list[int]:
        """The category of value ``v`` at index ``v + 1`` (v from -1)."""
        key = (player, players)
        table = self._tables.get(key)
        if table is None:
            table = [self.seats + self.extras if self.none else -1]
            table += [(v - player) % players for v in range(players)]
            table += [self.seats + k for k in range(self.extras)]
            self._tables[key] = table
        return table


class _Ids(_Categories):
    def __init__(self, count: int, what: str, none: bool, weights: list[float] | None = None):
        self.ids, self.none = count, none
        self.weights = weights
        super().__init__(count + (1 if none else 0), f"{what} ids 0..{count - 1}" + (", then none" if none else ""))
        # -1 is none when the field may hold it, else an empty slot (nothing written)
        self._table = [count if none else -1] + list(range(count))

    def table(self, player: int, players: int) -> list[int]:
        return self._table


class _Phases(_Categories):
    def __init__(self, phases: tuple):
        self.index = {name: i for i, name in enumerate(phases)}
        super().__init__(len(phases), "phases [" + ", ".join(phases) + "]")


@dataclass
class _Number:
    """A number written as ``value * scale`` (``scale`` a list per entry for a row), with
    a flag before it when the value may be -1."""

    scale: object
    flag: bool
    what: str
    saturating: bool = False  # n / (n + OPEN_SCALE) instead of n * scale


# --- parts: each writes its slice from a state -------------------------------------------

class _Part:
    slice: Slice

    def emit(self, state: dict, player: int, players: int, idx: list, val: list, out) -> None:
        """Append the positions this part sets to ``idx`` and their values to ``val`` (or
        write them into ``out`` directly)."""
        raise NotImplementedError


def _rotated(rows: list, player: int, players: int) -> list:
    """The rows of a per-player field with the observer's first."""
    return rows[player:players] + rows[:player]


class _CategoricalPart(_Part):
    """Categories of a scalar (one-hot), a row (one-hot per entry), a list written slot by
    slot, or a list written as a count per category; per player: a block per seat."""

    def __init__(self, sl: Slice, key: str, cats: _Categories, shape_kind: str, entries: int, per_player: bool,
                 take_own: bool):
        self.slice, self.key, self.cats, self.kind = sl, key, cats, shape_kind
        self.per_player, self.take_own = per_player, take_own
        self.block = entries * cats.count if shape_kind in ("scalar", "row", "slots") else cats.count
        self.phases = isinstance(cats, _Phases)
        self.phase_index = cats.index if isinstance(cats, _Phases) else None
        self.offsets = [sl.start + r * cats.count for r in range(entries)]
        # a long row (a route's owner, a city's station) is written with numpy, straight
        # into the output: cheaper than a Python position per entry
        self.direct = shape_kind == "row" and not per_player and entries >= DIRECT_ROW
        if self.direct:
            self.offsets_np: Any = None  # made at the first fill (the layout needs no numpy)
            self.entries = entries
            self._np_tables: dict = {}

    def _one(self, value, table, base: int, idx: list, val: list) -> None:
        if self.phase_index is not None:
            idx.append(base + self.phase_index[value])
            val.append(1.0)
            return
        kind = self.kind
        if kind == "scalar":
            c = table[value + 1]
            if c >= 0:
                idx.append(base + c)
                val.append(1.0)
            return
        if kind == "counts":
            counts: dict = {}
            for v in value:
                c = table[v + 1]
                if c >= 0:
                    counts[c] = counts.get(c, 0) + 1
            weights = self.cats.weights
            for c, k in counts.items():
                idx.append(base + c)
                val.append(k * weights[c] if weights is not None else float(k))
            return
        # row or slots: map() keeps the loops in C (a route table is the largest part)
        cats = list(map(table.__getitem__, map(_PLUS_ONE, value)))
        offsets = self.offsets if base == self.slice.start else [o + base - self.slice.start for o in self.offsets]
        if -1 in cats:
            before = len(idx)
            idx.extend(o + c for o, c in zip(offsets, cats) if c >= 0)
            val.extend([1.0] * (len(idx) - before))
        else:
            idx.extend(map(operator.add, offsets, cats))
            val.extend([1.0] * len(cats))

    def emit(self, state, player, players, idx, val, out):
        value = state[self.key]
        if self.take_own:
            value = value[player]
        table = None if self.phases else self.cats.table(player, players)
        if self.direct:
            np = numpy()
            if self.offsets_np is None:
                self.offsets_np = np.asarray(self.offsets, dtype=np.intp)
            key = (player, players)
            lookup = self._np_tables.get(key)
            if lookup is None:
                lookup = self._np_tables[key] = np.asarray(table, dtype=np.intp)
            cats = lookup[np.fromiter(value, dtype=np.intp, count=self.entries) + 1]
            if lookup[0] < 0:  # -1 is an empty entry here: nothing written for it
                keep = cats >= 0
                out[self.offsets_np[keep] + cats[keep]] = 1.0
            else:
                out[self.offsets_np + cats] = 1.0
            return
        start = self.slice.start
        if self.per_player:
            block = self.block
            for rel, row in enumerate(_rotated(value, player, players)):
                self._one(row, table, start + rel * block, idx, val)
        else:
            self._one(value, table, start, idx, val)


class _NumberPart(_Part):
    """Numbers: a scalar, a row (one per entry), a list's length, or a per-player value
    (one per seat, relative); each times its scale, a flag before it when it may be -1."""

    def __init__(self, sl: Slice, key: str, number: _Number, shape_kind: str, per_player: bool,
                 take_own: bool, summary: str | None = None):
        self.slice, self.key, self.number, self.kind = sl, key, number, shape_kind
        self.per_player, self.take_own, self.summary = per_player, take_own, summary
        self.row = shape_kind == "row"
        self.scales = number.scale if isinstance(number.scale, list) else None

    def _values(self, state, player, players) -> list:
        """The numbers to write, flat, in slice order."""
        value = state[self.key]
        if self.take_own:
            value = value[player]
        summary = self.summary
        if self.per_player:
            value = _rotated(value, player, players)
            if summary == "len" or self.kind == "length":
                return [len(v) for v in value]
            if summary == "sum":
                return [sum(v) for v in value]
            if self.row:
                return [x for row in value for x in row]
            return value
        if summary == "len" or self.kind == "length":
            return [len(value)]
        if summary == "sum":
            return [sum(value)]
        return value if self.row else [value]

    def emit(self, state, player, players, idx, val, out):
        values = self._values(state, player, players)
        start, number = self.slice.start, self.number
        if not number.flag:
            if self.scales is not None:
                scales, n = self.scales, len(self.scales)
                for i, v in enumerate(values):
                    if v:
                        idx.append(start + i)
                        val.append(v * scales[i % n])
            elif number.saturating:
                for i, v in enumerate(values):
                    if v:
                        idx.append(start + i)
                        val.append(v / (v + OPEN_SCALE))
            else:
                scale = number.scale
                for i, v in enumerate(values):
                    if v:
                        idx.append(start + i)
                        val.append(v * scale)
            return
        # a value that may be -1: a flag "unset", then the value when set
        scale = number.scale
        for i, v in enumerate(values):
            if v < 0:
                idx.append(start + 2 * i)
                val.append(1.0)
            elif v:
                idx.append(start + 2 * i + 1)
                val.append(v * scale)


class _DeciderPart(_Part):
    """A field the player about to decide sees (an offer): written only for them."""

    def __init__(self, inner: _Part):
        self.inner = inner
        self.slice = inner.slice

    def emit(self, state, player, players, idx, val, out):
        if state["current"] == player and state["phase"] not in (schema.PH_OVER, schema.PH_SETUP_KEEP):
            self.inner.emit(state, player, players, idx, val, out)


# --- the layout ---------------------------------------------------------------------------

class _Builder:
    """Walks the variant's exported fields and lays out the parts."""

    def __init__(self, assembly):
        self.ir = assembly.variant
        self.dims = assembly.dims
        self.phases = assembly.phases
        self.seats = self.ir.max_players
        self.parts: list[_Part] = []
        self.offset = 0
        copies = [c.count for c in self.ir.colours] + [self.ir.locomotives]
        self.card_scale = [1.0 / max(1, c) for c in copies]
        for field in assembly.exported_fields:
            self._field(field)

    # what a value is
    def _high(self, field: schema.Field) -> int:
        return schema.bound_value(field.high, self.dims, self.seats)

    def _categories(self, field: schema.Field) -> _Categories | None:
        if field.kind == "phase":
            return _Phases(self.phases)
        m = _SEAT_BOUND.match(field.high)
        if m and (m.group("sign") == "-" and m.group("k") == "1" or m.group("sign") == "+"):
            # players+k: the values players .. players+k are k+1 owners beyond the seats
            extras = int(m.group("k")) + 1 if m.group("sign") == "+" else 0
            return _Seats(self.seats, extras, none=field.low == "-1")
        if field.pile == schema.CARD_IDS:
            return _Ids(self.dims["N_CARDS"], "card", none=False, weights=self.card_scale)
        m = _ID_BOUND.match(field.high)
        if m and m.group("dim") in self.dims and field.pile != schema.CARD_COUNTS:
            what = {"N_TICKETS": "ticket", "N_ROUTES": "route", "N_CITIES": "city"}.get(
                m.group("dim"), m.group("dim").lower())
            return _Ids(self.dims[m.group("dim")], what, none=field.low == "-1" and not field.is_list)
        return None

    def _number(self, field: schema.Field) -> _Number:
        if field.pile == schema.CARD_COUNTS:
            return _Number(self.card_scale, False, "a count per card, over the copies of that card")
        high = self._high(field)
        if field.kind == "u64":
            return _Number(1.0 / 2.0**64, False, "over 2^64")
        if high > OPEN_BOUND:
            return _Number(1.0, False, f"as n / (n + {OPEN_SCALE:g})", saturating=True)
        else:
            scale, what = 1.0 / max(1, high), f"over {high}"
        flag = field.low.startswith("-")
        return _Number(scale, flag, ("a flag 'unset' (-1), then the value " if flag else "the value ") + what)

    # slices
    def _add(self, name: str, shape: tuple, meaning: str, field: schema.Field, private: bool = False) -> Slice:
        length = math.prod(shape)
        sl = Slice(name, self.offset, length, tuple(int(d) for d in shape), meaning, field.name, private)
        self.offset += length
        return sl

    def _value_part(self, name: str, field: schema.Field, per_player: bool, take_own: bool, doc: str,
                    private: bool = False) -> _Part:
        """The part writing one field's value (or the observer's own row of it)."""
        cats = self._categories(field)
        seats = (self.seats,) if per_player else ()
        where = "per seat relative to the observer; " if per_player else ""
        if cats is not None:
            if field.is_scalar:
                kind, entries, shape = "scalar", 1, seats + (cats.count,)
                how = f"one-hot over {cats.labels}"
            elif field.size:
                entries = self.dims[field.size]
                if field.pile == schema.CARD_IDS:
                    kind, shape = "counts", seats + (cats.count,)
                    how = f"a count per card id 0..{cats.count - 1}, over the copies of that card"
                else:
                    kind, shape = "row", seats + (entries, cats.count)
                    how = f"one-hot per entry ({field.size}) over {cats.labels}"
            else:
                entries = self.dims[field.cap]
                if field.pile != schema.CARD_IDS and entries <= SLOT_LIMIT:
                    kind, shape = "slots", seats + (entries, cats.count)
                    how = f"one-hot per slot (up to {entries}) over {cats.labels}"
                else:
                    kind, shape = "counts", seats + (cats.count,)
                    how = f"a count per card id 0..{cats.count - 1}, over the copies of that card" \
                        if field.pile == schema.CARD_IDS \
                        else f"a multi-hot (a count per id) over {cats.labels}"
            sl = self._add(name, shape, f"{doc}: {where}{how}", field, private)
            return _CategoricalPart(sl, field.name, cats, kind, entries, per_player, take_own)
        number = self._number(field)
        flag = (2,) if number.flag else ()
        if field.is_scalar:
            kind, shape = "scalar", seats + flag
        elif field.size:
            kind, shape = "row", seats + (self.dims[field.size],) + flag
        else:
            # a list of plain numbers: only its length is a fixed-size fact
            cap = self.dims[field.cap]
            kind, shape, number = "length", seats, _Number(1.0 / cap, False, f"its length over {cap}")
        shape = shape or (1,)
        sl = self._add(name, shape, f"{doc}: {where}{number.what}", field, private)
        return _NumberPart(sl, field.name, number, kind, per_player, take_own)

    def _summary_part(self, field: schema.Field) -> _Part:
        view = field.view
        if view.summary is None:
            raise ValueError(f"field {field.name}: no summary to show")
        seats = (self.seats,) if field.per_player else ()
        if view.summary_of == "len":
            bound = self.dims[field.cap] if field.cap else self.dims[field.size]
            what = "the number of entries"
        else:
            bound = self.dims["CARD_TOTAL"] if field.pile == schema.CARD_COUNTS else \
                self._high(field) * (self.dims[field.size] if field.size else 1)
            what = "the sum of the entries"
        where = "per seat relative to the observer, " if field.per_player else ""
        sl = self._add(view.summary, seats or (1,), f"{field.doc}: {where}{what} over {bound}", field)
        return _NumberPart(sl, field.name, _Number(1.0 / max(1, bound), False, ""), "scalar", field.per_player,
                           False, summary=view.summary_of)

    def _field(self, field: schema.Field) -> None:
        view = field.view
        if view.kind == "public":
            self.parts.append(self._value_part(field.name, field, field.per_player, False, field.doc))
        elif view.kind == "own":
            self.parts.append(self._value_part(view.alias or field.name, field, False, True,
                                               f"the observer's own entry of: {field.doc}", private=True))
        elif view.kind == "decider":
            inner = self._value_part(view.alias or field.name, field, field.per_player, False,
                                     f"{field.doc}, shown to the player deciding on it only (zeros otherwise)",
                                     private=True)
            self.parts.append(_DeciderPart(inner))
        if view.summary:
            self.parts.append(self._summary_part(field))


_CACHE: dict = {}


def layout_of(assembly) -> _Builder:
    """The layout of an assembled variant, built once per variant."""
    built = _CACHE.get(assembly.variant)
    if built is None:
        built = _CACHE[assembly.variant] = _Builder(assembly)
    return built


def observation_spec(assembly) -> ObservationSpec:
    """The layout of an assembled variant's observation vector: every slice's name, start,
    length, shape and meaning, in order."""
    b = layout_of(assembly)
    return ObservationSpec(assembly.variant.key, tuple(p.slice for p in b.parts), b.seats)


def fill(assembly, state: dict, player: int, out=None):
    """The observation vector of ``player`` from a full state (``game.state()``) of the
    assembled variant, written into ``out`` (a float32 numpy vector of the layout's size,
    zeroed here) when given, else into a new one. Needs numpy."""
    np = numpy()
    if np is None:
        raise ImportError("filling observation vectors in Python needs numpy (any of the extras "
                          "openspiel, pettingzoo, gymnasium brings it); a compiled game's "
                          "observation_into does not", name="numpy")
    variant = assembly.variant
    layout = layout_of(assembly)
    size = layout.offset
    if state.get("spec_hash") != variant.spec_hash:
        raise ObservationError(f"a state of {state.get('variant')!r} (spec {state.get('spec_hash')!r}) is "
                               f"not a state of {variant.key} (spec {variant.spec_hash})")
    players = state["players"]
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
        raise ObservationError(f"no player {player!r} in a {players}-player game")
    player = int(player)
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    elif not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (size,):
        raise ObservationError(f"an observation buffer is a float32 numpy vector of {size}, "
                               f"not {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
    else:
        out.fill(0.0)
    idx: list = []
    val: list = []
    for part in layout.parts:
        part.emit(state, player, players, idx, val, out)
    out[idx] = val
    return out


def assembly_plan(assembly) -> list[dict]:
    """The layout as plain data, a dict per slice in order: what a generated fill (the
    compiled engine's, reading its C struct, whose fields carry the schema's names, a
    list's length in ``<field>_n``) needs to write the same vector as :class:`ObservationEncoder`.

    Keys: ``slice``, ``field`` (the state field read), ``start``, ``length``;
    ``source``: ``value`` (the field itself), ``own`` (the observer's row of a per-player
    field), ``decider`` (written only when the observer decides: ``current == player`` and
    the phase neither ``over`` nor ``setup_keep``), ``summary`` (``len`` or ``sum`` of the
    field, ``summary_of``); ``per_player`` (a block per seat, the observer's first, then the
    seats after it; ``block`` floats each); ``shape`` (``scalar``, ``row``, ``slots``,
    ``counts``, ``length``); ``encoding``: ``number`` (value × ``scale``, a float or a list
    per entry), ``saturating`` (n / (n + ``open_scale``)), ``flagged`` (two floats: 1 when
    the value is -1, else value × ``scale`` in the second), ``phase`` (one-hot of the phase
    id), ``seat`` (category ``(v - player) mod players`` for a seat, ``seats + v - players``
    for the owners beyond them, ``seats + extras`` for -1 when ``none``), ``id`` (category
    ``v``; -1 is ``ids`` when ``none``, else nothing is written), with ``categories`` per
    entry and, for ``counts`` of cards, ``weights`` (what one card adds)."""
    plan = []
    for part in layout_of(assembly).parts:
        decider = isinstance(part, _DeciderPart)
        inner = part.inner if isinstance(part, _DeciderPart) else part
        assert isinstance(inner, (_CategoricalPart, _NumberPart))  # the parts the layout makes
        sl = inner.slice
        entry = {"slice": sl.name, "field": inner.key, "start": sl.start, "length": sl.length,
                 "per_player": inner.per_player, "shape": inner.kind}
        if decider:
            entry["source"] = "decider"
        elif isinstance(inner, _NumberPart) and inner.summary:
            entry["source"], entry["summary_of"] = "summary", inner.summary
        else:
            entry["source"] = "own" if inner.take_own else "value"
        if isinstance(inner, _CategoricalPart):
            cats = inner.cats
            entry["categories"] = cats.count
            entry["block"] = inner.block
            if isinstance(cats, _Phases):
                entry["encoding"] = "phase"
            elif isinstance(cats, _Seats):
                entry.update(encoding="seat", seats=cats.seats, extras=cats.extras, none=cats.none)
            else:
                assert isinstance(cats, _Ids)  # the third kind of categories
                entry.update(encoding="id", ids=cats.ids, none=cats.none)
                if cats.weights is not None:
                    entry["weights"] = list(cats.weights)
        else:
            number = inner.number
            entry["block"] = sl.length // sl.shape[0] if inner.per_player else sl.length
            if number.saturating:
                entry.update(encoding="saturating", open_scale=OPEN_SCALE)
            else:
                entry.update(encoding="flagged" if number.flag else "number", scale=number.scale)
        plan.append(entry)
    return plan
