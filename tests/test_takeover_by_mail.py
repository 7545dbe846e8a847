"""Issue 18, item 4: taking over an abandoned power as njudge.md section 5 says, by mail
through the real handling path with a clock the test moves: `SIGNON Xgame newpassword`,
`SIGNON ?game password`, `SIGNON ? password`, the notices, WAIT for the newcomer, the
deadline pushed out when the last free power is taken; the master's SET [NO] APPROVAL and
SET [NOT] APPROVE; and a game without NMR waiting for replacements."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.engine.phase import Phase
from judge.game import play
from judge.store import games
from judge.store.db import transaction
from judge.variants.maps import load_map

GM = "gm@example.org"
MASTER = "SIGNON Mwar1 masterpw"
NEW = "new@example.org"


def _to(mails: list[Mail], address: str) -> list[Mail]:
    return [m for m in mails if address in m.to]


def _ack(mails: list[Mail], address: str) -> str:
    """The acknowledgement's body: the first mail to `address` alone."""
    return next(m for m in mails if m.to == [address]).body


def _seat(judge: Judge, power: str) -> games.Seat:
    [seat] = [s for s in games.seats(judge.db, judge.game(), games.PLAYER) if s.power == power]
    return seat


def _resigned(judge: Judge) -> dict[str, str]:
    """A started game war1 whose French player (p2, password pw2) has resigned."""
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    return players


def test_a_newcomer_takes_over_a_resigned_power_with_orders_in_the_same_mail(
    judge: Judge,
) -> None:
    players = _resigned(judge)
    assert judge.game().deadline == "2026-11-23T12:08:00.000000+00:00"
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur\nF Bre - Mao\nA Mar H")
    assert _ack(mails, NEW).startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  Take over of abandoned France allowed.\n"
        "  You now play France in war1,\n"
        "  with the password of this line.\n"
        "  Wait has been set automatically for you - send 'set nowait' to clear.\n"
        "\n"
        "France in war1, Movement for Spring of 1901:\n"
    )
    others = sorted([GM, *(a for i, a in players.items() if i != "F")])
    assert _each(mails, "New Player Signon") == (
        others,
        "TEST:war1 - S1901M New Player Signon: F",
        "new@example.org has taken over the abandoned France in game 'war1'.\n",
    )
    # The last free power taken: the deadline pushed out a whole phase from now, and
    # WAIT set for every player.
    to, subject, body = _each(mails, "Deadline Advanced")
    assert (to, subject) == (sorted([*others, NEW]), "TEST:war1 - S1901M Deadline Advanced")
    assert body.startswith("Deadline for 'war1' advanced to Monday 23 November 2026 12:10 UTC.\n")
    assert judge.game().deadline == "2026-11-23T12:10:00.000000+00:00"
    assert all(s.wait for s in games.seats(judge.db, judge.game(), games.PLAYER))
    seat = _seat(judge, "FRANCE")
    assert seat.address == NEW
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR", "F BRE - MAO", "A MAR H"]
    # The old password signs on no more; the newcomer's does.
    body = _ack(judge.send(players["F"], "SIGNON Fwar1 pw2"), players["F"])
    assert "  ERROR: signon refused: the game name, the power or the password is wrong.\n" in body
    body = _ack(judge.send(NEW, "SIGNON Fwar1 newpw\nSET NOWAIT"), NEW)
    assert "  Signed on to war1 as France.\n" in body
    assert "newpw" not in body and "pw2" not in body


def test_a_power_with_a_player_is_never_taken_over(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur")
    assert _ack(mails, NEW) == (
        "Line 1: SIGNON Fwar1 ****\n"
        "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
        "Line 2: A Par - Bur\n"
        "  ERROR: not used, because the SIGNON before it was refused.\n"
    )
    assert [m.to for m in mails] == [[NEW]]
    assert _seat(judge, "FRANCE").address == players["F"]


def test_a_player_of_the_game_may_not_take_a_second_power(judge: Judge) -> None:
    players = _resigned(judge)
    mails = judge.send(players["E"], "SIGNON Fwar1 newpw\nA Par - Bur")
    body = _ack(mails, players["E"])
    assert body.startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  ERROR: You already play a power in war1, so you cannot take over another\n"
        "  one.\n"
        "Line 2: A Par - Bur\n"
        "  ERROR: not used, because the SIGNON before it was refused.\n"
    )
    assert [m.to for m in mails] == [[players["E"]]]
    assert [s.power for s in games.seats(judge.db, judge.game(), games.PLAYER)].count("FRANCE") == 0


def _each(mails: list[Mail], what: str) -> tuple[list[str], str, str]:
    """The notice whose subject has `what`, sent one mail to each address: (the addresses
    sorted, its subject, its body), the same in every copy."""
    copies = [m for m in mails if what in m.subject]
    assert copies and all(len(m.to) == 1 for m in copies)  # one mail each
    assert len({(m.subject, m.body) for m in copies}) == 1
    return sorted(m.to[0] for m in copies), copies[0].subject, copies[0].body


def test_signon_query_takes_the_first_free_power_of_a_started_game(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["T"], "SIGNON Twar1 pw6\nRESIGN")
    judge.send(players["E"], "SIGNON Ewar1 pw1\nRESIGN")
    mails = judge.send(NEW, "SIGNON ?war1 newpw")
    assert "  Take over of abandoned England allowed.\n" in _ack(mails, NEW)
    assert _seat(judge, "ENGLAND").address == NEW
    # Turkey is still free: no deadline pushed yet.
    assert not [m for m in mails if "Deadline Advanced" in m.subject]
    mails = judge.send("other@example.org", "SIGNON ?war1 otherpw")
    assert "  Take over of abandoned Turkey allowed.\n" in _ack(mails, "other@example.org")
    assert [m for m in mails if "Deadline Advanced" in m.subject]
    # No free power left: SIGNON ?war1 makes an observer, as before.
    body = _ack(judge.send("third@example.org", "SIGNON ?war1 thirdpw"), "third@example.org")
    assert "  Observing war1: confirm first that this address asked for\n  it;" in body


def test_an_ejected_power_and_a_force_begin_power_are_free(judge: Judge) -> None:
    judge.send(GM, "CREATE ?war1 masterpw")
    for i in range(6):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i}")
    judge.send(GM, f"{MASTER}\nFORCE BEGIN")
    seated = {s.power for s in games.seats(judge.db, judge.game(), games.PLAYER)}
    [free] = [p for p in load_map(judge.game().variant).powers if p not in seated]
    mails = judge.send(NEW, "SIGNON ?war1 newpw")
    assert f"  Take over of abandoned {free.title()} allowed.\n" in _ack(mails, NEW)
    assert _seat(judge, free).address == NEW
    victim = next(s for s in games.seats(judge.db, judge.game(), games.PLAYER) if s.address != NEW)
    assert victim.power is not None
    judge.send(GM, f"{MASTER}\nEJECT {victim.power[0]}")
    mails = judge.send("other@example.org", f"SIGNON {victim.power[0]}war1 otherpw")
    body = _ack(mails, "other@example.org")
    assert f"  Take over of abandoned {victim.power.title()} allowed.\n" in body
    assert _seat(judge, victim.power).address == "other@example.org"


def test_the_limits_on_wrong_passwords_hold_for_a_takeover(tmp_path: Path) -> None:
    judge = Judge(tmp_path, wrong_passwords_per_hour=2)
    _resigned(judge)
    thief = "thief@example.org"
    judge.send(thief, "SIGNON Gwar1 guess1")
    judge.send(thief, "SIGNON Gwar1 guess2")
    mails = judge.send(thief, "SIGNON Fwar1 mine\nA Par - Bur")
    body = _ack(mails, thief)
    assert body.startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  ERROR: signon refused, and the password was not checked: too many wrong\n"
    )
    assert "  ERROR: not used, because the SIGNON before it was refused.\n" in body
    assert "FRANCE" not in {s.power for s in games.seats(judge.db, judge.game(), games.PLAYER)}


def test_signon_query_alone_joins_the_first_forming_game(judge: Judge) -> None:
    judge.start_game("war1")  # started: not forming
    judge.send(GM, "CREATE ?second masterpw")
    judge.send(GM, "CREATE ?third masterpw")
    mails = judge.send(NEW, "SIGNON ? newpw")
    assert _ack(mails, NEW).startswith(
        "Line 1: SIGNON ? ****\n  You have joined second: 1 of 7 players.\n"
    )
    assert [s.address for s in games.seats(judge.db, judge.game("second"), games.PLAYER)] == [NEW]
    judge.send(NEW, "SIGNON ? newpw")  # already in second: the next one
    assert [s.address for s in games.seats(judge.db, judge.game("third"), games.PLAYER)] == [NEW]


def test_signon_query_alone_with_no_forming_game(judge: Judge) -> None:
    judge.start_game()
    assert _ack(judge.send(NEW, "SIGNON ? newpw"), NEW) == (
        "Line 1: SIGNON ? ****\n"
        "  ERROR: no game is waiting for players just now (LIST shows the games).\n"
    )


def _orders_from_all_but_france(judge: Judge, players: dict[str, str]) -> None:
    for i, initial in enumerate(POWERS):
        if initial != "F":
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")


def test_without_nmr_the_game_waits_for_a_replacement_who_orders_in_the_takeover_mail(
    judge: Judge,
) -> None:
    players = judge.start_game()
    judge.send(GM, f"{MASTER}\nSET NONMR")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    _orders_from_all_but_france(judge, players)
    assert judge.game().phase == "S1901M"  # every player's orders in: France's are not
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    notices = judge.at(deadline)
    everyone = sorted([GM, *(a for i, a in players.items() if i != "F")])
    assert _each(notices, "Waiting for Replacements") == (
        everyone,
        "TEST:war1 - S1901M Waiting for Replacements: F",
        "The deadline for war1 (Movement, Spring of 1901) has passed,\n"
        "and France has no player. The game waits for replacements:\n"
        "the phase is processed once every power has a player again.\n"
        "Anyone not playing in the game may take a power over with\n"
        "SIGNON Fwar1 password\n"
        "(or SIGNON ?war1 password for the first free power).\n",
    )
    # Past the end of grace: still waiting, and told once only.
    assert judge.at(deadline + timedelta(days=3)) == []
    assert judge.game().phase == "S1901M"
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur\nF Bre - Mao\nA Mar - Spa")
    assert "  Take over of abandoned France allowed.\n" in _ack(mails, NEW)
    pushed = judge.now + timedelta(hours=48)
    assert judge.game().deadline == pushed.isoformat(timespec="microseconds")
    results = judge.at(pushed)
    [result] = [m for m in results if m.subject == "TEST:war1 - S1901M Results" and NEW in m.to]
    assert (
        "France: Army Paris -> Burgundy.\n"
        "France: Fleet Brest -> Mid-Atlantic Ocean.\n"
        "France: Army Marseilles -> Spain.\n"
    ) in result.body
    assert judge.game().phase == "F1901M"


def test_with_nmr_a_free_power_is_in_civil_disorder_as_before(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    for i, initial in enumerate(POWERS[:-1]):
        if initial != "F":
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    # The last player's orders process the phase at once: France's units hold.
    mails = judge.send(players["T"], f"SIGNON Twar1 pw6\n{HOLDS['T']}")
    assert not [m for m in mails if "Replacements" in m.subject]
    [result, *_] = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    assert "France: Army Paris HOLD.\n" in result.body
    assert judge.game().phase == "F1901M"


def test_a_master_approves_a_newcomer_before_their_orders_are_taken(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send(GM, f"{MASTER}\nSET APPROVAL")
    assert "Line 2: SET APPROVAL\n  war1: approval is now on.\n" in _ack(mails, GM)
    [changed, *_] = [m for m in mails if m.subject == "TEST:war1 - S1901M Parameters Changed"]
    assert changed.body == (
        "Parameters for game 'war1' changed to:\n  Newcomers wait for the master's approval: yes\n"
    )
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur")
    assert _ack(mails, NEW).startswith(
        "Line 1: SIGNON Fwar1 ****\n"
        "  Take over of abandoned France allowed.\n"
        "  You now play France in war1,\n"
        "  with the password of this line.\n"
        "  Wait has been set automatically for you - send 'set nowait' to clear.\n"
        "  You are not approved to make moves yet: the master of war1\n"
        "  is asked to approve you, and you are mailed when they do.\n"
        "Line 2: A Par - Bur\n"
        "  ERROR: You are not approved to make moves: please contact the Master.\n"
    )
    assert judge.effective("war1", "FRANCE") == []
    [asked] = [m for m in mails if m.to == [GM] and "approval" in m.subject]
    assert (asked.subject, asked.body) == (
        "TEST:war1 - S1901M France waits for your approval",
        "new@example.org has taken over the abandoned France in game 'war1'.\n"
        "Their orders are refused until you approve them. To approve:\n"
        "\n"
        "    SIGNON Mwar1 password\n"
        "    SET APPROVE F\n"
        "\n"
        "SET NOT APPROVE F withdraws an approval; EJECT F frees the power again.\n",
    )
    mails = judge.send(GM, f"{MASTER}\nSET APPROVE F")
    assert (
        "Line 2: SET APPROVE F\n"
        "  France may make moves in war1 (a newcomer waiting for\n"
        '  your approval is mailed "Player moves approved").\n'
    ) in _ack(mails, GM)
    [approved] = [m for m in mails if m.to == [NEW] and "approved" in m.subject]
    assert (approved.subject, approved.body) == (
        "TEST:war1 - S1901M Player moves approved",
        "Player moves approved: the master of war1 has approved you as France.\n"
        "Your orders are taken from now on.\n",
    )
    judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur")
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    # SET NOT APPROVE withdraws it: the orders are refused again.
    judge.send(GM, f"{MASTER}\nSET NOT APPROVE F")
    body = _ack(judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Pic"), NEW)
    assert "  ERROR: You are not approved to make moves: please contact the Master.\n" in body
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]


def test_approval_is_the_masters_and_its_letters_are_checked(judge: Judge) -> None:
    players = judge.start_game()
    body = _ack(judge.send(players["E"], "SIGNON Ewar1 pw1\nSET APPROVE F"), players["E"])
    assert "Line 2: SET APPROVE F\n  ERROR:" in body
    long = "X" * 500
    body = _ack(judge.send(GM, f"{MASTER}\nSET APPROVE {long}\nSET NOT APPROVE"), GM)
    assert (
        f"  ERROR: {'X' * 40} are not the initials of\n"
        "  powers of war1; write e.g. SET APPROVE F.\n"
    ) in body
    assert "Line 3: SET NOT APPROVE\n  ERROR:" in body
    assert judge.game().settings.unapproved == ()


def test_the_old_player_with_their_own_password_returns_rather_than_taking_over(
    judge: Judge,
) -> None:
    players = _resigned(judge)
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par - Bur")
    assert _ack(mails, players["F"]).startswith(
        "Line 1: SIGNON Fwar1 ****\n  Welcome back: you play France in war1 again.\n"
    )
    assert not [m for m in mails if "New Player Signon" in m.subject]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    seat = _seat(judge, "FRANCE")
    # No power is free any more: WAIT set for every player, as after a takeover.
    assert (seat.address, seat.wait) == (players["F"], True)
    # With another password, the old player is a newcomer like any other.
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    mails = judge.send(players["F"], "SIGNON Fwar1 another")
    assert "  Take over of abandoned France allowed.\n" in _ack(mails, players["F"])
    assert "signon refused" in _ack(judge.send(players["F"], "SIGNON Fwar1 pw2"), players["F"])


def test_a_takeover_password_of_any_length_or_script_is_never_echoed(judge: Judge) -> None:
    _resigned(judge)
    password = "pässwörd-" + "x" * 500
    mails = judge.send(NEW, f"SIGNON Fwar1 {password}")
    assert "  Take over of abandoned France allowed.\n" in _ack(mails, NEW)
    assert all("pässwörd" not in m.body and "xxxxxxxx" not in m.body for m in mails)
    body = _ack(judge.send(NEW, f"SIGNON Fwar1 {password}"), NEW)
    assert body.startswith("Line 1: SIGNON Fwar1 ****\n  Signed on to war1 as France.\n")


def test_an_eliminated_power_is_never_taken_over(judge: Judge) -> None:
    players = judge.start_game()
    judge.send(players["A"], "SIGNON Awar1 pw0\nRESIGN")
    # Fall 1905 with Austria gone from the board: no unit, no supply centre.
    data = {
        "map": "standard",
        "phase": "F1905M",
        "units": {
            "ENGLAND": ["A WAL", "F NTH"],
            "FRANCE": ["A BUR", "A PAR"],
            "GERMANY": ["A BER", "A KIE"],
            "ITALY": ["A TYR", "A VEN"],
            "RUSSIA": ["A GAL", "A VIE"],
            "TURKEY": ["A BUL", "A CON"],
        },
        "centers": {
            "ENGLAND": ["EDI", "LVP"],
            "FRANCE": ["BRE", "PAR"],
            "GERMANY": ["BER", "KIE"],
            "ITALY": ["NAP", "VEN"],
            "RUSSIA": ["MOS", "VIE"],
            "TURKEY": ["ANK", "CON"],
        },
    }
    with transaction(judge.db):
        game = judge.game()
        deadline = play.deadline_for(game, Phase.parse("F1905M"), judge.now)
        game = games.update_game(judge.db, game, judge.now, phase="F1905M", deadline=deadline)
        games.add_phase(judge.db, game, "F1905M", data, deadline, judge.now)
    body = _ack(judge.send(NEW, "SIGNON Awar1 newpw"), NEW)
    assert "  ERROR: signon refused: the game name, the power or the password is wrong.\n" in body
    body = _ack(judge.send(NEW, "SIGNON ?war1 newpw"), NEW)
    assert "  Observing war1: confirm first that this address asked for\n  it;" in body
    assert "AUSTRIA" not in {s.power for s in games.seats(judge.db, judge.game(), games.PLAYER)}
