"""The types of _policy.pyx (compiled by Cython, which mypy cannot read): the scripted agents'
kernel. tests/test_types.py checks that these are the names the compiled module defines."""
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: The styles by the names the agents go by.
STYLES: dict[str, int]
#: Seat.seen's value for a route never to be opened.
CLOSED_FOR_GOOD: int
#: The code of a kind no rule covers.
OTHER: int
#: The rule names Mechanic.agent_rules may use, and the core kinds' codes.
RULES: dict[str, int]
CORE_KINDS: dict[str, int]
#: Policy.asks's bits: the figures of claims, of options, are read.
ASK_CLAIMS: int
ASK_OPTIONS: int
#: Capsules of the C functions compiled code decides for a bound Seat with, and renews one with.
SEAT_DECIDE: Any
SEAT_RENEW: Any

class Planner:
    """The map and catalogue as C arrays, and the route planner over them."""

    def __init__(self, tables: dict[str, Any]) -> None: ...

class Styles(Planner):
    """The scripted styles' choices over the planner."""

class Policy(Styles):
    """One variant's tables for the scripted styles: the value estimate, and the styles asked
    from Python or played in a compiled game."""

    def estimate(self, views: Sequence[Sequence[int]], totals: Sequence[int],
                 co_owner: Sequence[int] | None = None) -> list[float]: ...
    def bind(self, seat: Seat) -> None: ...
    def decide(self, seat: Seat, view: Sequence[int], legal: Sequence[int],
               co_owner: Sequence[int] | None = None) -> int: ...
    def decide_compiled(self, seat: Seat, engine: Any) -> int: ...
    def set_asking(self, claims: Iterable[int], options: Iterable[int]) -> None: ...
    def asks(self, style: int, legal: Iterable[int]) -> int: ...
    def asks_compiled(self, style: int, engine: Any) -> int: ...
    def decide_told(self, seat: Seat, engine: Any,
                    ask: Callable[[int], tuple[dict[int, float], dict[int, float]]]) -> int: ...
    def portfolio(self, seats: Sequence[Seat], engine: Any) -> list[int]: ...
    def playout(self, engine: Any, styles: Sequence[int], seats: Sequence[Seat],
                horizon: int = -1) -> list[float]: ...

class Seat:
    """One scripted agent's memory: its style, its generator and its plan."""

    style: int
    def __init__(self, style: int, seed: int) -> None: ...
    def seen(self) -> dict[int, int]: ...
    def forget(self) -> None: ...
    def set_worth(self, policy: Policy, worth: dict[int, int], options: dict[int, int] | None = None) -> None: ...
    def set_worth_points(self, policy: Policy, worth: dict[int, float], options: dict[int, float]) -> None: ...
