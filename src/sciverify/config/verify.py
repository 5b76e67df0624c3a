"""The settings block of `verify`: the routing table, decision thresholds, risk rules, budgets.

Everything a user may want to tune lives here as data, in one pydantic block, so that
`settings.verify` (or a `[verify]` table in sciverify.toml) can override it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from sciverify.config.thresholds import DecisionThresholds

LAYERS = ("fact", "logic", "consistency")
PARAGRAPH_TYPES = ("background", "method", "result", "limitation")

# DESIGN.md 2.5: which layers each paragraph type goes through.
ROUTING: dict[str, tuple[str, ...]] = {
    "background": ("fact", "logic"),
    "method": ("fact", "logic", "consistency"),
    "result": ("fact", "logic"),
    "limitation": ("logic", "consistency"),
}
# The exception of the routing table: a result paragraph that reads numbers from a table also
# goes through the consistency layer.
TABLE_EXTRA_LAYERS: dict[str, tuple[str, ...]] = {"result": ("consistency",)}
# And a second: the claims of a limitation paragraph that cite a source are fact-checked
# ("every infant enrolled had a much higher index, which establishes that future trials must
# ... [@sood2014]"): a cited statement is a statement about that source, whatever the paragraph
# goes on to conclude. Its uncited claims (the authors' own outlook) are not.
CITED_EXTRA_LAYERS: dict[str, tuple[str, ...]] = {"limitation": ("fact",)}

# The checks that may turn an on-topic evidence span into a contradiction even when the model
# reads entailment. Direction words ("more" vs "fewer") are as clear as numbers in a review.
_OVERRIDES = ("number", "negation", "comparative")


def _thresholds() -> DecisionThresholds:
    # Relevance here is the lexical coverage of `evidence.relevance` (0..1), not a BM25 score;
    # every threshold is set explicitly so that changes of the engine's defaults do not move it.
    return DecisionThresholds(
        min_relevance=0.45,
        entail_min=0.5,
        contradict_min=0.5,
        related_min=0.25,
        partial_min=0.35,
        override_checks=_OVERRIDES,
    )


class VerifySettings(BaseModel):
    """How `verify` segments a draft, routes its paragraphs and turns evidence into risk."""

    model_config = ConfigDict(extra="forbid")

    routing: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: dict(ROUTING),
        description="Layers per paragraph type (background, method, result, limitation); "
        "layers are fact, logic and consistency.",
    )
    table_extra_layers: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: dict(TABLE_EXTRA_LAYERS),
        description="Extra layers for a paragraph type when it reads numbers from a table.",
    )
    cited_extra_layers: dict[str, tuple[str, ...]] = Field(
        default_factory=lambda: dict(CITED_EXTRA_LAYERS),
        description="Extra layers for the claims of a paragraph type that cite a source "
        "(a limitation paragraph's cited statements are fact-checked, its outlook is not).",
    )
    thresholds: DecisionThresholds = Field(
        default_factory=_thresholds,
        description="Where entailment probabilities, relevance and check findings become a "
        "status (see sciverify.entail.decide).",
    )
    model_weight: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="Weight of the model's entailment probability against the lexical "
        "evidence score when the two are blended; None: 0.5, or 0 for an untrained placeholder.",
    )
    contradiction_weight: float = Field(
        default=0.6,
        ge=0.0,
        le=1.0,
        description="Weight of the model's contradiction probability against the lexical "
        "estimate (which leaves contradictions to the checks): with 0.6 the model alone calls a "
        "contradiction from P >= 0.8. benchmarks/verify_scifact.py: macro-F1 0.53 at 0.3, 0.64 "
        "at 0.6; the labelled drafts are unchanged from 0.3 to 0.8.",
    )
    model_entail_alone: float = Field(
        default=0.85,
        ge=0.0,
        le=1.0,
        description="A candidate sentence of a paper the claim cites that the model alone reads "
        "as entailing the claim with this probability entails it however few of the claim's "
        "words it shares: a close paraphrase "
        "('do not necessarily derive from the configurations ... that should be the correct "
        "ones' for 'need not come from the setups that are correct in theory'). The checks "
        "still catch a changed number, polarity or condition. 1.0 turns it off. Labelled "
        "drafts (drafts_extra / drafts_more development, claims): 0.781 / 0.783 at 0.95, "
        "0.792 / 0.792 at 0.85 and at 0.7; 0.7 moves one paragraph's risk each way.",
    )
    related_relevance: float = Field(
        default=0.6,
        ge=0.0,
        le=1.0,
        description="A sentence this relevant is about the same thing as the claim: when a check "
        "finds a missing number, entity or condition in it, the claim is partially supported "
        "even where the model calls the pair neutral.",
    )
    lexical_entail_min: float = Field(
        default=0.75,
        ge=0.0,
        le=1.0,
        description="A sentence that states this share of the claim (words and numbers) entails "
        "it lexically, whatever the model says; the checks still catch what differs. In a paper "
        "the draft cites, joint_min is the share.",
    )
    decide_margin: float = Field(
        default=0.08,
        ge=0.0,
        le=1.0,
        description="Evidence spans within this relevance of the best span take part in the "
        "decision; the others are shown as related evidence only.",
    )
    model_margin: float = Field(
        default=0.16,
        ge=0.0,
        le=1.0,
        description="Spans within this relevance of the best span decide a claim by the model "
        "alone: its contradiction (no check's conflict) unless the closer spans contradict the "
        "claim, its entailment where they leave the claim open; an abstract restates a finding "
        "in other words. benchmarks/verify_scifact.py macro-F1 (train / held-out claims), "
        "measured before the contradiction also overrode a check's gap: 0.715 / 0.613 "
        "without it, 0.732 / 0.645 at 0.12, 0.746 / 0.645 at 0.16, 0.744 / 0.629 at 0.2; the "
        "labelled drafts are unchanged. The same 0.16 as decide_margin (a check's conflict "
        "deciding too) costs four draft claims (numbers from other sentences of full papers). "
        "One check's conflict does decide there: a direction the comparatives check reads "
        "reversed in words ('minimise' against the claim's 'maximise'), when the closer "
        "sentences that support the claim say which way nothing goes.",
    )
    k_cited: int = Field(
        default=4, ge=0, le=50, description="Chunks retrieved from the cited papers."
    )
    k_open: int = Field(
        default=6, ge=0, le=50, description="Chunks retrieved from the whole corpus."
    )
    max_pairs_per_claim: int = Field(
        default=5,
        ge=1,
        le=50,
        description="Evidence sentences per claim sent to the entailment model.",
    )
    min_candidate_relevance: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="Sentences stating less of the claim than this are not sent to the model.",
    )
    parts: bool = Field(
        default=True,
        description="Re-check a compound claim (clauses joined by ';', ', and', ', while' ...) "
        "part by part against its paper when the whole claim reads as unverifiable, as "
        "contradicted by the model alone or as related only (sciverify.verify.parts).",
    )
    joint_min: float = Field(
        default=0.6,
        ge=0.0,
        le=1.0,
        description="A claim that one to four sentences of a paper it cites state together to "
        "this share (words and numbers, like lexical_entail_min; in a paper it does not cite, "
        "lexical_entail_min) is supported by them when no check finds a conflict or gap (see "
        "parts). One sentence needing lexical_entail_min instead, drafts_fresh / drafts_final / "
        "drafts_holdout: 0.841 / 0.623 / 0.862 of claims right, against 0.866 / 0.649 / 0.869 "
        "with joint_min. Labelled drafts (drafts_final / drafts_holdout): 0.518 / 0.821 of claims "
        "right at 0.75, 0.553 / 0.828 at 0.65, 0.561 / 0.828 at 0.6 with the checks of an "
        "earlier release; with later checks, drafts_fresh / drafts_final 0.805 / 0.614 at "
        "0.65, 0.841 / 0.623 at 0.6, 0.841 / 0.632 at 0.55 (0.6 kept: one false support fewer "
        "than 0.55). Four sentences rather than three: drafts_final / drafts_extra / drafts_more "
        "development 0.842 / 0.837 / 0.840 -> 0.851 / 0.843 / 0.858, no claim lost.",
    )
    long_claim_words: int = Field(
        default=13,
        ge=1,
        description="A claim with this many content words usually joins several statements of "
        "its paper: the model's contradiction of it, with no check's, is partial support, and "
        "it is re-checked against several sentences (see parts).",
    )
    max_claim_pairs: int = Field(
        default=3,
        ge=0,
        le=20,
        description="Earlier claims per claim compared for contradictions between paragraphs.",
    )
    contradiction_overlap: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Share of content words two claims must share before one can contradict "
        "the other.",
    )
    batch_claims: int = Field(
        default=400,
        ge=1,
        description="Claims per model batch; a longer draft is processed batch by batch.",
    )
    max_paragraph_tokens: int = Field(
        default=320,
        ge=32,
        description="A paragraph longer than this is split at sentence boundaries.",
    )
    topic_split_similarity: float = Field(
        default=0.12,
        ge=-1.0,
        le=1.0,
        description="A block is split where the embedding similarity of two consecutive "
        "sentences falls below this (and well below the block's mean).",
    )
    topic_split_min_sentences: int = Field(
        default=4, ge=2, description="Blocks with fewer sentences are never split by topic."
    )
    min_english_share: float = Field(
        default=0.45,
        ge=0.0,
        le=1.0,
        description="Share of paragraphs that must read as English; below it the draft is refused.",
    )
    risk_red_min: float = Field(
        default=0.7,
        ge=0.0,
        le=1.0,
        description="A paragraph is red from this risk score (contradictions score 0.70-1.00 by "
        "their confidence, partial support 0.35-0.65, the rest 0-0.30); `sciverify calibrate` "
        "fits it to reviewers' decisions.",
    )
    risk_yellow_min: float = Field(
        default=0.35,
        ge=0.0,
        le=1.0,
        description="A paragraph is yellow from this risk score (below risk_red_min); "
        "`sciverify calibrate` fits it to reviewers' decisions.",
    )
    risk_unverifiable_yellow: bool = Field(
        default=True,
        description="An unverifiable claim that carries a specific number or cites a paper the "
        "corpus lacks makes its paragraph yellow (otherwise unverifiable stays blue), unless the "
        "papers it cites give each of its figures somewhere.",
    )
