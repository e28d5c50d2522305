"""JSON Schemas (draft 2020-12) of the files another engine reads and writes: the position
notation, the conformance vectors and the trace, made for one variant from its state
schema and its names, so an engine in any language can check its own files
(``railspec suite export`` writes them beside the vectors; the tests validate every
exported record against them).

Each schema describes one line of its file (the header or a record); the position's
schema is included in each under ``$defs`` so a file's schema stands alone.
"""
from __future__ import annotations

from ..compiler.base import schema as state_schema
from ..compiler.base.schema import bound_value
from ..runtime import notation
from ..runtime.game import Variant
from . import export

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: The driver protocol's name (docs/conformance.md, "The driver protocol"), said in hello.
DRIVER_PROTOCOL = "railspec-driver/1"
#: The checks an engine may support besides ``position``, which every check needs.
DRIVER_CHECKS = ("legal", "apply", "score", "perft")
_U64 = {"type": "string", "pattern": "^[0-9]{1,20}$"}
_NAMES = {"type": "array", "items": {"type": "string"}}


def _bound(expr: str, dims: dict, players: int) -> int:
    return bound_value(expr, dims, players)


def _value(field, names: dict, dims: dict, players: int) -> dict:
    """One value of a field (a scalar, or one entry of a list or row)."""
    if field.kind == "phase":
        return {"enum": list(names["phase"])}
    if field.kind == "u64":
        return _U64
    own = notation.value_names(field)
    if own:
        nullable = _bound(field.low, dims, players) < 0
        return {"enum": list(names[own]) + ([None] if nullable else [])}
    return {"type": "integer", "minimum": _bound(field.low, dims, players),
            "maximum": _bound(field.high, dims, players)}


def _one(field, names: dict, dims: dict, players: int) -> dict:
    value = _value(field, names, dims, players)
    if field.is_scalar:
        return value
    index = notation.INDEXED_BY.get(field.size)
    if index is not None:
        return {"type": "object", "propertyNames": {"enum": list(names[index])}, "additionalProperties": value}
    items = {"type": "array", "items": value}
    if field.cap:
        items["maxItems"] = dims[field.cap]
    else:
        items["minItems"] = items["maxItems"] = dims[field.size]
    return items


def position_schema(variant) -> dict:
    """The JSON form of the position notation, for this variant (its names as enums)."""
    ir_variant = variant.ir
    assembly = variant.assembly
    names = notation.component_names(ir_variant) | {"phase": list(assembly.phases)}
    dims = assembly.dims
    most = ir_variant.max_players
    properties = {
        "format": {"const": notation.FORMAT},
        "variant": {"type": "string"},
        "spec_hash": {"type": "string"},
        "players": {"type": "integer", "minimum": ir_variant.min_players, "maximum": most},
        "generator": {"type": "object", "properties": {k: _U64 for k in notation.GENERATOR_FIELDS},
                      "additionalProperties": False},
    }
    required = ["format", "variant", "spec_hash", "players"]
    for field in assembly.exported_fields:
        if field.name in ("players", *notation.GENERATOR_FIELDS):
            continue
        one = _one(field, names, dims, most)
        if field.per_player:
            one = {"type": "array", "items": one, "minItems": ir_variant.min_players, "maxItems": most}
        properties[field.name] = one
        required.append(field.name)
    return {"$schema": DIALECT, "title": f"railspec position of {ir_variant.name} ({notation.FORMAT})",
            "type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _header(kind_const: dict) -> dict:
    return {"type": "object",
            "properties": {"type": {"const": "header"}, "format": {"type": "string"}, "variant": {"type": "string"},
                           "spec_hash": {"type": "string"}} | kind_const,
            "required": ["type", "format", "variant", "spec_hash"]}


def _breakdown(variant) -> dict:
    keys = list(variant.assembly.breakdown_keys)
    row = {"type": "object", "properties": {k: {"type": "integer"} for k in keys}, "required": keys,
           "additionalProperties": False}
    return {"type": "array", "items": row}


def _line(variant, title: str, record: dict, kind_const: dict) -> dict:
    return {"$schema": DIALECT, "title": title, "$defs": {"position": position_schema(variant)},
            "oneOf": [_header(kind_const), record]}


_POSITION = {"$ref": "#/$defs/position"}
_WINNERS = {"type": "array", "items": {"type": "integer", "minimum": 0}}


def games_schema(variant) -> dict:
    step = {"type": "object",
            "properties": {"legal": _NAMES, "action": {"type": "string"}, "chance": {"type": "boolean"},
                           "position": _POSITION},
            "required": ["legal", "action", "chance", "position"], "additionalProperties": False}
    record = {"type": "object",
              "properties": {"type": {"const": "game"}, "game": {"type": "integer", "minimum": 0},
                             "name": {"type": "string"}, "seed": {"type": "integer", "minimum": 0},
                             "players": {"type": "integer"},
                             "start": _POSITION, "steps": {"type": "array", "items": step},
                             "breakdown": _breakdown(variant), "winners": _WINNERS},
              "required": ["type", "game", "seed", "players", "start", "steps", "breakdown", "winners"],
              "additionalProperties": False}
    return _line(variant, "a line of games.jsonl (railspec-vectors/1)", record, {"kind": {"const": "games"}})


def scores_schema(variant) -> dict:
    record = {"type": "object",
              "properties": {"type": {"const": "score"}, "name": {"type": "string"}, "source": {"type": "string"},
                             "position": _POSITION, "breakdown": _breakdown(variant), "winners": _WINNERS},
              "required": ["type", "name", "source", "position", "breakdown", "winners"],
              "additionalProperties": False}
    return _line(variant, "a line of scores.jsonl (railspec-vectors/1)", record, {"kind": {"const": "scores"}})


def perft_schema(variant) -> dict:
    record = {"type": "object",
              "properties": {"type": {"const": "perft"}, "name": {"type": "string"}, "position": _POSITION,
                             "counts": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1},
                             "divide": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}},
              "required": ["type", "name", "position", "counts", "divide"], "additionalProperties": False}
    return _line(variant, "a line of perft.jsonl (railspec-vectors/1)", record, {"kind": {"const": "perft"}})


def trace_schema(variant) -> dict:
    """A line of a trace (docs/formats.md, "Trace"): the header, a decision or the result."""
    header = {"type": "object",
              "properties": {"type": {"const": "header"}, "format": {"const": "railspec-trace/1"},
                             "variant": {"type": "string"}, "spec_hash": {"type": "string"},
                             "players": {"type": "integer"}, "seed": {"type": "integer", "minimum": 0}},
              "required": ["type", "format", "variant", "spec_hash", "players", "seed"]}
    step = {"type": "object",
            "properties": {"step": {"type": "integer", "minimum": 0}, "player": {"type": "integer", "minimum": 0},
                           "legal": {"type": "integer", "minimum": 1}, "action": {"type": "string"}},
            "required": ["step", "player", "legal", "action"], "not": {"required": ["type"]}}
    result = {"type": "object",
              "properties": {"type": {"const": "result"}, "breakdown": _breakdown(variant), "winners": _WINNERS},
              "required": ["type", "breakdown", "winners"]}
    return {"$schema": DIALECT, "title": "a line of a trace (railspec-trace/1)", "oneOf": [header, step, result]}


def _object(required: dict, optional: dict | None = None) -> dict:
    """An object with these properties, the ``required`` ones required, and no others."""
    return {"type": "object", "properties": required | (optional or {}), "required": list(required),
            "additionalProperties": False}


def _driver_defs(variant: Variant) -> dict:
    """What the driver's schemas share: the position, an action's name (the catalogue's)."""
    return {"position": position_schema(variant), "action": {"enum": [a.name for a in variant.ir.actions]}}


def driver_request_schema(variant: Variant) -> dict:
    """A request the driver sends an engine (docs/conformance.md, "The driver protocol"):
    one JSON object a line, told apart by ``cmd``."""
    def request(cmd: str, **more: dict) -> dict:
        return _object({"cmd": {"const": cmd}} | more)
    requests = [request("hello", protocol={"const": DRIVER_PROTOCOL}, variant={"type": "string"},
                        spec_hash={"type": "string"}),
                request("position", position=_POSITION), request("position?"), request("legal"),
                request("apply", action={"$ref": "#/$defs/action"}), request("score"),
                request("perft", depth={"type": "integer", "minimum": 1}), request("quit")]
    return {"$schema": DIALECT, "title": f"a request of {DRIVER_PROTOCOL} for {variant.ir.name}",
            "$defs": _driver_defs(variant), "oneOf": requests}


def answer_def(cmd: str | None) -> str:
    """The name under the answer schema's ``$defs`` of the answer to a request (by its
    ``cmd``; None for a refusal): ``answer-legal``, ``answer-position-query`` for
    ``position?``, ``answer-refused``."""
    return "answer-" + ("refused" if cmd is None else cmd.replace("?", "-query"))


def driver_answer_schema(variant: Variant) -> dict:
    """An engine's answer to a driver's request: under ``$defs`` the answer to each
    request (:func:`answer_def` names it: ``position`` and ``apply`` are answered
    ``{"ok": true}``) and to a request the engine refuses; the schema itself accepts any
    of them."""
    ok = {"ok": {"const": True}}
    answers = {
        "hello": _object(ok | {"protocol": {"const": DRIVER_PROTOCOL},
                               "supports": {"type": "array", "items": {"enum": ["position", *DRIVER_CHECKS]},
                                            "uniqueItems": True, "contains": {"const": "position"}}},
                         {"engine": {"type": "string"}}),
        "position": _object(ok),
        "position?": _object(ok | {"position": _POSITION}),
        "legal": _object(ok | {"legal": {"type": "array", "items": {"$ref": "#/$defs/action"}, "uniqueItems": True}}),
        "apply": _object(ok),
        "score": _object(ok | {"breakdown": _breakdown(variant), "winners": _WINNERS}),
        "perft": _object(ok | {"counts": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1},
                               "divide": {"type": "object", "propertyNames": {"$ref": "#/$defs/action"},
                                          "additionalProperties": {"type": "integer", "minimum": 0}}}),
        None: _object({"ok": {"const": False}, "error": {"type": "string"}}),
    }
    defs = {answer_def(cmd): schema for cmd, schema in answers.items()}
    return {"$schema": DIALECT, "title": f"an answer of {DRIVER_PROTOCOL} for {variant.ir.name}",
            "$defs": _driver_defs(variant) | defs, "anyOf": [{"$ref": f"#/$defs/{name}"} for name in defs]}


#: Any JSON value a rule record's field may hold.
_RULE_VALUE = {"$ref": "#/$defs/value"}
_VALUE = {"anyOf": [{"type": ["number", "string", "boolean", "null"]},
                    {"type": "array", "items": _RULE_VALUE},
                    {"type": "object", "additionalProperties": _RULE_VALUE}]}
_COUNT = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string"}
_ID = {"type": "integer", "minimum": 0}


def variant_schema() -> dict:
    """The document ``railspec export`` prints (docs/formats.md, "Variant"): the same for
    every variant, since the document carries the names it uses."""
    attribute = _object({"name": _TEXT, "value": _RULE_VALUE, "mechanic": {"type": ["string", "null"]}})
    route = _object({"id": _ID, "name": _TEXT, "a": _TEXT, "b": _TEXT, "length": {"type": "integer", "minimum": 1},
                     "colour": _TEXT, "gray": {"type": "boolean"}, "points": {"type": "integer"}, "trains": _COUNT,
                     "group": _ID, "track": {"type": "integer", "minimum": 1},
                     "tracks": {"type": "integer", "minimum": 1}, "attributes": {"type": "array", "items": attribute}})
    destination = _object({"place": _TEXT, "points": {"type": "integer"}})
    ticket = _object({"id": _ID, "name": _TEXT, "from": _TEXT, "to": _TEXT, "points": {"type": "integer"},
                      "deck": _TEXT, "destinations": {"type": "array", "items": destination, "minItems": 1}})
    game = _object({name: _COUNT for name in ("trains", "hand", "market_size", "market_reset_locomotives",
                                              "deal_regular", "deal_keep", "draw_cards", "draw_tickets",
                                              "draw_tickets_keep", "end_trains")}
                   | {"deal_parts": {"type": "array", "items": _object({"deck": _TEXT, "count": _COUNT})},
                      "route_points": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
                      "tiebreaks": {"type": "array", "items": _TEXT}})
    properties = {
        "format": {"const": export.FORMAT}, "variant": _TEXT, "name": _TEXT, "spec_hash": _TEXT,
        "sources": {"type": "array", "items": _TEXT}, "provisional": _TEXT,
        "players": _object({"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}}),
        "game": game,
        "cards": {"type": "array", "minItems": 1, "items": _object(
            {"id": _ID, "name": _TEXT, "count": _COUNT, "locomotive": {"type": "boolean"}})},
        "cities": {"type": "array", "items": _object({"id": _ID, "name": _TEXT, "dead_end": {"type": "boolean"}})},
        "routes": {"type": "array", "items": route},
        "tickets": {"type": "array", "items": ticket},
        "decks": _object({"train_cards": _COUNT,
                          "tickets": {"type": "object", "additionalProperties": {"type": "array", "items": _TEXT}}}),
        "payment_columns": {"type": "array", "items": _object({"name": _TEXT, "mechanic": _TEXT, "text": _TEXT})},
        "phases": {"type": "array", "items": _TEXT},
        "breakdown": {"type": "array", "items": _TEXT, "contains": {"const": "total"}},
        "mechanics": {"type": "array", "items": _object({"name": _TEXT, "title": _TEXT, "rule": {
            "type": "object", "additionalProperties": _RULE_VALUE}})},
    }
    return {"$schema": DIALECT, "title": f"a variant exported by railspec ({export.FORMAT})",
            "$defs": {"value": _VALUE}} | _object(properties)


def all_schemas(variant) -> dict[str, dict]:
    """Every schema, by the name its file takes (``NAME.schema.json``)."""
    return {"position": position_schema(variant), "games": games_schema(variant),
            "scores": scores_schema(variant), "perft": perft_schema(variant), "trace": trace_schema(variant),
            "driver-request": driver_request_schema(variant), "driver-answer": driver_answer_schema(variant),
            "variant": variant_schema()}


__all__ = ["all_schemas", "position_schema", "games_schema", "scores_schema", "perft_schema", "trace_schema",
           "driver_request_schema", "driver_answer_schema", "variant_schema", "state_schema"]
