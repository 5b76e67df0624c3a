"""JSONL paper records and the BEIR corpus format (.jsonl or .jsonl.gz), one record per line."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sciverify.errors import ParseError
from sciverify.records import Block, BlockKind, ParsedDocument, Section, SectionKind, VersionKind

PARSER_VERSION = "sciverify-jsonl/1"
_HINT = 'each line must be a JSON object with "id", "title" and "abstract" or "text"'


@dataclass(frozen=True, slots=True)
class RecordLine:
    lineno: int
    sha256: str
    record_id: str | None
    doc: ParsedDocument | None
    error: ParseError | None


def is_records_file(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith((".jsonl", ".jsonl.gz", ".ndjson"))


def _open(path: Path) -> Any:
    if path.name.lower().endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):  # SciFact's corpus stores the abstract as a list of sentences
        value = " ".join(str(v).strip() for v in value if v)
    text = str(value).strip()
    return text or None


def _authors(value: Any) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        parts = value.split(";") if ";" in value else value.split(" and ")
        return tuple(p.strip() for p in parts if p.strip())
    out = []
    for item in value:
        if isinstance(item, dict):
            name = item.get("name") or " ".join(
                str(item.get(k, "")) for k in ("given", "family") if item.get(k)
            )
            if name:
                out.append(str(name).strip())
        elif item:
            out.append(str(item).strip())
    return tuple(out)


def _year(value: Any, where: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        year = int(str(value)[:4])
    except ValueError:
        raise ParseError(f'{where}: field "year" is not a year: {value!r}', hint=_HINT) from None
    return year


def _version_kind(value: Any, where: str) -> str:
    if value in (None, ""):
        return VersionKind.unknown
    if str(value) not in VersionKind.__members__:
        choices = ", ".join(VersionKind.__members__)
        raise ParseError(f'field "version_kind" must be one of {choices}, got {value!r}', hint=_HINT)
    return VersionKind(str(value))


def record_to_document(obj: Any, where: str) -> tuple[str | None, ParsedDocument]:
    if not isinstance(obj, dict):
        raise ParseError(f"expected a JSON object, got {type(obj).__name__}", hint=_HINT)
    record_id = obj.get("id", obj.get("_id", obj.get("doc_id")))
    record_id = None if record_id is None else str(record_id)
    title = _text(obj.get("title"))
    body = _text(obj.get("abstract")) or _text(obj.get("text"))
    if not title and not body:
        raise ParseError(f'{where}: record has neither "title" nor "abstract"/"text"', hint=_HINT)
    sections: tuple[Section, ...] = ()
    if body:
        kind = SectionKind.abstract if obj.get("abstract") or "text" in obj else SectionKind.other
        sections = (Section("Abstract", kind, (Block(body, BlockKind.text),)),)
    doc = ParsedDocument(
        title=title,
        authors=_authors(obj.get("authors")),
        abstract=body,
        doi=_text(obj.get("doi")),
        arxiv_id=_text(obj.get("arxiv_id") or obj.get("arxiv")),
        year=_year(obj.get("year"), where),
        venue=_text(obj.get("venue") or obj.get("journal")),
        license=_text(obj.get("license")),
        sections=sections,
        version_kind=_version_kind(obj.get("version_kind"), where),
        version_label=_text(obj.get("version_label")),
        parser="jsonl",
        parser_version=PARSER_VERSION,
        source_id=record_id,
    )
    return record_id, doc


def read_records(path: Path) -> Iterator[RecordLine]:
    """Every line of a records file, parsed or with its error; blank lines are skipped."""
    try:
        stream = _open(path)
        with stream:
            for lineno, line in enumerate(stream, start=1):
                if not line.strip():
                    continue
                where = f"{path}:{lineno}"
                digest = hashlib.sha256(line.strip().encode("utf-8")).hexdigest()
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    err = ParseError(f"malformed JSON ({exc.msg})", hint=_HINT)
                    yield RecordLine(lineno, digest, None, None, err)
                    continue
                try:
                    record_id, doc = record_to_document(obj, where)
                except ParseError as err:
                    yield RecordLine(lineno, digest, None, None, err)
                    continue
                yield RecordLine(lineno, digest, record_id, doc, None)
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        raise ParseError(
            f"cannot read records file: {exc}", path=path, hint="check the file is UTF-8 JSONL (.gz ok)"
        ) from exc
