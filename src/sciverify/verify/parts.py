"""Claims that no single sentence settles: checked against several sentences of one paper.

A summary joins what a paper says in two to four places into one sentence ("the risk of
bleeding was 3.9%, while failed filter retrieval occurred in 2.8% of patients": one figure
from the conclusion, one from the results). No single sentence of the paper entails that, so
the whole claim reads as unverifiable, or the model reads the half that one sentence leaves out
as a contradiction. Such a claim is looked at again, in its papers (the cited ones, else that
of its best sentence):

1. Joined: the few sentences that together state the most of its words and numbers
   (`joint_span`). When they state nearly all of it (`joint_min`), the checks find
   no conflict or gap in them and the claim denies nothing they do not, it is supported, each
   sentence shown with its page; a check's gap makes it partially supported. The model is no
   judge here: trained on single sentences, it reads most long joined premises as contrary.
2. Part by part: a compound claim is cut at its clause boundaries (`split_parts`), each part
   is decided on its best sentences with the model and the checks, and the verdicts are
   joined: every part supported -> supported; a check's conflict in a part that its sentence
   states nearly word for word -> contradicted; one check's gap with the other parts
   supported -> partially supported; the model's lone contradiction of the whole claim with at
   least half of the parts supported -> partially supported.

Only claims that the whole-claim decision leaves unverifiable, partially supported for want
of a number or name or of entailment, or contradicted by the model alone are looked at again
(the last only when they cite a paper, or are compound or long: a short statement found by
search alone stays the model's call); the others keep their decision.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sciverify.config.thresholds import DecisionThresholds
from sciverify.entail import lexicon as lx
from sciverify.entail.aims import about_study, only_aims
from sciverify.entail.decide import decide
from sciverify.records import Decision, EntailProbs, Status
from sciverify.verify.decision import checked_conflict, finding_of, listed_apart
from sciverify.verify.evidence import (
    ClaimCheck,
    PaperSentences,
    Span,
    joint_relevance,
    relevance,
    span_probs,
    spans_of,
)
from sciverify.verify.settings import VerifySettings

# Where a compound claim divides: semicolons, a colon that introduces a clause, and a comma
# before a conjunction or a clause word. The conjunction itself is dropped from the part.
_BOUNDARY = re.compile(
    r"\s*;\s+|:\s+(?=\S+(?:\s+\S+){3})|"
    r",\s+(?:and then|and|but(?: also)?|while|whereas|yet|although|though|so that|since|"
    r"because|which|as well as)\s+|"
    r"\s+(?:whereas|while|and then|but also)\s+",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"[-+−]?\d[\d.,]*\s*%?")
_DENIAL = re.compile(r"\b(?:not|no|never|none|neither|nor|without|cannot)\b|n't\b", re.IGNORECASE)
_MIN_STEMS = 3  # a part states something checkable: at least three content words
_MAX_PARTS = 4
_SPANS_PER_PART = 3
_JOINT_MOST = 4  # sentences joined to state a claim that no single sentence states
_JOINT_GAIN = 0.08
_JOINER = " "  # between the sentences of a joined span
# A joined sentence stating less of the claim than this is there for a word or two: a
# condition or hedge in it qualifies something else (see `_gaps_in_own_sentence`).
_GAP_SENTENCE_MIN = 0.25
_SCAN_PER_CLAIM = 6  # sentences of a cited paper's full text added to a claim's joint pool


def split_parts(text: str) -> list[str]:
    """The clauses of a compound claim, each with at least three content words; [] when the
    claim does not divide into two or more such parts.

    Example:
        >>> split_parts("The trial stopped after four months, most often because nitric "
        ...             "oxide had already been started; no infant was enrolled.")
    """
    pieces = [p.strip(" ,.;:") for p in _BOUNDARY.split(text.strip().rstrip("."))]
    parts: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        if parts and len(lx.content_stems(lx.words(piece))) < _MIN_STEMS:
            parts[-1] = f"{parts[-1]}, {piece}"
        else:
            parts.append(piece)
    if parts and len(lx.content_stems(lx.words(parts[0]))) < _MIN_STEMS and len(parts) > 1:
        parts[1] = f"{parts[0]}, {parts[1]}"
        parts.pop(0)
    return parts if 2 <= len(parts) <= _MAX_PARTS else []


@dataclass(slots=True)
class PartCheck:
    """One part of a compound claim and its candidate sentences."""

    text: str
    spans: list[Span] = field(default_factory=list)
    decision: Decision | None = None
    span: Span | None = None


def wants_parts(check: ClaimCheck, cfg: VerifySettings) -> bool:
    """The whole-claim decision is one a part-by-part reading can improve."""
    if check.finding == "cited_paper_missing" or check.finding == "citation_mismatch":
        return False
    if check.status == Status.unverifiable:
        return True
    if check.status == Status.partially_supported:
        # Related only, or a number or name that the deciding sentence lacks: the paper's
        # other sentences may state it ("3.9% and 0.7%" in the conclusion, "2.8%" in results).
        return check.finding in ("related_not_entailed", "unreported_number", "missing_entity")
    if check.status == Status.contradicted and check.decision is not None:
        # A compound or long claim, or one whose cited paper may state it across sentences
        # ("fabricated in UMC L180 and strained in a bending machine"). One short statement
        # found by search alone that the model reads as contrary to a sentence about it is the
        # model's call (SciFact's refuted claims are such statements).
        text = check.claim.text
        short = len(lx.content_stems(lx.words(text))) < cfg.long_claim_words
        if not split_parts(text) and short and not check.cited_papers:
            return False
        return not checked_conflict(check.decision, cfg)
    return False


def part_papers(check: ClaimCheck, cfg: VerifySettings) -> tuple[str, ...]:
    """The papers the parts are looked up in: the cited ones, else that of the best sentence."""
    if check.cited_papers:
        return tuple(sorted(set(check.cited_papers)))
    if check.spans and check.spans[0].relevance >= cfg.thresholds.min_relevance:
        return (check.spans[0].paper_id,)
    return ()


def gather_parts(
    check: ClaimCheck,
    parts: list[str],
    papers: tuple[str, ...],
    *,
    store: Any,
    settings: Any,
    cfg: VerifySettings,
    sentences: PaperSentences | None = None,
) -> list[PartCheck]:
    """Each part's best sentences in `papers`: its own search, plus the claim's own spans
    (and, for a cited paper, the part's best sentences of the whole paper)."""
    out = []
    for text in parts:
        # A part's sentences are ranked by the words they share with it: whether the numbers
        # agree is for the number check to say, and a changed figure must not hide the
        # sentence that shows it.
        words = _NUMBER.sub(" ", text)
        found = _candidates(text, papers, store=store, settings=settings, k=max(cfg.k_cited, 1))
        if sentences is not None:
            found += sentences.best(words, papers, _SPANS_PER_PART)
        spans = [
            replace(s, relevance=round(relevance(words, s.text), 4))
            for s in (*found, *(s for s in check.spans if s.paper_id in papers))
        ]
        best: dict[str, Span] = {}
        for s in sorted(spans, key=lambda s: (-s.relevance, s.chunk_id, s.text)):
            best.setdefault(s.text, s)
        ranked = [s for s in best.values() if s.relevance >= cfg.thresholds.min_relevance]
        out.append(PartCheck(text, ranked[:_SPANS_PER_PART]))
    return out


def decide_parts(
    parts: Sequence[PartCheck],
    model: Sequence[Sequence[EntailProbs]],
    *,
    cfg: VerifySettings,
    weight: float,
) -> None:
    """Each part's decision from its sentences' model probabilities (in place)."""
    for part, raw in zip(parts, model, strict=True):
        part.decision = decide(
            part.text,
            [
                (s.text, span_probs(p, s.relevance, cfg, weight, cited=s.cited), s.relevance)
                for s, p in zip(part.spans, raw, strict=True)
            ],
            thresholds=cfg.thresholds,
        )
        i = part.decision.evidence_index
        part.span = part.spans[i] if i is not None else None


def join_parts(check: ClaimCheck, parts: Sequence[PartCheck], cfg: VerifySettings) -> bool:
    """The claim's status from its parts' decisions; False when they leave it as it was.

    The parts may raise a claim to supported (each part has its sentence), and turn the
    model's lone contradiction of the whole into partial support when at least half of the
    parts are supported and none is contradicted. A part's own conflict or gap decides only
    when its sentence states nearly all the words of that part (`lexical_entail_min`): a part
    matches loosely related sentences too easily to accuse the claim on them.
    """
    if any(p.decision is None for p in parts):
        return False
    decided = [(p, p.decision) for p in parts if p.decision is not None]
    statuses = [d.status for _, d in decided]
    n_sup = statuses.count(Status.supported)
    close = cfg.lexical_entail_min

    def sure(p: PartCheck) -> bool:
        return p.span is not None and p.span.relevance >= close  # words only, see gather_parts

    # A check's conflict in one part counts when the model does not read that part as
    # entailed: a negation in a side clause ("writing that does not involve documents")
    # fools the check, not the model.
    conflict = next(
        (
            p
            for p, d in decided
            if checked_conflict(d, cfg)
            and sure(p)
            and d.probs is not None
            and d.probs.entailment < cfg.thresholds.entail_min
        ),
        None,
    )
    gap = next(
        (
            p
            for p, d in decided
            if d.status == Status.partially_supported
            and sure(p)
            and any(
                f.effect == "partial" and f.check in cfg.thresholds.partial_checks
                for f in d.findings
            )
        ),
        None,
    )
    if conflict is not None:
        weakest, status = conflict, Status.contradicted
    elif n_sup == len(parts):
        weakest, status = min(parts, key=_confidence), Status.supported
    elif Status.contradicted in statuses:
        return False
    elif gap is not None and n_sup + 1 == len(parts):
        weakest, status = gap, Status.partially_supported
    elif check.status == Status.contradicted and n_sup >= len(parts) / 2:
        weakest = next(p for p, d in decided if d.status != Status.supported)
        status = Status.partially_supported
    else:
        return False
    d = weakest.decision
    assert d is not None
    shown = [p.span for p in parts if p.span is not None]
    span = weakest.span or next(p.span for p in parts if p.span is not None)
    summary = "; ".join(f"{p.text[:60]!r}: {dd.status}" for p, dd in decided)
    check.decision = Decision(
        status,
        d.confidence,
        f"checked in {len(parts)} parts ({summary})",
        d.probs,
        d.findings,
        evidence_index=0,
    )
    check.status, check.deciding = status, span
    check.finding = finding_of(check.decision, cfg)
    check.related = [s for s in shown if s is not span] + [
        s for s in check.related if s not in shown
    ]
    if status == Status.contradicted:
        check.note = f"one part of the claim conflicts with the paper: {weakest.text!r}"
    elif status == Status.partially_supported:
        check.note = (
            f"the paper states the other parts of the claim; check this one: {weakest.text!r}"
        )
    else:
        check.note = "the paper states each part of the claim in its own sentence"
        check.joined = list({s.text: s for s in shown}.values())
    return True


def _confidence(p: PartCheck) -> float:
    return p.decision.confidence if p.decision else 0.0


def _candidates(
    text: str, papers: tuple[str, ...], *, store: Any, settings: Any, k: int
) -> list[Span]:
    """The sentences of the chunks of `papers` that a search for `text` finds."""
    from sciverify.search import make_filters, search

    found = search(
        text, store=store, settings=settings, k=k, filters=make_filters(paper_ids=papers)
    )
    return spans_of(text, [(h, True) for h in found], set())


def joint_span(
    claim: str, candidates: Sequence[Span], *, most: int = _JOINT_MOST
) -> tuple[Span, list[Span]] | None:
    """Up to `most` sentences of one paper that together state the most of the claim, joined
    into one span (greedy: each added sentence must add `_JOINT_GAIN` of the claim); the
    joined span and its sentences."""
    pool: dict[str, Span] = {}
    # A sentence that only states an aim or an open question shares the claim's words and
    # states none of it ("We investigated whether ER stress is necessary ...").
    aims_allowed = about_study(claim)
    for s in candidates:
        if aims_allowed or not only_aims(s.text):
            pool.setdefault(s.text, s)
    if not pool:
        return None
    first = max(pool.values(), key=lambda s: (relevance(claim, s.text), s.chunk_id))
    chosen, score = [first], joint_relevance(claim, [first.text])
    while len(chosen) < most:
        best, gain = None, _JOINT_GAIN
        for s in pool.values():
            if (
                s in chosen
                or s.paper_id != first.paper_id
                or any(s.text in c.text or c.text in s.text for c in chosen)
            ):
                continue
            g = joint_relevance(claim, [c.text for c in (*chosen, s)]) - score
            if g >= gain:
                best, gain = s, g
        if best is None:
            break
        chosen.append(best)
        score += gain
    if len(chosen) < 2:
        return None
    joined = replace(first, text=_JOINER.join(c.text for c in chosen), relevance=round(score, 4))
    return joined, chosen


def refine(
    checks: Sequence[ClaimCheck],
    *,
    store: Any,
    settings: Any,
    cfg: VerifySettings,
    entailer: Any,
    weight: float,
    all_sentences: PaperSentences | None = None,
) -> int:
    """Re-decide the claims that no single sentence settles (in place): first against the few
    sentences of their paper that state the most of them together, then, for a compound claim,
    part by part. Returns how many claims were looked at again; one model call for all."""
    from sciverify.search import prime_queries

    chosen = [
        (check, papers, split_parts(check.claim.text))
        for check in checks
        if cfg.parts and wants_parts(check, cfg)
        for papers in [part_papers(check, cfg)]
        if papers
    ]
    queries = [q for check, _, parts in chosen for q in (check.claim.text, *parts)]
    prime_queries(queries, store=store, settings=settings)
    todo: list[tuple[ClaimCheck, tuple[Span, list[Span]] | None, list[PartCheck]]] = []
    for check, papers, split in chosen:
        text = check.claim.text
        sentences = all_sentences if check.cited_papers else None
        pool = _candidates(text, papers, store=store, settings=settings, k=2 * max(cfg.k_cited, 1))
        pool += [s for s in check.spans if s.paper_id in papers]
        if sentences is not None:
            # Retrieval reads a few chunks; the cited paper may state the claim in another.
            pool += sentences.best(text, papers, _SCAN_PER_CLAIM)
        parts = gather_parts(
            check, split, papers, store=store, settings=settings, cfg=cfg, sentences=sentences
        )
        pool += [s for p in parts for s in p.spans]
        joint = joint_span(text, pool)
        # Where the draft cites the paper, a looser paraphrase across its sentences will do;
        # in a paper found by search alone, coverage that high can be coincidence.
        floor = cfg.joint_min if check.cited_papers else max(cfg.joint_min, cfg.lexical_entail_min)
        todo.append((check, joint if joint and joint[0].relevance >= floor else None, parts))
    pairs = [(j[0].text, c.claim.text) for c, j, _ in todo if j is not None]
    pairs += [(s.text, p.text) for _, _, parts in todo for p in parts for s in p.spans]
    raw = list(entailer.predict(pairs) if pairs else [])
    n_joint = sum(1 for _, j, _ in todo if j is not None)
    joint_raw, it = iter(raw[:n_joint]), iter(raw[n_joint:])
    for check, joint, parts in todo:
        model = [[next(it) for _ in p.spans] for p in parts]
        if joint is not None and join_joint(check, *joint, next(joint_raw), cfg, weight):
            continue
        if parts:
            decide_parts(parts, model, cfg=cfg, weight=weight)
            join_parts(check, parts, cfg)
    return len(todo)


def join_joint(
    check: ClaimCheck,
    joint: Span,
    sentences: list[Span],
    raw: EntailProbs,
    cfg: VerifySettings,
    weight: float,
) -> bool:
    """The claim against its paper's joined sentences: supported when they entail it with no
    check's conflict or gap; partially supported when a check finds a gap. Otherwise the
    claim is left as it was."""
    if _DENIAL.search(check.claim.text) and not _DENIAL.search(joint.text):
        # The words are the paper's but the claim denies something none of its sentences
        # denies ("failures never occurred"): too short a scope for the negation check,
        # and the model is no judge of a premise this long.
        return False
    th = cfg.thresholds
    # The joint span passed its coverage floor in `refine`: lexically, it entails.
    probs = span_probs(raw, joint.relevance, cfg, weight, lexical_entails=True)
    d = decide(check.claim.text, [(joint.text, probs, joint.relevance)], thresholds=th)
    if _figure_from_a_list(check.claim.text, d, sentences):
        return False
    if d.status == Status.partially_supported:
        d = _gaps_in_own_sentence(check.claim.text, d, sentences, th)
    if d.status == Status.partially_supported and _named_in_title(d, check.claim.text, joint):
        d = replace(d, status=Status.supported, reason=f"{d.reason}; the paper's title names it")
    if d.status == Status.supported:
        check.note = "the paper states the claim across the sentences shown"
    elif (
        d.status == Status.partially_supported
        and (raw.entailment >= raw.contradiction or raw.contradiction < th.contradict_min)
        and any(f.effect == "partial" and f.check in th.partial_checks for f in d.findings)
    ):
        check.note = "the paper's sentences shown state the rest of the claim"
    elif d.status == Status.contradicted and any(
        f.check == "number"
        and f.effect == "contradict"
        and not _figure_in(f.claim_text, joint.text)
        for f in d.findings
    ):
        # The sentences state the claim's words but one of its figures otherwise ("CN2 adds
        # another eighty images" / "... augmented by an additional sixty images"), and the
        # figure is nowhere in them: one found in another of the joined sentences ("12
        # months" / "a 12-month period ... up to 12 weeks") is read against the wrong one.
        check.note = "the paper's sentences shown state the claim with another figure"
    else:
        return False
    check.decision = replace(d, reason=f"{d.reason}; {len(joint.text)} characters from one paper")
    check.status, check.deciding, check.joined = d.status, joint, sentences
    check.finding = finding_of(check.decision, cfg)
    return True


def _figure_from_a_list(claim: str, d: Decision, sentences: Sequence[Span]) -> bool:
    """A figure of the claim that the joined sentences give only in a list of values of other
    things ("(d) 81,900 years; (e) 57,800 years"): the list states the number, not that it
    is the number of what the claim says."""
    for f in d.findings:
        if f.check != "number" or f.effect != "ok":
            continue
        own = _own_sentence(f.evidence_span, sentences)
        if own and listed_apart(own, claim, f.claim_text):
            return True
    return False


def _own_sentence(span: tuple[int, int] | None, sentences: Sequence[Span]) -> str | None:
    """The text of the one of the joined `sentences` in which a finding's evidence `span`
    (offsets into their joined text) starts."""
    if not span:
        return None
    at = 0
    for s in sentences:
        if at <= span[0] < at + len(s.text):
            return s.text
        at += len(s.text) + len(_JOINER)
    return None


def _gaps_in_own_sentence(
    claim: str, d: Decision, sentences: Sequence[Span], th: DecisionThresholds
) -> Decision:
    """A joined span's check gap that sits in a sentence hardly about the claim, and that
    sentence's own checks do not show, is no gap: "For septic patients we retain data ..."
    joined to "We use the Lanczos method to speed computation" does not make "posterior draws
    are sped up with the Lanczos method" drop a condition. A gap with no evidence span (a
    number or name none of the sentences gives) stands."""
    from sciverify.entail.checks import run_checks

    gaps = [f for f in d.findings if f.effect == "partial" and f.check in th.partial_checks]
    if not gaps or d.probs is None or d.probs.entailment < th.entail_min:
        return d
    kept = []
    for f in gaps:
        own = _own_sentence(f.evidence_span, sentences)
        if (
            own is None
            or relevance(claim, own) >= _GAP_SENTENCE_MIN
            or any(g.check == f.check and g.effect == "partial" for g in run_checks(claim, own))
        ):
            kept.append(f)
    if kept:
        return d
    dropped = {id(f) for f in gaps}
    return replace(
        d,
        status=Status.supported,
        findings=tuple(f for f in d.findings if id(f) not in dropped),
        reason=(
            f"the joined sentences entail the claim (p={d.probs.entailment:.2f}); the "
            f"{gaps[0].check} check's gap is in a sentence about something else"
        ),
    )


def _figure_in(figure: str, text: str) -> bool:
    """Whether `text` gives the number of `figure` ("42,200 Kb/s": "42 200"; "eighty":
    "eighty" or "80"), whatever it says around it."""
    from sciverify.entail.quantities import spelled_counts

    digits = re.findall(r"\d+", figure)
    if not digits:
        words = spelled_counts(f"{figure} x")
        if not words:
            return False
        value = f"{words[0].value:g}"
        return bool(
            re.search(
                rf"\b{re.escape(figure)}\b|(?<![\d.,]){value}(?![\d]|[.,]\d)", text, re.IGNORECASE
            )
        )
    pattern = r"[\s,.\u2009\u202f]?".join(digits)
    return bool(re.search(rf"(?<![\d.]){pattern}(?![\d]|[.,]\d)", text))


def _named_in_title(d: Decision, claim: str, joint: Span) -> bool:
    """Every gap is a name the paper's title gives ("AI" in "Artificial intelligence and the
    conduct of literature reviews"): the paper names its subject once, its sentences say "it"."""
    from sciverify.entail.mentions import check_entities

    gaps = [f for f in d.findings if f.effect == "partial"]
    if not gaps or not joint.title or any(f.check != "entity" for f in gaps):
        return False
    if any(f.evidence_span is not None for f in gaps):
        return False  # a name swapped for another ("monogyne" / "polygyne"), not left out
    missing = {g.claim_text for g in check_entities(claim, joint.title)}
    return all(f.claim_text not in missing for f in gaps)
