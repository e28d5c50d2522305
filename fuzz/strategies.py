"""Hypothesis strategies for the four input formats.

Each strategy draws a :class:`Case`: the input as a user would hand it to railspec (spec
bytes, or position / trace / state text), the stock variant it is fed to, and a short
description of how it was made. The mix, per format:

- valid inputs from the corpus, written out in different ways (indentation, escapes);
- structured mutations of valid inputs: a field dropped or added, a value's type swapped,
  a number made huge, negative or off by one, a name reversed or swapped for another name
  of the variant, an entry duplicated, deep nesting, unicode names;
- text mutations of the written input: a byte-order mark, truncation, stray characters,
  a range cut or doubled;
- random text.

Large values (100,000-deep nesting, a 5,000-digit integer) are not drawn element by
element: the strategy draws a marker, and the writer puts the large text in its place.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass

from hypothesis import strategies as st

from railspec.compiler.mechanic import Sampled, default_registry
from railspec.runtime.position import describer

from . import corpus

#: The installed mechanics that offer a sample use of themselves (Mechanic.sample): the
#: fuzzer writes them into specs without naming any.
SAMPLED = tuple(m for m in default_registry() if isinstance(m, Sampled) and m.sample is not None)
#: The keys mechanics add to a described position's seat.
POSITION_KEYS = tuple(k.name for m in default_registry() if (d := describer(m)) is not None for k in d.position_keys)


@dataclass
class Case:
    """One fuzz input: ``data`` (str, or bytes for specs), the variant it is fed to (None
    for specs) and how it was made."""

    format: str
    data: str | bytes
    variant: str | None
    how: str

    def to_json(self) -> dict:
        """The case as report data. Bytes are written as their UTF-8 text when they are
        UTF-8 (``"bytes": "utf-8"``), else one character per byte (``"bytes": "latin-1"``)."""
        if not isinstance(self.data, bytes):
            return {"format": self.format, "variant": self.variant, "how": self.how, "data": self.data}
        try:
            text, encoding = self.data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, encoding = self.data.decode("latin-1"), "latin-1"
        return {"format": self.format, "variant": self.variant, "how": self.how, "bytes": encoding, "data": text}

    @classmethod
    def from_json(cls, data: dict) -> Case:
        """The case a report holds (see :meth:`to_json`)."""
        raw = data["data"].encode(data["bytes"], "surrogatepass") if data.get("bytes") else data["data"]
        return cls(data["format"], raw, data.get("variant"), data.get("how", ""))


# --- values ---------------------------------------------------------------------------

DEEP = "\x00fuzz-deep\x00"      # replaced by a deeply nested list when written
HUGE = "\x00fuzz-huge\x00"      # replaced by a 5,000-digit integer when written

BIG_INTS = [2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 2**64 + 1, 10**30,
            -1, -2**31 - 1, -2**63 - 1, -(10**30)]
ODD_TEXT = ["", " ", "x", "\ufeff", "\u2028", "\u0085", "\u2029", "\x00", "\x1e", "Z\u00fcrich", "\u5317\u4eac",
            "\U0001f682", "A\u0301", "a" * 300, "\\", '"', "-", "/2", "A-B", "A - B", "\ud800", "NaN"]


def odd_values() -> st.SearchStrategy:
    """Values no field should hold: wrong types, extreme numbers, odd strings."""
    return st.one_of(
        st.sampled_from([None, True, False, 0, 1, -1, 2, 1.5, -0.0, 1e308, float("nan"), float("inf"), [], {},
                         DEEP, HUGE]),
        st.sampled_from(BIG_INTS),
        st.sampled_from(ODD_TEXT),
        st.text(max_size=12),
        st.integers(-3, 1000),
        st.lists(st.integers(-2, 60), max_size=6),
        st.dictionaries(st.sampled_from(["routes", "tickets", "x", "", "players", "type"]), st.integers(-1, 3),
                        max_size=3),
    )


def _walk(draw, value, descend: int):
    """Pick a place in a JSON value: a (container, key) pair, or None for the root.
    ``descend``: the odds, out of 8, of going one level further at each step."""
    parent, key = None, None
    node = value
    # the whole document is replaced one time in sixteen only: most changes are inside it
    first = True
    while isinstance(node, (dict, list)) and node and (draw(st.integers(0, 15)) != 0 if first
                                                       else draw(st.integers(0, 7)) < descend):
        first = False
        if isinstance(node, dict):
            k = draw(st.sampled_from(sorted(node, key=str)))
        else:
            k = draw(st.integers(0, len(node) - 1))
        parent, key, node = node, k, node[k]
    return parent, key


def _names_of(variant: str | None) -> list[str]:
    return list(corpus.names(variant)) if variant else ["Alpha", "Beta"]


def _mutate_value(draw, node, variant: str | None) -> tuple[object, str]:
    """A changed version of one value, and the name of the change."""
    op = draw(st.sampled_from(["odd", "odd", "int", "type", "name", "list", "deep", "copy"]))
    if op == "int" and isinstance(node, int) and not isinstance(node, bool):
        return draw(st.sampled_from([node + 1, node - 1, -node, node * 1000, 0, -1, *BIG_INTS])), "int"
    if op == "type":
        if isinstance(node, list):
            return {str(i): x for i, x in enumerate(node)}, "list-to-object"
        if isinstance(node, dict):
            return list(node.values()), "object-to-list"
        if isinstance(node, str):
            return draw(st.sampled_from([list(node), [node], {node: node}, len(node)])), "string-to-other"
        if isinstance(node, bool) or node is None:
            return draw(st.sampled_from([0, 1, "true", [node]])), "bool-to-other"
        if isinstance(node, (int, float)):
            return draw(st.sampled_from([str(node), [node], float(node), node != 0, {"n": node}])), "number-to-other"
    if op == "name":
        names = _names_of(variant)
        if isinstance(node, str) and "-" in node and draw(st.booleans()):
            a, _, b = node.partition("-")
            b = b.partition("/")[0]
            return draw(st.sampled_from([f"{b}-{a}", a + "-" + b, f"{a} - {b}", f"{a}-{b}/9", node.upper(),
                                         node + "\u2028", node.lower()])), "name-variant"
        return draw(st.sampled_from(names)), "other-name"
    if op == "list" and isinstance(node, list):
        how = draw(st.sampled_from(["dup", "drop", "reverse", "extend", "clear", "long"]))
        out = list(node)
        if how == "dup" and out:
            out.append(copy.deepcopy(out[draw(st.integers(0, len(out) - 1))]))
        elif how == "drop" and out:
            del out[draw(st.integers(0, len(out) - 1))]
        elif how == "reverse":
            out.reverse()
        elif how == "extend":
            out += copy.deepcopy(out)
        elif how == "clear":
            out = []
        else:
            out = out * draw(st.sampled_from([50, 1000])) if out else [0] * 5000
        return out, f"list-{how}"
    if op == "deep":
        return DEEP, "deep"
    if op == "copy":
        names = _names_of(variant)
        start = draw(st.integers(0, len(names) - 1))
        return names[start:start + 3], "names-list"
    return draw(odd_values()), "odd-value"


def mutate_json(draw, value, variant: str | None, descend: int = 6) -> tuple[object, list[str]]:
    """1 to 4 structured mutations of a JSON value (a deep copy is changed)."""
    value = copy.deepcopy(value)
    hows = []
    for _ in range(draw(st.integers(1, 4))):
        parent, key = _walk(draw, value, descend)
        if parent is None:
            value, how = _mutate_value(draw, value, variant)
            hows.append(f"root:{how}")
            continue
        action = draw(st.sampled_from(["change", "change", "change", "drop", "add"]))
        if action == "drop":
            del parent[key]
            hows.append(f"drop {key}")
        elif action == "add" and isinstance(parent, dict):
            new = draw(st.sampled_from(["extra", "", "routes", "tickets", *POSITION_KEYS, "type", "step", "seed",
                                        "players", "phase", str(key) + "_"]))
            parent[new] = draw(odd_values())
            hows.append(f"add {new}")
        else:
            parent[key], how = _mutate_value(draw, parent[key], variant)
            hows.append(f"{key}:{how}")
    return value, hows


def write_json(draw, value, compact_only: bool = False) -> str:
    """JSON text of a value, written one of several ways, the markers expanded."""
    indent = None if compact_only else draw(st.sampled_from([None, None, 1]))
    ascii_ = draw(st.booleans())
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_, separators=(",", ":") if indent is None else None)
    for marker in (DEEP, HUGE):
        quoted = json.dumps(marker, ensure_ascii=ascii_)
        if quoted in text:
            # the first marker becomes the large text, any copies of it (a list doubled
            # after the marker was put in) small ones: inputs stay well under a megabyte
            if marker == DEEP:
                n = draw(st.sampled_from([50, 1000, 100_000]))
                text = text.replace(quoted, "[" * n + "]" * n, 1).replace(quoted, "[[]]")
            else:
                text = text.replace(quoted, draw(st.sampled_from(["9" * 5000, "-" + "1" * 5000, "1e99999",
                                                                   "1" * 4301, "0." + "1" * 5000])), 1)
                text = text.replace(quoted, "1")
    return text


def mutate_text(draw, text: str) -> tuple[str, str]:
    """One text-level change: BOM, truncation, a stray character, a cut or doubled range,
    line endings."""
    op = draw(st.sampled_from(["bom", "truncate", "insert", "cut", "double", "crlf", "nul"]))
    n = len(text)
    at = draw(st.integers(0, n)) if n else 0
    if op == "bom":
        return "\ufeff" + text, "bom"
    if op == "truncate":
        return text[:at], f"truncate {at}"
    if op == "insert":
        return text[:at] + draw(st.sampled_from(["{", "}", "[", "]", ",", ":", '"', "\\", "\n", "\u2028", "\u0085",
                                                 "\x00", "\ufeff", "0", "-", "e9", " "])) + text[at:], f"insert {at}"
    if op == "cut":
        end = draw(st.integers(at, min(n, at + 50)))
        return text[:at] + text[end:], f"cut {at}:{end}"
    if op == "double":
        end = draw(st.integers(at, min(n, at + 200)))
        return text[:end] + text[at:], f"double {at}:{end}"
    if op == "crlf":
        return text.replace("\n", "\r\n"), "crlf"
    return text[:at] + "\x00" + text[at:], f"nul {at}"


def random_json_text() -> st.SearchStrategy:
    """Random JSON values, written out, and random text."""
    scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))
    values = st.recursive(scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6),
                                                                                            inner, max_size=4),
                          max_leaves=12)
    return st.one_of(values.map(json.dumps), st.text(max_size=200))


# --- positions and states -------------------------------------------------------------

@st.composite
def json_document_cases(draw, fmt: str, pool) -> Case:
    """A position or state case: a corpus document of a stock variant, mutated or not."""
    variant = draw(st.sampled_from(corpus.VARIANTS))
    docs = pool(variant)
    doc = docs[draw(st.integers(0, len(docs) - 1))]
    kind = draw(st.integers(0, 99))
    if kind < 8:
        return Case(fmt, write_json(draw, doc), variant, "valid")
    if kind < 80:
        value, hows = mutate_json(draw, doc, variant, descend=draw(st.sampled_from([3, 6, 7])))
        text = write_json(draw, value)
        how = "mutate " + "; ".join(hows)
        if draw(st.integers(0, 9)) == 0:
            text, extra = mutate_text(draw, text)
            how += "; " + extra
        return Case(fmt, text, variant, how)
    if kind < 92:
        text, how = mutate_text(draw, write_json(draw, doc))
        return Case(fmt, text, variant, "text " + how)
    return Case(fmt, draw(random_json_text()), variant, "random")


def _state_move(draw, state: dict, variant: str) -> str:
    """One change to a state that keeps every card, ticket and train accounted for (so the
    validator's conservation checks pass and its other checks, or the engines, have to
    deal with it): a card moved between the deck, the discards, the market and a hand; a
    ticket moved between the deck, an offer and a player; a route given to a player with
    its trains and points; a counter (turn, final turns, passes, current player) set to
    another value in its range."""
    players = state["players"]
    op = draw(st.sampled_from(["card", "ticket", "route", "counter", "counter"]))
    if op == "card":
        p = draw(st.integers(0, players - 1))
        hand = state["hands"][p]
        source = draw(st.sampled_from(["deck", "discard", "faceup", "hand"]))
        if source == "deck" and state["deck"]:
            card = state["deck"].pop(draw(st.integers(0, len(state["deck"]) - 1)))
        elif source == "discard" and any(state["discard"]):
            card = draw(st.sampled_from([c for c, n in enumerate(state["discard"]) if n]))
            state["discard"][card] -= 1
        elif source == "faceup" and any(c >= 0 for c in state["faceup"]):
            slot = draw(st.sampled_from([i for i, c in enumerate(state["faceup"]) if c >= 0]))
            card, state["faceup"][slot] = state["faceup"][slot], -1
        elif any(hand):
            card = draw(st.sampled_from([c for c, n in enumerate(hand) if n]))
            hand[card] -= 1
            target = draw(st.sampled_from(["deck", "discard"]))
            if target == "deck":
                state["deck"].append(card)
            else:
                state["discard"][card] += 1
            return f"card {card} from player {p}'s hand to the {target}"
        else:
            return "no card to move"
        hand[card] += 1
        return f"card {card} from the {source} to player {p}"
    if op == "ticket":
        pools = [k for k in ("ticket_deck", "offer") if state.get(k)] + \
                [f"tickets{p}" for p in range(players) if state["tickets"][p]]
        if not pools:
            return "no ticket to move"
        source = draw(st.sampled_from(pools))
        rows = state["tickets"][int(source[7:])] if source.startswith("tickets") else state[source]
        ticket = rows.pop(draw(st.integers(0, len(rows) - 1)))
        target = draw(st.sampled_from(["ticket_deck", "offer", *[f"tickets{p}" for p in range(players)]]))
        (state["tickets"][int(target[7:])] if target.startswith("tickets") else state[target]).append(ticket)
        return f"ticket {ticket} from {source} to {target}"
    if op == "route":
        v = corpus.variant(variant)
        route = v.ir.routes[draw(st.integers(0, len(v.ir.routes) - 1))]
        p = draw(st.integers(-1, players - 1))
        old = state["owner"][route.id]
        points = v.ir.route_points[route.length]
        if old >= 0:
            state["trains"][old] += route.length
            state["route_score"][old] -= points
        if p >= 0:
            state["trains"][p] -= route.length
            state["route_score"][p] += points
        state["owner"][route.id] = p
        return f"route {route.name} to player {p}"
    field = draw(st.sampled_from(["turn", "final_turns", "passes", "current", "offer_keep", "decisions"]))
    state[field] = draw(st.integers(-1, players + 1))
    return f"{field} = {state[field]}"


@st.composite
def state_cases(draw) -> Case:
    """A state case: as :func:`json_document_cases`, plus (a quarter of the cases) states
    changed in ways that keep every card, ticket and train accounted for."""
    if draw(st.integers(0, 3)) != 0:
        return draw(json_document_cases("state", corpus.states))
    variant = draw(st.sampled_from(corpus.VARIANTS))
    docs = corpus.states(variant)
    state = copy.deepcopy(docs[draw(st.integers(0, len(docs) - 1))])
    hows = [_state_move(draw, state, variant) for _ in range(draw(st.integers(1, 4)))]
    return Case("state", write_json(draw, state), variant, "move " + "; ".join(hows))


def position_cases() -> st.SearchStrategy:
    return json_document_cases("position", corpus.positions)


# --- traces ---------------------------------------------------------------------------

@st.composite
def trace_cases(draw) -> Case:
    """A trace case: a recorded trace, its lines mutated, reordered or replaced, written
    as JSON Lines. Most cases keep only the lines up to shortly after the last change, so
    that a replay stays short (the verdict is then 'no result line')."""
    variant = draw(st.sampled_from(corpus.VARIANTS))
    recorded = corpus.traces(variant)
    lines = [copy.deepcopy(x) for x in recorded[draw(st.integers(0, len(recorded) - 1))]]
    kind = draw(st.integers(0, 99))
    if kind >= 92:
        return Case("trace", draw(random_json_text()) + "\n" + draw(random_json_text()), variant, "random")
    hows, touched = [], 0
    if kind >= 4:
        for _ in range(draw(st.integers(1, 3))):
            # early lines more often: the header and the set-up decisions
            last = len(lines) - 1
            i = draw(st.one_of(st.integers(0, min(last, 6)), st.integers(0, max(0, last))))
            touched = max(touched, i)
            op = draw(st.sampled_from(["json", "json", "json", "drop", "dup", "swap", "junk", "after-result"]))
            if op == "json" and lines:
                lines[i], sub = mutate_json(draw, lines[i], variant, descend=draw(st.sampled_from([5, 7])))
                hows.append(f"line {i + 1}: " + ", ".join(sub))
            elif op == "drop" and lines:
                del lines[i]
                hows.append(f"drop line {i + 1}")
            elif op == "dup" and lines:
                lines.insert(i, copy.deepcopy(lines[i]))
                hows.append(f"duplicate line {i + 1}")
            elif op == "swap" and len(lines) > 1:
                j = min(i + 1, len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
                hows.append(f"swap lines {i + 1},{j + 1}")
            elif op == "after-result":
                lines.append(copy.deepcopy(lines[min(1, len(lines) - 1)]))
                hows.append("a line after the result")
                touched = len(lines)
            else:
                lines.insert(i, draw(odd_values()))
                hows.append(f"junk line {i + 1}")
    if kind < 85 and draw(st.integers(0, 3)) != 0 and touched < len(lines):
        keep = touched + 1 + draw(st.integers(0, 8))
        if keep < len(lines):
            lines = lines[:keep]
            hows.append(f"first {keep} lines")
    text = "".join(write_json(draw, line, compact_only=True) + "\n" for line in lines)
    if kind >= 85 or draw(st.integers(0, 9)) == 0:
        text, extra = mutate_text(draw, text)
        hows.append(extra)
    return Case("trace", text, variant, "; ".join(hows) or "valid")


# --- specs ----------------------------------------------------------------------------

UNICODE_CITIES = ["Z\u00fcrich", "S\u00e3o Paulo", "\u5317\u4eac", "A-B", "x y", "\u2028", "a\u0085b"]
COLOURS = ["red", "blue", "green", "black", "white", "orange", "pink", "yellow"]
SPEC_JUNK = ["$", '"', "-", ";", ":", "..", "+", "#", "\u00e9", "\t", "\f", "\u2013", "\u2028", "0", "x", "\\",
             "{", "\ufeff", "<=", "\u00a0", "\r", "\x00", "\u0085"]
STATEMENTS = ["trains 2147483648", "hand 2147483648", "locomotives 4294967296",
              "ticket Alpha - Beta 4294967296", "route points 1:1 2:2 3:4 4:2147483648", "players 2..8",
              "players 2..6", "market 6 reset 3 locomotives", "deal tickets 6 keep 1", "hand 200",
              "card red 100000", 'extends "base.rail"', 'extends "usa"', 'extends "/dev/null"',
              'extends "/etc/hostname"', 'extends "."', 'extends ""', 'extends "nowhere.rail"',
              "without route Alpha - Beta", "without city Epsilon",
              "city \"" + "N" * 500 + "\"", "city \"Z\u00fcrich\"", "end when trains <= 0",
              "action draw tickets 3 keep 3", 'variant ""',
              # every installed mechanic's sample, on the base spec's cities
              *(line for m in SAMPLED for line in m.sample.written(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"])),
              *(re.sub(r"\b\d+\b", "9223372036854775808", line, count=1)
                for m in SAMPLED for line in m.sample.written(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"])),
              *(f"route Alpha - Beta 2 gray{m.sample.route}" for m in SAMPLED if m.sample.route)]
NUMBERS = ["0", "-1", "1", "12", "13", "255", "256", "65535", "65536", "2147483647", "2147483648", "4294967296",
           "9223372036854775808", "18446744073709551616", "1" * 40]


def _spec_line_mutation(draw, lines: list[str]) -> str:
    """One change to a spec's lines, in place; returns its description."""
    i = draw(st.integers(0, max(0, len(lines) - 1)))
    line = lines[i] if lines else ""
    tokens = line.split(" ")
    op = draw(st.sampled_from(["delete-token", "duplicate", "swap", "number", "number", "truncate", "junk",
                               "delete-line", "join", "statement", "statement"]))
    if op == "delete-token" and len(tokens) > 1:
        del tokens[draw(st.integers(0, len(tokens) - 1))]
        lines[i] = " ".join(tokens)
    elif op == "duplicate":
        lines.insert(i, line)
    elif op == "swap" and len(tokens) > 1:
        a, b = draw(st.integers(0, len(tokens) - 1)), draw(st.integers(0, len(tokens) - 1))
        tokens[a], tokens[b] = tokens[b], tokens[a]
        lines[i] = " ".join(tokens)
    elif op == "number" and re.search(r"\d+", line):
        found = list(re.finditer(r"\d+", line))
        m = found[draw(st.integers(0, len(found) - 1))]
        lines[i] = line[:m.start()] + draw(st.sampled_from(NUMBERS)) + line[m.end():]
    elif op == "junk":
        k = draw(st.integers(0, len(line)))
        lines[i] = line[:k] + draw(st.sampled_from(SPEC_JUNK)) + line[k:]
    elif op == "delete-line" and lines:
        del lines[i]
    elif op == "join" and i + 1 < len(lines):
        lines[i:i + 2] = [lines[i] + "; " + lines[i + 1]]
    elif op == "statement":
        lines.insert(i, draw(st.sampled_from(STATEMENTS)))
    else:
        op = "truncate"
        lines[i] = line[:draw(st.integers(0, len(line)))]
    return f"{op} line {i + 1}"


def _number(draw, low: int, high: int, wild: bool) -> int:
    """A number in low..high, or (one time in ten when ``wild``) one far outside it: at
    and past the checker's documented limits (docs/language.md) or the C types'."""
    if wild and draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([0, -1, 2**31 - 1, 2**31, 2**32, 2**63, 2**64, 10**20, 255, 256, 65536,
                                     6, 7, 8, 9, 12, 13, 999, 1000, 1001, 999_999, 1_000_000, 1_000_001]))
    return draw(st.integers(low, high))


@st.composite
def structured_spec(draw) -> tuple[str, str]:
    """A spec built from drawn parameters (a random map with tickets, tables, set-up and
    optional mechanics), each number sometimes far out of range. Returns (text, how)."""
    wild = draw(st.booleans())
    def n(lo, hi):
        return _number(draw, lo, hi, wild)
    colours = COLOURS[:draw(st.integers(1, 8))]
    count = draw(st.integers(2, 10))
    naming = draw(st.sampled_from(["plain", "plain", "quoted", "long"]))
    if naming == "quoted":
        cities = [f'"{draw(st.sampled_from(UNICODE_CITIES))} {i}"' for i in range(count)]
    elif naming == "long":
        cities = [f"C{i}" + "x" * 200 for i in range(count)]
    else:
        cities = [f"C{i}" for i in range(count)]
    longest = draw(st.integers(1, 8))
    low = draw(st.integers(2, 4))
    high = draw(st.integers(low, 8 if wild else 5))
    market = n(1, 6)
    trains = n(5, 45)
    lines = [f'variant "Fuzz {draw(st.integers(0, 10**6))}"', f"players {low}..{high}", f"trains {trains}",
             f"hand {n(0, 5)}"]
    lines += [f"card {c} {n(1, 14)}" for c in colours]
    lines.append(f"locomotives {n(0, 14)}")
    lines.append(f"market {market} reset {n(1, 6)} locomotives")
    lines += [f"city {c}" for c in cities]
    tracks: dict[tuple[int, int], int] = {}
    for i in range(1, count):
        tracks[(draw(st.integers(0, i - 1)), i)] = 1
    for _ in range(draw(st.integers(0, count))):
        a, b = sorted(draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2, unique=True)))
        tracks[(a, b)] = min(3, tracks.get((a, b), 0) + 1)
    # each installed mechanic's sample, now and then: its lines, its route attribute on some routes
    chosen = [m for m in SAMPLED if draw(st.integers(0, 3)) == 0]
    attributes = [m.sample.route for m in chosen if m.sample.route]
    for (a, b), k in sorted(tracks.items()):
        length = draw(st.integers(1, longest))
        used = set()
        for _ in range(k):
            colour = draw(st.sampled_from(["gray", *colours]))
            colour = "gray" if colour in used else colour
            used.add(colour)
            extra = "".join(attr for attr in attributes if draw(st.integers(0, 3)) == 0)
            lines.append(f"route {cities[a]} - {cities[b]} {length} {colour}{extra}")
    lines.append("route points " + " ".join(f"{i}:{n(0, 20)}" for i in range(1, longest + 1)))
    deal = draw(st.integers(1, 4))
    tickets = set()
    for _ in range(deal * high + draw(st.integers(0, 4))):
        a, b = sorted(draw(st.lists(st.integers(0, count - 1), min_size=2, max_size=2, unique=True)))
        tickets.add((a, b))
    lines += [f"ticket {cities[a]} - {cities[b]} {n(1, 20)}" for a, b in sorted(tickets)]
    lines.append(f"deal tickets {deal} keep {draw(st.integers(0, deal))}")
    lines += ["action draw cards 2", "action claim route"]
    if draw(st.booleans()):
        drawn = draw(st.integers(1, 5))
        lines.append(f"action draw tickets {drawn} keep {draw(st.integers(1, drawn))}")
    for mechanic in chosen:
        lines += mechanic.sample.written(cities)
    lines.append(f"end when trains <= {n(0, 3)}")
    keys = ["most tickets", *(tb.words for m in chosen for tb in m.tiebreaks)]
    lines.append("tiebreak " + ", ".join(draw(st.permutations(keys))))
    order = draw(st.permutations(range(len(lines)))) if draw(st.integers(0, 9)) == 0 else range(len(lines))
    return "\n".join(lines[i] for i in order) + "\n", f"structured{' wild' if wild else ''} {naming}"


@st.composite
def spec_cases(draw) -> Case:
    """A spec case (bytes): the small base spec or a stock spec with line edits, a spec
    built from drawn parameters, a spec extending another, or random text; sometimes
    with byte-level damage (BOM, invalid UTF-8, NUL, CRLF, one long ';'-joined line)."""
    kind = draw(st.integers(0, 99))
    if kind < 45:
        stock = draw(st.integers(0, 19)) == 0
        text = draw(st.sampled_from(corpus.stock_spec_texts())) if stock else corpus.BASE_SPEC
        lines = text.split("\n")
        hows = [_spec_line_mutation(draw, lines) for _ in range(draw(st.integers(1, 3)))]
        text, how = "\n".join(lines), ("stock " if stock else "base ") + "; ".join(hows)
    elif kind < 80:
        text, how = draw(structured_spec())
        if draw(st.integers(0, 3)) == 0:
            lines = text.split("\n")
            how += "; " + _spec_line_mutation(draw, lines)
            text = "\n".join(lines)
    elif kind < 87:
        head = draw(st.sampled_from(['extends "base.rail"', 'extends "usa"', 'extends "europe"',
                                     'extends "/dev/null"', 'extends "/etc/hostname"', 'extends "fuzz.rail"',
                                     'extends "../base.rail"']))
        if draw(st.integers(0, 199)) == 0:
            # a device that never ends: rare, since each such case reads up to the memory limit
            head = 'extends "/dev/zero"'
        body = draw(st.lists(st.sampled_from(STATEMENTS + ['variant "Child"', "trains 20", "hand 3"]), max_size=4))
        text, how = "\n".join([head, *body]) + "\n", "extends"
    elif kind < 92:
        words = ["route", "city", "ticket", "card", "trains", "hand", "players", "market", "deal", "tickets",
                 "keep", "action", "end", "when", "<=", "-", "..", ":", ";", "\n", "Alpha", "Beta", "1", "2",
                 "2147483648", "red", "gray", "variant", '"x"', "long", "extends", "without", "#",
                 *(m.sample.route.strip() for m in SAMPLED if m.sample.route)]
        text = " ".join(draw(st.lists(st.sampled_from(words), max_size=60)))
        how = "random tokens"
    else:
        text, how = draw(st.text(max_size=300)), "random text"
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        op = draw(st.sampled_from(["bom", "latin1", "nul", "crlf", "long-line", "truncate"]))
        if op == "bom":
            data = b"\xef\xbb\xbf" + data
        elif op == "latin1":
            data = data.replace(b"a", b"\xe4", 1)
        elif op == "nul":
            data = data.replace(b"\n", b"\x00\n", 1)
        elif op == "crlf":
            data = data.replace(b"\n", b"\r\n")
        elif op == "long-line":
            repeat = draw(st.sampled_from([1000, 10_000]))
            data = data + ("; ".join(["city Long"] * repeat)).encode() + b"\n"
        else:
            data = data[:draw(st.integers(0, len(data)))]
        how += f"; bytes {op}"
    return Case("spec", data, None, how)


STRATEGIES = {"spec": spec_cases, "position": position_cases, "trace": trace_cases, "state": state_cases}
FORMATS = tuple(STRATEGIES)
