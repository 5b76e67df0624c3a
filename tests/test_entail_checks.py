"""Deterministic checks on real SciFact / HealthVer sentences, perturbed the way drafts go wrong."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest

from sciverify.entail.checks import (
    check_comparatives,
    check_conditions,
    check_entities,
    check_hedging,
    check_negation,
    check_numbers,
    check_restatement,
    run_checks,
)
from sciverify.entail.quantities import parse_quantities
from sciverify.records import Finding


@pytest.fixture(scope="module")
def scifact_docs(shared_corpora: Path) -> dict[int, list[str]]:
    docs = {}
    with gzip.open(shared_corpora / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            docs[int(d["doc_id"])] = [s.strip() for s in d["abstract"]]
    return docs


@pytest.fixture(scope="module")
def scifact_claims(shared_corpora: Path) -> list[dict]:
    path = shared_corpora / "scifact" / "claims_train.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _effects(findings: list[Finding], check: str) -> list[str]:
    return [f.effect for f in findings if f.check == check]


def _spans_ok(findings: list[Finding], claim: str, evidence: str) -> None:
    for f in findings:
        if f.claim_span:
            assert claim[f.claim_span[0] : f.claim_span[1]] == f.claim_text != ""
        if f.evidence_span:
            assert evidence[f.evidence_span[0] : f.evidence_span[1]] == f.evidence_text != ""


# SciFact corpus sentences used below (doc id, sentence index), checked verbatim first.
SRS = (3944632, 6)  # "The 12-month brain tumor recurrence rate was 46.8% ... (P<.001)."
WBRT = (3944632, 10)  # "... the use of WBRT plus SRS did not improve survival ..."
CARNITINE = (14803797, 1)  # "... accelerates atherosclerosis in mice."
STATIN = (
    4687948,
    10,
)  # "... associated with a 71% reduction in risk (adjusted OR, 0.29; 95% CI...)"
PRISON = (13900610, 8)  # "Self-harm rates were more than ten times higher in female prisoners..."
PPM1D = (5956380, 5)  # "... attenuated p53 activation in vitro."
HPYLORI = (2052720, 7)  # "H pylori infection may be an important cause of gastric cancer; ..."
CIN = (9764256, 13)  # "... more cases of CIN grade 2 or worse ... intervention group than ..."
ART_TB = (4883040, 10)  # "... a reduction in the incidence of tuberculosis across all ..."
CDCA_BAT = (1568684, 3)  # "... with CDCA for 2 days resulted in increased BAT activity."
FSH = (13497630, 8)  # "... (63%; 95% CI, 50%-73%) ... (62%; 95% CI, 57%-66%) ..."
SF12 = (44048701, 12)  # "... 1.77 points higher [95% CI, -0.84 to 4.39 points];"
NEVIRAPINE = (15319019, 13)  # "N348I also decreased susceptibility to nevirapine (7.4fold) ..."


def test_the_real_sentences_are_what_the_tests_expect(scifact_docs: dict[int, list[str]]) -> None:
    assert "46.8% in the WBRT + SRS group" in scifact_docs[SRS[0]][SRS[1]]
    assert "did not improve survival" in scifact_docs[WBRT[0]][WBRT[1]]
    assert scifact_docs[CARNITINE[0]][CARNITINE[1]].endswith("atherosclerosis in mice.")
    assert "71% reduction in risk" in scifact_docs[STATIN[0]][STATIN[1]]
    assert "higher in female prisoners than in male inmates" in scifact_docs[PRISON[0]][PRISON[1]]
    assert "p53 activation in vitro" in scifact_docs[PPM1D[0]][PPM1D[1]]
    assert "may be an important cause" in scifact_docs[HPYLORI[0]][HPYLORI[1]]
    assert "intervention group than in the control group" in scifact_docs[CIN[0]][CIN[1]]
    assert "efavirenz (2.5-fold)" in scifact_docs[NEVIRAPINE[0]][NEVIRAPINE[1]]


def test_quantities_parse_units_percentages_ranges_and_statistics() -> None:
    text = (
        "Mortality fell by 12.5% (95% CI 1.2-3.4, p < 0.05; n = 45) at 37 °C with 10-20 mg, "
        "a 3-fold rise, 1.2 × 10^5 cells, 12.5 percent and 5 percentage points; IL-6, "
        "COVID-19 and 4-PBA are names, not numbers; see Table 2."
    )
    got = [(q.kind, q.value, q.high, q.unit, q.comparator) for q in parse_quantities(text)]
    assert got == [
        ("value", 12.5, None, "%", "="),
        ("ci", 1.2, 3.4, "", "="),
        ("p", 0.05, None, "", "<"),
        ("n", 45.0, None, "", "="),
        ("value", 37.0, None, "°C", "="),
        ("value", 10.0, 20.0, "mg", "="),
        ("value", 3.0, None, "fold", "="),
        ("value", 120000.0, None, "cell", "="),
        ("value", 12.5, None, "%", "="),
        ("value", 5.0, None, "pp", "="),
    ]
    assert parse_quantities(text)[0].direction == -1  # "fell by"


def test_numbers_changed_value_and_p_value(scifact_docs: dict[int, list[str]]) -> None:
    ev = scifact_docs[SRS[0]][SRS[1]]
    faithful = (
        "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group (P<.001)."
    )
    assert set(_effects(check_numbers(faithful, ev), "number")) == {"ok"}
    changed = faithful.replace("46.8%", "56.8%")
    found = check_numbers(changed, ev)
    by_text = {f.claim_text: f for f in found}
    assert by_text["12-month"].effect == "ok"
    assert by_text["56.8%"].effect == "contradict" and by_text["56.8%"].evidence_text == "46.8%"
    not_significant = faithful.replace("P<.001", "P = 0.4")
    p_finding = next(f for f in check_numbers(not_significant, ev) if "P" in f.claim_text)
    assert p_finding.effect == "contradict" and p_finding.evidence_text == "P<.001"
    _spans_ok(found, changed, ev)


def test_numbers_direction_ci_absent_and_fold(scifact_docs: dict[int, list[str]]) -> None:
    ev = scifact_docs[STATIN[0]][STATIN[1]]
    up = "Current statin use was associated with a 71% increase in risk."
    assert "contradict" in _effects(check_numbers(up, ev), "number")
    ci = "Current statin use was associated with a 71% reduction in risk (95% CI, 0.20-0.91)."
    assert _effects(check_numbers(ci, ev), "number") == ["ok", "contradict"]
    invented = "Current statin use was associated with a 71% reduction in risk in 512 patients."
    assert _effects(check_numbers(invented, ev), "number") == ["ok", "partial"]
    nev = scifact_docs[NEVIRAPINE[0]][NEVIRAPINE[1]]
    assert _effects(
        check_numbers("N348I decreased susceptibility to efavirenz 2.5-fold.", nev), "number"
    ) == ["ok"]
    assert _effects(
        check_numbers("N348I decreased susceptibility to efavirenz 4.5-fold.", nev), "number"
    ) == ["contradict"]


def test_percent_versus_percentage_points() -> None:
    ev = "The response rate rose by 5 percentage points in the treated arm."
    found = check_numbers("The response rate rose by 5% in the treated arm.", ev)
    assert [f.effect for f in found] == ["partial"]
    assert "percentage points" in found[0].message


def test_a_value_the_claims_other_number_states_is_not_another_unit_for_this_one() -> None:
    # Alam et al. 2009 (lupeol from Kupchan fractions): the 12% is the solvent's, stated in the
    # claim too; the claim's 12 mg has no match, and is not "12% in another unit".
    ev = (
        "Rechromatography of the fraction eluted with 12% ethyl acetate in n-hexane afforded "
        "compound 1 (8 mg)."
    )
    claim = "Rechromatography of the one eluted with 12% ethyl acetate gave 12 mg of lupeol."
    found = {f.claim_text: (f.effect, f.evidence_text) for f in check_numbers(claim, ev)}
    assert found == {"12%": ("ok", "12%"), "12 mg": ("partial", "")}
    # When the evidence gives 12% twice, one is left over for the claim's 12 mg.
    twice = "The dose was 12% of the maximum, given with 12% ethyl acetate."
    found = {f.claim_text: f.evidence_text for f in check_numbers(claim, twice)}
    assert found["12 mg"] == "12%"


def test_an_absolute_change_in_percent_is_a_change_in_points() -> None:
    # SemEAGAT (J. Phys.: Conf. Ser. 2188, 2022), p. 9: an ablation's drop in F1.
    ev = (
        "Compared to SemEAGAT, -EA drops by an absolute margin of 2.3% on F1, which "
        "demonstrates the rich semantic information on the semantic dependency edges"
    )
    for claim in (
        "Removing the edge-aware attention cost 2.3 points of F1.",
        "Removing the edge-aware attention cost 2.3 percentage points of F1.",
    ):
        assert [f.effect for f in check_numbers(claim, ev)] == ["ok"], claim
    # Without "absolute" a change in percent may be relative: points are not shown by it.
    relative = ev.replace("an absolute margin of ", "")
    found = check_numbers("Removing the edge-aware attention cost 2.3 percentage points.", relative)
    assert [f.effect for f in found] == ["partial"]
    # Read the other way round too: the claim calls its percentage absolute.
    found = check_numbers(
        "Removing the edge-aware attention cost 2.3% absolute on F1.",
        "Without the edge-aware attention F1 drops by 2.3 points.",
    )
    assert [f.effect for f in found] == ["ok"]


def test_negation_flip_in_both_directions(scifact_docs: dict[int, list[str]]) -> None:
    ev = scifact_docs[WBRT[0]][WBRT[1]]
    claim = "The use of WBRT plus SRS improved survival for patients with 1 to 4 brain metastases."
    found = check_negation(claim, ev)
    assert [f.effect for f in found] == ["contradict"]
    assert found[0].evidence_text.startswith("not improve survival")
    _spans_ok(found, claim, ev)
    restated = "Compared with SRS alone, WBRT plus SRS did not improve survival for patients."
    assert check_negation(restated, ev) == []
    carn = scifact_docs[CARNITINE[0]][CARNITINE[1]]
    negated = "Dietary L-carnitine does not accelerate atherosclerosis in mice."
    assert [f.effect for f in check_negation(negated, carn)] == ["contradict"]


def test_entities_species_gene_and_group_swaps(scifact_docs: dict[int, list[str]]) -> None:
    carn = scifact_docs[CARNITINE[0]][CARNITINE[1]]
    found = check_entities("Dietary L-carnitine accelerates atherosclerosis in rats.", carn)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found if f.check == "entity"][
        -1
    ] == ("contradict", "rats", "mice")
    ppm = scifact_docs[PPM1D[0]][PPM1D[1]]
    swapped = check_entities("PPM1D mutations attenuated p21 activation in vitro.", ppm)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in swapped] == [
        ("contradict", "p21", "p53")
    ]
    missing = check_entities("PPM1D and BRCA2 mutations attenuated p53 activation.", ppm)
    assert [(f.effect, f.claim_text) for f in missing] == [("partial", "BRCA2")]
    cin = scifact_docs[CIN[0]][CIN[1]]
    group = check_entities("More cases of CIN grade 2 were detected in the sham group.", cin)
    assert ("contradict", "sham group") in [(f.effect, f.claim_text) for f in group]


def test_acronym_spelled_out_is_not_missing() -> None:
    assert (
        check_entities("BMI was higher in group A.", "Body mass index was higher in group A.") == []
    )


def test_identifier_spellings_that_name_the_same_thing_are_not_missing() -> None:
    # Sentences from SciFact abstracts: an acronym with a number spelled out, a Greek letter
    # written as its Latin initial, a general acronym named in a specific form.
    srebp = (
        "suppressing the hepatic expression of the transcription factor sterol regulatory "
        "element-binding protein-2, thereby leading to reduced cholesterol synthesis"
    )
    assert check_entities("FGF21 lowers SREBP2 levels.", srebp + " by FGF21") == []
    pkc = "PKCζ is a critical metabolic tumor suppressor in mouse and human cancer."
    assert check_entities("PKCz is a tumour suppressor.", pkc) == []
    granules = "GRSF1 forms granules that colocalize with foci of newly synthesized mtRNA."
    assert check_entities("GRSF1 forms RNA granules.", granules) == []
    # Each loosening keeps its limits: another number, or a specific form in the claim only.
    assert [
        f.claim_text for f in check_entities("FGF21 lowers SREBP1 levels.", srebp + " by FGF21")
    ] == ["SREBP1"]
    assert [f.claim_text for f in check_entities("cAMP rises.", "AMP rises.")] == ["cAMP"]


def test_a_citation_number_glued_to_a_name_does_not_hide_it() -> None:
    # Wellawatte et al. 2023, p. 13: the superscript citation 106 ends up glued to "SELFIES".
    ev = (
        "This method populates a local chemical space through random string mutations of "
        "SELFIES106 molecular representations using the STONED algorithm."
    )
    assert check_entities("It mutates SELFIES strings with the STONED algorithm.", ev) == []
    swapped = "It mutates SMILES strings with the STONED algorithm."
    assert [f.claim_text for f in check_entities(swapped, ev)] == ["SMILES"]


def test_a_finding_reported_in_vitro_and_in_vivo_is_not_narrowed_by_either() -> None:
    ev = (
        "The SCNT-hES-1 cells were capable of differentiating into embryoid bodies in vitro and "
        "of forming teratomas in vivo containing cell derivatives from all three embryonic germ "
        "layers."
    )
    claim = "SCNT-hES-1 cells give rise to derivatives of all three embryonic germ layers."
    assert check_conditions(claim, ev) == []
    only_vitro = ev.replace(" and of forming teratomas in vivo", "")
    assert [f.evidence_text for f in check_conditions(claim, only_vitro)] == ["in vitro"]


def test_faithful_paraphrases_of_real_sentences_raise_no_conflict() -> None:
    # Sentences from three PDFs of the shared corpora, each restated faithfully.
    referral = (
        "In this survey, however, 64% of the 95 respondents to that question indicated that they "
        "are self-referrals to the KCH Medical Department (Figure 1). This observation may "
        "indicate poor functioning of the healthcare referral system or the lack of patients' "
        "trust in the first and secondary levels of care."
    )
    claim = (
        "Some 64% of the 95 patients who answered the question were self-referrals, which may "
        "reflect a poorly functioning referral system or a lack of trust in the first and "
        "secondary levels of care."
    )
    found = run_checks(claim, referral)
    assert [f for f in found if f.effect in ("contradict", "partial")] == []
    open_ie = (
        "This paper introduces Open IE (OIE), a new extraction paradigm where the system makes a "
        "single data-driven pass over its corpus and extracts a large set of relational tuples "
        "without requiring any human input."
    )
    restated = (
        "Open IE makes a single data-driven pass over its corpus and extracts a large set of "
        "relational tuples without any human input."
    )
    assert [f for f in run_checks(restated, open_ie) if f.effect == "contradict"] == []
    flipped = restated.replace("without any", "with")
    assert "negation" in {f.check for f in run_checks(flipped, open_ie) if f.effect == "contradict"}
    dementia = (
        "we repeated the above analysis and excluded all incident dementia diseases within five "
        "years (n = 147), in a step-by-step way, one year at time."
    )
    ok = check_numbers(
        "Excluding the 147 dementia cases within five years did not matter.", dementia
    )
    assert [f.effect for f in ok] == ["ok"]
    off = check_numbers(
        "Excluding the 174 dementia cases within five years did not matter.", dementia
    )
    assert [f.effect for f in off] == ["partial"]


def test_a_verb_against_a_noun_of_change_and_a_changed_ratio() -> None:
    # Bigtable (OSDI 2006), pp. 7 and 10.
    scaling = (
        "For most benchmarks, there is a significant drop in per-server throughput when going "
        "from 1 to 50 tablet servers."
    )
    rose = "For most benchmarks per-server throughput rose when going from 1 to 50 tablet servers."
    found = [f for f in check_comparatives(rose, scaling) if f.effect == "contradict"]
    assert [(f.claim_text, f.evidence_text) for f in found] == [("rose", "drop")]
    assert check_comparatives(rose.replace("rose", "fell"), scaling) == []
    compression = (
        "The scheme achieved a 10-to-1 reduction in space. This is much better than typical "
        "Gzip reductions of 3-to-1 or 4-to-1 on HTML pages."
    )
    claim = "The scheme achieved a 7-to-1 reduction in space, against 3-to-1 or 4-to-1 for Gzip."
    effects = [(f.claim_text, f.effect) for f in check_numbers(claim, compression)]
    assert effects == [("7-to-1", "contradict"), ("3-to-1", "ok"), ("4-to-1", "ok")]


def test_a_number_moved_within_a_restated_sentence_is_a_contradiction() -> None:
    # SciFact doc 3944632, sentence 6: 76.4% belongs to the other group.
    srs = (
        "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group and 76.4% "
        "for SRS alone group (P<.001)."
    )
    moved = srs.replace("46.8%", "76.4%")
    found = [f for f in run_checks(moved, srs) if f.effect == "contradict"]
    assert [(f.check, f.claim_text, f.evidence_text) for f in found] == [("number", "76.4", "46.8")]
    assert [f for f in run_checks(srs, srs) if f.effect == "contradict"] == []
    # A number left out, or a paraphrase around the same numbers, is no swap.
    shorter = "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group."
    assert [f for f in run_checks(shorter, srs) if f.effect == "contradict"] == []


def test_an_ion_is_named_by_its_symbol_in_any_charge_notation_or_by_its_name() -> None:
    claim = "Mechanically induced Ca2+ waves spread between glial cells."
    # Glia 1998: the PDF's text layer prints the superscript "2+" as "21".
    assert check_entities(claim, "Mechanically induced Ca21 waves spread between cells.") == []
    assert check_entities(claim, "Mechanically induced calcium waves spread between cells.") == []
    other = check_entities(claim, "Mechanically induced sodium waves spread between cells.")
    assert [f.claim_text for f in other] == ["Ca2+"]


def test_a_hedge_in_another_sentence_of_the_evidence_does_not_weaken_the_claims_sentence() -> None:
    # Glia 1998, p. 4, two sentences of one passage: only the first is hedged.
    ev = (
        "Intercellular waves may induce sustained oscillations that continue for as long as 5 min. "
        "These oscillations only rarely spread from cell to cell, even between adjacent cells."
    )
    plain = "These oscillations only rarely spread from cell to cell, even between adjacent cells."
    assert check_hedging(plain, ev) == []
    first = "Intercellular waves induce sustained oscillations that continue for as long as 5 min."
    assert [f.evidence_text for f in check_hedging(first, ev)] == ["may"]


def test_hedging_stronger_claim_is_partial(scifact_docs: dict[int, list[str]]) -> None:
    ev = scifact_docs[HPYLORI[0]][HPYLORI[1]]
    proves = "H pylori infection proves to be an important cause of gastric cancer."
    found = check_hedging(proves, ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("partial", "proves", "may")
    ]
    hedged = "H pylori infection may be an important cause of gastric cancer."
    assert check_hedging(hedged, ev) == []


def test_hedge_of_an_appended_inference_does_not_weaken_the_finding() -> None:
    # A SciFact abstract sentence: the finding is stated plainly, the inference after it hedged.
    ev = (
        "Muscle sympathetic nerve activity is increased during normotensive pregnancy while mean "
        "arterial pressure is maintained or reduced, suggesting baroreflex resetting."
    )
    finding = "Sympathetic nerve activity is increased during normal pregnancy."
    assert check_hedging(finding, ev) == []
    inference = "Pregnancy causes baroreflex resetting."
    assert [(f.effect, f.evidence_text) for f in check_hedging(inference, ev)] == [
        ("partial", "suggesting")
    ]


def test_a_method_that_measures_something_asserts_none_of_it() -> None:
    # Alam et al. 2009 (Phoenix paludosa), p. 2: how the activity was measured.
    ev = (
        "The antimicrobial activity of the Kupchan fractions was determined by the disc "
        "diffusion method9 against thirteen bacteria (Bacillus cereus, B. megaterium, B. "
        "subtilis, Staphylococcus aureus)."
    )
    claim = "None of the fractions showed any activity against the test microbes."
    assert check_negation(claim, ev) == []
    found = ev.replace("was determined by the disc diffusion method9", "was strong")
    assert [f.effect for f in check_negation(claim, found)] == ["contradict"]


def test_not_requiring_something_denies_depending_on_it() -> None:
    # Charles 1997 (Intercellular calcium waves in glia), p. 6.
    ev = (
        "By contrast, we and others have reported that mechanically stimulated waves, "
        "spontaneous glial intercellular waves in mixed glial-neuronal cultures, and "
        "low-Ca2+-induced intercellular waves do not require extracellular Ca2+."
    )
    claim = "Mechanically induced Ca2+ waves in mixed glial cultures depend on extracellular Ca2+."
    assert [(f.effect, f.evidence_text) for f in check_negation(claim, ev)] == [
        ("contradict", "not require extracellular Ca2+")
    ]
    # Independence is what the evidence says, in other words.
    assert check_negation(claim.replace("depend on", "are independent of"), ev) == []
    assert check_negation(claim.replace("depend on", "do not need"), ev) == []


def test_what_authors_believe_is_no_demonstration() -> None:
    # Frazier et al. 2015 (shark longevity), p. 5.
    ev = (
        "Therefore, we believe that we did not sample older females and suggest that the "
        "longevity estimates we observed for each species be applied to males and females."
    )
    claim = "The authors demonstrate that older females were missing from their sample."
    assert [(f.claim_text, f.evidence_text) for f in check_hedging(claim, ev)] == [
        ("demonstrate", "believe")
    ]
    assert check_hedging(claim.replace("demonstrate", "believe"), ev) == []


def test_what_a_signal_points_to_is_as_cautious_as_what_it_suggests() -> None:
    # Phoenix paludosa phytochemistry, p. 3: the triplet "suggested" the alpha position.
    ev = (
        "The absence of a double doublet and the appearance of a triplet suggested that the "
        "hydroxy group was at the \u03b1 (alpha)-position."
    )
    claim = (
        "Epilupeol was recognized by a one-proton triplet at \u03b4 3.37 that pointed to an "
        "\u03b1-oriented hydroxy group."
    )
    assert check_hedging(claim, ev) == []
    # Stated as a plain fact, the claim is stronger than the evidence.
    plain = claim.replace("that pointed to", "which proves the presence of")
    assert [f.evidence_text for f in check_hedging(plain, ev)] == ["suggested"]
    # A point of its own is no cue: "at this point" leaves the claim's "shows" its strongest.
    at_point = (
        "At this point the triplet at \u03b4 3.37 shows the hydroxy group at the \u03b1-position."
    )
    assert [f.evidence_text for f in check_hedging(at_point, ev)] == ["suggested"]


def test_what_is_possible_is_no_finding_shown() -> None:
    # Bolejko & Andersson, apparent and average accelerations of the Universe, p. 10.
    ev = (
        "It is possible that the volume deceleration parameter qvol becomes negative only after "
        "averaging over scales which are larger than 100 Mpc."
    )
    claim = (
        "They show that qvol turns negative only once the averaging extends over scales larger "
        "than 100 Mpc."
    )
    assert [(f.claim_text, f.evidence_text) for f in check_hedging(claim, ev)] == [
        ("show", "possible that")
    ]
    assert check_hedging(claim.replace("They show that", "It is possible that"), ev) == []
    # What can be done is no possibility of a finding.
    can = ev.replace("It is possible that the", "It is possible to compute the").replace(
        "qvol becomes", "qvol, which becomes"
    )
    assert check_hedging(claim, can) == []


def test_appear_as_come_into_view_is_no_hedge() -> None:
    # Baldassarri et al. (dense dynamic random graphs), p. 1: edges that appear and disappear.
    ev = (
        "In particular, edges appear and disappear over time depending on the states of the two "
        "connected vertices, on how long they have been infected, and on the total density of "
        "susceptible and infected vertices."
    )
    claim = (
        "The authors show that edges switch on and off over time depending on the states of "
        "the two connected vertices and on how long they have been infected."
    )
    assert check_hedging(claim, ev) == []
    # "appear to" still hedges the same finding.
    seems = ev.replace("appear and disappear", "appear to switch")
    assert [f.evidence_text for f in check_hedging(claim, seems)] == ["appear"]


def test_a_hedge_in_a_clause_the_claim_does_not_restate_does_not_weaken_it() -> None:
    # Futoma et al. 2017, p. 7: the hedge-like word sits in a side clause about the labels.
    ev = (
        "The overall rate of sepsis in the dataset was 21.4%, with each encounter associated "
        "with a binary label of whether the patient acquired sepsis."
    )
    assert check_hedging("Sepsis occurred in 21.4% of encounters.", ev) == []
    # The same clause structure with the hedge on the restated clause still counts.
    hedged = "Higher doses may reduce mortality, and the effect was stronger in women."
    claim = "Higher doses reduced mortality, and the effect was stronger in women."
    assert [f.evidence_text for f in check_hedging(claim, hedged)] == ["may"]


@pytest.mark.parametrize(
    "evidence",
    [
        # EARS trial 2015, p. 1: "associated" describing a cost, not a correlation.
        (
            "Only six participants were recruited through community-based approaches, with an "
            "associated researcher time of 469 minutes to recruit one participant."
        ),
        # GAN anomaly detection survey, p. 3: "it should be noted" is a turn of phrase.
        "It should be noted that the minimization process is required for every input sample.",
    ],
)
def test_descriptive_associated_and_should_be_noted_are_no_hedges(evidence: str) -> None:
    claim = (
        "Community outreach cost 469 minutes of researcher time for each participant recruited."
        if "469" in evidence
        else "The minimization has to be repeated for every input sample."
    )
    assert check_hedging(claim, evidence) == []
    # "was associated with" still hedges a causal claim.
    assert check_hedging("Smoking causes cancer.", "Smoking was associated with cancer.") != []


def test_could_of_what_was_seen_or_done_is_no_hedge() -> None:
    # Did You Notice? Neuronal Processing of Multimodal Mobile Phone Feedback, p. 5.
    seen = (
        "Additionally, a significantly smaller P300 amplitude for the visual compared to any "
        "feedback containing haptic feedback could be observed."
    )
    claim = "Visual feedback evoked a smaller P300 amplitude than any feedback with haptics."
    assert check_hedging(claim, seen) == []
    # Combating Web Spam with TrustRank, p. 9: past ability, "we were able to use".
    done = "We found that we could use 748 of the sample sites to evaluate TrustRank."
    assert check_hedging("748 of the sample sites were used to evaluate TrustRank.", done) == []
    # A possibility stays a hedge.
    maybe = "Haptic feedback could evoke a smaller P300 amplitude than visual feedback."
    assert [f.evidence_text for f in check_hedging(claim, maybe)] == ["could"]
    # The explanation is what "could" hedges: a claim that states it overclaims, a claim of the
    # finding alone does not.
    explained = seen.replace("observed", "explained by attention")
    assert check_hedging("The smaller P300 amplitude is explained by attention.", explained) != []
    assert check_hedging(claim, explained) == []


def test_a_quality_and_its_adjective_are_one_target_of_a_direction() -> None:
    # Wellawatte et al. 2023, p. 16: "adding rings structures makes the molecule less soluble".
    ev = "Adding rings structures makes the molecule less soluble."
    found = check_comparatives("Adding ring structures increases solubility.", ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("contradict", "increases", "less")
    ]
    assert check_comparatives("Adding ring structures lowers solubility.", ev) == []


def test_the_clause_about_the_claims_subject_decides_a_direction() -> None:
    # Wellawatte et al. 2023, p. 16, the whole sentence: one clause raises solubility, the
    # other lowers it; the draft's claim moves the rings to the first.
    ev = (
        "Substructure importance from ECFP97 and MACCS138 descriptors indicate that adding "
        "heteroatoms increases solubility, while adding rings structures makes the molecule "
        "less soluble."
    )
    claim = "Descriptor explanations indicate that adding ring structures increases solubility."
    assert [(f.effect, f.evidence_text) for f in check_comparatives(claim, ev)] == [
        ("contradict", "less")
    ]
    # "it" is the solubility the claim's first clause raises.
    joined = (
        "Descriptor explanations indicate that adding heteroatoms increases solubility, and "
        "that adding ring structures increases it further."
    )
    assert [(f.effect, f.evidence_text) for f in check_comparatives(joined, ev)] == [
        ("contradict", "less")
    ]
    # Each clause as the paper has it.
    faithful = (
        "Descriptor explanations indicate that adding heteroatoms increases solubility, while "
        "adding ring structures lowers it."
    )
    assert check_comparatives(faithful, ev) == []
    assert check_comparatives(claim.replace("ring structures", "heteroatoms"), ev) == []


def test_maximise_against_minimise_is_a_reversed_direction() -> None:
    # Conditions for bacterial selection and extinction ... in cyclic antimicrobial treatments,
    # p. 17, against a labelled draft's claim.
    ev = (
        "Then, the strains that are selected under cyclic treatment are those that minimise the "
        "equilibrium time, thereby achieving a better compromise between bacterial growth and "
        "death."
    )
    claim = (
        "Under cyclic treatment, the strains that are eventually selected are those that "
        "maximise the equilibrium time needed to balance growth against killing."
    )
    found = check_comparatives(claim, ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("contradict", "maximise", "minimise")
    ]
    assert check_comparatives(claim.replace("maximise", "minimize"), ev) == []


def test_went_up_and_went_down_are_directions() -> None:
    # Noisy matrix decomposition via convex relaxation, p. 7, against a labelled draft's claim.
    ev = "In both cases, the error decreases as d increases, consistent with Corollary 2."
    claim = "The squared error went up as the matrix dimension d increased."
    found = check_comparatives(claim, ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("contradict", "went", "decreases")
    ]
    assert check_comparatives(claim.replace("went up", "went down"), ev) == []
    assert check_comparatives("The team went on to test it.", "The team tested it.") == []


def test_a_negation_conflicts_only_where_the_other_side_states_what_it_denies() -> None:
    # Out-of-equilibrium selection pressure enhances inference from protein sequence data,
    # p. 1: the paper uses its minimal model; it never says the effect is confined to it.
    ev = (
        "Using a minimal model, we show that fluctuating selection strength and the onset of "
        "new selection pressures improve coevolution-based inference of structural contacts."
    )
    assert check_negation("The effect is not confined to the minimal model.", ev) == []
    assert check_negation(
        "Fluctuating selection strength does not improve inference of structural contacts.", ev
    )
    # A denied difference denies the change the other side states (the LIMIT trial, p. 7).
    none = (
        "There were no statistically significant differences identified in dietary glycaemic "
        "load or dietary glycaemic index between women receiving Lifestyle Advice and women "
        "receiving Standard Care."
    )
    claim = "Lifestyle advice reduced dietary glycaemic index and glycaemic load."
    assert [f.effect for f in check_negation(claim, none)] == ["contradict"]


def test_a_negation_does_not_reach_into_the_condition_after_it() -> None:
    # Conditions for bacterial selection and extinction ... in cyclic antimicrobial treatments,
    # p. 16: "cannot be selected" is negated; the "if" clause is the condition it holds under.
    ev = (
        "Thus, mutant strains with reduced antimicrobial susceptibility, which are typically "
        "present in the population at very low initial frequencies, cannot be selected if "
        "competition with the ancestor (much more abundant initially) prevents the mutant from "
        "propagating beyond the first cycle."
    )
    claim = (
        "A mutant with reduced susceptibility that starts at a very low frequency can be removed "
        "in just one cycle if competition with the far more abundant ancestor keeps it from "
        "propagating."
    )
    assert check_negation(claim, ev) == []
    # What the negation does reach still conflicts.
    shorter = "Mutant strains are not selected over the ancestor if competition prevents it."
    assert check_negation("Mutant strains are selected over the ancestor.", shorter)


def test_a_hedged_clause_a_contrast_ends_does_not_weaken_the_clauses_after_it() -> None:
    # Intercellular Calcium Waves in Glia, p. 4: the claim restates the last two clauses,
    # which share "cell" and "wave" with the hedged first one.
    ev = (
        "These individual cell Ca2+ oscillations may occur as an intracellular waves, but they "
        "are only rarely spread from cell to cell, even in adjacent cells that have just "
        "communicated a wave."
    )
    claim = (
        "These single-cell oscillations only rarely spread from cell to cell, even between "
        "adjacent cells that have just communicated a wave."
    )
    assert check_hedging(claim, ev) == []
    assert check_hedging("Single-cell oscillations occur as intracellular waves.", ev) != []
    # S2ORC, p. 8: "by pretraining ..." is how the hedged main clause would come true.
    ev = (
        "S2ORC could potentially benefit task performance without additional annotation, for "
        "example, by pretraining language models on S2ORC citation contexts before fine-tuning "
        "to these tasks."
    )
    claim = (
        "Pretraining language models on S2ORC citation contexts reliably improves "
        "citation-intent classifiers without any additional annotation."
    )
    assert [f.evidence_text for f in check_hedging(claim, ev)] == ["could"]


def test_an_exception_the_claim_drops_is_partial() -> None:
    # Novelty Controlled Paraphrase Generation with Retrieval Augmented Conditional Prompt
    # Tuning, p. 5.
    ev = "As shown in Table 4, RAPT substantially outperforms the baselines on all metrics except BERT in general."
    claim = "RAPT substantially outperforms the prompt-tuning baselines on all metrics."
    assert [(f.effect, f.evidence_text) for f in check_conditions(claim, ev)] == [
        ("partial", "except BERT in general")
    ]
    assert check_conditions(claim.replace("all metrics", "all metrics but BERT"), ev) == []
    # Collaboration drives phase transitions towards cooperation in prisoner's dilemma, p. 4:
    # the claim states the change the exception names.
    ev = (
        "Therefore, except for change in critical value of parameters, qualitatively the phase "
        "diagram in Fig. 1(b) remains intact even for such a network."
    )
    claim = "On such networks the critical benefit changes, and the phase diagram keeps its shape."
    assert check_conditions(claim, ev) == []
    # "apart from" is also "besides" (Information Synthesis for Answer Validation, p. 7).
    ev = (
        "Based on the experience of last year's participation, apart from the RTE core system, "
        "we add two extra components, NE recognizer and question analyzer."
    )
    assert check_conditions("They added a NE recognizer and a question analyzer.", ev) == []


def test_a_restriction_the_claim_drops_is_partial() -> None:
    # Trace-based Just-in-Time Type Specialization for Dynamic Languages, p. 13.
    ev = (
        "TraceMonkey is faster than the SpiderMonkey interpreter: on programs amenable to "
        "tracing, we achieve speedups of 2x to 20x."
    )
    claim = (
        "TraceMonkey runs JavaScript programs 2x to 20x faster than the SpiderMonkey interpreter."
    )
    assert [(f.effect, f.evidence_text) for f in check_conditions(claim, ev)] == [
        ("partial", "amenable to tracing")
    ]
    kept = claim.replace("JavaScript programs", "programs amenable to tracing")
    assert check_conditions(kept, ev) == []


def test_what_was_not_suitable_restricts_nothing() -> None:
    # Conspecific recognition ... in newly weaned, socially plastic mammals, p. 3.
    ev = (
        "Adult seals were not suitable for this study due to the practical difficulties "
        "associated with their large size and aggressive behaviour."
    )
    claim = (
        "Robinson et al. worked with newly weaned pups because adults are impractical to work "
        "with given their large size and aggressive behavior."
    )
    assert check_conditions(claim, ev) == []
    suited = "Adult seals with a large size were suitable for tagging."
    dropped = check_conditions("Adult seals have a large size.", suited)
    assert [f.evidence_text for f in dropped] == ["suitable for tagging"]


def test_conditions_dropped_and_changed(scifact_docs: dict[int, list[str]]) -> None:
    ppm = scifact_docs[PPM1D[0]][PPM1D[1]]
    dropped = check_conditions("PPM1D mutations attenuated p53 activation.", ppm)
    assert [(f.effect, f.evidence_text) for f in dropped] == [("partial", "in vitro")]
    changed = check_conditions("PPM1D mutations attenuated p53 activation in vivo.", ppm)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in changed] == [
        ("contradict", "in vivo", "in vitro")
    ]
    carn = scifact_docs[CARNITINE[0]][CARNITINE[1]]
    general = check_conditions("Dietary L-carnitine accelerates atherosclerosis.", carn)
    assert [(f.effect, f.evidence_text) for f in general] == [("partial", "in mice")]


def test_comparatives_reversed_direction_and_swapped_sides(
    scifact_docs: dict[int, list[str]],
) -> None:
    prison = scifact_docs[PRISON[0]][PRISON[1]]
    lower = check_comparatives(
        "Self-harm rates were lower in female prisoners than in male inmates.", prison
    )
    assert [f.effect for f in lower] == ["contradict"]
    swapped = check_comparatives(
        "Self-harm rates were higher in male inmates than in female prisoners.", prison
    )
    assert [f.effect for f in swapped] == ["contradict"]
    same = "Self-harm rates were higher in female prisoners than in male inmates."
    assert check_comparatives(same, prison) == []
    cin = scifact_docs[CIN[0]][CIN[1]]
    assert (
        check_comparatives(
            "More cases of CIN grade 2 or worse were detected in the control "
            "group than in the intervention group.",
            cin,
        )
        != []
    )
    carn = scifact_docs[CARNITINE[0]][CARNITINE[1]]
    slows = "Metabolism of dietary L-carnitine by intestinal microbiota slows atherosclerosis."
    assert [f.effect for f in check_comparatives(slows, carn)] == ["contradict"]


def test_healthver_refuted_direction_flip(shared_corpora: Path) -> None:
    with (shared_corpora / "healthver" / "healthver_dev.csv").open(encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "3354")
    # The evidence says vitamin D may *reduce* severity; the refuted claim says it increases
    # mortality: a model question. Reversing a direction the evidence states is a check's.
    assert "reduce the severity of COVID-19" in row["evidence"]
    claim = "Vitamin D increases the severity of COVID-19."
    found = run_checks(claim, row["evidence"])
    assert any(f.check == "comparative" and f.effect == "contradict" for f in found)


def test_a_data_set_named_without_its_year_is_mentioned_and_another_year_is_a_swap() -> None:
    # A Survey on GANs for Anomaly Detection, p. 7: the table header names the data set "KDD".
    ev = (
        "KDD Precision Recall F1-Score BiGAN/EGBAD 0.941174 0.956155 0.948605 "
        "GANomaly 0.830256 0.841112 0.835648"
    )
    claim = "On the KDD99 intrusion data, BiGAN/EGBAD reached a precision of 0.941."
    assert check_entities(claim, ev) == []
    swapped = check_entities(claim, ev.replace("KDD ", "KDD04 "))
    assert [(f.effect, f.evidence_text) for f in swapped] == [("contradict", "KDD04")]
    other = check_entities(claim, ev.replace("KDD ", "NSL "))
    assert [(f.effect, f.claim_text) for f in other] == [("partial", "KDD99")]


def test_two_groups_named_alike_but_for_one_word_order_the_claims_comparison() -> None:
    # Stressful life events are not associated with the development of dementia, p. 5.
    ev = (
        "Participants who developed dementia reported a mean of 3.0 (SD = 2.6, range 0–18) "
        "life events, and participants without dementia reported a mean of 3.7 (SD = 3.3, "
        "range 0–30) life events (p < 0.001)."
    )
    claim = (
        "Participants who went on to develop dementia had reported more life events at "
        "baseline than those who stayed dementia-free (p < 0.001)."
    )
    reversed_ = check_comparatives(claim, ev)
    assert [(f.effect, f.claim_text) for f in reversed_] == [("contradict", "more")]
    assert "3.0 against 3.7" in reversed_[0].message  # the SDs are not taken for the groups
    assert [f.effect for f in check_comparatives(claim.replace("more", "fewer"), ev)] == ["support"]
    # Two groups that differ in more than the one word are not guessed at.
    vague = ev.replace("participants without dementia", "the others")
    assert check_comparatives(claim, vague) == []


def test_two_quantities_said_to_move_against_each_other_contradict_a_positive_relationship() -> (
    None
):
    # Split Sex Ratios in Perennial Social Hymenoptera, p. 12.
    ev = (
        "Across populations or species, our model predicts a positive relationship between "
        "female bias at equilibrium and female caste dimorphism (gynes vs. workers), but this "
        "prediction is harder to test because many other factors may concurrently influence "
        "population-wide sex allocation."
    )
    claim = (
        "Across populations or species, the model predicts that female bias at equilibrium "
        "should weaken as caste dimorphism between gynes and workers increases."
    )
    found = check_comparatives(claim, ev)
    assert [(f.effect, f.evidence_text) for f in found] == [
        (
            "contradict",
            "positive relationship between female bias at equilibrium and female caste dimorphism",
        )
    ]
    assert check_comparatives(claim.replace("weaken", "strengthen"), ev) == []
    # The other forms of the same statement, and a relationship between other quantities.
    negative = ev.replace("a positive relationship", "a negative relationship")
    assert check_comparatives(claim, negative) == []
    rising = "Female bias at equilibrium rises with increasing caste dimorphism."
    assert [f.effect for f in check_comparatives(rising, negative)] == ["contradict"]
    other = ev.replace("female caste dimorphism", "colony size")
    assert check_comparatives(claim, other) == []


def test_a_quantity_that_goes_up_as_another_increases_moves_with_it() -> None:
    # Noisy Matrix Decomposition via Convex Relaxation (Agarwal et al. 2011), p. 7.
    from sciverify.entail.checks import covariation_agreement, covariation_conflicts

    ev = "In both cases, the error decreases as d increases, consistent with Corollary 2."
    claim = (
        "When the low-rank matrix was corrupted by s = 3r non-zero columns, the squared error "
        "went up as the matrix dimension d increased."
    )
    assert covariation_agreement(claim, ev) == -1
    assert [f.evidence_text for f in covariation_conflicts(claim, ev)] == [
        "decreases as d increases"
    ]
    assert covariation_agreement(claim.replace("went up", "went down"), ev) == 1
    assert covariation_conflicts(claim.replace("went up", "went down"), ev) == []
    # Another quantity's trend, and a sentence that says no trend, say nothing either way.
    assert covariation_agreement(claim, ev.replace("the error", "the runtime")) == 0
    figure = "Figure 3 plots the squared Frobenius error versus the matrix dimension d."
    assert covariation_agreement(claim, figure) == 0
    # Read closely, "colony size" is not "the colony growth rate" (Roisin & Aron 2003, p. 2).
    size = (
        "A positive association between colony size and relative investment in gynes has been "
        "reported in several ant species."
    )
    gynes = "The equilibrium investment in gynes falls as the colony growth rate m rises."
    assert covariation_agreement(gynes, size) == -1
    assert covariation_agreement(gynes, size, close=True) == 0
    assert covariation_agreement(claim, ev, close=True) == -1


def test_software_named_in_plain_capitals_is_an_entity() -> None:
    # An Improved Multi-Output Gaussian Process RNN for Early Sepsis Detection, p. 5.
    ev = "We optimize the loss with stochastic gradient descent using ADAM (Kingma and Ba (2015))."
    claim = "They built their sepsis classifier in Keras, training it with the Adam optimizer."
    assert [(f.effect, f.claim_text) for f in check_entities(claim, ev)] == [("partial", "Keras")]
    assert check_entities(claim, ev.replace("We optimize", "In Keras we optimize")) == []
    # An ordinary capitalised word is no software name.
    assert check_entities("Adam trained the classifier.", ev) == []


def test_identity_pairs_have_no_contradiction(
    scifact_docs: dict[int, list[str]], scifact_claims: list[dict]
) -> None:
    sentences = sorted(
        {
            scifact_docs[int(doc)][i]
            for c in scifact_claims
            for doc, sets in c["evidence"].items()
            for s in sets
            for i in s["sentences"]
            if i < len(scifact_docs.get(int(doc), []))
        }
    )
    assert len(sentences) > 700
    bad = [s for s in sentences if any(f.effect == "contradict" for f in run_checks(s, s))]
    assert bad == []


def test_supported_scifact_claims_rarely_raise_a_contradiction(
    scifact_docs: dict[int, list[str]], scifact_claims: list[dict]
) -> None:
    """Real claims against the rationale that supports them: the checks must stay quiet.

    Measured: 7 of 616 SUPPORT pairs (1.1%) get any contradict finding, versus 37 of 341
    CONTRADICT pairs (10.9%).
    """
    support, contra = [], []
    for c in scifact_claims:
        for doc, sets in c["evidence"].items():
            sents = scifact_docs.get(int(doc), [])
            for s in sets:
                ev = " ".join(sents[i] for i in sorted(s["sentences"]) if i < len(sents))
                hit = any(f.effect == "contradict" for f in run_checks(c["claim"], ev))
                (support if s["label"] == "SUPPORT" else contra).append(hit)
    assert len(support) > 500 and len(contra) > 300
    support_rate, contra_rate = sum(support) / len(support), sum(contra) / len(contra)
    assert support_rate < 0.03
    assert contra_rate > 3 * support_rate


def test_restatements_of_real_sentences_stay_clean(scifact_docs: dict[int, list[str]]) -> None:
    pairs = [
        (
            SRS,
            (
                "The 12-month recurrence rate of brain tumors was 46.8% with WBRT + SRS and "
                "76.4% with SRS alone (P<.001)."
            ),
        ),
        (STATIN, "Current statin use was associated with a 71% reduction in risk."),
        (
            PRISON,
            (
                "Self-harm rates were more than ten times higher in female prisoners than in "
                "male inmates."
            ),
        ),
        (
            CIN,
            (
                "More cases of CIN grade 2 or worse were detected in the intervention group than "
                "in the control group (p=0·015)."
            ),
        ),
        (
            CARNITINE,
            (
                "Intestinal microbiota metabolism of dietary L-carnitine produces TMAO and "
                "accelerates atherosclerosis in mice."
            ),
        ),
    ]
    for (doc, i), claim in pairs:
        ev = scifact_docs[doc][i]
        found = run_checks(claim, ev)
        assert [f for f in found if f.effect == "contradict"] == [], claim
        _spans_ok(found, claim, ev)


def test_unrelated_evidence_gives_no_polarity_or_direction_finding(
    scifact_docs: dict[int, list[str]],
) -> None:
    claim = "Self-harm rates were lower in female prisoners than in male inmates."
    ev = scifact_docs[WBRT[0]][WBRT[1]]
    found = run_checks(claim, ev)
    assert {f.check for f in found if f.effect == "contradict"} == set()


# COVID-Fact evidence sentences (covidfact/RTE-covidfact), verbatim.
WEATHER = (
    "meteorological conditions and air pollution, as concurring factors, impact COVID-19 "
    "transmission, using data on new confirmed cases from 219 prefecture cities from January 24 "
    "to February 29, 2020."
)
MASKS = (
    "Both leaders expressed their gratitude for one another during the unloading of the 100,000 "
    "protective masks and 25,000 coveralls Pakistan donated for the Federal Emergency Management "
    "Agency in response to COVID-19."
)
STEAM = "The avian coronavirus was completely inactivated after being steamed for 5 minutes."


def test_a_number_replaced_in_its_slot_is_a_contradiction() -> None:
    cases = [
        (WEATHER, WEATHER.replace("February 29", "February 14"), "14"),
        (MASKS, "The aircraft brought 50,000 protective masks and 25,000 coveralls.", "50,000"),
        (STEAM, STEAM.replace("5 minutes", "5 hours"), "5 hours"),
    ]
    for ev, claim, said in cases:
        found = [f for f in check_numbers(claim, ev) if f.effect == "contradict"]
        assert len(found) == 1 and found[0].claim_text == said, claim
    # A statistic added beside the evidence's own numbers is missing, not contradicting.
    added = WEATHER.replace("2020.", "2020 (n = 412).")
    assert {f.effect for f in check_numbers(added, WEATHER)} == {"ok", "partial"}


def test_restatement_support_and_a_dropped_not(scifact_docs: dict[int, list[str]]) -> None:
    ev = scifact_docs[SRS[0]][SRS[1]]
    same = check_restatement(ev, ev)
    assert [(f.check, f.effect) for f in same] == [("restatement", "support")]
    reworded = ev.replace("tumor recurrence", "tumor relapse")
    assert [f.effect for f in check_restatement(reworded, ev)] == ["ok"]
    # A British spelling is the same word.
    british = ev.replace("tumor recurrence", "tumour recurrence")
    assert [f.effect for f in check_restatement(british, ev)] == ["support"]
    # A changed number is a restatement that contradicts; a name or a direction word makes it
    # no restatement at all.
    changed = check_restatement(ev.replace("46.8%", "56.8%"), ev)
    assert [(f.check, f.effect, f.claim_text) for f in changed] == [
        ("number", "contradict", "56.8")
    ]
    assert check_restatement(ev.replace("recurrence", "lower recurrence"), ev) == []
    negated = ev.replace("rate was", "rate was not")
    found = check_restatement(negated, ev)
    assert [(f.check, f.effect) for f in found] == [("negation", "contradict")]
    # Too short to call a restatement.
    assert check_restatement("Tumors recurred.", ev) == []


def test_a_number_inside_a_name_is_not_a_missing_measurement() -> None:
    # Real HealthVer and SciFact pairs: the evidence spells the name another way.
    covid = (
        "There are significant differences in the clinical and laboratory courses between "
        "COVID-19 and influenza."
    )
    assert _effects(check_numbers("Covid 19 is different from the flu", covid), "number") == ["ok"]
    t1d = (
        "Furthermore, we have associated IL2RA T1D susceptibility genotypes with lower circulating "
        "levels of the biomarker, soluble IL-2RA."
    )
    claim = "Type 1 Diabetes is associated with subtle perturbations in T reg development."
    assert _effects(check_numbers(claim, t1d), "number") == ["ok"]
    # Without the name in the evidence the number is still missing, and another number in the
    # same name is still a conflict; a measurement never passes as a name.
    other = "Vitamin D deficiency is associated with diabetes risk."
    assert _effects(check_numbers(claim, other), "number") == ["partial"]
    lower = claim.replace("Diabetes", "diabetes")
    assert _effects(check_numbers(lower, t1d), "number") == ["ok"]
    assert _effects(
        check_numbers(lower, "Type 2 diabetes is associated with obesity."), "number"
    ) == ["contradict"]
    assert _effects(check_numbers("Mortality fell in 19 patients.", covid), "number") == ["partial"]


def test_a_count_written_as_a_modifier_keeps_its_thousands() -> None:
    ev = "The spread of each seed set was averaged over a 10,000 iteration process."
    same = check_numbers("Spread was averaged over a 10,000-iteration process.", ev)
    assert [(f.claim_text, f.effect) for f in same] == [("10,000-iteration", "ok")]
    other = check_numbers("Spread was averaged over a 20,000-iteration process.", ev)
    assert [f.effect for f in other] == ["contradict"]
    # A name with a number in it is still no measurement.
    assert check_numbers("The 5-HT receptor was blocked.", ev) == []
    # Thousands written with an apostrophe or a thin space (real PDF text) are the same count.
    for sep in ("’", "\u2009"):
        written = f"The spread was averaged over a 10{sep}000-iteration process."
        assert [f.effect for f in check_numbers("A 10,000-iteration process.", written)] == ["ok"]
    assert [q.value for q in parse_quantities("a 10’000 iteration run")] == [10000.0]


def test_a_table_that_writes_thousands_with_a_plain_space_gives_the_claims_number() -> None:
    # Fragment-based design of N-domain-selective ACE inhibitors, p. 5 (a table row).
    row = "33RE Ki (nM) Fold selectivity Ki (C/N) 11.21 +−0.74 927 10 395 +−593 404.4 +−17.3 26"
    found = check_numbers("Its Ki for the C-domain was 10,395 nM.", row)
    assert [(f.claim_text, f.effect) for f in found] == [("10,395 nM", "ok")]
    assert [f.effect for f in check_numbers("Its Ki was 10395 nM.", row)] == ["ok"]
    # Only the claim's own number is closed up: "927 10" stays two numbers.
    assert [f.effect for f in check_numbers("It was 92,710-fold selective.", row)] != ["ok"]


# Real sentences of PDFs in the shared corpora, restated in other words.
OXYTOCIN = (
    "The plasma oxytocin concentrations detected in the weaned pups post-trial was not "
    "significantly different after stranger trials (13.2 SE±0.6 pg/ml) compared to those taken "
    "after familiar trials (11.8±0.6 pg/ml) (GAMM: t=1.9, R2=0.2, p= 0.06)."
)
SUPERNOVA = (
    "Thus, the ability of reproducing the supernova data does not require that the volume "
    "deceleration parameter is negative."
)


def test_a_negation_that_reaches_other_words_in_a_restatement_is_no_flip() -> None:
    oxytocin = (
        "Post-trial plasma oxytocin was 13.2 pg/ml after stranger trials and 11.8 pg/ml "
        "after familiar trials, a difference that was not significant (p = 0.06)."
    )
    supernova = (
        "Reproducing the supernova data therefore does not require a negative volume "
        "deceleration parameter."
    )
    moved = [(oxytocin, OXYTOCIN), (supernova, SUPERNOVA)]
    for claim, ev in moved:
        assert not [f for f in run_checks(claim, ev) if f.effect == "contradict"], claim
    # Dropping the one "not" is still a flip.
    dropped = SUPERNOVA.replace("does not require", "requires")
    assert "contradict" in {f.effect for f in check_restatement(dropped, SUPERNOVA)}


def test_a_negated_condition_or_a_possibility_is_no_polarity_conflict() -> None:
    extinct = (
        "That is, a strain goes extinct independently of competition with the others if an "
        "equilibrium cannot be reached between new bacteria formed during growth and cell "
        "removal after killing and dilution."
    )
    claim = (
        "The selected strains are those that minimise the equilibrium time, the time needed to "
        "balance the new cells formed during growth against removal by killing and dilution."
    )
    assert check_negation(claim, extinct) == []
    # Stated as a finding, the same negation is a conflict with a claim that it is reached.
    asserted = (
        "An equilibrium cannot be reached between new cells formed during growth and removal."
    )
    reached = "An equilibrium is reached between the new cells formed during growth and removal."
    assert check_negation(reached, extinct) == []
    assert [f.effect for f in check_negation(reached, asserted)] == ["contradict"]
    # A claim that never says the equilibrium is reached is not denied by it.
    assert check_negation(claim, asserted) == []
    potential = (
        "Any stress caused by the pen environment and study protocol had the potential to alter "
        "the basal endocrine profiles of the study animals over time."
    )
    found_none = (
        "There was no evidence that the pen environment altered the basal endocrine profiles."
    )
    assert check_negation(found_none, potential) == []
    altered = potential.replace("had the potential to alter", "altered")
    assert [f.effect for f in check_negation(found_none, altered)] == ["contradict"]
    without = "Without incoherence conditions, exact recovery of the low-rank matrix is impossible."
    imposed = (
        "Past work imposed incoherence conditions to obtain exact recovery of the low-rank matrix."
    )
    assert check_negation(without, imposed) == []


def test_a_footnote_marker_glued_in_front_of_a_name_does_not_hide_it() -> None:
    ev = "2PDFs store text as character glyphs and their (x, y) positions on a page."
    assert check_entities("Scientific PDFs store text as character glyphs.", ev) == []
    plain = "Documents store text as character glyphs and 12 positions on a page."
    found = check_entities("Scientific PDFs store text as character glyphs.", plain)
    assert [f.claim_text for f in found] == ["PDFs"]


def test_proved_as_turned_out_is_no_claim_of_proof() -> None:
    ev = "Inverse PageRank performed slightly better than high PageRank in seed selection."
    for claim in (
        "Inverse PageRank had proved slightly better than high PageRank at seed selection.",
        "Inverse PageRank proved useful for seed selection.",
    ):
        assert check_hedging(claim, ev) == [], claim
    for claim in (
        "This proves that inverse PageRank is better than high PageRank at seed selection.",
        "The results proved conclusively that inverse PageRank is better at seed selection.",
    ):
        assert [f.effect for f in check_hedging(claim, ev)] == ["partial"], claim


def test_wild_subjects_and_a_context_the_finding_is_confined_to_are_conditions() -> None:
    # Conspecific recognition and aggression reduction to familiars in grey seal pups, p. 1.
    ev = (
        "This study is the first with wild subjects to find conspecific recognition abilities "
        "in a pinniped species outside of reproductive contexts."
    )
    claim = "It is the first study to detect conspecific recognition in a pinniped species."
    dropped = [f.evidence_text for f in check_conditions(claim, ev) if f.effect == "partial"]
    assert sorted(dropped) == ["outside of reproductive contexts", "with wild subjects"]
    kept = (
        "It is the first study of wild subjects to detect conspecific recognition in a "
        "pinniped species outside reproductive contexts."
    )
    assert check_conditions(kept, ev) == []


def test_a_finding_of_one_numbered_part_of_the_data_is_a_condition() -> None:
    # Combating Web Spam with TrustRank, p. 11.
    ev = (
        "As an illustration, we can derive from Figure 11 that spam sites in PageRank bucket 2 "
        "got demoted seven buckets on average, thus landing somewhere around TrustRank bucket 9."
    )
    claim = "On average, spam sites were demoted by seven buckets from PageRank to TrustRank."
    dropped = [f.evidence_text for f in check_conditions(claim, ev) if f.effect == "partial"]
    assert dropped == ["in PageRank bucket 2"]
    kept = "Spam sites in PageRank bucket 2 were demoted by seven buckets on average."
    assert check_conditions(kept, ev) == []


def test_a_claim_that_holds_whatever_the_conditions_needs_a_source_that_says_so() -> None:
    ev = (
        "From Figure 5, it is clear that DegreeDistance seeds with dtd = 3 and SIDD cover "
        "significantly more unique nodes in comparison with high-degree seeds."
    )
    claim = (
        "DegreeDistance seeds with a threshold of 3 and SIDD cover significantly more unique "
        "nodes than high-degree seeds, whatever the size of the network."
    )
    found = check_conditions(claim, ev)
    assert [(f.effect, f.claim_text) for f in found] == [
        ("partial", "whatever the size of the network")
    ]
    said = ev.replace("From Figure 5, it is clear that", "Regardless of network size,")
    assert check_conditions(claim, said) == []
    assert check_conditions(claim.split(", whatever")[0] + ".", ev) == []


def test_a_negation_in_a_condition_still_matches_the_same_negation_stated_plainly() -> None:
    claim = "The same happens above b_c when collaboration is absent altogether (p = 0)."
    ev = "This is also the case for b ≥bc if collaboration is completely absent (p = 0)."
    assert check_negation(claim, ev) == []
    assert check_negation(ev, claim) == []


# Sentences of real PDFs of the shared corpora (MapReduce, Bigtable, TraceMonkey, ReVerb and
# a recruitment trial), restated the way a summary would.
RESTATED_FAITHFULLY = [
    (
        (
            "The master pings every worker periodically and marks a worker as failed if no "
            "response arrives within a certain amount of time."
        ),
        (
            "The master pings every worker periodically. If no response is received from a worker "
            "in a certain amount of time, the master marks the worker as failed."
        ),
    ),
    (
        "The root tablet is never split, which keeps the hierarchy to three levels.",
        (
            "The root tablet is just the first tablet in the METADATA table, but is treated "
            "specially—it is never split—to ensure that the tablet location hierarchy has no more "
            "than three levels."
        ),
    ),
    (
        (
            "Recruiting 100 participants through primary care by letter alone would require 1,961 "
            "invitations and 1,800 minutes (30 hours) of researcher time."
        ),
        (
            "To recruit 100 participants (with a 5.1% conversion rate) through primary care (via "
            "letter invitation only, without follow-up) would require 1,961 invitations to be sent "
            "and would require 1,800 minutes (30 hours) of researcher time."
        ),
    ),
    (
        (
            "The guard on the preemption flag inserted at every loop edge increased runtime by less "
            "than 1% on most benchmarks."
        ),
        (
            "The VM inserts a guard on the preemption flag at every loop edge. We measured less "
            "than a 1% increase in runtime on most benchmarks for this extra guard."
        ),
    ),
    (
        (
            "The confidence function was trained by hand-labelling the extractions from 1,000 "
            "sentences drawn from the Web and Wikipedia."
        ),
        (
            "We trained the confidence function by manually labeling the extractions from a set of "
            "1, 000 sentences from the Web and Wikipedia as correct or incorrect."
        ),
    ),
    (
        (
            "Some programs trace very well and speed up over the interpreter, yet remain slower "
            "than SFX or V8."
        ),
        (
            "Some programs trace very well, and speed up compared to the interpreter, but are not "
            "as fast as SFX and/or V8."
        ),
    ),
]


@pytest.mark.parametrize(("claim", "evidence"), RESTATED_FAITHFULLY)
def test_faithful_restatements_of_pdf_sentences_raise_no_conflict(
    claim: str, evidence: str
) -> None:
    assert not [f for f in run_checks(claim, evidence) if f.effect == "contradict"]


def test_the_same_sentences_with_the_error_planted_still_conflict() -> None:
    planted = [
        (RESTATED_FAITHFULLY[1][0].replace("is never split", "is split"), "negation"),
        (RESTATED_FAITHFULLY[3][0].replace("increased", "decreased"), "number"),
        (RESTATED_FAITHFULLY[4][0].replace("1,000", "2,000"), "number"),
        (RESTATED_FAITHFULLY[5][0].replace("remain slower than", "are as fast as"), "negation"),
    ]
    for (claim, check), (_, evidence) in zip(
        planted, [RESTATED_FAITHFULLY[i] for i in (1, 3, 4, 5)], strict=True
    ):
        found = {f.check for f in run_checks(claim, evidence) if f.effect == "contradict"}
        assert check in found, claim


@pytest.mark.parametrize(
    ("evidence", "negated"),
    [
        (
            "Among new users of ADHD medications, the adjusted RR was 0.77 (95% CI, 0.63-0.94).",
            (
                "Among new users of ADHD medications, the adjusted RR was not 0.77 (95% CI, "
                "0.63-0.94)."
            ),
        ),
        (
            (
                "Cases were more likely to be men and to have had academic difficulties during "
                "their medical course."
            ),
            (
                "Cases were not more likely to be men and to have had academic difficulties during "
                "their medical course."
            ),
        ),
    ],
)
def test_an_opening_bracket_or_not_more_likely_does_not_hide_a_negation(
    evidence: str, negated: str
) -> None:
    assert "negation" in {
        f.check for f in run_checks(negated, evidence) if f.effect == "contradict"
    }


def test_pdf_number_glitches_read_as_the_claim_means_them() -> None:
    # BMJ-style PDF text where the en dash of "2–76" comes out as "e".
    ev = "Our meta-analysis involved 450 participants, ranging in age from 2e76 years old."
    found = check_numbers("The trials involved 450 participants aged from 2 to 76 years.", ev)
    assert {f.effect for f in found} == {"ok"}
    other = check_numbers("The trials involved 450 participants aged from 3 to 76 years.", ev)
    assert "ok" not in {f.effect for f in other if f.claim_text == "3"}
    # A unit glued to its number is still named.
    ram = "We ran each extractor on a Pentium 4 machine with 4GB of RAM."
    assert check_entities("The extractors ran on a machine with 4 GB of RAM.", ram) == []


def test_multiples_and_storage_sizes_are_numbers_with_units() -> None:
    # Sentences of the TraceMonkey and MapReduce papers.
    assert [
        (q.value, q.unit) for q in parse_quantities("speedups of up to 1.25x on benchmarks")
    ] == [(1.25, "fold")]
    assert [(q.value, q.unit) for q in parse_quantities("2.3 × faster than V8")] == [(2.3, "fold")]
    assert [(q.value, q.unit) for q in parse_quantities("reading 3,288 TB of input")] == [
        (3288.0, "TB")
    ]
    # A size is no multiple: "a 512 × 512 pixel image".
    assert [q.unit for q in parse_quantities("a 512 × 512 pixel image")] == ["", "pixel"]
    # MapReduce, Table 1: "Average job completion time 634 secs".
    assert [(q.value, q.unit) for q in parse_quantities("completion time 634 secs")] == [
        (634.0, "s")
    ]
    ev = (
        "In a closely related project (13) background recompilation yielded speedups of up to "
        "1.25x on benchmarks with many branch traces."
    )
    claim = (
        "In a closely related project background recompilation yielded speedups of up to 1.25x, "
        "and of 1.11x on average, on benchmarks with many branch traces."
    )
    effects = {f.claim_text: f.effect for f in check_numbers(claim, ev)}
    # 1.25x is stated; the invented average is unreported, not a rival of the 1.25x the claim
    # itself restates.
    assert effects == {"1.25x": "ok", "1.11x": "partial"}
    moved = claim.replace("up to 1.25x, and of 1.11x on average", "up to 1.5x")
    assert {f.effect for f in check_numbers(moved, ev)} == {"contradict"}


def test_a_suspected_cause_is_not_a_demonstrated_one() -> None:
    ev = (
        "The reason is not clear, but all of these programs have nested loops with small bodies, "
        "so we suspect that the implementation has a relatively high cost for calling nested "
        "traces."
    )
    claim = (
        "The authors demonstrate that this gap is caused by the high cost of calling nested "
        "traces, since all of these programs have nested loops with small bodies."
    )
    assert [f.effect for f in check_hedging(claim, ev)] == ["partial"]
    # "suspected cases" names a group; it hedges nothing.
    assert (
        check_hedging(
            "Cases were isolated within 24 hours.",
            "All suspected cases were isolated within 24 hours.",
        )
        == []
    )


def test_a_cause_the_source_calls_probable_is_not_established() -> None:
    # Postgrad Med J 2009, p. 6, with the reference number the PDF glues to the last word.
    ev = (
        "Bismuth based triple therapy achieved a much better response in regard to iron intake "
        "than PPI based triple therapy, probably by inhibiting intragastric proteolysis.35"
    )
    cause = (
        "The authors establish that the advantage of bismuth-based over PPI-based triple therapy "
        "arises from the inhibition of intragastric proteolysis."
    )
    assert [(f.claim_text, f.evidence_text) for f in check_hedging(cause, ev)] == [
        ("establish", "probably")
    ]
    # The finding itself is stated plainly; only its explanation is hedged.
    finding = (
        "Bismuth-based triple therapy achieved a much better response in iron intake than "
        "PPI-based triple therapy."
    )
    assert check_hedging(finding, ev) == []


def test_hyphenated_compounds_and_possessives_share_their_words() -> None:
    from sciverify.entail import lexicon as lx

    assert lx.overlap("bismuth-based triple therapy", "Bismuth based triple therapy") == 1.0
    assert lx.overlap("the mother and pup bond", "the mother-pup bond") == 1.0
    assert lx.stem("oxytocin’s") == lx.stem("oxytocin")
    assert [w.text for w in lx.words("of intragastric proteolysis.35")][-1] == "proteolysis"


def test_established_in_the_sense_of_formed_is_no_claim_of_proof() -> None:
    # A SciFact abstract sentence: macrophage populations "are established prior to birth".
    ev = (
        "We have demonstrated that major tissue-resident macrophage populations are established "
        "prior to birth and maintain themselves subsequently during adulthood."
    )
    restated = (
        "We showed that major tissue-resident macrophage populations are established prior to "
        "birth and maintain themselves later during adulthood."
    )
    assert check_hedging(restated, ev) == []
    hedged = "Tissue-resident macrophage populations may maintain themselves during adulthood."
    proof = "It is established that tissue-resident macrophage populations maintain themselves during adulthood."
    assert [f.claim_text for f in check_hedging(proof, hedged)] == ["established"]


def test_powers_of_ten_and_superscripts_a_pdf_flattened() -> None:
    assert [q.value for q in parse_quantities("a density of 10^6 cells")] == [1e6]
    assert [q.value for q in parse_quantities("between 10⁻²⁷ and 10**5")] == [1e-27, 1e5]
    assert [q.value for q in parse_quantities("about 1.2 × 10^5 cells")] == [1.2e5]
    # Ultra light bosonic dark matter and CMB, p. 2: the exponents are flattened onto the line.
    ev = "The order of magnitude needed to fit the data is α ∝10−27 (xB ∝105)."
    claim = "Fitting the data requires α of order 10^-27, that is x_B of order 10^5."
    assert {f.claim_text: f.effect for f in check_numbers(claim, ev)} == {
        "10^-27": "ok",
        "10^5": "ok",
    }
    moved = check_numbers(claim.replace("10^5", "10^6"), ev)
    assert {f.claim_text: f.effect for f in moved}["10^6"] != "ok"
    # Without a mathematical sign before it, 105 is a hundred and five.
    assert "ok" not in {
        f.effect for f in check_numbers("We enrolled 10^5 patients.", "We enrolled 105 patients.")
    }


def test_a_spread_the_evidence_never_gives_is_invented() -> None:
    # A CMOS strain-sensor paper, Table 2, flattened: no spread anywhere.
    table = (
        "Table 2: Longitudinal and transverse piezoresistive coefficients in TPa−1 experimentally "
        "measured. Dimensions This work -255 -283 -437 486 WxL = 8.5 µm x 5 µm"
    )
    claim = "The PMOS coefficients were -437 ± 9 TPa^-1 transverse and 486 TPa^-1 longitudinal."
    effects = {f.claim_text: f.effect for f in check_numbers(claim, table)}
    # "9" no longer passes as the rounded 8.5 µm; "^-1" is an exponent, not a number.
    assert effects == {"437": "ok", "9": "partial", "486": "ok"}
    # A PDF that writes "±" as "+−" does report the spread.
    ki = "Compound 33RE displayed low nanomolar inhibition (Ki = 11.21 +−0.74 nM)."
    stated = check_numbers("33RE inhibited the N-domain with Ki = 11.21 ± 0.74 nM.", ki)
    assert {f.effect for f in stated} == {"ok"}


def test_over_a_number_is_an_age_only_when_it_reads_as_one() -> None:
    from sciverify.entail.mentions import conditions_in

    # Natural image denoising paper, p. 7: a measurement detail, not a population.
    assert conditions_in("Averaged over 10 trials, CN1/CN2 requires 38.86 sec.") == []
    assert conditions_in("Most cases, over 50% of them, resolved.") == []
    assert conditions_in("Adults over 18, who smoked daily, were eligible.") == [("age", "over 18")]
    assert [k for k, _ in conditions_in("children under 5 years of age")] == ["age"]


def test_broadening_and_narrowing_are_directions() -> None:
    # An active-matter paper, p. 4: a longer relaxation time *reduces* the unstable band.
    ev = (
        "Equation (13) summarizes the key hyperbolic trend: increasing matrix relaxation time τ∗ "
        "(more elastic-like response) reduces the unstable band, while decreasing τ∗ (more "
        "liquid-like response) broadens it."
    )
    reversed_ = "A larger relaxation time τ* broadens the unstable band of modes."
    assert [f.effect for f in check_comparatives(reversed_, ev)] == ["contradict"]
    faithful = "A larger relaxation time τ* narrows the unstable band of modes."
    assert check_comparatives(faithful, ev) == []


BIGTABLE_BLOOM = (
    "For certain applications, a small amount of tablet server memory used for storing Bloom "
    "filters drastically reduces the number of disk seeks required for read operations."
)
DVT_FILTERS = (
    "When LMWH and mechanical device thromboprophylaxis are contraindicated, retrievable IVC "
    "filters should be considered in high-risk trauma patients."
)


@pytest.mark.parametrize(
    ("evidence", "claim"),
    [
        (  # Bigtable, p. 7
            BIGTABLE_BLOOM,
            (
                "A small amount of tablet-server memory spent on these filters drastically "
                "reduces the number of disk seeks required for read operations."
            ),
        ),
        (  # a systematic review of DVT prophylaxis in trauma, p. 2
            DVT_FILTERS,
            (
                "For high-risk trauma patients the authors recommend that retrievable IVC "
                "filters be considered."
            ),
        ),
    ],
)
def test_an_opening_condition_clause_the_claim_drops_is_partial(evidence: str, claim: str) -> None:
    assert [(f.check, f.effect) for f in check_conditions(claim, evidence)] == [
        ("condition", "partial")
    ]


def test_a_when_clause_in_the_past_tense_is_no_condition() -> None:
    ev = "When we tested the tablet servers, a small amount of memory reduced disk seeks."
    assert (
        check_conditions("A small amount of memory reduced disk seeks on tablet servers.", ev) == []
    )


def test_two_sides_compared_before_the_direction_word_can_be_swapped() -> None:
    # Recruiting smokers into the EARS trial, p. 5 (statistics left out).
    ev = (
        "Those recruited via initial invitation letter, compared with those recruited via a "
        "follow-up telephone call, were more likely to have used SSS in the past."
    )
    swapped = (
        "Smokers recruited through a follow-up telephone call, rather than by the initial letter, "
        "were more likely to have used SSS in the past."
    )
    found = check_comparatives(swapped, ev)
    assert [f.effect for f in found] == ["contradict"] and "other way round" in found[0].message
    faithful = (
        "Smokers recruited by the initial letter, rather than through a follow-up telephone call, "
        "were more likely to have used SSS in the past."
    )
    assert check_comparatives(faithful, ev) == []


def test_a_direction_word_that_sizes_a_change_takes_the_change_s_way() -> None:
    # Wheat under post-anthesis heat stress (PLOS ONE), p. 13: "a greater reduction in yield"
    # says yield went down; "greater" alone must not read as agreeing with "positively".
    ev = (
        "Metabolites that showed an increase in concentration in heat-stressed plants exhibited "
        "negative correlations with yield, SPAD, and FV/FM, indicating that greater metabolite "
        "concentrations were associated with a greater reduction in yield."
    )
    claim = (
        "Metabolites that accumulated under heat stress were positively correlated with grain "
        "yield, SPAD chlorophyll content and Fv/Fm."
    )
    assert [f.effect for f in check_comparatives(claim, ev)] == ["contradict"]
    faithful = claim.replace("positively", "negatively")
    assert check_comparatives(faithful, ev) == []


def test_a_table_row_below_the_other_in_every_column_contradicts_outperformed() -> None:
    # A Survey on GANs for Anomaly Detection, p. 7: Table 2 as PyMuPDF flattens it.
    ev = (
        "KDD Precision Recall F1-Score BiGAN/EGBAD 0.941174 0.956155 0.948605 "
        "GANomaly 0.830256 0.841112 0.835648"
    )
    found = check_comparatives(
        "On the KDD99 network intrusion data, GANomaly outperformed BiGAN/EGBAD, with higher "
        "precision, recall and F1-score.",
        ev,
    )
    assert [(f.check, f.effect) for f in found] == [("comparative", "contradict")]
    assert found[0].evidence_text.startswith("GANomaly 0.83")
    assert check_comparatives("On KDD99, BiGAN/EGBAD outperformed GANomaly.", ev) == []
    assert check_comparatives("On KDD99, GANomaly had lower recall than BiGAN/EGBAD.", ev) == []
    lower = check_comparatives("On KDD99, BiGAN/EGBAD had lower recall than GANomaly.", ev)
    assert [f.effect for f in lower] == ["contradict"]
    # Where lower is better, "outperformed" does not say which way the numbers go.
    assert check_comparatives("GANomaly outperformed BiGAN/EGBAD in error 1.2 3.4", ev) == []
    assert check_comparatives("GANomaly outperformed BiGAN/EGBAD in memory use.", ev) == []


def test_a_dash_ends_the_scope_of_a_negation() -> None:
    from sciverify.entail import lexicon as lx

    # Bigtable, p. 4: "never split" says nothing against the three-level hierarchy.
    ev = (
        "The root tablet is just the first tablet in the METADATA table, but is treated "
        "specially—it is never split—to ensure that the tablet location hierarchy has no more "
        "than three levels."
    )
    claim = (
        "Bigtable keeps tablet locations in a three-level hierarchy: the root tablet holds the "
        "locations of all METADATA tablets."
    )
    assert [f for f in check_negation(claim, ev) if f.effect == "contradict"] == []
    assert [f.effect for f in check_negation(claim, ev.replace("—", " - "))] == []

    # The scope of "never" ends at the dash; without the dashes it runs on into the tablet
    # location hierarchy.
    def scope(text: str) -> list[str]:
        ws = lx.words(text)
        i = next(k for k, w in enumerate(ws) if w.lower == "never")
        return [w.lower for w in lx.run(text, ws, i, +1)]

    assert scope(ev) == ["split"]
    assert scope(ev.replace("—", " ")) == [
        "split",
        "to",
        "ensure",
        "that",
        "the",
        "tablet",
        "location",
    ]


def test_shared_numbers_make_a_claim_related_enough_for_the_hedge_check() -> None:
    # Ultra light bosonic dark matter and CMB, p. 3: few words in common, every number.
    ev = (
        "We show that a universe ULBDM-dominated (ΩB = 0.2) could be allowed for xB ∝105 and "
        "τ between 0.05 and 0.19."
    )
    claim = (
        "Varying the optical depth of reionization, the fits establish that a universe "
        "dominated by ultra-light bosons (Ω_B = 0.2) is favoured by the CMB for x_B of order "
        "10^5 and τ between 0.05 and 0.19."
    )
    found = check_hedging(claim, ev)
    assert [(f.effect, f.evidence_text) for f in found] == [("partial", "could")]


def test_would_after_a_stated_condition_is_no_hedge() -> None:
    # Collaboration drives phase transitions towards cooperation, p. 4 (shortened).
    ev = (
        "If kmax is the degree of the player with most neighbours, the focal player and her "
        "collaborator would unanimously choose action C when b exceeds the critical benefit."
    )
    claim = (
        "The focal player and her collaborator choose action C when b exceeds the critical benefit."
    )
    assert check_hedging(claim, ev) == []
    hedged = "The focal player and her collaborator would choose action C when b is large."
    assert [f.effect for f in check_hedging(claim, hedged)] == ["partial"]


def test_a_claim_may_round_a_number_but_not_add_digits_to_it() -> None:
    # Datta et al. (Complications related to DVT prophylaxis in trauma), p. 4.
    ev = "Failed retrieval rates in trauma patients are reported between 0% and 4%."
    rounded = check_numbers("Failed retrieval rates in trauma patients reach up to 4%.", ev)
    assert [f.effect for f in rounded] == ["ok"]
    invented = check_numbers("Failed retrieval rates in trauma patients reach 3.9%.", ev)
    assert invented and invented[0].effect != "ok"
    precise = "The failed retrieval rate is calculated to be 2.84%."
    assert [f.effect for f in check_numbers("The failed retrieval rate is 2.8%.", precise)] == [
        "ok"
    ]
    # An equation number "(1)" states no 0.9.
    assert check_numbers("The random index is 0.9.", "(1) CI = (4.54 – 4) /3")[0].effect != "ok"


@pytest.mark.parametrize(
    ("claim", "effect"),
    [
        ("The corpus holds 1.5 million documents.", "ok"),  # rounded to the hundred thousand
        ("The corpus holds 1.51 million documents.", "ok"),
        ("The corpus holds 1.6 million documents.", "contradict"),
        ("The corpus holds 1.4 million documents.", "contradict"),
        ("The corpus holds 1.52 million documents.", "contradict"),  # a digit too many
    ],
)
def test_a_number_with_million_is_as_precise_as_its_digits(claim: str, effect: str) -> None:
    ev = "The final corpus holds 1,512,340 documents from 4,800 journals."
    assert [f.effect for f in check_numbers(claim, ev)] == [effect]


@pytest.mark.parametrize(
    ("claim", "evidence", "effect"),
    [
        ("The parser's accuracy was 92.3%.", "The parser reached an accuracy of 0.923.", "ok"),
        ("The parser's accuracy was 92%.", "The parser reached an accuracy of 0.923.", "ok"),
        ("The parser's accuracy was 93%.", "The parser reached an accuracy of 0.923.", "partial"),
        ("The parser's recall was 0.81.", "The parser reached 81% recall.", "ok"),
        # A table's cells hold many shares: one of them names no measure of the claim's.
        ("The parser's accuracy was 68%.", "Scores 0.68 0.84 0.91 0.55", "partial"),
        # Worked out from a pair that the evidence states in one phrase.
        ("Latency fell by 40 ms.", "Latency dropped from 120 ms to 80 ms.", "ok"),
        ("Latency fell by 33%.", "Latency dropped from 120 ms to 80 ms.", "ok"),
        ("Latency fell by 50 ms.", "Latency dropped from 120 ms to 80 ms.", "partial"),
        ("Accuracy rose by 10 points.", "Accuracy rose from 80% to 90%.", "ok"),
        ("Accuracy rose by 10%.", "Accuracy rose from 80% to 90%.", "partial"),  # points?
        ("The cohort was 52% female.", "520 of the 1,000 participants were women.", "ok"),
        ("The cohort was 62% female.", "520 of the 1,000 participants were women.", "partial"),
        ("The mean score was 4.5 \u00b1 1.2.", "Mean (SD) score: 4.5 (1.2).", "ok"),
    ],
)
def test_a_figure_written_or_worked_out_another_way_states_the_evidences(
    claim: str, evidence: str, effect: str
) -> None:
    assert [f.effect for f in check_numbers(claim, evidence)][-1] == effect


def test_a_percentage_the_claim_works_out_from_its_own_counts_is_no_invented_figure() -> None:
    # The inhaled PGE1 pilot trials, p. 11: the evidence gives the counts, not the share.
    ev = "Of 46 infants screened, 24 met the eligibility criteria."
    found = check_numbers("Of 46 infants screened, 24 (52%) were eligible.", ev)
    assert [(f.claim_text, f.effect) for f in found] == [("46", "ok"), ("24", "ok"), ("52%", "ok")]
    wrong = check_numbers("Of 46 infants screened, 24 (62%) were eligible.", ev)
    assert [(f.claim_text, f.effect) for f in wrong][-1] == ("62%", "partial")


@pytest.mark.parametrize(
    ("claim", "effect"),
    [
        ("About 40% of the patients relapsed within a year.", "ok"),
        ("Roughly 40% of the patients relapsed within a year.", "ok"),
        ("Relapse hit ~40% of the patients within a year.", "ok"),
        ("40% of the patients relapsed within a year.", "partial"),  # no rounding said
        ("About 45% of the patients relapsed within a year.", "partial"),  # too far off
    ],
)
def test_an_approximate_figure_states_the_value_it_rounds(claim: str, effect: str) -> None:
    ev = "Within a year, 41.2% of the patients relapsed."
    assert [f.effect for f in check_numbers(claim, ev)] == [effect]


@pytest.mark.parametrize(
    ("claim", "effect"),
    [
        ("More than 90% of the samples passed the quality check.", "ok"),
        ("Over 90% of the samples passed the quality check.", "ok"),
        ("Up to 95% of the samples passed the quality check.", "ok"),
        ("Less than 95% of the samples passed the quality check.", "ok"),
        ("More than 95% of the samples passed the quality check.", "partial"),  # not so
        ("Less than 90% of the samples passed the quality check.", "partial"),
        ("More than 50% of the samples passed the quality check.", "partial"),  # too far off
        ("Nearly 95% of the samples passed the quality check.", "ok"),  # just below it
        ("Nearly 99% of the samples passed the quality check.", "partial"),  # 5.5 points off
        ("Nearly 120% of the samples passed the quality check.", "partial"),  # not just below
    ],
)
def test_a_bound_states_a_value_that_meets_it(claim: str, effect: str) -> None:
    ev = "Of all samples, 93.5% passed the quality check."
    assert [f.effect for f in check_numbers(claim, ev)] == [effect]
    # Where the two name the same measure, a bound the value breaks is a changed figure.
    same = "93.5% of samples passed."
    broken = check_numbers("More than 95% of samples passed.", same)
    assert [f.effect for f in broken] == ["contradict"]


def test_a_group_named_with_another_prefix_of_its_set_is_a_changed_population() -> None:
    # Split Sex Ratios in Perennial Social Hymenoptera, p. 2 (the claim swaps the form).
    ev = (
        "Our focal organism will be the monogyne form of the fire ant. In the polygyne form of "
        "Formica exsecta, the need for replacement queens seems to be the main factor favoring "
        "gyne-biased sex ratios."
    )
    claim = (
        "In the monogyne form of Formica exsecta, the need for replacement queens appears to be "
        "the main factor favouring gyne-biased sex ratios."
    )
    found = [f for f in check_entities(claim, ev) if f.effect != "ok"]
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("partial", "monogyne", "polygyne")
    ]
    faithful = claim.replace("monogyne", "polygyne")
    assert [f for f in check_entities(faithful, ev) if f.effect != "ok"] == []
    # A word that merely starts like a prefix ("interaction" / "action") is no swap.
    assert check_entities("The interaction was strong.", "The action was strong.") == []


def test_a_ratio_is_stated_only_as_a_ratio() -> None:
    # Bigtable, p. 7, with a row of its Table 2 (a bare 7 among the cells).
    ev = "Gzip reductions of 3-to-1 or 4-to-1 on HTML pages. Yes 8 7 2 33% Yes 9 8 3 0%"
    found = check_numbers("The scheme achieved a 7-to-1 reduction, against Gzip's 3-to-1.", ev)
    assert [(f.claim_text, f.effect) for f in found] == [("7-to-1", "partial"), ("3-to-1", "ok")]


def test_records_that_indicate_a_figure_report_it() -> None:
    # Recruiting smokers into the EARS trial, p. 3.
    ev = (
        "Local data indicated that smoking prevalence among adults was over 40%, and the location "
        "had generally poor health."
    )
    claim = (
        "Local records showed that adult smoking prevalence in the area was over 40% and the "
        "location had poor health."
    )
    assert check_hedging(claim, ev) == []
    hedged = "These results indicated that smoking prevalence among adults was over 40%."
    assert [f.effect for f in check_hedging(claim, hedged)] == ["partial"]


def test_a_strong_word_the_evidence_uses_too_is_no_overclaim() -> None:
    # Morphological instability of an invasive active-passive interface, p. 5.
    ev = (
        "The linear stability analysis of the dynamical field equations for small perturbations "
        "reveals that short-wavelength instabilities are always stable because of surface "
        "tension regardless of the matrix properties."
    )
    claim = (
        "The linear stability analysis shows that surface tension always stabilises "
        "short-wavelength perturbations, whatever the matrix properties."
    )
    assert check_hedging(claim, ev) == []
    proved = claim.replace("shows", "proves")
    assert [f.claim_text for f in check_hedging(proved, ev)] == ["proves"]


def test_british_and_american_spellings_share_a_stem() -> None:
    from sciverify.entail.lexicon import stem

    assert stem("labelled") == stem("labeled") == stem("labels")
    assert stem("modelling") == stem("modeling") == stem("model")
    assert stem("spelled") == stem("spell")  # a short "-ell" verb keeps its double l
    for british, american in (
        ("randomised", "randomized"),
        ("optimisation", "optimization"),
        ("analysed", "analyzed"),
        ("behavioural", "behavioral"),
        ("tumours", "tumors"),
        ("haemoglobin", "hemoglobin"),
        ("anaemia", "anemia"),
        ("oedema", "edema"),
        ("paediatric", "pediatric"),
        ("centres", "centers"),
        ("litre", "liter"),
        ("judgement", "judgment"),
        ("programme", "program"),
        ("ageing", "aging"),
    ):
        assert stem(british) == stem(american), british
    # Words that only look British keep their forms together and apart from other words.
    assert stem("precise") == stem("precisely") != stem("precision")
    assert stem("four") != stem("for") and stem("hours") == stem("hour")
    assert stem("analysis") != stem("analyse")
    # Irregular plurals stem like their singulars.
    assert stem("mice") == stem("mouse") and stem("analyses") == stem("analysis")


def test_no_serious_events_is_not_denied_by_events_of_unstated_severity() -> None:
    # Inhaled PGE1 in neonates, p. 15.
    ev = (
        "Two adverse events were reported during the study and nether was attributed to the "
        "study aerosol."
    )
    assert check_negation("No serious adverse events were reported.", ev) == []
    assert [f.effect for f in check_negation("No adverse events were reported.", ev)] == [
        "contradict"
    ]


def test_a_count_the_paper_spells_out_matches_the_claims_digits() -> None:
    # Inhaled PGE1 in neonates, p. 11, as the summary writes it.
    ev = "During the study period, 46 infants were screened at eight sites; fourteen met criteria."
    found = check_numbers("Of 46 infants screened at 8 sites, 14 met the criteria.", ev)
    assert [(f.claim_text, f.effect) for f in found] == [("46", "ok"), ("8", "ok"), ("14", "ok")]
    changed = check_numbers("Of 46 infants screened at 9 sites, 14 met the criteria.", ev)
    assert [f.effect for f in changed if f.claim_text == "9"] != ["ok"]
    # Only the evidence is read this way: the claim's "one of the" is no number to find.
    assert check_numbers("This is one of the sites.", "These are the sites.") == []


def test_a_unit_per_another_unit_is_one_unit() -> None:
    assert [
        (q.text_of(t), q.unit) for t in ["Hb rose by 12.88 g/L"] for q in parse_quantities(t)
    ] == [("12.88 g/L", "g/l")]
    dose = "IPGE1 ran at 300 ng/kg/min"
    assert [q.unit for q in parse_quantities(dose)] == ["ng/kg/min"]
    # The litre's case does not matter; a changed denominator is a changed unit.
    same = check_numbers(
        "Glucose was 3.5 mmol/L in controls.", "Glucose was 3.5 mmol/l in controls."
    )
    assert [f.effect for f in same] == ["ok"]
    ml = check_numbers("eGFR fell to 45 mL/min.", "eGFR fell to 45 ml/min.")
    assert [f.effect for f in ml] == ["ok"]
    per_dl = check_numbers("The WMD of Hb was 12.88 g/l.", "The WMD of Hb was 12.88 g/dl.")
    assert [f.effect for f in per_dl] == ["contradict"]
    per_h = check_numbers("The dose was 300 ng/kg/min.", "The dose was 300 ng/kg/h.")
    assert [f.effect for f in per_h] == ["contradict"]
    # Saying per what where the source writes it out is the same unit.
    daily = check_numbers(
        "They received 10 mg/kg/day of it.", "They received 10 mg/kg daily of it."
    )
    assert [f.effect for f in daily] == ["ok"]


def test_a_duration_in_other_time_units_is_the_same_duration() -> None:
    assert [
        f.effect for f in check_numbers("Recruitment ran for 12 months.", "It ran one year.")
    ] == ["ok"]
    assert [f.effect for f in check_numbers("It took 3 weeks.", "It took 21 days.")] == ["ok"]
    # Another unit with the same number is still a changed unit.
    assert [f.effect for f in check_numbers("within 5 hours", "within 5 minutes")] == ["contradict"]
    assert [f.effect for f in check_numbers("It lasted 2 years.", "It lasted 12 months.")] != ["ok"]


def test_a_share_the_paper_writes_in_words_matches_the_claims_percentage() -> None:
    # "one in five physicians who review ...": a share in words.
    ev = "One in five physicians who review the records agree, and half of the nurses do."
    found = check_numbers("20% of physicians and 50% of nurses agree.", ev)
    assert [(f.claim_text, f.effect) for f in found] == [("20%", "ok"), ("50%", "ok")]
    assert check_numbers("48% of the nurses agree.", ev)[0].effect != "ok"


def test_a_percentage_change_is_the_ratio_the_evidence_reports() -> None:
    # SciFact: "for quitters, HR 0.50" states a risk reduced by about half.
    ev = (
        "The HR for light smokers was 0.44 (95% CI, 0.35-0.56); for quitters, HR 0.50 "
        "(95% CI, 0.36-0.69), for stable ex-smokers, HR 0.17 (95% CI, 0.13-0.23)."
    )
    claim = "Participants who quit smoking reduce lung cancer risk by approximately 50%."
    assert [f.effect for f in check_numbers(claim, ev)] == ["ok"]
    raised = "Smokers had higher odds of stroke (OR 1.32, 95% CI 1.1-1.5)."
    assert [f.effect for f in check_numbers("Smoking raised the odds by 32%.", raised)] == ["ok"]
    # Another size of change, or a change the other way, is not what the ratio says.
    assert check_numbers("Quitting reduces lung cancer risk by 80%.", ev)[0].effect != "ok"
    assert check_numbers("Smoking lowered the odds by 32%.", raised)[0].effect != "ok"


def test_a_failed_procedure_is_a_kind_of_procedure_not_a_negation() -> None:
    # SciFact: "the risk of failed procedures" denies nothing.
    ev = "Ultrasound imaging reduced the risk of failed procedures and of traumatic procedures."
    claim = "Ultrasound guidance reduces the number of traumatic procedures."
    assert [f for f in run_checks(claim, ev) if f.effect == "contradict"] == []
    # "failed to" still negates.
    assert check_negation(
        "The drug reduced traumatic procedures.", "The drug failed to reduce traumatic procedures."
    )


def test_a_failure_after_removal_shows_that_something_is_needed() -> None:
    # SciFact: loss of function supports a claim that the removed part is essential.
    ev = (
        "Mice with targeted ablation of osteocytes or a disrupted osteocyte network have "
        "comparable numbers of HSPCs in the BM but fail to mobilize HSPCs in response to G-CSF."
    )
    assert (
        check_negation("Osteocytes have an essential role in G-CSF induced HSPC mobilization.", ev)
        == []
    )
    # Without a removal, failing to mobilize denies that mobilization happens.
    plain = "Osteocytes fail to mobilize HSPCs in response to G-CSF."
    assert check_negation("Osteocytes mobilize HSPCs in response to G-CSF.", plain)


def test_a_claim_about_the_affirmed_case_of_but_not_is_not_denied() -> None:
    # SciFact: the sentence affirms the lymph node and denies the blood.
    ev = (
        "Protection strongly correlates with the magnitude of SIV-specific T cells in the lymph "
        "node but not with the responses of such T cells in the blood."
    )
    claim = "Attenuated SIV vaccines induce a stronger T cell response in lymph node cells."
    assert check_negation(claim, ev) == []
    about_blood = "Protection correlates with the responses of such T cells in the blood."
    assert check_negation(about_blood, ev)


def test_better_agrees_with_less_of_what_is_bad_and_says_nothing_of_unknown_measures() -> None:
    ev = (
        "Autologous MSCs compared with anti-IL-2 receptor antibody induction therapy resulted in "
        "lower incidence of acute rejection, decreased risk of opportunistic infection, and "
        "better estimated renal function at 1 year."
    )
    claim = (
        "Autologous transplantation of mesenchymal stem cells has better graft function than "
        "induction therapy with anti-interleukin-2 receptor antibodies."
    )
    assert check_comparatives(claim, ev) == []
    # An evaluative word still conflicts with a change in a measure whose good side is known.
    worse = check_comparatives(
        "The new model has better accuracy than the baseline.",
        "The new model has lower accuracy than the baseline.",
    )
    assert [f.effect for f in worse] == ["contradict"]


def test_sensitive_and_sensitivity_are_the_same_target() -> None:
    # SciFact: "more sensitive, but less specific" says "higher sensitivity".
    ev = (
        "Human papillomavirus (HPV) testing is known to be more sensitive, but less specific than "
        "cytology for detecting cervical intraepithelial neoplasia (CIN)."
    )
    claim = (
        "Primary cervical cytology screening with HPV detection has higher longitudinal "
        "sensitivity to detect severe cervical intraepithelial neoplasia than conventional "
        "cytology."
    )
    assert check_comparatives(claim, ev) == []


def test_a_comparison_is_read_off_the_two_values_the_evidence_gives() -> None:
    # SciFact: the two arms' remission rates, each named after its value.
    ev = (
        "Remission of type 2 diabetes was achieved by 22 (73%) in the surgical group and 4 (13%) "
        "in the conventional-therapy group."
    )
    sides = (
        "in people treated with conventional therapy than in people treated with gastric banding"
    )
    less = check_comparatives(f"Diabetes remission occurs less {sides}.", ev)
    assert [(f.effect, f.evidence_text.split(")")[0]) for f in less] == [("support", "73%")]
    more = check_comparatives(f"Diabetes remission occurs more {sides}.", ev)
    assert [f.effect for f in more] == ["contradict"]
    # Values named before them; the words before the value tie it to its side.
    scores = "Model A reached an accuracy of 88.1%, while model B reached 77.2%."
    higher = check_comparatives("Accuracy was higher for model A than for model B.", scores)
    assert [f.effect for f in higher] == ["support"]
    lower = check_comparatives("Accuracy was lower for model A than for model B.", scores)
    assert [f.effect for f in lower] == ["contradict"]
    # A sentence about another measure, or "better" for a measure the evidence never names,
    # says nothing about the comparison.
    other = "Model A ran for 88 minutes, while model B ran for 77 minutes."
    assert check_comparatives("Accuracy was lower for model A than for model B.", other) == []
    assert check_comparatives("Model A was better than model B at the error rate.", scores) == []


def test_a_ratio_whose_interval_excludes_one_gives_the_direction_of_a_risk() -> None:
    # SciFact: whole fruit and type 2 diabetes.
    ev = (
        "After adjustment for personal, lifestyle, and dietary risk factors of diabetes, the "
        "pooled hazard ratio of type 2 diabetes for every three servings/week of total whole "
        "fruit consumption was 0.98 (95% confidence interval 0.97 [corrected] to 0.99)."
    )
    up = check_comparatives(
        "Consumption of whole fruits increases the risk of type 2 diabetes.", ev
    )
    assert [f.effect for f in up] == ["contradict"]
    down = check_comparatives(
        "Consumption of whole fruits reduces the risk of type 2 diabetes.", ev
    )
    assert [f.effect for f in down] == ["support"]
    # An interval that spans 1 says neither.
    spans = "The HR for lung cancer among quitters was 0.90 (95% CI, 0.76-1.09)."
    assert check_comparatives("Quitting smoking raises the risk of lung cancer.", spans) == []


def test_a_negation_in_a_when_clause_states_a_condition_not_a_finding() -> None:
    # Collaboration drives phase transitions, p. 2: "absent" names the case, not a denial.
    ev = (
        "In the presence of full propensity of collaboration (p = 1), the system is driven to an "
        "absorbing phase; however, unlike the p = 0 case, there exists many absorbing states."
    )
    claim = "The same happens above b_c when collaboration is absent altogether (p = 0)."
    assert check_negation(claim, ev) == []
    # A denial in the main clause still conflicts.
    assert check_negation(
        "The system is not driven to an absorbing phase.",
        "The system is driven to an absorbing phase.",
    )


def test_a_count_changed_in_a_flattened_table_row_conflicts() -> None:
    # MapReduce, p. 10: Table 1 as the PDF's text layer gives it.
    ev = (
        "Output data written 193 TB Average worker machines per job 157 Average worker deaths "
        "per job 1.2 Average map tasks per job 3,351"
    )
    changed = check_numbers("The average job used 257 worker machines and saw 1.2 deaths.", ev)
    assert [(f.claim_text, f.effect) for f in changed] == [("257", "contradict"), ("1.2", "ok")]
    assert "Average worker machines per job" in changed[0].message
    same = check_numbers("The average job used 157 worker machines.", ev)
    assert [f.effect for f in same] == ["ok"]
    # A count whose noun the row label does not name is only unreported.
    other = check_numbers("The average job read 257 files.", ev)
    assert [f.effect for f in other] == ["partial"]


def test_an_aim_hedges_no_finding() -> None:
    # JAMA 2015 (early screening for patent ductus arteriosus): the objective names an
    # association; it states no finding that the claim could overstate.
    claim = "Early patent ductus arteriosus screening decreases in-hospital mortality."
    aim = (
        "OBJECTIVE To evaluate the association between early screening echocardiography for "
        "patent ductus arteriosus and in-hospital mortality."
    )
    assert check_hedging(claim, aim) == []
    finding = (
        "Early screening echocardiography for patent ductus arteriosus may be associated with "
        "lower in-hospital mortality."
    )
    assert [f.effect for f in check_hedging(claim, finding)] == ["partial"]


def test_a_shortened_sentence_keeps_the_clause_it_states() -> None:
    # HealthVer / CORD-19 abstracts: a faithful summary drops the clause that negates or
    # conditions another statement; a real flip of the clause it keeps still conflicts.
    ev = (
        "Myocardial injury is significantly associated with fatal outcome of COVID-19, while "
        "the prognosis of patients with underlying CVD but without myocardial injury is "
        "relatively favorable."
    )
    kept = "Myocardial injury is significantly associated with fatal outcome of COVID-19."
    assert [f for f in run_checks(kept, ev) if f.effect == "contradict"] == []
    flipped = "Myocardial injury is not significantly associated with fatal outcome of COVID-19."
    assert "negation" in {f.check for f in run_checks(flipped, ev) if f.effect == "contradict"}
    # A word said twice on both sides is read in order: the first "regulated" is negated.
    size = (
        "We found that this mechanism for controlling cortical size is regulated cell "
        "autonomously in culture, suggesting that primate cerebral cortex size is regulated at "
        "least in part at the level of individual cortical progenitor cell clonal output."
    )
    negated = size.replace("is regulated cell", "is not regulated cell")
    assert [f.effect for f in check_restatement(negated, size)] == ["contradict"]
    mice = (
        "Therefore, we designed a large intestine-targeted oral delivery with pH-dependent "
        "microparticles containing vaccine nanoparticles, which induced colorectal immunity in "
        "mice comparably to colorectal vaccination."
    )
    designed = (
        "Therefore, we designed a large intestine-targeted oral delivery with pH-dependent "
        "microparticles containing vaccine nanoparticles."
    )
    assert check_conditions(designed, mice) == []
    immunity = "The oral delivery induced colorectal immunity comparably to colorectal vaccination."
    assert [(f.effect, f.evidence_text) for f in check_conditions(immunity, mice)] == [
        ("partial", "in mice")
    ]


def test_a_strong_word_the_evidence_repeats_next_to_the_same_word_is_no_overclaim() -> None:
    ev = (
        "However, masks alone may not greatly slow down the COVID-19 pandemic unless they are "
        "coupled with adequate social distancing, diligent hand hygiene, and other proven "
        "preventive measures."
    )
    assert check_hedging(ev.removeprefix("However, ").capitalize(), ev) == []
    assert [f.effect for f in check_hedging("Masks alone are proven to slow the pandemic.", ev)]


def test_a_positive_against_a_negative_correlation_is_a_reversal() -> None:
    # PLoS ONE 2018 (wheat under heat stress), p. 13.
    ev = (
        "Metabolites that showed an increase in concentration in heat-stressed plants exhibited "
        "negative correlations with yield, SPAD, and FV/FM (Tables 5 and 6)."
    )
    claim = "Metabolites that accumulated under heat stress were positively correlated with yield."
    assert [(f.check, f.effect) for f in check_comparatives(claim, ev)] == [
        ("comparative", "contradict")
    ]
    assert check_comparatives(claim.replace("positively", "negatively"), ev) == []
    # "PCR positive" is a test result, not the sign of a relation.
    tested = "Patients who were PCR positive had higher mortality."
    assert check_comparatives(tested, tested.replace("positive", "negative")) == []


def test_restatement_negation_flip_needs_one_restating_sentence() -> None:
    # GAN anomaly-detection survey (shared corpus), three sentences joined for a compound claim.
    joined = (
        "The main contribution of the EGBAD is to allow computing the anomaly score without "
        "optimization steps during the inference as it happens in AnoGAN (Schlegl et al., 2017). "
        "Recently, Akcay et al. (2018) advanced a GAN + autoencoder based approach that exceeded "
        "EGBAD performance from both evaluation metrics and execution speed. Efficient GAN-Based "
        "Anomaly Detection (EGBAD) (Zenati et al., 2018) brings the BiGAN architecture to the "
        "anomaly detection domain."
    )
    claim = (
        "EGBAD brings the BiGAN architecture to anomaly detection so that the anomaly score can "
        "be computed without AnoGAN's optimisation steps at inference, and GANomaly, a GAN "
        "combined with an autoencoder, was reported to exceed EGBAD in both evaluation metrics "
        "and execution speed."
    )
    assert [f for f in check_restatement(claim, joined) if f.effect == "contradict"] == []
    # One sentence restated with a "not" added is still a flip.
    one = "Recently, a GAN + autoencoder based approach exceeded EGBAD performance."
    flipped = "Recently, a GAN + autoencoder based approach did not exceed EGBAD performance."
    assert [f.effect for f in check_restatement(flipped, one)] == ["contradict"]
    # The same denial after the word instead of before it is no flip.
    ev = "Expository writing adds new information that does not exist in the source documents."
    said = "Expository writing adds new information: the source documents do not contain it."
    assert [f for f in check_restatement(said, ev) if f.effect == "contradict"] == []


def test_a_count_spelled_out_from_eleven_up_is_a_figure_of_the_claim() -> None:
    # Natural image denoising with convolutional networks (shared corpus), p. 4.
    ev = "CN2 is learned using a training set with an additional sixty images."
    changed = check_numbers("CN2 adds another eighty images.", ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in changed] == [
        ("contradict", "eighty", "sixty")
    ]
    assert {f.effect for f in check_numbers("CN2 adds another 60 images.", ev)} == {"ok"}
    # Small counts stay words: "two groups" is no figure the evidence has to state.
    assert check_numbers("The two groups differed.", "The groups differed in age.") == []


def test_the_larger_side_named_without_than() -> None:
    # Atlantic sharpnose sharks (shared corpus), p. 4.
    ev = (
        "In recaptures with both direct and backtransformed age estimates, backtransformed age "
        "estimates were significantly larger (paired t-test, t = 4.82, P = 0.02) (Table 1)."
    )
    swapped = (
        "Where both estimates were available, the direct vertebral ages were significantly "
        "larger than the backtransformed ones."
    )
    found = check_comparatives(swapped, ev)
    assert [(f.effect, f.claim_text, f.evidence_text) for f in found] == [
        ("contradict", "larger", "larger")
    ]
    kept = swapped.replace("direct vertebral", "backtransformed").replace(
        "the backtransformed ones", "the direct ones"
    )
    assert check_comparatives(kept, ev) == []
    # Both sides named as the larger one: no side is swapped.
    both = "In both males and females, males and females were larger after feeding."
    assert check_comparatives("Males were larger than females.", both) == []


def test_a_sex_is_a_population_and_whatever_widens() -> None:
    # Atlantic sharpnose sharks (shared corpus), p. 4.
    ev = (
        "From direct age estimates, R. terraenovae observed maximum longevity increased by "
        "9.5 years for males (previously 9+ years [Loefer & Sedberry, 2003])."
    )
    dropped = "Direct ageing extended the observed maximum longevity of the shark by 9.5 years."
    assert [f.evidence_text for f in check_conditions(dropped, ev)] == ["for males"]
    kept = dropped.replace("by 9.5 years", "by 9.5 years for males")
    assert check_conditions(kept, ev) == []
    # A circumstance reworded is kept (TIMP, shared corpus, p. 23).
    same = "The datasets were measured under the same experimental conditions."
    assert check_conditions("The datasets were recorded under the same conditions.", same) == []
    assert check_conditions("The datasets were recorded.", same) != []
    widened = "Advice improves diet during pregnancy whatever a woman's body mass index."
    narrow = "Advice improves diet during pregnancy in women who are overweight or obese."
    assert [f.claim_text for f in check_conditions(widened, narrow)] == [
        "whatever a woman's body mass index"
    ]


def test_a_denial_the_evidence_also_affirms_decides_nothing() -> None:
    # Recruiting smokers (EARS trial, shared corpus), p. 5: both cases are reported.
    ev = (
        "Invitations sent from primary care (with no follow-up telephone calls, n = 361) led to "
        "5.1% of those invited being randomized into the study. With attempted contact by "
        "follow-up telephone calls to non-responders (n = 485) this proportion increased to 8.8%."
    )
    claim = "The proportion rose to 8.8% with follow-up telephone calls to non-responders."
    assert check_negation(claim, ev) == []
    # Only the denial: a conflict.
    denied = ev.split(". With")[0] + "."
    assert [f.effect for f in check_negation(claim, denied)] == ["contradict"]


def test_p_of_zero_or_one_is_a_parameter_not_a_p_value() -> None:
    # Prisoner's dilemma phase transitions (shared corpus), p. 2: p is a propensity.
    claim = "One of them occurs at p = 1 for b < bc."
    ev = "This is also the case for b >= bc if collaboration is completely absent (p = 0)."
    assert check_numbers(claim, ev) == []
    assert [q.kind for q in parse_quantities("the difference (p = 0.03) and p = 1.0")] == ["p", "p"]


def test_turned_out_ability_and_recommendation_are_no_hedges() -> None:
    # Phrase generation in distributional semantics (shared corpus), p. 5.
    easier = "Decomposing composed rather than observed phrase representations is easier."
    said = "Composed representations prove easier to decompose than observed ones."
    assert check_hedging(said, easier) == []
    # Multi-contact FES (shared corpus): past ability, not a possibility.
    could = "Complete extension of all fingers could be achieved with 66% of the selected patterns."
    assert check_hedging(could.replace("could be", "was"), could) == []
    # Sharks (shared corpus): a recommendation restated as one.
    should = "Future studies should tag neonate sharks in the hope of recapturing them."
    claim = "They recommend that future studies tag neonate sharks in the hope of recapturing them."
    assert check_hedging(claim, should) == []
    stated = "Future studies tag neonate sharks in the hope of recapturing them."
    assert [f.evidence_text for f in check_hedging(stated, should)] == ["should"]
    # Proof is still proof.
    assert [
        f.claim_text
        for f in check_hedging(
            "The results prove that the drug works.", "The results suggest that the drug works."
        )
    ] == ["prove"]


def test_an_adjective_between_a_number_and_its_unit() -> None:
    # LIMIT trial (shared corpus), p. 7: "an additional 15 to 20 minutes brisk walking".
    ev = "This represented an additional 15 to 20 minutes brisk walking on most days."
    claim = "It corresponds to 15 to 20 extra minutes of brisk walking on most days."
    assert {f.effect for f in check_numbers(claim, ev)} == {"ok"}
    assert [f.effect for f in check_numbers(claim.replace("20 extra", "25 extra"), ev)] == [
        "ok",
        "contradict",
    ]
    assert [(q.value, q.unit) for q in parse_quantities("12 additional patients")] == [
        (12.0, "patient")
    ]


def test_a_unit_that_opens_a_compound_word_is_the_unit() -> None:
    # Frazier et al. 2015, p. 4: "over 12.1 years-at-liberty this shark grew 28 mm".
    found = parse_quantities("over 12.1 years-at-liberty this shark grew 28 mm")
    assert [(q.value, q.unit) for q in found] == [(12.0 + 0.1, "year"), (28.0, "mm")]
    claim = "Over its 12.1 years at liberty it grew only 28 mm."
    ev = "over 12.1 years-at-liberty this shark grew 28 mm (2.3 mm/year)."
    assert {f.effect for f in check_numbers(claim, ev)} == {"ok"}
    # A one-letter unit is a letter in a compound: "s-shaped" is no second.
    assert [q.unit for q in parse_quantities("5 s-shaped curves")] != ["s"]


def test_what_respondents_suggested_is_an_answer_not_a_hedge() -> None:
    # Barriers to quality improvement at Kamuzu Central Hospital, Malawi, p. 3.
    ev = (
        "Out of the 82 respondents answering this question, 41% of them cited 'staff "
        "performance' as the major problem, 27% suggested 'patient focus' in this regard."
    )
    claim = "Of 82 respondents, 41% pointed to staff performance and 27% to patient focus."
    assert check_hedging(claim, ev) == []
    answered = "Respondents suggested longer opening hours for the clinic."
    shown = "The survey showed that longer opening hours were needed for the clinic."
    assert check_hedging(shown, answered) == []
    # A study or an experiment that suggests still hedges.
    for hedged in (
        "Experiment 2 suggested longer opening hours for the clinic.",
        "These data suggested longer opening hours for the clinic.",
    ):
        found = check_hedging(shown, hedged)
        assert [f.evidence_text for f in found] == ["suggested"]


def test_a_correlation_function_is_a_name_not_a_hedge() -> None:
    # An Improved Multi-Output Gaussian Process RNN ... for Early Sepsis Detection, p. 4.
    ev = (
        "kt is a shared correlation function across time and KM is a M×M positive-definite "
        "matrix specifying the covariances between outputs."
    )
    claim = "The Gaussian process uses a shared correlation function across time."
    assert check_hedging(claim, ev) == []
    stated = "Sleep duration showed a correlation with mood across time."
    assert [f.evidence_text for f in check_hedging("Sleep duration raises mood.", stated)] == [
        "correlation"
    ]


def test_a_claim_reporting_the_authors_view_does_not_overclaim() -> None:
    # Split Sex Ratios in Perennial Social Hymenoptera, p. 7.
    ev = (
        "If the average worker longevity is about 4 mo, worker turnover per annual "
        "reproductive cycle should therefore be three times the actual colony population."
    )
    claim = (
        "With an average worker longevity of about 4 mo, the authors reckon that worker "
        "turnover per annual reproductive cycle is three times the colony population."
    )
    assert check_hedging(claim, ev) == []
    plain = claim.replace("the authors reckon that ", "")
    assert [f.evidence_text for f in check_hedging(plain, ev)] == ["should"]
    # A word of proof inside the reported view still overclaims.
    proof = claim.replace("reckon that", "argue that this proves")
    assert [f.claim_text for f in check_hedging(proof, ev)] == ["proves"]


def test_a_caveat_the_authors_give_is_their_view_not_an_overclaim() -> None:
    # A Survey on GANs for Anomaly Detection, p. 5.
    ev = (
        "The results shown in the following sections are the best empirically obtained among "
        "all the tests carried out and do not necessarily derive from the configurations of "
        "the networks that at a theoretical level should be the correct ones."
    )
    claim = (
        "The authors caution that the reported numbers are the best obtained across many "
        "configurations and need not come from the network setups that are correct in theory."
    )
    assert check_hedging(claim, ev) == []
    plain = claim.replace("The authors caution that the", "The")
    assert [f.evidence_text for f in check_hedging(plain, ev)] == ["should"]


def test_what_ought_to_be_done_next_is_no_hedge_but_an_expected_value_is() -> None:
    # Disk-Based Storage for Scalable Video, p. 12.
    ev = (
        "Finally, we have not addressed the issue of redundancy in the context of "
        "interleaving, and this should be resolved for a commercially viable system."
    )
    claim = (
        "The authors leave redundancy in interleaved systems as an open issue for a "
        "commercially viable server."
    )
    assert check_hedging(claim, ev) == []
    assert (
        check_hedging(claim, ev.replace("this should be resolved", "future work should explore it"))
        == []
    )
    # Split Sex Ratios in Perennial Social Hymenoptera, p. 7: "should" as an expectation hedges.
    expected = (
        "If the average worker longevity is about 4 mo, worker turnover per annual "
        "reproductive cycle should therefore be three times the actual colony population."
    )
    plain = "Worker turnover per annual reproductive cycle is three times the colony population."
    assert [f.evidence_text for f in check_hedging(plain, expected)] == ["should"]


def test_agreement_with_earlier_work_is_no_hedge_but_consistency_with_a_hypothesis_is() -> None:
    # How to make words with vectors: Phrase generation in distributional semantics, p. 4.
    ev = (
        "cbow significantly outperforms count (0.80 vs. 0.72 Spearman correlations with human "
        "judgments). count performance is consistent with previously reported results."
    )
    claim = "On the MEN word similarity set cbow beats count with Spearman correlations of 0.80 against 0.72."
    assert check_hedging(claim, ev) == []
    hedged = ev.replace("previously reported results", "the hypothesis that counts matter")
    assert [f.evidence_text for f in check_hedging(claim, hedged)] == ["consistent"]


def test_a_measured_probability_is_no_hedge_but_a_likely_explanation_is() -> None:
    # An Improved Multi-Output Gaussian Process RNN for Early Sepsis Detection, p. 3.
    ev = (
        "Latent function values from the process can then be fed into a deep recurrent neural "
        "network (RNN) classifier to predict how likely it is that a patient will acquire sepsis."
    )
    claim = "An RNN classifier predicts whether a patient will acquire sepsis."
    assert check_hedging(claim, ev) == []
    compared = "Smokers were more likely to relapse than non-smokers."
    assert check_hedging("Smokers relapsed more often than non-smokers.", compared) == []
    hedged = "The effect is most likely due to the intervention."
    assert [
        f.evidence_text for f in check_hedging("The effect is due to the intervention.", hedged)
    ] == ["likely"]


def test_the_potential_one_is_a_label_not_a_hedge() -> None:
    # Mobile phone feedback and EEG (shared corpus), p. 4.
    ev = (
        "This value was determined by taking the time difference between the fourth entered "
        "digit of each PIN, the potential digit giving feedback, and the hit of the Next button."
    )
    claim = "The value was the time between the fourth digit of each PIN and the Next button."
    assert check_hedging(claim, ev) == []
    # A capacity or a candidate cause still hedges.
    for hedged in (
        "ES cells have the potential to form all three germ layers.",
        "Smoking is a potential cause of cancer.",
    ):
        plain = hedged.replace("have the potential to form", "form").replace("a potential", "a")
        assert [f.evidence_text for f in check_hedging(plain, hedged)] == ["potential"]


def test_a_value_takes_the_unit_of_its_spread() -> None:
    # Fragment-based design of N-domain-selective ACE inhibitors, p. 1 ("+−" is the PDF's ±).
    ev = "Compound 33RE displayed potent inhibition (Ki = 11.21 +−0.74 nM)."
    assert [(q.value, q.unit) for q in parse_quantities(ev)] == [(11.21, "nM"), (0.74, "nM")]
    # A changed mean is set against the mean, not against its spread.
    changed = check_numbers("Compound 33RE inhibited with a Ki of 14.5 nM.", ev)
    assert [(f.effect, f.evidence_text) for f in changed] == [("contradict", "11.21")]
    # Two values with units of their own stay as they are.
    assert [(q.value, q.unit) for q in parse_quantities("45.2 kg and 3 cm")] == [
        (45.2, "kg"),
        (3.0, "cm"),
    ]


def test_a_figure_changed_in_a_list_is_read_against_the_figure_in_its_place() -> None:
    # Futoma et al. 2017 (MGP-RNN for sepsis), section 5: the claim leaves the unit of its
    # last two figures unsaid, so only their place in the list ties them to the evidence's.
    evidence = (
        "At 4 hours prior to sepsis, our best model only had about 1.4 false alarms per true "
        "alarm, at a very high sensitivity of 80%; compare this to the 2.2 false alarms the base "
        "MGP-RNN has, and the 3.2 false alarms that the NEWS score that was previously "
        "implemented at our hospital had."
    )
    claim = (
        "Four hours before sepsis, at a sensitivity of 80%, the best model raised about 1.4 false "
        "alarms per true alarm, against 2.2 for the base MGP-RNN and 3.8 for the NEWS score."
    )
    (changed,) = [f for f in check_numbers(claim, evidence) if f.claim_text == "3.8"]
    assert changed.effect == "contradict" and changed.evidence_text == "3.2"
    assert all(f.effect == "ok" for f in check_numbers(claim.replace("3.8", "3.2"), evidence))
    # A figure after the last one the evidence lists is unreported, not changed (Trials 2015).
    recruited = (
        "Smokers were recruited through mailed invitations from three primary care practices "
        "(62 participants) and one National Health Stop Smoking Service (SSS) database "
        "(31 participants)."
    )
    three = "They randomized 62 through primary care, 31 through the SSS and 6 through other approaches."
    (six,) = [f for f in check_numbers(three, recruited) if f.claim_text == "6"]
    assert six.effect == "partial"


def test_a_word_that_narrows_the_population_is_a_condition_the_claim_can_drop() -> None:
    # Trials 2015 (recruiting smokers into a pilot trial), abstract conclusions.
    evidence = (
        "Conclusions: Mailed invitations, and follow-up, from health professionals was an "
        "effective method of recruiting disadvantaged smokers into a trial of an exercise "
        "intervention to aid smoking reduction."
    )
    claim = (
        "Mailed invitations followed up by health professionals are an effective method of "
        "recruiting smokers into clinical trials."
    )
    (dropped,) = [f for f in check_conditions(claim, evidence) if f.effect == "partial"]
    assert dropped.evidence_text == "disadvantaged smokers"
    kept = claim.replace("recruiting smokers", "recruiting disadvantaged smokers")
    assert not [f for f in check_conditions(kept, evidence) if f.effect == "partial"]
    # A claim that narrows the population in words of its own is the entity check's business.
    own = claim.replace("recruiting smokers", "recruiting heavy smokers")
    assert not [f for f in check_conditions(own, evidence) if f.effect == "partial"]


def test_a_finding_the_evidence_confines_to_one_case_is_not_said_of_both() -> None:
    # Robust matrix decomposition (Agarwal, Negahban and Wainwright), abstract.
    evidence = (
        "Our theory yields Frobenius norm error bounds for both deterministic and stochastic "
        "noise matrices, and in the latter case, they are minimax optimal."
    )
    claim = (
        "Their Frobenius norm error bounds cover both deterministic and stochastic noise "
        "matrices and are minimax optimal in both cases."
    )
    (wider,) = [f for f in check_conditions(claim, evidence) if f.effect == "partial"]
    assert (wider.claim_text, wider.evidence_text) == ("in both cases", "in the latter case")
    narrow = claim.replace("in both cases", "for stochastic noise")
    assert not [f for f in check_conditions(narrow, evidence) if f.effect == "partial"]


def test_a_claim_is_not_stronger_than_evidence_that_uses_its_verb_in_another_form() -> None:
    # Scheduling problems in transportation networks of line topology, section 3: "we show"
    # opens the sentence, but the policy is what the authors "prove" optimal.
    evidence = (
        "In this section we show that no on-line algorithm exists for optimally solving the "
        "two-directional version of the MinSum problem, and base a 2-approximation algorithm on "
        "the ShortestToGo policy (STG for short), which we prove to be and optimal on-line "
        "algorithm for the uni-directional version of the problem."
    )
    claim = (
        "For MinSum, the local ShortestToGo policy, which lets the car with the least remaining "
        "distance cross first, is proved optimal when all cars move in one direction."
    )
    assert check_hedging(claim, evidence) == []
    shown = (
        "In this section we show that the ShortestToGo policy is an optimal on-line algorithm "
        "for the uni-directional version of the MinSum problem, where all cars move in one "
        "direction."
    )
    (stronger,) = check_hedging(claim, shown)
    assert (stronger.claim_text, stronger.evidence_text) == ("proved", "show")


def test_an_interval_of_another_estimate_is_no_changed_interval() -> None:
    # BMC Medicine 2014 (LIMIT trial, diet and physical activity), abstract and Table 6: the
    # claim reports the household-activity result, the sentence the total-activity one.
    total = (
        "Women randomised to Lifestyle Advice also demonstrated greater total physical activity "
        "(adjusted difference in means 359.76 metabolic equivalent task units (MET) "
        "minutes/week; 95% CI 74.87 to 644.65; P = 0.01) compared with women receiving "
        "Standard Care."
    )
    claim = (
        "Compared with Standard Care, women receiving Lifestyle Advice increased their "
        "household activity by an adjusted 265.60 MET-minutes per week (95% CI 61.36 to 469.84)."
    )
    assert {f.effect for f in check_numbers(claim, total)} == {"partial"}
    # Read together with the table row that gives the claim's result, still no conflict.
    row = "0.01 265.60 (61.36 to 469.84)"
    assert "contradict" not in {f.effect for f in check_numbers(claim, f"{total} {row}")}
    # The same estimate with another interval is a changed interval.
    changed = claim.replace("265.60", "359.76")
    (interval,) = [f for f in check_numbers(changed, total) if f.claim_text.startswith("95%")]
    assert interval.effect == "contradict"


@pytest.mark.parametrize(
    ("claim", "evidence", "weaker"),
    [
        # One step below "shows", how a paper words its conclusion: a summary may state it.
        (
            "Remote monitoring reduced readmissions in heart failure.",
            "These results suggest that remote monitoring reduces readmissions in heart failure.",
            None,
        ),
        (
            "Remote monitoring reduced readmissions in heart failure.",
            "Remote monitoring appears to reduce readmissions in heart failure.",
            None,
        ),
        # Two steps below, association read as effect, a certainty the claim names, a cause.
        (
            "Remote monitoring reduced readmissions in heart failure.",
            "Remote monitoring may reduce readmissions in heart failure.",
            "may",
        ),
        (
            "Remote monitoring reduced readmissions in heart failure.",
            "Remote monitoring was associated with fewer readmissions in heart failure.",
            "associated",
        ),
        (
            "The trial demonstrated that remote monitoring reduces readmissions in heart failure.",
            "These results suggest that remote monitoring reduces readmissions in heart failure.",
            "suggest",
        ),
        (
            "The authors take the drop in readmissions as proof that remote monitoring works.",
            "The drop in readmissions suggests that remote monitoring works.",
            "suggests",
        ),
        # An association both state is no hedge; proof of it still overclaims.
        (
            "Their analysis reveals a link between monitoring and fewer readmissions.",
            "Remote monitoring was associated with fewer readmissions in heart failure.",
            None,
        ),
        (
            "The trial proves that monitoring is linked to fewer readmissions.",
            "Remote monitoring was associated with fewer readmissions in heart failure.",
            "associated",
        ),
        (
            "The drop in heart failure readmissions was caused by remote monitoring.",
            "These data suggest that remote monitoring lowers readmissions in heart failure.",
            "suggest",
        ),
    ],
)
def test_how_far_a_claim_may_state_a_hedged_conclusion(
    claim: str, evidence: str, weaker: str | None
) -> None:
    found = check_hedging(claim, evidence)
    assert [f.evidence_text for f in found] == ([weaker] if weaker else [])


@pytest.mark.parametrize(
    ("claim", "evidence", "contradicts"),
    [
        # The converse says the same: sides swapped and the direction turned.
        (
            "Smokers had a higher risk of cancer than non-smokers.",
            "Non-smokers had a lower risk of cancer than smokers.",
            False,
        ),
        (
            "Smokers had a higher risk of cancer than non-smokers.",
            "Non-smokers had a higher risk of cancer than smokers.",
            True,
        ),
        # The passive names the winner after "by".
        (
            "The new method outperformed the baseline.",
            "The baseline was outperformed by the new method.",
            False,
        ),
        (
            "The baseline outperformed the new method.",
            "The baseline was outperformed by the new method.",
            True,
        ),
    ],
)
def test_a_comparison_read_the_other_way_round(
    claim: str, evidence: str, contradicts: bool
) -> None:
    found = [f for f in check_comparatives(claim, evidence) if f.effect == "contradict"]
    assert bool(found) == contradicts


def test_a_name_written_apart_from_its_number_is_the_glued_name() -> None:
    ev = "We conduct experiments on ACE2005 dataset, the standard benchmark for event detection."
    for claim in ("Experiments used the ACE 2005 corpus.", "Experiments used the ACE-2005 corpus."):
        assert [f.effect for f in check_entities(claim, ev) if f.effect != "ok"] == []
    other = check_entities("Experiments used the ACE 2004 corpus.", ev)
    assert [f.claim_text for f in other if f.effect != "ok"] == ["ACE"]


@pytest.mark.parametrize(
    ("claim", "evidence", "contradicts"),
    [
        (
            "Unlike the baseline, the model generalised to new domains.",
            "The baseline failed to generalise to new domains, whereas our model did.",
            False,
        ),
        (
            "The model generalised to new domains.",
            "The model failed to generalise to new domains, whereas the baseline did.",
            True,
        ),
        (
            "The model generalised to new domains.",
            "The model failed to generalise to new domains, but the baseline did not.",
            True,
        ),
    ],
)
def test_a_denial_of_one_case_with_the_other_affirmed_after_it(
    claim: str, evidence: str, contradicts: bool
) -> None:
    assert bool(check_negation(claim, evidence)) == contradicts


# Real sentences of the corpus PDFs (inhaled PGE1 trials, smoker recruitment, village laws).
_PGE1 = (
    "The lowest mean blood pressure recorded during study aerosol administration was 37, 43, "
    "and 45 mmHg in the control, low-dose, and high-dose IPGE1 groups, respectively "
    "(Table 3, Figure 5)."
)
_MAILED = (
    "Overall, approximately 44% and 56% of all mailed invitations went to males and females "
    "respectively, indicating very similar recruitment rates for males (7.3%) and females (7.1%)."
)
_LAWS = (
    "Owing to their nature, village laws referred mainly to pressures and responses (856 and "
    "890 records, respectively, e.g. regulations of grazing)."
)


@pytest.mark.parametrize(
    ("claim", "evidence", "moved"),
    [
        ("In the high-dose IPGE1 group the lowest mean blood pressure was 43 mmHg.", _PGE1, True),
        ("In the high-dose IPGE1 group the lowest mean blood pressure was 45 mmHg.", _PGE1, False),
        ("The control group's lowest mean blood pressure fell to 37 mmHg.", _PGE1, False),
        ("About 56% of the mailed invitations went to males.", _MAILED, True),
        ("About 56% of the mailed invitations went to females.", _MAILED, False),
        ("Village laws referred to responses in 856 records.", _LAWS, True),
        ("Village laws referred to pressures in 856 records and responses in 890.", _LAWS, False),
        ("Responses (890 records) outnumbered pressures (856 records).", _LAWS, False),
    ],
)
def test_a_figure_moved_within_a_respectively_list(claim: str, evidence: str, moved: bool) -> None:
    found = [f for f in run_checks(claim, evidence) if "respectively" in f.message]
    assert bool(found) == moved
    assert all(f.effect == "contradict" for f in found)


def test_a_respectively_list_is_left_alone_where_its_pairing_is_unsure() -> None:
    # Two lists of figures before "respectively": the frame numbers could be the cases.
    video = (
        "The one-rate dropdown is 5 dB down from the requested video, and the two-rate "
        "dropdowns around frames 840 and 910 are 2 and 1 dB down, respectively."
    )
    found = run_checks("The two-rate dropdowns are 2 dB down.", video)
    assert [f.effect for f in found if f.effect != "ok"] == []
    # Figures that are parts of products ("10000 × 10 and 1000 × 10").
    qr = (
        "The QR decomposition is performed on matrices of dimensions 10000 × 10 and 1000 × 10 "
        "in the case of linked and free clp, respectively."
    )
    assert not [
        f
        for f in run_checks("With free clp the matrix has 10 columns.", qr)
        if f.effect == "contradict"
    ]


def test_a_comparison_reads_whose_figure_is_whose_from_a_respectively_list() -> None:
    ev = "Recall for women and men was 0.71 and 0.64, respectively."
    right = check_comparatives("Men had lower recall than women (0.64 vs 0.71).", ev)
    assert [f.effect for f in right] == ["support"]
    wrong = check_comparatives("Men had higher recall than women.", ev)
    assert [f.effect for f in wrong] == ["contradict"]


def test_coordinated_groups_are_both_named() -> None:
    ev = "Mortality in the treated and control groups was 12% and 18%, respectively."
    assert not check_entities("Mortality was 12% in the treated group.", ev)
    assert [f.effect for f in check_entities("Mortality was 12% in the placebo group.", ev)] == [
        "contradict"
    ]


@pytest.mark.parametrize(
    ("claim", "effect"),
    [
        ("S2ORC holds 81.1 million papers.", "ok"),
        ("S2ORC holds about 81 million papers.", "ok"),
        ("S2ORC holds 18.1M papers.", "contradict"),
        ("Its pretraining corpus has 16.4 billion tokens.", "ok"),
        ("Its pretraining corpus has 6.4B tokens.", "contradict"),
    ],
)
def test_a_multiplier_glued_to_a_count(claim: str, effect: str) -> None:
    # S2ORC (ACL 2020), real sentences.
    ev = (
        "The resulting corpus consists of 81.1M papers. The resulting S2ORC pretraining "
        "corpus contains 16.4B tokens, nearly five times larger than the corpus for BioBERT."
    )
    assert [f.effect for f in check_numbers(claim, ev)] == [effect]


def test_a_letter_after_a_number_in_a_name_is_no_multiplier() -> None:
    assert parse_quantities("Exon 4B encodes the kinase domain.") == []
    assert parse_quantities("The wave shown in Figure 2B suggests an early onset.") == []


def test_a_hedge_on_what_the_claim_does_not_say_is_no_overclaim() -> None:
    # CiteSee (CHI 2023): the "could" qualifies the consequences, not the interviews.
    ev = (
        "More specifically, they described how not being aware of closely related prior work "
        "could have severe consequences, even when it was not highly cited globally."
    )
    claim = (
        "In interviews, five researchers described a fear of missing closely related prior work."
    )
    assert check_hedging(claim, ev) == []
    stated = "Not being aware of closely related prior work has severe consequences."
    assert [f.effect for f in check_hedging(stated, ev)] == ["partial"]
    # Stressful life events and dementia (Int Psychogeriatrics 2013): the "suggests" qualifies
    # the whole clause after it, however long.
    ev = (
        "The fact that using these methods to control these potential influences did not alter "
        "the results suggests that a true association between the occurrence of life events and "
        "incidental dementia was not obscured by social withdrawal or memory deficit, factors "
        "that may be expected to exert an influence near dementia onset."
    )
    claim = "This proves that the null finding was not produced by social withdrawal."
    assert [f.effect for f in check_hedging(claim, ev)] == ["partial"]


def test_times_before_a_comparison_is_a_fold() -> None:
    # CiteSee (CHI 2023), a real sentence.
    ev = (
        "Participants in our field deployment study used CiteSee to discover useful prior work "
        "via inline citations around 2.7x more frequently than the 21% found in the prior survey."
    )
    claim = "Participants found useful prior work via inline citations about 2.7 times as often."
    assert [f.effect for f in check_numbers(claim, ev)] == ["ok"]
    assert [q.unit for q in parse_quantities("The probe was measured 3 times per day.")] == ["time"]


def test_a_comparison_of_two_other_sides_does_not_reverse_a_claim() -> None:
    # LONGEVAL (EACL 2023): fine against coarse says nothing of partial annotation.
    ev = (
        "Overall, we find that (1) FINE-grained annotations have lower inter-annotator variance "
        "than COARSE-grained annotations; (2) partially annotating a summary reduces annotator "
        "workload while maintaining accuracy."
    )
    assert check_comparatives("Partial annotation raises inter-annotator variance.", ev) == []
    reversed_ = check_comparatives("Fine-grained annotation raises inter-annotator variance.", ev)
    assert [f.effect for f in reversed_] == ["contradict"]


def test_none_for_a_case_denies_a_predicate_left_out() -> None:
    # CiteSee (CHI 2023): a baseline named in a list is not an effect found for it.
    ev = (
        "Reencountered Citations (System): Our personalized approach that selected citations "
        "also cited by the other two papers. Linear Reading: A non-personalized baseline that "
        "assumes users read papers linearly."
    )
    claim = (
        "The model found positive effects for reencountered citations and none for linear reading."
    )
    assert check_negation(claim, ev) == []
    assert check_negation("Users read no papers linearly.", ev) != []


def test_degrees_traded_between_two_measures() -> None:
    # Wagner et al. 2022 (J Inf Technol), a real sentence.
    ev = (
        "Authors of literature reviews traditionally target a high recall by executing "
        "comprehensive searches and thereby accept very low precision and the corresponding "
        "screening burden."
    )
    swapped = check_comparatives("Review authors aim for high precision and accept low recall.", ev)
    assert [f.effect for f in swapped] == ["contradict"]
    assert (
        check_comparatives("Review authors aim for high recall and accept low precision.", ev) == []
    )
    # Group names are no degrees: "the high dose group" is another group, not a reversal.
    groups = "Patients in the low dose group had fewer side effects than the placebo group."
    assert check_comparatives("The high dose group had fewer side effects.", groups) == []


def test_a_denied_deed_needs_the_deed_on_the_other_side() -> None:
    # LONGEVAL (EACL 2023): naming human evaluation is not running one.
    ev = (
        "To better understand the challenges of human evaluation on long-form summaries (150 "
        "words or longer), we first conduct a comprehensive survey of 162 publications and "
        "preprints on long-form summarization (Section 2)."
    )
    claim = "Of the 162 surveyed papers on long-form summarization, 101 ran no human evaluation."
    assert check_negation(claim, ev) == []
    # CiteSee (CHI 2023): the same deed on both sides is a conflict.
    used = (
        "Participants used both the inline citations and external sources (such as search "
        "engines or social recommendations) to explore and save useful papers."
    )
    found = check_negation("Participants used no search engines to explore papers.", used)
    assert [f.effect for f in found] == ["contradict"]


def test_associated_without_with_describes() -> None:
    # TIMP (J Stat Softw 2007), a real sentence.
    ev = (
        "We let the two components contributing to the data have associated decay rate "
        "parameters .5 and 1, and let the concentrations be measured at 51 timepoints "
        "equidistant in the interval 0-2 ns."
    )
    claim = "The simulated dataset has two components with decay rates of 0.5 and 1."
    assert check_hedging(claim, ev) == []
    linked = "Smoking was associated positively with cancer."
    assert [f.effect for f in check_hedging("Smoking causes cancer.", linked)] == ["partial"]


def test_a_unit_glued_to_a_number_in_another_case_is_mentioned() -> None:
    # Natural Image Denoising with Convolutional Networks (NIPS 2008), a real sentence.
    ev = (
        "We also report wall-clock speed by denoising a 512 × 512 pixel image on a 2.16Ghz "
        "Intel Core 2 processor."
    )
    assert check_entities("Denoising ran on a 2.16 GHz Intel Core 2 processor.", ev) == []
    other = check_entities("Denoising ran on a 2.16 GHz AMD processor.", ev)
    assert [f.claim_text for f in other] == ["AMD"]


def test_a_denied_difference_needs_a_stated_change_on_the_other_side() -> None:
    # Grey seal pups (Behav Ecol Sociobiol 2015), a methods sentence names trials and types.
    ev = (
        "Real-time video footage was decoded after all trials were completed to produce two "
        "types of metric for analysis: (i) frequencies of each behaviour type or aggressive "
        "interactions between the trial animals and (ii) the cumulative time in seconds spent "
        "within a threshold distance of one another."
    )
    claim = "The time pairs spent near each other did not differ significantly between trial types."
    assert check_negation(claim, ev) == []
    stated = "The time pairs spent near each other differed between trial types."
    assert [f.effect for f in check_negation(claim, stated)] == ["contradict"]


def test_a_name_hyphened_to_a_word_is_the_name() -> None:
    # RAPT (AAAI 2022): "kNN-retrieved" names kNN.
    ev = "We retrieve example pairs with kNN and combine prompt tuning with LoRA."
    claim = "RAPT combines prompt tuning, LoRA and kNN-retrieved example pairs."
    assert [f.claim_text for f in check_entities(claim, ev)] == ["RAPT"]


def test_a_step_of_a_derivation_is_no_condition() -> None:
    # Natural Image Denoising with Convolutional Networks (NIPS 2008), a real sentence.
    ev = (
        "If we compare this to Eq. 1, we find that this is equivalent to a convolutional "
        "network in which each hidden layer has the same weights and each feature map directly "
        "receives input from the image."
    )
    claim = "Its mean-field equations amount to a convolutional network whose layers share weights."
    assert check_conditions(claim, ev) == []
    assumed = ev.replace("we compare this to Eq. 1", "the noise is Gaussian")
    assert [f.effect for f in check_conditions(claim, assumed)] == ["partial"]


def test_one_explanation_is_a_hedge_and_reporting_words_are_no_topic() -> None:
    # CiteSee (CHI 2023), a real sentence.
    ev = (
        "One explanation is that the inline citation augmentation provided by CiteSee improved "
        "the efficiency of discovering relevant prior work via inline citations."
    )
    claim = (
        "The authors establish that the augmentation itself caused this gain by making "
        "discovery through inline citations more efficient."
    )
    assert [f.evidence_text for f in check_hedging(claim, ev)] == ["One explanation"]
    hedged = "One possible explanation is that the augmentation improved the efficiency."
    said = "The augmentation possibly improved the efficiency of discovery."
    assert check_hedging(said, hedged) == []


def test_a_frequency_written_in_any_case_is_one_unit() -> None:
    # Natural Image Denoising with Convolutional Networks (NIPS 2008), a real sentence.
    ev = (
        "We also report wall-clock speed by denoising a 512 × 512 pixel image on a 2.16Ghz "
        "Intel Core 2 processor."
    )
    found = check_numbers("Denoising ran on a 2.16 GHz processor.", ev)
    assert [(f.claim_text, f.effect) for f in found] == [("2.16 GHz", "ok")]
    changed = check_numbers("Denoising ran on a 3.16 GHz processor.", ev)
    assert [f.effect for f in changed] in (["partial"], ["contradict"])


def test_a_reversed_direction_read_through_measure_words_and_acronyms(
    scifact_docs: dict[int, list[str]], shared_corpora: Path
) -> None:
    # "rates of X" and "the incidence of X" measure the same X; a noun's target lies further on.
    art = scifact_docs[ART_TB[0]][ART_TB[1]]
    assert "a reduction in the incidence of tuberculosis" in art
    raised = (
        "Antiretroviral therapy increases rates of tuberculosis across a broad range of CD4 strata."
    )
    assert [f.effect for f in check_comparatives(raised, art)] == ["contradict"]
    assert check_comparatives(raised.replace("increases", "reduces"), art) == []
    # The paper abbreviates what the claim spells out: BAT, brown adipose tissue.
    cdca = scifact_docs[CDCA_BAT[0]][CDCA_BAT[1]]
    assert "increased BAT activity" in cdca
    lowered = "Chenodeoxycholic acid treatment decreases brown adipose tissue activity."
    assert [f.effect for f in check_comparatives(lowered, cdca)] == ["contradict"]
    assert check_comparatives(lowered.replace("decreases", "increases"), cdca) == []
    # Said of something absent, the opposite direction agrees: a deficiency of vitamin D that
    # raises a risk is vitamin D that lowers it (the evidence of HealthVer dev row 3354).
    with (shared_corpora / "healthver" / "healthver_dev.csv").open(encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "3354")
    claim = "Vitamin D deficiency contributes to an increased risk of COVID-19."
    assert "reduce the severity of COVID-19" in row["evidence"]
    assert [f for f in check_comparatives(claim, row["evidence"]) if f.effect == "contradict"] == []
    present = "Vitamin D contributes to an increased risk of COVID-19."
    assert [f.effect for f in check_comparatives(present, row["evidence"])] == ["contradict"]


def test_a_claim_in_capitals_has_no_acronyms() -> None:
    from sciverify.entail.checks import _spelled_out_in

    other = "Mortality among young people was low."
    # HealthVer writes some claims in capitals: "MAY" there is a word, not "mortality among
    # young"; a word in capitals inside ordinary text is read as an acronym.
    assert _spelled_out_in("VITAMIN D LEVELS MAY IMPACT COVID-19 MORTALITY RATES", other) == {}
    assert _spelled_out_in("Vitamin D levels in MAY cohorts", other) == {
        "may": {"mortality", "among", "young"}
    }


def test_an_interval_a_table_gives_without_a_label_states_the_claims_ci() -> None:
    # The LIMIT randomised trial (Dodd et al. 2014), p. 14: a row of its physical-activity
    # table, the estimate followed by its interval in brackets.
    row = "Household 0.01 265.60 (61.36 to 469.84)"
    claim = (
        "Women receiving Lifestyle Advice increased their household activity by an adjusted "
        "265.60 MET-minutes per week (95% CI 61.36 to 469.84)."
    )
    found = check_numbers(claim, row)
    assert [(f.effect, f.evidence_text) for f in found] == [
        ("ok", "265.60"),
        ("ok", "(61.36 to 469.84)"),
    ]
    moved = check_numbers(claim.replace("469.84", "496.84"), row)
    assert [f.effect for f in moved] == ["ok", "partial"]
    # A table that writes the interval with a dash, as many do: "1.12 (1.06-1.19)".
    dashed = check_numbers(
        "The odds ratio was 1.12 (95% CI 1.06 to 1.19).", "PM2.5 1.12 (1.06-1.19)"
    )
    assert [f.effect for f in dashed] == ["ok", "ok"]


def test_intervals_of_shares_among_several_intervals(scifact_docs: dict[int, list[str]]) -> None:
    fsh = scifact_docs[FSH[0]][FSH[1]]
    assert "(63%; 95% CI, 50%-73%)" in fsh and "(62%; 95% CI, 57%-66%)" in fsh
    # Bounds written with their "%" make one interval, not three shares ("95%", "50%", "73%").
    same = check_numbers("After 6 cycles, 63% conceived (95% CI, 50%-73%).", fsh)
    assert [(f.effect, f.evidence_text) for f in same] == [
        ("ok", "6"),
        ("ok", "63%"),
        ("ok", "95% CI, 50%-73%"),
    ]
    # Of four intervals at the claim's level, the one after the claim's own estimate (63%) is
    # the one a changed bound changes.
    moved = check_numbers("After 6 cycles, 63% conceived (95% CI, 25%-73%).", fsh)
    assert [(f.effect, f.evidence_text) for f in moved][-1] == ("contradict", "95% CI, 50%-73%")
    # The same bounds at another level are another interval.
    level = check_numbers("After 6 cycles, 63% conceived (90% CI, 50%-73%).", fsh)
    assert [f.effect for f in level][-1] == "contradict"
    # The unit of an interval is its bounds', not its level's: "95 % CI 1.1 to 1.4" is of ratios.
    assert [(q.kind, q.unit) for q in parse_quantities("OR 1.2 (95 % CI 1.1 to 1.4)")] == [
        ("value", ""),
        ("ci", ""),
    ]
    # A bound given as a plain share is the evidence's: "82%, 70% to 89%".
    bounds = check_numbers("After 12 cycles, 82% conceived (70% to 89%).", fsh)
    assert [f.effect for f in bounds] == ["ok", "ok", "ok", "ok"]
    # ... but not a whole number rounded from one: "over 4 years" against "over 2 years" is a
    # changed figure, not the bound "4.39 points".
    sf12 = scifact_docs[SF12[0]][SF12[1]]
    years = check_numbers(sf12.replace("over 2 years", "over 4 years"), sf12)
    assert [(f.effect, f.evidence_text) for f in years if f.effect != "ok"] == [
        ("contradict", "2 years")
    ]
