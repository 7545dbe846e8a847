"""How a finished game ended: the games table's `result` column (JSON), as a typed record.

It is the game's state, not a setting: schema version 11 moved it out of the settings
JSON, where older judges kept it (judge/store/schema.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameResult:
    """How the game ended and the powers that won (or drew)."""

    # by the rules: victory, end_year, most_centres, stale, max_years (judge/game/end.py);
    # by the players or master: draw, conceded, terminated (judge/commands/admin.py)
    how: str
    winners: tuple[str, ...]  # power keys; none when terminated

    def to_json(self) -> dict[str, Any]:
        """The stored JSON object: {"how": ..., "winners": [power keys]}."""
        return {"how": self.how, "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """A result from its stored JSON object; ValueError when it is not one."""
        how, winners = data.get("how"), data.get("winners", [])
        if not isinstance(how, str) or not isinstance(winners, list):
            raise ValueError(f"a game result should be {{how, winners}}, not {data!r}")
        if not all(isinstance(w, str) for w in winners):
            raise ValueError(f"a game result's winners should be power keys, not {winners!r}")
        return cls(how, tuple(winners))


def load_result(text: str | None) -> GameResult | None:
    """The result column's value (NULL while the game is not finished) as a record."""
    if text is None:
        return None
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"a game result should be a JSON object, not {text!r}")
    return GameResult.from_json(data)


def dump_result(result: GameResult | None) -> str | None:
    """The result column's value for a record (NULL for none)."""
    return None if result is None else json.dumps(result.to_json())
