"""Page geometry for the PyMuPDF parser: lines, furniture, line numbers, columns, paragraphs.

Everything here works on the output of one ``page.get_text("dict")`` call per page and is
plain Python over spans, so parsing stays close to the speed of text extraction itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# Bold is not always flagged in the span flags; many Type 1 fonts only say it in the name.
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|-medi|\.b$|,b$|-bd|-sb$", re.IGNORECASE)
_UNMAPPED = "\ufffd"
_DIGITS = re.compile(r"\d")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]")
_BAND = 0.13  # share of the page height at the top and bottom where running heads live


@dataclass(slots=True)
class Line:
    """One visual line of text, merged from the spans PyMuPDF reports on one baseline."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: float  # share of characters set in a bold font
    page: int  # 0-based
    block: int
    font: str = ""  # the font of the line's longest span
    plain: str = ""  # text without superscript spans (author markers, footnote signs)
    lead_bold: str = ""  # bold run at the start of the line (run-in headings)
    col: int = 0  # 0 full width, 1 left column, 2 right column


@dataclass(slots=True)
class Paragraph:
    lines: list[Line] = field(default_factory=list)
    text: str = ""
    gap_before: float = 99.0  # white space above, in line heights; large at a column top
    soft: bool = False  # split from the previous one only because the font changed

    @property
    def page(self) -> int:
        return self.lines[0].page

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        on_page = [ln for ln in self.lines if ln.page == self.lines[0].page]
        return (
            round(min(ln.x0 for ln in on_page), 2),
            round(min(ln.y0 for ln in on_page), 2),
            round(max(ln.x1 for ln in on_page), 2),
            round(max(ln.y1 for ln in on_page), 2),
        )

    @property
    def size(self) -> float:
        return max(self.lines, key=lambda ln: len(ln.text)).size

    @property
    def font(self) -> str:
        return max(self.lines, key=lambda ln: len(ln.text)).font

    @property
    def bold(self) -> float:
        chars = sum(len(ln.text) for ln in self.lines) or 1
        return sum(ln.bold * len(ln.text) for ln in self.lines) / chars


@dataclass(slots=True)
class PageText:
    lines: list[Line]
    margin: list[str]  # rotated text, e.g. the arXiv stamp on the left edge
    width: float
    height: float
    chars: int
    unmapped: int


def is_bold_font(font: str, flags: int, cache: dict[str, bool]) -> bool:
    if flags & 16:
        return True
    hit = cache.get(font)
    if hit is None:
        hit = cache[font] = bool(_BOLD_FONT.search(font))
    return hit


def read_page(raw: dict[str, Any], page_no: int, block_base: int, fonts: dict[str, bool]) -> PageText:
    """Turn one page's ``dict`` output into lines; same-baseline lines of a block are merged.

    Text running in the page's dominant direction is the body (rotated pages and landscape
    tables are turned upright); text in any other direction goes to ``margin``.
    """
    width, height = raw["width"], raw["height"]
    votes: Counter[tuple[int, int]] = Counter()
    for block in raw["blocks"]:
        for line in block.get("lines", ()):
            votes[(round(line["dir"][0]), round(line["dir"][1]))] += len(line["spans"])
    main_dir = votes.most_common(1)[0][0] if votes else (1, 0)
    if main_dir not in ((1, 0), (0, 1), (0, -1)):
        main_dir = (1, 0)
    lines: list[Line] = []
    margin: list[str] = []
    chars = unmapped = 0
    for b_index, block in enumerate(raw["blocks"]):
        if block.get("type", 0) != 0:
            continue
        previous: Line | None = None
        for line in block["lines"]:
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            text = "".join(s["text"] for s in line["spans"]).strip()
            chars += len(text)
            bad = text.count(_UNMAPPED)
            unmapped += bad
            if (round(line["dir"][0]), round(line["dir"][1])) != main_dir:
                margin.append(text)
                continue
            if bad * 3 > len(text):
                continue  # glyphs without a Unicode mapping: nothing readable to keep
            if _SPACING_ACCENT.search(text):
                text = fix_accents(text)
            main = max(spans, key=lambda s: len(s["text"]))
            size = round(main["size"], 1)
            if size < 3:
                size = 10.0  # a font scaled by its matrix reports a meaningless size
            n_bold = 0
            lead: list[str] = []
            leading = True
            plain: list[str] = []
            for s in line["spans"]:
                if not s["text"].strip():
                    plain.append(" ")
                    if leading and lead:
                        lead.append(" ")
                    continue
                bold = is_bold_font(s["font"], s["flags"], fonts)
                if bold:
                    n_bold += len(s["text"])
                if leading:
                    if bold:
                        lead.append(s["text"])
                    else:
                        leading = False
                # superscripts (affiliation marks) separate names: "Cuisin8 and" -> "Cuisin, and"
                plain.append(", " if s["flags"] & 1 or s["size"] < 0.75 * main["size"] else s["text"])
            n = sum(len(s["text"]) for s in spans) or 1
            x0, y0, x1, y1 = _upright(line["bbox"], main_dir, width, height, size)
            plain_text = " ".join("".join(plain).split())
            if _SPACING_ACCENT.search(plain_text):
                plain_text = fix_accents(plain_text)
            if (
                previous is not None
                and abs(y0 - previous.y0) < 0.35 * size
                and -1.0 < x0 - previous.x1 < 3.0 * size
            ):
                before = len(previous.text)
                if previous.bold > 0.99 and lead:
                    previous.lead_bold = f"{previous.lead_bold} {''.join(lead)}".strip()
                previous.bold = (previous.bold * before + n_bold) / (before + n)
                previous.text = f"{previous.text} {text}"
                previous.plain = f"{previous.plain} {plain_text}"
                previous.x1 = max(previous.x1, x1)
                previous.y0, previous.y1 = min(previous.y0, y0), max(previous.y1, y1)
                continue
            previous = Line(
                text=text,
                x0=x0,
                y0=y0,
                x1=x1,
                y1=y1,
                size=size,
                bold=n_bold / n,
                page=page_no,
                block=block_base + b_index,
                font=main["font"],
                plain=plain_text,
                lead_bold="".join(lead).strip(),
            )
            lines.append(previous)
    if main_dir != (1, 0):
        width, height = height, width
    return PageText(lines, margin, width, height, chars, unmapped)


def _upright(
    bbox: tuple[float, float, float, float], direction: tuple[int, int], width: float, height: float, size: float
) -> tuple[float, float, float, float]:
    """A line's box in a frame where its text runs left to right (rotated pages)."""
    x0, y0, x1, y1 = bbox
    if direction == (1, 0):
        return x0, y0, x1, y1
    thick = min(x1 - x0, 2.0 * size)  # some producers report a bogus line height
    if direction == (0, 1):  # text runs down the page, its top towards +x
        return y0, width - x0 - thick, y1, width - x0
    return height - y1, x1 - thick, height - y0, x1  # text runs up the page


# LaTeX-era PDFs print accents as separate spacing characters: "Gr´egory", "Franc¸ois".
_SPACING_ACCENT = re.compile("[\u00b4\u0060\u00a8\u02c6\u02dc\u00b8\u02dd\u02c7\u02d8]")
_BEFORE = {"\u00b4": "\u0301", "`": "\u0300", "\u00a8": "\u0308", "\u02c6": "\u0302", "\u02dc": "\u0303",
           "\u02dd": "\u030b", "\u02c7": "\u030c", "\u02d8": "\u0306"}


def fix_accents(text: str) -> str:
    """Compose spacing accents with their letters; the cedilla follows its letter."""
    text = re.sub("([A-Za-z])\u00b8", lambda m: unicodedata.normalize("NFC", m.group(1) + "\u0327"), text)
    text = re.sub(
        "((?<=[A-Za-z])`(?=[aeiouAEIOU])|[\u00b4\u00a8\u02c6\u02dc\u02dd\u02c7\u02d8])([A-Za-z\u0131])",
        lambda m: unicodedata.normalize("NFC", m.group(2).replace("\u0131", "i") + _BEFORE[m.group(1)]),
        text,
    )
    return text


def _furniture_key(text: str) -> str:
    return _DIGITS.sub("#", "".join(text.lower().split()))


def strip_furniture(pages: list[PageText]) -> list[Line]:
    """Remove running heads/feet and page numbers in place; return what was removed.

    A line is furniture when it sits in the top or bottom band and either is a page number
    or its text (digits ignored) recurs in the band on other pages.
    """
    counts: Counter[str] = Counter()
    for pg in pages:
        seen: set[str] = set()
        for ln in pg.lines:
            if ln.y1 < pg.height * _BAND or ln.y0 > pg.height * (1 - _BAND):
                seen.add(_furniture_key(ln.text))
        counts.update(seen)
    n_pages = len(pages)
    repeat = 2 if n_pages <= 6 else max(3, round(n_pages * 0.2))
    removed: list[Line] = []
    for pg in pages:
        keep: list[Line] = []
        band_numbers = [
            ln
            for ln in pg.lines
            if _PAGE_NUMBER.match(ln.text)
            and (ln.y1 < pg.height * _BAND or ln.y0 > pg.height * (1 - _BAND))
        ]
        for ln in pg.lines:
            top = ln.y1 < pg.height * _BAND
            bottom = ln.y0 > pg.height * (1 - _BAND)
            furniture = False
            if top or bottom:
                furniture = (
                    ln in band_numbers
                    or (n_pages > 1 and counts[_furniture_key(ln.text)] >= repeat)
                    # a running head shares its baseline with the page number
                    or any(abs(num.y0 - ln.y0) < 2 and num is not ln for num in band_numbers)
                )
            (removed if furniture else keep).append(ln)
        pg.lines = keep
    return removed


def strip_line_numbers(pg: PageText) -> int:
    """Remove a column of bare numbers in the margin (manuscript line numbers)."""
    numbers = [ln for ln in pg.lines if ln.text.isdigit() and len(ln.text) <= 4]
    if len(numbers) < 8:
        return 0
    text_lines = [ln for ln in pg.lines if not ln.text.isdigit()]
    if not text_lines:
        return 0
    left_edge = sorted(ln.x0 for ln in text_lines)[len(text_lines) // 10]
    right_edge = sorted(ln.x1 for ln in text_lines)[-(len(text_lines) // 10) - 1]
    margin = {id(ln) for ln in numbers if ln.x1 <= left_edge + 1 or ln.x0 >= right_edge - 1}
    if len(margin) < 8:
        return 0
    pg.lines = [ln for ln in pg.lines if id(ln) not in margin]
    return len(margin)


def find_gutter(lines: list[Line], left_x: float, right_x: float) -> float | None:
    """The x of a vertical gap between two text columns inside [left_x, right_x], if any."""
    span = right_x - left_x
    lo, hi = int(left_x + span * 0.2), int(right_x - span * 0.2)
    cells = hi - lo + 1
    if cells < 10:
        return None
    diff = [0] * (cells + 1)
    for ln in lines:
        a, b = int(ln.x0) + 2 - lo, int(ln.x1) - 2 - lo
        if b < 0 or a > cells - 1 or b < a:
            continue
        diff[max(a, 0)] += 1
        diff[min(b, cells - 1) + 1] -= 1
    cover, run = [], 0
    for i in range(cells):
        run += diff[i]
        cover.append(run)
    best = min(cover)
    # the middle of the widest stretch at the minimum coverage
    start = end = best_start = best_end = -1
    for i, c in enumerate(cover + [best + 1]):
        if c == best:
            if start < 0:
                start = i
            end = i
        elif start >= 0:
            if end - start > best_end - best_start:
                best_start, best_end = start, end
            start = -1
    gutter = lo + (best_start + best_end) / 2
    left_long = 0.5 * (gutter - left_x)
    right_long = 0.5 * (right_x - gutter)
    left = sum(1 for ln in lines if ln.x1 <= gutter + 2 and ln.x1 - ln.x0 > left_long)
    right = sum(1 for ln in lines if ln.x0 >= gutter - 2 and ln.x1 - ln.x0 > right_long)
    # full-width lines (title, wide abstract, wide figure captions) may cross the gutter,
    # but the column lines on both sides must outnumber them
    if left >= 4 and right >= 4 and best <= 0.5 * (left + right):
        return gutter
    return None


def find_columns(lines: list[Line], depth: int = 0) -> list[float]:
    """Gutter positions, left to right: none for one column, one for two, up to three."""
    if len(lines) < 8 or depth > 1:
        return []
    left_x = min(ln.x0 for ln in lines)
    right_x = max(ln.x1 for ln in lines)
    gutter = find_gutter(lines, left_x, right_x)
    if gutter is None:
        return []
    left = [ln for ln in lines if ln.x1 <= gutter + 2]
    right = [ln for ln in lines if ln.x0 >= gutter - 2]
    return [*find_columns(left, depth + 1), gutter, *find_columns(right, depth + 1)]


def order_page(pg: PageText) -> list[Line]:
    """Reading order: bands split by full-width lines; in a band, columns left to right."""
    lines = sorted(pg.lines, key=lambda ln: (ln.y0, ln.x0))
    gutters = find_columns(lines)
    if not gutters:
        return _rows(lines)
    bounds = [-1e9, *gutters, 1e9]
    n_cols = len(gutters) + 1
    for ln in lines:
        ln.col = 0
        for c in range(n_cols):
            if ln.x0 >= bounds[c] - 2 and ln.x1 <= bounds[c + 1] + 2:
                ln.col = c + 1
                break
    heights = sorted(ln.y1 - ln.y0 for ln in lines)
    # white space across the whole width (above a back-matter block, around a wide figure)
    # also ends a band: the columns above it are read before anything below it
    cut = 3.0 * heights[len(heights) // 2]
    out: list[Line] = []
    band: list[Line] = []

    def flush() -> None:
        for c in range(1, n_cols + 1):
            out.extend(_rows([b for b in band if b.col == c]))
        band.clear()

    bottom = lines[0].y1
    for ln in lines:
        wide_gap = ln.y0 - bottom > cut
        bottom = max(bottom, ln.y1)
        if wide_gap and band:
            flush()
        if ln.col == 0:
            flush()
            out.append(ln)
        else:
            band.append(ln)
    flush()
    return out


def _rows(lines: list[Line]) -> list[Line]:
    """Sort top to bottom; lines whose tops are within 2 pt form a row, read left to right."""
    lines = sorted(lines, key=lambda ln: ln.y0)
    out: list[Line] = []
    row: list[Line] = []
    for ln in lines:
        if row and ln.y0 - row[0].y0 > 2.0:
            out.extend(sorted(row, key=lambda r: r.x0))
            row = []
        row.append(ln)
    out.extend(sorted(row, key=lambda r: r.x0))
    return out


@dataclass(slots=True)
class WordList:
    """Words seen in the document, to decide whether a line-end hyphen is part of the word."""

    plain: set[str] = field(default_factory=set)
    hyphenated: set[str] = field(default_factory=set)

    def add(self, text: str) -> None:
        for w in _WORD.findall(text):
            (self.hyphenated if "-" in w else self.plain).add(w.lower())


_HYPHENS = ("-", "\u2010", "\u00ad")


def join_lines(a: str, b: str, words: WordList) -> str:
    """Join two lines of one paragraph, repairing a hyphenated word break."""
    if not a:
        return b
    if a[-1] in _HYPHENS and len(a) > 1 and a[-2].isalpha() and b:
        if a[-1] == "\u00ad":
            return a[:-1] + b
        head = re.search(r"([A-Za-z]+)-?$", a[:-1] + "-")
        tail = re.match(r"[A-Za-z]+", b)
        if not b[0].islower() or head is None or tail is None:
            return a + b  # "Jean-\nPierre", "COVID-\n19": a real hyphen
        first, second = head.group(1).lower(), tail.group(0).lower()
        if f"{first}-{second}" in words.hyphenated and f"{first}{second}" not in words.plain:
            return a + b
        return a[:-1] + b
    return f"{a} {b}"


def _is_caps_label(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and len(text.split()) <= 6 and all(c.isupper() for c in letters)


def is_body_style(ln: Line, body_size: float) -> bool:
    return ln.bold < 0.5 and abs(ln.size - body_size) <= 0.6


def build_paragraphs(
    lines: list[Line], body_size: float, body_font: str, words: WordList
) -> list[Paragraph]:
    """Group ordered lines into paragraphs by block, column, spacing, style and indentation."""
    right_edge: dict[tuple[int, int], float] = {}
    for ln in lines:
        key = (ln.page, ln.col)
        right_edge[key] = max(right_edge.get(key, 0.0), ln.x1)
    paragraphs: list[Paragraph] = []
    current: Paragraph | None = None
    texts: list[str] = []
    first_x = 0.0
    for ln in lines:
        prev = current.lines[-1] if current else None
        why = _breaks(prev, ln, first_x, body_size, body_font, right_edge) if prev else "start"
        if why:
            if current is not None:
                current.text = _join(texts, words)
            gap = 99.0
            if prev is not None and prev.page == ln.page and prev.col == ln.col and ln.y0 > prev.y0:
                gap = (ln.y0 - prev.y1) / max(prev.y1 - prev.y0, 1.0)
            current = Paragraph([ln], "", gap_before=gap, soft=why == "font")
            paragraphs.append(current)
            texts = [ln.text]
            first_x = ln.x0
            continue
        assert current is not None
        current.lines.append(ln)
        texts.append(ln.text)
        first_x = min(first_x, ln.x0)
    if current is not None:
        current.text = _join(texts, words)
    return paragraphs


def _join(texts: list[str], words: WordList) -> str:
    out = texts[0]
    for t in texts[1:]:
        out = join_lines(out, t, words)
    return out


def _breaks(
    prev: Line,
    ln: Line,
    first_x: float,
    body_size: float,
    body_font: str,
    right_edge: dict[tuple[int, int], float],
) -> str:
    """Why ``ln`` starts a new paragraph after ``prev``; empty when it continues it."""
    if ln.page != prev.page or ln.col != prev.col:
        return "column"
    height = max(prev.y1 - prev.y0, 1.0)
    gap = ln.y0 - prev.y1
    if gap > max(3.0, 0.6 * height) or ln.y0 < prev.y0 - 1:
        return "gap"
    if abs(ln.size - prev.size) > 0.8:
        return "size"
    # a wholly bold line followed by plain text is a heading; a line that only opens with a
    # bold run ("Participants. We recruited ...") continues as one paragraph
    if (ln.bold >= 0.5) != (prev.bold >= 0.5) and (prev.bold > 0.95 or ln.bold > 0.95):
        return "bold"
    if ln.block != prev.block and gap > 0.25 * height:
        return "block"
    if _is_caps_label(prev.text) and not _is_caps_label(ln.text):
        return "caps"  # "ABSTRACT", "II. METHODS" on their own line
    if ln.font != prev.font:
        if body_font in (ln.font, prev.font) and abs(ln.size - prev.size) >= 0.15:
            return "font"
        # a short line in one font, then another font: a heading ends, its text begins
        if prev.x1 < right_edge[(prev.page, prev.col)] - 2 * prev.size and not prev.text.endswith((",", ";")):
            return "font"
    if is_body_style(ln, body_size) and is_body_style(prev, body_size):
        indented = ln.x0 - prev.x0 > 0.7 * ln.size and prev.x0 <= first_x + 1
        short = prev.x1 < right_edge[(prev.page, prev.col)] - 1.5 * prev.size
        if indented and (short or prev.text.endswith((".", "?", "!", ":"))):
            return "indent"
        if short and prev.text.endswith((".", "?", "!")) and ln.x0 - first_x > 0.7 * ln.size:
            return "indent"
    return ""
