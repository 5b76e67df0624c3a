"""The bundled NLI backend and the CrossEncoder backend on the shipped model folder."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from sciverify.entail.backends import (
    BundledEntailer,
    CrossEncoderEntailer,
    Entailer,
    bundled_model_path,
    label_order,
    load_entailer,
)
from sciverify.errors import EnvironmentProblem, UsageError
from sciverify.records import EntailProbs


@pytest.fixture(scope="module")
def real_pairs(shared_corpora: Path) -> list[tuple[str, str]]:
    """(evidence, claim) pairs from SciFact: rationale sentences with their claims, plus one
    whole abstract so that truncation at 256 tokens is exercised."""
    docs: dict[int, list[str]] = {}
    with gzip.open(shared_corpora / "scifact" / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            docs[int(d["doc_id"])] = d["abstract"]
    claims = (shared_corpora / "scifact" / "claims_train.jsonl").read_text(encoding="utf-8")
    pairs = []
    for line in claims.splitlines()[:40]:
        c = json.loads(line)
        for doc, sets in c["evidence"].items():
            sents = docs[int(doc)]
            pairs.append((" ".join(sents[i] for i in sets[0]["sentences"]), c["claim"]))
            if len(pairs) == 1:
                pairs.append((" ".join(sents), c["claim"]))  # a full abstract: > 256 tokens
    assert len(pairs) >= 20
    return pairs


def _close(a: list[EntailProbs], b: list[EntailProbs], tol: float = 1e-5) -> bool:
    return all(
        abs(x.entailment - y.entailment) < tol
        and abs(x.neutral - y.neutral) < tol
        and abs(x.contradiction - y.contradiction) < tol
        for x, y in zip(a, b, strict=True)
    )


def test_bundled_gives_probabilities_in_input_order(real_pairs: list[tuple[str, str]]) -> None:
    entailer = load_entailer()
    assert isinstance(entailer, Entailer) and entailer.name == "bundled"
    batched = entailer.predict(real_pairs, batch_size=8)
    one_by_one = [entailer.predict([p], batch_size=1)[0] for p in real_pairs[:10]]
    assert len(batched) == len(real_pairs)
    assert _close(batched[:10], one_by_one)  # length-sorted batching restores the order
    for p in batched:
        assert abs(p.entailment + p.neutral + p.contradiction - 1.0) < 1e-6
        assert p.error is None
    assert entailer.predict([]) == []


def test_bundled_is_cached_per_process() -> None:
    assert load_entailer() is load_entailer("bundled")


def test_cross_encoder_path_matches_bundled(real_pairs: list[tuple[str, str]]) -> None:
    """sentence-transformers' CrossEncoder on the same folder gives the same numbers, so the
    lean forward pass, the fp16 -> fp32 load, the input order and the truncation all agree."""
    bundled = load_entailer().predict(real_pairs)
    ce = load_entailer(f"cross-encoder:{bundled_model_path()}", device="cpu")
    assert isinstance(ce, CrossEncoderEntailer) and ce.hypothesis_first
    assert _close(bundled, ce.predict(real_pairs, batch_size=16))


def test_weights_are_fp16_on_disk_and_float32_in_memory() -> None:
    import torch
    from safetensors import safe_open

    path = bundled_model_path() / "model.safetensors"
    with safe_open(str(path), "pt") as fh:
        assert fh.get_tensor("classifier.weight").dtype == torch.float16
    entailer = load_entailer()
    assert isinstance(entailer, BundledEntailer)
    assert {w.dtype for w in entailer._model.weights.values()} == {torch.float32}


def _permuted_copy(tmp_path: Path, order: list[int], names: list[str]) -> Path:
    """The bundled model with its output rows reordered and id2label renamed to match."""
    from safetensors.torch import load_file, save_file

    dst = tmp_path / "permuted"
    shutil.copytree(bundled_model_path(), dst)
    weights = load_file(str(dst / "model.safetensors"))
    for key in ("classifier.weight", "classifier.bias"):
        weights[key] = weights[key][order].contiguous()
    save_file(weights, str(dst / "model.safetensors"), metadata={"format": "pt"})
    config = json.loads((dst / "config.json").read_text())
    config["id2label"] = {str(i): n for i, n in enumerate(names)}
    config["label2id"] = {n: i for i, n in enumerate(names)}
    (dst / "config.json").write_text(json.dumps(config))
    return dst


def test_labels_come_from_config_not_position(
    tmp_path: Path, real_pairs: list[tuple[str, str]]
) -> None:
    base = json.loads((bundled_model_path() / "config.json").read_text())["id2label"]
    ours = [base[str(i)] for i in range(3)]
    order = [2, 0, 1]
    names = [ours[i].upper() for i in order]  # e.g. CONTRADICTION, ENTAILMENT, NEUTRAL
    folder = _permuted_copy(tmp_path, order, names)
    expected = load_entailer().predict(real_pairs[:6])
    lean = BundledEntailer(folder, device="cpu", max_length=256).predict(real_pairs[:6])
    ce = CrossEncoderEntailer(str(folder), device="cpu", max_length=256).predict(real_pairs[:6])
    assert _close(expected, lean, 1e-4) and _close(expected, ce, 1e-4)


def test_input_order_follows_the_config(tmp_path: Path, real_pairs: list[tuple[str, str]]) -> None:
    dst = tmp_path / "premise_first"
    shutil.copytree(bundled_model_path(), dst)
    config = json.loads((dst / "config.json").read_text())
    config.pop("sciverify_input_order", None)
    (dst / "config.json").write_text(json.dumps(config))
    lean = BundledEntailer(dst, device="cpu", max_length=256)
    assert not lean.hypothesis_first
    # Premise-first on (evidence, claim) reads exactly what hypothesis-first reads on swapped
    # inputs, except for truncation, which the short rationale pairs never reach.
    short = [p for p in real_pairs[:6] if len(p[0]) < 600]
    assert _close(
        lean.predict(short),
        load_entailer().predict([(c, e) for e, c in short]),
    )
    ce = CrossEncoderEntailer(str(dst), device="cpu", max_length=256)
    assert _close(lean.predict(real_pairs[:6]), ce.predict(real_pairs[:6]))


def test_label_names_accepted_and_refused() -> None:
    assert label_order({"0": "CONTRADICTION", "1": "ENTAILMENT", "2": "NEUTRAL"}, model="m") == [
        "contradiction",
        "entailment",
        "neutral",
    ]
    assert label_order({0: "entails", 1: "not_entailment"}, model="m") == ["entailment", "neutral"]
    with pytest.raises(EnvironmentProblem, match="LABEL_0"):
        label_order({"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}, model="m")


def test_missing_models_are_environment_problems(tmp_path: Path) -> None:
    with pytest.raises(EnvironmentProblem) as missing:
        BundledEntailer(tmp_path / "nowhere", device="cpu", max_length=256)
    assert missing.value.hint and "--backend" in missing.value.hint
    with pytest.raises(EnvironmentProblem) as offline:
        load_entailer("cross-encoder:no-such-org/no-such-nli-model")
    assert "no-such-org/no-such-nli-model" in offline.value.message
    assert offline.value.hint and "cross-encoder:PATH" in offline.value.hint


def test_bad_specs_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        load_entailer("word2vec")
    with pytest.raises(UsageError, match="URL"):
        load_entailer("llm")
