"""judge/service/workers.py: the password and picture workers, their fork server and the
resource tracker end when the daemon that started them is killed with SIGKILL (they once
ran on for ever, a few more with each life of a crashing judge)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from live_judge import judge_toml, start_judge, wait_until
from smtp_sink import SmtpSink, free_port

from judge.service.workers import STOP_SECONDS, stop_pool, watch


def _children() -> dict[int, int]:
    """Every process's parent, by process id (from /proc)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended meanwhile
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def _descendants(pid: int) -> set[int]:
    parents = _children()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended: only its parent owes a wait)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def test_a_daemon_killed_leaves_no_worker_running(tmp_path: Path) -> None:
    port = free_port()
    with SmtpSink() as sink:
        config = judge_toml(tmp_path, "ORPHANS", port, sink.port)
        proc = start_judge(config, port)
        try:
            # Both pools start their workers at once: a fork server, the resource
            # tracker, and a password and a picture worker per core.
            assert wait_until(lambda: len(_descendants(proc.pid)) >= 4, timeout=30)
            family = _descendants(proc.pid)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=20)
    assert wait_until(lambda: not _running(family), timeout=30), _running(family)


def test_a_watched_worker_ends_with_the_process_it_watches() -> None:
    # A pool whose workers watch a process that is already gone: each ends at once, and
    # the pool says so rather than waiting for ever.
    gone = os.fork()
    if gone == 0:
        os._exit(0)
    os.waitpid(gone, 0)
    pool = ProcessPoolExecutor(
        1, mp_context=get_context("forkserver"), initializer=watch, initargs=(gone,)
    )
    try:
        future = pool.submit(os.getpid)
        error = future.exception(timeout=30)
        assert error is not None and type(error).__name__ == "BrokenProcessPool"
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


STOPPING = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from judge.service.workers import stop_pool, watch


def stuck(marker):
    Path(marker).write_text(str(os.getpid()))
    time.sleep(600)


if __name__ == "__main__":
    marker = Path(sys.argv[1])
    pool = ProcessPoolExecutor(
        1, mp_context=get_context("forkserver"), initializer=watch, initargs=(os.getpid(),)
    )
    pool.submit(stuck, str(marker))
    while not marker.exists() or not marker.read_text():
        time.sleep(0.01)
    stop_pool(pool, 0.5)
"""


def test_a_pool_stopped_with_a_task_stuck_in_its_worker_lets_the_process_end(
    tmp_path: Path,
) -> None:
    # The interpreter joins a pool's workers as it exits: shut down without waiting, a
    # picture stuck in a worker held the daemon's stop until it was drawn (here 600 s).
    script = tmp_path / "stopping.py"
    script.write_text(STOPPING)
    marker = tmp_path / "worker"
    proc = subprocess.Popen([sys.executable, str(script), str(marker)])
    try:
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    worker = int(marker.read_text())
    assert wait_until(lambda: not _running({worker}), timeout=30)


def test_a_stopped_pool_has_no_manager_thread_left_to_race_the_exit() -> None:
    # At the interpreter's exit, concurrent.futures wakes each pool's manager thread
    # through a pipe that thread closes as it ends; the two racing wrote to the closed pipe
    # ("Bad file descriptor", a traceback after `judge INFO stopped`, 1 burst of signals
    # in 20). stop_pool waits for the thread, which the shutdown forgets: it must take it
    # before.
    pool = ProcessPoolExecutor(
        1, mp_context=get_context("forkserver"), initializer=watch, initargs=(os.getpid(),)
    )
    assert pool.submit(os.getpid).result(timeout=30) != os.getpid()
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    waits: list[float | None] = []
    join = manager.join
    manager.join = lambda timeout=None: waits.append(timeout) or join(timeout)  # type: ignore[method-assign]  # a spy: the thread's own join, counted
    stop_pool(pool)
    assert waits == [STOP_SECONDS]
    assert not manager.is_alive()
