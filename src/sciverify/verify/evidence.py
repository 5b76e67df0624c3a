"""Evidence for claims: retrieval, sentence-level candidates, one batched model call, decisions.

For each claim the papers the draft cites are searched first (restricted with
`Filters(paper_ids=...)`), then the whole corpus; the best chunks are cut into sentences (and
pairs of neighbouring sentences, since PDF text often breaks a sentence across blocks), scored
lexically against the claim, and only the best few per claim go to the entailment model, all
claims of the draft in one `predict` call. The model's probabilities are blended with a lexical
estimate (how much of the claim, and which of its numbers, the sentence states), so that a
weak or untrained model cannot decide alone; the deterministic checks then run inside
`entail.decide`. The papers the claim cites decide first; evidence that only another paper
holds becomes a `citation_mismatch`.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sciverify.entail import lexicon as lx
from sciverify.entail.decide import decide
from sciverify.records import Decision, EntailProbs, Status
from sciverify.verify.citations import Resolver, Source
from sciverify.verify.claims import Claim
from sciverify.verify.settings import VerifySettings

_PAIR_GAIN = 0.1  # what a two-sentence window must add over its best sentence
_MAX_SPAN_CHARS = 600
_DEFAULT_MODEL_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class Span:
    """One candidate evidence sentence (or sentence pair) from one chunk."""

    text: str
    paper_id: str
    chunk_id: str
    title: str | None
    page: int | None
    source: str | None
    evidence_type: str
    cited: bool
    relevance: float
    section_kind: str = ""


@dataclass(slots=True)
class ClaimCheck:
    """Everything the fact layer knows about one claim."""

    claim: Claim
    query: str
    sources: list[Source] = field(default_factory=list)  # its own citations, resolved
    context_sources: list[Source] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    probs: list[EntailProbs] = field(default_factory=list)
    decision: Decision | None = None
    status: str = Status.unverifiable
    finding: str | None = None
    deciding: Span | None = None
    related: list[Span] = field(default_factory=list)  # other useful spans to show
    note: str = ""

    @property
    def cited_papers(self) -> tuple[str, ...]:
        own = tuple(p for s in self.sources for p in s.paper_ids)
        return own or tuple(p for s in self.context_sources for p in s.paper_ids)

    @property
    def missing(self) -> list[Source]:
        return [s for s in self.sources if not s.paper_ids]


# ---------------------------------------------------------------------------- lexical score


@functools.lru_cache(maxsize=20000)
def _stems(text: str) -> frozenset[str]:
    return frozenset(lx.content_stems(lx.words(text)))


@functools.lru_cache(maxsize=20000)
def _values(text: str) -> tuple[tuple[float, int], ...]:
    from sciverify.entail.quantities import parse_quantities

    out = []
    for q in parse_quantities(text):
        out.append((q.value, q.decimals))
        if q.high is not None:
            out.append((q.high, q.decimals))
    return tuple(out)


def relevance(claim: str, text: str, context: frozenset[str] = frozenset()) -> float:
    """How much of the claim `text` states, 0..1: content words (70%) and numbers (30%).

    A claim word found only in `context` (the stems of the chunk and its paper's title) counts
    half: the sentence is read as part of its passage, as a reader would.
    """
    from sciverify.entail.quantities import same_number

    c = _stems(claim)
    if not c:
        return 0.0
    e = _stems(text)

    def found(s: str, pool: frozenset[str]) -> bool:
        return s in pool or (len(s) >= 6 and any(t[:6] == s[:6] for t in pool))

    hits = sum(1.0 if found(s, e) else 0.5 if context and found(s, context) else 0.0 for s in c)
    cover = hits / len(c)
    nums = _values(claim)
    if not nums:
        return cover
    ev = _values(text)
    matched = sum(1 for v, d in nums if any(same_number(v, w, d, dw) for w, dw in ev))
    return 0.7 * cover + 0.3 * matched / len(nums)


def lexical_probs(rel: float, th: Any) -> EntailProbs:
    """Probabilities implied by lexical coverage alone: on topic from `min_relevance` up,
    entailing from about 0.1 above it. Contradiction is left to the deterministic checks."""
    if rel < th.min_relevance:
        pe = 0.05
    else:
        pe = min(0.9, 0.35 + (rel - th.min_relevance) * 1.6)
    pc = 0.05
    return EntailProbs(pe, max(0.0, 1.0 - pe - pc), pc)


def blend(model: EntailProbs, lexical: EntailProbs, weight: float, *,
          contradiction_weight: float = 0.3, lexical_entails: bool = False) -> EntailProbs:
    """Model and lexical probabilities mixed per label; a near-verbatim sentence entails."""
    if model.error:
        return model
    w = weight
    e = w * model.entailment + (1 - w) * lexical.entailment
    if lexical_entails:
        e = max(e, lexical.entailment)
    wc = min(contradiction_weight, w) if w == 0 else contradiction_weight
    c = wc * model.contradiction + (1 - wc) * lexical.contradiction
    if e + c > 1:
        e, c = e / (e + c), c / (e + c)
    return EntailProbs(round(e, 6), round(max(0.0, 1 - e - c), 6), round(c, 6),
                       rationale=model.rationale)


def model_weight(cfg: VerifySettings, entailer: Any) -> float:
    """The configured weight, else 0.5 — or 0 for the bundled model while it is an untrained
    placeholder, whose probabilities carry no information."""
    if cfg.model_weight is not None:
        return cfg.model_weight
    if getattr(entailer, "name", "") == "bundled":
        from sciverify.entail.backends import bundled_model_path

        try:
            config = json.loads((bundled_model_path() / "config.json").read_text())
        except (OSError, ValueError):
            return _DEFAULT_MODEL_WEIGHT
        if config.get("sciverify_trained") is False:
            return 0.0
    return _DEFAULT_MODEL_WEIGHT


# ---------------------------------------------------------------------------- retrieval


def _windows(text: str) -> list[tuple[str, bool]]:
    """Each sentence of a chunk, and each pair of neighbours (True), whitespace normalised."""
    from sciverify.chunk import split_sentences

    sents = [" ".join(text[s:e].split()) for s, e in split_sentences(text)]
    sents = [s for s in sents if len(re.findall(r"[A-Za-z]{2,}", s)) >= 3]
    out = [(s[:_MAX_SPAN_CHARS], False) for s in sents]
    out += [(f"{a} {b}"[:_MAX_SPAN_CHARS], True) for a, b in itertools.pairwise(sents)]
    return out


def build_query(claim: Claim, context: str) -> str:
    """The claim, with the previous claim as context when it is short or starts with a pronoun."""
    short = len(_stems(claim.text)) < 6
    return f"{context} {claim.text}".strip() if (short or claim.anaphoric) and context else claim.text


def gather(checks: Sequence[ClaimCheck], *, store: Any, settings: Any, cfg: VerifySettings,
           resolver: Resolver) -> None:
    """Resolve citations, retrieve chunks and pick each claim's candidate spans (in place)."""
    from sciverify.search import make_filters, search

    for check in checks:
        claim = check.claim
        check.sources = [s for c in claim.citations for s in resolver.resolve(c)]
        check.context_sources = [s for c in claim.context_citations for s in resolver.resolve(c)]
        cited = tuple(sorted(set(check.cited_papers)))
        hits = []
        if cited and cfg.k_cited:
            hits += [(h, True) for h in search(check.query, store=store, settings=settings,
                                               k=cfg.k_cited, filters=make_filters(paper_ids=cited))]
        if cfg.k_open:
            hits += [(h, h.paper_id in cited) for h in search(check.query, store=store,
                                                               settings=settings, k=cfg.k_open)]
        seen: set[str] = set()
        spans: list[Span] = []
        for hit, is_cited in hits:
            if hit.chunk_id in seen:
                continue
            seen.add(hit.chunk_id)
            context = _stems(f"{hit.title or ''} {hit.text}")
            singles: dict[str, float] = {}
            for text, is_pair in _windows(hit.text):
                rel = relevance(claim.text, text, context)
                if is_pair:
                    # A pair is a candidate only when it states clearly more than each of its
                    # sentences: an extra sentence brings extra conditions for the checks.
                    parts = [v for k, v in singles.items() if k in text]
                    if parts and rel < max(parts) + _PAIR_GAIN:
                        continue
                else:
                    singles[text] = rel
                spans.append(Span(text, hit.paper_id, hit.chunk_id, hit.title, hit.page,
                                  hit.source, hit.evidence_type, is_cited, round(rel, 4),
                                  hit.section_kind))
        check.spans = _pick(spans, cfg.max_pairs_per_claim, bool(cited))


def _pick(spans: list[Span], limit: int, has_cited: bool) -> list[Span]:
    """The best spans by relevance, half of the slots kept for the cited papers."""
    ranked = sorted(spans, key=lambda s: (-s.relevance, s.chunk_id, s.text))
    out: list[Span] = []
    texts: set[str] = set()
    if has_cited:
        for s in (s for s in ranked if s.cited):
            if len(out) >= (limit + 1) // 2:
                break
            if s.text not in texts:
                out.append(s)
                texts.add(s.text)
    for s in ranked:
        if len(out) >= limit:
            break
        if s.text not in texts:
            out.append(s)
            texts.add(s.text)
    return sorted(out, key=lambda s: (-s.relevance, s.chunk_id, s.text))


# ---------------------------------------------------------------------------- decision

_CHECK_FINDINGS = {
    ("number", "contradict"): "number_mismatch",
    ("number", "partial"): "unreported_number",
    ("negation", "contradict"): "reversed_finding",
    ("comparative", "contradict"): "reversed_direction",
    ("condition", "partial"): "dropped_condition",
    ("condition", "contradict"): "changed_condition",
    ("hedge", "partial"): "strengthened_hedge",
    ("entity", "contradict"): "entity_mismatch",
    ("entity", "partial"): "missing_entity",
}


def _finding_of(decision: Decision, cfg: VerifySettings) -> str | None:
    th = cfg.thresholds
    if decision.status == Status.contradicted:
        wanted = ("contradict",)
        checks = th.override_checks
    elif decision.status == Status.partially_supported:
        wanted = ("partial",)
        checks = th.partial_checks
    else:
        return None
    for f in decision.findings:
        if f.effect in wanted and f.check in checks:
            return _CHECK_FINDINGS.get((f.check, f.effect))
    if decision.status == Status.partially_supported:
        return "related_not_entailed"
    return "model_contradiction"


def _decide(claim: str, spans: list[Span], probs: list[EntailProbs],
            cfg: VerifySettings) -> tuple[Decision, Span | None]:
    """`entail.decide` over the spans within `decide_margin` of the most relevant one."""
    if not spans:
        return decide(claim, [], thresholds=cfg.thresholds), None
    top = max(s.relevance for s in spans)
    keep = [i for i, s in enumerate(spans) if s.relevance >= top - cfg.decide_margin]
    decision = decide(claim, [(spans[i].text, probs[i], spans[i].relevance) for i in keep],
                      thresholds=cfg.thresholds)
    span = spans[keep[decision.evidence_index]] if decision.evidence_index is not None else None
    if decision.status == Status.contradicted and span is not None \
            and probs[spans.index(span)].contradiction < cfg.thresholds.contradict_min:
        # A check's conflict on one sentence against a sentence that supports the claim
        # without any conflict: the more relevant sentence decides. A direction conflict alone
        # is weaker (the check reads "fewer with familiars than with strangers" as the reverse
        # of "more with strangers"), so any relevant supporting sentence outweighs it.
        checks = {f.check for f in decision.findings if f.effect == "contradict"}
        direction_only = checks <= {"comparative"}
        pool = range(len(spans)) if direction_only else keep
        for i in pool:
            if spans[i] is span or spans[i].relevance < cfg.thresholds.min_relevance or (
                    spans[i].relevance <= span.relevance and not direction_only):
                continue
            alone = decide(claim, [(spans[i].text, probs[i], spans[i].relevance)],
                           thresholds=cfg.thresholds)
            if alone.status == Status.supported:
                return replace(alone, evidence_index=0), spans[i]
    return decision, span


_STRONG = (Status.supported, Status.contradicted)
_BACKGROUND_SECTIONS = frozenset({"introduction", "related_work"})
_HUMAN = re.compile(r"^(?:in|of|from|using|among|for)\s+(?:[\w-]+\s+){0,2}?"
                    r"(?:humans?|people|persons?|individuals)$", re.IGNORECASE)


def _human_only(f: Any) -> bool:
    """A dropped "of people" / "in humans": not a restriction a claim about people drops."""
    return f.check == "condition" and bool(_HUMAN.match(f.evidence_text.strip()))
_DISPERSION = re.compile(
    r"(?:\b(?:SDs?|SEM?|IQR)\b|standard (?:deviation|error)|interquartile range|±|\+/-)"
    r"\s*(?:of|was|were|=|:)?\s*[-−]?\d[\d.,]*", re.IGNORECASE)


def _invented_dispersion(claim: str, evidence: str, decision: Decision) -> bool:
    """The only conflicts are numbers of a spread (SD, SE, ±) that the evidence never gives.

    The number check reads "10.05 mg/l (SD 3.2 mg/l)" against "10.05 mg/l" as a second value
    for the same quantity; a spread the source does not report is invented, not contradicted.
    """
    if _DISPERSION.search(evidence):
        return False
    spans = [m.span() for m in _DISPERSION.finditer(claim)]
    conflicts = [f for f in decision.findings if f.effect == "contradict"]
    return bool(spans) and bool(conflicts) and all(
        f.check == "number" and f.claim_span is not None
        and any(a <= f.claim_span[0] < b for a, b in spans) for f in conflicts)


def conclude(check: ClaimCheck, cfg: VerifySettings) -> None:
    """The claim's status from its blended probabilities: cited papers first, then the corpus."""
    claim = check.claim.text
    cited_idx = [i for i, s in enumerate(check.spans) if s.cited]
    d_all, s_all = _decide(claim, check.spans, check.probs, cfg)
    d_cited, s_cited = _decide(claim, [check.spans[i] for i in cited_idx],
                               [check.probs[i] for i in cited_idx], cfg)
    entailed_cited = d_cited.status == Status.partially_supported and d_cited.probs is not None \
        and d_cited.probs.entailment >= cfg.thresholds.entail_min
    check.related = [s for s in check.spans[:3]]
    entailed_all = d_all.probs is not None and d_all.probs.entailment >= cfg.thresholds.entail_min
    elsewhere = (d_all.status in (Status.supported, Status.partially_supported) and entailed_all
                 and s_all is not None and not s_all.cited and bool(check.sources)
                 and not check.missing)
    clearly_better = elsewhere and s_all is not None and (
        s_cited is None or s_all.relevance >= s_cited.relevance + cfg.decide_margin)
    if check.cited_papers and (d_cited.status in _STRONG
                               or (entailed_cited and not clearly_better)):
        check.decision, check.deciding = d_cited, s_cited
    elif check.cited_papers and elsewhere:
        check.decision, check.deciding = d_all, s_all
        check.status, check.finding = Status.partially_supported, "citation_mismatch"
        check.note = "the evidence is in another paper than the one cited"
        return
    elif check.missing and not check.cited_papers and d_all.status != Status.contradicted:
        check.decision, check.deciding = d_all, s_all
        check.status, check.finding = Status.unverifiable, "cited_paper_missing"
        return
    else:
        check.decision, check.deciding = d_all, s_all
    decision = check.decision
    if decision.status == Status.partially_supported and decision.probs is not None \
            and decision.probs.entailment >= cfg.thresholds.entail_min and decision.findings \
            and all(_human_only(f) for f in decision.findings if f.effect == "partial"
                    and f.check in cfg.thresholds.partial_checks):
        decision = check.decision = replace(decision, status=Status.supported,
                                            reason=decision.reason + "; a human population "
                                            "is what a biomedical claim means by default")
    check.status = decision.status
    check.finding = _finding_of(decision, cfg)
    if check.status == Status.contradicted and check.deciding is not None \
            and _invented_dispersion(claim, check.deciding.text, decision):
        check.status, check.finding = Status.partially_supported, "unreported_number"
        check.note = "the source reports no such spread (SD, SE, ±) for this value"
    if check.status == Status.unverifiable:
        check.finding = "no_evidence"
        check.deciding = None
    elif (check.status == Status.supported and check.deciding is not None
          and check.deciding.section_kind in _BACKGROUND_SECTIONS and check.claim.numbers):
        # DESIGN.md 2.4: background text may explain a result, never back one on its own.
        check.status, check.finding = Status.partially_supported, "background_only"
        check.note = "only an introduction or related-work passage states this result"


def judge(checks: Sequence[ClaimCheck], extra: Sequence[tuple[str, str]], *, entailer: Any,
          cfg: VerifySettings, weight: float) -> list[EntailProbs]:
    """One model call for every (span, claim) pair and the `extra` pairs; decides each claim.

    Returns the model's own probabilities of the extra pairs, in order.
    """
    pairs = [(s.text, c.claim.text) for c in checks for s in c.spans]
    pairs += list(extra)
    raw = entailer.predict(pairs) if pairs else []
    it = iter(raw)
    th = cfg.thresholds
    for check in checks:
        check.probs = [blend(next(it), lexical_probs(s.relevance, th), weight,
                             contradiction_weight=cfg.contradiction_weight if weight else 0.0,
                             lexical_entails=s.relevance >= cfg.lexical_entail_min)
                       for s in check.spans]
        conclude(check, cfg)
    return [next(it) for _ in extra]
