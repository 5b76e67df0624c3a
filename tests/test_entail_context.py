"""NLI pairs with wider premises and joined claims, built from the real SciFact files."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sciverify.entail import data as nd
from sciverify.entail.context import conjoin, load_conjoin_pairs, load_context_pairs
from sciverify.records import Label

E, N, C = Label.entailment, Label.neutral, Label.contradiction


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_two_sentences_join_into_one_claim() -> None:
    assert conjoin("Mice lost weight.", "The effect lasted 4 weeks.") == (
        "Mice lost weight, and the effect lasted 4 weeks."
    )
    # A name or an acronym keeps its case; a connective or a reference back does not join.
    assert conjoin("Mice lost weight.", "IL-6 rose.") == "Mice lost weight, and IL-6 rose."
    assert conjoin("Mice lost weight.", "However, rats did not.") is None
    assert conjoin("Mice lost weight.", "This effect lasted.") is None


@pytest.fixture(scope="module")
def scifact(shared_corpora: Path) -> dict[str, nd.NLIPair]:
    return {p.pair_id: p for p in nd.load_scifact(shared_corpora)}


def test_context_pairs_widen_the_rationale_and_keep_its_label(
    shared_corpora: Path, scifact: dict[str, nd.NLIPair]
) -> None:
    pairs = load_context_pairs(shared_corpora)
    assert len(pairs) > 800
    for p in pairs:
        base = scifact[p.pair_id.removesuffix(":context")]
        assert base.premise in p.premise and len(p.premise) > len(base.premise)
        assert (p.label, p.split, p.hypothesis) == (base.label, base.split, base.hypothesis)


def test_conjoin_pairs_have_three_labels_and_keep_the_split(shared_corpora: Path) -> None:
    pairs = load_conjoin_pairs(shared_corpora)
    counts = Counter(p.label for p in pairs)
    assert min(counts[E], counts[N], counts[C]) > 200
    split_of_doc: dict[str, set[str]] = {}
    for p in pairs:
        split_of_doc.setdefault(p.pair_id.split(":")[1], set()).add(p.split)
        claim, premise = _words(p.hypothesis) - {"and"}, _words(p.premise)
        if p.label == E:
            assert claim <= premise  # both halves, word for word but for the join
        if p.label == N:
            assert not claim <= premise  # the second half is not stated
    # No abstract gives pairs to both sides of the split.
    assert all(len(s) == 1 for s in split_of_doc.values())
    assert {"train", "heldout"} <= {s for v in split_of_doc.values() for s in v}


def test_the_new_sources_load_by_name(shared_corpora: Path) -> None:
    pairs = nd.load_pairs(shared_corpora, "heldout", sources=["scifact-context", "conjoin"])
    assert {p.source for p in pairs} == {"scifact-context", "conjoin"}
    assert all(p.split == "heldout" for p in pairs)
