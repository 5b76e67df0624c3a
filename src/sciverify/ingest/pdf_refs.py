"""Reference lists from PDF lines: split into entries, then read year, DOI, arXiv id, title, authors."""

from __future__ import annotations

import re

from sciverify.ingest.pdf_layout import WordList, join_lines
from sciverify.ingest.pdf_page import Line
from sciverify.records import Reference

_BRACKET = re.compile(r"^\s*\[(\d{1,4})\]")
_NUMBERED = re.compile(r"^\s*(\d{1,3})(?:[.)](?:\s+|$)|\s+(?=[A-Z\u00C0-\u024F]))")
_AUTHOR_START = re.compile(
    r"^(?:[A-Z][A-Za-z'\u2019\-]+(?: [A-Z][A-Za-z'\u2019\-]+)?,\s+(?:[A-Z]\.|[A-Z][a-z]+)"
    r"|[A-Z][A-Za-z'\u2019\-]+\s+(?:[A-Z]{1,3}|[A-Z]\.(?:\s?[A-Z]\.)*)[,.]\s)"
)
DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)
ARXIV = re.compile(
    r"(?:arXiv[:\s]\s*|arxiv\.org/abs/)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<![\d/.])((?:19|20)\d{2})[a-z]?(?![\d/])")
_QUOTED = re.compile(r"[\u201c\"]([^\u201d\"]{8,300}?)[,.]?[\u201d\"]")
_INITIALS = re.compile(r"^(?:[A-Z]\.?[\s\-]?){1,4}$")
_PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del", "dos", "y"}


def split_entries(lines: list[Line], words: WordList) -> list[tuple[str, list[Line]]]:
    """Entries of a reference list as (text, lines); numbered, bracketed or author-year styles."""
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return []
    starts = _bracket_starts(lines) or _numbered_starts(lines) or _indent_starts(lines)
    if not starts:
        starts = _author_starts(lines)
    entries: list[tuple[str, list[Line]]] = []
    bounds = sorted(set(starts) | {0})
    for i, start in enumerate(bounds):
        end = bounds[i + 1] if i + 1 < len(bounds) else len(lines)
        group = lines[start:end]
        text = ""
        for ln in group:
            text = join_lines(text, ln.text, words)
        text = text.strip()
        if len(text) >= 12 and sum(c.isalpha() for c in text) >= 8:
            entries.append((text, group))
    return entries


def _bracket_starts(lines: list[Line]) -> list[int]:
    starts = [i for i, ln in enumerate(lines) if _BRACKET.match(ln.text)]
    return starts if len(starts) >= 2 else []


def _numbered_starts(lines: list[Line]) -> list[int]:
    """Lines opening with the next number of a running sequence 1, 2, 3, ..."""
    hits = [(i, int(m.group(1))) for i, ln in enumerate(lines) if (m := _NUMBERED.match(ln.text))]
    if len(hits) < 3:
        return []
    starts: list[int] = []
    expected = hits[0][1]
    for i, n in hits:
        if n == expected or (starts and n == expected + 1):  # tolerate one missed number
            starts.append(i)
            expected = n + 1
    return starts if len(starts) >= max(3, len(hits) * 0.6) else []


def _indent_starts(lines: list[Line]) -> list[int]:
    """Hanging indent: an entry starts on a line flush with its column's left edge."""
    left: dict[tuple[int, int], float] = {}
    for ln in lines:
        key = (ln.page, ln.col)
        left[key] = min(left.get(key, ln.x0), ln.x0)
    flush = [abs(ln.x0 - left[(ln.page, ln.col)]) <= 1.5 for ln in lines]
    indented = sum(
        1 for ln, f in zip(lines, flush) if not f and ln.x0 - left[(ln.page, ln.col)] < 40
    )
    if indented < max(2, len(lines) * 0.15) or sum(flush) < 2:
        return []
    return [i for i, f in enumerate(flush) if f]


def _author_starts(lines: list[Line]) -> list[int]:
    """No numbers and no indent: a new entry starts after a vertical gap, or where a line
    opening with a surname and initials follows a finished entry (a full stop or a short line).
    """
    right: dict[tuple[int, int], float] = {}
    left: dict[tuple[int, int], float] = {}
    for ln in lines:
        key = (ln.page, ln.col)
        right[key] = max(right.get(key, ln.x1), ln.x1)
        left[key] = min(left.get(key, ln.x0), ln.x0)
    starts = [0]
    for i in range(1, len(lines)):
        prev, ln = lines[i - 1], lines[i]
        gap = ln.y0 - prev.y1
        if ln.page != prev.page or ln.col != prev.col:
            gap = 10.0 if _AUTHOR_START.match(ln.text) else 0.0
        key = (prev.page, prev.col)
        short = prev.x1 - left[key] < 0.6 * (right[key] - left[key])
        finished = prev.text.rstrip().endswith(".") or short
        if gap > 0.45 * max(prev.y1 - prev.y0, 1.0) or (finished and _AUTHOR_START.match(ln.text)):
            starts.append(i)
    return starts


def parse_reference(raw: str) -> Reference:
    """Best-effort fields of one entry; ``raw`` is always kept as printed."""
    body = _BRACKET.sub("", raw, count=1)
    body = _NUMBERED.sub("", body, count=1).strip()
    doi_match = DOI.search(body)
    doi = doi_match.group(1).rstrip(".,;)]") if doi_match else None
    arxiv_match = ARXIV.search(body)
    arxiv_id = None
    if arxiv_match:
        arxiv_id = arxiv_match.group(1) + (arxiv_match.group(2) or "")
    year_match = re.search(r"\(((?:19|20)\d{2})[a-z]?\)", body) or _YEAR.search(body)
    year = int(year_match.group(1)) if year_match else None
    authors, title = _authors_and_title(body)
    return Reference(raw=raw, title=title, authors=authors, year=year, doi=doi, arxiv_id=arxiv_id)


# Vancouver style: "Charles A. Title. Journal. 1998;24:39-49." / "Lane PNJ, Best AE, Zhang L.
# Title. ..." - surnames with initials and no dots, so the period after the last initial ends
# the author list.
_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+(?:van|de|der|von|da|di|le|la|[A-ZÀ-ÖØ-Þ][\w'’-]*))*?"
_AUTHOR = rf"{_NAME}\s+[A-ZÀ-ÖØ-Þ](?:-?[A-ZÀ-ÖØ-Þ]){{0,3}}"  # "Page SJA", "Hughes A-M"
_VANCOUVER = re.compile(
    rf"^(?P<authors>{_AUTHOR}(?:,\s+(?:&\s+|and\s+)?{_AUTHOR})*(?:,?\s+et\s+al)?)\.\s+"
    r"(?P<title>.+?[.?!])(?=\s|$)"
)


def _authors_and_title(body: str) -> tuple[tuple[str, ...], str | None]:
    quoted = _QUOTED.search(body)
    if quoted:
        head = body[: quoted.start()]
        return _split_authors(head), quoted.group(1).strip()
    vancouver = _VANCOUVER.match(body)
    if vancouver and len(vancouver["title"]) > 10:
        return _split_authors(vancouver["authors"]), vancouver["title"].rstrip(".").strip()
    # pieces between ". " that are not initials: "Smith, J. A., Doe, B. (2010). Title. Venue"
    pieces = re.split(
        r"(?<![A-Z])(?<!\b[A-Z][a-z])\.\s+|\(\s*(?:19|20)\d{2}[a-z]?\s*\)[.,:]?\s*", body
    )
    author_part: list[str] = []
    title: str | None = None
    for piece in pieces:
        piece = piece.strip(" ,;:")
        if not piece:
            continue
        if re.fullmatch(r"(?:19|20)\d{2}[a-z]?", piece):
            continue
        if title is None and not author_part:
            author_part.append(piece)
            continue
        if _looks_like_names(piece) and title is None and len(author_part) < 3:
            author_part.append(piece)
            continue
        title = piece
        break
    return _split_authors(". ".join(author_part)), title if title and len(title) > 3 else None


def _looks_like_names(text: str) -> bool:
    tokens = [t for t in re.split(r"[\s,]+", text) if t]
    if not tokens or len(tokens) > 30:
        return False
    ok = sum(
        1
        for t in tokens
        if t[0].isupper() or t.lower() in _PARTICLES or t.lower() in ("and", "&", "et", "al")
    )
    return ok == len(tokens) and ("," in text or len(tokens) <= 3)


def _split_authors(text: str) -> tuple[str, ...]:
    text = re.sub(r"\bet al\.?", "", text).strip(" ,.;:")
    if not text:
        return ()
    parts = [p.strip(" .") for p in re.split(r",\s*(?:and|&)\s+|\s+(?:and|&)\s+|;\s*|,\s*", text)]
    names: list[str] = []
    for part in parts:
        if not part:
            continue
        if _INITIALS.match(part) and names:
            names[-1] = f"{names[-1]}, {part}"  # "Smith, J. A." was split at the comma
        elif sum(c.isalpha() for c in part) >= 2 and len(part) <= 60:
            names.append(part)
    return tuple(names[:50])
