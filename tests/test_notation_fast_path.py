"""The parser's fast path must read exactly as the general reader does."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.engine.notation import _fast, _grammar, _scan, _spaced, _tables
from judge.variants.maps import load_map

GM = load_map("standard")
T = _tables(GM)
WORDS = sorted(GM.names)[:: max(1, len(GM.names) // 60)] + ["stp", "spa", "bul", "lon", "nth"]
COASTS = ["", "(nc)", "/sc", " (ec)", "/ nc", "(xc)", "/NC", "/xc"]
SHAPES = [
    "{u} {a}{c}",
    "{u} {a}{c}-{b}{d}",
    "{u} {a}{c} - {b}{d}",
    "{u} {a}{c} -> {b}{d}",
    "{u} {a}{c} to {b}{d}",
    "{u} {a}{c} H",
    "{u} {a}{c} holds",
    "{u} {a}{c} S {u} {b}{d}",
    "{u} {a}{c} S {u} {b} - {a}{d}",
    "{u} {a}{c} supports {b}-{a}",
    "{u} {a}{c} C {u} {b}-{a}{d}",
    "{u} {a}{c} convoys {u} {b} - {a}",
    "{a} - {b}",
    "{u} {a}{c} - {b}{d} VIA",
    "{u} {a}{c} R {b}{d}",
    "{u} {a}{c} B",
    "{u} {a}{c} D",
    "{u} {a}{c} R {b}{d} VIA",
]


def _general(text: str):
    return _grammar(_scan(text, T, []), text, T)


def test_fast_path_agrees_on_every_common_shape() -> None:
    checked = 0
    for shape, (a, b), c, d, u in itertools.product(
        SHAPES, itertools.permutations(WORDS[:14], 2), COASTS[:3], COASTS[:2], ["A", "F", ""]
    ):
        text = shape.format(a=a, b=b, c=c, d=d, u=u).strip()
        fast = _fast(text, T)
        if fast is not None:
            assert fast == _general(text), text
            checked += 1
    assert checked > 3_000  # the fast path really is the common path


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(
    st.lists(
        st.sampled_from(WORDS + ["a", "f", "s", "c", "h", "-", "->", "to", "(nc)", "/sc", "holds"]),
        min_size=1,
        max_size=7,
    )
)
def test_fast_path_agrees_on_random_word_salad(words: list[str]) -> None:
    text = " ".join(words)
    fast = _fast(text, T)
    if fast is not None:
        assert fast == _general(text)


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [w.upper() for w in WORDS]
            + ["A", "F", "S", "C", "H", "-", "VIA", "R", "B", "D", "STP/NC", "SPA/SC", "BUL/XC"]
        ),
        min_size=2,
        max_size=7,
    )
)
def test_the_spaced_shapes_read_as_the_general_reader_reads_them(words: list[str]) -> None:
    """Upper-case words one space apart, as Contract 1's tools write orders: the shapes
    read word by word before the regular expression (notation._spaced)."""
    text = " ".join(words)
    fast = _fast(text, T)
    if fast is not None:
        assert fast == _general(text), text


def test_the_spaced_shapes_are_read_word_by_word() -> None:
    shapes = ("A PAR - BUR", "A PAR H", "A PAR", "F NTH S A LON - BEL", "A MUN S A BER")
    more = ("A PAR - BUR VIA", "F STP/SC - BOT", "A PAR R BUR", "F STP/NC B", "A PAR D", "WAIVE")
    for text in (*shapes, "F NTH C A LON - BEL", *more, "F BUL/EC S F BLA - CON"):
        assert _spaced(text.split(), T.plain_places) == _general(text), text
    assert type(_spaced(["A", "PAR", "R", "BUR"], T.plain_places)).__name__ == "Retreat"
    assert type(_spaced(["F", "STP/NC", "B"], T.plain_places)).__name__ == "Build"
    for text in (
        "A PAR-BUR",
        "F NTH C A LON",
        "A XYZ H",
        "A PAR - BUR via",
        "A PAR R BUR VIA",
        "F STP/XC - BOT",
        "F STP/ - BOT",
        "A PAR X",
        "WAIVE A PAR",
        "Waive",
    ):
        assert _spaced(text.split(), T.plain_places) is None, text
