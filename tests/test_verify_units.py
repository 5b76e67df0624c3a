"""verify's parts without a corpus: segmentation, citations, claims, logic, consistency, risk."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from sciverify.errors import InputError
from sciverify.records import Card, EntailProbs, Risk
from sciverify.verify import decode_draft, read_draft, verify
from sciverify.verify.cards import downgrade, fact_card, keyword_of, paragraph_risk
from sciverify.verify.citations import Resolver, find_citations, parse_bibtex, strip_citations
from sciverify.verify.claims import extract_claims, skip_reason, split_clauses
from sciverify.verify.classify import paragraph_type
from sciverify.verify.consistency import (
    abbreviation_issues,
    citation_style_issues,
    format_issues,
    symbol_issues,
)
from sciverify.verify.language import guess_language
from sciverify.verify.logic import causal_over_correlational, universal_over_limited
from sciverify.verify.segment import segment
from sciverify.verify.settings import VerifySettings, layers_for

DRAFTS = Path(__file__).parent / "drafts"

MARKDOWN = """---
title: front matter is not prose
---

# Introduction

Iron deficiency anaemia (IDA) is common worldwide. In this section we review the evidence.

Three findings stand out

- eradication of H pylori raised haemoglobin [@huang2010];
- the effect was larger with bismuth; and
- ferritin rose in children.

## Methods

We searched Medline and Embase. The WMD of Hb was 12.88 g/l, and the WMD of SF was 10.05 mg/l [1].

| study | n |
|---|---|
| Choe | 13 |

## References

1. Huang X, Qu X. Iron deficiency anaemia can be improved after eradication of Helicobacter pylori. Postgrad Med J 2010. doi:10.1136/pgmj.2009.089987
"""


# ---------------------------------------------------------------------------- segmentation


def test_spans_are_exact_and_ids_stable() -> None:
    seg = segment(MARKDOWN)
    assert [p.paragraph_id for p in seg.paragraphs] == ["p_001", "p_002", "p_003", "p_004"]
    for p in seg.paragraphs:
        assert MARKDOWN[p.span[0] : p.span[1]] == p.text
    assert "front matter" not in " ".join(p.text for p in seg.paragraphs)
    assert segment(MARKDOWN).paragraphs == seg.paragraphs


def test_headings_give_sections_and_references_are_not_prose() -> None:
    seg = segment(MARKDOWN)
    assert [(p.section, p.section_kind, p.kind) for p in seg.paragraphs] == [
        ("Introduction", "introduction", "text"),
        ("Introduction", "introduction", "list"),
        ("Methods", "methods", "text"),
        ("Methods", "methods", "table"),
    ]
    assert len(seg.references) == 1 and "Helicobacter" in seg.references[0][0]
    ref_text, (s, e) = seg.references[0]
    assert MARKDOWN[s:e] == ref_text


def test_lead_in_fragment_and_list_items_merge_into_one_paragraph() -> None:
    para = segment(MARKDOWN).paragraphs[1]
    assert para.text.startswith("Three findings stand out") and para.text.endswith("children.")
    found = extract_claims(para)
    assert [c.text for c in found.claims] == [
        "Eradication of H pylori raised haemoglobin.",
        "The effect was larger with bismuth.",
        "Ferritin rose in children.",
    ]
    assert ("Three findings stand out", "lead-in") in found.skipped
    assert found.claims[0].citations[0].keys == ("huang2010",)


def test_a_citation_covers_the_uncited_sentences_around_it_in_its_paragraph() -> None:
    text = (
        "Spam was rare in the top five TrustRank buckets. The precision of TrustRank reached "
        "0.86 at this threshold (Gyongyi et al., 2004). Its recall on the sample was 0.55 "
        "at the same threshold. Later work used another seed set for the web (Chen, 2010)."
    )
    claims = extract_claims(segment(text).paragraphs[0]).claims
    own = [c.citations[0].keys if c.citations else () for c in claims]
    context = [c.context_citations[0].keys if c.context_citations else () for c in claims]
    assert own == [(), ("gyongyi:2004",), (), ("chen:2010",)]
    # The opening sentence takes the citation that follows; a later one the one before it.
    assert context == [("gyongyi:2004",), (), ("gyongyi:2004",), ()]
    # A paragraph without a citation leaves its sentences uncited.
    bare = extract_claims(segment(text.split(" (")[0] + ".").paragraphs[0]).claims
    assert all(not c.citations and not c.context_citations for c in bare)


def test_a_paragraph_next_to_a_table_reads_it() -> None:
    seg = segment(MARKDOWN)
    assert seg.paragraphs[2].reads_table and not seg.paragraphs[0].reads_table
    cfg = VerifySettings()
    assert layers_for(cfg, "result", reads_table=True) == ("fact", "logic", "consistency")
    assert layers_for(cfg, "result", reads_table=False) == ("fact", "logic")
    assert layers_for(cfg, "limitation", reads_table=False) == ("logic", "consistency")


def test_a_limitation_paragraph_checks_only_its_cited_claims() -> None:
    from sciverify.verify.pipeline import _to_check, prepare

    text = (
        "Although the protocol aimed at infants with an oxygenation index above 15, every "
        "infant enrolled had a much higher index [@sood2014]. Future trials must randomise "
        "infants as soon as nitric oxide is started.\n\n"
        "A limitation is the small sample; future work will test older infants in 12 centres.\n"
    )
    cfg = VerifySettings()
    state = prepare(text, cfg, None, "draft.md", {})
    cited, uncited = (p.paragraph_id for p in state.paragraphs)
    assert state.types[cited] == state.types[uncited] == "limitation"
    assert "fact" in state.layers[cited] and "fact" not in state.layers[uncited]
    checked = [check.claim.text for check in _to_check(state)]
    assert len(checked) == 1 and "much higher index" in checked[0]
    # Without the exception the routing table alone decides, as DESIGN.md 2.5 has it.
    plain = prepare(text, cfg.model_copy(update={"cited_extra_layers": {}}), None, "d.md", {})
    assert not _to_check(plain)


def test_plain_text_segments_by_blank_lines_and_heading_lines() -> None:
    text = (
        "Introduction\n\nGrey seals recognise pen mates.\nThey fight less with them.\n\n"
        "2. Methods\n\nPups were penned in two groups of six.\n"
    )
    seg = segment(text)
    assert [(p.section, p.text) for p in seg.paragraphs] == [
        ("Introduction", "Grey seals recognise pen mates.\nThey fight less with them."),
        ("2. Methods", "Pups were penned in two groups of six."),
    ]
    assert seg.paragraphs[1].section_kind == "methods"


def test_long_and_multi_topic_blocks_are_split_at_sentences() -> None:
    sentences = [
        f"Sentence number {i} talks about seals and their pups in some detail." for i in range(30)
    ]
    text = " ".join(sentences)
    seg = segment(text, max_tokens=100)
    assert len(seg.paragraphs) > 2
    assert all(text[p.span[0] : p.span[1]] == p.text for p in seg.paragraphs)
    assert "".join(p.text for p in seg.paragraphs).replace(" ", "") == text.replace(" ", "")

    def fake_topics(texts: list[str]) -> list[list[float]]:
        # Two topics as orthogonal unit vectors: the split must fall between them.
        return [[1.0, 0.0] if "seal" in t.lower() else [0.0, 1.0] for t in texts]

    topic = (
        "Seals fight strangers. Seal pups check strangers. Seals calm down with pen mates. "
        "Sharks live long. Shark tags fall off. Shark ages come from vertebrae."
    )
    parts = segment(topic, embed=fake_topics).paragraphs
    assert [p.text.split(".")[0] for p in parts] == ["Seals fight strangers", "Sharks live long"]


# ---------------------------------------------------------------------------- citations


@pytest.mark.parametrize(
    ("text", "style", "keys"),
    [
        ("shown before [@huang2010].", "pandoc", ("huang2010",)),
        ("shown before [see @a2010; @b-2011, p. 4].", "pandoc", ("a2010", "b-2011")),
        ("pups checked more (Robinson et al., 2015).", "author_year", ("robinson:2015",)),
        ("as found (Smith and Jones 2019; Lee, 2018a).", "author_year", ("smith:2019", "lee:2018")),
        ("Robinson et al. (2015) found more checks.", "author_year", ("robinson:2015",)),
        ("De Marchis et al. (2016) stimulated the forearm.", "author_year", ("marchis:2016",)),
        ("as reported [3, 5-7].", "numeric", ("3", "5", "6", "7")),
        ("as reported [^3].", "footnote", ("3",)),
        ("as reported[^dean-2004], and more.", "footnote", ("dean-2004",)),
        ("on 1800 machines².", "superscript", ("2",)),
        ("as reported.¹⁻³", "superscript", ("1", "2", "3")),
        ("as reported,⁴,⁶ before.", "superscript", ("4", "6")),
        ("as reported (ref. 3).", "numeric", ("3",)),
        ("as reported (refs 3–5).", "numeric", ("3", "4", "5")),
        ("as reported [Smith et al., 2020].", "author_year", ("smith:2020",)),
        (
            "ran on 1800 machines [Dean & Ghemawat, 2004](https://doi.org/10.1145/1327452.1327492).",
            "doi",
            ("10.1145/1327452.1327492",),
        ),
        ("as reported ([source](https://arxiv.org/abs/1803.05567)).", "arxiv", ("1803.05567",)),
        (
            "as reported ([Dean, 2004](https://research.google/pubs/)).",
            "author_year",
            ("dean:2004",),
        ),
        ("see doi:10.1186/1752-2897-4-1.", "doi", ("10.1186/1752-2897-4-1",)),
        ("see arXiv:2302.07302v1 for details.", "arxiv", ("2302.07302",)),
    ],
)
def test_each_citation_style_is_found(text: str, style: str, keys: tuple[str, ...]) -> None:
    cites = find_citations(text)
    assert [(c.style, c.keys) for c in cites] == [(style, keys)]
    assert text[cites[0].span[0] : cites[0].span[1]] == cites[0].raw


def test_things_in_brackets_that_are_not_citations() -> None:
    text = (
        "Searches ran (January 1970 to April 2009) with (95% CI 6.03 to 19.74, p<0.001); "
        "see [the link](http://x.org) and ![fig](a.png); in (2009) nothing."
    )
    assert find_citations(text) == []
    # Exponents, not reference numbers.
    text = (
        "An area of 12 m² at 10⁶ cells, a rate of 3 s⁻¹, a volume of 5 Mpc³, Ca²⁺ waves and a "
        "weight f(τ) = (γτ)²."
    )
    assert find_citations(text) == []
    # Counts, labels and enumerations in parentheses (numbered citations use brackets).
    text = "Forests (674), Eq. (3), in two steps: (1) sorting and (2) ranking (4)."
    assert find_citations(text) == []


def test_a_superscript_cites_only_an_entry_of_the_reference_list() -> None:
    # Without a reference list "²" is more likely an exponent than a source: no missing paper.
    cite = find_citations("Both arms were randomised.²")[0]
    assert cite.style == "superscript"
    assert Resolver(None).resolve(cite) == []
    assert Resolver(None, references=["1. Smith J. A title. 2020."]).resolve(cite) == []


@pytest.mark.parametrize(
    "heading",
    [
        "## References",
        "**References**",
        "**References:**",
        "References:",
        "### Sources:",
        "## Citations",
        "*Bibliography*",
        "## **Works cited**",
    ],
)
def test_reference_list_headings_as_assistants_write_them(heading: str) -> None:
    text = (
        "MapReduce jobs ran on about 1800 machines [1].\n\n"
        f"{heading}\n\n"
        "1. Dean J, Ghemawat S. MapReduce: Simplified Data Processing on Large Clusters. 2004.\n"
        "2. Lee K. Another title. 2019.\n"
    )
    seg = segment(text)
    assert [p.text for p in seg.paragraphs] == ["MapReduce jobs ran on about 1800 machines [1]."]
    assert [r[:5] for r, _ in seg.references] == ["1. De", "2. Le"]


def test_a_bold_line_naming_a_section_is_its_heading() -> None:
    seg = segment("Trials were small.\n\n**Limitations**\n\nThe sample was small.")
    assert [(p.text, p.section, p.section_kind) for p in seg.paragraphs] == [
        ("Trials were small.", "", None),
        ("The sample was small.", "Limitations", "limitations"),
    ]
    # Bold words that open a sentence, or a bold phrase that is no section name, stay text.
    seg = segment("**Important:** the drug failed.\n\n**Citations were screened** by two of us.")
    assert [p.text for p in seg.paragraphs] == [
        "**Important:** the drug failed.",
        "**Citations were screened** by two of us.",
    ]
    assert seg.references == ()


def test_a_link_that_cites_leaves_nothing_of_itself_in_the_claim() -> None:
    for text in (
        "MapReduce ran on 1800 machines [Dean & Ghemawat, 2004](https://doi.org/10.1145/1).",
        "MapReduce ran on 1800 machines ([source](https://arxiv.org/abs/1803.05567)).",
        "MapReduce ran on 1800 machines (doi:10.1145/1327452.1327492).",
    ):
        claim = extract_claims(segment(text).paragraphs[0]).claims[0]
        assert claim.text == "MapReduce ran on 1800 machines.", text
    # A link that cites nothing keeps its text.
    plain = "See the [MapReduce paper](https://research.google/pubs/) for 1800 machines."
    claim = extract_claims(segment(plain).paragraphs[0]).claims[0]
    assert claim.text == "See the MapReduce paper for 1800 machines."


def test_footnote_definitions_are_references_not_prose() -> None:
    text = (
        "MapReduce jobs ran on about 1800 machines[^1].\n\n"
        "[^1]: Dean J, Ghemawat S. MapReduce: Simplified Data Processing on Large Clusters. "
        "OSDI 2004.\n"
        "[^note]: Counts exclude idle machines.\n"
    )
    seg = segment(text)
    assert [p.text for p in seg.paragraphs] == ["MapReduce jobs ran on about 1800 machines[^1]."]
    assert [r for r, _ in seg.references] == [
        (
            "[^1]: Dean J, Ghemawat S. MapReduce: Simplified Data Processing on Large Clusters. "
            "OSDI 2004."
        ),
        "[^note]: Counts exclude idle machines.",
    ]
    assert all(text[a:b] == r for r, (a, b) in seg.references)
    claim = extract_claims(seg.paragraphs[0]).claims[0]
    assert claim.text == "MapReduce jobs ran on about 1800 machines."
    # A definition that is only a link parses as a CommonMark link reference; it still counts.
    linked = segment("Jobs ran[^1].\n\n[^1]: https://doi.org/10.1145/1327452.1327492\n")
    assert [r for r, _ in linked.references] == ["[^1]: https://doi.org/10.1145/1327452.1327492"]


def test_strip_citations_keeps_a_readable_sentence() -> None:
    assert (
        strip_citations("Robinson et al. (2015) found more checks [@r2015].")
        == "The study found more checks."
    )
    # A number written without its leading zero keeps the space before it.
    assert (
        strip_citations("an RMS error of .040, then .027 [4].")
        == "an RMS error of .040, then .027."
    )
    # Cards show the draft's own words: the narrative citation stays, the marker goes.
    assert (
        strip_citations("Robinson et al. (2015) found more checks [@r2015].", keep_narrative=True)
        == "Robinson et al. (2015) found more checks."
    )
    para = segment("Roisin and Aron (2003) modelled perennial colonies without dispersal.")
    claim = extract_claims(para.paragraphs[0]).claims[0]
    assert claim.text == "The study modelled perennial colonies without dispersal."
    assert claim.shown == "Roisin and Aron (2003) modelled perennial colonies without dispersal."
    assert (
        strip_citations("Pups checked more (Robinson et al., 2015), as expected.")
        == "Pups checked more, as expected."
    )


def test_bibtex_parsing() -> None:
    bib = parse_bibtex((DRAFTS / "medical_review.bib").read_text())
    assert set(bib) == {"huang2010", "datta2010", "dodd2014", "geerts1994"}
    assert bib["huang2010"].doi == "10.1136/pgmj.2009.089987"
    assert bib["huang2010"].title and "Helicobacter pylori" in bib["huang2010"].title
    assert bib["datta2010"].year == 2010 and bib["datta2010"].first_author == "Datta"
    with pytest.raises(InputError, match="no BibTeX entries"):
        parse_bibtex("just some text", path="refs.bib")
    with pytest.raises(InputError, match="unbalanced braces"):
        parse_bibtex("@article{k, title = {never closed", path="refs.bib")


# ---------------------------------------------------------------------------- claims


def test_a_present_tense_change_carries_its_own_clause_unless_it_changes_it() -> None:
    # extra_physics draft (Baldassarri et al., dense dynamic random graphs, p. 11).
    s = (
        "The basic reproduction number has a closed form, which reduces to a simple product on "
        "a static graph, and it increases with the edge-resampling rate exactly when C exceeds "
        "p0."
    )
    assert [s[a:b] for a, b in split_clauses(s)][-1] == (
        "it increases with the edge-resampling rate exactly when C exceeds p0."
    )
    # "increases it further" changes the solubility of the clause before: one claim.
    joined = (
        "Descriptor explanations indicate that adding heteroatoms increases solubility, and "
        "that adding ring structures increases it further."
    )
    assert split_clauses(joined) == [(0, len(joined))]


def test_coordinated_findings_split_and_shared_subjects_do_not() -> None:
    s = "The WMD of Hb was 12.88 g/l, and the WMD of SF was 10.05 mg/l."
    assert [s[a:b] for a, b in split_clauses(s)] == [
        "The WMD of Hb was 12.88 g/l",
        "the WMD of SF was 10.05 mg/l.",
    ]
    one = "Pups made fewer checks and showed less aggression as time went on."
    assert split_clauses(one) == [(0, len(one))]
    shared = "Eradication raised haemoglobin, and increased ferritin in children."
    assert split_clauses(shared) == [(0, len(shared))]
    inside = "Hb rose (12.88 g/l; 95% CI 6.03 to 19.74) in every trial."
    assert split_clauses(inside) == [(0, len(inside))]
    # A colon before a lower-case clause, and "although", divide like a semicolon.
    colon = (
        "Forest cover has long been traded off against other land uses: in 1870, land use in "
        "Kaszon was 41% forest and 31% hay meadow."
    )
    assert [colon[a:b] for a, b in split_clauses(colon)] == [
        "Forest cover has long been traded off against other land uses",
        "in 1870, land use in Kaszon was 41% forest and 31% hay meadow.",
    ]
    though = "Women reported greater intakes of calcium, although this was not maintained later."
    assert len(split_clauses(though)) == 2
    listing = "Three outcomes were measured: weight, blood pressure and glucose."
    assert split_clauses(listing) == [(0, len(listing))]
    # What a finding is said to prove is a claim of its own, checked for its own strength.
    proof = (
        "Native traces need about 9 cycles per bytecode, a 3.9x speedup, which establishes "
        "that trace compilation produces more efficient native code."
    )
    parts = extract_claims(segment(proof).paragraphs[0]).claims
    assert [c.text for c in parts] == [
        "Native traces need about 9 cycles per bytecode, a 3.9x speedup.",
        "This establishes that trace compilation produces more efficient native code.",
    ]
    ability = (
        "GANs have been applied to model complex distributions of real data, and this ability "
        "demonstrates that they can be used for anomaly detection."
    )
    assert len(split_clauses(ability)) == 2
    relative = "The drug lowered blood pressure, which was measured at 12 weeks."
    assert split_clauses(relative) == [(0, len(relative))]


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("Does eradication help every patient?", "question"),
        ("In this section we review the trauma literature.", "transition"),
        ("The rest of this review is organised as follows.", "transition"),
        ("Next, we turn to thromboprophylaxis.", "transition"),
        ("We will compare the two regimens below.", "intent"),
        ("This review aims to summarise the trials.", "intent"),
        ("This list groups papers on MapReduce and papers on stimulation.", "scope"),
        ("Entries on functional electrical stimulation are limited to the forearm.", "scope"),
        ("The papers included here are restricted to adults.", "scope"),
        ("Entries in the registry were limited to 2010-2015.", None),
        ("Studies of FES are limited to small samples.", None),
        ("Items of the Barthel index cover daily activities.", None),
        ("Three regimens were compared:", "lead-in"),
        ("Results in brief", "fragment"),
        ("The WMD of Hb was 12.88 g/l.", None),
    ],
)
def test_non_claims_are_recognised(sentence: str, reason: str | None) -> None:
    assert skip_reason(sentence) == reason


def test_claim_features() -> None:
    text = (
        "Eradication of H pylori proves to cause a rise in Hb of 12.88 g/l in all children "
        "[@huang2010]."
    )
    para = segment(text).paragraphs[0]
    claim = extract_claims(para).claims[0]
    assert claim.numbers == ("12.88 g",) or claim.numbers[0].startswith("12.88")
    assert "Hb" in claim.entities and "H pylori" in claim.entities
    assert "proves" in claim.hedges and claim.causal and claim.universal
    assert claim.citations[0].keys == ("huang2010",) and not claim.is_simple
    assert text[claim.span[0] : claim.span[1]].startswith("Eradication")
    simple = extract_claims(segment("Each has strengths and weaknesses here.").paragraphs[0])
    assert simple.claims[0].is_simple


def test_paragraph_types_from_headings_and_cues() -> None:
    text = (
        "## Discussion\n\nThe trials agree on the direction of the effect.\n\n"
        "A limitation of these trials is their small sample size, and future research is "
        "needed.\n\n## Methods\n\nWe searched Medline; trials were included if randomised.\n"
    )
    types = [paragraph_type(p) for p in segment(text).paragraphs]
    assert types == ["result", "limitation", "method"]


# ---------------------------------------------------------------------------- logic rules


def test_causal_wording_over_correlational_evidence() -> None:
    ev = "Low glycaemic index diets were associated with lower gestational weight gain."
    assert causal_over_correlational("Low glycaemic index diets cause lower weight gain.", ev)
    assert not causal_over_correlational("Low glycaemic index diets go with lower weight gain.", ev)
    assert not causal_over_correlational("Smoking causes cancer.", "Smoking causes cancer.")


def test_universal_claim_over_limited_evidence() -> None:
    ev = "The approach detected effective stimulation patterns in most subjects."
    assert (
        universal_over_limited("The approach always detected effective patterns.", ev) == "always"
    )
    assert (
        universal_over_limited(
            "All studies were performed in Asia.", "All studies were performed in Asia."
        )
        is None
    )
    assert (
        universal_over_limited(
            "Filters never migrated in trauma patients.",
            "None of the studies reported filter migration.",
        )
        is None
    )


def test_a_label_in_capitals_and_a_frequency_are_no_universal_claim() -> None:
    # SemEAGAT, p. 5: "NONE" names the class of non-events.
    ev = "Event detection is treated as multi-class classification over 34 classes."
    label = (
        "Event detection is framed as a multi-class problem over the 33 ACE2005 event subtypes "
        "plus a NONE class for non-events."
    )
    assert universal_over_limited(label, ev) is None
    assert universal_over_limited(label.replace("NONE class", "class, and none"), ev) == "none"
    # Conspecific recognition in grey seal pups, p. 3: how often the pups were weighed.
    weighed = "Animals were weighed at regular intervals during the trials."
    assert universal_over_limited("Body mass was checked every three days.", weighed) is None
    assert universal_over_limited("Every pup was weighed.", weighed) == "every"


def test_a_supported_every_or_all_is_no_overreach_but_always_is() -> None:
    from sciverify.records import Status
    from sciverify.verify.claims import Claim
    from sciverify.verify.evidence import ClaimCheck, Span
    from sciverify.verify.logic import evidence_logic

    # An Improved Multi-Output Gaussian Process RNN ... for Early Sepsis Detection, p. 7.
    ev = "All RNNs we trained are two-layer LSTMs with 64 hidden units per layer."

    def findings(claim: str, status: str) -> list[str | None]:
        check = ClaimCheck(Claim("p_001.c1", "p_001", claim, (0, len(claim))), claim)
        check.status = status
        check.deciding = Span(ev, "p", "p:c", "T", 7, None, "method", True, 0.8)
        return [c.finding for c in evidence_logic([check], fact_findings={})]

    every = "Every RNN was a two-layer LSTM with 64 hidden units per layer."
    assert findings(every, Status.supported) == []
    # Not supported: the universal is still flagged with the rest.
    assert findings(every, Status.partially_supported) == ["universal_over_limited"]
    always = "The RNNs were always two-layer LSTMs with 64 hidden units per layer."
    assert "universal_over_limited" in findings(always, Status.supported)


# ---------------------------------------------------------------------------- consistency


def _paragraphs(text: str) -> list:
    return list(segment(text).paragraphs)


def test_abbreviation_rules() -> None:
    paras = _paragraphs(
        "The IDA burden is large.\n\nIron deficiency anaemia (IDA) is common.\n\n"
        "Later, iron deficiency amenorrhoea (IDA) was rare.\n\n"
        "Low molecular weight heparin (LMWH) and low molecular weight heparin (LMH) differ.\n"
    )
    found = {(i.paragraph_id, i.finding, i.subject) for i in abbreviation_issues(paras)}
    assert ("p_001", "abbreviation_before_definition", "IDA") in found
    assert ("p_003", "abbreviation_redefined", "IDA") in found
    assert ("p_004", "two_names_one_concept", "LMH") in found


def test_number_format_rules() -> None:
    paras = _paragraphs(
        "Bleeding was 3.9% and HIT 0.7%.\n\nFilters failed in 2.8 percent.\n\n"
        "Recovery was 107,2 units in one assay.\n\nLevels were 5 mg/dl and "
        "7 mg/dl.\n\nOne sample had 9 mg/dL.\n"
    )
    found = {(i.paragraph_id, i.finding) for i in format_issues(paras)}
    assert ("p_002", "mixed_percent_format") in found
    assert ("p_003", "mixed_decimal_separator") in found
    assert ("p_005", "mixed_unit_spelling") in found
    assert not any(pid == "p_001" for pid, _ in found)


def test_citation_style_and_symbol_rules() -> None:
    paras = _paragraphs(
        "A was shown [1]. B too [2].\n\nC was shown (Smith et al., 2020).\n\n"
        "Here N denotes the number of pups.\n\nLater, N denotes the nitrogen "
        "content of plasma.\n"
    )
    styles = citation_style_issues(paras)
    assert [(i.paragraph_id, i.finding) for i in styles] == [("p_002", "mixed_citation_style")]
    symbols = symbol_issues(paras)
    assert [(i.paragraph_id, i.subject) for i in symbols] == [("p_004", "N")]


# ---------------------------------------------------------------------------- cards and risk


def _card(
    layer: str, status: str, finding: str | None = None, claim: str = "x", confidence: float = 0.8
) -> Card:
    return Card(
        paragraph_id="p_001",
        layer=layer,
        status=status,
        confidence=confidence,
        claim=claim,
        keyword="k",
        finding=finding,
    )


def test_an_unverifiable_figure_its_cited_paper_gives_is_no_warning() -> None:
    card = replace(
        _card("fact", "unverifiable", "no_evidence", "Whales sing for 20 minutes."),
        claim_id="p_001.c1",
    )
    assert paragraph_risk([card])[0] == Risk.yellow
    assert paragraph_risk([card], figures_stated={"p_001.c1"})[0] == Risk.blue
    missing = replace(card, finding="cited_paper_missing")
    assert paragraph_risk([missing], figures_stated={"p_001.c1"})[0] == Risk.yellow


@pytest.mark.parametrize(
    ("cards", "risk"),
    [
        ([_card("fact", "supported")], Risk.blue),
        ([_card("fact", "unverifiable", "no_evidence", "Whales sing.")], Risk.blue),
        (
            [_card("fact", "unverifiable", "no_evidence", "Whales sing for 20 minutes.")],
            Risk.yellow,
        ),
        ([_card("fact", "unverifiable", "cited_paper_missing")], Risk.yellow),
        ([_card("fact", "supported"), _card("fact", "partially_supported")], Risk.yellow),
        ([_card("logic", "warning", "causal_over_correlational")], Risk.yellow),
        ([_card("consistency", "warning", "mixed_percent_format")], Risk.blue),
        ([_card("lineage", "warning", "single_source")], Risk.blue),
        ([_card("fact", "partially_supported", "citation_mismatch")], Risk.red),
        ([_card("fact", "partially_supported"), _card("fact", "contradicted")], Risk.red),
    ],
)
def test_risk_mapping(cards: list[Card], risk: Risk) -> None:
    colour, score = paragraph_risk(cards)
    assert colour == risk
    assert {"red": (0.7, 1.0), "yellow": (0.35, 0.65), "blue": (0.0, 0.3)}[colour][0] <= score
    assert score <= {"red": 1.0, "yellow": 0.65, "blue": 0.3}[colour]


def test_downgrade_wordings() -> None:
    from sciverify.entail.checks import run_checks

    claim = "The pooled analysis proves that eradication improves IDA."
    ev = "The pooled analysis suggests that eradication may improve IDA."
    assert (
        downgrade(claim, "strengthened_hedge", run_checks(claim, ev), ev)
        == "The pooled analysis suggests that eradication improves IDA."
    )
    claim = "Antenatal lifestyle advice improves maternal diet."
    ev = "For women who are overweight or obese, antenatal lifestyle advice improves maternal diet."
    assert (
        downgrade(claim, "dropped_condition", run_checks(claim, ev), ev)
        == "Antenatal lifestyle advice improves maternal diet for women who are overweight or obese."
    )
    claim = "The WMD of Hb was 15.88 g/l."
    ev = "The WMD of Hb was 12.88 g/l."
    assert (
        downgrade(claim, "number_mismatch", run_checks(claim, ev), ev)
        == "The WMD of Hb was 12.88 g/l."
    )
    assert "12.88" in keyword_of("The WMD of Hb was 12.88 g/l in children.")


def test_downgrade_of_a_part_s_number_and_of_a_number_the_sentence_needs() -> None:
    from sciverify.records import Finding

    # A finding about one part of a compound claim carries offsets into that part
    # ("SD 21 mmHg" is at 0 in "SD 21 mmHg on low dose").
    sd = Finding("number", "partial", "21 is not in the evidence", (3, 5), None, "21", "")
    claim = "PaO2 rose by 85 mmHg (SD 21 mmHg) on low-dose PGE1."
    assert (
        downgrade(claim, "unreported_number", [sd], "") == "PaO2 rose by 85 mmHg on low-dose PGE1."
    )

    # A condition is appended only as an ending, and never as a second population.
    def cond(text: str) -> Finding:
        return Finding("condition", "partial", "dropped", None, (0, len(text)), "", text)

    fast = "TraceMonkey runs JavaScript programs 2x to 20x faster."
    assert downgrade(fast, "dropped_condition", [cond("amenable to tracing")], "") is None
    stroke = "The approach enabled hand opening in stroke patients."
    assert downgrade(stroke, "dropped_condition", [cond("in healthy subjects")], "") is None
    advice = "Lifestyle advice improves maternal diet."
    assert (
        downgrade(advice, "dropped_condition", [cond("for women who are obese")], "")
        == "Lifestyle advice improves maternal diet for women who are obese."
    )
    # Without its number "fewer than 20 tablet servers" says nothing: no wording is offered.
    n20 = Finding("number", "partial", "20 is not in the evidence", (28, 30), None, "20", "")
    claim = "Most Bigtable clusters are small: 259 of them have fewer than 20 tablet servers."
    assert downgrade(claim, "unreported_number", [n20], "") is None


# ---------------------------------------------------------------------------- bad input


def test_empty_and_binary_drafts(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="the draft is empty"):
        verify("  \n\n ", store=None, settings=None, source="draft.md")
    binary = tmp_path / "paper.pdf"
    binary.write_bytes(b"%PDF-1.4\x00\x01\x02")
    with pytest.raises(InputError, match="binary") as info:
        read_draft(binary)
    assert info.value.path == str(binary)
    with pytest.raises(InputError, match="not UTF-8"):
        decode_draft(b"caf\xe9 au lait", source="notes.txt")
    assert decode_draft("\ufeffHello".encode()) == "Hello"


def test_language_guess() -> None:
    assert (
        guess_language(
            "The pups were penned in two groups and the trials were run daily "
            "for two weeks with all of the animals."
        )
        == "English"
    )
    assert (
        guess_language(
            "Die Welpen wurden in zwei Gruppen gehalten und die Versuche wurden "
            "täglich mit allen Tieren durchgeführt, die nicht krank sind."
        )
        == "German"
    )
    assert (
        guess_language("幼崽被分成两组饲养，试验每天进行，持续两周，所有动物都参加了试验。")
        == "Chinese/Japanese"
    )
    assert guess_language("Too short.") is None


def test_a_block_mixing_two_real_abstracts_splits_between_them_with_the_real_model(
    shared_corpora: Path,
) -> None:
    """The topic split with the packaged sentence embedder, on real SciFact sentences: three of
    an RNA-editing abstract run together with three of a sildenafil trial split where the second
    abstract starts; the whole RNA-editing abstract alone stays one paragraph."""
    import gzip
    import json

    from sciverify.index.dense import Embedder

    wanted = {5953485: None, 39281140: None}
    with gzip.open(shared_corpora / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            if int(doc["doc_id"]) in wanted:
                wanted[int(doc["doc_id"])] = [" ".join(s.split()) for s in doc["abstract"]]
    rna, trial = wanted[5953485], wanted[39281140]
    embedder = Embedder()

    def embed(texts: list[str]) -> list[list[float]]:
        return [list(map(float, v)) for v in embedder.encode_queries(texts)]

    first = " ".join(rna[:3])
    mixed = first + " " + " ".join(trial[:3])
    parts = segment(mixed, embed=embed).paragraphs
    assert [p.span[0] for p in parts] == [0, len(first) + 1]
    assert len(segment(" ".join(rna), embed=embed).paragraphs) == 1


def _conclude_on(
    text: str,
    spans: list[tuple[str, str, object]],
    relevance: float = 0.8,
    cited: bool = False,
    cfg: VerifySettings | None = None,
    section: str = "results",
) -> object:
    """`conclude` for one claim over (sentence, paper title, model probabilities) spans, all of
    one paper; the probabilities are given so that the rule under test is what decides."""
    from sciverify.entail.quantities import parse_quantities
    from sciverify.verify.claims import Claim
    from sciverify.verify.decision import conclude
    from sciverify.verify.evidence import ClaimCheck, Span

    numbers = tuple(q.text_of(text) for q in parse_quantities(text))
    claim = Claim("p_001.c1", "p_001", text, (0, len(text)), numbers=numbers)
    check = ClaimCheck(claim=claim, query=text)
    check.spans = [
        Span(s, "p1", f"p1:{i}", title, 3, None, "result", cited, relevance - 0.1 * i, section)
        for i, (s, title, _) in enumerate(spans)
    ]
    check.probs = [probs for _, _, probs in spans]  # type: ignore[misc]
    conclude(check, cfg or VerifySettings())
    return check


ENTAILED = EntailProbs(entailment=0.9, neutral=0.05, contradiction=0.05)
CONTRARY = EntailProbs(entailment=0.05, neutral=0.35, contradiction=0.6)
UNRELATED = EntailProbs(entailment=0.05, neutral=0.9, contradiction=0.05)


def _paper(title: str, page: int, *sentences: str) -> Callable[[str], list[object]]:
    """The sentences of one paper by its id, as the paper-wide passes of `verify` read them."""
    from sciverify.verify.evidence import Span

    spans = [
        Span(t, "p1", f"p1:{i}", title, page, None, "result", True, 0.5, "methods")
        for i, t in enumerate(sentences)
    ]
    return lambda paper_id: [s for s in spans if s.paper_id == paper_id]


def test_an_entity_the_paper_names_elsewhere_is_not_a_gap() -> None:
    # The Methods sentence of a Trials 2015 abstract never says "EARS"; its title does.
    sentence = (
        "Smokers were recruited through mailed invitations from three primary care practices "
        "(62 participants) and one National Health Stop Smoking Service (SSS) database "
        "(31 participants)."
    )
    title = (
        "Lessons learned from recruiting socioeconomically disadvantaged smokers into a pilot "
        "randomized controlled trial to explore the role of Exercise Assisted Reduction then "
        "Stop (EARS) smoking"
    )
    text = "In the EARS trial, 62 smokers were recruited through mailed invitations."
    named = _conclude_on(text, [(sentence, title, ENTAILED)])
    unnamed = _conclude_on(text, [(sentence, "Recruiting smokers", ENTAILED)])
    assert (unnamed.status, unnamed.finding) == ("partially_supported", "missing_entity")
    assert named.status == "supported"


def test_figures_ordered_against_the_claim_outweigh_a_less_relevant_supporting_sentence() -> None:
    # Stressful life events are not associated with the development of dementia, p. 5.
    figures = (
        "Participants who developed dementia reported a mean of 3.0 (SD = 2.6, range 0–18) "
        "life events, and participants without dementia reported a mean of 3.7 (SD = 3.3, "
        "range 0–30) life events (p < 0.001)."
    )
    other = (
        "Compared with those who did not develop dementia, those who did were older "
        "(p < 0.001) and had lower education (p < 0.001)."
    )
    text = (
        "Participants who went on to develop dementia had reported more life events at "
        "baseline than those who stayed dementia-free (p < 0.001)."
    )
    spans = [(figures, "Life events", ENTAILED), (other, "Life events", ENTAILED)]
    check = _conclude_on(text, spans)
    assert (check.status, check.finding) == ("contradicted", "reversed_direction")
    assert check.deciding is not None and check.deciding.text == figures
    assert _conclude_on(text.replace("more", "fewer"), spans).status == "supported"


def test_a_figure_found_only_in_another_paper_than_the_cited_one_is_a_citation_mismatch() -> None:
    from sciverify.entail.quantities import parse_quantities
    from sciverify.verify.citations import Source
    from sciverify.verify.claims import Claim
    from sciverify.verify.decision import conclude
    from sciverify.verify.evidence import ClaimCheck, Span

    # How to make words with vectors (p. 4) gives the 2.8 billion tokens; the draft cites the
    # Semantic Scholar literature-graph paper for them.
    other = (
        "For both types of vectors we use 2.8 billion tokens as input (ukWaC + Wikipedia + BNC)."
    )
    text = (
        "ScienceParse initialises its word embeddings with 300-dimensional cbow vectors built "
        "with word2vec from 2.8 billion tokens."
    )

    def run(cited: str, sentence: str, probs: EntailProbs = UNRELATED) -> ClaimCheck:
        numbers = tuple(q.text_of(text) for q in parse_quantities(text))
        claim = Claim("p_001.c1", "p_001", text, (0, len(text)), numbers=numbers)
        check = ClaimCheck(claim=claim, query=text, sources=[Source("s2", "[5]", (cited,))])
        check.spans = [
            Span(sentence, "dinu", "dinu:1", "How to make words", 4, None, "method", False, 0.62),
            Span(
                "We parse PDFs with ScienceParse.",
                "ammar",
                "ammar:1",
                "Literature graph",
                2,
                None,
                "method",
                True,
                0.2,
            ),
        ]
        check.probs = [probs, UNRELATED]
        conclude(check, VerifySettings())
        return check

    moved = run("ammar", other)
    assert (moved.status, moved.finding) == ("partially_supported", "citation_mismatch")
    assert moved.deciding is not None and moved.deciding.paper_id == "dinu"
    assert "2.8" in moved.decision.reason
    # Another figure in the other paper's sentence ties nothing to the claim.
    elsewhere = run("ammar", other.replace("2.8 billion", "1.6 billion"))
    assert elsewhere.finding != "citation_mismatch"
    # Related in that paper, not only unverifiable: the figure still shows where it is from.
    related = run("ammar", other, EntailProbs(entailment=0.4, neutral=0.55, contradiction=0.05))
    assert (related.status, related.finding) == ("partially_supported", "citation_mismatch")


def test_a_claim_joining_two_sentences_of_a_paper_is_not_contradicted_by_one() -> None:
    # BMC Health Services Research 2014, p. 3: the claim joins two sentences.
    satisfaction = (
        "Overall satisfaction was very high among interviewees: 59% of the respondents rated "
        "their satisfaction level as 'very good', 40% as 'good' and only 1% as 'poor'."
    )
    responded = "Out of the 100 sampled outpatients, 98 responded and only two declined."
    text = "Of 100 sampled outpatients 98 took part; 59% rated their satisfaction as very good."
    spans = [(satisfaction, "Barriers", CONTRARY), (responded, "Barriers", UNRELATED)]
    joined = _conclude_on(text, spans)
    assert joined.status == "partially_supported" and "every number" in joined.note
    # A number of the claim that is nowhere in the paper leaves the model's reading standing.
    assert _conclude_on(text.replace("98", "89"), spans).status == "contradicted"


def test_a_sentence_with_the_claims_exact_value_is_related_even_when_retrieval_ranks_it_low() -> (
    None
):
    # Postgrad Med J 2010 (H pylori and iron deficiency anaemia), p. 5; the SD is invented.
    ev = "the WMD of SF was 10.05 mg/l (95% CI 5.48 to 14.63 mg/l, p<0.00001)."
    text = (
        "For serum ferritin, the WMD of SF was 10.05 mg/l (SD 3.2 mg/l) in favour of eradication."
    )
    low = _conclude_on(text, [(ev, "Iron deficiency anaemia", UNRELATED)], relevance=0.5)
    assert low.status == "partially_supported" and low.deciding is not None
    # Without the exact value the same low-ranked sentence says nothing about the claim.
    other = _conclude_on(
        text.replace("10.05", "12.40"), [(ev, "Iron deficiency anaemia", UNRELATED)], relevance=0.5
    )
    assert other.status == "unverifiable"
    # LongEval (EACL 2023), p. 7: a candidate that shares few words with the claim (below the
    # decision's relevance floor) but gives its exact range is still the claim's sentence.
    kendall = (
        "Despite annotating just half the summary (f = 0.5), in both datasets we observe a high "
        "correlation of 0.78-0.89 Kendall's τ (95% interval) with a full annotation."
    )
    claim = (
        "Judging half of the units still correlated with the full annotation at 0.78-0.89 "
        "Kendall's τ, with a mean of 0.84 (SD 0.02) across the resampled subsets."
    )
    spread = _conclude_on(claim, [(kendall, "LongEval", UNRELATED)], relevance=0.42)
    assert (spread.status, spread.finding) == ("partially_supported", "unreported_number")
    below = _conclude_on(claim, [(kendall, "LongEval", UNRELATED)], relevance=0.25)
    assert below.status == "unverifiable"


def test_a_number_another_sentence_of_the_same_paper_states_is_no_gap() -> None:
    # J Ethnobiol Ethnomed 2015: the count of laws is in one sentence, the rest in another.
    regulations = "The laws of 52 Szekely villages comprised 898 regulations."
    laws = "We analysed 72 archival village laws with the DPSIR framework."
    text = "Molnar and colleagues analysed 72 village laws of 52 villages with 898 regulations."
    spans = [(regulations, "Village laws", ENTAILED), (laws, "Village laws", UNRELATED)]
    assert _conclude_on(text, spans).status == "supported"
    # A count that no sentence of the paper gives stays a gap.
    assert _conclude_on(text.replace("72", "27"), spans).status == "partially_supported"


def test_an_unverifiable_claim_whose_cited_paper_is_on_topic_says_so() -> None:
    from sciverify.verify.cards import fact_card

    sentence = "The user typed four-digit PINs on a smartphone while EEG was recorded."
    text = "Fifteen students typed PINs while EEG was recorded at Fz, Cz and Pz."
    cited = _conclude_on(text, [(sentence, "Did you notice?", UNRELATED)], 0.5, cited=True)
    uncited = _conclude_on(text, [(sentence, "Did you notice?", UNRELATED)], 0.5)
    assert cited.status == uncited.status == "unverifiable"
    assert "cited paper is in the corpus" in fact_card(cited).suggested_action
    assert "No passage in the corpus" in fact_card(uncited).suggested_action


def test_a_semicolon_joins_two_claims_when_the_second_has_a_past_tense_verb() -> None:
    text = (
        "Community outreach brought in very few participants and cost 469 minutes of researcher "
        "time for each one recruited; the authors judged these approaches largely ineffective."
    )
    first, second = text.split("; ")
    assert [text[a:b] for a, b in split_clauses(text)] == [first, second]
    # After a comma the closed verb list still decides: "adjusted" alone is not a finding.
    listed = "Hazard ratios were reported for each group, and the models adjusted for age and sex."
    assert split_clauses(listed) == [(0, len(listed))]


def test_a_bracketed_interval_is_no_numeric_citation() -> None:
    # A labelled draft: "noise levels varied at random over σ = [0, 100]".
    text = "Noise levels varied over σ = [0, 100], as the earlier work [3, 4] did; x ∈ [2, 5]."
    assert [c.keys for c in find_citations(text)] == [("3", "4")]


def test_short_claims_are_claims_and_are_checked() -> None:
    # SciFact claims in three and four content words.
    assert skip_reason("DUSP4 decreases apoptosis.") is None
    assert skip_reason("Results shown below.") == "fragment"
    for text in ("Malaria has a high vectorial capacity.", "DUSP4 decreases apoptosis."):
        claims = extract_claims(segment(text).paragraphs[0]).claims
        assert [c.text for c in claims] == [text] and not claims[0].is_simple
    filler = extract_claims(segment("Simple words only here.").paragraphs[0]).claims
    assert filler[0].is_simple


def test_the_decision_margin_is_measured_from_a_finding_not_from_an_aim() -> None:
    # JAMA 2003 (pharmacists on ICU rounds): the objective repeats the claim's words, the
    # result that decides the claim shares fewer of them.
    aim = (
        "OBJECTIVE To measure the effect of pharmacist participation on medical rounds in the "
        "intensive care unit on the rate of preventable adverse drug events caused by ordering "
        "errors."
    )
    result = (
        "RESULTS The rate of preventable ordering adverse drug events decreased by 66% from 10.4 "
        "per 1000 patient-days before the intervention to 3.5 after the intervention."
    )
    method = "A senior pharmacist made rounds with the intensive care unit team each morning."
    text = "Pharmacist attendance at ward rounds increases adverse drug events."
    narrow = VerifySettings(model_margin=0.0)  # the decision margin alone
    spans = [(aim, "Pharmacists", UNRELATED), (result, "Ph", CONTRARY)]
    after_aim = _conclude_on(text, spans, cfg=narrow)
    assert after_aim.status == "contradicted" and after_aim.deciding.text == result
    # Below a sentence that states something, the same result stays outside the margin.
    after_method = _conclude_on(
        text, [(method, "Pharmacists", UNRELATED), (result, "Ph", CONTRARY)], cfg=narrow
    )
    assert after_method.status != "contradicted"


def test_a_claim_left_open_is_decided_by_the_model_on_a_less_relevant_sentence() -> None:
    # Nat Med 2010 (N-cadherin antibodies in prostate cancer): the result that refutes the
    # claim states it in other words and ranks below a sentence about the same topic.
    topic = (
        "Ectopic expression of N-cadherin in nonmetastatic, androgen-dependent prostate cancer "
        "models caused castration resistance, invasion and metastasis."
    )
    result = (
        "N-cadherin-specific antibodies markedly delayed the time to emergence of castration "
        "resistance."
    )
    hedge = "Therapeutic targeting of this factor with monoclonal antibodies may have benefit."
    text = "Monoclonal antibody targeting of N-cadherin encourages castration resistance."
    near = _conclude_on(text, [(topic, "N-cadherin", UNRELATED), (result, "N", CONTRARY)])
    assert near.status == "contradicted" and near.deciding.text == result
    assert _conclude_on(text, [(topic, "N", UNRELATED), (result, "N", ENTAILED)]).status == (
        "supported"
    )
    # Beyond model_margin the same sentence is related evidence only.
    far = _conclude_on(
        text, [(topic, "N", UNRELATED), (hedge, "N", UNRELATED), (result, "N", CONTRARY)]
    )
    assert far.status != "contradicted"
    # Within it, a check's conflict (another figure) is no verdict: full papers give many
    # figures for nearby quantities.
    timed = "N-cadherin antibodies delayed castration resistance by 20 days."
    figure = "N-cadherin antibodies delayed the emergence of castration resistance by 45 days."
    checked = _conclude_on(timed, [(topic, "N", UNRELATED), (figure, "N", UNRELATED)])
    assert checked.status != "contradicted"


def test_aims_take_no_slot_of_a_sentence_that_states_something() -> None:
    from sciverify.verify.evidence import Span, _pick

    aims = [
        "OBJECTIVE To assess whether ambulatory monitoring diagnoses hypertension accurately.",
        "We investigated whether home measurements agree with ambulatory ones.",
        "It remains unclear whether clinic measurements suffice.",
    ]
    findings = [
        f"Finding {k}: clinic readings exceeded ambulatory ones by {k} mm Hg." for k in "123456"
    ]
    spans = [
        Span(t, "p1", f"p1:c{i}", "T", 1, None, "result", False, 0.9 - 0.05 * i)
        for i, t in enumerate(aims + findings)
    ]
    picked = [s.text for s in _pick(spans, 5, False)]
    assert [t for t in picked if t in findings] == findings[:5]
    assert [t for t in picked if t in aims] == aims[:2]


def test_a_model_contradiction_in_the_wider_margin_overrides_a_checks_gap() -> None:
    # Nat Commun 2014 (LRRK2 and microtubule acetylation): the closest sentence lacks a
    # condition of the claim's; a less close one refutes it in other words.
    mutation = (
        "Here we find that LRRK2 containing pathogenic Roc-COR domain mutations (R1441C, Y1699C) "
        "preferentially associates with deacetylated microtubules, and inhibits axonal transport "
        "in primary neurons and in Drosophila, causing locomotor deficits in vivo."
    )
    rescue = (
        "In vitro, increasing microtubule acetylation using deacetylase inhibitors or the tubulin "
        "acetylase alphaTAT1 prevents association of mutant LRRK2 with microtubules, and the "
        "deacetylase inhibitor trichostatin A (TSA) restores axonal transport."
    )
    text = (
        "Increased microtubule acetylation exacerbates LRRK2 Roc-COR domain mutation induced "
        "locomotor deficits."
    )
    spans = [(mutation, "LRRK2", ENTAILED), (rescue, "LRRK2", CONTRARY)]
    narrow = _conclude_on(text, spans, cfg=VerifySettings(model_margin=0.0))
    assert narrow.status == "partially_supported"
    wide = _conclude_on(text, spans)
    assert wide.status == "contradicted" and wide.deciding.text == rescue


def test_a_reversed_direction_in_the_wider_margin_overrides_support_that_states_none() -> None:
    # Martinez-Lopez et al. (arXiv 2602.14645), p. 16: the closest sentence says what
    # selection depends on; the next says which way, and it is the other way.
    depends = (
        "It was found that bacterial selection depends on the time required for the strains to "
        "reach equilibrium between new bacteria formed during growth and cell removal after "
        "antimicrobial killing and dilution."
    )
    minimise = (
        "Then, the strains that are selected under cyclic treatment are those that minimise the "
        "equilibrium time, thereby achieving a better compromise between bacterial growth and "
        "death."
    )
    text = (
        "Under cyclic treatment, the strains that are eventually selected are those that "
        "maximise the equilibrium time."
    )
    spans = [(depends, "Cyclic treatments", ENTAILED), (minimise, "Cyclic treatments", ENTAILED)]
    reversed_ = _conclude_on(text, spans)
    assert reversed_.status == "contradicted" and reversed_.deciding.text == minimise
    # The claim that keeps the paper's direction stays supported ...
    kept = _conclude_on(text.replace("maximise", "minimise"), spans)
    assert kept.status == "supported"
    # ... and a closer sentence that says which way something goes keeps deciding.
    directed = depends.replace("depends on", "increases with")
    held = _conclude_on(text, [(directed, "Cyclic treatments", ENTAILED), spans[1]])
    assert held.status == "supported" and held.deciding.text == directed


def test_a_sentence_without_a_correlations_sign_does_not_outweigh_one_that_reverses_it() -> None:
    # Wheat after post-anthesis heat stress (PLoS ONE, doi 10.1371/journal.pone.0197919),
    # p. 15: the table the metabolites' correlations are drawn from says which way their
    # levels went ("greatest increase"), not which way they go with yield; the sentences that
    # give the sign say "negative".
    table = (
        "The top six metabolites showing the greatest increase in metabolite concentration in "
        "heat stressed plants compared to control plants were selected for correlation. "
        "Compounds SPAD FV/FM CMS L-tryptophan -0.45 -0.48 -0.50 L-histidine -0.39 -0.39 -0.31"
    )
    negative = (
        "Metabolites that showed an increase in concentration in heat-stressed plants exhibited "
        "negative correlations with yield, SPAD, and FV/FM (Tables 5 and 6)."
    )
    text = (
        "Metabolites that accumulated under heat stress, such as L-tryptophan and L-histidine, "
        "were positively correlated with grain yield, SPAD chlorophyll content and Fv/Fm."
    )
    spans = [(table, "Wheat heat stress", ENTAILED), (negative, "Wheat heat stress", ENTAILED)]
    reversed_ = _conclude_on(text, spans)
    assert reversed_.status == "contradicted" and reversed_.deciding.text == negative
    # A sentence that gives the claim's sign still outweighs the reversal.
    signed = table.replace("were selected for correlation", "were positively correlated")
    held = _conclude_on(text, [(signed, "Wheat heat stress", ENTAILED), spans[1]])
    assert held.status == "supported" and held.deciding.text == signed


def test_a_trend_the_paper_states_the_other_way_round_contradicts_a_supported_claim() -> None:
    # Noisy Matrix Decomposition via Convex Relaxation (Agarwal et al. 2011), p. 7: the
    # sentence that matches the claim's words says what Figure 3 plots, not which way the
    # error goes; a later sentence of the paper does.
    from sciverify.verify.decision import reversed_trend

    figure = (
        "Figure 3 plots the squared Frobenius error versus the matrix dimension d; it contains "
        "two curves, one with rank r = 10 and d in {100 : 25 : 300}."
    )
    trend = "In both cases, the error decreases as d increases, consistent with Corollary 2."
    text = "In these simulations the squared error went up as the matrix dimension d increased."
    title = "Noisy Matrix Decomposition"

    def paper(*sentences: str) -> Callable[[str], list[object]]:
        return _paper(title, 7, *sentences)

    check = _conclude_on(text, [(figure, title, ENTAILED)])
    assert check.status == "supported"
    assert reversed_trend(check, paper(figure, trend))
    assert (check.status, check.finding) == ("contradicted", "reversed_direction")
    assert check.deciding.text == trend and "decreases as d increases" in check.decision.reason
    # The claim that keeps the paper's way stays supported, and so does the reversed one when
    # another sentence of the paper says the claim's way too.
    kept = _conclude_on(text.replace("went up", "went down"), [(figure, title, ENTAILED)])
    assert not reversed_trend(kept, paper(figure, trend)) and kept.status == "supported"
    rising = trend.replace("In both cases", "Without noise").replace("decreases", "increases")
    both = _conclude_on(text, [(figure, title, ENTAILED)])
    assert not reversed_trend(both, paper(figure, trend, rising)) and both.status == "supported"


def test_a_tool_the_paper_never_names_is_contradicted_by_the_one_it_does() -> None:
    # An Improved Multi-Output Gaussian Process RNN for Early Sepsis Detection (arXiv
    # 1708.05894), pp. 5 and 7: trained with ADAM, implemented in Tensorflow2; Keras nowhere.
    from sciverify.entail.mentions import tools_named
    from sciverify.verify.decision import swapped_tool

    adam = (
        "We optimize the loss with stochastic gradient descent using ADAM (Kingma and Ba (2015))."
    )
    tensorflow = "Our methods are implemented in Tensorflow2."
    title = "MGP-RNN for early sepsis detection"
    paper, adam_only = _paper(title, 7, adam, tensorflow), _paper(title, 7, adam)
    text = "They built their sepsis classifier in Keras, training it with the Adam optimizer."
    assert [name for name, _ in tools_named(text)] == ["keras"]
    check = _conclude_on(text, [(adam, title, ENTAILED)], cited=True)
    assert swapped_tool(check, paper)
    assert (check.status, check.finding) == ("contradicted", "entity_mismatch")
    assert check.deciding.text == tensorflow and "'Tensorflow2'" in check.decision.reason
    # The paper's own tool, a tool with no rival in the paper, and a place are left alone.
    for kept in (
        text.replace("Keras", "TensorFlow"),
        text.replace("Keras", "PyTorch").replace("built", "described"),
        "The trial was conducted in Germany with 200 patients.",
    ):
        check = _conclude_on(kept, [(adam, title, ENTAILED)], cited=True)
        before = check.status
        assert not swapped_tool(check, paper) and check.status == before
    alone = _conclude_on(text, [(adam, title, ENTAILED)], cited=True)
    assert not swapped_tool(alone, adam_only)
    # Construction of the Literature Graph in Semantic Scholar (Ammar et al. 2018), p. 3:
    # word vectors are tools too, and their names are written in lower case as well.
    glove = "Word embeddings are initialized with GloVe (Pennington et al., 2014)."
    claim = "It initialises its word embeddings with 300-dimensional vectors built with word2vec."
    assert [name for name, _ in tools_named(claim)] == ["word2vec"]
    check = _conclude_on(claim, [(adam, title, ENTAILED)], cited=True)
    assert swapped_tool(check, _paper("Literature graph", 3, glove))
    assert check.deciding.text == glove


def test_a_statistical_test_the_paper_never_names_is_contradicted_by_the_one_it_does() -> None:
    # Multi-contact functional electrical stimulation for hand opening (JNER 2016), p. 4.
    from sciverify.entail.mentions import tests_named
    from sciverify.verify.decision import swapped_tool

    outcome = (
        "The behavioral outcome obtained with stimulation at the optimal pattern was "
        "significantly higher than that obtained from the control measurements."
    )
    wilcoxon = (
        "In order to assess the statistical significance of the difference, we performed "
        "multiple Wilcoxon tests."
    )
    title = "Multi-contact FES for hand opening"
    paper, outcome_only = _paper(title, 4, outcome, wilcoxon), _paper(title, 4, outcome)
    text = "The optimal patterns were compared with the control measurements using paired t-tests."
    assert [name for name, _ in tests_named(text)] == ["t-test"]
    check = _conclude_on(text, [(outcome, title, ENTAILED)], cited=True)
    assert swapped_tool(check, paper)
    assert (check.status, check.finding) == ("contradicted", "entity_mismatch")
    assert check.deciding.text == wilcoxon and "statistical test" in check.note
    # The paper's own test is kept, and so is a claim when the paper names no test at all.
    same = _conclude_on(
        text.replace("paired t-tests", "Wilcoxon tests"), [(outcome, title, ENTAILED)], cited=True
    )
    assert not swapped_tool(same, paper) and same.status == "supported"
    silent = _conclude_on(text, [(outcome, title, ENTAILED)], cited=True)
    assert not swapped_tool(silent, outcome_only) and silent.status == "supported"


def test_a_result_stated_only_in_the_papers_introduction_is_supported_with_a_note() -> None:
    # Trials 2014, p. 6 (Background): the paper states the figure, citing earlier studies.
    sentence = (
        "Inhaled nitric oxide (INO), a selective pulmonary vasodilator, has revolutionized the "
        "treatment of respiratory failure in the newborn. However, there is lack of sustained "
        "improvement in 30 to 46% of infants [1-4]."
    )
    text = "Inhaled nitric oxide fails to give a sustained improvement in 30 to 46% of infants."
    intro = _conclude_on(text, [(sentence, "Inhaled PGE1", ENTAILED)], section="introduction")
    result = _conclude_on(text, [(sentence, "Inhaled PGE1", ENTAILED)])
    assert (intro.status, intro.finding) == ("supported", "background_only")
    assert "original study" in fact_card(intro).suggested_action
    assert (result.status, result.finding) == ("supported", None)
    assert "original study" not in fact_card(result).suggested_action


def test_a_part_the_paper_only_suggests_is_not_demonstrated() -> None:
    # A survey of GANs for anomaly detection (arXiv 1906.11632), p. 1.
    applied = (
        "Generative Adversarial Networks (GANs) and the adversarial training framework have "
        "been successfully applied to model complex and high dimensional distribution of "
        "real-world data."
    )
    suggests = (
        "This GAN characteristic suggests they can be used successfully for anomaly detection, "
        "although their application has been only recently explored."
    )
    text = (
        "GANs have been applied successfully to model complex, high-dimensional distributions "
        "of real-world data, and this ability demonstrates that they can be used successfully "
        "for anomaly detection."
    )
    over = _conclude_on(text, [(applied, "GANs", ENTAILED), (suggests, "GANs", UNRELATED)])
    assert (over.status, over.finding) == ("partially_supported", "strengthened_hedge")
    assert over.deciding.text == suggests
    shows = suggests.replace("suggests", "demonstrates that")
    same = _conclude_on(text, [(applied, "GANs", ENTAILED), (shows, "GANs", UNRELATED)])
    assert same.status == "supported"


def test_semicolon_clauses_and_precise_figures() -> None:
    from sciverify.verify.evidence import _clauses, precise_figures

    two = (
        "The WMD of Hb was 12.88 g/l (95% CI 6.03 to 19.74 g/l, p<0.00001); "
        "the WMD of SF was 10.05 mg/l (95% CI 5.48 to 14.63 mg/l, p<0.00001)."
    )
    clauses = _clauses(two)
    assert len(clauses) == 2 and clauses[1].startswith("the WMD of SF was 10.05")
    assert _clauses("A was higher (n = 3; p < 0.01) than B.") == []  # inside brackets
    assert _clauses("Hb rose; SF fell.") == []  # too short to stand alone
    # decimals and long numbers tie a sentence to a measurement; years and p-values do not
    assert precise_figures("in 2010, 10.05 mg/l (SD 3.2) over 1234 women, p<0.001") == {
        "10.05",
        "3.2",
        "1234",
    }
    # so do numbers with thousands separators, whole ("748 of the resulting 1,000 sites"),
    # read as a table writes them ("1000")
    assert precise_figures("748 of the resulting 1,000 sites and 12,345,678 tokens") == {
        "748",
        "1000",
        "12345678",
    }
    assert precise_figures("1,5 and 12,34") == set()  # a decimal comma is no separator


def test_a_flattened_table_offers_the_cells_around_a_figure() -> None:
    from sciverify.verify.evidence import _row_around, precise_figures

    # Sheikhahmadi et al. 2015, p. 5: the datasets table as one long "sentence".
    table = (
        "Order and size are the number of nodes and edges, resp. Dataset Type Order Size Avg "
        "Degree Max Degree Twitter lists (TL) directed 23370 33101 2.8328 239 Gowalla (GW) "
        "undirected 196591 950327 9.6681 14730 Youtube friendship (CY) undirected 1134890 "
        "2987624 5.2650 28754 NetHEPT undirected 15233 31399 4.12 64"
    )
    figures = precise_figures("The Youtube friendship network has 1,134,890 nodes.")
    row = _row_around(table, figures)
    assert row is not None and "Youtube friendship (CY) undirected 1134890 2987624" in row
    assert len(row.split()) == 17
    prose = (
        "The network of 1134890 nodes is the largest we study, and its degree distribution "
        "follows a power law with an exponent that we estimate from the tail of the data."
    )
    assert _row_around(prose, figures) is None


def test_a_flattened_table_offers_the_cells_from_the_first_figure_to_the_last_nearby() -> None:
    from sciverify.verify.evidence import _row_around

    # Information Synthesis for Answer Validation (CLEF 2008), p. 4: Table 1 as one "sentence".
    table = (
        "Results of our submissions compared with last year’s Submission Estimated QA QA Recall "
        "Precision F-measure Runs Performance Accuracy 100% VALIDATED (EN) 1 0.08 0.14 N/A N/A "
        "50%VALIDATED (EN) 0.5 0.08 0.13 N/A N/A Perfect Selection (EN) N/A N/A N/A 0.56 0.34 "
        "Best QA System (EN) N/A N/A N/A 0.21 0.21 dfki07-run1 (EN) 0.62 0.37 0.46 N/A 0.16 "
        "dfki07-run2 (EN) 0.71 0.44 0.55 N/A 0.21 dfki08run1 (EN) 0.78 0.54 0.64 0.34 0.24 "
        "100% VALIDATED(DE) 1 0.12 0.21 N/A N/A 50% VALIDATED (DE) 0.5 0.12 0.19 N/A N/A "
        "Perfect Selection (DE) N/A N/A N/A 0.77 0.52 Best QA System (DE) N/A N/A N/A 0.38 0.38 "
        "dfki08run1 (DE) 0.71 0.54 0.61 0.52 0.43"
    )
    # "0.24 against 0.21 for English and 0.43 against 0.38 for German": the English row's
    # accuracy and the German rows, 39 tokens apart, come in one window.
    rows = _row_around(table, {"0.24", "0.43", "0.38"})
    assert rows is not None
    assert rows.startswith("N/A 0.21 dfki08run1 (EN)") and rows.endswith("0.61 0.52 0.43")
    # A figure further on than `_ROWS_TOKENS` stays out: the window is of one part of a table.
    far = _row_around(table, {"0.56", "0.43"})
    assert far is not None and "0.56" in far and "0.43" not in far


def test_a_table_row_is_not_offered_as_a_wording() -> None:
    from sciverify.verify.evidence import tabular

    # Novelty Controlled Paraphrase Generation, p. 5: Table 2 as PyMuPDF flattens it.
    assert tabular("87.88 50.27 31.78 34.09 14.33 42.40 90.04 NC-RAPT (High) 83.89 62.13")
    assert not tabular("The primary outcome was the enrollment of 50 infants at 10 sites.")
    # Cells with their spread in brackets (LIMIT trial, Table 2).
    assert tabular("Trial entry 2.67 (2.07) 2.48 (1.63) 0.44 0.002 0.21 (0.08 to 0.35) 28 weeks")


def test_a_figure_is_found_however_its_digits_are_grouped() -> None:
    from sciverify.verify.parts import _figure_in

    # Disk-based storage for scalable video (shared corpus): "42 200 Kb/s".
    assert _figure_in("42,200", "we measure the raw read rate to be 42 200 Kb/s.")
    assert _figure_in("eighty", "augmented by 80 images") and _figure_in("eighty", "Eighty images")
    assert not _figure_in("eighty", "an additional sixty images")
    assert _figure_in("12 months", "a 12-month period, up to 12 weeks")
    assert not _figure_in("2.17", "1.77; 95% CI 1.01 to 2.53")
    assert not _figure_in("17", "1.77 and 217")


def test_a_sentence_read_as_contrary_yields_to_its_pair_that_states_the_whole_claim() -> None:
    # Combating Web Spam with TrustRank (VLDB 2004), section 6: the claim joins two neighbouring
    # sentences; the first alone leaves out the PageRank half, which the model reads as contrary.
    first = (
        "In particular, note that there is virtually no spam in the top 5 TrustRank buckets, "
        "while there is a marked increase in spam concentration in the lower buckets."
    )
    second = (
        "At the same time, it is surprising that almost 20% of the second PageRank bucket is bad."
    )
    text = (
        "Compared bucket by bucket, the top five TrustRank buckets contain virtually no spam, "
        "whereas almost a fifth of the second PageRank bucket is bad."
    )
    pair = _conclude_on(
        text, [(f"{first} {second}", "TrustRank", ENTAILED), (first, "TrustRank", CONTRARY)]
    )
    assert pair.status == "supported" and pair.deciding.text == f"{first} {second}"
    # A more relevant sentence that does not contain the contrary one does not outweigh it.
    apart = _conclude_on(text, [(second, "TrustRank", ENTAILED), (first, "TrustRank", CONTRARY)])
    assert apart.status != "supported"


def test_a_proof_verb_a_few_words_before_its_that_is_read_and_the_finding_sentence_is_no_proof() -> (
    None
):
    # PLoS One 2018 (wheat under post-anthesis heat stress), discussion: the sentence that
    # states the finding shares most words with the conclusion drawn from it, but only another
    # sentence states that conclusion, and only as a possibility.
    lower = (
        "Drummondol, one of the metabolites found that had a lower concentration in heat "
        "stressed plants than control plants, is a catabolite of abscisic acid [57]."
    )
    may = "This may suggest that there is more abscisic acid in heat stressed plants than in control plants."
    text = (
        "Drummondol, an abscisic acid catabolite, was also lower in heat-stressed leaves, and the "
        "authors demonstrate from this that stressed plants accumulate more abscisic acid than "
        "controls."
    )
    over = _conclude_on(text, [(lower, "Wheat", ENTAILED), (may, "Wheat", UNRELATED)])
    assert (over.status, over.finding) == ("partially_supported", "strengthened_hedge")
    assert over.deciding.text == may
    shows = may.replace("This may suggest", "This shows")
    assert _conclude_on(text, [(lower, "Wheat", ENTAILED), (shows, "Wheat", UNRELATED)]).status == (
        "supported"
    )
    # A comma between the verb and "that" is no statement of the verb's: "shown, in the end, that".
    aside = text.replace("demonstrate from this that", "note, as shown before, that")
    assert _conclude_on(aside, [(lower, "Wheat", ENTAILED), (may, "Wheat", UNRELATED)]).status == (
        "supported"
    )


def test_a_number_its_cited_paper_gives_otherwise_contradicts_a_claim_left_unverifiable() -> None:
    from sciverify.entail.quantities import parse_quantities
    from sciverify.verify.citations import Source
    from sciverify.verify.claims import Claim
    from sciverify.verify.decision import changed_figure
    from sciverify.verify.evidence import ClaimCheck, Span

    # Lemaître–Tolman models and the supernova data (arXiv 0802.1523): the one sentence that
    # gives the number shares too few of the compound claim's words to be its evidence.
    data = "The supernova data consists of 182 supernovae from the Riess gold sample [33]."
    fit = "The four models to be considered present a very good fit to supernova data."

    def run(text: str, *sentences: str) -> ClaimCheck:
        numbers = tuple(q.text_of(text) for q in parse_quantities(text))
        claim = Claim("p_001.c1", "p_001", text, (0, len(text)), numbers=numbers)
        check = ClaimCheck(claim=claim, query=text, sources=[Source("k", "[4]", ("ltb",))])
        spans = [
            Span(s, "ltb", f"ltb:{i}", "LTB models", 5, None, "result", True, 0.0)
            for i, s in enumerate(sentences)
        ]
        changed_figure(check, spans)
        return check

    text = (
        "Four Lemaître–Tolman models without a cosmological constant were fitted to 192 "
        "supernovae from the Riess gold sample, and all of them fit well."
    )
    changed = run(text, fit, data)
    assert (changed.status, changed.finding) == ("contradicted", "number_mismatch")
    assert changed.deciding is not None and changed.deciding.text == data
    # The paper states the claim's number elsewhere, in another format: no conflict.
    stated = run(text.replace("192", "1,192"), fit, data, "In all, 1192 supernovae were fitted.")
    assert stated.status == "unverifiable"
    # A value of another order of magnitude is another measure, not a changed figure.
    assert run(text.replace("192", "19,200"), fit, data).status == "unverifiable"


def test_a_second_thing_reported_is_a_claim_of_its_own() -> None:
    text = (
        "They observe that review authors have traditionally aimed for high recall while "
        "accepting very low precision, and that ontology-based searches could spare reviewers "
        "part of that burden through better precision [1]."
    )
    claims = extract_claims(segment(text).paragraphs[0]).claims
    first = (
        "They observe that review authors have traditionally aimed for high recall while "
        "accepting very low precision."
    )
    second = "Ontology-based searches could spare reviewers part of that burden through better precision."
    assert [c.text for c in claims] == [first, second]
    # A sentence that opens on "That" keeps it; one "that" clause stays one claim.
    one = "That study found that the drug reduced pain and that nobody dropped out [1]."
    assert [c.text for c in extract_claims(segment(one).paragraphs[0]).claims] == [
        "That study found that the drug reduced pain and that nobody dropped out."
    ]


def test_that_as_a_determiner_after_a_comma_stays() -> None:
    text = (
        "A citation that looks routine may point to work that was later withdrawn, and that "
        "status is rarely visible at the point of reading [1]."
    )
    claims = [c.text for c in extract_claims(segment(text).paragraphs[0]).claims]
    assert claims[-1] == "That status is rarely visible at the point of reading."


def test_a_contrast_after_whereas_is_a_claim_of_its_own() -> None:
    text = (
        "On QQP 140K, RAPT reached an iBLEU of 14.33 and NC-RAPT reached 15.05, whereas "
        "fine-tuning managed only 5.64 [1]."
    )
    claims = [c.text for c in extract_claims(segment(text).paragraphs[0]).claims]
    assert claims[-1] == "Fine-tuning managed only 5.64."
    # "while" leans on the clause before it and stays with it.
    text = (
        "Most of these studies, 37 of the 44, rated the whole summary at once, while just 6 "
        "collected judgments at a finer granularity [1]."
    )
    assert len(extract_claims(segment(text).paragraphs[0]).claims) == 1


def test_cells_read_one_block_each_join_into_one_line_under_their_caption() -> None:
    from sciverify.verify.evidence import Span, _join_cells

    def span(text: str, page: int = 9) -> Span:
        return Span(text, "semeagat", "semeagat:methods:1", None, page, None, "result", True, 0.0)

    # SemEAGAT (J. Phys.: Conf. Ser. 2188, 2022), p. 9: Table 2, one block per cell.
    blocks = [
        "Ablation Study There are two major components in our SemEAGAT model.",
        "Table 2.",
        "Ablation study on ACE2005 test set.",
        *("P R F1", "SemEAGAT", "80.7", "73.2", "76.8", "-BiLSTM", "69.8", "70.9", "70.3"),
        *("with BiRNN", "73.0", "74.3", "73.6"),
        "The experimental results are shown in Table 2.",
    ]
    out = [s.text for s in _join_cells([span(b) for b in blocks])]
    assert out[:3] == blocks[:3]  # the prose and the caption stay sentences of their own
    assert out[3] == (
        "Table 2. Ablation study on ACE2005 test set. P R F1 SemEAGAT 80.7 73.2 76.8 -BiLSTM "
        "69.8 70.9 70.3 with BiRNN 73.0 74.3 73.6"
    )
    assert out[4:] == blocks[-1:]
    # Short lines that are not mostly figures are no table ("Results", "Discussion" ...), and
    # a run of cells does not reach across a page.
    headings = ["4.3 Analysis", "Results", "Ablation", "Discussion"]
    assert [s.text for s in _join_cells([span(h) for h in headings])] == headings
    split = [span("80.7"), span("73.2", page=10), span("76.8", page=10)]
    assert [s.text for s in _join_cells(split)] == ["80.7", "73.2", "76.8"]


def test_a_number_in_a_list_of_values_of_other_things_is_not_stated_for_the_claim() -> None:
    from sciverify.entail import lexicon as lx
    from sciverify.entail.quantities import check_numbers
    from sciverify.verify.decision import _naming_sentence, listed_apart
    from sciverify.verify.evidence import Span

    # Barnett et al., BMC Evol. Biol. 2014, p. 6 (Figure 2 legend) and p. 4.
    legend = (
        "Estimates of divergence times: (a) 124,200 years (95% credibility: 81,800-183,500); "
        "(b) 61,500 years (32,700-97,300); (c) 51,000 years (26,600-83,100); (d) 81,900 "
        "years (45,700-122,200); (e) 57,800 years (26,800-96,600); (f) 21,100 years "
        "(8300–38,800)."
    )
    prose = (
        "North African/Asian and West African lions split (node c in Figure 2B) by "
        "approximately 51,000 years BP (95% HPD: 26,600-83,100)."
    )
    claim = (
        "The authors place the split of the North African/Asian lineage from West African "
        "lions at about 57,800 years BP."
    )
    assert listed_apart(legend, claim, "57,800 years")
    assert not listed_apart(prose, claim.replace("57,800", "51,000"), "51,000 years")
    # An item that names what the number is of states it.
    named = legend.replace("(e) 57,800 years", "(e) West African lions split 57,800 years")
    assert not listed_apart(named, claim, "57,800 years")
    # So the sentence that gives the split another value decides: the draft moved the figure
    # of node (e) to the split of node (c).
    paper = [
        Span(text, "barnett", f"barnett:results:{i}", None, 4, None, "result", True, 0.0)
        for i, text in enumerate((prose, legend))
    ]
    (gap,) = [f for f in check_numbers(claim, "") if f.claim_text == "57,800 years"]
    stems = set(lx.content_stems(lx.words(claim)))
    assert _naming_sentence(claim, stems, gap, paper) == (None, paper[0])
    # With no rival in the paper the list is no naming sentence either, as before.
    assert _naming_sentence(claim, stems, gap, paper[1:]) == (None, None)
