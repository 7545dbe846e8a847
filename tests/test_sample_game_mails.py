"""The mails of a sample game, byte for byte, against a transcript kept in the repository.

Issue 15 moved the shell around the engine into layers and its mail text into templates
without changing one mail. This test is the proof and keeps it so: a scripted game (a
master, seven players, press, information commands, mistakes, two years with a
dislodgement, retreats, builds and civil disorder) runs through the judge's handling path
and its schedule, and every mail queued is written out whole (headers and body, as it
would be sent) into one transcript. The transcript in tests/golden/ was written by
the judge before the restructuring; any change to any mail shows as a diff.

The only values normalised are the Message-IDs the judge makes at random. To write the
transcript anew after a deliberate change: UPDATE_SNAPSHOTS=1 pytest this file, and read
the diff before committing it.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

from judge_harness import HOLDS, Judge

SNAPSHOT = Path(__file__).parent / "golden" / "sample_game_mails.txt"
MASTER = "gm@example.org"
_JUDGE_ID = re.compile(r"<[^<>@\s]+@(judge\.)?example\.org>")


def _script(j: Judge) -> list[tuple[str, list[str]]]:
    """Run the sample game; (what happened, the raw mails it queued) per step."""
    steps: list[tuple[str, list[str]]] = []
    last = [0]

    def note(what: str) -> None:
        rows = j.db.execute(
            "SELECT raw FROM outbound WHERE id > ? ORDER BY id", [last[0]]
        ).fetchall()
        last[0] = j.db.execute("SELECT COALESCE(MAX(id), 0) FROM outbound").fetchone()[0]
        steps.append((what, [bytes(r[0]).decode("utf-8", "replace") for r in rows]))

    def send(sender: str, body: str, subject: str = "orders") -> None:
        j.send(sender, body, subject)
        note(f"{sender}: {body!r}")

    send(MASTER, "HELP")
    send(MASTER, "CREATE ?war1 masterpw\nSET PRESS GREY\nSET MAP OFF")
    for i, initial in enumerate("AEFGIRT"):
        send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    p = {initial: f"p{i}@example.org" for i, initial in enumerate("AEFGIRT")}
    send("anyone@example.org", "LIST war1\nWHOGAME war1\nSUMMARY war1")
    send(p["A"], "SIGNON Awar1 wrongpw\nA Vie - Gal")
    send(p["A"], "SIGNON Awar1 pw0\nA Vie - Gal\nA Bud - Rum\nF Tri - Alb\nFOO BAR")
    send(p["R"], "SIGNON Rwar1 pw5\nA War - Gal\nF Sev - Rum\nA Mos - Ukr\nF StP/sc - Bot")
    send(p["F"], "SIGNON Fwar1 pw2\nA Par - Bur\nA Mar S A Par - Bur\nF Bre - Mid")
    send(p["G"], "SIGNON Gwar1 pw3\nA Mun - Bur\nA Ber - Kie\nF Kie - Den")
    send(p["I"], "SIGNON Iwar1 pw4\nA Ven - Tyr\nA Rom - Ven\nF Nap - Ion")
    send(p["E"], "SIGNON Ewar1 pw1\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor")
    send(p["T"], "SIGNON Twar1 pw6\nF Ank - Bla\nA Con - Bul\nA Smy - Con")
    send(p["T"], "SIGNON Twar1 pw6\nPRESS TO R\nShall we talk about the Black Sea?\nENDPRESS")
    send(MASTER, "SIGNON Mwar1 masterpw\nPREDICT")
    # Fall 1901: five powers order; England and Russia send nothing.
    send(p["F"], "SIGNON Fwar1 pw2\nA Bur - Mun\nA Mar - Bur\nF Mid - Por")
    send(p["G"], "SIGNON Gwar1 pw3\nA Mun S A Kie - Bur\nA Kie - Hol\nF Den H")
    send(p["I"], "SIGNON Iwar1 pw4\nA Tyr - Tri\nA Ven S A Tyr - Tri\nF Ion - Tun")
    send(p["A"], "SIGNON Awar1 pw0\nA Gal - Bud\nA Rum - Ser\nF Alb - Tri")
    send(p["T"], "SIGNON Twar1 pw6\nA Bul - Ser\nF Bla - Rum\nA Con - Bul")
    j.at(j.now + timedelta(days=2))
    note("the clock two days on")
    j.at(j.now + timedelta(days=1, hours=1))
    note("the clock a day and an hour on")
    send(p["A"], "SIGNON Awar1 pw0")
    send(p["A"], "SIGNON Awar1 pw0\nF Tri - Adr")
    j.at(j.now + timedelta(days=3))
    note("the clock three days on")
    send(p["G"], "SIGNON Gwar1 pw3\nBuild A Ber\nBuild F Kie")
    send(p["T"], "SIGNON Twar1 pw6\nBuild F Smy")
    send(p["E"], "SIGNON Ewar1 pw1\nBuild F Lon")
    j.at(j.now + timedelta(days=4))
    note("the clock four days on")
    send(MASTER, "SIGNON Mwar1 masterpw\nSET DEADLINE +36h\nPAUSE\nRESUME\nPROCESS")
    send("anyone@example.org", "HISTORY war1")
    send("anyone@example.org", f"SIGNON Awar1 pw0\n{HOLDS['A']}\nRESIGN")
    return steps


def _transcript(steps: list[tuple[str, list[str]]]) -> str:
    ids: dict[str, str] = {}

    def stable(match: re.Match[str]) -> str:
        return ids.setdefault(match.group(0), f"<id-{len(ids) + 1}>")

    parts = []
    for what, mails in steps:
        parts.append(f"==== {what}\n")
        for raw in mails:
            parts.append("---- mail\n" + _JUDGE_ID.sub(stable, raw.replace("\r\n", "\n")))
    return "".join(parts)


def test_the_sample_games_mails_are_byte_for_byte_the_transcripts(tmp_path: Path) -> None:
    text = _transcript(_script(Judge(tmp_path)))
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert text == SNAPSHOT.read_text(encoding="utf-8")
