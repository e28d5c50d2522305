# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, nonecheck=False, overflowcheck=False, embedsignature=False, binding=False
"""The Python face of every compiled engine, compiled once with railspec.

A variant's generated module holds its tables and its rules in C (set-up, legal moves,
transitions, scoring, playouts), and hands them out as one table of C functions and sizes
(``railspec_engine_api``, compiler/templates/engine_api.h). Everything a Python caller
meets is here, the same for every variant: the ``Engine`` class (argument checks, Python
objects in and out, the state as plain data, the error messages) and ``playout``. A
variant's module binds them with a :class:`Variant` (its ``Engine``, with its mechanics'
methods); so a user's spec compiles only its own C, not this.
"""

cimport cython
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from cpython.mem cimport PyMem_Calloc, PyMem_Malloc, PyMem_Free
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_C_CONTIGUOUS
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from cpython.object cimport PyTypeObject
import gc as _gc
import sys as _sys
from operator import index as _index
from types import MethodType as _MethodType

cdef extern from "Python.h":
    void PyType_Modified(PyTypeObject* type)

from railspec.compiler.base.errors import IllegalActionError

from engine_api cimport (RAILSPEC_ENGINE_API_NAME, RAILSPEC_ENGINE_API_VERSION, RAILSPEC_ENGINE_STATE_NAME,
                         RF_PHASE, RF_U64, RF_SCALAR, RF_FIXED, RF_LIST, RF_CARD_COUNTS, RF_CARD_IDS, RF_TICKETS,
                         railspec_engine_api, railspec_field)

_U64 = 1 << 64
_LITTLE = _sys.byteorder == "little"

cdef class Variant:
    """One variant's engine as the face sees it: its table of C functions (a capsule from
    its module), the Python constants its states and breakdowns name, and a scratch buffer
    for C calls that need one (``is_legal``'s), used only within one C call: the GIL is held
    throughout, and no Python code runs between filling and reading it. A method that turns
    a buffer into Python objects uses its own (:func:`_buffer`): making objects may start a
    collection, whose finalisers may let another thread in."""

    cdef const railspec_engine_api* api
    cdef readonly object capsule
    cdef readonly str state_format, key, spec_hash
    cdef readonly tuple phases, breakdown_keys, field_names
    cdef readonly dict phase_ids
    cdef readonly object rebuild
    cdef readonly dict methods
    cdef int* scratch
    cdef int offer_field, offer_keep_field

    def __cinit__(self, capsule, str state_format, str key, str spec_hash, tuple phases, tuple breakdown_keys,
                  tuple field_names, rebuild, dict methods):
        cdef const railspec_engine_api* api = <const railspec_engine_api*>PyCapsule_GetPointer(
            capsule, RAILSPEC_ENGINE_API_NAME)
        if api.version != RAILSPEC_ENGINE_API_VERSION:
            raise ImportError(f"the engine speaks interface {api.version}, railspec "
                              f"{RAILSPEC_ENGINE_API_VERSION}: rebuild the engine")
        if len(field_names) != api.n_fields:
            raise ImportError(f"the engine has {api.n_fields} state fields, its names {len(field_names)}")
        self.api = api
        self.capsule = capsule
        self.state_format = state_format
        self.key = key
        self.spec_hash = spec_hash
        self.phases = phases
        self.phase_ids = {name: i for i, name in enumerate(phases)}
        self.breakdown_keys = breakdown_keys
        self.field_names = field_names
        self.rebuild = rebuild
        self.methods = methods
        for name in methods:
            _offer_method(name)
        self.offer_field = field_names.index("offer")
        self.offer_keep_field = field_names.index("offer_keep")
        self.scratch = <int*>PyMem_Calloc(api.n_actions + 1, sizeof(int))
        if self.scratch == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.scratch)

    def __call__(self, int players, seed):
        """A new game of ``players`` seats, set up from ``seed`` (docs/engine.md)."""
        cdef Engine game
        if players < self.api.np_min or players > self.api.np_max:
            raise ValueError(f"this variant is for {self.api.np_min} to {self.api.np_max} players, not {players}")
        game = Engine.__new__(Engine, self)
        self.api.setup(game.state, players, <unsigned long long>(_index(seed) % _U64))
        return game

    def __getattr__(self, str name):
        method = self.methods.get(name)
        if method is None:
            raise AttributeError(f"'Variant' object has no attribute {name!r}")
        return method

    def from_state(self, state):
        """Rebuild a game from export_state() data. Raises ValueError on data that does not
        fit this variant (never leaves a half-built engine). The range checks here keep the
        C arrays safe; railspec.state_format.validate checks a state fully."""
        cdef Engine game = Engine.__new__(Engine, self)
        cdef Variant v = self
        cdef const railspec_engine_api* api = game.api
        cdef void* s = game.state
        cdef int k, total, players, offer_n, offer_keep
        if state.get("format") != v.state_format:
            raise ValueError(f"not a {v.state_format} object: format {state.get('format')!r}")
        if state.get("spec_hash") != v.spec_hash:
            raise ValueError(f"the state is for spec hash {state.get('spec_hash')!r}, this engine is {v.spec_hash}")
        api.init(s)
        players = _int(state["players"], "players", api.np_min, api.np_max)
        for k in range(api.n_fields):
            _load_field(v, &api.fields[k], v.field_names[k], state, s, players)
        if (api.is_over(s) != 0) != (api.current(s) == -1):
            raise ValueError("current is -1 exactly when the game is over")
        offer_n = _at(s, api.fields[v.offer_field].count_offset)[0]
        offer_keep = _at(s, api.fields[v.offer_keep_field].offset)[0]
        if offer_keep > offer_n:
            raise ValueError(f"offer_keep {offer_keep} does not fit an offer of {offer_n}")
        # the piles must fit their fixed arrays whatever is played from here: count every
        # card and ticket the pile fields hold (the core's and the mechanics')
        total = 0
        for k in range(api.n_fields):
            if api.fields[k].pile == RF_CARD_COUNTS or api.fields[k].pile == RF_CARD_IDS:
                total += _pile_count(&api.fields[k], s, players, api.n_cards)
        if total > api.card_total:
            raise ValueError(f"the state holds {total} train cards, the game has {api.card_total}")
        total = 0
        for k in range(api.n_fields):
            if api.fields[k].pile == RF_TICKETS:
                total += _pile_count(&api.fields[k], s, players, api.n_cards)
        if total > api.ticket_cap:
            raise ValueError(f"the state holds {total} tickets, the game has {api.n_tickets}")
        api.derive(s)
        return game

    def for_scoring(self, state):
        """A game holding only what scoring reads: ``players`` and the fields ``state``
        gives (a described position's ``owner``, ``tickets``, …), every other field at its
        value before set-up. For railspec.score; not a position to play on."""
        cdef Engine game = Engine.__new__(Engine, self)
        cdef Variant v = self
        cdef const railspec_engine_api* api = game.api
        cdef int k, players
        api.init(game.state)
        players = _int(state["players"], "players", api.np_min, api.np_max)
        for k in range(api.n_fields):
            name = v.field_names[k]
            if name in state:
                _load_field(v, &api.fields[k], name, state, game.state, players)
        api.derive(game.state)
        return game

    def playout(self, int games, int players, seed, ties=None):
        """Play ``games`` random games; game i uses seed (seed + i) mod 2^64 and an agent
        generator seeded with that xor the agent salt (docs/engine.md "Random playouts").
        Returns a dict of lists: ``totals`` and every other breakdown item ([games][players];
        items as in BREAKDOWN_KEYS), then ``decisions``, ``turns`` and ``stalled`` ([games]).
        With ``ties``, the variant's tie-break keys as data (``TieBreak.compiled``: a
        ``(column, sign, best_of_all)`` triple a key, the column an index into
        BREAKDOWN_KEYS), also ``winners`` ([games] lists of seats, ascending): the seats at
        the best total, then, key by key, those of them with the highest key, as
        railspec.runtime.scoring.winners ranks them. A key is ``sign`` × the seat's column,
        or, with ``best_of_all``, 1 when the seat's column is the highest of every seat's
        and above 0, else 0. ``ties=()`` gives the seats at the best total."""
        cdef const railspec_engine_api* api = self.api
        cdef unsigned long long c_seed = <unsigned long long>(_index(seed) % _U64)
        cdef int* breakdowns
        cdef int* decisions
        cdef int* turns
        cdef char* stalled
        cdef int* plan = NULL
        cdef int* seats = NULL
        cdef size_t cells
        cdef int k, keys = 0
        if players < api.np_min or players > api.np_max:
            raise ValueError(f"this variant is for {api.np_min} to {api.np_max} players, not {players}")
        if games < 0:
            raise ValueError(f"games must be zero or more, got {games}")
        if ties is not None:
            ties = _tie_plan(ties, api.b_fields)
            keys = len(ties) // 3
        cells = <size_t>games * players * api.b_fields + 1
        breakdowns = <int*>malloc(cells * sizeof(int))
        decisions = <int*>malloc((games + 1) * sizeof(int))
        turns = <int*>malloc((games + 1) * sizeof(int))
        stalled = <char*>malloc(games + 1)
        if ties is not None:
            plan = <int*>malloc((3 * keys + 1) * sizeof(int))
            seats = <int*>malloc(players * sizeof(int))
        try:
            if not (breakdowns and decisions and turns and stalled) or (ties is not None and not (plan and seats)):
                raise MemoryError()
            for k in range(3 * keys):
                plan[k] = ties[k]
            with nogil:
                api.play(games, players, c_seed, breakdowns, decisions, turns, stalled)
            # thousands of small lists, none garbage until the caller drops them: a collection
            # while they are built could free nothing and would cost a few % of a batch
            collecting = _gc.isenabled()
            _gc.disable()
            try:
                result = self._results(games, players, breakdowns, decisions, turns, stalled)
                if ties is not None:
                    result["winners"] = self._winners(breakdowns, games, players, plan, keys, seats)
                return result
            finally:
                if collecting:
                    _gc.enable()
        finally:
            free(breakdowns)
            free(decisions)
            free(turns)
            free(stalled)
            free(plan)
            free(seats)

    cdef list _winners(self, const int* breakdowns, int games, int players, const int* plan, int keys, int* seats):
        """Each game's winners: the seats at the best total, then the keys of ``plan`` (a
        ``column, sign, best_of_all`` triple a key) in order, while more than one is left."""
        cdef int g, k, p, n
        cdef int fields = self.api.b_fields, total = self.api.b_total
        cdef const int* rows
        cdef list out = []
        for g in range(games):
            rows = breakdowns + <size_t>g * players * fields
            for p in range(players):
                seats[p] = p
            n = _keep_highest(rows, fields, players, total, 1, False, seats, players)
            k = 0
            while n > 1 and k < keys:
                n = _keep_highest(rows, fields, players, plan[3 * k], plan[3 * k + 1], plan[3 * k + 2], seats, n)
                k += 1
            if n == 1:
                out.append([seats[0]])
            else:
                out.append([seats[p] for p in range(n)])
        return out

    cdef dict _results(self, int games, int players, int* breakdowns, int* decisions, int* turns, char* stalled):
        """playout()'s dict of lists, from the C arrays the loop filled."""
        cdef int g, p, k
        cdef int fields = self.api.b_fields, total = self.api.b_total
        result = {"totals": [[breakdowns[(g * players + p) * fields + total] for p in range(players)]
                             for g in range(games)]}
        for k in range(fields):
            if k != total:
                result[self.breakdown_keys[k]] = [[breakdowns[(g * players + p) * fields + k]
                                                   for p in range(players)] for g in range(games)]
        result["decisions"] = [decisions[g] for g in range(games)]
        result["turns"] = [turns[g] for g in range(games)]
        result["stalled"] = [stalled[g] != 0 for g in range(games)]
        return result


cdef tuple _tie_plan(object ties, int fields):
    """``playout``'s ``ties`` checked and flattened: column, sign, best_of_all, a key after another."""
    flat = []
    for key in ties:
        if not isinstance(key, (tuple, list)) or len(key) != 3:
            raise ValueError(f"a tie-break key is (column, sign, best_of_all), not {key!r}")
        column, sign, best = _index(key[0]), _index(key[1]), key[2]
        if not 0 <= column < fields or sign not in (1, -1) or not isinstance(best, bool) or (best and sign != 1):
            raise ValueError(f"a tie-break key is (column 0..{fields - 1}, sign 1 or -1, best_of_all with sign 1), "
                             f"not {key!r}")
        flat += [column, sign, int(best)]
    return tuple(flat)


cdef inline int _keep_highest(const int* rows, int fields, int players, int column, int sign, bint best_of_all,
                              int* seats, int n) noexcept nogil:
    """Of the ``n`` seats in ``seats``, keep (in order, at its start) those with the highest
    key, and return how many: ``sign`` × the seat's ``column``, or with ``best_of_all`` 1
    for a seat whose column is the highest of all ``players`` seats' and above 0, else 0."""
    cdef int i, p, value, top, kept = 0
    if best_of_all:
        top = rows[column]
        for p in range(1, players):
            if rows[p * fields + column] > top:
                top = rows[p * fields + column]
        if top <= 0:
            return n  # nobody's key is 1: all stay
        for i in range(n):
            if rows[seats[i] * fields + column] == top:
                seats[kept] = seats[i]
                kept += 1
        return kept if kept else n  # none of them holds it: all stay, none was moved
    top = sign * rows[seats[0] * fields + column]
    for i in range(1, n):
        value = sign * rows[seats[i] * fields + column]
        if value > top:
            top = value
    for i in range(n):
        if sign * rows[seats[i] * fields + column] == top:
            seats[kept] = seats[i]
            kept += 1
    return kept


# --- reading and writing a state by its field table ---------------------------------------

cdef list _ints(const int* values, int n):
    return [values[i] for i in range(n)]


cdef int _load(object values, str name, int* out, int cap, int low, int high) except -1:
    """Copy the list ``values`` into ``out``; check its length and every value's range."""
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"state[{name}] must be a list")
    n = len(values)
    if n > cap:
        raise ValueError(f"state[{name}] has {n} entries, at most {cap} fit")
    for i in range(n):
        v = _index(values[i])
        if v < low or v > high:
            raise ValueError(f"state[{name}][{i}] = {v} is outside {low}..{high}")
        out[i] = v
    return n


cdef int _int(object value, str name, long long low, long long high) except? -1:
    """A state integer in ``low … high``."""
    v = _index(value)
    if v < low or v > high:
        raise ValueError(f"state[{name}] = {v} is outside {low}..{high}")
    return v


cdef unsigned long long _u64(object value, str name) except? 0:
    v = _index(value)
    if v < 0 or v >= _U64:
        raise ValueError(f"state[{name}] = {v} is outside [0, 2^64)")
    return <unsigned long long>v


cdef int _load_exact(object values, str name, int* out, int count, int low, int high) except -1:
    n = _load(values, name, out, count, low, high)
    if n != count:
        raise ValueError(f"state[{name}] must have {count} entries, got {n}")
    return n


cdef list _rows(object state, str key, int players):
    rows = state[key]
    if not isinstance(rows, (list, tuple)) or len(rows) != players:
        raise ValueError(f"state[{key!r}] must hold one list per player")
    return list(rows)


cdef inline int* _at(void* state, size_t offset) noexcept:
    return <int*>(<char*>state + offset)


cdef object _export_field(Variant v, const railspec_field* f, void* state, int players):
    """One field's value as plain data (docs/engine.md "State as JSON")."""
    cdef int* values = _at(state, f.offset)
    cdef int* counts = _at(state, f.count_offset)
    cdef int p
    if f.kind == RF_PHASE:
        return v.phases[values[0]]
    if f.kind == RF_U64:
        return (<unsigned long long*>values)[0]
    if f.shape == RF_SCALAR:
        return _ints(values, players) if f.per_player else values[0]
    if f.shape == RF_FIXED:
        if not f.per_player:
            return _ints(values, f.size)
        return [_ints(values + p * f.row, f.size) for p in range(players)]
    if not f.per_player:
        return _ints(values, counts[0])
    return [_ints(values + p * f.row, counts[p]) for p in range(players)]


cdef int _load_field(Variant v, const railspec_field* f, str name, object state, void* s, int players) except -1:
    """Check and copy one field of ``state`` into the struct ``s``."""
    cdef int* values = _at(s, f.offset)
    cdef int* counts = _at(s, f.count_offset)
    cdef int low = f.low + (players if f.low_players else 0)
    cdef int high = f.high + (players if f.high_players else 0)
    cdef int p
    if f.kind == RF_PHASE:
        if state[name] not in v.phase_ids:
            raise ValueError(f"unknown phase {state[name]!r}")
        values[0] = v.phase_ids[state[name]]
    elif f.kind == RF_U64:
        (<unsigned long long*>values)[0] = _u64(state[name], name)
    elif f.shape == RF_SCALAR and not f.per_player:
        values[0] = _int(state[name], name, low, high)
    elif f.shape == RF_SCALAR:
        _load_exact(state[name], name, values, players, low, high)
    elif f.shape == RF_FIXED and not f.per_player:
        _load_exact(state[name], name, values, f.size, low, high)
    elif f.shape == RF_FIXED:
        rows = _rows(state, name, players)
        for p in range(players):
            _load_exact(rows[p], f"{name}][{p}", values + p * f.row, f.size, low, high)
    elif not f.per_player:
        counts[0] = _load(state[name], name, values, f.size, low, high)
    else:
        rows = _rows(state, name, players)
        for p in range(players):
            counts[p] = _load(rows[p], f"{name}][{p}", values + p * f.row, f.size, low, high)
    return 0


cdef int _pile_count(const railspec_field* f, void* s, int players, int n_cards) noexcept:
    """The cards or tickets a pile field holds (the loader's capacity guard)."""
    cdef int* values = _at(s, f.offset)
    cdef int* counts = _at(s, f.count_offset)
    cdef int p, n, rows = players if f.per_player else 1, total = 0
    for p in range(rows):
        if f.pile == RF_CARD_COUNTS:
            for n in range(n_cards):
                total += values[p * f.row + n]
        elif f.shape == RF_LIST:
            total += counts[p]
        else:
            for n in range(f.size):
                total += values[p * f.row + n] >= 0
    return total


cdef bint _format_is(const char* fmt, char code) noexcept:
    """Whether a buffer format is the one native item ``code`` (with or without a
    native or little-endian byte order mark on a little-endian machine)."""
    if fmt == NULL:
        return code == b'B'
    if fmt[0] == b'@' or fmt[0] == b'=' or (fmt[0] == b'<' and _LITTLE):
        fmt += 1
    return fmt[0] == code and fmt[1] == 0


def is_native_int(fmt, Py_ssize_t itemsize):
    """Whether a buffer's format and item size name the C int of this machine (the
    compiled engine's buffers; railspec.runtime.game checks the API's buffers with it)."""
    if itemsize != sizeof(int):
        return False
    if fmt[:1] in ("@", "="):
        fmt = fmt[1:]
    elif fmt[:1] in ("<", ">", "!"):
        if (fmt[0] == "<") != (_sys.byteorder == "little"):
            return False
        fmt = fmt[1:]
    return fmt in ("i", "l")


# --- the Engine ---------------------------------------------------------------------------

cdef enum:
    # ints a method keeps on its stack (more, on the heap): the stock variants' catalogues
    # have up to 1,541 actions, and the old per-variant engine kept N_ACTIONS ints there
    STACK_INTS = 4096


cdef int* _buffer(int* local, int need) except NULL:
    """``local`` (STACK_INTS ints) when ``need`` fits it, else a heap block: free it with
    :func:`_release`."""
    cdef int* block
    if need <= STACK_INTS:
        return local
    block = <int*>PyMem_Malloc(need * sizeof(int))
    if block == NULL:
        raise MemoryError()
    return block


cdef inline void _release(int* buf, int* local) noexcept:
    if buf != local:
        PyMem_Free(buf)


@cython.no_gc   # it holds its Variant, which holds no game: no cycle to collect
cdef class Engine:
    """One game in progress (docs/engine.md). All of its state is one C struct, of the
    size its variant's module says; the variant's module makes games through its
    :class:`Variant` (the module's ``Engine``: ``Engine(players, seed)``,
    ``Engine.from_state(state)``). One class for every variant, so that CPython's
    specialised calls of its methods apply (they need the method's own class, not a
    subclass, and the generic attribute lookup: no ``__getattr__``). A mechanic's methods
    are its variant's (``Variant.methods``), reached through a :class:`_MechanicMethod`
    that binding a variant puts in this class's dict under the method's name."""

    cdef void* state
    cdef const railspec_engine_api* api
    cdef Variant variant

    def __cinit__(self, Variant variant not None):
        self.variant = variant
        self.api = variant.api
        self.state = PyMem_Calloc(1, self.api.state_size)
        if self.state == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.state)

    def copy(self):
        """An independent copy (one struct copy)."""
        cdef Engine other = Engine.__new__(Engine, self.variant)
        memcpy(other.state, self.state, self.api.state_size)
        return other

    def resampled(self, int player, seed):
        """A copy in one world consistent with what ``player`` sees, drawn from ``seed``
        (railspec.runtime.determinize.resample draws the same world from export_state());
        None in a mechanic's phase, where a world must also pass the state validator (the
        Python draw retries until one does). No Python object is made but the copy."""
        cdef Engine world
        cdef int players = self.api.players(self.state)
        if player < 0 or player >= players:
            raise ValueError(f"no player {player} in a {players}-player game")
        world = self.copy()
        if not self.api.world(world.state, player, <unsigned long long>(_index(seed) % _U64)):
            return None
        return world

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return ((<Variant>self.variant).rebuild, (self.export_state(),))


    @property
    def players(self):
        return self.api.players(self.state)

    @property
    def current_player(self):
        return self.api.current(self.state)

    @property
    def is_over(self):
        return self.api.is_over(self.state) != 0

    def legal_actions(self):
        """The legal action ids, ascending."""
        cdef int local[STACK_INTS]
        cdef int* buf = _buffer(local, self.api.n_actions)
        cdef int n
        try:
            n = self.api.legal(self.state, buf)
            return [buf[i] for i in range(n)]
        finally:
            _release(buf, local)

    def legal_actions_into(self, buf):
        """Write the legal action ids into ``buf`` (a writable buffer of C int, e.g.
        array.array('i', [0] * N_ACTIONS)); return how many."""
        cdef Py_buffer view
        cdef int* scratch = (<Variant>self.variant).scratch
        cdef int n
        cdef Py_ssize_t capacity
        PyObject_GetBuffer(buf, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        try:
            fmt = view.format.decode("ascii") if view.format != NULL else "B"
            if not is_native_int(fmt, view.itemsize):
                raise TypeError(f"legal_actions_into needs a buffer of C int, got format {fmt!r} "
                                f"with items of {view.itemsize} bytes")
            capacity = view.len // sizeof(int)
            if capacity >= self.api.n_actions:
                return self.api.legal(self.state, <int*>view.buf)
            n = self.api.legal(self.state, scratch)
            if n > capacity:
                raise ValueError(f"the buffer holds {capacity} ints, {n} legal actions do not fit")
            memcpy(view.buf, scratch, n * sizeof(int))
            return n
        finally:
            PyBuffer_Release(&view)

    def observation_into(self, int player, buf):
        """Write player ``player``'s observation vector (docs/rl.md) into the first
        OBSERVATION_SIZE floats of ``buf`` (a writable, contiguous float32 buffer); return
        OBSERVATION_SIZE."""
        cdef Py_buffer view
        cdef int players = self.api.players(self.state)
        cdef int size = self.api.obs_size
        if player < 0 or player >= players:
            raise ValueError(f"no player {player} in a {players}-player game")
        PyObject_GetBuffer(buf, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        try:
            if view.itemsize != sizeof(float) or not _format_is(view.format, b'f'):
                raise TypeError("observation_into needs a buffer of float32")
            if view.len < size * <Py_ssize_t>sizeof(float):
                raise ValueError(f"the buffer holds {view.len // sizeof(float)} floats, the observation is {size}")
            self.api.observe(self.state, player, <float*>view.buf)
            return size
        finally:
            PyBuffer_Release(&view)

    def action_mask_into(self, buf):
        """Write the legal-action mask (1 where legal, 0 elsewhere) into the first
        N_ACTIONS bytes of ``buf`` (a writable, contiguous buffer of int8, uint8 or bool);
        return how many actions are legal."""
        cdef Py_buffer view
        PyObject_GetBuffer(buf, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        try:
            if view.itemsize != 1 or not (_format_is(view.format, b'b') or _format_is(view.format, b'B')
                                          or _format_is(view.format, b'?')):
                raise TypeError("action_mask_into needs a buffer of int8")
            if view.len < self.api.n_actions:
                raise ValueError(f"the buffer holds {view.len} bytes, the mask is {self.api.n_actions}")
            return self.api.mask(self.state, <char*>view.buf)
        finally:
            PyBuffer_Release(&view)

    def _c_api(self):
        """Two capsules for compiled helpers (engine_api.h): this module's function table
        and this game's state. The state capsule is valid while this Engine lives."""
        return ((<Variant>self.variant).capsule, PyCapsule_New(self.state, RAILSPEC_ENGINE_STATE_NAME, NULL))

    def agent_view(self, player=None):
        """The player to move's agent view (docs/agents.md), as a list of ints; with
        ``player``, that seat's view of the same moment."""
        cdef int local[STACK_INTS]
        cdef int* out
        cdef int n, seat
        if self.api.is_over(self.state):
            raise ValueError("the game is over: nobody is to move")
        if player is not None:
            seat = _index(player)
            if not 0 <= seat < self.api.players(self.state):
                raise ValueError(f"no player {seat} in a {self.api.players(self.state)}-player game")
        out = _buffer(local, self.api.view_size)
        try:
            if player is None:
                n = self.api.view(self.state, out)
            else:
                n = self.api.seat_view(self.state, seat, out)
            return _ints(out, n)
        finally:
            _release(out, local)

    def apply(self, action):
        """Play one decision. An id that is out of range or not legal now raises
        IllegalActionError and leaves the state untouched."""
        cdef int a
        cdef int n_actions = self.api.n_actions
        if isinstance(action, bool):
            raise IllegalActionError(action, f"no action has id {action!r}")
        try:
            value = _index(action)
        except TypeError:
            raise IllegalActionError(action, f"no action has id {action!r}") from None
        if value < 0 or value >= n_actions:
            raise IllegalActionError(action, f"no action has id {action!r} (ids are 0..{n_actions - 1})")
        if self.api.is_over(self.state):
            raise IllegalActionError(action, "the game is over")
        a = value
        if not self.api.is_legal(self.state, a, (<Variant>self.variant).scratch):
            raise IllegalActionError(action, f"action {a} is not legal now "
                                             f"(phase {(<Variant>self.variant).phases[self.api.phase(self.state)]})")
        self.api.apply(self.state, a)

    def _accepts(self, int action):
        """Whether apply() would take ``action`` now (its legality check alone; for the
        tests that compare it with legal_actions())."""
        if action < 0 or action >= self.api.n_actions or self.api.is_over(self.state):
            return False
        return self.api.is_legal(self.state, action, (<Variant>self.variant).scratch) != 0

    def export_state(self):
        """The state as plain data, keys in the order of the state schema (docs/engine.md
        "State as JSON")."""
        cdef Variant v = <Variant>self.variant
        cdef const railspec_engine_api* api = self.api
        cdef int k, players = api.players(self.state)
        out = {"format": v.state_format, "variant": v.key, "spec_hash": v.spec_hash}
        for k in range(api.n_fields):
            out[v.field_names[k]] = _export_field(v, &api.fields[k], self.state, players)
        return out

    def score_breakdown(self):
        """Each player's score as if the game ended now: a dict per player, keys as
        BREAKDOWN_KEYS (the core's items, the mechanics', total)."""
        cdef Variant v = <Variant>self.variant
        cdef int local[STACK_INTS]
        cdef int p, k, fields = self.api.b_fields
        cdef int* out = _buffer(local, self.api.np_max * fields)
        try:
            self.api.score(self.state, out)
            keys = v.breakdown_keys
            return [{keys[k]: out[p * fields + k] for k in range(fields)}
                    for p in range(self.api.players(self.state))]
        finally:
            _release(out, local)

    def completed_tickets(self, int player):
        """The tickets ``player`` holds that their network completes now, as scoring counts
        them (the mechanics' joins and tickets included), in the order held."""
        cdef int local[STACK_INTS]
        cdef int* out
        cdef int players = self.api.players(self.state)
        if not 0 <= player < players:
            raise ValueError(f"no player {player} in a {players}-player game")
        out = _buffer(local, self.api.ticket_cap)
        try:
            return _ints(out, self.api.completed(self.state, player, out))
        finally:
            _release(out, local)



cdef class _MechanicMethod:
    """A mechanic's method of the games (``game.longest_path``): the function of the game's
    own variant (``Variant.methods``), bound to the game. One per name in Engine's dict,
    whichever variants have it."""

    cdef str name

    def __cinit__(self, str name):
        self.name = name

    def __get__(self, instance, owner):
        if instance is None:
            return self
        method = (<Engine>instance).variant.methods.get(self.name)
        if method is None:
            raise AttributeError(f"'Engine' object has no attribute {self.name!r}")
        return _MethodType(method, instance)


cdef void _offer_method(str name) except *:
    """Put a :class:`_MechanicMethod` named ``name`` in Engine's dict, once (an extension
    type's dict is written as Cython writes its class attributes, then the type's caches
    told)."""
    cdef dict members = <dict>(<PyTypeObject*>Engine).tp_dict
    found = members.get(name)
    if isinstance(found, _MechanicMethod):
        return
    if found is not None:
        raise ImportError(f"a mechanic's method {name!r} would hide Engine.{name}")
    members[name] = _MechanicMethod(name)
    PyType_Modified(<PyTypeObject*>Engine)


cdef void* engine_state(object game, const railspec_engine_api* api) except NULL:
    """The state of ``game``, when it is a game of the variant whose table is ``api``: how
    a variant's mechanics' methods reach their State (a TypeError for anything else)."""
    if not isinstance(game, Engine) or (<Engine>game).api != api:
        raise TypeError(f"not a game of this variant: {type(game).__name__}")
    return (<Engine>game).state


#: The capsule of :func:`engine_state`, for the variants' modules.
STATE_OF_NAME = b"railspec.engine_face.state_of"
STATE_OF = PyCapsule_New(<void*>engine_state, b"railspec.engine_face.state_of", NULL)
