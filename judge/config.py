"""Configuration (Contract 2): `judge.toml`, or the embedded defaults.

With no file at all the judge runs on its embedded defaults: database `var/judge.db`,
inbound by the embedded SMTP receiver on 127.0.0.1:2525, outbound into the Maildir
`var/outbox/`. Secrets may be given as `password`, `password_file` or `password_env`.
A wrong key or value raises ConfigError naming it.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class ConfigError(ValueError):
    """The configuration is wrong; the message names the key."""


@dataclass(frozen=True)
class ImapConfig:
    host: str = "127.0.0.1"
    port: int = 993
    ssl: bool = True
    starttls: bool = False
    username: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    processed_mailbox: str = "processed"
    idle: bool = True
    poll_seconds: float = 30.0


@dataclass(frozen=True)
class SmtpInConfig:
    host: str = "127.0.0.1"
    port: int = 2525


@dataclass(frozen=True)
class SmtpOutConfig:
    host: str = "127.0.0.1"
    port: int = 25
    starttls: bool = False
    ssl: bool = False
    username: str = ""
    password: str = ""


@dataclass(frozen=True)
class Config:
    name: str = "JUDGE"
    address: str = "judge@localhost"
    database: Path = Path("var/judge.db")
    timezone: str = "UTC"
    masters: tuple[str, ...] = ()  # may sign on as master of any game (master_password)
    # What a listed master signs on with, from a listed address; kept out of repr().
    master_password: str = field(default="", repr=False)
    broadcast: str = ""
    maps: Path | None = None  # the operator's map folder, searched before the bundled maps/
    max_message_bytes: int = 1_000_000
    rate_limit_per_hour: int = 60  # mails an hour from one From: beyond it, no replies
    replies_per_hour: int = 20  # replies an hour to one address, whatever the headers
    wrong_passwords_per_hour: int = 10  # per power of a game, and per sender
    passwords_per_mail: int = 5  # SIGNON, CREATE, OBSERVE, SET PASSWORD, ... in one mail
    inbound_mode: str = "smtp"
    imap: ImapConfig = field(default_factory=ImapConfig)
    smtp_in: SmtpInConfig = field(default_factory=SmtpInConfig)
    outbound_mode: str = "maildir"
    smtp_out: SmtpOutConfig = field(default_factory=SmtpOutConfig)
    maildir: Path = Path("var/outbox")
    source: str = "embedded defaults"  # where this configuration came from

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


_SECTIONS: dict[str, set[str]] = {
    "judge": {
        "name",
        "address",
        "database",
        "timezone",
        "masters",
        "master_password",
        "master_password_file",
        "master_password_env",
        "broadcast",
        "maps",
        "max_message_bytes",
        "rate_limit_per_hour",
        "replies_per_hour",
        "wrong_passwords_per_hour",
        "passwords_per_mail",
    },
    "inbound": {"mode", "imap", "smtp"},
    "inbound.imap": {
        "host",
        "port",
        "ssl",
        "starttls",
        "username",
        "password",
        "password_file",
        "password_env",
        "mailbox",
        "processed_mailbox",
        "idle",
        "poll_seconds",
    },
    "inbound.smtp": {"host", "port"},
    "outbound": {"mode", "smtp", "maildir"},
    "outbound.smtp": {
        "host",
        "port",
        "starttls",
        "ssl",
        "username",
        "password",
        "password_file",
        "password_env",
    },
    "outbound.maildir": {"path"},
}


def load_config(path: str | Path | None = None, *, cwd: Path | None = None) -> Config:
    """`path`, else ./judge.toml, else the embedded defaults. Relative paths in the file
    are taken from the file's own folder."""
    cwd = cwd or Path.cwd()
    if path is None:
        candidate = cwd / "judge.toml"
        if not candidate.exists():
            return _resolve_paths(Config(), cwd)
        path = candidate
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    base = path.resolve().parent
    return _resolve_paths(config_from_dict(data, source=str(path), base=base), base)


def config_from_dict(
    data: dict[str, Any], source: str = "dict", base: Path | None = None
) -> Config:
    """Build a Config from parsed TOML, refusing unknown keys and wrong types. Relative
    `password_file` paths are taken from `base` (the configuration file's folder)."""
    _check_keys(data, "", {"judge", "inbound", "outbound"})
    judge = _table(data, "judge")
    inbound = _table(data, "inbound")
    outbound = _table(data, "outbound")
    _check_keys(judge, "judge", _SECTIONS["judge"])
    _check_keys(inbound, "inbound", _SECTIONS["inbound"])
    _check_keys(outbound, "outbound", _SECTIONS["outbound"])
    imap = _table(inbound, "imap", "inbound.")
    smtp_in = _table(inbound, "smtp", "inbound.")
    smtp_out = _table(outbound, "smtp", "outbound.")
    maildir = _table(outbound, "maildir", "outbound.")
    for key, table in (
        ("inbound.imap", imap),
        ("inbound.smtp", smtp_in),
        ("outbound.smtp", smtp_out),
        ("outbound.maildir", maildir),
    ):
        _check_keys(table, key, _SECTIONS[key])

    d = Config()
    # The checks run in this order, so that of several wrong values the same one is named.
    timezone = _get(judge, "judge.timezone", str, d.timezone)
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"judge.timezone: unknown time zone {timezone!r}") from None
    inbound_mode = _get(inbound, "inbound.mode", str, d.inbound_mode)
    if inbound_mode not in ("imap", "smtp"):
        raise ConfigError(f'inbound.mode must be "imap" or "smtp", not {inbound_mode!r}')
    outbound_mode = _get(outbound, "outbound.mode", str, d.outbound_mode)
    if outbound_mode not in ("smtp", "maildir"):
        raise ConfigError(f'outbound.mode must be "smtp" or "maildir", not {outbound_mode!r}')
    return Config(
        timezone=timezone,
        **_judge_fields(judge, base),
        inbound_mode=inbound_mode,
        imap=_imap_config(imap, base),
        smtp_in=SmtpInConfig(
            host=_get(smtp_in, "inbound.smtp.host", str, SmtpInConfig.host),
            port=_get(smtp_in, "inbound.smtp.port", int, SmtpInConfig.port),
        ),
        outbound_mode=outbound_mode,
        smtp_out=_smtp_out_config(smtp_out, base),
        maildir=Path(_get(maildir, "outbound.maildir.path", str, str(d.maildir))),
        source=source,
    )


def _judge_fields(judge: dict[str, Any], base: Path | None) -> dict[str, Any]:
    """The Config fields of the [judge] table but its timezone, each checked."""
    d = Config()
    address = _get(judge, "judge.address", str, d.address)
    if "@" not in address:
        raise ConfigError(f"judge.address must be a mail address, not {address!r}")
    replies_per_hour = _get(judge, "judge.replies_per_hour", int, d.replies_per_hour)
    if replies_per_hour < 1:
        raise ConfigError(f"judge.replies_per_hour must be at least 1, not {replies_per_hour}")
    masters = _get(judge, "judge.masters", list, [])
    if not all(isinstance(a, str) and "@" in a for a in masters):
        raise ConfigError(f"judge.masters must be a list of mail addresses, not {masters!r}")
    master_password = _secret(judge, "judge", base, "master_")
    if masters and not master_password:
        # A From: line is easy to forge: a listed address alone is no authority.
        raise ConfigError(
            "judge.masters: the listed masters sign on with judge.master_password "
            "(or master_password_file, master_password_env); give one"
        )
    fields: dict[str, Any] = {"address": address, "replies_per_hour": replies_per_hour}
    for key in ("wrong_passwords_per_hour", "passwords_per_mail"):
        fields[key] = _get(judge, f"judge.{key}", int, getattr(d, key))
        if fields[key] < 1:
            raise ConfigError(f"judge.{key} must be at least 1, not {fields[key]}")
    return fields | {
        "name": _get(judge, "judge.name", str, d.name),
        "database": Path(_get(judge, "judge.database", str, str(d.database))),
        "masters": tuple(a.strip("<>").lower() for a in masters),
        "master_password": master_password,
        "broadcast": _get(judge, "judge.broadcast", str, d.broadcast),
        "maps": Path(folder) if (folder := _get(judge, "judge.maps", str, "")) else None,
        "max_message_bytes": _get(judge, "judge.max_message_bytes", int, d.max_message_bytes),
        "rate_limit_per_hour": _get(judge, "judge.rate_limit_per_hour", int, d.rate_limit_per_hour),
    }


def _imap_config(imap: dict[str, Any], base: Path | None) -> ImapConfig:
    """The [inbound.imap] table, each key checked."""
    di = ImapConfig()
    return ImapConfig(
        host=_get(imap, "inbound.imap.host", str, di.host),
        port=_get(imap, "inbound.imap.port", int, di.port),
        ssl=_get(imap, "inbound.imap.ssl", bool, di.ssl),
        starttls=_get(imap, "inbound.imap.starttls", bool, di.starttls),
        username=_get(imap, "inbound.imap.username", str, di.username),
        password=_secret(imap, "inbound.imap", base),
        mailbox=_get(imap, "inbound.imap.mailbox", str, di.mailbox),
        processed_mailbox=_get(imap, "inbound.imap.processed_mailbox", str, di.processed_mailbox),
        idle=_get(imap, "inbound.imap.idle", bool, di.idle),
        poll_seconds=float(_get(imap, "inbound.imap.poll_seconds", (int, float), 30)),
    )


def _smtp_out_config(smtp_out: dict[str, Any], base: Path | None) -> SmtpOutConfig:
    """The [outbound.smtp] table, each key checked."""
    dso = SmtpOutConfig()
    return SmtpOutConfig(
        host=_get(smtp_out, "outbound.smtp.host", str, dso.host),
        port=_get(smtp_out, "outbound.smtp.port", int, dso.port),
        starttls=_get(smtp_out, "outbound.smtp.starttls", bool, dso.starttls),
        ssl=_get(smtp_out, "outbound.smtp.ssl", bool, dso.ssl),
        username=_get(smtp_out, "outbound.smtp.username", str, dso.username),
        password=_secret(smtp_out, "outbound.smtp", base),
    )


def _resolve_paths(config: Config, base: Path) -> Config:
    from dataclasses import replace

    return replace(
        config,
        database=config.database if config.database.is_absolute() else base / config.database,
        maildir=config.maildir if config.maildir.is_absolute() else base / config.maildir,
        maps=config.maps
        if config.maps is None or config.maps.is_absolute()
        else base / config.maps,
    )


def _table(data: dict[str, Any], key: str, prefix: str = "") -> dict[str, Any]:
    """The sub-table `key` of `data` ({} when absent); ConfigError when it is no table."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{prefix}{key} must be a table ([{prefix}{key}])")
    return value


def _check_keys(table: dict[str, Any], name: str, allowed: set[str]) -> None:
    """ConfigError naming the first key of `table` that is not in `allowed`."""
    for key in table:
        if key not in allowed:
            where = f"{name}.{key}" if name else key
            raise ConfigError(f"{where}: unknown key (allowed: {', '.join(sorted(allowed))})")


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """The value at `key` (dotted, its last part looked up in `table`), else `default`;
    ConfigError when it is not of `kind` (a bool is no int)."""
    short = key.rsplit(".", 1)[1]
    if short not in table:
        return default
    value = table[short]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ConfigError(f"{key} must be a {names}, not {value!r}")
    return value


def _secret(table: dict[str, Any], section: str, base: Path | None, prefix: str = "") -> str:
    """`password`, `password_file` or `password_env` (each after `prefix`), at most one."""
    keys = tuple(f"{prefix}{k}" for k in ("password", "password_file", "password_env"))
    given = [k for k in keys if k in table]
    if len(given) > 1:
        raise ConfigError(f"{section}: give only one of {', '.join(given)}")
    if not given:
        return ""
    key = given[0]
    value: str = _get(table, f"{section}.{key}", str, "")
    if key == keys[0]:
        return value
    if key == keys[1]:
        file = Path(value) if base is None or Path(value).is_absolute() else base / value
        try:
            return file.read_text().strip()
        except OSError as e:
            raise ConfigError(f"{section}.{key}: cannot read {value}: {e.strerror}") from None
    if value not in os.environ:
        raise ConfigError(f"{section}.{key}: the environment variable {value} is not set")
    return os.environ[value]
