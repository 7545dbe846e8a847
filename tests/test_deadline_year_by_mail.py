"""A whole game year on short deadlines, by mail, with one player who never orders.

The real mail path: a private Dovecot holds the judge's INBOX (mail is appended as an
MTA delivers it), the real daemon (`run_forever`, IMAP IDLE in, SMTP out) reads it, and
an aiosmtpd peer plays every player's mailbox. The judge's clock is a function the test
sets; nothing sleeps to pass a deadline: the daemon's loop wakes at least once a second
and does what is due by that clock. The clock is kept ahead of the real one, so the
daemon's APScheduler timers (which run on real time) never fire during the test.

The script: the master creates ?war1 and sets short phases (moves 2 hours, retreats and
adjustments 1 hour, grace 1 hour, reminders 1 hour before the deadline); seven players
join with different first choices; six of them order every phase as players write
orders, and Turkey never sends anything.

- Spring 1901: Vienna and Warsaw bounce in Galicia; Budapest walks into Rumania; Russia
  sails into the Black Sea. Turkey gets the reminder at the deadline minus an hour (and
  nobody else does); at the deadline Turkey gets the late notice, everyone else and the
  master "waiting for Turkey"; at the end of grace the phase is processed with Turkey
  in civil disorder, its three units holding; Turkey is then abandoned (its player is
  told, and everyone else), and stays so (nobody is told again in Fall 1901).
- Fall 1901: the same cycle. Italy takes Trieste with support and Russia takes Rumania
  with support, dislodging two Austrian units; England convoys into Norway, Germany
  takes Holland and Belgium, France Portugal, Russia Sweden.
- Fall 1901 retreats: Austria retreats both units (Turkey has nothing to order, so the
  phase is processed as soon as Austria's orders are in).
- Winter 1901: Turkey (3 centres, 3 units: no change; none of its units can be reached
  in 1901, so it can neither lose a centre nor gain one) has nothing to order and gets
  no build request; Austria (2 centres, 3 units) removes a fleet, the others build and
  Italy waives one build. Everything is in, so the phase is processed at once.
- The game stands at Spring 1902 with the position worked out by hand below.

Every mail is checked by subject and recipients (a mail nobody expected fails the test)
and the key lines of the bodies are checked; the database is checked at the end.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mail_e2e import Clock, Mail, Mailboxes, flat, mail, make_config, one, without_header
from mail_e2e import deadline_text as shown
from servers import running_judge as judge

from judge.game.njudge_lines import njudge_phase, ptime
from judge.store.db import open_db

GAME = "war1"
MASTER = "gm@example.org"
TAG = "[YEAR]"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
ADDRESS = {p: f"{p.lower()}@example.org" for p in POWERS}
PASSWORD = {p: f"pw-{p.lower()}" for p in POWERS}
ORDERING = POWERS[:-1]  # Turkey never sends anything
START = datetime(2030, 3, 11, 9, 0, tzinfo=UTC)  # a Monday, ahead of the real clock
QUIET = 1.5  # seconds to be sure the daemon's loop (one second at most) saw the clock

ORDERS = {
    "S1901M": {
        "Austria": ["A Vie-Gal", "A Bud - Rum", "F Tri H"],
        "England": ["F Lon-Nth", "F Edi - Nwg", "A Lvp - Yor"],
        "France": ["F Bre - Mao", "A Par-Bur", "A Mar - Spa"],
        "Germany": ["F Kie - Den", "A Ber-Kie", "A Mun - Ruh"],
        "Italy": ["F Nap - Ion", "A Ven-Tyr", "A Rom - Ven"],
        "Russia": ["F StP(sc) - Bot", "A Mos-Ukr", "A War - Gal", "F Sev - Bla"],
    },
    "F1901M": {
        "Austria": ["A Vie H", "A Rum H", "F Tri Holds"],
        "England": ["F Nth C A Yor - Nwy", "A Yor-Nwy", "F Nwg H"],
        "France": ["F Mao - Por", "A Bur H", "A Spa H"],
        "Germany": ["F Den H", "A Kie - Hol", "A Ruh-Bel"],
        "Italy": ["A Ven - Tri", "A Tyr S A Ven - Tri", "F Ion - Tun"],
        "Russia": ["A Ukr - Rum", "F Bla S A Ukr - Rum", "F Bot - Swe", "A War H"],
    },
    "F1901R": {"Austria": ["A Rum - Bud", "F Tri-Alb"]},
    "W1901A": {
        "Austria": ["Remove F Alb"],
        "England": ["Build A Lvp"],
        "France": ["Build F Bre", "Build A Par"],
        "Germany": ["Build A Ber", "Build F Kie", "build a mun"],
        "Italy": ["Build F Nap", "Waive"],
        "Russia": ["Build A Mos", "Build F Sev"],
    },
}

TURKEY_HOLDS = [  # the judge's own orders for a power without any: its units in order
    "Turkey: Army Constantinople HOLD.",
    "Turkey: Army Smyrna HOLD.",
    "Turkey: Fleet Ankara HOLD.",
]
CIVIL_DISORDER = "In civil disorder (no orders received): Turkey."

RESULTS = {  # each phase's orders section, line by line, powers in the map's order
    "S1901M": [
        "Austria: Army Vienna -> Galicia.  (*bounce*)",
        "Austria: Army Budapest -> Rumania.",
        "Austria: Fleet Trieste HOLD.",
        "England: Fleet London -> North Sea.",
        "England: Fleet Edinburgh -> Norwegian Sea.",
        "England: Army Liverpool -> Yorkshire.",
        "France: Fleet Brest -> Mid-Atlantic Ocean.",
        "France: Army Paris -> Burgundy.",
        "France: Army Marseilles -> Spain.",
        "Germany: Fleet Kiel -> Denmark.",
        "Germany: Army Berlin -> Kiel.",
        "Germany: Army Munich -> Ruhr.",
        "Italy: Fleet Naples -> Ionian Sea.",
        "Italy: Army Venice -> Tyrolia.",
        "Italy: Army Rome -> Venice.",
        "Russia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
        "Russia: Army Moscow -> Ukraine.",
        "Russia: Army Warsaw -> Galicia.  (*bounce*)",
        "Russia: Fleet Sevastopol -> Black Sea.",
        *TURKEY_HOLDS,
    ],
    "F1901M": [
        "Austria: Army Vienna HOLD.",
        "Austria: Army Rumania HOLD.  (*dislodged*)",
        "Austria: Fleet Trieste HOLD.  (*dislodged*)",
        "England: Fleet North Sea CONVOY Army Yorkshire -> Norway.",
        "England: Army Yorkshire -> Norway.",
        "England: Fleet Norwegian Sea HOLD.",
        "France: Fleet Mid-Atlantic Ocean -> Portugal.",
        "France: Army Burgundy HOLD.",
        "France: Army Spain HOLD.",
        "Germany: Fleet Denmark HOLD.",
        "Germany: Army Kiel -> Holland.",
        "Germany: Army Ruhr -> Belgium.",
        "Italy: Army Venice -> Trieste.",
        "Italy: Army Tyrolia SUPPORT Army Venice -> Trieste.",
        "Italy: Fleet Ionian Sea -> Tunis.",
        "Russia: Army Ukraine -> Rumania.",
        "Russia: Fleet Black Sea SUPPORT Army Ukraine -> Rumania.",
        "Russia: Fleet Gulf of Bothnia -> Sweden.",
        "Russia: Army Warsaw HOLD.",
        *TURKEY_HOLDS,
    ],
    "F1901R": [
        "Austria: Army Rumania -> Budapest.",
        "Austria: Fleet Trieste -> Albania.",
    ],
    "W1901A": [
        "Austria: Remove Fleet Albania.",
        "England: Build Army Liverpool.",
        "France: Build Fleet Brest.",
        "France: Build Army Paris.",
        "Germany: Build Army Berlin.",
        "Germany: Build Fleet Kiel.",
        "Germany: Build Army Munich.",
        "Italy: Build Fleet Naples.",
        "Italy: Waive a build.",
        "Russia: Build Army Moscow.",
        "Russia: Build Fleet Sevastopol.",
    ],
}

RUMANIA_RETREATS = "Budapest, Bulgaria, Galicia, Serbia or Sevastopol"
DISLODGED = [  # after Fall 1901 (Ukraine and Venice are where the attacks came from)
    f"The Austrian Army in Rumania can retreat to {RUMANIA_RETREATS}.",
    "The Austrian Fleet in Trieste can retreat to Adriatic Sea or Albania.",
]
OWNERSHIP = [  # after the Fall 1901 retreats
    "Ownership of supply centres:",
    "Austria: Budapest and Vienna.",
    "England: Edinburgh, Liverpool, London and Norway.",
    "France:  Brest, Marseilles, Paris, Portugal and Spain.",
    "Germany: Belgium, Berlin, Denmark, Holland, Kiel and Munich.",
    "Italy:   Naples, Rome, Trieste, Tunis and Venice.",
    "Russia:  Moscow, Rumania, Sevastopol, St Petersburg, Sweden and Warsaw.",
    "Turkey:  Ankara, Constantinople and Smyrna.",
    "",
    "Austria:  2 supply centres,  3 units: removes 1 unit.",
    "England:  4 supply centres,  3 units: builds 1 unit.",
    "France:   5 supply centres,  3 units: builds 2 units.",
    "Germany:  6 supply centres,  3 units: builds 3 units.",
    "Italy:    5 supply centres,  3 units: builds 2 units.",
    "Russia:   6 supply centres,  4 units: builds 2 units.",
    "Turkey:   3 supply centres,  3 units: no change.",
]
BUILD_REQUESTS = {  # subject ending -> the line that names the places or units
    "Austria": ("must remove 1 unit (Winter of 1901)", None),
    "England": ("may build 1 unit (Winter of 1901)", "Edinburgh, Liverpool, London"),
    "France": ("may build 2 units (Winter of 1901)", "Brest, Marseilles, Paris"),
    "Germany": ("may build 3 units (Winter of 1901)", "Berlin, Kiel, Munich"),
    "Italy": ("may build 2 units (Winter of 1901)", "Naples, Rome, Venice"),
    "Russia": ("may build 2 units (Winter of 1901)", "Moscow, Sevastopol, St Petersburg"),
}
SPRING_1902 = {  # the board at the start of Spring 1902
    "AUSTRIA": {"A VIE", "A BUD"},
    "ENGLAND": {"F NTH", "F NWG", "A NWY", "A LVP"},
    "FRANCE": {"F POR", "A BUR", "A SPA", "F BRE", "A PAR"},
    "GERMANY": {"F DEN", "A HOL", "A BEL", "A BER", "F KIE", "A MUN"},
    "ITALY": {"A TRI", "A TYR", "F TUN", "F NAP"},
    "RUSSIA": {"F SWE", "A RUM", "F BLA", "A WAR", "A MOS", "F SEV"},
    "TURKEY": {"F ANK", "A CON", "A SMY"},
}


# -- checking ---------------------------------------------------------------------------


def subject(text: str, code: str = "S1901M") -> str:
    """njudge's subject of a mail about the game in phase `code`."""
    return f"YEAR:{GAME} - {njudge_phase(code)} {text}"


def answer(text: str, code: str = "S1901M") -> str:
    """njudge's subject of the answer to a signed-on sender's mail `text`."""
    return f"Re: {subject(text, code)}"


TURN = {"S1901M": 1, "F1901M": 2, "F1901R": 3, "W1901A": 4}  # every phase played


def everyone(subject_: str) -> dict[str, list[str]]:
    return {a: [subject_] for a in [MASTER, *ADDRESS.values()]}


def orders_section(body: str) -> list[str]:
    """The results' order lines: from the third line to the first line after them."""
    lines = body.split("\n")
    out = []
    for line in lines[2:]:
        if line.startswith(
            ("In civil disorder", "The following units", "Ownership", "The next", "The board")
        ):
            break
        if line:
            out.append(line)
    return out


def check_results(
    results: Mail, kind: str, title: str, code: str, next_phase: str, deadline: datetime
) -> None:
    assert results.subject == subject("Results", code)
    assert results.to == (MASTER,)  # one mail to each
    assert results.body.startswith(
        f"\n:: Judge: YEAR  Game: War1  Variant: Standard\n:: Deadline: {njudge_phase(code)} "
    )
    text = without_header(results.body)
    body = "\n".join(x for x in text.split("\n") if not x.startswith("Rules: "))
    lines = body.split("\n")
    space = " " if kind == "Movement" else "  "
    assert lines[:2] == [
        f"Game: {GAME}   Variant: Standard Diplomacy",
        f"{kind} results for {title}.{space}({GAME}.{TURN[code]:03d})",
    ]
    assert orders_section(body) == RESULTS[code], results.body
    kind_of = {"Movement": "Movement", "Retreat": "Retreats", "Adjustment": "Adjustments"}
    next_kind, next_title = next_phase.split(" for ")
    assert flat(results.body).endswith(
        f"The board after {kind} for {title}, with its orders drawn, is in the attached picture "
        f"board-{code}.png. Key: arrow move (dashed: convoyed), dashes support, dots convoy, "
        "ring hold, red X failed, red ring dislodged, struck ring removed, dashed ring built. "
        f"The next phase of '{GAME}' will be {kind_of[next_kind]} for "
        f"{next_title}. The deadline for orders will be {ptime(deadline, UTC)}."
    ), results.body


def check_acks(new: dict[str, list[Mail]], code: str, deadline: datetime) -> None:
    for power, orders in ORDERS[code].items():
        ack = one(new[ADDRESS[power]], answer(f"{code} orders", code))
        assert "ERROR" not in ack.body, ack.body
        assert f"Signed on to {GAME} as {power}." in ack.body
        assert "Still without orders" not in ack.body and "still to order" not in ack.body
        assert f"WAIT is not set. Deadline: {shown(deadline)}." in ack.body
        on_file = ack.body.split("Orders on file now:\n")[1].split("  WAIT")[0]
        assert len(on_file.strip().split("\n")) == len(orders), ack.body


# -- the year -------------------------------------------------------------------------------


def test_a_year_on_short_deadlines_with_turkey_never_ordering(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    clock = Clock(START)
    boxes = Mailboxes(sink, tmp_path / "judge.db", dovecot)
    sent = 0

    def deliver(*raws: bytes) -> None:
        nonlocal sent
        for raw in raws:
            dovecot.append(raw)
        sent += len(raws)

    def send_orders(code: str) -> dict[str, list[Mail]]:
        deliver(
            *(
                mail(
                    ADDRESS[p],
                    f"{code} orders",
                    [f"SIGNON {p[0]}{GAME} {PASSWORD[p]}", *lines],
                    clock.now,
                )
                for p, lines in ORDERS[code].items()
            )
        )
        return {ADDRESS[p]: [answer(f"{code} orders", code)] for p in ORDERS[code]}

    def at(moment: datetime) -> None:
        clock.now = moment

    def deadline_cycle(deadline: datetime, title: str, code: str) -> None:
        """A movement phase Turkey ignores, from its reminder to the end of its grace (the
        clock is left there; the caller checks what the processing sent)."""
        grace_end = deadline + timedelta(hours=1)
        reminded = subject(f"reminder, Turkey's orders are due by {shown(deadline)}", code)
        at(deadline - timedelta(hours=1, minutes=1))
        boxes.quiet(QUIET)
        # The reminder: an hour before the deadline, to Turkey alone.
        at(deadline - timedelta(hours=1))
        reminder = one(boxes.expect({ADDRESS["Turkey"]: [reminded]})[ADDRESS["Turkey"]], reminded)
        assert reminder.to == (ADDRESS["Turkey"],)
        words = flat(reminder.body)
        assert f"orders in {GAME} for Movement, {title} are not complete" in words, words
        assert "Still without orders: Army Constantinople, Army Smyrna, Fleet Ankara." in words
        at(deadline - timedelta(minutes=1))
        boxes.quiet(QUIET)  # reminded once
        # The deadline: Turkey is late, the others (and the master) wait for Turkey.
        at(deadline)
        # njudge's subject, the same to the late power and to those who wait for it
        late = waiting = subject("Late Notice: Turkey", code)
        new = boxes.expect(
            {
                ADDRESS["Turkey"]: [late],
                MASTER: [waiting],
                **{ADDRESS[p]: [waiting] for p in ORDERING},
            }
        )
        notice = one(new[ADDRESS["Turkey"]], late)
        assert notice.to == (ADDRESS["Turkey"],)
        words = flat(notice.body)
        assert (
            f"The deadline for {GAME} (Movement, {title}) was {shown(deadline)}, and Turkey's "
            "orders are not complete."
        ) in words, words
        assert "Still without orders: Army Constantinople, Army Smyrna, Fleet Ankara." in words
        assert f"Please send them before {shown(grace_end)}." in words, words
        assert "a power with no orders at all is in civil disorder" in words, words
        notice = one(new[MASTER], waiting)
        assert notice.to == (MASTER,)  # one mail to each
        words = flat(notice.body)
        assert "The judge is waiting for orders from Turkey." in words, words
        assert f"processed at the latest at {shown(grace_end)}." in words, words
        at(grace_end - timedelta(minutes=1))
        boxes.quiet(QUIET)  # told once; grace is not over
        at(grace_end)

    # The master creates the game and sets short phases in the same mail. It is in the
    # INBOX before the judge starts, so the judge's first pass fetches it: a mail appended
    # while a pass runs (after its SEARCH, before IDLE) waits for the next IDLE renewal,
    # because the EXISTS the server reports during the pass is not looked at.
    deliver(
        mail(
            MASTER,
            "new game",
            [
                f"CREATE ?{GAME} masterpw",
                "SET MOVE LENGTH 2h",
                "SET RETREAT LENGTH 1h",
                "SET ADJUST LENGTH 1h",
                "SET GRACE 1h",
                "SET REMINDER 1h",
            ],
            clock.now,
        )
    )
    with judge(make_config(tmp_path, dovecot, sink, name=TAG.strip("[]")), clock):
        ack = boxes.expect({MASTER: [answer("new game")]})[MASTER][0]
        assert "ERROR" not in ack.body, ack.body
        for line in [
            "move length is now 2 hours",
            "retreat length is now 1 hour",
            "adjust length is now 1 hour",
            "grace is now 1 hour",
            "reminder is now 1 hour",
        ]:
            assert f"  {GAME}: {line}.\n" in ack.body, ack.body

        # Seven players join, each with a different first choice.
        at(START + timedelta(minutes=5))
        deliver(
            *(
                mail(
                    ADDRESS[p],
                    "joining",
                    [f"SIGNON ?{GAME} {PASSWORD[p]}", f"SET PREFERENCE {p[0]}"],
                    clock.now,
                )
                for p in POWERS
            )
        )
        started = subject("Game Starting")
        new = boxes.expect(
            {MASTER: [started], **{ADDRESS[p]: [answer("joining"), started] for p in POWERS}}
        )
        deadline = clock.now + timedelta(hours=2)
        assert shown(deadline) == "Monday 11 March 2030 11:05 UTC"
        assert flat(one(new[MASTER], started).body).endswith(
            f"The first phase is Movement for Spring of 1901. "
            f"The deadline for orders is {shown(deadline)}."
        )

        # Spring 1901: six players order; Turkey does not.
        at(START + timedelta(minutes=15))
        new = boxes.expect(send_orders("S1901M"))
        check_acks(new, "S1901M", deadline)
        deadline_cycle(deadline, "Spring of 1901", "S1901M")
        processed = clock.now
        results_s = subject("Results", "S1901M")
        wanted = everyone(results_s)
        for address, subjects in wanted.items():  # Turkey is then abandoned (issue 18)
            told = "Abandoned: Turkey" if address == ADDRESS["Turkey"] else "Abandoned: T"
            subjects.append(subject(told, "F1901M"))
        new = boxes.expect(wanted)
        abandoned = one(new[ADDRESS["Turkey"]], subject("Abandoned: Turkey", "F1901M"))
        assert "The phase was processed with Turkey in civil disorder." in abandoned.body
        results = one(new[MASTER], results_s)
        deadline = processed + timedelta(hours=2)
        check_results(
            results, "Movement", "Spring of 1901", "S1901M", "Movement for Fall of 1901", deadline
        )
        assert f"\n\n{CIVIL_DISORDER}\n" in results.body, results.body
        assert "were dislodged" not in results.body and "Ownership" not in results.body

        # Fall 1901: the same again; two Austrian units are dislodged.
        at(processed + timedelta(minutes=10))
        new = boxes.expect(send_orders("F1901M"))
        check_acks(new, "F1901M", deadline)
        deadline_cycle(deadline, "Fall of 1901", "F1901M")
        processed = clock.now
        results_f = subject("Results", "F1901M")
        must_retreat = subject("Austria must retreat (Fall of 1901)", "F1901R")
        wanted = everyone(results_f)
        wanted[ADDRESS["Austria"]].append(must_retreat)
        new = boxes.expect(wanted)
        results = one(new[MASTER], results_f)
        deadline = processed + timedelta(hours=1)
        check_results(
            results, "Movement", "Fall of 1901", "F1901M", "Retreat for Fall of 1901", deadline
        )
        assert f"\n\n{CIVIL_DISORDER}\n" in results.body, results.body
        block = "\n".join(["The following units were dislodged:", *DISLODGED])
        assert f"\n{block}\n\n" in results.body, results.body
        assert "Ownership" not in results.body  # after the retreats
        request = one(new[ADDRESS["Austria"]], must_retreat)
        assert request.to == (ADDRESS["Austria"],)
        assert f"  Army in Rumania: may retreat to {RUMANIA_RETREATS}.\n" in request.body
        assert "  Fleet in Trieste: may retreat to Adriatic Sea or Albania.\n" in request.body
        assert flat(request.body).endswith(f"The deadline for retreats is {shown(deadline)}.")

        # Fall 1901 retreats: only Austria has anything to order; its mail completes the
        # phase, which is processed at once (Turkey is not waited for).
        at(processed + timedelta(minutes=10))
        wanted = send_orders("F1901R")
        processed = clock.now
        results_r = subject("Results", "F1901R")
        for address, subjects in everyone(results_r).items():
            wanted.setdefault(address, []).extend(subjects)
        for power, (what, _) in BUILD_REQUESTS.items():
            wanted[ADDRESS[power]].append(subject(f"{power} {what}", "W1901A"))
        new = boxes.expect(wanted)
        ack = one(new[ADDRESS["Austria"]], answer("F1901R orders", "F1901R"))
        assert "ERROR" not in ack.body, ack.body
        assert f"{GAME} has been processed; the results are mailed to everyone." in flat(ack.body)
        results = one(new[MASTER], results_r)
        deadline = processed + timedelta(hours=1)
        check_results(
            results, "Retreat", "Fall of 1901", "F1901R", "Adjustment for Winter of 1901", deadline
        )
        assert "civil disorder" not in results.body, results.body
        block = "\n".join(OWNERSHIP)
        assert f"\n{block}\n\n" in results.body, results.body
        for power, (what, places) in BUILD_REQUESTS.items():
            request = one(new[ADDRESS[power]], subject(f"{power} {what}", "W1901A"))
            assert request.to == (ADDRESS[power],)
            words = flat(request.body)
            if places:
                assert f"Home centres free to build in: {places}." in words, words
            else:
                assert "Your units: " in words and "Fleet Albania" in words, words
                assert "civil-disorder rule" in words, words
            assert words.endswith(f"The deadline is {shown(deadline)}."), words

        # Winter 1901: Turkey owes nothing; the six order and the phase is processed.
        at(processed + timedelta(minutes=10))
        wanted = send_orders("W1901A")
        processed = clock.now
        results_w = subject("Results", "W1901A")
        for address, subjects in everyone(results_w).items():
            wanted.setdefault(address, []).extend(subjects)
        new = boxes.expect(wanted)
        check_acks(new, "W1901A", deadline)
        results = one(new[MASTER], results_w)
        deadline = processed + timedelta(hours=2)
        check_results(
            results,
            "Adjustment",
            "Winter of 1901",
            "W1901A",
            "Movement for Spring of 1902",
            deadline,
        )
        assert "civil disorder" not in results.body and "Turkey" not in results.body

        # Spring 1902 has begun; nothing is due until its reminder.
        at(deadline - timedelta(hours=1, minutes=1))
        boxes.quiet(QUIET)
        inbox_left = dovecot.messages("INBOX")

    assert inbox_left == []
    db = open_db(tmp_path / "judge.db")
    assert [r["state"] for r in db.query("SELECT state FROM inbound")] == ["handled"] * sent
    phases = {r["phase"]: r for r in db.query("SELECT * FROM phases ORDER BY id")}
    assert list(phases) == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    for code in ("S1901M", "F1901M"):
        turkey = json.loads(phases[code]["results"])["results"]["TURKEY"]
        assert [(r["order"], r["given"], r["result"]) for r in turkey] == [
            ("A CON H", "", "ok"),
            ("A SMY H", "", "ok"),
            ("F ANK H", "", "ok"),
        ]
    assert "TURKEY" not in json.loads(phases["W1901A"]["results"])["results"]
    assert phases["S1902M"]["processed_at"] is None
    final = json.loads(phases["S1902M"]["position"])
    assert {p: set(units) for p, units in final["units"].items() if units} == SPRING_1902
    game = db.execute("SELECT phase, deadline, state FROM games WHERE name = ?", [GAME]).fetchone()
    assert game == ("S1902M", deadline.isoformat(timespec="microseconds"), "active")
    notices = db.execute("SELECT phase, kind FROM notices ORDER BY phase, kind").fetchall()
    assert sorted(notices) == [
        ("F1901M", "late"),
        ("F1901M", "reminder"),
        ("S1901M", "late"),
        ("S1901M", "reminder"),
    ]
