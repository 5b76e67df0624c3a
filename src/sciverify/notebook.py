"""Results in Jupyter: HTML cells for verify, search and ask results; decisions from a notebook.

`VerifyResult._repr_html_`, `SearchResults._repr_html_` and `Answer._repr_html_` call the
functions here, so a result left as the last expression of a cell renders as one coloured cell
per paragraph (cards, evidence, page links), a list of hits, or a cited answer. `decide` stores
an accept / revise / reject decision in the corpus's `feedback` table, exactly where
`sciverify feedback import` puts the HTML report's decisions, so `sciverify feedback stats` and
`sciverify calibrate` see both. `decision_widget` adds ipywidgets buttons when ipywidgets is
installed (optional; `pip install ipywidgets`).

Every text that comes from a draft or a PDF is escaped; the cells carry no script, so they
render the same in a trusted or untrusted notebook and in nbconvert's HTML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sciverify.errors import EnvironmentProblem, InputError
from sciverify.feedback import DECISIONS, record_decision
from sciverify.records import ParagraphResult, VerifyResult
from sciverify.report import _e, _html_card, counts, pdf_link, riskiest_first

_CSS = """
.sv-nb{font:14px/1.45 system-ui,sans-serif;color:#1d232b}
.sv-nb .sv-facts{color:#4a5563;font-size:12px;margin:2px 0 8px}
.sv-nb section.para{border:1px solid #d8dde3;border-left:8px solid #ccc;border-radius:6px;
margin:0 0 10px;padding:8px 12px;background:#fff}
.sv-nb section.para.risk-red{border-left-color:#c62828;background:#fdeeee}
.sv-nb section.para.risk-yellow{border-left-color:#e0a800;background:#fff8e1}
.sv-nb section.para.risk-blue{border-left-color:#2f6db5;background:#eef4fb}
.sv-nb section.para>header{font-size:12px;color:#4a5563;display:flex;gap:8px;flex-wrap:wrap}
.sv-nb .pid{font-weight:600;color:#1d232b}.sv-nb .text{white-space:pre-wrap;margin:6px 0}
.sv-nb .badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;
background:#e4e7eb}
.sv-nb .risk-red .badge.risk,.sv-nb .badge.risk-red{background:#c62828;color:#fff}
.sv-nb .risk-yellow .badge.risk,.sv-nb .badge.risk-yellow{background:#e0a800}
.sv-nb .risk-blue .badge.risk,.sv-nb .badge.risk-blue{background:#2f6db5;color:#fff}
.sv-nb .card{background:#fff;border:1px solid #d8dde3;border-radius:5px;padding:4px 8px;
margin:4px 0}
.sv-nb .card header{font-size:12px;display:flex;gap:8px;color:#4a5563}
.sv-nb .status-contradicted .badge.status{background:#c62828;color:#fff}
.sv-nb .status-partially_supported .badge.status,.sv-nb .status-warning .badge.status{
background:#e0a800}
.sv-nb .status-supported .badge.status{background:#2e7d32;color:#fff}
.sv-nb .claim{margin:3px 0;font-weight:500}.sv-nb .keyword,.sv-nb .where{font-size:12px;
color:#4a5563}
.sv-nb .evidence-list{list-style:none;padding:0;margin:3px 0}
.sv-nb blockquote.snippet{margin:2px 0;padding:2px 8px;border-left:3px solid #b0b8c2;
font-style:italic}
.sv-nb .decide-hint{font-size:12px;color:#4a5563}.sv-nb code{font-size:12px}
.sv-nb ol.hits{padding-left:24px}.sv-nb ol.hits li{margin:0 0 8px}
"""


def _wrap(body: str) -> str:
    return f'<div class="sv-nb"><style>{_CSS}</style>{body}</div>'


def paragraph_html(p: ParagraphResult) -> str:
    """One paragraph as a cell: header (id, section, type, risk), the text, then its cards."""
    cards = "".join(_html_card(c) for c in p.cards) or '<p class="nocards">No findings.</p>'
    return (f'<section class="para risk-{_e(p.risk)}" data-paragraph-id="{_e(p.paragraph_id)}" '
            f'data-risk="{_e(p.risk)}"><header><span class="pid">{_e(p.paragraph_id)}</span> '
            f'<span class="section">{_e(p.section)}</span> <span class="type">{_e(p.type)}</span>'
            f' <span class="badge risk">{_e(p.risk)} {p.risk_score:.2f}</span> '
            f'<span class="meta">{p.claims} claims</span></header>'
            f'<div class="text">{_e(p.text)}</div><div class="cards">{cards}</div>'
            f'<p class="decide-hint">decide: <code>result.decide({_e(repr(p.paragraph_id))}, '
            f'"accept" | "revise" | "reject", note="...")</code></p></section>')


def verify_result_html(result: VerifyResult, *, riskiest_first_order: bool = False) -> str:
    """A verify result as notebook HTML: a summary line, then one cell per paragraph.

    Args:
        result: what `sciverify.verify` returned.
        riskiest_first_order: red paragraphs first (as the report's navigator) instead of
            reading order.
    """
    tally = counts(result)
    badges = " ".join(f'<span class="badge risk-{_e(k)}">{_e(k)} {v}</span>'
                      for k, v in tally["risk"].items())
    paragraphs = riskiest_first(result) if riskiest_first_order else list(result.paragraphs)
    cells = "".join(paragraph_html(p) for p in paragraphs)
    head = (f'<p class="sv-facts">draft <code>{_e(result.draft)}</code> · '
            f'{len(result.paragraphs)} paragraphs {badges} · run '
            f'<code>{_e(result.run_id or "not logged")}</code></p>')
    return _wrap(head + (cells or '<p class="nocards">The draft has no paragraphs.</p>'))


def search_results_html(results: Any) -> str:
    """Search results (`sciverify.search`) as notebook HTML: ranked hits with page links."""
    items = []
    for hit in results.hits:
        link = pdf_link(hit.source, hit.page)
        where = [f'<span class="paper">{_e(hit.title or hit.paper_id)}</span>',
                 f'<span class="chunk">{_e(hit.chunk_id)}</span>',
                 f'<span class="type">{_e(hit.evidence_type)}</span>']
        if hit.page:
            where.append(f'<span class="page">page {_e(hit.page)}</span>')
        if link:
            where.append(f'<a class="pdf" href="{_e(link)}" target="_blank" rel="noopener">'
                         f'open PDF at page {_e(hit.page or 1)}</a>')
        items.append(f'<li class="hit" data-chunk-id="{_e(hit.chunk_id)}">'
                     f'<span class="badge">{hit.score:.3f}</span> {" · ".join(where)}'
                     f'<blockquote class="snippet">{_e(hit.snippet or hit.text)}</blockquote></li>')
    head = (f'<p class="sv-facts">{len(results.hits)} hits for <code>{_e(results.query)}</code>'
            f' ({_e(results.mode)}, {results.seconds:.2f} s)</p>')
    return _wrap(head + (f'<ol class="hits">{"".join(items)}</ol>' if items
                         else '<p class="nocards">No hits.</p>'))


def answer_html(answer: Any) -> str:
    """An `ask` Answer as notebook HTML: direct findings, synthesis and insufficient evidence,
    each statement with its check status and its citations (page, link to the PDF)."""
    where = {e.chunk_id: e for e in answer.evidence}
    parts = []
    for title, statements in (("Direct findings", answer.direct), ("Synthesis", answer.synthesis)):
        items = []
        for s in statements:
            cites = []
            for i, chunk_id in enumerate(s.citations):
                ev = where.get(chunk_id)
                page = s.pages[i] if i < len(s.pages) else (ev.page if ev else None)
                link = pdf_link(ev.source if ev else None, page)
                label = f"{_e(chunk_id)}" + (f", page {_e(page)}" if page else "")
                cites.append(f'<a class="pdf" href="{_e(link)}" target="_blank" rel="noopener">'
                             f'{label}</a>' if link else f'<span class="chunk">{label}</span>')
            note = f' <span class="finding">{_e(s.finding)}</span>' if s.finding else ""
            items.append(f'<li class="statement status-{_e(s.status)}"><span class="badge status">'
                         f'{_e(s.status)}</span>{note} {_e(s.shown)}'
                         f'<div class="where">{" · ".join(cites)}</div></li>')
        body = f'<ul class="statements">{"".join(items)}</ul>' if items else "<p>None.</p>"
        parts.append(f"<h4>{title}</h4>{body}")
    gaps = "".join(f'<li>{_e(g.text)}' + (f' <span class="keyword">search: '
                                            f'{_e(", ".join(g.search_terms))}</span>'
                                            if g.search_terms else "") + "</li>"
                   for g in answer.insufficient)
    parts.append(f'<h4>Insufficient evidence</h4>{f"<ul>{gaps}</ul>" if gaps else "<p>None.</p>"}')
    head = (f'<p class="sv-facts">question <code>{_e(answer.question)}</code> · '
            f'{_e(answer.mode)} · run <code>{_e(answer.run_id or "not logged")}</code></p>')
    return _wrap(head + "".join(parts))


# -- decisions --------------------------------------------------------------------------------


def decide(result: VerifyResult, paragraph_id: str, decision: str, *, note: str = "",
           store: Any = None) -> None:
    """Store a reviewer's decision about one paragraph of `result` in its corpus.

    The decision lands in the `feedback` table with the paragraph's risk, the run id and the
    draft hash, as `sciverify feedback import` would store it from the HTML report; it shows
    in `sciverify feedback stats` and feeds `sciverify calibrate`. Deciding the same paragraph
    again replaces the earlier decision.

    Args:
        result: the verify result (log it first with `log_run` to tie the decision to a run).
        paragraph_id: "p_003", as the cell shows.
        decision: "accept" (keep as written), "revise" (needs a change) or "reject" (wrong).
        note: the reviewer's note.
        store: a writable Store; default: open the corpus the result was verified against.

    Raises:
        InputError: an unknown paragraph or decision, or no corpus to write to.

    Example:
        >>> result.decide("p_003", "reject", note="the source reports 10.05 g/l")
    """
    paragraph = next((p for p in result.paragraphs if p.paragraph_id == paragraph_id), None)
    if paragraph is None:
        known = ", ".join(p.paragraph_id for p in result.paragraphs[:8])
        more = ", ..." if len(result.paragraphs) > 8 else ""
        raise InputError(f"no paragraph {paragraph_id!r} in this result",
                         hint=f"paragraph ids are {known}{more}")
    if decision not in DECISIONS:
        raise InputError(f"unknown decision {decision!r}",
                         hint=f"use one of {', '.join(DECISIONS)}")
    kwargs: dict[str, Any] = {"draft_sha256": result.draft_sha256, "paragraph_id": paragraph_id,
              "decision": decision, "risk": paragraph.risk, "note": note, "run_id": result.run_id}
    if store is not None:
        record_decision(store, **kwargs)
        return
    if not result.corpus:
        raise InputError("this result does not know its corpus",
                         hint="pass store=sv.open_store(CORPUS) to decide()")
    from sciverify.store import open_store

    try:
        writable = open_store(Path(result.corpus))
    except InputError as exc:
        if "different configuration" in str(exc):
            raise InputError("the corpus is open read-only in this process",
                             path=result.corpus,
                             hint="close the read-only store, or pass a writable one: "
                                  "result.decide(..., store=sv.open_store(CORPUS))") from exc
        raise
    with writable:
        record_decision(writable, **kwargs)


def decision_widget(result: VerifyResult, *, store: Any = None) -> Any:
    """ipywidgets controls: each paragraph cell with accept / revise / reject buttons and a note.

    A click stores the decision with `decide` and shows what was stored under the buttons.

    Raises:
        EnvironmentProblem: ipywidgets is not installed (the hint has the pip line).
    """
    try:
        import ipywidgets as w
    except ImportError as exc:
        raise EnvironmentProblem("ipywidgets is not installed",
                                 hint="pip install ipywidgets, or call result.decide(...)") from exc
    rows = []
    for p in result.paragraphs:
        note = w.Text(placeholder="note (optional)")
        state = w.HTML(value="<i>undecided</i>")
        buttons = []
        for name in DECISIONS:
            button = w.Button(description=name, tooltip=f"store '{name}' for {p.paragraph_id}")

            def click(_: Any, pid: str = p.paragraph_id, choice: str = name, box: Any = note,
                      out: Any = state) -> None:
                try:
                    decide(result, pid, choice, note=box.value, store=store)
                    out.value = f"stored: <b>{_e(choice)}</b>"
                except InputError as exc:
                    out.value = f"not stored: {_e(exc)}"

            button.on_click(click)
            buttons.append(button)
        rows.append(w.VBox([w.HTML(value=_wrap(paragraph_html(p))),
                            w.HBox([*buttons, note, state])]))
    return w.VBox(rows)
