"""Data that stays where it lives: files in place, object storage, PostgreSQL, DuckLake and MotherDuck,
attached read-only to the sandboxed connection before it locks, and seen by the tools as tables."""
