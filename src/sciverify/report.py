"""How a verify result leaves sciverify: JSON, JSONL rows, Markdown, a terminal table and one
self-contained HTML report (DESIGN.md 2.6). The JSON schema is documented in
docs/verify-output.md; every text that came from a draft or a PDF is treated as untrusted.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from typing import IO, Any

from sciverify.records import Card, EvidenceRef, ParagraphResult, VerifyResult

RISK_ORDER = {"red": 0, "yellow": 1, "blue": 2}
# Worst first: which card speaks for a paragraph in one-line summaries.
STATUS_ORDER = {"contradicted": 0, "partially_supported": 1, "warning": 2, "unverifiable": 3,
                "supported": 4}


def riskiest_first(result: VerifyResult) -> list[ParagraphResult]:
    """Paragraphs by risk level (red, yellow, blue), then risk_score descending, then reading order."""
    return [p for _, p in _ranked(result)]


def _ranked(result: VerifyResult) -> list[tuple[int, ParagraphResult]]:
    """(1-based position in reading order, paragraph), riskiest first."""
    return sorted(enumerate(result.paragraphs, 1),
                  key=lambda ip: (RISK_ORDER.get(ip[1].risk, 3), -ip[1].risk_score, ip[0]))


def worst_card(paragraph: ParagraphResult) -> Card | None:
    """The card a one-line summary shows: the worst status, then the highest confidence."""
    ranked = sorted(paragraph.cards, key=lambda c: (STATUS_ORDER.get(c.status, 5), -c.confidence))
    return ranked[0] if ranked else None


def pdf_link(source: str | None, page: int | None) -> str | None:
    """A ``file://`` URI that opens a stored PDF at a page; None for anything that is not a local PDF.

    Only absolute paths get a link (the store keeps resolved paths); a relative path or a URL
    would depend on where the report is opened.
    """
    if not source:
        return None
    path = Path(source)
    if path.suffix.lower() != ".pdf" or not path.is_absolute():
        return None
    uri = path.as_uri()
    return f"{uri}#page={page}" if page else uri


# -- JSON and JSONL -----------------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def evidence_to_json(ev: EvidenceRef) -> dict[str, Any]:
    return {"paper_id": ev.paper_id, "chunk_id": ev.chunk_id, "source": ev.source,
            "page": ev.page, "snippet": ev.snippet, "match_type": ev.match_type,
            "score": ev.score, "title": ev.title}


def card_to_json(card: Card) -> dict[str, Any]:
    return {"paragraph_id": card.paragraph_id, "layer": card.layer, "status": card.status,
            "confidence": card.confidence, "claim": card.claim, "keyword": card.keyword,
            "evidence": [evidence_to_json(ev) for ev in card.evidence],
            "suggested_action": card.suggested_action, "finding": card.finding,
            "downgrade": card.downgrade, "claim_id": card.claim_id}


def paragraph_to_json(p: ParagraphResult) -> dict[str, Any]:
    return {"paragraph_id": p.paragraph_id, "section": p.section, "type": p.type, "risk": p.risk,
            "risk_score": p.risk_score, "span": [p.span[0], p.span[1]], "text": p.text,
            "cards": [card_to_json(c) for c in p.cards], "layers": list(p.layers),
            "claims": p.claims, "skipped": p.skipped}


def result_to_json(result: VerifyResult) -> dict[str, Any]:
    """The whole result as one JSON object, paragraphs in reading order (docs/verify-output.md)."""
    return {"draft": result.draft, "draft_sha256": result.draft_sha256, "run_id": result.run_id,
            "paragraphs": [paragraph_to_json(p) for p in result.paragraphs],
            "summary": _jsonable(result.summary)}


def result_to_jsonl_rows(result: VerifyResult) -> list[dict[str, Any]]:
    """One row per card, in reading order; a paragraph without cards is one row with card=None.

    Each row repeats its paragraph's id, section, type, risk and risk_score, so a consumer can
    filter (``jq 'select(.risk == "red")'``) without joining, and still sees every paragraph.
    """
    rows: list[dict[str, Any]] = []
    for p in result.paragraphs:
        head = {"run_id": result.run_id, "draft_sha256": result.draft_sha256,
                "paragraph_id": p.paragraph_id, "section": p.section, "type": p.type,
                "risk": p.risk, "risk_score": p.risk_score}
        cards: list[dict[str, Any] | None] = [card_to_json(c) for c in p.cards] or [None]
        rows.extend({**head, "card": card} for card in cards)
    return rows


def counts(result: VerifyResult) -> dict[str, dict[str, int]]:
    """Paragraphs per risk and cards per status, computed from the records themselves."""
    risks = {r: 0 for r in RISK_ORDER}
    statuses: dict[str, int] = {}
    for p in result.paragraphs:
        risks[p.risk] = risks.get(p.risk, 0) + 1
        for c in p.cards:
            statuses[c.status] = statuses.get(c.status, 0) + 1
    ordered = dict(sorted(statuses.items(), key=lambda kv: (STATUS_ORDER.get(kv[0], 5), kv[0])))
    return {"risk": risks, "status": ordered}


# -- Markdown -----------------------------------------------------------------------------------

_MD_ALWAYS = set("\\`*[]|~<>&")
_MD_BLOCK_START = re.compile(r"^(\s*)(?:([#>+=-])|(\d+)([.)]))")


def _md(text: str) -> str:
    """One line of untrusted text that renders as itself: no emphasis, links, code, HTML or tables.

    `&`, `<` and `>` become entities (raw HTML passes through Markdown renderers); the other
    Markdown punctuation gets a backslash. `_` inside a word cannot open emphasis in CommonMark,
    so ids like p_001 stay readable.
    """
    line = " ".join(text.split())
    out: list[str] = []
    for i, ch in enumerate(line):
        if ch in "&<>":
            out.append(html.escape(ch))
        elif ch in _MD_ALWAYS:
            out.append("\\" + ch)
        elif ch == "_" and not (0 < i < len(line) - 1 and line[i - 1].isalnum()
                                and line[i + 1].isalnum()):
            out.append("\\_")
        else:
            out.append(ch)
    return "".join(out)


def _md_block_line(line: str) -> str:
    """Like _md, and a line start that would open a heading, quote, list or rule is escaped."""
    escaped = _md(line)
    m = _MD_BLOCK_START.match(escaped)
    if m is None:
        return escaped
    if m.group(2):
        return "\\" + escaped[m.end(1):]
    return escaped[m.end(1):m.end(3)] + "\\" + escaped[m.end(3):]


def _md_card(card: Card) -> list[str]:
    lines = [(f"- **{_md(card.status)}** · {_md(card.layer)} · confidence {card.confidence:.2f}"
              f" — {_md(card.claim)}")]
    if card.finding:
        lines.append(f"  - finding: {_md(card.finding)}")
    if card.keyword:
        lines.append(f"  - keyword: {_md(card.keyword)}")
    for ev in card.evidence:
        where = _md(ev.title or ev.paper_id)
        page = f", p. {ev.page}" if ev.page else ""
        lines.append(f"  - evidence ({_md(ev.match_type)}): {where}{page}, "
                     f"{_md(ev.chunk_id)}: “{_md(ev.snippet)}”")
    if card.suggested_action:
        lines.append(f"  - suggested action: {_md(card.suggested_action)}")
    if card.downgrade:
        lines.append(f"  - weaker wording: {_md(card.downgrade)}")
    return lines


def result_to_markdown(result: VerifyResult) -> str:
    """A Markdown report: summary, a riskiest-first table, then every paragraph in reading order."""
    tally = counts(result)
    risk_line = " · ".join(f"{k} {v}" for k, v in tally["risk"].items())
    status_line = " · ".join(f"{_md(k)} {v}" for k, v in tally["status"].items()) or "none"
    out = [f"# sciverify verify: {_md(result.draft)}", "",
           f"- draft sha256: {_md(result.draft_sha256)}",
           f"- run: {_md(result.run_id or 'not logged')}",
           f"- paragraphs: {len(result.paragraphs)} ({risk_line})",
           f"- cards: {status_line}", "", "## Riskiest first", ""]
    if result.paragraphs:
        out += ["| # | paragraph | section | risk | score | worst finding |",
                "|---|---|---|---|---|---|"]
        for rank, p in enumerate(riskiest_first(result), 1):
            card = worst_card(p)
            gist = f"{_md(card.status)}: {_md(card.claim)}" if card else "no findings"
            out.append(f"| {rank} | {_md(p.paragraph_id)} | {_md(p.section)} | {_md(p.risk)} "
                       f"| {p.risk_score:.2f} | {gist} |")
    else:
        out.append("_(no paragraphs)_")
    out += ["", "## Paragraphs", ""]
    for p in result.paragraphs:
        out += [(f"### {_md(p.paragraph_id)} — {_md(p.section)} ({_md(p.type)}) — "
                 f"{_md(p.risk)} {p.risk_score:.2f}"), ""]
        out += [f"> {_md_block_line(line)}" for line in p.text.splitlines() if line.strip()]
        out.append("")
        for card in p.cards:
            out += _md_card(card)
        out.append("" if p.cards else "_no findings_\n")
    return "\n".join(out).rstrip("\n") + "\n"


# -- terminal table -----------------------------------------------------------------------------

_RISK_STYLE = {"red": "bold red", "yellow": "bold yellow", "blue": "bold blue"}
_STATUS_STYLE = {"contradicted": "red", "partially_supported": "yellow", "warning": "yellow",
                 "unverifiable": "blue", "supported": "green"}


def render_table(result: VerifyResult, out: IO[str]) -> None:
    """A rich table on `out`, riskiest paragraph first; colour only when `out` is a terminal.

    Untrusted text goes in as ``rich.text.Text``, which never interprets markup.
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=out, highlight=False, emoji=False)
    tally = counts(result)
    caption = ", ".join(f"{k} {v}" for k, v in tally["risk"].items())
    table = Table(title=Text(f"verify {result.draft}: {len(result.paragraphs)} paragraphs"),
                  caption=Text(caption), show_lines=True)
    for name in ("risk", "paragraph", "text", "findings"):
        table.add_column(name, overflow="fold")
    for p in riskiest_first(result):
        risk = Text(f"{p.risk} {p.risk_score:.2f}", style=_RISK_STYLE.get(p.risk, ""))
        where = Text(f"{p.paragraph_id}\n{p.section}\n{p.type}")
        excerpt = " ".join(p.text.split())
        text = Text(excerpt if len(excerpt) <= 240 else excerpt[:239] + "…")
        table.add_row(risk, where, text, _card_lines(p))
    console.print(table)


def _card_lines(p: ParagraphResult) -> Any:
    from rich.text import Text

    lines = Text()
    for i, card in enumerate(p.cards):
        if i:
            lines.append("\n")
        lines.append(card.status, style=_STATUS_STYLE.get(card.status, ""))
        lines.append(f" {card.confidence:.2f} {card.layer}: ")
        lines.append(card.claim)
        for ev in card.evidence[:1]:
            page = f" p.{ev.page}" if ev.page else ""
            lines.append(f"\n  {ev.paper_id}{page}: ", style="dim")
            lines.append(ev.snippet, style="dim")
        if card.suggested_action:
            lines.append("\n  → " + card.suggested_action)
    if not p.cards:
        lines.append("no findings", style="dim")
    return lines


# -- HTML ---------------------------------------------------------------------------------------


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _script_json(value: Any) -> str:
    """JSON for a <script type="application/json"> block: `<`, `>` and `&` as \\u escapes, so
    "</script>" or "<!--" in a draft cannot end the block or change how it is parsed."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _html_evidence(ev: EvidenceRef) -> str:
    link = pdf_link(ev.source, ev.page)
    paper = f"{_e(ev.title)} ({_e(ev.paper_id)})" if ev.title else _e(ev.paper_id)
    parts = [f'<span class="paper">{paper}</span>',
             f'<span class="chunk">{_e(ev.chunk_id)}</span>']
    if ev.page:
        parts.append(f'<span class="page">page {_e(ev.page)}</span>')
    parts.append(f'<span class="match">{_e(ev.match_type)} {ev.score:.2f}</span>')
    if link:
        label = f"open PDF at page {ev.page}" if ev.page else "open PDF"
        parts.append(f'<a class="pdf" href="{_e(link)}" target="_blank" rel="noopener">{label}</a>')
    elif ev.source:
        parts.append(f'<span class="source">{_e(ev.source)}</span>')
    return (f'<li class="evidence match-{_e(ev.match_type)}"><blockquote class="snippet">'
            f'{_e(ev.snippet)}</blockquote><div class="where">{" · ".join(parts)}</div></li>')


def _html_card(card: Card) -> str:
    head = [f'<span class="badge status">{_e(card.status)}</span>',
            f'<span class="conf">confidence {card.confidence:.2f}</span>',
            f'<span class="layer">{_e(card.layer)}</span>']
    if card.finding:
        head.append(f'<span class="finding">{_e(card.finding)}</span>')
    body = [f'<p class="claim">{_e(card.claim)}</p>']
    if card.keyword:
        body.append(f'<p class="keyword">keyword: {_e(card.keyword)}</p>')
    if card.evidence:
        body.append('<ul class="evidence-list">'
                    + "".join(_html_evidence(ev) for ev in card.evidence) + "</ul>")
    if card.suggested_action:
        body.append(f'<p class="action">Suggested: {_e(card.suggested_action)}</p>')
    if card.downgrade:
        body.append(f'<p class="downgrade">Weaker wording: {_e(card.downgrade)}</p>')
    return (f'<article class="card status-{_e(card.status)}" data-status="{_e(card.status)}">'
            f'<header>{" ".join(head)}</header>{"".join(body)}</article>')


_BUTTONS = (("accept", "keep the paragraph as written"),
            ("revise", "the paragraph needs a change (e.g. the suggested action)"),
            ("reject", "the paragraph is wrong and should go"))


def _html_paragraph(index: int, p: ParagraphResult) -> str:
    cards = "".join(_html_card(c) for c in p.cards) or '<p class="nocards">No findings.</p>'
    buttons = "".join(f'<button type="button" class="decide" data-decision="{name}" '
                      f'aria-pressed="false" title="{_e(tip)}">{name}</button>'
                      for name, tip in _BUTTONS)
    meta = f"{p.claims} claims" + (f" · layers {', '.join(p.layers)}" if p.layers else "")
    return (f'<section class="para risk-{_e(p.risk)}" id="para-{index}" '
            f'data-paragraph-id="{_e(p.paragraph_id)}" data-risk="{_e(p.risk)}">'
            f'<header><span class="pid">{_e(p.paragraph_id)}</span> '
            f'<span class="section">{_e(p.section)}</span> <span class="type">{_e(p.type)}</span> '
            f'<span class="badge risk">{_e(p.risk)} {p.risk_score:.2f}</span> '
            f'<span class="meta">{_e(meta)}</span></header>'
            f'<div class="text">{_e(p.text)}</div><div class="cards">{cards}</div>'
            f'<div class="decide-bar">{buttons}'
            f'<textarea class="note" rows="1" placeholder="note (optional)"></textarea>'
            f'<span class="decision-state">undecided</span></div></section>')


def _html_nav(result: VerifyResult) -> str:
    items = []
    for position, p in _ranked(result):
        card = worst_card(p)
        gist = f"{card.status}: {card.claim}" if card else "no findings"
        gist = gist if len(gist) <= 90 else gist[:89] + "…"
        items.append(f'<li><a href="#para-{position}" class="risk-{_e(p.risk)}" '
                     f'data-paragraph-id="{_e(p.paragraph_id)}"><span class="pid">'
                     f'{_e(p.paragraph_id)}</span> <span class="score">{p.risk_score:.2f}</span> '
                     f'<span class="section">{_e(p.section)}</span>'
                     f'<span class="gist">{_e(gist)}</span></a></li>')
    return f'<ol id="navigator-list">{"".join(items)}</ol>'


def result_to_html(result: VerifyResult, *, title: str | None = None) -> str:
    """One self-contained HTML file: coloured paragraph cells, a riskiest-first navigator,
    evidence with page links, and accept / revise / reject decisions exported as JSON.

    Nothing is loaded from outside the file; a Content-Security-Policy allows only the page's
    own script (by hash), so text that escaped escaping still could not run.
    """
    heading = title or f"sciverify report: {result.draft}"
    script_hash = base64.b64encode(hashlib.sha256(_JS.encode()).digest()).decode()
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
           f"script-src 'sha256-{script_hash}'")
    data = {"draft": result.draft, "run_id": result.run_id,
            "draft_sha256": result.draft_sha256,
            "paragraphs": [{"paragraph_id": p.paragraph_id, "risk": p.risk}
                           for p in result.paragraphs]}
    empty_export = json.dumps({"run_id": result.run_id, "draft_sha256": result.draft_sha256,
                               "decisions": []}, indent=2)
    tally = counts(result)
    risk_badges = " ".join(f'<span class="badge risk-{k}">{k} {v}</span>'
                           for k, v in tally["risk"].items())
    statuses = " · ".join(f"{_e(k)} {v}" for k, v in tally["status"].items()) or "no cards"
    cells = "".join(_html_paragraph(i, p) for i, p in enumerate(result.paragraphs, 1))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(heading)}</title><style>{_CSS}</style></head>
<body><header class="top"><h1>{_e(heading)}</h1>
<p class="facts">draft <code>{_e(result.draft)}</code> · sha256 <code>{_e(result.draft_sha256)}</code>
 · run <code>{_e(result.run_id or "not logged")}</code></p>
<p class="facts">{len(result.paragraphs)} paragraphs {risk_badges} · cards: {statuses}</p></header>
<div class="layout"><nav id="navigator"><h2>Riskiest first</h2>{_html_nav(result)}
<div id="decisions"><h2>Decisions <span id="decided-count">0</span>/{len(result.paragraphs)}</h2>
<button type="button" id="download">Download decisions.json</button>
<textarea id="decisions-export" readonly rows="10">{_e(empty_export)}</textarea>
<p class="hint">Feed back with: sciverify feedback import decisions.json</p></div></nav>
<main id="paragraphs">{cells or '<p class="nocards">The draft has no paragraphs.</p>'}</main></div>
<script type="application/json" id="sciverify-data">{_script_json(data)}</script>
<script>{_JS}</script></body></html>
"""


_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header.top{padding:12px 20px;background:#fff;border-bottom:1px solid #d8dde3}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:8px 0}
.facts{margin:2px 0;color:#4a5563}code{font-size:12px;word-break:break-all}
.layout{display:flex;gap:16px;padding:16px 20px;align-items:flex-start}
nav{position:sticky;top:8px;width:300px;flex:none;max-height:96vh;overflow:auto;background:#fff;
border:1px solid #d8dde3;border-radius:6px;padding:8px 12px}
nav ol{padding-left:22px;margin:0}nav li{margin:3px 0}
nav a{display:block;text-decoration:none;color:inherit;border-left:5px solid #ccc;padding:2px 6px}
nav a.risk-red{border-color:#c62828}nav a.risk-yellow{border-color:#e0a800}
nav a.risk-blue{border-color:#2f6db5}nav a.decided{opacity:.55}
nav .gist{display:block;font-size:12px;color:#4a5563}
main{flex:1;min-width:0}
section.para{background:#fff;border:1px solid #d8dde3;border-left:8px solid #ccc;
border-radius:6px;margin:0 0 14px;padding:10px 14px}
section.para.risk-red{border-left-color:#c62828;background:#fdeeee}
section.para.risk-yellow{border-left-color:#e0a800;background:#fff8e1}
section.para.risk-blue{border-left-color:#2f6db5;background:#eef4fb}
section.para:target{outline:3px solid #5b8def}
section.para>header{font-size:13px;color:#4a5563;display:flex;gap:8px;flex-wrap:wrap}
.pid{font-weight:600;color:#1d232b}.text{white-space:pre-wrap;margin:8px 0}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:#e4e7eb}
.badge.risk-red,.risk-red .badge.risk{background:#c62828;color:#fff}
.badge.risk-yellow,.risk-yellow .badge.risk{background:#e0a800;color:#1d232b}
.badge.risk-blue,.risk-blue .badge.risk{background:#2f6db5;color:#fff}
.card{background:#fff;border:1px solid #d8dde3;border-radius:5px;padding:6px 10px;margin:6px 0}
.card header{font-size:12px;display:flex;gap:8px;color:#4a5563}
.status-contradicted .badge.status{background:#c62828;color:#fff}
.status-partially_supported .badge.status,.status-warning .badge.status{background:#e0a800}
.status-supported .badge.status{background:#2e7d32;color:#fff}
.status-unverifiable .badge.status{background:#dfe6ee;color:#34495e}
.claim{margin:4px 0;font-weight:500}.keyword,.where,.hint{font-size:12px;color:#4a5563}
.evidence-list{list-style:none;padding:0;margin:4px 0}
blockquote.snippet{margin:2px 0;padding:2px 8px;border-left:3px solid #b0b8c2;font-style:italic}
.action{margin:4px 0}.downgrade{margin:4px 0;color:#5d4a00}
.decide-bar{display:flex;gap:6px;align-items:center;margin-top:6px}
.decide-bar textarea{flex:1;font:inherit;font-size:13px}
button{font:inherit;font-size:13px;border:1px solid #9aa4af;background:#fff;border-radius:4px;
padding:2px 10px;cursor:pointer}
button[aria-pressed=true][data-decision=accept]{background:#2e7d32;color:#fff}
button[aria-pressed=true][data-decision=revise]{background:#e0a800}
button[aria-pressed=true][data-decision=reject]{background:#c62828;color:#fff}
.decision-state{font-size:12px;color:#4a5563;min-width:70px}
#decisions-export{width:100%;font:12px monospace;box-sizing:border-box}
"""

# Decisions live in memory and in localStorage (keyed by draft hash and run), so closing the tab
# loses nothing; the export is the only way out of the page.
_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("sciverify-data").textContent);
  var key = "sciverify-decisions:" + data.draft_sha256 + ":" + (data.run_id || "");
  var decisions = {};
  try { decisions = JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) {}
  function exported() {
    return {run_id: data.run_id, draft_sha256: data.draft_sha256,
      decisions: data.paragraphs.filter(function (p) { return decisions[p.paragraph_id]; })
        .map(function (p) {
          var d = decisions[p.paragraph_id];
          return {paragraph_id: p.paragraph_id, decision: d.decision, risk: p.risk,
                  note: d.note || "", decided_at: d.decided_at};
        })};
  }
  function cellOf(el) { return el.closest("section.para"); }
  function refresh() {
    var out = exported();
    document.getElementById("decisions-export").value = JSON.stringify(out, null, 2);
    document.getElementById("decided-count").textContent = String(out.decisions.length);
    document.querySelectorAll("section.para").forEach(function (cell) {
      var d = decisions[cell.dataset.paragraphId];
      cell.querySelectorAll("button.decide").forEach(function (b) {
        b.setAttribute("aria-pressed", String(!!d && d.decision === b.dataset.decision));
      });
      cell.querySelector(".decision-state").textContent = d ? d.decision : "undecided";
      var link = document.querySelector('nav a[href="#' + cell.id + '"]');
      if (link) { link.classList.toggle("decided", !!d); }
    });
    try { window.localStorage.setItem(key, JSON.stringify(decisions)); } catch (e) {}
  }
  document.querySelectorAll("section.para").forEach(function (cell) {
    var d = decisions[cell.dataset.paragraphId];
    if (d && d.note) { cell.querySelector("textarea.note").value = d.note; }
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.decide");
    if (!b) { return; }
    var cell = cellOf(b), id = cell.dataset.paragraphId, cur = decisions[id];
    if (cur && cur.decision === b.dataset.decision) { delete decisions[id]; }
    else {
      decisions[id] = {decision: b.dataset.decision, decided_at: new Date().toISOString(),
                       note: cell.querySelector("textarea.note").value};
    }
    refresh();
  });
  document.addEventListener("input", function (ev) {
    if (!ev.target.matches("textarea.note")) { return; }
    var d = decisions[cellOf(ev.target).dataset.paragraphId];
    if (d) { d.note = ev.target.value; refresh(); }
  });
  document.getElementById("download").addEventListener("click", function () {
    var blob = new Blob([JSON.stringify(exported(), null, 2) + "\\n"], {type: "application/json"});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "decisions.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  });
  refresh();
})();
"""
