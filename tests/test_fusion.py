"""Fusion of ranked lists: hand-computed cases and the ordering rules."""

from __future__ import annotations

import pytest

from sciverify.fusion import hybrid_fusion, max_by_group, minmax_fusion, rrf_fusion, zscore_fusion

LEX = [("a", 10.0), ("b", 6.0), ("c", 2.0)]
DEN = [("c", 0.9), ("d", 0.7), ("a", 0.5)]


def test_rrf_by_hand() -> None:
    fused = dict(rrf_fusion([LEX, DEN], k=60))
    # a: 1/61 + 1/63, b: 1/62, c: 1/63 + 1/61, d: 1/62
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 63)
    assert fused["b"] == pytest.approx(1 / 62)
    # a and c tie exactly, b and d tie exactly: ties go by id
    assert [d for d, _ in rrf_fusion([LEX, DEN], k=60)] == ["a", "c", "b", "d"]


def test_rrf_weights_and_duplicate_ids() -> None:
    fused = dict(rrf_fusion([[("x", 3.0), ("x", 1.0), ("y", 2.0)]], k=1, weights=[2.0]))
    # x keeps its best entry at rank 1, y is rank 2
    assert fused == {"x": pytest.approx(2 / 2), "y": pytest.approx(2 / 3)}


def test_minmax_by_hand() -> None:
    fused = dict(minmax_fusion([LEX, DEN], weights=[0.5, 0.5]))
    # lexical: a 1, b 0.5, c 0; dense: c 1, d 0.5, a 0; missing ids get 0
    assert fused == pytest.approx({"a": 0.5, "b": 0.25, "c": 0.5, "d": 0.25})


def test_zscore_missing_gets_the_lowest_z() -> None:
    fused = dict(zscore_fusion([[("a", 1.0), ("b", 3.0)], [("a", 5.0)]]))
    # run 1: mean 2, std 1 -> a -1, b +1; run 2: one score, std 0 -> a 0, and b gets its lowest z (0)
    assert fused == pytest.approx({"a": -1.0, "b": 1.0})


def test_hybrid_by_hand() -> None:
    fused = dict(hybrid_fusion(LEX, DEN, dense_weight=0.5))
    # BM25 / max: a 1, b 0.6, c 0.2, d 0 (absent); cosine min-max over 0.5..0.9, b absent -> floor 0.5
    assert fused["a"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.0)
    assert fused["b"] == pytest.approx(0.5 * 0.6 + 0.5 * 0.0)
    assert fused["c"] == pytest.approx(0.5 * 0.2 + 0.5 * 1.0)
    assert fused["d"] == pytest.approx(0.5 * 0.0 + 0.5 * 0.5)


def test_hybrid_uses_exact_scores_for_every_candidate() -> None:
    exact_cos = {"a": 0.5, "b": 0.8, "c": 0.9, "d": 0.7}
    exact_bm25 = {"a": 10.0, "b": 6.0, "c": 2.0, "d": 4.0}
    fused = dict(
        hybrid_fusion(LEX, DEN, dense_weight=0.5, dense_exact=exact_cos, lexical_exact=exact_bm25)
    )
    # b's real cosine 0.8 -> (0.8 - 0.5) / 0.4 = 0.75; d's real BM25 4 -> 0.4
    assert fused["b"] == pytest.approx(0.5 * 0.6 + 0.5 * 0.75)
    assert fused["d"] == pytest.approx(0.5 * 0.4 + 0.5 * 0.5)
    assert hybrid_fusion([], []) == []


def test_weights_must_match_runs() -> None:
    with pytest.raises(ValueError):
        minmax_fusion([LEX, DEN], weights=[1.0])


def test_max_by_group() -> None:
    run = [("p1:0", 0.2), ("p2:0", 0.5), ("p1:1", 0.9), ("p3:0", 0.5)]
    assert max_by_group(run, lambda c: c.split(":")[0]) == [("p1", 0.9), ("p2", 0.5), ("p3", 0.5)]
