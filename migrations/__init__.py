"""Alembic owns the schema; every revision also downgrades."""
