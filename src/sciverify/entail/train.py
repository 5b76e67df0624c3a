"""Fine-tune the bundled 3-way NLI cross-encoder on the shared real data sets.

    python -m sciverify.entail.train --corpora PATH --out PATH [--epochs 2] [--minutes 55]

Seeded and single-process; training stops cleanly at the time budget, then the held-out
split of every source is evaluated and the model is saved (fp16) with metrics and a card.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .checkpoint import (
    INFERENCE_MAX_LENGTH,
    LABEL2ID,
    LABELS,
    check_reload,
    load_base_classifier,
    predict_logits,
    save_checkpoint,
    tokenize_pairs,
)
from .data import HELDOUT_FRACTION, NLIPair, load_pairs

# How often each source is seen per epoch. SciFact is the target domain, so it is repeated;
# SICK's short everyday sentences are the least like scientific claims, so part is skipped.
# "scifact-flip" (SciFact claims with their polarity reversed) is loadable but not mixed in by
# default: a continuation run with it scored no better on the held-out SciFact pairs (see the
# model card's training history).
MIX: dict[str, float] = {
    "scifact": 3.0,
    "healthver": 0.8,
    "covidfact": 0.5,
    "sick": 0.3,
    "rte": 1.0,
    "perturb": 0.6,
}
Log = Callable[[str], None]


def _source_group(p: NLIPair, mix: dict[str, float] | None = None) -> str:
    # A perturbation kind named in the mixture ("perturb-entity") overrides the "perturb" weight.
    if mix is not None and p.source in mix:
        return p.source
    return "perturb" if p.source.startswith("perturb-") else p.source


def parse_mix(text: str) -> dict[str, float]:
    """`scifact=3,perturb=0.5,perturb-entity=0` -> {"scifact": 3.0, ...}; unnamed sources get 0."""
    mix: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, sep, value = item.partition("=")
        try:
            weight = float(value)
        except ValueError:
            weight = -1.0
        if not sep or weight < 0:
            raise ValueError(f"bad mixture entry {item!r}: write name=weight, e.g. scifact=3")
        mix[name.strip()] = weight
    return mix


def build_mixture(pairs: list[NLIPair], mix: dict[str, float], seed: int) -> list[NLIPair]:
    """Repeat or subsample each source by its weight, deterministically."""
    rng = random.Random(seed)
    out: list[NLIPair] = []
    for group in sorted(mix):
        rows = [p for p in pairs if _source_group(p, mix) == group]
        whole, frac = int(mix[group]), mix[group] - int(mix[group])
        out.extend(rows * whole)
        out.extend(rng.sample(rows, round(frac * len(rows))))
    return out


def class_weights(pairs: list[NLIPair]) -> list[float]:
    """Square-root inverse frequency: evens the classes out without overweighting the rare one."""
    counts = Counter(str(p.label) for p in pairs)
    total = sum(counts.values())
    return [math.sqrt(total / (len(LABELS) * max(counts[name], 1))) for name in LABELS]


def _batches(lengths: list[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Shuffle, sort by length inside windows of 50 batches (less padding), shuffle batches."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    window = batch_size * 50
    batches: list[list[int]] = []
    for start in range(0, len(order), window):
        chunk = sorted(order[start : start + window], key=lambda i: lengths[i])
        batches.extend(chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def evaluate(
    model: Any, tokenizer: Any, pairs: list[NLIPair], *, max_length: int = INFERENCE_MAX_LENGTH
) -> dict[str, Any]:
    """Accuracy, macro-F1 (over the gold labels present), per-label scores and confusion per source."""
    logits = predict_logits(
        model, tokenizer, [(p.hypothesis, p.premise) for p in pairs], max_length=max_length
    )
    preds = [LABELS[i] for i in logits.argmax(-1).tolist()]
    by_source: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        by_source.setdefault(p.source, []).append(i)
        if p.source.startswith("perturb-"):
            by_source.setdefault("perturb", []).append(i)
    return {
        name: score([str(pairs[i].label) for i in idx], [preds[i] for i in idx])
        for name, idx in sorted(by_source.items())
    }


def score(gold: list[str], pred: list[str]) -> dict[str, Any]:
    """The metrics.json shape of `evaluate.score`: rounded (macro-F1 over the gold labels present)."""
    from sciverify.entail.evaluate import score as eval_score

    report = eval_score(gold, pred, labels=LABELS)
    per_label = {
        name: {
            "precision": round(v["precision"], 4),
            "recall": round(v["recall"], 4),
            "f1": round(v["f1"], 4),
            "n": int(v["support"]),
        }
        for name, v in report.per_label.items()
    }
    return {
        "n": report.n,
        "accuracy": round(report.accuracy, 4),
        "macro_f1": round(report.macro_f1, 4),
        "per_label": per_label,
        "confusion": report.confusion,  # gold -> predicted -> count
    }


def _counts(pairs: list[NLIPair]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in pairs:
        out.setdefault(p.source, {name: 0 for name in LABELS})[str(p.label)] += 1
    return dict(sorted(out.items()))


def pick_device(name: str = "auto") -> Any:
    """`auto` is the GPU when torch sees one, else the CPU; `cpu` and `cuda[:N]` are taken as is."""
    import torch

    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


def fit(
    model: Any,
    tokenizer: Any,
    mixture: list[NLIPair],
    *,
    weights: list[float],
    seed: int,
    epochs: int,
    deadline: float,
    max_length: int,
    batch_size: int,
    lr: float,
    warmup_fraction: float = 0.06,
    freeze_embeddings: bool = False,
    label_smoothing: float = 0.0,
    device: str = "auto",
    say: Log | None = None,
) -> dict[str, Any]:
    """Fine-tune `model` in place on `mixture` (linear warm-up and decay, AdamW, length-bucketed
    batches) until the planned epochs or the monotonic `deadline`, whichever comes first."""
    import torch

    say = say or (lambda _msg: None)
    dev = pick_device(device)
    model.to(dev)
    if freeze_embeddings:
        # The word-piece embeddings are half of MiniLM's weights; freezing them makes each step
        # cheaper on a CPU and protects the pretrained vocabulary from a small data set.
        for param in model.base_model.embeddings.parameters():
            param.requires_grad_(False)
    enc = tokenize_pairs(
        tokenizer, [p.hypothesis for p in mixture], [p.premise for p in mixture], max_length
    )
    ids, types = enc["input_ids"], enc["token_type_ids"]
    labels = [LABEL2ID[str(p.label)] for p in mixture]
    lengths = [len(x) for x in ids]
    say(f"mean tokens/pair {sum(lengths) / len(lengths):.1f}, max_length {max_length}, device {dev}")

    rng = random.Random(seed)
    epoch_batches = [_batches(lengths, batch_size, rng) for _ in range(epochs)]
    planned = sum(len(b) for b in epoch_batches)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(trainable, lr=lr, weight_decay=0.01)
    loss_fn = torch.nn.CrossEntropyLoss(
        weight=torch.tensor(weights, device=dev), label_smoothing=label_smoothing
    )
    t_train = time.monotonic()

    def progress(step: int, now: float) -> float:
        # Whichever runs out first, the planned steps or the time budget, sets the schedule, so
        # the learning rate decays to zero by the end however fast the machine turns out.
        return max(step / planned, (now - t_train) / max(1.0, deadline - t_train))

    def lr_at(p: float) -> float:
        if p < warmup_fraction:
            return lr * max(p, 1e-3) / warmup_fraction
        return lr * max(0.0, (1.0 - p) / (1.0 - warmup_fraction))

    model.train()
    step, seen, stopped_early = 0, 0, False
    running = 0.0
    for epoch, batches in enumerate(epoch_batches):
        for b in batches:
            p = progress(step, time.monotonic())
            if p >= 1.0:
                stopped_early = step < planned
                break
            width = max(lengths[i] for i in b)
            input_ids = torch.zeros((len(b), width), dtype=torch.long)
            token_type = torch.zeros_like(input_ids)
            mask = torch.zeros_like(input_ids)
            for r, i in enumerate(b):
                input_ids[r, : lengths[i]] = torch.tensor(ids[i])
                token_type[r, : lengths[i]] = torch.tensor(types[i])
                mask[r, : lengths[i]] = 1
            for group in optim.param_groups:
                group["lr"] = lr_at(p)
            out = model(
                input_ids=input_ids.to(dev),
                attention_mask=mask.to(dev),
                token_type_ids=token_type.to(dev),
            )
            loss = loss_fn(out.logits, torch.tensor([labels[i] for i in b], device=dev))
            optim.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            optim.step()
            step += 1
            seen += len(b)
            running = (
                0.98 * running + 0.02 * float(loss.detach()) if step > 1 else float(loss.detach())
            )
            elapsed = time.monotonic() - t_train
            if step % 25 == 0 or step == 1:
                rate = seen / elapsed
                done = progress(step, time.monotonic())
                eta = elapsed * (1.0 - done) / max(done, 1e-9)
                say(
                    f"epoch {epoch + 1} step {step}/{planned} progress {done:.1%} loss {running:.4f} "
                    f"lr {lr_at(done):.2e} "
                    f"{rate:.1f} pairs/s elapsed {elapsed / 60:.1f} min eta {eta / 60:.1f} min"
                )
        say(f"epoch {epoch + 1} done at step {step}")
        if progress(step, time.monotonic()) >= 1.0:
            break
    train_minutes = (time.monotonic() - t_train) / 60
    say(
        f"training finished: {step} steps, {seen} pairs, {train_minutes:.1f} min, stopped_early={stopped_early}"
    )
    model.eval()
    return {
        "steps": step,
        "steps_planned": planned,
        "pairs_seen": seen,
        "train_minutes": round(train_minutes, 2),
        "stopped_at_time_budget": stopped_early,
        "device": str(dev),
    }


def train_nli(
    corpora_root: Path,
    out_dir: Path,
    *,
    seed: int = 13,
    epochs: int = 2,
    time_budget_minutes: float = 55,
    max_length: int = 160,
    batch_size: int = 16,
    lr: float = 5e-5,
    warmup_fraction: float = 0.06,
    mix: dict[str, float] | None = None,
    command: str = "",
    log: Log | None = None,
    heldout_limit: int | None = None,
    keep_trained: Path | None = None,
    init_from: Path | None = None,
    freeze_embeddings: bool = False,
    threads: int = 2,
    label_smoothing: float = 0.0,
    device: str = "auto",
) -> dict[str, Any]:
    """Train, evaluate on the held-out split of every source, save into `out_dir`; returns metrics."""
    import numpy as np
    import torch

    say = log or (lambda _msg: None)
    started = time.monotonic()
    deadline = started + time_budget_minutes * 60
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)

    mix = mix or MIX
    # Sources outside the mixture are not loaded for training; every source is still evaluated.
    wanted = sorted({"perturb" if name.startswith("perturb") else name for name in mix})
    train_pairs = load_pairs(corpora_root, "train", sources=wanted)
    # The held-out set is the same whatever the mixture: every source of the default MIX.
    heldout = load_pairs(corpora_root, "heldout", sources=list(MIX))
    if heldout_limit is not None:  # smoke checks only: every n-th pair keeps all sources
        heldout = heldout[:: max(1, len(heldout) // heldout_limit)]
    mixture = build_mixture(train_pairs, mix, seed)
    weights = class_weights(mixture)
    say(
        f"train pairs {len(train_pairs)}, mixture/epoch {len(mixture)}, heldout {len(heldout)}, class weights "
        + ", ".join(f"{n}={w:.2f}" for n, w in zip(LABELS, weights, strict=True))
    )

    # Continuing from an earlier run's fp32 copy (`init_from`) keeps what it learned.
    model, tokenizer = load_base_classifier(init_from)
    stats = fit(
        model,
        tokenizer,
        mixture,
        weights=weights,
        seed=seed,
        epochs=epochs,
        deadline=deadline,
        max_length=max_length,
        batch_size=batch_size,
        lr=lr,
        warmup_fraction=warmup_fraction,
        freeze_embeddings=freeze_embeddings,
        label_smoothing=label_smoothing,
        device=device,
        say=say,
    )
    step, seen, planned = stats["steps"], stats["pairs_seen"], stats["steps_planned"]
    stopped_early, train_minutes = stats["stopped_at_time_budget"], stats["train_minutes"]

    if keep_trained is not None:
        # A plain fp32 copy first, so a failure while evaluating or saving loses no training.
        model.save_pretrained(str(keep_trained))
        tokenizer.save_pretrained(str(keep_trained))
    model.eval()
    metrics = evaluate(model, tokenizer, heldout)
    model.to("cpu")
    say(
        "held-out: "
        + ", ".join(
            f"{k} acc {v['accuracy']:.3f} F1 {v['macro_f1']:.3f}" for k, v in metrics.items()
        )
    )
    result: dict[str, Any] = {
        "heldout": metrics,
        "train_counts": _counts(train_pairs),
        "heldout_counts": _counts(heldout),
        "mixture": mix,
        "mixture_size_per_epoch": len(mixture),
        "class_weights": dict(zip(LABELS, [round(w, 4) for w in weights], strict=True)),
        "training": {
            "seed": seed,
            "epochs_planned": epochs,
            "steps": step,
            "steps_planned": planned,
            "schedule": "linear warm-up and decay over max(step/steps_planned, time/budget)",
            "pairs_seen": seen,
            "batch_size": batch_size,
            "lr": lr,
            "max_length_train": max_length,
            "max_length_inference": INFERENCE_MAX_LENGTH,
            "train_minutes": round(train_minutes, 2),
            "stopped_at_time_budget": stopped_early,
            "time_budget_minutes": time_budget_minutes,
            "init_from": str(init_from.name) if init_from else "all-MiniLM-L6-v2",
            "freeze_embeddings": freeze_embeddings,
            "label_smoothing": label_smoothing,
            "heldout_fraction": HELDOUT_FRACTION,
            "torch_threads": torch.get_num_threads(),
            "device": stats["device"],
            "command": command,
        },
    }
    from .card import model_card

    probe = [(p.hypothesis, p.premise) for p in heldout[:: max(1, len(heldout) // 200)]]
    save_checkpoint(
        model,
        tokenizer,
        Path(out_dir),
        extra_config={"sciverify_trained": True},
        extra_files={
            "metrics.json": json.dumps(result, indent=2) + "\n",
            "MODEL_CARD.md": model_card(result),
        },
    )
    reload = check_reload(Path(out_dir), model, tokenizer, probe)
    result["fp16_reload_check"] = reload
    (Path(out_dir) / "metrics.json").write_text(
        json.dumps(result, indent=2) + "\n", encoding="utf-8"
    )
    say(
        f"saved to {out_dir}; fp16 reload agreement {reload['argmax_agreement']:.4f}, "
        f"max |logit diff| {reload['max_abs_logit_diff']:.4f}; total {(time.monotonic() - started) / 60:.1f} min"
    )
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m sciverify.entail.train", description=__doc__.splitlines()[0]
    )
    ap.add_argument(
        "--corpora", type=Path, required=True, help="folder holding scifact/, healthver/, ..."
    )
    ap.add_argument(
        "--out", type=Path, required=True, help="model folder to write (replaced when done)"
    )
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=55, help="training time budget")
    ap.add_argument("--max-length", type=int, default=160)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument(
        "--keep-trained", type=Path, default=None, help="also save the fp32 model here first"
    )
    ap.add_argument(
        "--heldout-limit",
        type=int,
        default=None,
        help="evaluate on about this many pairs (smoke checks)",
    )
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this fp32 checkpoint (e.g. an earlier --keep-trained copy)")
    ap.add_argument("--freeze-embeddings", action="store_true",
                    help="train the transformer layers and the head only")
    ap.add_argument("--threads", type=int, default=2,
                    help="CPU threads for torch (1 leaves a core free on a shared machine)")
    ap.add_argument("--mix", type=parse_mix, default=None,
                    help="source weights per epoch, e.g. scifact=3,healthver=1,perturb-entity=0 "
                    "(default: the MIX table in this module)")
    ap.add_argument("--label-smoothing", type=float, default=0.0,
                    help="cross-entropy label smoothing (0 = none)")
    ap.add_argument("--device", default="auto",
                    help="auto (the GPU when torch sees one), cpu or cuda[:N]")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        print(time.strftime("%H:%M:%S"), msg, flush=True)

    command = "python -m sciverify.entail.train " + " ".join(sys.argv[1:] if argv is None else argv)
    train_nli(
        args.corpora,
        args.out,
        seed=args.seed,
        epochs=args.epochs,
        time_budget_minutes=args.minutes,
        max_length=args.max_length,
        batch_size=args.batch_size,
        lr=args.lr,
        command=command,
        log=log,
        heldout_limit=args.heldout_limit,
        keep_trained=args.keep_trained,
        init_from=args.init,
        freeze_embeddings=args.freeze_embeddings,
        threads=args.threads,
        mix=args.mix,
        label_smoothing=args.label_smoothing,
        device=args.device,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
