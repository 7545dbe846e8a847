"""njudge's machine-read lines: the values of the `::` header, the subject's
`CODE:game - PHASE` prefix, the turn number `(game.NNN)` and the time left to the
deadline. Mapping and archive tools written for njudge read these, so their shape is
njudge's exactly; the words around them are in templates/words.txt (`judge_header`,
`subject_prefix`, `time_left`).

The adjustment phase is printed `F1901B` here, as njudge prints it (tools written for
njudge expect it), though the game stores it as Contract 1's `W1901A`; every command that
reads a phase accepts both (judge/commands/phases.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from judge.config import Config
from judge.engine.geography import MapError
from judge.store import games
from judge.variants.maps import load_map

# strftime's %a and %b follow the locale: njudge's tools read the English names.
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # a game not yet started shows it as its deadline


def njudge_phase(code: str) -> str:
    """The phase as njudge prints it: `W1901A` -> `F1901B`; other codes unchanged."""
    if len(code) >= 3 and code[0] == "W" and code[-1] == "A":
        return f"F{code[1:-1]}B"
    return code


def ptime(moment: datetime | None, zone: ZoneInfo) -> str:
    """njudge's date, strftime `%a %b %d %Y %H:%M:%S %z` in `zone` with English names
    whatever the locale (`Tue Jan 06 2004 23:30:00 +0000`); None is the epoch in UTC."""
    local = EPOCH if moment is None else moment.astimezone(zone)
    offset = local.strftime("%z") or "+0000"
    return (
        f"{_DAYS[local.weekday()]} {_MONTHS[local.month - 1]} {local.day:02d} {local.year} "
        f"{local:%H:%M:%S} {offset}"
    )


def turn_number(names: Sequence[str], phase: str) -> int:
    """njudge's turn number of `phase` among the game's stored phases `names` (oldest
    first): the n-th stored phase is turn n. Skipped phases (no retreats, no
    adjustments) are never stored, so they are not counted, as in njudge. A phase not
    stored (a game not yet started) is turn 1."""
    for i in range(len(names) - 1, -1, -1):  # the latest, should a name ever repeat
        if names[i] == phase:
            return i + 1
    return 1


def phase_of_turn(names: Sequence[str], turn: int) -> str | None:
    """The phase that is turn `turn` (see turn_number); None if there is no such turn."""
    return names[turn - 1] if 1 <= turn <= len(names) else None


def game_turn(db: sqlite_utils.Database, game: games.Game, phase: str) -> int:
    """The turn number of `phase` in `game` (see turn_number)."""
    return turn_number([m.phase for m in games.phase_marks(db, game)], phase)


def head(
    config: Config, game: games.Game, phase: str | None = None, deadline: str | None = None
) -> dict[str, Any]:
    """The values of the `::` header and the subject's prefix for a mail about `game`:
    `phase` and `deadline` (ISO) default to the game's current ones. A game not yet
    started shows its first phase and the epoch."""
    if phase is None:
        phase, deadline = game.phase, game.deadline
    if phase is None:
        phase, deadline = _first_phase(game), None
    when = datetime.fromisoformat(deadline) if deadline else None
    return {
        "code": config.name or "XXXX",
        "game": game.name,
        "title": _capitalised(game.name),
        "variant": variant_name(game),
        "phase": njudge_phase(phase),
        "deadline": ptime(when, config.zone),
    }


def head_by_name(db: sqlite_utils.Database, config: Config, name: object) -> dict[str, Any]:
    """`head` of the game named `name` as it is now; for a name no game has (a game
    never stored), the name alone with the first phase and the epoch; for a game whose
    row does not read, what its plain columns say (games.GameRow) with the epoch."""
    row = None
    try:
        game = games.find_game(db, name) if isinstance(name, str) and name else None
    except games.UnreadableGame:  # its row damaged: its name, variant and phase still read
        game, row = None, games.find_game_row(db, str(name))
    if game is not None:
        return head(config, game)
    shown = str(name)
    plain = {
        "code": config.name or "XXXX",
        "game": shown,
        "title": _capitalised(shown),
        "variant": "Standard",
        "phase": "S1901M",
        "deadline": ptime(None, config.zone),
    }
    return {**plain, **_plain_head(row)} if row is not None and row.phase else plain


def _plain_head(row: games.GameRow) -> dict[str, Any]:
    """What `head` gives from a game's plain columns alone (its deadline aside)."""
    return {
        "game": row.name,
        "title": _capitalised(row.name),
        "variant": _capitalised(row.variant),
        "phase": njudge_phase(row.phase or ""),
    }


def time_left(game: games.Game, now: datetime) -> dict[str, Any] | None:
    """What is left until the game's deadline and the end of its grace, each as
    {days, hours, minutes, seconds}, or None once that moment is past; None for both
    (the whole value) when the game is over, paused (its clock stands still) or has no
    deadline."""
    if game.state in (games.FINISHED, games.PAUSED) or not game.deadline:
        return None
    deadline = datetime.fromisoformat(game.deadline)
    grace = deadline.timestamp() + float(game.settings.grace_hours) * 3600
    return {
        "deadline": _parts(deadline.timestamp() - now.timestamp()),
        "grace": _parts(grace - now.timestamp()),
    }


def _parts(seconds: float) -> dict[str, int] | None:
    """Whole days, hours, minutes and seconds in `seconds`; None unless in the future."""
    whole = int(seconds)
    if whole <= 0:
        return None
    minutes, secs = divmod(whole, 60)
    hours, mins = divmod(minutes, 60)
    days, hrs = divmod(hours, 24)
    return {"days": days, "hours": hrs, "minutes": mins, "seconds": secs}


def variant_name(game: games.Game) -> str:
    """The game's variant as njudge's header names it: `Standard`, its option words
    after it (`Standard Gunboat`)."""
    return _capitalised(game.variant) + (" Gunboat" if game.settings.gunboat else "")


def _capitalised(name: str) -> str:
    """njudge's shape for a name in the header: the first letter a capital."""
    return name[:1].upper() + name[1:]


def _first_phase(game: games.Game) -> str:
    """The first phase of a game not yet started (its variant's opening phase)."""
    try:
        return f"S{load_map(game.variant).first_year}M"
    except (MapError, OSError):
        return "S1901M"
