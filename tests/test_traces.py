"""Traces (docs/formats.md, "Trace"): a malformed file is a one-line TraceError naming the
line (issue 10, point 5); any name round-trips through trace and verify; a trace is tied
to its spec by hash, not by file name (point 6)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import railspec
from railspec.tools import trace
from railspec.tools.cli import main
from railspec.tools.trace import TraceError

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "usa-2p-seed1.jsonl"


@pytest.fixture(scope="module")
def golden_text():
    return GOLDEN.read_text(encoding="utf-8")


def edit(text: str, index: int, change) -> str:
    """The trace text with line ``index`` (0-based) replaced by ``change(record)``'s JSON."""
    lines = text.split("\n")
    record = json.loads(lines[index])
    new = change(record)
    lines[index] = new if isinstance(new, str) else json.dumps(new)
    return "\n".join(lines)


def without(key):
    return lambda r: {k: v for k, v in r.items() if k != key}


def setting(key, value):
    return lambda r: {**r, key: value}


BAD = [
    ("empty", lambda t: "", "no header"),
    ("blank lines only", lambda t: "\n\n  \n", "no header"),
    ("no header", lambda t: "\n".join(t.split("\n")[1:]), "line 1"),
    ("header without players", lambda t: edit(t, 0, without("players")), "line 1"),
    ("header without seed", lambda t: edit(t, 0, without("seed")), "line 1"),
    ("header without variant", lambda t: edit(t, 0, without("variant")), "line 1"),
    ("header without spec_hash", lambda t: edit(t, 0, without("spec_hash")), "line 1"),
    ("other format", lambda t: edit(t, 0, setting("format", "railspec-trace/9")), "line 1"),
    ("seed 7.5", lambda t: edit(t, 0, setting("seed", 7.5)), "line 1"),
    ("seed 7.0", lambda t: edit(t, 0, setting("seed", 7.0)), "line 1"),
    ("seed '7'", lambda t: edit(t, 0, setting("seed", "7")), "line 1"),
    ("seed true", lambda t: edit(t, 0, setting("seed", True)), "line 1"),
    ("seed -1", lambda t: edit(t, 0, setting("seed", -1)), "line 1"),
    ("seed 2^64", lambda t: edit(t, 0, setting("seed", 2**64)), "line 1"),
    ("seed of 5000 digits", lambda t: edit(t, 0, lambda r: json.dumps(r).replace('"seed":', '"seed":' + "9" * 5000
                                                                                   + ', "x":')), "line 1"),
    ("players '2'", lambda t: edit(t, 0, setting("players", "2")), "line 1"),
    ("players 2.0", lambda t: edit(t, 0, setting("players", 2.0)), "line 1"),
    ("players 9", lambda t: edit(t, 0, setting("players", 9)), "line 1"),
    ("a list line", lambda t: edit(t, 3, lambda r: "[1, 2]"), "line 4"),
    ("a string line", lambda t: edit(t, 3, lambda r: '"step"'), "line 4"),
    ("a null line", lambda t: edit(t, 3, lambda r: "null"), "line 4"),
    ("not JSON", lambda t: edit(t, 3, lambda r: "{step: 1"), "line 4"),
    ("deep nesting", lambda t: edit(t, 3, lambda r: "[" * 100_000 + "]" * 100_000), "line 4"),
    ("deep nesting in an object", lambda t: edit(t, 3, lambda r: '{"step": ' + "[" * 100_000), "line 4"),
    ("NaN", lambda t: edit(t, 3, lambda r: '{"step": NaN}'), "line 4"),
    ("action not a string", lambda t: edit(t, 3, setting("action", 5)), "line 4"),
    ("no action", lambda t: edit(t, 3, without("action")), "line 4"),
    ("legal not a number", lambda t: edit(t, 3, setting("legal", "4")), "line 4"),
    ("player missing", lambda t: edit(t, 3, without("player")), "line 4"),
    ("steps out of order", lambda t: edit(t, 3, setting("step", 7)), "line 4"),
    ("a second header", lambda t: edit(t, 3, lambda r: t.split("\n")[0]), "line 4"),
    ("unknown type", lambda t: edit(t, 3, setting("type", "comment")), "line 4"),
    ("lines after the result", lambda t: t + t.split("\n")[2] + "\n", "after the result"),
    ("two results", lambda t: t + t.split("\n")[-2] + "\n", "after the result"),
    ("no result", lambda t: "\n".join(t.split("\n")[:-2]), "no result"),
    ("result without breakdown", lambda t: edit(t, -2, without("breakdown")), "breakdown"),
    ("result without winners", lambda t: edit(t, -2, without("winners")), "winners"),
]


@pytest.mark.parametrize("label,corrupt,fragment", BAD, ids=[b[0] for b in BAD])
def test_a_malformed_trace_is_a_one_line_trace_error_naming_the_line(golden_text, label, corrupt, fragment):
    with pytest.raises(TraceError) as caught:
        lines = trace.loads(corrupt(golden_text))
        trace.verify(railspec.load("usa"), lines, engine="reference")  # players 9 is the variant's to refuse
    message = str(caught.value)
    assert fragment in message and len(message.splitlines()) == 1 and len(message) < 400, message
    assert isinstance(caught.value, railspec.RailspecError) and isinstance(caught.value, ValueError)


def test_verify_checks_lines_given_as_records_too(golden_text, usa):
    lines = trace.loads(golden_text)
    del lines[0]["players"]
    with pytest.raises(TraceError, match="line 1"):
        trace.verify(usa, lines)
    with pytest.raises(TraceError, match="line 2"):
        trace.verify(usa, [trace.loads(golden_text)[0], ["not", "a", "record"]])


def test_a_bom_and_crlf_line_ends_are_accepted(golden_text):
    assert trace.loads("\ufeff" + golden_text.replace("\n", "\r\n")) == trace.loads(golden_text)


def test_the_golden_traces_still_read(golden_text, usa):
    assert trace.verify(usa, trace.loads(golden_text), engine="reference").ok


# --- names that other line readers take for line breaks -----------------------------------

ODD = ["Port\u2028land", "Sea\u0085ttle", "Hel\u2029ena", "Cal\x1cgary", "Den\x0bver", "Om\x0caha", "Zürich"]


def test_any_name_round_trips_through_dumps_and_loads(golden_text):
    lines = trace.loads(golden_text)
    for i, name in enumerate(ODD):
        lines[1 + i]["action"] = f"claim {name}-X"
    text = trace.dumps(lines)
    assert trace.loads(text) == lines
    assert text.count("\n") == len(lines)
    assert len(text.splitlines()) == len(lines), "a reader splitting on any line break sees other lines"


def _odd_spec(tmp_path: Path) -> Path:
    cities = ['"Port\u2028land"', '"Sea\u0085ttle"', '"Hel\u2029ena"', "Boise", "Reno"]
    text = "\n".join([
        'variant "Odd names"', "players 2..2", "trains 12", "hand 4", "card red 12", "card blue 12",
        "locomotives 14", "market 5 reset 3 locomotives", "deal tickets 2 keep 1", "returned tickets bottom",
        "action draw cards 2", "action claim route", "action draw tickets 3 keep 1", "end when trains <= 2",
        "route points 1:1 2:2 3:4 4:7", *(f"city {c}" for c in cities),
        f"route {cities[0]} - {cities[1]} 2 red", f"route {cities[1]} - {cities[2]} 3 gray",
        f"route {cities[2]} - Boise 2 blue", "route Boise - Reno 1 gray", f"route Reno - {cities[0]} 4 gray",
        f"ticket {cities[0]} - {cities[2]} 5", f"ticket {cities[1]} - Reno 6", f"ticket Boise - {cities[0]} 4",
        f"ticket {cities[2]} - Reno 5", f"ticket {cities[0]} - Boise 7", f"ticket {cities[1]} - Boise 3",
        f"ticket {cities[2]} - {cities[0]} 6", "ticket Reno - Boise 2", ""])
    path = tmp_path / "odd.rail"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_spec_with_line_separators_in_its_names_traces_and_verifies(tmp_path, capsys):
    spec = _odd_spec(tmp_path)
    v = railspec.load(spec)
    assert any("\u2028" in r.name for r in v.routes)
    out = tmp_path / "odd.jsonl"
    assert main(["trace", str(spec), "--players", "2", "--seed", "4", "--engine", "reference",
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "\u2028" not in text and "\u0085" not in text and "\u2029" not in text
    assert any("\\u2028" in line for line in text.split("\n"))
    capsys.readouterr()
    assert main(["verify", str(out), "--spec", str(spec), "--engine", "reference"]) == 0, capsys.readouterr()


# --- the variant of a trace is its spec ---------------------------------------------------

@pytest.fixture(scope="module")
def usa_copy(tmp_path_factory):
    """The USA spec under another file name."""
    path = tmp_path_factory.mktemp("copy") / "my-map.rail"
    shutil.copy(railspec.compiler.stock_path("usa"), path)
    return path


def test_a_renamed_copy_of_a_spec_verifies_its_traces_and_the_stock_ones(usa_copy, golden_text, usa):
    mine = railspec.load(usa_copy)
    assert mine.key == "my-map" and mine.spec_hash == usa.spec_hash
    assert trace.verify(mine, trace.loads(golden_text), engine="reference").ok
    lines = trace.record(mine, players=2, seed=5, engine="reference")
    assert lines[0]["variant"] == "my-map" and lines[0]["spec_hash"] == usa.spec_hash
    assert trace.verify(usa, lines, engine="reference").ok


def test_a_trace_of_another_spec_diverges_naming_both(golden_text, tmp_path):
    path = tmp_path / "usa.rail"  # the stock file name, another spec
    path.write_text(railspec.compiler.stock_path("usa").read_text(encoding="utf-8")
                    .replace("longest path 10", "longest path 12"), encoding="utf-8")
    other = railspec.load(path)
    verdict = trace.verify(other, trace.loads(golden_text), engine="reference")
    assert not verdict.ok and other.spec_hash in verdict.message and trace.loads(golden_text)[0]["spec_hash"] \
        in verdict.message


def test_cli_verify_of_a_custom_variant_asks_for_its_spec(usa_copy, tmp_path, capsys):
    out = tmp_path / "mine.jsonl"
    assert main(["trace", str(usa_copy), "--players", "2", "--seed", "3", "--engine", "reference",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out), "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert "'my-map'" in err and "not a stock variant" in err and "--spec" in err and len(err.splitlines()) == 1
    assert main(["verify", str(out), "--engine", "reference", "--spec", str(usa_copy)]) == 0
    assert main(["verify", str(out), "--engine", "reference", "--spec", "usa"]) == 0


def test_cli_verify_of_a_trace_from_an_edited_stock_spec_says_to_pass_the_spec(golden_text, tmp_path, capsys):
    out = tmp_path / "edited.jsonl"
    out.write_text(edit(golden_text, 0, setting("spec_hash", "0123456789abcdef")), encoding="utf-8")
    assert main(["verify", str(out), "--engine", "reference"]) == 1
    printed = capsys.readouterr().out
    assert "0123456789abcdef" in printed and "--spec" in printed


def test_cli_verify_of_a_malformed_trace_names_the_file_and_line(golden_text, tmp_path, capsys):
    out = tmp_path / "bad.jsonl"
    out.write_text(edit(golden_text, 0, without("seed")), encoding="utf-8")
    assert main(["verify", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"railspec: {out}: line 1:") and len(err.splitlines()) == 1


def test_record_writes_plain_integers_whatever_it_is_given(usa):
    import numpy as np
    lines = trace.record(usa, np.int64(2), np.int64(-1), engine="reference")
    assert type(lines[0]["players"]) is int and lines[0]["seed"] == 2**64 - 1
    assert trace.loads(trace.dumps(lines)) == lines
    with pytest.raises(railspec.ArgumentTypeError):
        trace.record(usa, 2, 7.5)
