"""Typed records shared by the pipeline stages. Frozen, no behaviour beyond small derived values."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

BBox = tuple[float, float, float, float]


class SectionKind(StrEnum):
    abstract = "abstract"
    introduction = "introduction"
    related_work = "related_work"
    methods = "methods"
    results = "results"
    discussion = "discussion"
    conclusion = "conclusion"
    limitations = "limitations"
    acknowledgements = "acknowledgements"
    references = "references"
    appendix = "appendix"
    other = "other"


class BlockKind(StrEnum):
    text = "text"
    heading = "heading"
    caption = "caption"  # figure caption
    table = "table"  # table body or table caption + body
    equation = "equation"
    list = "list"


class VersionKind(StrEnum):
    preprint = "preprint"
    accepted = "accepted"
    published = "published"
    unknown = "unknown"


@dataclass(frozen=True, slots=True)
class Block:
    """One piece of text on one page, in reading order inside its section."""

    text: str
    kind: str = BlockKind.text
    page: int | None = None  # 1-based
    bbox: BBox | None = None  # x0, y0, x1, y1 in PDF points
    ref: str | None = None  # "Figure 2", "Table 1" for captions and tables


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    kind: str = SectionKind.other
    blocks: tuple[Block, ...] = ()
    level: int = 1

    @property
    def text(self) -> str:
        return section_text(self.blocks)

    @property
    def page(self) -> int | None:
        return next((b.page for b in self.blocks if b.page is not None), None)


def section_text(blocks: tuple[Block, ...] | list[Block]) -> str:
    """The section text the chunk offsets refer to: block texts joined by blank lines."""
    return "\n\n".join(b.text for b in blocks)


@dataclass(frozen=True, slots=True)
class Reference:
    raw: str
    title: str | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    venue: str | None = None


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """What every parser returns: the same shape whether it came from PyMuPDF, GROBID or JSONL."""

    title: str | None
    authors: tuple[str, ...] = ()
    abstract: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    year: int | None = None
    venue: str | None = None
    license: str | None = None
    version_kind: str = VersionKind.unknown
    version_label: str | None = None
    page_count: int = 0
    sections: tuple[Section, ...] = ()
    references: tuple[Reference, ...] = ()
    parser: str = ""
    parser_version: str = ""
    has_text_layer: bool = True
    warnings: tuple[str, ...] = ()
    source_id: str | None = None  # id given by a JSONL/BEIR record


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk_id: str
    paper_id: str
    version_id: str
    section: str
    section_kind: str
    ordinal: int
    text: str
    page: int | None
    bbox: BBox | None
    char_start: int
    char_end: int
    kind: str = "text"
    evidence_type: str = "background"
    previous_context: str = ""
    next_context: str = ""
    figure_or_table_ref: str | None = None
    token_count: int = 0


class Label(StrEnum):
    entailment = "entailment"
    neutral = "neutral"
    contradiction = "contradiction"


class Status(StrEnum):
    supported = "supported"
    partially_supported = "partially_supported"
    contradicted = "contradicted"
    unverifiable = "unverifiable"


@dataclass(frozen=True, slots=True)
class EntailProbs:
    """Probabilities for one (premise = evidence, hypothesis = claim) pair; they sum to 1."""

    entailment: float
    neutral: float
    contradiction: float
    # Set when the backend could not judge the pair (an LLM timeout, a malformed answer); the
    # probabilities are then all-neutral and the decision turns the pair into `unverifiable`.
    error: str | None = None
    rationale: str = ""  # the backend's own explanation, when it gives one (the LLM backend)

    @property
    def label(self) -> str:
        best = max(
            (self.entailment, Label.entailment),
            (self.neutral, Label.neutral),
            (self.contradiction, Label.contradiction),
        )
        return str(best[1])


@dataclass(frozen=True, slots=True)
class Finding:
    """What one deterministic check found about a claim against an evidence span."""

    check: str  # number | negation | entity | hedge | condition | comparative
    effect: str  # contradict | partial | ok
    message: str
    claim_span: tuple[int, int] | None = None  # char offsets into the claim
    evidence_span: tuple[int, int] | None = None  # char offsets into the evidence
    claim_text: str = ""
    evidence_text: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    status: str  # a Status value
    confidence: float
    reason: str
    probs: EntailProbs | None = None
    findings: tuple[Finding, ...] = ()
    evidence_index: int | None = None  # which of the candidate evidence spans decided it


def to_row(record: Any) -> dict[str, Any]:
    """A flat dict of a record, for renderers."""
    return asdict(record)


__all__ = [
    "BBox",
    "Block",
    "BlockKind",
    "Card",
    "Chunk",
    "Decision",
    "EntailProbs",
    "EvidenceRef",
    "Finding",
    "Label",
    "ParagraphResult",
    "ParsedDocument",
    "Reference",
    "Risk",
    "Section",
    "SectionKind",
    "Status",
    "VerifyResult",
    "VersionKind",
    "section_text",
    "to_row",
]


# -- verify ---------------------------------------------------------------------------------


class Risk(StrEnum):
    red = "red"  # look now
    yellow = "yellow"  # look
    blue = "blue"  # low risk


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """One piece of evidence behind a card, traceable to a page of a stored file."""

    paper_id: str
    chunk_id: str
    source: str | None  # the file the version was read from (or the records file)
    page: int | None
    snippet: str  # the deciding sentence (or a short window of the chunk)
    match_type: str  # entail | contradict | neutral | related
    score: float = 0.0  # entailment or relevance score behind match_type
    title: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """One finding about one claim (or one paragraph), as DESIGN.md 2.5 shows it."""

    paragraph_id: str
    layer: str  # fact | logic | consistency | lineage
    status: str  # a Status value for fact cards; supported/partially_supported/... or "warning"
    confidence: float
    claim: str
    keyword: str
    evidence: tuple[EvidenceRef, ...] = ()
    suggested_action: str = ""
    finding: str | None = None  # e.g. citation_mismatch, causal_over_correlational, dropped_condition
    downgrade: str | None = None  # a weaker wording suggested for a partially supported claim
    claim_id: str | None = None  # "p_003.c2"


@dataclass(frozen=True, slots=True)
class ParagraphResult:
    paragraph_id: str  # p_001 ...
    section: str
    type: str  # background | method | result | limitation
    risk: str  # a Risk value
    risk_score: float  # 0..1
    span: tuple[int, int]  # character offsets in the draft
    text: str
    cards: tuple[Card, ...] = ()
    layers: tuple[str, ...] = ()
    claims: int = 0
    skipped: int = 0  # non-claims (questions, transitions, intent)


@dataclass(frozen=True, slots=True)
class VerifyResult:
    draft: str  # file name, or "-" for stdin
    draft_sha256: str
    paragraphs: tuple[ParagraphResult, ...]
    summary: dict[str, Any]
    run_id: str | None = None
    corpus: str | None = field(default=None, compare=False, repr=False)  # where decide() writes

    def _repr_html_(self) -> str:
        from sciverify.notebook import verify_result_html

        return verify_result_html(self)

    def decide(
        self, paragraph_id: str, decision: str, *, note: str = "", store: Any = None
    ) -> None:
        """Store accept / revise / reject for one paragraph in the corpus (see notebook.decide)."""
        from sciverify.notebook import decide

        decide(self, paragraph_id, decision, note=note, store=store)
