"""The DuckDB store: one file per corpus folder, the source of truth for every stage."""

from sciverify.store.db import Store, open_store

__all__ = ["Store", "open_store"]
