/* railspec's engine interface for compiled helpers (railspec.agents' policy kernel).
 *
 * Every generated engine module fills one of these with its own functions and hands it
 * out in a PyCapsule (Engine._c_api); a helper compiled once for all variants drives any
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
} railspec_engine_api;

#endif
