"""Issue 18, item 4: a power whose player missed the end of grace is abandoned (njudge.md
section 5), by mail through the real handling path with a clock the test moves. Without
NMR the game waits for a replacement or the player's return (`Waiting for
Replacements`); with NMR the phase is processed with the power in civil disorder, and the
power is then free from the next phase. The player keeps his seat until a newcomer takes
the power over; the notices name no address in a gunboat game, and go to the masters
alone in a QUIET one."""

from __future__ import annotations

from datetime import datetime, timedelta

from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.store import games

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"
NEW = "new@example.org"
TURKEY = "F Ank - Bla\nA Con H\nA Smy H"

ABANDONED_NONMR = (
    "The grace period for war1 (Movement, Spring of 1901) has ended\n"
    "without your orders for Turkey.\n"
    "Turkey is now abandoned: anyone not playing in war1 may take it over.\n"
    "The game waits for a replacement, or for you.\n"
    "\n"
    "You keep your seat until someone takes it over. To play on, sign on with your\n"
    "own password and send your orders:\n"
    "\n"
    "    SIGNON Twar1 yourpassword\n"
)
WAITING = (
    "The grace period for war1 (Movement, Spring of 1901) is over,\n"
    "and Turkey is abandoned. The game waits for replacements:\n"
    "the phase is processed once every power has a player again.\n"
    "Anyone not playing in the game may take a power over with\n"
    "SIGNON Twar1 password\n"
    "(or SIGNON ?war1 password{gunboat} for the first free power).\n"
    "A player who abandoned a power may still come back to it, signing on\n"
    "with their own password and sending their orders.\n"
)
MASTERS_WAITING = (
    "\n"
    "As master you may also sign on and PROCESS the phase with the orders on file\n"
    "(units without orders hold).\n"
)
REPLACED = (
    "You abandoned Turkey in game 'war1', and a new player\n"
    "has taken it over: you no longer play in war1, and your\n"
    "password there no longer works.\n"
)


def _ack(mails: list[Mail], address: str) -> str:
    """The acknowledgement's body: the first mail to `address` alone."""
    return next(m for m in mails if m.to == [address]).body


def _by_address(mails: list[Mail], subject: str) -> dict[str, str]:
    """The mails with this subject, one to each address: address -> body."""
    copies = [m for m in mails if m.subject == subject]
    assert all(len(m.to) == 1 for m in copies)
    told = {m.to[0]: m.body for m in copies}
    assert len(told) == len(copies)
    return told


def _turkey(judge: Judge) -> games.Seat:
    [seat] = [s for s in games.seats(judge.db, judge.game(), games.PLAYER) if s.power == "TURKEY"]
    return seat


def _late_turkey(
    judge: Judge, *settings: str, variant: str = ""
) -> tuple[dict[str, str], datetime]:
    """A started game war1 with the master's `settings`, in which every power but Turkey
    has ordered; the clock at the deadline, the late notices sent. Returns the players
    and the end of grace (24 hours after the deadline)."""
    players = judge.start_game(variant=variant)
    if settings:
        judge.send(GM, "\n".join([MASTER, *settings]))
    for i, initial in enumerate(POWERS):
        if initial != "T":
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    judge.at(deadline)
    return players, deadline + timedelta(hours=24)


def test_without_nmr_a_late_power_is_abandoned_and_a_newcomer_takes_it_over(
    judge: Judge,
) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR")
    assert judge.at(grace_end - timedelta(seconds=1)) == []
    mails = judge.at(grace_end)
    assert _by_address(mails, "TEST:war1 - S1901M Abandoned: Turkey") == {
        players["T"]: ABANDONED_NONMR
    }
    everyone = {GM, *players.values()}
    told = _by_address(mails, "TEST:war1 - S1901M Waiting for Replacements: T")
    assert told == {
        a: WAITING.format(gunboat="") + (MASTERS_WAITING if a == GM else "") for a in everyone
    }
    assert len(mails) == 1 + len(everyone)
    assert _turkey(judge).abandoned_at == grace_end.isoformat(timespec="microseconds")
    # The player keeps the seat; LIST shows the power abandoned.
    body = _ack(judge.send(players["E"], "LIST war1"), players["E"])
    assert "   Turkey     abandon 3/3  p6@example.org\n" in body
    # Waiting, told once.
    assert judge.at(grace_end + timedelta(days=3)) == []
    assert judge.game().phase == "S1901M"
    mails = judge.send(NEW, f"SIGNON Twar1 newpw\n{TURKEY}")
    taken_at = judge.now
    assert _ack(mails, NEW).startswith(
        "Line 1: SIGNON Twar1 ****\n"
        "  Take over of abandoned Turkey allowed.\n"
        "  You now play Turkey in war1,\n"
        "  with the password of this line.\n"
        "  Wait has been set automatically for you - send 'set nowait' to clear.\n"
    )
    assert _by_address(mails, "TEST:war1 - S1901M Replaced: Turkey") == {players["T"]: REPLACED}
    # The others hear of the newcomer; the old player is told in his one mail alone.
    signon = _by_address(mails, "TEST:war1 - S1901M New Player Signon: T")
    assert sorted(signon) == sorted(everyone - {players["T"]})
    assert set(signon.values()) == {
        "new@example.org has taken over the abandoned Turkey in game 'war1'.\n"
    }
    assert [m.subject for m in mails if players["T"] in m.to] == [
        "TEST:war1 - S1901M Replaced: Turkey"
    ]
    assert all(players["T"] not in m.body for m in mails)
    assert _turkey(judge).address == NEW
    assert "signon refused" in _ack(judge.send(players["T"], "SIGNON Twar1 pw6"), players["T"])
    # The last free power taken: a new deadline, at which the newcomer's orders are used.
    pushed = judge.game().deadline or ""
    assert pushed == (taken_at + timedelta(hours=48)).isoformat(timespec="microseconds")
    results = judge.at(datetime.fromisoformat(pushed))
    [result] = [m for m in results if m.subject == "TEST:war1 - S1901M Results" and NEW in m.to]
    assert "Turkey: Fleet Ankara -> Black Sea.\n" in result.body
    assert judge.game().phase == "F1901M"
    summary = _ack(judge.send("x@example.org", "SUMMARY war1"), "x@example.org")
    assert (
        "    Turkey   p6@example.org from S1901M, left in S1901M\n"
        "             new@example.org from S1901M\n"
    ) in summary


def test_without_nmr_the_late_player_comes_back_with_his_orders(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR")
    judge.at(grace_end)
    judge.now = grace_end + timedelta(hours=2)
    # From his own address with a wrong password: refused as any wrong SIGNON.
    body = _ack(judge.send(players["T"], f"SIGNON Twar1 wrong\n{TURKEY}"), players["T"])
    assert body.startswith(
        "Line 1: SIGNON Twar1 ****\n"
        "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
    )
    assert _turkey(judge).abandoned_at is not None
    mails = judge.send(players["T"], f"SIGNON Twar1 pw6\n{TURKEY}")
    back_at = judge.now
    assert _ack(mails, players["T"]).startswith(
        "Line 1: SIGNON Twar1 ****\n"
        "  Welcome back: you play Turkey in war1 again, and it is no longer abandoned.\n"
        "\n"
        "Turkey in war1, Movement for Spring of 1901:\n"
    )
    assert not [m for m in mails if "New Player Signon" in m.subject or "Replaced" in m.subject]
    seat = _turkey(judge)
    assert (seat.address, seat.abandoned_at) == (players["T"], None)
    assert judge.effective("war1", "TURKEY") == ["F ANK - BLA", "A CON H", "A SMY H"]
    body = _ack(judge.send(players["E"], "LIST war1"), players["E"])
    assert "   Turkey           3/3  p6@example.org\n" in body
    # The game waited past its deadline: a new one, and the game goes on at it.
    advanced = _by_address(mails, "TEST:war1 - S1901M Deadline Advanced")
    assert sorted(advanced) == sorted({GM, *players.values()})
    pushed = datetime.fromisoformat(judge.game().deadline or "")
    assert pushed == back_at + timedelta(hours=48)
    results = judge.at(pushed)
    [result] = [m for m in results if m.subject == "TEST:war1 - S1901M Results" and m.to == [GM]]
    assert "Turkey: Fleet Ankara -> Black Sea.\n" in result.body
    assert judge.game().phase == "F1901M"


def test_the_abandoning_player_returns_from_another_address_with_his_password(
    judge: Judge,
) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR")
    judge.at(grace_end)
    mails = judge.send("elsewhere@example.org", f"SIGNON Twar1 pw6\n{TURKEY}")
    body = _ack(mails, "elsewhere@example.org")
    assert "  Welcome back: you play Turkey in war1 again, and it is no longer abandoned.\n" in body
    [copy] = [m.body for m in mails if m.to == [players["T"]] and "Deadline" not in m.subject]
    assert copy == (
        "This is a copy for the address of record: elsewhere@example.org sent the mail below.\n"
        f"\n{body}"
    )
    assert _turkey(judge).address == players["T"]


def test_with_nmr_the_late_power_is_processed_in_civil_disorder_then_abandoned(
    judge: Judge,
) -> None:
    players, grace_end = _late_turkey(judge)
    mails = judge.at(grace_end)
    results = _by_address(mails, "TEST:war1 - S1901M Results")
    assert players["T"] in results  # the late player gets the results as everyone does
    assert "In civil disorder (no orders received): Turkey.\n" in results[GM]
    # Told after the results (the next phase's subject): the power is now free.
    assert _by_address(mails, "TEST:war1 - F1901M Abandoned: Turkey") == {
        players["T"]: "The grace period for war1 (Movement, Spring of 1901) has ended\n"
        "without your orders for Turkey.\n"
        "The phase was processed with Turkey in civil disorder.\n"
        "Turkey is now abandoned: anyone not playing in war1 may take it over.\n"
        "\n"
        "You keep your seat until someone takes it over. To play on, sign on with your\n"
        "own password and send your orders:\n"
        "\n"
        "    SIGNON Twar1 yourpassword\n"
    }
    notice = (
        "Turkey has been abandoned in game 'war1' by p6@example.org.\n"
        "No orders came for it by the end of the grace period\n"
        "for Movement, Spring of 1901: the phase was processed\n"
        "with it in civil disorder.\n"
        "Anyone not playing in the game may take it over with\n"
        "SIGNON Twar1 password\n"
        "(or SIGNON ?war1 password for the first free power).\n"
    )
    told = _by_address(mails, "TEST:war1 - F1901M Abandoned: T")
    assert told == {a: notice for a in {GM, *players.values()} - {players["T"]}}
    assert sorted(m.subject for m in mails)[-1] == "TEST:war1 - S1901M Results"
    assert not [m for m in mails if "Replacements" in m.subject]
    assert judge.game().phase == "F1901M"
    body = _ack(judge.send(players["E"], "LIST war1"), players["E"])
    assert "   Turkey     abandon 3/3  p6@example.org\n" in body
    # Taken over in the next phase; the old player is told, and SUMMARY shows the newcomer.
    mails = judge.send(NEW, "SIGNON Twar1 newpw\nF Ank - Bla")
    assert "  Take over of abandoned Turkey allowed.\n" in _ack(mails, NEW)
    assert _by_address(mails, "TEST:war1 - F1901M Replaced: Turkey") == {players["T"]: REPLACED}
    summary = _ack(judge.send("x@example.org", "SUMMARY war1"), "x@example.org")
    assert (
        "    Turkey   p6@example.org from S1901M, left in F1901M\n"
        "             new@example.org from F1901M\n"
    ) in summary


def test_with_nmr_the_abandoning_player_plays_on_in_the_next_phase(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge)
    judge.at(grace_end)
    deadline = judge.game().deadline
    mails = judge.send(players["T"], "SIGNON Twar1 pw6\nF Ank - Bla")
    body = _ack(mails, players["T"])
    assert "  Welcome back: you play Turkey in war1 again, and it is no longer abandoned.\n" in body
    # The deadline had not passed: nothing waited for him, so nothing is pushed.
    assert judge.game().deadline == deadline
    assert [m.to for m in mails] == [[players["T"]]]
    assert _turkey(judge).abandoned_at is None
    body = _ack(judge.send(NEW, "SIGNON Twar1 newpw"), NEW)
    assert "signon refused" in body


def test_a_gunboat_games_notices_of_abandonment_name_no_address(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, variant="gunboat")
    mails = judge.at(grace_end)
    told = _by_address(mails, "TEST:war1 - F1901M Abandoned: T")
    hidden = (
        "Turkey has been abandoned in game 'war1'.\n"
        "No orders came for it by the end of the grace period\n"
        "for Movement, Spring of 1901: the phase was processed\n"
        "with it in civil disorder.\n"
        "Anyone not playing in the game may take it over with\n"
        "SIGNON Twar1 password\n"
        "(or SIGNON ?war1 password gunboat for the first free power).\n"
    )
    assert told == {
        a: hidden.replace("'war1'.", "'war1' by p6@example.org.") if a == GM else hidden
        for a in {GM, *players.values()} - {players["T"]}
    }
    for m in mails:
        if m.to != [GM]:
            assert all(a not in m.full for a in players.values() if [a] != m.to)
    # A newcomer's takeover: someone@somewhere to the players, the replaced one told.
    mails = judge.send(NEW, "SIGNON Twar1 newpw")
    assert _by_address(mails, "TEST:war1 - F1901M Replaced: Turkey") == {players["T"]: REPLACED}
    signon = _by_address(mails, "TEST:war1 - F1901M New Player Signon: T")
    assert signon[players["E"]] == (
        "someone@somewhere has taken over the abandoned Turkey in game 'war1'.\n"
    )


def test_a_gunboat_game_without_nmr_waits_naming_no_one(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR", variant="gunboat")
    mails = judge.at(grace_end)
    told = _by_address(mails, "TEST:war1 - S1901M Waiting for Replacements: T")
    gunboat = WAITING.format(gunboat=" gunboat")
    assert told == {
        a: gunboat + (MASTERS_WAITING if a == GM else "") for a in {GM, *players.values()}
    }


def test_a_quiet_game_tells_the_masters_alone(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET QUIET", variant="gunboat")
    mails = judge.at(grace_end)
    assert [m.to for m in mails if "Abandoned" in m.subject] == [[players["T"]], [GM]]
    body = _ack(judge.send(players["E"], "SIGNON Ewar1 pw1\nLIST"), players["E"])
    # LIST names no abandoned power to a player of a QUIET game: it counts them.
    assert "   Turkey           3/3  someone@somewhere\n   1 power is abandoned.\n" in body


def test_a_quiet_game_without_nmr_waits_telling_the_masters_alone(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR", "SET QUIET")
    mails = judge.at(grace_end)
    assert sorted((m.to[0], m.subject) for m in mails) == [
        (GM, "TEST:war1 - S1901M Waiting for Replacements: T"),
        (players["T"], "TEST:war1 - S1901M Abandoned: Turkey"),
    ]


def test_a_game_its_master_processes_is_unchanged(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR", "SET MANUAL PROCESS")
    mails = judge.at(grace_end)
    assert {m.subject for m in mails} == {"TEST:war1 - S1901M Turn Waiting"}
    assert _turkey(judge).abandoned_at is None
    assert judge.game().phase == "S1901M"


def test_with_nmr_a_power_with_part_of_its_orders_in_is_not_abandoned(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge)
    judge.send(players["T"], "SIGNON Twar1 pw6\nF Ank - Bla")
    mails = judge.at(grace_end)
    assert not [m for m in mails if "Abandoned" in m.subject]
    assert _turkey(judge).abandoned_at is None
    assert judge.game().phase == "F1901M"


def test_without_nmr_a_power_with_part_of_its_orders_in_is_abandoned(judge: Judge) -> None:
    players, grace_end = _late_turkey(judge, "SET NONMR")
    judge.send(players["T"], "SIGNON Twar1 pw6\nF Ank - Bla")
    mails = judge.at(grace_end)
    assert [m.subject for m in mails if m.to == [players["T"]]] == [
        "TEST:war1 - S1901M Abandoned: Turkey",
        "TEST:war1 - S1901M Waiting for Replacements: T",
    ]
    assert judge.game().phase == "S1901M"


def _late_notices(judge: Judge, *settings: str) -> dict[str, str]:
    """The deadline's late notices in a game where Turkey has not ordered: address -> body."""
    players = judge.start_game()
    judge.send(GM, "\n".join([MASTER, *settings]))
    for i, initial in enumerate(POWERS):
        if initial != "T":
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    mails = judge.at(datetime.fromisoformat(judge.game().deadline or ""))
    return _by_address(mails, "TEST:war1 - S1901M Late Notice: Turkey")


def test_without_nmr_the_late_notices_say_the_power_is_abandoned_at_the_end_of_grace(
    judge: Judge,
) -> None:
    told = _late_notices(judge, "SET NONMR")
    assert told["p6@example.org"].endswith(
        "Please send them before Tuesday 24 November 2026 12:08 UTC.\n"
        "At that time Turkey is abandoned: anyone may take it over, and the game waits\n"
        "for a replacement or for you to come back with your orders.\n"
    )
    assert told[GM].endswith(
        "The judge is waiting for orders from Turkey.\n"
        "If they do not arrive by Tuesday 24 November 2026 12:08 UTC,\n"
        "those powers are abandoned and the game waits for replacements.\n"
    )


def test_a_game_its_master_processes_says_the_master_decides(judge: Judge) -> None:
    told = _late_notices(judge, "SET NONMR", "SET MANUAL PROCESS")
    assert told["p6@example.org"].endswith(
        "At that time the game waits for the master to decide.\n"
    )
    assert told[GM].endswith(
        "If they do not arrive by Tuesday 24 November 2026 12:08 UTC, "
        "the master decides how to go on.\n"
    )


UNPLAYED = (
    "Every power still in war1 was abandoned, and\n"
    "Movement, Fall of 1901 was processed with nobody coming back. So\n"
    "that the game is not played out in civil disorder, mailing players who\n"
    "have gone, the judge has paused it: the clock is stopped and nothing is\n"
    "processed. The time left to the deadline is kept.\n"
    "\n"
    "Anyone not playing in war1 may still take a power over, and a\n"
    "player who abandoned one may come back to it. Sign on as master and send RESUME\n"
    "to play on (if nobody comes back, the game is paused again after the next\n"
    "phase), or TERMINATE to end the game.\n"
)


def _past_grace(judge: Judge) -> list[Mail]:
    """The mails of the current phase's deadline and of the end of its grace."""
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    return judge.at(deadline) + judge.at(deadline + timedelta(hours=24))


def test_an_nmr_game_nobody_plays_any_more_is_paused_until_its_master_resumes_it(
    judge: Judge,
) -> None:
    """With NMR, STALE and MAXYEARS off, a game whose players have all gone was played out
    in civil disorder for ever, mailing them every phase. A phase processed with every
    power abandoned before it pauses the game, its master told; everyone late once is
    only abandoned (they may come back). RESUME plays on; a player back plays on."""
    players = judge.start_game()
    judge.send(GM, f"{MASTER}\nSET STALE OFF\nSET MAXYEARS OFF")
    mails = _past_grace(judge)  # S1901M: everyone late, everyone abandoned
    assert len(_by_address(mails, "TEST:war1 - F1901M Abandoned: Turkey")) == 1
    assert not [m for m in mails if "Paused" in m.subject]
    assert (judge.game().phase, judge.game().state) == ("F1901M", games.ACTIVE)
    mails = _past_grace(judge)  # F1901M: nobody came back
    assert set(_by_address(mails, "TEST:war1 - F1901M Results")) == {GM, *players.values()}
    paused = "TEST:war1 - S1902M Game Paused: every power abandoned"
    assert _by_address(mails, paused) == {GM: UNPLAYED}
    game = judge.game()
    assert (game.phase, game.state, game.paused_remaining) == ("S1902M", games.PAUSED, 48 * 3600.0)
    assert judge.at(judge.now + timedelta(days=30)) == []  # nothing for ever
    judge.send(GM, f"{MASTER}\nRESUME")
    mails = _past_grace(judge)  # S1902M: still nobody
    assert set(_by_address(mails, "TEST:war1 - S1902M Results")) == {GM, *players.values()}
    assert len(_by_address(mails, "TEST:war1 - F1902M Game Paused: every power abandoned")) == 1
    # England's player comes back while it is paused: played on after RESUME.
    back = judge.send(players["E"], f"SIGNON Ewar1 pw{POWERS.index('E')}\n{HOLDS['E']}")
    assert "Welcome back: you play England in war1 again" in _ack(back, players["E"])
    judge.send(GM, f"{MASTER}\nRESUME")
    mails = _past_grace(judge)
    assert not [m for m in mails if "Paused" in m.subject]
    assert (judge.game().phase, judge.game().state) == ("S1903M", games.ACTIVE)
