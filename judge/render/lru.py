"""A small least-recently-used cache of pictures' parts, its size bounded."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A cache of at most `size` entries, the least recently used dropped first. Safe to
    share between threads: pictures are drawn in worker processes, but nothing here
    assumes it (two threads missing the same key may each make it; one is kept)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The entry for `key`, made by `make()` when there is none."""
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        value = make()  # outside the lock: making a map's layers takes a while
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
