"""Section headings in PDF text: what is a heading, its level, and which kind of section it opens."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from sciverify.ingest.pdf_layout import CAPTION, Paragraph
from sciverify.records import SectionKind

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
NUMBERING = re.compile(
    r"^(?:(?P<arabic>\d{1,2}(?:\.\d{1,2}){0,3})\.?|(?P<roman>[IVX]{1,5})\.|(?P<letter>[A-H](?:\.\d{1,2})*\.))"
    r"\s+(?=[A-Z(\u00C0-\u024F])"
)
KEYWORDS = re.compile(r"^(?:key\s?words|index terms|keywords)\b", re.IGNORECASE)
NOT_RUN_IN = re.compile(
    r"^(?:theorem|lemma|proof|definition|corollary|proposition|remark|example|note|step|case|claim"
    r"|property|assumption|hypothesis|conjecture|problem|algorithm|figure|fig|table)\b",
    re.IGNORECASE,
)
_FRONT_WORDS = re.compile(
    r"\b(?:received|accepted|published|revised|available online|correspond)\b", re.IGNORECASE
)
TOC_WORDS = {"contents", "table of contents"}
_MATH_FONT = re.compile(
    r"cmmi|cmsy|cmex|msbm|msam|rsfs|eufm|math|symbol|mt2sy|mt2mi", re.IGNORECASE
)
_DANGLING = re.compile(r"of|and|the|in|for|on|with|to|a|an|by|from|at|or", re.IGNORECASE)
_AFFILIATION_WORDS = re.compile(
    r"universit|department|institute of|school of|@|\bfaculty of", re.IGNORECASE
)


def normalise_heading(text: str) -> str:
    text = NUMBERING.sub("", text.strip())
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
class Heading:
    text: str
    depth: int | None  # from the numbering, if any
    style: tuple[float, bool, bool]
    known: bool
    font: str = ""
    run_in: bool = False


def detect_heading(
    p: Paragraph, nxt: Paragraph | None, body_size: float, body_font: str, page_height: float
) -> Heading | None:
    if len(p.lines) > 3:
        return None
    text = " ".join(p.text.split())
    words = text.split()
    if not 2 <= len(text) <= 160 or len(words) > 18:
        return None
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or letters < 0.5 * len(text.replace(" ", "")):
        return None
    if (
        CAPTION.match(text)
        or "@" in text
        or "http" in text
        or text[-1] in ",;"
        or not text[0].isalnum()
    ):
        return None
    if text[0].islower() or KEYWORDS.match(text) or _FRONT_WORDS.search(text):
        return None
    if _DANGLING.fullmatch(words[-1]) or _AFFILIATION_WORDS.search(text):
        return None  # a line broken mid-phrase, or an affiliation footnote
    if _MATH_FONT.search(p.font) or (NOT_RUN_IN.match(text) and len(words) <= 3):
        return None  # a formula, or a theorem label such as "Property 4.1"
    if not re.search(r"[A-Za-z\u00C0-\u024F]{3}", text):
        return None
    if p.lines[0].y1 < 0.07 * page_height or p.lines[-1].y0 > 0.93 * page_height:
        return None  # leftovers of running heads and feet
    size = p.size
    bigger = size >= body_size + 0.9
    bold = p.bold >= 0.7
    lead = p.lines[0].lead_bold
    # A bold lead-in opening a paragraph (see run_in_heading), unless the line is set in a
    # larger size, as a heading with a word in code type is ("B. New nls options").
    if (
        lead
        and len(lead) < len(p.lines[0].text) - 3
        and p.bold < 0.95
        and not (len(p.lines) == 1 and bigger and bold)
    ):
        return None
    m = NUMBERING.match(text)
    depth = None
    if m:
        depth = (
            m.group("arabic").count(".") + 1 if m.group("arabic") else 1 if m.group("roman") else 2
        )
    kind = kind_of(text)
    known = kind is not None and len(words) <= 7
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
    return Heading(text.rstrip(":"), depth, style, known, p.font) if ok else None


def run_in_heading(p: Paragraph) -> tuple[str, str] | None:
    """A bold lead-in such as "Participants." opening a paragraph: (heading, rest of text)."""
    lead = " ".join(p.lines[0].lead_bold.split())
    text = " ".join(p.text.split())
    if not lead or lead == text or not text.startswith(lead) or len(lead.split()) > 8:
        return None
    if sum(c.isalpha() for c in lead) < 3 or NOT_RUN_IN.match(lead) or CAPTION.match(lead):
        return None
    rest = text[len(lead) :].lstrip(" .:\u2014\u2013-")
    if not rest or not (lead.endswith((".", ":")) or rest[0].isupper()):
        return None
    return lead.rstrip(" .:"), rest


def caption_ref(text: str) -> str | None:
    m = CAPTION.match(text)
    if not m:
        return None
    label = m.group("label").rstrip(".").lower()
    name = {"fig": "Figure", "figure": "Figure", "table": "Table"}.get(
        label.split()[-1], label.split()[-1].title()
    )
    if label.startswith(("supplementary", "suppl", "extended")):
        name = f"Supplementary {name}"
    return f"{name} {m.group('num')}"


def merge_heading_lines(
    paragraphs: list[Paragraph], body_size: float, body_font: str
) -> list[Paragraph]:
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
            and not NUMBERING.match(p.text)
            and not CAPTION.match(prev.text)
            and prev.text.isupper() == p.text.isupper()
        ):
            prev.lines.extend(p.lines)
            prev.text = f"{prev.text} {p.text}"
            continue
        out.append(p)
    return out


_TOP_LEVEL = (
    SectionKind.abstract,
    SectionKind.references,
    SectionKind.acknowledgements,
    SectionKind.other,
)


def heading_levels(heads: list[Heading]) -> dict[int, int]:
    """The level of each heading, keyed by ``id``.

    Numbered headings give their depth, and a style (size, weight, case, font) takes the
    depth its numbered headings have. Other styles rank by size; among equal sizes the one
    seen first ranks higher, since a sub-heading never comes before its first parent. A
    style used only by the usual top-level words (Abstract, Methods, References) is level 1.
    """

    def key(h: Heading) -> tuple[float, bool, bool, str]:
        return (*h.style, h.font)

    first: dict[tuple[float, bool, bool, str], int] = {}
    counts: Counter[tuple[float, bool, bool, str]] = Counter()
    numbered: dict[tuple[float, bool, bool, str], Counter[int]] = {}
    only_known: dict[tuple[float, bool, bool, str], bool] = {}
    for i, h in enumerate(heads):
        k = key(h)
        first.setdefault(k, i)
        counts[k] += 1
        only_known[k] = only_known.get(k, True) and h.known
        if h.depth is not None:
            numbered.setdefault(k, Counter())[h.depth] += 1
    common = sorted(
        (k for k in counts if counts[k] >= 2 and k not in numbered and not only_known[k]),
        key=lambda k: (-k[0], not k[1], not k[2], first[k]),
    )
    out: dict[int, int] = {}
    for h in heads:
        k = key(h)
        if h.depth is not None:
            level = h.depth
        elif k in numbered:
            level = numbered[k].most_common(1)[0][0]
        elif only_known[k] or (h.known and kind_of(h.text) in _TOP_LEVEL):
            level = 1
        else:
            above = common.index(k) if k in common else sum(1 for c in common if c[0] > k[0] + 0.1)
            # a larger style of top-level headings ("Methods", "1 Introduction") sits above
            anchored = any(
                c[0] > k[0] + 0.3 and (only_known[c] or 1 in numbered.get(c, ())) for c in counts
            )
            level = 1 + above + int(anchored)
        out[id(h)] = min(level, 4)
    return out
