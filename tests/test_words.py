"""templates/words.txt: the words the mails use for phases and for the plain values of
judge/game/report.py, end.py and rules.py, exactly as players read them (the mail
snapshots show only some of them: every phase kind, order form, tag, adjustment and
ending is here)."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest

from judge.engine.phase import Phase
from judge.game import report, rules
from judge.game.end import Ending
from judge.paths import data_dir
from judge.variants.maps import load_map

GM = load_map("standard")


def words() -> Any:
    """The macros, as the mail templates import them."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(data_dir("templates")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template("words.txt").module


@pytest.mark.parametrize(
    ("code", "title", "kind", "full", "long"),
    [
        (
            "S1901M",
            "Spring of 1901",
            "Movement",
            "Movement, Spring of 1901",
            "Spring 1901 Movement",
        ),
        ("S1901R", "Spring of 1901", "Retreat", "Retreat, Spring of 1901", "Spring 1901 Retreats"),
        ("F1905M", "Fall of 1905", "Movement", "Movement, Fall of 1905", "Fall 1905 Movement"),
        ("F1905R", "Fall of 1905", "Retreat", "Retreat, Fall of 1905", "Fall 1905 Retreats"),
        (
            "W1910A",
            "Winter of 1910",
            "Adjustment",
            "Adjustment, Winter of 1910",
            "Winter 1910 Adjustments",
        ),
    ],
)
def test_a_phase(code: str, title: str, kind: str, full: str, long: str) -> None:
    w = words()
    for phase in (code, Phase.parse(code)):  # its code, or the Phase itself
        assert w.phase_title(phase) == title
        assert w.phase_kind(phase) == kind
        assert w.phase_full(phase) == full
        assert w.phase_long(phase) == long
        assert w.phase_named(phase) == f"{long} ({code})"


def test_no_phase_is_said_as_nothing() -> None:
    w = words()
    said = [w.phase_title(""), w.phase_kind(""), w.phase_full(None), w.phase_named("")]
    assert said == ["", "", "", ""]


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("A PAR H", "M", "Army Paris HOLD"),
        ("A PAR - BUR", "M", "Army Paris -> Burgundy"),
        ("A LON - BEL VIA", "M", "Army London -> Belgium via convoy"),
        ("F ENG S A PAR", "M", "Fleet English Channel SUPPORT Army Paris"),
        ("A MUN S A PAR - BUR", "M", "Army Munich SUPPORT Army Paris -> Burgundy"),
        ("F NTH C A LON - NWY", "M", "Fleet North Sea CONVOY Army London -> Norway"),
        ("F STP/SC - BOT", "M", "Fleet St Petersburg (south coast) -> Gulf of Bothnia"),
        ("A BUR R PAR", "R", "Army Burgundy -> Paris"),
        ("A BUR D", "R", "Army Burgundy DISBAND"),
        ("A BUR D", "A", "Remove Army Burgundy"),
        ("F STP/NC B", "A", "Build Fleet St Petersburg (north coast)"),
        ("WAIVE", "A", "Waive a build"),
        ("what the judge could not read", "M", "what the judge could not read"),
    ],
)
def test_an_order_in_full(text: str, kind: str, said: str) -> None:
    assert words().order(report.describe_text(GM, text, kind)) == said


@pytest.mark.parametrize(
    ("result", "given", "phase", "tag"),
    [
        ("ok", True, "S1901M", ""),
        ("bounce", True, "S1901M", "(*bounce*)"),
        ("no convoy", True, "S1901M", "(*no convoy*)"),
        ("disband", True, "S1901R", "(*disband*)"),
        ("disband", False, "S1901R", "(*no retreat ordered*)"),
        ("disband", False, "W1901A", "(*civil disorder*)"),
    ],
)
def test_a_result_tag(result: str, given: bool, phase: str, tag: str) -> None:
    results = {"FRANCE": [{"order": "A PAR H", "given": given, "result": result}]}
    [france] = report.results_by_power(GM, results, Phase.parse(phase))
    assert words().tag(france["lines"][0]) == tag


@pytest.mark.parametrize(
    ("builds", "free", "said"),
    [
        (3, 0, "builds 0 of 3 (no home centre free)"),
        (3, 1, "builds 1 of 3 (1 home centre free)"),
        (3, 2, "builds 2 of 3 (2 home centres free)"),
        (1, 3, "builds 1 unit"),
        (2, 2, "builds 2 units"),
        (-1, 0, "removes 1 unit"),
        (-2, 0, "removes 2 units"),
        (0, 0, "no change"),
    ],
)
def test_an_adjustment(builds: int, free: int, said: str) -> None:
    assert words().adjustment({"builds": builds, "free": free}) == said


def test_places_units_and_lists() -> None:
    w = words()
    places = [report.place(GM, p) for p in ("STP/NC", "MOS", "WAR")]
    assert w.places(places, "or") == "St Petersburg (north coast), Moscow or Warsaw"
    assert w.places(places[:1], "or") == "St Petersburg (north coast)"
    assert w.place_list(places) == "St Petersburg (north coast), Moscow, Warsaw"
    assert w.listing(["England", "France", "Russia"]) == "England, France and Russia"
    assert w.listing([]) == ""
    units = [report.UnitWords("F", places[0]), report.UnitWords("A", places[1])]
    assert w.units(units) == "Fleet St Petersburg (north coast), Army Moscow"
    assert w.unit_in(units[1]) == "Army in Moscow"


def test_a_destroyed_unit() -> None:
    dislodged = [
        {"power": "AUSTRIA", "unit": "A BOH", "retreats": ()},
        {"power": "ITALY", "unit": "F NAP", "retreats": ("ROM",)},
        {"power": "FRANCE", "unit": "A PAR", "retreats": ("GAS",)},
    ]
    said = [
        words().destroyed(d) for d in report.destroyed_units(GM, dislodged, frozenset({"ITALY"}))
    ]
    assert said == [
        "The Austrian Army in Bohemia had nowhere to retreat and was destroyed.",
        "The Italian Fleet in Naples was disbanded: Italy is neutral.",
    ]


@pytest.mark.parametrize(
    ("ending", "said"),
    [
        (Ending("end_year", (), 1910), "the game ended after the Fall of 1910"),
        (
            Ending("end_year", (), 1910, tie=True),
            "the game ended after 1910 with a tie for the most centres",
        ),
        (Ending("max_years", (), 35), "thirty-five game years have been played"),
        (Ending("max_years", (), 120), "120 game years have been played"),
        (Ending("stale", (), 7), "no supply centre has changed hands for seven years"),
        (Ending("stale", (), 20), "no supply centre has changed hands for twenty years"),
    ],
)
def test_why_a_game_ended_in_a_draw(ending: Ending, said: str) -> None:
    assert words().end_reason(ending) == said


def test_the_end_rules_and_the_scores() -> None:
    end = rules.EndRules(18, 1910, "most", 7, 35)
    assert words().end_rules(rules.end_rules_text(end)) == (
        "a power (or player) with 18 supply centres wins; after the Fall of 1910 the most "
        "supply centres wins; a draw after 7 years with no supply centre changing hands; "
        "a draw after 35 game years"
    )
    assert words().end_rule({"rule": "end_year", "n": 1905, "mode": "draw"}) == (
        "after the Fall of 1905 the survivors draw"
    )
    outcomes = [{"outcome": "won"}, {"outcome": "draw", "draw_size": 3}, {"outcome": "lost"}]
    assert [words().outcome(o) for o in outcomes] == ["won", "3-way draw", "lost"]
