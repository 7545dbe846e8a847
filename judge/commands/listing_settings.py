"""The master's settings of how LIST shows a game: SET [NO] LIST (SET PUBLIC, SET PRIVATE,
SET UNLIST) and SET COMMENT [BEGIN], in njudge's syntax (limits: README.md)."""

from __future__ import annotations

from dataclasses import replace

from judge.commands.language import Command
from judge.commands.run import Run, need_master, refuse
from judge.store import games

MAX_COMMENT = 59  # characters of the short comment under a game in LIST (njudge: under 60)
MAX_LONG_COMMENT_LINES = 40  # lines of the long comment (SET COMMENT BEGIN)
MAX_LONG_COMMENT = 2000  # characters of the long comment, its line ends included


def set_listed(run: Run, cmd: Command) -> None:
    """SET LISTED YES or NO: whether LIST and LIST FULL show the game (LIST name always
    shows it)."""
    block = need_master(run, _as_written(cmd))
    if not block:
        return
    listed = cmd.args[0] == "YES"
    settings = replace(block.game.settings, listed=listed)
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("listed", cmd, game=block.game.name, listed=listed)


def set_comment(run: Run, cmd: Command) -> None:
    """SET COMMENT text: the short comment (none: cleared); SET COMMENT BEGIN (args BEGIN
    and the lines after it): the long comment. Refused over their limits."""
    block = need_master(run, _as_written(cmd))
    if not block:
        return
    settings = block.game.settings
    if len(cmd.args) == 2:
        text = cmd.args[1]
        lines = len(text.splitlines())
        if lines > MAX_LONG_COMMENT_LINES or len(text) > MAX_LONG_COMMENT:
            refuse(
                run,
                cmd,
                "long_comment_too_long",
                lines=lines,
                chars=len(text),
                max_lines=MAX_LONG_COMMENT_LINES,
                max_chars=MAX_LONG_COMMENT,
            )
            return
        settings = replace(settings, long_comment=text)
        run.event("long_comment", cmd, game=block.game.name, lines=lines)
    else:
        text = " ".join(cmd.args[0].split())
        if len(text) > MAX_COMMENT:
            refuse(run, cmd, "comment_too_long", length=len(text), limit=MAX_COMMENT)
            return
        settings = replace(settings, comment=text)
        run.event("comment", cmd, game=block.game.name, comment=text)
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)


def _as_written(cmd: Command) -> Command:
    """The command named as written, for need_master's error: SET NO LIST, SET PRIVATE
    and the others all read as SET LISTED."""
    words = cmd.text.upper().split()  # SET, then one of language._LISTED's words or COMMENT
    written = (
        "SET COMMENT"
        if cmd.name == "SET COMMENT"
        else " ".join(words[: 3 if words[1] == "NO" else 2])
    )
    return replace(cmd, name=written)
