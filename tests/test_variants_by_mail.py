"""Games for fewer players on the standard map (rulebook XV.3), by mail, end to end,
through the real mail path.

As in tests/test_game_by_mail.py: a private Dovecot holds the judge's INBOX, every mail
is appended to it as an MTA would deliver it, the real daemon (`run_forever`, IMAP IDLE
in, SMTP out) reads it, and an aiosmtpd peer plays the players' mailboxes. Mails may be
multipart (the text and a picture of the board): the text part is what is checked, and
a picture the text names must be attached.

Two games, each played for a whole year:

1. Six players (`standard-6`, Italy neutral). Six players join with preference lists
   whose first choices all differ; every start mail names the player's power and says
   "Neutral: Italy". Spring 1901: Austria walks into Tyrolia and Serbia, and its try to
   order the Italian army in Venice is refused; Russia and Turkey bounce in the Black
   Sea. Fall 1901: the Austrian fleet in Trieste attacks Venice with the support of the
   army in Tyrolia; the Italian army, which holds because nobody orders it, is
   dislodged and disbanded (no retreat phase, no retreat request); England convoys into
   Norway, France takes Belgium and Portugal, Germany Holland, Russia Sweden and
   Rumania. Winter 1901: everyone builds (Austria in Trieste and Vienna, France waives
   one of its three builds); the next phase is Spring 1902.
2. Two players (`standard-2`, World War I). One player gets England, France and Russia,
   the other Austria, Germany and Turkey; each sends ONE mail a phase with the orders
   of all three powers, signing on as a different one each time: lines go to the power
   whose unit (in Winter: whose home centre) they name, and "Russia:" or "Germany:"
   alone sends the lines after it to that power. Spring 1914: Austria's fleet may not
   enter Venice (Italy is neutral): refused in the acknowledgement. Fall 1914: England
   takes Norway, France Portugal, Russia Sweden and Rumania, Austria Serbia and Greece,
   Germany Denmark and Holland, Turkey Bulgaria; the results say the coin has been
   flipped (seeded by the game's name "war1": Italy joins Austria, Germany and
   Turkey). Winter 1914: each player builds for three powers in one mail. Spring 1915:
   the other player's SIGNON as Italy is refused; the coin's winner signs on as Italy
   with the same password and orders Italy, Austria, Germany and Turkey in one mail;
   the results show the Italian moves.

Every mail is checked on its content: acknowledgements (each power's orders read back
and on file, refusals, the deadline), results (every order with its outcome, the
neutral units, the dislodged units, centre ownership and adjustments, the coin, the
next phase), start mails and build requests; at the end the database. Mails nobody
should have received are collected and reported at the very end.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mail_e2e import (
    Clock,
    Mail,
    Mailboxes,
    code_of,
    deadline_text,
    flat,
    has_lines,
    mail,
    make_config,
    one,
    prefix,
    without_header,
)
from servers import Dovecot
from servers import running_judge as judge
from smtp_sink import SmtpSink

from judge.game.njudge_lines import ptime
from judge.mail.error_lines import error_lines
from judge.store import games
from judge.store.db import open_db

GAME = "war1"  # in the two-player game the coin is seeded by this name
MASTER = "gm@example.org"
MASTER_PASSWORD = "masterpw"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
START = datetime(2026, 3, 9, 12, 0, tzinfo=UTC)  # a Monday
STEP = timedelta(hours=12)  # the judge's clock moves on this much between mail batches
HOURS = {"Movement": 48, "Retreat": 24, "Adjustment": 24}
RULES_LINE = "Rules: the DATC's preferred choices (DATC 2.4)."
NEUTRAL_TEXT = (
    "Neutral: Italy. Neutral units hold and are never ordered; they may be supported, "
    "and are disbanded when dislodged."
)
OPENING = [
    "Austria: Army Vienna, Army Budapest, Fleet Trieste.",
    "England: Fleet Edinburgh, Fleet London, Army Liverpool.",
    "France: Fleet Brest, Army Marseilles, Army Paris.",
    "Germany: Fleet Kiel, Army Berlin, Army Munich.",
    "Italy: Fleet Naples, Army Rome, Army Venice.",
    "Russia: Fleet St Petersburg (south coast), Army Moscow, Army Warsaw, Fleet Sevastopol.",
    "Turkey: Fleet Ankara, Army Constantinople, Army Smyrna.",
]


@dataclass(frozen=True)
class Order:
    given: str  # as the player writes it
    canonical: str  # as the acknowledgement reads it back ("" when refused)
    words: str  # on file and in the results, in full words ("" when refused)
    tag: str = ""  # its outcome tag in the results ("" when it succeeds)
    error: str = ""  # why the acknowledgement refuses it


def order(given: str, canonical: str, words: str, tag: str = "") -> Order:
    return Order(given, canonical, words, tag)


def refused(given: str, error: str) -> Order:
    return Order(given, "", "", error=error)


@dataclass
class Phase:
    code: str  # S1901M
    kind: str  # Movement / Adjustment
    title: str  # Spring of 1901
    orders: dict[str, list[Order]]  # power -> its orders, in the order written
    next_kind: str
    next_title: str
    neutral_results: list[str] = field(default_factory=list)  # Italy's units, unordered
    dislodged: list[str] = field(default_factory=list)
    ownership: list[str] = field(default_factory=list)
    coin: str = ""  # the coin-flip paragraph, in flat words
    build_requests: dict[str, tuple[str, list[str]]] = field(default_factory=dict)


# -- the six-player game ------------------------------------------------------------------

# (address, password, preference line, the power it must give, the preference shown)
SIX_SIGNUPS = [
    ("ann@example.org", "pwa", "SET PREFERENCE A", "Austria", "Austria"),
    ("bob@example.org", "pwe", "SET PREFERENCE England, France", "England", "England, then France"),
    ("cid@example.org", "pwf", "SET PREF FGE", "France", "France, then Germany, then England"),
    ("dot@example.org", "pwg", "SET PREFERENCE G R", "Germany", "Germany, then Russia"),
    ("fay@example.org", "pwr", "SET PREFERENCE R[AT]", "Russia", "Russia, then Austria or Turkey"),
    ("gus@example.org", "pwt", "set preference Turkey", "Turkey", "Turkey"),
]
SIX_PLAYER = {power: (address, password) for address, password, _, power, _ in SIX_SIGNUPS}
ITALY_HOLDS = [  # the neutral Italian units, listed in the results though never ordered
    "Italy: Army Rome HOLD.",
    "Italy: Army Venice HOLD.",
    "Italy: Fleet Naples HOLD.",
]

SIX_PHASES = [
    Phase(
        "S1901M",
        "Movement",
        "Spring of 1901",
        {
            "Austria": [
                order("A Vie - Tyr", "A VIE - TYR", "Army Vienna -> Tyrolia"),
                order("A Bud-Ser", "A BUD - SER", "Army Budapest -> Serbia"),
                order("F Tri H", "F TRI H", "Fleet Trieste HOLD"),
                refused(
                    "A Ven - Pie", "The unit in Venice is Italian; you can only order your own."
                ),
            ],
            "England": [
                order("F Lon - Nth", "F LON - NTH", "Fleet London -> North Sea"),
                order("F Edi-Nwg", "F EDI - NWG", "Fleet Edinburgh -> Norwegian Sea"),
                order("A Lvp - Yor", "A LVP - YOR", "Army Liverpool -> Yorkshire"),
            ],
            "France": [
                order("F Bre - MAO", "F BRE - MAO", "Fleet Brest -> Mid-Atlantic Ocean"),
                order("A Par-Bur", "A PAR - BUR", "Army Paris -> Burgundy"),
                order("a mar - spa", "A MAR - SPA", "Army Marseilles -> Spain"),
            ],
            "Germany": [
                order("F Kie-Den", "F KIE - DEN", "Fleet Kiel -> Denmark"),
                order("A Ber - Kie", "A BER - KIE", "Army Berlin -> Kiel"),
                order("A Mun - Ruh", "A MUN - RUH", "Army Munich -> Ruhr"),
            ],
            "Russia": [
                order(
                    "F StP(sc) - Bot",
                    "F STP/SC - BOT",
                    "Fleet St Petersburg (south coast) -> Gulf of Bothnia",
                ),
                order("A Mos - Ukr", "A MOS - UKR", "Army Moscow -> Ukraine"),
                order("A War - Gal", "A WAR - GAL", "Army Warsaw -> Galicia"),
                order("F Sev - Bla", "F SEV - BLA", "Fleet Sevastopol -> Black Sea", "bounce"),
            ],
            "Turkey": [
                order("F Ank - Bla", "F ANK - BLA", "Fleet Ankara -> Black Sea", "bounce"),
                order("A Con - Bul", "A CON - BUL", "Army Constantinople -> Bulgaria"),
                order("A Smy - Arm", "A SMY - ARM", "Army Smyrna -> Armenia"),
            ],
        },
        "Movement",
        "Fall of 1901",
        neutral_results=ITALY_HOLDS,
    ),
    Phase(
        "F1901M",
        "Movement",
        "Fall of 1901",
        {
            "Austria": [
                order("F Tri - Ven", "F TRI - VEN", "Fleet Trieste -> Venice"),
                order(
                    "A Tyr S F Tri - Ven",
                    "A TYR S F TRI - VEN",
                    "Army Tyrolia SUPPORT Fleet Trieste -> Venice",
                ),
                order("A Ser H", "A SER H", "Army Serbia HOLD"),
            ],
            "England": [
                order(
                    "F Nth C A Yor - Nwy",
                    "F NTH C A YOR - NWY",
                    "Fleet North Sea CONVOY Army Yorkshire -> Norway",
                ),
                order("A Yor - Nwy", "A YOR - NWY", "Army Yorkshire -> Norway"),
                order("F Nwg H", "F NWG H", "Fleet Norwegian Sea HOLD"),
            ],
            "France": [
                order("A Bur - Bel", "A BUR - BEL", "Army Burgundy -> Belgium"),
                order("F MAO-Por", "F MAO - POR", "Fleet Mid-Atlantic Ocean -> Portugal"),
                order("A Spa H", "A SPA H", "Army Spain HOLD"),
            ],
            "Germany": [
                order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
                order("A Kie - Hol", "A KIE - HOL", "Army Kiel -> Holland"),
                order("A Ruh H", "A RUH H", "Army Ruhr HOLD"),
            ],
            "Russia": [
                order("F Bot - Swe", "F BOT - SWE", "Fleet Gulf of Bothnia -> Sweden"),
                order("A Ukr - Rum", "A UKR - RUM", "Army Ukraine -> Rumania"),
                order("A Gal H", "A GAL H", "Army Galicia HOLD"),
                order("F Sev H", "F SEV H", "Fleet Sevastopol HOLD"),
            ],
            "Turkey": [
                order("F Ank - Bla", "F ANK - BLA", "Fleet Ankara -> Black Sea"),
                order("A Bul H", "A BUL H", "Army Bulgaria HOLD"),
                order("A Arm H", "A ARM H", "Army Armenia HOLD"),
            ],
        },
        # No retreat phase: nobody orders the Italian army, so it is disbanded.
        "Adjustment",
        "Winter of 1901",
        neutral_results=[
            "Italy: Army Rome HOLD.",
            "Italy: Army Venice HOLD.  (*dislodged*)",
            "Italy: Fleet Naples HOLD.",
        ],
        # Piedmont, Tuscany and Apulia were free, but a neutral unit does not retreat.
        dislodged=["The Italian Army in Venice was disbanded: Italy is neutral."],
        ownership=[
            "Austria: Budapest, Serbia, Trieste, Venice and Vienna.",
            "England: Edinburgh, Liverpool, London and Norway.",
            "France:  Belgium, Brest, Marseilles, Paris, Portugal and Spain.",
            "Germany: Berlin, Denmark, Holland, Kiel and Munich.",
            "Italy:   Naples and Rome.",
            "Russia:  Moscow, Rumania, Sevastopol, St Petersburg, Sweden and Warsaw.",
            "Turkey:  Ankara, Bulgaria, Constantinople and Smyrna.",
            "",
            "Austria:  5 supply centres,  3 units: builds 2 units.",
            "England:  4 supply centres,  3 units: builds 1 unit.",
            "France:   6 supply centres,  3 units: builds 3 units.",
            "Germany:  5 supply centres,  3 units: builds 2 units.",
            "Italy:    2 supply centres,  2 units: no change.",
            "Russia:   6 supply centres,  4 units: builds 2 units.",
            "Turkey:   4 supply centres,  3 units: builds 1 unit.",
        ],
        build_requests={
            "Austria": ("may build 2 units", ["Budapest", "Trieste", "Vienna"]),
            "England": ("may build 1 unit", ["Edinburgh", "Liverpool", "London"]),
            "France": ("may build 3 units", ["Brest", "Marseilles", "Paris"]),
            "Germany": ("may build 2 units", ["Berlin", "Kiel", "Munich"]),
            "Russia": ("may build 2 units", ["Moscow", "St Petersburg", "Warsaw"]),
            "Turkey": ("may build 1 unit", ["Ankara", "Constantinople", "Smyrna"]),
        },
    ),
    Phase(
        "W1901A",
        "Adjustment",
        "Winter of 1901",
        {
            "Austria": [
                order("Build F Tri", "F TRI B", "Build Fleet Trieste"),
                order("Build A Vie", "A VIE B", "Build Army Vienna"),
            ],
            "England": [order("Build F Edi", "F EDI B", "Build Fleet Edinburgh")],
            "France": [
                order("Build A Par", "A PAR B", "Build Army Paris"),
                order("build fleet brest", "F BRE B", "Build Fleet Brest"),
                order("Waive", "WAIVE", "Waive a build"),
            ],
            "Germany": [
                order("Build A Ber", "A BER B", "Build Army Berlin"),
                order("Build A Mun", "A MUN B", "Build Army Munich"),
            ],
            "Russia": [
                order("Build A War", "A WAR B", "Build Army Warsaw"),
                order("Build A Mos", "A MOS B", "Build Army Moscow"),
            ],
            "Turkey": [order("Build F Ank", "F ANK B", "Build Fleet Ankara")],
        },
        "Movement",
        "Spring of 1902",
    ),
]

SIX_FINAL_UNITS = {  # the board at the start of Spring 1902
    "AUSTRIA": {"F VEN", "A TYR", "A SER", "F TRI", "A VIE"},
    "ENGLAND": {"F NTH", "F NWG", "A NWY", "F EDI"},
    "FRANCE": {"A BEL", "F POR", "A SPA", "A PAR", "F BRE"},
    "GERMANY": {"F DEN", "A HOL", "A RUH", "A BER", "A MUN"},
    "ITALY": {"A ROM", "F NAP"},  # the army in Venice is gone
    "RUSSIA": {"F SWE", "A RUM", "A GAL", "F SEV", "A WAR", "A MOS"},
    "TURKEY": {"F BLA", "A BUL", "A ARM", "F ANK"},
}


# -- the two-player game ------------------------------------------------------------------

WEST = ("ann@example.org", "pwa")  # England, France and Russia
EAST = ("bob@example.org", "pwb")  # Austria, Germany and Turkey; Italy joins them
TWO_SIGNUPS = [  # (player, preference line, the preference shown, the powers it gets)
    (WEST, "SET PREFERENCE Russia, England", "Russia, then England", "England, France and Russia"),
    (EAST, "SET PREFERENCE T", "Turkey", "Austria, Germany and Turkey"),
]
TWO_OWNER = {
    **dict.fromkeys(["England", "France", "Russia"], WEST[0]),
    **dict.fromkeys(["Austria", "Germany", "Turkey"], EAST[0]),
}


@dataclass
class Letter:
    """One player's mail for a phase: the power it signs on as, its lines (power names
    alone are headings), and the powers' sections the acknowledgement must show, in
    order."""

    signon: str
    lines: list[str | list[Order]]
    sections: list[str]


def letter_lines(lt: Letter) -> list[str]:
    out: list[str] = []
    for part in lt.lines:
        out += [part] if isinstance(part, str) else [o.given for o in part]
    return out


TWO_ORDERS = {
    "S1914M": {
        "Austria": [
            order("A Vie - Gal", "A VIE - GAL", "Army Vienna -> Galicia", "bounce"),
            order("A Bud - Ser", "A BUD - SER", "Army Budapest -> Serbia"),
            refused("F Tri - Ven", "Venice may not be entered while Italy is neutral."),
            order("F Tri - Alb", "F TRI - ALB", "Fleet Trieste -> Albania"),
        ],
        "England": [
            order("F Lon - Nth", "F LON - NTH", "Fleet London -> North Sea"),
            order("F Edi - Nwg", "F EDI - NWG", "Fleet Edinburgh -> Norwegian Sea"),
            order("A Lvp - Yor", "A LVP - YOR", "Army Liverpool -> Yorkshire"),
        ],
        "France": [
            order("F Bre - Mao", "F BRE - MAO", "Fleet Brest -> Mid-Atlantic Ocean"),
            order("A Par - Bur", "A PAR - BUR", "Army Paris -> Burgundy", "bounce"),
            order("A Mar - Spa", "A MAR - SPA", "Army Marseilles -> Spain"),
        ],
        "Germany": [
            order("F Kie - Den", "F KIE - DEN", "Fleet Kiel -> Denmark"),
            order("A Ber - Kie", "A BER - KIE", "Army Berlin -> Kiel"),
            order("A Mun - Bur", "A MUN - BUR", "Army Munich -> Burgundy", "bounce"),
        ],
        "Russia": [
            order(
                "F StP(sc) - Bot",
                "F STP/SC - BOT",
                "Fleet St Petersburg (south coast) -> Gulf of Bothnia",
            ),
            order("A Mos - Ukr", "A MOS - UKR", "Army Moscow -> Ukraine"),
            order("A War - Gal", "A WAR - GAL", "Army Warsaw -> Galicia", "bounce"),
            order("F Sev - Rum", "F SEV - RUM", "Fleet Sevastopol -> Rumania"),
        ],
        "Turkey": [
            order("F Ank - Bla", "F ANK - BLA", "Fleet Ankara -> Black Sea"),
            order("A Con - Bul", "A CON - BUL", "Army Constantinople -> Bulgaria"),
            order("A Smy - Arm", "A SMY - ARM", "Army Smyrna -> Armenia"),
        ],
    },
    "F1914M": {
        "Austria": [
            order("A Vie H", "A VIE H", "Army Vienna HOLD"),
            order("A Ser H", "A SER H", "Army Serbia HOLD"),
            order("F Alb - Gre", "F ALB - GRE", "Fleet Albania -> Greece"),
        ],
        "England": [
            order(
                "F Nth C A Yor - Nwy",
                "F NTH C A YOR - NWY",
                "Fleet North Sea CONVOY Army Yorkshire -> Norway",
            ),
            order("A Yor - Nwy", "A YOR - NWY", "Army Yorkshire -> Norway"),
            order("F Nwg H", "F NWG H", "Fleet Norwegian Sea HOLD"),
        ],
        "France": [
            order("F Mao - Por", "F MAO - POR", "Fleet Mid-Atlantic Ocean -> Portugal"),
            order("A Spa H", "A SPA H", "Army Spain HOLD"),
            order("A Par - Bur", "A PAR - BUR", "Army Paris -> Burgundy"),
        ],
        "Germany": [
            order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
            order("A Kie - Hol", "A KIE - HOL", "Army Kiel -> Holland"),
            order("A Mun H", "A MUN H", "Army Munich HOLD"),
        ],
        "Russia": [
            order("F Bot - Swe", "F BOT - SWE", "Fleet Gulf of Bothnia -> Sweden"),
            order("F Rum H", "F RUM H", "Fleet Rumania HOLD"),
            order("A Ukr S F Rum", "A UKR S F RUM", "Army Ukraine SUPPORT Fleet Rumania"),
            order("A War H", "A WAR H", "Army Warsaw HOLD"),
        ],
        "Turkey": [
            order("F Bla H", "F BLA H", "Fleet Black Sea HOLD"),
            order("A Bul H", "A BUL H", "Army Bulgaria HOLD"),
            order("A Arm H", "A ARM H", "Army Armenia HOLD"),
        ],
    },
    "W1914A": {
        "Austria": [
            order("Build A Bud", "A BUD B", "Build Army Budapest"),
            order("Build F Tri", "F TRI B", "Build Fleet Trieste"),
        ],
        "England": [order("Build F Edi", "F EDI B", "Build Fleet Edinburgh")],
        "France": [
            order("Build A Par", "A PAR B", "Build Army Paris"),
            order("Build F Bre", "F BRE B", "Build Fleet Brest"),
        ],
        "Germany": [
            order("Build A Ber", "A BER B", "Build Army Berlin"),
            order("Build F Kie", "F KIE B", "Build Fleet Kiel"),
        ],
        "Russia": [
            order("Build A Mos", "A MOS B", "Build Army Moscow"),
            order("Build F Sev", "F SEV B", "Build Fleet Sevastopol"),
        ],
        "Turkey": [order("Build A Con", "A CON B", "Build Army Constantinople")],
    },
    "S1915M": {
        "Austria": [
            order("A Vie - Tyr", "A VIE - TYR", "Army Vienna -> Tyrolia"),
            order("A Ser H", "A SER H", "Army Serbia HOLD"),
            order("F Gre H", "F GRE H", "Fleet Greece HOLD"),
            order("A Bud H", "A BUD H", "Army Budapest HOLD"),
            order("F Tri - Adr", "F TRI - ADR", "Fleet Trieste -> Adriatic Sea"),
        ],
        "England": [
            order("F Nth H", "F NTH H", "Fleet North Sea HOLD"),
            order("F Nwg H", "F NWG H", "Fleet Norwegian Sea HOLD"),
            order("A Nwy H", "A NWY H", "Army Norway HOLD"),
            order("F Edi H", "F EDI H", "Fleet Edinburgh HOLD"),
        ],
        "France": [
            order("F Por H", "F POR H", "Fleet Portugal HOLD"),
            order("A Spa H", "A SPA H", "Army Spain HOLD"),
            order("A Bur H", "A BUR H", "Army Burgundy HOLD"),
            order("A Par H", "A PAR H", "Army Paris HOLD"),
            order("F Bre - Eng", "F BRE - ENG", "Fleet Brest -> English Channel"),
        ],
        "Germany": [
            order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
            order("A Hol H", "A HOL H", "Army Holland HOLD"),
            order("A Mun - Ruh", "A MUN - RUH", "Army Munich -> Ruhr"),
            order("A Ber H", "A BER H", "Army Berlin HOLD"),
            order("F Kie H", "F KIE H", "Fleet Kiel HOLD"),
        ],
        "Italy": [
            order("A Ven - Pie", "A VEN - PIE", "Army Venice -> Piedmont"),
            order("A Rom - Tus", "A ROM - TUS", "Army Rome -> Tuscany"),
            order("F Nap - Ion", "F NAP - ION", "Fleet Naples -> Ionian Sea"),
        ],
        "Russia": [
            order("F Swe H", "F SWE H", "Fleet Sweden HOLD"),
            order("F Rum H", "F RUM H", "Fleet Rumania HOLD"),
            order("A Ukr H", "A UKR H", "Army Ukraine HOLD"),
            order("A War H", "A WAR H", "Army Warsaw HOLD"),
            order("A Mos H", "A MOS H", "Army Moscow HOLD"),
            order("F Sev H", "F SEV H", "Fleet Sevastopol HOLD"),
        ],
        "Turkey": [
            order("F Bla H", "F BLA H", "Fleet Black Sea HOLD"),
            order("A Bul H", "A BUL H", "Army Bulgaria HOLD"),
            order("A Arm H", "A ARM H", "Army Armenia HOLD"),
            order("A Con H", "A CON H", "Army Constantinople HOLD"),
        ],
    },
}

_S, _F, _W, _S2 = (TWO_ORDERS[c] for c in ("S1914M", "F1914M", "W1914A", "S1915M"))
# One mail per player and phase. Lines go to the power whose unit (or, for a build,
# whose home centre) they name; a power's name alone sends the lines after it to that
# power. A player signs on as any of its powers: that power's section comes first in
# the acknowledgement, then the others in the group's order (Italy, joined by the coin,
# last).
TWO_LETTERS = {
    "S1914M": {
        WEST[0]: Letter(
            "England",
            [_S["England"], _S["France"], "Russia:", _S["Russia"]],
            ["England", "France", "Russia"],
        ),
        EAST[0]: Letter(
            "Germany",
            [_S["Austria"], _S["Germany"], _S["Turkey"]],
            ["Germany", "Austria", "Turkey"],
        ),
    },
    "F1914M": {
        WEST[0]: Letter(
            "France",
            [_F["France"], _F["England"], "Russia:", _F["Russia"]],
            ["France", "England", "Russia"],
        ),
        EAST[0]: Letter(
            "Turkey",
            [_F["Turkey"], _F["Austria"], _F["Germany"]],
            ["Turkey", "Austria", "Germany"],
        ),
    },
    "W1914A": {
        WEST[0]: Letter(
            "Russia",
            [_W["England"], _W["France"], _W["Russia"]],
            ["Russia", "England", "France"],
        ),
        # Italy has joined this player: its section shows, with nothing to order yet
        # (Italy is neutral until Spring 1915).
        EAST[0]: Letter(
            "Austria",
            [_W["Austria"], _W["Germany"], _W["Turkey"]],
            ["Austria", "Germany", "Turkey", "Italy"],
        ),
    },
    "S1915M": {
        WEST[0]: Letter(
            "England",
            [_S2["England"], _S2["France"], "Russia:", _S2["Russia"]],
            ["England", "France", "Russia"],
        ),
        EAST[0]: Letter(
            "Italy",
            [_S2["Italy"], _S2["Austria"], _S2["Turkey"], "Germany:", _S2["Germany"]],
            ["Italy", "Austria", "Germany", "Turkey"],
        ),
    },
}

TWO_PHASES = [
    Phase(
        "S1914M",
        "Movement",
        "Spring of 1914",
        _S,
        "Movement",
        "Fall of 1914",
        neutral_results=ITALY_HOLDS,
    ),
    Phase(
        "F1914M",
        "Movement",
        "Fall of 1914",
        _F,
        "Adjustment",
        "Winter of 1914",
        neutral_results=ITALY_HOLDS,
        ownership=[
            "Austria: Budapest, Greece, Serbia, Trieste and Vienna.",
            "England: Edinburgh, Liverpool, London and Norway.",
            "France:  Brest, Marseilles, Paris, Portugal and Spain.",
            "Germany: Berlin, Denmark, Holland, Kiel and Munich.",
            "Italy:   Naples, Rome and Venice.",
            "Russia:  Moscow, Rumania, Sevastopol, St Petersburg, Sweden and Warsaw.",
            "Turkey:  Ankara, Bulgaria, Constantinople and Smyrna.",
            "",
            "Austria:  5 supply centres,  3 units: builds 2 units.",
            "England:  4 supply centres,  3 units: builds 1 unit.",
            "France:   5 supply centres,  3 units: builds 2 units.",
            "Germany:  5 supply centres,  3 units: builds 2 units.",
            "Italy:    3 supply centres,  3 units: no change.",
            "Russia:   6 supply centres,  4 units: builds 2 units.",
            "Turkey:   4 supply centres,  3 units: builds 1 unit.",
        ],
        coin=(
            "A coin has been flipped: Italy joins Austria, Germany and Turkey, and is "
            "played by that player from Italy's first phase at war."
        ),
        build_requests={
            "Austria": ("may build 2 units", ["Budapest", "Trieste"]),
            "England": ("may build 1 unit", ["Edinburgh", "Liverpool", "London"]),
            "France": ("may build 2 units", ["Brest", "Marseilles", "Paris"]),
            "Germany": ("may build 2 units", ["Berlin", "Kiel"]),
            "Russia": ("may build 2 units", ["Moscow", "Sevastopol", "St Petersburg"]),
            "Turkey": ("may build 1 unit", ["Ankara", "Constantinople", "Smyrna"]),
        },
    ),
    Phase("W1914A", "Adjustment", "Winter of 1914", _W, "Movement", "Spring of 1915"),
    Phase("S1915M", "Movement", "Spring of 1915", _S2, "Movement", "Fall of 1915"),
]

TWO_FINAL_UNITS = {  # the board at the start of Fall 1915
    "AUSTRIA": {"A TYR", "A SER", "F GRE", "A BUD", "F ADR"},
    "ENGLAND": {"F NTH", "F NWG", "A NWY", "F EDI"},
    "FRANCE": {"F POR", "A SPA", "A BUR", "A PAR", "F ENG"},
    "GERMANY": {"F DEN", "A HOL", "A RUH", "A BER", "F KIE"},
    "ITALY": {"A PIE", "A TUS", "F ION"},
    "RUSSIA": {"F SWE", "F RUM", "A UKR", "A WAR", "A MOS", "F SEV"},
    "TURKEY": {"F BLA", "A BUL", "A ARM", "A CON"},
}


# -- the clock, the mail and the mailboxes --------------------------------------------


# The sentence naming the picture, and a results mail's two lines of the key to its marks.
PICTURE = re.compile(r"\n*The board\b[^.]*?\battached picture (\S+?)\.\n(?:Key: .*\n.*\n)?")


def without_picture(m: Mail, problems: list[str]) -> str:
    """The text with its sentence about the attached board picture taken out. A picture
    the text names must be attached: if not, that goes into `problems` (the rest of the
    mail is still checked)."""
    for name in PICTURE.findall(m.body):
        if name not in m.picture_names:
            problems.append(f"{m.subject!r} names the picture {name} but has {m.picture_names}")
    return PICTURE.sub("\n", m.body)


# -- the servers and the judge ----------------------------------------------------------


class Script:
    """The test's side of the mail: deliver batches, keep count."""

    def __init__(self, dovecot: Dovecot, sink: SmtpSink, database: Path) -> None:
        self.dovecot = dovecot
        self.clock = Clock(START)
        self.boxes = Mailboxes(sink, database, dovecot)
        self.sent = 0

    def deliver(self, *batch: bytes) -> None:
        for raw in batch:  # as an MTA delivers: one after another into the INBOX
            self.dovecot.append(raw)
        self.sent += len(batch)

    def ask(self, sender: str, subject: str, lines: list[str]) -> Mail:
        """Send one mail and return the answer (whatever its subject's suffix)."""
        self.deliver(mail(sender, subject, lines, self.clock.now))
        got = self.boxes.first_subject(sender)
        return one(self.boxes.new({sender: [got]})[sender], got)


# -- checking the mails -------------------------------------------------------------------


def section(power: str, phase: Phase, orders: list[Order], deadline: str) -> list[str]:
    """A power's part of an acknowledgement: the lines read back, the orders on file."""
    lines = [f"{power} in {GAME}, {phase.kind} for {phase.title}:"]
    for o in orders:
        lead = f"  {o.given:<28} ERROR: "  # a long error continues on the lines below
        lines += (
            (lead + error_lines(o.error, lead, "    ")).split("\n") if o.error else [o.canonical]
        )
    on_file = [o.words for o in orders if not o.error]
    lines += ["Orders on file now:", *on_file] if on_file else ["No orders on file."]
    return [*lines, f"WAIT is not set. Deadline: {deadline}."]


def check_ack(
    ack: Mail,
    signon: str,
    sections: dict[str, list[Order]],
    phase: Phase,
    deadline: str,
    processed: bool,
) -> None:
    """An acknowledgement of one order mail: signed on, then one section per power (in
    the order of `sections`), refusals marked, and whether it made the phase complete."""
    errors = any(o.error for orders in sections.values() for o in orders)
    assert ack.subject.startswith("Re: [Error Flag] ") == errors, ack.subject
    assert has_lines(
        ack.body, [f"Line 1: SIGNON {signon[0]}{GAME} ****", f"Signed on to {GAME} as {signon}."]
    ), ack.body
    headers = [
        line
        for line in ack.body.split("\n")
        if line.startswith(tuple(f"{p} in {GAME}, " for p in POWERS))
    ]
    assert headers == [f"{p} in {GAME}, {phase.kind} for {phase.title}:" for p in sections], (
        ack.body
    )
    for power, orders in sections.items():
        assert has_lines(ack.body, section(power, phase, orders, deadline)), (power, ack.body)
    assert ack.body.count("ERROR") == sum(1 for os in sections.values() for o in os if o.error)
    assert "Still without orders" not in ack.body, ack.body
    assert "still to order" not in ack.body, ack.body
    done = f"{GAME} has been processed; the results are mailed to everyone."
    assert (done in flat(ack.body)) == processed, ack.body


def check_results(
    results: Mail, phase: Phase, variant: str, deadline: datetime, problems: list[str], turn: int
) -> None:
    """A phase's results: every order with its outcome (the neutral units' too), the
    dislodged units, the centres and adjustments, the coin, the next phase."""
    assert results.subject == f"{prefix(GAME, phase.code)} Results"
    assert results.body.startswith("\n:: Judge: E2E  Game: War1  Variant: ")
    text = without_header(without_picture(results, problems))
    lines = text.split("\n")
    space = " " if phase.kind == "Movement" else "  "  # njudge's: two after the others
    assert lines[:3] == [
        f"Game: {GAME}   Variant: {variant}",
        RULES_LINE,
        f"{phase.kind} results for {phase.title}.{space}({GAME}.{turn:03d})",
    ], text
    ends = [
        i
        for i, line in enumerate(lines)
        if line in ("The following units were dislodged:", "Ownership of supply centres:")
        or line.startswith((f"The next phase of '{GAME}'", "In civil disorder", "A coin has"))
    ]
    got = [line for line in lines[3 : ends[0]] if line]
    expected = [
        f"{power}: {o.words}." + (f"  (*{o.tag}*)" if o.tag else "")
        for power, orders in phase.orders.items()
        for o in orders
        if not o.error
    ] + phase.neutral_results
    assert Counter(got) == Counter(expected), text
    powers_in_order = [line.split(":")[0] for line in got]  # each power's lines together
    assert powers_in_order == sorted(powers_in_order, key=POWERS.index), text
    # Nobody is in civil disorder: every player ordered, and a neutral power is not.
    assert "civil disorder" not in text, text
    if phase.dislodged:
        block = "\n".join(["The following units were dislodged:", *phase.dislodged])
        assert f"\n{block}\n\n" in text, text
    else:
        assert "dislodged:" not in text, text
    if phase.ownership:
        block = "\n".join(["Ownership of supply centres:", *phase.ownership])
        assert f"\n{block}\n\n" in text, text
    else:
        assert "Ownership" not in text, text
    if phase.coin:
        assert f" {phase.coin} The next phase of '{GAME}' " in flat(text), text
    else:
        assert "coin" not in text, text
    plural = {"Movement": "Movement", "Retreat": "Retreats", "Adjustment": "Adjustments"}
    assert flat(text).endswith(
        f"The next phase of '{GAME}' will be {plural[phase.next_kind]} for {phase.next_title}. "
        f"The deadline for orders will be {ptime(deadline, UTC)}."
    ), text


def check_start(
    start: Mail, variant: str, you: str | None, deadline: str, first: str, problems: list[str]
) -> None:
    """A start mail: the game, who you are (or the players, to the master), Italy
    neutral, the opening position and the first phase."""
    text = without_header(without_picture(start, problems))
    words = flat(text)
    assert words.startswith(f"Game {GAME} ({variant}) has started."), text
    if you:
        assert f"You are {you}. Sign on with: SIGNON {you[0]}{GAME} your-password" in words
    assert NEUTRAL_TEXT in words, text
    assert has_lines(text, ["The opening position:", *OPENING]), text
    assert words.endswith(
        f"The first phase is Movement for {first}. The deadline for orders is {deadline}."
    ), text


def check_build_request(
    request: Mail, power: str, what: str, names: list[str], deadline: str
) -> None:
    assert request.subject.startswith(f"E2E:{GAME} - F1")
    assert f"B {power} {what} (Winter of " in request.subject
    words = flat(request.body)
    assert words.startswith(f"{power} {what} in {GAME}."), request.body
    assert f"Home centres free to build in: {', '.join(names)}." in words, request.body
    assert '"Build A Par"' in words and '"Waive"' in words, request.body
    assert words.endswith(f"The deadline is {deadline}."), request.body


def final_units(db, phase: str) -> dict[str, set[str]]:
    game = games.find_game(db, GAME)
    assert game is not None
    position = games.phase_position(db, game, phase)
    return {p: set(units) for p, units in position["units"].items() if units}


# -- the six-player game ------------------------------------------------------------------


def test_six_players_italy_neutral_a_year_by_mail(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    script = Script(dovecot, sink, tmp_path / "judge.db")
    clock, boxes = script.clock, script.boxes
    problems: list[str] = []  # faults that do not stop the script, reported at the end
    variant = "Standard Diplomacy for six players (Italy neutral)"
    address = {power: a for power, (a, _) in SIX_PLAYER.items()}
    players = list(address.values())

    with judge(make_config(tmp_path, dovecot, sink), clock):
        # 1. The master creates a six-player game.
        script.deliver(
            mail(MASTER, "new game", [f"CREATE ?{GAME} {MASTER_PASSWORD} standard-6"], clock.now)
        )
        new_game = f"Re: {prefix(GAME, SIX_PHASES[0].code)} new game"
        ack = one(boxes.new({MASTER: [new_game]})[MASTER], new_game)
        words = flat(ack.body)
        assert "ERROR" not in ack.body, ack.body
        assert f"Line 1: CREATE ?{GAME} **** standard-6" in ack.body, ack.body
        assert f"Game {GAME} ({variant}) is created and you are its master." in words
        assert f"Players join with: SIGNON ?{GAME} password (6 are needed)" in words

        # 2. Six players join, each with a preference list; the sixth starts the game.
        script.deliver(
            *(
                mail(a, "joining", [f"SIGNON ?{GAME} {pw}", pref], clock.now)
                for a, pw, pref, _, _ in SIX_SIGNUPS
            )
        )
        deadline = deadline_text(clock.now + timedelta(hours=48))
        started = f"{prefix(GAME, SIX_PHASES[0].code)} Game Starting"
        joining = f"Re: {prefix(GAME, SIX_PHASES[0].code)} joining"
        new = boxes.new(
            {
                MASTER: [started],
                **{a: [joining, started] for a, _, _, power, _ in SIX_SIGNUPS},
            }
        )
        for k, (a, _, pref, power, shown) in enumerate(SIX_SIGNUPS, start=1):
            ack = one(new[a], joining)
            assert "ERROR" not in ack.body, ack.body
            assert f"You have joined {GAME}: {k} of 6 players." in flat(ack.body), ack.body
            assert has_lines(ack.body, [f"Line 2: {pref}", f"Your preference in {GAME}: {shown}."])
            assert (f"The game {GAME} is full and has started" in flat(ack.body)) == (k == 6)
            start = one(new[a], started)
            assert start.to == (a,)
            check_start(start, variant, power, deadline, "Spring of 1901", problems)
        start = one(new[MASTER], started)
        assert start.to == (MASTER,)
        check_start(start, variant, None, deadline, "Spring of 1901", problems)
        assert f"You are the master. Sign on with: SIGNON M{GAME} your-password" in flat(start.body)
        assert has_lines(
            start.body, ["The players:", *(f"{p}: {a}" for p, a in address.items())]
        ), start.body  # six players: nobody plays Italy

        # 3. A year, phase by phase: every power sends its orders in its own mail.
        for turn, phase in enumerate(SIX_PHASES, start=1):  # none skipped
            clock.now += STEP
            next_moment = clock.now + timedelta(hours=HOURS[phase.next_kind])
            next_deadline = deadline_text(next_moment)
            now_prefix = prefix(GAME, phase.code)
            next_prefix = prefix(GAME, code_of(phase.next_kind, phase.next_title))
            subjects = {power: f"{phase.code} orders for {power}" for power in phase.orders}
            script.deliver(
                *(
                    mail(
                        address[power],
                        subjects[power],
                        [f"SIGNON {power[0]}{GAME} {SIX_PLAYER[power][1]}"]
                        + [o.given for o in orders],
                        clock.now,
                    )
                    for power, orders in phase.orders.items()
                )
            )
            results_subject = f"{now_prefix} Results"
            expected: dict[str, list[str]] = {MASTER: [results_subject]}
            for power, orders in phase.orders.items():
                flag = "[Error Flag] " if any(o.error for o in orders) else ""
                ack_subject = f"Re: {flag}{now_prefix} {subjects[power]}"
                expected[address[power]] = [results_subject, ack_subject]
                if power in phase.build_requests:
                    what = phase.build_requests[power][0]
                    expected[address[power]].append(
                        f"{next_prefix} {power} {what} ({phase.next_title})"
                    )
            new = boxes.new(expected)

            results = one(new[MASTER], results_subject)
            assert results.to == (MASTER,), results.to  # one recipient per mail
            check_results(results, phase, variant, next_moment, problems, turn)
            for a in players:
                copy = one(new[a], results_subject)
                assert copy.to == (a,) and copy.body == results.body

            last = list(phase.orders)[-1]  # the mail that made the phase complete
            for power, orders in phase.orders.items():
                ack = next(m for m in new[address[power]] if m.subject.startswith("Re: "))
                check_ack(ack, power, {power: orders}, phase, deadline, processed=power == last)

            for power, (what, names) in phase.build_requests.items():
                request = one(
                    new[address[power]], f"{next_prefix} {power} {what} ({phase.next_title})"
                )
                assert request.to == (address[power],)
                check_build_request(request, power, what, names, next_deadline)
            deadline = next_deadline

        # Nothing more comes: no retreat request for the Italian army.
        boxes.settled(tmp_path / "judge.db")
        boxes.new({})
        inbox_left = dovecot.messages("INBOX")
        processed = dovecot.messages("processed")

    # 4. The store: every mail handled, the year's phases, the board in Spring 1902.
    assert inbox_left == []
    assert len(processed) == script.sent == 1 + 6 + 3 * 6
    db = open_db(tmp_path / "judge.db")
    states = [r["state"] for r in db.query("SELECT state FROM inbound ORDER BY id")]
    assert states == ["handled"] * script.sent
    game = games.find_game(db, GAME)
    assert game is not None and game.variant == "standard-6" and game.phase == "S1902M"
    seats = {s.power: s.address for s in games.seats(db, game, games.PLAYER)}
    assert seats == {p.upper(): a for p, a in address.items()}
    phases = [r["phase"] for r in db.query("SELECT phase FROM phases ORDER BY id")]
    assert phases == ["S1901M", "F1901M", "W1901A", "S1902M"]  # no retreat phase
    fall = json.loads(
        next(db.query("SELECT results FROM phases WHERE phase = 'F1901M'"))["results"]
    )
    assert fall["retreats"] == {}, fall["retreats"]  # nothing to retreat: disbanded
    italy = sorted((r["order"], r["result"]) for r in fall["results"]["ITALY"])
    assert italy == [("A ROM H", "ok"), ("A VEN H", "dislodged"), ("F NAP H", "ok")], italy
    assert final_units(db, "S1902M") == SIX_FINAL_UNITS
    problems += [f"mail nobody expected: {m}" for m in boxes.unexpected]
    assert problems == [], "\n".join(problems)


# -- the two-player game ------------------------------------------------------------------


def test_two_players_world_war_a_year_by_mail(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    script = Script(dovecot, sink, tmp_path / "judge.db")
    clock, boxes = script.clock, script.boxes
    problems: list[str] = []  # faults that do not stop the script, reported at the end
    variant = "World War I: Diplomacy for two players"
    players = [WEST[0], EAST[0]]
    password = dict([WEST, EAST])

    with judge(make_config(tmp_path, dovecot, sink), clock):
        # 1. The master creates a two-player game; two players join.
        script.deliver(
            mail(MASTER, "new game", [f"CREATE ?{GAME} {MASTER_PASSWORD} standard-2"], clock.now)
        )
        new_game = f"Re: {prefix(GAME, TWO_PHASES[0].code)} new game"
        ack = one(boxes.new({MASTER: [new_game]})[MASTER], new_game)
        words = flat(ack.body)
        assert "ERROR" not in ack.body, ack.body
        assert f"Game {GAME} ({variant}) is created and you are its master." in words
        assert f"Players join with: SIGNON ?{GAME} password (2 are needed)" in words

        script.deliver(
            *(
                mail(a, "joining", [f"SIGNON ?{GAME} {pw}", pref], clock.now)
                for (a, pw), pref, _, _ in TWO_SIGNUPS
            )
        )
        deadline = deadline_text(clock.now + timedelta(hours=48))
        started = f"{prefix(GAME, TWO_PHASES[0].code)} Game Starting"
        joining = f"Re: {prefix(GAME, TWO_PHASES[0].code)} joining"
        new = boxes.new(
            {
                MASTER: [started],
                **{a: [joining, started] for (a, _), _, _, powers in TWO_SIGNUPS},
            }
        )
        for k, ((a, _), pref, shown, powers) in enumerate(TWO_SIGNUPS, start=1):
            ack = one(new[a], joining)
            assert "ERROR" not in ack.body, ack.body
            assert f"You have joined {GAME}: {k} of 2 players." in flat(ack.body), ack.body
            assert has_lines(ack.body, [f"Line 2: {pref}", f"Your preference in {GAME}: {shown}."])
            start = one(new[a], started)
            assert start.to == (a,)
            # "You are England, France and Russia. Sign on with: SIGNON Ewar1 ..."
            check_start(start, variant, powers, deadline, "Spring of 1914", problems)
        start = one(new[MASTER], started)
        check_start(start, variant, None, deadline, "Spring of 1914", problems)
        assert has_lines(
            start.body,
            ["The players:", *(f"{p}: {TWO_OWNER[p]}" for p in POWERS if p != "Italy")],
        ), start.body

        # 2. 1914 and Spring 1915, one mail per player and phase.
        for turn, phase in enumerate(TWO_PHASES, start=1):  # none skipped
            clock.now += STEP
            now_prefix = prefix(GAME, phase.code)
            next_prefix = prefix(GAME, code_of(phase.next_kind, phase.next_title))
            if phase.code == "S1915M":
                # Italy is the coin's winner's now: the other player may not sign on as it.
                answer = script.ask(
                    WEST[0], "may I?", [f"SIGNON I{GAME} {password[WEST[0]]}", "A Ven - Pie"]
                )
                assert answer.subject == "Re: [Error Flag] E2E may I?", answer.subject
                assert has_lines(
                    answer.body,
                    [
                        f"Line 1: SIGNON I{GAME} ****",
                        "ERROR: signon refused: the game name, the power or the password is wrong.",
                        "Line 2: A Ven - Pie",
                        "ERROR: not used, because the SIGNON before it was refused.",
                    ],
                ), answer.body
            next_moment = clock.now + timedelta(hours=HOURS[phase.next_kind])
            next_deadline = deadline_text(next_moment)
            letters = TWO_LETTERS[phase.code]
            subjects = {a: f"{phase.code} orders" for a in letters}
            script.deliver(
                *(
                    mail(
                        a,
                        subjects[a],
                        [f"SIGNON {lt.signon[0]}{GAME} {password[a]}", *letter_lines(lt)],
                        clock.now,
                    )
                    for a, lt in letters.items()
                )
            )
            results_subject = f"{now_prefix} Results"
            expected: dict[str, list[str]] = {MASTER: [results_subject]}
            for a, lt in letters.items():
                errors = any(o.error for p in lt.sections for o in phase.orders.get(p, []))
                flag = "[Error Flag] " if errors else ""
                ack_subject = f"Re: {flag}{now_prefix} {subjects[a]}"
                expected[a] = [results_subject, ack_subject]
            for power, (what, _) in phase.build_requests.items():
                expected[TWO_OWNER[power]].append(
                    f"{next_prefix} {power} {what} ({phase.next_title})"
                )
            new = boxes.new(expected)

            # One results mail to the master and each player, however many powers.
            results = one(new[MASTER], results_subject)
            assert results.to == (MASTER,), results.to  # one recipient per mail
            check_results(results, phase, variant, next_moment, problems, turn)
            for a in players:
                copy = one(new[a], results_subject)
                assert copy.to == (a,) and copy.body == results.body

            # One acknowledgement per mail, with a section for each of the player's powers.
            last = list(letters)[-1]
            for a, lt in letters.items():
                ack = next(m for m in new[a] if m.subject.startswith("Re: "))
                sections = {p: phase.orders.get(p, []) for p in lt.sections}
                check_ack(ack, lt.signon, sections, phase, deadline, processed=a == last)

            # Build requests: one per power, to the player of that power.
            for power, (what, names) in phase.build_requests.items():
                request = one(
                    new[TWO_OWNER[power]], f"{next_prefix} {power} {what} ({phase.next_title})"
                )
                assert request.to == (TWO_OWNER[power],)
                check_build_request(request, power, what, names, next_deadline)
            deadline = next_deadline

        # Nothing more comes.
        boxes.settled(tmp_path / "judge.db")
        boxes.new({})
        inbox_left = dovecot.messages("INBOX")
        processed = dovecot.messages("processed")

    # 3. The store: every mail handled; Italy joined the second player by the coin.
    assert inbox_left == []
    assert len(processed) == script.sent == 1 + 2 + 4 * 2 + 1
    db = open_db(tmp_path / "judge.db")
    states = [r["state"] for r in db.query("SELECT state FROM inbound ORDER BY id")]
    assert states == ["handled"] * script.sent
    game = games.find_game(db, GAME)
    assert game is not None and game.variant == "standard-2" and game.phase == "F1915M"
    assert game.joined == {"ITALY": "AUSTRIA"}
    seats = {s.power: s.address for s in games.seats(db, game, games.PLAYER)}
    assert seats == {
        **{p.upper(): a for p, a in TWO_OWNER.items()},
        "ITALY": EAST[0],
    }
    phases = [r["phase"] for r in db.query("SELECT phase FROM phases ORDER BY id")]
    assert phases == ["S1914M", "F1914M", "W1914A", "S1915M", "F1915M"]
    # Each mail's lines went to the right power's order set.
    sets = list(db.query("SELECT phase, power, lines FROM order_sets ORDER BY id"))
    got = {(r["phase"], r["power"]): [x["given"] for x in json.loads(r["lines"])] for r in sets}
    want = {
        (code, power.upper()): [o.given for o in orders]
        for code, by_power in TWO_ORDERS.items()
        for power, orders in by_power.items()
    }
    assert got == want
    assert final_units(db, "F1915M") == TWO_FINAL_UNITS
    problems += [f"mail nobody expected: {m}" for m in boxes.unexpected]
    assert problems == [], "\n".join(problems)
