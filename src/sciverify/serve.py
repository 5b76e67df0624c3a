"""`sciverify serve --mcp`: search, ask, verify and show_paper as Model Context Protocol tools.

An agent calls the same library functions as the CLI and gets the same JSON text as
`--format json` (docs/agent-skill.md says when to call which and how to read cards). Bad
arguments are refused by the input schema or by the checks here, and every SciverifyError
becomes a tool error carrying the message and the hint; the server keeps running. Calls are
serialised, because DuckDB refuses a read-only and a writable connection to one file in the
same process, and each call opens the corpus only for its own duration, so other processes
(`sciverify ingest`) can write between calls.

Like the CLI, this is a front end: it may import `render`; no stage imports it. The `mcp`
package is imported only when the server is built.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from sciverify.errors import InputError, SciverifyError

MAX_DRAFT_CHARS = 400_000
INSTRUCTIONS = (
    "sciverify checks scientific text against a local corpus of papers. Call `verify` on a "
    "draft (Markdown) before presenting factual or numerical claims about the literature; read "
    "each paragraph's risk (red: look now, yellow: look, blue: low risk) and its cards' status, "
    "evidence (paper, page, snippet) and suggested_action. Use `search` to find evidence and "
    "`show_paper` for a paper's metadata and sections. Never treat 'unverifiable' as false: it "
    "means the corpus has no evidence either way."
)

_LOCK = threading.Lock()


def _tool_error(exc: SciverifyError) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(f"error: {exc}" + (f"\nhint: {exc.hint}" if exc.hint else ""))


def _guarded(fn: Callable[..., str]) -> Callable[..., str]:
    """Run one tool call at a time; SciverifyError -> a tool error with message and hint."""
    import functools

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> str:
        with _LOCK:
            try:
                return fn(*args, **kwargs)
            except SciverifyError as exc:
                raise _tool_error(exc) from exc

    return run


def search_json(query: str, *, settings: Any, k: int | None = None, mode: str | None = None,
                year: str | None = None, evidence_type: list[str] | None = None,
                paper: list[str] | None = None) -> str:
    """`sciverify search QUERY --format json` as a string."""
    import sciverify as api
    from sciverify import render
    from sciverify.catalog import parse_years
    from sciverify.search import make_filters

    if not query.strip():
        raise InputError("the query is empty", hint="give a few words or a claim to search for")
    years = parse_years(year if year and year.strip() else None)
    filters = make_filters(year=years, evidence_types=tuple(evidence_type or ()),
                           paper_ids=tuple(paper or ()))
    with api.open_store(settings.corpus, read_only=True) as store:
        results = api.search(query, store=store, settings=settings, k=k, mode=mode,
                             filters=filters)
    rows = results.rows()
    for row in rows:
        row.pop("text", None)
    buf = io.StringIO()
    render.emit(rows, render.Format.json, out=buf)
    return buf.getvalue()


def verify_json(text: str, *, settings: Any, source: str = "-", bib: str | None = None) -> str:
    """`sciverify verify DRAFT --format json` as a string; the run is logged like the CLI's."""
    import sciverify as api
    from sciverify import report

    if len(text) > MAX_DRAFT_CHARS:
        raise InputError(f"the draft has {len(text)} characters, more than {MAX_DRAFT_CHARS}",
                         hint="verify it in parts, a section at a time")
    bib_path = Path(bib) if bib else None
    if bib_path is not None and not bib_path.is_file():
        raise InputError("no such BibTeX file", path=bib_path, hint="give an existing .bib path")
    with api.open_store(settings.corpus) as store:
        result = api.verify(text, store=store, settings=settings, source=source, bib=bib_path)
        result = api.log_run(store, result, settings, text=text)
    return json.dumps(report.result_to_json(result), indent=2, ensure_ascii=False) + "\n"


def show_paper_json(paper_id: str, *, settings: Any) -> str:
    """`sciverify show PAPER_ID --format json` as a string."""
    import sciverify as api
    from sciverify import render

    with api.open_store(settings.corpus, read_only=True) as store:
        paper = api.get_paper(store, paper_id)
    buf = io.StringIO()
    render.emit([paper], render.Format.json, out=buf)
    return buf.getvalue()


def build_server(settings: Any) -> Any:
    """The MCP server with its tools bound to `settings` (the corpus and models to use)."""
    from mcp.server.mcpserver import MCPServer

    import sciverify

    server = MCPServer(name="sciverify", instructions=INSTRUCTIONS, version=sciverify.__version__,
                       log_level="WARNING")

    @server.tool(name="search", structured_output=False,
                 description="Search the corpus (hybrid BM25 + dense). Returns the JSON of "
                             "`sciverify search --format json`: ranked hits with paper_id, "
                             "chunk_id, section, page, evidence_type and snippet.")
    @_guarded
    def search(
        query: Annotated[str, Field(min_length=1, max_length=2000,
                                    description="Free text; never parsed as query syntax.")],
        k: Annotated[int, Field(ge=1, le=100, description="Number of hits.")] = 10,
        mode: Annotated[Literal["hybrid", "bm25", "dense"] | None,
                        Field(description="Retrieval mode; default hybrid.")] = None,
        year: Annotated[str | None, Field(max_length=20,
                                          description="Year or range: 2019, 2015..2020.")] = None,
        evidence_type: Annotated[list[Literal["result", "method", "limitation", "background"]]
                                 | None, Field(description="Only these evidence types.")] = None,
        paper: Annotated[list[str] | None, Field(description="Only these paper_ids.")] = None,
    ) -> str:
        return search_json(query, settings=settings, k=k, mode=mode, year=year,
                           evidence_type=list(evidence_type or ()), paper=paper)

    @server.tool(name="verify", structured_output=False,
                 description="Verify a draft (Markdown or plain text) against the corpus, "
                             "paragraph by paragraph and claim by claim. Returns the JSON of "
                             "`sciverify verify --format json`: paragraphs with risk red / "
                             "yellow / blue and cards (status, claim, evidence with page, "
                             "suggested_action). Never rewrites the draft.")
    @_guarded
    def verify(
        text: Annotated[str, Field(min_length=1, max_length=MAX_DRAFT_CHARS,
                                   description="The draft text.")],
        source: Annotated[str, Field(max_length=500,
                                     description="A name for the draft in the output.")] = "-",
        bib: Annotated[str | None, Field(description="Path of a BibTeX file on the server "
                                                     "for [@key] citations.")] = None,
    ) -> str:
        return verify_json(text, settings=settings, source=source, bib=bib)

    @server.tool(name="show_paper", structured_output=False,
                 description="One paper of the corpus: metadata, versions (with source file) "
                             "and sections with pages. Returns the JSON of `sciverify show "
                             "PAPER_ID --format json`.")
    @_guarded
    def show_paper(
        paper_id: Annotated[str, Field(min_length=1, max_length=300,
                                       description="A paper_id from search or verify.")],
    ) -> str:
        return show_paper_json(paper_id, settings=settings)

    if _has_ask():

        @server.tool(name="ask", structured_output=False,
                     description="Answer a question from the corpus: direct findings, synthesis "
                                 "and insufficient evidence, every statement cited [chunk_id] "
                                 "and checked. Returns the JSON of `sciverify ask --format json`.")
        @_guarded
        def ask(
            question: Annotated[str, Field(min_length=1, max_length=2000,
                                           description="The question, in English.")],
            k: Annotated[int, Field(ge=10, le=200, description="Chunks retrieved.")] = 60,
        ) -> str:
            return ask_json(question, settings=settings, k=k)

    return server


def _has_ask() -> bool:
    try:
        from sciverify.ask import ask, log_ask_run  # noqa: F401
    except ImportError:
        return False
    return True


def ask_json(question: str, *, settings: Any, k: int = 60) -> str:
    """`sciverify ask QUESTION --format json` as a string; the run is logged like the CLI's."""
    from sciverify.ask import ask, log_ask_run
    from sciverify.store import open_store

    if not question.strip():
        raise InputError("the question is empty", hint="ask a question, e.g. 'Does X reduce Y?'")
    with open_store(settings.corpus) as store:
        answer = ask(question, store=store, settings=settings, k=k)
        answer = log_ask_run(store, answer, settings)
    return json.dumps(answer.to_json(), indent=2, ensure_ascii=False, default=str) + "\n"


def serve_mcp(settings: Any) -> None:
    """Serve the tools over stdio until the client closes the connection."""
    build_server(settings).run("stdio")
