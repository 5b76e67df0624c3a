"""Rebuild a stored version as a ParsedDocument, so later stages read exactly what ingest stored."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sciverify.records import Block, ParsedDocument, Reference, Section
from sciverify.store.db import Store


def load_documents(store: Store, version_ids: list[str]) -> dict[str, ParsedDocument]:
    """version_id -> ParsedDocument for the given versions (missing ids are left out)."""
    if not version_ids:
        return {}
    versions = store.rows(
        "SELECT * FROM versions WHERE version_id IN (SELECT unnest(?))", [version_ids]
    )
    blocks: dict[tuple[str, int], list[Block]] = defaultdict(list)
    cur = store.execute(
        "SELECT version_id, section_ordinal, kind, text, page, x0, y0, x1, y1, ref FROM blocks"
        " WHERE version_id IN (SELECT unnest(?)) ORDER BY version_id, section_ordinal, ordinal",
        [version_ids],
    )
    for vid, s_ord, kind, text, page, x0, y0, x1, y1, ref in cur.fetchall():
        bbox = (x0, y0, x1, y1) if x0 is not None else None
        blocks[(vid, s_ord)].append(Block(text, kind, page, bbox, ref))
    sections: dict[str, list[Section]] = defaultdict(list)
    cur = store.execute(
        "SELECT version_id, ordinal, heading, kind, level FROM sections"
        " WHERE version_id IN (SELECT unnest(?)) ORDER BY version_id, ordinal",
        [version_ids],
    )
    for vid, s_ord, heading, kind, level in cur.fetchall():
        sections[vid].append(Section(heading, kind, tuple(blocks[(vid, s_ord)]), level))
    refs: dict[str, list[Reference]] = defaultdict(list)
    cur = store.execute(
        'SELECT version_id, raw, title, authors, year, doi, arxiv_id, venue FROM "references"'
        " WHERE version_id IN (SELECT unnest(?)) ORDER BY version_id, ordinal",
        [version_ids],
    )
    for vid, raw, title, authors, year, doi, arxiv_id, venue in cur.fetchall():
        refs[vid].append(Reference(raw, title, tuple(authors or ()), year, doi, arxiv_id, venue))
    out: dict[str, ParsedDocument] = {}
    for v in versions:
        out[v["version_id"]] = _document(v, sections[v["version_id"]], refs[v["version_id"]])
    return out


def _document(v: dict[str, Any], sections: list[Section], refs: list[Reference]) -> ParsedDocument:
    abstract = "\n\n".join(s.text for s in sections if s.kind == "abstract") or None
    return ParsedDocument(
        title=v["title"],
        authors=tuple(v["authors"] or ()),
        abstract=abstract,
        doi=v["doi"],
        arxiv_id=v["arxiv_id"],
        year=v["year"],
        venue=v["venue"],
        license=v["license"],
        version_kind=v["kind"],
        version_label=v["label"],
        page_count=v["page_count"],
        sections=tuple(sections),
        references=tuple(refs),
        parser=v["parser"],
        parser_version=v["parser_version"],
        warnings=tuple(v["warnings"] or ()),
        source_id=v["source_record_id"],
    )
