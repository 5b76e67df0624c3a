"""Verify outputs: JSON, JSONL, Markdown, the terminal table and the HTML report in real Chromium."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from report_support import (
    CHROMIUM,
    NO_CHROMIUM,
    Chromium,
    build_result,
    export_decisions,
    paper_sentences,
)

from sciverify.records import Card, EvidenceRef, ParagraphResult, VerifyResult
from sciverify.report import (
    pdf_link,
    render_table,
    result_to_html,
    result_to_json,
    result_to_jsonl_rows,
    result_to_markdown,
    riskiest_first,
)

PAPER = "cer__example3_clin_sci2014.pdf"  # 13 pages: evidence on several pages
HOSTILE = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
           ' </script><!-- [a link](javascript:alert(1)) **bold** [bold]rich[/bold] &amp;')
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)


@pytest.fixture(scope="module")
def paper(shared_corpora: Path) -> Path:
    return shared_corpora / "pdfs" / PAPER


@pytest.fixture(scope="module")
def result(paper: Path) -> VerifyResult:
    return build_result(paper)


def hostile(result: VerifyResult) -> VerifyResult:
    """The same result with the payload planted in every untrusted text field."""
    paragraphs = []
    for p in result.paragraphs:
        cards = tuple(replace(c, claim=c.claim + HOSTILE, keyword=HOSTILE,
                              suggested_action=HOSTILE, downgrade=HOSTILE,
                              evidence=tuple(replace(e, snippet=e.snippet + HOSTILE,
                                                     title=HOSTILE, chunk_id=HOSTILE)
                                             for e in c.evidence))
                      for c in p.cards)
        paragraphs.append(replace(p, text=p.text + HOSTILE, section=HOSTILE, cards=cards))
    return replace(result, draft=f"x{HOSTILE}.md", paragraphs=tuple(paragraphs),
                   run_id=f"run{HOSTILE}")


def test_json_shape_key_order_and_reading_order(result: VerifyResult, paper: Path) -> None:
    doc = result_to_json(result)
    assert list(doc) == ["draft", "draft_sha256", "run_id", "paragraphs", "summary"]
    para = doc["paragraphs"][1]
    assert list(para) == ["paragraph_id", "section", "type", "risk", "risk_score", "span", "text",
                          "cards", "layers", "claims", "skipped"]
    card = para["cards"][0]
    assert list(card) == ["paragraph_id", "layer", "status", "confidence", "claim", "keyword",
                          "evidence", "suggested_action", "finding", "downgrade", "claim_id"]
    assert list(card["evidence"][0]) == ["paper_id", "chunk_id", "source", "page", "snippet",
                                         "match_type", "score", "title"]
    assert [p["paragraph_id"] for p in doc["paragraphs"]] == ["p_001", "p_002", "p_003"]
    starts = [p["span"][0] for p in doc["paragraphs"]]
    assert starts == sorted(starts)
    # The whole object is plain JSON and round-trips to the records' values.
    back = json.loads(json.dumps(doc))
    assert back == doc
    assert back["paragraphs"][1]["text"] == result.paragraphs[1].text
    assert card["evidence"][0]["snippet"] in {s for *_, s in paper_sentences(paper)}
    assert card["status"] == "contradicted" and card["evidence"][0]["match_type"] == "contradict"


def test_jsonl_is_one_card_per_line_and_every_paragraph_appears(result: VerifyResult) -> None:
    bare = ParagraphResult("p_004", "Discussion", "result", "blue", 0.0, (9000, 9010),
                           "No claims.")
    two = replace(result.paragraphs[1], cards=result.paragraphs[1].cards * 2)
    res = replace(result, paragraphs=(result.paragraphs[0], two, result.paragraphs[2], bare))
    lines = [json.dumps(row, ensure_ascii=False) for row in result_to_jsonl_rows(res)]
    assert all("\n" not in line for line in lines)
    rows = [json.loads(line) for line in lines]
    assert [r["paragraph_id"] for r in rows] == ["p_001", "p_002", "p_002", "p_003", "p_004"]
    assert [r["risk"] for r in rows] == ["blue", "red", "red", "yellow", "blue"]
    assert rows[-1]["card"] is None
    for row in rows[:-1]:
        assert row["card"]["paragraph_id"] == row["paragraph_id"]
        assert list(row) == ["run_id", "draft_sha256", "paragraph_id", "section", "type", "risk",
                             "risk_score", "card"]
    assert rows[1]["risk_score"] == 0.92 and rows[0]["run_id"] == "run-0001"


def test_markdown_is_riskiest_first_and_untrusted_text_stays_text(result: VerifyResult) -> None:
    bad = hostile(result)
    block = "# not a heading\n1. not a list\n> not a quote\n- not an item\n| not | a table |"
    bad = replace(bad, paragraphs=(replace(bad.paragraphs[0], text=block), *bad.paragraphs[1:]))
    text = result_to_markdown(bad)
    order = re.findall(r"^\| \d \| (p_\d+) \|", text, flags=re.MULTILINE)
    assert order == ["p_002", "p_003", "p_001"]  # red, yellow, blue
    rendered = MarkdownIt("commonmark").enable("table").render(text)
    for tag in ("<script", "<img", "<a ", "<!--", "<ol", "<blockquote>\n<blockquote",
                "<strong>bold"):
        assert tag not in rendered, tag
    assert rendered.count("<h1>") == 1 and "<h3>" in rendered
    assert rendered.count("<table>") == 1  # the riskiest-first table only
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in rendered
    assert "**bold**" in rendered and "# not a heading" in rendered
    # The riskiest-first table keeps six columns although claims contain "|".
    table = rendered.split("<tbody>")[1].split("</tbody>")[0]
    assert all(row.count("<td>") == 6 for row in table.split("<tr>")[1:])


def test_markdown_and_json_of_an_empty_draft() -> None:
    empty = VerifyResult(draft="-", draft_sha256="0" * 64, paragraphs=(), summary={})
    assert "_(no paragraphs)_" in result_to_markdown(empty)
    assert result_to_json(empty)["paragraphs"] == [] and result_to_jsonl_rows(empty) == []
    assert "The draft has no paragraphs." in result_to_html(empty)


_COLOUR = re.compile(r"\x1b\[(?:\d+;)*(?:3[0-7]|38;5;\d+)(?:;\d+)*m")  # a foreground colour


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_table_is_riskiest_first_plain_off_a_terminal_and_never_markup(
        result: VerifyResult, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLORTERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "160")
    bad = hostile(result)
    out = io.StringIO()
    render_table(bad, out)
    text = out.getvalue()
    assert "\x1b[" not in text
    assert text.index("p_002") < text.index("p_003") < text.index("p_001")
    squashed = re.sub(r"[\s│┃|]", "", text)
    assert "[bold]rich[/bold]" in squashed  # shown, not interpreted
    tty = _Terminal()
    render_table(result, tty)
    assert _COLOUR.search(tty.getvalue())  # colours on a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    plain = _Terminal()
    render_table(result, plain)
    assert not _COLOUR.search(plain.getvalue())  # no colours with NO_COLOR


def test_pdf_link_only_for_absolute_pdf_paths(tmp_path: Path) -> None:
    pdf = tmp_path / "a paper.pdf"
    assert pdf_link(str(pdf), 12) == pdf.as_uri() + "#page=12"
    assert "%20" in (pdf_link(str(pdf), 12) or "")
    assert pdf_link(str(pdf), None) == pdf.as_uri()
    assert pdf_link("pdfs/relative.pdf", 3) is None
    assert pdf_link(str(tmp_path / "records.jsonl"), 3) is None
    assert pdf_link("https://example.org/x.pdf", 3) is None
    assert pdf_link(None, 3) is None


def test_html_is_self_contained_and_embeds_json_safely(result: VerifyResult) -> None:
    page = result_to_html(hostile(result))
    assert not re.search(r"<(?:link|iframe|object|embed|img)\b", page)
    assert not re.search(r"(?:src|href)=\"(?!#|file:///)", page)
    assert "http://" not in page and "https://" not in page
    data = re.search(r'<script type="application/json" id="sciverify-data">(.*?)</script>', page,
                     flags=re.DOTALL)
    assert data is not None and "<" not in data.group(1) and "&" not in data.group(1)
    assert json.loads(data.group(1))["draft"] == f"x{HOSTILE}.md"
    assert page.count("<script") == 2  # the data block and the page's own script


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Chromium]:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    with Chromium(tmp_path / "profile") as b:
        yield b


def _write(tmp_path: Path, result: VerifyResult, name: str = "report.html") -> Path:
    path = tmp_path / name
    path.write_text(result_to_html(result), encoding="utf-8")
    return path


@needs_chromium
def test_report_opens_in_chromium_riskiest_first_with_evidence_and_page_links(
        result: VerifyResult, browser: Chromium, tmp_path: Path) -> None:
    browser.open(_write(tmp_path, result).as_uri())
    ev = browser.evaluate
    assert ev("[...document.querySelectorAll('#navigator-list a')].map(a => a.dataset.paragraphId)"
              ) == ["p_002", "p_003", "p_001"]
    assert ev("[...document.querySelectorAll('section.para')].map(s => s.dataset.paragraphId)"
              ) == ["p_001", "p_002", "p_003"]
    colours = ev("[...document.querySelectorAll('section.para')].map(s => "
                 "getComputedStyle(s).backgroundColor)")
    assert colours == ["rgb(238, 244, 251)", "rgb(253, 238, 238)", "rgb(255, 248, 225)"]
    red = result.paragraphs[1].cards[0].evidence[0]
    assert ev("document.querySelector('#para-2 .snippet').textContent") == red.snippet
    href = ev("document.querySelector('#para-2 a.pdf').href")
    assert href == Path(str(red.source)).as_uri() + f"#page={red.page}"
    assert ev("document.querySelector('#para-2 .where').textContent").count(f"page {red.page}")
    # unverifiable is neutral: not the red of a contradiction
    badge = ev("getComputedStyle(document.querySelector('#para-3 .badge.status')).backgroundColor")
    assert badge == "rgb(223, 230, 238)"
    ev("document.querySelector('#navigator-list a').click()")
    assert ev("location.hash") == "#para-2" and ev("document.querySelector(':target').id") == "para-2"
    assert ev("performance.getEntriesByType('resource').length") == 0  # nothing fetched
    assert browser.console_errors() == []
    artefacts = tmp_path / "artefacts"
    artefacts.mkdir()
    png = browser.screenshot(artefacts / "report.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


@needs_chromium
def test_accept_click_is_exported(result: VerifyResult, browser: Chromium, tmp_path: Path) -> None:
    browser.open(_write(tmp_path, result).as_uri())
    ev = browser.evaluate
    export = "JSON.parse(document.getElementById('decisions-export').value)"
    assert ev(export) == {"run_id": "run-0001", "draft_sha256": result.draft_sha256,
                          "decisions": []}
    ev("document.querySelector('#para-3 textarea.note').value = 'needs a citation'")
    ev("document.querySelector('#para-3 button[data-decision=revise]').click()")
    ev("document.querySelector('#para-1 button[data-decision=accept]').click()")
    out = ev(export)
    assert [(d["paragraph_id"], d["decision"], d["risk"], d["note"]) for d in out["decisions"]] == [
        ("p_001", "accept", "blue", ""), ("p_003", "revise", "yellow", "needs a citation")]
    for d in out["decisions"]:
        assert datetime.fromisoformat(d["decided_at"]).year >= 2024
        assert list(d) == ["paragraph_id", "decision", "risk", "note", "decided_at"]
    assert ev("document.querySelector('#para-1 button[data-decision=accept]')"
              ".getAttribute('aria-pressed')") == "true"
    ev("document.querySelector('#para-1 button[data-decision=accept]').click()")  # undo
    assert [d["paragraph_id"] for d in ev(export)["decisions"]] == ["p_003"]
    assert ev("document.getElementById('decided-count').textContent") == "1"


@needs_chromium
def test_hostile_draft_text_is_shown_not_run(result: VerifyResult, browser: Chromium,
                                             tmp_path: Path) -> None:
    bad = hostile(result)
    browser.open(_write(tmp_path, bad).as_uri())
    ev = browser.evaluate
    assert ev("typeof window.__pwned") == "undefined"
    assert ev("document.querySelectorAll('img').length") == 0
    assert ev("document.querySelectorAll('script').length") == 2
    assert ev("document.querySelector('#para-2 .text').textContent") == bad.paragraphs[1].text
    assert ev("document.title") == f"sciverify report: x{HOSTILE}.md"
    assert HOSTILE in ev("document.querySelector('#para-2 .claim').textContent")
    # Defence in depth: the page's policy refuses any inline script but its own.
    ev("(() => { const s = document.createElement('script');"
       " s.textContent = 'window.__injected = 1'; document.body.append(s); })()")
    assert ev("typeof window.__injected") == "undefined"
    # The page still works: its own script read the data block and exports decisions.
    ev("document.querySelector('#para-2 button[data-decision=reject]').click()")
    out = json.loads(ev("document.getElementById('decisions-export').value"))
    assert out["run_id"] == f"run{HOSTILE}" and out["decisions"][0]["decision"] == "reject"


def test_cards_without_evidence_or_sources_render(result: VerifyResult) -> None:
    card = Card(paragraph_id="p_001", layer="consistency", status="warning", confidence=0.6,
                claim="ACE is defined twice", keyword="ACE",
                evidence=(EvidenceRef("x", "x:a:1", None, None, "s", "related"),))
    p = replace(result.paragraphs[0], cards=(card,))
    page = result_to_html(replace(result, paragraphs=(p,)))
    assert 'class="pdf"' not in page and "ACE is defined twice" in page
    assert "- **warning** · consistency" in result_to_markdown(replace(result, paragraphs=(p,)))


ECOLOGY_PDFS = ("norma__PMC4521097_behavecolsociobiol2015.pdf",
                "norma__f1000research_3_190_sharks.pdf")


@pytest.mark.slow
def test_engine_result_through_every_output_and_back_as_feedback(tmp_path: Path) -> None:
    """A real verify run on two sample papers, rendered, decided in Chromium and imported."""
    import shutil

    from typer.testing import CliRunner

    import sciverify as sv
    from sciverify.cli import app
    from sciverify.feedback import feedback_stats, import_decisions
    from sciverify.verify import log_run, verify

    repo = Path(__file__).resolve().parents[1]
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for name in ECOLOGY_PDFS:
        shutil.copy(repo / "corpora" / "sample" / name, pdfs / name)
    corpus = tmp_path / "corpus"
    ingested = CliRunner().invoke(app, ["ingest", str(pdfs), "--corpus", str(corpus), "-q"])
    assert ingested.exit_code == 0, ingested.stderr
    draft = (repo / "tests" / "drafts" / "ecology_review.md").read_text()
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus) as store:
        result = log_run(store, verify(draft, store=store, settings=settings,
                                       source="ecology_review.md"), settings, text=draft)
        doc = result_to_json(result)
        assert doc["run_id"] == result.run_id and len(doc["paragraphs"]) >= 3
        ids = [p["paragraph_id"] for p in doc["paragraphs"]]
        assert ids == sorted(ids) and json.loads(json.dumps(doc)) == doc
        rows = result_to_jsonl_rows(result)
        assert {r["paragraph_id"] for r in rows} == set(ids)
        assert sum(r["card"] is not None for r in rows) == sum(len(p.cards) for p in result.paragraphs)
        rendered = MarkdownIt("commonmark").enable("table").render(result_to_markdown(result))
        assert "<script" not in rendered and rendered.count("<h3>") == len(ids)
        links = [pdf_link(e.source, e.page) for p in result.paragraphs for c in p.cards
                 for e in c.evidence if e.page]
        assert links and all(link and link.startswith(pdfs.resolve().as_uri() + "/") for link in links)
        if CHROMIUM is None:
            pytest.skip(f"the outputs above passed; the browser half needs it: {NO_CHROMIUM}")

        report = tmp_path / "report.html"
        report.write_text(result_to_html(result), encoding="utf-8")
        worst = riskiest_first(result)[0]
        with Chromium(tmp_path / "profile") as browser:
            browser.open(report.as_uri())
            nav = browser.evaluate("[...document.querySelectorAll('#navigator-list a')]"
                                   ".map(a => a.dataset.paragraphId)")
            assert nav[0] == worst.paragraph_id and sorted(nav) == ids
            assert browser.evaluate("document.querySelectorAll('a.pdf').length") == len(links)
        clicks = [(worst.paragraph_id, "revise", "check the source"), (ids[0], "accept", "")]
        shown, downloaded = export_decisions(report, tmp_path / "profile2", clicks, tmp_path / "dl")
        assert shown["run_id"] == result.run_id
        assert import_decisions(downloaded, store=store) == 2
        stats = feedback_stats(store, run_id=result.run_id)
        assert stats["decisions"] == 2 and stats["by_decision"]["revise"] == 1
        flagged = worst.risk in ("red", "yellow")
        assert stats["risk_coverage"] == (1.0 if flagged else 0.0)
