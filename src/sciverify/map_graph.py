"""The stored map graph (issue 7): corpus papers and their citation, semantic and
shared-evidence edges, rebuilt incrementally. `sciverify.map` analyses it.

- citation: a paper's parsed reference list resolves to another corpus paper, by DOI, arXiv id,
  else by title (the paper's title inside the reference string, or a close parsed title) + year;
- semantic: each paper's k nearest papers by the embedding of title + abstract (the mean of the
  paper's abstract chunk vectors already in the dense index; embedded afresh only when missing);
- shared evidence: papers naming the same dataset, metric or study population in their method
  and result chunks (entities rarer than a cap, weighted by inverse document frequency).
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from sciverify.ingest.identity import normalise_arxiv, normalise_doi, normalise_title
from sciverify.progress import NO_PROGRESS, Progress

log = logging.getLogger(__name__)

GRAPH_FORMAT = "sciverify-map/1"
EDGE_KINDS = ("citation", "semantic", "shared_evidence")

STOPWORDS = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "into",
    "is", "it", "its", "of", "on", "or", "that", "the", "their", "this", "to", "was", "were",
    "with", "we", "our", "using", "use", "used", "based", "via", "between", "among", "than", "not",
    "no", "can", "may", "study", "paper", "results", "result", "method", "methods", "new", "two",
    "one", "also", "these", "those", "which", "who", "how", "what", "when", "analysis", "approach",
    "data", "model", "models", "show", "shows", "shown", "effect", "effects", "during", "after",
    "under", "over", "more", "most", "high", "low", "large", "small", "different", "however",
    "both", "such", "other", "each", "all", "within", "without",
])


@dataclass(frozen=True, slots=True)
class GraphReport:
    papers: int
    changed: int
    removed: int
    edges: dict[str, int]
    seconds: float



# -- entities for shared-evidence edges ----------------------------------------------------------

_DATASET_WORDS = (r"data\s?sets?|corpus|corpora|benchmarks?|databases?|cohorts?|registry|"
                  r"registries|biobank|trials?|surveys?|challenge|collection")
_NAME = r"[A-Z][\w\-]*(?:[ ][A-Z0-9][\w\-]*){0,3}"
_DATASET_BEFORE = re.compile(rf"\b({_NAME})[ ](?:{_DATASET_WORDS})\b")
_DATASET_AFTER = re.compile(rf"\b(?:{_DATASET_WORDS})[ ](?:called[ ]|named[ ])?\(?({_NAME})")
# An identifier-like name (TREC, ClueWeb09, CIFAR-10, MIMIC-III) a few words from a dataset word.
_IDENT_NEAR = re.compile(
    rf"\b([A-Z][A-Za-z]*\d[\w\-]*|[A-Z]{{3,}}(?:-[\dA-Z]+)?|[A-Z][a-z]+[A-Z][\w\-]*)\b"
    rf"(?=(?:\W+\w+){{0,4}}?\W+(?:{_DATASET_WORDS})\b)")
_NOT_A_NAME = frozenset([
    "the", "this", "that", "these", "our", "a", "an", "in", "of", "for", "we", "each", "all",
    "both", "its", "their", "from", "with", "on", "to", "one", "two", "three", "table", "figure",
    "fig", "section",
])
_METRICS = {
    "accuracy": "accuracy", "f1": "F1", "f1-score": "F1", "f-score": "F1", "f-measure": "F1",
    "auc": "AUC", "auroc": "AUC", "roc": "AUC", "ndcg": "nDCG", "mrr": "MRR", "bleu": "BLEU",
    "rouge": "ROUGE", "meteor": "METEOR", "perplexity": "perplexity", "rmse": "RMSE",
    "mae": "MAE", "mse": "MSE", "hazard ratio": "hazard ratio", "odds ratio": "odds ratio",
    "relative risk": "relative risk", "risk ratio": "relative risk", "mortality": "mortality",
    "incidence": "incidence", "prevalence": "prevalence", "sensitivity": "sensitivity",
    "specificity": "specificity", "kappa": "kappa", "icc": "ICC", "recall": "recall",
    "precision": "precision", "throughput": "throughput", "latency": "latency",
    "nse": "Nash-Sutcliffe efficiency", "bmi": "BMI", "qaly": "QALY",
}
_METRIC = re.compile(r"\b(" + "|".join(sorted((re.escape(m) for m in _METRICS), key=len,
                                              reverse=True)) + r")\b", re.IGNORECASE)
_SPECIES = {"mouse": "mice", "mice": "mice", "murine": "mice", "rat": "rats", "rats": "rats",
            "zebrafish": "zebrafish", "drosophila": "drosophila", "yeast": "yeast",
            "macaques": "macaques", "pigs": "pigs", "dogs": "dogs", "rabbits": "rabbits",
            "sharks": "sharks", "ants": "ants", "bees": "bees", "chickens": "chickens",
            "sheep": "sheep", "cattle": "cattle", "primates": "primates"}
_SPECIES_SCOPE = re.compile(r"\b(?:in|of|from|using|among)[ ](?:[\w-]+[ ]){0,2}?("
                            + "|".join(_SPECIES) + r")\b", re.IGNORECASE)
_PEOPLE = re.compile(
    r"\b(patients|participants|subjects|individuals|women|men|children|adults|infants|neonates|"
    r"adolescents|smokers|pregnant women)[ ](?:with|who[ ]had|who[ ]have|undergoing|receiving)"
    r"[ ]((?:[a-z0-9][\w\-]*[ ]?){1,3})", re.IGNORECASE)
_POP_NOUN = {"participants": "patients", "subjects": "patients", "individuals": "patients"}


def _clean_name(name: str) -> str | None:
    words = name.split()
    while words and words[0].lower() in _NOT_A_NAME:
        words = words[1:]
    if not words or len("".join(words)) < 3 or " ".join(words).lower() in _METRICS:
        return None
    if len(words) == 1 and not re.search(r"[A-Z]{2}|\d", words[0]):
        return None  # "Healthy cohort": one ordinary capitalised word is no name
    return " ".join(words)


def extract_entities(text: str) -> set[tuple[str, str]]:
    """(kind, entity) pairs a method or result passage names: datasets, metrics, populations."""
    out: set[tuple[str, str]] = set()
    for pattern in (_DATASET_BEFORE, _DATASET_AFTER, _IDENT_NEAR):
        for m in pattern.finditer(text):
            name = _clean_name(m.group(1))
            if name:
                out.add(("dataset", name))
    for m in _METRIC.finditer(text):
        out.add(("metric", _METRICS[m.group(1).lower()]))
    for m in _SPECIES_SCOPE.finditer(text):
        out.add(("population", _SPECIES[m.group(1).lower()]))
    for m in _PEOPLE.finditer(text):
        tail = [w for w in m.group(2).lower().split() if w not in STOPWORDS]
        if tail:
            noun = m.group(1).lower()
            out.add(("population", f"{_POP_NOUN.get(noun, noun)} with {' '.join(tail)}"))
    return out


# -- citation resolution ---------------------------------------------------------------------------

_DOI_IN = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_ARXIV_IN = re.compile(r"(?:arXiv[:\s]\s*|arxiv\.org/abs/)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?"
                       r"/\d{7})", re.IGNORECASE)
_YEAR_IN = re.compile(r"(?<![\d/.])((?:19|20)\d{2})[a-z]?(?![\d/])")
_MIN_TITLE_WORDS = 4  # a title found inside a reference string must be at least this long


@dataclass(frozen=True, slots=True)
class _Target:
    paper_id: str
    norm_title: str
    year: int | None
    surname: str


class _Resolver:
    """Finds which corpus paper, if any, a reference string names."""

    def __init__(self, works: list[dict[str, Any]]) -> None:
        self.by_doi: dict[str, str] = {}
        self.by_arxiv: dict[str, str] = {}
        self.targets: list[_Target] = []
        for w in works:
            if doi := normalise_doi(w["doi"]):
                self.by_doi[doi] = w["paper_id"]
            if arxiv := normalise_arxiv(w["arxiv_id"])[0]:
                self.by_arxiv[arxiv] = w["paper_id"]
            title = normalise_title(w["title"])
            if title and len(title.split()) >= 2:
                first = (w["authors"] or [""])[0] or ""
                surname = normalise_title(first.split(",")[0] if "," in first else first)
                self.targets.append(_Target(w["paper_id"], title, w["year"],
                                            surname.split()[-1] if surname else ""))
        # Block on each title's two rarest words: a reference can only name a title whose rare
        # words it contains, so each reference is compared with a handful of titles, not all.
        df = Counter(word for t in self.targets for word in set(t.norm_title.split()))
        self.block: dict[str, list[int]] = defaultdict(list)
        for i, t in enumerate(self.targets):
            words = sorted(set(t.norm_title.split()) - STOPWORDS or set(t.norm_title.split()),
                           key=lambda word: (df[word], word))
            for word in words[:2]:
                self.block[word].append(i)

    def resolve(self, ref: dict[str, Any]) -> tuple[str, str] | None:
        """(paper_id, how) for a reference row of the store, or None."""
        raw = ref["raw"] or ""
        doi = _doi_of(ref, raw)
        if doi and doi in self.by_doi:
            return self.by_doi[doi], "doi"
        arxiv = normalise_arxiv(ref["arxiv_id"])[0] or (
            normalise_arxiv(m.group(1))[0] if (m := _ARXIV_IN.search(raw)) else None)
        if arxiv and arxiv in self.by_arxiv:
            return self.by_arxiv[arxiv], "arxiv"
        norm_raw = f" {normalise_title(raw)} "
        words = set(norm_raw.split())
        # The parsed year can come from a note merged into the entry ("see Wang et al. (2020)"),
        # so every year the string names counts.
        years = {int(y) for y in _YEAR_IN.findall(raw)} | ({ref["year"]} if ref["year"] else set())
        parsed = normalise_title(ref["title"])
        best: tuple[float, str, str] | None = None
        for i in sorted({i for word in words for i in self.block.get(word, ())}):
            t = self.targets[i]
            year_ok = not (t.year and years) or any(abs(t.year - y) <= 1 for y in years)
            n_words = len(t.norm_title.split())
            inside = f" {t.norm_title} " in norm_raw
            by_author = bool(t.surname) and f" {t.surname} " in norm_raw
            # The whole title and the first author outweigh a year that disagrees: a paper's own
            # year is often its preprint's, or misread from the PDF.
            if inside and ((n_words >= _MIN_TITLE_WORDS and (year_ok or by_author))
                           or (by_author and t.year in years)):
                score, how = 1.0 + n_words / 100, "title"
            elif parsed and n_words >= 3 and year_ok:
                score = SequenceMatcher(None, parsed, t.norm_title).ratio()
                if score < 0.9:
                    continue
                how = "fuzzy-title"
            else:
                continue
            if best is None or score > best[0]:
                best = (score, t.paper_id, how)
        return (best[1], best[2]) if best else None


def _doi_of(ref: dict[str, Any], raw: str) -> str | None:
    doi = normalise_doi(ref["doi"]) or normalise_doi(m.group(0) if (m := _DOI_IN.search(raw))
                                                     else None)
    # A DOI cut at a line break ("10.1016/j") names no work.
    return doi if doi and len(doi.split("/", 1)[1]) >= 4 else None


def reference_key(ref: dict[str, Any]) -> str | None:
    """What identifies the work a reference names, for counting citations of missing papers."""
    raw = ref["raw"] or ""
    if doi := _doi_of(ref, raw):
        return f"doi:{doi}"
    if arxiv := normalise_arxiv(ref["arxiv_id"])[0] or (
            normalise_arxiv(m.group(1))[0] if (m := _ARXIV_IN.search(raw)) else None):
        return f"arxiv:{arxiv}"
    title = normalise_title(ref["title"])
    words = title.split()
    # A parsed "title" that is a journal and page numbers ("Mol Biol Evol 2012 29 8") is no key.
    if len([w for w in words if w.isalpha()]) < 3 or sum(w.isdigit() for w in words) > 1:
        return None
    return f"title:{title}"


# -- building the stored graph (incremental) -------------------------------------------------------

_EVIDENCE_TYPES = ("method", "result")


def _state_keys(store: Any) -> dict[str, str]:
    """A key per paper that changes whenever what the map reads of it changes."""
    rows = store.execute(
        "SELECT w.paper_id, md5(concat_ws('|', w.current_version_id, w.title, w.year, w.doi,"
        " w.arxiv_id, w.abstract, array_to_string(w.authors, ';'),"
        " (SELECT string_agg(c.text_hash, ',' ORDER BY c.chunk_id) FROM chunks c"
        "  WHERE c.paper_id = w.paper_id),"
        " (SELECT string_agg(r.raw, '|' ORDER BY r.ordinal) FROM \"references\" r"
        "  WHERE r.version_id = w.current_version_id))) FROM works w").fetchall()
    return {r[0]: r[1] for r in rows}


def _config_key(settings: Any, k: int) -> str:
    return f"{GRAPH_FORMAT} model={settings.index.model} k={k}"


def build_graph(*, store: Any, settings: Any, k: int = 10, rebuild: bool = False,
                progress: Progress = NO_PROGRESS) -> GraphReport:
    """Bring the stored map graph up to date with the corpus.

    Only papers added or changed since the last build get new vectors, entities and reference
    resolutions; other papers' references are re-tried only against the changed papers, and
    their nearest neighbours are updated with the changed papers. Shared-evidence edges are
    recomputed from the stored entities (their weights depend on corpus-wide frequencies).

    Args:
        store: an open, writable Store.
        settings: Settings (the embedding model and the index folder).
        k: semantic neighbours per paper.
        rebuild: forget the stored graph and start over.
    """
    from sciverify.store.db import now

    started = time.perf_counter()
    config = _config_key(settings, k)
    stored_config = store.scalar("SELECT value FROM map_state WHERE name = 'config'")
    if rebuild or stored_config != config:
        with store.transaction() as conn:
            for table in ("map_papers", "map_entities", "map_references", "map_edges"):
                conn.execute(f"DELETE FROM {table}")
    keys = _state_keys(store)
    known = dict(store.execute("SELECT paper_id, state_key FROM map_papers").fetchall())
    changed = sorted(p for p, key in keys.items() if known.get(p) != key)
    removed = sorted(set(known) - set(keys))
    progress.start(len(changed), "map")
    vectors = _paper_vectors(store, settings, changed)
    entities = _entities_of(store, changed)
    works = store.rows("SELECT paper_id, title, year, doi, arxiv_id, authors FROM works")
    gone = set(changed) | set(removed)
    with store.transaction() as conn:
        if gone:
            conn.execute("DELETE FROM map_entities WHERE paper_id IN (SELECT unnest(?))", [list(gone)])
            conn.execute("DELETE FROM map_references WHERE paper_id IN (SELECT unnest(?))",
                         [list(gone)])
            conn.execute("DELETE FROM map_papers WHERE paper_id IN (SELECT unnest(?))", [list(gone)])
            conn.execute("DELETE FROM map_edges WHERE kind <> 'semantic' AND"
                         " (src IN (SELECT unnest(?)) OR dst IN (SELECT unnest(?)))",
                         [list(gone), list(gone)])
            conn.execute("DELETE FROM map_edges WHERE kind = 'semantic' AND"
                         " dst IN (SELECT unnest(?))", [list(gone)])
        _store_references(conn, works, changed, gone)
        rows = [(p, kind, name) for p in changed for kind, name in sorted(entities.get(p, ()))]
        if rows:
            _insert(conn, "map_entities", rows, 3)
        built = now()
        if changed:
            _insert(conn, "map_papers",
                    [(p, keys[p], vectors[p].tolist(), built) for p in changed], 4)
        _update_semantic(conn, changed, k)
        _update_shared_evidence(conn, len(keys))
        conn.execute("DELETE FROM map_state WHERE name = 'config'")
        conn.execute("INSERT INTO map_state VALUES ('config', ?, ?)", [config, built])
    progress.done()
    edges = dict(store.execute("SELECT kind, count(*) FROM map_edges GROUP BY kind").fetchall())
    return GraphReport(len(keys), len(changed), len(removed),
                       {kind: int(edges.get(kind, 0)) for kind in EDGE_KINDS},
                       time.perf_counter() - started)


def _paper_vectors(store: Any, settings: Any, paper_ids: list[str]) -> dict[str, Any]:
    """Title + abstract vectors: the mean of the paper's abstract chunk vectors (first chunks when
    it has no abstract) read back from the dense index; embedded afresh when not indexed."""
    import numpy as np

    from sciverify.index import DENSE_FILE, get_embedder, passage_text

    if not paper_ids:
        return {}
    embedder = get_embedder(settings)
    rows = store.execute(
        "WITH ranked AS (SELECT c.paper_id, c.chunk_id, c.text_hash, c.section_kind,"
        "  row_number() OVER (PARTITION BY c.paper_id ORDER BY c.section_ordinal, c.ordinal) AS n"
        "  FROM chunks c WHERE c.paper_id IN (SELECT unnest(?)) AND c.kind = 'text')"
        " SELECT r.paper_id, d.row_id FROM ranked r JOIN dense_rows d"
        " ON d.chunk_id = r.chunk_id AND d.text_hash = r.text_hash AND d.model = ?"
        " WHERE r.section_kind = 'abstract' OR (r.n <= 3 AND NOT EXISTS (SELECT 1 FROM ranked a"
        "  WHERE a.paper_id = r.paper_id AND a.section_kind = 'abstract'))",
        [paper_ids, embedder.model_id]).fetchall()
    out: dict[str, Any] = {}
    dense_path = settings.index_dir / DENSE_FILE
    if rows and dense_path.is_file():
        import faiss

        index = faiss.read_index(str(dense_path))
        ids = np.asarray([r[1] for r in rows], dtype=np.int64)
        try:
            stored = index.reconstruct_batch(ids)
        except RuntimeError:
            log.warning("dense index and dense_rows disagree; embedding papers afresh")
            stored = None
        if stored is not None:
            groups: dict[str, list[int]] = defaultdict(list)
            for i, (paper_id, _row) in enumerate(rows):
                groups[paper_id].append(i)
            for paper_id, idx in groups.items():
                mean = stored[idx].mean(axis=0)
                out[paper_id] = (mean / max(float(np.linalg.norm(mean)), 1e-9)).astype(np.float32)
    missing = [p for p in paper_ids if p not in out]
    if missing:
        meta = {r["paper_id"]: r for r in store.rows(
            "SELECT paper_id, title, abstract FROM works WHERE paper_id IN (SELECT unnest(?))",
            [missing])}
        texts = [passage_text(meta[p]["title"], (meta[p]["abstract"] or "")[:2000]) or p
                 for p in missing]
        for paper_id, vector in zip(missing, embedder.encode_passages(texts), strict=True):
            out[paper_id] = vector
    return out


def _entities_of(store: Any, paper_ids: list[str]) -> dict[str, set[tuple[str, str]]]:
    out: dict[str, set[tuple[str, str]]] = defaultdict(set)
    if not paper_ids:
        return out
    cur = store.execute(
        "SELECT paper_id, text FROM chunks WHERE paper_id IN (SELECT unnest(?))"
        " AND (evidence_type IN (SELECT unnest(?)) OR section_kind IN ('methods', 'results'))",
        [paper_ids, list(_EVIDENCE_TYPES)])
    while batch := cur.fetchmany(2000):
        for paper_id, text in batch:
            out[paper_id] |= extract_entities(text)
    return out


def _store_references(conn: Any, works: list[dict[str, Any]], changed: list[str],
                      gone: set[str]) -> None:
    """Resolve the changed papers' references against the corpus, and the other papers'
    unresolved references against the changed papers; write citation edges."""
    resolver = _Resolver(works)
    refs = _rows(conn,
        "SELECT w.paper_id, r.ordinal, r.raw, r.title, r.year, r.doi, r.arxiv_id"
        " FROM works w JOIN \"references\" r ON r.version_id = w.current_version_id"
        " WHERE w.paper_id IN (SELECT unnest(?)) ORDER BY w.paper_id, r.ordinal", [changed])
    resolved = []
    for ref in refs:
        hit = resolver.resolve(ref)
        if hit and hit[0] == ref["paper_id"]:
            hit = None  # a paper does not cite itself (a preprint of it, at most)
        resolved.append((ref["paper_id"], ref["ordinal"], reference_key(ref), ref["title"],
                         ref["year"], ref["raw"], hit[0] if hit else None, hit[1] if hit else None))
    if resolved:
        _insert(conn, "map_references", resolved, 8)
    if changed:
        fresh = _Resolver([w for w in works if w["paper_id"] in set(changed)])
        open_refs = _rows(conn,
            "SELECT m.paper_id, m.ordinal, m.matched_paper_id AS matched, r.raw, r.title, r.year,"
            " r.doi, r.arxiv_id FROM map_references m JOIN works w USING (paper_id)"
            " JOIN \"references\" r ON r.version_id = w.current_version_id AND r.ordinal = m.ordinal"
            " WHERE (m.matched_paper_id IS NULL OR m.matched_paper_id IN (SELECT unnest(?)))"
            " AND m.paper_id NOT IN (SELECT unnest(?))", [sorted(gone), changed])
        for ref in open_refs:
            hit = fresh.resolve(ref)
            if hit and hit[0] == ref["paper_id"]:
                hit = None
            if hit is None and ref["matched"] is None:
                continue
            conn.execute("UPDATE map_references SET matched_paper_id = ?, match_kind = ?"
                         " WHERE paper_id = ? AND ordinal = ?",
                         [hit[0] if hit else None, hit[1] if hit else None, ref["paper_id"],
                          ref["ordinal"]])
    conn.execute("DELETE FROM map_edges WHERE kind = 'citation'")
    conn.execute(
        "INSERT INTO map_edges SELECT paper_id, matched_paper_id, 'citation', 1.0,"
        " min(raw ORDER BY ordinal) FROM map_references WHERE matched_paper_id IS NOT NULL"
        " AND matched_paper_id <> paper_id GROUP BY paper_id, matched_paper_id")


def _insert(conn: Any, table: str, rows: list[tuple[Any, ...]], width: int) -> None:
    """Many rows in one statement (column lists unnested together): executemany is row by row."""
    if not rows:
        return
    columns = [list(col) for col in zip(*rows, strict=True)]
    conn.execute(f"INSERT INTO {table} SELECT {', '.join(['unnest(?)'] * width)}", columns)


def _rows(conn: Any, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _update_semantic(conn: Any, changed: list[str], k: int) -> None:
    """Each changed paper gets its k nearest papers; every other paper keeps its neighbours
    unless a changed paper comes nearer. Edges are directed (a paper's own neighbour list)."""
    import faiss
    import numpy as np

    rows = conn.execute("SELECT paper_id, vector FROM map_papers ORDER BY paper_id").fetchall()
    if len(rows) < 2 or not changed:
        return
    ids = [r[0] for r in rows]
    matrix = np.ascontiguousarray(np.asarray([r[1] for r in rows], dtype=np.float32))
    pos = {p: i for i, p in enumerate(ids)}
    want = min(k, len(ids) - 1)
    changed_set = set(changed)
    # Papers whose neighbour list lost a paper need a full search too.
    short = {r[0] for r in conn.execute(
        "SELECT p.paper_id FROM map_papers p LEFT JOIN map_edges e ON e.src = p.paper_id"
        " AND e.kind = 'semantic' GROUP BY p.paper_id HAVING count(e.dst) < ?", [want]).fetchall()}
    full = sorted((changed_set | short) & set(pos))
    index = faiss.IndexFlatIP(matrix.shape[1])
    index.add(matrix)
    new_edges: list[tuple[str, str, str, float, None]] = []
    if full:
        scores, hits = index.search(matrix[[pos[p] for p in full]], want + 1)
        for p, srow, hrow in zip(full, scores, hits, strict=True):
            pairs = sorted(((float(s), ids[h]) for s, h in zip(srow, hrow, strict=True)
                            if h >= 0 and ids[h] != p), key=lambda x: (-x[0], x[1]))[:want]
            new_edges += [(p, q, "semantic", round(s, 6), None) for s, q in pairs]
    rest = sorted(set(ids) - set(full))
    if rest:
        current = defaultdict(list)
        for src, dst, weight in conn.execute(
                "SELECT src, dst, weight FROM map_edges WHERE kind = 'semantic'").fetchall():
            current[src].append((weight, dst))
        fresh = matrix[[pos[p] for p in changed]]
        sims = matrix[[pos[p] for p in rest]] @ fresh.T
        for i, p in enumerate(rest):
            pairs = current[p] + [(float(s), q) for s, q in zip(sims[i], changed, strict=True)]
            best = sorted(pairs, key=lambda x: (-x[0], x[1]))[:want]
            if best != sorted(current[p], key=lambda x: (-x[0], x[1])):
                conn.execute("DELETE FROM map_edges WHERE kind = 'semantic' AND src = ?", [p])
                new_edges += [(p, q, "semantic", round(float(s), 6), None) for s, q in best]
    if full:
        conn.execute("DELETE FROM map_edges WHERE kind = 'semantic' AND src IN (SELECT unnest(?))",
                     [full])
    if new_edges:
        _insert(conn, "map_edges", new_edges, 5)


def _update_shared_evidence(conn: Any, n_papers: int, per_paper: int = 10) -> None:
    """Pairs naming the same rare-enough entity, weighted by the entities' inverse frequency;
    each paper keeps its strongest `per_paper` pairs."""
    cap = max(4, min(50, int(0.02 * n_papers)))
    conn.execute("DELETE FROM map_edges WHERE kind = 'shared_evidence'")
    conn.execute(
        """
        INSERT INTO map_edges
        WITH df AS (SELECT kind, entity, count(*) AS n FROM map_entities GROUP BY ALL
                    HAVING count(*) BETWEEN 2 AND ?),
        pairs AS (SELECT a.paper_id AS src, b.paper_id AS dst, sum(ln(? / df.n)) AS weight,
                  string_agg(df.kind || ': ' || df.entity, '; ' ORDER BY df.n, df.entity) AS detail
                  FROM map_entities a JOIN map_entities b USING (kind, entity)
                  JOIN df USING (kind, entity) WHERE a.paper_id < b.paper_id GROUP BY ALL
                  HAVING sum(ln(? / df.n)) > 0),
        ranked AS (SELECT *, row_number() OVER (PARTITION BY src ORDER BY weight DESC, dst) AS r1,
                   row_number() OVER (PARTITION BY dst ORDER BY weight DESC, src) AS r2 FROM pairs)
        SELECT src, dst, 'shared_evidence', round(weight, 6), detail FROM ranked
        WHERE r1 <= ? OR r2 <= ?
        """, [cap, float(n_papers), float(n_papers), per_paper, per_paper])
