"""Ingest speed on real PDFs against two baselines measured on the same files in the same run.

    pip install -e '.[bench]'   # names the pymupdf4llm baseline explicitly
    python benchmarks/ingest_speed.py [--pdfs ../shared/corpora/pdfs] [--format json]

PyMuPDF 2.0 itself requires pymupdf4llm and pymupdf_layout, so the baseline is normally present
already; with pymupdf_layout installed, `import pymupdf` also loads its layout models, which
every ingest worker pays once at start-up.

Prints pages/second for: bare PyMuPDF `page.get_text("dict")` (the floor any structure-aware
parser pays), `pymupdf4llm.to_markdown` (the closest structure-producing peer), and sciverify
ingest (parse + structure + store, no embeddings) with --jobs 1 and --jobs 2; then the ratios and
the time of a re-run on the unchanged files.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _pdfs(folder: Path) -> list[Path]:
    files = sorted(folder.glob("*.pdf"))
    if not files:
        sys.exit(f"no PDFs in {folder}")
    return files


def bare_dict(files: list[Path]) -> tuple[int, float]:
    import pymupdf

    pages, started = 0, time.perf_counter()
    for path in files:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text("dict")
                pages += 1
    return pages, time.perf_counter() - started


def peer_markdown(files: list[Path], budget_s: float) -> tuple[int, float]:
    """pymupdf4llm on as many files as fit the budget (it is slow); rate from those."""
    import pymupdf
    import pymupdf4llm

    pages, started = 0, time.perf_counter()
    for path in files:
        with pymupdf.open(path) as doc:
            count = doc.page_count
        try:
            pymupdf4llm.to_markdown(str(path), show_progress=False)
        except Exception:  # noqa: BLE001, S112 - a peer failing on a file is not our measurement
            continue
        pages += count
        if time.perf_counter() - started > budget_s:
            break
    return pages, time.perf_counter() - started


def sciverify_ingest(files: list[Path], jobs: int) -> tuple[int, float, float]:
    import sciverify as sv

    with tempfile.TemporaryDirectory() as tmp:
        settings = sv.load_settings(corpus=Path(tmp) / "c", **{"ingest.jobs": jobs})
        with sv.open_store(settings.corpus) as store:
            started = time.perf_counter()
            report = sv.ingest(files, store=store, settings=settings)
            elapsed = time.perf_counter() - started
            again = time.perf_counter()
            rerun = sv.ingest(files, store=store, settings=settings)
            rerun_s = time.perf_counter() - again
            assert rerun.versions == 0
    return report.pages, elapsed, rerun_s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpora" / "pdfs")
    ap.add_argument("--peer-budget", type=float, default=60.0,
                    help="seconds of pymupdf4llm to time (it is ~50x slower)")
    ap.add_argument("--format", choices=["table", "json"], default="table")
    args = ap.parse_args(argv)
    files = _pdfs(args.pdfs)
    sciverify_ingest(files[:2], 1)  # warm imports and caches once
    bare_pages, bare_s = bare_dict(files)
    ours_pages, ours_s, rerun_s = sciverify_ingest(files, 1)
    ours2_pages, ours2_s, _ = sciverify_ingest(files, 2)
    peer_pages, peer_s = peer_markdown(files, args.peer_budget)
    rate = {
        "bare_get_text_dict": bare_pages / bare_s,
        "pymupdf4llm": peer_pages / peer_s if peer_s else 0.0,
        "sciverify_jobs1": ours_pages / ours_s,
        "sciverify_jobs2": ours2_pages / ours2_s,
    }
    result = {
        "files": len(files),
        "pages": bare_pages,
        "pages_per_second": {k: round(v, 1) for k, v in rate.items()},
        "ratio_vs_pymupdf4llm": round(rate["sciverify_jobs1"] / rate["pymupdf4llm"], 1),
        "ratio_vs_bare_dict": round(rate["sciverify_jobs1"] / rate["bare_get_text_dict"], 3),
        "jobs2_speedup": round(rate["sciverify_jobs2"] / rate["sciverify_jobs1"], 2),
        "rerun_unchanged_seconds": round(rerun_s, 2),
        "targets": {"vs_pymupdf4llm": ">= 10", "vs_bare_dict": ">= 0.25",
                    "jobs2_speedup": ">= 1.6", "rerun_seconds": "< 3"},
    }
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:26} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
