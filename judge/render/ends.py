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
ALONG = 10.0  # how far apart the supports of one move meet its line


@dataclass(frozen=True)
class Line:
    """An order's line: the points it runs through, the last one the place it ends at;
    `target` names that place (lines of one target are spread together); `radius`: how
    far before the last point the line ends when the place is not crowded."""

    points: tuple[Point, ...]
    target: str
    radius: float
    on: tuple[Point, Point] | None = None  # a support of a move: the segment it meets


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
        segment = members[0][1].on
        if segment is not None:  # supports of one move: apart along its line
            for (i, _), at in zip(members, _along_segment(members, segment), strict=True):
                tips[i] = at
            continue
        angles = []
        for _, line in members:
            (ax, ay), (bx, by) = line.points[-2], line.points[-1]
            angles.append(math.atan2(ay - by, ax - bx))  # towards where the line comes from
        for (i, line), angle in zip(members, spread(angles), strict=True):
            (cx, cy), r = line.points[-1], max(line.radius, CROWDED_RADIUS)
            tips[i] = (cx + r * math.cos(angle), cy + r * math.sin(angle))
    return tips


def _along_segment(
    members: Sequence[tuple[int, Line]], segment: tuple[Point, Point]
) -> list[Point]:
    """Where lines meeting one segment at its middle meet it instead: ALONG apart
    (closer on a short segment), in the order of where they come from along it."""
    (ax, ay), (bx, by) = segment
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    mx, my = (ax + bx) / 2, (ay + by) / 2
    step = min(ALONG, length * 0.6 / len(members))
    rank = sorted(
        range(len(members)),
        key=lambda k: (
            (members[k][1].points[0][0] - mx) * ux + (members[k][1].points[0][1] - my) * uy,
            k,
        ),
    )
    out: list[Point] = [(mx, my)] * len(members)
    for place, k in enumerate(rank):
        t = (place - (len(members) - 1) / 2) * step
        out[k] = (mx + ux * t, my + uy * t)
    return out


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
    moved = _apart(run, gap)
    out = [0.0] * n
    for m in range(n):
        out[order[(start + m) % n]] = moved[m]
    return out


def _apart(run: Sequence[float], gap: float) -> list[float]:
    """Increasing angles moved at least `gap` apart: those too close join one cluster,
    whose members stand `gap` apart centred on the mean of their own angles (clusters
    merged until none overlaps the next); a lone angle stays where it is."""
    clusters = [[m] for m in range(len(run))]

    def placed(c: list[int]) -> list[float]:
        centre = sum(run[m] for m in c) / len(c)
        return [centre + (k - (len(c) - 1) / 2) * gap for k in range(len(c))]

    merged = True
    while merged:
        merged = False
        for j in range(len(clusters) - 1):
            if placed(clusters[j + 1])[0] - placed(clusters[j])[-1] < gap - 1e-9:
                clusters[j : j + 2] = [clusters[j] + clusters[j + 1]]
                merged = True
                break
    return [a for c in clusters for a in placed(c)]
