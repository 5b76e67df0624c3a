"""Citations as drafts write them, and which corpus papers they point at.

Styles: Pandoc `[@key]` / `[@a; @b, p. 3]` (resolved through a BibTeX file), author-year
`(Smith et al., 2020)` / `(Smith and Jones 2019; Lee, 2018)` / `Smith et al. (2020)` (matched on
first-author surname and year), numbered `[3]` / `[3, 5-7]` and superscript `text.¹` / `text²⁻⁴`
(resolved through the draft's own reference list), Markdown footnotes `[^3]` / `[^smith]`
(resolved through their `[^3]: ...` definitions), bare DOIs and arXiv ids. A citation the corpus cannot resolve keeps a label
("Smith et al., 2020", "[4] Kudsk KA ... 1989") so the report can say which paper to add.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciverify.entail.lexicon import split_words
from sciverify.errors import InputError

_PANDOC = re.compile(r"\[((?:[^\[\]@]*?[\s;-])?-?@\w[^\[\]]*)\](?!\()")
_PANDOC_KEY = re.compile(r"(?<![\w@])-?@([\w][\w:.#$%&+?<>~/-]*)")
_INTERVAL_BEFORE = re.compile(r"[=∈≤≥<>]\s*$")
_NUMERIC = re.compile(r"(?<!\!)\[(\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\](?!\()")
# "(ref. 3)", "(refs 3-5)": numbered references named as such.
_REF_WORD = re.compile(r"\((?:see\s+)?refs?\.?\s+(\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\)", re.IGNORECASE)
# A Markdown link: its text and its address.
_LINK = re.compile(r"(?<!\!)\[([^\[\]]{1,300})\]\((\S{1,500}?)\)")
# A Markdown footnote marker "[^3]"; "[^3]: ..." is its definition, not a citation.
_FOOTNOTE = re.compile(r"\[\^([^\]\s]{1,40})\](?!:)")
FOOTNOTE_DEFINITION = re.compile(r"^[ \t]{0,3}\[\^([^\]\s]{1,40})\]:[ \t]*", re.MULTILINE)
# Superscript reference numbers after a word or a punctuation mark: "machines²", "text.¹⁻³".
# Not an exponent: "m²", "10⁶", "(γτ)²" and "s⁻¹" have no word of three letters or stop before
# them, or start with a sign.
_SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPERSCRIPT = re.compile(
    rf"(?:(?<=[A-Za-z]{{3}})|(?<=[.,;:\"”’]))[{_SUPERSCRIPT_DIGITS}]+"
    rf"(?:\s?[,⁻–-]\s?[{_SUPERSCRIPT_DIGITS}]+)*"
)
_PLAIN_DIGITS = str.maketrans(_SUPERSCRIPT_DIGITS + "⁻", "0123456789-")
_UNIT_BEFORE = re.compile(r"(?<![A-Za-z])(?:sec|mol|rad|[kMG]pc|kcal|mmol|nmol)$")
_YEAR = r"(?:19|20)\d{2}[a-z]?"
# An author-year citation in square brackets: "[Smith et al., 2020]", "[Lee 2018; Wu, 2019]".
_BRACKET_YEAR = re.compile(
    rf"(?<!\!)\[([^\[\]]{{0,300}}?\b{_YEAR}(?:[,:]\s*(?:pp?\.\s*)?\d+(?:[-–]\d+)?)?)\](?!\()"
)
_PAREN = re.compile(rf"\(([^()]{{0,300}}?\b{_YEAR}(?:[,:]\s*(?:pp?\.\s*)?\d+(?:[-–]\d+)?)?)\)")
_NAME = r"[A-Z][\w'’-]+"
_PARTICLE = r"(?:(?:de|van|von|der|den|la|le|da|di|du|del)\s+)"
_SURNAMES = (
    rf"{_PARTICLE}?{_NAME}(?:\s+{_PARTICLE}?{_NAME})?"
    rf"(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_PARTICLE}?{_NAME})?"
)
_NARRATIVE = re.compile(rf"\b(?P<names>{_SURNAMES})\s+\((?P<years>{_YEAR}(?:[,;]\s*{_YEAR})*)\)")
_AUTHOR_YEAR = re.compile(
    rf"^(?:(?:see|e\.g\.|cf\.|also|reviewed in)[,]?\s+)*(?P<names>[A-Z][^\d;()]*?)[,]?\s+"
    rf"(?P<years>{_YEAR}(?:\s*,\s*{_YEAR})*)(?:[,:]\s*(?:pp?\.\s*)?\d+(?:[-–]\d+)?)?$"
)
DOI = re.compile(
    r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?\b(10\.\d{4,9}/[^\s\])>,;\"']+)", re.IGNORECASE
)
ARXIV = re.compile(
    r"(?:arXiv:\s*|arxiv\.org/abs/)(\d{4}\.\d{4,5}|[a-z-]+/\d{7})(v\d+)?", re.IGNORECASE
)
# Words that look like a surname before "(2009)" but are not one.
_NOT_NAMES = frozenset(
    split_words(
        """in on at by for from since until during after before between and or the a an of to as
    table figure fig tables figures section appendix january february march april may june july
    august september october november december spring summer autumn winter medline embase pubmed
    cochrane version release"""
    )
)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation marker in the draft."""

    style: str  # pandoc | numeric | author_year | doi | arxiv
    raw: str
    span: tuple[int, int]  # char offsets in the text that was scanned (plus its base)
    keys: tuple[str, ...]  # pandoc keys, reference numbers, "surname:year", DOIs, arXiv ids
    narrative: bool = False  # "Smith et al. (2020) found": the names are part of the sentence


def _expand_numbers(inner: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in re.split(r"\s*,\s*", inner):
        bounds = re.split(r"\s*[-–]\s*", part)
        if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
            lo, hi = int(bounds[0]), int(bounds[1])
            if lo <= hi and hi - lo <= 50:
                out.extend(str(n) for n in range(lo, hi + 1))
                continue
        out.extend(b for b in bounds if b.isdigit())
    return tuple(dict.fromkeys(out))


def _first_surname(names: str) -> str:
    names = re.split(r"\s+et\s+al\b|\s+(?:and|&)\s+|,", names)[0].strip()
    return normalise_name(names.split()[-1]) if names.split() else ""


def normalise_name(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]+", "", text.lower())


def _author_year_keys(inner: str) -> tuple[str, ...] | None:
    keys: list[str] = []
    for part in re.split(r"\s*;\s*", inner.strip()):
        m = _AUTHOR_YEAR.match(part.strip())
        if not m:
            return None if not keys else tuple(keys)
        names = m.group("names").strip()
        if len(names.split()) > 8 or names.split()[0].lower() in _NOT_NAMES:
            return None if not keys else tuple(keys)
        surname = _first_surname(names)
        keys.extend(f"{surname}:{y[:4]}" for y in re.findall(_YEAR, m.group("years")))
    return tuple(keys) or None


def find_citations(text: str, base: int = 0) -> list[Citation]:
    """Every citation marker in `text`, in order of position, spans shifted by `base`."""
    found: list[Citation] = []
    taken: list[tuple[int, int]] = []

    def add(style: str, m: re.Match[str], keys: tuple[str, ...], narrative: bool = False) -> None:
        s, e = m.span()
        if not keys or any(s < b and a < e for a, b in taken):
            return
        taken.append((s, e))
        found.append(Citation(style, m.group(), (base + s, base + e), keys, narrative))

    for m in _PANDOC.finditer(text):
        add("pandoc", m, tuple(k.rstrip(".,:;") for k in _PANDOC_KEY.findall(m.group(1))))
    for m in _NUMERIC.finditer(text):
        numbers = re.findall(r"\d+", m.group(1))
        if _INTERVAL_BEFORE.search(text, 0, m.start()) or any(int(n) == 0 for n in numbers):
            continue  # "σ = [0, 100]": an interval, not references (they count from 1)
        add("numeric", m, _expand_numbers(m.group(1)))
    for m in _REF_WORD.finditer(text):
        add("numeric", m, _expand_numbers(m.group(1)))
    for m in _BRACKET_YEAR.finditer(text):
        keys = _author_year_keys(m.group(1))
        if keys:
            add("author_year", m, keys)
    for m in _FOOTNOTE.finditer(text):
        add("footnote", m, (m.group(1),))
    for m in _SUPERSCRIPT.finditer(text):
        if _UNIT_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            continue  # a unit's exponent ("Mpc³", "mol²")
        refs = _expand_numbers(m.group().translate(_PLAIN_DIGITS).replace(" ", ""))
        add("superscript", m, tuple(n for n in refs if int(n) > 0))
    for m in _NARRATIVE.finditer(text):
        first = m.group("names").split()[0].lower()
        if first in _NOT_NAMES:
            continue
        surname = _first_surname(m.group("names"))
        add(
            "author_year",
            m,
            tuple(f"{surname}:{y[:4]}" for y in re.findall(_YEAR, m.group("years"))),
            narrative=True,
        )
    for m in _PAREN.finditer(text):
        keys = _author_year_keys(m.group(1))
        if keys:
            add("author_year", m, keys)
    for m in _LINK.finditer(text):
        # "[Dean & Ghemawat, 2004](https://doi.org/10.1145/...)", "[source](arxiv.org/abs/...)":
        # the whole link is the citation, so none of it is left in the claim.
        doi, arxiv = DOI.search(m.group(2)), ARXIV.search(m.group(2))
        if doi:
            add("doi", m, (_doi_key(doi),))
        elif arxiv:
            add("arxiv", m, (arxiv.group(1).lower(),))
        elif keys := _author_year_keys(m.group(1)):
            add("author_year", m, keys)
    for m in DOI.finditer(text):
        add("doi", m, (_doi_key(m),))
    for m in ARXIV.finditer(text):
        add("arxiv", m, (m.group(1).lower(),))
    return sorted(found, key=lambda c: c.span)


def _doi_key(m: re.Match[str]) -> str:
    """A DOI as a citation key: lower case, without the sentence's full stop."""
    return m.group(1).rstrip(".").lower()


def strip_citations(text: str, *, keep_narrative: bool = False) -> str:
    """The text without citation markers; a narrative citation becomes "the study", or stays
    as written with `keep_narrative` ("Roisin and Aron (2003) modelled ...")."""
    cites = find_citations(text)
    out, last = [], 0
    for c in cites:
        out.append(text[last : c.span[0]])
        if c.narrative and keep_narrative:
            out.append(text[c.span[0] : c.span[1]])
        elif c.narrative:
            at_start = not "".join(out).strip() or "".join(out).rstrip().endswith((".", ":"))
            out.append("The study" if at_start else "the study")
        last = c.span[1]
    out.append(text[last:])
    joined = re.sub(r"\(\s*\)", "", "".join(out))
    # The space a removed marker leaves before punctuation goes; not the space before a
    # number written without its leading zero ("an RMS error of .040").
    joined = re.sub(r"\s+([.,;:)])(?![.,]?\d)", r"\1", joined)
    return re.sub(r"[ \t]{2,}", " ", joined).strip()


# ---------------------------------------------------------------------------- BibTeX


@dataclass(frozen=True, slots=True)
class BibEntry:
    key: str
    title: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    year: int | None = None
    first_author: str | None = None


def _bib_value(text: str, i: int) -> tuple[str, int]:
    """The field value starting at text[i] ({...}, "..." or a bare word) and the end index."""
    if text[i] == "{":
        depth, j = 0, i
        while j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                return text[i + 1 : j], j + 1
            j += 1
        raise ValueError("unbalanced braces")
    if text[i] == '"':
        j, depth = i + 1, 0
        while j < len(text) and not (text[j] == '"' and depth == 0):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        return text[i + 1 : j], j + 1
    m = re.match(r"[\w.:/-]+", text[i:])
    word = m.group() if m else ""
    return word, i + len(word)


def _latex_plain(value: str) -> str:
    value = re.sub(r"\\[a-zA-Z]+\s*\{([^{}]*)\}", r"\1", value)
    value = re.sub(r"\\['`^\"~=.]\{?([A-Za-z])\}?", r"\1", value)
    value = re.sub(r"\\[a-zA-Z]+\s*", "", value)
    return " ".join(value.replace("{", "").replace("}", "").split())


def parse_bibtex(text: str, *, path: Path | str | None = None) -> dict[str, BibEntry]:
    """Entries by key; @string, @comment and @preamble are ignored.

    Raises:
        InputError: the text holds no entry at all, or an entry's braces never close.
    """
    entries: dict[str, BibEntry] = {}
    for m in re.finditer(r"@(\w+)\s*[{(]\s*([^,\s]+)\s*,", text):
        if m.group(1).lower() in ("string", "comment", "preamble"):
            continue
        fields: dict[str, str] = {}
        i = m.end()
        while i < len(text):
            f = re.compile(r"\s*(\w[\w-]*)\s*=\s*").match(text, i)
            if not f:
                break
            try:
                value, i = _bib_value(text, f.end())
            except ValueError as exc:
                line = text.count("\n", 0, m.start()) + 1
                raise InputError(
                    f"BibTeX entry {m.group(2)!r} (line {line}): {exc}",
                    path=path,
                    hint="close every { of that entry",
                ) from exc
            fields[f.group(1).lower()] = _latex_plain(value)
            sep = re.compile(r"\s*,?").match(text, i)
            i = sep.end() if sep else i
            if i < len(text) and text[i] in "})":
                break
        year = re.search(r"(?:19|20)\d{2}", fields.get("year", fields.get("date", "")))
        authors = re.split(r"\s+and\s+", fields.get("author", "")) if fields.get("author") else []
        first = authors[0] if authors else None
        if first:
            first = first.split(",")[0] if "," in first else first.split()[-1]
        arxiv = (
            fields.get("eprint")
            if "arxiv" in fields.get("archiveprefix", "arxiv").lower() and fields.get("eprint")
            else None
        )
        entries[m.group(2)] = BibEntry(
            m.group(2),
            fields.get("title"),
            fields.get("doi"),
            arxiv,
            int(year.group()) if year else None,
            first,
        )
    if not entries:
        raise InputError(
            "no BibTeX entries found",
            path=path,
            hint="give a .bib file with @article{key, ...} entries",
        )
    return entries


def read_bib(path: Path) -> dict[str, BibEntry]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(
            f"cannot read the BibTeX file: {exc.strerror}", path=path, hint="check the --bib path"
        ) from exc
    return parse_bibtex(text, path=path)


# ---------------------------------------------------------------------------- resolution


@dataclass(frozen=True, slots=True)
class Source:
    """What one citation key points at: corpus papers, or a label naming what is missing."""

    key: str
    label: str
    paper_ids: tuple[str, ...] = ()


class Resolver:
    """Matches citation keys to corpus works by DOI, arXiv id, title or first author + year."""

    def __init__(
        self, store: Any, *, bib: dict[str, BibEntry] | None = None, references: Iterable[str] = ()
    ) -> None:
        self._store = store
        self._bib = bib or {}
        self._works: list[dict[str, Any]] | None = None
        self._refs: dict[str, Any] = {}
        self._notes: set[str] = set()
        from sciverify.ingest.pdf_refs import parse_reference

        for n, raw in enumerate(references, 1):
            footnote = FOOTNOTE_DEFINITION.match(raw)
            if footnote:
                ref = parse_reference(raw[footnote.end() :])
                if ref.year or ref.doi or ref.arxiv_id or "://" in raw:
                    self._refs[f"^{footnote.group(1)}"] = ref
                else:  # a note ("[^2]: Counts exclude withdrawn patients."), not a source
                    self._notes.add(footnote.group(1))
                continue
            raw = _BULLET.sub("", raw)  # "- [2] Dean J, ...": a list item that is entry 2
            number = re.match(r"^\s*\[?(\d{1,4})[\].)]?\s", raw)
            self._refs[number.group(1) if number else str(n)] = parse_reference(raw)
        self._cache: dict[tuple[str, str], Source] = {}
        self._untitled_text: dict[str, frozenset[str]] | None = None

    def works(self) -> list[dict[str, Any]]:
        if self._works is None:
            from sciverify.ingest.identity import normalise_doi, normalise_title

            rows = self._store.rows(
                "SELECT paper_id, title, authors, year, doi, arxiv_id FROM works"
            )
            for r in rows:
                r["ndoi"] = normalise_doi(r["doi"])
                r["ntitle"] = normalise_title(r["title"])
                r["surname"] = normalise_name(_last(r["authors"][0])) if r["authors"] else ""
            self._works = rows
        return self._works

    def _by(
        self,
        *,
        doi: str | None = None,
        arxiv: str | None = None,
        title: str | None = None,
        surname: str | None = None,
        year: int | None = None,
    ) -> tuple[str, ...]:
        from sciverify.ingest.identity import normalise_arxiv, normalise_doi, normalise_title

        works = self.works()
        if doi and (nd := normalise_doi(doi)):
            hits = [w["paper_id"] for w in works if w["ndoi"] == nd]
            if hits:
                return tuple(hits)
        if arxiv:
            key = normalise_arxiv(arxiv)[0]
            hits = [
                w["paper_id"] for w in works if key and normalise_arxiv(w["arxiv_id"])[0] == key
            ]
            if hits:
                return tuple(hits)
        if title and len(nt := normalise_title(title)) > 15:
            hits = [w["paper_id"] for w in works if w["ntitle"] and _same_title(nt, w["ntitle"])]
            if hits:
                return tuple(hits)
            untitled = self._untitled(nt)
            if untitled:
                return untitled
        if surname:
            hits = [
                w["paper_id"]
                for w in works
                if w["surname"] == surname and (year is None or w["year"] == year)
            ]
            return tuple(hits)
        return ()

    def _untitled(self, title: str) -> tuple[str, ...]:
        """The one work without a title (a garbled or scanned title page gives none) whose text
        holds nearly every content word of the reference's `title` (normalised, five words or
        more; the title's own spelling, "Aedes aegypti", may be on the garbled page only):
        otherwise each claim citing it would read as citing a paper the corpus lacks."""
        words = {w for w in title.split() if w not in _TITLE_STOPWORDS and len(w) > 2}
        if len(words) < _UNTITLED_MIN_WORDS:
            return ()
        if self._untitled_text is None:
            from sciverify.ingest.identity import normalise_title

            untitled = [w["paper_id"] for w in self.works() if not w["ntitle"]]
            rows = (
                self._store.rows(
                    "SELECT paper_id, string_agg(text, ' ') AS text FROM chunks"
                    f" WHERE paper_id IN ({', '.join('?' * len(untitled))}) GROUP BY paper_id",
                    untitled,
                )
                if untitled
                else []
            )
            self._untitled_text = {
                r["paper_id"]: frozenset(normalise_title(r["text"]).split()) for r in rows
            }
        need = _UNTITLED_SHARE * len(words)
        hits = tuple(pid for pid, text in self._untitled_text.items() if len(words & text) >= need)
        return hits if len(hits) == 1 else ()

    def _titled_in(self, raw: str) -> tuple[str, ...]:
        """Works whose whole title (three words or more) appears in a reference entry."""
        from sciverify.ingest.identity import normalise_title

        text = f" {normalise_title(raw)} "
        return tuple(
            w["paper_id"]
            for w in self.works()
            if len(w["ntitle"].split()) >= 3 and f" {w['ntitle']} " in text
        )

    def _near_year(self, surname: str, year: int) -> tuple[str, ...]:
        """The one work of this first author dated a year off or undated (preprint against
        publication year, or metadata without a year); several candidates match none."""
        hits = [
            w["paper_id"]
            for w in self.works()
            if w["surname"] == surname and (w["year"] is None or abs(w["year"] - year) <= 1)
        ]
        return tuple(hits) if len(hits) == 1 else ()

    def resolve(self, citation: Citation) -> list[Source]:
        """What each key of the citation points at. A footnote that is a note points at none,
        nor does a superscript number with no entry of that number in the draft's reference
        list: it is more likely an exponent than a source."""
        return [
            self._resolve_key(citation.style, key)
            for key in citation.keys
            if not (citation.style == "footnote" and key in self._notes)
            and not (citation.style == "superscript" and key not in self._refs)
        ]

    def _resolve_key(self, style: str, key: str) -> Source:
        cached = self._cache.get((style, key))
        if cached is None:
            cached = self._cache[(style, key)] = self._lookup(style, key)
        return cached

    def _lookup(self, style: str, key: str) -> Source:
        if style == "pandoc":
            entry = self._bib.get(key)
            if entry is None:
                return Source(key, f"@{key} (not in the BibTeX file)")
            ids = self._by(doi=entry.doi, arxiv=entry.arxiv_id, title=entry.title)
            label = f"@{key}" + (f": {entry.title}" if entry.title else "")
            return Source(key, label, ids)
        if style == "footnote":
            ref = self._refs.get(f"^{key}")
            if ref is None:
                return Source(key, f"[^{key}] (the draft defines no such footnote)")
            return self._numbered(key, ref, f"[^{key}]")
        if style in ("numeric", "superscript"):
            ref = self._refs.get(key)
            if ref is None:
                return Source(key, f"[{key}] (no such entry in the draft's reference list)")
            return self._numbered(key, ref, f"[{key}]")
        if style == "author_year":
            surname, _, year = key.partition(":")
            number = int(year) if year.isdigit() else None
            ids = self._by(surname=surname, year=number)
            # The draft's own reference entry names the paper: a corpus whose metadata gives
            # the preprint's year (or none) still matches it by title.
            for ref in self._refs.values():
                if ids:
                    break
                first = normalise_name(_last(ref.authors[0])) if ref.authors else ""
                if first == surname and (number is None or ref.year == number):
                    ids = self._by(doi=ref.doi, arxiv=ref.arxiv_id, title=ref.title)
                    ids = ids or self._titled_in(ref.raw)
            if not ids and number is not None:
                ids = self._near_year(surname, number)
            return Source(key, f"{surname.capitalize()} ({year})", ids)
        if style == "doi":
            return Source(key, f"doi:{key}", self._by(doi=key))
        return Source(key, f"arXiv:{key}", self._by(arxiv=key))

    def _numbered(self, key: str, ref: Any, mark: str) -> Source:
        """The works an entry of the draft's reference list (or a footnote) names."""
        surname = normalise_name(_last(ref.authors[0])) if ref.authors else None
        ids = self._by(doi=ref.doi, arxiv=ref.arxiv_id, title=ref.title)
        ids = ids or self._titled_in(ref.raw)
        if not ids and surname and ref.year:
            ids = self._by(surname=surname, year=ref.year)
        return Source(key, f"{mark} {_short(ref.raw)}", ids)


_BULLET = re.compile(r"^\s*[-*+•]\s+")
# Words of a title that say nothing of which paper it is.
_TITLE_STOPWORDS = frozenset(
    split_words("the and for with from into onto over under via its their this that are was")
)
_UNTITLED_MIN_WORDS = 5
_UNTITLED_SHARE = 0.85


def _last(author: str) -> str:
    """The surname of "Kelly J. Robinson", "Robinson, K. J." or "Robinson KJ"."""
    if "," in author:
        return author.split(",")[0].strip()
    parts = author.split()
    if len(parts) >= 2 and re.fullmatch(r"[A-Z]{1,3}\.?", parts[-1]):
        return parts[0]
    return parts[-1] if parts else ""


def _same_title(a: str, b: str) -> bool:
    if a == b:
        return True
    ta, tb = set(a.split()), set(b.split())
    return len(ta & tb) / max(len(ta | tb), 1) >= 0.85


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
