"""`judge demo`: the scripted game year against a judge in the same process.

Run as the user runs it (`judge --config judge.toml demo`, in a subprocess), in a
temporary folder with a judge.toml on a free port, and checked by what it leaves in the
Maildir: the acknowledgements, the seven start mails, the results of each phase of 1901
with the orders' outcomes, the retreat and build requests.
"""

from __future__ import annotations

import email
import re
import socket
import subprocess
import sys
from dataclasses import dataclass
from email.policy import default
from pathlib import Path

from smtp_sink import free_port

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


@dataclass
class Mail:
    name: str
    subject: str
    to: list[str]
    body: str
    picture: str | None = None  # the file name of its inline PNG


def write_config(folder: Path, port: int) -> Path:
    config = folder / "judge.toml"
    config.write_text(f'[judge]\nname = "DEMO"\n\n[inbound.smtp]\nport = {port}\n')
    return config


def demo(folder: Path, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "judge.ops.cli", "--config", str(config), "demo"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=90,
    )


def outbox(folder: Path) -> list[Mail]:
    out = []
    for path in sorted((folder / "var" / "outbox" / "new").iterdir()):
        msg = email.message_from_bytes(path.read_bytes(), policy=default)
        to = [a.strip() for a in str(msg["To"]).split(",")]
        pngs = [p.get_filename() for p in msg.walk() if p.get_content_type() == "image/png"]
        body = msg.get_body(("plain",)).get_content()
        out.append(Mail(path.name, str(msg["Subject"]), to, body, pngs[0] if pngs else None))
    return out


def lines(body: str) -> list[str]:
    return [line.strip() for line in body.replace("\r\n", "\n").split("\n")]


def test_the_demo_plays_1901_by_mail_and_runs_again(tmp_path: Path) -> None:
    config = write_config(tmp_path, free_port())
    result = demo(tmp_path, config)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    game = re.search(r"creates \?(demo\d+): acknowledged", out).group(1)

    # The progress lines: who plays what, the orders, where each phase's results are.
    for power, orders in [
        ("France", "F Bre-Mao, A Par-Bur, A Mar-Spa"),
        ("Italy", "A Ven-Tri, A Tyr S A Ven-Tri, F Ion-Tun"),
    ]:
        season = "Spring" if power == "France" else "Fall"
        assert f"{power} orders {season} 1901: {orders}\n" in out, out
    assert "Austria orders Fall 1901 retreats: Fleet Trieste -> Albania\n" in out, out
    for label in ("Spring 1901", "Fall 1901", "Fall 1901 retreats", "Winter 1901"):
        assert re.search(rf"^results for {label} in var/outbox/new/judge-\d+-\w+$", out, re.M)
    assert len(re.findall(r"reads var/outbox/new/\S+: plays (\w+)", out)) == 7
    assert f"{game} goes on with Movement for Spring of 1902" in out
    assert (
        "var/outbox/new/ received 78 mails in" in out
        and "30 acknowledgements, 8 start mails, 32 results, 8 requests" in out
    ), out  # the results: one mail to each of 8 in each of 4 phases

    mails = outbox(tmp_path)
    assert len(mails) == 78

    # Acknowledgements: one per mail sent (the master's CREATE, seven SIGNONs, seven order
    # mails in each movement phase, Austria's retreat, seven adjustment mails), no errors.
    acks = [m for m in mails if m.subject.startswith("Re: ")]
    assert len(acks) == 1 + 7 + 7 + 7 + 1 + 7
    assert not [m.subject for m in acks if "ERROR" in m.subject or "ERROR" in m.body]
    created = next(m for m in acks if m.subject == f"Re: DEMO:{game} - S1901M {game} create")
    assert created.to == ["master@example.org"]
    assert f"Game {game} (Standard Diplomacy) is created and you are its master." in created.body

    # Seven start mails, one power each, to seven players; and the master's.
    starts = [m for m in mails if m.subject == f"DEMO:{game} - S1901M Game Starting"]
    assert len(starts) == 8
    power_of = {}
    for m in starts:
        found = re.search(r"You are (\w+)\. Sign on", " ".join(m.body.split()))
        if found is None:
            assert m.to == ["master@example.org"] and "You are the master." in m.body
            continue
        assert len(m.to) == 1 and m.to[0].startswith("player")
        assert f"You are {found.group(1)}." in m.body
        power_of[m.to[0]] = found.group(1)
    assert sorted(power_of.values()) == POWERS
    address = {power: a for a, power in power_of.items()}

    # An acknowledgement reads the orders back as they will be adjudicated.
    france = next(m for m in acks if m.subject.endswith(f" {game} Spring1901 orders of France"))
    assert france.to == [address["France"]]
    got = lines(france.body)
    start = got.index(f"France in {game}, Movement for Spring of 1901:")
    assert got[start + 1 : start + 8] == [
        "F BRE - MAO",
        "A PAR - BUR",
        "A MAR - SPA",
        "Orders on file now:",
        "Fleet Brest -> Mid-Atlantic Ocean",
        "Army Paris -> Burgundy",
        "Army Marseilles -> Spain",
    ], france.body

    # The results of every phase, to every player and the master, with the outcomes.
    names = {
        "S1901M": "Movement results for Spring of 1901",
        "F1901M": "Movement results for Fall of 1901",
        "F1901R": "Retreat results for Fall of 1901",
        "F1901B": "Adjustment results for Winter of 1901",  # njudge's name of W1901A
    }
    copies: dict[str, list] = {}
    for m in mails:
        if m.subject.startswith(f"DEMO:{game} - ") and m.subject.endswith(" Results"):
            copies.setdefault(names[m.subject.split()[2]], []).append(m)
    assert list(copies) == list(names.values())
    for sent in copies.values():  # one mail to each, all the same text
        assert sorted(a for m in sent for a in m.to) == sorted(["master@example.org", *power_of])
        assert all(len(m.to) == 1 and m.body == sent[0].body for m in sent)
    results = {name: sent[0] for name, sent in copies.items()}
    # each with the board it led to, inline (board-S1901M.png ...), as its text says
    for m in [*results.values(), *starts]:
        assert m.picture and m.picture.startswith("board-"), m.subject
        assert f"the attached picture {m.picture}." in " ".join(m.body.split()), m.body
    spring = lines(results["Movement results for Spring of 1901"].body)
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in spring
    assert "Germany: Army Munich -> Burgundy.  (*bounce*)" in spring
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in spring
    fall = lines(results["Movement results for Fall of 1901"].body)
    assert "Italy: Army Venice -> Trieste." in fall  # the supported attack
    assert "Italy: Army Tyrolia SUPPORT Army Venice -> Trieste." in fall
    assert "Austria: Fleet Trieste HOLD.  (*dislodged*)" in fall
    assert "The Austrian Fleet in Trieste can retreat to Adriatic Sea or Albania." in fall
    assert "Austria: Fleet Trieste -> Albania." in lines(
        results["Retreat results for Fall of 1901"].body
    )
    winter = lines(results["Adjustment results for Winter of 1901"].body)
    for line in [
        "Austria: Remove Fleet Albania.",
        "France: Build Army Marseilles.",
        "France: Build Fleet Brest.",
        "Italy: Waive a build.",
        "Russia: Build Fleet St Petersburg (north coast).",
    ]:
        assert line in winter, "\n".join(winter)
    assert f"The next phase of '{game}' will be Movement for Spring of 1902." in " ".join(winter)

    # The requests: Austria's retreat, then everyone's builds or removal, each to its own.
    requests = {m.subject.split(" ", 3)[-1]: m for m in mails}  # after "DEMO:game - F1901R"
    retreat = requests["Austria must retreat (Fall of 1901)"]
    assert retreat.to == [address["Austria"]]
    assert "Fleet in Trieste: may retreat to Adriatic Sea or Albania." in lines(retreat.body)
    assert requests["Austria must remove 1 unit (Winter of 1901)"].to == [address["Austria"]]
    assert requests["France may build 2 units (Winter of 1901)"].to == [address["France"]]
    assert (
        len([m for m in mails if re.search(r"must retreat|may build|must remove", m.subject)]) == 8
    )

    # Again, on the same database: a new game, as many new mails.
    again = demo(tmp_path, config)
    assert again.returncode == 0, again.stdout + again.stderr
    second = re.search(r"creates \?(demo\d+): acknowledged", again.stdout).group(1)
    assert second != game
    assert "var/outbox/new/ received 78 mails in" in again.stdout, again.stdout
    assert len(outbox(tmp_path)) == 156


def test_the_demo_says_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = demo(tmp_path, write_config(tmp_path, port))
    assert result.returncode == 1
    assert f"127.0.0.1:{port} is taken" in result.stderr, result.stderr
    assert "another judge" in result.stderr
    assert not (tmp_path / "var" / "outbox" / "new").exists() or not list(
        (tmp_path / "var" / "outbox" / "new").iterdir()
    )
