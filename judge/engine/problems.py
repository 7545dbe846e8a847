"""Why an order is refused or fails, as a code and the values the words need.

The engine says what is wrong, not how to say it: the words of each code are the
template templates/problems/<code>.txt, rendered outside the engine
(judge/variants/problem_text.py). Every reason and note the engine gives is a Problem;
a `Reason` may still be a sentence because the judge's callers put their own reasons
and the rendered words in the same places (game/proxies.py, game/play.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

# A value is one piece of text (a unit, a place's name), several (places to list), or
# another Problem whose words it wraps (a reason and what a game's rules make of it).
Value: TypeAlias = "str | tuple[str, ...] | Problem"

_NO_VALUES: Mapping[str, Value] = MappingProxyType({})


class Problem(NamedTuple):
    """One reason, e.g. Problem("retreat_not_allowed", {"unit": "A BUR", ...}).

    A NamedTuple, as the engine's results are: immutable, and made by the thousand
    (every refused order of every phase) at a fraction of a frozen dataclass's cost."""

    code: str  # names its template, templates/problems/<code>.txt
    values: Mapping[str, Value] = _NO_VALUES

    def __hash__(self) -> int:
        # Results holding a Problem stay hashable; the Mapping itself is not. A frozenset
        # of the items, as equal Mappings are equal in any order (and cheaper than sorting:
        # every refused order's words are looked up by this hash).
        return hash((self.code, frozenset(self.values.items())))


Reason = str | Problem  # a Problem, or a sentence (a caller's own, or a Problem's words)


class ProblemError(ValueError):
    """An order refused for `problem`; raised where the reason is found, caught where
    the order's entry records it. Its one argument is the Problem (the engine has no
    words); no __init__ of its own, so raising one costs no more than a ValueError."""

    if TYPE_CHECKING:  # the constructor's type; at run time, BaseException's own

        def __init__(self, problem: Problem) -> None: ...

    @property
    def problem(self) -> Problem:
        """Why the order is refused."""
        problem: Problem = self.args[0]
        return problem
