"""The SQLite store: schema and migrations (db.py, schema.py), inbound mail (inbox.py),
outbound mail (outbox.py), games (games.py), wrong passwords (guesses.py), the mail limits'
counts (limits.py), backups (backup.py) and the audit log (audit.py). The database is the
judge's source of truth, and every SQL statement of the judge is in this package
(tests/test_layers.py checks that no other module executes SQL)."""
