"""Convoy routes: chains of fleets at sea from an army's province to its destination."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .geography import GameMap


def convoy_route_exists(
    game_map: GameMap,
    origin: str,
    dest: str,
    seas: Iterable[str],
    usable: Callable[[str], bool] | None = None,
) -> bool:
    """Whether a chain of the sea provinces `seas` (each passing `usable`, asked lazily)
    links province `origin` to province `dest`."""
    seas = set(seas)
    bordering = game_map.sea_adjacent  # sea_neighbours, without a call per sea
    frontier = [s for s in seas if origin in bordering[s]]
    seen: set[str] = set()
    while frontier:
        sea = frontier.pop()
        if sea in seen:
            continue
        seen.add(sea)
        if usable is not None and not usable(sea):
            continue
        neighbours = bordering[sea]
        if dest in neighbours:
            return True
        frontier.extend([s for s in neighbours if s in seas and s not in seen])
    return False


def seas_on_routes(game_map: GameMap, origin: str, dest: str, seas: Iterable[str]) -> set[str]:
    """The seas among `seas` that lie in a chain touching both `origin` and `dest`."""
    seas = set(seas)
    out: set[str] = set()
    unvisited = set(seas)
    while unvisited:
        start = unvisited.pop()
        component = {start}
        frontier = [start]
        while frontier:
            sea = frontier.pop()
            for s in game_map.sea_neighbours(sea):
                if s in unvisited:
                    unvisited.discard(s)
                    component.add(s)
                    frontier.append(s)
        touches = set().union(*(game_map.sea_neighbours(s) for s in component))
        if origin in touches and dest in touches:
            out |= component
    return out


def sea_on_route(game_map: GameMap, sea: str, origin: str, dest: str, seas: Iterable[str]) -> bool:
    """Whether `sea` is among seas_on_routes(game_map, origin, dest, seas): its own chain
    of the seas `seas` touches both `origin` and `dest`. Walks that one chain only (a
    convoy order's legality asks it for each convoying fleet)."""
    seas = set(seas)
    if sea not in seas:
        return False
    component = {sea}
    frontier = [sea]
    touches_origin = touches_dest = False
    while frontier:
        neighbours = game_map.sea_neighbours(frontier.pop())
        touches_origin = touches_origin or origin in neighbours
        touches_dest = touches_dest or dest in neighbours
        for s in neighbours:
            if s in seas and s not in component:
                component.add(s)
                frontier.append(s)
    return touches_origin and touches_dest


def seas_on_simple_routes(
    game_map: GameMap, origin: str, dest: str, seas: Iterable[str]
) -> set[str]:
    """The seas among `seas` that lie on some route: a chain of distinct seas, each
    bordering the next, from one bordering `origin` to one bordering `dest`. A sea that
    only hangs off a route (DATC 6.F.12's Irish Sea) is on none. Used where every route
    counts (DATC 4.A.1 a); the chains are few, so they are simply walked."""
    seas = set(seas)
    on_route: set[str] = set()
    chain: list[str] = []

    def walk(sea: str) -> None:
        chain.append(sea)
        neighbours = game_map.sea_neighbours(sea)
        if dest in neighbours:
            on_route.update(chain)
        for nxt in neighbours:
            if nxt in seas and nxt not in chain:
                walk(nxt)
        chain.pop()

    for sea in seas:
        if origin in game_map.sea_neighbours(sea):
            walk(sea)
    return on_route


def necessary_seas(game_map: GameMap, origin: str, dest: str, seas: Iterable[str]) -> set[str]:
    """The seas among `seas` without which no route is left (DATC 4.A.2 c's "fleets
    necessary for the army to convoy")."""
    seas = set(seas)
    return {s for s in seas if not convoy_route_exists(game_map, origin, dest, seas - {s})}
