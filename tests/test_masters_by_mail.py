"""A game master's work, by mail, end to end, through the real mail path.

The same commands as tests/test_masters_press.py, but every mail goes the way it goes in
production: appended to the judge's INBOX on a private Dovecot, read by the real daemon
(`run_forever`, IMAP IDLE in, SMTP out), and every mail the judge sends is received by an
aiosmtpd peer that plays the mailboxes (grouped by recipient). The judge's broadcast
address (the listserv) is dip-results@lists.example.org.

The script:

1. A master creates ?war1, seven players join (distinct first preferences, so the powers
   are known), an observer joins after the start (SIGNON ?war1 on a started game) and the
   master gives the game its own list (SET LIST).
2. The master moves the deadline (everyone is told) and sets grey press.
3. France sends grey press to England and Germany: only their mailboxes get it, without
   France's name; the master's copy names France; no list gets it. The master sets white
   press and SET PARTIAL NO: partial press is refused; France's BROADCAST reaches every
   other player, the observer, the master (a copy) and both lists (with List-Id).
4. Six powers order Spring 1901 and the master processes before Turkey's orders are in:
   the results (Turkey in civil disorder) reach everyone, the observer and both lists.
5. The master rolls back to Spring 1901: everyone is told; all seven order again and the
   last order processes the phase, with different results.
6. The master replaces Turkey's player: the new player gets a password by mail, the old
   player's signon is refused, the new one orders.
7. Every surviving power votes SET DRAW; the last vote ends the game: everyone, the
   observer and both lists are told, with the draw's powers.
8. At the end the observer's mailbox holds everything public from the moment it joined,
   and the lists hold every public mail and no private press.

Faults that do not stop the script (a wrong answer, a mail nobody should have received)
are collected and reported at the very end, so that one of them does not hide the rest.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from mail_e2e import (
    Clock,
    Mail,
    Mailboxes,
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

from judge.game.njudge_lines import ptime
from judge.store import games
from judge.store.db import open_db

GAME = "war1"
MASTER = "gm@example.org"
MASTER_PASSWORD = "masterpw"
LIST = "dip-results@lists.example.org"  # the judge's broadcast address (the listserv)
GAME_LIST = "game-list@example.org"  # the game's own list (SET LIST)
LISTS = sorted([LIST, GAME_LIST])
LIST_ID = f"E2E {GAME} <{GAME}.example.org>"
OBSERVER = "watcher@example.org"
OBSERVER_PASSWORD = "seepw"
NEW_TURKEY = "new@example.org"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]

# Addresses that do not spell a power's name, so that "France" in a mail is a name.
PLAYER = {
    "Austria": ("ann@example.org", "pwa"),
    "England": ("bob@example.org", "pwe"),
    "France": ("cid@example.org", "pwf"),
    "Germany": ("dot@example.org", "pwg"),
    "Italy": ("eve@example.org", "pwi"),
    "Russia": ("fay@example.org", "pwr"),
    "Turkey": ("gus@example.org", "pwt"),
}
ADDRESS = {power: address for power, (address, _) in PLAYER.items()}
PLAYERS = [ADDRESS[p] for p in POWERS]
START = datetime(2026, 3, 9, 12, 0, tzinfo=UTC)  # a Monday
STEP = timedelta(minutes=5)  # the judge's clock moves on this much between mail batches
NEW_DEADLINE = "2026-03-12 18:00"  # SET DEADLINE: a Thursday
NEW_DEADLINE_TEXT = "Thursday 12 March 2026 18:00 UTC"

GREY_TEXT = "Shall we split the Low Countries?\nMeet me in the Channel."
BROADCAST_TEXT = "France wishes everyone a peaceful spring."

# The results mail's key to the picture's marks (templates/results.txt).
PICTURE_KEY = (
    "Key: arrow move (dashed: convoyed), dashes support, dots convoy, ring hold,\n"
    "red X failed, red ring dislodged, struck ring removed, dashed ring built."
)


FIRST_SPRING = {  # Turkey sends nothing: the master processes without its orders
    "Austria": [
        order("A Vie-Gal", "A VIE - GAL", "Army Vienna -> Galicia", "bounce"),
        order("A Bud-Ser", "A BUD - SER", "Army Budapest -> Serbia"),
        order("F Tri-Alb", "F TRI - ALB", "Fleet Trieste -> Albania"),
    ],
    "England": [
        order("F Lon-Nth", "F LON - NTH", "Fleet London -> North Sea"),
        order("F Edi-Nwg", "F EDI - NWG", "Fleet Edinburgh -> Norwegian Sea"),
        order("A Lvp-Yor", "A LVP - YOR", "Army Liverpool -> Yorkshire"),
    ],
    "France": [
        order("F Bre-Mao", "F BRE - MAO", "Fleet Brest -> Mid-Atlantic Ocean"),
        order("A Par-Bur", "A PAR - BUR", "Army Paris -> Burgundy", "bounce"),
        order("A Mar-Spa", "A MAR - SPA", "Army Marseilles -> Spain"),
    ],
    "Germany": [
        order("F Kie-Den", "F KIE - DEN", "Fleet Kiel -> Denmark"),
        order("A Ber-Kie", "A BER - KIE", "Army Berlin -> Kiel"),
        order("A Mun-Bur", "A MUN - BUR", "Army Munich -> Burgundy", "bounce"),
    ],
    "Italy": [
        order("F Nap-Ion", "F NAP - ION", "Fleet Naples -> Ionian Sea"),
        order("A Rom-Apu", "A ROM - APU", "Army Rome -> Apulia"),
        order("A Ven H", "A VEN H", "Army Venice HOLD"),
    ],
    "Russia": [
        order(
            "F StP/sc-Bot",
            "F STP/SC - BOT",
            "Fleet St Petersburg (south coast) -> Gulf of Bothnia",
        ),
        order("A Mos-Ukr", "A MOS - UKR", "Army Moscow -> Ukraine"),
        order("A War-Gal", "A WAR - GAL", "Army Warsaw -> Galicia", "bounce"),
        order("F Sev-Bla", "F SEV - BLA", "Fleet Sevastopol -> Black Sea"),
    ],
}
FIRST_SPRING_EXTRA = [  # Turkey's units hold, the power in civil disorder
    "Turkey: Army Constantinople HOLD.",
    "Turkey: Army Smyrna HOLD.",
    "Turkey: Fleet Ankara HOLD.",
]

SECOND_SPRING = {  # after the rollback: Galicia and Burgundy taken, the Black Sea bounce
    "Austria": [
        order("A Vie-Gal", "A VIE - GAL", "Army Vienna -> Galicia"),
        order("A Bud-Ser", "A BUD - SER", "Army Budapest -> Serbia"),
        order("F Tri-Alb", "F TRI - ALB", "Fleet Trieste -> Albania"),
    ],
    "England": FIRST_SPRING["England"],
    "France": [
        order("F Bre-Mao", "F BRE - MAO", "Fleet Brest -> Mid-Atlantic Ocean"),
        order("A Par-Bur", "A PAR - BUR", "Army Paris -> Burgundy"),
        order("A Mar-Spa", "A MAR - SPA", "Army Marseilles -> Spain"),
    ],
    "Germany": [
        order("F Kie-Den", "F KIE - DEN", "Fleet Kiel -> Denmark"),
        order("A Ber-Kie", "A BER - KIE", "Army Berlin -> Kiel"),
        order("A Mun-Ruh", "A MUN - RUH", "Army Munich -> Ruhr"),
    ],
    "Italy": FIRST_SPRING["Italy"],
    "Russia": [
        order(
            "F StP/sc-Bot",
            "F STP/SC - BOT",
            "Fleet St Petersburg (south coast) -> Gulf of Bothnia",
        ),
        order("A Mos-Ukr", "A MOS - UKR", "Army Moscow -> Ukraine"),
        order("A War H", "A WAR H", "Army Warsaw HOLD"),
        order("F Sev-Bla", "F SEV - BLA", "Fleet Sevastopol -> Black Sea", "bounce"),
    ],
    "Turkey": [
        order("F Ank-Bla", "F ANK - BLA", "Fleet Ankara -> Black Sea", "bounce"),
        order("A Con-Bul", "A CON - BUL", "Army Constantinople -> Bulgaria"),
        order("A Smy-Arm", "A SMY - ARM", "Army Smyrna -> Armenia"),
    ],
}

NEW_TURKEY_FALL = [  # the new Turkish player's first orders, Fall 1901
    order("F Ank H", "F ANK H", "Fleet Ankara HOLD"),
    order("A Bul-Gre", "A BUL - GRE", "Army Bulgaria -> Greece"),
    order("A Arm H", "A ARM H", "Army Armenia HOLD"),
]


# -- the clock, the mail and the mailboxes --------------------------------------------


def subject(text: str, phase: str = "S1901M") -> str:
    """The answer's subject to a signed-on sender: "Re: x" -> "Re: E2E:war1 - S1901M x",
    "Re: x (ERRORS)" -> "Re: [Error Flag] E2E:war1 - S1901M x" (njudge's forms)."""
    text = text.removeprefix("Re: ")
    flag = "[Error Flag] " if text.endswith(" (ERRORS)") else ""
    return f"Re: {flag}{prefix(GAME, phase)} {text.removesuffix(' (ERRORS)')}"


CONFIRMED = "Re: E2E confirming"  # the answer to CONFIRM, which signs on to no game


def game_subject(text: str, phase: str = "S1901M") -> str:
    return f"{prefix(GAME, phase)} {text}"


# -- the servers and the judge ----------------------------------------------------------


# -- checking the mails -------------------------------------------------------------------


def check_order_ack(ack: Mail, power: str, orders: list, deadline: str, processed: bool) -> None:
    assert "ERROR" not in ack.body and "(ERRORS)" not in ack.subject, ack.body
    initial = power[0]
    assert has_lines(
        ack.body,
        [
            f"Line 1: SIGNON {initial}{GAME} ****",
            f"Signed on to {GAME} as {power}.",
            "",
            f"{power} in {GAME}, Movement for Spring of 1901:",
            *(canonical for _, canonical, _, _ in orders),
            "Orders on file now:",
            *(words for _, _, words, _ in orders),
            f"WAIT is not set. Deadline: {deadline}.",
        ],
    ), ack.body
    assert "Still without orders" not in ack.body, ack.body
    done = f"{GAME} has been processed; the results are mailed to everyone."
    assert (done in flat(ack.body)) == processed, ack.body


def check_results(results: Mail, expected_lines: list[str], civil: str, deadline: datetime) -> None:
    """Spring 1901's results: every order with its outcome, civil disorder, the next phase."""
    assert results.subject == game_subject("Results")
    assert results.body.startswith("\n:: Judge: E2E  Game: War1  Variant: Standard\n")
    lines = [x for x in without_header(results.body).split("\n") if not x.startswith("Rules: ")]
    assert lines[:2] == [
        f"Game: {GAME}   Variant: Standard Diplomacy",
        f"Movement results for Spring of 1901. ({GAME}.001)",  # after ROLLBACK too
    ], results.body
    ends = [
        i
        for i, line in enumerate(lines)
        if line.startswith(("In civil disorder", f"The next phase of '{GAME}'", "The board"))
    ]
    got = [line for line in lines[2 : ends[0]] if line]
    assert Counter(got) == Counter(expected_lines), results.body
    powers_in_order = [line.split(":")[0] for line in got]
    assert powers_in_order == sorted(powers_in_order, key=POWERS.index), results.body
    if civil:
        assert f"\n\nIn civil disorder (no orders received): {civil}.\n" in results.body
    else:
        assert "civil disorder" not in results.body
    assert "were dislodged" not in results.body and "Ownership" not in results.body
    assert flat(results.body).endswith(
        "The board after Movement for Spring of 1901, with its orders drawn, is in the "
        f"attached picture board-S1901M.png. {flat(PICTURE_KEY)} The next phase of '{GAME}' "
        f"will be Movement for Fall of 1901. The deadline for orders will be "
        f"{ptime(deadline, UTC)}."
    ), results.body


def result_lines(orders: dict[str, list]) -> list[str]:
    return [
        f"{power}: {words}." + (f"  (*{tag}*)" if tag else "")
        for power, power_orders in orders.items()
        for _, _, words, tag in power_orders
    ]


def check_public(m: Mail) -> None:
    """A public copy: to both lists in one mail, with the list headers."""
    assert m.to == tuple(LISTS), m.to
    assert m.list_id == LIST_ID, m.headers
    assert m.precedence == "list", m.headers


# -- the game -----------------------------------------------------------------------------


def test_a_masters_game_by_mail(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    clock = Clock(START)
    boxes = Mailboxes(sink, tmp_path / "judge.db", dovecot)
    problems: list[str] = []  # wrong answers that do not stop the script
    sent = 0

    def deliver(*batch: bytes) -> None:
        nonlocal sent
        clock.now += STEP
        for raw in batch:  # as an MTA delivers: one after another into the INBOX
            dovecot.append(raw)
        sent += len(batch)

    def master(subject_text: str, *lines: str) -> bytes:
        return mail(MASTER, subject_text, [f"SIGNON M{GAME} {MASTER_PASSWORD}", *lines], clock.now)

    def player(power: str, subject_text: str, *lines: str) -> bytes:
        address, password = PLAYER[power]
        return mail(
            address, subject_text, [f"SIGNON {power[0]}{GAME} {password}", *lines], clock.now
        )

    everyone = [MASTER, *PLAYERS, OBSERVER]  # every seat once the observer has joined

    with judge(make_config(tmp_path, dovecot, sink, broadcast=LIST), clock):
        # -- 1. The game: created, filled, an observer, the game's own list. -------------
        deliver(mail(MASTER, "new game", [f"CREATE ?{GAME} {MASTER_PASSWORD}"], clock.now))
        ack = one(boxes.new({MASTER: [subject("Re: new game")]})[MASTER], subject("Re: new game"))
        assert f"Game {GAME} (Standard Diplomacy) is created" in flat(ack.body), ack.body

        deliver(
            *(
                mail(
                    PLAYER[p][0],
                    "joining",
                    [f"SIGNON ?{GAME} {PLAYER[p][1]}", f"SET PREFERENCE {p[0]}"],
                    clock.now,
                )
                for p in POWERS
            )
        )
        first_deadline = deadline_text(clock.now + timedelta(hours=48))
        started = game_subject("Game Starting")
        new = boxes.new(
            {
                MASTER: [started],
                LIST: [started],
                **{ADDRESS[p]: [subject("Re: joining"), started] for p in POWERS},
            }
        )
        for power in POWERS:
            start = one(new[ADDRESS[power]], started)
            assert start.to == (ADDRESS[power],)
            assert f"You are {power}. Sign on with: SIGNON {power[0]}{GAME}" in flat(start.body)
        start = one(new[MASTER], started)
        assert start.to == (MASTER,)
        assert "You are the master." in start.body
        announcement = one(new[LIST], started)
        assert announcement.to == (LIST,)  # the game has no list of its own yet
        assert announcement.list_id == LIST_ID and announcement.precedence == "list"
        assert has_lines(
            announcement.body, ["The players:", *(f"{p}: {ADDRESS[p]}" for p in POWERS)]
        ), announcement.body
        assert "You are" not in announcement.body and "Sign on with" not in announcement.body
        assert flat(announcement.body).endswith(
            f"The first phase is Movement for Spring of 1901. "
            f"The deadline for orders is {first_deadline}."
        ), announcement.body

        deliver(mail(OBSERVER, "watching", [f"SIGNON ?{GAME} {OBSERVER_PASSWORD}"], clock.now))
        ack = one(
            boxes.new({OBSERVER: [subject("Re: watching")]})[OBSERVER], subject("Re: watching")
        )
        assert "ERROR" not in ack.body, ack.body
        # The code to confirm the seat comes in the answer, to the observer's address.
        [code] = re.findall(rf"^ *CONFIRM {GAME} ([A-Z0-9-]+)$", ack.body, re.MULTILINE)
        assert (
            f"Observing {GAME}: confirm first that this address asked for it; until then "
            "you get none of its mail."
        ) in flat(ack.body), ack.body
        deliver(mail(OBSERVER, "confirming", [f"CONFIRM {GAME} {code}"], clock.now))
        ack = one(boxes.new({OBSERVER: [CONFIRMED]})[OBSERVER], CONFIRMED)
        assert flat(ack.body).endswith(
            f"Confirmed: you observe {GAME}, and get its mail. "
            f"Sign on with SIGNON O{GAME} password."
        ), ack.body

        deliver(master("our list", f"SET LIST {GAME_LIST}"))
        # Every SET of the game's settings is announced to everyone in it (njudge's
        # "Parameters for game 'war1' changed to:"), the observer too.
        changed = game_subject("Parameters Changed")
        new = boxes.new(
            {MASTER: [subject("Re: our list"), changed], **{a: [changed] for a in PLAYERS}}
            | {OBSERVER: [changed]}
        )
        ack = one(new[MASTER], subject("Re: our list"))
        assert flat(one(new[OBSERVER], changed).body) == (
            f"Parameters for game '{GAME}' changed to: The game's list: {GAME_LIST}"
        )
        assert "ERROR" not in ack.body, ack.body
        assert has_lines(
            ack.body, [f"Line 2: SET LIST {GAME_LIST}", f"{GAME}: list is now {GAME_LIST}."]
        ), ack.body

        # -- 2. A new deadline (everyone is told) and grey press. --------------------------
        deliver(master("more time", f"SET DEADLINE {NEW_DEADLINE}"))
        moved = game_subject(f"the deadline is now {NEW_DEADLINE_TEXT}")
        new = boxes.new(
            {
                MASTER: [subject("Re: more time"), moved],
                **{a: [moved] for a in PLAYERS + [OBSERVER]},
            }
        )
        ack = one(new[MASTER], subject("Re: more time"))
        assert f"The deadline for {GAME} is now {NEW_DEADLINE_TEXT}. Everyone is told." in flat(
            ack.body
        ), ack.body
        notice = one(new[MASTER], moved)
        assert notice.to == (MASTER,), notice.to  # one recipient per mail
        assert flat(notice.body) == (
            f"The deadline for the current phase of {GAME} is now {NEW_DEADLINE_TEXT}."
        ), notice.body
        for address in PLAYERS + [OBSERVER]:
            copy = one(new[address], moved)
            assert copy.to == (address,) and copy.body == notice.body

        deliver(master("grey", "SET PRESS GREY"))
        new = boxes.new(
            {MASTER: [subject("Re: grey"), changed], **{a: [changed] for a in PLAYERS}}
            | {OBSERVER: [changed]}
        )
        ack = one(new[MASTER], subject("Re: grey"))
        assert has_lines(ack.body, ["Line 2: SET PRESS GREY", f"{GAME}: press is now grey."]), (
            ack.body
        )

        # -- 3. Grey press to England and Germany; then white press, no partial press. ----
        deliver(player("France", "a word", "PRESS TO E G", *GREY_TEXT.split("\n"), "ENDPRESS"))
        from_someone = game_subject("Press to England, Germany")
        from_france = game_subject("Press from France to England, Germany")
        new = boxes.new(
            {
                ADDRESS["France"]: [subject("Re: a word")],
                ADDRESS["England"]: [from_someone],
                ADDRESS["Germany"]: [from_someone],
                MASTER: [from_france],
            }
        )
        ack = one(new[ADDRESS["France"]], subject("Re: a word"))
        assert "ERROR" not in ack.body, ack.body
        assert has_lines(
            ack.body,
            [
                "Line 2: PRESS TO E G",
                "Message sent to England, Germany, without your name (grey press).",
            ],
        ), ack.body
        grey = one(new[ADDRESS["England"]], from_someone)
        # Grey press goes out one mail per recipient: no shared To: line to read.
        assert grey.to == (ADDRESS["England"],)
        other = one(new[ADDRESS["Germany"]], from_someone)
        assert other.to == (ADDRESS["Germany"],) and other.body == grey.body
        assert grey.body == (f"Message to England, Germany in '{GAME}':\n\n{GREY_TEXT}\n"), (
            grey.body
        )
        for leak in ("France", "French", ADDRESS["France"]):  # not in the body, not in a header
            assert leak.lower() not in (grey.headers + grey.body).lower(), (leak, grey.headers)
        copy = one(new[MASTER], from_france)
        assert copy.to == (MASTER,)
        assert copy.body == (
            f"Message to England, Germany in '{GAME}': [from {ADDRESS['France']} as France]\n\n"
            f"{GREY_TEXT}\n"
        ), copy.body
        assert LIST not in new and GAME_LIST not in new and OBSERVER not in new

        deliver(master("white", "SET PRESS WHITE", "SET PARTIAL NO"))
        new = boxes.new(
            {MASTER: [subject("Re: white"), changed], **{a: [changed] for a in PLAYERS}}
            | {OBSERVER: [changed]}
        )
        ack = one(new[MASTER], subject("Re: white"))
        assert flat(one(new[OBSERVER], changed).body) == (
            f"Parameters for game '{GAME}' changed to: Press: white Partial press: no"
        )
        assert "ERROR" not in ack.body, ack.body
        assert has_lines(
            ack.body,
            [
                "Line 2: SET PRESS WHITE",
                f"{GAME}: press is now white.",
                "Line 3: SET PARTIAL NO",
                f"{GAME}: partial is now not allowed.",
            ],
        ), ack.body

        deliver(player("France", "just you", "PRESS TO E", "Just between us.", "ENDPRESS"))
        refused = subject("Re: just you (ERRORS)")
        got = boxes.first_subject(ADDRESS["France"])  # with or without "(ERRORS)"
        ack = one(boxes.new({ADDRESS["France"]: [got]})[ADDRESS["France"]], got)
        if got != refused:  # every other refusal marks the subject; the player must see it
            problems.append(
                f"a refused PRESS is answered with the subject {got!r}, not {refused!r}, "
                f"though the body says ERROR: {ack.body!r}"
            )
        assert has_lines(
            ack.body,
            ["Line 2: PRESS TO E", f"ERROR: {GAME} allows only press to everyone (BROADCAST)."],
        ), ack.body

        deliver(player("France", "to all", "BROADCAST", BROADCAST_TEXT, "ENDPRESS"))
        broadcast = game_subject("Broadcast from France")
        others = [ADDRESS[p] for p in POWERS if p != "France"] + [OBSERVER]
        new = boxes.new(
            {
                ADDRESS["France"]: [subject("Re: to all")],
                MASTER: [broadcast],
                LIST: [broadcast],
                GAME_LIST: [broadcast],
                **{a: [broadcast] for a in others},
            }
        )
        ack = one(new[ADDRESS["France"]], subject("Re: to all"))
        assert has_lines(ack.body, ["Line 2: BROADCAST", "Broadcast message sent."]), ack.body
        to_players = one(new[OBSERVER], broadcast)
        assert to_players.to == (OBSERVER,), to_players.to  # one recipient per mail
        assert to_players.list_id is None
        assert to_players.body == (
            f"Broadcast message from {ADDRESS['France']} as France in '{GAME}':\n\n"
            f"{BROADCAST_TEXT}\n"
        )
        for address in others:
            copy = one(new[address], broadcast)
            assert copy.to == (address,) and copy.body == to_players.body
        copy = one(new[MASTER], broadcast)
        assert copy.to == (MASTER,)
        assert copy.body == (
            f"Broadcast message from {ADDRESS['France']} as France in '{GAME}':\n\n"
            f"{BROADCAST_TEXT}\n"
        ), copy.body
        public = one(new[LIST], broadcast)
        check_public(public)
        assert one(new[GAME_LIST], broadcast).message_id == public.message_id
        assert public.body == to_players.body

        # -- 4. Spring 1901: six powers order, the master processes without Turkey. --------
        batch = [
            player(power, f"orders {power}", *(given for given, _, _, _ in orders))
            for power, orders in FIRST_SPRING.items()
        ]
        batch.append(master("process", "PROCESS"))
        deliver(*batch)
        spring = game_subject("Results")
        fall_moment = clock.now + timedelta(hours=48)
        fall_deadline = deadline_text(fall_moment)
        expected = {a: [spring] for a in everyone + [LIST, GAME_LIST]}
        # PROCESS moved the game on: the answer's header shows where it left it.
        expected[MASTER].append(subject("Re: process", "F1901M"))
        for power in FIRST_SPRING:
            expected[ADDRESS[power]].append(subject(f"Re: orders {power}"))
        new = boxes.new(expected)
        for power, orders in FIRST_SPRING.items():
            ack = one(new[ADDRESS[power]], subject(f"Re: orders {power}"))
            check_order_ack(ack, power, orders, NEW_DEADLINE_TEXT, processed=False)
        ack = one(new[MASTER], subject("Re: process", "F1901M"))
        assert "ERROR" not in ack.body, ack.body
        assert "  Turkey: none" in ack.body.split("\n"), ack.body  # the overview before it
        assert (
            f"Line 2: PROCESS {GAME} has been processed; the results are mailed to everyone. "
            "Time to deadline: 2 days, 0 hours, 0 minutes, and 0 seconds."
        ) in flat(ack.body), ack.body
        first_results = one(new[MASTER], spring)
        assert first_results.to == (MASTER,), first_results.to  # one recipient per mail
        check_results(
            first_results,
            result_lines(FIRST_SPRING) + FIRST_SPRING_EXTRA,
            "Turkey",
            fall_moment,
        )
        for address in PLAYERS + [OBSERVER]:
            copy = one(new[address], spring)
            assert copy.to == (address,) and copy.body == first_results.body
        public = one(new[LIST], spring)
        check_public(public)
        assert one(new[GAME_LIST], spring).message_id == public.message_id
        assert public.body == first_results.body

        # -- 5. Rolled back to Spring 1901; ordered again, processed again. ---------------
        deliver(master("undo", "ROLLBACK"))
        rolled = game_subject("Rollback to S1901M")
        rollback_deadline = deadline_text(clock.now + timedelta(hours=48))
        new = boxes.new(
            {
                MASTER: [subject("Re: undo"), rolled],
                **{a: [rolled] for a in PLAYERS + [OBSERVER]},
                LIST: [rolled],  # the lists learn why a second Spring 1901 follows
                GAME_LIST: [rolled],
            }
        )
        ack = one(new[MASTER], subject("Re: undo"))
        assert "ERROR" not in ack.body, ack.body
        assert has_lines(
            ack.body,
            ["Line 2: ROLLBACK", f"{GAME} is back at Movement, Spring of 1901. Everyone is told."],
        ), ack.body
        rollback_notice = one(new[MASTER], rolled)
        assert rollback_notice.to == (MASTER,), rollback_notice.to
        assert flat(rollback_notice.body) == (
            f"The master has rolled {GAME} back to Movement for Spring of 1901. "
            "Later phases are undone; orders for this phase must be sent again. "
            f"The deadline is {rollback_deadline}."
        ), rollback_notice.body
        for address in PLAYERS + [OBSERVER]:
            copy = one(new[address], rolled)
            assert copy.to == (address,) and copy.body == rollback_notice.body
        # "orders for this phase must be sent again": none may still be on file.
        overview = ack.body.split(f"Orders on file in {GAME}, power by power:\n")[-1]
        if any(f"  {p}: none" not in overview.split("\n") for p in POWERS):
            problems.append(
                "after ROLLBACK the master's acknowledgement still shows orders on file, "
                f"though the notice says they must be sent again:\n{overview}"
            )

        deliver(player("France", "what now"))
        ack = one(
            boxes.new({ADDRESS["France"]: [subject("Re: what now")]})[ADDRESS["France"]],
            subject("Re: what now"),
        )
        wanted = [
            f"France in {GAME}, Movement for Spring of 1901:",
            "No orders on file.",
            "Still without orders: Army Marseilles, Army Paris, Fleet Brest.",
            f"WAIT is not set. Deadline: {rollback_deadline}.",
        ]
        if not has_lines(ack.body, wanted):
            problems.append(f"after ROLLBACK France's orders are still on file: {ack.body!r}")

        deliver(
            *(
                player(power, f"again {power}", *(given for given, _, _, _ in orders))
                for power, orders in SECOND_SPRING.items()
            )
        )
        fall_moment = clock.now + timedelta(hours=48)
        fall_deadline = deadline_text(fall_moment)
        expected = {a: [spring] for a in everyone + [LIST, GAME_LIST]}
        for power in SECOND_SPRING:
            expected[ADDRESS[power]].append(subject(f"Re: again {power}"))
        new = boxes.new(expected)
        for power, orders in SECOND_SPRING.items():
            ack = one(new[ADDRESS[power]], subject(f"Re: again {power}"))
            check_order_ack(ack, power, orders, rollback_deadline, processed=power == "Turkey")
        second_results = one(new[MASTER], spring)
        assert second_results.to == (MASTER,), second_results.to
        check_results(second_results, result_lines(SECOND_SPRING), "", fall_moment)
        assert second_results.body != first_results.body
        for address in PLAYERS + [OBSERVER]:
            copy = one(new[address], spring)
            assert copy.to == (address,) and copy.body == second_results.body
        public = one(new[LIST], spring)
        check_public(public)
        assert one(new[GAME_LIST], spring).message_id == public.message_id
        assert public.body == second_results.body

        # -- 6. Turkey gets a new player. --------------------------------------------------
        deliver(master("new turk", f"REPLACE T {NEW_TURKEY}"))
        letter_subject = game_subject("you now play Turkey", "F1901M")
        taken = game_subject("you no longer play Turkey", "F1901M")
        new = boxes.new(
            {
                MASTER: [subject("Re: new turk", "F1901M")],
                NEW_TURKEY: [letter_subject],
                ADDRESS["Turkey"]: [taken],  # the replaced player is told
            }
        )
        ack = one(new[MASTER], subject("Re: new turk", "F1901M"))
        assert "ERROR" not in ack.body, ack.body
        assert has_lines(
            ack.body,
            [
                f"Line 2: REPLACE T {NEW_TURKEY}",
                f"Turkey in {GAME} now belongs to {NEW_TURKEY}, who gets a password by mail.",
            ],
        ), ack.body
        letter = one(new[NEW_TURKEY], letter_subject)
        assert letter.to == (NEW_TURKEY,)
        words = flat(letter.body)
        assert words.startswith(f"The master of {GAME} has given you Turkey."), letter.body
        assert words.endswith(
            "(change the password with SET PASSWORD after signing on). "
            f"The deadline for the current phase is {fall_deadline}."
        ), letter.body
        new_password = letter.body.split(f"Sign on with: SIGNON T{GAME} ")[1].split()[0]
        assert new_password != PLAYER["Turkey"][1]
        assert MASTER_PASSWORD not in letter.body
        # The power's mail comes to the new address only once it sends the code back.
        [code] = re.findall(rf"^ *CONFIRM {GAME} ([A-Z0-9-]+)$", letter.body, re.MULTILINE)
        deliver(mail(NEW_TURKEY, "confirming", [f"CONFIRM {GAME} {code}"], clock.now))
        ack = one(boxes.new({NEW_TURKEY: [CONFIRMED]})[NEW_TURKEY], CONFIRMED)
        assert flat(ack.body).endswith(
            f"Confirmed: the mail of your Turkey seat of {GAME} comes to this "
            f"address now, no longer to {MASTER}."
        ), ack.body

        deliver(player("Turkey", "still me", "F Ank H"))
        old_refused = "Re: [Error Flag] E2E still me"  # not signed on: no game in it
        ack = one(boxes.new({ADDRESS["Turkey"]: [old_refused]})[ADDRESS["Turkey"]], old_refused)
        assert has_lines(
            ack.body,
            [
                f"Line 1: SIGNON T{GAME} ****",
                "ERROR: signon refused: the game name, the power or the password is wrong.",
                "Line 2: F Ank H",
                "ERROR: not used, because the SIGNON before it was refused.",
            ],
        ), ack.body

        lines = [f"SIGNON T{GAME} {new_password}", *(given for given, _, _, _ in NEW_TURKEY_FALL)]
        deliver(mail(NEW_TURKEY, "my orders", lines, clock.now))
        ack = one(
            boxes.new({NEW_TURKEY: [subject("Re: my orders", "F1901M")]})[NEW_TURKEY],
            subject("Re: my orders", "F1901M"),
        )
        assert "ERROR" not in ack.body, ack.body
        assert new_password not in ack.body
        assert has_lines(
            ack.body,
            [
                f"Line 1: SIGNON T{GAME} ****",
                f"Signed on to {GAME} as Turkey.",
                "",
                f"Turkey in {GAME}, Movement for Fall of 1901:",
                *(canonical for _, canonical, _, _ in NEW_TURKEY_FALL),
                "Orders on file now:",
                *(words for _, _, words, _ in NEW_TURKEY_FALL),
                f"WAIT is not set. Deadline: {fall_deadline}.",
            ],
        ), ack.body

        # -- 7. A draw by the vote of every surviving power. ------------------------------
        voters = [p for p in POWERS if p != "Turkey"]
        deliver(*(player(p, f"draw {p}", "SET DRAW") for p in voters))
        new = boxes.new({ADDRESS[p]: [subject(f"Re: draw {p}", "F1901M")] for p in voters})
        for power in voters:
            ack = one(new[ADDRESS[power]], subject(f"Re: draw {power}", "F1901M"))
            assert "ERROR" not in ack.body, ack.body
            assert (
                f"Line 2: SET DRAW Your vote for a draw in {GAME} is recorded. The game ends in "
                "a draw when every surviving power has voted for it."
            ) in flat(ack.body), ack.body

        deliver(
            mail(
                NEW_TURKEY, "draw Turkey", [f"SIGNON T{GAME} {new_password}", "SET DRAW"], clock.now
            )
        )
        everybody = "Austria, England, France, Germany, Italy, Russia, Turkey"
        over = game_subject(f"Draw Declared: {everybody}", "F1901M")
        at_the_end = [MASTER, *(ADDRESS[p] for p in voters), NEW_TURKEY, OBSERVER]
        expected = {a: [over] for a in at_the_end + [LIST, GAME_LIST]}
        expected[NEW_TURKEY].append(subject("Re: draw Turkey", "F1901M"))
        new = boxes.new(expected)
        end = one(new[MASTER], over)
        assert end.to == (MASTER,), end.to
        assert end.body.startswith(
            "\n:: Judge: E2E  Game: War1  Variant: Standard\n:: Deadline: F1901M "
        ), end.body
        assert flat(without_header(end.body)) == (
            f"{GAME} has ended in a draw, by the vote of all surviving powers. The draw is "
            "shared by: Austria, England, France, Germany, Italy, Russia, Turkey."
        ), end.body
        for address in at_the_end:  # not the old Turkish player
            copy = one(new[address], over)
            assert copy.to == (address,) and copy.body == end.body
        public = one(new[LIST], over)
        check_public(public)
        assert one(new[GAME_LIST], over).message_id == public.message_id
        assert public.body == end.body
        ack = one(new[NEW_TURKEY], subject("Re: draw Turkey", "F1901M"))
        assert "ERROR" not in ack.body, ack.body
        assert f"Your vote for a draw in {GAME} is recorded." in flat(ack.body), ack.body
        # The vote that ended the game should say so, and not go on about the phase.
        # (The `::` header names the phase and its deadline in njudge's shape, as always.)
        below = without_header(ack.body)
        if "Deadline:" in below or "the game is over" not in flat(below).lower():
            problems.append(
                "the acknowledgement of the vote that ended the game does not say the game is "
                f"over and still shows the phase's orders and deadline: {ack.body!r}"
            )

        # Nothing more comes.
        boxes.settled(tmp_path / "judge.db")
        boxes.new({})
        mailboxes = boxes.all()
        inbox_left = dovecot.messages("INBOX")
        processed = dovecot.messages("processed")

    # -- 8. The observer's and the lists' mailboxes, and the store. ------------------------
    def subjects(address: str) -> list[str]:
        return [m.subject for m in mailboxes.get(address, [])]

    assert subjects(OBSERVER) == [
        subject("Re: watching"),
        CONFIRMED,
        changed,
        moved,
        changed,
        changed,
        broadcast,
        spring,
        rolled,
        spring,
        over,
    ]
    observed = mailboxes[OBSERVER]
    assert [m.body for m in observed[7:10]] == [
        first_results.body,
        rollback_notice.body,
        second_results.body,
    ]
    assert observed[6].body == (
        f"Broadcast message from {ADDRESS['France']} as France in '{GAME}':\n\n{BROADCAST_TEXT}\n"
    )
    assert observed[10].body == end.body
    assert not any(GREY_TEXT.split("\n")[0] in m.body for m in observed)

    assert subjects(LIST) == [started, broadcast, spring, rolled, spring, over]
    assert subjects(GAME_LIST) == [broadcast, spring, rolled, spring, over]  # set after the start
    for address in (LIST, GAME_LIST):
        for m in mailboxes[address]:
            assert m.list_id == LIST_ID and m.precedence == "list", m.headers
            assert " Press " not in m.subject
            assert "master's copy" not in m.body and "You are the master" not in m.body
            assert GREY_TEXT.split("\n")[0] not in m.body and "Just between us" not in m.body
    listed = mailboxes[LIST]
    assert listed[2].body == first_results.body and listed[4].body == second_results.body
    assert "In civil disorder (no orders received): Turkey." in listed[2].body
    assert listed[3].body == rollback_notice.body
    assert "Army Vienna -> Galicia.\n" in listed[4].body  # the second time, Vienna moved
    assert listed[5].body == end.body

    # The old Turkish player heard everything up to the second results, and not the end.
    assert subjects(ADDRESS["Turkey"]) == [
        subject("Re: joining"),
        started,
        changed,
        moved,
        changed,
        changed,
        broadcast,
        spring,
        rolled,
        subject("Re: again Turkey"),
        spring,
        taken,
        old_refused,
    ]

    # Every mail was handled and moved out of the INBOX; the game is over.
    assert inbox_left == []
    assert len(processed) == sent
    db = open_db(tmp_path / "judge.db")
    states = [r["state"] for r in db.query("SELECT state FROM inbound ORDER BY id")]
    assert states == ["handled"] * sent
    game = games.find_game(db, GAME)
    assert game is not None and game.state == games.FINISHED

    problems += [f"mail nobody expected: {m}" for m in boxes.unexpected]
    assert problems == [], "\n\n".join(problems)
