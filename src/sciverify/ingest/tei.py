"""GROBID TEI XML to records: sections, blocks with pages and boxes, references, metadata.

The mapping reads every GROBID TEI we have seen (0.4.1 to 0.8.3, header-only, citation lists):
element lookups use the `{*}` wildcard, so namespaced and namespace-free TEI read the same.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from sciverify.errors import ParseError
from sciverify.ingest.identity import normalise_arxiv
from sciverify.records import (
    BBox,
    Block,
    BlockKind,
    ParsedDocument,
    Reference,
    Section,
    SectionKind,
)

MAPPER_VERSION = "sciverify-tei/1"
# Figures and tables that no section cites land in a section of their own, after the body.
FLOATS_HEADING = "Figures and tables"

# Heading words (word starts, "|"-separated) -> section kind. The word found earliest in a
# heading wins ("Results and discussion" -> results); on a tie the longer one wins
# ("Experimental setup" -> methods, not results).
HEADING_KINDS: dict[str, str] = {
    SectionKind.abstract: "abstract",
    SectionKind.introduction: "introduction|background|motivation",
    SectionKind.related_work: "related work|related literature|prior work|previous work"
    "|literature review|state of the art",
    SectionKind.methods: "method|material|experimental setup|experimental design"
    "|experimental procedure|experimental protocol|experimental detail|study design"
    "|data collection|data analys|statistical analys|dataset|participants|patients and"
    "|procedure|implementation|approach",
    SectionKind.results: "result|experiment|evaluation|finding",
    SectionKind.discussion: "discussion",
    SectionKind.conclusion: "conclu|summary|outlook",
    SectionKind.limitations: "limitation|threats to validity|future work|future direction"
    "|future research",
    SectionKind.acknowledgements: "acknowledg|funding",
    SectionKind.references: "reference|bibliograph|literature cited",
    SectionKind.appendix: "appendix|appendices|supplementary|supporting information",
}
_HEADING_PATTERNS = [
    (kind, re.compile(r"\b" + re.escape(word)))
    for kind, words in HEADING_KINDS.items()
    for word in words.split("|")
]
# An unrecognised heading after one of these kinds is a subsection of it (unnumbered papers).
_HAS_SUBSECTIONS = frozenset(
    (SectionKind.related_work, SectionKind.methods, SectionKind.results, SectionKind.discussion)
    + (SectionKind.appendix, SectionKind.limitations)
)
# GROBID's types for back-matter divs -> (section kind, heading when the div has none).
BACK_KINDS: dict[str, tuple[str, str]] = {
    "acknowledgement": (SectionKind.acknowledgements, "Acknowledgements"),
    "funding": (SectionKind.acknowledgements, "Funding"),
    "annex": (SectionKind.appendix, "Appendix"),
    "availability": (SectionKind.other, "Availability"),
    "conflict": (SectionKind.other, "Competing interests"),
    "contribution": (SectionKind.other, "Author contributions"),
}

# "A.2 Proofs": appendix numbering (a letter, then dotted numbers).
_APPENDIX_NUMBER = re.compile(r"^[A-H](?:\.\d+)+\.?\s")
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
_WS = re.compile(r"\s+")
_YEAR = re.compile(r"(1[5-9]|20)\d\d")
_FLOAT_NUMBER = re.compile(r"\b(?:fig(?:ure)?|tab(?:le)?)\.?\s*([A-Z]?\d+[a-z]?)\b", re.IGNORECASE)


@lru_cache(maxsize=256)
def _path(path: str) -> str:
    """'a/b' -> '{*}a/{*}b': match TEI elements in any namespace, or none."""
    return "/".join(s if s in ("", ".", "..") else "{*}" + s for s in path.split("/"))


def _find(el: ET.Element | None, path: str) -> ET.Element | None:
    return None if el is None else el.find(_path(path))


def _findall(el: ET.Element | None, path: str) -> list[ET.Element]:
    return [] if el is None else el.findall(_path(path))


def _local(el: ET.Element) -> str:
    return el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""


def _text(el: ET.Element | None) -> str:
    return "" if el is None else _WS.sub(" ", "".join(el.itertext())).strip()


def _first_text(el: ET.Element | None, *paths: str) -> str:
    for path in paths:
        for found in _findall(el, path):
            if text := _text(found):
                return text
    return ""


# -- coordinates -----------------------------------------------------------------------------


def _boxes(el: ET.Element | None) -> list[tuple[int, float, float, float, float]]:
    """GROBID coords "page,x,y,w,h;..." (page 1-based); a paragraph may carry them per sentence."""
    if el is None:
        return []
    values = [el.get("coords") or ""] + [s.get("coords") or "" for s in _findall(el, ".//s")]
    out = []
    for value in values:
        for part in value.split(";"):
            try:
                page, x, y, w, h = (float(v) for v in part.split(","))
            except ValueError:
                continue
            out.append((int(page), x, y, x + w, y + h))
        if out:  # the element's own coords win over its sentences'
            break
    return out


def _place(*els: ET.Element | None) -> tuple[int | None, BBox | None]:
    """Page and box of the first element with coords; the box is the union on its first page."""
    for el in els:
        boxes = _boxes(el)
        if boxes:
            page = boxes[0][0]
            same = [b for b in boxes if b[0] == page]
            box = (
                min(b[1] for b in same),
                min(b[2] for b in same),
                max(b[3] for b in same),
                max(b[4] for b in same),
            )
            return page, box
    return None, None


# -- header ----------------------------------------------------------------------------------


def _person(pers: ET.Element) -> str:
    names = [_text(f) for f in _findall(pers, "forename")] + [_text(_find(pers, "surname"))]
    return " ".join(n for n in names if n)


def _authors(*parents: ET.Element | None) -> tuple[str, ...]:
    for parent in parents:
        names = [_person(p) for p in _findall(parent, "author/persName")]
        if found := tuple(n for n in names if n):
            return found
    return ()


def _idno(el: ET.Element | None, kind: str) -> str | None:
    for idno in _findall(el, ".//idno"):
        if (idno.get("type") or "").lower() == kind and (value := _text(idno)):
            return value
    return None


def _arxiv(el: ET.Element | None) -> str | None:
    # GROBID writes "arXiv:2602.20117v1[cs.AI]"; keep the id and its version only.
    arxiv, version = normalise_arxiv(_idno(el, "arxiv"))
    return f"{arxiv}{version or ''}" if arxiv else None


def _year(*els: ET.Element | None) -> int | None:
    for el in els:
        dates = _findall(el, ".//date")
        for date in sorted(dates, key=lambda d: d.get("type") != "published"):
            if match := _YEAR.search(date.get("when") or _text(date)):
                return int(match.group(0))
    return None


def _meeting(monogr: ET.Element | None) -> str:
    meeting = _find(monogr, "meeting")
    if meeting is None:
        return ""
    parts = [meeting.text or ""]
    for child in meeting:  # the meeting's name, without its address
        parts += ([] if _local(child) == "address" else [_text(child)]) + [child.tail or ""]
    return _WS.sub(" ", " ".join(parts)).strip(" ,")


def _venue(monogr: ET.Element | None, exclude: str = "") -> str | None:
    for path in ("title[@level='j']", "title[@level='m']", "title"):
        for title in _findall(monogr, path):
            if (text := _text(title)) and text != exclude:
                return text
    return _meeting(monogr) or None


def _licence(header: ET.Element | None) -> str | None:
    for lic in _findall(header, ".//availability/licence"):
        if value := _text(lic) or (lic.get("target") or "").strip():
            return value
    return None


# -- references ------------------------------------------------------------------------------


def _scope(monogr: ET.Element | None) -> str:
    units = {(b.get("unit") or ""): b for b in _findall(monogr, "imprint/biblScope")}
    volume, issue, page = (_text(units.get(u)) for u in ("volume", "issue", "page"))
    if (page_el := units.get("page")) is not None:
        start, end = page_el.get("from"), page_el.get("to")
        page = page or (f"{start}-{end}" if start and end else start or "")
    out = volume + (f"({issue})" if issue else "")
    return f"{out}:{page}" if out and page else out or page


def _reference(bibl: ET.Element) -> Reference | None:
    analytic, monogr = _find(bibl, "analytic"), _find(bibl, "monogr")
    title = _first_text(analytic, "title[@level='a']", "title") or _first_text(
        monogr, "title[@level='m']", "title"
    )
    authors = _authors(analytic, monogr)
    year, doi, arxiv = _year(monogr, bibl), _idno(bibl, "doi"), _arxiv(bibl)
    venue = _venue(monogr, exclude=title)
    raw = next((t for n in _findall(bibl, "note[@type='raw_reference']") if (t := _text(n))), "")
    if not raw:  # GROBID only keeps the raw string when asked to, so write a readable one
        head = ", ".join(authors) + (f" ({year})" if year else "")
        venue_part = " ".join(p for p in (venue or "", _scope(monogr)) if p)
        parts = [
            head,
            title,
            venue_part,
            f"doi:{doi}" if doi else "",
            f"arXiv:{arxiv}" if arxiv else "",
        ]
        raw = ". ".join(p.strip().rstrip(".") for p in parts if p.strip())
        raw = (raw + ".") if raw else _text(bibl)
    if not raw:
        return None
    return Reference(
        raw=raw,
        title=title or None,
        authors=authors,
        year=year,
        doi=doi,
        arxiv_id=arxiv,
        venue=venue,
    )


# -- sections --------------------------------------------------------------------------------


@dataclass
class _Draft:
    heading: str
    kind: str
    level: int = 1
    blocks: list[Block] = field(default_factory=list)
    cites: set[str] = field(default_factory=set)  # xml:ids of figures/tables/notes cited here

    def done(self) -> Section:
        return Section(self.heading, self.kind, tuple(self.blocks), self.level)


def heading_kind(heading: str) -> str | None:
    """The section kind a heading's words name, or None when they name none."""
    text = heading.lower()
    hits = [
        (m.start(), -len(m.group(0)), kind)
        for kind, pattern in _HEADING_PATTERNS
        if (m := pattern.search(text))
    ]
    return str(min(hits)[2]) if hits else None


def _level(head: ET.Element) -> int:
    """ "2.2.1." -> 3; unnumbered headings are top level."""
    number = (head.get("n") or "").strip().strip(".")
    return len([p for p in number.split(".") if p]) or 1


def _float_block(fig: ET.Element) -> Block | None:
    is_table = fig.get("type") == "table"
    head, label = _text(_find(fig, "head")), _text(_find(fig, "label"))
    desc = _text(_find(fig, "figDesc"))
    if len(label) > 8 or " " in label:  # not a number but text GROBID misfiled as one
        label = ""
    number = label or next((m.group(1) for t in (head, desc) if (m := _FLOAT_NUMBER.search(t))), "")
    ref = f"{'Table' if is_table else 'Figure'} {number}" if number else None
    caption, lead = desc, head.rstrip(" :.")
    # figDesc often starts with "Figure 1." itself; otherwise the head leads the caption.
    if lead and not (_FLOAT_NUMBER.match(desc) or desc.lower().startswith(lead.lower())):
        caption = f"{lead}: {desc}" if desc else lead
    if is_table:
        rows = [
            "\t".join(_text(c) for c in _findall(row, "cell")) for row in _findall(fig, ".//row")
        ]
        text = "\n".join(t for t in (caption, *rows, _text(_find(fig, "note"))) if t.strip())
        page, box = _place(_find(fig, "table"), fig, _find(fig, "figDesc"))
    else:
        text = caption
        page, box = _place(_find(fig, "figDesc"), fig, _find(fig, "graphic"))
    if not text:
        return None
    return Block(text, BlockKind.table if is_table else BlockKind.caption, page, box, ref)


def _block(el: ET.Element) -> Block | None:
    name = _local(el)
    if name == "figure":
        return _float_block(el)
    if name == "list":
        text = "\n".join(t for item in _findall(el, "item") if (t := _text(item)))
    else:
        text = _text(el)
    kinds = {
        "p": BlockKind.text,
        "note": BlockKind.text,
        "formula": BlockKind.equation,
        "list": BlockKind.list,
    }
    if name not in kinds or not any(ch.isalnum() for ch in text):
        return None
    page, box = _place(el)
    return Block(text, kinds[name], page, box)


def _cites(el: ET.Element) -> set[str]:
    """xml:ids an element's refs point to; "Figure 2" for a ref GROBID could not resolve."""
    out: set[str] = set()
    for ref in el.iter():
        if _local(ref) != "ref":
            continue
        targets = (ref.get("target") or "").split()
        out.update(t.lstrip("#") for t in targets)
        name = {"figure": "Figure", "table": "Table"}.get(ref.get("type") or "")
        if name and not targets and (m := re.search(r"[A-Z]?\d+[a-z]?", _text(ref))):
            out.add(f"{name} {m.group(0)}")
    return out


_NewSection = Callable[[ET.Element | None], _Draft]


def _walk(
    div: ET.Element, drafts: list[_Draft], new: _NewSection, floats: list[ET.Element]
) -> None:
    """One div: a heading starts a section; a div without one continues the current section."""
    head = _find(div, "head")
    blocks, cites = [], set()
    for child in div:
        if _local(child) in ("head", "div"):
            continue
        if _local(child) == "note" and child.get("place") == "foot":
            floats.append(child)  # footnotes follow the section that cites them
            continue
        if block := _block(child):
            blocks.append(block)
        cites |= _cites(child)
    if _text(head):
        drafts.append(new(head))
    elif not drafts and blocks:  # text before the first heading: a section with no heading
        drafts.append(new(None))
    if drafts:
        drafts[-1].blocks += blocks
        drafts[-1].cites |= cites
    for sub in div:
        if _local(sub) == "div":
            _walk(sub, drafts, new, floats)


def _body_sections(body: ET.Element | None, floats: list[ET.Element]) -> list[_Draft]:
    drafts: list[_Draft] = []

    def new(head: ET.Element | None) -> _Draft:
        heading, number = _text(head), "" if head is None else (head.get("n") or "").strip()
        level = 1 if head is None else _level(head)
        kind = heading_kind(heading) if heading else None
        if _APPENDIX_NUMBER.match(f"{number} {heading}".strip()):
            kind = SectionKind.appendix
        elif kind is None and heading:
            parents = [d for d in drafts if d.level < level]
            if level > 1 and parents:
                kind = parents[-1].kind
            elif not number and drafts and drafts[-1].kind in _HAS_SUBSECTIONS:
                kind = drafts[-1].kind  # an unnumbered heading inside a results section
        return _Draft(heading, kind or SectionKind.other, level)

    for child in body if body is not None else ():
        if _local(child) == "div":
            _walk(child, drafts, new, floats)
        elif _local(child) in ("figure", "note"):
            floats.append(child)
    return drafts


def _back_kind(kind: str, default_heading: str) -> _NewSection:
    def new(head: ET.Element | None) -> _Draft:
        heading, level = _text(head), 1 if head is None else _level(head)
        if heading_kind(heading) == SectionKind.acknowledgements:
            return _Draft(heading, SectionKind.acknowledgements, level)  # GROBID may say annex
        return _Draft(heading or default_heading, kind, level)

    return new


def _back_sections(back: ET.Element | None, floats: list[ET.Element]) -> list[_Draft]:
    out: list[_Draft] = []
    for div in _findall(back, "div"):
        kind, default_heading = BACK_KINDS.get(div.get("type") or "", ("", ""))
        if not kind:
            continue  # references are mapped to Reference records, not to a section
        drafts: list[_Draft] = []
        for child in div:
            if _local(child) == "div":
                _walk(child, drafts, _back_kind(kind, default_heading), floats)
            elif _local(child) in ("figure", "note"):
                floats.append(child)
        out += drafts
    return out


def _place_floats(floats: list[ET.Element], drafts: list[_Draft]) -> _Draft | None:
    """Figures, tables and footnotes go to the first section that cites them."""
    leftover = _Draft(FLOATS_HEADING, SectionKind.other)
    for el in floats:
        if (block := _block(el)) is None:
            continue
        ident = el.get(_XML_ID)
        home = next((d for d in drafts if ident and ident in d.cites), None) or next(
            (d for d in drafts if block.ref and block.ref in d.cites), None
        )
        if home is not None:
            home.blocks.append(block)
        elif _local(el) == "figure":  # an uncited footnote is an author note or a URL: dropped
            leftover.blocks.append(block)
    return leftover if leftover.blocks else None


# -- the document ----------------------------------------------------------------------------


def _abstract_blocks(abstract: ET.Element | None) -> list[Block]:
    if abstract is None:
        return []
    paras = _findall(abstract, ".//p")
    if not paras:  # very old output: the abstract's text sits directly in <abstract>
        return [Block(text)] if (text := _text(abstract)) else []
    # A structured abstract's part headings ("Methods and Results") lead their first paragraph.
    leads: dict[ET.Element, str] = {}
    for div in _findall(abstract, ".//div"):
        label, first = _text(_find(div, "head")).rstrip(" :."), _find(div, "p")
        if label and first is not None:
            leads[first] = label
    out = []
    for para in paras:
        if text := _text(para):
            lead = leads.get(para)
            out.append(Block(f"{lead}: {text}" if lead else text, BlockKind.text, *_place(para)))
    return out


def _parse_xml(tei: str | bytes, source: str | None) -> ET.Element:
    if not tei.strip():
        raise ParseError("empty TEI document", path=source, hint="GROBID returned nothing")
    try:
        root = ET.fromstring(tei)
    except ET.ParseError as exc:
        raise ParseError(
            f"not well-formed TEI XML ({exc})",
            path=source,
            hint="expected GROBID TEI XML; re-run GROBID on the PDF",
        ) from exc
    if _local(root) not in ("TEI", "teiCorpus", "listBibl", "biblStruct"):
        raise ParseError(
            f"not a TEI document: the root element is <{_local(root)}>",
            path=source,
            hint="expected GROBID TEI XML",
        )
    return root


def tei_to_document(tei: str | bytes, *, source: str | None = None) -> ParsedDocument:
    """Map GROBID TEI XML to the same records the PDF parser produces.

    Args:
        tei: the TEI XML, as returned by GROBID (`processFulltextDocument`,
            `processHeaderDocument` or `processCitationList`).
        source: where it came from, named in errors.

    Returns:
        A ParsedDocument with parser "grobid".

    Raises:
        ParseError: the input is not well-formed XML or not TEI.

    Example:
        >>> doc = tei_to_document(Path("paper.tei.xml").read_bytes())  # doctest: +SKIP
    """
    root = _parse_xml(tei, source)
    if _local(root) == "teiCorpus":  # a corpus of one: read its first TEI
        root = next(iter(_findall(root, "TEI")), root)
    header = _find(root, "teiHeader")
    bibl = _find(header, "fileDesc/sourceDesc/biblStruct")
    analytic, monogr = _find(bibl, "analytic"), _find(bibl, "monogr")
    title = _first_text(
        header, "fileDesc/titleStmt/title[@type='main']", "fileDesc/titleStmt/title"
    ) or _first_text(analytic, "title")

    abstract_blocks = _abstract_blocks(_find(header, "profileDesc/abstract"))

    text_el = root if _local(root) in ("listBibl", "biblStruct") else _find(root, "text")
    floats: list[ET.Element] = []
    body = _body_sections(_find(text_el, "body"), floats)
    back = _back_sections(_find(text_el, "back"), floats)
    leftover = _place_floats(floats, body + back)
    sections = (
        [Section("Abstract", SectionKind.abstract, tuple(abstract_blocks))]
        if abstract_blocks
        else []
    )
    sections += [d.done() for d in body] + ([leftover.done()] if leftover else [])
    sections += [d.done() for d in back]

    if _local(root) == "biblStruct":
        bibls = [root]
    else:
        bibls = root.findall(_path(".//listBibl/biblStruct"))
    references = tuple(r for b in bibls if (r := _reference(b)) is not None)

    app = next((a for a in _findall(header, ".//application") if a.get("version")), None)
    grobid_version = _WS.sub(" ", app.get("version") or "").strip() if app is not None else ""
    pages = [b[0] for el in root.iter() if el.get("coords") for b in _boxes(el)]
    page_count = len(_findall(root, "facsimile/surface")) or max(pages, default=0)
    warnings = []
    if not title:
        warnings.append("GROBID found no title")
    if not body:
        warnings.append("GROBID found no body text (header-only or empty output)")
    return ParsedDocument(
        title=title or None,
        authors=_authors(analytic, monogr),
        abstract="\n\n".join(b.text for b in abstract_blocks) or None,
        doi=_idno(bibl, "doi"),
        arxiv_id=_arxiv(bibl),
        year=_year(monogr, _find(header, "fileDesc/publicationStmt")),
        venue=_venue(monogr, exclude=title),
        license=_licence(header),
        page_count=page_count,
        sections=tuple(sections),
        references=references,
        parser="grobid",
        parser_version=f"{grobid_version or 'unknown'} {MAPPER_VERSION}",
        warnings=tuple(warnings),
    )


# -- the server ------------------------------------------------------------------------------
