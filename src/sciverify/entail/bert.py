"""A lean BERT sequence-classification forward pass for the bundled NLI model.

Importing transformers' modelling code pulls in torch.distributed, dynamo and scipy and costs
about two seconds on a laptop core; the bundled model is a 6-layer BERT, whose forward pass is a
few dozen tensor operations. Reading the safetensors file and the Rust tokenizer directly keeps
a cold `load_entailer()` well under the five-second budget, and a test checks the numbers
against sentence-transformers' CrossEncoder on the same folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# What this forward pass implements; any other config is loaded through CrossEncoder instead.
_SUPPORTED = {
    "model_type": "bert",
    "hidden_act": "gelu",
    "position_embedding_type": "absolute",
}


def is_lean_compatible(config: dict[str, Any]) -> bool:
    """Whether the config describes a plain BERT classifier that `LeanBert` can run."""
    archs = config.get("architectures") or []
    if archs != ["BertForSequenceClassification"]:
        return False
    return all(config.get(key, value) == value for key, value in _SUPPORTED.items())


@dataclass
class LeanBert:
    """Weights, tokenizers and the shape facts needed to run the classifier."""

    weights: dict[str, Any]
    tokenizer: Any  # truncates only the second text, as in training
    fallback_tokenizer: Any  # longest-first, for the rare pair whose first text alone is too long
    layers: int
    heads: int
    eps: float
    device: str
    pad_id: int

    @classmethod
    def load(cls, folder: Path, *, max_length: int, device: str, truncate: str) -> LeanBert:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        raw = load_file(str(folder / "model.safetensors"))
        # Weights are stored fp16 to keep the package small; compute in fp32 for stable numbers.
        weights = {k: v.to(device=device, dtype=torch.float32) for k, v in raw.items()}
        tokenizers = []
        for strategy in (truncate, "longest_first"):
            tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
            tok.no_padding()  # the file may pin a fixed padding length; we pad per batch
            tok.enable_truncation(max_length, strategy=strategy)
            tokenizers.append(tok)
        return cls(
            weights=weights,
            tokenizer=tokenizers[0],
            fallback_tokenizer=tokenizers[1],
            layers=int(config["num_hidden_layers"]),
            heads=int(config["num_attention_heads"]),
            eps=float(config.get("layer_norm_eps", 1e-12)),
            device=device,
            pad_id=int(config.get("pad_token_id") or 0),
        )

    def encode(self, pairs: list[tuple[str, str]]) -> list[Any]:
        """Token encodings for (first, second) text pairs, unpadded."""
        try:
            return list(self.tokenizer.encode_batch(pairs))
        except Exception:  # noqa: BLE001 - the Rust tokenizer raises a bare Exception
            out = []
            for pair in pairs:
                try:
                    out.append(self.tokenizer.encode(*pair))
                except Exception:  # noqa: BLE001 - first text longer than max_length
                    out.append(self.fallback_tokenizer.encode(*pair))
            return out

    def logits(self, encodings: list[Any]) -> Any:
        """Classifier logits for one batch of encodings, shape (batch, labels), on the CPU."""
        import torch

        width = max(len(e.ids) for e in encodings)
        ids = torch.full((len(encodings), width), self.pad_id, dtype=torch.long)
        types = torch.zeros((len(encodings), width), dtype=torch.long)
        mask = torch.zeros((len(encodings), width), dtype=torch.bool)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n] = torch.tensor(enc.ids)
            types[row, :n] = torch.tensor(enc.type_ids)
            mask[row, :n] = True
        with torch.inference_mode():
            out = self._forward(ids.to(self.device), types.to(self.device), mask.to(self.device))
        return out.float().cpu()

    def _forward(self, ids: Any, types: Any, mask: Any) -> Any:
        import torch
        from torch.nn import functional as F

        w = self.weights
        batch, width = ids.shape
        positions = torch.arange(width, device=ids.device)
        x = (
            w["bert.embeddings.word_embeddings.weight"][ids]
            + w["bert.embeddings.position_embeddings.weight"][positions]
            + w["bert.embeddings.token_type_embeddings.weight"][types]
        )
        hidden = x.shape[-1]
        x = self._norm(x, "bert.embeddings.LayerNorm")
        head_dim = hidden // self.heads
        attend = mask[:, None, None, :]  # True where a key position is real text
        for i in range(self.layers):
            p = f"bert.encoder.layer.{i}."
            # Only the [CLS] position feeds the classifier, so the last layer computes its
            # query, residual and feed-forward for that one position (same numbers, ~1/6 less
            # work).
            last = i == self.layers - 1
            rows = 1 if last else width

            def split(name: str, src: Any, n: int, p: str = p) -> Any:
                y = F.linear(src, w[p + name + ".weight"], w[p + name + ".bias"])
                return y.view(batch, n, self.heads, head_dim).transpose(1, 2)

            q = split("attention.self.query", x[:, :rows], rows)
            k = split("attention.self.key", x, width)
            v = split("attention.self.value", x, width)
            a = F.scaled_dot_product_attention(q, k, v, attn_mask=attend)
            a = a.transpose(1, 2).reshape(batch, rows, hidden)
            a = F.linear(
                a, w[p + "attention.output.dense.weight"], w[p + "attention.output.dense.bias"]
            )
            x = self._norm(a + x[:, :rows], p + "attention.output.LayerNorm")
            h = F.gelu(
                F.linear(x, w[p + "intermediate.dense.weight"], w[p + "intermediate.dense.bias"])
            )
            h = F.linear(h, w[p + "output.dense.weight"], w[p + "output.dense.bias"])
            x = self._norm(h + x, p + "output.LayerNorm")
        pooled = torch.tanh(
            F.linear(x[:, 0], w["bert.pooler.dense.weight"], w["bert.pooler.dense.bias"])
        )
        return F.linear(pooled, w["classifier.weight"], w["classifier.bias"])

    def _norm(self, x: Any, prefix: str) -> Any:
        from torch.nn import functional as F

        return F.layer_norm(
            x,
            (x.shape[-1],),
            self.weights[prefix + ".weight"],
            self.weights[prefix + ".bias"],
            self.eps,
        )
