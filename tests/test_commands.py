"""The command language through the real handling path (store on disk, no servers):
order-set rules, passwords, sign-on from another address, and every rejected line."""

from __future__ import annotations

import json

import pytest
from judge_harness import HOLDS, POWERS, Judge, Mail

from judge.engine.board import Position, Unit
from judge.engine.phase import Phase
from judge.store import games
from judge.variants.json_contract import position_to_json
from judge.variants.maps import load_map


def _ack(mails: list[Mail]) -> Mail:
    return mails[0]


# -- order-set rules -----------------------------------------------------------------------


def test_a_new_order_set_replaces_the_last_by_default(judge: Judge) -> None:
    judge.start_game()
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar-Spa")
    ack = _ack(judge.send("p2@example.org", "SIGNON Fwar1 pw2\nF Bre-Mao"))
    assert judge.effective("war1", "FRANCE") == ["F BRE - MAO"]
    assert "  Orders on file now:\n    Fleet Brest -> Mid-Atlantic Ocean\n" in ack.body
    assert "Still without orders: Army Marseilles, Army Paris." in ack.body
    sets = judge.db.execute("SELECT mode, lines FROM order_sets ORDER BY id").fetchall()
    assert [(m, [x["given"] for x in json.loads(lines)]) for m, lines in sets] == [
        ("replace", ["A Par-Bur", "A Mar-Spa"]),
        ("replace", ["F Bre-Mao"]),
    ]  # every set is kept as received


def test_merge_in_a_mail_keeps_earlier_orders_unit_by_unit(judge: Judge) -> None:
    judge.start_game()
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar-Spa")
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nMERGE\nF Bre-Mao\nA Par-Pic")
    assert judge.effective("war1", "FRANCE") == ["A MAR - SPA", "F BRE - MAO", "A PAR - PIC"]


def test_the_master_can_make_merging_the_rule_and_a_mail_can_override_it(judge: Judge) -> None:
    judge.start_game()
    ack = _ack(judge.send("gm@example.org", "SIGNON Mwar1 masterpw\nSET ORDERS MERGE"))
    assert "Order sets in war1 now merge with earlier ones." in ack.body
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur")
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Mar-Spa")
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR", "A MAR - SPA"]
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nREPLACE\nF Bre-Eng")
    assert judge.effective("war1", "FRANCE") == ["F BRE - ENG"]


def test_clear_discards_the_phases_orders(judge: Judge) -> None:
    judge.start_game()
    judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar-Spa")
    ack = _ack(judge.send("p2@example.org", "SIGNON Fwar1 pw2\nCLEAR"))
    assert judge.effective("war1", "FRANCE") == []
    assert "  All earlier orders for this phase are cleared.\n  No orders on file.\n" in ack.body


def test_two_orders_for_one_unit_the_last_legal_one_counts_with_a_warning(judge: Judge) -> None:
    judge.start_game()
    ack = _ack(judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur\nA Par-Pic\nA Par-Mun"))
    assert judge.effective("war1", "FRANCE") == ["A PAR - PIC"]
    assert (
        "  A PAR - BUR                  (replaced by a later order for the same unit)\n" in ack.body
    )
    assert "  A Par-Mun                    ERROR: Paris does not border Munich.\n" in ack.body
    # the illegal line, not the warning
    assert ack.subject == "Re: [Error Flag] TEST:war1 - S1901M orders"


def test_a_clean_order_set_has_no_error_flag(judge: Judge) -> None:
    judge.start_game()
    ack = _ack(judge.send("p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur\nA Mar-Spa\nF Bre-Mao"))
    assert ack.subject == "Re: TEST:war1 - S1901M orders"
    assert "  A PAR - BUR\n  A MAR - SPA\n  F BRE - MAO\n" in ack.body


def test_excess_builds_the_first_legal_ones_count(judge: Judge) -> None:
    judge.start_game()
    game = games.find_game(judge.db, "war1")
    assert game is not None
    gm = load_map("standard")
    # Winter 1901: France owns six centres and has three units away from home.
    position = Position(
        gm,
        Phase.parse("W1901A"),
        (Unit("FRANCE", "A", "BUR"), Unit("FRANCE", "A", "SPA"), Unit("FRANCE", "F", "POR")),
        {
            **{p: pw.home_centers for p, pw in gm.powers.items()},
            "FRANCE": frozenset({"PAR", "MAR", "BRE", "SPA", "POR", "BEL"}),
        },
    )
    games.add_phase(
        judge.db, game, "W1901A", position_to_json(position), game.deadline or "", judge.now
    )
    games.update_game(judge.db, game, judge.now, phase="W1901A")
    judge.db.conn.commit()
    ack = _ack(
        judge.send(
            "p2@example.org",
            "SIGNON Fwar1 pw2\nBuild A Par\nBuild A Par\nBuild F Bre\nBuild A Mar\nBuild A Mar",
        )
    )
    assert judge.effective("war1", "FRANCE") == ["A PAR B", "F BRE B", "A MAR B"]
    assert "  Build A Par                  ERROR: Paris is occupied.\n" in ack.body
    assert (
        "  Build A Mar                  ERROR: You may build only 3; this order is one\n"
        "    too many.\n" in ack.body
    )


# -- passwords and addresses ---------------------------------------------------------------


def test_a_wrong_password_reveals_nothing(judge: Judge) -> None:
    judge.start_game()
    answers = [
        _ack(judge.send("x@example.org", body)).body
        for body in (
            "SIGNON Fwar1 wrong",  # wrong password
            "SIGNON Fnosuch pw2",  # no such game
            "SIGNON Xwar1 pw2",  # no such power
            "SIGNON Ewar1 pw2",  # another power's password
        )
    ]
    refused = "  ERROR: signon refused: the game name, the power or the password is wrong.\n"
    for body in answers:
        assert refused in body
        assert "France" not in body and "Paris" not in body and "Movement" not in body


def test_a_signon_from_another_address_is_copied_to_the_address_of_record(judge: Judge) -> None:
    judge.start_game()
    mails = judge.send("laptop@example.net", "SIGNON Fwar1 pw2\nA Par-Bur")
    assert [m.to for m in mails] == [["laptop@example.net"], ["p2@example.org"]]
    assert mails[1].body.startswith(
        "This is a copy for the address of record: laptop@example.net sent the mail below.\n"
    )
    assert "  A PAR - BUR\n" in mails[1].body


def test_password_and_address_can_be_changed(judge: Judge) -> None:
    judge.start_game()
    mails = judge.send(
        "p2@example.org", "SIGNON Fwar1 pw2\nSET PASSWORD newpw\nSET ADDRESS p2@new.example.org"
    )
    assert (
        "  Not moved yet: your mail for war1 goes on to p2@example.org\n"
        "  until p2@new.example.org confirms: a code was mailed to it,\n"
    ) in mails[0].body
    [confirmed] = judge.confirm("p2@new.example.org")
    assert "Confirmed: the mail of your France seat of war1 comes" in confirmed.body
    refused = "signon refused"
    assert refused in _ack(judge.send("p2@new.example.org", "SIGNON Fwar1 pw2")).body
    assert refused not in _ack(judge.send("p2@new.example.org", "SIGNON Fwar1 newpw")).body


def test_an_idn_address_of_record_is_stored_in_idna(judge: Judge) -> None:
    judge.start_game()
    mails = judge.send("p2@example.org", "SIGNON Fwar1 pw2\nSET ADDRESS P2@Bücher.Example")
    assert "  until p2@xn--bcher-kva.example confirms: a code was mailed to it,\n" in (
        mails[0].body
    )
    judge.confirm("p2@xn--bcher-kva.example")
    [seat] = [s for s in games.seats(judge.db, judge.game()) if s.power == "FRANCE"]
    assert seat.address == "p2@xn--bcher-kva.example"
    # The same address written either way is one sender: no copy to itself.
    mails = judge.send("p2@bücher.example", "SIGNON Fwar1 pw2")
    assert [m.to for m in mails] == [["p2@xn--bcher-kva.example"]]


def test_create_and_join_refuse_a_sender_the_judge_cannot_always_reach(judge: Judge) -> None:
    refused = (
        "  ERROR: not done: your address österreich@example.org cannot be an address of\n"
        "  record,\n"
        "  because the part before the @ has characters other than ASCII letters,\n"
        "  digits and marks, and mail to it cannot be delivered everywhere.\n"
        "  Please write from an address with only ASCII characters before the @.\n"
    )
    [ack] = judge.send("österreich@example.org", "CREATE ?war2 pw")
    assert ack.to == ["österreich@example.org"] and refused in ack.body
    assert judge.db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
    judge.send("gm@example.org", "CREATE ?war2 pw")
    [ack] = judge.send("österreich@example.org", "SIGNON ?war2 pw")
    assert refused in ack.body and ack.subject == "Re: [Error Flag] TEST orders"
    assert games.seats(judge.db, judge.game("war2"), games.PLAYER) == []
    # An internationalised domain is fine, and stored IDNA-encoded.
    [ack] = judge.send("Ann <ann@münchen.de>", "SIGNON ?war2 pw")
    assert "You have joined war2: 1 of 7 players." in ack.body
    [seat] = games.seats(judge.db, judge.game("war2"), games.PLAYER)
    assert seat.address == "ann@xn--mnchen-3ya.de"


def test_the_answer_goes_to_the_sender_never_to_a_different_reply_to(judge: Judge) -> None:
    judge.start_game()
    mails = judge.send(
        "p2@example.org", "SIGNON Fwar1 pw2\nA Par-Bur", head="Reply-To: eve@example.net\r\n"
    )
    assert [m.to for m in mails] == [["p2@example.org"]]
    # From another address, with the address of record as Reply-To: the sender and the
    # address of record, nobody else.
    mails = judge.send(
        "laptop@example.net", "SIGNON Fwar1 pw2", head="Reply-To: p2@example.org\r\n"
    )
    assert [m.to for m in mails] == [["laptop@example.net"], ["p2@example.org"]]


def test_an_answer_to_a_reply_has_one_re(judge: Judge) -> None:
    [ack] = judge.send("gm@example.org", "HELP", subject="Re: Re: [TEST] Re: orders")
    assert ack.subject == "Re: TEST orders"


# -- every rejected line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("A Par-Bur", "ERROR: this line needs a SIGNON line before it"),
        ("SIGNNO Fwar1 pw2", "ERROR: I don't understand this line. Did you mean SIGNON?"),
        ("SET WIAT", "ERROR: I don't know SET WIAT. Did you mean SET WAIT?"),
        (
            "CREATE game2",
            "ERROR: Expected CREATE ?name password [variant], e.g. CREATE ?game1 secret.",
        ),
        ("CREATE ?war1 pw", "ERROR: there is already a game called war1; choose another name."),
        (
            "CREATE ?game2 pw chess",
            # The word is not echoed: "CREATE ?g my secret" would show half a password.
            "ERROR: Expected a variant after the password, one of: archipelago, chaos,\n"
            "  decapolis, duel, fleet_rome, standard, standard-1898, standard-2,\n"
            "  standard-3a, standard-3b, standard-4, standard-5, standard-6,\n"
            "  standard-anycenter.",
        ),
        (
            "CREATE ?game.2 pw",
            "ERROR: the game was not created: a game name is 1 to 20 letters (a-z),\n"
            "  digits, - or _, beginning with a letter or a digit.",
        ),
        (  # a Cyrillic "а": a name that would look like game1's
            "CREATE ?g\u0430me1 pw",
            "ERROR: the game was not created: a game name is 1 to 20 letters (a-z),",
        ),
        ("CREATE ?" + "g" * 21 + " pw", "ERROR: the game was not created: a game name is 1 to 20"),
        ("SIGNON ?g\u0430me1 pw", "ERROR: there is no game called g\u0430me1 waiting for players."),
        ("SIGNON ?nosuch pw", "ERROR: there is no game called nosuch waiting for players."),
        (
            "SIGNON war1",
            "ERROR: Expected SIGNON Xname password (X the power's initial, ? to join, M\n"
            "  for the master).",
        ),
        ("SIGNON Fwar1 pw2\nPROCESS", "ERROR: only the game's master may use PROCESS."),
        ("SIGNON Fwar1 pw2\nSET ORDERS MERGE", "ERROR: only the game's master may use SET ORDERS."),
        ("SIGNON Fwar1 pw2\nSET PREFERENCE F", "ERROR: this cannot be done in war1 now."),
        (
            "SIGNON Fwar1 pw2\nSET ADDRESS nowhere",
            "ERROR: nowhere cannot be your address of record,\n"
            "  because it is not a mail address (name@domain, without spaces or quotes).",
        ),
        (
            "SIGNON Fwar1 pw2\nSET ADDRESS österreich@example.org",
            "ERROR: österreich@example.org cannot be your address of record,\n"
            "  because the part before the @ has characters other than ASCII letters,\n"
            "  digits and marks, and mail to it cannot be delivered everywhere.",
        ),
        (
            "SIGNON Fwar1 pw2\nSET ADDRESS bob@exa_mple.org",
            "ERROR: bob@exa_mple.org cannot be your address of record,\n"
            "  because the part after the @ is not a valid domain name.",
        ),
        (
            "SIGNON Fwar1 pw2\nSET PASSWORD",
            "ERROR: Expected SET PASSWORD followed by a new password.",
        ),
        ("SIGNON Fwar1 pw2\nCLEAR now", "ERROR: Expected CLEAR on its own line."),
        (
            "SIGNON Fwar1 pw2\nSET ORDERS SOMETIMES",
            "ERROR: Expected SET ORDERS MERGE or SET ORDERS REPLACE.",
        ),
        ("SIGNON Mwar1 masterpw\nA Par-Bur", "ERROR: this cannot be done in war1 now."),
        (
            "SIGNON Fwar1 pw2\nA Par-Mos",
            "A Par-Mos                    ERROR: Paris does not border Moscow.",
        ),
        ("SIGNON Fwar1 pw2\nA Bur - Pic", "ERROR: There is no unit in Burgundy."),
        (
            "SIGNON Fwar1 pw2\nA Par - Pir",
            "A Par - Pir                  ERROR: 'pir' could be Paris, Picardy, Piedmont\n"
            "    or Portugal: please write the name out.\n",
        ),
    ],
)
def test_every_rejected_line_gets_its_reason(judge: Judge, body: str, expected: str) -> None:
    judge.start_game()
    ack = _ack(judge.send("p2@example.org", body))
    assert expected in ack.body
    assert ack.subject.startswith("Re: [Error Flag] TEST")


def test_a_forming_game_refuses_orders_and_bad_preferences(judge: Judge) -> None:
    judge.send("gm@example.org", "CREATE ?form1 pw")
    ack = _ack(judge.send("p@example.org", "SIGNON ?form1 pw\nSET PREFERENCE FXZ\nA Par-Bur"))
    assert "Line 2: SET PREFERENCE FXZ\n  ERROR: " in ack.body
    assert "Line 3: A Par-Bur\n  ERROR: this cannot be done in form1 now." in ack.body
    again = _ack(judge.send("p@example.org", "SIGNON ?form1 pw"))
    assert "ERROR: you have already joined form1." in again.body


def test_help_lists_the_commands(judge: Judge) -> None:
    ack = _ack(judge.send("new@example.org", "HELP"))
    assert "    CREATE ?name password       create a game; you become its master\n" in ack.body
    assert ack.subject == "Re: TEST orders"


def test_processing_when_the_last_orders_arrive_and_wait_holds_it(judge: Judge) -> None:
    players = judge.start_game()
    orders = HOLDS
    judge.send(players["T"], "SIGNON Twar1 pw6\nSET WAIT")
    for i, initial in enumerate(POWERS):
        mails = judge.send(players[initial], f"SIGNON {initial}war1 pw{i}\n{orders[initial]}")
    assert all("Results" not in m.subject for m in mails)  # Turkey waits
    mails = judge.send(players["T"], "SIGNON Twar1 pw6\nSET NOWAIT")
    results = [m for m in mails if m.subject == "TEST:war1 - S1901M Results"]
    assert len(results) == 8  # one mail to each
    assert "Russia: Fleet St Petersburg (south coast) HOLD.\n" in results[0].body
    assert sorted(a for m in results for a in m.to) == sorted(["gm@example.org", *players.values()])
    assert "The next phase of 'war1' will be Movement for Fall of 1901.\n" in results[0].body


def test_resigning_tells_the_master(judge: Judge) -> None:
    players = judge.start_game()
    mails = judge.send(players["F"], "SIGNON Fwar1 pw2\nRESIGN")
    assert "You have resigned from war1." in mails[0].body
    [notice] = mails[1:]
    assert notice.to == ["gm@example.org"]
    assert notice.subject == "TEST:war1 - S1901M Resignation: France"
    assert "p2@example.org has resigned from war1, where they played France." in notice.body
    # France is free now: its player signing on again with their password is back
    # (njudge's "returned"), as anyone else could take it over (tests/test_takeover_by_mail.py).
    back = judge.send(players["F"], "SIGNON Fwar1 pw2\nA Par-Bur")[0].body
    assert "  Welcome back: you play France in war1 again.\n" in back


def test_several_games_in_one_mail_each_after_its_own_signon(judge: Judge) -> None:
    players = judge.start_game("war1")
    judge.send("gm2@example.org", "CREATE ?war2 masterpw")
    for i, initial in enumerate(POWERS):
        address = players[initial] if initial == "F" else f"x{i}@example.org"
        judge.send(address, f"SIGNON ?war2 pw{i}\nSET PREFERENCE {initial}")
    ack = judge.send(
        players["F"], "SIGNON Fwar1 pw2\nA Par-Bur\nSIGNON Fwar2 pw2\nA Par-Pic\nSIGNOFF\nA Mar-Spa"
    )[0]
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    assert judge.effective("war2", "FRANCE") == ["A PAR - PIC"]
    assert "France in war1, Movement for Spring of 1901:\n  A PAR - BUR\n" in ack.body
    assert "France in war2, Movement for Spring of 1901:\n  A PAR - PIC\n" in ack.body
    assert "A Mar-Spa" not in ack.body  # after SIGNOFF nothing is read
