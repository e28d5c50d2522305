"""The saved games of ``railspec play``, kept on the server's side (``--saves DIR``).

A save is the game's whole state, in the documented state JSON (``Game.to_json``;
docs/engine.md), so ``railspec render --state FILE`` and ``Variant.game_from_json`` read it.
It holds every card, the deck's order and the opponents' tickets: the page must never
receive it. So the page is told only a save's name and time, lists the saves by what
anyone may know of them (name, time, the seat played, the decisions taken), and loads one
by its name.

The server makes every name (:func:`SaveFolder.save`): the variant's key, the date and
time (UTC), the seat, a short random id. A name read from a request is only ever compared
with the names in the folder that have that form; it is never joined to a path before it
is found among them, so no request reaches a file outside the folder or one the server
did not name.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import tempfile
import threading
import time
from pathlib import Path

from ...compiler.base import files
from ...compiler.base.errors import RailspecError
from ...runtime import state_format
from .sessions import RequestError

#: The folder saves go in when ``--saves`` is not given, in the current directory.
DEFAULT_FOLDER = "railspec-saves"
#: The most saves listed (the newest).
MAX_LISTED = 200
#: A save's name: key, date, time (UTC), seat, id.
NAME = re.compile(r"(?P<key>[a-z0-9_]{1,40})-(?P<date>\d{8})-(?P<clock>\d{6})-seat(?P<seat>\d{1,2})"
                  r"-(?P<id>[0-9a-f]{6})\.json")


class SaveFolderError(RailspecError):
    """The saves' folder cannot be one (a file is in its place)."""


def safe_key(key: str) -> str:
    """A variant's key as the start of a file name: lower-case letters, digits and ``_``."""
    return re.sub(r"[^a-z0-9_]", "_", str(key).lower())[:40] or "variant"


def _named(name: str) -> re.Match[str]:
    """The parts of a save's name (one this store made, so it matches :data:`NAME`)."""
    match = NAME.fullmatch(name)
    if match is None:
        raise ValueError(f"not a save's name: {name!r}")
    return match


def _when(match: re.Match) -> str:
    """The time in a save's name, ISO 8601."""
    d, c = match["date"], match["clock"]
    return f"{d[:4]}-{d[4:6]}-{d[6:]}T{c[:2]}:{c[2:4]}:{c[4:]}Z"


def _why(err: Exception) -> str:
    """What is wrong with a save's file, without its path (the name is said already)."""
    return (err.reason if isinstance(err, files.UnreadableFile) else str(err))[:300]


class SaveFolder:
    """The saves of one variant in the folder ``path`` (made at the first save)."""

    def __init__(self, path: str | Path, variant, clock=time.time):
        self.path = Path(path).absolute()
        self.variant = variant
        self.key = safe_key(variant.key)
        self.clock = clock
        self._lock = threading.Lock()

    def check(self) -> None:
        """Raise :class:`SaveFolderError` when something other than a folder has the
        folder's name (a missing folder is made at the first save)."""
        # the folder, or else the nearest of its parents that is there
        there = next((p for p in (self.path, *self.path.parents) if os.path.lexists(p)), None)
        if there is not None and not there.is_dir():
            raise SaveFolderError(f"{there} is a file, not a folder for the saved games")

    def save(self, text: str, seat: int) -> dict:
        """Write ``text`` (a game's state JSON) as a new save of the person in ``seat``,
        atomically: a temporary file in the folder, synced, then renamed to its name.
        Returns the save's name and time, all the page is told."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise RequestError(507, f"cannot make the saves' folder {self.path}: {err.strerror or err}") from None
        with self._lock:
            now = time.gmtime(self.clock())
            while True:
                name = f"{self.key}-{time.strftime('%Y%m%d-%H%M%S', now)}-seat{seat}-{secrets.token_hex(3)}.json"
                if not os.path.lexists(self.path / name):
                    break
            temp = None
            try:
                fd, temp = tempfile.mkstemp(prefix=".saving-", suffix=".tmp", dir=self.path)
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temp, self.path / name)
            except OSError as err:
                if temp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(temp)
                raise RequestError(507, f"cannot save in {self.path}: {err.strerror or err}") from None
        return {"name": name, "time": _when(_named(name))}

    def _names(self) -> dict[str, re.Match]:
        """The saves of this variant in the folder: regular files with a save's name."""
        try:
            entries = list(os.scandir(self.path))
        except (FileNotFoundError, NotADirectoryError):
            return {}
        except OSError as err:
            raise RequestError(507, f"cannot read the saves' folder {self.path}: {err.strerror or err}") from None
        found = {}
        for entry in entries:
            match = NAME.fullmatch(entry.name)
            if match is None or match["key"] != self.key:
                continue
            with contextlib.suppress(OSError):
                # not followed: a link with a save's name could lead out of the folder
                if stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode):
                    found[entry.name] = match
        return found

    def listing(self) -> list[dict]:
        """The saves, newest first (at most :data:`MAX_LISTED`): each one's name, time, the
        seat played and the decisions taken; ``problem`` says why one cannot be loaded
        when its file shows it at a glance (not JSON, another spec)."""
        names = self._names()
        newest = sorted(names, key=lambda n: (names[n]["date"], names[n]["clock"], n), reverse=True)
        out = []
        for name in newest[:MAX_LISTED]:
            match = names[name]
            entry = {"name": name, "time": _when(match), "seat": int(match["seat"]), "decisions": None}
            try:
                state = state_format.loads(files.read_text(self.path / name, "state file"))
                if not isinstance(state, dict) or state.get("spec_hash") != self.variant.spec_hash:
                    entry["problem"] = f"not a state of this {self.variant.name} spec"
                elif isinstance(state.get("decisions"), int):
                    entry["decisions"] = state["decisions"]
            except RailspecError as err:
                entry["problem"] = _why(err)
            out.append(entry)
        return out

    def load(self, name) -> tuple[object, int]:
        """The game saved as ``name`` (checked by the state validator) and the seat it was
        saved from. ``name`` must be one of the folder's saves of this variant, as listed:
        anything else is a 400 or a 404, a save that does not hold a valid state a 422."""
        if not isinstance(name, str):
            raise RequestError(400, f"'save' is a save's name (a string), not {type(name).__name__}")
        if NAME.fullmatch(name) is None:
            raise RequestError(400, f"{name[:60]!r} is not the name of a save (GET /api/saves lists them)")
        match = self._names().get(name)
        if match is None:
            raise RequestError(404, f"no save named {name!r} in {self.path}")
        try:
            game = self.variant.game_from_json(files.read_text(self.path / name, "state file"))
        except (RailspecError, ValueError, RecursionError) as err:
            raise RequestError(422, f"the save {name} is not a state of {self.variant.name}: {_why(err)}") from None
        seat = int(match["seat"])
        if seat >= game.players:
            raise RequestError(422, f"the save {name} names seat {seat} of a {game.players}-player game")
        return game, seat


__all__ = ["DEFAULT_FOLDER", "MAX_LISTED", "NAME", "SaveFolder", "SaveFolderError", "safe_key"]
