# The search of trail.pyx for networks of up to 1,000 routes (the language's MAX_ROUTES):
# trail.longest_trail hands it those of more than trail.LP_ROUTES.

cdef enum:
    LP_ROUTES = 1000  # compiler/base/limits.py: MAX_ROUTES
    LP_CITIES = 1003  # the most cities its numbering may have (LP_ROUTES + 3)

cdef int longest_trail(int n_routes, const int* ea, const int* eb, const int* el, int n_cities,
                       int best) noexcept nogil
