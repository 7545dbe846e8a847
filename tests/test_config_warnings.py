"""Configuration mistakes that load without an error but do nothing as written: a file
with no setting (the judge runs on its embedded defaults), and settings of a mode not
chosen (IMAP settings under `inbound.mode = "smtp"`, the default). `judge check-config`
prints each as a warning and `judge run` logs it at start; what every key means is
unchanged, and the example configuration, as `judge init` writes it, warns of nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from cli_harness import run, write_config

from judge.config import load_config
from judge.ops.init_config import example_path

SECRET = "hunter2-Secret"


def _warned(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "judge.config"]


@pytest.mark.parametrize("text", ["", "# the judge's settings, to be written\n\n", "[judge]\n"])
def test_a_file_with_no_setting_is_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, text: str
) -> None:
    path = tmp_path / "judge.toml"
    path.write_text(text)
    warning = (
        f"{path} holds no setting (it is empty, or comments only): the judge runs on its "
        "embedded defaults, mail in by SMTP on 127.0.0.1:2525 for judge@localhost, out "
        "into the Maildir var/outbox beside it"
    )
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[:2] == [f"configuration: {path}", f"warning: {warning}"]
    assert out[-1] == "every part works, with 1 warning above"
    assert status == 0
    caplog.set_level(logging.INFO)
    status, _, _ = run(capsys, "--config", str(path), "run", "--once")
    assert status == 0
    assert _warned(caplog) == [(logging.WARNING, warning)]


def test_imap_settings_under_the_default_mode_are_warned_of_without_their_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    path = write_config(
        tmp_path,
        '[inbound.smtp]\nport = 0\n[inbound.imap]\nhost = "imap.example.org"\n'
        f'username = "judge"\npassword = "{SECRET}"\nport = 993\n',
    )
    warning = (
        'inbound.imap: host, password, username set but unused: inbound.mode is "smtp" '
        "(the default: it is not set), so mail comes in by the embedded SMTP receiver; "
        'set inbound.mode = "imap" to use them'
    )
    assert load_config(path).warnings == (warning,)
    status, out, _ = run(capsys, "--config", str(path), "check-config")
    assert out[1] == f"warning: {warning}"
    assert out[-1] == "every part works, with 1 warning above"
    assert status == 0
    caplog.set_level(logging.INFO)
    assert run(capsys, "--config", str(path), "run", "--once")[0] == 0
    assert _warned(caplog) == [(logging.WARNING, warning)]
    assert SECRET not in caplog.text and SECRET not in "\n".join(out)


def test_each_mode_not_chosen_is_warned_of_and_its_mode_named(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        '[inbound]\nmode = "imap"\n[inbound.imap]\nusername = "judge"\n'
        '[inbound.smtp]\nport = 2626\n[outbound]\nmode = "smtp"\n'
        '[outbound.maildir]\npath = "mail"\n[outbound.smtp]\nport = 587\n',
    )
    assert load_config(path).warnings == (
        'inbound.smtp: port set but unused: inbound.mode is "imap", so mail is read from '
        'the IMAP mailbox; set inbound.mode = "smtp" to use them',
        'outbound.maildir: path set but unused: outbound.mode is "smtp", so mail goes out '
        'by the SMTP relay; set outbound.mode = "maildir" to use them',
    )
    relay = write_config(tmp_path, '[outbound.smtp]\nhost = "relay.example.org"\n')
    assert load_config(relay).warnings == (
        'outbound.smtp: host set but unused: outbound.mode is "maildir" (the default: it is '
        "not set), so mail goes out into the Maildir; "
        'set outbound.mode = "smtp" to use them',
    )


def test_the_example_configuration_and_a_right_one_warn_of_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = example_path()
    assert example is not None
    assert load_config(example).warnings == ()
    path = write_config(
        tmp_path,
        '[inbound]\nmode = "imap"\n[inbound.imap]\nhost = "imap.example.org"\n'
        'password_file = "pw"\n[inbound.smtp]\nhost = "127.0.0.1"\nport = 2525\n',
    )
    (tmp_path / "pw").write_text("secret\n")
    assert load_config(path).warnings == ()
    # With no file at all the defaults are meant, as documented: nothing to warn of.
    assert load_config(cwd=tmp_path / "nowhere").warnings == ()


def test_a_reload_by_sighup_warns_of_the_new_files_mistakes_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from judge.service import daemon

    path = write_config(tmp_path, "[inbound.smtp]\nport = 0\n")
    config = load_config(path)
    assert config.warnings == ()
    write_config(tmp_path, f'[inbound.smtp]\nport = 0\n[inbound.imap]\npassword = "{SECRET}"\n')
    caplog.set_level(logging.INFO)
    daemon._reloaded(config)
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warned == [
        "SIGHUP: imap changed; restart the judge for that to take effect",
        'SIGHUP: inbound.imap: password set but unused: inbound.mode is "smtp" (the default: '
        "it is not set), so mail comes in by the embedded SMTP receiver; "
        'set inbound.mode = "imap" to use them',
    ]
    assert SECRET not in caplog.text
