"""Conformance test vectors (docs/conformance.md, "Test vectors"): files another engine is
checked against, made from a spec by ``railspec suite export``.

Three kinds, each JSON Lines with a header: ``games`` (seeded random games, each decision
with its legal actions sorted by name, the action and the position it leads to),
``scores`` (positions with their breakdowns and winners: ends of random games, games
stopped in the middle, and the hard cases the core and each mechanic label:
:meth:`Mechanic.hard_cases`) and ``perft`` (counts of action sequences, with divide, from
positions of every phase whose trees draw no chance). Every position is in the position
notation. The same arguments give the same files, byte for byte.

The records are made lazily (``*_records``), so the driver (:mod:`.driver`) can run fresh
cases without writing them; :func:`export` writes them with the JSON Schemas of
:mod:`.schemas`.
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..compiler.base import files
from ..compiler.base.rng import agent_for
from ..compiler.mechanic import HardCases, part
from ..runtime import notation, scoring
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


def game_records(variant, games: int, seed: int):
    """Game ``i`` (from 0): ``players`` cycling through the variant's counts, game seed
    ``seed + i``, the documented random agent choosing (docs/engine.md, "Random playouts")."""
    counts = _player_counts(variant)
    for i in range(games):
        game_seed = (seed + i) % 2**64
        g = variant.new_game(players=counts[i % len(counts)], seed=game_seed)
        agent = agent_for(game_seed)
        record = {"type": "game", "game": i, "seed": game_seed, "players": g.players, "start": g.position()}
        steps = []
        while not g.is_over:
            legal = g.legal_actions()
            action = legal[agent.below(len(legal))]
            rng = g.state()["rng"]
            name = g.action_name(action)
            g.apply(action)
            steps.append({"legal": _names(g, legal), "action": name, "chance": g.state()["rng"] != rng,
                          "position": g.position()})
        record.update(steps=steps, breakdown=g.score_breakdown(), winners=g.winners())
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
    """Write games.jsonl, scores.jsonl, perft.jsonl and schemas/ into ``out``; returns the
    paths written."""
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
