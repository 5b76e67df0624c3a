"""Reading PDF pages for the PyMuPDF parser: lines from spans, running heads, line numbers.

Everything works on the output of one ``page.get_text("dict")`` call per page and is plain
Python over spans, so parsing stays close to the speed of text extraction itself.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|-medi|\.b$|,b$|-bd|-sb$", re.IGNORECASE)
_UNMAPPED = "\ufffd"
_DIGITS = re.compile(r"\d")
_FIRST_NUMBER = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_BAND = 0.13  # share of the page height at the top and bottom where running heads live
_WORD_GAP = 0.1  # a gap narrower than this share of the font size is inside a word
_SAME_BASELINE = 0.2  # points: pieces of one word share their baseline (an exponent does not)


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


def read_page(
    raw: dict[str, Any], page_no: int, block_base: int, fonts: dict[str, bool]
) -> PageText:
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
            text = _mended(text, bad)
            main = max(spans, key=lambda s: len(s["text"]))
            size = round(main["size"], 1)
            scaled = size < 3
            if scaled:
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
                plain.append(
                    ", " if s["flags"] & 1 or s["size"] < 0.75 * main["size"] else s["text"]
                )
            n = sum(len(s["text"]) for s in spans) or 1
            x0, y0, x1, y1 = _upright(line["bbox"], main_dir, width, height, size)
            plain_text = " ".join("".join(plain).split())
            plain_text = _mended(plain_text, bad)
            if (
                previous is not None
                and abs(y0 - previous.y0) < 0.35 * size
                and -1.0 < x0 - previous.x1 < 3.0 * size
            ):
                before = len(previous.text)
                if previous.bold > 0.99 and lead:
                    previous.lead_bold = f"{previous.lead_bold} {''.join(lead)}".strip()
                previous.bold = (previous.bold * before + n_bold) / (before + n)
                # Such fonts (bitmap fonts of old dvips PDFs) also come as one line per
                # fragment of a word ("hea" "vy"): a fragment that starts where the last
                # one ends belongs to the same word.
                gap = (
                    ""
                    if scaled
                    and abs(y0 - previous.y0) < _SAME_BASELINE
                    and x0 - previous.x1 < _WORD_GAP * size
                    else " "
                )
                previous.text = _joined(previous.text, gap, text)
                previous.plain = _joined(previous.plain, gap, plain_text)
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
    bbox: tuple[float, float, float, float],
    direction: tuple[int, int],
    width: float,
    height: float,
    size: float,
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
_BEFORE = {
    "\u00b4": "\u0301",
    "`": "\u0300",
    "\u00a8": "\u0308",
    "\u02c6": "\u0302",
    "\u02dc": "\u0303",
    "\u02dd": "\u030b",
    "\u02c7": "\u030c",
    "\u02d8": "\u0306",
}


# A font without a Unicode map for its ligature glyphs leaves U+FFFD where "fi", "ff", "fl",
# "ffi" or "ffl" stood: "e\ufffdect", "\ufffdrst", "signi\ufffdcant".
_LIGATURES = ("fi", "ff", "fl", "ffi", "ffl")
_LIGATURE_WORD = re.compile(r"(?<![0-9A-Za-z\ufffd])[A-Za-z]*\ufffd[A-Za-z\ufffd]*(?![0-9])")
_ENDINGS = ("s", "es", "ed", "d", "ly", "ing", "al", "ally", "ity", "ies", "ation", "ness")
_MAX_GAPS = 3  # lost ligatures tried in one word
_MIN_LETTERS = 2  # letters a word keeps besides its lost ligatures
_MIN_WORD = 4  # letters of the word with its ligatures back


# ... and where the charge of an ion stood: "Ca2\ufffd waves", "[Ca2\ufffd]i", "Na\ufffd".
_CATION = re.compile(
    r"\b((?:Ca|Mg|Zn|Fe|Cu|Mn|Co|Ni|Sr|Ba|Cd|Hg|Pb)[23]|Na|K|Li|H)\ufffd(?=([A-Za-z])?)"
)


def repair_charges(text: str) -> str:
    """Put back the lost "+" of a cation ("Ca2\ufffdwaves" -> "Ca2+ waves")."""
    return _CATION.sub(lambda m: f"{m.group(1)}+" + (" " if m.group(2) else ""), text)


def repair_ligatures(text: str) -> str:
    """Put back the ligatures a font without a Unicode map lost: each U+FFFD inside a word
    becomes the ligature that makes a known English word ("e\ufffdect" -> "effect"); a word
    no ligature makes known ("Ca2\ufffd", a symbol) is left as it is."""
    known = _known_words()
    if not known:
        return text

    def fix(m: re.Match[str]) -> str:
        word = m.group()
        gaps = word.count(_UNMAPPED)
        letters = len(word) - gaps
        # A symbol next to a letter or two ("\ufffdN", "\ufffdas") or a name in capitals
        # ("\ufffdX") is no word that lost a ligature.
        if letters < _MIN_LETTERS or gaps > _MAX_GAPS or any(ch.isupper() for ch in word[1:]):
            return word
        if letters + 2 * gaps < _MIN_WORD:
            return word
        # A word the line breaks with a hyphen ("e\ufffdectiv-") is the start of a known word.
        broken = text[m.end() : m.end() + 1] == "-" and not text[m.end() + 1 :].strip()
        parts = word.split(_UNMAPPED)
        candidates = [
            parts[0] + "".join(a + b for a, b in zip(combo, parts[1:], strict=True))
            for combo in itertools.product(_LIGATURES, repeat=gaps)
        ]
        for candidate in candidates:
            if _is_known(candidate.lower(), known) or (
                broken and candidate.lower() in _known_starts()
            ):
                return candidate
        # A compound ("hyper\ufffdne": "hyperfine") only where the lost glyph is inside the
        # word: one at its start may be a symbol glued to it ("\ufffdrepresents").
        if parts[0]:
            for candidate in candidates:
                if _is_compound(candidate.lower(), known):
                    return candidate
        return word

    return _LIGATURE_WORD.sub(fix, text)


def _is_known(word: str, known: frozenset[str]) -> bool:
    """The word or its stem is in `known` ("defining": "define", "satisfies": "satisfy",
    "confining": "confined")."""
    if word in known:
        return True
    return any(
        word.endswith(e) and (word[: -len(e)] + tail) in known
        for e in _ENDINGS
        if len(word) >= len(e) + _MIN_WORD
        for tail in ("", "e", "y", "ed")
    )


def _is_compound(word: str, known: frozenset[str]) -> bool:
    """Whether the word joins two known words of four letters or more ("hyperfine")."""
    return any(
        word[:i] in known and word[i:] in known for i in range(_MIN_WORD, len(word) - _MIN_WORD + 1)
    )


@functools.lru_cache(maxsize=1)
def _known_starts() -> frozenset[str]:
    """The first five or more letters of each known word, short of the whole word."""
    return frozenset(w[:n] for w in _known_words() for n in range(5, len(w)))


@functools.lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    """Whole English words of the bundled model's word-piece vocabulary (30,000 entries)."""
    from sciverify.entail.backends import bundled_model_path

    try:
        vocab = json.loads((bundled_model_path() / "tokenizer.json").read_text())["model"]["vocab"]
    except (OSError, ValueError, KeyError):
        return frozenset()
    return frozenset(w for w in vocab if w.isalpha() and w.islower() and len(w) > 2)


def _joined(before: str, gap: str, after: str) -> str:
    """Two pieces of a line; pieces of one word are mended again as a whole."""
    text = f"{before}{gap}{after}"
    return text if gap else _mended(text, text.count(_UNMAPPED))


def _mended(text: str, unmapped: int) -> str:
    """A line's text with spacing accents composed and, when it has `unmapped` glyphs, the
    ligatures and ion charges they stood for put back."""
    if _SPACING_ACCENT.search(text):
        text = fix_accents(text)
    return repair_ligatures(repair_charges(text)) if unmapped else text


def fix_accents(text: str) -> str:
    """Compose spacing accents with their letters; the cedilla follows its letter."""
    text = re.sub(
        "([A-Za-z])\u00b8", lambda m: unicodedata.normalize("NFC", m.group(1) + "\u0327"), text
    )
    text = re.sub(
        "((?<=[A-Za-z])`(?=[aeiouAEIOU])|[\u00b4\u00a8\u02c6\u02dc\u02dd\u02c7\u02d8])([A-Za-z\u0131])",
        lambda m: unicodedata.normalize(
            "NFC", m.group(2).replace("\u0131", "i") + _BEFORE[m.group(1)]
        ),
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
                seen.add(ln.text)
        counts.update(seen)
    n_pages = len(pages)
    repeat = 2 if n_pages <= 6 else max(3, round(n_pages * 0.2))
    numbered = _numbered_heads(pages)
    paged = _page_numbers(pages)
    removed: list[Line] = []
    for pg in pages:
        keep: list[Line] = []
        band_numbers = [
            ln
            for ln in pg.lines
            if _PAGE_NUMBER.match(ln.text)
            and (ln.y1 < pg.height * _BAND or ln.y0 > pg.height * (1 - _BAND))
            and (paged is None or id(ln) in paged)
        ]
        for ln in pg.lines:
            top = ln.y1 < pg.height * _BAND
            bottom = ln.y0 > pg.height * (1 - _BAND)
            furniture = False
            if top or bottom:
                # Once the pages are numbered, a bare number off their count is a table's
                # cell ("259" clusters in a table at the top of a page), unless it recurs.
                bare = paged is not None and bool(_PAGE_NUMBER.match(ln.text))
                key = ln.text if bare else _furniture_key(ln.text)
                furniture = (
                    ln in band_numbers
                    or id(ln) in numbered
                    or (n_pages > 1 and counts[key] >= repeat)
                    # a running head shares its baseline with the page number
                    or any(abs(num.y0 - ln.y0) < 2 and num is not ln for num in band_numbers)
                )
            (removed if furniture else keep).append(ln)
        pg.lines = keep
    return removed


_NUMBERED_HEAD = re.compile(r"^(\d{1,4})\s+\D.{0,100}$|^.{0,100}\D\s+(\d{1,4})$")


def _page_numbers(pages: list[PageText]) -> set[int] | None:
    """The bare numbers in the top or bottom band that count the pages: their value minus the
    page index is the same on at least two pages and 40% of them. None when no such count
    runs through the document (then every bare number in the band is taken for one)."""
    found: list[tuple[int, int, Line]] = []
    for index, pg in enumerate(pages):
        for ln in pg.lines:
            if ln.y1 < pg.height * _BAND or ln.y0 > pg.height * (1 - _BAND):
                m = _PAGE_NUMBER.match(ln.text) and _FIRST_NUMBER.search(ln.text)
                if m:
                    found.append((int(m.group()) - index, index, ln))
    per_page = Counter(offset for offset, _ in {(off, index) for off, index, _ in found})
    if not per_page:
        return None
    offset, count = per_page.most_common(1)[0]
    if count < 2 or count < 0.4 * len(pages):
        return None
    return {id(ln) for off, _, ln in found if off == offset}


def _numbered_heads(pages: list[PageText]) -> set[int]:
    """Running heads that carry the page number ("56 Oliver Kopp and Anita Armbruster").

    Their text alternates between pages, but the number minus the page index is constant.
    """
    found: list[tuple[int, Line]] = []
    for index, pg in enumerate(pages):
        for ln in pg.lines:
            if ln.y1 < pg.height * _BAND or ln.y0 > pg.height * (1 - _BAND):
                m = _NUMBERED_HEAD.match(ln.text)
                if m:
                    found.append((int(m.group(1) or m.group(2)) - index, ln))
    offsets = Counter(offset for offset, _ in found)
    if not offsets:
        return set()
    offset, count = offsets.most_common(1)[0]
    if count < 2 or count < 0.4 * len(pages):
        return set()
    return {id(ln) for off, ln in found if off == offset}


def strip_line_numbers(pg: PageText) -> int:
    """Remove manuscript line numbers: a run of rising numbers outside the text block.

    Table columns and table-of-contents page numbers also stack bare numbers, but they sit
    inside the text block or do not count up steadily.
    """
    numbers = [ln for ln in pg.lines if ln.text.isdigit() and len(ln.text) <= 4]
    text_lines = [ln for ln in pg.lines if not ln.text.isdigit()]
    if len(numbers) < 8 or not text_lines:
        return 0
    left_edge = sorted(ln.x0 for ln in text_lines)[len(text_lines) // 10]
    right_edge = sorted(ln.x1 for ln in text_lines)[-(len(text_lines) // 10) - 1]
    removed = 0
    for side in (
        [ln for ln in numbers if ln.x1 < left_edge - 2],
        [ln for ln in numbers if ln.x0 > right_edge + 2],
    ):
        side.sort(key=lambda ln: ln.y0)
        values = [int(ln.text) for ln in side]
        steps = Counter(b - a for a, b in itertools.pairwise(values))
        if len(side) < 8 or not steps:
            continue
        step, count = steps.most_common(1)[0]
        if step not in (1, 2, 5, 10) or count < 0.8 * (len(side) - 1):
            continue
        gone = {id(ln) for ln in side}
        pg.lines = [ln for ln in pg.lines if id(ln) not in gone]
        removed += len(side)
    return removed
