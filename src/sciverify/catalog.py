"""Read what the store holds: paper lists and one paper's metadata, versions and sections."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sciverify.errors import InputError
from sciverify.store.db import Store

_YEARS = re.compile(r"\s*(\d{4})?\s*(\.\.)?\s*(\d{4})?\s*")
YEARS_HINT = "use 2019, 2015..2020, 2015.. or ..2020"


def parse_years(text: str | None) -> tuple[int | None, int | None]:
    """'2015' -> (2015, 2015); '2015..2020' -> (2015, 2020); '..2020' -> (None, 2020).

    None means no bound. Raises InputError for anything else, or a reversed range.
    """
    if text is None:
        return None, None
    match = _YEARS.fullmatch(text)
    if not match or not (match.group(1) or match.group(3)) or (
        match.group(2) is None and match.group(3)
    ):
        raise InputError(f"year {text!r} is not a year or range", hint=YEARS_HINT)
    low = int(match.group(1)) if match.group(1) else None
    high = int(match.group(3)) if match.group(3) else (low if match.group(2) is None else None)
    if low is not None and high is not None and low > high:
        raise InputError(f"year {text!r}: the range starts after it ends", hint=YEARS_HINT)
    return low, high


@dataclass(frozen=True, slots=True)
class PaperFilter:
    year_from: int | None = None
    year_to: int | None = None
    title_contains: str | None = None
    venue: str | None = None
    limit: int | None = None


def list_papers(store: Store, filters: PaperFilter = PaperFilter()) -> list[dict[str, Any]]:
    """Stored works, newest year first then by id, each with its version count and kinds."""
    where: list[str] = ["1=1"]
    params: list[Any] = []
    if filters.year_from is not None:
        where.append("w.year >= ?")
        params.append(filters.year_from)
    if filters.year_to is not None:
        where.append("w.year <= ?")
        params.append(filters.year_to)
    if filters.title_contains:
        where.append("w.title ILIKE ?")
        params.append(f"%{filters.title_contains}%")
    if filters.venue:
        where.append("w.venue ILIKE ?")
        params.append(f"%{filters.venue}%")
    sql = (
        "SELECT w.paper_id, w.title, w.authors, w.year, w.doi, w.arxiv_id, w.venue,"
        " w.current_version_id, count(v.version_id) AS versions,"
        " list(v.kind ORDER BY v.retrieved_at) AS version_kinds,"
        " max(v.page_count) AS pages"
        " FROM works w JOIN versions v USING (paper_id)"
        f" WHERE {' AND '.join(where)}"
        " GROUP BY ALL ORDER BY w.year DESC NULLS LAST, w.paper_id"
    )
    if filters.limit:
        sql += " LIMIT ?"
        params.append(filters.limit)
    return store.rows(sql, params)


def get_paper(store: Store, paper_id: str) -> dict[str, Any]:
    """One work: metadata, every version, and the current version's sections with pages."""
    rows = store.rows("SELECT * FROM works WHERE paper_id = ?", [paper_id])
    if not rows:
        close = store.rows(
            "SELECT paper_id FROM works ORDER BY jaro_winkler_similarity(paper_id, ?) DESC LIMIT 3",
            [paper_id],
        )
        hint = "see `sciverify papers`"
        if close:
            hint = "did you mean: " + ", ".join(r["paper_id"] for r in close) + "?"
        raise InputError(f"no paper with id {paper_id!r} in this corpus", hint=hint)
    paper = rows[0]
    paper["versions"] = store.rows(
        "SELECT version_id, kind, label, source_path, sha256, parser, parser_version, page_count,"
        " license, retrieved_at, version_id = ? AS is_current FROM versions WHERE paper_id = ?"
        " ORDER BY retrieved_at",
        [paper["current_version_id"], paper_id],
    )
    paper["sections"] = store.rows(
        "SELECT s.ordinal, s.heading, s.kind, s.level, s.page,"
        " (SELECT max(b.page) FROM blocks b WHERE b.version_id = s.version_id"
        "  AND b.section_ordinal = s.ordinal) AS last_page, length(s.text) AS chars"
        " FROM sections s WHERE s.version_id = ? ORDER BY s.ordinal",
        [paper["current_version_id"]],
    )
    paper["references"] = store.scalar(
        'SELECT count(*) FROM "references" WHERE version_id = ?', [paper["current_version_id"]]
    )
    return paper
