"""The phase step's parts keep their promises: loading and adjudicating write nothing,
adjudicating is pure, and the parts composed are process_phase."""

from __future__ import annotations

from pathlib import Path

from judge.game import play
from tests.judge_harness import Judge


def _changes(judge: Judge) -> int:
    return judge.db.conn.total_changes


def test_load_and_adjudicate_write_nothing_and_adjudicating_twice_gives_the_same(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["A"], "SIGNON Awar1 pw0\nA Vie-Gal\nA Bud-Rum\nF Tri-Adr")
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    game = judge.game()
    before = _changes(judge)

    on_file = play.load_phase(judge.db, game)
    first = play.adjudicate_phase(on_file)
    second = play.adjudicate_phase(on_file)

    assert _changes(judge) == before
    assert first == second
    assert on_file.orders["AUSTRIA"] == ["A VIE - GAL", "A BUD - RUM", "F TRI - ADR"]
    assert on_file.civil_disorder == ("France", "Germany", "Italy", "Russia", "Turkey")
    assert first.results["next_phase"] == "F1901M"


def test_the_parts_composed_store_and_mail_what_process_phase_does(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    stepped, whole = Judge(tmp_path / "a"), Judge(tmp_path / "b")
    for judge in (stepped, whole):
        players = judge.start_game()
        judge.send(players["E"], "SIGNON Ewar1 pw1\nF Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    game = stepped.game()
    on_file = play.load_phase(stepped.db, game)
    judged = play.adjudicate_phase(on_file)
    saved = play.save_phase(stepped.db, stepped.config, game, on_file, judged, stepped.now)
    mails = play.phase_notices(stepped.db, stepped.config, on_file, judged, saved)

    expected = play.process_phase(whole.db, whole.config, whole.game(), whole.now)

    assert mails == expected
    assert saved.game == whole.game()
    for table in ("games", "phases", "seats", "orders"):
        # Every column but the password hashes, which are salted afresh in each store.
        columns = ", ".join(c for c in stepped.db[table].columns_dict if "password" not in c)
        rows = stepped.db.execute(f"SELECT {columns} FROM {table}").fetchall()
        assert rows == whole.db.execute(f"SELECT {columns} FROM {table}").fetchall(), table
