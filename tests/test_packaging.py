"""The wheel: what a user installs must carry the bundled NLI model and its card."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_carries_the_bundled_model(tmp_path: Path) -> None:
    # A copy of the sources, so the build leaves nothing in the working tree.
    src = tmp_path / "src"
    for rel in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / rel).exists():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_bytes((REPO / rel).read_bytes())
    for path in (REPO / "src").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            dst = src / path.relative_to(REPO)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(path.read_bytes())
    out = tmp_path / "dist"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", str(src)),
            *("--no-deps", "--no-build-isolation", "-q", "-w", str(out)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = out.glob("sciverify-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        sizes = {i.filename: i.file_size for i in zf.infolist()}
    model = "sciverify/entail/model/"
    names = ("model.safetensors", "config.json", "tokenizer.json", "MODEL_CARD.md", "metrics.json")
    for name in names:
        assert model + name in sizes, name
    weights = sizes[model + "model.safetensors"]
    assert 10_000_000 < weights <= 50 * 1024 * 1024  # fp16 MiniLM, within the 50 MB budget
    shipped = REPO / "src" / "sciverify" / "entail" / "model" / "model.safetensors"
    assert weights == shipped.stat().st_size
