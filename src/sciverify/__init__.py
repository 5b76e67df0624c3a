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
    "ChunkReport",
    "ExitCode",
    "Hit",
    "IndexReport",
    "IngestReport",
    "LiteratureMap",
    "PaperFilter",
    "SciverifyError",
    "SearchResults",
    "Settings",
    "Store",
    "__version__",
    "ask",
    "build_graph",
    "build_index",
    "chunk",
    "get_paper",
    "ingest",
    "list_papers",
    "load_settings",
    "log_ask_run",
    "log_run",
    "make_filters",
    "map_corpus",
    "open_store",
    "search",
    "verify",
]
