"""Fit verify's decision thresholds and risk levels to reviewers' decisions (and labelled pairs).

The stored decisions (`feedback`, from the HTML report or `VerifyResult.decide`) say which
paragraphs were truly problematic (revise / reject) and which were fine (accept). For each
decided draft (its text comes from the `runs` log) the evidence is retrieved once; then, for
every candidate — entailment thresholds (`entail_min`, `contradict_min`, `partial_min`) times
risk levels (`risk_red_min`, `risk_yellow_min`) — the claims are decided again (model outputs
cached, so the model runs once per pair) and the paragraphs coloured. A candidate is eligible
when it keeps or improves risk coverage with no more red/yellow paragraphs than the current
settings (and, with labelled pairs, keeps their macro-F1 within `pair_tolerance`); the best
eligible one has the highest coverage, then adoption rate, then the smallest change (the
paragraphs nobody decided are no evidence for moving a threshold). So calibration never trades
more flags for coverage on its own data.

Measures as in `feedback.feedback_stats`: risk coverage = flagged (red/yellow) share of the
revised/rejected paragraphs; adoption rate = revised/rejected share of the decided flagged ones.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sciverify.errors import InputError
from sciverify.feedback import FLAGGED, PROBLEMATIC
from sciverify.progress import NO_PROGRESS, Progress
from sciverify.records import Status
from sciverify.verify.settings import VerifySettings, verify_settings

ENTAIL_GRID = (0.4, 0.5, 0.6, 0.7)
CONTRADICT_GRID = (0.4, 0.5, 0.6, 0.7)
PARTIAL_GRID = (0.25, 0.35, 0.45)
RED_GRID = (0.7, 0.75, 0.8, 0.85, 0.9)
# Yellow scores run from 0.35 to 0.65 (`verify.cards`): the grid reaches past the top so that
# reviewers who accept every yellow paragraph can move all of them to blue.
YELLOW_GRID = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)
THRESHOLD_KEYS = ("entail_min", "contradict_min", "partial_min")
RISK_KEYS = ("risk_red_min", "risk_yellow_min")


@dataclass(frozen=True)
class Candidate:
    entail_min: float
    contradict_min: float
    partial_min: float
    risk_red_min: float
    risk_yellow_min: float

    @classmethod
    def of(cls, cfg: VerifySettings) -> Candidate:
        th = cfg.thresholds
        return cls(th.entail_min, th.contradict_min, th.partial_min, cfg.risk_red_min,
                   cfg.risk_yellow_min)

    def apply(self, cfg: VerifySettings) -> VerifySettings:
        th = cfg.thresholds.model_copy(update={k: getattr(self, k) for k in THRESHOLD_KEYS})
        return cfg.model_copy(update={"thresholds": th, "risk_red_min": self.risk_red_min,
                                      "risk_yellow_min": self.risk_yellow_min})

    def distance(self, other: Candidate) -> float:
        return sum(abs(getattr(self, k) - getattr(other, k)) for k in (*THRESHOLD_KEYS, *RISK_KEYS))

    def as_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in (*THRESHOLD_KEYS, *RISK_KEYS)}


@dataclass
class Metrics:
    """What one candidate does on the decided drafts."""

    risk_coverage: float | None
    adoption_rate: float | None
    red: int  # red paragraphs in the decided drafts (decided or not)
    yellow: int
    decided: int
    problematic: int
    flagged_decided: int
    flagged_problematic: int
    pair_macro_f1: float | None = None

    @property
    def flagged(self) -> int:
        return self.red + self.yellow

    def as_dict(self) -> dict[str, Any]:
        return {"risk_coverage": self.risk_coverage, "adoption_rate": self.adoption_rate,
                "red": self.red, "yellow": self.yellow, "flagged": self.flagged,
                "decided": self.decided, "problematic": self.problematic,
                "flagged_decided": self.flagged_decided,
                "flagged_problematic": self.flagged_problematic,
                "pair_macro_f1": self.pair_macro_f1}


@dataclass
class CalibrationReport:
    before: Metrics
    after: Metrics
    current: Candidate
    chosen: Candidate
    drafts: list[str]
    skipped: list[str] = field(default_factory=list)
    candidates: int = 0
    pairs: int = 0

    @property
    def changes(self) -> dict[str, tuple[float, float]]:
        now, new = self.current.as_dict(), self.chosen.as_dict()
        return {k: (now[k], new[k]) for k in now if now[k] != new[k]}

    def rows(self) -> list[dict[str, Any]]:
        b, a = self.before.as_dict(), self.after.as_dict()
        rows = [{"measure": k, "before": b[k], "after": a[k]} for k in b]
        now, new = self.current.as_dict(), self.chosen.as_dict()
        rows += [{"measure": k, "before": now[k], "after": new[k]} for k in now]
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before.as_dict(), "after": self.after.as_dict(),
                "current": self.current.as_dict(), "chosen": self.chosen.as_dict(),
                "changes": {k: list(v) for k, v in self.changes.items()},
                "drafts": self.drafts, "skipped": self.skipped,
                "candidates": self.candidates, "pairs": self.pairs}


class CachingEntailer:
    """An entailer that runs the model once per (premise, hypothesis) pair."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "?")
        self._memo: dict[tuple[str, str], Any] = {}

    def predict(self, pairs: Sequence[tuple[str, str]], **kwargs: Any) -> list[Any]:
        todo = list(dict.fromkeys(p for p in pairs if p not in self._memo))
        if todo:
            self._memo.update(zip(todo, self.inner.predict(todo, **kwargs), strict=True))
        return [self._memo[p] for p in pairs]


# ---------------------------------------------------------------------------- decided drafts


@dataclass
class _Draft:
    key: str
    text: str
    decisions: dict[str, str]
    bib: Path | None = None
    prepared: Any = None
    checks: list[Any] = field(default_factory=list)
    logic_claims: list[Any] = field(default_factory=list)
    pairs: list[Any] = field(default_factory=list)


def decided_drafts(store: Any) -> tuple[list[_Draft], list[str]]:
    """Each decided draft with its text (from the run log) and decisions; and the skipped ones."""
    rows = store.rows(
        "SELECT f.run_id, f.draft_sha256, f.paragraph_id, f.decision, f.decided_at,"
        " coalesce((SELECT r.input_text FROM runs r WHERE r.run_id = f.run_id),"
        "          (SELECT r.input_text FROM runs r WHERE r.input_hash = f.draft_sha256"
        "           ORDER BY r.created_at DESC LIMIT 1)) AS text"
        " FROM feedback f ORDER BY f.draft_sha256, f.run_id, f.decided_at")
    drafts: dict[str, _Draft] = {}
    skipped: list[str] = []
    for row in rows:
        key = row["draft_sha256"] or row["run_id"] or "?"
        if row["text"] is None:
            if key not in skipped:
                skipped.append(key)
            continue
        # Decisions about one draft from several runs: the latest per paragraph wins.
        draft = drafts.setdefault(key, _Draft(key, row["text"], {}))
        draft.decisions[row["paragraph_id"]] = row["decision"]
    return list(drafts.values()), skipped


def _bib_for(text: str, bibs: Sequence[Path]) -> Path | None:
    """The BibTeX file whose keys the draft cites most ([@key]); None when none is cited."""
    cited = set(re.findall(r"@([\w:.#$%&\-+?<>~/]+)", text))
    best, hits = None, 0
    for path in bibs:
        keys = set(re.findall(r"@\w+\s*\{\s*([^,\s]+)\s*,", path.read_text(encoding="utf-8")))
        if len(keys & cited) > hits:
            best, hits = path, len(keys & cited)
    return best


# ---------------------------------------------------------------------------- the fit


def _prepare(draft: _Draft, *, store: Any, settings: Any, cfg: VerifySettings) -> None:
    """Segment, extract claims and retrieve evidence once (none of it depends on thresholds)."""
    from sciverify.index import check_fresh, get_embedder
    from sciverify.verify import pipeline
    from sciverify.verify.citations import Resolver, read_bib
    from sciverify.verify.evidence import gather
    from sciverify.verify.logic import claim_pairs

    embedder = get_embedder(settings)
    check_fresh(store, settings, embedder.model_id)
    state = pipeline.prepare(draft.text, cfg, embedder, draft.key, {})
    bib = read_bib(draft.bib) if draft.bib else None
    resolver = Resolver(store, bib=bib, references=state.references)
    draft.checks = pipeline._to_check(state)
    gather(draft.checks, store=store, settings=settings, cfg=cfg, resolver=resolver)
    draft.logic_claims = [c for p in state.paragraphs if "logic" in state.layers[p.paragraph_id]
                          for c in state.claims[p.paragraph_id]]
    draft.pairs = claim_pairs(draft.logic_claims, min_overlap=cfg.contradiction_overlap,
                              per_claim=cfg.max_claim_pairs)
    draft.prepared = state


def _paragraphs(draft: _Draft, cfg: VerifySettings, entailer: Any) -> list[Any]:
    from sciverify.verify import pipeline
    from sciverify.verify.decision import judge
    from sciverify.verify.evidence import model_weight

    weight = model_weight(cfg, entailer)
    checks = [replace(c, probs=[], decision=None, status=Status.unverifiable, finding=None,
                      deciding=None, related=[], note="") for c in draft.checks]
    pair_probs = judge(checks, [(a.text, b.text) for a, b in draft.pairs], entailer=entailer,
                       cfg=cfg, weight=weight)
    return pipeline.finish(draft.prepared, checks, draft.logic_claims, draft.pairs, pair_probs,
                           cfg=cfg, weight=weight)


def _metrics(scored: list[tuple[dict[str, str], list[tuple[str, str]]]]) -> Metrics:
    """scored: per draft, (decisions by paragraph, [(paragraph_id, risk)])."""
    red = yellow = decided = problematic = flagged_decided = hits = 0
    for decisions, risks in scored:
        for pid, risk in risks:
            red += risk == "red"
            yellow += risk == "yellow"
            choice = decisions.get(pid)
            if choice is None:
                continue
            decided += 1
            bad, flagged = choice in PROBLEMATIC, risk in FLAGGED
            problematic += bad
            flagged_decided += flagged
            hits += bad and flagged
    return Metrics(hits / problematic if problematic else None,
                   hits / flagged_decided if flagged_decided else None,
                   red, yellow, decided, problematic, flagged_decided, hits)


def _pair_scorer(pairs: Sequence[Any], entailer: Any) -> Any:
    """macro-F1 of statuses (as NLI labels) on labelled pairs, for given thresholds."""
    from sciverify.entail.checks import run_checks
    from sciverify.entail.decide import STATUS_TO_LABEL, judge_span, pair_fields
    from sciverify.entail.evaluate import score

    rows = [pair_fields(p) for p in pairs]
    probs = entailer.predict([(prem, hyp) for prem, hyp, _ in rows])
    findings = [run_checks(hyp, prem) for prem, hyp, _ in rows]
    gold = [lab for _, _, lab in rows]

    def macro_f1(th: Any) -> float:
        predicted = []
        for p, f in zip(probs, findings, strict=True):
            verdict = judge_span(p, 1.0, f, th)
            status = verdict[0] if verdict else Status.unverifiable
            predicted.append(str(STATUS_TO_LABEL[Status(status)]))
        return round(score(gold, predicted).macro_f1, 4)

    return macro_f1


def calibrate(
    *,
    store: Any,
    settings: Any,
    pairs: Sequence[Any] = (),
    bibs: Sequence[Path] = (),
    entailer: Any | None = None,
    pair_tolerance: float = 0.02,
    grid: dict[str, Sequence[float]] | None = None,
    progress: Progress = NO_PROGRESS,
) -> CalibrationReport:
    """Fit thresholds and risk levels to the stored decisions (see the module doc).

    Args:
        store: an open Store with decisions in `feedback` and their drafts in `runs`.
        settings: the current Settings (their `verify` block is the starting point).
        pairs: labelled NLI pairs `{premise, hypothesis, label}`; their macro-F1 may drop by at
            most `pair_tolerance` for a candidate to be eligible.
        bibs: BibTeX files; each draft gets the one whose keys it cites.
        entailer: the entailment backend; default `settings.entail.backend`.
        grid: candidate values per key (entail_min, contradict_min, partial_min, risk_red_min,
            risk_yellow_min); missing keys use this module's grids.

    Returns:
        CalibrationReport: before/after measures, the current and the chosen values.

    Raises:
        InputError: no stored decision whose draft is in the run log.
    """
    cfg = verify_settings(settings)
    drafts, skipped = decided_drafts(store)
    if not drafts:
        raise InputError(
            "no decisions to calibrate on" + (f" ({len(skipped)} decided draft(s) have no logged "
                                               "run text)" if skipped else ""),
            hint="verify drafts (the run is logged), decide paragraphs in the report or with "
                 "result.decide(...), then sciverify feedback import decisions.json")
    if entailer is None:
        from sciverify.entail import load_entailer

        e = settings.entail
        entailer = load_entailer(e.backend, max_length=e.max_length, llm_url=e.llm_url,
                                 llm_model=e.llm_model, llm_timeout=e.llm_timeout)
    cached = CachingEntailer(entailer)
    progress.start(len(drafts), "calibrate: evidence")
    for draft in drafts:
        draft.bib = _bib_for(draft.text, bibs) if bibs else None
        _prepare(draft, store=store, settings=settings, cfg=cfg)
        progress.advance()
    current = Candidate.of(cfg)
    values = {"entail_min": ENTAIL_GRID, "contradict_min": CONTRADICT_GRID,
              "partial_min": PARTIAL_GRID, "risk_red_min": RED_GRID,
              "risk_yellow_min": YELLOW_GRID, **(grid or {})}
    pair_f1 = _pair_scorer(pairs, cached) if pairs else None
    combos = sorted(set(itertools.product(*(sorted({*values[k], getattr(current, k)})
                                            for k in THRESHOLD_KEYS))))
    progress.start(len(combos), "calibrate: thresholds")
    results: list[tuple[Candidate, Metrics]] = []
    for combo in combos:
        # combo holds one value per THRESHOLD_KEYS entry (three); mypy cannot know its length.
        base = Candidate(*combo, current.risk_red_min,  # type: ignore[call-arg]
                         current.risk_yellow_min)
        # Colours at the default band edges follow the score alone, so each risk-level
        # candidate re-colours the same scores.
        scores = []
        for draft in drafts:
            paragraphs = _paragraphs(draft, base.apply(cfg), cached)
            scores.append((draft.decisions, [(p.paragraph_id, p.risk_score) for p in paragraphs],
                           [(p.paragraph_id, p.risk) for p in paragraphs]))
        f1 = pair_f1(base.apply(cfg).thresholds) if pair_f1 else None
        for red_min, yellow_min in itertools.product(
                sorted({*values["risk_red_min"], current.risk_red_min}),
                sorted({*values["risk_yellow_min"], current.risk_yellow_min})):
            if yellow_min > red_min:
                continue
            cand = replace(base, risk_red_min=red_min, risk_yellow_min=yellow_min)
            scored = [(d, [(pid, _recolour(s, red_min, yellow_min)) for pid, s in sc])
                      for d, sc, _ in scores]
            m = _metrics(scored)
            m.pair_macro_f1 = f1
            results.append((cand, m))
        progress.advance()
    progress.done()
    before = next(m for c, m in results if c == current)
    chosen, after = _choose(results, current, before, pair_tolerance)
    return CalibrationReport(before=before, after=after, current=current, chosen=chosen,
                             drafts=[d.key for d in drafts], skipped=skipped,
                             candidates=len(results), pairs=len(pairs))


def _recolour(score: float, red_min: float, yellow_min: float) -> str:
    from sciverify.verify.cards import risk_level

    return risk_level(score, red_min=red_min, yellow_min=yellow_min)


def _choose(results: list[tuple[Candidate, Metrics]], current: Candidate, before: Metrics,
            tolerance: float) -> tuple[Candidate, Metrics]:
    def eligible(m: Metrics) -> bool:
        if m.flagged > before.flagged:
            return False
        if before.risk_coverage is not None and (m.risk_coverage or 0.0) < before.risk_coverage:
            return False
        return not (before.pair_macro_f1 is not None
                    and (m.pair_macro_f1 or 0.0) < before.pair_macro_f1 - tolerance)

    def key(item: tuple[Candidate, Metrics]) -> tuple[float, ...]:
        c, m = item
        # Undecided paragraphs say nothing about a candidate: fewer flags alone is no reason to
        # move, so after coverage and adoption the smallest change wins.
        return (m.risk_coverage or 0.0, m.adoption_rate or 0.0, -c.distance(current),
                -m.flagged, m.pair_macro_f1 or 0.0)

    pool = [r for r in results if eligible(r[1])]
    return max(pool, key=key)


# ---------------------------------------------------------------------------- sciverify.toml


def toml_update(text: str, chosen: Candidate) -> str:
    """`text` (a sciverify.toml, maybe empty) with the chosen values set; comments and other
    keys stay as they are."""
    wanted = {"verify.thresholds": {k: getattr(chosen, k) for k in THRESHOLD_KEYS},
              "verify": {k: getattr(chosen, k) for k in RISK_KEYS}}
    lines = text.splitlines()
    for table, keys in wanted.items():
        lines = _set_keys(lines, table, keys)
    return "\n".join(lines).rstrip("\n") + "\n"


def _set_keys(lines: list[str], table: str, keys: dict[str, float]) -> list[str]:
    header = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$")
    start = end = None
    for i, line in enumerate(lines):
        m = header.match(line)
        if m and start is None and m.group(1) == table:
            start = i
        elif m and start is not None and end is None:
            end = i
    if start is None:
        block = [f"[{table}]", *(f"{k} = {v!r}" for k, v in keys.items())]
        return [*lines, *([""] if lines and lines[-1].strip() else []), *block]
    end = len(lines) if end is None else end
    todo = dict(keys)
    out = list(lines)
    for i in range(start + 1, end):
        m = re.match(r"^\s*([A-Za-z0-9_]+)\s*=", out[i])
        if m and m.group(1) in todo:
            out[i] = f"{m.group(1)} = {todo.pop(m.group(1))!r}"
    insert_at = end
    while insert_at > start + 1 and not out[insert_at - 1].strip():
        insert_at -= 1
    return out[:insert_at] + [f"{k} = {v!r}" for k, v in todo.items()] + out[insert_at:]
