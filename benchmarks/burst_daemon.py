"""`benchmarks/deadlines.py --daemon`: a deadline burst through the real `judge run`.

The store is built by deadlines.build (the burst's games) and `idle_games` (the rest);
the burst's games are then given one deadline, `LEAD` seconds after the daemon is started,
so that the daemon's first passes (the next event of every game) are behind it. The
daemon is a process of its own (`python -m judge.ops.cli run`, this checkout first on its
path) with its SMTP receiver on one free loopback port and its relay on another: an
aiosmtpd controller here that notes when each mail arrives, or with `--relay smtp-sink`
Postfix's smtp-sink, which dumps each mail to a file whose time is its arrival
(benchmarks/relays.py: how the binary is fetched, and why both). Prints figures; asserts
nothing.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import players
import relays
from smtp_sink import free_port

from judge.config import Config
from judge.game import play
from judge.game.passwords import hash_password
from judge.store import games
from judge.store.audit import iso
from judge.store.db import open_db, transaction

LEAD = 15.0  # seconds from the daemon's start to the deadline
TIMEOUT = 1800.0  # give up waiting for the burst's mail after this long


def idle_games(db, config: Config, count: int, start: datetime, first_deadline: datetime) -> None:
    """`count` active games in Spring 1901 with nothing due: deadlines spread over the day
    after `first_deadline` (as benchmarks/idle.py builds them)."""
    if count <= 0:
        return
    password = hash_password("secret")
    with transaction(db):
        first = games.create_game(db, "idle0", "standard", start)
        _seats(db, first, 0, password, start)
        play.start_game(db, config, first, start, seed=1901)
        first = games.get_game(db, first.id)
        games.update_game(db, first, start, deadline=iso(first_deadline))
        position = games.phase_position(db, first, first.phase or "")
        for i in range(1, count):
            game = games.create_game(db, f"idle{i}", "standard", start)
            _seats(db, game, i, password, start)
            deadline = iso(first_deadline + timedelta(seconds=(i * 8.64) // 1))
            game = games.update_game(
                db, game, start, state=games.ACTIVE, phase=first.phase, deadline=deadline
            )
            games.add_phase(db, game, first.phase or "", position, deadline, start)


def _seats(db, game: games.Game, i: int, password: str, start: datetime) -> None:
    games.add_seat(db, game, games.MASTER, f"igm{i}@example.org", password, start)
    for p in range(7):
        games.add_seat(db, game, games.PLAYER, f"ip{p}.g{i}@example.org", password, start)


def set_deadline(db, deadline: datetime, now: datetime) -> int:
    """Give every burst game (named bench*) the one `deadline`, its reminder already
    sent (it went out a day before); how many games."""
    with transaction(db):
        rows = db.execute("SELECT id FROM games WHERE name LIKE 'bench%'").fetchall()
        for (game_id,) in rows:
            game = games.get_game(db, game_id)
            settings = replace(game.settings, grace_hours=0)
            game = games.update_game(db, game, now, settings=settings, deadline=iso(deadline))
            games.record_notice(db, game, "reminder", now)
    return len(rows)


def run(
    folder: Path,
    root: Path,
    burst: int,
    mailing: Mailing | None = None,
    relay_kind: str = "aiosmtpd",
    together: bool = False,
) -> list[str]:
    """Start the daemon on the store in `folder`, let the burst's deadline pass, wait for
    its mail; the figures as lines. With `mailing`, its players mail orders from the
    daemon's start until the burst's mail is all sent, each client waiting for its reply.
    `relay_kind`: 'aiosmtpd' or 'smtp-sink' (benchmarks/relays.py). `together`: the
    judge's `[outbound] results_together` (a game's results one mail to its readers)."""
    relay = relays.start(relay_kind)
    try:
        lines = _run(folder, root, burst, mailing, relay, together)
    finally:
        relay.stop()
        relay.cleanup()
    if together:
        lines.insert(1, "outbound.results_together: each game's results one mail to its readers")
    return lines


def _run(
    folder: Path,
    root: Path,
    burst: int,
    mailing: Mailing | None,
    relay: relays.AiosmtpdRelay | relays.SmtpSinkRelay,
    together: bool,
) -> list[str]:
    port = free_port()
    config = folder / "judge.toml"
    config.write_text(
        '[judge]\nname = "BENCH"\naddress = "judge@example.org"\ndatabase = "judge.db"\n'
        # Players revising their orders again and again mail beyond an address's limits.
        "rate_limit_per_hour = 1000000000\nreplies_per_hour = 1000000000\n"
        f'[inbound]\nmode = "smtp"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = {port}\n'
        f'[outbound]\nmode = "smtp"\nresults_together = {"true" if together else "false"}\n'
        f'[outbound.smtp]\nhost = "127.0.0.1"\nport = {relay.port}\n'
    )
    db = open_db(folder / "judge.db")
    deadline = datetime.now(UTC) + timedelta(seconds=LEAD)
    set_deadline(db, deadline, datetime.now(UTC))
    env = dict(os.environ, PYTHONPATH=str(root))
    command = [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "run"]
    if os.environ.get("BENCH_PROFILE"):  # a cProfile of the daemon, written as it stops
        command[1:1] = ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]]
    log = (folder / "daemon.log").open("wb")
    proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        started = time.perf_counter()
        while proc.poll() is None and not _answers(port):
            time.sleep(0.01)
        ready = time.perf_counter() - started
        stop = threading.Event()
        mailers = _start_mailing(mailing, port, folder / "judge.db", stop)
        time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()))
        cpu0, relay0 = tree_cpu(proc.pid), relay.cpu()
        sent = _wait(db, burst, proc)
        cpu, relay_cpu = tree_cpu(proc.pid), relay.cpu() - relay0
        rss = tree_rss(proc.pid)
        processed = _last_processed(db, deadline)
        stop.set()
        if mailers is not None:
            mailers.join()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
        db.conn.close()
    seen = relay.seen()
    figures = _figures(seen, deadline.timestamp(), burst, sent, ready, cpu0, cpu, rss)
    figures.insert(3, _timeline(seen, deadline.timestamp(), processed))
    # The relay runs here, on the same cores: what it costs is not the daemon's to spend.
    figures.insert(-2, f"the relay's CPU meanwhile ({relay.describe()}): {relay_cpu:.1f} s")
    if mailing is not None:
        last = max((t for t, _ in seen), default=deadline.timestamp())
        figures[-1:-1] = _acknowledgements(folder / "judge.db", deadline, last, mailing)
    return figures


@dataclass(frozen=True)
class Mailing:
    """Players who mail orders during the burst (benchmarks/players.py)."""

    players: list[players.Player]
    clients: int = 4
    wrong: float = 0.1  # share of mails with a wrong password


def _start_mailing(
    mailing: Mailing | None, port: int, database: Path, stop: threading.Event
) -> threading.Thread | None:
    """The players' clients, mailing until `stop` is set, each waiting for its reply."""
    if mailing is None:
        return None
    every, n = players.wrong_every(mailing.wrong), len(mailing.players)

    def mail(i: int) -> bytes:
        return players.order_mail(i, mailing.players[i % n], bool(every) and i % every == every - 1)

    thread = threading.Thread(
        target=players.send,
        args=(port, mail, range(10**9), mailing.clients, str(database), stop),
    )
    thread.start()
    return thread


def _acknowledgements(
    database: Path, deadline: datetime, last: float, mailing: Mailing
) -> list[str]:
    """The players' mails' latencies (SMTP accept to reply queued): before the deadline,
    while the burst's games are processed (the deadline to the last results mail queued),
    and between the deadline and the burst's last mail at the relay."""
    db = open_db(database)
    try:
        answered = players.latencies(db)
        [processed] = db.execute(
            "SELECT MAX(created_at) FROM outbound WHERE kind = 'results'"
        ).fetchone()
        unanswered = db.execute(
            "SELECT COUNT(*) FROM inbound i WHERE NOT EXISTS "
            "(SELECT 1 FROM outbound o WHERE o.inbound_id = i.id)"
        ).fetchone()[0]
    finally:
        db.conn.close()
    ends = datetime.fromtimestamp(last, UTC)
    before = [s for got, s in answered if got < deadline]
    during = [s for got, s in answered if deadline <= got <= ends]
    queued = datetime.fromisoformat(processed) if processed else deadline
    processing = [s for got, s in answered if deadline <= got <= queued]
    return [
        f"order mails from {len(mailing.players)} players on {mailing.clients} clients, each "
        f"waiting for its reply, one in {players.wrong_every(mailing.wrong) or 'no'} with a "
        f"wrong password: {len(answered)} answered, {unanswered} not",
        f"  before the deadline ({len(before)}): {players.quantiles(before)}",
        f"  while the games are processed, the deadline to the last results mail queued "
        f"({(queued - deadline).total_seconds():.1f} s, {len(processing)} mails): "
        f"{players.quantiles(processing)}",
        f"  during the burst, the deadline to its last mail at the relay ({len(during)}): "
        f"{players.quantiles(during)}",
    ]


def _wait(db, burst: int, proc: subprocess.Popen) -> int:
    """Wait until every burst game is in Fall 1901 and nothing is left to send; how many
    results mails were queued. The games are counted only when nothing is queued: the
    count reads the whole table (5 ms here), and ten a second took about 5% of a core
    from the judge on the cores it is measured on; the queue's count is an index's."""
    moved = "SELECT COUNT(*) FROM games WHERE name LIKE 'bench%' AND phase = 'F1901M'"
    waiting = "SELECT COUNT(*) FROM outbound WHERE state = 'queued'"
    ends = time.monotonic() + TIMEOUT
    while time.monotonic() < ends and proc.poll() is None:
        if not db.execute(waiting).fetchone()[0] and db.execute(moved).fetchone()[0] >= burst:
            break
        time.sleep(0.1)
    return db.execute("SELECT COUNT(*) FROM outbound WHERE kind = 'results'").fetchone()[0]


def _figures(
    seen: list[tuple[float, bool]],
    deadline: float,
    burst: int,
    results: int,
    ready: float,
    cpu0: tuple[float, float, float],
    cpu: tuple[float, float, float],
    rss: tuple[float, float],
) -> list[str]:
    after = [(t, pictured) for t, pictured in seen if t >= deadline]
    pictured = [t for t, p in after if p]
    last = max(pictured, default=deadline) - deadline
    every = max((t for t, _ in after), default=deadline) - deadline
    main_cpu, workers_cpu, loop_cpu = (c - c0 for c, c0 in zip(cpu, cpu0, strict=True))
    return [
        f"judge run: start to its SMTP port answering {ready:.2f} s",
        f"burst: {burst} games at one deadline; {results} results mails queued, "
        f"{len(pictured)} mails with a picture received by the relay after the deadline",
        f"the last results mail (with its picture) received {last:.1f} s after the deadline; "
        f"the last mail of all {every:.1f} s after ({len(after)} mails, "
        f"{len(after) / every if every else 0:,.0f} mails/s)",
        f"daemon CPU from the deadline to the last mail: main process {main_cpu:.1f} s (its "
        f"loop's thread {loop_cpu:.1f} s, the others: SMTP receiver, send threads), "
        f"worker processes {workers_cpu:.1f} s ({(main_cpu + workers_cpu) / every:.0%} of one "
        f"core on average)"
        if every
        else "daemon CPU: no mail",
        f"resident memory at the end: main process {rss[0]:.0f} MB, "
        f"with its worker processes {rss[1]:.0f} MB",
        f"machine: {os.cpu_count()} cores",
    ]


def _last_processed(db, deadline: datetime) -> float | None:
    """Seconds from `deadline` to the last burst game's phase processed (its next phase's
    start, the daemon's clock when it processed it)."""
    row = db.execute(
        "SELECT MAX(p.started_at) FROM phases p JOIN games g ON g.id = p.game_id "
        "WHERE g.name LIKE 'bench%' AND p.phase = 'F1901M'"
    ).fetchone()
    if row is None or row[0] is None:
        return None
    return (datetime.fromisoformat(row[0]) - deadline).total_seconds()


def _timeline(seen: list[tuple[float, bool]], deadline: float, processed: float | None) -> str:
    """When the burst's mails with a picture reached the relay, against when the daemon
    processed its last game: what the pictures' drawing adds after the games' work."""
    pictured = sorted(t - deadline for t, p in seen if p and t >= deadline)
    if not pictured:
        return "the timeline: no mail with a picture"

    def share(q: float) -> float:
        return pictured[min(len(pictured) - 1, int(q * len(pictured)))]

    last = "not found" if processed is None else f"{processed:.1f} s"
    return (
        f"the timeline: the last game processed at {last}; its mails with a picture at the "
        f"relay: the first at {pictured[0]:.1f} s, half by {share(0.5):.1f} s, nine in ten by "
        f"{share(0.9):.1f} s, all by {pictured[-1]:.1f} s"
    )


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _descendants(pid: int) -> list[int]:
    """The processes started by `pid`, and theirs (a fork server, its workers)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                todo.append(child)
    return found


def _cpu(pid: int, thread: int | None = None) -> float:
    """CPU seconds of process `pid` (of its thread `thread` alone, if given)."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far: the process `pid`, the processes it started (alive now), and
    the process's first thread alone (the daemon's loop)."""
    return _cpu(pid), sum(_cpu(child) for child in _descendants(pid)), _cpu(pid, pid)


def _rss(pid: int) -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tree_rss(pid: int) -> tuple[float, float]:
    """Resident MB: the process `pid`, and it with the processes it started."""
    own = _rss(pid)
    return own, own + sum(_rss(child) for child in _descendants(pid))
