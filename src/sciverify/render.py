"""Renderers: one registry from --format to a writer over rows (dicts). Commands never format."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, Any


class Format(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    md = "md"


def _default(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=_default)


def _flat(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict, tuple)):
        return dumps(value)
    return str(value)


def write_json(rows: Sequence[dict[str, Any]], out: IO[str], **_: Any) -> None:
    out.write(json.dumps(list(rows), ensure_ascii=False, indent=2, default=_default) + "\n")


def write_jsonl(rows: Iterable[dict[str, Any]], out: IO[str], **_: Any) -> None:
    for row in rows:
        out.write(dumps(row) + "\n")
        out.flush()


def write_csv(rows: Sequence[dict[str, Any]], out: IO[str], **_: Any) -> None:
    columns = _columns(rows)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_flat(row.get(c)) for c in columns])


def _md_cell(value: Any) -> str:
    text = _flat(value).replace("\n", " ").replace("|", "\\|")
    return text.replace("<", "&lt;").replace(">", "&gt;")


def write_md(rows: Sequence[dict[str, Any]], out: IO[str], **_: Any) -> None:
    columns = _columns(rows)
    if not columns:
        out.write("_(no rows)_\n")
        return
    out.write("| " + " | ".join(columns) + " |\n")
    out.write("|" + "---|" * len(columns) + "\n")
    for row in rows:
        out.write("| " + " | ".join(_md_cell(row.get(c)) for c in columns) + " |\n")


def write_table(rows: Sequence[dict[str, Any]], out: IO[str], *, title: str | None = None,
                columns: Sequence[str] | None = None, **_: Any) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(file=out, soft_wrap=False)
    cols = list(columns) if columns else _columns(rows)
    table = Table(title=title, show_lines=False)
    for col in cols:
        table.add_column(col, overflow="fold")
    for row in rows:
        # Text from PDFs and drafts is untrusted: escape rich markup.
        table.add_row(*(escape(_flat(row.get(c))) for c in cols))
    console.print(table)


def _columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    return columns


WRITERS: dict[Format, Callable[..., None]] = {
    Format.table: write_table,
    Format.json: write_json,
    Format.jsonl: write_jsonl,
    Format.csv: write_csv,
    Format.md: write_md,
}


def emit(rows: Sequence[dict[str, Any]], fmt: Format | str, *, out: IO[str] | None = None,
         **options: Any) -> None:
    """Write rows in the chosen format to `out` (stdout by default)."""
    WRITERS[Format(fmt)](rows, out or sys.stdout, **options)


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers never see half of it."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def emit_hits(rows: Sequence[dict[str, Any]], *, title: str, out: IO[str] | None = None) -> None:
    """Search hits as a rich table, query terms highlighted in the snippet."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=out or sys.stdout)
    table = Table(title=title, show_lines=True)
    for col in ("#", "paper / section", "page", "type", "score", "snippet"):
        table.add_column(col, overflow="fold")
    for row in rows:
        snippet = Text(row["snippet"])  # Text never interprets markup: PDF text is untrusted
        for start, end in row.get("highlights", []):
            snippet.stylize("bold yellow", start, end)
        where = Text(f"{row['paper_id']}\n{row['section']}")
        table.add_row(str(row["rank"]), where, str(row["page"] or ""),
                      f"{row['evidence_type']}/{row['kind']}", f"{row['score']:.4g}", snippet)
    console.print(table)
