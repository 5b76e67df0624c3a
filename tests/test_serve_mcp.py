"""`sciverify serve --mcp`: a real MCP client session (stdio) against the server process."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

DRAFT = """# Thromboprophylaxis in trauma

Level one evidence currently supports the use of low molecular weight heparins for
thromboprophylaxis in trauma patients.

Failed filter retrieval rates in trauma patients were reported between 0% and 4%, with a
calculated rate of 12.8%.
"""


def _session(corpus: Path, calls: Any) -> Any:
    """Start `sciverify serve --mcp`, run `calls(session)` in a client session, return its value."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCIVERIFY_")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               SCIVERIFY_CONFIG_DIR=os.environ["SCIVERIFY_CONFIG_DIR"])
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "sciverify", "serve", "--mcp", "--corpus", str(corpus)],
        env=env, cwd=str(corpus.parent))

    async def main(errlog: Any) -> Any:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await calls(session)

    with open(os.devnull, "w") as errlog:
        return anyio.run(main, errlog)


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def test_mcp_session_lists_tools_verifies_and_survives_bad_calls(small_corpus: Path) -> None:
    async def calls(session: ClientSession) -> dict[str, Any]:
        out: dict[str, Any] = {}
        out["tools"] = {t.name: t for t in (await session.list_tools()).tools}
        out["verify"] = await session.call_tool("verify", {"text": DRAFT, "source": "dvt.md"})
        out["missing_arg"] = await session.call_tool("verify", {})
        out["wrong_type"] = await session.call_tool("search", {"query": "heparin", "k": "many"})
        out["bad_paper"] = await session.call_tool("show_paper", {"paper_id": "no-such-paper"})
        out["bad_year"] = await session.call_tool("search", {"query": "heparin", "year": "soon"})
        out["search"] = await session.call_tool("search", {"query": "bleeding risk heparin",
                                                           "k": 3})
        out["ask"] = await session.call_tool("ask", {"question": "What is the risk of bleeding "
                                                                 "with heparin in trauma?"})
        out["bad_ask"] = await session.call_tool("ask", {"question": "x", "k": 5})
        out["after"] = await session.list_tools()  # the server is still alive
        return out

    out = _session(small_corpus, calls)
    expected = {"search", "ask", "verify", "show_paper"}
    assert set(out["tools"]) == expected, out["tools"].keys()
    assert out["tools"]["verify"].input_schema["required"] == ["text"]

    verify = out["verify"]
    assert not verify.is_error, _text(verify)
    data = json.loads(_text(verify))
    assert data["draft"] == "dvt.md" and data["run_id"].startswith("verify-")
    paragraphs = {p["paragraph_id"]: p for p in data["paragraphs"]}
    assert len(paragraphs) == 2
    cards = [c for p in data["paragraphs"] for c in p["cards"]]
    assert cards and all({"status", "claim", "evidence", "suggested_action"} <= set(c)
                         for c in cards)
    changed = next(p for p in data["paragraphs"] if "12.8%" in p["text"])
    assert changed["risk"] == "red"
    assert any(c["status"] == "contradicted" and c["evidence"] for c in changed["cards"])
    assert any(e["page"] for c in cards for e in c["evidence"])

    answer = out["ask"]
    assert not answer.is_error, _text(answer)
    assert json.loads(_text(answer))["question"].startswith("What is the risk of bleeding")
    for name in ("missing_arg", "wrong_type", "bad_paper", "bad_year", "bad_ask"):
        assert out[name].is_error, (name, _text(out[name]))
    assert "no paper with id 'no-such-paper'" in _text(out["bad_paper"])
    assert "hint:" in _text(out["bad_paper"])
    assert "year 'soon'" in _text(out["bad_year"])

    hits = json.loads(_text(out["search"]))
    assert 1 <= len(hits) <= 3 and [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert "text" not in hits[0] and hits[0]["snippet"]
    assert {t.name for t in out["after"].tools} >= expected


def test_serve_without_protocol_is_a_usage_error() -> None:
    from typer.testing import CliRunner

    from sciverify.cli import app

    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2
    assert "serve --mcp" in result.stderr


@pytest.mark.parametrize("tool", ["search", "show_paper"])
def test_tool_json_equals_cli_json(small_corpus: Path, tool: str) -> None:
    from typer.testing import CliRunner

    import sciverify as sv
    from sciverify.cli import app
    from sciverify.serve import search_json, show_paper_json

    settings = sv.load_settings(corpus=small_corpus)
    with sv.open_store(small_corpus, read_only=True) as store:
        paper_id = store.scalar("SELECT min(paper_id) FROM works")
    if tool == "search":
        ours = search_json("heparin bleeding", settings=settings, k=4)
        args = ["search", "heparin bleeding", "-k", "4"]
    else:
        ours = show_paper_json(paper_id, settings=settings)
        args = ["show", paper_id]
    cli = CliRunner().invoke(app, [*args, "--corpus", str(small_corpus), "-f", "json"])
    assert cli.exit_code == 0, cli.stderr
    strip = (lambda rows: [{k: v for k, v in r.items() if k != "seconds"} for r in rows])
    assert strip(json.loads(ours)) == strip(json.loads(cli.stdout))
