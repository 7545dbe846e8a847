"""Snapshot tests of every mail template, read as a player reads them.

The mails are made the way the judge makes them: raw mails go into a temporary store
(judge.store.inbox.ingest) and through judge.service.handling.handle_waiting, with a fixed clock
that moves on a minute per mail, and the rendered mails are read back from the outbound
table. Two games are played:

* `demo`, from CREATE through Spring 1901 (bounces at Tyrolia, the English Channel and
  Burgundy), Fall 1901 (Russia, supported by Austria, dislodges the Turkish army in
  Bulgaria, which may go to Constantinople or Greece), the Fall 1901 retreat (to Greece:
  the ownership section), and the Winter 1901 adjustments (Austria's removal made by
  civil disorder);
* `late`, whose Fall 1905 position is put straight into the store: Germany takes Belgium
  but has no free home centre to build in, England must remove two units, the Austrian
  army in Bohemia is destroyed, a support is cut and one is void.

too_large, rate_limited, reply_cap, internal_error and wrong_passwords are rendered
directly with compose.render.

Each snapshot in tests/snapshots/<case>.txt is the Subject line, a blank line and the body,
compared exactly. The files are the reviewed, correct mails: where the judge writes
something else, the test fails until the template (or the code behind it) is fixed.
`UPDATE_SNAPSHOTS=1 pytest tests/test_templates.py` rewrites them from what is rendered;
review every changed file before committing it. A last test asks that the lines the
templates write fit in 78 columns.
"""

from __future__ import annotations

import ast
import difflib
import email
import email.policy
import os
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

from judge.commands import table
from judge.config import Config
from judge.engine.phase import Phase
from judge.game import play
from judge.mail import compose
from judge.service.handling import handle_waiting
from judge.store import games, inbox
from judge.store.db import open_db, transaction
from judge.variants.json_contract import position_from_json

SNAPSHOTS = Path(__file__).parent / "snapshots"
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"
CONFIG = Config(name="TEST", address="judge@example.org", timezone="UTC")
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

MASTER = "gm@example.org"
# Player n asks for the power with this initial; no two ask for the same one, so each
# gets the power asked for (DPTG chapter I) whatever the random draw.
PLAYERS = {initial: f"p{n}@example.org" for n, initial in enumerate("AEFGIRT", start=1)}
PASSWORDS = {initial: f"pw{n}" for n, initial in enumerate("AEFGIRT", start=1)}


@dataclass(frozen=True)
class Mail:
    to: tuple[str, ...]
    subject: str
    body: str

    @property
    def text(self) -> str:
        return f"Subject: {self.subject}\n\n{self.body}"


class Judge:
    """A judge over a temporary store, fed one raw mail at a time."""

    def __init__(self, path: Path) -> None:
        self.db = open_db(path)
        self.now = START
        self.count = 0

    def send(self, sender: str, body: str, subject: str = "orders") -> list[Mail]:
        """Deliver one mail and handle it; the mails the judge queued in answer."""
        self.count += 1
        self.now = START + timedelta(minutes=self.count)
        raw = (
            f"From: {sender}\r\nTo: {CONFIG.address}\r\nSubject: {subject}\r\n"
            f"Message-ID: <mail{self.count}@example.org>\r\n"
            f"Date: {self.now.strftime('%a, %d %b %Y %H:%M:%S +0000')}\r\n\r\n"
            + body.replace("\n", "\r\n")
            + "\r\n"
        ).encode()
        last = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbound").fetchone()[0]
        assert inbox.ingest(self.db, raw, "test", self.now) is not None
        now = self.now
        assert handle_waiting(self.db, CONFIG, lambda: now) == 1
        rows = self.db.execute(
            "SELECT raw FROM outbound WHERE id > ? ORDER BY id", [last]
        ).fetchall()
        return [_read(raw) for (raw,) in rows]

    def orders(self, initial: str, game: str, *lines: str) -> list[Mail]:
        body = "\n".join([f"SIGNON {initial}{game} {PASSWORDS[initial]}", *lines])
        return self.send(PLAYERS[initial], body)

    def set_position(self, name: str, data: dict) -> None:
        """Put a game straight into a position (as the judge stores a phase's start)."""
        position_from_json(data)  # a position the judge can read
        with transaction(self.db):
            game = games.find_game(self.db, name)
            assert game is not None
            deadline = play.deadline_for(game, Phase.parse(data["phase"]), self.now)
            game = games.update_game(
                self.db, game, self.now, phase=data["phase"], deadline=deadline
            )
            games.add_phase(self.db, game, data["phase"], data, deadline, self.now)


def _read(raw: bytes) -> Mail:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    to = tuple(a.strip() for a in str(msg["To"]).split(","))
    return Mail(to, str(msg["Subject"]), msg.get_content().replace("\r\n", "\n"))


def _one(mails: list[Mail], to: str, subject: str) -> Mail:
    """The one mail to `to` whose subject contains `subject`."""
    found = [m for m in mails if to in m.to and subject in m.subject]
    assert len(found) == 1, [(m.to, m.subject) for m in mails]
    return found[0]


def _ack(mails: list[Mail], to: str) -> Mail:
    return _one(mails, to, "Re: ")


# -- the games --------------------------------------------------------------------------


def _demo(judge: Judge, out: dict[str, Mail]) -> None:
    g = "demo"
    out["ack_create"] = _ack(judge.send(MASTER, f"CREATE ?{g} secret", "new game"), MASTER)
    for initial in "AEFGIR":
        mails = judge.send(
            PLAYERS[initial],
            f"SIGNON ?{g} {PASSWORDS[initial]}\nSET PREFERENCE {initial}",
            "join",
        )
        if initial == "A":
            out["ack_join_with_preference"] = _ack(mails, PLAYERS["A"])
    mails = judge.send(PLAYERS["T"], f"SIGNON ?{g} pw7\nSET PREFERENCE T", "join")
    out["ack_join_seventh_starts_the_game"] = _ack(mails, PLAYERS["T"])
    out["game_start_player"] = _one(mails, PLAYERS["A"], "Game Starting")
    out["game_start_master"] = _one(mails, MASTER, "Game Starting")
    assert len(mails) == 1 + 7 + 1

    # Spring 1901: mails that go wrong, then everyone's orders.
    mails = judge.send(PLAYERS["I"], "A Rom - Apu")
    out["ack_orders_without_signon"] = _ack(mails, PLAYERS["I"])
    mails = judge.send(PLAYERS["F"], f"SIGNON F{g} wrong\nA Par - Bur")
    out["ack_wrong_password"] = _ack(mails, PLAYERS["F"])
    out["ack_help"] = _ack(judge.send(PLAYERS["F"], "help", "help"), PLAYERS["F"])
    mails = judge.send(PLAYERS["E"], f"SINGON E{g} pw2\nF Lon - Eng")
    out["ack_unknown_command"] = _ack(mails, PLAYERS["E"])
    mails = judge.orders(
        "G",
        g,
        "F Kie - Den",
        "A Ber - Mos",  # illegal: Berlin does not border Moscow
        "A Ber - Kie",
        "A Mun - Ruh",  # replaced by the next line
        "A Mun - Burgandy",  # misspelt
    )
    out["ack_orders_with_errors"] = _ack(mails, PLAYERS["G"])
    judge.orders("A", g, "A Vie - Tyr", "A Bud - Ser", "F Tri - Alb")
    judge.orders("E", g, "F Edi - Nwg", "F Lon - Eng", "A Lvp - Yor")
    out["ack_clear"] = _ack(judge.orders("E", g, "CLEAR"), PLAYERS["E"])
    judge.orders("E", g, "F Edi - Nwg", "F Lon - Eng", "A Lvp - Yor")
    judge.orders("F", g, "F Bre - Eng", "A Mar - Spa", "A Par - Bur")
    mails = judge.orders(
        "R", g, "SET WAIT", "F StP/sc - Bot", "A Mos - Ukr", "A War - Gal", "F Sev - Rum"
    )
    out["ack_set_wait"] = _ack(mails, PLAYERS["R"])
    judge.orders("I", g, "F Nap - Ion", "A Rom - Apu", "A Ven - Tyr")
    mails = judge.orders("T", g, "F Ank - Bla", "A Con - Bul", "A Smy - Arm")
    assert len(mails) == 1, "Russia's WAIT holds the phase"
    mails = judge.send(MASTER, f"SIGNON M{g} secret\nPROCESS")
    out["ack_master_process"] = _ack(mails, MASTER)
    out["results_spring_1901_movement"] = _one(mails, MASTER, "Results")

    # Fall 1901: Russia takes Bulgaria with Austria's support; Italy convoys to Tunis.
    judge.orders("A", g, "A Vie H", "A Ser S F Rum - Bul", "F Alb H")
    judge.orders("E", g, "F Nwg - Nwy", "F Lon - Nth", "A Yor H")
    judge.orders("F", g, "F Bre - Mid", "A Spa H", "A Par - Bur")
    judge.orders("G", g, "F Den H", "A Kie - Hol", "A Mun - Bur")
    judge.orders("I", g, "A Ven - Tri", "F Ion C A Apu - Tun", "A Apu - Tun")
    judge.orders("R", g, "A Gal - Bud", "F Bot - Swe", "A Ukr H", "F Rum - Bul/ec")
    mails = judge.orders("T", g, "F Bla H", "A Arm - Sev", "A Bul H")
    out["ack_last_orders_process_the_phase"] = _ack(mails, PLAYERS["T"])
    out["results_fall_1901_movement"] = _one(mails, MASTER, "Results")
    out["retreat_request"] = _one(mails, PLAYERS["T"], "must retreat")
    assert len(mails) == 1 + 8 + 1  # the answer, the results to each of 8, the request

    # The Fall 1901 retreat: Turkey takes Greece; then the centres are counted.
    mails = judge.orders("T", g, "A Bul - Gre")
    out["results_fall_1901_retreat"] = _one(mails, MASTER, "Results")
    out["build_request_builds"] = _one(mails, PLAYERS["R"], "may build")
    out["build_request_removal"] = _one(mails, PLAYERS["A"], "must remove")
    assert len(mails) == 1 + 8 + 7  # the answer, the results to each of 8, the requests

    # Winter 1901: some builds; Austria's removal is left to civil disorder.
    judge.orders("R", g, "Build A War", "Build F StP/nc")
    judge.orders("G", g, "Build A Ber", "Waive")
    judge.orders("E", g, "Build F Lon")
    judge.orders("F", g, "Build F Bre")
    out["ack_builds"] = _ack(judge.orders("I", g, "Build F Nap"), PLAYERS["I"])
    mails = judge.send(MASTER, f"SIGNON M{g} secret\nPROCESS")
    out["results_winter_1901_adjustment"] = _one(mails, MASTER, "Results")


LATE_1905 = {
    "map": "standard",
    "phase": "F1905M",
    "units": {
        "AUSTRIA": ["A BOH", "F ADR"],
        "ENGLAND": ["A WAL", "A YOR", "F NTH", "F NWG"],
        "FRANCE": ["A BUR", "A PAR", "A PIC", "F LON"],
        "GERMANY": ["A BER", "A KIE", "A MUN", "A RUH", "F HOL"],
        "ITALY": ["A TYR", "A VEN", "F NAP"],
        "RUSSIA": ["A GAL", "A SIL", "A VIE"],
        "TURKEY": ["A BUL", "A CON", "F BLA"],
    },
    "centers": {
        "ENGLAND": ["EDI", "LVP"],
        "FRANCE": ["BEL", "BRE", "LON", "MAR", "PAR", "POR", "SPA"],
        "GERMANY": ["BER", "DEN", "HOL", "KIE", "MUN", "SWE"],
        "ITALY": ["NAP", "ROM", "VEN"],
        "RUSSIA": ["BUD", "MOS", "RUM", "SEV", "STP", "VIE", "WAR"],
        "TURKEY": ["ANK", "BUL", "CON", "GRE", "SER", "SMY"],
    },
}


def _late(judge: Judge, out: dict[str, Mail]) -> None:
    g = "late"
    judge.send(MASTER, f"CREATE ?{g} secret", "new game")
    for initial in "AEFGIRT":
        judge.send(PLAYERS[initial], f"SIGNON ?{g} {PASSWORDS[initial]}\nSET PREFERENCE {initial}")
    judge.set_position(g, LATE_1905)
    judge.orders("A", g, "A Boh H", "F Adr H")
    judge.orders("E", g, "F Nth H", "F Nwg H", "A Yor S A Wal - Lon", "A Wal H")
    judge.orders("F", g, "A Par H", "A Bur S A Pic - Bel", "A Pic - Bel", "F Lon H")
    judge.orders("G", g, "A Ber H", "A Kie H", "A Mun - Bur", "F Hol - Bel", "A Ruh S F Hol - Bel")
    judge.orders("I", g, "A Tyr H", "A Ven H", "F Nap H")
    judge.orders("T", g, "F Bla H", "A Bul H", "A Con H")
    mails = judge.orders("R", g, "A Sil - Boh", "A Gal S A Sil - Boh", "A Vie H")
    out["results_fall_1905_movement"] = _one(mails, MASTER, "Results")
    out["build_request_no_free_home_centre"] = _one(mails, PLAYERS["G"], "build")
    out["build_request_two_removals"] = _one(mails, PLAYERS["E"], "must remove")
    # Turkey has three builds but only Ankara and Smyrna free (Constantinople is occupied).
    out["build_request_fewer_free_centres_than_builds"] = _one(mails, PLAYERS["T"], "build")


def _direct(out: dict[str, Mail]) -> None:
    sub = SimpleNamespace(subject="Orders for Spring")
    for name, context in {
        "too_large": {"sub": sub, "size": 1234567, "limit": 1000000, "taken": 10000000},
        "rate_limited": {"sub": sub, "limit": 60},
        "reply_cap": {"sub": sub, "limit": 20},
        "internal_error": {"sub": sub},
        "internal_error_without_subject": {"sub": SimpleNamespace(subject="")},
        "wrong_passwords": {
            "game": "demo",
            "head": {"code": "TEST", "game": "demo", "phase": "S1901M"},
            "power": "France",
            "limit": 10,
            "until": "Saturday 21 November 2026 13:09 UTC",
        },
    }.items():
        template = name.removesuffix("_without_subject")
        subject, body = compose.render(template, CONFIG, **context)
        out[name] = Mail(("someone@example.org",), subject, body)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Mail]]:
    judge = Judge(tmp_path_factory.mktemp("templates") / "judge.db")
    out: dict[str, Mail] = {}
    _demo(judge, out)
    _late(judge, out)
    _direct(out)
    yield out
    judge.db.conn.close()


CASES = [
    "ack_create",
    "ack_join_with_preference",
    "ack_join_seventh_starts_the_game",
    "ack_orders_without_signon",
    "ack_wrong_password",
    "ack_help",
    "ack_unknown_command",
    "ack_orders_with_errors",
    "ack_clear",
    "ack_set_wait",
    "ack_master_process",
    "ack_last_orders_process_the_phase",
    "ack_builds",
    "game_start_player",
    "game_start_master",
    "results_spring_1901_movement",
    "results_fall_1901_movement",
    "results_fall_1901_retreat",
    "results_winter_1901_adjustment",
    "results_fall_1905_movement",
    "retreat_request",
    "build_request_builds",
    "build_request_removal",
    "build_request_no_free_home_centre",
    "build_request_two_removals",
    "build_request_fewer_free_centres_than_builds",
    "too_large",
    "rate_limited",
    "reply_cap",
    "internal_error",
    "internal_error_without_subject",
    "wrong_passwords",
]


@pytest.mark.parametrize("case", CASES)
def test_snapshot(case: str, rendered: dict[str, Mail]) -> None:
    path = SNAPSHOTS / f"{case}.txt"
    actual = rendered[case].text
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual)
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 and review it"
    expected = path.read_text()
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"{path.name} (reviewed)",
            f"{case} (rendered)",
        )
        pytest.fail("the mail differs from its snapshot:\n" + "".join(diff), pytrace=False)


# Lines a template writes should fit a classic 80-column mail reader, and a reply's
# "> " quoting, without wrapping: RFC 5322's 78. Lines that list a power's units or
# centres, and the echo of the player's own lines, depend on the game and are left out.
_DATA_LINE = re.compile(r"^(Line \d+: |(Austria|England|France|Germany|Italy|Russia|Turkey):)")


def test_template_lines_fit_in_78_columns(rendered: dict[str, Mail]) -> None:
    long = sorted(
        {
            f"{len(line)}: {line.strip()}"
            for mail in rendered.values()
            for line in mail.body.splitlines()
            if len(line) > 78 and not _DATA_LINE.match(line)
        }
    )
    assert not long, "lines over 78 characters:\n" + "\n".join(long)


# A line whose only values are the game's name, at its longest (store/games.MAX_GAME_NAME):
# the rendered cases above name a game of four letters. (The errors' texts are left out:
# templates/events/error.txt breaks them to fit, judge/mail/error_lines.py.)
_GAME_VALUE = re.compile(r"\{\{ *(e\.)?game *\}\}")


def test_lines_naming_the_game_fit_in_78_columns_with_its_longest_name() -> None:
    long = []
    for path in sorted(TEMPLATES.rglob("*.txt")):
        if path.parent.name == "errors":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            values = len(_GAME_VALUE.findall(line))
            if not values or "{%" in line or "{{" in _GAME_VALUE.sub("", line):
                continue
            width = len(_GAME_VALUE.sub("", line)) + values * games.MAX_GAME_NAME
            if width > 78:
                long.append(f"{path.relative_to(TEMPLATES)}:{number}: {width}")
    assert not long, "lines over 78 characters with a game name of 20:\n" + "\n".join(long)


def test_every_case_has_a_snapshot_and_every_snapshot_a_case(rendered: dict[str, Mail]) -> None:
    assert sorted(rendered) == sorted(CASES)
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.txt")) == sorted(CASES)


BRIEF = [
    "acknowledgement",
    "game_start",
    "results",
    "retreat_request",
    "build_request",
    "too_large",
    "rate_limited",
    "reply_cap",
    "internal_error",
    "wrong_passwords",
]


@pytest.mark.parametrize("template", BRIEF)
def test_every_template_has_cases(template: str) -> None:
    prefix = "ack_" if template == "acknowledgement" else template
    assert (TEMPLATES / f"{template}.txt").exists()
    assert any(c.startswith(prefix) for c in CASES)


# Acknowledgement events: templates/events/<kind>.txt, one per kind the commands emit.
COMMANDS = Path(__file__).resolve().parents[1] / "judge" / "commands"
EVENTS = TEMPLATES / "events"


def _emitted_kinds() -> set[str]:
    """Every event kind judge/commands/ records with `run.event(kind, ...)`, read from the
    source: a literal, either side of `a if c else b`, or `cmd.name.lower()`, which is
    the lowercase name of each command the enclosing handler is registered for."""
    kinds: set[str] = set()
    for path in sorted(COMMANDS.glob("*.py")):
        module = f"judge.commands.{path.stem}"
        for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(func, ast.FunctionDef):
                continue
            for call in ast.walk(func):
                if not (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "event"
                    and call.args
                ):
                    continue
                kind = call.args[0]
                options = [kind.body, kind.orelse] if isinstance(kind, ast.IfExp) else [kind]
                for option in options:
                    if isinstance(option, ast.Constant) and isinstance(option.value, str):
                        kinds.add(option.value)
                    elif ast.unparse(option) == "cmd.name.lower()":
                        kinds |= {
                            spec.name.lower()
                            for spec in table.COMMANDS
                            if (spec.handler.__module__, spec.handler.__name__)
                            == (module, func.name)
                        }
                    else:
                        raise AssertionError(
                            f"{path.name}:{call.lineno}: cannot tell which event kinds "
                            f"{ast.unparse(option)} is; name them in this test"
                        )
    return kinds


def test_every_event_kind_has_its_template_and_every_template_a_kind() -> None:
    emitted = _emitted_kinds()
    assert {"signed_on", "orders", "pause", "resume"} <= emitted  # the reader works
    files = {p.stem for p in EVENTS.glob("*.txt")}
    assert sorted(emitted - files) == [], "event kinds without templates/events/<kind>.txt"
    assert sorted(files - emitted) == [], "templates/events/ files no command emits"
    assert sorted(p.name for p in EVENTS.iterdir() if p.suffix != ".txt") == []


def test_an_event_kind_without_template_fails_loudly() -> None:
    # Not a silent blank in the middle of an acknowledgement: the render raises,
    # naming the missing file.
    sub = SimpleNamespace(subject="orders")
    events = [{"kind": "signed_on", "line": 1, "text": "SIGNON", "game": "g", "role": "o"}]
    unsigned = {"head": None, "time_left": None}
    subject, body = compose.render(
        "acknowledgement", CONFIG, sub=sub, events=events, errors=False, **unsigned
    )
    assert (subject, body) == (
        "Re: TEST orders",
        "\n:: Judge: TEST  \n\nLine 1: SIGNON\n  Signed on to g as o.\n",
    )
    with pytest.raises(jinja2.TemplateNotFound, match="events/no_such_kind.txt"):
        compose.render(
            "acknowledgement",
            CONFIG,
            sub=sub,
            events=[{"kind": "no_such_kind"}],
            errors=True,
            **unsigned,
        )


def test_a_regular_install_ships_every_template() -> None:
    # pip install . copies the data files pyproject.toml names: a template left out
    # (e.g. the templates/events/ subfolder) is missing from an installed judge.
    root = TEMPLATES.parent
    with open(root / "pyproject.toml", "rb") as f:
        data_files = tomllib.load(f)["tool"]["setuptools"]["data-files"]
    shipped = {
        (Path(target) / path.name, path)
        for target, patterns in data_files.items()
        for pattern in patterns
        for path in root.glob(pattern)
    }
    wanted = {
        (Path("share/judge") / path.relative_to(root), path)
        for path in TEMPLATES.rglob("*")
        if path.is_file() and path.name != "README.md"
    }
    assert sorted(wanted - shipped) == []
