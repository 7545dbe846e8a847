"""njudge's machine-read lines (issue 17, item 1; njudge.md section 1), by mail through
the real handling path: the `::` header, the subjects, the turn number `(game.NNN)`, the
time to the deadline, and one recipient per mail."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path
from zoneinfo import ZoneInfo

from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.game.njudge_lines import njudge_phase, ptime, turn_number
from judge.mail import compose

PASSWORD = {initial: f"pw{i}" for i, initial in enumerate(POWERS)}
GM = "gm@example.org"


def orders(judge: Judge, players: dict[str, str], initial: str, text: str) -> list[Mail]:
    """`initial`'s player signs on to war1 and sends `text`; the mails queued."""
    return judge.send(players[initial], f"SIGNON {initial}war1 {PASSWORD[initial]}\n{text}")


def everyone_holds(judge: Judge, players: dict[str, str], **given: str) -> list[Mail]:
    """Every power sends its holds, or the orders `given` for it; the last mail's."""
    mails: list[Mail] = []
    for initial in POWERS:
        mails = orders(judge, players, initial, given.get(initial, HOLDS[initial]))
    return mails


def one(mails: list[Mail], to: str, subject: str) -> Mail:
    [mail] = [m for m in mails if m.to == [to] and m.subject == subject]
    return mail


# -- the `::` header ---------------------------------------------------------------------


def test_a_reply_to_a_signed_on_player_has_the_header_and_the_time_left(judge: Judge) -> None:
    players = judge.start_game()  # started at 12:08, the deadline two days on
    [ack] = orders(judge, players, "F", "A Par - Bur")  # at 12:09
    assert ack.subject == "Re: TEST:war1 - S1901M orders"
    assert ack.full == (
        "\n"
        ":: Judge: TEST  Game: War1  Variant: Standard\n"
        ":: Deadline: S1901M Mon Nov 23 2026 12:08:00 +0000  \n"
        "\n"
        "Line 1: SIGNON Fwar1 ****\n"
        "  Signed on to war1 as France.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
        "  A PAR - BUR\n"
        "  Orders on file now:\n"
        "    Army Paris -> Burgundy\n"
        "  Still without orders: Army Marseilles, Fleet Brest.\n"
        "  WAIT is not set. Deadline: Monday 23 November 2026 12:08 UTC.\n"
        "\n"
        "Time to deadline: 1 day, 23 hours, 59 minutes, and 0 seconds.\n"
        "Time to grace period expiration: 2 days, 23 hours, 59 minutes, and 0 seconds.\n"
    )


def test_a_reply_to_someone_not_signed_on_has_the_judge_line_alone(judge: Judge) -> None:
    [ack] = judge.send("stranger@example.org", "A Par - Bur", subject="my orders")
    assert ack.subject == "Re: [Error Flag] TEST my orders"
    assert ack.full.startswith("\n:: Judge: TEST  \n\nLine 1: A Par - Bur\n")
    assert "Time to" not in ack.full


def test_a_game_not_yet_started_shows_its_first_phase_and_the_epoch(judge: Judge) -> None:
    [ack] = judge.send(GM, "CREATE ?war1 masterpw", subject="new game")
    assert ack.subject == "Re: TEST:war1 - S1901M new game"
    assert ack.full.startswith(
        "\n:: Judge: TEST  Game: War1  Variant: Standard\n"
        ":: Deadline: S1901M Thu Jan 01 1970 00:00:00 +0000  \n\nLine 1: CREATE ?war1 ****\n"
    )
    assert "Time to" not in ack.full  # no deadline yet


def test_the_start_mail_has_the_header_and_njudges_subject(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    for i, initial in enumerate(POWERS[:-1]):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    mails = judge.send("p6@example.org", "SIGNON ?war1 pw6\nSET PREFERENCE T")  # at 12:08
    start = one(mails, "p0@example.org", "TEST:war1 - S1901M Game Starting")
    assert start.full.startswith(
        "\n:: Judge: TEST  Game: War1  Variant: Standard\n"
        ":: Deadline: S1901M Mon Nov 23 2026 12:08:00 +0000  \n\nGame war1 (Standard"
    )
    assert one(mails, GM, "TEST:war1 - S1901M Game Starting").full.startswith("\n:: Judge:")


def test_results_name_the_phase_processed_with_its_old_deadline(judge: Judge) -> None:
    players = judge.start_game()
    mails = everyone_holds(judge, players)  # the last orders at 12:15
    results = one(mails, GM, "TEST:war1 - S1901M Results")
    assert results.full.startswith(
        "\n:: Judge: TEST  Game: War1  Variant: Standard\n"
        ":: Deadline: S1901M Mon Nov 23 2026 12:08:00 +0000  \n\nGame: war1   Variant:"
    )
    assert "\nMovement results for Spring of 1901. (war1.001)\n\nAustria: " in results.full
    new_deadline = ptime(datetime.fromisoformat(judge.game().deadline or ""), ZoneInfo("UTC"))
    assert results.full.endswith(
        "The next phase of 'war1' will be Movement for Fall of 1901.\n"
        f"The deadline for orders will be {new_deadline}.\n"
    )
    assert new_deadline == "Mon Nov 23 2026 12:15:00 +0000"


def test_the_adjustment_phase_is_f1901b_and_turns_count_only_stored_phases(
    judge: Judge,
) -> None:
    players = judge.start_game()
    everyone_holds(judge, players, E="F Lon - Nth\nF Edi H\nA Lvp H")
    # No unit dislodged: the Fall retreats are skipped, turn 3 is the adjustments.
    mails = everyone_holds(judge, players, E="F Nth - Nwy\nF Edi H\nA Lvp H")
    fall = one(mails, GM, "TEST:war1 - F1901M Results")
    assert "\nMovement results for Fall of 1901. (war1.002)\n" in fall.full
    assert "The next phase of 'war1' will be Adjustments for Winter of 1901.\n" in fall.full
    request = one(
        mails, players["E"], "TEST:war1 - F1901B England may build 1 unit (Winter of 1901)"
    )
    assert not request.full.startswith("\n::")  # a notice: no header
    mails = orders(judge, players, "E", "Build F Lon")  # the only orders due: processed
    ack = one(mails, players["E"], "Re: TEST:war1 - F1901B orders")
    assert ":: Deadline: F1901B " in ack.full
    results = one(mails, GM, "TEST:war1 - F1901B Results")
    assert ":: Deadline: F1901B " in results.full.splitlines()[2]
    assert "\nAdjustment results for Winter of 1901.  (war1.003)\n" in results.full


def test_game_end_has_the_header_and_notices_have_none(judge: Judge) -> None:
    judge.start_game()
    [ack, *notices] = judge.send(GM, "SIGNON Mwar1 masterpw\nPAUSE")
    paused = one(notices, "p0@example.org", "TEST:war1 - S1901M Game Paused")
    assert not paused.full.startswith("\n::")
    assert ack.subject == "Re: TEST:war1 - S1901M orders"
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nRESUME\nTERMINATE")
    end = one(mails, "p0@example.org", "TEST:war1 - S1901M Game Terminated")
    assert end.full.startswith(
        "\n:: Judge: TEST  Game: War1  Variant: Standard\n:: Deadline: S1901M "
    )


def test_the_date_is_in_the_judges_zone_with_english_names(judge: Judge) -> None:
    paris = ZoneInfo("Europe/Paris")
    assert ptime(datetime(2004, 1, 6, 23, 30, tzinfo=UTC), paris) == (
        "Wed Jan 07 2004 00:30:00 +0100"
    )
    assert ptime(datetime(2026, 7, 4, 9, 5, 7, tzinfo=UTC), paris) == (
        "Sat Jul 04 2026 11:05:07 +0200"
    )
    assert ptime(None, paris) == "Thu Jan 01 1970 00:00:00 +0000"
    assert njudge_phase("W1901A") == "F1901B"
    assert [njudge_phase(p) for p in ("S1901M", "F1901R", "F1901M")] == [
        "S1901M",
        "F1901R",
        "F1901M",
    ]
    assert turn_number(["S1901M", "F1901M", "W1901A"], "W1901A") == 3


def test_the_header_date_follows_the_configured_zone(tmp_path: Path) -> None:
    judge = Judge(tmp_path, timezone="Europe/Paris")
    players = judge.start_game()
    [ack] = orders(judge, players, "F", "A Par H")
    assert ":: Deadline: S1901M Mon Nov 23 2026 13:08:00 +0100  \n" in ack.full


# -- subjects ----------------------------------------------------------------------------


def test_reply_marks_are_stripped_never_re_re(judge: Judge) -> None:
    players = judge.start_game()
    for subject in ("Re: Re: AW: orders", "RE: TEST:war1 - S1901M orders", "Sv: re:orders"):
        [ack] = judge.send(players["F"], f"SIGNON Fwar1 {PASSWORD['F']}", subject=subject)
        assert ack.subject == "Re: TEST:war1 - S1901M orders"
    [ack] = judge.send(players["F"], "help", subject="Re: Re: help")
    assert ack.subject == "Re: TEST help"
    [ack] = judge.send(players["F"], f"SIGNON Fwar1 {PASSWORD['F']}", subject="")
    assert ack.subject == "Re: TEST:war1 - S1901M your mail"


def test_a_wrong_line_flags_the_subject(judge: Judge) -> None:
    players = judge.start_game()
    [ack] = orders(judge, players, "F", "A Par - Nowhere")
    assert ack.subject == "Re: [Error Flag] TEST:war1 - S1901M orders"
    [ack] = judge.send(players["F"], "SIGNON Fwar1 wrong\nA Par H", subject="Re: [Error Flag] x")
    assert ack.subject == "Re: [Error Flag] TEST x"


def test_a_hostile_subject_is_one_capped_encoded_header(judge: Judge) -> None:
    players = judge.start_game()
    # An encoded word hiding CR LF and a Bcc:, then far too much text, not ASCII.
    evil = "=?utf-8?b?b3JkZXJzDQpCY2M6IHZpY3RpbUBleGFtcGxlLm9yZw==?= " + "Ünïcødé " * 100
    judge.send(players["F"], f"SIGNON Fwar1 {PASSWORD['F']}", subject=evil)
    [raw] = [r for (r,) in judge.db.execute("SELECT raw FROM outbound ORDER BY id DESC LIMIT 1")]
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"\nBcc:" not in head and b"\r\n\r\n" not in head
    assert head.isascii()
    msg = email.message_from_bytes(raw, policy=default)
    prefix = "Re: TEST:war1 - S1901M "
    echoed = str(msg["Subject"])[len(prefix) :]
    assert str(msg["Subject"]).startswith(prefix + "orders Bcc: victim@example.org Ünïcødé")
    assert len(echoed) == compose.MAX_SUBJECT_ECHO and echoed.endswith("...")


def test_the_answered_subject_filter() -> None:
    assert compose.answered_subject("Re: aW: Re[2]: hello") == "hello"
    assert compose.answered_subject("Re: [Error Flag] JUDGE:war1 - F1901B Results") == "Results"
    assert compose.answered_subject("line\r\nBcc: x@example.org") == "line Bcc: x@example.org"
    assert compose.answered_subject("x" * 500) == "x" * 97 + "..."
    assert compose.answered_subject(None) == ""


# -- time to the deadline ----------------------------------------------------------------


def test_the_time_left_counts_down_and_stops_when_past(judge: Judge) -> None:
    players = judge.start_game()  # deadline Mon 23 12:08, grace a day more
    judge.now = datetime(2026, 11, 23, 11, 7, 59, tzinfo=UTC)  # the next mail at 11:08:59
    [ack] = orders(judge, players, "F", "A Par H")
    assert ack.full.endswith(
        "\nTime to deadline: 0 days, 0 hours, 59 minutes, and 1 second.\n"
        "Time to grace period expiration: 1 day, 0 hours, 59 minutes, and 1 second.\n"
    )
    judge.now = datetime(2026, 11, 23, 12, 8, tzinfo=UTC)  # the next mail a minute later
    [ack] = orders(judge, players, "F", "A Par H")
    assert ack.full.endswith(
        "\nTime to grace period expiration: 0 days, 23 hours, 59 minutes, and 0 seconds.\n"
    )
    assert "Time to deadline" not in ack.full
    judge.now += timedelta(days=2)
    [ack] = orders(judge, players, "F", "A Par H")
    assert "Time to" not in ack.full


def test_a_paused_game_shows_no_time_left(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(GM, "SIGNON Mwar1 masterpw\nPAUSE")
    [ack] = orders(judge, players, "F", "A Par H")
    assert ack.full.startswith("\n:: Judge: TEST  Game: War1  Variant: Standard\n")
    assert "Time to" not in ack.full


# -- one recipient per mail --------------------------------------------------------------


def test_every_game_mail_goes_to_one_address(judge: Judge) -> None:
    players = judge.start_game()
    mails = everyone_holds(judge, players)
    results = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    assert sorted(a for m in results for a in m.to) == sorted([GM, *players.values()])
    assert all(len(m.to) == 1 for m in mails)
    delivered = judge.deliver()
    assert all("," not in str(msg["To"]) for msg in delivered)
    assert sorted(
        str(msg["To"]) for msg in delivered if "Results" in str(msg["Subject"])
    ) == sorted([GM, *players.values()])
