#!/usr/bin/env python3
"""A Ticket to Ride USA engine in one file, written from railspec's documents alone.

It imports nothing of railspec and uses the standard library only. It was written from
docs/conformance.md (the position notation, the action names, the driver protocol),
docs/engine.md (the rules: piles, market, turn, end of turn, scoring, the multi_track and
longest_path sections), docs/formats.md (names) and docs/language.md (the statements of
spec/usa.rail). Every number of the game, the map included, is read from the spec file:

    python examples/conformance/standalone_usa.py [SPEC.rail] [--mutant NAME]

SPEC.rail defaults to spec/usa.rail beside this repository. The engine speaks the driver
protocol (railspec-driver/1): one JSON request a line on standard input, one JSON answer
a line on standard output.

Choices this engine makes where railspec's own machinery is out of reach:

- **The spec hash.** railspec's spec hash is computed by its compiler, which this engine
  does not have. `hello` accepts the hash it is given (the variant must be the spec's
  file name, `usa`), and every position this engine writes carries that hash back. A
  position read must carry the same hash.
- **Chance.** The train deck's and the ticket deck's order are in the position, so every
  draw follows them exactly. A shuffle (the discards going back into an empty deck) uses
  Python's `random`; the driver compares shuffled piles as collections and sends its own
  position afterwards (docs/conformance.md, "Chance").
- **The generator.** Positions are written without `generator` (which another engine may
  leave out); a `generator` read is ignored.

Seeded bugs for checking a test suite (`--mutant NAME`), each a small, realistic mistake:

- `tiebreak`: the spec's tie-break keys are tried in reverse order (`longest path` before
  `most tickets` in the USA). Only a tie on the total decides differently.
- `double-route`: the rule that one player may not own two tracks of one route is
  missing; the limit of tracks usable at 2-3 players is still kept. Only 4-5 player games
  differ.
- `longest-reuse`: the longest path forgets to mark the first route of a trail as used,
  so a trail may come back along the route it started on (a lone route counts twice).
- `empty-draw`: the face-up cards are offered while the deck and the discards are both
  empty (the rules allow no train card draw at all then).
- `second-draw`: after a first card that left the deck and the discards empty, the turn
  goes on to a second draw instead of ending.
- `endless-passes`: a full round of passes does not end the game.
- `reset-shortage`: the market's reset leaves out its condition that the cards outside
  the hands can make a market with fewer locomotives; it redeals at most three times in a
  row, so as not to loop forever.

The last four are the rules of positions random games almost never reach; the suite's
hand-made edge cases (docs/conformance.md, "Edge cases") catch them.
"""

import argparse
import json
import os
import random
import re
import sys

PROTOCOL = "railspec-driver/1"
POSITION_FORMAT = "railspec-position/1"
ENGINE_NAME = "standalone-usa (examples/conformance/standalone_usa.py)"
MUTANTS = ("tiebreak", "double-route", "longest-reuse", "empty-draw", "second-draw", "endless-passes",
           "reset-shortage")
#: The redeals in a row the `reset-shortage` mutant allows itself.
MUTANT_REDEALS = 3
PHASES = ("setup_keep", "turn", "second_draw", "keep", "over")


class EngineError(Exception):
    """A request this engine refuses (answered with ok: false)."""


# --------------------------------------------------------------------------------------
# The spec: a small parser for the statements a USA-like spec uses (docs/language.md)
# --------------------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+')


class Name(str):
    """A quoted token: always a name, never a keyword or a number."""


def _tokens(text, lineno):
    out = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise EngineError(f"spec line {lineno}: unterminated string")
        tok = m.group(0)
        if tok.startswith('"'):
            body = tok[1:-1]
            if re.search(r'\\[^"\\]', body):
                raise EngineError(f"spec line {lineno}: unknown escape in {tok}")
            tok = Name(body.replace('\\"', '"').replace("\\\\", "\\"))
        out.append(tok)
        pos = m.end()
    return out


def _statements(text):
    """Yield (line number, tokens) per statement: comments cut, ';' splits a line."""
    for lineno, line in enumerate(text.splitlines(), 1):
        parts, buf, quoted, i = [], [], False, 0
        while i < len(line):
            ch = line[i]
            if quoted:
                buf.append(ch)
                if ch == "\\" and i + 1 < len(line):
                    buf.append(line[i + 1])
                    i += 1
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
                buf.append(ch)
            elif ch == "#":
                break
            elif ch == ";":
                parts.append("".join(buf))
                buf = []
            else:
                buf.append(ch)
            i += 1
        parts.append("".join(buf))
        for part in parts:
            toks = _tokens(part, lineno)
            if toks:
                yield lineno, toks


def _int(tok, lineno):
    if isinstance(tok, Name) or not re.fullmatch(r"-?\d+", tok):
        raise EngineError(f"spec line {lineno}: expected a number, got {tok!r}")
    return int(tok)


def _name(toks):
    return " ".join(toks)


def _range(tok, lineno):
    if ".." in tok:
        lo, hi = tok.split("..", 1)
        return _int(lo, lineno), _int(hi, lineno)
    n = _int(tok, lineno)
    return n, n


class Spec:
    """The numbers and the map of a variant, by id (ids follow the spec's order)."""

    def __init__(self, path):
        self.key = os.path.splitext(os.path.basename(path))[0]
        self.title = None
        self.players = None
        self.trains = None
        self.hand = None
        self.colours = []          # colour names, in spec order (card ids 0 … C-1)
        self.colour_count = []
        self.locomotives = None
        self.market = None
        self.reset_locos = None
        self.deal = None
        self.deal_keep = None
        self.draw_tickets = None   # None: the variant has no ticket draw
        self.draw_keep = None
        self.usable = []           # (n, lo, hi)
        self.end_trains = None
        self.route_points = {}
        self.longest_bonus = None
        self.tiebreak = ["most tickets"]
        self.cities = []
        self.routes = []           # (a, b, length, colour id or None for gray, name)
        self.tickets = []          # (a, b, points, name)
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
        raw_routes, raw_tickets = [], []
        for lineno, t in _statements(text):
            self._statement(lineno, t, raw_routes, raw_tickets)
        for field in ("players", "trains", "hand", "locomotives", "market", "deal", "end_trains"):
            if getattr(self, field) is None:
                raise EngineError(f"spec: missing the '{field}' statement")
        self.city_id = {c: i for i, c in enumerate(self.cities)}
        self._routes(raw_routes)
        self._tickets(raw_tickets)
        self.loco = len(self.colours)
        self.card_names = self.colours + ["loco"]
        self.card_id = {c: i for i, c in enumerate(self.card_names)}
        self.route_id = {r[4]: i for i, r in enumerate(self.routes)}
        self.ticket_id = {t[3]: i for i, t in enumerate(self.tickets)}
        self._catalogue()

    def _statement(self, lineno, t, raw_routes, raw_tickets):
        head = t[0]
        if isinstance(head, Name):
            raise EngineError(f"spec line {lineno}: a statement starts with a keyword")
        words = [str(x) for x in t]
        if head == "variant":
            self.title = str(t[1])
        elif head in ("source", "provisional"):
            pass
        elif head == "players":
            self.players = _range(t[1], lineno)
        elif head == "trains":
            self.trains = _int(t[1], lineno)
        elif head == "hand":
            self.hand = _int(t[1], lineno)
        elif head == "card":
            self.colours.append(str(t[1]))
            self.colour_count.append(_int(t[2], lineno))
        elif head == "locomotives":
            self.locomotives = _int(t[1], lineno)
        elif head == "market":                       # market N reset L locomotives
            if len(t) != 5 or t[2] != "reset" or t[4] != "locomotives":
                raise EngineError(f"spec line {lineno}: market N reset L locomotives")
            self.market = _int(t[1], lineno)
            self.reset_locos = _int(t[3], lineno)
        elif words[:2] == ["deal", "tickets"]:        # deal tickets N keep K
            if len(t) != 5 or t[3] != "keep":
                raise EngineError(f"spec line {lineno}: this engine deals regular tickets only")
            self.deal = _int(t[2], lineno)
            self.deal_keep = _int(t[4], lineno)
        elif words[:2] == ["returned", "tickets"]:
            if words[2:] != ["bottom"]:
                raise EngineError(f"spec line {lineno}: this engine returns tickets to the bottom only")
        elif head == "action":
            rest = words[1:]
            if rest[:2] == ["draw", "cards"]:
                if rest[2:] != ["2"]:
                    raise EngineError(f"spec line {lineno}: only 'action draw cards 2' exists")
            elif rest == ["claim", "route"]:
                pass
            elif rest[:2] == ["draw", "tickets"] and len(rest) == 5 and rest[3] == "keep":
                self.draw_tickets = _int(t[3], lineno)
                self.draw_keep = _int(t[5], lineno)
            else:
                raise EngineError(f"spec line {lineno}: action {' '.join(rest)!r} is not played here")
        elif words[:2] == ["tracks", "usable"]:      # tracks usable N for LOW..HIGH players
            lo, hi = _range(t[4], lineno)
            self.usable.append((_int(t[2], lineno), lo, hi))
        elif words[:3] == ["end", "when", "trains"]:  # end when trains <= N
            self.end_trains = _int(t[4], lineno)
        elif words[:2] == ["route", "points"]:
            for entry in words[2:]:
                k, v = entry.split(":")
                self.route_points[int(k)] = int(v)
        elif words[:2] == ["longest", "path"]:
            self.longest_bonus = _int(t[2], lineno)
        elif head == "tiebreak":
            self.tiebreak = [k.strip() for k in " ".join(words[1:]).split(",")]
            for key in self.tiebreak:
                if key not in ("most tickets", "longest path"):
                    raise EngineError(f"spec line {lineno}: unknown tie-break {key!r}")
        elif head == "city":
            body = list(t[1:])
            if len(body) >= 3 and body[-3] == "at" and not isinstance(body[-3], Name):
                body = body[:-3]
            self.cities.append(_name(body))
        elif head == "route":
            raw_routes.append((lineno, t[1:]))
        elif head == "ticket":
            if len(t) > 1 and t[1] == "long" and not isinstance(t[1], Name):
                raise EngineError(f"spec line {lineno}: long tickets are not played here")
            raw_tickets.append((lineno, t[1:]))
        else:
            raise EngineError(f"spec line {lineno}: statement {head!r} is not played by this engine")

    def _ends(self, lineno, body):
        """'A - B rest…' -> (a id, b id, rest)."""
        dash = next((i for i, x in enumerate(body) if x == "-" and not isinstance(x, Name)), None)
        if dash is None:
            raise EngineError(f"spec line {lineno}: expected 'A - B'")
        end = dash + 1
        while end < len(body) and (isinstance(body[end], Name) or not re.fullmatch(r"-?\d+", body[end])):
            end += 1
        a, b = _name(body[:dash]), _name(body[dash + 1:end])
        for c in (a, b):
            if c not in self.city_id:
                raise EngineError(f"spec line {lineno}: unknown city {c!r}")
        return self.city_id[a], self.city_id[b], body[end:]

    def _routes(self, raw):
        rows = []
        for lineno, body in raw:
            a, b, rest = self._ends(lineno, body)
            if len(rest) != 2:
                raise EngineError(f"spec line {lineno}: route attributes are not played here")
            length = _int(rest[0], lineno)
            colour = str(rest[1])
            if colour in ("gray", "grey"):
                cid = None
            elif colour in self.colours:
                cid = self.colours.index(colour)
            else:
                raise EngineError(f"spec line {lineno}: unknown colour {colour!r}")
            rows.append((a, b, length, cid))
        pairs = {}
        for a, b, _, _ in rows:
            key = frozenset((a, b))
            pairs[key] = pairs.get(key, 0) + 1
        seen = {}
        for a, b, length, cid in rows:
            key = frozenset((a, b))
            name = f"{self.cities[a]}-{self.cities[b]}"
            if pairs[key] > 1:
                seen[key] = seen.get(key, 0) + 1
                name += f"/{seen[key]}"
            self.routes.append((a, b, length, cid, name))
        # route groups: the tracks of one city pair
        by_pair = {}
        for rid, (a, b, _, _, _) in enumerate(self.routes):
            by_pair.setdefault(frozenset((a, b)), []).append(rid)
        self.group = [by_pair[frozenset((r[0], r[1]))] for r in self.routes]

    def _tickets(self, raw):
        seen = {}
        for lineno, body in raw:
            a, b, rest = self._ends(lineno, body)
            if len(rest) != 1:
                raise EngineError(f"spec line {lineno}: ticket A - B POINTS")
            base = name = f"{self.cities[a]}-{self.cities[b]}"
            n = 1
            while name in seen:      # the same name again (the same cities in the same order)
                n += 1
                name = f"{base}/{n}"
            seen[name] = True
            self.tickets.append((a, b, _int(rest[0], lineno), name))

    def usable_tracks(self, players):
        for n, lo, hi in self.usable:
            if lo <= players <= hi:
                return n
        return 3

    def _catalogue(self):
        """Every way to pay for each route: (action name, colour id or None, colour cards, locos)."""
        self.payments = []
        for _, _, length, cid, name in self.routes:
            shown = "gray" if cid is None else self.colours[cid]
            ways = []
            for c in ([cid] if cid is not None else range(len(self.colours))):
                for locos in range(length):
                    pay = f"{length - locos}{self.colours[c]}"
                    if locos:
                        pay += f"+{locos}loco"
                    ways.append((f"claim {name} {shown} {pay}", c, length - locos, locos))
            ways.append((f"claim {name} {shown} {length}loco", None, 0, length))
            self.payments.append(ways)


# --------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------

class Game:
    """One position, by id. Lists follow docs/engine.md: the deck's last card is its top,
    the ticket deck's first ticket is its top, faceup slots hold -1 when empty."""

    FIELDS = ("phase", "current", "turn", "decisions", "final_turns", "passes", "deck", "discard",
              "faceup", "ticket_deck", "offer", "offer_keep", "owner", "hands", "trains",
              "route_score", "tickets", "setup_offer")

    def __init__(self, spec, mutant=None, rng=None):
        self.spec = spec
        self.mutant = mutant
        self.rng = rng or random.Random()

    def clone(self):
        g = Game(self.spec, self.mutant, self.rng)
        g.players = self.players
        for f in ("phase", "current", "turn", "decisions", "final_turns", "passes", "offer_keep"):
            setattr(g, f, getattr(self, f))
        for f in ("deck", "discard", "faceup", "ticket_deck", "offer", "owner", "trains", "route_score"):
            setattr(g, f, list(getattr(self, f)))
        for f in ("hands", "tickets", "setup_offer"):
            setattr(g, f, [list(x) for x in getattr(self, f)])
        return g

    # ---- piles ----

    def _reshuffle(self):
        """The discards, colour by colour then locomotives, become the deck, shuffled."""
        deck = []
        for card, n in enumerate(self.discard):
            deck.extend([card] * n)
        self.discard = [0] * len(self.discard)
        self.rng.shuffle(deck)
        self.deck = deck

    def _draw_card(self):
        """The top card (reshuffling the discards into an empty deck first); -1 if none."""
        if not self.deck and any(self.discard):
            self._reshuffle()
        return self.deck.pop() if self.deck else -1

    def _cards_to_draw(self):
        return bool(self.deck) or any(self.discard)

    # ---- the market ----

    def _reset_check(self):
        s = self.spec
        redeals = 0
        while sum(1 for c in self.faceup if c == s.loco) >= s.reset_locos:
            outside = len(self.deck) + sum(self.discard) + sum(1 for c in self.faceup if c != -1)
            plain = (sum(1 for c in self.deck if c != s.loco) + sum(self.discard[:s.loco])
                     + sum(1 for c in self.faceup if c not in (-1, s.loco)))
            if self.mutant == "reset-shortage":      # the mutant redeals whatever is left, a few times
                if redeals == MUTANT_REDEALS:
                    return
                redeals += 1
            elif not min(s.market, outside) - plain < s.reset_locos:
                return
            for slot, c in enumerate(self.faceup):
                if c != -1:
                    self.discard[c] += 1
                self.faceup[slot] = -1
            for slot in range(s.market):
                self.faceup[slot] = self._draw_card()

    def _refill(self):
        for slot, c in enumerate(self.faceup):
            if c == -1:
                self.faceup[slot] = self._draw_card()
        self._reset_check()

    # ---- legal actions ----

    def legal(self):
        """{action name: action} for the position; an action is a tuple."""
        s = self.spec
        out = {}
        if self.phase == "over":
            return out
        p = self.current
        if self.phase in ("setup_keep", "keep"):
            offer = self.setup_offer[p] if self.phase == "setup_keep" else self.offer
            least = s.deal_keep if self.phase == "setup_keep" else self.offer_keep
            n = len(offer)
            for mask in range(1, 1 << n):
                slots = [i for i in range(n) if mask >> i & 1]
                if len(slots) >= least:
                    out["keep tickets " + ",".join(str(i + 1) for i in slots)] = ("keep", tuple(slots))
            return out
        can_draw = self._cards_to_draw()
        if self.phase == "second_draw":
            if can_draw:
                out["draw blind"] = ("blind",)
                for c in sorted(set(self.faceup)):
                    if c not in (-1, s.loco):
                        out[f"draw faceup {s.card_names[c]}"] = ("faceup", c)
            return out
        # phase turn
        if can_draw:
            out["draw blind"] = ("blind",)
        if can_draw or self.mutant == "empty-draw":   # the mutant forgets the piles for the market
            for c in sorted(set(self.faceup)):
                if c != -1:
                    out[f"draw faceup {s.card_names[c]}"] = ("faceup", c)
        hand = self.hands[p]
        for rid, (_, _, length, _, _) in enumerate(s.routes):
            if self.owner[rid] != -1 or self.trains[p] < length or not self._route_open(rid, p):
                continue
            for name, colour, ncol, nloco in s.payments[rid]:
                if hand[s.loco] >= nloco and (colour is None or hand[colour] >= ncol):
                    out[name] = ("claim", rid, colour, ncol, nloco)
        if s.draw_tickets is not None and self.ticket_deck:
            out["draw tickets"] = ("tickets",)
        if not out:
            out["pass"] = ("pass",)
        return out

    def _route_open(self, rid, p):
        group = self.spec.group[rid]
        if len(group) == 1:
            return True
        others = [self.owner[r] for r in group if r != rid]
        if p in others and self.mutant != "double-route":
            return False
        owned = sum(1 for o in others if o != -1)
        return owned < self.spec.usable_tracks(self.players)

    # ---- applying ----

    def apply(self, name):
        action = self.legal().get(name)
        if action is None:
            raise EngineError(f"illegal action {name!r}")
        self._apply(action)

    def _apply(self, action):
        s = self.spec
        p = self.current
        kind = action[0]
        self.decisions += 1
        if kind == "keep":
            slots = action[1]
            offer = self.setup_offer[p] if self.phase == "setup_keep" else self.offer
            self.tickets[p].extend(offer[i] for i in slots)
            self.ticket_deck.extend(t for i, t in enumerate(offer) if i not in slots)
            if self.phase == "setup_keep":
                self.setup_offer[p] = []
                if p + 1 < self.players:
                    self.current = p + 1
                else:
                    self.current = 0
                    self.phase = "turn"
                return
            self.offer = []
            self.offer_keep = 0
            self._end_turn(False)
        elif kind == "blind":
            self.hands[p][self._draw_card()] += 1
            self._after_draw()
        elif kind == "faceup":
            card = action[1]
            slot = self.faceup.index(card)
            self.hands[p][card] += 1
            self.faceup[slot] = self._draw_card()
            self._reset_check()
            if card == s.loco:      # only on a first draw: a locomotive ends the turn
                self._end_turn(False)
            else:
                self._after_draw()
        elif kind == "claim":
            _, rid, colour, ncol, nloco = action
            hand = self.hands[p]
            if colour is not None:
                hand[colour] -= ncol
                self.discard[colour] += ncol
            hand[s.loco] -= nloco
            self.discard[s.loco] += nloco
            self._refill()
            length = s.routes[rid][2]
            self.owner[rid] = p
            self.trains[p] -= length
            self.route_score[p] += s.route_points[length]
            self._end_turn(False)
        elif kind == "tickets":
            n = min(s.draw_tickets, len(self.ticket_deck))
            self.offer = self.ticket_deck[:n]
            del self.ticket_deck[:n]
            self.offer_keep = min(s.draw_keep, n)
            self.phase = "keep"
        elif kind == "pass":
            self._end_turn(True)

    def _after_draw(self):
        if self.phase == "second_draw":
            self._end_turn(False)
        elif self._cards_to_draw() or self.mutant == "second-draw":
            self.phase = "second_draw"
        else:
            self._end_turn(False)

    def _end_turn(self, passed):
        self._refill()
        over = False
        if self.final_turns > 0:
            self.final_turns -= 1
            over = self.final_turns == 0
        elif self.final_turns == -1 and self.trains[self.current] <= self.spec.end_trains:
            self.final_turns = self.players
        self.passes = self.passes + 1 if passed else 0
        if self.passes >= self.players and self.mutant != "endless-passes":
            over = True
        self.turn += 1
        self.current = (self.current + 1) % self.players
        self.phase = "turn"
        if over:
            self.phase = "over"
            self.current = -1

    # ---- scoring ----

    def longest_path(self, p):
        s = self.spec
        adj = {}
        for rid, o in enumerate(self.owner):
            if o == p:
                a, b, length = s.routes[rid][:3]
                adj.setdefault(a, []).append((b, rid, length))
                adj.setdefault(b, []).append((a, rid, length))
        reuse = self.mutant == "longest-reuse"
        used = set()
        best = 0

        def walk(city, total, first):
            nonlocal best
            best = max(best, total)
            for nxt, rid, length in adj[city]:
                if rid not in used:
                    mark = not (reuse and first)      # the mutant forgets to mark a trail's first route
                    if mark:
                        used.add(rid)
                    walk(nxt, total + length, False)
                    if mark:
                        used.discard(rid)

        for city in adj:
            walk(city, 0, True)
        return best

    def _network(self, p):
        parent = list(range(len(self.spec.cities)))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for rid, o in enumerate(self.owner):
            if o == p:
                a, b = self.spec.routes[rid][:2]
                parent[find(a)] = find(b)
        return find

    def score(self):
        s = self.spec
        rows = []
        for p in range(self.players):
            routes = sum(s.route_points[s.routes[rid][2]] for rid, o in enumerate(self.owner) if o == p)
            find = self._network(p)
            tickets = completed = 0
            for t in self.tickets[p]:
                a, b, points, _ = s.tickets[t]
                if find(a) == find(b):
                    tickets += points
                    completed += 1
                else:
                    tickets -= points
            row = {"routes": routes, "tickets": tickets, "tickets_completed": completed}
            if s.longest_bonus is not None:
                row["longest_path"] = self.longest_path(p)
            rows.append(row)
        longest = max((r.get("longest_path", 0) for r in rows), default=0)
        for r in rows:
            if s.longest_bonus is not None:
                r["longest_bonus"] = s.longest_bonus if longest > 0 and r["longest_path"] == longest else 0
            r["total"] = r["routes"] + r["tickets"] + r.get("longest_bonus", 0)
        top = max(r["total"] for r in rows)
        tied = [p for p, r in enumerate(rows) if r["total"] == top]
        keys = list(s.tiebreak)
        if self.mutant == "tiebreak":
            keys.reverse()
        for key in keys:
            if len(tied) < 2:
                break
            if key == "most tickets":
                value = {p: rows[p]["tickets_completed"] for p in tied}
            else:                  # longest path: holds the card (the longest of all, above 0)
                value = {p: int(longest > 0 and rows[p]["longest_path"] == longest) for p in tied}
            best = max(value.values())
            tied = [p for p in tied if value[p] == best]
        return rows, tied

    # ---- perft ----

    def perft(self, depth):
        moves = self.legal()
        counts = [0] * depth
        divide = {}
        for name, action in moves.items():
            sub = [1] + ([0] * (depth - 1))
            if depth > 1:
                g = self.clone()
                g._apply(action)
                g._perft_into(sub, 1, depth)
            for d in range(depth):
                counts[d] += sub[d]
            divide[name] = sub[depth - 1]
        return counts, divide

    def _perft_into(self, counts, level, depth):
        moves = self.legal()
        counts[level] += len(moves)
        if level + 1 < depth:
            for action in moves.values():
                g = self.clone()
                g._apply(action)
                g._perft_into(counts, level + 1, depth)


# --------------------------------------------------------------------------------------
# Positions (railspec-position/1, JSON form)
# --------------------------------------------------------------------------------------

def write_position(g, variant, spec_hash):
    s = g.spec

    def card_counts(counts):
        return {s.card_names[c]: n for c, n in enumerate(counts) if n}

    return {
        "format": POSITION_FORMAT, "variant": variant, "spec_hash": spec_hash,
        "players": g.players, "phase": g.phase, "current": g.current, "turn": g.turn,
        "decisions": g.decisions, "final_turns": g.final_turns, "passes": g.passes,
        "deck": [s.card_names[c] for c in g.deck],
        "discard": card_counts(g.discard),
        "faceup": [None if c == -1 else s.card_names[c] for c in g.faceup],
        "ticket_deck": [s.tickets[t][3] for t in g.ticket_deck],
        "offer": [s.tickets[t][3] for t in g.offer],
        "offer_keep": g.offer_keep,
        "owner": {s.routes[r][4]: o for r, o in enumerate(g.owner) if o != -1},
        "hands": [card_counts(h) for h in g.hands],
        "trains": list(g.trains), "route_score": list(g.route_score),
        "tickets": [[s.tickets[t][3] for t in ts] for ts in g.tickets],
        "setup_offer": [[s.tickets[t][3] for t in ts] for ts in g.setup_offer],
    }


def read_position(spec, pos, spec_hash, mutant, rng):
    if not isinstance(pos, dict):
        raise EngineError("a position is a JSON object")
    keys = {"format", "variant", "spec_hash", "players", "generator", *Game.FIELDS}
    for k in pos:
        if k not in keys:
            raise EngineError(f"unknown key {k!r}")
    for k in keys - {"generator"}:
        if k not in pos:
            raise EngineError(f"missing key {k!r}")
    if pos["format"] != POSITION_FORMAT:
        raise EngineError(f"'format': expected {POSITION_FORMAT!r}")
    if spec_hash is not None and pos["spec_hash"] != spec_hash:
        raise EngineError(f"'spec_hash': this engine plays {spec_hash!r}")

    def number(key, value, lo, hi):
        if type(value) is not int or not lo <= value <= hi:
            raise EngineError(f"{key!r}: expected a whole number from {lo} to {hi}, got {value!r}")
        return value

    def named(key, table, value, kind):
        if not isinstance(value, str) or value not in table:
            raise EngineError(f"{key!r}: no {kind} named {value!r} in this variant")
        return table[value]

    def name_list(key, value, table, kind):
        if not isinstance(value, list):
            raise EngineError(f"{key!r}: expected a list")
        return [named(key, table, v, kind) for v in value]

    def counts(key, value):
        if not isinstance(value, dict):
            raise EngineError(f"{key!r}: expected an object keyed by card")
        out = [0] * len(spec.card_names)
        for k, v in value.items():
            out[named(key, spec.card_id, k, "card")] = number(key, v, 0, 10 ** 6)
        return out

    def per_player(key, value):
        if not isinstance(value, list) or len(value) != players:
            raise EngineError(f"{key!r}: expected one entry per player")
        return value

    g = Game(spec, mutant, rng)
    players = g.players = number("players", pos["players"], spec.players[0], spec.players[1])
    if pos["phase"] not in PHASES:
        raise EngineError(f"'phase': no phase named {pos['phase']!r}")
    g.phase = pos["phase"]
    g.current = number("current", pos["current"], -1, players - 1)
    g.turn = number("turn", pos["turn"], 0, 10 ** 9)
    g.decisions = number("decisions", pos["decisions"], 0, 10 ** 9)
    g.final_turns = number("final_turns", pos["final_turns"], -1, players)
    g.passes = number("passes", pos["passes"], 0, players)
    g.deck = name_list("deck", pos["deck"], spec.card_id, "card")
    g.discard = counts("discard", pos["discard"])
    if not isinstance(pos["faceup"], list) or len(pos["faceup"]) != spec.market:
        raise EngineError(f"'faceup': expected {spec.market} slots")
    g.faceup = [-1 if c is None else named("faceup", spec.card_id, c, "card") for c in pos["faceup"]]
    g.ticket_deck = name_list("ticket_deck", pos["ticket_deck"], spec.ticket_id, "ticket")
    g.offer = name_list("offer", pos["offer"], spec.ticket_id, "ticket")
    g.offer_keep = number("offer_keep", pos["offer_keep"], 0, len(g.offer))
    if not isinstance(pos["owner"], dict):
        raise EngineError("'owner': expected an object keyed by route")
    g.owner = [-1] * len(spec.routes)
    for k, v in pos["owner"].items():
        g.owner[named("owner", spec.route_id, k, "route")] = number("owner", v, -1, players - 1)
    g.hands = [counts("hands", h) for h in per_player("hands", pos["hands"])]
    g.trains = [number("trains", t, 0, spec.trains) for t in per_player("trains", pos["trains"])]
    g.route_score = [number("route_score", t, 0, 10 ** 9) for t in per_player("route_score", pos["route_score"])]
    g.tickets = [name_list("tickets", t, spec.ticket_id, "ticket") for t in per_player("tickets", pos["tickets"])]
    g.setup_offer = [name_list("setup_offer", t, spec.ticket_id, "ticket")
                     for t in per_player("setup_offer", pos["setup_offer"])]
    # every card and every ticket in exactly one pile
    cards = [0] * len(spec.card_names)
    for c in g.deck + [c for c in g.faceup if c != -1]:
        cards[c] += 1
    for pile in [g.discard] + g.hands:
        for c, n in enumerate(pile):
            cards[c] += n
    if cards != spec.colour_count + [spec.locomotives]:
        raise EngineError("the train cards are not each in exactly one pile")
    tickets = g.ticket_deck + g.offer + [t for ts in g.tickets + g.setup_offer for t in ts]
    if sorted(tickets) != list(range(len(spec.tickets))):
        raise EngineError("the tickets are not each in exactly one pile")
    if (g.phase == "over") != (g.current == -1):
        raise EngineError("'current': -1 exactly when the game is over")
    return g


# --------------------------------------------------------------------------------------
# The driver protocol (railspec-driver/1)
# --------------------------------------------------------------------------------------

class Driver:
    def __init__(self, spec, mutant):
        self.spec = spec
        self.mutant = mutant
        self.rng = random.Random()
        self.variant = None
        self.spec_hash = None
        self.game = None

    def handle(self, req):
        if not isinstance(req, dict):
            raise EngineError("a request is a JSON object")
        cmd = req.get("cmd")
        if cmd == "hello":
            if req.get("protocol") != PROTOCOL:
                raise EngineError(f"this engine speaks {PROTOCOL}")
            if req.get("variant") != self.spec.key:
                raise EngineError(f"this engine plays {self.spec.key!r}, not {req.get('variant')!r}")
            # railspec's spec hash is computed by its compiler; we accept the one given (see the top).
            if not isinstance(req.get("spec_hash"), str):
                raise EngineError("hello: no spec_hash")
            self.variant, self.spec_hash = req["variant"], req["spec_hash"]
            return {"protocol": PROTOCOL, "engine": ENGINE_NAME + (f" mutant {self.mutant}" if self.mutant else ""),
                    "supports": ["legal", "apply", "position", "score", "perft"]}
        if self.variant is None:
            raise EngineError("the first request is hello")
        if cmd == "position":
            self.game = read_position(self.spec, req.get("position"), self.spec_hash, self.mutant, self.rng)
            return {}
        if self.game is None:
            raise EngineError("no position set")
        if cmd == "position?":
            return {"position": write_position(self.game, self.variant, self.spec_hash)}
        if cmd == "legal":
            return {"legal": sorted(self.game.legal())}
        if cmd == "apply":
            action = req.get("action")
            if not isinstance(action, str):
                raise EngineError("apply: 'action' is a name")
            self.game.apply(action)
            return {}
        if cmd == "score":
            rows, winners = self.game.score()
            return {"breakdown": rows, "winners": winners}
        if cmd == "perft":
            depth = req.get("depth")
            if type(depth) is not int or not 1 <= depth <= 8:
                raise EngineError("perft: 'depth' from 1 to 8")
            counts, divide = self.game.perft(depth)
            return {"counts": counts, "divide": divide}
        raise EngineError(f"unknown request {cmd!r}")


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    default_spec = os.path.normpath(os.path.join(here, "..", "..", "spec", "usa.rail"))
    ap = argparse.ArgumentParser(description="A standalone Ticket to Ride USA engine (railspec-driver/1).")
    ap.add_argument("spec", nargs="?", default=default_spec, help="the spec file (default: spec/usa.rail)")
    ap.add_argument("--mutant", choices=MUTANTS, help="seed one bug, for checking a test suite")
    args = ap.parse_args(argv)
    try:
        spec = Spec(args.spec)
    except (OSError, EngineError) as e:
        print(f"standalone_usa: {e}", file=sys.stderr)
        return 2
    driver = Driver(spec, args.mutant)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            answer = {"ok": False, "error": f"not JSON: {e}"}
        else:
            if isinstance(req, dict) and req.get("cmd") == "quit":
                return 0
            try:
                answer = {"ok": True, **driver.handle(req)}
            except EngineError as e:
                answer = {"ok": False, "error": str(e)}
            except RecursionError:
                answer = {"ok": False, "error": "position too deep to search"}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
