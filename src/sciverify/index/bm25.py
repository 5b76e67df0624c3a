"""Lexical retrieval: a Tantivy BM25 index over chunks.

Queries are never handed to Tantivy's query language: the text is run through the same
analyzer the index uses (`en_stem`) and term queries are built from the tokens, so any
characters a user types are just words. Filters are typed queries (a range on year, terms on
the keyword fields) that do not change the scores.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciverify.errors import CorpusBusy, StaleIndex

SCHEMA_VERSION = 2
_META = "sciverify_bm25.json"

# Per-field weights of the default query. `window` is the title plus the chunk with its
# neighbours in the same section: a chunk is scored with the words around it, so a claim whose
# terms are spread over two chunks of one abstract or paragraph run still matches as a whole,
# while citations stay at chunk size. `body` (title + the chunk alone) at 0.2 keeps the chunk
# whose own words match ahead of its neighbours, which matters inside long PDF sections
# (tests/test_verify.py); the title again at 0.2 helps a little. SciFact train queries, paper
# level: body + title 0.685; window + title 0.707; window + body 0.2 + title 0.2 0.703
# (benchmarks/retrieval_research.py).
DEFAULT_FIELD_WEIGHTS: Mapping[str, float] = {"window": 1.0, "body": 0.2, "title": 0.2}
_TEXT_FIELDS = ("title", "section", "text", "body", "window")
_KEYWORD_FIELDS = ("chunk_id", "paper_id", "evidence_type", "kind", "venue")
_WRITER_HEAP = 128_000_000
_WORD_CACHE = 200_000


@dataclass(frozen=True, slots=True)
class Bm25Doc:
    """One chunk as the lexical index sees it."""

    chunk_id: str
    paper_id: str
    text: str
    title: str = ""
    section: str = ""
    year: int | None = None
    evidence_type: str = ""
    kind: str = ""
    venue: str = ""
    # The chunk's text with its neighbours in the same section; empty means the text alone.
    window: str = ""


@dataclass(frozen=True, slots=True)
class Filters:
    """Metadata filters shared by lexical and dense search. Empty tuples mean "any"."""

    year_min: int | None = None
    year_max: int | None = None
    evidence_types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    venues: tuple[str, ...] = ()
    paper_ids: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return (
            self.year_min is None
            and self.year_max is None
            and not (self.evidence_types or self.kinds or self.venues or self.paper_ids)
        )


def _schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("chunk_id", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("paper_id", stored=True, tokenizer_name="raw", index_option="basic")
    for name in _TEXT_FIELDS:
        builder.add_text_field(name, tokenizer_name="en_stem", index_option="freq")
    builder.add_integer_field("year", indexed=True, fast=True)
    for name in ("evidence_type", "kind", "venue"):
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    return builder.build()


def _analyzer() -> Any:
    """The same pipeline as Tantivy's built-in `en_stem`, for tokenising queries on our side."""
    import tantivy

    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def _venue_key(venue: str) -> str:
    # Venue filters match case- and space-insensitively ("Nature  " == "nature").
    return " ".join(venue.lower().split())


def _document(doc: Bm25Doc, schema: Any) -> Any:
    import tantivy

    fields: dict[str, Any] = {
        "chunk_id": doc.chunk_id,
        "paper_id": doc.paper_id,
        "title": doc.title,
        "section": doc.section,
        "text": doc.text,
        "body": f"{doc.title}\n{doc.text}" if doc.title else doc.text,
        "window": f"{doc.title}\n{doc.window or doc.text}" if doc.title else doc.window or doc.text,
    }
    if doc.year is not None:
        fields["year"] = int(doc.year)
    for name, value in (
        ("evidence_type", doc.evidence_type),
        ("kind", doc.kind),
        ("venue", _venue_key(doc.venue)),
    ):
        if value:
            fields[name] = value
    return tantivy.Document.from_dict(fields, schema)


def _open_or_create(index_dir: Path, *, rebuild: bool) -> Any:
    import tantivy

    if rebuild and index_dir.exists():
        shutil.rmtree(index_dir)
    meta = index_dir / _META
    if index_dir.exists() and any(index_dir.iterdir()):
        _check_meta(index_dir)
    else:
        index_dir.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({"schema_version": SCHEMA_VERSION}))
    return tantivy.Index(_schema(), path=str(index_dir), reuse=True)


def _check_meta(index_dir: Path) -> None:
    meta = index_dir / _META
    try:
        version = json.loads(meta.read_text()).get("schema_version")
    except (OSError, ValueError):
        version = None
    if version != SCHEMA_VERSION:
        raise StaleIndex(
            f"lexical index has schema version {version}, expected {SCHEMA_VERSION}",
            path=index_dir,
            hint="rebuild it: sciverify index --rebuild",
        )


def _writer(index: Any, index_dir: Path) -> Any:
    try:
        return index.writer(heap_size=_WRITER_HEAP, num_threads=1)
    except ValueError as exc:
        if "lock" in str(exc).lower():
            raise CorpusBusy(
                "another process is writing the lexical index",
                path=index_dir,
                hint="wait for it to finish, then run again",
            ) from exc
        raise


def _write(
    index_dir: Path, docs: Iterable[Bm25Doc], *, rebuild: bool, deleted_papers: Iterable[str] = ()
) -> int:
    index = _open_or_create(index_dir, rebuild=rebuild)
    writer = _writer(index, index_dir)
    schema = index.schema
    count = 0
    try:
        for paper_id in deleted_papers:
            writer.delete_documents_by_term("paper_id", paper_id)
        for doc in docs:
            if not rebuild:
                # Adding a chunk that is already there replaces it, so re-indexing is idempotent.
                writer.delete_documents_by_term("chunk_id", doc.chunk_id)
            writer.add_document(_document(doc, schema))
            count += 1
        writer.commit()
    except BaseException:
        writer.rollback()
        raise
    finally:
        writer.wait_merging_threads()
    return count


def build_bm25(index_dir: Path, docs: Iterable[Bm25Doc], *, rebuild: bool) -> int:
    """Create (or with `rebuild`, recreate) the index in `index_dir` and add `docs`.

    Returns the number of documents written. One commit: a crash leaves the previous state.
    """
    return _write(index_dir, docs, rebuild=rebuild)


def add_bm25(index_dir: Path, docs: Iterable[Bm25Doc]) -> int:
    """Add or replace chunks (matched by chunk_id) in an existing or new index."""
    return _write(index_dir, docs, rebuild=False)


def delete_by_paper(index_dir: Path, paper_ids: Iterable[str]) -> None:
    """Remove every chunk of the given papers."""
    _write(index_dir, (), rebuild=False, deleted_papers=paper_ids)


class Bm25Index:
    """A read-only view of the lexical index. Open once, search many times."""

    def __init__(self, index: Any, index_dir: Path) -> None:
        self._index = index
        self._dir = index_dir
        self._schema = index.schema
        self._analyzer = _analyzer()
        self._searcher = index.searcher()
        # Stored-document reads dominate a search; a searcher's addresses never change, so each
        # chunk id is read from the doc store once per searcher.
        self._ids: dict[tuple[int, int], str] = {}
        self._word_terms: dict[str, list[str]] = {}

    @classmethod
    def open(cls, index_dir: Path) -> Bm25Index:
        import tantivy

        if not (index_dir / _META).is_file():
            raise StaleIndex("lexical index not found", path=index_dir, hint="run sciverify index")
        _check_meta(index_dir)
        return cls(tantivy.Index.open(str(index_dir)), index_dir)

    def reload(self) -> None:
        """See what writers committed since this view was opened."""
        self._index.reload()
        self._searcher = self._index.searcher()
        self._ids = {}

    def _chunk_id(self, addr: Any) -> str:
        key = (addr.segment_ord, addr.doc)
        chunk_id = self._ids.get(key)
        if chunk_id is None:
            chunk_id = self._ids[key] = str(self._searcher.doc(addr).get_first("chunk_id"))
        return chunk_id

    @property
    def num_docs(self) -> int:
        return int(self._searcher.num_docs)

    def terms(self, text: str) -> list[str]:
        """The index terms of `text`, in order, duplicates kept."""
        return [str(t) for t in self._analyzer.analyze(text)]

    def word_terms(self, word: str) -> list[str]:
        """`terms` of one word, memoised: snippets analyse every word of every hit."""
        found = self._word_terms.get(word)
        if found is None:
            if len(self._word_terms) > _WORD_CACHE:
                self._word_terms.clear()
            found = self._word_terms[word] = self.terms(word)
        return found

    def search(
        self,
        query: str,
        k: int,
        filters: Filters | None = None,
        *,
        field_weights: Mapping[str, float] | None = None,
    ) -> list[tuple[str, float]]:
        """The k best chunks for `query` as (chunk_id, BM25 score), best first, ties by chunk_id.

        Every query token is an optional term (OR); a chunk's score sums the weighted BM25 of
        each field. Text that analyses to no token returns no hits.
        """
        text_query = self._text_query(query, field_weights or DEFAULT_FIELD_WEIGHTS)
        if text_query is None or k <= 0:
            return []
        final = self._with_filters(text_query, filters)
        hits = self._searcher.search(final, limit=k, count=False).hits
        pairs = [(self._chunk_id(addr), float(score)) for score, addr in hits]
        pairs.sort(key=lambda p: (-p[1], p[0]))
        return pairs

    def score_chunks(
        self,
        query: str,
        chunk_ids: Iterable[str],
        *,
        field_weights: Mapping[str, float] | None = None,
    ) -> dict[str, float]:
        """The BM25 score of `query` for each given chunk (for re-scoring fusion candidates).

        Chunks that share no term with the query (or are not indexed) are left out: their
        score is 0.
        """
        import tantivy

        wanted = sorted(set(chunk_ids))
        text_query = self._text_query(query, field_weights or DEFAULT_FIELD_WEIGHTS)
        if text_query is None or not wanted:
            return {}
        Q = tantivy.Query
        only = Q.const_score_query(Q.term_set_query(self._schema, "chunk_id", wanted), 0.0)
        final = Q.boolean_query([(tantivy.Occur.Must, text_query), (tantivy.Occur.Must, only)])
        hits = self._searcher.search(final, limit=len(wanted), count=False).hits
        return {self._chunk_id(addr): float(score) for score, addr in hits}

    def _text_query(self, query: str, weights: Mapping[str, float]) -> Any:
        import tantivy

        Q = tantivy.Query
        tokens = list(dict.fromkeys(self.terms(query)))
        clauses = []
        for field, weight in weights.items():
            if weight <= 0 or field not in _TEXT_FIELDS:
                continue
            for token in tokens:
                term = Q.term_query(self._schema, field, token, index_option="freq")
                clauses.append(
                    (tantivy.Occur.Should, term if weight == 1.0 else Q.boost_query(term, weight))
                )
        return Q.boolean_query(clauses) if clauses else None

    def _with_filters(self, text_query: Any, filters: Filters | None) -> Any:
        import tantivy

        if filters is None or filters.is_empty:
            return text_query
        Q = tantivy.Query
        must = [(tantivy.Occur.Must, text_query)]
        if filters.year_min is not None or filters.year_max is not None:
            years = Q.range_query(
                self._schema, "year", tantivy.FieldType.Integer, filters.year_min, filters.year_max
            )
            must.append((tantivy.Occur.Must, Q.const_score_query(years, 0.0)))
        keyword_values = (
            ("evidence_type", filters.evidence_types),
            ("kind", filters.kinds),
            ("venue", tuple(_venue_key(v) for v in filters.venues)),
            ("paper_id", filters.paper_ids),
        )
        for field, values in keyword_values:
            if values:
                allowed = Q.term_set_query(self._schema, field, list(values))
                must.append((tantivy.Occur.Must, Q.const_score_query(allowed, 0.0)))
        return Q.boolean_query(must)


__all__ = [
    "DEFAULT_FIELD_WEIGHTS",
    "Bm25Doc",
    "Bm25Index",
    "Filters",
    "add_bm25",
    "build_bm25",
    "delete_by_paper",
]
