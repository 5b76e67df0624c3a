"""Entailment by a language model behind an OpenAI-compatible chat API.

The model is asked for one JSON object, `{"label", "confidence", "reason"}`, at temperature 0,
and the answer is parsed strictly. Anything else — an HTTP error, a timeout, prose, a wrong
label, a confidence outside [0, 1] — becomes an all-neutral `EntailProbs` whose `error` says
what went wrong; `decide()` reports such a pair as `unverifiable` with that reason. `predict`
never raises for a single bad answer, so one flaky request cannot stop a verify run.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from sciverify.records import EntailProbs, Label

SYSTEM_PROMPT = (
    "You judge whether a piece of scientific evidence supports a claim. Answer ONLY with one "
    'JSON object: {"label": "entailment|neutral|contradiction", "confidence": <number 0..1>, '
    '"reason": "<one sentence>"}. entailment: the evidence states the claim (numbers, entities, '
    "conditions and strength agree). contradiction: the evidence states the opposite or a "
    "different value. neutral: the evidence does not settle it. No text outside the JSON."
)

_KEYS = {"label", "confidence", "reason"}
_LABELS = {str(label) for label in Label}


def failed(reason: str) -> EntailProbs:
    """The result for a pair the backend could not judge."""
    return EntailProbs(entailment=0.0, neutral=1.0, contradiction=0.0, error=reason)


def parse_answer(content: str) -> EntailProbs:
    """Read the model's answer; a malformed one gives `failed(...)` naming the problem.

    One Markdown code fence around the object is tolerated (chat models add it unasked);
    nothing else is: extra keys, a label outside the three, a non-numeric or out-of-range
    confidence and a missing reason are all rejected.
    """
    text = strip_fence(content)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return failed(f"the language model did not answer JSON: {_clip(content)!r}")
    if not isinstance(data, dict):
        return failed(f"the language model answered {type(data).__name__}, not a JSON object")
    if set(data) != _KEYS:
        return failed(
            "the language model's JSON must have exactly the keys label, confidence, reason; "
            f"got {sorted(data)}"
        )
    label, confidence, reason = data["label"], data["confidence"], data["reason"]
    if not isinstance(label, str) or label.strip().lower() not in _LABELS:
        return failed(f"the language model gave an unknown label {label!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return failed(f"the language model gave a non-numeric confidence {confidence!r}")
    if not 0.0 <= float(confidence) <= 1.0:
        return failed(f"the language model gave a confidence outside [0, 1]: {confidence!r}")
    if not isinstance(reason, str):
        return failed("the language model's reason is not a string")
    return _probs(label.strip().lower(), float(confidence), reason.strip())


def _probs(label: str, confidence: float, reason: str) -> EntailProbs:
    # The stated label keeps at least a plurality, so `EntailProbs.label` reads it back; the
    # rest of the mass is shared by the other two labels.
    confidence = max(confidence, 0.34)
    rest = (1.0 - confidence) / 2.0
    values = {name: (confidence if name == label else rest) for name in _LABELS}
    return EntailProbs(
        entailment=values[Label.entailment],
        neutral=values[Label.neutral],
        contradiction=values[Label.contradiction],
        rationale=reason,
    )


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class LlmEntailer:
    """Asks an OpenAI-compatible endpoint, one request per pair."""

    def __init__(self, url: str, model: str, *, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout = timeout
        self.name = f"llm:{model}"

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32
    ) -> list[EntailProbs]:
        """One judgement per (evidence, claim) pair; `batch_size` is unused (one request each)."""
        return [self.judge(evidence, claim) for evidence, claim in pairs]

    def judge(self, evidence: str, claim: str) -> EntailProbs:
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"Evidence: {evidence}\n\nClaim: {claim}"},
        ]
        try:
            content = chat(self.url, self.model, messages, timeout=self.timeout)
        except LlmFailure as exc:
            return failed(str(exc))
        return parse_answer(content)


class LlmFailure(Exception):
    """The endpoint gave no usable chat completion; the message says why, naming the URL."""


def chat(url: str, model: str, messages: list[dict[str, str]], *, timeout: float) -> str:
    """The content of one chat completion at temperature 0 from an OpenAI-compatible endpoint.

    `url` is the full `.../chat/completions` address.

    Raises:
        LlmFailure: HTTP error, timeout, unreachable endpoint, or a reply that is not a chat
            completion.
    """
    body = {"model": model, "temperature": 0, "messages": messages}
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            payload = response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        raise LlmFailure(f"the language model endpoint answered HTTP {exc.code} ({url})") from exc
    except TimeoutError as exc:
        raise LlmFailure(f"the language model endpoint timed out after {timeout:g} s") from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            raise LlmFailure(
                f"the language model endpoint timed out after {timeout:g} s"
            ) from exc
        raise LlmFailure(
            f"the language model endpoint is unreachable: {exc.reason} ({url})"
        ) from exc
    except (OSError, http.client.HTTPException) as exc:
        raise LlmFailure(f"the language model request failed: {exc} ({url})") from exc
    content = _message_content(payload)
    if content is None:
        raise LlmFailure(f"the endpoint's reply is not a chat completion: {_clip(payload)!r}")
    return content


def strip_fence(content: str) -> str:
    """The text inside one Markdown code fence (```json ... ```), or the text itself."""
    text = content.strip()
    if text.startswith("```") and text.endswith("```") and len(text) >= 6:
        text = text[3:-3].strip()
        if text.lower().startswith("json"):
            text = text[4:].strip()
    return text


def _message_content(payload: str) -> str | None:
    try:
        data: Any = json.loads(payload)
        content = data["choices"][0]["message"]["content"]
    except (json.JSONDecodeError, KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None
