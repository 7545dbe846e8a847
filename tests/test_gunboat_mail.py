"""Issue 18, item 1: the mails of a gunboat game name no other player to a player or an
observer (njudge.md sections 2 and 3), by mail through the real handling path: white
press names the power and not the address, the masters' copy says who; a takeover is
announced with `someone@somewhere` (with SET QUIET not at all); late and abandoned powers
are not announced in a QUIET game; the end mail reveals the players unless SET NO
REVEAL. tests/test_gunboat_by_mail_dovecot.py plays a whole gunboat year end to end."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.game import outgoing
from judge.replies import Reply
from judge.store import games
from judge.store.db import transaction

GM = "gm@example.org"
LIST = "dip-results@lists.example.org"  # the judge's broadcast address: a public copy
MASTER = "SIGNON Mwar1 masterpw"
NEW = "new@example.org"


def gunboat_game(judge: Judge, **settings: bool) -> dict[str, str]:
    """A started gunboat game war1 made by mail (`CREATE ?war1 masterpw gunboat`, each
    player's `SIGNON ?war1 pw gunboat`), with the master's SET QUIET / SET NO REVEAL
    where `settings` ask; its players by power initial."""
    players = judge.start_game(variant="gunboat")
    words = {"quiet": ("SET QUIET", "SET NO QUIET"), "reveal": ("SET REVEAL", "SET NO REVEAL")}
    lines = [words[name][0 if value else 1] for name, value in settings.items()]
    if lines:
        judge.send(GM, "\n".join([MASTER, *lines]))
    game = judge.game()
    assert game.settings.gunboat
    assert all(getattr(game.settings, name) == value for name, value in settings.items())
    return players


def _first_lines(mails: list[Mail]) -> dict[str, str]:
    """The first body line of each mail but the acknowledgement, by its one recipient."""
    out = {}
    for m in mails[1:]:
        assert len(m.to) == 1, m.to  # one mail to each reader
        out[m.to[0]] = m.body.split("\n")[0]
    return out


def _to_each(mails: list[Mail], what: str) -> dict[str, str]:
    """The body of each mail whose subject has `what`, by its one recipient."""
    found = [m for m in mails if what in m.subject]
    assert all(len(m.to) == 1 for m in found), [m.to for m in found]
    return {m.to[0]: m.body for m in found}


def test_white_press_names_the_power_and_the_masters_copy_says_who(tmp_path: Path) -> None:
    judge = Judge(tmp_path, broadcast=LIST)
    players = gunboat_game(judge)
    france = players["F"]
    others = [a for i, a in players.items() if i != "F"]
    mails = judge.send(france, "SIGNON Fwar1 pw2\nBROADCAST\nHello all.\nENDPRESS")
    assert "  Broadcast message sent.\n" in mails[0].body
    line = "Broadcast message from France in 'war1':"
    assert _first_lines(mails) == {
        **dict.fromkeys([*others, LIST], line),
        GM: f"{line} [from {france} as France]",
    }
    for m in mails[1:]:
        assert m.subject == "TEST:war1 - S1901M Broadcast from France"
        assert (france in m.full) == (m.to == [GM]), m.full
    mails = judge.send(france, "SIGNON Fwar1 pw2\nPRESS TO EG\nJust you two.\nENDPRESS")
    line = "Message from France to England, Germany in 'war1':"
    assert _first_lines(mails) == {
        players["E"]: line,
        players["G"]: line,
        GM: f"{line} [from {france} as France]",
    }


def test_grey_press_in_a_gunboat_game_stays_anonymous(judge: Judge) -> None:
    players = gunboat_game(judge)
    judge.send(GM, f"{MASTER}\nSET WHITE/GREY")
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nPRESS TO R GREY\nBeware.\nENDPRESS")
    assert _first_lines(mails) == {
        players["R"]: "Message to Russia in 'war1':",
        GM: f"Message to Russia in 'war1': [from {players['F']} as France]",
    }


def test_the_masters_own_press_is_unchanged(judge: Judge) -> None:
    players = gunboat_game(judge)
    mails = judge.send(GM, f"{MASTER}\nBROADCAST\nDeadline soon.\nENDPRESS")
    line = f"Broadcast message from {GM} as the master in 'war1':"
    assert _first_lines(mails) == dict.fromkeys(players.values(), line)


def test_a_takeover_is_announced_as_someone_and_to_the_masters_by_address(
    judge: Judge,
) -> None:
    players = gunboat_game(judge)
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur")
    assert "  Take over of abandoned France allowed.\n" in mails[0].body
    told = _to_each(mails, "New Player Signon")
    others = [a for i, a in players.items() if i != "F"]
    hidden = "someone@somewhere has taken over the abandoned France in game 'war1'.\n"
    assert told == {
        GM: f"{NEW} has taken over the abandoned France in game 'war1'.\n",
        **dict.fromkeys(others, hidden),
    }
    assert all(NEW not in m.full for m in mails if m.to != [GM] and m.to != [NEW])


def test_a_quiet_game_tells_only_the_masters_of_a_takeover(judge: Judge) -> None:
    players = gunboat_game(judge, quiet=True)
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    mails = judge.send(NEW, "SIGNON Fwar1 newpw\nA Par - Bur")
    assert _to_each(mails, "New Player Signon") == {
        GM: f"{NEW} has taken over the abandoned France in game 'war1'.\n"
    }
    # The new deadline is everyone's, without a word of a power that had no player.
    advanced = _to_each(mails, "Deadline Advanced")
    assert sorted(advanced) == sorted([GM, NEW, *(a for i, a in players.items() if i != "F")])
    assert set(advanced.values()) == {
        "Deadline for 'war1' advanced to Monday 23 November 2026 12:11 UTC.\n"
        "WAIT is set for every player, so the phase is processed at the deadline unless\n"
        "all send SET NOWAIT.\n"
    }


def test_a_quiet_game_tells_only_the_masters_of_late_and_abandoned_powers(
    judge: Judge,
) -> None:
    players = gunboat_game(judge, quiet=True)
    judge.send(GM, f"{MASTER}\nSET NONMR")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    for i, initial in enumerate(POWERS):
        if initial not in "FT":  # France has no player, Turkey is late
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    mails = judge.at(deadline)
    assert [m.to for m in mails] == [[GM]]
    assert mails[0].subject == "TEST:war1 - S1901M Waiting for Replacements: F"
    judge.send(NEW, "SIGNON Fwar1 newpw\nA Par H\nA Mar H\nF Bre H\nSET NOWAIT")
    deadline = datetime.fromisoformat(judge.game().deadline or "")
    mails = judge.at(deadline)
    # The late power is told; the others are not told whom the judge waits for.
    assert sorted((m.to[0], m.subject) for m in mails) == [
        (GM, "TEST:war1 - S1901M Late Notice: Turkey"),
        (players["T"], "TEST:war1 - S1901M Late Notice: Turkey"),
    ]


def test_waiting_for_replacements_names_the_signon_a_gunboat_game_takes(judge: Judge) -> None:
    players = gunboat_game(judge)
    judge.send(GM, f"{MASTER}\nSET NONMR")
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    for i, initial in enumerate(POWERS):
        if initial != "F":
            judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    mails = judge.at(datetime.fromisoformat(judge.game().deadline or ""))
    told = _to_each(mails, "Waiting for Replacements: F")
    assert sorted(told) == sorted([GM, *(a for i, a in players.items() if i != "F")])
    assert set(told.values()) == {
        "The deadline for war1 (Movement, Spring of 1901) has passed,\n"
        "and France has no player. The game waits for replacements:\n"
        "the phase is processed once every power has a player again.\n"
        "Anyone not playing in the game may take a power over with\n"
        "SIGNON Fwar1 password\n"
        "(or SIGNON ?war1 password gunboat for the first free power).\n"
    }
    taken = judge.send(NEW, "SIGNON ?war1 newpw gunboat")
    assert "  Take over of abandoned France allowed.\n" in taken[0].body


def test_a_game_not_quiet_tells_everyone_whom_it_waits_for(judge: Judge) -> None:
    players = gunboat_game(judge)
    for i, initial in enumerate(POWERS[:-1]):  # Turkey is late
        judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    mails = judge.at(datetime.fromisoformat(judge.game().deadline or ""))
    told = _to_each(mails, "Late Notice: Turkey")
    assert sorted(told) == sorted([GM, *players.values()])
    assert all("p6@example.org" not in body for body in told.values())


def _ended(judge: Judge, **settings: bool) -> list[Mail]:
    """A gunboat game war1 whose French player was replaced by NEW, then terminated."""
    players = gunboat_game(judge, **settings)
    judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    judge.send(NEW, "SIGNON Fwar1 newpw")
    return judge.send(GM, f"{MASTER}\nTERMINATE")


def test_the_end_mail_reveals_who_played_what(judge: Judge) -> None:
    told = _to_each(_ended(judge), "Game Terminated")
    staying = [f"p{i}@example.org" for i in range(7) if i != 2]  # p2 resigned: not told
    assert sorted(told) == sorted([GM, NEW, *staying])
    end = told[NEW]
    assert set(told.values()) == {end}
    assert end.endswith(
        "The master has terminated war1. The game is over.\n"
        "\n"
        "Now that the game is over, its players are revealed:\n"
        "Austria: p0@example.org\n"
        "England: p1@example.org\n"
        "France:  p2@example.org, new@example.org\n"
        "Germany: p3@example.org\n"
        "Italy:   p4@example.org\n"
        "Russia:  p5@example.org\n"
        "Turkey:  p6@example.org\n"
    ), end


def test_no_reveal_keeps_the_players_hidden_at_the_end(judge: Judge) -> None:
    told = _to_each(_ended(judge, reveal=False), "Game Terminated")
    end = told[NEW]
    assert end.endswith("The master has terminated war1. The game is over.\n"), end
    assert "revealed" not in end and "p0@example.org" not in end


def test_an_open_game_end_mail_names_nobody(judge: Judge) -> None:
    judge.start_game()
    mails = judge.send(GM, f"{MASTER}\nTERMINATE")
    [end] = {body for body in _to_each(mails, "Game Terminated").values()}
    assert end.endswith("The master has terminated war1. The game is over.\n"), end


def test_the_last_results_reveal_the_players_when_the_game_ends_by_itself(
    judge: Judge,
) -> None:
    judge.send(GM, "CREATE ?war1 masterpw gunboat\nSET END 1901")
    for i, initial in enumerate(POWERS):
        judge.send(f"p{i}@example.org", f"SIGNON ?war1 pw{i} gunboat\nSET PREFERENCE {initial}")
    assert judge.game().settings.gunboat
    mails: list[Mail] = []
    for _year_half in ("S1901M", "F1901M"):  # every unit holds
        for i, initial in enumerate(POWERS):
            mails = judge.send(f"p{i}@example.org", f"SIGNON {initial}war1 pw{i}\n{HOLDS[initial]}")
    told = _to_each(mails, "F1901M Results")
    assert sorted(told) == sorted([GM, *(f"p{i}@example.org" for i in range(7))])
    results = told["p0@example.org"]
    assert judge.game().state == games.FINISHED
    players = "".join(
        f"{power + ':':8} p{i}@example.org\n"
        for i, power in enumerate(
            ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
        )
    )
    assert f"\n\nNow that the game is over, its players are revealed:\n{players}" in results


def test_only_an_answer_threads_under_the_mail_it_answers(judge: Judge) -> None:
    judge.start_game()
    press = {
        "game": "war1",
        "sender": "France",
        "address": None,
        "broadcast": True,
        "to": [],
        "all_but": False,
        "text": "Hello.",
    }
    asked = "<m1@sender.example.net>"
    for reply, threaded in [
        (Reply(("p1@example.org",), "press", press, "press"), False),  # in_reply by default
        (Reply(("p2@example.org",), "press", press, outgoing.REPLY), True),
    ]:
        with transaction(judge.db):
            outgoing.queue_reply(judge.db, judge.config, judge.now, reply, None, asked, [asked])
        [raw] = judge.db.execute("SELECT raw FROM outbound ORDER BY id DESC LIMIT 1").fetchone()
        head = bytes(raw).split(b"\r\n\r\n")[0]
        assert (b"In-Reply-To: <m1@sender.example.net>" in head) == threaded, head
        assert (b"References: <m1@sender.example.net>" in head) == threaded, head
