"""Passwords through the real handling path (store on disk, no servers): the limits on
wrong passwords per power, per sender and per mail, the notice to the player of record,
and the judge's own masters (`judge.masters`). Issue 14: no mail can stop, fool or flood
the judge."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from judge_harness import POWERS, Judge

from judge.commands import signon
from judge.game.passwords import check_password

REFUSED = "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
NOT_READ = (
    "  ERROR: not read: one mail may carry at most {n} passwords (SIGNON,\n"
    "  CREATE, OBSERVE, SET PASSWORD, ...). Send the rest in another mail.\n"
)


def locked(until: str) -> str:
    return (
        "  ERROR: signon refused, and the password was not checked: too many wrong\n"
        "  passwords in the last hour for this power or from your address. Passwords\n"
        f"  are checked again from {until},\n"
        "  or before then in an answer to the judge's notice about it.\n"
    )


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password checked with scrypt, in order (the real check still runs)."""
    calls: list[str] = []

    def counting(password: str, stored: str) -> bool:
        calls.append(password)
        return check_password(password, stored)

    monkeypatch.setattr(signon, "check_password", counting)
    return calls


# -- per mail ---------------------------------------------------------------------------------


def test_300_passwords_in_one_mail_cost_five_checks_and_are_all_refused(
    judge: Judge, checks: list[str]
) -> None:
    players = judge.start_game()
    body = "\n".join(f"SIGNON Fwar1 guess{i}" for i in range(300)) + "\nA Par-Bur"
    [ack] = judge.send("x@example.org", body)
    assert checks == [f"guess{i}" for i in range(5)]  # passwords_per_mail = 5
    assert ack.body.count(REFUSED) == 5
    # The next 95 are refused unread; a mail's first 100 command lines are all it reads.
    assert ack.body.count(NOT_READ.format(n=5)) == 95
    assert ack.body.endswith(
        "Line 101: SIGNON Fwar1 ****\n"
        "  ERROR: Only the first 100 command lines of a mail are read; this line and\n"
        "  the rest were not.\n"
    )
    assert judge.effective("war1", "FRANCE") == []
    # The right password, sixth in a mail, is not checked either.
    body = "\n".join([*(f"SIGNON Ewar1 nope{i}" for i in range(5)), "SIGNON Fwar1 pw2"])
    [ack] = judge.send(players["F"], body + "\nA Par-Bur")
    assert "Line 6: SIGNON Fwar1 ****\n" + NOT_READ.format(n=5) in ack.body
    assert judge.effective("war1", "FRANCE") == []


def test_several_games_in_one_mail_still_work_within_the_limit(judge: Judge) -> None:
    judge = Judge(judge.config.database.parent / "two", passwords_per_mail=2)
    players = judge.start_game("war1")
    judge.send("gm2@example.org", "CREATE ?war2 masterpw")
    for i, initial in enumerate(POWERS):
        address = players[initial] if initial == "F" else f"x{i}@example.org"
        judge.send(address, f"SIGNON ?war2 pw{i}\nSET PREFERENCE {initial}")
    body = "SIGNON Fwar1 pw2\nA Par-Bur\nSIGNON Fwar2 pw2\nA Par-Pic\nSIGNON Fwar1 pw2\nA Mar-Spa"
    [ack] = judge.send(players["F"], body)
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    assert judge.effective("war2", "FRANCE") == ["A PAR - PIC"]
    # The third SIGNON is not read, and its orders go to neither game.
    assert (
        "Line 5: SIGNON Fwar1 ****\n" + NOT_READ.format(n=2) + "Line 6: A Mar-Spa\n"
        "  ERROR: not used, because the SIGNON before it was refused.\n"
    ) in ack.body


def test_every_password_command_counts_against_the_mail(judge: Judge) -> None:
    judge = Judge(judge.config.database.parent / "one", passwords_per_mail=1)
    [ack] = judge.send("a@example.org", "CREATE ?g1 pw1\nCREATE ?g2 pw2\nSET PASSWORD pw3")
    assert "Line 2: CREATE ?g2 ****\n" + NOT_READ.format(n=1) in ack.body
    assert "Line 3: SET PASSWORD ****\n" + NOT_READ.format(n=1) in ack.body
    assert judge.db.execute("SELECT name FROM games").fetchall() == [("g1",)]


# -- per power, per sender ---------------------------------------------------------------------


def test_guesses_from_30_forged_senders_lock_the_power_for_an_hour(
    judge: Judge, checks: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    players = judge.start_game()
    start = judge.now
    acks, notices = [], []
    for i in range(30):  # one wrong password each, from 30 addresses
        mails = judge.send(f"forger{i}@example.org", f"SIGNON Fwar1 guess{i}\nA Par-Bur")
        acks.append(mails[0])
        notices += mails[1:]
    assert checks == [f"guess{i}" for i in range(10)]  # then nothing is checked
    warned = [r.getMessage() for r in caplog.records if r.name == "judge.signon"]
    assert warned == ["power:war1:F: 10 wrong passwords in an hour; SIGNONs refused unchecked"]
    # Ten wrong passwords within the hour before: the clock moves a minute a mail, so
    # the lock lasts until an hour after the first of them (12:09), when only nine are.
    first = start + timedelta(minutes=1)
    assert first.strftime("%H:%M") == "12:09"  # after a CREATE and seven joins
    until = "Saturday 21 November 2026 13:09 UTC"
    assert all(REFUSED in a.body for a in acks[:10])
    assert all(locked(until) in a.body for a in acks[10:])
    # The player of record is told once, when the tenth wrong password comes.
    [notice] = notices
    assert notice.to == [players["F"]]
    assert notice.subject == "TEST:war1 - S1901M wrong passwords for France"
    assert notice.body == (
        "Someone has signed on to war1 as France with a wrong password\n"
        "10 times in the last hour, from one address or from several.\n\n"
        f"Until {until},\n"
        "no password is checked for France in war1: every SIGNON is refused,\n"
        "unless it comes in an answer to this mail. After that your password works\n"
        "again.\n\n"
        "To sign on before then, answer this mail (your mail program's Reply) from\n"
        "this address, with your SIGNON and orders as usual. Only you received this\n"
        "mail, so only you can answer it; it works for a day.\n\n"
        "If this was not you, someone may be guessing your password: nothing was given\n"
        "away, but choose a long one with SET PASSWORD once you can sign on.\n"
    )
    # Meanwhile the right password gets the same words as a wrong one, unchecked; the
    # real player's tries do not count, so they do not make the lock last longer.
    for _ in range(3):
        right = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")[0]
        wrong = judge.send(players["F"], "SIGNON Fwar1 nope\nA Par-Bur")[0]
        assert right.body == wrong.body
        assert locked(until) in right.body
    assert len(checks) == 10
    assert judge.effective("war1", "FRANCE") == []
    # A forger who writes as the player and makes up an answer to the notice is
    # still refused unchecked; so is an answer to it from another address.
    assert notice.message_id is not None
    guess = "In-Reply-To: <00000000000000000000000000000000@example.org>\r\n"
    assert locked(until) in judge.send(players["F"], "SIGNON Fwar1 pw2", head=guess)[0].body
    answer = f"In-Reply-To: {notice.message_id}\r\nReferences: {notice.message_id}\r\n"
    elsewhere = judge.send("forger0@example.org", "SIGNON Fwar1 pw2", head=answer)[0]
    assert locked(until) in elsewhere.body
    assert len(checks) == 10
    assert judge.effective("war1", "FRANCE") == []
    # The player answers the notice (only they received it): checked, and in.
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur", head=answer)[0]
    assert "Signed on to war1 as France." in ack.body
    assert checks[10:] == ["pw2"]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    judge.send(players["F"], "SIGNON Fwar1 pw2\nCLEAR", head=answer)
    assert judge.effective("war1", "FRANCE") == []
    del checks[10:]
    # Other powers are not locked.
    assert "Signed on to war1 as England." in judge.send(players["E"], "SIGNON Ewar1 pw1")[0].body
    # A minute before 13:09 it is still refused; at 13:09 the right password works.
    judge.now = first + timedelta(hours=1) - timedelta(minutes=2)  # send() adds a minute
    assert locked(until) in judge.send(players["F"], "SIGNON Fwar1 pw2")[0].body
    ack = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")[0]
    assert "Signed on to war1 as France." in ack.body
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]


def test_the_notice_goes_once_an_hour(judge: Judge) -> None:
    players = judge.start_game()
    notices = []
    for hour in range(2):
        for i in range(15):
            notices += judge.send(f"f{hour}-{i}@example.org", f"SIGNON Gwar1 bad{i}")[1:]
        judge.now += timedelta(hours=1)
    assert [(n.to, n.subject) for n in notices] == [
        ([players["G"]], "TEST:war1 - S1901M wrong passwords for Germany")
    ] * 2


def test_one_sender_guessing_every_power_is_stopped(judge: Judge, checks: list[str]) -> None:
    judge.start_game()
    for i in range(12):
        judge.send("guesser@example.org", f"SIGNON {POWERS[i % 7]}war1 guess{i}")
    assert len(checks) == 10
    # Its guesses for a power it never tried count against it too, unchecked.
    ack = judge.send("guesser@example.org", "SIGNON Mwar1 masterpw")[0]
    assert "signon refused, and the password was not checked" in ack.body
    assert len(checks) == 10
    # Nobody else is held up: each power had fewer than ten wrong passwords.
    assert "as France" in judge.send("p2@example.org", "SIGNON Fwar1 pw2")[0].body


def test_guesses_in_a_players_name_do_not_keep_the_player_out(
    judge: Judge, checks: list[str]
) -> None:
    players = judge.start_game()
    # A forger writes as Austria's player and guesses at the other powers: the limit per
    # sender closes SIGNONs from that address, the player's own among them.
    notices = []
    for i in range(10):
        notices += judge.send(players["A"], f"SIGNON {'EFGIRT'[i % 6]}war1 guess{i}")[1:]
    [notice] = notices
    assert (notice.to, notice.subject) == (
        [players["A"]],
        "TEST wrong passwords from your address",
    )
    assert notice.body == (
        "Mail from p0@example.org has tried a wrong password 10 times\n"
        "in the last hour.\n\n"
        "Until Saturday 21 November 2026 13:09 UTC,\n"
        "no SIGNON (nor CONFIRM) from this address is checked, unless it comes in\n"
        "an answer to this mail.\n\n"
        "If that was you, answer this mail (your mail program's Reply) with your\n"
        "SIGNON and orders as usual; it works for a day. If it was not you, someone\n"
        "is sending mail in your name: nothing was given away, and you need do\n"
        "nothing.\n"
    )
    ack = judge.send(players["A"], "SIGNON Awar1 pw0\nA Vie-Tri")[0]
    assert "the password was not checked" in ack.body
    assert len(checks) == 10
    # The player answers the notice, which went to their mailbox alone: checked, and in.
    answer = f"In-Reply-To: {notice.message_id}\r\n"
    ack = judge.send(players["A"], "SIGNON Awar1 pw0\nA Vie-Tri", head=answer)[0]
    assert "Signed on to war1 as Austria." in ack.body
    assert judge.effective("war1", "AUSTRIA") == ["A VIE - TRI"]
    # The answer passes the sender's own lock only; each power's own limit still holds.
    ack = judge.send(players["A"], "SIGNON Ewar1 guess", head=answer)[0]
    assert "the password was not checked" not in ack.body  # England had two: checked
    assert checks[-1] == "guess"


def test_the_master_of_record_is_told_of_guesses_at_the_master_password(judge: Judge) -> None:
    judge.start_game()
    mails = []
    for i in range(10):
        mails += judge.send(f"m{i}@example.org", f"SIGNON Mwar1 guess{i}")[1:]
    assert [(m.to, m.subject) for m in mails] == [
        (["gm@example.org"], "TEST:war1 - S1901M wrong passwords for master")
    ]


# -- the judge's own masters -------------------------------------------------------------------


def test_a_listed_master_runs_any_game_with_the_master_password(tmp_path: Path) -> None:
    judge = Judge(tmp_path, masters=("boss@example.org",), master_password="judge-pw")
    judge.start_game()
    mails = judge.send("boss@example.org", "SIGNON Mwar1 judge-pw\nSET NONMR")
    ack, copy, *changed = mails  # the change is announced to everyone in the game (issue 17)
    assert {m.subject for m in changed} == {"TEST:war1 - S1901M Parameters Changed"}
    assert sorted(a for m in changed for a in m.to) == sorted(
        ["gm@example.org", *(f"p{i}@example.org" for i in range(7))]
    )
    assert ack.to == ["boss@example.org"]
    assert (
        "Line 1: SIGNON Mwar1 ****\n"
        "  Signed on to war1 as master (one of the judge's masters).\n"
        "  The game's master gets a copy of this mail.\n"
        "Line 2: SET NONMR\n"
        "  war1: nonmr is now wait for you.\n"
    ) in ack.body
    assert copy.to == ["gm@example.org"]  # the game's own master sees what was done
    assert "boss@example.org sent the mail below" in copy.body
    assert judge.game().settings.nmr is False
    # The same password from an address not listed, or as a power, is just wrong.
    for sender, line in (
        ("gm2@example.org", "SIGNON Mwar1 judge-pw"),
        ("boss@example.org", "SIGNON Fwar1 judge-pw"),
    ):
        assert judge.send(sender, line)[0].body == f"Line 1: {line[:12]} ****\n{REFUSED}"
    # A listed address with a wrong password is refused, and counted.
    assert REFUSED in judge.send("boss@example.org", "SIGNON Mwar1 judge-p")[0].body
    assert judge.db.execute("SELECT COUNT(*) FROM wrong_passwords").fetchone()[0] == 3 * 2


def test_without_masters_listed_the_master_password_means_nothing(tmp_path: Path) -> None:
    judge = Judge(tmp_path, master_password="judge-pw")
    judge.start_game()
    ack = judge.send("boss@example.org", "SIGNON Mwar1 judge-pw")[0]
    assert ack.body == f"Line 1: SIGNON Mwar1 ****\n{REFUSED}"


def test_an_answer_from_the_unicode_form_of_an_idn_address_of_record_passes_the_lock(
    judge: Judge,
) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nSET ADDRESS f@bücher.example")
    judge.confirm("f@xn--bcher-kva.example")
    notices = []
    for i in range(10):
        notices += judge.send(f"forger{i}@example.org", f"SIGNON Fwar1 guess{i}")[1:]
    [notice] = notices
    assert notice.to == ["f@xn--bcher-kva.example"]
    # The player writes from the address as their mail program shows it: Unicode, capitals.
    answer = f"In-Reply-To: {notice.message_id}\r\n"
    ack = judge.send("F@Bücher.example", "SIGNON Fwar1 pw2\nA Par-Bur", head=answer)[0]
    assert "Signed on to war1 as France." in ack.body
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
