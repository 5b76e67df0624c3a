"""Front matter of a PDF: title, authors, identifiers, year, venue, licence and version kind."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from sciverify.ingest.pdf_page import Line
from sciverify.ingest.pdf_refs import ARXIV, DOI
from sciverify.records import VersionKind

# Lines that are journal furniture, never the title, however large they are printed.
_NOT_TITLE = re.compile(
    r"journal|proceedings|transactions|vol\.|volume|issn|doi|https?:|www\.|©|copyright"
    r"|research article|open access|original (?:article|paper|research)|^review$|^letter"
    r"|arxiv|preprint|conference|university press|elsevier|springer|page \d|^contents$"
    r"|^research$|^methodology$|^article$|^report$|^notes?$|^commentary$|received|accepted",
    re.IGNORECASE,
)
_BAD_META_TITLE = re.compile(
    r"\.(?:dvi|docx?|pdf|tex|indd|qxd|eps)\b|^microsoft|^untitled|^doi:|^paper$|template"
    r"|^\d[\d\s._-]*$|^[\w-]+_[\w-]+$|\d+\.\.\d+",
    re.IGNORECASE,
)
_AFFILIATION = re.compile(
    r"universit|institut|department|dept\b|school|college|laborator|\blabs?\b|centre|center"
    r"|faculty|hospital|\binc\b|ltd|corporation|\bcorp\b|research|division|program|\bunit\b"
    r"|foundation|academy|council|ministry|national|technolog|company|sciences?\b|engineering"
    r"|@|https?:|www\.|\bemail\b|e-mail|abstract|received|accepted|published|keywords|correspond"
    r"|authors? contributed|\bdated\b|street|avenue|\broad\b|\bbox\b|group\b|studies|society"
    r"|\bpaper\b|\barticle\b|\breview\b|\bletter\b|\breport\b|original|\baccess\b|editorial"
    r"|facilit|referee|reviewer|\beditors?\b|\binvited\b",  # "Invited Referees" of open review
    re.IGNORECASE,
)
_MARKERS = re.compile(r"[\d*∗†‡§¶#$+♠♢♡☯⋄□■●◆▲αβγδτωηλ✉�,]+$")
_GENERATIONS = frozenset(("III", "IV"))  # "William B. Driggers III"
_PARTICLES = re.compile(r"van|von|de|der|den|da|di|du|la|le|del|dos|y|bin")
_NAME_TOKEN = re.compile(r"^(?:[A-Z][a-zA-Z'\u2019\u00C0-\u024F\-]*\.?|[A-Z]\.(?:-?[A-Z]\.)*)$")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_IEEE_GRADE = re.compile(
    r",?\s*(?:(?:Student|Senior|Life)\s+)?(?:Member|Fellow)\s*,\s*IEEE", re.IGNORECASE
)
_BODY_START = re.compile(
    r"^\s*(?:1\.?|I\.)?\s*introduction\b|^\s*key\s?words|^\s*index terms", re.IGNORECASE
)


def normalise(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def similar(a: str, b: str) -> float:
    a, b = normalise(a), normalise(b)
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def meta_title(raw: str | None) -> str | None:
    title = " ".join((raw or "").split())
    if len(title) < 8 or len(title.split()) < 2 or _BAD_META_TITLE.search(title):
        return None
    return title


def pick_title(
    lines: list[Line], meta: str | None, page_height: float, body_size: float
) -> tuple[str | None, list[Line]]:
    """The title from the first page: the largest-printed run of lines near the top.

    Runs are built top to bottom (not in column order: a title may straddle a gutter) from
    lines of one size that touch vertically and overlap horizontally. The PDF's metadata
    title confirms a run when the two agree.
    """
    top = sorted((ln for ln in lines if ln.y0 < page_height * 0.6), key=lambda ln: (ln.y0, ln.x0))
    runs: list[list[Line]] = []
    for ln in top:
        for run in reversed(runs[-3:]):
            last = run[-1]
            same_style = abs(ln.size - last.size) < 0.6 and (ln.bold >= 0.5) == (last.bold >= 0.5)
            same_row = abs(ln.y0 - last.y0) < 2 and ln.x0 - last.x1 < 3 * ln.size
            below = (
                ln.y0 > last.y0 + 0.5 * ln.size
                and ln.y0 - last.y1 < 1.2 * ln.size
                and min(ln.x1, last.x1) > max(ln.x0, last.x0)
            )
            if same_style and (same_row or below):
                run.append(ln)
                break
        else:
            runs.append([ln])
    candidates: list[tuple[float, str, list[Line]]] = []
    for run in runs:
        text = _clean_title(" ".join(ln.text for ln in run))
        letters = sum(c.isalpha() for c in text)
        if letters < 6 or len(text) > 330 or len(run) > 6 or _NOT_TITLE.search(text):
            continue
        if len(text.split()) < 2 and letters < 12:
            continue  # a journal name or a banner, not a title
        if "@" in text or sum(c.isdigit() for c in text) > letters * 0.3:
            continue
        if sum(c.isalpha() or c in " -:,'" for c in text) < 0.8 * len(text):
            continue  # formulas or OCR noise
        if re.match(r"^(?:\d+(?:\.\d+)*|[IVX]+)\.?\s+[A-Z]", text) and len(text) < 80:
            continue  # a numbered section heading: this page is not a first page
        candidates.append((max(ln.size for ln in run), text, run))
    if meta:
        for _, text, run in candidates:
            if similar(text, meta) >= 0.8:
                return (text if len(text) >= len(meta) - 2 else meta), run
    candidates = [c for c in candidates if c[0] >= body_size + 0.9]
    if not candidates:
        return meta, []
    biggest = max(c[0] for c in candidates)
    _, text, run = next(c for c in candidates if c[0] >= biggest - 0.01)
    return text, run


def _clean_title(text: str) -> str:
    text = re.sub(r"\s*\[v\d+;\s*ref status[^\]]*\]?", "", text)
    text = re.sub(r"[∗*†‡§¶]+\s*$", "", text)
    text = re.sub(r"(?<=[a-z])\d(?:,\d)*$", "", text)
    return " ".join(text.split()).strip(" .")


def pick_authors(
    lines: list[Line], meta: str | None, page_text: str
) -> tuple[tuple[str, ...], list[Line]]:
    """Author names from the lines after the title, or from the metadata when they are cleaner."""
    names: list[str] = []
    used: list[Line] = []
    style: tuple[float, bool] | None = None
    # top to bottom, so that a grid of author blocks is read row by row
    for ln in sorted(lines, key=lambda ln: (ln.y0, ln.x0))[:60]:
        text = _IEEE_GRADE.sub("", ln.plain or ln.text)
        if _BODY_START.match(text):
            break
        if style is not None and (abs(ln.size - style[0]) > 0.6 or (ln.bold >= 0.5) != style[1]):
            continue
        found = parse_names(text)
        if not found:
            continue
        if style is None:
            style = (ln.size, ln.bold >= 0.5)
        names.extend(n for n in found if n not in names)
        used.append(ln)
    meta_names = parse_names(meta or "", separators=r"\s*(?:;|,|\band\b|&)\s*")
    folded = normalise(page_text)
    meta_names = [n for n in meta_names if normalise(n.split()[-1]) in folded]
    if len(meta_names) > len(names):
        return tuple(meta_names), used
    return tuple(names), used


def parse_names(text: str, separators: str = r"\s*(?:,|;|\band\b|&|·|\s{3,})\s*") -> list[str]:
    if not text or _AFFILIATION.search(text) or len(text) > 400:
        return []
    out: list[str] = []
    for piece in re.split(separators, text):
        tokens = [_MARKERS.sub("", t).strip("(),") for t in piece.split()]
        tokens = [t for t in tokens if t and not _MARKERS.fullmatch(t)]
        if not 2 <= len(tokens) <= 5:
            if tokens and len(tokens) == 1 and tokens[0].lower() in ("and", "jr", "jr."):
                continue
            if tokens:
                return []  # a piece that is not a name: this line is not an author line
            continue
        # "ANDREW CHARLES", "Ross G. DOUGLAS": capitals become title case
        tokens = [
            t.title() if len(t) > 2 and t.isupper() and t.isalpha() and t not in _GENERATIONS else t
            for t in tokens
        ]
        good = all(_NAME_TOKEN.match(t) or _PARTICLES.fullmatch(t.lower()) for t in tokens)
        if not good or not any(len(t.strip(".")) > 1 for t in tokens):
            return []
        if any(
            len(t) > 2 and t.isupper() and not t.endswith(".") and t not in _GENERATIONS
            for t in tokens
        ):
            return []
        out.append(" ".join(tokens))
    return out


def find_doi(texts: list[str]) -> str | None:
    """The article's DOI: a labelled one ("doi:", "doi.org/") first, the longest of those."""
    labelled: list[str] = []
    first: str | None = None
    for text in texts:
        for m in DOI.finditer(text):
            doi = m.group(1).rstrip(".,;)]}")
            first = first or doi
            if "doi" in text[max(0, m.start() - 20) : m.start()].lower():
                labelled.append(doi)
    if labelled:
        return max(labelled, key=len)  # a DOI broken at a line end is a prefix of the whole
    return first


def find_arxiv(margin: list[str], texts: list[str]) -> tuple[str | None, str | None, str | None]:
    """(id, version label, the stamp text) from the side stamp or the first page."""
    for text in margin:
        m = ARXIV.search(text) or re.match(r"^\s*([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", text)
        if m:
            return m.group(1), m.group(2), text
    for text in texts:
        m = ARXIV.search(text)
        if m and re.search(r"\[[a-z\-]+(?:\.[A-Za-z\-]+)?\]", text[m.end() : m.end() + 20]):
            return m.group(1), m.group(2), text
    return None, None, None


_CC_PARTS = (
    ("noncommercial", "NC"),
    ("non-commercial", "NC"),
    ("noderivatives", "ND"),
    ("noderivs", "ND"),
    ("no derivatives", "ND"),
    ("sharealike", "SA"),
    ("share alike", "SA"),
)


def find_license(texts: list[str]) -> str | None:
    """A Creative Commons licence as "CC BY[-NC-ND-SA] [version]", or CC0 / public domain."""
    for text in texts:
        low = text.lower()
        m = re.search(r"\bcc[ -]by((?:[ -](?:nc|nd|sa))*)(?:[ -]+(\d\.\d))?", low)
        if m:
            parts = [p.upper() for p in re.split(r"[ -]", m.group(1)) if p]
            return " ".join(filter(None, ["CC BY" + "".join(f"-{p}" for p in parts), m.group(2)]))
        m = re.search(
            r"creative\s*commons\s*(?:\(cc\)\s*)?attribution([a-z\s,\-]{0,60}?)(\d\.\d)?\b", low
        )
        if m:
            parts = [code for word, code in _CC_PARTS if word in m.group(1)]
            parts = list(dict.fromkeys(parts))
            return " ".join(filter(None, ["CC BY" + "".join(f"-{p}" for p in parts), m.group(2)]))
        if re.search(r"\bcc0\b|creative commons zero", low):
            return "CC0"
    return None


_ACCEPTED = re.compile(
    r"accepted manuscript|author manuscript|accepted author|this provisional pdf"
    r"|provisional pdf|as it appeared upon acceptance|in press, corrected proof",
    re.IGNORECASE,
)
_PUBLISHED = (
    re.compile(
        r"published by|published online|\bpublished:|electronically published", re.IGNORECASE
    ),
    re.compile(r"open access", re.IGNORECASE),
    re.compile(r"©|c\u20dd|\(c\)\s*(?:19|20)\d{2}|copyright", re.IGNORECASE),
    re.compile(
        r"\bvol(?:ume|\.)?\s*\d+|\d+\s*\(\d+\)\s*[:,]\s*\d+|\b\d{4},\s*\d+:\d+|\d+\s*[–-]\s*\d+",
        re.IGNORECASE,
    ),
    re.compile(r"journal|proceedings|transactions|\bletters?\b", re.IGNORECASE),
    re.compile(r"\bdoi\b|doi\.org", re.IGNORECASE),
    re.compile(
        r"elsevier|springer|wiley|biomed central|ieee|\bacm\b|university press|plos|sage|iop",
        re.IGNORECASE,
    ),
)


def detect_version(
    front: list[str], arxiv_stamp: str | None, arxiv_version: str | None
) -> tuple[str, str | None]:
    """Version kind and label from what the document says about itself.

    A provisional PDF (BioMed Central's "as it appeared upon acceptance") is the accepted
    manuscript before typesetting, so it counts as accepted. An arXiv stamp makes the file
    a preprint even when the paper was published elsewhere: this copy came from arXiv.
    """
    joined = "\n".join(front)
    label = arxiv_version
    f1000 = re.search(r"\[v(\d+);\s*ref status", joined)
    if f1000 and not label:
        label = f"v{f1000.group(1)}"
    if _ACCEPTED.search(joined):
        return VersionKind.accepted, label
    if arxiv_stamp:
        return VersionKind.preprint, label
    signs = sum(1 for rx in _PUBLISHED if rx.search(joined))
    if signs >= 3:
        return VersionKind.published, label
    if re.search(r"accepted for publication|to appear in", joined, re.IGNORECASE):
        return VersionKind.accepted, label
    if re.search(r"\bpreprint\b|submitted to|under review", joined, re.IGNORECASE):
        return VersionKind.preprint, label
    if signs >= 2:
        return VersionKind.published, label
    return VersionKind.unknown, label


def find_year(
    front: list[str], arxiv_stamp: str | None, creation: str | None, now: int
) -> int | None:
    def ok(y: int) -> bool:
        return 1900 <= y <= now + 1

    if arxiv_stamp:
        m = _YEAR.search(arxiv_stamp.split("]")[-1]) or re.search(r"\b(\d{2})\s*$", arxiv_stamp)
        if m:
            y = int(m.group(1))
            y = y if y > 1900 else (1900 + y if y > 50 else 2000 + y)
            if ok(y):
                return y
    # lines that date this version: copyright, publication history, a journal citation line
    strong = re.compile(
        r"©|c\u20dd|copyright|published|accepted|\(c\)|\bvol|\d{4}[,;]\s*\d+:|\(\d{4}\)\s*\d+",
        re.IGNORECASE,
    )
    dated = [
        int(y) for text in front if strong.search(text) for y in _YEAR.findall(text) if ok(int(y))
    ]
    if dated:
        return max(dated)
    counts: dict[int, int] = {}
    for text in front:
        for m in _YEAR.finditer(text):
            y = int(m.group(1))
            if ok(y) and not _cited_year(text[max(0, m.start() - 40) : m.start()]):
                counts[y] = counts.get(y, 0) + 1
    if counts:
        return max(counts, key=lambda y: (counts[y], y))
    m = re.match(r"D:((?:19|20)\d{2})", creation or "")
    return int(m.group(1)) if m and ok(int(m.group(1))) else None


_ET_AL = re.compile(r"\bet al\.?,?\s*$")
_NAME_COMMA = re.compile(
    r"\b(?!(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Spring|Summer|Autumn|Fall|Winter)\b)"
    r"[A-Z][A-Za-z\u00C0-\u024F'\-]+(?: (?:and|&) [A-Z][A-Za-z\u00C0-\u024F'\-]+)?,\s*$"
)


def _cited_year(before: str) -> bool:
    """Whether the year after `before` is that of a cited work: "Banko et al. 2007",
    "(Wu and Weld, 2010)", "[Brin, 1998]"; not "Seattle, WA, 2006" or "March, 2014"."""
    if _ET_AL.search(before):
        return True
    opened = max(before.rfind("("), before.rfind("["), before.rfind(";"))
    return opened > max(before.rfind(")"), before.rfind("]")) and bool(_NAME_COMMA.search(before))


_VENUE_PATTERNS = (
    re.compile(r"(Proceedings of (?:the )?[^,;()]{3,90}?)(?:,|\(|$| pages)"),
    re.compile(
        r"^(?:[^.]{2,60} et al\.?\s*)?([A-Z][A-Za-z&:\-\u2019' ]{3,90}?)\s*\(?(?:19|20)\d{2}\)?[,;]?\s*\d+\s*[:(,]"
    ),
    re.compile(r"^([A-Z][A-Za-z&:\-' ]{3,90}?)\s+\d+\s*\((?:19|20)\d{2}\)"),
    re.compile(r"^([A-Z][A-Z&:\- ]{6,90}?),\s*VOL\.", re.IGNORECASE),
    re.compile(r"^((?:The )?(?:International )?Journal of [A-Z][A-Za-z&:\- ]{3,80})$"),
)


def find_venue(front: list[str]) -> str | None:
    for rx in _VENUE_PATTERNS:
        for text in front:
            m = rx.search(text.strip())
            if m:
                venue = " ".join(m.group(1).split()).strip(" ,.:;")
                if len(venue) >= 4 and not re.search(
                    r"©|copyright|received|accepted", venue, re.IGNORECASE
                ):
                    return venue
    return None
