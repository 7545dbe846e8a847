"""The DPTG's stale-position draw (SET STALE n): a draw once no supply centre has changed
hands for n years, checked at each year's end from those years' phases only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from judge_harness import HOLDS, POWERS, Judge

from judge.store import games
from judge.store.result import GameResult

SURVIVORS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def _play_until_over(judge: Judge, most: int = 30) -> list[str]:
    """Let the deadlines pass until the game ends, every unit holding: England's player
    orders his holds (were every power in civil disorder, nobody playing, the judge
    would pause the game), the others send nothing; the phases processed, in order."""
    for _ in range(most):
        if judge.game().state != games.ACTIVE:
            break
        _one_phase(judge)
    return [phase for phase, *_ in games.processed_phases(judge.db, judge.game())]


def _one_phase(judge: Judge) -> None:
    """England's player orders his holds, and the deadline passes."""
    england = next(s for s in games.seats(judge.db, judge.game()) if s.power == "ENGLAND")
    judge.send(england.address, f"SIGNON Ewar1 pw{POWERS.index('E')}\n{HOLDS['E']}")
    judge.at(judge.now + timedelta(days=4))


def _year_end_reads(judge: Judge) -> list[str]:
    reads: list[str] = []
    judge.db.conn.set_trace_callback(
        lambda sql: reads.append(sql) if "json_extract(results, '$.centers')" in sql else None
    )
    return reads


def test_a_game_where_nothing_changes_hands_is_drawn_after_stale_years(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    judge.start_game()
    [ack, *_] = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET STALE 2")
    assert "war1: stale is now 2 years." in ack.body
    reads = _year_end_reads(judge)
    processed = _play_until_over(judge)
    judge.db.conn.set_trace_callback(None)
    # 1901, 1902 and 1903 end with the opening's centres: two years without a change.
    assert processed == ["S1901M", "F1901M", "S1902M", "F1902M", "S1903M", "F1903M"]
    game = judge.game()
    assert game.state == games.FINISHED
    assert game.result == GameResult("stale", SURVIVORS)
    # One read of the last years' centres at each year's end.
    assert [sql.rsplit(">= ", 1)[1].split()[0] for sql in reads] == ["1899", "1900", "1901"]


def test_only_the_last_stale_years_are_compared(tmp_path: Path) -> None:
    """1901 ended otherwise (as if Austria had taken Serbia): the game is drawn once 1902,
    1903 and 1904 agree, a year later than without that change."""
    judge = Judge(tmp_path)
    judge.start_game()
    judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET STALE 2")
    _one_phase(judge)
    _one_phase(judge)
    assert [p for p, *_ in games.processed_phases(judge.db, judge.game())] == ["S1901M", "F1901M"]
    judge.db.execute(
        "UPDATE phases SET results = json_set(results, '$.centers.AUSTRIA', "
        'json(\'["BUD", "SER", "TRI", "VIE"]\')) WHERE phase = \'F1901M\''
    )
    processed = _play_until_over(judge)
    assert processed[-2:] == ["S1904M", "F1904M"]
    assert judge.game().result == GameResult("stale", SURVIVORS)
