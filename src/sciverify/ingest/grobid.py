"""GROBID backend: send a PDF to a GROBID server and map the TEI XML it returns to records
(the mapping is `sciverify.ingest.tei`)."""

from __future__ import annotations

import math
import time
from pathlib import Path

from sciverify.errors import EnvironmentProblem, ParseError
from sciverify.ingest.tei import (
    BACK_KINDS,
    FLOATS_HEADING,
    HEADING_KINDS,
    MAPPER_VERSION,
    heading_kind,
    tei_to_document,
)
from sciverify.records import ParsedDocument

GROBID_HINT = (
    "start GROBID with `docker run --rm -p 8070:8070 grobid/grobid:0.8.1` or pass --grobid-url URL"
)
# Elements GROBID should give coordinates for, so blocks get a page and a bounding box.
TEI_COORDINATES = ("p", "s", "head", "figure", "formula", "biblStruct")
_BUSY_RETRIES = 5
_BUSY_FIRST_WAIT_S = 0.5  # doubles on each retry: at most 0.5 + 1 + 2 + 4 + 8 s of waiting


def parse_with_grobid(
    path: Path, *, url: str, timeout: float = 120.0, consolidate: bool = False
) -> ParsedDocument:
    """Send one PDF to a running GROBID server and map the TEI it returns.

    Args:
        path: the PDF.
        url: the server, e.g. "http://localhost:8070".
        timeout: seconds to wait for GROBID to process the PDF.
        consolidate: let GROBID complete header and citations from external services (slow).

    Returns:
        A ParsedDocument with parser "grobid"; blocks carry page and bbox.

    Raises:
        EnvironmentProblem: the server cannot be reached, is not alive, or stays busy.
        ParseError: the file cannot be read, or GROBID fails on it (HTTP 500 and the like).
    """
    # The package's GrobidClient works on folders, logs to the console and retries a busy
    # server forever; its ApiClient is the plain request layer underneath, which we drive.
    import requests
    from grobid_client.client import ApiClient

    base = url.rstrip("/")
    try:
        pdf = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(
            f"cannot read file: {exc.strerror}", path=path, hint="check the path and permissions"
        ) from exc
    client = ApiClient(base_url=base + "/")
    wait_s = max(1, math.ceil(timeout))
    try:
        _, status = client.get(f"{base}/api/isalive", timeout=min(10, wait_s))
    except requests.RequestException as exc:
        why = "no answer in time" if isinstance(exc, requests.Timeout) else "connection failed"
        raise EnvironmentProblem(
            f"GROBID server at {base} cannot be reached ({why})", path=path, hint=GROBID_HINT
        ) from exc
    if status != 200:
        raise EnvironmentProblem(
            f"GROBID server at {base} is not alive (HTTP {status})", path=path, hint=GROBID_HINT
        )
    flag = "1" if consolidate else "0"
    form = {
        "teiCoordinates": list(TEI_COORDINATES),
        "consolidateHeader": flag,
        "consolidateCitations": flag,
        "includeRawCitations": "1",
    }
    for attempt in range(_BUSY_RETRIES + 1):
        try:
            response, status = client.post(
                f"{base}/api/processFulltextDocument",
                data=form,
                files={"input": (Path(path).name, pdf, "application/pdf")},
                timeout=wait_s,
            )
        except requests.Timeout as exc:
            raise ParseError(
                f"GROBID did not answer within {timeout:g} s",
                path=path,
                hint="raise the GROBID timeout or split the PDF",
            ) from exc
        except requests.RequestException as exc:
            raise EnvironmentProblem(
                f"lost the connection to GROBID at {base}", path=path, hint=GROBID_HINT
            ) from exc
        if status != 503:
            break
        if attempt < _BUSY_RETRIES:
            time.sleep(_BUSY_FIRST_WAIT_S * 2**attempt)
    else:
        raise EnvironmentProblem(
            f"GROBID at {base} stayed busy (HTTP 503) after {_BUSY_RETRIES} retries",
            path=path,
            hint="run fewer ingest jobs at once or give GROBID more workers, then retry",
        )
    if status == 200:
        return tei_to_document(response.content, source=str(path))
    detail = " ".join((response.text or "").split())[:200]
    reasons = {
        204: "GROBID extracted no content from the PDF",
        400: "GROBID rejected the request (HTTP 400)",
        500: "GROBID failed to process the PDF (HTTP 500)",
    }
    raise ParseError(
        reasons.get(status, f"GROBID answered HTTP {status}") + (f": {detail}" if detail else ""),
        path=path,
        hint="the PDF may be damaged, encrypted or scanned; try --parser pymupdf",
    )


__all__ = [
    "BACK_KINDS",
    "FLOATS_HEADING",
    "GROBID_HINT",
    "HEADING_KINDS",
    "MAPPER_VERSION",
    "TEI_COORDINATES",
    "heading_kind",
    "parse_with_grobid",
    "tei_to_document",
]
