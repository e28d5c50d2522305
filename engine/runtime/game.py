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
import operator
import reprlib
import sys
import threading
import warnings
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from .. import compiler
from ..compiler import ir, observation
from ..compiler.assembly import assemble, refuse_unsupported
from ..compiler.base.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    ProvisionalSpecWarning,
    RailspecError,
)
from ..compiler.base.text import canonical
from ..compiler.build import load_module
from ..compiler.emit import emit
from ..compiler.engine_face import is_native_int
from ..compiler.mechanic import Questions, default_registry, part
from ..compiler.specs import stock_key_of
from . import determinize, notation, reference, state_format
from .position import position_fields
from .scoring import playout_winners, tiebreak_plan
from .scoring import winners as _winners

ENGINES = ("compiled", "reference")

#: The most games one ``playout`` call plays: its result holds several Python lists per
#: game, and the compiled engine counts games in a C int. Call again (with ``seed +
#: games``) for more.
MAX_PLAYOUT_GAMES = 1_000_000

_show = reprlib.Repr()
_show.maxstring = _show.maxother = 40


def _integer(value, what: str) -> int:
    """``value`` as an int when it is one (or an integer-like object such as a numpy
    integer); a bool, a float (even 7.0), a string or None is refused by type, so that
    a seed or a count is never silently truncated or parsed."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ArgumentTypeError(f"{what} is an integer, not {_show.repr(value)} ({type(value).__name__})")


def _seed(seed) -> int:
    """A game seed, taken modulo 2^64 (docs/engine.md, "The random generator")."""
    return _integer(seed, "a seed") % 2**64


def _engine_name(engine) -> str:
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ArgumentError(f"engine must be one of {ENGINES}, not {_show.repr(engine)}")
    return engine


_BUFFER_HINT = "legal_actions_into needs a writable, contiguous buffer of C int (e.g. array('i', [0] * len(v.actions)))"


def _byte_format(fmt: str, codes: str) -> bool:
    """Whether a buffer format is one of the native item ``codes`` (a native or
    little-endian byte order mark allowed on a little-endian machine)."""
    if fmt[:1] in ("@", "=") or (fmt[:1] == "<" and sys.byteorder == "little"):
        fmt = fmt[1:]
    return len(fmt) == 1 and fmt in codes


def _items_of(codes: str, itemsize: int):
    """A buffer test: items of one of the native ``codes``, ``itemsize`` bytes each."""
    return lambda fmt, size: size == itemsize and _byte_format(fmt, codes)


def _typed_buffer(buffer: Any, needed: int, method: str, hint: str, fits: Callable[[str, int], bool],
                  code: Literal["i", "f", "B"], unit: str) -> memoryview[Any]:
    """``buffer`` as a flat writable view of its items (``code``: the C int of
    legal_actions_into, a float, a byte) with room for ``needed`` of them, or the named
    error saying what is wrong with it; ``fits(format, itemsize)`` says whether its items
    are the method's. Nothing is written."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ArgumentTypeError(f"{hint}, not {type(buffer).__name__}") from None
    if view.readonly:
        raise ArgumentTypeError(f"{hint}: this {type(buffer).__name__} is read-only")
    if not fits(view.format, view.itemsize):
        raise ArgumentTypeError(f"{hint}: got items of format {view.format!r} and {view.itemsize} bytes")
    if not view.c_contiguous:
        raise ArgumentTypeError(f"{hint}: this one is not contiguous")
    items = view.cast("B").cast(code)
    if len(items) < needed:
        raise ArgumentError(f"{method}: the buffer holds {len(items)} {unit}, {needed} are needed")
    return items


_OBSERVATION_HINT = ("observation_into needs a writable, contiguous float32 buffer "
                     "(e.g. numpy.zeros(v.observation_spec().size, numpy.float32))")
_MASK_HINT = "action_mask_into needs a writable, contiguous int8 buffer (e.g. numpy.zeros(len(v.actions), numpy.int8))"


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
            try:
                return self._e.legal_actions_into(buffer)
            except (TypeError, ValueError, BufferError):
                pass  # refused before writing anything: the checks below say why, as for the reference
        legal = self._e.legal_actions()
        ints = _typed_buffer(buffer, len(legal), "legal_actions_into", _BUFFER_HINT, is_native_int, "i", "ints")
        if legal:
            ints[:len(legal)] = array("i", legal)
        return len(legal)

    def observation_into(self, player: int, buffer) -> int:
        """Write ``player``'s observation vector (docs/rl.md; the layout of
        ``v.observation_spec()``) into the first floats of ``buffer``, a writable,
        contiguous float32 buffer at least that long (e.g. a numpy vector reused in a loop),
        and return its length. The compiled engine fills it in C from its state; the
        reference engine with :func:`railspec.compiler.observation.fill`: the same floats."""
        player = self._player(player)
        if self.engine == "compiled":
            try:
                return self._e.observation_into(player, buffer)
            except (TypeError, ValueError, BufferError):
                pass  # refused before writing anything: the checks below say why, as for the reference
        assembly = self.variant.assembly
        size = observation.observation_spec(assembly).size
        floats = _typed_buffer(buffer, size, "observation_into", _OBSERVATION_HINT, _items_of("f", 4), "f", "floats")
        vector = observation.fill(assembly, self._e.export_state(), player)
        floats[:size] = memoryview(vector).cast("B").cast("f")
        return size

    def action_mask_into(self, buffer) -> int:
        """Write the legal-action mask into the first ``len(v.actions)`` bytes of ``buffer``
        (a writable, contiguous int8, uint8 or bool buffer): 1 at every legal id, 0
        elsewhere, all zeros once the game is over. Returns how many actions are legal."""
        if self.engine == "compiled":
            try:
                return self._e.action_mask_into(buffer)
            except (TypeError, ValueError, BufferError):
                pass  # refused before writing anything: the checks below say why, as for the reference
        n = len(self.variant.ir.actions)
        mask = _typed_buffer(buffer, n, "action_mask_into", _MASK_HINT, _items_of("Bb?", 1), "B", "bytes")
        legal = [] if self.is_over else self._e.legal_actions()
        mask[:n] = bytes(n)
        for action in legal:
            mask[action] = 1
        return len(legal)

    def agent_view(self, player: int | None = None) -> list[int]:
        """The player to move's agent view, the ints compiled helpers decide from
        (docs/agents.md, "The agent view"): what that player sees of their hand, trains,
        tickets and offer, every route's owner, and which routes the rules let them claim.
        The same list on both engines. With ``player``, that seat's view of the same moment
        (a search reads every seat of a world it drew; the offer is in it only while that
        seat is choosing)."""
        if self.is_over:
            raise ArgumentError("the game is over: nobody is to move")
        if player is None:
            return self._e.agent_view()
        return self._e.agent_view(self._player(player))

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

    def completed_tickets(self, player: int) -> list[int]:
        """The tickets ``player`` holds that their network completes now, as scoring counts
        them (a station's borrowed route, a mechanic's own tickets included), in the order
        held."""
        return self._e.completed_tickets(self._player(player))

    def _player(self, player) -> int:
        """A seat index of this game, or the named error."""
        player = _integer(player, "a player index")
        if not 0 <= player < self.players:
            raise ArgumentError(f"no player {player} in a {self.players}-player game")
        return player

    def scores(self) -> list[int]:
        """Each player's total (see :meth:`score_breakdown`)."""
        return [row["total"] for row in self._e.score_breakdown()]

    def winners(self) -> list[int]:
        """The winning seats after the variant's tie-breakers (several if still tied)."""
        return _winners(self.variant.ir, self._e.score_breakdown())

    # --- state -----------------------------------------------------------------
    def state(self) -> dict:
        """The full state as plain data (docs/engine.md, "State as JSON")."""
        return self._e.export_state()

    def to_json(self) -> str:
        """The full state as compact JSON; :meth:`Variant.game_from_json` reads it back."""
        return json.dumps(self._e.export_state(), separators=(",", ":"))

    def position(self) -> dict:
        """The full state in the position notation, JSON form (docs/conformance.md): every
        part written with the spec's names; :meth:`Variant.game_from_position` reads it."""
        return notation.to_position(self.variant.ir, self._e.export_state())

    def position_line(self) -> str:
        """The full state in the position notation's one-line form."""
        return notation.dumps_line(self.variant.ir, self._e.export_state())

    def observation(self, player: int | None = None) -> dict:
        """What one player may see (the state schema's views): their own hand, tickets and
        the offer they are deciding on, and the public board (market, route owners,
        trains, hand sizes, ticket counts, pile sizes, each mechanic's public fields).
        Defaults to the player about to decide (a finished game has none: name one)."""
        if player is None:
            if self.is_over:
                raise ArgumentError("the game is over, nobody is to decide: name the player to observe")
            player = self.current_player
        # export_state builds new lists in both engines, so the view may hand them out
        return state_format.observation(self.variant.ir, self._e.export_state(), self._player(player), fresh=True)

    def resample(self, player: int, seed: int) -> "Game":
        """A new game on the same engine in one world consistent with what ``player`` sees
        of this one: the deck's order, the opponents' hands and tickets, the ticket decks
        and the game's generator redrawn from ``seed``, everything the player sees kept
        (:func:`railspec.runtime.determinize.resample`; docs/agents.md, "Determinization")."""
        player, seed = self._player(player), _seed(seed)
        if self.engine == "compiled":
            # the same world drawn on the engine's struct (no state dict made and read back);
            # None in a mechanic's phase, where the Python draw's validator is needed
            drawn = self._e.resampled(player, seed)
            if drawn is not None:
                return Game(self.variant, self.engine, drawn)
        world = determinize.resample(self.variant.ir, self._e.export_state(), player, seed)
        # the world is a valid state by construction: no validator
        if self.engine == "compiled":
            return Game(self.variant, self.engine, self.variant.module().Engine.from_state(world))
        return Game(self.variant, self.engine, reference.ReferenceEngine.from_state(self.variant.ir, world))

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"player {self.current_player} to decide"
        return f"<Game {self.variant.key} {self.players}p {self.engine}: {status}>"


#: The mechanics' queries made methods of Game so far, by name: whether each takes a player.
_QUERY_METHODS: dict[str, bool] = {}


def _query_method(name: str, doc: str, per_player: bool):
    """The Game method of a mechanic's query ``name``: it asks the game's own variant which
    mechanic answers it, then that engine, or gives the query's stated answer when the
    variant does not use the mechanic."""
    def unanswered(game, found):
        if found is None:
            raise RailspecError(f"{name}(): no mechanic of this variant's registry answers it")
        if found[0].absent is None:
            raise RailspecError(f"{name}(): this variant does not use the mechanic that answers it")
        return found[0].absent

    # the common case first and flat: the game's variant uses the mechanic (a query may be
    # asked in a search's inner loop)
    ask: Callable[..., Any]
    if per_player:
        def ask_of_player(self, player):
            player = self._player(player)
            found = self.variant.query_table.get(name)
            if found is not None and found[1]:
                return getattr(self._e, name)(player)
            return unanswered(self, found)
        ask = ask_of_player
    else:
        def ask_of_game(self):
            found = self.variant.query_table.get(name)
            if found is not None and found[1]:
                return getattr(self._e, name)()
            return unanswered(self, found)
        ask = ask_of_game
    ask.__name__ = ask.__qualname__ = name
    ask.__doc__ = doc
    return ask


def offer_queries(registry) -> None:
    """Make each query of ``registry``'s mechanics a method of :class:`Game`, once per name.
    (Methods on the class, not a ``__getattr__``: that would slow every attribute of every
    game.)"""
    for mechanic in registry:
        for query in part(mechanic, Questions).queries:
            known = _QUERY_METHODS.get(query.name)
            if known is not None:
                if known != query.player:
                    raise RailspecError(f"mechanic {mechanic.name}: its query {query.name!r} takes "
                                        f"{'a player' if query.player else 'no argument'}, another mechanic's "
                                        f"of that name does not")
                continue
            if hasattr(Game, query.name):
                raise RailspecError(f"mechanic {mechanic.name}: its query {query.name!r} would hide "
                                    f"Game.{query.name}")
            setattr(Game, query.name, _query_method(query.name, query.doc, query.player))
            _QUERY_METHODS[query.name] = query.player


class Variant:
    """A compiled variant: its facts (``cities``, ``routes``, ``tickets``, ``actions``) and a
    factory for games. Get one with :func:`railspec.load`."""

    def __init__(self, variant_ir: ir.Variant, module=None):
        self.ir = variant_ir
        self.registry = variant_ir.registry
        self.assembly = assemble(variant_ir)
        self._module = module
        self._names = {a.name: a.id for a in variant_ir.actions}
        #: each query of the registry's mechanics (Mechanic.queries), by name: (query, whether
        #: this variant uses the mechanic that answers it)
        self.query_table = variant_ir.registry.queries(variant_ir)
        offer_queries(variant_ir.registry)

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
        try:
            index = _integer(action, "an action id")
        except ArgumentTypeError:
            index = -1
        if not 0 <= index < len(self.ir.actions):
            raise IllegalActionError(action, f"no action has id {_show.repr(action)}")
        return self.ir.actions[index].name

    def action_id(self, name: str) -> int:
        """The id of the action with this readable name."""
        if isinstance(name, str):
            name = canonical(name)
        if not isinstance(name, str) or name not in self._names:
            raise IllegalActionError(name, f"{self.name} has no action named {_show.repr(name)}")
        return self._names[name]

    # --- games -------------------------------------------------------------------
    def module(self, build_if_needed: bool = True):
        """The compiled engine module, built (or fetched from the cache) on first use.
        With ``build_if_needed=False``: None rather than running the C compiler."""
        if self._module is None:
            self._module = load_module(self.ir, lambda: emit(self.ir), compile_if_missing=build_if_needed)
        return self._module

    def observation_spec(self):
        """The layout of this variant's observation vectors, slice by slice
        (:func:`railspec.compiler.observation.observation_spec`)."""
        return observation.observation_spec(self.assembly)

    def check_players(self, players) -> int:
        """``players`` as an int when the variant is for that many, or the named error."""
        players = _integer(players, "the number of players")
        try:
            return self.ir.check_players(players)
        except ValueError as err:
            raise ArgumentError(str(err)) from None

    def new_game(self, players: int = 2, seed: int = 0, engine: str = "compiled") -> Game:
        """A new game, set up from ``seed`` (docs/engine.md, "Set-up"). ``players`` and
        ``seed`` are integers (a float, even 7.0, is refused); the seed is taken modulo
        2^64."""
        players, seed, engine = self.check_players(players), _seed(seed), _engine_name(engine)
        if engine == "compiled":
            return Game(self, engine, self.module().Engine(players, seed))
        return Game(self, engine, reference.ReferenceEngine(self.ir, players, seed))

    def game_from_state(self, state: dict, engine: str = "compiled") -> Game:
        """A game from :meth:`Game.state` data, checked first."""
        engine = _engine_name(engine)
        state_format.validate(self.ir, state)
        if engine == "compiled":
            return Game(self, engine, self.module().Engine.from_state(state))
        return Game(self, engine, reference.ReferenceEngine.from_state(self.ir, state))

    def game_from_position(self, position, engine: str = "compiled") -> Game:
        """A game from a position in the notation (docs/conformance.md): its JSON form (a
        dict) or its one-line form (a str); checked as :meth:`game_from_state` checks."""
        _engine_name(engine)
        if isinstance(position, str):
            state = notation.loads_line(self.ir, position)
        else:
            state = notation.from_position(self.ir, position)
        return self.game_from_state(state, engine)

    def game_from_json(self, text: str, engine: str = "compiled") -> Game:
        """A game from :meth:`Game.to_json` text, checked as :meth:`game_from_state` checks."""
        engine = _engine_name(engine)
        state = state_format.loads(text)
        if engine == "compiled" and state_format.holds_no_booleans(text):
            # the compiled loader checks each field's shape and range as the validator does
            # (the same bounds; JSON without true or false gives no bool to tell apart), so
            # the validator checks the keys and the rules only; on any refusal it says why
            try:
                loaded = self.module().Engine.from_state(state)
            except (ValueError, TypeError, KeyError, OverflowError, AttributeError):
                loaded = None
            if loaded is not None:
                state_format.validate(self.ir, state, shapes_checked=True)
                return Game(self, engine, loaded)
        return self.game_from_state(state, engine)

    def playout(self, games: int = 1000, players: int = 4, seed: int = 1, engine: str = "compiled",
                workers: int = 1) -> dict:
        """Random games run wholly inside the engine (the compiled one without the GIL).

        Returns lists per game: ``totals`` and every other breakdown item per seat (e.g.
        ``tickets_completed``, ``longest_path``), ``decisions``, ``turns``, ``stalled``
        (ended because nobody could act), and ``winners`` (seats, after tie-breakers: the
        compiled engine names them, tie-breaks included, when every key of the variant is
        data it can read, and leaves only the tied games to :func:`scoring.winners`
        otherwise; docs/engine.md "Random playouts").
        ``games`` is 0 to :data:`MAX_PLAYOUT_GAMES`. ``workers``: threads sharing the games
        of the compiled engine (each runs without the GIL, so they use as many cores);
        game ``i`` is the same game whatever the number of workers."""
        games = _integer(games, "the number of games")
        if not 0 <= games <= MAX_PLAYOUT_GAMES:
            raise ArgumentError(f"games must be 0 to {MAX_PLAYOUT_GAMES:,} per playout call, not {games}")
        workers = _integer(workers, "the number of workers")
        if workers < 1:
            raise ArgumentError(f"workers must be 1 or more, not {workers}")
        players, seed, engine = self.check_players(players), _seed(seed), _engine_name(engine)
        keys = self.assembly.breakdown_keys
        if engine == "reference":
            result = reference.playout(self.ir, games, players, seed)
            result["winners"] = playout_winners(self.ir, result, keys)
            return result
        # the compiled loop names every game's winners, tie-breaks included, when each key
        # is data it can read (tiebreak_plan); else it names the seats at the best total,
        # and the tied games' keys are computed here
        plan = tiebreak_plan(self.ir, keys)
        play = self.module().playout
        result = _threaded_playout(lambda n, p, s: play(n, p, s, ties=plan or ()), games, players, seed, workers)
        if plan is None:
            result["winners"] = playout_winners(self.ir, result, keys, result["winners"])
        return result

    def score(self, position: dict, tickets: bool = False) -> list[dict]:
        """Score a described position (see :func:`railspec.score`): each player's
        breakdown plus ``winner``, and with ``tickets`` each held ticket as scoring counts
        it (``ticket_results``, docs/formats.md). The compiled engine scores it when its
        module is at hand without compiling (a stock variant, or one built before); the
        reference otherwise (and the tickets' detail always)."""
        fields = position_fields(self.ir, position)
        module = self.module(build_if_needed=False)
        if module is not None:
            rows = module.Engine.for_scoring(fields).score_breakdown()
        else:
            rows = reference.score_fields(self.ir, fields)
        best = set(_winners(self.ir, rows))
        for p, row in enumerate(rows):
            row["winner"] = p in best
        if tickets:
            for row, results in zip(rows, self.ticket_results(fields)):
                row["ticket_results"] = results
        return rows

    def ticket_results(self, fields: dict) -> list[list[dict]]:
        """Per player, each ticket held as scoring counts it: its name, whether it is
        completed, its points (plus or minus) and the place they are for (the destination
        reached; for a ticket of several destinations, the one that scores; None when not
        completed)."""
        game = reference.for_scoring(self.ir, fields)
        places = self.ir.cities
        return [[{"ticket": self.ir.tickets[t].name, "completed": done, "points": points,
                  "place": places[place].name if place is not None else None}
                 for t, points, done, place in game.rules.ticket_details(game.state, p)]
                for p in range(fields["players"])]

    def __repr__(self) -> str:
        return (f"<Variant {self.name}: {len(self.cities)} cities, {len(self.routes)} routes, "
                f"{len(self.tickets)} tickets, {len(self.actions)} actions>")


def _threaded_playout(play, games: int, players: int, seed: int, workers: int) -> dict:
    """``play(games, players, seed)`` split into contiguous runs of games, one a thread, and
    joined in game order: game ``i`` keeps its seed ``seed + i`` whatever the split."""
    workers = min(workers, games) or 1
    if workers == 1:
        return play(games, players, seed)
    bounds = [games * k // workers for k in range(workers + 1)]
    parts: list = [None] * workers
    failures: list[BaseException] = []

    def run(k: int) -> None:
        try:
            parts[k] = play(bounds[k + 1] - bounds[k], players, (seed + bounds[k]) % 2**64)
        except BaseException as err:  # handed to the caller's thread below
            failures.append(err)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return {key: [value for part in parts for value in part[key]] for key in parts[0]}


def load(name_or_path: str | Path, registry=None) -> Variant:
    """A variant by stock name (``"usa"``, or its display name in any case: ``"Legendary
    Asia"``) or by the path of a ``.rail`` spec file.

    The spec is checked (a bad one raises a located :class:`SpecError`) and refused with
    :class:`UnsupportedMechanicError` when it uses a mechanic the engines do not implement
    yet; the compiled engine is fetched lazily, from the installed stock modules or the
    build cache. A stock variant loaded twice in a process is read once. ``registry`` is
    the set of mechanics (every installed one by default)."""
    registry = registry or default_registry()
    path, stock = spec_path(name_or_path)
    if stock:
        return _warn_if_provisional(_load_stock(path.stem, registry, _file_key(path)))
    return _warn_if_provisional(_load_path(path, registry))


def spec_path(name_or_path: str | Path) -> tuple[Path, bool]:
    """The spec file a stock name or a path stands for, and whether it is a stock one. A
    name ending in ``.rail`` or holding a path separator is a path; another name is a stock
    variant's, else an existing file's; else :class:`RailspecError` listing the stock
    names."""
    if not isinstance(name_or_path, (str, Path)):
        raise ArgumentTypeError(f"a variant is a stock name or a spec path, not {_show.repr(name_or_path)}")
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or text.endswith(".rail") or "/" in text or "\\" in text:
        return Path(text), False
    stock = compiler.stock_path_or_none(text) if text else None
    if stock is not None:
        return stock, True
    if text and Path(text).is_file():
        return Path(text), False
    named = stock_key_of(text)  # a display name or another case: "Legendary Asia", "USA"
    if named is not None:
        return compiler.stock_path(named), True
    hint = f"; did you mean {text}.rail?" if text and Path(f"{text}.rail").is_file() else ""
    raise RailspecError(f"no stock variant or spec file named {_show.repr(text)} "
                        f"(stock: {', '.join(compiler.stock_names())}){hint}")


def _file_key(path: Path):
    stat = path.stat()
    return (str(path), stat.st_mtime_ns, stat.st_size)


def _load_path(path: Path, registry) -> Variant:
    variant_ir = compiler.load_file(path, registry)
    refuse_unsupported(variant_ir)
    return Variant(variant_ir)


def _warn_if_provisional(variant: Variant) -> Variant:
    if variant.ir.provisional:
        warnings.warn(ProvisionalSpecWarning(f"{variant.name} is PROVISIONAL: {variant.ir.provisional}"),
                      stacklevel=3)
    return variant


@functools.lru_cache(maxsize=16)
def _load_stock(name: str, registry, file_key) -> Variant:
    # keyed by the spec file's path, time and size: an edited stock spec is read again
    return _load_path(Path(file_key[0]), registry)
