"""sciverify: a versioned literature corpus, and claim-by-claim verification of drafts against it."""

from __future__ import annotations

from sciverify.catalog import PaperFilter, get_paper, list_papers
from sciverify.config import Settings, load_settings
from sciverify.errors import ExitCode, SciverifyError
from sciverify.ingest import IngestReport, ingest
from sciverify.store import Store, open_store

__version__ = "0.1.0"

__all__ = [
    "ExitCode",
    "IngestReport",
    "PaperFilter",
    "SciverifyError",
    "Settings",
    "Store",
    "__version__",
    "get_paper",
    "ingest",
    "list_papers",
    "load_settings",
    "open_store",
]
