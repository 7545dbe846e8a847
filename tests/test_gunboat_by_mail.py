"""Gunboat by mail (issue 18 item 1, njudge.md section 2): making a gunboat game and
joining it, its flags (SET [NO] REVEAL, SHOW, QUIET, SECRET), and what LIST, WHOGAME and
SUMMARY show of its players to each reader, through the real handling path."""

from __future__ import annotations

from datetime import datetime, timedelta

from judge_harness import HOLDS, POWERS, Judge, Mail, observing

from judge.commands.language import read_commands

MASTER = "gm@example.org"
# SET VARIANT with no variant: the ERROR line broken at 78 columns, the maps of maps/.
SET_VARIANT_REFUSED = [
    "  ERROR: Expected SET VARIANT followed by a variant, GUNBOAT, or both (e.g.",
    "  SET VARIANT standard GUNBOAT); the variants: archipelago, chaos, decapolis,",
    "  duel, fleet_rome, standard, standard-1898, standard-2, standard-3a,",
    "  standard-3b, standard-4, standard-5, standard-6, standard-anycenter.",
]
OUTSIDER = "x@example.org"
GUNBOAT_FLAGS = "  Flags:     NMR, List, Orders Replace, Map, Gunboat, No Show."


def _lines(body: str) -> list[str]:
    """The reply's lines up to the first empty one."""
    return body.split("\n\n")[0].splitlines()


def _players(body: str) -> list[str]:
    """A LIST report's lines of the master and the players (after its first blank line)."""
    return body.split("\n\n")[1].splitlines()


def _start(judge: Judge, create: str = "CREATE ?gb masterpw gunboat") -> dict[str, str]:
    """A started gunboat game gb: power initial -> player address."""
    judge.send(MASTER, create)
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?gb pw{i} gunboat\nSET PREFERENCE {initial}")
    return {initial: f"p{i}@example.org" for i, initial in enumerate(POWERS)}


def _no_password(mails: list[Mail], *passwords: str) -> None:
    for mail in mails:
        for password in passwords:
            assert password not in mail.full and password not in mail.subject


# -- Making and joining a gunboat game ------------------------------------------------------


def test_create_takes_the_variant_and_gunboat_in_any_order(judge: Judge) -> None:
    [ack] = judge.send(MASTER, "CREATE ?gb masterpw standard gunboat")
    assert _lines(ack.body) == [
        "Line 1: CREATE ?gb **** standard gunboat",
        "  Game gb (Standard Diplomacy, gunboat) is created and you are its master.",
        "  Players join with: SIGNON ?gb password gunboat   (7 are needed)",
    ]
    assert ack.full.splitlines()[1] == ":: Judge: TEST  Game: Gb  Variant: Standard Gunboat"
    [ack] = judge.send(MASTER, "CREATE ?gc secretpw gunboat chaos")
    assert _lines(ack.body)[0] == "Line 1: CREATE ?gc **** gunboat chaos"
    assert ack.full.splitlines()[1] == ":: Judge: TEST  Game: Gc  Variant: Chaos Gunboat"
    [ack] = judge.send(MASTER, "CREATE ?gd pw3 gunboat")
    assert ack.full.splitlines()[1] == ":: Judge: TEST  Game: Gd  Variant: Standard Gunboat"
    assert (judge.game("gd").variant, judge.game("gd").settings.gunboat) == ("standard", True)
    [ack] = judge.send(MASTER, "CREATE ?ge pw4")
    assert ack.full.splitlines()[1] == ":: Judge: TEST  Game: Ge  Variant: Standard"
    assert not judge.game("ge").settings.gunboat
    for line in ("CREATE ?gf pw5 gunboat gunboat", "CREATE ?gf pw5 chaos standard"):
        [ack] = judge.send(MASTER, line)
        assert _lines(ack.body) == [
            "Line 1: CREATE ?gf ****",
            "  ERROR: Expected a variant after the password, one of: archipelago, chaos,",
            "  decapolis, duel, fleet_rome, standard, standard-1898, standard-2,",
            "  standard-3a, standard-3b, standard-4, standard-5, standard-6,",
            "  standard-anycenter.",
        ]
    [ack] = judge.send(MASTER, "CREATE ?gf my secret words")
    assert _lines(ack.body)[0] == "Line 1: CREATE ?gf ****"
    _no_password([ack], "secret", "words")


def test_joining_a_gunboat_game_names_gunboat(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?gb masterpw gunboat")
    judge.send(MASTER, "CREATE ?open masterpw")
    [ack] = judge.send("p0@example.org", "SIGNON ?gb pw0")
    assert ack.subject == "Re: [Error Flag] TEST orders"
    assert _lines(ack.body) == [
        "Line 1: SIGNON ?gb ****",
        "  ERROR: Game 'gb' is not of the gunboat standard variant.",
        "  Use: signon ?gb password gunboat",
    ]
    [ack] = judge.send("p0@example.org", "SIGNON ?gb pw0 standard gunboat")
    assert _lines(ack.body)[:2] == [
        "Line 1: SIGNON ?gb **** standard gunboat",
        "  You have joined gb: 1 of 7 players.",
    ]
    [ack] = judge.send("p1@example.org", "sign on ?gb pw1 gunboat")
    assert _lines(ack.body)[:2] == ["Line 1: sign on ****", "  You have joined gb: 2 of 7 players."]
    [ack] = judge.send("p2@example.org", "SIGNON ?open pw2 gunboat")
    assert _lines(ack.body) == [
        "Line 1: SIGNON ?open **** gunboat",
        "  ERROR: Game 'open' is of the standard variant, not a gunboat game.",
        "  Use: signon ?open password",
    ]
    [ack] = judge.send("p2@example.org", "SIGNON ?open pw2 chaos")
    assert (
        _lines(ack.body)[1]
        == "  ERROR: Game 'open' is of the standard variant, not a gunboat game."
    )
    [ack] = judge.send("p2@example.org", "SIGNON ?open pw2 standard")
    assert _lines(ack.body)[1] == "  You have joined open: 1 of 7 players."
    [ack] = judge.send("p3@example.org", "SIGNON ?gb two word-password")
    assert _lines(ack.body) == [
        "Line 1: SIGNON ?gb ****",
        "  ERROR: Expected SIGNON Xname password (X the power's initial, ? to join, M",
        "  for the master).",
    ]
    _no_password([ack], "word-password")


def test_set_variant_before_anyone_joins(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?gb masterpw")
    [ack] = judge.send(MASTER, "SIGNON Mgb masterpw\nSET VARIANT GUNBOAT\nSET VARIANT nosuch")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET VARIANT GUNBOAT",
        "  gb is now a gunboat game of the standard variant: the players'",
        "  identities are hidden from each other until the end. Players join with:",
        "  SIGNON ?gb password gunboat",
        "Line 3: SET VARIANT nosuch",
        *SET_VARIANT_REFUSED,
    ]
    assert ack.full.splitlines()[1] == ":: Judge: TEST  Game: Gb  Variant: Standard Gunboat"
    [ack] = judge.send(MASTER, "SIGNON Mgb masterpw\nSET VARIANT chaos")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET VARIANT chaos",
        "  gb is now a game of the chaos variant.",
    ]
    assert (judge.game("gb").variant, judge.game("gb").settings.gunboat) == ("chaos", False)
    judge.send(MASTER, "SIGNON Mgb masterpw\nSET VARIANT standard gunboat")
    judge.send("p0@example.org", "SIGNON ?gb pw0 gunboat")
    [ack, *_] = judge.send(MASTER, "SIGNON Mgb masterpw\nSET VARIANT standard")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET VARIANT standard",
        "  ERROR: 1 player has joined gb: its variant can no longer change.",
    ]
    assert judge.game("gb").settings.gunboat


# -- The flags ------------------------------------------------------------------------------


def test_the_flags_read_as_njudge_spells_them() -> None:
    read = [(c.text, c.name, c.args) for c in read_commands("SET QUIET, NO SHOW SECRET NMR")]
    assert read == [
        ("SET QUIET", "SET QUIET", ("ON",)),
        ("SET NO SHOW", "SET SHOW", ("OFF",)),
        ("SET SECRET", "SET SECRET", ("ON",)),
        ("SET NMR", "SET NMR", ()),
    ]
    [reveal] = read_commands("SET NO REVEAL")
    assert (reveal.name, reveal.args) == ("SET REVEAL", ("OFF",))
    [error] = read_commands("SET REVEAL later")
    assert error.error is not None and error.error.code == "alone"


def test_the_master_sets_the_flags_announced_unsigned_unless_show(judge: Judge) -> None:
    players = _start(judge)
    [ack, *notices] = judge.send(MASTER, "SIGNON Mgb masterpw\nSET QUIET, NO REVEAL")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET QUIET",
        "  gb: quiet is now on.",
        "Line 2: SET NO REVEAL",
        "  gb: reveal is now off.",
    ]
    assert sorted(n.to[0] for n in notices) == sorted([MASTER, *players.values()])
    for notice in notices:
        assert notice.subject == "TEST:gb - S1901M Parameters Changed"
        assert notice.body == (
            "Parameters for game 'gb' changed to:\n"
            "  Identities revealed when the game ends: no\n"
            "  Late and abandoned powers only counted: yes\n"
        )
    [ack, *notices] = judge.send(MASTER, "SIGNON Mgb masterpw\nSET SHOW")
    assert notices[0].body == (
        "Parameters for game 'gb' changed to:\n"
        "  Changes signed by who made them: yes\n"
        "  Changed by: gm@example.org\n"
    )
    [ack] = judge.send(players["F"], "SIGNON Fgb pw2\nSET SECRET")
    assert _lines(ack.body)[2:] == [
        "Line 2: SET SECRET",
        "  ERROR: only the game's master may use SET SECRET.",
    ]
    [listing] = judge.send(OUTSIDER, "LIST gb")
    assert (
        "  Flags:     NMR, List, Orders Replace, Map, Gunboat, Quiet, NoReveal."
        in listing.body.splitlines()
    )


# -- What each reader sees --------------------------------------------------------------------


def test_list_shows_a_player_only_his_own_address(judge: Judge) -> None:
    players = _start(judge)
    [mine] = judge.send(players["F"], "SIGNON Fgb pw2\nLIST")
    lines = mine.body.splitlines()
    assert "  Variant:   Standard Diplomacy, Gunboat." in lines
    assert GUNBOAT_FLAGS in lines
    hidden = [line for line in lines if line.endswith("someone@somewhere")]
    assert len(hidden) == 6
    assert "   France     move  3/3  p2@example.org" in lines
    for reader, body in ((OUTSIDER, "LIST gb"), (OUTSIDER, "LIST FULL")):
        [listing] = judge.send(reader, body)
        assert _players(listing.body.split("\n", 1)[1])[:3] == [
            "   Master     gm@example.org",
            "   Austria    move  3/3  someone@somewhere",
            "   England    move  3/3  someone@somewhere",
        ]
        for address in players.values():
            assert address not in listing.full
    judge.observe("o@example.org", "watchpw", "gb")
    [watching] = judge.send("o@example.org", "SIGNON Ogb watchpw\nLIST")
    assert "   England    move  3/3  someone@somewhere" in watching.body.splitlines()
    assert not any(address in watching.full for address in players.values())
    [master] = judge.send(MASTER, "SIGNON Mgb masterpw\nLIST")
    assert "   England    move  3/3  p1@example.org" in master.body.splitlines()
    [short] = judge.send(OUTSIDER, "LIST")
    assert _lines(short.body)[2] == "    gb           active    Movement, Spring of 1901, gunboat"


def test_whogame_and_summary_hide_the_players_but_from_the_master(judge: Judge) -> None:
    players = _start(judge)
    [ack] = judge.send(OUTSIDER, "WHOGAME gb\nWHOGAME gb FULL")
    assert _lines(ack.body) == [
        "Line 1: WHOGAME gb",
        "  Game 'gb' is a gunboat game.",
        "Line 2: WHOGAME gb FULL",
        "  Game 'gb' is a gunboat game.",
    ]
    [ack] = judge.send(players["F"], "SIGNON Fgb pw2\nWHOGAME gb FULL")
    assert _lines(ack.body)[2:] == ["Line 2: WHOGAME gb FULL", "  Game 'gb' is a gunboat game."]
    [ack] = judge.send(players["F"], "SIGNON Fgb pw2\nSUMMARY gb")
    assert _lines(ack.body)[6:14] == [
        "  Who played each power:",
        "    Austria  Somebody from S1901M",
        "    England  Somebody from S1901M",
        "    France   p2@example.org from S1901M",
        "    Germany  Somebody from S1901M",
        "    Italy    Somebody from S1901M",
        "    Russia   Somebody from S1901M",
        "    Turkey   Somebody from S1901M",
    ]
    [ack] = judge.send(MASTER, "SIGNON Mgb masterpw\nWHOGAME gb\nSUMMARY gb")
    lines = _lines(ack.body)
    assert lines[3:5] == ["  Who plays gb:", "    master               gm@example.org"]
    assert "    Austria              p0@example.org" in lines
    assert "    England  p1@example.org from S1901M" in lines


def test_summary_tells_apart_the_hidden_players_of_one_power(judge: Judge) -> None:
    players = _start(judge)
    judge.send(players["E"], "SIGNON Egb pw1\nRESIGN")
    judge.send("new@example.org", "SIGNON Egb newpw")
    [ack] = judge.send("new@example.org", "SIGNON Egb newpw\nSUMMARY gb")
    assert _lines(ack.body)[8:10] == [
        "    England  Somebody #1 from S1901M, left in S1901M",
        "             new@example.org from S1901M",
    ]
    [ack] = judge.send(players["F"], "SIGNON Fgb pw2\nSUMMARY gb")
    assert _lines(ack.body)[8:10] == [
        "    England  Somebody #1 from S1901M, left in S1901M",
        "             Somebody #2 from S1901M",
    ]


def test_quiet_counts_late_and_abandoned_powers(judge: Judge) -> None:
    players = _start(judge)
    judge.send(MASTER, "SIGNON Mgb masterpw\nSET QUIET")
    judge.send(players["A"], "SIGNON Agb pw0\n" + HOLDS["A"])
    judge.send(players["E"], "SIGNON Egb pw1\nRESIGN")
    judge.now = datetime.fromisoformat(judge.game("gb").deadline or "") + timedelta(hours=1)
    [listing] = judge.send(OUTSIDER, "LIST gb")
    assert _players(listing.body.split("\n", 1)[1]) == [
        "   Master     gm@example.org",
        "   Austria          3/3  someone@somewhere",
        "   England          3/3",
        "   France           3/3  someone@somewhere",
        "   Germany          3/3  someone@somewhere",
        "   Italy            3/3  someone@somewhere",
        "   Russia           4/4  someone@somewhere",
        "   Turkey           3/3  someone@somewhere",
        "   5 powers are late.",
        "   1 power is abandoned.",
    ]
    [master] = judge.send(MASTER, "SIGNON Mgb masterpw\nLIST")
    lines = master.body.splitlines()
    assert "   England    abandon 3/3" in lines
    assert "   France     late  3/3  p2@example.org" in lines
    assert "   5 powers are late." not in lines


def test_secret_hides_how_many_have_joined(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?gb masterpw gunboat\nSET SECRET")
    [ack] = judge.send("p0@example.org", "SIGNON ?gb pw0 gunboat")
    assert _lines(ack.body)[:2] == ["Line 1: SIGNON ?gb **** gunboat", "  You have joined gb."]
    judge.send("p1@example.org", "SIGNON ?gb pw1 gunboat")
    [listing] = judge.send(OUTSIDER, "LIST gb\nLIST")
    text = listing.body.split("\n", 1)[1]
    assert text.splitlines()[0] == "Game 'gb' is forming."
    assert _players(text) == ["   Master     gm@example.org"]
    assert "    gb           forming   players joined: secret, gunboat" in listing.body
    [mine] = judge.send("p1@example.org", "LIST gb")  # no SIGNON before the start
    assert "p0@example.org" not in mine.full and "someone@somewhere" not in mine.full
    [master] = judge.send(MASTER, "SIGNON Mgb masterpw\nLIST")
    assert "Game 'gb' is forming: 5 more players needed." in master.body.splitlines()
    assert _players(master.body.split("Line 2: LIST\n", 1)[1]) == [
        "   Master     gm@example.org",
        "   Player     p0@example.org",
        "   Player     p1@example.org",
    ]


def test_the_start_mails_name_no_other_player(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?gb masterpw gunboat\nSET LIST gb@lists.example.org")
    mails: list[Mail] = []
    for i, initial in enumerate(POWERS):
        mails += judge.send(
            f"p{i}@example.org", f"SIGNON ?gb pw{i} gunboat\nSET PREFERENCE {initial}"
        )
    starts = [m for m in mails if m.subject == "TEST:gb - S1901M Game Starting"]
    assert len(starts) == 9  # seven players, the master, the mailing list
    for mail in starts:
        others = [f"p{i}@example.org" for i in range(7) if [f"p{i}@example.org"] != mail.to]
        if mail.to != [MASTER]:
            assert not any(address in mail.full for address in others)
    [france] = [m for m in starts if m.to == ["p2@example.org"]]
    assert france.body.splitlines()[:4] == [
        "Game gb (Standard Diplomacy, gunboat) has started.",
        "Who plays which power is hidden from the players until the end of the game.",
        "",
        "You are France. Sign on with: SIGNON Fgb your-password",
    ]
    [public] = [m for m in starts if m.to == ["gb@lists.example.org"]]
    assert "Austria: someone@somewhere\nEngland: someone@somewhere\n" in public.body
    [master] = [m for m in starts if m.to == [MASTER]]
    assert "Austria: p0@example.org\nEngland: p1@example.org\n" in master.body


# -- At the end -------------------------------------------------------------------------------


def test_the_end_reveals_the_players_unless_no_reveal(judge: Judge) -> None:
    _start(judge)
    judge.send(MASTER, "SIGNON Mgb masterpw\nTERMINATE")
    [ack] = judge.send(OUTSIDER, "WHOGAME gb\nSUMMARY gb")
    lines = _lines(ack.body)
    assert lines[1:4] == [
        "  Who plays gb:",
        "    master               gm@example.org",
        "    Austria              p0@example.org",
    ]
    assert "    England  p1@example.org from S1901M" in lines
    [listing] = judge.send(OUTSIDER, "LIST gb")
    assert "   Austria          3/3  p0@example.org" in listing.body.splitlines()


def test_no_reveal_keeps_them_hidden_after_the_end(judge: Judge) -> None:
    _start(judge, "CREATE ?gb masterpw gunboat\nSET NO REVEAL")
    judge.send(MASTER, "SIGNON Mgb masterpw\nTERMINATE")
    [ack] = judge.send(OUTSIDER, "WHOGAME gb\nSUMMARY gb")
    lines = _lines(ack.body)
    assert lines[1] == "  Game 'gb' is a gunboat game."
    assert "    England  Somebody from S1901M" in lines
    for i in range(7):
        assert f"p{i}@example.org" not in ack.full


def test_odd_variant_words_get_a_clear_reply(judge: Judge) -> None:
    judge.send(MASTER, "CREATE ?gb masterpw")
    long_word = "é" * 5000
    [ack] = judge.send(MASTER, f"SIGNON Mgb masterpw\nSET VARIANT {long_word}\nSET VARIANT")
    lines = _lines(ack.body)
    assert lines[3].startswith("  ERROR: Expected SET VARIANT followed by a variant, GUNBOAT")
    assert lines[7:] == ["Line 3: SET VARIANT", *SET_VARIANT_REFUSED]
    [ack] = judge.send("p0@example.org", f"SIGNON ?gb pw0 {long_word}")
    assert _lines(ack.body)[0] == "Line 1: SIGNON ?gb ****"
    assert long_word not in ack.full and "pw0" not in ack.full
    [ack] = judge.send("p0@example.org", "SIGNON ?gb pw0 gunboat standard standard")
    assert _lines(ack.body)[0] == "Line 1: SIGNON ?gb ****"
    assert not judge.game("gb").settings.gunboat


def test_joining_a_full_gunboat_game_naming_gunboat_makes_an_observer(judge: Judge) -> None:
    # SIGNON ?game password gunboat on a started game with no free power: an observer,
    # as without the variant word (it once raised on the third word).
    _start(judge)
    [reply] = judge.send("late@example.org", "SIGNON ?gb watchpw gunboat")
    assert _lines(reply.body) == [
        "Line 1: SIGNON ?gb **** gunboat",
        *observing("gb", judge.confirm_code("late@example.org", "gb")).splitlines(),
    ]
    _no_password([reply], "watchpw")
