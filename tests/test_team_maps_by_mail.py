"""The team's maps (tests/test_team_maps.py) played by mail: a game on the two-power duel
map to its victory at the map's own count (5 of 9 centres), and a ten-power game on
decapolis seated and started, each power signing on by its own initial."""

from __future__ import annotations

from pathlib import Path

from judge_harness import Judge

# The duel map has no drawing file: its mails carry its schematic board (issue 19 item 5,
# judge/render/schematic.py), named in the text as the standard board's pictures are.
DUEL_START = """Game duel1 (Duel: two powers) has started.

You are Orange. Sign on with: SIGNON Oduel1 your-password

The opening position:
Orange: Fleet Orhaven, Army Orport, Army Oridge.
Violet: Fleet Viohaven, Army Vioridge, Army Eastfold.

The board is in the attached picture board-S1901M.png.

The first phase is Movement for Spring of 1901.
The deadline for orders is Monday 23 November 2026 12:03 UTC.
"""

DUEL_SPRING = """Game: duel1   Variant: Duel: two powers
Rules: the DATC's preferred choices (DATC 2.4).
Movement results for Spring of 1901. (duel1.001)

Orange: Army Orport -> Westfold.
Orange: Fleet Orhaven -> North Bay.
Orange: Army Oridge -> Eastfold.  (*bounce*)

Violet: Army Eastfold HOLD.
Violet: Fleet Viohaven -> South Bay.
Violet: Army Vioridge SUPPORT Army Eastfold.

The board after Movement for Spring of 1901, with its orders drawn, is in
the attached picture board-S1901M.png.
Key: arrow move (dashed: convoyed), dashes support, dots convoy, ring hold,
red X failed, red ring dislodged, struck ring removed, dashed ring built.

The next phase of 'duel1' will be Movement for Fall of 1901.
The deadline for orders will be Mon Nov 23 2026 12:05:00 +0000.
"""

DUEL_FALL = """Game: duel1   Variant: Duel: two powers
Rules: the DATC's preferred choices (DATC 2.4).
Movement results for Fall of 1901. (duel1.002)

Orange: Army Westfold -> Vioport.
Orange: Fleet North Bay -> West Sea.
Orange: Army Oridge -> Eastfold.

Violet: Army Eastfold -> Midmarch.
Violet: Fleet South Bay SUPPORT Army Westfold -> Vioport.
Violet: Army Vioridge HOLD.

Ownership of supply centres:
Orange:  Eastfold, Orhaven, Oridge, Orport and Vioport.
Violet:  Midmarch, Viohaven and Vioridge.

Orange:   5 supply centres,  3 units: builds 2 units.
Violet:   3 supply centres,  3 units: no change.

The game is over: Orange has won.

The board after Movement for Fall of 1901, with its orders drawn, is in
the attached picture board-F1901M.png.
Key: arrow move (dashed: convoyed), dashes support, dots convoy, ring hold,
red X failed, red ring dislodged, struck ring removed, dashed ring built.
"""


def _results(mails: list, picture: str) -> str:
    [results, *others] = [m for m in mails if m.subject.endswith(" Results")]
    assert [m.to for m in [results, *others]] == [  # one mail each
        ["gm@example.org"],
        ["p0@example.org"],
        ["p1@example.org"],
    ]
    assert results.picture == picture
    return str(results.body)


def test_a_duel_is_won_with_the_maps_own_victory_count(tmp_path: Path) -> None:
    """Spring: Orange walks into Westfold, bounces in Eastfold. Fall: Orange takes
    Vioport (its fleet in South Bay is Violet's, supporting, which a power may do) and
    Eastfold, left by Violet for Midmarch: 5 centres of 9, the duel's victory count."""
    judge = Judge(tmp_path)
    judge.send("gm@example.org", "CREATE ?duel1 masterpw duel")
    judge.send("p0@example.org", "SIGNON ?duel1 pw0\nSET PREFERENCE O")
    mails = judge.send("p1@example.org", "SIGNON ?duel1 pw1\nSET PREFERENCE V")
    [start] = [m for m in mails if m.to == ["p0@example.org"] and "Starting" in m.subject]
    assert start.subject == "TEST:duel1 - S1901M Game Starting"
    assert start.body == DUEL_START and start.picture == "board-S1901M.png"
    judge.send(
        "p0@example.org",
        "SIGNON Oduel1 pw0\nA Orport - Westfold\nF Orhaven - North Bay\nA Oridge - Eastfold",
    )
    mails = judge.send(
        "p1@example.org",
        "SIGNON Vduel1 pw1\nA Eastfold H\nF Viohaven - South Bay\nA Vioridge S A Eastfold",
    )
    assert _results(mails, "board-S1901M.png") == DUEL_SPRING
    judge.send(
        "p0@example.org",
        "SIGNON Oduel1 pw0\nA Westfold - Vioport\nF North Bay - West Sea\nA Oridge - Eastfold",
    )
    mails = judge.send(
        "p1@example.org",
        "SIGNON Vduel1 pw1\nA Eastfold - Midmarch\nF South Bay S A Westfold - Vioport\n"
        "A Vioridge H",
    )
    assert _results(mails, "board-F1901M.png") == DUEL_FALL


def test_ten_players_sign_on_by_their_initials(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    [ack] = judge.send("gm@example.org", "CREATE ?deca masterpw decapolis")
    assert "Players join with: SIGNON ?deca password   (10 are needed)" in ack.body
    names = ["Astra", "Bryn", "Caldor", "Dunmore", "Eldria"]
    names += ["Farrow", "Garn", "Hollis", "Iskar", "Jorvik"]
    for i, initial in enumerate("ABCDEFGHIJ"):
        mails = judge.send(f"p{i}@example.org", f"SIGNON ?deca pw{i}\nSET PREFERENCE {initial}")
    starts = {
        m.to[0]: m.body.split("\n")[2]
        for m in mails
        if m.subject.endswith(" Game Starting") and m.to != ["gm@example.org"]
    }
    assert starts == {
        f"p{i}@example.org": f"You are {names[i]}. Sign on with: SIGNON {initial}deca your-password"
        for i, initial in enumerate("ABCDEFGHIJ")
    }
    [ack] = judge.send(
        "p9@example.org",
        "SIGNON Jdeca pw9\nA Juniper Fell - Jadewater\nF Jotunby - Jorvish Firth\nLIST deca",
    )
    assert ack.body.startswith("Line 1: SIGNON Jdeca ****\n  Signed on to deca as Jorvik.\n")
    assert (  # LIST's full report (issue 17)
        "  Ends:      a power (or player) with 21 supply centres wins; a draw after 7\n"
        "             years with no supply centre changing hands; a draw after 35\n"
        "             game years.\n"
    ) in ack.body
    assert (
        "Jorvik in deca, Movement for Spring of 1901:\n"
        "  A JOI - NJT\n"
        "  F JOA - JSE\n"
        "  Orders on file now:\n"
        "    Army Juniper Fell -> Jadewater\n"
        "    Fleet Jotunby -> Jorvish Firth\n"
        "  Still without orders: Army Jollimere.\n"
    ) in ack.body
