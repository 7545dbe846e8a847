"""Due games processed in groups sharing one commit (judge/service/schedule.run_due): one
commit for the group, a waiting writer ends the group after the game at hand, a game
that raises is undone alone, and a group SQLite rolled back is undone whole and done
again on the next pass."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from judge_harness import Judge

from judge.game import play
from judge.service import schedule
from judge.store import games
from judge.store.db import open_db, transaction, writers_waiting

NAMES = ["war1", "war2", "war3", "war4"]


def _games_at_one_deadline(judge: Judge) -> datetime:
    """NAMES started, all with the last one's deadline (returned)."""
    for name in NAMES:
        judge.start_game(name)
    deadline = datetime.fromisoformat(judge.game(NAMES[-1]).deadline or "")
    for name in NAMES:
        games.update_game(judge.db, judge.game(name), judge.now, deadline=deadline.isoformat())
    judge.db.conn.commit()
    return deadline


def _commits(judge: Judge) -> list[str]:
    """The COMMITs `judge.db`'s connection runs from now on (a list that grows)."""
    seen: list[str] = []
    judge.db.conn.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    return seen


def _phases(path: Path) -> dict[str, str]:
    """Each game's phase as another connection reads it: what is committed."""
    other = open_db(path)
    try:
        return {
            name: other["games"].get(games.find_game_row(other, name).id)["phase"] for name in NAMES
        }  # type: ignore[union-attr]
    finally:
        other.conn.close()


def test_the_games_due_are_processed_under_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = Judge(tmp_path)
    deadline = _games_at_one_deadline(judge)
    monkeypatch.setattr(schedule, "GROUP_SECONDS", 3600.0)  # no group ends for the time
    commits = _commits(judge)
    judge.at(deadline)  # late notices in all four games
    assert commits == ["COMMIT"]
    assert all(phase == "S1901M" for phase in _phases(judge.config.database).values())


def test_a_writer_waiting_ends_the_group_after_the_game_at_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = Judge(tmp_path)
    deadline = _games_at_one_deadline(judge)
    monkeypatch.setattr(schedule, "GROUP_SECONDS", 3600.0)
    seen_by_writer: list[dict[str, str]] = []
    writer: list[threading.Thread] = []
    real = play.process_phase

    def write_meanwhile() -> None:  # another writer of the file, as the SMTP receiver is
        other = open_db(judge.config.database)
        with transaction(other):
            seen_by_writer.append(
                {r["name"]: r["phase"] for r in other.query("SELECT name, phase FROM games")}
            )
        other.conn.close()

    def process_phase(db, config, game, now):
        result = real(db, config, game, now)
        if game.name == "war2":  # the writer comes while war2 is processed
            writer.append(threading.Thread(target=write_meanwhile))
            writer[0].start()
            while not writers_waiting(db) and writer[0].is_alive():
                writer[0].join(0.001)
        return result

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.at(deadline)  # late notices
    commits = _commits(judge)
    judge.at(deadline.replace(year=deadline.year + 1))  # grace over: all four processed
    writer[0].join()
    # The writer went in right after war2's game was committed, before war3's.
    assert seen_by_writer == [
        {"war1": "F1901M", "war2": "F1901M", "war3": "S1901M", "war4": "S1901M"}
    ]
    assert len(commits) == 2  # war1 and war2; then war3 and war4
    assert set(_phases(judge.config.database).values()) == {"F1901M"}


def test_a_game_that_raises_is_undone_alone_and_the_group_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge = Judge(tmp_path)
    deadline = _games_at_one_deadline(judge)
    monkeypatch.setattr(schedule, "GROUP_SECONDS", 3600.0)
    real = play.process_phase

    def process_phase(db, config, game, now):
        result = real(db, config, game, now)
        if game.name == "war3":  # after its writes: they are undone
            raise ZeroDivisionError("the adjudicator broke")
        return result

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.at(deadline)
    commits = _commits(judge)
    judge.at(deadline.replace(year=deadline.year + 1))
    assert commits == ["COMMIT"]
    assert _phases(judge.config.database) == {
        "war1": "F1901M",
        "war2": "F1901M",
        "war3": "S1901M",
        "war4": "F1901M",
    }
    assert judge.game("war3").state == "paused"


def test_a_group_the_database_rolled_back_is_done_again_on_the_next_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    judge = Judge(tmp_path)
    deadline = _games_at_one_deadline(judge)
    monkeypatch.setattr(schedule, "GROUP_SECONDS", 3600.0)
    real = play.process_phase
    faults = ["war3"]

    def process_phase(db, config, game, now):
        if game.name in faults:  # as SQLite does on some faults: the whole transaction
            faults.remove(game.name)
            db.conn.rollback()
            raise OSError("disk I/O error")
        return real(db, config, game, now)

    monkeypatch.setattr(play, "process_phase", process_phase)
    judge.at(deadline)
    later = deadline.replace(year=deadline.year + 1)
    with caplog.at_level(logging.INFO, logger="judge.service.schedule"):
        judge.at(later)
    # war1 and war2 were undone with the group, and not logged as processed.
    assert set(_phases(judge.config.database).values()) == {"S1901M"}
    assert "the games due were rolled back by the database (OSError: disk I/O error" in caplog.text
    assert "processed" not in caplog.text
    mails = judge.at(later)  # the next pass: all four, each once
    assert set(_phases(judge.config.database).values()) == {"F1901M"}
    assert sorted(m.subject for m in mails if m.subject.endswith("Results")) == [
        f"TEST:{name} - S1901M Results" for name in NAMES for _ in range(8)
    ]


def test_a_pass_with_nothing_due_takes_no_transaction(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    _games_at_one_deadline(judge)
    assert judge.at(judge.now) == []  # the games just changed are looked at: not due
    statements: list[str] = []
    judge.db.conn.set_trace_callback(statements.append)
    assert judge.at(judge.now + timedelta(minutes=1)) == []
    assert statements and not [s for s in statements if s.startswith(("BEGIN", "SAVEPOINT"))]
