"""Phases: `S1901M` (Spring 1901 movement), `F1901R` (Fall retreats), `W1901A` (adjustments)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
        m = _PHASE.fullmatch(text.strip().upper())
        if not m:
            raise ValueError(f"not a phase: {text!r} (expected e.g. S1901M, F1901R, W1901A)")
        season, year, kind = m.group(1), int(m.group(2)), m.group(3)
        if (season == "W") != (kind == ADJUSTMENTS):
            raise ValueError(f"not a phase: {text!r} (adjustments happen in Winter only)")
        return Phase(year, season, kind)

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
        i = _SEQUENCE.index((self.season, self.kind)) + 1
        if i == len(_SEQUENCE):
            return Phase(self.year + 1, *_SEQUENCE[0])
        return Phase(self.year, *_SEQUENCE[i])


_SEQUENCE = [
    ("S", MOVEMENT),
    ("S", RETREATS),
    ("F", MOVEMENT),
    ("F", RETREATS),
    ("W", ADJUSTMENTS),
]
