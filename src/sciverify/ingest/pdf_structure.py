"""Paragraphs to sections: headings and their kinds, abstract, captions, tables, equations."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from sciverify.ingest.pdf_layout import Line, Paragraph, WordList, join_lines
from sciverify.records import Block, BlockKind, Reference, Section, SectionKind

# Heading words to section kinds: the one table. A heading matches a phrase when its
# normalised text equals the phrase or starts with it; longer phrases are listed first.
SECTION_KINDS: tuple[tuple[str, SectionKind], ...] = (
    ("results and discussion", SectionKind.results),
    ("discussion and conclusions", SectionKind.discussion),
    ("discussion and conclusion", SectionKind.discussion),
    ("materials and methods", SectionKind.methods),
    ("material and methods", SectionKind.methods),
    ("methods and materials", SectionKind.methods),
    ("patients and methods", SectionKind.methods),
    ("experimental results", SectionKind.results),
    ("experimental setup", SectionKind.methods),
    ("experimental design", SectionKind.methods),
    ("experimental procedures", SectionKind.methods),
    ("experimental section", SectionKind.methods),
    ("statistical analysis", SectionKind.methods),
    ("study design", SectionKind.methods),
    ("related work", SectionKind.related_work),
    ("related works", SectionKind.related_work),
    ("related literature", SectionKind.related_work),
    ("previous work", SectionKind.related_work),
    ("prior work", SectionKind.related_work),
    ("literature review", SectionKind.related_work),
    ("state of the art", SectionKind.related_work),
    ("concluding remarks", SectionKind.conclusion),
    ("summary and conclusions", SectionKind.conclusion),
    ("summary and outlook", SectionKind.conclusion),
    ("future work", SectionKind.conclusion),
    ("threats to validity", SectionKind.limitations),
    ("strengths and limitations", SectionKind.limitations),
    ("limitations", SectionKind.limitations),
    ("limitation", SectionKind.limitations),
    ("acknowledgements", SectionKind.acknowledgements),
    ("acknowledgments", SectionKind.acknowledgements),
    ("acknowledgement", SectionKind.acknowledgements),
    ("acknowledgment", SectionKind.acknowledgements),
    ("funding", SectionKind.acknowledgements),
    ("references", SectionKind.references),
    ("reference list", SectionKind.references),
    ("bibliography", SectionKind.references),
    ("literature cited", SectionKind.references),
    ("works cited", SectionKind.references),
    ("cited literature", SectionKind.references),
    ("appendix", SectionKind.appendix),
    ("appendices", SectionKind.appendix),
    ("supplementary", SectionKind.appendix),
    ("supporting information", SectionKind.appendix),
    ("additional file", SectionKind.appendix),
    ("competing interests", SectionKind.other),
    ("conflict of interest", SectionKind.other),
    ("conflicts of interest", SectionKind.other),
    ("declaration of competing interest", SectionKind.other),
    ("declarations", SectionKind.other),
    ("authors contributions", SectionKind.other),
    ("author contributions", SectionKind.other),
    ("authors information", SectionKind.other),
    ("author details", SectionKind.other),
    ("abbreviations", SectionKind.other),
    ("availability of data", SectionKind.other),
    ("data availability", SectionKind.other),
    ("ethics approval", SectionKind.other),
    ("ethics statement", SectionKind.other),
    ("consent for publication", SectionKind.other),
    ("author biographies", SectionKind.other),
    ("biographies", SectionKind.other),
    ("about the authors", SectionKind.other),
    ("abstract", SectionKind.abstract),
    ("introduction", SectionKind.introduction),
    ("background", SectionKind.introduction),
    ("motivation", SectionKind.introduction),
    ("methodology", SectionKind.methods),
    ("methods", SectionKind.methods),
    ("method", SectionKind.methods),
    ("materials", SectionKind.methods),
    ("experimental", SectionKind.methods),
    ("results", SectionKind.results),
    ("result", SectionKind.results),
    ("evaluation", SectionKind.results),
    ("experiments", SectionKind.results),
    ("findings", SectionKind.results),
    ("discussion", SectionKind.discussion),
    ("conclusions", SectionKind.conclusion),
    ("conclusion", SectionKind.conclusion),
    ("summary", SectionKind.conclusion),
    ("outlook", SectionKind.conclusion),
)
# Sub-headings of a structured abstract: kept inside the abstract, not new sections.
_ABSTRACT_PARTS = {
    "background", "objective", "objectives", "aim", "aims", "purpose", "context", "methods",
    "method", "design", "setting", "participants", "interventions", "measurements", "results",
    "findings", "conclusion", "conclusions", "interpretation", "significance", "importance",
    "main outcome measures", "methodology", "principal findings", "trial registration",
    "methods and findings", "conclusions and significance", "introduction", "materials and methods",
}
_NUMBERING = re.compile(
    r"^(?:(?P<arabic>\d{1,2}(?:\.\d{1,2}){0,3})\.?|(?P<roman>[IVX]{1,5})\.|(?P<letter>[A-H](?:\.\d{1,2})*\.))"
    r"\s+(?=[A-Z(\u00C0-\u024F])"
)
CAPTION = re.compile(
    r"^(?P<label>(?:Supplementary |Extended Data |Suppl\. )?(?:Figure|Fig\.?|FIGURE|FIG\.?|Table|TABLE"
    r"|Scheme|Chart|Plate|Box|Algorithm|Listing))\s*(?P<num>S?\d{1,3}[A-Za-z]?|[IVXL]{1,6})"
    r"(?P<rest>\s*[.:|\u2014\u2013\-]|\s+(?=[A-Z(])|\s*$)"
)
_ABSTRACT_RUN_IN = re.compile(r"^(?:abstract|summary|a b s t r a c t)\b\s*[.:\u2014\u2013\-]*\s*(?=\S)", re.I)
_KEYWORDS = re.compile(r"^(?:key\s?words|index terms|keywords)\b", re.I)
_NOT_RUN_IN = re.compile(
    r"^(?:theorem|lemma|proof|definition|corollary|proposition|remark|example|note|step|case|claim"
    r"|property|assumption|hypothesis|conjecture|problem|algorithm|figure|fig|table)\b",
    re.I,
)
_FRONT_WORDS = re.compile(r"\b(?:received|accepted|published|revised|available online|correspond)\b", re.I)
_TOC_WORDS = {"contents", "table of contents"}
_MATH_FONT = re.compile(r"cmmi|cmsy|cmex|msbm|msam|rsfs|eufm|math|symbol|mt2sy|mt2mi", re.I)
_DANGLING = {"of", "and", "the", "in", "for", "on", "with", "to", "a", "an", "by", "from", "at", "or"}
_AFFILIATION_WORDS = re.compile(r"universit|department|institute of|school of|@|\bfaculty of", re.I)
_MATH = set("=+−×∑∫∂≤≥≈∈∀∃→←⇒√∞^_∆∇≡∝±·")
_BULLET = re.compile(r"^[•◦▪‣∙●○■□–\-]\s+")


def normalise_heading(text: str) -> str:
    text = _NUMBERING.sub("", text.strip())
    return " ".join(re.sub(r"[^a-z]+", " ", text.lower()).split())


def kind_of(heading: str) -> SectionKind | None:
    norm = normalise_heading(heading)
    for phrase, kind in SECTION_KINDS:
        if norm == phrase or norm.startswith(phrase + " ") or norm == phrase + "s":
            return kind
    if "related work" in norm:
        return SectionKind.related_work
    return None


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


def _block(text: str, lines: list[Line], kind: str = BlockKind.text, ref: str | None = None) -> Block:
    page = lines[0].page
    on_page = [ln for ln in lines if ln.page == page]
    bbox = (
        round(min(ln.x0 for ln in on_page), 2),
        round(min(ln.y0 for ln in on_page), 2),
        round(max(ln.x1 for ln in on_page), 2),
        round(max(ln.y1 for ln in on_page), 2),
    )
    return Block(text=text, kind=kind, page=page + 1, bbox=bbox, ref=ref)


@dataclass(slots=True)
class _Heading:
    text: str
    depth: int | None  # from the numbering, if any
    style: tuple[float, bool, bool]
    known: bool
    run_in: bool = False


def _heading(
    p: Paragraph, nxt: Paragraph | None, body_size: float, body_font: str, page_height: float
) -> _Heading | None:
    if len(p.lines) > 3:
        return None
    text = " ".join(p.text.split())
    words = text.split()
    if not 2 <= len(text) <= 160 or len(words) > 18:
        return None
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
        return None
    if CAPTION.match(text) or "@" in text or "http" in text or text[-1] in ",;" or not text[0].isalnum():
        return None
    if text[0].islower() or _KEYWORDS.match(text) or _FRONT_WORDS.search(text):
        return None
    if words[-1].lower() in _DANGLING or _AFFILIATION_WORDS.search(text):
        return None  # a line broken mid-phrase, or an affiliation footnote
    if _MATH_FONT.search(p.font) or (_NOT_RUN_IN.match(text) and len(words) <= 3):
        return None  # a formula, or a theorem label such as "Property 4.1"
    if not re.search(r"[A-Za-z\u00C0-\u024F]{3}", text):
        return None
    if p.lines[0].y1 < 0.07 * page_height or p.lines[-1].y0 > 0.93 * page_height:
        return None  # leftovers of running heads and feet
    lead = p.lines[0].lead_bold
    if lead and len(lead) < len(p.lines[0].text) - 3 and p.bold < 0.95:
        return None  # a bold lead-in opening a paragraph, see _run_in
    m = _NUMBERING.match(text)
    depth = None
    if m:
        depth = m.group("arabic").count(".") + 1 if m.group("arabic") else 1 if m.group("roman") else 2
    kind = kind_of(text)
    known = kind is not None and len(words) <= 7
    size = p.size
    bigger = size >= body_size + 0.9
    bold = p.bold >= 0.7
    caps = letters >= 4 and text.upper() == text
    sentence = text.endswith(".") and len(words) > 5 and not m
    if re.search(r"\s\d{1,3}$", text) and not m:
        return None  # a table-of-contents line
    style = (round(size * 2) / 2, bold, caps)
    # set apart only by its font (bold faces whose names and flags do not say so)
    distinct = (
        all(ln.font != body_font for ln in p.lines)
        and p.gap_before >= 0.3
        and size >= min(body_size, nxt.size if nxt else body_size) - 1.0
        and (nxt is None or nxt.font != p.font)
        and len(p.lines) <= 2
        and len(words) <= 14
        and not text.endswith(".")
    )
    if bigger or bold:
        ok = not sentence
    elif m:
        ok = caps or size < body_size - 0.3 or known
    else:
        ok = (
            (caps and len(words) <= 8 and len(p.lines) == 1)
            or (known and len(p.lines) == 1 and len(words) <= 4)
            or distinct
        )
    return _Heading(text.rstrip(":"), depth, style, known) if ok else None


def _run_in(p: Paragraph) -> tuple[str, str] | None:
    """A bold lead-in such as "Participants." opening a paragraph: (heading, rest of text)."""
    lead = " ".join(p.lines[0].lead_bold.split())
    text = " ".join(p.text.split())
    if not lead or lead == text or not text.startswith(lead) or len(lead.split()) > 8:
        return None
    if sum(c.isalpha() for c in lead) < 3 or _NOT_RUN_IN.match(lead) or CAPTION.match(lead):
        return None
    rest = text[len(lead) :].lstrip(" .:\u2014\u2013-")
    if not rest or not (lead.endswith((".", ":")) or rest[0].isupper()):
        return None
    return lead.rstrip(" .:"), rest


def _is_equation(p: Paragraph) -> bool:
    text = p.text
    if len(p.lines) > 4 or len(text) > 300:
        return False
    maths = sum(1 for c in text if c in _MATH)
    tokens = text.split()
    wordy = sum(1 for t in tokens if len(t) >= 4 and t.isalpha())
    numbered = re.search(r"\(\d{1,3}[a-z]?\)$", text) is not None
    return (maths >= 1 and numbered and wordy <= 4) or (maths >= 2 and wordy <= max(1, len(tokens) // 4))


def _is_tabular(p: Paragraph) -> bool:
    text = p.text
    if not text:
        return False
    digits = sum(c.isdigit() for c in text) / len(text)
    per_line = len(text.split()) / len(p.lines)
    prose = len(text) > 150 and text.rstrip().endswith(".") and per_line > 8
    return not prose and (digits >= 0.15 or per_line <= 6)


def _caption_ref(text: str) -> str | None:
    m = CAPTION.match(text)
    if not m:
        return None
    label = m.group("label").rstrip(".").lower()
    name = {"fig": "Figure", "figure": "Figure", "table": "Table"}.get(label.split()[-1], label.split()[-1].title())
    if label.startswith(("supplementary", "suppl", "extended")):
        name = f"Supplementary {name}"
    return f"{name} {m.group('num')}"


def _repair_column_breaks(paragraphs: list[Paragraph], words: WordList) -> None:
    """A word hyphenated across a column or page break belongs to the earlier block."""
    for a, b in zip(paragraphs, paragraphs[1:]):
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


def build_sections(
    paragraphs: list[Paragraph],
    *,
    body_size: float,
    body_font: str,
    first_page: int,
    page_heights: list[float],
    toc_pages: set[int],
    words: WordList,
) -> Structure:
    _repair_column_breaks(paragraphs, words)
    paragraphs = _merge_heading_lines(paragraphs, body_size, body_font)
    heads: dict[int, _Heading] = {}
    seen_abstract = seen_body = False
    for i, p in enumerate(paragraphs):
        nxt = paragraphs[i + 1] if i + 1 < len(paragraphs) else None
        h = _heading(p, nxt, body_size, body_font, page_heights[p.page])
        if h is None or (p.page in toc_pages and normalise_heading(h.text) not in _TOC_WORDS):
            continue
        kind = kind_of(h.text)
        if kind == SectionKind.abstract:
            seen_abstract = True
        elif p.page == first_page and not (seen_abstract or seen_body or h.known or h.depth):
            continue  # journal banners, title remnants and author lines above the abstract
        seen_body = seen_body or kind is not None or h.depth is not None
        heads[i] = h
    levels = _levels(list(heads.values()))
    unheaded_refs = _unheaded_references(paragraphs)
    secs = [_Sec("Front matter", SectionKind.other, 1)]
    abstract_parts: set[str] = set()
    abstract_style: tuple[float, bool, bool] | None = None
    refs_style: tuple[tuple[float, bool, bool], str] | None = None
    prefix = ""
    last_level = 1
    in_appendix = False
    i = 0
    n = len(paragraphs)
    while i < n:
        p = paragraphs[i]
        cur = secs[-1]
        h = heads.get(i)
        if (
            h is not None
            and cur.kind == SectionKind.references
            and not (h.known or (h.depth is None and (p.size >= body_size + 0.9 or (h.style, p.font) == refs_style)))
        ):
            h = None  # inside a reference list only a clear heading ends it
        if h is not None:
            norm = normalise_heading(h.text)
            # a sub-heading of a structured abstract is printed smaller or lighter than the
            # "Abstract" label; the body's first heading ("Background") is not
            if abstract_style is None:
                lighter = h.style[0] <= body_size + 0.5 and not h.style[1]
            else:
                lighter = h.style[0] < abstract_style[0] - 0.3 or (abstract_style[1] and not h.style[1])
            if (
                cur.kind == SectionKind.abstract
                and norm in _ABSTRACT_PARTS
                and norm not in abstract_parts
                and p.page <= first_page + 1
                and lighter
            ):
                abstract_parts.add(norm)
                prefix = f"{h.text}: "
                i += 1
                continue
            kind = kind_of(h.text)
            level = levels[id(h)]
            if kind == SectionKind.appendix:
                in_appendix = True
            if kind is None:
                parent = next((s for s in reversed(secs) if s.level < level), None)
                inherit = (SectionKind.other, SectionKind.references, SectionKind.abstract)
                if parent is not None and parent.kind not in inherit and level > 1:
                    kind = SectionKind(parent.kind)
                elif in_appendix:
                    kind = SectionKind.appendix
            if kind == SectionKind.abstract:
                abstract_style = h.style
            elif kind == SectionKind.references:
                refs_style = (h.style, p.font)
            secs.append(_Sec(h.text, kind or SectionKind.other, level))
            last_level = level
            i += 1
            continue
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
        if cur.kind == SectionKind.abstract and _KEYWORDS.match(text):
            secs.append(_Sec("Keywords", SectionKind.other, 1))
            cur = secs[-1]
        elif cur.kind == SectionKind.abstract and cur.paras and _leaves_abstract(cur.paras[0], p, body_size, body_font):
            # the body starts without a heading (BMJ, some Elsevier layouts)
            secs.append(_Sec("", SectionKind.introduction, 1))
            cur = secs[-1]
        ref = _caption_ref(text)
        if ref is not None:
            if ref.startswith("Table"):
                i = _take_table(paragraphs, i, cur, ref, heads)
                continue
            cur.blocks.append(_block(text, p.lines, BlockKind.caption, ref))
            cur.paras.append(p)
            i += 1
            continue
        if cur.kind not in (SectionKind.abstract, SectionKind.references) and secs[-1].heading != "Front matter":
            run_in = _run_in(p)
            if run_in is not None:
                heading, text = run_in
                kind = kind_of(heading) or (SectionKind(cur.kind) if cur.kind != SectionKind.other else None)
                secs.append(_Sec(heading, kind or SectionKind.other, min(last_level + 1, 4)))
                cur = secs[-1]
        kind = BlockKind.text
        if _is_equation(p):
            kind = BlockKind.equation
        elif _BULLET.match(text):
            kind = BlockKind.list
        cur.blocks.append(_block(text, p.lines, kind))
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


def _merge_heading_lines(paragraphs: list[Paragraph], body_size: float, body_font: str) -> list[Paragraph]:
    """Join a heading broken over two lines that ended up as two paragraphs."""
    out: list[Paragraph] = []
    for p in paragraphs:
        prev = out[-1] if out else None
        if (
            prev is not None
            and len(prev.lines) <= 2
            and len(p.lines) == 1
            and len(prev.text.split()) + len(p.text.split()) <= 18
            and prev.page == p.page
            and p.gap_before < 1.0
            and abs(prev.size - p.size) < 0.2
            and (prev.bold >= 0.7) == (p.bold >= 0.7)
            and prev.font == p.font
            and (prev.bold >= 0.7 or prev.size >= body_size + 0.9 or prev.font != body_font)
            and not prev.text.rstrip().endswith((".", ":"))
            and not _NUMBERING.match(p.text)
            and not CAPTION.match(prev.text)
        ):
            prev.lines.extend(p.lines)
            prev.text = f"{prev.text} {p.text}"
            continue
        out.append(p)
    return out


def _unheaded_references(paragraphs: list[Paragraph]) -> int | None:
    """Where a bracket-numbered list "[1] ... [2] ..." starts with no heading above it (REVTeX)."""
    for k in range(len(paragraphs)):
        if paragraphs[k].text.startswith("[1] ") and paragraphs[k].page > 0:
            starts = {ln.text[:4] for p in paragraphs[k : k + 40] for ln in p.lines}
            if "[2] " in starts and "[3] " in starts:
                return k
    return None


def _take_table(paragraphs: list[Paragraph], i: int, cur: _Sec, ref: str, heads: dict[int, _Heading]) -> int:
    """A table block: the caption plus the tabular paragraphs right before and after it."""
    cap = paragraphs[i]
    body: list[Paragraph] = []
    # tables printed above their caption (ACL, IEEE) were already added as text blocks
    while cur.blocks and cur.paras and cur.blocks[-1].kind == BlockKind.text:
        prev = cur.paras[-1]
        if prev.page != cap.page or not _is_tabular(prev) or len(body) > 80:
            break
        body.insert(0, prev)
        cur.blocks.pop()
        cur.paras.pop()
    j = i + 1
    while j < len(paragraphs) and j - i <= 80:
        q = paragraphs[j]
        if q.page != cap.page or j in heads or _caption_ref(q.text) or not _is_tabular(q):
            break
        body.append(q)
        j += 1
    lines = [ln for p in [cap, *body] for ln in p.lines]
    text = cap.text + "".join("\n" + ln.text for p in body for ln in p.lines)
    cur.blocks.append(_block(text, [ln for ln in lines if ln.page == cap.page], BlockKind.table, ref))
    cur.paras.append(cap)
    return j


def _levels(heads: list[_Heading]) -> dict[int, int]:
    """Numbered headings give their depth; a style takes the depth its numbered headings have."""
    by_style: dict[tuple[float, bool, bool], Counter[int]] = {}
    for h in heads:
        if h.depth is not None:
            by_style.setdefault(h.style, Counter())[h.depth] += 1
    styles = sorted({h.style for h in heads}, key=lambda s: (-s[0], not s[1], not s[2]))
    out: dict[int, int] = {}
    for h in heads:
        if h.depth is not None:
            out[id(h)] = min(h.depth, 4)
        elif h.known:
            out[id(h)] = by_style[h.style].most_common(1)[0][0] if h.style in by_style else 1
        elif h.style in by_style:
            out[id(h)] = by_style[h.style].most_common(1)[0][0]
        else:
            out[id(h)] = min(styles.index(h.style) + 1, 3)
    return out


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
                if q.page != p.page or abs(q.size - p.size) > 0.3 or abs(q.lines[0].x0 - p.lines[0].x0) > 15:
                    break
                if q.lines[0].col != p.lines[0].col:
                    break
                end += 1
            abstract = _Sec("Abstract", SectionKind.abstract, 1, front.blocks[k:end], front.paras[k:end])
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
            text = re.sub(r"\s*(?:©|\(c\)|copyright)\s*(?:19|20)\d{2}\b.*$", "", text, flags=re.I | re.S)
            return text.strip() or None
    return None
