"""Shared fixtures. The real test material lives in ../shared/corpora (read-only)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _shared_corpora() -> Path:
    env = os.environ.get("SCIVERIFY_SHARED_CORPORA")
    return Path(env) if env else REPO.parent / "shared" / "corpora"


@pytest.fixture(scope="session")
def shared_corpora() -> Path:
    root = _shared_corpora()
    if not root.is_dir():
        pytest.skip(f"shared test corpora not found at {root} (set SCIVERIFY_SHARED_CORPORA)")
    return root


@pytest.fixture(autouse=True)
def _hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("SCIVERIFY_CONFIG_DIR", str(tmp_path / "_config"))
    for key in list(os.environ):
        if key.startswith("SCIVERIFY_") and key not in ("SCIVERIFY_SHARED_CORPORA", "SCIVERIFY_CONFIG_DIR"):
            monkeypatch.delenv(key, raising=False)


# The shortest sample paper (4 pages), ingested once per session: the notebook, MCP and
# calibrate tests share it (read-only use, or a copy per test that writes).
SMALL_CORPUS_PDFS = ("cer__test1_jtmo2010_dvt_prophylaxis.pdf",)


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import shutil

    from typer.testing import CliRunner

    from sciverify.cli import app

    pdfs = tmp_path_factory.mktemp("small_pdfs")
    for name in SMALL_CORPUS_PDFS:
        shutil.copy(REPO / "corpora" / "sample" / name, pdfs / name)
    folder = tmp_path_factory.mktemp("small_corpus") / "corpus"
    result = CliRunner().invoke(app, ["ingest", str(pdfs), "--corpus", str(folder), "-q",
                                      "-f", "json"])
    assert result.exit_code == 0, result.output
    return folder
