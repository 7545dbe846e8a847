"""A forger's flood: does the real player's mail still count, and what does it cost?

A started game on a real SQLite file. A forger sends N mails in one minute, all with
Austria's player's From: (most are orders without a SIGNON, one in ten a SIGNON with a
guessed password); halfway through, the real player's mail arrives: SIGNON with the
right password and a full order set, in answer to the judge's wrong-password notice
when the forger's guesses have closed the power's SIGNONs (only the real player gets
it). Every mail is stored (judge.store.inbox.ingest) and then handled by the daemon's
path (judge.service.handling.handle_waiting). Prints the time to handle, the replies queued to
the forged address, and whether the real orders were stored. Prints figures; asserts
nothing.

    python benchmarks/flood.py [--mails 500] [--guess-every 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge_harness import Judge  # noqa: E402

from judge.service.handling import handle_waiting  # noqa: E402
from judge.store import inbox  # noqa: E402

REAL_ORDERS = ["A Vie-Tri", "A Bud-Ser", "F Tri-Alb"]
STORED = ["A VIE - TRI", "A BUD - SER", "F TRI - ALB"]


def _mail(sender: str, body: str, message_id: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: judge@example.org\r\nSubject: orders\r\n"
        f"Message-ID: <{message_id}>\r\n\r\n{body.replace(chr(10), chr(13) + chr(10))}\r\n"
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=500, help="forged mails")
    parser.add_argument("--guess-every", type=int, default=10, help="a password guess every n")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # The configured defaults, not the test harness's unlimited ones.
        judge = Judge(Path(tmp), rate_limit_per_hour=60, replies_per_hour=20)
        address = judge.start_game()["A"]
        judge.now += timedelta(minutes=1)
        first_outbound = judge._last()
        ingest_s = handle_s = 0.0
        handled = 0
        real_id = None

        def flood(numbers: range) -> None:
            nonlocal ingest_s, handle_s, handled
            start = time.perf_counter()
            for n in numbers:
                guess = args.guess_every and n % args.guess_every == 0
                body = f"SIGNON Awar1 guess{n}\nA Vie H" if guess else "A Vie-Gal\nA Bud-Rum"
                inbox.ingest(judge.db, _mail(address, body, f"forged-{n}@x"), "smtp", judge.now)
            stored = time.perf_counter()
            handled += handle_waiting(judge.db, judge.config, lambda: judge.now)
            ingest_s, handle_s = ingest_s + stored - start, handle_s + time.perf_counter() - stored

        flood(range(args.mails // 2))
        # Halfway, the real player writes. If the forger's guesses closed Austria's
        # SIGNONs, the player answers the judge's notice, which only they received.
        notice = judge.db.execute(
            "SELECT message_id FROM outbound WHERE id > ? AND kind = 'notice' "
            "AND recipients = ? ORDER BY id LIMIT 1",
            [first_outbound, json.dumps([address])],
        ).fetchone()
        head = f"In-Reply-To: {notice[0]}\r\n" if notice else ""
        body = "\n".join(["SIGNON Awar1 pw0", *REAL_ORDERS])
        real = _mail(address, body, "real@x").replace(b"Subject:", head.encode() + b"Subject:", 1)
        real_id = inbox.ingest(judge.db, real, "smtp", judge.now)
        flood(range(args.mails // 2, args.mails))
        rows = judge.db.execute(
            "SELECT kind, recipients FROM outbound WHERE id > ?", [first_outbound]
        ).fetchall()
        to_forged = [kind for kind, recipients in rows if address in json.loads(recipients)]
        effective = judge.effective("war1", "AUSTRIA")
        state = judge.db.execute(
            "SELECT state, error FROM inbound WHERE id = ?", [real_id]
        ).fetchone()
        judge.db.conn.close()
    mails = args.mails + 1
    guesses = f"a password guess every {args.guess_every}" if args.guess_every else "no guesses"
    print(f"mails: {args.mails} forged ({guesses}) + 1 real,")
    print("       one From:, one minute, real SQLite file (WAL, synchronous=FULL)")
    print(f"stored: {ingest_s:.2f} s ({mails / ingest_s:,.0f} mails/second)")
    per_mail = 1000 * handle_s / max(handled, 1)
    print(f"handled: {handled} in {handle_s:.2f} s ({per_mail:.1f} ms a mail)")
    answered = "yes, it answered the lock notice" if notice else "no notice was sent"
    print(f"the real player's SIGNON locked out by the forger's guesses: {answered}")
    print(
        f"queued to the forged address: {len(to_forged)} "
        f"({to_forged.count('reply')} replies, {to_forged.count('limit')} limit notices, "
        f"{to_forged.count('notice')} wrong-password notices)"
    )
    print(f"the real mail: {state[0]} ({state[1] or 'answered'})")
    landed = "yes" if effective == STORED else f"NO (on file: {effective})"
    print(f"the real orders stored: {landed}")


if __name__ == "__main__":
    main()
