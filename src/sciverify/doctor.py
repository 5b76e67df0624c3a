"""What is available here: models, GROBID, tesseract, the corpus schema and index freshness."""

from __future__ import annotations

import shutil
from typing import Any

from sciverify.errors import SciverifyError


def _check(name: str, fn: Any) -> dict[str, str]:
    try:
        detail = fn()
        return {"check": name, "status": "ok", "detail": detail, "fix": ""}
    except SciverifyError as exc:
        return {"check": name, "status": "problem", "detail": exc.message, "fix": exc.hint or ""}
    except Exception as exc:  # noqa: BLE001 - doctor reports every failure, not just the first
        return {"check": name, "status": "problem", "detail": f"{type(exc).__name__}: {exc}",
                "fix": ""}


def diagnose(settings: Any, *, load_models: bool = True) -> list[dict[str, str]]:
    """One row per check: status ok / problem / missing, with the fix."""
    rows = []

    def embedding() -> str:
        from sciverify.index import get_embedder

        embedder = get_embedder(settings)
        if load_models:
            return f"{embedder.model_id}, dim {embedder.dim} (loaded offline)"
        return embedder.model_id

    def entail() -> str:
        from sciverify.entail import bundled_model_path, load_entailer

        cfg = settings.entail
        if load_models:
            model = load_entailer(cfg.backend, max_length=cfg.max_length, llm_url=cfg.llm_url,
                                  llm_model=cfg.llm_model)
            return f"{cfg.backend}: {getattr(model, 'name', type(model).__name__)}"
        return str(bundled_model_path())

    def grobid() -> str:
        import requests

        url = settings.ingest.grobid_url.rstrip("/") + "/api/isalive"
        try:
            ok = requests.get(url, timeout=2).ok
        except requests.RequestException as exc:
            raise SciverifyError(f"GROBID not reachable at {settings.ingest.grobid_url} ({exc.__class__.__name__})",
                                 hint="only needed for --parser grobid: docker run --rm -p 8070:8070 grobid/grobid:0.8.1") from exc
        return "alive" if ok else "answers, but not alive"

    def tesseract() -> str:
        path = shutil.which("tesseract")
        if not path:
            raise SciverifyError("tesseract not installed (scans without a text layer are reported, not OCRed)",
                                 hint="apt-get install tesseract-ocr")
        return path

    def corpus() -> str:
        from sciverify.store import open_store
        from sciverify.store.migrations import head

        with open_store(settings.corpus, read_only=True, migrate_schema=False) as store:
            version = store.schema_version()
            papers = store.scalar("SELECT count(*) FROM works") if version else 0
        return f"{settings.store_path}: schema {version}/{head()}, {papers} papers"

    def index() -> str:
        from sciverify.index import check_fresh, get_embedder
        from sciverify.store import open_store

        with open_store(settings.corpus, read_only=True) as store:
            manifest = check_fresh(store, settings, get_embedder(settings).model_id)
        return f"fresh: {manifest['chunk_count']} chunks, model {manifest['dense']['model']}"

    for name, fn in (("embedding model", embedding), ("entailment model", entail),
                     ("grobid", grobid), ("tesseract", tesseract), ("corpus", corpus),
                     ("index", index)):
        rows.append(_check(name, fn))
    return rows
