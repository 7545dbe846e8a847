"""Issue 17, item 4: the master and moderation, by mail, as njudge has them (PROCESS with
a phase, UNSTART, SET [NO] MANUAL PROCESS/START, SET [NO] STRICT WAIT, SET [UN]MODERATED,
BECOME MASTER, the parameters-changed notice and njudge's deadline spellings), through
the real handling path with a clock the test moves."""

from __future__ import annotations

from judge_harness import Judge, Mail

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"


def _ack(mails: list[Mail], to: str = GM) -> str:
    """The acknowledgement's body: the first mail to `to`."""
    return next(m for m in mails if m.to == [to]).body


def test_process_naming_another_phase_is_ignored_with_njudges_line(judge: Judge) -> None:
    judge.start_game()
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS Fall 1905 Retreat"))
    assert (
        "Line 2: PROCESS Fall 1905 Retreat\n"
        "  ERROR: Current phase is S1901M, process command ignored.\n"
        "  (Fall 1905 Retreats (F1905R) is not the current phase; nothing was changed.)\n"
    ) in body
    assert judge.game().phase == "S1901M"


def test_process_in_the_adjustments_names_them_as_njudge_does(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur")
    judge.send(GM, f"{MASTER}\nPROCESS S1901M")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Bur - Bel")
    judge.send(GM, f"{MASTER}\nPROCESS F1901M")
    assert judge.game().phase == "W1901A"
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS F1901M"))
    assert "  ERROR: Current phase is F1901B, process command ignored.\n" in body
    assert judge.game().phase == "W1901A"
    body = _ack(judge.send(GM, f"{MASTER}\nPROCESS F1901B"))
    assert "war1 has been processed; the results are mailed to everyone." in body
    assert judge.game().phase == "S1902M"
