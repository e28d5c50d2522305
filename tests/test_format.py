"""The formatter (railspec.compiler.lang.format, ``railspec fmt``): the canonical layout of a
spec (docs/language.md, "Layout and railspec fmt"), idempotent, keeping every comment in
order and the spec hash, on every stock spec, on specs that extend another, on 1,000
random specs written untidily (comments, odd spacing, ';'-joined lines, Windows line ends)
and on the fuzzer's structured specs, which use every mechanic's sample statements."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from test_random_specs import random_spec

from railspec.compiler import check, check_file, format_text, parse, stock_names, stock_path
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.lang import format as fmt
from railspec.compiler.mechanic import default_registry

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # fuzz/ sits beside tests/
from fuzz.strategies import structured_spec  # noqa: E402

COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|(#[^\n]*)')


def comments(text: str) -> list[str]:
    """The comments of a spec, in order, as the formatter keeps them (less trailing blanks)."""
    return [m.group(1).rstrip() for m in COMMENT.finditer(text) if m.group(1)]


def spec_hash(text: str, path: str = "spec.rail") -> str:
    return check([parse(text, path)], "spec").spec_hash


def meaning(text: str) -> str | list[str]:
    """The spec hash of a spec that checks, or the checker's messages (positions aside)."""
    try:
        return spec_hash(text)
    except SpecCheckError as err:
        return [e.message for e in err.errors]


# --- the layout, rule by rule ---------------------------------------------------------------

HEAD = 'variant "V"\n'


def test_statements_joined_by_semicolons_get_lines_of_their_own():
    assert format_text(HEAD + "players 2..5;trains 45 ;  hand 4   # the header\n") == \
        HEAD + "players 2..5\ntrains 45\nhand 4 # the header\n"


def test_tokens_are_separated_by_one_space_and_punctuation_stands_against_its_token():
    text = HEAD + "players\t2 .. 5\nroute   points 1 : 1   2:2 3 +: 4\ntiebreak most  tickets ,longest path\n"
    assert format_text(text) == HEAD + "players 2..5\nroute points 1:1 2:2 3+:4\ntiebreak most tickets, longest path\n"


def test_a_colon_after_a_keyword_or_before_a_name_is_followed_by_a_space():
    text = HEAD + "goods ranking 2 players:8 4\nregion Nord double :Alpha,Beta\n"
    assert format_text(text) == HEAD + "goods ranking 2 players: 8 4\nregion Nord double: Alpha, Beta\n"


def test_a_ticket_of_several_destinations_joins_each_to_its_points():
    text = HEAD + "ticket either Alpha -  Beta : 5|Gamma:7 copies 2\n"
    assert format_text(text) == HEAD + "ticket either Alpha - Beta:5 | Gamma:7 copies 2\n"


def test_names_keep_their_quoting_and_get_single_spaces():
    text = HEAD + 'city  Salt   Lake City\ncity "Fort tunnel"\ncity "Gamma"\n'
    assert format_text(text) == HEAD + 'city Salt Lake City\ncity "Fort tunnel"\ncity "Gamma"\n'


def test_a_table_of_routes_is_aligned_in_columns():
    text = HEAD + ("route Alpha - Beta 2 red\n"
                   "route Alpha - Gamma Delta 12 blue tunnel\n"
                   "route Epsilon Zeta - Beta 3 green ferry 1\n"
                   "route Beta - Gamma Delta 1 gray\n")
    assert format_text(text) == HEAD + ("route Alpha        - Beta        2  red\n"
                                        "route Alpha        - Gamma Delta 12 blue  tunnel\n"
                                        "route Epsilon Zeta - Beta        3  green ferry 1\n"
                                        "route Beta         - Gamma Delta 1  gray\n")


def test_a_blank_line_ends_a_table_and_an_own_line_comment_does_not():
    text = HEAD + ("card red 1\n# more\ncard orange 2\n\n"
                   "card blue 3\ncard yellow 4\n")
    assert format_text(text) == HEAD + ("card red    1\n# more\ncard orange 2\n\n"
                                        "card blue   3\ncard yellow 4\n")


def test_statements_of_another_shape_are_not_aligned_with_a_table():
    text = HEAD + ("ticket Alpha - Beta 5\nticket Gammadelta - Beta 10\n"
                   "ticket long Alpha - Epsilon 20\nticket Beta - Alpha 7\n")
    assert format_text(text) == HEAD + ("ticket Alpha      - Beta 5\nticket Gammadelta - Beta 10\n"
                                        "ticket long Alpha - Epsilon 20\nticket Beta - Alpha 7\n")


def test_the_items_of_a_list_are_not_aligned():
    text = HEAD + "region North: Alpha, Beta\nregion Southwest: Gamma, Delta, Epsilon\n"
    assert format_text(text) == HEAD + "region North:     Alpha, Beta\nregion Southwest: Gamma, Delta, Epsilon\n"


def test_trailing_comments_of_a_paragraph_share_a_column():
    text = HEAD + ("players 2..5 # a\ntrains 45     #   b  \nhand 4\nend when trains <= 2 # c\n\n"
                   "card red 12 # d\n")
    assert format_text(text) == HEAD + ("players 2..5         # a\ntrains 45            #   b\nhand 4\n"
                                        "end when trains <= 2 # c\n\ncard red 12 # d\n")


def test_a_much_wider_statement_does_not_push_the_others_comments_out():
    text = HEAD + "trains 45 # a\nroute points 1:1 2:2 3:4 4:7 5:10 6:15 7:18 # b\nhand 4 # c\n"
    assert format_text(text) == HEAD + ("trains 45 # a\nroute points 1:1 2:2 3:4 4:7 5:10 6:15 7:18 # b\n"
                                        "hand 4    # c\n")


def test_blank_lines_are_kept_once_and_own_line_comments_start_the_line():
    text = "\n\n  # top\n\n\n" + HEAD + "   \n\t\n  # indented\ntrains 45\n\n\n"
    assert format_text(text) == "# top\n\n" + HEAD + "\n# indented\ntrains 45\n"


def test_line_ends_and_the_byte_order_mark():
    assert format_text("\ufeff" + HEAD.replace("\n", "\r\n") + "trains 45 # x\r\nhand 4") == \
        HEAD + "trains 45 # x\nhand 4\n"


def test_an_empty_spec_and_a_spec_of_comments():
    assert format_text("") == ""
    assert format_text("\n \n") == ""
    assert format_text("# only\n\n\n#  a comment  \n") == "# only\n\n#  a comment\n"


def test_wide_characters_take_two_columns():
    text = HEAD + 'city "北京" at 1 2\ncity Zürich at 3 4\n'
    assert format_text(text) == HEAD + 'city "北京" at 1 2\ncity Zürich at 3 4\n'


@pytest.mark.parametrize("text", ["route Alpha-Beta 2 red\n", "trains 45;\nhand 4\n", 'city "Gam\\ma"\n',
                                  "trains 1" + "0" * 40 + "\n", "cityx Foo\n", "trains 45 hand 4\n"])
def test_a_spec_that_does_not_parse_is_not_formatted(text):
    with pytest.raises(SpecSyntaxError) as raised:
        format_text(HEAD + text, "bad.rail")
    with pytest.raises(SpecSyntaxError) as parsed:
        parse(HEAD + text, "bad.rail")
    assert raised.value.format() == parsed.value.format()
    assert raised.value.format().startswith("bad.rail:2:")


def test_the_language_layer_takes_a_language_or_a_registry():
    text = HEAD + "trains  45\n"
    registry = default_registry()
    assert fmt.format_text(text, "x.rail", registry) == fmt.format_text(text, "x.rail", registry.language) \
        == format_text(text, "x.rail", registry)
    with pytest.raises(TypeError):
        fmt.format_text(text, "x.rail", None)


# --- the properties, on every stock spec ------------------------------------------------------

@pytest.mark.parametrize("name", stock_names())
def test_a_stock_spec_formats_idempotently_keeping_its_comments_and_hash(name):
    text = stock_path(name).read_text(encoding="utf-8")
    once = format_text(text, f"{name}.rail")
    assert format_text(once, f"{name}.rail") == once
    assert comments(once) == comments(text)
    assert spec_hash(once, f"{name}.rail") == spec_hash(text, f"{name}.rail")


def test_specs_that_extend_another_keep_their_hash(tmp_path):
    base = ("# a base\nvariant \"Base\";players 2..4\ntrains  20 # each\nhand 2\ncard red 12\ncard blue 12\n"
            "locomotives 4\nmarket 3 reset 3 locomotives\ncity  Alpha\ncity Beta\ncity Gamma Delta\n"
            "route Alpha - Beta 2 red\nroute  Beta -   Gamma Delta 3 blue   # a comment\n"
            "route points 1:1 2:2 3:4\nticket Alpha - Gamma Delta 5\nticket Beta - Alpha 3\nticket Alpha - Beta 2\n"
            "ticket Beta - Gamma Delta 4\nticket Alpha - Gamma Delta 6\nticket Beta - Alpha 1\n"
            "ticket Alpha - Beta 7\nticket Beta - Gamma Delta 8\ndeal tickets 1 keep 1\n"
            "action draw cards 2;action claim route\nend when trains <= 2\ntiebreak most tickets\n")
    child = 'extends "base.rail"\nvariant "Child" # a child\ntrains 30;  hand 3\nwithout route Alpha - Beta\n' \
            "route Alpha - Beta 1 gray\n"
    on_usa = 'extends "usa"\n\n\nvariant  "USA, short" # shorter\ntrains 30\nwithout route Seattle - Portland\n' \
             "route Seattle - Portland 1 gray ; end when trains <= 1\n"
    (tmp_path / "base.rail").write_text(base, encoding="utf-8")
    (tmp_path / "child.rail").write_text(child, encoding="utf-8")
    (tmp_path / "short.rail").write_text(on_usa, encoding="utf-8")
    before = {name: check_file(tmp_path / name).spec_hash for name in ("base.rail", "child.rail", "short.rail")}
    for name in before:
        path = tmp_path / name
        text = path.read_text(encoding="utf-8")
        path.write_text(format_text(text, str(path)), encoding="utf-8")
        assert path.read_text(encoding="utf-8") != text
        assert comments(path.read_text(encoding="utf-8")) == comments(text)
    assert {name: check_file(tmp_path / name).spec_hash for name in before} == before


# --- the properties, on random specs -----------------------------------------------------------

JUNK_COMMENTS = ["# a comment", "#", "#no space", "# ünïcode ∑ 北京 #hash", '# "quoted" ; joined: 1..2',
                 "#\ttab", "# trailing   "]


def untidy(text: str, r: random.Random) -> str:
    """``text`` written untidily, meaning the same: odd spacing between tokens, indented
    lines, comments on lines of their own and after statements, runs of blank lines,
    ';'-joined statements, spaced-out punctuation and, sometimes, Windows line ends."""
    out = []
    for line in text.split("\n"):
        if not line:
            continue
        if '"' not in line:
            if r.random() < 0.3:
                line = line.replace(":", r.choice([" : ", ": ", " :"]))
            if r.random() < 0.3:
                line = line.replace("..", r.choice([" .. ", ".. ", " .."])).replace(",", " , ")
            line = re.sub(" ", lambda _: r.choice([" ", " ", "  ", "\t", " \f "]), line)
        line = r.choice(["", "", " ", "\t"]) + line + r.choice(["", "", " ", "\t "])
        if out and out[-1].strip() and "#" not in out[-1] and r.random() < 0.15:
            out[-1] += r.choice([";", "; ", " ;  "]) + line.strip()
        else:
            out.append(line)
        if r.random() < 0.2:
            out[-1] += r.choice(["", " ", "    "]) + r.choice(JUNK_COMMENTS)
        if r.random() < 0.1:
            out.append(r.choice(["", " ", "\t"]) + r.choice(JUNK_COMMENTS))
        if r.random() < 0.1:
            out += [""] * r.randint(1, 3)
    return (r.choice(["", "\n", "# head\n\n"]) + "\n".join(out) + r.choice(["", "\n", "\n\n\n"])).replace(
        "\n", "\r\n" if r.random() < 0.1 else "\n")


def test_a_thousand_random_specs_format_idempotently_keeping_comments_and_hash():
    # 500 random maps, each written untidily in two ways; a formatted writing must have the
    # map's hash (so the checker, the slow part, runs once per map and once per writing).
    # format_text formats its own answer again and refuses to answer when that changes
    # anything, so every writing is also checked for idempotence; 1 in 10 explicitly here.
    for seed in range(500):
        tidy = random_spec(seed, ferries=seed % 2 == 1, europe=seed % 4 >= 2)
        expected = spec_hash(tidy)
        for writing in range(2):
            text = untidy(tidy, random.Random(seed * 2 + writing))
            once = format_text(text, f"random{seed}.rail")
            if seed % 10 == 0:
                assert format_text(once, f"random{seed}.rail") == once, seed
            assert comments(once) == comments(text), seed
            assert spec_hash(once) == expected, seed


@settings(max_examples=100, deadline=None, database=None, derandomize=True)
@given(structured_spec())
def test_specs_using_every_mechanic_format_idempotently_keeping_comments_and_meaning(case):
    text, _ = case
    text = untidy(text, random.Random(len(text)))
    try:
        parse(text, "fuzz.rail")
    except SpecSyntaxError:  # a drawn number past the parser's limit: not formatted either
        with pytest.raises(SpecSyntaxError):
            format_text(text, "fuzz.rail")
        return
    once = format_text(text, "fuzz.rail")
    assert format_text(once, "fuzz.rail") == once
    assert comments(once) == comments(text)
    # the same spec hash, or, for a spec the checker refuses, the same reasons
    assert meaning(once) == meaning(text)
