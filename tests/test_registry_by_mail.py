"""The player registry (issue 17, item 5): njudge's REGISTER form, WHOIS and INFO PLAYER,
I AM ALSO, by mail through the real handling path, with exact replies."""

from __future__ import annotations

from judge_harness import Judge

from judge.commands.registry import MAX_EMAILS, MAX_FIELD_CHARS, MAX_FORM_LINES

FORM = (
    "REGISTER\n"
    "Name:      Aretha Holly\n"
    "Phone:     (505) 555-5555\n"
    "Site:      University of Hodunk\n"
    "Address:   1515 St. Claws Lane, Kris Mass\n"
    "Country:   USA\n"
    "Timezone:  Eastern\n"
    "Email:     p2@example.org, Aretha@Other.example.org\n"
    "Level:     novice\n"
    "Birthdate: Dec 25, 1907\n"
    "Sex:       Female\n"
    "Package:   yes\n"
    "END"
)
ENTRY = (
    "    Name:      Aretha Holly\n"
    "    Phone:     (505) 555-5555\n"
    "    Site:      University of Hodunk\n"
    "    Address:   1515 St. Claws Lane, Kris Mass\n"
    "    Country:   USA\n"
    "    Timezone:  Eastern\n"
    "    Email:     p2@example.org, aretha@other.example.org\n"
    "    Level:     Novice\n"
    "    Birthdate: Dec 25, 1907\n"
    "    Sex:       Female\n"
    "    Package:   Yes\n"
)
PUBLIC = (
    "    Name:      Aretha Holly\n"
    "    Site:      University of Hodunk\n"
    "    Country:   USA\n"
    "    Timezone:  Eastern\n"
    "    Level:     Novice\n"
)


def test_register_stores_njudges_form_and_says_what_it_keeps(judge: Judge) -> None:
    [ack] = judge.send("p2@example.org", FORM + "\nWHOIS p2@example.org")
    assert ack.subject == "Re: TEST orders"
    assert ack.body == (
        "Line 1: REGISTER\n"
        "  Registered. The judge keeps:\n" + ENTRY + "  Addresses: p2@example.org\n"
        "  WHOIS shows anyone your Name, Site, Country, Timezone and Level; the\n"
        "  rest only you and the masters of your games.\n"
        "Line 14: WHOIS p2@example.org\n"
        "  p2@example.org is registered:\n" + ENTRY + "  Addresses: p2@example.org\n"
    )


def test_a_new_form_replaces_the_old_one(judge: Judge) -> None:
    judge.send("p2@example.org", FORM)
    [ack] = judge.send("p2@example.org", "register\nname: A. Holly\ncountry: Canada\nend")
    assert ack.body == (
        "Line 1: register\n"
        "  Registered. The judge keeps:\n"
        "    Name:      A. Holly\n"
        "    Country:   Canada\n"
        "  Addresses: p2@example.org\n"
        "  WHOIS shows anyone your Name, Site, Country, Timezone and Level; the\n"
        "  rest only you and the masters of your games.\n"
    )


def test_others_see_the_public_fields_and_masters_of_the_players_games_all(
    judge: Judge,
) -> None:
    judge.start_game()  # p2@example.org plays France, gm@example.org is the master
    judge.send("p2@example.org", FORM)
    [ack] = judge.send("x@example.org", "WHOIS P2@Example.org\nINFO PLAYER p2@example.org")
    public = "  p2@example.org is registered:\n" + PUBLIC
    assert ack.body == (
        f"Line 1: WHOIS P2@Example.org\n{public}Line 2: INFO PLAYER p2@example.org\n{public}"
    )
    [ack] = judge.send("gm@example.org", "WHOIS p2@example.org")
    assert ack.body == (
        "Line 1: WHOIS p2@example.org\n"
        "  p2@example.org is registered:\n" + ENTRY + "  Addresses: p2@example.org\n"
    )
    # The master of another game, without this player, sees what anyone sees.
    judge.send("gm2@example.org", "CREATE ?war2 masterpw")
    [ack] = judge.send("gm2@example.org", "WHOIS p2@example.org")
    assert ack.body == f"Line 1: WHOIS p2@example.org\n{public}"


def test_whois_of_an_address_nobody_registered(judge: Judge) -> None:
    [ack] = judge.send("x@example.org", "WHOIS nobody@example.org\nWHOIS not-an-address")
    assert ack.subject == "Re: [Error Flag] TEST orders"
    assert ack.body == (
        "Line 1: WHOIS nobody@example.org\n"
        "  ERROR: nobody@example.org is not registered here.\n"
        "Line 2: WHOIS not-an-address\n"
        "  ERROR: not-an-address is not registered here.\n"
    )


def test_i_am_also_joins_only_an_address_the_registration_lists(judge: Judge) -> None:
    judge.send("p2@example.org", FORM)
    [ack] = judge.send("x@example.org", "I AM ALSO p2@example.org")
    assert ack.body == (
        "Line 1: I AM ALSO p2@example.org\n"
        "  ERROR: The registration of p2@example.org does not list x@example.org on its\n"
        "  Email: line. Send REGISTER from p2@example.org with x@example.org on that\n"
        "  line first, then I AM ALSO again.\n"
    )
    [ack] = judge.send(
        "Aretha@other.example.org", "IamAlso p2@example.org\nIAM ALSO P2@example.org"
    )
    assert ack.body == (
        "Line 1: IamAlso p2@example.org\n"
        "  Your address now belongs to the registration of p2@example.org.\n"
        "  Addresses: p2@example.org, aretha@other.example.org\n"
        "Line 2: IAM ALSO P2@example.org\n"
        "  Your address is already one of this registration's.\n"
        "  Addresses: p2@example.org, aretha@other.example.org\n"
    )
    # The joined address is the same person: it sees the whole entry, and its own form
    # updates the one registration.
    [ack] = judge.send("aretha@other.example.org", "WHOIS p2@example.org")
    assert ack.body.endswith(ENTRY + "  Addresses: p2@example.org, aretha@other.example.org\n")
    [ack] = judge.send("aretha@other.example.org", "REGISTER\nName: Aretha H.\nEND")
    assert "  Addresses: p2@example.org, aretha@other.example.org\n" in ack.body
    [ack] = judge.send("x@example.org", "WHOIS p2@example.org")
    assert ack.body == (
        "Line 1: WHOIS p2@example.org\n  p2@example.org is registered:\n    Name:      Aretha H.\n"
    )


def test_i_am_also_from_an_address_registered_on_its_own(judge: Judge) -> None:
    judge.send("p2@example.org", FORM)
    judge.send("aretha@other.example.org", "REGISTER\nName: Aretha\nEND")
    [ack] = judge.send("aretha@other.example.org", "I AM ALSO p2@example.org")
    assert ack.body == (
        "Line 1: I AM ALSO p2@example.org\n"
        "  ERROR: aretha@other.example.org is registered on its own.\n"
        "  Send I AM ALSO from an address that is not registered yet.\n"
    )
    [ack] = judge.send("y@example.org", "I AM ALSO nobody@example.org")
    assert ack.body == (
        "Line 1: I AM ALSO nobody@example.org\n"
        "  ERROR: nobody@example.org is not registered here.\n"
    )


def _refused(judge: Judge, form: str) -> str:
    """The reply's words to a REGISTER form that is refused; nothing is stored."""
    [ack] = judge.send("y@example.org", f"REGISTER\n{form}\nEND")
    assert ack.subject == "Re: [Error Flag] TEST orders"
    assert ack.body.startswith("Line 1: REGISTER\n  ERROR: Nothing registered: ")
    assert judge.db.execute("SELECT COUNT(*) FROM registrations").fetchone()[0] == 0
    return ack.body.removeprefix("Line 1: REGISTER\n  ERROR: Nothing registered: ")


def test_a_wrong_form_is_refused_whole_with_the_reason(judge: Judge) -> None:
    assert _refused(judge, "Phone: 1") == "the form needs a Name: line.\n"
    assert _refused(judge, "Name: Y\nPasword: x") == (
        '"Pasword" is not a field.\n'
        "  Write one Field: value a line. The fields: Name, Phone, Site, Address,\n"
        "  Country, Timezone, Email, Level, Birthdate, Sex, Package.\n"
    )
    assert _refused(judge, "Name: Y\nname: Z").startswith("the form has Name: twice.")
    assert _refused(judge, "Name: Y\nLevel: God") == (
        "Level: is one of\n  Novice, Amateur, Intermediate, Advanced, Expert.\n"
    )
    assert _refused(judge, "Name: Y\nPackage: maybe") == "Package: is one of\n  Yes, No.\n"
    assert _refused(judge, "Name: Y\nEmail: a@example.org, me@") == (
        "me@ on the Email: line is not a mail address.\n"
    )
    many = ", ".join(f"a{i}@example.org" for i in range(MAX_EMAILS + 1))
    assert _refused(judge, f"Name: Y\nEmail: {many}") == (
        "the Email: line lists at most 10 addresses.\n"
    )
    assert _refused(judge, "Name: " + "é" * (MAX_FIELD_CHARS + 1)) == (
        "Name: is at most 100 characters.\n"
    )
    lines = "\n".join(f"Name{i}: x" for i in range(MAX_FORM_LINES + 1))
    assert _refused(judge, lines) == "a form has at most 30 lines.\n"


def test_a_password_in_the_form_is_never_stored_or_echoed(judge: Judge) -> None:
    mails = judge.send("y@example.org", "REGISTER\nName: Y\nSIGNON Fwar1 Hunter7Zq\nEND")
    mails += judge.send("y@example.org", "REGISTER\nName: Y\nSite: login Fwar1 Hunter7Zq\nEND")
    mails += judge.send("y@example.org", "REGISTER\nName: my password is Hunter7Zq\nEND")
    mails += judge.send("y@example.org", "REGISTER\nName: Y\nxx yy zz password Hunter7Zq\nEND")
    assert [m.body.splitlines()[1] for m in mails] == [
        '  ERROR: Nothing registered: "SIGNON ****" is not a field.',
        "  ERROR: Nothing registered: Site: has a word like SIGNON or PASSWORD in it,",
        "  ERROR: Nothing registered: Name: has a word like SIGNON or PASSWORD in it,",
        '  ERROR: Nothing registered: "xx yy zz password ****" is not a field.',
    ]
    for mail in mails:
        assert "hunter7zq" not in (mail.subject + mail.body).lower()
    for table in ("registrations", "registry_addresses", "audit"):
        rows = judge.db.execute(f"SELECT * FROM [{table}]").fetchall()
        assert not any("hunter7zq" in repr(r).lower() for r in rows), table


def test_register_takes_no_words_on_its_line_and_a_form_left_open_runs_to_the_end(
    judge: Judge,
) -> None:
    [ack] = judge.send("y@example.org", "REGISTER me\nHELP")
    assert ack.body.startswith(
        "Line 1: REGISTER me\n  ERROR: Expected REGISTER on its own line.\nLine 2: HELP\n"
    )
    [ack] = judge.send("y@example.org", "REGISTER\nName: Y\nCountry: Ελλάδα")
    assert ack.body == (
        "Line 1: REGISTER\n"
        "  Registered. The judge keeps:\n"
        "    Name:      Y\n"
        "    Country:   Ελλάδα\n"
        "  Addresses: y@example.org\n"
        "  WHOIS shows anyone your Name, Site, Country, Timezone and Level; the\n"
        "  rest only you and the masters of your games.\n"
    )
