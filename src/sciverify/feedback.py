"""Reviewer decisions from the HTML report, stored in the corpus, and what they say about sciverify.

A decision is about a paragraph of the draft, as the report's buttons say:

- ``accept``: keep the paragraph as written (on a flagged paragraph, the flag was not needed);
- ``revise``: the paragraph needs a change (for example the suggested action or weaker wording);
- ``reject``: the paragraph is wrong and should go.

So ``revise`` and ``reject`` mark a paragraph as truly problematic, and the statistics measure
how well sciverify's red/yellow flags match them (docs/verify-output.md, "Feedback").
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sciverify.errors import InputError

DECISIONS = ("accept", "revise", "reject")
RISKS = ("red", "yellow", "blue")
DecisionKind = Literal["accept", "revise", "reject"]
RiskLevel = Literal["red", "yellow", "blue"]
PROBLEMATIC = ("revise", "reject")
FLAGGED = ("red", "yellow")
_HINT = ('a decisions file is the JSON the HTML report exports: {"run_id", "draft_sha256", '
         '"decisions": [{"paragraph_id", "decision", "risk", "note", "decided_at"}]}; '
         "see docs/verify-output.md")


class DecisionEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    paragraph_id: str = Field(pattern=r"^p_\d+$", description="The paragraph, as in the report.")
    decision: DecisionKind = Field(
        description="accept: keep as written; revise: needs a change; reject: wrong, remove.")
    risk: RiskLevel | None = Field(
        default=None, description="The risk sciverify gave the paragraph.")
    note: str = Field(default="", max_length=10_000, description="The reviewer's note.")
    decided_at: datetime = Field(description="When the decision was made (ISO 8601).")


class DecisionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str | None = Field(description="The verify run the report came from, or null.")
    draft_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the draft.")
    decisions: list[DecisionEntry] = Field(description="One entry per decided paragraph.")


def _field(loc: tuple[int | str, ...]) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "(top level)"


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        got = "" if err["type"] == "missing" else f" (got {json.dumps(err.get('input'), default=str)[:60]})"
        parts.append(f'field "{_field(tuple(err["loc"]))}": {err["msg"]}{got}')
    more = len(exc.errors()) - len(parts)
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def read_decisions(path: Path | str) -> DecisionFile:
    """Read and validate a decisions file exported by the HTML report.

    Raises:
        InputError: the file is missing, not UTF-8 JSON, or a field is missing or wrong; the
            message names the field (``decisions[2].decision``).
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", path=path, hint="export it from the HTML report") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the decisions file: {exc}", path=path, hint=_HINT) from exc
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}",
                         path=path, hint=_HINT) from exc
    try:
        parsed = DecisionFile.model_validate(value)
    except ValidationError as exc:
        raise InputError(_validation_message(exc), path=path, hint=_HINT) from exc
    seen: set[str] = set()
    for i, entry in enumerate(parsed.decisions):
        if entry.paragraph_id in seen:
            raise InputError(f'field "decisions[{i}].paragraph_id": {entry.paragraph_id} is '
                             "decided twice", path=path, hint="keep one decision per paragraph")
        seen.add(entry.paragraph_id)
    return parsed


def _utc(moment: datetime) -> datetime:
    # The store keeps naive UTC timestamps (store.db.now()).
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def import_decisions(path: Path | str, *, store: Any) -> int:
    """Store a report's decisions in the ``feedback`` table; returns how many were stored.

    Importing the same paragraph of the same run and draft again replaces the earlier decision,
    so re-importing a file is a no-op and a later export wins. A run_id that the corpus logged
    must belong to the same draft.

    Raises:
        InputError: the file is invalid (see read_decisions), the store is read-only, or the
            run_id belongs to another draft.
    """
    path = Path(path)
    parsed = read_decisions(path)
    if store.read_only:
        raise InputError("the corpus is open read-only", path=store.path,
                         hint="open it for writing to import feedback")
    if parsed.run_id is not None:
        logged = store.rows("SELECT input_hash FROM runs WHERE run_id = ?", [parsed.run_id])
        if logged and logged[0]["input_hash"] not in (None, parsed.draft_sha256):
            raise InputError(
                f'field "draft_sha256": run {parsed.run_id} verified another draft '
                f'(sha256 {logged[0]["input_hash"]})', path=path,
                hint="import the decisions exported from that run's report")
    imported_at = datetime.now(UTC).replace(tzinfo=None)
    with store.transaction() as conn:
        for entry in parsed.decisions:
            _store(conn, parsed.run_id, parsed.draft_sha256, entry, imported_at)
    return len(parsed.decisions)


def _store(conn: Any, run_id: str | None, draft_sha256: str, entry: DecisionEntry,
           imported_at: datetime) -> None:
    # One decision per paragraph of a run and draft: a later one replaces the earlier.
    conn.execute("DELETE FROM feedback WHERE run_id IS NOT DISTINCT FROM ? "
                 "AND draft_sha256 = ? AND paragraph_id = ?",
                 [run_id, draft_sha256, entry.paragraph_id])
    conn.execute(
        "INSERT INTO feedback (run_id, paragraph_id, decision, risk, note, decided_at,"
        " draft_sha256, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [run_id, entry.paragraph_id, entry.decision, entry.risk, entry.note,
         _utc(entry.decided_at), draft_sha256, imported_at])


def record_decision(store: Any, *, draft_sha256: str, paragraph_id: str, decision: str,
                    risk: str | None = None, note: str = "", run_id: str | None = None) -> None:
    """Store one reviewer decision, as if imported from the HTML report (notebooks use this).

    A decision for the same paragraph of the same run and draft replaces the earlier one.

    Raises:
        InputError: an unknown decision or risk, a malformed paragraph id or draft hash, or a
            read-only store.
    """
    try:
        # Pydantic validates both values; an unknown one raises ValidationError below.
        entry = DecisionEntry(paragraph_id=paragraph_id, decision=cast(DecisionKind, decision),
                              risk=cast("RiskLevel | None", risk), note=note,
                              decided_at=datetime.now(UTC))
        DecisionFile(run_id=run_id, draft_sha256=draft_sha256, decisions=[])
    except ValidationError as exc:
        raise InputError(_validation_message(exc),
                         hint=f"decision is one of {', '.join(DECISIONS)}; paragraph ids look "
                              "like p_003") from exc
    if store.read_only:
        raise InputError("the corpus is open read-only", path=store.path,
                         hint="open it for writing to store decisions")
    with store.transaction() as conn:
        _store(conn, run_id, draft_sha256, entry, datetime.now(UTC).replace(tzinfo=None))


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def feedback_stats(store: Any, *, run_id: str | None = None) -> dict[str, Any]:
    """What the stored decisions say about sciverify's risk flags (all runs, or one run).

    - ``risk_coverage``: of the paragraphs the reviewer revised or rejected (truly problematic),
      the share sciverify had flagged red or yellow. None when nothing was revised or rejected.
    - ``adoption_rate``: of the decided red/yellow paragraphs, the share the reviewer revised or
      rejected, i.e. acted on the flag rather than keeping the paragraph as written. None when
      no flagged paragraph was decided.
    - ``by_decision``, ``by_risk`` and ``by_risk_and_decision``: the counts behind both (a
      decision stored without a risk counts under ``unknown`` and in neither share).
    """
    where, params = ("WHERE run_id = ?", [run_id]) if run_id is not None else ("", [])
    rows = store.rows(f"SELECT decision, risk FROM feedback {where}", params or None)
    risks = (*RISKS, "unknown")
    table = {r: {d: 0 for d in DECISIONS} for r in risks}
    for row in rows:
        risk = row["risk"] if row["risk"] in RISKS else "unknown"
        table[risk][row["decision"]] = table[risk].get(row["decision"], 0) + 1
    problematic = sum(table[r][d] for r in RISKS for d in PROBLEMATIC)
    flagged = sum(table[r][d] for r in FLAGGED for d in table[r])
    hits = sum(table[r][d] for r in FLAGGED for d in PROBLEMATIC)
    return {
        "decisions": len(rows),
        "runs": store.scalar(f"SELECT count(DISTINCT coalesce(run_id, draft_sha256)) FROM feedback "
                             f"{where}", params or None),
        "by_decision": {d: sum(table[r][d] for r in risks) for d in DECISIONS},
        "by_risk": {r: sum(table[r].values()) for r in risks},
        "by_risk_and_decision": table,
        "problematic": problematic,
        "flagged": flagged,
        "flagged_problematic": hits,
        "risk_coverage": _share(hits, problematic),
        "adoption_rate": _share(hits, flagged),
    }
