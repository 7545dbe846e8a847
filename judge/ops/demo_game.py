"""The demo's game: a master and seven players mail the judge and play 1901 by its
replies (see judge/ops/demo.py)."""

from __future__ import annotations

import re
import smtplib
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from judge.config import Config
from judge.ops.demo_mail import REQUEST_WORDS, DemoError, Mail, Maildir, shown

TOTAL_SECONDS = 60.0  # the whole demo
MASTER = "master@example.org"
MASTER_PASSWORD = "masterpw"

# Seven players and their preference lists: some want the same powers, one asks for a
# random power, so the assignment (the DPTG's procedure, with random draws) is only
# known from the start mails.
PREFERENCES = [
    "SET PREFERENCE FGE",
    "SET PREFERENCE F[IA]",
    "SET PREFERENCE ERG",
    "SET PREFERENCE T R A",
    "SET PREFERENCE Italy, Austria",
    "SET PREFERENCE G",
    "SET PREFERENCE random",
]

# The movement orders of 1901, by power, as players write them.
MOVES: dict[str, dict[str, list[str]]] = {
    # Vienna and Warsaw bounce in Galicia, Budapest and Sevastopol in Rumania, Paris and
    # Munich in Burgundy.
    "Spring 1901": {
        "Austria": ["A Vie-Gal", "A Bud-Rum", "F Tri H"],
        "England": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
        "France": ["F Bre-Mao", "A Par-Bur", "A Mar-Spa"],
        "Germany": ["F Kie-Den", "A Ber-Kie", "A Mun-Bur"],
        "Italy": ["F Nap-Ion", "A Ven-Tyr", "A Rom-Ven"],
        "Russia": ["F StP(sc)-Bot", "A Mos-Ukr", "A War-Gal", "F Sev-Rum"],
        "Turkey": ["F Ank-Bla", "A Con-Bul", "A Smy-Arm"],
    },
    # Italy takes Trieste with support and dislodges the Austrian fleet; Russia takes
    # Rumania with support; England convoys into Norway; Budapest and Bulgaria bounce in
    # Serbia.
    "Fall 1901": {
        "Austria": ["A Vie H", "A Bud-Ser", "F Tri H"],
        "England": ["F Nth C A Yor-Nwy", "A Yor-Nwy", "F Nwg H"],
        "France": ["A Par-Bur", "F Mao-Por", "A Spa H"],
        "Germany": ["F Den H", "A Kie-Hol", "A Mun-Ruh"],
        "Italy": ["A Ven-Tri", "A Tyr S A Ven-Tri", "F Ion-Tun"],
        "Russia": ["A Ukr-Rum", "F Sev S A Ukr-Rum", "F Bot-Swe", "A War-Gal"],
        "Turkey": ["F Bla H", "A Bul-Ser", "A Arm-Smy"],
    },
}
# Winter 1901, for the powers the judge asks for builds or removals.
ADJUSTMENTS: dict[str, list[str]] = {
    "Austria": ["Remove F Alb"],
    "England": ["Build A Lvp"],
    "France": ["Build A Mar", "Build F Bre"],
    "Germany": ["Build A Ber", "Build F Kie"],
    "Italy": ["Build F Nap", "Waive"],
    "Russia": ["Build F StP(nc)", "Build A War"],
    "Turkey": ["Build A Con"],
}


class Demo:
    """The master and seven players: what they mail the judge, and what they read."""

    def __init__(self, config: Config, out: Callable[[str], None]) -> None:
        self.config = config
        self.out = out
        self.game = f"demo{time.time_ns() // 10_000_000 % 10**12}"  # unique, 16 characters
        self.players = [f"player{n}+{self.game}@example.org" for n in range(1, 8)]
        self.passwords = {a: f"pw{n}" for n, a in enumerate(self.players, start=1)}
        self.power: dict[str, str] = {}  # address -> power, from the start mails
        self.address: dict[str, str] = {}  # power -> address
        self.start = time.monotonic()
        self.maildir = Maildir(config.maildir, self.start + TOTAL_SECONDS)
        self.serial = 0
        host = config.smtp_in.host
        self.host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)

    # -- mail in and out --------------------------------------------------------------

    def send(self, sender: str, subject: str, lines: list[str]) -> str:
        """Mail the judge; the subject its acknowledgement will answer."""
        self.serial += 1
        subject = f"{self.game} {subject}"
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.config.address
        msg["Subject"] = subject
        msg["Date"] = format_datetime(datetime.now().astimezone())
        msg["Message-ID"] = make_msgid(idstring=f"{self.game}.{self.serial}", domain="example.org")
        msg.set_content("\n".join(lines) + "\n")
        with smtplib.SMTP(self.host, self.config.smtp_in.port, timeout=10) as smtp:
            smtp.sendmail(sender, [self.config.address], msg.as_bytes())
        return subject

    def acknowledged(self, sender: str, subjects: list[str]) -> list[Mail]:
        """Wait for the judge's answer to each mail; stop the demo on an ERROR."""
        wanted = set(subjects)

        def answer(m: Mail) -> str | None:
            # njudge's answer: "Re: [Error Flag] CODE:game - S1901M <the subject>"
            is_reply = m.subject.startswith("Re: ") and sender in m.to
            return next((w for w in wanted if is_reply and m.subject.endswith(f" {w}")), None)

        mails = self.maildir.wait(
            f"the acknowledgements to {sender}",
            lambda ms: wanted <= {answer(m) for m in ms},
        )
        acks = [m for m in mails if answer(m)]
        for ack in acks:
            if "[Error Flag]" in ack.subject or "ERROR" in ack.body:
                raise DemoError(f"the judge found an error in a mail of {sender}:\n{ack.body}")
        return acks

    def results(self, title: str) -> Mail:
        def copy(m: Mail) -> bool:
            return m.kind == "results" and f":{self.game} - " in m.subject and title in m.body

        # One mail to each player and the master: wait for them all, so that the demo's
        # count of what arrived is the same every run.
        everyone = len(self.players) + 1
        mails = self.maildir.wait(f"the {title}", lambda ms: sum(map(copy, ms)) >= everyone)
        return next(m for m in mails if copy(m))

    # -- the game ---------------------------------------------------------------------

    def run(self) -> None:
        game = self.game
        subject = self.send(MASTER, "create", [f"CREATE ?{game} {MASTER_PASSWORD}"])
        ack = self.acknowledged(MASTER, [subject])[0]
        self.out(f"{MASTER} creates ?{game}: acknowledged in {shown(ack.path)}")

        for address, preference in zip(self.players, PREFERENCES, strict=True):
            password = self.passwords[address]
            subject = self.send(address, "signon", [f"SIGNON ?{game} {password}", preference])
            self.acknowledged(address, [subject])
            self.out(f"{address} signs on to ?{game} ({preference})")

        for address in self.players:
            start = self.maildir.one(f"the start mail of {address}", _start_mail_of(address))
            found = re.search(r"You are (\w+)\.", start.body)
            if not found:
                raise DemoError(f"no power in the start mail {start.path}:\n{start.body}")
            self.power[address] = found.group(1)
            self.address[found.group(1)] = address
            self.out(f"{address} reads {shown(start.path)}: plays {found.group(1)}")

        results = None
        for season in ("Spring 1901", "Fall 1901"):
            results = self.phase(season, "Movement", MOVES[season])
        assert results is not None
        if "will be Retreats for Fall of 1901" in _flat(results.body):
            results = self.phase("Fall 1901 retreats", "Retreat", self.retreats())
        if "will be Adjustments for Winter of 1901" in _flat(results.body):
            results = self.phase("Winter 1901", "Adjustment", self.adjustments())
        next_phase = re.search(r"The next phase of '\w+' will be (.*?)\.", _flat(results.body))
        if not next_phase or next_phase.group(1) != "Movement for Spring of 1902":
            raise DemoError(f"the game did not reach Spring 1902:\n{results.body}")
        self.out(f"{game} goes on with {next_phase.group(1)}")

    def phase(self, label: str, kind: str, orders: dict[str, list[str]]) -> Mail:
        """Each power with orders mails them; wait for the answers and the results."""
        code = label.replace(" ", "")
        sent = {}
        for power, lines in orders.items():
            address = self.address[power]
            signon = f"SIGNON {power[0]}{self.game} {self.passwords[address]}"
            self.out(f"{power} orders {label}: {', '.join(lines)}")
            sent[address] = self.send(address, f"{code} orders of {power}", [signon, *lines])
        for address, subject in sent.items():
            self.acknowledged(address, [subject])
        season, year = label.split()[:2]
        results = self.results(f"{kind} results for {season} of {year}")
        self.out(f"results for {label} in {shown(results.path)}")
        for line in results.body.split("\n"):  # what players look for first
            if "(*" in line or "can retreat to" in line or (kind == "Retreat" and "->" in line):
                self.out(f"    {line.strip()}")
        return results

    def requests(self, words: tuple[str, ...]) -> dict[str, Mail]:
        """The retreat or adjustment requests each player finds: power -> mail. They come
        with the results; wait until every power the results name has its request."""
        self.maildir.wait("the requests", lambda ms: self._requests_in(ms, words) is not None)
        found = self._requests_in(self.maildir.poll(), words)
        assert found is not None
        for power, mail in found.items():
            self.out(f"{power} reads {shown(mail.path)}: {mail.subject.split(' ', 3)[-1]}")
        return found

    def _requests_in(self, mails: list[Mail], words: tuple[str, ...]) -> dict[str, Mail] | None:
        results = [m for m in mails if m.kind == "results" and f":{self.game} - " in m.subject][-1]
        flat = _flat(results.body)
        if words == ("must retreat",):
            adjectives = set(re.findall(r"The (\w+) (?:Army|Fleet) in .*? can retreat", flat))
            expected = {p for p in self.address if _adjective(p) in adjectives}
        else:
            changes = re.findall(r"(\w+): +\d+ supply centres?, +\d+ units?: ([^.]*)\.", flat)
            expected = {p for p, change in changes if change != "no change"}
        found = {}
        for mail in mails:
            if f":{self.game} - " in mail.subject and any(w in mail.subject for w in words):
                for power in expected:
                    if self.address[power] in mail.to:
                        found[power] = mail
        return found if set(found) == expected else None

    def retreats(self) -> dict[str, list[str]]:
        """Each dislodged unit retreats to the last place its request offers."""
        orders = {}
        for power, mail in self.requests(("must retreat",)).items():
            lines = []
            for kind, where, places in re.findall(
                r"(Army|Fleet) in (.+?): may retreat to (.+?)\.\n", mail.body
            ):
                last = re.split(r", | or ", places)[-1]
                lines.append(f"{kind} {where} -> {last}")
            orders[power] = lines
        return orders

    def adjustments(self) -> dict[str, list[str]]:
        orders = {}
        for power, mail in self.requests(REQUEST_WORDS[1:]).items():
            if "cannot build" not in mail.subject:
                orders[power] = ADJUSTMENTS[power]
        return orders

    def summary(self) -> None:
        mails = self.maildir.poll()
        kinds = Counter(m.kind for m in mails)
        seconds = time.monotonic() - self.start
        parts = [
            f"{kinds['acknowledgement']} acknowledgements",
            f"{kinds['start']} start mails",
            f"{kinds['results']} results",
            f"{kinds['request']} requests (retreats, builds, removals)",
        ]
        if kinds["other"]:
            parts.append(f"{kinds['other']} other")
        self.out(
            f"{shown(self.maildir.new)}/ received {len(mails)} mails in {seconds:.1f} s: "
            + ", ".join(parts)
            + "."
        )
        self.out(f"See the game with: judge game {self.game}")


def _start_mail_of(address: str) -> Callable[[Mail], bool]:
    """Whether a mail is the start mail sent to `address`."""
    return lambda m: m.kind == "start" and address in m.to


def _flat(text: str) -> str:
    return " ".join(text.split())


def _adjective(power: str) -> str:
    return {
        "Austria": "Austrian",
        "England": "English",
        "France": "French",
        "Germany": "German",
        "Italy": "Italian",
        "Russia": "Russian",
        "Turkey": "Turkish",
    }[power]
