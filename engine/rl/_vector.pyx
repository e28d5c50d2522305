# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, nonecheck=False
"""Many games of one variant stepped in C: the kernel of railspec.rl.vector (docs/rl.md
"Batched games"), compiled once with railspec for every variant.

A :class:`Batch` drives its games through the variant's table of C functions
(compiler/templates/engine_api.h), the one the Engine class and the scripted agents use, so
it knows no variant's State struct: the states are opaque blocks of ``state_size`` bytes.
One step applies the caller's action in every game, lets the seats the caller does not hold
play (random players, or the scripted styles through railspec.playtest.agents._policy's
C entry points) until a seat of the caller's is to decide, starts the next game of any
that ended, and writes the mover's observation vector, legal-action mask and seat into
the caller's arrays; all of it without the GIL, each thread of a step on its own run of
games.

Seeds (docs/rl.md): env ``i``'s ``k``-th game (from 0) is set up from ``game_seed(i, k)``,
the output of one splitmix64 step from the state ``seed + i * 2^32 + k`` (mod 2^64); the
agent in seat ``p`` of that game is seeded with ``agent_seed(i, k, p) = game_seed(i, k) + 1
+ p`` (mod 2^64), salted as the agent of that name salts its seed, so
``railspec.playtest.agents.make(name, seed=agent_seed(i, k, p))`` plays the same moves in
the single-game API.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_C_CONTIGUOUS
from cpython.pycapsule cimport PyCapsule_GetPointer

from engine_api cimport RAILSPEC_ENGINE_API_NAME, RAILSPEC_ENGINE_API_VERSION, railspec_engine_api

ctypedef int (*decide_fn)(void* policy, void* seat, const int* view, const int* legal, int n) noexcept nogil
ctypedef void (*renew_fn)(void* seat, unsigned long long rng) noexcept nogil

cdef extern from *:
    """
    /* splitmix64 and below(n) by rejection, as docs/engine.md defines them (the engines'
       rs_next and rs_below; railspec.compiler.base.rng.SplitMix64) */
    static inline unsigned long long rv_next(unsigned long long *state) {
        unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline int rv_below(unsigned long long *state, unsigned long long n) {
        unsigned long long r = rv_next(state);
        unsigned long long rem;
        if (r < 0ULL - n) return (int)(r % n);
        rem = (0ULL - n) % n;
        for (;;) {
            if (rem == 0 || r < 0ULL - rem) return (int)(r % n);
            r = rv_next(state);
        }
    }
    """
    unsigned long long rv_next(unsigned long long *state) noexcept nogil
    int rv_below(unsigned long long *state, unsigned long long n) noexcept nogil

# Who holds a seat: the caller, a random player, or a scripted style (its code, 0 and up).
cdef enum:
    CALLER = -1
    RANDOM = -2

# What a pass over the games does.
cdef enum:
    IDLE = 0      # nothing set up (or the actions refused)
    RESET = 1     # every env's game 0
    STEP = 2
    RESTART = 3   # every env's next game, the one under way abandoned

# Rewards the kernel writes itself (a win's share needs the tie-breakers: the caller's).
REWARD_CODES = {"score": 0, "margin": 1, "none": 2}

#: How a seat is held, for :class:`Batch`'s ``seating``.
HOLDERS = {"caller": CALLER, "random": RANDOM}

_U64 = (1 << 64) - 1


def game_seed(unsigned long long seed, unsigned long long env, unsigned long long k):
    """The seed of env ``env``'s ``k``-th game in a batch seeded ``seed`` (see the module)."""
    return _game_seed(seed, env, k)


cdef inline unsigned long long _game_seed(unsigned long long seed, unsigned long long env,
                                          unsigned long long k) noexcept nogil:
    cdef unsigned long long state = seed + (env << 32) + k
    return rv_next(&state)


cdef class Batch:
    """``n_envs`` games of one variant at ``players`` seats, stepped together in C.

    ``capsule``: the variant's engine interface (``Engine._c_api()[0]``). ``seating``: per
    role, who holds it (:data:`HOLDERS` codes, or a scripted style's code); role ``r`` sits
    at seat ``r`` or, with ``rotate``, at seat ``(r + i + k) mod players`` in env ``i``'s
    ``k``-th game. ``policies``: one Policy of the variant per thread (a scripted seat is
    decided with its thread's, which lends only scratch arrays), ``seats``: a Seat bound to
    those policies for each env and role held by a style (``[env * players + role]``, None
    elsewhere), ``decide`` and ``renew``: the capsules _policy.SEAT_DECIDE and SEAT_RENEW.
    ``salts``: (random, scripted), the agents' seed salts. ``reward``: a key of
    :data:`REWARD_CODES`. Call :meth:`attach` with the arrays before :meth:`reset`."""

    cdef const railspec_engine_api* api
    cdef object capsule
    cdef readonly int n_envs, players, threads, n_actions, obs_size, b_fields, b_total
    cdef unsigned long long seed, random_salt, scripted_salt, sampler
    cdef size_t stride
    cdef char* states                 # [n_envs * stride]
    cdef unsigned long long* games    # [n_envs]: k of the game each env plays
    cdef int* legal                   # [n_envs * n_actions]: the mover's legal ids, ascending
    cdef int* legal_n                 # [n_envs]
    cdef int* actions                 # [n_envs]: this step's actions
    cdef int* seating                 # [players]: who holds each role
    cdef bint rotate
    cdef int* holder                  # [n_envs * players]: who holds each seat of the game
    cdef int* role_of                 # [n_envs * players]: the role at each seat
    cdef unsigned long long* rngs     # [n_envs * players]: a random seat's generator
    cdef void** seat_at               # [n_envs * players]: a style's Seat, by role
    cdef object seat_objects
    cdef void** policy_at             # [threads]
    cdef object policy_objects
    cdef int** views                  # [threads][view_size]
    cdef long long* decided           # [threads]: decisions applied, every seat's
    cdef decide_fn decide
    cdef renew_fn renew
    cdef int reward_kind
    cdef int mode
    cdef int* bounds                  # [threads + 1]: each thread's run of envs
    # the caller's arrays (attach)
    cdef object arrays
    cdef float* obs
    cdef char* mask
    cdef int* to_play
    cdef float* rewards
    cdef char* done
    cdef int* rows
    cdef float* final_obs
    cdef bint attached

    def __cinit__(self, capsule, int n_envs, int players, seed, list seating, bint rotate, list policies,
                  list seats, decide, renew, tuple salts, str reward):
        cdef const railspec_engine_api* api = <const railspec_engine_api*>PyCapsule_GetPointer(
            capsule, RAILSPEC_ENGINE_API_NAME)
        cdef int t, k, cells
        if api.version != RAILSPEC_ENGINE_API_VERSION:
            raise ImportError(f"the engine speaks interface {api.version}, railspec "
                              f"{RAILSPEC_ENGINE_API_VERSION}: rebuild the engine")
        if not api.np_min <= players <= api.np_max:
            raise ValueError(f"this variant is for {api.np_min} to {api.np_max} players, not {players}")
        if n_envs < 1 or len(policies) < 1 or len(seating) != players or len(seats) != n_envs * players:
            raise ValueError("a batch needs one env or more, a policy a thread, a holder a seat and "
                             "a seat slot per env and seat")
        self.api = api
        self.capsule = capsule
        self.n_envs = n_envs
        self.players = players
        self.threads = min(len(policies), n_envs)
        self.n_actions = api.n_actions
        self.obs_size = api.obs_size
        self.b_fields = api.b_fields
        self.b_total = api.b_total
        self.seed = seed & _U64
        self.sampler = (seed & _U64) ^ 0x632BE59BD9B4E019  # the sample_actions generator
        self.random_salt = salts[0]
        self.scripted_salt = salts[1]
        self.rotate = rotate
        self.reward_kind = REWARD_CODES[reward]
        self.decide = <decide_fn>PyCapsule_GetPointer(decide, b"railspec.agents.seat_decide")
        self.renew = <renew_fn>PyCapsule_GetPointer(renew, b"railspec.agents.seat_renew")
        # each state on its own cache lines
        self.stride = (api.state_size + 63) // 64 * 64
        cells = n_envs * players
        self.states = <char*>calloc(n_envs, self.stride)
        self.games = <unsigned long long*>calloc(n_envs, sizeof(unsigned long long))
        self.legal = <int*>calloc(<size_t>n_envs * self.n_actions, sizeof(int))
        self.legal_n = <int*>calloc(n_envs, sizeof(int))
        self.actions = <int*>calloc(n_envs, sizeof(int))
        self.seating = <int*>calloc(players, sizeof(int))
        self.holder = <int*>calloc(cells, sizeof(int))
        self.role_of = <int*>calloc(cells, sizeof(int))
        self.rngs = <unsigned long long*>calloc(cells, sizeof(unsigned long long))
        self.seat_at = <void**>calloc(cells, sizeof(void*))
        self.policy_at = <void**>calloc(self.threads, sizeof(void*))
        self.views = <int**>calloc(self.threads, sizeof(int*))
        self.decided = <long long*>calloc(self.threads, sizeof(long long))
        self.bounds = <int*>calloc(self.threads + 1, sizeof(int))
        if not (self.states and self.games and self.legal and self.legal_n and self.actions and self.seating
                and self.holder and self.role_of and self.rngs and self.seat_at and self.policy_at and self.views
                and self.decided and self.bounds):
            raise MemoryError()
        for t in range(self.threads):
            self.views[t] = <int*>malloc((api.view_size + 1) * sizeof(int))
            if self.views[t] == NULL:
                raise MemoryError()
            self.policy_at[t] = <void*>policies[t]
            self.bounds[t] = <int>(<long long>n_envs * t // self.threads)
        self.bounds[self.threads] = n_envs
        self.policy_objects = policies
        for k in range(players):
            self.seating[k] = seating[k]
            if seating[k] < RANDOM:
                raise ValueError(f"no holder {seating[k]}")
        for k in range(cells):
            if seats[k] is not None:
                self.seat_at[k] = <void*>seats[k]
            elif seating[k % players] >= 0:
                raise ValueError(f"a scripted seat without its Seat (env {k // players}, role {k % players})")
        self.seat_objects = seats
        self.attached = False

    def __dealloc__(self):
        cdef int t
        if self.views != NULL:
            for t in range(self.threads):
                free(self.views[t])
        free(self.views)
        free(self.states)
        free(self.games)
        free(self.legal)
        free(self.legal_n)
        free(self.actions)
        free(self.seating)
        free(self.holder)
        free(self.role_of)
        free(self.rngs)
        free(self.seat_at)
        free(self.policy_at)
        free(self.decided)
        free(self.bounds)
        self._release()

    cdef void _release(self) noexcept:
        self.arrays = None
        self.attached = False

    def attach(self, obs, mask, to_play, rewards, done, rows, final_obs):
        """The arrays the games are written into: ``obs`` float32 [n_envs, obs_size],
        ``mask`` int8 [n_envs, n_actions], ``to_play`` int32 [n_envs], ``rewards`` float32
        [n_envs, players], ``done`` bool [n_envs], ``rows`` int32 [n_envs, players,
        b_fields] (the breakdown of a game that ended), ``final_obs`` float32 [n_envs,
        obs_size] (its last position, as the seat that played the step's action sees it).
        Each a writable C-contiguous buffer
        of that many items at least; the batch keeps them."""
        cdef size_t n = self.n_envs
        self.obs = <float*>_pointer(obs, "obs", b'f', sizeof(float), n * self.obs_size)
        self.mask = <char*>_pointer(mask, "mask", b'b', 1, n * self.n_actions)
        self.to_play = <int*>_pointer(to_play, "to_play", b'i', sizeof(int), n)
        self.rewards = <float*>_pointer(rewards, "rewards", b'f', sizeof(float), n * self.players)
        self.done = <char*>_pointer(done, "done", b'?', 1, n)
        self.rows = <int*>_pointer(rows, "rows", b'i', sizeof(int), n * self.players * self.b_fields)
        self.final_obs = <float*>_pointer(final_obs, "final_obs", b'f', sizeof(float), n * self.obs_size)
        self.arrays = (obs, mask, to_play, rewards, done, rows, final_obs)
        self.attached = True

    # --- what Python calls ---------------------------------------------------------------
    def begin_reset(self, bint restart=False):
        """Make the next :meth:`run` passes start game 0 in every env; with ``restart``,
        each env's next game (k + 1), the one under way abandoned."""
        self._ready()
        self.mode = RESTART if restart else RESET

    def begin_step(self, actions):
        """Take this step's actions (an int32 C-contiguous buffer, one an env); return -1
        when each is legal in its env, else the first env whose action is not (no game is
        changed then). The next :meth:`run` passes apply them."""
        cdef Py_buffer view
        cdef const int* given
        cdef int e
        self._ready()
        self.mode = IDLE
        PyObject_GetBuffer(actions, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        try:
            fmt = view.format if view.format != NULL else b"B"
            if fmt[:1] in (b"@", b"=", b"<"):
                fmt = fmt[1:]
            if view.itemsize != sizeof(int) or not _fits(fmt, b'i'):
                raise TypeError("the actions must be a buffer of int32")
            if view.len != self.n_envs * <Py_ssize_t>sizeof(int):
                raise ValueError(f"{view.len // sizeof(int)} actions for {self.n_envs} envs")
            given = <const int*>view.buf
            for e in range(self.n_envs):
                self.actions[e] = given[e]
                if not _holds(self.legal + <size_t>e * self.n_actions, self.legal_n[e], given[e]):
                    return e
        finally:
            PyBuffer_Release(&view)
        self.mode = STEP
        return -1

    def action_of(self, int env):
        """The action the last :meth:`begin_step` was given for env ``env``, legal or not
        (for the error that names it)."""
        return self.actions[env]

    def run(self, int part):
        """One thread's part of the pass :meth:`begin_reset` or :meth:`begin_step` set up:
        the envs of run ``part`` (0 to threads - 1), without the GIL."""
        cdef int e, lo, hi
        if not 0 <= part < self.threads:
            raise ValueError(f"no part {part} of {self.threads}")
        if self.mode == IDLE:
            raise RuntimeError("no pass is set up: begin_reset() or begin_step() first")
        lo = self.bounds[part]
        hi = self.bounds[part + 1]
        with nogil:
            for e in range(lo, hi):
                self._env(e, part)

    def sample_actions(self, out):
        """A uniform choice among each env's legal actions, into ``out`` (int32 [n_envs]),
        from the batch's own generator (splitmix64 seeded with the seed xor
        0x632BE59BD9B4E019, one draw an env in order)."""
        cdef int* target = <int*>_pointer(out, "out", b'i', sizeof(int), self.n_envs)
        cdef int e
        with nogil:
            for e in range(self.n_envs):
                target[e] = self.legal[<size_t>e * self.n_actions
                                       + rv_below(&self.sampler, <unsigned long long>self.legal_n[e])]

    def game_index(self, int env):
        """k of the game env ``env`` plays."""
        return self.games[env]

    def games_into(self, out):
        """Each env's k into ``out`` (int64 [n_envs])."""
        cdef long long* target = <long long*>_pointer(out, "out", b'q', sizeof(long long), self.n_envs)
        cdef int e
        for e in range(self.n_envs):
            target[e] = <long long>self.games[e]

    def holders(self, int env):
        """Who holds each seat of env ``env``'s game (:data:`HOLDERS` codes or a style)."""
        return [self.holder[env * self.players + p] for p in range(self.players)]

    @property
    def decisions(self):
        """Decisions applied so far in every env, every seat's."""
        cdef int t
        cdef long long total = 0
        for t in range(self.threads):
            total += self.decided[t]
        return total

    # --- the games, without the GIL ----------------------------------------------------------
    cdef void _ready(self) except *:
        if not self.attached:
            raise RuntimeError("attach() the arrays first")

    cdef inline void* _state(self, int e) noexcept nogil:
        return self.states + <size_t>e * self.stride

    cdef void _env(self, int e, int t) noexcept nogil:
        """One env's part of a pass: start game 0 (RESET) or apply its action (STEP); then
        the other seats' decisions, the next game when one ends, and the mover's arrays."""
        cdef void* s = self._state(e)
        cdef int p, mover = -1
        self.done[e] = 0
        for p in range(self.players):
            self.rewards[e * self.players + p] = 0.0
        if self.mode == RESET:
            self._start(e, 0)
        elif self.mode == RESTART:
            self._start(e, self.games[e] + 1)
        else:
            mover = self.to_play[e]
            self.api.apply(s, self.actions[e])
            self.decided[t] += 1
        self._settle(e, t, mover)

    cdef void _start(self, int e, unsigned long long k) noexcept nogil:
        """Set env ``e``'s game ``k`` up and seat its holders, their generators renewed."""
        cdef int p, role, shift, held, cell
        cdef unsigned long long seed = _game_seed(self.seed, <unsigned long long>e, k)
        self.games[e] = k
        self.api.setup(self._state(e), self.players, seed)
        shift = <int>((<unsigned long long>e + k) % <unsigned long long>self.players) if self.rotate else 0
        for p in range(self.players):
            role = (p - shift + self.players) % self.players
            cell = e * self.players + p
            held = self.seating[role]
            self.holder[cell] = held
            self.role_of[cell] = role
            if held == RANDOM:
                self.rngs[cell] = (seed + 1 + <unsigned long long>p) ^ self.random_salt
            elif held >= 0:
                self.renew(self.seat_at[e * self.players + role], (seed + 1 + <unsigned long long>p) ^ self.scripted_salt)

    cdef void _settle(self, int e, int t, int mover) noexcept nogil:
        """Let the seats the caller does not hold decide until one of the caller's is to;
        a game that ends is scored (the first in this pass only: the caller's decisions
        ended it) and the next one started. Then the mover's arrays."""
        cdef void* s = self._state(e)
        cdef int* ids = self.legal + <size_t>e * self.n_actions
        cdef int n, p, held, action
        cdef bint scored = False
        while True:
            n = 0
            while not self.api.is_over(s):
                p = self.api.current(s)
                n = self.api.legal(s, ids)
                held = self.holder[e * self.players + p]
                if held == CALLER or n <= 0:
                    break
                if held == RANDOM:
                    action = ids[rv_below(&self.rngs[e * self.players + p], <unsigned long long>n)]
                else:
                    self.api.view(s, self.views[t])
                    action = self.decide(self.policy_at[t], self.seat_at[e * self.players + self.role_of[e * self.players + p]],
                                         self.views[t], ids, n)
                self.api.apply(s, action)
                self.decided[t] += 1
            if not self.api.is_over(s) and n > 0:
                break
            # over (or, in no well-formed variant, nobody able to act): score it, play on
            if not scored:
                self._score(e, mover)
                scored = True
            self._start(e, self.games[e] + 1)
        self.legal_n[e] = n
        p = self.api.current(s)
        self.to_play[e] = p
        _fill_mask(self.mask + <size_t>e * self.n_actions, self.n_actions, ids, n)
        self.api.observe(s, p, self.obs + <size_t>e * self.obs_size)

    cdef void _score(self, int e, int mover) noexcept nogil:
        """The ended game's breakdown into ``rows``, its rewards into ``rewards``, its last
        position as ``mover`` sees it into ``final_obs`` (zeros without a mover)."""
        cdef int* row = self.rows + <size_t>e * self.players * self.b_fields
        cdef float* reward = self.rewards + e * self.players
        cdef int p, q, best
        self.api.score(self._state(e), row)
        self.done[e] = 1
        if mover >= 0:
            self.api.observe(self._state(e), mover, self.final_obs + <size_t>e * self.obs_size)
        else:
            memset(self.final_obs + <size_t>e * self.obs_size, 0, self.obs_size * sizeof(float))
        for p in range(self.players):
            if self.reward_kind == 0:
                reward[p] = <float>row[p * self.b_fields + self.b_total]
            elif self.reward_kind == 1:
                best = -2147483647
                for q in range(self.players):
                    if q != p and row[q * self.b_fields + self.b_total] > best:
                        best = row[q * self.b_fields + self.b_total]
                reward[p] = <float>(row[p * self.b_fields + self.b_total] - best)


cdef inline bint _holds(const int* ids, int n, int action) noexcept nogil:
    """Whether the ascending ``ids[0:n]`` hold ``action`` (a binary search)."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if ids[mid] < action:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and ids[lo] == action


cdef inline void _fill_mask(char* out, int size, const int* ids, int n) noexcept nogil:
    cdef int k
    memset(out, 0, size)
    for k in range(n):
        out[ids[k]] = 1


cdef void* _pointer(object array, str name, char code, size_t itemsize, size_t items) except NULL:
    """The data of ``array``: a writable C-contiguous buffer of ``items`` items of the
    native type ``code`` at least (an int8 buffer may also be uint8 or bool, a bool one
    int8 or uint8). The buffer's exporter is kept alive by the caller."""
    cdef Py_buffer view
    cdef void* data
    cdef bytes fmt
    PyObject_GetBuffer(array, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
    try:
        fmt = view.format if view.format != NULL else b"B"
        if fmt[:1] in (b"@", b"=", b"<"):
            fmt = fmt[1:]
        if view.itemsize != <Py_ssize_t>itemsize or not _fits(fmt, code):
            raise TypeError(f"{name} must be a buffer of {chr(code)!r} items of {itemsize} bytes, "
                            f"not {fmt.decode()!r} of {view.itemsize}")
        if <size_t>view.len < items * itemsize:
            raise ValueError(f"{name} holds {view.len // itemsize} items, {items} are needed")
        data = view.buf
    finally:
        PyBuffer_Release(&view)
    return data


cdef bint _fits(bytes fmt, char code):
    if code == b'b' or code == b'?':
        return fmt in (b"b", b"B", b"?")
    if code == b'i':
        return fmt in (b"i", b"l") if sizeof(long) == sizeof(int) else fmt == b"i"
    if code == b'q':
        return fmt in (b"q", b"l") if sizeof(long) == sizeof(long long) else fmt == b"q"
    return fmt == bytes([code])
