"""The red team's fourth round: what a signed-on player, an observer or a stranger can
send, and a game's later life. Each test asserts what the judge must still promise: no
reply shows a password, a gunboat game never shows one player's address to another, a
player never acts for another power nor sees what is not theirs, and each mail is
answered once.
"""

from __future__ import annotations

import email
import json
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import Judge, observing
from test_red_team import no_password_shown  # noqa: F401  (autouse: no password shown)

pytestmark = pytest.mark.usefixtures("fresh_password_cache")

MASTER = "gm@example.org"
PAD = " " * 18  # an order's echo is padded to its column of errors


# -- press ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("SIGNON Fwar1 pw2", "SIGNON Fwar1 ****"),
        ("signon Fwar1 pw2", "signon Fwar1 ****"),
        ("SIGN ON Fwar1 pw2", "SIGN ON ****"),
        ("SET PASSWORD pw2", "SET PASSWORD ****"),
        ("Password: pw2", "Password: ****"),
        ("CREATE ?war2 pw2", "CREATE ?war2 ****"),
        ("Create a DMZ in Tyrolia", "Create a DMZ in Tyrolia"),
        ("Observe the fleets", "Observe the fleets"),
        ("Hello Germany, how are you", "Hello Germany, how are you"),
    ],
)
def test_a_signon_line_in_press_not_ended_goes_to_the_others_masked(
    tmp_path: Path, line: str, shown: str
) -> None:
    """njudge's press runs to ENDPRESS, SIGNOFF or the mail's end: a player who forgets
    ENDPRESS and signs on again below it (another game, or the same) sent the SIGNON
    line, password and all, to the powers the press was for and to the master."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    mails = judge.send(
        players["F"], f"SIGNON Fwar1 pw2\nPRESS TO G\nHello Germany\n{line}\nA Par H"
    )
    press = [m for m in mails if "Press from France" in m.subject]
    assert [m.to for m in press] == [[players["G"]], [MASTER]]
    for mail in press:
        assert mail.body.endswith(f"Hello Germany\n{shown}\nA Par H\n")


# -- observers --------------------------------------------------------------------------


def test_an_address_observes_a_game_once(tmp_path: Path) -> None:
    """OBSERVE from the same address added a seat each time: one mail of five OBSERVE
    lines made five observer seats, each with its own password and room for 200 diary
    entries of 20,000 characters, all mailed to everyone when the game ends."""
    judge = Judge(tmp_path)
    judge.start_game()
    lines = "OBSERVE war1 x1\nOBSERVE war1 x2\nOBSERVE war1 x3"
    [answer] = judge.send("watcher@example.net", lines)
    assert answer.body == (
        "Line 1: OBSERVE war1 ****\n"
        + observing("war1", judge.confirm_code("watcher@example.net"))
        + "Line 2: OBSERVE war1 ****\n"
        "  ERROR: you already observe war1 (SIGNON Owar1 password acts as its\n"
        "  observer).\n"
        "Line 3: OBSERVE war1 ****\n"
        "  ERROR: you already observe war1 (SIGNON Owar1 password acts as its\n"
        "  observer).\n"
    )
    rows = judge.db.execute("SELECT address FROM seats WHERE role = 'observer'").fetchall()
    assert rows == [("watcher@example.net",)]


# -- odd names --------------------------------------------------------------------------


def _errors(body: str) -> list[str]:
    """Each ERROR of an answer as the mail writes it: its line and the indented lines
    that continue it (a line too long for 78 columns is broken), up to the next line."""
    errors: list[str] = []
    within = False  # the line before was an error's
    for line in body.split("\n"):
        if "ERROR" in line:
            errors.append(line)
            within = True
        elif within and line.startswith("  "):
            errors[-1] += "\n" + line
        else:
            within = False
    return errors


def test_a_long_power_to_concede_to_is_repeated_cut(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    [answer] = judge.send(players["F"], "SIGNON Fwar1 pw2\nSET CONCEDE " + "Ü" * 3_000)
    assert _errors(answer.body) == [
        "  ERROR: Expected another power to concede to, not\n  " + "Ü" * 57 + "...."
    ]


def test_a_long_word_after_set_is_repeated_cut(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    [answer] = judge.send(players["F"], "SIGNON Fwar1 pw2\nSET " + "Ü" * 3_000)
    assert _errors(answer.body) == ["  ERROR: I don't know SET\n  " + "Ü" * 57 + "...."]


def test_a_long_game_name_is_repeated_cut_in_the_refusal(tmp_path: Path) -> None:
    """A game name is at most 20 characters; LIST, WHOGAME, SUMMARY, HISTORY, OBSERVE
    and SIGNON ? repeated a name of hundreds whole in the refusal, after the line's echo."""
    judge = Judge(tmp_path)
    name = "ü" * 900  # a line with a password is read up to 1,000 characters
    commands = ["LIST", "WHOGAME", "SUMMARY", "HISTORY", "OBSERVE", "SIGNON"]
    lines = [
        f"{c} {'?' if c == 'SIGNON' else ''}{name}{' pw' * (c in ('OBSERVE', 'SIGNON'))}"
        for c in commands
    ]
    [answer] = judge.send("someone@example.net", "\n".join(lines))
    cut = "ü" * 57 + "..."
    assert (
        _errors(answer.body)
        == [f"  ERROR: There is no game called\n  {cut}."] * 4
        + [f"  ERROR: there is no game called\n  {cut} waiting for\n  players."] * 2
    )


# -- seeing another power's orders ------------------------------------------------------


def test_the_masters_become_copies_to_the_player_only_his_own_powers_lines(
    tmp_path: Path,
) -> None:
    """BECOME G copies the master's mail to Germany's player: the copy held the master's
    overview of every power's orders (France's moves before the deadline) that the
    master's SIGNON printed above it."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur\nA Mar - Spa")
    mails = judge.send(MASTER, "SIGNON Mwar1 masterpw\nBECOME G\nA Mun - Tyr")
    [answer] = [m for m in mails if m.to == [MASTER]]
    [copy] = [m for m in mails if m.to == [players["G"]]]
    assert "    Army Paris -> Burgundy\n" in answer.body
    assert copy.body == (
        "This is a copy for the address of record: gm@example.org sent the mail below.\n"
        "\n"
        "Line 2: BECOME G\n"
        "  You act as Germany in war1; its player gets a copy of this mail.\n"
        "\n"
        "Germany in war1, Movement for Spring of 1901:\n"
        "  A MUN - TYR\n"
        "  Orders on file now:\n"
        "    Army Munich -> Tyrolia\n"
        "  Still without orders: Army Berlin, Fleet Kiel.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
    )


def test_a_mail_for_two_powers_copies_each_address_of_record_its_own_lines(
    tmp_path: Path,
) -> None:
    """A sender with two powers' passwords signs on to both in one mail, from an address
    of neither: each player of record gets a copy of what was done in his power's name,
    not the other power's orders."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    body = "LIST\nSIGNON Fwar1 pw2\nA Par - Bur\nSIGNON Gwar1 pw3\nA Mun - Ruh"
    mails = judge.send("laptop@example.net", body)
    copies = {m.to[0]: m.body for m in mails if m.to != ["laptop@example.net"]}
    assert sorted(copies) == [players["F"], players["G"]]
    assert "Munich" not in copies[players["F"]] and "A MUN" not in copies[players["F"]]
    assert "Paris" not in copies[players["G"]] and "A PAR" not in copies[players["G"]]
    assert "  A PAR - BUR\n" in copies[players["F"]]
    assert "  A MUN - RUH\n" in copies[players["G"]]


# -- acting for another (holds) ---------------------------------------------------------


def test_orders_for_another_powers_units_are_refused_and_nothing_stored(tmp_path: Path) -> None:
    """France orders Germany's units; then a second SIGNON in the same mail, as Germany
    with a wrong password: the lines after it are not used."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    body = "SIGNON Fwar1 pw2\nA Mun - Bur\nF Kie - Hol\nSIGNON Gwar1 guess1\nA Mun - Bur\nF Kie H"
    [answer] = judge.send(players["F"], body)
    assert answer.body == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
        f"  A Mun - Bur{PAD}ERROR: The unit in Munich is German; you can\n"
        "    only order your own.\n"
        f"  F Kie - Hol{PAD}ERROR: The unit in Kiel is German; you can only\n"
        "    order your own.\n"
        "  No orders on file.\n"
        "  Still without orders: Army Marseilles, Army Paris, Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
        "Line 4: SIGNON Gwar1 ****\n"
        "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
        "Line 5: A Mun - Bur\n"
        "  ERROR: not used, because the SIGNON before it was refused.\n"
        "Line 6: F Kie H\n"
        "  ERROR: not used, because the SIGNON before it was refused.\n"
    )
    assert (judge.effective("war1", "FRANCE"), judge.effective("war1", "GERMANY")) == ([], [])


def test_an_observer_and_a_resigned_player_order_nothing(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.observe("watcher@example.net", "seen1")
    [answer] = judge.send("watcher@example.net", "SIGNON Owar1 seen1\nA Par - Bur\nSET DRAW")
    assert answer.body.count("  ERROR: this cannot be done in war1 now.\n") == 2
    [answer, _] = judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN\nA Par - Bur\nSET DRAW")
    assert answer.body.count("  ERROR: this line needs a SIGNON line before it\n") == 2
    assert judge.effective("war1", "FRANCE") == []
    assert judge.db.execute("SELECT COUNT(*) FROM seats WHERE draw = 1").fetchone() == (0,)


# -- seeing what one should not (holds) -------------------------------------------------


def test_a_diary_entry_is_read_and_deleted_by_its_writer_alone(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["G"], "SIGNON Gwar1 pw3\nDIARY\nGermany's secret plan\nENDPRESS")
    body = "SIGNON Fwar1 pw2\nDIARY READ 1\nDIARY DELETE 1\nDIARY LIST\nDIARY READ 9999999"
    [answer] = judge.send(players["F"], body)
    assert "secret" not in answer.body
    assert answer.body.count("  ERROR: You have no diary entry #1 (DIARY LIST lists them).\n") == 2
    assert "  No diary entries in war1.\n" in answer.body
    [answer] = judge.send(players["G"], "SIGNON Gwar1 pw3\nDIARY READ 1")
    assert "Germany's secret plan" in answer.body


def _texts_to(judge: Judge) -> list[tuple[str, str]]:
    """Every mail queued: its one address and its headers and text parts, decoded."""
    out = []
    for recipients, raw in judge.db.execute("SELECT recipients, raw FROM outbound ORDER BY id"):
        msg = email.message_from_bytes(raw, policy=default)
        text = "\n".join(f"{k}: {v}" for k, v in msg.items())
        text += "\n".join(p.get_content() for p in msg.walk() if p.get_content_maintype() == "text")
        [to] = json.loads(recipients)
        out.append((to, text))
    return out


def test_a_gunboat_games_mails_never_show_a_player_another_players_address(
    tmp_path: Path,
) -> None:
    """Every command a player, an observer or a newcomer can send in a gunboat game with
    NO REVEAL, to its end: no mail to one of them names another's address."""
    judge = Judge(tmp_path)
    players = judge.start_game("war1", "gunboat")
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET NO REVEAL\nSET GREY\nSET OBSERVER PRESS YES")
    mails = {
        "A": "SIGNON Awar1 pw0\nRESIGN",
        "E": "SIGNON Ewar1 pw1\nSET ADDRESS moved@example.org\nBROADCAST\nhello\nENDPRESS",
        "F": "SIGNON Fwar1 pw2\nBROADCAST GREY\nhi\nENDPRESS\nPRESS TO G\nx\nENDPRESS\nSET DRAW\n"
        "DIARY\nnotes\nENDPRESS\nWHOGAME war1 FULL\nSUMMARY war1\nLIST war1\nHISTORY war1",
        "G": "SIGNON Gwar1 pw3\nPRESS TO F\ny\nENDPRESS\nSET PASSWORD new1\nSET CONCEDE F",
        "I": "SIGNON Iwar1 pw4\nSET WAIT\nPRESS TO M\nto the master\nENDPRESS",
    }
    for initial, body in mails.items():
        judge.send(players[initial], body)
    judge.confirm("moved@example.org")  # England's mail goes there from now on
    judge.observe("watcher@example.net", "seen1")
    judge.send("watcher@example.net", "SIGNON Owar1 seen1\nBROADCAST\nan observer\nENDPRESS")
    [took, *_] = judge.send("newcomer@example.net", "SIGNON Awar1 fresh9\nA Vie H")
    assert "  You now play Austria in war1,\n  with the password of this line.\n" in took.body
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nBECOME R\nA Mos H\nSIGNON Mwar1 masterpw\nTERMINATE")
    judge.send(players["F"], "WHOGAME war1\nSUMMARY war1")
    people = {*players.values(), "moved@example.org", "watcher@example.net", "newcomer@example.net"}
    texts = _texts_to(judge)
    assert len(texts) > 90
    seen = [
        (to, other)
        for to, text in texts
        if to != MASTER
        for other in people - {to}
        if other in text
    ]
    # Its own addresses: the old is told the new, the new that it is no longer the old.
    assert sorted(seen) == sorted(
        [(players["E"], "moved@example.org"), ("moved@example.org", players["E"])]
    )


# -- a game's end (holds) ---------------------------------------------------------------


def test_a_player_of_an_ended_game_changes_nothing(tmp_path: Path) -> None:
    """After TERMINATE every player command is refused in one answer; the game stays
    finished, with no orders and no votes, and its name cannot be joined."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nTERMINATE")
    lines = [
        "A Par - Bur", "SET DRAW", "SET CONCEDE G", "RESIGN", "SET WAIT", "SET NOWAIT",
        "CLEAR", "PHASE F1901M", "SET PREFERENCE G", "SET ABSENCE Dec 1 TO Dec 2",
    ]  # fmt: skip
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\n" + "\n".join(lines))
    assert [m.to for m in mails] == [[players["F"]]]
    refused = "  ERROR: this cannot be done in war1 now.\n"
    assert mails[0].body.count(refused) == len(lines)
    [answer] = judge.send("newcomer@example.net", "SIGNON ?war1 fresh9\nSIGNON Fwar1 fresh9")
    assert "  ERROR: there is no game called war1 waiting for players.\n" in answer.body
    assert judge.game().state == "finished"
    assert judge.db.execute("SELECT COUNT(*) FROM orders").fetchone() == (0,)


# -- odd arguments ----------------------------------------------------------------------


def test_a_preference_of_brackets_alone_is_refused_not_read_as_any_power(
    tmp_path: Path,
) -> None:
    """SET PREFERENCE [[[[ (or [], or a 900-character run of brackets) was read as no
    preference, "any power", and the player's earlier list silently dropped."""
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war1 masterpw")
    body = "SIGNON ?war1 pw0\nSET PREFERENCE FG\nSET PREFERENCE [[[[\nSET PREFERENCE []\n"
    [answer] = judge.send("p0@example.org", body + "SET PREFERENCE " + "[" * 900)
    assert answer.body.count("  ERROR: ") == 3
    assert "any power" not in answer.body
    assert judge.db.execute("SELECT preference FROM seats WHERE role = 'player'").fetchall() == [
        ("FG",)
    ]


def test_partial_press_reaches_its_readers_and_the_master_alone(tmp_path: Path) -> None:
    """Press to Germany, faked or not, with observers who may send press: no other power
    nor observer gets it; the master's copy names the real reader."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(
        MASTER, "SIGNON Mwar1 masterpw\nSET OBSERVER PRESS YES\nSET FAKE\nSET PARTIAL MAY BE FAKED"
    )
    judge.send("watcher@example.net", "OBSERVE war1 seen1")
    body = "SIGNON Fwar1 pw2\nPRESS TO G\none\nENDPRESS\nPRESS TO G FAKE BROADCAST\ntwo\nENDPRESS"
    mails = judge.send(players["F"], body)
    press = [
        (m.to[0], m.body.split("\n")[-2])
        for m in mails
        if "Press" in m.subject or "Broadcast" in m.subject
    ]
    assert sorted(press) == sorted(
        [(players["G"], "one"), (MASTER, "one"), (players["G"], "two"), (MASTER, "two")]
    )


def test_orders_before_resign_in_the_same_mail_are_said_not_kept(tmp_path: Path) -> None:
    """RESIGN drops the block's order lines (they are stored when it closes): the answer
    said nothing of them, as if they had not been sent."""
    judge = Judge(tmp_path)
    players = judge.start_game()
    body = "SIGNON Fwar1 pw2\nA Par - Bur\nPHASE F1901M\nA Bur - Mun\nRESIGN"
    [answer, _] = judge.send(players["F"], body)
    assert answer.body.endswith(
        "Line 5: RESIGN\n"
        "  You have resigned from war1. The master is told; your power\n"
        "  goes into civil disorder.\n"
        "  Your 2 order lines before RESIGN are not kept: a power whose\n"
        "  player resigned has no orders.\n"
    )
    assert judge.effective("war1", "FRANCE") == []
