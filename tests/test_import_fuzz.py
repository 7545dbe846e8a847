"""The map importers on damaged files (issue 19, part 2): whatever the file holds, the
reader returns a map the engine builds or refuses with MapFileError; never another
exception, never a map that would fail to load."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.variants.import_dpjudge import read_dpjudge
from judge.variants.import_njudge import STANDARD_POWERS, read_njudge
from judge.variants.map_import import MapFileError, checked_toml

SOURCES = Path(__file__).parent / "maps_import"
DPJUDGE = (SOURCES / "dpjudge" / "tri.map").read_text().splitlines()
NJUDGE = (SOURCES / "njudge" / "map.tri").read_text().splitlines()
SEED = (SOURCES / "njudge" / "seed.tri").read_text()
NAMES = STANDARD_POWERS | {"R": ("Red", "Reddish"), "G": ("Green", "Greenish"), "U": ("Blue", "B")}
# Words a damaged line may hold: the format's keywords and abbreviations, and oddities.
WORDS = st.sampled_from(
    ["ABUTS", "COAST", "WATER", "LAND", "SHUT", "UNOWNED", "OWNS", "HOME", "UNITS", "A", "F",
     "VICTORY", "BEGIN", "SPRING", "RULE", "BUILD_ANY", "=", "(", ")", ":", "-1", "-mv:",
     "cap/nc", "CAP/SC", "cap", "Bay", "bay", "dun", "NOS", "RED", "_+x", "0", "99999", "/",
     "../", "é", "-xc:", ",", "x", "l", "w", "R", "nos-xc:", "cap-nc:", "S2001M", "R:"]
)  # fmt: skip
LINES = st.lists(WORDS, max_size=8).map(" ".join)


def _damaged(lines: list[str]) -> st.SearchStrategy[str]:
    """`lines` with some lines dropped, repeated or replaced by lines of WORDS."""
    edits = st.lists(
        st.tuples(st.integers(0, len(lines) - 1), st.sampled_from(["drop", "twice", "new"]), LINES),
        max_size=6,
    )

    def apply(changes: list[tuple[int, str, str]]) -> str:
        out = list(lines)
        for where, how, line in changes:
            where = min(where, len(out) - 1)
            if how == "drop" and len(out) > 1:
                del out[where]
            elif how == "twice":
                out.insert(where, out[where])
            else:
                out[where] = line
        return "\n".join(out) + "\n"

    return edits.map(apply)


def _survives(read, text: str) -> None:
    try:
        data = read(text)
        checked_toml(data, "fuzz")
    except MapFileError:
        pass


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(_damaged(DPJUDGE))
def test_a_damaged_dpjudge_file_is_read_or_refused(text: str) -> None:
    _survives(lambda t: read_dpjudge(t, "fuzz"), text)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(_damaged(NJUDGE), _damaged(SEED.splitlines()))
def test_a_damaged_njudge_file_is_read_or_refused(text: str, seed: str) -> None:
    _survives(lambda t: read_njudge(t, "fuzz", seed, NAMES), text)
