"""Literature map output: sections of rows (table, md, csv), JSON, GraphML and one HTML file.

The HTML map is self-contained: the layout is computed here (clusters placed by a small force
layout of the cluster graph, papers in each cluster on a sunflower spiral, most central in the
middle), drawn on a canvas by inline script, with a Content-Security-Policy that allows only that
script. Paper text reaches the page only as JSON in a data block and as textContent.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
from dataclasses import asdict
from typing import Any
from xml.sax.saxutils import escape as xml_escape

from sciverify.map import LiteratureMap, MapPaper


def _short(text: str | None, limit: int = 90) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def map_sections(m: LiteratureMap) -> list[tuple[str, list[dict[str, Any]]]]:
    """(title, rows) for each part of the map, for the row renderers."""
    titles = {**m.titles, **{p.paper_id: p.title for p in m.papers}}
    clusters = [{"cluster": c.cluster, "size": c.size, "label": ", ".join(c.label),
                 "central papers": "; ".join(f"{p} ({_short(titles.get(p), 50)})"
                                             for p in c.central),
                 "single source": c.single_source or ""} for c in m.clusters]
    bridges = [{"paper_id": b.paper_id, "title": _short(titles.get(b.paper_id)),
                "clusters": " - ".join(str(c) for c in b.clusters), "score": b.score}
               for b in m.bridges]
    unread = [{"paper_id": p, "title": _short(titles.get(p)), "cluster": m.paper(p).cluster,
               "centrality": m.paper(p).centrality} for p in m.unread_central]
    missing = [{"cited by": len(x.cited_by), "title": _short(x.title), "year": x.year,
                "key": x.key, "cited by papers": ", ".join(x.cited_by)} for x in m.missing]
    counts: dict[str, int] = {}
    for e in m.edges:
        counts[e.kind] = counts.get(e.kind, 0) + 1
    summary = [{"papers": len(m.papers), "clusters": len(m.clusters),
                **{f"{k} edges": v for k, v in sorted(counts.items())},
                "focus": ", ".join(m.focus[:5]) + (" …" if len(m.focus) > 5 else ""),
                "seconds": m.seconds.get("total")}]
    return [("literature map", summary), ("topic clusters", clusters),
            ("bridge papers", bridges), ("unread central papers", unread),
            ("missing key papers (cited by several corpus papers, not in the corpus)", missing)]


def map_to_json(m: LiteratureMap) -> dict[str, Any]:
    return {"papers": [asdict(p) for p in m.papers], "edges": [asdict(e) for e in m.edges],
            "clusters": [asdict(c) for c in m.clusters], "bridges": [asdict(b) for b in m.bridges],
            "unread_central": m.unread_central, "missing_papers": [asdict(x) for x in m.missing],
            "focus": m.focus, "build": asdict(m.build) if m.build else None,
            "seconds": m.seconds}


# -- GraphML ----------------------------------------------------------------------------------------

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(value: object) -> str:
    return xml_escape(_XML_BAD.sub("", str(value)), {'"': "&quot;"})


_NODE_KEYS = (("title", "string"), ("year", "int"), ("cluster", "int"), ("centrality", "double"),
              ("citations_in", "int"), ("is_read", "boolean"), ("doi", "string"))
_EDGE_KEYS = (("kind", "string"), ("weight", "double"), ("detail", "string"))


def map_to_graphml(m: LiteratureMap) -> str:
    """The map as GraphML (Gephi, Cytoscape, networkx.read_graphml)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">']
    for name, kind in _NODE_KEYS:
        out.append(f'<key id="{name}" for="node" attr.name="{name}" attr.type="{kind}"/>')
    for name, kind in _EDGE_KEYS:
        out.append(f'<key id="e_{name}" for="edge" attr.name="{name}" attr.type="{kind}"/>')
    out.append('<graph id="sciverify-map" edgedefault="directed">')
    for p in m.papers:
        data = "".join(f'<data key="{name}">{_x(str(getattr(p, name)).lower() if kind == "boolean" else getattr(p, name))}</data>'
                       for name, kind in _NODE_KEYS if getattr(p, name) is not None)
        out.append(f'<node id="{_x(p.paper_id)}">{data}</node>')
    for i, e in enumerate(m.edges):
        data = "".join(f'<data key="e_{name}">{_x(getattr(e, name))}</data>'
                       for name, _kind in _EDGE_KEYS if getattr(e, name) is not None)
        out.append(f'<edge id="e{i}" source="{_x(e.src)}" target="{_x(e.dst)}">{data}</edge>')
    out.append("</graph></graphml>")
    return "\n".join(out) + "\n"


# -- HTML ---------------------------------------------------------------------------------------------


def layout(m: LiteratureMap) -> tuple[dict[str, tuple[float, float]], float]:
    """Deterministic positions in [0, 1000]² and the pixels per layout unit: clusters by a force
    layout of the cluster graph (weighted by edges between clusters), papers on a sunflower
    spiral inside their cluster, most central in the middle."""
    sizes = {c.cluster: c.size for c in m.clusters}
    members: dict[int, list[MapPaper]] = {}
    for p in sorted(m.papers, key=lambda p: (-p.centrality, p.paper_id)):
        members.setdefault(p.cluster, []).append(p)
    ids = sorted(members)
    of = {p.paper_id: p.cluster for p in m.papers}
    link: dict[tuple[int, int], float] = {}
    for e in m.edges:
        a, b = sorted((of[e.src], of[e.dst]))
        if a != b:
            link[(a, b)] = link.get((a, b), 0.0) + 1.0
    centres = _force_layout(ids, [12.0 * math.sqrt(len(members[c])) + 8 for c in ids], link)
    golden = math.pi * (3 - math.sqrt(5))
    pos = {c: centres[i] for i, c in enumerate(ids)}
    out: dict[str, tuple[float, float]] = {}
    for c in ids:
        for j, p in enumerate(members[c]):
            r = 12.0 * math.sqrt(j + 0.5) if sizes.get(c, 1) > 1 else 0.0
            out[p.paper_id] = (pos[c][0] + r * math.cos(j * golden),
                               pos[c][1] + r * math.sin(j * golden))
    if not out:
        return out, 1.0
    xs, ys = [x for x, _ in out.values()], [y for _, y in out.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    return {p: (round(40 + (x - min(xs)) / span * 920, 2), round(40 + (y - min(ys)) / span * 920, 2))
            for p, (x, y) in out.items()}, 920 / span


def _force_layout(ids: list[int], radius: list[float],
                  link: dict[tuple[int, int], float], steps: int = 200) -> list[tuple[float, float]]:
    """Cluster centres: discs that push apart when they overlap and pull together by the number
    of edges between them, started on a spiral (deterministic), with a little gravity."""
    import numpy as np

    n = len(ids)
    golden = math.pi * (3 - math.sqrt(5))
    i = np.arange(n, dtype=np.float64)
    pos = np.stack([np.cos(i * golden), np.sin(i * golden)], axis=1) * 40 * np.sqrt(i + 1)[:, None]
    r = np.asarray(radius, dtype=np.float64)
    want = r[:, None] + r[None, :] + 10
    pull = np.zeros((n, n))
    index = {c: k for k, c in enumerate(ids)}
    for (a, b), count in link.items():
        pull[index[a], index[b]] = pull[index[b], index[a]] = math.log1p(count) * 0.002
    for step in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.hypot(delta[..., 0], delta[..., 1]), 0.01)
        push = np.where(dist < want, (want - dist) * 0.5, 0.0) + np.where(
            dist < 3 * want, want * want / dist * 0.02, 0.0)
        force = push - pull * dist
        np.fill_diagonal(force, 0.0)
        move = (delta / dist[..., None] * force[..., None]).sum(axis=1) - pos * 0.01
        length = np.maximum(np.hypot(move[:, 0], move[:, 1]), 1e-9)
        limit = 20 * (1.0 - step / steps) + 0.5
        pos += move / length[:, None] * np.minimum(length, limit)[:, None]
    return [(float(x), float(y)) for x, y in pos]


def _script_json(value: Any) -> str:
    """JSON for a <script type="application/json"> block: `<`, `>` and `&` as \\u escapes, so
    "</script>" or "<!--" in a paper title cannot end the block."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def map_to_html(m: LiteratureMap, *, title: str = "sciverify literature map") -> str:
    """One self-contained HTML file: the map on a canvas (nodes coloured by cluster, sized by
    centrality, edges by kind), click a paper for its details; nothing loaded from outside."""
    pos, scale = layout(m)  # node sizes follow the scale, so dense maps do not blot
    index = {p.paper_id: i for i, p in enumerate(m.papers)}
    data = {
        "papers": [{"id": p.paper_id, "title": p.title or "", "year": p.year,
                    "authors": list(p.authors[:6]), "doi": p.doi, "cluster": p.cluster,
                    "centrality": p.centrality, "cited": p.citations_in, "read": p.is_read,
                    "focus": p.is_focus, "x": pos[p.paper_id][0], "y": pos[p.paper_id][1]}
                   for p in m.papers],
        "edges": [[index[e.src], index[e.dst], e.kind, round(e.weight, 3),
                   _short(e.detail, 300) if e.detail else None] for e in m.edges],
        "clusters": [{"id": c.cluster, "size": c.size, "label": list(c.label),
                      "single_source": c.single_source} for c in m.clusters],
        "bridges": [b.paper_id for b in m.bridges],
        "node_scale": round(min(1.0, max(0.3, scale * 1.2)), 3),
        "unread": m.unread_central,
        "missing": [{"title": x.title, "year": x.year, "n": len(x.cited_by)} for x in m.missing],
    }
    script_hash = base64.b64encode(hashlib.sha256(_JS.encode()).digest()).decode()
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
           f"script-src 'sha256-{script_hash}'")
    e = html.escape
    facts = (f"{len(m.papers)} papers · {len(m.clusters)} clusters · "
             f"{sum(k == 'citation' for k in (x.kind for x in m.edges))} citation edges")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title><style>{_CSS}</style></head>
<body><header><h1>{e(title)}</h1><p class="facts">{e(facts)}</p>
<p class="kinds"><label><input type="checkbox" data-kind="citation" checked> <i class="k citation"></i>citation</label>
<label><input type="checkbox" data-kind="semantic" checked> <i class="k semantic"></i>semantic</label>
<label><input type="checkbox" data-kind="shared_evidence" checked> <i class="k shared"></i>shared evidence</label>
<span class="hint">click a paper; drag to pan, wheel to zoom</span></p></header>
<div class="layout"><canvas id="map" width="1000" height="1000"></canvas>
<aside><section id="details"><h2>Paper</h2><p class="hint">Click a node for details.</p></section>
<section><h2>Clusters</h2><ol id="clusters"></ol></section>
<section><h2>Missing key papers</h2><ol id="missing"></ol></section></aside></div>
<script type="application/json" id="map-data">{_script_json(data)}</script>
<script>{_JS}</script></body></html>
"""


_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header{padding:8px 16px;background:#fff;border-bottom:1px solid #d8dde3}
h1{font-size:18px;margin:0}h2{font-size:14px;margin:6px 0}.facts,.hint{color:#4a5563;margin:2px 0}
.kinds label{margin-right:12px}i.k{display:inline-block;width:18px;height:3px;margin:0 4px 3px 0}
i.citation{background:#c82828}i.semantic{background:#8a929d}i.shared{background:#288c3c}.layout{display:flex;gap:12px;padding:12px}
canvas{background:#fff;border:1px solid #d8dde3;width:min(1000px,70vw);aspect-ratio:1;flex:none;cursor:grab}
aside{flex:1;min-width:260px;max-height:1000px;overflow:auto}
aside section{background:#fff;border:1px solid #d8dde3;border-radius:6px;padding:6px 10px;margin-bottom:10px}
#details .title{font-weight:600}#details dl{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;margin:4px 0}
#details dt{color:#4a5563}#details dd{margin:0;word-break:break-word}
.swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}
li.neighbour{cursor:pointer;color:#2f6db5}li.neighbour:hover{text-decoration:underline}
"""

# Untrusted text (titles, authors, reference strings) only ever goes into textContent.
_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("map-data").textContent);
  var canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
  var kinds = {citation: true, semantic: true, shared_evidence: true};
  var edgeStyle = {citation: "rgba(200,40,40,0.75)", semantic: "rgba(120,130,145,0.18)",
                   shared_evidence: "rgba(40,140,60,0.45)"};
  var view = {x: 0, y: 0, k: 1}, selected = -1;
  function colour(c) { return "hsl(" + ((c * 137.508) % 360) + ",65%,48%)"; }
  function radius(p) { return (3 + 11 * Math.sqrt(p.centrality)) * data.node_scale; }
  var adj = data.papers.map(function () { return []; });
  // The most central paper of each cluster carries its title on the canvas (canvas text: never markup).
  var seen = {}, labelled = [];
  data.papers.map(function (p, i) { return i; })
    .sort(function (a, b) { return data.papers[b].centrality - data.papers[a].centrality; })
    .forEach(function (i) {
      var c = data.papers[i].cluster;
      if (!seen[c] && labelled.length < 40) { seen[c] = true; labelled.push(i); }
    });
  data.edges.forEach(function (e, i) { adj[e[0]].push(i); adj[e[1]].push(i); });
  function draw() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(view.k, 0, 0, view.k, view.x, view.y);
    ["semantic", "shared_evidence", "citation"].forEach(function (kind) {
      if (!kinds[kind]) { return; }
      ctx.strokeStyle = edgeStyle[kind];
      ctx.lineWidth = (kind === "citation" ? 1.4 : 0.8) / view.k;
      ctx.beginPath();
      data.edges.forEach(function (e) {
        if (e[2] !== kind) { return; }
        var a = data.papers[e[0]], b = data.papers[e[1]];
        ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
      });
      ctx.stroke();
    });
    ctx.font = (11 / view.k) + "px system-ui, sans-serif";
    ctx.fillStyle = "#1d232b";
    labelled.forEach(function (i) {
      var p = data.papers[i], t = p.title || p.id;
      ctx.fillText(t.length > 48 ? t.slice(0, 47) + "…" : t, p.x + radius(p) / Math.sqrt(view.k) + 3 / view.k,
                   p.y + 4 / view.k);
    });
    data.papers.forEach(function (p, i) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, radius(p) / Math.sqrt(view.k), 0, 2 * Math.PI);
      ctx.fillStyle = colour(p.cluster);
      ctx.fill();
      if (i === selected || p.focus) {
        ctx.lineWidth = 2.5 / view.k; ctx.strokeStyle = i === selected ? "#000" : "#e0a800";
        ctx.stroke();
      }
    });
  }
  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value == null ? "" : String(value);
    if (cls) { el.className = cls; }
    return el;
  }
  function show(i) {
    selected = i;
    var p = data.papers[i], box = document.getElementById("details");
    box.replaceChildren(text("h2", "Paper"), text("p", p.title || p.id, "title"));
    var dl = document.createElement("dl");
    var cl = data.clusters.filter(function (c) { return c.id === p.cluster; })[0];
    [["id", p.id], ["year", p.year], ["authors", p.authors.join(", ")], ["doi", p.doi],
     ["cluster", p.cluster + (cl ? " (" + cl.label.join(", ") + ")" : "")],
     ["centrality", p.centrality.toFixed(3)], ["cited by corpus papers", p.cited],
     ["cited in a run", p.read ? "yes" : "not yet"]].forEach(function (row) {
      if (row[1] == null || row[1] === "") { return; }
      dl.appendChild(text("dt", row[0])); dl.appendChild(text("dd", row[1]));
    });
    box.appendChild(dl);
    var list = document.createElement("ul");
    adj[i].forEach(function (ei) {
      var e = data.edges[ei], j = e[0] === i ? e[1] : e[0], q = data.papers[j];
      var li = text("li", e[2] + (e[0] === i ? " → " : " ← ") + (q.title || q.id), "neighbour");
      li.dataset.index = String(j);
      if (e[4]) { li.title = e[4]; }
      list.appendChild(li);
    });
    box.appendChild(text("h2", "Neighbours (" + adj[i].length + ")"));
    box.appendChild(list);
    draw();
  }
  document.getElementById("details").addEventListener("click", function (ev) {
    var li = ev.target.closest("li.neighbour");
    if (li) { show(Number(li.dataset.index)); }
  });
  function toWorld(ev) {
    var r = canvas.getBoundingClientRect();
    var cx = (ev.clientX - r.left) * canvas.width / r.width;
    var cy = (ev.clientY - r.top) * canvas.height / r.height;
    return [(cx - view.x) / view.k, (cy - view.y) / view.k, cx, cy];
  }
  var drag = null, moved = false;
  canvas.addEventListener("mousedown", function (ev) { drag = toWorld(ev); moved = false; });
  canvas.addEventListener("mousemove", function (ev) {
    if (!drag) { return; }
    var w = toWorld(ev);
    if (Math.abs(w[0] - drag[0]) + Math.abs(w[1] - drag[1]) > 2) { moved = true; }
    if (moved) { view.x = w[2] - drag[0] * view.k; view.y = w[3] - drag[1] * view.k; draw(); }
  });
  canvas.addEventListener("mouseup", function (ev) {
    var w = toWorld(ev), best = -1, bestD = Infinity;
    drag = null;
    if (moved) { return; }
    data.papers.forEach(function (p, i) {
      var d = Math.hypot(p.x - w[0], p.y - w[1]);
      if (d < bestD && d <= radius(p) / Math.sqrt(view.k) + 4 / view.k) { best = i; bestD = d; }
    });
    if (best >= 0) { show(best); }
  });
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var w = toWorld(ev), f = ev.deltaY < 0 ? 1.2 : 1 / 1.2;
    view.k = Math.min(40, Math.max(0.3, view.k * f));
    view.x = w[2] - w[0] * view.k; view.y = w[3] - w[1] * view.k;
    draw();
  }, {passive: false});
  document.querySelectorAll("input[data-kind]").forEach(function (box) {
    box.addEventListener("change", function () { kinds[box.dataset.kind] = box.checked; draw(); });
  });
  var ol = document.getElementById("clusters");
  data.clusters.forEach(function (c) {
    var li = document.createElement("li"), sw = text("span", "", "swatch");
    sw.style.background = colour(c.id);
    li.appendChild(sw);
    li.appendChild(text("span", c.label.join(", ") + " (" + c.size + ")"));
    if (c.single_source) { li.appendChild(text("div", "rests on " + c.single_source, "hint")); }
    li.value = c.id;
    ol.appendChild(li);
  });
  var missing = document.getElementById("missing");
  data.missing.forEach(function (x) {
    missing.appendChild(text("li", x.title + (x.year ? " (" + x.year + ")" : "") + " · cited by " + x.n));
  });
  window.sciverifyMap = {show: show, data: data, view: view};
  draw();
})();
"""
