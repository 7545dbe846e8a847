"""Listings by mail (issue 17, njudge's LIST, SET [NO] LIST, SET COMMENT, WHOGAME,
SUMMARY and HISTORY): the replies' exact lines through the real handling path."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from judge_harness import Judge

from judge.commands import information
from judge.commands.language import read_commands

MASTER = "gm@example.org"
SIGNON = "SIGNON Mwar1 masterpw\n"


def _lines(body: str) -> list[str]:
    """The reply's lines, up to the first empty one (a master's reply goes on with the
    orders on file)."""
    return body.split("\n\n")[0].splitlines()


# -- SET [NO] LIST, SET PUBLIC / PRIVATE / UNLIST ------------------------------------------


def test_set_list_words_read_as_the_listing_flag_and_an_address_as_the_mailing_list() -> None:
    flags = ["SET LIST", "SET PUBLIC", "SET NOLIST", "SET NO LIST", "set private", "SET UNLIST"]
    read = [(c.name, c.args) for c in read_commands("\n".join(flags))]
    assert read == [
        ("SET LISTED", ("YES",)),
        ("SET LISTED", ("YES",)),
        ("SET LISTED", ("NO",)),
        ("SET LISTED", ("NO",)),
        ("SET LISTED", ("NO",)),
        ("SET LISTED", ("NO",)),
    ]
    [mailing, none] = read_commands("SET LIST game@lists.example.org\nSET LIST NONE")
    assert (mailing.name, mailing.args) == ("SET LIST", ("game@lists.example.org",))
    assert (none.name, none.args) == ("SET LIST", ("NONE",))


def test_an_unlisted_game_is_left_out_of_list_but_list_name_shows_it(judge: Judge) -> None:
    judge.start_game()
    judge.send("x@example.org", "CREATE ?other pw")
    body = SIGNON + "SET NO LIST\nSET PRIVATE extra\nSET LIST two words"
    [ack, *notices] = judge.send(MASTER, body)
    assert _lines(ack.body)[2:] == [
        "Line 2: SET NO LIST",
        "  war1 is now unlisted: LIST and LIST FULL leave it out",
        "  (LIST war1 still shows it).",
        "Line 3: SET PRIVATE extra",
        "  ERROR: Expected SET PRIVATE on its own.",
        "Line 4: SET LIST two words",
        "  ERROR: SET LIST takes a mail address (the game's mailing list) or NONE, not",
        '  "two words"; SET LIST alone shows the game in LIST, SET NOLIST hides it.',
    ]
    assert len(notices) == 8  # the master and the seven players, one mail each
    for notice in notices:
        assert notice.body == "Parameters for game 'war1' changed to:\n  Shown by LIST: no\n"
    [listing] = judge.send("z@example.org", "LIST")
    assert _lines(listing.body) == [
        "Line 1: LIST",
        "  Games on this judge:",
        "    other        forming   0 players signed on",
        "  Variants for CREATE ?name password variant:",
        "    archipelago, chaos, decapolis, duel, fleet_rome, standard,",
        "    standard-1898, standard-2, standard-3a, standard-3b, standard-4,",
        "    standard-5, standard-6, standard-anycenter",
    ]
    [shown] = judge.send("z@example.org", "LIST war1")
    assert _lines(shown.body)[1].startswith("Game 'war1' order #001 (S1901M) has a deadline")
    [ack, *_] = judge.send(MASTER, SIGNON + "SET PUBLIC")
    assert _lines(ack.body)[3] == "  war1 is now listed: LIST and LIST FULL show it."
    [listing] = judge.send("z@example.org", "LIST")
    assert "    war1         active    Movement, Spring of 1901" in _lines(listing.body)


def test_only_the_master_sets_the_listing_and_the_mailing_list_stays(judge: Judge) -> None:
    players = judge.start_game()
    [ack] = judge.send(players["F"], "SIGNON Fwar1 pw2\nSET NOLIST\nSET COMMENT mine")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET NOLIST",
        "  ERROR: only the game's master may use SET NOLIST.",
        "Line 3: SET COMMENT mine",
        "  ERROR: only the game's master may use SET COMMENT.",
    ]
    [ack, *_] = judge.send(MASTER, SIGNON + "SET LIST Game@Lists.example.org")
    assert _lines(ack.body)[3] == "  war1: list is now game@lists.example.org."
    settings = judge.game().settings
    assert (settings.list, settings.listed) == ("game@lists.example.org", True)


# -- SET COMMENT [BEGIN] --------------------------------------------------------------------


def test_the_short_comment_is_set_shown_under_the_game_and_cleared(judge: Judge) -> None:
    judge.start_game()
    [ack, *_] = judge.send(MASTER, SIGNON + "SET COMMENT  Gunboat,   fast Ünïcode")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT  Gunboat,   fast Ünïcode",
        "  Brief comment set: [Gunboat, fast Ünïcode].",
    ]
    [listing] = judge.send("z@example.org", "LIST")
    assert _lines(listing.body) == [
        "Line 1: LIST",
        "  Games on this judge:",
        "    war1         active    Movement, Spring of 1901",
        "      Gunboat, fast Ünïcode",
        "  Variants for CREATE ?name password variant:",
        "    archipelago, chaos, decapolis, duel, fleet_rome, standard,",
        "    standard-1898, standard-2, standard-3a, standard-3b, standard-4,",
        "    standard-5, standard-6, standard-anycenter",
    ]
    [ack, *_] = judge.send(MASTER, SIGNON + "SET COMMENT")
    assert _lines(ack.body)[2:] == ["Line 2: SET COMMENT", "  Brief comment set: []."]
    assert judge.game().settings.comment == ""


def test_a_comment_over_the_limit_is_refused(judge: Judge) -> None:
    judge.start_game()
    text = "x" * 60
    [ack, *_] = judge.send(MASTER, SIGNON + f"SET COMMENT {'y' * 59}\nSET COMMENT {text}")
    assert _lines(ack.body)[3:] == [
        f"  Brief comment set: [{'y' * 59}].",
        f"Line 3: SET COMMENT {text}",
        "  ERROR: The comment has 60 characters; it may have 59 at most. For a longer",
        "  one, use SET COMMENT BEGIN with the comment on the lines below it.",
    ]
    assert judge.game().settings.comment == "y" * 59


def test_the_long_comment_takes_the_rest_of_the_mail_up_to_signoff(judge: Judge) -> None:
    judge.start_game()
    body = (
        SIGNON
        + "SET COMMENT BEGIN\nHouse rules:\n\n  no NMR excuses\nSIGNON Fwar1 pw2\nSIGNOFF\nA Par H"
    )
    [ack, *_] = judge.send(MASTER, body)
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT BEGIN",
        "  Long comment set: 4 lines, shown by LIST war1.",
    ]
    # A line that looks like a sign-on is kept masked: LIST shows the comment to anyone.
    assert (
        judge.game().settings.long_comment == "House rules:\n\n  no NMR excuses\nSIGNON Fwar1 ****"
    )
    [ack, *_] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN")
    assert _lines(ack.body)[2:] == ["Line 2: SET COMMENT BEGIN", "  Long comment cleared."]
    assert judge.game().settings.long_comment == ""


def test_a_long_comment_over_its_limits_is_refused(judge: Judge) -> None:
    judge.start_game()
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN\n" + "line\n" * 41)
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT BEGIN",
        "  ERROR: The long comment has 41 lines and 204 characters; it may have 40",
        "  lines and 2000 characters at most.",
    ]
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN\n" + "z" * 2001)
    assert "has 1 lines and 2001 characters" in ack.body
    assert judge.game().settings.long_comment == ""


# -- LIST name, LIST FULL, LIST after a SIGNON: njudge's full report ------------------------

POSITION = [
    "  The position:",
    "   Austria:   Army Budapest, Army Vienna, Fleet Trieste.",
    "   England:   Army Liverpool, Fleet Edinburgh, Fleet London.",
    "   France:    Army Marseilles, Army Paris, Fleet Brest.",
    "   Germany:   Army Berlin, Army Munich, Fleet Kiel.",
    "   Italy:     Army Rome, Army Venice, Fleet Naples.",
    "   Russia:    Army Moscow, Army Warsaw, Fleet Sevastopol, Fleet St",
    "              Petersburg (south coast).",
    "   Turkey:    Army Constantinople, Army Smyrna, Fleet Ankara.",
]
SETTINGS = [
    "  Variant:   Standard Diplomacy.",
    "  Deadlines: Move 48.00, Retreat 24.00, Adjust 24.00, Grace 24.00,",
    "             Delay 0.00 hours; at any time; days SMTWTFS.",
    "  Flags:     NMR, List, Orders Replace, Map.",
    "  Press:     White, Partial, NoObserver.",
    "  Ends:      a power (or player) with 18 supply centres wins; a draw after 7",
    "             years with no supply centre changing hands; a draw after 35",
    "             game years.",
    "  Rules:     the DATC's preferred choices (DATC 2.4).",
]


def _played(judge: Judge) -> dict[str, str]:
    """war1 with comments, France's orders in part, England's in full, Turkey ejected."""
    players = judge.start_game()
    comment = "SET COMMENT Gunboat, fast\nSET COMMENT BEGIN\nHouse rules:\n  be kind\nSIGNOFF"
    judge.send(MASTER, SIGNON + comment)
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par H")
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF Lon H\nF Edi H\nA Lvp H")
    judge.send(MASTER, SIGNON + "EJECT T")
    return players


def test_list_name_is_njudges_full_report(judge: Judge) -> None:
    _played(judge)
    [reply] = judge.send("z@example.org", "LIST War1")
    assert reply.body.splitlines() == [
        "Line 1: LIST War1",
        "Game 'war1' order #001 (S1901M) has a deadline of Mon Nov 23 2026 12:08:00 +0000.",
        *SETTINGS,
        "  Comment:   Gunboat, fast",
        "  House rules:",
        "    be kind",
        "",
        "   Master     gm@example.org",
        "   Austria    move  3/3  p0@example.org",
        "   England          3/3  p1@example.org",
        "   France     part  3/3  p2@example.org",
        "   Germany    move  3/3  p3@example.org",
        "   Italy      move  3/3  p4@example.org",
        "   Russia     move  4/4  p5@example.org",
        "   Turkey     abandon 3/3",
        "",
        *POSITION,
    ]


def test_after_the_deadline_a_player_without_orders_is_late(judge: Judge) -> None:
    _played(judge)
    judge.now = datetime(2026, 11, 23, 13, 0, tzinfo=UTC)  # past the deadline, in grace
    [reply] = judge.send("z@example.org", "LIST war1")
    rows = [line for line in reply.body.splitlines() if line.startswith("   ") and "/" in line]
    assert rows[:4] == [
        "   Austria    late  3/3  p0@example.org",
        "   England          3/3  p1@example.org",
        "   France     part  3/3  p2@example.org",
        "   Germany    late  3/3  p3@example.org",
    ]


def test_the_deadline_is_njudges_ptime_in_the_judges_zone(tmp_path: Path) -> None:
    judge = Judge(tmp_path, timezone="America/New_York")
    judge.start_game()
    [reply] = judge.send("z@example.org", "LIST war1")
    assert reply.body.splitlines()[1] == (
        "Game 'war1' order #001 (S1901M) has a deadline of Mon Nov 23 2026 07:08:00 -0500."
    )


def test_the_turn_number_counts_the_phases_played(judge: Judge) -> None:
    judge.start_game()
    judge.send(MASTER, SIGNON + "PROCESS")
    [reply] = judge.send("z@example.org", "LIST war1")
    assert reply.body.splitlines()[1].startswith("Game 'war1' order #002 (F1901M) has a deadline")


def test_list_after_a_signon_is_that_games_report_and_the_master_sees_the_orders(
    judge: Judge,
) -> None:
    players = _played(judge)
    judge.send("x@example.org", "CREATE ?other pw")
    [reply] = judge.send(players["F"], "SIGNON Fwar1 pw2\nLIST")
    lines = reply.body.splitlines()
    assert lines[2:4] == [
        "Line 2: LIST",
        "Game 'war1' order #001 (S1901M) has a deadline of Mon Nov 23 2026 12:08:00 +0000.",
    ]
    assert "Orders on file:" not in reply.body and "other" not in reply.body
    [reply] = judge.send(MASTER, SIGNON + "LIST")
    report = reply.body.split("Line 2: LIST\n")[1].split("\n\n\n")[0]
    assert report.splitlines()[-4:] == [
        "",
        "  Orders on file:",
        "   England:   Fleet London HOLD; Fleet Edinburgh HOLD; Army Liverpool HOLD.",
        "   France:    Army Paris HOLD.",
    ]


def test_list_full_reports_every_listed_game(judge: Judge) -> None:
    judge.start_game()
    judge.send("x@example.org", "CREATE ?forming pw")
    judge.send("y@example.org", "CREATE ?hidden pw")
    judge.send("y@example.org", "SIGNON Mhidden pw\nSET UNLIST")
    judge.send("p9@example.org", "SIGNON ?forming pw9")
    [reply] = judge.send("z@example.org", "LIST FULL")
    lines = reply.body.splitlines()
    assert lines[:14] == [
        "Line 1: LIST FULL",
        "Game 'forming' is forming: 6 more players needed.",
        *SETTINGS,
        "",
        "   Master     x@example.org",
        "   Player     p9@example.org",
    ]
    assert (
        lines[15]
        == "Game 'war1' order #001 (S1901M) has a deadline of Mon Nov 23 2026 12:08:00 +0000."
    )
    assert "hidden" not in reply.body
    [reply] = judge.send("z@example.org", "LIST hidden")
    assert reply.body.splitlines()[1] == "Game 'hidden' is forming: 7 more players needed."


def test_a_long_comment_is_wrapped_to_the_mails_width(judge: Judge) -> None:
    judge.start_game()
    word = "Ünïcode-wörds " * 10
    judge.send(MASTER, SIGNON + f"SET COMMENT BEGIN\n{word}")
    [reply] = judge.send("z@example.org", "LIST war1")
    assert max(len(line) for line in reply.body.splitlines()[2:]) <= 78
    assert "  Ünïcode-wörds Ünïcode-wörds Ünïcode-wörds Ünïcode-wörds Ünïcode-wörds" in reply.body


# -- WHOGAME [FULL], SUMMARY / STATUS --------------------------------------------------------


def test_whogame_full_adds_the_observers(judge: Judge) -> None:
    judge.start_game()
    judge.observe("obs@example.org", "obspw")
    judge.send("new@example.org", "OBSERVE war1 newpw")  # not confirmed: shown so
    [reply] = judge.send("z@example.org", "WHOGAME war1\nWHO GAME war1 FULL\nWHOGAME war1 all")
    seated = [
        "  Who plays war1:",
        "    master               gm@example.org",
        *[f"    {power:<20} p{n}@example.org" for n, power in enumerate(POWER_NAMES)],
    ]
    assert reply.body.splitlines() == [
        "Line 1: WHOGAME war1",
        *seated,
        "Line 2: WHO GAME war1 FULL",
        *seated,
        "    observer             obs@example.org",
        "    observer (unconfirmed) new@example.org",
        "Line 3: WHOGAME war1 all",
        "  ERROR: WHOGAME takes a game's name and, to add the observers, FULL: not all.",
    ]


POWER_NAMES = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def test_summary_says_who_played_each_power_from_which_phase(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(MASTER, SIGNON + "PROCESS")  # Spring 1901 -> Fall 1901
    judge.send(MASTER, SIGNON + "REPLACE F new@example.org\nPROMOTE gm2@example.org")
    judge.confirm("new@example.org")
    judge.confirm("gm2@example.org")
    judge.send(players["T"], "SIGNON Twar1 pw6\nRESIGN")
    [reply] = judge.send("z@example.org", "STATUS war1")
    assert reply.body.splitlines() == [
        "Line 1: STATUS war1",
        "  Supply centres in war1, year by year:",
        "    Year  Aus Eng Fra Ger Ita Rus Tur",
        "    1901    3   3   3   3   3   4   3",
        "  Who played each power:",
        "    Austria  p0@example.org from S1901M",
        "    England  p1@example.org from S1901M",
        "    France   p2@example.org from S1901M, left in F1901M",
        "             new@example.org from F1901M",
        "    Germany  p3@example.org from S1901M",
        "    Italy    p4@example.org from S1901M",
        "    Russia   p5@example.org from S1901M",
        "    Turkey   p6@example.org from S1901M, left in F1901M",
        "  Masters:",
        "    gm@example.org from S1901M",
        "    gm2@example.org from F1901M",
    ]


def test_summary_of_a_forming_game_names_no_phase(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?war2 masterpw")
    judge.send("p1@example.org", "SIGNON ?war2 pw1")
    [reply] = judge.send("z@example.org", "SUMMARY war2")
    assert reply.body.splitlines()[4:] == [
        "  Who played each power:",
        *[f"    {power:<8} nobody" for power in POWER_NAMES],
        "  Masters:",
        "    gm@example.org",
    ]


def test_a_password_in_a_comment_is_neither_echoed_nor_listed(judge: Judge) -> None:
    judge.start_game()
    [ack, *_] = judge.send(MASTER, SIGNON + "SET COMMENT SIGNON Fwar1 Hunter7Zq")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT SIGNON ****",
        "  Brief comment set: [SIGNON ****].",
    ]
    [listing] = judge.send("z@example.org", "LIST")
    assert "Hunter7Zq" not in listing.body and "      SIGNON ****" in listing.body
    assert "Hunter7Zq" not in judge.game().settings.dumps()


def test_list_full_reports_a_limited_number_of_games(
    judge: Judge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(information, "MAX_FULL_REPORTS", 1)
    for name in ("aaa", "bbb", "ccc"):
        judge.send(f"{name}@example.org", f"CREATE ?{name} pw")
    [reply] = judge.send("z@example.org", "LIST FULL")
    lines = reply.body.splitlines()
    assert lines[1] == "Game 'aaa' is forming: 7 more players needed."
    assert "Game 'bbb'" not in reply.body
    assert lines[-1] == "  ... and 2 more listed games: LIST name shows each."
