"""Crash points: a test hook that kills the judge at a named step.

`JUDGE_CRASH_AT="smtp-stored:3,send-delivered:1"` makes the process SIGKILL itself the
3rd time it passes `smtp-stored`, or the 1st time it passes `send-delivered`. Unset (as
always outside the crash-safety tests) it costs one dictionary look-up.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

_PLAN: dict[str, int] = {}
for _item in filter(None, os.environ.get("JUDGE_CRASH_AT", "").split(",")):
    _name, _, _n = _item.partition(":")
    _PLAN[_name.strip()] = int(_n or 1)
_passed: Counter[str] = Counter()


def crash_point(name: str) -> None:
    if name in _PLAN:
        _passed[name] += 1
        if _passed[name] == _PLAN[name]:
            os.kill(os.getpid(), signal.SIGKILL)
