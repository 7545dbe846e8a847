"""The Message-IDs the judge gives its mails (judge/mail/compose.new_message_id): unique,
of the judge's own domain in ASCII, telling a reader nothing of the mails between two of
his, and never the same in a forked child as in its parent."""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace

from judge_harness import CONFIG

from judge.mail import compose


def test_message_ids_are_unique_and_of_the_judges_domain() -> None:
    ids = [compose.new_message_id(CONFIG) for _ in range(20_000)]
    assert len(set(ids)) == len(ids)
    assert all(compose._MSG_ID.fullmatch(i) and i.endswith("@example.org>") for i in ids)
    idn = replace(CONFIG, address="judge@bücher.example")
    assert compose.new_message_id(idn).endswith("@xn--bcher-kva.example>")


def test_a_message_id_does_not_show_how_many_mails_came_before_it() -> None:
    first, second = (compose.new_message_id(CONFIG) for _ in range(2))
    marks = [int(i.split(".")[1].split("@")[0], 16) for i in (first, second)]
    assert abs(marks[1] - marks[0]) > 1_000  # no count in the clear


def test_a_forked_child_makes_ids_under_a_key_of_its_own() -> None:
    compose.new_message_id(CONFIG)
    parent_key = compose._ids.key
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first id, and whether its key is the parent's
        try:
            mark = compose.new_message_id(CONFIG).split(".")[1].split("@")[0]
            same = compose._ids.key == parent_key
            os.write(write, f"{mark} {same}".encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        mark, same = f.read().split()
    os.waitpid(pid, 0)
    under_parent_key = hashlib.blake2b((1).to_bytes(8, "big"), key=parent_key, digest_size=8)
    assert same == "False" and mark != under_parent_key.hexdigest()
