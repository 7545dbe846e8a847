"""The relays of `benchmarks/deadlines.py --daemon`: where the daemon's mail goes, and when
each mail arrived there.

`aiosmtpd` (the default): an aiosmtpd controller in the benchmark's own process, which
notes the time of each mail's DATA as it is handed the mail. It reads each mail line by
line in Python (3.8 ms for a results mail's ~2,000 lines of base64 picture), on the same
cores as the judge: the figures then include that work.

`smtp-sink`: Postfix's own SMTP test server (C, one process, event-driven), the kind of
relay a judge has in production (an MTA in C). Nothing of an MTA is installed on the
machine: the binary is taken from the Debian package, once, and cached:

    apt-get download postfix            # into a temporary folder
    dpkg -x postfix_*.deb tree          # unpacked, not installed
    tree/usr/sbin/smtp-sink             # run with LD_LIBRARY_PATH=tree/usr/lib/postfix

under $XDG_CACHE_HOME (~/.cache)/judge-bench/postfix (`smtp_sink_binary`; an smtp-sink on
the PATH is used first; where apt cannot fetch it, the benchmark stops and says so).

When each mail arrived is exact: smtp-sink runs with `-d DIR/%H%M%S.`, which writes each
mail to a file of its own (the time, then a random number: names do not collide) and
closes it when the mail's final "." has come, before its 250; the file's modification
time is that moment. (The daemon's own record, outbound.sent_at, is not: it is the time
of the commit that records a pass's sent mails.) Whether a mail carries a picture is read
from its file after the run, outside the figures. The files are written in /dev/shm where
there is one, so that a burst's 1.2 GB never waits for a disk; that writing is most of
smtp-sink's CPU, as an MTA writes each mail into its queue.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from aiosmtpd.controller import Controller
from smtp_sink import free_port

PICTURE = b"image/png"  # in a mail that carries a board picture (a results mail)
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "judge-bench"


@dataclass
class _Handler:
    arrivals: list[tuple[float, bool]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
        pictured = PICTURE in envelope.original_content
        with self.lock:
            self.arrivals.append((time.time(), pictured))
        return "250 OK"


class AiosmtpdRelay:
    """aiosmtpd in this process; its CPU is this process's (the benchmark's polling, and
    the players' clients with --players, included)."""

    def __init__(self) -> None:
        self._handler = _Handler()
        self._controller = Controller(self._handler, hostname="127.0.0.1", port=free_port())
        self._controller.start()
        self.port = self._controller.port

    def stop(self) -> None:
        self._controller.stop()

    def cpu(self) -> float:
        return time.process_time()

    def seen(self) -> list[tuple[float, bool]]:
        with self._handler.lock:
            return list(self._handler.arrivals)

    def describe(self) -> str:
        return "aiosmtpd in this process, its polling and the players' clients included"

    def cleanup(self) -> None:
        pass


class SmtpSinkRelay:
    """Postfix's smtp-sink, a process of its own, dumping each mail to a file."""

    def __init__(self) -> None:
        binary, library = smtp_sink_binary()
        self._dumps = tempfile.TemporaryDirectory(
            prefix="judge-bench-sink-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None
        )
        folder = Path(self._dumps.name)
        command = [str(binary), "-d", f"{folder}/%H%M%S."]
        if os.geteuid() == 0:  # smtp-sink refuses to run as root: it switches to nobody
            folder.chmod(0o777)
            command += ["-u", "nobody"]
        self.port = free_port()
        command += [f"127.0.0.1:{self.port}", "256"]
        env = dict(os.environ)
        if library is not None:
            env["LD_LIBRARY_PATH"] = str(library)
        # Its messages go to a file (a pipe nobody reads could fill and stop it), open
        # for its life: closed by cleanup.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115
        self._proc = subprocess.Popen(command, env=env, stdout=self._log, stderr=self._log)
        self._folder = folder
        _wait_for_port(self.port, self._proc, self._log)

    def stop(self) -> None:
        self._proc.terminate()
        self._proc.wait(10)

    def cpu(self) -> float:
        fields = Path(f"/proc/{self._proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def seen(self) -> list[tuple[float, bool]]:
        found = []
        for path in self._folder.iterdir():
            found.append((path.stat().st_mtime, PICTURE in path.read_bytes()))
        return found

    def describe(self) -> str:
        return "Postfix's smtp-sink, a process of its own, writing each mail to /dev/shm"

    def cleanup(self) -> None:
        self._log.close()
        self._dumps.cleanup()


def smtp_sink_binary() -> tuple[Path, Path | None]:
    """smtp-sink and the folder of Postfix's shared libraries it needs (None for one on
    the PATH): fetched with apt-get download and unpacked into the cache the first time."""
    found = shutil.which("smtp-sink") or (
        "/usr/sbin/smtp-sink" if Path("/usr/sbin/smtp-sink").exists() else None
    )
    if found:
        return Path(found), None
    tree = CACHE / "postfix"
    binary, library = tree / "usr/sbin/smtp-sink", tree / "usr/lib/postfix"
    if binary.exists():
        return binary, library
    with tempfile.TemporaryDirectory(prefix="judge-bench-postfix-") as tmp:
        try:
            subprocess.run(
                ["apt-get", "download", "postfix"],
                cwd=tmp,
                check=True,
                capture_output=True,
                timeout=300,
            )
            [package] = Path(tmp).glob("postfix_*.deb")
            unpacked = Path(tmp) / "tree"
            subprocess.run(["dpkg", "-x", str(package), str(unpacked)], check=True)
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            detail = getattr(e, "stderr", b"") or b""
            raise SystemExit(
                "--relay smtp-sink needs Postfix's smtp-sink, and it could not be fetched "
                f"with `apt-get download postfix` and `dpkg -x` ({e}; "
                f"{detail.decode(errors='replace').strip()[-300:]}). Install postfix, put "
                f"smtp-sink on the PATH, or unpack the package into {tree}."
            ) from e
        tree.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tree, ignore_errors=True)
        shutil.move(str(unpacked), tree)
    return binary, library


def _wait_for_port(port: int, proc: subprocess.Popen, log: IO[bytes]) -> None:
    ends = time.monotonic() + 10
    while time.monotonic() < ends:
        if proc.poll() is not None:
            log.seek(0)
            error = log.read().decode(errors="replace")
            raise SystemExit(f"smtp-sink ended at once: {error.strip()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise SystemExit("smtp-sink did not answer on its port within 10 s")


def start(kind: str) -> AiosmtpdRelay | SmtpSinkRelay:
    """The relay named `kind` ('aiosmtpd' or 'smtp-sink'), listening."""
    return SmtpSinkRelay() if kind == "smtp-sink" else AiosmtpdRelay()
