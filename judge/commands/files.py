"""VERSION and GET (njudge's `SEND [ME]` too): the judge's software and size, and the
help files of templates/files/, each mailed as a mail of its own (templates/file.txt).

A file's name is only ever looked up in a fixed set (FILES, and `info.<variant>` for the
variants there are), never used as a path; one mail gets at most FILES_PER_MAIL files.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from typing import Any

from judge.commands.language import Command
from judge.commands.run import Run, refuse
from judge.engine.geography import GameMap
from judge.mail.message import reply_address
from judge.replies import Reply
from judge.store import games
from judge.variants.maps import load_map, map_names

SOFTWARE = "judge"  # the package whose version VERSION names
# The files GET sends, each templates/files/<name>.txt; info.<variant> is generated.
FILES = (
    "info",
    "index",
    "guide",
    "syntax",
    "press",
    "deadlines",
    "history",
    "master",
    "rules",
    "map",
    "package",
)
FILES_PER_MAIL = 5  # a mail with 50 GET lines does not make 50 mails
_SHOWN = 40  # an unknown name is echoed cut to this many characters

# The index's list, from the command table: (who may use them, their syntaxes in full).
Index = Sequence[tuple[str, Sequence[str]]]


def version(run: Run, cmd: Command) -> None:
    """VERSION: our software's name and version, and how many users (distinct addresses
    with a seat in some game) and games the judge has."""
    db = run.ctx.db
    every_game = games.all_games(db)
    users = {seat.address.lower() for game in every_game for seat in games.seats(db, game)}
    run.event(
        "version",
        cmd,
        software=SOFTWARE,
        version=metadata.version(SOFTWARE),
        users=len(users),
        games=len(every_game),
    )


def get_file(run: Run, cmd: Command, index: Index) -> None:
    """GET name: the file mailed to the sender on its own and `File name sent.` in the
    answer; an unknown name, or one file too many for this mail, is refused. A file asked
    for twice in one mail is mailed once."""
    name = cmd.args[0]
    context = file_context(name, index)
    if context is None:
        shown = name if len(name) <= _SHOWN else name[: _SHOWN - 3] + "..."
        refuse(run, cmd, "no_file", name=shown)
        return
    reply = Reply((reply_address(run.sub),), "file", context, "reply")
    if reply not in run.mails:
        if sum(mail.template == "file" for mail in run.mails) >= FILES_PER_MAIL:
            refuse(run, cmd, "files_limit", limit=FILES_PER_MAIL)
            return
        run.mails.append(reply)
    run.event("file_sent", cmd, name=name)


def file_context(name: str, index: Index) -> dict[str, Any] | None:
    """What templates/file.txt needs to render the file `name`; None if there is none."""
    variants = map_names()
    common: dict[str, Any] = {"file": name, "files": FILES, "variants": variants}
    if name in FILES:
        extra = {"index": [(who, list(lines)) for who, lines in index]} if name == "index" else {}
        return {**common, "part": name, **extra}
    prefix, _, variant = name.partition(".")
    if prefix == "info" and variant in variants:
        return {**common, "part": "variant", "map": _map_facts(load_map(variant))}
    return None


def _map_facts(gm: GameMap) -> dict[str, Any]:
    """A map's facts for templates/files/variant.txt: its title, first year, powers with
    their home centres and units, supply centres and victory, groups and neutrals."""
    names = {key: p.name for key, p in gm.provinces.items()}
    powers = [
        {
            "name": power.name,
            "initial": power.initial,
            "homes": sorted(names[c] for c in power.home_centers),
            "units": [_unit(gm, unit) for unit in power.units],
            # Owned at the start where that is not the home centres (the 1898 start).
            "owned": sorted(names[c] for c in power.starting_centers)
            if power.starting_centers is not None and power.starting_centers != power.home_centers
            else [],
        }
        for power in gm.powers.values()
    ]
    return {
        "name": gm.name,
        "title": gm.title,
        "first_year": gm.first_year,
        "powers": powers,
        "centres": len(gm.supply_centers),
        "victory": gm.victory_centers,
        "by_player": gm.victory_by_player,
        # The powers each player plays, where some player plays more than one.
        "groups": [[gm.powers[k].name for k in group] for group in gm.player_groups]
        if any(len(group) > 1 for group in gm.player_groups)
        else [],
        "neutrals": sorted(gm.powers[k].name for k in gm.neutral_powers),
        "neutral_until": str(gm.neutral_until) if gm.neutral_until else "",
        "coin_flip": gm.neutral_joins == "coin_flip",
        "build_anywhere": gm.build_anywhere,
    }


def _unit(gm: GameMap, unit: str) -> dict[str, Any]:
    """A starting unit (`F STP/SC`) as words.txt's `unit` macro takes it."""
    kind, _, location = unit.partition(" ")
    province, _, coast = location.partition("/")
    return {"kind": kind, "place": {"name": gm.provinces[province].name, "coast": coast}}
