"""chunk + index + search on real PDFs: stages wired to the store, filters, incrementality."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.cli import app
from sciverify.errors import StaleIndex

SAMPLE = Path(__file__).resolve().parents[1] / "corpora" / "sample"


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("indexed") / "corpus"
    result = run_cli("ingest", str(SAMPLE), "--corpus", str(corpus), "-q", "-f", "json")
    assert result.exit_code == 0, result.stderr
    return corpus


def test_every_chunk_is_citable(indexed: Path) -> None:
    with sv.open_store(indexed, read_only=True) as store:
        assert store.scalar("SELECT count(*) FROM chunks") > 200
        assert store.scalar("SELECT count(*) FROM chunks WHERE page IS NULL OR section = ''") == 0
        # Offsets slice the stored section text exactly.
        bad = store.scalar(
            "SELECT count(*) FROM chunks c JOIN sections s ON s.version_id = c.version_id"
            " AND s.ordinal = c.section_ordinal"
            " WHERE substr(s.text, c.char_start + 1, c.char_end - c.char_start) <> c.text")
        assert bad == 0
        kinds = {r[0] for r in store.execute("SELECT DISTINCT kind FROM chunks").fetchall()}
        assert {"text", "table", "figure"} <= kinds
        assert store.scalar("SELECT count(*) FROM dense_rows") == store.scalar(
            "SELECT count(*) FROM chunks")


def test_rechunk_gives_identical_ids(indexed: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    shutil.copytree(indexed, corpus)
    with sv.open_store(corpus) as store:
        before = [r[0] for r in store.execute("SELECT chunk_id FROM chunks ORDER BY 1").fetchall()]
        report = sv.chunk(store=store, settings=sv.load_settings(corpus=corpus), rebuild=True)
        after = [r[0] for r in store.execute("SELECT chunk_id FROM chunks ORDER BY 1").fetchall()]
    assert report.papers == 5 and before == after


def test_search_finds_the_right_paper_in_every_mode(indexed: Path) -> None:
    settings = sv.load_settings(corpus=indexed)
    with sv.open_store(indexed, read_only=True) as store:
        for mode in ("bm25", "dense", "hybrid"):
            hits = sv.search("thromboprophylaxis complications in trauma patients", store=store,
                             settings=settings, k=5, mode=mode)
            assert len(hits) == 5
            assert "thrombosis" in (hits.hits[0].title or "").lower()
            assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
            assert all(h.page and h.section and h.snippet for h in hits)


def test_search_jsonl_is_pipe_clean(indexed: Path) -> None:
    result = run_cli("search", "grey seal pups aggression", "--corpus", str(indexed), "-f",
                     "jsonl", "-k", "4")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert {"paper_id", "section", "page", "evidence_type", "score", "snippet"} <= set(rows[0])


@pytest.mark.parametrize(
    ("flag", "value", "column"),
    [("--type", "method", "evidence_type"), ("--kind", "table", "kind")],
)
def test_chunk_filters(indexed: Path, flag: str, value: str, column: str) -> None:
    result = run_cli("search", "stimulation", "--corpus", str(indexed), flag, value, "-f", "json",
                     "-k", "8")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows and all(r[column] == value for r in rows)


def test_year_and_paper_filters(indexed: Path) -> None:
    with sv.open_store(indexed, read_only=True) as store:
        papers = {p["paper_id"]: p["year"] for p in sv.list_papers(store)}
    year = min(y for y in papers.values() if y)
    result = run_cli("search", "study results", "--corpus", str(indexed), "--year",
                     f"{year}..{year}", "-f", "json")
    rows = json.loads(result.stdout)
    assert rows and all(r["year"] == year for r in rows)
    one = min(papers)
    result = run_cli("search", "study results", "--corpus", str(indexed), "--paper", one,
                     "-f", "json", "--mode", "dense")
    rows = json.loads(result.stdout)
    assert rows and all(r["paper_id"] == one for r in rows)


@pytest.mark.parametrize("args", [["--year", "20x0"], ["--type", "opinion"], ["--kind", "poem"]])
def test_bad_filters_exit_2_and_list_valid_values(indexed: Path, args: list[str]) -> None:
    result = run_cli("search", "x", "--corpus", str(indexed), *args)
    assert result.exit_code == 2
    assert any(word in result.stderr for word in ("2015..2020", "result, method", "text, table"))


def test_query_syntax_is_just_text(indexed: Path) -> None:
    result = run_cli("search", 'AND OR ( "unbalanced : ^ ~ * [', "--corpus", str(indexed),
                     "-f", "json")
    assert result.exit_code == 0, result.stderr


def test_adding_one_paper_embeds_only_its_chunks(indexed: Path, tmp_path: Path,
                                                 shared_corpora: Path) -> None:
    corpus = tmp_path / "c"
    shutil.copytree(indexed, corpus)
    with sv.open_store(corpus, read_only=True) as store:
        before = dict(store.execute("SELECT chunk_id, row_id FROM dense_rows").fetchall())
    pdf = shared_corpora / "pdfs" / "sp__map-reduce.pdf"
    result = run_cli("ingest", str(pdf), "--corpus", str(corpus), "--no-index", "-q")
    assert result.exit_code == 0, result.stderr
    indexed_now = run_cli("index", "--corpus", str(corpus), "-f", "json")
    assert indexed_now.exit_code == 0, indexed_now.stderr
    report = json.loads(indexed_now.stdout)[0]
    with sv.open_store(corpus, read_only=True) as store:
        new = {r[0] for r in store.execute(
            "SELECT chunk_id FROM chunks WHERE paper_id IN (SELECT paper_id FROM versions"
            " WHERE source_path LIKE '%map-reduce%')").fetchall()}
        after = dict(store.execute("SELECT chunk_id, row_id FROM dense_rows").fetchall())
        total = store.scalar("SELECT count(*) FROM chunks")
    # Exactly the new paper's chunks were embedded; every earlier chunk kept its row.
    assert len(new) > 10 and report["embedded"] == len(new) and report["removed"] == 0
    assert set(after) - set(before) == new and len(after) == total
    assert all(after[c] == row for c, row in before.items())
    again = run_cli("index", "--corpus", str(corpus), "-f", "json")
    assert json.loads(again.stdout)[0]["embedded"] == 0
    with sv.open_store(corpus, read_only=True) as store:
        hits = sv.search("MapReduce programming model", store=store,
                         settings=sv.load_settings(corpus=corpus), k=3)
    assert hits.hits[0].chunk_id in new  # the new paper is searchable in both indexes


def test_model_mismatch_names_the_rebuild_command(indexed: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    shutil.copytree(indexed, corpus)
    manifest = corpus / "index" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["dense"]["fingerprint"] = data["dense"]["fingerprint"].replace("model=", "model=other-")
    manifest.write_text(json.dumps(data))
    result = run_cli("search", "seal", "--corpus", str(corpus))
    assert result.exit_code == 3
    assert "sciverify index --rebuild" in result.stderr
    with sv.open_store(corpus) as store, pytest.raises(StaleIndex):
        sv.build_index(store=store, settings=sv.load_settings(corpus=corpus))


def test_stale_lexical_index_is_rebuilt_without_re_embedding(indexed: Path,
                                                              tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    shutil.copytree(indexed, corpus)
    manifest = corpus / "index" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["bm25"]["fingerprint"] = "sciverify-index/0 bm25 fields=body"  # an older format
    manifest.write_text(json.dumps(data))
    result = run_cli("search", "seal", "--corpus", str(corpus))
    assert result.exit_code == 3
    assert "sciverify index --corpus" in result.stderr and "--rebuild" not in result.stderr
    again = run_cli("index", "--corpus", str(corpus), "-f", "json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)[0]["embedded"] == 0
    found = run_cli("search", "seal", "--corpus", str(corpus), "-f", "json", "--mode", "bm25")
    assert found.exit_code == 0 and json.loads(found.stdout)


def test_search_without_index_says_how_to_build_it(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    pdf = SAMPLE / "cer__test1_jtmo2010_dvt_prophylaxis.pdf"
    assert run_cli("ingest", str(pdf), "--corpus", str(corpus), "--no-index").exit_code == 0
    result = run_cli("search", "trauma", "--corpus", str(corpus))
    assert result.exit_code == 3
    assert "sciverify index" in result.stderr
