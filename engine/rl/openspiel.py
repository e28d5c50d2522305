"""railspec variants as OpenSpiel games (the ``openspiel`` extra; docs/rl.md).

    import pyspiel
    import railspec.openspiel
    railspec.openspiel.register()                  # every stock variant that loads
    game = pyspiel.load_game("railspec_usa", {"players": 4, "seed": 7})

Each variant is a Python game named ``railspec_<key>`` with the parameters ``players``
(the table size; the variant's smallest by default), ``seed`` (where the games' deals come
from) and ``reward`` (``"score"``, the default: each player's final score; or ``"win"``:
1 shared among the winners after the tie-breakers, 0 for the others).

- **Chance is inside the state.** There are no chance nodes: the shuffles, blind draws and
  tunnel reveals happen inside the engine, from the generator the state carries, when a
  player's action calls for them, so a state's future is a function of the state and the
  actions (OpenSpiel's ``DETERMINISTIC`` chance mode; ``SAMPLED_STOCHASTIC`` would say the
  game object holds the generator, whose state a Python game cannot give OpenSpiel to
  save). A state serializes (``pyspiel.serialize_game_and_state``, pickle) as its state
  JSON, generator included. A state from
  ``new_initial_state()`` deals its game when first used, from the next seed drawn from
  the game's ``seed``: the same program gives the same games. Clones spend no seed (they
  carry the engine and its generator, and replay the same draws); OpenSpiel's own shape
  queries (``observation_tensor_shape()``) observe a new initial state, and do.
- **Imperfect information, general sum, terminal rewards.** Rewards come only at the end
  (``returns()``); they are zero before.
- **Information state = observation.** Both are what the player sees now (the state
  schema's views, ``railspec.tensor``): one fixed-length float vector per player, and a
  readable text of the same observation. The order of past events is not part of it, so
  it is not perfect recall in OpenSpiel's sense; the worlds ``resample_from_infostate``
  draws (railspec's determinization) are consistent with it.
- OpenSpiel's Python bots (``MCTSBot``, ``ISMCTSBot``) play these games; its C++ bots do
  not work on Python games and are not offered. :class:`RolloutEvaluator` plays random
  rollouts on the railspec engine itself, far cheaper than through the OpenSpiel API.
"""
from __future__ import annotations

import json
from typing import Any, ClassVar

import numpy as np
import pyspiel

from ..compiler.base.errors import RailspecError
from ..compiler.base.rng import SplitMix64
from ..runtime.game import Variant
from . import tensor
from .common import check_reward, final_rewards, load_variant, stock_variants

#: Every registered game's short name is this prefix and the variant's key.
PREFIX = "railspec_"
#: Bonus points a player may get from mechanics beyond routes and tickets, counted into
#: ``max_utility`` (the stock variants' bonuses are far below it; a test plays games and
#: checks that every score stays inside the bounds).
BONUS_BOUND = 1000
#: Decisions in a game are at most this many per train car of the table (OpenSpiel wants a
#: ``max_game_length``; random games of the stock variants stay well below it).
DECISIONS_PER_TRAIN = 12

_REGISTERED: dict[str, Variant] = {}  # short name -> the Variant registered under it


def game_name(variant) -> str:
    """The OpenSpiel short name of a variant: ``railspec_<key>``."""
    return PREFIX + variant.key


def register(variant=None) -> list[str]:
    """Register ``variant`` (a loaded :class:`railspec.Variant`, or a stock name or spec
    path) with OpenSpiel, or every stock variant that loads when none is given. Returns the
    short names registered (or already registered). Registering the same variant twice is
    harmless; another spec under a name already taken is refused."""
    variants = stock_variants() if variant is None else [load_variant(variant)]
    names = []
    for v in variants:
        name = game_name(v)
        known = _REGISTERED.get(name)
        if known is not None:
            if known.spec_hash != v.spec_hash:
                raise RailspecError(f"OpenSpiel game {name!r} is registered already for another spec "
                                    f"({known.spec_hash}, not {v.spec_hash}); a process registers one spec per key")
            names.append(name)
            continue
        game_type = _game_type(v, name)
        pyspiel.register_game(game_type, _factory(v, game_type))
        _REGISTERED[name] = v
        names.append(name)
    return names


def registered() -> dict:
    """The variants registered by this process, by OpenSpiel short name."""
    return dict(_REGISTERED)


def _game_type(v, name: str):
    return pyspiel.GameType(
        short_name=name,
        long_name=f"railspec {v.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=v.ir.max_players,
        min_num_players=v.ir.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": v.ir.min_players, "seed": 0, "reward": "score"},
    )


def _factory(v, game_type):
    # A subclass per variant, not a closure: OpenSpiel's registry releases its creators
    # after the interpreter has shut down, and freeing a closure then aborts the process; a
    # class refers to itself (its MRO), so it is never freed there.
    return type(f"RailspecGame_{v.key}", (RailspecGame,), {"variant": v, "game_type": game_type})


def utility_bounds(v) -> tuple[float, float]:
    """(lowest, highest) score a player can end with, for OpenSpiel's ``min_utility`` and
    ``max_utility``: every ticket of the variant failed at worst; every route, every ticket
    and :data:`BONUS_BOUND` points of bonuses at best."""
    tickets = sum(t.points for t in v.tickets)
    return float(-tickets), float(v.assembly.dims["ROUTE_SCORE_MAX"] + tickets + BONUS_BOUND)


class RailspecGame(pyspiel.Game):
    """One railspec variant at one table size, as an OpenSpiel game."""

    # set on the subclass registered for each variant (:func:`_factory`)
    variant: ClassVar[Variant]
    game_type: ClassVar[Any]

    def __init__(self, params: dict | None = None):
        variant, game_type, params = self.variant, self.game_type, params or {}
        players = int(params.get("players", variant.ir.min_players))
        variant.ir.check_players(players)
        reward = check_reward(str(params.get("reward", "score")))
        low, high = utility_bounds(variant) if reward == "score" else (0.0, 1.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(variant.actions),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=DECISIONS_PER_TRAIN * variant.ir.trains * players,
        )
        super().__init__(game_type, info, {"players": players, "seed": int(params.get("seed", 0)),
                                           "reward": reward})
        self.players = players
        self.reward = reward
        self.encoder = tensor.ObservationEncoder(variant)
        self._seeds = SplitMix64(int(params.get("seed", 0)) % 2**64)

    def new_initial_state(self):
        """A new game, dealt (when first used) from the next seed of this game's generator."""
        return RailspecState(self)

    def deal(self):
        """A new railspec game from the next seed of this game's generator."""
        return self.variant.new_game(players=self.players, seed=self._seeds.next())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer OpenSpiel uses for observation and information-state tensors and
        strings (both the same: what the player sees now)."""
        return RailspecObserver(self, iig_obs_type, params)

    def state_from(self, game) -> "RailspecState":
        """An OpenSpiel state around a railspec :class:`~railspec.Game` of this variant
        and table size (e.g. one read back with ``Variant.game_from_json``)."""
        if game.variant.spec_hash != self.variant.spec_hash or game.players != self.players:
            raise RailspecError(f"a {game.players}-player game of {game.variant.key} is not a state of "
                                f"{self.get_type().short_name} with {self.players} players")
        return RailspecState(self, game)


class _Handle:
    """Holds a state's railspec game. OpenSpiel clones a Python state by deep-copying each
    attribute; this one copies the engine (one struct copy) and not the variant. It
    serializes (pickle, which ``pyspiel.serialize_game_and_state`` uses) as the game's
    registered name, spec hash, engine and state JSON, generator included, so a game read
    back plays on exactly as the original would."""

    __slots__ = ("game",)

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Handle(None if self.game is None else self.game.clone())

    def __reduce__(self):
        g = self.game
        if g is None:  # not dealt yet: it deals when first used, from the game's seeds
            return (_Handle, (None,))
        return (_restored_handle, (game_name(g.variant), g.variant.spec_hash, g.engine, g.to_json()))


def _restored_handle(name: str, spec_hash: str, engine: str, state_json: str) -> _Handle:
    """A handle read back: the variant registered under ``name``, which must be the same
    spec, and the game its state JSON describes (checked as any state is)."""
    variant = _REGISTERED.get(name)
    if variant is None or variant.spec_hash != spec_hash:
        raise RailspecError(f"a serialized {name} state (spec {spec_hash}) needs that variant registered first "
                            f"(railspec.rl.openspiel.register)")
    return _Handle(variant.game_from_json(state_json, engine=engine))


class RailspecState(pyspiel.State):
    """A position: a railspec :class:`~railspec.Game` (``state.game``) seen through the
    OpenSpiel state API."""

    def __init__(self, game: RailspecGame, rail_game=None):
        super().__init__(game)
        # A state from new_initial_state() deals its game when first used: OpenSpiel's
        # clone() starts from a new initial state too and then copies the attributes over,
        # so dealing eagerly would spend a seed (and a set-up) on every clone.
        self._handle = _Handle(rail_game)
        self._reward = game.reward

    @property
    def game(self):
        """The railspec game behind this state."""
        handle = self._handle
        if handle.game is None:
            handle.game = self.get_game().deal()
        return handle.game

    # --- the OpenSpiel API -----------------------------------------------------------
    def current_player(self):
        """The seat to decide, or TERMINAL."""
        g = self.game
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        return g.current_player

    def _legal_actions(self, player):
        """The legal ids (ascending) for the player to decide; none for anyone else."""
        g = self.game
        if g.is_over or player != g.current_player:
            return []
        return g.legal_actions()

    def _apply_action(self, action):
        self.game.apply(int(action))

    def _action_to_string(self, player, action):
        return self.game.variant.action_name(int(action))

    def is_terminal(self):
        return self.game.is_over

    def returns(self):
        """Zero until the end; then each player's score (``reward="score"``) or their
        share of the win (``reward="win"``)."""
        return final_rewards(self.game, self._reward)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state in one world consistent with what ``player_id`` sees
        (``railspec.determinize``), drawn with a seed taken from ``probability_sampler``."""
        seed = 0
        for _ in range(4):  # four draws of 16 bits each make a 64-bit seed
            seed = (seed << 16) | int(probability_sampler() * 65536) & 0xFFFF
        return RailspecState(self.get_game(), self.game.resample(int(player_id), seed))

    def __str__(self):
        g = self.game
        state = g.state()
        status = "over" if g.is_over else f"player {g.current_player} to decide ({state['phase']})"
        return (f"{g.variant.name}, {g.players} players, turn {state['turn']}, decision {state['decisions']}: "
                f"{status}; scores {g.scores()}")


class RailspecObserver:
    """Observation and information-state tensors (the layout of ``railspec.tensor``) and
    strings for one kind of OpenSpiel observation. ``private_info`` NONE leaves out what
    only the observer may see (their hand, tickets and offers); ALL_PLAYERS is not offered."""

    def __init__(self, game: RailspecGame, iig_obs_type=None, params=None):
        if params:
            raise RailspecError(f"railspec observers take no parameters, not {params!r}")
        self.encoder = game.encoder
        spec = self.encoder.spec
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        public = True
        if iig_obs_type is not None:
            private, public = iig_obs_type.private_info, iig_obs_type.public_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise RailspecError("railspec observers show one player's view; ALL_PLAYERS is not offered")
        self.keep = [s for s in spec
                     if (s.private and private == pyspiel.PrivateInfoType.SINGLE_PLAYER) or (not s.private and public)]
        self.tensor = np.zeros(sum(s.length for s in self.keep), dtype=np.float32)
        self.dict = {}
        self._copy = []  # (start in the full vector, stop, start here)
        at = 0
        for s in self.keep:
            self.dict[s.name] = self.tensor[at:at + s.length].reshape(s.shape)
            self._copy.append((s.start, s.stop, at))
            at += s.length
        self._full = self.encoder.new_vector()
        self._whole = len(self.keep) == len(spec)
        self._names = {s.name for s in self.keep}

    def set_from(self, state: RailspecState, player: int) -> None:
        """Fill ``tensor`` (and so ``dict``) with ``player``'s view of ``state``."""
        if self._whole:
            self.encoder.encode(state.game, player, self.tensor)
            return
        self.encoder.encode(state.game, player, self._full)
        for start, stop, at in self._copy:
            self.tensor[at:at + stop - start] = self._full[start:stop]

    def string_from(self, state: RailspecState, player: int) -> str:
        """``player``'s view of ``state`` as readable text (the same pieces as the tensor)."""
        return observation_text(state.game, player, self._names)


def observation_text(game, player: int, keep=None) -> str:
    """One player's observation as compact, readable text: the fields ``observation()``
    shows (restricted to the slice names in ``keep``), routes and tickets by name, seats
    as given."""
    v = game.variant
    obs = game.observation(player)
    parts = [f"player {player}"]
    for key, value in obs.items():
        if key == "player" or (keep is not None and key not in keep):
            continue
        if key == "owner":
            owned = [f"{v.routes[r].name}:{o}" for r, o in enumerate(value) if o >= 0]
            parts.append("owner " + (",".join(owned) or "-"))
        elif key in ("tickets", "offer", "setup_offer"):
            parts.append(f"{key} " + (",".join(v.tickets[t].name for t in value) or "-"))
        else:
            parts.append(f"{key} {json.dumps(value, separators=(',', ':'))}")
    return " | ".join(parts)


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS bots (``evaluate(state)``, ``prior(state)``) that
    plays ``rollouts`` uniformly random games to the end on the railspec engine itself,
    through ``legal_actions_into``: the same estimate as OpenSpiel's
    ``RandomRolloutEvaluator``, without a trip through the OpenSpiel API per decision."""

    def __init__(self, rollouts: int = 1, seed: int = 0):
        self.rollouts = int(rollouts)
        self.rng = SplitMix64(int(seed) % 2**64)
        self._buffers: dict = {}

    def evaluate(self, state: RailspecState):
        """The mean returns of the random games played from ``state``."""
        total = np.zeros(state.game.players)
        n_actions = len(state.game.variant.actions)
        buf = self._buffers.get(n_actions)
        if buf is None:
            buf = self._buffers[n_actions] = np.zeros(n_actions, dtype=np.intc)
        for _ in range(self.rollouts):
            g = state.game.clone()
            rng = self.rng
            while not g.is_over:
                n = g.legal_actions_into(buf)
                g.apply(int(buf[rng.below(n)]))
            total += final_rewards(g, state._reward)
        return total / self.rollouts

    def prior(self, state: RailspecState):
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
