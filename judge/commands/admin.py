"""Masters, press, observers, draws and the information commands.

Handlers registered into the dispatcher's table (judge/commands/dispatch.py). Public
mail (broadcast press, results, the end of a game) also goes to the judge's broadcast
address and the game's own list; private press never does.
"""

from __future__ import annotations

import secrets
import zlib
from dataclasses import replace
from datetime import datetime

from judge.commands import dispatch as d
from judge.commands.language import Command
from judge.engine.adjudication import adjudicate
from judge.engine.phase import Phase
from judge.engine.rules import describe
from judge.game import play, proxies
from judge.game.outgoing import public_copy
from judge.game.passwords import hash_password
from judge.game.pictures import of_prediction
from judge.game.report import format_deadline, phase_kind_title, phase_title, results_by_power
from judge.game.rules import end_rules, end_rules_text, rules_of, score_lines
from judge.replies import Reply
from judge.store import games
from judge.store.audit import iso
from judge.store.result import GameResult
from judge.variants.json_contract import outcome_to_json, position_from_json
from judge.variants.maps import load_map

# -- observers ------------------------------------------------------------------------------


def observe(run: d._Run, cmd: Command) -> None:
    """OBSERVE name password (or SIGNON ?name password on a started game)."""
    d._close_block(run)
    name, password = cmd.args
    game = games.find_game(run.ctx.db, name)
    if game is None or game.state == games.FORMING:
        run.event("join_failed", cmd, game=name, reason="no_game")
        return
    seat = games.add_seat(
        run.ctx.db, game, games.OBSERVER, run.sub.sender, hash_password(password), run.ctx.now
    )
    run.block = d._Block(game, seat)
    run.event("observing", cmd, game=name)


# -- press ------------------------------------------------------------------------------------


def press(run: d._Run, cmd: Command) -> None:
    block = d._need_block(run, cmd)
    if not block:
        return
    db, game, seat = run.ctx.db, games.get_game(run.ctx.db, block.game.id), block.seat
    gm = load_map(game.variant)
    to_text, text = cmd.args
    settings = game.settings
    master = seat.role == games.MASTER
    if not text.strip():
        run.event("error", cmd, message="The press has no text.")
        return
    if settings.press == "none" and not master:
        run.event("press_refused", cmd, game=game.name, reason="none")
        return
    if seat.role == games.OBSERVER and not settings.observer_press:
        run.event("press_refused", cmd, game=game.name, reason="observer")
        return
    broadcast = to_text == "*"
    if broadcast:
        powers: list[str] = []
    else:
        try:
            powers = _powers(gm, to_text)
        except ValueError as e:
            run.event("error", cmd, message=str(e))
            return
        if not settings.partial and not master:
            run.event("press_refused", cmd, game=game.name, reason="partial")
            return
    grey = settings.press == "grey" and not master
    games.add_press(db, game, seat, ["*"] if broadcast else powers, grey, text, run.ctx.now)
    sender = _sender_name(gm, seat)
    names = [gm.powers[p].name for p in powers]
    context = {
        "game": game.name,
        "phase_title": phase_title(Phase.parse(game.phase)) if game.phase else "",
        "sender": None if grey else sender,
        "to": names,
        "broadcast": broadcast,
        "text": text,
    }
    seats = games.seats(db, game)
    masters = [s.address for s in seats if s.role == games.MASTER]
    if broadcast:
        to = tuple(
            dict.fromkeys(s.address for s in seats if s.id != seat.id and s.role != games.MASTER)
        )
    else:
        to = tuple(
            dict.fromkeys(s.address for s in seats if s.power in powers and s.role == games.PLAYER)
        )
    if to and grey:  # one mail each: a shared To: line would give the sender away
        run.mails += [Reply((a,), "press", context, "press", False) for a in to]
    elif to:
        run.mails.append(Reply(to, "press", context, "press", False))
    # The master sees all press, with the sender even when it is grey.
    if masters and not master:
        run.mails.append(
            Reply(
                tuple(masters), "press", {**context, "sender": sender, "copy": True}, "press", False
            )
        )
    if broadcast:
        run.mails += public_copy(
            run.ctx.config, game.name, settings.list, Reply((), "press", context)
        )
    run.event("press_sent", cmd, game=game.name, to=names, broadcast=broadcast, grey=grey)


def _powers(gm, text: str) -> list[str]:
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    out = []
    for word in text.replace(",", " ").split():
        key = gm.power_names.get(word.lower().replace("-", ""))
        if key is None and word.isalpha() and all(c.upper() in by_initial for c in word):
            out += [by_initial[c.upper()] for c in word]
            continue
        if key is None:
            raise ValueError(f"I don't know the power {word!r}.")
        out.append(key)
    return list(dict.fromkeys(out))


def _sender_name(gm, seat: games.Seat) -> str:
    if seat.role == games.MASTER:
        return "the master"
    if seat.role == games.OBSERVER:
        return "an observer"
    return gm.powers[seat.power].name if seat.power else "a player"


# -- settings -----------------------------------------------------------------------------------


def press_settings(run: d._Run, cmd: Command) -> None:
    block = d._need_master(run, cmd)
    if not block:
        return
    value = cmd.args[0].strip()
    settings = block.game.settings
    if cmd.name == "SET PRESS":
        word = {"WHITE": "white", "GREY": "grey", "GRAY": "grey", "NONE": "none"}.get(value.upper())
        if word is None:
            run.event("error", cmd, message="Expected SET PRESS WHITE, GREY or NONE.")
            return
        settings, shown = replace(settings, press=word), word
    elif cmd.name == "SET MAP":  # the board picture on results, start and PREDICT mails
        on = {"ON": True, "YES": True, "OFF": False, "NO": False}.get(value.upper())
        if on is None:
            run.event("error", cmd, message="Expected SET MAP ON or OFF.")
            return
        settings, shown = replace(settings, map=on), "on" if on else "off"
    elif cmd.name == "SET PARTIAL":
        if value.upper() not in ("YES", "NO"):
            run.event("error", cmd, message="Expected SET PARTIAL YES or NO.")
            return
        settings = replace(settings, partial=value.upper() == "YES")
        shown = "allowed" if settings.partial else "not allowed"
    else:  # SET LIST
        address = None if value.upper() == "NONE" else value.strip("<>").lower()
        if address is not None and "@" not in address:
            run.event("error", cmd, message=f"{value} is not a mail address.")
            return
        settings, shown = replace(settings, list=address), address or "none"
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, value=shown)


# -- draws -------------------------------------------------------------------------------------


def draw_vote(run: d._Run, cmd: Command) -> None:
    block = d._need_player(run, cmd)
    if not block:
        return
    db = run.ctx.db
    vote = cmd.name == "SET DRAW"
    games.set_draw(db, block.seat, vote)
    game = games.get_game(db, block.game.id)
    run.event("draw_vote", cmd, game=game.name, on=vote)
    if not vote:
        return
    position = play.current_position(db, game)
    survivors = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    if survivors and survivors <= games.draw_votes(db, game):
        names = [
            position.game_map.powers[p].name for p in position.game_map.powers if p in survivors
        ]
        run.mails += end_game(run, game, {"draw": names})
        run.event("drawn", game=game.name, powers=names)


def concede(run: d._Run, cmd: Command) -> None:
    """SET CONCEDE X: when every other surviving power concedes to X, X wins."""
    block = d._need_player(run, cmd)
    if not block:
        return
    db = run.ctx.db
    gm = load_map(block.game.variant)
    if cmd.name == "SET NOCONCEDE":
        games.set_concede(db, block.seat, None)
        run.event("concede", cmd, game=block.game.name, to=None)
        return
    to = _power_key(gm, cmd.args[0].strip())
    if to is None or to == block.seat.power:
        run.event("error", cmd, message=f"Expected another power to concede to, not {cmd.args[0]}.")
        return
    games.set_concede(db, block.seat, to)
    game = games.get_game(db, block.game.id)
    run.event("concede", cmd, game=game.name, to=gm.powers[to].name)
    position = play.current_position(db, game)
    survivors = {u.power for u in position.units} | {p for p, cs in position.centers.items() if cs}
    others = survivors - {to}
    conceded = games.concessions(db, game)
    if to in survivors and others and all(conceded.get(p) == to for p in others):
        run.mails += end_game(run, game, {"conceded_to": gm.powers[to].name})
        run.event("conceded", game=game.name, to=gm.powers[to].name)


def observer_press(run: d._Run, cmd: Command) -> None:
    block = d._need_master(run, cmd)
    if not block:
        return
    value = cmd.args[0].strip().upper()
    if value not in ("YES", "NO"):
        run.event("error", cmd, message="Expected SET OBSERVER PRESS YES or NO.")
        return
    settings = replace(block.game.settings, observer_press=value == "YES")
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    shown = "allowed" if value == "YES" else "not allowed"
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, value=shown)


def end_game(run: d._Run, game: games.Game, how: dict) -> list[Reply]:
    """Finish a game and tell everyone (and the lists): a draw or a termination."""
    gm = load_map(game.variant)
    by_name = {p.name: key for key, p in gm.powers.items()}
    if "draw" in how:
        result = GameResult("draw", tuple(by_name[n] for n in how["draw"]))
    elif "conceded_to" in how:
        result = GameResult("conceded", (by_name[how["conceded_to"]],))
    else:
        result = GameResult("terminated", ())
    game = games.update_game(
        run.ctx.db, game, run.ctx.now, state=games.FINISHED, process_at=None, result=result
    )
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(run.ctx.db, game)))
    context = {"game": game.name, **how}
    mail = Reply(everyone, "game_end", context, "end", False)
    return [mail, *public_copy(run.ctx.config, game.name, game.settings.list, mail)]


# -- master commands ------------------------------------------------------------------------


def terminate(run: d._Run, cmd: Command) -> None:
    block = d._need_master(run, cmd)
    if block and d._active(run, cmd, block):
        run.mails += end_game(run, block.game, {"terminated": True})
        run.event("terminated", cmd, game=block.game.name)


def predict(run: d._Run, cmd: Command) -> None:
    """A trial adjudication of the orders on file, for the master only."""
    block = d._need_master(run, cmd)
    if not block or not d._active(run, cmd, block):
        return
    db, game = run.ctx.db, games.get_game(run.ctx.db, block.game.id)
    raw = games.phase_position(db, game, game.phase or "")
    position, _, _ = position_from_json(raw)
    orders = games.effective_orders(db, game, game.phase or "")
    orders = proxies.effective(game, position, orders)
    outcome = adjudicate(position, orders, proxies.engine_rules(rules_of(game)))
    results = outcome_to_json(position, outcome)
    gm = position.game_map
    context = {
        "game": game.name,
        "done_title": phase_title(position.phase),
        "done_kind": phase_kind_title(position.phase),
        "orders": results_by_power(gm, results["results"], position.phase),
    }
    picture = of_prediction(game, raw, results)  # None with SET MAP OFF
    run.mails.append(Reply((run.sub.sender,), "prediction", context, "reply", picture=picture))
    run.event("predicted", cmd, game=game.name)


def eject(run: d._Run, cmd: Command) -> None:
    block = d._need_master(run, cmd)
    if not block:
        return
    seat = _seat_of(run, block.game, cmd.args[0])
    if seat is None:
        run.event("error", cmd, message=f"No one plays {cmd.args[0]} in {block.game.name}.")
        return
    games.update_seat(run.ctx.db, seat, run.ctx.now, left_at=iso(run.ctx.now))
    name = load_map(block.game.variant).powers[seat.power].name
    run.mails.append(
        Reply((seat.address,), "ejected", {"game": block.game.name, "power": name}, "notice", False)
    )
    run.event("ejected", cmd, game=block.game.name, power=name)


def replace_power(run: d._Run, cmd: Command) -> None:
    """REPLACE power address: the power goes to a new player, who gets a password."""
    block = d._need_master(run, cmd)
    if not block:
        return
    initial, address = cmd.args
    address = address.strip("<>").lower()
    gm = load_map(block.game.variant)
    key = _power_key(gm, initial)
    if key is None or "@" not in address:
        run.event(
            "error", cmd, message="Expected REPLACE power address, e.g. REPLACE F new@example.org."
        )
        return
    db, now = run.ctx.db, run.ctx.now
    old = _seat_of(run, block.game, initial)
    if old is not None:
        games.update_seat(db, old, now, left_at=iso(now))
        taken = {"game": block.game.name, "power": gm.powers[key].name}
        run.mails.append(Reply((old.address,), "ejected", taken, "notice", False))
    password = secrets.token_urlsafe(8)
    games.add_seat(db, block.game, games.PLAYER, address, hash_password(password), now, power=key)
    power = gm.powers[key]
    context = {
        "game": block.game.name,
        "power": power.name,
        "initial": power.initial,
        "password": password,
        "deadline": format_deadline(block.game.deadline, run.ctx.config.timezone),
    }
    run.mails.append(Reply((address,), "replacement", context, "notice", False))
    run.event("replaced", cmd, game=block.game.name, power=power.name, address=address)


def become(run: d._Run, cmd: Command) -> None:
    """BECOME power: the master acts as that power; its player gets a copy."""
    block = d._need_master(run, cmd)
    if not block:
        return
    seat = _seat_of(run, block.game, cmd.args[0])
    if seat is None:
        run.event("error", cmd, message=f"No one plays {cmd.args[0]} in {block.game.name}.")
        return
    d._close_block(run)
    run.block = d._Block(block.game, seat)
    run.copy_to.add(seat.address)
    power = load_map(block.game.variant).powers[seat.power].name
    run.event("became", cmd, game=block.game.name, power=power)


def promote(run: d._Run, cmd: Command) -> None:
    block = d._need_master(run, cmd)
    if not block:
        return
    address = cmd.args[0].strip("<>")
    if "@" not in address:
        run.event("error", cmd, message=f"{cmd.args[0]} is not a mail address.")
        return
    password = secrets.token_urlsafe(8)
    games.add_seat(
        run.ctx.db, block.game, games.MASTER, address, hash_password(password), run.ctx.now
    )
    context = {"game": block.game.name, "password": password, "by": run.sub.sender}
    run.mails.append(Reply((address,), "promoted", context, "notice", False))
    run.event("promoted", cmd, game=block.game.name, address=address)


def force_begin(run: d._Run, cmd: Command) -> None:
    """Start a forming game with the players seated; the other powers are in civil disorder."""
    block = d._need_master(run, cmd)
    if not block:
        return
    game = games.get_game(run.ctx.db, block.game.id)
    if game.state != games.FORMING:
        run.event("not_now", cmd, game=game.name)
        return
    seed = zlib.crc32(f"{game.name}|{run.ctx.now.isoformat()}".encode())
    run.mails += play.start_game(run.ctx.db, run.ctx.config, game, run.ctx.now, seed)
    run.event("started", game=game.name)


def rollback(run: d._Run, cmd: Command) -> None:
    """ROLLBACK [phase]: restore an earlier phase (default: the one before); everyone is told."""
    block = d._need_master(run, cmd)
    if not block or not d._active(run, cmd, block):
        return
    db, now, game = run.ctx.db, run.ctx.now, games.get_game(run.ctx.db, block.game.id)
    marks = games.phase_marks(db, game)
    names = [m.phase for m in marks]
    # ROLLBACK alone means one back from the phase current when the mail arrived: if
    # the game has moved since (a late or duplicated mail), it is refused, not applied.
    arrived = None if cmd.args else d.arrived_during(run, game)
    if arrived is not None:
        back = names.index(arrived) - 1 if arrived in names else 0
        run.event(
            "rollback_refused",
            cmd,
            game=game.name,
            now=d.phase_words(game.phase),
            arrived=d.phase_words(arrived) if arrived else "the game's start",
            code=names[max(back, 0)],
        )
        return
    target = cmd.args[0] if cmd.args else (names[-2] if len(names) > 1 else None)
    if target not in names or target == game.phase:
        run.event(
            "error", cmd, message=f"{game.name} has no earlier phase {target or ''}".strip() + "."
        )
        return
    games.rewind(db, game, next(m for m in marks if m.phase == target))
    phase = Phase.parse(target)
    deadline = play.deadline_for(game, phase, now, run.ctx.config.timezone)
    game = games.update_game(db, game, now, phase=target, deadline=deadline, process_at=None)
    games.clear_notices(db, game)
    everyone = tuple(dict.fromkeys(s.address for s in games.seats(db, game)))
    context = {
        "game": game.name,
        "phase_title": phase_title(phase),
        "phase_kind": phase_kind_title(phase),
        "deadline": format_deadline(deadline, run.ctx.config.timezone),
    }
    notice = Reply(everyone, "rolled_back", context, "notice", False)
    run.mails += [
        notice,
        *public_copy(run.ctx.config, game.name, game.settings.list, notice),
    ]
    run.event(
        "rolled_back", cmd, game=game.name, phase=f"{phase_kind_title(phase)}, {phase_title(phase)}"
    )


def _power_key(gm, text: str) -> str | None:
    by_initial = {p.initial: k for k, p in gm.powers.items()}
    return by_initial.get(text.upper()) or gm.power_names.get(text.lower())


def _seat_of(run: d._Run, game: games.Game, text: str) -> games.Seat | None:
    key = _power_key(load_map(game.variant), text)
    for seat in games.seats(run.ctx.db, game, games.PLAYER):
        if seat.power == key:
            return seat
    return None


# -- information ---------------------------------------------------------------------------------


def list_games(run: d._Run, cmd: Command) -> None:
    db, zone = run.ctx.db, run.ctx.config.timezone
    if not cmd.args:
        rows = []
        for game in games.all_games(db):
            phase = Phase.parse(game.phase) if game.phase else None
            rows.append(
                {
                    "name": game.name,
                    "state": game.state,
                    "phase": f"{phase_kind_title(phase)}, {phase_title(phase)}" if phase else "",
                    "players": len(games.seats(db, game, games.PLAYER)),
                }
            )
        run.event("list", cmd, games=rows)
        return
    game = games.find_game(db, cmd.args[0])
    if game is None:
        run.event("error", cmd, message=f"There is no game called {cmd.args[0]}.")
        return
    gm = load_map(game.variant)
    phase = Phase.parse(game.phase) if game.phase else None
    settings = game.settings
    run.event(
        "status",
        cmd,
        game=game.name,
        variant=gm.title,
        state=game.state,
        phase=f"{phase_kind_title(phase)}, {phase_title(phase)}" if phase else "not started",
        deadline=format_deadline(game.deadline, zone),
        press=settings.press,
        map="on" if settings.map else "off",
        orders_rule=settings.orders,
        nmr="NMR" if settings.nmr else "NONMR",
        rules=describe(rules_of(game)),
        end=end_rules_text(end_rules(game, gm)),
        powers=_who(db, game),
    )


def _who(db, game: games.Game) -> list[dict]:
    gm = load_map(game.variant)
    out = []
    for seat in games.seats(db, game):
        if seat.role == games.PLAYER:
            who = gm.powers[seat.power].name if seat.power else "(not yet assigned)"
        else:
            who = seat.role
        out.append({"who": who, "address": seat.address})
    return out


def whogame(run: d._Run, cmd: Command) -> None:
    game = games.find_game(run.ctx.db, cmd.args[0])
    if game is None:
        run.event("error", cmd, message=f"There is no game called {cmd.args[0]}.")
        return
    run.event("whogame", cmd, game=game.name, powers=_who(run.ctx.db, game))


def summary(run: d._Run, cmd: Command) -> None:
    """Centre counts per year and who played each power."""
    db = run.ctx.db
    game = games.find_game(db, cmd.args[0])
    if game is None:
        run.event("error", cmd, message=f"There is no game called {cmd.args[0]}.")
        return
    gm = load_map(game.variant)
    years: dict[int, dict[str, int]] = {}
    for phase, _position, results, _at in games.processed_phases(db, game):
        p = Phase.parse(phase)
        if p.kind == "A" or p.season == "W":
            continue
        years[p.year] = {k: len(results["centers"].get(k, [])) for k in gm.powers}
    played = {}
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


def history(run: d._Run, cmd: Command) -> None:
    """Everything an observer saw: each processed phase's results and the broadcasts."""
    db, zone = run.ctx.db, run.ctx.config.timezone
    name, window = cmd.args
    game = games.find_game(db, name)
    if game is None:
        run.event("error", cmd, message=f"There is no game called {name}.")
        return
    start, end = _window(window, run)
    if start is False:
        return
    gm = load_map(game.variant)
    phases = []
    for phase, _position, results, at in games.processed_phases(db, game):
        moment = datetime.fromisoformat(at)
        if (start and moment < start) or (end and moment > end):
            continue
        p = Phase.parse(phase)
        phases.append(
            {
                "title": f"{phase_kind_title(p)} results for {phase_title(p)}",
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
        sender = "anonymous" if press.grey else _sender_name(gm, seat)
        at = format_deadline(press.sent_at, zone)
        broadcasts.append({"at": at, "sender": sender, "text": press.text})
    run.mails.append(
        Reply(
            (d.reply_address(run.sub),),
            "history",
            {"game": game.name, "phases": phases, "broadcasts": broadcasts},
            "reply",
        )
    )
    run.event("history_sent", cmd, game=game.name, count=len(phases))


def _window(text: str, run: d._Run):
    from judge.game.dates import DateError  # noqa: PLC0415

    start = end = None
    words = text.split()
    try:
        upper = [w.upper() for w in words]
        if "FROM" in upper:
            i = upper.index("FROM")
            j = upper.index("TO") if "TO" in upper else len(words)
            start = _past_moment(" ".join(words[i + 1 : j]), run)
        if "TO" in upper:
            end = _past_moment(" ".join(words[upper.index("TO") + 1 :]), run)
    except (DateError, ValueError) as e:
        run.event("error", message=str(e))
        return False, False
    return start, end


def _past_moment(text: str, run: d._Run) -> datetime:
    """A date in a HISTORY window (it may lie in the past)."""
    value = datetime.fromisoformat(text.strip().replace(" ", "T"))
    return value if value.tzinfo else value.replace(tzinfo=run.ctx.config.zone)


HANDLERS = {
    "OBSERVE": observe,
    "PRESS": press,
    "SET PRESS": press_settings,
    "SET PARTIAL": press_settings,
    "SET MAP": press_settings,
    "SET LIST": press_settings,
    "SET DRAW": draw_vote,
    "SET NODRAW": draw_vote,
    "SET CONCEDE": concede,
    "SET NOCONCEDE": concede,
    "SET OBSERVER PRESS": observer_press,
    "TERMINATE": terminate,
    "PREDICT": predict,
    "EJECT": eject,
    "REPLACE POWER": replace_power,
    "BECOME": become,
    "PROMOTE": promote,
    "FORCE BEGIN": force_begin,
    "ROLLBACK": rollback,
    "LIST": list_games,
    "WHOGAME": whogame,
    "SUMMARY": summary,
    "HISTORY": history,
}
