"""A game's results as one mail to all its readers (`[outbound] results_together`): one
row per reader, the same bytes and Message-ID in each, To: the game's group; the send
threads give the relay one transaction for them all, and record each reader's row as the
relay answered for that reader."""

from __future__ import annotations

import email
import json
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import CONFIG, HOLDS, POWERS, Judge
from mail_e2e import Clock, Mailboxes, mail, make_config, read_mail
from servers import running_judge
from smtp_sink import Received, SmtpSink

from judge.config import ConfigError, SmtpOutConfig, config_from_dict
from judge.game import pictures
from judge.mail import compose, send_threads, together
from judge.mail import outbox as sender
from judge.mail.outbox import SmtpDelivery
from judge.store import outbox
from judge.store.audit import iso
from judge.store.db import open_db

READERS = ["gm@example.org", *(f"p{i}@example.org" for i in range(7))]


def _played(tmp: Path, **config: object) -> Judge:
    """A started game whose first phase was processed with every power holding."""
    judge = Judge(tmp, **config)
    players = judge.start_game()
    for i, initial in enumerate(POWERS):
        judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    judge.at(datetime.fromisoformat(judge.game().deadline or ""))
    return judge


def _results(judge: Judge) -> list[tuple[int, list[str], str, bytes, str]]:
    """The results rows: id, recipients, Message-ID, bytes, state."""
    rows = judge.db.execute(
        "SELECT id, recipients, message_id, raw, state FROM outbound "
        "WHERE kind = 'results' ORDER BY id"
    ).fetchall()
    return [(i, json.loads(to), mid, raw, state) for i, to, mid, raw, state in rows]


def _head(raw: bytes) -> str:
    return raw.split(b"\r\n\r\n", 1)[0].decode()


def _sent_by_threads(judge: Judge) -> list[Received]:
    """What a relay received of the queued mail, sent by the daemon's send threads."""
    with SmtpSink() as sink:
        threads = _threads(sink.port)
        try:
            _drain(judge, threads)
        finally:
            threads.close()
        return sink.messages


def _message_id(data: bytes) -> str:
    return str(email.message_from_bytes(data, policy=default)["Message-ID"])


def _threads(port: int, connections: int = 4) -> send_threads.SendThreads:
    config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=port))
    return send_threads.SendThreads([SmtpDelivery(config) for _ in range(connections)])


def _drain(judge: Judge, threads: send_threads.SendThreads) -> None:
    """The daemon's passes until no mail is due (a mail handed over stays queued until
    its outcome is recorded)."""
    due = "SELECT COUNT(*) FROM outbound WHERE state = 'queued' AND next_attempt_at <= ?"
    ends = time.monotonic() + 30
    while judge.db.execute(due, [iso(judge.now)]).fetchone()[0]:
        assert time.monotonic() < ends, judge.db.execute(
            "SELECT id, kind, recipients, attempts, next_attempt_at FROM outbound "
            "WHERE state = 'queued'"
        ).fetchall()
        send_threads.drain(
            judge.db, threads, lambda: judge.now, 100, attach_picture=pictures.finish
        )
        time.sleep(0.01)


def test_the_setting_reads_true_or_false_and_is_off_by_default() -> None:
    assert config_from_dict({}).results_together is False
    on = config_from_dict({"outbound": {"results_together": True}})
    assert on.results_together is True
    with pytest.raises(ConfigError) as refused:
        config_from_dict({"outbound": {"results_together": "yes"}})
    assert str(refused.value) == ("outbound.results_together must be true or false, not a string")


def test_each_reader_has_a_row_of_the_same_mail_to_the_games_group(tmp_path: Path) -> None:
    rows = _results(_played(tmp_path, results_together=True))
    assert [to for _, to, _, _, _ in rows] == [[a] for a in READERS]
    assert len({mid for _, _, mid, _, _ in rows}) == 1
    assert len({raw for _, _, _, raw, _ in rows}) == 1
    head = _head(rows[0][3])
    assert "\r\nTo: Diplomacy game war1:;\r\n" in head
    assert f"\r\nMessage-ID: {rows[0][2]}\r\n" in head
    assert not [a for a in READERS if a in head]


def test_without_the_setting_each_reader_has_a_mail_of_its_own(tmp_path: Path) -> None:
    rows = _results(_played(tmp_path))
    assert [to for _, to, _, _, _ in rows] == [[a] for a in READERS]
    assert len({mid for _, _, mid, _, _ in rows}) == len(READERS)
    for _, to, mid, raw, _ in rows:
        head = _head(raw)
        assert f"\r\nTo: {to[0]}\r\n" in head
        assert f"\r\nMessage-ID: {mid}\r\n" in head


def test_the_relay_gets_the_results_once_for_all_readers(tmp_path: Path) -> None:
    judge = _played(tmp_path, results_together=True)
    rows = _results(judge)
    received = _sent_by_threads(judge)
    carried = [m for m in received if _message_id(m.data) == rows[0][2]]
    assert [m.rcpt_tos for m in carried] == [READERS]
    msg = email.message_from_bytes(carried[0].data, policy=default)
    assert msg["To"] == "Diplomacy game war1:;"
    [image] = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert image.get_filename() == "board-S1901M.png"
    assert [state for *_, state in _results(judge)] == ["sent"] * len(READERS)


def test_judge_run_once_sends_the_results_once_for_all_readers_too(tmp_path: Path) -> None:
    judge = _played(tmp_path, results_together=True)
    [mid] = {mid for _, _, mid, _, _ in _results(judge)}
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        delivery = SmtpDelivery(config)
        try:
            sender.drain(
                judge.db, delivery, lambda: judge.now, 1000, attach_picture=pictures.finish
            )
        finally:
            delivery.close()
    assert [m.rcpt_tos for m in sink.messages if _message_id(m.data) == mid] == [READERS]
    assert [state for *_, state in _results(judge)] == ["sent"] * len(READERS)


def test_a_reader_refused_is_failed_or_retried_alone_and_the_others_are_sent(
    tmp_path: Path,
) -> None:
    judge = _played(tmp_path, results_together=True)
    # Only the results to send: the refusals would hold the readers' earlier mails too.
    judge.db.execute("UPDATE outbound SET state = 'sent' WHERE kind != 'results'")
    with SmtpSink() as sink:
        sink.refuse["p1@example.org"] = "550 5.1.1 no such user"
        sink.refuse["p2@example.org"] = "452 4.2.2 mailbox full"
        threads = _threads(sink.port)
        try:
            _drain(judge, threads)
            rows = judge.db.execute(
                "SELECT recipients, state, attempts, last_error FROM outbound "
                "WHERE kind = 'results' ORDER BY id"
            ).fetchall()
            assert rows == [
                (json.dumps([a]), state, 1, error)
                for a, state, error in [
                    (READERS[0], "sent", None),
                    (READERS[1], "sent", None),
                    (
                        READERS[2],
                        "failed",
                        "all recipients refused: p1@example.org: 550 5.1.1 no such user",
                    ),
                    (
                        READERS[3],
                        "queued",
                        "recipients refused for now: p2@example.org: 452 4.2.2 mailbox full",
                    ),
                    *[(a, "sent", None) for a in READERS[4:]],
                ]
            ]
            [first] = [m for m in sink.messages if "p0@example.org" in m.rcpt_tos]
            assert first.rcpt_tos == [
                a for a in READERS if a not in ("p1@example.org", "p2@example.org")
            ]
            # The mailbox has room again: p2's copy goes after its backoff, alone, the
            # same bytes.
            del sink.refuse["p2@example.org"]
            judge.now += timedelta(minutes=2)
            _drain(judge, threads)
        finally:
            threads.close()
    [again] = [m for m in sink.messages if m.rcpt_tos == ["p2@example.org"]]
    assert again.data == first.data
    assert [s for *_, s in _results(judge)] == ["sent"] * 2 + ["failed"] + ["sent"] * 5


def _copies(judge: Judge, readers: list[str], subject: str) -> str:
    """One mail queued as the copies results_together makes: a row to each reader."""
    mid = compose.new_message_id(CONFIG)
    raw = compose.build(CONFIG, readers, subject, "Body\n", judge.now, mid)
    with judge.db.atomic():
        outbox.queue_each(judge.db, [(raw, mid, [r]) for r in readers], "results", judge.now)
    return mid


def test_each_reader_gets_its_mails_in_the_order_queued_when_copies_are_joined(
    tmp_path: Path,
) -> None:
    judge = Judge(tmp_path)
    readers = [f"r{n}@example.org" for n in range(6)]
    queued: dict[str, list[str]] = {r: [] for r in readers}
    for i in range(60):
        if i % 3 == 0:  # a mail to four readers, copies joined
            group = [readers[(i + k) % 6] for k in range(4)]
            mid = _copies(judge, group, f"copies {i}")
        else:  # a mail of its own to one
            group = [readers[(i * 5) % 6]]
            mid = _copies(judge, group, f"alone {i}")
        for r in group:
            queued[r].append(mid)
    received = _sent_by_threads(judge)
    got: dict[str, list[str]] = {r: [] for r in readers}
    for m in received:
        mid = email.message_from_bytes(m.data, policy=default)["Message-ID"]
        for r in m.rcpt_tos:
            got[r].append(mid)
    assert got == queued
    assert len(received) == 60  # each mail once, its copies in one transaction


def _item(n: int, mid: str, to: str, raw: bytes = b"x", direct: bool = False) -> outbox.Outbound:
    return outbox.Outbound(n, mid, (to,), raw, 0, direct=direct)


def test_copies_are_joined_only_in_a_run_of_one_mail_to_distinct_readers() -> None:
    items = [
        _item(1, "<a@j>", "x@example.org"),
        _item(2, "<a@j>", "y@example.org"),
        _item(3, "<a@j>", "X@example.org"),  # x again: a transaction of its own
        _item(4, "<b@j>", "z@example.org"),
        _item(5, "<b@j>", "w@example.org", raw=b"other"),  # other bytes
        _item(6, "<c@j>", "v@example.org", direct=True),
        _item(7, "<c@j>", "u@example.org"),
    ]
    assert [[i.id for i in unit] for unit in together.units(items)] == [
        [1, 2],
        [3],
        [4],
        [5],
        [6],
        [7],
    ]


def test_copies_to_more_readers_than_a_relay_takes_go_in_several_transactions() -> None:
    many = [_item(n, "<a@j>", f"r{n}@example.org") for n in range(250)]
    sizes = [len(unit) for unit in together.units(many)]
    assert sizes == [together.MAX_TOGETHER, together.MAX_TOGETHER, 50]


def test_a_group_name_is_written_as_rfc_5322_allows() -> None:
    assert compose.group_field("Diplomacy game war-1_b") == "Diplomacy game war-1_b:;"
    assert compose.group_field('a "b" c.d é') == 'a "\\"b\\"" "c.d" ?:;'
    assert compose.group_field("") == "readers:;"


def test_the_running_daemon_mails_a_games_results_once_to_all_its_readers(
    tmp_path: Path, servers
) -> None:
    """The real daemon (IMAP in from a private Dovecot, SMTP out to aiosmtpd): a game
    created, joined and ordered by mail; its results reach every reader in one
    transaction, each reader's row recorded sent."""
    dovecot, sink = servers
    clock = Clock(datetime(2026, 3, 9, 12, 0, tzinfo=UTC))
    # Not told the store: its `settled` counts a mail to the relay for each row sent.
    boxes = Mailboxes(sink)
    config = make_config(tmp_path, dovecot, sink, results_together=True)
    players = {initial: f"p{i}@example.org" for i, initial in enumerate(POWERS)}
    with running_judge(config, clock):
        dovecot.append(mail(READERS[0], "new", ["CREATE ?war1 masterpw"], clock.now))
        boxes.new({READERS[0]: ["Re: E2E:war1 - S1901M new"]})
        for i, initial in enumerate(POWERS):
            join = [f"SIGNON ?war1 pw{i}", f"SET PREFERENCE {initial}"]
            dovecot.append(mail(players[initial], "join", join, clock.now))
        started = "E2E:war1 - S1901M Game Starting"
        boxes.new(
            {
                READERS[0]: [started],
                **{a: ["Re: E2E:war1 - S1901M join", started] for a in players.values()},
            }
        )
        for i, initial in enumerate(POWERS):
            orders = [f"SIGNON {initial}war1 pw{i}", *HOLDS[initial].split("\n")]
            dovecot.append(mail(players[initial], "orders", orders, clock.now))
        results = "E2E:war1 - S1901M Results"
        acked = [results, "Re: E2E:war1 - S1901M orders"]
        got = boxes.new({READERS[0]: [results], **{a: acked for a in players.values()}}, 60)
        db = open_db(tmp_path / "judge.db")
        rows = "SELECT recipients, state, message_id FROM outbound WHERE kind = 'results'"
        ends = time.monotonic() + 30
        while [state for _, state, _ in db.execute(rows)] != ["sent"] * len(READERS):
            assert time.monotonic() < ends, db.execute(rows).fetchall()
            time.sleep(0.02)
    sent = [read_mail(m.data, m.rcpt_tos) for m in sink.messages]
    [together] = [m for m in sent if m.subject == results]
    assert together.to == tuple(sorted(READERS))
    assert "\r\nTo: Diplomacy game war1:;\r\n" in together.headers + "\r\n"
    assert together.picture_names == ("board-S1901M.png",)
    assert {a: [m.message_id for m in got[a] if m.subject == results] for a in READERS} == {
        a: [together.message_id] for a in READERS
    }
    assert sorted(db.execute(rows)) == sorted(
        (json.dumps([a]), "sent", together.message_id) for a in READERS
    )
    assert boxes.unexpected == []
