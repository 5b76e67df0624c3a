"""verify end to end on a small real corpus: planted errors in three drafts, cards, bad input."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import sciverify as sv
from sciverify.cli import app
from sciverify.errors import InputError, StaleIndex
from sciverify.records import EntailProbs, VerifyResult
from sciverify.verify import cards_of, log_run, verify
from sciverify.verify.settings import VerifySettings

REPO = Path(__file__).resolve().parents[1]
DRAFTS = Path(__file__).parent / "drafts"
# The five sample papers plus the three other papers the drafts are written about, and one
# whose title page is garbled (no title, no authors in its metadata).
EXTRA_PDFS = (
    "cer__test5_hpylori_iron_anaemia.pdf",
    "norma__bmcmed2014_obesity.pdf",
    "sp__map-reduce.pdf",
    "norma__f1000research_3_305_garbled_header.pdf",
)
DRAFT_NAMES = ("medical_review", "ecology_review", "engineering_review")


@pytest.fixture(scope="session")
def corpus(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdfs = tmp_path_factory.mktemp("verify_pdfs")
    for pdf in sorted((REPO / "corpora" / "sample").glob("*.pdf")):
        shutil.copy(pdf, pdfs / pdf.name)
    for name in EXTRA_PDFS:
        shutil.copy(shared_corpora / "pdfs" / name, pdfs / name)
    folder = tmp_path_factory.mktemp("verify_corpus") / "corpus"
    result = CliRunner().invoke(
        app, ["ingest", str(pdfs), "--corpus", str(folder), "-q", "-f", "json"]
    )
    assert result.exit_code == 0, result.stderr
    return folder


@pytest.fixture(scope="session")
def results(corpus: Path) -> dict[str, VerifyResult]:
    settings = sv.load_settings(corpus=corpus)
    out = {}
    with sv.open_store(corpus, read_only=True) as store:
        for name in DRAFT_NAMES:
            labels = json.loads((DRAFTS / f"{name}.labels.json").read_text())
            bib = DRAFTS / labels["bib"] if labels["bib"] else None
            out[name] = verify(
                (DRAFTS / f"{name}.md").read_text(),
                store=store,
                settings=settings,
                source=f"{name}.md",
                bib=bib,
            )
    return out


def _paragraph(result: VerifyResult, match: str) -> Any:
    found = [p for p in result.paragraphs if match in p.text]
    assert len(found) == 1, f"{match!r} is in {len(found)} paragraphs"
    return found[0]


def _labelled(kind: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name in DRAFT_NAMES:
        labels = json.loads((DRAFTS / f"{name}.labels.json").read_text())
        for para in labels["paragraphs"]:
            if (para["planted"] is None) == (kind == "faithful"):
                out.append((name, para))
    return out


@pytest.mark.parametrize(
    ("name", "label"), _labelled("planted"), ids=lambda v: v if isinstance(v, str) else v["planted"]
)
def test_planted_errors_are_found(
    results: dict[str, VerifyResult], name: str, label: dict[str, Any]
) -> None:
    para = _paragraph(results[name], label["match"])
    for claim in label["claims"]:
        cards = [c for c in para.cards if c.layer == "fact" and claim["match"] in c.claim]
        assert cards, f"no fact card for {claim['match']!r}: {para.cards}"
        assert cards[0].status == claim["status"], cards[0]
        if "finding" in claim:
            assert cards[0].finding == claim["finding"], cards[0]
        assert cards[0].suggested_action
    assert para.risk == label["risk"], [(c.status, c.finding, c.claim) for c in para.cards]


@pytest.mark.parametrize(
    ("name", "label"),
    _labelled("faithful"),
    ids=lambda v: v if isinstance(v, str) else v["match"][:24],
)
def test_faithful_paragraphs_stay_blue(
    results: dict[str, VerifyResult], name: str, label: dict[str, Any]
) -> None:
    para = _paragraph(results[name], label["match"])
    assert para.risk == "blue", [(c.status, c.finding, c.claim) for c in para.cards]
    for finding in label.get("findings", []):
        assert any(c.finding == finding for c in para.cards), (finding, para.cards)


def test_cards_point_at_pages_and_sentences(results: dict[str, VerifyResult]) -> None:
    result = results["medical_review"]
    changed = _paragraph(result, "15.88 g/l").cards[0]
    top = changed.evidence[0]
    assert top.match_type == "contradict" and "12.88" in top.snippet
    assert top.page and top.source and top.source.endswith(".pdf") and top.chunk_id
    assert "12.88" in (changed.downgrade or "")
    moved = next(c for c in _paragraph(result, "3.9% and 0.7%").cards if c.layer == "fact")
    assert "thrombosis" in (moved.evidence[0].title or "").lower()
    missing = next(c for c in _paragraph(result, "more than half").cards if c.layer == "fact")
    assert "add this paper to the corpus" in missing.suggested_action.lower()
    assert "geerts1994" in missing.suggested_action
    hedge = next(c for c in _paragraph(result, "proves that H pylori").cards if c.layer == "fact")
    assert hedge.downgrade and " suggests " in hedge.downgrade and " proves " not in hedge.downgrade
    ids = [c.claim_id for c in cards_of(result) if c.claim_id]
    assert all(i.startswith("p_") and ".c" in i for i in ids)


def test_citations_resolve_to_corpus_papers(results: dict[str, VerifyResult]) -> None:
    eng = results["engineering_review"].summary["citations"]
    assert len(eng["missing"]) == 1 and "Hassan" in eng["missing"][0]
    assert eng["resolved"] >= 2  # [1] by title, [2] by DOI (and Dean and Ghemawat (2004))
    med = results["medical_review"].summary["citations"]
    assert med["resolved"] == 3 and len(med["missing"]) == 1 and "geerts1994" in med["missing"][0]
    eco = results["ecology_review"].summary["citations"]
    assert any("Twiss" in m for m in eco["missing"]) and eco["resolved"] == 2


def _as_footnotes(draft: str) -> str:
    body, refs = draft.split("## References")
    body = re.sub(r"\[(\d)\]", r"[^\1]", body)
    return body + "\n".join(re.sub(r"^(\d)\. ", r"[^\1]: ", line) for line in refs.split("\n"))


def _as_superscripts(draft: str) -> str:
    body, refs = draft.split("## References")
    body = re.sub(r" \[(\d)\]", lambda m: "¹²³"[int(m[1]) - 1], body)
    return f"{body}## References{refs}"


def _bold_reference_heading(draft: str) -> str:
    return draft.replace("## References", "**References:**")


def _bulleted_in_reverse(draft: str) -> str:
    body, refs = draft.split("## References")
    entries = [re.sub(r"^(\d)\. ", r"- [\1] ", e) for e in refs.strip().split("\n")]
    return body + "## References\n\n" + "\n".join(reversed(entries)) + "\n"


@pytest.mark.parametrize(
    "rewrite", [_as_footnotes, _as_superscripts, _bold_reference_heading, _bulleted_in_reverse]
)
def test_every_way_of_writing_numbered_citations_reads_the_same(
    corpus: Path, results: dict[str, VerifyResult], rewrite: Any
) -> None:
    # The engineering draft cites [1]-[3] from a numbered reference list; written with
    # Markdown footnotes or superscript numbers, under a bold "References:" line, or with a
    # bulleted list "- [3] ...", "- [2] ..." in another order, it must read the same: the
    # citation that names the wrong paper, the paper missing from the corpus and every other
    # verdict.
    draft = (DRAFTS / "engineering_review.md").read_text()
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        other = verify(rewrite(draft), store=store, settings=settings, source="x.md")

    def verdicts(result: VerifyResult) -> list[tuple[str, str | None, str]]:
        return [(c.status, c.finding, c.claim[:40]) for c in cards_of(result) if c.layer == "fact"]

    assert verdicts(other) == verdicts(results["engineering_review"])
    assert ("unverifiable", "cited_paper_missing") in {(s, f) for s, f, _ in verdicts(other)}
    assert (
        other.summary["citations"]["resolved"]
        == (results["engineering_review"].summary["citations"]["resolved"])
    )


def test_author_year_citations_tolerate_corpus_years(corpus: Path) -> None:
    from sciverify.verify.citations import Resolver

    entry = "Dean, J., Ghemawat, S. MapReduce: Simplified Data Processing on Large Clusters. 2008."
    with sv.open_store(corpus, read_only=True) as store:
        (work,) = store.rows("SELECT paper_id, year FROM works WHERE title ILIKE 'MapReduce%'")
        exact = Resolver(store)._lookup("author_year", f"dean:{work['year']}")
        # The draft's reference entry names the paper by title, whatever year it gives.
        listed = Resolver(store, references=[entry])._lookup("author_year", "dean:2008")
        # Without an entry, a year off by one still finds the author's only paper ...
        near = Resolver(store)._lookup("author_year", f"dean:{work['year'] + 1}")
        # ... but a year further off, or another author, finds nothing.
        far = Resolver(store)._lookup("author_year", f"dean:{work['year'] + 3}")
        other = Resolver(store, references=[entry])._lookup("author_year", "smith:2008")
    assert exact.paper_ids == listed.paper_ids == near.paper_ids == (work["paper_id"],)
    assert far.paper_ids == () and other.paper_ids == ()


def test_a_reference_finds_the_paper_whose_title_page_is_garbled(corpus: Path) -> None:
    from sciverify.verify.citations import Resolver

    entry = (
        "1. Leal GM, Leal WS. Binding of a fluorescence reporter and a ligand to an "
        "odorant-binding protein of the yellow fever mosquito, Aedes aegypti. "
        "F1000Research 3:305. 2014."
    )
    other = (
        "2. Okafor CE, Lindqvist M. Binding of a fluorescence reporter to a protein of the "
        "house fly, Musca domestica. Insect Biochemistry 12:1-9. 2014."
    )
    with sv.open_store(corpus, read_only=True) as store:
        (work,) = store.rows("SELECT paper_id, title FROM works WHERE paper_id LIKE '%f1000%5879%'")
        resolver = Resolver(store, references=[entry, other])
        found, missing = resolver._lookup("numeric", "1"), resolver._lookup("numeric", "2")
    assert work["title"] is None  # the garbled page gives no title to match
    assert found.paper_ids == (work["paper_id"],)
    assert missing.paper_ids == ()


def test_a_figure_no_retrieved_sentence_gives_is_looked_up_in_the_cited_paper(
    corpus: Path,
) -> None:
    from sciverify.verify.evidence import PaperSentences, figure_sentences

    claim = (
        "The grep run used a cluster of approximately 1800 machines, and its input rate "
        "peaked when 1764 workers had been assigned."
    )
    with sv.open_store(corpus, read_only=True) as store:
        (work,) = store.rows("SELECT paper_id FROM works WHERE title ILIKE 'MapReduce%'")
        papers = PaperSentences(store)
        sentences = papers(work["paper_id"])
        cluster = next(s for s in sentences if "approximately 1800 machines" in s.text)
        peak = next(s for s in sentences if "1764 workers" in s.text)
        # MapReduce (Dean and Ghemawat 2004), p. 8: the sentence retrieved gives 1800; the
        # one that gives 1764 is found for it.
        found = figure_sentences(claim, papers, [work["paper_id"]], set(), [cluster])
        both = figure_sentences(claim, papers, [work["paper_id"]], set(), [cluster, peak])
    assert [s.text for s in found] == [peak.text]
    assert both == []


def test_a_table_read_one_block_per_row_or_cell_is_one_line_of_figures(corpus: Path) -> None:
    from sciverify.verify.evidence import PaperSentences, figure_sentences

    claim = (
        "At four months postpartum women given lifestyle advice reported 6530.19 against "
        "6317.00 with standard care, an adjusted difference of 265.60 (95% CI 61.36 to 469.84)."
    )
    with sv.open_store(corpus, read_only=True) as store:
        papers = PaperSentences(store)
        (obesity,) = store.rows("SELECT paper_id FROM works WHERE title ILIKE '%antenatal%'")
        (mapreduce,) = store.rows("SELECT paper_id FROM works WHERE title ILIKE 'MapReduce%'")
        sentences = papers(obesity["paper_id"])
        found = figure_sentences(claim, papers, [obesity["paper_id"]], set())
        ticks = papers(mapreduce["paper_id"])
    # LIMIT trial (Dodd et al., BMC Medicine 2014), Table 6, p. 14: the parser reads each row
    # of figures as a block of its own; the rows make one line, in the order of the page.
    (table,) = [s for s in sentences if "7010.32 (3950.39)" in s.text]
    assert "359.76 (74.87 to 644.65)" in table.text
    assert table.text.index("6530.19") < table.text.index("265.60 (61.36 to 469.84)")
    # One span gives the claim's figures together, the row and its interval.
    assert "6530.19" in found[0].text and "265.60 (61.36 to 469.84)" in found[0].text
    # The prose around the table stays sentence by sentence.
    assert any(s.text.startswith("cWhere the treatment × time interaction") for s in sentences)
    # MapReduce (Dean and Ghemawat 2004), p. 8: a sentence cut short by the page's figure is
    # no column head of the figure's axis labels.
    cut = [s for s in ticks if "three-line Map function" in s.text]
    assert cut and all("20000" not in s.text for s in cut)


def test_a_claim_joining_four_sentences_of_a_paper_finds_all_its_figures(corpus: Path) -> None:
    from sciverify.entail.quantities import check_numbers
    from sciverify.verify.evidence import PaperSentences
    from sciverify.verify.parts import joint_span

    claim = (
        "Five sharpnose sharks were recovered after 7.7 to 14.0 years at liberty and three "
        "blacknose sharks after 10.9 to 12.8 years, all within 15 km of where they had been "
        "tagged."
    )
    with sv.open_store(corpus, read_only=True) as store:
        (work,) = store.rows("SELECT paper_id FROM works WHERE title ILIKE 'Longevity of%'")
        pool = PaperSentences(store).best(claim, [work["paper_id"]], 12)
    # Longevity of Atlantic Sharpnose and Blacknose Sharks (F1000Research 2014), pp. 2-3:
    # the sharpnose recaptures, the blacknose recaptures and the distance are told apart.
    joined = joint_span(claim, pool)
    assert joined is not None and len(joined[1]) == 4
    assert [f.effect for f in check_numbers(claim, joined[0].text)] == ["ok"] * 5
    three = joint_span(claim, pool, most=3)
    assert three is not None
    assert "partial" in {f.effect for f in check_numbers(claim, three[0].text)}


def test_an_unverifiable_claims_figures_found_in_its_cited_paper(corpus: Path) -> None:
    from sciverify.verify.citations import Source
    from sciverify.verify.claims import Claim
    from sciverify.verify.decision import changed_figure
    from sciverify.verify.evidence import ClaimCheck, PaperSentences

    def check(text: str, paper_id: str) -> ClaimCheck:
        claim = Claim("p_001.c1", "p_001", text, (0, len(text)), numbers=("x",))
        return ClaimCheck(claim, text, sources=[Source("1", "[1]", (paper_id,))])

    with sv.open_store(corpus, read_only=True) as store:
        (work,) = store.rows("SELECT paper_id FROM works WHERE title ILIKE 'MapReduce%'")
        paper = PaperSentences(store)(work["paper_id"])
        pid = work["paper_id"]
        # MapReduce (Dean and Ghemawat 2004), pp. 8-9: both figures are the paper's, in two
        # sentences that state neither the claim nor each other.
        joined = check("The 1764 workers shared about 1800 machines with other jobs.", pid)
        made_up = check("The 1764 workers shared about 2300 machines with other jobs.", pid)
        uncited = check(joined.claim.text, "no-such-paper")
        for c, p in ((joined, paper), (made_up, paper), (uncited, [])):
            changed_figure(c, p)
        assert joined.figures_stated and not made_up.figures_stated
        # A claim citing nothing in the corpus is not looked at.
        assert not uncited.figures_stated


def test_summary_counts_and_timings(results: dict[str, VerifyResult]) -> None:
    s = results["medical_review"].summary
    assert s["paragraphs"] == len(results["medical_review"].paragraphs)
    assert s["skipped_non_claims"] >= 2  # "In this review we ..." and the question
    assert set(s["seconds"]) >= {"segment", "claims", "retrieve", "entail", "layers", "total"}
    assert set(s["cards_by_status"]) == {
        "supported",
        "partially_supported",
        "contradicted",
        "unverifiable",
    }
    assert sum(s["paragraphs_by_risk"].values()) == s["paragraphs"]
    assert s["models"]["embedding"] and s["models"]["entailment"]
    text = (DRAFTS / "medical_review.md").read_text()
    for p in results["medical_review"].paragraphs:
        assert text[p.span[0] : p.span[1]] == p.text


def test_log_run_writes_the_runs_table(
    corpus: Path, results: dict[str, VerifyResult], tmp_path: Path
) -> None:
    copy = tmp_path / "c"
    shutil.copytree(corpus, copy)
    with sv.open_store(copy) as store:
        logged = log_run(store, results["ecology_review"], sv.load_settings(corpus=copy))
        row = store.rows("SELECT * FROM runs WHERE run_id = ?", [logged.run_id])[0]
    assert row["command"] == "verify" and row["input_hash"] == logged.draft_sha256
    output = json.loads(row["output"])
    assert output["run_id"] == logged.run_id
    assert len(output["paragraphs"]) == len(logged.paragraphs)
    assert json.loads(row["retrieved"]) and "entail" in json.loads(row["timings"])


def test_a_corpus_without_index_names_the_command(tmp_path: Path) -> None:
    with sv.open_store(tmp_path / "empty") as store, pytest.raises(StaleIndex) as info:
        verify(
            "Grey seals recognise pen mates.",
            store=store,
            settings=sv.load_settings(corpus=tmp_path / "empty"),
        )
    assert "sciverify index" in (info.value.hint or "")


def test_a_draft_in_another_language_is_refused(corpus: Path) -> None:
    text = (
        "Die Welpen wurden in zwei Gruppen gehalten und die Versuche wurden täglich mit "
        "allen Tieren durchgeführt.\n\nDie Ergebnisse zeigen, dass die Tiere sich an ihre "
        "Nachbarn erinnern und weniger aggressiv sind als gegenüber Fremden.\n"
    )
    with sv.open_store(corpus, read_only=True) as store, pytest.raises(InputError) as info:
        verify(text, store=store, settings=sv.load_settings(corpus=corpus), source="de.md")
    assert "German" in str(info.value) and "English" in (info.value.hint or "")


class _Counting:
    """The real bundled model, counting its calls and batch sizes."""

    def __init__(self) -> None:
        from sciverify.entail import load_entailer

        self._inner = load_entailer("bundled")
        self.name = self._inner.name
        self.calls: list[int] = []

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int = 32
    ) -> list[EntailProbs]:
        self.calls.append(len(pairs))
        return self._inner.predict(pairs, batch_size=batch_size)


def test_a_long_draft_runs_in_bounded_batches(corpus: Path) -> None:
    base = sv.load_settings(corpus=corpus)
    cfg = VerifySettings(batch_claims=40, k_cited=0, k_open=2, max_pairs_per_claim=2)
    settings = (
        base.model_copy(update={"verify": cfg})
        if "verify" in type(base).model_fields
        else _WithVerify(base, cfg)
    )
    paragraph = (
        "Pups performed {n} more checks during stranger trials than during familiar "
        "trials. Transitions are easy. In this section we look at item {n}.\n\n"
    )
    text = "".join(paragraph.format(n=n) for n in range(100)) + "Simple words only here.\n" * 400
    counting = _Counting()
    started = time.perf_counter()
    with sv.open_store(corpus, read_only=True) as store:
        result = verify(text, store=store, settings=settings, entailer=counting)
    assert time.perf_counter() - started < 240
    assert result.summary["claims"] >= 200 and result.summary["skipped_non_claims"] >= 100
    checked = result.summary["checked_claims"]
    assert len(counting.calls) == -(-checked // 40) and max(counting.calls) <= 40 * 2 + 3 * 200


class _WithVerify:
    """Settings with a `verify` block, until the global Settings carries one."""

    def __init__(self, base: Any, cfg: VerifySettings) -> None:
        self._base = base
        self.verify = cfg

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def test_a_claim_its_cited_paper_never_addresses_points_into_that_paper(corpus: Path) -> None:
    # The MapReduce paper is in the corpus and cited; nothing in it is about lunch menus.
    draft = (
        "# Notes\n\nDevelopers at Google enjoyed the lunch menu on Fridays, according to the "
        "authors (Dean and Ghemawat, 2004).\n\n## References\n\nDean, J., Ghemawat, S. "
        "MapReduce: Simplified Data Processing on Large Clusters. 2004.\n"
    )
    settings = sv.load_settings(corpus=corpus)
    with sv.open_store(corpus, read_only=True) as store:
        result = verify(draft, store=store, settings=settings, source="notes.md")
    (card,) = [c for p in result.paragraphs for c in p.cards if c.layer == "fact"]
    assert (card.status, card.finding) == ("unverifiable", "no_evidence")
    # Not "add the source": the source is there; the card names where to start reading.
    assert "The cited paper is in the corpus" in card.suggested_action
    assert "closest sentence is at MapReduce" in card.suggested_action
    assert "add the source" not in card.suggested_action
