"""Observation tensors and action masks for learning agents (docs/rl.md): numpy vectors
filled by the compiled engine in C, or from a state in Python, with the layout of
:mod:`railspec.compiler.observation` (which says how each state field is written).
Needs numpy: the RL extras (openspiel, pettingzoo, gymnasium) all bring it.
"""
from __future__ import annotations

from typing import Any

from ..compiler import observation
from ..compiler.observation import ObservationError, ObservationSpec, Slice

np: Any  # numpy, or None
try:
    import numpy as np
except ImportError:  # the core install: the layout works, filling vectors needs numpy
    np = None

__all__ = ["ObservationEncoder", "ObservationError", "ObservationSpec", "Slice", "encoder", "observation_spec",
           "layout_plan", "observation_tensor", "action_mask"]


class ObservationEncoder:
    """Fills observation vectors of one variant. Keep one and reuse it (and its output
    buffers) in a loop: ``encoder.encode(game, player, out)``."""

    def __init__(self, variant):
        if np is None:
            raise ImportError("filling observation vectors in Python needs numpy (any of the extras "
                              "openspiel, pettingzoo, gymnasium brings it); a compiled game's "
                              "observation_into does not", name="numpy")
        self.variant = variant
        self._assembly = variant.assembly
        self._layout = observation.layout_of(self._assembly)
        self.spec = observation.observation_spec(self._assembly)
        self.size = self.spec.size
        self.n_actions = len(variant.ir.actions)
        self._legal = np.zeros(self.n_actions, dtype=np.intc)

    def new_vector(self) -> np.ndarray:
        """A zeroed float32 vector of the right size."""
        return np.zeros(self.size, dtype=np.float32)

    def _out(self, out) -> np.ndarray:
        if out is None:
            return np.zeros(self.size, dtype=np.float32)
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (self.size,):
            raise ObservationError(f"an observation buffer is a float32 numpy vector of {self.size}, "
                                   f"not {getattr(out, 'dtype', type(out).__name__)} "
                                   f"{getattr(out, 'shape', '')}")
        out.fill(0.0)
        return out

    def fill(self, state: dict, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``player`` from a full state (``game.state()``),
        written into ``out`` when given (else a new vector)."""
        return observation.fill(self._assembly, state, player, out)

    def encode(self, game, player: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``player`` (default: the player to decide; seat 0
        once the game is over) in ``game``. A compiled game fills it in C, without
        exporting its state (the same floats as :meth:`fill`)."""
        if player is None:
            player = max(0, game.current_player)
        if game.engine == "compiled" and observation.layout_of(game.variant.assembly) is self._layout:
            players = game.players
            if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
                raise ObservationError(f"no player {player!r} in a {players}-player game")
            if out is None:
                out = np.empty(self.size, dtype=np.float32)
            elif not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (self.size,):
                self._out(out)  # raises the error saying what is wrong
            try:
                game._e.observation_into(int(player), out)
                return out
            except (TypeError, ValueError, BufferError):
                pass  # a strided or read-only vector: the Python fill below writes it, or says why not
        return self.fill(game.state(), player, out)

    def action_mask(self, game, out: np.ndarray | None = None) -> np.ndarray:
        """1 for every legal action of the catalogue, 0 elsewhere (int8; all zeros once
        the game is over)."""
        if out is None:
            out = np.empty(self.n_actions, dtype=np.int8)
        if game.engine == "compiled" and isinstance(out, np.ndarray) and out.shape == (self.n_actions,) \
                and observation.layout_of(game.variant.assembly) is self._layout:
            try:
                game._e.action_mask_into(out)
                return out
            except (TypeError, ValueError, BufferError):
                pass  # not a vector the engine can write: numpy below
        out.fill(0)
        if not game.is_over:
            n = game.legal_actions_into(self._legal)
            out[self._legal[:n]] = 1
        return out


def observation_spec(variant) -> ObservationSpec:
    """The layout of ``variant``'s observation vector (a loaded :class:`railspec.Variant`):
    every slice's name, start, length, shape and meaning, in order."""
    return observation.observation_spec(variant.assembly)


def layout_plan(variant) -> list[dict]:
    """The layout of a loaded variant as plain data (:func:`railspec.compiler.observation.assembly_plan`)."""
    return observation.assembly_plan(variant.assembly)


def encoder(variant) -> ObservationEncoder:
    """An :class:`ObservationEncoder` for ``variant``."""
    return ObservationEncoder(variant)


def observation_tensor(game, player: int | None = None) -> np.ndarray:
    """``player``'s observation vector in ``game`` (a new float32 array; see
    :class:`ObservationEncoder` to reuse buffers)."""
    return ObservationEncoder(game.variant).encode(game, player)


def action_mask(game) -> np.ndarray:
    """The legal-action mask of ``game`` over the variant's fixed catalogue (int8)."""
    return ObservationEncoder(game.variant).action_mask(game)
