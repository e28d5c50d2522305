# The best use of a player's stations at scoring: what the stations mechanic's
# engine.pyx.j2 cimports. choice.pyx says how it is chosen.

cdef enum:
    STATIONS_MOST = 5   # stations a player may have: the mechanic's MAX_STATIONS (its tests check they agree)
    TABLE_CAP = 1024    # the most assignments whose core tickets' gains are tabled before they are tried

# Scores the tickets the table does not hold on one assignment: ``choice[k]`` is station
# k's option (-1: none); adds their points and completed tickets to ``points`` and
# ``completed``. ``context`` is the caller's.
ctypedef void (*TicketsScore)(void* context, const int* choice, int* points, int* completed) noexcept nogil

cdef struct StationUse:
    # the caller's: a player's stations, each with its options (the routes of other players
    # at its city, one per component they lead to), as components of the player's network
    int n                 # stations, at most STATIONS_MOST
    const int* roots      # per station: its city's component
    const int* fars       # per station k and option j (fars[k * far_stride + j]): the far end's component
    int far_stride
    const int* counts     # per station: its options
    # use_begin's and use_table's
    int total             # assignments: the product of (options + 1)
    bint tabled           # total <= TABLE_CAP: the core tickets' gains are tabled (use_table)
    int n_tabled          # tickets tabled
    int joined            # the joins found for them (none: the table adds nothing)
    int strides[STATIONS_MOST]
    int digit[STATIONS_MOST]
    int gains[TABLE_CAP]  # per assignment (numbered in the order they are tried): the tabled gains ...
    int joins[TABLE_CAP]  # ... the tickets they complete
    int stamp[TABLE_CAP]  # ... and the last ticket counted there

cdef void use_begin(StationUse* u) noexcept nogil
cdef bint use_joins(StationUse* u, const int* ends_a, int n_a, const int* ends_b, int n_b) noexcept nogil
cdef void use_table(StationUse* u, const int* ends_a, int n_a, const int* ends_b, int n_b, int gain) noexcept nogil
cdef bint use_best(StationUse* u, int points, int completed, bint points_first, TicketsScore score, void* context,
                   int* best) noexcept nogil
