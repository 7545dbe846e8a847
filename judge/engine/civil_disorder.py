"""Removals the player did not order: the DPTG rule (chapter XIII; DATC 4.D.8 choice d).

The unit farthest from home goes first. An army's distance is the fewest moves to one
of its power's home centres as if it could also cross water (not Switzerland); a
fleet's is the fewest ordinary fleet moves. Owning the home centre does not matter. On
equal distance fleets go before armies, then by the DPTG's alphabetical list of spaces.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from .board import FLEET, Unit
from .geography import IMPASSABLE, GameMap

_FAR = 10_000  # a fleet that cannot reach any home centre at all: farthest


def removal_order(game_map: GameMap, power: str, units: list[Unit]) -> list[Unit]:
    """`units` in the order the civil-disorder rule removes them."""
    homes = game_map.powers[power].home_centers

    def key(u: Unit) -> tuple:
        d = _distance(game_map, homes, u.kind, u.location)
        sort_name = game_map.provinces[u.province].sort_name
        alpha = "".join(ch for ch in sort_name.lower() if ch.isalnum())
        return (-d, 0 if u.kind == FLEET else 1, alpha)

    return sorted(units, key=key)


def _distance(game_map: GameMap, homes: frozenset[str], kind: str, location: str) -> int:
    return _distances(game_map, homes, kind).get(location, _FAR)


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
    dist = {s: 0 for s in starts}
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist
