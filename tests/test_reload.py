"""SIGHUP reloads the configuration of a running `judge run`; logging says what it did."""

from __future__ import annotations

import signal
from pathlib import Path

from live_judge import judge_toml, maildir, send, start_judge, wait_until
from smtp_sink import free_port


def _send(port: int, n: int) -> None:
    mail = (
        f"From: p@example.org\r\nSubject: hello {n}\r\nMessage-ID: <reload-{n}@example.org>\r\n"
        "\r\nHELP\r\n"
    )
    send(port, mail.encode(), sender="p@example.org")


def _subjects(outbox: Path, count: int) -> list[str]:
    if not wait_until(lambda: len(maildir(outbox)) >= count):
        raise AssertionError(f"expected {count} replies")
    return [m["Subject"] for m in maildir(outbox)]


def _log(tmp: Path) -> str:
    return (tmp / "judge.log").read_text()


def test_sighup_reloads_the_configuration(tmp_path: Path) -> None:
    port = free_port()
    config = judge_toml(tmp_path, "BEFORE", port)
    log = (tmp_path / "judge.log").open("w")
    proc = start_judge(config, port, log=log)
    try:
        _send(port, 1)
        assert _subjects(tmp_path / "outbox", 1) == ["Re: BEFORE hello 1"]
        judge_toml(tmp_path, "AFTER", port)
        proc.send_signal(signal.SIGHUP)
        assert wait_until(lambda: "SIGHUP: configuration reloaded" in _log(tmp_path))
        _send(port, 2)
        assert _subjects(tmp_path / "outbox", 2)[1] == "Re: AFTER hello 2"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        log.close()
    text = _log(tmp_path)
    assert "SIGHUP: configuration reloaded from" in text
    assert "message 1 from p@example.org: handled, 1 reply queued" in text
    assert "HELP" not in text  # no message bodies in the log
