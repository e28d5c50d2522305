"""Re-take the README's pictures from the commands the README shows (`make screenshots`).

    python docs/img/retake.py [--browser chromium]

1. ``railspec balance usa --players 4 --games 2000 --seed 1``: its report's first screen
   is balance-report.png, and the heat map of the routes claimed is usa-claims-heatmap.png;
2. ``railspec simulate europe --players 3 --games 1 --agents route-focus,one-step,destination-hungry
   --save-state``, then ``railspec render europe --state``: europe-game.png, a played game
   with its owners, stations and legend.

Each page is drawn by a headless Chromium (``--browser``; Debian: ``apt-get install
chromium``). Needs the balance extra.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def railspec(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "railspec", *args], check=True)


def shoot(browser: str, page: Path, png: Path, width: int, height: int) -> None:
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={png}", page.resolve().as_uri()],
                   check=True, capture_output=True, timeout=300)
    print(f"wrote {png}")


def _svg_page(svg: Path, html: Path, width: int) -> tuple[Path, int]:
    """A page showing the SVG ``width`` pixels wide, and the page's height."""
    box = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', svg.read_text(encoding="utf-8"))
    height = round(width * float(box.group(4)) / float(box.group(3)))
    html.write_text(f'<!DOCTYPE html><html><body style="margin:0;background:#fff">'
                    f'<img src="{svg.name}" style="width:{width}px;display:block"></body></html>', encoding="utf-8")
    return html, height


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", default=shutil.which("chromium") or shutil.which("chromium-browser")
                        or "google-chrome")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        report = tmp / "report"
        railspec("balance", "usa", "--players", "4", "--games", "2000", "--seed", "1", "--quiet",
                 "--out", str(report))
        shoot(args.browser, report / "report.html", HERE / "balance-report.png", 1150, 1500)
        page = (report / "report.html").read_text(encoding="utf-8")
        start = page.index("<svg", page.index('<section id="heatmap">'))
        heat = tmp / "heat.svg"
        heat.write_text(page[start:page.index("</svg>", start) + 6], encoding="utf-8")
        page, height = _svg_page(heat, tmp / "heat.html", 1100)
        shoot(args.browser, page, HERE / "usa-claims-heatmap.png", 1100, height)
        state, game = tmp / "game.json", tmp / "game.svg"
        railspec("simulate", "europe", "--players", "3", "--games", "1", "--workers", "1",
                 "--agents", "route-focus,one-step,destination-hungry", "--seed", "4", "--save-state", str(state))
        railspec("render", "europe", "--state", str(state), "--out", str(game))
        page, height = _svg_page(game, tmp / "game.html", 1100)
        shoot(args.browser, page, HERE / "europe-game.png", 1100, height)
    return 0


if __name__ == "__main__":
    sys.exit(main())
