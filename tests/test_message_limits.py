"""Reading a mail's text costs work in proportion to its size (issue 14): the search for
quoted replies ("Bob wrote:" and the quote under it) once copied the rest of the mail at
every such line, so a mail at the size limit made of them took seconds. The work is
counted (list elements copied), never timed."""

from __future__ import annotations

from judge.mail import trim
from judge.mail.message import parse_submission


class _CountingLines(list):
    """A list of lines that counts the elements its slices copy."""

    copied = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        item = super().__getitem__(index)
        if isinstance(index, slice):
            _CountingLines.copied += len(item)
        return item


def test_a_mail_of_attributions_is_read_in_linear_work() -> None:
    n = 80_000
    for lines in (["Bob wrote:"] * n, ["Bob wrote:", ""] * (n // 2)):
        _CountingLines.copied = 0
        notes: list[str] = []
        kept = trim._commands_only(_CountingLines(lines), notes)
        assert _CountingLines.copied <= 5 * n  # the header-block look-ahead: 5 lines a line
        # Each "Bob wrote:" is text (no quote follows it) but the last: at the end of the
        # mail nothing follows, and an attribution with nothing after it is dropped.
        assert kept == lines[: len(lines) - (1 if lines[-1] else 2)]
        assert notes == ["ignored quoted text"]


def test_an_attribution_over_its_quote_is_still_dropped() -> None:
    raw = (
        b"From: p2@example.org\r\nSubject: orders\r\n\r\nSIGNON Fwar1 pw2\r\nA Par-Bur\r\n\r\n"
        b"Bob wrote:\r\n\r\n> SIGNON Fwar1 pw2\r\n> A Mar-Spa\r\n"
    )
    sub = parse_submission(raw)
    assert sub.body == "SIGNON Fwar1 pw2\nA Par-Bur"
    assert sub.notes == ("ignored quoted text",)
