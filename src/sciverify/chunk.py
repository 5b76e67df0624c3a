"""Structure-aware chunking: a parsed document becomes citable chunks (DESIGN.md 2.2).

A chunk stays inside one section and is a contiguous slice of that section's text
(`records.section_text`: block texts joined by blank lines), so
`section.text[chunk.char_start:chunk.char_end] == chunk.text` always holds. Paragraph blocks
are the unit: short ones are merged with their neighbours, long ones are split at sentence
boundaries, and tables, figure captions and equations are chunks of their own. Sections of
kind `references` are not chunked: a reference list is not evidence. Acknowledgements are: they
state who funded the work, which ethics board approved it and which code and data it used, and a
summary repeats that.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sciverify.errors import UsageError
from sciverify.records import BBox, Block, BlockKind, Chunk, ParsedDocument, Section, SectionKind

# ---------------------------------------------------------------------------- token estimate

_TOKEN_RE = re.compile(r"\w+|[^\w\s]")
_LONG_RUN_RE = re.compile(r"\w{8,}")  # the word runs that count more than one token
# Calibrated against the all-MiniLM-L6-v2 WordPiece tokenizer on 600 SciFact abstracts: one
# token per punctuation mark and one per started 7 characters of a word run gives a mean
# ratio of 1.01 to the real count (mean absolute error 7%).
_WORDPIECE_CHARS = 7


def _cost(length: int) -> int:
    return 1 + (length - 1) // _WORDPIECE_CHARS


def estimate_tokens(text: str) -> int:
    """A fast approximation of a WordPiece token count, with no tokenizer to load.

    Every punctuation mark counts 1 and every run of word characters counts one token per
    started 7 characters. The estimate is additive over whitespace-separated parts.
    """
    extra = sum((len(run) - 1) // _WORDPIECE_CHARS for run in _LONG_RUN_RE.findall(text))
    return len(_TOKEN_RE.findall(text)) + extra


# ---------------------------------------------------------------------------- sentences

# Never end a sentence: "Fig. 2", "e.g. mice", "vs. controls", "cf. Ref. 3".
_NONFINAL = frozenset(
    "fig figs eq eqs eqn eqns e.g i.e cf vs v viz approx ca dr prof mr mrs st ref refs sec sect"  # noqa: SIM905
    " secs tab tabs vol vols pp ch chap no nos incl suppl supp nr dept univ".split()
)
# May end a sentence, but only when a typical sentence opener follows: "Smith et al. The ...".
_MAYBE_FINAL = frozenset("al etc inc ltd co corp jr sr resp ibid".split())  # noqa: SIM905
_STARTERS = frozenset(
    "the a an we our in this these those that there it its however moreover furthermore thus"  # noqa: SIM905
    " therefore hence here for to as at on by of with from all both each one two no finally"
    " similarly although while when after before since because overall further using such"
    " results methods conclusion conclusions background objective objectives purpose design"
    " setting participants findings interpretation aims aim introduction importance"
    " significance main measures outcomes discussion context".split()
)
# Words before a one-letter token that make it a name initial: "by J. Smith", "and R. Doll".
_NAME_CONTEXT = frozenset("and by & of with from see de van von der".split())  # noqa: SIM905
_OPENERS = "([{\"'“‘"
_TERMINATOR_RE = re.compile(
    r"(?P<term>[.!?]+|…)(?P<close>[\"'”’)\]]*)"
    r"(?P<cite>\[\d+(?:\s*[,–-]\s*\d+)*\]|(?<=[a-z][.])\d{1,3}(?:[,–-]\d{1,3})*)?(?=\s)"
)
_NEXT_WORD_RE = re.compile(r"\s+(\S+)")
_HARD_BREAK_RE = re.compile(r"\n[^\S\n]*\n|\n(?=[^\S\n]*(?:[-•*▪◦‣]|\d{1,2}[.)])\s)")
_DOTTED_ACRONYM_RE = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
_INITIAL_RE = re.compile(r"[A-Z]\.")
_GREEK_LOWER = re.compile(r"[α-ω]")


def _word_before(text: str, end: int) -> tuple[str, int]:
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return text[start:end], start


def _is_boundary(text: str, m: re.Match[str]) -> bool:
    after = _NEXT_WORD_RE.match(text, m.end())
    if after is None:
        return False
    nxt = after.group(1)
    first = nxt[0]
    if not (first.isalnum() or first in _OPENERS):  # dot leaders ". . .", "± 0.2"
        return False
    # "mRNA", "p53" and Greek letters ("β-catenin") open sentences in lower case
    lowercase_open = first.islower() and not (
        _GREEK_LOWER.match(first) or any(c.isupper() or c.isdigit() for c in nxt[1:])
    )
    if lowercase_open:
        return False
    if m.group("term") != "." or m.group("close") or m.group("cite"):
        return not first.islower()
    raw, raw_start = _word_before(text, m.start())
    word = raw.lstrip(_OPENERS)
    # all-capital words are acronyms, not abbreviations: "CF", "NO", "CO"
    low = "" if len(word) > 1 and word.isupper() else word.lower()
    if low in _NONFINAL or not word.strip("."):  # "Fig. 2"; dot leaders before a page number
        return False
    starter = nxt.lstrip(_OPENERS).rstrip(",;:").lower() in _STARTERS
    if low in _MAYBE_FINAL or _DOTTED_ACRONYM_RE.fullmatch(word):
        return starter
    if len(word) == 1 and word.isupper():  # a name initial, or "vitamin D." at a sentence end
        if starter:
            return True
        if _INITIAL_RE.fullmatch(nxt):
            return False
        gap = raw_start
        while gap > 0 and text[gap - 1].isspace():
            gap -= 1
        before, _ = _word_before(text, gap)
        before = before.lstrip(_OPENERS)
        return not (
            not before
            or before[0].isupper()
            or before.endswith(",")
            or before.lower() in _NAME_CONTEXT
        )
    return True


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans `(start, end)` of `text`, in order, without surrounding whitespace.

    Tuned for scientific prose: abbreviations ("et al.", "e.g.", "i.e.", "Fig.", "Eq.", "vs."),
    decimals ("3.5", "p < 0.05."), initials ("J. R. Smith"), dotted acronyms ("U.S."),
    citation markers after the full stop ("... shown.[12] The") and lower-case sentence
    openers such as "mRNA". A blank line or a line starting with a bullet always ends a
    sentence. Every non-whitespace character of `text` lies in exactly one span.

    >>> [("Smith et al. found 3.5% (p < 0.05). We agree."[s:e]) for s, e in
    ...  split_sentences("Smith et al. found 3.5% (p < 0.05). We agree.")]
    ['Smith et al. found 3.5% (p < 0.05).', 'We agree.']
    """
    cuts = {m.start() for m in _HARD_BREAK_RE.finditer(text)}
    cuts.update(m.end() for m in _TERMINATOR_RE.finditer(text) if _is_boundary(text, m))
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in [*sorted(cuts), len(text)]:
        s, e = _strip_span(text, start, cut)
        if s < e:
            spans.append((s, e))
        start = cut
    return spans


# ---------------------------------------------------------------------------- evidence type

# Cue phrases per evidence type: regexes matched against the lower-cased text, each cue
# counting once per chunk. Most begin with a literal (no leading \b) because the regex engine
# then scans for that literal at C speed, about 20 times faster.
EVIDENCE_CUES: dict[str, tuple[str, ...]] = {
    "result": (
        r"we (?:found|find|observed|show(?:ed)?|demonstrated?|report)\b",
        r"significant",
        r"p\s*[<≤=]\s*0?\.\d",
        r"\d\s?%",
        r"outperform",
        r"our (?:results|findings|data|analys[ie]s|experiments) (?:show|suggest|indicate|demonstrate|reveal|confirm)",
        r"ratio (?:of|was|\()|confidence interval",
        r"associated with",
        r"(?:in|de)creased\b|reduced\b|improved\b",
    ),
    "method": (
        r"we (?:used|use|trained|train|collected|recruited|applied|implemented|designed|conducted|fine-tuned)\b",
        r"w(?:as|ere) (?:measured|assessed|estimated|computed|calculated|recorded|performed|randomi[sz]ed|recruited|collected|trained)\b",
        r"participants were|samples were|patients were enrolled",
        r"dataset|data set",
        r"protocol|hyperparameter|hyper-parameter|preprocessing|pre-processing",
    ),
    "limitation": (
        r"limitation",
        r"however, (?:our|this) (?:study|analysis|approach|method|work)\b",
        r"future (?:work|research|studies)\b",
        r"cannot be (?:ruled out|excluded)",
        r"interpreted with caution|small sample",
    ),
}
# Limitation cues are specific, so one of them weighs more than one generic result cue.
_CUE_WEIGHT = {"result": 1.0, "method": 1.0, "limitation": 2.0}
# The evidence type a section kind implies; kinds not listed (abstract, appendix, other)
# are decided by cues alone. The section's type wins ties and gets this head start.
SECTION_EVIDENCE: dict[str, str] = {
    SectionKind.results: "result",
    SectionKind.discussion: "result",
    SectionKind.conclusion: "result",
    SectionKind.methods: "method",
    SectionKind.limitations: "limitation",
    SectionKind.introduction: "background",
    SectionKind.related_work: "background",
}
_SECTION_PRIOR = 1.5
_CUE_RES = [(kind, re.compile(p)) for kind, pats in EVIDENCE_CUES.items() for p in pats]


def classify_evidence(text: str, *, section_kind: str, chunk_kind: str = "text") -> str:
    """`result`, `method`, `limitation` or `background` for a chunk's text.

    The section kind gives a prior (SECTION_EVIDENCE) and the cue phrases (EVIDENCE_CUES)
    can override it; tables are always results. Without a prior (abstracts, appendices,
    unrecognised sections) the cues decide, ties going result > method > limitation, and
    text without cues is background.
    """
    if chunk_kind == "table":
        return "result"
    scores = dict.fromkeys(("result", "method", "limitation", "background"), 0.0)
    lowered = text.lower()
    for kind, cue in _CUE_RES:
        if cue.search(lowered):
            scores[kind] += _CUE_WEIGHT[kind]
    base = SECTION_EVIDENCE.get(str(section_kind))
    if base is not None:
        scores[base] += _SECTION_PRIOR
        return max(scores, key=lambda kind: (scores[kind], kind == base))
    order = ("result", "method", "limitation", "background")
    best = max(order, key=lambda kind: (scores[kind], -order.index(kind)))
    return best if scores[best] > 0 else "background"


# ---------------------------------------------------------------------------- section slugs

_NUMBERING_RE = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVXLC]+[.)]|[A-Z][.)])\s+")
_SLUG_MAX = 40


def _slugify(text: str) -> str:
    text = _NUMBERING_RE.sub("", text)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > _SLUG_MAX:
        cut = slug.rfind("-", 0, _SLUG_MAX + 1)
        slug = slug[: cut if cut >= _SLUG_MAX // 2 else _SLUG_MAX].strip("-")
    return slug


def section_slugs(sections: Sequence[Section]) -> list[str]:
    """One short, readable, unique slug per section, in order (the middle part of chunk ids).

    A section is named by its kind when that kind is not `other` and occurs once, otherwise
    by its heading (numbering dropped, ASCII, at most 40 characters); a repeated slug gets
    `-2`, `-3`, ... in document order.
    """
    kinds = Counter(str(s.kind) for s in sections)
    used: set[str] = set()
    slugs: list[str] = []
    for section in sections:
        kind = str(section.kind)
        named = kind != SectionKind.other
        base = _slugify(kind) if named and kinds[kind] == 1 else ""
        base = base or _slugify(section.heading) or (_slugify(kind) if named else "") or "section"
        slug, n = base, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        slugs.append(slug)
    return slugs


# ---------------------------------------------------------------------------- chunking

_SKIPPED_SECTIONS = frozenset({SectionKind.references})
_OWN_CHUNK_KIND: dict[str, str] = {
    BlockKind.table: "table",
    BlockKind.caption: "figure",
    BlockKind.equation: "equation",
}
# A sentence up to this many budgets stays whole (its own chunk); a longer one is cut.
_OVERLONG_FACTOR = 2


@dataclass(frozen=True, slots=True)
class _Piece:
    start: int  # offsets into the section text
    end: int
    tokens: int
    block: int  # index into section.blocks
    opens_block: bool  # a paragraph boundary precedes this piece
    target: int  # balanced piece size for a block split into sentences


def _cut(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """Cut an overlong span into parts of at most `limit` tokens, at line or word starts.

    A line start is preferred when it keeps at least half a budget before it (table rows);
    without any whitespace the cut falls between tokens, and a word run longer than the whole
    budget is cut inside. No character is dropped apart from whitespace at the cuts.
    """
    parts: list[tuple[int, int]] = []
    piece_start, used, prev_end = start, 0, start
    line: tuple[int, int] | None = None  # (position, tokens before it in the piece)
    word: tuple[int, int] | None = None
    for m in _TOKEN_RE.finditer(text, start, end):
        tok_start, tok_end = m.span()
        if tok_start > prev_end and tok_start > piece_start:  # whitespace before: a word start
            word = (tok_start, used)
            if "\n" in text[prev_end:tok_start]:
                line = (tok_start, used)
        cost = _cost(tok_end - tok_start)
        while used and used + cost > limit:
            if line is not None and 2 * line[1] >= limit:
                pos, before = line
            elif word is not None:
                pos, before = word
            else:
                pos, before = tok_start, used
            parts.append((piece_start, pos))
            piece_start, used, line = pos, used - before, None
            word = (word[0], word[1] - before) if word is not None and word[0] > pos else None
        while cost > limit:  # one word run longer than the whole budget
            step = limit * _WORDPIECE_CHARS
            parts.append((tok_start, tok_start + step))
            tok_start += step
            piece_start, cost = tok_start, _cost(tok_end - tok_start)
            line = word = None
        used += cost
        prev_end = tok_end
    parts.append((piece_start, end))
    stripped = [_strip_span(text, s, e) for s, e in parts]
    return [(s, e) for s, e in stripped if s < e]


def _text_pieces(text: str, base: int, index: int, max_tokens: int) -> list[_Piece]:
    start, end = _strip_span(text, 0, len(text))
    if start == end:
        return []
    tokens = estimate_tokens(text[start:end])
    if tokens <= max_tokens:
        return [_Piece(base + start, base + end, tokens, index, True, tokens)]
    spans: list[tuple[int, int, int]] = []
    for s, e in split_sentences(text):
        n = estimate_tokens(text[s:e])
        if n > _OVERLONG_FACTOR * max_tokens:
            spans.extend(
                (a, b, estimate_tokens(text[a:b])) for a, b in _cut(text, s, e, max_tokens)
            )
        else:
            spans.append((s, e, n))
    target = -(-tokens // -(-tokens // max_tokens))  # ceil(tokens / ceil(tokens / max_tokens))
    return [
        _Piece(base + s, base + e, n, index, i == 0, target) for i, (s, e, n) in enumerate(spans)
    ]


def _pack(pieces: list[_Piece], max_tokens: int, min_tokens: int) -> list[list[_Piece]]:
    """Group consecutive pieces into chunks; a paragraph of `min_tokens` or more stands alone."""
    groups: list[list[_Piece]] = []
    current: list[_Piece] = []
    used = 0
    for piece in pieces:
        full = used + piece.tokens > max_tokens
        if current and (full or used >= (min_tokens if piece.opens_block else piece.target)):
            groups.append(current)
            current, used = [], 0
        current.append(piece)
        used += piece.tokens
    if current:
        groups.append(current)
    if len(groups) > 1:  # a short tail joins its predecessor when the budget allows
        tail, prev = sum(p.tokens for p in groups[-1]), sum(p.tokens for p in groups[-2])
        if tail < min_tokens and prev + tail <= max_tokens:
            groups[-2:] = [groups[-2] + groups[-1]]
    return groups


@dataclass(frozen=True, slots=True)
class _Draft:
    start: int
    end: int
    first_block: int
    last_block: int
    kind: str
    ref: str | None
    tokens: int


def _drafts(section: Section, max_tokens: int, min_tokens: int) -> list[_Draft]:
    drafts: list[_Draft] = []
    run: list[_Piece] = []

    def flush() -> None:
        for group in _pack(run, max_tokens, min_tokens):
            tokens = sum(p.tokens for p in group)  # additive: pieces are whitespace-separated
            drafts.append(
                _Draft(
                    group[0].start,
                    group[-1].end,
                    group[0].block,
                    group[-1].block,
                    "text",
                    None,
                    tokens,
                )
            )
        run.clear()

    base = 0
    for index, block in enumerate(section.blocks):
        kind = str(block.kind)
        if kind in _OWN_CHUNK_KIND or kind == BlockKind.heading:
            flush()
        if kind in _OWN_CHUNK_KIND:
            chunk_kind = _OWN_CHUNK_KIND[kind]
            if chunk_kind == "figure" and (block.ref or "").lower().startswith("tab"):
                chunk_kind = "table"  # a table caption given as a caption block
            s, e = _strip_span(block.text, 0, len(block.text))
            spans = [(s, e)] if s < e else []
            if spans and estimate_tokens(block.text[s:e]) > _OVERLONG_FACTOR * max_tokens:
                spans = _cut(block.text, s, e, max_tokens)
            for a, b in spans:
                tokens = estimate_tokens(block.text[a:b])
                drafts.append(
                    _Draft(base + a, base + b, index, index, chunk_kind, block.ref, tokens)
                )
        elif kind != BlockKind.heading:
            run.extend(_text_pieces(block.text, base, index, max_tokens))
        base += len(block.text) + 2
    flush()
    return drafts


def _place(blocks: Sequence[Block]) -> tuple[int | None, BBox | None]:
    # A block without text (an empty line the parser kept) adds nothing to the chunk, so its
    # page and box do not place it either.
    blocks = [b for b in blocks if b.text.strip()]
    page = next((b.page for b in blocks if b.page is not None), None)
    boxes = [b.bbox for b in blocks if b.bbox is not None and b.page == page]
    if not boxes:
        return page, None
    return page, (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _summary(text: str, limit: int) -> str:
    """The first sentence, whitespace collapsed, at most `limit` characters (cut at a word)."""
    head = text[: 4 * limit + 200]
    spans = split_sentences(head)
    first = " ".join(head[spans[0][0] : spans[0][1]].split()) if spans else ""
    if len(first) <= limit:
        return first
    if limit <= 1:
        return first[:limit]
    cut = first.rfind(" ", 0, limit)
    return first[: cut if cut > limit // 2 else limit - 1].rstrip() + "…"


def chunk_document(
    doc: ParsedDocument,
    *,
    paper_id: str,
    version_id: str,
    max_tokens: int = 200,
    min_tokens: int = 40,
    context_chars: int = 160,
) -> list[Chunk]:
    """Cut a parsed document into citable chunks, in document order.

    Each chunk lies inside one section and slices its text exactly
    (`section.text[c.char_start:c.char_end] == c.text`). Text blocks shorter than
    `min_tokens` are merged with their neighbours up to `max_tokens`; a block over
    `max_tokens` is split at sentence boundaries (`split_sentences`); a single sentence over
    the budget becomes its own chunk, and one over twice the budget is cut at word
    boundaries. Tables, figure captions and equations are chunks of their own; heading
    blocks are not chunk text. Sections of kind `references` are skipped: they are not
    evidence. Token counts are `estimate_tokens` approximations.

    Args:
        doc: the parsed document (PDF or JSONL record).
        paper_id: the work's id; chunk ids are `f"{paper_id}:{section_slug}:{ordinal}"`.
        version_id: the version the chunks come from.
        max_tokens: token budget of a chunk.
        min_tokens: paragraphs shorter than this are merged with neighbours.
        context_chars: length limit of `previous_context` / `next_context`.

    Returns:
        The chunks; the same input always gives the same ids and texts.

    Raises:
        UsageError: when the size options are out of range.

    Example:
        >>> chunks = chunk_document(doc, paper_id="smith2020", version_id="sha256:ab12")
        >>> chunks[0].chunk_id
        'smith2020:abstract:1'
    """
    if max_tokens < 1 or not 0 <= min_tokens <= max_tokens or context_chars < 0:
        raise UsageError(
            f"bad chunk sizes: max_tokens={max_tokens}, min_tokens={min_tokens}, context_chars={context_chars}",
            hint="use max_tokens >= 1, 0 <= min_tokens <= max_tokens and context_chars >= 0",
        )
    chunks: list[Chunk] = []
    for section, slug in zip(doc.sections, section_slugs(doc.sections), strict=True):
        if str(section.kind) in _SKIPPED_SECTIONS:
            continue
        text = section.text
        drafts = _drafts(section, max_tokens, min_tokens)
        summaries = [_summary(text[d.start : d.end], context_chars) for d in drafts]
        for i, draft in enumerate(drafts):
            body = text[draft.start : draft.end]
            page, bbox = _place(section.blocks[draft.first_block : draft.last_block + 1])
            chunks.append(
                Chunk(
                    chunk_id=f"{paper_id}:{slug}:{i + 1}",
                    paper_id=paper_id,
                    version_id=version_id,
                    section=section.heading,
                    section_kind=str(section.kind),
                    ordinal=i + 1,
                    text=body,
                    page=page,
                    bbox=bbox,
                    char_start=draft.start,
                    char_end=draft.end,
                    kind=draft.kind,
                    evidence_type=classify_evidence(
                        body, section_kind=section.kind, chunk_kind=draft.kind
                    ),
                    previous_context=summaries[i - 1] if i > 0 else "",
                    next_context=summaries[i + 1] if i + 1 < len(drafts) else "",
                    figure_or_table_ref=draft.ref,
                    token_count=draft.tokens,
                )
            )
    return chunks


# -- the stage: stored versions -> stored chunks ---------------------------------------------

CHUNKER_VERSION = "sciverify-chunk/1"
_CHUNK_BATCH = 500
_CHUNK_COLUMNS = (
    "chunk_id",
    "paper_id",
    "version_id",
    "section",
    "section_kind",
    "section_ordinal",
    "ordinal",
    "text",
    "page",
    "x0",
    "y0",
    "x1",
    "y1",
    "char_start",
    "char_end",
    "kind",
    "evidence_type",
    "previous_context",
    "next_context",
    "figure_or_table_ref",
    "token_count",
    "text_hash",
    "chunker",
)


@dataclass(frozen=True, slots=True)
class ChunkReport:
    papers: int
    chunks: int
    seconds: float

    def rows(self) -> list[dict[str, object]]:
        return [{"papers": self.papers, "chunks": self.chunks, "seconds": round(self.seconds, 2)}]


def _untitled(kind: str) -> str:
    """A readable label for a section the parser found no heading for."""
    return "(untitled)" if kind in ("", "other") else kind.replace("_", " ").capitalize()


def chunker_fingerprint(max_tokens: int, min_tokens: int, context_chars: int) -> str:
    return f"{CHUNKER_VERSION} max={max_tokens} min={min_tokens} ctx={context_chars}"


def chunk_text_hash(chunk: Chunk, title: str | None) -> str:
    """What the indexes see of a chunk; a changed hash means re-embed."""
    import hashlib

    key = "\x1f".join((title or "", chunk.section, chunk.text, chunk.evidence_type, chunk.kind))
    return hashlib.sha1(key.encode("utf-8")).hexdigest()


def chunk(*, store: Any, settings: Any, progress: Any = None, rebuild: bool = False) -> ChunkReport:
    """Chunk the current version of every paper that changed since the last run.

    Args:
        store: an open, writable Store.
        settings: Settings (settings.chunk sizes).
        progress: a Progress; one step per paper.
        rebuild: re-chunk every paper.

    Returns:
        A ChunkReport with the papers re-chunked and chunks written.
    """
    import time

    from sciverify.progress import NO_PROGRESS
    from sciverify.store.db import now
    from sciverify.store.documents import load_documents

    progress = progress or NO_PROGRESS
    started = time.perf_counter()
    cfg = settings.chunk
    fingerprint = chunker_fingerprint(cfg.max_tokens, cfg.min_tokens, cfg.context_chars)
    todo = store.execute(
        "SELECT w.paper_id, w.current_version_id, w.title FROM works w"
        " LEFT JOIN chunked_versions c ON c.paper_id = w.paper_id"
        " WHERE w.current_version_id IS NOT NULL AND (? OR c.version_id IS NULL"
        "   OR c.version_id <> w.current_version_id OR c.chunker <> ?)"
        " ORDER BY w.paper_id",
        [rebuild, fingerprint],
    ).fetchall()
    progress.start(len(todo), "chunk")
    written = 0
    for start in range(0, len(todo), _CHUNK_BATCH):
        batch = todo[start : start + _CHUNK_BATCH]
        docs = load_documents(store, [row[1] for row in batch])
        columns: dict[str, list[Any]] = {name: [] for name in _CHUNK_COLUMNS}
        for paper_id, version_id, title in batch:
            doc = docs[version_id]
            slug_ordinal = {slug: i for i, slug in enumerate(section_slugs(doc.sections), start=1)}
            chunks = chunk_document(
                doc,
                paper_id=paper_id,
                version_id=version_id,
                max_tokens=cfg.max_tokens,
                min_tokens=cfg.min_tokens,
                context_chars=cfg.context_chars,
            )
            for c in chunks:
                box = c.bbox or (None, None, None, None)
                values = (
                    c.chunk_id,
                    c.paper_id,
                    c.version_id,
                    c.section or _untitled(c.section_kind),
                    c.section_kind,
                    slug_ordinal.get(c.chunk_id.rsplit(":", 2)[1]),
                    c.ordinal,
                    c.text,
                    c.page,
                    *box,
                    c.char_start,
                    c.char_end,
                    c.kind,
                    c.evidence_type,
                    c.previous_context,
                    c.next_context,
                    c.figure_or_table_ref,
                    c.token_count,
                    chunk_text_hash(c, title),
                    fingerprint,
                )
                for name, value in zip(_CHUNK_COLUMNS, values, strict=True):
                    columns[name].append(value)
            written += len(chunks)
        paper_ids = [row[0] for row in batch]
        stamp = now()
        with store.transaction() as conn:
            conn.execute("DELETE FROM chunks WHERE paper_id IN (SELECT unnest(?))", [paper_ids])
            conn.execute(
                "DELETE FROM chunked_versions WHERE paper_id IN (SELECT unnest(?))", [paper_ids]
            )
            if columns["chunk_id"]:
                names = ", ".join(_CHUNK_COLUMNS)
                selects = ", ".join("unnest(?)" for _ in _CHUNK_COLUMNS)
                conn.execute(
                    f"INSERT INTO chunks ({names}) SELECT {selects}",
                    [columns[n] for n in _CHUNK_COLUMNS],
                )
            conn.execute(
                "INSERT INTO chunked_versions SELECT unnest(?), unnest(?), ?, ?",
                [[row[1] for row in batch], paper_ids, fingerprint, stamp],
            )
        progress.advance(len(batch))
    progress.done()
    return ChunkReport(len(todo), written, time.perf_counter() - started)


__all__ = [
    "EVIDENCE_CUES",
    "SECTION_EVIDENCE",
    "ChunkReport",
    "chunk",
    "chunk_document",
    "classify_evidence",
    "estimate_tokens",
    "section_slugs",
    "split_sentences",
]
