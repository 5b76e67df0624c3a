"""Per-status precision and recall of `verify` on the labelled test drafts, against 63 real PDFs.

Each draft in tests/drafts/ has a `.labels.json` next to it: per paragraph the expected risk
and, per planted or faithful claim, the expected status. The drafts are verified against the
corpus built from all 63 PDFs of the shared corpora (built once into --corpus if missing:
ingest + chunk + index takes a few minutes). Prints precision / recall / F1 per status over the
labelled claims and the share of paragraphs with the expected risk.

Usage:
    python benchmarks/verify_drafts.py [--corpus bench_out/pdfs63] [--corpora ../shared/corpora]
                                       [--drafts DIR] [--only NAME,...]
                                       [--format table|json] [--set KEY=VALUE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DRAFTS = REPO / "tests" / "drafts"
STATUSES = ("supported", "partially_supported", "contradicted", "unverifiable")


def ensure_corpus(corpus: Path, pdfs: Path) -> None:
    """Ingest, chunk and index every PDF of `pdfs` into `corpus` unless it already has an index."""
    if (corpus / "index" / "manifest.json").is_file():
        return
    from typer.testing import CliRunner

    from sciverify.cli import app

    print(f"building {corpus} from {pdfs} (a few minutes)", file=sys.stderr)
    result = CliRunner().invoke(app, ["ingest", str(pdfs), "--corpus", str(corpus), "-q"])
    if not (corpus / "index" / "manifest.json").is_file():
        raise SystemExit(f"ingest failed: {result.output}")


class _WithVerify:
    """Settings with a `verify` block on top (until the global Settings carries one)."""

    def __init__(self, base: Any, verify: Any) -> None:
        self._base, self.verify = base, verify

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def score(
    drafts: Path,
    corpus: Path,
    overrides: dict[str, Any] | None = None,
    only: set[str] | None = None,
) -> dict[str, Any]:
    import sciverify as sv
    from sciverify.verify import verify
    from sciverify.verify.settings import verify_settings, with_overrides

    settings: Any = sv.load_settings(corpus=corpus)
    if overrides:
        settings = _WithVerify(settings, with_overrides(verify_settings(settings), overrides))
    pairs: list[tuple[str, str, str, str]] = []  # (draft, gold, predicted, claim)
    risks: list[tuple[str, str, str, str]] = []  # (draft, paragraph match, gold, predicted)
    seconds: dict[str, float] = {}
    with sv.open_store(corpus, read_only=True) as store:
        for labels_file in sorted(drafts.glob("*.labels.json")):
            name = labels_file.name.removesuffix(".labels.json")
            if only and name not in only:
                continue
            labels = json.loads(labels_file.read_text())
            bib = drafts / labels["bib"] if labels.get("bib") else None
            result = verify(
                (drafts / f"{name}.md").read_text(),
                store=store,
                settings=settings,
                source=f"{name}.md",
                bib=bib,
            )
            seconds[name] = result.summary["seconds"]["total"]
            text = (drafts / f"{name}.md").read_text()
            for para in labels["paragraphs"]:
                # verify may cut one Markdown paragraph into two semantic paragraphs: the
                # labelled paragraph is all of them, as red as the reddest.
                parts = _parts_of(text, para["match"], result.paragraphs)
                risk = max((p.risk for p in parts), key=_RISK_ORDER.index) if parts else "?"
                risks.append((name, para["match"], para["risk"], risk))
                for claim in para["claims"]:
                    # Case-blind: a clause split off a compound sentence ("..., whereas almost
                    # 20% ...") starts the claim with a capital ("Almost 20% ...") and without
                    # its conjunction.
                    wanted = claim["match"].lower()
                    bare = _LEADING_CONJUNCTION.sub("", wanted)
                    facts = [c for p in parts for c in p.cards if c.layer == "fact"]
                    cards = [c for c in facts if wanted in c.claim.lower()] or [
                        c for c in facts if bare in c.claim.lower()
                    ]
                    pairs.append(
                        (
                            name,
                            claim["status"],
                            cards[0].status if cards else "none",
                            claim["match"],
                        )
                    )
    per_status = {}
    for status in STATUSES:
        tp = sum(1 for _, g, p, _ in pairs if g == status and p == status)
        fp = sum(1 for _, g, p, _ in pairs if g != status and p == status)
        fn = sum(1 for _, g, p, _ in pairs if g == status and p != status)
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        per_status[status] = {
            "precision": round(prec, 3),
            "recall": round(rec, 3),
            "f1": round(f1, 3),
            "support": tp + fn,
        }
    return {
        "corpus": str(corpus),
        "claims": len(pairs),
        "accuracy": round(sum(g == p for _, g, p, _ in pairs) / max(len(pairs), 1), 3),
        "per_status": per_status,
        "risk_accuracy": round(sum(g == p for *_, g, p in risks) / max(len(risks), 1), 3),
        "risk_misses": [
            {"draft": d, "paragraph": m, "expected": g, "got": p} for d, m, g, p in risks if g != p
        ],
        "claim_misses": [
            {"draft": d, "claim": m, "expected": g, "got": p} for d, g, p, m in pairs if g != p
        ],
        "seconds": seconds,
    }


_RISK_ORDER = ("blue", "yellow", "red")
_LEADING_CONJUNCTION = re.compile(r"^(?:whereas|while|and|but|although|though)\s+")


def _parts_of(text: str, match: str, paragraphs: Any) -> list[Any]:
    """The result paragraphs that lie in the Markdown paragraph opening with `match`."""
    start = text.find(match)
    if start < 0 or text.find(match, start + 1) >= 0:
        return []
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    return [p for p in paragraphs if p.span[0] < end and p.span[1] > start]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "bench_out" / "pdfs63")
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--drafts", type=Path, default=DRAFTS)
    parser.add_argument(
        "--only", default="", metavar="NAME,...", help="score only these drafts (names without .md)"
    )
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a VerifySettings number, e.g. contradiction_weight=0.6, or a "
        "decision threshold, e.g. thresholds.contradict_min=0.6",
    )
    args = parser.parse_args()
    overrides = {k: float(v) for k, v in (item.split("=", 1) for item in args.set)}
    ensure_corpus(args.corpus, args.corpora / "pdfs")
    only = {n.strip() for n in args.only.split(",") if n.strip()} or None
    report = score(args.drafts, args.corpus, overrides, only)
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return
    print(
        f"corpus {report['corpus']}: {report['claims']} labelled claims, "
        f"accuracy {report['accuracy']:.3f}, paragraph risk accuracy "
        f"{report['risk_accuracy']:.3f}"
    )
    print(f"{'status':<22}{'precision':>10}{'recall':>8}{'f1':>7}{'support':>9}")
    for status, m in report["per_status"].items():
        print(
            f"{status:<22}{m['precision']:>10.3f}{m['recall']:>8.3f}{m['f1']:>7.3f}"
            f"{m['support']:>9}"
        )
    for miss in report["risk_misses"]:
        print(
            f"risk miss: {miss['draft']}: {miss['paragraph']!r} expected {miss['expected']}, "
            f"got {miss['got']}"
        )
    print("seconds per draft: " + ", ".join(f"{k} {v:.2f}" for k, v in report["seconds"].items()))


if __name__ == "__main__":
    main()
