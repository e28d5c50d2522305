# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The longest trail of networks of up to 1,000 routes (the language's limit on routes):
the search of trail.pyx (which says how and why), compiled for that size. The engines call
trail.longest_trail, which hands this module the networks it has no room for: none of a
stock map's (a player's 45 trains make at most 45 routes)."""

cdef enum:
    LP_END_LENGTH = 16384  # a blob query's end route: longer than any trail (12 cars a route at most)

include "search.pxi"


cdef int longest_trail(int n_routes, const int* ea, const int* eb, const int* el, int n_cities,
                       int best) noexcept nogil:
    """As trail.longest_trail, for up to LP_ROUTES routes."""
    cdef Cut c
    return trail_of(&c, n_routes, ea, eb, el, n_cities, best, &DEFAULT_TUNING)
