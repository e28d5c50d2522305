"""Tuning a map: a search of spec changes toward the balance its author asks for
(``railspec tune``; docs/tuning.md).

A run plays many short balance campaigns on candidate specs, each an overlay that
``extends`` the input with a few changed statements (:mod:`.changes`), seated and seeded as a
campaign is, the same seeds on both sides of every comparison (:mod:`.play`); it keeps a
change only when fresh paired games put its gain outside the noise (:mod:`.stats`,
:mod:`.search`), and measures the result on seeds the search never used (:mod:`.tuner`).
The target and the distance to it are :mod:`.target`'s.
"""
from __future__ import annotations

from .changes import KINDS, PHASES, ChangeError, ChangeKind, read_changes
from .search import WIDTH
from .target import SEATS_EQUAL, STYLES_EQUAL, Target, TargetError, read_target
from .tuner import Request, Result, tune

__all__ = ["KINDS", "PHASES", "WIDTH", "ChangeError", "ChangeKind", "read_changes", "SEATS_EQUAL", "STYLES_EQUAL",
           "Target", "TargetError", "read_target", "Request", "Result", "tune"]
