"""Support for the report and feedback tests: a real headless Chromium driven over the DevTools
protocol, and a VerifyResult assembled by hand from the text of a real paper.

Chromium talks DevTools over a pipe (``--remote-debugging-pipe``: commands on fd 3, replies on
fd 4, each message NUL-terminated), so no websocket client and no network port are needed.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import hashlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Self

from sciverify.records import Card, EvidenceRef, ParagraphResult, VerifyResult

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
_BASH = shutil.which("bash") or "/bin/bash"
NO_CHROMIUM = "chromium is not installed (CI installs it: apt-get install -y chromium)"
_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-extensions", "--mute-audio", "--remote-debugging-pipe"]


def _high_fd(fd: int) -> int:
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class DevToolsError(RuntimeError):
    pass


class Chromium:
    """One headless Chromium with one page, driven by DevTools commands."""

    def __init__(self, profile: Path, *, width: int = 1280, height: int = 2000) -> None:
        assert CHROMIUM, NO_CHROMIUM
        # DevTools reads fd 3 and writes fd 4 of the browser. The pipe ends are lifted above
        # fd 9 and bash (dash takes one-digit fds only) moves them onto 3 and 4, so no ends
        # collide and no preexec_fn runs.
        cmd_r, self._cmd_w, self._out_r, out_w = (_high_fd(fd) for fd in (*os.pipe(), *os.pipe()))
        wire = f'exec "$0" "$@" 3<&{cmd_r} 4>&{out_w} {cmd_r}<&- {out_w}>&-'
        self.proc = subprocess.Popen(
            [_BASH, "-c", wire, CHROMIUM, *_FLAGS, f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(cmd_r, out_w))
        os.close(cmd_r)
        os.close(out_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None
        self.width, self.height = width, height

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.command("Browser.close", timeout=10)
        except (DevToolsError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._cmd_w)
        os.close(self._out_r)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError("timed out waiting for Chromium")
            ready, _, _ = select.select([self._out_r], [], [], left)
            if ready:
                data = os.read(self._out_r, 1 << 20)
                if not data:
                    raise DevToolsError(f"Chromium exited (code {self.proc.poll()})")
                self._buffer += data
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def command(self, method: str, params: dict[str, Any] | None = None, *,
                page: bool = False, timeout: float = 60) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        os.write(self._cmd_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def open(self, url: str, *, timeout: float = 60) -> None:
        """Open `url` in a new page and wait until its scripts have run (readyState complete)."""
        target = self.command("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.command("Target.attachToTarget",
                                    {"targetId": target, "flatten": True})["sessionId"]
        self.command("Page.enable", page=True)
        self.command("Runtime.enable", page=True)
        self.command("Log.enable", page=True)
        self.command("Emulation.setDeviceMetricsOverride",
                     {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                      "mobile": False}, page=True)
        self.command("Page.navigate", {"url": url}, page=True)
        deadline = time.monotonic() + timeout
        while self.evaluate("document.readyState") != "complete" or self.evaluate(
                "location.href") != url:
            if time.monotonic() > deadline:
                raise DevToolsError(f"{url} did not finish loading")
            time.sleep(0.1)

    def evaluate(self, expression: str) -> Any:
        reply = self.command("Runtime.evaluate", {"expression": expression,
                                                  "returnByValue": True, "awaitPromise": True},
                             page=True)
        if "exceptionDetails" in reply:
            raise DevToolsError(f"{expression!r} threw: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def allow_downloads(self, folder: Path) -> None:
        self.command("Browser.setDownloadBehavior",
                     {"behavior": "allow", "downloadPath": str(folder), "eventsEnabled": True})

    def screenshot(self, path: Path) -> bytes:
        png = base64.b64decode(self.command("Page.captureScreenshot", {"format": "png"},
                                            page=True)["data"])
        path.write_bytes(png)
        return png

    def console_errors(self) -> list[dict[str, Any]]:
        """Exceptions and CSP violations the page reported so far."""
        def is_error(event: dict[str, Any]) -> bool:
            method, params = event.get("method"), event.get("params", {})
            return (method == "Runtime.exceptionThrown"
                    or (method == "Log.entryAdded" and params["entry"]["level"] == "error")
                    or (method == "Runtime.consoleAPICalled" and params.get("type") == "error"))

        return [e for e in self.events if is_error(e)]


def wait_for_file(path: Path, timeout: float = 30) -> Path:
    deadline = time.monotonic() + timeout
    while not path.is_file() or path.stat().st_size == 0:
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} did not appear")
        time.sleep(0.1)
    return path


# -- a VerifyResult from a real paper -----------------------------------------------------------


_PROSE = {"abstract", "introduction", "methods", "results", "discussion", "conclusion"}


@functools.lru_cache(maxsize=4)
def paper_sentences(pdf: Path) -> tuple[tuple[str, str, int, str], ...]:
    """(section kind, section heading, page, sentence) for each sentence of the paper's prose."""
    from sciverify.chunk import split_sentences
    from sciverify.ingest.pymupdf import parse_pdf

    out = []
    for section in parse_pdf(pdf).sections:
        if section.kind not in _PROSE:
            continue
        for block in section.blocks:
            if block.kind != "text" or block.page is None:
                continue
            for start, end in split_sentences(block.text):
                sentence = block.text[start:end].strip()
                if len(sentence.split()) >= 8 and sentence[0].isupper():
                    out.append((str(section.kind), section.heading, block.page, sentence))
    return tuple(out)


def _first(sentences: tuple[tuple[str, str, int, str], ...], kinds: tuple[str, ...],
           fallback: int) -> tuple[str, int, str]:
    for kind, heading, page, sentence in sentences:
        if kind in kinds:
            return heading, page, sentence
    _, heading, page, sentence = sentences[fallback]
    return heading, page, sentence


def build_result(pdf: Path, *, run_id: str | None = "run-0001") -> VerifyResult:
    """A three-paragraph draft made of the paper's own sentences (one altered), and the cards a
    verifier would give it: supported (blue, from the abstract), contradicted (red, a results
    sentence turned into its negation), unverifiable (yellow, from the discussion).
    """
    sentences = paper_sentences(pdf)
    assert len(sentences) >= 6, f"{pdf.name}: too little text to build a draft"
    s1, p1, t1 = _first(sentences, ("abstract", "introduction"), 0)
    s2, p2, t2 = _first(sentences, ("results",), len(sentences) // 2)
    s3, _, t3 = _first(sentences, ("discussion", "conclusion"), -1)
    lowered = t2[0].lower() + t2[1:] if t2[1:2].islower() else t2
    altered = t2.replace(" not ", " ") if " not " in t2 else "It is not true that " + lowered
    paper_id = pdf.stem.lower()
    source = str(pdf.resolve())
    texts = [t1, altered, t3]
    draft = "\n\n".join(texts)
    spans, pos = [], 0
    for text in texts:
        spans.append((pos, pos + len(text)))
        pos += len(text) + 2

    def ev(section: str, page: int, snippet: str, match: str, score: float) -> EvidenceRef:
        return EvidenceRef(paper_id=paper_id, chunk_id=f"{paper_id}:{section.lower()}:1",
                           source=source, page=page, snippet=snippet, match_type=match,
                           score=score, title=pdf.stem)

    supported = Card(paragraph_id="p_001", layer="fact", status="supported", confidence=0.93,
                     claim=t1, keyword=" ".join(t1.split()[:3]),
                     evidence=(ev(s1, p1, t1, "entail", 0.95),),
                     suggested_action="No action needed.", claim_id="p_001.c1")
    contradicted = Card(paragraph_id="p_002", layer="fact", status="contradicted",
                        confidence=0.88, claim=altered, keyword=" ".join(altered.split()[:3]),
                        evidence=(ev(s2, p2, t2, "contradict", 0.9),),
                        suggested_action="The source states the opposite; check the wording.",
                        finding="negation", claim_id="p_002.c1")
    unverifiable = Card(paragraph_id="p_003", layer="fact", status="unverifiable",
                        confidence=0.4, claim=t3, keyword=" ".join(t3.split()[:3]),
                        suggested_action="Cite a source for this statement.",
                        claim_id="p_003.c1")
    paragraphs = (
        ParagraphResult("p_001", s1, "background", "blue", 0.1, spans[0], texts[0],
                        (supported,), ("fact", "logic"), 1, 0),
        ParagraphResult("p_002", s2, "result", "red", 0.92, spans[1], texts[1],
                        (contradicted,), ("fact", "logic"), 1, 0),
        ParagraphResult("p_003", s3, "result", "yellow", 0.55, spans[2], texts[2],
                        (unverifiable,), ("fact", "logic"), 1, 0),
    )
    return VerifyResult(draft="draft.md", draft_sha256=hashlib.sha256(draft.encode()).hexdigest(),
                        paragraphs=paragraphs, summary={"paragraphs": 3, "claims": 3},
                        run_id=run_id)


def export_decisions(html_file: Path, profile: Path, clicks: list[tuple[str, str, str]],
                     downloads: Path) -> tuple[dict[str, Any], Path]:
    """Open a report, click (paragraph_id, decision, note) buttons, press Download; return the
    page's export text (parsed) and the downloaded decisions.json."""
    downloads.mkdir(parents=True, exist_ok=True)
    with Chromium(profile) as browser:
        browser.allow_downloads(downloads)
        browser.open(html_file.as_uri())
        for paragraph_id, decision, note in clicks:
            cell = f'document.querySelector(\'section.para[data-paragraph-id="{paragraph_id}"]\')'
            browser.evaluate(f"{cell}.querySelector('textarea.note').value = {json.dumps(note)}")
            browser.evaluate(f"{cell}.querySelector('button[data-decision={decision}]').click()")
        shown = json.loads(browser.evaluate("document.getElementById('decisions-export').value"))
        browser.evaluate("document.getElementById('download').click()")
        return shown, wait_for_file(downloads / "decisions.json")
