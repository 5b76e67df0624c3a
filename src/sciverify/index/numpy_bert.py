"""Query encoding for BERT sentence-transformers models in plain NumPy.

`search` encodes one short query at a time. Importing torch and sentence-transformers takes
seconds, longer than the whole search, and a one-query forward pass through torch costs more
in dispatch than in arithmetic. For the common model shape (a BERT encoder, mean pooling,
L2 normalisation: all-MiniLM-L6-v2, the default, and its relatives) this module runs the same
forward pass with NumPy on the model's own safetensors weights and `tokenizer.json`, giving
the same vectors as sentence-transformers to float32 rounding (tests/test_bm25_dense.py).
Any other model shape is refused by `load` (returns None) and the caller uses
sentence-transformers. Passages are always embedded by sentence-transformers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.float32]

_MODULES = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _erf(x: Array) -> Array:
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26); NumPy has no erf of its own."""
    import numpy as np

    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
                + t * (-1.453152027 + t * 1.061405429))))
    result: Array = (sign * (1.0 - poly * np.exp(-a * a))).astype(np.float32)
    return result


def _layer_norm(x: Array, weight: Array, bias: Array, eps: float) -> Array:
    import numpy as np

    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + eps) * weight + bias
    return out


@lru_cache(maxsize=1)
def _blas_controller() -> Any:
    """threadpoolctl's controller (it comes with sentence-transformers through scikit-learn), or
    None without it."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def _one_blas_thread() -> Any:
    """BLAS limited to one thread while a query is encoded.

    The matrices of one query are small; with OpenBLAS's threads on a busy machine (two cores
    shared with other work) one query took 1.3-1.8 s instead of 0.11-0.13 s. Without
    threadpoolctl nothing is limited.
    """
    import contextlib

    controller = _blas_controller()
    if controller is None:
        return contextlib.nullcontext()
    return controller.limit(limits=1, user_api="blas")


class NumpyBert:
    """A BERT + mean pooling + normalise sentence encoder. Build it with `load`."""

    def __init__(self, weights: dict[str, Array], config: dict[str, Any], tokenizer: Any,
                 max_length: int) -> None:
        self._w = weights
        self._heads = int(config["num_attention_heads"])
        self._layers = int(config["num_hidden_layers"])
        self._eps = float(config.get("layer_norm_eps", 1e-12))
        self._tokenizer = tokenizer
        self._max_length = max_length
        self.dim = int(config["hidden_size"])

    @classmethod
    def load(cls, folder: Path) -> NumpyBert | None:
        """The encoder for a sentence-transformers folder, or None when its shape is another."""
        modules = _read_json(folder / "modules.json")
        config = _read_json(folder / "config.json")
        pooling = _read_json(folder / "1_Pooling" / "config.json")
        st_config = _read_json(folder / "sentence_bert_config.json") or {}
        prompts = (_read_json(folder / "config_sentence_transformers.json") or {}).get("prompts")
        if (
            not isinstance(modules, list)
            or [m.get("type") for m in modules] != _MODULES
            or not isinstance(config, dict)
            or config.get("model_type") != "bert"
            or config.get("hidden_act") != "gelu"
            or config.get("position_embedding_type", "absolute") != "absolute"
            or not isinstance(pooling, dict)
            or not pooling.get("pooling_mode_mean_tokens")
            or any(pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens",
                                            "pooling_mode_mean_sqrt_len_tokens"))
            or st_config.get("do_lower_case")
            or any(prompts.values() if isinstance(prompts, dict) else ())
            or not (folder / "model.safetensors").is_file()
            or not (folder / "tokenizer.json").is_file()
        ):
            return None
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        raw = load_file(str(folder / "model.safetensors"))
        weights = {k.removeprefix("bert."): v for k, v in raw.items()}
        if "embeddings.word_embeddings.weight" not in weights:
            return None
        max_length = min(int(st_config.get("max_seq_length") or 512),
                         int(config.get("max_position_embeddings", 512)))
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.enable_truncation(max_length)
        tokenizer.no_padding()
        # Transposed once here, so each forward pass multiplies contiguous matrices.
        for key in [k for k, v in weights.items() if k.startswith("encoder.") and v.ndim == 2]:
            weights[key] = weights[key].T.copy()
        return cls(weights, config, tokenizer, max_length)

    def encode(self, texts: Sequence[str]) -> Array:
        """Normalised float32 embeddings, one row per text."""
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with _one_blas_thread():
            for i, encoding in enumerate(self._tokenizer.encode_batch(list(texts))):
                out[i] = self._forward(np.asarray(encoding.ids, dtype=np.int64),
                                       np.asarray(encoding.type_ids, dtype=np.int64))
        return out

    def _forward(self, ids: npt.NDArray[np.int64], types: npt.NDArray[np.int64]) -> Array:
        import numpy as np

        w = self._w
        n = len(ids)
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"],
                        self._eps)
        head = self.dim // self._heads
        scale = np.float32(1.0 / np.sqrt(head))
        for layer in range(self._layers):
            p = f"encoder.layer.{layer}."
            q = (x @ w[p + "attention.self.query.weight"] + w[p + "attention.self.query.bias"])
            k = (x @ w[p + "attention.self.key.weight"] + w[p + "attention.self.key.bias"])
            v = (x @ w[p + "attention.self.value.weight"] + w[p + "attention.self.value.bias"])
            q, k, v = (m.reshape(n, self._heads, head).transpose(1, 0, 2) for m in (q, k, v))
            scores = (q @ k.transpose(0, 2, 1)) * scale
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, self.dim)
            attn = context @ w[p + "attention.output.dense.weight"] + w[
                p + "attention.output.dense.bias"]
            x = _layer_norm(attn + x, w[p + "attention.output.LayerNorm.weight"],
                            w[p + "attention.output.LayerNorm.bias"], self._eps)
            hidden = x @ w[p + "intermediate.dense.weight"] + w[p + "intermediate.dense.bias"]
            hidden = 0.5 * hidden * (1.0 + _erf(hidden * np.float32(0.7071067811865476)))
            # float32 throughout; numpy's stubs widen `0.5 * hidden` to floating[Any].
            out = cast("Array", hidden @ w[p + "output.dense.weight"] + w[p + "output.dense.bias"])
            x = _layer_norm(out + x, w[p + "output.LayerNorm.weight"],
                            w[p + "output.LayerNorm.bias"], self._eps)
        pooled = x.mean(0)
        norm = float(np.linalg.norm(pooled))
        result: Array = (pooled / max(norm, 1e-12)).astype(np.float32)
        return result


__all__ = ["NumpyBert"]
