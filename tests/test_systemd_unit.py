"""systemd/judge.service passes `systemd-analyze verify`, and config/judge.example.toml
(the file the unit's installation notes start from) is Contract 2, key for key."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

from judge.config import _SECTIONS, Config, load_config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "judge.service"
EXAMPLE = ROOT / "config" / "judge.example.toml"
INSTALLED_JUDGE = "/opt/judge/.venv/bin/judge"  # where the unit expects the judge


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, (
        "systemd-analyze is not installed: `make test` installs it (Debian's systemd "
        "package, with apt-get), or run: apt-get install -y systemd"
    )
    # `verify` checks that every Exec binary exists and is executable, and the unit runs
    # the judge from /opt/judge/.venv, where it is installed on a server, not here. So the
    # unit is verified as a copy whose ExecStart names this checkout's judge script (the
    # same program, installed by `pip install -e .`); everything else is verified as
    # written. The copy keeps the name judge.service, since verify takes the unit's name
    # from the file's. ExecReload's /bin/kill (procps) is kept when it exists, which it
    # does on every Debian but the slimmest containers; else it is pointed at the judge
    # script too, so that only the unit's own text decides the outcome.
    judge = Path(sys.executable).parent / "judge"
    assert judge.is_file(), f"no judge script beside {sys.executable}: run `make test`"
    text = UNIT.read_text()
    assert f"ExecStart={INSTALLED_JUDGE} " in text
    text = text.replace(f"ExecStart={INSTALLED_JUDGE} ", f"ExecStart={judge} ")
    reload_binary = re.search(r"^ExecReload=(\S+)", text, re.MULTILINE)
    assert reload_binary, "the unit has no ExecReload"
    if not Path(reload_binary.group(1)).is_file():
        text = text.replace(f"ExecReload={reload_binary.group(1)} ", f"ExecReload={judge} ")
    unit = tmp_path / "judge.service"
    unit.write_text(text)
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    # verify exits 0 even on unknown keys or bad values ("..., ignoring."): every word it
    # says is a problem.
    said = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and said == "", said


def _keys(data: dict, prefix: str = "") -> dict[str, object]:
    """A parsed TOML document as {"section.key": value}, tables flattened."""
    out: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_keys(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _contract() -> dict[str, object]:
    """Contract 2 as the README states it: its Configuration section's TOML block."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Configuration", 1)[1]
    block = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert block, "no ```toml block in the README's Configuration section"
    return _keys(tomllib.loads(block.group(1)))


def test_the_example_configuration_is_contract_2_key_for_key() -> None:
    contract = _contract()
    assert {"judge.name", "inbound.smtp.port", "outbound.maildir.path"} <= set(contract)
    example = _keys(tomllib.loads(EXAMPLE.read_text()))
    # Every key of Contract 2 is in the example, with the contract's default; and the
    # example sets nothing the contract does not name.
    assert example == contract
    # load_config accepts it, and it configures exactly the embedded defaults.
    config = load_config(EXAMPLE)
    assert config == replace(
        Config(),
        database=EXAMPLE.parent / "var" / "judge.db",
        maildir=EXAMPLE.parent / "var" / "outbox",
        source=str(EXAMPLE),
    )
    # The loader knows every key of the contract, and the contract names every key the
    # loader accepts but the alternatives for a password (password_file, password_env),
    # which the example shows commented out in both sections that take a password.
    accepted = {
        f"{section}.{key}"
        for section, keys in _SECTIONS.items()
        for key in keys
        if key not in ("imap", "smtp", "maildir")  # the subtables
    }
    alternatives = {
        f"{section}.{prefix}{key}"
        for section, prefix in (("inbound.imap", ""), ("outbound.smtp", ""), ("judge", "master_"))
        for key in ("password_file", "password_env")
    }
    assert accepted == set(contract) | alternatives
    text = EXAMPLE.read_text()
    for section, prefix in (("inbound.imap", ""), ("outbound.smtp", ""), ("judge", "master_")):
        body = text.split(f"[{section}]", 1)[1].split("\n[", 1)[0]
        for key in ("password_file", "password_env"):
            assert re.search(rf"^# {prefix}{key} = ", body, re.MULTILINE), (section, key)
