"""Described positions (docs/formats.md, "Position"): bad files and bad boards are refused
with a PositionError that names the file, the player and the field (issue 10, point 4)."""
from __future__ import annotations

import json

import pytest
from conftest import implemented_stock_variants

from railspec.compiler.base.errors import MAX_POSITION_MESSAGE, PositionError
from railspec.runtime import position

E = {"routes": [], "tickets": []}
VARIANTS = implemented_stock_variants()


def refused(v, pos, *fragments):
    with pytest.raises(PositionError) as caught:
        v.score(pos)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert len(message.splitlines()) == 1, message
    return message


# --- reading a file ----------------------------------------------------------------------

@pytest.mark.parametrize("text,fragment", [
    ("[" * 100_000 + "]" * 100_000, "nested"),
    ('{"players": [{"goods": ' + "9" * 5000 + "}, {}]}", "digits"),
    ("{", "not JSON"),
    ("", "not JSON"),
    ('{"players": NaN}', "NaN"),
])
def test_unreadable_text_is_a_position_error(text, fragment):
    with pytest.raises(PositionError, match=fragment):
        position.loads(text)


def test_a_utf8_bom_is_accepted(usa, tmp_path):
    text = json.dumps({"variant": "usa", "players": [{"routes": ["Calgary-Helena"]}, E]})
    assert position.loads("\ufeff" + text) == json.loads(text)
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert usa.score(position.read(path))[0]["routes"] == 7


def test_read_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes(b'{"players": [}')
    with pytest.raises(PositionError, match=f"^{path}: not JSON"):
        position.read(path)
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(PositionError, match=f"^{path}: not UTF-8"):
        position.read(path)
    with pytest.raises(PositionError, match=f"^{tmp_path / 'missing.json'}: no such position file"):
        position.read(tmp_path / "missing.json")
    with pytest.raises(PositionError, match="^/dev/zero: not a regular file"):
        position.read("/dev/zero")


# --- shapes ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, 5, "Calgary-Helena", {"Calgary-Helena": 1}, True])
@pytest.mark.parametrize("key", ["routes", "tickets"])
def test_a_list_field_of_another_type_names_the_player_and_field(usa, key, value):
    refused(usa, {"players": [E, {key: value}]}, "player 1", f"'{key}'")


@pytest.mark.parametrize("value", [None, 5, "ab", {"a": E, "b": E}])
def test_players_of_another_type_is_refused(usa, value):
    refused(usa, {"players": value}, "'players'")


@pytest.mark.parametrize("seat", [None, 5, "routes", ["Calgary-Helena"]])
def test_a_seat_that_is_not_an_object_is_refused(usa, seat):
    refused(usa, {"players": [E, seat]}, "player 1")


def test_a_long_name_is_shortened_in_the_message(usa):
    message = refused(usa, {"players": [{"routes": ["x" * 100_000]}, E]}, "player 0", "no route named")
    assert len(message) < 300


# --- double routes: beside the mechanic, mechanics/multi_track/tests/ -----------------------------


# --- did you mean -----------------------------------------------------------------------

@pytest.mark.parametrize("name,suggested", [
    ("Helena-Calgary", ["Calgary-Helena"]),
    ("Portland-Seattle", ["Portland-Seattle/1", "Portland-Seattle/2"]),
    ("Seattle-Portland", ["Portland-Seattle/1", "Portland-Seattle/2"]),
    ("Seattle-Portland/2", ["Portland-Seattle/1", "Portland-Seattle/2"]),
    ("Portland-Seattle/3", ["Portland-Seattle/1", "Portland-Seattle/2"]),
    ("Calgary-Helenaa", ["Calgary-Helena"]),
])
def test_route_names_get_a_did_you_mean_listing_the_real_names(usa, name, suggested):
    message = refused(usa, {"players": [{"routes": [name]}, E]}, "player 0", f"no route named {name!r}",
                      "did you mean")
    hint = message[message.index("did you mean"):]
    for real in suggested:
        assert repr(real) in hint
    assert hint.count("'") == 2 * len(suggested), hint


def test_a_reversed_ticket_gets_a_did_you_mean(usa):
    refused(usa, {"players": [{"tickets": ["Salt Lake City-Calgary"]}, E]},
            "no ticket named 'Salt Lake City-Calgary'", "did you mean 'Calgary-Salt Lake City'")


def test_a_city_with_a_hyphen_is_still_found():
    v = next(v for v in VARIANTS if v.key == "amsterdam")
    refused(v, {"players": [{"routes": ["Oost-Indisch Huis-Blauwbrug"]}, E]},
            "'Blauwbrug-Oost-Indisch Huis/1'", "'Blauwbrug-Oost-Indisch Huis/2'")


# --- which variant ------------------------------------------------------------------------

@pytest.mark.parametrize("named", ["usa", "USA", "Usa"])
def test_the_variant_may_be_named_by_key_or_display_name(usa, named):
    assert usa.score({"variant": named, "players": [E, E]})[0]["total"] == 0


def test_a_matching_spec_hash_identifies_a_renamed_variant(usa):
    pos = {"variant": "my-usa-copy", "spec_hash": usa.spec_hash, "players": [E, E]}
    assert usa.score(pos)[0]["total"] == 0


def test_another_spec_hash_is_refused(usa):
    refused(usa, {"variant": "usa", "spec_hash": "0123456789abcdef", "players": [E, E]},
            "0123456789abcdef", usa.spec_hash)
    refused(usa, {"variant": "usa", "spec_hash": 5, "players": [E, E]}, "'spec_hash'")


def test_another_variant_is_refused_with_what_to_do(usa):
    message = refused(usa, {"variant": "europe", "players": [E, E]}, "'europe'", "USA")
    assert "spec_hash" in message
    refused(usa, {"variant": 5, "players": [E, E]}, "'variant'")


def test_a_mechanics_message_about_a_huge_value_is_cut_to_one_short_line():
    pennsylvania = next(v for v in VARIANTS if v.key == "pennsylvania")
    message = refused(pennsylvania, {"players": [{"shares": {"Pennsylvania Railroad": [[1] * 100_000]}}, E]},
                      "player 0", "Pennsylvania Railroad")
    assert len(message) <= MAX_POSITION_MESSAGE
    assert len(str(PositionError("a\nb"))) == 3 and "\n" not in str(PositionError("a\nb"))
