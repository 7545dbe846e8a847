"""Gunboat's commands (njudge.md section 2): SET VARIANT [variant] [GUNBOAT] on a game no
player has joined yet, the master's flags SET [NO] REVEAL, SHOW, QUIET and SECRET, and
the check that a SIGNON ?game naming variant words names the game's own. What a reader
may see of a gunboat game is judge/game/anonymity.py's to say."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from judge.commands.language import GUNBOAT, Command
from judge.commands.run import Run, need_master, refuse
from judge.store import games
from judge.store.settings import GameSettings

# Each flag's command -> the settings with it on or off (judge/store/settings.py).
_FLAGS: dict[str, Callable[[GameSettings, bool], GameSettings]] = {
    "SET REVEAL": lambda s, on: replace(s, reveal=on),
    "SET SHOW": lambda s, on: replace(s, show=on),
    "SET QUIET": lambda s, on: replace(s, quiet=on),
    "SET SECRET": lambda s, on: replace(s, secret=on),
}


def set_flag(run: Run, cmd: Command) -> None:
    """SET [NO] REVEAL, SET [NO] SHOW, SET [NO] QUIET, SET [NO] SECRET: the master's
    choices of what a gunboat game hides (at any time: they are announced to all)."""
    block = need_master(run, cmd)
    if not block:
        return
    on = cmd.args == ("ON",)
    settings = _FLAGS[cmd.name](block.game.settings, on)
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, said="on_off", on=on)


def set_variant(run: Run, cmd: Command) -> None:
    """SET VARIANT [variant] [GUNBOAT] (args: language.variant_words's): the game's
    variant and whether it is gunboat, named as a whole (SET VARIANT standard: standard,
    not gunboat); GUNBOAT alone keeps the variant. Only before any player has joined."""
    block = need_master(run, cmd)
    if not block:
        return
    game = block.game
    joined = len(games.seats(run.ctx.db, game, games.PLAYER))
    if game.state != games.FORMING or joined:
        refuse(run, cmd, "variant_joined", game=game.name, joined=joined)
        return
    named = [w for w in cmd.args if w != GUNBOAT]
    variant = named[0] if named else game.variant
    gunboat = GUNBOAT in cmd.args
    settings = replace(game.settings, gunboat=gunboat)
    block.game = games.update_game(
        run.ctx.db, game, run.ctx.now, settings=settings, variant=variant
    )
    run.event("variant", cmd, game=game.name, variant=variant, gunboat=gunboat)


def join_mismatch(game: games.Game, words: tuple[str, ...]) -> dict[str, object] | None:
    """Why a SIGNON ?game naming `words` (language.variant_words's; none: the plain
    SIGNON) may not join `game`, if it may not: templates/errors/variant_differs.txt's
    values. A gunboat game is joined only by naming gunboat (njudge), and variant words
    name the game's own variant."""
    named = [w for w in words if w != GUNBOAT]
    gunboat = game.settings.gunboat
    if (GUNBOAT in words) == gunboat and (not named or named[0] == game.variant):
        return None
    use = (*([] if game.variant == "standard" else [game.variant]), *([GUNBOAT] if gunboat else []))
    return {"game": game.name, "variant": game.variant, "gunboat": gunboat, "use": " ".join(use)}
