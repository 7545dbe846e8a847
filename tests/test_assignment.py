"""Tests of the power assignment by preference lists (DPTG chapter I)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from error_words import words as error_words
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.game.assignment import (
    RANDOM,
    assign_powers,
    award,
    decode_preference,
    parse_preference,
)
from judge.game.errors import CommandError
from judge.variants.maps import load_map

GM = load_map("standard")
POWERS = list(GM.powers)  # map order
INITIALS = {key: p.initial for key, p in GM.powers.items()}
NAMES = GM.power_names
SEEDS = range(400)

PROFILE = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}


def assign(lists: list[str], seed: int) -> dict[int, str]:
    """Players 1..7 in sign-on order with the given stored lists."""
    prefs = list(enumerate(lists, start=1))
    return assign_powers(prefs, POWERS, INITIALS, random.Random(seed))


def is_bijection(result: dict[int, str], players: list[int]) -> bool:
    return sorted(result) == sorted(players) and sorted(result.values()) == sorted(POWERS)


# -- DPTG chapter I, its worked example --------------------------------------------------


def test_dptg_example_list_is_stored_with_its_groups() -> None:
    text = "France; [Germany, Italy or Austria]; [England or Russia]; Turkey"
    assert parse_preference(text, INITIALS) == "F[AGI][ER]T"
    assert decode_preference("F[AGI][ER]T", INITIALS) == (
        ("FRANCE",),
        ("AUSTRIA", "GERMANY", "ITALY"),
        ("ENGLAND", "RUSSIA"),
        ("TURKEY",),
    )


def test_dptg_example_france_italy_russia_taken_gives_austria_or_germany() -> None:
    # "had France, Italy and Russia already been taken, the GM would award either Austria
    # or Germany" -- at random between the two.
    groups = decode_preference("F[AGI][ER]T", INITIALS)
    assert groups is not None
    available = [p for p in POWERS if p not in {"FRANCE", "ITALY", "RUSSIA"}]
    got = Counter(award(groups, available, random.Random(seed)) for seed in SEEDS)
    assert set(got) == {"AUSTRIA", "GERMANY"}
    assert min(got.values()) > 150


def test_dptg_example_inside_a_whole_assignment() -> None:
    # Players 2-4 want only France, Italy, Russia; player 1 has the example list. Player 1
    # gets France if his list is read before player 2's; otherwise one of Austria, Germany,
    # Italy at random, and only Austria or Germany once Italy is gone too (the example).
    lists = ["F[AGI][ER]T", "F", "I", "R", "E", "T", ""]
    outcomes = Counter()
    example = Counter()
    for seed in SEEDS:
        result = assign(lists, seed)
        assert is_bijection(result, list(range(1, 8)))
        assert result[4] == "RUSSIA"
        outcomes[result[1]] += 1
        if result[1] != "FRANCE":
            assert result[2] == "FRANCE"
            assert result[1] in {"AUSTRIA", "GERMANY", "ITALY"}
            if result[3] == "ITALY":
                example[result[1]] += 1
    assert set(outcomes) == {"FRANCE", "AUSTRIA", "GERMANY", "ITALY"}
    assert set(example) == {"AUSTRIA", "GERMANY"}


def test_short_list_all_taken_gets_a_leftover_not_a_turn() -> None:
    # "Where the list lists fewer than seven Powers, and all the Powers listed have already
    # been taken, the GM awards nothing" -- the player gets a leftover at the end.
    lists = ["A", "A", "E", "F", "G", "I", "R"]
    for seed in SEEDS:
        result = assign(lists, seed)
        assert {result[1], result[2]} == {"AUSTRIA", "TURKEY"}
        assert [result[p] for p in range(3, 8)] == [
            "ENGLAND",
            "FRANCE",
            "GERMANY",
            "ITALY",
            "RUSSIA",
        ]


def test_empty_list_waits_for_the_leftovers() -> None:
    # An empty list never takes a Power someone else listed.
    lists = ["", "A", "E", "F", "G", "I", "R"]
    for seed in SEEDS:
        assert assign(lists, seed) == dict(zip(range(1, 8), ["TURKEY", *POWERS[:6]], strict=True))


def test_random_power_request_is_served_first() -> None:
    # "To write nothing ... is not the same as specifically to request a Random Power":
    # the Random request takes any Power at once, even one on somebody's list.
    lists = [RANDOM, "A", "E", "F", "G", "I", "R"]
    got = Counter()
    for seed in SEEDS:
        result = assign(lists, seed)
        assert is_bijection(result, list(range(1, 8)))
        got[result[1]] += 1
        for player, power in zip(range(2, 8), POWERS[:6], strict=True):
            if result[1] != power:
                assert result[player] == power
    assert set(got) == set(POWERS)


# -- first choices -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_distinct_first_choices_all_granted(seed: int) -> None:
    lists = ["TRA", "R", "IGF", "G", "F", "E", "AT"]
    expected = ["TURKEY", "RUSSIA", "ITALY", "GERMANY", "FRANCE", "ENGLAND", "AUSTRIA"]
    assert assign(lists, seed) == dict(zip(range(1, 8), expected, strict=True))


def test_contested_first_choice_goes_to_a_random_one_of_the_two() -> None:
    # Players 1 and 2 both want France first. Whoever is read first gets it; the other
    # gets his second choice, which is still free.
    lists = ["FG", "FI", "A", "E", "R", "T", ""]
    got = Counter()
    for seed in SEEDS:
        result = assign(lists, seed)
        got[(result[1], result[2])] += 1
        assert result[7] == ({"GERMANY", "ITALY"} - {result[1], result[2]}).pop()
    assert set(got) == {("FRANCE", "ITALY"), ("GERMANY", "FRANCE")}
    assert min(got.values()) > 150


def test_contested_choice_with_loser_second_choice_also_contested() -> None:
    # 1: F then G; 2: F only; 3: G. If 1 is read after 2, G may already be gone too.
    lists = ["FG", "F", "G", "A", "E", "I", "R"]
    for seed in SEEDS:
        result = assign(lists, seed)
        assert result[3] == "GERMANY" or result[1] == "GERMANY"
        assert "FRANCE" in (result[1], result[2])
        assert sorted(result.values()) == sorted(POWERS)


# -- no preferences at all ---------------------------------------------------------------


def test_all_empty_is_random_complete_and_seeded() -> None:
    lists = [""] * 7
    results = [assign(lists, seed) for seed in range(50)]
    for seed, result in zip(range(50), results, strict=True):
        assert is_bijection(result, list(range(1, 8)))
        assert assign(lists, seed) == result
    assert len({tuple(r.values()) for r in results}) > 40
    assert Counter(r[1] for r in results).keys() == set(POWERS)


# -- property tests ----------------------------------------------------------------------


@st.composite
def stored_list(draw: st.DrawFn) -> str:
    if draw(st.booleans()) and draw(st.booleans()):
        return draw(st.sampled_from(["", RANDOM]))
    chosen = draw(st.permutations(POWERS))[: draw(st.integers(0, 7))]
    out, i = [], 0
    while i < len(chosen):
        size = draw(st.integers(1, len(chosen) - i))
        group = sorted(chosen[i : i + size], key=POWERS.index)  # stored in map order
        letters = "".join(INITIALS[p] for p in group)
        out.append(letters if size == 1 else f"[{letters}]")
        i += size
    return "".join(out)


@settings(max_examples=300, **PROFILE)
@given(
    lists=st.lists(stored_list(), min_size=7, max_size=7),
    ids=st.lists(st.integers(1, 10**6), min_size=7, max_size=7, unique=True),
    seed=st.integers(0, 2**32),
)
def test_always_a_bijection_and_deterministic(lists: list[str], ids: list[int], seed: int) -> None:
    prefs = list(zip(ids, lists, strict=True))
    result = assign_powers(prefs, POWERS, INITIALS, random.Random(seed))
    assert sorted(result) == sorted(ids)
    assert sorted(result.values()) == sorted(POWERS)
    assert assign_powers(prefs, POWERS, INITIALS, random.Random(seed)) == result
    # A player with a list gets a Power he did not list only when all he listed went to
    # others.
    for player, stored in prefs:
        groups = decode_preference(stored, INITIALS)
        if groups is None:
            continue
        listed = {p for g in groups for p in g}
        if result[player] not in listed:
            assert all(p in result.values() for p in listed)


@settings(max_examples=200, **PROFILE)
@given(lists=st.lists(stored_list(), min_size=7, max_size=7))
def test_stored_lists_round_trip_through_parse(lists: list[str]) -> None:
    for stored in lists:
        assert parse_preference(stored, INITIALS) == stored


# -- argument checks -----------------------------------------------------------------------


def test_rejects_wrong_player_count_and_duplicate_players() -> None:
    with pytest.raises(ValueError):
        assign_powers([(1, "")] * 2, POWERS, INITIALS, random.Random(0))
    with pytest.raises(ValueError):
        assign_powers([(i, "") for i in range(6)], POWERS, INITIALS, random.Random(0))
    with pytest.raises(ValueError):
        assign_powers(
            [(1, "X")] + [(i, "") for i in range(2, 8)], POWERS, INITIALS, random.Random(0)
        )


# -- parse_preference --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "FGR",
        "fgr",
        "F G R",
        "F,G,R",
        "f, g, r",
        "F-G-R",
        "F - G - R",
        "F;G;R",
        "France, Germany, Russia",
        "FRANCE GERMANY RUSSIA",
        "france-germany-russia",
        "French, German, Russian",
        "Fra Ger Rus",
        "France G R",
        "  FG  r ",
    ],
)
def test_parse_spellings(text: str) -> None:
    assert parse_preference(text, INITIALS, names=NAMES) == "FGR"


def test_parse_without_names_knows_initials_and_power_keys() -> None:
    assert parse_preference("France, Germany, Russia", INITIALS) == "FGR"
    assert parse_preference("f g r", INITIALS) == "FGR"
    assert parse_preference("GER", INITIALS) == "GER"  # letters, as no alias is known
    assert parse_preference("GER", INITIALS, names=NAMES) == "G"  # the alias wins


@pytest.mark.parametrize("text", ["*", "", "   ", " * ", "none", "No preference"])
def test_parse_no_preference(text: str) -> None:
    assert parse_preference(text, INITIALS) == ""


@pytest.mark.parametrize("text", ["?", "random", "Random Power", " RANDOM "])
def test_parse_random_request(text: str) -> None:
    assert parse_preference(text, INITIALS) == RANDOM


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("F [G I A] [E R] T", "F[AGI][ER]T"),
        ("F(GIA)(ER)T", "F[AGI][ER]T"),
        ("[Turkey]", "T"),
        ("Great Britain, Austria-Hungary", "EA"),
        ("AEFGIRT", "AEFGIRT"),
        ("[aefgirt]", "[AEFGIRT]"),
    ],
)
def test_parse_groups_and_aliases(text: str, stored: str) -> None:
    assert parse_preference(text, INITIALS, names=NAMES) == stored


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("FGX", "not a power"),
        ("X", "No power has the initial 'X'"),
        ("Prussia", "'Prussia' is not a power"),
        ("F G F", "France is in your list twice"),
        ("France, French", "France is in your list twice"),
        ("FGRf", "France is in your list twice"),
        ("F [G I", "never closed"),
        ("F G]", "without a matching"),
        ("F [G [I]]", "inside brackets"),
        ("F []", "empty pair of brackets"),
        ("F *", "must stand alone"),
        ("F ? G", "must stand alone"),
        ("F random", "'random' is not a power"),
    ],
)
def test_parse_rejects_with_clear_message(text: str, words: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_preference(text, INITIALS, names=NAMES)
    message = error_words(info.value)
    assert words in message
    assert message.endswith(".") and message.count(". ") == 0 and "\n" not in message


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        (
            "FGX",
            "preference_not_a_power",
            "'FGX' is not a power; write power names or their initials (A, E, F, G, I, R, T).",
        ),
        (
            "X",
            "preference_no_initial",
            "No power has the initial 'X'; the initials are A, E, F, G, I, R, T.",
        ),
        ("F G F", "preference_twice", "France is in your list twice; list each power only once."),
        (
            "F [G I",
            "preference_unclosed",
            "A bracket is opened but never closed; add the closing bracket.",
        ),
        ("F G)", "preference_unopened", "There is a ')' without a matching opening bracket."),
        (
            "F [G [I]]",
            "preference_nested",
            "Brackets inside brackets are not allowed; use one level only.",
        ),
        (
            "F []",
            "preference_empty_brackets",
            "There is an empty pair of brackets; put powers inside them.",
        ),
        ("F *", "preference_alone", "'*' must stand alone: write only '*' for no preference."),
        ("F ? G", "preference_alone", "'?' must stand alone: write only '?' for a random power."),
    ],
)
def test_each_refusal_is_a_code_worded_by_its_template(text: str, code: str, words: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_preference(text, INITIALS, names=NAMES)
    assert info.value.code == code
    assert error_words(info.value) == words
