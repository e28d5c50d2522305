"""railspec's own engines behind the driver protocol (docs/conformance.md): the starting
point of an adapter for an engine of your own.

    railspec test-engine usa -- python examples/conformance/railspec_engine.py [--engine reference]
        [--supports legal,apply,position,score,perft]

It reads one JSON request a line from standard input and answers each with one line on
standard output, as the protocol asks. Everything it knows of the rules comes from
railspec's API: the variant named in ``hello`` (a stock name, or ``--spec FILE.rail`` for
another), positions through ``Variant.game_from_position`` and ``Game.position``, actions
by name.
"""
from __future__ import annotations

import argparse
import json
import sys

import railspec
from railspec.tools import perft

PROTOCOL = "railspec-driver/1"
#: Everything an engine may support (docs/conformance.md, "The driver protocol").
SUPPORTS = ("legal", "apply", "position", "score", "perft")


class Adapter:
    """One engine of railspec's behind the protocol: a method per request."""

    def __init__(self, engine: str, spec: str | None, supports: tuple[str, ...] = SUPPORTS):
        self.engine, self.spec, self.supports = engine, spec, supports
        self.variant = None
        self.game = None

    def hello(self, request: dict) -> dict:
        self.variant = railspec.load(self.spec or request.get("variant"))
        if request.get("spec_hash") != self.variant.spec_hash:
            return {"ok": False, "error": f"this engine plays spec {self.variant.spec_hash}, "
                                          f"not {request.get('spec_hash')}"}
        return {"ok": True, "protocol": PROTOCOL, "engine": f"railspec {railspec.__version__} ({self.engine})",
                "supports": list(self.supports)}

    def position(self, request: dict) -> dict:
        self.game = self.variant.game_from_position(request["position"], engine=self.engine)
        return {"ok": True}

    def get_position(self, request: dict) -> dict:
        return {"ok": True, "position": self.game.position()}

    def legal(self, request: dict) -> dict:
        return {"ok": True, "legal": [self.game.action_name(a) for a in self.game.legal_actions()]}

    def apply(self, request: dict) -> dict:
        action = self.variant.action_id(request["action"])
        if action not in self.game.legal_actions():
            return {"ok": False, "error": f"{request['action']!r} is not legal here"}
        self.game.apply(action)
        return {"ok": True}

    def score(self, request: dict) -> dict:
        return {"ok": True, "breakdown": self.game.score_breakdown(), "winners": self.game.winners()}

    def perft(self, request: dict) -> dict:
        depth = request["depth"]
        return {"ok": True, "counts": perft.counts(self.game, depth), "divide": perft.divide(self.game, depth)}


def _supports(text: str) -> tuple[str, ...]:
    names = tuple(n for n in text.split(",") if n)
    if not set(names) <= set(SUPPORTS):
        raise argparse.ArgumentTypeError(f"supports: some of {','.join(SUPPORTS)}, not {text!r}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["compiled", "reference"], default="reference")
    parser.add_argument("--spec", help="the spec to play (default: the stock variant hello names)")
    parser.add_argument("--supports", type=_supports, default=SUPPORTS,
                        help="what the hello says it supports (the rest is refused): a comma-separated "
                             f"subset of {','.join(SUPPORTS)}")
    args = parser.parse_args(argv)
    adapter = Adapter(args.engine, args.spec, args.supports)
    handlers = {"hello": adapter.hello, "position": adapter.position, "position?": adapter.get_position,
                "legal": adapter.legal, "apply": adapter.apply, "score": adapter.score, "perft": adapter.perft}
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if request.get("cmd") == "quit":
                break
            command = request.get("cmd")
            handler = handlers.get(command)
            if handler is None:
                answer = {"ok": False, "error": f"no command {command!r}"}
            elif command != "hello" and ("position" if command == "position?" else command) not in adapter.supports:
                answer = {"ok": False, "error": f"{command!r} is not supported here"}
            elif command != "hello" and adapter.variant is None:
                answer = {"ok": False, "error": "hello first"}
            elif command not in ("hello", "position") and adapter.game is None:
                answer = {"ok": False, "error": "no position yet"}
            else:
                answer = handler(request)
        except (railspec.RailspecError, ValueError, KeyError, TypeError) as err:
            answer = {"ok": False, "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
