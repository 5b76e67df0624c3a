"""Load time and throughput of the bundled NLI backend on real SciFact (evidence, claim) pairs.

Cold load time is measured in a fresh Python process (imports included), the way a CLI call
pays it. Throughput is pairs per second at batch size 32 over SciFact abstract sentences paired
with the claims that cite them, truncated at 256 tokens. Targets: load < 5 s, >= 60 pairs/s.

Usage:
    python benchmarks/entail_speed.py [--corpora PATH] [--pairs 640] [--batch-size 32]
                                      [--device cpu] [--format table|json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"load_s": 5.0, "pairs_per_s": 60.0}

_COLD_LOAD = """
import time
t = time.perf_counter()
from sciverify.entail.backends import load_entailer
e = load_entailer(device={device!r})
e.predict([("Warm-up evidence sentence.", "A claim.")])
print(time.perf_counter() - t)
"""


def real_pairs(corpora: Path, n: int) -> list[tuple[str, str]]:
    """Up to n (sentence, claim) pairs: every sentence of each cited abstract with its claim."""
    docs: dict[int, list[str]] = {}
    with gzip.open(corpora / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            docs[int(d["doc_id"])] = d["abstract"]
    pairs: list[tuple[str, str]] = []
    claims = (corpora / "scifact" / "claims_train.jsonl").read_text(encoding="utf-8")
    for line in claims.splitlines():
        c = json.loads(line)
        for doc in c.get("cited_doc_ids", []):
            pairs.extend((s, c["claim"]) for s in docs.get(int(doc), []))
            if len(pairs) >= n:
                return pairs[:n]
    return pairs


def cold_load_seconds(device: str | None) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _COLD_LOAD.format(device=device)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return float(out.stdout.strip().splitlines()[-1])


def measure(corpora: Path, *, n: int, batch_size: int, device: str | None) -> dict[str, Any]:
    from sciverify.entail.backends import load_entailer

    load_s = cold_load_seconds(device)
    pairs = real_pairs(corpora, n)
    entailer = load_entailer(device=device)
    entailer.predict(pairs[:batch_size], batch_size=batch_size)  # warm-up: first-call kernels
    start = time.perf_counter()
    entailer.predict(pairs, batch_size=batch_size)
    elapsed = time.perf_counter() - start
    import torch

    return {
        "backend": entailer.name,
        "device": device or ("cuda" if torch.cuda.is_available() else "cpu"),
        "threads": torch.get_num_threads(),
        "pairs": len(pairs),
        "batch_size": batch_size,
        "load_s": round(load_s, 3),
        "pairs_per_s": round(len(pairs) / elapsed, 1),
        "targets": TARGETS,
        "load_ok": load_s < TARGETS["load_s"],
        "speed_ok": len(pairs) / elapsed >= TARGETS["pairs_per_s"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--pairs", type=int, default=640)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--device", default=None)
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)
    result = measure(args.corpora, n=args.pairs, batch_size=args.batch_size, device=args.device)
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(
            f"backend      {result['backend']} on {result['device']} ({result['threads']} threads)"
        )
        print(f"cold load    {result['load_s']:.2f} s   (target < {TARGETS['load_s']:g} s)")
        print(
            f"throughput   {result['pairs_per_s']:.1f} pairs/s at batch {args.batch_size} over "
            f"{result['pairs']} pairs   (target >= {TARGETS['pairs_per_s']:g})"
        )
    return 0 if result["load_ok"] and result["speed_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
