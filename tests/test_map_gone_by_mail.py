"""Mail to a game whose map file was removed (or broken) since the game began: the line
is refused at once, the game paused and its master told, as for a game whose row no
longer reads; before, the mail raised three times and was answered "not processed"."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from judge_harness import Judge
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
REFUSED = (
    "  ERROR: war1 cannot be played just now: its map, removed_map, is no longer\n"
    "  among the judge's maps. Nothing of this is stored.\n"
    "  The game is paused, and its master and the judge's keeper are told.\n"
)


def _map_removed(judge: Judge) -> None:
    """war1's map gone, as when its file is removed from the operator's folder and the
    judge restarted (tests/test_red_team_3.py does the same at a deadline)."""
    judge.db.execute("UPDATE games SET variant = 'removed_map' WHERE name = 'war1'")
    judge.db.conn.commit()


def test_orders_for_a_game_without_its_map_are_refused_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(MASTER, "CREATE ?war2 masterpw")
    _map_removed(judge)
    with caplog.at_level(logging.ERROR, logger="judge.dispatch"):
        mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par H\nSIGNON ?war2 pw9")
    assert judge.db.execute("SELECT state, attempts FROM inbound ORDER BY id DESC").fetchone() == (
        "handled",
        0,
    )
    [ack, notice] = mails
    assert ack.to == [players["F"]]
    assert ack.body == (
        "Line 1: SIGNON Fwar1 ****\n" + REFUSED + "Line 2: A Par H\n"
        "  ERROR: this line needs a SIGNON line before it\n"
        "  (SIGNON Xgame password, X your power's initial).\n"
        "Line 3: SIGNON ?war2 ****\n"
        "  You have joined war2: 1 of 7 players.\n"
        "  The game starts when it is full. Send SET PREFERENCE with power initials\n"
        "  (e.g. SET PREFERENCE FGR) to say which powers you want.\n"
    )
    assert (notice.to, notice.subject) == (
        [MASTER],
        "TEST:war1 - S1901M paused after an error of the judge's own",
    )
    assert "The error: MapError: unknown map 'removed_map' (at maps.py:" in notice.body
    assert "game war1 has no map: MapError: unknown map 'removed_map'" in caplog.text
    assert judge.game().state == "paused"
    assert judge.db.execute("SELECT COUNT(*) FROM order_sets").fetchone() == (0,)
    # Another mail to it: refused at once again, and no second notice to the master.
    [ack] = judge.send(players["G"], "SIGNON Gwar1 pw3\nA Mun H")
    assert ack.body == (
        "Line 1: SIGNON Gwar1 ****\n" + REFUSED + "Line 2: A Mun H\n"
        "  ERROR: this line needs a SIGNON line before it\n"
        "  (SIGNON Xgame password, X your power's initial).\n"
    )


def test_a_forming_game_without_its_map_refuses_a_join(tmp_path: Path) -> None:
    """A forming game is not paused (it has no clock): the line is refused all the same,
    in words that do not say it was."""
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war1 masterpw")
    _map_removed(judge)
    [ack] = judge.send("p@example.org", "SIGNON ?war1 pw")
    assert ack.body == (
        "Line 1: SIGNON ?war1 ****\n"
        "  ERROR: war1 cannot be played just now: its map, removed_map, is no longer\n"
        "  among the judge's maps. Nothing of this is stored.\n"
        "  The judge's keeper is told.\n"
    )
    assert judge.game().state == "forming"


def test_list_of_a_game_without_its_map_is_refused_at_once(tmp_path: Path) -> None:
    """LIST name reads the game's map: refused at once too (LIST alone still lists it)."""
    judge = Judge(tmp_path)
    judge.start_game()
    _map_removed(judge)
    [ack, notice] = judge.send("someone@example.net", "LIST war1")
    assert ack.body == "Line 1: LIST war1\n" + REFUSED
    assert notice.to == [MASTER]
    [ack] = judge.send("someone@example.net", "LIST")
    assert ack.body.startswith(
        "Line 1: LIST\n  Games on this judge:\n"
        "    war1         paused    Movement, Spring of 1901\n"
    )
