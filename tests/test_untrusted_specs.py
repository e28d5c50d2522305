"""Specs from untrusted places: what `extends` may read, files that are not specs, very
long lines, very many errors and very long names. Each case ends in a located SpecError
(or a plain one naming the file), never a hang, a traceback or another file's text."""
from __future__ import annotations

import os
import re
import threading
import tracemalloc
from pathlib import Path

import pytest
from test_bad_specs import BASE

from railspec.compiler import check_file, parse
from railspec.compiler.base import limits
from railspec.compiler.base.errors import SpecCheckError, SpecError, SpecSyntaxError
from railspec.compiler.mechanic import default_registry


def check_within(path, seconds: float = 20.0):
    """check_file(path) in a thread: the error it raises (None when the spec checks), or a
    test failure when it has not finished in time (a read that blocks on a pipe, say)."""
    outcome: dict = {}

    def run():
        try:
            check_file(path)
            outcome["error"] = None
        except BaseException as err:  # noqa: BLE001 - handed to the test
            outcome["error"] = err
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"checking {path} did not finish in {seconds} s")
    return outcome["error"]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- extends ----------------------------------------------------------------------------------

def test_extends_resolves_relative_to_the_extending_spec(tmp_path, monkeypatch):
    """A base next to the child is used, wherever the command runs from; a file of the same
    name in the working folder is not."""
    (tmp_path / "maps").mkdir()
    write(tmp_path / "maps" / "base.rail", BASE)
    write(tmp_path / "maps" / "child.rail", 'extends "base.rail"\nvariant "Child"\ntrains 11\n')
    write(tmp_path / "base.rail", "this is not a spec\n")
    monkeypatch.chdir(tmp_path)
    v = check_file(Path("maps") / "child.rail")
    assert (v.name, v.trains, len(v.routes)) == ("Child", 11, 5)


def test_extends_a_spec_in_a_parent_folder(tmp_path, monkeypatch):
    (tmp_path / "maps" / "fan").mkdir(parents=True)
    write(tmp_path / "maps" / "base.rail", BASE)
    write(tmp_path / "maps" / "fan" / "child.rail", 'extends "../base.rail"\nvariant "Child"\n')
    monkeypatch.chdir(tmp_path / "maps" / "fan")
    assert check_file("child.rail").name == "Child"


def test_extends_a_file_that_is_not_a_spec_does_not_show_its_lines(tmp_path):
    """`extends "/etc/passwd"` (or any file not named .rail) is refused before it is read:
    no line of it may appear in the error."""
    secret = write(tmp_path / "secret.txt", "root:x:0:0:the secret line\n")
    for target in (str(secret), "secret.txt", "/etc/passwd"):
        child = write(tmp_path / "child.rail", f'extends "{target}"\nvariant "Child"\n')
        err = check_within(child)
        assert isinstance(err, SpecCheckError), err
        out = err.format()
        assert out.startswith(f"{child}:1:1: "), out
        assert "is not a spec: a spec file's name ends in .rail" in out, out
        assert "secret line" not in out and "root:" not in out, out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_refused_not_read(tmp_path):
    """A named pipe would block the reader until someone writes to it: refused at once, as
    the spec itself and through extends."""
    pipe = tmp_path / "pipe.rail"
    os.mkfifo(pipe)
    err = check_within(pipe)
    assert isinstance(err, SpecError) and "not a regular file" in str(err), err
    child = write(tmp_path / "child.rail", 'extends "pipe.rail"\nvariant "Child"\n')
    err = check_within(child)
    assert isinstance(err, SpecCheckError) and "not a regular file" in err.format(), err
    assert err.format().startswith(f"{child}:1:1: ")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_refused_not_read(tmp_path):
    err = check_within("/dev/zero")
    assert isinstance(err, SpecError) and "not a regular file" in str(err), err
    link = tmp_path / "zero.rail"
    link.symlink_to("/dev/zero")
    child = write(tmp_path / "child.rail", 'extends "zero.rail"\nvariant "Child"\n')
    err = check_within(child)
    assert isinstance(err, SpecCheckError) and "not a regular file" in err.format(), err


def test_a_folder_is_refused(tmp_path):
    (tmp_path / "maps.rail").mkdir()
    err = check_within(tmp_path / "maps.rail")
    assert isinstance(err, SpecError) and "not a regular file" in str(err), err


def test_a_file_over_the_size_limit_is_refused(tmp_path):
    big = tmp_path / "big.rail"
    with big.open("w", encoding="utf-8") as out:
        out.write(BASE)
        out.write("#" * (limits.MAX_SPEC_BYTES - len(BASE) + 1))
    err = check_within(big)
    assert isinstance(err, SpecError), err
    assert f"larger than the {limits.MAX_SPEC_BYTES // (1024 * 1024)} MB a spec file may be" in str(err), err
    child = write(tmp_path / "child.rail", 'extends "big.rail"\nvariant "Child"\n')
    err = check_within(child)
    assert isinstance(err, SpecCheckError) and "MB a spec file may be" in err.format(), err
    # at the limit exactly, the file is read
    with big.open("r+", encoding="utf-8") as out:
        out.truncate(limits.MAX_SPEC_BYTES)
    assert check_within(big) is None


# --- one very long line ----------------------------------------------------------------------

def _one_line(statements: int) -> str:
    """BASE, then ``statements`` more (cities on a chain of routes) all on one line."""
    extra = []
    for i in range(statements // 2):
        extra.append(f"city X{i}")
        extra.append(f"route {'Alpha' if i == 0 else f'X{i - 1}'} - X{i} 1 gray")
    return BASE + "; ".join(extra) + "\n"


def test_statements_on_one_long_line_are_read_without_copying_the_line():
    """400,000 statements on one line once took 78 s against 3 s on separate lines: each
    statement's first word was read from a copy of the rest of its line. The work per
    statement must not depend on the line's length: reading the statement words of 5,000
    statements on one line (about 100 KB) allocates no more than a few KB at a time."""
    text = _one_line(5_000)
    assert len(text) > 90_000
    statements = parse(text, "long.rail").statements
    assert len(statements) > 5_000
    tracemalloc.start()
    try:
        parse_module = __import__("railspec.compiler.lang.parse", fromlist=["_check_statement_words"])
        parse_module._check_statement_words(default_registry().language, "long.rail", text, statements)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024, f"{peak} bytes allocated at once while reading statement words"


def test_a_long_line_spec_checks_like_the_same_spec_on_separate_lines(tmp_path):
    one = write(tmp_path / "one.rail", _one_line(1_900))
    many = write(tmp_path / "many.rail", _one_line(1_900).replace("; ", "\n"))
    assert check_file(one).spec_hash == check_file(many).spec_hash


# --- many errors, long names, long numbers -----------------------------------------------------

def test_errors_are_capped_per_file(tmp_path):
    """The first 50 errors of a file, in source order, then one line counting the rest."""
    lines = BASE.splitlines() + [f"route Alpha - Nowhere{i} 1 gray" for i in range(180)]
    path = write(tmp_path / "many.rail", "\n".join(lines) + "\n")
    err = check_within(path)
    assert isinstance(err, SpecCheckError)
    located = [e for e in err.errors if e.span is not None]
    assert len(located) == limits.MAX_ERRORS_PER_FILE
    assert [e.span.line for e in located] == sorted(e.span.line for e in located)
    assert located[0].span.line == len(BASE.splitlines()) + 1
    assert err.errors[-1].span is None
    assert err.errors[-1].message == f"{path}: 130 more errors not shown (the first 50 are above)"
    assert err.format().endswith("130 more errors not shown (the first 50 are above)")


def test_errors_are_capped_per_file_of_an_extends_chain(tmp_path):
    bad_base = BASE + "".join(f"route Alpha - Nowhere{i} 1 gray\n" for i in range(60))
    write(tmp_path / "base.rail", bad_base)
    child = write(tmp_path / "child.rail", 'extends "base.rail"\n' +
                  "".join(f"route Beta - Elsewhere{i} 1 gray\n" for i in range(55)))
    err = check_within(child)
    assert isinstance(err, SpecCheckError)
    per_file: dict = {}
    for e in err.errors:
        if e.span is not None:
            per_file[e.span.file] = per_file.get(e.span.file, 0) + 1
    assert per_file == {str(tmp_path / "base.rail"): 50, str(child): 50}
    tails = [e.message for e in err.errors if e.span is None]
    assert tails == [f"{tmp_path / 'base.rail'}: 10 more errors not shown (the first 50 are above)",
                     f"{child}: 5 more errors not shown (the first 50 are above)"]


def test_a_long_name_is_shortened_in_messages(tmp_path):
    name = "Llanfair" + "pwllgwyngyll" * 30
    path = write(tmp_path / "long.rail", BASE.replace("city Epsilon", f"city Epsilon\ncity {name}\ncity {name}"))
    err = check_within(path)
    assert isinstance(err, SpecCheckError)
    twice = next(e for e in err.errors if "declared twice" in e.message)
    first = twice.format().split("\n")[0]
    assert f"city '{name[:limits.NAME_SHOWN]}…' is declared twice" in first, first
    assert name not in err.format().split("\n")[0] and name not in first
    # the caret still underlines the whole name in the quoted line
    assert twice.format().split("\n")[2].count("~") == len(name) - 1


def test_a_long_word_is_shortened_in_syntax_errors(tmp_path):
    word = "x" * 500
    path = write(tmp_path / "long.rail", BASE.replace("trains 12", f"trains 12 {word}"))
    err = check_within(path)
    assert isinstance(err, SpecSyntaxError)
    first = err.format().split("\n")[0]
    assert f"unexpected '{'x' * limits.NAME_SHOWN}…'" in first and word not in first, first


def test_an_unknown_long_statement_word_is_shortened(tmp_path):
    word = "city" + "x" * 300
    path = write(tmp_path / "long.rail", BASE.replace("city Alpha", f"{word} Alpha"))
    err = check_within(path)
    assert isinstance(err, SpecSyntaxError)
    assert word not in err.format().split("\n")[0] and "…'" in err.format().split("\n")[0], err.format()


@pytest.mark.parametrize("digits", [31, 5000])
def test_a_number_with_too_many_digits_is_a_located_error(tmp_path, digits):
    """Python refuses to convert a literal of more than 4,300 digits (a ValueError deep in
    the parser): the parser refuses any number longer than the limit itself."""
    path = write(tmp_path / "big.rail", BASE.replace("trains 12", "trains " + "9" * digits))
    err = check_within(path)
    assert isinstance(err, SpecSyntaxError), err
    first, source, caret = err.format().split("\n")[:3]
    assert first == (f"{path}:3:8: a number of {digits} digits is more than any count or points value "
                     f"may be (docs/language.md, \"Limits\")")
    assert re.fullmatch(r" {4}" + " " * 7 + r"\^~{%d}" % (digits - 1), caret)


def test_a_folder_named_like_a_stock_variant_does_not_hide_it(tmp_path):
    (tmp_path / "usa").mkdir()
    child = write(tmp_path / "child.rail", 'extends "usa"\nvariant "USA, again"\n')
    assert check_file(child).name == "USA, again"


def test_extends_a_folder_named_rail_names_what_it_is(tmp_path):
    (tmp_path / "maps.rail").mkdir()
    child = write(tmp_path / "child.rail", 'extends "maps.rail"\nvariant "Child"\n')
    err = check_within(child)
    assert isinstance(err, SpecCheckError)
    assert err.format().startswith(f"{child}:1:1: extends 'maps.rail': not a regular file (a folder)"), err.format()

