"""Retrieval evaluation on BEIR-format data: nDCG@10, Recall@100 and MRR@10 per search mode."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sciverify.errors import InputError
from sciverify.progress import NO_PROGRESS, Progress

PAPER_DEPTH = 100


def read_queries(path: Path) -> dict[str, str]:
    """BEIR queries.jsonl: {"_id", "text"} per line."""
    out: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read queries: {exc.strerror}", path=path) from exc
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            out[str(obj["_id"])] = str(obj["text"])
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{path}:{lineno}: not a BEIR query line ({exc})",
                             hint='each line needs "_id" and "text"') from exc
    return out


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """BEIR qrels TSV with a header: query-id, corpus-id, score."""
    qrels: dict[str, dict[str, int]] = {}
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh, delimiter="\t"))
    except OSError as exc:
        raise InputError(f"cannot read qrels: {exc.strerror}", path=path) from exc
    for lineno, row in enumerate(rows, start=1):
        if lineno == 1 and row and not row[-1].strip().lstrip("-").isdigit():
            continue  # header
        if len(row) < 3:
            raise InputError(f"{path}:{lineno}: expected query-id, corpus-id, score",
                             hint="use BEIR's qrels TSV format")
        qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def prepare_corpus(corpus_jsonl: Path, *, store: Any, settings: Any,
                   progress: Progress = NO_PROGRESS) -> None:
    """Ingest, chunk and index the corpus (each step a no-op when already done)."""
    from sciverify.chunk import chunk
    from sciverify.index import build_index
    from sciverify.ingest import ingest

    report = ingest([corpus_jsonl], store=store, settings=settings, progress=progress)
    if report.failed:
        first = report.failures[0]
        raise InputError(f"{report.failed} corpus record(s) failed, first: {first.path}: "
                         f"{first.reason}", hint=first.hint)
    chunk(store=store, settings=settings, progress=progress)
    build_index(store=store, settings=settings, progress=progress)


def paper_runs(queries: dict[str, str], *, store: Any, settings: Any, mode: str,
               depth: int = PAPER_DEPTH, progress: Progress = NO_PROGRESS
               ) -> tuple[dict[str, list[tuple[str, float]]], list[float]]:
    """Per query, the corpus record ids ranked by their best chunk; plus per-query seconds."""
    from sciverify.search import Fusion, Mode, _indexes, retrieve

    idx = _indexes(store, settings)
    record_of = dict(store.execute(
        "SELECT w.paper_id, v.source_record_id FROM works w"
        " JOIN versions v ON v.version_id = w.current_version_id").fetchall())
    chunk_depth = max(settings.search.depth, depth * 3)
    runs: dict[str, list[tuple[str, float]]] = {}
    seconds: list[float] = []
    progress.start(len(queries), f"eval {mode}")
    for qid, text in queries.items():
        started = time.perf_counter()
        ranked, _l, _d = retrieve(text, idx, mode=Mode(mode), fusion=Fusion(settings.search.fusion),
                                  depth=chunk_depth, k=chunk_depth, filters=None, store=store,
                                  settings=settings)
        seconds.append(time.perf_counter() - started)
        best: dict[str, float] = {}
        for chunk_id, score in ranked:
            record = record_of.get(chunk_id.split(":", 1)[0])
            if record is not None and record not in best:
                best[record] = score
            if len(best) >= depth:
                break
        runs[qid] = list(best.items())
        progress.advance()
    progress.done()
    return runs, seconds


def eval_retrieval(corpus_jsonl: Path, queries_path: Path, qrels_path: Path, *, store: Any,
                   settings: Any, modes: Sequence[str] = ("bm25", "dense", "hybrid"),
                   progress: Progress = NO_PROGRESS) -> dict[str, dict[str, float]]:
    """{"bm25": {"ndcg@10", "recall@100", "mrr@10"}, "dense": ..., "hybrid": ...}.

    Only queries that have judgements are run (BEIR convention).
    """
    from sciverify import metrics

    qrels = read_qrels(qrels_path)
    all_queries = read_queries(queries_path)
    queries = {q: all_queries[q] for q in qrels if q in all_queries}
    missing = [q for q in qrels if q not in all_queries]
    if missing:
        raise InputError(f"{len(missing)} judged queries are missing from {queries_path}, "
                         f"e.g. {missing[0]}", hint="use the queries file that matches the qrels")
    prepare_corpus(corpus_jsonl, store=store, settings=settings, progress=progress)
    out: dict[str, dict[str, float]] = {}
    for mode in modes:
        runs, seconds = paper_runs(queries, store=store, settings=settings, mode=mode,
                                   progress=progress)
        scores = metrics.evaluate(qrels, runs)
        ordered = sorted(seconds)
        out[mode] = {
            "ndcg@10": round(scores["ndcg@10"], 4),
            "recall@100": round(scores["recall@100"], 4),
            "mrr@10": round(scores["mrr@10"], 4),
            "queries": len(queries),
            "p50_ms": round(1000 * ordered[len(ordered) // 2], 2) if ordered else 0.0,
        }
    return out
