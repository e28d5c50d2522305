"""The game API, one face over both engines (DESIGN.md, "The game API").

A :class:`Variant` holds the facts of a variant (its IR tables and action catalogue) and
makes games; a :class:`Game` is one position in play. The engine behind a game is either
the compiled module generated for the variant (``engine="compiled"``, the default) or the
reference interpreter (``engine="reference"``); both follow docs/engine.md, so a seed and a
list of actions mean the same game in either.
"""
from __future__ import annotations

import functools
import json
import warnings
from pathlib import Path

from . import reference, state_format
from .compiler import ir
from .compiler.assembly import assemble, refuse_unimplemented
from .errors import IllegalActionError, ProvisionalSpecWarning, RailspecError
from .scoring import rows_of_playout, winners as _winners

ENGINES = ("compiled", "reference")


class Game:
    """One game in progress. Ask it for legal actions, apply one, repeat until ``is_over``."""

    __slots__ = ("variant", "engine", "_e")

    def __init__(self, variant: "Variant", engine_name: str, backend):
        self.variant = variant
        self.engine = engine_name
        self._e = backend

    # --- playing ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to decide next (0-based); -1 once the game is over."""
        return self._e.current_player

    @property
    def is_over(self) -> bool:
        """True once the game has ended (after the last round, or when nobody can act)."""
        return self._e.is_over

    @property
    def players(self) -> int:
        return self._e.players

    def legal_actions(self) -> list[int]:
        """The ids of every action legal now, ascending."""
        return self._e.legal_actions()

    def legal_actions_into(self, buffer) -> int:
        """Write the legal ids into ``buffer`` (e.g. ``array('i', [0] * len(v.actions))``)
        and return how many there are: the cheap way to get them in a tight loop."""
        if self.engine == "compiled":
            return self._e.legal_actions_into(buffer)
        legal = self._e.legal_actions()
        for i, a in enumerate(legal):
            buffer[i] = a
        return len(legal)

    def apply(self, action: int) -> None:
        """Play one decision by its id. An id that is not legal now raises
        :class:`IllegalActionError` and leaves the game exactly as it was."""
        try:
            self._e.apply(action)
        except (TypeError, OverflowError):
            raise IllegalActionError(action, "an action is an integer id from the catalogue") from None

    def apply_name(self, name: str) -> None:
        """Play the action with this readable name (as :meth:`action_name` prints it)."""
        self.apply(self.variant.action_id(name))

    def action_name(self, action: int) -> str:
        """The readable name of an action id, e.g. ``claim Denver-Omaha pink 3pink+1loco``."""
        return self.variant.action_name(action)

    def clone(self) -> "Game":
        """An independent copy: playing on it never changes this game."""
        return Game(self.variant, self.engine, self._e.copy())

    # --- scoring ---------------------------------------------------------------
    def score_breakdown(self) -> list[dict]:
        """Per player: the core's items (routes, tickets, tickets_completed), each
        mechanic's (e.g. longest_path, longest_bonus), then total. Before the end it scores
        the board as if the game ended now."""
        return self._e.score_breakdown()

    def longest_path(self, player: int) -> int:
        """The player's longest continuous path now, in train cars (loops allowed, no
        route used twice); 0 in a variant without a longest-path bonus."""
        method = getattr(self._e, "longest_path", None)
        if method is None:
            if not isinstance(player, int) or not 0 <= player < self.players:
                raise ValueError(f"no player {player!r} in a {self.players}-player game")
            return 0
        return method(player)

    def scores(self) -> list[int]:
        """Each player's total (see :meth:`score_breakdown`)."""
        return [row["total"] for row in self._e.score_breakdown()]

    def winners(self) -> list[int]:
        """The winning seats after the variant's tie-breakers (several if still tied)."""
        return _winners(self.variant.ir, self._e.score_breakdown(), self.variant.registry)

    # --- state -----------------------------------------------------------------
    def state(self) -> dict:
        """The full state as plain data (docs/engine.md, "State as JSON")."""
        return self._e.export_state()

    def to_json(self) -> str:
        """The full state as compact JSON; :meth:`Variant.game_from_json` reads it back."""
        return json.dumps(self._e.export_state(), separators=(",", ":"))

    def observation(self, player: int | None = None) -> dict:
        """What one player may see (the state schema's views): their own hand, tickets and
        the offer they are deciding on, and the public board (market, route owners,
        trains, hand sizes, ticket counts, pile sizes, each mechanic's public fields).
        Defaults to the player about to decide."""
        return state_format.observation(self.variant.ir, self._e.export_state(),
                                        self.current_player if player is None else player,
                                        self.variant.registry)

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"player {self.current_player} to decide"
        return f"<Game {self.variant.key} {self.players}p {self.engine}: {status}>"


class Variant:
    """A compiled variant: its facts (``cities``, ``routes``, ``tickets``, ``actions``) and a
    factory for games. Get one with :func:`railspec.load`."""

    def __init__(self, variant_ir: ir.Variant, module=None, registry=None):
        from .mechanics import default_registry
        self.ir = variant_ir
        self.registry = registry or default_registry()
        self.assembly = assemble(variant_ir, self.registry)
        self._module = module
        self._names = {a.name: a.id for a in variant_ir.actions}

    # --- facts -------------------------------------------------------------------
    key = property(lambda self: self.ir.key, doc="Short name (the spec file's stem).")
    name = property(lambda self: self.ir.name, doc="Display name from the spec.")
    spec_hash = property(lambda self: self.ir.spec_hash, doc="Hash of the IR (not of the formatting).")
    cities = property(lambda self: self.ir.cities, doc="The IR's cities, by id.")
    routes = property(lambda self: self.ir.routes, doc="The IR's routes, by id.")
    tickets = property(lambda self: self.ir.tickets, doc="The IR's tickets, by id.")
    colours = property(lambda self: self.ir.colours, doc="The card colours, by id.")
    actions = property(lambda self: self.ir.actions, doc="The action catalogue, by id.")

    def action_name(self, action: int) -> str:
        """The readable name of an action id."""
        if not isinstance(action, int) or not 0 <= action < len(self.ir.actions):
            raise IllegalActionError(action, f"no action has id {action!r}")
        return self.ir.actions[action].name

    def action_id(self, name: str) -> int:
        """The id of the action with this readable name."""
        try:
            return self._names[name]
        except KeyError:
            raise IllegalActionError(name, f"{self.name} has no action named {name!r}") from None

    # --- games -------------------------------------------------------------------
    def module(self, build_if_needed: bool = True):
        """The compiled engine module, built (or fetched from the cache) on first use.
        With ``build_if_needed=False``: None rather than running the C compiler."""
        if self._module is None:
            from .compiler.build import build
            from .compiler.emit import emit
            self._module = build(self.ir, emit(self.ir, self.registry), compile_if_missing=build_if_needed)
        return self._module

    def _check_players(self, players: int) -> None:
        self.ir.check_players(players)

    def new_game(self, players: int = 2, seed: int = 0, engine: str = "compiled") -> Game:
        """A new game, set up from ``seed`` (docs/engine.md, "Set-up")."""
        self._check_players(players)
        seed = int(seed) % 2**64
        if engine == "compiled":
            return Game(self, engine, self.module().Engine(players, seed))
        if engine == "reference":
            return Game(self, engine, reference.ReferenceEngine(self.ir, players, seed, self.registry))
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")

    def game_from_state(self, state: dict, engine: str = "compiled") -> Game:
        """A game from :meth:`Game.state` data, checked first."""
        state_format.validate(self.ir, state, self.registry)
        if engine == "compiled":
            return Game(self, engine, self.module().Engine.from_state(state))
        if engine == "reference":
            return Game(self, engine, reference.ReferenceEngine.from_state(self.ir, state, self.registry))
        raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")

    def game_from_json(self, text: str, engine: str = "compiled") -> Game:
        """A game from :meth:`Game.to_json` text."""
        try:
            state = json.loads(text)
        except (json.JSONDecodeError, TypeError) as err:
            raise state_format.StateError(f"not a railspec state: {err}") from None
        return self.game_from_state(state, engine)

    def playout(self, games: int = 1000, players: int = 4, seed: int = 1, engine: str = "compiled") -> dict:
        """Random games run wholly inside the engine (the compiled one without the GIL).

        Returns lists per game: ``totals`` and every other breakdown item per seat (e.g.
        ``tickets_completed``, ``longest_path``), ``decisions``, ``turns``, ``stalled``
        (ended because nobody could act), and ``winners`` (seats, after tie-breakers)."""
        self._check_players(players)
        if engine == "compiled":
            result = self.module().playout(int(games), players, int(seed) % 2**64)
        elif engine == "reference":
            result = reference.playout(self.ir, int(games), players, int(seed) % 2**64, self.registry)
        else:
            raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
        result["winners"] = [_winners(self.ir, rows, self.registry)
                             for rows in rows_of_playout(result, self.assembly.breakdown_keys)]
        return result

    def score(self, position: dict) -> list[dict]:
        """Score a described position (see :func:`railspec.score`): each player's
        breakdown plus ``winner``. The compiled engine scores it when its module is at hand
        without compiling (a stock variant, or one built before); the reference otherwise."""
        from .position import position_fields
        fields = position_fields(self.ir, position, self.registry)
        module = self.module(build_if_needed=False)
        if module is not None:
            rows = module.Engine.for_scoring(fields).score_breakdown()
        else:
            rows = reference.score_fields(self.ir, fields, self.registry)
        best = set(_winners(self.ir, rows, self.registry))
        for p, row in enumerate(rows):
            row["winner"] = p in best
        return rows

    def __repr__(self) -> str:
        return (f"<Variant {self.name}: {len(self.cities)} cities, {len(self.routes)} routes, "
                f"{len(self.tickets)} tickets, {len(self.actions)} actions>")


def load(name_or_path: str | Path, registry=None) -> Variant:
    """A variant by stock name (``"usa"``) or by the path of a ``.rail`` spec file.

    The spec is checked (a bad one raises a located :class:`SpecError`) and refused with
    :class:`UnsupportedMechanicError` when it uses a mechanic the engines do not implement
    yet; the compiled engine is fetched lazily, from the installed stock modules or the
    build cache. A stock variant loaded twice in a process is read once. ``registry`` is
    the set of mechanics (the stock ones by default)."""
    from . import compiler
    from .mechanics import default_registry
    registry = registry or default_registry()
    text = str(name_or_path)
    looks_like_path = isinstance(name_or_path, Path) or text.endswith(".rail") or "/" in text or "\\" in text
    path = None if looks_like_path else compiler.stock_path_or_none(text)
    if path is not None:
        return _warn_if_provisional(_load_stock(text, registry, _file_key(path)))
    if not looks_like_path and not Path(text).is_file():
        raise RailspecError(f"no stock variant named {text!r} (stock: {', '.join(compiler.stock_names())})")
    return _warn_if_provisional(_load_path(Path(text), registry))


def _file_key(path: Path):
    stat = path.stat()
    return (str(path), stat.st_mtime_ns, stat.st_size)


def _load_path(path: Path, registry) -> Variant:
    from . import compiler
    variant_ir = compiler.check_file(path, registry)
    refuse_unimplemented(variant_ir, registry)
    return Variant(variant_ir, registry=registry)


def _warn_if_provisional(variant: Variant) -> Variant:
    if variant.ir.provisional:
        warnings.warn(ProvisionalSpecWarning(f"{variant.name} is PROVISIONAL: {variant.ir.provisional}"),
                      stacklevel=3)
    return variant


@functools.lru_cache(maxsize=16)
def _load_stock(name: str, registry, file_key) -> Variant:
    # keyed by the spec file's path, time and size: an edited stock spec is read again
    return _load_path(Path(file_key[0]), registry)
