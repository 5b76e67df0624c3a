"""NLI data: loaders on the real shared files, the held-out split, and the perturbations."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from sciverify.entail import data as nd
from sciverify.entail import perturb as pt
from sciverify.errors import InputError
from sciverify.records import Label

E, N, C = Label.entailment, Label.neutral, Label.contradiction


def _labels(pairs: list[nd.NLIPair]) -> Counter:
    return Counter(p.label for p in pairs)


@pytest.fixture(scope="module")
def scifact(shared_corpora: Path) -> list[nd.NLIPair]:
    return nd.load_scifact(shared_corpora)


def test_scifact_pairs_follow_the_evidence_sets(
    scifact: list[nd.NLIPair], shared_corpora: Path
) -> None:
    counts = _labels(scifact)
    # claims_train.jsonl has 616 SUPPORT and 341 CONTRADICT evidence sets.
    assert counts[E] == 616 and counts[C] == 341
    assert 0 < counts[N] <= counts[E] + counts[C]
    docs = nd.read_scifact_corpus(shared_corpora / "scifact" / "corpus.jsonl.gz")
    # Claim 9 is supported by sentence 15 of abstract 44265107.
    p = next(p for p in scifact if p.pair_id == "scifact:9:44265107:0")
    assert p.label == E and p.premise == docs[44265107][15]
    assert p.hypothesis.startswith("32% of liver transplantation programs")
    # Claim 2 is contradicted by sentence 4 of abstract 13734012.
    q = next(p for p in scifact if p.pair_id == "scifact:2:13734012:0")
    assert q.label == C and q.premise == docs[13734012][4]
    # Neutral premises are sentences of cited abstracts that are not the claim's rationale.
    for n in (p for p in scifact if p.label == N):
        _, _cid, doc_id, tag = n.pair_id.split(":")
        assert n.premise == docs[int(doc_id)][int(tag[1:])]
        assert not any(
            s.premise == n.premise and s.hypothesis == n.hypothesis for s in scifact if s.label != N
        )


def test_other_loaders_read_the_real_label_counts(shared_corpora: Path) -> None:
    hv = nd.SOURCES["healthver"](shared_corpora)
    assert len(hv) == 1917 and _labels(hv) == Counter({N: 993, E: 533, C: 391})
    cf = nd.load_covidfact(shared_corpora)
    # train.tsv + dev.tsv: entailment 1036 + 130, not_entailment (counter-claims) 2227 + 289.
    assert _labels(cf) == Counter({E: 1166, C: 2516})
    sick = nd.SOURCES["sick"](shared_corpora)
    assert _labels(sick) == Counter({N: 2536, E: 1299, C: 665})
    rte = nd.SOURCES["rte"](shared_corpora)
    assert _labels(rte) == Counter({E: 146, N: 131})
    assert all(p.premise and p.hypothesis for p in hv + cf + sick + rte)


def test_split_is_deterministic_and_about_a_fifth(shared_corpora: Path) -> None:
    a = nd.load_pairs(
        shared_corpora, "all", sources=["scifact", "healthver", "covidfact", "sick", "rte"]
    )
    b = nd.load_pairs(
        shared_corpora, "all", sources=["scifact", "healthver", "covidfact", "sick", "rte"]
    )
    assert [(p.pair_id, p.split) for p in a] == [(p.pair_id, p.split) for p in b]
    assert len({p.pair_id for p in a}) == len(a)
    for source in ("scifact", "healthver", "covidfact", "sick"):
        rows = [p for p in a if p.source == source]
        share = sum(p.split == "heldout" for p in rows) / len(rows)
        assert 0.1 <= share <= 0.3, (source, share)
    assert nd.split_of("scifact:c12") == nd.split_of("scifact:c12")


def test_split_keeps_claims_abstracts_and_premises_on_one_side(
    scifact: list[nd.NLIPair], shared_corpora: Path
) -> None:
    side_of_claim: dict[str, set[str]] = {}
    side_of_doc: dict[str, set[str]] = {}
    for p in scifact:
        _, cid, doc_id, _ = p.pair_id.split(":")
        side_of_claim.setdefault(cid, set()).add(p.split)
        side_of_doc.setdefault(doc_id, set()).add(p.split)
    assert all(len(s) == 1 for s in side_of_claim.values())
    assert all(len(s) == 1 for s in side_of_doc.values())
    for source in ("healthver", "covidfact", "sick", "rte"):
        sides: dict[str, set[str]] = {}
        for p in nd.SOURCES[source](shared_corpora):
            sides.setdefault(p.premise, set()).add(p.split)
        assert all(len(s) == 1 for s in sides.values()), source


def test_perturbations_inherit_the_split_of_their_sentence(
    shared_corpora: Path, scifact: list[nd.NLIPair]
) -> None:
    pairs = nd.load_perturbations(shared_corpora)
    kinds = Counter(p.source for p in pairs)
    for kind in (
        "number",
        "negation",
        "direction",
        "entity",
        "drop_condition",
        "add_statistic",
        "paraphrase",
    ):
        assert kinds[f"perturb-{kind}"] > 50, kind
    split_of_doc = {p.pair_id.split(":")[2]: p.split for p in scifact}
    ev = [p for p in pairs if p.pair_id.startswith("scifact-ev:")]
    assert ev and all(p.split == split_of_doc[p.pair_id.split(":")[1]] for p in ev)
    assert all(p.label == pt.LABEL_OF_KIND[p.source.removeprefix("perturb-")] for p in pairs)
    assert all(p.premise != p.hypothesis for p in pairs if p.source != "perturb-identity")


# Real SciFact claims (claims_train.jsonl ids 9, 12, 34, 335).
METHADONE = "32% of liver transplantation programs required patients to discontinue methadone treatment in 2001."
FOLIC = (
    "40mg/day dosage of folic acid and 2mg/day dosage of vitamin B12 does not affect chronic kidney "
    "disease (CKD) progression."
)
FOLATE = "A deficiency of folate increases blood levels of homocysteine."
HAND2 = "Deregulation of HAND2 is a crucial step in endometrial carcinogenesis in mice."
LACK = "0-dimensional biomaterials lack inductive properties."


def test_number_and_unit_perturbations() -> None:
    out = pt.perturb_number(METHADONE)
    assert out is not None and "32%" not in out and "2001" in out  # a year is not a value to change
    assert out.replace(out.split("%")[0], "32") == METHADONE
    assert pt.perturb_number(FOLATE) is None
    assert pt.perturb_number(METHADONE, seed=1) == pt.perturb_number(METHADONE, seed=1)
    unit = pt.perturb_unit(FOLIC)
    assert unit is not None and unit != FOLIC and ("40g/day" in unit or "2g/day" in unit)
    assert pt.perturb_unit(METHADONE) is None


def test_negation_is_removed_or_inserted() -> None:
    assert pt.perturb_negation(FOLIC) == FOLIC.replace("does not affect", "does affect")
    assert (
        pt.perturb_negation(FOLATE)
        == "A deficiency of folate does not increase blood levels of homocysteine."
    )
    assert pt.perturb_negation(HAND2) == HAND2.replace(" is ", " is not ")
    assert pt.perturb_negation(LACK) is None


def test_direction_entity_condition_statistic_paraphrase() -> None:
    assert pt.perturb_direction(FOLATE) == FOLATE.replace("increases", "decreases")
    assert pt.perturb_direction(HAND2) is None
    swapped = pt.perturb_entity(HAND2, ["HAND2", "PTEN"])
    assert swapped == HAND2.replace("HAND2", "PTEN")
    assert pt.perturb_entity(FOLATE, ["HAND2", "PTEN"]) is None
    assert (
        pt.perturb_drop_condition(HAND2)
        == "Deregulation of HAND2 is a crucial step in endometrial carcinogenesis."
    )
    assert pt.perturb_drop_condition(FOLATE) is None
    stat = pt.perturb_add_statistic(FOLATE)
    assert (
        stat is not None
        and stat.startswith(FOLATE[:-1])
        and ("p =" in stat or "%" in stat or "SD" in stat)
    )
    assert pt.perturb_add_statistic("Mortality was lower (p < 0.01).") is None
    assert pt.paraphrase_light(FOLIC) == FOLIC.replace(" (CKD)", "")
    assert pt.paraphrase_light(FOLATE) is None


def test_shortened_sentences_keep_what_they_assert(shared_corpora: Path) -> None:
    # SciFact abstract sentences: an appended contrast, a relative clause, a name with brackets.
    dusp4 = (
        "DUSP4 overexpression increased chemotherapy-induced apoptosis, whereas DUSP4 depletion "
        "dampened the response to chemotherapy."
    )
    assert pt.perturb_shorten(dusp4) == "DUSP4 overexpression increased chemotherapy-induced apoptosis."
    fgf21 = (
        "FGF21 deficiency causes a marked exacerbation of atherosclerotic plaque formation and "
        "premature death in apolipoprotein E(-/-) mice, which is accompanied by "
        "hypoadiponectinemia and severe hypercholesterolemia."
    )
    assert {pt.perturb_shorten(fgf21, seed=k) for k in range(4)} == {fgf21.split(", which")[0] + "."}
    # A scope condition is never what is cut: dropping it is the neutral edit.
    mice = "Serum IL-6 levels rose sharply after the injury, in mice lacking Sirt1."
    assert pt.perturb_shorten(mice) is None
    assert pt.LABEL_OF_KIND["shorten"] == Label.entailment == pt.LABEL_OF_KIND["frame"]
    framed = pt.perturb_frame(dusp4)
    assert framed is not None and framed.endswith(dusp4) and framed != dusp4
    smokers = "Smokers were recruited through mailed invitations from three practices."
    frames = {pt.perturb_frame(smokers, seed=k) or "" for k in range(8)}
    assert len(frames) > 1 and all(f.endswith(" s" + smokers[1:]) for f in frames)
    pairs = [p for p in nd.load_perturbations(shared_corpora) if p.source == "perturb-shorten"]
    assert len(pairs) > 300 and {p.split for p in pairs} == {"train", "heldout"}
    # Each hypothesis is the premise with words left out, in order: nothing added.
    for p in pairs:
        assert p.label == Label.entailment
        words, rest = re.findall(r"\w+", p.hypothesis), iter(re.findall(r"\w+", p.premise))
        assert all(any(w == r for r in rest) for w in words), p


def test_entity_candidates_come_from_the_abstract(shared_corpora: Path) -> None:
    docs = nd.read_scifact_corpus(shared_corpora / "scifact" / "corpus.jsonl.gz")
    text = " ".join(docs[1780819])  # the abstract cited for the HAND2 claim
    names = pt.entity_candidates(text)
    assert "HAND2" in names and "DNA" not in names


def test_jsonl_round_trip_and_converters(tmp_path: Path, shared_corpora: Path) -> None:
    pairs = nd.SOURCES["rte"](shared_corpora)[:20]
    out = tmp_path / "rte.jsonl"
    assert nd.write_jsonl(pairs, out) == 20
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert set(first) >= {"premise", "hypothesis", "label"} and first["label"] in {
        "entailment",
        "neutral",
    }
    back = nd.convert_file(out)
    assert [(p.premise, p.hypothesis, p.label) for p in back] == [
        (p.premise, p.hypothesis, p.label) for p in pairs
    ]
    for rel, n in (
        ("healthver/healthver_dev.csv", 1917),
        ("covidfact/RTE-covidfact/dev.tsv", 419),
        ("sick/SICK_train.txt", 4500),
        ("rte/dev.tsv", 277),
    ):
        copy = tmp_path / Path(rel).name
        shutil.copy(shared_corpora / rel, copy)
        assert len(nd.convert_file(copy)) == n, rel
    sf = tmp_path / "scifact"
    sf.mkdir()
    for name in ("claims_train.jsonl", "corpus.jsonl.gz"):
        shutil.copy(shared_corpora / "scifact" / name, sf / name)
    assert _labels(nd.convert_file(sf / "claims_train.jsonl"))[E] == 616
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"premise": "a", "hypothesis": "b", "label": "maybe"}\n', encoding="utf-8")
    with pytest.raises(InputError):
        nd.convert_file(bad)
