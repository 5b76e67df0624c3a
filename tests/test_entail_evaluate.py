"""Entailment metrics, the pair-file loader and an end-to-end evaluation on real pairs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sklearn.metrics import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    precision_recall_fscore_support,
)

from sciverify.entail.backends import load_entailer
from sciverify.entail.decide import DecisionThresholds
from sciverify.entail.evaluate import LABELS, eval_entail, load_pair_file, score
from sciverify.errors import InputError

E, N, C = "entailment", "neutral", "contradiction"


def test_metrics_on_a_hand_computed_case() -> None:
    gold = [E, E, N, C, C, N]
    pred = [E, N, N, C, E, E]
    r = score(gold, pred)
    # By hand: 3 of 6 right; entailment P 1/3 R 1/2 F1 0.4; neutral P 1/2 R 1/2 F1 0.5;
    # contradiction P 1 R 1/2 F1 2/3; macro-F1 (0.4 + 0.5 + 2/3) / 3.
    assert r.accuracy == pytest.approx(0.5)
    assert r.per_label[E]["f1"] == pytest.approx(0.4)
    assert r.per_label[N]["f1"] == pytest.approx(0.5)
    assert r.per_label[C]["precision"] == pytest.approx(1.0)
    assert r.per_label[C]["f1"] == pytest.approx(2 / 3)
    assert r.macro_f1 == pytest.approx((0.4 + 0.5 + 2 / 3) / 3)
    assert r.confusion[C] == {E: 1, N: 0, C: 1}
    _same_as_sklearn(gold, pred)


def test_metrics_match_sklearn_with_a_label_never_predicted() -> None:
    gold = [E, N, C, C, N, E, E, C]
    pred = [E, E, E, N, N, E, N, N]  # contradiction never predicted: precision 0
    r = score(gold, pred)
    assert r.per_label[C] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 3.0}
    _same_as_sklearn(gold, pred)


def test_macro_f1_skips_a_label_absent_from_gold_but_counts_it_when_predicted() -> None:
    # An RTE-like file: no neutral gold pairs. Neutral never predicted -> macro over E and C.
    gold = [E, E, C, C]
    r = score(gold, [E, E, C, E])
    assert r.macro_f1 == pytest.approx((0.8 + 2 / 3) / 2)
    # Predicting the absent label still costs: it lowers the recall of the labels present.
    r2 = score(gold, [E, N, C, N])
    assert r2.macro_f1 == pytest.approx((2 / 3 + 2 / 3) / 2)
    assert r2.per_label[N]["support"] == 0.0
    _same_as_sklearn(gold, [E, N, C, N])


def _same_as_sklearn(gold: list[str], pred: list[str]) -> None:
    r = score(gold, pred)
    labels = list(LABELS)
    assert r.accuracy == pytest.approx(accuracy_score(gold, pred))
    present = [lab for lab in labels if lab in gold]
    assert r.macro_f1 == pytest.approx(
        f1_score(gold, pred, labels=present, average="macro", zero_division=0)
    )
    p, rec, f, s = precision_recall_fscore_support(gold, pred, labels=labels, zero_division=0)
    for i, lab in enumerate(labels):
        assert r.per_label[lab]["precision"] == pytest.approx(p[i])
        assert r.per_label[lab]["recall"] == pytest.approx(rec[i])
        assert r.per_label[lab]["f1"] == pytest.approx(f[i])
        assert r.per_label[lab]["support"] == s[i]
    matrix = confusion_matrix(gold, pred, labels=labels)
    assert [[r.confusion[g][q] for q in labels] for g in labels] == matrix.tolist()


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"premise": "p", "hypothesis": "h", "label": "ENTAILMENT"})


def test_pair_file_loads_and_normalises_labels(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        [
            GOOD,
            "",
            json.dumps(
                {"premise": "a", "hypothesis": "b", "label": "contradiction", "source": "x"}
            ),
        ],
    )
    assert load_pair_file(path) == [
        {"premise": "p", "hypothesis": "h", "label": E},
        {"premise": "a", "hypothesis": "b", "label": C},
    ]


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("{not json", "not JSON"),
        ('["a", "b"]', "not a JSON object"),
        (json.dumps({"premise": "p", "label": E}), 'field "hypothesis" is missing'),
        (json.dumps({"premise": "p", "hypothesis": 3, "label": E}), 'field "hypothesis" is not'),
        (json.dumps({"premise": "p", "hypothesis": "h", "label": "SUPPORTS"}), "unknown label"),
    ],
)
def test_pair_file_errors_name_file_and_line(tmp_path: Path, bad: str, words: str) -> None:
    path = _write(tmp_path, [GOOD, bad])
    with pytest.raises(InputError) as err:
        load_pair_file(path)
    assert str(err.value).startswith(f"{path}:2: ") and words in str(err.value)
    assert err.value.hint


def test_missing_pair_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_pair_file(tmp_path / "absent.jsonl")


def test_eval_on_real_pairs_and_checks_catch_changed_numbers(
    shared_corpora: Path, tmp_path: Path
) -> None:
    from sciverify.entail.data import load_pairs, write_jsonl

    heldout = load_pairs(shared_corpora, "heldout", sources=["scifact"])[:40]
    path = tmp_path / "heldout.jsonl"
    write_jsonl(heldout, path)
    pairs = load_pair_file(path)
    entailer = load_entailer()
    report = eval_entail(pairs, entailer=entailer, with_checks=True)
    js = report.to_json()
    assert {"accuracy", "macro_f1", "per_label", "confusion"} <= set(js)
    assert js["n"] == 40 and js["backend"] == "bundled"
    assert sum(sum(row.values()) for row in js["confusion"].values()) == 40
    assert 0.0 <= js["accuracy"] <= 1.0
    json.dumps(js)  # serialisable as is

    # Real sentences with one number changed: the number check makes them contradictions,
    # whatever the model says, once the span is on topic.
    srs = (
        "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group and "
        "76.4% for SRS alone group (P<.001)."
    )
    statin = (
        "After adjusting for extent of statin use in the prior 3 years, current use (on "
        "the index date) was associated with a 71% reduction in risk (adjusted OR, 0.29; "
        "95% CI, 0.10-0.81)."
    )
    changed = [
        {
            "premise": srs,
            "hypothesis": "The 12-month brain tumor recurrence rate was 56.8% in "
            "the WBRT + SRS group.",
            "label": C,
        },
        {
            "premise": srs,
            "hypothesis": "The 12-month brain tumor recurrence rate was 46.8% in "
            "the WBRT + SRS group (P = 0.4).",
            "label": C,
        },
        {
            "premise": statin,
            "hypothesis": "Current statin use was associated with a 41% reduction in risk.",
            "label": C,
        },
    ]
    th = DecisionThresholds(related_min=0.0)
    with_checks = eval_entail(changed, entailer=entailer, with_checks=True, thresholds=th)
    without = eval_entail(changed, entailer=entailer, with_checks=False, thresholds=th)
    assert with_checks.per_label[C]["recall"] == 1.0
    assert with_checks.accuracy >= without.accuracy


def test_eval_command_scores_one_side_of_the_training_split(shared_corpora: Path) -> None:
    from typer.testing import CliRunner

    from sciverify.cli import app

    claims = shared_corpora / "scifact" / "claims_train.jsonl"
    runner = CliRunner()
    out = runner.invoke(
        app,
        ["eval", "entail", str(claims), "--split", "heldout", "--no-checks", "--format", "json"],
    )
    assert out.exit_code == 0, out.output
    js = json.loads(out.stdout)
    # The held-out SciFact pairs of the model card: 89 entailment, 163 neutral, 38 contradiction.
    assert js["n"] == 290
    assert {g: sum(row.values()) for g, row in js["confusion"].items()} == {
        "entailment": 89,
        "neutral": 163,
        "contradiction": 38,
    }
    bad = runner.invoke(app, ["eval", "entail", str(claims), "--split", "test"])
    assert bad.exit_code != 0 and "unknown split" in bad.output
