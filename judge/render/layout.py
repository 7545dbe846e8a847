"""Where the provinces of a map with no drawing go: a stress layout of its adjacency graph.

Pure and deterministic (no randomness, no clock): the same graph and the same footprints
give the same points, float for float. Three steps:

1. graph distances (breadth-first, every edge one step);
2. a start by classical multidimensional scaling (the two leading eigenvectors of the
   double-centred squared distances, by power iteration from a fixed vector), refined
   by stress majorization (SMACOF with weights 1/d^2, the Kamada-Kawai energy);
3. scaled so an edge is about `spacing` long, then the nodes' footprints (each node's
   box with its label) pushed apart until no two overlap, and the whole moved to the
   margin.

The work of step 2 is bounded by `PAIR_BUDGET`: a map of 1,000 provinces (the importer's
limit) gets fewer refining rounds, not a picture that takes minutes.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

Point = tuple[float, float]
# A footprint: (left, top, right, bottom) from the node's point (left and top negative).
Box = tuple[float, float, float, float]

PAIR_BUDGET = 400_000  # node pairs visited by the refining rounds, all rounds together
MAX_ROUNDS = 60  # refining rounds for a small map
MIN_ROUNDS = 2
POWER_ROUNDS = 60  # power-iteration rounds per eigenvector
CLEAR_PASSES = 8  # passes moving nodes off the edges that do not join them
CLEAR_ROUNDS = 6  # rounds of moving nodes off edges and boxes apart again
SEPARATE_PASSES = 40  # overlap-removal passes before the layout is spread a little wider


@dataclass(frozen=True)
class Layout:
    """The nodes' points (in the order given) and the size of the picture they fill."""

    points: tuple[Point, ...]
    width: float
    height: float


def distances(n: int, edges: Sequence[tuple[int, int]]) -> tuple[list[list[float]], list[int]]:
    """Graph distances between all nodes, and the part of the graph each node is in
    (numbered from 0). Nodes of different parts are given one step more than the
    farthest connected pair: for the start only, the parts are then laid out apart."""
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        if a != b:
            adjacent[a].append(b)
            adjacent[b].append(a)
    rows, part = [], [-1] * n
    for source in range(n):
        row = [-1.0] * n
        row[source] = 0.0
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in adjacent[here]:
                if row[there] < 0:
                    row[there] = row[here] + 1
                    queue.append(there)
        rows.append(row)
        if part[source] < 0:
            label = max(part) + 1
            part = [label if d >= 0 else p for d, p in zip(row, part, strict=True)]
    far = max((d for row in rows for d in row), default=0.0) + 1
    return [[d if d >= 0 else far for d in row] for row in rows], part


def _leading(matrix: list[list[float]], against: list[float] | None) -> tuple[list[float], float]:
    """The leading unit eigenvector of a symmetric matrix (orthogonal to `against`) and
    its eigenvalue, by power iteration from a fixed start."""
    n = len(matrix)
    v = [math.sin(1.0 + 1.7 * i + (0.9 if against else 0.0)) for i in range(n)]
    value = 0.0
    for _ in range(POWER_ROUNDS):
        if against is not None:
            dot = sum(map(mul, v, against))
            v = [x - dot * a for x, a in zip(v, against, strict=True)]
        w = [sum(map(mul, row, v)) for row in matrix]
        norm = math.sqrt(sum(map(mul, w, w)))
        if norm == 0:
            return v, 0.0
        value = sum(map(mul, w, v)) / (sum(map(mul, v, v)) or 1.0)
        v = [x / norm for x in w]
    return v, value


def classical_mds(dist: list[list[float]]) -> list[Point]:
    """Points whose distances approximate `dist` (classical scaling); the wider spread
    along x. A graph that is a path gets a small fixed wave, so the next step can bend it."""
    n = len(dist)
    sq = [[d * d for d in row] for row in dist]
    row_mean = [sum(row) / n for row in sq]
    grand = sum(row_mean) / n
    b = [
        [-0.5 * (sq[i][j] - row_mean[i] - row_mean[j] + grand) for j in range(n)] for i in range(n)
    ]
    v1, l1 = _leading(b, None)
    v2, l2 = _leading(b, v1)
    s1, s2 = math.sqrt(max(l1, 0.0)), math.sqrt(max(l2, 0.0))
    return [
        (v1[i] * s1 + 0.05 * math.cos(2.3 * i), v2[i] * s2 + 0.05 * math.sin(2.3 * i))
        for i in range(n)
    ]


def refine(dist: list[list[float]], part: list[int], points: list[Point]) -> list[Point]:
    """Stress majorization: each node moved to where its distances to all others best
    match the graph's, node after node, for as many rounds as the budget allows."""
    n = len(points)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, PAIR_BUDGET // max(1, n * n)))
    # Nodes of different parts do not pull on each other: their distance is made up.
    weights = [
        [1.0 / (d * d) if d > 0 and part[i] == part[j] else 0.0 for j, d in enumerate(row)]
        for i, row in enumerate(dist)
    ]
    for _ in range(rounds):
        for i in range(n):
            xi, yi, di, wi = xs[i], ys[i], dist[i], weights[i]
            sx = sy = sw = 0.0
            for j in range(n):
                w = wi[j]
                if w == 0.0:
                    continue
                dx, dy = xi - xs[j], yi - ys[j]
                length = math.hypot(dx, dy) or 1e-9
                reach = di[j] / length
                sx += w * (xs[j] + reach * dx)
                sy += w * (ys[j] + reach * dy)
                sw += w
            if sw:
                xs[i], ys[i] = sx / sw, sy / sw
    return list(zip(xs, ys, strict=True))


def parts(part: list[int]) -> list[list[int]]:
    """The nodes of each part of the graph, largest part first (then in node order)."""
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(part):
        groups.setdefault(label, []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def arrange_parts(points: list[Point], groups: list[list[int]], spacing: float) -> list[Point]:
    """The first (largest) part where it is; each other part moved under it, side by
    side from its left, `spacing` apart."""
    points = list(points)
    if len(groups) < 2:
        return points
    main = groups[0]
    x = min(points[i][0] for i in main)
    y = max(points[i][1] for i in main) + spacing
    for part in groups[1:]:
        left = min(points[i][0] for i in part)
        top = min(points[i][1] for i in part)
        for i in part:
            points[i] = (points[i][0] - left + x, points[i][1] - top + y)
        x += max(points[i][0] for i in part) - min(points[i][0] for i in part) + spacing
    return points


def _overlap(a: Box, b: Box, gap: float) -> tuple[float, float]:
    """How far boxes a and b (absolute) overlap along x and along y, `gap` included."""
    return min(a[2], b[2]) - max(a[0], b[0]) + gap, min(a[3], b[3]) - max(a[1], b[1]) + gap


def _separate_pass(points: list[Point], boxes: Sequence[Box], gap: float) -> bool:
    """One pass pushing apart every overlapping pair along its lesser overlap; whether
    anything moved. Pairs are found by sweeping the boxes in order of their left edge."""
    n = len(points)
    moved = False
    order = sorted(range(n), key=lambda k: (points[k][0] + boxes[k][0], k))
    for pos, i in enumerate(order):
        for j in order[pos + 1 :]:
            (xi, yi), (xj, yj) = points[i], points[j]
            a = (xi + boxes[i][0], yi + boxes[i][1], xi + boxes[i][2], yi + boxes[i][3])
            b = (xj + boxes[j][0], yj + boxes[j][1], xj + boxes[j][2], yj + boxes[j][3])
            if b[0] >= a[2] + gap:
                break  # sorted by left edge: no later box overlaps (exact when none moved)
            ox, oy = _overlap(a, b, gap)
            if ox <= 0 or oy <= 0:
                continue
            moved = True
            if ox <= oy:
                sign = 1.0 if (xj, j) >= (xi, i) else -1.0
                push = ox / 2 + 0.01
                points[i], points[j] = (xi - sign * push, yi), (xj + sign * push, yj)
            else:
                sign = 1.0 if (yj, j) >= (yi, i) else -1.0
                push = oy / 2 + 0.01
                points[i], points[j] = (xi, yi - sign * push), (xj, yj + sign * push)
    return moved


def separate(points: list[Point], boxes: Sequence[Box], gap: float) -> list[Point]:
    """The points moved until no two footprints (plus `gap`) overlap: passes of pushing
    apart, and where they do not settle, the whole spread 10% wider and pushed again."""
    points = list(points)
    while True:
        for _ in range(SEPARATE_PASSES):
            if not _separate_pass(points, boxes, gap):
                return points
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        points = [(cx + (x - cx) * 1.1, cy + (y - cy) * 1.1) for x, y in points]


def _off_segment(p: Point, a: Point, b: Point) -> tuple[float, float, float]:
    """How far `p` is from the segment a-b, and the unit vector from the segment's
    nearest point to `p` (a fixed sideways one when `p` lies on it); inf past its ends."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.inf, 0.0, 0.0
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    if not 0.1 < t < 0.9:
        return math.inf, 0.0, 0.0
    ox, oy = p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)
    d = math.hypot(ox, oy)
    if d == 0:
        n = math.sqrt(length2)
        return 0.0, -dy / n, dx / n
    return d, ox / d, oy / d


def clear_edges(
    points: list[Point], edges: Sequence[tuple[int, int]], clearance: float
) -> list[Point]:
    """The points moved so that no edge passes within `clearance` of a node it does not
    join (an order's arrow along that edge would cross the node), a few passes at most."""
    points = list(points)
    for _ in range(CLEAR_PASSES):
        moved = False
        for a, b in edges:
            (ax, ay), (bx, by) = points[a], points[b]
            left, right = min(ax, bx) - clearance, max(ax, bx) + clearance
            top, bottom = min(ay, by) - clearance, max(ay, by) + clearance
            for c, (cx, cy) in enumerate(points):
                if not (left < cx < right and top < cy < bottom) or c in (a, b):
                    continue  # far from the edge's box: cheaper to skip than to measure
                d, ux, uy = _off_segment(points[c], points[a], points[b])
                if d < clearance:
                    push = clearance - d + 0.5
                    points[c] = (points[c][0] + ux * push, points[c][1] + uy * push)
                    moved = True
        if not moved:
            break
    return points


def lay_out(
    n: int,
    edges: Sequence[tuple[int, int]],
    boxes: Sequence[Box],
    spacing: float,
    margin: float,
) -> Layout:
    """The points of `n` nodes joined by `edges`, each with its footprint `boxes[i]`: an
    edge about `spacing` long, no footprints overlapping, all within `margin` of the
    picture's edge (see the module's docstring)."""
    if n == 0:
        return Layout((), 2 * margin, 2 * margin)
    dist, part = distances(n, edges)
    points = refine(dist, part, classical_mds(dist)) if n > 1 else [(0.0, 0.0)]
    lengths = [math.dist(points[a], points[b]) for a, b in edges if a != b]
    mean = sum(lengths) / len(lengths) if lengths else 1.0
    scale = spacing / (mean or 1.0)
    points = arrange_parts([(x * scale, y * scale) for x, y in points], parts(part), spacing)
    points = separate(points, boxes, 6.0)
    if n * len(edges) <= PAIR_BUDGET:  # not worth minutes on the largest maps
        for _ in range(CLEAR_ROUNDS):  # moving a node off an edge may bring boxes together again
            points = separate(clear_edges(points, edges, spacing * 0.3), boxes, 6.0)
    left = min(p[0] + b[0] for p, b in zip(points, boxes, strict=True))
    top = min(p[1] + b[1] for p, b in zip(points, boxes, strict=True))
    right = max(p[0] + b[2] for p, b in zip(points, boxes, strict=True))
    bottom = max(p[1] + b[3] for p, b in zip(points, boxes, strict=True))
    dx, dy = margin - left, margin - top
    moved = tuple((round(x + dx, 2), round(y + dy, 2)) for x, y in points)
    return Layout(moved, math.ceil(right - left + 2 * margin), math.ceil(bottom - top + 2 * margin))
