"""In-domain NLI pairs made by code from SciFact abstracts whose title states a finding.

A declarative title ("Kruppel-like factor 2 is a transcriptional regulator of chronic and
acute inflammation.") reads like a SciFact claim, and the abstract usually states it again in
a result or conclusion sentence. From each such abstract:

- entailment: the title against the abstract sentence that restates it most closely;
- contradiction: the title negated or its direction reversed, against that same sentence;
- neutral: the title against the closest sentence of another abstract on the same topic.

This adds thousands of scientific pairs in the form of the target task to the few hundred
annotated SciFact rationales. An abstract cited by a SciFact claim takes that claim's split,
so nothing cited by a held-out claim is trained on; uncited abstracts are all training data.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter, defaultdict
from pathlib import Path

from sciverify.records import Label

from . import perturb as pt
from .data import NLIPair, Split, _clean, _need, read_scifact_claims, scifact_doc_splits

# A finite verb of a finding: a title without one is a topic ("Microstructural development of
# ..."), not a claim.
_FINDING_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|does|do|can|may|reduces?|increases?|induces?|causes?|"
    r"promotes?|inhibits?|regulates?|enhances?|impairs?|improves?|prevents?|predicts?|controls?|"
    r"mediates?|requires?|drives?|suppresses?|activates?|blocks?|protects?|determines?|"
    r"contributes?|leads?|affects?|modulates?|limits?|restricts?|triggers?|confers?|"
    r"correlates?|decreases?|lowers?|raises?|underlies|underlie|maintains?|facilitates?|"
    r"delays?|accelerates?|attenuates?|reverses?|restores?|represses?|binds?|targets?|"
    r"counteracts?|governs?|dictates?|elicits?|exacerbates?|alleviates?|ameliorates?)\b",
    re.IGNORECASE,
)
# Sentences that state an aim or a question, not a finding.
_AIM = re.compile(
    r"\b(?:whether|we (?:tested|investigated|examined|asked|hypothesi[sz]ed|sought|aimed)|"
    r"to (?:determine|investigate|examine|assess|test|evaluate)|objective|aims?\b|purpose)",
    re.IGNORECASE,
)
_STOP = frozenset([
    "the", "and", "for", "with", "from", "that", "this", "these", "those", "into", "than", "then",
    "its", "their", "our", "are", "was", "were", "has", "have", "had", "not", "but", "can", "may",
    "also", "between", "during", "after", "before", "within", "without", "via", "using", "which",
    "who", "whose", "while", "where", "when", "both", "each", "other", "such", "more", "most",
    "less",
])
ENTAIL_MIN_OVERLAP = 0.5  # share of the title's content words the restating sentence must hold
# Results and conclusions sit in an abstract's second half: a small bonus ranks them first
# (the threshold above applies to the overlap plus this bonus).
LATE_BONUS = 0.05
NEUTRAL_MAX_OVERLAP = 0.5  # a sentence of another abstract closer than this might support it


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9][a-z0-9\-]{2,}", text.lower()) if w not in _STOP}


def _as_claim(title: str) -> str | None:
    # "Finding: a randomized trial" keeps the finding; a question is not a claim.
    title = _clean(title.split(": ")[0]).rstrip(" .")
    if title.endswith("?") or len(title.split()) < 5:
        return None
    if not _FINDING_VERB.search(title):
        return None
    return title + "."


def _doc_splits(claims_path: Path) -> dict[int, Split]:
    return scifact_doc_splits(read_scifact_claims(claims_path))


def read_title_pairs(claims_path: Path, corpus_path: Path) -> list[NLIPair]:
    """Entailment / contradiction / neutral pairs built from declarative abstract titles."""
    splits = _doc_splits(claims_path)
    docs: dict[int, tuple[str, list[str]]] = {}
    with gzip.open(_need(corpus_path), "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                docs[int(rec["doc_id"])] = (rec["title"], [_clean(s) for s in rec["abstract"]])

    # Content words of every sentence, and their document frequency for picking the nearest
    # other abstract.
    sent_words = {d: [_words(s) for s in sents] for d, (_, sents) in docs.items()}
    doc_words = {d: _words(t).union(*sent_words[d]) for d, (t, _) in docs.items()}
    df = Counter(w for ws in doc_words.values() for w in ws)
    idf = {w: math.log(len(docs) / n) for w, n in df.items()}
    postings: dict[str, list[int]] = defaultdict(list)
    for d, ws in doc_words.items():
        for w in ws:
            if df[w] <= 50:  # only informative words lead to a neighbour
                postings[w].append(d)

    out: list[NLIPair] = []
    for d in sorted(docs):
        title, sents = docs[d]
        claim = _as_claim(title)
        if claim is None or len(sents) < 3:
            continue
        split: Split = splits.get(d, "train")
        tw = _words(claim)
        if len(tw) < 3:
            continue
        scored = [
            (len(tw & ws) / len(tw) + (LATE_BONUS if i >= len(sents) // 2 else 0.0), i)
            for i, (s, ws) in enumerate(zip(sents, sent_words[d], strict=True))
            if i > 0 and not _AIM.search(s) and len(s.split()) >= 6
        ]
        if not scored:
            continue
        best, i = max(scored)
        if best < ENTAIL_MIN_OVERLAP:
            continue
        premise = sents[i]
        pid = f"scifact-title:{d}"
        out.append(NLIPair(premise, claim, Label.entailment, "scifact-title", split, pid + ":e"))
        edited = pt.perturb_negation(claim) or pt.perturb_direction(claim)
        if edited and edited != claim and not re.search(r"(?:^|\s)(?:Did|Does|Do) not ", edited):
            out.append(
                NLIPair(premise, edited, Label.contradiction, "scifact-title", split, pid + ":c")
            )
        # Words in sorted order and ties broken by doc id: a set's order changes with the
        # process's hash seed, and the pairs must not.
        votes: Counter[int] = Counter()
        for w in sorted(tw):
            for other in postings.get(w, ()):
                # A neighbour from the other side of the split would leak its sentences.
                if other != d and splits.get(other, "train") == split:
                    # Counter of float weights; typeshed types Counter values as int.
                    votes[other] += idf[w]  # type: ignore[assignment]
        for other, _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[:3]:
            candidates = [
                (len(tw & ws) / len(tw), k)
                for k, (s, ws) in enumerate(zip(docs[other][1], sent_words[other], strict=True))
                if len(s.split()) >= 6
            ]
            candidates = [c for c in candidates if c[0] < NEUTRAL_MAX_OVERLAP]
            if candidates:
                _, k = max(candidates)
                out.append(
                    NLIPair(
                        docs[other][1][k],
                        claim,
                        Label.neutral,
                        "scifact-title",
                        split,
                        f"{pid}:n{other}",
                    )
                )
                break
    return sorted(out, key=lambda p: p.pair_id)


def load_title_pairs(root: Path) -> list[NLIPair]:
    return read_title_pairs(
        root / "scifact" / "claims_train.jsonl", root / "scifact" / "corpus.jsonl.gz"
    )
