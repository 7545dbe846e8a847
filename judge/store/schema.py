"""The schema, as a list of forward migrations; the list index + 1 is the schema version.

Never edit a released migration: add a new one. Games, players and orders arrive with
the play-by-mail migrations; inbound and outbound mail and the audit log are version 1.
"""

from __future__ import annotations

import hashlib
import json

import sqlite_utils


def _v1_mail(db: sqlite_utils.Database) -> None:
    # Split only to be read: the same steps, in the order they always ran.
    _v1_inbound(db)
    _v1_outbound(db)
    _v1_audit(db)


def _v1_inbound(db: sqlite_utils.Database) -> None:
    db.table("inbound").create(
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
    db.table("inbound").create_index(["dedupe_key"], unique=True)
    db.table("inbound").create_index(["state", "id"])
    db.table("inbound").create_index(["sender", "received_at"])


def _v1_outbound(db: sqlite_utils.Database) -> None:
    db.table("outbound").create(
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
    db.table("outbound").create_index(["message_id"], unique=True)
    db.table("outbound").create_index(["state", "next_attempt_at"])
    db.table("outbound").create_index(["inbound_id"])


def _v1_audit(db: sqlite_utils.Database) -> None:
    db.table("audit").create(
        {"id": int, "at": str, "entity": str, "entity_id": int, "event": str, "detail": str},
        pk="id",
        not_null={"at", "entity", "event"},
    )
    db.table("audit").create_index(["entity", "entity_id"])
    db.table("rate_notice").create(
        {"sender": str, "noticed_at": str}, pk="sender", not_null={"noticed_at"}
    )


def _v2_games(db: sqlite_utils.Database) -> None:
    # Split only to be read: the same steps, in the order they always ran.
    _v2_games_and_seats(db)
    _v2_phases_and_orders(db)


def _v2_games_and_seats(db: sqlite_utils.Database) -> None:
    db.table("games").create(
        {
            "id": int,
            "name": str,  # lower case, unique
            "variant": str,  # the map name
            "state": str,  # forming, active, finished
            "settings": str,  # JSON: order-set rule, phase lengths, ...
            "phase": str,  # the current phase (S1901M), NULL while forming
            "deadline": str,  # UTC ISO of the current phase's deadline
            "created_at": str,
        },
        pk="id",
        not_null={"name", "variant", "state", "settings", "created_at"},
    )
    db.table("games").create_index(["name"], unique=True)
    db.table("seats").create(
        {
            "id": int,
            "game_id": int,
            "role": str,  # player, master, observer
            "power": str,  # NULL until powers are assigned
            "address": str,  # address of record
            "password_hash": str,  # scrypt
            "preference": str,  # power initials, most wanted first
            "wait": int,  # SET WAIT: hold the phase to its deadline
            "joined_at": str,
            "left_at": str,  # RESIGN
        },
        pk="id",
        not_null={"game_id", "role", "address", "password_hash", "joined_at"},
        defaults={"wait": 0, "preference": ""},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("seats").create_index(["game_id", "power"])


def _v2_phases_and_orders(db: sqlite_utils.Database) -> None:
    db.table("phases").create(
        {
            "id": int,
            "game_id": int,
            "phase": str,
            "position": str,  # JSON, Contract 1's input shape
            "started_at": str,
            "deadline": str,
            "processed_at": str,
            "results": str,  # JSON, Contract 1's output shape
        },
        pk="id",
        not_null={"game_id", "phase", "position", "started_at"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("phases").create_index(["game_id", "phase"], unique=True)
    db.table("order_sets").create(
        {
            "id": int,
            "game_id": int,
            "phase": str,
            "power": str,
            "inbound_id": int,
            "received_at": str,
            "mode": str,  # replace, merge, clear
            "lines": str,  # JSON: [{"given", "order", "error"}] as checked on arrival
        },
        pk="id",
        not_null={"game_id", "phase", "power", "received_at", "mode", "lines"},
        foreign_keys=[("game_id", "games", "id"), ("inbound_id", "inbound", "id")],
    )
    db.table("order_sets").create_index(["game_id", "phase", "power"])
    db.table("orders").create(
        {"game_id": int, "phase": str, "power": str, "lines": str},  # effective orders, JSON
        pk=("game_id", "phase", "power"),
        not_null={"lines"},
        foreign_keys=[("game_id", "games", "id")],
    )


def _v3_deadlines(db: sqlite_utils.Database) -> None:
    db.table("games").add_column("process_at", str)  # early processing, when all orders are in
    db.table("games").add_column("paused_remaining", float)  # seconds left when PAUSEd
    db.table("notices").create(
        {"game_id": int, "phase": str, "kind": str, "sent_at": str},
        pk=("game_id", "phase", "kind"),  # each notice once per phase
        not_null={"sent_at"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("absences").create(
        {"id": int, "seat_id": int, "starts": str, "ends": str, "created_at": str},
        pk="id",
        not_null={"seat_id", "starts", "ends", "created_at"},
        foreign_keys=[("seat_id", "seats", "id")],
    )


def _v4_press(db: sqlite_utils.Database) -> None:
    db.table("press").create(
        {
            "id": int,
            "game_id": int,
            "phase": str,
            "seat_id": int,  # the sender
            "recipients": str,  # JSON list of power keys, or ["*"] for a broadcast
            "grey": int,  # sent as grey (anonymous) press
            "text": str,
            "sent_at": str,
        },
        pk="id",
        not_null={"game_id", "seat_id", "recipients", "grey", "text", "sent_at"},
        foreign_keys=[("game_id", "games", "id"), ("seat_id", "seats", "id")],
    )
    db.table("press").create_index(["game_id", "sent_at"])
    db.table("seats").add_column("draw", int, not_null_default=0)  # SET DRAW vote


def _v5_concede(db: sqlite_utils.Database) -> None:
    db.table("seats").add_column("concede", str)  # SET CONCEDE: the power conceded to


def _v6_pictures(db: sqlite_utils.Database) -> None:
    # A mail that carries a board picture is queued as its text with what to draw (JSON,
    # judge/game/pictures.py); the outbox drainer draws the PNG, stores the finished message
    # in `raw` and clears this column before the first attempt to send it.
    db.table("outbound").add_column("picture", str)


def _v7_reply_log(db: sqlite_utils.Database) -> None:
    # One row per reply queued to an address in the last hour (older rows are pruned):
    # the per-address reply cap counts them (judge/game/outgoing.py), whatever the headers of
    # the mail that caused them said.
    db.table("reply_log").create({"address": str, "at": str}, not_null={"address", "at"})
    db.table("reply_log").create_index(["address", "at"])
    db.table("reply_log").create_index(["at"])


def _v8_inbound_retry(db: sqlite_utils.Database) -> None:
    # A message whose handling raised is tried again later (judge/service/handling.py): how many
    # attempts have failed, and when the next one is due (NULL: at once).
    db.table("inbound").add_column("attempts", int, not_null_default=0)
    db.table("inbound").add_column("next_attempt_at", str)


def _v9_wrong_passwords(db: sqlite_utils.Database) -> None:
    # One row per wrong password (judge/store/guesses.py), by power and by sender: the
    # limit counts them over the last hour, whoever sent them.
    db.table("wrong_passwords").create({"key": str, "at": str}, not_null={"key", "at"})
    db.table("wrong_passwords").create_index(["key", "at"])
    db.table("wrong_passwords").create_index(["at"])
    # Its notices are timed in rate_notice (store/limits.py), keyed `power:...`/`sender:...`.


def _v10_signon_keys(db: sqlite_utils.Database) -> None:
    # The Message-ID of each wrong-password notice, hashed (judge/store/guesses.py): an
    # answer to the notice may sign on while the power is locked.
    db.table("signon_keys").create(
        {"key": str, "id_hash": str, "expires_at": str},
        pk=("key", "id_hash"),
        not_null={"expires_at"},
    )


def _v11_result(db: sqlite_utils.Database) -> None:
    # How a game ended (judge/store/result.py) is its state, not a setting: it leaves the
    # settings JSON, where versions up to 10 kept it as "result", for its own column (JSON,
    # NULL until the game ends).
    db.table("games").add_column("result", str)
    rows = db.execute("SELECT id, settings FROM games").fetchall()
    for game_id, text in rows:
        settings = json.loads(text)
        if not isinstance(settings, dict) or "result" not in settings:
            continue
        result = settings.pop("result")
        db.execute(
            "UPDATE games SET settings = ?, result = ? WHERE id = ?",
            [json.dumps(settings), None if result is None else json.dumps(result), game_id],
        )


def _v12_handovers(db: sqlite_utils.Database) -> None:
    # SET PROXY's hand-overs and the World War I coin (judge/store/handovers.py) are the
    # game's state, not settings: they leave the settings JSON, where versions up to 11
    # kept them as "proxies" and "joined" (left out while empty), for their own columns
    # (JSON, NULL while empty).
    db.table("games").add_column("proxies", str)
    db.table("games").add_column("joined", str)
    rows = db.execute("SELECT id, settings FROM games").fetchall()
    for game_id, text in rows:
        settings = json.loads(text)
        if not isinstance(settings, dict) or not {"proxies", "joined"} & settings.keys():
            continue
        proxies, joined = settings.pop("proxies", None), settings.pop("joined", None)
        db.execute(
            "UPDATE games SET settings = ?, proxies = ?, joined = ? WHERE id = ?",
            [json.dumps(settings), _json_or_null(proxies), _json_or_null(joined), game_id],
        )


# The tables whose rows the deadline check (judge/service/schedule.py) reads, besides
# `games` itself: a change to any of them may make a game's next event due sooner.
_NEXT_EVENT_SOURCES = ("seats", "phases", "order_sets", "orders", "notices")


def _v13_next_event(db: sqlite_utils.Database) -> None:
    # Each game's next event (judge/service/schedule.py), in microseconds since the epoch
    # (UTC), indexed, so that a pass of the daemon reads only the games that are due.
    # NULL: nothing timed until the game changes; 0: to be looked at on the next pass.
    # Triggers set 0 in the transaction of every change the deadline check depends on
    # (the game's row, its seats, phases, orders and notices), whoever makes it; the check
    # then puts the true moment back. Existing games start at 0: looked at once.
    db.table("games").add_column("next_event_at", int)
    db.execute("UPDATE games SET next_event_at = 0")
    db.table("games").create_index(["state", "next_event_at"])
    db.execute(
        "CREATE TRIGGER games_insert_next_event AFTER INSERT ON games "
        "BEGIN UPDATE games SET next_event_at = 0 WHERE id = NEW.id; END"
    )
    db.execute(
        "CREATE TRIGGER games_next_event AFTER UPDATE ON games "
        "WHEN NEW.next_event_at IS OLD.next_event_at AND OLD.next_event_at IS NOT 0 "
        "BEGIN UPDATE games SET next_event_at = 0 WHERE id = NEW.id; END"
    )
    for table in _NEXT_EVENT_SOURCES:
        for change, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            db.execute(
                f"CREATE TRIGGER {table}_{change.lower()}_next_event AFTER {change} ON {table} "
                f"BEGIN UPDATE games SET next_event_at = 0 WHERE id = {row}.game_id "
                "AND next_event_at IS NOT 0; END"
            )


def _v14_registry(db: sqlite_utils.Database) -> None:
    # The player registry of njudge's REGISTER form (judge/store/registry.py): one row per
    # registered person, the form's fields as JSON, and the addresses that are that
    # person: the one that sent the form and those joined by I AM ALSO.
    db.table("registrations").create(
        {"id": int, "fields": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"fields", "created_at", "updated_at"},
    )
    db.table("registry_addresses").create(
        {"address": str, "registration_id": int, "linked_at": str},
        pk="address",
        not_null={"registration_id", "linked_at"},
        foreign_keys=[("registration_id", "registrations", "id")],
    )
    db.table("registry_addresses").create_index(["registration_id"])


def _v15_pending_orders(db: sqlite_utils.Database) -> None:
    # Orders held for a later phase (njudge's PHASE; judge/store/pending.py): one row per
    # mail, seat and phase, the lines as written (conditions included); by seat, so that
    # a replacement at the power does not inherit them.
    db.table("pending_orders").create(
        {
            "id": int,
            "game_id": int,
            "seat_id": int,
            "power": str,
            "phase": str,
            "lines": str,
            "created_at": str,
        },
        pk="id",
        not_null={"game_id", "seat_id", "power", "phase", "lines", "created_at"},
        foreign_keys=[("game_id", "games", "id"), ("seat_id", "seats", "id")],
    )
    db.table("pending_orders").create_index(["game_id", "seat_id", "phase"])


def _v16_diary(db: sqlite_utils.Database) -> None:
    # Issue 18's press. DIARY's entries (judge/store/diary.py): a seat's private notes,
    # numbered per seat; a deleted entry is kept marked so that its number is not used
    # again.
    db.table("diary").create(
        {
            "id": int,
            "game_id": int,
            "seat_id": int,
            "number": int,
            "text": str,
            "modified_at": str,
            "deleted": int,
        },
        pk="id",
        not_null={"game_id", "seat_id", "number", "text", "modified_at", "deleted"},
        foreign_keys=[("game_id", "games", "id"), ("seat_id", "seats", "id")],
    )
    db.table("diary").create_index(["seat_id", "number"], unique=True)
    db.table("diary").create_index(["game_id"])
    # Postal press (judge/store/held_press.py): press mails held until the phase is
    # processed, each as its Reply's JSON.
    db.table("held_press").create(
        {"id": int, "game_id": int, "mail": str, "held_at": str},
        pk="id",
        not_null={"game_id", "mail", "held_at"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("held_press").create_index(["game_id"])


def _v17_abandoned(db: sqlite_utils.Database) -> None:
    # Issue 18's takeover: when the seat's power was abandoned (its player missed the end
    # of grace; judge/game/abandonment.py). The player keeps the seat, and the power is
    # free for a newcomer, until he signs on again (NULL again) or is replaced (left_at).
    db.table("seats").add_column("abandoned_at", str)


def _v18_pictures_once(db: sqlite_utils.Database) -> None:
    # Issue 16: a board picture is stored once, for all the mails of one phase of one game
    # that carry it, and attached as each is sent (judge/mail/outbox.wire), where each
    # mail used to store its own copy in `raw`: in a deadline burst of a thousand games
    # that was a gigabyte written to the store. `spec_sha256`: of the JSON it was drawn
    # from (outbound.picture), so a picture is stored once whichever slice finishes it.
    db.table("pictures").create(
        {"id": int, "spec_sha256": str, "name": str, "png": bytes, "created_at": str},
        pk="id",
        not_null={"spec_sha256", "name", "png", "created_at"},
    )
    db.table("pictures").create_index(["spec_sha256"], unique=True)
    db.table("outbound").add_column("picture_id", int)  # the picture attached, when sent
    # The outbox's lanes (judge/store/outbox.due) from indexes of the queued mails alone:
    # reading the whole queue of a burst, 24,000 mails, for each slice of 100 cost more
    # than sending them.
    db.execute("CREATE INDEX idx_outbound_queued ON outbound (id) WHERE state = 'queued'")
    db.execute(
        "CREATE INDEX idx_outbound_queued_kind ON outbound (kind, id) WHERE state = 'queued'"
    )
    db.execute(
        "CREATE INDEX idx_outbound_queued_to ON outbound (recipients, id) WHERE state = 'queued'"
    )
    # The pictures still to draw, in the order queued: the daemon's picture workers begin
    # them as soon as their games are processed (judge/store/outbox.pictures_ahead).
    db.execute(
        "CREATE INDEX idx_outbound_to_draw ON outbound (id) "
        "WHERE state = 'queued' AND picture IS NOT NULL"
    )


def _v19_confirmed_observers(db: sqlite_utils.Database) -> None:
    # An observer seat is made from a From: line anyone can forge: it gets no mail beyond
    # the answer to its OBSERVE until its address sends back the code that answer carries
    # (judge/game/observers.py). NULL: confirmed; every seat before this was, and stays so.
    db.table("seats").add_column("confirm_code", str)
    db.table("seats").add_column("confirm_asked_at", str)  # when the code was mailed


def _v20_created_by(db: sqlite_utils.Database) -> None:
    # Who CREATEd each game, for the limits on games one address may create
    # (judge/commands/player.py): the first master seat of a game made before this.
    db.table("games").add_column("created_by", str)
    db.execute(
        "UPDATE games SET created_by = (SELECT address FROM seats WHERE game_id = games.id "
        "AND role = 'master' ORDER BY id LIMIT 1)"
    )
    db.table("games").create_index(["created_by", "created_at"])


def _v21_pending_address(db: sqlite_utils.Database) -> None:
    # A player's or master's new address (SET ADDRESS, REPLACE) waits here, with the code
    # mailed to it in confirm_code, while the seat's mail goes on to its address of record
    # (judge/game/observers.py). NULL: none waits; every seat before this had none.
    db.table("seats").add_column("pending_address", str)


def _v22_code_hashes(db: sqlite_utils.Database) -> None:
    # The confirmation codes kept only as hashes (judge/store/codes.py): a copy of the
    # database confirmed any pending address in someone else's name. A code mailed before
    # this still confirms, as its hash. The hash is written out here, not imported, so
    # that this step stays what it was whatever codes.py becomes.
    rows = db.execute(
        "SELECT id, confirm_code FROM seats WHERE confirm_code IS NOT NULL "
        "AND confirm_code NOT LIKE 'sha256$%'"
    ).fetchall()
    for seat_id, code in rows:
        digest = "sha256$" + hashlib.sha256(code.encode()).hexdigest()
        db.execute("UPDATE seats SET confirm_code = ? WHERE id = ?", [digest, seat_id])


def _v23_forgetting_old_mail(db: sqlite_utils.Database) -> None:
    # The mails' texts and the pictures are forgotten after store/retention.MAIL_KEPT_DAYS:
    # these indexes find those old enough without reading a row's text (a pass of the
    # daemon looks, and reading the tables' blobs each time would cost more than all else).
    db.execute(
        "CREATE INDEX idx_inbound_to_forget ON inbound (received_at) "
        "WHERE state IN ('handled', 'ignored') AND length(raw) > 0"
    )
    db.execute(
        "CREATE INDEX idx_outbound_to_forget ON outbound (sent_at) "
        "WHERE state = 'sent' AND length(raw) > 0"
    )
    db.execute("CREATE INDEX idx_pictures_created ON pictures (created_at)")


def _v24_shared_message_ids(db: sqlite_utils.Database) -> None:
    # With outbound.results_together the copies of a game's results are one mail to its
    # readers: each row (one reader's) holds the same bytes and Message-ID. Nothing looks
    # a mail up by its Message-ID, so no index replaces the unique one.
    db.execute("DROP INDEX idx_outbound_message_id")


def _v25_results_first(db: sqlite_utils.Database) -> None:
    # Issue 16: a game's results go before the other mail queued before them once their
    # picture is drawn (judge/store/outbox.due_heads): in a 1,000-game burst the results
    # of the last games waited behind the notices of all the games before them. This
    # index holds only those ready to send, so finding them reads none still to draw.
    db.execute(
        "CREATE INDEX idx_outbound_results_ready ON outbound (id) "
        "WHERE state = 'queued' AND kind = 'results' AND picture IS NULL"
    )


def _json_or_null(value: object) -> str | None:
    """A moved value as its column holds it: NULL for none or an empty object."""
    return json.dumps(value) if value else None


MIGRATIONS = [
    _v1_mail,
    _v2_games,
    _v3_deadlines,
    _v4_press,
    _v5_concede,
    _v6_pictures,
    _v7_reply_log,
    _v8_inbound_retry,
    _v9_wrong_passwords,
    _v10_signon_keys,
    _v11_result,
    _v12_handovers,
    _v13_next_event,
    _v14_registry,
    _v15_pending_orders,
    _v16_diary,
    _v17_abandoned,
    _v18_pictures_once,
    _v19_confirmed_observers,
    _v20_created_by,
    _v21_pending_address,
    _v22_code_hashes,
    _v23_forgetting_old_mail,
    _v24_shared_message_ids,
    _v25_results_first,
]
