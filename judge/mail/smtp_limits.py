"""How many connections the SMTP receiver holds at once, in all and per peer.

The receiver listens on the public internet, and each connection in DATA may hold up to
ten times `max_message_bytes` in memory: without a cap, a hundred connections took the
daemon to a gigabyte, and one host could open thousands. A connection past a cap is
answered 421 and closed before any command is read; the sending MTA retries later, so
nothing is lost.

A full receiver still takes new mail: a connection that has said nothing for
`IDLE_MAKES_ROOM_SECONDS` is closed (421) to make room for a new one, so that idle
connections held open from a few addresses cannot keep a player's MTA out for the five
minutes of the silence timeout; and, with none so silent, one of the peer holding the
most is closed for a peer that would still hold fewer, so that connections kept busy
from four addresses (8 each fill the 32) cannot either: each peer gets its fair share.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger("judge.smtp")

# A judge's mail comes from its players' providers, a message a connection, delivered in
# a second or two: even at a deadline a few dozen players' mails rarely need more than
# a handful of connections at once, and a refused one is only retried a few minutes
# later. 32 bounds the worst case, each connection in DATA holding its
# 10 * max_message_bytes (10 MB by default; aiosmtpd keeps the lines, then joins them):
# measured, 32 connections each 9.5 MB into DATA held the receiver at 354 MB, where 100
# (no cap) took it to 1,037 MB.
MAX_SMTP_CONNECTIONS = 32

# One host (or one IPv6 /64, which one machine holds whole) cannot take every slot: it
# takes a quarter of them, and a slow or hostile host leaves the others served. A large
# provider's many servers come from many addresses; those that share one are held back
# a few minutes at worst.
MAX_SMTP_CONNECTIONS_PER_PEER = 8

# aiosmtpd's silence timeout, named here rather than left to its default. Its timer
# restarts at each command, not during DATA: it bounds the whole DATA transfer as well
# as the wait for the next command. RFC 5321 4.5.3.2.7 asks a server to wait at least
# 5 minutes for the next command, and a sender's DATA of 10 MB at 40 KB/s takes about
# 4 minutes; a shorter timeout would cut such slow but legitimate senders. It does not
# stop a slowloris either: a NOOP every few minutes keeps a connection open whatever the
# timeout, so what bounds such a client is the cap per peer above, and a silent or
# vanished client frees its slot after these 300 s, or after IDLE_MAKES_ROOM_SECONDS
# when a new connection needs it.
SMTP_TIMEOUT_SECONDS = 300

# When every slot is taken, a new connection closes the one silent longest (no line from
# its client, no answer to it) if silent this long, preferring the peer that holds the
# most: a sending MTA is never silent this long but while it waits for us, which the
# clock below does not count, and one whose connection is closed so tries again. 10 s
# is several times what a real MTA takes between lines, and short enough that an
# attacker's held connections give way before a player's MTA, refused, gives up for now.
IDLE_MAKES_ROOM_SECONDS = 10

# A refused connection is logged at most once this often per peer (with how many were
# refused meanwhile), so that a flood does not flood the log.
REFUSAL_LOG_SECONDS = 60
# Peers whose last refusal line is remembered; past that many within a minute, further
# peers' refusals go unlogged until the older entries expire (the memory stays bounded
# when a flood comes from many addresses).
REFUSAL_LOG_PEERS = 1024

TOO_MANY = "too many connections"
TOO_MANY_FROM_PEER = "too many connections from this address"
IDLE_CLOSED = "idle too long while the receiver is full"
SHARE_CLOSED = "too many connections from your address while the receiver is full"


class Held(Protocol):
    """A connection holding a slot, which the slots may close to make room."""

    def make_room(self, reason: str) -> None:
        """Answer 421 with `reason` and close (on the receiver's event loop)."""


def peer_key(peername: object) -> str:
    """The name a connection is counted under: its IPv4 address (also when written as an
    IPv4-mapped IPv6 address), or its IPv6 address's /64 network; "unknown" when the
    socket has no address."""
    host = peername[0] if isinstance(peername, tuple) and peername else peername
    if not isinstance(host, str) or not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def refusal_reply(hostname: str, reason: str) -> bytes:
    """The one line a connection past a cap is answered with (RFC 5321 4.2.5: 421 and close)."""
    return f"421 4.7.0 {hostname} Sorry, {reason}; please try again later\r\n".encode(
        "ascii", "replace"
    )


class ConnectionSlots:
    """Counts the receiver's open connections, in all and per peer, and when each one's
    client was last heard from, so that a new connection finding every slot taken may
    close the one silent longest.

    The receiver's event loop calls `admit`, `heard` and `release` (one thread, so they
    never interleave there); the lock makes the counts safe to read from any thread too.
    """

    def __init__(
        self,
        total: int = MAX_SMTP_CONNECTIONS,
        per_peer: int = MAX_SMTP_CONNECTIONS_PER_PEER,
        clock: Callable[[], float] = time.monotonic,
        idle_makes_room: float = IDLE_MAKES_ROOM_SECONDS,
    ) -> None:
        self.total = total
        self.per_peer = per_peer
        self.clock = clock
        self.idle_makes_room = idle_makes_room
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}  # peers with an open connection only
        self._open_total = 0
        self._held: dict[Held, tuple[str, float]] = {}  # connection: its peer, last heard
        # Per peer: when its last refusal line was logged, and refusals since then.
        self._logged: dict[str, tuple[float, int]] = {}

    def admit(self, peer: str, held: Held | None = None) -> str | None:
        """Take a slot for a new connection from `peer` (`held`, the connection, if it
        may be closed for room later): None if taken, else the reason it is refused
        (logged at most once a minute per peer). With every slot taken, the connection
        silent longest, over `idle_makes_room` seconds, is closed to give its slot; with
        none so silent, the one silent longest of the peer holding the most, if that peer
        holds more than `peer` would (see _room_for)."""
        with self._lock:
            reason = self._refusal(peer)
            # Room is made only for a peer its own cap would then admit.
            under_cap = self._open.get(peer, 0) < self.per_peer
            victim, why = self._room_for(peer) if reason == TOO_MANY and under_cap else (None, "")
            if victim is not None:
                reason = None
                idle_peer = self._held.pop(victim)[0]
                self._free(idle_peer)
            if reason is not None:
                self._note(peer, f"refused a connection from {peer}: {reason}", "refused")
                return reason
            self._open[peer] = self._open.get(peer, 0) + 1
            self._open_total += 1
            if held is not None:
                self._held[held] = (peer, self.clock())
            if victim is not None:
                kind = "an idle connection" if why == IDLE_CLOSED else "a connection"
                line = f"closed {kind} from {idle_peer} for a new one from {peer}"
                self._note(f"room:{idle_peer}", line, "closed")
        if victim is not None:
            victim.make_room(why)  # its release, when its connection is lost, frees nothing
        return None

    def heard(self, held: Held) -> None:
        """`held`'s client sent a line, or was answered: it is not idle from now."""
        with self._lock:
            if held in self._held:
                self._held[held] = (self._held[held][0], self.clock())

    def release(self, peer: str, held: Held | None = None) -> None:
        """Free the slot a connection from `peer` held (call once per admitted one);
        nothing if `held` was closed to make room (its slot was given then)."""
        with self._lock:
            if held is not None:
                if held not in self._held:
                    return
                del self._held[held]
            self._free(peer)

    def open_count(self, peer: str | None = None) -> int:
        """Connections open now, in all or from `peer`."""
        with self._lock:
            return self._open_total if peer is None else self._open.get(peer, 0)

    def _refusal(self, peer: str) -> str | None:
        if self._open_total >= self.total:
            return TOO_MANY
        if self._open.get(peer, 0) >= self.per_peer:
            return TOO_MANY_FROM_PEER
        return None

    def _free(self, peer: str) -> None:
        left = self._open.get(peer, 0) - 1
        if left < 0:
            return  # never admitted: nothing to free
        if left:
            self._open[peer] = left
        else:
            del self._open[peer]
        self._open_total -= 1

    def _room_for(self, peer: str) -> tuple[Held | None, str]:
        """The connection to close for a new one from `peer`, and why: the idlest (see
        _idlest); else, of the peers holding more connections than `peer` would with the
        new one, the one holding the most gives its connection silent longest (the oldest
        of those). Counts that differ by one never make room, so two peers never take a
        slot back and forth."""
        idle = self._idlest()
        if idle is not None:
            return idle, IDLE_CLOSED
        now = self.clock()
        mine = self._open.get(peer, 0) + 1
        hogs = [
            (self._open.get(other, 0), now - last, -n, held)
            for n, (held, (other, last)) in enumerate(self._held.items())
            if self._open.get(other, 0) > mine
        ]
        return (max(hogs, key=lambda entry: entry[:3])[3], SHARE_CLOSED) if hogs else (None, "")

    def _idlest(self) -> Held | None:
        """The connection to close for room: silent `idle_makes_room` seconds or more,
        of the peer that holds the most, silent longest, the oldest of those; None if
        none is so silent."""
        now = self.clock()
        silent = [
            (self._open.get(peer, 0), now - last, -n, held)
            for n, (held, (peer, last)) in enumerate(self._held.items())
            if now - last >= self.idle_makes_room
        ]
        return max(silent, key=lambda entry: entry[:3])[3] if silent else None

    def _note(self, key: str, line: str, done: str) -> None:
        """Log `line` at most once a minute per `key`, with how many were `done` (refused,
        closed) meanwhile."""
        now = self.clock()
        last, since = self._logged.get(key, (None, 0))
        if last is not None and now - last < REFUSAL_LOG_SECONDS:
            self._logged[key] = (last, since + 1)
            return
        if last is None and len(self._logged) >= REFUSAL_LOG_PEERS:
            self._logged = {
                p: entry
                for p, entry in self._logged.items()
                if now - entry[0] < REFUSAL_LOG_SECONDS
            }
            if len(self._logged) >= REFUSAL_LOG_PEERS:
                return
        self._logged[key] = (now, 0)
        log.warning(
            "%s (%d open, %d %s since the last such line)", line, self._open_total, since, done
        )
