"""The diaries of a game (DIARY's entries), mailed to everyone in it when it ends."""

from __future__ import annotations

from itertools import zip_longest

import sqlite_utils

from judge.mail.body_size import body_bytes
from judge.replies import Reply
from judge.store import diary, games
from judge.variants.maps import load_map

# One Diaries mail's body, in bytes as sent (mail/body_size.py: quoted-printable writes a
# byte of text outside ASCII as three, so the text's UTF-8 size is not the mail's: 1 MB of
# '€' made a 3 MB mail, to every seat). The mail goes to every seat, and a
# seat may hold 200 entries of 20,000 characters: 7 powers, the master and observers
# made 13.4 MB a mail, sent to each of them. 1,000,000 is the largest mail the judge
# takes in (judge.max_message_bytes' default), hundreds of times a real game's
# diaries; what does not fit is left out, and the mail says how many entries.
MAIL_BYTES = 1_000_000
# Kept for the rest of the mail: the `::` header, the first line, the closing lines.
OTHER_BYTES = 2_000
# An entry's heading ("Diary of <writer>, entry #<n>:", the blank line), with the writer.
HEADING_BYTES = 40


def diary_mails(db: sqlite_utils.Database, game: games.Game) -> list[Reply]:
    """One mail to everyone in the ended game with every entry not deleted, by writer,
    within MAIL_BYTES (those left out counted); none when nobody kept a diary."""
    entries = diary.game_entries(db, game)
    if not entries:
        return []
    gm = load_map(game.variant)
    titles = {games.MASTER: "the master", games.OBSERVER: "an observer"}
    writers = [gm.powers[e.power].name if e.power else titles.get(e.role, e.role) for e in entries]
    # Each text read once for its size in the mail, then again if it fits: never all held.
    sizes = {i: body_bytes(text) for i, text in diary.each_text(db, game)}
    costs = [
        (e.seat_id, sizes.get(e.id, 0) + _heading(e, w))
        for e, w in zip(entries, writers, strict=True)
    ]
    kept = fitting(costs, MAIL_BYTES - OTHER_BYTES)
    texts = diary.texts(db, game, {entries[at].id for at in kept})
    listed = [
        {"writer": writers[at], "number": e.number, "text": texts[e.id]}
        for at, e in enumerate(entries)
        if at in kept
    ]
    context = {
        "game": game.name,
        "entries": listed,
        "left_out": len(entries) - len(kept),
        "limit": MAIL_BYTES,
    }
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    return [Reply(everyone, "diary_end", context, "end", False)]


def _heading(entry: diary.Listed, writer: str) -> int:
    """What the entry's heading adds to the mail, in bytes as sent, at most."""
    return body_bytes(f"{writer}{entry.number}") + HEADING_BYTES


def fitting(costs: list[tuple[int, int]], budget: int) -> set[int]:
    """The places in `costs` (each entry's writer's seat and size) of the entries that fit
    in `budget`, taken a round at a time: each writer's first entry, then each one's
    second, and so on, one too large for what is left skipped. So one seat's great
    diary, written first, cannot crowd every other writer's out of the mail."""
    by_writer: dict[int, list[int]] = {}
    for at, (seat, _) in enumerate(costs):
        by_writer.setdefault(seat, []).append(at)
    kept: set[int] = set()
    left = budget
    for round_ in zip_longest(*by_writer.values()):
        for at in round_:
            if at is not None and costs[at][1] <= left:
                kept.add(at)
                left -= costs[at][1]
    return kept
