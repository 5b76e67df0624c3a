"""ingest: PDFs and paper records -> works, versions, sections, blocks, references.

Each file is stored in one transaction, so an interrupted run leaves the store as it was before
the unfinished file and the next run resumes. Unchanged files are skipped by their sha256.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciverify.config import Settings
from sciverify.errors import EnvironmentProblem, InputError, ParseError, SciverifyError
from sciverify.ingest.identity import normalise_arxiv, normalise_doi, paper_id_for
from sciverify.ingest.jsonl import is_records_file, read_records
from sciverify.progress import NO_PROGRESS, Progress
from sciverify.records import ParsedDocument
from sciverify.store.db import Store, now

log = logging.getLogger(__name__)

PDF_SUFFIXES = (".pdf",)
_RECORD_BATCH = 1000


@dataclass(frozen=True, slots=True)
class IngestFailure:
    path: str
    reason: str
    hint: str | None = None


@dataclass
class IngestReport:
    """What one ingest run did. `rows()` feeds the summary table."""

    papers: int = 0
    versions: int = 0
    pages: int = 0
    sections: int = 0
    blocks: int = 0
    references: int = 0
    skipped: int = 0
    # Skipped files whose stored text an older revision of the PDF parser read; a parser fix
    # reaches them only when they are ingested into a new corpus.
    outdated: int = 0
    failures: list[IngestFailure] = field(default_factory=list)
    seconds: float = 0.0
    paper_ids: list[str] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len(self.failures)

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "papers": self.papers,
                "versions": self.versions,
                "pages": self.pages,
                "sections": self.sections,
                "blocks": self.blocks,
                "references": self.references,
                "skipped": self.skipped,
                "failed": self.failed,
                "seconds": round(self.seconds, 2),
            }
        ]


# -- parsers ---------------------------------------------------------------------------------


def _parse_pymupdf(path: Path, settings: Settings) -> ParsedDocument:
    from sciverify.ingest.pymupdf import parse_pdf

    return parse_pdf(path, ocr=settings.ingest.ocr)


def _parse_grobid(path: Path, settings: Settings) -> ParsedDocument:
    from sciverify.ingest.grobid import parse_with_grobid

    return parse_with_grobid(
        path, url=settings.ingest.grobid_url, timeout=settings.ingest.grobid_timeout
    )


PARSERS: dict[str, Callable[[Path, Settings], ParsedDocument]] = {
    "pymupdf": _parse_pymupdf,
    "grobid": _parse_grobid,
}


def _parse_job(parser: str, path: str, settings_json: str) -> tuple[str, Any]:
    """Runs in a worker process: `_parse_outcome` with settings sent as JSON."""
    return _parse_outcome(parser, Path(path), Settings.model_validate_json(settings_json))


def _parse_outcome(parser: str, path: Path, settings: Settings) -> tuple[str, Any]:
    """("ok", doc) or ("error", (reason, hint, is_environment_problem)); never raises."""
    try:
        return "ok", PARSERS[parser](path, settings)
    except SciverifyError as exc:
        return "error", (exc.message, exc.hint, isinstance(exc, EnvironmentProblem))
    except Exception as exc:  # noqa: BLE001 - a parser bug must not end the batch
        return "error", (f"parser failed: {type(exc).__name__}: {exc}", "please report this", False)


# -- inputs ----------------------------------------------------------------------------------


def expand_paths(paths: Iterable[Path | str]) -> Iterator[Path]:
    """Files to ingest: folders recurse (PDFs and records files), files are taken as given."""
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and (p.suffix.lower() in PDF_SUFFIXES or is_records_file(p))
            )
            candidates: Iterable[Path] = found
        else:
            candidates = [path]
        for candidate in candidates:
            key = candidate.resolve() if candidate.exists() else candidate
            if key not in seen:
                seen.add(key)
                yield candidate


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_readable(path: Path) -> None:
    if not path.exists():
        raise InputError("no such file", path=path, hint="check the path")
    if not path.is_file():
        raise InputError("not a regular file", path=path, hint="pass PDFs, records files or folders")
    suffix_ok = path.suffix.lower() in PDF_SUFFIXES or is_records_file(path)
    if not suffix_ok:
        raise InputError(
            f"unsupported file type {path.suffix or '(none)'}",
            path=path,
            hint="sciverify ingests .pdf files and .jsonl / .jsonl.gz paper records",
        )


# -- storing ---------------------------------------------------------------------------------


def _insert_columns(conn: Any, table: str, columns: dict[str, list[Any]]) -> None:
    """Insert rows given column-wise: one statement, fast for thousands of rows."""
    if not columns or not next(iter(columns.values())):
        return
    names = ", ".join(columns)
    selects = ", ".join("unnest(?)" for _ in columns)
    conn.execute(f"INSERT INTO {table} ({names}) SELECT {selects}", list(columns.values()))


@dataclass(frozen=True, slots=True)
class _Source:
    path: Path
    sha256: str
    size: int | None
    record_id: str | None = None


def _store_documents(conn: Any, items: list[tuple[ParsedDocument, _Source]]) -> list[tuple[str, bool]]:
    """Write versions (and their works) inside the caller's transaction, column-wise in bulk.

    Returns (paper_id, is_new_paper) per item.
    """
    stamp = now()
    ver: dict[str, list[Any]] = {k: [] for k in (
        "version_id", "paper_id", "sha256", "kind", "label", "source_path", "source_size",
        "source_record_id", "license", "parser", "parser_version", "page_count", "title", "authors",
        "doi", "arxiv_id", "year", "venue", "warnings", "retrieved_at")}
    sec: dict[str, list[Any]] = {k: [] for k in SECTION_COLUMNS}
    blk: dict[str, list[Any]] = {k: [] for k in BLOCK_COLUMNS}
    refs: dict[str, list[Any]] = {k: [] for k in REFERENCE_COLUMNS}
    out: list[tuple[str, bool]] = []
    paper_ids = [paper_id_for(doc, record_id=src.record_id) for doc, src in items]
    existing = {
        row[0]
        for row in conn.execute(
            "SELECT paper_id FROM works WHERE paper_id IN (SELECT unnest(?))", [paper_ids]
        ).fetchall()
    }
    new_ids: list[str] = []
    for (doc, src), paper_id in zip(items, paper_ids, strict=True):
        version_id = src.sha256[:24]
        arxiv, arxiv_label = normalise_arxiv(doc.arxiv_id)
        values = (
            version_id, paper_id, src.sha256, str(doc.version_kind),
            doc.version_label or arxiv_label, str(src.path.resolve()), src.size, src.record_id, doc.license,
            doc.parser, doc.parser_version, doc.page_count, doc.title, list(doc.authors),
            normalise_doi(doc.doi), arxiv, doc.year, doc.venue, list(doc.warnings), stamp,
        )
        for key, value in zip(ver, values, strict=True):
            ver[key].append(value)
        _collect_structure(version_id, doc, sec, blk, refs)
        is_new = paper_id not in existing
        if is_new:
            existing.add(paper_id)
            new_ids.append(paper_id)
        out.append((paper_id, is_new))
    _insert_columns(conn, "versions", ver)
    _insert_columns(conn, "sections", sec)
    _insert_columns(conn, "blocks", blk)
    _insert_columns(conn, '"references"', refs)
    _insert_columns(conn, "works", {"paper_id": new_ids, "created_at": [stamp] * len(new_ids),
                                    "updated_at": [stamp] * len(new_ids)})
    _choose_current_versions(conn, sorted(set(paper_ids)), stamp)
    return out


SECTION_COLUMNS = ("version_id", "ordinal", "heading", "kind", "level", "page", "text")
BLOCK_COLUMNS = ("version_id", "section_ordinal", "ordinal", "kind", "text", "page",
                 "x0", "y0", "x1", "y1", "ref")
REFERENCE_COLUMNS = ("version_id", "ordinal", "raw", "title", "authors", "year", "doi",
                     "arxiv_id", "venue")


def _collect_structure(version_id: str, doc: ParsedDocument, sec: dict[str, list[Any]],
                       blk: dict[str, list[Any]], refs: dict[str, list[Any]]) -> None:
    for s_ord, section in enumerate(doc.sections, start=1):
        for key, value in zip(sec, (version_id, s_ord, section.heading or "", str(section.kind),
                                    section.level, section.page, section.text), strict=True):
            sec[key].append(value)
        for b_ord, block in enumerate(section.blocks, start=1):
            box = block.bbox or (None, None, None, None)
            for key, value in zip(blk, (version_id, s_ord, b_ord, str(block.kind), block.text,
                                        block.page, *box, block.ref), strict=True):
                blk[key].append(value)
    for r_ord, ref in enumerate(doc.references, start=1):
        values: tuple[Any, ...] = (version_id, r_ord, ref.raw, ref.title, list(ref.authors),
                                   ref.year, normalise_doi(ref.doi),
                                   normalise_arxiv(ref.arxiv_id)[0], ref.venue)
        for key, value in zip(refs, values, strict=True):
            refs[key].append(value)


def _choose_current_versions(conn: Any, paper_ids: list[str], stamp: Any) -> None:
    """Published beats accepted beats preprint; a higher arXiv vN beats a lower; then the newest."""
    conn.execute(
        """
        WITH ranked AS (
            SELECT paper_id, version_id, title, authors, year, doi, arxiv_id, venue,
                   row_number() OVER (
                       PARTITION BY paper_id
                       ORDER BY CASE kind WHEN 'published' THEN 3 WHEN 'accepted' THEN 2
                                          WHEN 'preprint' THEN 1 ELSE 0 END DESC,
                                coalesce(try_cast(substr(label, 2) AS INTEGER), 0) DESC,
                                retrieved_at DESC, version_id DESC) AS pick
            FROM versions WHERE paper_id IN (SELECT unnest(?))
        ), best AS (
            SELECT r.*, (SELECT string_agg(s.text, chr(10) || chr(10) ORDER BY s.ordinal)
                         FROM sections s
                         WHERE s.version_id = r.version_id AND s.kind = 'abstract') AS abstract
            FROM ranked r WHERE pick = 1
        )
        UPDATE works SET current_version_id = best.version_id, title = best.title,
            authors = best.authors, year = best.year, doi = best.doi, arxiv_id = best.arxiv_id,
            venue = best.venue, abstract = best.abstract, updated_at = ?
        FROM best WHERE works.paper_id = best.paper_id
        """,
        [paper_ids, stamp],
    )


def _record_failure(store: Store, report: IngestReport, failure: IngestFailure,
                    sha256: str | None = None) -> None:
    report.failures.append(failure)
    log.info("failed: %s: %s", failure.path, failure.reason)
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO ingest_errors (source_path, sha256, reason, hint, occurred_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [failure.path, sha256, failure.reason, failure.hint, now()],
        )


def _stored_hashes(store: Store, parser: str) -> tuple[set[str], set[str]]:
    """The files the store has (by SHA-256), and those of them whose text an older revision
    of `parser` read (PyMuPDF's revisions are ours; a GROBID server's are not)."""
    from sciverify.ingest.pymupdf import PARSER, PARSER_REVISION

    rows = store.execute("SELECT sha256, parser, parser_version FROM versions").fetchall()
    current = f"{PARSER_REVISION} "
    outdated = {
        sha
        for sha, by, version in rows
        if parser == PARSER and by == PARSER and not version.startswith(current)
    }
    return {row[0] for row in rows}, outdated


# -- the stage -------------------------------------------------------------------------------


def ingest(
    paths: Iterable[Path | str],
    *,
    store: Store,
    settings: Settings,
    progress: Progress = NO_PROGRESS,
    fail_fast: bool = False,
) -> IngestReport:
    """Parse PDFs and records files into the store. Bad files are reported, never fatal.

    Args:
        paths: files or folders (folders recurse over .pdf, .jsonl and .jsonl.gz).
        store: an open, writable store.
        settings: parser choice and options (settings.ingest).
        progress: receives one step per file.
        fail_fast: stop at the first failing file.

    Returns:
        An IngestReport with counts and one IngestFailure per bad file or record.

    Raises:
        EnvironmentProblem: the parser backend is unavailable (e.g. GROBID unreachable).
    """
    parser = settings.ingest.parser
    if parser not in PARSERS:
        raise InputError(
            f"unknown parser {parser!r}", hint=f"choose one of: {', '.join(sorted(PARSERS))}"
        )
    started = time.perf_counter()
    report = IngestReport()
    files = list(expand_paths(paths))
    known, outdated = _stored_hashes(store, parser)
    progress.start(len(files), "ingest")
    pdfs: list[_Source] = []
    try:
        for path in files:
            try:
                _check_readable(path)
                if is_records_file(path):
                    _ingest_records(path, store, report, known, fail_fast)
                    progress.advance()
                    continue
                sha = sha256_file(path)
            except SciverifyError as exc:
                _record_failure(store, report, IngestFailure(str(path), exc.message, exc.hint))
                progress.advance()
                if fail_fast:
                    break
                continue
            except OSError as exc:
                _record_failure(store, report, IngestFailure(
                    str(path), f"cannot read file: {exc.strerror}", "check permissions"))
                progress.advance()
                if fail_fast:
                    break
                continue
            if sha in known:
                report.skipped += 1
                report.outdated += int(sha in outdated)
                progress.advance()
                continue
            known.add(sha)
            pdfs.append(_Source(path, sha, path.stat().st_size))
        if not (fail_fast and report.failed):
            _ingest_pdfs(pdfs, store, settings, report, progress, fail_fast)
    finally:
        progress.done()
        report.seconds = time.perf_counter() - started
    return report


def _ingest_pdfs(sources: list[_Source], store: Store, settings: Settings, report: IngestReport,
                 progress: Progress, fail_fast: bool) -> None:
    parser = settings.ingest.parser
    jobs = min(settings.ingest.jobs, max(1, len(sources)))

    def handle(src: _Source, outcome: tuple[str, Any]) -> bool:
        status, value = outcome
        progress.advance()
        if status == "error":
            reason, hint, is_env = value
            if is_env:
                raise EnvironmentProblem(reason, path=src.path, hint=hint)
            _record_failure(store, report, IngestFailure(str(src.path), reason, hint), src.sha256)
            return not fail_fast
        _commit_document(store, report, value, src)
        return True

    if jobs <= 1:
        for src in sources:
            if not handle(src, _parse_outcome(parser, src.path, settings)):
                return
        return
    payload = settings.model_dump_json()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: dict[Future[tuple[str, Any]], _Source] = {}
        queue = iter(sources)
        try:
            # Keep a bounded number of files in flight, so memory stays flat on huge batches.
            for src in queue:
                pending[pool.submit(_parse_job, parser, str(src.path), payload)] = src
                if len(pending) >= jobs * 2:
                    break
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: str(pending[f].path)):
                    src = pending.pop(fut)
                    if not handle(src, fut.result()):
                        return
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(_parse_job, parser, str(nxt.path), payload)] = nxt
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _commit_document(store: Store, report: IngestReport, doc: ParsedDocument, src: _Source) -> None:
    with store.transaction() as conn:
        ((paper_id, new_paper),) = _store_documents(conn, [(doc, src)])
    report.versions += 1
    report.papers += int(new_paper)
    report.pages += doc.page_count
    report.sections += len(doc.sections)
    report.blocks += sum(len(s.blocks) for s in doc.sections)
    report.references += len(doc.references)
    report.paper_ids.append(paper_id)
    log.info("stored %s as %s (%d pages)", src.path, paper_id, doc.page_count)
    for warning in doc.warnings:
        log.info("%s: %s", src.path, warning)


def _ingest_records(path: Path, store: Store, report: IngestReport, known: set[str],
                    fail_fast: bool) -> None:
    """A records file: batches of records per transaction; bad lines are reported by file:line."""
    batch: list[tuple[ParsedDocument, _Source]] = []

    def flush() -> None:
        if not batch:
            return
        with store.transaction() as conn:
            stored = _store_documents(conn, batch)
        for (doc, _src), (paper_id, new_paper) in zip(batch, stored, strict=True):
            report.versions += 1
            report.papers += int(new_paper)
            report.sections += len(doc.sections)
            report.blocks += sum(len(s.blocks) for s in doc.sections)
            report.paper_ids.append(paper_id)
        batch.clear()

    for line in read_records(path):
        if line.error is not None:
            err = line.error
            where = f"{path}:{line.lineno}"
            _record_failure(store, report, IngestFailure(where, err.message, err.hint))
            if fail_fast:
                break
            continue
        if line.sha256 in known:
            report.skipped += 1
            continue
        if line.doc is None:
            continue
        known.add(line.sha256)
        batch.append((line.doc, _Source(path, line.sha256, None, line.record_id)))
        if len(batch) >= _RECORD_BATCH:
            flush()
    flush()


__all__ = ["PARSERS", "IngestFailure", "IngestReport", "ParseError", "expand_paths", "ingest"]
