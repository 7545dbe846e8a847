"""The board pictures drawn in worker processes (judge/service/picture_pool.py, issue 16):
the mail sent carries exactly the PNG render_png gives, a slow picture holds back no
acknowledgement and no other game's mail (only the later mails to its own recipients), a
worker that dies or a picture that fails is drawn again once by a new pool, then the mail
goes as its text alone; and a daemon killed with pictures in its pool sends every mail
once, byte for byte the mail a judge that never crashed sends.

The slow, dying and failing pictures are the stand-ins of tests/picture_gates.py, steered
by the picture's spec; no test here depends on how long anything takes.
"""

from __future__ import annotations

import base64
import email
import json
import signal
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.policy import default
from pathlib import Path

import pytest
from judge_harness import CONFIG, Judge
from live_judge import start_judge, wait_until
from picture_gates import gated, maps_ready, png_for
from smtp_sink import SmtpSink, free_port
from test_pictures import picture_of, spring_with_a_list

from judge.game import pictures
from judge.mail import compose, send_threads
from judge.mail.outbox import MaildirDelivery, drain, wire
from judge.service import picture_pool
from judge.service.picture_pool import PicturePool
from judge.store import outbox
from judge.store.db import open_db

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


@pytest.fixture
def pool() -> Iterator[PicturePool]:
    """A pool of two workers drawing the stand-ins of tests/picture_gates.py."""
    made = PicturePool(workers=2, draw=gated)
    yield made
    made.close()


class _Recording(MaildirDelivery):
    """A Maildir delivery that remembers the order of what it delivered (outbound ids)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.order: list[int] = []
        self.sent: dict[int, bytes] = {}  # the bytes delivered, by outbound id

    def deliver(self, item: outbox.Outbound) -> str:
        self.order.append(item.id)
        self.sent[item.id] = wire(item)
        return super().deliver(item)


def _queue(db, to: str, kind: str, picture: dict | None = None) -> int:
    mid = compose.new_message_id(CONFIG)
    raw = compose.build(CONFIG, [to], f"{kind} to {to}", "Body\n", NOW, mid)
    spec = json.dumps(picture) if picture is not None else None
    with db.atomic():
        return outbox.queue(db, raw, mid, [to], kind, NOW, picture=spec)


def _drain_until(db, delivery, attach, done, now: datetime = NOW) -> None:
    """Drain at `now` (as the daemon's passes do) until `done()`; fails the test if it
    never is."""

    def step() -> bool:
        drain(db, delivery, lambda: now, 100, attach_picture=attach, look_ahead=400)
        return bool(done())

    assert wait_until(step, timeout=60)


def _sent(db) -> set[int]:
    return {r[0] for r in db.execute("SELECT id FROM outbound WHERE state = 'sent'")}


def test_a_slow_picture_holds_back_neither_an_acknowledgement_nor_another_games_mail(
    tmp_path: Path, pool: PicturePool
) -> None:
    db = open_db(tmp_path / "j.db")
    gate = tmp_path / "gate"
    slow = {"name": "board-A.png", "gate": str(gate)}  # game A's picture: waits for `gate`
    quick = {"name": "board-B.png"}
    a_to_a = _queue(db, "a@example.org", "results", slow)
    a_to_b = _queue(db, "b@example.org", "results", slow)
    b_to_c = _queue(db, "c@example.org", "results", quick)
    later_to_a = _queue(db, "a@example.org", "reply")  # behind game A's results to a@
    ack_to_d = _queue(db, "d@example.org", "reply")
    delivery = _Recording(tmp_path / "out")
    attach = pictures.Attacher(pool)

    _drain_until(db, delivery, attach, lambda: {b_to_c, ack_to_d} <= _sent(db))
    assert delivery.order == [ack_to_d, b_to_c]  # the ack first (its lane), then game B
    waiting = "SELECT id, picture IS NOT NULL FROM outbound WHERE state = 'queued' ORDER BY id"
    assert db.execute(waiting).fetchall() == [(a_to_a, 1), (a_to_b, 1), (later_to_a, 0)]

    gate.touch()  # game A's picture is drawn now
    _drain_until(db, delivery, attach, lambda: len(_sent(db)) == 5)
    assert delivery.order == [ack_to_d, b_to_c, a_to_a, a_to_b, later_to_a]
    a_picture = png_for(json.dumps(slow))
    for outbound_id, spec in ((a_to_a, slow), (b_to_c, quick)):
        name, png = _attached(delivery.sent[outbound_id])
        assert (name, png) == (spec["name"], png_for(json.dumps(spec)))
    assert _attached(delivery.sent[a_to_b])[1] == a_picture  # one picture, two mails


def _attached(raw: bytes) -> tuple[str, bytes]:
    msg = email.message_from_bytes(raw, policy=default)
    text, image = msg.iter_parts()
    assert text.get_content_type() == "text/plain" and image.get_content_type() == "image/png"
    return image.get_filename(), image.get_content()


def test_a_worker_that_dies_is_replaced_and_its_picture_drawn_again(
    tmp_path: Path, pool: PicturePool
) -> None:
    once = json.dumps({"name": "a.png", "die": str(tmp_path / "died-once")})
    assert pool.drawn(once) == pictures.Drawn(png_for(once))
    assert (tmp_path / "died-once").exists() and pool.generation == 1  # a new pool drew it

    always = json.dumps({"name": "b.png", "die": str(tmp_path / "dies"), "always": True})
    drawn = pool.drawn(always)
    assert drawn.png is None and drawn.error.startswith("BrokenProcessPool")
    assert pool.generation == 3  # drawn twice, each time by a new pool: then given up
    fine = json.dumps({"name": "c.png"})
    assert pool.drawn(fine) == pictures.Drawn(png_for(fine))  # the pool after that works


def test_a_picture_stuck_in_its_worker_is_stopped_and_given_up_after_two_tries(
    tmp_path: Path, pool: PicturePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(picture_pool, "PICTURE_TIMEOUT", 0.2)
    stuck = json.dumps({"name": "a.png", "gate": str(tmp_path / "never")})
    drawn = pool.drawn(stuck)
    assert drawn.png is None and drawn.error.startswith("TimeoutError")
    assert pool.generation == 2  # its workers stopped each time, new ones started
    fine = json.dumps({"name": "b.png"})
    assert pool.drawn(fine) == pictures.Drawn(png_for(fine))


def test_a_picture_that_fails_twice_leaves_its_mail_as_the_text_alone(
    tmp_path: Path, pool: PicturePool
) -> None:
    db = open_db(tmp_path / "j.db")
    failing = _queue(db, "a@example.org", "results", {"name": "x.png", "raise": True})
    text = db["outbound"].get(failing)["raw"]
    delivery = _Recording(tmp_path / "out")
    _drain_until(db, delivery, pictures.Attacher(pool), lambda: _sent(db) == {failing})
    row = db["outbound"].get(failing)
    assert (row["raw"], row["picture"], row["attempts"]) == (text, None, 1)
    assert (row["picture_id"], delivery.sent[failing]) == (None, text)
    assert pool.generation == 0  # a drawing that raised broke no worker


def test_the_pool_draws_the_png_render_png_gives_and_the_mail_carries_it(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    spring_with_a_list(judge)
    specs = {r[0] for r in judge.db.execute("SELECT picture FROM outbound WHERE picture != ''")}
    [spec] = specs  # the nine results mails share one picture
    expected = pictures.draw_now(spec)  # render_png of the spec, in this process
    results = {
        r[0] for r in judge.db.execute("SELECT message_id FROM outbound WHERE picture IS NOT NULL")
    }
    drawer = PicturePool(workers=2)
    try:
        delivery = MaildirDelivery(tmp_path / "out")
        attach = pictures.Attacher(drawer)
        queued = "SELECT COUNT(*) FROM outbound WHERE state = 'queued'"
        left = lambda: judge.db.execute(queued).fetchone()[0]  # noqa: E731
        _drain_until(judge.db, delivery, attach, lambda: not left(), judge.now)
    finally:
        drawer.close()
    sent = [
        email.message_from_bytes(p.read_bytes(), policy=default)
        for p in (tmp_path / "out" / "new").iterdir()
    ]
    carried = [picture_of(m) for m in sent if m["Message-ID"] in results]
    assert len(carried) == 9
    assert {png for _, png in carried} == {expected}


@pytest.mark.parametrize("crash", ["pictures-begun:1", "picture-stored:1"])
def test_a_daemon_killed_with_pictures_in_its_pool_sends_each_mail_once_as_stored(
    tmp_path: Path, crash: str
) -> None:
    """Killed right after handing the pictures to its pool (crash point pictures-begun),
    the daemon has stored and sent nothing of them; its next life draws them again and
    sends every mail once, byte for byte what an in-process drain of a copy sends.
    Killed right after storing the first pictures drawn (picture-stored: drawn ahead of
    their mails' turn, or as these came up), it has sent none of their mails; its next
    life sends the stored bytes, each mail once."""
    judge = Judge(tmp_path)
    spring_with_a_list(judge)
    rows = "SELECT message_id, picture IS NOT NULL FROM outbound WHERE state = 'queued'"
    queued = dict(judge.db.execute(rows).fetchall())
    assert sum(queued.values()) == 9
    reference = _reference(judge, tmp_path)
    store = judge.config.database
    judge.db.conn.close()
    port = free_port()
    with SmtpSink() as sink:
        config = tmp_path / "judge.toml"
        config.write_text(
            f'[judge]\nname = "TEST"\naddress = "judge@example.org"\ndatabase = "{store}"\n'
            f'[inbound]\nmode = "smtp"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = {port}\n'
            f'[outbound]\nmode = "smtp"\n[outbound.smtp]\nhost = "127.0.0.1"\nport = {sink.port}\n'
        )
        killed = start_judge(config, port, crash=crash, seconds=60)
        assert killed.wait(60) == -signal.SIGKILL
        with_picture = {mid for mid, has in queued.items() if has}
        # (the daemon on the wall clock processes the game's next deadline too: its mails
        # are not these)
        if crash.startswith("pictures-begun"):
            assert _states(store, queued) == {"queued"} and sink.messages == []
            assert _pictured(store) & set(queued) == with_picture
        else:
            # (the first picture stored may be that next deadline's)
            assert _states(store, dict.fromkeys(with_picture, 1)) == {"queued"}
            sent = {email.message_from_bytes(r.data)["Message-ID"] for r in sink.messages}
            assert not sent & with_picture

        proc = start_judge(config, port, seconds=60)
        try:
            assert wait_until(lambda: _states(store, queued) == {"sent"}, timeout=120)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(30) == 0
        received = sink.messages
    copies: dict[str, list[bytes]] = {}
    for r in received:
        copies.setdefault(email.message_from_bytes(r.data)["Message-ID"], []).append(r.data)
    for mid in queued:
        [data] = copies[mid]  # once each
        assert data.replace(b"\r\n", b"\n") == reference[mid].replace(b"\r\n", b"\n")


def _reference(judge: Judge, tmp_path: Path) -> dict[str, bytes]:
    """The queued mails as a judge that never crashes sends them: a copy of the store
    drained in this process."""
    path = tmp_path / "reference.db"
    with sqlite3.connect(path) as copy:
        judge.db.conn.backup(copy)
    db = open_db(path)
    drain(
        db,
        MaildirDelivery(tmp_path / "reference"),
        lambda: judge.now,
        attach_picture=pictures.finish,
    )
    db.conn.close()
    delivered = (tmp_path / "reference" / "new").iterdir()
    return {email.message_from_bytes(raw)["Message-ID"]: raw for raw in map(_bytes, delivered)}


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def _states(store: Path, mids: dict[str, int]) -> set[str]:
    db = open_db(store)
    try:
        marks = ", ".join("?" for _ in mids)
        rows = db.execute(f"SELECT state FROM outbound WHERE message_id IN ({marks})", list(mids))
        return {r[0] for r in rows}
    finally:
        db.conn.close()


def _pictured(store: Path) -> set[str]:
    db = open_db(store)
    try:
        rows = db.execute("SELECT message_id FROM outbound WHERE picture IS NOT NULL")
        return {r[0] for r in rows}
    finally:
        db.conn.close()


@pytest.mark.parametrize("size", [0, 1, 57, 58, 114, 80_000])
def test_the_attached_picture_is_base64_in_lines_of_76_as_before(size: int) -> None:
    """The encoding made faster (once for each mail of a burst) gives the same bytes."""
    png = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    raw = compose.attach_picture(b"Subject: x\r\n\r\nBody\r\n", "a.png", png, "<m@example.org>")
    expected = base64.encodebytes(png).replace(b"\n", b"\r\n")
    assert b"Content-Transfer-Encoding: base64\r\n\r\n" + expected + b"--=_judge_" in raw


def test_pictures_drawn_ahead_are_stored_with_their_mails_before_these_can_be_sent(
    tmp_path: Path, pool: PicturePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the send threads are full (a deadline burst's games still being processed),
    the pictures of the mails queued are drawn and stored, their mails finished: the
    workers draw on instead of waiting for the mails' turn, and the daemon does not hold
    the drawn pictures in memory."""
    db = open_db(tmp_path / "j.db")
    a, b = {"name": "board-A.png"}, {"name": "board-B.png"}
    a_ids = [_queue(db, "a@example.org", "results", a), _queue(db, "b@example.org", "results", a)]
    b_ids = [_queue(db, "c@example.org", "results", b)]
    monkeypatch.setattr(send_threads, "MAX_IN_FLIGHT", 0)  # no room to send any mail
    threads = send_threads.SendThreads([])
    attach = pictures.Attacher(pool)
    rows = "SELECT id, state, picture, picture_id FROM outbound ORDER BY id"

    def step() -> bool:
        send_threads.drain(db, threads, lambda: NOW, 100, attach_picture=attach)
        return all(r[2] is None for r in db.execute(rows))

    assert wait_until(step, timeout=30)
    stored = {name: (i, png) for i, name, png in db.execute("SELECT id, name, png FROM pictures")}
    assert {name: png for name, (_, png) in stored.items()} == {
        "board-A.png": png_for(json.dumps(a)),
        "board-B.png": png_for(json.dumps(b)),
    }
    a_id, b_id = stored["board-A.png"][0], stored["board-B.png"][0]
    assert db.execute(rows).fetchall() == [
        (a_ids[0], "queued", None, a_id),
        (a_ids[1], "queued", None, a_id),
        (b_ids[0], "queued", None, b_id),
    ]
    assert attach.firsts == {} and not pool.holds(json.dumps(a))  # nothing kept here


def test_the_pool_gives_each_picture_drawn_once_and_keeps_a_failed_one_to_try_again(
    pool: PicturePool,
) -> None:
    fine, failing = json.dumps({"name": "a.png"}), json.dumps({"name": "b.png", "raise": True})
    pool.start([fine, failing])
    assert wait_until(lambda: not pool.drawing(), timeout=30)
    assert pool.take_drawn() == [(fine, png_for(fine))]
    assert pool.take_drawn() == []
    assert (pool.holds(fine), pool.holds(failing)) == (False, True)
    drawn = pool.drawn(failing)  # its second try, then given up: its mails go as text
    assert drawn.png is None and drawn.error.startswith("ValueError")


@pytest.mark.parametrize(
    ("warm", "ready"),
    [((), []), (("standard",), ["standard"]), (("nosuch", "standard"), ["standard"])],
)
def test_each_worker_readies_the_maps_it_is_given_before_its_first_task(
    warm: tuple[str, ...], ready: list[str]
) -> None:
    """A map that cannot be read (`nosuch`) is left, and the worker goes on with the
    others, then takes its tasks: the pool is not broken by it."""
    drawer = PicturePool(workers=1, draw=maps_ready, warm=warm)
    try:
        drawn = drawer.drawn('{"name": "maps.png"}')
    finally:
        drawer.close()
    assert drawn == pictures.Drawn(json.dumps(ready).encode())
    assert drawer.generation == 0


def test_a_map_that_takes_too_long_to_ready_is_left_and_the_alarm_put_back() -> None:
    """picture_pool.time_limit, round a worker's readying of each map: a block that runs
    past its seconds raises TimeoutError; one within them runs to its end, and nothing
    fires after it; the handler of SIGALRM before it is put back."""
    calls = []
    before = signal.signal(signal.SIGALRM, lambda *_: calls.append("alarm"))
    try:
        with pytest.raises(TimeoutError, match="over 0 s"), picture_pool.time_limit(0.05):
            while True:  # a drawing that never ends, in Python
                time.sleep(0.001)
        with picture_pool.time_limit(5.0):
            done = True
        assert done and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        signal.raise_signal(signal.SIGALRM)
        assert calls == ["alarm"]
    finally:
        signal.signal(signal.SIGALRM, before)
