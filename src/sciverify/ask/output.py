"""An answer as the claim–evidence table (rows), Markdown, self-contained HTML and JSON.

Every text from the corpus or a language model is untrusted: Markdown and HTML escape it with
the verify report's escapers, and the terminal table goes through rich `Text`, never markup.
"""

from __future__ import annotations

import html
from typing import IO, Any

from sciverify.ask import PART_TITLES, Answer, Statement


def table_rows(answer: Answer) -> list[dict[str, Any]]:
    """The claim–evidence table: one row per statement, with status and confidence."""
    rows = []
    for n, s in enumerate(answer.statements, 1):
        rows.append({
            "n": n, "part": s.part, "claim": s.shown, "citations": list(s.citations),
            "pages": list(s.pages), "evidence": " | ".join(s.evidence), "condition": s.condition,
            "tier": s.tier, "status": s.status, "confidence": s.confidence,
            "finding": s.finding, "marked": s.is_marked, "note": s.note,
        })
    return rows


def jsonl_rows(answer: Answer) -> list[dict[str, Any]]:
    """One object a line: the statements, then the gaps, each with the question."""
    rows: list[dict[str, Any]] = [{"question": answer.question, "kind": "statement", **r}
                                  for r in table_rows(answer)]
    rows += [{"question": answer.question, "kind": "gap", "part": "insufficient",
              "claim": g.text, "search_terms": list(g.search_terms)} for g in answer.insufficient]
    return rows


def _cite(s: Statement) -> str:
    """The citation markers, unless the statement already writes them inline."""
    if all(f"[{c}]" in s.shown for c in s.citations):
        return ""
    return " ".join(f"[{c}]" for c in s.citations)


def _mark(s: Statement) -> str:
    if not s.is_marked:
        return ""
    what = s.finding or s.status
    return f" ⚠ {what}: {s.status}" + (f" ({s.note})" if s.note else "")


def to_markdown(answer: Answer) -> str:
    """The answer in three parts, then the claim–evidence table."""
    from sciverify.report import _md

    out = [f"# {_md(answer.question)}", "",
           f"_{_md(answer.mode)} answer; run {_md(answer.run_id or 'not logged')}_", ""]
    for part, items in (("direct", answer.direct), ("synthesis", answer.synthesis)):
        out += [f"## {PART_TITLES[part]}", ""]
        if not items:
            out.append("- none")
        for s in items:
            cond = f" — condition: {_md(s.condition)}" if s.condition and part == "direct" else ""
            out.append(f"- {_md(s.shown)} {_md(_cite(s))}{cond}{_md(_mark(s))}")
        out.append("")
    out += [f"## {PART_TITLES['insufficient']}", ""]
    if not answer.insufficient:
        out.append("- nothing noted")
    for g in answer.insufficient:
        terms = f" — search: {_md(', '.join(g.search_terms))}" if g.search_terms else ""
        out.append(f"- {_md(g.text)}{terms}")
    out += ["", "## Claim–evidence table", "",
            "| # | part | claim | citation | page | condition | status | confidence |",
            "|---|---|---|---|---|---|---|---|"]
    for r in table_rows(answer):
        pages = ", ".join("" if p is None else str(p) for p in r["pages"])
        out.append(f"| {r['n']} | {r['part']} | {_md(r['claim'])} | "
                   f"{_md(' '.join(r['citations']))} | {pages} | {_md(r['condition'])} | "
                   f"{_md(r['status'])}{_md(' ⚠ ' + r['finding']) if r['finding'] else ''} | "
                   f"{r['confidence']:.2f} |")
    return "\n".join(out) + "\n"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def to_html(answer: Answer) -> str:
    """One self-contained HTML page: the three parts and the table, every text escaped."""
    parts = []
    for part, items in (("direct", answer.direct), ("synthesis", answer.synthesis)):
        lis = "".join(
            f"<li class=\"{_e(s.status)}{' marked' if s.is_marked else ''}\">{_e(s.shown)} "
            f"<span class=\"cite\">{_e(_cite(s))}</span>"
            + (f" <em>({_e(s.condition)})</em>" if s.condition and part == "direct" else "")
            + (f" <strong>{_e(_mark(s))}</strong>" if s.is_marked else "") + "</li>"
            for s in items) or "<li>none</li>"
        parts.append(f"<h2>{_e(PART_TITLES[part])}</h2><ul>{lis}</ul>")
    gaps = "".join(
        f"<li>{_e(g.text)}" + (f" <em>search: {_e(', '.join(g.search_terms))}</em>"
                               if g.search_terms else "") + "</li>"
        for g in answer.insufficient) or "<li>nothing noted</li>"
    parts.append(f"<h2>{_e(PART_TITLES['insufficient'])}</h2><ul>{gaps}</ul>")
    head = ("<tr><th>#</th><th>part</th><th>claim</th><th>citation</th><th>page</th>"
            "<th>condition</th><th>status</th><th>confidence</th></tr>")
    body = "".join(
        f"<tr class=\"{_e(r['status'])}\"><td>{r['n']}</td><td>{_e(r['part'])}</td>"
        f"<td>{_e(r['claim'])}</td><td>{_e(' '.join(r['citations']))}</td>"
        f"<td>{_e(', '.join('' if p is None else str(p) for p in r['pages']))}</td>"
        f"<td>{_e(r['condition'])}</td><td>{_e(r['status'])}"
        f"{' ⚠ ' + _e(r['finding']) if r['finding'] else ''}</td>"
        f"<td>{r['confidence']:.2f}</td></tr>"
        for r in table_rows(answer))
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{_e(answer.question)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_e(answer.question)}</h1><p class=\"meta\">{_e(answer.mode)} answer; run "
        f"{_e(answer.run_id or 'not logged')}</p>{''.join(parts)}"
        f"<h2>Claim–evidence table</h2><table>{head}{body}</table></body></html>\n"
    )


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
    "li{margin:.4em 0}.marked{background:#fff4d6}.contradicted{background:#fde2e2}"
    ".cite{font-family:monospace;font-size:.85em;color:#555}"
    "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3em;"
    "vertical-align:top;font-size:.9em}.meta{color:#666}"
)


def render_table(answer: Answer, out: IO[str]) -> None:
    """The three parts and the claim–evidence table on a terminal (rich; text never markup)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=out)
    console.print(Text(answer.question, style="bold"))
    for part, items in (("direct", answer.direct), ("synthesis", answer.synthesis)):
        console.print(Text(PART_TITLES[part], style="bold underline"))
        if not items:
            console.print(Text("  none"))
        for s in items:
            line = Text(f"  • {s.shown} ")
            line.append(_cite(s), style="dim")
            if s.condition and part == "direct":
                line.append(f" ({s.condition})", style="italic")
            if s.is_marked:
                line.append(_mark(s), style="bold yellow")
            console.print(line)
    console.print(Text(PART_TITLES["insufficient"], style="bold underline"))
    for g in answer.insufficient or ():
        line = Text(f"  • {g.text}")
        if g.search_terms:
            line.append(f" — search: {', '.join(g.search_terms)}", style="italic")
        console.print(line)
    table = Table(title="claim–evidence table", show_lines=True)
    for col in ("#", "claim", "citation / page", "condition", "status", "conf."):
        table.add_column(col, overflow="fold")
    for r in table_rows(answer):
        where = "\n".join(f"{c} p.{p}" if p is not None else c
                          for c, p in zip(r["citations"], r["pages"], strict=False))
        status = r["status"] + (f"\n{r['finding']}" if r["finding"] else "")
        table.add_row(str(r["n"]), Text(r["claim"]), Text(where), Text(r["condition"]),
                      Text(status), f"{r['confidence']:.2f}")
    console.print(table)
