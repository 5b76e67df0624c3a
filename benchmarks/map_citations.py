"""Citation edges of the literature map, laid out for checking by hand; likely misses; missing papers.

    python benchmarks/map_citations.py --corpus bench_out/map_pdfs63

Prints every citation edge the map found between corpus papers with the reference string and the
matched paper's title (read them: precision is the share where the reference names that paper),
then candidate misses: references that contain most of a corpus paper's title words (>= 60 % of
its words of four letters or more) but resolved to nothing or to another paper, then the
"missing key papers" list.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True)
    args = ap.parse_args(argv)

    import sciverify as sv
    from sciverify.ingest.identity import normalise_title

    settings = sv.load_settings(corpus=args.corpus)
    with sv.open_store(args.corpus) as store:
        result = sv.map_corpus(store=store, settings=settings, top=1000)
        refs = store.rows("SELECT paper_id, ordinal, raw, matched_paper_id, match_kind"
                          " FROM map_references ORDER BY paper_id, ordinal")
        works = store.rows("SELECT paper_id, title FROM works WHERE title IS NOT NULL")
    titles = {w["paper_id"]: w["title"] for w in works}
    print(f"{len(result.papers)} papers, {len(refs)} references")
    edges = [r for r in refs if r["matched_paper_id"]]
    print(f"\n== citation edges ({len(edges)} resolved references) ==")
    for i, r in enumerate(edges, 1):
        print(f"[{i}] {r['paper_id']} -> {r['matched_paper_id']} ({r['match_kind']})")
        print(f"     reference: {' '.join(r['raw'].split())[:300]}")
        print(f"     matched:   {titles.get(r['matched_paper_id'])}")
    print("\n== candidate misses (reference holds >= 60% of a corpus title's words) ==")
    words = {p: [w for w in normalise_title(t).split() if len(w) > 3] for p, t in titles.items()}
    linked = {(r["paper_id"], r["matched_paper_id"]) for r in edges}
    for r in refs:
        ref_words = set(normalise_title(r["raw"]).split())
        for p, ws in words.items():
            if p == r["paper_id"] or len(ws) < 2 or (r["paper_id"], p) in linked:
                continue
            share = sum(w in ref_words for w in ws) / len(ws)
            if share >= 0.6:
                print(f"{share:.2f} {r['paper_id']} -x-> {p} ({titles[p]})")
                print(f"     reference: {' '.join(r['raw'].split())[:300]}")
    print(f"\n== missing key papers ({len(result.missing)}) ==")
    for m in result.missing:
        print(f"cited by {len(m.cited_by)}: {m.title} ({m.year}) [{m.key}]")
        print(f"     by: {', '.join(m.cited_by)}")
    print(f"\nclusters: {len(result.clusters)} sizes {[c.size for c in result.clusters]}")
    for c in result.clusters:
        print(f"  {c.cluster}: {', '.join(c.label)}" + (f" [rests on {c.single_source}]"
                                                        if c.single_source else ""))
    print("bridges:", ", ".join(b.paper_id for b in result.bridges[:8]))
    print("unread central:", ", ".join(result.unread_central[:10]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
