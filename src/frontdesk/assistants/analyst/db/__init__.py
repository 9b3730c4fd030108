"""Database access: engines with the PII key wired into every connection, and secure views.

`engine` opens SQLAlchemy engines (read-only when asked) for SQLite, MariaDB/MySQL or any other
URL and fingerprints table contents (`checksums`); `secure_views` says which columns are
encrypted and builds the `secure_*` views that decrypt them; `crypto` is MySQL-compatible AES.

Depends on nothing else of the analyst.
"""
