"""The Tantivy BM25 index and the FAISS dense index on real SciFact abstracts."""

from __future__ import annotations

import gzip
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from sciverify.errors import StaleIndex
from sciverify.index.bm25 import Bm25Doc, Bm25Index, Filters, add_bm25, build_bm25, delete_by_paper
from sciverify.index.dense import DenseIndex, Embedder

N_DOCS = 300
EVIDENCE = ("result", "method", "background")
KINDS = ("text", "table")
VENUES = ("Nature Medicine", "The Lancet", "Cell")


@pytest.fixture(scope="module")
def scifact_docs(shared_corpora: Path) -> list[Bm25Doc]:
    """The first 300 SciFact abstracts as chunks, with metadata spread over them by position."""
    docs = []
    with gzip.open(
        shared_corpora / "scifact" / "beir" / "corpus.jsonl.gz", "rt", encoding="utf-8"
    ) as fh:
        for i, line in enumerate(fh):
            if i == N_DOCS:
                break
            row = json.loads(line)
            docs.append(
                Bm25Doc(
                    chunk_id=f"{row['_id']}:abstract:0",
                    paper_id=row["_id"],
                    text=row["text"],
                    title=row["title"],
                    section="Abstract",
                    year=1990 + i % 30,
                    evidence_type=EVIDENCE[i % 3],
                    kind=KINDS[i % 2],
                    venue=VENUES[i % 3],
                )
            )
    return docs


@pytest.fixture(scope="module")
def bm25_dir(scifact_docs: list[Bm25Doc], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bm25") / "lexical"
    assert build_bm25(path, scifact_docs, rebuild=True) == N_DOCS
    return path


@pytest.fixture(scope="module")
def by_id(scifact_docs: list[Bm25Doc]) -> dict[str, Bm25Doc]:
    return {d.chunk_id: d for d in scifact_docs}


def _words(doc: Bm25Doc) -> set[str]:
    return set(re.findall(r"[a-z]+", f"{doc.title} {doc.text}".lower()))


def test_stemming_matches_other_word_forms(bm25_dir: Path, scifact_docs: list[Bm25Doc]) -> None:
    singular_only = [
        d.chunk_id for d in scifact_docs if "mutation" in _words(d) and "mutations" not in _words(d)
    ]
    assert singular_only, (
        "the sample should hold an abstract that says 'mutation' but never 'mutations'"
    )
    hits = {cid for cid, _ in Bm25Index.open(bm25_dir).search("mutations", 50)}
    assert set(singular_only) <= hits


def test_results_are_sorted_and_scored(bm25_dir: Path) -> None:
    hits = Bm25Index.open(bm25_dir).search("insulin resistance in obese mice", 20)
    assert len(hits) == 20
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(hits))
    assert all(score > 0 for _, score in hits)


def test_title_words_count(bm25_dir: Path, scifact_docs: list[Bm25Doc]) -> None:
    doc = scifact_docs[7]
    hits = Bm25Index.open(bm25_dir).search(doc.title, 5)
    assert hits[0][0] == doc.chunk_id


@pytest.mark.parametrize(
    ("filters", "check"),
    [
        (Filters(year_min=2000, year_max=2005), lambda d: 2000 <= d.year <= 2005),
        (Filters(year_min=2015), lambda d: d.year >= 2015),
        (Filters(year_max=1994), lambda d: d.year <= 1994),
        (Filters(evidence_types=("result",)), lambda d: d.evidence_type == "result"),
        (Filters(evidence_types=("method", "background")), lambda d: d.evidence_type != "result"),
        (Filters(kinds=("table",)), lambda d: d.kind == "table"),
        (Filters(venues=("the lancet",)), lambda d: d.venue == "The Lancet"),
        (
            Filters(year_min=2000, kinds=("text",), venues=("Cell",)),
            lambda d: d.year >= 2000 and d.kind == "text" and d.venue == "Cell",
        ),
    ],
)
def test_filters_restrict_hits_and_keep_scores(
    bm25_dir: Path, by_id: dict[str, Bm25Doc], filters: Filters, check
) -> None:  # type: ignore[no-untyped-def]
    index = Bm25Index.open(bm25_dir)
    query = "cell protein expression in patients"
    unfiltered = dict(index.search(query, N_DOCS))
    expected = sorted(
        ((cid, s) for cid, s in unfiltered.items() if check(by_id[cid])),
        key=lambda p: (-p[1], p[0]),
    )
    filtered = index.search(query, 10, filters)
    assert filtered and all(check(by_id[cid]) for cid, _ in filtered)
    assert [cid for cid, _ in filtered] == [cid for cid, _ in expected[:10]]
    assert [s for _, s in filtered] == pytest.approx([s for _, s in expected[:10]])


def test_paper_filter(bm25_dir: Path, scifact_docs: list[Bm25Doc]) -> None:
    wanted = (scifact_docs[3].paper_id, scifact_docs[4].paper_id)
    hits = Bm25Index.open(bm25_dir).search("the of and", 10, Filters(paper_ids=wanted))
    assert {cid.split(":")[0] for cid, _ in hits} == set(wanted)


@pytest.mark.parametrize(
    "query",
    [
        '"AND OR ( ) : ^ ~ * [ ]',
        "title:mutation AND (cancer",
        'gene^3 "unterminated phrase',
        "year:[2000 TO 2010] OR -kind:table",
        "p53~2 * ? \\ / { } ! + - && ||",
    ],
)
def test_query_syntax_characters_are_plain_text(bm25_dir: Path, query: str) -> None:
    index = Bm25Index.open(bm25_dir)
    hits = index.search(query, 10)
    words = " ".join(re.findall(r"[A-Za-z0-9]+", query))
    assert hits == index.search(words, 10)


def test_query_without_words_returns_nothing(bm25_dir: Path) -> None:
    assert Bm25Index.open(bm25_dir).search('"( ) : ^ ~ * [ ]"', 10) == []


def test_add_replaces_and_delete_removes(scifact_docs: list[Bm25Doc], tmp_path: Path) -> None:
    path = tmp_path / "lexical"
    build_bm25(path, scifact_docs[:50], rebuild=True)
    changed = Bm25Doc(
        scifact_docs[0].chunk_id,
        scifact_docs[0].paper_id,
        "zebrafish zebrafish telomerase",
        title="x",
    )
    add_bm25(path, [changed, *scifact_docs[50:60]])
    index = Bm25Index.open(path)
    assert index.num_docs == 60
    assert index.search("zebrafish telomerase", 1)[0][0] == changed.chunk_id
    delete_by_paper(path, [changed.paper_id])
    index.reload()
    assert index.num_docs == 59
    assert all(cid != changed.chunk_id for cid, _ in index.search("zebrafish telomerase", 10))
    build_bm25(path, scifact_docs[:5], rebuild=True)
    assert Bm25Index.open(path).num_docs == 5


def test_missing_index_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StaleIndex) as info:
        Bm25Index.open(tmp_path / "nothing")
    assert info.value.hint


# --------------------------------------------------------------------------- dense


@pytest.fixture(scope="module")
def embedded(scifact_docs: list[Bm25Doc]) -> tuple[Embedder, np.ndarray, np.ndarray]:
    """Real MiniLM embeddings of the titles (short, so this stays fast) and of their first sentences."""
    embedder = Embedder()
    passages = embedder.encode_passages([d.title for d in scifact_docs])
    first_sentences = [d.text.split(". ")[0] for d in scifact_docs[:20]]
    queries = embedder.encode_queries(first_sentences)
    return embedder, passages, queries


def test_embedder_shape_norm_and_id(embedded: tuple[Embedder, np.ndarray, np.ndarray]) -> None:
    embedder, passages, _ = embedded
    assert embedder.dim == 384 and passages.shape == (N_DOCS, 384)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert embedder.model_id.startswith("all-MiniLM-L6-v2@")
    seen: list[tuple[int, int]] = []
    embedder.encode_passages(
        ["a", "b", "c"], on_batch=lambda done, total: seen.append((done, total))
    )
    assert seen[-1] == (3, 3)
    assert np.allclose(embedder.encode_query("insulin"), embedder.encode_queries(["insulin"])[0])
    # The repeated query comes from the cache, and changing a returned vector cannot spoil it.
    first = embedder.encode_query("insulin resistance")
    first[:] = 0.0
    again = embedder.encode_query("insulin resistance")
    assert np.allclose(again, embedder.encode_queries(["insulin resistance"])[0])
    assert "insulin resistance" in embedder._recent_queries


def test_primed_queries_come_from_one_batch_and_match_single_ones(
    embedded: tuple[Embedder, np.ndarray, np.ndarray], scifact_docs: list[Bm25Doc]
) -> None:
    embedder = embedded[0]
    texts = [d.text.split(". ")[0] for d in scifact_docs[20:30]]
    fresh = Embedder()
    single = [fresh.encode_queries([t])[0] for t in texts]
    calls: list[int] = []
    real = embedder.encode_queries

    def counted(batch: list[str], **kw: object) -> np.ndarray:
        calls.append(len(batch))
        return real(batch)

    embedder.encode_queries = counted  # type: ignore[method-assign]
    try:
        embedder.prime_queries(texts + texts[:3])  # repeats are embedded once
        got = [embedder.encode_query(t) for t in texts]
    finally:
        del embedder.encode_queries
    assert calls == [len(texts)]
    for a, b in zip(got, single, strict=True):
        assert np.allclose(a, b, atol=1e-5)


def test_numpy_query_encoder_matches_sentence_transformers(
    scifact_docs: list[Bm25Doc], shared_corpora: Path
) -> None:
    queries = [
        json.loads(line)["text"]
        for line in (shared_corpora / "scifact" / "beir" / "queries.jsonl").open(encoding="utf-8")
    ][:40]
    # a long text (truncated at 256 word pieces), accents and symbols, a one-word query
    queries += [scifact_docs[0].text * 3, "Naïve T-cells: IL-2 ≥ 5 ng/mL (p < 0.05)", "insulin"]
    fast = Embedder().encode_queries(queries)
    torch_side = Embedder(numpy_queries=False).encode_queries(queries)
    assert fast.shape == torch_side.shape == (len(queries), 384)
    assert np.abs(fast - torch_side).max() < 1e-5


def test_numpy_query_encoder_refuses_other_model_shapes(tmp_path: Path) -> None:
    from sciverify.index.dense import default_model_path
    from sciverify.index.numpy_bert import NumpyBert

    source = default_model_path()
    assert NumpyBert.load(source) is not None
    folder = tmp_path / "cls-pooled"
    (folder / "1_Pooling").mkdir(parents=True)
    for name in ("modules.json", "config.json", "sentence_bert_config.json", "tokenizer.json"):
        (folder / name).write_bytes((source / name).read_bytes())
    (folder / "model.safetensors").symlink_to(source / "model.safetensors")
    pooling = json.loads((source / "1_Pooling" / "config.json").read_text())
    (folder / "1_Pooling" / "config.json").write_text(
        json.dumps(pooling | {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True})
    )
    assert NumpyBert.load(folder) is None  # CLS pooling: sentence-transformers encodes these


def _indexes(passages: np.ndarray) -> tuple[DenseIndex, DenseIndex]:
    rows = [1000 + i for i in range(len(passages))]
    flat = DenseIndex(passages.shape[1])
    flat.add(passages, rows)
    hnsw = DenseIndex(passages.shape[1], hnsw_threshold=0)
    hnsw.add(passages, rows)
    assert not flat.is_hnsw and hnsw.is_hnsw
    return flat, hnsw


def test_flat_and_hnsw_agree_on_the_top_hit(
    embedded: tuple[Embedder, np.ndarray, np.ndarray],
) -> None:
    _, passages, queries = embedded
    flat, hnsw = _indexes(passages)
    exact = queries @ passages.T
    for qi, query in enumerate(queries):
        rows_f, scores_f = flat.search(query, 5)
        rows_h, _ = hnsw.search(query, 5)
        assert rows_f[0] == rows_h[0] == 1000 + int(np.argmax(exact[qi]))
        assert scores_f[0] == pytest.approx(float(exact[qi].max()), abs=1e-5)
    # most first sentences find their own paper's title
    own = sum(flat.search(q, 1)[0][0] == 1000 + i for i, q in enumerate(queries))
    assert own >= 15


def test_save_load_round_trip(
    embedded: tuple[Embedder, np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    _, passages, queries = embedded
    for index in _indexes(passages):
        path = tmp_path / f"dense_{index.is_hnsw}.faiss"
        index.save(path)
        loaded = DenseIndex.load(path)
        assert (loaded.ntotal, loaded.dim, loaded.is_hnsw) == (
            index.ntotal,
            index.dim,
            index.is_hnsw,
        )
        assert loaded.search(queries[0], 10) == index.search(queries[0], 10)


def test_allowed_rows_only(embedded: tuple[Embedder, np.ndarray, np.ndarray]) -> None:
    _, passages, queries = embedded
    allowed = {1000 + i for i in range(0, N_DOCS, 7)}
    allowed_list = sorted(allowed)
    exact = queries[3] @ passages[[r - 1000 for r in allowed_list]].T
    best = [allowed_list[i] for i in np.argsort(-exact)[:5]]
    for index in _indexes(passages):
        rows, scores = index.search(queries[3], 5, allowed=allowed)
        assert set(rows) <= allowed and rows == best
        assert scores == pytest.approx(sorted(exact, reverse=True)[:5], abs=1e-5)
        assert index.search(queries[3], 5, allowed=set()) == ([], [])


def test_score_rows_growth_and_removal(embedded: tuple[Embedder, np.ndarray, np.ndarray]) -> None:
    _, passages, queries = embedded
    index = DenseIndex(passages.shape[1], hnsw_threshold=200)
    index.add(passages[:150], range(150))
    assert not index.is_hnsw
    assert index.score_rows(queries[0], [3, 7]) == pytest.approx(
        passages[[3, 7]] @ queries[0], abs=1e-5
    )
    assert index.remove([3, 7]) == 2 and index.ntotal == 148
    index.add(passages[150:], range(150, N_DOCS))  # crosses the threshold: becomes HNSW
    assert index.is_hnsw and index.ntotal == N_DOCS - 2
    assert 3 not in index.search(passages[3], 5)[0]
    assert index.search(passages[200], 1)[0] == [200]
    with pytest.raises(StaleIndex):
        index.remove([5])
    with pytest.raises(StaleIndex):
        index.search(np.zeros(10, dtype=np.float32), 3)


def test_score_chunks_matches_search(bm25_dir: Path, scifact_docs: list[Bm25Doc]) -> None:
    index = Bm25Index.open(bm25_dir)
    query = "tumour suppressor gene expression"
    full = dict(index.search(query, N_DOCS))
    some = [d.chunk_id for d in scifact_docs[:40]]
    scored = index.score_chunks(query, some + ["not-indexed:x:0"])
    assert scored == pytest.approx({c: full[c] for c in some if c in full})
    assert len(scored) < len(some)  # some abstracts share no term with the query and are left out
