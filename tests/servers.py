"""Real servers for integration tests: a private Dovecot on 127.0.0.1.

    with Dovecot() as server:            # plain IMAP on a free high port
        server.append(b"From: a@b\\r\\n\\r\\nhi\\r\\n")
        server.messages("INBOX")

    with Dovecot(tls=True) as server:    # also IMAPS on server.ssl_port, STARTTLS on
        server.ssl_context()             # server.port, with a self-signed certificate

Each instance has its own temporary directory (config, runtime, state, log, mail)
and is stopped by its PID and removed on exit. Dovecot refuses mail access as uid 0,
so when the tests run as root the mail user is uid/gid 65534 and the directory is made
world-readable (mkdtemp makes it 0700). The authentication penalty is off, so a
wrong-password test does not slow later logins.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from imapclient import IMAPClient
from smtp_sink import free_port

from judge.config import Config, ImapConfig
from judge.service.daemon import run_forever

USER = "judge"
PASSWORD = "secret"
MAIL_UID = 65534


def ensure_dovecot() -> str:
    """The dovecot binary's path; a test failure (not a skip) when it is missing."""
    found = shutil.which("dovecot") or next(
        (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.access(p, os.X_OK)),
        None,
    )
    if not found:
        pytest.fail(
            "Dovecot is not installed: the IMAP integration tests need it. `make test` "
            "installs it (Debian packages dovecot-imapd and dovecot-lmtpd).",
            pytrace=False,
        )
    return found


class Dovecot:
    """A private Dovecot instance. Use as a context manager, or call start()/close()."""

    host = "127.0.0.1"

    def __init__(self, tls: bool = False, user: str = USER, password: str = PASSWORD) -> None:
        self.binary = ensure_dovecot()
        self.user = user
        self.password = password
        self.tls = tls
        self.dir = Path(tempfile.mkdtemp(prefix="judge-dovecot-"))
        self.dir.chmod(0o755)
        self.base_dir = self.dir / "run"
        self.log_path = self.dir / "dovecot.log"
        self.port = free_port()
        self.ssl_port = free_port() if tls else None
        self.cert_path = self.dir / "cert.pem" if tls else None
        self.proc: subprocess.Popen | None = None
        self._write_config()

    # -- set-up ------------------------------------------------------------------------

    def _write_config(self) -> None:
        root = os.geteuid() == 0
        uid, gid = (MAIL_UID, MAIL_UID) if root else (os.getuid(), os.getgid())
        me = pwd.getpwuid(os.getuid()).pw_name
        home = self.dir / "home" / self.user
        (home / "Maildir").mkdir(parents=True)
        for d in (self.base_dir, self.dir / "state"):
            d.mkdir()
        if root:
            for path in (home.parent, home, home / "Maildir"):
                os.chown(path, uid, gid)
        passwd = self.dir / "passwd"
        passwd.write_text(f"{self.user}:{{PLAIN}}{self.password}:{uid}:{gid}::{home}::\n")
        passwd.chmod(0o644)

        lines = [
            f"base_dir = {self.base_dir}",
            f"state_dir = {self.dir / 'state'}",
            f"instance_name = judge-test-{self.port}",
            "listen = 127.0.0.1",
            "protocols = imap",
            f"log_path = {self.log_path}",
            "disable_plaintext_auth = no",
            "auth_mechanisms = plain login",
            "auth_failure_delay = 0",
            "mail_location = maildir:~/Maildir",
            "first_valid_uid = 1",
            "passdb {",
            "  driver = passwd-file",
            f"  args = scheme=PLAIN username_format=%u {passwd}",
            "}",
            "userdb {",
            "  driver = passwd-file",
            f"  args = username_format=%u {passwd}",
            "}",
            "service anvil {",
            "  unix_listener anvil-auth-penalty {",
            "    mode = 0",
            "  }",
            *([] if root else ["  chroot ="]),
            "}",
            "service imap-login {",
            "  inet_listener imap {",
            "    address = 127.0.0.1",
            f"    port = {self.port}",
            "  }",
            "  inet_listener imaps {",
            "    address = 127.0.0.1",
            f"    port = {self.ssl_port or 0}",
            f"    ssl = {'yes' if self.tls else 'no'}",
            "  }",
        ]
        if not root:  # an unprivileged Dovecot can neither chroot nor change users
            lines += ["  chroot ="]
        lines += ["}"]
        if not root:
            group = grp.getgrgid(os.getgid()).gr_name
            lines += [
                f"default_internal_user = {me}",
                f"default_internal_group = {group}",
                f"default_login_user = {me}",
            ]
        if self.tls:
            key = self.dir / "key.pem"
            self._make_certificate(key)
            lines += ["ssl = yes", f"ssl_cert = <{self.cert_path}", f"ssl_key = <{key}"]
        else:
            lines += ["ssl = no"]
        (self.dir / "dovecot.conf").write_text("\n".join(lines) + "\n")

    def _make_certificate(self, key: Path) -> None:
        openssl = shutil.which("openssl")
        if not openssl:
            pytest.fail("openssl is missing (make test installs it): no TLS certificate")
        subprocess.run(
            [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
            + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
            + ["-keyout", str(key), "-out", str(self.cert_path)],
            check=True,
            capture_output=True,
        )
        key.chmod(0o644)

    def ssl_context(self) -> ssl.SSLContext:
        """A verifying context that trusts this instance's self-signed certificate."""
        assert self.cert_path, "Dovecot(tls=True) has the certificate"
        return ssl.create_default_context(cafile=str(self.cert_path))

    # -- life --------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> Dovecot:
        """Start (or start again, on the same ports and data) and wait for the port."""
        if self.proc and self.proc.poll() is None:
            return self
        log = self.log_path.open("ab")
        try:
            self.proc = subprocess.Popen(  # -F: our child, so we can reap it
                [self.binary, "-F", "-c", str(self.dir / "dovecot.conf")],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"Dovecot exited at start-up:\n{self.log()}", pytrace=False)
            try:
                with socket.create_connection((self.host, self.port), timeout=1) as s:
                    s.settimeout(1)
                    if s.recv(100).startswith(b"* OK"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"Dovecot did not answer on port {self.port}:\n{self.log()}")
            time.sleep(0.02)
        return self

    def master_pid(self) -> int | None:
        try:
            return int((self.base_dir / "master.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM to the master (PID from base_dir/master.pid) and to the rest of the
        instance (its process group: Dovecot's master leaves running imap processes
        behind when it is stopped alone); wait until all are gone."""
        pid = self.master_pid()
        group = self.proc.pid if self.proc else None  # start_new_session: leader's PID
        for target in (pid, group):
            with contextlib.suppress(ProcessLookupError, PermissionError, TypeError):
                if target == group:
                    os.killpg(target, signal.SIGTERM)
                else:
                    os.kill(target, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        if self.proc:
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout)
        while (pid and _alive(pid)) or (group and _group_alive(group)):
            if time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError, PermissionError, TypeError):
                    os.killpg(group, signal.SIGKILL)
                break
            time.sleep(0.02)
        with contextlib.suppress(OSError):
            (self.base_dir / "master.pid").unlink()

    def close(self) -> None:
        """Stop and remove everything."""
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Dovecot:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"

    # -- looking at the mailboxes (a separate connection each time) ---------------------

    def client(self) -> IMAPClient:
        c = IMAPClient(self.host, self.port, ssl=False, timeout=10)
        c.login(self.user, self.password)
        return c

    def append(self, raw: bytes, mailbox: str = "INBOX", flags: tuple = ()) -> None:
        with self.client() as c:
            if not c.folder_exists(mailbox):
                c.create_folder(mailbox)
            c.append(mailbox, raw, flags=flags)

    def _fetch(self, mailbox: str, item: str) -> list:
        with self.client() as c:
            if not c.folder_exists(mailbox):
                return []
            c.select_folder(mailbox, readonly=True)
            uids = c.search(["ALL"])
            data = c.fetch(uids, [item]) if uids else {}
            return [data[u] for u in sorted(data)]

    def messages(self, mailbox: str = "INBOX") -> list[bytes]:
        """Raw bytes of every message, in UID order (BODY.PEEK[]: flags untouched)."""
        return [d[b"BODY[]"] for d in self._fetch(mailbox, "BODY.PEEK[]")]

    def flags(self, mailbox: str = "INBOX") -> list[set[bytes]]:
        """Each message's flags, in UID order."""
        return [set(d[b"FLAGS"]) for d in self._fetch(mailbox, "FLAGS")]


def imap_config(server: Dovecot, **changes: object) -> ImapConfig:
    """The judge's IMAP settings for `server`: plain IMAP, IDLE, its user and password;
    `changes` on top (poll_seconds, ssl, port, ...)."""
    settings: dict = dict(
        host=server.host,
        port=server.port,
        ssl=False,
        username=server.user,
        password=server.password,
        idle=True,
        poll_seconds=600,  # only IDLE can bring mail in quickly
    )
    settings.update(changes)
    return ImapConfig(**settings)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def _group_alive(pgid: int) -> bool:
    """Whether any live (not zombie) process is left in process group `pgid`."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


@contextmanager
def running_judge(config: Config, clock: Callable[[], datetime]) -> Iterator[None]:
    """The real daemon (`run_forever`) in a thread on `clock`, stopped and joined at the
    end; it must stop within 15 seconds."""
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(
        target=run_forever,
        args=(config, clock),
        kwargs={"stop": stop, "ready": ready.set},
        name="judge",
    )
    thread.start()
    try:
        assert ready.wait(10)
        yield
    finally:
        stop.set()
        thread.join(15)
        assert not thread.is_alive()
