"""A game's own rules: its DATC section 4 choices, how it ends, and how it is scored.

The choices live in the game's settings (`rules`: the options that differ from the
DATC's preferences), so every phase of a game is adjudicated under the same rules.
`read_rules_text` reads what a master writes after `SET RULES`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

import sqlite_utils

from judge.engine.geography import GameMap
from judge.engine.rules import OPTIONS, RULE_SETS, Rules, check_choice
from judge.engine.validation import orders_due
from judge.game.errors import CommandError, as_written
from judge.game.player_groups import groups_of
from judge.store import games
from judge.store.result import GameResult
from judge.variants.json_contract import position_from_json


def rules_of(game: games.Game) -> Rules:
    """The rules the game is played under (the DATC's preferences unless set)."""
    return Rules.from_json(dict(game.settings.rules) or None)


def starts_itself(game: games.Game) -> bool:
    """Whether a forming game starts by itself once full (SET AUTO START, the default);
    a manual-start game waits for its master's FORCE BEGIN or PROCESS."""
    return not game.settings.manual_start


def waits_for_start_date(game: games.Game, now: datetime) -> bool:
    """Whether a forming game is held until the start moment its master set (njudge's
    SET START date) and `now` is before it."""
    at = game.settings.start_at
    return at is not None and now < datetime.fromisoformat(at)


def processes_itself(game: games.Game) -> bool:
    """Whether a phase is processed by the clock and by complete orders (SET AUTO
    PROCESS, the default); a manual-process game waits for its master's PROCESS."""
    return not game.settings.manual_process


def may_wait(db: sqlite_utils.Database, game: games.Game, seat: games.Seat) -> bool:
    """Whether the player of `seat` may SET WAIT: always, unless the game is SET STRICT
    WAIT; then only while their power owes orders this phase (units to move or retreat,
    builds or removals)."""
    if not game.settings.strict_wait:
        return True
    if not seat.power or not game.phase:
        return False
    position, _, _ = position_from_json(games.phase_position(db, game, game.phase))
    units, owed = orders_due(position, seat.power)
    return bool(units) or owed != 0


def read_rules_text(text: str, current: Rules) -> Rules:
    """`SET RULES` text -> the new rules. The text is a rule set's name (DATC,
    ALEXANDER), option=choice pairs, or both (the set first). An option may be named
    by its field name or its DATC issue (4.A.2), a choice by its value or its DATC
    letter. CommandError (a code, worded by templates/errors/<code>.txt) when anything is
    not understood."""
    words = re.sub(r"\s*=\s*", "=", text.strip()).split()
    if not words:
        raise CommandError("rules_missing", sets=_set_names())
    rules = current
    changes: dict[str, Any] = {}
    for word in words:
        if "=" not in word:
            if word.lower() not in RULE_SETS:
                raise CommandError("rules_not_a_set", word=as_written(word), sets=_set_names())
            if changes:
                raise CommandError("rules_set_first")
            rules = RULE_SETS[word.lower()]
            continue
        key_text, value_text = word.split("=", 1)
        key = option_key(key_text)
        changes[key] = choice_value(key, value_text)
    return Rules.from_json({**rules.to_json(), **changes})


def _set_names() -> tuple[str, ...]:
    """The rule sets' names, as a master writes them (DATC, ALEXANDER)."""
    return tuple(name.upper() for name in RULE_SETS)


def option_key(text: str) -> str:
    """An option's field name from its name or its DATC issue id; CommandError if none."""
    lowered = text.lower().replace("-", "_")
    if lowered in OPTIONS:
        return lowered
    for key, option in OPTIONS.items():
        if option.issue.lower() == lowered.rstrip("."):
            return key
    raise CommandError("rules_not_an_option", option=as_written(text))


def choice_value(key: str, text: str) -> Any:
    """A choice of option `key` from its value or DATC letter; CommandError if none."""
    option = OPTIONS[key]
    lowered = text.lower()
    for value, (letter, _) in option.choices.items():
        shown = str(value).lower()
        if lowered in (shown, letter) or (isinstance(value, bool) and lowered == _yes_no(value)):
            check_choice(key, value)
            return value
    choices = tuple(
        {"value": str(v).lower(), "letter": letter} for v, (letter, _) in option.choices.items()
    )
    raise CommandError(
        "rules_not_a_choice",
        written=as_written(text),
        option=key,
        issue=option.issue,
        choices=choices,
    )


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def rules_table(rules: Rules) -> list[dict[str, str]]:
    """Every option with the game's choice, for the SET RULES reply and LIST."""
    out = []
    for f in fields(Rules):
        option = OPTIONS.get(f.name)
        if option is None:
            continue
        value = getattr(rules, f.name)
        letter, meaning = option.choices[value]
        out.append(
            {
                "issue": option.issue,
                "name": f.name,
                "title": option.title,
                "value": str(value).lower(),
                "letter": letter,
                "meaning": meaning,
                "preferred": value == f.default,
            }
        )
    return out


# -- the end of a game -----------------------------------------------------------------


@dataclass(frozen=True)
class EndRules:
    """How a game ends: victory centres, a set last year, the DPTG's rules."""

    victory_centers: int
    end_year: int | None  # the game ends after this year's Fall (and its adjustments)
    end_mode: str  # at end_year: "draw" (the survivors draw) or "most" (most centres wins)
    stale_years: int | None  # DPTG: a draw after this many years without a centre changing
    max_years: int | None  # DPTG: a draw after this many game years


def end_rules(game: games.Game, gm: GameMap) -> EndRules:
    s = game.settings
    return EndRules(
        victory_centers=int(s.victory or gm.victory_centers),
        end_year=s.end_year,
        end_mode=s.end_mode or "draw",
        stale_years=s.stale_years,
        max_years=s.max_years,
    )


# -- scoring ------------------------------------------------------------------------------

# The Alexander Rules' table VII.4 (the DPTG's scoring of wins and draws by size).
ALEXANDER_TABLE: dict[str, int] = {
    "win": 360,
    "draw2": 150,
    "draw3": 80,
    "draw4": 45,
    "draw5": 24,
    "draw6": 10,
    "draw7": 0,
    "loss": -60,
}


def scores(winners: list[str], players: list[str], table: dict[str, int]) -> dict[str, int]:
    """Points per player: the winner (one) or the draw's members (several), the rest lose."""
    if len(winners) == 1:
        won = table["win"]
    elif winners:
        won = table.get(f"draw{len(winners)}", 0)
    else:
        won = table["loss"]
    return {p: (won if p in winners else table["loss"]) for p in players}


def end_rules_text(end: EndRules) -> list[dict[str, Any]]:
    """How the game ends, one rule a value, for LIST (templates/words.txt `end_rule`
    says each in words): [{rule: victory|end_year|stale|max_years, n, mode}]."""
    out: list[dict[str, Any]] = [{"rule": "victory", "n": end.victory_centers}]
    if end.end_year is not None:
        out.append({"rule": "end_year", "n": end.end_year, "mode": end.end_mode})
    if end.stale_years is not None:
        out.append({"rule": "stale", "n": end.stale_years})
    if end.max_years is not None:
        out.append({"rule": "max_years", "n": end.max_years})
    return out


def score_lines(game: games.Game, gm: GameMap, result: GameResult | None) -> list[dict[str, Any]]:
    """The scoring table's points for each player of a finished game (empty for a game
    the master terminated, or one that ended before results were recorded):
    [{player, outcome: won|draw|lost, draw_size, points}] (templates/words.txt `outcome`)."""
    if result is None or result.how == "terminated":
        return []
    winners = set(result.winners)
    groups = groups_of(game, gm, None)
    winning = [g for g in groups if winners & set(g)]
    points = scores([str(g) for g in winning], [str(g) for g in groups], ALEXANDER_TABLE)
    out = []
    for group in groups:
        if group in winning:
            outcome = "won" if len(winning) == 1 else "draw"
        else:
            outcome = "lost"
        name = "/".join(gm.powers[p].name for p in group)
        out.append(
            {
                "player": name,
                "outcome": outcome,
                "draw_size": len(winning),
                "points": points[str(group)],
            }
        )
    return out
