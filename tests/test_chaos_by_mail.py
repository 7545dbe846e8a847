"""A 34-power Chaos game by mail (maps/chaos.toml): 34 players join and are seated by
their preferences, each signs on by its letter or digit (SIGNON 3chaos1 is St
Petersburg), three never order and are in civil disorder, the first results mail names
all 34 powers, and a draw voted by all 34 ends the game."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from judge_harness import Judge

from judge.mail.compose import MAX_HEADER_CHARS
from judge.render.png import PNG_SIGNATURE
from judge.variants.maps import load_map

GM = "gm@example.org"
GM_CHAOS = load_map("chaos")
POWERS = list(GM_CHAOS.powers.values())  # in the map's order, Ankara to Warsaw
LETTERS = [p.initial for p in POWERS]
NAMES = [p.name for p in POWERS]
PLAYERS = [f"p{i}@example.org" for i in range(34)]
SILENT = {"B", "0", "9"}  # Belgium, Sevastopol and Warsaw never order
ORDERS = {  # the other powers' orders; every power not named here holds
    "Z": "A Ser - Bud",
    "Y": "A Rum S A Ser - Bud",
    "V": "A Par - Bur",
    "Q": "A Mar - Bur",
    "S": "A Mun - Tyr",
    "P": "F Lon - Eng",
    "3": "F StP/sc - Bot",
}
# How each power's order reads in the results (its unit, and what it did).
RESULTS = {
    "Budapest": "Army Budapest HOLD.  (*dislodged*)",
    "London": "Fleet London -> English Channel.",
    "Marseilles": "Army Marseilles -> Burgundy.  (*bounce*)",
    "Munich": "Army Munich -> Tyrolia.",
    "Paris": "Army Paris -> Burgundy.  (*bounce*)",
    "Rumania": "Army Rumania SUPPORT Army Serbia -> Budapest.",
    "Serbia": "Army Serbia -> Budapest.",
    "St Petersburg": "Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
}


def _unit(power) -> str:
    """The opening unit in words: "Fleet St Petersburg (south coast)"."""
    kind, _, place = power.units[0].partition(" ")
    prov, _, coast = place.partition("/")
    name = GM_CHAOS.provinces[prov].name
    return ("Fleet " if kind == "F" else "Army ") + name + (" (south coast)" if coast else "")


OPENING = "".join(f"{p.name}: {_unit(p)}.\n" for p in POWERS)

ST_PETERSBURG_START = f"""Game chaos1 (Chaos: 34 powers, one centre each) has started.

You are St Petersburg. Sign on with: SIGNON 3chaos1 your-password

The opening position:
{OPENING}
The board is in the attached picture board-S1901M.png.

The first phase is Movement for Spring of 1901.
The deadline for orders is Monday 23 November 2026 12:35 UTC.
"""

SPRING = (
    "Game: chaos1   Variant: Chaos: 34 powers, one centre each\n"
    "Rules: the DATC's preferred choices (DATC 2.4).\n"
    "Movement results for Spring of 1901. (chaos1.001)\n"
    + "".join(f"\n{p.name}: {RESULTS.get(p.name, _unit(p) + ' HOLD.')}\n" for p in POWERS)
    + """
In civil disorder (no orders received): Belgium, Sevastopol, Warsaw.

The following units were dislodged:
The Budapest Army in Budapest can retreat to Galicia.

The board after Movement for Spring of 1901, with its orders drawn, is in
the attached picture board-S1901M.png.
Key: arrow move (dashed: convoyed), dashes support, dots convoy, ring hold,
red X failed, red ring dislodged, struck ring removed, dashed ring built.

The next phase of 'chaos1' will be Retreats for Spring of 1901.
The deadline for orders will be Wed Nov 25 2026 12:35:00 +0000.
"""
)

DRAWN = """chaos1 has ended in a draw, by the vote of all surviving powers.
The draw is shared by: Ankara, Belgium, Berlin, Brest, Budapest, Bulgaria,
Constantinople, Denmark, Edinburgh, Greece, Holland, Kiel, Liverpool,
London, Marseilles, Moscow, Munich, Naples, Norway, Paris, Portugal, Rome,
Rumania, Serbia, Sevastopol, Smyrna, Spain, St Petersburg, Sweden, Trieste,
Tunis, Venice, Vienna, Warsaw.
"""


def _seat_34(judge: Judge) -> list:
    """CREATE and 34 joins, each wanting the power of its own letter; the mails of the last."""
    [ack] = judge.send(GM, "CREATE ?chaos1 masterpw chaos")
    assert ack.body == (
        "Line 1: CREATE ?chaos1 **** chaos\n"
        "  Game chaos1 (Chaos: 34 powers, one centre each) is created and you are its master.\n"
        "  Players join with: SIGNON ?chaos1 password   (34 are needed)\n"
    )
    for i, letter in enumerate(LETTERS):
        mails = judge.send(PLAYERS[i], f"SIGNON ?chaos1 pw{i}\nSET PREFERENCE {letter}")
    return mails


def test_thirty_four_players_start_order_and_draw_by_mail(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    mails = _seat_34(judge)
    starts = {m.to[0]: m for m in mails if m.subject.endswith("Game Starting")}
    assert {a: m.subject for a, m in starts.items()} == {
        a: "TEST:chaos1 - S1901M Game Starting" for a in [GM, *PLAYERS]
    }
    assert starts[PLAYERS[27]].body == ST_PETERSBURG_START
    assert all(
        f"You are {NAMES[i]}. Sign on with: SIGNON {LETTERS[i]}chaos1 your-password\n"
        in starts[PLAYERS[i]].body
        for i in range(34)
    )

    for i, letter in enumerate(LETTERS):
        if letter in SILENT:
            continue
        order = ORDERS.get(letter, f"{POWERS[i].units[0].replace('/SC', '')} H")
        signon = f"SIGNON {letter}chaos1 pw{i}"
        if letter == "Z":  # as the judges' description has it: signon zfontenoy
            signon = f"signon zchaos1 pw{i}"
        [ack] = judge.send(PLAYERS[i], f"{signon}\n{order}")
        if letter == "Z":
            assert ack.body.startswith(
                "Line 1: signon zchaos1 ****\n  Signed on to chaos1 as Serbia.\n"
            )
        if letter == "3":
            assert ack.body == (
                "Line 1: SIGNON 3chaos1 ****\n"
                "  Signed on to chaos1 as St Petersburg.\n"
                "\n"
                "St Petersburg in chaos1, Movement for Spring of 1901:\n"
                "  F STP/SC - BOT\n"
                "  Orders on file now:\n"
                "    Fleet St Petersburg (south coast) -> Gulf of Bothnia\n"
                "  WAIT is not set. Deadline: Monday 23 November 2026 12:35 UTC.\n"
            )

    deadline = datetime.fromisoformat(judge.game("chaos1").deadline or "")
    late = judge.at(deadline)
    assert [(m.to, m.subject) for m in late[:3]] == [
        ([PLAYERS[1]], "TEST:chaos1 - S1901M Late Notice: Belgium"),
        ([PLAYERS[24]], "TEST:chaos1 - S1901M Late Notice: Sevastopol"),
        ([PLAYERS[33]], "TEST:chaos1 - S1901M Late Notice: Warsaw"),
    ]
    waiting = late[3:]  # one mail to each of the others
    assert {m.subject for m in waiting} == {
        "TEST:chaos1 - S1901M Late Notice: Belgium, Sevastopol, Warsaw"
    }
    assert [m.to[0] for m in waiting] == [
        p for i, p in enumerate(PLAYERS) if i not in (1, 24, 33)
    ] + [GM]

    mails = judge.at(deadline + timedelta(hours=24))  # the end of grace: civil disorder
    copies = [m for m in mails if m.subject == "TEST:chaos1 - S1901M Results"]
    assert [m.to[0] for m in copies] == [GM, *PLAYERS]  # one mail each
    results = copies[0]
    assert results.picture == "board-S1901M.png"
    assert {m.body for m in copies} == {SPRING}
    # Drawn and attached on the way out: a style for each of the 34 powers.
    sent = [m for m in judge.deliver() if m["Subject"] == results.subject]
    [picture] = list(sent[0].iter_attachments())
    assert picture.get_filename() == "board-S1901M.png"
    assert picture.get_content().startswith(PNG_SIGNATURE)
    # The three powers in civil disorder are then abandoned (issue 18): their players
    # told, and everyone else.
    abandoned = [m for m in mails if "Abandoned" in m.subject]
    assert [(m.to, m.subject) for m in abandoned[:3]] == [
        ([PLAYERS[1]], "TEST:chaos1 - S1901R Abandoned: Belgium"),
        ([PLAYERS[24]], "TEST:chaos1 - S1901R Abandoned: Sevastopol"),
        ([PLAYERS[33]], "TEST:chaos1 - S1901R Abandoned: Warsaw"),
    ]
    assert [m.to[0] for m in abandoned[3:]] == [GM] + [
        p for i, p in enumerate(PLAYERS) if i not in (1, 24, 33)
    ]
    [retreat] = [m for m in mails if m not in copies and m not in abandoned]
    assert (retreat.to, retreat.subject) == (
        [PLAYERS[4]],
        "TEST:chaos1 - S1901R Budapest must retreat (Spring of 1901)",
    )

    for i, letter in enumerate(LETTERS):
        mails = judge.send(PLAYERS[i], f"SIGNON {letter}chaos1 pw{i}\nSET DRAW")
    [ack, *ends] = mails
    assert ack.body.endswith(
        "Every surviving power has voted for a draw: the game is over, and\n"
        "chaos1 has ended in a draw. Everyone is told.\n"
    )
    assert [m.to[0] for m in ends] == [GM, *PLAYERS]  # one mail each
    declared = "TEST:chaos1 - S1901R Draw Declared: " + ", ".join(sorted(NAMES))
    assert len(declared) > MAX_HEADER_CHARS  # a subject is cut at the header cap
    assert {m.subject for m in ends} == {declared[: MAX_HEADER_CHARS - 3] + "..."}
    assert {m.body for m in ends} == {DRAWN}
