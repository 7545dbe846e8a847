"""Phases as masters name them in PROCESS and ROLLBACK (replies name them by their codes,
worded by templates/words.txt)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from judge.commands.run import Run
from judge.engine.phase import Phase
from judge.game import njudge_lines
from judge.game.errors import CommandError
from judge.store import games, inbox

_PHASE_CODE = re.compile(r"([SFWU])(\d{4})([MRAB])", re.IGNORECASE)


_TURN_NUMBER = re.compile(r"[0-9]+")  # ASCII digits only: int() reads them all
_TURN_DIGITS = 6  # a longer number is no turn of any game (and int() need not read it)
_PHASE_WORDS = re.compile(r"([a-z]+)\s+(\d{4})\s+([a-z]+)", re.IGNORECASE)


def phase_named(text: str) -> str | None:
    """A phase as a master names it, in our terms (`S1901M`, `W1901A`), or None. Accepts
    our codes, njudge's (`F1901B` for the adjustments) and njudge's words, of which only
    the first letters count (`Fall 1905 Retreat`, `Winter 1905 Build`)."""
    text = text.strip()
    if m := _PHASE_CODE.fullmatch(text):
        season, year, kind = m.group(1).upper(), m.group(2), m.group(3).upper()
    elif m := _PHASE_WORDS.fullmatch(text):
        season = {"A": "F"}.get(m.group(1)[0].upper(), m.group(1)[0].upper())  # Autumn
        year, kind = m.group(2), m.group(3)[0].upper()
    else:
        return None
    if kind in "AB":  # adjustments: njudge's F1901B, "Winter 1901 Build", our W1901A
        season, kind = "W", "A"
    try:
        return str(Phase.parse(f"{season}{year}{kind}"))
    except ValueError:
        return None


def rollback_target(written: str, names: Sequence[str]) -> str:
    """The phase `ROLLBACK written` names, given the game's phases so far (oldest first,
    the last the current one). A number is njudge's turn number: each stored phase is one
    played (skipped ones are not stored), so turn n is the n-th, the game as it was before
    turn n was processed (`ROLLBACK 1`: the start). Raises CommandError("no_such_turn")
    for a number that is no earlier turn. Else a phase as phase_named reads it (`F1901B`
    = `W1901A`), or the text as written, which the caller refuses as no earlier phase."""
    if _TURN_NUMBER.fullmatch(written):
        turn = int(written) if len(written) <= _TURN_DIGITS else 0
        # Turn n is njudge_lines' (the n-th stored phase); the current one is no earlier turn.
        phase = njudge_lines.phase_of_turn(names[:-1], turn)
        if phase is None:
            shown = written if len(written) <= _TURN_DIGITS else written[:_TURN_DIGITS] + "..."
            raise CommandError("no_such_turn", turn=shown, current=len(names), phase=names[-1])
        return phase
    return phase_named(written) or written


def arrived_during(run: Run, game: games.Game) -> str | None:
    """None if the game's current phase was already under way when this mail arrived;
    else the phase that was (or "" if the game had not started). A phase moved by an
    earlier command of the same mail started after the mail arrived, too."""
    if run.ctx.inbound_id is None:  # not from a stored mail (the operator's own tools)
        return None
    arrived = inbox.received_at(run.ctx.db, run.ctx.inbound_id)
    if arrived is None:
        return None
    received = datetime.fromisoformat(arrived)
    if games.phase_started(run.ctx.db, game) < received:
        return None
    before = [
        (datetime.fromisoformat(mark.started_at), mark.phase)
        for mark in games.phase_marks(run.ctx.db, game)
        if datetime.fromisoformat(mark.started_at) < received
    ]
    return max(before)[1] if before else ""
