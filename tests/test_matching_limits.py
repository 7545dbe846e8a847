"""The bounds on the work a mail's text can cause (issue 14): an order line longer than
MAX_ORDER_CHARS is refused unread, one order makes at most MAX_GUESSES look-ups of a
misspelt word, one mail is read for at most MAX_COMMANDS command lines, and the command
suggestions (difflib) are not asked about words too long to be near any command. The
work is counted (look-ups of the misspelling index), never timed. The index itself gives
exactly what measuring every name gives."""

from __future__ import annotations

import pytest
from error_words import words
from hypothesis import given, settings
from hypothesis import strategies as st
from judge_harness import Judge

from judge.commands import language
from judge.commands.language import MAX_COMMANDS, nearest_command, read_commands
from judge.engine import notation
from judge.engine.notation import MAX_GUESSES, MAX_ORDER_CHARS, NotationError, parse_order
from judge.engine.orders import Convoy, Move, UnitRef
from judge.game.errors import Refusal
from judge.variants.maps import load_map
from judge.variants.problem_text import reason_text

GM = load_map("standard")
MISSPELT = ["pariz", "burgundi", "marseile", "munic", "belguim", "holand", "kiell", "berln"]


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every look-up of a misspelt word or phrase, in order."""
    seen: list[str] = []
    real = notation._closest

    def counting(tok: str, index: object) -> tuple[str, ...]:
        seen.append(tok)
        return real(tok, index)  # type: ignore[arg-type]

    monkeypatch.setattr(notation, "_closest", counting)
    return seen


def _misspelt_line(length: int) -> str:
    words = (MISSPELT[i % len(MISSPELT)] for i in range(length))
    return " ".join(words)[:length]


# -- one order ----------------------------------------------------------------------------


def test_an_order_longer_than_the_limit_is_refused_unread(lookups: list[str]) -> None:
    line = "A Paris" + " " * MAX_ORDER_CHARS + "- Burgundy"  # a real order, padded
    with pytest.raises(NotationError) as e:
        parse_order(line, GM, "M")
    assert reason_text(e.value.problem) == (
        f"This line is {len(line)} characters long; an order is at most 200, so it was not read."
    )
    assert lookups == []
    assert parse_order(line.replace(" " * MAX_ORDER_CHARS, " "), GM, "M").order == Move(
        UnitRef("A", "PAR"), "BUR", False, ()
    )


def test_a_10000_character_misspelt_line_costs_no_lookup(lookups: list[str]) -> None:
    with pytest.raises(NotationError) as e:
        parse_order(_misspelt_line(10_000), GM, "M")
    assert reason_text(e.value.problem).startswith("This line is 10000 characters long; an order")
    assert lookups == []


def test_an_order_makes_at_most_max_guesses_lookups(lookups: list[str]) -> None:
    line = _misspelt_line(MAX_ORDER_CHARS)
    with pytest.raises(NotationError) as e:
        parse_order(line, GM, "M")
    assert reason_text(e.value.problem) == (
        f"{line!r} has too many words I don't know (I make at most 8 guesses an order): "
        "please write the names out."
    )
    assert len(lookups) == MAX_GUESSES == 8


def test_real_misspellings_are_still_read(lookups: list[str]) -> None:
    parsed = parse_order("F Nrth Se C A Londn - Belgum", GM, "M")
    assert parsed.order == Convoy(UnitRef("F", "NTH"), UnitRef("A", "LON"), "BEL")
    assert tuple(map(reason_text, parsed.notes)) == (
        "read 'nrth se' as North Sea",
        "read 'londn' as London",
        "read 'belgum' as Belgium",
    )
    assert lookups == ["nrthse", "londn", "belgum"]
    assert parse_order("A Pariz Burgundi", GM, "M").order == Move(
        UnitRef("A", "PAR"), "BUR", False, ()
    )


def _closest_by_measuring_every_name(tok: str) -> tuple[str, ...]:
    """The matcher as it was: every name and keyword measured (the reference)."""
    limit = 1 if len(tok) <= 5 else 2
    best: dict[str, int] = {}
    words = [*GM.names.items(), *notation._FUZZY_KEYWORDS.items()]
    for word, target in words:
        d = _osa(tok, word)
        if d <= limit and d < best.get(target, 99):
            best[target] = d
    if not best:
        return ()
    low = min(best.values())
    return tuple(sorted(k for k, d in best.items() if d == low))


def _osa(a: str, b: str) -> int:
    """Optimal string alignment distance, the whole table."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


_WORDS = sorted([*GM.names, *notation._FUZZY_KEYWORDS])


@st.composite
def _misspellings(draw: st.DrawFn) -> str:
    """A map name or keyword (sometimes two run together) with up to three edits."""
    word = list(draw(st.sampled_from(_WORDS)))
    if draw(st.booleans()):
        word += list(draw(st.sampled_from(_WORDS)))
    letters = st.sampled_from("abcdefghijklmnopqrstuvwxyz'0")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, max(0, len(word) - 1)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
        if edit == "delete" and word:
            del word[i]
        elif edit == "insert":
            word.insert(i, draw(letters))
        elif edit == "replace" and word:
            word[i] = draw(letters)
        elif edit == "swap" and i + 1 < len(word):
            word[i], word[i + 1] = word[i + 1], word[i]
    return "".join(word)


@settings(max_examples=400, derandomize=True, database=None, deadline=None)
@given(_misspellings())
def test_the_index_finds_what_measuring_every_name_finds(tok: str) -> None:
    assert notation._closest(tok, notation._tables(GM).fuzzy) == (
        _closest_by_measuring_every_name(tok)
    )


# -- one mail -----------------------------------------------------------------------------


def test_a_long_misspelt_line_by_mail_gets_a_clear_reply(judge: Judge, lookups: list) -> None:
    judge.start_game()
    line = _misspelt_line(10_000)
    ack = judge.send("p2@example.org", f"SIGNON Fwar1 pw2\nA Par-Bur\n{line}")[0]
    assert ack.subject == "Re: [Error Flag] TEST:war1 - S1901M orders"
    assert (
        # The line is echoed by its first 60 characters (report.echoed); the words after
        # it go on below it (error_lines).
        f"  {line[:60]}... ERROR: This\n"
        "    line is 10000 characters long; an order is at most 200, so it was not\n"
        "    read.\n" in ack.body
    )
    assert line[:61] not in ack.body
    stored = judge.db.execute("SELECT lines FROM order_sets ORDER BY id DESC").fetchone()[0]
    assert line[:61] not in stored and f"{line[:60]}..." in stored
    assert judge.effective("war1", "FRANCE") == ["A PAR - BUR"]
    assert lookups == []


def test_a_mail_at_the_size_limit_is_read_for_100_command_lines(
    judge: Judge, lookups: list[str]
) -> None:
    judge.start_game()
    lines, size = ["SIGNON Fwar1 pw2"], 0
    while size < judge.config.max_message_bytes - 1_000:
        lines.append(f"A {MISSPELT[len(lines) % 8]} - {MISSPELT[(len(lines) + 3) % 8]}")
        size += len(lines[-1]) + 2
    lookups.clear()
    ack = judge.send("p2@example.org", "\r\n".join(lines))[0]
    assert len(lines) > 40_000
    assert (
        f"Line 101: {lines[100]}\n  ERROR: Only the first 100 command lines of a mail are "
        "read; this line and\n  the rest were not.\n" in ack.body
    )
    assert "Line 102:" not in ack.body
    # 99 orders read, each of two misspelt names: the work is bounded by the caps.
    assert len(lookups) <= (MAX_COMMANDS - 1) * 2
    assert len(set(lookups)) == 8


def test_the_command_cap_names_a_press_block_cut_off() -> None:
    body = "\n".join(["SET WAIT"] * MAX_COMMANDS + ["PRESS TO F", "hello", "ENDPRESS", "CLEAR"])
    commands = read_commands(body)
    assert len(commands) == MAX_COMMANDS + 1
    assert commands[-1] == language.Command(
        MAX_COMMANDS + 1,
        "PRESS TO F",
        "ERROR",
        error=Refusal("too_many_lines", {"limit": MAX_COMMANDS}),
    )
    assert words(commands[-1].error) == (
        "Only the first 100 command lines of a mail are read; this line and the rest were not."
    )


def test_press_lines_are_not_counted() -> None:
    press = ["PRESS TO F", *(["a line of press"] * 500), "ENDPRESS"]
    commands = read_commands("\n".join([*press, *(["SET WAIT"] * (MAX_COMMANDS - 1))]))
    assert [c.name for c in commands] == ["PRESS"] + ["SET WAIT"] * (MAX_COMMANDS - 1)


def test_no_command_suggestion_is_sought_for_a_long_word(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = language.difflib.get_close_matches

    def counting(word: str, *args: object, **kwargs: object) -> list[str]:
        asked.append(word)
        return real(word, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(language.difflib, "get_close_matches", counting)
    assert nearest_command("X" * 10_000) is None
    assert (
        words(read_commands("SET " + "W" * 10_000)[0].error) == f"I don't know SET {'W' * 57}...."
    )
    assert asked == []
    assert nearest_command("SIGNONN Fwar1") == "SIGNON"
    assert words(read_commands("SET WAITT")[0].error) == (
        "I don't know SET WAITT. Did you mean SET WAIT?"
    )
    assert asked == ["SIGNONN", "WAITT"]
