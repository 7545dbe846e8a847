"""DIARY (njudge's): a seat's private notes in its game, recorded, listed, read and
deleted; judge/game/diaries.py mails them to everyone when the game ends."""

from __future__ import annotations

from datetime import datetime

from judge.commands.language import Command, carries_password
from judge.commands.run import Run, need_block, refuse
from judge.game.dates import format_moment
from judge.store import diary, games

# The characters of diary entries one mail's answer shows (DIARY READ): two whole entries.
READ_CHARS_PER_MAIL = 2 * diary.MAX_ENTRY_CHARS


def diary_command(run: Run, cmd: Command) -> None:
    """DIARY RECORD (with its text), LIST, READ n, DELETE n for the open block's seat."""
    block = need_block(run, cmd)
    if not block:
        return
    db, seat, game = run.ctx.db, block.seat, block.game
    action, *rest = cmd.args
    if action == "RECORD":
        _record(run, cmd, game, seat, rest[0] if rest else "")
    elif action == "LIST":
        zone = run.ctx.config.zone
        listed = [
            {
                "number": e.number,
                "modified": format_moment(datetime.fromisoformat(e.modified_at), zone),
            }
            for e in diary.entries(db, seat)
        ]
        run.event("diary_list", cmd, game=game.name, entries=listed)
    else:
        number = int(rest[0])
        found = [e for e in diary.entries(db, seat) if e.number == number]
        if not found:
            refuse(run, cmd, "diary_no_entry", number=number)
        elif action == "READ":
            _read(run, cmd, number, found[0].text)
        else:
            diary.delete(db, seat, number)
            run.event("diary_deleted", cmd, number=number)


def _record(run: Run, cmd: Command, game: games.Game, seat: games.Seat, text: str) -> None:
    """A new entry, within the limits of its size and of the seat's count of entries."""
    if not text.strip():
        refuse(run, cmd, "diary_empty")
    elif len(text) > diary.MAX_ENTRY_CHARS:
        refuse(run, cmd, "diary_too_long", limit=diary.MAX_ENTRY_CHARS)
    elif diary.count(run.ctx.db, seat) >= diary.MAX_ENTRIES:
        refuse(run, cmd, "diary_full", limit=diary.MAX_ENTRIES)
    else:
        # Mailed to everyone at the end: a line that seems to carry a password is kept
        # masked, as replies echo lines.
        text = "\n".join(_masked(line) for line in text.split("\n"))
        if _room(run, cmd, game, seat, len(text)):
            number = diary.record(run.ctx.db, game, seat, text, run.ctx.now)
            run.event("diary_recorded", cmd, game=game.name, number=number)


def _room(run: Run, cmd: Command, game: games.Game, seat: games.Seat, size: int) -> bool:
    """Whether the seat's share of the game's diaries (the observers' together, or the
    players' and masters' together) has room for `size` more characters; refused if not."""
    observer = seat.role == games.OBSERVER
    limit = diary.OBSERVERS_CHARS if observer else diary.GAME_CHARS - diary.OBSERVERS_CHARS
    left = max(0, limit - diary.held(run.ctx.db, game, observer))
    if size <= left:
        return True
    if observer:
        refuse(run, cmd, "diary_observers_full", game=game.name, limit=limit, left=left)
    else:
        refuse(run, cmd, "diary_game_full", game=game.name, limit=limit, left=left)
    return False


def _read(run: Run, cmd: Command, number: int, text: str) -> None:
    """The entry into the answer, if the mail's answer has room for it: at most
    READ_CHARS_PER_MAIL characters of entries (the answer goes to the From: address, and
    a signed-on sender's is never held back: ten entries of 20,000 characters made a
    200 KB answer of a mail of ten lines)."""
    shown = sum(len(e["entry"]) for e in run.events if e["kind"] == "diary_read")
    if shown + len(text) > READ_CHARS_PER_MAIL:
        refuse(run, cmd, "diary_read_limit", limit=READ_CHARS_PER_MAIL)
    else:
        run.event("diary_read", cmd, number=number, entry=text)


def _masked(line: str) -> str:
    """The line with everything after a word a password follows (SIGNON, PASSWORD, ...,
    anywhere in it) replaced by ****; other lines as written."""
    words = line.split()
    for at, word in enumerate(words):
        if carries_password(word):
            return " ".join([*words[: at + 1], "****"])
    return line
