"""`ask` on SciFact: do the extractive answers' direct findings cite a relevant abstract?

For each of the 809 train queries (BEIR queries.jsonl + qrels/train.tsv) the extractive answer
is computed against the ingested SciFact corpus (opened read-only; build it first, e.g. with
`sciverify eval retrieval`). Reported side by side:

- answer: the share of queries whose "Direct findings" cite at least one relevant abstract, and
  the share that any shown evidence (all tiers) comes from one;
- retrieval of the same search (the chunks `ask` retrieved, ranked by paper as
  `sciverify eval retrieval` does): hit@k (a relevant abstract among the first k papers) and
  recall@k for k = 1, 5, 10 and all retrieved;
- citations: every citation of every answer resolved against the store (the chunk exists, its
  paper and page match, the quoted sentence is in the chunk's text) — failures must be 0;
- out of scope: real FEVER claims (Wikipedia topics) asked of the same corpus; the share that
  got direct findings is the false-answer rate. With the in-scope queries' best lexical and
  similarity scores it shows where the on-topic gate (`ask.extractive`) sits.

Paper ids in the store differ from BEIR doc ids: a work's current version keeps the BEIR id as
`source_record_id` (the mapping `sciverify.evaluate.paper_runs` uses).

Measured (SciFact corpus ingested from the BEIR files, 11,306 chunks, k=60, bundled models):
- all 809 queries, cosine floor 0.35: direct findings cite a relevant abstract 0.759, any
  evidence 0.784, answered 0.957; retrieval hit@1 0.634, hit@5 0.821, hit@10 0.874, hit@60
  chunks 0.927 (recall@5 0.801); citation failures 0 over 909 answers; FEVER 4/100 answered.
- every 4th query (203), floor 0.45 (the default): direct 0.729 (0.744 at 0.35 on the same
  queries), answered 0.902; hit@5 0.847; citation failures 0; FEVER 0/100 answered.

Usage:
    python benchmarks/ask_scifact.py [--corpus bench_out/scifact] [--limit N] [--every N]
                                     [--fever 100]
                                     [--out bench_out/ask_scifact.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _norm(text: str) -> str:
    return " ".join(text.split())


def citation_failures(answer: Any, chunks: dict[str, dict[str, Any]]) -> list[str]:
    """Every citation of the answer that does not resolve to its stored chunk and page."""
    bad = []
    for s in answer.statements:
        for chunk_id, page, paper in zip(s.citations, s.pages, s.papers, strict=True):
            row = chunks.get(chunk_id)
            if row is None or row["page"] != page or row["paper_id"] != paper:
                bad.append(f"{answer.question[:60]!r}: {chunk_id}")
        for quoted in s.evidence if s.part == "direct" else ():
            if all(_norm(quoted) not in _norm(chunks.get(c, {}).get("text", ""))
                   for c in s.citations):
                bad.append(f"{answer.question[:60]!r}: quote not in {s.citations}")
    return bad


def quartiles(values: list[float]) -> list[float]:
    return [round(v, 3) for v in statistics.quantiles(values, n=4)] if len(values) > 1 else values


def summarise(per_query: list[dict[str, Any]], failures: list[str], checked: int
              ) -> dict[str, Any]:
    """The figures over the queries answered so far."""

    def share(key: str) -> float:
        return round(sum(bool(q[key]) for q in per_query) / len(per_query), 4)

    def hit_at(k: int | None) -> float:
        return round(sum(bool(set(q["papers"][:k]) & set(q["relevant"])) for q in per_query)
                     / len(per_query), 4)

    def recall_at(k: int | None) -> float:
        return round(statistics.mean(len(set(q["papers"][:k]) & set(q["relevant"]))
                                     / len(q["relevant"]) for q in per_query), 4)

    return {
        "queries": len(per_query),
        "answer": {"direct_findings_cite_relevant": share("direct_hit"),
                   "any_evidence_from_relevant": share("evidence_hit"),
                   "answered": share("answered")},
        "retrieval": {f"hit@{k or 'all'}": hit_at(k) for k in (1, 5, 10, None)}
        | {f"recall@{k or 'all'}": recall_at(k) for k in (1, 5, 10, None)},
        "citations": {"checked_answers": checked, "failures": len(failures),
                      "examples": failures[:5]},
        "gate": {
            "in_scope_best_lexical_quartiles": quartiles([q["best_lexical"] for q in per_query]),
            "in_scope_best_similarity_quartiles":
                quartiles([q["best_similarity"] for q in per_query]),
        },
        "seconds_per_query": round(statistics.mean(q["seconds"] for q in per_query), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO / "bench_out" / "scifact")
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--every", type=int, default=1,
                        help="only every N-th query (a quicker, evenly spread sample)")
    parser.add_argument("--fever", type=int, default=100, help="FEVER claims asked (0: none)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)

    import sciverify as sv
    from sciverify.evaluate import read_qrels, read_queries

    beir = args.corpora / "scifact" / "beir"
    qrels = read_qrels(beir / "qrels" / "train.tsv")
    queries = read_queries(beir / "queries.jsonl")
    qids = [q for q in qrels if q in queries][:: args.every][: args.limit]
    settings = sv.load_settings(corpus=args.corpus)
    started = time.perf_counter()
    per_query: list[dict[str, Any]] = []
    failures: list[str] = []
    with sv.open_store(args.corpus, read_only=True) as store:
        record_of = dict(store.execute(
            "SELECT w.paper_id, v.source_record_id FROM works w"
            " JOIN versions v ON v.version_id = w.current_version_id").fetchall())
        chunks = {r["chunk_id"]: r for r in store.rows(
            "SELECT chunk_id, paper_id, page, text FROM chunks")}
        fever: list[dict[str, Any]] = []
        if args.fever:
            lines = (args.corpora / "fever" / "paper_dev.jsonl").read_text().splitlines()
            for line in lines[: args.fever]:
                answer = sv.ask(json.loads(line)["claim"], store=store, settings=settings)
                failures += citation_failures(answer, chunks)
                fever.append({"claim": answer.question, "answered": answer.answered,
                              "best_lexical": answer.summary["best_lexical"],
                              "best_similarity": answer.summary["best_similarity"]})
            print(f"FEVER: {sum(f['answered'] for f in fever)} of {len(fever)} answered",
                  file=sys.stderr, flush=True)
        for n, qid in enumerate(qids, 1):
            answer = sv.ask(queries[qid], store=store, settings=settings)
            relevant = {d for d, g in qrels[qid].items() if g > 0}
            papers: list[str] = []
            for chunk_id, _score in answer.retrieved:
                record = record_of.get(chunk_id.split(":", 1)[0])
                if record is not None and record not in papers:
                    papers.append(record)
            direct = {record_of.get(p) for s in answer.direct for p in s.papers}
            shown = {record_of.get(e.paper_id) for e in answer.evidence}
            failures += citation_failures(answer, chunks)
            per_query.append({
                "qid": qid, "direct_hit": bool(direct & relevant),
                "evidence_hit": bool(shown & relevant), "answered": answer.answered,
                "papers": papers, "relevant": sorted(relevant),
                "best_lexical": answer.summary["best_lexical"],
                "best_similarity": answer.summary["best_similarity"],
                "statements": len(answer.statements),
                "seconds": answer.summary["seconds"]["total"],
            })
            if n % 50 == 0 or n == len(qids):
                interim = summarise(per_query, failures, n)
                print(f"{n}/{len(qids)} {json.dumps(interim['answer'])} "
                      f"{json.dumps(interim['retrieval'])} citation failures {len(failures)} "
                      f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
                if args.out:
                    fever_answered = sum(f["answered"] for f in fever)
                    args.out.write_text(json.dumps(interim | {
                        "partial": True, "fever_answered": f"{fever_answered} of {len(fever)}",
                    }, indent=1))
    report = summarise(per_query, failures, len(per_query) + len(fever))
    if fever:
        report["out_of_scope"] = {
            "fever_claims": len(fever),
            "answered_share": round(sum(f["answered"] for f in fever) / len(fever), 4),
            "best_lexical_quartiles": quartiles([f["best_lexical"] for f in fever]),
            "best_similarity_quartiles": quartiles([f["best_similarity"] for f in fever]),
            "answered_examples": [f["claim"] for f in fever if f["answered"]][:5],
        }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(json.dumps(report | {"per_query": per_query, "fever": fever},
                                       indent=1))
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
