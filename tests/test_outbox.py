"""The outbox drainer: SMTP to a real aiosmtpd peer, Maildir, retries and failures."""

from __future__ import annotations

import email
import smtplib
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import CONFIG
from smtp_sink import SmtpSink

from judge.config import Config, SmtpOutConfig
from judge.game import pictures
from judge.mail import compose
from judge.mail.outbox import (
    MAX_ATTEMPTS,
    MaildirDelivery,
    SmtpDelivery,
    dot_stuffed,
    drain,
    smtp_data,
    wire,
)
from judge.store import outbox
from judge.store.db import open_db

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _queue(db, n: int = 1, to: str = "bob@example.org") -> list[str]:
    ids = []
    with db.atomic():
        for i in range(n):
            mid = compose.new_message_id(CONFIG)
            raw = compose.build(CONFIG, [to], f"Subject {i}", f"Body {i}\n", NOW, mid)
            outbox.queue(db, raw, mid, [to], "reply", NOW)
            ids.append(mid)
    return ids


def test_built_mail_carries_the_loop_headers_and_threading() -> None:
    raw = compose.build(
        CONFIG,
        ["bob@example.org"],
        "[TEST] Re: hi",
        "Héllo\n",
        NOW,
        "<a@example.org>",
        in_reply_to="<q@x>",
        references=["<p@x>"],
    )
    msg = email.message_from_bytes(raw, policy=default)
    assert msg["From"] == "TEST judge <judge@example.org>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["X-Judge"] == "TEST"
    assert msg["Message-ID"] == "<a@example.org>"
    assert msg["In-Reply-To"] == "<q@x>"
    assert msg["References"] == "<p@x> <q@x>"
    assert msg.get_content().replace("\r\n", "\n") == "Héllo\n"


def test_smtp_delivery_to_a_real_peer(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    ids = _queue(db, 3)
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        assert drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 3
        got = [
            email.message_from_bytes(m.data, policy=default)["Message-ID"] for m in sink.messages
        ]
        assert got == ids
        assert {m.mail_from for m in sink.messages} == {"judge@example.org"}
        assert all(m.rcpt_tos == ["bob@example.org"] for m in sink.messages)
    assert [r["state"] for r in db["outbound"].rows] == ["sent"] * 3
    assert outbox.due(db, NOW + timedelta(days=1)) == []


def test_a_temporary_refusal_is_retried_later_with_the_same_message(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    [mid] = _queue(db)
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        sink.answer = "451 4.3.0 try again"
        assert drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 0
        row = db["outbound"].get(1)
        assert (row["state"], row["attempts"]) == ("queued", 1)
        assert "451" in row["last_error"]
        assert (
            drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 0
        )  # not due yet
        sink.answer = None
        later = NOW + timedelta(minutes=1)
        assert drain(db, SmtpDelivery(config), lambda: later, attach_picture=pictures.finish) == 1
        [m] = sink.messages
        assert email.message_from_bytes(m.data, policy=default)["Message-ID"] == mid


def test_a_permanent_refusal_is_recorded_and_dropped(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    _queue(db)
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        sink.answer = "550 5.7.1 no thanks"
        drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish)
    row = db["outbound"].get(1)
    assert row["state"] == "failed" and "550" in row["last_error"]


def test_no_server_at_all_is_a_temporary_failure(tmp_path: Path) -> None:
    from smtp_sink import free_port

    db = open_db(tmp_path / "j.db")
    _queue(db, 2)
    config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=free_port()))
    assert (
        drain(db, SmtpDelivery(config, timeout=2), lambda: NOW, attach_picture=pictures.finish) == 0
    )
    states = [(r["state"], r["attempts"]) for r in db["outbound"].rows]
    assert states == [("queued", 1), ("queued", 0)]  # the rest waits for the next pass


def test_maildir_delivery_writes_each_message_once(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    ids = _queue(db, 2)
    delivery = MaildirDelivery(tmp_path / "outbox")
    assert drain(db, delivery, lambda: NOW, attach_picture=pictures.finish) == 2
    files = sorted((tmp_path / "outbox" / "new").iterdir())
    got = [email.message_from_bytes(f.read_bytes(), policy=default)["Message-ID"] for f in files]
    assert sorted(got) == sorted(ids)
    # A crash after writing but before recording: sending again writes nothing new.
    db.execute("UPDATE outbound SET state = 'queued'")
    db.conn.commit()
    assert drain(db, delivery, lambda: NOW, attach_picture=pictures.finish) == 2
    assert len(list((tmp_path / "outbox" / "new").iterdir())) == 2
    assert list((tmp_path / "outbox" / "tmp").iterdir()) == []


def test_a_new_life_finds_what_a_reader_moved_to_cur_and_delivers_nothing_twice(
    tmp_path: Path,
) -> None:
    # A crash after writing, before recording; meanwhile the reader moved one mail to
    # cur/ with its flags. The next life (a new delivery) reads both folders.
    db = open_db(tmp_path / "j.db")
    _queue(db, 2)
    assert (
        drain(db, MaildirDelivery(tmp_path / "outbox"), lambda: NOW, attach_picture=pictures.finish)
        == 2
    )
    first, second = sorted((tmp_path / "outbox" / "new").iterdir())
    first.rename(tmp_path / "outbox" / "cur" / f"{first.name}:2,S")
    db.execute("UPDATE outbound SET state = 'queued'")
    db.conn.commit()
    again = MaildirDelivery(tmp_path / "outbox")
    assert drain(db, again, lambda: NOW, attach_picture=pictures.finish) == 2
    assert [p.name for p in (tmp_path / "outbox" / "new").iterdir()] == [second.name]
    assert [p.name for p in (tmp_path / "outbox" / "cur").iterdir()] == [f"{first.name}:2,S"]
    assert {r["state"] for r in db["outbound"].rows} == {"sent"}
    hows = [r[0] for r in db.execute("SELECT detail FROM audit WHERE event = 'sent' ORDER BY id")]
    outbox_dir = tmp_path / "outbox"
    assert hows[2:] == [f"already in {outbox_dir / 'cur'}", f"already in {outbox_dir / 'new'}"]


# -- addresses the relay may not take -------------------------------------------------------


def _smtp(sink: SmtpSink) -> Config:
    return replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))


def test_a_utf8_recipient_without_smtputf8_fails_alone_and_the_rest_is_sent(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    _queue(db, 1, to="österreich@example.org")
    [later] = _queue(db, 1, to="bob@example.org")
    with SmtpSink() as sink:
        assert (
            drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish) == 1
        )
        [m] = sink.messages
        assert email.message_from_bytes(m.data, policy=default)["Message-ID"] == later
    first, second = db["outbound"].rows
    assert (first["state"], second["state"]) == ("failed", "sent")
    assert first["last_error"] == (
        "no recipient the relay can take (an address with non-ASCII characters, "
        "and the relay does not offer SMTPUTF8): österreich@example.org"
    )


def test_a_utf8_recipient_goes_out_by_smtputf8_when_the_relay_offers_it(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    [mid] = _queue(db, 1, to="österreich@example.org")
    with SmtpSink(smtputf8=True) as sink:
        assert (
            drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish) == 1
        )
        [m] = sink.messages
    assert m.rcpt_tos == ["österreich@example.org"] and "SMTPUTF8" in m.mail_options
    msg = email.message_from_bytes(m.data, policy=default)
    assert (msg["To"], msg["Message-ID"]) == ("österreich@example.org", mid)
    assert db["outbound"].get(1)["state"] == "sent"


def test_an_idn_recipient_goes_out_in_idna_without_smtputf8(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    _queue(db, 1, to="bob@bücher.example")
    with SmtpSink() as sink:
        assert (
            drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish) == 1
        )
        [m] = sink.messages
    assert m.rcpt_tos == ["bob@xn--bcher-kva.example"] and "SMTPUTF8" not in m.mail_options
    assert email.message_from_bytes(m.data, policy=default)["To"] == "bob@xn--bcher-kva.example"


def test_a_mail_to_several_is_sent_to_those_the_relay_can_take(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    to = ["bob@example.org", "österreich@example.org"]
    mid = compose.new_message_id(CONFIG)
    with db.atomic():
        raw = compose.build(CONFIG, to, "Results", "Body\n", NOW, mid)
        outbox.queue(db, raw, mid, to, "public", NOW)
    with SmtpSink() as sink:
        assert (
            drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish) == 1
        )
        [m] = sink.messages
    assert m.rcpt_tos == ["bob@example.org"]
    row = db["outbound"].get(1)
    assert row["state"] == "sent"
    sent = "SELECT detail FROM audit WHERE entity = 'outbound' AND event = 'sent'"
    assert db.execute(sent).fetchall() == [("sent; refused: österreich@example.org",)]


class _Faulty(MaildirDelivery):
    """A Maildir delivery that fails on one message with an error nobody expected."""

    def __init__(self, path: Path, bad: str) -> None:
        super().__init__(path)
        self.bad = bad

    def deliver(self, item: outbox.Outbound) -> str:
        if item.message_id == self.bad:
            raise ValueError("something no one thought of")
        return super().deliver(item)


def test_an_unexpected_fault_of_one_mail_never_escapes_drain(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    bad, good = _queue(db, 2)
    assert (
        drain(db, _Faulty(tmp_path / "out", bad), lambda: NOW, attach_picture=pictures.finish) == 1
    )
    first, second = db["outbound"].rows
    assert (first["state"], first["attempts"], second["state"]) == ("queued", 1, "sent")
    assert first["last_error"] == "ValueError: something no one thought of"


def test_a_picture_that_cannot_be_read_never_escapes_drain(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    mid = compose.new_message_id(CONFIG)
    with db.atomic():
        raw = compose.build(CONFIG, ["bob@example.org"], "Results", "Body\n", NOW, mid)
        outbox.queue(db, raw, mid, ["bob@example.org"], "public", NOW, picture='{"bogus": 1}')
    _queue(db, 1)
    # A picture that cannot be drawn (nor named) is a picture that cannot be drawn: the
    # mail goes as its text alone, as the others go (the picture step finishes mails in
    # batches, so a fault of one is not left to fail them all).
    assert (
        drain(db, MaildirDelivery(tmp_path / "out"), lambda: NOW, attach_picture=pictures.finish)
        == 2
    )
    first, second = db["outbound"].rows
    assert (first["state"], first["attempts"], second["state"]) == ("sent", 1, "sent")
    assert (first["raw"], first["picture"], first["last_error"]) == (raw, None, None)


class _Counting(SmtpDelivery):
    """An SmtpDelivery that counts the connections it opens."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self.connections = 0

    def _connect(self) -> smtplib.SMTP:
        self.connections += 1
        return super()._connect()


def test_the_relay_connection_is_kept_across_drains_while_there_is_mail(tmp_path: Path) -> None:
    """A burst sent in slices uses one connection; it is closed when nothing is left, and
    one the relay closed meanwhile is opened again without failing a mail."""
    db = open_db(tmp_path / "j.db")
    ids = _queue(db, 5)
    with SmtpSink() as sink:
        delivery = _Counting(_smtp(sink))
        assert drain(db, delivery, lambda: NOW, 2, attach_picture=pictures.finish) == 2
        assert delivery.smtp is not None  # more to send: kept open
        assert drain(db, delivery, lambda: NOW, 2, attach_picture=pictures.finish) == 2
        assert delivery.connections == 1
        delivery.smtp.quit()  # the relay's idle timeout, as the judge sees it: disconnected
        assert drain(db, delivery, lambda: NOW, 2, attach_picture=pictures.finish) == 1
        assert delivery.smtp is None and delivery.connections == 2  # nothing left: closed
        got = [email.message_from_bytes(m.data)["Message-ID"] for m in sink.messages]
    assert got == ids
    sent = "SELECT detail FROM audit WHERE entity = 'outbound' AND event = 'sent'"
    assert len(db.execute(sent).fetchall()) == 5
    assert [r["state"] for r in db["outbound"].rows] == ["sent"] * 5


def test_a_picture_finished_in_two_slices_is_stored_once(tmp_path: Path) -> None:
    """The mails of one phase that carry the same picture may be finished in different
    slices of the drain: the picture is stored once, and every one of them carries it."""
    db = open_db(tmp_path / "j.db")
    spec = '{"name": "board-S1901M.png", "position": {}}'
    ids = []
    with db.atomic():
        for to in ("a@example.org", "b@example.org", "c@example.org"):
            mid = compose.new_message_id(CONFIG)
            raw = compose.build(CONFIG, [to], "Results", "Body\n", NOW, mid)
            ids.append(outbox.queue(db, raw, mid, [to], "results", NOW, picture=spec))
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    picture = outbox.Attachment("board-S1901M.png", png)
    outbox.finish_many(db, [(ids[0], spec, picture)], NOW)
    outbox.finish_many(db, [(ids[1], spec, picture), (ids[2], spec, None)], NOW)
    outbox.finish_many(db, [(ids[0], spec, None)], NOW)  # finished before: kept as it was
    assert db.execute("SELECT id, name, png FROM pictures").fetchall() == [
        (1, "board-S1901M.png", png)
    ]
    rows = db.execute("SELECT id, picture, picture_id FROM outbound ORDER BY id").fetchall()
    assert rows == [(ids[0], None, 1), (ids[1], None, 1), (ids[2], None, None)]
    sent = {i.id: i for i in outbox.due(db, NOW)}
    assert sent[ids[0]].attachment == picture and sent[ids[2]].attachment is None
    with_picture = email.message_from_bytes(wire(sent[ids[0]]), policy=default)
    [_, image] = with_picture.iter_parts()
    assert (image.get_filename(), image.get_content()) == ("board-S1901M.png", png)
    assert wire(sent[ids[2]]) == sent[ids[2]].raw


def _queue_results(db, pictures: list[str | None]) -> list[int]:
    """A results mail to a reader of its own for each of `pictures` (its JSON, or None
    for none), queued in that order; their ids."""
    ids = []
    with db.atomic():
        for n, picture in enumerate(pictures):
            mid = compose.new_message_id(CONFIG)
            raw = compose.build(CONFIG, [f"p{n}@example.org"], "Results", "Body\n", NOW, mid)
            ids.append(
                outbox.queue(db, raw, mid, [f"p{n}@example.org"], "results", NOW, picture=picture)
            )
    return ids


def test_the_pictures_ahead_are_those_still_to_draw_in_the_order_queued(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    specs = {name: f'{{"name": "{name}.png"}}' for name in "ABC"}
    order = ["A", None, "B", "A", None, "C", "B", "A"]
    ids = _queue_results(db, [specs[name] if name else None for name in order])
    a, b, c = (specs["A"], ids[0]), (specs["B"], ids[2]), (specs["C"], ids[5])
    assert outbox.pictures_ahead(db, 5) == [a, b, c]  # each with its first mail's id
    assert outbox.pictures_ahead(db, 2) == [a, b]
    # A drawn and stored for its mails: B is next; a sent mail counts no more either.
    drawn = outbox.Attachment("A.png", b"png")
    outbox.finish_many(db, [(ids[i], specs["A"], drawn) for i in (0, 3, 7)], NOW)
    assert outbox.pictures_ahead(db, 5) == [b, c]
    outbox.mark_sent_many(db, [(ids[5], "sent")], NOW)
    assert outbox.pictures_ahead(db, 5) == [b]


def test_a_picture_drawn_ahead_finishes_every_queued_mail_that_carries_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_db(tmp_path / "j.db")
    specs = {name: f'{{"name": "{name}.png"}}' for name in "AB"}
    order = ["A", None, "B", "A", "A", "B", "A"]
    ids = _queue_results(db, [specs[name] if name else None for name in order])
    outbox.mark_sent_many(db, [(ids[4], "sent")], NOW)  # sent already: never changed
    # A's carriers are looked for among the next 4 mails still to draw from its first:
    # ids[6], the fifth, is left to be finished as it is sent.
    monkeypatch.setattr(outbox, "CARRIERS_SCANNED", 4)
    outbox.finish_drawn(db, [(specs["A"], ids[0], outbox.Attachment("A.png", b"png-A"))], NOW)
    rows = db.execute("SELECT id, picture, picture_id FROM outbound ORDER BY id").fetchall()
    [(picture_id, png)] = db.execute("SELECT id, png FROM pictures").fetchall()
    assert png == b"png-A"
    assert rows == [
        (ids[0], None, picture_id),
        (ids[1], None, None),
        (ids[2], specs["B"], None),
        (ids[3], None, picture_id),
        (ids[4], specs["A"], None),
        (ids[5], specs["B"], None),
        (ids[6], specs["A"], None),
    ]
    audit = "SELECT entity_id, detail FROM audit WHERE event = 'pictured' ORDER BY entity_id"
    assert db.execute(audit).fetchall() == [
        (ids[0], f"picture {picture_id}"),
        (ids[3], f"picture {picture_id}"),
    ]
    sent = {i.id: i for i in outbox.due(db, NOW)}  # the stored picture, read once for both
    assert sent[ids[0]].attachment == outbox.Attachment("A.png", b"png-A")
    assert sent[ids[0]].attachment is sent[ids[3]].attachment


def test_dot_stuffing_doubles_each_leading_dot_and_ends_the_data() -> None:
    assert dot_stuffed(b"a\r\n.\r\n..b\r\n") == b"a\r\n..\r\n...b\r\n.\r\n"
    assert dot_stuffed(b".first\r\nlast") == b"..first\r\nlast\r\n.\r\n"
    assert dot_stuffed(b"") == b"\r\n.\r\n"


def test_lines_that_begin_with_a_dot_reach_the_relay_as_written(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    mid = compose.new_message_id(CONFIG)
    body = "Orders:\n.\n..two dots\n.hidden\nend\n"
    raw = compose.build(CONFIG, ["bob@example.org"], "Dots", body, NOW, mid)
    with db.atomic():
        outbox.queue(db, raw, mid, ["bob@example.org"], "reply", NOW)
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        assert drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 1
        [got] = sink.messages
    assert got.data == raw
    # Its size declared, as the relay offers SIZE (RFC 1870), and as smtplib declared it.
    assert [o.lower() for o in got.mail_options] == [f"size={len(raw)}"]
    text = email.message_from_bytes(got.data, policy=default).get_content()
    assert text.replace("\r\n", "\n") == body


def test_a_mail_with_a_picture_reaches_the_relay_as_wire_gives_it_dots_and_all(
    tmp_path: Path,
) -> None:
    # Only its text and the picture part's headers are searched for dots (smtp_data): the
    # relay still gets wire's bytes exactly, a name that begins with a dot included.
    db = open_db(tmp_path / "j.db")
    mid = compose.new_message_id(CONFIG)
    body = ".Orders:\n.\n..two dots\nend\n"
    raw = compose.build(CONFIG, ["bob@example.org"], "Dots", body, NOW, mid)
    png = bytes(range(256)) * 40  # its base64 has lines of every kind but one with a dot
    with db.atomic():
        queued = outbox.queue(db, raw, mid, ["bob@example.org"], "results", NOW, picture="{}")
        outbox.finish_many(db, [(queued, "{}", outbox.Attachment(".board.png", png))], NOW)
    [item] = outbox.due(db, NOW)
    assert smtp_data(item) == (dot_stuffed(wire(item)), len(wire(item)))
    assert smtp_data(replace(item, attachment=None)) == (dot_stuffed(raw), len(raw))
    with SmtpSink() as sink:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=sink.port))
        assert drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 1
        [got] = sink.messages
    assert got.data == wire(item)
    assert [o.lower() for o in got.mail_options] == [f"size={len(wire(item))}"]
    sent = email.message_from_bytes(got.data, policy=default)
    text, picture = [part for part in sent.walk() if not part.is_multipart()]
    assert text.get_content().replace("\r\n", "\n") == body
    assert picture.get_filename() == ".board.png"
    assert picture.get_content() == png


def test_a_drain_gives_way_after_a_mail_once_told_but_sends_every_direct_answer_first(
    tmp_path: Path,
) -> None:
    db = open_db(tmp_path / "j.db")
    with db.atomic():
        for i, (to, kind) in enumerate(
            [("a@example.org", "notice"), ("b@example.org", "notice"), ("c@example.org", "reply")]
        ):
            mid = compose.new_message_id(CONFIG)
            raw = compose.build(CONFIG, [to], f"Subject {i}", f"Body {i}\n", NOW, mid)
            outbox.queue(db, raw, mid, [to], kind, NOW)
    delivery = MaildirDelivery(tmp_path / "out")
    told = lambda: True  # noqa: E731  (a mail came: give way as soon as may be)
    sent = drain(db, delivery, lambda: NOW, attach_picture=pictures.finish, give_way=told)
    assert sent == 2  # the direct answer, then one notice
    rows = [(r["recipients"], r["state"]) for r in db["outbound"].rows]
    assert rows == [
        ('["a@example.org"]', "sent"),
        ('["b@example.org"]', "queued"),
        ('["c@example.org"]', "sent"),
    ]
    assert drain(db, delivery, lambda: NOW, attach_picture=pictures.finish) == 1


class _ClosingAtRcpt:
    """A relay that answers the first RCPT with 421 (it is shutting down)."""

    rcpts: list[str]

    def __init__(self) -> None:
        self.rcpts = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:  # noqa: N802
        self.rcpts.append(address)
        return "421 4.3.2 shutting down"


def test_a_relay_closing_at_rcpt_is_asked_nothing_more_and_the_mail_waits(
    tmp_path: Path,
) -> None:
    from aiosmtpd.controller import Controller
    from smtp_sink import free_port

    db = open_db(tmp_path / "j.db")
    to = ["a@example.org", "b@example.org"]
    mid = compose.new_message_id(CONFIG)
    with db.atomic():
        outbox.queue(
            db, compose.build(CONFIG, to, "Results", "Body\n", NOW, mid), mid, to, "public", NOW
        )
    handler = _ClosingAtRcpt()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        config = replace(CONFIG, outbound_mode="smtp", smtp_out=SmtpOutConfig(port=controller.port))
        assert drain(db, SmtpDelivery(config), lambda: NOW, attach_picture=pictures.finish) == 0
    finally:
        controller.stop()
    assert handler.rcpts == ["a@example.org"]  # as smtplib's sendmail: no second RCPT
    row = db["outbound"].get(1)
    assert (row["state"], row["attempts"]) == ("queued", 1)
    assert "recipients refused for now: a@example.org: 421 4.3.2 shutting down" in row["last_error"]


def _queue_to_several(db, to: list[str]) -> str:
    mid = compose.new_message_id(CONFIG)
    with db.atomic():
        raw = compose.build(CONFIG, to, "Results", "Body\n", NOW, mid)
        outbox.queue(db, raw, mid, to, "public", NOW)
    return mid


def test_a_recipient_refused_for_now_gets_the_mail_later_and_the_others_once(
    tmp_path: Path,
) -> None:
    # Marked sent when the relay took it for the others, the mail never reached a
    # recipient the relay refused for now (a full mailbox, a greylisting peer).
    db = open_db(tmp_path / "j.db")
    to = ["ann@example.org", "bob@example.org", "cid@example.org"]
    mid = _queue_to_several(db, to)
    with SmtpSink() as sink:
        sink.refuse["bob@example.org"] = "452 4.2.2 mailbox full"
        delivery = SmtpDelivery(_smtp(sink))
        assert drain(db, delivery, lambda: NOW, attach_picture=pictures.finish) == 0
        row = db["outbound"].get(1)
        assert (row["state"], row["recipients"], row["attempts"], row["next_attempt_at"]) == (
            "queued",
            '["bob@example.org"]',
            1,
            "2026-11-21T12:01:00.000000+00:00",
        )
        refused = "sent; refused: bob@example.org (452 4.2.2 mailbox full)"
        assert row["last_error"] == refused
        retry = "SELECT event, detail FROM audit WHERE entity = 'outbound' AND event != 'queued'"
        assert db.execute(retry).fetchall() == [
            ("retry", f"{refused}; next try to bob@example.org in 0:01:00")
        ]
        # Not due again before its back-off; then to bob alone, the same bytes.
        assert drain(db, delivery, lambda: NOW, attach_picture=pictures.finish) == 0
        del sink.refuse["bob@example.org"]
        later = NOW + timedelta(minutes=1)
        assert drain(db, delivery, lambda: later, attach_picture=pictures.finish) == 1
        first, second = sink.messages
    assert first.rcpt_tos == ["ann@example.org", "cid@example.org"]
    assert second.rcpt_tos == ["bob@example.org"]
    assert second.data == first.data
    assert email.message_from_bytes(second.data, policy=default)["Message-ID"] == mid
    row = db["outbound"].get(1)
    assert (row["state"], row["attempts"], row["last_error"]) == ("sent", 2, None)


def test_a_recipient_refused_for_good_among_others_is_not_tried_again(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    _queue_to_several(db, ["ann@example.org", "gone@example.org"])
    with SmtpSink() as sink:
        sink.refuse["gone@example.org"] = "550 5.1.1 no such user"
        assert (
            drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish) == 1
        )
        [m] = sink.messages
    assert m.rcpt_tos == ["ann@example.org"]
    row = db["outbound"].get(1)
    assert (row["state"], row["recipients"]) == ("sent", '["ann@example.org", "gone@example.org"]')
    sent = "SELECT detail FROM audit WHERE entity = 'outbound' AND event = 'sent'"
    assert db.execute(sent).fetchall() == [
        ("sent; refused: gone@example.org (550 5.1.1 no such user)",)
    ]


def test_a_recipient_refused_for_now_on_the_last_try_is_given_up_alone(tmp_path: Path) -> None:
    db = open_db(tmp_path / "j.db")
    _queue_to_several(db, ["ann@example.org", "bob@example.org"])
    db.execute("UPDATE outbound SET attempts = ?", [MAX_ATTEMPTS - 1])
    db.conn.commit()
    with SmtpSink() as sink:
        sink.refuse["bob@example.org"] = "452 4.2.2 mailbox full"
        drain(db, SmtpDelivery(_smtp(sink)), lambda: NOW, attach_picture=pictures.finish)
        [m] = sink.messages
    assert m.rcpt_tos == ["ann@example.org"]
    row = db["outbound"].get(1)
    assert (row["state"], row["recipients"], row["last_error"]) == (
        "failed",
        '["bob@example.org"]',
        "gave up after retries: sent; refused: bob@example.org (452 4.2.2 mailbox full)",
    )


def test_a_mail_the_relay_refuses_for_now_is_tried_for_three_days() -> None:
    # 30 tries were a day (1, 2 ... 32 minutes, then hourly), where the README said three:
    # a relay down over a weekend lost the mail.
    from judge.mail.outbox import backoff

    tried_for = sum((backoff(n) for n in range(MAX_ATTEMPTS - 1)), timedelta())
    assert tried_for == timedelta(days=3, minutes=3)


def test_the_mails_ahead_are_chosen_unread_and_only_those_chosen_read_whole(
    tmp_path: Path,
) -> None:
    """due_heads gives what choosing needs (no text, no picture's bytes); bodies reads
    the mails chosen whole, in the order given, leaving out one sent meanwhile."""
    db = open_db(tmp_path / "j.db")
    ids = _queue_results(db, ['{"name":"A.png"}', None, '{"name":"A.png"}'])
    picture = outbox.Attachment("A.png", b"png-A")
    outbox.finish_many(db, [(ids[2], '{"name":"A.png"}', picture)], NOW)
    heads = outbox.due_heads(db, NOW)
    # The results ready to send (none to draw, or drawn) first: see the lanes' tests.
    assert heads == [
        outbox.Head(ids[1], ("p1@example.org",), None, False),
        outbox.Head(ids[2], ("p2@example.org",), None, False),
        outbox.Head(ids[0], ("p0@example.org",), '{"name":"A.png"}', False),
    ]
    outbox.mark_sent_many(db, [(ids[1], "sent")], NOW)
    raws = dict(db.execute("SELECT id, raw FROM outbound").fetchall())
    whole = outbox.bodies(db, [heads[1], heads[0], heads[2]])
    assert [(m.id, m.raw, m.picture, m.attachment) for m in whole] == [
        (ids[2], raws[ids[2]], None, picture),
        (ids[0], raws[ids[0]], '{"name":"A.png"}', None),
    ]
    assert outbox.due(db, NOW) == outbox.bodies(db, outbox.due_heads(db, NOW))
