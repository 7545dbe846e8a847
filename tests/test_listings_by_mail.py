"""Listings by mail (issue 17, njudge's LIST, SET [NO] LIST, SET COMMENT, WHOGAME,
SUMMARY and HISTORY): the replies' exact lines through the real handling path."""

from __future__ import annotations

from judge_harness import Judge

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
    [ack] = judge.send(MASTER, SIGNON + "SET NO LIST\nSET PRIVATE extra\nSET LIST two words")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET NO LIST",
        "  war1 is now unlisted: LIST and LIST FULL leave it out (LIST war1 still shows it).",
        "Line 3: SET PRIVATE extra",
        "  ERROR: Expected SET PRIVATE on its own.",
        "Line 4: SET LIST two words",
        "  ERROR: SET LIST takes a mail address (the game's mailing list) or NONE, not \"two "
        'words"; SET LIST alone shows the game in LIST, SET NOLIST hides it.',
    ]
    [listing] = judge.send("z@example.org", "LIST")
    assert _lines(listing.body) == [
        "Line 1: LIST",
        "  Games on this judge:",
        "    other        forming   0 players signed on",
    ]
    [shown] = judge.send("z@example.org", "LIST war1")
    assert _lines(shown.body)[1] == "  war1 (Standard Diplomacy): active, Movement, Spring of 1901."
    [ack] = judge.send(MASTER, SIGNON + "SET PUBLIC")
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
    [ack] = judge.send(MASTER, SIGNON + "SET LIST Game@Lists.example.org")
    assert _lines(ack.body)[3] == "  war1: list is now game@lists.example.org."
    settings = judge.game().settings
    assert (settings.list, settings.listed) == ("game@lists.example.org", True)


# -- SET COMMENT [BEGIN] --------------------------------------------------------------------


def test_the_short_comment_is_set_shown_under_the_game_and_cleared(judge: Judge) -> None:
    judge.start_game()
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT  Gunboat,   fast Ünïcode")
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
    ]
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT")
    assert _lines(ack.body)[2:] == ["Line 2: SET COMMENT", "  Brief comment set: []."]
    assert judge.game().settings.comment == ""


def test_a_comment_over_the_limit_is_refused(judge: Judge) -> None:
    judge.start_game()
    text = "x" * 60
    [ack] = judge.send(MASTER, SIGNON + f"SET COMMENT {'y' * 59}\nSET COMMENT {text}")
    assert _lines(ack.body)[3:] == [
        f"  Brief comment set: [{'y' * 59}].",
        f"Line 3: SET COMMENT {text}",
        "  ERROR: The comment has 60 characters; it may have 59 at most. For a longer one, use"
        " SET COMMENT BEGIN with the comment on the lines below it.",
    ]
    assert judge.game().settings.comment == "y" * 59


def test_the_long_comment_takes_the_rest_of_the_mail_up_to_signoff(judge: Judge) -> None:
    judge.start_game()
    body = (
        SIGNON
        + "SET COMMENT BEGIN\nHouse rules:\n\n  no NMR excuses\nSIGNON Fwar1 pw2\nSIGNOFF\nA Par H"
    )
    [ack] = judge.send(MASTER, body)
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT BEGIN",
        "  Long comment set: 4 lines, shown by LIST war1.",
    ]
    # A line that looks like a sign-on is kept masked: LIST shows the comment to anyone.
    assert (
        judge.game().settings.long_comment == "House rules:\n\n  no NMR excuses\nSIGNON Fwar1 ****"
    )
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN")
    assert _lines(ack.body)[2:] == ["Line 2: SET COMMENT BEGIN", "  Long comment cleared."]
    assert judge.game().settings.long_comment == ""


def test_a_long_comment_over_its_limits_is_refused(judge: Judge) -> None:
    judge.start_game()
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN\n" + "line\n" * 41)
    assert _lines(ack.body)[2:] == [
        "Line 2: SET COMMENT BEGIN",
        "  ERROR: The long comment has 41 lines and 204 characters; it may have 40 lines and"
        " 2000 characters at most.",
    ]
    [ack] = judge.send(MASTER, SIGNON + "SET COMMENT BEGIN\n" + "z" * 2001)
    assert "has 1 lines and 2001 characters" in ack.body
    assert judge.game().settings.long_comment == ""
