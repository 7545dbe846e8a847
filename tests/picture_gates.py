"""Stand-ins for judge/game/pictures.draw_now in the picture pool's workers, steered by
the spec itself: a picture that waits for a file (a slow picture), one whose worker dies,
one that raises. Module-level functions, so that a worker process can import them."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from pathlib import Path


def png_for(spec: str) -> bytes:
    """The stand-in picture of `spec`: bytes no other spec gives."""
    return b"\x89PNG-stand-in-" + hashlib.sha256(spec.encode()).digest()


def gated(spec: str) -> bytes:
    """`spec` is JSON with "name" and any of: "gate", a file to wait for (a slow
    picture); "die", a marker file: the worker kills itself if the marker is missing (it
    is made first), or always with "always"; "raise": the drawing raises ValueError."""
    data = json.loads(spec)
    if gate := data.get("gate"):
        while not Path(gate).exists():
            time.sleep(0.01)
    if die := data.get("die"):
        marker = Path(die)
        if data.get("always") or not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
    if data.get("raise"):
        raise ValueError("this picture cannot be drawn")
    return png_for(spec)


def maps_ready(spec: str) -> bytes:
    """Not a picture: the names of the maps whose colours this worker has ready (a JSON
    list, as bytes), to see what a worker readied before its first task."""
    from judge.render import palette

    return json.dumps(sorted(gm.name for gm, _ in palette._palettes.entries)).encode()
