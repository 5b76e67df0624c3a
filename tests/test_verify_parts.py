"""A compound claim checked part by part, and against several sentences of its paper."""

from __future__ import annotations

from pathlib import Path

import pytest

import sciverify as sv
from sciverify.records import EntailProbs, Status
from sciverify.verify import verify
from sciverify.verify.evidence import Span, relevance, span_probs
from sciverify.verify.parts import joint_span, split_parts
from sciverify.verify.settings import VerifySettings, with_overrides


def _span(text: str, paper: str = "p1", chunk: str = "c1") -> Span:
    return Span(text, paper, f"{paper}:{chunk}", "T", 1, "x.pdf", "text", True, 0.0)


def test_a_compound_claim_divides_at_its_clauses() -> None:
    parts = split_parts(
        "The trial was stopped after four months without enrolling a single infant, "
        "most often because nitric oxide had already been started; the second pilot "
        "enrolled seven infants at eight sites."
    )
    assert parts == [
        (
            "The trial was stopped after four months without enrolling a single infant, "
            "most often because nitric oxide had already been started"
        ),
        "the second pilot enrolled seven infants at eight sites",
    ]
    assert split_parts(
        "GANomaly exceeded EGBAD in both metrics, while AnoGAN needs 500 steps."
    ) == [
        "GANomaly exceeded EGBAD in both metrics",
        "AnoGAN needs 500 steps",
    ]


def test_a_simple_claim_or_a_short_tail_does_not_divide() -> None:
    assert (
        split_parts("Heparin lowers the rate of deep venous thrombosis in trauma patients.") == []
    )
    # "and rats" is too short to be a statement of its own: it stays with the clause before.
    assert split_parts("Heparin lowers the rate of thrombosis in mice, and rats.") == []


def test_joint_span_joins_the_sentences_that_state_the_claim_together() -> None:
    claim = (
        "The risk of bleeding was 3.9% and failed filter retrieval occurred in 2.8% of patients."
    )
    a = _span("In this review we calculated the risk of bleeding and HIT to be 3.9% and 0.7%.")
    b = _span("Failed retrieval rates are reported with a calculated rate of 2.8%.", chunk="c2")
    off = _span("Patient compliance is poor but may be improved.", chunk="c3")
    other = _span("Bleeding occurred in patients.", paper="p2")
    found = joint_span(claim, [a, off, b, other])
    assert found is not None
    joint, sentences = found
    assert {s.text for s in sentences} == {a.text, b.text}
    assert a.text in joint.text and b.text in joint.text
    assert off.text not in joint.text and other.text not in joint.text  # one paper only
    assert joint.relevance == pytest.approx(relevance(claim, f"{a.text} {b.text}"), abs=1e-3)
    assert joint.relevance > max(relevance(claim, a.text), relevance(claim, b.text))
    # A single sentence that states the claim is no joint span.
    assert joint_span(claim, [a]) is None


CLAIM = (
    "Datta and colleagues report that the risk of bleeding with heparins was 3.9%, while failed "
    "retrieval of inferior vena cava filters in trauma patients occurred at a calculated rate "
    "of 2.8% [1]."
)
REFERENCES = (
    "\n\n## References\n\n1. Datta I, Ball CG, Rudmik L, Hameed SM, Kortbeek JB. Complications "
    "related to deep venous thrombosis prophylaxis in trauma: a systematic review of the "
    "literature. J Trauma Manag Outcomes. 2010;4:1.\n"
)


def _status(corpus: Path, settings_verify: VerifySettings, draft: str) -> tuple[str, list[str]]:
    base = sv.load_settings(corpus=corpus)
    settings = base.model_copy(update={"verify": settings_verify})
    with sv.open_store(corpus, read_only=True) as store:
        result = verify(draft, store=store, settings=settings, source="draft.md")
    cards = [c for p in result.paragraphs for c in p.cards if c.layer == "fact"]
    assert len(cards) == 1
    return cards[0].status, [e.snippet for e in cards[0].evidence]


def test_a_claim_joined_from_two_places_of_a_paper_is_supported(small_corpus: Path) -> None:
    # The paper gives bleeding risks in one place and the 2.8% of failed filter retrievals in
    # another; the card shows each sentence.
    status, evidence = _status(small_corpus, VerifySettings(), CLAIM + REFERENCES)
    assert status == Status.supported
    assert len(evidence) >= 2
    assert any("2.8%" in e for e in evidence) and any("bleeding" in e for e in evidence)
    assert any("3.9%" in e for e in evidence)  # each figure is shown where the paper gives it
    # Without the part-by-part reading, the sentence that gives the 2.8% is still the claim's
    # related sentence (it states a precise figure of the claim), and the paper's sentence
    # that gives the 3.9% fills its gap: the same verdict, by the other way.
    off, shown = _status(
        small_corpus, with_overrides(VerifySettings(), {"parts": False}), CLAIM + REFERENCES
    )
    assert off == Status.supported
    assert any("2.8%" in e for e in shown) and any("3.9%" in e for e in shown)


@pytest.mark.parametrize(
    ("old", "new"),
    [("2.8%", "12.8%"), ("occurred at a calculated rate of 2.8%", "never occurred")],
    ids=["changed number", "negated"],
)
def test_an_error_in_one_part_is_not_supported(small_corpus: Path, old: str, new: str) -> None:
    status, _ = _status(small_corpus, VerifySettings(), CLAIM.replace(old, new) + REFERENCES)
    assert status != Status.supported


def test_a_name_only_the_papers_title_gives_is_no_gap() -> None:
    from sciverify.entail.decide import decide
    from sciverify.records import EntailProbs
    from sciverify.verify.parts import _named_in_title

    claim = "The authors rate the potential for AI support as high for the first screen."
    joined = "High potential for semi-automated support in the first screen."
    d = decide(claim, [(joined, EntailProbs(0.9, 0.05, 0.05), 0.8)])
    assert d.status == Status.partially_supported  # "AI" is not in the sentence
    titled = Span(
        joined,
        "p1",
        "c1",
        "Artificial intelligence and the conduct of literature reviews",
        3,
        None,
        "result",
        True,
        0.8,
    )
    assert _named_in_title(d, claim, titled)
    other = Span(
        joined, "p1", "c1", "Screening in systematic reviews", 3, None, "result", True, 0.8
    )
    assert not _named_in_title(d, claim, other)


def test_a_sentence_of_a_cited_paper_entails_from_the_joint_share() -> None:
    # Claim from a labelled draft, sentence from the cited PDF (Apparent and average
    # accelerations of the Universe, p. 5).
    claim = (
        "To test this, they calculate qvol in a set of Lemaître–Tolman models, the spherically "
        "symmetric, pressure-free and irrotational solutions of the Einstein equations."
    )
    sentence = (
        "The Lemaître–Tolman model6 [30] is a spherically symmetric, pressure free and "
        "irrotational solution of the Einstein equations."
    )
    cfg = VerifySettings()
    rel = relevance(claim, sentence)
    assert cfg.joint_min <= rel < cfg.lexical_entail_min
    undecided = EntailProbs(0.2, 0.7, 0.1)  # the model reads the paraphrase as neutral
    cited = span_probs(undecided, rel, cfg, 0.5, cited=True)
    found = span_probs(undecided, rel, cfg, 0.5, cited=False)
    assert cited.entailment >= cfg.thresholds.entail_min > found.entailment
    # As one sentence, so across several: `joint_min` is the share a cited paper must state.
    assert span_probs(undecided, cfg.joint_min - 0.01, cfg, 0.5, cited=True).entailment < (
        cfg.thresholds.entail_min
    )


def test_a_cited_sentence_the_model_reads_as_entailing_entails_however_few_words_it_shares() -> (
    None
):
    # Claim from a labelled draft; sentence from the cited PDF (A Survey on GANs for Anomaly
    # Detection, p. 5). A close paraphrase shares too few words to pass on its own.
    claim = (
        "The authors caution that the reported numbers are the best obtained across many "
        "configurations and need not come from the network setups that are correct in theory."
    )
    sentence = (
        "The results shown in the following sections are the best empirically obtained among "
        "all the tests carried out and do not necessarily derive from the configurations of "
        "the networks that at a theoretical level should be the correct ones."
    )
    cfg = VerifySettings()
    rel = relevance(claim, sentence)
    assert rel < cfg.thresholds.min_relevance
    sure = EntailProbs(0.91, 0.05, 0.04)
    assert span_probs(sure, rel, cfg, 0.5, cited=True).entailment >= 0.91
    # In a paper the claim does not cite, a sentence must share the claim's words too.
    assert span_probs(sure, rel, cfg, 0.5, cited=False).entailment < cfg.thresholds.entail_min
    # A less certain model does not decide alone.
    unsure = EntailProbs(cfg.model_entail_alone - 0.05, 0.1, 0.05)
    assert span_probs(unsure, rel, cfg, 0.5, cited=True).entailment < cfg.thresholds.entail_min
    # Nor when the model is switched off.
    assert span_probs(sure, rel, cfg, 0.0, cited=True).entailment < cfg.thresholds.entail_min


def test_relevance_reads_thousands_a_paper_writes_with_a_space() -> None:
    # Disk-Based Storage for Scalable Video, p. 5.
    claim = (
        "With the same number of users admitted to both schemes, CTL delivers more throughput "
        "at 18 users (23,200 against 21,700 Kb/s)."
    )
    spaced = (
        "By admitting 18 users to both systems, CTL has a throughput of 23 200 Kb/s, and "
        "hybrid has a throughput of 21 700 Kb/s."
    )
    closed = spaced.replace("23 200", "23200").replace("21 700", "21700")
    other = spaced.replace("23 200", "33 200").replace("21 700", "31 700")
    assert relevance(claim, spaced) == relevance(claim, closed) > relevance(claim, other)


def test_relevance_reads_hyphenated_words_and_ignores_framing_words() -> None:
    # Claim from a labelled draft; sentence from the cited PDF (Artificial intelligence and the
    # conduct of literature reviews, p. 6).
    sentence = (
        "While focusing on risk of bias assessment of randomized controlled trials in the life "
        "sciences, Robot-Reviewer is an excellent exemplar for explainable AI, allowing "
        "researchers to interactively trace ratings in each domain of bias to its origin in the "
        "full-text document."
    )
    claim = (
        "They nonetheless present RobotReviewer, built for risk-of-bias assessment of randomised "
        "trials, as an excellent exemplar of explainable AI, since it lets researchers trace each "
        "rating back to its origin in the full text."
    )
    assert relevance(claim, sentence) >= VerifySettings().joint_min
    # "risk-of-bias" is found in "risk of bias", "RobotReviewer" in "Robot-Reviewer"; a word
    # that is not there stays missing, and a prefix or a number is no word of its own.
    assert relevance("risk-of-bias of RobotReviewer", sentence) == 1.0
    assert relevance("risk-of-harm of RobotReviewer", sentence) < 1.0
    assert relevance("pro-inflammatory cytokines", "the pro cytokines are inflammatory") < 1.0
    assert relevance("IL-6 levels", "IL levels rose 6-fold") < 1.0
    # "the authors therefore argue" frames the claim: no sentence has to say it.
    assert relevance(
        "The authors therefore argue that explainable AI traces ratings.", sentence
    ) == (relevance("Explainable AI traces ratings.", sentence))


def test_an_invented_statistic_in_a_joined_claim_is_partial(small_corpus: Path) -> None:
    # The joined sentences state the claim but for a p-value the paper never gives: the model
    # reads so long a premise as neither entailing nor contradicting it, which is no objection.
    invented = CLAIM.replace("was 3.9%", "was 3.9% (p < 0.01)")
    status, _ = _status(small_corpus, VerifySettings(), invented + REFERENCES)
    assert status == Status.partially_supported


def test_a_gap_in_a_joined_sentence_hardly_about_the_claim_is_no_gap() -> None:
    from sciverify.entail.decide import decide
    from sciverify.verify.parts import _gaps_in_own_sentence

    # An Improved Multi-Output Gaussian Process RNN ... for Early Sepsis Detection, pp. 5, 7.
    claim = "Posterior draws are sped up with the Lanczos method."
    lanczos = _span(
        "We use the Lanczos method to speed computation associated with drawing samples of zi, "
        "as this involves drawing from a potentially very large multivariate normal."
    )
    septic = _span(
        "For septic patients we retain data up until 6 hours after sepsis was acquired.",
        chunk="c2",
    )
    th = VerifySettings().thresholds
    joined = f"{lanczos.text} {septic.text}"
    d = decide(claim, [(joined, EntailProbs(0.9, 0.05, 0.05), 0.8)], thresholds=th)
    assert d.status == Status.partially_supported  # "For septic patients", read as dropped
    assert _gaps_in_own_sentence(claim, d, [lanczos, septic], th).status == Status.supported
    # A condition in a sentence that states much of the claim stands (Trace-based
    # Just-in-Time Type Specialization for Dynamic Languages, pp. 10, 13).
    claim = "TraceMonkey runs JavaScript programs 2x to 20x faster than SpiderMonkey."
    driver = _span(
        "We ran the SunSpider test driver, which starts a JavaScript interpreter, loads and runs "
        "each program 10 times and reports the average time of SpiderMonkey and TraceMonkey."
    )
    amenable = _span(
        "Our experiments also show that on programs amenable to tracing, we achieve speedups "
        "of 2x to 20x.",
        chunk="c2",
    )
    joined = f"{driver.text} {amenable.text}"
    d = decide(claim, [(joined, EntailProbs(0.9, 0.05, 0.05), 0.8)], thresholds=th)
    assert d.status == Status.partially_supported
    kept = _gaps_in_own_sentence(claim, d, [driver, amenable], th)
    assert kept.status == Status.partially_supported
    assert any(f.evidence_text == "amenable to tracing" for f in kept.findings)
