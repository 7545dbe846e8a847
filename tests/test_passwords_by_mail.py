"""Guessing a power's password, end to end, through the real mail path: mail appended to
the judge's INBOX on a private Dovecot, read by the real daemon (`run_forever`, IMAP IDLE
in, SMTP out to an aiosmtpd peer), on a clock the test moves.

1. A master creates ?war1 and seven players join: the game starts.
2. Thirty mails from thirty forged addresses each try one password for France. The
   first ten are checked and refused; the other twenty are refused without a check.
   France's player of record gets one notice.
3. France's real player, with the right password, is refused in the same words as a
   wrong password, and nothing is checked.
4. An hour after the guesses, France's right password works again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from mail_e2e import Clock, Mailboxes, flat, has_lines, mail, make_config, one
from servers import running_judge as judge

from judge.commands import signon
from judge.game.passwords import check_password

GAME = "war1"
MASTER = "gm@example.org"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
ADDRESS = {p: f"{p[:3].lower()}x@example.org" for p in POWERS}
PASSWORD = {p: f"pw-{p.lower()}" for p in POWERS}
FORGERS = [f"forger{i}@example.net" for i in range(30)]
START = datetime(2026, 3, 9, 12, 0, tzinfo=UTC)
STEP = timedelta(minutes=5)


def subject(text: str) -> str:
    """A mail's subject about the game, in njudge's form: "E2E:war1 - S1901M text"."""
    return f"E2E:{GAME} - S1901M {text}"


def test_thirty_forged_senders_lock_france_for_an_hour_and_no_longer(
    tmp_path: Path, servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    dovecot, sink = servers
    clock = Clock(START)
    boxes = Mailboxes(sink, tmp_path / "judge.db", dovecot)
    checked: list[str] = []

    def counting(password: str, stored: str) -> bool:
        checked.append(password)
        return check_password(password, stored)

    monkeypatch.setattr(signon, "check_password", counting)

    def deliver(*batch: bytes) -> None:
        clock.now += STEP
        for raw in batch:
            dovecot.append(raw)

    with judge(make_config(tmp_path, dovecot, sink), clock):
        # -- 1. The game. --------------------------------------------------------------------
        deliver(mail(MASTER, "new game", [f"CREATE ?{GAME} masterpw"], clock.now))
        boxes.new({MASTER: ["Re: " + subject("new game")]})
        deliver(
            *(
                mail(
                    ADDRESS[p],
                    "joining",
                    [f"SIGNON ?{GAME} {PASSWORD[p]}", f"SET PREFERENCE {p[0]}"],
                    clock.now,
                )
                for p in POWERS
            )
        )
        started = subject("Game Starting")
        boxes.new(
            {
                MASTER: [started],
                **{ADDRESS[p]: ["Re: " + subject("joining"), started] for p in POWERS},
            }
        )
        checked.clear()

        # -- 2. Thirty forged senders, one guess each. ---------------------------------------
        deliver(
            *(
                mail(forger, "guess", [f"SIGNON F{GAME} guess{i}", "A Par-Bur"], clock.now)
                for i, forger in enumerate(FORGERS)
            )
        )
        guessed_at = clock.now
        notice_subject = subject("wrong passwords for France")
        refused = "Re: [Error Flag] E2E guess"  # not signed on: the judge's name alone
        new = boxes.new({**{f: [refused] for f in FORGERS}, ADDRESS["France"]: [notice_subject]})
        assert sorted(checked) == sorted(f"guess{i}" for i in range(10))  # ten, then none
        assert guessed_at == START + 3 * STEP
        until = "Monday 9 March 2026 13:15 UTC"  # an hour after the guesses
        lock_words = (
            "ERROR: signon refused, and the password was not checked: too many wrong "
            "passwords in the last hour for this power or from your address. Passwords "
            f"are checked again from {until}, or before then in an answer to the "
            "judge's notice about it."
        )
        wrong_words = "ERROR: signon refused: the game name, the power or the password is wrong."
        acks = [one(new[f], refused) for f in FORGERS]
        assert sum(wrong_words in a.body for a in acks) == 10
        assert sum(lock_words in flat(a.body) for a in acks) == 20
        for ack in acks:
            assert "guess" not in ack.body
        notice = one(new[ADDRESS["France"]], notice_subject)
        assert notice.to == (ADDRESS["France"],)
        assert flat(notice.body) == flat(
            f"Someone has signed on to {GAME} as France with a wrong password 10 times in the "
            "last hour, from one address or from several. "
            f"Until {until}, no password is checked for France in {GAME}: every SIGNON is "
            "refused, unless it comes in an answer to this mail. After that your password "
            "works again. To sign on before then, answer this mail (your mail program's "
            "Reply) from this address, with your SIGNON and orders as usual. Only you "
            "received this mail, so only you can answer it; it works for a day. "
            "If this was not you, someone may be guessing your password: nothing was given "
            "away, but choose a long one with SET PASSWORD once you can sign on."
        )

        # -- 3. The real player, during the hour: the same words, nothing checked. -----------
        france = [f"SIGNON F{GAME} {PASSWORD['France']}", "A Par-Bur"]
        deliver(mail(ADDRESS["France"], "let me in", france, clock.now))
        held = "Re: [Error Flag] E2E let me in"
        ack = one(boxes.new({ADDRESS["France"]: [held]})[ADDRESS["France"]], held)
        assert lock_words in flat(ack.body)
        assert len(checked) == 10

        # -- 3b. The player answers the notice, which only they received: checked, in. -----
        answer = mail(ADDRESS["France"], "Re: notice", france, clock.now).replace(
            b"\r\nSubject:", f"\r\nIn-Reply-To: {notice.message_id}\r\nSubject:".encode(), 1
        )
        deliver(answer)
        ok = "Re: " + subject("notice")  # never "Re: Re:"
        ack = one(boxes.new({ADDRESS["France"]: [ok]})[ADDRESS["France"]], ok)
        assert has_lines(
            ack.body, [f"Line 1: SIGNON F{GAME} ****", f"Signed on to {GAME} as France."]
        )
        assert checked[10:] == [PASSWORD["France"]]
        del checked[10:]

        # -- 4. An hour after the guesses: the right password works. --------------------------
        clock.now = guessed_at + timedelta(hours=1) - STEP  # deliver() moves it on by STEP
        deliver(mail(ADDRESS["France"], "again", france, clock.now))
        ok = "Re: " + subject("again")
        ack = one(boxes.new({ADDRESS["France"]: [ok]})[ADDRESS["France"]], ok)
        assert has_lines(
            ack.body, [f"Line 1: SIGNON F{GAME} ****", f"Signed on to {GAME} as France."]
        )
        assert "Army Paris -> Burgundy" in ack.body
        assert PASSWORD["France"] not in ack.body
        assert checked[-1] == PASSWORD["France"]

    assert boxes.unexpected == []
