"""The running judge: the daemon, the deadline schedule, handling each message."""
