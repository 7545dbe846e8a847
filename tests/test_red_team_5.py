"""The red team's fifth round: the operator's side. A configuration written wrong (every
kind of wrong value, a file that is no TOML, no UTF-8 or no file), the operator's tools
given hostile arguments or run beside a running judge, and the judge's start and stop
(two at once, a database it cannot use). Each mistake gets one clear line naming the
file, key or value, an exit status other than 0, never a traceback and never a password.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_harness import run, write_config

SECRET = "hunter2-Secret"

# (what follows the [judge] table of cli_harness.write_config, the error's text)
WRONG_CONFIGURATIONS = [
    # A password typed at a number's key, and a number typed as a password: neither shown.
    (
        f'[inbound]\nmode = "imap"\n[inbound.imap]\nport = "{SECRET}"\n',
        "inbound.imap.port must be a whole number, not a string",
    ),
    (
        "[outbound.smtp]\npassword = 314159265\n",
        "outbound.smtp.password must be a string in quotes, not a number",
    ),
    ("[inbound.smtp]\nport = -5\n", "inbound.smtp.port must be a port from 0 to 65535, not -5"),
    (
        "[inbound.imap]\nport = 70000\n",
        "inbound.imap.port must be a port from 1 to 65535, not 70000",
    ),
    (
        "[outbound.smtp]\nport = 0\n",
        "outbound.smtp.port must be a port from 1 to 65535, not 0",
    ),
    (
        "[inbound.smtp]\nport = 1000000000000000000000000000000\n",
        "inbound.smtp.port must be a port from 0 to 65535, not 1000000000000000000000000000000",
    ),
    (
        "[inbound.imap]\npoll_seconds = nan\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not nan",
    ),
    (
        "[inbound.imap]\npoll_seconds = inf\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not inf",
    ),
    (
        "[inbound.imap]\npoll_seconds = 0\n",
        "inbound.imap.poll_seconds must be from 0.1 to 86400 seconds, not 0",
    ),
    ("max_message_bytes = 0\n", "judge.max_message_bytes must be at least 1, not 0"),
    ("rate_limit_per_hour = -1\n", "judge.rate_limit_per_hour must be at least 1, not -1"),
    (
        "passwords_per_mail = 10000000000\n",
        "judge.passwords_per_mail must be at most 1,000,000,000, not 10,000,000,000",
    ),
    ("replies_per_hour = true\n", "judge.replies_per_hour must be a whole number, not true"),
    ('[outbound.maildir]\npath = ""\n', "outbound.maildir.path must not be empty"),
    ('[inbound.smtp]\nhost = ""\n', "inbound.smtp.host must not be empty"),
    ('broadcast = "listserv"\n', "judge.broadcast must be a mail address or empty, not 'listserv'"),
    ('timezone = "Europe/Atlantis"\n', "judge.timezone: unknown time zone 'Europe/Atlantis'"),
    (
        "replies_per_hours = 5\n",
        "judge.replies_per_hours: unknown key (did you mean replies_per_hour? allowed: "
        "address, broadcast, database, maps, master_password, master_password_env, "
        "master_password_file, masters, max_message_bytes, name, passwords_per_mail, "
        "rate_limit_per_hour, replies_per_hour, timezone, wrong_passwords_per_hour)",
    ),
    (
        '[outbound.smpt]\nhost = "x"\n',
        "outbound.smpt: unknown key (did you mean smtp? allowed: maildir, mode, smtp)",
    ),
]


@pytest.mark.parametrize(("text", "error"), WRONG_CONFIGURATIONS)
def test_a_wrong_value_is_refused_in_one_line_by_run_and_check_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, error: str
) -> None:
    path = write_config(tmp_path, text)
    status, out, err = run(capsys, "--config", str(path), "check-config")
    assert (status, out, err) == (1, [f"configuration: FAILED: {error}"], "")
    status, out, err = run(capsys, "--config", str(path), "run", "--once")
    assert (status, out, err) == (2, [], f"judge: configuration error: {error}\n")
    assert not (tmp_path / "j.db").exists()  # refused before anything was created


@pytest.mark.parametrize(
    ("address", "shown"),
    [
        ("judge", "'judge'"),
        ("@", "'@'"),
        ("judge@", "'judge@'"),
        ("a@b\nBcc: c@d", "'a@b\\nBcc: c@d'"),
    ],
)
def test_the_judges_address_must_be_one_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str, shown: str
) -> None:
    path = tmp_path / "judge.toml"
    path.write_text("[judge]\naddress = " + _toml_string(address) + "\n")
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert (status, out) == (
        1,
        [f"configuration: FAILED: judge.address must be a mail address, not {shown}"],
    )


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string."""
    return '"' + text.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"') + '"'


def test_a_line_break_in_the_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "judge.toml"
    path.write_text('[judge]\nname = "A\\nSubject: x"\n')
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert (status, out) == (
        1,
        [
            "configuration: FAILED: judge.name must not hold a control character (a line "
            "break, a tab), not 'A\\nSubject: x'"
        ],
    )


def test_a_file_that_is_no_configuration_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes('[judge]\nname = "Bj\xf6rn"\n'.encode("latin-1"))
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"\xff\xfe" + SECRET.encode())
    binary = write_config(tmp_path, f'[outbound.smtp]\npassword_file = "{secret.name}"\n')
    for path, error in [
        (latin, f"{latin}: not UTF-8 text (line 2 has the byte 0xf6); save it as UTF-8"),
        (folder, f"{folder}: a folder, not a configuration file"),
        (binary, f"outbound.smtp.password_file: {secret.name} is not UTF-8 text"),
    ]:
        status, out, err = run(capsys, "--config", str(path), "check-config")
        assert (status, out, err) == (1, [f"configuration: FAILED: {error}"], "")
        status, out, err = run(capsys, "--config", str(path), "run", "--once")
        assert (status, err) == (2, f"judge: configuration error: {error}\n")
        status, out, err = run(capsys, "--config", str(path), "games")
        assert (status, err) == (2, f"judge: configuration error: {error}\n")
