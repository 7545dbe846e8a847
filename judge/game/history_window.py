"""HISTORY's window: which processed phases and broadcasts a HISTORY command asks for.

njudge's two forms (its `history` help file), whose words judge/commands/language.py
has already sorted into clauses:

* `[FROM date] [TO date] [LINES n]`: a window of real time. FROM defaults to 7 days
  before now, TO to now; a TO before the FROM is ignored (njudge: the window then ends
  now). Dates are read by judge/game/dates.parse_past_moment in the judge's zone.
* `EXCLSTART turn [EXCLEND turn] [BROAD]`: a range of phases left out, whatever the
  dates. EXCLSTART alone keeps the phases before that turn; with EXCLEND it keeps all
  but the turns from EXCLSTART to EXCLEND, both included. A turn need not be one the
  game played: with EXCLEND the two are a range; EXCLSTART alone naming a turn the game
  never had gives the whole history (njudge; judge/commands/information.py checks the
  game's turns, which this module does not see). BROAD adds njudge's notices, which this
  judge does not keep in a game's history: it changes nothing.

Either form shows at most MAX_LINES lines, whole entries (a phase's or a broadcast's
heading and lines), in the order they happened; the date form's LINES n lowers that (a
larger n is MAX_LINES). Pure: the clock and the zone are passed in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from judge.engine.phase import ADJUSTMENTS, Phase
from judge.game.dates import parse_past_moment
from judge.game.errors import CommandError

DEFAULT_SPAN = timedelta(days=7)  # FROM, when not given: this long before now
MAX_LINES = 1000  # the most lines one HISTORY shows, and the default
# njudge's turn: season, 4-digit year, phase; B (njudge's builds) and A (ours) are the
# adjustments, written F1905B by njudge and W1905A by us.
_TURN = re.compile(r"([SFW])(\d{4})([MRAB])")
_DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: int() takes other scripts' too


@dataclass(frozen=True)
class Window:
    """What one HISTORY shows: a span of time, or the phases outside a range of turns."""

    lines: int  # at most this many lines
    start: datetime | None = None  # the date form's span (aware UTC), both ends included
    end: datetime | None = None
    excl_start: Phase | None = None  # the turn form: left out from this phase ...
    excl_end: Phase | None = None  # ... to this one (None: to the end of the game)
    turns: tuple[str, ...] = ()  # the turns as written (upper case), to show them

    def keeps_moment(self, moment: datetime) -> bool:
        """Whether something that happened at `moment` lies in the date form's span."""
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment <= self.end
        )

    def keeps_phase(self, phase: Phase | None) -> bool:
        """Whether what belongs to `phase` lies outside the turn form's range (what
        belongs to no phase, before the game started, is always kept)."""
        if self.excl_start is None or phase is None:
            return True
        if phase.sort_key < self.excl_start.sort_key:
            return True
        return self.excl_end is not None and phase.sort_key > self.excl_end.sort_key


def read_window(clauses: Mapping[str, str], now: datetime, zone: ZoneInfo) -> Window:
    """The window that HISTORY's clauses (keyword -> its words, e.g. {"FROM": "Jan 1,
    2026", "LINES": "50"}) name. Raises CommandError (a code and values, worded by
    templates/errors/<code>.txt) for a date, a turn or a number it cannot read."""
    lines = read_lines(clauses["LINES"]) if "LINES" in clauses else MAX_LINES
    if "EXCLSTART" in clauses:
        first = read_turn(clauses["EXCLSTART"])
        last = read_turn(clauses["EXCLEND"]) if "EXCLEND" in clauses else None
        turns = tuple(clauses[k].upper() for k in ("EXCLSTART", "EXCLEND") if k in clauses)
        return Window(lines, excl_start=first, excl_end=last, turns=turns)
    start = parse_past_moment(clauses["FROM"], now, zone) if "FROM" in clauses else None
    end = parse_past_moment(clauses["TO"], now, zone) if "TO" in clauses else None
    start = now - DEFAULT_SPAN if start is None else start
    if end is None or end < start:  # njudge ignores a TO before the FROM
        end = now
    return Window(lines, start=start, end=end)


def read_turn(text: str) -> Phase:
    """`S1902M`, `F1902R`, `F1905B` or `W1905A` -> the phase; a CommandError else."""
    m = _TURN.fullmatch(text.strip().upper())
    if m is None:
        raise CommandError("turn_unreadable", written=_quote(text))
    season, year, kind = m[1], int(m[2]), m[3]
    if kind in "AB" and season in "FW":
        return Phase(year, "W", ADJUSTMENTS)
    if kind in "MR" and season in "SF":
        return Phase(year, season, kind)
    raise CommandError("turn_unreadable", written=_quote(text))


def read_lines(text: str) -> int:
    """LINES' number: 1 or more; more than MAX_LINES is MAX_LINES."""
    digits = text.strip()
    significant = digits.lstrip("0")
    if not _DIGITS.fullmatch(digits) or not significant:
        raise CommandError("lines_unreadable", written=_quote(text), limit=MAX_LINES)
    if len(significant) > 9:  # a huge number (never turned into an int): the most there is
        return MAX_LINES
    return min(int(significant), MAX_LINES)


def within_lines(sizes: Sequence[int], limit: int) -> int:
    """How many of the entries, taken in order, fit in `limit` lines (an entry's size
    is its lines); the first that does not fit ends the history."""
    used = 0
    for count, size in enumerate(sizes):
        used += size
        if used > limit:
            return count
    return len(sizes)


def _quote(text: str) -> str:
    """`text` as written, shortened to fit a line."""
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."
