"""From model probabilities and check findings to a claim status, with a reason.

For each candidate evidence span (text, model probabilities, retrieval relevance) the span gets
a verdict, contradiction first: the model says contradiction, or a deterministic check finds a
conflict (another number, the opposite polarity) on a span the model reads as on topic — which
overrides a model "entailment"; then entailment (`supported`, or `partially_supported` when a
check finds a missing number, entity, condition or a stronger wording); then related-but-not-
entailed (`partially_supported`). Across spans the strongest verdict wins in that same order.
`unverifiable` is what is left: nothing relevant, or nothing the model or the checks could call.
A span that only states an aim or an open question (`entail.aims`) is related at most, unless
the claim itself describes what a study set out to do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from sciverify.config.thresholds import CONTRADICTING_CHECKS, DecisionThresholds
from sciverify.entail.aims import about_study, only_aims
from sciverify.entail.backends import Entailer
from sciverify.entail.checks import negation_agrees, run_checks
from sciverify.records import Decision, EntailProbs, Finding, Label, Status

DEFAULT_THRESHOLDS = DecisionThresholds()


def decide(
    claim: str,
    evidence: Sequence[tuple[str, EntailProbs, float]],
    *,
    thresholds: DecisionThresholds = DEFAULT_THRESHOLDS,
    with_checks: bool = True,
) -> Decision:
    """The status of `claim` given candidate evidence spans `(text, probs, relevance)`.

    Example:
        >>> probs = load_entailer().predict([(text, claim)])[0]
        >>> decide(claim, [(text, probs, 0.9)]).status
    """
    verdicts: list[tuple[int, Decision]] = []
    errors: list[str] = []
    best_relevance = max((rel for _, _, rel in evidence), default=0.0)
    stated: list[float] = []  # relevance of the sentences that state every figure of the claim
    for i, (text, probs, relevance) in enumerate(evidence):
        if probs.error:
            errors.append(probs.error)
            continue
        findings = run_checks(claim, text) if with_checks else []
        if (
            numbers_agree(findings)
            and not any(f.effect == "contradict" for f in findings)
            and probs.contradiction < thresholds.contradict_min
        ):
            stated.append(relevance)
        verdict = judge_span(probs, relevance, findings, thresholds)
        if verdict is None:
            continue
        status, confidence, why = verdict
        if (
            with_checks
            and status in (Status.supported, Status.contradicted)
            and only_aims(text)
            and not about_study(claim)
        ):
            # "OBJECTIVE To assess whether screening improves vision" shares the claim's words
            # and says nothing of the answer: related, whatever the model reads.
            status, why = (
                Status.partially_supported,
                (
                    "the evidence states what a study set out to do or what is not known, "
                    "not a finding"
                ),
            )
            findings = [f for f in findings if f.effect == "ok"]
        reason = f"{why} (evidence #{i + 1}: {_snippet(text)!r})"
        verdicts.append(
            (
                i,
                Decision(
                    status, round(confidence, 4), reason, probs, tuple(findings), evidence_index=i
                ),
            )
        )

    # A check's conflict with one sentence yields to a more relevant sentence that states the
    # claim's side of it, and the conflicting sentence speaks of another case:
    # - a polarity conflict (the negation check's, whatever the model reads), when that
    #   sentence negates what the claim negates ("calls the monitor at every loop header"
    #   against "will never again call the monitor" once a loop is blacklisted);
    # - a changed figure, when that sentence states every figure of the claim with no conflict
    #   ("over 12.1 years-at-liberty this shark grew 28 mm" states the claim; "L1515 was at
    #   liberty for 12.8 years and grew 177 mm" is another shark).
    def outweighed(i: int, d: Decision) -> bool:
        rel = evidence[i][2]
        if _only_conflict(d, thresholds, "negation"):
            return any(
                other > rel and negation_agrees(claim, text)
                for j, (text, _, other) in enumerate(evidence)
                if j != i
            )
        return _only_conflict(d, thresholds, "number") and any(other > rel for other in stated)

    if with_checks:
        verdicts = [(i, d) for i, d in verdicts if not outweighed(i, d)]
    for status in (Status.contradicted, Status.supported, Status.partially_supported):
        ranked = [d for _, d in verdicts if d.status == status]
        if ranked:
            if status == Status.supported and with_checks:
                narrowed = _narrowed_by_the_best(verdicts, evidence, best_relevance)
                if narrowed is not None:
                    return narrowed
            return max(ranked, key=lambda d: d.confidence)
    return _unverifiable(evidence, errors, best_relevance, thresholds)


def _narrowed_by_the_best(
    verdicts: Sequence[tuple[int, Decision]],
    evidence: Sequence[tuple[str, EntailProbs, float]],
    best_relevance: float,
) -> Decision | None:
    """The most relevant sentence's partial verdict for a condition the claim drops, when
    every supporting sentence is less relevant and less surely entailing: "the first with wild
    subjects to find recognition ... outside of reproductive contexts" decides "the first
    study to detect recognition", not a sentence about something else that the model happens
    to read as entailing."""
    gapped = [
        (i, d)
        for i, d in verdicts
        if d.status == Status.partially_supported
        and evidence[i][2] >= best_relevance
        and d.probs is not None
        and any(f.check == "condition" and f.effect == "partial" for f in d.findings)
    ]
    if not gapped:
        return None
    i, d = gapped[0]
    assert d.probs is not None
    supporters = [(j, s) for j, s in verdicts if s.status == Status.supported]
    if all(
        evidence[j][2] < evidence[i][2]
        and s.probs is not None
        and s.probs.entailment < d.probs.entailment
        for j, s in supporters
    ):
        return d
    return None


def _only_conflict(d: Decision, th: DecisionThresholds, check: str) -> bool:
    """A contradiction whose only conflict a check finds is `check`'s: "negation" for a
    polarity conflict, "number" for a changed figure."""
    if d.status != Status.contradicted:
        return False
    checks = {
        f.check for f in d.findings if f.effect == "contradict" and f.check in th.override_checks
    }
    return checks == {check}


def judge_span(
    probs: EntailProbs,
    relevance: float,
    findings: Sequence[Finding],
    th: DecisionThresholds,
) -> tuple[str, float, str] | None:
    """One span's (status, confidence, reason), or None when it says nothing about the claim."""
    pe, pc = probs.entailment, probs.contradiction
    # A comparison the evidence's figures settle ("73% in the surgical group and 13% in the
    # conventional-therapy group", "HR 0.98 (0.97 to 0.99)") is on topic however few words the
    # sentence shares with the claim.
    figures = any(is_figure_comparison(f) for f in findings)
    confident = pe >= th.entail_min or pc >= th.contradict_min or figures
    if relevance < th.min_relevance and not confident:
        return None
    # A near-verbatim restatement is on topic and entailed whatever the model reads, unless a
    # check finds a conflict (a changed number, polarity, direction) or a gap in it.
    restates = any(
        f.check == "restatement" and f.effect == "support" for f in findings
    ) and not any(f.check == "number" and f.effect != "ok" for f in findings)
    # Two values of the evidence ordered as the claim compares its two sides ("less with
    # conventional therapy" against "73% in the surgical group and 13% in the conventional-
    # therapy group"): the comparison is stated, in figures the model reads poorly.
    ordered = any(f.check == "comparative" and f.effect == "support" for f in findings)
    if restates or ordered:
        pe = max(pe, 0.9)
    on_topic = restates or figures or pe >= th.related_min or pc >= th.related_min
    conflicts = [f for f in findings if f.effect == "contradict" and f.check in th.override_checks]
    if pc >= th.contradict_min and not (restates or ordered):
        if not conflicts and numbers_agree(findings):
            # The claim's figures are the evidence's: a reversal would be in the words, where
            # the negation and direction checks found none. The small model misreads
            # number-dense paraphrases as contradictions; this says "look", not "wrong".
            return (
                Status.partially_supported,
                pc,
                (
                    f"the model reads a contradiction (p={pc:.2f}) although the claim's "
                    "numbers match the evidence"
                ),
            )
        return Status.contradicted, pc, f"the model reads a contradiction (p={pc:.2f})"
    if conflicts and on_topic:
        return (
            Status.contradicted,
            max(th.check_confidence, pc),
            f"{conflicts[0].check} check: {conflicts[0].message}",
        )
    gaps = [f for f in findings if f.effect == "partial" and f.check in th.partial_checks]
    if pe >= th.entail_min:
        if gaps:
            return (
                Status.partially_supported,
                pe,
                f"entailed (p={pe:.2f}) but {gaps[0].check} check: {gaps[0].message}",
            )
        if restates:
            return Status.supported, pe, "the claim restates the evidence"
        if ordered:
            said = next(f for f in findings if f.check == "comparative" and f.effect == "support")
            return Status.supported, pe, f"comparative check: {said.message}"
        return Status.supported, pe, f"the evidence entails the claim (p={pe:.2f})"
    if pe >= th.partial_min:
        return (Status.partially_supported, pe, f"related evidence, not entailed (p={pe:.2f})")
    return None


def is_figure_comparison(f: Finding) -> bool:
    """A comparative finding read off numbers (two values, a ratio's interval, a table row)."""
    return (
        f.check == "comparative"
        and f.effect != "ok"
        and any(ch.isdigit() for ch in f.evidence_text)
    )


_STATISTIC = re.compile(r"\bCI\b|confidence|^[pP]\b|\bSD\b|±")
_PRECISE = re.compile(r"\d[.,·]\d|%|\d{3}")
_YEAR = re.compile(r"(?:1[89]|20)\d\d$")


def numbers_agree(findings: Sequence[Finding]) -> bool:
    """The number check matched every number of the claim, leaving aside statistics the
    evidence does not report (an added CI or p-value is a gap, not a conflict), and the
    matches say something: two numbers or more, or one precise value ("46.8%", "927-fold"),
    not just the "12" of "12-month" or the years of a period."""
    numbers = [
        f
        for f in findings
        if f.check == "number" and not (f.effect == "partial" and _STATISTIC.search(f.claim_text))
    ]
    matched = [f for f in numbers if f.effect == "ok"]
    # Years date the finding ("from 2009 to 2014"); they say nothing about which way it went.
    measured = [f for f in matched if not _YEAR.match(f.claim_text.strip())]
    telling = len(measured) >= 2 or any(_PRECISE.search(f.claim_text) for f in measured)
    return bool(numbers) and len(matched) == len(numbers) and telling


def _unverifiable(
    evidence: Sequence[tuple[str, EntailProbs, float]],
    errors: list[str],
    best_relevance: float,
    th: DecisionThresholds,
) -> Decision:
    if not evidence:
        return Decision(Status.unverifiable, 1.0, "no evidence was found for this claim")
    if errors and len(errors) == len(evidence):
        return Decision(
            Status.unverifiable,
            0.0,
            f"the entailment backend could not judge the evidence: {errors[0]}",
        )
    if best_relevance < th.min_relevance:
        return Decision(
            Status.unverifiable,
            round(1.0 - best_relevance, 4),
            "no evidence is "
            f"relevant enough (best relevance {best_relevance:.2f} < "
            f"{th.min_relevance:.2f}) and the model is neutral",
        )
    judged = [p for _, p, _ in evidence if not p.error]
    top = max(max(p.entailment, p.contradiction) for p in judged) if judged else 0.0
    note = f"; backend errors: {errors[0]}" if errors else ""
    return Decision(
        Status.unverifiable,
        round(1.0 - top, 4),
        "the evidence neither supports nor "
        f"contradicts the claim (best P(entail or contradict) {top:.2f}){note}",
    )


def _snippet(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- calibration ---------------------------------------------------------------------------

STATUS_TO_LABEL = {
    Status.supported: Label.entailment,
    Status.contradicted: Label.contradiction,
    Status.partially_supported: Label.neutral,
    Status.unverifiable: Label.neutral,
}
_GRID = tuple(round(0.3 + 0.05 * i, 2) for i in range(13))  # 0.30 .. 0.90
_RELATED_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)
_OVERRIDES = (("number", "negation"), ("number", "negation", "comparative"), CONTRADICTING_CHECKS)


def pair_fields(pair: Any) -> tuple[str, str, str]:
    """(premise, hypothesis, label) of a dict or of a record with those attributes."""
    if isinstance(pair, dict):
        return str(pair["premise"]), str(pair["hypothesis"]), str(pair["label"])
    return str(pair.premise), str(pair.hypothesis), str(pair.label)


def calibrate_thresholds(
    pairs: Iterable[Any],
    entailer: Entailer,
    *,
    base: DecisionThresholds = DEFAULT_THRESHOLDS,
    batch_size: int = 32,
) -> DecisionThresholds:
    """Grid-search the thresholds that maximise macro-F1 on labelled NLI pairs.

    A pair is `{premise, hypothesis, label}` (or a record with those fields); each is one span
    of relevance 1. Statuses score as labels: supported = entailment, contradicted =
    contradiction, partially_supported and unverifiable = neutral. Searched: `entail_min`,
    `contradict_min`, `related_min` and `override_checks` (always with number and negation).
    The rest comes from `base`: `min_relevance` and `check_confidence` need retrieval scores
    the pairs lack, and NLI labels cannot tell partial support from no support, so
    `partial_min` and `partial_checks` stay design choices.
    """
    import numpy as np

    rows = [pair_fields(p) for p in pairs]
    probs = entailer.predict([(prem, hyp) for prem, hyp, _ in rows], batch_size=batch_size)
    labels = [str(Label.entailment), str(Label.neutral), str(Label.contradiction)]
    gold = np.array([labels.index(lab) for _, _, lab in rows])
    pe = np.array([p.entailment for p in probs])
    pc = np.array([p.contradiction for p in probs])
    findings = [run_checks(hyp, prem) for prem, hyp, _ in rows]
    none = np.zeros(len(rows), dtype=bool)

    def has(check: str, effect: str) -> Any:
        return (
            np.array([any(f.check == check and f.effect == effect for f in fs) for fs in findings])
            if rows
            else none
        )

    gaps = np.logical_or.reduce([has(c, "partial") for c in base.partial_checks] + [none])
    restates = (
        has("restatement", "support") & ~has("number", "partial") & ~has("number", "contradict")
    )
    best: tuple[float, dict[str, Any]] | None = None
    for overrides in _OVERRIDES:
        conflict = np.logical_or.reduce([has(c, "contradict") for c in overrides] + [none])
        for rmin in _RELATED_GRID:
            checked = conflict & ((pe >= rmin) | (pc >= rmin) | restates)
            for cmin in _GRID:
                is_c = ((pc >= cmin) & ~restates) | checked
                for emin in _GRID:
                    is_e = ~is_c & ((pe >= emin) | restates) & ~gaps
                    score = _macro_f1(gold, np.where(is_c, 2, np.where(is_e, 0, 1)))
                    if best is None or score > best[0] + 1e-12:
                        best = (
                            score,
                            {
                                "entail_min": emin,
                                "contradict_min": cmin,
                                "related_min": rmin,
                                "override_checks": overrides,
                            },
                        )
    return base.model_copy(update=best[1]) if best else base


def _macro_f1(gold: Any, pred: Any) -> float:
    total = 0.0
    for k in range(3):
        tp = float(((pred == k) & (gold == k)).sum())
        fp = float(((pred == k) & (gold != k)).sum())
        fn = float(((pred != k) & (gold == k)).sum())
        total += 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return total / 3
