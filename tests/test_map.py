"""sciverify map on real papers: three Open IE papers (one cites another; both cite works the corpus
lacks), one paper record added later, and a record whose title is a script injection."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from report_support import CHROMIUM, NO_CHROMIUM, Chromium
from typer.testing import CliRunner

import sciverify as api
from sciverify.cli import app
from sciverify.map_graph import extract_entities
from sciverify.map_render import map_to_graphml, map_to_html, map_to_json
from sciverify.records import Card, EvidenceRef, ParagraphResult, VerifyResult

PDFS = ("pf2__banko2007_open_ie.pdf", "sp__fader11.pdf",
        "grobid__wang2008_clef_answer_validation.pdf")
BANKO = "banko2006-open-information-b1a794af"  # "Open Information Extraction from the Web"
FADER = "fader2011-identifying-relations-f7df8254"  # cites Banko et al.
WANG = "wang2008-information-synthesis-7d9bcb1e"
HOSTILE = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
           ' </script><!-- & "quoted"')
# A work both Banko et al. and Fader et al. cite (Downey, Etzioni and Soderland, IJCAI 2005).
DOWNEY = {"id": "downey2005", "title": "A Probabilistic Model of Redundancy in Information "
          "Extraction", "year": 2005, "authors": ["Doug Downey", "Oren Etzioni",
                                                  "Stephen Soderland"],
          "abstract": "Unsupervised information extraction systems extract facts from the Web; a "
                      "probabilistic urns model of redundancy estimates whether an extraction is "
                      "correct from how often it is extracted."}


def _ingest(corpus: Path, *paths: Path) -> None:
    result = CliRunner().invoke(app, ["ingest", *map(str, paths), "--corpus", str(corpus), "-q",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def corpus(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("map")
    hostile = root / "hostile.jsonl"
    hostile.write_text(json.dumps({
        "id": "hostile1", "title": HOSTILE, "year": 2011, "authors": ["Eve <b>Mallory</b>"],
        "abstract": "Open information extraction of relations from web text " + HOSTILE}) + "\n")
    _ingest(root / "c", *(shared_corpora / "pdfs" / name for name in PDFS), hostile)
    return root / "c"


def _map(corpus: Path, **options: object) -> api.LiteratureMap:
    settings = api.load_settings(corpus=corpus)
    with api.open_store(corpus) as store:
        return api.map_corpus(store=store, settings=settings, **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def first(corpus: Path) -> api.LiteratureMap:
    return _map(corpus)


def test_citation_edges_resolve_real_reference_strings(first: api.LiteratureMap) -> None:
    citations = {(e.src, e.dst): e.detail for e in first.edges if e.kind == "citation"}
    assert list(citations) == [(FADER, BANKO)]  # the only corpus paper any of them cites
    assert "Open information extraction from the web" in (citations[(FADER, BANKO)] or "")
    assert first.paper(BANKO).citations_in == 1 and first.paper(FADER).citations_in == 0
    assert first.build is not None and first.build.changed == 4


def test_missing_key_papers_are_references_several_papers_share(first: api.LiteratureMap) -> None:
    by_title = {m.title.lower(): m for m in first.missing}
    downey = by_title["a probabilistic model of redundancy in information extraction"]
    assert downey.cited_by == (BANKO, FADER) and downey.year == 2005
    assert all(len(m.cited_by) >= 2 for m in first.missing)
    assert "Downey" in downey.example


def test_semantic_neighbours_and_clusters(first: api.LiteratureMap) -> None:
    semantic = [e for e in first.edges if e.kind == "semantic"]
    assert {e.src for e in semantic} == {p.paper_id for p in first.papers}
    nearest = max((e for e in semantic if e.src == FADER), key=lambda e: e.weight)
    assert nearest.dst == BANKO and 0.5 < nearest.weight <= 1.0
    assert sum(c.size for c in first.clusters) == len(first.papers) == 4
    assert all(c.label for c in first.clusters)
    assert max(p.centrality for p in first.papers) == 1.0


def test_entities_for_shared_evidence() -> None:
    found = extract_entities("We evaluate on the ClueWeb09 corpus and report precision and "
                             "recall; 120 patients with type 2 diabetes were compared with findings in mice.")
    assert {("dataset", "ClueWeb09"), ("metric", "precision"), ("metric", "recall"),
            ("population", "patients with type 2 diabetes"), ("population", "mice")} <= found
    assert not any(kind == "dataset" and name in ("The", "We") for kind, name in found)


def test_rebuild_is_incremental_and_new_paper_resolves_old_references(
        corpus: Path, first: api.LiteratureMap, tmp_path: Path) -> None:
    again = _map(corpus)
    assert again.build is not None and again.build.changed == 0
    assert {(e.src, e.dst, e.kind) for e in again.edges} == {
        (e.src, e.dst, e.kind) for e in first.edges}
    record = tmp_path / "downey.jsonl"
    record.write_text(json.dumps(DOWNEY) + "\n")
    _ingest(corpus, record)
    after = _map(corpus)
    assert after.build is not None and after.build.changed == 1
    downey = next(p.paper_id for p in after.papers if p.title == DOWNEY["title"])
    citations = {(e.src, e.dst) for e in after.edges if e.kind == "citation"}
    assert citations == {(FADER, BANKO), (BANKO, downey), (FADER, downey)}
    assert not any(m.title.lower() == DOWNEY["title"].lower() for m in after.missing)
    assert any(e.kind == "semantic" and e.dst == downey for e in after.edges)


def _log_run(corpus: Path, paper_id: str) -> str:
    evidence = EvidenceRef(paper_id=paper_id, chunk_id=f"{paper_id}:abstract:1", source=None,
                           page=1, snippet="open information extraction", match_type="entail",
                           score=0.9, title=None)
    card = Card(paragraph_id="p_001", layer="fact", status="supported", confidence=0.9,
                claim="Open IE extracts relations.", keyword="Open IE", evidence=(evidence,),
                suggested_action="No action needed.", claim_id="p_001.c1")
    paragraph = ParagraphResult("p_001", "Intro", "background", "blue", 0.1, (0, 27),
                                "Open IE extracts relations.", (card,), ("fact",), 1, 0)
    result = VerifyResult(draft="draft.md", draft_sha256="0" * 64, paragraphs=(paragraph,),
                          summary={}, run_id=None)
    settings = api.load_settings(corpus=corpus)
    with api.open_store(corpus) as store:
        logged = api.log_run(store, result, settings, text="Open IE extracts relations.")
    assert logged.run_id
    return logged.run_id


def test_from_run_and_unread_central_papers(corpus: Path, first: api.LiteratureMap) -> None:
    assert BANKO in first.unread_central  # most central, and no run has cited it
    run_id = _log_run(corpus, BANKO)
    whole = _map(corpus)
    assert BANKO not in whole.unread_central and whole.paper(BANKO).is_read
    around = _map(corpus, from_run=run_id)
    assert [p.paper_id for p in around.papers if p.is_focus] == [BANKO]
    assert FADER in around.focus and all(e.src in around.focus and e.dst in around.focus
                                         for e in around.edges)


def test_cli_formats_and_errors(corpus: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["map", "--corpus", str(corpus), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert {"papers", "edges", "clusters", "bridges", "unread_central", "missing_papers"} <= set(data)
    graphml = runner.invoke(app, ["map", "--corpus", str(corpus), "--format", "graphml"])
    root = ET.fromstring(graphml.stdout)
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    assert len(root.findall(f"{ns}graph/{ns}node")) == len(data["papers"])
    assert len(root.findall(f"{ns}graph/{ns}edge")) == len(data["edges"])
    table = runner.invoke(app, ["map", "--corpus", str(corpus), "--around", FADER])
    assert table.exit_code == 0 and "missing key papers" in table.stdout
    bad = runner.invoke(app, ["map", "--corpus", str(corpus), "--around", "no-such-paper"])
    assert bad.exit_code == 3 and "no paper with id" in bad.output
    run = runner.invoke(app, ["map", "--corpus", str(corpus), "--from-run", "nope"])
    assert run.exit_code == 3 and "no run with id" in run.output


def test_graphml_and_json_keep_hostile_text_as_data(first: api.LiteratureMap) -> None:
    root = ET.fromstring(map_to_graphml(first))  # parses: the payload is escaped
    titles = [d.text for d in root.iter("{http://graphml.graphdrawing.org/xmlns}data")
              if d.get("key") == "title"]
    assert HOSTILE in titles
    assert json.loads(json.dumps(map_to_json(first)))["papers"]


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Chromium]:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    with Chromium(tmp_path / "profile", width=1400, height=1100) as b:
        yield b


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_html_map_renders_and_escapes_in_chromium(first: api.LiteratureMap, browser: Chromium,
                                                  tmp_path: Path) -> None:
    page = tmp_path / "map.html"
    text = map_to_html(first)
    assert "<script>window.__pwned" not in text and "<img src=x" not in text
    page.write_text(text, encoding="utf-8")
    browser.open(page.as_uri())
    ev = browser.evaluate
    assert ev("typeof window.__pwned") == "undefined"
    assert ev("document.querySelectorAll('img').length") == 0
    assert ev("window.sciverifyMap.data.papers.length") == 4
    # Click the hostile paper's node on the canvas, as a user would.
    index = ev(f"window.sciverifyMap.data.papers.findIndex(p => p.title === {json.dumps(HOSTILE)})")
    x, y = ev(f"(() => {{ const p = window.sciverifyMap.data.papers[{index}], "
              f"r = document.getElementById('map').getBoundingClientRect(); "
              f"return [r.left + p.x * r.width / 1000, r.top + p.y * r.height / 1000]; }})()")
    for kind in ("mousePressed", "mouseReleased"):
        browser.command("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                     "button": "left", "clickCount": 1},
                        page=True)
    assert ev("document.querySelector('#details .title').textContent") == HOSTILE
    assert "Mallory" in ev("document.getElementById('details').textContent")
    assert ev("document.querySelectorAll('#details b, #details script').length") == 0
    assert ev("typeof window.__pwned") == "undefined"
    assert ev("document.querySelectorAll('#clusters li').length") == len(first.clusters)
    assert ev("performance.getEntriesByType('resource').length") == 0  # nothing fetched
    assert browser.console_errors() == []
    artefacts = Path(os.environ.get("TEST_ARTEFACTS_DIR") or tmp_path / "artefacts")
    artefacts.mkdir(parents=True, exist_ok=True)
    png = browser.screenshot(artefacts / "map.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    shutil.copy(page, artefacts / "map.html")
