"""Worker processes that end with the daemon that started them.

The password and picture pools (service/prechecks.py, service/picture_pool.py) are
ProcessPoolExecutors started through a fork server. A worker waits on its task queue,
whose pipe it holds open itself, so it never sees the daemon die: a daemon killed with
SIGKILL (or by the kernel for memory) would leave its workers, the fork server and the
resource tracker running for ever, each life of a crashing judge a few more. So each
worker, as it starts, watches the daemon's process and exits when it ends.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

WATCH_EVERY = 1.0  # seconds between looks where the system has no process handles
# A worker still running this long after its pool was shut down is killed (stop_pool).
STOP_SECONDS = 2.0


def watch(parent: int) -> None:
    """A pool worker's initializer (initargs `(os.getpid(),)`), or part of one: end this
    process as soon as process `parent` has ended (before any task, if it already has),
    with os._exit: a worker owes no cleanup to anyone."""
    try:
        handle = os.pidfd_open(parent)  # Linux: readable once that very process ends
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no process handles here: look now and then
        if not _alive(parent):
            os._exit(0)
        threading.Thread(target=_look_then_exit, args=(parent,), daemon=True).start()
        return
    threading.Thread(target=_wait_then_exit, args=(handle,), daemon=True).start()


def _wait_then_exit(handle: int) -> None:
    select.select([handle], [], [])
    os._exit(0)


def _look_then_exit(parent: int) -> None:
    while _alive(parent):
        time.sleep(WATCH_EVERY)
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def stop_pool(pool: ProcessPoolExecutor, seconds: float = STOP_SECONDS) -> None:
    """Shut `pool` down without waiting for its tasks, and end its workers: those still
    running `seconds` later are killed (a worker owes no cleanup to anyone). The daemon's
    interpreter joins its pools' workers as it exits: a picture stuck in a worker held
    the daemon's stop until it was drawn, and once, under load, a worker that never got
    its pool's word to stop held it for ever. The pool's manager thread is then waited
    for too: on Python 3.11 the interpreter's exit wakes each pool's manager thread
    through a pipe that thread closes as it ends, and the two racing wrote to the closed
    pipe ("Bad file descriptor": a traceback after the daemon's last log line)."""
    pids = [p.pid for p in list((pool._processes or {}).values()) if p.pid]
    # Taken before the shutdown, which forgets it (sets it to None): read after it, the
    # thread was never waited for, and the traceback above still came now and then.
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    ends = time.monotonic() + seconds
    while (running := [pid for pid in pids if _alive(pid)]) and time.monotonic() < ends:
        time.sleep(0.02)
    for pid in running:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if manager is not None:  # private, as _processes: the pool names its thread nowhere else
        manager.join(seconds)
