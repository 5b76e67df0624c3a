"""Paragraphs to sections: the abstract, captions, tables, equations and reference lists."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sciverify.ingest.pdf_headings import (
    KEYWORDS,
    NUMBERING,
    TOC_WORDS,
    Heading,
    caption_ref,
    detect_heading,
    heading_levels,
    kind_of,
    merge_heading_lines,
    normalise_heading,
    run_in_heading,
)
from sciverify.ingest.pdf_layout import (
    BODY_SIZE_TOLERANCE,
    Paragraph,
    WordList,
    is_body_style,
    join_lines,
)
from sciverify.ingest.pdf_page import Line
from sciverify.records import Block, BlockKind, Reference, Section, SectionKind

# Sub-headings of a structured abstract: kept inside the abstract, not new sections.
_ABSTRACT_PARTS = re.compile(
    r"background|objectives?|aims?|purpose|context|methods?|methodology|design|setting"
    r"|participants|interventions|measurements|results|findings|conclusions?|interpretation"
    r"|significance|importance|main outcome measures|principal findings|trial registration(?: .*)?"
    r"|methods and findings|conclusions and significance|introduction|materials and methods"
)
_ABSTRACT_RUN_IN = re.compile(
    r"^(?:abstract|summary|a b s t r a c t)\b\s*[.:\u2014\u2013\-]*\s*(?=\S)", re.IGNORECASE
)
_PUBLISHER_BOX = re.compile(
    r"^(?:doi:\S+\s+)?cite this article|^submit your (?:next )?manuscript", re.IGNORECASE
)
_MATH = set("=+−×∑∫∂≤≥≈∈∀∃→←⇒√∞^_∆∇≡∝±·")
_BULLET = re.compile(r"^[•◦▪‣∙●○■□–\-]\s+")


@dataclass(slots=True)
class _Sec:
    heading: str
    kind: str
    level: int
    blocks: list[Block] = field(default_factory=list)
    paras: list[Paragraph] = field(default_factory=list)


@dataclass(slots=True)
class Structure:
    secs: list[_Sec]
    abstract: str | None
    references_found: bool
    references_parsed: tuple[Reference, ...] = ()

    def finish(
        self,
        split: Callable[[list[Line]], list[tuple[str, list[Line]]]],
        parse: Callable[[str], Reference],
    ) -> list[Section]:
        out: list[Section] = []
        refs: list[Reference] = []
        for sec in self.secs:
            blocks = sec.blocks
            if sec.kind == SectionKind.references:
                lines = [ln for p in sec.paras for ln in p.lines]
                entries = split(lines)
                blocks = [_block(text, group) for text, group in entries]
                refs.extend(parse(text) for text, _ in entries)
            if blocks or sec.heading != "Front matter":
                out.append(Section(sec.heading, sec.kind, tuple(blocks), sec.level))
        self.references_parsed = tuple(refs)
        return out


def _block(
    text: str, lines: list[Line], kind: str = BlockKind.text, ref: str | None = None
) -> Block:
    page = lines[0].page
    on_page = [ln for ln in lines if ln.page == page]
    bbox = (
        round(min(ln.x0 for ln in on_page), 2),
        round(min(ln.y0 for ln in on_page), 2),
        round(max(ln.x1 for ln in on_page), 2),
        round(max(ln.y1 for ln in on_page), 2),
    )
    return Block(text=text, kind=kind, page=page + 1, bbox=bbox, ref=ref)


def _is_equation(p: Paragraph) -> bool:
    text = p.text
    if len(p.lines) > 4 or len(text) > 300 or "http" in text:
        return False
    maths = sum(1 for c in text if c in _MATH)
    tokens = text.split()
    wordy = sum(1 for t in tokens if len(t) >= 4 and t.isalpha())
    numbered = re.search(r"\(\d{1,3}[a-z]?\)$", text) is not None
    return (maths >= 1 and numbered and wordy <= 4) or (
        maths >= 2 and wordy <= max(1, len(tokens) // 4)
    )


def _is_tabular(p: Paragraph) -> bool:
    text = p.text
    if not text:
        return False
    digits = sum(c.isdigit() for c in text) / len(text)
    per_line = len(text.split()) / len(p.lines)
    prose = len(text) > 150 and text.rstrip().endswith(".") and per_line > 8
    return not prose and (digits >= 0.15 or per_line <= 6)


def _repair_column_breaks(paragraphs: list[Paragraph], words: WordList) -> None:
    """A word hyphenated across a column or page break belongs to the earlier block."""
    for a, b in itertools.pairwise(paragraphs):
        if (
            len(a.text) > 2
            and a.text[-1] == "-"
            and a.text[-2].isalpha()
            and b.text[:1].islower()
            and (a.page, a.lines[-1].col) != (b.page, b.lines[0].col)
        ):
            frag = re.match(r"[^\s]+", b.text)
            if frag:
                joined = join_lines(a.text, frag.group(0), words)
                a.text, b.text = joined, b.text[frag.end() :].lstrip()


# At most this many floats (captions, footnotes) may stand between a paragraph cut at a column
# or page break and its continuation.
_MAX_FLOATS_BETWEEN = 3


def _ends_open(p: Paragraph, body_size: float) -> bool:
    """A body paragraph whose last line stops mid-sentence ("... if they returned one or more")."""
    text = p.text.rstrip()
    if len(text) < 40 or caption_ref(text) or not is_body_style(p.lines[-1], body_size):
        return False
    return text[-1].isalnum() or text[-1] in ",-)]\u2010"


def _is_float(p: Paragraph, body_size: float) -> bool:
    """A caption or a footnote that a page layout may put between two parts of a paragraph."""
    return caption_ref(p.text) is not None or p.size < body_size - BODY_SIZE_TOLERANCE


def join_continued(
    paragraphs: list[Paragraph], body_size: float, words: WordList
) -> list[Paragraph]:
    """Join a paragraph cut by a column or page break to its continuation.

    The continuation is the next body paragraph after the break, past at most a few captions
    or footnotes, when it starts with a lower-case word and the paragraph before the break
    stops mid-sentence: "Women were included if they returned one or more" | "questionnaires
    ...". Without this, a sentence split over two columns is two fragments that neither
    retrieval nor entailment can read. The joined paragraph keeps the place of its first part.
    In the same column the two parts are joined across a caption or footnote set between them
    (a figure beside the text, affiliation footnotes interleaved with the first column).
    """
    out: list[Paragraph] = []
    open_at: int | None = None  # the paragraph in `out` still waiting for its continuation
    floats = 0
    for p in paragraphs:
        a = out[open_at] if open_at is not None else None
        if (
            a is not None
            and p.text[:1].islower()
            and is_body_style(p.lines[0], body_size)
            and (
                (a.page, a.lines[-1].col) != (p.page, p.lines[0].col)
                # in the same column, only across a caption or footnote set between the two
                # parts, and not from a table row ("With LM 54.1 ... 55.2")
                or (floats and not a.text.rstrip()[-1:].isdigit())
            )
        ):
            a.lines.extend(p.lines)
            a.text = join_lines(a.text, p.text, words)
            if not _ends_open(a, body_size):
                open_at = None
            continue
        out.append(p)
        if _ends_open(p, body_size):
            open_at, floats = len(out) - 1, 0
        elif open_at is not None and _is_float(p, body_size) and floats < _MAX_FLOATS_BETWEEN:
            floats += 1
        else:
            open_at = None
    return out


def build_sections(
    paragraphs: list[Paragraph],
    *,
    body_size: float,
    body_font: str,
    first_page: int,
    page_heights: list[float],
    toc_pages: dict[int, float],
    words: WordList,
) -> Structure:
    paragraphs = join_continued(paragraphs, body_size, words)
    _repair_column_breaks(paragraphs, words)
    paragraphs = merge_heading_lines(paragraphs, body_size, body_font)
    tables = _table_parts(paragraphs)
    heads: dict[int, Heading] = {}
    seen_abstract = seen_body = False
    for i, p in enumerate(paragraphs):
        if i in tables:
            continue
        nxt = paragraphs[i + 1] if i + 1 < len(paragraphs) else None
        h = detect_heading(p, nxt, body_size, body_font, page_heights[p.page])
        in_toc = p.lines[0].y0 <= toc_pages.get(p.page, -1.0)
        if h is None or (in_toc and normalise_heading(h.text) not in TOC_WORDS):
            continue
        kind = kind_of(h.text)
        if kind == SectionKind.abstract:
            seen_abstract = True
        elif p.page == first_page and not (seen_abstract or seen_body or h.known or h.depth):
            continue  # journal banners, title remnants and author lines above the abstract
        seen_body = seen_body or kind is not None or h.depth is not None
        heads[i] = h
    levels = heading_levels(list(heads.values()))
    unheaded_refs = _unheaded_references(paragraphs)
    secs = [_Sec("Front matter", SectionKind.other, 1)]
    abstract_parts: set[str] = set()
    abstract_style: tuple[float, bool, bool] | None = None
    abstract_level = 1
    abstract_page = first_page
    refs_style: tuple[tuple[float, bool, bool], str] | None = None
    prefix = ""
    last_level = 1
    in_appendix = False
    i = 0
    n = len(paragraphs)
    while i < n:
        p = paragraphs[i]
        cur = secs[-1]
        if i in tables and cur.kind != SectionKind.references:
            i += 1  # printed in the table block of its caption
            continue
        h = heads.get(i)
        if (
            h is not None
            and cur.kind == SectionKind.references
            and not (
                h.known
                or (h.style, p.font) == refs_style
                or (h.depth is None and p.size >= body_size + 0.9)
            )
        ):
            # Inside a reference list only a clear heading ends it: a known word, a larger
            # unnumbered line, or one set exactly like the list's own heading ("A. Partitioned
            # vs. unpartitioned ..." after the references; entries numbered "12." are not).
            h = None
        if h is not None:
            norm = normalise_heading(h.text)
            # a sub-heading of a structured abstract is printed smaller or lighter than the
            # "Abstract" label; the body's first heading ("Background") is not
            if abstract_style is None:
                lighter = h.style[0] <= body_size + 0.5 and not h.style[1]
            else:
                lighter = h.style[0] < abstract_style[0] - 0.3 or (
                    abstract_style[1] and not h.style[1]
                )
            if (
                cur.kind == SectionKind.abstract
                and _ABSTRACT_PARTS.fullmatch(norm)
                and norm not in abstract_parts
                and p.page <= abstract_page + 1
                and (lighter or levels[id(h)] > abstract_level)
            ):
                abstract_parts.add(norm)
                prefix = f"{h.text}: "
                i += 1
                continue
            kind = kind_of(h.text)
            level = levels[id(h)]
            letter = NUMBERING.match(h.text)
            if kind == SectionKind.appendix or (
                kind is None
                and cur.kind == SectionKind.references
                and letter is not None
                and letter.group("letter")
            ):
                in_appendix = True  # "A. Data formats" right after the references
            if kind is None:
                parent = next((s for s in reversed(secs) if s.level < level), None)
                inherit = (SectionKind.other, SectionKind.references, SectionKind.abstract)
                if parent is not None and parent.kind not in inherit and level > 1:
                    kind = SectionKind(parent.kind)
                elif in_appendix:
                    kind = SectionKind.appendix
            if kind == SectionKind.abstract:
                abstract_style = h.style
                abstract_level = levels[id(h)]
                abstract_page = p.page
            elif kind == SectionKind.references:
                refs_style = (h.style, p.font)
            secs.append(_Sec(h.text, kind or SectionKind.other, level))
            last_level = level
            i += 1
            continue
        if _PUBLISHER_BOX.search(p.text[:120]):
            secs.append(_Sec("", SectionKind.other, 1))  # publisher boxes after the references
            cur = secs[-1]
        if i == unheaded_refs and cur.kind != SectionKind.references:
            secs.append(_Sec("References", SectionKind.references, 1))
            cur = secs[-1]
        if cur.kind == SectionKind.references:
            cur.paras.append(p)
            i += 1
            continue
        text = prefix + p.text
        prefix = ""
        if not any(s.kind == SectionKind.abstract for s in secs) and p.page <= first_page + 1:
            m = _ABSTRACT_RUN_IN.match(text)
            if m and len(text) > 80:
                secs.append(_Sec("Abstract", SectionKind.abstract, 1))
                cur = secs[-1]
                text = text[m.end() :]
        if cur.kind == SectionKind.abstract and KEYWORDS.match(text):
            secs.append(_Sec("Keywords", SectionKind.other, 1))
            cur = secs[-1]
        elif (
            cur.kind == SectionKind.abstract
            and cur.paras
            and _leaves_abstract(cur.paras[0], p, body_size, body_font)
        ):
            # the body starts without a heading (BMJ, some Elsevier layouts)
            secs.append(_Sec("", SectionKind.introduction, 1))
            cur = secs[-1]
        ref = caption_ref(text)
        if ref is not None:
            if ref.startswith("Table"):
                body = [paragraphs[j] for j in sorted(k for k, c in tables.items() if c == i)]
                cur.blocks.append(_table_block(p, body, ref))
                cur.paras.append(p)
                i += 1
                continue
            cur.blocks.append(_block(text, p.lines, BlockKind.caption, ref))
            cur.paras.append(p)
            i += 1
            continue
        if (
            cur.kind not in (SectionKind.abstract, SectionKind.references)
            and secs[-1].heading != "Front matter"
        ):
            run_in = run_in_heading(p)
            if run_in is not None:
                heading, text = run_in
                kind = kind_of(heading) or (
                    SectionKind(cur.kind) if cur.kind != SectionKind.other else None
                )
                secs.append(_Sec(heading, kind or SectionKind.other, min(last_level + 1, 4)))
                cur = secs[-1]
        block_kind = BlockKind.text
        if _is_equation(p):
            block_kind = BlockKind.equation
        elif _BULLET.match(text):
            block_kind = BlockKind.list
        cur.blocks.append(_block(text, p.lines, block_kind))
        cur.paras.append(p)
        i += 1
    _unlabelled_abstract(secs, first_page)
    abstract = _abstract_text(secs)
    found = any(s.kind == SectionKind.references for s in secs)
    return Structure(secs, abstract, found)


def _leaves_abstract(first: Paragraph, p: Paragraph, body_size: float, body_font: str) -> bool:
    """The abstract is set apart from the body and this paragraph is in the body's style."""
    apart = abs(first.size - body_size) >= 0.3 or first.font != body_font
    return apart and abs(p.size - body_size) < 0.3 and p.font == body_font and len(p.text) > 80


def _unheaded_references(paragraphs: list[Paragraph]) -> int | None:
    """Where a bracket-numbered list "[1] ... [2] ..." starts with no heading above it (REVTeX)."""
    for k in range(len(paragraphs)):
        if paragraphs[k].text.startswith("[1] ") and paragraphs[k].page > 0:
            starts = {ln.text[:4] for p in paragraphs[k : k + 40] for ln in p.lines}
            if "[2] " in starts and "[3] " in starts:
                return k
    return None


def _table_parts(paragraphs: list[Paragraph]) -> dict[int, int]:
    """Paragraph index -> index of its "Table N" caption, for the table body around a caption.

    A body is the run of tabular paragraphs on the caption's page right before it (tables
    above their caption: ACL, IEEE) and right after it, up to the first prose or heading.
    Bold header cells would otherwise pass for section headings.
    """
    parts: dict[int, int] = {}
    for i, cap in enumerate(paragraphs):
        ref = caption_ref(cap.text)
        if ref is None or not ref.startswith("Table"):
            continue
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(paragraphs) and abs(j - i) <= 80 and j not in parts:
                q = paragraphs[j]
                if q.page != cap.page or caption_ref(q.text) or not _is_tabular(q):
                    break
                if NUMBERING.match(q.text) or kind_of(q.text) is not None:
                    break
                parts[j] = i
                j += step
    return parts


def _table_block(cap: Paragraph, body: list[Paragraph], ref: str) -> Block:
    lines = [ln for p in [cap, *body] for ln in p.lines if ln.page == cap.page]
    text = cap.text + "".join("\n" + ln.text for p in body for ln in p.lines)
    return _block(text, lines, BlockKind.table, ref)


def _unlabelled_abstract(secs: list[_Sec], first_page: int) -> None:
    """No "Abstract" label: the first long paragraph of the front matter is the abstract."""
    if any(s.kind == SectionKind.abstract for s in secs) or not secs[0].paras:
        return
    front = secs[0]
    for k, p in enumerate(front.paras):
        if p.page > first_page + 1 or front.blocks[k].kind != BlockKind.text:
            continue
        if k == 0 and p.text[:1].islower():
            return  # the page opens mid-sentence: an excerpt, not a paper's first page
        if len(p.text) >= 250 and len(p.text.split()) >= 40:
            end = k + 1
            while end < len(front.paras):
                q = front.paras[end]
                if (
                    q.page != p.page
                    or abs(q.size - p.size) > 0.3
                    or abs(q.lines[0].x0 - p.lines[0].x0) > 15
                ):
                    break
                if q.lines[0].col != p.lines[0].col:
                    break
                end += 1
            abstract = _Sec(
                "Abstract", SectionKind.abstract, 1, front.blocks[k:end], front.paras[k:end]
            )
            rest = _Sec("", SectionKind.other, 1, front.blocks[end:], front.paras[end:])
            front.blocks, front.paras = front.blocks[:k], front.paras[:k]
            secs[1:1] = [abstract, rest]
            return


def _abstract_text(secs: list[_Sec]) -> str | None:
    for s in secs:
        if s.kind == SectionKind.abstract:
            size = s.paras[0].size if s.paras else 0.0
            # footnotes printed under the abstract's column (affiliations, "Communicated by")
            # sit between its two halves in reading order
            text = " ".join(
                b.text
                for b, p in zip(s.blocks, s.paras)
                if b.kind in (BlockKind.text, BlockKind.list) and p.size >= size - 0.8
            )
            text = re.sub(
                r"\s*(?:©|\(c\)|copyright)\s*(?:19|20)\d{2}\b.*$",
                "",
                text,
                flags=re.IGNORECASE | re.DOTALL,
            )
            return text.strip() or None
    return None
