"""Mail path speed with real order mails: throughput, and the time from SMTP accept to the
acknowledgement queued (p50, p99), alone and while many games reach their deadline.

Every mail signs on to a running game as one of its powers and gives a full order set
(every unit holds); one in ten (`--wrong`) carries a wrong password and is refused, as a
mistyped or guessed password is. The players' games are built with the judge's own
functions, each player with a password of their own (hashed in worker processes: setup
speed only), so the first mail of each player makes the daemon check a password it has
never seen. With `--burst N`, N more games (benchmarks/deadlines.py's: random orders
from five of seven powers, grace 0) reach their deadline a few seconds after the mails
start: the figures then show what a player's acknowledgement waits while those games are
adjudicated and their results (pictures drawn) handed to the relay (a Maildir). The same
through the real `judge run` process, among 10,000 games, with players mailing until the
burst's last mail is out: `benchmarks/deadlines.py --daemon --players 20`.

The daemon (`judge run`'s loop: embedded SMTP receiver, database on disk with
synchronous=FULL) runs on a clock that starts just before the burst's deadline and moves
with real time. A mail's latency is its reply's `created_at` minus its `received_at`
(both the daemon's clock). Prints figures; asserts nothing.

    python benchmarks/mail.py [--games 40] [--rounds 3] [--clients 4] [--wrong 0.1]
                              [--burst 0] [--paced] [--dir PATH]

Without --paced the clients send as fast as the judge takes mail (throughput; the
latencies then include the queue); with it each client waits for a mail's reply before
sending its next, as players do (latency).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import burst_daemon  # noqa: E402  (the burst's one deadline)
import deadlines  # noqa: E402  (the burst's games)
from players import build_players, latencies, order_mail, quantiles, send, wrong_every  # noqa: E402
from smtp_sink import free_port  # noqa: E402

from judge.config import Config, SmtpInConfig  # noqa: E402
from judge.service.daemon import run_forever  # noqa: E402
from judge.store.db import open_db  # noqa: E402

LEAD = 3.0  # seconds of mail before the burst's deadline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games whose players mail")
    parser.add_argument("--rounds", type=int, default=3, help="mails from each player")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--wrong", type=float, default=0.1, help="share of wrong passwords")
    parser.add_argument("--burst", type=int, default=0, help="games at one deadline meanwhile")
    parser.add_argument("--dir", default=None, help="where to put the temporary database")
    parser.add_argument(
        "--paced", action="store_true", help="each client waits for its reply (latency)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="judge-bench-") as tmp:
        config = Config(
            name="BENCH",
            address="judge@example.org",
            database=Path(tmp) / "judge.db",
            maildir=Path(tmp) / "outbox",
            smtp_in=SmtpInConfig(port=free_port()),
            rate_limit_per_hour=10**9,
            replies_per_hour=10**9,
        )
        db = open_db(config.database)
        setup = time.perf_counter()
        minute, _ = deadlines.build(db, config, args.burst, 2, 1901)
        burst_daemon.set_deadline(db, minute, deadlines.START)  # one deadline, reminded
        # Two days later: no deadline or reminder of theirs falls in the burst's minute.
        players = build_players(db, config, args.games, deadlines.START + timedelta(days=2))
        setup = time.perf_counter() - setup
        every = wrong_every(args.wrong)
        mails = [
            order_mail(i, players[i % len(players)], bool(every) and i % every == every - 1)
            for i in range(len(players) * args.rounds)
        ]
        # The burst's deadline is `minute`: the daemon's clock starts LEAD s before.
        origin, zero = minute - timedelta(seconds=LEAD), time.monotonic()

        def clock() -> datetime:
            return origin + timedelta(seconds=time.monotonic() - zero)

        stop, ready = threading.Event(), threading.Event()
        daemon = threading.Thread(
            target=run_forever, args=(config, clock), kwargs={"stop": stop, "ready": ready.set}
        )
        daemon.start()
        ready.wait(30)
        started = time.perf_counter()
        paced = str(config.database) if args.paced else None
        send(config.smtp_in.port, mails.__getitem__, range(len(mails)), args.clients, paced)
        answered = "SELECT COUNT(DISTINCT inbound_id) FROM outbound WHERE inbound_id IS NOT NULL"
        while db.execute(answered).fetchone()[0] < len(mails):
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        burst_done = _wait_for_burst(db, args.burst, minute)
        stop.set()
        daemon.join()
        answered_in = latencies(db)
        refused = db.execute(
            "SELECT COUNT(*) FROM outbound WHERE inbound_id IS NOT NULL "
            "AND CAST(raw AS TEXT) LIKE '%ERROR: signon refused%'"
        ).fetchone()[0]
        stored = db.execute("SELECT COUNT(*) FROM order_sets WHERE inbound_id IS NOT NULL")
        stored = stored.fetchone()[0]
        db.conn.close()
    print(
        f"order mails: {len(mails)} over SMTP from {args.clients} clients"
        f"{' each waiting for its reply' if args.paced else ''} ({len(players)} "
        f"players of {args.games} games, {args.rounds} mails each, one in {every or 'no'} with "
        f"a wrong password), database on disk (setup {setup:.0f} s, not in the figures)"
    )
    print(f"order sets stored: {stored}; signons refused: {refused}")
    print(f"throughput, SMTP accept to acknowledgement queued: {len(mails) / elapsed:,.1f} mails/s")
    print(f"latency, all mails: {quantiles([s for _, s in answered_in])}")
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores")
    if args.burst:
        ends = minute + timedelta(seconds=burst_done)
        during = [s for got, s in answered_in if minute <= got <= ends]
        print(
            f"burst: {args.burst} games at one deadline; the last results mail (picture drawn) "
            f"handed to the relay {burst_done:.1f} s after the deadline"
        )
        print(f"latency of the {len(during)} mails received during the burst: {quantiles(during)}")


def _wait_for_burst(db, count: int, minute: datetime) -> float:
    """Wait until every burst game is in Fall 1901 and its results mails are sent;
    seconds from their deadline, `minute`, to the last results mail handed to the relay."""
    if not count:
        return 0.0
    moved = "SELECT COUNT(*) FROM games WHERE name LIKE 'bench%' AND phase = 'F1901M'"
    waiting = "SELECT COUNT(*) FROM outbound WHERE kind = 'results' AND state != 'sent'"
    while db.execute(moved).fetchone()[0] < count or db.execute(waiting).fetchone()[0]:
        time.sleep(0.05)
    [last] = db.execute("SELECT MAX(sent_at) FROM outbound WHERE kind = 'results'").fetchone()
    return (datetime.fromisoformat(last) - minute).total_seconds()


if __name__ == "__main__":
    main()
