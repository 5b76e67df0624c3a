"""The PyMuPDF parser on real PDFs from the shared corpora, and on broken copies of them."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from sciverify.errors import ParseError
from sciverify.ingest import pdf_meta
from sciverify.ingest.pdf_page import repair_ligatures
from sciverify.ingest.pymupdf import parse_pdf
from sciverify.records import Block, BlockKind, ParsedDocument, SectionKind, VersionKind

ACL = "s2j__N18-3011_literature_graph.pdf"  # two columns, NAACL 2018
BMC = "gcp__0046d83a_jner2016_multicontact_fes.pdf"  # BioMed Central, running heads
ARXIV = "pm__aaai_paraphrase_generation.pdf"  # arXiv stamp in the margin
REVTEX = (
    "sz__paper_14_prisoners_dilemma_phase_transitions.pdf"  # no abstract label, no refs heading
)
LNCS = "grobid__kopp_gadr.pdf"  # one column, 3 pages


@pytest.fixture(scope="module")
def parsed(shared_corpora: Path) -> Callable[[str], ParsedDocument]:
    cache: dict[str, ParsedDocument] = {}

    def get(name: str) -> ParsedDocument:
        if name not in cache:
            cache[name] = parse_pdf(shared_corpora / "pdfs" / name)
        return cache[name]

    return get


def blocks(doc: ParsedDocument) -> list[Block]:
    return [b for s in doc.sections for b in s.blocks]


def section(doc: ParsedDocument, heading: str):  # type: ignore[no-untyped-def]
    return next(s for s in doc.sections if s.heading == heading)


def test_front_matter_of_a_conference_paper(parsed: Callable[[str], ParsedDocument]) -> None:
    doc = parsed(ACL)
    assert doc.title == "Construction of the Literature Graph in Semantic Scholar"
    assert doc.page_count == 8
    assert doc.authors[:2] == ("Waleed Ammar", "Dirk Groeneveld")
    assert len(doc.authors) == 23 and doc.authors[-1] == "Oren Etzioni"
    assert doc.venue == "Proceedings of NAACL-HLT 2018"
    assert doc.year == 2018
    assert doc.version_kind == VersionKind.published
    assert doc.parser == "pymupdf"
    assert doc.parser_version == f"sciverify-pymupdf/5 + PyMuPDF {pymupdf.__version__}"
    assert doc.has_text_layer and doc.warnings == ()


def test_sections_headings_levels_and_kinds(parsed: Callable[[str], ParsedDocument]) -> None:
    doc = parsed(ACL)
    intro = section(doc, "1 Introduction")
    assert (intro.kind, intro.level) == (SectionKind.introduction, 1)
    assert section(doc, "2.1 Node Types").level == 2
    assert section(doc, "6 Conclusion and Future Work").kind == SectionKind.conclusion
    assert section(doc, "References").kind == SectionKind.references
    assert doc.abstract is not None
    assert doc.abstract.startswith("We describe a deployed scalable system for organizing")
    # "litera-\nture" and "facili-\ntate" are repaired; "meta-\nanalysis" keeps its hyphen
    assert "scientific literature into a heterogeneous graph to facilitate" in doc.abstract
    assert any("systematic review and meta-analysis" in b.text for b in blocks(doc))


def test_sentence_continues_across_the_column_break(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    doc = parsed(ACL)
    intro = section(doc, "1 Introduction").blocks
    left = next(i for i, b in enumerate(intro) if b.text.endswith("(e.g., Xiong et al.,"))
    following = [b for b in intro[left + 1 :] if b.kind == BlockKind.text]
    assert following[0].text.startswith("2017). We describe methods used in a scalable")
    assert intro[left].page == following[0].page == 1
    assert intro[left].bbox is not None and following[0].bbox is not None
    assert intro[left].bbox[2] < 300 < following[0].bbox[0]  # left column, then right


def test_paragraph_cut_by_a_column_break_is_joined(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # "... if they returned one or more" ends the left column; "'valid' questionnaires, ..."
    # opens the right one
    bmc = [b for b in blocks(parsed("norma__bmcmed2014_obesity.pdf")) if b.page == 5]
    assert any(
        "returned one or more \u2018valid\u2019 questionnaires, and did not withdraw" in b.text
        for b in bmc
    )
    # the page number centred under both columns of an ACL page must not hide the gutter
    acl = [b for b in blocks(parsed("pm__2020.acl-main.447.pdf")) if b.page == 4]
    joined = next(b for b in acl if b.text.startswith("Subsequently, 95.5M paper clusters"))
    assert "80.0M of these filtered clusters have no associated publisher-provided" in joined.text
    assert joined.bbox is not None and joined.bbox[0] < 100 and joined.bbox[2] > 500
    assert not any(b.text.startswith("have no associated") for b in acl)


def test_double_spaced_manuscript_keeps_its_paragraphs(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # a preprint set with a blank line under every line: each line is a PyMuPDF block
    doc = parsed("pqa__wellawatte_molecular_explanations.pdf")
    text = [b for b in blocks(doc) if b.kind == BlockKind.text]
    first = next(b for b in text if b.text.startswith("Deep learning (DL) is advancing"))
    assert "Applications of DL can be found in a broad spectrum" in first.text
    assert "to drug discovery" in first.text
    lower = [b for b in text if b.text[:1].islower()]
    assert len(lower) < 0.1 * len(text), [b.text[:60] for b in lower]


def test_captions_and_tables_are_their_own_blocks(parsed: Callable[[str], ParsedDocument]) -> None:
    by_ref = {b.ref: b for b in blocks(parsed(ACL)) if b.ref}
    assert by_ref["Figure 1"].kind == BlockKind.caption
    assert by_ref["Figure 1"].text == "Figure 1: Part of the literature graph."
    assert by_ref["Figure 1"].page == 1
    assert by_ref["Table 1"].kind == BlockKind.table
    assert by_ref["Table 1"].text.startswith("Table 1: Results of the ScienceParse system.")
    assert {"Table 2", "Table 3", "Table 4"} <= set(by_ref)


def test_references_split_into_entries(parsed: Callable[[str], ParsedDocument]) -> None:
    acl = parsed(ACL).references
    assert abs(len(acl) - 27) <= 4  # S2ORC lists 27 bibliography entries
    assert acl[0].authors[0] == "Waleed Ammar" and acl[0].year == 2017
    bmc = parsed(BMC).references
    assert len(bmc) == 49
    assert bmc[0].raw.startswith("1. Quandt F, Hummel FC.")
    assert (bmc[0].year, bmc[0].doi) == (2014, "10.1186/2040-7378-6-9")
    # Vancouver style: the period after the last initial ends the authors, the next the title.
    assert bmc[0].authors == ("Quandt F", "Hummel FC")
    assert bmc[0].title == (
        "The influence of functional electrical stimulation on hand motor recovery in stroke "
        "patients: a review"
    )
    assert bmc[1].authors[0] == "Gallego JÁ" and bmc[1].title is not None
    assert bmc[1].title.startswith("A neuroprosthesis for tremor management")
    assert all(r.title and not r.title[:4].isdigit() for r in bmc)  # never "2013;10(1):36."


def test_a_caption_beside_the_text_is_read_whole(parsed: Callable[[str], ParsedDocument]) -> None:
    # An Improved Multi-Output Gaussian Process RNN (MLHC 2017), p. 9: Figure 4 sits to the
    # right of a narrowed text column; row by row its caption's lines and the text's alternate.
    doc = parsed("scipdf__futoma2017_mlhc.pdf")
    on_page = [b for b in blocks(doc) if b.page == 9]
    caption = next(b for b in on_page if b.kind == BlockKind.caption)
    assert caption.text.startswith("Figure 4: False alarms per true alarm as a function of")
    assert caption.text.endswith("drastic reductions in false alarms across all sensitivities.")
    text = " ".join(b.text for b in on_page if b.kind == BlockKind.text)
    assert (
        "our best model only had about 1.4 false alarms per true alarm, at a very high "
        "sensitivity of 80%; compare this to the 2.2 false alarms the base MGP-RNN has" in text
    )


def test_appendix_after_the_references_is_body_text(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # "A. Partitioned vs. unpartitioned ..." is set like the "References" heading: it ends the
    # list, and its measurements ("about .5 Mbytes ... 20 times less") are searchable text.
    doc = parsed("grobid__mullen2007_jss_timp.pdf")
    assert len(doc.references) == 17
    appendix = section(
        doc,
        "A.1. Empirical comparison of partitioned and unpartitioned variable projection algorithms",
    )
    assert appendix.kind == SectionKind.appendix
    assert "about 20 times less than under plinear" in appendix.text
    # Set larger than the body, a heading with a word in code type is no bold run-in lead.
    assert section(doc, "B. New nls options").kind == SectionKind.appendix
    refs = next(s for s in doc.sections if s.kind == SectionKind.references)
    assert "Mbytes" not in refs.text
    survey = parsed("miku__1906.11632_gan_anomaly_survey.pdf")
    assert section(survey, "A. Additional Results").kind == SectionKind.appendix
    assert all(not r.raw.startswith(("A.1.", "GANomaly")) for r in survey.references)


def test_publisher_version_metadata_and_subsections(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    doc = parsed(BMC)
    assert doc.doi == "10.1186/s12984-016-0129-6"
    assert doc.license == "CC BY"
    assert doc.version_kind == VersionKind.published
    assert (doc.year, doc.venue) == (2016, "Journal of NeuroEngineering and Rehabilitation")
    participants = section(doc, "Participants")
    assert (participants.kind, participants.level) == (SectionKind.methods, 2)
    assert section(doc, "Methods").level == 1


def test_running_heads_and_page_numbers_are_removed(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    texts = [b.text for b in blocks(parsed(BMC))]
    assert not any("Page 3 of 9" in t for t in texts)
    assert not any("Journal of NeuroEngineering and Rehabilitation (2016) 13:" in t for t in texts)
    lncs = [b.text for b in blocks(parsed(LNCS))]
    assert not any(t.startswith("56 Oliver Kopp") for t in lncs)  # head with the page number
    excerpt = parsed("docling__2305.03393v1_page9.pdf")
    assert excerpt.page_count == 1
    assert not any("Optimized Table Tokenization" in b.text for b in blocks(excerpt))
    assert [s.heading for s in excerpt.sections if s.heading[:1].isdigit()] == [
        "5.1 Hyper Parameter Optimization",
        "5.2 Quantitative Results",
    ]


def test_a_table_at_the_top_of_a_page_keeps_the_numbers_that_do_not_count_pages(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # Bigtable (OSDI 2006), p. 10: Table 1 starts in the top band, where its first row's cells
    # "0", "19" and "259" looked like page numbers and took the row ("..") with them. The pages
    # count 1 to 14 at the foot, so only those numbers are furniture.
    doc = parsed("cer__bigtable_osdi2006.pdf")
    texts = [b.text for b in blocks(doc)]
    table = next(t for t in texts if t.startswith("Table 1: Distribution of number of tablet"))
    assert table.split("\n")[1:5] == ["0 .. 19", "259", "20 .. 49", "47"]
    pages = [b for b in blocks(doc) if b.page <= 10]  # Table 2 on p. 11 has a cell "11"
    assert not any(str(b.page) in b.text.split("\n") for b in pages)
    assert not any("To appear in OSDI 2006" in t for t in texts)


def test_arxiv_preprint_version(parsed: Callable[[str], ParsedDocument]) -> None:
    doc = parsed(ARXIV)
    assert doc.arxiv_id == "2202.00535v1"
    assert (doc.version_kind, doc.version_label) == (VersionKind.preprint, "v1")
    assert doc.year == 2022
    assert doc.title is not None and doc.title.startswith(
        "Novelty Controlled Paraphrase Generation"
    )


def test_revtex_unlabelled_abstract_unheaded_references_equations(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    doc = parsed(REVTEX)
    assert doc.abstract is not None
    assert doc.abstract.startswith("We present a collaboration ring model")
    assert len(doc.references) == 41
    assert doc.references[0].raw.startswith("[1] R. Axelrod and W. D. Hamilton")
    assert sum(b.kind == BlockKind.equation for b in blocks(doc)) >= 5


def test_provisional_pdf_is_the_accepted_version(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    doc = parsed("norma__trials2014_provisional_manuscript.pdf")
    assert doc.version_kind == VersionKind.accepted
    assert doc.doi == "10.1186/1745-6215-15-486"
    assert doc.abstract is not None and doc.abstract.startswith("Background: Inhaled nitric oxide")


def test_authors_with_a_generation_suffix_beside_an_open_review_box(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # F1000Research: the authors' line has "Driggers III"; the page also has a box of
    # "Invited Referees" and their names.
    doc = parsed("norma__f1000research_3_190_sharks.pdf")
    assert doc.authors == ("Bryan S. Frazier", "William B. Driggers III", "Glenn F. Ulrich")
    assert pdf_meta.parse_names("Invited Referees") == []
    assert pdf_meta.parse_names("Continuous Electron Beam Accelerator Facility") == []
    assert pdf_meta.parse_names("Alastair Harry") == ["Alastair Harry"]


def test_the_years_of_cited_works_do_not_date_the_paper(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # The first pages cite "(Wu and Weld, 2010)", "Banko et al., 2007" and the like; the
    # paper's own year is the EMNLP 2011 file's creation date, and PaperMage's is in its
    # own front matter (2023), not the most cited one.
    assert parsed("sp__fader11.pdf").year == 2011
    assert parsed("pm__papermage.pdf").year == 2023
    front = ["We build on (Wu and Weld, 2010), Banko et al. 2007 and Etzioni et al., 2008."]
    assert pdf_meta.find_year(front, None, "D:20110819092901", 2026) == 2011
    # A venue, a place or a month before a year is no citation.
    assert pdf_meta.find_year(["In Proceedings of OSDI 2006, Seattle"], None, None, 2026) == 2006
    assert pdf_meta.find_year(["OSDI, Seattle, WA, 2006"], None, None, 2026) == 2006
    assert pdf_meta.find_year(["Received March, 2014"], None, "D:2015", 2026) == 2014
    assert pdf_meta.find_year(["(Received March, 2014)"], None, "D:2015", 2026) == 2014


def test_margin_line_numbers_are_removed(shared_corpora: Path, tmp_path: Path) -> None:
    original = shared_corpora / "pdfs" / LNCS
    numbered = tmp_path / "numbered.pdf"
    with pymupdf.open(original) as pdf:
        for page in pdf:
            baselines = sorted(
                {
                    round(line["bbox"][3], 1)
                    for block in page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)["blocks"]
                    if block["type"] == 0
                    for line in block["lines"]
                }
            )
            writer = pymupdf.TextWriter(page.rect)
            for n, y in enumerate(baselines, 1):
                writer.append((110, y - 2), str(n), fontsize=7)
            writer.write_text(page)
        pdf.save(numbered)
    before, after = parse_pdf(original), parse_pdf(numbered)
    assert [s.heading for s in after.sections] == [s.heading for s in before.sections]
    assert after.abstract == before.abstract
    same = sum(a.text == b.text for a, b in zip(blocks(before), blocks(after), strict=False))
    assert same >= 0.9 * len(blocks(before))


def test_garbled_text_is_dropped_with_a_warning(parsed: Callable[[str], ParsedDocument]) -> None:
    doc = parsed("norma__f1000research_3_305_garbled_header.pdf")
    assert any("no Unicode mapping" in w for w in doc.warnings)
    assert not any(b.text.count("\ufffd") * 3 > len(b.text) for b in blocks(doc))
    assert section(doc, "Materials and methods").kind == SectionKind.methods
    assert len(doc.references) == 43


def test_scan_without_text_layer(shared_corpora: Path) -> None:
    scan = shared_corpora / "pdfs" / "mineru__small_ocr_scanned_no_text.pdf"
    with pytest.raises(ParseError) as err:
        parse_pdf(scan, ocr=False)
    assert "no text layer" in err.value.message
    assert err.value.hint is not None and "OCR with tesseract if installed" in err.value.hint
    if shutil.which("tesseract") is None:  # with tesseract on PATH the default OCRs instead
        with pytest.raises(ParseError, match="no text layer"):
            parse_pdf(scan)


def _copy(shared_corpora: Path, tmp_path: Path) -> tuple[Path, bytes]:
    data = (shared_corpora / "pdfs" / LNCS).read_bytes()
    return tmp_path / "paper.pdf", data


def test_empty_file(shared_corpora: Path, tmp_path: Path) -> None:
    path, _ = _copy(shared_corpora, tmp_path)
    path.write_bytes(b"")
    with pytest.raises(ParseError, match="empty file") as err:
        parse_pdf(path)
    assert err.value.path == str(path) and err.value.hint


def test_renamed_text_file(shared_corpora: Path, tmp_path: Path) -> None:
    path, _ = _copy(shared_corpora, tmp_path)
    path.write_text("Title: a draft\n\nThis is plain text, not a PDF.\n")
    with pytest.raises(ParseError, match="not a PDF") as err:
        parse_pdf(path)
    assert err.value.hint


def test_truncated_pdf(shared_corpora: Path, tmp_path: Path) -> None:
    path, data = _copy(shared_corpora, tmp_path)
    path.write_bytes(data[: len(data) * 6 // 10])
    with pytest.raises(ParseError, match="truncated") as err:
        parse_pdf(path)
    assert "\n" not in err.value.message and err.value.hint


def test_corrupted_pdf(shared_corpora: Path, tmp_path: Path) -> None:
    path, data = _copy(shared_corpora, tmp_path)
    path.write_bytes(data[:9] + bytes(range(256)) * 64)  # the header survives, nothing else
    with pytest.raises(ParseError, match="corrupt PDF") as err:
        parse_pdf(path)
    assert err.value.hint


def test_encrypted_pdf(
    shared_corpora: Path, tmp_path: Path, parsed: Callable[[str], ParsedDocument]
) -> None:
    path = tmp_path / "locked.pdf"
    with pymupdf.open(shared_corpora / "pdfs" / LNCS) as pdf:
        pdf.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    with pytest.raises(ParseError, match="encrypted PDF needs a password") as err:
        parse_pdf(path)
    assert err.value.hint is not None and "decrypt" in err.value.hint
    # an owner password alone (no user password) does not stop reading
    open_copy = tmp_path / "owner-only.pdf"
    with pymupdf.open(shared_corpora / "pdfs" / LNCS) as pdf:
        pdf.save(open_copy, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner")
    assert parse_pdf(open_copy).title == parsed(LNCS).title


@pytest.mark.parametrize(
    "name",
    [
        "grobid__zfn_solitary_wave_scanned_ocr.pdf",  # noisy OCR layer
        "grobid__oecs12_quantum_dot_abstract.pdf",  # a one-page abstract
    ],
)
def test_odd_documents_still_parse(parsed: Callable[[str], ParsedDocument], name: str) -> None:
    doc = parsed(name)
    assert doc.page_count >= 1 and doc.sections
    for b in blocks(doc):
        assert b.page is not None and 1 <= b.page <= doc.page_count
        assert b.bbox is not None and b.bbox[0] <= b.bbox[2] and b.bbox[1] <= b.bbox[3]


def _preprint_pages(shared_corpora: Path, tmp_path: Path, pages: list[int]) -> Path:
    """Some pages of a 1994 preprint typeset with dvips bitmap fonts, as a PDF of their own."""
    out = tmp_path / "preprint_pages.pdf"
    with pymupdf.open(shared_corpora / "pdfs" / "cer__cebaf_th_94_08_preprint.pdf") as pdf:
        pdf.select(pages)
        pdf.save(out)
    return out


def test_rotated_page_is_read_upright(shared_corpora: Path, tmp_path: Path) -> None:
    # a 1994 preprint whose pages are rotated 270 degrees, one word per text line
    doc = parse_pdf(_preprint_pages(shared_corpora, tmp_path, [0, 1]))
    assert doc.arxiv_id == "hep-ph/9412269" and doc.version_kind == VersionKind.preprint
    assert doc.year == 1994
    texts = " ".join(b.text for b in blocks(doc))
    assert any("Mesons In A Relativistic" in s.heading for s in doc.sections)
    assert "Old Dominion" in texts


def test_bitmap_font_words_and_digits_are_whole(shared_corpora: Path, tmp_path: Path) -> None:
    # The same preprint's bitmap (Type 3) fonts give one text line per piece of a word
    # ("hea" "vy") with a meaningless font size, and name their digit glyphs "/1", "/2",
    # which MuPDF reads as the characters U+0001, U+0002 ("\x01\x02000 Je\ufffderson").
    doc = parse_pdf(_preprint_pages(shared_corpora, tmp_path, [1, 13]))
    texts = " ".join(b.text for b in blocks(doc))
    assert "W. Roberts" in doc.authors
    assert "12000 Jefferson Avenue, Newport News, VA 23606" in texts
    assert (
        "we use the spectator equation to treat the mesonic bound states of heavy quarks" in texts
    )
    assert "heavy quark effective theory" in texts
    assert "FIG. 7." in texts
    assert not re.search("[\x00-\x08]", texts)
    # Words set apart by a real gap stay apart.
    assert "Our results are in reasonable agreement with experimental measurements" in texts


def test_ligatures_a_font_cannot_map_are_put_back(
    parsed: Callable[[str], ParsedDocument],
) -> None:
    # A 1994 preprint whose font has no Unicode map for its fi/ff ligatures: PyMuPDF gives
    # U+FFFD where "effect", "first" and "infinite" had their ligature.
    text = " ".join(b.text for b in blocks(parsed("cer__cebaf_th_94_08_preprint.pdf")))
    words = set(re.findall(r"[\w\ufffd]+", text))
    assert {"effect", "first", "infinite", "satisfies", "find", "defined"} <= words
    assert not words & {"e\ufffdect", "\ufffdrst", "in\ufffdnite", "satis\ufffdes", "\ufffdnd"}
    # A word known by its other form ("confined") or as two known words ("hyper" + "fine").
    assert {"confining", "hyperfine"} <= words
    # A lost glyph before a word may be a symbol: "\ufffdrepresents" is not "firepresents".
    assert repair_ligatures("where \ufffdrepresents the sum") == "where \ufffdrepresents the sum"
    # The same loss in a calcium paper is the charge of the ion, not a ligature.
    glia = " ".join(b.text for b in blocks(parsed("pf2__charles1998_glia_calcium_waves.pdf")))
    assert "Ca2+ waves" in glia and "[Ca2+]i" in glia
    assert "Ca2\ufffd" not in glia and "Ca2fl" not in glia
