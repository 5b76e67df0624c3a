"""The answer written by a language model under a constrained template, then checked.

The model gets the question and the numbered evidence sentences (tier, condition, `[chunk_id]`)
and must answer one JSON object with the three parts, citing chunk ids for every statement.
Each statement then goes through verify's decision (`verify.decision.judge`, the same blending,
checks and `entail.decide` as `sciverify verify`) against the sentences of the chunks it cites,
the other evidence standing as the rest of the corpus: a statement whose support lies in
another chunk than the one cited is a `wrong_citation`, a chunk id the corpus does not hold an
`invented_citation`, and a partly supported statement is shown in a weaker wording.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sciverify.ask import Answer, Evidence, Gap, Statement
from sciverify.ask.extractive import Pool, conflicts, pick_direct
from sciverify.errors import EnvironmentProblem

MAX_EVIDENCE = 24  # sentences given to the model

SYSTEM_PROMPT = (
    "You answer a research question using ONLY the numbered evidence sentences given. "
    "Rules: every statement cites the chunk ids of the evidence it rests on, copied exactly; "
    "state conditions (population, dataset, setting) with each finding; never merge "
    "conflicting findings into one verdict: report a conflict as a conflict; background "
    "evidence never supports a finding on its own; when the evidence does not answer "
    "(part of) the question, say so under insufficient_evidence with search terms. "
    'Answer ONLY with one JSON object: {"direct_findings": [{"statement": str, "citations": '
    '[chunk_id, ...]}], "synthesis": [{"statement": str, "citations": [chunk_id, ...], '
    '"conflict": bool}], "insufficient_evidence": [{"statement": str, "search_terms": '
    "[str, ...]}]}. No text outside the JSON."
)
_MARKER = re.compile(r"\[([^\[\]\s]+:[^\[\]\s]+)\]")


class LanguageModelError(EnvironmentProblem):
    """The language model endpoint failed, timed out, or did not follow the answer template."""


def prompt(question: str, evidence: list[Evidence]) -> list[dict[str, str]]:
    lines = [f"Question: {question}", "", "Evidence:"]
    for n, e in enumerate(evidence, 1):
        cond = f" (condition: {e.condition})" if e.condition else ""
        lines.append(f"{n}. [{e.chunk_id}] ({e.tier}){cond} {e.text}")
    if not evidence:
        lines.append("(none: the corpus holds nothing on this question)")
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": "\n".join(lines)}]


def _given(pool: Pool) -> list[Evidence]:
    """The evidence shown to the model: the direct findings first, then the other tiers."""
    direct = pick_direct(pool)
    rest = [e for e in pool.evidence if e not in direct]
    return (direct + rest)[:MAX_EVIDENCE]


def parse(content: str, url: str) -> dict[str, list[dict[str, Any]]]:
    """The model's JSON answer, validated; anything else is a LanguageModelError."""
    from sciverify.entail.llm import strip_fence

    hint = "use a model that follows JSON instructions, or drop --llm-url for an extractive answer"
    try:
        data = json.loads(strip_fence(content))
    except json.JSONDecodeError as exc:
        raise LanguageModelError(
            f"the language model did not answer JSON ({exc.msg} at char {exc.pos}): "
            f"{content[:120]!r}", path=url, hint=hint) from exc
    if not isinstance(data, dict):
        raise LanguageModelError(f"the language model answered {type(data).__name__}, not a "
                                 "JSON object", path=url, hint=hint)
    out: dict[str, list[dict[str, Any]]] = {}
    for key in ("direct_findings", "synthesis", "insufficient_evidence"):
        items = data.get(key, [])
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("statement"), str) for i in items
        ):
            raise LanguageModelError(
                f"the language model's {key!r} is not a list of {{\"statement\": ...}} objects",
                path=url, hint=hint)
        out[key] = items
    return out


def _citations(item: dict[str, Any]) -> tuple[str, list[str]]:
    """The statement without markers, and its citations (listed and written inline)."""
    text = item["statement"]
    cited = [str(c).strip().strip("[]") for c in item.get("citations") or []
             if isinstance(c, str | int)]
    cited += _MARKER.findall(text)
    clean = " ".join(_MARKER.sub("", text).split()).replace(" .", ".")
    return clean, list(dict.fromkeys(c for c in cited if c))


def _stored(store: Any, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The stored chunks among `ids` (a citation may name any chunk, given or not)."""
    if not ids:
        return {}
    rows = store.rows(
        "SELECT c.chunk_id, c.paper_id, c.section, c.section_kind, c.page, c.evidence_type,"
        " c.kind, c.text, w.title, v.source_path AS source FROM chunks c"
        " JOIN works w USING (paper_id) LEFT JOIN versions v ON v.version_id = c.version_id"
        " WHERE c.chunk_id IN (SELECT unnest(?))", [ids])
    return {r["chunk_id"]: r for r in rows}


class _Passage:
    """A stored chunk with the attributes verify's span builder reads from a search hit."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.chunk_id = row["chunk_id"]
        self.paper_id = row["paper_id"]
        self.title = row["title"]
        self.text = row["text"]
        self.page = row["page"]
        self.source = row["source"]
        self.evidence_type = row["evidence_type"]
        self.section_kind = row["section_kind"]


def check(items: list[tuple[str, str, list[str]]], *, pool: Pool, store: Any, settings: Any,
          entailer: Any) -> list[Statement]:
    """Each (part, statement, citations) checked like a verify claim against its citations."""
    from sciverify.verify.cards import fact_card
    from sciverify.verify.citations import Source
    from sciverify.verify.claims import Claim
    from sciverify.verify.decision import judge
    from sciverify.verify.evidence import ClaimCheck, _pick, model_weight, spans_of
    from sciverify.verify.settings import verify_settings

    cfg = verify_settings(settings)
    given = {e.chunk_id for e in pool.evidence}
    stored = _stored(store, sorted({c for _p, _t, cited in items for c in cited} | given))
    checks = []
    for n, (part, text, cited) in enumerate(items, 1):
        real = [c for c in cited if c in stored]
        sources = [Source(c, f"[{c}]", (stored[c]["paper_id"],) if c in stored else ())
                   for c in cited]
        seen: set[str] = set()
        spans = spans_of(text, [(_Passage(stored[c]), True) for c in real], seen)
        spans += spans_of(text, [(_Passage(stored[c]), False) for c in sorted(given)
                                  if c in stored], seen)
        spans = [s for s in spans if s.relevance >= cfg.min_candidate_relevance or s.cited]
        claim = Claim(claim_id=f"{part}.{n}", paragraph_id=part, text=text, span=(0, len(text)))
        c = ClaimCheck(claim, text, sources=sources)
        c.spans = _pick(spans, cfg.max_pairs_per_claim, bool(real))
        checks.append(c)
    if checks:
        judge(checks, [], entailer=entailer, cfg=cfg, weight=model_weight(cfg, entailer))
    out = []
    for (part, text, cited), c in zip(items, checks, strict=True):
        card = fact_card(c)
        bad = tuple(x for x in cited if x not in stored)
        finding, note = card.finding, card.suggested_action
        status = card.status
        if not cited:
            finding, note = "uncited", "the statement cites no evidence"
            status = "unverifiable" if status == "supported" else status
        elif bad:
            finding = "invented_citation"
            note = f"cited chunk(s) not in the corpus: {', '.join(bad)}"
            if len(bad) == len(cited) and status == "supported":
                status = "partially_supported"
        elif c.finding == "citation_mismatch":
            finding = "wrong_citation"
            better = c.deciding.chunk_id if c.deciding else "another chunk"
            note = f"the cited chunk does not state this; {better} does"
        elif any(x not in given for x in cited):
            finding = finding or "outside_evidence"
            note = note or "cites a chunk that was not among the evidence given"
        shown = text
        if status == "partially_supported":
            shown = card.downgrade or _weaker(text)
        elif status in ("unverifiable", "contradicted"):
            shown = f"[not supported by its citations] {text}"
        deciding = tuple(e.snippet for e in card.evidence[:1])
        out.append(Statement(
            part=part, text=text, shown=shown, citations=tuple(cited), status=status,
            confidence=card.confidence, finding=finding, note=note,
            pages=tuple(stored[x]["page"] if x in stored else None for x in cited),
            papers=tuple(stored[x]["paper_id"] if x in stored else "" for x in cited),
            bad_citations=bad, evidence=deciding,
            tier=next((e.tier for e in pool.evidence if e.chunk_id in cited), ""),
            condition=next((e.condition for e in pool.evidence if e.chunk_id in cited), ""),
        ))
    return out


def _weaker(text: str) -> str:
    body = text[0].lower() + text[1:] if text[:2] != text[:2].upper() else text
    return f"The cited evidence only partly supports that {body.rstrip('.')}."


def answer(question: str, pool: Pool, *, store: Any, settings: Any, entailer: Any, url: str,
           model: str, timeout: float) -> Answer:
    """Ask the model for the three parts, then check every statement against its citations."""
    from sciverify.entail.llm import LlmFailure, chat
    from sciverify.verify.settings import verify_settings

    if not pool.evidence:
        # Nothing on topic: the model is not asked, so it cannot invent an answer.
        from sciverify.ask.extractive import gaps

        return Answer(question=question, mode="llm", direct=(), synthesis=(),
                      insufficient=tuple(gaps(question, pool, [])), evidence=(), answered=False)
    evidence = _given(pool)
    endpoint = url.rstrip("/") + "/chat/completions"
    try:
        content = chat(endpoint, model, prompt(question, evidence), timeout=timeout)
    except LlmFailure as exc:
        raise LanguageModelError(str(exc), hint="check --llm-url and that the server is up, or "
                                 "raise the timeout (SCIVERIFY_ENTAIL__LLM_TIMEOUT)") from exc
    data = parse(content, endpoint)
    items = [("direct", *_citations(i)) for i in data["direct_findings"]]
    items += [("synthesis", *_citations(i)) for i in data["synthesis"]]
    statements = check(items, pool=pool, store=store, settings=settings, entailer=entailer)
    missing = [Gap(i["statement"], tuple(str(t) for t in i.get("search_terms") or []))
            for i in data["insufficient_evidence"]]
    direct = [s for s in statements if s.part == "direct"]
    synth = [s for s in statements if s.part == "synthesis"]
    # Conflicts between papers are shown even when the model merged them.
    cfg = verify_settings(settings)
    for a, b, why in conflicts(pick_direct(pool), entailer=entailer, cfg=cfg):
        if any({a.chunk_id, b.chunk_id} <= set(s.citations) for s in synth):
            continue
        text = (f"Conflict: {a.title or a.paper_id} reports \u201c{a.text}\u201d [{a.chunk_id}], "
                f"while {b.title or b.paper_id} reports \u201c{b.text}\u201d [{b.chunk_id}] ({why}).")
        synth.append(Statement(
            part="synthesis", text=text, shown=text, citations=(a.chunk_id, b.chunk_id),
            status="contradicted", confidence=round(min(a.score, b.score), 4),
            finding="conflict", note="found by the checker; shown as a conflict",
            pages=(a.page, b.page), papers=(a.paper_id, b.paper_id), evidence=(a.text, b.text)))
    return Answer(question=question, mode="llm", direct=tuple(direct), synthesis=tuple(synth),
                  insufficient=tuple(missing), evidence=tuple(evidence),
                  answered=any(s.status == "supported" for s in direct))
