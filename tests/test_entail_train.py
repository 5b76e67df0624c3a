"""NLI training helpers and the shipped checkpoint format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sciverify.entail import checkpoint as ck
from sciverify.entail import train as tr
from sciverify.entail.data import NLIPair
from sciverify.records import Label

MODEL_DIR = Path(ck.__file__).with_name("model")


def test_score_counts_confusion_and_macro_f1() -> None:
    gold = ["entailment", "entailment", "neutral", "contradiction"]
    pred = ["entailment", "neutral", "neutral", "entailment"]
    m = tr.score(gold, pred)
    assert m["accuracy"] == 0.5
    assert m["confusion"]["entailment"] == {"entailment": 1, "neutral": 1, "contradiction": 0}
    # F1: entailment 0.5, neutral 2/3, contradiction 0.
    assert m["macro_f1"] == pytest.approx((0.5 + 2 / 3 + 0) / 3, abs=1e-3)
    two_way = tr.score(["entailment", "contradiction"], ["entailment", "contradiction"])
    assert two_way["macro_f1"] == 1.0  # absent gold labels do not count


def test_mixture_repeats_and_subsamples_deterministically() -> None:
    pairs = [NLIPair(f"p{i}", "h", Label.neutral, "sick", "train", f"sick:{i}") for i in range(10)]
    pairs += [
        NLIPair(f"q{i}", "h", Label.entailment, "scifact", "train", f"scifact:{i}")
        for i in range(4)
    ]
    mix = tr.build_mixture(pairs, {"sick": 0.5, "scifact": 2.0}, seed=3)
    assert (
        sum(p.source == "scifact" for p in mix) == 8 and sum(p.source == "sick" for p in mix) == 5
    )
    assert mix == tr.build_mixture(pairs, {"sick": 0.5, "scifact": 2.0}, seed=3)
    w = tr.class_weights(mix)
    assert w[ck.LABEL2ID["neutral"]] > w[ck.LABEL2ID["entailment"]]  # 5 neutral vs 8 entailment


def test_mixture_weights_a_perturbation_kind_apart() -> None:
    pairs = [
        NLIPair(f"p{i}", "h", Label.contradiction, kind, "train", f"{kind}:{i}")
        for kind in ("perturb-entity", "perturb-number")
        for i in range(6)
    ]
    mix = tr.build_mixture(pairs, tr.parse_mix("perturb=1, perturb-entity=0"), seed=1)
    assert [p.source for p in mix] == ["perturb-number"] * 6
    assert tr.parse_mix("scifact=3,sick=0.25") == {"scifact": 3.0, "sick": 0.25}
    for bad in ("scifact", "scifact=x", "sick=-1"):
        with pytest.raises(ValueError, match="name=weight"):
            tr.parse_mix(bad)


def test_long_hypothesis_is_kept_and_premise_cut() -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(ck.base_model_path()))
    claim = "Vitamin D supplementation reduces mortality in adults with COVID-19."
    enc = ck.tokenize_pairs(tok, [claim], ["evidence " * 500], 64)
    ids = enc["input_ids"][0]
    assert len(ids) == 64
    assert ids[1 : ids.index(tok.sep_token_id)] == tok(claim, add_special_tokens=False)["input_ids"]
    paragraph = "word " * 300  # a claim longer than the limit is cut instead of failing
    assert len(ck.tokenize_pairs(tok, [paragraph], ["x"], 64)["input_ids"][0]) == 64


def test_shipped_model_folder_has_the_format() -> None:
    cfg = json.loads((MODEL_DIR / "config.json").read_text(encoding="utf-8"))
    assert cfg["id2label"] == {"0": "entailment", "1": "neutral", "2": "contradiction"}
    assert cfg["label2id"] == {"entailment": 0, "neutral": 1, "contradiction": 2}
    assert cfg["sciverify_input_order"] == "hypothesis_first"
    weights = MODEL_DIR / "model.safetensors"
    assert weights.stat().st_size <= 50 * 1024 * 1024
    from safetensors import safe_open

    with safe_open(str(weights), framework="pt") as f:
        key = next(iter(f.keys()))
        assert str(f.get_tensor(key).dtype) == "torch.float16"
    for name in (
        "tokenizer.json",
        "tokenizer_config.json",
        "metrics.json",
        "MODEL_CARD.md",
        "modules.json",
    ):
        assert (MODEL_DIR / name).is_file(), name


def test_saved_checkpoint_reloads_as_float32_with_the_same_predictions(tmp_path: Path) -> None:
    import torch
    from sentence_transformers import CrossEncoder

    torch.manual_seed(0)
    model, tok = ck.load_base_classifier()
    # A fresh head gives near-tied logits that fp16 rounding may flip; scale it up so the
    # logits are as well separated as a trained model's.
    with torch.no_grad():
        model.classifier.weight.mul_(200.0)
    out = ck.save_checkpoint(model, tok, tmp_path / "m", extra_files={"MODEL_CARD.md": "# test\n"})
    ck.save_checkpoint(model, tok, out)  # replacing an existing folder works too
    pairs = [
        ("Smoking causes lung cancer.", "Smoking is the leading cause of lung cancer."),
        ("Mice were treated for 3 weeks.", "The mice received the drug for 21 days."),
    ]
    check = ck.check_reload(out, model, tok, pairs)
    assert check["argmax_agreement"] == 1.0 and check["max_abs_logit_diff"] < 0.5
    ce = CrossEncoder(str(out))
    assert ce.model.dtype == torch.float32
    assert ce.predict(pairs).shape == (2, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]  # no staging folder left behind


@pytest.mark.slow
def test_train_nli_command_trains_evaluates_and_saves(
    tmp_path: Path, shared_corpora: Path
) -> None:
    from typer.testing import CliRunner

    from sciverify.cli import app

    out, fp32 = tmp_path / "model", tmp_path / "fp32"
    args = ["train-nli", "--corpora", str(shared_corpora), "--out", str(out), "--minutes", "0.1",
            "--epochs", "1", "--mix", "rte=0.2", "--lr", "1e-5", "--label-smoothing", "0.1",
            "--heldout-limit", "40", "--keep-trained", str(fp32)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["mixture"] == {"rte": 0.2}
    training = metrics["training"]
    assert training["lr"] == 1e-5 and training["label_smoothing"] == 0.1
    assert training["steps"] > 0 and "--mix rte=0.2" in training["command"]
    assert set(metrics["train_counts"]) == {"rte"}  # only the mixture's sources are loaded
    assert {"scifact", "healthver", "sick"} <= set(metrics["heldout"])  # every source is scored
    assert metrics["fp16_reload_check"]["argmax_agreement"] >= 0.95
    assert (out / "MODEL_CARD.md").is_file() and (fp32 / "model.safetensors").is_file()
