"""A name or number the deciding sentence leaves out, stated elsewhere in the same paper."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import sciverify as sv
from sciverify.entail.decide import decide
from sciverify.records import EntailProbs, Status
from sciverify.verify.claims import Claim
from sciverify.verify.decision import finding_of, name_gaps
from sciverify.verify.evidence import ClaimCheck, PaperSentences, Span
from sciverify.verify.settings import VerifySettings

# Claim from a labelled draft; sentences from the cited PDF (Low-Power Silicon Strain Sensor
# Based on CMOS Current Reference Topology, pp. 5, 6 and 8).
CLAIM = (
    "The basic circuit with a 10 kΩ polysilicon resistor reached a gauge factor of 324 and a "
    "temperature sensitivity of 52.06 nA/°C while consuming only 28.6 µW."
)
DECIDING = (
    "The basic topology with resistor gives a strain sensitivity of 2.54 nA/µϵ (gauge factor of "
    "324) with a low power consumption of 28.6 µW. The temperature sensitivity was 52.06 nA/°C."
)
RESISTOR = [
    (
        "The first circuit is the β-multiplier with resistor (βR) displayed in Fig. 2.a where "
        "the output current is Ia."
    ),
    "The resistor is made of poly-silicon and reaches a value of 10 kΩ.",
]
CAPTION = (
    "Figure 10: Output current sensitivity to supply voltage of the β-multiplier with resistor "
    "(βR) with regards to the applied strain."
)


def _span(text: str, chunk: str, page: int, paper: str = "strain") -> Span:
    return Span(
        text,
        paper,
        f"{paper}:{chunk}",
        "Low-Power Silicon Strain Sensor",
        page,
        "strain.pdf",
        "result",
        True,
        0.75,
    )


def _check(claim: str, cfg: VerifySettings) -> ClaimCheck:
    deciding = _span(DECIDING, "conclusion", 8)
    d = decide(claim, [(DECIDING, EntailProbs(0.9, 0.05, 0.05), 0.75)], thresholds=cfg.thresholds)
    check = ClaimCheck(Claim("p_001.c1", "p_001", claim, (0, len(claim))), claim)
    check.decision, check.deciding, check.status = d, deciding, d.status
    check.finding = finding_of(d, cfg)
    return check


def _paper(*texts: tuple[str, str, int]) -> list[Span]:
    return [_span(t, c, p) for t, c, p in texts]


def test_a_number_the_paper_states_with_the_claims_words_is_no_gap() -> None:
    cfg = VerifySettings()
    check = _check(CLAIM, cfg)
    assert check.status == Status.partially_supported
    assert check.finding == "unreported_number"  # "10 kΩ" is not in the deciding sentence
    sentences = _paper((CAPTION, "vdd", 6), (RESISTOR[0], "beta", 5), (RESISTOR[1], "beta", 5))
    assert name_gaps(check, sentences, cfg)
    assert check.status == Status.supported and check.finding is None
    # The card shows the deciding sentence and the one that states the resistor's value.
    assert [s.text for s in check.joined] == [DECIDING, RESISTOR[1]]
    assert check.decision.reason.endswith("the paper states '10' elsewhere")


def test_a_number_only_a_figure_number_or_another_paper_gives_stays_a_gap() -> None:
    cfg = VerifySettings()
    # "Figure 10" shares the claim's words but states no resistance.
    check = _check(CLAIM, cfg)
    assert not name_gaps(check, _paper((CAPTION, "vdd", 6), (RESISTOR[0], "beta", 5)), cfg)
    assert check.status == Status.partially_supported
    # The same sentence in another paper does not complete this paper's statement.
    other = [Span(RESISTOR[1], "other", "other:c1", "T", 2, None, "result", False, 0.0)]
    assert not name_gaps(_check(CLAIM, cfg), other, cfg)


def test_a_changed_number_is_contradicted_where_the_paper_states_another() -> None:
    cfg = VerifySettings()
    claim = CLAIM.replace("10 kΩ", "20 kΩ")
    check = _check(claim, cfg)
    assert check.finding == "unreported_number"
    assert name_gaps(check, _paper((RESISTOR[0], "beta", 5), (RESISTOR[1], "beta", 5)), cfg)
    assert check.status == Status.contradicted and check.finding == "number_mismatch"
    assert check.deciding is not None and check.deciding.text == RESISTOR[1]
    # The deciding sentence is still shown, as related evidence.
    assert check.related and check.related[0].text == DECIDING


def test_a_name_the_deciding_sentence_leaves_out_is_found_elsewhere_in_the_paper() -> None:
    # Claim from a labelled draft; sentences from the cited PDF (Did You Notice? Neuronal
    # Processing of Multimodal Mobile Phone Feedback, p. 4).
    cfg = VerifySettings()
    claim = (
        "Antons and colleagues asked 15 right-handed students and university staff, aged 19 "
        "to 30, to type four-digit PINs on a touchscreen smartphone."
    )
    deciding = (
        "Fifteen healthy German students and university staff (11 male) conducted the "
        "experiment. All of them were right-handed with age ranging from 19 - 30 (mean = 24.62 "
        "years)."
    )
    d = decide(claim, [(deciding, EntailProbs(0.9, 0.05, 0.05), 0.75)], thresholds=cfg.thresholds)
    assert d.status == Status.partially_supported

    def check() -> ClaimCheck:
        c = ClaimCheck(Claim("p_001.c1", "p_001", claim, (0, len(claim))), claim)
        c.decision, c.deciding, c.status = d, _span(deciding, "method", 4), d.status
        c.finding = finding_of(d, cfg)
        return c

    assert check().finding == "missing_entity"
    task = (
        "During the experiment the participant’s task was to enter a four-digit personal "
        "identification number (PIN) on a standard touchscreen number pad (see Figure 1)."
    )
    bare = "The PINs were presented on a printed list lying in front of the participants."
    other = "Participants rested for two minutes between blocks."
    assert not name_gaps(check(), _paper((other, "method", 4)), cfg)
    for sentences in ([bare], [task], [other, bare, task]):
        named = check()
        assert name_gaps(named, _paper(*((t, "method", 4) for t in sentences)), cfg)
        assert named.status == Status.supported


def test_paper_sentences_reads_every_chunk_of_one_paper(small_corpus: Path) -> None:
    with sv.open_store(small_corpus, read_only=True) as store:
        pid = store.scalar("SELECT paper_id FROM works LIMIT 1")
        chunks = store.scalar("SELECT count(*) FROM chunks WHERE paper_id = ?", [pid])
        papers = PaperSentences(store)
        sentences = papers(pid)
        assert papers(pid) is sentences  # read once per run
        claim = "Failed retrieval of inferior vena cava filters occurred at a rate of 2.8%."
        best = papers.best(claim, [pid], 3)
    assert len(sentences) > chunks  # chunks hold several sentences each
    assert {s.paper_id for s in sentences} == {pid}
    assert len({s.chunk_id for s in sentences}) == chunks
    assert all(s.page and s.relevance == 0.0 for s in sentences)
    # The best sentences of the whole paper for a claim, ranked by the share they state.
    assert len(best) == 3 and "2.8%" in best[0].text
    assert best[0].relevance >= best[1].relevance >= best[2].relevance > 0


# Bigtable: A Distributed Storage System for Structured Data, p. 7 (one chunk, in order).
BIGTABLE = [
    (
        "Even though we emphasized speed instead of space reduction when choosing our "
        "compression algorithms, this two-pass compression scheme does surprisingly well."
    ),
    (
        "For example, in Webtable, we use this compression scheme to store Web page contents. "
        "In one experiment, we stored a large number of documents in a compressed locality group."
    ),
    "The scheme achieved a 10-to-1 reduction in space.",
    (
        "This is much better than typical Gzip reductions of 3-to-1 or 4-to-1 on HTML pages "
        "because of the way Webtable rows are laid out: all pages from a single host are stored "
        "close to each other."
    ),
]


def _bigtable(claim: str, cfg: VerifySettings) -> ClaimCheck:
    deciding = Span(BIGTABLE[3], "bt", "bt:compression:2", "Bigtable", 7, None, "result", True, 0.7)
    d = decide(claim, [(BIGTABLE[3], EntailProbs(0.9, 0.05, 0.05), 0.7)], thresholds=cfg.thresholds)
    check = ClaimCheck(Claim("p_001.c1", "p_001", claim, (0, len(claim))), claim)
    check.decision, check.deciding, check.status = d, deciding, d.status
    check.finding = finding_of(d, cfg)
    return check


def test_a_number_the_paper_never_states_but_gives_another_value_for_is_contradicted() -> None:
    # Claim from a labelled draft: the retrieved sentence lacks the ratio, the one before it
    # gives another.
    cfg = VerifySettings()
    claim = (
        "In one Webtable experiment the compression scheme still achieved a 7-to-1 reduction "
        "in space, against the 3-to-1 or 4-to-1 that Gzip typically reaches on HTML pages."
    )
    paper = [
        Span(t, "bt", "bt:compression:2", "Bigtable", 7, None, "result", True, 0.0)
        for t in BIGTABLE
    ]
    check = _bigtable(claim, cfg)
    assert check.finding == "unreported_number"
    assert name_gaps(check, paper, cfg)
    assert check.status == Status.contradicted and check.finding == "number_mismatch"
    assert check.deciding is not None and check.deciding.text == BIGTABLE[2]
    assert check.decision is not None and "10-to-1" in check.decision.reason
    # The true ratio is named by that sentence: supported.
    right = _bigtable(claim.replace("7-to-1", "10-to-1"), cfg)
    assert name_gaps(right, paper, cfg) and right.status == Status.supported
    # A rival in a sentence sharing too few of the claim's words accuses nothing.
    far = [paper[0], replace(paper[2], text="A 10-to-1 ratio was chosen."), paper[3]]
    kept = _bigtable(claim, cfg)
    assert not name_gaps(kept, far, cfg) and kept.status == Status.partially_supported


def test_a_result_the_claim_attributes_as_the_background_passage_does_is_reported() -> None:
    from sciverify.verify.decision import _attributed

    # Artificial intelligence and the conduct of literature reviews, p. 2 (related work).
    ev = (
        "has been illustrated recently by Larsen et al. (2019), who estimated that in the IS "
        "field, the number of relevant papers in many research areas easily exceeds 10,000."
    )
    claim = (
        "In information systems research, Larsen et al. estimated that the number of relevant "
        "papers in many research areas easily exceeds 10,000."
    )
    assert _attributed(claim, ev)
    # No author named, or another one: the background passage alone still backs no number.
    assert not _attributed(claim.replace("Larsen et al. estimated", "it is estimated"), ev)
    assert not _attributed(claim.replace("Larsen", "Wagner"), ev)


def test_a_name_the_paper_uses_anywhere_is_its_own() -> None:
    # Claim from a labelled draft; sentences from the cited PDF (SemEAGAT: A Novel Approach by
    # Incorporating Semantic Dependency Graph in Event Detection, pp. 1 and 7).
    cfg = VerifySettings()
    claim = (
        "The authors tuned the hyperparameters on the ACE2005 development set, settling on Adam "
        "with a learning rate of 1e-3 and a batch size of 32."
    )
    deciding = (
        "We set the batch size to 32 and limit the max length of sentence to 50. We adopt Adam "
        "optimizer with a learning rate of 1e-3. The hyperparameters are tuned on the "
        "development set."
    )
    named = "Experiments on ACE2005 show our proposed method can achieve better effectiveness."
    d = decide(claim, [(deciding, EntailProbs(0.9, 0.05, 0.05), 0.75)], thresholds=cfg.thresholds)

    def check(text: str = claim) -> ClaimCheck:
        c = ClaimCheck(Claim("p_001.c1", "p_001", text, (0, len(text))), text)
        dd = decide(
            text, [(deciding, EntailProbs(0.9, 0.05, 0.05), 0.75)], thresholds=cfg.thresholds
        )
        c.decision, c.deciding, c.status = dd, _span(deciding, "setup", 7), dd.status
        c.finding = finding_of(dd, cfg)
        return c

    assert d.status == Status.partially_supported
    assert check().finding == "missing_entity"  # the sentence says "the development set"
    # The paper names it in a sentence that shares none of the claim's other words.
    anywhere = check()
    assert name_gaps(anywhere, _paper((named, "abstract", 1)), cfg)
    assert anywhere.status == Status.supported
    # A name the paper never uses stays a gap: it may be the draft's invention.
    invented = check(claim.replace("settling on Adam", "in Keras, settling on Adam"))
    assert invented.finding == "missing_entity"
    assert not name_gaps(invented, _paper((named, "abstract", 1)), cfg)
    assert invented.status == Status.partially_supported
