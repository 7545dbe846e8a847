"""Real order mails: messages per second from SMTP accept to the acknowledgement queued.

Unlike benchmarks/mail.py, whose mails sign on to a game that does not exist, every mail
here signs on to a running game with the power's right password and gives a full order
set (every unit holds): the password is checked and the orders are stored. The games
are built with the judge's own functions (judge.store.games, judge.game.play.start_game),
each player with a password of their own; six of the seven powers of each game send
mails (the seventh never does, so no phase is processed early), round after round, as
players revising their orders do. The first round's mails each carry a password new to
the daemon (it checks them with scrypt, on every core); the later rounds' were checked
before. The first round's rate is set against the machine's password-check ceiling (cores
divided by one check's time, measured after the run) and against what the daemon's
password workers alone check a second. Starts the judge's daemon (embedded SMTP receiver,
database on disk, replies into a Maildir) and sends the mails from several client
threads; the clock stops when the last acknowledgement is queued. Prints figures,
asserts nothing.

With `--relay`, the acknowledgements go to an SMTP relay (aiosmtpd's Sink, a process of
its own on a free loopback port) instead of a Maildir, through the daemon's send threads.

    python benchmarks/orders.py [--games 10] [--rounds 10] [--clients 4] [--relay]
"""

from __future__ import annotations

import argparse
import os
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge_harness import HOLDS  # noqa: E402
from smtp_sink import free_port  # noqa: E402

from judge.config import Config, SmtpInConfig, SmtpOutConfig  # noqa: E402
from judge.game import play  # noqa: E402
from judge.game.passwords import hash_password, scrypt_matches  # noqa: E402
from judge.service.daemon import run_forever  # noqa: E402
from judge.service.prechecks import PasswordPool  # noqa: E402
from judge.store import games  # noqa: E402
from judge.store.db import open_db, transaction  # noqa: E402
from judge.variants.maps import load_map  # noqa: E402

START = datetime.now(UTC)  # the daemon runs on the wall clock: deadlines ahead of it
SETTLE_SECONDS = 1.0


def build(config: Config, count: int) -> list[tuple[str, str, str]]:
    """`count` started games; returns (address, SIGNON line, orders) for six powers of each."""
    db = open_db(config.database)
    initials = {k: p.initial for k, p in load_map("standard").powers.items()}
    senders = []
    with transaction(db):
        for g in range(count):
            game = games.create_game(db, f"game{g}", "standard", START)
            games.add_seat(db, game, games.MASTER, f"gm{g}@example.org", hash_password("gm"), START)
            for p in range(7):
                address = f"p{p}.g{g}@example.org"
                password = f"pw{p}x{g}"
                games.add_seat(db, game, games.PLAYER, address, hash_password(password), START)
            play.start_game(db, config, game, START, seed=g)  # start mails not queued
            seats = games.seats(db, game, games.PLAYER)
            for seat in seats[:6]:
                initial = initials[seat.power or ""]
                password = f"pw{seat.address[1]}x{g}"
                signon = f"SIGNON {initial}game{g} {password}"
                senders.append((seat.address, signon, HOLDS[initial]))
    db.conn.close()
    return senders


def _mail(i: int, address: str, signon: str, orders: str) -> bytes:
    body = "\r\n".join([signon, *orders.splitlines(), "SIGNOFF"])
    return (
        f"From: {address}\r\nTo: judge@example.org\r\nSubject: orders {i}\r\n"
        f"Message-ID: <orders-{i}@example.org>\r\n\r\n{body}\r\n"
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10, help="mails from each sender")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--relay", action="store_true", help="replies to an SMTP relay")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, _relay(args.relay) as outbound:
        config = Config(
            name="BENCH",
            address="judge@example.org",
            database=Path(tmp) / "judge.db",
            maildir=Path(tmp) / "outbox",
            smtp_in=SmtpInConfig(port=free_port()),
            rate_limit_per_hour=10**9,
            replies_per_hour=10**9,
            **outbound,
        )
        senders = build(config, args.games)
        mails = [_mail(i, *senders[i % len(senders)]) for i in range(len(senders) * args.rounds)]
        stop, ready = threading.Event(), threading.Event()
        daemon = threading.Thread(
            target=run_forever, args=(config,), kwargs={"stop": stop, "ready": ready.set}
        )
        daemon.start()
        ready.wait(10)
        # The daemon's start-up done (its password workers started, its templates
        # compiled at its first idle pass): the figures are a running judge's.
        time.sleep(SETTLE_SECONDS)
        db = open_db(config.database)
        first = len(senders)  # the first round: every password is new to the daemon
        unseen = _send(config, db, mails[:first], args.clients)
        revised = _send(config, db, mails[first:], args.clients) if args.rounds > 1 else 0.0
        stored = db.execute("SELECT COUNT(*) FROM order_sets").fetchone()[0]
        refused = db.execute(
            "SELECT COUNT(*) FROM outbound WHERE CAST(raw AS TEXT) LIKE '%ERROR%'"
        ).fetchone()[0]
        stop.set()
        daemon.join()
        db.conn.close()
    cost = _check_cost()
    cores = os.cpu_count() or 1
    pooled = _pool_rate(cores)
    print(
        f"order mails: {len(mails)} over SMTP from {args.clients} clients ({len(senders)} "
        f"players of {args.games} games, {args.rounds} mails each), database on disk"
    )
    print(f"order sets stored: {stored}; acknowledgements with an ERROR: {refused}")
    print(
        f"first mails (each password new to the daemon): {first / unseen:,.1f} mails/second; "
        f"password-check ceiling {cores} cores / {cost * 1000:.1f} ms = {cores / cost:,.1f}/s "
        f"({first / unseen / (cores / cost):.0%} of it); the daemon's {cores} password "
        f"workers alone, nothing else running: {pooled:,.1f}/s"
    )
    if revised:
        print(
            f"revised orders (password checked before): "
            f"{(len(mails) - first) / revised:,.1f} mails/second"
        )


@contextmanager
def _relay(wanted: bool) -> Iterator[dict[str, Any]]:
    """An SMTP relay that takes and drops every mail (a process of its own), while in the
    block: the Config fields that send to it; none if not `wanted`."""
    if not wanted:
        yield {}
        return
    port = free_port()
    command = [sys.executable, "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink"]
    relay = subprocess.Popen([*command, "-l", f"127.0.0.1:{port}"])
    try:
        while relay.poll() is None and not _answers(port):
            time.sleep(0.05)
        yield {"outbound_mode": "smtp", "smtp_out": SmtpOutConfig(port=port)}
    finally:
        relay.terminate()
        relay.wait(10)


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _send(config: Config, db: sqlite_utils.Database, mails: list[bytes], k: int) -> float:
    """Send `mails` from `k` SMTP clients at once; seconds until every one is answered."""
    before = db.execute("SELECT COUNT(*) FROM outbound").fetchone()[0]

    def client(numbers: range) -> None:
        with smtplib.SMTP("127.0.0.1", config.smtp_in.port) as smtp:
            for i in numbers:
                smtp.sendmail("bench@example.org", ["judge@example.org"], mails[i])

    n = len(mails)
    start = time.perf_counter()
    clients = [threading.Thread(target=client, args=(range(c, n, k),)) for c in range(k)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    while db.execute("SELECT COUNT(*) FROM outbound").fetchone()[0] < before + n:
        time.sleep(0.01)
    return time.perf_counter() - start


def _check_cost(times: int = 20) -> float:
    """Seconds of one password check (scrypt with the judge's parameters), here."""
    stored = hash_password("measure")
    start = time.perf_counter()
    for _ in range(times):
        scrypt_matches("measure", stored)
    return (time.perf_counter() - start) / times


def _pool_rate(cores: int, checks: int = 40) -> float:
    """Password checks a second by the daemon's pool of `cores` workers, each check a
    task of its own as the daemon submits them: scrypt on every core at once."""
    stored = hash_password("measure")
    pool = PasswordPool(cores)
    try:
        pool([("measure", stored)] * cores).result()  # the workers started
        start = time.perf_counter()
        for answers in [pool([("measure", stored)]) for _ in range(checks)]:
            answers.result()
        return checks / (time.perf_counter() - start)
    finally:
        pool.close()


if __name__ == "__main__":
    main()
