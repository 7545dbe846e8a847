"""njudge's spellings of our commands (issue 17; njudge's general parsing rules): read as
the commands they stand for, through the real handling path, with the line echoed as
written (its password masked)."""

from __future__ import annotations

import re

import pytest
from judge_harness import Judge, observing

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
    assert press.args == ("PRESS", "TO F", "hello France")


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
    code = judge.confirm_code("w@example.org")
    assert ack.body == "Line 1: WATCH ****\n" + observing("war1", code)
    judge.confirm("w@example.org")
    [ack] = judge.send("w@example.org", "WHO GAME war1 FULL\nSTATUS war1")
    lines = ack.body.splitlines()
    assert lines[:3] == [
        "Line 1: WHO GAME war1 FULL",
        "  Who plays war1:",
        "    master" + " " * 15 + "gm@example.org",
    ]
    assert "    observer             w@example.org" in lines  # FULL shows observers (issue 17)
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
        "  war1 is paused: its clock is stopped until you send RESUME.\n  Everyone is told.\n"
    )


def test_a_resigning_player_may_say_withdraw(judge: Judge) -> None:
    players = judge.start_game()
    [ack, *_] = judge.send(players["E"], "SIGNON Ewar1 pw1\nWITHDRAW")
    assert ack.body == (
        "Line 1: SIGNON Ewar1 ****\n"
        "  Signed on to war1 as England.\n"
        "Line 2: WITHDRAW\n"
        "  You have resigned from war1. The master is told; your power\n"
        "  goes into civil disorder.\n"
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
        # The line is broken before column 79: after "write" while the number is short.
        + (" write\n  ROLLBACK 1" if len(shown) <= 4 else "\n  write ROLLBACK 1")
        + " to ROLLBACK 2.\n"
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


# -- several orders on one line ------------------------------------------------------------------


def test_several_orders_on_one_line_are_read_as_if_on_lines_of_their_own(judge: Judge) -> None:
    players = judge.start_game()
    body = "SIGNON Fwar1 pw2\nA Par-Bur, F Bre-MAO; A Mar H;\nA Pic-Bel, Army Mar-Spa"
    [ack] = judge.send(players["F"], body)
    assert ack.body == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "\nFrance in war1, Movement for Spring of 1901:\n"
        "  A PAR - BUR\n"
        "  F BRE - MAO\n"
        "  A MAR H                      (replaced by a later order for the same unit)\n"
        "  A Pic-Bel                    ERROR: There is no unit in Picardy.\n"
        "  A MAR - SPA\n"
        "  Orders on file now:\n"
        "    Army Paris -> Burgundy\n"
        "    Fleet Brest -> Mid-Atlantic Ocean\n"
        "    Army Marseilles -> Spain\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
    )
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"]


def test_a_comma_in_anything_but_a_list_of_orders_keeps_the_line_whole() -> None:
    def read(line: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(c.name, c.args) for c in read_commands(line)]

    assert read("A Par-Bur, F Bre-MAO") == [("ORDER", ("A Par-Bur",)), ("ORDER", ("F Bre-MAO",))]
    assert read("Build A Par; build F Bre") == [
        ("ORDER", ("Build A Par",)),
        ("ORDER", ("build F Bre",)),
    ]
    assert read("A Par - Bur;") == [("ORDER", ("A Par - Bur;",))]  # one order: as before
    assert read("A Par-Bur, Mar H") == [("ORDER", ("A Par-Bur, Mar H",))]
    assert read("Dear all, A Par-Bur") == [("ORDER", ("Dear all, A Par-Bur",))]
    assert read("SET DEADLINE Dec 1, 23:30") == [("SET DEADLINE", ("Dec 1, 23:30",))]
    # A line carrying a password is never split: the pieces would be echoed.
    assert read("A Par-Bur, Login Fwar1 secret")[0][0] == "ORDER"
    [one] = read_commands("A Par-Bur, Login Fwar1 secret")
    assert "secret" not in one.text and one.args == (one.text,)
    # Nor is a piece of a list: each is masked as a line of its own would be.
    assert read("A Par-Bur, A Mar H, A signon Fwar1 secret") == [
        ("ORDER", ("A Par-Bur",)),
        ("ORDER", ("A Mar H",)),
        ("ORDER", ("A signon ****",)),
    ]


def test_a_list_of_orders_without_a_signon_is_refused_piece_by_piece(judge: Judge) -> None:
    [ack] = judge.send("x@example.org", "A Par-Bur, F Bre-MAO")
    needs = "  ERROR: this line needs a SIGNON line before it\n"
    needs += "  (SIGNON Xgame password, X your power's initial).\n"
    assert ack.body == f"Line 1: A Par-Bur\n{needs}Line 1: F Bre-MAO\n{needs}"


# -- several SET keywords on one line, SET [NO] CD, PRESS as filler, ENDBROADCAST -------------


def test_several_set_keywords_on_one_line_each_answered(judge: Judge) -> None:
    judge.start_game()
    body = "SIGNON Mwar1 masterpw\nSET NO CD, PRESS GREY\nSET CD\nSET WHITE NONMR\nSET NO PRESS"
    [ack, *notices] = judge.send("gm@example.org", body)
    assert {notice.body for notice in notices} == {
        "Parameters for game 'war1' changed to:\n"
        "  Missing orders at the end of grace: wait for the master\n"
        "  Press: none\n"
    }
    assert ack.body.startswith(
        SIGNED_ON + "Line 2: SET NO CD\n"
        "  war1: nonmr is now wait for you.\n"
        "Line 2: SET GREY\n"
        "  war1: press is now grey.\n"
        "Line 3: SET CD\n"
        "  war1: nmr is now processed with the orders on file.\n"
        "Line 4: SET WHITE\n"
        "  war1: press is now white.\n"
        "Line 4: SET NONMR\n"
        "  war1: nonmr is now wait for you.\n"
        "Line 5: SET NO PRESS\n"
        "  war1: press is now none.\n"
        "\nOrders on file in war1, power by power:\n"
    )
    assert judge.game().settings.press == "none"


def test_a_player_sets_two_keywords_and_ends_press_with_endbroadcast(judge: Judge) -> None:
    players = judge.start_game()
    body = "SIGNON Fwar1 pw2\nSET NO WAIT, DRAW\nPRESS TO G\nhello\nENDBROADCAST\nEND BROADCAST"
    [ack, press, _copy] = judge.send(players["F"], body)
    assert ack.body.startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "Line 2: SET NO WAIT\n"
        "  WAIT is off: war1 is processed as soon as all orders are in.\n"
        "Line 2: SET DRAW\n"
        "  Your vote for a draw in war1 is recorded. The game ends in a\n"
        "  draw when every surviving power has voted for it.\n"
    )
    assert (
        "Line 3: PRESS TO G\n"
        "  Message sent to Germany.\n"
        "Line 6: END BROADCAST\n"
        "  ERROR: Expected PRESS or BROADCAST, then the press, before ENDPRESS.\n"
    ) in ack.body
    assert press.to == [players["G"]]
    assert press.body == f"Message from {players['F']} as France to Germany in 'war1':\n\nhello\n"


SET_LINES = [
    ("SET NMR, NOWAIT", [("SET NMR", "SET NMR", ()), ("SET NOWAIT", "SET NOWAIT", ())]),
    ("set no cd", [("SET NONMR", "set no cd", ())]),
    ("SET NOCD", [("SET NONMR", "SET NOCD", ())]),
    ("SET PRESS GREY", [("SET PRESS", "SET PRESS GREY", ("GREY",))]),
    ("SET GRAY", [("SET PRESS", "SET GRAY", ("GREY",))]),
    ("SET NONE", [("SET PRESS", "SET NONE", ("NONE",))]),
    ("SET CD NO DRAW", [("SET NMR", "SET CD", ()), ("SET NODRAW", "SET NO DRAW", ())]),
    ("SET NMR, NO LIST", [("SET NMR", "SET NMR", ()), ("SET LISTED", "SET NO LIST", ("NO",))]),
    (
        "SET PRIVATE GREY",
        [("SET LISTED", "SET PRIVATE", ("NO",)), ("SET PRESS", "SET GREY", ("GREY",))],
    ),
    ("SET PUBLIC", [("SET LISTED", "SET PUBLIC", ("YES",))]),
    # SET LIST with an address or NONE is the game's mailing list, never two keywords.
    ("SET LIST NONE", [("SET LIST", "SET LIST NONE", ("NONE",))]),
    # Not a list of keywords: read as today.
    ("SET PRESS YES", [("SET PRESS", "SET PRESS YES", ("YES",))]),
    (
        "SET DEADLINE Dec 1, 23:30",
        [("SET DEADLINE", "SET DEADLINE Dec 1, 23:30", ("Dec 1, 23:30",))],
    ),
    ("SET WAIT, PASSWORD Hunter7", [("ERROR", "SET WAIT, PASSWORD ****", ())]),
    ("SET PRESS", [("ERROR", "SET PRESS", ())]),
]


@pytest.mark.parametrize(("line", "expected"), SET_LINES)
def test_how_a_set_line_is_read(
    line: str, expected: list[tuple[str, str, tuple[str, ...]]]
) -> None:
    assert [(c.name, c.text, c.args) for c in read_commands(line)] == expected


# -- SET PLAYERS n: the map's variant for n players -------------------------------------------


def test_set_players_picks_the_variant_for_that_many_players(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?war1 masterpw")
    for i in range(3):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}")
    body = "SIGNON Mwar1 masterpw\nSET PLAYERS 9\nSET PLAYERS 2\nSET PLAYERS six\nSET PLAYERS 4"
    [ack] = judge.send(MASTER, body)
    assert ack.body.startswith(
        SIGNED_ON + "Line 2: SET PLAYERS 9\n"
        "  ERROR: No variant of this game's map is for 9 players.\n"
        "  It has games for 2, 3, 4, 5, 6 or 7 players.\n"
        "Line 3: SET PLAYERS 2\n"
        "  ERROR: war1 already has 3 players: SET PLAYERS 2 would\n"
        "  leave some without a power.\n"
        "Line 4: SET PLAYERS six\n"
        "  ERROR: No variant of this game's map is for six players.\n"
        "  It has games for 2, 3, 4, 5, 6 or 7 players.\n"
        "Line 5: SET PLAYERS 4\n"
        "  war1 is now standard-4, for 4 players.\n"
    )
    assert (judge.game().variant, judge.game().state) == ("standard-4", "forming")
    # Three players: the rulebook's first pairing (the other is named); as many have
    # joined, so the game starts.
    [ack, *started] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET PLAYERS 3")
    assert ack.body.startswith(
        SIGNED_ON + "Line 2: SET PLAYERS 3\n"
        "  war1 is now standard-3a, for 3 players.\n"
        "  Also for 3 players: standard-3b (CREATE a game with it).\n"
        "\nThe game war1 is full and has started: every player gets a\n"
    )
    assert (judge.game().variant, judge.game().state) == ("standard-3a", "active")
    assert len(started) == 4  # the three players and the master
    [ack] = judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET PLAYERS 7")
    assert "Line 2: SET PLAYERS 7\n  ERROR: " in ack.body
    assert judge.game().variant == "standard-3a"


def test_set_players_on_a_map_with_no_variants_and_odd_numbers(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?war1 masterpw standard-1898")
    body = "SIGNON Mwar1 masterpw\nSET PLAYERS 6\nSET PLAYERS ²\nSET PLAYERS " + "9" * 5000
    [ack] = judge.send(MASTER, body)
    none = (
        "  ERROR: No variant of this game's map is for {} players.\n  It has games for 7 players.\n"
    )
    assert ack.body.startswith(
        SIGNED_ON
        + "Line 2: SET PLAYERS 6\n"
        + none.format("6")
        + "Line 3: SET PLAYERS ²\n"
        + none.format("²")
    )
    assert none.format("9" * 20) in ack.body
    assert [c.name for c in read_commands("SET PLAYERS")] == ["ERROR"]
