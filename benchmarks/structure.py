"""Score the PyMuPDF parser against the ground truth in ``corpora/pdfs_truth``.

Every truth file there names its PDF by file stem. Each format gives what it has:

- GROBID TEI (``.grobid.tei.xml``; ``.header.tei.xml`` is header only): title, authors,
  abstract, section headings, reference count, DOI
- JATS (``.jats.xml``), CERMINE (``.cermine-*.xml``) and BioMed Central (``.bmc-art.xml``):
  title, authors, abstract, headings, reference count, DOI, year
- S2ORC (``.s2orc.json``): title, authors, abstract, headings, reference count
- science-parse (``.metadata.json``: title, authors, year; ``.extraction.json``: title,
  year and lines that must appear in the text)
- docling (``.docling.json``): headings, captions, and page headers that must not be in the body
- papermage (``.papermage.json``): the full text, for token recall

When several files describe one PDF, the publisher's XML wins over extractor output.

Usage:
    python benchmarks/structure.py [--corpora PATH] [--format table|json] [-v] [--only TEXT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TEI = "{http://www.tei-c.org/ns/1.0}"
# Truth source precedence, best first: publisher XML, then curated test expectations, then tools.
PRIORITY = ("jats", "bmc", "cermine", "s2orc", "tei", "sp", "docling", "papermage")
TARGETS = {"title": 0.90, "abstract": 0.85, "headings": 0.75, "references": 0.80}


# ---------------------------------------------------------------- text helpers


def norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.lower()).split())


def similarity(a: str, b: str) -> float:
    a, b = norm(a), norm(b)
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def token_f1(pred: str, truth: str) -> float:
    p, t = tokens(pred), tokens(truth)
    if not p or not t:
        return 0.0
    counts: dict[str, int] = {}
    for w in t:
        counts[w] = counts.get(w, 0) + 1
    common = 0
    for w in p:
        if counts.get(w, 0) > 0:
            counts[w] -= 1
            common += 1
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(t)
    return 2 * precision * recall / (precision + recall)


def token_recall(pred: str, truth: str) -> float:
    have = set(tokens(pred))
    t = tokens(truth)
    return sum(1 for w in t if w in have) / len(t) if t else 0.0


def heading_key(text: str) -> str:
    text = re.sub(r"^\s*(?:[\dIVX]+(?:\.\d+)*\.?|[A-H]\.)\s+", "", text.strip())
    return norm(text)


def clean_heads(heads: list[str]) -> list[str]:
    """Truth headings worth scoring: GROBID sometimes makes heads of formulas and figure labels."""
    out: list[str] = []
    for h in heads:
        h = " ".join(h.split())
        key = heading_key(h)
        if sum(c.isalpha() for c in key) < 4 or re.match(r"^(fig|figure|table)\b", key):
            continue
        if "=" in h or len(h) > 150:
            continue
        out.append(h)
    return out


def surname(name: str) -> str:
    name = name.strip()
    if "," in name:
        name = name.split(",")[0]
    else:
        name = name.split()[-1] if name.split() else ""
    return norm(name)


# ---------------------------------------------------------------- truth readers


def itertext(el: ET.Element | None) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def read_tei(path: Path) -> dict[str, Any]:
    root = ET.parse(path).getroot()
    header = root.find(f"{TEI}teiHeader")
    truth: dict[str, Any] = {}
    title = root.find(f".//{TEI}titleStmt/{TEI}title")
    if title is not None and itertext(title):
        truth["title"] = itertext(title)
    analytic = root.find(f".//{TEI}sourceDesc/{TEI}biblStruct/{TEI}analytic")
    if analytic is not None:
        names = []
        for pers in analytic.findall(f"{TEI}author/{TEI}persName"):
            sn = pers.find(f"{TEI}surname")
            if sn is not None:
                names.append(itertext(sn))
        if names:
            truth["authors"] = names
    idno = root.find(f".//{TEI}sourceDesc//{TEI}idno[@type='DOI']")
    if idno is not None and itertext(idno):
        truth["doi"] = itertext(idno)
    abstract = header.find(f".//{TEI}abstract") if header is not None else None
    if abstract is not None and itertext(abstract):
        truth["abstract"] = itertext(abstract)
    if path.name.endswith(".header.tei.xml"):
        return truth
    body = root.find(f".//{TEI}text/{TEI}body")
    if body is not None:
        heads = [itertext(h) for div in body.iter(f"{TEI}div") for h in div.findall(f"{TEI}head")]
        truth["headings"] = clean_heads(heads)
    back = root.find(f".//{TEI}text/{TEI}back")
    if back is not None:
        truth["references"] = len(back.findall(f".//{TEI}listBibl/{TEI}biblStruct"))
    return truth


def _jats_like(root: ET.Element) -> dict[str, Any]:
    """JATS and CERMINE's JATS-shaped output; only the main article, not sub-articles."""
    truth: dict[str, Any] = {}
    meta = root.find("front/article-meta")
    if meta is None:
        return truth
    title = meta.find("title-group/article-title")
    if title is not None and itertext(title):
        truth["title"] = itertext(title)
    names = []
    for contrib in meta.findall(".//contrib[@contrib-type='author']"):
        sn = contrib.find(".//surname")
        if sn is not None:
            names.append(itertext(sn))
        elif contrib.find("string-name") is not None:
            names.append(itertext(contrib.find("string-name")))
    if names:
        truth["authors"] = names
    abstract = next((a for a in meta.findall("abstract") if not a.get("abstract-type")), None)
    if abstract is not None:
        parts = [itertext(p) for p in abstract.iter() if p.tag in ("p", "title") and itertext(p)]
        text = " ".join(t for t in parts if t.lower() != "abstract")
        if text:
            truth["abstract"] = text
    doi = meta.find("article-id[@pub-id-type='doi']")
    if doi is not None and itertext(doi):
        truth["doi"] = itertext(doi)
    for pub in meta.findall("pub-date"):
        year = pub.find("year")
        if year is not None and itertext(year).isdigit():
            truth["year"] = int(itertext(year))
            break
    body = root.find("body")
    if body is not None:
        truth["headings"] = clean_heads(
            [itertext(s.find("title")) for s in body.iter("sec") if s.find("title") is not None]
        )
    back = root.find("back")
    if back is not None and back.find(".//ref-list") is not None:
        truth["references"] = len(back.findall(".//ref-list/ref"))
    return truth


def read_jats(path: Path) -> dict[str, Any]:
    return _jats_like(ET.parse(path).getroot())


def read_bmc(path: Path) -> dict[str, Any]:
    root = ET.parse(path).getroot()
    truth: dict[str, Any] = {}
    bibl = root.find("fm/bibl")
    if bibl is not None:
        title = bibl.find("title")
        if title is not None:
            truth["title"] = itertext(title)
        names = [
            itertext(au.find("snm")) for au in bibl.findall("aug/au") if au.find("snm") is not None
        ]
        if names:
            truth["authors"] = names
        doi = bibl.find(".//pubid[@idtype='doi']")
        if doi is not None:
            truth["doi"] = itertext(doi)
        year = bibl.find("pubdate")
        if year is not None and itertext(year).isdigit():
            truth["year"] = int(itertext(year))
    abstract = root.find("fm/abs")
    if abstract is not None:
        truth["abstract"] = " ".join(
            itertext(e) for e in abstract.iter() if e.tag in ("st", "p") and itertext(e)
        )
    body = root.find("bdy")
    if body is not None:
        truth["headings"] = clean_heads(
            [itertext(s.find("st")) for s in body.iter("sec") if s.find("st") is not None]
        )
    refs = root.find("bm/refgrp")
    if refs is not None:
        truth["references"] = len(refs.findall("bibl"))
    return truth


def read_cermine(path: Path) -> dict[str, Any]:
    return _jats_like(ET.parse(path).getroot())


def read_s2orc(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    truth: dict[str, Any] = {"title": data.get("title")}
    truth["authors"] = [a["last"] for a in data.get("authors", []) if a.get("last")]
    if data.get("abstract"):
        truth["abstract"] = data["abstract"]
    parse = data.get("pdf_parse", {})
    heads: list[str] = []
    for para in parse.get("body_text", []):
        if para.get("section") and para["section"] not in heads:
            heads.append(para["section"])
    truth["headings"] = clean_heads(heads)
    truth["references"] = len(parse.get("bib_entries", {}))
    return {k: v for k, v in truth.items() if v}


def read_sp(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(errors="replace"))
    truth: dict[str, Any] = {}
    if path.name.endswith(".metadata.json"):
        record = data[0] if isinstance(data, list) else data
        truth["title"] = record.get("title")
        truth["authors"] = [surname(a) for a in record.get("authors", [])]
        if record.get("year"):
            truth["year"] = int(record["year"])
    else:
        lines = []
        for kind, value in data:
            if kind == "title":
                truth["title"] = value
            elif kind == "year":
                truth["year"] = int(value)
            elif kind == "line":
                lines.append(value)
        if lines:
            truth["lines"] = lines
    return {k: v for k, v in truth.items() if v}


def read_docling(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    texts = data.get("texts", [])
    heads = [t["text"] for t in texts if t.get("label") == "section_header"]
    furniture = [t["text"] for t in texts if t.get("label") in ("page_header", "page_footer")]
    captions = [t["text"] for t in texts if t.get("label") == "caption"]
    refs = []
    for cap in captions:
        m = re.match(r"(Figure|Fig\.|Table)\s*(\d+)", cap)
        if m:
            refs.append(("Figure" if m.group(1).startswith("Fig") else "Table") + " " + m.group(2))
    return {"headings": clean_heads(heads), "furniture": furniture, "captions": refs}


def read_papermage(path: Path) -> dict[str, Any]:
    return {"text": json.loads(path.read_text())["symbols"]}


READERS: tuple[tuple[str, str, Callable[[Path], dict[str, Any]]], ...] = (
    (".grobid.tei.xml", "tei", read_tei),
    (".header.tei.xml", "tei", read_tei),
    (".jats.xml", "jats", read_jats),
    (".bmc-art.xml", "bmc", read_bmc),
    (".cermine-metadata.xml", "cermine", read_cermine),
    (".cermine-content.xml", "cermine", read_cermine),
    (".s2orc.json", "s2orc", read_s2orc),
    (".metadata.json", "sp", read_sp),
    (".extraction.json", "sp", read_sp),
    (".docling.json", "docling", read_docling),
    (".papermage.json", "papermage", read_papermage),
)


def load_truth(truth_dir: Path) -> dict[str, dict[str, tuple[Any, str]]]:
    """PDF stem -> field -> (value, source file), best source per field."""
    found: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}
    for path in sorted(truth_dir.iterdir()):
        for suffix, source, reader in READERS:
            if path.name.endswith(suffix):
                stem = path.name[: -len(suffix)]
                found.setdefault(stem, []).append((PRIORITY.index(source), path.name, reader(path)))
                break
    merged: dict[str, dict[str, tuple[Any, str]]] = {}
    for stem, items in found.items():
        fields: dict[str, tuple[Any, str]] = {}
        for _, name, truth in sorted(items):
            for key, value in truth.items():
                if key not in fields and value not in (None, "", []):
                    fields[key] = (value, name)
        merged[stem] = fields
    return merged


# ---------------------------------------------------------------- scoring


def doc_text(doc: Any) -> str:
    parts = [doc.title or "", doc.abstract or ""]
    for s in doc.sections:
        parts.append(s.heading)
        parts.extend(b.text for b in s.blocks)
    return "\n".join(parts)


def score(doc: Any, truth: dict[str, tuple[Any, str]]) -> Iterator[tuple[str, float, bool, str]]:
    """(field, value, passed, detail) for each field the truth has."""
    if "title" in truth:
        sim = similarity(doc.title or "", truth["title"][0])
        yield "title", sim, sim >= 0.9, f"{doc.title!r} vs {truth['title'][0]!r}"
    if "abstract" in truth:
        f1 = token_f1(doc.abstract or "", truth["abstract"][0])
        yield (
            "abstract",
            f1,
            f1 >= 0.8,
            f"{len(doc.abstract or '')} vs {len(truth['abstract'][0])} chars",
        )
    if "headings" in truth and truth["headings"][0]:
        want = truth["headings"][0]
        have = [heading_key(s.heading) for s in doc.sections]
        missed = [h for h in want if not any(_heading_match(heading_key(h), k) for k in have)]
        recall = 1 - len(missed) / len(want)
        yield (
            "headings",
            recall,
            recall >= 0.75,
            f"{len(want) - len(missed)}/{len(want)}; missed {missed[:6]}",
        )
    if "references" in truth and truth["references"][0]:
        n, want_n = len(doc.references), truth["references"][0]
        off = abs(n - want_n) / want_n
        yield "references", 1 - off, off <= 0.15, f"{n} vs {want_n}"
    if "authors" in truth:
        want_s = {
            surname(a) if " " in a.strip() or "," in a else norm(a) for a in truth["authors"][0]
        }
        have_s = {surname(a) for a in doc.authors}
        common = len(want_s & have_s)
        f1 = 2 * common / (len(want_s) + len(have_s)) if want_s and have_s else 0.0
        yield "authors", f1, f1 >= 0.8, f"{sorted(have_s)[:8]} vs {sorted(want_s)[:8]}"
    if "doi" in truth:
        ok = (doc.doi or "").lower() == truth["doi"][0].lower()
        yield "doi", float(ok), ok, f"{doc.doi} vs {truth['doi'][0]}"
    if "year" in truth:
        ok = doc.year == truth["year"][0]
        yield "year", float(ok), ok, f"{doc.year} vs {truth['year'][0]}"
    text = norm(doc_text(doc))
    if "lines" in truth:
        lines = truth["lines"][0]
        hits = sum(1 for ln in lines if norm(ln.rstrip("-")) in text)
        yield "lines", hits / len(lines), hits == len(lines), f"{hits}/{len(lines)}"
    if "text" in truth:
        rec = token_recall(doc_text(doc), truth["text"][0])
        yield "text_recall", rec, rec >= 0.9, f"{rec:.3f}"
    if "furniture" in truth:
        body = [norm(b.text) for s in doc.sections for b in s.blocks]
        left = [
            f for f in truth["furniture"][0] if len(norm(f)) > 3 and any(norm(f) in b for b in body)
        ]
        yield "furniture", float(not left), not left, f"left in body: {left}"
    if "captions" in truth:
        refs = {b.ref for s in doc.sections for b in s.blocks if b.ref}
        want_r = truth["captions"][0]
        hits = sum(1 for r in want_r if r in refs)
        yield "captions", hits / len(want_r), hits == len(want_r), f"{sorted(refs)} vs {want_r}"


def _heading_match(want: str, have: str) -> bool:
    if not want or not have:
        return False
    if want == have or (
        len(want) >= 4 and (have.startswith(want) or want.startswith(have) and len(have) >= 4)
    ):
        return True
    return SequenceMatcher(None, want, have, autojunk=False).ratio() >= 0.85


def run(corpora: Path, only: str | None) -> dict[str, Any]:
    sys.path.insert(0, str(REPO / "src"))
    from sciverify.errors import ParseError
    from sciverify.ingest.pymupdf import parse_pdf

    truth = load_truth(corpora / "pdfs_truth")
    files: dict[str, Any] = {}
    totals: dict[str, list[tuple[float, bool]]] = {}
    heading_counts = [0, 0]
    pages = 0
    elapsed = 0.0
    for stem, fields in sorted(truth.items()):
        if only and only not in stem:
            continue
        pdf = corpora / "pdfs" / f"{stem}.pdf"
        start = time.perf_counter()
        try:
            doc = parse_pdf(pdf)
        except ParseError as exc:
            files[stem] = {"error": str(exc)}
            for field in fields:
                totals.setdefault(_field_name(field), []).append((0.0, False))
            continue
        elapsed += time.perf_counter() - start
        pages += doc.page_count
        rows = {}
        for field, value, passed, detail in score(doc, fields):
            rows[field] = {"value": round(value, 3), "passed": passed, "detail": detail}
            totals.setdefault(field, []).append((value, passed))
            if field == "headings":
                want = len(fields["headings"][0])
                heading_counts[0] += round(value * want)
                heading_counts[1] += want
        files[stem] = {"fields": rows, "sources": sorted({src for _, src in fields.values()})}
    summary = {}
    for field, results in sorted(totals.items()):
        passed = sum(1 for _, ok in results if ok)
        summary[field] = {
            "files": len(results),
            "passed": passed,
            "pass_rate": round(passed / len(results), 3),
            "mean": round(sum(v for v, _ in results) / len(results), 3),
            "target": TARGETS.get(field),
        }
    if heading_counts[1]:
        summary["headings"]["micro_recall"] = round(heading_counts[0] / heading_counts[1], 3)
    return {
        "summary": summary,
        "files": files,
        "pages": pages,
        "pages_per_second": round(pages / elapsed, 1) if elapsed else None,
    }


def _field_name(field: str) -> str:
    return {"text": "text_recall"}.get(field, field)


def render_table(result: dict[str, Any], verbose: bool) -> str:
    out = []
    if verbose:
        for stem, info in result["files"].items():
            out.append(f"{stem}  [{', '.join(info.get('sources', []))}]")
            if "error" in info:
                out.append(f"    ERROR {info['error']}")
                continue
            for field, row in info["fields"].items():
                mark = "ok  " if row["passed"] else "FAIL"
                out.append(f"    {mark} {field:<12} {row['value']:.3f}  {row['detail'][:160]}")
        out.append("")
    out.append(f"{'field':<12} {'files':>5} {'passed':>6} {'rate':>6} {'mean':>6} {'target':>7}")
    for field, row in result["summary"].items():
        target = f"{row['target']:.2f}" if row["target"] is not None else "-"
        out.append(
            f"{field:<12} {row['files']:>5} {row['passed']:>6} {row['pass_rate']:>6.3f} {row['mean']:>6.3f} {target:>7}"
        )
    heads = result["summary"].get("headings", {})
    if "micro_recall" in heads:
        out.append(
            f"headings micro recall (all truth headings together): {heads['micro_recall']:.3f}"
        )
    out.append(f"{result['pages']} pages parsed at {result['pages_per_second']} pages/s")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("-v", "--verbose", action="store_true", help="per-file details")
    parser.add_argument("--only", help="score only PDFs whose stem contains this text")
    args = parser.parse_args(argv)
    if not (args.corpora / "pdfs_truth").is_dir():
        print(f"error: no pdfs_truth folder under {args.corpora}", file=sys.stderr)
        return 2
    result = run(args.corpora, args.only)
    if args.format == "json":
        if not args.verbose:
            result.pop("files")
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render_table(result, args.verbose))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
