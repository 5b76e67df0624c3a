"""ask end to end on the sample PDFs: tiers, citations that resolve, out-of-scope questions, the
LLM path against a local OpenAI-compatible server (correct, wrong chunk, invented citation, broken
JSON, timeout), output formats and the run log."""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.ask import Answer, ask
from sciverify.ask.llm import LanguageModelError
from sciverify.cli import app
from sciverify.errors import ExitCode, UsageError

REPO = Path(__file__).resolve().parents[1]
IN_SCOPE = {
    # question -> the paper that answers it
    "Which thromboprophylaxis is recommended for trauma patients?": "doi-10-1186-1752-2897-4-1",
    "How long do blacknose sharks live according to tag-recapture data?":
        "doi-10-12688-f1000research-4767-2",
    "Which stimulation sites were effective for functional hand opening?":
        "doi-10-1186-s12984-016-0129-6",
}
# Real questions from outside these five papers (medicine, ecology, engineering): none of the
# papers is about any of them.
OUT_OF_SCOPE = (
    "What is the boiling point of liquid nitrogen at sea level?",
    "Which transformer model has the best BLEU score on WMT14 English-German translation?",
    "Does the MapReduce framework scale to thousands of machines?",
    "What is the half-life of caffeine in adults?",
)


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdfs = tmp_path_factory.mktemp("ask_pdfs")
    for pdf in sorted((REPO / "corpora" / "sample").glob("*.pdf")):
        shutil.copy(pdf, pdfs / pdf.name)
    folder = tmp_path_factory.mktemp("ask_corpus") / "corpus"
    result = CliRunner().invoke(app, ["ingest", str(pdfs), "--corpus", str(folder), "-q",
                                      "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return folder


@pytest.fixture(scope="session")
def answers(corpus: Path) -> dict[str, Answer]:
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        return {q: ask(q, store=store, settings=settings) for q in (*IN_SCOPE, *OUT_OF_SCOPE)}


def _norm(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------------- extractive


@pytest.mark.parametrize("question", list(IN_SCOPE))
def test_in_scope_question_has_cited_direct_findings_from_the_right_paper(
        answers: dict[str, Answer], question: str) -> None:
    answer = answers[question]
    assert answer.answered and answer.mode == "extractive"
    assert answer.direct, answer.insufficient
    assert IN_SCOPE[question] in {s.papers[0] for s in answer.direct}
    for s in answer.direct:
        assert s.tier == "direct" and len(s.citations) == 1 and s.status == "supported"
        assert s.citations[0].startswith(s.papers[0] + ":")
    assert answer.synthesis  # at least the single-source or agreement note


def test_every_citation_resolves_to_a_stored_chunk_and_page(
        corpus: Path, answers: dict[str, Answer]) -> None:
    with sv.open_store(corpus, read_only=True) as store:
        chunks = {r["chunk_id"]: r for r in store.rows(
            "SELECT chunk_id, paper_id, page, text FROM chunks")}
    cited = 0
    for answer in answers.values():
        for s in answer.statements:
            for chunk_id, page, paper in zip(s.citations, s.pages, s.papers, strict=True):
                row = chunks[chunk_id]
                assert row["page"] == page and page is not None and row["paper_id"] == paper
                cited += 1
        for s in answer.direct:  # an extractive finding is a verbatim sentence of its chunk
            assert _norm(s.text) in _norm(chunks[s.citations[0]]["text"])
        for e in answer.evidence:
            assert _norm(e.text) in _norm(chunks[e.chunk_id]["text"])
    assert cited >= len(IN_SCOPE) * 2


@pytest.mark.parametrize("question", OUT_OF_SCOPE)
def test_out_of_scope_question_lands_in_insufficient_evidence(
        answers: dict[str, Answer], question: str) -> None:
    answer = answers[question]
    assert not answer.answered
    assert answer.direct == () and answer.synthesis == ()
    assert answer.insufficient and "does not answer" in answer.insufficient[0].text
    assert answer.insufficient[0].search_terms


def test_fever_claims_are_out_of_scope_for_the_sample_papers(
        corpus: Path, shared_corpora: Path) -> None:
    """Real claims of another domain (FEVER, Wikipedia) never get direct findings here."""
    lines = (shared_corpora / "fever" / "paper_dev.jsonl").read_text().splitlines()[:15]
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        results = [ask(json.loads(line)["claim"], store=store, settings=settings)
                   for line in lines]
    assert [a.question for a in results if a.direct] == []


def test_background_never_stands_as_a_direct_finding(answers: dict[str, Answer]) -> None:
    for answer in answers.values():
        for s in answer.direct:
            assert s.tier == "direct"
        assert all(e.section_kind not in ("introduction", "related_work")
                   for e in answer.evidence if e.tier == "direct")


def test_empty_question_is_a_usage_error(corpus: Path) -> None:
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store, pytest.raises(UsageError):
        ask("  ", store=store, settings=settings)


# ---------------------------------------------------------------------------- the LLM path

_EVIDENCE_LINE = re.compile(r"^\d+\. \[([^\]\s]+)\] \((\w+)\)(?: \(condition: (.*?)\))? (.+)$")


class _Handler(BaseHTTPRequestHandler):
    mode: ClassVar[str] = "correct"
    requests: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        if self.mode == "timeout":
            time.sleep(3)
        evidence = [m.groups() for line in body["messages"][1]["content"].splitlines()
                    if (m := _EVIDENCE_LINE.match(line))]
        content = json.dumps(_reply(self.mode, evidence)) if self.mode != "broken" else (
            '{"direct_findings": [{"statement": "unterminated')
        payload = json.dumps({"choices": [{"message": {"role": "assistant",
                                                       "content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except OSError:
            pass  # the client gave up (the timeout case)


def _reply(mode: str, evidence: list[tuple[str, str, str, str]]) -> dict[str, Any]:
    direct = [(c, t, s) for c, t, cond, s in evidence if t == "direct"]
    first = direct[0]
    if mode == "drops_condition":  # the finding without the condition its sentence states
        chunk, cond, sentence = next((c, cond, s) for c, t, cond, s in evidence
                                     if t == "direct" and cond and cond in s)
        first = (chunk, "direct", " ".join(sentence.replace(cond, "").split()).replace(" .", "."))
    # A chunk that does not state the finding: another paper's, else another chunk's.
    others = sorted((e for e in direct if e[0] != first[0]),
                    key=lambda e: e[0].split(":")[0] == first[0].split(":")[0])
    cite = {"correct": first[0], "wrong_chunk": others[0][0],
            "invented": "no-such-paper:results:7"}.get(mode, first[0])
    return {
        "direct_findings": [{"statement": first[2], "citations": [cite]}],
        "synthesis": [{"statement": f"One paper reports this [{cite}].", "citations": [],
                       "conflict": False}],
        "insufficient_evidence": [{"statement": "Long-term outcomes are not reported.",
                                   "search_terms": ["long-term outcomes"]}],
    }


@pytest.fixture()
def llm_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    _Handler.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


QUESTION = "Which thromboprophylaxis is recommended for trauma patients?"


def _ask_llm(corpus: Path, url: str, mode: str, question: str = QUESTION,
             timeout: float = 20.0) -> Answer:
    _Handler.mode = mode
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        return ask(question, store=store, settings=settings, llm_url=url, llm_model="test-model",
                   llm_timeout=timeout)


def test_llm_answer_that_cites_correctly_is_supported(corpus: Path, llm_server: str) -> None:
    answer = _ask_llm(corpus, llm_server, "correct")
    prompt = _Handler.requests[0]["messages"][1]["content"]
    assert QUESTION in prompt and "doi-10-1186-1752-2897-4-1:" in prompt
    assert answer.mode == "llm" and answer.answered
    (finding,) = answer.direct
    assert finding.status == "supported" and not finding.is_marked, finding
    assert finding.pages[0] is not None and finding.bad_citations == ()
    assert answer.insufficient[0].search_terms == ("long-term outcomes",)


def test_llm_answer_citing_a_wrong_chunk_is_caught(corpus: Path, llm_server: str) -> None:
    answer = _ask_llm(corpus, llm_server, "wrong_chunk")
    (finding,) = answer.direct
    assert finding.finding == "wrong_citation" and finding.is_marked, finding
    assert finding.status != "supported"
    assert finding.shown != finding.text  # shown weaker or flagged, never as written


def test_llm_answer_with_an_invented_citation_is_caught(corpus: Path, llm_server: str) -> None:
    answer = _ask_llm(corpus, llm_server, "invented")
    (finding,) = answer.direct
    assert finding.finding == "invented_citation" and finding.is_marked
    assert finding.bad_citations == ("no-such-paper:results:7",)
    assert finding.pages == (None,) and finding.papers == ("",)
    synth = answer.synthesis[0]  # the marker written inline is read and checked too
    assert synth.bad_citations == ("no-such-paper:results:7",) and synth.is_marked


def test_llm_broken_json_is_a_clear_environment_error(corpus: Path, llm_server: str) -> None:
    with pytest.raises(LanguageModelError, match="did not answer JSON") as info:
        _ask_llm(corpus, llm_server, "broken")
    assert info.value.exit_code == ExitCode.ENVIRONMENT and info.value.hint


def test_llm_timeout_is_a_clear_environment_error(corpus: Path, llm_server: str) -> None:
    started = time.perf_counter()
    with pytest.raises(LanguageModelError, match="timed out"):
        _ask_llm(corpus, llm_server, "timeout", timeout=1.0)
    assert time.perf_counter() - started < 30


def test_llm_is_not_asked_when_the_corpus_has_nothing(corpus: Path, llm_server: str) -> None:
    answer = _ask_llm(corpus, llm_server, "correct", question=OUT_OF_SCOPE[0])
    assert _Handler.requests == [] and not answer.answered and answer.direct == ()
    assert "does not answer" in answer.insufficient[0].text


def test_cli_llm_failures_exit_4_with_the_reason(corpus: Path, llm_server: str) -> None:
    _Handler.mode = "broken"
    result = CliRunner().invoke(app, ["ask", QUESTION, "--corpus", str(corpus), "-q",
                                      "--llm-url", llm_server, "--llm-model", "m"])
    assert result.exit_code == 4 and "did not answer JSON" in result.stderr
    result = CliRunner().invoke(app, ["ask", QUESTION, "--corpus", str(corpus), "-q",
                                      "--llm-url", llm_server])
    assert result.exit_code == 2 and "model name" in result.stderr


# ---------------------------------------------------------------------------- CLI and run log


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "md", "html"])
def test_cli_formats(corpus: Path, fmt: str) -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, "--corpus", str(corpus), "-q",
                                      "--format", fmt])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    if fmt == "json":
        data = json.loads(out)
        assert data["question"] == QUESTION and data["direct"] and data["run_id"]
    elif fmt == "jsonl":
        rows = [json.loads(line) for line in out.splitlines()]
        assert {r["kind"] for r in rows} >= {"statement", "gap"}
        assert all(r["status"] in ("supported", "partially_supported", "contradicted",
                                   "unverifiable") for r in rows if r["kind"] == "statement")
    else:
        for title in ("Direct findings", "Synthesis", "Insufficient evidence"):
            assert title in out
        assert "doi-10-1186-1752-2897-4-1" in out


def test_html_and_markdown_escape_the_question(corpus: Path) -> None:
    question = "Is <script>alert(1)</script> thromboprophylaxis recommended for trauma patients?"
    for fmt in ("html", "md"):
        result = CliRunner().invoke(app, ["ask", question, "--corpus", str(corpus), "-q",
                                          "--format", fmt])
        assert result.exit_code == 0, result.stderr
        assert "<script>" not in result.stdout and "&lt;script&gt;" in result.stdout


def test_cli_run_is_logged(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "answer.json"
    result = CliRunner().invoke(app, ["ask", QUESTION, "--corpus", str(corpus), "-q",
                                      "--format", "json", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    run_id = json.loads(out.read_text())["run_id"]
    with sv.open_store(corpus, read_only=True) as store:
        row = store.rows("SELECT command, input_text, retrieved, output FROM runs"
                         " WHERE run_id = ?", [run_id])[0]
    assert row["command"] == "ask" and row["input_text"] == QUESTION
    assert json.loads(row["retrieved"]) and json.loads(row["output"])["run_id"] == run_id


def test_llm_statement_dropping_a_condition_is_shown_weaker(corpus: Path,
                                                           llm_server: str) -> None:
    answer = _ask_llm(corpus, llm_server, "drops_condition")
    (finding,) = answer.direct
    assert finding.status == "partially_supported" and finding.is_marked, finding
    assert finding.shown != finding.text and finding.condition
    assert finding.condition.lower() in finding.shown.lower()  # the condition is put back


# ---------------------------------------------------------------------------- synthesis

# COVID-Fact pairs: a real claim and its refuted counterpart (one word flipped).
COVIDFACT_PAIRS = (
    ("Fenofibrate increases the amount of sulfatide which seems beneficial against covid-19",
     "Fenofibrate reduces the amount of sulfatide which seems beneficial against covid-19"),
    (("Berberine and obatoclax inhibit sars-cov-2 replication in primary human nasal epithelial "
      "cells in vitro."),
     ("Berberine and obatoclax induce sars-cov-2 replication in primary human nasal epithelial "
      "cells in vitro.")),
)


def _finding(paper: str, text: str) -> Any:
    from sciverify.ask import Evidence

    return Evidence(chunk_id=f"{paper}:abstract:1", paper_id=paper, title=None, year=None,
                    section="Abstract", section_kind="abstract", page=1, source=None,
                    tier="direct", text=text, condition="", lexical=0.9, similarity=0.8,
                    score=0.8, rank=1)


@pytest.mark.parametrize(("supported", "refuted"), COVIDFACT_PAIRS)
def test_conflicting_findings_are_shown_as_one_conflict_never_merged(
        shared_corpora: Path, supported: str, refuted: str) -> None:
    from sciverify.ask.extractive import synthesis
    from sciverify.entail import load_entailer
    from sciverify.verify.settings import verify_settings

    lines = (shared_corpora / "covidfact" / "COVIDFACT_dataset.jsonl").read_text()
    assert supported in lines and refuted in lines  # the pair is real data
    findings = [_finding("paper-a", supported), _finding("paper-b", refuted)]
    out = synthesis(supported, findings, entailer=load_entailer("bundled"),
                    cfg=verify_settings(sv.load_settings()))
    conflicts = [s for s in out if s.finding == "conflict"]
    assert len(conflicts) == 1 and conflicts[0].status == "contradicted"
    assert set(conflicts[0].citations) == {"paper-a:abstract:1", "paper-b:abstract:1"}
    assert supported in conflicts[0].shown and refuted in conflicts[0].shown
    sides = {s.text.split(" the statement")[0] for s in out if s.finding is None}
    assert sides == {"1 paper(s) support", "1 paper(s) contradict"}
