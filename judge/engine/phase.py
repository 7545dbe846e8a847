"""Phases: `S1901M` (Spring 1901 movement), `F1901R` (Fall retreats), `W1901A` (adjustments)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MOVEMENT, RETREATS, ADJUSTMENTS = "M", "R", "A"
_SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KIND_NAMES = {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Adjustments"}
_PHASE = re.compile(r"([SFW])(\d{4})([MRA])")


@dataclass(frozen=True)
class Phase:
    year: int
    season: str  # "S", "F" or "W"
    kind: str  # MOVEMENT, RETREATS or ADJUSTMENTS

    @staticmethod
    def parse(text: str) -> Phase:
        """`S1901M` -> Phase; raises ValueError for anything else."""
        if len(text) <= _CACHED_TEXT:
            return _parse_cached(text)
        return _parse(text)

    def __str__(self) -> str:
        # four digits, as `parse` reads them: a map may begin before 1000 (DPjudge's
        # ancmed in year 1: S0001M, as the MILA package writes it too)
        return f"{self.season}{self.year:04d}{self.kind}"

    @property
    def long_name(self) -> str:
        """`Spring 1901 Movement`: the picture's caption (judge/render/legend.py) and the
        operator's console say it so; mails say a phase by templates/words.txt."""
        return f"{_SEASON_NAMES[self.season]} {self.year} {_KIND_NAMES[self.kind]}"

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.year, _SEQUENCE.index((self.season, self.kind)))

    def following(self) -> Phase:
        """The phase after this one in the full sequence (no phase skipped)."""
        return _following(self.year, self.season, self.kind)


# A Phase is frozen, so shared: `judge adjudicate` reads and steps thousands of phases
# of a few dozen years. Only short texts are kept (a phase is 6 characters, 7 with a
# fifth digit of year), so the cache stays small whatever is read.
_CACHED_TEXT = 16


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Phase:
    return _parse(text)


def _parse(text: str) -> Phase:
    m = _PHASE.fullmatch(text.strip().upper())
    if not m:
        raise ValueError(f"not a phase: {text!r} (expected e.g. S1901M, F1901R, W1901A)")
    season, year, kind = m.group(1), int(m.group(2)), m.group(3)
    if (season == "W") != (kind == ADJUSTMENTS):
        raise ValueError(f"not a phase: {text!r} (adjustments happen in Winter only)")
    return Phase(year, season, kind)


@lru_cache(maxsize=1024)
def _following(year: int, season: str, kind: str) -> Phase:
    i = _SEQUENCE.index((season, kind)) + 1
    if i == len(_SEQUENCE):
        return Phase(year + 1, *_SEQUENCE[0])
    return Phase(year, *_SEQUENCE[i])


_SEQUENCE = [
    ("S", MOVEMENT),
    ("S", RETREATS),
    ("F", MOVEMENT),
    ("F", RETREATS),
    ("W", ADJUSTMENTS),
]
