"""The LLM backend against a small OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from sciverify.entail.backends import load_entailer
from sciverify.entail.decide import decide
from sciverify.entail.llm import LlmEntailer, parse_answer
from sciverify.records import Status

EVIDENCE = (
    "The 12-month brain tumor recurrence rate was 46.8% in the WBRT + SRS group and 76.4% "
    "for SRS alone group (P<.001)."
)
CLAIM = "WBRT plus SRS lowered the 12-month brain tumor recurrence rate."

# What the server answers, by the first path segment of the base URL.
ANSWERS = {
    "ok": json.dumps({"label": "entailment", "confidence": 0.9, "reason": "46.8% < 76.4%"}),
    "fenced": "```json\n"
    + json.dumps({"label": "contradiction", "confidence": 0.8, "reason": "opposite"})
    + "\n```",
    "bad_label": json.dumps({"label": "supports", "confidence": 0.9, "reason": "x"}),
    "bad_confidence": json.dumps({"label": "neutral", "confidence": 1.5, "reason": "x"}),
    "extra_key": json.dumps({"label": "neutral", "confidence": 0.5, "reason": "x", "why": "y"}),
    "prose": "The evidence supports the claim because the rate is lower.",
}


class _Handler(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        mode = self.path.strip("/").split("/")[0]
        _Handler.requests.append({"path": self.path, "body": body})
        if mode == "error500":
            self._send(500, b'{"error": "boom"}')
        elif mode == "slow":
            time.sleep(2.5)
            self._send(200, self._completion(ANSWERS["ok"]))
        elif mode == "not_chat":
            self._send(200, b'{"result": "entailment"}')
        else:
            self._send(200, self._completion(ANSWERS[mode]))

    def _completion(self, content: str) -> bytes:
        return json.dumps(
            {"choices": [{"message": {"role": "assistant", "content": content}}]}
        ).encode()

    def _send(self, code: int, payload: bytes) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (the timeout case)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _judge(base: str, mode: str, timeout: float = 1.0) -> tuple:
    entailer = LlmEntailer(f"{base}/{mode}/v1", "test-model", timeout=timeout)
    probs = entailer.predict([(EVIDENCE, CLAIM)])[0]
    decision = decide(CLAIM, [(EVIDENCE, probs, 0.9)])
    return probs, decision


def test_canned_answer_is_parsed_and_request_is_well_formed(server: str) -> None:
    _Handler.requests.clear()
    probs, decision = _judge(server, "ok")
    assert probs.error is None and probs.label == "entailment"
    assert probs.entailment == pytest.approx(0.9)
    assert probs.rationale == "46.8% < 76.4%"
    assert decision.status in (Status.supported, Status.partially_supported)
    sent = _Handler.requests[-1]
    assert sent["path"] == "/ok/v1/chat/completions"
    body = sent["body"]
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert EVIDENCE in body["messages"][-1]["content"] and CLAIM in body["messages"][-1]["content"]
    assert "ONLY" in body["messages"][0]["content"]


def test_fenced_json_is_accepted(server: str) -> None:
    probs, decision = _judge(server, "fenced")
    assert probs.error is None and probs.label == "contradiction"
    assert decision.status == Status.contradicted


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("bad_label", "unknown label"),
        ("bad_confidence", "outside [0, 1]"),
        ("extra_key", "exactly the keys"),
        ("prose", "did not answer JSON"),
        ("error500", "HTTP 500"),
        ("not_chat", "not a chat completion"),
    ],
)
def test_bad_answers_become_unverifiable_with_a_reason(server: str, mode: str, words: str) -> None:
    probs, decision = _judge(server, mode)
    assert probs.error and words in probs.error
    assert decision.status == Status.unverifiable
    assert words in decision.reason and decision.confidence == 0.0


def test_timeout_becomes_unverifiable(server: str) -> None:
    start = time.monotonic()
    probs, decision = _judge(server, "slow", timeout=1.0)
    assert time.monotonic() - start < 2.4  # the client gave up before the server answered
    assert probs.error and "timed out after 1 s" in probs.error
    assert decision.status == Status.unverifiable and "timed out" in decision.reason


def test_unreachable_endpoint_becomes_unverifiable() -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    probs = LlmEntailer(f"http://127.0.0.1:{port}/v1", "m", timeout=1.0).predict([("e", "c")])[0]
    assert probs.error and "unreachable" in probs.error


def test_load_entailer_builds_the_llm_backend(server: str) -> None:
    entailer = load_entailer(
        "llm", llm_url=f"{server}/ok/v1", llm_model="test-model", llm_timeout=1.0
    )
    assert isinstance(entailer, LlmEntailer) and entailer.name == "llm:test-model"
    assert entailer.predict([(EVIDENCE, CLAIM)])[0].label == "entailment"


def test_parse_answer_is_strict() -> None:
    assert parse_answer('{"label": "neutral", "confidence": 0.7, "reason": "r"}').neutral == 0.7
    assert parse_answer('{"label": "neutral", "confidence": true, "reason": "r"}').error
    assert parse_answer('["entailment"]').error
    assert parse_answer('{"label": "neutral", "confidence": 0.7}').error
    low = parse_answer('{"label": "contradiction", "confidence": 0.1, "reason": "r"}')
    assert low.error is None and low.label == "contradiction"  # the stated label still leads
