"""Choose a fine-tuning recipe for the bundled NLI model on a validation split, then train it
with several seeds and average their weights (a uniform model soup). Made for a GPU; runs on a
CPU too, slowly.

Three phases, each a separate process so that phases A and B can run side by side on one GPU:

    # A: every recipe of GRID (worker W of N takes every N-th), trained on the train split
    #    without the validation claims, scored on the validation claims and the held-out split
    python benchmarks/nli_sweep.py grid --dir DIR --worker W --workers N
    # B: the recipe with the best validation macro-F1, trained on the whole train split
    python benchmarks/nli_sweep.py final --dir DIR --seed S
    # the three phases on one GPU: benchmarks/nli_sweep_gpu.sh
    # C: the average of phase B's weights, scored on the held-out split, saved as soup_fp16.pt
    python benchmarks/nli_sweep.py soup --dir DIR
    # D: a shipped-format model folder (weights, card, metrics) from soup_fp16.pt
    python benchmarks/nli_sweep.py package --dir DIR --state DIR/soup_fp16.pt --out MODEL_DIR

The validation claims are a hash-chosen quarter of the SciFact *train* claim groups (a salt of
its own, so it never overlaps the held-out split); the recipe is chosen on them alone, and the
held-out figures are only reported. Every run starts from `--init` (default: the shipped model).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from sciverify.entail import train as tr
from sciverify.entail.checkpoint import LABELS, load_base_classifier, save_checkpoint
from sciverify.entail.data import NLIPair, load_pairs, read_scifact_claims, scifact_groups
from sciverify.entail.train import MIX

VAL_SALT = "sciverify-nli-val"
VAL_FRACTION = 0.25
STAGE10_MIX = (
    "scifact=3,scifact-flip=1,scifact-context=1,conjoin=0.6,healthver=1,covidfact=0,sick=0.2,"
    "rte=0.5,perturb=0.35,perturb-entity=0,perturb-number=1,perturb-direction=0.6,"
    "perturb-shorten=0.5,perturb-frame=0.3"
)
HEAVY_MIX = STAGE10_MIX.replace(
    "scifact=3,scifact-flip=1,scifact-context=1", "scifact=6,scifact-flip=2,scifact-context=2"
)
LIGHT_PERTURB_MIX = STAGE10_MIX.replace("perturb=0.35", "perturb=0.15").replace(
    "perturb-number=1", "perturb-number=0.5"
)

# Recipes: every one starts from --init (all-MiniLM-L6-v2 for a clean selection: a start that
# had trained on the validation claims would favour the recipes that move least from it).
# `freeze` freezes the word-piece embeddings.
GRID: list[dict[str, Any]] = [
    {"lr": 5e-5, "epochs": 4},
    {"lr": 5e-5, "epochs": 8},
    {"lr": 3e-5, "epochs": 8},
    {"lr": 8e-5, "epochs": 6},
    {"lr": 5e-5, "epochs": 8, "mix": HEAVY_MIX},
    {"lr": 5e-5, "epochs": 8, "batch_size": 32},
    {"lr": 5e-5, "epochs": 8, "freeze": True},
    {"lr": 5e-5, "epochs": 12},
    {"lr": 1e-4, "epochs": 8, "batch_size": 32},
    {"lr": 5e-5, "epochs": 8, "mix": LIGHT_PERTURB_MIX},
    {"lr": 5e-5, "epochs": 8, "max_length": 256},
    {"lr": 5e-5, "epochs": 8, "label_smoothing": 0.0},
]
DEFAULTS: dict[str, Any] = {
    "batch_size": 16,
    "max_length": 192,
    "label_smoothing": 0.1,
    "freeze": False,
    "mix": STAGE10_MIX,
}


def _log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def _val_claims(corpora: Path) -> set[int]:
    """Train-split SciFact claims whose group hashes into the validation quarter."""
    from sciverify.entail.data import split_of

    claims = read_scifact_claims(corpora / "scifact" / "claims_train.jsonl")
    groups = scifact_groups(claims)
    out: set[int] = set()
    for c in claims:
        g = groups[int(c["id"])]
        if split_of(g) != "train":
            continue
        digest = hashlib.sha256(f"{VAL_SALT}|{g}".encode()).digest()
        if int.from_bytes(digest[:8], "big") / 2**64 < VAL_FRACTION:
            out.add(int(c["id"]))
    return out


def _val_docs(corpora: Path, val: set[int]) -> set[int]:
    claims = read_scifact_claims(corpora / "scifact" / "claims_train.jsonl")
    docs: set[int] = set()
    for c in claims:
        if int(c["id"]) in val:
            docs.update(int(d) for d in c.get("cited_doc_ids", []))
            docs.update(int(d) for d in c.get("evidence", {}))
    return docs


def _touches(p: NLIPair, val: set[int], docs: set[int]) -> bool:
    """Whether a training pair was made from a validation claim or one of its abstracts."""
    parts = p.pair_id.split(":")
    try:
        if parts[0] in ("scifact", "scifact-claim"):
            return int(parts[1]) in val
        if parts[0] in ("scifact-ev", "conjoin", "scifact-title"):
            return int(parts[1]) in docs
    except (IndexError, ValueError):
        return False
    return False


def _data(
    corpora: Path, mix: dict[str, float], *, without_val: bool
) -> tuple[list[NLIPair], list[NLIPair], list[NLIPair]]:
    wanted = sorted({"perturb" if n.startswith("perturb") else n for n in mix})
    train_pairs = load_pairs(corpora, "train", sources=wanted)
    val_ids = _val_claims(corpora)
    val = [
        p
        for p in load_pairs(corpora, "train", sources=["scifact"])
        if int(p.pair_id.split(":")[1]) in val_ids
    ]
    if without_val:
        docs = _val_docs(corpora, val_ids)
        train_pairs = [p for p in train_pairs if not _touches(p, val_ids, docs)]
    heldout = load_pairs(corpora, "heldout", sources=list(MIX))
    return train_pairs, val, heldout


def _run(
    cfg: dict[str, Any], args: argparse.Namespace, *, seed: int, without_val: bool
) -> tuple[Any, Any, dict[str, Any]]:
    import numpy as np
    import torch

    cfg = {**DEFAULTS, **cfg}
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(args.threads)
    torch.backends.cuda.matmul.allow_tf32 = True
    mix = tr.parse_mix(cfg["mix"])
    train_pairs, val, heldout = _data(args.corpora, mix, without_val=without_val)
    mixture = tr.build_mixture(train_pairs, mix, seed)
    if args.smoke:
        mixture, val, heldout = mixture[:: max(1, len(mixture) // 64)], val[:40], heldout[::40]
    weights = tr.class_weights(mixture)
    # The new head is drawn with one seed for every run, so that runs differ only in data
    # order and dropout and their weights can be averaged.
    torch.manual_seed(13)
    model, tokenizer = load_base_classifier(args.init)
    model.float()  # an fp16 copy of the start weights trains in fp32
    torch.manual_seed(seed)
    stats = tr.fit(
        model,
        tokenizer,
        mixture,
        weights=weights,
        seed=seed,
        epochs=cfg["epochs"],
        deadline=time.monotonic() + args.minutes * 60,
        max_length=cfg["max_length"],
        batch_size=cfg["batch_size"],
        lr=cfg["lr"],
        freeze_embeddings=cfg["freeze"],
        label_smoothing=cfg["label_smoothing"],
        device=args.device,
        say=_log if args.verbose else None,
    )
    result = {
        "config": cfg,
        "seed": seed,
        "without_val": without_val,
        "train_pairs": len(train_pairs),
        "mixture_size_per_epoch": len(mixture),
        "class_weights": dict(zip(LABELS, [round(w, 4) for w in weights], strict=True)),
        "stats": stats,
        "val": tr.evaluate(model, tokenizer, val)["scifact"] if val else None,
        "heldout": tr.evaluate(model, tokenizer, heldout),
        "train_counts": tr._counts(train_pairs),
        "heldout_counts": tr._counts(heldout),
    }
    return model, tokenizer, result


def _brief(r: dict[str, Any]) -> str:
    h = {k: v for k, v in r["heldout"].items()}
    for name in ("scifact", "healthver", "sick", "perturb", "perturb-number", "perturb-negation"):
        h.setdefault(name, {"macro_f1": float("nan"), "accuracy": float("nan")})
    val = f"val {r['val']['macro_f1']:.3f}" if r.get("val") else "val -"
    return (
        f"{val} | held-out scifact {h['scifact']['macro_f1']:.3f} healthver {h['healthver']['macro_f1']:.3f} "
        f"sick {h['sick']['macro_f1']:.3f} perturb {h['perturb']['macro_f1']:.3f} "
        f"number {h['perturb-number']['accuracy']:.3f} negation {h['perturb-negation']['accuracy']:.3f} "
        f"| {r['stats']['steps']} steps {r['stats']['train_minutes']} min"
    )


def cmd_grid(args: argparse.Namespace) -> None:
    for i, cfg in enumerate(GRID):
        if i % args.workers != args.worker:
            continue
        _, _, result = _run(cfg, args, seed=13, without_val=True)
        (args.dir / f"grid_{i:02d}.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
        _log(f"grid {i} {cfg}: {_brief(result)}")


def _best(dir_: Path) -> tuple[int, dict[str, Any]]:
    rows = sorted(dir_.glob("grid_*.json"))
    if not rows:
        raise SystemExit(f"no grid results in {dir_}: run the grid phase first")
    scored = [
        (json.loads(p.read_text())["val"]["macro_f1"], int(p.stem.split("_")[1])) for p in rows
    ]
    _, i = max(scored, key=lambda t: (t[0], -t[1]))
    return i, GRID[i]


def cmd_final(args: argparse.Namespace) -> None:
    import torch

    i, cfg = _best(args.dir)
    model, _, result = _run(cfg, args, seed=args.seed, without_val=False)
    result["grid_index"] = i
    torch.save(
        {k: v.detach().cpu() for k, v in model.state_dict().items()},
        args.dir / f"seed_{args.seed}.pt",
    )
    (args.dir / f"final_{args.seed}.json").write_text(
        json.dumps(result, indent=1), encoding="utf-8"
    )
    _log(f"final grid {i} seed {args.seed}: {_brief(result)}")


def cmd_soup(args: argparse.Namespace) -> None:
    """Average phase B's weights, score the average on the held-out split, save it (fp16)."""
    import torch

    paths = sorted(args.dir.glob("seed_*.pt"))
    if not paths:
        raise SystemExit(f"no seed_*.pt in {args.dir}: run the final phase first")
    states = [torch.load(p, map_location="cpu") for p in paths]
    avg = {
        k: sum(s[k].float() for s in states) / len(states) if v.is_floating_point() else v
        for k, v in states[0].items()
    }
    model, tokenizer = load_base_classifier(args.init)
    model.float()
    model.load_state_dict(avg)
    i, cfg = _best(args.dir)
    _, _, heldout = _data(args.corpora, tr.parse_mix({**DEFAULTS, **cfg}["mix"]), without_val=False)
    if args.smoke:
        heldout = heldout[::40]
    model.to(tr.pick_device(args.device))
    metrics = tr.evaluate(model, tokenizer, heldout)
    finals = [json.loads(p.read_text()) for p in sorted(args.dir.glob("final_*.json"))]
    grid = {p.stem: json.loads(p.read_text()) for p in sorted(args.dir.glob("grid_*.json"))}
    summary = {
        "chosen_grid_index": i,
        "chosen": {**DEFAULTS, **cfg},
        "grid": {
            k: {
                "config": v["config"],
                "val_macro_f1": v["val"]["macro_f1"],
                "heldout": {n: v["heldout"][n]["macro_f1"] for n in v["heldout"]},
                "stats": v["stats"],
            }
            for k, v in grid.items()
        },
        "finals": [
            {
                "seed": f["seed"],
                "stats": f["stats"],
                "heldout": {n: f["heldout"][n]["macro_f1"] for n in f["heldout"]},
            }
            for f in finals
        ],
        "final_run": {
            k: finals[0][k]
            for k in ("train_counts", "heldout_counts", "mixture_size_per_epoch", "class_weights")
        },
        "soup_heldout": metrics,
    }
    args.dir.joinpath("summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    torch.save(
        {k: v.half() if v.is_floating_point() else v for k, v in avg.items()},
        args.dir / "soup_fp16.pt",
    )
    _log(
        f"soup of {len(states)} seeds (grid {i}): held-out "
        + ", ".join(
            f"{n} {m['macro_f1']:.3f}" for n, m in metrics.items() if not n.startswith("perturb-")
        )
        + f"; seeds' scifact {[f['heldout']['scifact'] for f in summary['finals']]}"
    )


def cmd_package(args: argparse.Namespace) -> None:
    """Write a shipped-format model folder from a state file (`soup_fp16.pt`) and a summary."""
    import torch

    if args.out is None or args.state is None:
        raise SystemExit("package needs --state and --out")
    summary = json.loads((args.dir / "summary.json").read_text(encoding="utf-8"))
    state = torch.load(args.state, map_location="cpu")
    model, tokenizer = load_base_classifier(args.init)
    model.float()
    model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in state.items()})
    chosen = summary["chosen"]
    mix = tr.parse_mix(chosen["mix"])
    _, _, heldout = _data(args.corpora, mix, without_val=False)
    if args.smoke:
        heldout = heldout[::40]
    metrics = tr.evaluate(model, tokenizer, heldout)  # on this machine, as the users will run it
    f0 = summary["finals"][0]
    run = summary["final_run"]
    result: dict[str, Any] = {
        "heldout": metrics,
        "train_counts": run["train_counts"],
        "heldout_counts": run["heldout_counts"],
        "mixture": mix,
        "mixture_size_per_epoch": run["mixture_size_per_epoch"],
        "class_weights": run["class_weights"],
        "training": {
            "seed": ", ".join(str(f["seed"]) for f in summary["finals"]) + " (weights averaged)",
            "epochs_planned": chosen["epochs"],
            "steps": f0["stats"]["steps"],
            "steps_planned": f0["stats"]["steps_planned"],
            "schedule": "linear warm-up and decay over max(step/steps_planned, time/budget)",
            "pairs_seen": f0["stats"]["pairs_seen"],
            "batch_size": chosen["batch_size"],
            "lr": chosen["lr"],
            "max_length_train": chosen["max_length"],
            "max_length_inference": 256,
            "train_minutes": f0["stats"]["train_minutes"],
            "stopped_at_time_budget": f0["stats"]["stopped_at_time_budget"],
            "time_budget_minutes": args.minutes,
            "init_from": args.init.name,
            "freeze_embeddings": chosen["freeze"],
            "label_smoothing": chosen["label_smoothing"],
            "heldout_fraction": 0.2,
            "torch_threads": args.threads,
            "device": f0["stats"]["device"],
            "command": "python benchmarks/nli_sweep.py grid|final|soup|package (see its docstring)",
        },
        "sweep": summary,
    }
    from sciverify.entail.card import model_card

    save_checkpoint(
        model,
        tokenizer,
        args.out,
        extra_config={"sciverify_trained": True},
        extra_files={
            "metrics.json": json.dumps(result, indent=2) + "\n",
            "MODEL_CARD.md": model_card(result),
        },
    )
    _log(
        f"packaged {args.out}: held-out "
        + ", ".join(
            f"{n} {m['macro_f1']:.3f}" for n, m in metrics.items() if not n.startswith("perturb-")
        )
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phase", choices=["grid", "final", "soup", "package"])
    ap.add_argument("--dir", type=Path, required=True, help="folder for the phases' results")
    ap.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    ap.add_argument("--init", type=Path, default=REPO / "src" / "sciverify" / "entail" / "model")
    ap.add_argument("--worker", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--minutes", type=float, default=2.0, help="training time limit per run")
    ap.add_argument("--device", default="auto")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="model folder to write (package phase)")
    ap.add_argument("--state", type=Path, default=None, help="weights to package (soup_fp16.pt)")
    ap.add_argument(
        "--smoke", action="store_true", help="a tiny slice of the data: checks the plumbing"
    )
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    phases = {"grid": cmd_grid, "final": cmd_final, "soup": cmd_soup, "package": cmd_package}
    phases[args.phase](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
