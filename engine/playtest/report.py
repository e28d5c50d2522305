"""The balance report: a campaign's records as tables, plots and one HTML file.

:func:`tables` turns the records of :func:`railspec.balance.run_campaign` into two pandas
tables, one row per game and one per player-game; :func:`write_report` writes them as CSV
next to ``report.html``, a single file with every plot embedded (PNG as data URIs, the
map as inline SVG) so it can be mailed or archived as it is.

Needs the ``balance`` extra (``pip install 'railspec[balance]'``: pandas and matplotlib).
Win rates count a shared win as a fraction (two tied winners get half each); their 95%
intervals are Wilson score intervals.
"""
from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path

from ..compiler.base.errors import RailspecError
from .render import render_svg

#: A route claimed in fewer games than this share is listed as rarely claimed.
RARE = 0.05

#: The sections of report.html, in order: (id, heading). A test checks they are all there.
SECTIONS = (
    ("summary", "Campaign"),
    ("seats", "Win rate by seat"),
    ("agents", "Win rate by agent"),
    ("scores", "Score distributions"),
    ("tickets", "Ticket completion"),
    ("heatmap", "Routes claimed"),
    ("rare-routes", "Routes never or rarely claimed"),
    ("rare-tickets", "Tickets never completed"),
    ("length", "Game length"),
    ("endings", "How games ended"),
    ("mechanics", "Mechanics"),
)


class MissingExtraError(RailspecError, ImportError):
    """The report's libraries are not installed."""


def require_extra():
    """pandas, with matplotlib set to draw without a screen; MissingExtraError (one line:
    what to install) when the ``balance`` extra is missing."""
    try:
        import matplotlib
        import pandas
    except ImportError:
        raise MissingExtraError("the balance report needs the balance extra: pip install 'railspec[balance]'") \
            from None
    matplotlib.use("Agg")
    return pandas


_need = require_extra


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tables(records: list[dict]):
    """The records as (games, seats): pandas tables, a row per game and per player-game."""
    pd = _need()
    games, seats = [], []
    for rec in records:
        winners = [s["seat"] for s in rec["seats"] if s["winner"]]
        games.append({"game": rec["game"], "seed": rec["seed"], "players": rec["players"],
                      "decisions": rec["decisions"], "turns": rec["turns"], "ended_by": rec["ended_by"],
                      "winners": " ".join(map(str, winners)),
                      "agents": " ".join(s["agent"] for s in rec["seats"])})
        for s in rec["seats"]:
            row = {"game": rec["game"], "seat": s["seat"], "agent": s["agent"],
                   "win_share": 1.0 / len(winners) if s["winner"] else 0.0, "score": s["score"],
                   "tickets_held": len(s["tickets"]), "tickets_done": len(s["completed"])}
            row.update({f"item:{k}": v for k, v in s["breakdown"].items()})
            row.update({f"action:{k}": v for k, v in s["actions"].items()})
            seats.append(row)
    seat_table = pd.DataFrame(seats).fillna(0)
    return pd.DataFrame(games), seat_table


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}"/>'


def _rates(seat_table, by: str):
    rows = []
    for key, group in seat_table.groupby(by):
        n = len(group)
        wins = group["win_share"].sum()
        low, high = wilson(wins, n)
        rows.append({by: key, "games": n, "win_rate": wins / n, "ci_low": low, "ci_high": high,
                     "mean_score": group["score"].mean(),
                     "ticket_completion": group["tickets_done"].sum() / max(1, group["tickets_held"].sum())})
    import pandas as pd
    return pd.DataFrame(rows)


def _bar_with_ci(rates, by: str, title: str) -> str:
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    labels = [str(x) for x in rates[by]]
    rate = rates["win_rate"].to_numpy()
    err = [rate - rates["ci_low"].to_numpy(), rates["ci_high"].to_numpy() - rate]
    ax.bar(labels, rate, yerr=err, capsize=4, color="#4c78a8")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.set_ylim(0, 1)
    return _png(fig)


def _ticket_table(variant, records):
    import pandas as pd
    held = [0] * len(variant.tickets)
    done = [0] * len(variant.tickets)
    for rec in records:
        for s in rec["seats"]:
            for t in s["tickets"]:
                held[t] += 1
            for t in s["completed"]:
                done[t] += 1
    return pd.DataFrame({"ticket": [t.name for t in variant.tickets], "points": [t.points for t in variant.tickets],
                         "held": held, "completed": done,
                         "rate": [d / h if h else float("nan") for d, h in zip(done, held)]})


def build_html(variant, records: list[dict], plan=None, seconds: float | None = None) -> str:
    """The report as one self-contained HTML page."""
    pd = _need()
    import matplotlib.pyplot as plt
    ir_variant = variant.ir
    game_table, seat_table = tables(records)
    parts: dict[str, str] = {}
    players = records[0]["players"] if records else 0
    agents = sorted(seat_table["agent"].unique()) if len(seat_table) else []
    speed = f"; {len(records) / seconds:,.1f} games/s over {seconds:.1f} s" if seconds else ""
    parts["summary"] = (f"<p>{html.escape(ir_variant.name)} ({html.escape(ir_variant.key)}, spec "
                        f"{ir_variant.spec_hash}): {len(records)} games of {players} players; agents "
                        f"{html.escape(', '.join(agents))}"
                        + (f"; campaign seed {plan.seed}" if plan is not None else "") + f"{speed}.</p>")

    seat_rates = _rates(seat_table, "seat")
    parts["seats"] = _bar_with_ci(seat_rates, "seat", "win rate by seat (95% CI)") + seat_rates.to_html(
        index=False, float_format="%.3f")
    agent_rates = _rates(seat_table, "agent")
    parts["agents"] = _bar_with_ci(agent_rates, "agent", "win rate by agent (95% CI)") + agent_rates.to_html(
        index=False, float_format="%.3f")

    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    ax.boxplot([seat_table.loc[seat_table["agent"] == a, "score"] for a in agents])
    ax.set_xticks(range(1, len(agents) + 1), agents)
    ax.set_ylabel("final score")
    ax.tick_params(axis="x", labelsize=8)
    parts["scores"] = _png(fig)

    tickets = _ticket_table(ir_variant, records)
    shown = tickets[tickets["held"] > 0].sort_values("rate")
    fig, ax = plt.subplots(figsize=(6.5, max(2.5, 0.16 * len(shown))))
    ax.barh(shown["ticket"], shown["rate"], color="#59a14f")
    ax.set_xlabel("completed when held")
    ax.tick_params(axis="y", labelsize=7)
    parts["tickets"] = _png(fig) + shown.to_html(index=False, float_format="%.3f")

    claims = [0] * len(ir_variant.routes)
    for rec in records:
        for r, who in enumerate(rec["owner"]):
            if who >= 0:
                claims[r] += 1
    games = max(1, len(records))
    heat = [c / games for c in claims]
    parts["heatmap"] = ("<p>Share of games in which each route was claimed (pale: rarely, dark red: always).</p>"
                        + render_svg(ir_variant, heat=heat, title=f"{ir_variant.name}: routes claimed"))
    rare = pd.DataFrame({"route": [r.name for r in ir_variant.routes], "length": [r.length for r in ir_variant.routes],
                         "claimed_in": heat})
    parts["rare-routes"] = rare[rare["claimed_in"] < RARE].sort_values("claimed_in").to_html(
        index=False, float_format="%.3f") or "<p>none</p>"
    never = tickets[(tickets["completed"] == 0)]
    parts["rare-tickets"] = never.to_html(index=False) if len(never) \
        else "<p>Every ticket was completed at least once.</p>"

    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    axes[0].hist(game_table["turns"], bins=20, color="#f28e2b")
    axes[0].set_xlabel("turns")
    axes[1].hist(game_table["decisions"], bins=20, color="#e15759")
    axes[1].set_xlabel("decisions")
    parts["length"] = _png(fig) + game_table[["turns", "decisions"]].describe().to_html(float_format="%.1f")
    parts["endings"] = game_table["ended_by"].value_counts().rename_axis("ended by").reset_index().to_html(index=False)

    # the breakdown items each mechanic adds (ScoreItem.owner), by mechanic; the core's are
    # in the sections above
    owner = {item.name: item.owner for item in variant.assembly.score_items}
    items = sorted((c for c in seat_table.columns if c.startswith("item:") and owner.get(c[5:], "core") != "core"),
                   key=lambda c: (owner[c[5:]], list(owner).index(c[5:])))
    actions = [c for c in seat_table.columns if c.startswith("action:")]
    per_agent = seat_table.groupby("agent")[items + actions].mean()
    per_agent.columns = [f"{c[5:]} ({owner[c[5:]]})" if c.startswith("item:") else f"{c[7:]} (mean per game)"
                         for c in per_agent.columns]
    parts["mechanics"] = ("<p>Each mechanic's score items and the actions taken, per agent and game.</p>"
                          + per_agent.to_html(float_format="%.2f"))

    body = [f'<section id="{sid}"><h2>{html.escape(heading)}</h2>{parts[sid]}</section>' for sid, heading in SECTIONS]
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"railspec balance: {html.escape(ir_variant.name)}</title><style>"
            "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
            "table{border-collapse:collapse;font-size:12px;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
            "section{margin-bottom:2em}svg{max-width:100%;height:auto}</style></head><body>"
            f"<h1>railspec balance report: {html.escape(ir_variant.name)}</h1>\n" + "\n".join(body)
            + "</body></html>\n")


def write_report(variant, records: list[dict], out: Path, plan=None, seconds: float | None = None) -> list[Path]:
    """Write report.html, games.csv and seats.csv into ``out`` (created if missing);
    returns the paths written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    game_table, seat_table = tables(records)
    written = [out / "report.html", out / "games.csv", out / "seats.csv"]
    written[0].write_text(build_html(variant, records, plan, seconds), encoding="utf-8")
    game_table.to_csv(written[1], index=False)
    seat_table.to_csv(written[2], index=False)
    return written
