"""The end of a game by command: a draw, a concession or the master's termination."""

from __future__ import annotations

from typing import Any

from judge.commands.run import Run
from judge.game.diaries import diary_mails
from judge.game.end import revealed
from judge.game.outgoing import public_copy
from judge.replies import Reply
from judge.store import games, held_press
from judge.store.result import GameResult
from judge.variants.maps import load_map


def end_game(run: Run, game: games.Game, how: dict[str, Any]) -> list[Reply]:
    """Finish a game and tell everyone (and the lists): a draw or a termination."""
    gm = load_map(game.variant)
    by_name = {p.name: key for key, p in gm.powers.items()}
    if "draw" in how:
        result = GameResult("draw", tuple(by_name[n] for n in how["draw"]))
    elif "conceded_to" in how:
        result = GameResult("conceded", (by_name[how["conceded_to"]],))
    else:
        result = GameResult("terminated", ())
    game = games.update_game(
        run.ctx.db, game, run.ctx.now, state=games.FINISHED, process_at=None, result=result
    )
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    context = {"game": game.name, **how, "revealed": revealed(run.ctx.db, game, gm)}
    mail = Reply(everyone, "game_end", context, "end", False)
    public = public_copy(run.ctx.config, game.name, game.settings.list, mail)
    # Postal press still held goes out, then DIARY's entries, now that the game has ended.
    held = held_press.release(run.ctx.db, game)
    return [mail, *public, *held, *diary_mails(run.ctx.db, game)]
