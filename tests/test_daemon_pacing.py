"""The daemon's passes while a burst's mail is sent (service/daemon._paced): woken by a
picture while the send threads are busy, the next pass waits for the rest of
PASS_GAP_SECONDS; the threads running low, a mail come, or a stop let it go at once."""

from __future__ import annotations

import time

from judge.service import daemon

LATER = 3600.0  # a pass started this far ahead: its gap never runs out in a test


class _Wakeup:
    """The loop's wake-up: records each wait, sleeping it only if `sleeps`; a mail comes
    with the wait numbered `mail_at`."""

    def __init__(self, sleeps: bool = False, mail_at: int | None = None) -> None:
        self.mail = False
        self.waits: list[float] = []
        self.sleeps = sleeps
        self.mail_at = mail_at

    def wait(self, timeout: float) -> None:
        self.waits.append(timeout)
        self.mail = self.mail or len(self.waits) == self.mail_at
        if self.sleeps:
            time.sleep(timeout)


class _Threads:
    """Send threads busy when asked the first `busy_for` times."""

    def __init__(self, busy_for: int = 10**9) -> None:
        self.busy_for = busy_for
        self.asked = 0

    def busy(self) -> bool:
        self.asked += 1
        return self.asked <= self.busy_for


def _never() -> bool:
    return False


def test_a_pass_woken_while_the_threads_are_busy_waits_out_the_gap() -> None:
    wakeup = _Wakeup(sleeps=True)
    started = time.monotonic()
    daemon._paced(wakeup, started, _Threads(), _never)
    assert time.monotonic() - started >= daemon.PASS_GAP_SECONDS
    assert wakeup.waits and all(0 < w <= daemon.PASS_GAP_SECONDS for w in wakeup.waits)
    # The gap already past: at once.
    past = _Wakeup()
    daemon._paced(past, time.monotonic() - LATER, _Threads(), _never)
    assert past.waits == []


def test_a_pass_goes_at_once_when_the_threads_run_low_mail_comes_or_the_daemon_stops() -> None:
    low = _Wakeup()
    daemon._paced(low, time.monotonic() + LATER, _Threads(busy_for=0), _never)
    assert low.waits == []
    mail = _Wakeup()
    mail.mail = True
    daemon._paced(mail, time.monotonic() + LATER, _Threads(), _never)
    assert mail.waits == []
    stop = _Wakeup()
    daemon._paced(stop, time.monotonic() + LATER, _Threads(), lambda: True)
    assert stop.waits == []
    # Woken during the gap: by a mail with the second wake-up, by the threads running low
    # (they wake the loop) after the third.
    came = _Wakeup(mail_at=2)
    daemon._paced(came, time.monotonic() + LATER, _Threads(), _never)
    assert len(came.waits) == 2
    lower = _Wakeup()
    daemon._paced(lower, time.monotonic() + LATER, _Threads(busy_for=3), _never)
    assert len(lower.waits) == 3
