"""No reply, log line or row holds a password: every line that carries one, spelt right
or nearly right, is echoed with **** after its command word (judge/commands/language.py),
through the real handling path (store on disk, no servers). And ENDPRESS alone is an
error, not a crash. Issue 14."""

from __future__ import annotations

import logging
import re

import pytest
from judge_harness import Judge

from judge.commands.language import (
    _SET,
    _SIMPLE,
    _carries_password,
    _confirm_word,
    _letters,
    masked_line,
    read_commands,
)
from judge.variants.maps import MAPS_DIR, map_names

# -- no password anywhere ----------------------------------------------------------------------

ODD_FORMS = [
    "SIGNIN Fwar1 {pw}",
    "SIGN ON Fwar1 {pw}",
    "SIGNON: Fwar1 {pw}",
    "1. SIGNON Fwar1 {pw}",
    "- signon Fwar1 {pw}",
    "Please SIGNON Fwar1 {pw}",
    "SINGON Fwar1 {pw}",  # the unknown-command echo
    "HELLO Fwar1 {pw}",
    "LOGIN Fwar1 {pw}",
    "LOG IN Fwar1 {pw}",
    "SIGNON Fwar1 {pw} extra",
    "SIGNON Fwar1 my {pw}",
    "SIGNON {pw}",
    "SET PASWORD {pw}",
    "SET PASSWD {pw}",
    "Set Password: {pw}",
    "SET PASSWORD {pw} extra",
    "PASSWORD {pw}",
    "OBSERVE war1 {pw} extra",
    "OBSERVE please war1 {pw}",
    "WATCH war1 {pw}",
    "JOIN war1 {pw}",
    "CREATE ?war9 {pw} extra words",
    "CREATE ?war9 my {pw}",
]


def test_no_reply_log_line_or_row_holds_a_password(
    judge: Judge, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    players = judge.start_game()
    secrets = []
    for i, form in enumerate(ODD_FORMS):
        secret = f"Hunter{i}Zq"
        secrets.append(secret)
        line = form.format(pw=secret)
        # Alone (nothing signed on: echoed as unknown or refused) and after a SIGNON
        # (an order line, stored with the orders), and as SET PASSWORD's new password.
        mails = judge.send("stranger@example.org", line, subject=line)  # echoed in Re:
        mails += judge.send(players["F"], f"SIGNON Fwar1 pw2\n{line}\nA Par-Bur")
        for mail in mails:  # in any case: a game name or a variant is read lower case
            text = (mail.subject + mail.body).lower()
            assert secret.lower() not in text, (form, mail.body)
        assert re.search(r"\*\*\*\*", mails[0].body), (form, mails[0].body)
    queued = judge.db.execute("SELECT raw FROM outbound").fetchall()
    rows = []
    for (table,) in judge.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table != "inbound":  # the mail as received, kept as the record
            rows += [repr(r) for r in judge.db.execute(f"SELECT * FROM [{table}]").fetchall()]
    logged = [r.getMessage() + (r.exc_text or "") for r in caplog.records]
    assert logged  # the handling path logs every message
    for secret in (s.lower() for s in secrets):
        assert not any(secret.encode() in raw.lower() for (raw,) in queued), secret
        assert not any(secret in row.lower() for row in rows), secret
        assert not any(secret in line.lower() for line in logged), secret


def test_a_subject_is_masked_only_when_it_looks_like_a_command() -> None:
    assert masked_line("Re: SIGNON Fwar1 secret") == "Re: SIGNON ****"
    assert masked_line("sign on Fwar1 secret") == "sign on ****"
    assert masked_line("hello 1") == "hello 1"
    assert masked_line("Spring orders for France") == "Spring orders for France"


def test_the_well_formed_commands_keep_their_game_in_the_echo() -> None:
    texts = [c.text for c in read_commands("CREATE ?g secret standard-6\nSIGNON Fwar1 secret")]
    assert texts == ["CREATE ?g **** standard-6", "SIGNON Fwar1 ****"]
    assert [c.text for c in read_commands("SET PASSWORD secret\nOBSERVE war1 secret")] == [
        "SET PASSWORD ****",
        "OBSERVE war1 ****",
    ]


def test_a_misspelt_short_sign_on_word_before_a_game_is_masked() -> None:
    # One typo from HELLO, LOGIN, WATCH: masked when a game follows (? or a digit), as a
    # sign-on has; a province one typo away (HELGO) keeps its order.
    texts = [c.text for c in read_commands("HELO Awar1 secret\nWACTH ?war1 secret")]
    assert texts == ["HELO ****", "WACTH ****"]
    assert masked_line("LOGN Fgame1 secret") == "LOGN ****"
    assert masked_line("Helgo S Kie - Hol") == "Helgo S Kie - Hol"
    assert masked_line("HELO there friend") == "HELO there friend"


def _map_words() -> set[str]:
    """Every word of every bundled map (provinces, coasts, powers) and the order words,
    in capitals."""
    words = {"HOLD", "SUPPORT", "CONVOY", "BUILD", "REMOVE", "DISBAND", "WAIVE", "RETREAT"}
    for name in map_names():
        text = (MAPS_DIR / f"{name}.toml").read_text()
        words |= {_letters(w) for w in re.findall(r"[A-Za-z][A-Za-z'.-]*", text)}
    return words


def test_no_word_of_any_map_is_taken_for_a_password_command() -> None:
    """A line masked by mistake would lose its order: no province, coast or power name of
    any bundled map, nor an order word, looks like SIGNON, CREATE, PASSWORD, ..."""
    words = _map_words()
    words |= _SIMPLE | set(_SET)  # the language's own words: SET OBSERVER PRESS, ...
    words -= {"SIGNON", "CREATE", "OBSERVE", "PASSWORD"}
    assert len(words) > 400
    assert [w for w in sorted(words) if w and _carries_password(w)] == []


def test_a_misspelt_confirm_keeps_its_code_out_of_the_echo() -> None:
    """A CONFIRM's code proves the address reads its mail: masked as a password is, the
    command misspelt too; a line of any map's words never is."""
    texts = [c.text for c in read_commands("CONFIMR war1 K7QX2MNP\nConfrim war1 K7QX 2MNP")]
    assert texts == ["CONFIMR war1 ****", "Confrim war1 ****"]
    assert masked_line("CONFIRM war1 K7QX2MNP") == "CONFIRM war1 ****"
    words = _map_words()
    assert [w for w in sorted(words) if w and _confirm_word(w)] == []


# -- ENDPRESS ----------------------------------------------------------------------------------


def test_endpress_without_press_is_an_error_not_a_crash(judge: Judge) -> None:
    [ack] = judge.send("a@example.org", "ENDPRESS")
    assert ack.subject == "Re: [Error Flag] TEST orders"
    assert ack.body == (
        "Line 1: ENDPRESS\n  ERROR: Expected PRESS or BROADCAST, then the press, before ENDPRESS.\n"
    )
    assert judge.db.execute("SELECT state FROM inbound").fetchall() == [("handled",)]
