"""The README's two commands in substance, in a fresh clone of this repository.

`git clone` the repository this test runs in, create a clean virtual environment with
`python3 -m venv`, install the judge into it, and then, with the clone as the working
directory and no configuration file (the embedded defaults):

- `judge --help` and `judge adjudicate` on one JSON line (Contract 1);
- `judge run`, the daemon, as `make run` starts it; one mail sent to it by smtplib, as
  the README's example does, is answered into the clone's var/outbox/new/;
- `judge run --once`: a mail stored by the judge's SMTP receiver (started alone in a
  subprocess, so that nothing handles it) is handled and answered into var/outbox/new/.

The embedded defaults listen on 127.0.0.1:2525. When that port is busy (a judge running
on this machine), the daemon is given a judge.toml outside the clone with a free port and
the embedded defaults' database and Maildir inside the clone; `judge run --once` always
runs on the embedded defaults.

The install is a regular `pip install .`, which proves the packaging: the map, the
mail templates and the example configuration ship as data files under
<prefix>/share/judge/ (judge/paths.py finds them there).

The clone holds the last commit: uncommitted changes are not tested here.
"""

from __future__ import annotations

import email
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from email.policy import default
from pathlib import Path

from live_judge import listening, wait_until
from live_judge import send as send_smtp
from smtp_sink import free_port

REPO = Path(__file__).resolve().parent.parent
INSTALL = ["."]  # a regular install: maps, templates and config ship as data files
TIMEOUT = 60  # for any one command


def run(cmd: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("timeout", TIMEOUT)
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout}\n{result.stderr}"
    return result


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 20) -> None:
    def up() -> bool:
        assert process.poll() is None, process.communicate()
        return listening(port)

    if not wait_until(up, seconds):
        raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def send(port: int, sender: str, subject: str, body: str) -> None:
    raw = f"From: {sender}\r\nSubject: {subject}\r\n\r\n{body}\r\n".encode()
    send_smtp(port, raw, sender=sender, to="judge@localhost", timeout=10)


def replies(maildir: Path) -> dict[str, email.message.EmailMessage]:
    """The mails in maildir/new, by subject ("[Error Flag] " taken off)."""
    new = maildir / "new"
    if not new.is_dir():
        return {}
    out = {}
    for path in sorted(new.iterdir()):
        msg = email.message_from_bytes(path.read_bytes(), policy=default)
        out[str(msg["Subject"]).replace("Re: [Error Flag] ", "Re: ", 1)] = msg
    return out


def wait_for_reply(maildir: Path, subject: str, seconds: float = 20):
    if wait_until(lambda: subject in replies(maildir), seconds):
        return replies(maildir)[subject]
    raise AssertionError(f"no reply {subject!r} in {maildir}/new: {list(replies(maildir))}")


def check_reply(msg, sender: str, line: str) -> None:
    assert msg["To"] == sender
    assert msg["Subject"].startswith("Re: [Error Flag] ")  # orders from someone in no game
    assert msg["From"] == "JUDGE judge <judge@localhost>"
    body = msg.get_content()
    assert f"Line 1: {line}" in body, body
    assert "needs a SIGNON line" in body, body


def test_the_readme_commands_in_a_fresh_clone(tmp_path: Path) -> None:
    started = time.monotonic()
    clone, venv = tmp_path / "judge", tmp_path / "venv"
    run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(clone)], tmp_path)
    assert not (clone / "var").exists() and not (clone / "judge.toml").exists()
    run(["python3", "-m", "venv", str(venv)], tmp_path)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run([*pip, "--disable-pip-version-check", *INSTALL], clone, timeout=100)
    judge = str(venv / "bin" / "judge")
    # Nothing from this checkout's environment leaks in: the clone's judge is the one run.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    where = run([str(venv / "bin" / "python"), "-c", "import judge; print(judge.__file__)"], clone)
    assert Path(where.stdout.strip()).resolve().is_relative_to(clone.resolve()), where.stdout

    # judge --help names the commands.
    help_text = run([judge, "--help"], clone, env=env).stdout
    for command in ("adjudicate", "run", "init", "check-config"):
        assert command in help_text, help_text

    # judge adjudicate: the README's example line.
    line = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"]},
        "orders": {"FRANCE": ["A Par-Bur", "A Mar S A Par - Bur"]},
    }
    out = run([judge, "adjudicate"], clone, env=env, input=json.dumps(line) + "\n").stdout
    outcome = json.loads(out)
    assert outcome["results"]["FRANCE"] == [
        {"order": "A PAR - BUR", "given": "A Par-Bur", "result": "ok"},
        {"order": "A MAR S A PAR - BUR", "given": "A Mar S A Par - Bur", "result": "ok"},
    ]
    assert outcome["units"] == {"FRANCE": ["A BUR", "A MAR"]}

    maildir = clone / "var" / "outbox"
    elsewhere = tmp_path / "elsewhere"  # configurations, never in the clone
    elsewhere.mkdir()

    def config_with_port(port: int) -> Path:
        path = elsewhere / f"judge-{port}.toml"
        path.write_text(
            f'[judge]\ndatabase = "{clone / "var" / "judge.db"}"\n'
            f"[inbound.smtp]\nport = {port}\n"
            f'[outbound.maildir]\npath = "{maildir}"\n'
        )
        return path

    # `make run`: the daemon on the embedded defaults (or on a free port, see above).
    if port_free(2525):
        port, args = 2525, [judge, "run"]
    else:
        port = free_port()
        args = [judge, "--config", str(config_with_port(port)), "run"]
    daemon = subprocess.Popen(
        args, cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for_port(port, daemon)
        send(port, "me@example.org", "hello", "A Par-Bur")
        check_reply(wait_for_reply(maildir, "Re: JUDGE hello"), "me@example.org", "A Par-Bur")
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=20)
    assert daemon.returncode == 0, err
    if port == 2525:
        assert "The JUDGE judge is running (embedded defaults)." in err, err
    assert (clone / "var" / "judge.db").is_file()

    # `judge run --once`: a mail stored by the SMTP receiver alone, then handled.
    port = free_port()
    receiver = subprocess.Popen(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import sys\n"
            "from judge.config import load_config\n"
            "from judge.service.daemon import real_clock\n"
            "from judge.mail.smtp_in import SmtpReceiver\n"
            "receiver = SmtpReceiver(load_config(sys.argv[1]), real_clock)\n"
            "receiver.start()\n"
            "sys.stdin.read()\n"
            "receiver.stop()\n",
            str(config_with_port(port)),
        ],
        cwd=clone,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(port, receiver)
        send(port, "you@example.org", "second", "F Bre - MAO")
    finally:
        _, err = receiver.communicate(input="", timeout=20)
    assert receiver.returncode == 0, err
    assert "Re: JUDGE second" not in replies(maildir)  # stored, not handled
    result = run([judge, "run", "--once"], clone, env=env)
    assert "handled 1" in result.stderr and "sent 1" in result.stderr, result.stderr
    check_reply(replies(maildir)["Re: JUDGE second"], "you@example.org", "F Bre - MAO")
    assert len(replies(maildir)) == 2
    assert not (clone / "judge.toml").exists()

    elapsed = time.monotonic() - started
    assert elapsed < 120, f"the fresh clone took {elapsed:.0f} s"
    shutil.rmtree(venv)  # large; the rest of tmp_path is kept for a look after a failure
