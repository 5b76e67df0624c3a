"""Entailment: does an evidence span support, contradict or leave open a claim?

Backends (`load_entailer`) give model probabilities for (evidence, claim) pairs; the
deterministic checks (`run_checks`) compare numbers, polarity, entities, hedging, conditions
and directions; `decide` combines both into a status with a reason; `eval_entail` measures it.
"""

from sciverify.entail.backends import Entailer, bundled_model_path, load_entailer
from sciverify.entail.checks import run_checks
from sciverify.entail.decide import (
    DEFAULT_THRESHOLDS,
    DecisionThresholds,
    calibrate_thresholds,
    decide,
)
from sciverify.entail.evaluate import EntailReport, eval_entail, load_pair_file

__all__ = [
    "DEFAULT_THRESHOLDS",
    "DecisionThresholds",
    "EntailReport",
    "Entailer",
    "bundled_model_path",
    "calibrate_thresholds",
    "decide",
    "eval_entail",
    "load_entailer",
    "load_pair_file",
    "run_checks",
]
