"""Every piece of DDL in the project. Migrations are numbered, applied in order, each in a transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Migration = Callable[[Any], None]


@dataclass(frozen=True)
class _Registered:
    number: int
    name: str
    apply: Migration


MIGRATIONS: dict[int, _Registered] = {}


def migration(number: int) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        if number in MIGRATIONS:
            raise RuntimeError(f"duplicate migration number {number}: {fn.__name__}")
        MIGRATIONS[number] = _Registered(number, fn.__name__, fn)
        return fn

    return register


def head() -> int:
    return max(MIGRATIONS)


def _check_sequence() -> None:
    numbers = sorted(MIGRATIONS)
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migration numbers must be 1..n without gaps, got {numbers}")


def ensure_bookkeeping(conn: Any) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL)"
    )


@migration(1)
def create_corpus_tables(conn: Any) -> None:
    conn.execute(
        """
        CREATE TABLE works (
            paper_id TEXT PRIMARY KEY,
            title TEXT,
            authors TEXT[],
            year INTEGER,
            doi TEXT,
            arxiv_id TEXT,
            venue TEXT,
            abstract TEXT,
            current_version_id TEXT,
            created_at TIMESTAMP NOT NULL,
            updated_at TIMESTAMP NOT NULL
        );
        CREATE TABLE versions (
            version_id TEXT PRIMARY KEY,
            paper_id TEXT NOT NULL,
            sha256 TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            label TEXT,
            source_path TEXT NOT NULL,
            source_size BIGINT,
            source_record_id TEXT,
            license TEXT,
            parser TEXT NOT NULL,
            parser_version TEXT NOT NULL,
            page_count INTEGER NOT NULL,
            title TEXT,
            authors TEXT[],
            doi TEXT,
            arxiv_id TEXT,
            year INTEGER,
            venue TEXT,
            warnings TEXT[],
            retrieved_at TIMESTAMP NOT NULL
        );
        CREATE INDEX versions_paper ON versions(paper_id);
        CREATE TABLE sections (
            version_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            heading TEXT NOT NULL,
            kind TEXT NOT NULL,
            level INTEGER NOT NULL,
            page INTEGER,
            text TEXT NOT NULL,
            PRIMARY KEY (version_id, ordinal)
        );
        CREATE TABLE blocks (
            version_id TEXT NOT NULL,
            section_ordinal INTEGER NOT NULL,
            ordinal INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            page INTEGER,
            x0 DOUBLE, y0 DOUBLE, x1 DOUBLE, y1 DOUBLE,
            ref TEXT,
            PRIMARY KEY (version_id, section_ordinal, ordinal)
        );
        CREATE TABLE "references" (
            version_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            raw TEXT NOT NULL,
            title TEXT,
            authors TEXT[],
            year INTEGER,
            doi TEXT,
            arxiv_id TEXT,
            venue TEXT,
            PRIMARY KEY (version_id, ordinal)
        );
        CREATE SEQUENCE ingest_errors_seq;
        CREATE TABLE ingest_errors (
            error_id BIGINT PRIMARY KEY DEFAULT nextval('ingest_errors_seq'),
            source_path TEXT NOT NULL,
            sha256 TEXT,
            reason TEXT NOT NULL,
            hint TEXT,
            occurred_at TIMESTAMP NOT NULL
        );
        """
    )


@migration(2)
def create_chunks(conn: Any) -> None:
    conn.execute(
        """
        CREATE TABLE chunks (
            chunk_id TEXT PRIMARY KEY,
            paper_id TEXT NOT NULL,
            version_id TEXT NOT NULL,
            section TEXT NOT NULL,
            section_kind TEXT NOT NULL,
            section_ordinal INTEGER,
            ordinal INTEGER NOT NULL,
            text TEXT NOT NULL,
            page INTEGER,
            x0 DOUBLE, y0 DOUBLE, x1 DOUBLE, y1 DOUBLE,
            char_start INTEGER NOT NULL,
            char_end INTEGER NOT NULL,
            kind TEXT NOT NULL,
            evidence_type TEXT NOT NULL,
            previous_context TEXT,
            next_context TEXT,
            figure_or_table_ref TEXT,
            token_count INTEGER NOT NULL,
            text_hash TEXT NOT NULL,
            chunker TEXT NOT NULL
        );
        CREATE INDEX chunks_paper ON chunks(paper_id);
        CREATE TABLE chunked_versions (
            version_id TEXT PRIMARY KEY,
            paper_id TEXT NOT NULL,
            chunker TEXT NOT NULL,
            chunked_at TIMESTAMP NOT NULL
        );
        """
    )


@migration(3)
def create_index_tables(conn: Any) -> None:
    conn.execute(
        """
        CREATE TABLE dense_rows (
            row_id BIGINT PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE,
            text_hash TEXT NOT NULL,
            model TEXT NOT NULL
        );
        CREATE TABLE index_state (
            name TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL,
            model TEXT,
            dim INTEGER,
            chunk_count BIGINT NOT NULL,
            built_at TIMESTAMP NOT NULL
        );
        """
    )


@migration(4)
def create_runs_and_feedback(conn: Any) -> None:
    conn.execute(
        """
        CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            command TEXT NOT NULL,
            input_hash TEXT,
            input_text TEXT,
            settings_fingerprint TEXT,
            models TEXT,
            retrieved TEXT,
            output TEXT,
            timings TEXT,
            created_at TIMESTAMP NOT NULL
        );
        CREATE TABLE feedback (
            run_id TEXT,
            paragraph_id TEXT NOT NULL,
            decision TEXT NOT NULL,
            risk TEXT,
            note TEXT,
            decided_at TIMESTAMP NOT NULL
        );
        """
    )


@migration(5)
def add_feedback_draft_and_import_time(conn: Any) -> None:
    # A decision is keyed by run and draft: run_id is null when the report came from a run that
    # was not logged, and the draft hash keeps such decisions of different drafts apart.
    conn.execute(
        """
        ALTER TABLE feedback ADD COLUMN draft_sha256 TEXT;
        ALTER TABLE feedback ADD COLUMN imported_at TIMESTAMP;
        """
    )


@migration(6)
def create_map_graph(conn: Any) -> None:
    # The literature map (sciverify map, issue 7). map_papers holds each mapped paper's state key
    # (it changes when the paper does) and its title + abstract vector; map_references each
    # reference of the current version with the corpus paper it resolves to (null: not in the
    # corpus); map_edges the graph, semantic edges directed (a paper's own neighbour list).
    conn.execute(
        """
        CREATE TABLE map_papers (
            paper_id TEXT PRIMARY KEY,
            state_key TEXT NOT NULL,
            vector FLOAT[] NOT NULL,
            built_at TIMESTAMP NOT NULL
        );
        CREATE TABLE map_entities (
            paper_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            entity TEXT NOT NULL,
            PRIMARY KEY (paper_id, kind, entity)
        );
        CREATE TABLE map_references (
            paper_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            ref_key TEXT,
            title TEXT,
            year INTEGER,
            raw TEXT NOT NULL,
            matched_paper_id TEXT,
            match_kind TEXT,
            PRIMARY KEY (paper_id, ordinal)
        );
        CREATE TABLE map_edges (
            src TEXT NOT NULL,
            dst TEXT NOT NULL,
            kind TEXT NOT NULL,
            weight DOUBLE NOT NULL,
            detail TEXT,
            PRIMARY KEY (src, dst, kind)
        );
        CREATE INDEX map_edges_dst ON map_edges(dst);
        CREATE TABLE map_state (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            built_at TIMESTAMP NOT NULL
        );
        """
    )


_check_sequence()
