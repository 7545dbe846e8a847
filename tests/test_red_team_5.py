"""The red team's fifth round: the operator's side. A configuration written wrong (every
kind of wrong value, a file that is no TOML, no UTF-8 or no file), the operator's tools
given hostile arguments or run beside a running judge, and the judge's start and stop
(two at once, a database it cannot use). Each mistake gets one clear line naming the
file, key or value, an exit status other than 0, never a traceback and never a password.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_harness import run, write_config
from live_judge import judge_toml, maildir, player_mail, send, start_judge, wait_until
from smtp_sink import free_port

from judge.store.db import open_db

SECRET = "hunter2-Secret"

# (what follows the [judge] table of cli_harness.write_config, the error's text)
WRONG_CONFIGURATIONS = [
    # A password typed at a number's key, and a number typed as a password: neither shown.
    (
        f'[inbound]\nmode = "imap"\n[inbound.imap]\nport = "{SECRET}"\n',
        "inbound.imap.port must be a whole number, not a string",
    ),
    (
        "[outbound.smtp]\npassword = 314159265\n",
        "outbound.smtp.password must be a string in quotes, not a number",
    ),
    ("[inbound.smtp]\nport = -5\n", "inbound.smtp.port must be a port from 0 to 65535, not -5"),
    (
        "[inbound.imap]\nport = 70000\n",
        "inbound.imap.port must be a port from 1 to 65535, not 70000",
    ),
    (
        "[outbound.smtp]\nport = 0\n",
        "outbound.smtp.port must be a port from 1 to 65535, not 0",
    ),
    (
        "[inbound.smtp]\nport = 1000000000000000000000000000000\n",
        "inbound.smtp.port must be a port from 0 to 65535, not 1000000000000000000000000000000",
    ),
    (
        "[inbound.imap]\npoll_seconds = nan\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not nan",
    ),
    (
        "[inbound.imap]\npoll_seconds = inf\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not inf",
    ),
    (
        "[inbound.imap]\npoll_seconds = 0\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not 0",
    ),
    ("max_message_bytes = 0\n", "judge.max_message_bytes must be at least 1, not 0"),
    ("rate_limit_per_hour = -1\n", "judge.rate_limit_per_hour must be at least 1, not -1"),
    (
        "passwords_per_mail = 10000000000\n",
        "judge.passwords_per_mail must be at most 1,000,000,000, not 10,000,000,000",
    ),
    ("replies_per_hour = true\n", "judge.replies_per_hour must be a whole number, not true"),
    ('[outbound.maildir]\npath = ""\n', "outbound.maildir.path must not be empty"),
    ('[inbound.smtp]\nhost = ""\n', "inbound.smtp.host must not be empty"),
    ('broadcast = "listserv"\n', "judge.broadcast must be a mail address or empty, not 'listserv'"),
    ('timezone = "Europe/Atlantis"\n', "judge.timezone: unknown time zone 'Europe/Atlantis'"),
    (
        "replies_per_hours = 5\n",
        "judge.replies_per_hours: unknown key (did you mean replies_per_hour? allowed: "
        "address, broadcast, database, maps, master_password, master_password_env, "
        "master_password_file, masters, max_message_bytes, name, passwords_per_mail, "
        "rate_limit_per_hour, replies_per_hour, timezone, wrong_passwords_per_hour)",
    ),
    (
        '[outbound.smpt]\nhost = "x"\n',
        "outbound.smpt: unknown key (did you mean smtp? allowed: maildir, mode, "
        "results_together, smtp)",
    ),
]


@pytest.mark.parametrize(("text", "error"), WRONG_CONFIGURATIONS)
def test_a_wrong_value_is_refused_in_one_line_by_run_and_check_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, error: str
) -> None:
    path = write_config(tmp_path, text)
    status, out, err = run(capsys, "--config", str(path), "check-config")
    assert (status, out, err) == (1, [f"configuration: FAILED: {error}"], "")
    status, out, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, out, err) == (2, [], f"judge: configuration error: {error}\n")
    assert not (tmp_path / "j.db").exists()  # refused before anything was created


@pytest.mark.parametrize(
    ("address", "shown"),
    [
        ("judge", "'judge'"),
        ("@", "'@'"),
        ("judge@", "'judge@'"),
        ("a@b\nBcc: c@d", "'a@b\\nBcc: c@d'"),
    ],
)
def test_the_judges_address_must_be_one_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, shown: str
) -> None:
    path = tmp_path / "judge.toml"
    path.write_text("[judge]\naddress = " + _toml_string(address) + "\n")
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert (status, out) == (
        1,
        [f"configuration: FAILED: judge.address must be a mail address, not {shown}"],
    )


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string."""
    return '"' + text.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"') + '"'


def test_a_line_break_in_the_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "judge.toml"
    path.write_text('[judge]\nname = "A\\nSubject: x"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert (status, out) == (
        1,
        [
            "configuration: FAILED: judge.name must not hold a control character (a line "
            "break, a tab), not 'A\\nSubject: x'"
        ],
    )


def test_a_file_that_is_no_configuration_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes('[judge]\nname = "Bj\xf6rn"\n'.encode("latin-1"))
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"\xff\xfe" + SECRET.encode())
    binary = write_config(tmp_path, f'[outbound.smtp]\npassword_file = "{secret.name}"\n')
    for path, error in [
        (latin, f"{latin}: not UTF-8 text (line 2 has the byte 0xf6); save it as UTF-8"),
        (folder, f"{folder}: a folder, not a configuration file"),
        (binary, f"outbound.smtp.password_file: {secret.name} is not UTF-8 text"),
    ]:
        status, out, err = run(capsys, "--config", str(path), "check-config")
        assert (status, out, err) == (1, [f"configuration: FAILED: {error}"], "")
        status, out, err = run(capsys, "--config", str(path), "run", "--once")
        assert (status, err) == (2, f"judge: configuration error: {error}\n")
        status, out, err = run(capsys, "--config", str(path), "games")
        assert (status, err) == (2, f"judge: configuration error: {error}\n")


def _schema() -> int:
    from judge.store.schema import MIGRATIONS

    return len(MIGRATIONS)


def test_a_database_the_judge_cannot_use_is_named_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path)
    db = tmp_path / "j.db"
    db.write_bytes(b"these are not the tables you are looking for\n" * 100)
    why = f"{db}: not an SQLite database (is judge.database the right file?)"
    status, _, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, err) == (2, f"judge: the database cannot be used: {why}\n")
    # The daemon in a process of its own: in this one, its signal handlers would be left
    # ignoring SIGTERM (as at its shutdown), and every judge started later would inherit that.
    daemon = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "--config", str(path), "run"],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert (daemon.returncode, _one_line(daemon.stderr)) == (
        2,
        f"judge: the database cannot be used: {why}",
    )
    for command in (["games"], ["outbox"], ["inbox"], ["game", "war1"], ["replay", "war1"]):
        status, out, err = run(capsys, "--config", str(path), *command)
        assert (status, out, err) == (1, [], f"judge: the database cannot be used: {why}\n")
    status, _, err = run(capsys, "--config", str(path), "backup", str(tmp_path / "b.db"))
    assert (status, err) == (
        1,
        f"judge: the backup of {db} to {tmp_path / 'b.db'} failed: file is not a database\n",
    )
    assert db.read_bytes().startswith(b"these are not")  # left as it was

    db.unlink()
    db.mkdir()
    status, _, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, err) == (
        2,
        f"judge: the database cannot be used: {db}: a folder, not a database file\n",
    )
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert (status, out[2]) == (1, f"database: FAILED: {db} is a folder, not a database file")


def test_a_database_of_a_newer_judge_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path)
    db = tmp_path / "j.db"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {_schema() + 1}")
    conn.close()
    status, _, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, err) == (
        2,
        f"judge: the database cannot be used: {db}: the database has schema version "
        f"{_schema() + 1}, newer than this judge ({_schema()}): upgrade the judge\n",
    )
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == _schema() + 1
    assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []
    conn.close()


def test_another_programs_sqlite_database_is_refused_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path)
    db = tmp_path / "j.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (title TEXT)")  # a game shop's, say
    conn.commit()
    conn.close()
    status, _, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, err) == (
        2,
        f"judge: the database cannot be used: {db}: holds another program's tables (games) "
        "and no judge's: is judge.database the right file?\n",
    )
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("games",)]
    conn.close()


def test_backup_never_overwrites_the_databases_own_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path)
    db = open_db(tmp_path / "j.db")  # held open, as by a running judge: its -wal exists
    try:
        for name in ("j.db-wal", "j.db-shm"):
            target = tmp_path / name
            assert target.exists()
            before = target.read_bytes()
            status, out, err = run(capsys, "--config", str(path), "backup", str(target), "--force")
            assert (status, out, err) == (
                1,
                [],
                f"judge: the backup cannot overwrite {target}, a file of the database's own\n",
            )
            assert target.read_bytes() == before
        (tmp_path / "link.db").hardlink_to(tmp_path / "j.db")
        status, _, err = run(
            capsys, "--config", str(path), "backup", str(tmp_path / "link.db"), "--force"
        )
        assert (status, err) == (1, "judge: the backup cannot overwrite the database itself\n")
        unwritable = "/proc/self/judge-backup.db"
        status, _, err = run(capsys, "--config", str(path), "backup", unwritable)
        assert status == 1
        assert err.startswith(f"judge: the backup of {tmp_path / 'j.db'} to {unwritable} failed: ")
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.conn.close()


def test_hostile_operator_arguments_get_a_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path)
    open_db(tmp_path / "j.db").conn.close()
    huge = "9" * 30
    for command, error in [
        (["outbox", "--retry", huge], f"there is no outbound message {huge}"),
        (["inbox", "--retry", huge], f"there is no inbound message {huge}"),
        (["outbox", "--retry", "-1"], "there is no outbound message -1"),
    ]:
        status, out, err = run(capsys, "--config", str(path), *command)
        assert (status, out, err) == (1, [], f"judge: {error}\n")
    for moment in ("9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00", "1066-10-14T09:00Z"):
        with pytest.raises(SystemExit) as stopped:
            run(capsys, "--config", str(path), "run", "--once", "--now", moment)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.splitlines()[-1] == (
            f"judge run: error: argument --now: '{moment}': give a time between the years "
            "1900 and 9000"
        )


def _stopped(proc: subprocess.Popen) -> int:
    """SIGTERM to a judge started here; its exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=20)


def _one_line(text: str) -> str:
    """The one line of `text` not written by logging (no timestamp): what the operator reads."""
    lines = [line for line in text.splitlines() if not line[:4].isdigit()]
    assert len(lines) == 1, text
    return lines[0]


def test_a_second_judge_on_the_same_database_is_refused(tmp_path: Path) -> None:
    """Two judges on one database would handle the same mail and send each reply twice:
    the second, on a port of its own (so nothing else stops it), refuses to start, and
    so does `judge run --once` while the daemon runs; the first answers every mail once."""
    port, other = free_port(), free_port()
    first = start_judge(judge_toml(tmp_path, "FIRST", port), port)
    try:
        assert first.poll() is None
        second_folder = tmp_path / "second"
        second_folder.mkdir()
        config = judge_toml(second_folder, "SECOND", other)
        # By a symbolic link: the same file under another name is the same database.
        (second_folder / "judge.db").symlink_to(tmp_path / "judge.db")
        second = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        lock = tmp_path / "judge.db.lock"
        refusal = (
            f"judge: not started: another judge is running on the database "
            f"{second_folder / 'judge.db'} (process {first.pid}; it holds {lock}): stop it first, "
            "or give this one its own judge.database"
        )
        assert (second.returncode, _one_line(second.stderr)) == (2, refusal)
        once = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run", "--once"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert (once.returncode, _one_line(once.stderr)) == (2, refusal)
        checked = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "check-config"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert checked.stdout.splitlines()[2].endswith(
            f"; a judge is running on it (process {first.pid})"
        )
        backup = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "backup", "--force"]
            + [str(lock)],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert backup.stderr == (
            f"judge: the backup cannot overwrite {lock}, a file of the database's own\n"
        )
        send(port, player_mail(body="HELP\r\n"))
        assert wait_until(lambda: len(maildir(tmp_path / "outbox")) == 1)
        assert not (second_folder / "outbox").exists()
    finally:
        assert _stopped(first) == 0
    # Stopped (or killed: the kernel's lock goes with the process), the next one starts.
    again = start_judge(judge_toml(tmp_path, "FIRST", port), port)
    assert again.poll() is None and _stopped(again) == 0
    assert len(maildir(tmp_path / "outbox")) == 1


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "judge.ops.cli",
                "--config",
                str(judge_toml(tmp_path, "T", port)),
                "run",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert (proc.returncode, _one_line(proc.stderr)) == (
        2,
        f"judge: not started: the SMTP receiver cannot listen on 127.0.0.1:{port}: the port "
        "is in use (by another program, or another judge) (inbound.smtp)",
    )
    assert "Traceback" not in proc.stderr


def test_sighup_with_a_broken_file_keeps_the_running_configuration(tmp_path: Path) -> None:
    port = free_port()
    config = judge_toml(tmp_path, "BEFORE", port)
    log_path = tmp_path / "judge.log"
    with log_path.open("w") as log:
        proc = start_judge(config, port, log=log)
        try:
            for broken, why in [
                (b'[judge]\nname = "Bj\xf6rn"\n', "not UTF-8 text (line 2 has the byte 0xf6)"),
                (f'[outbound.smtp]\nport = "{SECRET}"\n'.encode(), "must be a whole number"),
            ]:
                config.write_bytes(broken)
                proc.send_signal(signal.SIGHUP)
                assert wait_until(lambda why=why: why in log_path.read_text())
            send(port, player_mail(subject="still", body="HELP\r\n"))
            assert wait_until(lambda: len(maildir(tmp_path / "outbox")) == 1)
            assert maildir(tmp_path / "outbox")[0]["Subject"] == "Re: BEFORE still"
        finally:
            assert _stopped(proc) == 0
    text = log_path.read_text()
    assert text.count("SIGHUP: configuration not reloaded") == 2
    assert "Traceback" not in text and SECRET not in text


def test_operator_tools_beside_a_running_judge_leave_its_database_whole(tmp_path: Path) -> None:
    """games, outbox, inbox, backup and export while the daemon takes mail: each answers
    at once (no wait on the daemon's writes), and the database passes its integrity check."""
    port = free_port()
    config = judge_toml(tmp_path, "T", port)
    proc = start_judge(config, port)
    try:
        for n in range(5):
            send(port, player_mail(subject=f"help {n}", body="HELP\r\n"))
        for command in (
            ["games"],
            ["outbox", "--retry"],
            ["inbox"],
            ["backup", str(tmp_path / "copy.db")],
            ["export", "nosuch"],
        ):
            started = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "judge.ops.cli", "--config", str(config), *command],
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert time.monotonic() - started < 10, command
            assert "Traceback" not in done.stderr, command
        assert wait_until(lambda: len(maildir(tmp_path / "outbox")) == 5)
    finally:
        assert _stopped(proc) == 0
    for db in ("judge.db", "copy.db"):
        conn = sqlite3.connect(tmp_path / db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()


def test_a_file_the_operator_names_that_cannot_be_written_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge_harness import Judge

    Judge(tmp_path).start_game()
    path = write_config(tmp_path)
    nowhere = "/proc/self/no-such-folder/out"
    for command, target, why in [
        (["export", "war1", "-o"], nowhere, "No such file or directory"),
        (["export", "war1", "-o"], str(tmp_path), "Is a directory"),
        (["map", "war1", "-o"], nowhere + ".svg", "No such file or directory"),
        (["init"], "/proc/judge.toml", "No such file or directory"),
    ]:
        status, out, err = run(capsys, "--config", str(path), *command, target)
        assert (status, out, err) == (1, [], f"judge: cannot write {target}: {why}\n")


def test_run_once_with_the_imap_server_down_still_does_the_rest(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    path = write_config(
        tmp_path,
        f'[inbound]\nmode = "imap"\n[inbound.imap]\nport = {port}\nssl = false\n'
        f'username = "judge"\npassword = "{SECRET}"\n[outbound.maildir]\npath = "out"\n',
    )
    done = subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "--config", str(path), "run", "--once"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0
    lines = [line.split(" ", 2)[2] for line in done.stderr.splitlines()]
    assert lines == [
        f"judge WARNING IMAP 127.0.0.1:{port}: nothing fetched "
        "(ConnectionRefusedError: [Errno 111] Connection refused); the mailbox is tried "
        "again at the next run",
        "judge INFO fetched 0, handled 0, deadline mails 0, sent 0",
    ]


def test_an_escape_sequence_from_mail_never_reaches_the_operators_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import UTC, datetime

    from judge.store import inbox

    path = write_config(tmp_path)
    db = open_db(tmp_path / "j.db")
    raw = b"From: a\x1b[2J\x1b]0;owned\x07@example.org\r\nSubject: s\r\n\r\nHELP\r\n"
    inbox.ingest(db, raw, "smtp", datetime(2026, 1, 1, tzinfo=UTC))
    db.execute("UPDATE inbound SET state = 'failed', attempts = 3, error = 'E: \x1b[8m'")
    db.conn.commit()
    db.conn.close()
    status, out, err = run(capsys, "--config", str(path), "inbox")
    assert status == 0 and err == ""
    assert (
        out[-1] == "1   failed  2026-01-01 00:00 UTC  a\\x1b  3         -             E: \\x1b[8m"
    )
    assert not any(ord(c) < 32 for line in out for c in line)


def test_sigterm_during_the_start_loses_nothing(tmp_path: Path) -> None:
    """SIGTERM at moments of the start (before and after the handlers are set): the judge
    ends, and the next start takes mail on the same database, whole."""
    port = free_port()
    config = judge_toml(tmp_path, "T", port)
    for delay in (0.05, 0.4):
        proc = subprocess.Popen(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode in (0, -signal.SIGTERM) and "Traceback" not in err
    proc = start_judge(config, port)
    try:
        send(port, player_mail(body="HELP\r\n"))
        assert wait_until(lambda: len(maildir(tmp_path / "outbox")) == 1)
    finally:
        assert _stopped(proc) == 0
    conn = sqlite3.connect(tmp_path / "judge.db")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_check_config_tries_the_map_folder_as_run_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mine.toml").write_text("")
    for folder, verdict in [
        ("nowhere", "FAILED: does not exist"),
        ("file", "FAILED: is not a folder"),
        ("maps", "ok: a folder of 1 map"),
    ]:
        path = write_config(tmp_path, f'maps = "{folder}"\n[inbound.smtp]\nport = 0\n')
        status, out, _ = run(capsys, "--config", str(path), "check-config")
        assert out[3] == f"maps: {tmp_path / folder}: {verdict}"
        assert status == (0 if folder == "maps" else 1)


def test_output_into_a_closed_pipe_is_no_traceback(tmp_path: Path) -> None:
    """`judge games | head -1`: the reader goes away; the tool ends quietly, status 1."""
    path = write_config(tmp_path, "[inbound.smtp]\nport = 0\n")
    reader, writer = os.pipe()
    os.close(reader)  # gone before the first line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "judge.ops.cli", "--config", str(path), "check-config"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (1, "")


def test_a_tool_of_a_newer_judge_never_migrates_under_a_running_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The judge upgraded, not yet restarted: `judge games` of the new version would bring
    the database to its schema under the old daemon's feet. It refuses, and says why."""
    from judge.config import load_config
    from judge.service.startup import sole_judge

    path = write_config(tmp_path)
    open_db(tmp_path / "j.db").conn.close()
    conn = sqlite3.connect(tmp_path / "j.db")
    conn.execute(f"PRAGMA user_version = {_schema() - 1}")
    conn.close()
    with sole_judge(load_config(path)):  # the running (older) judge
        status, out, err = run(capsys, "--config", str(path), "games")
    assert (status, out, err) == (
        1,
        [],
        f"judge: {tmp_path / 'j.db'} has schema version {_schema() - 1}, older than this "
        f"judge's ({_schema()}), and a judge (process {os.getpid()}) is running on it: "
        "restart that judge with this version first (it brings the database up to date)\n",
    )
    conn = sqlite3.connect(tmp_path / "j.db")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == _schema() - 1
    conn.close()


def test_a_control_character_in_a_sender_reaches_the_log_written_out(tmp_path: Path) -> None:
    # The SMTP receiver takes MAIL FROM:<a\rb@c>, and its log line named the sender as
    # it came: on a terminal the bare CR sent the cursor back, and what followed wrote
    # over the line, so the log could be made to show what it never said.
    port = free_port()
    config = judge_toml(tmp_path, "CR", port)
    log_path = tmp_path / "judge.log"
    with log_path.open("w") as log:
        proc = start_judge(config, port, log=log, cwd=tmp_path)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                said = s.makefile("rb")
                said.readline()  # 220
                for line, code in (
                    (b"HELO x\r\n", b"250"),
                    (b"MAIL FROM:<ev\ril@example.org>\r\n", b"250"),
                    (b"RCPT TO:<judge@example.org>\r\n", b"250"),
                    (b"DATA\r\n", b"354"),
                    (b"From: p@example.org\r\nSubject: x\r\n\r\nHELP\r\n.\r\n", b"250"),
                ):
                    s.sendall(line)
                    assert said.readline().startswith(code)
            assert wait_until(lambda: "from p@example.org: handled" in log_path.read_text())
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    text = log_path.read_bytes()
    assert b"stored message 1 from <ev\\x0dil@example.org>" in text
    assert b"\r" not in text
