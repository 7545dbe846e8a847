"""The dispatcher: runs a submission's commands against the store and says what to answer.

Every submission is answered at once with one acknowledgement listing, line by line,
what the judge did: games created and joined, each SIGNON's orders as they will be
adjudicated (or why not), the units still without orders, WAIT and the deadline.
The dispatcher records *events*; the words are in templates/acknowledgement.txt.
The handlers are in judge/commands/player.py, press.py, master.py, master_settings.py,
information.py and house_rules.py; the state they share in run.py.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from judge.commands import house_rules, information, master, master_settings, player, press
from judge.commands.blocks import close_block, too_many_passwords
from judge.commands.context import Context
from judge.commands.language import Command, masked_line, read_commands
from judge.commands.run import Run
from judge.failures import failure_reason, is_transient
from judge.game import play
from judge.game.failure import pause_failed
from judge.mail.message import Submission, reply_address
from judge.replies import SIGNED_REPLY, Reply
from judge.store import games
from judge.store.db import transaction

__all__ = ["Context", "Reply", "dispatch"]

log = logging.getLogger("judge.dispatch")


def dispatch(sub: Submission, ctx: Context) -> list[Reply]:
    run = Run(sub, ctx, passwords_left=ctx.config.passwords_per_mail)
    for command in read_commands(sub.body):
        handler = _HANDLERS.get(command.name)
        if handler is None:
            message = command.args[0] if command.args else "I don't understand this line."
            run.event("error", command, message=message)
        elif command.name in _PASSWORD_COMMANDS and not _spend_password(run, command):
            continue
        else:
            handler(run, command)
    close_block(run)
    for game_id in sorted(run.to_process):
        game = games.get_game(ctx.db, game_id)
        try:
            with transaction(ctx.db):  # a savepoint: a failing game is rolled back alone
                mails = play.orders_changed(ctx.db, ctx.config, game, ctx.now)
        except Exception as e:
            if is_transient(e):
                raise  # the whole message is tried again
            # A fault of ours in this game's processing: the orders stay stored, the game
            # is paused and its masters told, and the rest of the mail is answered.
            reason = failure_reason(e)
            log.exception("game %s, phase %s: processing raised %s", game.name, game.phase, reason)
            run.mails += pause_failed(ctx.db, game, ctx.now, reason)
            run.event("game_failed", game=game.name)
            continue
        if mails:
            run.mails += mails
            run.event("processed", game=game.name, phase=game.phase)
    errors = any(e["kind"] in _ERROR_KINDS for e in run.events) or any(
        e["kind"] == "orders" and e["status"].has_errors for e in run.events
    )
    # The subject is echoed in the answer's: "SIGNON Fwar1 secret" there is masked too.
    shown = replace(sub, subject=masked_line(sub.subject))
    context = {"sub": shown, "events": run.events, "errors": errors}
    to = (reply_address(sub),)
    # The answer to a mail that signed on with a right password is never held back by
    # the limits on replies: a forger (who has no password) cannot use them to silence
    # the player, and an autoresponder never has the password (it is never echoed).
    kind = SIGNED_REPLY if run.signed_on else "reply"
    replies = [Reply(to, "acknowledgement", context, kind)]
    others = tuple(sorted(run.copy_to - set(to)))
    if others:
        copy = {**context, "copy_for": sub.sender}
        replies.append(Reply(others, "acknowledgement", copy, kind))
    return replies + run.mails


# Commands that check or hash a password (scrypt, ~40 ms each): a mail may carry at most
# `passwords_per_mail` of them. Several games in one mail stay possible; 300 guesses do not.
_PASSWORD_COMMANDS = {
    "SIGNON",
    "CREATE",
    "JOIN",
    "OBSERVE",
    "SET PASSWORD",
    "REPLACE POWER",
    "PROMOTE",
}


def _spend_password(run: Run, cmd: Command) -> bool:
    """Whether the mail may still check or hash a password for `cmd`; if not, the command
    is refused unread (and the lines after a refused SIGNON are not used). A SIGNON pays
    for its checks itself (one or more)."""
    if run.passwords_left < 1:
        too_many_passwords(run, cmd)
        return False
    if cmd.name != "SIGNON":
        run.passwords_left -= 1
    return True


_ERROR_KINDS = {
    "too_many_passwords",
    "signon_locked",
    "after_refused",
    "press_refused",
    "error",
    "unknown",
    "signon_failed",
    "needs_signon",
    "create_taken",
    "create_bad",
    "game_name_bad",
    "address_bad",
    "join_failed",
    "preference_bad",
    "master_only",
    "not_now",
    "process_refused",
    "rollback_refused",
}


_HANDLERS = {
    "CREATE": player.create,
    "JOIN": player.join,
    "SIGNON": player.signon,
    "ORDER": player.order,
    "CLEAR": player.clear,
    "MERGE": player.merge_or_replace,
    "REPLACE": player.merge_or_replace,
    "SET WAIT": player.set_wait,
    "SET NOWAIT": player.set_wait,
    "SET PASSWORD": player.set_password,
    "SET ADDRESS": player.set_address,
    "SET PREFERENCE": player.set_preference,
    "SET ORDERS": master_settings.set_orders_rule,
    "RESIGN": player.resign,
    "HELP": information.send_help,
    "PROCESS": master.process,
    "PAUSE": master.pause,
    "RESUME": master.pause,
    "SET DEADLINE": master_settings.set_deadline,
    "SET GRACE": master_settings.setting,
    "SET MOVE LENGTH": master_settings.setting,
    "SET RETREAT LENGTH": master_settings.setting,
    "SET ADJUST LENGTH": master_settings.setting,
    "SET REMINDER": master_settings.setting,
    "SET DELAY": master_settings.setting,
    "SET TIME": master_settings.setting,
    "SET DAYS": master_settings.setting,
    "SET NMR": master_settings.setting,
    "SET NONMR": master_settings.setting,
    "SET ABSENCE": player.set_absence,
    "OBSERVE": player.observe,
    "PRESS": press.press,
    "SET PRESS": master_settings.press_settings,
    "SET PARTIAL": master_settings.press_settings,
    "SET MAP": master_settings.press_settings,
    "SET LIST": master_settings.press_settings,
    "SET DRAW": player.draw_vote,
    "SET NODRAW": player.draw_vote,
    "SET CONCEDE": player.concede,
    "SET NOCONCEDE": player.concede,
    "SET OBSERVER PRESS": master_settings.observer_press,
    "TERMINATE": master.terminate,
    "PREDICT": master.predict,
    "EJECT": master.eject,
    "REPLACE POWER": master.replace_power,
    "BECOME": master.become,
    "PROMOTE": master.promote,
    "FORCE BEGIN": master.force_begin,
    "ROLLBACK": master.rollback,
    "LIST": information.list_games,
    "WHOGAME": information.whogame,
    "SUMMARY": information.summary,
    "HISTORY": information.history,
    **house_rules.HANDLERS,
}
