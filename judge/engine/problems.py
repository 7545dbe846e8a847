"""Why an order is refused or fails, as a code and the values the words need.

The engine says what is wrong, not how to say it: the words of each code are the
template templates/problems/<code>.txt, rendered outside the engine
(judge/variants/problem_text.py). Reasons not yet given a code are still sentences:
a `Reason` is either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

# A value is one piece of text (a unit, a place's name), several (places to list), or
# another Problem whose words it wraps (a reason and what a game's rules make of it).
Value: TypeAlias = "str | tuple[str, ...] | Problem"


@dataclass(frozen=True)
class Problem:
    """One reason, e.g. Problem("retreat_not_allowed", {"unit": "A BUR", ...})."""

    code: str  # names its template, templates/problems/<code>.txt
    values: Mapping[str, Value] = field(default_factory=dict)

    def __hash__(self) -> int:
        # Results holding a Problem stay hashable; the Mapping itself is not.
        return hash((self.code, tuple(sorted(self.values.items()))))


Reason = str | Problem  # a Problem, or a sentence of a reason not yet given a code


class ProblemError(ValueError):
    """An order refused for `problem`; raised where the reason is found, caught where
    the order's entry records it."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)  # the code: the engine has no words
        self.problem = problem
