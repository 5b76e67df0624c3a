"""Ranking metrics with BEIR / trec_eval conventions: nDCG@k, Recall@k, MRR@k.

- qrels: query id -> {doc id: grade}; a grade > 0 is relevant. The ideal DCG comes from the
  qrels (all graded documents, best first), not from the retrieved list.
- gain is the grade itself (trec_eval's linear gain), discount 1 / log2(rank + 1).
- runs: query id -> [(doc id, score)]; each run is ranked by score, best first, ties by doc id.
- A query with no relevant document in the qrels is skipped; a query that has relevant
  documents but no run scores 0. Averages are over the counted queries.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Qrels = Mapping[str, Mapping[str, int]]
Runs = Mapping[str, Sequence[tuple[str, float]]]


def ranked_ids(run: Sequence[tuple[str, float]]) -> list[str]:
    """Document ids by descending score, ties broken by ascending id, first occurrence kept."""
    seen: set[str] = set()
    out = []
    for doc, _ in sorted(run, key=lambda pair: (-pair[1], pair[0])):
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


def dcg(gains: Sequence[float]) -> float:
    return sum(g / math.log2(rank + 2) for rank, g in enumerate(gains))


def ndcg_at(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    ideal = dcg(sorted((g for g in judged.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        return 0.0
    return dcg([max(judged.get(doc, 0), 0) for doc in ranking[:k]]) / ideal


def recall_at(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    relevant = {doc for doc, g in judged.items() if g > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def mrr_at(ranking: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    for rank, doc in enumerate(ranking[:k], start=1):
        if judged.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def _mean_over(qrels: Qrels, runs: Runs, k: int, metric: str) -> float:
    fn = {"ndcg": ndcg_at, "recall": recall_at, "mrr": mrr_at}[metric]
    values = []
    for qid, judged in qrels.items():
        if not any(g > 0 for g in judged.values()):
            continue
        values.append(fn(ranked_ids(runs.get(qid, ())), judged, k))
    return sum(values) / len(values) if values else 0.0


def ndcg(qrels: Qrels, runs: Runs, k: int = 10) -> float:
    """Mean nDCG@k over the queries of `qrels` that have a relevant document."""
    return _mean_over(qrels, runs, k, "ndcg")


def recall(qrels: Qrels, runs: Runs, k: int = 100) -> float:
    """Mean Recall@k: the share of each query's relevant documents found in its top k."""
    return _mean_over(qrels, runs, k, "recall")


def mrr(qrels: Qrels, runs: Runs, k: int = 10) -> float:
    """Mean reciprocal rank of the first relevant document within the top k (0 if none)."""
    return _mean_over(qrels, runs, k, "mrr")


def evaluate(
    qrels: Qrels, runs: Runs, *, ndcg_k: int = 10, recall_k: int = 100, mrr_k: int = 10
) -> dict[str, float]:
    """The three headline figures: {"ndcg@10": ..., "recall@100": ..., "mrr@10": ...}."""
    return {
        f"ndcg@{ndcg_k}": ndcg(qrels, runs, ndcg_k),
        f"recall@{recall_k}": recall(qrels, runs, recall_k),
        f"mrr@{mrr_k}": mrr(qrels, runs, mrr_k),
    }


__all__ = [
    "dcg",
    "evaluate",
    "mrr",
    "mrr_at",
    "ndcg",
    "ndcg_at",
    "ranked_ids",
    "recall",
    "recall_at",
]
