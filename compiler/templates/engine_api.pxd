# The Cython declarations of engine_api.h, written once: engine/playtest/agents/_policy.pyx
# cimports them, and every generated engine carries them (api.pyx.j2 renders the lines
# below the extern block's first line under the header's own text, so a generated module
# needs no include path).
cdef extern from "engine_api.h":
    enum:
        RAILSPEC_ENGINE_API_VERSION
        RV_PLAYER
        RV_PLAYERS
        RV_TRAINS
        RV_TICKETS_N
        RV_OFFER_N
        RV_HEADER
    const char* RAILSPEC_ENGINE_API_NAME
    const char* RAILSPEC_ENGINE_STATE_NAME
    ctypedef struct railspec_engine_api:
        int version
        int n_cards
        int n_routes
        int n_actions
        int view_size
        size_t state_size
        int (*legal)(void* state, int* out) noexcept nogil
        void (*apply)(void* state, int action) noexcept nogil
        int (*is_over)(void* state) noexcept nogil
        int (*current)(void* state) noexcept nogil
        int (*players)(void* state) noexcept nogil
        int (*view)(void* state, int* out) noexcept nogil
        void (*totals)(void* state, int* out) noexcept nogil
        int (*seat_view)(void* state, int player, int* out) noexcept nogil
