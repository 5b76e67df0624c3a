"""Fusion of ranked lists `[(id, score)]` into one ranking. Pure functions, deterministic.

Every function returns `[(id, fused score)]` sorted by descending score, ties by ascending id.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

Ranked = Sequence[tuple[str, float]]


def _sorted(scores: Mapping[str, float]) -> list[tuple[str, float]]:
    return sorted(scores.items(), key=lambda p: (-p[1], p[0]))


def _weights(runs: Sequence[Ranked], weights: Sequence[float] | None) -> Sequence[float]:
    if weights is None:
        return [1.0] * len(runs)
    if len(weights) != len(runs):
        raise ValueError(f"{len(weights)} weights for {len(runs)} runs")
    return weights


def _best_per_id(run: Ranked) -> list[tuple[str, float]]:
    """A run sorted best first with one entry per id (its best score)."""
    best: dict[str, float] = {}
    for doc, score in run:
        if doc not in best or score > best[doc]:
            best[doc] = score
    return _sorted(best)


def rrf_fusion(
    runs: Sequence[Ranked], *, k: float = 60.0, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion (Cormack et al. 2009): sum of w / (k + rank), ranks from 1."""
    fused: dict[str, float] = {}
    for run, weight in zip(runs, _weights(runs, weights)):
        for rank, (doc, _) in enumerate(_best_per_id(run), start=1):
            fused[doc] = fused.get(doc, 0.0) + weight / (k + rank)
    return _sorted(fused)


def _normalised(run: Ranked, method: str) -> tuple[dict[str, float], float]:
    """Scores mapped to a common scale, and the value an id missing from the run gets."""
    best = dict(_best_per_id(run))
    if not best:
        return {}, 0.0
    values = list(best.values())
    if method == "minmax":
        low, high = min(values), max(values)
        span = high - low
        scaled = {d: (s - low) / span if span > 0 else 1.0 for d, s in best.items()}
        return scaled, 0.0
    if method == "zscore":
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        scaled = {d: (s - mean) / std if std > 0 else 0.0 for d, s in best.items()}
        return scaled, min(scaled.values())
    raise ValueError(f"unknown normalisation {method!r}")


def _normalised_fusion(
    runs: Sequence[Ranked], weights: Sequence[float] | None, method: str
) -> list[tuple[str, float]]:
    scaled = [_normalised(run, method) for run in runs]
    ids = {doc for scores, _ in scaled for doc in scores}
    fused = {
        doc: sum(
            w * scores.get(doc, missing)
            for (scores, missing), w in zip(scaled, _weights(runs, weights))
        )
        for doc in ids
    }
    return _sorted(fused)


def minmax_fusion(
    runs: Sequence[Ranked], *, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Weighted sum of min-max normalised scores; an id missing from a run gets 0 for it."""
    return _normalised_fusion(runs, weights, "minmax")


def zscore_fusion(
    runs: Sequence[Ranked], *, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Weighted sum of z-scored scores; an id missing from a run gets that run's lowest z."""
    return _normalised_fusion(runs, weights, "zscore")


# The default hybrid recipe, chosen on the SciFact train queries (benchmarks/retrieval_research.py).
DEFAULT_DENSE_WEIGHT = 0.5
DEFAULT_DEPTH = 200


def hybrid_fusion(
    lexical: Ranked,
    dense: Ranked,
    *,
    dense_weight: float = DEFAULT_DENSE_WEIGHT,
    dense_exact: Mapping[str, float] | None = None,
    lexical_exact: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """The default BM25 + dense fusion over the union of both candidate lists.

    - BM25 is divided by the best BM25 score among the candidates. BM25 is never negative and
      0 means "no query term", so a candidate without a lexical score gets 0. With
      `lexical_exact` (e.g. from `Bm25Index.score_chunks` over the candidates) dense-only
      candidates get their real BM25 instead.
    - Cosine is min-max normalised over the candidates. With `dense_exact` (the exact cosine of
      every candidate, e.g. from `DenseIndex.score_rows`), lexical-only candidates get their real
      similarity instead of the floor of the dense list.
    - fused = (1 - dense_weight) * bm25 + dense_weight * cosine.
    """
    lex = dict(_best_per_id(lexical))
    den = dict(_best_per_id(dense))
    candidates = set(lex) | set(den)
    if not candidates:
        return []
    if lexical_exact is not None:
        lex = {d: lexical_exact.get(d, lex.get(d, 0.0)) for d in candidates}
    top_lex = max(lex.values(), default=0.0)
    if dense_exact is not None:
        cos = {d: dense_exact[d] if d in dense_exact else den.get(d, 0.0) for d in candidates}
    else:
        floor = min(den.values(), default=0.0)
        cos = {d: den.get(d, floor) for d in candidates}
    low, high = min(cos.values()), max(cos.values())
    span = high - low
    fused = {
        d: (1 - dense_weight) * (lex.get(d, 0.0) / top_lex if top_lex > 0 else 0.0)
        + dense_weight * ((cos[d] - low) / span if span > 0 else 1.0)
        for d in candidates
    }
    return _sorted(fused)


def max_by_group(run: Ranked, group: Callable[[str], str]) -> list[tuple[str, float]]:
    """Collapse ids into groups (chunks into papers), each group scored by its best member."""
    best: dict[str, float] = {}
    for doc, score in run:
        key = group(doc)
        if key not in best or score > best[key]:
            best[key] = score
    return _sorted(best)


__all__ = [
    "DEFAULT_DENSE_WEIGHT",
    "DEFAULT_DEPTH",
    "Ranked",
    "hybrid_fusion",
    "max_by_group",
    "minmax_fusion",
    "rrf_fusion",
    "zscore_fusion",
]
