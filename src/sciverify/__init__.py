"""sciverify: a versioned literature corpus, and claim-by-claim verification of drafts against it."""

from __future__ import annotations

from sciverify.ask import Answer, ask, log_ask_run
from sciverify.catalog import PaperFilter, get_paper, list_papers
from sciverify.chunk import ChunkReport, chunk
from sciverify.config import Settings, load_settings
from sciverify.errors import ExitCode, SciverifyError
from sciverify.index import IndexReport, build_index
from sciverify.ingest import IngestReport, ingest
from sciverify.map import LiteratureMap, map_corpus
from sciverify.map_graph import build_graph
from sciverify.search import Hit, SearchResults, make_filters, search
from sciverify.store import Store, open_store
from sciverify.verify import log_run, verify

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "ask",
    "log_ask_run",
    "ChunkReport",
    "Hit",
    "SearchResults",
    "make_filters",
    "search",
    "verify",
    "log_run",
    "LiteratureMap",
    "build_graph",
    "map_corpus",
    "IndexReport",
    "build_index",
    "chunk",
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
