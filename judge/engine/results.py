"""Order results: the codes of Contract 1 and one order line on its way through a phase."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .orders import Order, order_text
from .problems import Problem, Reason

OK, BOUNCE, CUT, DISLODGED, VOID = "ok", "bounce", "cut", "dislodged", "void"
NO_CONVOY, DISRUPTED, DISBAND = "no convoy", "disrupted", "disband"

# Why an order is not used when a later order for the same unit is (DATC 4.D.3).
REPLACED = Problem("order_replaced")


class OrderResult(NamedTuple):
    """One order's outcome. A NamedTuple: immutable, and cheap to make by the thousand."""

    power: str
    given: str  # the text as given ("" for an order the judge made)
    order: str  # canonical short form of what was understood (the text if nothing was)
    result: str  # ok bounce cut dislodged void "no convoy" disrupted disband
    error: Reason | None = None  # why the order was rejected
    notes: tuple[Reason, ...] = ()  # how a misspelling was read, what a rule made of it


@dataclass(slots=True)
class Entry:
    """One order line as it goes through reading and checking."""

    power: str
    given: str
    parsed: Order | None = None
    legal: Order | None = None
    error: Reason | None = None
    notes: tuple[Reason, ...] = ()

    def result(self, code: str, error: Reason | None = None) -> OrderResult:
        shown = self.legal or self.parsed
        text = order_text(shown) if shown is not None else self.given
        return OrderResult(self.power, self.given, text, code, error or self.error, self.notes)
