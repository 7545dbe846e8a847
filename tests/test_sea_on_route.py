"""convoy.sea_on_route, a convoying fleet's legality test, agrees with seas_on_routes
(the seas lying in a chain touching both ends) on the standard map: every sea, every
pair of coastal provinces, fleets on random sets of seas (seeded)."""

from __future__ import annotations

import random

from judge.engine.convoy import sea_on_route, seas_on_routes
from judge.engine.geography import COAST, SEA
from judge.variants.maps import load_map

GM = load_map("standard")
SEAS = sorted(k for k, p in GM.provinces.items() if p.kind == SEA)
COASTAL = sorted(k for k, p in GM.provinces.items() if p.kind == COAST)


def test_each_sea_is_on_a_route_exactly_when_seas_on_routes_says_so() -> None:
    rng = random.Random(16)
    checked = on_route = 0
    for _ in range(200):
        fleets = frozenset(rng.sample(SEAS, rng.randint(0, len(SEAS))))
        origin, dest = rng.sample(COASTAL, 2)
        expected = seas_on_routes(GM, origin, dest, fleets)
        for sea in SEAS:
            assert sea_on_route(GM, sea, origin, dest, fleets) == (sea in expected)
            checked += 1
            on_route += sea in expected
    assert checked == 200 * len(SEAS) and on_route == 347  # both answers exercised


def test_a_sea_without_a_fleet_is_on_no_route() -> None:
    assert sea_on_route(GM, "NTH", "LON", "BEL", {"NTH"})
    assert not sea_on_route(GM, "NTH", "LON", "BEL", {"ENG"})
    assert not sea_on_route(GM, "NTH", "LON", "TUN", {"NTH"})
