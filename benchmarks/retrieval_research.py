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
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sciverify.fusion import (
    max_by_group,
    minmax_fusion,
    rrf_fusion,
    zscore_fusion,
)
from sciverify.index.bm25 import Bm25Doc, Bm25Index, build_bm25
from sciverify.index.dense import DenseIndex, Embedder
from sciverify.metrics import evaluate

Run = dict[str, list[tuple[str, float]]]
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
            out.append(Passage(f"{paper.doc_id}:{len(out)}", paper.doc_id, paper.title, " ".join(current)))
            current, size = [], 0
        current.append(sentence)
        size += n
    if current or not out:
        out.append(Passage(f"{paper.doc_id}:{len(out)}", paper.doc_id, paper.title, " ".join(current)))
    return out


def cached_embeddings(out: Path, name: str, texts: list[str], encode: Callable[..., np.ndarray]) -> np.ndarray:
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
            print(f"  embed {name}: {done}/{total} ({time.perf_counter() - t0:.0f}s)", file=sys.stderr)

    vectors = encode(texts, on_batch=report)
    np.save(path, vectors)
    return vectors


# --------------------------------------------------------------------------- runs


def bm25_run(index: Bm25Index, queries: dict[str, str], depth: int, weights: dict[str, float]) -> Run:
    return {qid: index.search(text, depth, field_weights=weights) for qid, text in queries.items()}


def dense_run(q_vecs: np.ndarray, qids: list[str], p_vecs: np.ndarray, ids: list[str], depth: int) -> Run:
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


def rescored_fusion(
    lexical: Ranked,
    dense_exact: dict[str, float],
    dense_top: Ranked,
    alpha: float,
    method: str,
) -> Ranked:
    """Convex fusion over the union of both candidate lists, with the exact cosine of every
    candidate (not 0 for candidates the dense top-k missed). BM25 of a candidate missing from
    the lexical list counts as the lowest lexical score seen."""
    candidates = {d for d, _ in lexical} | {d for d, _ in dense_top}
    lex = dict(lexical)
    floor = min(lex.values()) if lex else 0.0
    lex_full = [(d, lex.get(d, floor)) for d in candidates]
    den_full = [(d, dense_exact[d]) for d in candidates]
    fuse = minmax_fusion if method == "minmax" else zscore_fusion
    return fuse([lex_full, den_full], weights=[1 - alpha, alpha])


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
    lines = ["| level | mode | variant | nDCG@10 | Recall@100 | MRR@10 |", "|---|---|---|---|---|---|"]
    for r in rows:
        f = r.figures
        lines.append(
            f"| {r.level} | {r.mode} | {r.variant} | {f['ndcg@10']:.4f} | {f['recall@100']:.4f} | {f['mrr@10']:.4f} |"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- experiments


def build_index(path: Path, docs: Iterable[Bm25Doc]) -> Bm25Index:
    if path.exists():
        shutil.rmtree(path)
    build_bm25(path, docs, rebuild=True)
    return Bm25Index.open(path)


BM25_VARIANTS: dict[str, dict[str, float]] = {
    "title+text separate fields": {"title": 1.0, "text": 1.0},
    "combined body field": {"body": 1.0},
    "body + title x0.2": {"body": 1.0, "title": 0.2},
    "body + title x0.3": {"body": 1.0, "title": 0.3},
    "body + title x0.5": {"body": 1.0, "title": 0.5},
    "body + title x1.0": {"body": 1.0, "title": 1.0},
}


def bm25_experiments(level: str, index: Bm25Index, queries: dict[str, str], qrels, paper_of) -> tuple[list[Row], dict[str, Run]]:
    rows, runs = [], {}
    for name, weights in BM25_VARIANTS.items():
        run = bm25_run(index, queries, 1000, weights)
        runs[name] = run
        rows.append(row(level, "bm25", name, qrels, to_papers(run, paper_of)))
    return rows, runs


def alpha_grid(
    name: str,
    qrels: dict[str, dict[str, int]],
    make: Callable[[float], Run],
    alphas: Iterable[float],
) -> tuple[float, dict[float, Run]]:
    """Runs for every dense weight; the best weight on all train queries."""
    runs = {a: make(a) for a in alphas}
    best = max(runs, key=lambda a: evaluate(qrels, runs[a])["ndcg@10"])
    return best, runs


def two_fold(qrels: dict[str, dict[str, int]], runs: dict[float, Run]) -> tuple[float, str]:
    """Honest estimate of a tuned weight: pick it on one half of the queries, score the other half."""
    qids = sorted(qrels, key=int)
    folds = [{q: qrels[q] for q in qids[i::2]} for i in (0, 1)]
    total, picked = 0.0, []
    for tune, test in ((folds[0], folds[1]), (folds[1], folds[0])):
        a = max(runs, key=lambda w: evaluate(tune, runs[w])["ndcg@10"])
        picked.append(f"{a:.2f}")
        total += evaluate(test, runs[a])["ndcg@10"] * len(test)
    return total / len(qrels), "/".join(picked)


def hybrid_experiments(
    level: str,
    qrels: dict[str, dict[str, int]],
    lexical: Run,
    dense_top: Run,
    dense_exact: Callable[[str, set[str]], dict[str, float]],
    paper_of: Callable[[str], str],
    notes: list[str],
) -> list[Row]:
    """Fusion variants over one lexical and one dense run (ids are chunks or papers)."""
    rows = []

    def cut(run: Run, depth: int) -> Run:
        return {q: r[:depth] for q, r in run.items()}

    def papers(run: Run) -> Run:
        return to_papers(run, paper_of)

    for depth in (100, 1000):
        run = fused_run([cut(lexical, depth), cut(dense_top, depth)], lambda rs: rrf_fusion(rs, k=60))
        rows.append(row(level, "hybrid", f"RRF k=60, top-{depth} each", qrels, papers(run)))
    lex100, den100 = cut(lexical, 100), cut(dense_top, 100)
    run = fused_run([lex100, den100], lambda rs: minmax_fusion(rs, weights=[0.5, 0.5]))
    rows.append(row(level, "hybrid", "min-max 50/50, top-100 each, missing=0", qrels, papers(run)))
    alphas = [round(0.05 * i, 2) for i in range(4, 17)]
    for method, fuse in (("min-max", minmax_fusion), ("z-score", zscore_fusion)):
        for depth in (100, 200):
            lx, dn = cut(lexical, depth), cut(dense_top, depth)
            best, runs = alpha_grid(
                method, qrels, lambda a: papers(fused_run([lx, dn], lambda rs: fuse(rs, weights=[1 - a, a]))), alphas
            )
            cv, picked = two_fold(qrels, runs)
            rows.append(row(level, "hybrid", f"{method} dense weight {best:.2f} (tuned), top-{depth} each", qrels, runs[best]))
            notes.append(f"{level} {method} top-{depth}: 2-fold CV nDCG@10 {cv:.4f} (weights picked {picked})")
    exact_cache: dict[tuple[str, int], dict[str, float]] = {}
    for method in ("minmax", "zscore"):
        for depth in (100, 200):
            def make(a: float, depth: int = depth, method: str = method) -> Run:
                out: Run = {}
                for q in lexical:
                    lx, dn = lexical[q][:depth], dense_top[q][:depth]
                    key = (q, depth)
                    if key not in exact_cache:
                        exact_cache[key] = dense_exact(q, {d for d, _ in lx} | {d for d, _ in dn})
                    out[q] = list(rescored_fusion(lx, exact_cache[key], dn, a, method))
                return papers(out)

            best, runs = alpha_grid(method, qrels, make, alphas)
            cv, picked = two_fold(qrels, runs)
            label = "min-max" if method == "minmax" else "z-score"
            rows.append(
                row(level, "hybrid", f"{label} + exact dense re-score, weight {best:.2f}, top-{depth} each", qrels, runs[best])
            )
            notes.append(f"{level} {label} re-scored top-{depth}: 2-fold CV nDCG@10 {cv:.4f} (weights picked {picked})")
    return rows


# --------------------------------------------------------------------------- latency


def percentiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p50 = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"p50 {p50:.1f} ms, p95 {p95:.1f} ms"


def measure_latency(
    bm25: Bm25Index,
    dense: DenseIndex,
    embedder: Embedder,
    row_of: dict[str, int],
    chunk_of: list[str],
    texts: list[str],
    hybrid: Callable[[Ranked, Ranked, dict[str, float]], Ranked],
    depth: int,
) -> dict[str, str]:
    """Warm per-query latency of the product path at chunk level (one query at a time)."""
    for text in texts[:5]:  # warm the model, the caches and the searcher
        bm25.search(text, depth)
        dense.search(embedder.encode_query(text), depth)
    lex_t, den_t, hyb_t = [], [], []
    for text in texts:
        t0 = time.perf_counter()
        lexical = bm25.search(text, depth)
        t1 = time.perf_counter()
        rows, scores = dense.search(embedder.encode_query(text), depth)
        t2 = time.perf_counter()
        lex_t.append(t1 - t0)
        den_t.append(t2 - t1)
        t3 = time.perf_counter()
        lexical = bm25.search(text, depth)
        vector = embedder.encode_query(text)
        rows, scores = dense.search(vector, depth)
        dense_top = [(chunk_of[r], s) for r, s in zip(rows, scores)]
        candidates = sorted({c for c, _ in lexical} | {c for c, _ in dense_top})
        exact = dense.score_rows(vector, [row_of[c] for c in candidates])
        hybrid(lexical, dense_top, dict(zip(candidates, exact.tolist())))
        hyb_t.append(time.perf_counter() - t3)
    return {"bm25": percentiles(lex_t), "dense (incl. query encoding)": percentiles(den_t), "hybrid": percentiles(hyb_t)}


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, required=True, help="the shared corpora folder")
    parser.add_argument("--out", type=Path, default=Path("bench_out"), help="cache and report folder")
    parser.add_argument("--chunk-tokens", type=int, default=200, help="passage size for the chunk level")
    parser.add_argument("--latency-queries", type=int, default=300)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    papers, queries, qrels = load_scifact(args.corpora)
    qids = sorted(queries)
    embedder = Embedder()
    q_vecs = cached_embeddings(args.out, "queries", [queries[q] for q in qids], embedder.encode_queries)
    doc_ids = [p.doc_id for p in papers]
    doc_vecs = cached_embeddings(args.out, "doc", [f"{p.title} {p.text}" for p in papers], embedder.encode_passages)
    passages = [c for p in papers for c in split_passages(p, args.chunk_tokens)]
    chunk_ids = [c.chunk_id for c in passages]
    chunk_vecs = cached_embeddings(
        args.out, f"chunk{args.chunk_tokens}_title", [f"{c.title} {c.text}" for c in passages], embedder.encode_passages
    )
    rows: list[Row] = []
    notes: list[str] = [
        f"{len(papers)} papers, {len(passages)} passages of <= {args.chunk_tokens} whitespace tokens, {len(qids)} train queries"
    ]

    def paper_of(cid: str) -> str:
        return cid.split(":")[0]

    q_row = {q: i for i, q in enumerate(qids)}

    # ---- document level: one indexed unit per abstract
    bm25_doc = build_index(args.out / "bm25_doc", (Bm25Doc(p.doc_id, p.doc_id, p.text, title=p.title) for p in papers))
    bm25_rows, bm25_runs = bm25_experiments("doc", bm25_doc, queries, qrels, lambda d: d)
    rows += bm25_rows
    lexical_doc = bm25_run(bm25_doc, queries, 1000, dict(DEFAULT_FIELD_WEIGHTS))
    rows.append(row("doc", "bm25", f"DEFAULT {dict(DEFAULT_FIELD_WEIGHTS)}", qrels, lexical_doc))

    dense_doc = dense_run(q_vecs, qids, doc_vecs, doc_ids, 1000)
    rows.append(row("doc", "dense", "title + abstract (truncated at 256 word pieces)", qrels, dense_doc))
    dense_psg = to_papers(dense_run(q_vecs, qids, chunk_vecs, chunk_ids, 3000), paper_of)
    rows.append(row("doc", "dense", f"max over <= {args.chunk_tokens}-token passages (title + passage)", qrels, dense_psg))
    both = {q: list(max_by_group(dense_doc[q] + dense_psg[q], lambda d: d)) for q in qids}
    rows.append(row("doc", "dense", "max(whole abstract, best passage)", qrels, both))

    doc_index = {d: i for i, d in enumerate(doc_ids)}

    def exact_doc(q: str, ids: set[str]) -> dict[str, float]:
        vec = q_vecs[q_row[q]]
        return {d: float(doc_vecs[doc_index[d]] @ vec) for d in ids}

    rows += hybrid_experiments("doc", qrels, lexical_doc, dense_doc, exact_doc, lambda d: d, notes)

    # ---- chunk level: the product's unit; a paper scores by its best chunk
    bm25_chunk = build_index(
        args.out / "bm25_chunk",
        (Bm25Doc(c.chunk_id, c.doc_id, c.text, title=c.title, section="Abstract") for c in passages),
    )
    chunk_rows, _ = bm25_experiments("chunk", bm25_chunk, queries, qrels, paper_of)
    rows += chunk_rows
    lexical_chunk = bm25_run(bm25_chunk, queries, 1000, dict(DEFAULT_FIELD_WEIGHTS))
    rows.append(row("chunk", "bm25", f"DEFAULT {dict(DEFAULT_FIELD_WEIGHTS)}", qrels, to_papers(lexical_chunk, paper_of)))
    dense_chunk = dense_run(q_vecs, qids, chunk_vecs, chunk_ids, 1000)
    rows.append(row("chunk", "dense", "title + chunk text", qrels, to_papers(dense_chunk, paper_of)))
    chunk_index = {c: i for i, c in enumerate(chunk_ids)}

    def exact_chunk(q: str, ids: set[str]) -> dict[str, float]:
        vec = q_vecs[q_row[q]]
        return {c: float(chunk_vecs[chunk_index[c]] @ vec) for c in ids}

    rows += hybrid_experiments("chunk", qrels, lexical_chunk, dense_chunk, exact_chunk, paper_of, notes)
    rows += default_recipe_rows(qrels, lexical_doc, dense_doc, exact_doc, lexical_chunk, dense_chunk, exact_chunk, paper_of)

    # ---- warm latency of the product path (chunk level, real indexes)
    dense_index = DenseIndex(chunk_vecs.shape[1])
    dense_index.add(chunk_vecs, range(len(chunk_ids)))
    latency = measure_latency(
        bm25_chunk,
        dense_index,
        embedder,
        chunk_index,
        chunk_ids,
        [queries[q] for q in qids[: args.latency_queries]],
        lambda lx, dn, ex: hybrid_fusion(lx, dn, dense_exact=ex),
        DEFAULT_DEPTH,
    )
    table = markdown(rows)
    report = "\n\n".join(
        [
            "# Retrieval research on SciFact (train queries)",
            table,
            "\n".join(f"- {n}" for n in notes),
            "Warm latency, chunk level, one query at a time, "
            f"{args.latency_queries} queries, top-{DEFAULT_DEPTH}:\n"
            + "\n".join(f"- {k}: {v}" for k, v in latency.items()),
        ]
    )
    (args.out / "retrieval_research.md").write_text(report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
