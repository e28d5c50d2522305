"""``railspec fmt FILE… [--check] [--diff]`` (engine/tools/cli_fmt.py): files rewritten in
place atomically, an unparsable file reported with its position and left alone, --check
and --diff writing nothing, '-' for standard input and output, reads bounded as every
spec's; and the stock specs are in the canonical layout (what `make test` checks)."""
from __future__ import annotations

import io
import os
import sys

from railspec.compiler import stock_names, stock_path
from railspec.compiler.base import files
from railspec.tools import cli, cli_fmt

UNTIDY = 'variant "V"\nplayers 2..5;  trains 45   # each\ncard red  12\ncard orange 3\n'
TIDY = 'variant "V"\nplayers 2..5\ntrains 45 # each\ncard red    12\ncard orange 3\n'
BROKEN = 'variant "V"\nroute Alpha-Beta 2 red\n'


def run(capsys, *argv):
    status = cli.main(["fmt", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_files_are_rewritten_in_place_and_nothing_else_is_left(tmp_path, capsys):
    a, b = tmp_path / "a.rail", tmp_path / "b.rail"
    a.write_text(UNTIDY, encoding="utf-8")
    b.write_text(TIDY, encoding="utf-8")
    os.chmod(a, 0o640)
    status, out, err = run(capsys, str(a), str(b))
    assert (status, out) == (0, "")
    assert err == f"reformatted {a}\n"
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8") == TIDY
    assert oct(os.stat(a).st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.rail", "b.rail"]  # no temporary file left


def test_a_symbolic_link_is_kept_and_its_target_formatted(tmp_path, capsys):
    target, link = tmp_path / "spec.rail", tmp_path / "link.rail"
    target.write_text(UNTIDY, encoding="utf-8")
    link.symlink_to(target)
    assert run(capsys, str(link))[0] == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8") == TIDY


def test_an_unparsable_file_is_reported_and_left_alone_and_the_others_formatted(tmp_path, capsys):
    bad, good = tmp_path / "bad.rail", tmp_path / "good.rail"
    bad.write_text(BROKEN, encoding="utf-8")
    good.write_text(UNTIDY, encoding="utf-8")
    status, out, err = run(capsys, str(bad), str(good))
    assert status == 2 and out == ""
    assert err.startswith(f"{bad}:2:7: 'Alpha-Beta' is read as one name")
    assert "    route Alpha-Beta 2 red\n          ^~~~~~~~~~\n" in err
    assert bad.read_text(encoding="utf-8") == BROKEN
    assert good.read_text(encoding="utf-8") == TIDY


def test_check_lists_the_files_that_would_change_and_writes_nothing(tmp_path, capsys):
    a, b = tmp_path / "a.rail", tmp_path / "b.rail"
    a.write_text(UNTIDY, encoding="utf-8")
    b.write_text(TIDY, encoding="utf-8")
    assert run(capsys, "--check", str(a), str(b)) == (1, f"{a}\n", "")
    assert a.read_text(encoding="utf-8") == UNTIDY
    assert run(capsys, "--check", str(b)) == (0, "", "")


def test_diff_shows_the_change_as_a_unified_diff(tmp_path, capsys):
    a = tmp_path / "a.rail"
    a.write_text(UNTIDY.rstrip("\n"), encoding="utf-8")
    status, out, _ = run(capsys, "--diff", str(a))
    assert status == 1
    assert out.startswith(f"{a}\n--- {a} (as written)\n+++ {a} (formatted)\n@@ ")
    assert "-players 2..5;  trains 45   # each\n" in out and "+players 2..5\n+trains 45 # each\n" in out
    assert "-card orange 3\n\\ No newline at end of file\n" in out and out.endswith("+card orange 3\n")
    assert a.read_text(encoding="utf-8") == UNTIDY.rstrip("\n")


def stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_a_dash_formats_standard_input_to_standard_output(monkeypatch, capsys):
    stdin(monkeypatch, UNTIDY.encode("utf-8"))
    assert run(capsys, "-") == (0, TIDY, "")
    stdin(monkeypatch, UNTIDY.encode("utf-8"))
    assert run(capsys, "--check", "-") == (1, "-\n", "")
    stdin(monkeypatch, BROKEN.encode("utf-8"))
    status, out, err = run(capsys, "-")
    assert (status, out) == (2, "") and err.startswith("<stdin>:2:7: ")
    stdin(monkeypatch, b"\xff\xfe")
    assert run(capsys, "-") == (2, "", "railspec: <stdin>: not UTF-8 text (invalid start byte at byte 0)\n")
    assert run(capsys, "-", "-")[0] == 2


def test_reads_are_bounded_as_every_spec_s(tmp_path, monkeypatch, capsys):
    big = tmp_path / "big.rail"
    big.write_text("# x\n" * (files.MAX_BYTES["spec file"] // 4 + 1), encoding="utf-8")
    status, out, err = run(capsys, str(big))
    assert (status, out) == (2, "") and "larger than the 4 MB a spec file may be" in err
    status, _, err = run(capsys, str(tmp_path))
    assert status == 2 and err == f"railspec: {tmp_path}: not a regular file (a folder)\n"
    fifo = tmp_path / "pipe.rail"
    os.mkfifo(fifo)
    status, _, err = run(capsys, str(fifo))
    assert status == 2 and err == f"railspec: {fifo}: not a regular file (a pipe)\n"
    status, _, err = run(capsys, str(tmp_path / "none.rail"))
    assert status == 2 and "no such spec file" in err
    stdin(monkeypatch, b"#" * (files.MAX_BYTES["spec file"] + 1))
    status, _, err = run(capsys, "-")
    assert status == 2 and "larger than the 4 MB" in err


def test_a_file_that_cannot_be_written_is_reported_and_left_whole(tmp_path, monkeypatch, capsys):
    spec = tmp_path / "a.rail"
    spec.write_text(UNTIDY, encoding="utf-8")

    def refuse(source, target):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(cli_fmt.os, "replace", refuse)
    status, _, err = run(capsys, str(spec))
    assert (status, err) == (2, f"railspec: cannot write {spec}: Permission denied\n")
    assert spec.read_text(encoding="utf-8") == UNTIDY
    assert [p.name for p in tmp_path.iterdir()] == ["a.rail"]  # the temporary file is removed


def test_the_stock_specs_are_in_the_canonical_layout(capsys):
    # `railspec fmt --check spec/*.rail`, which `make test` runs through this test
    assert run(capsys, "--check", *(str(stock_path(name)) for name in stock_names())) == (0, "", "")
