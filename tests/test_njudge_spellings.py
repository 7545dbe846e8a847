"""njudge's spellings of our commands (issue 17; njudge's general parsing rules): read as
the commands they stand for, through the real handling path, with the line echoed as
written (its password masked)."""

from __future__ import annotations

import re

import pytest
from judge_harness import Judge

from judge.commands.language import _JOINED, _SPLIT, _SYNONYMS, _letters, read_commands
from judge.variants.maps import MAPS_DIR, map_names

# njudge's spelling -> ours: each reads as the same command with the same arguments.
SAME = [
    ("SIGN ON Fwar1 pw", "SIGNON Fwar1 pw"),
    ("sign on ?war1 pw", "SIGNON ?war1 pw"),
    ("HELLO Fwar1 pw", "SIGNON Fwar1 pw"),
    ("Login Fwar1 pw", "SIGNON Fwar1 pw"),
    ("WATCH war1 pw", "OBSERVE war1 pw"),
    ("WITHDRAW", "RESIGN"),
    ("STATUS war1", "SUMMARY war1"),
    ("SUSPEND", "PAUSE"),
    ("WHO GAME war1", "WHOGAME war1"),
    ("ROLL BACK S1901M", "ROLLBACK S1901M"),
    ("FORCEBEGIN", "FORCE BEGIN"),
    ("SET NO WAIT", "SET NOWAIT"),
    ("set no draw", "SET NODRAW"),
    ("SET NO CONCEDE", "SET NOCONCEDE"),
    ("SET NO NMR", "SET NONMR"),
]


@pytest.mark.parametrize(("njudge", "ours"), SAME)
def test_an_njudge_spelling_reads_as_our_command(njudge: str, ours: str) -> None:
    [theirs] = read_commands(njudge)
    [mine] = read_commands(ours)
    assert (theirs.name, theirs.args, theirs.error) == (mine.name, mine.args, mine.error)
    assert theirs.name != "ORDER"


def test_sign_off_and_end_press_end_what_ours_end() -> None:
    assert [c.name for c in read_commands("SUSPEND\nSIGN OFF\nRESUME")] == ["PAUSE"]
    [press] = read_commands("PRESS TO F\nhello France\nEND PRESS\nRESUME")[:1]
    assert press.args == ("F", "hello France")


def test_a_player_signs_on_and_sets_with_njudges_words(judge: Judge) -> None:
    players = judge.start_game()
    body = "SIGN ON Fwar1 pw2\nSET NO WAIT\nSET NO DRAW\nSET NO CONCEDE"
    [ack] = judge.send(players["F"], body)
    assert ack.body.startswith(
        "Line 1: SIGN ON ****\n"
        "  Signed on to war1 as France.\n"
        "Line 2: SET NO WAIT\n"
        "  WAIT is off: war1 is processed as soon as all orders are in.\n"
        "Line 3: SET NO DRAW\n"
        "  Your vote for a draw in war1 is withdrawn.\n"
        "Line 4: SET NO CONCEDE\n"
        "  Your concession in war1 is withdrawn.\n"
        "\nFrance in war1, Movement for Spring of 1901:\n"
    )
    for greeting in ("HELLO", "LOGIN"):
        [ack] = judge.send(players["F"], f"{greeting} Fwar1 pw2\nSIGN OFF\nA Par-Bur")
        assert ack.body.startswith(f"Line 1: {greeting} ****\n  Signed on to war1 as France.\n\n")
    assert judge.effective("war1", "F") == []  # nothing after SIGN OFF was read


def test_watch_who_game_and_status(judge: Judge) -> None:
    judge.start_game()
    [ack] = judge.send("w@example.org", "WATCH war1 Secret9pw")
    assert ack.body == (
        "Line 1: WATCH ****\n"
        "  You are now an observer of war1: you get its results and broadcasts.\n"
        "  Sign on with SIGNON Owar1 password.\n"
    )
    [ack] = judge.send("w@example.org", "WHO GAME war1\nSTATUS war1")
    lines = ack.body.splitlines()
    assert lines[:3] == [
        "Line 1: WHO GAME war1",
        "  Who plays war1:",
        "    master" + " " * 15 + "gm@example.org",
    ]
    assert "    observer             w@example.org" in lines
    assert lines[lines.index("Line 2: STATUS war1") + 1] == (
        "  Supply centres in war1, year by year:"
    )


def test_a_password_after_watch_is_never_echoed(judge: Judge) -> None:
    """Before issue 17 `WATCH war1 pw` was an order line, masked as `WATCH ****`; now it
    is OBSERVE, masked the same way: the password is nowhere in a mail or a row."""
    players = judge.start_game()
    mails = judge.send("w@example.org", "WATCH war1 Hunter7Zq", subject="WATCH war1 Hunter7Zq")
    mails += judge.send(players["F"], "SIGNON Fwar1 pw2\nWATCH war1 Hunter7Zq\nA Par-Bur")
    assert mails[0].subject == "Re: TEST:war1 - S1901M WATCH ****"
    for mail in mails:
        assert "hunter7zq" not in (mail.subject + mail.full).lower()
    assert "Line 2: WATCH ****" in mails[-1].body
    for (table,) in judge.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table != "inbound":  # the mail as received, kept as the record
            rows = judge.db.execute(f"SELECT * FROM [{table}]").fetchall()
            assert not any("hunter7zq" in repr(r).lower() for r in rows), table


def test_master_suspends_and_rolls_back_with_njudges_words(judge: Judge) -> None:
    judge.start_game()
    [ack, *_] = judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nROLL BACK\nSUSPEND")
    assert ack.body.startswith(
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master.\n"
        "Line 2: ROLL BACK\n"
        "  ERROR: war1 has no earlier phase.\n"
        "Line 3: SUSPEND\n"
        "  war1 is paused: its clock is stopped until you send RESUME. Everyone is told.\n"
    )


def test_a_resigning_player_may_say_withdraw(judge: Judge) -> None:
    players = judge.start_game()
    [ack, *_] = judge.send(players["E"], "SIGNON Ewar1 pw1\nWITHDRAW")
    assert ack.body == (
        "Line 1: SIGNON Ewar1 ****\n"
        "  Signed on to war1 as England.\n"
        "Line 2: WITHDRAW\n"
        "  You have resigned from war1. The master is told; your power goes into civil"
        " disorder.\n"
    )


def test_no_map_word_is_taken_for_an_njudge_spelling() -> None:
    """An order line whose first word is a province, a coast or a power stays an order:
    none of the words read as njudge's spellings is a word of any bundled map."""
    spellings = set(_SYNONYMS) | {w for pair in _JOINED for w in pair} | set(_SPLIT)
    spellings -= {"ON", "OFF", "GAME", "BACK", "PRESS"}  # only read after the first word
    words: set[str] = set()
    for name in map_names():
        text = (MAPS_DIR / f"{name}.toml").read_text()
        words |= {_letters(w) for w in re.findall(r"[A-Za-z][A-Za-z'.-]*", text)}
    assert len(words) > 400
    assert sorted(spellings & words) == []


# -- F1901B and W1901A: one adjustment phase ---------------------------------------------------

MASTER = "gm@example.org"
SIGNED_ON = "Line 1: SIGNON Mwar1 ****\n  Signed on to war1 as master.\n"
NO_ORDERS = (
    "\nOrders on file in war1, power by power:\n"
    + "".join(f"  {p}: none\n" for p in ("Austria", "England", "France", "Germany"))
    + "".join(f"  {p}: none\n" for p in ("Italy", "Russia", "Turkey"))
)


def _to_winter(judge: Judge) -> None:
    """war1 played to Winter 1901 (France takes Spain and Belgium): its phases so far are
    S1901M (turn 1), F1901M (turn 2) and W1901A (turn 3), the current one."""
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar-Spa")
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS S1901M")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Bur-Bel\nA Spa H")
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS F1901M")
    assert judge.game().phase == "W1901A"


def test_process_and_rollback_read_f1901b_as_w1901a(judge: Judge) -> None:
    _to_winter(judge)
    [ack, *_] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS F1901B")
    assert ack.body == (
        SIGNED_ON
        + NO_ORDERS
        + "Line 2: PROCESS F1901B\n\nwar1 has been processed; the results are mailed to everyone.\n"
    )
    assert judge.game().phase == "S1902M"
    [ack, *_] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nROLLBACK F1901B")
    assert ack.body == (
        SIGNED_ON
        + "Line 2: ROLLBACK F1901B\n"
        + "  war1 is back at Adjustment, Winter of 1901. Everyone is told.\n"
        + NO_ORDERS
    )
    assert judge.game().phase == "W1901A"


def test_rollback_reads_w1901a_as_before(judge: Judge) -> None:
    _to_winter(judge)
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS W1901A")
    [ack, *_] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nrollback w1901a")
    assert "Line 2: rollback w1901a\n  war1 is back at Adjustment, Winter of 1901." in ack.body
    assert judge.game().phase == "W1901A"


# -- ROLLBACK n: njudge's turn numbers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("turn", "phase", "words"),
    [
        ("1", "S1901M", "Movement, Spring of 1901"),
        ("2", "F1901M", "Movement, Fall of 1901"),
        ("002", "F1901M", "Movement, Fall of 1901"),
    ],
)
def test_rollback_by_turn_number(judge: Judge, turn: str, phase: str, words: str) -> None:
    _to_winter(judge)
    [ack, *_] = judge.send(MASTER, f"SIGNON Mwar1 masterpw\nROLLBACK {turn}")
    assert ack.body.startswith(
        SIGNED_ON + f"Line 2: ROLLBACK {turn}\n  war1 is back at {words}. Everyone is told.\n"
    )
    assert judge.game().phase == phase


@pytest.mark.parametrize("turn", ["0", "3", "4", "99", "1234567"])
def test_a_turn_number_that_is_no_earlier_turn_is_refused(judge: Judge, turn: str) -> None:
    _to_winter(judge)
    [ack] = judge.send(MASTER, f"SIGNON Mwar1 masterpw\nROLLBACK {turn}")
    shown = turn if len(turn) <= 6 else turn[:6] + "..."
    assert ack.subject == "Re: [Error Flag] TEST:war1 - F1901B orders"
    assert ack.body == (
        SIGNED_ON
        + f"Line 2: ROLLBACK {turn}\n"
        + f"  ERROR: war1 has no turn {shown} to go back to: it is at turn 3 (W1901A);"
        + " write ROLLBACK 1 to ROLLBACK 2.\n"
        + NO_ORDERS
    )
    assert judge.game().phase == "W1901A"


def test_rollback_1_in_the_first_phase_is_refused(judge: Judge) -> None:
    judge.start_game()
    [ack] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nROLLBACK 1")
    assert ack.body == (
        SIGNED_ON
        + "Line 2: ROLLBACK 1\n"
        + "  ERROR: war1 has no turn 1 to go back to: it is at turn 1 (S1901M).\n"
        + NO_ORDERS
    )
