"""An address counts only where it stands in the header as written (mail/headers.py):
the plain-text search for ASCII headers answers exactly as the regular expressions do,
which are still used for any other text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.headers import _written, _written_pattern

_CHARS = st.sampled_from(list("abAB@.<>,:;( \t\x0b\x1fx-"))
_TEXT = st.text(_CHARS, max_size=30)


@settings(max_examples=3000, deadline=None)
@given(addr=_TEXT, header=_TEXT)
def test_the_plain_search_answers_as_the_patterns(addr: str, header: str) -> None:
    assert _written(addr, header) == _written_pattern(addr, header)


@settings(max_examples=1000, deadline=None)
@given(addr=_TEXT, before=_TEXT, after=_TEXT)
def test_an_address_put_in_a_header_is_found_as_the_patterns_find_it(
    addr: str, before: str, after: str
) -> None:
    for header in (f"{before}<{addr}>{after}", f"{before} {addr.upper()},{after}"):
        assert _written(addr, header) == _written_pattern(addr, header)


def test_written_examples() -> None:
    assert _written("bob@example.org", "Bob <BOB@Example.org>")
    assert _written("bob@example.org", "bob@example.org (Bob)")
    assert _written("bob@example.org", "x, bob@example.org")
    assert not _written("bob@exa", "<bob@exa mple.org>")  # the parser's mangling
    assert not _written("bob@example.org", "xbob@example.org")
    assert _written("jöe@example.org", "Jöe <JÖE@example.org>")  # by the patterns


def test_a_header_holding_the_address_everywhere_is_read_through_once() -> None:
    # A stranger's megabyte: the address 150,000 times, never standing alone, then once
    # between angles at the very end (each look back used to copy the text before it).
    header = "xa@b.cx" * 150_000 + " < a@b.c >"
    assert _written("a@b.c", header) is True
    assert _written("a@b.c", header[: -len(" < a@b.c >")]) is False
