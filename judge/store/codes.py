"""Confirmation codes as the store keeps them: only a hash (`seats.confirm_code`), so
that a copy of the database (a backup, a stolen disk) confirms no address. The mail
carries the code itself; CONFIRM hashes what was typed and compares (judge/game/
observers.py)."""

from __future__ import annotations

import hashlib

# A plain SHA-256, unlike the passwords' salted scrypt (judge/game/passwords.py): a
# password is chosen by a person and guessed from lists, so each guess must cost; a code
# is drawn from `secrets` with about 79 bits (judge/game/observers.CODE_LENGTH): at a
# GPU's tens of billions of hashes a second, trying them all takes a million years, not
# its 7 days; and no two codes are alike, so a salt would stop no table worth building.
# A fast hash also keeps CONFIRM's check of several waiting seats as cheap as it was.
SCHEME = "sha256$"


def code_hash(code: str) -> str:
    """What the store keeps of `code` (already in the form CONFIRM reads: upper case,
    no spaces or dashes): `sha256$` and the hex digest of its UTF-8 bytes."""
    return SCHEME + hashlib.sha256(code.encode()).hexdigest()
