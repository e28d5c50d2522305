# The longest trail of one connected network: what a variant's engine cimports
# (mechanics/longest_path/engine.pyx.j2). trail.pyx says how it is searched.

cdef enum:
    LP_ROUTES = 62  # the most routes of a network this module searches itself (more: trail_large's)
    LP_CITIES = 65  # the most cities its numbering may have (LP_ROUTES + 3: see longest_trail)

cdef int longest_trail(int n_routes, const int* ea, const int* eb, const int* el, int n_cities,
                       int best) noexcept nogil
