"""Page layout for the PyMuPDF parser: columns, reading order, paragraphs, hyphenation."""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass, field

from sciverify.ingest.pdf_page import Line, PageText

_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]")


# A caption's label and number ("Figure 4:", "Table 2.", "FIG. 3 -"); pdf_headings reads it too.
CAPTION = re.compile(
    r"^(?P<label>(?:Supplementary |Extended Data |Suppl\. )?(?:Figure|Fig\.?|FIGURE|FIG\.?|Table|TABLE"
    r"|Scheme|Chart|Plate|Box|Algorithm|Listing))\s*(?P<num>S?\d{1,3}[A-Za-z]?|[IVXL]{1,6})"
    r"(?P<rest>\s*[.:|\u2014\u2013\-]|\s+(?=[A-Z(])|\s*$)"
)


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
    start = end = -1
    best_start, best_end = 0, -1  # no stretch yet: shorter than a one-cell one
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
        return _side_captions(_row_groups(lines))
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
    return [ln for row in _row_groups(lines) for ln in row]


def _row_groups(lines: list[Line]) -> list[list[Line]]:
    """The rows of `lines`, top to bottom, each left to right."""
    lines = sorted(lines, key=lambda ln: ln.y0)
    out: list[list[Line]] = []
    row: list[Line] = []
    for ln in lines:
        if row and ln.y0 - row[0].y0 > 2.0:
            out.append(sorted(row, key=lambda r: r.x0))
            row = []
        row.append(ln)
    if row:
        out.append(sorted(row, key=lambda r: r.x0))
    return out


_SIDE_RUN_MIN = 3  # rows of a caption set beside the text before it is read as one


def _side_captions(rows: list[list[Line]]) -> list[Line]:
    """Reading order of a one-column page whose figure sits beside the text with its caption
    ("Figure 4: False alarms per true alarm" to the right of a narrowed text column): read row
    by row, the caption's lines and the text's alternate. The caption is read whole before the
    text lines beside it, up to the first line that crosses into the caption's side."""
    out: list[Line] = []
    i = 0
    while i < len(rows):
        row = rows[i]
        start = row[-1] if len(row) == 2 and row[0].x1 < row[-1].x0 - 4 else None
        if start is None or not CAPTION.match(start.text):
            out.extend(row)
            i += 1
            continue
        split = start.x0 - 2
        text, caption = [row[0]], [start]
        j = i + 1
        while j < len(rows):
            nxt = rows[j]
            if any(ln.x0 < split < ln.x1 for ln in nxt) or len(nxt) > 2:
                break  # a line across the gap, or a table row: the side run is over
            text += [ln for ln in nxt if ln.x1 <= split]
            caption += [ln for ln in nxt if ln.x0 >= split]
            j += 1
        if len(caption) < _SIDE_RUN_MIN:
            out.extend(row)
            i += 1
            continue
        out += caption + text
        i = j
    return out


@dataclass(slots=True)
class WordList:
    """Words seen in the document, to decide whether a line-end hyphen is part of the word."""

    plain: set[str] = field(default_factory=set)
    hyphenated: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)  # "non" from "non-invasive"

    def add(self, text: str) -> None:
        for w in _WORD.findall(text):
            w = w.lower()
            if "-" in w:
                self.hyphenated.add(w)
                head = w.split("-", 1)[0]
                if len(head) >= 3:
                    self.prefixes.add(head)
            else:
                self.plain.add(w)


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
        if f"{first}{second}" in words.plain:
            return a[:-1] + b  # the document spells the word whole elsewhere
        if f"{first}-{second}" in words.hyphenated:
            return a + b
        if first in words.prefixes and second in words.plain and len(second) >= 3:
            return a + b  # "cross-\ntalk": "cross-check" and "talk" occur elsewhere
        return a[:-1] + b
    return f"{a} {b}"


def _is_caps_label(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and len(text.split()) <= 6 and all(c.isupper() for c in letters)


# How far a line's size may be from the body text's and still be body text (points).
BODY_SIZE_TOLERANCE = 0.6


def is_body_style(ln: Line, body_size: float) -> bool:
    return ln.bold < 0.5 and abs(ln.size - body_size) <= BODY_SIZE_TOLERANCE


def build_paragraphs(
    lines: list[Line], body_size: float, body_font: str, words: WordList
) -> list[Paragraph]:
    """Group ordered lines into paragraphs by block, column, spacing, style and indentation."""
    right_edge: dict[tuple[int, int], float] = {}
    for ln in lines:
        key = (ln.page, ln.col)
        right_edge[key] = max(right_edge.get(key, 0.0), ln.x1)
    leading = body_leading(lines, body_size)
    paragraphs: list[Paragraph] = []
    current: Paragraph | None = None
    texts: list[str] = []
    first_x = 0.0
    for ln in lines:
        prev = current.lines[-1] if current else None
        why = (
            _breaks(prev, ln, first_x, body_size, body_font, right_edge, leading)
            if prev
            else "start"
        )
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


# Body text whose usual gap between lines exceeds this share of a line height is set with
# wide line spacing (a double-spaced manuscript); below it, the usual fixed thresholds apply.
_WIDE_LEADING = 0.6


def body_leading(lines: list[Line], body_size: float) -> float:
    """The usual white space between two lines of body text, in line heights, when it is wide.

    A double-spaced manuscript (a preprint or an accepted manuscript) leaves about a line of
    white space under every line, and PyMuPDF reports each line as a block of its own; read
    with the usual thresholds every line would open a paragraph and every sentence would be
    cut at its line ends. Returns 0.0 for ordinary spacing, so nothing changes there.
    """
    ratios = [
        (b.y0 - a.y1) / max(a.y1 - a.y0, 1.0)
        for a, b in itertools.pairwise(lines)
        if a.page == b.page
        and a.col == b.col
        and b.y0 > a.y0
        and is_body_style(a, body_size)
        and is_body_style(b, body_size)
    ]
    if len(ratios) < 20:
        return 0.0
    usual = statistics.median(ratios)
    return usual if usual > _WIDE_LEADING else 0.0


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
    leading: float = 0.0,
) -> str:
    """Why ``ln`` starts a new paragraph after ``prev``; empty when it continues it.

    ``leading`` is the document's usual line gap in line heights when it is wide
    (`body_leading`): gaps are then measured above it.
    """
    if ln.page != prev.page or ln.col != prev.col:
        return "column"
    height = max(prev.y1 - prev.y0, 1.0)
    gap = ln.y0 - prev.y1 - leading * height
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
        if prev.x1 < right_edge[(prev.page, prev.col)] - 2 * prev.size and not prev.text.endswith(
            (",", ";")
        ):
            return "font"
    if is_body_style(ln, body_size) and is_body_style(prev, body_size):
        indented = ln.x0 - prev.x0 > 0.7 * ln.size and prev.x0 <= first_x + 1
        short = prev.x1 < right_edge[(prev.page, prev.col)] - 1.5 * prev.size
        if indented and (short or prev.text.endswith((".", "?", "!", ":"))):
            return "indent"
        if short and prev.text.endswith((".", "?", "!")) and ln.x0 - first_x > 0.7 * ln.size:
            return "indent"
    return ""
