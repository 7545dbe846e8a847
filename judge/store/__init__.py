"""The SQLite store: schema and migrations (db.py), inbound mail (inbox.py), outbound mail
(outbox.py) and the audit log (audit.py). The database is the judge's source of truth."""
