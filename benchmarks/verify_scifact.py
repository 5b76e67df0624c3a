"""`verify` on SciFact: every train claim checked against the whole ingested SciFact corpus.

Open retrieval (no gold documents given): each claim is verified as a one-sentence draft
against the 5,183 SciFact abstracts ingested from the BEIR corpus (built once into --corpus if
missing). Reports label accuracy and macro-F1 against SUPPORT / CONTRADICT / NEI, where
unverifiable is NEI, and the abstract-level evidence hit rate: the share of claims with gold
evidence whose deciding evidence (or any shown evidence) comes from a gold abstract.

partially_supported is mapped with --partial: `split` (default) reads it as SUPPORT when the
deciding span is entailed but a detail differs (a number, condition or strength: the paper backs
the claim's gist, which is how SciFact annotators label SUPPORT) and as NEI when the evidence is
only related and not entailed; `support` and `nei` map all of it one way.

The bundled NLI model was trained on the rationales of about 80% of these claims, so the report
also gives the figures per split of `sciverify.entail.data` (`by_split`): `heldout` is the
claims whose rationales and abstracts the model never saw, the honest figure for new claims.

Usage:
    python benchmarks/verify_scifact.py [--limit N] [--corpus bench_out/scifact]
                                        [--corpora ../shared/corpora] [--partial split]
                                        [--set contradiction_weight=0.6]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
LABELS = ("SUPPORT", "CONTRADICT", "NEI")


def ensure_corpus(corpus: Path, beir: Path) -> None:
    if (corpus / "index" / "manifest.json").is_file():
        return
    from typer.testing import CliRunner

    from sciverify.cli import app

    print(f"ingesting {beir} into {corpus} (several minutes)", file=sys.stderr)
    result = CliRunner().invoke(app, ["ingest", str(beir), "--corpus", str(corpus), "-q"])
    if not (corpus / "index" / "manifest.json").is_file():
        raise SystemExit(f"ingest failed: {result.output}")


def gold_label(claim: dict[str, Any]) -> str:
    for sets in claim.get("evidence", {}).values():
        for ev in sets:
            return "SUPPORT" if ev["label"] == "SUPPORT" else "CONTRADICT"
    return "NEI"


def predicted_label(card: Any, partial: str) -> str:
    if card is None or card.status == "unverifiable":
        return "NEI"
    if card.status == "supported":
        return "SUPPORT"
    if card.status == "contradicted":
        return "CONTRADICT"
    if partial == "split":
        entailed = card.evidence and card.evidence[0].match_type == "entail"
        return "SUPPORT" if entailed and card.finding != "related_not_entailed" else "NEI"
    return "SUPPORT" if partial == "support" else "NEI"


def macro_f1(pairs: list[tuple[str, str]]) -> dict[str, float]:
    out = {}
    for label in LABELS:
        tp = sum(1 for g, p in pairs if g == label and p == label)
        fp = sum(1 for g, p in pairs if g != label and p == label)
        fn = sum(1 for g, p in pairs if g == label and p != label)
        out[label] = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    out["macro"] = sum(out[label] for label in LABELS) / len(LABELS)
    return out


class _WithVerify:
    """Settings with a `verify` block on top (until the global Settings carries one)."""

    def __init__(self, base: Any, verify: Any) -> None:
        self._base, self.verify = base, verify

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def run(
    corpus: Path,
    claims_file: Path,
    limit: int | None,
    partial: str,
    overrides: dict[str, Any],
    claims_out: Path | None = None,
) -> dict[str, Any]:
    import sciverify as sv
    from sciverify.entail import load_entailer
    from sciverify.verify import verify
    from sciverify.verify.settings import verify_settings, with_overrides

    settings: Any = sv.load_settings(corpus=corpus)
    if overrides:
        block = with_overrides(verify_settings(settings), overrides)
        settings = _WithVerify(settings, block)
    entailer = load_entailer(settings.entail.backend)
    claims = [json.loads(line) for line in claims_file.read_text().splitlines() if line.strip()]
    claims = claims[:limit] if limit else claims
    pairs: list[tuple[str, str]] = []
    hits = any_hits = with_gold = 0
    statuses: Counter[str] = Counter()
    started = time.perf_counter()
    with sv.open_store(corpus, read_only=True) as store:
        doc_of = {
            p: r
            for p, r in store.execute("SELECT paper_id, source_record_id FROM versions").fetchall()
        }
        for claim in claims:
            result = verify(
                claim["claim"],
                store=store,
                settings=settings,
                entailer=entailer,
                source=f"claim {claim['id']}",
            )
            cards = [c for p in result.paragraphs for c in p.cards if c.layer == "fact"]
            card = cards[0] if cards else None
            statuses[card.status if card else "none"] += 1
            gold = gold_label(claim)
            pairs.append((gold, predicted_label(card, partial)))
            gold_docs = {str(d) for d in claim.get("evidence", {})}
            if gold_docs:
                with_gold += 1
                docs = [str(doc_of.get(e.paper_id)) for c in cards for e in c.evidence]
                hits += bool(docs) and docs[0] in gold_docs
                any_hits += any(d in gold_docs for d in docs)
    split = _splits(claims)
    if claims_out is not None:
        with claims_out.open("w", encoding="utf-8") as fh:
            for (gold, pred), c in zip(pairs, claims, strict=True):
                row = {"id": c["id"], "split": split[int(c["id"])], "gold": gold, "got": pred}
                fh.write(json.dumps({**row, "claim": c["claim"]}) + "\n")
    by_split = {
        name: _scores(
            [pr for pr, c in zip(pairs, claims, strict=True) if split[int(c["id"])] == name]
        )
        for name in ("heldout", "train")
    }
    return {
        **_scores(pairs),
        "gold": dict(Counter(g for g, _ in pairs)),
        "predicted": dict(Counter(p for _, p in pairs)),
        "statuses": dict(statuses),
        "by_split": by_split,
        "evidence_hit_rate": round(hits / with_gold, 4) if with_gold else None,
        "evidence_any_hit_rate": round(any_hits / with_gold, 4) if with_gold else None,
        "partial_mapping": partial,
        "verify_overrides": overrides,
        "entailer": getattr(entailer, "name", "?"),
        "seconds_per_claim": round((time.perf_counter() - started) / max(len(pairs), 1), 3),
    }


def _scores(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Claim count, accuracy, macro-F1 and per-label F1 of (gold, predicted) pairs."""
    f1 = macro_f1(pairs)
    return {
        "claims": len(pairs),
        "accuracy": round(sum(g == p for g, p in pairs) / max(len(pairs), 1), 4),
        "macro_f1": round(f1["macro"], 4),
        "f1": {k: round(v, 4) for k, v in f1.items() if k != "macro"},
    }


def _splits(claims: list[dict[str, Any]]) -> dict[int, str]:
    """claim id -> the NLI training split its group fell in (claims citing one abstract share it)."""
    from sciverify.entail.data import scifact_groups, split_of

    groups = scifact_groups(claims)
    return {cid: split_of(key) for cid, key in groups.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "bench_out" / "scifact")
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--partial", choices=("split", "support", "nei"), default="split")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a VerifySettings number, e.g. contradiction_weight=0.6",
    )
    parser.add_argument(
        "--claims-out", type=Path, default=None, help="write each claim's gold and predicted label"
    )
    args = parser.parse_args()
    overrides = {k: float(v) for k, v in (item.split("=", 1) for item in args.set)}
    scifact = args.corpora / "scifact"
    ensure_corpus(args.corpus, scifact / "beir" / "corpus.jsonl.gz")
    report = run(
        args.corpus,
        scifact / "claims_train.jsonl",
        args.limit,
        args.partial,
        overrides,
        args.claims_out,
    )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
