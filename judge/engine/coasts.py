"""Coasts a player left out or got wrong, settled by the game's rules (DATC 4.B).

Only a fleet going to a province with two coasts needs one. What happens when the coast
is missing or cannot be reached is a rule option: the DATC's preferences (the move fails
when both coasts are possible, 4.B.1 a; the only possible coast is taken, 4.B.2 a; an
impossible coast fails, 4.B.3 b; a coast in a support may be left out but must match
when written, 4.B.4 d; a fleet build needs its coast, 4.B.7 a) or the choices some
judges made, several of them using the map's default coast of each two-coast province
(`default_coast` in the map file). A coast that cannot be settled raises CoastError,
its reason a Problem.
"""

from __future__ import annotations

from collections.abc import Sequence

from .geography import GameMap, Province
from .place_names import name
from .problems import Problem, ProblemError
from .rules import Rules


class CoastError(ProblemError):
    """A coast the rules cannot settle; `problem` says why."""


def move_coast(
    gm: GameMap, source: str, province: str, coast: str, reach: Sequence[str], rules: Rules
) -> str:
    """The location a fleet at `source` ordered to `province` goes to. `coast`: the
    coast written ("" when none, or when the one written is not a coast of the province,
    4.B.6 b); `reach`: the locations of the two-coast `province` the fleet can reach (not
    empty)."""
    if coast:
        location = f"{province}/{coast}"
        if location in reach:
            return location
        if rules.impossible_coast == "possible_coast" and len(reach) == 1:
            return reach[0]  # 4.B.3 a: the coast is ignored, the possible one taken
        where = {"origin": name(gm, source), "place": name(gm, location)}
        raise CoastError(Problem("fleet_unreachable", where))
    if len(reach) == 1:
        choice = rules.missing_coast_when_one_possible
        if choice == "only_possible_coast":  # 4.B.2 a
            return reach[0]
        if choice == "default_coast":  # 4.B.2 b: the default, even where it is out of reach
            return _default_within(gm, province, reach, "4.B.2 b")
        raise CoastError(Problem("coast_needed_one_possible", {"place": name(gm, province)}))
    if rules.missing_coast_when_two_possible == "default_coast":  # 4.B.1 b
        return _default_within(gm, province, reach, "4.B.1 b")
    places = tuple(name(gm, r) for r in reach)  # 4.B.1 a
    raise CoastError(Problem("coast_needed", {"place": name(gm, province), "places": places}))


def support_coast(
    gm: GameMap,
    province: str,
    coast: str,
    reach: Sequence[str],
    rules: Rules,
    own_fleet: bool,
) -> str:
    """What a support of a fleet's move into the two-coast `province` names: a location
    (the supported move must go to that coast to match) or the province (any coast).
    `coast` as for move_coast; `reach`: where the supported fleet can go in the province
    (not empty); `own_fleet`: the fleet is of the supporter's power."""
    choice = rules.coast_in_support
    if choice == "ignored":  # 4.B.4 e: coasts in supports mean nothing
        return province
    if coast:  # written, it must be reachable (checked by the caller) and match
        return f"{province}/{coast}"
    if choice == "optional_must_match":  # 4.B.4 d: no coast: support to either coast
        return province
    if choice == "mandatory_default":  # 4.B.4 b
        return _default_within(gm, province, reach, "4.B.4 b")
    if choice == "poorly_written" and (own_fleet or len(reach) == 1):
        return province  # 4.B.4 c: only one meaning, so the poorly written order stands
    # 4.B.4 a, or c for another power's fleet with two coasts to go to
    letter = "a" if choice == "mandatory" else "c"
    values = {"place": name(gm, province), "letter": letter}
    raise CoastError(Problem("support_coast_needed", values))


def build_coast(gm: GameMap, province: Province, coast: str, rules: Rules) -> str:
    """The coast a fleet built in the two-coast `province` stands on (4.B.7)."""
    if coast in province.coasts:
        return coast
    if rules.missing_coast_in_build == "default_coast" and province.default_coast:
        return province.default_coast  # 4.B.7 b
    coasts = tuple(name(gm, f"{province.key}/{c}") for c in province.coasts)
    raise CoastError(Problem("build_coast_needed", {"places": coasts}))


def _default_within(gm: GameMap, province: str, reach: Sequence[str], issue: str) -> str:
    """The map's default coast of `province`, which must be in `reach`."""
    default = gm.provinces[province].default_coast
    if not default:
        raise CoastError(Problem("no_default_coast", {"place": name(gm, province)}))
    location = f"{province}/{default}"
    if location not in reach:
        values = {"place": name(gm, location), "issue": issue}
        raise CoastError(Problem("default_coast_unreachable", values))
    return location
