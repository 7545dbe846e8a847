"""Postal press (njudge's SET POSTAL PRESS and POSTAL PRESS): the mails of press held
until the game's phase is processed, then sent with the results, in the order written."""

from __future__ import annotations

import json
from datetime import datetime

import sqlite_utils

from judge.replies import Reply
from judge.store.audit import iso
from judge.store.games import Game


def hold(db: sqlite_utils.Database, game: Game, mails: list[Reply], now: datetime) -> None:
    """Keep press mails (no pictures: press has none) until release()."""
    for mail in mails:
        value = {
            "to": list(mail.to),
            "template": mail.template,
            "context": mail.context,
            "kind": mail.kind,
            "in_reply": mail.in_reply,
            "headers": [list(h) for h in mail.headers],
        }
        db.execute(
            "INSERT INTO held_press (game_id, mail, held_at) VALUES (?, ?, ?)",
            [game.id, json.dumps(value), iso(now)],
        )


def release(db: sqlite_utils.Database, game: Game) -> list[Reply]:
    """The game's held mails, in the order held, no longer held."""
    rows = db.execute(
        "SELECT mail FROM held_press WHERE game_id = ? ORDER BY id", [game.id]
    ).fetchall()
    db.execute("DELETE FROM held_press WHERE game_id = ?", [game.id])
    mails = []
    for (text,) in rows:
        value = json.loads(text)
        mails.append(
            Reply(
                tuple(value["to"]),
                value["template"],
                value["context"],
                value["kind"],
                value["in_reply"],
                tuple((name, header) for name, header in value["headers"]),
            )
        )
    return mails
