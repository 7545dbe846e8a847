"""A game's settings as a typed, frozen record, and its JSON form in the games table.

Read from the database with a schema check: keys an older judge stored and this one no
longer knows are ignored, keys a game made before a new setting lacks take their
defaults, and a value of the wrong type is refused with an error naming the setting.
Changes are made with `dataclasses.replace`; `games.update_game(settings=...)` stores them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class GameSettings:
    """What the master set for one game; defaults as a new game has them (the players'
    hand-overs are the game's state: judge/store/handovers.py). Lengths are numbers as
    given (an int from a default, a float after a SET command), so their JSON stays as it
    was stored."""

    orders: str = "replace"  # DATC 4.D.1 c; "merge" as njudge does
    move_hours: float = 48
    retreat_hours: float = 24
    adjust_hours: float = 24
    deadline_time: str | None = None  # "HH:MM" in the judge's zone: deadlines move to it
    weekdays: tuple[int, ...] | None = None  # Monday 0: deadlines only on these days
    grace_hours: float = 24  # after the deadline, late players have this long
    delay_minutes: float = 0  # when all orders are in: process after this delay
    reminder_hours: float = 24  # remind players missing orders this long before the deadline
    nmr: bool = True  # at the end of grace: process (civil disorder) or wait for the master
    absence_max_days: float = 7  # how far absences may push a deadline
    press: str = "white"  # white, grey (anonymous; the master sees the sender) or none
    partial: bool = True  # press to some powers only (False: broadcasts only)
    observer_press: bool = False  # observers may broadcast
    list: str | None = None  # the game's own list address: every public mail goes there too
    map: bool = True  # a picture of the board on results, start and PREDICT mails (SET MAP)
    # DATC section 4 choices that differ from the preferred ones, as Rules.to_json gives
    # them: kept a read-only mapping, since judge.engine.rules.Rules is their typed form.
    rules: Mapping[str, Any] = field(default_factory=_empty)
    victory: int | None = None  # supply centres to win; None: the map's own number
    end_year: int | None = None  # the game ends after this year's Fall
    end_mode: str = "draw"  # at end_year: "draw" (the survivors) or "most" (most centres)
    stale_years: int | None = 7  # DPTG II: a draw after this many years of no centre changing
    max_years: int | None = 35  # DPTG II: a draw after this many game years
    listed: bool = True  # SET [NO] LIST: whether LIST and LIST FULL show the game
    comment: str = ""  # SET COMMENT: the short comment under the game in LIST
    long_comment: str = ""  # SET COMMENT BEGIN: the long comment of LIST name, LIST FULL
    # njudge's master flags (issue 17): phases processed only by the master's PROCESS; a
    # full game started only by the master; SET WAIT only for players owing orders; a
    # moderated game's settings are the master's (unmoderated: every player's too).
    manual_process: bool = False
    manual_start: bool = False
    strict_wait: bool = False
    moderated: bool = True
    # njudge's SET GRACE date: the grace of phase grace_phase ends at grace_until (ISO),
    # not grace_hours after its deadline; other phases keep grace_hours.
    grace_until: str | None = None
    grace_phase: str | None = None
    # njudge's press settings (issue 18; press itself above: "white/grey" and "grey/white"
    # allow both, the first the default): fakes "no", "may" (PARTIAL MAY BE FAKED) or
    # "broadcast" (PARTIAL FAKES BROADCAST); observers' press only white; press in retreat
    # and build phases; from players late with orders; held and mailed with the results;
    # the masters' copies of partial press (NORMAL PRESS: only press to them).
    fake: str = "no"
    observer_white: bool = False
    minor_press: bool = True
    late_press: bool = True
    postal_press: bool = False
    all_press: bool = True
    # njudge's SET [NO] APPROVAL: a newcomer taking over a power may not order until the
    # master's SET APPROVE; `unapproved` holds the power keys still waiting for it.
    approval: bool = False
    unapproved: tuple[str, ...] = ()
    # njudge's SET START date: a forming game full before this moment (ISO) waits for it.
    start_at: str | None = None
    # njudge's gunboat option (issue 18, judge/game/anonymity.py): players' identities
    # hidden from the others and from observers until the end (revealed then unless NO
    # REVEAL); SHOW: setting changes signed by the changer's address (None: the default,
    # no in gunboat, yes otherwise); QUIET: no late/abandoned/takeover announcements;
    # SECRET: also hide how many players have joined.
    gunboat: bool = False
    reveal: bool = True
    show: bool | None = None
    quiet: bool = False
    secret: bool = False

    def __post_init__(self) -> None:
        # A change made with replace() may pass a dict or a list: kept read-only, as read.
        for name in ("weekdays", "rules", "unapproved"):
            object.__setattr__(self, name, _frozen(_plain(getattr(self, name))))

    def to_json(self) -> dict[str, Any]:
        """The settings as the games table stores them (plain JSON values)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def with_value(self, name: str, value: float | None) -> GameSettings:
        """These settings with the number setting `name` (a length, a count of years)
        changed: for commands that pick the setting from a table. ValueError when `name`
        is not a setting or `value` is not what it holds."""
        if name not in _SCHEMA or not _SCHEMA[name][0](value):
            raise ValueError(f"the game setting {name!r} cannot be {value!r}")
        changes: dict[str, Any] = {name: value}  # checked above, as from_json checks
        return replace(self, **changes)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        """Settings from their stored JSON object: unknown keys ignored, missing keys
        defaulted. SettingsError names the first setting whose value has the wrong type."""
        if not isinstance(data, Mapping):
            raise SettingsError(f"game settings must be a JSON object, not {_shown(data)}")
        known: dict[str, Any] = {}
        for name, value in data.items():
            if name not in _SCHEMA:
                continue  # a setting of an older judge
            accepts, expected, convert = _SCHEMA[name]
            if not accepts(value):
                raise SettingsError(
                    f"the game setting {name!r} should be {expected}, not {_shown(value)}"
                )
            known[name] = convert(value)
        return cls(**known)

    @classmethod
    def loads(cls, text: str) -> GameSettings:
        """Settings from the stored JSON text (see from_json). The same text gives the
        same (frozen) value, read once: an order mail reads its game's row seven times."""
        return _loaded(text)

    def dumps(self) -> str:
        """The stored JSON text of the settings."""
        return json.dumps(self.to_json())


class SettingsError(ValueError):
    """Stored settings that do not fit GameSettings."""


def _shown(value: Any) -> str:
    return json.dumps(value) if _is_json(value) else repr(value)


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _plain(value: Any) -> Any:
    """A setting's value as plain JSON: mappings as dicts, tuples as lists."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# -- the schema: per setting, what it accepts, how that is said, and its typed form ----------


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _or_none(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _weekdays(value: Any) -> bool:
    return isinstance(value, list) and all(_integer(d) and 0 <= d <= 6 for d in value)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _object(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def _same(value: Any) -> Any:
    return value


def _frozen(value: Any) -> Any:
    """A JSON value read-only: objects as read-only mappings, arrays as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_Check = tuple[Callable[[Any], bool], str, Callable[[Any], Any]]
_NUMBER: _Check = (_number, "a number", _same)
_BOOLEAN: _Check = (_boolean, "true or false", _same)
_STRING: _Check = (_string, "a string", _same)
_OPTIONAL_STRING: _Check = (_or_none(_string), "a string or null", _same)
_OPTIONAL_INTEGER: _Check = (_or_none(_integer), "a whole number or null", _same)

_SCHEMA: dict[str, _Check] = {
    "orders": _STRING,
    "move_hours": _NUMBER,
    "retreat_hours": _NUMBER,
    "adjust_hours": _NUMBER,
    "deadline_time": _OPTIONAL_STRING,
    "weekdays": (_or_none(_weekdays), "a list of weekdays 0 to 6, or null", _frozen),
    "grace_hours": _NUMBER,
    "delay_minutes": _NUMBER,
    "reminder_hours": _NUMBER,
    "nmr": _BOOLEAN,
    "absence_max_days": _NUMBER,
    "press": _STRING,
    "partial": _BOOLEAN,
    "observer_press": _BOOLEAN,
    "list": _OPTIONAL_STRING,
    "map": _BOOLEAN,
    "rules": (_or_none(_object), "an object", lambda v: _frozen(v or {})),
    "victory": _OPTIONAL_INTEGER,
    "end_year": _OPTIONAL_INTEGER,
    "end_mode": _STRING,
    "stale_years": _OPTIONAL_INTEGER,
    "max_years": _OPTIONAL_INTEGER,
    "listed": _BOOLEAN,
    "comment": _STRING,
    "long_comment": _STRING,
    "manual_process": _BOOLEAN,
    "manual_start": _BOOLEAN,
    "strict_wait": _BOOLEAN,
    "moderated": _BOOLEAN,
    "grace_until": _OPTIONAL_STRING,
    "grace_phase": _OPTIONAL_STRING,
    "fake": _STRING,
    "observer_white": _BOOLEAN,
    "minor_press": _BOOLEAN,
    "late_press": _BOOLEAN,
    "postal_press": _BOOLEAN,
    "all_press": _BOOLEAN,
    "approval": _BOOLEAN,
    "unapproved": (_strings, "a list of power names", _frozen),
    "start_at": _OPTIONAL_STRING,
    "gunboat": _BOOLEAN,
    "reveal": _BOOLEAN,
    "show": (_or_none(_boolean), "true, false or null", _same),
    "quiet": _BOOLEAN,
    "secret": _BOOLEAN,
}


# Settings texts read lately: a few hundred games' worth, a kilobyte or so each.
LOADED_LIMIT = 512


@lru_cache(maxsize=LOADED_LIMIT)
def _loaded(text: str) -> GameSettings:
    """GameSettings.loads, remembered (an error is raised again each time, not kept)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SettingsError(f"the game settings are not JSON: {e}") from e
    return GameSettings.from_json(data)
