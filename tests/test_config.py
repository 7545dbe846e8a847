"""Configuration: Contract 2, its defaults, secrets, and errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.config import ConfigError, load_config

FULL = """
[judge]
name = "EXAMPLE"
address = "judge@example.org"
database = "state/judge.db"
timezone = "Europe/Amsterdam"
masters = ["GM@example.org"]
master_password_env = "JUDGE_TEST_MASTER_PASSWORD"
broadcast = "dip-results@lists.example.org"
rate_limit_per_hour = 30
replies_per_hour = 5
wrong_passwords_per_hour = 4
passwords_per_mail = 3

[inbound]
mode = "imap"
[inbound.imap]
host = "imap.example.org"
port = 143
ssl = false
starttls = true
username = "judge"
password_env = "JUDGE_TEST_IMAP_PASSWORD"
mailbox = "INBOX"
processed_mailbox = "done"
idle = false
poll_seconds = 10
[inbound.smtp]
host = "127.0.0.1"
port = 2600

[outbound]
mode = "smtp"
[outbound.smtp]
host = "smtp.example.org"
port = 587
starttls = true
username = "judge"
password_file = "secret.txt"
[outbound.maildir]
path = "mail/out"
"""


def test_no_file_gives_the_embedded_defaults(tmp_path: Path) -> None:
    config = load_config(cwd=tmp_path)
    assert config.source == "embedded defaults"
    assert config.database == tmp_path / "var/judge.db"
    assert config.maildir == tmp_path / "var/outbox"
    assert (config.inbound_mode, config.smtp_in.host, config.smtp_in.port) == (
        "smtp",
        "127.0.0.1",
        2525,
    )
    assert config.outbound_mode == "maildir"


def test_judge_toml_in_the_working_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text('[judge]\nname = "HERE"\n')
    assert load_config(cwd=tmp_path).name == "HERE"


def test_every_key_of_contract_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "judge.toml").write_text(FULL)
    (tmp_path / "secret.txt").write_text("s3cret\n")
    monkeypatch.setenv("JUDGE_TEST_IMAP_PASSWORD", "imap-pw")
    monkeypatch.setenv("JUDGE_TEST_MASTER_PASSWORD", "judge-masters-pw")
    config = load_config(tmp_path / "judge.toml")
    assert config.name == "EXAMPLE" and config.address == "judge@example.org"
    assert config.database == tmp_path / "state/judge.db"
    assert config.timezone == "Europe/Amsterdam"
    assert config.masters == ("gm@example.org",)
    assert config.master_password == "judge-masters-pw"
    assert (config.wrong_passwords_per_hour, config.passwords_per_mail) == (4, 3)
    assert config.broadcast == "dip-results@lists.example.org"
    assert (config.rate_limit_per_hour, config.replies_per_hour) == (30, 5)
    assert config.inbound_mode == "imap"
    i = config.imap
    assert (i.host, i.port, i.ssl, i.starttls, i.username, i.password) == (
        "imap.example.org",
        143,
        False,
        True,
        "judge",
        "imap-pw",
    )
    assert (i.mailbox, i.processed_mailbox, i.idle, i.poll_seconds) == (
        "INBOX",
        "done",
        False,
        10.0,
    )
    assert config.smtp_in.port == 2600
    o = config.smtp_out
    assert (o.host, o.port, o.starttls, o.username, o.password) == (
        "smtp.example.org",
        587,
        True,
        "judge",
        "s3cret",
    )
    assert config.maildir == tmp_path / "mail/out"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[judge]\nnmae = 'x'\n", "judge.nmae: unknown key"),
        ("[judge]\naddress = 'nobody'\n", "judge.address must be a mail address"),
        ("[judge]\ntimezone = 'Mars/Olympus'\n", "judge.timezone: unknown time zone"),
        ("[inbound]\nmode = 'pop3'\n", 'inbound.mode must be "imap" or "smtp"'),
        (
            "[inbound.imap]\nport = '993'\n",
            "inbound.imap.port must be a whole number, not a string",
        ),
        ("[inbound.imap]\nssl = 1\n", "inbound.imap.ssl must be true or false, not 1"),
        ("[outbound.smtp]\npassword = 'a'\npassword_env = 'B'\n", "outbound.smtp: give only one"),
        (
            "[outbound.smtp]\npassword_env = 'JUDGE_NOT_SET_ANYWHERE'\n",
            "JUDGE_NOT_SET_ANYWHERE is not set",
        ),
        (
            "[outbound.smtp]\npassword_file = 'missing.txt'\n",
            "outbound.smtp.password_file: cannot read",
        ),
        ("[outbound]\nmode = 'carrier-pigeon'\n", 'outbound.mode must be "smtp" or "maildir"'),
        ("[judge]\nreplies_per_hour = 0\n", "judge.replies_per_hour must be at least 1, not 0"),
        ("[judge\n", "not valid TOML"),
        # A listed master's From: line alone is no authority: a password is required.
        ("[judge]\nmasters = ['gm@example.org']\n", "judge.masters: the listed masters sign on"),
        ("[judge]\nmasters = ['gm']\n", "judge.masters must be a list of mail addresses"),
        (
            "[judge]\nmaster_password = 'a'\nmaster_password_env = 'B'\n",
            "judge: give only one of master_password, master_password_env",
        ),
        ("[judge]\nwrong_passwords_per_hour = 0\n", "judge.wrong_passwords_per_hour must be at"),
        ("[judge]\npasswords_per_mail = 'x'\n", "judge.passwords_per_mail must be a whole number"),
        ("[sql]\nx = 1\n", "sql: unknown key"),
    ],
)
def test_a_wrong_configuration_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "judge.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert message in str(e.value)


def test_a_missing_file_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")
