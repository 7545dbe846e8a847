"""`judge demo`: a short scripted game by mail against a judge running in this process.

The judge's daemon (`run_forever`, real clock) runs in a thread on the configuration the
other commands use (the embedded defaults: SMTP on 127.0.0.1:2525 for judge@localhost,
var/judge.db, replies into the Maildir var/outbox/). A master and seven players then mail
it real commands with smtplib, and read its replies from the Maildir as players read
their mail: the master creates a game, the players sign on with preference lists, each
learns its power from its start mail, and they play 1901: Spring (three bounces), Fall
(Italy takes Trieste with support, dislodging the Austrian fleet), the retreat the
dislodged power is asked for, and the Winter builds and removal. At the end it counts
what appeared in the Maildir's new/ folder.

The game's name is new on every run (demo + the time), so the demo can be run again on
the same database.
"""

from __future__ import annotations

import argparse
import email
import logging
import os
import re
import smtplib
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime, make_msgid
from pathlib import Path

from judge.config import Config, ConfigError, load_config

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
REQUEST_WORDS = ("must retreat", "may build", "must remove", "cannot build")


class DemoError(Exception):
    """The demo cannot go on; the message says why."""


@dataclass(frozen=True)
class Mail:
    path: Path
    subject: str
    to: tuple[str, ...]
    body: str

    @property
    def kind(self) -> str:
        if re.search(r"(^|\] )Re: ", self.subject):
            return "acknowledgement"
        if "the game has started" in self.subject:
            return "start"
        if " results for " in self.subject:
            return "results"
        if any(word in self.subject for word in REQUEST_WORDS):
            return "request"
        return "other"


class Maildir:
    """The judge's Maildir as the players read it: only mail that arrived since the demo
    began (anything older in new/ belongs to earlier runs)."""

    def __init__(self, path: Path, deadline: float) -> None:
        self.new = path / "new"
        self.deadline = deadline
        self.before = set(os.listdir(self.new)) if self.new.is_dir() else set()
        self.mails: dict[str, Mail] = {}

    def poll(self) -> list[Mail]:
        if self.new.is_dir():
            for name in sorted(set(os.listdir(self.new)) - self.before - set(self.mails)):
                path = self.new / name
                msg = email.message_from_bytes(path.read_bytes(), policy=default)
                to = tuple(a.strip().lower() for a in str(msg["To"] or "").split(","))
                # the text part (a results or start mail also carries the board as PNG)
                text = msg.get_body(("plain",))
                if text is None:
                    raise DemoError(f"the judge's mail {path} has no text part")
                body = text.get_content().replace("\r\n", "\n")
                self.mails[name] = Mail(path, str(msg["Subject"]), to, body)
        return [self.mails[name] for name in sorted(self.mails)]

    def wait(self, what: str, found: Callable[[list[Mail]], bool]) -> list[Mail]:
        """Poll until `found` holds of the mail so far; the mail."""
        while True:
            mails = self.poll()
            if found(mails):
                return mails
            if time.monotonic() > self.deadline:
                raise DemoError(f"timed out waiting for {what} in {self.new}/")
            time.sleep(0.02)

    def one(self, what: str, test: Callable[[Mail], bool]) -> Mail:
        mails = self.wait(what, lambda ms: any(test(m) for m in ms))
        return next(m for m in mails if test(m))


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory if under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class Demo:
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
        wanted = {f"Re: {s}" for s in subjects}

        def answer(m: Mail) -> str | None:
            return next((w for w in wanted if w in m.subject and sender in m.to), None)

        mails = self.maildir.wait(
            f"the acknowledgements to {sender}",
            lambda ms: wanted <= {answer(m) for m in ms},
        )
        acks = [m for m in mails if answer(m)]
        for ack in acks:
            if "(ERRORS)" in ack.subject or "ERROR" in ack.body:
                raise DemoError(f"the judge found an error in a mail of {sender}:\n{ack.body}")
        return acks

    def results(self, title: str) -> Mail:
        return self.maildir.one(
            f"the {title}", lambda m: m.subject.endswith(f"{self.game}: {title}")
        )

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
        if "is Retreat for Fall of 1901" in _flat(results.body):
            results = self.phase("Fall 1901 retreats", "Retreat", self.retreats())
        if "is Adjustment for Winter of 1901" in _flat(results.body):
            results = self.phase("Winter 1901", "Adjustment", self.adjustments())
        next_phase = re.search(r"The next phase of \w+ is (.*?)\.", _flat(results.body))
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
            self.out(f"{power} reads {shown(mail.path)}: {mail.subject.split(': ', 1)[-1]}")
        return found

    def _requests_in(self, mails: list[Mail], words: tuple[str, ...]) -> dict[str, Mail] | None:
        results = [m for m in mails if m.kind == "results" and f"{self.game}:" in m.subject][-1]
        flat = _flat(results.body)
        if words == ("must retreat",):
            adjectives = set(re.findall(r"The (\w+) (?:Army|Fleet) in .*? can retreat", flat))
            expected = {p for p in self.address if _adjective(p) in adjectives}
        else:
            changes = re.findall(r"(\w+): +\d+ supply centres?, +\d+ units?: ([^.]*)\.", flat)
            expected = {p for p, change in changes if change != "no change"}
        found = {}
        for mail in mails:
            if f"{self.game}: " in mail.subject and any(w in mail.subject for w in words):
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
    return lambda m: "the game has started" in m.subject and address in m.to


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


def _port_free(host: str, port: int) -> bool:
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except OSError:
        return True  # let the receiver report it
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio binds
            try:
                s.bind(address)
            except OSError:
                return False
    return True


def main(args: argparse.Namespace) -> int:
    """`judge demo`: exit status 0 when the game went as scripted, 1 otherwise."""
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"judge: configuration error: {e}", file=sys.stderr)
        return 2
    if config.inbound_mode != "smtp" or config.outbound_mode != "maildir":
        return _fail(
            "the demo mails the judge's SMTP receiver and reads its Maildir: it needs inbound "
            f'mode "smtp" and outbound mode "maildir" ({config.source} has '
            f'"{config.inbound_mode}" and "{config.outbound_mode}")'
        )
    if not _port_free(config.smtp_in.host, config.smtp_in.port):
        return _fail(_busy(config))
    if not getattr(args, "verbose", False):  # the judge's own log would drown the story
        logging.getLogger().setLevel(logging.WARNING)
    _out(
        f"The {config.name} judge ({config.source}) runs in this process: mail for "
        f"{config.address} to SMTP {config.smtp_in.host}:{config.smtp_in.port}, replies "
        f"into {shown(config.maildir)}/new/, database {shown(config.database)}."
    )
    return _play(config, Demo(config, _out))


def _out(line: str) -> None:
    print(line, flush=True)


def _fail(message: str) -> int:
    print(f"judge demo: {message}", file=sys.stderr, flush=True)
    return 1


def _busy(config: Config) -> str:
    """What to do when the receiver's port is taken."""
    return (
        f"{config.smtp_in.host}:{config.smtp_in.port} is taken: another judge (or another "
        "program) is listening there. Stop it, or run the demo with --config naming a "
        "judge.toml with another [inbound.smtp] port."
    )


def _play(config: Config, demo: Demo) -> int:
    """Run the judge's daemon in a thread, play the demo against it, stop the daemon."""
    from judge.service.daemon import run_forever

    stop, ready = threading.Event(), threading.Event()
    crashed: list[BaseException] = []

    def judge() -> None:
        try:
            run_forever(config, stop=stop, ready=ready.set)
        except BaseException as e:  # reported by the main thread
            crashed.append(e)
            ready.set()

    thread = threading.Thread(target=judge, name="judge", daemon=True)
    thread.start()
    try:
        return _script(config, demo, ready, crashed)
    finally:
        stop.set()
        thread.join(15)


def _script(
    config: Config, demo: Demo, ready: threading.Event, crashed: list[BaseException]
) -> int:
    """Once the judge is ready, the game as scripted; the exit status."""
    ready.wait(15)
    if crashed:
        if isinstance(crashed[0], OSError) and not _port_free(
            config.smtp_in.host, config.smtp_in.port
        ):
            return _fail(_busy(config))
        return _fail(f"the judge could not start: {crashed[0]!r}")
    if not ready.is_set():
        return _fail("the judge did not start within 15 seconds")
    try:
        demo.run()
    except (DemoError, OSError) as e:
        if crashed:
            return _fail(f"the judge stopped: {crashed[0]!r}")
        demo.summary()
        return _fail(str(e))
    demo.summary()
    return 0
