"""Literature map on SciFact (5,183 abstracts): graph build and clustering time, cluster sizes.

    python benchmarks/map_scifact.py --corpus bench_out/map_scifact [--rebuild] [--format json]

The corpus must hold the SciFact corpus, ingested, chunked and indexed (e.g. a copy of the one
`sciverify eval retrieval` builds); the map reuses the dense index's abstract vectors. The target
(issue 7) is clustering in under a minute. Abstracts carry no reference lists, so SciFact has no
citation edges; the map rests on semantic and shared-evidence edges.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--rebuild", action="store_true", help="rebuild the stored graph first")
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--format", choices=["table", "json"], default="table")
    args = ap.parse_args(argv)

    import sciverify as sv
    from sciverify.map_render import map_to_html

    settings = sv.load_settings(corpus=args.corpus)
    with sv.open_store(args.corpus) as store:
        started = time.perf_counter()
        build = sv.build_graph(store=store, settings=settings, k=args.k, rebuild=args.rebuild)
        built = time.perf_counter() - started
        started = time.perf_counter()
        result = sv.map_corpus(store=store, settings=settings, k=args.k)
        mapped = time.perf_counter() - started
    started = time.perf_counter()
    html = map_to_html(result)
    html_seconds = time.perf_counter() - started
    sizes = [c.size for c in result.clusters]
    out = {
        "papers": len(result.papers),
        "edges": build.edges,
        "graph_build_seconds": round(built, 2),
        "papers_recomputed": build.changed,
        "map_seconds": round(mapped, 2),
        "cluster_seconds": result.seconds.get("cluster"),
        "html_seconds": round(html_seconds, 2),
        "html_bytes": len(html.encode()),
        "clusters": len(sizes),
        "cluster_sizes": sizes,
        "size_histogram": dict(sorted(Counter(
            "1" if s == 1 else "2-9" if s < 10 else "10-49" if s < 50 else "50-199" if s < 200
            else "200+" for s in sizes).items())),
        "largest": [{"cluster": c.cluster, "size": c.size, "label": list(c.label),
                     "single_source": c.single_source} for c in result.clusters[:12]],
        "bridges": [b.paper_id for b in result.bridges[:5]],
    }
    if args.format == "json":
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for key, value in out.items():
        if key != "largest":
            print(f"{key}: {value}")
    for c in out["largest"]:  # type: ignore[union-attr]
        print(f"  cluster {c['cluster']:>3} ({c['size']:>4}): {', '.join(c['label'])}"
              + (f"  [rests on {c['single_source']}]" if c["single_source"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
