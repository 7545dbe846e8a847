"""Hand-overs that are a game's state, not its settings: the games table's `proxies` and
`joined` columns (JSON, NULL while there are none), as typed read-only values.

- proxies: SET PROXY hand-overs (DATC 4.E.5 a), phase -> {province: the power that
  orders its unit}, as the record `Proxies`;
- joined: the World War I coin, neutral power -> the player's power it joined.

Schema version 12 moved both out of the settings JSON, where older judges kept them
(judge/store/schema.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def _read_only(powers: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(powers))


def _no_phases() -> Mapping[str, Mapping[str, str]]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Proxies:
    """SET PROXY hand-overs per phase: phase -> {province: the power that orders its unit}.
    Read-only: a change is a new record (`with_phase`)."""

    phases: Mapping[str, Mapping[str, str]] = field(default_factory=_no_phases)

    def __post_init__(self) -> None:
        # Built from dicts by callers and by from_json: kept read-only, as Game is frozen.
        frozen = {phase: _read_only(handed) for phase, handed in self.phases.items()}
        object.__setattr__(self, "phases", MappingProxyType(frozen))

    def __bool__(self) -> bool:
        return bool(self.phases)

    def handed(self, phase: str) -> dict[str, str]:
        """Province of a unit handed over in `phase` -> the power that orders it."""
        return dict(self.phases.get(phase, {}))

    def with_phase(self, phase: str, handed: Mapping[str, str]) -> Proxies:
        """These hand-overs with `phase`'s replaced by `handed`."""
        return Proxies({**self.phases, phase: handed})

    def to_json(self) -> dict[str, dict[str, str]]:
        """The stored JSON object: {phase: {province: power}}."""
        return {phase: dict(handed) for phase, handed in self.phases.items()}

    @classmethod
    def from_json(cls, data: Any) -> Proxies:
        """Hand-overs from their stored JSON object; ValueError when it is not one."""
        if not _is_object(data) or not all(_is_powers(v) for v in data.values()):
            raise ValueError(f"proxies should be {{phase: {{province: power}}}}, not {data!r}")
        return cls(data)


def load_proxies(text: str | None) -> Proxies:
    """The proxies column's value (NULL while nothing was handed over) as a record."""
    return Proxies() if text is None else Proxies.from_json(json.loads(text))


def dump_proxies(proxies: Proxies) -> str | None:
    """The proxies column's value for a record: NULL when nothing was ever handed over."""
    return json.dumps(proxies.to_json()) if proxies else None


def load_joined(text: str | None) -> Mapping[str, str]:
    """The joined column's value (NULL until the coin is flipped) as a read-only mapping;
    ValueError when it is not {neutral power: power}."""
    if text is None:
        return _read_only({})
    data = json.loads(text)
    if not _is_powers(data):
        raise ValueError(f"joined should be {{neutral power: power}}, not {text!r}")
    return _read_only(data)


def dump_joined(joined: Mapping[str, str]) -> str | None:
    """The joined column's value: NULL when no neutral power has joined anyone."""
    return json.dumps(dict(joined)) if joined else None


def _is_object(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def _is_powers(value: Any) -> bool:
    return _is_object(value) and all(isinstance(v, str) for v in value.values())
