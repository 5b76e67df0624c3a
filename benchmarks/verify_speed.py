"""Warm speed of `verify`: a 6,000-character draft against the 63-PDF corpus, per stage.

The draft is the labelled test drafts' paragraphs, in order (taken again from the start when
they run out), cut at the first paragraph end after 6,000 characters. One cold run loads the models; then the median of --runs warm runs is
reported with the median seconds of each stage (segment, claims, retrieve, entail, layers).
Target: <= 4 s warm.

Usage:
    python benchmarks/verify_speed.py [--corpus bench_out/pdfs63] [--runs 5] [--chars 6000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DRAFTS = REPO / "tests" / "drafts"
TARGET_S = 4.0


def speed_draft(chars: int) -> str:
    paragraphs: list[str] = []
    for md in sorted(DRAFTS.glob("*.md")):
        body = md.read_text().split("## References")[0]
        paragraphs += [p for p in body.split("\n\n") if p.strip() and not p.startswith("---")]
    out: list[str] = []
    i = 0
    while sum(len(p) + 2 for p in out) < chars and paragraphs:
        out.append(paragraphs[i % len(paragraphs)])
        i += 1
    return "\n\n".join(out) + "\n"


def main() -> None:
    import sciverify as sv
    from sciverify.verify import verify

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "bench_out" / "pdfs63")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chars", type=int, default=6000)
    args = parser.parse_args()
    text = speed_draft(args.chars)
    settings = sv.load_settings(corpus=args.corpus)
    stages = ("segment", "claims", "retrieve", "entail", "layers")
    with sv.open_store(args.corpus, read_only=True) as store:
        t = time.perf_counter()
        first = verify(text, store=store, settings=settings)
        cold = time.perf_counter() - t
        walls, per_stage = [], {s: [] for s in stages}
        for _ in range(args.runs):
            t = time.perf_counter()
            result = verify(text, store=store, settings=settings)
            walls.append(time.perf_counter() - t)
            for s in stages:
                per_stage[s].append(result.summary["seconds"].get(s, 0.0))
    median = statistics.median(walls)
    print(
        json.dumps(
            {
                "chars": len(text),
                "paragraphs": first.summary["paragraphs"],
                "claims": first.summary["claims"],
                "checked_claims": first.summary["checked_claims"],
                "entailment_pairs": first.summary["entailment_pairs"],
                "cold_s": round(cold, 3),
                "warm_median_s": round(median, 3),
                "warm_runs_s": [round(w, 3) for w in walls],
                "stages_median_s": {
                    s: round(statistics.median(v), 3) for s, v in per_stage.items()
                },
                "target_s": TARGET_S,
                "meets_target": median <= TARGET_S,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
