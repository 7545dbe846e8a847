"""A whole game by mail, end to end, through the real mail path.

A private Dovecot holds the judge's INBOX; every mail is appended to it as an MTA would
deliver it. The real daemon (`run_forever`, IMAP IDLE in, SMTP out) reads it and sends
every mail to an aiosmtpd peer that plays the players' mailboxes: what it receives is
grouped by recipient.

The script: a master creates ?war1, seven players sign on with preference lists whose
first choices all differ (so the assignment is known), and the game is played for two
years, every player sending orders each phase as players write them:

- Spring 1901: Vienna and Warsaw bounce in Galicia, Budapest and Sevastopol in Rumania,
  Paris and Munich in Burgundy.
- Fall 1901: Italy takes Trieste with support, dislodging the Austrian fleet (it may
  retreat to the Adriatic or Albania); England convoys into Norway; Budapest and
  Bulgaria bounce in Serbia.
- Fall 1901 retreats: Austria first asks what is due (a SIGNON without orders; the
  answer must name the fleet in Trieste), then retreats it to Albania.
- Winter 1901: Austria (2 centres, 3 units) removes a fleet; everyone else builds, Italy
  waives one of its two builds.
- Spring 1902: England and Russia bounce in the Barents Sea; Germany walks into Belgium,
  Turkey into Greece.
- Fall 1902: Russia takes Budapest with support, Germany dislodges the French army in
  Burgundy with support; both dislodged units retreat (to Vienna and to Paris), France
  after asking what is due.
- Winter 1902: four powers build; Austria (1 centre, 2 units) sends nothing and the
  master processes the phase: civil disorder removes the army in Bohemia, the unit
  farthest from home.

Every outcome below was worked out by hand from the rules; the mails are checked line by
line: acknowledgements (orders read back, orders on file, deadline, no ERRORS), results
(every order with its outcome, the dislodged units, centre ownership and adjustments),
retreat and build requests to the powers concerned only, and the database at the end.
Two kinds of failure are collected and reported at the very end, so that one wrong mail
does not hide the rest of the game: a mail nobody should have received, and an answer
to "what do I have to order?" that does not name the unit.
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
    order,
    prefix,
    without_header,
)
from servers import running_judge as judge

from judge.game.njudge_lines import njudge_phase, ptime
from judge.store.db import open_db

GAME = "war1"
MASTER = "gm@example.org"
MASTER_PASSWORD = "masterpw"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
ADJECTIVE = {
    "Austria": "Austrian",
    "England": "English",
    "France": "French",
    "Germany": "German",
    "Italy": "Italian",
    "Russia": "Russian",
    "Turkey": "Turkish",
}
START = datetime(2026, 3, 9, 12, 0, tzinfo=UTC)  # a Monday; every deadline after the 9th
STEP = timedelta(hours=12)  # the judge's clock moves on this much between mail batches
HOURS = {"Movement": 48, "Retreat": 24, "Adjustment": 24}

# (address, password, preference line, the power the first choice must give)
SIGNUPS = [
    ("player0@example.org", "pw0", "SET PREFERENCE R A T", "Russia"),
    ("player1@example.org", "pw1", "SET PREFERENCE England, France", "England"),
    ("player2@example.org", "pw2", "set preference A[IT]", "Austria"),
    ("player3@example.org", "pw3", "SET PREF GFE", "Germany"),
    ("player4@example.org", "pw4", "SET PREFERENCE Turkey Russia", "Turkey"),
    ("player5@example.org", "pw5", "SET PREFERENCE IAG", "Italy"),
    ("player6@example.org", "pw6", "SET PREFERENCE F", "France"),
]
PREFERENCE_SHOWN = {  # the acknowledgement's "Your preference in war1: ..."
    "Russia": "Russia, then Austria, then Turkey",
    "England": "England, then France",
    "Austria": "Austria, then Italy or Turkey",
    "Germany": "Germany, then France, then England",
    "Turkey": "Turkey, then Russia",
    "Italy": "Italy, then Austria, then Germany",
    "France": "France",
}
PLAYER = {power: (address, password) for address, password, _, power in SIGNUPS}
ADDRESS = {power: address for power, (address, _) in PLAYER.items()}
INITIAL = {power: power[0] for power in POWERS}

OPENING = [
    "Austria: Army Vienna, Army Budapest, Fleet Trieste.",
    "England: Fleet Edinburgh, Fleet London, Army Liverpool.",
    "France: Fleet Brest, Army Marseilles, Army Paris.",
    "Germany: Fleet Kiel, Army Berlin, Army Munich.",
    "Italy: Fleet Naples, Army Rome, Army Venice.",
    "Russia: Fleet St Petersburg (south coast), Army Moscow, Army Warsaw, Fleet Sevastopol.",
    "Turkey: Fleet Ankara, Army Constantinople, Army Smyrna.",
]


@dataclass
class Phase:
    code: str  # S1901M
    kind: str  # Movement / Retreat / Adjustment
    title: str  # Spring of 1901
    orders: dict[str, list[tuple[str, str, str, str]]]
    next_kind: str
    next_title: str
    extra_results: list[str] = field(default_factory=list)  # lines not from `orders`
    dislodged: list[str] = field(default_factory=list)
    ownership: list[str] = field(default_factory=list)
    retreat_requests: dict[str, list[str]] = field(default_factory=dict)
    build_requests: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    master_process: bool = False  # the master sends PROCESS after the orders
    civil_disorder: str = ""  # the results' civil-disorder line
    # Before ordering, these players sign on without orders to ask what is due; the
    # answer must name the unit still without orders (power -> unit in words).
    asks_first: dict[str, str] = field(default_factory=dict)


PHASES = [
    Phase(
        "S1901M",
        "Movement",
        "Spring of 1901",
        {
            "Austria": [
                order("Army Vienna -> Galicia", "A VIE - GAL", "Army Vienna -> Galicia", "bounce"),
                order("A Bud-Rum", "A BUD - RUM", "Army Budapest -> Rumania", "bounce"),
                order("Fleet Trieste Holds", "F TRI H", "Fleet Trieste HOLD"),
            ],
            "England": [
                order("F Lon - Nth", "F LON - NTH", "Fleet London -> North Sea"),
                order("F Edi - NWG", "F EDI - NWG", "Fleet Edinburgh -> Norwegian Sea"),
                order("A Lvp-Yor", "A LVP - YOR", "Army Liverpool -> Yorkshire"),
            ],
            "France": [
                order("F Bre - MAO", "F BRE - MAO", "Fleet Brest -> Mid-Atlantic Ocean"),
                order("A Par-Bur", "A PAR - BUR", "Army Paris -> Burgundy", "bounce"),
                order("a mar - spa", "A MAR - SPA", "Army Marseilles -> Spain"),
            ],
            "Germany": [
                order("F Kie-Den", "F KIE - DEN", "Fleet Kiel -> Denmark"),
                order("A Ber - Kie", "A BER - KIE", "Army Berlin -> Kiel"),
                order("A Mun-Bur", "A MUN - BUR", "Army Munich -> Burgundy", "bounce"),
            ],
            "Italy": [
                order("F Nap - Ion", "F NAP - ION", "Fleet Naples -> Ionian Sea"),
                order("A Ven - Tyr", "A VEN - TYR", "Army Venice -> Tyrolia"),
                order("A Rom - Ven", "A ROM - VEN", "Army Rome -> Venice"),
            ],
            "Russia": [
                order(
                    "F StP(sc) - Bot",
                    "F STP/SC - BOT",
                    "Fleet St Petersburg (south coast) -> Gulf of Bothnia",
                ),
                order("A Mos - Ukr", "A MOS - UKR", "Army Moscow -> Ukraine"),
                order("A War-Gal", "A WAR - GAL", "Army Warsaw -> Galicia", "bounce"),
                order("F Sev - Rum", "F SEV - RUM", "Fleet Sevastopol -> Rumania", "bounce"),
            ],
            "Turkey": [
                order("F Ank-Bla", "F ANK - BLA", "Fleet Ankara -> Black Sea"),
                order("A Con - Bul", "A CON - BUL", "Army Constantinople -> Bulgaria"),
                order("A Smy - Arm", "A SMY - ARM", "Army Smyrna -> Armenia"),
            ],
        },
        "Movement",
        "Fall of 1901",
    ),
    Phase(
        "F1901M",
        "Movement",
        "Fall of 1901",
        {
            "Austria": [
                order("A Vienna Hold", "A VIE H", "Army Vienna HOLD"),
                order("A Bud-Ser", "A BUD - SER", "Army Budapest -> Serbia", "bounce"),
                order("F Tri H", "F TRI H", "Fleet Trieste HOLD", "dislodged"),
            ],
            "England": [
                order(
                    "F Nth C A Yor-Nwy",
                    "F NTH C A YOR - NWY",
                    "Fleet North Sea CONVOY Army Yorkshire -> Norway",
                ),
                order("A Yor - Nwy", "A YOR - NWY", "Army Yorkshire -> Norway"),
                order("F Nwg Hold", "F NWG H", "Fleet Norwegian Sea HOLD"),
            ],
            "France": [
                order("A Par - Bur", "A PAR - BUR", "Army Paris -> Burgundy"),
                order("F MAO-Por", "F MAO - POR", "Fleet Mid-Atlantic Ocean -> Portugal"),
                order("A Spa H", "A SPA H", "Army Spain HOLD"),
            ],
            "Germany": [
                order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
                order("A Kie - Hol", "A KIE - HOL", "Army Kiel -> Holland"),
                order("A Mun - Ruh", "A MUN - RUH", "Army Munich -> Ruhr"),
            ],
            "Italy": [
                order("A Ven - Tri", "A VEN - TRI", "Army Venice -> Trieste"),
                order(
                    "A Tyr S A Ven - Tri",
                    "A TYR S A VEN - TRI",
                    "Army Tyrolia SUPPORT Army Venice -> Trieste",
                ),
                order("F Ion - Tun", "F ION - TUN", "Fleet Ionian Sea -> Tunis"),
            ],
            "Russia": [
                order("A Ukr - Rum", "A UKR - RUM", "Army Ukraine -> Rumania"),
                order(
                    "F Sev S A Ukr - Rum",
                    "F SEV S A UKR - RUM",
                    "Fleet Sevastopol SUPPORT Army Ukraine -> Rumania",
                ),
                order("F Bot - Swe", "F BOT - SWE", "Fleet Gulf of Bothnia -> Sweden"),
                order("A War - Gal", "A WAR - GAL", "Army Warsaw -> Galicia"),
            ],
            "Turkey": [
                order("F Bla H", "F BLA H", "Fleet Black Sea HOLD"),
                order("A Bul - Ser", "A BUL - SER", "Army Bulgaria -> Serbia", "bounce"),
                order("A Arm - Smy", "A ARM - SMY", "Army Armenia -> Smyrna"),
            ],
        },
        "Retreat",
        "Fall of 1901",
        dislodged=["The Austrian Fleet in Trieste can retreat to Adriatic Sea or Albania."],
        retreat_requests={
            "Austria": ["  Fleet in Trieste: may retreat to Adriatic Sea or Albania."]
        },
    ),
    Phase(
        "F1901R",
        "Retreat",
        "Fall of 1901",
        {"Austria": [order("F Tri-Alb", "F TRI R ALB", "Fleet Trieste -> Albania")]},
        "Adjustment",
        "Winter of 1901",
        asks_first={"Austria": "Fleet Trieste"},
        ownership=[
            "Austria: Budapest and Vienna.",
            "England: Edinburgh, Liverpool, London and Norway.",
            "France:  Brest, Marseilles, Paris, Portugal and Spain.",
            "Germany: Berlin, Denmark, Holland, Kiel and Munich.",
            "Italy:   Naples, Rome, Trieste, Tunis and Venice.",
            "Russia:  Moscow, Rumania, Sevastopol, St Petersburg, Sweden and Warsaw.",
            "Turkey:  Ankara, Bulgaria, Constantinople and Smyrna.",
            "",
            "Austria:  2 supply centres,  3 units: removes 1 unit.",
            "England:  4 supply centres,  3 units: builds 1 unit.",
            "France:   5 supply centres,  3 units: builds 2 units.",
            "Germany:  5 supply centres,  3 units: builds 2 units.",
            "Italy:    5 supply centres,  3 units: builds 2 units.",
            "Russia:   6 supply centres,  4 units: builds 2 units.",
            "Turkey:   4 supply centres,  3 units: builds 1 unit.",
        ],
        build_requests={
            "Austria": ("must remove 1 unit", ["Army Vienna", "Army Budapest", "Fleet Albania"]),
            "England": ("may build 1 unit", ["Edinburgh", "Liverpool", "London"]),
            "France": ("may build 2 units", ["Brest", "Marseilles", "Paris"]),
            "Germany": ("may build 2 units", ["Berlin", "Kiel", "Munich"]),
            "Italy": ("may build 2 units", ["Naples", "Rome", "Venice"]),
            "Russia": ("may build 2 units", ["Moscow", "St Petersburg", "Warsaw"]),
            "Turkey": ("may build 1 unit", ["Ankara", "Constantinople"]),
        },
    ),
    Phase(
        "W1901A",
        "Adjustment",
        "Winter of 1901",
        {
            "Austria": [order("Remove F Alb", "F ALB D", "Remove Fleet Albania")],
            "England": [order("build army liverpool", "A LVP B", "Build Army Liverpool")],
            "France": [
                order("Build A Mar", "A MAR B", "Build Army Marseilles"),
                order("Build F Bre", "F BRE B", "Build Fleet Brest"),
            ],
            "Germany": [
                order("Build A Ber", "A BER B", "Build Army Berlin"),
                order("Build F Kie", "F KIE B", "Build Fleet Kiel"),
            ],
            "Italy": [
                order("Build F Nap", "F NAP B", "Build Fleet Naples"),
                order("Waive", "WAIVE", "Waive a build"),
            ],
            "Russia": [
                order("Build F StP(nc)", "F STP/NC B", "Build Fleet St Petersburg (north coast)"),
                order("Build A War", "A WAR B", "Build Army Warsaw"),
            ],
            "Turkey": [order("Build A Con", "A CON B", "Build Army Constantinople")],
        },
        "Movement",
        "Spring of 1902",
    ),
    Phase(
        "S1902M",
        "Movement",
        "Spring of 1902",
        {
            "Austria": [
                order("A Bud H", "A BUD H", "Army Budapest HOLD"),
                order("A Vie S A Bud", "A VIE S A BUD", "Army Vienna SUPPORT Army Budapest"),
            ],
            "England": [
                order("F Nwg - Bar", "F NWG - BAR", "Fleet Norwegian Sea -> Barents Sea", "bounce"),
                order("F Nth H", "F NTH H", "Fleet North Sea HOLD"),
                order("A Nwy H", "A NWY H", "Army Norway HOLD"),
                order("A Lvp - Yor", "A LVP - YOR", "Army Liverpool -> Yorkshire"),
            ],
            "France": [
                order("F Bre - Eng", "F BRE - ENG", "Fleet Brest -> English Channel"),
                order("F Por - MAO", "F POR - MAO", "Fleet Portugal -> Mid-Atlantic Ocean"),
                order("A Spa H", "A SPA H", "Army Spain HOLD"),
                order("A Mar H", "A MAR H", "Army Marseilles HOLD"),
                order("A Bur H", "A BUR H", "Army Burgundy HOLD"),
            ],
            "Germany": [
                order("A Hol - Bel", "A HOL - BEL", "Army Holland -> Belgium"),
                order("A Ber - Mun", "A BER - MUN", "Army Berlin -> Munich"),
                order("F Kie - Hol", "F KIE - HOL", "Fleet Kiel -> Holland"),
                order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
                order("A Ruh H", "A RUH H", "Army Ruhr HOLD"),
            ],
            "Italy": [
                order("F Tun - Ion", "F TUN - ION", "Fleet Tunis -> Ionian Sea"),
                order("F Nap - Tys", "F NAP - TYS", "Fleet Naples -> Tyrrhenian Sea"),
                order("A Tri H", "A TRI H", "Army Trieste HOLD"),
                order("A Tyr H", "A TYR H", "Army Tyrolia HOLD"),
            ],
            "Russia": [
                order(
                    "F StP/nc - Bar",
                    "F STP/NC - BAR",
                    "Fleet St Petersburg (north coast) -> Barents Sea",
                    "bounce",
                ),
                order("A War - Ukr", "A WAR - UKR", "Army Warsaw -> Ukraine"),
                order("F Sev H", "F SEV H", "Fleet Sevastopol HOLD"),
                order("A Rum H", "A RUM H", "Army Rumania HOLD"),
                order("A Gal H", "A GAL H", "Army Galicia HOLD"),
                order("F Swe H", "F SWE H", "Fleet Sweden HOLD"),
            ],
            "Turkey": [
                order("A Bul - Gre", "A BUL - GRE", "Army Bulgaria -> Greece"),
                order("A Con - Bul", "A CON - BUL", "Army Constantinople -> Bulgaria"),
                order("A Smy - Con", "A SMY - CON", "Army Smyrna -> Constantinople"),
                order("F Bla H", "F BLA H", "Fleet Black Sea HOLD"),
            ],
        },
        "Movement",
        "Fall of 1902",
    ),
    Phase(
        "F1902M",
        "Movement",
        "Fall of 1902",
        {
            "Austria": [
                order("A Vie - Boh", "A VIE - BOH", "Army Vienna -> Bohemia"),
                order("A Bud H", "A BUD H", "Army Budapest HOLD", "dislodged"),
            ],
            "England": [
                order("F Nth H", "F NTH H", "Fleet North Sea HOLD"),
                order("F Nwg H", "F NWG H", "Fleet Norwegian Sea HOLD"),
                order("A Nwy H", "A NWY H", "Army Norway HOLD"),
                order("A Yor-Edi", "A YOR - EDI", "Army Yorkshire -> Edinburgh"),
            ],
            "France": [
                order("A Bur H", "A BUR H", "Army Burgundy HOLD", "dislodged"),
                order("F Eng H", "F ENG H", "Fleet English Channel HOLD"),
                order(
                    "F Mao - Wes",
                    "F MAO - WES",
                    "Fleet Mid-Atlantic Ocean -> Western Mediterranean",
                ),
                order("A Spa H", "A SPA H", "Army Spain HOLD"),
                order("A Mar H", "A MAR H", "Army Marseilles HOLD"),
            ],
            "Germany": [
                order("A Ruh - Bur", "A RUH - BUR", "Army Ruhr -> Burgundy"),
                order(
                    "A Mun S A Ruh - Bur",
                    "A MUN S A RUH - BUR",
                    "Army Munich SUPPORT Army Ruhr -> Burgundy",
                ),
                order("A Bel H", "A BEL H", "Army Belgium HOLD"),
                order("F Den H", "F DEN H", "Fleet Denmark HOLD"),
                order("F Hol H", "F HOL H", "Fleet Holland HOLD"),
            ],
            "Italy": [
                order("A Tri H", "A TRI H", "Army Trieste HOLD"),
                order("A Tyr H", "A TYR H", "Army Tyrolia HOLD"),
                order("F Ion H", "F ION H", "Fleet Ionian Sea HOLD"),
                order("F Tys - Tun", "F TYS - TUN", "Fleet Tyrrhenian Sea -> Tunis"),
            ],
            "Russia": [
                order("A Gal - Bud", "A GAL - BUD", "Army Galicia -> Budapest"),
                order(
                    "A Rum S A Gal - Bud",
                    "A RUM S A GAL - BUD",
                    "Army Rumania SUPPORT Army Galicia -> Budapest",
                ),
                order("A Ukr - Gal", "A UKR - GAL", "Army Ukraine -> Galicia"),
                order(
                    "F StP - Bar",
                    "F STP/NC - BAR",
                    "Fleet St Petersburg (north coast) -> Barents Sea",
                ),
                order("F Sev H", "F SEV H", "Fleet Sevastopol HOLD"),
                order("F Swe H", "F SWE H", "Fleet Sweden HOLD"),
            ],
            "Turkey": [
                order("F Bla H", "F BLA H", "Fleet Black Sea HOLD"),
                order("A Gre H", "A GRE H", "Army Greece HOLD"),
                order("A Bul H", "A BUL H", "Army Bulgaria HOLD"),
                order("A Con - Smy", "A CON - SMY", "Army Constantinople -> Smyrna"),
            ],
        },
        "Retreat",
        "Fall of 1902",
        dislodged=[
            "The Austrian Army in Budapest can retreat to Serbia or Vienna.",
            "The French Army in Burgundy can retreat to Gascony, Paris or Picardy.",
        ],
        retreat_requests={
            "Austria": ["  Army in Budapest: may retreat to Serbia or Vienna."],
            "France": ["  Army in Burgundy: may retreat to Gascony, Paris or Picardy."],
        },
    ),
    Phase(
        "F1902R",
        "Retreat",
        "Fall of 1902",
        {
            "Austria": [order("Army Budapest -> Vienna", "A BUD R VIE", "Army Budapest -> Vienna")],
            "France": [order("A Bur R Par", "A BUR R PAR", "Army Burgundy -> Paris")],
        },
        "Adjustment",
        "Winter of 1902",
        asks_first={"France": "Army Burgundy"},
        ownership=[
            "Austria: Vienna.",
            "England: Edinburgh, Liverpool, London and Norway.",
            "France:  Brest, Marseilles, Paris, Portugal and Spain.",
            "Germany: Belgium, Berlin, Denmark, Holland, Kiel and Munich.",
            "Italy:   Naples, Rome, Trieste, Tunis and Venice.",
            "Russia:  Budapest, Moscow, Rumania, Sevastopol, St Petersburg, Sweden and Warsaw.",
            "Turkey:  Ankara, Bulgaria, Constantinople, Greece and Smyrna.",
            "",
            "Austria:  1 supply centre,  2 units: removes 1 unit.",
            "England:  4 supply centres,  4 units: no change.",
            "France:   5 supply centres,  5 units: no change.",
            "Germany:  6 supply centres,  5 units: builds 1 unit.",
            "Italy:    5 supply centres,  4 units: builds 1 unit.",
            "Russia:   7 supply centres,  6 units: builds 1 unit.",
            "Turkey:   5 supply centres,  4 units: builds 1 unit.",
        ],
        build_requests={
            "Austria": ("must remove 1 unit", ["Army Bohemia", "Army Vienna"]),
            "Germany": ("may build 1 unit", ["Berlin", "Kiel"]),
            "Italy": ("may build 1 unit", ["Naples", "Rome", "Venice"]),
            "Russia": ("may build 1 unit", ["Moscow", "St Petersburg", "Warsaw"]),
            "Turkey": ("may build 1 unit", ["Ankara", "Constantinople"]),
        },
    ),
    Phase(
        "W1902A",
        "Adjustment",
        "Winter of 1902",
        {
            "Germany": [order("build a berlin", "A BER B", "Build Army Berlin")],
            "Italy": [order("Build A Rom", "A ROM B", "Build Army Rome")],
            "Russia": [order("Build A Mos", "A MOS B", "Build Army Moscow")],
            "Turkey": [order("Build F Ank", "F ANK B", "Build Fleet Ankara")],
        },
        "Movement",
        "Spring of 1903",
        # Austria sent nothing: civil disorder removes the unit farthest from home
        # (Bohemia is one move from Vienna, the army in Vienna none); the `disband` tag
        # marks a removal the judge made (tests/datc/README.md).
        extra_results=["Austria: Remove Army Bohemia.  (*civil disorder*)"],
        master_process=True,
        civil_disorder="In civil disorder (no orders received): Austria.",
    ),
]

FINAL_UNITS = {  # the board at the start of Spring 1903
    "AUSTRIA": {"A VIE"},
    "ENGLAND": {"F NTH", "F NWG", "A NWY", "A EDI"},
    "FRANCE": {"F ENG", "F WES", "A SPA", "A MAR", "A PAR"},
    "GERMANY": {"F DEN", "A BEL", "A BUR", "A MUN", "F HOL", "A BER"},
    "ITALY": {"A TRI", "A TYR", "F ION", "F TUN", "A ROM"},
    "RUSSIA": {"F SWE", "A RUM", "F SEV", "A BUD", "A GAL", "F BAR", "A MOS"},
    "TURKEY": {"F BLA", "A GRE", "A BUL", "A SMY", "F ANK"},
}


# -- the clock, the mail and the mailboxes --------------------------------------------


def lines_of(body: str) -> list[str]:
    return body.split("\n")


# -- the servers and the judge ----------------------------------------------------------


# -- checking the mails -------------------------------------------------------------------


def check_ack(
    ack: Mail,
    subject: str,
    power: str,
    phase: Phase,
    orders: list[tuple[str, str, str, str]],
    deadline: str,
    processed: bool,
) -> None:
    assert ack.subject == f"Re: {prefix(GAME, phase.code)} {subject}"  # no [Error Flag]
    assert "ERROR" not in ack.body
    assert has_lines(
        ack.body,
        [
            f"Line 1: SIGNON {INITIAL[power]}{GAME} ****",  # passwords are never echoed
            f"Signed on to {GAME} as {power}.",
            "",
            f"{power} in {GAME}, {phase.kind} for {phase.title}:",
            *(canonical for _, canonical, _, _ in orders),
            "Orders on file now:",
            *(f"  {words}" for _, _, words, _ in orders),
            f"WAIT is not set. Deadline: {deadline}.",
        ],
    ), ack.body
    assert "Still without orders" not in ack.body
    assert "still to order" not in ack.body
    done = f"{GAME} has been processed; the results are mailed to everyone."
    assert (done in flat(ack.body)) == processed, ack.body


def check_results(results: Mail, phase: Phase, deadline: datetime, turn: int) -> None:
    kind = phase.kind
    assert results.subject == f"{prefix(GAME, phase.code)} Results"
    assert results.body.startswith(
        f"\n:: Judge: E2E  Game: War1  Variant: Standard\n:: Deadline: {njudge_phase(phase.code)} "
    ), results.body
    # The board after the phase, drawn by the daemon's outbox sender, inline, named in the text.
    assert results.picture is not None, results.body
    name, png = results.picture
    assert name == f"board-{phase.code}.png" and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert f"the attached picture {name}." in flat(results.body), results.body
    lines = [
        line for line in lines_of(without_header(results.body)) if not line.startswith("Rules: ")
    ]
    space = " " if kind == "Movement" else "  "  # njudge's: two spaces after the others
    assert lines[:2] == [
        f"Game: {GAME}   Variant: Standard Diplomacy",
        f"{kind} results for {phase.title}.{space}({GAME}.{turn:03d})",
    ]
    # Every order with its outcome: the orders section runs up to the first of the
    # dislodged units, the ownership or the next phase.
    ends = [
        i
        for i, line in enumerate(lines)
        if line in ("The following units were dislodged:", "Ownership of supply centres:")
        or line.startswith((f"The next phase of '{GAME}'", "In civil disorder", "The board after"))
    ]
    section = lines[2 : ends[0]]
    got = [line for line in section if line]
    expected = [
        f"{power}: {words}." + (f"  (*{tag}*)" if tag else "")
        for power, orders in phase.orders.items()
        for _, _, words, tag in orders
    ] + phase.extra_results
    assert Counter(got) == Counter(expected), "\n".join(section)
    # Each power's lines together, the powers in the map's order.
    powers_in_order = [line.split(":")[0] for line in got]
    assert powers_in_order == sorted(powers_in_order, key=POWERS.index)

    text = results.body
    if phase.civil_disorder:
        assert f"\n\n{phase.civil_disorder}\n" in text, text
    else:
        assert "civil disorder" not in text
    if phase.dislodged:
        block = "\n".join(["The following units were dislodged:", *phase.dislodged])
        assert f"\n{block}\n\n" in text, text
    else:
        assert "dislodged:" not in text
    if phase.ownership:
        block = "\n".join(["Ownership of supply centres:", *phase.ownership])
        assert f"\n{block}\n\n" in text, text
    else:
        assert "Ownership" not in text
    plural = {"Movement": "Movement", "Retreat": "Retreats", "Adjustment": "Adjustments"}
    assert flat(text).endswith(
        f"The board after {phase.kind} for {phase.title}, with its orders drawn, is in "
        f"the attached picture {name}. Key: arrow move (dashed: convoyed), dashes support, "
        "dots convoy, ring hold, red X failed, red ring dislodged, struck ring removed, "
        "dashed ring built. "
        f"The next phase of '{GAME}' will be {plural[phase.next_kind]} for {phase.next_title}. "
        f"The deadline for orders will be {ptime(deadline, UTC)}."
    ), text


def check_retreat_request(request: Mail, power: str, options: list[str], deadline: str) -> None:
    short = {"Trieste": "F TRI", "Budapest": "A BUD", "Burgundy": "A BUR"}[
        options[0].split(" in ")[1].split(":")[0]
    ]
    assert has_lines(request.body, options), request.body
    words = flat(request.body)
    assert f"{power} has {len(options)} dislodged unit" in words, request.body
    assert f'"{short} R <place>" to retreat' in words, request.body
    assert f'"{short} D" to disband' in words, request.body
    assert words.endswith(f"The deadline for retreats is {deadline}."), request.body
    assert "Build" not in words and "remove" not in words


def check_build_request(
    request: Mail, power: str, what: str, names: list[str], deadline: str
) -> None:
    assert request.subject.startswith(f"E2E:{GAME} - F19")
    assert f"B {power} {what} (Winter of " in request.subject
    n = int(what.split()[2])
    plural = "s" if n != 1 else ""
    words = flat(request.body)
    if what.startswith("may build"):
        assert words.startswith(f"{power} may build {n} unit{plural} in {GAME}."), request.body
        assert f"Home centres free to build in: {', '.join(names)}." in words, request.body
        assert '"Build A Par"' in words and '"Waive"' in words, request.body
    else:
        assert words.startswith(f"{power} must remove {n} unit{plural} in {GAME}."), request.body
        units = re.search(r"Your units: (.*?)\.", words)
        assert units and sorted(units.group(1).split(", ")) == sorted(names), request.body
        assert '"Remove A Par"' in words and "civil-disorder rule" in words, request.body
    assert words.endswith(f"The deadline is {deadline}."), request.body


# -- the game -----------------------------------------------------------------------------


def test_two_years_of_a_game_by_mail(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    clock = Clock(START)
    boxes = Mailboxes(sink, tmp_path / "judge.db", dovecot)
    sent = asked = 0
    wrong_answers: list[str] = []
    expected_order_sets: list[tuple[str, str, list[str]]] = []

    def deliver(batch: list[bytes]) -> None:
        nonlocal sent
        for raw in batch:  # as an MTA delivers: one after another into the INBOX
            dovecot.append(raw)
        sent += len(batch)

    with judge(make_config(tmp_path, dovecot, sink), clock):
        # 1. The master creates the game.
        deliver([mail(MASTER, "new game", [f"CREATE ?{GAME} {MASTER_PASSWORD}"], clock.now)])
        new_game = f"Re: {prefix(GAME, 'S1901M')} new game"
        ack = one(boxes.new({MASTER: [new_game]})[MASTER], new_game)
        assert f"Line 1: CREATE ?{GAME} ****\n" in ack.body
        words = flat(ack.body)
        assert f"Game {GAME} (Standard Diplomacy) is created and you are its master." in words
        assert f"Players join with: SIGNON ?{GAME} password (7 are needed)" in words

        # 2. Seven players sign on, each with a preference list; the last one fills it.
        deliver(
            [
                mail(address, "joining", [f"SIGNON ?{GAME} {password}", preference], clock.now)
                for address, password, preference, _ in SIGNUPS
            ]
        )
        first_deadline = deadline_text(clock.now + timedelta(hours=48))
        assert first_deadline == "Wednesday 11 March 2026 12:00 UTC"
        started = f"{prefix(GAME, 'S1901M')} Game Starting"
        joining = f"Re: {prefix(GAME, 'S1901M')} joining"
        new = boxes.new({MASTER: [started], **{a: [joining, started] for a, _, _, _ in SIGNUPS}})
        for k, (address, _password, preference, power) in enumerate(SIGNUPS, start=1):
            ack = one(new[address], joining)
            assert "ERROR" not in ack.body
            assert f"Line 1: SIGNON ?{GAME} ****\n" in ack.body
            words = flat(ack.body)
            assert f"You have joined {GAME}: {k} of 7 players." in words, ack.body
            assert ("The game starts when it is full." in words) == (k < 7), ack.body
            assert f"\nLine 2: {preference}\n" in ack.body
            assert f"  Your preference in {GAME}: {PREFERENCE_SHOWN[power]}.\n" in ack.body
            started_now = f"The game {GAME} is full and has started"
            assert (started_now in words) == (k == 7), ack.body
            start = one(new[address], started)
            assert start.in_reply_to is None
            assert start.body.startswith(
                "\n:: Judge: E2E  Game: War1  Variant: Standard\n"
                f":: Deadline: S1901M {ptime(clock.now + timedelta(hours=48), UTC)}  \n\n"
            ), start.body
            words = flat(without_header(start.body))
            assert words.startswith(f"Game {GAME} (Standard Diplomacy) has started."), start.body
            assert (
                f"You are {power}. Sign on with: SIGNON {INITIAL[power]}{GAME} your-password"
            ) in words
            assert has_lines(start.body, ["The opening position:", *OPENING]), start.body
            assert start.picture is not None and start.picture[0] == "board-S1901M.png"
            assert start.picture[1].startswith(b"\x89PNG\r\n\x1a\n")
            assert "The board is in the attached picture board-S1901M.png." in words
            assert words.endswith(
                "The first phase is Movement for Spring of 1901. "
                f"The deadline for orders is {first_deadline}."
            ), start.body
        start = one(new[MASTER], started)
        words = flat(without_header(start.body))
        assert f"You are the master. Sign on with: SIGNON M{GAME} your-password" in words
        assert "You are Austria" not in words
        assert has_lines(start.body, ["The opening position:", *OPENING]), start.body
        assert f"The deadline for orders is {first_deadline}." in words

        # 3. Two years of orders, phase by phase.
        deadline = first_deadline
        for turn, phase in enumerate(PHASES, start=1):  # every phase is played: none skipped
            clock.now += STEP
            next_moment = clock.now + timedelta(hours=HOURS[phase.next_kind])
            next_deadline = deadline_text(next_moment)
            now_prefix = prefix(GAME, phase.code)
            next_prefix = prefix(GAME, code_of(phase.next_kind, phase.next_title))
            for power, unit in phase.asks_first.items():
                address, password = PLAYER[power]
                subject = f"{phase.code}: what do I have to order?"
                deliver(
                    [
                        mail(
                            address,
                            subject,
                            [f"SIGNON {INITIAL[power]}{GAME} {password}"],
                            clock.now,
                        )
                    ]
                )
                asked += 1
                asked_subject = f"Re: {now_prefix} {subject}"
                ack = one(boxes.new({address: [asked_subject]})[address], asked_subject)
                assert "ERROR" not in ack.body
                wanted = [
                    f"{power} in {GAME}, {phase.kind} for {phase.title}:",
                    "No orders on file.",
                    f"Still without orders: {unit}.",
                    f"WAIT is not set. Deadline: {deadline}.",
                ]
                if not has_lines(ack.body, wanted):  # checked at the end, after the rest
                    wrong_answers.append(f"{phase.code}, {power}: {ack.body!r}")
            batch, subjects = [], {}
            for power, orders in phase.orders.items():
                address, password = PLAYER[power]
                subjects[power] = f"{phase.code} orders for {power}"
                body = [f"SIGNON {INITIAL[power]}{GAME} {password}"]
                body += [given for given, _, _, _ in orders]
                if power == "Russia":
                    body += ["", "-- ", "Sent from my phone"]  # a signature ends the commands
                batch.append(mail(address, subjects[power], body, clock.now))
                expected_order_sets.append((phase.code, power.upper(), [o[0] for o in orders]))
            if phase.master_process:
                batch.append(
                    mail(
                        MASTER,
                        "process it",
                        [f"SIGNON M{GAME} {MASTER_PASSWORD}", "PROCESS"],
                        clock.now,
                    )
                )
            deliver(batch)

            results_subject = f"{now_prefix} Results"
            expected = {MASTER: [results_subject]}
            if phase.master_process:
                # PROCESS moved the game on: the answer's header shows where it left it.
                expected[MASTER].append(f"Re: {next_prefix} process it")
            for power in POWERS:
                expected[ADDRESS[power]] = [results_subject]
                if power in phase.orders:
                    expected[ADDRESS[power]].append(f"Re: {now_prefix} {subjects[power]}")
                if power in phase.retreat_requests:
                    expected[ADDRESS[power]].append(
                        f"{next_prefix} {power} must retreat ({phase.next_title})"
                    )
                if power in phase.build_requests:
                    what = phase.build_requests[power][0]
                    expected[ADDRESS[power]].append(
                        f"{next_prefix} {power} {what} ({phase.next_title})"
                    )
            new = boxes.new(expected)

            # The results: one mail to each player and to the master (njudge's rule: no
            # mail shows one player's address to another), all the same text.
            results = one(new[MASTER], results_subject)
            assert results.to == (MASTER,)
            check_results(results, phase, next_moment, turn)
            for power in POWERS:
                copy = one(new[ADDRESS[power]], results_subject)
                assert copy.to == (ADDRESS[power],) and copy.body == results.body

            # The acknowledgements: the last order mail is the one that made the phase
            # complete, and (unless the master processes) its answer says so.
            last = list(phase.orders)[-1]
            for power, orders in phase.orders.items():
                ack = one(new[ADDRESS[power]], f"Re: {now_prefix} {subjects[power]}")
                processed = power == last and not phase.master_process
                check_ack(ack, subjects[power], power, phase, orders, deadline, processed)
            if phase.master_process:
                ack = one(new[MASTER], f"Re: {next_prefix} process it")
                assert "ERROR" not in ack.body
                assert has_lines(
                    ack.body,
                    [
                        f"Line 1: SIGNON M{GAME} ****",
                        f"Signed on to {GAME} as master.",
                    ],
                ), ack.body
                # The answer ends with the time left to the new phase's deadline.
                assert (
                    f"Line 2: PROCESS {GAME} has been processed; the results are mailed to"
                    " everyone. Time to deadline: "
                ) in flat(ack.body), ack.body

            # Retreat and build requests: to the powers concerned, and only to them.
            for power, options in phase.retreat_requests.items():
                request = one(
                    new[ADDRESS[power]], f"{next_prefix} {power} must retreat ({phase.next_title})"
                )
                assert request.to == (ADDRESS[power],)
                check_retreat_request(request, power, options, next_deadline)
            for power, (what, names) in phase.build_requests.items():
                request = one(
                    new[ADDRESS[power]], f"{next_prefix} {power} {what} ({phase.next_title})"
                )
                assert request.to == (ADDRESS[power],)
                check_build_request(request, power, what, names, next_deadline)
            deadline = next_deadline

        # Nothing more comes.
        boxes.settled(tmp_path / "judge.db")
        boxes.new({})
        inbox_left = dovecot.messages("INBOX")
        processed = dovecot.messages("processed")

    # 5. The INBOX is empty, every mail was moved to `processed` and handled.
    assert inbox_left == []
    assert len(processed) == sent == 1 + 7 + asked + len(expected_order_sets) + 1
    db = open_db(tmp_path / "judge.db")
    states = [r["state"] for r in db.query("SELECT state FROM inbound ORDER BY id")]
    assert states == ["handled"] * sent

    # Every order set as received, none with an error.
    rows = list(db.query("SELECT phase, power, mode, lines FROM order_sets ORDER BY id"))
    assert [
        (r["phase"], r["power"], [x["given"] for x in json.loads(r["lines"])]) for r in rows
    ] == [(code, power, given) for code, power, given in expected_order_sets]
    assert all(r["mode"] == "replace" for r in rows)
    assert all(x["error"] is None for r in rows for x in json.loads(r["lines"]))

    # Each phase's results, in the canonical form, and the board after two years.
    phases = {r["phase"]: r for r in db.query("SELECT * FROM phases ORDER BY id")}
    assert list(phases) == [p.code for p in PHASES] + ["S1903M"]
    for phase in PHASES:
        row = phases[phase.code]
        assert row["processed_at"] is not None
        outcome = json.loads(row["results"])
        for power, orders in phase.orders.items():
            got = sorted((r["order"], r["result"]) for r in outcome["results"][power.upper()])
            want = sorted((canonical, tag or "ok") for _, canonical, _, tag in orders)
            assert got == want, (phase.code, power, got)
    cd = json.loads(phases["W1902A"]["results"])["results"]["AUSTRIA"]
    assert [(r["order"], r["given"], r["result"]) for r in cd] == [("A BOH D", "", "disband")]
    assert phases["S1903M"]["processed_at"] is None
    final = json.loads(phases["S1903M"]["position"])
    assert {p: set(units) for p, units in final["units"].items() if units} == FINAL_UNITS

    # The answers to "what do I have to order?" named the unit, and each player got
    # exactly the mails above, nothing else.
    problems = [f"answer not naming the unit to order: {a}" for a in wrong_answers]
    problems += [f"mail nobody expected: {m}" for m in boxes.unexpected]
    assert problems == [], "\n".join(problems)
