"""njudge's deadline settings read as ours: `SET MOVE|RETREAT|ADJUST CLOCK m MIN h NEXT h
GRACE h DELAY h DAYS -MTWTF-` (njudge.md section 6).

Each part maps onto one of our settings: NEXT the phase's length, CLOCK the time of day
deadlines move to, GRACE and DELAY their lengths, DAYS the weekdays. CLOCK, GRACE, DELAY
and DAYS are one setting for all phases here (njudge has one per phase kind). A part we
cannot represent is refused by name (CommandError "clock_part", worded by
templates/errors/clock_part.txt): a MIN longer than NEXT (our deadline is never before
NEXT), a day allowed only after noon (njudge's lower-case letter).
"""

from __future__ import annotations

import re
from dataclasses import replace

from judge.game.dates import parse_duration
from judge.game.errors import CommandError
from judge.store.settings import GameSettings

# The parts, as njudge names them.
PARTS = ("CLOCK", "MIN", "NEXT", "GRACE", "DELAY", "DAYS")
_MINUTES_A_DAY = 24 * 60
_DAY_LETTERS = "SMTWTFS"  # njudge's DAYS: Sunday first; a capital allowed, - never
_HOURS = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,6})?")  # ASCII: float() reads it exactly
_CLOCK = re.compile(r"-1|[0-9]{1,4}")
_SHOWN = 20  # a value or a word is shown in a refusal at most this long


def is_clock_text(text: str) -> bool:
    """Whether SET MOVE/RETREAT/ADJUST's text is njudge's (starts with one of its parts),
    not our length (SET MOVE 48h)."""
    words = text.split()
    return bool(words) and words[0].upper() in PARTS


def read_clock(
    text: str, length_key: str, settings: GameSettings
) -> tuple[GameSettings, list[str]]:
    """The settings with njudge's parts in `text` applied (`length_key`: the phase kind's
    length, move_hours, retreat_hours or adjust_hours), and the parts given, in order.
    Raises CommandError (clock_part, or a length's own code) for anything not readable
    or not representable; nothing is applied then."""
    values = _parts(text)
    for part, value in values.items():
        settings = _apply(part, value, length_key, settings)
    if "MIN" in values:
        least = _hours(values["MIN"], "MIN")
        if least > float(getattr(settings, length_key)):
            raise CommandError(
                "clock_part", part="MIN", reason="min_over_next", value=_short(values["MIN"])
            )
    return settings, list(values)


def _parts(text: str) -> dict[str, str]:
    """{part: its value as written}: each part once, each followed by one value."""
    words = text.split()
    values: dict[str, str] = {}
    for i in range(0, len(words), 2):
        part = words[i].upper()
        if part not in PARTS:
            raise CommandError("clock_part", part=_short(words[i]), reason="unknown", value="")
        if part in values:
            raise CommandError("clock_part", part=part, reason="twice", value="")
        if i + 1 >= len(words):
            raise CommandError("clock_part", part=part, reason="missing", value="")
        values[part] = words[i + 1]
    return values


def _apply(part: str, value: str, length_key: str, settings: GameSettings) -> GameSettings:
    """The settings with one part applied (MIN is checked by read_clock, once NEXT is)."""
    if part == "CLOCK":
        if not _CLOCK.fullmatch(value) or not -1 <= int(value) < _MINUTES_A_DAY:
            raise CommandError("clock_part", part=part, reason="clock", value=_short(value))
        minutes = int(value)
        shown = None if minutes < 0 else f"{minutes // 60:02d}:{minutes % 60:02d}"
        return replace(settings, deadline_time=shown)
    if part == "NEXT":
        return settings.with_value(length_key, _length_hours(value))
    if part == "GRACE":
        return settings.with_value("grace_hours", _length_hours(value, zero=True))
    if part == "DELAY":
        return settings.with_value("delay_minutes", _length_hours(value, zero=True) * 60)
    if part == "DAYS":
        return replace(settings, weekdays=_days(value))
    return settings  # MIN


def _length_hours(value: str, zero: bool = False) -> float:
    """njudge's hours (a decimal number) as our length in hours, read as our lengths are
    (at most 30 days; zero only where `zero`, GRACE and DELAY)."""
    if zero and _HOURS.fullmatch(value) and float(value) == 0:
        return 0.0
    return parse_duration(value).total_seconds() / 3600


def _hours(value: str, part: str) -> float:
    """A decimal number of hours, as written."""
    if not _HOURS.fullmatch(value):
        raise CommandError("clock_part", part=part, reason="hours", value=_short(value))
    return float(value)


def _days(value: str) -> tuple[int, ...] | None:
    """njudge's DAYS (`-MTWTF-`, Sunday first) as our weekdays (Monday 0); None: all."""
    if len(value) != len(_DAY_LETTERS) or any(
        c != "-" and c.upper() != letter for c, letter in zip(value, _DAY_LETTERS, strict=True)
    ):
        raise CommandError("clock_part", part="DAYS", reason="days", value=_short(value))
    if any(c.islower() for c in value):
        raise CommandError("clock_part", part="DAYS", reason="after_noon", value=value)
    days = tuple(sorted((i - 1) % 7 for i, c in enumerate(value) if c != "-"))
    if not days:
        raise CommandError("clock_part", part="DAYS", reason="no_day", value=value)
    return None if len(days) == len(_DAY_LETTERS) else days


def _short(text: str) -> str:
    """A word as written, shortened for the reply."""
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
