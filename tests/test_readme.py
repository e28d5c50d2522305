"""The README's Python example runs as written (docs that drift are bugs)."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})  # noqa: S102 - running our own README
    out = capsys.readouterr().out
    assert "claim Atlanta-New Orleans/1 orange 4orange" in out
