"""VERSION and GET / SEND / SEND ME by mail (issue 17, part 3): our software's name and
version with the judge's users and games, and the help files of templates/files/ mailed
one a mail, looked up in a fixed set of names, at most five for one mail. The index file
and HELP both list every command of the command table, and nothing else."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest
from judge_harness import Judge, Mail

from judge.commands.files import FILES, FILES_PER_MAIL
from judge.commands.language import read_commands
from judge.commands.table import COMMANDS
from judge.engine.notation import parse_order
from judge.variants.maps import load_map, map_names

ASKER = "newcomer@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(tmp_path)


def _ack(mails: list[Mail]) -> str:
    """The acknowledgement's body (the first mail queued)."""
    assert mails[0].subject.startswith(("Re: TEST", "Re: [Error Flag] TEST"))
    return mails[0].body


def _files(mails: list[Mail]) -> dict[str, Mail]:
    """The file mails queued, by the file's name in their subject."""
    prefix = "Diplomacy file "  # njudge's subject
    return {m.subject.removeprefix(prefix): m for m in mails if m.subject.startswith(prefix)}


def _get(judge: Judge, name: str) -> str:
    """The body of the file `name`, asked for alone."""
    mails = judge.send(ASKER, f"GET {name}")
    assert _ack(mails) == f"Line 1: GET {name}\n  File {name} sent.\n"
    (mail,) = _files(mails).values()
    return mail.body


# -- VERSION ------------------------------------------------------------------------------


def test_version_names_our_software_and_counts_users_and_games(judge: Judge) -> None:
    assert metadata.version("judge") == "0.1.0"
    mails = judge.send(ASKER, "VERSION")
    assert [m.to for m in mails] == [[ASKER]]
    assert _ack(mails) == (
        "Line 1: VERSION\n"
        "  Current version is judge 0.1.0.\n"
        "  This judge has 0 users and 0 games.\n"
    )
    judge.start_game("war1")  # a master and seven players
    judge.send("GM@example.org", "CREATE ?war2 masterpw")  # the same master, another game
    judge.send("p0@example.org", "SIGNON ?war2 pw")  # a player of war1 joins war2
    judge.send("solo@example.org", "CREATE ?war3 pw3")
    assert _ack(judge.send(ASKER, "version")) == (
        "Line 1: version\n"
        "  Current version is judge 0.1.0.\n"
        "  This judge has 9 users and 3 games.\n"
    )


def test_version_takes_no_words(judge: Judge) -> None:
    assert _ack(judge.send(ASKER, "VERSION please")) == (
        "Line 1: VERSION please\n  ERROR: Expected VERSION on its own line.\n"
    )


# -- GET, SEND, SEND ME -------------------------------------------------------------------


def test_get_mails_the_file_on_its_own_and_says_so(judge: Judge) -> None:
    mails = judge.send(ASKER, "GET info", subject="help please")
    assert [(m.to, m.subject) for m in mails] == [
        ([ASKER], "Re: TEST help please"),
        ([ASKER], "Diplomacy file info"),
    ]
    assert mails[0].body == "Line 1: GET info\n  File info sent.\n"
    assert mails[1].body.startswith(
        "This is TEST, a judge that runs games of Diplomacy by mail at\n"
        "judge@example.org. Mail it commands, one a line, in capitals or not; it\n"
        "answers every mail at once, reading each line back with what it did.\n"
    )
    listed = mails[1].body.split("More, each by its own mail (GET name):\n")[1]
    assert listed.splitlines() == [f"  {f}" for f in FILES] + [f"  info.{v}" for v in map_names()]


def test_send_and_send_me_are_get(judge: Judge) -> None:
    mails = judge.send(ASKER, "SEND guide\nsend me SYNTAX\nSend Me Info.Standard")
    assert _ack(mails) == (
        "Line 1: SEND guide\n  File guide sent.\n"
        "Line 2: send me SYNTAX\n  File syntax sent.\n"
        "Line 3: Send Me Info.Standard\n  File info.standard sent.\n"
    )
    assert list(_files(mails)) == ["guide", "syntax", "info.standard"]
    assert _files(mails)["syntax"].body.splitlines()[3:5] == [
        "  A Par H                     hold (an order left out holds too)",
        "  A Par - Bur                 move",
    ]


@pytest.mark.parametrize(
    "name",
    [
        "nosuch",
        "../README.md",
        "files/info",
        "info.txt",
        "info.",
        "info.nosuch",
        "info../standard",
        "info.standard_drawing",
        "acknowledgement",
        "variant",
    ],
)
def test_an_unknown_name_is_no_file_and_no_path(judge: Judge, name: str) -> None:
    mails = judge.send(ASKER, f"GET {name}")
    assert [m.subject for m in mails] == ["Re: [Error Flag] TEST orders"]
    assert mails[0].body == (
        f"Line 1: GET {name}\n  ERROR: Sorry, there is no file {name.lower()} available.\n"
    )


def test_a_long_unknown_name_is_cut_in_the_answer(judge: Judge) -> None:
    name = "x" * 300
    mails = judge.send(ASKER, f"GET {name}")
    assert mails[0].body.splitlines()[1:] == [
        f"  ERROR: Sorry, there is no file {'x' * 37}...",
        "  available.",
    ]


def test_get_wants_one_name(judge: Judge) -> None:
    expected = (
        "Expected GET followed by a file's name, e.g. GET info (GET index\n  lists them all)."
    )
    mails = judge.send(ASKER, "GET\nSEND ME\nGET info guide")
    assert [m.subject for m in mails] == ["Re: [Error Flag] TEST orders"]
    assert mails[0].body == (
        f"Line 1: GET\n  ERROR: {expected}\n"
        f"Line 2: SEND ME\n  ERROR: {expected}\n"
        f"Line 3: GET info guide\n  ERROR: {expected}\n"
    )


def test_one_mail_gets_at_most_five_files(judge: Judge) -> None:
    # Fifty GET lines: the first five files are mailed, the rest refused; a file asked
    # for again is mailed once (and does not count twice).
    names = ["info", "info", "index", "guide", "syntax", "press", "deadlines", "history"]
    names += ["master"] * 42
    mails = judge.send(ASKER, "\n".join(f"GET {n}" for n in names))
    assert FILES_PER_MAIL == 5
    assert list(_files(mails)) == ["info", "index", "guide", "syntax", "press"]
    assert len(mails) == 1 + 5
    lines = _ack(mails).splitlines()
    assert lines[:14] == [
        "Line 1: GET info",
        "  File info sent.",
        "Line 2: GET info",
        "  File info sent.",
        "Line 3: GET index",
        "  File index sent.",
        "Line 4: GET guide",
        "  File guide sent.",
        "Line 5: GET syntax",
        "  File syntax sent.",
        "Line 6: GET press",
        "  File press sent.",
        "Line 7: GET deadlines",
        "  ERROR: Only 5 files are sent for one mail; ask for this one in another.",
    ]
    assert lines[-2:] == [
        "Line 50: GET master",
        "  ERROR: Only 5 files are sent for one mail; ask for this one in another.",
    ]
    assert mails[0].subject == "Re: [Error Flag] TEST orders"


def test_every_file_is_mailed_and_fits_78_columns(judge: Judge) -> None:
    names = [*FILES, *(f"info.{v}" for v in map_names())]
    for name in names:
        body = _get(judge, name)
        assert body.strip(), name
        assert "{{" not in body and "{%" not in body, name
        long = [line for line in body.splitlines() if len(line) > 78]
        assert long == [], name


def test_package_is_info_guide_and_syntax_in_one_mail(judge: Judge) -> None:
    parts = _get(judge, "package").split("\n----\n\n")
    assert parts == [_get(judge, "info"), _get(judge, "guide"), _get(judge, "syntax")]


def test_a_variant_file_is_made_from_its_map(judge: Judge) -> None:
    assert _get(judge, "info.standard-6") == (
        "Standard Diplomacy for six players (Italy neutral)\n"
        "(variant standard-6: CREATE ?name password standard-6)\n"
        "\n"
        "The game begins in the Spring of 1901, with 34 supply centres.\n"
        "The first power to hold 18 of them wins.\n"
        "Neutral, ordered by nobody: Italy.\n"
        "\n"
        "The powers, their home centres and their units at the start:\n"
        "\n"
        "Austria (A), home centres Budapest, Trieste, Vienna\n"
        "    Army Vienna, Army Budapest, Fleet Trieste\n"
        "\n"
        "England (E), home centres Edinburgh, Liverpool, London\n"
        "    Fleet Edinburgh, Fleet London, Army Liverpool\n"
        "\n"
        "France (F), home centres Brest, Marseilles, Paris\n"
        "    Fleet Brest, Army Marseilles, Army Paris\n"
        "\n"
        "Germany (G), home centres Berlin, Kiel, Munich\n"
        "    Fleet Kiel, Army Berlin, Army Munich\n"
        "\n"
        "Italy (I), home centres Naples, Rome, Venice\n"
        "    Fleet Naples, Army Rome, Army Venice\n"
        "\n"
        "Russia (R), home centres Moscow, Sevastopol, St Petersburg, Warsaw\n"
        "    Fleet St Petersburg (south coast), Army Moscow, Army Warsaw, Fleet\n"
        "    Sevastopol\n"
        "\n"
        "Turkey (T), home centres Ankara, Constantinople, Smyrna\n"
        "    Fleet Ankara, Army Constantinople, Army Smyrna\n"
    )


def test_the_variants_that_differ_say_how(judge: Judge) -> None:
    two = _get(judge, "info.standard-2").splitlines()
    assert two[:10] == [
        "World War I: Diplomacy for two players",
        "(variant standard-2: CREATE ?name password standard-2)",
        "",
        "The game begins in the Spring of 1914, with 34 supply centres.",
        "The first player whose powers hold 24 of them together wins.",
        "The players and the powers each plays:",
        "  England, France, Russia",
        "  Austria, Germany, Turkey",
        "Neutral, ordered by nobody until Spring of 1915: Italy.",
        "Then a coin gives it to one of the players.",
    ]
    early = _get(judge, "info.standard-1898").splitlines()
    assert early[3] == "The game begins in the Spring of 1899, with 34 supply centres."
    assert early[8:11] == [
        "Austria (A), home centres Budapest, Trieste, Vienna",
        "    owns at the start Trieste",
        "    Army Trieste",
    ]
    anywhere = _get(judge, "info.standard-anycenter").splitlines()
    assert anywhere[5] == "Builds may be made in any supply centre a power owns."


# -- the index and HELP: every command of the table, and only those ----------------------


def _index_commands(body: str) -> list[str]:
    """The command lines of the index file: those under its groups' headings, before the
    list of files."""
    commands_part = body.split("\nThe files (GET name):\n")[0]
    groups = commands_part.split("\n\n")[1:]  # the first paragraph is the introduction
    assert [g.splitlines()[0] for g in groups] == [
        "Anyone, with no SIGNON:",
        "Anyone signed on to a game (player, master or observer):",
        "A player, after SIGNON Xname password:",
        "The master, after SIGNON Mname password:",
        "The game's settings: the master, or in an unmoderated game any player:",
    ]
    lines = [line for g in groups for line in g.splitlines()[1:]]
    assert all(line.startswith("  ") and line[2] != " " for line in lines), lines
    return [line[2:] for line in lines]


def _help_pieces(body: str) -> set[str]:
    """Each command syntax HELP shows: the players' first column (split at " / ") and
    the master's lists (split at ", " and " / ")."""
    players, masters = body.split("  The master also has:\n")
    pieces: set[str] = set()
    for line in players.splitlines()[2:]:  # after the echo and the heading
        syntax = line[4:31].strip()
        pieces |= set(syntax.split(" / ")) if syntax else set()
    listed = " ".join(line.strip() for line in masters.splitlines()[:-1])  # less "Dates:"
    for item in listed.split(", "):
        pieces |= set(item.removesuffix(",").split(" / "))
    return pieces


def test_index_and_help_name_every_command_of_the_table_and_no_other(judge: Judge) -> None:
    index = _index_commands(_get(judge, "index"))
    full = [line for spec in COMMANDS for line in (spec.full or spec.syntax).split("\n")]
    # Every command's syntax in full is in the index, once; the index has nothing else.
    assert sorted(index) == sorted(full)
    for spec in COMMANDS:
        assert (spec.full or spec.syntax).split("\n")[0] in index, spec.name

    help_body = _ack(judge.send(ASKER, "HELP"))
    pieces = _help_pieces(help_body)
    # A syntax with " / " in it (SET ORDERS MERGE / REPLACE) is split like the joined ones.
    syntaxes = {
        part
        for spec in COMMANDS
        for line in spec.syntax.split("\n")
        for part in line.strip().split(" / ")
    }
    for spec in COMMANDS:
        assert set(spec.syntax.split("\n")[0].split(" / ")) <= pieces, spec.name
    assert pieces - syntaxes == {"SIGNOFF"}  # not a command: it ends them
    assert {"VERSION", "GET name (or SEND name)"} <= pieces
    assert {"VERSION", "GET name (or SEND name, SEND ME name)"} <= set(index)


# -- the files say what the judge does ----------------------------------------------------


def test_the_order_examples_are_orders_the_judge_reads(judge: Judge) -> None:
    gm = load_map("standard")
    syntax = _get(judge, "syntax").splitlines()
    examples = [line[2:29].strip() for line in syntax if line.startswith("  ") and line[2] != " "]
    orders = [o.strip() for example in examples for o in example.split(",")]
    orders += ["A Lon - Bel", "A Par - Bur", "F Bre - Mao"]  # in the text and the guide
    assert "F Bre - Mao" in _get(judge, "guide")
    phase_of = {"Build": "A", "Remove": "A", "Waive": "A", "A Bul - Gre": "R", "A Bul D": "R"}
    assert len(orders) == 15
    for order in orders:
        phase = next((k for w, k in phase_of.items() if order.startswith(w)), "M")
        parse_order(order, gm, phase)  # raises if the judge cannot read it


def test_the_history_examples_are_commands_the_judge_reads(judge: Judge) -> None:
    lines = [line.strip() for line in _get(judge, "history").splitlines()]
    examples = [line.split("   ")[0] for line in lines if line.startswith("HISTORY name")]
    assert len(examples) == 5
    for example in examples:
        (command,) = read_commands(example.replace("name", "war1"))
        assert command.name == "HISTORY", (example, command.error)
        (command,) = read_commands(example.replace("name", "war1") + " BROAD")
        assert command.name == ("HISTORY" if "EXCLSTART" in example else "ERROR"), example


def test_the_press_examples_are_commands_the_judge_reads(judge: Judge) -> None:
    text = _get(judge, "press")
    assert "  PRESS TO FG" in text and "  BROADCAST" in text and "  ENDPRESS" in text
    body = "PRESS TO FG\nthe lines of the message\nENDPRESS\nBROADCAST\nhello\nENDPRESS"
    assert [(c.name, c.args) for c in read_commands(body)] == [
        ("PRESS", ("PRESS", "TO FG", "the lines of the message")),
        ("PRESS", ("BROADCAST", "", "hello")),
    ]
