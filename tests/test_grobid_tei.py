"""GROBID backend: the TEI mapping over every real TEI file we have, and the HTTP client against
a GROBID stand-in on 127.0.0.1 that answers with real TEI.

Expected counts come from XPath over the same files (lxml), not from the mapping code.
"""

from __future__ import annotations

import difflib
import email.message
import email.parser
import email.policy
import importlib.util
import json
import os
import re
import shutil
import socket
import threading
import unicodedata
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

import pytest
from lxml import etree

from sciverify.errors import EnvironmentProblem, ExitCode, ParseError
from sciverify.ingest.grobid import (
    BACK_KINDS,
    FLOATS_HEADING,
    GROBID_HINT,
    TEI_COORDINATES,
    heading_kind,
    parse_with_grobid,
    tei_to_document,
)
from sciverify.records import BlockKind, ParsedDocument, SectionKind

NS = {"t": "http://www.tei-c.org/ns/1.0"}


def _corpora_root() -> Path:
    # Only to list file names at collection time; the shared_corpora fixture decides skipping.
    env = os.environ.get("SCIVERIFY_SHARED_CORPORA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "corpora"


def _shared_files() -> list[str]:
    root = _corpora_root()
    names: list[str] = []
    if (root / "grobid_tei").is_dir():
        names += sorted(
            p.relative_to(root).as_posix() for p in (root / "grobid_tei").rglob("*") if p.is_file()
        )
    if (root / "pdfs_truth").is_dir():
        names += sorted(
            p.relative_to(root).as_posix() for p in (root / "pdfs_truth").glob("*tei.xml")
        )
    return names or ["grobid_tei/(absent)"]


SHARED_FILES = _shared_files()
TEI_FILES = [n for n in SHARED_FILES if n.endswith(".xml")] or ["grobid_tei/(absent).xml"]


def _file(shared_corpora: Path, name: str) -> Path:
    path = shared_corpora / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the shared corpora")
    return path


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _xtext(el: Any) -> str:
    return _norm("".join(el.itertext()))


def _map(path: Path) -> ParsedDocument:
    return tei_to_document(path.read_bytes(), source=str(path))


# -- every file --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHARED_FILES)
def test_every_shared_file_maps_or_is_refused_clearly(shared_corpora: Path, name: str) -> None:
    path = _file(shared_corpora, name)
    if path.suffix != ".xml":  # the client's JSON / Markdown renderings are not TEI
        with pytest.raises(ParseError) as err:
            _map(path)
        assert "not well-formed TEI XML" in err.value.message
        assert str(path) in str(err.value) and err.value.hint
        return
    doc = _map(path)
    root = etree.parse(str(path)).getroot()
    versions = root.xpath("//t:teiHeader//t:application/@version", namespaces=NS)
    assert doc.parser == "grobid"
    assert doc.parser_version == f"{_norm(versions[0]) if versions else 'unknown'} sciverify-tei/1"


@pytest.mark.parametrize("name", TEI_FILES)
def test_title_abstract_and_references_match_xpath(shared_corpora: Path, name: str) -> None:
    path = _file(shared_corpora, name)
    doc, root = _map(path), etree.parse(str(path)).getroot()
    titles = [
        _xtext(t)
        for t in root.xpath(
            "//t:teiHeader/t:fileDesc/t:titleStmt/t:title[@type='main']"
            " | //t:teiHeader/t:fileDesc/t:titleStmt/t:title"
            " | //t:teiHeader/t:fileDesc/t:sourceDesc/t:biblStruct/t:analytic/t:title",
            namespaces=NS,
        )
    ]
    main = root.xpath("//t:titleStmt/t:title[@type='main']", namespaces=NS)
    expected = (_xtext(main[0]) if main else "") or next((t for t in titles if t), "")
    assert doc.title == (expected or None)

    paras = [_xtext(p) for p in root.xpath("//t:profileDesc/t:abstract//t:p", namespaces=NS)]
    paras = [p for p in paras if p]
    got = (doc.abstract or "").split("\n\n") if doc.abstract else []
    assert len(got) == len(paras)
    assert all(g.endswith(p) for g, p in zip(got, paras, strict=True))  # structured: "Head: ..."

    bibls = root.xpath("//t:text//t:listBibl/t:biblStruct", namespaces=NS)
    assert len(doc.references) == len([b for b in bibls if _xtext(b)])
    assert all(r.raw for r in doc.references)


def _content(div: Any) -> bool:
    """Whether a div holds any text outside its head and its sub-divs (foot notes aside)."""
    for child in div:
        name = etree.QName(child).localname if isinstance(child.tag, str) else ""
        is_text = name in ("p", "formula", "list", "figure", "table")
        is_text = is_text or (name == "note" and child.get("place") != "foot")
        if is_text and any(ch.isalnum() for ch in _xtext(child)):
            return True
    return False


def _expected_heads(divs: list[Any], default: str) -> list[str]:
    """A div's head starts a section; headless text before the first head gets one too."""
    out: list[str] = []
    for div in divs:
        head = div.find("t:head", NS)
        if head is not None and _xtext(head):
            out.append(_xtext(head))
        elif not out and _content(div):
            out.append(default)
    return out


@pytest.mark.parametrize("name", TEI_FILES)
def test_sections_and_blocks_match_xpath(shared_corpora: Path, name: str) -> None:
    path = _file(shared_corpora, name)
    doc, root = _map(path), etree.parse(str(path)).getroot()
    expected = ["Abstract"] if doc.abstract else []
    expected += _expected_heads(root.xpath("//t:text/t:body//t:div", namespaces=NS), "")
    for back in root.xpath("//t:text/t:back/t:div", namespaces=NS):
        if back.get("type") in BACK_KINDS:
            default = BACK_KINDS[back.get("type")][1]
            expected += _expected_heads(back.xpath(".//t:div", namespaces=NS), default)
    headings = [s.heading for s in doc.sections if s.heading != FLOATS_HEADING]
    assert headings == expected

    # Every body paragraph is in some block; formulas, figures and tables are one block each.
    blocks = [b for s in doc.sections for b in s.blocks]
    texts = {b.text for b in blocks}
    for para in root.xpath("//t:text/t:body//t:div/t:p", namespaces=NS):
        if any(ch.isalnum() for ch in _xtext(para)):
            assert _xtext(para) in texts
    scope = "//t:text/t:body" + "".join(
        f" | //t:text/t:back/t:div[@type='{t}']" for t in BACK_KINDS
    )
    formulas = root.xpath(f"({scope})//t:formula", namespaces=NS)
    figures = root.xpath(f"({scope})//t:figure[not(@type='table')]", namespaces=NS)
    tables = root.xpath(f"({scope})//t:figure[@type='table']", namespaces=NS)

    def has_text(el: Any, paths: str) -> bool:
        return any(_xtext(x) for x in el.xpath(paths, namespaces=NS))

    kinds = [b.kind for b in blocks]
    assert kinds.count(BlockKind.equation) == len(
        [f for f in formulas if any(ch.isalnum() for ch in _xtext(f))]
    )
    assert kinds.count(BlockKind.caption) == len(
        [f for f in figures if has_text(f, "t:head | t:figDesc")]
    )
    assert kinds.count(BlockKind.table) == len(
        [t for t in tables if has_text(t, "t:head | t:figDesc | .//t:cell | t:note")]
    )
    for block in blocks:
        assert block.text.strip()
        if block.page is not None:
            assert 1 <= block.page <= doc.page_count
        if block.bbox is not None:
            x0, y0, x1, y1 = block.bbox
            assert x0 <= x1 and y0 <= y1
        if block.kind in (BlockKind.caption, BlockKind.table) and block.ref:
            assert re.fullmatch(r"(Figure|Table) \S{1,8}", block.ref)


# -- hand-checked facts --------------------------------------------------------------------------


def _tei(shared_corpora: Path, name: str) -> ParsedDocument:
    return _map(_file(shared_corpora, f"grobid_tei/{name}"))


def test_header_only_output(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "grobid__sample1.tei.header.xml")
    assert doc.title == "A Virtual Machine Introspection Based Architecture for Intrusion Detection"
    assert doc.authors == ("Tal Garfinkel", "Mendel Rosenblum")
    assert doc.abstract and doc.abstract.startswith("Today's architectures for intrusion detection")
    assert [s.kind for s in doc.sections] == [SectionKind.abstract]
    assert doc.references == ()
    assert doc.parser_version == "0.4.1 sciverify-tei/1"
    assert "GROBID found no body text (header-only or empty output)" in doc.warnings


def test_citation_list_has_references_only(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "miku__citation_list_example.tei.xml")
    assert doc.title is None and doc.sections == () and len(doc.references) == 13
    first = doc.references[0]
    assert first.title == "E-commerce: the challenge for UK SMEs in the twenty-first century"
    assert first.authors == ("M Quayle",) and first.year == 2002
    assert first.venue == "International Journal of Operations and Production Management"
    # No raw string in this TEI: a readable one is written from the fields.
    assert first.raw.startswith("M Quayle (2002). E-commerce: the challenge for UK SMEs")
    assert "22(10):1148-1161" in first.raw
    assert doc.references[1].authors == ("A K Agarwal", "A P Singh", "R K Maurya")


def test_withdrawn_notice_with_empty_body(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "gcp2__article_withdrawn.grobid.tei.xml")
    assert doc.title is None and doc.abstract is None
    assert doc.sections == () and doc.references == () and doc.authors == ()
    assert doc.parser_version == "0.8.2 sciverify-tei/1"


def test_publisher_article_metadata_and_structure(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "gcp2__ijms-24-05988.grobid.tei.xml")
    assert doc.doi == "10.3390/ijms24065988" and doc.year == 2023
    assert doc.venue == "International Journal of Molecular Sciences"
    assert doc.authors[0] == "Caroline Lo Presti" and len(doc.authors) == 7
    assert len(doc.references) == 31
    by_heading = {s.heading: s for s in doc.sections}
    methods = by_heading["Materials and Methods"]
    assert (methods.kind, methods.level) == (SectionKind.methods, 1)
    culture = by_heading["Cell Culture and Conditions"]  # n="4.1", no kind word: its parent's
    assert (culture.kind, culture.level) == (SectionKind.methods, 2)
    assert by_heading["Quantification and Characterization of Total Fatty Acids"].level == 3
    assert by_heading["Funding"].kind == SectionKind.acknowledgements


def test_numbered_headings_arxiv_id_and_appendix(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "sz__paper29.tei.xml")
    assert doc.arxiv_id == "2603.05829v1"  # GROBID wrote "arXiv:2603.05829v1[cs.LG]"
    by_heading = {s.heading: s for s in doc.sections}
    assert by_heading["EXPERIMENTAL SETUP"].kind == SectionKind.methods
    assert by_heading["TASK STRUCTURE DETERMINES THE EFFECTIVENESS OF TEST-TIME UPDATES"].level == 2
    assert by_heading["CONCLUSION"].kind == SectionKind.conclusion
    appendix = by_heading["A.3 DYNAMIC ICL SELECTION STRATEGIES"]
    assert appendix.kind == SectionKind.appendix
    assert by_heading["Grouping constraint:"].kind == SectionKind.appendix  # its subsection


def test_raw_reference_notes_and_old_grobid(shared_corpora: Path) -> None:
    path = _file(shared_corpora, "grobid_tei/miku__example.tei.xml")
    doc = _map(path)
    root = etree.parse(str(path)).getroot()
    raws = [
        _xtext(n) for n in root.xpath("//t:biblStruct/t:note[@type='raw_reference']", namespaces=NS)
    ]
    assert [r.raw for r in doc.references] == raws and len(raws) == 15
    assert doc.venue == "MEDICINA" and doc.year == 2003
    # Two of its four <author> entries are affiliations without a name.
    assert doc.authors == ("Irena Misevičienė", "Žemyna Milašauskienė")
    assert doc.parser_version == "0.5.5-fatcat sciverify-tei/1"


def test_coordinates_give_page_and_bbox(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "gcp__0046d83a-edd6-4631-b57c-755cdcce8b7f.tei.xml")
    assert doc.page_count == 9  # nine <surface> elements in <facsimile>
    fig = next(b for s in doc.sections for b in s.blocks if b.text.startswith("Fig. 3 Fig. 4"))
    # coords="6,62.70,246.09,467.97,7.36;6,62.70,256.42,458.01,7.06": the union on page 6
    assert fig.page == 6 and fig.kind == BlockKind.caption
    assert fig.bbox == pytest.approx((62.70, 246.09, 530.67, 263.48))


def test_table_rows_and_refs(shared_corpora: Path) -> None:
    doc = _tei(shared_corpora, "sz__paper01.tei.xml")
    table = next(b for s in doc.sections for b in s.blocks if b.ref == "Table 10")
    assert table.kind == BlockKind.table
    assert table.text.startswith("Table 10: Architectural impact range per model.")
    assert "Grok\thier-base\t−24.0 hist+net\t−112.9\t88.8" in table.text.splitlines()


@pytest.mark.parametrize("stem", ["gcp2__ijms-24-05988", "gcp2__10.7554_elife.78558"])
def test_agrees_with_grobid_clients_json(shared_corpora: Path, stem: str) -> None:
    """grobid-client-python's own JSON rendering of the same TEI is an independent reading."""
    derived = json.loads(
        _file(shared_corpora, f"grobid_tei/derived_by_client/{stem}.json").read_text("utf-8")
    )
    doc = _tei(shared_corpora, f"{stem}.grobid.tei.xml")
    biblio = derived["biblio"]
    assert doc.title == biblio["title"] and doc.doi == biblio["doi"]
    assert doc.year == biblio["publication_year"]
    # The client keeps the first forename only; we keep middle names too.
    assert len(doc.authors) == len(biblio["authors"])
    for ours, theirs in zip(doc.authors, biblio["authors"], strict=True):
        assert ours.split()[0] == theirs.split()[0] and ours.split()[-1] == theirs.split()[-1]
    refs = derived["references"]
    assert [r.title for r in doc.references] == [r.get("title") for r in refs]
    assert [r.year for r in doc.references] == [r.get("year") for r in refs]
    assert [r.doi for r in doc.references] == [r.get("doi") for r in refs]
    # Every paragraph the client saw is a block of ours, in a section of the same heading.
    homes: dict[str, set[str]] = {}
    for section in doc.sections:
        for block in section.blocks:
            homes.setdefault(_norm(block.text), set()).add(section.heading)
    for para in derived["body_text"]:
        text = _norm(para["text"])
        assert text in homes
        if para.get("head_section"):
            assert para["head_section"] in homes[text]
    floats = [b for s in doc.sections for b in s.blocks if b.kind in ("caption", "table")]
    assert len(floats) == len(derived["figures_and_tables"])


def test_headings_agree_with_grobid_clients_markdown(shared_corpora: Path) -> None:
    stem = "gcp2__ijms-24-05988"
    markdown = _file(shared_corpora, f"grobid_tei/derived_by_client/{stem}.md").read_text("utf-8")
    theirs = [line[4:].strip() for line in markdown.splitlines() if line.startswith("### ")]
    doc = _tei(shared_corpora, f"{stem}.grobid.tei.xml")
    ours = [s.heading for s in doc.sections if s.heading not in ("Abstract", FLOATS_HEADING)]
    extra: list[str] = []
    rest = iter(ours)
    for heading in theirs:  # theirs, in order, within ours
        for candidate in rest:
            if candidate == heading:
                break
            extra.append(candidate)
        else:
            pytest.fail(f"{heading!r} is missing or out of order")
    extra += list(rest)
    # The client writes no heading for a headless back-matter div; we name it by its type.
    assert extra == ["Funding"]


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("1 Introduction", SectionKind.introduction),
        ("Materials and methods", SectionKind.methods),
        ("Results and Discussion", SectionKind.results),
        ("Discussion and conclusions", SectionKind.discussion),
        ("Experimental Setup", SectionKind.methods),
        ("Experiments", SectionKind.results),
        ("Related Work", SectionKind.related_work),
        ("Limitations and future work", SectionKind.limitations),
        ("Acknowledgments", SectionKind.acknowledgements),
        ("Concluding remarks", SectionKind.conclusion),
        ("Supplementary Materials:", SectionKind.appendix),
        ("Macrophage depletion", None),
    ],
)
def test_heading_kind(heading: str, kind: str | None) -> None:
    assert heading_kind(heading) == kind


@pytest.mark.parametrize(
    "tei",
    [b"", b"   ", b"<TEI><teiHeader>", b"<html><body>not TEI</body></html>", '{"level": 1}'],
)
def test_malformed_input_is_a_parse_error(tei: str | bytes) -> None:
    with pytest.raises(ParseError) as err:
        tei_to_document(tei, source="upload.tei.xml")
    assert str(err.value).startswith("upload.tei.xml: ")
    assert err.value.exit_code == ExitCode.INPUT and err.value.hint


def test_namespace_free_tei_reads_the_same() -> None:
    tei = (
        "<TEI><teiHeader><fileDesc><titleStmt><title level='a' type='main'>Plain</title>"
        "</titleStmt></fileDesc></teiHeader><text><body><div><head n='2.1'>Methods</head>"
        "<p>We did it.</p></div></body></text></TEI>"
    )
    doc = tei_to_document(tei)
    assert doc.title == "Plain"
    assert [(s.heading, s.kind, s.level, s.text) for s in doc.sections] == [
        ("Methods", SectionKind.methods, 2, "We did it.")
    ]


# -- the HTTP client -------------------------------------------------------------------------------


@pytest.fixture
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """requests honours proxy variables; the stand-in server is on 127.0.0.1 only."""
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


class _Grobid:
    """A GROBID stand-in: /api/isalive, and /api/processFulltextDocument with canned answers."""

    def __init__(self, answers: list[tuple[int, bytes]]) -> None:
        self.answers = answers
        self.posts: list[email.message.EmailMessage] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer(200 if self.path == "/api/isalive" else 404, b"true")

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                head = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
                parsed = email.parser.BytesParser(policy=email.policy.default).parsebytes(
                    head + body
                )
                owner.posts.append(parsed)
                if self.path != "/api/processFulltextDocument":
                    self._answer(404, b"")
                    return
                status, payload = (
                    owner.answers.pop(0) if len(owner.answers) > 1 else owner.answers[0]
                )
                self._answer(status, payload)

            def _answer(self, status: int, payload: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:  # keep the test output clean
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _form(message: email.message.EmailMessage) -> dict[str, list[Any]]:
    fields: dict[str, list[Any]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields.setdefault(str(name), []).append(
            part.get_content()
            if part.get_filename() is None
            else (part.get_filename(), part.get_payload(decode=True))
        )
    return fields


@pytest.fixture
def pdf_and_tei(shared_corpora: Path, tmp_path: Path) -> tuple[Path, bytes]:
    stem = "sz__paper_11_active_passive_interface"
    pdf = tmp_path / f"{stem}.pdf"
    shutil.copyfile(_file(shared_corpora, f"pdfs/{stem}.pdf"), pdf)
    return pdf, _file(shared_corpora, f"pdfs_truth/{stem}.grobid.tei.xml").read_bytes()


@pytest.fixture
def closed_port() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    yield port  # nothing listens here any more


def test_unreachable_server_is_an_environment_problem(
    loopback_only: None, closed_port: int, tmp_path: Path
) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    url = f"http://127.0.0.1:{closed_port}"
    with pytest.raises(EnvironmentProblem) as err:
        parse_with_grobid(pdf, url=url, timeout=5)
    assert url in err.value.message and "cannot be reached" in err.value.message
    assert err.value.hint == GROBID_HINT and err.value.exit_code == ExitCode.ENVIRONMENT
    assert int(err.value.exit_code) == 4


def test_client_end_to_end(loopback_only: None, pdf_and_tei: tuple[Path, bytes]) -> None:
    pdf, tei = pdf_and_tei
    with _Grobid([(200, tei)]) as grobid:
        doc = parse_with_grobid(pdf, url=grobid.url + "/", timeout=30)
    assert doc == tei_to_document(tei, source=str(pdf))
    assert doc.title and doc.title.startswith("Morphological instability of an invasive")
    (post,) = grobid.posts
    form = _form(post)
    assert form["teiCoordinates"] == list(TEI_COORDINATES)
    assert set(TEI_COORDINATES) >= {"p", "s", "head", "figure", "formula", "biblStruct"}
    assert form["consolidateHeader"] == ["0"] and form["consolidateCitations"] == ["0"]
    assert form["input"] == [(pdf.name, pdf.read_bytes())]


def test_busy_server_is_retried(loopback_only: None, pdf_and_tei: tuple[Path, bytes]) -> None:
    pdf, tei = pdf_and_tei
    with _Grobid([(503, b"busy"), (200, tei)]) as grobid:
        doc = parse_with_grobid(pdf, url=grobid.url, timeout=30, consolidate=True)
    assert len(grobid.posts) == 2 and doc.references
    assert _form(grobid.posts[0])["consolidateCitations"] == ["1"]


def test_server_error_is_a_parse_error_naming_the_file(
    loopback_only: None, pdf_and_tei: tuple[Path, bytes]
) -> None:
    pdf, _ = pdf_and_tei
    answer = (500, b"[GENERAL] An exception occurred while running Grobid.")
    with _Grobid([answer]) as grobid, pytest.raises(ParseError) as err:
        parse_with_grobid(pdf, url=grobid.url, timeout=30)
    assert str(err.value).startswith(f"{pdf}: GROBID failed to process the PDF (HTTP 500)")
    assert "An exception occurred" in err.value.message and err.value.hint


# -- against the PDF parser ------------------------------------------------------------------------


def _truth_pairs() -> list[str]:
    root = _corpora_root()
    teis = sorted((root / "pdfs_truth").glob("*.tei.xml")) if (root / "pdfs_truth").is_dir() else []
    stems = [p.name.removesuffix(".grobid.tei.xml").removesuffix(".header.tei.xml") for p in teis]
    return [s for s in stems if (root / "pdfs" / f"{s}.pdf").is_file()] or ["(absent)"]


def _title_key(title: str | None) -> str:
    text = unicodedata.normalize("NFKD", title or "").encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


@pytest.mark.parametrize("stem", _truth_pairs())
def test_grobid_and_pymupdf_titles_agree(shared_corpora: Path, stem: str) -> None:
    if importlib.util.find_spec("sciverify.ingest.pymupdf") is None:
        pytest.skip("sciverify.ingest.pymupdf is not there yet")
    from sciverify.ingest import pymupdf as pymupdf_parser  # a broken module fails, not skips

    (tei_path,) = (shared_corpora / "pdfs_truth").glob(f"{stem}.*tei.xml")
    grobid_title = _map(tei_path).title
    pdf_title = pymupdf_parser.parse_pdf(_file(shared_corpora, f"pdfs/{stem}.pdf")).title
    ratio = difflib.SequenceMatcher(None, _title_key(grobid_title), _title_key(pdf_title)).ratio()
    assert ratio >= 0.9, f"GROBID {grobid_title!r} vs PyMuPDF {pdf_title!r} ({ratio:.2f})"
