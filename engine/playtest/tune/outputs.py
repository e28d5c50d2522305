"""What a tuning run leaves in its folder: tuned.rail, tune.json and report.html (the
balance report of the input and of the tuned spec, side by side)."""
from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import report
from ..tally import CampaignTally

#: The files a run writes, in the order it writes them.
FILES = ("tuned.rail", "tune.json", "report.html")


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a stopped run leaves no half file)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """tune.json, indented, its keys in the order given."""
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def side_by_side(title: str, intro: str, sides: Sequence[tuple[str, Any, CampaignTally, Any]]) -> str:
    """report.html: ``intro`` (HTML), then each section of the balance report with one
    column per side; a side is (its heading, its variant, its tally, its campaign plan)."""
    columns = [(label, report.report_sections(variant, tally, plan)) for label, variant, tally, plan in sides]
    heads = "".join(f"<th>{html.escape(label)}</th>" for label, _ in columns)
    body = [intro]
    for sid, heading in report.SECTIONS:
        cells = "".join(f'<td class="side">{sections[sid]}</td>' for _, sections in columns)
        body.append(f'<section id="{sid}"><h2>{html.escape(heading)}</h2>'
                    f'<table class="sides"><tr>{heads}</tr><tr>{cells}</tr></table></section>')
    style = (".sides{width:100%;table-layout:fixed}.sides>tbody>tr>td.side{vertical-align:top;border:none}"
             ".side img{max-width:100%}")
    return report.page(title, title, "\n".join(body), width="1600px", style=style)


def intro_html(summary: dict[str, Any]) -> str:
    """The top of report.html: the target, the distances on fresh seeds and the changes kept."""
    final = summary.get("final") or {}
    lines = [f"<p>Target: <b>{html.escape(summary['target']['name'])}</b>; agents "
             f"{html.escape(', '.join(summary['target']['agents']))}; {summary['players']} players; seed "
             f"{summary['seed']}; {summary['games']['played']:,} games played of {summary['games']['budget']:,}.</p>"]
    if final:
        gain = final["gain"]
        lines.append(f"<p>On {final['games']:,} fresh games per side (seeds the search never used): distance "
                     f"<b>{final['before']['distance']:.3f}</b> before, <b>{final['after']['distance']:.3f}</b> "
                     f"after (gain {gain['estimate']:.3f}, 95% interval {gain['interval'][0]:.3f} to "
                     f"{gain['interval'][1]:.3f}).</p>")
        rows = "".join(f"<tr><td>{html.escape(style)}</td><td>{fraction:.3f}</td>"
                       f"<td>{final['after']['styles'][style]:.3f}</td></tr>"
                       for style, fraction in final["before"]["styles"].items())
        lines.append(f"<table><tr><th>style</th><th>fraction of wins before</th><th>after</th></tr>{rows}</table>")
    changes = "".join(f"<li>{html.escape(c['change'])}: gain {c['gain']['estimate']:.3f} "
                      f"({c['gain']['interval'][0]:.3f} to {c['gain']['interval'][1]:.3f})</li>"
                      for c in summary["accepted"])
    lines.append(f"<h2>Changes kept</h2><ol>{changes}</ol>" if changes else "<p>No change was kept.</p>")
    return "\n".join(lines)
