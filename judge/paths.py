"""Where the judge's data folders are: maps/, templates/ and config/.

In a source checkout (and an editable install) they sit beside the package; a regular
install puts them under <prefix>/share/judge/ (pyproject's data-files).
"""

from __future__ import annotations

import sys
from pathlib import Path

_SOURCE = Path(__file__).resolve().parents[1]


def data_dir(name: str) -> Path:
    """The folder `name` (maps, templates, config): the source checkout's, else the
    installed copy under sys.prefix."""
    for base in (_SOURCE, Path(sys.prefix) / "share" / "judge"):
        if (base / name).is_dir():
            return base / name
    return _SOURCE / name  # missing everywhere: the error names the source location
