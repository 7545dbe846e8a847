"""A setting the master changes is echoed in words (templates/events/setting.txt says each
kind of value: lengths, times, days, yes/no, addresses, centres, years, the game's end).
The words are those the judge wrote before they moved from Python into the template."""

from __future__ import annotations

from pathlib import Path

from judge_harness import Judge

SAID = [
    ("SET MOVE LENGTH 2d 3h", "war1: move length is now 2 days 3 hours."),
    ("SET RETREAT LENGTH 90m", "war1: retreat length is now 1 hour 30 minutes."),
    ("SET ADJUST LENGTH 1d", "war1: adjust length is now 1 day."),
    ("SET DELAY 1m", "war1: delay is now 1 minute."),
    ("SET REMINDER 1h 1m", "war1: reminder is now 1 hour 1 minute."),
    ("SET TIME 23:30", "war1: time is now 23:30."),
    ("SET TIME NONE", "war1: time is now any time of day."),
    ("SET DAYS Mon-Fri", "war1: days is now Monday, Tuesday, Wednesday, Thursday, Friday."),
    ("SET DAYS Sat", "war1: days is now Saturday."),
    (
        "SET DAYS Mon-Sun",
        "war1: days is now Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday.",
    ),
    ("SET NMR", "war1: nmr is now processed with the orders on file."),
    ("SET NONMR", "war1: nonmr is now wait for you."),
    ("SET PRESS GREY", "war1: press is now grey."),
    ("SET PRESS NONE", "war1: press is now none."),
    ("SET MAP OFF", "war1: map is now off."),
    ("SET MAP ON", "war1: map is now on."),
    ("SET PARTIAL NO", "war1: partial is now not allowed."),
    ("SET PARTIAL YES", "war1: partial is now allowed."),
    ("SET LIST list@example.org", "war1: list is now list@example.org."),
    ("SET LIST NONE", "war1: list is now none."),
    ("SET OBSERVER PRESS YES", "war1: observer press is now allowed."),
    ("SET OBSERVER PRESS NO", "war1: observer press is now not allowed."),
    ("SET VICTORY 17", "war1: victory is now 17 supply centres."),
    ("SET END 1910", "war1: end is now after the Fall of 1910, when the survivors draw."),
    (
        "SET END 1912 MOST",
        "war1: end is now after the Fall of 1912, when the most supply centres wins.",
    ),
    ("SET END NONE", "war1: end is now none: the game goes on until it is won or drawn."),
    ("SET STALE 5", "war1: stale is now 5 years."),
    ("SET STALE OFF", "war1: stale is now off."),
    ("SET MAXYEARS 1", "war1: maxyears is now 1 years."),
    ("SET MAXYEARS OFF", "war1: maxyears is now off."),
]


def test_each_setting_is_said_in_words(tmp_path: Path) -> None:
    judge = Judge(tmp_path)
    judge.send("gm@example.org", "CREATE ?war1 masterpw")
    lines = "\n".join(command for command, _ in SAID)
    [ack] = judge.send("gm@example.org", f"SIGNON Mwar1 masterpw\n{lines}")
    echoed = [line for line in ack.body.splitlines() if " is now " in line]
    assert echoed == ["  " + said for _, said in SAID]
