"""How many connections the SMTP receiver holds at once, in all and per peer.

The receiver listens on the public internet, and each connection in DATA may hold up to
ten times `max_message_bytes` in memory: without a cap, a hundred connections took the
daemon to a gigabyte, and one host could open thousands. A connection past a cap is
answered 421 and closed before any command is read; the sending MTA retries later, so
nothing is lost.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from collections.abc import Callable

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
# vanished client frees its slot after these 300 s.
SMTP_TIMEOUT_SECONDS = 300

# A refused connection is logged at most once this often per peer (with how many were
# refused meanwhile), so that a flood does not flood the log.
REFUSAL_LOG_SECONDS = 60
# Peers whose last refusal line is remembered; past that many within a minute, further
# peers' refusals go unlogged until the older entries expire (the memory stays bounded
# when a flood comes from many addresses).
REFUSAL_LOG_PEERS = 1024

TOO_MANY = "too many connections"
TOO_MANY_FROM_PEER = "too many connections from this address"


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
    """Counts the receiver's open connections, in all and per peer.

    The receiver's event loop calls `admit` and `release` (one thread, so they never
    interleave there); the lock makes the counts safe to read from any thread too.
    """

    def __init__(
        self,
        total: int = MAX_SMTP_CONNECTIONS,
        per_peer: int = MAX_SMTP_CONNECTIONS_PER_PEER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.per_peer = per_peer
        self.clock = clock
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}  # peers with an open connection only
        self._open_total = 0
        # Per peer: when its last refusal line was logged, and refusals since then.
        self._logged: dict[str, tuple[float, int]] = {}

    def admit(self, peer: str) -> str | None:
        """Take a slot for a new connection from `peer`: None if taken, else the reason
        it is refused (logged at most once a minute per peer)."""
        with self._lock:
            if self._open_total >= self.total:
                reason = TOO_MANY
            elif self._open.get(peer, 0) >= self.per_peer:
                reason = TOO_MANY_FROM_PEER
            else:
                self._open[peer] = self._open.get(peer, 0) + 1
                self._open_total += 1
                return None
            self._note_refusal(peer, reason)
        return reason

    def release(self, peer: str) -> None:
        """Free the slot a connection from `peer` held (call once per admitted one)."""
        with self._lock:
            left = self._open.get(peer, 0) - 1
            if left < 0:
                return  # never admitted: nothing to free
            if left:
                self._open[peer] = left
            else:
                del self._open[peer]
            self._open_total -= 1

    def open_count(self, peer: str | None = None) -> int:
        """Connections open now, in all or from `peer`."""
        with self._lock:
            return self._open_total if peer is None else self._open.get(peer, 0)

    def _note_refusal(self, peer: str, reason: str) -> None:
        now = self.clock()
        last, since = self._logged.get(peer, (None, 0))
        if last is not None and now - last < REFUSAL_LOG_SECONDS:
            self._logged[peer] = (last, since + 1)
            return
        if last is None and len(self._logged) >= REFUSAL_LOG_PEERS:
            self._logged = {
                p: entry
                for p, entry in self._logged.items()
                if now - entry[0] < REFUSAL_LOG_SECONDS
            }
            if len(self._logged) >= REFUSAL_LOG_PEERS:
                return
        self._logged[peer] = (now, 0)
        log.warning(
            "refused a connection from %s: %s (%d open, %d refused since the last such line)",
            peer,
            reason,
            self._open_total,
            since,
        )
