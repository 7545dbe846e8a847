"""Deadline speed: 1,000 games reaching their deadline in the same minute.

Builds the games in a temporary store on disk with the judge's own functions: each game
is created with a master and seven players (judge.store.games), started
(judge.game.play.start_game), and given seeded random orders for five of its seven powers,
written the way players write them (the benchmarks/engine.py generator) and taken with
judge.game.play.submit_orders. Two powers in every game send nothing, so it is the deadline,
not early processing, that sets the games off. Every deadline falls in the same minute
and grace is 0, so one `schedule.run_due` at a clock a minute later does all the work:
late notices to the missing powers, "waiting for" notices to the rest, each position
adjudicated, the next phase stored, and the results rendered and queued in the outbox,
each game in its own transaction. The setup is timed separately. The board pictures
of the results mails are drawn later, by the outbox sender: `--drain` then drains the
outbox into a Maildir (drawing every picture) and times that too. Prints figures;
asserts nothing.

`--daemon` measures the real path instead: the games (among `--total` games in all, the
others idle with deadlines a day later) are given one deadline a few seconds ahead of the
wall clock, and the real `judge run` (a process of its own, SMTP in and out, database on
disk) is started on the store with an SMTP relay on a free loopback port that notes when
each mail arrives: aiosmtpd in the benchmark's process, or with `--relay smtp-sink`
Postfix's smtp-sink, a C server in a process of its own, as a judge's relay in production
is an MTA in C (fetched with `apt-get download postfix` and cached: benchmarks/relays.py).
It prints the time from the deadline to the last results mail (with its picture) received
by the relay, the mails per second, the daemon's CPU (its own and its worker processes')
and the relay's, and resident memory.

With `--players G`, the players of G more games (six powers each) mail real order mails
from the daemon's start until the burst's mail is all sent (benchmarks/players.py: four
clients, each waiting for its reply as a player does; one mail in ten with a wrong
password), and it prints their latencies from SMTP accept to the reply queued, before the
deadline and during the burst.

    python benchmarks/deadlines.py [--games 1000] [--missing 2] [--seed 1901] [--dir PATH]
                                   [--drain | --daemon [--total 10000] [--players 0]
                                              [--relay aiosmtpd|smtp-sink]]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))  # smtp_sink.free_port

import burst_daemon  # noqa: E402  (--daemon)
import engine as engine_bench  # noqa: E402  (the order generator)
import players  # noqa: E402  (--daemon --players)

from judge.config import Config  # noqa: E402
from judge.game import pictures, play  # noqa: E402
from judge.game.passwords import hash_password  # noqa: E402
from judge.mail import outbox  # noqa: E402
from judge.service import schedule  # noqa: E402
from judge.store import games  # noqa: E402
from judge.store.audit import iso  # noqa: E402
from judge.store.db import open_db, transaction  # noqa: E402

START = datetime(2030, 3, 11, 9, 0, tzinfo=UTC)


def build(db, config: Config, count: int, missing: int, seed: int) -> tuple[datetime, dict]:
    """`count` started games, orders from all but `missing` powers in each, every deadline
    in the same minute; returns the start of that minute and some figures."""
    rng = random.Random(seed)
    password = hash_password("secret")  # one scrypt hash for every seat: setup speed only
    minute = START + timedelta(hours=48)
    order_sets = order_lines = 0
    for i in range(count):
        with transaction(db):
            game = games.create_game(db, f"bench{i}", "standard", START)
            settings = replace(game.settings, grace_hours=0)
            game = games.update_game(db, game, START, settings=settings)
            games.add_seat(db, game, games.MASTER, f"gm{i}@example.org", password, START)
            for p in range(7):
                games.add_seat(db, game, games.PLAYER, f"p{p}.g{i}@example.org", password, START)
            play.start_game(db, config, game, START, seed=seed + i)  # start mails not queued
            game = games.update_game(
                db, game, START, deadline=iso(minute + timedelta(seconds=rng.randrange(60)))
            )
            position = play.current_position(db, game)
            orders = engine_bench._orders(position, rng)
            seats = games.seats(db, game, games.PLAYER)
            for seat in rng.sample(seats, len(seats) - missing):
                lines = orders.get(seat.power or "", [])
                play.submit_orders(
                    db,
                    config,
                    game,
                    seat,
                    lines,
                    "replace",
                    False,
                    None,
                    START + timedelta(hours=1),
                )
                order_sets += 1
                order_lines += len(lines)
    return minute, {"order_sets": order_sets, "order_lines": order_lines}


def outbox_counts(db) -> dict[str, int]:
    return dict(db.execute("SELECT kind, COUNT(*) FROM outbound GROUP BY kind").fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--missing", type=int, default=2, help="powers per game without orders")
    parser.add_argument("--seed", type=int, default=1901)
    parser.add_argument("--dir", default=None, help="where to put the temporary database")
    parser.add_argument(
        "--drain", action="store_true", help="then send the outbox into a Maildir, timed"
    )
    parser.add_argument(
        "--daemon", action="store_true", help="the real judge run, with an SMTP relay, timed"
    )
    parser.add_argument("--total", type=int, default=10_000, help="with --daemon: games in all")
    parser.add_argument(
        "--players", type=int, default=0, help="with --daemon: games whose players mail orders"
    )
    parser.add_argument(
        "--relay",
        choices=["aiosmtpd", "smtp-sink"],
        default="aiosmtpd",
        help="with --daemon: the SMTP relay (smtp-sink: Postfix's, fetched with apt-get)",
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="with --daemon: [outbound] results_together (a game's results one mail)",
    )
    args = parser.parse_args()
    if args.daemon:
        daemon(args)
        return
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="judge-bench-") as tmp:
        config = Config(
            name="BENCH",
            address="judge@example.org",
            database=Path(tmp) / "judge.db",
            maildir=Path(tmp) / "outbox",
        )
        db = open_db(config.database)

        start = time.perf_counter()
        minute, figures = build(db, config, args.games, args.missing, args.seed)
        setup = time.perf_counter() - start

        now = minute + timedelta(minutes=1)  # past every deadline; grace is 0
        before = outbox_counts(db)
        start = time.perf_counter()
        schedule.run_due(db, config, lambda: now)
        elapsed = time.perf_counter() - start
        after = outbox_counts(db)

        processed = db.execute(
            "SELECT COUNT(*) FROM phases WHERE phase = 'S1901M' AND processed_at IS NOT NULL"
        ).fetchone()[0]
        moved_on = db.execute("SELECT COUNT(*) FROM games WHERE phase = 'F1901M'").fetchone()[0]
        queued = {k: n - before.get(k, 0) for k, n in after.items() if n - before.get(k, 0)}
        total = sum(queued.values())
        size = config.database.stat().st_size + sum(
            p.stat().st_size for p in Path(tmp).glob("judge.db-*")
        )

        print(f"games built: {args.games} (Spring 1901, {args.missing} of 7 powers without orders)")
        print(
            f"  setup (not in the figure): {setup:.1f} s; {figures['order_sets']} order sets, "
            f"{figures['order_lines']} order lines"
        )
        print(f"  database: {config.database} (on disk; removed afterwards)")
        print(f"games processed at the deadline: {processed} ({moved_on} now in Fall 1901)")
        print(f"seconds for one schedule.run_due: {elapsed:.2f}")
        per_game = elapsed / processed * 1000 if processed else 0.0
        print(f"games per second: {processed / elapsed:,.1f} ({per_game:.1f} ms a game)")
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(queued.items()))
        print(f"outbox rows queued: {total} ({kinds})")
        print(f"database size afterwards: {size / 1e6:.1f} MB")
        if args.drain:
            pictured = db.execute("SELECT COUNT(*) FROM outbound WHERE picture IS NOT NULL")
            pictured = pictured.fetchone()[0]
            delivery = outbox.MaildirDelivery(config.maildir)
            start = time.perf_counter()
            sent = 0
            while n := outbox.drain(db, delivery, lambda: now, attach_picture=pictures.finish):
                sent += n
            drained = time.perf_counter() - start
            print(
                f"outbox drained into a Maildir: {sent} mails, {pictured} of them with a board "
                f"picture drawn on the way, in {drained:.1f} s ({sent / drained:,.0f} mails/s)"
            )
        db.conn.close()


def daemon(args: argparse.Namespace) -> None:
    """--daemon: the burst through the real `judge run` (benchmarks/burst_daemon.py)."""
    global START
    START = datetime.now(UTC).replace(microsecond=0) - timedelta(days=3)  # games under way
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="judge-bench-") as tmp:
        config = Config(name="BENCH", address="judge@example.org", database=Path(tmp) / "judge.db")
        db = open_db(config.database)
        start = time.perf_counter()
        build(db, config, args.games, args.missing, args.seed)
        idle = args.total - args.games - args.players
        burst_daemon.idle_games(db, config, idle, START, datetime.now(UTC) + timedelta(days=1))
        mailing = None
        if args.players:  # their games' deadlines two days ahead
            mailing = burst_daemon.Mailing(
                players.build_players(db, config, args.players, datetime.now(UTC))
            )
        db.conn.close()
        setup = time.perf_counter() - start
        print(
            f"games: {args.games} at one deadline ({args.missing} of 7 powers without orders) "
            f"among {max(args.total, args.games)} (setup {setup:.0f} s, not in the figures)"
        )
        for line in burst_daemon.run(
            Path(tmp), ROOT, args.games, mailing, args.relay, args.together
        ):
            print(line)


if __name__ == "__main__":
    main()
