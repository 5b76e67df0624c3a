"""Paragraph types (background, method, result, limitation) from headings and cue phrases.

The heading gives a prior; cue phrases can override it ("A limitation of these trials ..." in
a Discussion is a limitation paragraph). The type only chooses the layers (settings.routing).
"""

from __future__ import annotations

import re

from sciverify.verify.segment import Segment

# SectionKind of the nearest known heading -> paragraph type.
SECTION_TYPES: dict[str, str] = {
    "abstract": "result",
    "introduction": "background",
    "related_work": "background",
    "methods": "method",
    "results": "result",
    "discussion": "result",
    "conclusion": "result",
    "limitations": "limitation",
    "appendix": "method",
}
CUES: dict[str, tuple[str, ...]] = {
    "limitation": (
        r"\blimitations?\b",
        r"\bfuture (?:work|research|studies|trials)\b",
        r"\bremains? (?:unclear|unknown|to be (?:shown|tested|established))",
        r"\bfurther (?:research|studies|work|trials) (?:is|are|will be) (?:needed|required)",
        r"\binterpreted with caution\b",
        r"\bsmall sample",
        r"\bcaveats?\b",
        r"\bwe (?:could|did) not (?:assess|measure|test|control)",
    ),
    "method": (
        (
            r"\bwe (?:searched|used|included|extracted|screened|selected|collected|recruited|"
            r"applied|trained|computed|ran|implemented|measured)\b"
        ),
        (
            r"\b(?:was|were) (?:searched|included|excluded|extracted|screened|measured|assessed|"
            r"recruited|randomi[sz]ed|collected|sampled|estimated)\b"
        ),
        r"\binclusion criteria\b",
        r"\bsearch terms?\b",
        r"\bprotocol\b",
        r"\bdata ?sets?\b",
    ),
    "result": (
        r"\d\s?%",
        r"\bp\s*[<=>≤]\s*0?\.\d",
        r"\bsignificant(?:ly)?\b",
        r"\b(?:found|showed|reported|observed|demonstrated)\b",
        r"\b(?:increased|decreased|reduced|improved|higher|lower|fewer|more effective)\b",
        r"\bconfidence interval|\b95\s?% CI\b",
    ),
}
_WEIGHT = {"limitation": 1.5, "method": 1.0, "result": 0.75}
_PRIOR = 2.0
_COMPILED = {kind: [re.compile(p, re.IGNORECASE) for p in pats] for kind, pats in CUES.items()}


def paragraph_type(paragraph: Segment) -> str:
    """background, method, result or limitation."""
    base = SECTION_TYPES.get(paragraph.section_kind or "")
    scores = dict.fromkeys(("background", "method", "result", "limitation"), 0.0)
    if base:
        scores[base] += _PRIOR
    for kind, patterns in _COMPILED.items():
        scores[kind] += _WEIGHT[kind] * sum(1 for p in patterns if p.search(paragraph.text))
    if not base and max(scores.values()) < 1.5:
        return "background"
    return max(scores, key=lambda k: (scores[k], k == base))
