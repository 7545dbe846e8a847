"""The board pictures of queued mails, drawn in worker processes while the daemon sends.

A results mail's picture costs tens of milliseconds of CPU. Drawn on the daemon's loop
before each mail, a thousand games at one deadline make the last results mail wait for a
thousand pictures, one after another, and every other mail with it. Here the daemon
hands the pictures of the mails ahead in its queue (judge/mail/outbox.drain's look
ahead) to a pool of worker processes, one per core, and goes on; a mail is finished and
sent once its picture is drawn (judge/game/pictures.Attacher), the others meanwhile.

A picture whose drawing failed (a worker died, the drawing raised, or it took longer
than PICTURE_TIMEOUT) is drawn again once, by a new pool when the old one broke; if that
fails too, its mails go as their text alone. Nothing here decides what is sent: a
picture drawn but not yet stored is simply drawn again after a restart.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path

from judge.crashpoints import crash_point
from judge.game.pictures import Drawn, draw_now, warm_up
from judge.service.workers import stop_pool, watch
from judge.variants.maps import use_operator_folder

log = logging.getLogger("judge.service.picture_pool")

TRIES = 2  # a picture is drawn at most this often before its mails go without it
# The maps readied in each worker as it starts (PicturePool's `warm`): the most played.
WARM_MAPS = 3
# Seconds a worker may spend readying one map before it is left: a worker takes no task
# until its start is done, and no picture's time (PICTURE_TIMEOUT) runs meanwhile.
WARM_SECONDS = 30.0
PICTURE_TIMEOUT = 120.0  # seconds one picture may take in a worker before it is stopped


@dataclass(frozen=True)
class _Job:
    """One picture in the pool: its future, which try, on which pool, and since when a
    worker has it (None: not seen running yet)."""

    future: Future[bytes]
    tries: int
    generation: int
    running_since: float | None = None


class PicturePool:
    """A pictures.Drawer on worker processes, one per core, for the daemon's life.

    `on_ready` is called (from the pool's thread) when a picture is done, to wake the
    daemon; `draw` is the workers' task (a module-level function, for the tests). `warm`:
    the maps (variants) each worker readies as it starts, before its first task (at most
    WARM_MAPS of them): their first picture then costs what the others do, where it
    cost about 0.4 s more in each worker, in the first deadline burst after a start."""

    def __init__(
        self,
        maps: Path | None = None,
        workers: int | None = None,
        on_ready: Callable[[], None] = lambda: None,
        draw: Callable[[str], bytes] = draw_now,
        warm: Sequence[str] = (),
    ) -> None:
        self.maps = maps
        self.workers = workers or os.cpu_count() or 1
        self.on_ready = on_ready
        self.draw = draw
        self.warm = tuple(warm[:WARM_MAPS])
        self.generation = 0
        self._jobs: dict[str, _Job] = {}
        self._pool = self._started()

    def _started(self) -> ProcessPoolExecutor:
        """A new pool, its workers started now, in the background. Started by a fork
        server, not forked from the daemon, whose threads (the SMTP receiver, the timers)
        a fork would copy mid-step; each worker looks for maps where the daemon does."""
        context = multiprocessing.get_context("forkserver")
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=_worker_started,
            initargs=(self.maps, os.getpid(), self.warm),
        )
        for _ in range(self.workers):
            pool.submit(_warm)
        return pool

    def start(self, specs: Sequence[str]) -> None:
        """Begin drawing each of `specs` not begun yet. Pictures drawn that are no longer
        among `specs` (the mails ahead) are forgotten: their mails were finished."""
        wanted = set(specs)
        for spec in [s for s, job in self._jobs.items() if s not in wanted and job.future.done()]:
            del self._jobs[spec]
        begun = [spec for spec in specs if spec not in self._jobs]
        for spec in begun:
            self._submit(spec, 1)
        if begun:
            crash_point("pictures-begun")  # in the pool, none stored: the next life draws them

    def ready(self, spec: str) -> bool:
        """Whether `spec` is drawn, or has failed for good. A failed try is tried again
        (on a new pool if a worker died), a picture past its time stopped."""
        job = self._jobs.get(spec)
        if job is None:
            self._submit(spec, 1)
            return False
        if not job.future.done():
            self._watch(spec, job)
            return False
        error = _error(job.future)
        if error is None:
            return True
        if isinstance(error, BrokenProcessPool):
            self._replace(job.generation)  # for this picture's next try and the others
        if job.tries >= TRIES:
            return True
        log.warning("a picture failed (%s); drawing it again", _reason(error))
        self._submit(spec, job.tries + 1)
        return False

    def _watch(self, spec: str, job: _Job) -> None:
        """Note when a worker took `spec`; stop it past PICTURE_TIMEOUT, then draw it
        again, or give it up after TRIES."""
        now = time.monotonic()
        if job.running_since is None:
            if job.future.running():
                self._jobs[spec] = replace(job, running_since=now)
            return
        if now - job.running_since <= PICTURE_TIMEOUT:
            return
        log.error("a picture took over %.0f s; stopping the workers", PICTURE_TIMEOUT)
        self._replace(job.generation, culprit=spec)
        if job.tries < TRIES:
            self._submit(spec, job.tries + 1)
            return
        given_up: Future[bytes] = Future()
        given_up.set_exception(TimeoutError(f"drawing took over {PICTURE_TIMEOUT:.0f} s"))
        self._jobs[spec] = _Job(given_up, job.tries, self.generation)

    def drawn(self, spec: str) -> Drawn:
        """The picture for `spec`, waiting for it (and its second try) if need be."""
        while not self.ready(spec):
            wait_for([self._jobs[spec].future], timeout=1.0)  # then ready() watches the time
        error = _error(self._jobs[spec].future)
        if error is None:
            return Drawn(self._jobs[spec].future.result())
        return Drawn(None, _reason(error))

    def holds(self, spec: str) -> bool:
        """Whether `spec` is begun here and not yet taken."""
        return spec in self._jobs

    def take_drawn(self) -> list[tuple[str, bytes]]:
        """The pictures drawn well since the last call, each once, forgotten here (a
        failed one stays, for `ready` to try again)."""
        taken = [
            (spec, job.future.result())
            for spec, job in self._jobs.items()
            if job.future.done() and _error(job.future) is None
        ]
        for spec, _ in taken:
            del self._jobs[spec]
        return taken

    def drawing(self) -> bool:
        """Whether a picture is being drawn (the daemon is then woken by `on_ready`)."""
        return any(not job.future.done() for job in self._jobs.values())

    def close(self) -> None:
        """Stop drawing: the workers end within seconds (workers.stop_pool)."""
        stop_pool(self._pool)

    def _submit(self, spec: str, tries: int) -> None:
        try:
            future = self._pool.submit(self.draw, spec)
        except BrokenProcessPool:  # found broken before any of its pictures said so
            self._replace(self.generation)
            future = self._pool.submit(self.draw, spec)
        future.add_done_callback(lambda _: self.on_ready())
        self._jobs[spec] = _Job(future, tries, self.generation)

    def _replace(self, generation: int, culprit: str | None = None) -> None:
        """A new pool in place of pool `generation`, unless that was replaced already.
        `culprit`: a picture stuck in a worker; the workers are killed first, and the
        other pictures they had are drawn again by the new pool as if never tried (the
        culprit's next try is the caller's). A pool broken by a worker that died has
        no known culprit: each of its pictures counts a try (see ready)."""
        if generation != self.generation:
            return
        log.warning("the picture workers stopped; starting new ones")
        old = self._pool
        if culprit is not None:
            # ProcessPoolExecutor has no public way to stop a running task before 3.14.
            for process in list((old._processes or {}).values()):
                process.kill()
        old.shutdown(wait=False, cancel_futures=True)
        self.generation += 1
        self._pool = self._started()
        if culprit is not None:
            for spec, job in list(self._jobs.items()):
                if job.generation == generation and spec != culprit and not job.future.done():
                    self._submit(spec, job.tries)


def _warm() -> None:
    """A worker's first task: nothing; importing this module readies the drawing code."""


def _error(future: Future[bytes]) -> BaseException | None:
    """What a finished drawing raised; a drawing cancelled with its pool counts as
    failed with it."""
    if future.cancelled():
        return BrokenProcessPool("cancelled with its pool")
    return future.exception()


def _reason(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _worker_started(maps: Path | None, daemon: int, warm: Sequence[str] = ()) -> None:
    """Each worker, as it starts: the daemon's map folder, an end with the daemon, and
    the maps of `warm` readied. A map that cannot be drawn is left: its pictures fail
    as they would have (an exception here would break the pool)."""
    use_operator_folder(maps)
    watch(daemon)
    for variant in warm:
        try:
            with time_limit(WARM_SECONDS):
                warm_up(variant)
        except Exception as e:
            log.warning("the pictures of map %r could not be readied: %s", variant, _reason(e))


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """TimeoutError raised in the block once it has run `seconds` (SIGALRM: the main
    thread of a process that uses no other alarm, as a worker's start is)."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"over {seconds:.0f} s")

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
