"""The values passed between the layers: a mail to send (`Reply`) and the board picture
it carries (`Picture`). Commands, the game and the service make them; the mail layer
renders and sends them. Nothing here knows a game, a command or a transport."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# The kind of the answer to a mail that signed on with a right password: never held
# back by the rate limit or the reply cap (judge/service/handling.py, judge/game/outgoing.py).
SIGNED_REPLY = "signed reply"


@dataclass(frozen=True)
class Picture:
    """A board picture to attach: its file name and what to draw (JSON-ready)."""

    name: str  # e.g. board-F1901M.png
    position: dict[str, Any]  # the board the orders were given on (Contract 1 input shape)
    results: dict[str, Any] | None = None  # the phase's results (Contract 1 output shape)
    after: dict[str, Any] | None = None  # the board the phase led to, when drawn after it
    caption: str | None = None  # lines under the phase in the legend

    def to_json(self) -> str:
        return json.dumps(
            {
                "name": self.name,
                "position": self.position,
                "results": self.results,
                "after": self.after,
                "caption": self.caption,
            },
            sort_keys=True,
            separators=(",", ":"),
        )


@dataclass(frozen=True)
class Reply:
    """A mail to send: recipients, the template to render and its variables."""

    to: tuple[str, ...]
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    kind: str = "reply"
    in_reply: bool = True  # threads under the submission (In-Reply-To, References)
    headers: tuple[tuple[str, str], ...] = ()  # e.g. List-Id on mail to a list
    picture: Picture | None = None  # a board picture to attach (judge/game/pictures.py)
    message_id: str | None = None  # fixed in advance (a lock notice's key), else made when queued
