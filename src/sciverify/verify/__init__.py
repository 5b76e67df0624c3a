"""verify: a draft -> paragraphs -> claims -> evidence -> status -> cards and risk (DESIGN.md 2.5).

`verify()` is the library entry; `log_run()` records a run in the `runs` table; `read_draft()`
reads a draft file (or stdin bytes) the way the CLI should. Stages, each in its own module:
`segment` (paragraphs with spans), `classify` (paragraph types), `claims` (atomic claims and
non-claims), `citations` (markers, BibTeX, reference lists -> corpus papers), `evidence`
(retrieval, one batched entailment call, decisions), `logic`, `consistency`, `cards` (cards,
downgrades, lineage, risk). The routing table and thresholds are `VerifySettings`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from sciverify.errors import InputError, UsageError
from sciverify.progress import NO_PROGRESS, Progress
from sciverify.records import Card, ParagraphResult, Status, VerifyResult
from sciverify.verify.settings import VerifySettings, verify_settings

log = logging.getLogger(__name__)

__all__ = ["VerifySettings", "decode_draft", "log_run", "read_draft", "verify"]


# ---------------------------------------------------------------------------- input


def decode_draft(data: bytes, *, source: str = "-") -> str:
    """The text of a draft file's bytes; binary or undecodable input is an InputError."""
    if b"\x00" in data[:65536]:
        raise InputError(
            "this is a binary file, not a text draft",
            path=source,
            hint="give a Markdown or plain-text draft (.md, .txt)",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"the draft is not UTF-8 text (byte {exc.start} cannot be decoded)",
            path=source,
            hint="save the draft as UTF-8 text",
        ) from exc


def read_draft(path: Path | str) -> str:
    """Read a draft file as text (the CLI passes stdin bytes to `decode_draft` instead)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(
            f"cannot read the draft: {exc.strerror}", path=path, hint="check the path"
        ) from exc
    return decode_draft(data, source=str(path))


def _check_text(text: str, source: str) -> None:
    if "\x00" in text:
        raise InputError(
            "the draft contains NUL bytes: it looks like a binary file",
            path=source,
            hint="give a Markdown or plain-text draft",
        )
    if not text.strip():
        raise InputError(
            "the draft is empty",
            path=source,
            hint="give a file with at least one paragraph of text",
        )


# ---------------------------------------------------------------------------- the run


def verify(
    text: str,
    *,
    store: Any,
    settings: Any,
    source: str = "-",
    bib: Path | None = None,
    progress: Progress = NO_PROGRESS,
    entailer: Any | None = None,
) -> VerifyResult:
    """Check a draft against the corpus, paragraph by paragraph and claim by claim.

    Args:
        text: the draft (Markdown or plain text).
        store: an open Store (read-only is enough).
        settings: Settings; `settings.verify` (a VerifySettings) tunes routing and thresholds.
        source: the draft's file name for messages, "-" for stdin.
        bib: a BibTeX file that resolves Pandoc `[@key]` citations.
        progress: gets one step per checked claim.
        entailer: an entailment backend; default `settings.entail.backend`.

    Returns:
        VerifyResult: paragraphs in draft order, each with its risk and cards, and a summary.

    Raises:
        InputError: empty, binary or non-English draft; unreadable or empty BibTeX file.
        StaleIndex: the corpus has no index, or it is out of date (the hint names the command).

    Example:
        >>> result = verify(Path("draft.md").read_text(), store=store, settings=settings)
        >>> [(p.paragraph_id, p.risk) for p in result.paragraphs]
    """
    from sciverify.index import check_fresh, get_embedder
    from sciverify.verify.citations import read_bib

    started = time.perf_counter()
    _check_text(text, source)
    cfg = verify_settings(settings)
    embedder = get_embedder(settings)
    check_fresh(store, settings, embedder.model_id)  # fail before any expensive work
    bib_entries = read_bib(Path(bib)) if bib is not None else None
    seconds: dict[str, float] = {}
    from sciverify.verify import pipeline

    state = pipeline.prepare(text, cfg, embedder, source, seconds)
    if entailer is None:
        from sciverify.entail import load_entailer

        e = settings.entail
        entailer = load_entailer(
            e.backend,
            max_length=e.max_length,
            llm_url=e.llm_url,
            llm_model=e.llm_model,
            llm_timeout=e.llm_timeout,
        )
    result = pipeline.run(
        state,
        store=store,
        settings=settings,
        cfg=cfg,
        bib=bib_entries,
        entailer=entailer,
        progress=progress,
        seconds=seconds,
    )
    seconds["total"] = time.perf_counter() - started
    summary = _summary(result, state, seconds, embedder.model_id, entailer)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    corpus = getattr(store, "corpus_dir", None)
    return VerifyResult(
        draft=source,
        draft_sha256=digest,
        paragraphs=tuple(result),
        summary=summary,
        corpus=str(corpus) if corpus is not None else None,
    )


def _summary(
    paragraphs: list[ParagraphResult],
    state: Any,
    seconds: dict[str, float],
    embedding: str,
    entailer: Any,
) -> dict[str, Any]:
    cards = [c for p in paragraphs for c in p.cards]
    fact = Counter(c.status for c in cards if c.layer == "fact")
    return {
        "paragraphs": len(paragraphs),
        "claims": sum(p.claims for p in paragraphs),
        "checked_claims": sum(fact.values()),
        "skipped_non_claims": sum(p.skipped for p in paragraphs),
        "fast_path_paragraphs": state.fast_path,
        "entailment_pairs": state.entail_pairs,
        "cards": len(cards),
        "cards_by_status": {s: fact.get(s, 0) for s in Status},
        "cards_by_layer": dict(sorted(Counter(c.layer for c in cards).items())),
        "findings": dict(sorted(Counter(c.finding for c in cards if c.finding).items())),
        "paragraphs_by_risk": {
            r: sum(1 for p in paragraphs if p.risk == r) for r in ("red", "yellow", "blue")
        },
        "citations": state.citation_summary,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "models": {
            "embedding": embedding,
            "entailment": getattr(entailer, "name", "?"),
            "model_weight": state.model_weight,
        },
        "warnings": list(state.warnings),
    }


# ---------------------------------------------------------------------------- run log


def _fingerprint(settings: Any) -> str:
    parts = {}
    for name in ("index", "search", "entail", "verify"):
        block = getattr(settings, name, None)
        if block is not None and hasattr(block, "model_dump"):
            parts[name] = block.model_dump(mode="json")
    if "verify" not in parts:
        parts["verify"] = verify_settings(settings).model_dump(mode="json")
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def log_run(
    store: Any, result: VerifyResult, settings: Any, *, text: str | None = None
) -> VerifyResult:
    """Record a verify run in the `runs` table; returns the result with its `run_id` set.

    Args:
        store: a writable Store.
        result: what `verify` returned.
        settings: the Settings the run used (their fingerprint is stored).
        text: the draft text; default the paragraphs' texts joined by blank lines.
    """
    import uuid

    from sciverify.store.db import now

    if getattr(store, "read_only", False):
        raise UsageError(
            "the run log needs a writable corpus",
            hint="open the store without read_only to log verify runs",
        )
    created = now()
    run_id = f"verify-{created:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    logged = replace(result, run_id=run_id)
    retrieved = [
        {
            "claim_id": c.claim_id,
            "chunk_id": e.chunk_id,
            "paper_id": e.paper_id,
            "score": e.score,
            "match_type": e.match_type,
        }
        for p in result.paragraphs
        for c in p.cards
        for e in c.evidence
        if e.paper_id
    ]
    body = text if text is not None else "\n\n".join(p.text for p in result.paragraphs)
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO runs (run_id, command, input_hash, input_text, settings_fingerprint,"
            " models, retrieved, output, timings, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                run_id,
                "verify",
                result.draft_sha256,
                body,
                _fingerprint(settings),
                json.dumps(result.summary.get("models", {}), sort_keys=True),
                json.dumps(retrieved),
                json.dumps(asdict(logged), default=str),
                json.dumps(result.summary.get("seconds", {}), sort_keys=True),
                created,
            ],
        )
    return logged


def cards_of(result: VerifyResult) -> list[Card]:
    """Every card of a result, riskiest paragraph first (for `--format jsonl`)."""
    order = {"red": 0, "yellow": 1, "blue": 2}
    ranked = sorted(
        result.paragraphs, key=lambda p: (order.get(p.risk, 3), -p.risk_score, p.paragraph_id)
    )
    return [c for p in ranked for c in p.cards]
