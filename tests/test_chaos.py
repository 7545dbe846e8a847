"""The Chaos variant (maps/chaos.toml): 34 powers, one home centre each, builds in any
owned centre; and the power initials it needs, one letter or digit each
(maps/README.md, "Power initials")."""

from __future__ import annotations

import re
import tomllib

import pytest

from judge.commands.powers import power_key, powers_named
from judge.engine.geography import MapError, build_map, is_initial
from judge.game.assignment import decode_preference, parse_preference
from judge.game.errors import CommandError
from judge.variants import maps
from judge.variants.maps import load_map


def _standard_with(initials: dict[str, str]) -> dict:
    with (maps.MAPS_DIR / "standard.toml").open("rb") as f:
        data = tomllib.load(f)
    for key, initial in initials.items():
        data["powers"][key]["initial"] = initial
    return data


# -- initials: one letter or digit ---------------------------------------------------------


def test_an_initial_is_one_ascii_letter_or_digit() -> None:
    assert [is_initial(t) for t in ("A", "z", "0", "9")] == [True] * 4
    assert [is_initial(t) for t in ("", "AB", "Ank", "-", "?", "É", "٣", " ")] == [False] * 8


@pytest.mark.parametrize("bad", ["EN", "", "É", "?", "1a"])
def test_a_map_with_an_initial_of_other_than_one_letter_or_digit_is_refused(bad: str) -> None:
    message = f"ENGLAND: initial {bad!r} is not one letter or digit"
    with pytest.raises(MapError, match=re.escape(message)):
        build_map(_standard_with({"ENGLAND": bad}))


def test_a_digit_initial_is_a_power_for_signon_press_and_preferences() -> None:
    gm = build_map(_standard_with({"ENGLAND": "1", "FRANCE": "2"}))
    assert power_key(gm, "1") == "ENGLAND" and power_key(gm, "2") == "FRANCE"
    assert powers_named(gm, "12G, russia") == ["ENGLAND", "FRANCE", "GERMANY", "RUSSIA"]
    with pytest.raises(CommandError):
        powers_named(gm, "13")
    initials = {key: p.initial for key, p in gm.powers.items()}
    stored = parse_preference("2 [1 G] Russia", initials, names=gm.power_names)
    assert stored == "2[1G]R"
    assert decode_preference(stored, initials) == (
        ("FRANCE",),
        ("ENGLAND", "GERMANY"),
        ("RUSSIA",),
    )


def test_every_bundled_map_keeps_its_letters() -> None:
    letters = {
        name: "".join(p.initial for p in load_map(name).powers.values())
        for name in ("standard", "duel", "decapolis", "archipelago")
    }
    assert letters == {
        "standard": "AEFGIRT",
        "duel": "OV",
        "decapolis": "ABCDEFGHIJ",
        "archipelago": "HBL",
    }
