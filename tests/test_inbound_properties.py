"""Property-based tests of the whole inbound path (issue 14): no mail can stop the judge.

Random bytes, and mails built from random header values (From, Reply-To, Subject,
Message-ID, In-Reply-To, References, Content-Type, Return-Path: non-ASCII, raw 8-bit
bytes, empty, `<>`, very long) with bodies of random command lines (SIGNON, SET ADDRESS,
SET DEADLINE and others with random arguments, orders, press), are stored with
judge.store.inbox.ingest in a real SQLite file holding a started game, handled by
judge.service.handling.handle_waiting and their replies delivered by judge.mail.outbox.drain
into a Maildir, at a fixed clock. The properties: neither call raises, every stored
message ends handled, ignored or failed, and every queued reply is delivered.
Derandomized, so every run sees the same examples.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from judge_harness import Judge

from judge.engine.geography import MapError
from judge.game import pictures
from judge.mail import outbox
from judge.service.handling import handle_waiting
from judge.store import games, inbox
from judge.variants.maps import load_map

PROFILE = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
}
FINAL = {inbox.HANDLED, inbox.IGNORED, inbox.FAILED}


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, datetime]:
    """A store on disk with a started game war1 (players p0..p6@example.org, passwords
    pw0..pw6, France is p2; the master gm@example.org, masterpw), its mail delivered,
    and the time it was started at, copied per example."""
    template = tmp_path_factory.mktemp("template")
    judge = Judge(template)
    judge.start_game()
    judge.deliver()
    judge.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    judge.db.conn.close()
    return template / "j.db", judge.now


@pytest.fixture
def fresh(started: tuple[Path, datetime]) -> Iterator[Callable[[], Judge]]:
    """A function giving a Judge on a fresh copy of the started game, per example."""
    made: list[Path] = []

    def make() -> Judge:
        folder = Path(tempfile.mkdtemp(prefix="inbound-"))
        made.append(folder)
        shutil.copyfile(started[0], folder / "j.db")
        judge = Judge(folder)
        judge.now = started[1] + timedelta(minutes=1)  # the clock stands still from here
        return judge

    yield make
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def _handle_and_deliver(judge: Judge, mails: list[bytes], return_path: str | None) -> None:
    """The real path at a fixed clock; then the properties."""
    for raw in mails:
        inbox.ingest(judge.db, raw, "smtp", judge.now, return_path)
    handle_waiting(judge.db, judge.config, lambda: judge.now)
    maildir = judge.config.database.parent / "delivered"
    outbox.drain(
        judge.db, outbox.MaildirDelivery(maildir), lambda: judge.now, attach_picture=pictures.finish
    )
    states = judge.db.execute("SELECT id, state, error FROM inbound ORDER BY id").fetchall()
    assert [s for s in states if s[1] not in FINAL] == []
    unsent = judge.db.execute(
        "SELECT id, state, last_error FROM outbound WHERE state != 'sent'"
    ).fetchall()
    assert unsent == []
    judge.db.conn.close()


# -- strategies ---------------------------------------------------------------------------

_LINE_TEXT = st.text(st.characters(blacklist_characters="\r\n"), max_size=60)
_ADDRESSES = st.sampled_from(  # \udcff: the raw byte 0xff
    [
        "p2@example.org",
        "gm@example.org",
        "judge@example.org",
        "MAILER-DAEMON@example.org",
        "Player Two <p2@example.org>",
        "Ünïcødé Nàme <p2@example.org>",
        "=?utf-8?b?w5xuaWPDtmRl?= <p2@example.org>",
        '"Two, Player" <p2@example.org>',
        "p2@exämple.org",
        "ü@example.org",
        "p2@example.org (Player Two)",
        "undisclosed-recipients:;",
        "p2@example.org, gm@example.org",
        "Zoë <zoë@example.org>",
        "p2@例え.jp",
        "=?utf-8?q?p=C3=BC?= <p2@example.org>",
        "=?utf-8?b?cDJAZXhhbXBsZS5vcmc=?=",
        "p2@example.org\udcff",
        "<p2@example.org",
        "a@b",
        "@",
        "<>",
        "",
    ]
)


def _long(text: str) -> st.SearchStrategy[str]:
    return st.integers(200, 20_000).map(lambda n: (text * n)[:n])


_HEADER_VALUES = st.one_of(
    _ADDRESSES.map(lambda a: a.encode("utf-8", "surrogateescape")),
    _LINE_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")),  # non-ASCII, raw UTF-8
    st.binary(max_size=60).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")),  # 8-bit
    st.sampled_from([b"", b"<>", b" ", b"<", b"=?utf-8?q?=FF?=", b"=?x-bad?b?!!?="]),
    _long("x").map(str.encode),
    _long("\u00e9<a@b> ").map(str.encode),
)
_CONTENT_TYPES = st.one_of(
    st.sampled_from(
        [
            b"text/plain; charset=utf-8",
            b"text/plain; charset=iso-8859-1",
            b"text/plain; charset=x-unknown",
            b"text/plain; charset=utf-7",
            b"text/plain; format=flowed; delsp=yes",
            b"text/html; charset=utf-8",
            b"multipart/mixed; boundary=b",
            b"multipart/alternative",
            b"message/rfc822",
            b"application/octet-stream",
        ]
    ),
    _HEADER_VALUES,
)
_DATES = st.one_of(
    st.datetimes().map(
        lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d} {d.hour:02d}:{d.minute:02d}"
    ),
    st.dates().map(lambda d: f"{d.year:04d}-{d.month:02d}-{d.day:02d}"),
)
_ARGS = st.one_of(
    _DATES,
    _LINE_TEXT,
    st.sampled_from(
        [
            "2026-12-01 23:30",
            "9999-12-31 23:59",
            "0001-01-01",
            "2026-02-30",
            "99999999999999999999",
            "-1",
            "+999999 days",
            "tomorrow",
            "NONE",
            "p2@example.org",
            "<p3@example.org>",
            "ü@example.org",
            "a@b@c",
            "<>",
            "Fwar1 pw2",
            "Mwar1 masterpw",
        ]
    ),
    _long("9"),
)
_COMMAND_LINES = st.one_of(
    st.sampled_from(
        [
            "SIGNON Fwar1 pw2",
            "SIGNON Mwar1 masterpw",
            "SIGNON ?war1 pw9",
            "A Par-Bur",
            "F Bre - MAO",
            "A Mar S A Par - Bur",
            "Pariz-Burgundi",
            "PRESS TO F",
            "BROADCAST",
            "ENDPRESS",
            "SET WAIT",
            "SET NOWAIT",
            "CLEAR",
            "HELP",
            "LIST",
            "WHOGAME war1",
            "SUMMARY war1",
            "HISTORY war1",
            "PROCESS",
            "PAUSE",
            "RESUME",
            "SIGNOFF",
            "-- ",
            "> SIGNON Fwar1 pw2",
        ]
    ),
    st.builds("SIGNON {} {}".format, _ARGS, _ARGS),
    st.builds("SET ADDRESS {}".format, _ARGS),
    st.builds("SET DEADLINE {}".format, _ARGS),
    st.builds("SET GRACE {}".format, _ARGS),
    st.builds("SET ABSENCE {} TO {}".format, _DATES, _DATES),
    st.builds("SET PASSWORD {}".format, _ARGS),
    st.builds("CREATE ?{} pw {}".format, _ARGS, _ARGS),
    st.builds("REPLACE {} {}".format, _ARGS, _ARGS),
    _ARGS,
)
_SIGNONS = st.sampled_from(
    ["SIGNON Mwar1 masterpw", "SIGNON Fwar1 pw2", "SIGNON ?war1 pw9", "SIGNON Ewar1 pw1", ""]
)
_BODIES = st.builds(
    lambda first, rest: "\n".join([first, *rest]), _SIGNONS, st.lists(_COMMAND_LINES, max_size=12)
)
# Address headers mostly get address-like values (a reply goes to them), else anything.
_ADDRESS_VALUES = st.one_of(
    _ADDRESSES.map(lambda a: a.encode("utf-8", "surrogateescape")),
    _ADDRESSES.map(lambda a: a.encode("utf-8", "surrogateescape")),
    _HEADER_VALUES,
)
_HEADERS = {
    "From": _ADDRESS_VALUES,
    "Reply-To": _ADDRESS_VALUES,
    "Subject": _HEADER_VALUES,
    "Message-ID": _HEADER_VALUES,
    "In-Reply-To": _HEADER_VALUES,
    "References": _HEADER_VALUES,
    "Content-Type": _CONTENT_TYPES,
    "Return-Path": _ADDRESS_VALUES,
}


@st.composite
def _mails(draw: st.DrawFn) -> bytes:
    """A mail from random header values (each present or not) and a random body."""
    lines = [b"To: judge@example.org"]
    for name, values in _HEADERS.items():
        if draw(st.integers(0, 3)) > 0:  # present three times in four
            lines.append(name.encode() + b": " + draw(values))
    body = draw(_BODIES)
    encoding = draw(st.sampled_from(["utf-8", "latin-1", "utf-16"]))
    data = body.encode(encoding, "replace")
    return b"\r\n".join(lines) + b"\r\n\r\n" + data + b"\r\n"


@settings(max_examples=150, **PROFILE)
@given(
    mails=st.lists(_mails(), min_size=1, max_size=3),
    return_path=st.one_of(st.none(), _ADDRESSES.filter(str.isprintable)),
)
def test_random_mails_never_stop_the_judge(
    fresh: Callable[[], Judge], mails: list[bytes], return_path: str | None
) -> None:
    _handle_and_deliver(fresh(), mails, return_path)


@settings(max_examples=50, **PROFILE)
@given(
    raw=st.one_of(
        st.binary(max_size=3000),
        st.binary(max_size=3000).map(lambda b: b"From: p2@example.org\r\n\r\n" + b),
        st.builds(
            lambda head, body: head + b"\r\n\r\nSIGNON Fwar1 pw2\r\n" + body,
            st.binary(max_size=500),
            st.binary(max_size=500),
        ),
    )
)
def test_random_bytes_never_stop_the_judge(fresh: Callable[[], Judge], raw: bytes) -> None:
    _handle_and_deliver(fresh(), [raw], None)


# -- what the properties found ------------------------------------------------------------


def test_create_with_a_variant_name_too_long_for_a_file_is_refused(tmp_path: Path) -> None:
    """Found by test_random_mails_never_stop_the_judge: a variant name longer than a file
    name may be (255 bytes) made looking for the map raise OSError; the mail failed."""
    with pytest.raises(MapError) as e:
        load_map("9" * 300)
    assert str(e.value) == f"unknown map {'9' * 100!r}"
    judge = Judge(tmp_path)
    (ack,) = judge.send("gm@example.org", f"CREATE ?war2 pw {'9' * 300}")
    first, error = ack.body.splitlines()[:2]
    assert first.startswith("Line 1: CREATE ?war2 ****")
    assert error.startswith("  ERROR: ")  # the wording is the command reader's
    assert games.find_game(judge.db, "war2") is None
    assert judge.db.execute("SELECT state FROM inbound").fetchall() == [(inbox.HANDLED,)]
