"""The bounds on what a spec may say, in one place: the checker enforces them, the reader
of spec files applies the file limits, and docs/language.md lists them ("Limits", a test
compares the table with :data:`LIMITS`).

Every number the engines hold is a C ``int`` (32 bits, at most 2,147,483,647) or, for the
seed, the generator and the route bitsets, a 64-bit unsigned integer. The limits below
keep every count small enough for the state (a fixed-size struct, copied on every clone)
and every score, however the game goes, below :data:`MAX_SCORE`, so no total can wrap.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Seats of one game: per-player rows of the state are sized by the spec's own maximum.
MAX_PLAYERS = 8
#: Trains (carts) per player.
MAX_TRAINS = 1000
#: Train cards of one kind, and all train cards together (colours and locomotives).
MAX_CARDS = 1000
#: Card colours.
MAX_COLOURS = 16
#: Face-up cards.
MAX_MARKET = 12
#: Tickets one decision shows (deal or draw): keep choices are bit masks, 2**N - 1 actions.
MAX_OFFER = 6
#: The longest route.
MAX_ROUTE_LENGTH = 12
#: Tracks of one city pair.
MAX_TRACKS = 3
#: Places (cities and the mechanics' kinds of place), routes, tickets (every deck together).
MAX_CITIES = 1000
MAX_ROUTES = 1000
MAX_TICKETS = 1000
#: The size of any pile of a mechanic's cards (ferry cards, goods cards, …).
MAX_PILE = 1000
#: A city's map coordinate (``at X Y``), either way from 0.
MAX_COORDINATE = 1_000_000
#: Any one points value: a route-points entry, a ticket, a bonus, a table entry.
MAX_POINTS = 1_000_000
#: The largest total any player could reach in a game of the spec.
MAX_SCORE = 1_000_000_000

#: Spec files: the largest one read (stock specs are under 20 KB), and how many errors of
#: one file are listed before the rest are only counted.
MAX_SPEC_BYTES = 4 * 1024 * 1024
MAX_ERRORS_PER_FILE = 50
#: Names longer than this are shortened in messages (the caret still marks the whole name).
NAME_SHOWN = 40
#: A number literal longer than this is refused by the parser before it is converted.
MAX_DIGITS = 30


@dataclass(frozen=True)
class Limit:
    """One row of the limits table of docs/language.md."""

    what: str    # the number, as the spec writes it
    range: str   # the values allowed
    why: str     # the reason for the bound


def _n(value: int) -> str:
    return f"{value:,}"


LIMITS: tuple[Limit, ...] = (
    Limit("players LOW..HIGH", f"2 … {MAX_PLAYERS}",
          "each seat has its own rows in the state, sized by the spec's HIGH; fan maps for 6 exist"),
    Limit("trains N", f"1 … {_n(MAX_TRAINS)}",
          "twenty times any printed board (45); a player's trains and the longest path stay small ints"),
    Limit("card COLOUR N, locomotives N", f"each and all together ≤ {_n(MAX_CARDS)} (locomotives may be 0)",
          "the deck is an array in every state, copied with each clone (USA has 110 cards)"),
    Limit("card colours", f"1 … {MAX_COLOURS}",
          "a gray route has one payment per colour and length: the catalogue grows with colours"),
    Limit("hand N", "0 …, with HAND × HIGH players ≤ the train cards",
          "every player is dealt a full hand from the deck at set-up"),
    Limit("market N reset L locomotives (or no reset)",
          f"1 … {MAX_MARKET}, and ≤ the cards left after the hands; 1 ≤ L ≤ N",
          "the market is dealt from the deck after the hands"),
    Limit("deal tickets N [DECK L …] keep K, action draw tickets N keep K",
          f"N and every deck's L together ≤ {MAX_OFFER}; K ≤ them",
          "a keep decision is one action per set of offered tickets (2^N - 1)"),
    Limit("route length", f"1 … {MAX_ROUTE_LENGTH}, and ≤ trains",
          "the catalogue has an action per way to pay; a route longer than a player's trains can never "
          "be claimed"),
    Limit("tracks of one city pair", f"1 … {MAX_TRACKS}", "double and triple routes"),
    Limit("places (cities and others); routes; tickets", f"each ≤ {_n(MAX_CITIES)}",
          "the state holds a row per route and room for every ticket per player (USA: 36, 100, 30)"),
    Limit("any points value: route points, ticket points, bonuses, table entries", f"0 … {_n(MAX_POINTS)} "
          "(ticket points from 1)", "far above any printed value (the longest route scores 21)"),
    Limit("the largest score a player could reach", f"≤ {_n(MAX_SCORE)}",
          "scores are 32-bit ints (up to 2,147,483,647); the checker adds up the most every item could give "
          "(all routes, all tickets, every bonus) so no total can wrap"),
    Limit("city NAME at X Y", f"X and Y −{_n(MAX_COORDINATE)} … {_n(MAX_COORDINATE)}",
          "drawing units for railspec render and the balance report; the game never reads them"),
    Limit("a spec file", f"a regular file of at most {MAX_SPEC_BYTES // (1024 * 1024)} MB",
          "a device or a pipe could be read forever; the largest stock spec is under 20 KB"),
    Limit("a number as written", f"at most {MAX_DIGITS} digits", "refused before it is converted"),
)


def shown(text: str, limit: int = NAME_SHOWN) -> str:
    """``text`` as a message shows it: a name longer than ``limit`` characters is cut to its
    first ``limit`` and an ellipsis."""
    return text if len(text) <= limit else text[:limit] + "…"


def shown_number(value: int) -> str:
    """A number as a message shows it: a very long one by its first digits and its length."""
    text = str(value)
    if len(text) <= 24:
        return text
    return f"{text[:12]}… ({len(text.lstrip('-'))} digits)"
