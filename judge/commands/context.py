"""What a command may use while it runs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from judge.config import Config


@dataclass(frozen=True)
class Context:
    """What a command may use: the store (inside the message's transaction), the
    configuration and the time the message is being handled."""

    db: sqlite_utils.Database
    config: Config
    now: datetime
    inbound_id: int | None
