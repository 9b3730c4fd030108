"""Alembic's migrations of the casino host's schema (`storage/migrate.py` applies them)."""
