"""The start-up's history: CPU seconds of `import railspec` and of `railspec.load("usa")` (its
IR read from the cache) in fresh processes, for commits along main's first-parent history.

    .venv/bin/python bench/startup_history.py [--since COMMIT] [--every N] [--repeat N]

Each commit's sources are laid out as installed (engine/ as railspec, compiler/ as
railspec.compiler, ...) in a temporary folder, with bytecode written by a first untimed
run, and timed with ``python -S``: site's own start-up, the editable install's finder and
the distributions installed beside railspec (an outside mechanic written against today's
API) stay out of the figure; lark, Jinja2 and MarkupSafe are given from this interpreter's
installation. The compiled face (engine_face) is taken from this checkout: an import needs
it, no figure here runs it. Each row is the best of ``--repeat`` runs; the machine is
shared, so compare rows of one run only."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from importlib import util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The repository's folders and where each sits in the installed package (pyproject.toml).
LAYOUT = {"compiler": "compiler", "mechanics": "mechanics", "spec": "spec", "generated": "generated"}
SNIPPET = ("import sys, time; t0 = time.process_time(); import railspec; t1 = time.process_time(); "
           "railspec.load('usa'); t2 = time.process_time(); print(t1 - t0, t2 - t1, len(sys.modules))")


def third_party(folder: Path) -> None:
    """Link the libraries railspec imports (from this interpreter's installation) into ``folder``."""
    for name in ("lark", "jinja2", "markupsafe", "tqdm"):
        spec = util.find_spec(name)
        if spec is not None and spec.origin is not None:
            os.symlink(Path(spec.origin).parent, folder / name)


def lay_out(commit: str, folder: Path) -> Path | None:
    """The sources of ``commit`` laid out as installed under ``folder``; None before engine/ existed."""
    source = folder / "src"
    source.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine", *LAYOUT], capture_output=True)
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    for repo_folder, name in LAYOUT.items():
        if (source / repo_folder).is_dir():
            os.symlink(source / repo_folder, source / "engine" / name)
    if (source / "compiler" / "engine_face.pyx").exists():
        for built in (ROOT / "compiler").glob("engine_face.*.so"):
            shutil.copy(built, source / "compiler")
    packages = folder / "packages"
    packages.mkdir()
    os.symlink(source / "engine", packages / "railspec")
    third_party(packages)
    return packages


def timed(packages: Path, cache: Path, repeat: int) -> tuple[float, float, int] | str:
    """The best (import, load) CPU seconds of ``repeat`` fresh processes and the modules
    they hold after; or the last line of the error when the commit's load fails."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(packages), RAILSPEC_CACHE=str(cache))
    command = [sys.executable, "-S", "-c", SNIPPET]
    runs = []
    for _ in range(repeat + 1):  # the first writes the bytecode and the IR cache
        done = subprocess.run(command, env=env, cwd=cache.parent, capture_output=True, text=True)
        if done.returncode != 0:
            return (done.stderr.strip().splitlines() or ["?"])[-1]
        load_import, load_variant, modules = done.stdout.split()
        runs.append((float(load_import), float(load_variant), int(modules)))
    return min(runs[1:], key=lambda run: run[0] + run[1])


def main() -> int:
    """Print one row per commit, newest first: total, import and load CPU seconds, modules."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", help="the oldest commit to time (default: all of main's first-parent history)")
    parser.add_argument("--every", type=int, default=1, help="time one commit in N (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per commit, best taken (default 5)")
    parser.add_argument("--branch", default="main")
    args = parser.parse_args()
    lines = subprocess.run(["git", "-C", str(ROOT), "log", "--first-parent", "--date=short", "--format=%h %ad %s",
                            args.branch], capture_output=True, text=True, check=True).stdout.splitlines()
    if args.since:
        lines = lines[:next(i for i, line in enumerate(lines) if line.startswith(args.since[:7])) + 1]
    print(f"{'total':>6} {'import':>6} {'load':>6} {'modules':>7}  commit")
    for line in lines[::args.every]:
        with tempfile.TemporaryDirectory() as tmp:
            packages = lay_out(line.split()[0], Path(tmp))
            result = "no engine/ folder" if packages is None else timed(packages, Path(tmp) / "cache", args.repeat)
        if isinstance(result, str):
            print(f"{'-':>6} {'-':>6} {'-':>6} {'-':>7}  {line[:90]}  ({result[:80]})", flush=True)
        else:
            load_import, load_variant, modules = result
            print(f"{load_import + load_variant:6.3f} {load_import:6.3f} {load_variant:6.3f} {modules:7}  {line[:90]}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
