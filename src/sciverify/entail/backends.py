"""Entailment backends: the bundled NLI model, any sentence-transformers NLI CrossEncoder, an LLM.

Every backend takes (evidence, claim) pairs, i.e. (premise, hypothesis), and returns one
`EntailProbs` per pair in input order. A backend that cannot judge a pair (only the LLM one can
fail per pair) returns all-neutral probabilities with `EntailProbs.error` set; `decide()` turns
those into `unverifiable` with that reason, so a flaky endpoint never stops a verify run.
"""

from __future__ import annotations

import functools
import json
import logging
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from sciverify.errors import EnvironmentProblem, UsageError
from sciverify.records import EntailProbs, Label

log = logging.getLogger(__name__)

HYPOTHESIS_FIRST = "hypothesis_first"

# Label names seen in NLI model configs, mapped to ours. Two-label RTE-style models say
# "not_entailment", which can only mean "not entailed": we read it as neutral.
_LABEL_ALIASES = {
    "entailment": Label.entailment,
    "entails": Label.entailment,
    "entail": Label.entailment,
    "entailed": Label.entailment,
    "neutral": Label.neutral,
    "not_entailment": Label.neutral,
    "contradiction": Label.contradiction,
    "contradicts": Label.contradiction,
    "contradict": Label.contradiction,
}


@runtime_checkable
class Entailer(Protocol):
    """Judges whether each evidence text entails, contradicts or is neutral to a claim."""

    name: str

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32
    ) -> list[EntailProbs]:
        """One result per (evidence, claim) pair, in input order."""
        ...


def label_order(id2label: dict[Any, str], *, model: str) -> list[str]:
    """Our label name for each output index of a model, from its `config.id2label`.

    Raises:
        EnvironmentProblem: when a label name is not an NLI label, or entailment is missing.
    """
    names: list[str] = []
    for index in sorted(id2label, key=int):
        raw = str(id2label[index])
        key = raw.strip().lower().replace("-", "_").replace(" ", "_")
        if key not in _LABEL_ALIASES:
            raise EnvironmentProblem(
                f"model {model} has output label {raw!r}, which is not an NLI label",
                hint="use an NLI model whose config.id2label names entailment, neutral and "
                "contradiction",
            )
        names.append(str(_LABEL_ALIASES[key]))
    if str(Label.entailment) not in names:
        raise EnvironmentProblem(
            f"model {model} has no entailment output (labels: {list(id2label.values())})",
            hint="use a 3-label NLI model (entailment / neutral / contradiction)",
        )
    return names


def probs_from_logits(row: Sequence[float], labels: list[str]) -> EntailProbs:
    """Softmax one row of logits and place each probability under our label name."""
    top = max(row)
    exps = [math.exp(v - top) for v in row]
    total = sum(exps)
    by_label: dict[str, float] = {str(name): 0.0 for name in Label}
    for name, value in zip(labels, exps, strict=True):
        by_label[name] += value / total
    return EntailProbs(
        entailment=by_label[Label.entailment],
        neutral=by_label[Label.neutral],
        contradiction=by_label[Label.contradiction],
    )


def pick_device(device: str | None) -> str:
    if device:
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def bundled_model_path() -> Path:
    """The NLI model folder shipped inside the package."""
    return Path(str(resources.files("sciverify.entail") / "model"))


class BundledEntailer:
    """The package's own NLI model, run by a lean BERT forward pass (see `bert.py`)."""

    def __init__(self, folder: Path, *, device: str | None, max_length: int) -> None:
        from sciverify.entail.bert import LeanBert

        config = _read_config(folder)
        self.name = "bundled"
        self.labels = label_order(config["id2label"], model=str(folder))
        self.hypothesis_first = config.get("sciverify_input_order") == HYPOTHESIS_FIRST
        # Truncation only ever shortens the evidence, never the claim.
        truncate = "only_second" if self.hypothesis_first else "only_first"
        self._model = LeanBert.load(
            folder, max_length=max_length, device=pick_device(device), truncate=truncate
        )

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32
    ) -> list[EntailProbs]:
        if not pairs:
            return []
        ordered = [(c, e) if self.hypothesis_first else (e, c) for e, c in pairs]
        encodings = self._model.encode(ordered)
        # Batches of similar length waste little work on padding.
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out: list[EntailProbs | None] = [None] * len(pairs)
        for start in range(0, len(order), max(1, batch_size)):
            idx = order[start : start + max(1, batch_size)]
            logits = self._model.logits([encodings[i] for i in idx]).tolist()
            for i, row in zip(idx, logits, strict=True):
                out[i] = probs_from_logits(row, self.labels)
        return [p for p in out if p is not None]


class CrossEncoderEntailer:
    """Any sentence-transformers NLI CrossEncoder, by hub name (already cached) or local path."""

    def __init__(self, model: str, *, device: str | None, max_length: int) -> None:
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise EnvironmentProblem(
                "sentence-transformers is not installed", hint="pip install sentence-transformers"
            ) from exc
        local = Path(model).expanduser()
        source = str(local) if local.exists() else model
        try:
            self._ce = CrossEncoder(
                source,
                device=pick_device(device),
                max_length=max_length,
                local_files_only=True,
            )
        except (OSError, ValueError) as exc:
            raise EnvironmentProblem(
                f"NLI cross-encoder {model!r} is not available offline: {exc}",
                hint=f"download it once with network access (e.g. `hf download {model}`) or "
                "pass a local folder: --backend cross-encoder:PATH",
            ) from exc
        config = self._ce.config
        self.name = f"cross-encoder:{model}"
        self.labels = label_order(dict(config.id2label), model=model)
        self.hypothesis_first = getattr(config, "sciverify_input_order", None) == HYPOTHESIS_FIRST

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32
    ) -> list[EntailProbs]:
        if not pairs:
            return []
        ordered = [[c, e] if self.hypothesis_first else [e, c] for e, c in pairs]
        logits = self._ce.predict(
            ordered, batch_size=batch_size, show_progress_bar=False, convert_to_numpy=True
        )
        return [probs_from_logits([float(v) for v in row], self.labels) for row in logits]


def _read_config(folder: Path) -> dict[str, Any]:
    path = folder / "config.json"
    if not path.is_file() or not (folder / "model.safetensors").is_file():
        raise EnvironmentProblem(
            "the bundled NLI model is missing",
            path=folder,
            hint="reinstall sciverify (`pip install --force-reinstall sciverify`), or choose "
            "another backend: --backend cross-encoder:NAME_OR_PATH or --backend llm",
        )
    config: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return config


def load_entailer(
    spec: str = "bundled",
    *,
    device: str | None = None,
    max_length: int = 256,
    llm_url: str | None = None,
    llm_model: str | None = None,
    llm_timeout: float = 30.0,
) -> Entailer:
    """The entailment backend named by `spec`, loaded once per process.

    Args:
        spec: `bundled` (the package's model), `cross-encoder:NAME_OR_PATH` or `llm`.
        device: torch device; default the GPU when torch sees one, else the CPU.
        max_length: tokens per (claim, evidence) pair; the evidence is truncated, not the claim.
        llm_url: base URL of an OpenAI-compatible API (`{url}/chat/completions`), for `llm`.
        llm_model: model name sent to that API, for `llm`.
        llm_timeout: seconds per request, for `llm`.

    Raises:
        UsageError: an unknown spec, or `llm` without a URL or model.
        EnvironmentProblem: the model cannot be loaded offline.

    Example:
        >>> load_entailer().predict([("Mice given X lived longer.", "X extends lifespan in mice.")])
    """
    return _load(spec, device, max_length, llm_url, llm_model, llm_timeout)


@functools.lru_cache(maxsize=8)
def _load(
    spec: str,
    device: str | None,
    max_length: int,
    llm_url: str | None,
    llm_model: str | None,
    llm_timeout: float,
) -> Entailer:
    kind, _, arg = spec.partition(":")
    if kind == "bundled" and not arg:
        folder = bundled_model_path()
        config = _read_config(folder)
        from sciverify.entail.bert import is_lean_compatible

        if is_lean_compatible(config):
            return BundledEntailer(folder, device=device, max_length=max_length)
        log.info("bundled model is not a plain BERT classifier; loading it with CrossEncoder")
        return CrossEncoderEntailer(str(folder), device=device, max_length=max_length)
    if kind == "cross-encoder" and arg:
        return CrossEncoderEntailer(arg, device=device, max_length=max_length)
    if kind == "llm" and not arg:
        if not llm_url or not llm_model:
            raise UsageError(
                "the llm entailment backend needs an endpoint URL and a model name",
                hint="pass --llm URL --model NAME (an OpenAI-compatible API)",
            )
        from sciverify.entail.llm import LlmEntailer

        return LlmEntailer(llm_url, llm_model, timeout=llm_timeout)
    raise UsageError(
        f"unknown entailment backend {spec!r}",
        hint="use one of: bundled, cross-encoder:NAME_OR_PATH, llm",
    )
