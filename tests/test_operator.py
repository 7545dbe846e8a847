"""The operator's commands, each run through `judge.ops.cli.main` against a known store.

`check-config` talks to real peers (an aiosmtpd sink, a private Dovecot) and to a port
where nothing listens; `backup` copies a database while another connection holds a
write transaction open; `replay` re-adjudicates a year played by mail and finds a
tampered result; `export` writes the saved-game format of the `diplomacy` package, which
that package's own loader reads (and whose engine, given the exported orders, reaches
the same positions as ours).
"""

from __future__ import annotations

import json
import re
import sqlite3
import tomllib
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_harness import run, write_config
from judge_harness import Judge
from servers import Dovecot
from smtp_sink import SmtpSink, free_port

from judge import config as judge_config
from judge.config import Config, load_config
from judge.ops.init_config import example_path
from judge.store import outbox
from judge.store.db import open_db
from judge.store.schema import MIGRATIONS
from judge.store.settings import GameSettings

EXAMPLE = Path(__file__).resolve().parent.parent / "config" / "judge.example.toml"
SCHEMA = len(MIGRATIONS)
PASSWORDS = {p: f"pw{i}" for i, p in enumerate("AEFGIRT")}  # the harness's players


# -- init, and the example configuration -----------------------------------------------------


def test_init_writes_the_example_and_refuses_to_overwrite(tmp_path, capsys, monkeypatch) -> None:
    target = tmp_path / "etc" / "judge.toml"
    target.parent.mkdir()
    status, out, _ = run(capsys, "init", str(target))
    assert status == 0
    assert out == [
        f"wrote {target}",
        f"edit it, then check it with: judge --config {target} check-config",
    ]
    assert target.read_text() == EXAMPLE.read_text()
    assert target.stat().st_mode & 0o777 == 0o640

    target.write_text("# mine\n")
    status, out, err = run(capsys, "init", str(target))
    assert (status, out) == (1, [])
    assert err == f"judge: {target} exists already; add --force to overwrite it\n"
    assert target.read_text() == "# mine\n"

    assert run(capsys, "init", "--force", str(target))[0] == 0
    assert target.read_text() == EXAMPLE.read_text()

    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init")[0] == 0
    assert (tmp_path / "judge.toml").read_text() == EXAMPLE.read_text()


def test_the_example_configures_the_defaults_and_shows_every_key() -> None:
    assert example_path() == EXAMPLE
    config = load_config(EXAMPLE)
    base = EXAMPLE.parent
    assert config == replace(
        Config(),
        database=base / "var/judge.db",
        maildir=base / "var/outbox",
        source=str(EXAMPLE),
    )
    # Every key judge/config.py accepts is set or (the alternatives for a password)
    # shown commented out, in its section.
    text = EXAMPLE.read_text()
    shown: dict[str, set[str]] = {}
    section = ""
    for line in text.splitlines():
        if m := re.fullmatch(r"\[([a-z.]+)\]", line):
            section = m.group(1)
        elif m := re.fullmatch(r"#? ?([a-z_]+) = .*", line):
            shown.setdefault(section, set()).add(m.group(1))
    expected = {
        name: {k for k in keys if k not in ("imap", "smtp", "maildir")}
        for name, keys in judge_config._SECTIONS.items()
    }
    assert shown == expected
    # Every key line has its comment just above it (a host/port pair shares one).
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"[a-z_]+ = .*", line):
            above = lines[i - 1]
            assert above.startswith("#") or above.startswith("host ="), line
    assert tomllib.loads(text)["inbound"]["mode"] == "smtp"


# -- check-config ------------------------------------------------------------------------------


def test_check_config_with_a_real_smtp_peer_and_a_wrong_port(tmp_path, capsys) -> None:
    inbound_port = free_port()
    with SmtpSink() as sink:
        path = write_config(
            tmp_path,
            f'timezone = "Europe/Paris"\n[inbound.smtp]\nport = {inbound_port}\n'
            f'[outbound]\nmode = "smtp"\n[outbound.smtp]\nport = {sink.port}\n',
        )
        status, out, _ = run(capsys, "--config", str(path), "check-config")
        assert out == [
            f"configuration: {path}",
            "judge: TEST <judge@example.org>, time zone Europe/Paris",
            f"database: ok: {tmp_path / 'j.db'} does not exist yet; the judge will create it",
            f"inbound: SMTP receiver on 127.0.0.1:{inbound_port}: ok: the port can be bound",
            f"outbound: SMTP relay 127.0.0.1:{sink.port} (plain text): ok: connected, "
            "NOOP answered 250",
            "every part works",
        ]
        assert status == 0
        assert not (tmp_path / "j.db").exists()  # checking creates nothing

        # The receiver's port taken (by the sink), the relay on a port where nothing
        # listens, and a login the relay cannot offer: each part says why.
        wrong = free_port()
        path = write_config(
            tmp_path,
            f"[inbound.smtp]\nport = {sink.port}\n"
            f'[outbound]\nmode = "smtp"\n[outbound.smtp]\nport = {wrong}\n',
        )
        status, out, _ = run(capsys, "--config", str(path), "check-config")
        assert out[3:] == [
            f"inbound: SMTP receiver on 127.0.0.1:{sink.port}: FAILED: cannot listen there: "
            "the port is in use (by another program, or by the judge itself)",
            f"outbound: SMTP relay 127.0.0.1:{wrong} (plain text): FAILED: could not connect: "
            f"connection refused: nothing is listening on 127.0.0.1:{wrong}",
            "2 parts did not work",
        ]
        assert status == 1

        path = write_config(
            tmp_path,
            f'[inbound.smtp]\nport = {inbound_port}\n[outbound]\nmode = "smtp"\n'
            f'[outbound.smtp]\nport = {sink.port}\nusername = "judge"\npassword = "hunter2"\n',
        )
        status, out, _ = run(capsys, "--config", str(path), "check-config")
        assert out[4] == (
            f"outbound: SMTP relay 127.0.0.1:{sink.port} (plain text, login judge): FAILED: "
            "could not log in: SMTP AUTH extension not supported by server."
        )
        assert status == 1
        assert "hunter2" not in "\n".join(out)


def test_check_config_with_an_existing_database_and_a_maildir(tmp_path, capsys) -> None:
    open_db(tmp_path / "j.db").conn.close()
    (tmp_path / "out" / "tmp").mkdir(parents=True)
    path = write_config(tmp_path, '[outbound.maildir]\npath = "out"\n[inbound.smtp]\nport = 0\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[2:] == [
        f"database: ok: {tmp_path / 'j.db'}, schema version {SCHEMA}, 0 games",
        "inbound: SMTP receiver on 127.0.0.1:0: ok: the port can be bound",
        f"outbound: Maildir {tmp_path / 'out'}: ok: writable",
        "every part works",
    ]
    assert status == 0

    db = sqlite3.connect(tmp_path / "j.db")
    db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    db.close()
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[2] == (
        f"database: FAILED: {tmp_path / 'j.db'} has schema version {SCHEMA + 1}, newer than "
        f"this judge ({SCHEMA}): upgrade the judge"
    )
    assert status == 1


def test_check_config_reports_a_broken_configuration(tmp_path, capsys) -> None:
    path = write_config(tmp_path, '[inbound.imap]\nport = "993"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out == ["configuration: FAILED: inbound.imap.port must be a whole number, not a string"]
    assert status == 1


def test_check_config_logs_in_to_imap(dovecot: Dovecot, tmp_path, capsys) -> None:
    dovecot.append(b"From: a@example.org\r\nSubject: hi\r\n\r\nhello\r\n")
    imap = (
        f'[inbound]\nmode = "imap"\n[inbound.imap]\nport = {dovecot.port}\nssl = false\n'
        f'username = "{dovecot.user}"\n'
    )
    path = write_config(tmp_path, imap + f'password = "{dovecot.password}"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[3] == (
        f"inbound: IMAP judge@127.0.0.1:{dovecot.port} (plain text): ok: logged in; "
        "INBOX holds 1 message; processed does not exist yet; the judge will create it"
    )
    assert status == 0
    assert b"\\Seen" not in dovecot.flags("INBOX")[0]  # looked at, not marked seen

    path = write_config(tmp_path, imap + 'password = "not-the-password"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[3].startswith(
        f"inbound: IMAP judge@127.0.0.1:{dovecot.port} (plain text): FAILED: could not log "
        "in: login refused for 'judge': "
    )
    assert "not-the-password" not in "\n".join(out)
    assert status == 1

    path = write_config(tmp_path, imap + f'password = "{dovecot.password}"\nmailbox = "Nowhere"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert "FAILED: could not select the mailbox 'Nowhere': " in out[3]
    assert status == 1


# -- games, game ---------------------------------------------------------------------------


def test_games_and_game(tmp_path, capsys) -> None:
    judge = Judge(tmp_path)
    players = judge.start_game()  # war1 starts at 12:08 UTC, deadline in 48 hours
    judge.send(players["E"], "SIGNON Ewar1 pw1\nF Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")
    judge.send(players["T"], "SIGNON Twar1 pw6\nSET WAIT")
    judge.send("gm2@example.org", "CREATE ?war2 secret")
    judge.send("p9@example.org", "SIGNON ?war2 pw9")
    path = write_config(tmp_path, 'timezone = "Europe/Paris"\n')

    status, out, _ = run(capsys, "--config", str(path), "games")
    assert out == [
        "NAME  VARIANT   STATE    PHASE   DEADLINE              PLAYERS",
        "war1  standard  active   S1901M  2026-11-23 13:08 CET  7/7",
        "war2  standard  forming  -       -                     1/7",
    ]
    assert status == 0

    status, out, _ = run(capsys, "--config", str(path), "game", "?War1")
    listed = {**GameSettings().to_json(), "result": None}  # the result listed with them
    settings = [f"  {k} = {json.dumps(v)}" for k, v in sorted(listed.items())]
    assert out == [
        "Game war1",
        "  variant:  standard (Standard Diplomacy)",
        "  state:    active",
        "  phase:    S1901M (Spring 1901 Movement)",
        "  deadline: 2026-11-23 13:08 CET",
        "Settings:",
        *settings,
        "Seats:",
        "  POWER    ADDRESS         WAIT  ORDERS",
        "  Austria  p0@example.org  no    none",
        "  England  p1@example.org  no    complete",
        "  France   p2@example.org  no    partial",
        "  Germany  p3@example.org  no    none",
        "  Italy    p4@example.org  no    none",
        "  Russia   p5@example.org  no    none",
        "  Turkey   p6@example.org  yes   none",
        "  master   gm@example.org",
        "Position at S1901M:",
        "  Austria  3 centres  BUD, TRI, VIE       units: A BUD, A VIE, F TRI",
        "  England  3 centres  EDI, LON, LVP       units: A LVP, F EDI, F LON",
        "  France   3 centres  BRE, MAR, PAR       units: A MAR, A PAR, F BRE",
        "  Germany  3 centres  BER, KIE, MUN       units: A BER, A MUN, F KIE",
        "  Italy    3 centres  NAP, ROM, VEN       units: A ROM, A VEN, F NAP",
        "  Russia   4 centres  MOS, SEV, STP, WAR  units: A MOS, A WAR, F SEV, F STP/SC",
        "  Turkey   3 centres  ANK, CON, SMY       units: A CON, A SMY, F ANK",
    ]
    assert status == 0

    status, out, err = run(capsys, "--config", str(path), "game", "war9")
    assert (status, out, err) == (1, [], "judge: no game 'war9'\n")


def test_commands_need_an_existing_database(tmp_path, capsys) -> None:
    path = write_config(tmp_path)
    status, out, err = run(capsys, "--config", str(path), "games")
    assert status == 1
    assert err.startswith(f"judge: there is no database at {tmp_path / 'j.db'} ")
    assert not (tmp_path / "j.db").exists()


# -- outbox --------------------------------------------------------------------------------


T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def _outbox_store(folder: Path) -> Path:
    """Four messages: 1 sent, 2 waiting for a retry, 3 given up on, 4 just queued."""
    db = open_db(folder / "j.db")
    for n, to in enumerate(
        [["a@example.org"], ["b@example.org", "c@example.org"], ["d@example.org"], ["e@x.org"]],
        start=1,
    ):
        outbox.queue(db, b"raw", f"<{n}@judge>", to, "reply" if n != 3 else "results", T0)
    outbox.mark_sent(db, 1, T0, "sent")
    outbox.mark_retry(db, 2, T0, "OSError: [Errno 111]\nConnection refused", timedelta(minutes=4))
    outbox.mark_failed(db, 3, T0, "550 5.1.1 no such user")
    db.conn.close()
    return write_config(folder, 'timezone = "Europe/Paris"\n')


def test_outbox_lists_the_mail_not_yet_sent(tmp_path, capsys) -> None:
    path = _outbox_store(tmp_path)
    status, out, _ = run(capsys, "--config", str(path), "outbox")
    assert out == [
        "queued 2, sent 1, failed 1",
        "ID  STATE   KIND     ATTEMPTS  NEXT ATTEMPT          RECIPIENTS                    "
        "LAST ERROR",
        "2   queued  reply    1         2026-11-21 13:04 CET  b@example.org, c@example.org  "
        "OSError: [Errno 111] Connection refused",
        "3   failed  results  1         -                     d@example.org                 "
        "550 5.1.1 no such user",
        "4   queued  reply    0         2026-11-21 13:00 CET  e@x.org                       -",
    ]
    assert status == 0


def test_outbox_retry(tmp_path, capsys) -> None:
    path = _outbox_store(tmp_path)
    before = datetime.now(UTC).isoformat()
    status, out, _ = run(capsys, "--config", str(path), "outbox", "--retry", "3")
    assert out == [
        "1 message due now (1 of them queued again after failing); the judge sends them at "
        "its next pass"
    ]
    assert status == 0
    db = sqlite3.connect(tmp_path / "j.db")
    state, attempts, due = db.execute(
        "SELECT state, attempts, next_attempt_at FROM outbound WHERE id = 3"
    ).fetchone()
    assert (state, attempts) == ("queued", 0) and due >= before
    audit = db.execute(
        "SELECT detail FROM audit WHERE entity = 'outbound' AND entity_id = 3 ORDER BY id DESC"
    ).fetchone()
    assert audit == ("operator: retry now (had failed after 1 attempt)",)

    status, out, err = run(capsys, "--config", str(path), "outbox", "--retry", "1")
    assert (status, err) == (1, "judge: message 1 is sent; only queued or failed mail is retried\n")
    status, out, err = run(capsys, "--config", str(path), "outbox", "--retry", "9")
    assert (status, err) == (1, "judge: there is no outbound message 9\n")

    status, out, _ = run(capsys, "--config", str(path), "outbox", "--retry")
    assert out == [
        "3 messages due now (0 of them queued again after failing); the judge sends them at "
        "its next pass"
    ]
    rows = db.execute("SELECT id, state, attempts FROM outbound ORDER BY id").fetchall()
    assert rows == [(1, "sent", 1), (2, "queued", 1), (3, "queued", 0), (4, "queued", 0)]
    assert all(
        r[0] >= before
        for r in db.execute("SELECT next_attempt_at FROM outbound WHERE state = 'queued'")
    )
    db.close()


# -- backup --------------------------------------------------------------------------------


def test_backup_while_another_connection_is_writing(tmp_path, capsys) -> None:
    path = _outbox_store(tmp_path)
    writer = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the judge in the middle of handling a message
    writer.execute("DELETE FROM outbound")
    target = tmp_path / "backups" / "copy.db"
    target.parent.mkdir()
    try:
        status, out, _ = run(capsys, "--config", str(path), "backup", str(target))
    finally:
        writer.execute("COMMIT")
        writer.close()
    size = target.stat().st_size
    assert out == [
        f"backed up {tmp_path / 'j.db'} to {target}: {size:,} bytes, schema version {SCHEMA}, "
        "integrity ok"
    ]
    assert status == 0
    copy = sqlite3.connect(target)
    assert copy.execute("SELECT COUNT(*) FROM outbound").fetchone() == (4,)  # as committed
    assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    copy.close()
    assert sorted(p.name for p in target.parent.iterdir()) == ["copy.db"]

    status, out, err = run(capsys, "--config", str(path), "backup", str(target))
    assert (status, err) == (1, f"judge: {target} exists already; add --force to overwrite it\n")
    status, out, _ = run(capsys, "--config", str(path), "backup", "--force", str(target))
    assert status == 0
    copy = sqlite3.connect(target)
    assert copy.execute("SELECT COUNT(*) FROM outbound").fetchone() == (0,)
    copy.close()


# -- a year played by mail: replay and export ------------------------------------------------

YEAR = [
    (
        "S1901M",
        {
            "A": ["A Vie-Gal", "A Bud-Rum", "F Tri H"],
            "E": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
            "F": ["F Bre-Mao", "A Par-Bur", "A Mar-Spa"],
            "G": ["F Kie-Den", "A Ber-Kie", "A Mun-Bur"],
            "I": ["F Nap-Ion", "A Ven-Tyr", "A Rom-Ven"],
            "R": ["F StP(sc)-Bot", "A Mos-Ukr", "A War-Gal", "F Sev-Rum"],
            "T": ["F Ank-Bla", "A Con-Bul", "A Smy-Arm"],
        },
    ),
    (
        "F1901M",
        {
            "A": ["A Vie H", "A Bud-Ser", "F Tri H"],
            "E": ["F Nth C A Yor-Nwy", "A Yor-Nwy", "F Nwg H"],
            "F": ["A Par-Bur", "F Mao-Por", "A Spa H"],
            "G": ["F Den H", "A Kie-Hol", "A Mun-Ruh"],
            "I": ["A Ven-Tri", "A Tyr S A Ven-Tri", "F Ion-Tun"],
            "R": ["A Ukr-Rum", "F Sev S A Ukr-Rum", "F Bot-Swe", "A War-Gal"],
            "T": ["F Bla H", "A Bul-Ser", "A Arm-Smy"],
        },
    ),
    ("F1901R", {"A": ["F Tri-Alb"]}),
    (
        "W1901A",
        {
            "A": ["Remove F Alb"],
            "E": ["Build A Lvp"],
            "F": ["Build A Mar", "Build F Bre"],
            "G": ["Build A Ber", "Build F Kie"],
            "I": ["Build F Nap", "Waive"],
            "R": ["Build F StP(nc)", "Build A War"],
            "T": ["Build A Con"],
        },
    ),
]
PHASES = ["S1901M", "F1901M", "F1901R", "W1901A"]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A database holding war1 after a year played by mail (now at S1902M), with press."""
    folder = tmp_path_factory.mktemp("played")
    judge = Judge(folder)
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO E\nShall we?\nENDPRESS")
    judge.send(players["G"], "SIGNON Gwar1 pw3\nBROADCAST\nPeace in our time.\nENDPRESS")
    for phase, orders in YEAR:
        assert judge.game().phase == phase
        for power, lines in orders.items():
            judge.send(
                players[power], f"SIGNON {power}war1 {PASSWORDS[power]}\n" + "\n".join(lines)
            )
    assert judge.game().phase == "S1902M"
    judge.db.conn.close()
    return folder / "j.db"


def _copy(database: Path, folder: Path) -> Path:
    source, target = sqlite3.connect(database), sqlite3.connect(folder / "j.db")
    source.backup(target)
    source.close()
    target.close()
    return write_config(folder)


def test_replay_finds_every_phase_the_same(played, tmp_path, capsys) -> None:
    path = _copy(played, tmp_path)
    status, out, _ = run(capsys, "--config", str(path), "replay", "war1")
    assert out == [
        "war1: 4 processed phases, adjudicated again",
        *[f"{phase}: same" for phase in PHASES],
        "every phase came out the same",
    ]
    assert status == 0


def test_replay_reports_a_tampered_result(played, tmp_path, capsys) -> None:
    path = _copy(played, tmp_path)
    db = sqlite3.connect(tmp_path / "j.db")
    (text,) = db.execute("SELECT results FROM phases WHERE phase = 'F1901M'").fetchone()
    results = json.loads(text)
    for item in results["results"]["FRANCE"]:
        if item["order"] == "A PAR - BUR":
            item["result"] = "bounce"
    results["units"]["FRANCE"] = ["A MAR", "A PAR", "F BRE"]  # as if Paris had stayed
    db.execute("UPDATE phases SET results = ? WHERE phase = 'F1901M'", [json.dumps(results)])
    db.commit()
    db.close()
    status, out, _ = run(capsys, "--config", str(path), "replay", "war1")
    assert out == [
        "war1: 4 processed phases, adjudicated again",
        "S1901M: same",
        "F1901M: different",
        "  FRANCE A PAR - BUR: stored bounce, now ok",
        "  units of FRANCE: stored only A MAR, A PAR, F BRE; now only A BUR, A SPA, F POR",
        "F1901R: same",
        "W1901A: same",
        "1 phase of 4 came out differently",
    ]
    assert status == 1


def _export(played: Path, tmp_path: Path, capsys) -> dict:
    path = _copy(played, tmp_path)
    status, out, _ = run(capsys, "--config", str(path), "export", "war1")
    assert status == 0 and len(out) == 1
    return json.loads(out[0])


def _stored_positions(database: Path) -> list[tuple[str, dict]]:
    db = sqlite3.connect(database)
    rows = db.execute("SELECT phase, position FROM phases ORDER BY id").fetchall()
    db.close()
    return [(p, json.loads(pos)) for p, pos in rows]


def _placed(units: dict[str, list[str]]) -> dict[str, list[str]]:
    """Units on the board: without the dislodged ones (`*F TRI`)."""
    return {p: [u for u in us if not u.startswith("*")] for p, us in units.items()}


def _sorted(mapping: dict) -> dict:
    return {k: sorted(v) for k, v in mapping.items() if v}


def test_export_has_the_saved_game_structure(played, tmp_path, capsys) -> None:
    saved = _export(played, tmp_path, capsys)
    assert (saved["id"], saved["map"], saved["rules"]) == ("war1", "standard", [])
    assert [p["name"] for p in saved["phases"]] == [*PHASES, "S1902M"]
    for phase in saved["phases"]:
        assert set(phase) == {"name", "state", "orders", "results", "messages"}
        assert len(phase["state"]["units"]) == 7 and len(phase["state"]["centers"]) == 7
    f1901m, f1901r, w1901a, s1902m = saved["phases"][1:]
    assert f1901m["results"]["F TRI"] == ["dislodged"]
    assert f1901m["results"]["A BUD"] == ["bounce"]
    assert f1901m["results"]["A VEN"] == []
    assert f1901m["orders"]["ITALY"] == ["A VEN - TRI", "A TYR S A VEN - TRI", "F ION - TUN"]
    assert f1901r["state"]["units"]["AUSTRIA"] == ["A BUD", "A VIE", "*F TRI"]
    assert f1901r["state"]["retreats"]["AUSTRIA"] == {"F TRI": ["ADR", "ALB"]}
    assert f1901r["orders"]["AUSTRIA"] == ["F TRI R ALB"]
    assert w1901a["state"]["builds"]["AUSTRIA"] == {"count": -1, "homes": []}
    assert w1901a["state"]["builds"]["RUSSIA"] == {"count": 2, "homes": ["MOS", "STP", "WAR"]}
    assert w1901a["orders"]["ITALY"] == ["F NAP B", "WAIVE"]
    assert s1902m["orders"] == {} and s1902m["results"] == {}  # the current phase: secret
    press = saved["phases"][0]["messages"]
    assert [(m["sender"], m["recipient"], m["message"]) for m in press] == [
        ("FRANCE", "ENGLAND", "Shall we?"),
        ("GERMANY", "GLOBAL", "Peace in our time."),
    ]
    for (name, position), phase in zip(_stored_positions(played), saved["phases"], strict=True):
        assert name == phase["name"]
        units = _placed(phase["state"]["units"])
        assert _sorted(units) == _sorted(position["units"])
        assert _sorted(phase["state"]["centers"]) == _sorted(position["centers"])


def test_export_is_read_by_the_diplomacy_package(played, tmp_path, capsys) -> None:
    import diplomacy  # noqa: F401 - a test dependency (pyproject's test extra), never skipped
    from diplomacy import Game
    from diplomacy.utils.export import from_saved_game_format
    from diplomacy.utils.game_phase_data import GamePhaseData

    saved = _export(played, tmp_path, capsys)
    game = from_saved_game_format(saved)
    history = game.get_phase_history()
    assert [str(p.name) for p in history] == PHASES
    assert game.get_current_phase() == "S1902M"
    positions = _stored_positions(played)
    for (name, position), phase in zip(positions, [*history, game.get_phase_data()], strict=True):
        assert str(phase.name) == name
        units = _placed(phase.state["units"])
        assert _sorted(units) == _sorted(position["units"])
        assert _sorted(phase.state["centers"]) == _sorted(position["centers"])
    assert _sorted(game.get_units()) == _sorted(positions[-1][1]["units"])
    assert history[1].orders["ENGLAND"] == ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG H"]
    assert [m.message for m in history[0].messages.values()] == [
        "Shall we?",
        "Peace in our time.",
    ]
    # The package's own engine, given each exported phase and its orders, reaches the
    # next exported position: the export says what really happened.
    for before, after in zip(saved["phases"], saved["phases"][1:], strict=False):
        replay = Game(map_name="standard", rules=["SOLITAIRE"])
        replay.set_phase_data(GamePhaseData.from_dict(before))
        for power, orders in before["orders"].items():
            replay.set_orders(power, orders)
        replay.process()
        assert replay.get_current_phase() == after["name"]
        units = _placed(after["state"]["units"])
        assert _sorted(_placed(replay.get_units())) == _sorted(units)
        assert _sorted(replay.get_centers()) == _sorted(after["state"]["centers"])


def test_export_and_replay_of_an_unknown_game(played, tmp_path, capsys) -> None:
    path = _copy(played, tmp_path)
    for command in ("export", "replay"):
        status, out, err = run(capsys, "--config", str(path), command, "nosuch")
        assert (status, out, err) == (1, [], "judge: no game 'nosuch'\n")


def test_a_won_game_shows_and_exports_its_end(played, tmp_path, capsys) -> None:
    # As the judge leaves a game won in W1901A: the last phase processed, its outcome
    # stored, no row for the phase after it, the game finished.
    path = _copy(played, tmp_path)
    db = sqlite3.connect(tmp_path / "j.db")
    db.execute("DELETE FROM phases WHERE phase = 'S1902M'")
    db.execute("UPDATE games SET state = 'finished', deadline = NULL")
    db.commit()
    db.close()
    status, out, _ = run(capsys, "--config", str(path), "game", "war1")
    assert status == 0
    end = out.index("Position at the end (after W1901A):")
    assert out[end + 6] == (
        "  Russia   6 centres  MOS, RUM, SEV, STP, SWE, WAR  "
        "units: A GAL, A RUM, A WAR, F SEV, F STP/NC, F SWE"
    )
    assert "  Russia   p5@example.org  no    -" in out

    status, out, _ = run(capsys, "--config", str(path), "export", "war1")
    saved = json.loads(out[0])
    assert [p["name"] for p in saved["phases"]] == [*PHASES, "COMPLETED"]
    assert saved["phases"][-1]["state"]["units"]["AUSTRIA"] == ["A BUD", "A VIE"]
    try:
        from diplomacy.utils.export import from_saved_game_format
    except ImportError:
        return
    game = from_saved_game_format(saved)
    assert game.is_game_done and game.get_current_phase() == "COMPLETED"
