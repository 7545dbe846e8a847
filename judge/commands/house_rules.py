"""The master's house rules: SET RULES (the DATC section 4 choices) before the game
starts, and how the game ends (SET VICTORY, SET END, SET STALE, SET MAXYEARS).

Handlers listed in the command table (judge/commands/table.py).
"""

from __future__ import annotations

from dataclasses import replace

from judge.commands.language import Command
from judge.commands.run import Run, need_master, need_player, refuse
from judge.engine.geography import squash
from judge.engine.phase import MOVEMENT
from judge.engine.rules import describe
from judge.game import play
from judge.game.errors import CommandError
from judge.game.rules import read_rules_text, rules_of, rules_table
from judge.replies import Reply
from judge.store import games
from judge.store.settings import GameSettings
from judge.variants.maps import load_map


def set_rules(run: Run, cmd: Command) -> None:
    """SET RULES alone lists every option; with text it changes them, before the start."""
    block = need_master(run, cmd)
    if not block:
        return
    game = block.game
    current = rules_of(game)
    if not cmd.args:
        run.event("rules_table", cmd, game=game.name, table=rules_table(current))
        return
    if game.state != games.FORMING:
        refuse(run, cmd, "rules_after_start")
        return
    try:
        rules = read_rules_text(cmd.args[0], current)
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    settings = replace(game.settings, rules=rules.to_json())
    block.game = games.update_game(run.ctx.db, game, run.ctx.now, settings=settings)
    run.event("rules", cmd, game=game.name, lines=describe(rules))


def set_end(run: Run, cmd: Command) -> None:
    """The end rules. Each takes effect at once and holds until changed; a finished game
    is not changed."""
    block = need_master(run, cmd)
    if not block:
        return
    game = block.game
    if game.state == games.FINISHED:
        run.event("not_now", cmd, game=game.name)
        return
    gm = load_map(game.variant)
    words = cmd.args[0].split()
    settings = game.settings
    try:
        if cmd.name == "SET VICTORY":
            n = _count(words, 1, len(gm.supply_centers))
            settings = replace(settings, victory=n)
            shown: dict[str, object] = {"said": "centres", "centres": n}
        elif cmd.name == "SET END":
            settings, shown = _end_year(words, gm.first_year, settings)
        else:  # SET STALE / SET MAXYEARS: a number of years or OFF
            key = "stale_years" if cmd.name == "SET STALE" else "max_years"
            if words and words[0].upper() in ("OFF", "NONE", "NO"):
                settings = settings.with_value(key, None)
                shown = {"said": "years", "years": None}
            else:
                years = _count(words, 1, 1000)
                settings = settings.with_value(key, years)
                shown = {"said": "years", "years": years}
    except CommandError as e:
        refuse(run, cmd, e.code, **e.values)
        return
    block.game = games.update_game(run.ctx.db, game, run.ctx.now, settings=settings)
    run.event("setting", cmd, game=game.name, setting=cmd.name, **shown)


_DIGITS = 9  # a longer number is in no range here (and int() need not read it)


def _number(word: str) -> int | None:
    """`word` as a number when it is at most _DIGITS ASCII digits, else None: int() takes
    no "²" (which isdigit() passes) and no more than 4,300 digits, and raised on both."""
    return int(word) if word.isascii() and word.isdigit() and len(word) <= _DIGITS else None


def _count(words: list[str], low: int, high: int) -> int:
    """The one number in `words`, from `low` to `high`; CommandError if not."""
    number = _number(words[0]) if len(words) == 1 else None
    if number is None or not low <= number <= high:
        raise CommandError("number_range", low=low, high=high)
    return number


def _end_year(
    words: list[str], first_year: int, settings: GameSettings
) -> tuple[GameSettings, dict[str, object]]:
    """SET END year [DRAW|MOST] or SET END NONE: the changed settings and how to say so."""
    if words and words[0].upper() in ("NONE", "OFF", "NO"):
        return replace(settings, end_year=None), {"said": "end", "year": None}
    year = _number(words[0]) if 1 <= len(words) <= 2 else None
    if year is None or year < first_year:
        raise CommandError("end_year", first_year=first_year)
    mode = words[1].upper() if len(words) == 2 else "DRAW"
    if mode not in ("DRAW", "MOST"):
        raise CommandError("end_mode")
    settings = replace(settings, end_year=year, end_mode=mode.lower())
    return settings, {"said": "end", "year": year, "mode": mode.lower()}


def set_proxy(run: Run, cmd: Command) -> None:
    """SET PROXY unit TO power (DATC 4.E.5 a): for this movement phase, the power's order
    for the unit is used instead of the owner's; SET PROXY NONE takes every hand-over of
    the player's back. The receiving player is told."""
    block = need_player(run, cmd)
    if not block:
        return
    db, game = run.ctx.db, games.get_game(run.ctx.db, block.game.id)
    if rules_of(game).proxy_orders != "notified":
        refuse(run, cmd, "no_proxies")
        return
    gm = load_map(game.variant)
    position = play.current_position(db, game)
    if position.phase.kind != MOVEMENT:
        refuse(run, cmd, "proxy_not_movement")
        return
    mine = block.seat.power
    phase_proxies = game.proxies.handed(game.phase or "")
    words = cmd.args[0].split()
    if [w.upper() for w in words] == ["NONE"]:
        phase_proxies = {
            p: to
            for p, to in phase_proxies.items()
            if (unit := position.unit_in(p)) is None or unit.power != mine
        }
        shown = None
    else:
        upper = [w.upper() for w in words]
        if "TO" not in upper or upper.index("TO") == 0 or upper.index("TO") == len(upper) - 1:
            refuse(run, cmd, "proxy_syntax")
            return
        at = upper.index("TO")
        place = gm.names.get(squash(words[at - 1].split("/")[0]))
        to = gm.power_names.get(squash(" ".join(words[at + 1 :])))
        unit = position.unit_in(place) if place else None
        if unit is None or unit.power != mine:
            refuse(run, cmd, "no_unit", place=words[at - 1])
            return
        if to is None or to == mine or to not in gm.powers:
            refuse(run, cmd, "not_another_power", power=" ".join(words[at + 1 :]))
            return
        phase_proxies[unit.province] = to
        shown = {"unit": str(unit), "to": gm.powers[to].name}
        holders = [s.address for s in games.seats(db, game, games.PLAYER) if s.power == to]
        if holders:
            context: dict[str, str | None] = {"game": game.name, "from": gm.powers[mine].name}
            context |= shown
            context["phase"] = game.phase
            run.mails.append(Reply(tuple(holders), "proxy_notice", context, "notice", False))
    proxies = game.proxies.with_phase(game.phase or "", phase_proxies)
    block.game = games.update_game(db, game, run.ctx.now, proxies=proxies)
    run.event("proxy", cmd, game=game.name, handed=shown)
