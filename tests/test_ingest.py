"""ingest end to end on real files: identity, versions, idempotency, bad input, crashes, locking."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.cli import app

SAMPLE = Path(__file__).resolve().parents[1] / "corpora" / "sample"


def run_cli(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def counts(corpus: Path) -> dict[str, int]:
    with sv.open_store(corpus, read_only=True) as store:
        return {t: store.scalar(f'SELECT count(*) FROM "{t}"')
                for t in ("works", "versions", "sections", "blocks", "references", "ingest_errors")}


@pytest.fixture(scope="module")
def sample_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("sample") / "corpus"
    result = run_cli("ingest", str(SAMPLE), "--corpus", str(corpus), "--no-index", "-f", "json")
    assert result.exit_code == 0, result.stderr
    return corpus


def test_sample_ingest_stores_structure(sample_corpus: Path) -> None:
    c = counts(sample_corpus)
    assert c["works"] == 5 and c["versions"] == 5
    assert c["sections"] >= 5 * 4 and c["blocks"] > 200 and c["references"] > 50
    with sv.open_store(sample_corpus, read_only=True) as store:
        papers = sv.list_papers(store)
        titles = {p["title"] for p in papers}
        assert any("deep venous thrombosis" in (t or "").lower() for t in titles)
        # Every block keeps its page and bounding box.
        assert store.scalar("SELECT count(*) FROM blocks WHERE page IS NULL OR x0 IS NULL") == 0
        dois = {p["doi"] for p in papers if p["doi"]}
        assert any(d.startswith("10.1186/") for d in dois)


def test_reingest_is_noop(sample_corpus: Path) -> None:
    before = counts(sample_corpus)
    started = time.perf_counter()
    result = run_cli("ingest", str(SAMPLE), "--corpus", str(sample_corpus), "--no-index",
                     "-f", "json")
    assert result.exit_code == 0
    assert time.perf_counter() - started < 3
    assert json.loads(result.stdout)[0]["skipped"] == 5
    assert counts(sample_corpus) == before


def test_reingest_names_files_an_older_parser_read(tmp_path: Path) -> None:
    pdf = min(SAMPLE.glob("*.pdf"))
    corpus = tmp_path / "corpus"
    args = ("ingest", str(pdf), "--corpus", str(corpus), "--no-index", "-f", "json")
    assert run_cli(*args).exit_code == 0
    again = run_cli(*args)
    assert again.exit_code == 0 and "older PDF parser" not in again.stderr
    with sv.open_store(corpus) as store:
        store.execute("UPDATE versions SET parser_version = 'sciverify-pymupdf/3 + PyMuPDF 1.0'")
    stale = run_cli(*args)
    assert stale.exit_code == 0
    assert json.loads(stale.stdout)[0]["skipped"] == 1
    assert "1 unchanged file(s) were read by an older PDF parser" in stale.stderr
    assert "ingest them into a new corpus" in stale.stderr


def test_papers_and_show_json(sample_corpus: Path) -> None:
    result = run_cli("papers", "--corpus", str(sample_corpus), "-f", "json")
    assert result.exit_code == 0
    papers = json.loads(result.stdout)
    assert len(papers) == 5
    for key in ("paper_id", "title", "authors", "year", "doi", "versions"):
        assert key in papers[0]
    shown = run_cli("show", papers[0]["paper_id"], "--corpus", str(sample_corpus), "-f", "json")
    assert shown.exit_code == 0
    paper = json.loads(shown.stdout)[0]
    assert paper["sections"] and all("page" in s for s in paper["sections"])
    assert paper["versions"][0]["is_current"] is True


def test_stdin_paths_and_formats(tmp_path: Path) -> None:
    pdf = SAMPLE / "cer__test1_jtmo2010_dvt_prophylaxis.pdf"
    corpus = tmp_path / "c"
    result = run_cli("ingest", "-", "--corpus", str(corpus), "--no-index", "-f", "csv",
                     input=f"{pdf}\n")
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.strip().splitlines()
    assert header.startswith("papers,versions,pages") and row.startswith("1,1,4,")


def test_beir_corpus_ingests_all_papers(shared_corpora: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "scifact"
    beir = shared_corpora / "scifact" / "beir" / "corpus.jsonl.gz"
    result = run_cli("ingest", str(beir), "--corpus", str(corpus), "--no-index", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["papers"] == 5183
    with sv.open_store(corpus, read_only=True) as store:
        assert store.scalar("SELECT count(*) FROM works") == 5183
        assert store.scalar("SELECT count(DISTINCT source_record_id) FROM versions") == 5183
        assert store.scalar("SELECT count(*) FROM works WHERE abstract IS NULL") == 0


def test_malformed_jsonl_reports_file_and_line(tmp_path: Path, shared_corpora: Path) -> None:
    src = shared_corpora / "scifact" / "beir" / "corpus.jsonl.gz"
    import gzip

    with gzip.open(src, "rt") as fh:
        good = [next(fh) for _ in range(3)]
    records = tmp_path / "records.jsonl"
    records.write_text(good[0] + "{not json\n" + good[1] + '["a list"]\n' + '{"id": "x"}\n'
                       + good[2])
    corpus = tmp_path / "c"
    result = run_cli("ingest", str(records), "--corpus", str(corpus), "--no-index")
    assert result.exit_code == 3
    assert f"{records}:2: malformed JSON" in result.stderr
    assert f"{records}:4:" in result.stderr and f"{records}:5:" in result.stderr
    c = counts(corpus)
    assert c["works"] == 3 and c["ingest_errors"] == 3


def test_versions_and_current_choice(tmp_path: Path) -> None:
    base = {"title": "A study of things", "authors": ["Ann Smith"], "year": 2020,
            "doi": "10.1234/abc.5"}
    lines = [
        dict(base, id="p1", abstract="Preprint text v1.", version_kind="preprint",
             version_label="v1"),
        dict(base, id="p2", abstract="Preprint text v2.", version_kind="preprint",
             version_label="v2"),
        dict(base, id="pub", abstract="Published text.", version_kind="published"),
    ]
    corpus = tmp_path / "c"
    for i, line in enumerate(lines):
        f = tmp_path / f"r{i}.jsonl"
        f.write_text(json.dumps(line) + "\n")
        assert run_cli("ingest", str(f), "--corpus", str(corpus), "--no-index").exit_code == 0
        with sv.open_store(corpus, read_only=True) as store:
            paper = sv.get_paper(store, "doi-10-1234-abc-5")
        expected = ["Preprint text v1.", "Preprint text v2.", "Published text."][i]
        assert paper["abstract"] == expected
        assert len(paper["versions"]) == i + 1
    # The same published record again is the same version: nothing added.
    f = tmp_path / "again.jsonl"
    f.write_text(json.dumps(lines[2]) + "\n")
    assert run_cli("ingest", str(f), "--corpus", str(corpus), "--no-index").exit_code == 0
    assert counts(corpus)["versions"] == 3


def test_same_work_two_files_is_one_paper_two_versions(tmp_path: Path) -> None:
    import pymupdf

    src = SAMPLE / "gcp__0046d83a_jner2016_multicontact_fes.pdf"
    copy = tmp_path / "renamed-copy.pdf"
    shutil.copy(src, copy)
    changed = tmp_path / "resaved.pdf"
    doc = pymupdf.open(src)
    doc.set_metadata({**doc.metadata, "producer": "a different producer"})
    doc.save(changed, garbage=3)
    corpus = tmp_path / "c"
    result = run_cli("ingest", str(src), str(copy), str(changed), "--corpus", str(corpus),
                     "--no-index", "-f", "json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)[0]
    assert report["skipped"] == 1  # the byte-identical copy
    c = counts(corpus)
    assert c["works"] == 1 and c["versions"] == 2


def _bad_inputs(tmp_path: Path, shared_corpora: Path) -> dict[str, Path]:
    import pymupdf

    real = SAMPLE / "cer__test1_jtmo2010_dvt_prophylaxis.pdf"
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.pdf").write_bytes(b"")
    (bad / "notes.pdf").write_text("These are my notes, not a PDF.\n")
    data = real.read_bytes()
    (bad / "truncated.pdf").write_bytes(data[: len(data) // 3])
    # A real header, then garbage where the objects should be, then a proper end marker.
    rng = random.Random(7)
    garbage = bytes(rng.randrange(256) for _ in range(40_000))
    (bad / "corrupt.pdf").write_bytes(data[:1024] + garbage + b"\n%%EOF\n")
    doc = pymupdf.open(real)
    doc.save(bad / "encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret",
             owner_pw="owner")
    shutil.copy(shared_corpora / "pdfs" / "mineru__small_ocr_scanned_no_text.pdf",
                bad / "scan.pdf")
    return {p.name: p for p in bad.iterdir()}


def test_bad_inputs_are_reported_and_batch_goes_on(tmp_path: Path, shared_corpora: Path,
                                                   sample_corpus: Path) -> None:
    corpus = tmp_path / "c"
    shutil.copytree(sample_corpus, corpus)
    before = counts(corpus)
    bad = _bad_inputs(tmp_path, shared_corpora)
    good = shared_corpora / "pdfs" / "sp__map-reduce.pdf"
    missing = tmp_path / "does-not-exist.pdf"
    result = run_cli("ingest", *map(str, bad.values()), str(good), str(missing),
                     "--corpus", str(corpus), "--no-index", "-f", "json")
    assert result.exit_code == 3
    err = result.stderr
    for name in ("empty.pdf", "notes.pdf", "truncated.pdf", "corrupt.pdf", "encrypted.pdf"):
        line = next(ln for ln in err.splitlines() if name in ln)
        assert line.startswith("error: ") and "hint" in line
    scan_line = next(ln for ln in err.splitlines() if "scan.pdf" in ln)
    assert "no text layer" in scan_line and "tesseract" in scan_line
    assert "encrypted" in next(ln for ln in err.splitlines() if "encrypted.pdf" in ln).lower()
    assert "does-not-exist.pdf: no such file" in err
    after = counts(corpus)
    # The good file landed, nothing stored before was lost, every failure has a row.
    assert after["works"] == before["works"] + 1
    assert after["blocks"] > before["blocks"]
    assert after["ingest_errors"] == before["ingest_errors"] + 7


def test_wrong_file_type_and_unknown_corpus(tmp_path: Path) -> None:
    txt = tmp_path / "notes.txt"
    txt.write_text("hello")
    result = run_cli("ingest", str(txt), "--corpus", str(tmp_path / "c"), "--no-index")
    assert result.exit_code == 3
    assert "unsupported file type .txt" in result.stderr


def test_busy_corpus_is_a_clear_error(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    holder = sv.open_store(corpus)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "sciverify", "ingest", str(SAMPLE), "--corpus", str(corpus),
             "--no-index"],
            capture_output=True, text=True, timeout=120, check=False,
        )
    finally:
        holder.close()
    assert proc.returncode == 4
    assert "corpus is busy" in proc.stderr


def test_sigkill_mid_batch_leaves_store_consistent(tmp_path: Path, shared_corpora: Path) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    names = sorted(p.name for p in (shared_corpora / "pdfs").glob("*.pdf"))[:24]
    for name in names:
        shutil.copy(shared_corpora / "pdfs" / name, folder / name)
    corpus = tmp_path / "c"
    cmd = [sys.executable, "-m", "sciverify", "ingest", str(folder), "--corpus", str(corpus),
           "--no-index", "-v"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    # Kill after the third file is committed (ingest -v logs each stored file), not after a
    # fixed delay: on a fast machine the whole batch can finish within any delay.
    assert proc.stdout is not None
    committed = 0
    for line in proc.stdout:
        committed += "stored " in line
        if committed >= 3:
            break
    assert committed >= 3, "ingest ended before storing three files"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with sv.open_store(corpus, read_only=True) as store:
        stored = store.scalar("SELECT count(*) FROM versions")
        assert stored < len(names), "the batch finished before the kill; use more files"
        # Every stored version is whole: its work exists and its structure was written.
        assert store.scalar(
            "SELECT count(*) FROM versions v LEFT JOIN works w USING (paper_id)"
            " WHERE w.paper_id IS NULL") == 0
        assert store.scalar(
            "SELECT count(*) FROM blocks b WHERE b.version_id NOT IN"
            " (SELECT version_id FROM versions)") == 0
    resumed = subprocess.run(cmd[:-1] + ["-f", "json"], capture_output=True, text=True,
                             timeout=600, check=False)
    report = json.loads(resumed.stdout)[0]
    assert report["skipped"] == stored
    with sv.open_store(corpus, read_only=True) as store:
        total = store.scalar("SELECT count(*) FROM versions")
        failed = store.scalar("SELECT count(DISTINCT source_path) FROM ingest_errors")
    assert total + failed == len(names)
