"""Games for fewer players on the standard map (rulebook XV.3) through the judge's mail
handling: neutral powers, players of several powers ordering them all in one mail, the
World War I game's coin flip and its 24-centre victory counted per player."""

from __future__ import annotations

from judge_harness import Judge

from judge.store import games

GM = "gm@example.org"


def _create(judge: Judge, variant: str, players: int, preferences: str = "") -> list[str]:
    ack = judge.send(GM, f"CREATE ?war1 masterpw {variant}")[0].body
    assert f"({players} are needed)" in ack
    addresses = []
    for i in range(players):
        pref = f"\nSET PREFERENCE {preferences[i]}" if preferences else ""
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}{pref}")
        addresses.append(f"p{i}@example.org")
    assert judge.game().state == games.ACTIVE
    return addresses


def _seats(judge: Judge) -> dict[str, str]:
    return {s.power: s.address for s in games.seats(judge.db, judge.game(), games.PLAYER)}


def test_six_players_italy_neutral(judge: Judge) -> None:
    ack = judge.send(GM, "CREATE ?war1 masterpw standard-6")[0].body
    assert "(6 are needed)" in ack
    starts = []
    for i, initial in enumerate("AEFGRT"):
        starts += judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}\nSET PREFERENCE {initial}")
    assert _seats(judge) == {
        "AUSTRIA": "p0@example.org",
        "ENGLAND": "p1@example.org",
        "FRANCE": "p2@example.org",
        "GERMANY": "p3@example.org",
        "RUSSIA": "p4@example.org",
        "TURKEY": "p5@example.org",
    }
    [austria] = [
        m for m in starts if m.to == ["p0@example.org"] and m.subject.endswith(" Game Starting")
    ]
    assert "You are Austria." in austria.body
    assert "Neutral: Italy. Neutral units hold and are never ordered" in austria.body
    judge.send("p0@example.org", "SIGNON Awar1 pw0\nA VIE - TYR\nA BUD H\nF TRI - VEN")
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject.endswith(" S1901M Results") and GM in m.to]
    assert "Austria: Fleet Trieste -> Venice.  (*bounce*)" in results.body
    # Italy is neutral, not in civil disorder; the others simply sent nothing.
    assert (
        "In civil disorder (no orders received): England, France, Germany, Russia, Turkey.\n"
    ) in results.body
    assert "Italy: Army Rome HOLD." in results.body


def test_two_players_order_three_powers_each_in_one_mail(judge: Judge) -> None:
    starts = []
    judge.send(GM, "CREATE ?war1 masterpw standard-2")
    starts += judge.send("p0@example.org", "SIGNON ?war1 pw0\nSET PREFERENCE E")
    starts += judge.send("p1@example.org", "SIGNON ?war1 pw1\nSET PREFERENCE A")
    assert _seats(judge) == {
        "ENGLAND": "p0@example.org",
        "FRANCE": "p0@example.org",
        "RUSSIA": "p0@example.org",
        "AUSTRIA": "p1@example.org",
        "GERMANY": "p1@example.org",
        "TURKEY": "p1@example.org",
    }
    [mine] = [
        m for m in starts if m.to == ["p0@example.org"] and m.subject.endswith(" Game Starting")
    ]
    assert "You are England, France and Russia. Sign on with: SIGNON Ewar1" in mine.body
    assert judge.game().phase == "S1914M"
    ack = judge.send(
        "p0@example.org",
        "SIGNON Fwar1 pw0\nF LON - NTH\nA PAR - BUR\nA MOS - UKR\nRussia:\nF SEV - BLA",
    )[0].body
    assert "Signed on to war1 as France." in ack
    assert judge.effective("war1", "ENGLAND") == ["F LON - NTH"]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    assert judge.effective("war1", "RUSSIA") == ["A MOS - UKR", "F SEV - BLA"]
    # Italian territory is closed while Italy is neutral: the move is refused at once.
    ack = judge.send("p1@example.org", "SIGNON Awar1 pw1\nA VIE - TYR\nF TRI - VEN")[0].body
    assert "F TRI - VEN" not in judge.effective("war1", "AUSTRIA")
    assert "Venice" in ack and "ERROR" in ack


def test_the_world_war_coin_gives_italy_to_one_player(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw standard-2")
    judge.send("p0@example.org", "SIGNON ?war1 pw0\nSET PREFERENCE E")
    judge.send("p1@example.org", "SIGNON ?war1 pw1\nSET PREFERENCE A")
    judge.send("p0@example.org", "SIGNON Ewar1 pw0\nF LON - NTH")
    judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    judge.send("p0@example.org", "SIGNON Ewar1 pw0\nF NTH - NWY")
    mails = judge.send(GM, "SIGNON Mwar1 masterpw\nPROCESS")
    [results] = [m for m in mails if m.subject.endswith(" F1914M Results") and GM in m.to]
    joined = judge.game().joined
    assert list(joined) == ["ITALY"]
    winner = "p0@example.org" if joined["ITALY"] == "ENGLAND" else "p1@example.org"
    partner = (
        "England, France and Russia"
        if winner == "p0@example.org"
        else ("Austria, Germany and Turkey")
    )
    assert f"A coin has been flipped: Italy joins {partner}" in results.body
    assert _seats(judge)["ITALY"] == winner
    assert judge.game().phase == "W1914A"


def test_a_neutral_power_cannot_be_preferred(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw standard-6")
    ack = judge.send("p0@example.org", "SIGNON ?war1 pw0\nSET PREFERENCE IA")[0].body
    assert (
        "  ERROR: 'IA' is not a power; write power names or their initials (A, E, F, G,\n  R, T).\n"
    ) in ack
