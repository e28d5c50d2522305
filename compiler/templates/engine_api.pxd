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
        RF_INT
        RF_U64
        RF_PHASE
        RF_SCALAR
        RF_FIXED
        RF_LIST
        RF_NO_PILE
        RF_CARD_COUNTS
        RF_CARD_IDS
        RF_TICKETS
    const char* RAILSPEC_ENGINE_API_NAME
    const char* RAILSPEC_ENGINE_STATE_NAME
    ctypedef struct railspec_field:
        int kind
        int shape
        int per_player
        int pile
        size_t offset
        size_t count_offset
        int row
        int size
        int low
        int low_players
        int high
        int high_players
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
        int np_min
        int np_max
        int obs_size
        int b_fields
        int b_total
        int card_total
        int ticket_cap
        int n_tickets
        int n_fields
        const railspec_field* fields
        int (*phase)(void* state) noexcept nogil
        void (*setup)(void* state, int players, unsigned long long seed) noexcept nogil
        void (*init)(void* state) noexcept nogil
        void (*derive)(void* state) noexcept nogil
        int (*is_legal)(void* state, int action, int* scratch) noexcept nogil
        void (*score)(void* state, int* out) noexcept nogil
        void (*observe)(void* state, int player, float* out) noexcept nogil
        int (*mask)(void* state, char* out) noexcept nogil
        int (*world)(void* state, int player, unsigned long long seed) noexcept nogil
        int (*completed)(void* state, int player, int* out) noexcept nogil
        void (*play)(int games, int players, unsigned long long seed, int* breakdowns, int* decisions,
                     int* turns, char* stalled) noexcept nogil
