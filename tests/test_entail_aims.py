"""Aims and open questions are not findings (sentences from SciFact abstracts)."""

from __future__ import annotations

import pytest

from sciverify.entail.aims import about_study, is_aim, only_aims
from sciverify.entail.checks import check_comparatives
from sciverify.entail.decide import decide
from sciverify.records import EntailProbs, Status

_ENTAILED = EntailProbs(entailment=0.9, neutral=0.05, contradiction=0.05)


@pytest.mark.parametrize(
    "sentence",
    [
        (
            "OBJECTIVE To assess whether population screening for impaired vision among older people "
            "in the community leads to improvements in vision."
        ),
        (
            "We investigated whether endoplasmic reticulum (ER) stress is necessary for lipid-induced "
            "apoptosis in beta cells."
        ),
        (
            "The purpose of this investigation was to determine whether maximal oxygen consumption "
            "differed between two selected groups of black and white children."
        ),
        (
            "It remains unclear whether iPSCs generated from different cell types are molecularly and "
            "functionally similar."
        ),
        # Noisy matrix decomposition via convex relaxation, p. 7: a set-up, not the result.
        (
            "We now turn to simulations for a low-rank matrix corrupted by a column-sparse matrix, "
            "in this case studying how the error scales with the matrix dimension d."
        ),
        "In this case we study how the error scales with the matrix dimension d.",
    ],
)
def test_aims_and_open_questions_are_recognised(sentence: str) -> None:
    assert is_aim(sentence) and only_aims(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We found that the transcription factor Myb was required for development of HSCs.",
        "To test this hypothesis we measured the response and found that it rose.",
        "Our study uncovers a noncanonical thermogenic mechanism.",
        "By studying how the error scales with d, we found that it decreases as d increases.",
        (
            "In this study, we investigated TFH permissivity to HIV-1. Using flow cytometry, higher "
            "percentages of infected cells were found."
        ),
    ],
)
def test_findings_are_not_aims(sentence: str) -> None:
    assert not only_aims(sentence)


def test_an_aim_backs_a_claim_about_the_study_but_not_a_finding() -> None:
    aim = (
        "OBJECTIVE To assess whether population screening for impaired vision among older people "
        "in the community leads to improvements in vision."
    )
    finding = "Screening older people for impaired vision leads to improved vision."
    got = decide(finding, [(aim, _ENTAILED, 1.0)])
    assert got.status == Status.partially_supported
    assert "not a finding" in got.reason
    study = (
        "The review assessed whether screening older people for impaired vision improves vision."
    )
    assert about_study(study) and not about_study(finding)
    assert "not a finding" not in decide(study, [(aim, _ENTAILED, 1.0)]).reason


def test_positive_and_negative_association_are_opposite_directions() -> None:
    ev = "Birth weight was positively associated with breast cancer risk in studies of birth records."
    for said in ("negatively", "inversely"):
        claim = f"Birth weight is {said} associated with breast cancer."
        assert [f.effect for f in check_comparatives(claim, ev)] == ["contradict"]
    assert check_comparatives("Birth weight is positively associated with breast cancer.", ev) == []


def test_a_finding_with_a_caveat_about_what_is_not_known_is_still_a_finding() -> None:
    # Split sex ratios, p. 12.
    sentence = (
        "For instance, the model predicts a proportional investment in gynes of 0.69 in S. "
        "invicta, which is substantially higher than the mean value of 0.607 provided by Vargo "
        "(1996), although the confidence interval on this mean is not known."
    )
    assert not is_aim(sentence)


def test_a_purpose_followed_by_the_method_is_not_an_aim_statement() -> None:
    sentence = (
        "To evaluate DegreeDistance seeds in distance threshold 2 from each other, FIDD and SIDD "
        "were run on the same networks."
    )
    assert not is_aim(sentence)
    # A claim about what the paper poses or proposes describes the study.
    assert about_study(
        "Dinu and Baroni pose the inverse of composition in distributional semantics."
    )


def test_a_claim_that_is_itself_an_aim_or_open_question_may_rest_on_one() -> None:
    for sentence in (
        "Our goal was to see if the pediatric population is vulnerable to this infection.",
        "Little is known about the risk factors for the clinical outcomes of COVID-19 in children.",
    ):
        assert about_study(sentence)
        assert decide(sentence, [(sentence, _ENTAILED, 1.0)]).status == Status.supported


def test_an_open_question_followed_by_a_finding_is_no_aim() -> None:
    # TraceMonkey (PLDI 2009), p. 12: the caveat comes first, the suspected cause after it.
    sentence = (
        "The reason is not clear, but all of these programs have nested loops with small "
        "bodies, so we suspect that the implementation has a relatively high cost for calling "
        "nested traces."
    )
    assert not is_aim(sentence)
    assert is_aim("The reason is not clear.")
