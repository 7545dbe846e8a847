"""Places in words, for messages: `STP/NC` -> `St Petersburg (north coast)`."""

from __future__ import annotations

from .geography import GameMap

_COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


def name(game_map: GameMap, location: str) -> str:
    """A province or coast as the map names it, e.g. `St Petersburg (north coast)`."""
    prov, _, coast = location.partition("/")
    full = game_map.provinces[prov].name
    return f"{full} ({_COAST_NAMES.get(coast, coast)})" if coast else full
