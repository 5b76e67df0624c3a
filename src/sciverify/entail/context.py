"""NLI pairs with the premises and claims that `verify` meets: several sentences, joined claims.

The bundled model is trained mostly on one evidence sentence against one claim. In `verify` it
reads pairs of neighbouring sentences, and the claims of a summary join two statements of a
paper into one sentence. Stage 9 read most such premises as contrary (labelled drafts: a median
P(contradiction) near 0.9 for faithful claims against the joined sentences that state them).
Two sources made by code from SciFact, both split like SciFact (an abstract cited by a held-out
claim is held out):

- `scifact-context`: each annotated SciFact pair again, its rationale read with the sentence
  before and after it. The label stays: a sentence more of the same abstract changes nothing.
- `conjoin`: two neighbouring abstract sentences joined into one claim ("A, and b"). Against
  both sentences it is entailed; against the first and another sentence
  of the abstract it is neutral (the second half is not stated); with the second half negated
  or its direction reversed it is contradicted.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sciverify.records import Label

from . import perturb as pt
from .data import (
    NLIPair,
    _clean,
    read_scifact_claims,
    read_scifact_corpus,
    scifact_doc_splits,
    scifact_groups,
    split_of,
)

_MIN_WORDS = 6
_CAP = 900  # pairs per label of `conjoin`


def read_context_pairs(claims_path: Path, corpus_path: Path) -> list[NLIPair]:
    """SciFact's annotated pairs, each rationale read with its neighbouring sentences."""
    docs = read_scifact_corpus(corpus_path)
    claims = read_scifact_claims(claims_path)
    groups = scifact_groups(claims)
    out = []
    for c in claims:
        cid, claim = int(c["id"]), _clean(c["claim"])
        split = split_of(groups[cid])
        for doc_id, sets in sorted(c.get("evidence", {}).items()):
            sents = docs.get(int(doc_id), [])
            for k, ev in enumerate(sets):
                idx = sorted(i for i in ev["sentences"] if i < len(sents))
                if not idx:
                    continue
                wide = sorted(
                    set(idx) | {j for j in (idx[0] - 1, idx[-1] + 1) if 0 <= j < len(sents)}
                )
                if len(wide) == len(idx):
                    continue
                label = Label.entailment if ev["label"] == "SUPPORT" else Label.contradiction
                premise = " ".join(sents[i] for i in wide)
                pid = f"scifact:{cid}:{doc_id}:{k}:context"
                out.append(NLIPair(premise, claim, label, "scifact-context", split, pid))
    return out


def conjoin(first: str, second: str) -> str | None:
    """ "A." + "B ..." -> "A, and b ..."; None when the second sentence does not continue
    well (it opens with a connective or a reference to the first)."""
    a = first.rstrip().rstrip(".").rstrip()
    b = second.strip()
    if not a or not b or a.endswith((";", ":", "?")) or b.endswith("?"):
        return None
    head = b.split()[0]
    if re.match(
        r"(?i)(?:however|in contrast|moreover|furthermore|thus|therefore|this|these|"
        r"it|they|such|here|finally|conclusions?|results?|methods?|background)\b",
        head,
    ):
        return None
    if not (head.isupper() or any(ch.isdigit() for ch in head) or re.search(r"[A-Z].*[A-Z]", head)):
        b = b[0].lower() + b[1:]
    return f"{a}, and {b}"


def read_conjoin_pairs(claims_path: Path, corpus_path: Path) -> list[NLIPair]:
    """Claims that join two neighbouring sentences of an abstract, in three labels."""
    docs = read_scifact_corpus(corpus_path)
    splits = scifact_doc_splits(read_scifact_claims(claims_path))
    rows: dict[str, list[NLIPair]] = {"e": [], "n": [], "c": []}
    for d in sorted(splits):
        sents = docs.get(d, [])
        usable = [
            i
            for i in range(1, len(sents) - 1)
            if len(sents[i].split()) >= _MIN_WORDS and len(sents[i + 1].split()) >= _MIN_WORDS
        ]
        if not usable:
            continue
        i = usable[pt._pick(str(d), 0, len(usable), "conjoin")]
        claim = conjoin(sents[i], sents[i + 1])
        if claim is None:
            continue
        split, pid = splits[d], f"conjoin:{d}:{i}"
        wide = [i, i + 1]
        rows["e"].append(
            NLIPair(
                " ".join(sents[j] for j in wide),
                claim,
                Label.entailment,
                "conjoin",
                split,
                pid + ":e",
            )
        )
        far = [
            j for j in range(len(sents)) if abs(j - i) >= 3 and len(sents[j].split()) >= _MIN_WORDS
        ]
        if far:
            j = far[pt._pick(str(d), 0, len(far), "far")]
            premise = " ".join(sents[k] for k in sorted((i, j)))
            rows["n"].append(NLIPair(premise, claim, Label.neutral, "conjoin", split, pid + ":n"))
        edited = pt.perturb_negation(sents[i + 1]) or pt.perturb_direction(sents[i + 1])
        flipped = conjoin(sents[i], edited) if edited and edited != sents[i + 1] else None
        if flipped:
            premise = " ".join(sents[j] for j in wide)
            rows["c"].append(
                NLIPair(premise, flipped, Label.contradiction, "conjoin", split, pid + ":c")
            )
    out: list[NLIPair] = []
    for label in sorted(rows):
        ranked = sorted(rows[label], key=lambda p: hashlib.sha256(p.pair_id.encode()).hexdigest())
        out.extend(sorted(ranked[:_CAP], key=lambda p: p.pair_id))
    return out


def load_context_pairs(root: Path) -> list[NLIPair]:
    return read_context_pairs(
        root / "scifact" / "claims_train.jsonl", root / "scifact" / "corpus.jsonl.gz"
    )


def load_conjoin_pairs(root: Path) -> list[NLIPair]:
    return read_conjoin_pairs(
        root / "scifact" / "claims_train.jsonl", root / "scifact" / "corpus.jsonl.gz"
    )
