"""The game's random generator, splitmix64, exactly as docs/engine.md defines it.

Both engines and every seeded tool use this definition, so that a seed means the same
game on any machine and in either engine.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


class SplitMix64:
    """A 64-bit state stepping by the golden-ratio constant, mixed on output."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n), by rejection so no value is favoured."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next()
            if r < limit:
                return r % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates from the end, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


#: Salts the caller's seed of a determinization (railspec.runtime.determinize and the
#: compiled engine's draw_world), so a world's shuffle and its game generator are independent.
WORLD_SALT = 0x5851F42D4C957F2D

#: The random agent of docs/engine.md ("Random playouts") seeds its own generator with the
#: game seed xor this constant.
AGENT_SALT = 0xD1B54A32D192ED03


def agent_for(seed: int) -> SplitMix64:
    """The documented random agent's generator for a game seeded ``seed``."""
    return SplitMix64((seed % 2**64) ^ AGENT_SALT)


def shuffle_in_state(state, items: list) -> None:
    """Shuffle ``items`` with the game generator kept in ``state.rng`` (an integer)."""
    rng = SplitMix64(state.rng)
    rng.shuffle(items)
    state.rng = rng.state
