"""One mail must not make the judge send many: anyone can mail it, and a From: line can be
forged, so each way one stranger's mail multiplied the judge's mail has a limit (README's
limits table): observer seats of a game, press a mail and a seat an hour, the size of
the end-of-game Diaries mail. Each refusal is a clear line of the answer, and an honest
player never loses press silently: every press refused is named in the reply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

from judge.commands.player import MAX_OBSERVERS
from judge.store import games

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
FULL = (
    "  ERROR: The observer list of war1 is full: a game has at most 50 observers,\n"
    "  so you were not added.\n"
)


def _seat_observers(judge: Judge, count: int) -> list[str]:
    """`count` observers of war1 seated directly (their passwords never used), as a game
    could have them; their addresses."""
    game = judge.game()
    addresses = [f"obs{i}@example.net" for i in range(count)]
    for address in addresses:
        games.add_seat(judge.db, game, games.OBSERVER, address, "unused", judge.now)
    judge.db.conn.commit()
    return addresses


def _observers(judge: Judge) -> list[str]:
    return [s.address for s in games.seats(judge.db, judge.game(), games.OBSERVER)]


# -- observers --------------------------------------------------------------------------


def test_the_observer_list_of_a_game_is_capped(tmp_path: Path, scrypt_calls: list[bytes]) -> None:
    """Every observer gets every results mail, and OBSERVE seats the From: address, which
    can be forged: 200 OBSERVEs made a game send 224 mails a phase. The 50th observer is
    seated; the 51st is refused before its password is hashed, in words that say why."""
    assert MAX_OBSERVERS == 50
    judge = Judge(tmp_path)
    judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS - 1)
    [answer] = judge.send("last@example.net", "OBSERVE war1 pw50")
    assert answer.to == ["last@example.net"]
    assert answer.body == (
        "Line 1: OBSERVE war1 ****\n"
        "  You are now an observer of war1: you get its results and broadcasts.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    scrypt_calls.clear()
    mails = judge.send("late@example.net", "OBSERVE war1 pw51\nOBSERVE war1 pw52")
    assert [(m.to, m.body) for m in mails] == [
        (
            ["late@example.net"],
            "Line 1: OBSERVE war1 ****\n" + FULL + "Line 2: OBSERVE war1 ****\n" + FULL,
        )
    ]
    assert scrypt_calls == []  # refused before any hash
    assert _observers(judge) == [*seated, "last@example.net"]


def test_a_full_game_refuses_an_observer_joining_by_signon(tmp_path: Path) -> None:
    """SIGNON ?war1 on a started game with no free power seats an observer: the cap
    holds there too."""
    judge = Judge(tmp_path)
    judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS)
    [answer] = judge.send("late@example.net", "SIGNON ?war1 pw51")
    assert answer.body == "Line 1: SIGNON ?war1 ****\n" + FULL
    assert _observers(judge) == seated


def test_a_game_over_the_cap_keeps_its_observers(tmp_path: Path) -> None:
    """A game seated more observers before the cap: none is dropped, each still gets
    the results; it just takes no more. An observer already seated is told so first."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    seated = _seat_observers(judge, MAX_OBSERVERS + 5)
    [answer] = judge.send("obs3@example.net", "OBSERVE war1 again")
    assert answer.body == (
        "Line 1: OBSERVE war1 ****\n"
        "  ERROR: you already observe war1 (SIGNON Owar1 password acts as its observer).\n"
    )
    [answer] = judge.send("late@example.net", "OBSERVE war1 pw")
    assert answer.body == "Line 1: OBSERVE war1 ****\n" + FULL
    mails: list = []
    for i, initial in enumerate("AEFGIRT"):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    results = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    reached = sorted(a for m in results for a in m.to)
    assert reached == sorted([MASTER, *players.values(), *seated])
