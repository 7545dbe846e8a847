"""The board picture on the judge's mail (results, start and PREDICT mails).

A mail that carries a picture is queued, in the transaction that made it, as its text
plus what to draw: the positions and results as Contract 1 JSON (`Picture`), stored in
the outbound row's `picture` column. Drawing is left to the outbox drainer, outside that
transaction: a deadline that processes a thousand games does not wait for a thousand
pictures. Before the first attempt to send the mail the drainer has the PNG drawn (once
for all the mails of one phase of one game: the results mail to each recipient and the
list copy share it) and stores it once, with which mails carry it, in one transaction
for a slice; only then are they sent, the picture attached to each as it goes
(judge/mail/outbox.wire: the same text, picture and Message-ID give the same bytes), so
a resend after a crash is the same mail byte for byte. Who draws is a `Drawer`: the daemon's is a
pool of worker processes (judge/service/picture_pool.py), which draws the pictures of
the mails ahead while the daemon sends the mails that are ready; `judge run --once` and
the tools draw here (`InProcess`).

The text of the mail says the picture is attached, by name, for clients that hide
images; the template gets the name as `picture` (None when there is none). A game's
master turns pictures off with SET MAP OFF (setting "map"). A map with no drawing file
is drawn as a schematic board (judge/render/schematic.py, chosen by render_png).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, Protocol

import sqlite_utils

from judge.crashpoints import crash_point
from judge.engine.board import starting_position
from judge.render.png import PngUnavailable, png_available, render_png
from judge.replies import Picture
from judge.store import games, outbox
from judge.variants.maps import load_map

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


@dataclass(frozen=True)
class Drawn:
    """What drawing a queued picture gave: its PNG, or None and why it cannot be drawn
    (the mail then goes as its text alone)."""

    png: bytes | None
    error: str = ""


class Drawer(Protocol):
    """Draws the queued pictures (their JSON specs): here, or in worker processes
    (judge/service/picture_pool.py)."""

    def start(self, specs: Sequence[str]) -> None:
        """Begin drawing `specs` (those not begun yet) without waiting for them."""

    def ready(self, spec: str) -> bool:
        """Whether `drawn(spec)` would answer at once."""

    def drawn(self, spec: str) -> Drawn:
        """The outcome for `spec`, waiting for it if it is still being drawn."""

    def holds(self, spec: str) -> bool:
        """Whether `spec` is begun here and not yet taken (by `take_drawn`)."""

    def take_drawn(self) -> list[tuple[str, bytes]]:
        """The pictures drawn since the last call, each once, given up here: (JSON, PNG)."""


def draw_now(spec: str) -> bytes:
    """The PNG for a queued picture (its JSON); raises what rendering raises. A worker
    process's task."""
    data = json.loads(spec)
    return render_png(
        data["position"], data.get("results"), after=data.get("after"), caption=data.get("caption")
    )


def warm_up(variant: str) -> None:
    """Draw `variant`'s opening as a results picture is drawn (its units' orders, the
    board after them, a one-line caption) and forget it: what a process's first picture
    of a map costs beyond the others (the map read, its layers and its colours: about
    0.4 s, once per worker process) is then paid, and kept for the pictures to come.
    Raises what loading the map or drawing raises."""
    gm = load_map(variant)
    start = starting_position(gm)
    results: dict[str, list[dict[str, str]]] = {}
    for unit in start.units:
        results.setdefault(unit.power, []).append({"order": f"{unit} H", "result": "ok"})
    after = replace(start, phase=start.phase.following())
    render_png(start, {"results": results}, after=after, caption="Game warm-up")


@lru_cache(maxsize=16)
def draw(spec: str) -> bytes:
    """The PNG for a queued picture (its JSON); the same JSON draws once per process."""
    return draw_now(spec)


class InProcess:
    """A Drawer that draws in this process when asked (`judge run --once`, the tools,
    the tests): every picture is ready, drawing it is the asker's time."""

    def start(self, specs: Sequence[str]) -> None:
        pass

    def ready(self, spec: str) -> bool:
        return True

    def drawn(self, spec: str) -> Drawn:
        try:
            return Drawn(draw(spec))
        except (PngUnavailable, ValueError, KeyError) as e:
            return Drawn(None, f"{type(e).__name__}: {e}")

    def holds(self, spec: str) -> bool:
        return False

    def take_drawn(self) -> list[tuple[str, bytes]]:
        return []  # nothing is drawn ahead here


@dataclass(frozen=True)
class Attacher:
    """The outbox drainer's picture step (judge/mail/outbox.PictureStep) over a Drawer:
    the pictures of the mails ahead begun, the ready ones attached and stored."""

    drawer: Drawer
    # The id of the first mail of each picture begun: where its mails are (finish_drawn).
    firsts: dict[str, int] = field(default_factory=dict)

    def ahead(self, items: Sequence[outbox.Head], further: Sequence[tuple[str, int]] = ()) -> None:
        """Begin drawing the distinct pictures of `items` (queued mails about to be sent),
        then those of `further` (queued further on: each JSON and the id of its first
        mail)."""
        begun = [*((i.picture, i.id) for i in items if i.picture), *further]
        for spec, first in begun:
            self.firsts[spec] = min(first, self.firsts.get(spec, first))
        self.drawer.start(list(dict.fromkeys(spec for spec, _ in begun)))
        for spec in [s for s in self.firsts if not self.drawer.holds(s)]:
            del self.firsts[spec]

    def drawn_ahead(self) -> list[outbox.DrawnAhead]:
        """The pictures drawn since the last call, to store (`store_drawn`): each its
        JSON, the id of its first mail, the picture."""
        drawn = []
        for spec, png in self.drawer.take_drawn():
            first = self.firsts.pop(spec, 0)
            try:
                drawn.append((spec, first, outbox.Attachment(picture_name(spec), png)))
            except Exception as e:  # its mails go as their text alone, as they are sent
                log.error("a picture cannot be attached: %s: %s", type(e).__name__, e)
        return drawn

    def store_drawn(
        self,
        db: sqlite_utils.Database,
        drawn: Sequence[outbox.DrawnAhead],
        now: datetime,
    ) -> None:
        """Store `drawn` (from `drawn_ahead`) with the mails that carry them finished, in
        one transaction (outbox.finish_drawn): a burst's pictures are drawn while its
        games are processed, not only as its mails come up to be sent."""
        if drawn:
            crash_point("picture-drawn")  # drawn, not stored: the next life draws them again
            outbox.finish_drawn(db, drawn, now)
            crash_point("picture-stored")  # stored, not sent: the next life sends these bytes

    def ready(self, item: outbox.Head) -> bool:
        """Whether `item` can be finished now: no picture, or its picture drawn (or known
        not to be drawable)."""
        return item.picture is None or self.drawer.ready(item.picture)

    def __call__(
        self, db: sqlite_utils.Database, items: Sequence[outbox.Outbound], now: datetime
    ) -> list[outbox.Outbound]:
        """`items`, in order, each with its picture attached; those that had one stored
        finished in one transaction before any is sent (see above)."""
        outcomes = {
            spec: self._outcome(spec)
            for spec in dict.fromkeys(i.picture for i in items if i.picture)
        }
        finished: list[outbox.Outbound] = []
        for item in items:
            if item.picture:
                item = _attached(item, outcomes[item.picture])
            finished.append(item)
        stored = [
            (f.id, i.picture, f.attachment)
            for f, i in zip(finished, items, strict=True)
            if i.picture
        ]
        if stored:
            crash_point("picture-drawn")  # drawn, not stored: the next life draws them again
            outbox.finish_many(db, stored, now)
            crash_point("picture-stored")  # stored, not sent: the next life sends these bytes
        return finished

    def _outcome(self, spec: str) -> Drawn:
        try:
            return self.drawer.drawn(spec)
        except Exception as e:  # a fault of the drawing must never hold the mail back
            log.exception("a picture could not be drawn")
            return Drawn(None, f"{type(e).__name__}: {e}")


def _attached(item: outbox.Outbound, drawn: Drawn) -> outbox.Outbound:
    """`item` finished: its picture to attach as it is sent, or its text alone when there
    is none (or it cannot be attached: a fault of one mail never holds back the others)."""
    error = drawn.error
    if drawn.png is not None:
        try:
            name = picture_name(item.picture or "{}")
            return replace(item, picture=None, attachment=outbox.Attachment(name, drawn.png))
        except Exception as e:
            error = f"{type(e).__name__}: {e}"
    # The text names a picture that cannot be drawn here: send the text alone.
    log.error("outbound %s: no picture: %s", item.id, error)
    return replace(item, picture=None)


def picture_name(spec: str) -> str:
    """The file name a picture is attached under, from its JSON; raises if it has none
    or it is not printable ASCII."""
    name = json.loads(spec)["name"]
    if not (isinstance(name, str) and name.isascii() and name.isprintable()):
        raise ValueError(f"the picture's name is not printable ASCII: {name!r}")
    return name


# The step `judge run --once`, the tools and the tests pass to the drainer.
finish = Attacher(InProcess())


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
