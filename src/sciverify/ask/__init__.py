"""ask: a question -> evidence in tiers -> an answer in three parts, every statement cited and checked.

DESIGN.md 2.4. `ask()` retrieves hybrid top-k chunks (`search`), cuts them into sentences,
scores each sentence against the question (lexical coverage and embedding similarity), sorts
them into evidence tiers and writes the answer: "Direct findings", "Synthesis" (agreement and
conflicts between papers, each with its conditions) and "Insufficient evidence" (what the
corpus does not answer, with search terms). Without a language model the answer is extractive
(`extractive.py`); with one (`llm.py`, any OpenAI-compatible endpoint) the model writes under a
constrained template and every statement is then checked against its citations by the verify
decision machinery. `log_ask_run()` records a run in the `runs` table.

A citation is `[chunk_id]`; a chunk id is `paper_id:section:ordinal`, so the marker names the
paper and the chunk (`[paper_id:chunk]`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from sciverify.errors import UsageError

__all__ = ["Answer", "Evidence", "Gap", "Statement", "ask", "log_ask_run"]

PARTS = ("direct", "synthesis", "insufficient")
PART_TITLES = {
    "direct": "Direct findings",
    "synthesis": "Synthesis",
    "insufficient": "Insufficient evidence",
}
TIERS = ("direct", "method", "limitation", "background")
INFO_FINDINGS = frozenset({"single_source"})  # said for information, not a problem to mark


@dataclass(frozen=True, slots=True)
class Evidence:
    """One evidence sentence of a stored chunk, scored against the question."""

    chunk_id: str
    paper_id: str
    title: str | None
    year: int | None
    section: str
    section_kind: str
    page: int | None
    source: str | None
    tier: str  # direct | method | limitation | background
    text: str  # the sentence, whitespace normalised
    condition: str  # population, dataset or setting it holds under ("" when none is stated)
    lexical: float  # share of the question's content words it states (verify.evidence.relevance)
    similarity: float  # cosine of question and sentence embeddings
    score: float  # what ranks the sentences
    rank: int  # rank of its chunk in the retrieval

    @property
    def marker(self) -> str:
        return f"[{self.chunk_id}]"


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of the answer with its citations and the check of it against them."""

    part: str  # direct | synthesis
    text: str  # as written (extractive: the evidence sentence; llm: the model's words)
    shown: str  # what the answer shows: `text`, or a weaker wording when only partly supported
    citations: tuple[str, ...]  # chunk ids cited, in order
    status: str  # supported | partially_supported | contradicted | unverifiable
    confidence: float
    tier: str = ""
    condition: str = ""
    finding: str | None = None  # e.g. invented_citation, wrong_citation, conflict, uncited
    note: str = ""
    pages: tuple[int | None, ...] = ()  # page of each citation (None for records without pages)
    papers: tuple[str, ...] = ()  # paper of each citation ("" for an invented one)
    bad_citations: tuple[str, ...] = ()  # markers that name no stored chunk
    evidence: tuple[str, ...] = ()  # the deciding evidence sentence(s)

    @property
    def is_marked(self) -> bool:
        """Shown with a warning: not fully supported, or a citation is wrong or invented."""
        return self.status != "supported" or (
            self.finding is not None and self.finding not in INFO_FINDINGS
        )


@dataclass(frozen=True, slots=True)
class Gap:
    """Something the corpus does not answer, with what to search for."""

    text: str
    search_terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer:
    question: str
    mode: str  # extractive | llm
    direct: tuple[Statement, ...]
    synthesis: tuple[Statement, ...]
    insufficient: tuple[Gap, ...]
    evidence: tuple[Evidence, ...]  # every relevant sentence considered, best first
    answered: bool  # False when nothing in the corpus is about the question
    retrieved: tuple[tuple[str, float], ...] = ()  # every retrieved chunk id and its score
    summary: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None

    @property
    def statements(self) -> tuple[Statement, ...]:
        return self.direct + self.synthesis

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["evidence"] = [asdict(e) | {"marker": e.marker} for e in self.evidence]
        return data

    def _repr_html_(self) -> str:
        from sciverify.notebook import answer_html

        return answer_html(self)


def ask(
    question: str,
    *,
    store: Any,
    settings: Any,
    k: int = 60,
    reranker: str | None = None,
    llm_url: str | None = None,
    llm_model: str | None = None,
    llm_timeout: float | None = None,
    entailer: Any | None = None,
) -> Answer:
    """Answer `question` from the corpus, every statement cited `[chunk_id]` and checked.

    Args:
        question: a question or a claim, in English.
        store: an open Store (read-only is enough).
        settings: Settings (search, entail and verify blocks are used).
        k: chunks retrieved (hybrid search) before sentences are scored; 50-100 is the design.
        reranker: a CrossEncoder name or path to rerank the retrieved chunks with.
        llm_url: an OpenAI-compatible endpoint; with `llm_model` the model writes the answer.
        llm_model: the model name at that endpoint.
        llm_timeout: seconds per request (default `settings.entail.llm_timeout`).
        entailer: the entailment backend for the checks; default `settings.entail.backend`.

    Returns:
        Answer: direct findings, synthesis and insufficient evidence, and the evidence used.

    Raises:
        UsageError: an empty question, or only one of llm_url / llm_model.
        StaleIndex: the corpus has no index, or it is out of date.
        LanguageModelError: the endpoint failed, timed out or broke the answer template.

    Example:
        >>> answer = ask("Does vitamin D reduce fractures?", store=store, settings=settings)
        >>> [s.shown for s in answer.direct]
    """
    from sciverify.ask import extractive

    started = time.perf_counter()
    if not question.strip():
        raise UsageError("the question is empty", hint="ask a question, e.g. 'Does X reduce Y?'")
    if bool(llm_url) != bool(llm_model):
        raise UsageError(
            "a language model needs both an endpoint and a model name",
            hint="pass --llm-url URL --llm-model NAME, or neither for an extractive answer",
        )
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    pool = extractive.gather(question, store=store, settings=settings, k=k, reranker=reranker)
    seconds["retrieve"] = time.perf_counter() - t
    if entailer is None:
        entailer = _entailer(settings)
    t = time.perf_counter()
    if llm_url and llm_model:
        from sciverify.ask import llm

        timeout = llm_timeout if llm_timeout is not None else settings.entail.llm_timeout
        answer = llm.answer(
            question, pool, store=store, settings=settings, entailer=entailer,
            url=llm_url, model=llm_model, timeout=timeout,
        )
    else:
        answer = extractive.answer(question, pool, settings=settings, entailer=entailer)
    seconds["answer"] = time.perf_counter() - t
    seconds["total"] = time.perf_counter() - started
    summary = {
        "chunks_retrieved": pool.chunks,
        "relevant_sentences": len(pool.evidence),
        "by_tier": {t: sum(1 for e in pool.evidence if e.tier == t) for t in TIERS},
        "best_lexical": round(pool.best_lexical, 4),
        "best_similarity": round(pool.best_similarity, 4),
        "statements": {s: sum(1 for x in answer.statements if x.status == s)
                       for s in ("supported", "partially_supported", "contradicted",
                                 "unverifiable")},
        "marked": sum(1 for x in answer.statements if x.is_marked),
        "models": {
            "embedding": pool.embedding_model,
            "entailment": getattr(entailer, "name", "?"),
            "llm": llm_model,
        },
        "seconds": {name: round(v, 3) for name, v in seconds.items()},
    }
    retrieved = tuple((h.chunk_id, h.score) for h in pool.hits)
    return replace(answer, summary=summary, retrieved=retrieved)


def _entailer(settings: Any) -> Any:
    from sciverify.entail import load_entailer

    e = settings.entail
    return load_entailer(e.backend, max_length=e.max_length, llm_url=e.llm_url,
                         llm_model=e.llm_model, llm_timeout=e.llm_timeout)


def log_ask_run(store: Any, answer: Answer, settings: Any) -> Answer:
    """Record an ask run in the `runs` table (like verify runs); returns it with `run_id` set.

    Args:
        store: a writable Store.
        answer: what `ask` returned.
        settings: the Settings the run used (their fingerprint is stored).
    """
    import uuid

    from sciverify.store.db import now
    from sciverify.verify import _fingerprint

    if getattr(store, "read_only", False):
        raise UsageError("the run log needs a writable corpus",
                         hint="open the store without read_only to log ask runs")
    created = now()
    run_id = f"ask-{created:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    logged = replace(answer, run_id=run_id)
    retrieved = [{"chunk_id": c, "score": score, "rank": n}
                 for n, (c, score) in enumerate(answer.retrieved, 1)]
    digest = hashlib.sha256(answer.question.encode("utf-8")).hexdigest()
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO runs (run_id, command, input_hash, input_text, settings_fingerprint,"
            " models, retrieved, output, timings, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [run_id, "ask", digest, answer.question, _fingerprint(settings),
             json.dumps(answer.summary.get("models", {}), sort_keys=True),
             json.dumps(retrieved), json.dumps(logged.to_json(), default=str),
             json.dumps(answer.summary.get("seconds", {}), sort_keys=True), created],
        )
    return logged
