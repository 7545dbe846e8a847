"""The judge's start: one judge per database, and a start that fails said in one line.

Two judges on one database would both handle the same stored mail and both send the
same queued replies: the second one to start is refused. A start that fails (the SMTP
receiver's port taken, the Maildir a file) raises StartFailed before any mail is taken,
so nothing is lost and the operator reads what to change.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from judge.config import Config


class StartFailed(Exception):
    """The judge could not start; the message says what, where, and what to change."""


def lock_path(database: Path) -> Path:
    """The file beside the database that the running judge holds locked: beside the
    real file, so that a judge reaching it by a symbolic link finds the same lock."""
    real = database.resolve()
    return real.with_name(real.name + ".lock")


@contextlib.contextmanager
def sole_judge(config: Config) -> Iterator[None]:
    """Hold the database's lock file for the judge's life; StartFailed when another
    judge holds it. The lock is the kernel's (flock): a judge that dies, even by
    SIGKILL, leaves it free, whatever the file says."""
    path = lock_path(config.database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise StartFailed(f"cannot create the lock file {path}: {e.strerror or e}") from None
    try:
        if not _locked(fd):
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise StartFailed(
                f"another judge is running on the database {config.database} (process "
                f"{holder}; it holds {path}): stop it first, or give this one its own "
                "judge.database"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # frees the lock


def _locked(fd: int, tries: int = 10) -> bool:
    """Whether the lock on `fd` was taken; a few tries 50 ms apart, for `judge
    check-config` looks at the lock for a moment (holder) and must not stop a start."""
    for n in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if n + 1 < tries:
                time.sleep(0.05)
    return False


def holder(database: Path) -> str | None:
    """The process id of the judge running on `database` (as its lock file says), or
    None when none holds the lock."""
    try:
        fd = os.open(lock_path(database), os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def probe_port(config: Config) -> None:
    """OSError when the SMTP receiver's address cannot be bound. aiosmtpd says so only
    after its ready_timeout (10 s); this says it at once."""
    c = config.smtp_in
    family, kind, proto, _, address = socket.getaddrinfo(
        c.host, c.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server does
        s.bind(address)


def port_reason(error: OSError, host: str, other: str = "another judge") -> str | None:
    """Why `host`'s port cannot be bound (probe_port), in an operator's words, for the
    usual causes (`other`: who else may hold the port); None for any other."""
    if error.errno == errno.EADDRINUSE:
        return f"the port is in use (by another program, or {other})"
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need CAP_NET_BIND_SERVICE)"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine"
    return None


def start_words(step: str, error: OSError, config: Config) -> str:
    """What an OSError at the start `step` means to the operator, in one line."""
    if step == "receiver":
        where = f"{config.smtp_in.host}:{config.smtp_in.port}"
        reason = port_reason(error, config.smtp_in.host) or error.strerror or str(error)
        return f"the SMTP receiver cannot listen on {where}: {reason} (inbound.smtp)"
    if step == "outbox" and config.outbound_mode == "maildir":
        return (
            f"the Maildir {config.maildir} cannot be used: "
            f"{error.strerror or error} (outbound.maildir.path)"
        )
    return f"cannot start the {step}: {error.strerror or error}"
