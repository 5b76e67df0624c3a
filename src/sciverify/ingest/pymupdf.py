"""The default PDF parser: one ``get_text("dict")`` per page with PyMuPDF, then plain Python.

``parse_pdf`` turns a scientific PDF into a :class:`ParsedDocument`: front matter
(title, authors, abstract, identifiers, licence, version), sections with kinds, blocks in
reading order (captions, tables and equations as their own blocks) and reference entries.
"""

from __future__ import annotations

import datetime
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from sciverify.errors import ParseError
from sciverify.ingest import pdf_meta
from sciverify.ingest.pdf_layout import (
    Paragraph,
    WordList,
    build_paragraphs,
    order_page,
)
from sciverify.ingest.pdf_page import (
    Line,
    PageText,
    read_page,
    strip_furniture,
    strip_line_numbers,
)
from sciverify.ingest.pdf_refs import parse_reference, split_entries
from sciverify.ingest.pdf_structure import Structure, build_sections
from sciverify.records import ParsedDocument, Section

PARSER = "pymupdf"
PARSER_REVISION = "sciverify-pymupdf/5"
_MIN_CHARS_PER_PAGE = 30  # below this on average, a document has no usable text layer
_OCR_HINT = "OCR with tesseract if installed (apt install tesseract-ocr), or use an OCRed copy"


def parse_pdf(path: Path, *, ocr: bool = True) -> ParsedDocument:
    """Parse one PDF file into structure.

    Args:
        path: the PDF file.
        ocr: when the file has no text layer and ``tesseract`` is on PATH, OCR it.

    Returns:
        The parsed document, ``parser="pymupdf"``.

    Raises:
        ParseError: empty, not a PDF, corrupt or truncated, encrypted, or no text layer.

    Example:
        >>> doc = parse_pdf(Path("paper.pdf"))  # doctest: +SKIP
        >>> doc.title, [s.heading for s in doc.sections][:3]  # doctest: +SKIP
    """
    import pymupdf

    path = Path(path)
    doc = _open(path)
    try:
        warnings: list[str] = []
        if doc.is_repaired:
            warnings.append("damaged cross-reference table was repaired by MuPDF")
        _map_type3_digits(doc)
        pages, has_text = _read_pages(doc, path, ocr=ocr, warnings=warnings)
        return _assemble(doc, pages, has_text, warnings, version=pymupdf.__version__)
    finally:
        doc.close()


def _open(path: Path) -> Any:
    import pymupdf

    lib: Any = pymupdf  # untyped library: keep its calls out of strict typing

    if not path.is_file():
        raise ParseError("file not found", path=path, hint="check the path")
    size = path.stat().st_size
    if size == 0:
        raise ParseError(
            "empty file (0 bytes)",
            path=path,
            hint="the copy or download failed; fetch the PDF again",
        )
    with path.open("rb") as fh:
        head = fh.read(1024)
        fh.seek(max(0, size - 2048))
        tail = fh.read()
    if b"%PDF-" not in head:
        raise ParseError(
            f"not a PDF (starts with {head[:8]!r}, no %PDF- header)",
            path=path,
            hint="pass PDF files only, or convert this file to PDF first",
        )
    try:
        doc = lib.open(path, filetype="pdf")
    except (RuntimeError, ValueError) as exc:  # FileDataError and friends
        raise ParseError(
            f"corrupt PDF: MuPDF cannot open it ({_one_line(exc)})",
            path=path,
            hint="re-download the file or re-export it from its source",
        ) from exc
    if doc.needs_pass and not doc.authenticate(""):
        doc.close()
        raise ParseError(
            "encrypted PDF needs a password",
            path=path,
            hint="decrypt it first, e.g. qpdf --decrypt --password=PASSWORD in.pdf out.pdf",
        )
    truncated = b"%%EOF" not in tail
    if doc.page_count == 0 or (truncated and doc.is_repaired):
        doc.close()
        what = (
            "truncated PDF: the file ends before its end-of-file marker"
            if truncated
            else "corrupt PDF: no readable pages"
        )
        raise ParseError(what, path=path, hint="the file is incomplete or damaged; fetch it again")
    return doc


_DIFFERENCES = re.compile(r"/Differences\s*\[(.*?)\]", re.DOTALL)
_ONE_BYTE_CODES = re.compile(r"begincodespacerange\s*<[0-9a-fA-F]{2}>")
_BFCHAR = re.compile(r"^\s*<([0-9a-fA-F]{2})>\s*<[0-9a-fA-F]{4,}>\s*$", re.MULTILINE)
_BFRANGE = re.compile(r"<([0-9a-fA-F]{2})>\s*<([0-9a-fA-F]{2})>\s*[<\[]")
_DIFFERENCE_TOKEN = re.compile(r"\d+|/[^\s/\[\]]+")
_DIGIT_NAMES = frozenset("0123456789")


def _map_type3_digits(doc: Any) -> None:
    """Give the digits of bitmap (Type 3) fonts their Unicode values, in memory only.

    dvips and Ghostscript, the route of most pre-2000 arXiv PDFs, name a digit glyph by the
    digit itself ("/1") and leave it out of the font's Unicode map, so MuPDF reads the name
    as a character code and "12000" comes out as "\\x01\\x02000". The missing digits are
    added to the font's map before any page is read; the file on disk is not touched.
    """
    for xref in _type3_fonts(doc):
        found = _digit_map(doc, xref)
        if found is None:
            continue
        cmap_xref, cmap, digits = found
        mapped = {int(c, 16) for c in _BFCHAR.findall(cmap)}
        ranges = [(int(lo, 16), int(hi, 16)) for lo, hi in _BFRANGE.findall(cmap)]
        missing = {
            c: n
            for c, n in digits.items()
            if c not in mapped and not any(lo <= c <= hi for lo, hi in ranges)
        }
        if not missing or not _ONE_BYTE_CODES.search(cmap) or "endcmap" not in cmap:
            continue
        entries = "\n".join(f"<{c:02x}> <{ord(n):04x}>" for c, n in sorted(missing.items()))
        extra = f"{len(missing)} beginbfchar\n{entries}\nendbfchar\n"
        try:
            doc.update_stream(
                cmap_xref, cmap.replace("endcmap", extra + "endcmap", 1).encode("latin-1")
            )
        except Exception:  # noqa: BLE001 - the map stays as it was; the text is read anyway
            return


def _type3_fonts(doc: Any) -> list[int]:
    """The object numbers of the document's Type 3 fonts."""
    fonts: set[int] = set()
    for page in doc:
        try:
            fonts.update(f[0] for f in page.get_fonts() if f[2] == "Type3" and f[0] > 0)
        except Exception:  # noqa: BLE001 - MuPDF raises its own types on broken objects
            return []
    return sorted(fonts)


def _digit_map(doc: Any, xref: int) -> tuple[int, str, dict[int, str]] | None:
    """A Type 3 font's Unicode map (object number, text) and its codes named as digits."""
    try:
        kind, value = doc.xref_get_key(xref, "ToUnicode")
        if kind != "xref":
            return None
        digits = {
            code: name for code, name in _differences(doc, xref).items() if name in _DIGIT_NAMES
        }
        if not digits:
            return None
        cmap_xref = int(value.split()[0])
        return cmap_xref, (doc.xref_stream(cmap_xref) or b"").decode("latin-1"), digits
    except Exception:  # noqa: BLE001 - an odd font object: leave it as MuPDF reads it
        return None


def _differences(doc: Any, xref: int) -> dict[int, str]:
    """Character code -> glyph name from a font's /Encoding /Differences array."""
    kind, value = doc.xref_get_key(xref, "Encoding")
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return {}
    m = _DIFFERENCES.search(value)
    out: dict[int, str] = {}
    code = 0
    for token in _DIFFERENCE_TOKEN.findall(m.group(1) if m else ""):
        if token.startswith("/"):
            out[code] = token[1:]
            code += 1
        else:
            code = int(token)
    return out


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _read_pages(
    doc: Any, path: Path, *, ocr: bool, warnings: list[str]
) -> tuple[list[PageText], bool]:
    import pymupdf

    flags = pymupdf.TEXT_MEDIABOX_CLIP  # no images, ligatures expanded, whitespace normalised
    fonts: dict[str, bool] = {}
    pages: list[PageText] = []
    base = 0
    for i, page in enumerate(doc):
        try:
            raw = page.get_text("dict", flags=flags)
        except (RuntimeError, ValueError) as exc:
            warnings.append(f"page {i + 1} could not be read: {_one_line(exc)}")
            raw = {"blocks": [], "width": page.rect.width, "height": page.rect.height}
        pages.append(read_page(raw, i, base, fonts))
        base += len(raw["blocks"])
    chars = sum(p.chars for p in pages)
    unmapped = sum(p.unmapped for p in pages)
    readable = chars - unmapped
    if readable < _MIN_CHARS_PER_PAGE * len(pages):
        if ocr and shutil.which("tesseract"):
            return _ocr_pages(doc, path, flags, warnings), False
        if chars and unmapped * 2 > chars:
            raise ParseError(
                "text layer is unreadable: its fonts have no Unicode mapping",
                path=path,
                hint=_OCR_HINT,
            )
        raise ParseError("no text layer (a scanned document?)", path=path, hint=_OCR_HINT)
    if unmapped > 0.05 * chars:
        warnings.append(
            f"{unmapped * 100 // chars}% of the characters have no Unicode mapping; those lines were dropped"
        )
    empty = [str(p_no + 1) for p_no, p in enumerate(pages) if p.chars < 5]
    if empty:
        warnings.append(f"pages without text (images only?): {', '.join(empty[:20])}")
    return pages, True


def _ocr_pages(doc: Any, path: Path, flags: int, warnings: list[str]) -> list[PageText]:
    fonts: dict[str, bool] = {}
    pages: list[PageText] = []
    base = 0
    try:
        for i, page in enumerate(doc):
            textpage = page.get_textpage_ocr(flags=flags, language="eng", dpi=300, full=True)
            raw = page.get_text("dict", flags=flags, textpage=textpage)
            pages.append(read_page(raw, i, base, fonts))
            base += len(raw["blocks"])
    except (RuntimeError, ValueError, OSError) as exc:
        raise ParseError(
            f"no text layer, and OCR failed ({_one_line(exc)})",
            path=path,
            hint="check that tesseract and its English data are installed (TESSDATA_PREFIX)",
        ) from exc
    warnings.append("no text layer: text comes from OCR (tesseract)")
    return pages


def _body_style(pages: list[PageText]) -> tuple[float, str]:
    """The size and font most characters are set in."""
    sizes: Counter[float] = Counter()
    fonts: Counter[str] = Counter()
    for pg in pages:
        for ln in pg.lines:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
            fonts[ln.font] += len(ln.text)
    if not sizes:
        return 10.0, ""
    return sizes.most_common(1)[0][0], fonts.most_common(1)[0][0]


def _assemble(
    doc: Any, pages: list[PageText], has_text: bool, warnings: list[str], *, version: str
) -> ParsedDocument:
    furniture = strip_furniture(pages)
    for pg in pages:
        strip_line_numbers(pg)
    body_size, body_font = _body_style(pages)
    words = WordList()
    ordered: list[Line] = []
    for pg in pages:
        page_lines = order_page(pg)
        for ln in page_lines:
            words.add(ln.text)
        ordered.extend(page_lines)
    first = next((i for i, pg in enumerate(pages) if len(pg.lines) >= 3), 0)
    first_lines = [ln for ln in ordered if ln.page == first]
    metadata = doc.metadata or {}
    title, title_lines = pdf_meta.pick_title(
        first_lines, pdf_meta.meta_title(metadata.get("title")), pages[first].height, body_size
    )
    used = {id(ln) for ln in title_lines}
    after_title = [ln for ln in first_lines if id(ln) not in used]
    if title_lines:
        after_title = [ln for ln in after_title if ln.y0 >= title_lines[0].y0 - 1]
    page_text = " ".join(ln.text for ln in first_lines)
    authors, author_lines = pdf_meta.pick_authors(after_title, metadata.get("author"), page_text)
    used.update(id(ln) for ln in author_lines)
    body = [ln for ln in ordered if id(ln) not in used]
    paragraphs = build_paragraphs(body, body_size, body_font, words)
    structure = build_sections(
        paragraphs,
        body_size=body_size,
        body_font=body_font,
        first_page=first,
        page_heights=[pg.height for pg in pages],
        toc_pages={i: bottom for i, pg in enumerate(pages) if (bottom := _toc_bottom(pg))},
        words=words,
    )
    sections = _with_references(structure, words)

    front = _front_texts(paragraphs, furniture, pages, first)
    arxiv_id, arxiv_version, stamp = pdf_meta.find_arxiv(
        pages[0].margin + pages[first].margin, front
    )
    kind, label = pdf_meta.detect_version(front + pages[first].margin, stamp, arxiv_version)
    licence_texts = [p.text for p in paragraphs if _mentions_licence(p.text)]
    cite_as = [p.text for p in paragraphs if "cite this article" in p.text[:120].lower()]
    licence_texts += [ln.text for ln in furniture if _mentions_licence(ln.text)]
    year = pdf_meta.find_year(
        front, stamp, metadata.get("creationDate"), datetime.date.today().year
    )
    if structure.abstract is None:
        warnings.append("no abstract found")
    if not structure.references_found and len(pages) >= 4:
        warnings.append("no references section found")
    return ParsedDocument(
        title=title,
        authors=authors,
        abstract=structure.abstract,
        doi=pdf_meta.find_doi(
            front + cite_as + [metadata.get("subject") or "", metadata.get("keywords") or ""]
        ),
        arxiv_id=arxiv_id + (arxiv_version or "") if arxiv_id else None,
        year=year,
        venue=pdf_meta.find_venue(front),
        license=pdf_meta.find_license(licence_texts),
        version_kind=kind,
        version_label=label,
        page_count=len(pages),
        sections=tuple(sections),
        references=structure.references_parsed,
        parser=PARSER,
        parser_version=f"{PARSER_REVISION} + PyMuPDF {version}",
        has_text_layer=has_text,
        warnings=tuple(warnings),
    )


def _with_references(structure: Structure, words: WordList) -> list[Section]:
    """Split each references section into one block per entry and parse the entries."""
    return structure.finish(lambda lines: split_entries(lines, words), parse_reference)


def _toc_bottom(pg: PageText) -> float:
    """Where a table of contents ends on this page (many bare page numbers at the right), or 0."""
    numbers = [
        ln.y1
        for ln in pg.lines
        if ln.text.isdigit() and len(ln.text) <= 3 and ln.x1 > pg.width * 0.75
    ]
    return max(numbers) if len(numbers) >= 6 else 0.0


def _mentions_licence(text: str) -> bool:
    low = text.lower()
    return "creative" in low or "cc by" in low or "cc-by" in low or "cc0" in low


def _front_texts(
    paragraphs: list[Paragraph], furniture: list[Line], pages: list[PageText], first: int
) -> list[str]:
    """Short texts from the first pages and the running heads: where journals say who they are."""
    texts = [p.text for p in paragraphs if p.page <= first + 1 and len(p.text) < 400]
    seen: set[str] = set()
    for ln in furniture:
        if ln.page <= first + 2 and ln.text not in seen:
            seen.add(ln.text)
            texts.append(ln.text)
    return texts
