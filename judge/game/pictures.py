"""The board picture on the judge's mail (results, start and PREDICT mails).

A mail that carries a picture is queued, in the transaction that made it, as its text
plus what to draw: the positions and results as Contract 1 JSON (`Picture`), stored in
the outbound row's `picture` column. Drawing is left to the outbox drainer, outside that
transaction: a deadline that processes a thousand games does not wait for a thousand
pictures. Before the first attempt to send the mail the drainer draws the PNG (once for
all the mails of one phase of one game: the results mail and its list copy share it),
attaches it, stores the finished message and only then sends; every later attempt sends
the stored bytes, so a resend after a crash is the same mail byte for byte.

The text of the mail says the picture is attached, by name, for clients that hide
images; the template gets the name as `picture` (None when there is none). A game's
master turns pictures off with SET MAP OFF (setting "map"). A map with no drawing file
is drawn as a schematic board (judge/render/schematic.py, chosen by render_png).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from functools import lru_cache
from typing import Any

import sqlite_utils

from judge.crashpoints import crash_point
from judge.mail import compose
from judge.render.png import PngUnavailable, png_available, render_png
from judge.replies import Picture
from judge.store import games, outbox

log = logging.getLogger("judge.game.pictures")


def wanted(game: games.Game) -> bool:
    """Whether a game's mail carries pictures: its "map" setting and the means to draw.
    Every map has a picture: its drawing file's (or its base map's), or else the
    schematic board computed from the map (judge/render/schematic.py)."""
    return game.settings.map and png_available()


def after_of(position: dict[str, Any], results: dict[str, Any]) -> dict[str, Any] | None:
    """The board a phase led to, from its Contract 1 output."""
    if not results or not results.get("next_phase"):
        return None
    out = {
        "map": position.get("map", "standard"),
        "phase": results["next_phase"],
        "units": results.get("units", {}),
        "centers": results.get("centers", {}),
    }
    if results.get("retreats"):
        out["retreats"] = results["retreats"]
    return out


@lru_cache(maxsize=16)
def draw(spec: str) -> bytes:
    """The PNG for a queued picture (its JSON); the same JSON draws once per process."""
    data = json.loads(spec)
    return render_png(
        data["position"], data.get("results"), after=data.get("after"), caption=data.get("caption")
    )


def finish(db: sqlite_utils.Database, item: outbox.Outbound, now: datetime) -> outbox.Outbound:
    """The queued mail `item` with its picture drawn, attached and stored (see above)."""
    if not item.picture:
        return item
    name = json.loads(item.picture)["name"]
    try:
        png = draw(item.picture)
    except (PngUnavailable, ValueError, KeyError) as e:
        # The text names a picture that cannot be drawn here: send the text alone.
        log.error("outbound %s: no picture %s: %s", item.id, name, e)
        outbox.finish(db, item.id, item.raw, now)
        return outbox.Outbound(item.id, item.message_id, item.recipients, item.raw, item.attempts)
    raw = compose.attach_picture(item.raw, name, png, item.message_id)
    crash_point("picture-drawn")  # drawn, not stored: the next life draws it again
    outbox.finish(db, item.id, raw, now)
    crash_point("picture-stored")  # stored, not sent: the next life sends the stored bytes
    return outbox.Outbound(item.id, item.message_id, item.recipients, raw, item.attempts)


# -- the pictures of the judge's mails ------------------------------------------------------


def of_results(
    game: games.Game,
    position: dict[str, Any],
    results: dict[str, Any],
    after: dict[str, Any] | None = None,
) -> Picture | None:
    """The results mail's picture: the board the phase led to, with its orders."""
    if not wanted(game):
        return None
    return Picture(
        f"board-{results['phase']}.png",
        position,
        results,
        after if after is not None else after_of(position, results),
        f"Game {game.name}",
    )


def of_start(game: games.Game, position: dict[str, Any]) -> Picture | None:
    """The start mail's picture: the opening position."""
    if not wanted(game):
        return None
    return Picture(f"board-{position['phase']}.png", position, None, None, f"Game {game.name}")


def of_prediction(
    game: games.Game, position: dict[str, Any], results: dict[str, Any]
) -> Picture | None:
    """PREDICT's picture: the board the orders on file would lead to, with those orders."""
    if not wanted(game):
        return None
    return Picture(
        f"prediction-{results['phase']}.png",
        position,
        results,
        after_of(position, results),
        f"Game {game.name}\nA PREDICTION only",
    )
