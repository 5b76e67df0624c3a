"""Notebook cells: HTML of results (escaped), decisions stored through the library, the example
notebook executed headless."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.cli import app
from sciverify.errors import InputError
from sciverify.records import Card, EvidenceRef, ParagraphResult, VerifyResult

REPO = Path(__file__).resolve().parents[1]
EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
DRAFT = """# Thromboprophylaxis in trauma

Level one evidence currently supports the use of low molecular weight heparins for
thromboprophylaxis in trauma patients.

Failed filter retrieval rates in trauma patients were reported between 0% and 4%, with a
calculated rate of 12.8%.
"""


@pytest.fixture(scope="module")
def verified(small_corpus: Path,
             tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, VerifyResult]:
    corpus = tmp_path_factory.mktemp("nb") / "corpus"
    shutil.copytree(small_corpus, corpus)
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus) as store:
        result = sv.log_run(store, sv.verify(DRAFT, store=store, settings=settings,
                                             source="dvt.md"), settings, text=DRAFT)
    return corpus, result


def test_verify_result_renders_one_coloured_cell_per_paragraph(
        verified: tuple[Path, VerifyResult]) -> None:
    _, result = verified
    html = result._repr_html_()
    assert html.count('<section class="para risk-') == len(result.paragraphs) == 2
    red = next(p for p in result.paragraphs if "12.8%" in p.text)
    assert red.risk == "red"
    assert f'<section class="para risk-red" data-paragraph-id="{red.paragraph_id}"' in html
    card = next(c for c in red.cards if c.status == "contradicted")
    ev = card.evidence[0]
    assert ev.page and f"page {ev.page}" in html
    assert f"#page={ev.page}" in html  # the link opens the stored PDF at that page
    assert "<script" not in html


def test_untrusted_text_is_escaped() -> None:
    ev = EvidenceRef(paper_id=EVIL, chunk_id="c:1", source="/tmp/a.pdf", page=3, snippet=EVIL,
                     match_type="contradict", title=EVIL)
    card = Card(paragraph_id="p_001", layer="fact", status="contradicted", confidence=0.9,
                claim=EVIL, keyword=EVIL, evidence=(ev,), suggested_action=EVIL)
    para = ParagraphResult(paragraph_id="p_001", section=EVIL, type="result", risk="red",
                           risk_score=0.9, span=(0, 1), text=EVIL, cards=(card,))
    result = VerifyResult(draft=EVIL, draft_sha256="0" * 64, paragraphs=(para,), summary={})
    html = result._repr_html_()
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert 'href="file:///tmp/a.pdf#page=3"' in html


def test_search_results_render_with_page_links(small_corpus: Path) -> None:
    settings = sv.load_settings(corpus=small_corpus)
    with sv.open_store(small_corpus, read_only=True) as store:
        hits = sv.search("heparin bleeding trauma", store=store, settings=settings, k=3)
    html = hits._repr_html_()
    assert html.count('<li class="hit"') == len(hits) == 3
    assert all(h.chunk_id in html for h in hits)
    assert "#page=" in html


def test_decide_is_stored_and_shows_in_feedback_stats(verified: tuple[Path, VerifyResult]) -> None:
    corpus, result = verified
    red = next(p for p in result.paragraphs if p.risk == "red")
    blue = next(p for p in result.paragraphs if p.risk == "blue")
    result.decide(red.paragraph_id, "reject", note="the source reports 2.8%")
    result.decide(blue.paragraph_id, "revise", note="first thought")
    result.decide(blue.paragraph_id, "accept", note=EVIL)  # replaces the earlier decision
    with pytest.raises(InputError, match="no paragraph 'p_999'"):
        result.decide("p_999", "accept")
    with pytest.raises(InputError, match="unknown decision 'maybe'"):
        result.decide(red.paragraph_id, "maybe")
    cli = CliRunner().invoke(app, ["feedback", "stats", "--corpus", str(corpus), "-f", "json"])
    assert cli.exit_code == 0, cli.stderr
    stats = json.loads(cli.stdout)
    assert stats["decisions"] == 2
    assert stats["by_decision"] == {"accept": 1, "revise": 0, "reject": 1}
    assert stats["by_risk_and_decision"]["red"]["reject"] == 1
    assert stats["risk_coverage"] == 1.0 and stats["adoption_rate"] == 1.0
    with sv.open_store(corpus, read_only=True) as store:
        rows = store.rows("SELECT run_id, note FROM feedback ORDER BY paragraph_id")
    assert {r["run_id"] for r in rows} == {result.run_id}
    assert EVIL in [r["note"] for r in rows]


def test_decision_widget_buttons_store_decisions(verified: tuple[Path, VerifyResult]) -> None:
    pytest.importorskip("ipywidgets")
    from sciverify.notebook import decision_widget

    corpus, result = verified
    box = decision_widget(result)
    first = box.children[0]
    buttons = first.children[1].children
    assert [b.description for b in buttons[:3]] == ["accept", "revise", "reject"]
    buttons[1].click()
    assert "stored" in first.children[1].children[-1].value
    with sv.open_store(corpus, read_only=True) as store:
        got = store.scalar("SELECT decision FROM feedback WHERE paragraph_id = ?",
                           [result.paragraphs[0].paragraph_id])
    assert got == "revise"


def test_example_notebook_runs_headless() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(REPO / "docs" / "notebook.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(REPO)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert html.count('<section class="para risk-') == 2
    assert '<li class="hit"' in html and "<h4>Direct findings</h4>" in html
    stats = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "'decisions': 2" in stats and "'risk_coverage': 1.0" in stats


def test_answer_renders_parts_and_citations(small_corpus: Path) -> None:
    settings = sv.load_settings(corpus=small_corpus)
    question = "What is the risk of bleeding with heparin in trauma patients? <b>now</b>"
    with sv.open_store(small_corpus, read_only=True) as store:
        answer = sv.ask(question, store=store, settings=settings)
    html = answer._repr_html_()
    for title in ("Direct findings", "Synthesis", "Insufficient evidence"):
        assert f"<h4>{title}</h4>" in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html and "<b>now" not in html
    assert answer.direct and html.count('<li class="statement') == len(answer.statements)
    assert answer.direct[0].citations[0] in html and "#page=" in html
