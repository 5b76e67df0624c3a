"""Title-derived NLI pairs: built from the real SciFact abstracts, and kept on their split."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sciverify.entail import data as nd
from sciverify.entail import titles
from sciverify.records import Label

E, N, C = Label.entailment, Label.neutral, Label.contradiction


@pytest.fixture(scope="module")
def pairs(shared_corpora: Path) -> list[nd.NLIPair]:
    return nd.load_pairs(shared_corpora, "all", sources=["scifact-title"])


@pytest.fixture(scope="module")
def abstracts(shared_corpora: Path) -> dict[int, tuple[str, list[str]]]:
    out = {}
    with gzip.open(shared_corpora / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            out[int(rec["doc_id"])] = (rec["title"], [nd._clean(s) for s in rec["abstract"]])
    return out


def test_only_titles_that_state_a_finding_become_claims() -> None:
    assert titles._as_claim("Microstructural development of human newborn white matter") is None
    assert titles._as_claim("Does aspirin reduce the risk of colorectal cancer?") is None
    assert (
        titles._as_claim("Aspirin reduces colorectal cancer risk: a randomised trial")
        == "Aspirin reduces colorectal cancer risk."
    )
    assert titles._as_claim("Kruppel-like factor 2 is a transcriptional regulator.") == (
        "Kruppel-like factor 2 is a transcriptional regulator."
    )


def test_pairs_come_from_their_abstracts(
    pairs: list[nd.NLIPair], abstracts: dict[int, tuple[str, list[str]]]
) -> None:
    counts = Counter(p.label for p in pairs)
    assert counts[E] > 500 and counts[N] > 500 and counts[C] > 300
    by_doc: dict[str, dict[Label, nd.NLIPair]] = {}
    for p in pairs:
        doc = int(p.pair_id.split(":")[1])
        title, sents = abstracts[doc]
        if p.label == E:
            assert p.premise in sents[1:]  # a sentence of its own abstract, not the first
            assert p.hypothesis.rstrip(".") in nd._clean(title)
            shared = titles._words(p.hypothesis) & titles._words(p.premise)
            late = sents.index(p.premise) >= len(sents) // 2
            need = titles.ENTAIL_MIN_OVERLAP - (titles.LATE_BONUS if late else 0.0)
            assert len(shared) >= need * len(titles._words(p.hypothesis)) - 1e-9
        elif p.label == N:
            other = int(p.pair_id.rsplit(":n", 1)[1])
            assert other != doc and p.premise in abstracts[other][1]
            assert p.premise not in sents
        by_doc.setdefault(p.pair_id.rsplit(":", 1)[0], {})[p.label] = p
    for group in by_doc.values():
        if C in group:
            # The contradiction edits the title and reads it against the same sentence.
            assert E in group and group[C].premise == group[E].premise
            assert group[C].hypothesis != group[E].hypothesis


def test_no_training_pair_reads_a_held_out_abstract(
    pairs: list[nd.NLIPair], shared_corpora: Path
) -> None:
    held_out = {
        p.premise for p in nd.load_scifact(shared_corpora) if p.split == "heldout"
    } | {p.hypothesis for p in nd.load_scifact(shared_corpora) if p.split == "heldout"}
    train = [p for p in pairs if p.split == "train"]
    assert train and not any(p.premise in held_out for p in train)
    assert sum(p.split == "heldout" for p in pairs) < 0.1 * len(pairs)
    # Deterministic: the same pairs in the same order on a second build, also in processes
    # whose string hashes (and so set orders) differ.
    assert titles.load_title_pairs(shared_corpora) == titles.load_title_pairs(shared_corpora)
    script = (
        "import hashlib, sys; from pathlib import Path; "
        "from sciverify.entail.titles import load_title_pairs as f; "
        "print(hashlib.sha256(repr(f(Path(sys.argv[1]))).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script, str(shared_corpora)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1
