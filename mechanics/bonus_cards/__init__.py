"""Bonus cards: end-game awards, some of them drawn at set-up (Northern Lights).

Northern Lights' rules (the rule summary in thoun/tickettoride modules/maps/northernlights/
map.php, rulesDifferences: "At the start, randomly select 4 of the 11 bonus cards. Only these
cards score at the end of the game. All players tied for a bonus receive its points";
boardseyeview.net: "The game comes with 11 different bonus cards, from which four are
selected at random and set out at the start of the game"). The cards and their measures
are map.php's ``getBonusCardScores``: locomotives held (a pair of one colour counting as
one), completed tickets touching a capital, trains left, one-space routes, the longest path,
completed tickets worth at most 5, countries reached, completed tickets and routes touching
an Arctic city, ferries, routes touching Norway.

Written ``bonus cards N`` (how many are drawn), one ``bonus card "TITLE" P for most MEASURE``
per card (or ``by KEY``: a tie-break key that is one column of the score breakdown, such as
``longest path``), and ``bonus group NAME: CITY, …`` / ``bonus country NAME: CITY, …`` for
the places a measure's ``touching`` names and the countries ``countries reached`` counts.
The measures: ``locomotives held [counting N of one colour as one]``, ``trains left``,
``countries reached`` (the countries with a city at an end of one of the player's routes),
``routes`` and ``tickets completed``, each with filters that must all hold (``of length N``,
``touching GROUP-OR-CITY``, ``with ATTRIBUTE``: a route attribute such as ``ferry``;
``touching …``, ``worth at most N``).

Play: at set-up (``setup_piles``, after the decks are shuffled), the cards in the spec's
order are shuffled with the game's generator and the first N are dealt face up
(``bonus_cards``, public). Scoring: ``score_player`` writes each dealt card's measure in its
slot's column (``bonus_card_1`` …; a ``by KEY`` card's in ``score_awards``, once every row
holds the key's column), and ``score_awards`` gives each card's points to every player whose
measure is the highest (above 0: a card nobody has anything of scores for nobody, as the
longest path and the explorer), counting the cards each won (``bonus_cards_won``, the tie-
break key ``most bonus cards``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import PositionError, Span
from ...compiler.base.limits import Limit
from ...compiler.base.rng import shuffle_in_state
from ...compiler.base.schema import Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.lang import ast
from ...compiler.mechanic import (
    CORE_SCORE_ITEMS,
    AgentPlay,
    AgentRules,
    DescribedPositions,
    Drawing,
    Mechanic,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
    TieBreak,
)
from .agents import BonusWorth
from .state_view import BonusCardsState
from .syntax import BonusCard, BonusCountry, BonusDeal, BonusGroup

#: The most bonus cards a spec may list.
MOST_CARDS = 16
#: The most countries a spec may declare.
MOST_COUNTRIES = 30
#: The measures, as the compiled engine numbers them (T_BONUS_KIND).
KINDS = ("hand", "trains", "countries", "routes", "tickets", "key")


@dataclass(frozen=True)
class Card:
    """One bonus card, resolved: what it measures and what it scores."""

    title: str
    points: int
    kind: str                     # one of KINDS
    pair: int = 0                 # hand: cards of one colour counting as one locomotive (0: none)
    routes: tuple[int, ...] = ()  # routes: the routes counted
    tickets: tuple[int, ...] = ()  # tickets: the tickets counted, when completed
    key: str = ""                 # key: the tie-break key whose column is the measure


@dataclass(frozen=True)
class BonusCardsRule(ir.Rule):
    mechanic: ClassVar[str] = "bonus_cards"
    dealt: int
    cards: tuple[Card, ...]
    city_country: tuple[int, ...]  # per city, its country (the order of the spec's 'bonus country'), -1: none
    span: Span | None = field(default=None, compare=False)


def slot_item(k: int) -> str:
    """The breakdown column of the ``k``-th dealt card's measure (from 0)."""
    return f"bonus_card_{k + 1}"


def measure(variant: ir.Variant, card: Card, rule: BonusCardsRule, hand: list[int], trains: int,
            owned: list[ir.Route], completed: set[int]) -> int:
    """One player's measure for a card that is not ``by KEY``."""
    if card.kind == "hand":
        return hand[-1] + (sum(n // card.pair for n in hand[:-1]) if card.pair else 0)
    if card.kind == "trains":
        return trains
    if card.kind == "countries":
        return len({rule.city_country[c] for r in owned for c in (r.a, r.b)} - {-1})
    if card.kind == "routes":
        counted = set(card.routes)
        return sum(1 for r in owned if r.id in counted)
    return len(completed & set(card.tickets))


def award(rows: list[dict], rule: BonusCardsRule, dealt: list[int]) -> None:
    """Each dealt card's points to every player with the highest measure (above 0)."""
    for row in rows:
        row["bonus_cards"] = row["bonus_cards_won"] = 0
    for k, card_id in enumerate(dealt):
        column = slot_item(k)
        best = max(row[column] for row in rows)
        if best <= 0:
            continue
        for row in rows:
            if row[column] == best:
                row["bonus_cards"] += rule.cards[card_id].points
                row["bonus_cards_won"] += 1


class BonusCardsReference(MechanicReference[BonusCardsState, BonusCardsRule]):
    """Bonus cards in plain Python."""

    def __init__(self, rules: Services, rule: BonusCardsRule):
        super().__init__(rules, rule)
        self.keys = {c.key: rules.variant.registry.tiebreak(c.key) for c in rule.cards if c.kind == "key"}

    def setup_piles(self, state: BonusCardsState) -> None:
        """The cards shuffled with the game's generator; the first ``dealt`` face up."""
        order = list(range(len(self.rule.cards)))
        shuffle_in_state(state, order)
        state.bonus_cards = order[:self.rule.dealt]

    def score_player(self, state: BonusCardsState, player: int, row: dict[str, int], network: list[int]) -> None:
        """Each dealt card's measure in its slot's column (a ``by KEY`` card's in score_awards)."""
        variant = self.rules.variant
        owned = [r for r in variant.routes if state.owner[r.id] == player]
        completed = {t for t in state.tickets[player] if self.rules.ticket_result(state, player, t, network)[1]}
        for k, card_id in enumerate(state.bonus_cards):
            card = self.rule.cards[card_id]
            row[slot_item(k)] = 0 if card.kind == "key" else measure(
                variant, card, self.rule, state.hands[player], state.trains[player], owned, completed)

    def score_awards(self, state: BonusCardsState, rows: list[dict[str, int]]) -> None:
        """The ``by KEY`` cards' measures from their columns, then every card's points."""
        for k, card_id in enumerate(state.bonus_cards):
            card = self.rule.cards[card_id]
            if card.kind == "key":
                tb = self.keys[card.key]
                for row in rows:
                    row[slot_item(k)] = tb.sign * row[tb.column]
        award(rows, self.rule, state.bonus_cards)


#: The seat key of a described position holding the player's train cards (read only where a
#: card measures the locomotives held: nothing else scored reads a hand).
HAND = "cards_held"
#: The top key naming the bonus cards dealt.
DEALT = "bonus_cards"


def card_names(variant: ir.Variant) -> list[str]:
    """The train cards by id, as positions name them: the colours, then ``loco``."""
    return [c.name for c in variant.colours] + ["loco"]


class BonusCards(Mechanic[BonusCardsRule], AgentRules[BonusCardsRule], DescribedPositions[BonusCardsRule],
                 Drawing[BonusCardsRule], Sampled):
    name = "bonus_cards"
    order = 250
    title = "bonus cards (end-game awards drawn at set-up)"
    sample = Sample(("bonus cards 1", 'bonus card "Few" 5 for most trains left',
                     'bonus card "Short" 4 for most routes of length 1'))
    rule = BonusCardsRule
    reference = BonusCardsReference
    statements = (BonusDeal, BonusCard, BonusGroup, BonusCountry)
    state_fields = (Field("bonus_cards", "the bonus cards dealt at set-up, face up (ids in the spec's order of "
                                         "'bonus card' lines)", owner="bonus_cards", size="BONUS_DEALT",
                          high="N_BONUS_CARDS-1", items="bonus card"),)
    limits = (Limit("bonus cards N", f"1 … the cards listed (at most {MOST_CARDS})",
                    "the cards drawn at set-up from those the spec lists"),
              Limit('bonus card "TITLE" P …', "P a points value", "every player tied for the most scores P"))
    score_items = (
        ScoreItem("bonus_cards", "the points of the bonus cards the player won (the most of a card's measure, "
                                 "above 0; ties all score)", True, "bonus_cards", label="bonus"),
        ScoreItem("bonus_cards_won", "how many of the dealt bonus cards the player won", False, "bonus_cards",
                  label="won"),
    )
    tiebreaks = (
        TieBreak("most_bonus_cards", "most bonus cards", "the most bonus cards won", owner="bonus_cards",
                 unavailable="tie-break on bonus cards, but the variant has no bonus cards",
                 column="bonus_cards_won"),
    )

    position_keys = (PositionKey(HAND, "the train cards the player holds, a count by card name ({\"red\": 2, "
                                       "\"loco\": 1}): what a bonus card of locomotives held counts"),)

    @staticmethod
    def _reads_hands(rule: BonusCardsRule) -> bool:
        return any(card.kind == "hand" for card in rule.cards)

    def seat_position(self, variant: ir.Variant, rule: BonusCardsRule, state: dict, player: int) -> dict:
        """The player's hand, by card name, where a card measures locomotives held."""
        if not self._reads_hands(rule):
            return {}
        names = card_names(variant)
        return {HAND: {names[card]: n for card, n in enumerate(state["hands"][player]) if n}}

    def position(self, variant: ir.Variant, rule: BonusCardsRule, player: int, seat: dict, fields: dict) -> None:
        """A seat's ``cards_held`` into ``hands``: known card names, counts from 0 to the cards of
        that kind the game has (absent: no card)."""
        cards = seat.get(HAND, {})
        if not isinstance(cards, dict):
            raise PositionError(f"player {player}: '{HAND}' counts cards by name, as {{\"red\": 2}}, got "
                                f"{type(cards).__name__}")
        names = card_names(variant)
        counts = [c.count for c in variant.colours] + [variant.locomotives]
        hands = fields.setdefault("hands", [[0] * len(names) for _ in range(fields["players"])])
        for name, n in cards.items():
            if name not in names:
                raise PositionError(f"player {player}: '{HAND}' names no train card of {variant.name}: {name!r} "
                                    f"(the cards: {', '.join(names)})")
            card = names.index(name)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= counts[card]:
                raise PositionError(f"player {player}: '{HAND}' holds 0 to {counts[card]} {name} cards, got {n!r}")
            hands[player][card] = n
        for card, total in enumerate(counts):
            if sum(hand[card] for hand in hands) > total:
                raise PositionError(f"the players hold {sum(hand[card] for hand in hands)} {names[card]} cards, the "
                                    f"game has {total}")

    def top_position(self, variant: ir.Variant, rule: BonusCardsRule, state: dict) -> dict:
        """The bonus cards dealt, by title."""
        return {DEALT: [rule.cards[card].title for card in state["bonus_cards"]]}

    def position_top(self, variant: ir.Variant, rule: BonusCardsRule, position: dict, fields: dict) -> None:
        """``bonus_cards``: the titles of the cards dealt, as many as the spec deals, none
        twice (absent: the first the spec lists)."""
        titles = [card.title for card in rule.cards]
        dealt = position.get(DEALT)
        if dealt is None:
            fields["bonus_cards"] = list(range(rule.dealt))
            return
        if not isinstance(dealt, list) or len(dealt) != rule.dealt:
            raise PositionError(f"'{DEALT}' lists the titles of the {rule.dealt} bonus cards dealt, got {dealt!r}")
        for title in dealt:
            if title not in titles:
                raise PositionError(f"'{DEALT}': {variant.name} has no bonus card {title!r} (its cards: "
                                    f"{', '.join(titles)})")
        if len(set(dealt)) != len(dealt):
            raise PositionError(f"'{DEALT}': a bonus card is dealt once, got {dealt!r}")
        fields["bonus_cards"] = [titles.index(title) for title in dealt]

    def item_names(self, variant: ir.Variant, rule: BonusCardsRule) -> dict[str, list[str]]:
        """The bonus cards by id (the spec's titles), for the field of those dealt."""
        return {"bonus card": [card.title for card in rule.cards]}

    def agent_play(self, variant: ir.Variant, rule: BonusCardsRule) -> AgentPlay:
        """No decision of its own; the cards dealt in a game make the routes they count worth
        a share of their points to the agents (``worth_now``: agents.BonusWorth)."""
        return AgentPlay(worth_now=BonusWorth(variant, rule))

    def variant_score_items(self, variant: ir.Variant, rule: BonusCardsRule) -> tuple[ScoreItem, ...]:
        """The two totals, then one measure column per dealt card."""
        return self.score_items + tuple(
            ScoreItem(slot_item(k), f"the player's measure for the bonus card dealt {k + 1}{'st' if k == 0 else 'th'}"
                                    f" (a 'by KEY' card's: the key's column)", False, "bonus_cards",
                      label=f"card {k + 1}")
            for k in range(rule.dealt))

    def check(self, ctx) -> BonusCardsRule | None:
        deal = ctx.one(BonusDeal)
        cards_written = ctx.many(BonusCard)
        groups = ctx.many(BonusGroup)
        if deal is None:
            for stmt in [*cards_written, *groups]:
                ctx.errors.add(stmt.span, "a bonus card needs 'bonus cards N': how many are drawn at set-up")
            return None
        group_cities, countries = self._groups(ctx, groups)
        cards = [card for stmt in cards_written if (card := self._card(ctx, stmt, group_cities)) is not None]
        if len(cards_written) > MOST_CARDS:
            ctx.errors.add(cards_written[MOST_CARDS].span, f"at most {MOST_CARDS} bonus cards")
        dealt = ctx.positive(deal.dealt, "the bonus cards drawn")
        if dealt and dealt > len(cards_written):
            ctx.errors.add(deal.dealt.span, f"{dealt} bonus cards drawn, but the spec lists {len(cards_written)}")
        if len(cards) != len(cards_written) or not dealt:
            return None
        city_country = [-1] * len(ctx.places.cities)
        for index, (_name, cities) in enumerate(countries):
            for city in cities:
                city_country[city] = index
        return BonusCardsRule(dealt=dealt, cards=tuple(cards), city_country=tuple(city_country), span=deal.span)

    @staticmethod
    def _groups(ctx, groups: list[BonusGroup]) -> tuple[dict[str, set[int]], list[tuple[str, set[int]]]]:
        """The named groups' cities (a country is a group too), and the countries in order;
        a city is in one country at most."""
        named: dict[str, set[int]] = {}
        countries: list[tuple[str, set[int]]] = []
        country_of: dict[int, str] = {}
        for g in groups:
            kind = "country" if g.country else "group"
            if g.name.text in named:
                ctx.errors.add(g.name.span, f"'{g.name.text}' is already a bonus group or country: name each once")
                continue
            cities = set()
            for name in g.cities:
                city = ctx.places.ref(name, f"bonus {kind} {g.name.text}")
                if city is None:
                    continue
                if g.country and city in country_of:
                    ctx.errors.add(name.span, f"city '{name.text}' is in two countries: {country_of[city]} and "
                                              f"{g.name.text}")
                    continue
                if g.country:
                    country_of[city] = g.name.text
                cities.add(city)
            named[g.name.text] = cities
            if g.country and len(countries) == MOST_COUNTRIES:
                ctx.errors.add(g.span, f"at most {MOST_COUNTRIES} countries (the engine keeps those a player "
                                       f"reaches as bits of one number)")
            elif g.country:
                countries.append((g.name.text, cities))
        return named, countries

    def _card(self, ctx, stmt: BonusCard, groups: dict[str, set[int]]) -> Card | None:
        """A card's measure, resolved; None after an error."""
        points = ctx.points(stmt.points, "a bonus card's points")
        words = list(stmt.measure)
        if stmt.by is not None:
            keys = ctx.tiebreaks([stmt.by], stmt.span)
            if not keys:
                return None
            if not keys[0].column:  # a key holding the best of all reads its column, raw
                ctx.errors.add(stmt.by.span, f"tie-break '{keys[0].words}' cannot measure a bonus card: it reads "
                                             f"no column of the score breakdown")
                return None
            return Card(stmt.title, points, "key", key=keys[0].name)
        what = words[2]  # after "for" "most"
        if what == "locomotives":
            pair = ctx.positive(words[5], "the cards of one colour counting as one", most=12) \
                if len(words) > 4 else 0
            return Card(stmt.title, points, "hand", pair=pair)
        if what in ("trains", "countries"):
            if what == "countries" and not any(g.country for g in ctx.many(BonusGroup)):
                ctx.errors.add(stmt.span, "'countries reached' needs countries: add 'bonus country NAME: CITY, …'")
                return None
            return Card(stmt.title, points, what)
        filters = words[3:] if what == "routes" else words[4:]
        routes = list(ctx.board.routes)
        tickets = list(ctx.tickets)
        k = 0
        ok = True
        while k < len(filters):
            word = filters[k]
            if word == "of":  # of length N
                length = filters[k + 2].value
                routes = [r for r in routes if r.length == length]
                k += 3
            elif word == "touching":
                places = self._touching(ctx, filters[k + 1], groups)
                if places is None:
                    ok = False
                else:
                    routes = [r for r in routes if r.a in places or r.b in places]
                    tickets = [t for t in tickets if t.a in places or t.b in places]
                k += 2
            elif word == "with":
                attribute = filters[k + 1]
                having = {route.id for route, _attr in ctx.routes_with(attribute.text)}
                if not having:
                    ctx.warn(attribute.span, f"no route has the attribute '{attribute.text}': the bonus card counts "
                                             f"nothing")
                routes = [r for r in routes if r.id in having]
                k += 2
            else:  # worth at most N
                most = filters[k + 3].value
                tickets = [t for t in tickets if t.points <= most]
                k += 4
        if not ok:
            return None
        if what == "routes":
            return Card(stmt.title, points, "routes", routes=tuple(r.id for r in routes))
        return Card(stmt.title, points, "tickets", tickets=tuple(t.id for t in tickets))

    @staticmethod
    def _touching(ctx, name: ast.Name, groups: dict[str, set[int]]) -> set[int] | None:
        """The places a ``touching`` names: a group's (or country's) cities, or one city."""
        if name.text in groups:
            return groups[name.text]
        city = ctx.places.ref(name, "a bonus card (neither a city nor a 'bonus group')")
        return None if city is None else {city}

    def score_bound(self, variant: ir.Variant, rule: BonusCardsRule) -> int:
        """The dealt cards worth the most, all won."""
        return sum(sorted((c.points for c in rule.cards), reverse=True)[:rule.dealt])

    def dimensions(self, variant: ir.Variant, rule: BonusCardsRule) -> dict[str, int]:
        return {"BONUS_DEALT": rule.dealt, "N_BONUS_CARDS": len(rule.cards)}

    def tables(self, variant: ir.Variant, rule: BonusCardsRule) -> Tables:
        items = {item.name: item for item in CORE_SCORE_ITEMS}
        for mechanic, other in variant.present():
            items.update({item.name: item for item in mechanic.variant_score_items(variant, other)})
        n_routes, n_tickets = len(variant.routes), len(variant.tickets)
        route_in = [0] * (len(rule.cards) * n_routes)
        ticket_in = [0] * (len(rule.cards) * max(1, n_tickets))
        columns, signs = [], []
        for c, card in enumerate(rule.cards):
            for r in card.routes:
                route_in[c * n_routes + r] = 1
            for t in card.tickets:
                ticket_in[c * n_tickets + t] = 1
            tb = variant.registry.tiebreak(card.key) if card.kind == "key" else None
            columns.append(f"B_{items[tb.column].enum}" if tb else "0")
            signs.append(tb.sign if tb else 0)
        countries = [sum(1 << k for k in {rule.city_country[r.a], rule.city_country[r.b]} if k >= 0)
                     for r in variant.routes]  # a bit per country at an end of the route
        return Tables(constants=[("BONUS_KEYS", int(any(c.kind == "key" for c in rule.cards)))],
                      arrays=[("T_BONUS_KIND", [KINDS.index(c.kind) for c in rule.cards]),
                              ("T_BONUS_POINTS", [c.points for c in rule.cards]),
                              ("T_BONUS_PAIR", [c.pair for c in rule.cards]),
                              ("T_BONUS_ROUTE", route_in), ("T_BONUS_TICKET", ticket_in),
                              ("T_BONUS_SIGN", signs), ("T_ROUTE_COUNTRIES", countries)],
                      context={"bonus_columns": columns})
