"""Cards (one per finding), downgrade wordings, lineage, and the risk heat of a paragraph.

Risk, decided here and nowhere else:

- red (0.70-1.00, "look now"): a claim is contradicted, or its evidence is in another paper
  than the one cited (`citation_mismatch`).
- yellow (0.35-0.65, "look"): a claim is partially supported; or a strong logic finding
  (causal wording over correlational evidence, a universal claim over limited evidence, a
  strengthened hedge, a contradiction of an earlier paragraph); or an unverifiable claim that
  carries a specific number or cites a paper the corpus lacks (someone should check it by hand),
  unless the papers it cites give each of its figures somewhere (`figures_stated`): then the
  figures are the paper's, and only the wording joins them.
- blue (0.00-0.30, low risk): everything else. Unverifiable alone is honest, not an error;
  consistency and lineage notes raise the score inside blue but not the colour.

The score inside a band grows with the confidence of the card that set the colour.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from sciverify.entail import lexicon as lx
from sciverify.records import Card, EvidenceRef, Finding, Risk, Status
from sciverify.verify.evidence import ClaimCheck, Span, tabular

STRONG_LOGIC = frozenset(
    {
        "causal_over_correlational",
        "universal_over_limited",
        "strengthened_hedge",
        "contradicts_earlier_paragraph",
    }
)
WARNING = "warning"  # the status of logic, consistency and lineage cards


def keyword_of(text: str, limit: int = 4) -> str:
    """A few words that name what the claim is about: its numbers, entities and key words."""
    from sciverify.entail.quantities import parse_quantities

    picks: list[tuple[int, str]] = [(q.span[0], q.text_of(text)) for q in parse_quantities(text)]
    picks = picks[:1]
    for w in lx.words(text):
        if len(picks) >= limit:
            break
        if any(a <= w.start < a + len(t) for a, t in picks):
            continue
        if w.text.isupper() and len(w.text) >= 2 or lx.direction(w.lower):
            picks.append((w.start, w.text))
    content = [
        w
        for w in lx.words(text)
        if w.lower not in lx.STOPWORDS
        and not w.text[0].isdigit()
        and w.lower not in ("study", "the")
    ]
    for w in sorted(content, key=lambda w: (-len(w.text), w.start)):
        if len(picks) >= limit:
            break
        if all(w.start != a for a, _ in picks):
            picks.append((w.start, w.text))
    return " ".join(t for _, t in sorted(picks))


def ref_of(span: Span, match_type: str, score: float | None = None) -> EvidenceRef:
    return EvidenceRef(
        paper_id=span.paper_id,
        chunk_id=span.chunk_id,
        source=span.source,
        page=span.page,
        snippet=span.text,
        match_type=match_type,
        score=round(span.relevance if score is None else score, 4),
        title=span.title,
    )


def _where(span: Span | None) -> str:
    if span is None:
        return ""
    title = span.title or span.paper_id
    return f"{title}, p. {span.page}" if span.page else title


# ---------------------------------------------------------------------------- downgrades

_WEAKER = {
    "proves": "suggests",
    "proved": "suggested",
    "proven": "suggested",
    "prove": "suggest",
    "demonstrates": "suggests",
    "demonstrated": "suggested",
    "demonstrate": "suggest",
    "shows": "suggests",
    "showed": "suggested",
    "shown": "suggested",
    "show": "suggest",
    "establishes": "suggests",
    "established": "suggested",
    "establish": "suggest",
    "confirms": "supports",
    "confirmed": "supported",
    "confirm": "support",
    "always": "often",
    "never": "rarely",
    "invariably": "often",
    "conclusively": "",
    "definitively": "",
    "unequivocally": "",
    "undoubtedly": "",
    "certainly": "",
    "definitely": "",
}


def _replace_word(text: str, start: int, end: int, new: str) -> str:
    old = text[start:end]
    if new and old[:1].isupper():
        new = new[0].upper() + new[1:]
    out = text[:start] + new + text[end:]
    return re.sub(r"\s{2,}", " ", out).replace(" .", ".")


def downgrade(
    claim: str, finding: str | None, checks: Sequence[Finding], evidence: str
) -> str | None:
    """A weaker or corrected wording of `claim` for the finding; None when there is none."""
    by_check: dict[str, Finding] = {}
    for found in checks:
        if found.effect in ("partial", "contradict"):
            by_check.setdefault(found.check, found)  # the first finding of each check
    if finding == "strengthened_hedge":
        f = by_check.get("hedge")
        span = _span_in(claim, f)
        if span:
            word = claim[span[0] : span[1]].lower()
            if word in _WEAKER:
                return _replace_word(claim, span[0], span[1], _WEAKER[word])
        body = claim[0].lower() + claim[1:] if claim[:2] != claim[:2].upper() else claim
        return f"The evidence suggests that {body}"
    if finding == "dropped_condition":
        f = by_check.get("condition")
        if f and f.evidence_text:
            cond = f.evidence_text.strip(" ,")
            cond = cond[0].lower() + cond[1:]
            lead = cond.split()[0]
            # Only a phrase that reads as an ending ("for women who are obese", "when LMWH is
            # contraindicated") is appended; "amenable to tracing" is not one, and a claim that
            # names its own population ("in stroke patients") would say two ("in healthy
            # subjects"): the card's message says what differs instead.
            if lead not in _CONDITION_LEADS or (
                lead in _POPULATION_LEADS and _POPULATION.search(claim)
            ):
                return None
            return claim.rstrip(". ") + f" {cond}."
    if finding == "unreported_number":
        span = _span_in(claim, by_check.get("number"))
        if span:
            s, e = span
            open_at, close_at = claim.rfind("(", 0, s), claim.find(")", e)
            if open_at != -1 and close_at != -1 and ")" not in claim[open_at:s]:
                s, e = open_at, close_at + 1
            else:
                # "259 of them have fewer than 20 servers" reads as nothing without its number;
                # only an aside in brackets ("(SD 21 mmHg)") can go.
                return None
            return re.sub(r"\s{2,}", " ", (claim[:s].rstrip(" ,;") + claim[e:])).replace(" .", ".")
    if finding == "number_mismatch":
        f = by_check.get("number")
        if f and f.claim_text and f.evidence_text:
            return claim.replace(f.claim_text, f.evidence_text, 1)
    return None


_CONDITION_LEADS = frozenset(
    lx.split_words(
        """in for among under during at on with without after before when whenever while if
        unless only provided given within across"""
    )
)
_POPULATION_LEADS = frozenset(("in", "for", "among"))
_POPULATION = re.compile(
    r"\b(?:in|for|among)\s+(?:[\w-]+\s+){0,3}?(?:patients|subjects|participants|people|"
    r"women|men|children|adults|infants|mice|rats|animals|volunteers|users|physicians|"
    r"clinicians|doctors|nurses|students|respondents|cases|samples|plants|cells)\b",
    re.IGNORECASE,
)


def _span_in(claim: str, f: Finding | None) -> tuple[int, int] | None:
    """Where `f`'s words stand in `claim`: a finding about one part of a compound claim
    carries offsets into that part ("259 of them have ..."), not into the whole claim."""
    if f is None or not f.claim_span or not f.claim_text:
        return None
    s, e = f.claim_span
    if claim[s:e] == f.claim_text:
        return s, e
    at = re.search(rf"(?<![\w.]){re.escape(f.claim_text)}(?![\w])", claim)
    return at.span() if at else None


# ---------------------------------------------------------------------------- fact cards


def _action(check: ClaimCheck, down: str | None) -> str:
    span, finding = check.deciding, check.finding
    msg = next(
        (
            f.message
            for f in (check.decision.findings if check.decision else ())
            if f.effect in ("contradict", "partial")
        ),
        "",
    )
    if finding == "cited_paper_missing":
        labels = "; ".join(s.label for s in check.missing)
        near = check.related[0] if check.related and check.related[0].relevance >= 0.3 else None
        also = f"; meanwhile see {_where(near)}" if near else ""
        return f"Add this paper to the corpus ({labels}) and verify again{also}."
    if finding == "no_evidence":
        near = check.related[0] if check.related and check.related[0].relevance >= 0.3 else None
        if near is not None and near.cited:
            # The cited paper is there and on topic; no passage of it states the claim as such.
            return (
                f"The cited paper is in the corpus, but none of its passages states this claim "
                f"as written; check it by hand, starting at {_where(near)}, or split the claim "
                "into the statements the paper makes."
            )
        if check.cited_papers and not check.missing:
            # The draft cites a paper that is in the corpus: adding a source is not the fix.
            closest = next((s for s in check.related if s.cited), None)
            at = f"; its closest sentence is at {_where(closest)}" if closest else ""
            return (
                "The cited paper is in the corpus, but none of its passages shares enough of "
                f"this claim's words to check it{at}. Check it by hand, or split the claim "
                "into the statements the paper makes."
            )
        look = f" The nearest passage is {_where(near)}." if near else ""
        return (
            "No passage in the corpus addresses this claim: add the source it rests on "
            f"(search for: {keyword_of(check.claim.text)}).{look}"
        )
    if finding == "citation_mismatch":
        cited = "; ".join(s.label for s in check.sources) or "the cited paper"
        return (
            f"Cite {_where(span)} for this, or check that {cited} reports it: the corpus "
            "finds it there, not in the cited paper."
        )
    if check.status == Status.supported and finding == "background_only":
        return (
            f"Supported by the introduction or related work of {_where(span)}: cite the "
            "original study it draws on for this result."
        )
    if check.status == Status.supported:
        return f"No change needed; the source states it ({_where(span)})."
    if check.status == Status.contradicted:
        detail = msg or "the source states something else"
        fix = f" Suggested: {down!r}." if down else ""
        return f"Check this against {_where(span)}: {detail}.{fix}"
    if finding == "related_not_entailed" and span is not None:
        if tabular(span.text):
            # A table row flattened into text is nothing to reword towards.
            return (
                f"Check each figure of the claim against the table at {_where(span)}; the "
                "source states the claim only partly."
            )
        return f"Reword closer to what the source says ({_where(span)}): {span.text!r}."
    fix = f" Suggested: {down!r}." if down else ""
    return f"{msg[:1].upper() + msg[1:] if msg else 'The source says less'} ({_where(span)}).{fix}"


def _match_type(check: ClaimCheck) -> str:
    if check.status == Status.contradicted:
        return "contradict"
    if check.status == Status.supported or check.finding == "citation_mismatch":
        return "entail"
    probs = check.decision.probs if check.decision else None
    return "entail" if probs and probs.entailment >= 0.5 else "related"


def fact_card(check: ClaimCheck) -> Card:
    """The fact card of one claim, with its deciding evidence first."""
    evidence: list[EvidenceRef] = []
    if check.deciding is not None:
        p = check.decision.probs if check.decision else None
        score = max(p.entailment, p.contradiction) if p else check.deciding.relevance
        # A claim its paper states across sentences shows each of them, with its own page.
        for span in check.joined or [check.deciding]:
            evidence.append(ref_of(span, _match_type(check), score))
    for span in check.related:
        if len(evidence) >= max(3, len(check.joined)):
            break
        if span.relevance >= 0.3 and all(e.snippet != span.text for e in evidence):
            cited_note = check.finding == "citation_mismatch" and span.cited
            evidence.append(ref_of(span, "neutral" if cited_note else "related"))
    if check.finding == "citation_mismatch" and not any(
        e.match_type == "neutral" for e in evidence
    ):
        cited = next((s for s in check.spans if s.cited), None)
        if cited is not None:
            evidence.append(ref_of(cited, "neutral"))
    findings = check.decision.findings if check.decision else ()
    down = None
    if check.status in (Status.partially_supported, Status.contradicted):
        down = downgrade(
            check.claim.text, check.finding, findings, check.deciding.text if check.deciding else ""
        )
    confidence = check.decision.confidence if check.decision else 1.0
    return Card(
        paragraph_id=check.claim.paragraph_id,
        layer="fact",
        status=str(check.status),
        confidence=round(float(confidence), 4),
        claim=check.claim.shown,
        keyword=keyword_of(check.claim.text),
        evidence=tuple(evidence),
        suggested_action=_action(check, down),
        finding=check.finding,
        downgrade=down,
        claim_id=check.claim.claim_id,
    )


# ---------------------------------------------------------------------------- lineage


def lineage_cards(checks: Iterable[ClaimCheck]) -> list[Card]:
    """Paragraphs whose supported claims (two or more) all rest on one single source."""
    by_paragraph: dict[str, list[ClaimCheck]] = {}
    for c in checks:
        if (
            c.status in (Status.supported, Status.partially_supported)
            and c.deciding
            and c.finding != "citation_mismatch"
        ):
            by_paragraph.setdefault(c.claim.paragraph_id, []).append(c)
    single: dict[str, tuple[str, list[ClaimCheck]]] = {}
    for pid, items in by_paragraph.items():
        papers = {c.deciding.paper_id for c in items if c.deciding}
        if len(items) >= 2 and len(papers) == 1:
            single[pid] = (papers.pop(), items)
    cards = []
    for pid, (paper, items) in sorted(single.items()):
        others = sorted(p for p, (q, _) in single.items() if q == paper and p != pid)
        span = items[0].deciding
        if span is None:  # never: only checks with a deciding span are grouped
            continue
        also = f"; so do {', '.join(others)}" if others else ""
        cards.append(
            Card(
                paragraph_id=pid,
                layer="lineage",
                status=WARNING,
                confidence=1.0,
                claim="",
                keyword=(span.title or paper)[:80],
                evidence=(ref_of(span, "entail"),),
                suggested_action=(
                    f"{'Both' if len(items) == 2 else f'All {len(items)}'} supported claims "
                    "here rest on one source "
                    f"({_where(span)}){also}; if it is wrong, they fall together. "
                    "Consider an independent second source."
                ),
                finding="single_source",
            )
        )
    return cards


# ---------------------------------------------------------------------------- risk


def paragraph_risk(
    cards: Sequence[Card],
    *,
    unverifiable_yellow: bool = True,
    red_min: float = 0.7,
    yellow_min: float = 0.35,
    figures_stated: Collection[str] = (),
) -> tuple[str, float]:
    """The risk colour and a 0..1 score of one paragraph from its cards (see module doc).

    The colour is the score's level: red from `red_min`, yellow from `yellow_min`. The defaults
    are the band edges, so the rules above decide alone; `sciverify calibrate` may move them
    (a low-confidence contradiction to yellow, a low-confidence partial support to blue).
    """
    _risk, score = _rule_risk(cards, unverifiable_yellow, figures_stated)
    return risk_level(score, red_min=red_min, yellow_min=yellow_min), score


def risk_level(score: float, *, red_min: float = 0.7, yellow_min: float = 0.35) -> str:
    """red, yellow or blue for a paragraph's risk score."""
    if score >= red_min:
        return str(Risk.red)
    return str(Risk.yellow) if score >= yellow_min else str(Risk.blue)


def _rule_risk(
    cards: Sequence[Card], unverifiable_yellow: bool, figures_stated: Collection[str] = ()
) -> tuple[str, float]:
    red = [
        c
        for c in cards
        if c.layer == "fact"
        and (c.status == Status.contradicted or c.finding == "citation_mismatch")
    ]
    if red:
        return str(Risk.red), round(0.7 + 0.3 * max(c.confidence for c in red), 4)
    yellow = [
        c
        for c in cards
        if (c.layer == "fact" and c.status == Status.partially_supported)
        or (c.layer == "logic" and c.finding in STRONG_LOGIC)
    ]
    if unverifiable_yellow:
        yellow += [
            c
            for c in cards
            if c.layer == "fact"
            and c.status == Status.unverifiable
            and (
                c.finding == "cited_paper_missing"
                or (_has_number(c.claim) and c.claim_id not in figures_stated)
            )
        ]
    if yellow:
        return str(Risk.yellow), round(0.35 + 0.3 * max(c.confidence for c in yellow), 4)
    notes = sum(1 for c in cards if c.layer in ("consistency", "lineage", "logic"))
    unknown = sum(1 for c in cards if c.layer == "fact" and c.status == Status.unverifiable)
    return str(Risk.blue), round(min(0.3, 0.05 * notes + 0.05 * unknown), 4)


def _has_number(text: str) -> bool:
    from sciverify.entail.quantities import parse_quantities

    return bool(parse_quantities(text))
