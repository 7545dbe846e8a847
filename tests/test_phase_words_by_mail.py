"""Phases named in acknowledgements, by mail: the replies pass a phase's code and
templates/words.txt says it (LIST, LIST name, and the refusals of a PROCESS or ROLLBACK
that arrived before the game started)."""

from __future__ import annotations

from datetime import timedelta

from judge_harness import Judge

from judge.service.handling import handle_waiting
from judge.store import inbox

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"


def test_list_names_the_phase_of_a_game_under_way(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war2 masterpw")
    judge.start_game()
    assert judge.send("x@example.org", "LIST")[0].body == (
        "Line 1: LIST\n"
        "  Games on this judge:\n"
        "    war1         active    Movement, Spring of 1901\n"
        "    war2         forming   0 players signed on\n"
        "  Variants for CREATE ?name password variant:\n"
        "    archipelago, chaos, decapolis, duel, fleet_rome, standard,\n"
        "    standard-1898, standard-2, standard-3a, standard-3b, standard-4,\n"
        "    standard-5, standard-6, standard-anycenter\n"
    )
    started = judge.send("x@example.org", "LIST war1")[0].body
    assert "Game 'war1' order #001 (S1901M) has a deadline of " in started  # njudge's report
    forming = judge.send("x@example.org", "LIST war2")[0].body
    assert "Game 'war2' is forming: 7 more players needed.\n" in forming


def test_a_process_or_rollback_sent_before_the_start_is_refused(judge: Judge) -> None:
    early = judge.now + timedelta(seconds=30)  # before the game starts
    judge.start_game()
    judge.send(GM, f"{MASTER}\nPROCESS")
    assert judge.game().phase == "F1901M"
    for n, command in enumerate(["ROLLBACK", "PROCESS"]):
        raw = (
            f"From: {GM}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
            f"Message-ID: <early{n}@example.org>\r\n\r\n{MASTER}\r\n{command}\r\n"
        ).encode()
        inbox.ingest(judge.db, raw, "smtp", early)
    before = judge._last()
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    rollback, process = [m.body for m in judge._since(before)]
    assert (
        "Line 2: ROLLBACK\n"
        "  ERROR: not rolled back: this mail arrived during the game's start, and war1\n"
        "  has moved since; it is now in Fall 1901 Movement (F1901M). Name the phase to\n"
        "  return to, e.g. ROLLBACK S1901M.\n"
    ) in rollback
    assert (
        "Line 2: PROCESS\n"
        "  ERROR: not processed: war1 had not started when this mail arrived; it is now\n"
        "  in Fall 1901 Movement (F1901M). To process that phase, send PROCESS F1901M.\n"
    ) in process
    assert judge.game().phase == "F1901M"
    back = judge.send(GM, f"{MASTER}\nROLLBACK")[0].body
    assert "  war1 is back at Movement, Spring of 1901. Everyone is told.\n" in back
