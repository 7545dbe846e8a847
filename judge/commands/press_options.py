"""njudge's press settings by keyword: SET WHITE/GREY, SET GREY/WHITE, SET [NO] PARTIAL,
SET NO FAKE / PARTIAL MAY BE FAKED / PARTIAL FAKES BROADCAST, SET OBSERVER ANY|WHITE|
NONE, SET [NO] MINOR|LATE|POSTAL PRESS, SET ALL PRESS / NORMAL PRESS. The language reads
them as SET PRESS RULE (the rule, its value); SET WHITE, GREY and NONE stay SET PRESS."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from judge.commands.language import Command
from judge.commands.run import Run, need_master, refuse
from judge.store import games
from judge.store.settings import GameSettings

_ON = {"ON": True, "OFF": False}
# The rule -> the settings with its value, and how the reply says the new value.
_RULES: dict[str, Callable[[GameSettings, str], GameSettings]] = {
    "MODE": lambda s, v: replace(s, press=v),
    "PARTIAL": lambda s, v: replace(s, partial=_ON[v]),
    "FAKE": lambda s, v: replace(s, fake=v),
    "OBSERVER": lambda s, v: replace(s, observer_press=v != "none", observer_white=v == "white"),
    "MINOR": lambda s, v: replace(s, minor_press=_ON[v]),
    "LATE": lambda s, v: replace(s, late_press=_ON[v]),
    "POSTAL": lambda s, v: replace(s, postal_press=_ON[v]),
    "ALL": lambda s, v: replace(s, all_press=_ON[v]),
}
_SHOWN = {
    "MODE": "press",
    "PARTIAL": "partial press",
    "FAKE": "fake press",
    "OBSERVER": "observers' press",
    "MINOR": "press in retreat and build phases",
    "LATE": "press from late players",
    "POSTAL": "postal press",
    "ALL": "the master's copy of all partial press",
}
_WORDS = {
    "no": "not allowed",
    "may": "allowed (partial press may be faked)",
    "broadcast": "partial press shown as a broadcast by default",
    "any": "as the players'",
    "white": "white only",
    "none": "not allowed",
}


def press_rule(run: Run, cmd: Command) -> None:
    """SET PRESS RULE rule value: one of njudge's press settings; NJUDGE words for the ones
    this judge has not (GRACE, MUST ORDER, TOUCH, BLANK, WATCH ALL PRESS), refused."""
    block = need_master(run, cmd)
    if not block:
        return
    rule, value = cmd.args
    if rule == "NJUDGE":
        refuse(run, cmd, "njudge_only", words=value)
        return
    settings = _RULES[rule](block.game.settings, value)
    block.game = games.update_game(run.ctx.db, block.game, run.ctx.now, settings=settings)
    shown: dict[str, object]
    if value in _ON:
        shown = {"said": "allowed", "on": _ON[value]}
    else:
        shown = {"said": "word", "word": _WORDS.get(value, value)}
    run.event("press_setting", cmd, game=block.game.name, setting=_SHOWN[rule], **shown)
