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
        doc: sum(w * scores.get(doc, missing) for (scores, missing), w in zip(scaled, _weights(runs, weights)))
        for doc in ids
    }
    return _sorted(fused)


def minmax_fusion(runs: Sequence[Ranked], *, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Weighted sum of min-max normalised scores; an id missing from a run gets 0 for it."""
    return _normalised_fusion(runs, weights, "minmax")


def zscore_fusion(runs: Sequence[Ranked], *, weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Weighted sum of z-scored scores; an id missing from a run gets that run's lowest z."""
    return _normalised_fusion(runs, weights, "zscore")


def max_by_group(run: Ranked, group: Callable[[str], str]) -> list[tuple[str, float]]:
    """Collapse ids into groups (chunks into papers), each group scored by its best member."""
    best: dict[str, float] = {}
    for doc, score in run:
        key = group(doc)
        if key not in best or score > best[key]:
            best[key] = score
    return _sorted(best)


__all__ = ["Ranked", "max_by_group", "minmax_fusion", "rrf_fusion", "zscore_fusion"]
