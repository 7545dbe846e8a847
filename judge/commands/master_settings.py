"""The master's settings of a game: the deadline and the lengths of phases, times and
days, NMR, the orders rule, press, the board picture and the game's list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from judge.commands.address_args import other_address
from judge.commands.blocks import start_if_full
from judge.commands.deadline_spellings import is_clock_text, read_clock
from judge.commands.language import Command
from judge.commands.run import Block, Run, active, deadline_mail, everyone, need_master, refuse
from judge.game import anonymity
from judge.game.dates import (
    DateError,
    check_within_reach,
    format_moment,
    parse_duration,
    parse_moment,
    parse_time_of_day,
    parse_weekdays,
)
from judge.game.errors import CommandError
from judge.replies import Reply
from judge.store import games
from judge.store.audit import iso
from judge.store.settings import GameSettings


def set_deadline(run: Run, cmd: Command) -> None:
    """SET DEADLINE date: the current phase's deadline; everyone is told."""
    block = need_master(run, cmd)
    if not block or not active(run, cmd, block):
        return
    try:
        zone = run.ctx.config.zone
        moment = check_within_reach(parse_moment(cmd.args[0], run.ctx.now, zone), run.ctx.now, zone)
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    game = games.update_game(run.ctx.db, block.game, run.ctx.now, deadline=iso(moment))
    games.clear_notices(run.ctx.db, game)
    block.game = game
    run.event("deadline", cmd, game=game.name, deadline=format_moment(moment, run.ctx.config.zone))
    run.mails.append(deadline_mail(run, game, moment))


def set_orders_rule(run: Run, cmd: Command) -> None:
    """SET ORDERS MERGE or REPLACE: what a mail's orders do to those on file."""
    block = need_master(run, cmd)
    if block:
        settings = replace(block.game.settings, orders=cmd.args[0].lower())
        block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
        run.event("orders_rule", cmd, game=block.game.name, rule=cmd.args[0].lower())


_SETTING_LENGTHS = {
    "SET GRACE": ("grace_hours", 60),
    "SET MOVE LENGTH": ("move_hours", 60),
    "SET RETREAT LENGTH": ("retreat_hours", 60),
    "SET ADJUST LENGTH": ("adjust_hours", 60),
    "SET REMINDER": ("reminder_hours", 60),
    "SET DELAY": ("delay_minutes", 1),
}


def setting(run: Run, cmd: Command) -> None:
    """The master's game settings: lengths, time of day, days, NMR."""
    block = need_master(run, cmd)
    if not block:
        return
    if cmd.name in _CLOCK_KINDS and is_clock_text(cmd.args[0]):
        _njudge_clock(run, cmd, block)
        return
    if cmd.name == "SET GRACE" and not _is_length(cmd.args[0]) and _is_date(run, cmd.args[0]):
        _grace_until(run, cmd, block)
        return
    settings = block.game.settings
    try:
        if cmd.name in _SETTING_LENGTHS:
            key, per_unit = _SETTING_LENGTHS[cmd.name]
            length = parse_duration(cmd.args[0])
            settings = settings.with_value(key, length.total_seconds() / 60 / per_unit)
            shown = _length(length)
        elif cmd.name == "SET TIME":
            if cmd.args[0].upper() == "NONE":
                settings, shown = replace(settings, deadline_time=None), {"said": "any_time"}
            else:
                t = parse_time_of_day(cmd.args[0])
                settings = replace(settings, deadline_time=t.strftime("%H:%M"))
                shown = {"said": "time", "time": settings.deadline_time}
        elif cmd.name == "SET DAYS":
            days = parse_weekdays(cmd.args[0])
            settings = replace(settings, weekdays=tuple(sorted(days)) if len(days) < 7 else None)
            shown = {"said": "days", "days": sorted(days)}
        else:  # SET NMR / SET NONMR
            settings = replace(settings, nmr=cmd.name == "SET NMR")
            shown = {"said": "nmr", "on": settings.nmr}
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, **shown)


# SET MOVE/RETREAT/ADJUST in njudge's form (SET MOVE CLOCK 720 NEXT 48 ...): the length
# each sets.
_CLOCK_KINDS = {
    "SET MOVE LENGTH": "move_hours",
    "SET RETREAT LENGTH": "retreat_hours",
    "SET ADJUST LENGTH": "adjust_hours",
}


def _njudge_clock(run: Run, cmd: Command, block: Block) -> None:
    """njudge's SET MOVE CLOCK m MIN h NEXT h GRACE h DELAY h DAYS -MTWTF-: each part set
    as our setting it maps onto, and said as that setting's SET says it; all or none."""
    key = _CLOCK_KINDS[cmd.name]
    try:
        settings, parts = read_clock(cmd.args[0], key, block.game.settings)
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    game = block.game.name
    for part in parts:
        if part == "NEXT":
            length = _length(timedelta(hours=float(getattr(settings, key))))
            run.event("setting", cmd, game=game, setting=cmd.name, **length)
        elif part in ("GRACE", "DELAY"):
            hours = settings.grace_hours if part == "GRACE" else settings.delay_minutes / 60
            length = _length(timedelta(hours=float(hours)))
            run.event("setting", cmd, game=game, setting=f"SET {part}", **length)
        elif part == "CLOCK":
            time = settings.deadline_time
            said = {"said": "time", "time": time} if time else {"said": "any_time"}
            run.event("setting", cmd, game=game, setting="SET TIME", **said)
        elif part == "DAYS":
            days = sorted(settings.weekdays or range(7))
            run.event("setting", cmd, game=game, setting="SET DAYS", said="days", days=days)


def _is_length(text: str) -> bool:
    """Whether SET GRACE's text is a length (ours: 24h, 36) rather than njudge's date
    (a month, a weekday or a time: Dec 1, Tue 23:30)."""
    try:
        parse_duration(text)
    except DateError as e:
        return e.code != "length_unreadable"  # a length, but refused: its own error
    return True


def _is_date(run: Run, text: str) -> bool:
    """Whether SET GRACE's text (no length) reads as a date, or nearly (a date in the
    past, too far ahead: its own error); else the length's error is the one shown."""
    try:
        parse_moment(text, run.ctx.now, run.ctx.config.zone)
    except DateError as e:
        return e.code not in ("moment_unreadable", "moment_missing")
    return True


def _grace_until(run: Run, cmd: Command, block: Block) -> None:
    """SET GRACE date (njudge's): the current phase's grace ends then, not before its
    deadline; later phases keep the game's grace length."""
    game = block.game
    if game.state != games.ACTIVE or not game.deadline or not game.phase:
        run.event("not_now", cmd, game=game.name)
        return
    zone, now = run.ctx.config.zone, run.ctx.now
    try:
        moment = check_within_reach(parse_moment(cmd.args[0], now, zone), now, zone)
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    deadline = datetime.fromisoformat(game.deadline)
    if moment < deadline:
        refuse(run, cmd, "grace_before_deadline", deadline=format_moment(deadline, zone))
        return
    settings = replace(game.settings, grace_until=iso(moment), grace_phase=game.phase)
    block.game = games.update_game(run.ctx.db, game, now, settings=settings)
    run.event("grace_until", cmd, game=game.name, until=format_moment(moment, zone))


def _length(length: timedelta) -> dict[str, object]:
    """A length as the reply says it (templates/events/setting.txt): days, hours, minutes."""
    minutes = int(length.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return {"said": "length", "days": days, "hours": hours, "minutes": minutes}


def press_settings(run: Run, cmd: Command) -> None:
    """SET PRESS, SET MAP, SET PARTIAL, SET LIST."""
    block = need_master(run, cmd)
    if not block:
        return
    value = cmd.args[0].strip()
    settings = block.game.settings
    shown: dict[str, object]
    if cmd.name == "SET PRESS":
        word = {"WHITE": "white", "GREY": "grey", "GRAY": "grey", "NONE": "none"}.get(value.upper())
        if word is None:
            refuse(run, cmd, "press_value")
            return
        settings, shown = replace(settings, press=word), {"said": "word", "word": word}
    elif cmd.name == "SET MAP":  # the board picture on results, start and PREDICT mails
        on = {"ON": True, "YES": True, "OFF": False, "NO": False}.get(value.upper())
        if on is None:
            refuse(run, cmd, "map_value")
            return
        settings, shown = replace(settings, map=on), {"said": "on_off", "on": on}
    elif cmd.name == "SET PARTIAL":
        if value.upper() not in ("YES", "NO"):
            refuse(run, cmd, "partial_value")
            return
        settings = replace(settings, partial=value.upper() == "YES")
        shown = {"said": "allowed", "on": settings.partial}
    else:  # SET LIST
        address = None if value.upper() == "NONE" else other_address(run, cmd, value)
        if address == "":
            return  # refused
        settings, shown = replace(settings, list=address), {"said": "word", "word": address}
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=block.game.name, setting=cmd.name, **shown)


def observer_press(run: Run, cmd: Command) -> None:
    """SET OBSERVER PRESS YES or NO: whether observers may send press."""
    block = need_master(run, cmd)
    if not block:
        return
    value = cmd.args[0].strip().upper()
    if value not in ("YES", "NO"):
        refuse(run, cmd, "observer_press_value")
        return
    settings = replace(block.game.settings, observer_press=value == "YES")
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    run.event(
        "setting", cmd, game=block.game.name, setting=cmd.name, said="allowed", on=value == "YES"
    )


# njudge's flags: the command and the word after it -> the settings with it on or off.
_FLAG_SETTINGS: dict[tuple[str, ...], Callable[[GameSettings, bool], GameSettings]] = {
    ("SET MANUAL", "PROCESS"): lambda s, on: replace(s, manual_process=on),
    ("SET MANUAL", "START"): lambda s, on: replace(s, manual_start=on),
    ("SET STRICT", "WAIT"): lambda s, on: replace(s, strict_wait=on),
    ("SET MODERATED",): lambda s, on: replace(s, moderated=on),
}


def flag(run: Run, cmd: Command) -> None:
    """njudge's on/off flags: SET [NO] MANUAL PROCESS (SET AUTO PROCESS: the phases go by
    the clock again), SET [NO] MANUAL START, SET [NO] STRICT WAIT, and SET MODERATED /
    SET UNMODERATED (unmoderated: every player may change the game's settings too)."""
    block = need_master(run, cmd)
    if not block:
        return
    *about, value = cmd.args
    on = value == "ON"
    settings = _FLAG_SETTINGS[(cmd.name, *about)](block.game.settings, on)
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    shown = " ".join((cmd.name, *about))
    run.event("setting", cmd, game=block.game.name, setting=shown, said="on_off", on=on)
    if block.game.state == games.FORMING:
        start_if_full(run, block.game)  # SET AUTO START on a full game: it starts now


def remember_settings(run: Run) -> None:
    """Before a SET of the game's settings: keep the signed-on game's settings as they
    were before the mail's first such SET (parameters_notices compares them at the end)."""
    if run.block is not None:
        game = run.block.game
        run.settings_before.setdefault(game.id, game.settings)


def parameters_notices(run: Run) -> list[Reply]:
    """One notice to everyone in each game whose settings this mail's SETs changed:
    "Parameters for game 'war1' changed to:" and each changed setting's new value."""
    mails = []
    for game_id, before in sorted(run.settings_before.items()):
        game = games.get_game(run.ctx.db, game_id)
        after = game.settings.to_json()
        changed = [
            {"key": key, "value": value}
            for key, value in after.items()
            if value != before.to_json().get(key)
        ]
        changer = run.sub.sender if anonymity.signs_changes(game) else None  # SET SHOW
        notice = everyone(run, game, "parameters_changed", {"changes": changed, "changer": changer})
        # Told to the sender alone (a game with no players yet), it would only repeat
        # the acknowledgement.
        if changed and set(notice.to) != {run.sub.sender.lower()}:
            mails.append(notice)
    return mails


def set_start(run: Run, cmd: Command) -> None:
    """SET START date (njudge's): a forming game full before that moment waits for it
    (with the Start Waiting mail) and starts then (judge/service/start_waiting.py); one
    not full then starts when it fills. A started game refuses it (start_date); so does
    a moment not ahead (moment_passed)."""
    block = need_master(run, cmd)
    if not block:
        return
    zone, now = run.ctx.config.zone, run.ctx.now
    try:
        moment = check_within_reach(parse_moment(cmd.args[0], now, zone), now, zone)
    except DateError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    if block.game.state != games.FORMING:
        refuse(run, cmd, "start_date", game=block.game.name)
        return
    if moment <= now:
        refuse(run, cmd, "moment_passed", moment=format_moment(moment, zone))
        return
    settings = replace(block.game.settings, start_at=iso(moment))
    block.game = games.update_game(run.ctx.db, block.game, now, settings=settings)
    run.event("start_at", cmd, game=block.game.name, at=format_moment(moment, zone))
