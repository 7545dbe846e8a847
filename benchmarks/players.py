"""Players who mail real orders, for the benchmarks that measure their acknowledgements
(benchmarks/mail.py, and benchmarks/deadlines.py --daemon --players): their games, their
mails, clients that send them, and the latencies the daemon's own rows show.

A mail's latency is its reply's `created_at` minus its `received_at` (both the daemon's
clock): from SMTP accept to the acknowledgement queued."""

from __future__ import annotations

import smtplib
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime

from judge_harness import HOLDS

from judge.config import Config
from judge.game import play
from judge.game.passwords import hash_password
from judge.store import games
from judge.store.db import open_db, transaction
from judge.variants.maps import load_map

Player = tuple[str, str, str]  # address, the game's SIGNON word, password
PATIENCE = 60.0  # seconds a paced client waits for a reply before it sends its next mail


def build_players(db, config: Config, count: int, start: datetime) -> list[Player]:
    """`count` started games (deadlines two days after `start`); (address, game's SIGNON
    word, password) for six powers of each: the seventh never sends, so no game is
    processed early."""
    initials = {k: p.initial for k, p in load_map("standard").powers.items()}
    passwords = [f"pw{p}x{g}" for g in range(count) for p in range(8)]
    with ProcessPoolExecutor() as pool:
        hashed = dict(zip(passwords, pool.map(hash_password, passwords, chunksize=16), strict=True))
    players = []
    with transaction(db):
        for g in range(count):
            game = games.create_game(db, f"game{g}", "standard", start)
            gm = hashed[f"pw7x{g}"]
            games.add_seat(db, game, games.MASTER, f"gm{g}@example.org", gm, start)
            for p in range(7):
                address, password = f"p{p}.g{g}@example.org", f"pw{p}x{g}"
                games.add_seat(db, game, games.PLAYER, address, hashed[password], start)
            play.start_game(db, config, game, start, seed=g)  # start mails not queued
            for seat in games.seats(db, game, games.PLAYER)[:6]:
                word = f"{initials[seat.power or '']}game{g}"
                players.append((seat.address, word, f"pw{seat.address[1]}x{g}"))
    return players


def order_mail(i: int, player: Player, wrong: bool) -> bytes:
    """Mail number `i`: `player`'s SIGNON (with a mistyped password if `wrong`) and every
    unit of the power holding; Message-ID <mail-i@example.org>."""
    address, word, password = player
    given = f"{password}-typo" if wrong else password
    body = "\r\n".join([f"SIGNON {word} {given}", *HOLDS[word[0]].splitlines(), "SIGNOFF"])
    return (
        f"From: {address}\r\nTo: judge@example.org\r\nSubject: orders {i}\r\n"
        f"Message-ID: <mail-{i}@example.org>\r\n\r\n{body}\r\n"
    ).encode()


def wrong_every(share: float) -> int:
    """One mail in this many carries a wrong password (0: none)."""
    return round(1 / share) if share > 0 else 0


def send(
    port: int,
    mail: Callable[[int], bytes],
    numbers: range,
    clients: int,
    paced: str | None,
    stop: threading.Event | None = None,
) -> None:
    """Send mails `mail(i)` for i in `numbers` from `clients` SMTP clients at once (until
    `stop` is set, if given); `paced` (the database), each client waits for a mail's reply
    before it sends the next, as a player does."""

    def client(mine: range) -> None:
        db = open_db(paced) if paced else None
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for i in mine:
                if stop is not None and stop.is_set():
                    return
                smtp.sendmail("bench@example.org", ["judge@example.org"], mail(i))
                given_up = time.monotonic() + PATIENCE
                while db is not None and not _answered(db, f"<mail-{i}@example.org>"):
                    if time.monotonic() > given_up:
                        break  # unanswered: its latency is missing from the figures
                    time.sleep(0.005)

    step = numbers.step * clients
    threads = [
        threading.Thread(target=client, args=(range(numbers.start + c, numbers.stop, step),))
        for c in range(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _answered(db, message_id: str) -> bool:
    row = db.execute(
        "SELECT 1 FROM inbound i JOIN outbound o ON o.inbound_id = i.id "
        "WHERE i.message_id = ? LIMIT 1",
        [message_id],
    ).fetchone()
    return row is not None


def latencies(db) -> list[tuple[datetime, float]]:
    """(received, seconds to the reply queued) of every answered mail."""
    rows = db.execute(
        "SELECT i.received_at, MIN(o.created_at) FROM inbound i "
        "JOIN outbound o ON o.inbound_id = i.id GROUP BY i.id"
    ).fetchall()
    out = []
    for received, replied in rows:
        got = datetime.fromisoformat(received)
        out.append((got, (datetime.fromisoformat(replied) - got).total_seconds()))
    return out


def quantiles(values: list[float]) -> str:
    """p50, p99 and the most of `values` (seconds), in ms."""
    if len(values) < 2:
        return "too few"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    p50, p99, top = cuts[49] * 1000, cuts[98] * 1000, max(values) * 1000
    return f"p50 {p50:,.0f} ms, p99 {p99:,.0f} ms, max {top:,.0f} ms"
