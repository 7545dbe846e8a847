"""Matching cost of hostile mail: misspelt order lines, one long line and whole mails.

Times the order reader (judge.engine.notation.parse_order) on a 10,000-character line of
misspelt names, then sends whole mails at the configured size limit (max_message_bytes)
through the real handling path (store on disk, judge.service.handling.handle_waiting) to a
player of a started game: a mail of short misspelt order lines, a mail of the longest
lines an order may have, and a mail of unknown words with no SIGNON (the command
suggestions), and a mail of lines of distinct misspellings, as many as an order may
look up (the worst case: no cache helps). For each mail it prints the CPU time spent in
parse_order (every call, from validation and from routing the lines of a player of
several powers) and in all of the handling. Prints figures; asserts nothing.

    python benchmarks/matching.py [--bytes N]   (mails of N bytes; default: the size limit)
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

from judge.config import Config  # noqa: E402
from judge.engine import notation, validation  # noqa: E402
from judge.game import player_groups  # noqa: E402
from judge.service.handling import handle_waiting  # noqa: E402
from judge.store import inbox  # noqa: E402
from judge.store.db import open_db  # noqa: E402
from judge.variants.maps import load_map  # noqa: E402

MISSPELT = ["pariz", "burgundi", "marseile", "munic", "belguim", "holand", "kiell", "berln"]
SPENT = [0.0]  # CPU seconds in parse_order (process time: other load does not count)


def _timed(parse):  # type: ignore[no-untyped-def]
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return parse(*args, **kwargs)
        finally:
            SPENT[0] += time.process_time() - start

    return wrapper


def one_line() -> None:
    gm = load_map("standard")
    rng = random.Random(1)
    line = " ".join(rng.choice(MISSPELT) for _ in range(1500))[:10_000]
    start = time.process_time()
    try:
        notation.parse_order(line, gm, "M")
        outcome = "read"
    except notation.NotationError as e:
        outcome = str(e)[:70]
    print(f"one 10,000-character misspelt line: {(time.process_time() - start) * 1000:.1f} ms CPU")
    print(f"    -> {outcome}")


class Judge:
    def __init__(self, tmp: Path) -> None:
        self.config = replace(
            Config(name="BENCH", address="judge@example.org", database=tmp / "j.db"),
            rate_limit_per_hour=10**6,
        )
        self.db = open_db(self.config.database)
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
        self.n = 0

    def send(self, sender: str, body: str) -> float:
        self.n += 1
        self.now += timedelta(minutes=1)
        raw = (
            f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
            f"Message-ID: <{self.n}@example.org>\r\n\r\n{body}\r\n"
        ).encode()
        inbox.ingest(self.db, raw, "smtp", self.now)
        start = time.process_time()
        handle_waiting(self.db, self.config, lambda: self.now)
        return time.process_time() - start


def whole_mails(size: int | None) -> None:
    validation.parse_order = _timed(validation.parse_order)  # type: ignore[assignment]
    player_groups.parse_order = _timed(player_groups.parse_order)  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        judge = Judge(Path(tmp))
        judge.send("gm@example.org", "CREATE ?war1 masterpw")
        for i, initial in enumerate("AEFGIRT"):
            judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
        limit = (size or judge.config.max_message_bytes) - 200  # room for the header
        rng = random.Random(2)

        def lines(make) -> str:  # type: ignore[no-untyped-def]
            out, size = [], 0
            while size < limit:
                line = make()
                out.append(line)
                size += len(line) + 2
            return "\r\n".join(out[:-1])

        def short() -> str:
            return f"A {rng.choice(MISSPELT)} - {rng.choice(MISSPELT)}"

        def longest() -> str:
            return " ".join(rng.choice(MISSPELT) for _ in range(40))[:200]

        gm = load_map("standard")
        long_words = sorted(w for w in gm.names if 8 <= len(w) <= 14)

        def adversarial() -> str:
            # Distinct misspellings (no cache helps), each a look-up of its own (the
            # move signs between them stop phrases), up to the guesses an order may make.
            def one() -> str:
                word = list(rng.choice(long_words))
                for _ in range(2):
                    word[rng.randrange(len(word))] = rng.choice("abcdefghijklmnopqrstuvwxyz")
                return "".join(word)

            guesses = getattr(notation, "MAX_GUESSES", 8)  # (before the limits: 8)
            return "A " + " - ".join(one() for _ in range(guesses + 1))

        def unknown() -> str:
            return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))

        cases = [
            ("short misspelt orders", "SIGNON Fwar1 pw2\r\n" + lines(short)),
            ("200-character misspelt lines", "SIGNON Fwar1 pw2\r\n" + lines(longest)),
            ("distinct misspellings, 9 a line", "SIGNON Fwar1 pw2\r\n" + lines(adversarial)),
            ("unknown words, no SIGNON", lines(unknown)),
        ]
        for name, body in cases:
            SPENT[0] = 0.0
            total = judge.send("p2@example.org", body)
            print(
                f"mail of {len(body.encode()):,} bytes, {name} ({body.count(chr(10)) + 1:,} "
                f"lines): matching {SPENT[0] * 1000:.0f} ms, handling in all {total * 1000:.0f} ms "
                "(CPU)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, help="the size of each mail (default: the limit)")
    one_line()
    whole_mails(parser.parse_args().bytes)
