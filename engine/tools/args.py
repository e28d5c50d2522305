"""What the command line's commands share: the one-line usage error, loading a variant
(a provisional spec's warning printed once), reading and writing files, progress bars, and
the argument types that check a value before any work is done."""
from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

from ..compiler import stock_names
from ..compiler.base.errors import ProvisionalSpecWarning, RailspecError
from ..playtest.agents import AGENTS
from ..runtime.game import load


class UsageError(RailspecError):
    """A command line that cannot be run (a bad option value, an unwritable output)."""


def load_variant(name: str):
    """A variant; a provisional spec's warning is printed once, as a line of its own."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProvisionalSpecWarning)
        variant = load(name)
    for warning in caught[:1]:
        print(f"railspec: {warning.message}", file=sys.stderr)
    return variant


def progress(total: int, desc: str, quiet: bool):
    """A tqdm bar when stderr is a terminal and not ``--quiet``; nothing otherwise, so
    that logs and CI output do not fill with its frames."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm  # a core dependency, but slow to import (a third of the CLI's start)
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True)


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (so that writing one would overwrite the other)."""
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError):
        return False


def write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def stock_or_ask(name, file: str, what: str, option: str = "--spec"):
    """The stock variant a file names; for any other name, an error saying to pass the
    spec (a file never makes railspec read a path it names)."""
    if not isinstance(name, str) or name not in stock_names():
        raise UsageError(f"{file}: the {what} is of variant {name!r}, which is not a stock variant: "
                         f"pass its spec file with {option} FILE.rail")
    return load_variant(name)


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (exit status 2) instead of the usage block."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def whole(low: int):
    """An argparse type: a whole number of at least ``low``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is less than {low}")
        return value
    parse.__name__ = "whole number"
    return parse


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535 (0: any free port). The socket layer would
    take a larger number modulo 65536 and serve somewhere else than asked."""
    value = whole(0)(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535)")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def output_path(text: str) -> str:
    """An argparse type: a file that can be written ("-" for standard output). Checked
    before any work, so a long run does not end in a write error."""
    if text == "-":
        return text
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("an empty file name: name the file to write")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a directory, not a file")
    parent = path.parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: no directory {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return text


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Each option's default after its help; an option without a value by default says in
    words what happens then."""

    def _get_help_string(self, action):
        if action.default is None or "(default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def agent_list(text: str) -> tuple[str, ...]:
    """``--agents``: comma-separated agent names, each one known."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one agent")
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"no agent named {unknown[0]!r}; the agents are {', '.join(AGENTS)}")
    return names


def output_folder(text: str) -> str:
    """An argparse type: a folder that exists and can be written, or one that can be made
    in a folder that exists (as ``output_path`` wants its file's folder: a mistyped path
    never creates a chain of folders)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty folder name: name the folder to write into")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} exists and is not a folder")
    probe = path if path.exists() else path.parent
    if not probe.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write into {text}: no directory {probe}")
    if not os.access(probe, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write into {text}: permission denied")
    return text
