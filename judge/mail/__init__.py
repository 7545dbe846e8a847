"""Mail in and out: raw mail to plain-text submissions, loop guards, IMAP, SMTP, the outbox."""
