"""Stock shares and majority scoring (Pennsylvania).

Pennsylvania rulebook, Quote azionistiche and Calcolare il punteggio: each company's
shares form a stack numbered from 1, share 1 on top; after claiming a route showing
company symbols, the player "può anche prendere" (may also take) the top share of one of
those companies (a decision of its own, ``take share COMPANY``, or ``take no share``); a
company whose stack is empty cannot be chosen, and a route without companies gives no
share. At the end each company's shareholders are
ranked by their number of shares and score the company's table (``company NAME shares N
points P1 P2 …``); equal counts go to the holder of the lowest-numbered share (``share
ties lowest number``, the default) or share the place (``share ties shared``); places
beyond the table and players without shares score nothing.

Regole per 2 giocatori: a neutral shareholder, written (never inferred) as ``neutral
shareholder for 2 players takes route companies counts half rounded up``: each time a
player takes a share they choose one for it (``neutral share COMPANY``; a player who takes
none chooses none); when the game
ends half its shares, rounded up, are drawn with the game's generator and stored in the
state; only those count in the majorities, and the neutral player scores nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import PositionError, Span
from ...compiler.base.limits import Limit
from ...compiler.base.rng import shuffle_in_state
from ...compiler.base.schema import PH_OVER, PH_TURN, Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    DescribedPositions,
    Drawing,
    HardCases,
    Invariants,
    Looks,
    Mechanic,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
)
from .state_view import SharesState
from .syntax import Company, NeutralShareholder, SharesAttr, ShareTies

#: Companies: a route's companies are a bit mask in the compiled engine.
MAX_COMPANIES = 30
#: The shares of one company: every share has an owner in the state.
MAX_SHARES = 100

TAKE_SHARE = "take_share"
DECLINE_SHARE = "decline_share"
NEUTRAL_SHARE = "neutral_share"
PH_SHARE = "share"
PH_NEUTRAL_SHARE = "neutral_share"


@dataclass(frozen=True)
class ShareCompany:
    id: int
    name: str
    shares: int
    points: tuple[int, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Neutral:
    """The neutral shareholder: in games of ``low``..``high`` players, each time a player
    takes a share they choose one for it, from one of the claimed route's companies
    (``takes = "route"``) or any company (``"any"``); at the end half of its shares,
    rounded ``rounding``, drawn at random, count in the majorities."""

    low: int
    high: int
    takes: str
    rounding: str

    def seats(self, players: int) -> bool:
        return self.low <= players <= self.high

    def counted(self, held: int) -> int:
        return (held + 1) // 2 if self.rounding == "up" else held // 2


@dataclass(frozen=True)
class SharesRule(ir.Rule):
    mechanic: ClassVar[str] = "shares"
    companies: tuple[ShareCompany, ...]
    ties: str                 # equal share counts: "lowest_number" or "shared"
    neutral: Neutral | None   # the neutral shareholder, when the spec seats one
    route_companies: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (route id, its companies), routes with any
    span: Span | None = field(default=None, compare=False)

    def companies_of(self, route: int) -> tuple[int, ...]:
        """The companies a route shows (company ids, as written)."""
        return dict(self.route_companies).get(route, ())

    def first_share(self, company: int) -> int:
        """The index of a company's share number 1 among all shares (companies in order)."""
        return sum(c.shares for c in self.companies[:company])

    @property
    def total_shares(self) -> int:
        return sum(c.shares for c in self.companies)


def place_item(company: ShareCompany) -> str:
    """The breakdown key of the place a player took in a company's majority."""
    return f"{company.name} place"


def majorities(rule: SharesRule, owner: list[int], players: int) -> tuple[list[int], list[list[int]]]:
    """Each player's share points, and per company each player's place (1-based, 0 when the
    player has none of its shares). ``owner`` is the state's ``share_owner``: the neutral's
    revealed shares (``players + 1``) rank like a player's but score nothing."""
    points = [0] * players
    places = []
    for company in rule.companies:
        first = rule.first_share(company.id)
        counts, lowest = [0] * (players + 1), [company.shares] * (players + 1)
        for number in range(company.shares):
            holder = owner[first + number]
            holder = holder if holder < players else (players if holder == players + 1 else -1)
            if holder >= 0:
                counts[holder] += 1
                lowest[holder] = min(lowest[holder], number)
        row = [0] * players
        for player in range(players):
            if not counts[player]:
                continue
            place = sum(1 for other in range(players + 1) if counts[other] > counts[player]
                        or (rule.ties == "lowest_number" and counts[other] == counts[player] and counts[other]
                            and lowest[other] < lowest[player]))
            row[player] = place + 1
            if place < len(company.points):
                points[player] += company.points[place]
        places.append(row)
    return points, places


class SharesReference(MechanicReference[SharesState, SharesRule]):
    """Shares in plain Python."""

    def __init__(self, rules: Services, rule: SharesRule):
        super().__init__(rules, rule)
        actions = rules.variant.actions
        self.take = {a.param: a.id for a in actions if a.kind == TAKE_SHARE}
        self.decline = next(a.id for a in actions if a.kind == DECLINE_SHARE)
        self.give = {a.param: a.id for a in actions if a.kind == NEUTRAL_SHARE}

    def top(self, state: SharesState, company: int) -> int:
        """The index of a company's top share (the lowest number left), or -1."""
        first = self.rule.first_share(company)
        for index in range(first, first + self.rule.companies[company].shares):
            if state.share_owner[index] == -1:
                return index
        return -1

    def offered(self, state: SharesState, neutral: bool) -> list[int]:
        """The companies a share may be taken from now, in id order."""
        rule_neutral = self.rule.neutral
        on_route: Iterable[int]
        if neutral and rule_neutral is not None and rule_neutral.takes == "any":
            on_route = range(len(self.rule.companies))
        else:
            on_route = self.rule.companies_of(state.share_route)
        return [c for c in sorted(set(on_route)) if self.top(state, c) >= 0]

    def after_claim(self, state: SharesState, route: ir.Route, player: int) -> None:
        if any(self.top(state, c) >= 0 for c in self.rule.companies_of(route.id)):
            state.share_route = route.id
            state.phase = PH_SHARE

    def phase_legal(self, state: SharesState) -> list[int]:
        return self.legal_take(state) if state.phase == PH_SHARE else self.legal_give(state)

    def apply(self, state: SharesState, action: ir.Action) -> None:
        if action.kind == TAKE_SHARE:
            self.take_share(state, action)
        elif action.kind == DECLINE_SHARE:  # no share, and none for the neutral either
            self.done(state)
        else:
            self.give_share(state, action)

    def legal_take(self, state: SharesState) -> list[int]:
        """A share of each company offered, or none ("può anche prendere": may take)."""
        offered = [self.take[c] for c in self.offered(state, neutral=False)]
        return offered + [self.decline] if offered else []

    def legal_give(self, state: SharesState) -> list[int]:
        return [self.give[c] for c in self.offered(state, neutral=True)]

    def take_share(self, state: SharesState, action: ir.Action) -> None:
        state.share_owner[self.top(state, action.param)] = state.current
        neutral = self.rule.neutral
        if neutral is not None and neutral.seats(state.players) and self.offered(state, neutral=True):
            state.phase = PH_NEUTRAL_SHARE
            return
        self.done(state)

    def give_share(self, state: SharesState, action: ir.Action) -> None:
        state.share_owner[self.top(state, action.param)] = state.players
        self.done(state)

    def done(self, state: SharesState) -> None:
        state.share_route = -1
        state.phase = PH_TURN
        self.rules.end_turn(state, passed=False)

    def game_over(self, state: SharesState) -> None:
        """Regole per 2 giocatori: half the neutral's shares, drawn at random, are revealed."""
        neutral = self.rule.neutral
        if neutral is None or not neutral.seats(state.players):
            return
        held = [i for i, holder in enumerate(state.share_owner) if holder == state.players]
        shuffle_in_state(state, held)
        for index in held[:neutral.counted(len(held))]:
            state.share_owner[index] = state.players + 1

    def score_awards(self, state: SharesState, rows: list[dict]) -> None:
        points, places = majorities(self.rule, state.share_owner, state.players)
        for player, row in enumerate(rows):
            row["shares"] = points[player]
            for company, row_places in zip(self.rule.companies, places):
                row[place_item(company)] = row_places[player]


class Shares(Mechanic[SharesRule], DescribedPositions[SharesRule], Invariants[SharesRule], AgentRules[SharesRule],
             Drawing[SharesRule], HardCases[SharesRule], Sampled):
    name = "shares"
    order = 120
    title = "stock shares"
    sample = Sample(("company Red shares 4 points 10 5",), route=" shares Red")
    rule = SharesRule
    state_fields = (
        Field("share_owner", "each share's holder, companies in order, numbers from 1: -1 in its stack, a "
                             "player, the neutral (players), a neutral share revealed at the end (players+1)",
              owner="shares", size="SHARE_TOTAL", low="-1", high="players+1", initial=-1),
        Field("share_route", "the route whose companies a share is being chosen from (-1: none)", owner="shares",
              low="-1", high="N_ROUTES-1", initial=-1, names="route"),
    )
    phases = (PH_SHARE, PH_NEUTRAL_SHARE)
    kinds = (TAKE_SHARE, DECLINE_SHARE, NEUTRAL_SHARE)
    reference = SharesReference
    score_items = (ScoreItem("shares", "the majority points of every company", True, "shares"),)
    position_keys = (PositionKey("shares", "the shares the player holds: {company: [share numbers]}"),)
    statements = (Company, ShareTies, NeutralShareholder, SharesAttr)
    limits = (Limit("company NAME shares N points P…", f"at most {MAX_COMPANIES} companies; N 1 … {MAX_SHARES}; "
                    f"at most HIGH + 1 places", "a route's companies are a bit mask in the compiled engine; every "
                    "share has an owner row in the state; places beyond the shareholders (players and the neutral "
                    "one) are never reached"),)

    def check(self, ctx) -> SharesRule | None:
        companies, ids = self._companies(ctx)
        ties = ctx.one(ShareTies)
        stmt = ctx.one(NeutralShareholder)
        for given, words in ((ties, "share ties"), (stmt, "neutral shareholder")):
            if given and not companies:
                ctx.errors.add(given.span, f"'{words}' needs companies: add 'company NAME shares N points …'")
        neutral = None
        if stmt:
            low, high, players = stmt.low.value, stmt.high.value, ctx.players
            if low > high:
                ctx.errors.add(stmt.span, f"player range {low}..{high} is empty")
            elif players.ok and (low < players.low or high > players.high):
                seats = f"{low}" if low == high else f"{low}..{high}"
                ctx.errors.add(stmt.low.span, f"a neutral shareholder for {seats} players, but the game is "
                                              f"for {players.low}..{players.high}")
            neutral = Neutral(low=low, high=high, takes=stmt.takes, rounding=stmt.rounding)
        route_companies = []
        for route, attr in ctx.routes_with(SharesAttr.name):
            named = []
            for share in attr.value:
                if share.text in ids and ids[share.text] in named:
                    ctx.errors.add(share.span, f"company '{share.text}' is listed twice on this route")
                elif share.text in ids:
                    named.append(ids[share.text])
            if named:
                route_companies.append((route.id, tuple(named)))
        for stmt_route, _length in ctx.board.attributed:  # every route statement, a route or not
            attr = stmt_route.attr(SharesAttr.name)
            for share in attr.value if attr is not None else ():
                if share.text not in ids:
                    hint = "" if ctx.errors.full(share.span.file) else ctx.suggest(share.text, ids)
                    ctx.errors.add(share.span, f"unknown company '{share.text}'{hint}")
        if not companies:
            return None
        self._warn_dead_companies(ctx, companies, route_companies, neutral)
        return SharesRule(companies=tuple(companies), ties=ties.mode if ties else "lowest_number", neutral=neutral,
                          route_companies=tuple(route_companies), span=companies[0].span)

    @staticmethod
    def _warn_dead_companies(ctx, companies, route_companies, neutral) -> None:
        """A company no route names (its shares are never taken), and table places no
        shareholder can reach (more than its shares, or than the players and a seated
        neutral of the largest game)."""
        named = {c for _route, shown in route_companies for c in shown}
        players = ctx.players
        for company in companies:
            if company.id not in named:
                ctx.warn(company.span, f"company '{company.name}' is named by no route: its shares are never taken")
            if not players.ok:
                continue
            holders = players.high + (1 if neutral is not None and neutral.seats(players.high) else 0)
            reachable = min(company.shares, holders)
            if len(company.points) > reachable:
                why = (f"it has {company.shares} share{'s' if company.shares != 1 else ''}"
                       if company.shares < holders else f"at most {holders} shareholders play")
                ctx.warn(company.span, f"company '{company.name}' has {len(company.points)} places, but only "
                                       f"{reachable} can be reached: {why}")

    @staticmethod
    def _companies(ctx) -> tuple[list[ShareCompany], dict[str, int]]:
        """Companies: a name once, a share count and a majority table within bounds (no more
        places than the shareholders of the largest game: the players and a neutral one)."""
        companies: list[ShareCompany] = []
        ids: dict[str, int] = {}
        for co in ctx.many(Company):
            if co.name.text in ids:
                first = companies[ids[co.name.text]].span
                ctx.errors.add(co.name.span, f"company '{co.name.text}' is declared twice "
                                             f"(first at {ctx.line_of(first, co.span)})")
                continue
            if len(companies) == MAX_COMPANIES:
                ctx.errors.add(co.name.span, f"at most {MAX_COMPANIES} companies are supported")
            shares = ctx.positive(co.shares, f"the number of {co.name.text} shares", most=MAX_SHARES)
            points = tuple(ctx.points(p, "a share points entry") for p in co.points)
            players = ctx.players
            if players.ok and len(co.points) > players.high + 1:
                ctx.errors.add(co.points[players.high + 1].span,
                               f"company {co.name.text} has {len(co.points)} places, more than the "
                               f"{players.high + 1} shareholders a game can have ({players.high} players and a "
                               f"neutral one)")
            ids[co.name.text] = len(companies)
            companies.append(ShareCompany(len(companies), co.name.text, shares, points, co.name.span))
        return companies, ids

    def actions(self, variant, rule: SharesRule) -> list[dict]:
        out = [dict(kind=TAKE_SHARE, name=f"take share {co.name}", param=co.id) for co in rule.companies]
        out.append(dict(kind=DECLINE_SHARE, name="take no share"))
        if rule.neutral is not None:
            out += [dict(kind=NEUTRAL_SHARE, name=f"neutral share {co.name}", param=co.id)
                    for co in rule.companies]
        return out

    def agent_play(self, variant, rule: SharesRule) -> AgentPlay:
        """A share (the player's or the neutral's) of the company whose routes the player holds
        the most length of: each share action is about the routes showing its company. The
        styles always take one (``take no share`` is a kind without a rule: never chosen
        while a share is offered); a share never costs its taker a place, and only in 2-player
        games does one change what the neutral reveals."""
        showing = {c.id: [r for r, shown in rule.route_companies for x in shown if x == c.id]
                   for c in rule.companies}
        return AgentPlay(rules={TAKE_SHARE: "by_routes", NEUTRAL_SHARE: "by_routes"},
                         routes={a.id: tuple(showing[a.param]) for a in variant.actions
                                 if a.kind in (TAKE_SHARE, NEUTRAL_SHARE)})

    def hard_cases(self, variant, rule: SharesRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """A company whose majority is tied between holders (the neutral included)."""
        owner = state["share_owner"]
        start = 0
        for company in rule.companies:
            held: dict[int, int] = {}
            for holder in owner[start:start + company.shares]:
                if holder >= 0:
                    held[holder] = held.get(holder, 0) + 1
            start += company.shares
            counts = sorted(held.values(), reverse=True)
            if len(counts) > 1 and counts[0] == counts[1]:
                return ("a tied company majority",)
        return ()

    def looks(self, variant, rule: SharesRule) -> Looks:
        """Each company a route shows is a dot of the company's colour beside the route, the
        companies named in the legend (the board prints their logos beside the route)."""
        return Looks(route_groups=tuple((c.name, tuple(r for r, shown in rule.route_companies if c.id in shown))
                                        for c in rule.companies),
                     legend={"route_groups": "companies: a dot beside a route for each company it shows; "
                                             "claiming it takes a share of one"})

    def variant_score_items(self, variant, rule: SharesRule) -> tuple[ScoreItem, ...]:
        return self.score_items + tuple(
            ScoreItem(place_item(co), f"the player's place in {co.name}'s majority (0: no share)", False, "shares",
                      c_name=f"SHARE_PLACE_{co.id}", measure="place") for co in rule.companies)

    def dimensions(self, variant, rule: SharesRule) -> dict[str, int]:
        return {"SHARE_TOTAL": rule.total_shares}

    def score_bound(self, variant, rule: SharesRule) -> int:
        """One place in every company's majority."""
        return sum(max(c.points, default=0) for c in rule.companies)

    def tables(self, variant: ir.Variant, rule: SharesRule) -> Tables:
        take = [a.id for a in variant.actions if a.kind == TAKE_SHARE]
        decline = next(a.id for a in variant.actions if a.kind == DECLINE_SHARE)
        give = [a.id for a in variant.actions if a.kind == NEUTRAL_SHARE]
        places = max(len(c.points) for c in rule.companies)
        points = []
        for c in rule.companies:
            points.extend(list(c.points) + [0] * (places - len(c.points)))
        neutral = rule.neutral
        return Tables(
            constants=[("N_COMPANIES", len(rule.companies)), ("ACT_TAKE_SHARE_0", take[0]),
                       ("ACT_DECLINE_SHARE", decline),
                       ("ACT_NEUTRAL_SHARE_0", give[0] if give else -1), ("SHARE_PLACES", places),
                       ("SHARE_TIES_LOWEST", int(rule.ties == "lowest_number")),
                       ("NEUTRAL_LOW", neutral.low if neutral else 0),
                       ("NEUTRAL_HIGH", neutral.high if neutral else -1),
                       ("NEUTRAL_ANY", int(neutral is not None and neutral.takes == "any")),
                       ("NEUTRAL_ROUND_UP", int(neutral is not None and neutral.rounding == "up"))],
            arrays=[("T_ROUTE_COMPANIES", [sum(1 << c for c in set(rule.companies_of(r.id))) for r in variant.routes]
                     or [0]),
                    ("T_COMPANY_FIRST", [rule.first_share(c.id) for c in rule.companies]),
                    ("T_COMPANY_SHARES", [c.shares for c in rule.companies]),
                    ("T_COMPANY_PLACES", [len(c.points) for c in rule.companies]),
                    ("T_COMPANY_POINTS", points)])

    def state_problems(self, variant, rule: SharesRule, state: dict) -> list[str]:
        """Every share is held once (one field for all of them); each company's shares are
        taken from the top of its stack; a choice is pending only in a share phase, after
        the player to move claimed a route with companies, with a share left to choose (a
        neutral choice only when the neutral is seated); the neutral holds shares only when
        seated, revealed ones only once the game is over."""
        problems = []
        owner, players, phase = state["share_owner"], state["players"], state["phase"]
        for company in rule.companies:
            first = rule.first_share(company.id)
            taken = [owner[first + n] != -1 for n in range(company.shares)]
            if taken != sorted(taken, reverse=True):
                problems.append(f"state field 'share_owner': {company.name}: a share is taken below one still in "
                                f"the stack")
        neutral_seated = rule.neutral is not None and rule.neutral.seats(players)
        if any(o >= players for o in owner) and not neutral_seated:
            problems.append(f"state field 'share_owner': the neutral shareholder holds shares in a {players}-player "
                            f"game without one")
        if any(o == players + 1 for o in owner) and phase != PH_OVER:
            problems.append("state field 'share_owner': neutral shares are revealed before the game is over")
        route = state["share_route"]
        choosing = phase in (PH_SHARE, PH_NEUTRAL_SHARE)
        if (route != -1) != choosing:
            problems.append(f"state field 'share_route': {route} in phase {phase!r}, but a share is being chosen "
                            f"(not -1) exactly in the share phases")
        elif choosing:
            problems += self._choice_problems(variant, rule, state)
        return problems

    @staticmethod
    def _choice_problems(variant, rule: SharesRule, state: dict) -> list[str]:
        """A pending share choice that play could not have opened, or that offers nothing."""
        player, players, phase, owner = state["current"], state["players"], state["phase"], state["share_owner"]
        route = variant.routes[state["share_route"]]
        shown = rule.companies_of(route.id)
        problems = []
        if state["owner"][route.id] != player:
            problems.append(f"state field 'share_route': a share is chosen for {route.name}, which player {player} "
                            f"to move does not own")
        if not shown:
            problems.append(f"state field 'share_route': a share is chosen for {route.name}, which shows no company")
        neutral = phase == PH_NEUTRAL_SHARE
        if neutral and (rule.neutral is None or not rule.neutral.seats(players)):
            problems.append(f"state field 'phase': 'neutral_share', but a {players}-player game has no neutral "
                            f"shareholder")
            return problems
        companies = range(len(rule.companies)) if neutral and rule.neutral is not None and rule.neutral.takes == "any" \
            else set(shown)
        left = [c for c in companies
                if any(owner[rule.first_share(c) + n] == -1 for n in range(rule.companies[c].shares))]
        if shown and not left:
            who = "the neutral shareholder" if neutral else f"player {player}"
            problems.append(f"state field 'share_owner': {who} is to take a share, but none is left of the "
                            f"companies it may choose from")
        return problems

    def seat_position(self, variant, rule: SharesRule, state: dict, player: int) -> dict:
        return {"shares": self._held(rule, state, player)}

    def top_position(self, variant, rule: SharesRule, state: dict) -> dict:
        """The neutral shareholder's shares (2-player games), when it holds any."""
        revealed = self._held(rule, state, state["players"] + 1)
        return {"neutral_shares": revealed} if revealed else {}

    @staticmethod
    def _held(rule: SharesRule, state: dict, holder: int) -> dict[str, list[int]]:
        """``{company: [share numbers]}`` of what ``holder`` holds (companies holding none left out)."""
        shares = {}
        for company in rule.companies:
            first = rule.first_share(company.id)
            held = [n + 1 for n in range(company.shares) if state["share_owner"][first + n] == holder]
            if held:
                shares[company.name] = held
        return shares

    def position(self, variant, rule: SharesRule, player: int, seat: dict, fields: dict) -> None:
        self._place(rule, fields, seat.get("shares", {}), player, f"player {player}")

    def position_top(self, variant, rule: SharesRule, position: dict, fields: dict) -> None:
        revealed = position.get("neutral_shares", {})
        if revealed:
            if rule.neutral is None or not rule.neutral.seats(fields["players"]):
                raise PositionError(f"'neutral_shares': {variant.name} has no neutral shareholder with "
                                    f"{fields['players']} players")
            self._place(rule, fields, revealed, fields["players"] + 1, "the neutral shareholder")

    @staticmethod
    def _place(rule: SharesRule, fields: dict, shares, holder: int, who: str) -> None:
        """Write one holder's ``{company: [numbers]}`` into ``share_owner``."""
        owner = fields.setdefault("share_owner", [-1] * rule.total_shares)
        if not isinstance(shares, dict):
            raise PositionError(f"{who}: 'shares' maps a company's name to share numbers")
        names = {c.name: c for c in rule.companies}
        for name, numbers in shares.items():
            if name not in names:
                raise PositionError(f"{who}: no company named {name!r}")
            company = names[name]
            if not isinstance(numbers, list):
                raise PositionError(f"{who}: the shares of {name} are a list of numbers")
            for number in numbers:
                if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= company.shares:
                    raise PositionError(f"{who}: {name} has shares 1 to {company.shares}, not {number!r}")
                index = rule.first_share(company.id) + number - 1
                if owner[index] != -1:
                    raise PositionError(f"{who}: share {number} of {name} is held twice")
                owner[index] = holder
