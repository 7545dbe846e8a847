"""The SMTP receiver's caps on connections at once, in all and per peer: past a cap a
connection gets one 421 line and is closed before any command is read, and each
connection's slot is freed however it ends (QUIT, the client vanishing, the timeout).

Against the real receiver on 127.0.0.1 with small caps; the other loopback addresses
(127.0.0.2, ...) stand for other hosts. Every wait polls a condition with a deadline.
"""

from __future__ import annotations

import logging
import smtplib
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from smtp_sink import free_port

from judge.config import Config
from judge.mail import smtp_limits
from judge.mail.smtp_in import SmtpReceiver
from judge.mail.smtp_limits import (
    TOO_MANY,
    TOO_MANY_FROM_PEER,
    ConnectionSlots,
    peer_key,
    refusal_reply,
)
from judge.store.db import open_db

REFUSED = b"421 4.7.0 example.org Sorry, too many connections; please try again later\r\n"
REFUSED_PEER = (
    b"421 4.7.0 example.org Sorry, too many connections from this address;"
    b" please try again later\r\n"
)
CLOSED_SHARE = (
    b"421 4.7.0 example.org Sorry, too many connections from your address while the"
    b" receiver is full; please try again later\r\n"
)
MAIL = b"From: p0@example.org\r\nMessage-ID: <cap@example.org>\r\nSubject: x\r\n\r\nHELP\r\n"


def _until(condition: Callable[[], bool], what: str, seconds: float = 10) -> None:
    """Poll `condition` until it holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still not: {what}"
        time.sleep(0.01)


@contextmanager
def _receiver(
    tmp_path: Path,
    total: int,
    per_peer: int,
    timeout: float = 60,
    seconds: Callable[[], float] = lambda: 0.0,
) -> Iterator[tuple[SmtpReceiver, Config]]:
    """A receiver with these caps; `seconds` is its slots' clock (still unless given, so
    that no connection is ever idle long enough to be closed for room)."""
    base = Config(name="TEST", address="judge@example.org", database=tmp_path / "j.db")
    config = replace(base, smtp_in=replace(base.smtp_in, host="127.0.0.1", port=free_port()))
    clock = lambda: datetime(2026, 11, 21, 12, 0, tzinfo=UTC)  # noqa: E731
    slots = ConnectionSlots(total, per_peer, clock=seconds)
    receiver = SmtpReceiver(config, clock, slots=slots, timeout=timeout)
    receiver.start()
    try:
        # aiosmtpd's start opens a connection of its own to check the server answers.
        _until(lambda: receiver.slots.open_count() == 0, "the start's own connection closed")
        yield receiver, config
    finally:
        receiver.stop()


def _connect(config: Config, source: str = "127.0.0.1") -> socket.socket:
    port = config.smtp_in.port
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def _line(conn: socket.socket) -> bytes:
    """Read up to the end of one line."""
    got = b""
    while not got.endswith(b"\r\n"):
        chunk = conn.recv(1)
        assert chunk, got
        got += chunk
    return got


def _to_eof(conn: socket.socket) -> bytes:
    """Everything the receiver sends until it closes the connection."""
    got = b""
    while chunk := conn.recv(4096):
        got += chunk
    return got


def _say(conn: socket.socket, line: bytes, wanted: bytes) -> None:
    conn.sendall(line)
    got = b""
    while wanted not in got:
        chunk = conn.recv(4096)
        assert chunk, got
        got += chunk


def _send_mail(config: Config) -> dict[str, tuple[int, bytes]]:
    with smtplib.SMTP("127.0.0.1", config.smtp_in.port, timeout=10) as smtp:
        return smtp.sendmail("p0@example.org", ["judge@example.org"], MAIL)


def _stored(config: Config) -> list[tuple[str, str, str, str]]:
    db = open_db(config.database)
    try:
        return db.execute(
            "SELECT message_id, sender, return_path, source FROM inbound ORDER BY id"
        ).fetchall()
    finally:
        db.conn.close()


STORED = [("<cap@example.org>", "p0@example.org", "p0@example.org", "smtp")]


def test_a_connection_past_the_cap_gets_one_421_line_and_is_closed(tmp_path: Path) -> None:
    with _receiver(tmp_path, total=3, per_peer=3) as (receiver, config):
        held = [_connect(config) for _ in range(3)]
        try:
            for conn in held:
                assert _line(conn).startswith(b"220 example.org ")
            assert receiver.slots.open_count() == 3
            with _connect(config) as extra:
                assert _to_eof(extra) == REFUSED
            assert receiver.slots.open_count() == 3
            held.pop(0).close()
            _until(lambda: receiver.slots.open_count() == 2, "a slot freed")
            assert _send_mail(config) == {}
            _until(lambda: receiver.slots.open_count() == 2, "the mail's slot freed")
        finally:
            for conn in held:
                conn.close()
    assert _stored(config) == STORED


@pytest.mark.parametrize("how", ["reset", "closed"])
def test_a_client_vanishing_mid_data_frees_its_slot(tmp_path: Path, how: str) -> None:
    with _receiver(tmp_path, total=1, per_peer=1) as (receiver, config):
        conn = _connect(config)
        assert _line(conn).startswith(b"220 ")
        _say(conn, b"EHLO gone\r\nMAIL FROM:<g@example.org>\r\n", b"250 OK")
        _say(conn, b"RCPT TO:<judge@example.org>\r\nDATA\r\n", b"354")
        conn.sendall(b"From: g@example.org\r\nMessage-ID: <gone@example.org>\r\n\r\nHEL")
        if how == "reset":  # an RST: the client's host gone, not a polite close
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()
        _until(lambda: receiver.slots.open_count() == 0, "the vanished client's slot freed")
        assert _send_mail(config) == {}
    assert _stored(config) == STORED


def test_a_silent_client_is_closed_by_the_timeout_and_frees_its_slot(tmp_path: Path) -> None:
    with _receiver(tmp_path, total=1, per_peer=1, timeout=1) as (receiver, config):
        with _connect(config) as silent:
            assert _line(silent).startswith(b"220 ")
            assert _to_eof(silent) == b""  # only the timeout closes it
        _until(lambda: receiver.slots.open_count() == 0, "the silent client's slot freed")
        assert _send_mail(config) == {}
    assert _stored(config) == STORED


def test_one_peer_cannot_take_every_slot(tmp_path: Path) -> None:
    with _receiver(tmp_path, total=3, per_peer=2) as (receiver, config):
        held = [_connect(config), _connect(config)]
        try:
            for conn in held:
                assert _line(conn).startswith(b"220 ")
            with _connect(config) as third:
                assert _to_eof(third) == REFUSED_PEER  # one slot left, not for this peer
            held.append(_connect(config, source="127.0.0.2"))
            assert _line(held[-1]).startswith(b"220 ")
            assert receiver.slots.open_count("127.0.0.1") == 2
            # Every slot taken: a third host gets one of the first's two (its fair share),
            # the one silent longest, the oldest of those.
            with _connect(config, source="127.0.0.3") as other_host:
                assert _line(other_host).startswith(b"220 ")
                assert _to_eof(held[0]) == CLOSED_SHARE
                _until(lambda: receiver.slots.open_count("127.0.0.1") == 1, "its slot given")
                # Now each holds one: no one's is taken for another.
                with _connect(config) as again:
                    assert _to_eof(again) == REFUSED
                with _connect(config, source="127.0.0.4") as fourth:
                    assert _to_eof(fourth) == REFUSED
            _until(lambda: receiver.slots.open_count("127.0.0.3") == 0, "a slot freed")
            with _connect(config) as again:
                assert _line(again).startswith(b"220 ")
        finally:
            for conn in held:
                conn.close()


def test_refusals_are_logged_once_a_minute_per_peer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.INFO, logger="judge.smtp"),
        _receiver(tmp_path, total=1, per_peer=1) as (_, config),
        _connect(config) as held,
    ):
        assert _line(held).startswith(b"220 ")
        for source in ["127.0.0.1"] * 5 + ["127.0.0.2"] * 2:
            with _connect(config, source=source) as refused:
                assert _to_eof(refused) == REFUSED
    lines = [r.getMessage() for r in caplog.records if "refused a connection" in r.getMessage()]
    assert lines == [
        "refused a connection from 127.0.0.1: too many connections"
        " (1 open, 0 refused since the last such line)",
        "refused a connection from 127.0.0.2: too many connections"
        " (1 open, 0 refused since the last such line)",
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records if "refused a" in r.msg)


def test_connections_opening_and_closing_at_once_are_counted_right(tmp_path: Path) -> None:
    answers: list[bytes] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def one(source: str) -> bytes:
        with _connect(config, source=source) as conn:
            first = _line(conn)
            if not first.startswith(b"220 "):
                assert _to_eof(conn) == b""
                return first
            try:
                conn.sendall(b"QUIT\r\n")
                end = _to_eof(conn)
            except ConnectionError:  # closed for room before its QUIT was read
                end = CLOSED_SHARE
            # Or closed for a host holding fewer (its fair share of the slots).
            assert end in (b"221 Bye\r\n", CLOSED_SHARE)
            return b"220"

    def client(source: str) -> None:
        try:
            for _ in range(15):
                answer = one(source)
                with lock:
                    answers.append(answer)
        except BaseException as e:  # reported by the test's own thread
            with lock:
                failures.append(e)

    with _receiver(tmp_path, total=4, per_peer=3) as (receiver, config):
        threads = [
            threading.Thread(target=client, args=(f"127.0.0.{1 + n % 3}",)) for n in range(12)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        # (CLOSED_SHARE: closed for room before its greeting was read.)
        assert set(answers) <= {b"220", REFUSED, REFUSED_PEER, CLOSED_SHARE} and b"220" in answers
        _until(lambda: receiver.slots.open_count() == 0, "every slot freed")
        assert [receiver.slots.open_count(f"127.0.0.{n}") for n in (1, 2, 3)] == [0, 0, 0]
        held = [_connect(config, source=f"127.0.0.{1 + n % 2}") for n in range(4)]
        try:
            assert [_line(conn)[:4] for conn in held] == [b"220 "] * 4
        finally:
            for conn in held:
                conn.close()


# A full receiver still takes new mail: the connection silent longest gives its slot.

CLOSED_IDLE = (
    b"421 4.7.0 example.org Sorry, idle too long while the receiver is full;"
    b" please try again later\r\n"
)


def _greeted(config: Config, source: str) -> socket.socket:
    conn = _connect(config, source=source)
    assert _line(conn).startswith(b"220 ")
    return conn


def _player_mail(config: Config, source: str) -> dict[str, tuple[int, bytes]]:
    port = config.smtp_in.port
    with smtplib.SMTP("127.0.0.1", port, timeout=10, source_address=(source, 0)) as smtp:
        return smtp.sendmail("p0@example.org", ["judge@example.org"], MAIL)


def test_connections_from_four_hosts_cannot_keep_a_players_mta_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The caps as they ship: 32 connections, 8 a peer, held open from four addresses.
    Fresh (heard from just now), they used to keep a player's MTA out until they had been
    silent IDLE_MAKES_ROOM_SECONDS, and an attacker who said NOOP every few seconds kept
    it out for good. A peer holding more than the newcomer's would now gives one (its
    fair share): the player's mail is taken at once, and the attacker's peer, coming
    back, is refused."""
    now = [0.0]
    total, per_peer = smtp_limits.MAX_SMTP_CONNECTIONS, smtp_limits.MAX_SMTP_CONNECTIONS_PER_PEER
    assert (total, per_peer) == (32, 8)
    with _receiver(tmp_path, total, per_peer, timeout=300, seconds=lambda: now[0]) as (
        receiver,
        config,
    ):
        held = [_greeted(config, f"127.0.0.{2 + n % 4}") for n in range(total)]
        try:
            assert receiver.slots.open_count() == 32
            now[0] = smtp_limits.IDLE_MAKES_ROOM_SECONDS - 0.5  # none silent long enough
            assert _player_mail(config, "127.0.0.9") == {}
            # The first connection of the four equal peers was closed for it, with a word.
            assert _to_eof(held[0]) == CLOSED_SHARE
            closed = [m for r in caplog.records if "closed a" in (m := r.getMessage())]
            assert closed == [
                "closed a connection from 127.0.0.2 for a new one from 127.0.0.9"
                " (32 open, 0 closed since the last such line)"
            ]
            _until(lambda: receiver.slots.open_count() == 31, "the player's slot freed")
            assert [receiver.slots.open_count(f"127.0.0.{n}") for n in (2, 3, 4, 5, 9)] == [
                7,
                8,
                8,
                8,
                0,
            ]
            # The peer that gave one cannot take it back from the others (7 + 1 is not
            # more than they hold), and once full again it is refused.
            back = _greeted(config, "127.0.0.2")
            held.append(back)
            with _connect(config, source="127.0.0.2") as again:
                assert _to_eof(again) == REFUSED
            with _connect(config, source="127.0.0.3") as other:
                assert _to_eof(other) == REFUSED
            # Once they have been silent long enough, the idle rule as before.
            now[0] = smtp_limits.IDLE_MAKES_ROOM_SECONDS
            assert _player_mail(config, "127.0.0.9") == {}
            assert _to_eof(held[1]) == CLOSED_IDLE
        finally:
            for conn in held:
                conn.close()
    assert _stored(config) == STORED


def test_room_is_made_from_the_peer_holding_most_and_never_from_one_heard_lately(
    tmp_path: Path,
) -> None:
    now = [0.0]
    with _receiver(tmp_path, total=4, per_peer=3, seconds=lambda: now[0]) as (receiver, config):
        lone = _greeted(config, "127.0.0.2")  # the oldest, from a peer with one
        now[0] = 1.0
        many = [_greeted(config, "127.0.0.3") for _ in range(3)]
        try:
            now[0] = 15.0
            _say(many[0], b"NOOP\r\n", b"250 ")  # heard: not idle now
            now[0] = 20.0  # every one silent 10 s or more but many[0], silent 5 s
            with _connect(config, source="127.0.0.4") as first:
                assert _line(first).startswith(b"220 ")
                # The peer holding three gives one, its longest silent: not the lone one.
                assert _to_eof(many[1]) == CLOSED_IDLE
                with _connect(config, source="127.0.0.5") as second:
                    assert _line(second).startswith(b"220 ")
                    assert _to_eof(many[2]) == CLOSED_IDLE
                    # Then each peer holds one, lone's the longest silent; many[0] and the
                    # two new ones, heard within 10 s, are never closed for room.
                    with _connect(config, source="127.0.0.6") as third:
                        assert _line(third).startswith(b"220 ")
                        assert _to_eof(lone) == CLOSED_IDLE
                        with _connect(config, source="127.0.0.7") as refused:
                            assert _to_eof(refused) == REFUSED
                        assert receiver.slots.open_count() == 4
            _say(many[0], b"NOOP\r\n", b"250 ")  # still served
        finally:
            for conn in [lone, *many]:
                conn.close()


def test_bytes_dribbled_without_a_line_do_not_keep_a_connection_from_being_idle(
    tmp_path: Path,
) -> None:
    now = [0.0]
    with (
        _receiver(tmp_path, total=1, per_peer=1, seconds=lambda: now[0]) as (receiver, config),
        _greeted(config, "127.0.0.2") as dribbler,
    ):
        now[0] = 11.0  # had the bytes counted, the connection was heard at 11
        for _ in range(11):
            dribbler.sendall(b"N")
        # The receiver has read them: they wait in its reader for the line's end.
        [connection] = list(receiver.slots._held)
        _until(lambda: bytes(connection._reader._buffer) == b"N" * 11, "the bytes read")
        with _connect(config, source="127.0.0.3") as player:
            assert _line(player).startswith(b"220 ")
            assert _to_eof(dribbler) == CLOSED_IDLE
            assert receiver.slots.open_count() == 1


# The counting on its own, with peers named as the receiver names them.


def test_slots_are_counted_in_all_and_per_peer() -> None:
    slots = ConnectionSlots(total=3, per_peer=2)
    assert [slots.admit(p) for p in ["a", "a", "a", "b", "c"]] == [
        None,
        None,
        TOO_MANY_FROM_PEER,
        None,
        TOO_MANY,
    ]
    assert (slots.open_count(), slots.open_count("a"), slots.open_count("c")) == (3, 2, 0)
    slots.release("c")  # never admitted: frees nothing
    assert slots.open_count() == 3
    assert slots.admit("b") == TOO_MANY
    slots.release("a")
    assert slots.admit("b") is None
    assert slots.admit("a") == TOO_MANY
    for peer in ["a", "b", "b"]:
        slots.release(peer)
    assert (slots.open_count(), slots.open_count("a"), slots.open_count("b")) == (0, 0, 0)
    assert [slots.admit("a"), slots.admit("a")] == [None, None]


def test_a_refusal_is_logged_at_most_once_a_minute_per_peer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    slots = ConnectionSlots(total=1, per_peer=1, clock=lambda: now[0])
    assert slots.admit("a") is None
    with caplog.at_level(logging.INFO, logger="judge.smtp"):
        for when, peer in [(0, "a"), (10, "a"), (59.9, "a"), (30, "b"), (60, "a"), (61, "a")]:
            now[0] = when
            assert slots.admit(peer) is not None
    assert [r.getMessage() for r in caplog.records] == [
        "refused a connection from a: too many connections (1 open, 0 refused since the last"
        " such line)",
        "refused a connection from b: too many connections (1 open, 0 refused since the last"
        " such line)",
        "refused a connection from a: too many connections (1 open, 2 refused since the last"
        " such line)",
    ]


def test_the_peers_remembered_for_the_log_are_bounded(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(smtp_limits, "REFUSAL_LOG_PEERS", 3)
    now = [0.0]
    slots = ConnectionSlots(total=0, per_peer=1, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="judge.smtp"):
        for peer in ["p0", "p1", "p2", "p3", "p4"]:
            assert slots.admit(peer) == TOO_MANY
        now[0] = 60
        assert slots.admit("p4") == TOO_MANY  # the older entries expired: room again
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "refused a connection from p0",
        "refused a connection from p1",
        "refused a connection from p2",
        "refused a connection from p4",
    ]
    assert len(slots._logged) == 1


@pytest.mark.parametrize(
    ("peername", "key"),
    [
        (("192.0.2.7", 40000), "192.0.2.7"),
        (("::ffff:192.0.2.7", 40000, 0, 0), "192.0.2.7"),
        (("2001:db8:1:2::1", 40000, 0, 0), "2001:db8:1:2::/64"),
        (("2001:db8:1:2:ffff:ffff:ffff:ffff", 40000, 0, 0), "2001:db8:1:2::/64"),
        (("2001:db8:1:3::1", 40000, 0, 0), "2001:db8:1:3::/64"),
        (("fe80::1%eth0", 40000, 0, 2), "fe80::/64"),
        (None, "unknown"),
        ("", "unknown"),
        ((), "unknown"),
        (("not an address " * 20, 1), ("not an address " * 20)[:100]),
    ],
)
def test_a_peer_is_named_by_its_address_or_its_ipv6_64(peername: object, key: str) -> None:
    # One machine holds a whole IPv6 /64: its addresses are one peer.
    assert peer_key(peername) == key


def test_the_refusal_is_one_ascii_line() -> None:
    assert refusal_reply("example.org", TOO_MANY) == REFUSED
    assert refusal_reply("exämple.org", TOO_MANY).startswith(b"421 4.7.0 ex?mple.org Sorry")
