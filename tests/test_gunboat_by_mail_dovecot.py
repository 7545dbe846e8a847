"""Issue 18, item 1: a whole gunboat year by mail, end to end, and not one mail to a player
or an observer names another player.

The real mail path: a private Dovecot holds the judge's INBOX (mail appended as an MTA
delivers it), the real daemon (`run_forever`, IMAP IDLE in, SMTP out) reads it, and an
aiosmtpd peer plays every mailbox. The judge's clock is the test's, kept ahead of the real
one (tests/test_deadline_year_by_mail.py says why).

The script: a master creates gb1 (short phases, white and grey press) and it is made a
gunboat game; seven players, each with a distinctive address and a registered name, join;
an observer joins once it has started.

- Spring 1901: white broadcast (France), white press to two powers (England), grey press
  (Germany), press to the master (Russia); six order, Italy is late: at the deadline
  Italy gets its late notice and the others are told the judge waits for Italy; Italy's
  orders then complete the phase.
- Fall 1901: Turkey's player resigns; a newcomer takes Turkey over with orders in the same
  mail; Austria dislodges the Russian army in Ukraine.
- Fall 1901 retreats: Russia retreats to Moscow. Winter 1901: every power builds.
- Spring 1902 has begun: the year is over. Then the master terminates the game, and its
  end mail reveals who played what.

Every mail each player and the observer received until the end mail (every header,
decoded, the text and the attachments' names) is searched for every other player's
address, its local part and registered name: none may appear (SECRETS, per reader).
Their headers are checked too: To: the reader alone, no Cc: or Reply-To:, and
In-Reply-To:/References: only to the reader's own mails. The master's mailbox has them.
"""

from __future__ import annotations

import email
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses
from pathlib import Path

from mail_e2e import Mailboxes, make_config
from mail_e2e import mail as plain_mail
from servers import running_judge as judge
from smtp_sink import SmtpSink

GAME = "gb1"
MASTER = "gm@example.org"
MASTER_PASSWORD = "masterpw"
OBSERVER = "watcher.owl@example.com"
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


@dataclass(frozen=True)
class Player:
    address: str
    name: str  # the Name line of their REGISTER form
    password: str

    @property
    def local(self) -> str:
        return self.address.split("@")[0]

    @property
    def secrets(self) -> tuple[str, ...]:
        """What nobody else in the game may read of them: the address, its local part,
        the registered name and its surname."""
        return (self.address, self.local, self.name, self.name.split()[-1])


# Addresses, names and passwords that spell no power and no word the judge writes.
PLAYER = {
    "Austria": Player("quillon.ashgrove@example.net", "Ottilie Marchbanks", "pw-a1"),
    "England": Player("brannock.vell@example.net", "Fenwick Thorsby", "pw-e1"),
    "France": Player("cassivel.orme@example.net", "Isadora Quenby", "pw-f1"),
    "Germany": Player("dunmere.hask@example.net", "Leopold Varkas", "pw-g1"),
    "Italy": Player("elsworth.pryce@example.net", "Marguerite Olafsen", "pw-i1"),
    "Russia": Player("fennimore.quist@example.net", "Thaddeus Wrenfield", "pw-r1"),
    "Turkey": Player("gallowglass.tyne@example.net", "Perpetua Ingleby", "pw-t1"),
}
NEWCOMER = Player("harrowgate.zell@example.net", "Cornelius Abernathy", "pw-t2")  # Turkey's
EVERY_PLAYER = [*PLAYER.values(), NEWCOMER]
READERS = [p.address for p in EVERY_PLAYER] + [OBSERVER]
# What each reader must never read: every other player's address, local part and name.
SECRETS = {
    reader: [s for p in EVERY_PLAYER if p.address != reader for s in p.secrets]
    for reader in READERS
}

START = datetime(2030, 5, 6, 9, 0, tzinfo=UTC)  # a Monday, ahead of the real clock
TIMEOUT = 20.0  # seconds for an expected mail

ORDERS = {
    "S1901M": {
        "Austria": ["A Vie-Gal", "A Bud-Rum", "F Tri-Alb"],
        "England": ["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"],
        "France": ["F Bre-Mao", "A Par-Bur", "A Mar-Spa"],
        "Germany": ["F Kie-Den", "A Ber-Kie", "A Mun-Ruh"],
        "Italy": ["F Nap-Ion", "A Rom-Apu", "A Ven H"],  # late: after the deadline
        "Russia": ["F StP/sc-Bot", "A Mos-Ukr", "A War H", "F Sev-Bla"],
        "Turkey": ["F Ank-Bla", "A Con-Bul", "A Smy-Arm"],
    },
    "F1901M": {  # Austria dislodges the army in Ukraine; Turkey is the newcomer's
        "Austria": ["A Gal-Ukr", "A Rum S A Gal-Ukr", "F Alb-Gre"],
        "England": ["F Nwg-Nwy", "F Nth-Bel", "A Yor H"],
        "France": ["F Mao-Por", "A Spa H", "A Bur H"],
        "Germany": ["F Den H", "A Kie-Hol", "A Ruh H"],
        "Italy": ["F Ion-Tun", "A Apu H", "A Ven H"],
        "Russia": ["F Bot-Swe", "A Ukr H", "A War H", "F Sev H"],
        "Turkey": ["F Ank H", "A Bul H", "A Arm H"],
    },
    "F1901R": {"Russia": ["A Ukr R Mos"]},
    "W1901A": {
        "Austria": ["Build A Vie", "Build A Bud"],
        "England": ["Build F Lon", "Build F Edi"],
        "France": ["Build A Par", "Build F Bre"],
        "Germany": ["Build A Ber", "Build F Kie"],
        "Italy": ["Build F Nap"],
        "Russia": ["Build A StP"],
        "Turkey": ["Build A Con"],
    },
}


@dataclass(frozen=True)
class Received:
    """One mail as a reader's mailbox holds it."""

    rcpt: tuple[str, ...]  # the SMTP envelope's recipients
    msg: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.msg["Subject"])

    @property
    def body(self) -> str:
        text = self.msg.get_body(preferencelist=("plain",))
        assert text is not None
        return str(text.get_content()).replace("\r\n", "\n")

    @property
    def everything(self) -> str:
        """Every header (decoded), the text and the attachments' names."""
        heads = [f"{name}: {value}" for name, value in self.msg.items()]
        names = [part.get_filename() or "" for part in self.msg.walk()]
        return "\n".join([*heads, self.body, *names])


class Boxes:
    """Every mail the SMTP peer received, by recipient, read once each."""

    def __init__(self, sink: SmtpSink) -> None:
        self.sink = sink
        self.mails: list[Received] = []

    def of(self, address: str) -> list[Received]:
        for received in self.sink.messages[len(self.mails) :]:
            msg = email.message_from_bytes(received.data, policy=default)
            assert isinstance(msg, EmailMessage)
            rcpt = tuple(r.lower() for r in received.rcpt_tos)
            self.mails.append(Received(rcpt, msg))
        return [m for m in self.mails if address.lower() in m.rcpt]

    def subjects(self, address: str) -> list[str]:
        return [m.subject for m in self.of(address)]


def test_a_gunboat_year_by_mail_names_no_player_to_another(tmp_path: Path, servers) -> None:
    dovecot, sink = servers
    now = [START]
    boxes = Boxes(sink)
    waiter = Mailboxes(sink)  # its `settled`: nothing left to handle or send
    database = tmp_path / "judge.db"
    sent_ids: dict[str, set[str]] = {}  # each reader's own Message-IDs

    def clock() -> datetime:
        return now[0]

    def mail(sender: str, subject: str, lines: list[str]) -> bytes:
        raw = plain_mail(sender, subject, lines, now[0])
        found = re.search(rb"Message-ID: (<[^>]+>)", raw)
        assert found is not None
        sent_ids.setdefault(sender.lower(), set()).add(found.group(1).decode())
        return raw

    def wait(counts: dict[str, int], wanted: dict[str, str]) -> None:
        """Until each address of `wanted` has a new mail whose subject has its text,
        and the judge has nothing left to do."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            missing = {
                a: text
                for a, text in wanted.items()
                if not any(text in s for s in boxes.subjects(a)[counts.get(a, 0) :])
            }
            if not missing:
                break
            assert time.monotonic() < deadline, f"timed out waiting for {missing}"
            time.sleep(0.05)
        waiter.settled(database, TIMEOUT)

    def exchange(raws: list[bytes], wanted: dict[str, str]) -> dict[str, list[Received]]:
        """Deliver `raws`, wait for `wanted`; the new mail of each address."""
        counts = {a: len(boxes.of(a)) for a in [MASTER, *READERS]}
        for raw in raws:
            dovecot.append(raw)
        wait(counts, wanted)
        return {a: boxes.of(a)[n:] for a, n in counts.items()}

    def at(moment: datetime, wanted: dict[str, str]) -> dict[str, list[Received]]:
        counts = {a: len(boxes.of(a)) for a in [MASTER, *READERS]}
        now[0] = moment
        wait(counts, wanted)
        return {a: boxes.of(a)[n:] for a, n in counts.items()}

    def player(power: str, subject: str, *lines: str, who: Player | None = None) -> bytes:
        p = who or PLAYER[power]
        return mail(p.address, subject, [f"SIGNON {power[0]}{GAME} {p.password}", *lines])

    def orders(code: str, *extra: str) -> list[bytes]:
        return [player(p, f"{code} orders", *lines, *extra) for p, lines in ORDERS[code].items()]

    def one(mails: list[Received], text: str) -> Received:
        found = [m for m in mails if text in m.subject]
        assert len(found) == 1, (text, [m.subject for m in mails])
        return found[0]

    # The master's mail is in the INBOX before the judge starts (its first pass reads it).
    create = [
        f"CREATE ?{GAME} {MASTER_PASSWORD} standard gunboat",
        "SET MOVE LENGTH 2h",
        "SET RETREAT LENGTH 1h",
        "SET ADJUST LENGTH 1h",
        "SET GRACE 1h",
        "SET WHITE/GREY",
    ]
    dovecot.append(mail(MASTER, "new game", create))
    with judge(make_config(tmp_path, dovecot, sink), clock):
        wait({}, {MASTER: "new game"})

        # Seven players register a name and join; the game starts.
        now[0] += timedelta(minutes=5)
        joins = [
            mail(
                PLAYER[p].address,
                "joining",
                [
                    "REGISTER",
                    f"Name: {PLAYER[p].name}",
                    "END",
                    f"SIGNON ?{GAME} {PLAYER[p].password} gunboat",
                    f"SET PREFERENCE {p[0]}",
                ],
            )
            for p in POWERS
        ]
        new = exchange(joins, {PLAYER[p].address: "Game Starting" for p in POWERS})
        for p in POWERS:
            assert f"You are {p}." in one(new[PLAYER[p].address], "Game Starting").body
        deadline = now[0] + timedelta(hours=2)
        now[0] += timedelta(minutes=5)
        watch = mail(OBSERVER, "watching", [f"SIGNON ?{GAME} seepw"])
        new = exchange([watch], {OBSERVER: "watching"})
        body = new[OBSERVER][0].body
        assert "Observing gb1: confirm first that this address asked for\n  it;" in body, body
        # The observer sends back the code its answer carries, and gets the game's mail.
        [code] = re.findall(rf"^ *CONFIRM {GAME} ([A-Z0-9-]+)$", body, re.MULTILINE)
        confirm = mail(OBSERVER, "confirming", [f"CONFIRM {GAME} {code}"])
        new = exchange([confirm], {OBSERVER: "confirming"})
        assert "Confirmed: you observe gb1" in new[OBSERVER][0].body, new[OBSERVER][0].body

        # Spring 1901: press of every kind, six players' orders; Italy is late.
        now[0] += timedelta(minutes=5)
        spring = [m for m in orders("S1901M") if PLAYER["Italy"].address.encode() not in m]
        press = [
            player("France", "hello", "BROADCAST", "Greetings from Paris to all.", "ENDPRESS"),
            player("England", "a word", "PRESS TO FG", "Shall we share Belgium?", "ENDPRESS"),
            player("Germany", "psst", "PRESS TO R GREY", "Watch the Balkans.", "ENDPRESS"),
            player("Russia", "to the gm", "PRESS TO M", "When is the deadline?", "ENDPRESS"),
        ]
        new = exchange(
            press + spring,
            {
                PLAYER["Austria"].address: "Broadcast from France",
                PLAYER["France"].address: "Press from England to France, Germany",
                PLAYER["Russia"].address: "Press to Russia",
                MASTER: "Press from Russia to the master",
            },
        )
        france, england = PLAYER["France"], PLAYER["England"]
        broadcast = "Broadcast message from France in 'gb1':"
        for reader in [*(PLAYER[p].address for p in POWERS if p != "France"), OBSERVER]:
            shown = one(new[reader], "Broadcast from France")
            assert shown.body.startswith(f"{broadcast}\n\nGreetings from Paris"), shown.body
        copy = one(new[MASTER], "Broadcast from France")
        assert copy.body.startswith(f"{broadcast} [from {france.address} as France]\n")
        partial = "Message from England to France, Germany in 'gb1':"
        for reader in [france.address, PLAYER["Germany"].address]:
            shown = one(new[reader], "Press from England to France, Germany")
            assert shown.body.startswith(f"{partial}\n"), shown.body
        copy = one(new[MASTER], "Press from England")
        assert copy.body.startswith(f"{partial} [from {england.address} as England]\n")
        copy = one(new[MASTER], "Press from Germany to Russia")
        assert f"[from {PLAYER['Germany'].address} as Germany]" in copy.body, copy.body
        grey = one(new[PLAYER["Russia"].address], "Press to Russia")
        assert grey.body.startswith("Message to Russia in 'gb1':\n"), grey.body

        # The deadline: Italy is told it is late, the others that the judge waits for it.
        new = at(deadline, {PLAYER["Italy"].address: "Late Notice", MASTER: "Late Notice"})
        for reader in [PLAYER[p].address for p in POWERS if p != "Italy"]:
            assert "The judge is waiting for orders from Italy." in one(
                new[reader], "Late Notice: Italy"
            ).body.replace("\n", " ")
        now[0] += timedelta(minutes=10)
        italy = [player("Italy", "S1901M orders", *ORDERS["S1901M"]["Italy"])]
        new = exchange(italy, {a: "Results" for a in [MASTER, *READERS[:7], OBSERVER]})
        processed = now[0]

        # Fall 1901: Turkey resigns and a newcomer takes it over with its orders.
        now[0] += timedelta(minutes=10)
        exchange([player("Turkey", "bye", "RESIGN")], {PLAYER["Turkey"].address: "bye"})
        now[0] += timedelta(minutes=5)
        register = ["REGISTER", f"Name: {NEWCOMER.name}", "END"]
        takeover = mail(
            NEWCOMER.address,
            "taking over",
            [*register, f"SIGNON T{GAME} {NEWCOMER.password}", *ORDERS["F1901M"]["Turkey"]],
        )
        new = exchange([takeover], {NEWCOMER.address: "taking over", MASTER: "New Player"})
        ack = new[NEWCOMER.address][0]
        assert "Take over of abandoned Turkey allowed." in ack.body, ack.body
        assert (
            f"{NEWCOMER.address} has taken over the abandoned Turkey"
            in one(new[MASTER], "New Player Signon").body
        )
        hidden = "someone@somewhere has taken over the abandoned Turkey in game 'gb1'."
        for reader in [*(PLAYER[p].address for p in POWERS if p != "Turkey"), OBSERVER]:
            assert one(new[reader], "New Player Signon").body.startswith(hidden)
        now[0] += timedelta(minutes=5)
        old_turkey = PLAYER["Turkey"].address.encode()
        fall = [m for m in orders("F1901M", "SET NOWAIT") if old_turkey not in m]
        fall.append(player("Turkey", "nowait", "SET NOWAIT", who=NEWCOMER))
        new = exchange(fall, {PLAYER["Russia"].address: "Russia must retreat", MASTER: "Results"})
        assert "were dislodged" in one(new[MASTER], "Results").body

        # Fall 1901 retreats, then Winter 1901: every power builds.
        now[0] += timedelta(minutes=10)
        new = exchange(orders("F1901R"), {a: "may build" for a in READERS[:6]})
        now[0] += timedelta(minutes=10)
        winter = [m for m in orders("W1901A") if old_turkey not in m]
        winter.append(player("Turkey", "W1901A orders", "Build A Con", who=NEWCOMER))
        new = exchange(winter, {a: "Results" for a in [MASTER, NEWCOMER.address, OBSERVER]})
        assert "Adjustment results for Winter of 1901" in one(new[MASTER], "Results").body
        assert processed < now[0]
        before_end = {a: list(boxes.of(a)) for a in READERS}

        # The end: the master terminates the game, and its players are revealed.
        now[0] += timedelta(minutes=10)
        end = mail(MASTER, "the end", [f"SIGNON M{GAME} {MASTER_PASSWORD}", "TERMINATE"])
        new = exchange([end], {a: "Game Terminated" for a in [NEWCOMER.address, OBSERVER]})
        revealed = one(new[OBSERVER], "Game Terminated").body
        for power in POWERS[:-1]:
            assert f"{power}:".ljust(8) + f" {PLAYER[power].address}\n" in revealed, revealed
        turkey = f"Turkey:  {PLAYER['Turkey'].address}, {NEWCOMER.address}\n"
        assert turkey in revealed, revealed

    # -- Nothing a player or the observer received until the end names another player.
    for reader, mails in before_end.items():
        assert mails, reader
        for m in mails:
            text = m.everything.lower()
            leaked = [s for s in SECRETS[reader] if s.lower() in text]
            assert not leaked, (reader, leaked, m.subject, m.everything)
            _check_headers(reader, m, sent_ids.get(reader, set()))
    # Every player of record had mail all year long; the observer too.
    for reader in [*(PLAYER[p].address for p in POWERS if p != "Turkey"), OBSERVER]:
        assert len(before_end[reader]) >= 8, (reader, [m.subject for m in before_end[reader]])
    # The master's mailbox names them all: the start mail, the press copies ([from addr as
    # France]), the resignation, the takeover.
    masters = "\n".join(m.everything for m in boxes.of(MASTER))
    for who in EVERY_PLAYER:
        assert who.address in masters, who
    for power in ["France", "England", "Germany"]:
        assert f"[from {PLAYER[power].address} as {power}]" in masters, power
    assert f"{PLAYER['Turkey'].address} has resigned from {GAME}" in masters


def _check_headers(reader: str, m: Received, own: set[str]) -> None:
    """To: the reader alone, no Cc: or Reply-To:, and threading only to the reader's own
    mails."""
    assert m.rcpt == (reader,), (reader, m.rcpt, m.subject)
    to = [address.lower() for _, address in getaddresses([str(m.msg["To"])])]
    assert to == [reader], (reader, to, m.subject)
    assert m.msg["Cc"] is None and m.msg["Reply-To"] is None, m.subject
    threads = " ".join(str(m.msg[h] or "") for h in ("In-Reply-To", "References"))
    assert set(re.findall(r"<[^>]+>", threads)) <= own, (reader, threads, m.subject)
