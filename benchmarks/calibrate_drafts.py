"""Reviewer decisions from the labelled test drafts, stored in a corpus, for `sciverify calibrate`.

Each draft of tests/drafts/ is verified against --corpus (the 63 shared PDFs; build it with
`sciverify ingest ../shared/corpora/pdfs --corpus DIR`) and the run is logged; then every
labelled paragraph gets the decision a careful reviewer would make: a planted error is
`reject` when the label expects red (the paragraph states something the source contradicts or
attributes it to the wrong paper) and `revise` otherwise (a hedge, a condition or a statistic to
fix); a faithful paragraph is `accept`. Unlabelled paragraphs stay undecided. Decisions go
through `VerifyResult.decide`, the notebook call, so they land where the HTML report's do.

Usage:
    python benchmarks/calibrate_drafts.py --corpus bench_out/calib_pdfs64
    sciverify feedback stats --corpus bench_out/calib_pdfs64
    sciverify calibrate --corpus bench_out/calib_pdfs64 --bib tests/drafts/medical_review.bib
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DRAFTS = REPO / "tests" / "drafts"


def decide_drafts(corpus: Path, drafts: Path = DRAFTS) -> dict[str, int]:
    """Verify and log each labelled draft, then store its decisions; returns counts by decision."""
    import sciverify as sv

    settings = sv.load_settings(corpus=corpus)
    counts = {"accept": 0, "revise": 0, "reject": 0, "unmatched": 0}
    for labels_file in sorted(drafts.glob("*.labels.json")):
        name = labels_file.name.removesuffix(".labels.json")
        labels = json.loads(labels_file.read_text())
        bib = drafts / labels["bib"] if labels.get("bib") else None
        text = (drafts / f"{name}.md").read_text()
        with sv.open_store(corpus) as store:
            result = sv.verify(text, store=store, settings=settings, source=f"{name}.md", bib=bib)
            result = sv.log_run(store, result, settings, text=text)
            for para in labels["paragraphs"]:
                found = [p for p in result.paragraphs if para["match"] in p.text]
                if len(found) != 1:
                    counts["unmatched"] += 1
                    continue
                if para["planted"] is None:
                    decision = "accept"
                else:
                    decision = "reject" if para["risk"] == "red" else "revise"
                result.decide(found[0].paragraph_id, decision,
                              note=f"label: {para['planted'] or 'faithful'}", store=store)
                counts[decision] += 1
        print(f"{name}: run {result.run_id}", file=sys.stderr)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--drafts", type=Path, default=DRAFTS)
    args = parser.parse_args(argv)
    print(json.dumps(decide_drafts(args.corpus, args.drafts)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
