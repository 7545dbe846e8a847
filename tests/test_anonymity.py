"""judge/game/anonymity.py: what a reader of a gunboat game may see."""

from __future__ import annotations

from dataclasses import replace

from judge.game import anonymity
from judge.store import games
from judge.store.settings import GameSettings


def _game(state: str = games.ACTIVE, **settings: object) -> games.Game:
    return games.Game(1, "g", "standard", state, replace(GameSettings(), **settings), None, None)


def test_an_open_game_shows_every_address_to_everyone() -> None:
    game = _game()
    shown = anonymity.shown_address(game, "a@x.org", reader="b@x.org", reader_is_master=False)
    assert shown == "a@x.org"
    assert not anonymity.hidden(game)
    assert anonymity.shows_changer(game)


def test_a_gunboat_game_hides_other_players_from_players_not_from_masters() -> None:
    game = _game(gunboat=True)
    assert anonymity.hidden(game)
    assert not anonymity.shows_changer(game)
    other = anonymity.shown_address(game, "a@x.org", reader="b@x.org", reader_is_master=False)
    own = anonymity.shown_address(game, "A@x.org", reader="a@x.org", reader_is_master=False)
    master = anonymity.shown_address(game, "a@x.org", reader="m@x.org", reader_is_master=True)
    observer = anonymity.shown_address(game, "a@x.org", reader=None, reader_is_master=False)
    assert (other, own, master, observer) == (
        "someone@somewhere",
        "A@x.org",
        "a@x.org",
        "someone@somewhere",
    )


def test_the_end_reveals_unless_no_reveal() -> None:
    assert not anonymity.hidden(_game(games.FINISHED, gunboat=True))
    assert anonymity.hidden(_game(games.FINISHED, gunboat=True, reveal=False))


def test_show_quiet_secret_and_somebody() -> None:
    assert anonymity.shows_changer(_game(gunboat=True, show=True))
    assert not anonymity.shows_changer(_game(show=False))
    assert anonymity.quiet(_game(quiet=True)) and not anonymity.quiet(_game())
    assert anonymity.secret(_game(secret=True)) and not anonymity.secret(_game())
    assert (anonymity.somebody(), anonymity.somebody(3)) == ("Somebody", "Somebody #3")


def test_the_settings_keep_the_gunboat_flags_in_their_json() -> None:
    settings = replace(GameSettings(), gunboat=True, reveal=False, show=True, secret=True)
    again = GameSettings.loads(settings.dumps())
    assert (again.gunboat, again.reveal, again.show, again.quiet, again.secret) == (
        True,
        False,
        True,
        False,
        True,
    )
    assert GameSettings.loads("{}").show is None
