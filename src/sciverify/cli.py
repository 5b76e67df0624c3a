"""The command line: parse options, call the library, render the result. Nothing else lives here."""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer import _click as click

from sciverify import render
from sciverify.errors import ExitCode, InputError, SciverifyError, UsageError
from sciverify.render import Format

app = typer.Typer(
    name="sciverify",
    help="Turn scientific PDFs into a versioned corpus and check drafts against it, claim by claim.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
db_app = typer.Typer(help="Inspect and migrate the corpus database.", no_args_is_help=True)
config_app = typer.Typer(help="Show the effective settings.", no_args_is_help=True)
eval_app = typer.Typer(help="Measure retrieval and entailment quality.", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.add_typer(config_app, name="config")
app.add_typer(eval_app, name="eval")

F = TypeVar("F", bound=Callable[..., Any])


class CliError(click.ClickException):
    """A SciverifyError as click sees it: the message, the hint, and the error's exit code."""

    def __init__(self, error: SciverifyError):
        super().__init__(str(error))
        self.exit_code = int(error.exit_code)
        self.hint = error.hint

    def format_message(self) -> str:
        return self.message + (f"\nhint: {self.hint}" if self.hint else "")

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def command(target: typer.Typer = app, **kwargs: Any) -> Callable[[F], F]:
    """app.command() that turns SciverifyError into exit codes and Ctrl-C into 130."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kw: Any) -> Any:
            try:
                return fn(*args, **kw)
            except SciverifyError as exc:
                raise CliError(exc) from exc
            except KeyboardInterrupt:
                click.echo("interrupted; the corpus is unchanged past the last finished file",
                           err=True)
                raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

        target.command(**kwargs)(run)
        return fn

    return wrap


# -- shared options ----------------------------------------------------------------------------

CorpusOpt = Annotated[
    Path | None,
    typer.Option("--corpus", help="Corpus folder [env SCIVERIFY_CORPUS; default ./corpora/default]."),
]
FormatOpt = Annotated[
    Format, typer.Option("--format", "-f", help="Output format: table, json, jsonl, csv or md.")
]
OutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write output to this file.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Only warnings and errors on stderr.")]
VerboseOpt = Annotated[int, typer.Option("--verbose", "-v", count=True, help="More logging (-vv).")]


class ParserName(StrEnum):
    pymupdf = "pymupdf"
    grobid = "grobid"


def _setup_logging(verbose: int, quiet: bool) -> None:
    from rich.logging import RichHandler

    level = logging.WARNING if quiet or verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    root = logging.getLogger("sciverify")
    root.handlers.clear()
    from rich.console import Console

    root.addHandler(RichHandler(console=Console(stderr=True), show_path=False, markup=False))
    root.setLevel(level)
    root.propagate = False


class _RichProgress:
    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self._bar = Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=Console(stderr=True), transient=True,
        )
        self._task: Any = None

    def start(self, total: int | None, description: str) -> None:
        if self._task is None:
            self._bar.start()
        else:
            self._bar.remove_task(self._task)
        self._task = self._bar.add_task(description, total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._bar.advance(self._task, n)

    def done(self) -> None:
        pass

    def close(self) -> None:
        if self._task is not None:
            self._bar.stop()


@contextmanager
def cli_progress(quiet: bool = False) -> Iterator[Any]:
    from sciverify.progress import NO_PROGRESS

    if quiet or not sys.stderr.isatty():
        yield NO_PROGRESS
        return
    bar = _RichProgress()
    try:
        yield bar
    finally:
        bar.close()


def _emit(rows: list[dict[str, Any]], fmt: Format, output: Path | None, **options: Any) -> None:
    if output is None:
        render.emit(rows, fmt, **options)
        return
    import io

    buf = io.StringIO()
    render.emit(rows, fmt, out=buf, **options)
    render.write_atomic(output, buf.getvalue())


def _settings(corpus: Path | None, **overrides: Any) -> Any:
    from sciverify.config import load_settings

    return load_settings(corpus=corpus, **overrides)


def _read_stdin_paths() -> list[Path]:
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("'-' reads paths from stdin, but stdin is a terminal",
                         hint="pipe paths in: find papers -name '*.pdf' | sciverify ingest -")
    return [Path(line.strip()) for line in sys.stdin if line.strip()]


# -- commands ------------------------------------------------------------------------------------


@command(help="Parse PDFs (and JSONL/BEIR paper records) into the corpus; then chunk and index. "
              "Folders recurse; '-' reads paths from stdin. Unchanged files are skipped and "
              "keep their stored text (a warning counts those an older PDF parser read; "
              "ingest into a new corpus to read them again).")
def ingest(
    paths: Annotated[list[str], typer.Argument(help="PDF files, .jsonl(.gz) records, folders, or -.")],
    corpus: CorpusOpt = None,
    parser: Annotated[ParserName | None, typer.Option(help="Parser backend.")] = None,
    grobid_url: Annotated[str | None, typer.Option(help="GROBID server URL (--parser grobid).")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Parser processes.")] = None,
    no_index: Annotated[bool, typer.Option("--no-index", help="Stop after ingest (no chunk/index).")] = False,
    fail_fast: Annotated[bool, typer.Option(help="Stop at the first failing file.")] = False,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = 0,
) -> None:
    import sciverify as api

    _setup_logging(verbose, quiet)
    resolved = [p for raw in paths for p in (_read_stdin_paths() if raw == "-" else [Path(raw)])]
    settings = _settings(corpus, **{"ingest.parser": parser, "ingest.grobid_url": grobid_url,
                                    "ingest.jobs": jobs})
    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        report = api.ingest(resolved, store=store, settings=settings, progress=progress,
                            fail_fast=fail_fast)
        _after_ingest(store, settings, progress, no_index, quiet)
    for failure in report.failures:
        click.echo(f"error: {failure.path}: {failure.reason}"
                   + (f" (hint: {failure.hint})" if failure.hint else ""), err=True)
    _emit(report.rows(), fmt, None, title="ingest")
    if report.outdated:
        from sciverify.ingest.pymupdf import PARSER_REVISION

        click.echo(f"warning: {report.outdated} unchanged file(s) were read by an older PDF "
                   f"parser and keep that text; ingest them into a new corpus to read them "
                   f"with {PARSER_REVISION}", err=True)
    if report.failed:
        click.echo(f"{report.failed} file(s) failed; see above (also stored in ingest_errors)",
                   err=True)
        raise typer.Exit(int(ExitCode.INPUT))


def _after_ingest(store: Any, settings: Any, progress: Any, no_index: bool, quiet: bool) -> None:
    if no_index:
        return
    import sciverify as api

    chunked = api.chunk(store=store, settings=settings, progress=progress)
    indexed = api.build_index(store=store, settings=settings, progress=progress)
    if not quiet:
        click.echo(f"chunked {chunked.papers} paper(s) into {chunked.chunks} chunks; "
                   f"indexed {indexed.embedded} new chunk(s) ({indexed.chunks} in all)", err=True)


@command(help="Cut stored papers into citable chunks (only papers that changed, unless --rebuild).")
def chunk(
    corpus: CorpusOpt = None,
    rebuild: Annotated[bool, typer.Option(help="Re-chunk every paper.")] = False,
    max_tokens: Annotated[int | None, typer.Option(help="Token budget of a chunk.")] = None,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    import sciverify as api

    settings = _settings(corpus, **{"chunk.max_tokens": max_tokens})
    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        report = api.chunk(store=store, settings=settings, progress=progress, rebuild=rebuild)
    _emit(report.rows(), fmt, None, title="chunk")


@command(help="Build or update the BM25 (Tantivy) and dense (FAISS) indexes over the chunks. "
              "Only new or changed chunks are embedded.")
def index(
    corpus: CorpusOpt = None,
    rebuild: Annotated[bool, typer.Option(help="Drop both indexes and start over.")] = False,
    model: Annotated[str | None, typer.Option(
        help="sentence-transformers model name or path (default: the packaged all-MiniLM-L6-v2).")] = None,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    import sciverify as api

    settings = _settings(corpus, **{"index.model": model})
    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        api.chunk(store=store, settings=settings, progress=progress)
        report = api.build_index(store=store, settings=settings, progress=progress,
                                 rebuild=rebuild)
    _emit(report.rows(), fmt, None, title="index")


class ModeOpt(StrEnum):
    bm25 = "bm25"
    dense = "dense"
    hybrid = "hybrid"


class FusionOpt(StrEnum):
    exact = "exact"
    rrf = "rrf"
    score = "score"


@command(help="Search the corpus: BM25 and dense retrieval fused (hybrid by default), with "
              "metadata filters. Each hit shows paper, section, page, evidence type and a snippet.")
def search(
    query: Annotated[str, typer.Argument(help="Free text; never parsed as query syntax.")],
    corpus: CorpusOpt = None,
    k: Annotated[int | None, typer.Option("-k", help="Number of hits [default 10].")] = None,
    mode: Annotated[ModeOpt | None, typer.Option(help="bm25, dense or hybrid.")] = None,
    fusion: Annotated[FusionOpt | None, typer.Option(help="Hybrid fusion: exact (default), rrf or score.")] = None,
    year: Annotated[str | None, typer.Option(help="Year or range: 2019, 2015..2020.")] = None,
    evidence_type: Annotated[list[str] | None, typer.Option(
        "--type", help="Evidence type: result, method, limitation, background (repeatable).")] = None,
    kind: Annotated[list[str] | None, typer.Option(
        help="Chunk kind: text, table, figure, equation (repeatable).")] = None,
    venue: Annotated[list[str] | None, typer.Option(help="Venue (repeatable).")] = None,
    paper: Annotated[list[str] | None, typer.Option(help="Only these paper_ids (repeatable).")] = None,
    expand_citations: Annotated[bool, typer.Option(
        help="Also show papers that cite or are cited by the hits.")] = False,
    rerank: Annotated[str | None, typer.Option(
        help="Rerank with this sentence-transformers CrossEncoder (name or path).")] = None,
    fmt: FormatOpt = Format.table,
    output: OutOpt = None,
) -> None:
    import sciverify as api
    from sciverify.search import make_filters

    try:
        filters = make_filters(year=parse_year_range(year), evidence_types=tuple(evidence_type or ()),
                               kinds=tuple(kind or ()), venues=tuple(venue or ()),
                               paper_ids=tuple(paper or ()))
    except UsageError as exc:
        raise typer.BadParameter(f"{exc.message} ({exc.hint})") from None
    settings = _settings(corpus)
    with api.open_store(settings.corpus, read_only=True) as store:
        results = api.search(query, store=store, settings=settings, k=k,
                             mode=mode.value if mode else None,
                             fusion=fusion.value if fusion else None, filters=filters,
                             expand_citations=expand_citations, reranker=rerank)
    rows = results.rows()
    if fmt is Format.table:
        render.emit_hits(rows, title=f"{len(rows)} hits for {query!r} ({results.mode})")
        return
    for row in rows:
        row.pop("text", None)
    _emit(rows, fmt, output)


@command(help="List the papers in the corpus.")
def papers(
    corpus: CorpusOpt = None,
    year: Annotated[str | None, typer.Option(help="Year or range, e.g. 2015..2020.")] = None,
    title: Annotated[str | None, typer.Option(help="Only titles containing this text.")] = None,
    venue: Annotated[str | None, typer.Option(help="Only venues containing this text.")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many.")] = None,
    fmt: FormatOpt = Format.table,
    output: OutOpt = None,
) -> None:
    import sciverify as api
    from sciverify.catalog import PaperFilter

    low, high = parse_year_range(year)
    settings = _settings(corpus)
    with api.open_store(settings.corpus, read_only=True) as store:
        rows = api.list_papers(store, PaperFilter(low, high, title, venue, limit))
    columns = ["paper_id", "title", "year", "versions", "pages"]
    _emit(rows, fmt, output, title="papers", columns=columns)


def parse_year_range(text: str | None) -> tuple[int | None, int | None]:
    """`catalog.parse_years`, its error as a bad --year option (exit 2)."""
    from sciverify.catalog import parse_years

    try:
        return parse_years(text)
    except InputError as exc:
        raise typer.BadParameter(f"{exc.message}; {exc.hint}", param_hint="'--year'") from None


@command(help="Show one paper: metadata, versions and sections with pages.")
def show(
    paper_id: Annotated[str, typer.Argument(help="A paper_id from `sciverify papers`.")],
    corpus: CorpusOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    import sciverify as api

    settings = _settings(corpus)
    with api.open_store(settings.corpus, read_only=True) as store:
        paper = api.get_paper(store, paper_id)
    if fmt in (Format.json, Format.jsonl):
        _emit([paper], fmt, None)
        return
    meta = {k: v for k, v in paper.items() if k not in ("versions", "sections", "abstract")}
    _emit([{"field": k, "value": v} for k, v in meta.items()], fmt, None, title=paper_id)
    _emit(paper["versions"], fmt, None, title="versions",
          columns=["version_id", "kind", "label", "page_count", "parser", "is_current",
                   "source_path"])
    _emit(paper["sections"], fmt, None, title="sections")


@command(db_app, name="status", help="Schema version and pending migrations (read-only).")
def db_status(corpus: CorpusOpt = None, fmt: FormatOpt = Format.table) -> None:
    import duckdb

    from sciverify.store import migrations
    from sciverify.store.db import applied_version

    settings = _settings(corpus)
    path = settings.store_path
    current = 0
    if path.exists():
        conn = duckdb.connect(str(path), read_only=True)
        try:
            current = applied_version(conn)
        finally:
            conn.close()
    rows = [{"id": n, "name": m.name, "applied": n <= current}
            for n, m in sorted(migrations.MIGRATIONS.items())]
    _emit(rows, fmt, None, title=f"{path} (schema {current}, head {migrations.head()})")


@command(db_app, name="migrate", help="Apply pending migrations.")
def db_migrate(corpus: CorpusOpt = None) -> None:
    import sciverify as api

    settings = _settings(corpus)
    with api.open_store(settings.corpus, migrate_schema=False) as store:
        from sciverify.store.db import migrate

        applied = migrate(store.conn)
    click.echo(f"applied {len(applied)} migration(s)" + (f": {applied}" if applied else ""), err=True)


@command(config_app, name="show", help="Print every effective setting and where it came from.")
def config_show(corpus: CorpusOpt = None, fmt: FormatOpt = Format.table) -> None:
    from sciverify.config import setting_sources

    settings = _settings(corpus)
    sources = setting_sources(settings)
    if corpus is not None:
        sources["corpus"] = "flag --corpus"
    rows = []
    for block, value in settings.model_dump(mode="json").items():
        items = value.items() if isinstance(value, dict) else [("", value)]
        for key, val in items:
            name = f"{block}.{key}" if key else block
            rows.append({"setting": name, "value": val, "source": sources.get(block, "default")})
    _emit(rows, fmt, None, title="settings")


@command(eval_app, name="retrieval",
         help="nDCG@10, Recall@100 and MRR@10 per search mode on a BEIR data set. The corpus is "
              "ingested and indexed into --corpus, or reused when already there.")
def eval_retrieval(
    corpus_jsonl: Annotated[Path, typer.Option(help="BEIR corpus.jsonl(.gz).")],
    queries: Annotated[Path, typer.Option(help="BEIR queries.jsonl.")],
    qrels: Annotated[Path, typer.Option(help="BEIR qrels TSV (e.g. qrels/train.tsv).")],
    corpus: CorpusOpt = None,
    mode: Annotated[list[ModeOpt] | None, typer.Option(help="Modes to run (repeatable).")] = None,
    fusion: Annotated[FusionOpt | None, typer.Option(help="Hybrid fusion: exact (default), rrf or score.")] = None,
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    from sciverify.evaluate import eval_retrieval as run_eval

    for path in (corpus_jsonl, queries, qrels):
        if not path.is_file():
            raise UsageError(f"no such file: {path}", hint="check the BEIR paths")
    settings = _settings(corpus, **{"search.fusion": fusion.value if fusion else None})
    modes = [m.value for m in mode] if mode else ["bm25", "dense", "hybrid"]
    import sciverify as api

    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        result = run_eval(corpus_jsonl, queries, qrels, store=store, settings=settings,
                          modes=modes, progress=progress)
    if fmt is Format.json:
        import json

        typer.echo(json.dumps(result, indent=2))
        return
    _emit([{"mode": m, **v} for m, v in result.items()], fmt, None, title="retrieval")


@command(eval_app, name="entail",
         help="Accuracy, macro-F1 and the confusion matrix of an entailment backend on a pair "
              "file: JSONL {premise, hypothesis, label} with labels entailment / neutral / "
              "contradiction, or one of the shared data sets' native formats (converted).")
def eval_entail(
    pairs: Annotated[Path, typer.Argument(help="Pair file (JSONL, or SciFact/HealthVer/COVID-Fact/SICK/RTE).")],
    backend: Annotated[str | None, typer.Option(
        help="bundled, cross-encoder:NAME_OR_PATH, or llm.")] = None,
    checks: Annotated[bool, typer.Option(help="Combine the deterministic checks with the model.")] = True,
    llm_url: Annotated[str | None, typer.Option(help="OpenAI-compatible endpoint (llm backend).")] = None,
    llm_model: Annotated[str | None, typer.Option(help="Model name at that endpoint.")] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N pairs.")] = None,
    split: Annotated[str, typer.Option(
        help="For the shared data sets' own formats: all, or only the train or heldout part "
             "of the split the bundled model was trained with.")] = "all",
    fmt: FormatOpt = Format.table,
) -> None:
    from sciverify.entail import eval_entail as run_eval
    from sciverify.entail import load_entailer, load_pair_file

    if not pairs.is_file():
        raise UsageError(f"no such file: {pairs}", hint="give a pair file")
    settings = _settings(None, **{"entail.backend": backend, "entail.llm_url": llm_url,
                                  "entail.llm_model": llm_model})
    cfg = settings.entail
    if split not in ("all", "train", "heldout"):
        raise UsageError(f"unknown split {split!r}", hint="use all, train or heldout")
    rows = _pair_rows(pairs, load_pair_file, split)
    if not rows:
        raise UsageError(f"{pairs}: no pairs in the {split} split",
                         hint="a JSONL pair file is all held-out data; use --split all")
    if limit:
        rows = rows[:limit]
    entailer = load_entailer(cfg.backend, max_length=cfg.max_length, llm_url=cfg.llm_url,
                             llm_model=cfg.llm_model, llm_timeout=cfg.llm_timeout)
    report = run_eval(rows, entailer=entailer, with_checks=checks, batch_size=cfg.batch_size)
    if fmt in (Format.json, Format.jsonl):
        import json

        typer.echo(json.dumps(report.to_json(), indent=2 if fmt is Format.json else None))
        return
    _emit(report.rows(), fmt, None,
          title=f"{pairs.name}: accuracy {report.accuracy:.3f}, macro-F1 {report.macro_f1:.3f}, "
                f"n={report.n}")
    confusion = [{"gold \\ predicted": g, **row} for g, row in report.confusion.items()]
    _emit(confusion, fmt, None, title="confusion")


def _pair_rows(path: Path, load_pair_file: Any, split: str = "all") -> list[dict[str, str]]:
    """JSONL pair files as they are; the shared data sets' own formats through the converters,
    optionally only one side of the training split."""
    name = path.name.lower()
    if name.endswith(".jsonl") and "claims" not in name:
        return list(load_pair_file(path)) if split in ("all", "heldout") else []
    from sciverify.entail.data import convert_file

    return [{"premise": p.premise, "hypothesis": p.hypothesis, "label": str(p.label)}
            for p in convert_file(path) if split in ("all", p.split)]


@command(name="train-nli",
         help="Train the bundled NLI cross-encoder from the shared corpora (seeded; about an "
              "hour on a 2-core CPU). Writes fp16 safetensors, metrics and a model card.")
def train_nli_cmd(
    corpora: Annotated[Path, typer.Option(help="The shared corpora folder.")] = Path("../shared/corpora"),
    out: Annotated[Path | None, typer.Option(help="Output folder [default: the package's model folder].")] = None,
    minutes: Annotated[float, typer.Option(help="Training time budget.")] = 55.0,
    epochs: Annotated[int, typer.Option(help="Epochs (cut short by the time budget).")] = 2,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 13,
    lr: Annotated[float, typer.Option(help="Peak learning rate.")] = 5e-5,
    mix: Annotated[str | None, typer.Option(
        help="Source weights per epoch, e.g. scifact=3,scifact-flip=1,healthver=1,perturb=0.35 "
             "(sources: scifact, scifact-flip, scifact-title, healthver, covidfact, sick, rte, "
             "perturb or one perturbation kind such as perturb-entity).")] = None,
    init: Annotated[Path | None, typer.Option(
        help="Continue from this fp32 checkpoint (an earlier --keep-trained folder).")] = None,
    freeze_embeddings: Annotated[bool, typer.Option(
        help="Keep the word-piece embeddings fixed.")] = False,
    label_smoothing: Annotated[float, typer.Option(help="Label smoothing (0 = none).")] = 0.0,
    keep_trained: Annotated[Path | None, typer.Option(
        help="Also save the fp32 model here, to continue from later.")] = None,
    heldout_limit: Annotated[int | None, typer.Option(
        help="Evaluate on about this many held-out pairs (quick checks only).")] = None,
    device: Annotated[str, typer.Option(
        help="auto (the GPU when torch sees one), cpu, or cuda[:N].")] = "auto",
) -> None:
    from sciverify.entail import bundled_model_path
    from sciverify.entail.train import main as train_main

    argv = ["--corpora", str(corpora), "--out", str(out or bundled_model_path()),
            "--minutes", str(minutes), "--epochs", str(epochs), "--seed", str(seed),
            "--lr", str(lr), "--label-smoothing", str(label_smoothing), "--device", device]
    for flag, value in (("--mix", mix), ("--init", init), ("--keep-trained", keep_trained),
                        ("--heldout-limit", heldout_limit)):
        argv += [flag, str(value)] if value is not None else []
    raise typer.Exit(train_main(argv + (["--freeze-embeddings"] if freeze_embeddings else [])))


@command(help="Report what is available: models (offline), GROBID, tesseract, the corpus schema "
              "and index freshness, each with the fix.")
def doctor(corpus: CorpusOpt = None, fmt: FormatOpt = Format.table) -> None:
    from sciverify.doctor import diagnose

    rows = diagnose(_settings(corpus))
    _emit(rows, fmt, None, title="sciverify doctor")


class VerifyFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    md = "md"
    html = "html"


class FailOn(StrEnum):
    red = "red"
    yellow = "yellow"


class ReportKind(StrEnum):
    html = "html"
    md = "md"


def _read_draft(draft: str) -> tuple[str, str]:
    """(text, source name) of a draft file or stdin; binary and unreadable input are errors."""
    from sciverify.verify import decode_draft

    if draft == "-":
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("'-' reads the draft from stdin, but stdin is a terminal",
                             hint="pipe a draft in: sciverify verify - < draft.md")
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        return decode_draft(data, source="-"), "-"
    path = Path(draft)
    if not path.is_file():
        raise InputError("no such draft file", path=path, hint="check the path, or use - for stdin")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the draft: {exc.strerror}", path=path) from exc
    return decode_draft(data, source=str(path)), str(path)


@command(help="Verify a draft (Markdown or text, a file or - for stdin) against the corpus, "
              "paragraph by paragraph and claim by claim. Never rewrites the draft. A claim is "
              "checked against the papers it cites: [@key] (with --bib), (Author, Year) or "
              "[Author, Year], "
              "[1] or superscript¹ numbers (through the draft's reference list), Markdown "
              "footnotes [^1], DOIs and arXiv ids; an uncited claim against the whole corpus.")
def verify(
    draft: Annotated[str, typer.Argument(help="The draft file, or - to read stdin.")],
    corpus: CorpusOpt = None,
    bib: Annotated[Path | None, typer.Option(help="BibTeX file for [@key] citations.")] = None,
    fmt: Annotated[VerifyFormat, typer.Option("--format", "-f",
                                              help="table, json, jsonl, md or html.")] = VerifyFormat.table,
    report: Annotated[ReportKind | None, typer.Option(
        help="Also write a report file (html: self-contained, with accept/reject buttons).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o",
                                                help="Where --report (or the output) goes.")] = None,
    fail_on: Annotated[FailOn | None, typer.Option(
        help="Exit 5 when a paragraph reaches this risk (red, or yellow and above).")] = None,
    backend: Annotated[str | None, typer.Option(
        help="Entailment backend: bundled, cross-encoder:NAME_OR_PATH, or llm.")] = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = 0,
) -> None:
    import sciverify as api
    from sciverify import report as reports

    _setup_logging(verbose, quiet)
    if bib is not None and not bib.is_file():
        raise InputError("no such BibTeX file", path=bib, hint="check the --bib path")
    text, source = _read_draft(draft)
    settings = _settings(corpus, **{"entail.backend": backend})
    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        result = api.verify(text, store=store, settings=settings, source=source, bib=bib,
                            progress=progress)
        result = api.log_run(store, result, settings, text=text)
    if report is not None:
        target = output or Path(f"verify-report.{report.value}")
        body = (reports.result_to_html(result) if report is ReportKind.html
                else reports.result_to_markdown(result))
        render.write_atomic(target, body)
        click.echo(f"report written to {target}", err=True)
    _emit_verify(result, fmt, None if report is not None else output)
    if fail_on is not None:
        levels = {"red"} if fail_on is FailOn.red else {"red", "yellow"}
        reached = [p.paragraph_id for p in result.paragraphs if p.risk in levels]
        if reached:
            click.echo(f"--fail-on {fail_on.value}: {len(reached)} paragraph(s) reached it "
                       f"({', '.join(reached[:10])})", err=True)
            raise typer.Exit(int(ExitCode.FAIL_ON))


def _emit_verify(result: Any, fmt: VerifyFormat, output: Path | None) -> None:
    import io
    import json

    from sciverify import report as reports

    buf = io.StringIO()
    if fmt is VerifyFormat.json:
        buf.write(json.dumps(reports.result_to_json(result), indent=2, ensure_ascii=False) + "\n")
    elif fmt is VerifyFormat.jsonl:
        render.write_jsonl(reports.result_to_jsonl_rows(result), buf)
    elif fmt is VerifyFormat.md:
        buf.write(reports.result_to_markdown(result))
    elif fmt is VerifyFormat.html:
        buf.write(reports.result_to_html(result))
    else:
        if output is None:
            reports.render_table(result, sys.stdout)
            return
        reports.render_table(result, buf)
    if output is None:
        sys.stdout.write(buf.getvalue())
    else:
        render.write_atomic(output, buf.getvalue())


feedback_app = typer.Typer(help="Store accept/reject/revise decisions and measure them.",
                           no_args_is_help=True)
app.add_typer(feedback_app, name="feedback")


@command(feedback_app, name="import", help="Store decisions exported from an HTML report.")
def feedback_import(
    decisions: Annotated[Path, typer.Argument(help="decisions.json from the report.")],
    corpus: CorpusOpt = None,
) -> None:
    import sciverify as api
    from sciverify.feedback import import_decisions

    if not decisions.is_file():
        raise InputError("no such decisions file", path=decisions,
                         hint="export it with the report's 'export decisions' button")
    settings = _settings(corpus)
    with api.open_store(settings.corpus) as store:
        count = import_decisions(decisions, store=store)
    click.echo(f"stored {count} decision(s)", err=True)


@command(feedback_app, name="stats",
         help="Risk coverage (problem paragraphs that were flagged) and adoption rate.")
def feedback_stats_cmd(corpus: CorpusOpt = None, fmt: FormatOpt = Format.table) -> None:
    import sciverify as api
    from sciverify.feedback import feedback_stats

    settings = _settings(corpus)
    with api.open_store(settings.corpus, read_only=True) as store:
        stats = feedback_stats(store)
    if fmt in (Format.json, Format.jsonl):
        import json

        typer.echo(json.dumps(stats, indent=2))
        return
    _emit([{"metric": k, "value": v} for k, v in stats.items()], fmt, None, title="feedback")


# -- serve: the agent skill (MCP over stdio) ------------------------------------------------------


@command(help="Serve search, ask, verify and show_paper as Model Context Protocol tools over stdio "
              "(--mcp), for agents; each returns the JSON of the matching --format json command. "
              "See docs/agent-skill.md.")
def serve(
    mcp: Annotated[bool, typer.Option("--mcp", help="Speak MCP over stdin/stdout (required).")] = False,
    corpus: CorpusOpt = None,
    backend: Annotated[str | None, typer.Option(
        help="Entailment backend for verify: bundled, cross-encoder:NAME_OR_PATH, or llm.")] = None,
) -> None:
    if not mcp:
        raise UsageError("choose a protocol", hint="sciverify serve --mcp (stdio)")
    try:
        from sciverify.serve import serve_mcp
    except ImportError as exc:  # pragma: no cover - mcp is a dependency
        from sciverify.errors import EnvironmentProblem

        raise EnvironmentProblem(f"the mcp package is missing ({exc})",
                                 hint="pip install mcp") from exc
    _setup_logging(0, True)
    serve_mcp(_settings(corpus, **{"entail.backend": backend}))


# -- calibrate: thresholds from decisions ---------------------------------------------------------


@command(help="Fit verify's entailment thresholds and risk levels to the stored accept/revise/"
              "reject decisions (and labelled pairs); print before/after risk coverage, red/"
              "yellow counts and adoption rate. Writes sciverify.toml only with --write.")
def calibrate(
    corpus: CorpusOpt = None,
    pairs: Annotated[list[Path] | None, typer.Option(
        help="Labelled pairs whose macro-F1 must hold: JSONL premise/hypothesis/label, or a "
             "shared data set's own format, as for eval entail (repeatable).")] = None,
    pairs_limit: Annotated[int | None, typer.Option(
        help="Only the first N pairs of each --pairs file.")] = None,
    bib: Annotated[list[Path] | None, typer.Option(
        help="BibTeX files for the drafts' [@key] citations (repeatable).")] = None,
    write: Annotated[bool, typer.Option(
        "--write", help="Write the chosen values to the config file (shows the diff).")] = False,
    config: Annotated[Path, typer.Option(help="The config file to write.")] = Path("sciverify.toml"),
    fmt: FormatOpt = Format.table,
    quiet: QuietOpt = False,
) -> None:
    import difflib

    import sciverify as api
    from sciverify.calibrate import calibrate as run_calibrate
    from sciverify.calibrate import toml_update
    from sciverify.entail import load_pair_file

    for path in [*(pairs or []), *(bib or [])]:
        if not path.is_file():
            raise InputError("no such file", path=path, hint="check the --pairs / --bib path")
    rows = [r for path in pairs or [] for r in _pair_rows(path, load_pair_file)[:pairs_limit]]
    settings = _settings(corpus)
    with api.open_store(settings.corpus, read_only=True) as store, cli_progress(quiet) as progress:
        result = run_calibrate(store=store, settings=settings, pairs=rows, bibs=bib or [],
                               progress=progress)
    if fmt in (Format.json, Format.jsonl):
        import json

        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        _emit(result.rows(), fmt, None,
              title=f"calibrate: {len(result.drafts)} draft(s), {result.before.decided} decided "
                    f"paragraph(s), {result.candidates} candidates")
    old = config.read_text(encoding="utf-8") if config.is_file() else ""
    new = toml_update(old, result.chosen)
    if new == old or not result.changes:
        click.echo("the current settings are already the best fit; nothing to write", err=True)
        return
    diff = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        fromfile=f"{config} (now)", tofile=f"{config} (calibrated)"))
    click.echo(diff, err=True, nl=False)
    if not write:
        click.echo(f"not written; rerun with --write to apply this diff to {config}", err=True)
        return
    render.write_atomic(config, new)
    click.echo(f"wrote {config}", err=True)


# -- map (issue 7) --------------------------------------------------------------------------------


class MapFormat(StrEnum):
    table = "table"
    json = "json"
    graphml = "graphml"
    html = "html"


@command(name="map", help="A literature map of the corpus: topic clusters with their central "
                          "papers, bridge papers, clusters resting on one dataset or group, "
                          "central papers no run has cited yet, and missing key papers (cited by "
                          "several corpus papers, not in the corpus). Updates the stored graph "
                          "first (only papers that changed).")
def map_cmd(
    corpus: CorpusOpt = None,
    fmt: Annotated[MapFormat, typer.Option("--format", "-f",
                                           help="table, json, graphml or html (one "
                                                "self-contained interactive file).")
                   ] = MapFormat.table,
    output: OutOpt = None,
    around: Annotated[str | None, typer.Option(
        help="Show only this paper (a paper_id) and its neighbours.")] = None,
    from_run: Annotated[str | None, typer.Option(
        help="Show only the papers cited by this ask/verify run and their neighbours.")] = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100,
                                   help="Semantic neighbours per paper.")] = 10,
    rebuild: Annotated[bool, typer.Option(help="Rebuild the stored graph from scratch.")] = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = 0,
) -> None:
    import sciverify as api
    from sciverify import map_render

    _setup_logging(verbose, quiet)
    settings = _settings(corpus)
    with api.open_store(settings.corpus) as store, cli_progress(quiet) as progress:
        result = api.map_corpus(store=store, settings=settings, around=around, from_run=from_run,
                                k=k, rebuild=rebuild, progress=progress)
    if fmt is MapFormat.table:
        import io

        buf = io.StringIO()
        for title, rows in map_render.map_sections(result):
            render.emit(rows, Format.table, out=buf if output else None, title=title)
        if output:
            render.write_atomic(output, buf.getvalue())
        return
    body = (map_render.map_to_html(result) if fmt is MapFormat.html
            else map_render.map_to_graphml(result) if fmt is MapFormat.graphml
            else render.dumps(map_render.map_to_json(result)) + "\n")
    if output:
        render.write_atomic(output, body)
        click.echo(f"map written to {output}", err=True)
    else:
        sys.stdout.write(body)


# -- ask -------------------------------------------------------------------------------------


class AskFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    md = "md"
    html = "html"


@command(help="Answer a question from the corpus: direct findings, synthesis and insufficient "
              "evidence, every statement cited [paper_id:chunk] and checked against its citation. "
              "Extractive by default; --llm-url and --llm-model let a language model write it.")
def ask(
    question: Annotated[str, typer.Argument(help="The question (or a claim to look up).")],
    corpus: CorpusOpt = None,
    k: Annotated[int, typer.Option("-k", min=10, max=200,
                                   help="Chunks retrieved before evidence is picked.")] = 60,
    rerank: Annotated[str | None, typer.Option(
        help="CrossEncoder name or path to rerank the retrieved chunks.")] = None,
    llm_url: Annotated[str | None, typer.Option(
        help="OpenAI-compatible endpoint (e.g. http://localhost:8000/v1).")] = None,
    llm_model: Annotated[str | None, typer.Option(help="Model name at that endpoint.")] = None,
    fmt: Annotated[AskFormat, typer.Option("--format", "-f",
                                           help="table, json, jsonl, md or html.")] = AskFormat.table,
    output: OutOpt = None,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = 0,
) -> None:
    import io
    import json

    import sciverify as api
    from sciverify.ask import output as answer_out

    _setup_logging(verbose, quiet)
    settings = _settings(corpus)
    with api.open_store(settings.corpus) as store:
        answer = api.ask(question, store=store, settings=settings, k=k, reranker=rerank,
                         llm_url=llm_url, llm_model=llm_model)
        answer = api.log_ask_run(store, answer, settings)
    buf = io.StringIO()
    if fmt is AskFormat.json:
        buf.write(json.dumps(answer.to_json(), indent=2, ensure_ascii=False, default=str) + "\n")
    elif fmt is AskFormat.jsonl:
        render.write_jsonl(answer_out.jsonl_rows(answer), buf)
    elif fmt is AskFormat.md:
        buf.write(answer_out.to_markdown(answer))
    elif fmt is AskFormat.html:
        buf.write(answer_out.to_html(answer))
    else:
        answer_out.render_table(answer, buf if output else sys.stdout)
    if output:
        render.write_atomic(output, buf.getvalue())
    elif fmt is not AskFormat.table:
        sys.stdout.write(buf.getvalue())


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(int(ExitCode.INTERRUPTED))
