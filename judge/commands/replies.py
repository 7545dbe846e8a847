"""What a command run produces: mails to send, and what a command may use."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import sqlite_utils

from judge.config import Config
from judge.pictures import Picture

# The kind of the answer to a mail that signed on with a right password: never held
# back by the rate limit or the reply cap (judge/handling.py, judge/outgoing.py).
SIGNED_REPLY = "signed reply"


@dataclass(frozen=True)
class Reply:
    """A mail to send: recipients, the template to render and its variables."""

    to: tuple[str, ...]
    template: str
    context: dict = field(default_factory=dict)
    kind: str = "reply"
    in_reply: bool = True  # threads under the submission (In-Reply-To, References)
    headers: tuple[tuple[str, str], ...] = ()  # e.g. List-Id on mail to a list
    picture: Picture | None = None  # a board picture to attach (judge/pictures.py)
    message_id: str | None = None  # fixed in advance (a lock notice's key), else made when queued


@dataclass(frozen=True)
class Context:
    """What a command may use: the store (inside the message's transaction), the
    configuration and the time the message is being handled."""

    db: sqlite_utils.Database
    config: Config
    now: datetime
    inbound_id: int | None
