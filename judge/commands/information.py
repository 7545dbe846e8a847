"""The information commands anyone may send: LIST, WHOGAME, SUMMARY, HISTORY (HELP is
the command table's own, in judge/commands/table.py)."""

from __future__ import annotations

from datetime import datetime

from sqlite_utils import Database

from judge.commands.language import Command
from judge.commands.powers import sender_name
from judge.commands.run import Run, refuse
from judge.engine.phase import Phase
from judge.engine.rules import describe
from judge.game.report import format_deadline, results_by_power
from judge.game.rules import end_rules, end_rules_text, rules_of, score_lines
from judge.mail.message import reply_address
from judge.replies import Reply
from judge.store import games
from judge.variants.maps import load_map


def list_games(run: Run, cmd: Command) -> None:
    """LIST: every game in a line; LIST name: that game's state, settings and players."""
    db, zone = run.ctx.db, run.ctx.config.timezone
    if not cmd.args:
        rows = []
        for game in games.all_games(db):
            phase = Phase.parse(game.phase) if game.phase else None
            rows.append(
                {
                    "name": game.name,
                    "state": game.state,
                    "phase": str(phase) if phase else "",
                    "players": len(games.seats(db, game, games.PLAYER)),
                }
            )
        run.event("list", cmd, games=rows)
        return
    found = games.find_game(db, cmd.args[0])
    if found is None:
        refuse(run, cmd, "no_game", game=cmd.args[0])
        return
    game = found
    gm = load_map(game.variant)
    phase = Phase.parse(game.phase) if game.phase else None
    settings = game.settings
    run.event(
        "status",
        cmd,
        game=game.name,
        variant=gm.title,
        state=game.state,
        phase=str(phase) if phase else "",
        deadline=format_deadline(game.deadline, zone),
        press=settings.press,
        map="on" if settings.map else "off",
        orders_rule=settings.orders,
        nmr="NMR" if settings.nmr else "NONMR",
        rules=describe(rules_of(game)),
        end=end_rules_text(end_rules(game, gm)),
        powers=_who(db, game),
    )


def _who(db: Database, game: games.Game) -> list[dict[str, str]]:
    """Who plays what in `game`, with their addresses."""
    gm = load_map(game.variant)
    out = []
    for seat in games.seats(db, game):
        if seat.role == games.PLAYER:
            who = gm.powers[seat.power].name if seat.power else "(not yet assigned)"
        else:
            who = seat.role
        out.append({"who": who, "address": seat.address})
    return out


def whogame(run: Run, cmd: Command) -> None:
    """WHOGAME name: who plays what in the game."""
    game = games.find_game(run.ctx.db, cmd.args[0])
    if game is None:
        refuse(run, cmd, "no_game", game=cmd.args[0])
        return
    run.event("whogame", cmd, game=game.name, powers=_who(run.ctx.db, game))


def summary(run: Run, cmd: Command) -> None:
    """Centre counts per year and who played each power."""
    db = run.ctx.db
    game = games.find_game(db, cmd.args[0])
    if game is None:
        refuse(run, cmd, "no_game", game=cmd.args[0])
        return
    gm = load_map(game.variant)
    years: dict[int, dict[str, int]] = {}
    for phase, _position, results, _at in games.processed_phases(db, game):
        p = Phase.parse(phase)
        if p.kind == "A" or p.season == "W":
            continue
        years[p.year] = {k: len(results["centers"].get(k, [])) for k in gm.powers}
    played: dict[str, list[str]] = {}
    for player in games.players_ever(db, game):
        if player.power:
            played.setdefault(player.power, []).append(player.address)
    table = [{"year": y, "counts": [years[y][k] for k in gm.powers]} for y in sorted(years)]
    run.event(
        "summary",
        cmd,
        game=game.name,
        scores=(score_lines(game, gm, game.result) if game.state == games.FINISHED else []),
        powers=[gm.powers[k].name for k in gm.powers],
        table=table,
        players=[
            {"power": gm.powers[k].name, "by": ", ".join(played.get(k, [])) or "nobody"}
            for k in gm.powers
        ],
    )


def history(run: Run, cmd: Command) -> None:
    """Everything an observer saw: each processed phase's results and the broadcasts."""
    db, zone = run.ctx.db, run.ctx.config.timezone
    name, window = cmd.args
    game = games.find_game(db, name)
    if game is None:
        refuse(run, cmd, "no_game", game=name)
        return
    dates = _window(window, run)
    if dates is None:
        return
    start, end = dates
    gm = load_map(game.variant)
    phases = []
    for phase, _position, results, at in games.processed_phases(db, game):
        moment = datetime.fromisoformat(at)
        if (start and moment < start) or (end and moment > end):
            continue
        p = Phase.parse(phase)
        phases.append(
            {
                "phase": phase,
                "at": format_deadline(at, zone),
                "orders": results_by_power(gm, results["results"], p),
            }
        )
    broadcasts = []
    for press in games.broadcasts(db, game):
        moment = datetime.fromisoformat(press.sent_at)
        if (start and moment < start) or (end and moment > end):
            continue
        seat = games.get_seat(db, press.seat_id)
        sender = "anonymous" if press.grey else sender_name(gm, seat)
        at = format_deadline(press.sent_at, zone)
        broadcasts.append({"at": at, "sender": sender, "text": press.text})
    run.mails.append(
        Reply(
            (reply_address(run.sub),),
            "history",
            {"game": game.name, "phases": phases, "broadcasts": broadcasts},
            "reply",
        )
    )
    run.event("history_sent", cmd, game=game.name, count=len(phases))


def _window(text: str, run: Run) -> tuple[datetime | None, datetime | None] | None:
    """HISTORY's FROM and TO dates (None where not given); None, and an error, if one
    cannot be read."""
    start: datetime | None = None
    end: datetime | None = None
    words = text.split()
    try:
        upper = [w.upper() for w in words]
        if "FROM" in upper:
            i = upper.index("FROM")
            j = upper.index("TO") if "TO" in upper else len(words)
            start = _past_moment(" ".join(words[i + 1 : j]), run)
        if "TO" in upper:
            end = _past_moment(" ".join(words[upper.index("TO") + 1 :]), run)
    except ValueError as e:  # datetime.fromisoformat's own words
        refuse(run, None, "history_date", message=str(e))
        return None
    return start, end


def _past_moment(text: str, run: Run) -> datetime:
    """A date in a HISTORY window (it may lie in the past)."""
    value = datetime.fromisoformat(text.strip().replace(" ", "T"))
    return value if value.tzinfo else value.replace(tzinfo=run.ctx.config.zone)
