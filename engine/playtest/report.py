"""The balance report: a campaign's records as tables, plots and one HTML file.

:class:`ReportWriter` takes a campaign's records as they are played
(a :class:`railspec.playtest.balance.Campaign`): it writes each as rows of two CSV files (a row
per game, a row per player and game) and adds it to a :class:`~railspec.playtest.tally.CampaignTally`,
so a campaign of any length is reported in the same memory. At the end it draws
``report.html``, a single file with every plot embedded (PNG as data URIs, the map as
inline SVG) so it can be mailed or archived as it is. :func:`write_report` does all of it
for records at hand.

Needs the ``balance`` extra (``pip install 'railspec[balance]'``: pandas and matplotlib).
Win rates count a shared win as a fraction (two tied winners get half each); their 95%
intervals are Wilson score intervals.
"""
from __future__ import annotations

import base64
import csv
import html
import io
import math
import os
from pathlib import Path

from ..compiler.base.errors import RailspecError
from .render import render_svg
from .tally import CampaignTally, describe, parallel_group, quantiles

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


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}"/>'



def _rates_table(rates: dict, by: str):
    import pandas as pd
    rows = []
    for key, r in sorted(rates.items()):
        low, high = wilson(r.wins, r.seats)
        rows.append({by: key, "games": r.seats, "win_rate": r.win_rate, "ci_low": low, "ci_high": high,
                     "mean_score": r.mean_score, "ticket_completion": r.ticket_completion})
    return pd.DataFrame(rows)


def _bar_with_ci(rates, by: str, title: str) -> str:
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    labels = [str(x) for x in rates[by]]
    rate = rates["win_rate"].to_numpy()
    err = [rate - rates["ci_low"].to_numpy(), rates["ci_high"].to_numpy() - rate]
    ax.bar(labels, rate, yerr=err, capsize=4, color="#4c78a8")
    ax.set_xlabel(by)
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.set_ylim(0, 1)
    return _png(fig)


def _score_boxes(tally: CampaignTally) -> str:
    """A box per agent from its counted scores: the box spans the quartiles, the line is
    the median, the whiskers reach the lowest and the highest score."""
    import matplotlib.pyplot as plt
    stats = []
    for agent, counts in sorted(tally.scores.items()):
        q1, med, q3 = quantiles(counts)
        stats.append({"label": agent, "q1": q1, "med": med, "q3": q3, "whislo": min(counts), "whishi": max(counts),
                      "fliers": []})
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    if stats:
        ax.bxp(stats, showfliers=False)
    ax.set_xlabel("agent")
    ax.set_ylabel("final score")
    ax.tick_params(axis="x", labelsize=8)
    return _png(fig)


def _ticket_table(tally: CampaignTally):
    import pandas as pd
    tickets = tally.variant.ir.tickets
    return pd.DataFrame({"ticket": [t.name for t in tickets], "points": [t.points for t in tickets],
                         "held": tally.ticket_held, "completed": tally.ticket_done,
                         "rate": [d / h if h else None for d, h in zip(tally.ticket_done, tally.ticket_held)]})


def _rare_connections(tally: CampaignTally):
    """The connections (a route, or the tracks of a double or triple route together)
    claimed in fewer than RARE of the games. Tracks count together because at some player
    counts the rules let only one track of a double be claimed: the other is then never
    claimed by the rules, not by the players' choice."""
    import pandas as pd
    ir_variant = tally.variant.ir
    games = max(1, tally.games)
    rows, seen = [], set()
    for r in ir_variant.routes:
        group = parallel_group(r)
        if group in seen:
            continue
        seen.add(group)
        claimed_in = tally.group_claims.get(group, 0) / games
        if claimed_in < RARE:
            a, b = ir_variant.cities[group[0]].name, ir_variant.cities[group[1]].name
            rows.append({"connection": f"{a}–{b}", "length": r.length, "tracks": group[2], "claimed_in": claimed_in})
    table = pd.DataFrame(rows, columns=["connection", "length", "tracks", "claimed_in"])
    return table.sort_values(["claimed_in", "connection"])


def _mechanics_table(tally: CampaignTally):
    """Each mechanic's score items and every action kind, a row each, an agent per column
    (agents are few, items many: the table stays as narrow as the page)."""
    import pandas as pd
    variant = tally.variant
    agents = sorted(tally.by_agent)
    owners = tally.kind_owners()
    rows, index = [], []
    for item in variant.assembly.score_items:
        if item.owner == "core":
            continue  # the core's items are in the sections above
        index.append(f"{item.name} ({item.owner})")
        cells = []
        for agent in agents:
            seats = tally.by_agent[agent].seats
            got = tally.items.get(agent, {}).get(item.name)
            if got is None:
                cells.append("")
            elif item.measure == "amount":
                cells.append(f"{got.total / max(1, got.seats_with):.2f}")
            elif item.measure == "route":
                cells.append(f"in {got.seats_with / seats:.0%} of games")
            else:  # place
                cells.append(f"{got.total / got.seats_with:.2f} mean place, placed in {got.seats_with / seats:.0%}"
                             if got.seats_with else "never placed")
        rows.append(cells)
    in_catalogue = [k for k in variant.assembly.kinds if any(a.kind == k for a in variant.ir.actions)]
    for kind in in_catalogue:
        index.append(f"{kind} ({owners.get(kind, 'core')}), per game")
        rows.append([f"{tally.actions.get(agent, {}).get(kind, 0) / tally.by_agent[agent].seats:.2f}"
                     for agent in agents])
    return pd.DataFrame(rows, index=index, columns=agents)


def _unused_note(tally: CampaignTally) -> str:
    lines = []
    for kind, owner, never in tally.unused_kinds():
        if len(never) == len(tally.by_agent):
            lines.append(f"<li><b>No agent ever took</b> {html.escape(kind)} ({html.escape(owner)}): this campaign "
                         f"says nothing of how that part of the rules plays.</li>")
        else:
            lines.append(f"<li>{html.escape(kind)} ({html.escape(owner)}) was never taken by "
                         f"{html.escape(', '.join(never))}.</li>")
    return f"<ul class=\"unused\">{''.join(lines)}</ul>" if lines else \
        "<p>Every agent took every kind of action the mechanics add.</p>"


def _histograms(tally: CampaignTally) -> str:
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    for ax, counts, what, colour in ((axes[0], tally.turns, "turns", "#f28e2b"),
                                     (axes[1], tally.decisions, "decisions", "#e15759")):
        values = sorted(counts)
        ax.hist(values, weights=[counts[v] for v in values], bins=20, color=colour)
        ax.set_xlabel(f"{what} in a game")
        ax.set_ylabel("games")
    fig.tight_layout()
    return _png(fig)


def _describe_table(tally: CampaignTally):
    import pandas as pd
    return pd.DataFrame({"turns": describe(tally.turns), "decisions": describe(tally.decisions)})


def build_html(variant, tally: CampaignTally, plan=None, seconds: float | None = None) -> str:
    """The report of a tallied campaign as one self-contained HTML page."""
    parts = report_sections(variant, tally, plan, seconds)
    body = [f'<section id="{sid}"><h2>{html.escape(heading)}</h2>{parts[sid]}</section>' for sid, heading in SECTIONS]
    return page(f"railspec balance: {variant.ir.name}", f"railspec balance report: {variant.ir.name}",
                "\n".join(body))


def report_sections(variant, tally: CampaignTally, plan=None, seconds: float | None = None) -> dict[str, str]:
    """The body of each section of the report (by the ids of :data:`SECTIONS`), as HTML."""
    _need()
    ir_variant = variant.ir
    parts: dict[str, str] = {}
    agents = sorted(tally.by_agent)
    speed = f"; {tally.games / seconds:,.1f} games/s over {seconds:.1f} s" if seconds else ""
    parts["summary"] = (f"<p>{html.escape(ir_variant.name)} ({html.escape(ir_variant.key)}, spec "
                        f"{ir_variant.spec_hash}): {tally.games} games of {tally.players} players; agents "
                        f"{html.escape(', '.join(agents))}"
                        + (f"; campaign seed {plan.seed}; {html.escape(plan.engine)} engine" if plan is not None
                           else "") + f"{speed}.</p>")

    seat_rates = _rates_table(tally.by_seat, "seat")
    parts["seats"] = _bar_with_ci(seat_rates, "seat", "win rate by seat (95% CI)") + seat_rates.to_html(
        index=False, float_format="%.3f")
    agent_rates = _rates_table(tally.by_agent, "agent")
    parts["agents"] = _bar_with_ci(agent_rates, "agent", "win rate by agent (95% CI)") + agent_rates.to_html(
        index=False, float_format="%.3f")
    parts["scores"] = ("<p>Boxes span the middle half of each agent's scores, the line is the median, the "
                       "whiskers reach the lowest and highest score.</p>" + _score_boxes(tally))

    tickets = _ticket_table(tally)
    shown = tickets[tickets["held"] > 0].sort_values("rate")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, max(2.5, 0.16 * len(shown))))
    ax.barh(shown["ticket"], shown["rate"], color="#59a14f")
    ax.set_xlabel("completed when held")
    ax.set_ylabel("ticket")
    ax.tick_params(axis="y", labelsize=7)
    never_dealt = tickets[tickets["held"] == 0]
    parts["tickets"] = (_png(fig) + shown.to_html(index=False, float_format="%.3f")
                        + (f"<p>Never dealt in this campaign ({len(never_dealt)}): "
                           f"{html.escape(', '.join(never_dealt['ticket']))}.</p>" if len(never_dealt) else ""))

    games = max(1, tally.games)
    heat = [c / games for c in tally.route_claims]
    parts["heatmap"] = ("<p>Share of games in which each route was claimed (the scale is beside the map).</p>"
                        + render_svg(ir_variant, heat=heat, title=f"{ir_variant.name}: routes claimed"))
    rare = _rare_connections(tally)
    parts["rare-routes"] = ("<p>Connections claimed in fewer than "
                            f"{RARE:.0%} of the games; the tracks of a double route count together.</p>"
                            + (rare.to_html(index=False, float_format="%.3f") if len(rare) else "<p>none</p>"))
    never = shown[shown["completed"] == 0]
    parts["rare-tickets"] = ("<p>Tickets held in some game but never completed.</p>"
                             + never[["ticket", "points", "held"]].to_html(index=False)) if len(never) \
        else "<p>Every ticket held was completed at least once.</p>"

    parts["length"] = _histograms(tally) + _describe_table(tally).to_html(float_format="%.1f")
    import pandas as pd
    endings = pd.DataFrame({"ended by": list(tally.endings), "games": list(tally.endings.values())})
    parts["endings"] = endings.sort_values("games", ascending=False).to_html(index=False)
    parts["mechanics"] = ("<p>Each mechanic's score items (an amount: its mean per game; a route: how often "
                          "there is one; a place: the mean place of those placed) and the actions taken, per "
                          "agent.</p>" + _unused_note(tally)
                          + '<div class="wide">' + _mechanics_table(tally).to_html() + "</div>")
    return parts


def page(title: str, heading: str, body: str, width: str = "1100px", style: str = "") -> str:
    """A report page: ``body`` (HTML) under ``heading``, in the report's style."""
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{html.escape(title)}</title><style>"
            f"body{{font-family:sans-serif;max-width:{width};margin:2em auto;color:#222}}"
            "table{border-collapse:collapse;font-size:12px;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
            ".wide{max-width:100%;overflow-x:auto}"
            "section{margin-bottom:2em}svg{max-width:100%;height:auto}" + style + "</style></head><body>"
            f"<h1>{html.escape(heading)}</h1>\n" + body + "</body></html>\n")


#: The report folder's files.
REPORT_FILES = ("report.html", "games.csv", "seats.csv")
#: What a file being written is called until the campaign ends.
PARTIAL = ".partial"


class ReportWriter:
    """A campaign's report, written as its records arrive: ``games.csv`` and ``seats.csv``
    a row at a time (as ``NAME.partial`` until :meth:`finish`), every record added to a
    :class:`CampaignTally` and dropped, so memory does not grow with the number of games.
    :meth:`finish` draws ``report.html`` and gives the files their names; :meth:`discard`
    (also what leaving a ``with`` block by an exception does) deletes what was written,
    and the folder if this writer made it."""

    def __init__(self, variant, out: Path, plan=None):
        _need()
        self.variant, self.out, self.plan = variant, Path(out), plan
        self.tally = CampaignTally(variant)
        self.made_folder = not self.out.exists()
        self.out.mkdir(parents=True, exist_ok=True)
        kinds = [k for k in variant.assembly.kinds if any(a.kind == k for a in variant.ir.actions)]
        self.item_names = list(variant.assembly.breakdown_keys)
        self.kinds = kinds
        self._files = [open(self._partial(name), "w", newline="", encoding="utf-8") for name in REPORT_FILES[1:]]
        self._games = csv.writer(self._files[0])
        self._seats = csv.writer(self._files[1])
        self._games.writerow(["game", "seed", "players", "decisions", "turns", "ended_by", "winners", "agents"])
        self._seats.writerow(["game", "seat", "agent", "win_share", "score", "tickets_held", "tickets_done"]
                             + [f"item:{k}" for k in self.item_names] + [f"action:{k}" for k in kinds])

    def _partial(self, name: str) -> Path:
        return self.out / (name + PARTIAL)

    def add(self, record: dict) -> None:
        """Write one game's rows and add it to the tally."""
        self.tally.add(record)
        winners = [s["seat"] for s in record["seats"] if s["winner"]]
        self._games.writerow([record["game"], record["seed"], record["players"], record["decisions"],
                              record["turns"], record["ended_by"], " ".join(map(str, winners)),
                              " ".join(s["agent"] for s in record["seats"])])
        for s in record["seats"]:
            self._seats.writerow([record["game"], s["seat"], s["agent"],
                                  1.0 / len(winners) if s["winner"] else 0.0, s["score"], len(s["tickets"]),
                                  len(s["completed"])]
                                 + [s["breakdown"].get(k, 0) for k in self.item_names]
                                 + [s["actions"].get(k, 0) for k in self.kinds])

    def finish(self, seconds: float | None = None) -> list[Path]:
        """Draw report.html and name the files as they are meant to be; returns their paths."""
        for f in self._files:
            f.close()
        page = build_html(self.variant, self.tally, self.plan, seconds)
        written = [self.out / name for name in REPORT_FILES]
        self._partial(REPORT_FILES[0]).write_text(page, encoding="utf-8")
        for path in written:
            os.replace(self._partial(path.name), path)
        return written

    def discard(self) -> None:
        """Delete every file this writer began (and its folder, if it made it and it is empty)."""
        for f in self._files:
            f.close()
        for name in REPORT_FILES:
            self._partial(name).unlink(missing_ok=True)
        if self.made_folder:
            try:
                self.out.rmdir()
            except OSError:  # something else was put there meanwhile: leave it
                pass

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is not None:
            self.discard()
        return False


def write_report(variant, records, out: Path, plan=None, seconds: float | None = None) -> list[Path]:
    """Write report.html, games.csv and seats.csv into ``out`` (created if missing) from
    ``records`` (any iterable, read once); returns the paths written."""
    with ReportWriter(variant, out, plan) as writer:
        for record in records:
            writer.add(record)
        return writer.finish(seconds)
