"""Entailment quality on labelled (premise, hypothesis, label) pairs: accuracy, F1, confusion.

`eval_entail` scores an entailer through the same `decide()` that verify uses, with or without
the deterministic checks, so the two runs differ only in the checks. Statuses score as NLI
labels: supported = entailment, contradicted = contradiction, partially_supported and
unverifiable = neutral.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sciverify.entail.backends import Entailer
from sciverify.entail.decide import (
    DEFAULT_THRESHOLDS,
    STATUS_TO_LABEL,
    DecisionThresholds,
    decide,
    pair_fields,
)
from sciverify.errors import InputError
from sciverify.records import Label, Status

LABELS: tuple[str, ...] = (str(Label.entailment), str(Label.neutral), str(Label.contradiction))


@dataclass(frozen=True, slots=True)
class EntailReport:
    """Metrics of one evaluation run. `confusion[gold][predicted]` counts pairs."""

    n: int
    accuracy: float
    macro_f1: float
    per_label: dict[str, dict[str, float]]  # label -> precision, recall, f1, support
    confusion: dict[str, dict[str, int]]
    backend: str = ""
    with_checks: bool = False
    labels: tuple[str, ...] = LABELS
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "accuracy": self.accuracy,
            "macro_f1": self.macro_f1,
            "per_label": self.per_label,
            "confusion": self.confusion,
            "n": self.n,
            "backend": self.backend,
            "with_checks": self.with_checks,
        }

    def rows(self) -> list[dict[str, Any]]:
        """One row per label for table renderers: three decimals, the support as a count."""
        return [
            {
                "label": lab,
                **{k: round(v, 3) for k, v in self.per_label[lab].items() if k != "support"},
                "support": int(self.per_label[lab]["support"]),
            }
            for lab in self.labels
        ]


def score(
    gold: list[str], predicted: list[str], *, labels: tuple[str, ...] = LABELS
) -> EntailReport:
    """Accuracy, macro-F1 over `labels`, per-label precision/recall/F1 and the confusion matrix.

    A label never predicted has precision 0. Macro-F1 averages the labels that occur in `gold`
    (RTE and COVID-Fact have no neutral pairs; a label absent from the file must not count as
    an F1 of 0), the same definition as the model card's held-out figures.
    """
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted differ in length")
    confusion = {g: {p: 0 for p in labels} for g in labels}
    for g, p in zip(gold, predicted, strict=True):
        confusion[g][p] += 1
    per_label: dict[str, dict[str, float]] = {}
    for lab in labels:
        tp = confusion[lab][lab]
        predicted_as = sum(confusion[g][lab] for g in labels)
        support = sum(confusion[lab].values())
        precision = tp / predicted_as if predicted_as else 0.0
        recall = tp / support if support else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_label[lab] = {
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "support": float(support),
        }
    present = [v for v in per_label.values() if v["support"]]
    n = len(gold)
    correct = sum(confusion[lab][lab] for lab in labels)
    return EntailReport(
        n=n,
        accuracy=correct / n if n else 0.0,
        macro_f1=sum(v["f1"] for v in present) / max(len(present), 1),
        per_label=per_label,
        confusion=confusion,
        labels=labels,
    )


def eval_entail(
    pairs: Iterable[Any],
    *,
    entailer: Entailer,
    with_checks: bool,
    thresholds: DecisionThresholds = DEFAULT_THRESHOLDS,
    batch_size: int = 32,
) -> EntailReport:
    """Score `entailer` (+ the checks when `with_checks`) on `{premise, hypothesis, label}` pairs.

    Example:
        >>> eval_entail(load_pair_file(Path("pairs.jsonl")), entailer=load_entailer(),
        ...             with_checks=True).to_json()["macro_f1"]
    """
    rows = [pair_fields(p) for p in pairs]
    for _, _, label in rows:
        if label not in LABELS:
            raise InputError(f"unknown label {label!r}", hint=f"use one of {', '.join(LABELS)}")
    probs = entailer.predict([(prem, hyp) for prem, hyp, _ in rows], batch_size=batch_size)
    predicted = [
        str(
            STATUS_TO_LABEL[
                Status(
                    decide(
                        hyp, [(prem, p, 1.0)], thresholds=thresholds, with_checks=with_checks
                    ).status
                )
            ]
        )
        for (prem, hyp, _), p in zip(rows, probs, strict=True)
    ]
    report = score([lab for _, _, lab in rows], predicted)
    return EntailReport(
        n=report.n,
        accuracy=report.accuracy,
        macro_f1=report.macro_f1,
        per_label=report.per_label,
        confusion=report.confusion,
        backend=getattr(entailer, "name", type(entailer).__name__),
        with_checks=with_checks,
    )


_LABEL_NAMES = {lab: lab for lab in LABELS} | {
    "entails": str(Label.entailment),
    "contradict": str(Label.contradiction),
}


def load_pair_file(path: Path) -> list[dict[str, str]]:
    """`{"premise", "hypothesis", "label"}` JSON lines; blank lines are skipped.

    Raises:
        InputError: `FILE:LINE: ...` for a line that is not a JSON object, lacks a field, has a
            non-string field or an unknown label; or when the file cannot be read.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read the pair file: {exc}",
            path=path,
            hint="pass a UTF-8 JSONL file of premise/hypothesis/label",
        ) from exc
    hint = (
        'each line is {"premise": ..., "hypothesis": ..., "label": '
        '"entailment" | "neutral" | "contradiction"}'
    )
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg})", path=where, hint=hint) from exc
        if not isinstance(rec, dict):
            raise InputError("not a JSON object", path=where, hint=hint)
        for key in ("premise", "hypothesis", "label"):
            if key not in rec:
                raise InputError(f'field "{key}" is missing', path=where, hint=hint)
            if not isinstance(rec[key], str):
                raise InputError(f'field "{key}" is not a string', path=where, hint=hint)
        label = _LABEL_NAMES.get(rec["label"].strip().lower())
        if label is None:
            raise InputError(f"unknown label {rec['label']!r}", path=where, hint=hint)
        out.append({"premise": rec["premise"], "hypothesis": rec["hypothesis"], "label": label})
    return out
