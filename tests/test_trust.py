"""Issue 14: no mail can stop, fool or flood the judge.

Through the real handling path (raw mail stored by judge.store.inbox.ingest, handled by
judge.service.handling.handle_waiting, replies read back from the outbound table), with a clock
the test moves:

* the same mail delivered twice by an MTA (other Received lines) is handled once, so a
  master's PROCESS moves one phase;
* a master command that moves a phase is meant for the phase it names, or, alone, for the
  phase current when the mail arrived: a late PROCESS or ROLLBACK is refused;
* an autoresponder that says nothing about itself gets at most the reply cap and one
  notice an hour, whatever it sends;
* a forger flooding the judge with a player's From: silences replies, never the player's
  signed-on orders.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from judge_harness import Judge, Mail

from judge.commands.phases import phase_named
from judge.service.handling import handle_waiting
from judge.store import inbox

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"


def _raw(sender: str, body: str, message_id: str | None, subject: str = "orders") -> bytes:
    mid = f"Message-ID: {message_id}\r\n" if message_id else ""
    return (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\n{mid}"
        f"\r\n{body.replace(chr(10), chr(13) + chr(10))}\r\n"
    ).encode()


def _received(hop: str, n: int) -> bytes:
    """A Received line folded over three lines, as MTAs write them."""
    return (
        f"Received: from {hop}.example.net (host{n}.example.net [192.0.2.{n}])\r\n"
        f"\tby mx{n}.example.org with ESMTP id ABC{n}\r\n"
        f"\tfor <judge@example.org>; Thu, 26 Nov 2026 08:0{n}:00 +0000\r\n"
    ).encode()


def _handle(judge: Judge) -> list[Mail]:
    """Handle everything stored, at the judge's clock; the mails queued meanwhile."""
    before = judge._last()
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    return judge._since(before)


def _master_ack(mails: list[Mail]) -> str:
    [ack] = [m for m in mails if m.to == [GM] and m.subject.startswith("Re: ")]
    return ack.body


def _deadline_passes(judge: Judge) -> None:
    """The clock passes the current phase's deadline and grace: the judge processes it."""
    game = judge.game()
    assert game.deadline is not None
    deadline = datetime.fromisoformat(game.deadline)
    judge.at(deadline + timedelta(seconds=1))  # late notices
    judge.at(deadline + timedelta(hours=float(game.settings.grace_hours), seconds=1))


# -- duplicates and late master commands ------------------------------------------------


@pytest.mark.parametrize("message_id", ["<process-1@example.org>", None])
def test_the_same_process_delivered_twice_moves_one_phase(
    judge: Judge, message_id: str | None
) -> None:
    judge.start_game()
    mail = _raw(GM, f"{MASTER}\nPROCESS", message_id)
    judge.now += timedelta(minutes=1)
    assert inbox.ingest(judge.db, _received("relay-a", 1) + mail, "smtp", judge.now) is not None
    _handle(judge)
    assert judge.game().phase == "F1901M"
    # The MTA delivers it again, by another route, a minute later.
    judge.now += timedelta(minutes=1)
    again = _received("relay-b", 2) + _received("relay-c", 3) + mail
    assert inbox.ingest(judge.db, again, "imap", judge.now) is None
    assert _handle(judge) == []
    assert judge.game().phase == "F1901M"


def test_a_process_that_arrived_before_its_phase_was_processed_is_refused(
    judge: Judge,
) -> None:
    judge.start_game()
    # Two masters' PROCESS mails arrive together; the first processes Spring 1901.
    judge.now += timedelta(minutes=1)
    inbox.ingest(judge.db, _raw(GM, f"{MASTER}\nPROCESS", "<a@example.org>"), "smtp", judge.now)
    inbox.ingest(judge.db, _raw(GM, f"{MASTER}\nPROCESS", "<b@example.org>"), "smtp", judge.now)
    judge.now += timedelta(seconds=30)
    mails = _handle(judge)
    assert judge.game().phase == "F1901M"
    acks = [m for m in mails if m.to == [GM] and m.subject.startswith("Re: ")]
    assert [a.subject for a in acks] == [
        "Re: TEST:war1 - F1901M orders",  # the header shows the phase PROCESS moved to
        "Re: [Error Flag] TEST:war1 - F1901M orders",
    ]
    assert (
        "Line 2: PROCESS\n"
        "  ERROR: not processed: this mail arrived during Spring 1901 Movement\n"
        "  (S1901M), which has already been processed; war1 is now in Fall 1901\n"
        "  Movement (F1901M).\n"
        "  To process that phase too, send PROCESS F1901M.\n"
    ) in acks[1].body
    assert not [m for m in mails if "Results" in m.subject and "Fall" in m.body.split("\n")[0]]


def test_a_process_after_its_deadline_passed_is_refused(judge: Judge) -> None:
    judge.start_game()
    judge.now += timedelta(minutes=1)
    inbox.ingest(judge.db, _raw(GM, f"{MASTER}\nPROCESS", "<late@example.org>"), "smtp", judge.now)
    _deadline_passes(judge)  # processed on time, before the mail is read
    assert judge.game().phase == "F1901M"
    body = _master_ack(_handle(judge))
    assert "arrived during Spring 1901 Movement\n  (S1901M)" in body
    assert judge.game().phase == "F1901M"


def test_process_naming_a_phase_processes_only_that_phase(judge: Judge) -> None:
    judge.start_game()
    body = _master_ack(judge.send(GM, f"{MASTER}\nPROCESS F1901M"))
    assert (
        "Line 2: PROCESS F1901M\n"
        "  ERROR: Current phase is S1901M, process command ignored.\n"
        "  (Fall 1901 Movement (F1901M) is not the current phase; nothing was changed.)\n"
    ) in body
    assert judge.game().phase == "S1901M"
    body = _master_ack(judge.send(GM, f"{MASTER}\nPROCESS Tomorrow"))
    assert "  ERROR: Tomorrow is not a phase; write e.g. PROCESS S1901M.\n" in body
    body = _master_ack(judge.send(GM, f"{MASTER}\nPROCESS s1901m"))
    assert "war1 has been processed" in body
    # njudge's words: only the first letters count.
    judge.send(GM, f"{MASTER}\nPROCESS Fall 1901 Movement")
    assert judge.game().phase == "S1902M"  # no one ordered: no retreats, no adjustments
    # The same PROCESS again names a phase already processed: nothing moves.
    body = _master_ack(judge.send(GM, f"{MASTER}\nPROCESS Fall 1901 Movement"))
    assert "  ERROR: Current phase is S1902M, process command ignored.\n" in body
    assert judge.game().phase == "S1902M"


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("S1901M", "S1901M"),
        ("f1905r", "F1905R"),
        ("W1901A", "W1901A"),
        ("F1901B", "W1901A"),  # njudge's name for the adjustments
        ("Fall 1905 Retreat", "F1905R"),
        ("Winter 1905 Build", "W1905A"),
        ("winter 1905 adjustments", "W1905A"),
        ("Spring 1901 Movement", "S1901M"),
        ("Autumn 1901 M", "F1901M"),
        ("S1901R", "S1901R"),
        ("X1901M", None),
        ("Spring 190 Movement", None),
        ("tomorrow", None),
        ("S1901M S1902M", None),
    ],
)
def test_phase_names_a_master_may_write(text: str, phase: str | None) -> None:
    assert phase_named(text) == phase


def test_a_late_rollback_alone_is_refused(judge: Judge) -> None:
    judge.start_game()
    judge.send(GM, f"{MASTER}\nPROCESS")
    assert judge.game().phase == "F1901M"
    # ROLLBACK (one back) arrives, then Fall 1901 is processed before it is read.
    judge.now += timedelta(minutes=1)
    inbox.ingest(judge.db, _raw(GM, f"{MASTER}\nROLLBACK", "<undo@example.org>"), "smtp", judge.now)
    _deadline_passes(judge)
    moved = judge.game().phase
    assert moved != "F1901M"
    body = _master_ack(_handle(judge))
    assert (
        "Line 2: ROLLBACK\n"
        "  ERROR: not rolled back: this mail arrived during Fall 1901 Movement\n"
        "  (F1901M), and war1 has moved since; it is now in Spring 1902 Movement\n"
        "  (S1902M). Name the phase to return to, e.g. ROLLBACK S1901M.\n"
    ) in body
    assert judge.game().phase == moved
    # Naming the phase still works.
    judge.send(GM, f"{MASTER}\nROLLBACK S1901M")
    assert judge.game().phase == "S1901M"


# -- loops and floods -------------------------------------------------------------------


def test_an_autoresponder_without_auto_headers_gets_the_cap_and_one_notice(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path, replies_per_hour=20, rate_limit_per_hour=60)
    bot = "vacation@example.net"
    judge.now += timedelta(minutes=1)
    inbox.ingest(judge.db, _raw(bot, "Hello judge", "<bot-0@example.net>"), "smtp", judge.now)
    to_bot: list[Mail] = []
    for n in range(1, 200):  # the bot answers every mail the judge sends it, at once
        mails = [m for m in _handle(judge) if bot in m.to]
        if not mails:
            break
        to_bot += mails
        for i, m in enumerate(mails):
            body = f"I am away.\n\n> {m.subject}"
            raw = _raw(bot, body, f"<bot-{n}-{i}@example.net>", f"Re: {m.subject}")
            inbox.ingest(judge.db, raw, "smtp", judge.now)
        judge.now += timedelta(seconds=5)
    assert len(to_bot) == 21
    assert [m.subject for m in to_bot].count("[TEST] Re: Re: [TEST] Re: orders") == 0
    notices = [m for m in to_bot if m.subject.endswith("(too many replies)")]
    assert len(notices) == 1 and to_bot[-1] is notices[0]
    assert "has answered 20 mails to this address in the\nlast hour" in notices[0].body
    rows = judge.db.execute(
        "SELECT state, error FROM inbound WHERE id = (SELECT MAX(id) FROM inbound)"
    ).fetchone()
    assert rows == ("handled", "reply cap: 1 not sent (over 20 an hour)")
    # An hour later the bot gets answers again (and, at the cap, one more notice).
    judge.now += timedelta(hours=1)
    inbox.ingest(judge.db, _raw(bot, "Back", "<bot-back@example.net>"), "smtp", judge.now)
    assert [m.to for m in _handle(judge)] == [[bot]]


def test_game_mail_is_never_capped(tmp_path: Path) -> None:
    judge = Judge(tmp_path, replies_per_hour=3)
    players = judge.start_game()  # Austria's join was answered: 1 of 3
    austria = players["A"]
    assert [m.to for m in judge.send(austria, "A Vie-Tri")] == [[austria]]
    assert [m.to for m in judge.send(austria, "A Vie-Tri")] == [[austria]]
    [notice] = judge.send(austria, "A Vie-Tri")
    assert notice.subject == "Re: TEST orders (too many replies)"
    assert judge.send(austria, "A Vie-Tri") == []  # read, not answered
    # The answer to a mail that signs on with the right password is never held back: no
    # autoresponder or forger has the password.
    [ack] = judge.send(austria, "SIGNON Awar1 pw0\nA Vie-Tri")
    assert (ack.to, ack.subject) == ([austria], "Re: TEST:war1 - S1901M orders")
    assert "Signed on to war1 as Austria." in ack.body
    assert judge.effective("war1", "AUSTRIA") == ["A VIE - TRI"]
    mails = judge.send(GM, f"{MASTER}\nPROCESS")
    # Austria is over the cap; the results reach it as everyone else.
    results = [m.to for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    assert [austria] in results and [GM] in results  # one mail each


def test_a_forger_with_a_players_from_cannot_stop_the_players_orders(tmp_path: Path) -> None:
    judge = Judge(tmp_path, replies_per_hour=20, rate_limit_per_hour=60)
    players = judge.start_game()
    austria = players["A"]
    judge.now += timedelta(minutes=1)
    # Within one minute, all in the player's name; nine wrong passwords, one short of
    # the guess limit (which holds a power's SIGNONs closed for its hour: test_passwords).
    for n in range(100):
        body = "SIGNON Awar1 guess\nA Vie H" if n % 12 == 0 else "A Vie-Gal\nA Bud-Rum"
        inbox.ingest(judge.db, _raw(austria, body, f"<forged-{n}@evil.example>"), "smtp", judge.now)
    real = _raw(austria, "SIGNON Awar1 pw0\nA Vie-Tri\nA Bud-Ser\nF Tri-Alb", "<real@x.example>")
    real_id = inbox.ingest(judge.db, real, "smtp", judge.now)
    judge.now += timedelta(seconds=30)
    mails = _handle(judge)
    assert judge.effective("war1", "AUSTRIA") == ["A VIE - TRI", "A BUD - SER", "F TRI - ALB"]
    row = judge.db.execute(
        "SELECT inbound_id, lines FROM order_sets WHERE power = 'AUSTRIA'"
    ).fetchone()
    assert row[0] == real_id
    state = judge.db.execute("SELECT state, error FROM inbound WHERE id = ?", [real_id]).fetchone()
    assert state == ("handled", None)  # and answered: it signed on with the password
    # The player's address got the cap's worth of answers to the forger's mail in the
    # hour (its join was one of them), one notice, and the answer to the real mail.
    to_player = [m for m in mails if austria in m.to]
    assert len(to_player) == 21
    assert [m.subject for m in to_player].count("Re: TEST orders (too many replies)") == 1
    assert to_player[-2].subject == "Re: TEST orders (too many replies)"
    assert "Signed on to war1 as Austria." in to_player[-1].body


def test_a_rollback_to_a_long_unknown_phase_is_refused_with_it_cut(judge: Judge) -> None:
    # Repeated whole, a 5,000-character phase filled the answer with it.
    judge.start_game()
    [ack] = judge.send(GM, f"{MASTER}\nROLLBACK {'Y' * 5_000}")
    assert f"  ERROR: war1 has no earlier phase\n  {'Y' * 57}....\n" in ack.body
    assert judge.game().phase == "S1901M"


def test_the_judges_own_address_is_no_ones_and_no_lists(judge: Judge) -> None:
    # Taken before, a seat or list there got nothing (the judge ignores its own mail),
    # and a new master's or player's password went to the judge's own mailbox.
    players = judge.start_game()
    own = "cannot be used here: it is the judge's own address."
    [ack] = judge.send(
        GM,
        f"{MASTER}\nPROMOTE Judge@Example.org\nREPLACE F <judge@example.org>\n"
        "SET LIST judge@example.org",
    )
    assert ack.body.count(f"  ERROR: judge@example.org {own}\n") == 3, ack.body
    [ack] = judge.send(GM, f"{MASTER}\nPROMOTE ëve@example.org\nREPLACE F bob@exa_mple")
    assert (
        "  ERROR: ëve@example.org cannot be used here: the part before the @ has\n"
        "  characters other than ASCII letters, digits and marks, and mail to it cannot\n"
        "  be delivered everywhere.\n"
    ) in ack.body
    assert (
        "  ERROR: bob@exa_mple cannot be used here: the part after the @ is not a valid\n"
        "  domain name.\n"
    ) in ack.body
    [ack] = judge.send(players["G"], "SIGNON Gwar1 pw3\nSET ADDRESS judge@example.org")
    assert (
        "  ERROR: judge@example.org cannot be your address of record,\n"
        "  because it is the judge's own address.\n"
    ) in ack.body
    seats = judge.db.execute("SELECT address FROM seats WHERE left_at IS NULL").fetchall()
    assert ("judge@example.org",) not in seats
    assert judge.game().settings.list is None
