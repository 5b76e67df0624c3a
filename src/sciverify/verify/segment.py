"""Segment a draft into semantic paragraphs with exact character spans (DESIGN.md 2.5 step 1).

Markdown structure comes first (markdown-it-py's block tokens and their line maps), so
headings, lists, tables and quotes are found by a real parser and each paragraph keeps
`text[span[0]:span[1]]` as its source. Then blocks that belong together are merged (a lead-in
ending in a colon and the list it introduces, a fragment without a full stop and the block
after it, a block that starts in lower case and the one before) and blocks that carry several
topics or exceed the token budget are split at sentence boundaries. Plain text has no Markdown
structure beyond blank-line paragraphs and still segments the same way; a short line such as
"2. Methods" alone in its block is read as a heading.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sciverify.chunk import estimate_tokens, split_sentences
from sciverify.verify.citations import FOOTNOTE_DEFINITION, strip_citations

# Headings whose section is the draft's reference list, not prose to verify.
REFERENCE_HEADINGS = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:references?|bibliography|works cited|literature cited|"
    r"literature|sources(?: cited)?|reference list|citations|cited works|references and notes|"
    r"notes and references|further reading)\s*:?\s*$",
    re.IGNORECASE,
)
# A heading written as a line of bold or italic text: "**References:**", "__Sources__".
_EMPHASISED = re.compile(r"^(\*\*|__|\*|_)(.+?)\1\s*:?$")


def _unemphasised(line: str) -> str:
    """A line written in bold or italic without its markers ("**Limitations:**" ->
    "Limitations"); any other line as it is."""
    emphasised = _EMPHASISED.match(line)
    return emphasised.group(2) if emphasised else line


def is_reference_heading(title: str) -> bool:
    """The heading of the draft's reference list: "References", "**Sources:**", "Citations"."""
    return bool(REFERENCE_HEADINGS.match(_unemphasised(title.strip())))


_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_NUMBERED_HEADING = re.compile(r"^(\d+(?:\.\d+){0,3})\.?\s+[A-Z][^.!?:;]{1,80}$")
_TABLE_MENTION = re.compile(r"\b(?:Table|Tab\.)\s+\d+", re.IGNORECASE)
_TERMINAL = re.compile(r"[.!?:;)\]\"”’]\s*$")


@dataclass(frozen=True, slots=True)
class Segment:
    """One semantic paragraph of the draft."""

    paragraph_id: str
    span: tuple[int, int]  # char offsets into the draft
    text: str  # the draft's own characters: draft[span[0]:span[1]]
    section: str  # the heading above it ("" before the first heading)
    section_kind: str | None  # SectionKind of the nearest heading that has a known kind
    kind: str = "text"  # text | list | table | quote
    reads_table: bool = False


@dataclass(frozen=True, slots=True)
class Segmentation:
    paragraphs: tuple[Segment, ...]
    references: tuple[tuple[str, tuple[int, int]], ...]  # reference-list entries and spans
    headings: tuple[tuple[str, tuple[int, int]], ...]


@dataclass(slots=True)
class _Block:
    start: int
    end: int
    kind: str
    section: str
    section_kind: str | None


# ---------------------------------------------------------------------------- markdown blocks


def _blank_front_matter(text: str) -> str:
    """YAML front matter is metadata: blank it (keeping offsets) so it is not read as prose."""
    m = _FRONT_MATTER.match(text)
    if not m:
        return text
    return re.sub(r"[^\n]", " ", m.group()) + text[m.end() :]


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    return starts


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _heading_kind(heading: str) -> str | None:
    from sciverify.ingest.pdf_headings import kind_of

    kind = kind_of(heading)
    if kind is not None:
        return str(kind)
    low = heading.lower()
    for words, kind_name in _EXTRA_HEADING_KINDS:
        if any(w in low for w in words):
            return kind_name
    return None


# Draft headings that paper parsers rarely see ("Findings", "Future work", "Background").
_EXTRA_HEADING_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("limitation", "future work", "future research", "outlook", "open question"), "limitations"),
    (("finding", "evaluation", "experiment result", "outcome"), "results"),
    (
        (
            "method",
            "material",
            "experimental setup",
            "data collection",
            "study design",
            "protocol",
            "procedure",
        ),
        "methods",
    ),
    (("background", "overview", "motivation", "prior work", "literature review"), "introduction"),
    (("conclusion", "summary", "implication"), "conclusion"),
)


def _plain_heading(line: str) -> int | None:
    """The level of a plain-text heading line ("Methods", "2.1 Data", "**Limitations**",
    "References:"), or None."""
    line = line.strip()
    if not line or "\n" in line or len(line.split()) > 8:
        return None
    if is_reference_heading(line):
        return 1
    line = _unemphasised(line).strip()
    if not line or _TERMINAL.search(line):
        return None
    m = _NUMBERED_HEADING.match(line)
    if m:
        return m.group(1).count(".") + 1
    from sciverify.ingest.pdf_headings import kind_of

    # Only the standard section names: a short sentence-like line is a fragment, not a heading.
    if line[0].isupper() and kind_of(line):
        return 1
    return None


def _blocks(
    text: str,
) -> tuple[list[_Block], list[tuple[str, tuple[int, int]]], list[tuple[str, tuple[int, int]]]]:
    """Top-level blocks in order; reference-list entries; headings with their spans."""
    from markdown_it import MarkdownIt

    parse_text = _blank_front_matter(text)
    tokens = MarkdownIt("commonmark").enable("table").parse(parse_text)
    starts = _line_starts(text)

    def offset(line: int) -> int:
        return starts[line] if line < len(starts) else len(text)

    blocks: list[_Block] = []
    refs: list[tuple[str, tuple[int, int]]] = []
    headings: list[tuple[str, tuple[int, int]]] = []
    stack: list[tuple[int, str]] = []  # (level, heading)
    in_refs = False

    def open_heading(level: int, title: str, span: tuple[int, int]) -> None:
        nonlocal in_refs
        # "**Limitations**", "References:": the name alone.
        title = _unemphasised(title).strip().rstrip(":").strip()
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        headings.append((title, span))
        in_refs = is_reference_heading(title)

    def section() -> tuple[str, str | None]:
        name = stack[-1][1] if stack else ""
        kind = next((k for _, h in reversed(stack) if (k := _heading_kind(h))), None)
        return name, kind

    kinds = {
        "paragraph_open": "text",
        "bullet_list_open": "list",
        "ordered_list_open": "list",
        "table_open": "table",
        "blockquote_open": "quote",
    }
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.map is None:
            continue
        start, end = _trim(text, offset(tok.map[0]), offset(tok.map[1]))
        if tok.type == "heading_open":
            open_heading(int(tok.tag[1:]), tokens[i + 1].content.strip(), (start, end))
            continue
        kind = kinds.get(tok.type)
        if kind is None or start >= end:
            continue  # code, html, rules: not prose
        if kind == "text" or (kind == "list" and "\n" not in text[start:end].strip()):
            # "2. Methods" alone on its line parses as a one-item list: a plain-text heading.
            level = _plain_heading(text[start:end])
            if level is not None:
                open_heading(level, text[start:end].strip(), (start, end))
                continue
        if in_refs:
            refs.extend(_reference_entries(text, tokens, i, start, end, offset))
            continue
        if kind == "text" and FOOTNOTE_DEFINITION.match(text, start):
            # "[^3]: Dean J, Ghemawat S. MapReduce ...": footnote definitions, wherever they
            # stand, are the draft's sources (or notes), not prose to verify.
            refs.extend(_footnotes(text, start, end))
            continue
        name, skind = section()
        blocks.append(_Block(start, end, kind, name, skind))
    # A definition that is all link ("[^1]: https://doi.org/...") parses as a CommonMark link
    # reference and leaves no token: it is still the footnote's source.
    taken = {a for _, (a, _) in refs}
    for m in FOOTNOTE_DEFINITION.finditer(parse_text):
        if m.start() not in taken and not any(b.start <= m.start() < b.end for b in blocks):
            line_end = text.find("\n", m.start())
            s, e = _trim(text, m.start(), len(text) if line_end < 0 else line_end)
            refs.append((text[s:e], (s, e)))
    refs.sort(key=lambda r: r[1])
    return blocks, refs, headings


_ENTRY_START = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}[.)]\s|\[\^[^\]\s]+\]:)", re.MULTILINE)


def _footnotes(text: str, start: int, end: int) -> list[tuple[str, tuple[int, int]]]:
    """The footnote definitions of one paragraph, each with its continuation lines."""
    cuts = [m.start() for m in FOOTNOTE_DEFINITION.finditer(text, start, end)]
    out = []
    for a, b in zip(cuts, [*cuts[1:], end], strict=True):
        s, e = _trim(text, a, b)
        if s < e:
            out.append((text[s:e], (s, e)))
    return out


def _reference_entries(
    text: str, tokens: Sequence[object], i: int, start: int, end: int, offset: Callable[[int], int]
) -> list[tuple[str, tuple[int, int]]]:
    """One entry per list item, or per "[n] ..." / "n. ..." line start inside a paragraph."""
    tok = tokens[i]
    out: list[tuple[str, tuple[int, int]]] = []
    if getattr(tok, "type", "") in ("bullet_list_open", "ordered_list_open"):
        for item in tokens[i + 1 :]:
            if getattr(item, "level", 0) == 0:
                break
            if getattr(item, "type", "") == "list_item_open" and getattr(item, "level", 0) == 1:
                line_map = getattr(item, "map", None) or (0, 0)
                s, e = _trim(text, offset(line_map[0]), offset(line_map[1]))
                out.append((text[s:e], (s, e)))
        return out
    body = text[start:end]
    cuts = [m.start() for m in _ENTRY_START.finditer(body)] or [0]
    if cuts[0] != 0:
        cuts.insert(0, 0)
    for a, b in zip(cuts, [*cuts[1:], len(body)], strict=True):
        s, e = _trim(text, start + a, start + b)
        if s < e:
            out.append((text[s:e], (s, e)))
    return out


# ---------------------------------------------------------------------------- merge and split


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z]{2,}", text))


def _merge(text: str, blocks: list[_Block]) -> list[_Block]:
    """Join blocks that form one unit: a lead-in and its list, fragments, continuations."""
    out: list[_Block] = []
    for block in blocks:
        body = text[block.start : block.end]
        prev = out[-1] if out else None
        same_section = prev is not None and prev.section == block.section
        if (
            prev is not None
            and same_section
            and prev.kind in ("text", "list")
            and (
                (block.kind == "list" and text[prev.start : prev.end].rstrip().endswith(":"))
                or (block.kind == "text" and body[:1].islower())
                or (prev.kind == "text" and _is_fragment(text[prev.start : prev.end]))
            )
        ):
            prev.end = block.end
            prev.kind = "list" if "list" in (prev.kind, block.kind) else "text"
            continue
        out.append(block)
    return out


def _is_fragment(body: str) -> bool:
    """A short piece with no sentence end ("Three main findings stand out"), not a heading."""
    return _words(body) < 8 and not _TERMINAL.search(body)


def _sentence_texts(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [strip_citations(text[s:e]) for s, e in spans]


def _pieces_by_budget(text: str, spans: list[tuple[int, int]], budget: int) -> list[list[int]]:
    groups: list[list[int]] = [[]]
    size = 0
    for i, (s, e) in enumerate(spans):
        cost = estimate_tokens(text[s:e])
        if groups[-1] and size + cost > budget:
            groups.append([])
            size = 0
        groups[-1].append(i)
        size += cost
    return groups


def _topic_cuts(sims: list[float], floor: float) -> set[int]:
    """Indices i where a new topic starts at sentence i (sims[i-1] is sim(i-1, i))."""
    if not sims:
        return set()
    mean = sum(sims) / len(sims)
    var = sum((s - mean) ** 2 for s in sims) / len(sims)
    cut_below = min(floor, mean - var**0.5)
    cuts = {i + 1 for i, s in enumerate(sims) if s < cut_below}
    # Never leave a one-sentence piece at either end or between two cuts.
    keep: set[int] = set()
    last = 0
    for c in sorted(cuts):
        if c - last >= 2 and len(sims) + 1 - c >= 2:
            keep.add(c)
            last = c
    return keep


Embed = Callable[[list[str]], list[list[float]]]


def segment(
    text: str,
    *,
    max_tokens: int = 320,
    topic_floor: float = 0.12,
    min_sentences: int = 4,
    embed: Embed | None = None,
) -> Segmentation:
    """The draft's paragraphs, in order, with ids p_001, p_002, ... and exact spans.

    Args:
        text: the whole draft (Markdown or plain text).
        max_tokens: a block above this estimated token count is split at sentence boundaries.
        topic_floor: consecutive-sentence similarity below which a block may split by topic.
        min_sentences: blocks with fewer sentences are never split by topic.
        embed: sentence embedder (normalised vectors); None skips the topic split.
    """
    blocks, refs, headings = _blocks(text)
    blocks = _merge(text, blocks)
    plan: list[tuple[_Block, list[tuple[int, int]]]] = []
    to_embed: list[str] = []
    for block in blocks:
        spans = (
            [(block.start, block.end)]
            if block.kind == "table"
            else [
                (block.start + s, block.start + e)
                for s, e in split_sentences(text[block.start : block.end])
            ]
        )
        plan.append((block, spans))
        if embed is not None and block.kind != "table" and len(spans) >= min_sentences:
            to_embed.extend(_sentence_texts(text, spans))
    vectors = iter(embed(to_embed)) if embed is not None and to_embed else iter(())
    paragraphs: list[Segment] = []
    for block, spans in plan:
        groups = [list(range(len(spans)))]
        if embed is not None and block.kind != "table" and len(spans) >= min_sentences:
            vecs = [next(vectors) for _ in spans]
            sims = [
                float(sum(a * b for a, b in zip(vecs[i], vecs[i + 1], strict=True)))
                for i in range(len(vecs) - 1)
            ]
            cuts = sorted(_topic_cuts(sims, topic_floor))
            bounds = [0, *cuts, len(spans)]
            groups = [list(range(a, b)) for a, b in itertools.pairwise(bounds)]
        final: list[list[int]] = []
        for group in groups:
            sub = [spans[i] for i in group]
            final.extend(
                [[group[j] for j in g] for g in _pieces_by_budget(text, sub, max_tokens) if g]
            )
        for group in final:
            start, end = spans[group[0]][0], spans[group[-1]][1]
            paragraphs.append(
                Segment(
                    "", (start, end), text[start:end], block.section, block.section_kind, block.kind
                )
            )
    paragraphs = _mark_tables(paragraphs)
    numbered = tuple(replace(p, paragraph_id=f"p_{i:03d}") for i, p in enumerate(paragraphs, 1))
    return Segmentation(numbered, tuple(refs), tuple(headings))


def _mark_tables(paragraphs: list[Segment]) -> list[Segment]:
    """Paragraphs that read numbers from a table: they name one, or sit right next to one."""
    out = []
    for i, p in enumerate(paragraphs):
        near = any(
            0 <= j < len(paragraphs)
            and paragraphs[j].kind == "table"
            and paragraphs[j].section == p.section
            for j in (i - 1, i + 1)
        )
        reads = p.kind != "table" and (near or bool(_TABLE_MENTION.search(p.text)))
        out.append(replace(p, reads_table=reads))
    return out
