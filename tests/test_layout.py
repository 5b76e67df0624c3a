"""Project layout rules from STYLE.md that a test can hold: import direction, lazy imports, docs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_stages_do_not_import_the_cli_stack() -> None:
    out = _python(
        "import sys, sciverify, sciverify.ingest, sciverify.chunk, sciverify.index,"
        " sciverify.search, sciverify.entail, sciverify.evaluate;"
        " print(sorted(m for m in ('typer', 'rich', 'sciverify.render', 'sciverify.cli')"
        " if m in sys.modules))"
    )
    assert out.strip() == "[]"


def test_base_modules_import_no_stage() -> None:
    """config, records, errors and store sit below every stage: none imports one at module level
    (a record's notebook display may call into the notebook module when it is shown)."""
    import ast

    base = {"config", "records", "errors", "store"}
    src = REPO / "src" / "sciverify"
    files = [f for name in base for f in ([src / f"{name}.py"] + sorted((src / name).glob("*.py")))
             if f.is_file()]
    assert len(files) >= 5
    bad = []
    for f in files:
        for node in ast.parse(f.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "sciverify" and len(parts) > 1 and parts[1] not in base:
                    bad.append(f"{f.relative_to(src)} imports {name}")
    assert bad == []


def test_help_starts_without_heavy_imports() -> None:
    out = _python(
        "import sys; from typer.testing import CliRunner; from sciverify.cli import app;"
        " r = CliRunner().invoke(app, ['--help']); assert r.exit_code == 0;"
        " print(sorted(m for m in ('torch', 'faiss', 'pymupdf', 'tantivy', 'sentence_transformers')"
        " if m in sys.modules))"
    )
    assert out.strip() == "[]"


def test_every_command_has_help_and_docs_are_fresh() -> None:
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_docs.py"), "--check"],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    text = (REPO / "docs" / "cli.md").read_text()
    for command in ("ingest", "papers", "show", "chunk", "index", "search", "eval retrieval",
                    "eval entail", "doctor", "db status", "db migrate", "config show"):
        assert f"## `sciverify {command}`" in text
