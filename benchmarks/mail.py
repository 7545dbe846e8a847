"""Mail path speed: messages per second from SMTP accept to reply queued.

Starts the judge's daemon (embedded SMTP receiver, database on disk, replies into a
Maildir) and sends N messages over SMTP from several client threads; the clock stops
when the last reply is queued in the outbox table. Prints figures; asserts nothing.

    python benchmarks/mail.py [--messages 2000] [--clients 4]
"""

from __future__ import annotations

import argparse
import smtplib
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from smtp_sink import free_port  # noqa: E402

from judge.config import Config, SmtpInConfig  # noqa: E402
from judge.service.daemon import run_forever  # noqa: E402
from judge.store.db import open_db  # noqa: E402


def _mail(i: int) -> bytes:
    return (
        f"From: Player {i % 50} <player{i % 50}@example.org>\r\nTo: judge@example.org\r\n"
        f"Subject: orders {i}\r\nMessage-ID: <bench-{i}@example.org>\r\n\r\n"
        "SIGNON Fgame1 secret\r\nA Par-Bur\r\nF Bre - MAO\r\nA Mar S A Par - Bur\r\nSIGNOFF\r\n"
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(
            name="BENCH",
            address="judge@example.org",
            database=Path(tmp) / "judge.db",
            maildir=Path(tmp) / "outbox",
            smtp_in=SmtpInConfig(port=free_port()),
            rate_limit_per_hour=10**9,
            replies_per_hour=10**9,
        )
        stop, ready = threading.Event(), threading.Event()
        daemon = threading.Thread(
            target=run_forever, args=(config,), kwargs={"stop": stop, "ready": ready.set}
        )
        daemon.start()
        ready.wait(10)

        def client(numbers: range) -> None:
            with smtplib.SMTP("127.0.0.1", config.smtp_in.port) as smtp:
                for i in numbers:
                    smtp.sendmail("bench@example.org", ["judge@example.org"], _mail(i))

        n, k = args.messages, args.clients
        start = time.perf_counter()
        clients = [threading.Thread(target=client, args=(range(c, n, k),)) for c in range(k)]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        accepted = time.perf_counter()
        db = open_db(config.database)
        while db.execute("SELECT COUNT(*) FROM outbound").fetchone()[0] < n:
            time.sleep(0.01)
        queued = time.perf_counter()
        stop.set()
        daemon.join()
    print(f"messages: {n} over SMTP from {k} clients, database on disk (WAL, synchronous=FULL)")
    print(f"accepted (stored, 250 sent): {n / (accepted - start):,.0f} messages/second")
    print(f"SMTP accept to reply queued: {n / (queued - start):,.0f} messages/second")


if __name__ == "__main__":
    main()
