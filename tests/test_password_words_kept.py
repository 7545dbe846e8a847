"""The test of each command word for a password it would carry is remembered for short
words only (commands/language.py): a stranger's megabyte-long words are never kept."""

from __future__ import annotations

from judge.commands import language


def test_a_huge_word_is_answered_and_not_kept() -> None:
    language._near_secret.cache_clear()
    assert language.carries_password("X" * 1_000_000 + " SIGNNON") is True  # a typo
    assert language.carries_password("LOGIN" * 200_000) is False
    kept = language._near_secret.cache_info().currsize
    assert kept == 1  # SIGNNON alone: neither giant was a key
    assert language.masked_text("SIGNNON Fwar1 secret") == "SIGNNON ****"
