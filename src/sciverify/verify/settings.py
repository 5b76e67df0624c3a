"""The settings of `verify` as the stages read them: the block from the global settings, and
the layers a paragraph goes through. The block itself is defined in `sciverify.config.verify`.
"""

from __future__ import annotations

from typing import Any

from sciverify.config.verify import LAYERS, VerifySettings


def verify_settings(settings: Any) -> VerifySettings:
    """The verify block of `settings`, or the defaults when the global Settings has none."""
    block = getattr(settings, "verify", None)
    if isinstance(block, VerifySettings):
        return block
    if isinstance(block, dict):
        return VerifySettings.model_validate(block)
    return VerifySettings()


def with_overrides(cfg: VerifySettings, overrides: dict[str, Any]) -> VerifySettings:
    """`cfg` with fields replaced; a "thresholds.NAME" key replaces one decision threshold.

    Example:
        >>> with_overrides(VerifySettings(), {"thresholds.contradict_min": 0.6})
    """
    th = {k.split(".", 1)[1]: v for k, v in overrides.items() if k.startswith("thresholds.")}
    top = {k: v for k, v in overrides.items() if not k.startswith("thresholds.")}
    if th:
        top["thresholds"] = cfg.thresholds.model_copy(update=th)
    return cfg.model_copy(update=top)


def layers_for(
    cfg: VerifySettings, paragraph_type: str, *, reads_table: bool, cites: bool = False
) -> tuple[str, ...]:
    """The layers a paragraph goes through, in the fixed order fact, logic, consistency.

    `cites`: some claim of the paragraph cites a source (`cited_extra_layers`; only those
    claims go through a layer added that way, see `cited_only`).
    """
    chosen = set(cfg.routing.get(paragraph_type, ("fact", "logic")))
    if reads_table:
        chosen |= set(cfg.table_extra_layers.get(paragraph_type, ()))
    if cites:
        chosen |= set(cfg.cited_extra_layers.get(paragraph_type, ()))
    return tuple(layer for layer in LAYERS if layer in chosen)


def cited_only(cfg: VerifySettings, paragraph_type: str) -> bool:
    """The fact layer reaches this paragraph type only through its cited claims."""
    routed = cfg.routing.get(paragraph_type, ("fact", "logic"))
    return "fact" not in routed and "fact" in cfg.cited_extra_layers.get(paragraph_type, ())
