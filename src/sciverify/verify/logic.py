"""The logic layer: does the draft's reasoning go further than its evidence?

Against a claim's own evidence: causal wording ("causes", "leads to", "due to") over
correlational evidence ("associated with", "correlated"); a universal claim ("all", "always",
"never", "in every") over evidence that does not say so; a hedge strengthened ("proves"/"shows"
where the evidence "suggests"/"may"). Across paragraphs: a claim that contradicts a claim of an
earlier paragraph (model contradiction blended with the negation and direction checks, pairs
batched with the evidence pairs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sciverify.entail import lexicon as lx
from sciverify.entail.checks import check_comparatives, check_hedging, check_negation
from sciverify.records import Card, EntailProbs, EvidenceRef, Status
from sciverify.verify.cards import WARNING, keyword_of, ref_of
from sciverify.verify.claims import CAUSAL, Claim, universal_word
from sciverify.verify.evidence import ClaimCheck, Span, relevance

CORRELATIONAL = re.compile(
    r"\b(?:associat(?:ed|ion|ions)|correlat(?:ed|es|ion|ions)|linked (?:to|with)|"
    r"relationship (?:between|with)|related to|co-occur\w*|predict(?:s|ed|or|ive)?)\b",
    re.IGNORECASE,
)
_LIMITED = re.compile(
    r"\b(?:some|most|many|several|a subset|a minority|a majority|often|frequently|"
    r"in (?:this|our|the present) (?:study|sample|trial|cohort)|(?:\d+|one|two|three|four|five|"
    r"six|seven|eight|nine|ten) (?:of|out of) (?:the )?\d+|may|might|can|could)\b",
    re.IGNORECASE,
)


def _evidence_span(check: ClaimCheck) -> Span | None:
    """The span the logic checks compare with: the deciding one, else the most relevant."""
    if check.deciding is not None:
        return check.deciding
    if check.status == Status.unverifiable or not check.spans:
        return None
    return check.spans[0]


def _card(
    check: ClaimCheck,
    finding: str,
    confidence: float,
    action: str,
    evidence: tuple[EvidenceRef, ...],
) -> Card:
    c = check.claim
    return Card(
        paragraph_id=c.paragraph_id,
        layer="logic",
        status=WARNING,
        confidence=round(confidence, 4),
        claim=c.shown,
        keyword=keyword_of(c.text),
        evidence=evidence,
        suggested_action=action,
        finding=finding,
        claim_id=c.claim_id,
    )


def causal_over_correlational(claim: str, evidence: str) -> bool:
    return (
        bool(CAUSAL.search(claim))
        and bool(CORRELATIONAL.search(evidence))
        and not CAUSAL.search(evidence)
    )


_DETERMINERS = frozenset({"all", "every"})


def universal_over_limited(claim: str, evidence: str) -> str | None:
    """The universal word of the claim when the evidence does not share it, else None."""
    m = universal_word(claim)
    if not m:
        return None
    word = m.group().lower()
    if re.search(rf"\b{re.escape(word)}\b", evidence, re.IGNORECASE):
        return None
    if (
        word in ("never", "none")
        and check_negation(claim, evidence) == []
        and re.search(r"\b(?:no|not|none|never|without)\b", evidence, re.IGNORECASE)
    ):
        return None  # "never X" against "did not X in any ...": the same universality
    return word


def evidence_logic(
    checks: Sequence[ClaimCheck], *, fact_findings: dict[str, str | None]
) -> list[Card]:
    """Causal, universal and hedge findings of each claim against its own evidence."""
    cards: list[Card] = []
    for check in checks:
        span = _evidence_span(check)
        if span is None or span.relevance < 0.45:
            continue
        claim, ev = check.claim.text, span.text
        refs = (ref_of(span, "related"),)
        if causal_over_correlational(claim, ev):
            cue = CAUSAL.search(claim)
            corr = CORRELATIONAL.search(ev)
            cards.append(
                _card(
                    check,
                    "causal_over_correlational",
                    0.75,
                    f"The claim says {cue.group() if cue else 'causes'!r}, the evidence "
                    f"only {corr.group() if corr else 'an association'!r}: write "
                    "'is associated with' unless a source shows the cause.",
                    refs,
                )
            )
        word = universal_over_limited(claim, ev)
        if word in _DETERMINERS and check.status == Status.supported:
            # "Every RNN was a two-layer LSTM", "starts every program in an interpreter": a
            # statement the source supports describes what it quantifies over; "always",
            # "never" and "without exception" still claim more than a sentence without them.
            word = None
        if word:
            cards.append(
                _card(
                    check,
                    "universal_over_limited",
                    0.6,
                    f"The claim says {word!r}; the evidence does not. Limit it to "
                    "what the evidence covers (e.g. 'in the studies reviewed').",
                    refs,
                )
            )
        if fact_findings.get(check.claim.claim_id) != "strengthened_hedge":
            hedge = check_hedging(claim, ev)
            if hedge and hedge[0].claim_span:
                cards.append(
                    _card(
                        check,
                        "strengthened_hedge",
                        0.65,
                        f"{hedge[0].message[:1].upper()}{hedge[0].message[1:]}: use "
                        "the source's own strength of wording.",
                        refs,
                    )
                )
    return cards


# ---------------------------------------------------------------------------- across paragraphs


def claim_pairs(
    claims: Sequence[Claim], *, min_overlap: float, per_claim: int, window: int = 200
) -> list[tuple[Claim, Claim]]:
    """(earlier, later) claims of different paragraphs that talk about the same thing.

    Only claims with something specific to check take part, and each is compared with the
    `window` most recent earlier claims that share two content words with it, found through
    an inverted index, so a long draft costs about linear time.
    """
    out: list[tuple[Claim, Claim]] = []
    postings: dict[str, list[int]] = {}
    pool = [c for c in claims if not c.is_simple]
    for j, later in enumerate(pool):
        stems = lx.content_stems(lx.words(later.text))
        shared: dict[int, int] = {}
        for stem in stems:
            for i in postings.get(stem, [])[-window:]:
                shared[i] = shared.get(i, 0) + 1
        scored = []
        for i in sorted((i for i, n in shared.items() if n >= 2), reverse=True)[:window]:
            earlier = pool[i]
            if earlier.paragraph_id == later.paragraph_id or not _compatible_sources(
                earlier, later
            ):
                continue
            score = min(relevance(later.text, earlier.text), relevance(earlier.text, later.text))
            if score >= min_overlap:
                scored.append((score, earlier.claim_id, earlier))
        scored.sort(key=lambda t: (-t[0], t[1]))
        out.extend((e, later) for _, _, e in scored[:per_claim])
        for stem in stems:
            postings.setdefault(stem, []).append(j)
    return out


def _compatible_sources(a: Claim, b: Claim) -> bool:
    """Claims citing different papers may report a real disagreement in the literature; only
    claims on the same source (or uncited) can make the draft contradict itself."""
    ka = {k for c in a.citations for k in c.keys}
    kb = {k for c in b.citations for k in c.keys}
    return not ka or not kb or bool(ka & kb)


def contradictions(
    pairs: Sequence[tuple[Claim, Claim]],
    probs: Sequence[EntailProbs],
    *,
    weight: float,
    threshold: float,
    draft: str,
) -> list[Card]:
    """A card on the later claim for each pair read as a contradiction."""
    cards: list[Card] = []
    flagged: set[str] = set()
    for (earlier, later), p in zip(pairs, probs, strict=True):
        if later.claim_id in flagged:
            continue
        found = check_negation(later.text, earlier.text) + check_comparatives(
            later.text, earlier.text
        )
        check_conf = 0.8 if found else 0.0
        score = max(
            weight * p.contradiction + (1 - weight) * check_conf, check_conf if weight == 0 else 0.0
        )
        if score < threshold:
            continue
        flagged.add(later.claim_id)
        why = (
            found[0].message
            if found
            else f"the model reads a contradiction (p={p.contradiction:.2f})"
        )
        ref = EvidenceRef(
            paper_id="",
            chunk_id=earlier.claim_id,
            source=draft,
            page=None,
            snippet=earlier.text,
            match_type="contradict",
            score=round(score, 4),
        )
        cards.append(
            Card(
                paragraph_id=later.paragraph_id,
                layer="logic",
                status=WARNING,
                confidence=round(score, 4),
                claim=later.shown,
                keyword=keyword_of(later.text),
                evidence=(ref,),
                finding="contradicts_earlier_paragraph",
                claim_id=later.claim_id,
                suggested_action=(
                    f"This contradicts {earlier.paragraph_id} ({why}); make the two "
                    "agree or say why they differ."
                ),
            )
        )
    return cards
