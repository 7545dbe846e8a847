"""`judge check-config`: load the configuration and try each part."""

from __future__ import annotations

import argparse

from judge.config import ConfigError, load_config
from judge.ops.checks import Check, check_database, check_maildir, check_maps
from judge.ops.console import out, plural
from judge.ops.server_checks import check_imap, check_smtp_in, check_smtp_out


def check_config(args: argparse.Namespace) -> int:
    """Load the configuration, say what in it is likely a mistake (config.warnings), and
    try each part: database, inbound, outbound."""
    try:
        config = load_config(args.config)
    except ConfigError as e:
        out(f"configuration: FAILED: {e}")
        return 1
    check = Check([config.imap.password, config.smtp_out.password])
    out(f"configuration: {config.source}")
    for warning in config.warnings:
        out(f"warning: {warning}")
    out(f"judge: {config.name} <{config.address}>, time zone {config.timezone}")
    check_database(config, check)
    check_maps(config, check)
    if config.inbound_mode == "imap":
        check_imap(config, check)
    else:
        check_smtp_in(config, check)
    if config.outbound_mode == "smtp":
        check_smtp_out(config, check)
    else:
        check_maildir(config, check)
    if check.failed:
        out(f"{plural(check.failed, 'part')} did not work")
        return 1
    if config.warnings:
        out(f"every part works, with {plural(len(config.warnings), 'warning')} above")
    else:
        out("every part works")
    return 0
