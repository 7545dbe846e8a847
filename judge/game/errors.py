"""Why a command's text is refused, as a code and the values the words need (issue 15).

The readers of the game layer (dates, SET RULES, preference lists), the command reader
and the commands' handlers say what is wrong, not how to say it: the words of each code
are the template templates/errors/<code>.txt, which the acknowledgement includes with
the values as `e` (templates/events/error.txt). So no reply is worded in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# The names Run.event (judge/commands/run.py) takes itself or gives the event: a value
# of the same name would clash with them, hide them or be hidden.
RESERVED = frozenset({"kind", "command", "line", "text", "code"})


ECHO_CHARS = 60  # of a word or argument as written, repeated in a refusal


def as_written(text: str) -> str:
    """`text` as a refusal repeats it: its spaces as one, at most ECHO_CHARS characters
    ("..." marks a cut), so that a refused argument of thousands never fills the answer."""
    text = " ".join(text.split())
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 3] + "..."


@dataclass(frozen=True)
class Refusal:
    """One reason, e.g. Refusal("length_unreadable", {"written": "2 fortnights"})."""

    code: str  # names its template, templates/errors/<code>.txt
    values: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        clash = RESERVED & set(self.values)
        if clash:
            raise ValueError(f"{self.code}: {sorted(clash)} cannot be the name of a value")

    def __hash__(self) -> int:
        # Commands holding a Refusal stay hashable; the Mapping itself is not.
        return hash((self.code, tuple(sorted((k, repr(v)) for k, v in self.values.items()))))


class CommandError(ValueError):
    """A command's text refused: templates/errors/<code>.txt words why, from `values`."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code)
        self.refusal = Refusal(code, values)
        self.code = code
        self.values = self.refusal.values
