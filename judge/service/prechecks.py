"""Passwords checked ahead: the SIGNONs of the mails about to be handled, checked in
worker processes before their handling, outside the write transaction.

A password check is scrypt, about 40 ms of CPU. Made while a mail is handled, it holds
the database's write lock and the daemon's loop, and one core does them all. Checked
ahead, the passwords of a batch of mails are checked on every core at once while no
lock is held; the handling then finds each answer remembered (game/passwords.py) and
decides as before: the limits on wrong passwords, the mail's budget of checks and the
locks are all the handling's (commands/signon.py). A check ahead decides nothing: if it
is skipped or fails, the handling checks the password itself.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import sqlite_utils

from judge.commands.context import Context
from judge.commands.language import read_commands
from judge.commands.signon import WINDOW, FirstCheck, first_check
from judge.commands.table import BY_NAME
from judge.config import Config
from judge.game.passwords import known, remember, scrypt_matches
from judge.mail.guards import reason_not_to_answer
from judge.mail.message import Submission
from judge.service.workers import stop_pool, watch
from judge.store import guesses

log = logging.getLogger("judge.service.prechecks")

Pair = tuple[str, str]  # (password, stored hash)


class Checker(Protocol):
    """Checks pairs of (password, stored hash); the answers, in order, when done."""

    def __call__(self, pairs: Sequence[Pair]) -> Future[list[bool]]: ...


def check_here(pairs: Sequence[Pair]) -> Future[list[bool]]:
    """Check each pair in this process, one after another, now."""
    done: Future[list[bool]] = Future()
    done.set_result(check_here_now(pairs))
    return done


class PasswordPool:
    """A Checker on worker processes, one per core: the daemon's, for its life. The
    answers come while the daemon goes on (with the mail before). A pool whose worker
    died is replaced at the next check; the checks it had are made by the handling."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = self._started()

    def _started(self) -> ProcessPoolExecutor:
        """A new pool, its workers started now, in the background: the first mail need
        not wait for them. Started by a fork server, not forked from the daemon, whose
        threads (the SMTP receiver, the timers) a fork would copy mid-step."""
        context = multiprocessing.get_context("forkserver")
        pool = ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=watch, initargs=(os.getpid(),)
        )
        for _ in range(self.workers):
            pool.submit(check_here_now, ())
        return pool

    def __call__(self, pairs: Sequence[Pair]) -> Future[list[bool]]:
        if not pairs:
            return check_here(pairs)
        try:
            return self._shared_out(pairs)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start anew
            log.warning("the password workers stopped; starting new ones")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._started()
            return self._shared_out(pairs)

    def _shared_out(self, pairs: Sequence[Pair]) -> Future[list[bool]]:
        # One task per worker, not per pair: a round trip costs more than it shares out.
        share = -(-len(pairs) // self.workers)
        parts = [
            self._pool.submit(check_here_now, pairs[i : i + share])
            for i in range(0, len(pairs), share)
        ]
        return _joined(parts)

    def close(self) -> None:
        """Stop checking: the workers end within seconds (workers.stop_pool)."""
        stop_pool(self._pool)


def check_here_now(pairs: Sequence[Pair]) -> list[bool]:
    """The answers for `pairs`, checked in this process (a worker's task)."""
    return [scrypt_matches(password, stored) for password, stored in pairs]


def _joined(parts: list[Future[list[bool]]]) -> Future[list[bool]]:
    """One future for the answers of `parts`, in order, once all are done."""
    joined: Future[list[bool]] = Future()
    left = [len(parts)]
    lock = threading.Lock()

    def one_done(_: Future[list[bool]]) -> None:
        with lock:
            left[0] -= 1
            if left[0]:
                return
        try:
            joined.set_result([answer for part in parts for answer in part.result()])
        except Exception as e:  # a worker died: the handling checks them itself
            joined.set_exception(e)

    for part in parts:
        part.add_done_callback(one_done)
    return joined


@dataclass(frozen=True)
class Ahead:
    """Passwords being checked ahead of their mails' handling."""

    pairs: tuple[Pair, ...]
    answers: Future[list[bool]]
    # For each mail given, the keys of the limits on wrong passwords that its SIGNONs
    # counted against, checked ahead or not (see check_ahead's `pending`).
    counted: tuple[tuple[str, ...], ...] = ()

    def done(self) -> bool:
        """Whether the answers are in (or the check failed): remember() waits no more."""
        return self.answers.done()

    def remember(self) -> int:
        """Wait for the answers and remember them; how many. Raises what the check
        raised (the handling then checks the passwords itself)."""
        for (password, stored), matches in zip(self.pairs, self.answers.result(), strict=True):
            remember(password, stored, matches)
        return len(self.pairs)


def check_ahead(
    db: sqlite_utils.Database,
    config: Config,
    now: datetime,
    subs: Sequence[Submission],
    checker: Checker,
    started: set[Pair] | None = None,
    pending: Counter[str] | None = None,
) -> Ahead:
    """Start checking with `checker` the password each SIGNON of `subs` would be checked
    against first, where this process has no answer yet. Mail the judge does not answer
    or read (too large) is skipped, and so are SIGNONs past a mail's budget of checks and
    those a lock would refuse unchecked, so a check ahead never costs more scrypt than
    the handling would. Pairs in `started` (being checked for mail read before, whose
    handling comes first and remembers them) are not checked again; those started here
    are added to it. `pending` counts, per key of the limits on wrong passwords, the
    SIGNONs of mail read before and not yet handled: each may yet be wrong, so a SIGNON
    that would reach a limit counting them is left to the handling, which may find the
    power or sender locked by then; this call's are added to it."""
    pairs: dict[Pair, None] = {}  # in order, once each
    counts: Counter[str] = Counter()  # wrong passwords in the window, read once per key
    mine: Counter[str] = Counter()
    counted: list[tuple[str, ...]] = []
    ctx = Context(db, config, now, None)
    before = pending if pending is not None else Counter()
    for sub in subs:
        keys: list[str] = []
        for password, planned in _reached(ctx, sub):
            for key in planned.keys:
                if key not in counts:
                    counts[key] = guesses.count(db, key, now, WINDOW)
            limit = config.wrong_passwords_per_hour
            over = any(counts[k] + before[k] + mine[k] >= limit for k in planned.keys)
            # Each SIGNON may be wrong (one for no such game too), checked ahead or not.
            keys.extend(planned.keys)
            mine.update(planned.keys)
            if over or planned.stored is None:
                continue  # over: the handling may find it locked by then (checked if not)
            pair = (password, planned.stored)
            if not known(*pair) and (started is None or pair not in started):
                pairs[pair] = None
        counted.append(tuple(keys))
    answers = checker(list(pairs)) if pairs else check_here(())
    if started is not None:
        started.update(pairs)
    if pending is not None:
        pending.update(mine)
    return Ahead(tuple(pairs), answers, tuple(counted))


def _reached(ctx: Context, sub: Submission) -> Iterator[tuple[str, FirstCheck]]:
    """The password of each SIGNON of `sub` the handling may check, with its first
    check: none of mail the judge does not answer or read (too large), none past the
    mail's budget of checks, counting the most each SIGNON may make and one for each
    other command that checks or hashes a password (commands/dispatch.py)."""
    if sub.too_large or reason_not_to_answer(sub, ctx.config.address) is not None:
        return
    left = ctx.config.passwords_per_mail
    for command in read_commands(sub.body):
        spec = BY_NAME.get(command.name)
        if spec is None or not spec.password:
            continue
        if left < 1:
            return
        if command.name != "SIGNON":
            left -= 1
            continue
        who, name, password = command.args
        planned = first_check(ctx, sub.sender, who, name)
        left -= planned.most
        yield password, planned
