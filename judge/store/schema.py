"""The schema, as a list of forward migrations; the list index + 1 is the schema version.

Never edit a released migration: add a new one. Games, players and orders arrive with
the play-by-mail migrations; inbound and outbound mail and the audit log are version 1.
"""

from __future__ import annotations

import sqlite_utils


def _v1_mail(db: sqlite_utils.Database) -> None:
    db["inbound"].create(
        {
            "id": int,
            "dedupe_key": str,  # Message-ID plus content hash: the same mail twice is one row
            "message_id": str,
            "sender": str,  # From: address, lower case
            "return_path": str,  # envelope sender, when known
            "source": str,  # smtp, imap, cli
            "received_at": str,  # UTC, ISO 8601
            "size": int,
            "raw": bytes,
            "state": str,  # new, handled, ignored, failed
            "error": str,
            "handled_at": str,
        },
        pk="id",
        not_null={"dedupe_key", "source", "received_at", "size", "raw", "state"},
        defaults={"state": "new"},
    )
    db["inbound"].create_index(["dedupe_key"], unique=True)
    db["inbound"].create_index(["state", "id"])
    db["inbound"].create_index(["sender", "received_at"])
    db["outbound"].create(
        {
            "id": int,
            "message_id": str,  # fixed when queued: a resend is the same mail
            "inbound_id": int,  # the message this answers, if any
            "kind": str,  # reply, results, ...
            "recipients": str,  # JSON list of addresses
            "raw": bytes,  # the rendered RFC 822 message
            "state": str,  # queued, sent, failed
            "attempts": int,
            "next_attempt_at": str,
            "last_error": str,
            "created_at": str,
            "sent_at": str,
        },
        pk="id",
        not_null={
            "message_id",
            "kind",
            "recipients",
            "raw",
            "state",
            "attempts",
            "next_attempt_at",
            "created_at",
        },
        defaults={"state": "queued", "attempts": 0},
        foreign_keys=[("inbound_id", "inbound", "id")],
    )
    db["outbound"].create_index(["message_id"], unique=True)
    db["outbound"].create_index(["state", "next_attempt_at"])
    db["outbound"].create_index(["inbound_id"])
    db["audit"].create(
        {"id": int, "at": str, "entity": str, "entity_id": int, "event": str, "detail": str},
        pk="id",
        not_null={"at", "entity", "event"},
    )
    db["audit"].create_index(["entity", "entity_id"])
    db["rate_notice"].create(
        {"sender": str, "noticed_at": str}, pk="sender", not_null={"noticed_at"}
    )


MIGRATIONS = [_v1_mail]
