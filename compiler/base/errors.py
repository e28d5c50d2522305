"""The error hierarchy of railspec.

Every error railspec raises on purpose is a :class:`RailspecError`. Spec errors carry a
source position and print as ``file:line:col: message`` followed by the source line and
a caret, the way a compiler reports them; an illegal action names the action and the
reason and guarantees that the game state was not touched.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """Where a piece of a spec came from: file name, 1-based line and column, and the
    end column on that line (exclusive) so a caret can underline the whole token."""

    file: str
    line: int
    col: int
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class RailspecError(Exception):
    """Base class of every error railspec raises on purpose."""


class SpecError(RailspecError):
    """A spec that cannot be compiled. ``span`` locates the problem; ``source_line``
    is the text of that line when it is known."""

    def __init__(self, message: str, span: Span | None = None, source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.source_line = source_line

    def format(self) -> str:
        """The located message: ``file:line:col: message``, the line, and a caret."""
        if self.span is None:
            return self.message
        out = [f"{self.span}: {self.message}"]
        if self.source_line is not None:
            text = self.source_line.rstrip("\n").expandtabs(1)
            width = max(1, (self.span.end_col or self.span.col + 1) - self.span.col)
            out.append("    " + text)
            out.append("    " + " " * (self.span.col - 1) + "^" + "~" * (width - 1))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


class SpecSyntaxError(SpecError):
    """The spec text does not follow the grammar."""


class SpecCheckError(SpecError):
    """The spec parses but says something impossible or inconsistent. ``errors`` holds
    every problem found, the first of which is also this error's own message."""

    def __init__(self, errors: list[SpecError]):
        first = errors[0]
        super().__init__(first.message, first.span, first.source_line)
        self.errors = errors

    def format(self) -> str:
        return "\n".join(SpecError.format(e) for e in self.errors)


class UnsupportedMechanicError(SpecError):
    """The spec is valid but asks for a mechanic the engines do not implement yet."""


class MechanicContractError(UnsupportedMechanicError):
    """The spec is valid but uses a mechanic that breaks its contract (a part missing or
    misdeclared: ``railspec.compiler.mechanic.contract``); the message names the mechanic
    and every problem."""


class SpecWarning:
    """Something a spec says that checks but does nothing (dead content): a located
    message, shown by ``railspec check`` as ``file:line:col: warning: …`` with the line and
    a caret; ``railspec check --strict`` fails on it. Not an exception: a spec with
    warnings compiles and plays."""

    def __init__(self, message: str, span: Span | None = None, source_line: str | None = None):
        self.message = message
        self.span = span
        self.source_line = source_line

    def format(self) -> str:
        """The located warning, as :meth:`SpecError.format` lays out an error."""
        return SpecError(f"warning: {self.message}", self.span, self.source_line).format()

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"<SpecWarning {self.span}: {self.message}>"


class ProvisionalSpecWarning(UserWarning):
    """A spec says some of its numbers are not the printed game's (``provisional "…"``)."""


class IllegalActionError(RailspecError, ValueError):
    """An action id that is not legal in the current state. The state is unchanged."""

    def __init__(self, action, reason: str):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class ArgumentError(RailspecError, ValueError):
    """An argument of the game API with a value it cannot take: a player index outside the
    game, a negative number of games, a seed of 7.5, a buffer too short for the legal
    actions. Both engines raise it the same way, before touching anything."""


class ArgumentTypeError(RailspecError, TypeError):
    """An argument of the game API of a type it cannot take: a string or a float where an
    integer is expected, a bool as a count or an index, a buffer that is not a writable
    buffer of C ints. Both engines raise it the same way, before touching anything."""


class PositionError(RailspecError):
    """A described position (``railspec score``) that is not a board of its variant. The
    message is one line of at most :data:`MAX_POSITION_MESSAGE` characters, whatever the
    file held (a name or a value of megabytes is cut in the middle)."""

    def __init__(self, message: str):
        message = " ".join(str(message).split("\n"))
        if len(message) > MAX_POSITION_MESSAGE:
            message = message[:MAX_POSITION_MESSAGE - 60] + " … " + message[-57:]
        super().__init__(message)


#: The longest message a PositionError carries.
MAX_POSITION_MESSAGE = 400


__all__ = ["Span", "RailspecError", "SpecError", "SpecSyntaxError", "SpecCheckError", "UnsupportedMechanicError",
           "MechanicContractError",
           "SpecWarning", "ProvisionalSpecWarning", "IllegalActionError", "ArgumentError", "ArgumentTypeError",
           "PositionError"]
