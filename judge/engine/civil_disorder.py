"""Removals the player did not order: the DPTG rule (chapter XIII; DATC 4.D.8 choice d).

The unit farthest from home goes first. An army's distance is the fewest moves to one
of its power's home centres as if it could also cross water (not Switzerland); a
fleet's is the fewest ordinary fleet moves. Owning the home centre does not matter. On
equal distance fleets go before armies, then by the DPTG's alphabetical list of spaces.

A game may measure distance otherwise (DATC 4.D.8, `civil_disorder_removal_distance`):
an army's convoy over any chain of seas counts one move (a), or only over seas holding
fleets of its own power (b) or of any power (c), all distances taken before any unit is
removed; or armies and fleets both move as either, coasts aside (e).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable
from functools import cache, lru_cache

from .board import ARMY, FLEET, Unit
from .geography import COAST, IMPASSABLE, GameMap

_FAR = 10_000  # a fleet that cannot reach any home centre at all: farthest


def removal_order(
    game_map: GameMap,
    power: str,
    units: list[Unit],
    owned: Collection[str] = (),
    distance: str = "dptg",
    board: Iterable[Unit] = (),
) -> list[Unit]:
    """`units` in the order the civil-disorder rule removes them; `owned`: the power's
    centres, its homes for this rule on a build-anywhere map (DATC 11.A); `distance`:
    the game's 4.D.8 choice; `board`: every unit on the board (its fleets may convoy)."""
    homes = game_map.civil_disorder_homes(power, owned)
    measure = _measure(game_map, homes, power, distance, board)

    def key(u: Unit) -> tuple[int, int, str]:
        d = measure(u)
        sort_name = game_map.provinces[u.province].sort_name
        alpha = "".join(ch for ch in sort_name.lower() if ch.isalnum())
        return (-d, 0 if u.kind == FLEET else 1, alpha)

    return sorted(units, key=key)


def _measure(
    game_map: GameMap, homes: frozenset[str], power: str, rule: str, board: Iterable[Unit]
) -> Callable[[Unit], int]:
    """A unit's distance from home under the 4.D.8 choice `rule`."""
    if rule == "both_abilities":  # e: every unit moves as an army or a fleet would
        either = _distances(game_map, homes, ARMY)
        return lambda u: either.get(u.province, _FAR)
    fleets = _distances(game_map, homes, FLEET)
    if rule == "dptg":
        armies = _distances(game_map, homes, ARMY)
    else:
        armies = _convoy_distances(game_map, homes, _convoy_seas(game_map, power, rule, board))
    return lambda u: (fleets if u.kind == FLEET else armies).get(u.location, _FAR)


def _convoy_seas(game_map: GameMap, power: str, rule: str, board: Iterable[Unit]) -> frozenset[str]:
    """The seas an army may be convoyed through: any (a), or those holding a fleet of
    its own power (b) or of any power (c)."""
    if rule == "convoy_one_move":
        return frozenset(game_map.sea_adjacent)
    return frozenset(
        u.province
        for u in board
        if u.kind == FLEET
        and game_map.convoys_at(u.province)
        and (rule == "convoy_any_fleets" or u.power == power)
    )


@lru_cache(maxsize=256)
def _convoy_distances(
    game_map: GameMap, homes: frozenset[str], seas: frozenset[str]
) -> dict[str, int]:
    """Army distances by land moves, and convoys through `seas` counted one move each."""
    graph = {p: set(game_map.army_moves[p]) for p in game_map.army_moves}
    unvisited = set(seas)
    while unvisited:  # each chain of seas joins every coast it touches in one move
        chain, frontier = set(), [unvisited.pop()]
        while frontier:
            sea = frontier.pop()
            chain.add(sea)
            near = game_map.sea_neighbours(sea) & unvisited
            unvisited -= near
            frontier.extend(near)
        shore = {
            p
            for sea in chain
            for p in game_map.sea_neighbours(sea)
            if game_map.provinces[p].kind == COAST
        }
        for p in shore:
            graph[p] |= shore - {p}
    return _breadth_first(graph, [p for p in graph if p in homes])


@cache
def _distances(game_map: GameMap, homes: frozenset[str], kind: str) -> dict[str, int]:
    """Breadth-first distances from every location to the nearest home centre."""
    graph: dict[str, set[str]] = {}
    if kind == FLEET:
        for loc, dests in game_map.fleet_moves.items():
            graph[loc] = set(dests)
        starts = [loc for loc in graph if game_map.province_of(loc) in homes]
    else:
        for prov, p in game_map.provinces.items():
            if p.kind == IMPASSABLE:
                continue
            near = set(game_map.army_moves.get(prov, ()))
            for loc in game_map.fleet_locations(prov):
                near |= {game_map.province_of(x) for x in game_map.fleet_moves[loc]}
            graph[prov] = near
        starts = [p for p in graph if p in homes]
    return _breadth_first(graph, starts)


def _breadth_first(graph: dict[str, set[str]], starts: list[str]) -> dict[str, int]:
    """Fewest steps in `graph` from any of `starts` to every place."""
    dist = {s: 0 for s in starts}
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist
