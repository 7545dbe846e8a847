"""Crash points: a test hook that kills the judge (or makes it raise) at a named step.

`JUDGE_CRASH_AT="smtp-stored:3,send-delivered:1"` makes the process SIGKILL itself the
3rd time it passes `smtp-stored`, or the 1st time it passes `send-delivered`; with a
third field, `handle-queued:1:raise`, it raises RuntimeError there instead (a bug of the
judge's own, for the retry tests). Unset (as always outside those tests) it costs one
dictionary look-up.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

_PLAN: dict[str, tuple[int, str]] = {}
for _item in filter(None, os.environ.get("JUDGE_CRASH_AT", "").split(",")):
    _name, _, _rest = _item.partition(":")
    _n, _, _how = _rest.partition(":")
    _PLAN[_name.strip()] = (int(_n or 1), _how.strip() or "kill")
_passed: Counter[str] = Counter()


class CrashPointError(RuntimeError):
    """Raised at a crash point planned with `:raise`."""


def crash_point(name: str) -> None:
    if name in _PLAN:
        _passed[name] += 1
        n, how = _PLAN[name]
        if _passed[name] == n:
            if how == "raise":
                raise CrashPointError(f"crash point {name}")
            os.kill(os.getpid(), signal.SIGKILL)
