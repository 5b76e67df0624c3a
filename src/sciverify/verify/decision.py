"""From candidate evidence spans to a claim's status: blending, `entail.decide`, attribution.

The model's probabilities are blended with the lexical estimate of `evidence.relevance`; only
the spans whose probabilities can change the outcome go to the model, all claims of a batch in
one `predict` call. `entail.decide` then judges the spans within `decide_margin` of the best
one. On top of it: the papers the claim cites decide first, and evidence that only another
paper holds is a `citation_mismatch`; a direction conflict alone yields to a supporting
sentence; a spread (SD, SE, ±) the source never reports is invented, not contradicted; a dropped
"of people" is no dropped condition; a sentence about the same thing with a check's gap is
partial support; a number that only an introduction or related-work passage states is
supported with a note asking for the original study; a part the claim says is "demonstrated"
that the paper only suggests is partial.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from sciverify.entail import lexicon as lx
from sciverify.entail.aims import is_aim
from sciverify.entail.checks import check_comparatives, check_hedging
from sciverify.entail.decide import decide, is_figure_comparison
from sciverify.entail.quantities import DISPERSION
from sciverify.records import Decision, EntailProbs, Finding, Status
from sciverify.verify.evidence import (
    ClaimCheck,
    Span,
    precise_figures,
    relevance,
    span_probs,
    tabular,
)
from sciverify.verify.settings import VerifySettings

# ---------------------------------------------------------------------------- decision

CHECK_FINDINGS = {
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


def finding_of(decision: Decision, cfg: VerifySettings) -> str | None:
    """The finding a card names for a decision: its first check's conflict or gap, else
    `model_contradiction` / `related_not_entailed`; None for supported or unverifiable."""
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
            return CHECK_FINDINGS.get((f.check, f.effect))
    if decision.status == Status.partially_supported:
        return "related_not_entailed"
    return "model_contradiction"


def margin_top(spans: Sequence[Span]) -> float:
    """The relevance the decision margin is measured from: that of the best sentence that
    states a finding. An aim ("OBJECTIVE To measure the effect of pharmacist participation on
    the rate of adverse drug events") repeats a claim's words and can decide nothing; measured
    from it, the margin would leave out the result sentence that does ("The rate of preventable
    ordering ADEs decreased by 66%"), which shares fewer words."""
    findings = [s.relevance for s in spans if not is_aim(s.text)]
    return max(findings or [s.relevance for s in spans])


def _decide(
    claim: str, spans: list[Span], probs: list[EntailProbs], cfg: VerifySettings
) -> tuple[Decision, Span | None]:
    """`entail.decide` over the spans within `decide_margin` of the most relevant one, then
    over those within `model_margin`, whose verdict counts only when the model makes it: a
    contradiction that no check raises overrides any verdict but a contradiction (the
    contradiction is checked before the entailment), the model's entailment with no check's
    gap decides a claim left open (unverifiable, or related without a check's gap). An
    abstract restates a finding in words of its own
    ("the rate of preventable ordering ADEs decreased by 66%" for "pharmacists on rounds
    reduce adverse events"); a full paper has many sentences with other figures for nearby
    quantities, so a check's conflict there is no verdict."""
    decision, span = _decide_within(claim, spans, probs, cfg, cfg.decide_margin)
    if cfg.model_margin <= cfg.decide_margin or decision.status == Status.contradicted:
        return decision, span
    top = margin_top(spans) if spans else 0.0
    if not any(top - cfg.model_margin <= s.relevance < top - cfg.decide_margin for s in spans):
        return decision, span  # no sentence between the two margins: the same decision again
    wide, wide_span = _decide_within(claim, spans, probs, cfg, cfg.model_margin)
    if wide_span is span:
        return decision, span
    if (
        wide.status == Status.supported
        and _open(decision)
        and not any(f.effect != "ok" for f in wide.findings)
    ):
        return wide, wide_span
    if wide.status == Status.contradicted and not any(
        f.effect == "contradict" for f in wide.findings
    ):
        return wide, wide_span
    if (
        wide.status == Status.contradicted
        and decision.status == Status.supported
        and span is not None
        and _direction_conflict(wide)
        and not _says_a_direction(span.text, wide.findings)
    ):
        # "those that minimise the equilibrium time" against the claim's "maximise": the
        # sentences that support the claim say which way nothing goes, so they cannot settle
        # its direction; a sentence further down that reverses it does.
        return wide, wide_span
    return decision, span


def _direction_conflict(decision: Decision) -> bool:
    """Contradicted by the comparatives check reading words, not figures, alone."""
    contrary = [f for f in decision.findings if f.effect == "contradict"]
    return bool(contrary) and all(
        f.check == "comparative" and not is_figure_comparison(f) for f in contrary
    )


def _open(decision: Decision) -> bool:
    """Neither supported nor contradicted, and no check says what the evidence lacks."""
    if decision.status == Status.unverifiable:
        return True
    return decision.status == Status.partially_supported and not any(
        f.effect in ("partial", "contradict") for f in decision.findings
    )


def _decide_within(
    claim: str, spans: list[Span], probs: list[EntailProbs], cfg: VerifySettings, margin: float
) -> tuple[Decision, Span | None]:
    """`entail.decide` over the spans within `margin` of the most relevant one."""
    if not spans:
        return decide(claim, [], thresholds=cfg.thresholds), None
    top = margin_top(spans)
    keep = [i for i, s in enumerate(spans) if s.relevance >= top - margin]
    # A less relevant sentence whose figures settle the claim's comparison takes part too:
    # "73% in the surgical group and 13% in the conventional-therapy group" shares few words
    # with "remission occurs less with conventional therapy than with gastric banding".
    if any(lx.direction(w.lower) for w in lx.words(claim)):
        keep += [
            i
            for i, s in enumerate(spans)
            if i not in keep
            and any(is_figure_comparison(f) for f in check_comparatives(claim, s.text))
        ]
    decision = decide(
        claim,
        [(spans[i].text, probs[i], spans[i].relevance) for i in keep],
        thresholds=cfg.thresholds,
    )
    span = spans[keep[decision.evidence_index]] if decision.evidence_index is not None else None
    if (
        decision.status == Status.contradicted
        and span is not None
        and not any(f.effect == "contradict" for f in decision.findings)
    ):
        whole = _whole_supports(claim, span, [(i, spans[i]) for i in keep], probs, cfg)
        if whole is not None:
            return whole
    if (
        decision.status == Status.contradicted
        and span is not None
        and probs[spans.index(span)].contradiction < cfg.thresholds.contradict_min
    ):
        # A check's conflict on one sentence against a sentence that supports the claim
        # without any conflict: the more relevant sentence decides. A direction conflict alone
        # is weaker (the check reads "fewer with familiars than with strangers" as the reverse
        # of "more with strangers"), so any relevant supporting sentence outweighs it.
        contrary = [f for f in decision.findings if f.effect == "contradict"]
        # Two figures of the evidence ordered against the claim ("3.0 against 3.7") are read
        # off the numbers, not the words: only a more relevant sentence outweighs them.
        direction_only = all(f.check == "comparative" for f in contrary) and not any(
            is_figure_comparison(f) for f in contrary
        )
        pool = range(len(spans)) if direction_only else keep
        for i in pool:
            if (
                spans[i] is span
                or spans[i].relevance < cfg.thresholds.min_relevance
                or (spans[i].relevance <= span.relevance and not direction_only)
                or (direction_only and not _says_a_direction(spans[i].text, contrary))
            ):
                continue
            alone = decide(
                claim, [(spans[i].text, probs[i], spans[i].relevance)], thresholds=cfg.thresholds
            )
            if alone.status == Status.supported:
                return replace(alone, evidence_index=0), spans[i]
    return decision, span


_SIGN_WORDS = frozenset(lx.split_words("positive positively negative negatively inverse inversely"))


def _says_a_direction(text: str, conflicts: Sequence[Finding]) -> bool:
    """Whether a sentence says which way the conflicting direction goes: one that says none
    ("selection depends on the equilibrium time") cannot outweigh another's "minimise" against
    the claim's "maximise". The sign of a correlation is a direction of its own: a table of
    metabolites "showing the greatest increase" says which way their levels went, not whether
    they were "positively correlated" with yield or "negatively correlated" as another sentence
    says."""
    words = lx.words(text)
    if any(
        f.effect == "contradict"
        and {f.claim_text.strip().lower(), f.evidence_text.strip().lower()} & _SIGN_WORDS
        for f in conflicts
    ):
        return any(w.lower in _SIGN_WORDS for w in words)
    return any(lx.direction(w.lower) for w in words)


def _whole_supports(
    claim: str,
    part: Span,
    candidates: Sequence[tuple[int, Span]],
    probs: list[EntailProbs],
    cfg: VerifySettings,
) -> tuple[Decision, Span] | None:
    """A more relevant span that contains the sentence the model alone reads as contrary
    (the sentence and its neighbour) and supports the claim on its own, with its decision.

    A claim that joins two neighbouring sentences ("the top five TrustRank buckets contain
    virtually no spam, whereas almost a fifth of the second PageRank bucket is bad") is stated
    by the pair; the first sentence alone leaves the second half out, and the model, trained on
    single sentences, reads that gap as a contradiction. Only a compound claim is read so: a
    simple one ("Active Ly49Q prevents neutrophil polarization") has no half to leave out, and
    the model reading the pair as entailing it is the less sure call (SciFact train)."""
    from sciverify.verify.parts import split_parts

    if not split_parts(claim):
        return None
    for i, s in sorted(candidates, key=lambda c: -c[1].relevance):
        if s is part or s.relevance <= part.relevance or part.text not in s.text:
            continue
        alone = decide(claim, [(s.text, probs[i], s.relevance)], thresholds=cfg.thresholds)
        if alone.status == Status.supported:
            return replace(alone, evidence_index=0), s
    return None


_STRONG = (Status.supported, Status.contradicted)
_BACKGROUND_SECTIONS = frozenset({"introduction", "related_work"})
_HUMAN = re.compile(
    r"^(?:in|of|from|using|among|for)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:humans?|people|persons?|individuals)$",
    re.IGNORECASE,
)


def _human_only(f: Any) -> bool:
    """A dropped "of people" / "in humans": not a restriction a claim about people drops."""
    return f.check == "condition" and bool(_HUMAN.match(f.evidence_text.strip()))


_DISPERSION = DISPERSION


def _invented_dispersion(claim: str, evidence: str, decision: Decision) -> bool:
    """The only conflicts are numbers of a spread (SD, SE, ±) that the evidence never gives.

    The number check reads "10.05 mg/l (SD 3.2 mg/l)" against "10.05 mg/l" as a second value
    for the same quantity; a spread the source does not report is invented, not contradicted.
    """
    if _DISPERSION.search(evidence):
        return False
    spans = [m.span() for m in _DISPERSION.finditer(claim)]
    conflicts = [f for f in decision.findings if f.effect == "contradict"]
    return (
        bool(spans)
        and bool(conflicts)
        and all(
            f.check == "number"
            and f.claim_span is not None
            and any(a <= f.claim_span[0] < b for a, b in spans)
            for f in conflicts
        )
    )


def _paper_neighbours(check: ClaimCheck, span: Span) -> list[str]:
    """The texts of the claim's other retrieved sentences from the paper of `span`."""
    return [s.text for s in check.spans if s.paper_id == span.paper_id and s is not span]


def _named_by_source(f: Any, check: ClaimCheck) -> bool:
    """An entity or number the deciding sentence leaves out but its paper states: an entity in
    the title ("EARS", "angiotensin-1-converting enzyme" for ACE) or in another retrieved
    sentence of the same paper ("SunSpider", "TextRunner"), a number in another such sentence.
    Papers name their subject once and then say "the trial", "the system", and a summary joins
    figures from two sentences; the claim is no less supported for it."""
    span = check.deciding
    if f.check not in ("entity", "number") or f.effect != "partial" or span is None:
        return False
    if f.check == "entity" and f.evidence_span is not None:
        return False  # not left out but swapped: "monogyne" where the sentence has "polygyne"
    from sciverify.entail.mentions import check_entities
    from sciverify.entail.quantities import check_numbers

    context = [span.title or "", *_paper_neighbours(check, span)]
    if f.check == "number":
        # A count or value the claim takes from another sentence of the same paper ("72
        # village laws" from the abstract, the rest from the results); not a statistic
        # the paper never gives, which no other sentence matches either.
        # Not a table's flattened cells, where a figure stands in any row ("Meat and legumes
        # ... 28 weeks 2.17 (1.08)" for "the adjusted difference had grown to 2.17"), nor a
        # list of values of other things ("(d) 81,900 years; (e) 57,800 years").
        return any(
            g.effect == "ok" and g.claim_span == f.claim_span
            for text in context[1:]
            if not tabular(text) and not listed_apart(text, check.claim.text, f.claim_text)
            for g in check_numbers(check.claim.text, text)
        )
    return any(
        text
        and not any(g.claim_text == f.claim_text for g in check_entities(check.claim.text, text))
        for text in context
    )


def _numbers_in_paper(check: ClaimCheck) -> bool:
    """The deciding sentence and the other retrieved sentences of its paper, read together,
    hold every number of the claim (the number check matches them all)."""
    from sciverify.entail.decide import numbers_agree
    from sciverify.entail.quantities import check_numbers

    span = check.deciding
    if span is None:
        return False
    same = _paper_neighbours(check, span)[:4]
    return numbers_agree(check_numbers(check.claim.text, " ".join([span.text, *same])))


def _related_span(check: ClaimCheck, cfg: VerifySettings) -> Span | None:
    """The sentence about the same thing as the claim: one of the top three candidates that
    states one of the claim's precise values ("10.05 mg/l", "0.78-0.89") exactly, which ties
    it to the same measurement however few of the claim's other words it shares (a caption
    that names the measure ties it less), else the most relevant one when it is relevant
    enough."""
    from sciverify.entail.quantities import check_numbers

    if not check.spans:
        return None
    for span in check.spans[:3]:
        if span.relevance >= cfg.min_candidate_relevance and any(
            f.effect == "ok" and precise_figures(f.claim_text)
            for f in check_numbers(check.claim.text, span.text)
        ):
            return span
    if check.spans[0].relevance >= cfg.related_relevance:
        return check.spans[0]
    return None


def _moved_figures(check: ClaimCheck, span: Span) -> set[str]:
    """The claim's precise figures that `span`, of a paper the claim does not cite, states,
    when it cites papers that are all in the corpus and none of their sentences gives them."""
    from sciverify.entail.quantities import check_numbers

    if span.cited or not check.cited_papers or check.missing:
        return set()
    figures = {
        fig
        for f in check_numbers(check.claim.text, span.text)
        if f.effect == "ok"
        for fig in precise_figures(f.claim_text)
    }
    return figures - set().union(*(precise_figures(s.text) for s in check.spans if s.cited))


def checked_conflict(decision: Decision, cfg: VerifySettings) -> bool:
    """A contradiction that a deterministic check found, not the model alone."""
    return decision.status == Status.contradicted and any(
        f.effect == "contradict" and f.check in cfg.thresholds.override_checks
        for f in decision.findings
    )


def conclude(check: ClaimCheck, cfg: VerifySettings) -> None:
    """The claim's status from its blended probabilities: cited papers first, then the corpus."""
    claim = check.claim.text
    cited_idx = [i for i, s in enumerate(check.spans) if s.cited]
    d_all, s_all = _decide(claim, check.spans, check.probs, cfg)
    d_cited, s_cited = _decide(
        claim, [check.spans[i] for i in cited_idx], [check.probs[i] for i in cited_idx], cfg
    )
    entailed_cited = (
        d_cited.status == Status.partially_supported
        and d_cited.probs is not None
        and d_cited.probs.entailment >= cfg.thresholds.entail_min
    )
    check.related = [s for s in check.spans[:3]]
    entailed_all = d_all.probs is not None and d_all.probs.entailment >= cfg.thresholds.entail_min
    elsewhere = (
        d_all.status in (Status.supported, Status.partially_supported)
        and entailed_all
        and s_all is not None
        and not s_all.cited
        and bool(check.sources)
        and not check.missing
    )
    clearly_better = (
        elsewhere
        and s_all is not None
        and (s_cited is None or s_all.relevance >= s_cited.relevance + cfg.decide_margin)
    )
    if check.cited_papers and (
        d_cited.status in _STRONG or (entailed_cited and not clearly_better)
    ):
        check.decision, check.deciding = d_cited, s_cited
    elif check.cited_papers and elsewhere:
        check.decision, check.deciding = d_all, s_all
        check.status, check.finding = Status.partially_supported, "citation_mismatch"
        check.note = "the evidence is in another paper than the one cited"
        return
    elif check.missing and not check.cited_papers and not checked_conflict(d_all, cfg):
        # The cited paper is not in the corpus: another paper's sentence that the model alone
        # reads as contrary does not decide the claim; a check's conflict (another number for
        # the same quantity, the opposite polarity) still does.
        check.decision, check.deciding = d_all, s_all
        check.status, check.finding = Status.unverifiable, "cited_paper_missing"
        return
    else:
        check.decision, check.deciding = d_all, s_all
    decision = check.decision
    if (
        decision.status == Status.partially_supported
        and decision.probs is not None
        and decision.probs.entailment >= cfg.thresholds.entail_min
        and decision.findings
        and all(
            _human_only(f) or _named_by_source(f, check)
            for f in decision.findings
            if f.effect == "partial" and f.check in cfg.thresholds.partial_checks
        )
    ):
        gaps = [f for f in decision.findings if f.effect == "partial"]
        why = (
            "; a human population is what a biomedical claim means by default"
            if any(_human_only(f) for f in gaps)
            else "; the paper names what the sentence leaves out"
        )
        decision = check.decision = replace(
            decision, status=Status.supported, reason=decision.reason + why
        )
    check.status = decision.status
    check.finding = finding_of(decision, cfg)
    if (
        check.status == Status.contradicted
        and check.deciding is not None
        and _invented_dispersion(claim, check.deciding.text, decision)
    ):
        check.status, check.finding = Status.partially_supported, "unreported_number"
        check.note = "the source reports no such spread (SD, SE, ±) for this value"
    elif (
        check.status == Status.contradicted
        and not checked_conflict(decision, cfg)
        and _numbers_in_paper(check)
    ):
        # A claim that joins two sentences of a paper ("98 of 100 took part; 59% rated ...")
        # set against one of them: every number is the paper's, and no check finds a reversal.
        check.status, check.finding = Status.partially_supported, "related_not_entailed"
        check.note = (
            "every number of the claim is in the paper's sentences; the model reads a "
            "contradiction in one of them, so check the wording"
        )
    elif (
        check.status == Status.contradicted
        and not checked_conflict(decision, cfg)
        and len(lx.content_stems(lx.words(claim))) >= cfg.long_claim_words
    ):
        # A long claim joins several statements; the model, trained on single sentences,
        # reads one sentence that states part of it as contrary far more often than not
        # (SciFact train: 5 of 13 such calls right; labelled drafts: none of 10).
        check.status, check.finding = Status.partially_supported, "related_not_entailed"
        check.note = (
            "the model reads a contradiction in one sentence, but the claim joins several "
            "statements and no check confirms it: compare it with the sentence"
        )
    top = _related_span(check, cfg) if check.status == Status.unverifiable else None
    if (
        top is None
        and check.status == Status.partially_supported
        and check.deciding is not None
        and not check.deciding.cited
        and not any(
            f.effect == "contradict" or (f.effect == "partial" and f.check != "entity")
            for f in decision.findings
        )
    ):
        # Related only (or lacking the claim's name for its subject), in a paper the claim
        # does not cite.
        top = check.deciding
    moved = _moved_figures(check, top) if top is not None else set()
    if top is not None and moved:
        # A result moved from one paper to another: the cited paper (in the corpus) states
        # nothing of the claim, another paper gives its precise figure ("2.8 billion tokens").
        check.decision = replace(
            decision,
            status=Status.partially_supported,
            findings=(),
            evidence_index=0,
            confidence=round(top.relevance, 4),
            reason=(
                f"the cited paper does not give {', '.join(sorted(moved))}; another paper "
                "does, in a sentence about the same thing"
            ),
        )
        check.status, check.deciding = Status.partially_supported, top
        check.finding = "citation_mismatch"
        check.note = "the claim's figures are in another paper than the one cited"
        return
    if top is not None:
        from sciverify.entail.checks import run_checks

        gaps = [
            f
            for f in run_checks(claim, top.text)
            if f.effect == "partial"
            and f.check in cfg.thresholds.partial_checks
            and not _human_only(f)
        ]
        if gaps:
            # The sentence is about the same thing and a check says what differs: "a mean
            # reported but a standard deviation invented" (DESIGN.md 2.5) is partial support.
            check.decision = replace(
                decision,
                status=Status.partially_supported,
                findings=tuple(gaps),
                evidence_index=0,
                confidence=round(top.relevance, 4),
                reason=f"related evidence; {gaps[0].check} check: {gaps[0].message}",
            )
            check.status, check.deciding = Status.partially_supported, top
            check.finding = CHECK_FINDINGS.get((gaps[0].check, "partial"), "related_not_entailed")
            return
    overstated = _overstated_part(check) if check.status == Status.supported else None
    if overstated is not None and check.decision is not None:
        finding, span = overstated
        check.decision = replace(
            check.decision,
            status=Status.partially_supported,
            findings=(finding,),
            reason=f"hedge check: {finding.message}",
        )
        check.status, check.deciding = Status.partially_supported, span
        check.finding = "strengthened_hedge"
        check.note = "the paper states this part of the claim more cautiously"
    if check.status == Status.unverifiable:
        check.finding = "no_evidence"
        check.deciding = None
    elif (
        check.status == Status.supported
        and check.deciding is not None
        and check.deciding.section_kind in _BACKGROUND_SECTIONS
        and check.claim.numbers
        and not _attributed(claim, check.deciding.text)
    ):
        # DESIGN.md 2.4 says background text never backs a key result on its own; a draft that
        # reports what the cited paper says in its introduction ("30 to 46% of infants do not
        # respond") is still right about that paper, so the verdict stands and the card asks
        # for the original study (on every labelled draft, readers judged these supported).
        check.finding = "background_only"
        check.note = "only an introduction or related-work passage states this result"


_STATED_PART = 0.7  # share of the words after a claim's strong verb that a sentence restates
_CUE_TO_THAT = 3  # words from a verb of proof to the "that" of its statement ("from this that")


def _overstated_part(check: ClaimCheck) -> tuple[Finding, Span] | None:
    """A claim that joins a finding and what it "demonstrates" (or proves, shows,
    establishes), where the sentence that decides it states the finding and another sentence
    of the same paper states the rest only as a possibility ("This GAN characteristic
    suggests they can be used for anomaly detection"): partial, unless some sentence of the
    paper states that part as strongly."""
    span = check.deciding
    if span is None:
        return None
    claim = check.claim.text
    ws = lx.words(claim)
    # A verb of proof that introduces a statement ("demonstrates that ...", "demonstrate from
    # this that ..."), not "to find a tablet" or "confirmed cases".
    cue = next(
        (
            w
            for i, w in enumerate(ws)
            if lx.HEDGE_LEVEL.get(w.lower, 0) >= lx.ASSERTION_LEVEL
            and any(
                a.lower == "that" and not re.search(r"[,;:()]", claim[w.end : a.start])
                for a in ws[i + 1 : i + 1 + _CUE_TO_THAT]
            )
        ),
        None,
    )
    if cue is None:
        return None
    part, rest, before = claim[cue.start :], claim[cue.end :], claim[: cue.start]
    same = [s for s in check.spans if s.paper_id == span.paper_id]
    # A sentence states the rest when it restates most of its words. The deciding sentence
    # that states the finding before the verb ("Drummondol ... had a lower concentration in
    # heat stressed plants than control plants") shares many words with the rest too, but not
    # its statement.
    stating = [
        s
        for s in same
        if lx.overlap(rest, s.text) >= _STATED_PART
        and not (s is span and lx.overlap(before, s.text) >= _STATED_PART)
    ]
    found = [(s, check_hedging(part, s.text)) for s in stating]
    if not found or any(not f for _, f in found):
        return None
    s, f = found[0]
    return f[0], s


_GAPS = ("unreported_number", "missing_entity")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_NAMING_CONTEXT = 1500  # characters of a naming sentence (and the one before) that are read
_NAMING_SHARED = 2  # claim words besides the gap that a naming sentence must share
_RIVAL_SHARED = 3  # ... and a sentence that gives another value for a number


def wants_naming(check: ClaimCheck) -> bool:
    """Partly supported only for a name or number that the deciding sentence leaves out."""
    return (
        check.status == Status.partially_supported
        and check.finding in _GAPS
        and check.deciding is not None
    )


def name_gaps(check: ClaimCheck, sentences: Sequence[Span], cfg: VerifySettings) -> bool:
    """Supported when every gap of the deciding sentence is stated by another sentence of the
    same paper (a number with at least `_NAMING_SHARED` other words of the claim around it, a
    name anywhere); contradicted when a number of the claim appears nowhere in the paper and
    a sentence that shares at least `_RIVAL_SHARED` other words with the claim gives another
    value for it (in place).

    A summary joins what a paper states in several places: the deciding sentence gives the
    participants' ages, the methods name the "four-digit PIN" they typed; a table gives
    "RI = 0.9" where the text gives the ratio. A name the paper never uses, or a number it
    never states next to the claim's words, stays a gap. A name swapped for another
    ("monogyne" where the sentence has "polygyne") is never waived. A figure moved or changed
    ("a 7-to-1 reduction" where the paper reports "a 10-to-1 reduction in space" a sentence
    before the one retrieved) is a number mismatch.
    """

    d, deciding = check.decision, check.deciding
    th = cfg.thresholds
    if d is None or deciding is None or not wants_naming(check):
        return False
    if d.probs is not None and d.probs.entailment < th.entail_min:
        return False
    if any(f.effect == "contradict" for f in d.findings):
        return False
    gaps = [f for f in d.findings if f.effect == "partial" and f.check in th.partial_checks]
    if not gaps or any(
        f.check not in ("entity", "number") or (f.check == "entity" and f.evidence_span)
        for f in gaps
    ):
        return False
    claim = check.claim.text
    claim_stems = set(lx.content_stems(lx.words(claim)))
    paper = [s for s in sentences if s.paper_id == deciding.paper_id]
    naming: list[Span] = []
    for f in gaps:
        found, rival = _naming_sentence(claim, claim_stems, f, paper)
        if found is None:
            if rival is None:
                return False
            _rival_decides(check, f, replace(rival, cited=deciding.cited))
            return True
        if found not in naming:
            naming.append(replace(found, cited=deciding.cited))
    named = ", ".join(f"'{f.claim_text}'" for f in gaps)
    check.decision = replace(
        d, status=Status.supported, reason=f"{d.reason}; the paper states {named} elsewhere"
    )
    check.status, check.finding = Status.supported, None
    check.joined = [*(check.joined or [deciding]), *(s for s in naming if s not in check.joined)]
    check.note = "the paper states the rest of the claim in the sentences shown"
    return True


def _rival_decides(check: ClaimCheck, f: Any, rival: Span) -> None:
    """Contradicted by `rival`, a sentence of the paper that gives another value for the
    claim's number of finding `f`, a number the paper never states (in place)."""
    from sciverify.entail.quantities import check_numbers

    claim = check.claim.text
    conflicts = tuple(
        g
        for g in check_numbers(claim, rival.text)
        if g.effect == "contradict" and g.claim_span == f.claim_span
    )
    _overruled(
        check,
        rival,
        conflicts,
        f"{conflicts[0].message} (another sentence of the paper; the paper never "
        f"states {f.claim_text!r})",
        "the paper gives another value for this number",
        fallback=rival.relevance,
    )


def _overruled(
    check: ClaimCheck,
    by: Span,
    conflicts: tuple[Finding, ...],
    reason: str,
    note: str,
    *,
    fallback: float,
) -> None:
    """Contradicted by `by`, a sentence of the paper that a paper-wide pass found in conflict
    with the claim (`conflicts`, the first naming the card's finding); the sentence that
    decided before leads the related ones. The confidence stays the earlier decision's, else
    `fallback` (in place)."""
    d, deciding = check.decision, check.deciding
    check.decision = Decision(
        Status.contradicted,
        d.confidence if d is not None else fallback,
        reason,
        d.probs if d is not None else None,
        conflicts,
        evidence_index=0,
    )
    check.status = Status.contradicted
    check.finding = CHECK_FINDINGS[(conflicts[0].check, "contradict")]
    check.deciding, check.joined = by, []
    if deciding is not None:
        check.related = [deciding, *(s for s in check.related if s is not deciding)]
    check.note = note


def changed_figure(check: ClaimCheck, paper: Sequence[Span]) -> bool:
    """Contradicted when a claim left unverifiable gives a number that its cited papers (whose
    sentences are `paper`) never state, and a sentence of theirs sharing at least
    `_RIVAL_SHARED` other words with the claim gives another value for it (in place): "fitted
    to 192 supernovae from the Riess gold sample" against "The supernova data consists of 182
    supernovae from the Riess gold sample", too few of the claim's words in one sentence for it
    to count as evidence otherwise.

    Records too whether the papers give each of the claim's figures somewhere, in any format
    (`check.figures_stated`): no sentence states the claim, but its figures are the paper's,
    not ones the draft made up."""
    from sciverify.entail.quantities import check_numbers

    if check.status != Status.unverifiable or not check.cited_papers or check.missing:
        return False
    claim = check.claim.text
    claim_stems = set(lx.content_stems(lx.words(claim)))
    digits = [re.sub(r"\D", "", s.text) for s in paper]
    figures = [f for f in check_numbers(claim, "") if f.effect == "partial"]
    unstated = [f for f in figures if not _stated_anywhere(claim, f, paper, digits)]
    check.figures_stated = bool(figures) and not unstated
    for f in unstated:
        found, rival = _naming_sentence(claim, claim_stems, f, paper)
        if found is None and rival is not None and _near_value(claim, f, rival.text):
            _rival_decides(check, f, replace(rival, relevance=relevance(claim, rival.text)))
            return True
    return False


def reversed_trend(check: ClaimCheck, sentences: Callable[[str], Sequence[Span]]) -> bool:
    """Contradicted when the claim says two quantities move one way together ("the squared
    error went up as the matrix dimension d increased"), a sentence of its deciding paper
    (`sentences` gives a paper's) says they move the other way ("the error decreases as d
    increases") and no sentence of the paper says the claim's way (in place).

    The sentences that decided the claim share its words without saying which way the two
    quantities go ("Figure 3 plots the squared Frobenius error versus the matrix dimension
    d"); the one that does may share too few of them to be retrieved."""
    from sciverify.entail.checks import covariation_agreement, covariation_conflicts

    if check.status not in (Status.supported, Status.partially_supported):
        return False
    claim, deciding = check.claim.text, check.deciding
    if deciding is None or covariation_agreement(claim, claim) != 1:
        return False
    against = None
    for s in sentences(deciding.paper_id):
        # Any statement of the claim's way keeps it; only one about the very same quantities
        # ("the error" and "d") reverses it.
        if covariation_agreement(claim, s.text) == 1:
            return False
        if against is None and covariation_agreement(claim, s.text, close=True) == -1:
            against = s
    if against is None:
        return False
    conflicts = tuple(covariation_conflicts(claim, against.text))
    _overruled(
        check,
        replace(against, cited=deciding.cited, relevance=relevance(claim, against.text)),
        conflicts,
        f"comparative check: {conflicts[0].message} (another sentence of the paper; none says "
        "the claim's way)",
        "the paper says the two quantities move the other way",
        fallback=deciding.relevance,
    )
    return True


def swapped_tool(check: ClaimCheck, sentences: Callable[[str], Sequence[Span]]) -> bool:
    """Contradicted when the claim says work was done in a piece of software ("built their
    sepsis classifier in Keras") or with a statistical test ("using paired t-tests") that its
    paper (the one it cites, or else the one that decided it; `sentences` gives a paper's)
    never names, and the paper names another ("Our methods are implemented in Tensorflow2",
    "we performed multiple Wilcoxon tests") (in place).

    A tool the paper never names is a detail the draft added; when the paper names its own,
    the draft's is the wrong one."""
    from sciverify.entail.mentions import mentions_test, mentions_tool, tests_named, tools_named

    claim = check.claim.text
    cited = sorted(set(check.cited_papers))
    if not cited and check.deciding is not None:
        cited = [check.deciding.paper_id]
    if check.status == Status.contradicted or len(cited) != 1:
        return False
    for named, mentions, kind in (
        (tools_named, mentions_tool, "tool"),
        (tests_named, mentions_test, "statistical test"),
    ):
        found = named(claim)
        paper = sentences(cited[0]) if found else []
        for name, span in found:
            if any(mentions(name, s.text) for s in paper):
                continue
            rivals = [(s, sp) for s in paper for other, sp in named(s.text) if other != name]
            if rivals:
                _tool_decides(
                    check,
                    claim,
                    span,
                    *max(rivals, key=lambda r: relevance(claim, r[0].text)),
                    kind,
                )
                return True
    return False


def _tool_decides(
    check: ClaimCheck,
    claim: str,
    span: tuple[int, int],
    rival: Span,
    rival_span: tuple[int, int],
    kind: str,
) -> None:
    """Contradicted by `rival`, the paper's sentence that names another `kind` of tool than the
    claim's at `span` (in place)."""
    f = lx.finding(
        "entity",
        "contradict",
        f"the claim names {claim[span[0] : span[1]]!r}, which the paper never does; it names "
        f"{rival.text[rival_span[0] : rival_span[1]]!r}",
        claim,
        rival.text,
        span,
        rival_span,
    )
    _overruled(
        check,
        replace(rival, relevance=relevance(claim, rival.text)),
        (f,),
        f"entity check: {f.message} (another sentence of the paper)",
        f"the paper names another {kind} for this work",
        fallback=0.5,
    )


def _stated_anywhere(claim: str, f: Any, paper: Sequence[Span], digits: Sequence[str]) -> bool:
    """Whether some sentence of the paper (`digits`: the digits of each) states the number of
    finding `f` in any format ("1,000" as "1000")."""
    from sciverify.entail.quantities import check_numbers

    mine = re.sub(r"\D", "", f.claim_text)
    return bool(mine) and any(
        g.effect == "ok" and g.claim_span == f.claim_span
        for s, d in zip(paper, digits, strict=True)
        if mine in d
        for g in check_numbers(claim, s.text)
    )


def _near_value(claim: str, f: Any, evidence: str) -> bool:
    """Whether the evidence's rival for the number of finding `f` is of the same order of
    magnitude: a changed figure ("192 supernovae" for 182, "41% higher" for 71%), not another
    measure that happens to sit in the same place ("29 for the noun" against "0.04 for
    prepositions")."""
    from sciverify.entail.quantities import check_numbers, parse_quantities, same_order

    mine = next((q for q in parse_quantities(claim) if q.span == f.claim_span), None)
    spans = [
        g.evidence_span
        for g in check_numbers(claim, evidence)
        if g.effect == "contradict" and g.claim_span == f.claim_span
    ]
    theirs = next((q for q in parse_quantities(evidence) if spans and q.span == spans[0]), None)
    return mine is not None and theirs is not None and same_order(mine.value, theirs.value)


def _naming_sentence(
    claim: str, claim_stems: set[str], f: Any, paper: Sequence[Span]
) -> tuple[Span | None, Span | None]:
    """The first sentence of the paper that states the gap `f` next to the claim's words; and,
    for a number that no sentence of the paper gives at all, the sentence closest to the claim
    that gives a rival value for it."""
    from sciverify.entail.mentions import check_entities
    from sciverify.entail.quantities import check_numbers

    number = f.check == "number"
    if number:
        m = _NUMBER.search(f.claim_text)
        key = m.group() if m else ""
    else:
        key = f.claim_text.lower().removesuffix("'s").removesuffix("\u2019s")
        key = key[:-1] if len(key) > 3 and key.endswith("s") else key
    if not key:
        return None, None
    others = claim_stems - set(lx.content_stems(lx.words(f.claim_text)))
    anywhere = False
    listed: Span | None = None  # the number only in a list of values of other things
    listed_near = False
    for i, s in enumerate(paper):
        if key not in (s.text if number else s.text.lower()):
            continue
        before = paper[i - 1].text if i and paper[i - 1].chunk_id == s.chunk_id else ""
        context = f"{before} {s.text}".strip()[-_NAMING_CONTEXT:]
        # A name the paper uses anywhere is its own (its method, data set, cohort, covariate),
        # which the deciding sentence calls "our method", "the dataset"; a name the paper
        # never uses ("Keras" for a model the paper does not say how it built) stays a gap.
        # A number counts next to the claim's words only.
        near = not number or (
            len(others & set(lx.content_stems(lx.words(context)))) >= _NAMING_SHARED
        )
        if number:
            ok = any(
                g.effect == "ok" and g.claim_span == f.claim_span
                for g in check_numbers(claim, context)
            )
        else:
            ok = not any(g.claim_text == f.claim_text for g in check_entities(claim, context))
        if ok and number and listed_apart(s.text, claim, f.claim_text):
            # stated, but as the value of something else: another sentence may give the
            # claim's quantity another value; if none does, the list counts as before
            if listed is None or (near and not listed_near):
                listed, listed_near = s, near
            continue
        anywhere = anywhere or (number and ok)  # stated, if not next to the claim's words
        if ok and near:
            return s, None
    if not number or anywhere:
        return None, None
    best: tuple[int, Span] | None = None
    for s in paper:
        if len(s.text) > _NAMING_CONTEXT:
            continue
        shared = len(others & set(lx.content_stems(lx.words(s.text))))
        if shared < _RIVAL_SHARED or (best is not None and shared <= best[0]):
            continue
        if any(
            g.effect == "contradict" and g.claim_span == f.claim_span
            for g in check_numbers(claim, s.text)
        ):
            best = (shared, s)
    if best is None:
        return (listed if listed_near else None), None
    return None, best[1]


_LIST_ITEMS = 3  # values a sentence lists, one per semicolon-separated item


def listed_apart(text: str, claim: str, figure: str) -> bool:
    """Whether `text` gives the claim's number `figure` as one of a list of values, in an item
    that names none of the claim's other words: "Estimates of divergence times: (a) 124,200
    years (...); (b) 61,500 years (...); ... (e) 57,800 years (...)". Such a list states the
    number, not what it is the number of."""
    m = _NUMBER.search(figure)
    items = re.split(r";\s+", text)
    if not m or sum(1 for item in items if re.search(r"\d", item)) < _LIST_ITEMS:
        return False
    others = set(lx.content_stems(lx.words(claim))) - set(lx.content_stems(lx.words(figure)))
    own = [item for item in items if m.group() in item]
    return bool(own) and all(
        len(others & set(lx.content_stems(lx.words(item)))) < _NAMING_SHARED for item in own
    )


_NAMED_AUTHOR = re.compile(
    r"\b([A-Z][\w'\u2019-]+)(?:\s+and\s+[A-Z][\w'\u2019-]+)?\s+"
    r"(?:et\s+al\.?|and\s+(?:colleagues|co-?workers))"
)


def _attributed(claim: str, evidence: str) -> bool:
    """The claim names the authors of the result ("Larsen et al. estimated ...") and the
    background passage attributes it to them ("... by Larsen et al. (2019), who estimated"):
    the draft reports what the cited paper reports, with its source."""
    return any(
        re.search(rf"\b{re.escape(m.group(1))}\b", evidence) for m in _NAMED_AUTHOR.finditer(claim)
    )


def model_spans(check: ClaimCheck, cfg: VerifySettings) -> list[int]:
    """The spans whose model probabilities can change the decision: those within the margin
    of the best span, and of the best cited span. The others are shown as related only."""
    out: set[int] = set()
    for pool in (
        [i for i, _ in enumerate(check.spans)],
        [i for i, s in enumerate(check.spans) if s.cited],
    ):
        if pool:
            top = margin_top([check.spans[i] for i in pool])
            margin = max(cfg.decide_margin, cfg.model_margin)
            out |= {i for i in pool if check.spans[i].relevance >= top - margin}
    return sorted(out)


_NEUTRAL = EntailProbs(0.0, 1.0, 0.0)


def judge(
    checks: Sequence[ClaimCheck],
    extra: Sequence[tuple[str, str]],
    *,
    entailer: Any,
    cfg: VerifySettings,
    weight: float,
) -> list[EntailProbs]:
    """One model call for the (span, claim) pairs that matter and the `extra` pairs; decides
    each claim. Returns the model's own probabilities of the extra pairs, in order.
    """
    chosen = [model_spans(c, cfg) for c in checks]
    pairs = [
        (c.spans[i].text, c.claim.text) for c, idx in zip(checks, chosen, strict=True) for i in idx
    ]
    pairs += list(extra)
    raw = entailer.predict(pairs) if pairs else []
    it = iter(raw)
    for check, idx in zip(checks, chosen, strict=True):
        model = dict(zip(idx, (next(it) for _ in idx), strict=True))
        check.probs = []
        for i, s in enumerate(check.spans):
            w = weight if i in model else 0.0
            probs = span_probs(model.get(i, _NEUTRAL), s.relevance, cfg, w, cited=s.cited)
            check.probs.append(probs)
        conclude(check, cfg)
    return [next(it) for _ in extra]
