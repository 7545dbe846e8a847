"""The board picture on the judge's mail: results, start and PREDICT mails carry it inline
(judge/game/pictures.py), the text names it, SET MAP OFF leaves it out, and a crash between
drawing and sending never changes a byte of what is sent.

Mails are made by the real handling path (tests/judge_harness.py) and sent by the real
outbox drainer: into a Maildir in-process, or by `judge run --once` in a child process
to an SMTP peer when the judge is killed on the way (judge/crashpoints.py).
"""

from __future__ import annotations

import email
import os
import signal
import sqlite3
import subprocess
import sys
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from judge_harness import Judge
from smtp_sink import SmtpSink

from judge.game import pictures
from judge.mail import outbox as sender
from judge.render.png import PNG_SIGNATURE, png_size
from judge.store import outbox
from judge.store.db import open_db

MASTER = "gm@example.org"
LIST = "dip-war1@lists.example.org"


def parts(msg: EmailMessage) -> list[EmailMessage]:
    return list(msg.iter_parts()) if msg.is_multipart() else [msg]


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def picture_of(msg: EmailMessage) -> tuple[str, bytes]:
    """The mail's one inline PNG, checked for its place and headers: (file name, bytes)."""
    assert msg.get_content_type() == "multipart/mixed", msg.get_content_type()
    text, image = parts(msg)  # the text first, then the picture: nothing else
    assert text.get_content_type() == "text/plain"
    assert image.get_content_type() == "image/png"
    assert image.get_content_disposition() == "inline"
    assert image["Content-ID"].startswith("<") and image["Content-Transfer-Encoding"] == "base64"
    data = image.get_content()
    assert data.startswith(PNG_SIGNATURE)
    assert png_size(data) == (1220, 800)
    return image.get_filename(), data


def by_subject(messages: list[EmailMessage], subject: str) -> list[EmailMessage]:
    return [m for m in messages if m["Subject"] == subject]


def spring_with_a_list(judge: Judge) -> None:
    """war1 with its game list, started (the start mails delivered), and its first
    spring processed."""
    judge.send(MASTER, "CREATE ?war1 masterpw")
    judge.send(MASTER, f"SIGNON Mwar1 masterpw\nSET LIST {LIST}")
    players = {i: f"p{n}@example.org" for n, i in enumerate("AEFGIRT")}
    for n, initial in enumerate("AEFGIRT"):
        judge.send(players[initial], f"SIGNON ?war1 pw{n}\nSET PREFERENCE {initial}")
    judge.deliver()
    processed_spring(judge, players)


def processed_spring(judge: Judge, players: dict[str, str]) -> None:
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar S A Par-Bur\nF Bre-Mao")
    judge.send(players["G"], "SIGNON Gwar1 pw3\nA Mun-Bur")
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPROCESS")


def test_results_mail_and_its_list_copy_carry_the_board_named_in_the_text(tmp_path) -> None:
    judge = Judge(tmp_path)
    spring_with_a_list(judge)
    subject = "TEST:war1 - S1901M Results"
    queued = [m for m in judge._since(0) if m.subject == subject]
    assert [m.picture for m in queued] == ["board-S1901M.png"] * 9
    delivered = by_subject(judge.deliver(), subject)
    assert len(delivered) == 9  # to each player and the master, one mail each, and to the list
    to_players, *_, to_list = sorted(delivered, key=lambda m: LIST in m["To"])
    assert LIST in to_list["To"] and to_list["List-Id"]
    pictures = [picture_of(m) for m in (to_players, to_list)]
    assert pictures[0] == pictures[1]  # the list copy shares the same picture
    name, data = pictures[0]
    assert name == "board-S1901M.png"
    for msg in (to_players, to_list):
        text = text_of(msg)
        assert "Army Paris -> Burgundy." in text
        assert (
            "The board after Movement for Spring of 1901, with its orders drawn, is in\n"
            "the attached picture board-S1901M.png.\n"
            "Key: arrow move (dashed: convoyed), dashes support, dots convoy, ring hold,\n"
            "red X failed, red ring dislodged, struck ring removed, dashed ring built.\n"
            "\nThe next phase of 'war1' will be "
        ) in text
    # Sent once, the picture is stored once for the nine results mails that carry it, and
    # drawn no more; each mail keeps its text.
    rows = judge.db.execute("SELECT raw, picture, picture_id FROM outbound").fetchall()
    rows = [(raw, picture, pid) for raw, picture, pid in rows if b"S1901M Results" in raw]
    assert len(rows) == 9 and all(picture is None for _, picture, _ in rows)
    [picture_id] = {pid for _, _, pid in rows}
    [stored] = judge.db.execute("SELECT name, png FROM pictures WHERE id = ?", [picture_id])
    assert stored == (name, data)
    # and the start mails' picture, once too
    assert judge.db.execute("SELECT COUNT(*) FROM pictures").fetchone()[0] == 2
    assert all(b"image/png" not in raw for raw, _, _ in rows)


def test_set_map_off_leaves_the_picture_and_its_line_out(tmp_path) -> None:
    judge = Judge(tmp_path)
    judge.send(MASTER, "CREATE ?war1 masterpw")
    answer = judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET MAP OFF")
    assert "ERROR" not in answer[0].body, answer[0].body
    listed = judge.send(MASTER, "LIST war1")[0].body
    assert "  Flags:     NMR, List, Orders Replace, NoMap.\n" in listed, listed
    players = {i: f"p{n}@example.org" for n, i in enumerate("AEFGIRT")}
    for n, initial in enumerate("AEFGIRT"):
        judge.send(players[initial], f"SIGNON ?war1 pw{n}\nSET PREFERENCE {initial}")
    processed_spring(judge, players)
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPREDICT")
    messages = judge.deliver()
    pictured = [
        m["Subject"]
        for m in messages
        if m.is_multipart() or "attached picture" in text_of(m) or ".png" in text_of(m)
    ]
    assert pictured == []
    subjects = {m["Subject"] for m in messages}
    assert "TEST:war1 - S1901M Results" in subjects
    assert "TEST:war1 - S1901M Game Starting" in subjects
    assert "TEST:war1 - F1901M PREDICTION of Movement for Fall of 1901" in subjects
    # and back on: the next results carry it again
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nSET MAP ON\nPROCESS")
    results = by_subject(judge.deliver(), "TEST:war1 - F1901M Results")
    assert picture_of(results[0])[0] == "board-F1901M.png"


def test_start_mails_carry_the_opening_board(tmp_path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    messages = [m for m in judge.deliver() if m["Subject"] == "TEST:war1 - S1901M Game Starting"]
    addresses = sorted(a.addr_spec for m in messages for a in m["To"].addresses)
    assert addresses == sorted([MASTER, *players.values()])
    opening = {picture_of(m) for m in messages}
    assert len(opening) == 1 and next(iter(opening))[0] == "board-S1901M.png"
    for m in messages:
        assert "The board is in the attached picture board-S1901M.png." in text_of(m)


def test_the_predict_answer_carries_the_predicted_board(tmp_path) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")
    judge.deliver()
    judge.send(MASTER, "SIGNON Mwar1 masterpw\nPREDICT")
    (answer,) = by_subject(
        judge.deliver(), "TEST:war1 - S1901M PREDICTION of Movement for Spring of 1901"
    )
    name, data = picture_of(answer)
    assert name == "prediction-S1901M.png"
    text = " ".join(text_of(answer).split())
    assert "France: Army Paris -> Burgundy." in text
    assert text.endswith(
        "The board these orders would lead to, with the orders drawn, is in the attached "
        "picture prediction-S1901M.png."
    )
    # a prediction is not a result: the game is still in Spring 1901
    assert judge.game().phase == "S1901M"


# -- crashes between drawing and sending ---------------------------------------------------


def _run_once(config: Path, now: str, crash: str | None) -> int:
    env = dict(os.environ)
    env.pop("JUDGE_CRASH_AT", None)
    if crash:
        env["JUDGE_CRASH_AT"] = crash
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "judge.ops.cli",
            "--config",
            str(config),
            "run",
            "--once",
            "--now",
            now,
        ],
        env=env,
        capture_output=True,
        timeout=120,
    )
    return proc.returncode


def _outbound(path: Path) -> dict[str, tuple[bytes, str | None, str]]:
    """Each queued mail: the bytes it is sent as (its picture attached, once stored), the
    picture still to draw, its state."""
    db = open_db(path)
    try:
        rows = db.execute(
            "SELECT o.message_id, o.raw, o.picture, o.state, p.name, p.png FROM outbound o "
            "LEFT JOIN pictures p ON p.id = o.picture_id"
        ).fetchall()
        found = {}
        for mid, raw, picture, state, name, png in rows:
            attachment = outbox.Attachment(name, png) if png is not None else None
            item = outbox.Outbound(0, mid, (), bytes(raw), 0, attachment=attachment)
            found[mid] = (sender.wire(item), picture, state)
        return found
    finally:
        db.conn.close()


def test_a_resend_after_a_crash_is_the_same_mail_byte_for_byte(tmp_path) -> None:
    """The judge is killed after drawing the pictures (before storing them), after storing them
    (before sending), and after sending (before recording): every mail it finally sends,
    and the one it sends twice, is byte for byte the mail a judge that never crashed sends."""
    judge = Judge(tmp_path)
    spring_with_a_list(judge)
    pictured = {
        mid for mid, (_, picture, state) in _outbound(judge.config.database).items() if picture
    }
    assert len(pictured) == 9  # the results mail to each of 8, and its list copy

    # The reference: the same store, copied now, drained by a judge that never crashes.
    reference_path = tmp_path / "reference.db"
    with sqlite3.connect(reference_path) as copy:
        judge.db.conn.backup(copy)
    reference_db = open_db(reference_path)
    sender.drain(
        reference_db,
        sender.MaildirDelivery(tmp_path / "reference"),
        lambda: judge.now,
        attach_picture=pictures.finish,
    )
    reference_db.conn.close()
    reference = _outbound(reference_path)

    now = judge.now.isoformat().replace("+00:00", "Z")
    with SmtpSink() as sink:
        config = tmp_path / "judge.toml"
        config.write_text(
            f'[judge]\nname = "TEST"\naddress = "judge@example.org"\n'
            f'database = "{judge.config.database}"\n'
            f'[outbound]\nmode = "smtp"\n[outbound.smtp]\nhost = "127.0.0.1"\nport = {sink.port}\n'
        )
        judge.db.conn.close()
        store = judge.config.database

        def mids() -> list[str]:
            return [email.message_from_bytes(r.data)["Message-ID"] for r in sink.messages]

        # 1. killed after drawing the pictures, before storing them: nothing changed. The
        # drainer finishes the mails of a slice in one transaction before sending any of
        # them, so nothing was sent either.
        assert _run_once(config, now, "picture-drawn:1") == -signal.SIGKILL
        after = _outbound(store)
        assert {mid for mid, (_, picture, _) in after.items() if picture} == pictured
        assert mids() == []

        # 2. killed after storing them, before sending: all stored, as the reference has them
        assert _run_once(config, now, "picture-stored:1") == -signal.SIGKILL
        after = _outbound(store)
        assert all(after[mid][1] is None and after[mid][2] == "queued" for mid in pictured)
        assert all(after[mid][0] == reference[mid][0] for mid in pictured)
        assert mids() == []
        db = open_db(store)
        marks = ", ".join("?" for _ in pictured)
        shared = f"SELECT DISTINCT picture_id FROM outbound WHERE message_id IN ({marks})"
        assert len(db.execute(shared, list(pictured)).fetchall()) == 1  # one for all nine
        db.conn.close()

        # 3. killed after sending the first mail, before recording that it was sent
        assert _run_once(config, now, "send-delivered:1") == -signal.SIGKILL
        [first] = mids()
        assert _outbound(store)[first][2] == "queued"

        # 4. a life without crashes sends everything: the first mail a second time
        assert _run_once(config, now, None) == 0
        received = sink.messages

    after = _outbound(store)
    assert {state for _, _, state in after.values()} == {"sent"}
    for mid in after:  # every stored mail is the reference's, byte for byte
        assert after[mid][0] == reference[mid][0], mid
    sent: dict[str, list[bytes]] = {}
    for r in received:
        mid = email.message_from_bytes(r.data, policy=default)["Message-ID"]
        sent.setdefault(mid, []).append(r.data)
    twice = [mid for mid, copies in sent.items() if len(copies) > 1]
    assert twice == [first] and len(set(sent[first])) == 1  # sent twice, the same bytes
    for mid in pictured:
        (data,) = set(sent[mid])
        assert data.replace(b"\r\n", b"\n") == reference[mid][0].replace(b"\r\n", b"\n")
        name, png = picture_of(email.message_from_bytes(data, policy=default))
        assert name == "board-S1901M.png" and png.startswith(PNG_SIGNATURE)
