/* railspec's engine interface: what a variant's compiled module offers the code compiled
 * once for every variant (railspec.compiler.engine_face, the Engine class and playout()
 * of every engine; railspec.agents' policy kernel).
 *
 * Every generated engine module fills one of these with its own functions and hands it
 * out in a PyCapsule (Engine._c_api); code compiled once for all variants drives any
 * engine through it without knowing the variant's State struct. The state is opaque:
 * copy it with memcpy(dst, src, state_size). An agent view is the player to move's part
 * of the observation as ints (docs/agents.md "The agent view").
 *
 * Included verbatim by compiler/templates/api.pyx.j2 and by engine/playtest/agents/_policy.pyx
 * (both declare it to Cython from engine_api.pxd); a change here raises
 * RAILSPEC_ENGINE_API_VERSION. */
#ifndef RAILSPEC_ENGINE_API_H
#define RAILSPEC_ENGINE_API_H
#include <stddef.h>

#define RAILSPEC_ENGINE_API_VERSION 3
#define RAILSPEC_ENGINE_API_NAME "railspec.engine_api"
#define RAILSPEC_ENGINE_STATE_NAME "railspec.engine_state"

/* The agent view: ints, the header first. */
enum {
    RV_PLAYER = 0,      /* the player to move */
    RV_PLAYERS = 1,     /* seats in the game */
    RV_TRAINS = 2,      /* the player's trains left */
    RV_TICKETS_N = 3,   /* tickets the player holds */
    RV_OFFER_N = 4,     /* tickets the player is offered (0 outside a ticket choice) */
    RV_HEADER = 8       /* then hand[n_cards], owner[n_routes], open[n_routes], tickets[tickets_n],
                           offer[offer_n]; open[r] is 1 when the rules let the player to move
                           claim route r, cards and trains aside (free, and no mechanic closes
                           it to them: a full double route, a track of their own beside it) */
};

/* One field of the state schema as the state struct holds it (compiler/emit.py
 * state_layout): the Engine class exports and loads a state by these. */
enum {
    RF_INT = 0, RF_U64 = 1, RF_PHASE = 2,                        /* kind */
    RF_SCALAR = 0, RF_FIXED = 1, RF_LIST = 2,                    /* shape */
    RF_NO_PILE = 0, RF_CARD_COUNTS = 1, RF_CARD_IDS = 2, RF_TICKETS = 3   /* pile */
};

typedef struct {
    int kind;
    int shape;
    int per_player;       /* one value or row per seat (NP_MAX of them in the struct) */
    int pile;             /* the cards or tickets it holds, for the loader's capacity guard */
    size_t offset;        /* of the field in the state */
    size_t count_offset;  /* of its count NAME_n (a list) */
    int row;              /* entries one seat's row takes in the struct (a per-player array) */
    int size;             /* a fixed row's entries, a list's capacity */
    int low, low_players;     /* the least value: low, plus the number of players when low_players */
    int high, high_players;   /* the greatest value, the same way */
} railspec_field;

typedef struct {
    int version;
    int n_cards;
    int n_routes;
    int n_actions;
    int view_size;        /* the longest view the engine can write */
    size_t state_size;
    int (*legal)(void* state, int* out);       /* the legal ids, ascending; returns how many */
    void (*apply)(void* state, int action);    /* a legal id only: nothing is checked */
    int (*is_over)(void* state);
    int (*current)(void* state);
    int (*players)(void* state);
    int (*view)(void* state, int* out);        /* the player to move's view (not once over); its length */
    void (*totals)(void* state, int* out);     /* each player's total as if the game ended now */
    int (*seat_view)(void* state, int player, int* out);  /* the view as seat `player` would see the game
                                                             (their open flags; the offer only while it is
                                                             theirs to choose): a search's value estimate reads
                                                             every seat of a world it drew; its length */
    /* what the Engine class needs besides (engine_face.pyx) */
    int np_min, np_max;
    int obs_size;
    int b_fields, b_total;     /* the breakdown's items per player, and which is the total */
    int card_total, ticket_cap, n_tickets;
    int n_fields;              /* the exported fields of the state schema, in its order */
    const railspec_field* fields;
    int (*phase)(void* state);
    void (*setup)(void* state, int players, unsigned long long seed);
    void (*init)(void* state);                 /* every field at its value before set-up */
    void (*derive)(void* state);               /* the derived fields, from the others */
    int (*is_legal)(void* state, int action, int* scratch);   /* scratch: n_actions ints */
    void (*score)(void* state, int* out);      /* the breakdown, b_fields ints per player */
    void (*observe)(void* state, int player, float* out);     /* obs_size floats */
    int (*mask)(void* state, char* out);       /* n_actions bytes; returns how many are legal */
    int (*world)(void* state, int player, unsigned long long seed);   /* redraw what player cannot
                                                  see; 0 (state untouched) in a mechanic's phase */
    int (*completed)(void* state, int player, int* out);      /* tickets completed, in order held */
    void (*play)(int games, int players, unsigned long long seed, int* breakdowns, int* decisions,
                 int* turns, char* stalled);   /* random playouts (docs/engine.md) */
} railspec_engine_api;

#endif
