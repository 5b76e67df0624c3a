"""The order of the verify stages, and batching across the whole draft.

`prepare` is everything that needs no corpus: segmentation, language, paragraph types, routes
and claims. `run` retrieves evidence for the claims of paragraphs routed through the fact
layer (paragraphs with nothing specific to check take the fast rule path), sends all
(evidence, claim) pairs and the cross-paragraph claim pairs of a batch to the model in one call,
then adds the logic, consistency and lineage cards and the risk of each paragraph. A long draft
is processed in batches of `batch_claims` claims, so memory and each model call stay bounded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from sciverify.errors import InputError
from sciverify.progress import Progress
from sciverify.records import Card, ParagraphResult, Status
from sciverify.verify import cards as cardmod
from sciverify.verify.claims import Claim, extract_claims
from sciverify.verify.classify import paragraph_type
from sciverify.verify.consistency import consistency_cards
from sciverify.verify.decision import (
    changed_figure,
    judge,
    model_spans,
    name_gaps,
    reversed_trend,
    swapped_tool,
    wants_naming,
)
from sciverify.verify.evidence import (
    ClaimCheck,
    PaperSentences,
    build_query,
    gather,
    model_weight,
)
from sciverify.verify.language import SUPPORTED, guess_language
from sciverify.verify.logic import claim_pairs, contradictions, evidence_logic
from sciverify.verify.parts import refine
from sciverify.verify.segment import Segment, segment
from sciverify.verify.settings import VerifySettings, cited_only, layers_for


@dataclass(slots=True)
class Prepared:
    text: str
    source: str
    paragraphs: list[Segment]
    references: list[str]
    types: dict[str, str] = field(default_factory=dict)
    layers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    claims: dict[str, list[Claim]] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    cited_only: set[str] = field(default_factory=set)  # only cited claims are fact-checked
    languages: dict[str, str | None] = field(default_factory=dict)
    fast_path: int = 0
    entail_pairs: int = 0
    model_calls: int = 0
    model_weight: float = 0.0
    warnings: list[str] = field(default_factory=list)
    citation_summary: dict[str, Any] = field(default_factory=dict)


def prepare(
    text: str, cfg: VerifySettings, embedder: Any, source: str, seconds: dict[str, float]
) -> Prepared:
    t = time.perf_counter()

    def embed(texts: list[str]) -> list[list[float]]:
        return [list(map(float, v)) for v in embedder.encode_queries(texts)]

    seg = segment(
        text,
        max_tokens=cfg.max_paragraph_tokens,
        topic_floor=cfg.topic_split_similarity,
        min_sentences=cfg.topic_split_min_sentences,
        embed=embed,
    )
    if not seg.paragraphs:
        raise InputError(
            "the draft is empty: it has headings or references but no paragraphs",
            path=source,
            hint="give a draft with at least one paragraph of text",
        )
    state = Prepared(text, source, list(seg.paragraphs), [r for r, _ in seg.references])
    state.languages = {p.paragraph_id: guess_language(p.text) for p in seg.paragraphs}
    known = [lang for lang in state.languages.values() if lang]
    english = sum(1 for lang in known if lang == "English")
    if known and english / len(known) < cfg.min_english_share:
        other = max(set(known) - {"English"}, key=known.count)
        raise InputError(
            f"the draft is mostly not in English ({len(known) - english} of {len(known)} "
            f"paragraphs read as {other})",
            path=source,
            hint=f"the models support {', '.join(SUPPORTED)} only; verify an English version",
        )
    seconds["segment"] = time.perf_counter() - t
    t = time.perf_counter()
    for p in seg.paragraphs:
        state.types[p.paragraph_id] = ptype = paragraph_type(p)
        found = extract_claims(p)
        cites = any(c.citations for c in found.claims)
        state.layers[p.paragraph_id] = layers_for(
            cfg, ptype, reads_table=p.reads_table, cites=cites
        )
        if cites and cited_only(cfg, ptype):
            state.cited_only.add(p.paragraph_id)
        state.claims[p.paragraph_id] = found.claims
        state.skipped[p.paragraph_id] = len(found.skipped)
    seconds["claims"] = time.perf_counter() - t
    return state


def _to_check(state: Prepared) -> list[ClaimCheck]:
    """Claims that the fact layer checks, each with its retrieval query."""
    out: list[ClaimCheck] = []
    context = ""
    for p in state.paragraphs:
        pid = p.paragraph_id
        claims = state.claims[pid]
        routed = "fact" in state.layers[pid] and state.languages[pid] in (None, "English")
        simple = all(c.is_simple for c in claims)
        if claims and simple:
            state.fast_path += 1
        for c in claims:
            if routed and not simple and (c.citations or pid not in state.cited_only):
                out.append(ClaimCheck(c, build_query(c, context)))
            context = c.text
    return out


def _not_english_cards(state: Prepared) -> list[Card]:
    cards = []
    for p in state.paragraphs:
        lang = state.languages[p.paragraph_id]
        if lang and lang != "English":
            cards.append(
                Card(
                    paragraph_id=p.paragraph_id,
                    layer="fact",
                    status=str(Status.unverifiable),
                    confidence=1.0,
                    claim="",
                    keyword=lang,
                    finding="not_english",
                    suggested_action=(
                        f"This paragraph reads as {lang}; the models support "
                        f"{', '.join(SUPPORTED)} only, so it was not checked."
                    ),
                )
            )
    return cards


def run(
    state: Prepared,
    *,
    store: Any,
    settings: Any,
    cfg: VerifySettings,
    bib: Any,
    entailer: Any,
    progress: Progress,
    seconds: dict[str, float],
) -> list[ParagraphResult]:
    from sciverify.verify.citations import Resolver

    resolver = Resolver(store, bib=bib, references=state.references)
    weight = state.model_weight = model_weight(cfg, entailer)
    checks = _to_check(state)
    logic_claims = [
        c
        for p in state.paragraphs
        if "logic" in state.layers[p.paragraph_id]
        for c in state.claims[p.paragraph_id]
    ]
    all_pairs = claim_pairs(
        logic_claims, min_overlap=cfg.contradiction_overlap, per_claim=cfg.max_claim_pairs
    )
    seconds["retrieve"] = seconds["entail"] = 0.0
    progress.start(len(checks), "verify")
    pair_probs = []
    papers = PaperSentences(store)
    batches = [checks[i : i + cfg.batch_claims] for i in range(0, len(checks), cfg.batch_claims)]
    for n, batch in enumerate(batches or [[]]):
        t = time.perf_counter()
        gather(batch, store=store, settings=settings, cfg=cfg, resolver=resolver, sentences=papers)
        seconds["retrieve"] += time.perf_counter() - t
        t = time.perf_counter()
        extra = all_pairs if n == len(batches or [[]]) - 1 else []
        pair_probs = judge(
            batch, [(a.text, b.text) for a, b in extra], entailer=entailer, cfg=cfg, weight=weight
        )
        state.entail_pairs += sum(len(model_spans(c, cfg)) for c in batch) + len(extra)
        state.model_calls += 1
        if refine(
            batch,
            store=store,
            settings=settings,
            cfg=cfg,
            entailer=entailer,
            weight=weight,
            all_sentences=papers,
        ):
            state.model_calls += 1
        for check in batch:
            if wants_naming(check) and check.deciding is not None:
                name_gaps(check, papers(check.deciding.paper_id), cfg)
            elif check.status == Status.unverifiable and check.claim.numbers:
                changed_figure(
                    check, [s for p in sorted(set(check.cited_papers)) for s in papers(p)]
                )
            reversed_trend(check, papers)
            swapped_tool(check, papers)
            _closest_cited(check, papers)
        seconds["entail"] += time.perf_counter() - t
        progress.advance(len(batch))
    progress.done()
    t = time.perf_counter()
    out = finish(state, checks, logic_claims, all_pairs, pair_probs, cfg=cfg, weight=weight)
    seconds["layers"] = time.perf_counter() - t
    return out


def _closest_cited(check: ClaimCheck, papers: PaperSentences) -> None:
    """For a claim left unverifiable that cites a paper in the corpus none of whose retrieved
    passages is related to it, that paper's sentence sharing the most of its words: where to
    start reading by hand (in place)."""
    if (
        check.status != Status.unverifiable
        or not check.cited_papers
        or check.missing
        or any(s.cited for s in check.related)
    ):
        return
    best = [s for s in papers.best(check.claim.text, check.cited_papers, 1) if s.relevance > 0]
    check.related = best + check.related


def finish(
    state: Prepared,
    checks: list[ClaimCheck],
    logic_claims: list[Claim],
    all_pairs: list[tuple[Claim, Claim]],
    pair_probs: list[Any],
    *,
    cfg: VerifySettings,
    weight: float,
) -> list[ParagraphResult]:
    """Cards of every layer and each paragraph's risk, once the claims are decided (`judge`).

    `sciverify.calibrate` calls it again with other thresholds over the same evidence.
    """
    cards: list[Card] = [cardmod.fact_card(c) for c in checks] + _not_english_cards(state)
    logic_ids = {c.claim_id for c in logic_claims}
    cards += evidence_logic(
        [c for c in checks if c.claim.claim_id in logic_ids],
        fact_findings={c.claim.claim_id: c.finding for c in checks},
    )
    cards += contradictions(
        all_pairs,
        pair_probs,
        weight=weight,
        threshold=cfg.thresholds.contradict_min,
        draft=state.source,
    )
    routed = {
        p.paragraph_id for p in state.paragraphs if "consistency" in state.layers[p.paragraph_id]
    }
    cards += consistency_cards(state.paragraphs, routed)
    cards += cardmod.lineage_cards(checks)
    state.citation_summary = _citations(checks)
    stated = {c.claim.claim_id for c in checks if c.figures_stated}
    return _assemble(state, cards, cfg, stated)


def _citations(checks: list[ClaimCheck]) -> dict[str, Any]:
    sources = {(s.key, s.label): bool(s.paper_ids) for c in checks for s in c.sources}
    return {
        "cited": len(sources),
        "resolved": sum(sources.values()),
        "missing": sorted(label for (_k, label), ok in sources.items() if not ok),
    }


_ORDER = {"fact": 0, "logic": 1, "consistency": 2, "lineage": 3}


def _assemble(
    state: Prepared, cards: list[Card], cfg: VerifySettings, stated: set[str]
) -> list[ParagraphResult]:
    by_paragraph: dict[str, list[Card]] = {}
    for card in cards:
        by_paragraph.setdefault(card.paragraph_id, []).append(card)
    out = []
    for p in state.paragraphs:
        pid = p.paragraph_id
        mine = sorted(
            by_paragraph.get(pid, []),
            key=lambda c: (_ORDER.get(c.layer, 9), c.claim_id or "", c.finding or ""),
        )
        risk, score = cardmod.paragraph_risk(
            mine,
            unverifiable_yellow=cfg.risk_unverifiable_yellow,
            figures_stated=stated,
            red_min=cfg.risk_red_min,
            yellow_min=cfg.risk_yellow_min,
        )
        out.append(
            ParagraphResult(
                paragraph_id=pid,
                section=p.section,
                type=state.types[pid],
                risk=risk,
                risk_score=score,
                span=p.span,
                text=p.text,
                cards=tuple(mine),
                layers=state.layers[pid],
                claims=len(state.claims[pid]),
                skipped=state.skipped[pid],
            )
        )
    return out
