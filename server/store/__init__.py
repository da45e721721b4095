"""The store: what the server keeps on disk (SQLite, or PostgreSQL)."""
