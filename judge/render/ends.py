"""Where the lines of a crowded province end: several arrows and support lines meeting in
one place (a bounce in the North Sea, a Balkan melee) would otherwise end on the same
point, their heads on top of each other. Their ends are spread around the place's point,
each near the side its line comes from, a minimum angle apart.

Pure geometry: no canvas, no map.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from judge.render.canvas import Point

GAP = math.radians(34)  # the least angle between two ends around one place
CROWDED_RADIUS = 17.0  # how far from the place's point a spread end stands (at least)


@dataclass(frozen=True)
class Line:
    """An order's line: the points it runs through, the last one the place it ends at;
    `target` names that place (lines of one target are spread together); `radius`: how
    far before the last point the line ends when the place is not crowded."""

    points: tuple[Point, ...]
    target: str
    radius: float


def spread_ends(lines: Sequence[Line | None]) -> list[Point | None]:
    """For each line, where it ends when its target is crowded (two lines or more end
    there); None where it ends as usual."""
    groups: dict[str, list[tuple[int, Line]]] = {}
    for i, line in enumerate(lines):
        if line is not None and len(line.points) >= 2:
            groups.setdefault(line.target, []).append((i, line))
    tips: list[Point | None] = [None] * len(lines)
    for members in groups.values():
        if len(members) < 2:
            continue
        angles = []
        for _, line in members:
            (ax, ay), (bx, by) = line.points[-2], line.points[-1]
            angles.append(math.atan2(ay - by, ax - bx))  # towards where the line comes from
        for (i, line), angle in zip(members, spread(angles), strict=True):
            (cx, cy), r = line.points[-1], max(line.radius, CROWDED_RADIUS)
            tips[i] = (cx + r * math.cos(angle), cy + r * math.sin(angle))
    return tips


def spread(angles: Sequence[float]) -> list[float]:
    """The angles (radians) moved apart to at least GAP (or an even share of the circle
    when there are too many for it), each as near its own as that allows, in their order
    around the circle; returned in the order given."""
    n = len(angles)
    if n < 2:
        return list(angles)
    gap = min(GAP, math.tau / n)
    order = sorted(range(n), key=lambda k: (angles[k] % math.tau, k))
    around = [angles[k] % math.tau for k in order]
    # Start after the widest empty arc, so that the run of angles does not wrap.
    widest = max(range(n), key=lambda j: ((around[(j + 1) % n] - around[j]) % math.tau, -j))
    start = (widest + 1) % n
    run = [around[(start + m) % n] for m in range(n)]
    for m in range(1, n):
        while run[m] < run[m - 1]:
            run[m] += math.tau
    moved = list(run)
    for m in range(1, n):
        moved[m] = max(moved[m], moved[m - 1] + gap)
    shift = (sum(run) - sum(moved)) / n  # keep the spread centred where the lines are
    out = [0.0] * n
    for m in range(n):
        out[order[(start + m) % n]] = moved[m] + shift
    return out
