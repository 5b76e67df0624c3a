"""Work identity: a stable paper_id from DOI, else arXiv id, else normalised title + author + year."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from sciverify.records import ParsedDocument, VersionKind

_DOI_RE = re.compile(r"10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_ARXIV_RE = re.compile(r"(?:arxiv:\s*)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?",
                       re.IGNORECASE)

_KIND_RANK: dict[str, int] = {VersionKind.published: 3, VersionKind.accepted: 2, VersionKind.preprint: 1}


def normalise_doi(doi: str | None) -> str | None:
    if not doi:
        return None
    match = _DOI_RE.search(doi.strip())
    if not match:
        return None
    return match.group(0).rstrip(".,;)]}").lower()


def normalise_arxiv(arxiv_id: str | None) -> tuple[str | None, str | None]:
    """('2302.07302', 'v1') from 'arXiv:2302.07302v1'; the version part may be None."""
    if not arxiv_id:
        return None, None
    match = _ARXIV_RE.search(arxiv_id.strip())
    if not match:
        return None, None
    return match.group(1).lower(), (match.group(2) or None)


def normalise_title(title: str | None) -> str:
    if not title:
        return ""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _slug(text: str, limit: int) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")


def _surname(author: str) -> str:
    name = normalise_title(author)
    if "," in author:  # "Smith, J."
        name = normalise_title(author.split(",")[0])
        return name.split()[0] if name else ""
    parts = name.split()
    return parts[-1] if parts else ""


def paper_id_for(doc: ParsedDocument, *, record_id: str | None = None) -> str:
    """The work's id. Readable, deterministic, and the same for every file of one work.

    When a record has neither DOI, arXiv id, author nor year, a title alone is too weak an
    identity (benchmark corpora hold several papers titled "Summary"), so the record's own id
    joins the key.
    """
    doi = normalise_doi(doc.doi)
    if doi:
        return "doi-" + _slug(doi, 80)
    arxiv, _ = normalise_arxiv(doc.arxiv_id)
    if arxiv:
        return "arxiv-" + _slug(arxiv, 40)
    title = normalise_title(doc.title)
    surname = _surname(doc.authors[0]) if doc.authors else ""
    year = str(doc.year) if doc.year else ""
    key = f"{title}|{surname}|{year}"
    if not surname and not year and record_id is not None:
        key += f"|id={record_id}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:8]
    words = [w for w in title.split() if len(w) > 3][:2] or ["untitled"]
    head = f"{surname}{year}" if (surname or year) else ""
    return "-".join(p for p in (head, _slug(" ".join(words), 30), digest) if p)


def version_rank(kind: str, label: str | None) -> tuple[int, int]:
    """Sort key for choosing the current version: published > accepted > preprint; higher vN wins."""
    number = int(label[1:]) if label and re.fullmatch(r"v\d+", label) else 0
    return _KIND_RANK.get(kind, 0), number
