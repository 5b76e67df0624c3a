"""search: BM25 and dense retrieval over chunks, fused, filtered, optionally expanded and reranked."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sciverify.errors import UsageError
from sciverify.index.bm25 import Filters

if TYPE_CHECKING:
    from sciverify.index.dense import Vectors

SNIPPET_CHARS = 280


class Mode(StrEnum):
    bm25 = "bm25"
    dense = "dense"
    hybrid = "hybrid"


class Fusion(StrEnum):
    exact = "exact"  # the default: both scores for every candidate, BM25/max + cosine min-max
    rrf = "rrf"
    score = "score"  # min-max of the two lists as retrieved


EVIDENCE_TYPES = ("result", "method", "limitation", "background")
CHUNK_KINDS = ("text", "table", "figure", "equation")


@dataclass(frozen=True, slots=True)
class Hit:
    rank: int
    score: float
    chunk_id: str
    paper_id: str
    title: str | None
    section: str
    section_kind: str
    page: int | None
    evidence_type: str
    kind: str
    year: int | None
    source: str | None
    text: str
    snippet: str
    highlights: tuple[tuple[int, int], ...] = ()
    bm25_rank: int | None = None
    dense_rank: int | None = None
    via: str = "search"  # "search", or "citation" for citation-neighbour expansion

    def to_row(self) -> dict[str, Any]:
        row = asdict(self)
        row["highlights"] = [list(h) for h in self.highlights]
        return row


@dataclass
class SearchResults:
    query: str
    mode: str
    hits: list[Hit] = field(default_factory=list)
    seconds: float = 0.0

    def __iter__(self) -> Any:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def rows(self) -> list[dict[str, Any]]:
        return [h.to_row() for h in self.hits]

    def _repr_html_(self) -> str:
        from sciverify.notebook import search_results_html

        return search_results_html(self)


def make_filters(*, year: tuple[int | None, int | None] = (None, None),
                 evidence_types: tuple[str, ...] = (), kinds: tuple[str, ...] = (),
                 venues: tuple[str, ...] = (), paper_ids: tuple[str, ...] = ()) -> Filters:
    """Validated filters; an unknown value is a usage error that lists the valid ones."""
    for value in evidence_types:
        if value not in EVIDENCE_TYPES:
            raise UsageError(f"unknown evidence type {value!r}",
                             hint=f"valid types: {', '.join(EVIDENCE_TYPES)}")
    for value in kinds:
        if value not in CHUNK_KINDS:
            raise UsageError(f"unknown chunk kind {value!r}",
                             hint=f"valid kinds: {', '.join(CHUNK_KINDS)}")
    return Filters(year[0], year[1], tuple(evidence_types), tuple(kinds), tuple(venues),
                   tuple(paper_ids))


# -- the open indexes, cached per process ----------------------------------------------------


class _Indexes:
    def __init__(self, store: Any, settings: Any) -> None:
        from sciverify.index import DENSE_FILE, LEXICAL_DIR, check_fresh, get_embedder
        from sciverify.index.bm25 import Bm25Index
        from sciverify.index.dense import DenseIndex

        self.embedder = get_embedder(settings)
        self.manifest = check_fresh(store, settings, self.embedder.model_id)
        self.bm25 = Bm25Index.open(settings.index_dir / LEXICAL_DIR)
        self.dense = DenseIndex.load(settings.index_dir / DENSE_FILE)
        rows = store.execute("SELECT row_id, chunk_id FROM dense_rows").fetchall()
        self.row_to_chunk = {r: c for r, c in rows}
        self.chunk_to_row = {c: r for r, c in rows}
        # version_id -> (title, year, source_path); valid while the manifest is (see _indexes).
        self._versions: dict[str, tuple[Any, Any, Any]] = {}

    def version_info(self, store: Any, version_ids: list[str]) -> dict[str, tuple[Any, Any, Any]]:
        missing = [v for v in version_ids if v not in self._versions]
        if missing:
            rows = store.execute(
                "SELECT v.version_id, w.title, w.year, v.source_path FROM versions v"
                f" JOIN works w USING (paper_id) WHERE v.version_id IN ({', '.join('?' * len(missing))})",
                missing,
            ).fetchall()
            self._versions.update((r[0], (r[1], r[2], r[3])) for r in rows)
        return {v: self._versions[v] for v in version_ids if v in self._versions}


_CACHE: dict[tuple[str, str], _Indexes] = {}
_LOCK = threading.Lock()


def _indexes(store: Any, settings: Any) -> _Indexes:
    from sciverify.index import MANIFEST

    manifest = settings.index_dir / MANIFEST
    stamp = str(manifest.stat().st_mtime_ns) if manifest.exists() else "none"
    key = (str(Path(settings.index_dir).resolve()), stamp)
    with _LOCK:
        if key not in _CACHE:
            _CACHE.clear()
            _CACHE[key] = _Indexes(store, settings)
        return _CACHE[key]


# -- search ----------------------------------------------------------------------------------


def prime_queries(texts: Sequence[str], *, store: Any, settings: Any) -> None:
    """Embed the queries of a coming batch of searches at once; each `search` then finds its
    query vector in the dense encoder's cache. Nothing to do for BM25-only search."""
    if Mode(settings.search.mode) is Mode.bm25 or not texts:
        return
    _indexes(store, settings).embedder.prime_queries(list(texts))


def search(
    query: str,
    *,
    store: Any,
    settings: Any,
    k: int | None = None,
    mode: str | None = None,
    fusion: str | None = None,
    filters: Filters | None = None,
    expand_citations: bool = False,
    reranker: str | None = None,
) -> SearchResults:
    """The k best chunks for `query`.

    Args:
        query: free text; it is never interpreted as query syntax.
        store: an open Store (read-only is enough).
        settings: Settings (settings.search gives defaults for k, mode, fusion and depth).
        k: number of hits.
        mode: bm25, dense or hybrid.
        fusion: rrf or score (hybrid mode only).
        filters: metadata filters (`make_filters`).
        expand_citations: add the best chunk of papers that cite or are cited by the hits.
        reranker: a sentence-transformers CrossEncoder name or path to rerank the hits with.

    Returns:
        SearchResults, hits ranked from 1, ties broken by chunk_id.

    Raises:
        StaleIndex: no index, or one built with other settings (the hint names the command).
    """
    import time

    started = time.perf_counter()
    cfg = settings.search
    k = k or cfg.k
    mode = Mode(mode or cfg.mode)
    fusion = Fusion(fusion or cfg.fusion)
    if not query.strip():
        raise UsageError("the query is empty", hint="give a question or some keywords")
    idx = _indexes(store, settings)
    depth = max(cfg.depth, k)
    fused, lex_ranks, dense_ranks = retrieve(query, idx, mode=mode, fusion=fusion, depth=depth,
                                             k=k, filters=filters, store=store, settings=settings)
    if reranker or cfg.reranker:
        fused = _rerank(query, fused[: max(k * 3, 30)], store, reranker or cfg.reranker)
    fused = fused[:k]
    hits = _hydrate(store, query, idx, fused, lex_ranks, dense_ranks)
    if expand_citations and hits:
        hits += _citation_neighbours(query, store, idx, hits, k)
    return SearchResults(query, str(mode), hits, time.perf_counter() - started)


def retrieve(query: str, idx: _Indexes, *, mode: Mode, fusion: Fusion, depth: int, k: int,
             filters: Filters | None, store: Any, settings: Any
             ) -> tuple[list[tuple[str, float]], dict[str, int], dict[str, int]]:
    """Ranked (chunk_id, score) plus each retriever's own ranks, before hydration."""
    from sciverify import fusion as fuse

    lexical: list[tuple[str, float]] = []
    dense: list[tuple[str, float]] = []
    vector = None
    if mode in (Mode.bm25, Mode.hybrid):
        lexical = idx.bm25.search(query, depth, filters)
    if mode in (Mode.dense, Mode.hybrid):
        vector = idx.embedder.encode_query(query)
        allowed = _allowed_rows(store, idx, filters)
        rows, scores = idx.dense.search(vector, depth, allowed=allowed)
        dense = [(idx.row_to_chunk[r], s) for r, s in zip(rows, scores, strict=True)
                 if r in idx.row_to_chunk]
    lex_ranks = {c: i + 1 for i, (c, _s) in enumerate(lexical)}
    dense_ranks = {c: i + 1 for i, (c, _s) in enumerate(dense)}
    if mode is Mode.bm25:
        return lexical, lex_ranks, dense_ranks
    if mode is Mode.dense:
        return dense, lex_ranks, dense_ranks
    cfg = settings.search
    if fusion is Fusion.exact:
        # Every candidate from either list gets its real BM25 and its exact cosine, so a chunk
        # found by one retriever is not scored as absent by the other (SciFact train: 0.743 vs
        # 0.716 for RRF; benchmarks/retrieval_research.py).
        # Each list already holds its own exact scores; only the other list's candidates are
        # scored, and the dense side by one matrix product over their stored vectors.
        in_dense = {c for c, _ in dense}
        lexical_only = [c for c, _ in lexical if c not in in_dense and c in idx.chunk_to_row]
        exact_cos = dict(dense)
        # Exact fusion only runs in hybrid mode, so the query vector is set.
        exact_cos.update(zip(lexical_only, idx.dense.score_rows(
            cast("Vectors", vector), [idx.chunk_to_row[c] for c in lexical_only]).tolist(), strict=True))
        in_lexical = {c for c, _ in lexical}
        exact_bm25 = dict(lexical)
        exact_bm25.update(idx.bm25.score_chunks(query, [c for c in in_dense if c not in in_lexical]))
        fused = fuse.hybrid_fusion(lexical, dense, dense_weight=cfg.dense_weight,
                                   dense_exact=exact_cos, lexical_exact=exact_bm25)
        return fused, lex_ranks, dense_ranks
    if fusion is Fusion.rrf:
        fused = fuse.rrf_fusion([lexical, dense], k=cfg.rrf_k)
    else:
        fused = fuse.minmax_fusion([lexical, dense],
                                   weights=[1 - cfg.dense_weight, cfg.dense_weight])
    return fused, lex_ranks, dense_ranks


def _allowed_rows(store: Any, idx: _Indexes, filters: Filters | None) -> set[int] | None:
    if filters is None or filters.is_empty:
        return None
    where: list[str] = ["1=1"]
    params: list[Any] = []
    if filters.year_min is not None:
        where.append("w.year >= ?")
        params.append(filters.year_min)
    if filters.year_max is not None:
        where.append("w.year <= ?")
        params.append(filters.year_max)
    for column, values in (("c.evidence_type", filters.evidence_types), ("c.kind", filters.kinds),
                           ("c.paper_id", filters.paper_ids)):
        if values:
            where.append(f"{column} IN (SELECT unnest(?))")
            params.append(list(values))
    if filters.venues:
        where.append("lower(w.venue) IN (SELECT lower(unnest(?)))")
        params.append(list(filters.venues))
    rows = store.execute(
        "SELECT d.row_id FROM dense_rows d JOIN chunks c USING (chunk_id)"
        f" JOIN works w USING (paper_id) WHERE {' AND '.join(where)}",
        params,
    ).fetchall()
    return {r[0] for r in rows}


def _rerank(query: str, ranked: list[tuple[str, float]], store: Any,
            model: str) -> list[tuple[str, float]]:
    from sciverify.errors import EnvironmentProblem

    try:
        from sentence_transformers import CrossEncoder

        encoder = _RERANKERS.get(model) or CrossEncoder(model)
    except Exception as exc:  # any loading failure means the model is not usable here
        raise EnvironmentProblem(f"cannot load reranker {model!r}: {exc}",
                                 hint="give a local CrossEncoder path, or drop --rerank") from exc
    _RERANKERS[model] = encoder
    texts = dict(store.execute(
        "SELECT chunk_id, text FROM chunks WHERE chunk_id IN (SELECT unnest(?))",
        [[c for c, _s in ranked]]).fetchall())
    scores = encoder.predict([(query, texts.get(c, "")) for c, _s in ranked])
    pairs = [(c, float(s if getattr(s, "ndim", 0) == 0 else s.max()))
             for (c, _old), s in zip(ranked, scores, strict=True)]
    return sorted(pairs, key=lambda p: (-p[1], p[0]))


_RERANKERS: dict[str, Any] = {}


def _hydrate(store: Any, query: str, idx: _Indexes, ranked: list[tuple[str, float]],
             lex_ranks: dict[str, int], dense_ranks: dict[str, int], via: str = "search",
             start_rank: int = 1) -> list[Hit]:
    if not ranked:
        return []
    # One placeholder per id (k of them): DuckDB then looks the chunks up by primary key instead
    # of scanning the whole table; the papers' title, year and file come from a per-index cache,
    # so a warm search joins nothing (SciFact, 11k chunks: 1 ms instead of 7).
    ids = [c for c, _s in ranked]
    rows = store.rows(
        "SELECT chunk_id, paper_id, version_id, section, section_kind, page, evidence_type, kind,"
        f" text FROM chunks WHERE chunk_id IN ({', '.join('?' * len(ids))})",
        ids,
    )
    versions = idx.version_info(store, sorted({r["version_id"] for r in rows}))
    for r in rows:
        r["title"], r["year"], r["source_path"] = versions.get(r["version_id"], (None, None, None))
    by_id = {r["chunk_id"]: r for r in rows}
    terms = set(idx.bm25.terms(query))
    hits = []
    for offset, (chunk_id, score) in enumerate((c, s) for c, s in ranked if c in by_id):
        r = by_id[chunk_id]
        snippet, spans = make_snippet(r["text"], terms, idx.bm25.word_terms)
        hits.append(Hit(
            rank=start_rank + offset, score=round(float(score), 6), chunk_id=chunk_id,
            paper_id=r["paper_id"], title=r["title"], section=r["section"],
            section_kind=r["section_kind"], page=r["page"], evidence_type=r["evidence_type"],
            kind=r["kind"], year=r["year"], source=r["source_path"], text=r["text"],
            snippet=snippet, highlights=spans, bm25_rank=lex_ranks.get(chunk_id),
            dense_rank=dense_ranks.get(chunk_id), via=via,
        ))
    return hits


_WORD = re.compile(r"\w[\w\-]*", re.UNICODE)


def make_snippet(text: str, terms: set[str], analyse: Any,
                 width: int = SNIPPET_CHARS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A window of the text around the densest run of query terms, with their spans in it."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    matched = []
    for start, end in words:
        stems = analyse(text[start:end])
        if stems and any(s in terms for s in stems):
            matched.append((start, end))
    if len(text) <= width:
        return text, tuple(matched)
    best_start, best_count = 0, -1
    for start, _end in matched or [(0, 0)]:
        window_start = max(0, start - width // 4)
        count = sum(1 for s, e in matched if window_start <= s and e <= window_start + width)
        if count > best_count:
            best_start, best_count = window_start, count
    # Start and end on word boundaries so the snippet never shows half a word.
    if best_start > 0:
        space = text.rfind(" ", 0, best_start + 1)
        best_start = space + 1 if space >= 0 else best_start
    end = min(len(text), best_start + width)
    if end < len(text):
        space = text.rfind(" ", best_start, end)
        end = space if space > best_start else end
    prefix = "…" if best_start > 0 else ""
    suffix = "…" if end < len(text) else ""
    shift = len(prefix) - best_start
    spans = tuple((s + shift, e + shift) for s, e in matched if s >= best_start and e <= end)
    return prefix + text[best_start:end] + suffix, spans


def _citation_neighbours(query: str, store: Any, idx: _Indexes, hits: list[Hit],
                         k: int) -> list[Hit]:
    """Papers that cite or are cited by the hits' papers, each with its best chunk for the query."""
    from sciverify.index.bm25 import Filters as F

    papers = sorted({h.paper_id for h in hits})
    neighbours = citation_neighbours(store, papers)
    neighbours -= set(papers)
    if not neighbours:
        return []
    ranked = idx.bm25.search(query, k, F(paper_ids=tuple(sorted(neighbours))))
    best: dict[str, tuple[str, float]] = {}
    for chunk_id, score in ranked:
        paper = chunk_id.split(":", 1)[0]
        best.setdefault(paper, (chunk_id, score))
    extra = sorted(best.values(), key=lambda p: (-p[1], p[0]))
    return _hydrate(store, query, idx, extra, {}, {}, via="citation", start_rank=len(hits) + 1)


def citation_neighbours(store: Any, paper_ids: list[str]) -> set[str]:
    """Corpus papers linked to `paper_ids` by a parsed reference (matched by DOI or title)."""
    if not paper_ids:
        return set()
    rows = store.execute(
        """
        WITH refs AS (
            SELECT w.paper_id AS citing, r.doi, lower(regexp_replace(r.title, '[^A-Za-z0-9]+', ' ', 'g')) AS t
            FROM "references" r JOIN works w ON w.current_version_id = r.version_id
        ), targets AS (
            SELECT paper_id, doi, lower(regexp_replace(title, '[^A-Za-z0-9]+', ' ', 'g')) AS t FROM works
        ), links AS (
            SELECT refs.citing, targets.paper_id AS cited FROM refs JOIN targets
              ON (refs.doi IS NOT NULL AND refs.doi = targets.doi)
              OR (refs.t IS NOT NULL AND length(refs.t) > 20 AND refs.t = targets.t)
        )
        SELECT cited FROM links WHERE citing IN (SELECT unnest(?))
        UNION SELECT citing FROM links WHERE cited IN (SELECT unnest(?))
        """,
        [paper_ids, paper_ids],
    ).fetchall()
    return {r[0] for r in rows}
