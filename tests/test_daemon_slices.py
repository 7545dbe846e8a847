"""Many games due at once are processed in slices, with the waiting mail handled and the
outbox drained in between (issue 16): a player's acknowledgement never waits for every
game's results."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from judge_harness import HOLDS, Judge

from judge.game import pictures
from judge.mail import outbox
from judge.service import daemon
from judge.store import inbox


def _due_together(tmp_path: Path) -> Judge:
    """Three started games whose deadlines have all passed, and a mail waiting."""
    judge = Judge(tmp_path)
    players = {name: judge.start_game(name) for name in ("war1", "war2", "war3")}
    judge.now += timedelta(days=4)
    raw = (
        f"From: {players['war3']['F']}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        f"Message-ID: <slice@example.org>\r\n\r\nSIGNON Fwar3 pw2\r\n{HOLDS['F']}\r\n"
    ).encode()
    inbox.ingest(judge.db, raw, "smtp", judge.now)
    return judge


def _phases(judge: Judge) -> list[str | None]:
    return [judge.game(name).phase for name in ("war1", "war2", "war3")]


def test_each_slice_processes_the_games_due_until_its_time_is_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(daemon, "DUE_SLICE_SECONDS", -1.0)  # a slice ends after one game
    monkeypatch.setattr(daemon, "SEND_SLICE", 1000)
    judge = _due_together(tmp_path)
    delivery = outbox.MaildirDelivery(tmp_path / "sent")

    def one_pass() -> bool:
        return daemon.one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False)

    assert one_pass() is True
    # The waiting mail was handled first, then one game processed; the rest are due still.
    [state] = judge.db.execute("SELECT state FROM inbound ORDER BY id DESC LIMIT 1").fetchone()
    assert state == "handled"
    assert _phases(judge) == ["F1901M", "S1901M", "S1901M"]
    # Each later pass does one game's due work (a processed game's next event is found
    # by the pass after), in order, until nothing is left.
    seen = [_phases(judge)]
    while one_pass():
        seen.append(_phases(judge))
        assert len(seen) < 20
    seen.append(_phases(judge))
    assert [phases.count("F1901M") for phases in seen] == [1, 1, 2, 2, 3]


def test_a_slice_with_time_left_processes_every_game_due(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(daemon, "DUE_SLICE_SECONDS", 3600.0)
    monkeypatch.setattr(daemon, "SEND_SLICE", 1000)
    judge = _due_together(tmp_path)
    delivery = outbox.MaildirDelivery(tmp_path / "sent")
    assert (
        daemon.one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False) is False
    )
    assert _phases(judge) == ["F1901M", "F1901M", "F1901M"]


def test_a_pass_sends_at_most_send_slice_mails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(daemon, "SEND_SLICE", 2)
    judge = _due_together(tmp_path)
    delivery = outbox.MaildirDelivery(tmp_path / "sent")
    counts = []
    more = True
    while more:
        more = daemon.one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False)
        counts.append(len(list((tmp_path / "sent" / "new").iterdir())))
        assert len(counts) < 1000
    total = judge.db.execute("SELECT COUNT(*) FROM outbound").fetchone()[0]
    assert counts[-1] == total  # everything sent, the results included
    steps = [b - a for a, b in zip([0, *counts], counts, strict=False)]
    assert set(steps[:-1]) == {2} and steps[-1] in (0, 1, 2)


def test_mail_that_came_during_a_slice_cuts_it_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A slice of an hour, which gives way to mail at once: after its first game, the mail
    # that came meanwhile is handled before the other games.
    monkeypatch.setattr(daemon, "DUE_SLICE_SECONDS", 3600.0)
    monkeypatch.setattr(daemon, "MAIL_SLICE_SECONDS", -1.0)
    monkeypatch.setattr(daemon, "SEND_SLICE", 1000)
    judge = _due_together(tmp_path)
    delivery = outbox.MaildirDelivery(tmp_path / "sent")

    def one_pass(mail_came: bool) -> bool:
        return daemon.one_pass(
            judge.db,
            judge.config,
            lambda: judge.now,
            delivery,
            lambda: False,
            mail_waiting=lambda: mail_came,
        )

    assert one_pass(mail_came=True) is True
    assert _phases(judge) == ["F1901M", "S1901M", "S1901M"]
    # No mail came: the hour's slice does the rest.
    assert one_pass(mail_came=False) is False
    assert _phases(judge) == ["F1901M", "F1901M", "F1901M"]


def test_a_slice_gives_way_to_mail_only_after_its_share_of_time() -> None:
    never = daemon._Slice(3600.0, lambda: False, 3600.0, lambda: True)
    assert [never() for _ in range(3)] == [False, False, False]
    soon = daemon._Slice(3600.0, lambda: False, -1.0, lambda: True)
    assert [soon() for _ in range(3)] == [False, True, True]  # the first game always done
    quiet = daemon._Slice(3600.0, lambda: False, -1.0, lambda: False)
    assert [quiet() for _ in range(3)] == [False, False, False]


def test_a_stored_mail_sets_the_wakeups_mail_flag() -> None:
    wakeup = daemon._Wakeup()
    try:
        assert wakeup.mail is False
        wakeup.mail_stored()
        assert wakeup.mail is True
        assert wakeup.selector.select(0)  # and the loop is woken
    finally:
        wakeup.close()


@pytest.mark.parametrize("share", [3600.0, -1.0])
def test_a_maildir_pass_gives_way_to_mail_only_after_its_share_of_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    monkeypatch.setattr(daemon, "DUE_SLICE_SECONDS", 3600.0)
    monkeypatch.setattr(daemon, "MAIL_SLICE_SECONDS", share)
    monkeypatch.setattr(daemon, "SEND_SLICE", 1000)
    judge = _due_together(tmp_path)
    delivery = outbox.MaildirDelivery(tmp_path / "sent")
    outbox.drain(judge.db, delivery, lambda: judge.now, attach_picture=pictures.finish, limit=999)
    [before] = judge.db.execute("SELECT MAX(id) FROM outbound").fetchone()  # all sent
    more = daemon.one_pass(
        judge.db,
        judge.config,
        lambda: judge.now,
        delivery,
        lambda: False,
        mail_waiting=lambda: True,
    )
    assert more is True  # mail came: the next pass at once
    new = judge.db.execute(
        "SELECT inbound_id IS NOT NULL, state FROM outbound WHERE id > ? ORDER BY id", [before]
    ).fetchall()
    assert new[0] == (1, "sent")  # the acknowledgement, a direct answer, first
    states = [state for _, state in new[1:]]
    if share > 0:  # its share not used up: every game processed, every mail written
        assert _phases(judge) == ["F1901M", "F1901M", "F1901M"]
        assert set(states) == {"sent"}
    else:  # given way at once: one game processed, its mail waiting for the other games
        # (the answers go meanwhile, and the results whose picture is drawn ahead)
        assert _phases(judge) == ["F1901M", "S1901M", "S1901M"]
        assert set(states) == {"queued"}
        assert (
            daemon.one_pass(judge.db, judge.config, lambda: judge.now, delivery, lambda: False)
            is False
        )
        assert _phases(judge) == ["F1901M", "F1901M", "F1901M"]
        states = [state for (state,) in judge.db.execute("SELECT state FROM outbound")]
        assert set(states) == {"sent"}
