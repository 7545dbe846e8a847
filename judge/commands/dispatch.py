"""The dispatcher: runs a submission's commands and says what to answer.

Until the command language arrives (play by mail), every submission is acknowledged
with the lines the judge read from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import sqlite_utils

from judge.config import Config
from judge.mail.message import Submission, reply_address


@dataclass(frozen=True)
class Reply:
    """A mail to send: recipients, the template to render and its variables."""

    to: tuple[str, ...]
    template: str
    context: dict = field(default_factory=dict)
    kind: str = "reply"
    in_reply: bool = True  # threads under the submission (In-Reply-To, References)


@dataclass(frozen=True)
class Context:
    """What a command may use: the store (inside the message's transaction), the
    configuration and the time the message is being handled."""

    db: sqlite_utils.Database
    config: Config
    now: datetime
    inbound_id: int


def dispatch(sub: Submission, ctx: Context) -> list[Reply]:
    lines = [line for line in sub.body.splitlines() if line.strip()]
    return [
        Reply(
            (reply_address(sub),),
            "acknowledgement",
            {"sub": sub, "lines": lines, "notes": list(sub.notes)},
        )
    ]
