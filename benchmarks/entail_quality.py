"""Calibrate the decision thresholds and report entailment quality, with and without checks.

The held-out pairs of `sciverify.entail.data.load_pairs` (never seen in training) are split in
two by a stable hash of the pair id: thresholds are grid-searched on one half
(`calibrate_thresholds`) and every figure is reported on the other half, per source, for the
default thresholds and the calibrated ones, with and without the deterministic checks. The
calibrated values printed here are what `DecisionThresholds`' defaults are set to (its
docstring names any value kept apart from a noise-level grid choice, and why).

Usage:
    python benchmarks/entail_quality.py [--corpora PATH] [--sources scifact,healthver,covidfact]
                                        [--format table|json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def halves(pairs: list[Any]) -> tuple[list[Any], list[Any]]:
    def h(p: Any) -> int:
        return int(hashlib.sha256(p.pair_id.encode()).hexdigest(), 16) % 2

    return [p for p in pairs if h(p) == 0], [p for p in pairs if h(p) == 1]


class Memo:
    """Wraps an entailer so each (evidence, claim) pair is run through the model once."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.cache = inner, inner.name, {}

    def predict(self, pairs: Any, *, batch_size: int = 32) -> list[Any]:
        todo = [p for p in dict.fromkeys(pairs) if p not in self.cache]
        self.cache.update(zip(todo, self.inner.predict(todo, batch_size=batch_size), strict=True))
        return [self.cache[p] for p in pairs]


def run(corpora: Path, sources: list[str], report_sources: list[str]) -> dict[str, Any]:
    from sciverify.entail import (
        DEFAULT_THRESHOLDS,
        calibrate_thresholds,
        eval_entail,
        load_entailer,
    )
    from sciverify.entail.data import load_pairs

    entailer = Memo(load_entailer())
    tune, test = halves(load_pairs(corpora, "heldout", sources=sources))
    start = time.perf_counter()
    tuned = calibrate_thresholds(tune, entailer)
    out: dict[str, Any] = {
        "tune_pairs": len(tune),
        "test_pairs": len(test),
        "calibration_s": round(time.perf_counter() - start, 1),
        "calibrated": tuned.model_dump(),
        "results": {},
    }
    # "perturb-number" reports one edit kind of the "perturb" source.
    extra = sorted({s.split("-")[0] for s in report_sources} - set(sources))
    extra_pairs = load_pairs(corpora, "heldout", sources=extra) if extra else []
    groups = {"all": test} | {
        s: [p for p in test + extra_pairs if p.source == s or p.source.startswith(s + "-")]
        for s in report_sources
    }
    for name, pairs in groups.items():
        if not pairs:
            continue
        for label, th in (("default", DEFAULT_THRESHOLDS), ("calibrated", tuned)):
            for checks in (False, True):
                r = eval_entail(pairs, entailer=entailer, with_checks=checks, thresholds=th)
                key = f"{name}/{label}/{'checks' if checks else 'model'}"
                out["results"][key] = {
                    "n": r.n,
                    "accuracy": round(r.accuracy, 4),
                    "macro_f1": round(r.macro_f1, 4),
                    "contradiction_recall": round(r.per_label["contradiction"]["recall"], 4),
                    "contradiction_precision": round(r.per_label["contradiction"]["precision"], 4),
                }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--sources", default="scifact,healthver,covidfact")
    parser.add_argument(
        "--report",
        default="scifact,healthver,covidfact,perturb,perturb-number,perturb-unit,"
        "perturb-negation,perturb-identity,perturb-paraphrase",
        help="sources (or perturbation kinds, perturb-KIND) to report on",
    )
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)
    out = run(args.corpora, args.sources.split(","), args.report.split(","))
    if args.format == "json":
        print(json.dumps(out, indent=2))
        return 0
    print(f"tuned on {out['tune_pairs']} held-out pairs, tested on {out['test_pairs']}")
    print("calibrated:", json.dumps(out["calibrated"]))
    print(
        f"{'set/thresholds/mode':40} {'n':>5} {'acc':>6} {'macroF1':>8} {'C-rec':>6} {'C-prec':>6}"
    )
    for key, r in out["results"].items():
        print(
            f"{key:40} {r['n']:5d} {r['accuracy']:6.3f} {r['macro_f1']:8.3f} "
            f"{r['contradiction_recall']:6.3f} {r['contradiction_precision']:6.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
