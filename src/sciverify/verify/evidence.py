"""Evidence for claims: retrieval, sentence-level candidates and their lexical score.

For each claim the papers the draft cites are searched first (restricted with
`Filters(paper_ids=...)`), then the whole corpus (skipped when a cited paper already states the
claim nearly word for word); the best chunks are cut into sentences (and pairs of neighbouring
sentences when a pair states clearly more, since PDF text often breaks a sentence across
blocks), scored lexically against the claim (`relevance`), and only the best few per claim are
kept. `decision.py` turns them into a status, with the entailment model.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sciverify.entail import lexicon as lx
from sciverify.entail.aims import is_aim
from sciverify.records import Decision, EntailProbs, Status
from sciverify.verify.citations import Resolver, Source
from sciverify.verify.claims import Claim
from sciverify.verify.settings import VerifySettings

_PAIR_GAIN = 0.1  # what a two-sentence window must add over its best sentence
_MAX_SPAN_CHARS = 400
_DEFAULT_MODEL_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class Span:
    """One candidate evidence sentence (or sentence pair) from one chunk."""

    text: str
    paper_id: str
    chunk_id: str
    title: str | None
    page: int | None
    source: str | None
    evidence_type: str
    cited: bool
    relevance: float
    section_kind: str = ""


@dataclass(slots=True)
class ClaimCheck:
    """Everything the fact layer knows about one claim."""

    claim: Claim
    query: str
    sources: list[Source] = field(default_factory=list)  # its own citations, resolved
    context_sources: list[Source] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    probs: list[EntailProbs] = field(default_factory=list)
    decision: Decision | None = None
    status: str = Status.unverifiable
    finding: str | None = None
    deciding: Span | None = None
    related: list[Span] = field(default_factory=list)  # other useful spans to show
    joined: list[Span] = field(default_factory=list)  # sentences that decide it together
    note: str = ""
    # Left unverifiable, but its cited papers give each of its figures somewhere: not a figure
    # the draft made up (set by `decision.changed_figure`).
    figures_stated: bool = False

    @property
    def cited_papers(self) -> tuple[str, ...]:
        own = tuple(p for s in self.sources for p in s.paper_ids)
        return own or tuple(p for s in self.context_sources for p in s.paper_ids)

    @property
    def missing(self) -> list[Source]:
        return [s for s in self.sources if not s.paper_ids]


# ---------------------------------------------------------------------------- lexical score


@functools.lru_cache(maxsize=20000)
def _stems(text: str) -> frozenset[str]:
    return frozenset(lx.content_stems(lx.words(text)))


@functools.lru_cache(maxsize=20000)
def _values(text: str) -> tuple[tuple[float, int], ...]:
    from sciverify.entail.quantities import flattened_powers, parse_quantities

    out = []
    for q in parse_quantities(text):
        out.append((q.value, q.decimals))
        if q.high is not None:
            out.append((q.high, q.decimals))
    out.extend((v, 0) for v in flattened_powers(text))
    return tuple(out)


@functools.lru_cache(maxsize=20000)
def _ev_values(text: str) -> tuple[tuple[float, int], ...]:
    """`_values` of an evidence text, with the counts and shares it spells out ("Seven
    infants", "half of") and the numbers a table writes with a space between thousands
    ("23 200 Kb/s"; read both ways, as a row of values may be spaced alike)."""
    from sciverify.entail.quantities import spelled_quantities

    spaced = tuple((float(m.group().replace(" ", "")), 0) for m in _SPACED.finditer(text))
    return _values(text) + tuple((q.value, 0) for q in spelled_quantities(text)) + spaced


_SPACED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d]|[.,]\d)")


def relevance(claim: str, text: str, context: frozenset[str] = frozenset()) -> float:
    """How much of the claim `text` states, 0..1: content words (70%) and numbers (30%).

    A claim word found only in `context` (the stems of the chunk and its paper's title) counts
    half: the sentence is read as part of its passage, as a reader would.
    """
    return _coverage(claim, _pool(text), _ev_values(text), context)


def joint_relevance(claim: str, texts: Sequence[str]) -> float:
    """`relevance` of the sentences `texts` read together (as if joined by spaces)."""
    stems = frozenset().union(*(_pool(t) for t in texts))
    return _coverage(claim, stems, tuple(v for t in texts for v in _ev_values(t)))


@functools.lru_cache(maxsize=20000)
def _pool(text: str) -> frozenset[str]:
    """The stems a text offers a claim: its content stems, and its hyphenated words run
    together ("Robot-Reviewer": robotreviewer), which a claim may write as one word."""
    out = set(_stems(text))
    for w in lx.words(text):
        if _parts(w.text):
            out.add(lx.stem(w.lower.replace("-", "")))
    return frozenset(out)


# A hyphenated word that opens on one of these is one word: "pro-inflammatory" is not "pro"
# and "inflammatory", "non-teaching" not "teaching".
_BOUND_PREFIXES = frozenset(
    lx.split_words(
        """
        anti pro non pre post co re de un multi sub inter intra over under self semi counter
        cross hyper hypo micro macro mono poly bi tri extra ultra trans meta neo
        """
    )
)


def _parts(word: str) -> tuple[str, ...]:
    """The parts of a hyphenated word that stand for it when written apart ("risk-of-bias":
    risk, bias); none for a prefix ("anti-tumour") or a name with a number ("IL-6")."""
    pieces = word.lower().split("-")
    if pieces[0] in _BOUND_PREFIXES or any(p[:1].isdigit() for p in pieces):
        return ()
    return tuple(lx.hyphen_parts(word))


# "Datta and colleagues", "Larsen et al.": the summary names the authors, the paper does not.
_AUTHOR = re.compile(
    r"\b[A-Z][\w'’-]+(?=\s+(?:et al\b|and (?:colleagues|co-?workers|co-?authors)\b))"
)


@functools.lru_cache(maxsize=20000)
def _units(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The content stems a sentence must state to state the claim (no framing words), each
    with the parts of its word when hyphenated."""
    seen: dict[str, tuple[str, ...]] = {}
    authors = {m.start() for m in _AUTHOR.finditer(text)}
    for w in lx.words(text):
        if w.start in authors or not lx.is_content(w) or w.lower in lx.FRAMING:
            continue
        seen.setdefault(w.stem, _parts(w.text))
    return tuple(seen.items()) or tuple((s, ()) for s in sorted(_stems(text)))


def _coverage(
    claim: str,
    e: frozenset[str],
    ev: tuple[tuple[float, int], ...],
    context: frozenset[str] = frozenset(),
) -> float:
    from sciverify.entail.quantities import numbers_found

    c = _units(claim)
    if not c:
        return 0.0

    def found(s: str, parts: tuple[str, ...], pool: frozenset[str]) -> bool:
        # The claim's "risk-of-bias" is found in "risk of bias".
        return (
            s in pool
            or (len(s) >= 6 and any(t[:6] == s[:6] for t in pool))
            or (bool(parts) and all(p in pool for p in parts))
        )

    hits = sum(
        1.0 if found(s, p, e) else 0.5 if context and found(s, p, context) else 0.0 for s, p in c
    )
    cover = hits / len(c)
    nums = _values(claim)
    if not nums:
        return cover
    matched = numbers_found(nums, ev)
    return 0.7 * cover + 0.3 * matched / len(nums)


def lexical_probs(rel: float, th: Any) -> EntailProbs:
    """Probabilities implied by lexical coverage alone: on topic from `min_relevance` up,
    entailing from about 0.1 above it. Contradiction is left to the deterministic checks."""
    if rel < th.min_relevance:
        pe = 0.05
    else:
        pe = min(0.9, 0.35 + (rel - th.min_relevance) * 1.6)
    pc = 0.05
    return EntailProbs(pe, max(0.0, 1.0 - pe - pc), pc)


def blend(
    model: EntailProbs,
    lexical: EntailProbs,
    weight: float,
    *,
    contradiction_weight: float = 0.3,
    lexical_entails: bool = False,
    model_alone: float = 1.0,
) -> EntailProbs:
    """Model and lexical probabilities mixed per label; a near-verbatim sentence entails, and
    so does one the model alone reads as entailing with at least `model_alone`."""
    if model.error:
        return model
    w = weight
    e = w * model.entailment + (1 - w) * lexical.entailment
    if lexical_entails:
        e = max(e, lexical.entailment)
    if w > 0 and model.entailment >= model_alone:
        e = max(e, model.entailment)
    wc = min(contradiction_weight, w) if w == 0 else contradiction_weight
    c = wc * model.contradiction + (1 - wc) * lexical.contradiction
    if e + c > 1:
        e, c = e / (e + c), c / (e + c)
    return EntailProbs(
        round(e, 6), round(max(0.0, 1 - e - c), 6), round(c, 6), rationale=model.rationale
    )


def span_probs(
    model: EntailProbs,
    rel: float,
    cfg: VerifySettings,
    weight: float,
    *,
    cited: bool = False,
    lexical_entails: bool | None = None,
) -> EntailProbs:
    """A sentence's probabilities for `verify`: the model's, blended with the lexical estimate
    of its relevance `rel`. A sentence that states nearly all of the claim entails it, unless
    `lexical_entails` says otherwise: from `lexical_entail_min`, or from `joint_min` in a
    paper the draft cites (as several of its sentences do together, see `parts`)."""
    if lexical_entails is None:
        lexical_entails = rel >= (cfg.joint_min if cited else cfg.lexical_entail_min)
    return blend(
        model,
        lexical_probs(rel, cfg.thresholds),
        weight,
        contradiction_weight=cfg.contradiction_weight,
        lexical_entails=lexical_entails,
        model_alone=cfg.model_entail_alone if cited else 1.0,
    )


def model_weight(cfg: VerifySettings, entailer: Any) -> float:
    """The configured weight, else 0.5 — or 0 for the bundled model while it is an untrained
    placeholder, whose probabilities carry no information."""
    if cfg.model_weight is not None:
        return cfg.model_weight
    if getattr(entailer, "name", "") == "bundled":
        from sciverify.entail.backends import bundled_model_path

        try:
            config = json.loads((bundled_model_path() / "config.json").read_text())
        except (OSError, ValueError):
            return _DEFAULT_MODEL_WEIGHT
        if config.get("sciverify_trained") is False:
            return 0.0
    return _DEFAULT_MODEL_WEIGHT


# ---------------------------------------------------------------------------- retrieval


def _windows(text: str) -> list[tuple[str, bool]]:
    """Each sentence of a chunk, and each pair of neighbours (True), whitespace normalised."""
    from sciverify.chunk import split_sentences

    sents = [" ".join(text[s:e].split()) for s, e in split_sentences(text)]
    sents = [s for s in sents if len(re.findall(r"[A-Za-z]{2,}", s)) >= 3]
    out = [(s[:_MAX_SPAN_CHARS], False) for s in sents]
    out += [(c, False) for s in sents for c in _clauses(s)]
    out += [(f"{a} {b}"[:_MAX_SPAN_CHARS], True) for a, b in itertools.pairwise(sents)]
    return out


def _clauses(sentence: str) -> list[str]:
    """The clauses of a sentence that joins several statements with semicolons, when each is
    a statement of its own: "The WMD of Hb was 12.88 g/l (95% CI ...); the WMD of SF was
    10.05 mg/l (95% CI ...)". A claim about one of them is read against that clause alone, so
    the other's figures and conditions do not stand in its way."""
    parts = [p.strip() for p in _CLAUSE_SPLIT.split(sentence)]
    if len(parts) < 2 or any(len(re.findall(r"[A-Za-z]{2,}", p)) < 4 for p in parts):
        return []
    return [p[:_MAX_SPAN_CHARS] for p in parts]


# A semicolon outside brackets: "(95% CI 6.03 to 19.74; p<0.001)" stays whole.
_CLAUSE_SPLIT = re.compile(r";\s+(?![^()\[\]]*[)\]])")


def build_query(claim: Claim, context: str) -> str:
    """The claim, with the previous claim as context when it is short or starts with a pronoun."""
    short = len(_stems(claim.text)) < 6
    return (
        f"{context} {claim.text}".strip() if (short or claim.anaphoric) and context else claim.text
    )


def gather(
    checks: Sequence[ClaimCheck],
    *,
    store: Any,
    settings: Any,
    cfg: VerifySettings,
    resolver: Resolver,
    sentences: PaperSentences | None = None,
) -> None:
    """Resolve citations, retrieve chunks and pick each claim's candidate spans (in place).

    With `sentences`, a cited paper's sentences that give one of the claim's precise figures
    ("10.05 mg/l") are candidates too: retrieval ranks chunks by words, and the one sentence
    that reports the figure may lose to captions that name the same measure."""
    from sciverify.search import make_filters, prime_queries, search

    prime_queries([c.query for c in checks], store=store, settings=settings)
    for check in checks:
        claim = check.claim
        check.sources = [s for c in claim.citations for s in resolver.resolve(c)]
        check.context_sources = [s for c in claim.context_citations for s in resolver.resolve(c)]
        cited = tuple(sorted(set(check.cited_papers)))
        spans: list[Span] = []
        seen: set[str] = set()
        if cited and cfg.k_cited:
            found = search(
                check.query,
                store=store,
                settings=settings,
                k=cfg.k_cited,
                filters=make_filters(paper_ids=cited),
            )
            spans += spans_of(claim.text, [(h, True) for h in found], seen)
        # The cited papers come first: when one of them states the claim nearly word for word,
        # the rest of the corpus has nothing to add and is not searched.
        if sentences is not None and cited:
            spans += figure_sentences(claim.text, sentences, cited, seen, spans)
        settled = any(s.relevance >= cfg.lexical_entail_min for s in spans)
        if cfg.k_open and not settled:
            found = search(check.query, store=store, settings=settings, k=cfg.k_open)
            spans += spans_of(claim.text, [(h, h.paper_id in cited) for h in found], seen)
        spans = [s for s in spans if s.relevance >= cfg.min_candidate_relevance]
        check.spans = _pick(spans, cfg.max_pairs_per_claim, bool(cited))


def spans_of(claim: str, hits: list[tuple[Any, bool]], seen: set[str]) -> list[Span]:
    """Sentence (and useful sentence-pair) candidates of the hits not seen before."""
    spans: list[Span] = []
    for hit, is_cited in hits:
        if hit.chunk_id in seen:
            continue
        seen.add(hit.chunk_id)
        context = _pool(f"{hit.title or ''} {hit.text}")
        singles: dict[str, float] = {}
        for text, is_pair in _windows(hit.text):
            rel = relevance(claim, text, context)
            if is_pair:
                # A pair is a candidate only when it states clearly more than each of its
                # sentences: an extra sentence brings extra conditions for the checks.
                parts = [v for k, v in singles.items() if k in text]
                if parts and rel < max(parts) + _PAIR_GAIN:
                    continue
            else:
                singles[text] = rel
            spans.append(
                Span(
                    text,
                    hit.paper_id,
                    hit.chunk_id,
                    hit.title,
                    hit.page,
                    hit.source,
                    hit.evidence_type,
                    is_cited,
                    round(rel, 4),
                    hit.section_kind,
                )
            )
    return spans


# A figure precise enough to tie a sentence to the claim's measurement: a decimal ("10.05",
# "0.83"), a number with thousands separators ("1,000") or a number of three or more digits
# that is not a year.
_FIGURE = re.compile(
    r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+[.·]\d+|(?!(?:19|20)\d\d(?!\d))\d{3,})"
    r"(?![\d]|[.,]\d)"
)
_FIGURE_SENTENCES = 2  # at most this many per claim


def figure_sentences(
    claim: str,
    sentences: PaperSentences,
    paper_ids: Sequence[str],
    seen: set[str],
    retrieved: Sequence[Span] = (),
) -> list[Span]:
    """The sentences of the papers that give one of the claim's precise figures that no
    `retrieved` sentence gives, most relevant first."""
    figures = precise_figures(claim) - set().union(*(precise_figures(s.text) for s in retrieved))
    if not figures:
        return []
    found = []
    for pid in paper_ids:
        for s in sentences(pid):
            if not figures & precise_figures(s.text):
                continue
            whole = s.text  # a table's caption and column heads stay its context
            if len(s.text) > _MAX_SPAN_CHARS:
                # A table flattened into one long "sentence": the cells around the figure
                # (its row's label and neighbours) stand for it, even in a chunk retrieved
                # already (its candidates stop short of the row).
                row = _row_around(s.text, figures)
                if row is None:
                    continue
                s = replace(s, text=row)
            elif s.chunk_id in seen:
                continue
            # of a sentence that joins several results, the clause that gives the figure
            text = next((c for c in _clauses(s.text) if figures & precise_figures(c)), s.text)
            context = _pool(f"{s.title or ''} {whole}")
            found.append(replace(s, text=text, relevance=round(relevance(claim, text, context), 4)))
    found.sort(key=lambda s: (-s.relevance, s.chunk_id, s.text))
    return found[:_FIGURE_SENTENCES]


_ROW_TOKENS = 8  # tokens kept on each side of a figure found in a flattened table
_ROWS_TOKENS = 40  # the most tokens between the first and the last figure of one window


def _row_around(text: str, figures: set[str]) -> str | None:
    """The tokens of a flattened table (a third of its tokens or more are numbers) around the
    first of `figures` it gives, and on to the last of them that lies within `_ROWS_TOKENS`
    ("0.24 against 0.21 for English and 0.43 against 0.38 for German": two rows of one
    table); None for prose."""
    tokens = text.split()
    numeric = _numeric_tokens(tokens)
    if numeric < 3 * _ROW_TOKENS / 2 or numeric < len(tokens) / 3:
        return None
    at = [i for i, token in enumerate(tokens) if figures & precise_figures(token)]
    if not at:
        return None
    last = max(i for i in at if i - at[0] <= _ROWS_TOKENS)
    return " ".join(tokens[max(0, at[0] - _ROW_TOKENS) : last + _ROW_TOKENS + 1])


def tabular(text: str) -> bool:
    """Mostly numbers: cells of a table flattened into a line ("2.67 (2.07) 2.48 (1.63) ...")."""
    tokens = text.split()
    return len(tokens) >= 6 and _numeric_tokens(tokens) >= 0.5 * len(tokens)


def _numeric_tokens(tokens: Sequence[str]) -> int:
    """How many of the tokens are numbers ("2.67", "(2.07)", "-0.4", "12%")."""
    return sum(1 for t in tokens if re.fullmatch(r"[-+−]?[\d.,]+%?", t.strip("()[];,")))


def precise_figures(text: str) -> set[str]:
    """The precise figures of a text, p-values left out ("p<0.00001" ties nothing)."""
    return {
        m.group(0).replace("·", ".").replace(",", "")  # "1,134,890" is the table's "1134890"
        for m in _FIGURE.finditer(text)
        if not _P_BEFORE.search(text, max(0, m.start() - 4), m.start())
    }


_P_BEFORE = re.compile(r"\bp\s*[<=>≤≥]\s*$", re.IGNORECASE)


class PaperSentences:
    """Every sentence of a paper's chunks, in reading order, read from the store once per run.

    A draft joins what a paper states in several places, and retrieval returns a few chunks:
    the sentence that names the claim's dataset, or the table that gives its figure, may be in
    none of them. `refine` scans all of a cited paper's sentences for a claim that no retrieved
    sentence settles, and `decision.name_gaps` looks there for what the deciding sentence
    leaves out. A table whose cells the parser read one block each is one line here
    (`_join_cells`), so that a row's figures are read together.
    """

    def __init__(self, store: Any) -> None:
        self._store = store
        self._papers: dict[str, list[Span]] = {}

    def __call__(self, paper_id: str) -> list[Span]:
        if paper_id not in self._papers:
            self._papers[paper_id] = self._read(paper_id)
        return self._papers[paper_id]

    def _read(self, paper_id: str) -> list[Span]:
        from sciverify.chunk import split_sentences

        rows = self._store.rows(
            "SELECT c.chunk_id, c.page, c.evidence_type, c.section_kind, c.text, w.title,"
            " v.source_path AS source FROM chunks c JOIN works w USING (paper_id)"
            " LEFT JOIN versions v ON v.version_id = c.version_id"
            " WHERE c.paper_id = ? ORDER BY c.section_ordinal, c.ordinal, c.chunk_id",
            [paper_id],
        )
        out: list[Span] = []
        for r in rows:
            text = r["text"]
            for a, b in split_sentences(text):
                sentence = " ".join(text[a:b].split())
                if sentence:
                    out.append(
                        Span(
                            sentence,
                            paper_id,
                            r["chunk_id"],
                            r["title"],
                            r["page"],
                            r["source"],
                            r["evidence_type"],
                            True,
                            0.0,
                            r["section_kind"] or "",
                        )
                    )
        return _join_cells(out)

    def best(self, claim: str, paper_ids: Sequence[str], k: int) -> list[Span]:
        """The `k` sentences of the papers that state the most of `claim` (by `relevance`)."""
        scored = []
        for pid in paper_ids:
            for s in self(pid):
                if len(s.text) <= _MAX_SPAN_CHARS and len(re.findall(r"[A-Za-z]{2,}", s.text)) >= 3:
                    scored.append(replace(s, relevance=round(relevance(claim, s.text), 4)))
        scored.sort(key=lambda s: (-s.relevance, s.chunk_id, s.text))
        return scored[:k]


_CELL_CHARS = 80  # a cell, or a row of a few cells, that the parser read as a block
_LABEL_CHARS = 20  # a row or column label among a table's cells ("with BiRNN")
_LABEL_WORDS = 3
_CELL_RUN = 3  # cells in a row that make a table
_HEAD_SENTENCES = 3  # sentences before a table's cells searched for its caption and heads
_CAPTION = re.compile(r"(?:Table|TABLE|Tab\.)\s+[\dIVX]+")


def _short(text: str) -> bool:
    """A cell of a table: a few cells ("71.31 50 96.52", "72.55 AD") or a label of a row or
    column ("with BiRNN", "P R F1") that the parser read as a block of its own."""
    if _numeric(text):
        return len(text) <= _CELL_CHARS
    return (
        len(text) <= _LABEL_CHARS
        and len(text.split()) <= _LABEL_WORDS
        and not re.search(r"[.!?:;,]$", text)
    )


def _numeric(text: str) -> bool:
    """Half of the text's tokens or more are numbers."""
    tokens = text.split()
    return bool(tokens) and 2 * _numeric_tokens(tokens) >= len(tokens)


def _head(before: Sequence[Span], first: Span) -> list[str]:
    """The caption ("Table 2. Ablation study on ACE2005 test set.") and column heads ("P R F1")
    among the sentences just `before` a table's first cell, on its page."""
    before = [s for s in before if (s.paper_id, s.page) == (first.paper_id, first.page)]
    at = next(
        (
            k
            for k, s in enumerate(before)
            if _CAPTION.match(s.text) and len(s.text) <= _MAX_SPAN_CHARS
        ),
        None,
    )
    if at is not None:
        return [s.text for s in before[at:]]
    return [s.text for s in before[-1:] if _column_heads(s.text)]


def _column_heads(text: str) -> bool:
    """A line of column heads ("Dataset Top k Degree Betweenness ... DD, dtd = 3"): no full
    stop at its end, and half of its words or more capitalised; not a sentence that a column
    or page break cut short ("... emits the key and the")."""
    words = re.findall(r"[A-Za-z][\w-]*", text)
    return (
        bool(words)
        and not re.search(r"[.!?:]$", text)
        and 2 * sum(w[0].isupper() for w in words) >= len(words)
    )


def _join_cells(sentences: list[Span]) -> list[Span]:
    """The paper's sentences with each run of table cells joined into one line, in reading
    order: a table whose cells the parser read one block each ("SemEAGAT", "80.7", "73.2",
    ...) gives one line of labels and figures, as a table drawn as one text block does. Its
    caption and column heads, when they come just before it, open the line."""
    out: list[Span] = []
    i = 0
    while i < len(sentences):
        j = i
        while (
            j < len(sentences)
            and _short(sentences[j].text)
            and (sentences[j].paper_id, sentences[j].page)
            == (sentences[i].paper_id, sentences[i].page)
        ):
            j += 1
        run = sentences[i:j]
        if len(run) >= _CELL_RUN and 2 * sum(_numeric(s.text) for s in run) >= len(run):
            head = _head(sentences[max(0, i - _HEAD_SENTENCES) : i], run[0])
            out.append(replace(run[0], text=" ".join([*head, *(s.text for s in run)])))
            i = j
        else:
            out.append(sentences[i])
            i += 1
    return out


_AIMS_KEPT = 2  # aims shown besides the `limit` spans that state something


def _pick(spans: list[Span], limit: int, has_cited: bool) -> list[Span]:
    """The best spans by relevance, half of the slots kept for the cited papers. An aim
    ("OBJECTIVE To assess whether ...") takes no slot of a sentence that states something: it
    repeats the claim's words and can decide nothing; up to `_AIMS_KEPT` come along as
    related evidence."""
    ranked: list[Span] = []
    aims: list[Span] = []
    for s in sorted(spans, key=lambda s: (-s.relevance, s.chunk_id, s.text)):
        (aims if is_aim(s.text) else ranked).append(s)
    aims = aims[:_AIMS_KEPT]
    out: list[Span] = []
    texts: set[str] = {s.text for s in aims}
    if has_cited:
        for s in (s for s in ranked if s.cited):
            if len(out) >= (limit + 1) // 2:
                break
            if s.text not in texts:
                out.append(s)
                texts.add(s.text)
    for s in ranked:
        if len(out) >= limit:
            break
        if s.text not in texts:
            out.append(s)
            texts.add(s.text)
    return sorted(out + aims, key=lambda s: (-s.relevance, s.chunk_id, s.text))
