"""Each game's next event, kept in games.next_event_at (issue 16): a daemon pass reads
only the games that are due, a change makes a game due at once in its own transaction,
and the daemon's timer wakes for the earliest moment kept."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlite_utils
from judge_harness import HOLDS, Judge

from judge.service import schedule
from judge.store import games
from judge.store.db import migrate, transaction
from judge.store.schema import MIGRATIONS

MASTER = "gm@example.org"


def _kept(judge: Judge, name: str = "war1") -> int | None:
    """The stored next_event_at of the game, as microseconds since the epoch."""
    row = judge.db.execute("SELECT next_event_at FROM games WHERE name = ?", [name]).fetchone()
    value: int | None = row[0]
    return value


def _micros(moment: datetime) -> int:
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)


def _due(judge: Judge, now: datetime) -> list[str]:
    return [g.name for g in games.due_games(judge.db, now)]


def test_a_started_game_is_due_at_once_then_at_its_reminder(judge: Judge) -> None:
    judge.start_game()
    assert _kept(judge) == 0  # changed: looked at on the next pass
    assert _due(judge, judge.now) == ["war1"]
    assert judge.at(judge.now) == []
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    reminder = deadline - timedelta(hours=24)
    assert _kept(judge) == _micros(reminder)
    assert _due(judge, reminder - timedelta(microseconds=1)) == []
    assert _due(judge, reminder) == ["war1"]
    assert schedule.next_wake(judge.db) == {f"wake:{reminder.isoformat()}": reminder}


def test_after_the_reminder_the_deadline_then_grace_are_kept(judge: Judge) -> None:
    judge.start_game()
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    reminders = judge.at(deadline - timedelta(hours=24))
    assert [m.subject.split(",")[0] for m in reminders] == ["TEST:war1 - S1901M reminder"] * 7
    assert _kept(judge) == 0  # the reminder was recorded: looked at once more
    assert judge.at(deadline - timedelta(hours=23)) == []
    assert _kept(judge) == _micros(deadline)
    assert judge.at(deadline) != []  # late notices
    assert judge.at(deadline + timedelta(hours=1)) == []
    assert _kept(judge) == _micros(deadline + timedelta(hours=24))  # the end of grace


def test_orders_and_settings_make_the_game_due_in_their_own_transaction(judge: Judge) -> None:
    players = judge.start_game()
    judge.at(judge.now)
    assert _kept(judge) not in (0, None)
    judge.send(players["A"], f"SIGNON Awar1 pw0\n{HOLDS['A']}")
    assert _kept(judge) == 0 and _due(judge, judge.now) == ["war1"]
    judge.at(judge.now)
    assert _kept(judge) not in (0, None)
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET DEADLINE +3h")
    assert _kept(judge) == 0
    judge.at(judge.now)
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    # A phase of 3 hours left is shorter than the 24-hour reminder: the timers' first
    # moment is then half-way between the phase's start and its deadline.
    started = games.phase_started(judge.db, judge.game())
    assert _kept(judge) == _micros(
        max(deadline - timedelta(hours=24), started + (deadline - started) / 2)
    )


def test_a_change_rolled_back_leaves_the_moment_kept(judge: Judge) -> None:
    judge.start_game()
    judge.at(judge.now)
    kept = _kept(judge)
    try:
        with transaction(judge.db):
            games.update_game(judge.db, judge.game(), judge.now, deadline=None)
            assert _kept(judge) == 0
            raise RuntimeError("undone")
    except RuntimeError:
        pass
    assert _kept(judge) == kept


def test_a_paused_game_is_never_due_and_resumed_is_due_at_once(judge: Judge) -> None:
    judge.start_game()
    judge.at(judge.now)
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPAUSE")
    assert judge.game().state == "paused"
    assert _due(judge, judge.now + timedelta(days=30)) == []
    assert schedule.next_wake(judge.db) == {}
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nRESUME")
    assert _due(judge, judge.now) == ["war1"]


def test_the_wake_is_the_earliest_moment_of_all_games(judge: Judge) -> None:
    judge.start_game("war1")
    judge.now += timedelta(hours=5)
    judge.start_game("war2")
    judge.at(judge.now)
    moments = {name: _kept(judge, name) for name in ("war1", "war2")}
    [(key, moment)] = schedule.next_wake(judge.db).items()
    assert _micros(moment) == min(m for m in moments.values() if m) == moments["war1"]
    assert key == f"wake:{moment.isoformat()}"


def test_the_migration_makes_every_existing_game_due_once(tmp_path: Path) -> None:
    db = sqlite_utils.Database(sqlite3.connect(str(tmp_path / "old.db")))
    migrate(db, MIGRATIONS[:12])  # a store of version 12, with a game
    with transaction(db):  # the row as a judge of version 12 wrote it
        db.execute(
            "INSERT INTO games (name, variant, state, settings, created_at) "
            "VALUES ('old1', 'standard', 'forming', '{}', '2026-01-01T00:00:00.000000+00:00')"
        )
    migrate(db)
    assert db.execute("SELECT name, next_event_at FROM games").fetchall() == [("old1", 0)]
