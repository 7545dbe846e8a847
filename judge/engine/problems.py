"""Why an order is refused or fails, as a code and the values the words need.

The engine says what is wrong, not how to say it: the words of each code are the
template templates/problems/<code>.txt, rendered outside the engine
(judge/variants/problem_text.py). Reasons not yet given a code are still sentences:
a `Reason` is either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# A value is one piece of text (a unit, a place's name) or several (places to list).
Value = str | tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    """One reason, e.g. Problem("retreat_not_allowed", {"unit": "A BUR", ...})."""

    code: str  # names its template, templates/problems/<code>.txt
    values: Mapping[str, Value] = field(default_factory=dict)

    def __hash__(self) -> int:
        # Results holding a Problem stay hashable; the Mapping itself is not.
        return hash((self.code, tuple(sorted(self.values.items()))))


Reason = str | Problem  # a Problem, or a sentence of a reason not yet given a code
