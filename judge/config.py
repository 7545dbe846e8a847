"""Configuration (Contract 2): `judge.toml`, or the embedded defaults.

With no file at all the judge runs on its embedded defaults: database `var/judge.db`,
inbound by the embedded SMTP receiver on 127.0.0.1:2525, outbound into the Maildir
`var/outbox/`. Secrets may be given as `password`, `password_file` or `password_env`.
A wrong key or value raises ConfigError naming it.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class ConfigError(ValueError):
    """The configuration is wrong; the message names the key."""


# The largest number any count or size of the configuration takes: far above any judge's
# need, and an int SQLite can store (a 10**30 was taken, then failed in a query).
MAX_NUMBER = 1_000_000_000
# IMAP polling: 0, a negative, NaN or infinity would spin or never poll again.
POLL_SECONDS = (0.1, 86_400.0)


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
    # A game's results as one mail to all its readers (To: the game's group), not one to
    # each address as njudge does: see README, "Results as one mail".
    results_together: bool = False
    smtp_out: SmtpOutConfig = field(default_factory=SmtpOutConfig)
    maildir: Path = Path("var/outbox")
    source: str = "embedded defaults"  # where this configuration came from
    # Settings that load but do nothing as written: `judge check-config` prints them and
    # `judge run` logs them (a file with no setting, another mode's settings).
    warnings: tuple[str, ...] = ()

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
    "outbound": {"mode", "results_together", "smtp", "maildir"},
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
    except IsADirectoryError:
        raise ConfigError(f"{path}: a folder, not a configuration file") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:  # TOML is UTF-8: a file saved as Latin-1, or binary
        line = e.object[: e.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: not UTF-8 text (line {line} has the byte 0x{e.object[e.start]:02x}); "
            "save it as UTF-8"
        ) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    base = path.resolve().parent
    config = _resolve_paths(config_from_dict(data, source=str(path), base=base), base)
    if not _has_setting(data):
        empty = (
            f"{path} holds no setting (it is empty, or comments only): the judge runs on "
            "its embedded defaults, mail in by SMTP on 127.0.0.1:2525 for judge@localhost, "
            "out into the Maildir var/outbox beside it"
        )
        config = replace(config, warnings=(empty, *config.warnings))
    return config


def _has_setting(data: dict[str, Any]) -> bool:
    """Whether the parsed file sets any key (tables alone set nothing)."""
    return any(not isinstance(v, dict) or _has_setting(v) for v in data.values())


# Per direction, what each mode does, for the warning that another mode's settings are
# unused; and the settings of each mode's table as they are by default.
_MODE_WORDS = {
    ("inbound", "smtp"): "mail comes in by the embedded SMTP receiver",
    ("inbound", "imap"): "mail is read from the IMAP mailbox",
    ("outbound", "maildir"): "mail goes out into the Maildir",
    ("outbound", "smtp"): "mail goes out by the SMTP relay",
}


def _mode_defaults() -> dict[tuple[str, str], dict[str, Any]]:
    return {
        ("inbound", "smtp"): asdict(SmtpInConfig()),
        ("inbound", "imap"): asdict(ImapConfig()),
        ("outbound", "maildir"): {"path": str(Config.maildir)},
        ("outbound", "smtp"): asdict(SmtpOutConfig()),
    }


def _unused_settings(data: dict[str, Any], modes: dict[str, str]) -> tuple[str, ...]:
    """A warning for each table of a mode not chosen that sets a value other than the
    default (the example configuration's tables, left as they are, say nothing): such
    settings are silently unused. Values are never shown: one may be a password."""
    found = []
    for (direction, mode), defaults in _mode_defaults().items():
        chosen = modes[direction]
        table = data.get(direction, {}).get(mode, {})
        changed = sorted(k for k, v in table.items() if v != defaults.get(k, ""))
        if mode == chosen or not changed:
            continue
        given = "mode" in data.get(direction, {})
        found.append(
            f"{direction}.{mode}: {', '.join(changed)} set but unused: {direction}.mode is "
            f'"{chosen}"{"" if given else " (the default: it is not set)"}, so '
            f'{_MODE_WORDS[direction, chosen]}; set {direction}.mode = "{mode}" to use them'
        )
    return tuple(found)


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
            host=_text(smtp_in, "inbound.smtp.host", SmtpInConfig.host),
            # 0: any free port (the tests' receivers); a real judge names its port
            port=_port(smtp_in, "inbound.smtp.port", SmtpInConfig.port, lowest=0),
        ),
        outbound_mode=outbound_mode,
        results_together=_get(outbound, "outbound.results_together", bool, d.results_together),
        smtp_out=_smtp_out_config(smtp_out, base),
        maildir=Path(_text(maildir, "outbound.maildir.path", str(d.maildir))),
        source=source,
        warnings=_unused_settings(data, {"inbound": inbound_mode, "outbound": outbound_mode}),
    )


def _judge_fields(judge: dict[str, Any], base: Path | None) -> dict[str, Any]:
    """The Config fields of the [judge] table but its timezone, each checked."""
    d = Config()
    address = _get(judge, "judge.address", str, d.address)
    if not _is_address(address):
        raise ConfigError(f"judge.address must be a mail address, not {address!r}")
    masters = _get(judge, "judge.masters", list, [])
    if not all(isinstance(a, str) and _is_address(a.strip("<>")) for a in masters):
        raise ConfigError(f"judge.masters must be a list of mail addresses, not {masters!r}")
    broadcast = _get(judge, "judge.broadcast", str, d.broadcast)
    if broadcast and not _is_address(broadcast):
        raise ConfigError(f"judge.broadcast must be a mail address or empty, not {broadcast!r}")
    master_password = _secret(judge, "judge", base, "master_")
    if masters and not master_password:
        # A From: line is easy to forge: a listed address alone is no authority.
        raise ConfigError(
            "judge.masters: the listed masters sign on with judge.master_password "
            "(or master_password_file, master_password_env); give one"
        )
    counts = (
        "replies_per_hour",
        "wrong_passwords_per_hour",
        "passwords_per_mail",
        "max_message_bytes",
        "rate_limit_per_hour",
    )
    fields = {key: _count(judge, f"judge.{key}", getattr(d, key)) for key in counts}
    return fields | {
        "address": address,
        "name": _text(judge, "judge.name", d.name),
        "database": Path(_text(judge, "judge.database", str(d.database))),
        "masters": tuple(a.strip("<>").lower() for a in masters),
        "master_password": master_password,
        "broadcast": broadcast,
        "maps": Path(folder) if (folder := _text(judge, "judge.maps", "", empty=True)) else None,
    }


def _imap_config(imap: dict[str, Any], base: Path | None) -> ImapConfig:
    """The [inbound.imap] table, each key checked."""
    di = ImapConfig()
    return ImapConfig(
        host=_text(imap, "inbound.imap.host", di.host),
        port=_port(imap, "inbound.imap.port", di.port),
        ssl=_get(imap, "inbound.imap.ssl", bool, di.ssl),
        starttls=_get(imap, "inbound.imap.starttls", bool, di.starttls),
        username=_get(imap, "inbound.imap.username", str, di.username),
        password=_secret(imap, "inbound.imap", base),
        mailbox=_text(imap, "inbound.imap.mailbox", di.mailbox),
        processed_mailbox=_text(imap, "inbound.imap.processed_mailbox", di.processed_mailbox),
        idle=_get(imap, "inbound.imap.idle", bool, di.idle),
        poll_seconds=_poll_seconds(imap),
    )


def _smtp_out_config(smtp_out: dict[str, Any], base: Path | None) -> SmtpOutConfig:
    """The [outbound.smtp] table, each key checked."""
    dso = SmtpOutConfig()
    return SmtpOutConfig(
        host=_text(smtp_out, "outbound.smtp.host", dso.host),
        port=_port(smtp_out, "outbound.smtp.port", dso.port),
        starttls=_get(smtp_out, "outbound.smtp.starttls", bool, dso.starttls),
        ssl=_get(smtp_out, "outbound.smtp.ssl", bool, dso.ssl),
        username=_get(smtp_out, "outbound.smtp.username", str, dso.username),
        password=_secret(smtp_out, "outbound.smtp", base),
    )


def _count(table: dict[str, Any], key: str, default: int) -> int:
    """A count or size at `key`: a whole number from 1 to MAX_NUMBER."""
    value: int = _get(table, key, int, default)
    if value < 1:
        raise ConfigError(f"{key} must be at least 1, not {value}")
    if value > MAX_NUMBER:
        raise ConfigError(f"{key} must be at most {MAX_NUMBER:,}, not {value:,}")
    return value


def _port(table: dict[str, Any], key: str, default: int, lowest: int = 1) -> int:
    """A TCP port at `key`: a whole number from `lowest` to 65535."""
    value: int = _get(table, key, int, default)
    if not lowest <= value <= 65535:
        raise ConfigError(f"{key} must be a port from {lowest} to 65535, not {value}")
    return value


def _poll_seconds(imap: dict[str, Any]) -> float:
    """inbound.imap.poll_seconds: a number of seconds within POLL_SECONDS."""
    key = "inbound.imap.poll_seconds"
    value = float(_get(imap, key, (int, float), ImapConfig.poll_seconds))
    low, high = POLL_SECONDS
    if not low <= value <= high:  # NaN compares false: refused too
        raise ConfigError(f"{key} must be from {low:g} to {high:g} seconds, not {value:g}")
    return value


def _text(table: dict[str, Any], key: str, default: str, *, empty: bool = False) -> str:
    """A name, host, mailbox or path at `key`: a string with no control character (a
    line break in a name ends up in mail headers; a NUL in a path is no path), not
    empty unless `empty` (an empty host listens on every address; an empty path is the
    configuration's own folder)."""
    value: str = _get(table, key, str, default)
    if not value.strip() and not (empty and value == ""):
        raise ConfigError(f"{key} must not be empty")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ConfigError(
            f"{key} must not hold a control character (a line break, a tab), not {value!r}"
        )
    return value


def _is_address(text: str) -> bool:
    """Whether `text` is one bare mail address: local@domain, each part non-empty, with
    no space, control character or the punctuation that ends an address in a header."""
    local, at, domain = text.rpartition("@")
    return bool(at and local and domain) and not any(
        c.isspace() or ord(c) < 32 or ord(c) == 127 or c in '<>,;"()[]\\@' for c in local + domain
    )


def _resolve_paths(config: Config, base: Path) -> Config:
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
            # A typo is the usual cause: name the key meant first.
            close = difflib.get_close_matches(key, allowed, n=1)
            meant = f"did you mean {close[0]}? " if close else ""
            raise ConfigError(
                f"{where}: unknown key ({meant}allowed: {', '.join(sorted(allowed))})"
            )


def _get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """The value at `key` (dotted, its last part looked up in `table`), else `default`;
    ConfigError when it is not of `kind` (a bool is no int)."""
    short = key.rsplit(".", 1)[1]
    if short not in table:
        return default
    value = table[short]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise ConfigError(f"{key} must be {_KIND_WORDS.get(kind, kind)}, not {_shown(key, value)}")
    return value


# What a value of each kind is called in the errors (TOML's words, not Python's).
_KIND_WORDS: dict[type | tuple[type, ...], str] = {
    int: "a whole number",
    str: "a string in quotes",
    bool: "true or false",
    list: "a list [...]",
    (int, float): "a number",
}


def _shown(key: str, value: object) -> str:
    """A wrong value as an error may show it: a number or true/false as written; any
    other value by its kind only, for a string at the wrong key may be a password (typed
    at `port`, say), and a secret's key never shows its value."""
    if "password" not in key and isinstance(value, bool):
        return "true" if value else "false"
    if "password" not in key and isinstance(value, int | float):
        return repr(value)
    kinds = (
        (bool, "true or false"),
        (int | float, "a number"),
        (str, "a string"),
        (list, "a list"),
        (dict, "a table"),
    )
    return next((word for kind, word in kinds if isinstance(value, kind)), "a date")


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
        except UnicodeDecodeError:  # never shown: its bytes are the secret
            raise ConfigError(f"{section}.{key}: {value} is not UTF-8 text") from None
    if value not in os.environ:
        raise ConfigError(f"{section}.{key}: the environment variable {value} is not set")
    return os.environ[value]
