"""Every Python example in README.md and docs/ runs as written.

The fenced ```python blocks of one document run in order in one namespace, as a reader
runs them, in a fresh interpreter per document. A block preceded by the comment
``<!-- example: fragment … -->`` shows a shape rather than a program (a method's
signature, a class in outline): it is compiled, not run. A block whose import of an
optional extra's module fails is skipped with the module named (make test installs every
extra, so none is skipped there).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FRAGMENT = re.compile(r"<!--\s*example:\s*fragment\b")

#: Runs the blocks given as JSON on stdin in one namespace; prints one JSON line per block.
_DRIVER = r"""
import json, sys, traceback
blocks = json.load(sys.stdin)
namespace = {"__name__": "__doc_example__"}
for block in blocks:
    where = f"{block['path']}:{block['line']}"
    try:
        code = compile(block["source"], where, "exec")
        if not block["fragment"]:
            exec(code, namespace)
        print(json.dumps({"line": block["line"], "outcome": "ok"}), flush=True)
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] == "railspec":
            raise
        print(json.dumps({"line": block["line"], "outcome": "skipped", "why": f"needs {err.name}"}), flush=True)
        break
    except BaseException:
        print(json.dumps({"line": block["line"], "outcome": "failed", "why": traceback.format_exc()}), flush=True)
        break
"""


def python_blocks(path: Path) -> list[dict]:
    """The ```python blocks of a Markdown file: their first line's number, their source,
    and whether a fragment marker precedes them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
            end = next(k for k in range(i + 1, len(lines)) if lines[k].strip() == "```")
            blocks.append({"path": str(path.relative_to(ROOT)), "line": i + 2,
                           "source": "\n".join(lines[i + 1:end]) + "\n", "fragment": bool(FRAGMENT.search(before))})
            i = end
        i += 1
    return blocks


WITH_EXAMPLES = [d for d in DOCUMENTS if python_blocks(d)]


def test_the_documents_hold_examples():
    assert {d.name for d in WITH_EXAMPLES} >= {"README.md", "agents.md", "rl.md", "architecture.md"}


@pytest.mark.parametrize("document", WITH_EXAMPLES, ids=lambda d: d.name)
def test_every_python_example_runs(document, tmp_path):
    blocks = python_blocks(document)
    done = subprocess.run([sys.executable, "-c", _DRIVER], input=json.dumps(blocks), capture_output=True,
                          text=True, timeout=600, cwd=tmp_path, check=False)
    outcomes = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0, done.stderr[-3000:]
    failed = [o for o in outcomes if o["outcome"] == "failed"]
    assert not failed, f"{document.name}:{failed[0]['line']}: the example fails:\n{failed[0]['why']}"
    skipped = [o for o in outcomes if o["outcome"] == "skipped"]
    if skipped:
        pytest.skip(f"{document.name}:{skipped[0]['line']} {skipped[0]['why']}")
    assert len(outcomes) == len(blocks)
