"""index: stored chunks -> a Tantivy BM25 index and a FAISS dense index, with a manifest.

Both indexes are rebuildable caches of the store. The manifest records a fingerprint of the
settings that shape each index; `search` refuses an index whose fingerprint differs from the
current settings and names the rebuild command. Incremental: only chunks that are new or whose
text changed are embedded; chunks of re-chunked papers are replaced.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciverify.errors import StaleIndex
from sciverify.progress import NO_PROGRESS, Progress

log = logging.getLogger(__name__)

INDEX_FORMAT = "sciverify-index/1"
MANIFEST = "manifest.json"
LEXICAL_DIR = "lexical"
DENSE_FILE = "dense.faiss"
# What the dense side embeds for a chunk. The title joins every chunk so that a passage cut from
# the middle of an abstract still says what the paper is about (benchmarks/retrieval_research.py).
PASSAGE_RECIPE = "title+text/1"


def passage_text(title: str | None, text: str) -> str:
    return f"{title}. {text}" if title else text


@dataclass(frozen=True, slots=True)
class IndexReport:
    chunks: int
    embedded: int
    removed: int
    seconds: float
    model: str
    dim: int

    @property
    def chunks_per_second(self) -> float:
        return self.embedded / self.seconds if self.seconds > 0 else 0.0

    def rows(self) -> list[dict[str, Any]]:
        return [{"chunks": self.chunks, "embedded": self.embedded, "removed": self.removed,
                 "model": self.model, "dim": self.dim, "seconds": round(self.seconds, 2),
                 "chunks_per_second": round(self.chunks_per_second, 1)}]


def resolve_model(name: str) -> str | None:
    """The default model name means the packaged offline model (None); others are passed on."""
    from sciverify.config import DEFAULT_EMBEDDING_MODEL

    return None if name == DEFAULT_EMBEDDING_MODEL else name


def get_embedder(settings: Any) -> Any:
    return _embedder_cache(resolve_model(settings.index.model), settings.index.batch_size)


_EMBEDDERS: dict[tuple[str | None, int], Any] = {}


def _embedder_cache(model: str | None, batch_size: int) -> Any:
    from sciverify.index.dense import Embedder

    key = (model, batch_size)
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = Embedder(model, batch_size=batch_size)
    return _EMBEDDERS[key]


def fingerprints(settings: Any, model_id: str) -> dict[str, str]:
    return {
        "bm25": f"{INDEX_FORMAT} bm25 en_stem fields=title,section,text,body,window window=1",
        "dense": f"{INDEX_FORMAT} dense model={model_id} normalised ip recipe={PASSAGE_RECIPE}",
    }


def read_manifest(index_dir: Path) -> dict[str, Any] | None:
    path = index_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except ValueError as exc:
        raise StaleIndex("index manifest is damaged", path=path,
                         hint="rebuild it: sciverify index --rebuild") from exc
    return data


def _write_manifest(index_dir: Path, data: dict[str, Any]) -> None:
    from sciverify.render import write_atomic

    index_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(index_dir / MANIFEST, json.dumps(data, indent=2, sort_keys=True) + "\n")


def _rebuild_hint(settings: Any) -> str:
    return f"run: sciverify index --rebuild --corpus {settings.corpus}"


def build_index(*, store: Any, settings: Any, progress: Progress = NO_PROGRESS,
                rebuild: bool = False) -> IndexReport:
    """Bring both indexes up to date with the stored chunks.

    Args:
        store: an open, writable Store.
        settings: Settings (settings.index: model, batch size, HNSW threshold).
        progress: gets one step per embedded chunk.
        rebuild: drop both indexes and start over.

    Raises:
        StaleIndex: the index was built with another model or recipe (and rebuild is False).
    """
    from sciverify import __version__
    from sciverify.index.bm25 import Bm25Doc, add_bm25, build_bm25, delete_by_paper
    from sciverify.index.dense import DenseIndex

    started = time.perf_counter()
    index_dir: Path = settings.index_dir
    embedder = get_embedder(settings)
    prints = fingerprints(settings, embedder.model_id)
    manifest = read_manifest(index_dir)
    if manifest and not rebuild:
        old = manifest.get("dense", {}).get("fingerprint")
        if old != prints["dense"]:
            raise StaleIndex(
                f"the dense index was built with other settings ({old}); "
                f"current settings need ({prints['dense']})",
                path=index_dir, hint=_rebuild_hint(settings),
            )
    # The lexical index is cheap to rebuild from the store and holds nothing else, so an older
    # format is rebuilt here without re-embedding anything.
    lexical_stale = manifest is not None and not rebuild and (
        manifest.get("bm25", {}).get("fingerprint") != prints["bm25"])
    dense_path = index_dir / DENSE_FILE
    if rebuild or manifest is None:
        with store.transaction() as conn:
            conn.execute("DELETE FROM dense_rows")
            conn.execute("DELETE FROM index_state")
        if dense_path.exists():
            dense_path.unlink()
    current = {
        row[0]: (row[1], row[2])
        for row in store.execute("SELECT chunk_id, text_hash, paper_id FROM chunks").fetchall()
    }
    indexed = {
        row[0]: (row[1], row[2])
        for row in store.execute("SELECT chunk_id, text_hash, row_id FROM dense_rows").fetchall()
    }
    stale = [cid for cid, (h, _row) in indexed.items() if current.get(cid, (None,))[0] != h]
    fresh = sorted(cid for cid, (h, _p) in current.items() if indexed.get(cid, (None,))[0] != h)
    # chunk ids start with their paper id, which never contains a colon.
    touched_papers = sorted({current[c][1] for c in fresh} | {c.split(":", 1)[0] for c in stale}
                            | ({p for _h, p in current.values()} if lexical_stale else set()))
    dense = (DenseIndex.load(dense_path, hnsw_threshold=settings.index.hnsw_threshold)
             if dense_path.exists() else DenseIndex(embedder.dim,
                                                    hnsw_threshold=settings.index.hnsw_threshold))
    if dense.dim != embedder.dim:
        raise StaleIndex(f"dense index has dimension {dense.dim}, the model gives {embedder.dim}",
                         path=dense_path, hint=_rebuild_hint(settings))
    if stale:
        rows = [indexed[c][1] for c in stale]
        if dense.is_hnsw:
            raise StaleIndex("changed chunks cannot be removed from an HNSW index in place",
                             path=dense_path, hint=_rebuild_hint(settings))
        dense.remove(rows)
    meta = _chunk_meta(store, fresh)
    texts = [passage_text(meta[c]["title"], meta[c]["text"]) for c in fresh]
    progress.start(len(fresh), "embed")
    reported = 0

    def on_batch(done: int, total: int) -> None:
        nonlocal reported
        progress.advance(done - reported)
        reported = done

    vectors = embedder.encode_passages(texts, on_batch=on_batch)
    progress.done()
    next_row = (store.scalar("SELECT coalesce(max(row_id), -1) FROM dense_rows") or -1) + 1
    row_ids = list(range(next_row, next_row + len(fresh)))
    if fresh:
        dense.add(vectors, row_ids)
    # BM25: replace every chunk of the papers that changed (deleted chunks go with them).
    lexical_dir = index_dir / LEXICAL_DIR
    lexical_ids = _all_chunks_of(store, touched_papers, meta)
    windows = neighbour_windows([meta[c] for c in lexical_ids])
    docs = [Bm25Doc(chunk_id=c, paper_id=meta[c]["paper_id"], text=meta[c]["text"],
                    title=meta[c]["title"] or "", section=meta[c]["section"],
                    year=meta[c]["year"], evidence_type=meta[c]["evidence_type"],
                    kind=meta[c]["kind"], venue=meta[c]["venue"] or "", window=windows[c])
            for c in lexical_ids]
    if rebuild or manifest is None or lexical_stale:
        build_bm25(lexical_dir, docs, rebuild=True)
    else:
        if touched_papers:
            delete_by_paper(lexical_dir, touched_papers)
        add_bm25(lexical_dir, docs)
    dense.save(dense_path)
    with store.transaction() as conn:
        if stale:
            conn.execute("DELETE FROM dense_rows WHERE chunk_id IN (SELECT unnest(?))", [stale])
        if fresh:
            conn.execute(
                "INSERT INTO dense_rows SELECT unnest(?), unnest(?), unnest(?), ?",
                [row_ids, fresh, [current[c][0] for c in fresh], embedder.model_id],
            )
    total = len(current)
    _write_manifest(index_dir, {
        "format": INDEX_FORMAT,
        "sciverify_version": __version__,
        "chunk_count": total,
        "bm25": {"fingerprint": prints["bm25"], "chunk_count": total},
        "dense": {"fingerprint": prints["dense"], "model": embedder.model_id,
                  "dim": embedder.dim, "chunk_count": total, "hnsw": dense.is_hnsw},
    })
    return IndexReport(total, len(fresh), len(stale), time.perf_counter() - started,
                       embedder.model_id, embedder.dim)


def neighbour_windows(chunks: list[dict[str, Any]]) -> dict[str, str]:
    """Each chunk's text joined with the previous and next chunk of its section (BM25 `window`).

    `chunks` are rows with chunk_id, paper_id, section_ordinal, ordinal and text; a chunk whose
    neighbours are not among them gets only the neighbours that are.
    """
    sections: dict[tuple[str, Any, str], list[dict[str, Any]]] = {}
    for row in chunks:
        key = (row["paper_id"], row["section_ordinal"], row["section"])
        sections.setdefault(key, []).append(row)
    windows: dict[str, str] = {}
    for rows in sections.values():
        rows.sort(key=lambda r: r["ordinal"])
        for i, row in enumerate(rows):
            windows[row["chunk_id"]] = "\n\n".join(r["text"] for r in rows[max(0, i - 1) : i + 2])
    return windows


def _chunk_meta(store: Any, chunk_ids: list[str]) -> dict[str, dict[str, Any]]:
    if not chunk_ids:
        return {}
    rows = store.rows(
        "SELECT c.chunk_id, c.paper_id, c.section_ordinal, c.ordinal, c.text, c.section,"
        " c.evidence_type, c.kind,"
        " w.title, w.year, w.venue FROM chunks c JOIN works w USING (paper_id)"
        " WHERE c.chunk_id IN (SELECT unnest(?))",
        [chunk_ids],
    )
    return {r["chunk_id"]: r for r in rows}


def _all_chunks_of(store: Any, paper_ids: list[str], meta: dict[str, dict[str, Any]]) -> list[str]:
    if not paper_ids:
        return []
    ids = [r[0] for r in store.execute(
        "SELECT chunk_id FROM chunks WHERE paper_id IN (SELECT unnest(?)) ORDER BY chunk_id",
        [paper_ids]).fetchall()]
    missing = [c for c in ids if c not in meta]
    meta.update(_chunk_meta(store, missing))
    return ids


def check_fresh(store: Any, settings: Any, model_id: str) -> dict[str, Any]:
    """The manifest, when the indexes exist, match the settings and cover the stored chunks."""
    manifest = read_manifest(settings.index_dir)
    if manifest is None:
        raise StaleIndex("this corpus has no index yet", path=settings.index_dir,
                         hint=f"run: sciverify index --corpus {settings.corpus}")
    prints = fingerprints(settings, model_id)
    for name in ("bm25", "dense"):
        if manifest.get(name, {}).get("fingerprint") != prints[name]:
            # `index` rebuilds a stale lexical index by itself; a stale dense one needs --rebuild.
            hint = (_rebuild_hint(settings) if name == "dense"
                    else f"run: sciverify index --corpus {settings.corpus}")
            raise StaleIndex(
                f"the {name} index was built with other settings than the current ones",
                path=settings.index_dir, hint=hint,
            )
    stored = store.scalar("SELECT count(*) FROM chunks")
    unindexed = store.scalar(
        "SELECT count(*) FROM chunks c LEFT JOIN dense_rows d USING (chunk_id)"
        " WHERE d.chunk_id IS NULL OR d.text_hash <> c.text_hash")
    if unindexed:
        raise StaleIndex(
            f"{unindexed} of {stored} chunks are not indexed yet",
            path=settings.index_dir, hint=f"run: sciverify index --corpus {settings.corpus}",
        )
    return manifest
