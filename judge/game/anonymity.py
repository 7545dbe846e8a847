"""Gunboat: who may learn which player is behind which power (njudge.md section 2).

In a gunboat game every player's address and name are hidden from the other players and
from observers until the game ends; they are revealed then unless the master SET NO
REVEAL. The game's masters always see everything. Every command and mail that would
name a player asks this module what the one reader may see: each mail goes to one
address, which is what keeps identities safe.
"""

from __future__ import annotations

from judge.store import games

SOMEONE = "someone@somewhere"  # a hidden address, as njudge prints it
SOMEBODY = "Somebody"  # a hidden name (SUMMARY)


def hidden(game: games.Game) -> bool:
    """Whether the players' identities are hidden from players and observers now."""
    settings = game.settings
    if not settings.gunboat:
        return False
    return game.state != games.FINISHED or not settings.reveal


def hidden_from(game: games.Game, reader_is_master: bool) -> bool:
    """Whether identities are hidden from this reader (a master sees everything)."""
    return hidden(game) and not reader_is_master


def shown_address(
    game: games.Game, address: str, *, reader: str | None, reader_is_master: bool
) -> str:
    """`address` as the reader may see it: the address itself to a master, to the player
    it belongs to (`reader`) and in any game whose identities are not hidden; else
    someone@somewhere."""
    if not hidden_from(game, reader_is_master):
        return address
    if reader is not None and reader.lower() == address.lower():
        return address
    return SOMEONE


def somebody(number: int | None = None) -> str:
    """A hidden name: "Somebody", or "Somebody #n" where several must be told apart."""
    return SOMEBODY if number is None else f"{SOMEBODY} #{number}"


def shows_changer(game: games.Game) -> bool:
    """Whether a setting's change is announced with the changer's address (SET [NO]
    SHOW): by default not in gunboat games, and always in the others."""
    show = game.settings.show
    return (not game.settings.gunboat) if show is None else show


def quiet(game: games.Game) -> bool:
    """Whether late, abandoned and taken-over powers go unannounced to the others (SET
    QUIET): LIST then gives counts only."""
    return game.settings.quiet


def secret(game: games.Game) -> bool:
    """Whether even how many players have joined is hidden (SET SECRET)."""
    return game.settings.secret


def signs_changes(game: games.Game) -> bool:
    """Whether the notice of a change of the game's settings names who changed it: only
    where the master asked for it with SET SHOW. njudge signs them by default outside
    gunboat (shows_changer); this judge's notices were never signed, and stay unsigned
    unless asked, so no game's notices change under it."""
    return game.settings.show is True and shows_changer(game)


def announced_to(game: games.Game, reader_is_master: bool) -> bool:
    """Whether a late, abandoned or taken-over power is announced to this reader: always
    to a master; to players and observers unless the game is QUIET."""
    return reader_is_master or not game.settings.quiet
