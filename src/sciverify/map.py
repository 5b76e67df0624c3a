"""map: a literature map of the corpus, to show what to read next (issue 7).

`sciverify.map_graph.build_graph` keeps a graph of the corpus papers in the store (citation,
semantic and shared-evidence edges, rebuilt incrementally); `map_corpus` clusters it (Louvain),
labels the clusters by their distinctive terms and reports central papers, bridge papers,
clusters resting on one dataset or group, central papers no run has cited yet, and references
many corpus papers cite that the corpus lacks. `sciverify.map_render` writes GraphML and HTML.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from sciverify.errors import InputError
from sciverify.ingest.identity import normalise_title
from sciverify.map_graph import STOPWORDS, GraphReport, build_graph
from sciverify.progress import NO_PROGRESS, Progress

log = logging.getLogger(__name__)

# How much one edge of each kind pulls two papers into one cluster (semantic edges carry their
# cosine similarity on top of this factor).
KIND_WEIGHT = {"citation": 1.0, "semantic": 1.0, "shared_evidence": 0.5}


# -- records -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapPaper:
    paper_id: str
    title: str | None
    year: int | None
    authors: tuple[str, ...]
    doi: str | None
    cluster: int
    centrality: float  # PageRank over the whole graph, scaled so the most central paper is 1
    citations_in: int  # corpus papers citing it
    is_read: bool  # cited in some ask/verify run
    is_focus: bool = False  # the --around paper or a paper of the --from-run run


@dataclass(frozen=True, slots=True)
class MapEdge:
    src: str
    dst: str
    kind: str
    weight: float
    detail: str | None = None  # citation: the reference string; shared_evidence: the entities


@dataclass(frozen=True, slots=True)
class Cluster:
    cluster: int  # 1-based, largest first
    size: int
    label: tuple[str, ...]
    central: tuple[str, ...]  # paper ids, most central first
    single_source: str | None  # "dataset: X (4/5 papers)" when one dataset or group dominates


@dataclass(frozen=True, slots=True)
class Bridge:
    paper_id: str
    clusters: tuple[int, ...]  # the clusters it connects, its own first
    score: float


@dataclass(frozen=True, slots=True)
class MissingPaper:
    title: str
    year: int | None
    key: str  # doi:..., arxiv:... or title:...
    cited_by: tuple[str, ...]  # corpus papers citing it
    example: str  # one reference string as printed


@dataclass(slots=True)
class LiteratureMap:
    papers: list[MapPaper]
    edges: list[MapEdge]
    clusters: list[Cluster]
    bridges: list[Bridge]
    unread_central: list[str]
    missing: list[MissingPaper]
    focus: list[str] = field(default_factory=list)
    titles: dict[str, str | None] = field(default_factory=dict)  # every corpus paper's title
    build: GraphReport | None = None
    seconds: dict[str, float] = field(default_factory=dict)

    def paper(self, paper_id: str) -> MapPaper:
        return next(p for p in self.papers if p.paper_id == paper_id)


# -- analysis ---------------------------------------------------------------------------------------


def map_corpus(*, store: Any, settings: Any, around: str | None = None, from_run: str | None = None,
               k: int = 10, rebuild: bool = False, top: int = 20,
               progress: Progress = NO_PROGRESS) -> LiteratureMap:
    """The literature map: clusters, central, bridge, unread and missing papers.

    Args:
        store: an open Store; when writable the stored graph is first brought up to date.
        settings: Settings.
        around: show only this paper and its neighbours.
        from_run: show only the papers cited by this ask/verify run and their neighbours.
        k: semantic neighbours per paper.
        rebuild: rebuild the stored graph from scratch.
        top: how many bridges, unread central papers and missing papers to list.

    Raises:
        InputError: unknown paper or run, or a read-only corpus whose graph was never built.
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    report = None
    if not store.read_only:
        report = build_graph(store=store, settings=settings, k=k, rebuild=rebuild,
                             progress=progress)
    elif store.scalar("SELECT count(*) FROM map_state WHERE name = 'config'") == 0:
        raise InputError("this corpus has no map graph yet", path=store.corpus_dir,
                         hint=f"run once with a writable corpus: sciverify map --corpus "
                              f"{store.corpus_dir}")
    timings["graph"] = time.perf_counter() - started
    works = {r["paper_id"]: r for r in store.rows(
        "SELECT paper_id, title, year, authors, doi, abstract FROM works ORDER BY paper_id")}
    edges = [MapEdge(*row) for row in store.execute(
        "SELECT src, dst, kind, weight, detail FROM map_edges ORDER BY kind, src, dst").fetchall()
        if row[0] in works and row[1] in works]
    core, focus = _focus(store, works, edges, around, from_run)
    t = time.perf_counter()
    membership, centrality, graph = _cluster(list(works), edges)
    timings["cluster"] = time.perf_counter() - t
    members: dict[int, list[str]] = defaultdict(list)
    for paper_id in sorted(works, key=lambda p: (-centrality[p], p)):
        members[membership[paper_id]].append(paper_id)
    labels = _labels(works, members)
    cited_in = Counter(e.dst for e in edges if e.kind == "citation")
    read = _read_papers(store)
    papers = [MapPaper(p, w["title"], w["year"], tuple(w["authors"] or ()), w["doi"],
                       membership[p], round(centrality[p], 6), cited_in[p], p in read,
                       p in core)
              for p, w in works.items()]
    entities = _entity_sets(store)
    clusters = [Cluster(c, len(ids), labels[c], tuple(ids[:3]),
                        _single_source(ids, entities, works))
                for c, ids in sorted(members.items())]
    view = set(focus) if focus else set(works)
    bridges = [b for b in _bridges(graph, membership, centrality) if b.paper_id in view][:top]
    unread = [p for c in clusters for p in c.central[:2] if p not in read and p in view]
    unread.sort(key=lambda p: (-centrality[p], p))
    missing = _missing(store, view)[:top]
    if focus:
        papers = [p for p in papers if p.paper_id in view]
        edges = [e for e in edges if e.src in view and e.dst in view]
        shown = {p.cluster for p in papers}
        clusters = [c for c in clusters if c.cluster in shown]
    timings["total"] = time.perf_counter() - started
    return LiteratureMap(papers, edges, clusters, bridges, unread[:top], missing,
                         sorted(focus), {p: w["title"] for p, w in works.items()}, report,
                         {k_: round(v, 3) for k_, v in timings.items()})


def _focus(store: Any, works: dict[str, Any], edges: list[MapEdge], around: str | None,
           from_run: str | None) -> tuple[set[str], list[str]]:
    """The papers asked about, and those with their graph neighbours (empty: the whole map)."""
    core: set[str] = set()
    if around is not None:
        if around not in works:
            from sciverify.catalog import get_paper

            get_paper(store, around)  # raises with "did you mean"
        core.add(around)
    if from_run is not None:
        row = store.rows("SELECT retrieved, output FROM runs WHERE run_id = ?", [from_run])
        if not row:
            known = [r[0] for r in store.execute(
                "SELECT run_id FROM runs ORDER BY created_at DESC LIMIT 3").fetchall()]
            raise InputError(f"no run with id {from_run!r} in this corpus",
                             hint="recent runs: " + ", ".join(known) if known
                             else "run sciverify verify or ask first; each run is logged")
        core |= _papers_in(row[0]["retrieved"]) & set(works)
    if not core:
        if from_run is not None:
            raise InputError(f"run {from_run!r} cites no paper of this corpus",
                             hint="pick a run whose cards carry evidence")
        return core, []
    near = {e.dst for e in edges if e.src in core} | {e.src for e in edges if e.dst in core}
    return core, sorted(core | near)


def _papers_in(raw: str | None) -> set[str]:
    """Paper ids in a run's logged evidence: any "paper_id", or the paper part of a "chunk_id"."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("paper_id"), str):
                out.add(value["paper_id"])
            elif isinstance(value.get("chunk_id"), str):
                out.add(value["chunk_id"].split(":", 1)[0])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    try:
        walk(json.loads(raw or "[]"))
    except ValueError:
        log.warning("a run's retrieved evidence is not JSON; skipped")
    return out


def _read_papers(store: Any) -> set[str]:
    out: set[str] = set()
    for (raw,) in store.execute("SELECT retrieved FROM runs").fetchall():
        out |= _papers_in(raw)
    return out


def _cluster(paper_ids: list[str], edges: list[MapEdge]) -> tuple[dict[str, int], dict[str, float],
                                                                 Any]:
    """Louvain communities (numbered 1.. by size, largest first) and PageRank centrality."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(paper_ids)
    # Every paper has k semantic neighbours however unrelated; only similarity above the lower
    # quartile of neighbour similarities counts, so a paper with no real neighbours stays on its
    # own. (The median isolated 601 of SciFact's 5,183 abstracts, the quartile 214.)
    sims = sorted(e.weight for e in edges if e.kind == "semantic")
    floor = sims[len(sims) // 4] if sims else 0.0
    for e in edges:
        strength = KIND_WEIGHT[e.kind] * (
            max(e.weight - floor, 0.0) / max(1.0 - floor, 1e-6) if e.kind == "semantic"
            else min(e.weight / 5.0, 1.0) if e.kind == "shared_evidence" else 1.0)
        if strength <= 0 or e.src == e.dst:
            continue
        old = graph.get_edge_data(e.src, e.dst, {"weight": 0.0})["weight"]
        graph.add_edge(e.src, e.dst, weight=old + strength)
    communities = nx.community.louvain_communities(graph, weight="weight", seed=0)
    ordered = sorted((sorted(c) for c in communities), key=lambda c: (-len(c), c[0]))
    membership = {p: i for i, ids in enumerate(ordered, 1) for p in ids}
    rank = nx.pagerank(graph, weight="weight") if graph.number_of_edges() else {
        p: 1.0 for p in paper_ids}
    top = max(rank.values(), default=1.0) or 1.0
    return membership, {p: rank.get(p, 0.0) / top for p in paper_ids}, graph


# Words of abstracts in general (structured-abstract headings, reporting verbs), not of a topic.
_GENERIC = frozenset([
    "background", "conclusion", "conclusions", "objective", "objectives", "aim", "aims", "purpose",
    "methods", "design", "setting", "findings", "showed", "show", "found", "find", "present",
    "presents", "presented", "propose", "proposed", "paper", "article", "work", "studies", "report",
    "reported", "basis", "develop", "developed", "provide", "provides", "consider", "considered",
    "through", "further", "well", "known", "first", "second", "however", "here", "thus",
    "therefore", "significant", "significantly", "important", "including", "include", "includes",
    "number", "total", "various",
])
_TERM = re.compile(r"[a-z][a-z0-9\-]{2,}")


def _terms(text: str, *, bigrams: bool) -> set[str]:
    words = [w.strip("-") for w in _TERM.findall(text.lower())]
    words = [w for w in words if w not in STOPWORDS and w not in _GENERIC and len(w) > 2]
    pairs = {f"{a} {b}" for a, b in pairwise(words)} if bigrams else set()
    return set(words) | pairs


def _labels(works: dict[str, Any], members: dict[int, list[str]]) -> dict[int, tuple[str, ...]]:
    """Each cluster's most distinctive terms of titles and abstracts: how common a term is in the
    cluster, times how much of its use falls in the cluster, times its rarity; title terms (and
    title bigrams) weigh more, so a cluster of one or two papers is named by its titles."""
    titled = {p: _terms(w["title"] or "", bigrams=True) for p, w in works.items()}
    terms = {p: titled[p] | _terms((w["abstract"] or "")[:3000], bigrams=False)
             for p, w in works.items()}
    df = Counter(t for ts in terms.values() for t in ts)
    n = len(works)
    labels = {}
    for c, ids in members.items():
        tf = Counter(t for p in ids for t in terms[p])
        in_titles = Counter(t for p in ids for t in titled[p])
        need = 1 if len(ids) <= 2 else 2
        scored = [((count / len(ids)) * (count / df[t]) * math.log(1 + n / df[t])
                   * (1 + in_titles[t] / len(ids)), t)
                  for t, count in tf.items() if count >= need and (df[t] < n or n == 1)]
        picked: list[str] = []
        for _score, term in sorted(scored, key=lambda x: (-x[0], x[1])):
            if any(term in p or p in term for p in picked):
                continue
            picked.append(term)
            if len(picked) == 4:
                break
        labels[c] = tuple(picked)
    return labels


def _entity_sets(store: Any) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for paper_id, kind, entity in store.execute(
            "SELECT paper_id, kind, entity FROM map_entities WHERE kind <> 'metric'").fetchall():
        out[paper_id].add(f"{kind}: {entity}")
    return out


def _single_source(ids: list[str], entities: dict[str, set[str]],
                   works: dict[str, Any], share: float = 0.6) -> str | None:
    """A dataset, population or author that most papers of a cluster share (a single point of
    failure: one bad dataset or one group's method would spoil the whole cluster)."""
    if len(ids) < 3:
        return None
    sources = Counter(e for p in ids for e in entities.get(p, ()))
    authors = Counter(_author_key(a) for p in ids for a in set(works[p]["authors"] or ()))
    for counts, prefix in ((sources, ""), (authors, "group: ")):
        for name, count in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[:1]:
            if name and count >= share * len(ids):
                return f"{prefix}{name} ({count}/{len(ids)} papers)"
    return None


def _author_key(author: str) -> str:
    name = normalise_title(author.split(",")[0] if "," in author else author).split()
    return name[-1].capitalize() if name else ""


def _bridges(graph: Any, membership: dict[str, int], centrality: dict[str, float],
             min_link: float = 0.3) -> list[Bridge]:
    """Papers tied to other clusters as well as their own: participation coefficient (how evenly
    the paper's edge weight spreads over clusters) times centrality."""
    out = []
    for node in graph.nodes:
        weights: Counter[int] = Counter()
        for _a, b, w in graph.edges(node, data="weight"):
            weights[membership[b]] += w
        total = sum(weights.values())
        own = membership[node]
        others = [c for c, w in weights.most_common() if c != own and w >= min_link]
        if not total or not others:
            continue
        participation = 1 - sum((w / total) ** 2 for w in weights.values())
        out.append(Bridge(node, (own, *others[:3]), round(participation * centrality[node], 6)))
    return sorted(out, key=lambda b: (-b.score, b.paper_id))


def _missing(store: Any, view: set[str], min_cited: int = 2) -> list[MissingPaper]:
    """References that several corpus papers cite but that resolve to no corpus paper."""
    rows = store.rows(
        "SELECT ref_key, list(DISTINCT paper_id ORDER BY paper_id) AS cited_by,"
        " arg_max(title, length(title)) AS title, mode(year) AS year, min(raw) AS example"
        " FROM map_references WHERE matched_paper_id IS NULL AND ref_key IS NOT NULL"
        " GROUP BY ref_key HAVING count(DISTINCT paper_id) >= ?"
        " ORDER BY count(DISTINCT paper_id) DESC, ref_key", [min_cited])
    return [MissingPaper(r["title"] or r["ref_key"].split(":", 1)[1], r["year"], r["ref_key"],
                         tuple(r["cited_by"]), r["example"])
            for r in rows if view & set(r["cited_by"])]
