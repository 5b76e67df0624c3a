"""The decision function and its calibration."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from sciverify.entail.backends import load_entailer
from sciverify.entail.decide import (
    DEFAULT_THRESHOLDS,
    DecisionThresholds,
    calibrate_thresholds,
    decide,
)
from sciverify.entail.evaluate import eval_entail
from sciverify.records import EntailProbs, Status

# SciFact corpus sentences (doc 3944632 sentence 6, doc 2052720 sentence 7), verbatim.
SRS = (
    "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group and 76.4% "
    "for SRS alone group (P<.001)."
)
HPYLORI = (
    "CONCLUSIONS H pylori infection may be an important cause of gastric cancer; between "
    "35% and 55% of all cases may be associated with such an infection."
)

ENTAILS = EntailProbs(entailment=0.92, neutral=0.05, contradiction=0.03)
CONTRADICTS = EntailProbs(entailment=0.04, neutral=0.06, contradiction=0.90)
NEUTRAL = EntailProbs(entailment=0.05, neutral=0.90, contradiction=0.05)


def test_supported_names_the_deciding_span() -> None:
    claim = "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group."
    d = decide(claim, [(HPYLORI, NEUTRAL, 0.9), (SRS, ENTAILS, 0.8)])
    assert d.status == Status.supported and d.evidence_index == 1
    assert d.confidence == pytest.approx(0.92)
    assert "evidence #2" in d.reason and "12-month brain tumor" in d.reason


def test_contradiction_is_checked_before_entailment() -> None:
    claim = "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group."
    d = decide(claim, [(SRS, ENTAILS, 0.9), (HPYLORI, CONTRADICTS, 0.9)])
    assert d.status == Status.contradicted and d.evidence_index == 1


def test_a_verbatim_restatement_stays_supported_when_the_model_misreads_it() -> None:
    # The small model reads some long, number-heavy quotes as contradictions; a claim that
    # repeats its evidence word for word is supported all the same.
    d = decide(SRS, [(SRS, CONTRADICTS, 0.9)])
    assert d.status == Status.supported and "restates" in d.reason
    # ... but not when the repeat changes a number, a condition or drops a "not".
    changed = SRS.replace("76.4%", "86.4%")
    assert decide(changed, [(SRS, CONTRADICTS, 0.9)]).status == Status.contradicted
    negated = SRS.replace("was 46.8%", "was not 46.8%")
    assert decide(negated, [(SRS, ENTAILS, 0.9)]).status == Status.contradicted


def test_a_more_relevant_sentence_with_the_claims_polarity_outweighs_a_conflicting_one() -> None:
    # TraceMonkey (Gal et al. 2009), p. 6: the monitor is called at every loop header, until a
    # loop is blacklisted; then never again.
    every = "The VM calls into the trace monitor every time the interpreter executes a loop header no-op."
    never = (
        "To blacklist a fragment, we simply replace the loop header no-op with a regular no-op. "
        "Thus, the interpreter will never again even call into the trace monitor."
    )
    claim = (
        "Once a loop is blacklisted, the loop-header no-op is replaced by a regular no-op, so the "
        "interpreter no longer calls into the trace monitor at all."
    )
    leaning = EntailProbs(entailment=0.31, neutral=0.15, contradiction=0.54)
    d = decide(claim, [(never, ENTAILS, 0.62), (every, leaning, 0.56)])
    assert d.status == Status.supported and d.evidence_index == 0
    # The conflict stands when the sentence with the claim's polarity is the less relevant one,
    # and when no sentence shares the claim's polarity.
    assert (
        decide(claim, [(never, ENTAILS, 0.5), (every, leaning, 0.56)]).status == Status.contradicted
    )
    assert decide(claim, [(every, leaning, 0.56)]).status == Status.contradicted


def test_a_sentence_stating_every_figure_outweighs_another_cases_figures() -> None:
    # Frazier et al. 2015 (shark longevity), p. 4: two sharks, one sentence each.
    own = "over 12.1 years-at-liberty this shark grew 28 mm (2.3 mm/year)."
    other = "L1515 was at liberty for 12.8 years and grew 177 mm (13.8 mm/year)."
    claim = "Over its 12.1 years at liberty it grew only 28 mm, or 2.3 mm per year."
    unsure = EntailProbs(entailment=0.5, neutral=0.3, contradiction=0.2)
    d = decide(claim, [(own, unsure, 0.74), (other, unsure, 0.70)])
    assert d.status == Status.supported and d.evidence_index == 0
    # The other shark's figures decide when the claim's own sentence is no more relevant, or
    # when the claim changed a figure of its own sentence too.
    assert decide(claim, [(own, unsure, 0.70), (other, unsure, 0.70)]).status == (
        Status.contradicted
    )
    changed = claim.replace("28 mm", "38 mm")
    assert decide(changed, [(own, unsure, 0.74), (other, unsure, 0.70)]).status == (
        Status.contradicted
    )


def test_a_model_contradiction_alone_is_a_warning_when_every_number_matches() -> None:
    # A paraphrase that keeps both figures: the small model's "contradiction" is not enough
    # for a red verdict, but it is not dropped either.
    para = "Brain tumors recurred within 12 months in 46.8% of the WBRT + SRS group and 76.4% of the SRS alone group."
    d = decide(para, [(SRS, CONTRADICTS, 0.9)])
    assert d.status == Status.partially_supported and "numbers match" in d.reason
    # Without numbers, or with one that differs, the model's reading stands.
    assert decide("Tumors recurred less often with WBRT.", [(SRS, CONTRADICTS, 0.9)]).status == (
        Status.contradicted
    )
    changed = para.replace("76.4%", "66.4%")
    assert decide(changed, [(SRS, CONTRADICTS, 0.9)]).status == Status.contradicted
    # A CI the evidence does not give is a gap in the claim, not a conflict.
    with_ci = para.replace("SRS alone group", "SRS alone group (95% CI 70.1 to 82.7)")
    assert decide(with_ci, [(SRS, CONTRADICTS, 0.9)]).status == Status.partially_supported


def test_number_check_overrides_a_model_entailment() -> None:
    claim = "The 12-month brain tumor recurrence rate was 56.8% in the WBRT + SRS group."
    d = decide(claim, [(SRS, ENTAILS, 0.9)])
    assert d.status == Status.contradicted
    assert "number check" in d.reason and "56.8%" in d.reason and "46.8%" in d.reason
    assert d.confidence >= DEFAULT_THRESHOLDS.check_confidence
    assert any(f.check == "number" and f.effect == "contradict" for f in d.findings)
    without = decide(claim, [(SRS, ENTAILS, 0.9)], with_checks=False)
    assert without.status == Status.supported


def test_stronger_wording_is_partial_support() -> None:
    claim = "H pylori infection proves to be an important cause of gastric cancer."
    d = decide(claim, [(HPYLORI, ENTAILS, 0.9)])
    assert d.status == Status.partially_supported
    assert "hedge" in d.reason and "proves" in d.reason


def test_unverifiable_cases_say_why() -> None:
    claim = "Aspirin prevents migraines."
    none = decide(claim, [])
    assert none.status == Status.unverifiable and "no evidence" in none.reason
    weak = decide(claim, [(SRS, NEUTRAL, 0.1)])
    assert weak.status == Status.unverifiable and "relevant enough" in weak.reason
    neutral = decide(claim, [(SRS, NEUTRAL, 0.9)])
    assert neutral.status == Status.unverifiable and neutral.confidence == pytest.approx(0.95)
    failed = EntailProbs(0.0, 1.0, 0.0, error="the language model endpoint answered HTTP 503")
    err = decide(claim, [(SRS, failed, 0.9)])
    assert err.status == Status.unverifiable and "HTTP 503" in err.reason


def test_confident_model_counts_even_below_the_relevance_floor() -> None:
    claim = "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group."
    d = decide(claim, [(SRS, ENTAILS, 0.0)])
    assert d.status == Status.supported


def test_thresholds_are_a_strict_settings_block() -> None:
    for name, field in DecisionThresholds.model_fields.items():
        assert field.description, name
    with pytest.raises(ValidationError):
        DecisionThresholds(entail_min=1.5)
    with pytest.raises(ValidationError):
        DecisionThresholds(unknown=1)  # type: ignore[call-arg]


def test_calibration_finds_thresholds_at_least_as_good_as_the_defaults(
    shared_corpora: Path,
) -> None:
    from sciverify.entail.data import load_pairs

    pairs = load_pairs(shared_corpora, "heldout", sources=["scifact", "healthver"])
    sample = [p for i, p in enumerate(pairs) if i % 12 == 0]
    assert {str(p.label) for p in sample} == {"entailment", "neutral", "contradiction"}
    entailer = load_entailer()
    tuned = calibrate_thresholds(sample, entailer)
    assert isinstance(tuned, DecisionThresholds)
    assert {"number", "negation"} <= set(tuned.override_checks)
    # The scalar decide() and the vectorised grid agree, so the tuned thresholds score at
    # least as well as the defaults (which are a point of the grid) on the same pairs.
    before = eval_entail(sample, entailer=entailer, with_checks=True)
    after = eval_entail(sample, entailer=entailer, with_checks=True, thresholds=tuned)
    assert after.macro_f1 >= before.macro_f1 - 1e-9


def test_matching_years_do_not_excuse_a_contradiction_the_model_reads() -> None:
    # SciFact: the period matches, the direction of the change does not.
    ev = (
        "From 2009-2014, sepsis incidence using clinical criteria was stable (+0.6% relative "
        "change/y [95% CI, −2.3% to 3.5%], P = .67)."
    )
    claim = "Incidence of sepsis has fallen substantially from 2009 to 2014."
    probs = EntailProbs(entailment=0.02, neutral=0.02, contradiction=0.96)
    assert decide(claim, [(ev, probs, 1.0)]).status == Status.contradicted


def test_the_most_relevant_sentence_s_dropped_condition_outweighs_a_weaker_supporter() -> None:
    # Conspecific recognition and aggression reduction to familiars in grey seal pups, p. 1.
    first = (
        "This study is the first with wild subjects to find conspecific recognition abilities "
        "in a pinniped species outside of reproductive contexts."
    )
    other = (
        "Recognition abilities in this species have adaptive value by allowing the reduction "
        "of costly aggressive interactions between familiar conspecifics."
    )
    claim = "It is the first study to detect conspecific recognition in a pinniped species."
    sure = EntailProbs(entailment=0.79, neutral=0.16, contradiction=0.05)
    weaker = EntailProbs(entailment=0.66, neutral=0.30, contradiction=0.04)
    d = decide(claim, [(first, sure, 0.71), (other, weaker, 0.64)])
    assert d.status == Status.partially_supported and d.evidence_index == 0
    assert "condition" in d.reason
    # A supporter as relevant, or more surely entailing, still decides.
    assert decide(claim, [(first, sure, 0.71), (other, weaker, 0.71)]).status == "supported"
    assert decide(claim, [(first, sure, 0.71), (other, ENTAILS, 0.64)]).status == "supported"
    # Without the checks the model's reading alone decides.
    assert decide(
        claim, [(first, sure, 0.71), (other, weaker, 0.64)], with_checks=False
    ).status == ("supported")
