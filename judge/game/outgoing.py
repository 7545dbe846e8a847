"""Queueing a mail the judge decided to send: render its template, give it its final
Message-ID, and put it in the outbox in the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import sqlite_utils

from judge.config import Config
from judge.game import njudge_lines
from judge.mail import compose
from judge.replies import SIGNED_REPLY, Reply
from judge.store import limits, outbox
from judge.store.audit import iso

REPLY = "reply"  # the kind of a mail that answers an incoming one (Reply.kind)
LIMIT = "limit"  # the kind of the notice that a limit was reached: never capped itself
PUBLIC = "public"  # the kind of a copy to the broadcast address or the game's list
RESULTS = outbox.RESULTS  # the kind of a game's results mail (judge/game/play.py)
# The kinds of the mails that answer the sender's mail (or its address of record): the
# only ones threaded under it (In-Reply-To, References).
ANSWERS = (REPLY, SIGNED_REPLY, LIMIT)


def queue_reply(
    db: sqlite_utils.Database,
    config: Config,
    now: datetime,
    reply: Reply,
    inbound_id: int | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
) -> None:
    """Render `reply` and queue it in the caller's transaction, one mail per recipient
    (njudge's rule: no mail shows one player's address to another; a copy to a list is
    one mail to the list). A mail about a game (its context names it, `game`) gets that
    game's `::` header values and subject prefix (`head`) as the game is now, unless it
    brings its own (results name the phase just processed)."""
    picture = reply.picture
    # Every template may name the attached picture: `picture` is its file name, or None.
    context = {**reply.context, "picture": picture.name if picture else None}
    if context.get("head") is None and "game" in context:
        context["head"] = njudge_lines.head_by_name(db, config, context["game"])
    subject, body = compose.render(reply.template, config, **context)
    # Only an answer threads under the mail it answers: a notice or press to others must
    # never carry the sender's Message-ID (in a gunboat game it could name the sender).
    threaded = reply.in_reply and reply.kind in ANSWERS and in_reply_to is not None
    # A mail to a list is one mail to the list; a Message-ID fixed in advance is a key
    # given to every address named (judge/commands/signon.py), so that mail stays whole.
    whole = reply.kind == PUBLIC or reply.message_id is not None or len(reply.to) <= 1
    # What to draw, written once for the mails to all recipients (a game's results go
    # to eight: written for each, it was about a tenth of a burst's processing in Python).
    spec = picture.to_json() if picture else None
    targets = [reply.to] if whole else [(address,) for address in reply.to]
    # outbound.results_together: the copies of a game's results are one mail, the same
    # bytes and Message-ID to each reader, To: the game's group; each still a row of its
    # own (its order, retries and failure per address), sent together (send_threads).
    together = config.results_together and reply.kind == RESULTS and not whole
    shared = compose.new_message_id(config) if together else None
    mails = [(to, reply.message_id or shared or compose.new_message_id(config)) for to in targets]
    raws = compose.build_each(
        config,
        mails[:1] if together else mails,
        subject,
        body,
        now,
        in_reply_to=in_reply_to if threaded else None,
        references=references if threaded else (),
        auto_submitted="auto-replied" if threaded else "auto-generated",
        extra=reply.headers,
        group=f"Diplomacy game {context.get('game', '')}" if together else None,
    )
    if together:
        raws = raws * len(mails)
    queued = [(raw, mid, list(to)) for raw, (to, mid) in zip(raws, mails, strict=True)]
    outbox.queue_each(db, queued, reply.kind, now, inbound_id, picture=spec)


def within_reply_cap(
    db: sqlite_utils.Database, config: Config, now: datetime, reply: Reply
) -> tuple[Reply | None, tuple[str, ...]]:
    """(the reply cut down to the addresses still under the cap, or None if none is;
    the addresses over it). An address gets at most `config.replies_per_hour` replies in
    any hour, whatever the mail that caused them said, so an autoresponder that hides
    what it is cannot loop with the judge. Game mail (results, notices, press: any kind
    but REPLY) is never capped: a player must get it. Call inside the transaction that
    queues the reply: the addresses kept are counted."""
    if reply.kind != REPLY:
        return reply, ()
    cap = config.replies_per_hour
    since = iso(now - timedelta(hours=1))
    limits.prune_replies(db, since)  # the table stays an hour long
    kept: list[str] = []
    over: list[str] = []
    for address in reply.to:
        key = address.strip().lower()
        # Counted up to `cap` only: a flood costs each reply at most `cap` index rows.
        if limits.replies_since(db, key, since, cap) < cap:
            kept.append(address)
            limits.log_reply(db, key, now)
        else:
            over.append(address)
    if not kept:
        return None, tuple(over)
    return (reply if not over else replace(reply, to=tuple(kept))), tuple(over)


def public_copy(
    config: Config, game_name: str, list_address: str | None, reply: Reply
) -> list[Reply]:
    """The same public mail for the judge's broadcast address and the game's own list,
    with List-Id so list software and readers can sort it. Never for private mail."""
    lists = tuple(a for a in (config.broadcast, list_address) if a)
    if not lists:
        return []
    domain = config.address.rpartition("@")[2] or "judge.invalid"
    headers = (
        ("List-Id", f"{config.name} {game_name} <{game_name}.{domain}>"),
        ("Precedence", "list"),
    )
    return [Reply(lists, reply.template, reply.context, PUBLIC, False, headers, reply.picture)]
