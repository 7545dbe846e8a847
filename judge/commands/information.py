"""The information commands anyone may send: LIST, WHOGAME, SUMMARY, HISTORY (HELP is
the command table's own, in judge/commands/table.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from judge.commands.language import Command
from judge.commands.powers import sender_name
from judge.commands.run import Run, need_block, refuse
from judge.engine.phase import Phase
from judge.game import anonymity
from judge.game.dates import format_moment
from judge.game.errors import CommandError, as_written
from judge.game.history_window import Window, read_window, within_lines
from judge.game.listing import Reader, game_report, njudge_time
from judge.game.report import format_deadline, results_by_power
from judge.game.rules import score_lines
from judge.game.who_played import as_read, who_played
from judge.mail.message import reply_address
from judge.replies import Reply
from judge.store import games
from judge.variants.maps import load_map, map_names

MAX_FULL_REPORTS = 30  # full reports in one LIST FULL (the rest: named, LIST name each)
# Games in one LIST, by name (the rest counted): anyone may CREATE games, five a mail,
# and each made every LIST longer, to a forged From: too: 10,000 games made 480 KB.
MAX_LISTED = 300


def list_games(run: Run, cmd: Command) -> None:
    """LIST: every listed game in a line (after a SIGNON: that game's full report, with the
    orders on file for its master); LIST FULL: every listed game's full report; LIST
    name: that game's full report, listed or not."""
    db, zone, now = run.ctx.db, run.ctx.config.zone, run.ctx.now
    if not cmd.args and run.block is not None:
        signed_on = games.get_game(db, run.block.game.id)
        reader = _reader(run, signed_on)
        report = game_report(db, signed_on, zone, now, reader.master, reader)
        run.event("list_game", cmd, report=report)
    elif not cmd.args:
        listed = _listed(db)
        lines = [_short_line(db, game) for game in listed[:MAX_LISTED]]
        more = len(listed) - len(lines)
        run.event("list", cmd, games=lines, more=more, variants=map_names())
    elif cmd.args[0] == "full":  # njudge's LIST FULL (a game called "full": LIST after SIGNON)
        listed = _listed(db)
        shown = listed[:MAX_FULL_REPORTS]
        reports = [game_report(db, game, zone, now, False, _reader(run, game)) for game in shown]
        run.event("list_full", cmd, reports=reports, more=len(listed) - len(shown))
    else:
        game = games.find_game(db, cmd.args[0])
        if game is None:
            refuse(run, cmd, "no_game", game=as_written(cmd.args[0]))
            return
        report = game_report(db, game, zone, now, False, _reader(run, game))
        run.event("list_game", cmd, report=report)


def _reader(run: Run, game: games.Game) -> Reader:
    """Who reads about `game` (judge/game/anonymity.py decides what they see): the seat
    signed on to it in this mail, if any; the sender's From: alone proves nothing (a
    forged one must not learn which power an address plays)."""
    block = run.block
    if block is None or block.game.id != game.id:
        return Reader()
    return Reader(block.seat.address, block.seat.role == games.MASTER)


def _listed(db: Database) -> list[games.Game]:
    """The games LIST and LIST FULL show: all but those set NOLIST."""
    return [game for game in games.all_games(db) if game.settings.listed]


def _short_line(db: Database, game: games.Game) -> dict[str, object]:
    """A game's line in the short LIST."""
    phase = Phase.parse(game.phase) if game.phase else None
    return {
        "name": game.name,
        "state": game.state,
        "phase": str(phase) if phase else "",
        "players": len(games.seats(db, game, games.PLAYER)),
        "comment": game.settings.comment,
        "gunboat": game.settings.gunboat,
        "secret": anonymity.secret(game) and anonymity.hidden(game),  # read by no master
    }


def _who(db: Database, game: games.Game, observers: bool) -> list[dict[str, str]]:
    """Who plays what in `game`, with their addresses (the observers too if `observers`,
    those not yet confirmed shown so)."""
    gm = load_map(game.variant)
    out = []
    for seat in games.seats(db, game, unconfirmed=observers):
        if seat.role == games.OBSERVER and not observers:
            continue
        if seat.role == games.PLAYER:
            who = gm.powers[seat.power].name if seat.power else "(not yet assigned)"
        else:
            who = f"{seat.role} (unconfirmed)" if seat.unconfirmed else seat.role
        out.append({"who": who, "address": seat.address})
    return out


def whogame(run: Run, cmd: Command) -> None:
    """WHOGAME name [FULL]: who plays what in the game (FULL: and who observes it)."""
    game = games.find_game(run.ctx.db, cmd.args[0])
    if game is None:
        refuse(run, cmd, "no_game", game=as_written(cmd.args[0]))
        return
    full = cmd.args[1:] == ("full",)
    if anonymity.hidden_from(game, _reader(run, game).master):
        run.event("whogame", cmd, game=game.name, powers=[], gunboat=True)
        return
    run.event("whogame", cmd, game=game.name, powers=_who(run.ctx.db, game, full))


def summary(run: Run, cmd: Command) -> None:
    """SUMMARY name (STATUS): centre counts per year, who played each power from which
    phase, and the masters."""
    db = run.ctx.db
    game = games.find_game(db, cmd.args[0])
    if game is None:
        refuse(run, cmd, "no_game", game=as_written(cmd.args[0]))
        return
    gm = load_map(game.variant)
    years: dict[int, dict[str, int]] = {}
    for phase, _position, results, _at in games.processed_phases(db, game):
        p = Phase.parse(phase)
        if p.kind == "A" or p.season == "W":
            continue
        years[p.year] = {k: len(results["centers"].get(k, [])) for k in gm.powers}
    table = [{"year": y, "counts": [years[y][k] for k in gm.powers]} for y in sorted(years)]
    run.event(
        "summary",
        cmd,
        game=game.name,
        scores=(score_lines(game, gm, game.result) if game.state == games.FINISHED else []),
        powers=[gm.powers[k].name for k in gm.powers],
        table=table,
        **_played_as_read(run, game, who_played(db, game, gm)),  # players, masters
    )


def _played_as_read(run: Run, game: games.Game, played: dict[str, Any]) -> dict[str, Any]:
    """who_played's value as the reader may see it: in a gunboat game, to any but its
    master, every other player is Somebody."""
    reader = _reader(run, game)
    if not anonymity.hidden_from(game, reader.master):
        return played
    return as_read(played, reader.address)


def history(run: Run, cmd: Command) -> None:
    """HISTORY: everything an observer saw in a window (the last 7 days, unless the
    command says which dates or which turns): each processed phase's results and the
    broadcasts, at most the window's number of lines, in a mail of its own."""
    db, zone, clock_zone = run.ctx.db, run.ctx.config.timezone, run.ctx.config.zone
    game = _history_game(run, cmd)
    if game is None:
        return
    clauses = dict(zip(cmd.args[1::2], cmd.args[2::2], strict=True))
    try:
        window = read_window(clauses, run.ctx.now, clock_zone)
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    window, unknown = _whole_if_unknown(db, game, window)
    processed = games.processed_phases(db, game)
    phases = _history_phases(game, processed, window, zone)
    broadcasts = _history_broadcasts(db, game, processed, window, zone)
    # The limit takes whole entries in the order they happened; each part of the mail
    # keeps the store's order.
    timeline = sorted(phases + broadcasts, key=lambda entry: entry.moment)
    fit = within_lines([entry.lines for entry in timeline], window.lines)
    kept = {id(entry) for entry in timeline[:fit]}
    shown_phases = [entry.shown for entry in phases if id(entry) in kept]
    context = {
        "game": game.name,
        "phases": shown_phases,
        "broadcasts": [entry.shown for entry in broadcasts if id(entry) in kept],
        "processed_any": bool(processed),
        "start": njudge_time(window.start, clock_zone) if window.start else "",
        "end": njudge_time(window.end, clock_zone) if window.end else "",
        "turns": list(window.turns),
        "unknown": unknown,
        "limit": window.lines,
        "resume": format_moment(timeline[fit].moment, clock_zone) if fit < len(timeline) else "",
    }
    run.mails.append(Reply((reply_address(run.sub),), "history", context, "reply"))
    run.event("history_sent", cmd, game=game.name, count=len(shown_phases))


@dataclass(frozen=True)
class _Entry:
    """A processed phase or a broadcast in a history."""

    moment: datetime  # when it happened
    lines: int  # the lines it takes in the mail (its heading and its text)
    shown: dict[str, Any]  # what templates/history.txt shows of it


def _whole_if_unknown(db: Database, game: games.Game, window: Window) -> tuple[Window, bool]:
    """njudge: EXCLSTART alone naming a turn the game never had (S1899M, S1903R when
    1903 had no retreats) gives the whole history; the window, and whether that was so.
    With EXCLEND the turns are a range, whether the game had them or not."""
    if window.excl_start is None or window.excl_end is not None:
        return window, False
    if str(window.excl_start) in {mark.phase for mark in games.phase_marks(db, game)}:
        return window, False
    return replace(window, excl_start=None), True


# A processed phase as the store gives it: (phase, position, results, processed at).
_Processed = tuple[str, games.JsonObject, games.JsonObject, str]


def _history_game(run: Run, cmd: Command) -> games.Game | None:
    """The game HISTORY names, or the signed-on one; None, and an error, if there is none."""
    name = cmd.args[0]
    if not name:  # only after a SIGNON (judge/commands/language.py)
        block = need_block(run, cmd)
        return block.game if block else None
    game = games.find_game(run.ctx.db, name)
    if game is None:
        refuse(run, cmd, "no_game", game=as_written(name))
    return game


def _history_phases(
    game: games.Game, processed: list[_Processed], window: Window, zone: str
) -> list[_Entry]:
    """The processed phases in the window, with their results."""
    gm = load_map(game.variant)
    out: list[_Entry] = []
    for phase, _position, results, at in processed:
        moment = datetime.fromisoformat(at)
        p = Phase.parse(phase)
        if not (window.keeps_moment(moment) and window.keeps_phase(p)):
            continue
        orders = results_by_power(gm, results["results"], p)
        entry = {
            "phase": p,
            "at": format_deadline(at, zone),
            "orders": orders,
        }
        out.append(_Entry(moment, 1 + sum(len(o["lines"]) for o in orders), entry))
    return out


def _history_broadcasts(
    db: Database, game: games.Game, processed: list[_Processed], window: Window, zone: str
) -> list[_Entry]:
    """The broadcasts in the window (in the turn form: sent during a phase outside the
    turns left out), with who sent them."""
    gm = load_map(game.variant)
    ends = [(datetime.fromisoformat(at), Phase.parse(phase)) for phase, _, _, at in processed]
    current = Phase.parse(game.phase) if game.phase else None
    out: list[_Entry] = []
    for press in games.broadcasts(db, game):
        moment = datetime.fromisoformat(press.sent_at)
        # A broadcast belongs to the phase it was sent in: the first processed after it.
        phase = next((p for end, p in ends if moment <= end), current)
        if not (window.keeps_moment(moment) and window.keeps_phase(phase)):
            continue
        seat = games.get_seat(db, press.seat_id)
        sender = "anonymous" if press.grey else sender_name(gm, seat)
        entry = {"at": format_deadline(press.sent_at, zone), "sender": sender, "text": press.text}
        out.append(_Entry(moment, 1 + len(press.text.splitlines()), entry))
    return out
