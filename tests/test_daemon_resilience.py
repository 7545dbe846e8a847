"""The daemon stops cleanly on any number of SIGTERM/SIGINT, and no fault of the moment
ends it: a pass of its loop that raises is logged and tried again after a back-off.

The signal tests start a real `judge run` process (SMTP receiver, Maildir outbox) and
send it a burst of signals, the later ones arriving while it is already shutting down.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from live_judge import (
    judge_toml,
    listening,
    maildir,
    send,
    smtp_config,
    start_judge,
    wait_until,
)
from servers import running_judge
from smtp_sink import free_port

from judge.service import daemon
from judge.service.daemon import real_clock
from judge.service.handling import handle_waiting

STOP_WITHIN = 5.0  # seconds from the first signal to the process's exit
HELP_MAIL = b"From: a@example.org\r\nSubject: hi\r\n\r\nHELP\r\n"


def _start(tmp: Path) -> tuple[subprocess.Popen, Path, int]:
    """`judge run` on a fresh store; returns once its SMTP port answers."""
    port = free_port()
    log = tmp / "judge.log"
    with log.open("wb") as err:
        proc = start_judge(judge_toml(tmp, "SIG", port), port, log=err, cwd=tmp, seconds=30)
    if proc.poll() is None and listening(port):
        return proc, log, port
    assert proc.poll() is None, log.read_text()
    proc.kill()
    pytest.fail(f"the judge did not listen on {port}:\n{log.read_text()}")


@pytest.mark.parametrize(
    "signals",
    [
        [signal.SIGTERM] * 10,
        [signal.SIGINT] * 10,
        [signal.SIGTERM, signal.SIGINT, signal.SIGHUP] * 4,
    ],
    ids=["sigterm", "sigint", "mixed"],
)
def test_a_burst_of_signals_stops_the_judge_cleanly(
    tmp_path: Path, signals: list[signal.Signals]
) -> None:
    for attempt in range(3):  # the hang was a race: try it a few times
        folder = tmp_path / str(attempt)
        folder.mkdir()
        proc, log, port = _start(folder)
        send(port, HELP_MAIL, sender="a@example.org")  # some work in flight
        first = time.monotonic()
        for sig in signals:
            os.kill(proc.pid, sig)
            time.sleep(0.003)  # the later ones land during the shutdown
        try:
            status = proc.wait(timeout=STOP_WITHIN - (time.monotonic() - first))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"the judge did not stop within {STOP_WITHIN} s:\n{log.read_text()}")
        text = log.read_text()
        assert status == 0, text
        assert text.rstrip().endswith("judge INFO stopped"), text
        assert "Traceback" not in text


def test_a_raising_pass_is_logged_and_the_loop_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """handle_waiting raises on its first three passes (a locked database, say): the
    daemon logs each, backs off, and then handles the mail all the same."""
    calls: list[int] = []

    def flaky(db, config, clock, **options):
        calls.append(1)
        if len(calls) <= 3:
            raise OSError("the disk hiccuped")
        return handle_waiting(db, config, clock, **options)

    monkeypatch.setattr(daemon, "handle_waiting", flaky)
    monkeypatch.setattr(daemon, "LOOP_BACKOFF_MAX", 0.05)
    config = smtp_config(tmp_path)
    with caplog.at_level(logging.INFO), running_judge(config, real_clock):
        send(config.smtp_in.port, HELP_MAIL, sender="a@example.org")
        wait_until(lambda: maildir(tmp_path / "outbox"))
        replies = list((tmp_path / "outbox" / "new").glob("*"))
    assert len(replies) == 1
    raised = [r.getMessage() for r in caplog.records if "main loop raised" in r.getMessage()]
    assert [line.split("\n")[0] for line in raised] == [
        f"a pass of the main loop raised OSError: the disk hiccuped (at "
        f"test_daemon_resilience.py:{flaky.__code__.co_firstlineno + 3} in flaky) "
        f"({n} in a row); trying again in 0 s"
        for n in (1, 2, 3)
    ]
    assert caplog.records[-1].getMessage() == "stopped"


IGNORING = """
import signal, sys
from judge.service import daemon

class Late:
    # How CPython reports a signal come as its handler was being set to SIG_IGN: an
    # OSError written as unraisable (by the same hook as an exception in __del__).
    def __init__(self, text):
        self.text = text
    def __del__(self):
        raise OSError(self.text)

signals = daemon._Signals(daemon._Wakeup())
assert signal.getsignal(signal.SIGTERM) == signals._on_stop
signals.release()
assert [signal.getsignal(s) for s in daemon._SIGNALS] == [signal.SIG_IGN] * 3
daemon._Signals(daemon._Wakeup()).release()  # a second run in the process: hooked once
assert sys.unraisablehook.args == (sys.__unraisablehook__,)
for number in (15, 2, 1):
    Late(f"Signal {number} ignored due to race condition")
Late("Signal 10 ignored due to race condition")  # not one of the judge's
Late("disk I/O error")
print("done", file=sys.stderr)
"""


def test_a_signal_come_as_the_judge_stops_listening_leaves_no_traceback(
    tmp_path: Path,
) -> None:
    # The mixed burst once ended with a traceback ending in signal.signal: a signal come in
    # the instant release() set its handler to SIG_IGN is reported by CPython as an
    # unraisable OSError, after the judge's last log line (a loop of install and release
    # under 9,400 signals showed two in three seconds). Those reports alone are dropped.
    script = tmp_path / "ignoring.py"
    script.write_text(IGNORING)
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert done.returncode == 0, done.stderr
    reports = [line for line in done.stderr.splitlines() if line.startswith("OSError")]
    assert reports == [
        "OSError: Signal 10 ignored due to race condition",
        "OSError: disk I/O error",
    ]
    assert done.stderr.endswith("done\n")
