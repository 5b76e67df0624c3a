"""Ranking metrics against hand arithmetic and scikit-learn's nDCG."""

from __future__ import annotations

import math
import random

import pytest
from sklearn.metrics import ndcg_score

from sciverify.metrics import evaluate, mrr, ndcg, ndcg_at, ranked_ids, recall

QRELS = {"q1": {"d1": 2, "d2": 1, "d3": 0}}
RUN = {"q1": [("d3", 0.9), ("d1", 0.8), ("d4", 0.7), ("d2", 0.6)]}


def test_ndcg_by_hand() -> None:
    # ranks 1..4 hold d3 (grade 0), d1 (2), d4 (unjudged, 0), d2 (1)
    # DCG@3  = 0/log2(2) + 2/log2(3) + 0/log2(4)                 = 1.261860
    # IDCG@3 = 2/log2(2) + 1/log2(3)                              = 2.630930  (from the qrels)
    # nDCG@3 = 1.261860 / 2.630930                                = 0.479625
    dcg3 = 2 / math.log2(3)
    idcg = 2 + 1 / math.log2(3)
    assert ndcg(QRELS, RUN, 3) == pytest.approx(dcg3 / idcg)
    assert ndcg(QRELS, RUN, 3) == pytest.approx(0.479625, abs=1e-6)
    # DCG@4 adds d2 at rank 4: 1/log2(5) = 0.430677 -> (1.261860 + 0.430677) / 2.630930
    assert ndcg(QRELS, RUN, 4) == pytest.approx((dcg3 + 1 / math.log2(5)) / idcg)


def test_ideal_dcg_comes_from_qrels_not_from_the_run() -> None:
    # d2 (grade 1) is never retrieved: a perfect-looking top 1 still misses part of the ideal.
    run = {"q1": [("d1", 1.0)]}
    # DCG@2 = 2/1 = 2; IDCG@2 = 2 + 1/log2(3) = 2.630930
    assert ndcg(QRELS, run, 2) == pytest.approx(2 / (2 + 1 / math.log2(3)))


def test_mrr_and_recall_by_hand() -> None:
    # first relevant document (d1) is at rank 2 -> 1/2
    assert mrr(QRELS, RUN, 10) == pytest.approx(0.5)
    assert mrr(QRELS, RUN, 1) == 0.0
    # relevant = {d1, d2}; top 2 = {d3, d1} -> 1/2; top 4 holds both -> 1
    assert recall(QRELS, RUN, 2) == pytest.approx(0.5)
    assert recall(QRELS, RUN, 4) == pytest.approx(1.0)


def test_query_without_run_scores_zero_and_unjudged_query_is_skipped() -> None:
    qrels = {"q1": {"d1": 1}, "q2": {"d9": 1}, "q3": {"d5": 0}}
    runs = {"q1": [("d1", 3.0)], "q3": [("d5", 1.0)]}
    # q1: 1.0, q2: no run -> 0, q3: no relevant document -> not counted; mean = 0.5
    figures = evaluate(qrels, runs)
    assert figures == {"ndcg@10": 0.5, "recall@100": 0.5, "mrr@10": 0.5}


def test_ties_break_by_id_and_duplicates_count_once() -> None:
    assert ranked_ids([("b", 1.0), ("a", 1.0), ("c", 2.0), ("a", 0.5)]) == ["c", "a", "b"]


@pytest.mark.parametrize("seed", range(6))
def test_ndcg_matches_sklearn(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(5, 30)
    grades = [rng.choice([0, 0, 1, 2, 3]) for _ in range(n)]
    grades[rng.randrange(n)] = max(1, grades[0])  # at least one relevant document
    scores = [rng.random() for _ in range(n)]
    docs = [f"d{i}" for i in range(n)]
    k = rng.choice([1, 3, 5, 10, n])
    qrels = {"q": dict(zip(docs, grades))}
    runs = {"q": list(zip(docs, scores))}
    expected = ndcg_score([grades], [scores], k=k)
    assert ndcg(qrels, runs, k) == pytest.approx(expected, abs=1e-12)
    assert ndcg_at(ranked_ids(runs["q"]), qrels["q"], k) == pytest.approx(expected, abs=1e-12)
