"""Conformance test vectors (docs/conformance.md, "Test vectors"): files another engine is
checked against, made from a spec by ``railspec suite export``.

Three kinds, each JSON Lines with a header: ``games`` (seeded random games, each decision
with its legal actions sorted by name, the action and the position it leads to, then
hand-made edge cases: positions of rules random games almost never reach, recorded the
same way), ``scores`` (positions with their breakdowns and winners: ends of random games, games
stopped in the middle, and the hard cases the core and each mechanic label:
:meth:`Mechanic.hard_cases`) and ``perft`` (counts of action sequences, with divide, from
positions of every phase whose trees draw no chance). Every position is in the position
notation. The same arguments give the same files, byte for byte.

The records are made lazily (``*_records``), so the driver (:mod:`.driver`) can run fresh
cases without writing them; :func:`export` writes them with the JSON Schemas of
:mod:`.schemas` and the variant as ``railspec export`` prints it.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from .. import __version__
from ..compiler.base import files
from ..compiler.base.rng import agent_for
from ..compiler.base.schema import CARD_COUNTS, CARD_IDS, PH_TURN, Field
from ..compiler.ir import DRAW_BLIND, DRAW_FACEUP
from ..compiler.mechanic import HardCases, part
from ..runtime import notation, scoring
from ..runtime.game import Game, Variant
from ..runtime.state_format import StateError
from . import export as variant_export
from . import jsonl, perft, schemas

#: The vectors' format, written in every header.
FORMAT = "railspec-vectors/1"
#: The kinds of vector file, each written as KIND.jsonl.
KINDS = ("games", "scores", "perft")
#: Positions kept per hard-case label (the scan stops looking for a label once it has these).
PER_LABEL = 3
#: The label of a position whose winners the tie-break decides (the core's own hard case).
TIE_LABEL = "tied totals: the tie-break decides"
#: The label of a position whose winners change when the tie-break keys are taken in
#: another order, and the most games searched for them.
ORDER_LABEL = "the order of the tie-breaks decides"
ORDER_GAMES = 1000
#: The most positions a perft tree may visit (each is checked for chance).
PERFT_BUDGET = 20_000


class VectorError(ValueError):
    """A vector file that cannot be read (the message names the file and line)."""


def header(variant, kind: str, made_by: str) -> dict:
    """The first record of a vector file."""
    return {"type": "header", "format": FORMAT, "kind": kind, "variant": variant.key,
            "spec_hash": variant.spec_hash, "notation": notation.FORMAT, "made_by": made_by,
            "railspec": __version__}


def _player_counts(variant) -> list[int]:
    return list(range(variant.ir.min_players, variant.ir.max_players + 1))


def _names(game, ids) -> list[str]:
    return sorted(game.action_name(a) for a in ids)


def _step(game: Game, legal: list[int], action: int) -> dict:
    """Apply ``action`` (one of ``legal``, the position's legal actions) to ``game``; the
    step a games record keeps of it: the legal actions by name, sorted, its name, whether
    the generator moved, and the position after it."""
    rng = game.state()["rng"]
    name = game.action_name(action)
    game.apply(action)
    return {"legal": _names(game, legal), "action": name, "chance": game.state()["rng"] != rng,
            "position": game.position()}


def game_records(variant: Variant, games: int, seed: int, edges: bool = True) -> Iterator[dict]:
    """Game ``i`` (from 0): ``players`` cycling through the variant's counts, game seed
    ``seed + i``, the documented random agent choosing (docs/engine.md, "Random playouts").
    Then, with ``edges``, the hand-made edge cases (:func:`edge_records`), numbered on."""
    counts = _player_counts(variant)
    for i in range(games):
        game_seed = (seed + i) % 2**64
        g = variant.new_game(players=counts[i % len(counts)], seed=game_seed)
        agent = agent_for(game_seed)
        record = {"type": "game", "game": i, "seed": game_seed, "players": g.players, "start": g.position()}
        steps = []
        while not g.is_over:
            legal = g.legal_actions()
            steps.append(_step(g, legal, legal[agent.below(len(legal))]))
        record.update(steps=steps, breakdown=g.score_breakdown(), winners=g.winners())
        yield record
    if edges:
        yield from edge_records(variant, seed, first=games)


# --- hand-made edge cases -------------------------------------------------------------------
#
# Rules whose positions random games almost never reach: an engine that breaks one passes
# every random game. Each case is built from the first turn of a seeded game by moving
# train cards (and, for the passes, tickets) between the core's piles, checked as any
# state is, played a few decisions and kept as a games record with a "name". A case whose
# position the variant's rules do not allow, or where its rule does not come into play
# (a market without the reset; a mechanic's own action left besides "pass"), is left out.

EDGE_NO_CARD = "edge: no train card left to draw"
EDGE_LAST_BLIND = "edge: a blind draw takes the last train card"
EDGE_LAST_FACEUP = "edge: a face-up draw takes the last train card"
EDGE_PASSES = "edge: a full round of passes ends the game"
EDGE_SHORTAGE = "edge: too few cards for the market's reset"
EDGES = (EDGE_NO_CARD, EDGE_LAST_BLIND, EDGE_LAST_FACEUP, EDGE_PASSES, EDGE_SHORTAGE)
#: The core's train card piles: the rest (a mechanic's: a tunnel's revealed cards) keep
#: their cards when an edge case deals the cards anew.
_CORE_CARD_PILES = ("deck", "discard", "faceup", "hands")
#: A move of an edge case: the action it takes in a game, or None when it finds none.
Move = Callable[[Game], "int | None"]
#: Whether an edge case's rule came into play, given its game before its moves and after.
Holds = Callable[[Game, Game], bool]


def cards_in(field: Field, value: list) -> tuple[Counter, list[int]]:
    """The train cards a card pile field holds (card id -> how many) and, per player for a
    per-player field (one entry for another), how many each holds."""
    rows = value if field.per_player else [value]
    total: Counter = Counter()
    sizes = []
    for row in rows:
        held = Counter({c: n for c, n in enumerate(row) if n}) if field.pile == CARD_COUNTS \
            else Counter(c for c in row if c >= 0)
        total += held
        sizes.append(sum(held.values()))
    return total, sizes


def _deal_anew(variant: Variant, state: dict, deck: list[int], discard: Counter, faceup: list[int],
               seats: list[int]) -> dict | None:
    """``state`` with the train deck, the discards and the market as given and every other
    train card of the core's piles dealt to the hands of ``seats``, one card at a time in
    card order; None when the cards given are more than the game has."""
    ir_variant = variant.ir
    total = Counter({c.id: c.count for c in ir_variant.colours} | {len(ir_variant.colours): ir_variant.locomotives})
    placed = Counter(deck) + discard + Counter(c for c in faceup if c >= 0)
    for field in variant.assembly.exported_fields:
        if field.pile in (CARD_IDS, CARD_COUNTS) and field.name not in _CORE_CARD_PILES:
            placed += cards_in(field, state[field.name])[0]
    if any(placed[card] > total[card] for card in placed):
        return None
    hands = [[0] * len(total) for _ in range(state["players"])]
    for i, card in enumerate(sorted((total - placed).elements())):
        hands[seats[i % len(seats)]][card] += 1
    return state | {"deck": list(deck), "discard": [discard[c] for c in range(len(total))], "faceup": list(faceup),
                    "hands": hands}


def _first_turn(variant: Variant, seed: int) -> Game:
    """The first turn of a game of three players (or the nearest count the variant has),
    set up from ``seed`` with the random agent keeping tickets."""
    counts = _player_counts(variant)
    game = variant.new_game(players=min(max(3, counts[0]), counts[-1]), seed=seed)
    agent = agent_for(seed)
    while game.state()["phase"] != PH_TURN and not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[agent.below(len(legal))])
    return game


def _calm(game: Game) -> int:
    """The action an edge case takes after its own: one that moves no train card where
    there is one (keeping tickets, else drawing them), else the first by name."""
    legal = {game.action_name(a): a for a in game.legal_actions()}
    keep = sorted(name for name in legal if name.startswith("keep tickets "))
    if keep:
        return legal[keep[0]]
    return legal.get("draw tickets", legal[min(legal)])


def _named(prefix: str, colour_only: bool = False) -> Move:
    """A move: the first legal action (by id) whose name starts with ``prefix`` and, with
    ``colour_only``, that takes a colour card (not a locomotive); None when there is none."""
    def move(game: Game) -> int | None:
        actions = game.variant.ir.actions
        for a in game.legal_actions():
            if actions[a].name.startswith(prefix) and not (colour_only and actions[a].colour < 0):
                return a
        return None
    return move


def _edge_record(variant: Variant, name: str, number: int, state: dict | None, moves: list[Move],
                 holds: Holds | None = None) -> dict | None:
    """A games record named ``name`` from ``state``: each of ``moves`` picks an action
    from the game, and ``holds`` (given the game before the moves and after them) says
    whether the case's rule came into play. None when the state does not check, a move
    finds no action, or the rule did not come into play."""
    if state is None:
        return None
    try:
        game = variant.game_from_state(state)
    except StateError:
        return None
    start = game.clone()
    record = {"type": "game", "game": number, "name": name, "seed": state["seed"], "players": game.players,
              "start": game.position()}
    steps = []
    for move in moves:
        action = None if game.is_over else move(game)
        if action is None:
            return None
        steps.append(_step(game, game.legal_actions(), action))
    if holds is not None and not holds(start, game):
        return None
    return record | {"steps": steps, "breakdown": game.score_breakdown(), "winners": game.winners()}


def _empty_piles(variant: Variant, state: dict) -> dict | None:
    """No train card in the deck or the discards: every card outside the market in hands."""
    return _deal_anew(variant, state, [], Counter(), state["faceup"], list(range(state["players"])))


def _one_card_left(variant: Variant, state: dict) -> dict | None:
    """One colour card in the deck, none in the discards, the rest in hands."""
    empty = _empty_piles(variant, state)
    if empty is None:
        return None
    in_hands: Counter = Counter()
    for hand in empty["hands"]:
        in_hands.update({card: n for card, n in enumerate(hand[:len(variant.ir.colours)]) if n})
    if not in_hands:
        return None
    card = min(in_hands, key=lambda c: (-in_hands[c], c))  # the commonest colour
    return _deal_anew(variant, state, [card], Counter(), state["faceup"], list(range(state["players"])))


def _nobody_acts(variant: Variant, state: dict) -> dict | None:
    """The player to move holds no train card and could draw none (deck and discards
    empty), the ticket deck is held by the next seat, and every other seat passed: the
    full round of passes ends with this player's."""
    seat, players = state["current"], state["players"]
    others = [p for p in range(players) if p != seat]
    dealt = _deal_anew(variant, state, [], Counter(), state["faceup"], others)
    if dealt is None:
        return None
    tickets = [list(held) for held in dealt["tickets"]]
    tickets[others[0]] += dealt["ticket_deck"]
    return dealt | {"ticket_deck": [], "tickets": tickets, "passes": players - 1}


def _short_market(variant: Variant, state: dict) -> dict | None:
    """A market showing as many locomotives as reset it, and too few other cards outside
    the hands to make one with fewer (docs/engine.md, "The market"): the deck empty, a
    locomotive or two in the discards. No reset is due; a redeal would move the cards."""
    ir_variant = variant.ir
    reset, size, loco = ir_variant.market_reset_locomotives, ir_variant.market_size, len(ir_variant.colours)
    spare = ir_variant.locomotives - reset
    if reset == 0 or reset > size or spare < 1:
        return None
    colours = [c for c in state["faceup"] if 0 <= c < loco]
    colours += [c.id for c in ir_variant.colours for _ in range(c.count)]
    market = [loco] * reset + colours[:size - reset]
    return _deal_anew(variant, state, [], Counter({loco: min(2, spare)}), market, list(range(state["players"])))


def _market_kept(before: Game, after: Game) -> bool:
    """Whether the market, the deck and the discards are as they were: no redeal."""
    old, new = before.state(), after.state()
    return all(old[pile] == new[pile] for pile in ("faceup", "deck", "discard"))


def _no_train_draw(before: Game, _after: Game) -> bool:
    """Whether no train card could be drawn at the start."""
    actions = before.variant.ir.actions
    return not {actions[a].kind for a in before.legal_actions()} & {DRAW_BLIND, DRAW_FACEUP}


def edge_records(variant: Variant, seed: int, first: int = 0) -> Iterator[dict]:
    """The hand-made edge cases (:data:`EDGES`) the variant's rules allow, built from the
    first turn of game ``seed`` and numbered from ``first``: no train card to draw (every
    seat's next turn); a blind draw, then a face-up one, taking the last card (and the
    next seat's turn); a full round of passes; a market the reset leaves as it is."""
    base = _first_turn(variant, seed)
    if base.is_over:
        return
    state = base.state()
    calm_round: list[Move] = [_calm] * (2 * state["players"])
    cases: list[tuple[str, dict | None, list[Move], Holds | None]] = [
        (EDGE_NO_CARD, _empty_piles(variant, state), calm_round, _no_train_draw),
        (EDGE_LAST_BLIND, _one_card_left(variant, state), [_named("draw blind"), _calm], None),
        (EDGE_LAST_FACEUP, _one_card_left(variant, state), [_named("draw faceup ", colour_only=True), _calm], None),
        (EDGE_PASSES, _nobody_acts(variant, state), [_named("pass")], lambda _, after: after.is_over),
        (EDGE_SHORTAGE, _short_market(variant, state), [_named("draw tickets"), _calm], _market_kept),
    ]
    number = first
    for name, start, moves, holds in cases:
        record = _edge_record(variant, name, number, start, moves, holds)
        if record is not None:
            number += 1
            yield record


def _score_record(name: str, source: str, game) -> dict:
    return {"type": "score", "name": name, "source": source, "position": game.position(),
            "breakdown": game.score_breakdown(), "winners": game.winners()}


def hard_case_labels(variant, game) -> list[str]:
    """Why the position of ``game`` is a hard case to score: the core's (tied totals) and
    each mechanic's (:meth:`Mechanic.hard_cases`)."""
    state, rows = game.state(), game.score_breakdown()
    labels = []
    best = max(row["total"] for row in rows)
    if sum(row["total"] == best for row in rows) > 1:
        labels.append(TIE_LABEL)
    for mechanic, rule in variant.assembly.present:
        labels.extend(part(mechanic, HardCases).hard_cases(variant.ir, rule, state, rows))
    return labels


def order_decides(variant, rows: list[dict]) -> bool:
    """Whether players tied on points would win differently with the variant's tie-break
    keys taken in another order (the last first): the cases that show an engine applying
    them out of order."""
    keys = scoring.tiebreak_keys(variant.ir)
    best = max(row["total"] for row in rows)
    if len(keys) < 2 or sum(row["total"] == best for row in rows) < 2:
        return False
    candidates = [p for p, row in enumerate(rows) if row["total"] == best]
    for key in reversed(keys):
        if len(candidates) == 1:
            break
        value = {p: key.key(rows[p], rows) for p in candidates}
        top = max(value.values())
        candidates = [p for p in candidates if value[p] == top]
    return candidates != scoring.winners(variant.ir, rows)


def _order_cases(variant, seed: int, per_label: int, games: int):
    """Positions where the order of the tie-break keys decides the winners, looked for at
    every decision of up to ``games`` random games (they are rare: most ties are settled
    by the first key whatever the order)."""
    counts = _player_counts(variant)
    if len(scoring.tiebreak_keys(variant.ir)) < 2:
        return
    found = 0
    for i in range(games):
        game_seed = (seed + 2_000_003 + i) % 2**64
        g = variant.new_game(players=counts[i % len(counts)], seed=game_seed)
        agent = agent_for(game_seed)
        step = 0
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
            step += 1
            if order_decides(variant, g.score_breakdown()):
                found += 1
                yield _score_record(f"{ORDER_LABEL} {found}", f"hard case: {ORDER_LABEL} (seed {game_seed}, "
                                                             f"decision {step})", g)
                if found == per_label:
                    return
                break  # one position a game: others of the same game are much alike


def score_records(variant, games: int, seed: int, per_label: int = PER_LABEL, scan: int | None = None):
    """The scored positions: the end of each of ``games`` random games and the middle of
    each, then up to ``per_label`` positions of each hard-case label met along ``scan``
    more games (default: 20 times ``games``, at least 40), looking at every fifth
    decision."""
    counts = _player_counts(variant)
    for i in range(games):
        game_seed = (seed + i) % 2**64
        g = variant.new_game(players=counts[i % len(counts)], seed=game_seed)
        agent = agent_for(game_seed)
        seen = []
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
            seen.append(g.clone())
        middle = seen[len(seen) // 2]
        yield _score_record(f"game {i} middle", "a random game stopped in the middle", middle)
        yield _score_record(f"game {i} end", "the end of a random game", g)
    found: dict[str, int] = {}
    scan = max(40, 20 * games) if scan is None else scan
    for i in range(scan):
        game_seed = (seed + 1_000_003 + i) % 2**64  # other games than the ones above
        g = variant.new_game(players=counts[i % len(counts)], seed=game_seed)
        agent = agent_for(game_seed)
        step = 0
        while True:
            if step % 5 == 0 or g.is_over:
                for label in hard_case_labels(variant, g):
                    if found.get(label, 0) < per_label:
                        found[label] = found.get(label, 0) + 1
                        yield _score_record(f"{label} {found[label]}", f"hard case: {label} (seed {game_seed}, "
                                                                       f"decision {step})", g)
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
            step += 1
    yield from _order_cases(variant, seed, per_label, ORDER_GAMES)


def _walk(game, depth: int, root_rng: int) -> tuple[int, bool]:
    """perft of ``depth`` and whether any position of the tree drew on the generator."""
    if depth <= 0:
        return 1, False
    legal = game.legal_actions()
    total, chance = 0, False
    for action in legal:
        child = game.clone()
        child.apply(action)
        if child.state()["rng"] != root_rng:
            return 0, True
        if depth > 1:
            count, chance = _walk(child, depth - 1, root_rng)
            if chance:
                return 0, True
            total += count
        else:
            total += 1
    return total, False


def perft_records(variant, most: int = perft.MAX_DEPTH, budget: int = PERFT_BUDGET):
    """perft counts and divide from a position of every phase (``tools.perft.positions``),
    as deep as ``budget`` allows, up to ``most``; a position whose tree draws chance at
    every depth is left out."""
    for name, state in perft.positions(variant):
        game = variant.game_from_state(state)
        rng = state["rng"]
        best = None
        for depth in range(1, most + 1):
            if perft.perft(game, depth) > budget:
                break
            count, chance = _walk(game, depth, rng)
            if chance:
                break
            best = depth
        if best is None:
            continue
        divide = {}
        for action in game.legal_actions():
            child = game.clone()
            child.apply(action)
            divide[game.action_name(action)] = perft.perft(child, best - 1)
        yield {"type": "perft", "name": name, "position": game.position(),
               "counts": perft.counts(game, best), "divide": dict(sorted(divide.items()))}


def records(variant, kind: str, games: int, seed: int):
    """The records of one kind of vector file."""
    if kind == "games":
        return game_records(variant, games, seed)
    if kind == "scores":
        return score_records(variant, games, seed)
    if kind == "perft":
        return perft_records(variant)
    raise ValueError(f"no kind of vector {kind!r}; the kinds are {', '.join(KINDS)}")


def export(variant, out: Path, games: int = 10, seed: int = 1, made_by: str | None = None) -> list[Path]:
    """Write games.jsonl, scores.jsonl, perft.jsonl, variant.json (the variant as
    ``railspec export`` prints it) and schemas/ into ``out``; returns the paths written."""
    out = Path(out)
    out.mkdir(exist_ok=True)
    made_by = made_by or f"railspec suite export {variant.key} --games {games} --seed {seed}"
    written = []
    for kind in KINDS:
        path = out / f"{kind}.jsonl"
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(jsonl.dumps([header(variant, kind, made_by)]))
            for record in records(variant, kind, games, seed):
                f.write(jsonl.dumps([record]))
        written.append(path)
    path = out / "variant.json"
    path.write_text(json.dumps(variant_export.variant_document(variant), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    written.append(path)
    folder = out / "schemas"
    folder.mkdir(exist_ok=True)
    for name, schema in schemas.all_schemas(variant).items():
        path = folder / f"{name}.schema.json"
        path.write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def read(path: Path, variant) -> tuple[dict, list[dict]]:
    """A vector file's header and records, checked to be of ``variant``'s spec."""
    text = files.read_text(path, "vector file")
    lines = jsonl.loads(text, VectorError, "vector file")
    if not lines:
        raise VectorError(f"{path}: empty")
    head = lines[0][1]
    if not isinstance(head, dict) or head.get("type") != "header" or head.get("format") != FORMAT:
        raise VectorError(f"{path}: line 1: not a {FORMAT} header")
    if head.get("spec_hash") != variant.spec_hash:
        raise VectorError(f"{path}: the vectors are of spec {head.get('spec_hash')!r}, not {variant.key!r} "
                          f"(spec {variant.spec_hash})")
    body = []
    for number, record in lines[1:]:
        if not isinstance(record, dict) or record.get("type") not in ("game", "score", "perft"):
            raise VectorError(f"{path}: line {number}: not a game, score or perft record")
        body.append(record)
    return head, body
