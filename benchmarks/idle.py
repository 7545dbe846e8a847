"""Idle speed: the cost of one daemon pass over 10,000 active games with nothing due.

Builds the games in a temporary store on disk with the judge's own functions: one game is
started for real (judge.game.play.start_game), the others are copies of it made with
judge.store.games (a master, seven players, the same first position), each with its own
deadline two to three days ahead, so no reminder, deadline or grace is due. Then times
what the daemon's loop does on each pass between events: `schedule.run_due` (with
nothing due) and the wake computation handed to `schedule.Timers.sync`. The first pass
is timed apart (it may do the start-up's work); the figure is the median of the next
passes. With `--daemon SECONDS`, it then starts the real `judge run` (embedded SMTP
receiver, Maildir outbox) on that store in a process of its own and reports the time from
its start to its SMTP port answering, the CPU it and its worker processes use while idle
over SECONDS, and its resident memory, then with its workers (from /proc); then again
with its relay down (a port nobody listens on) and 200 mails waiting to be sent. Prints
figures; asserts nothing.

    python benchmarks/idle.py [--games 10000] [--passes 5] [--dir PATH] [--daemon SECONDS]
"""

from __future__ import annotations

import argparse
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from burst_daemon import tree_cpu, tree_rss  # noqa: E402
from smtp_sink import free_port  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.game import play  # noqa: E402
from judge.game.passwords import hash_password  # noqa: E402
from judge.service import schedule  # noqa: E402
from judge.store import games, outbox  # noqa: E402
from judge.store.audit import iso  # noqa: E402
from judge.store.db import open_db, transaction  # noqa: E402

START = datetime(2030, 3, 11, 9, 0, tzinfo=UTC)


def build(db, config: Config, count: int) -> None:
    """`count` active games in Spring 1901, deadlines spread over a day, two days ahead."""
    password = hash_password("secret")  # one scrypt hash for every seat: setup speed only
    with transaction(db):
        first = games.create_game(db, "idle0", "standard", START)
        _seats(db, first, 0, password)
        play.start_game(db, config, first, START, seed=1901)
        first = games.get_game(db, first.id)
        position = games.phase_position(db, first, first.phase or "")
        for i in range(1, count):
            game = games.create_game(db, f"idle{i}", "standard", START)
            _seats(db, game, i, password)
            deadline = iso(START + timedelta(days=2, seconds=(i * 8.64) // 1))
            game = games.update_game(
                db, game, START, state=games.ACTIVE, phase=first.phase, deadline=deadline
            )
            games.add_phase(db, game, first.phase or "", position, deadline, START)


def _seats(db, game: games.Game, i: int, password: str) -> None:
    games.add_seat(db, game, games.MASTER, f"gm{i}@example.org", password, START)
    for p in range(7):
        games.add_seat(db, game, games.PLAYER, f"p{p}.g{i}@example.org", password, START)


def _wake_events() -> Callable[..., dict[str, datetime]]:
    """What the daemon hands to Timers.sync after run_due."""
    return getattr(schedule, "next_wake", schedule.next_events)


SETTLE = 10.0  # seconds after the SMTP port answers before the idle CPU is measured


def daemon_figures(folder: Path, seconds: float, relay_down: bool = False) -> list[str]:
    """`judge run` on the store in `folder`: start-up to its SMTP port answering, then
    its CPU share and resident memory over `seconds` of idleness. `relay_down`: its relay
    is a port nobody listens on, and 200 mails wait in its outbox."""
    port = free_port()
    config = folder / "judge.toml"
    if relay_down:
        relay = free_port()  # nobody listens there
        outbound = '[outbound]\nmode = "smtp"\n[outbound.smtp]\nhost = "127.0.0.1"\n'
        outbound += f"port = {relay}\n"
        _queue_mails(folder / "judge.db", 200)
    else:
        outbound = '[outbound]\nmode = "maildir"\n[outbound.maildir]\npath = "outbox"\n'
    config.write_text(
        '[judge]\nname = "IDLE"\naddress = "judge@example.org"\ndatabase = "judge.db"\n'
        f'[inbound]\nmode = "smtp"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = {port}\n' + outbound
    )
    command = [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run"]
    started = time.perf_counter()
    quiet = subprocess.DEVNULL
    proc = subprocess.Popen(command, cwd=folder, stdout=quiet, stderr=quiet)
    try:
        while proc.poll() is None and not _answers(port):
            time.sleep(0.01)
        ready = time.perf_counter() - started
        time.sleep(SETTLE)  # the start done: workers warmed, the first passes over
        cpu0, wall0 = sum(tree_cpu(proc.pid)[:2]), time.perf_counter()
        time.sleep(seconds)
        cpu = sum(tree_cpu(proc.pid)[:2]) - cpu0
        wall = time.perf_counter() - wall0
        rss = tree_rss(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    what = "relay down, 200 mails waiting" if relay_down else "idle"
    return [
        f"judge run ({what}): start to its SMTP port answering {ready:.2f} s",
        f"{what} over {wall:.0f} s: {cpu / wall:.2%} of one core, its worker processes' "
        f"included; resident memory {rss[0]:.0f} MB, with its worker processes {rss[1]:.0f} MB",
    ]


def _queue_mails(database: Path, count: int) -> None:
    """`count` plain mails queued in the outbox, as replies waiting to be sent."""
    db = open_db(database)
    with transaction(db):
        for i in range(count):
            raw = (
                f"From: judge@example.org\r\nTo: p{i}@example.org\r\nSubject: waiting {i}\r\n"
                f"Message-ID: <waiting-{i}@example.org>\r\n\r\nA mail waiting for the relay.\r\n"
            ).encode()
            outbox.queue(
                db, raw, f"<waiting-{i}@example.org>", [f"p{i}@example.org"], "reply", START
            )
    db.conn.close()


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--dir", default=None, help="where to put the temporary database")
    parser.add_argument("--daemon", type=float, default=0, help="then run judge run this long")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="judge-bench-") as tmp:
        config = Config(
            name="BENCH",
            address="judge@example.org",
            database=Path(tmp) / "judge.db",
            maildir=Path(tmp) / "outbox",
        )
        db = open_db(config.database)
        start = time.perf_counter()
        build(db, config, args.games)
        setup = time.perf_counter() - start
        now = START + timedelta(hours=1)
        wake = _wake_events()
        timers = schedule.Timers(lambda: None, lambda: now, lambda: START)
        timers.start()
        try:
            passes = []
            for _ in range(args.passes + 1):
                t0 = time.perf_counter()
                schedule.run_due(db, config, lambda: now)
                t1 = time.perf_counter()
                events = wake(db)
                t2 = time.perf_counter()
                timers.sync(events)
                t3 = time.perf_counter()
                passes.append((t1 - t0, t2 - t1, t3 - t2, len(timers.pending())))
        finally:
            timers.stop()
        db.conn.close()
        daemon = []
        if args.daemon:
            daemon = daemon_figures(Path(tmp), args.daemon)
            daemon += daemon_figures(Path(tmp), args.daemon, relay_down=True)

    print(f"games: {args.games} active, nothing due (setup {setup:.1f} s, not in the figures)")
    print(f"wake computation: schedule.{wake.__name__}")
    first = passes[0]
    print(
        f"first pass: run_due {first[0] * 1000:.1f} ms, wake {first[1] * 1000:.1f} ms, "
        f"Timers.sync {first[2] * 1000:.1f} ms ({first[3]} timer jobs)"
    )
    rest = passes[1:]
    due, wake_ms, sync = (statistics.median(p[i] for p in rest) * 1000 for i in range(3))
    print(
        f"next passes (median of {len(rest)}): run_due {due:.3f} ms, wake {wake_ms:.3f} ms, "
        f"Timers.sync {sync:.3f} ms; one pass {due + wake_ms + sync:.3f} ms "
        f"({rest[-1][3]} timer jobs)"
    )

    for line in daemon:
        print(line)


if __name__ == "__main__":
    main()
