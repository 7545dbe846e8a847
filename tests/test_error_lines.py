"""error_lines: the words of an ERROR line broken to fit 78 columns, the first line
counted after the `  ERROR: ` written before it."""

from __future__ import annotations

from judge.mail.error_lines import error_lines


def test_a_first_line_exactly_78_wide_after_the_lead_is_untouched() -> None:
    words = "a" * 60 + " " + "b" * 8  # 9 + 69 = 78 columns
    assert error_lines(words + "\n") == words + "\n"


def test_a_first_line_79_wide_is_broken_at_its_last_space_that_fits() -> None:
    words = "a" * 60 + " " + "b" * 9  # 9 + 70 = 79 columns
    assert error_lines(words) == "a" * 60 + "\n  " + "b" * 9


def test_a_later_line_keeps_its_own_indent_on_its_continuation() -> None:
    later = "    " + " ".join(["word"] * 16)  # 4 + 16 * 5 - 1 = 83 columns
    assert error_lines("First.\n" + later + "\n") == (
        "First.\n    " + " ".join(["word"] * 15) + "\n    word\n"
    )


def test_a_later_line_that_fits_is_untouched_even_at_78() -> None:
    later = "  " + "c" * 76
    assert error_lines("First.\n" + later) == "First.\n" + later


def test_a_word_longer_than_the_width_stays_whole_on_a_line_of_its_own() -> None:
    long = "x" * 90
    assert error_lines(f"The address {long} is no address.\n") == (
        f"The address\n  {long}\n  is no address.\n"
    )
    assert error_lines(long + " ends it.") == long + "\n  ends it."


def test_an_order_lines_error_is_counted_after_the_order_and_continued_under_it() -> None:
    # templates/events/orders.txt: the order as given in 28 columns, then the words.
    lead = f"  {'A Mun S A Kie - Bur':<28} ERROR: "
    words = "A KIE cannot move to Burgundy, so it cannot be supported there."
    assert lead + error_lines(words, lead, "    ") == (
        "  A Mun S A Kie - Bur          ERROR: A KIE cannot move to Burgundy, so it\n"
        "    cannot be supported there."
    )
    short = "Paris does not border Moscow."
    assert error_lines(short, lead, "    ") == short
    # An order longer than a line: the first word stays on it, the rest goes below.
    lead = f"  {'x' * 100} ERROR: "
    assert error_lines("This line is too long.", lead, "    ") == "This\n    line is too long."
