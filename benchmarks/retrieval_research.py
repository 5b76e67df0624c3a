"""Retrieval research on BEIR SciFact (train queries only): BM25, dense and fusion variants.

Usage:
    python benchmarks/retrieval_research.py --corpora ../shared/corpora --out bench_out

Embeddings are cached under --out (`emb_*.npy`), so only the first run encodes the corpus.
Prints a Markdown table of nDCG@10 / Recall@100 / MRR@10 per variant and writes it to
`--out/retrieval_research.md` with the latencies.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sciverify.fusion import (
    DEFAULT_DEPTH,
    hybrid_fusion,
    max_by_group,
    minmax_fusion,
    rrf_fusion,
    zscore_fusion,
)
from sciverify.index import neighbour_windows
from sciverify.index.bm25 import DEFAULT_FIELD_WEIGHTS, Bm25Doc, Bm25Index, build_bm25
from sciverify.index.dense import DenseIndex, Embedder
from sciverify.metrics import evaluate

Run = dict[str, list[tuple[str, float]]]
Qrels = dict[str, dict[str, int]]
Ranked = list[tuple[str, float]]


@dataclass(frozen=True)
class Paper:
    doc_id: str
    title: str
    sentences: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


@dataclass(frozen=True)
class Passage:
    chunk_id: str
    doc_id: str
    title: str
    text: str


def load_scifact(root: Path) -> tuple[list[Paper], dict[str, str], dict[str, dict[str, int]]]:
    """Papers (sentences from the SciFact corpus, same text as the BEIR corpus), train queries, qrels."""
    beir = root / "scifact" / "beir"
    papers = []
    with gzip.open(root / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            sentences = tuple(s.strip() for s in row["abstract"] if s.strip())
            papers.append(Paper(str(row["doc_id"]), row["title"].strip(), sentences))
    qrels: dict[str, dict[str, int]] = {}
    for line in (beir / "qrels" / "train.tsv").read_text().splitlines()[1:]:
        qid, doc, grade = line.split("\t")
        qrels.setdefault(qid, {})[doc] = int(grade)
    queries = {}
    for line in (beir / "queries.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["_id"] in qrels:
            queries[row["_id"]] = row["text"]
    return papers, queries, qrels


def split_passages(paper: Paper, max_tokens: int) -> list[Passage]:
    """Sentence-aligned passages of at most `max_tokens` whitespace tokens (a longer sentence stands alone)."""
    out: list[Passage] = []
    current: list[str] = []
    size = 0
    for sentence in paper.sentences:
        n = len(sentence.split())
        if current and size + n > max_tokens:
            out.append(
                Passage(f"{paper.doc_id}:{len(out)}", paper.doc_id, paper.title, " ".join(current))
            )
            current, size = [], 0
        current.append(sentence)
        size += n
    if current or not out:
        out.append(
            Passage(f"{paper.doc_id}:{len(out)}", paper.doc_id, paper.title, " ".join(current))
        )
    return out


def cached_embeddings(
    out: Path, name: str, texts: list[str], encode: Callable[..., np.ndarray]
) -> np.ndarray:
    path = out / f"emb_{name}.npy"
    if path.is_file():
        cached = np.load(path)
        if len(cached) == len(texts):
            return cached
    t0 = time.perf_counter()
    last = [0.0]

    def report(done: int, total: int) -> None:
        if time.perf_counter() - last[0] > 30 or done == total:
            last[0] = time.perf_counter()
            print(
                f"  embed {name}: {done}/{total} ({time.perf_counter() - t0:.0f}s)", file=sys.stderr
            )

    vectors = encode(texts, on_batch=report)
    np.save(path, vectors)
    return vectors


# --------------------------------------------------------------------------- runs


def bm25_run(
    index: Bm25Index, queries: dict[str, str], depth: int, weights: dict[str, float]
) -> Run:
    return {qid: index.search(text, depth, field_weights=weights) for qid, text in queries.items()}


def dense_run(
    q_vecs: np.ndarray, qids: list[str], p_vecs: np.ndarray, ids: list[str], depth: int
) -> Run:
    """Exact top-`depth` by inner product (what DenseIndex's flat index returns)."""
    scores = q_vecs @ p_vecs.T
    out: Run = {}
    for row, qid in enumerate(qids):
        top = np.argpartition(-scores[row], min(depth, len(ids) - 1))[:depth]
        pairs = [(ids[j], float(scores[row, j])) for j in top]
        out[qid] = sorted(pairs, key=lambda p: (-p[1], p[0]))
    return out


def to_papers(run: Run, paper_of: Callable[[str], str]) -> Run:
    return {qid: max_by_group(ranked, paper_of) for qid, ranked in run.items()}


def fused_run(runs: list[Run], how: Callable[[list[Ranked]], Ranked]) -> Run:
    return {qid: list(how([r[qid] for r in runs])) for qid in runs[0]}


# --------------------------------------------------------------------------- table


@dataclass
class Row:
    level: str
    mode: str
    variant: str
    figures: dict[str, float]


def row(level: str, mode: str, variant: str, qrels: dict[str, dict[str, int]], run: Run) -> Row:
    r = Row(level, mode, variant, evaluate(qrels, run))
    f = r.figures
    print(
        f"{level:5} {mode:6} {variant:58} ndcg@10 {f['ndcg@10']:.4f}  R@100 {f['recall@100']:.4f}  mrr@10 {f['mrr@10']:.4f}",
        file=sys.stderr,
    )
    return r


def markdown(rows: list[Row]) -> str:
    lines = [
        "| level | mode | variant | nDCG@10 | Recall@100 | MRR@10 |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        f = r.figures
        lines.append(
            f"| {r.level} | {r.mode} | {r.variant} | {f['ndcg@10']:.4f} | {f['recall@100']:.4f} | {f['mrr@10']:.4f} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- experiments


def build_index(path: Path, docs: Iterable[Bm25Doc]) -> Bm25Index:
    build_bm25(path, docs, rebuild=True)
    return Bm25Index.open(path)


BM25_VARIANTS: dict[str, dict[str, float]] = {
    "title + text as separate fields": {"title": 1.0, "text": 1.0},
    "one combined body field (title + text)": {"body": 1.0},
    "body + title x0.2": {"body": 1.0, "title": 0.2},
    "window (title + chunk and its neighbours) + title x0.2": {"window": 1.0, "title": 0.2},
    "window + body x0.2 + title x0.2": {"window": 1.0, "body": 0.2, "title": 0.2},
    "body + title x0.5": {"body": 1.0, "title": 0.5},
    "body + title x1.0": {"body": 1.0, "title": 1.0},
}
ALPHAS = [round(0.05 * i, 2) for i in range(6, 15)]  # dense weights 0.30 .. 0.70


def bm25_experiments(
    level: str,
    index: Bm25Index,
    queries: dict[str, str],
    qrels: Qrels,
    paper_of: Callable[[str], str],
) -> list[Row]:
    return [
        row(
            level, "bm25", name, qrels, to_papers(bm25_run(index, queries, 1000, weights), paper_of)
        )
        for name, weights in BM25_VARIANTS.items()
    ]


def two_fold(qrels: Qrels, runs: dict[float, Run]) -> tuple[float, str]:
    """Honest estimate of a tuned weight: pick it on one half of the queries, score the other half."""
    qids = sorted(qrels, key=int)
    folds = [{q: qrels[q] for q in qids[i::2]} for i in (0, 1)]
    total, picked = 0.0, []
    for tune, test in ((folds[0], folds[1]), (folds[1], folds[0])):
        a = max(runs, key=lambda w: evaluate(tune, runs[w])["ndcg@10"])
        picked.append(f"{a:.2f}")
        total += evaluate(test, runs[a])["ndcg@10"] * len(test)
    return total / len(qrels), "/".join(picked)


def tuned(
    level: str, name: str, qrels: Qrels, make: Callable[[float], Run], notes: list[str]
) -> Row:
    """Tune the dense weight on all train queries; note the 2-fold cross-validated figure."""
    runs = {a: make(a) for a in ALPHAS}
    best = max(runs, key=lambda a: evaluate(qrels, runs[a])["ndcg@10"])
    cv, picked = two_fold(qrels, runs)
    notes.append(
        f"{level} / {name}: best dense weight {best:.2f}; 2-fold CV nDCG@10 {cv:.4f} (weights picked {picked})"
    )
    return row(level, "hybrid", f"{name}, dense weight {best:.2f} (tuned)", qrels, runs[best])


@dataclass
class Level:
    """Everything one level (doc or chunk) needs: runs, exact scorers and the id -> paper map."""

    name: str
    lexical: Run  # default BM25, top-1000
    dense: Run  # exact top-1000
    bm25: Bm25Index
    exact_dense: Callable[[str, set[str]], dict[str, float]]
    paper_of: Callable[[str], str]


def hybrid_experiments(
    lv: Level, queries: dict[str, str], qrels: Qrels, notes: list[str]
) -> list[Row]:
    rows = []

    def cut(run: Run, depth: int) -> Run:
        return {q: r[:depth] for q, r in run.items()}

    def papers(run: Run) -> Run:
        return to_papers(run, lv.paper_of)

    lx100, dn100 = cut(lv.lexical, 100), cut(lv.dense, 100)
    for depth in (100, 1000):
        run = fused_run(
            [cut(lv.lexical, depth), cut(lv.dense, depth)], lambda rs: rrf_fusion(rs, k=60)
        )
        rows.append(row(lv.name, "hybrid", f"RRF k=60, top-{depth} each", qrels, papers(run)))
    run = fused_run([lx100, dn100], lambda rs: minmax_fusion(rs, weights=[0.5, 0.5]))
    rows.append(
        row(
            lv.name,
            "hybrid",
            "min-max 50/50 of the lists, top-100 each, missing = 0",
            qrels,
            papers(run),
        )
    )
    for label, fuse in (
        ("min-max of the lists", minmax_fusion),
        ("z-score of the lists", zscore_fusion),
    ):
        rows.append(
            tuned(
                lv.name,
                f"{label}, top-100 each",
                qrels,
                lambda a, f=fuse: papers(
                    fused_run([lx100, dn100], lambda rs: f(rs, weights=[1 - a, a]))
                ),
                notes,
            )
        )
    exact: dict[tuple[str, int], tuple[dict[str, float], dict[str, float]]] = {}

    def candidates_exact(q: str, depth: int) -> tuple[dict[str, float], dict[str, float]]:
        if (q, depth) not in exact:
            ids = {d for d, _ in lv.lexical[q][:depth]} | {d for d, _ in lv.dense[q][:depth]}
            exact[(q, depth)] = (lv.exact_dense(q, ids), lv.bm25.score_chunks(queries[q], ids))
        return exact[(q, depth)]

    def recipe(a: float, depth: int, *, dense_exact: bool, lexical_exact: bool) -> Run:
        out: Run = {}
        for q in lv.lexical:
            den, lex = candidates_exact(q, depth)
            out[q] = hybrid_fusion(
                lv.lexical[q][:depth],
                lv.dense[q][:depth],
                dense_weight=a,
                dense_exact=den if dense_exact else None,
                lexical_exact=lex if lexical_exact else None,
            )
        return papers(out)

    for depth in (100, DEFAULT_DEPTH):
        rows.append(
            row(
                lv.name,
                "hybrid",
                f"BM25/max + cosine min-max, lists only, top-{depth}, w=0.5",
                qrels,
                recipe(0.5, depth, dense_exact=False, lexical_exact=False),
            )
        )
        rows.append(
            row(
                lv.name,
                "hybrid",
                f"... + exact cosine of every candidate, top-{depth}, w=0.5",
                qrels,
                recipe(0.5, depth, dense_exact=True, lexical_exact=False),
            )
        )
        rows.append(
            row(
                lv.name,
                "hybrid",
                f"... + exact BM25 of every candidate too, top-{depth}, w=0.5",
                qrels,
                recipe(0.5, depth, dense_exact=True, lexical_exact=True),
            )
        )
    rows.append(
        tuned(
            lv.name,
            f"DEFAULT recipe, top-{DEFAULT_DEPTH}",
            qrels,
            lambda a: recipe(a, DEFAULT_DEPTH, dense_exact=True, lexical_exact=True),
            notes,
        )
    )
    return rows


# --------------------------------------------------------------------------- latency


def percentiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms"


def measure_latency(
    bm25: Bm25Index,
    dense: DenseIndex,
    embedder: Embedder,
    chunk_ids: list[str],
    texts: list[str],
    depth: int,
) -> dict[str, str]:
    """Warm per-query latency of the default path at chunk level, one query at a time."""
    row_of = {c: i for i, c in enumerate(chunk_ids)}
    for text in texts[:5]:  # warm the model, the caches and the searcher
        bm25.search(text, depth)
        dense.search(embedder.encode_query(text), depth)
    lex_t, den_t, hyb_t = [], [], []
    for text in texts:
        t0 = time.perf_counter()
        bm25.search(text, depth)
        t1 = time.perf_counter()
        dense.search(embedder.encode_query(text), depth)
        t2 = time.perf_counter()
        lexical = bm25.search(text, depth)
        vector = embedder.encode_query(text)
        rows, scores = dense.search(vector, depth)
        dense_top = [(chunk_ids[r], s) for r, s in zip(rows, scores)]
        candidates = sorted({c for c, _ in lexical} | {c for c, _ in dense_top})
        exact = dict(
            zip(candidates, dense.score_rows(vector, [row_of[c] for c in candidates]).tolist())
        )
        hybrid_fusion(
            lexical, dense_top, dense_exact=exact, lexical_exact=bm25.score_chunks(text, candidates)
        )
        t3 = time.perf_counter()
        lex_t.append(t1 - t0)
        den_t.append(t2 - t1)
        hyb_t.append(t3 - t2)
    return {
        "bm25": percentiles(lex_t),
        "dense (incl. query encoding)": percentiles(den_t),
        "hybrid (default recipe)": percentiles(hyb_t),
    }


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpora", type=Path, required=True, help="the shared corpora folder")
    parser.add_argument(
        "--out", type=Path, default=Path("bench_out"), help="cache and report folder"
    )
    parser.add_argument(
        "--chunk-tokens", type=int, default=200, help="passage size for the chunk level"
    )
    parser.add_argument("--latency-queries", type=int, default=300)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    papers, queries, qrels = load_scifact(args.corpora)
    qids = sorted(queries)
    q_row = {q: i for i, q in enumerate(qids)}
    embedder = Embedder()
    q_vecs = cached_embeddings(
        args.out, "queries", [queries[q] for q in qids], embedder.encode_queries
    )
    doc_ids = [p.doc_id for p in papers]
    doc_vecs = cached_embeddings(
        args.out, "doc", [f"{p.title} {p.text}" for p in papers], embedder.encode_passages
    )
    passages = [c for p in papers for c in split_passages(p, args.chunk_tokens)]
    chunk_ids = [c.chunk_id for c in passages]
    chunk_vecs = cached_embeddings(
        args.out,
        f"chunk{args.chunk_tokens}_title",
        [f"{c.title} {c.text}" for c in passages],
        embedder.encode_passages,
    )
    notes = [
        (
            f"{len(papers)} papers, {len(passages)} passages of <= {args.chunk_tokens} whitespace"
            f" tokens (sentence-aligned), {len(qids)} train queries"
        )
    ]
    rows: list[Row] = []

    def paper_of(cid: str) -> str:
        return cid.split(":")[0]

    def exact_with(vecs: np.ndarray, ids: list[str]) -> Callable[[str, set[str]], dict[str, float]]:
        where = {d: i for i, d in enumerate(ids)}
        return lambda q, wanted: {d: float(vecs[where[d]] @ q_vecs[q_row[q]]) for d in wanted}

    weights = dict(DEFAULT_FIELD_WEIGHTS)
    # ---- document level: one indexed unit per abstract
    bm25_doc = build_index(
        args.out / "bm25_doc", (Bm25Doc(p.doc_id, p.doc_id, p.text, title=p.title) for p in papers)
    )
    rows += bm25_experiments("doc", bm25_doc, queries, qrels, lambda d: d)
    doc = Level(
        "doc",
        bm25_run(bm25_doc, queries, 1000, weights),
        dense_run(q_vecs, qids, doc_vecs, doc_ids, 1000),
        bm25_doc,
        exact_with(doc_vecs, doc_ids),
        lambda d: d,
    )
    rows.append(row("doc", "bm25", f"DEFAULT {weights}", qrels, doc.lexical))
    rows.append(
        row(
            "doc",
            "dense",
            "title + abstract (MiniLM truncates at 256 word pieces)",
            qrels,
            doc.dense,
        )
    )
    rows.append(
        row(
            "doc",
            "dense",
            f"best <= {args.chunk_tokens}-token passage (title + passage)",
            qrels,
            to_papers(dense_run(q_vecs, qids, chunk_vecs, chunk_ids, 3000), paper_of),
        )
    )
    rows += hybrid_experiments(doc, queries, qrels, notes)

    # ---- chunk level: the product's unit; a paper scores by its best chunk
    windows = neighbour_windows([
        {"chunk_id": c.chunk_id, "paper_id": c.doc_id, "section_ordinal": 1, "section": "Abstract",
         "ordinal": int(c.chunk_id.rsplit(":", 1)[1]), "text": c.text} for c in passages])
    bm25_chunk = build_index(
        args.out / "bm25_chunk",
        (
            Bm25Doc(c.chunk_id, c.doc_id, c.text, title=c.title, section="Abstract",
                    window=windows[c.chunk_id])
            for c in passages
        ),
    )
    rows += bm25_experiments("chunk", bm25_chunk, queries, qrels, paper_of)
    chunk = Level(
        "chunk",
        bm25_run(bm25_chunk, queries, 1000, weights),
        dense_run(q_vecs, qids, chunk_vecs, chunk_ids, 1000),
        bm25_chunk,
        exact_with(chunk_vecs, chunk_ids),
        paper_of,
    )
    rows.append(
        row("chunk", "bm25", f"DEFAULT {weights}", qrels, to_papers(chunk.lexical, paper_of))
    )
    rows.append(
        row("chunk", "dense", "title + chunk text", qrels, to_papers(chunk.dense, paper_of))
    )
    rows += hybrid_experiments(chunk, queries, qrels, notes)

    # ---- warm latency of the default path (chunk level, real indexes)
    dense_index = DenseIndex(chunk_vecs.shape[1])
    dense_index.add(chunk_vecs, range(len(chunk_ids)))
    texts = [queries[q] for q in qids[: args.latency_queries]]
    latency = measure_latency(bm25_chunk, dense_index, embedder, chunk_ids, texts, DEFAULT_DEPTH)
    report = "\n\n".join(
        [
            "# Retrieval research on SciFact (train queries)",
            markdown(rows),
            "\n".join(f"- {n}" for n in notes),
            f"Warm latency, chunk level ({len(chunk_ids)} chunks), one query at a time, {len(texts)} queries, "
            f"top-{DEFAULT_DEPTH} each:\n" + "\n".join(f"- {k}: {v}" for k, v in latency.items()),
        ]
    )
    (args.out / "retrieval_research.md").write_text(report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
