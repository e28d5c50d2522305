"""The language of long tickets: the ticket form ``ticket long A - B N``, the deal part
``deal tickets N long L keep K`` and the returned deck ``returned long PLACE``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast

#: The deck's name, as tickets, deals and returns name it.
DECK = "long"


@dataclass(frozen=True)
class LongTicket(ast.TicketForm):
    rule: ClassVar[str] = "long_ticket"
    form: ClassVar[str] = "long"
    deck: ClassVar[str] = DECK


@dataclass(frozen=True)
class LongDeal(ast.DealPart):
    rule: ClassVar[str] = "long_deal"
    form: ClassVar[str] = "long L"
    deck: ClassVar[str] = DECK
