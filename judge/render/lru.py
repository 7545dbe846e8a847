"""A small least-recently-used cache of pictures' parts, its size bounded."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A cache of entries weighing at most `size` in all (each weighs 1, or what `weigh`
    says), the least recently used dropped first. Safe to share between threads:
    pictures are drawn in worker processes, but nothing here assumes it (two threads
    missing the same key may each make it; one is kept)."""

    def __init__(self, size: int, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.weigh = weigh or (lambda _: 1)
        self.entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self.weight = 0
        self.lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The entry for `key`, made by `make()` when there is none."""
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key][0]
        value = make()  # outside the lock: making a map's layers takes a while
        weight = self.weigh(value)
        with self.lock:
            if key in self.entries:  # made meanwhile by another thread
                self.weight -= self.entries.pop(key)[1]
            self.entries[key] = (value, weight)
            self.weight += weight
            while self.weight > self.size and len(self.entries) > 1:
                self.weight -= self.entries.popitem(last=False)[1][1]
        return value

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.weight = 0
