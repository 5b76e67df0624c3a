"""Evidence for a question, in tiers, and the extractive answer (no language model).

`gather` runs hybrid search, cuts the hits into sentences, scores each against the question
(lexical coverage from `verify.evidence.relevance`, embedding cosine from the index's own
embedder) and keeps those on topic; each gets a tier (direct, method, limitation, background)
and the condition it holds under. `answer` picks the best direct sentences (a few per paper),
compares papers for the synthesis (agreement, and conflicts shown as conflicts: NLI and the
deterministic checks between findings of different papers, and each finding's stance when the
question is a claim), and says what the corpus does not answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sciverify.ask import Answer, Evidence, Gap, Statement
from sciverify.entail import lexicon as lx

# On-topic gate for a retrieved chunk, calibrated on real data (benchmarks/ask_scifact.py):
# SciFact train claims against the SciFact corpus (in scope) and FEVER claims (Wikipedia topics)
# against it (out of scope). A chunk is on topic when its embedding cosine with the question
# reaches SIMILARITY_MIN and it (with its title) states LEXICAL_MIN of the question's content
# words, or when the cosine alone reaches SIMILARITY_SURE (paraphrases share few words).
# At SIMILARITY_MIN 0.35, 4 of the first 100 FEVER claims got direct findings (their best
# cosines 0.35-0.44, one or two words shared); at 0.45 none did, and the share of the 809
# SciFact claims answered fell from 0.957 to at most 0.938.
LEXICAL_MIN = 0.3
SIMILARITY_MIN = 0.45
SIMILARITY_SURE = 0.5
MAX_PAPERS = 5  # papers in "Direct findings"
PER_PAPER = 2  # sentences per paper in "Direct findings"
PER_TIER = 3  # sentences shown per other tier
MAX_PAIRS = 10  # finding pairs compared for the synthesis
_SKIP_SECTIONS = frozenset({"references", "acknowledgements"})
_BACKGROUND_SECTIONS = frozenset({"introduction", "related_work"})
_TIER_OF_TYPE = {"result": "direct", "method": "method", "limitation": "limitation"}
# Author conclusions are direct findings even without a number or a "significant".
_CONCLUSION = re.compile(
    r"\b(?:in conclusion|we conclude|conclusions?:|taken together|"
    r"(?:these|our) (?:findings|results|data|observations) (?:suggest|indicate|show|demonstrate|"
    r"support|reveal|identify|establish)|"
    r"this (?:study|trial|work|analysis) (?:shows|demonstrates|suggests|indicates|provides))",
    re.IGNORECASE,
)
# Sentences without the chunker's result cues that still report a finding ("X induces Y", "A
# was higher in B"), unless they pose the question or tell what is known. Together these take
# SciFact's relevant abstracts without any direct sentence from 83 of 565 to 25.
_FINDING = re.compile(
    r"\b(?:we (?:show|found|find|observed|demonstrate|identif(?:y|ied)|report|reveal)|"
    r"(?:show|showed|shown|reveal(?:s|ed)?|indicat(?:e|es|ed)|demonstrat(?:e|es|ed)|"
    r"suggest(?:s|ed)?) that|(?:was|were|is|are) (?:significantly |markedly |also )?"
    r"(?:higher|lower|greater|smaller|more|less|elevated|increased|decreased|reduced|"
    r"associated|correlated|required|necessary|sufficient|essential|independent)|"
    r"resulted in|led to|odds|hazard|relative risk|(?:in|de)creas(?:e|es|ing)|"
    r"inhibit(?:s|ed)|induc(?:es|ed)|promot(?:es|ed)|enhanc(?:es|ed)|impair(?:s|ed)|"
    r"abolish(?:es|ed)|prevent(?:s|ed)|predict(?:s|ed))\b",
    re.IGNORECASE,
)
_KNOWN = re.compile(
    r"\b(?:remains? (?:unclear|unknown|elusive|controversial)|is unclear|is unknown|"
    r"(?:poorly|not well|not fully|incompletely) understood|little is known|"
    r"ha(?:s|ve) been (?:shown|reported|suggested|proposed)|previous(?:ly)? (?:studies|work|reports)|"
    r"we (?:investigated|examined|tested|asked|hypothesi[sz]ed|aimed|sought|evaluated)|"
    r"to (?:determine|investigate|examine|assess) whether|the aim|objective)\b",
    re.IGNORECASE,
)
# Structured abstracts label their parts; the label decides.
_LABEL = re.compile(r"^(RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|METHODS?|DESIGN|SETTING|"
                    r"PARTICIPANTS|BACKGROUND|IMPORTANCE|OBJECTIVES?|CONTEXT|INTRODUCTION|AIMS?)"
                    r"\b[:.]?\s")
_LABEL_TIER = {"RESULT": "direct", "FINDINGS": "direct", "CONCLUSION": "direct",
               "INTERPRETATION": "direct", "METHOD": "method", "DESIGN": "method",
               "SETTING": "method", "PARTICIPANTS": "method"}
_SAMPLE = re.compile(r"\b[nN]\s*=\s*\d[\d,]*|\b\d[\d,]* (?:patients|participants|subjects|"
                     r"individuals|women|men|children|adults|mice|rats|cases|samples)\b")


@dataclass(slots=True)
class Pool:
    """The retrieved evidence for one question."""

    question: str
    evidence: list[Evidence] = field(default_factory=list)  # on topic, best first
    hits: list[Any] = field(default_factory=list)  # the retrieved chunks (search Hits)
    chunks: int = 0
    best_lexical: float = 0.0
    best_similarity: float = 0.0
    embedding_model: str = ""

    def tier(self, name: str) -> list[Evidence]:
        return [e for e in self.evidence if e.tier == name]


def on_topic(lexical: float, similarity: float) -> bool:
    """Whether a chunk is about the question (see the constants above)."""
    return similarity >= SIMILARITY_SURE or (
        similarity >= SIMILARITY_MIN and lexical >= LEXICAL_MIN
    )


def tier_of(sentence: str, *, section_kind: str, kind: str) -> str:
    """direct (results, tables, author conclusions), method, limitation or background."""
    from sciverify.chunk import classify_evidence

    if kind == "table":
        return "direct"
    if section_kind in _BACKGROUND_SECTIONS:
        return "background"  # others' results told in an introduction are background here
    label = _LABEL.match(sentence)
    if label:
        return _LABEL_TIER.get(label.group(1).rstrip("S"), "background")
    if _CONCLUSION.search(sentence):
        return "direct"
    found = classify_evidence(sentence, section_kind=section_kind, chunk_kind=kind)
    if found == "background" and _FINDING.search(sentence) and not _KNOWN.search(sentence):
        return "direct"
    return _TIER_OF_TYPE.get(found, "background")


def condition_of(sentence: str, chunk_text: str, title: str | None) -> str:
    """The population, dataset or setting a sentence holds under: stated in the sentence,
    else in its chunk, else in the paper's title; "" when none is stated."""
    from sciverify.entail.mentions import conditions_in

    for text in (sentence, chunk_text, title or ""):
        parts = [words.strip() for _kind, words in conditions_in(text)]
        parts += [m.group() for m in _SAMPLE.finditer(text)]
        seen: list[str] = []
        for p in parts:
            if p and p.lower() not in (s.lower() for s in seen):
                seen.append(p)
        if seen:
            return "; ".join(seen[:3])
    return ""


def _sentences(text: str) -> list[str]:
    from sciverify.chunk import split_sentences

    out = []
    for s, e in split_sentences(text):
        sentence = " ".join(text[s:e].split())
        if len(re.findall(r"[A-Za-z]{2,}", sentence)) >= 4:
            out.append(sentence[:600])
    return out


def gather(question: str, *, store: Any, settings: Any, k: int,
           reranker: str | None = None) -> Pool:
    """Hybrid top-k chunks, their sentences scored, tiered and gated for relevance.

    A sentence's similarity is its chunk's embedding cosine with the question, read from the
    dense index (embedding every sentence anew cost about 4 s a question on two CPU cores).
    """
    from sciverify.search import _indexes, search
    from sciverify.verify.evidence import relevance

    found = search(question, store=store, settings=settings, k=k, reranker=reranker)
    idx = _indexes(store, settings)
    pool = Pool(question, hits=list(found.hits), chunks=len(found.hits),
                embedding_model=idx.embedder.model_id)
    hits = [h for h in found.hits if h.section_kind not in _SKIP_SECTIONS]
    rows = [idx.chunk_to_row[h.chunk_id] for h in hits if h.chunk_id in idx.chunk_to_row]
    cosine: dict[str, float] = {}
    if rows:
        vector = idx.embedder.encode_query(question)
        scores = idx.dense.score_rows(vector, rows).tolist()
        ids = [h.chunk_id for h in hits if h.chunk_id in idx.chunk_to_row]
        cosine = dict(zip(ids, (float(s) for s in scores), strict=True))
    for hit in hits:
        cos = cosine.get(hit.chunk_id, 0.0)
        chunk_lexical = relevance(question, f"{hit.title or ''} {hit.text}")
        pool.best_similarity = max(pool.best_similarity, cos)
        pool.best_lexical = max(pool.best_lexical, chunk_lexical)
        if not on_topic(chunk_lexical, cos):
            continue
        context = frozenset(lx.content_stems(lx.words(f"{hit.title or ''} {hit.text}")))
        prior = 1 / (1 + (hit.rank - 1) / 5)
        for sentence in dict.fromkeys(_sentences(hit.text)):
            lexical = relevance(question, sentence, context)
            pool.evidence.append(Evidence(
                chunk_id=hit.chunk_id, paper_id=hit.paper_id, title=hit.title, year=hit.year,
                section=hit.section, section_kind=hit.section_kind, page=hit.page,
                source=hit.source,
                tier=tier_of(sentence, section_kind=hit.section_kind, kind=hit.kind),
                text=sentence, condition=condition_of(sentence, hit.text, hit.title),
                lexical=round(lexical, 4), similarity=round(cos, 4),
                score=round(0.4 * lexical + 0.4 * cos + 0.2 * prior, 4), rank=hit.rank,
            ))
    pool.evidence.sort(key=lambda e: (-e.score, e.rank, e.chunk_id, e.text))
    return pool


# ---------------------------------------------------------------------------- the answer


def pick_direct(pool: Pool) -> list[Evidence]:
    """The best direct sentences: up to PER_PAPER from each of the MAX_PAPERS best papers."""
    per_paper: dict[str, list[Evidence]] = {}
    for e in pool.tier("direct"):
        mine = per_paper.setdefault(e.paper_id, [])
        if len(per_paper) > MAX_PAPERS and not mine:
            per_paper.pop(e.paper_id)
            continue
        if len(mine) < PER_PAPER:
            mine.append(e)
    return [e for items in per_paper.values() for e in items]


def stances(question: str, findings: Sequence[Evidence], *, entailer: Any,
            cfg: Any) -> list[str]:
    """For a claim-like question: does each finding support or contradict it (verify's
    `entail.decide` on the pair)? For a question proper: "" each (NLI needs a statement)."""
    from sciverify.entail import decide

    if not findings or question.rstrip().endswith("?"):
        return ["" for _ in findings]
    probs = entailer.predict([(e.text, question) for e in findings])
    out = []
    for e, p in zip(findings, probs, strict=True):
        status = decide(question, [(e.text, p, e.lexical)], thresholds=cfg.thresholds).status
        out.append({"supported": "supports", "contradicted": "contradicts"}.get(status, ""))
    return out


def conflicts(findings: Sequence[Evidence], *, entailer: Any,
              cfg: Any) -> list[tuple[Evidence, Evidence, str]]:
    """Pairs of findings from different papers that contradict each other, with the reason."""
    from sciverify.entail import run_checks

    pairs = [(a, b) for i, a in enumerate(findings) for b in findings[i + 1:]
             if a.paper_id != b.paper_id and lx.overlap(a.text, b.text) >= lx.RELATED_OVERLAP]
    pairs = pairs[:MAX_PAIRS]
    if not pairs:
        return []
    probs = entailer.predict([(a.text, b.text) for a, b in pairs])
    out = []
    for (a, b), p in zip(pairs, probs, strict=True):
        clash = [f for f in run_checks(b.text, a.text)
                 if f.effect == "contradict" and f.check in ("number", "negation", "comparative")]
        if p.error is None and p.contradiction >= cfg.thresholds.contradict_min:
            out.append((a, b, (f"the entailment model reads them as contradictory "
                               f"(p={p.contradiction:.2f})")))
        elif clash:
            out.append((a, b, clash[0].message))
    return out


def _statement(e: Evidence, part: str = "direct", **extra: Any) -> Statement:
    return Statement(part=part, text=e.text, shown=e.text, citations=(e.chunk_id,),
                     status="supported", confidence=round(e.score, 4), tier=e.tier,
                     condition=e.condition, pages=(e.page,), papers=(e.paper_id,),
                     evidence=(e.text,), **extra)


def _where(e: Evidence) -> str:
    name = e.title or e.paper_id
    return f"{name} ({e.condition})" if e.condition else name


def synthesis(question: str, direct: list[Evidence], *, entailer: Any,
              cfg: Any) -> list[Statement]:
    """Agreement and disagreement between papers; a conflict is its own statement."""
    out: list[Statement] = []
    papers = list(dict.fromkeys(e.paper_id for e in direct))
    # Each paper's best finding speaks for it, so no paper stands on both sides (and one
    # model pass per paper keeps ask fast).
    best = list({e.paper_id: e for e in reversed(direct)}.values())[::-1]
    found = stances(question, best, entailer=entailer, cfg=cfg)
    side_of = {e.paper_id: (st, e) for e, st in zip(best, found, strict=True) if st}
    for side in ("supports", "contradicts"):
        group = [e for st, e in side_of.values() if st == side]
        if group:
            verb = "support" if side == "supports" else "contradict"
            names = "; ".join(f"{_where(e)} {e.marker}" for e in group)
            text = f"{len(group)} paper(s) {verb} the statement asked about: {names}."
            out.append(Statement(
                part="synthesis", text=text, shown=text,
                citations=tuple(e.chunk_id for e in group), status="supported",
                confidence=round(min(e.score for e in group), 4),
                condition=" | ".join(e.condition for e in group if e.condition),
                pages=tuple(e.page for e in group), papers=tuple(e.paper_id for e in group),
                evidence=tuple(e.text for e in group),
            ))
    pro = [e for st, e in side_of.values() if st == "supports"]
    con = [e for st, e in side_of.values() if st == "contradicts"]
    pairs = conflicts(best, entailer=entailer, cfg=cfg)
    if pro and con:
        pairs.insert(0, (pro[0], con[0], ("one supports and one contradicts the statement "
                                          "asked about")))
    shown: set[frozenset[str]] = set()
    for a, b, why in pairs:
        key = frozenset((a.chunk_id + a.text, b.chunk_id + b.text))
        if key in shown:
            continue
        shown.add(key)
        text = (f"Conflict: {_where(a)} reports \u201c{a.text}\u201d {a.marker}, while "
                f"{_where(b)} reports \u201c{b.text}\u201d {b.marker} ({why}).")
        out.append(Statement(
            part="synthesis", text=text, shown=text, citations=(a.chunk_id, b.chunk_id),
            status="contradicted", confidence=round(min(a.score, b.score), 4),
            condition=" | ".join(c for c in (a.condition, b.condition) if c),
            finding="conflict", note="shown as a conflict, not merged into one verdict",
            pages=(a.page, b.page), papers=(a.paper_id, b.paper_id), evidence=(a.text, b.text),
        ))
    if len(papers) == 1:
        e = direct[0]
        text = (f"Only one paper in the corpus reports a direct finding on this: "
                f"{_where(e)} {e.marker}; it is not replicated by another paper here.")
        out.append(Statement(part="synthesis", text=text, shown=text, citations=(e.chunk_id,),
                             status="supported", confidence=round(e.score, 4),
                             condition=e.condition, pages=(e.page,), papers=(e.paper_id,),
                             evidence=(e.text,), finding="single_source"))
    return out


def search_terms(question: str, covered: Sequence[str], limit: int = 6) -> tuple[str, ...]:
    """The question's content words that no evidence states (all of them when none does)."""
    stems = frozenset(s for text in covered for s in lx.content_stems(lx.words(text)))
    terms: list[str] = []
    for w in lx.words(question):
        if w.lower in lx.STOPWORDS or len(w.text) < 3 or w.stem in stems:
            continue
        if w.text.lower() not in (t.lower() for t in terms):
            terms.append(w.text)
    return tuple(terms[:limit])


def gaps(question: str, pool: Pool, direct: list[Evidence]) -> list[Gap]:
    """What the corpus does not answer; never empty when there is no direct finding."""
    if not pool.evidence:
        return [Gap(
            "The corpus does not answer this question: no passage is about it (the best "
            f"passage states {pool.best_lexical:.0%} of the question's content words, the "
            f"closest has embedding similarity {pool.best_similarity:.2f}; on topic means "
            f"{LEXICAL_MIN:.0%} and {SIMILARITY_MIN:.2f}, or {SIMILARITY_SURE:.2f} alone). "
            "Add papers on it, or rephrase.",
            search_terms(question, []),
        )]
    out: list[Gap] = []
    if not direct:
        tiers = sorted({e.tier for e in pool.evidence})
        out.append(Gap(
            "No result, table or author conclusion in the corpus answers this; only "
            f"{', '.join(tiers)} passages mention it, and background never supports a "
            "finding on its own.",
            search_terms(question, []),
        ))
    missing = search_terms(question, [e.text for e in direct])
    if direct and missing:
        out.append(Gap(
            f"No direct finding mentions: {', '.join(missing)}. The answer may not hold "
            "for that part of the question.",
            missing,
        ))
    if pool.tier("limitation"):
        e = pool.tier("limitation")[0]
        out.append(Gap(f"A stated limitation bears on this: \u201c{e.text}\u201d {e.marker}", ()))
    return out


def answer(question: str, pool: Pool, *, settings: Any, entailer: Any) -> Answer:
    """The extractive answer: quoted sentences, each cited, grouped by tier and paper."""
    from sciverify.verify.settings import verify_settings

    cfg = verify_settings(settings)
    direct = pick_direct(pool)
    statements = [_statement(e) for e in direct]
    synth = synthesis(question, direct, entailer=entailer, cfg=cfg) if direct else []
    shown = {id(e) for e in direct}
    others = [e for t in ("method", "limitation", "background")
              for e in pool.tier(t)[:PER_TIER] if id(e) not in shown]
    kept = direct + others
    return Answer(
        question=question, mode="extractive", direct=tuple(statements),
        synthesis=tuple(synth), insufficient=tuple(gaps(question, pool, direct)),
        evidence=tuple(kept), answered=bool(direct),
    )
