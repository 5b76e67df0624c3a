"""NLI training and evaluation pairs from the shared real data sets.

Every source is split into train / heldout by a stable hash of a group key, so pairs that
share a claim, a cited abstract or a premise never straddle the split. Converters read
each data set's own file format; `write_jsonl` writes the `{"premise", "hypothesis",
"label"}` form that `sciverify eval entail FILE` reads.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sciverify.errors import InputError
from sciverify.records import Label

from . import perturb as pt

Split = Literal["train", "heldout"]
HELDOUT_FRACTION = 0.2
_SPLIT_SALT = "sciverify-nli-v1"


@dataclass(frozen=True, slots=True)
class NLIPair:
    premise: str
    hypothesis: str
    label: Label
    source: str
    split: Split
    pair_id: str


def split_of(group_key: str, *, fraction: float = HELDOUT_FRACTION) -> Split:
    """train or heldout for a group, from a hash that does not depend on order or process."""
    digest = hashlib.sha256(f"{_SPLIT_SALT}|{group_key}".encode()).digest()
    return "heldout" if int.from_bytes(digest[:8], "big") / 2**64 < fraction else "train"


def _need(path: Path) -> Path:
    if not path.is_file():
        raise InputError("data file not found", path=path, hint="check the corpora folder")
    return path


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _overlap(a: str, b: str) -> float:
    wa = set(re.findall(r"\w{3,}", a.lower()))
    wb = set(re.findall(r"\w{3,}", b.lower()))
    return len(wa & wb) / (len(wa) or 1)


# --- SciFact ---------------------------------------------------------------------------


def read_scifact_claims(path: Path) -> list[dict]:
    """The claims of a SciFact claims file (JSONL), in file order."""
    with _need(path).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def read_scifact_corpus(path: Path) -> dict[int, list[str]]:
    """doc_id -> abstract sentences."""
    opener = gzip.open if _need(path).suffix == ".gz" else open
    docs: dict[int, list[str]] = {}
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rec = json.loads(line)
                docs[int(rec["doc_id"])] = [_clean(s) for s in rec["abstract"]]
    return docs


def scifact_groups(claims: list[dict]) -> dict[int, str]:
    """claim id -> group key: claims linked through a shared cited abstract form one group."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in claims:
        docs = [f"d{d}" for d in c.get("cited_doc_ids", [])] + [
            f"d{d}" for d in c.get("evidence", {})
        ]
        for d in docs:
            parent[find(d)] = find(f"c{c['id']}")
        find(f"c{c['id']}")
    members: dict[str, list[str]] = defaultdict(list)
    for node in list(parent):
        members[find(node)].append(node)
    key = {root: min(nodes) for root, nodes in members.items()}
    return {int(c["id"]): "scifact:" + key[find(f"c{c['id']}")] for c in claims}


def scifact_doc_splits(claims: list[dict]) -> dict[int, Split]:
    """The split of every abstract a SciFact claim cites: held out when any held-out claim
    cites it, so that no held-out claim's abstract gives training pairs of another source."""
    groups = scifact_groups(claims)
    splits: dict[int, Split] = {}
    for c in claims:
        split = split_of(groups[int(c["id"])])
        for d in list(c.get("cited_doc_ids", [])) + [int(k) for k in c.get("evidence", {})]:
            if splits.get(int(d)) != "heldout":
                splits[int(d)] = split
    return splits


def read_scifact(
    claims_path: Path,
    corpus_path: Path,
    *,
    neutral_per_claim: int = 2,
    max_neutral_ratio: float = 1.0,
) -> list[NLIPair]:
    """Rationale vs claim (SUPPORT / CONTRADICT) plus capped neutral non-rationale sentences."""
    docs = read_scifact_corpus(corpus_path)
    claims = read_scifact_claims(claims_path)
    groups = scifact_groups(claims)
    labelled: list[NLIPair] = []
    neutral: list[NLIPair] = []
    for c in claims:
        cid, claim = int(c["id"]), _clean(c["claim"])
        split = split_of(groups[cid])
        used: dict[int, set[int]] = defaultdict(set)
        for doc_id, sets in sorted(c.get("evidence", {}).items()):
            sents = docs.get(int(doc_id), [])
            for k, ev in enumerate(sets):
                idx = sorted(ev["sentences"])
                used[int(doc_id)].update(idx)
                premise = " ".join(sents[i] for i in idx if i < len(sents))
                label = Label.entailment if ev["label"] == "SUPPORT" else Label.contradiction
                labelled.append(
                    NLIPair(premise, claim, label, "scifact", split, f"scifact:{cid}:{doc_id}:{k}")
                )
        for doc_id in sorted(int(d) for d in c.get("cited_doc_ids", [])):
            sents = docs.get(doc_id, [])
            free = [i for i in range(len(sents)) if i not in used[doc_id]]
            # The closest unrelated sentence is a hard negative; the next one adds variety.
            ranked = sorted(free, key=lambda i: (-_overlap(claim, sents[i]), i))
            picks = (
                ranked[:1]
                + sorted(ranked[1:], key=lambda i: pt._pick(claim, i, 1 << 30, "nei"))[:1]
            )
            for i in picks[:neutral_per_claim]:
                neutral.append(
                    NLIPair(
                        sents[i],
                        claim,
                        Label.neutral,
                        "scifact",
                        split,
                        f"scifact:{cid}:{doc_id}:n{i}",
                    )
                )
    cap = int(max_neutral_ratio * len(labelled))
    neutral.sort(key=lambda p: hashlib.sha256(p.pair_id.encode()).hexdigest())
    return labelled + sorted(neutral[:cap], key=lambda p: p.pair_id)


def load_scifact(root: Path) -> list[NLIPair]:
    return read_scifact(
        root / "scifact" / "claims_train.jsonl", root / "scifact" / "corpus.jsonl.gz"
    )


_FLIP = {Label.entailment: Label.contradiction, Label.contradiction: Label.entailment}


def scifact_flips(pairs: Iterable[NLIPair]) -> list[NLIPair]:
    """SciFact claims with their polarity reversed, read against the same rationale.

    SciFact's refuted claims were written by negating supported ones, so a negation or a
    reversed direction word flips the gold label both ways: supported -> contradicted and
    contradicted -> supported. This doubles the in-domain signal for the hardest distinction,
    support against contradiction, with the annotators' own rationales.
    """
    out = []
    for p in pairs:
        if p.label not in _FLIP:
            continue
        edited = pt.perturb_negation(p.hypothesis) or pt.perturb_direction(p.hypothesis)
        # A sentence-initial participle read as a verb ("Reduced X is ..." -> "Did not reduce
        # X is ...") gives an ungrammatical claim: skip those.
        if edited and edited != p.hypothesis and not re.match(r"(?:Did|Does|Do) not ", edited):
            out.append(
                NLIPair(
                    p.premise, edited, _FLIP[p.label], "scifact-flip", p.split, p.pair_id + ":flip"
                )
            )
    return out


def load_scifact_flips(root: Path) -> list[NLIPair]:
    return scifact_flips(load_scifact(root))


# --- HealthVer, COVID-Fact, SICK, RTE --------------------------------------------------

_HEALTHVER = {
    "Supports": Label.entailment,
    "Refutes": Label.contradiction,
    "Neutral": Label.neutral,
}


def read_healthver(path: Path) -> list[NLIPair]:
    """HealthVer csv (id, evidence, claim, label); grouped by evidence so no passage leaks."""
    out = []
    with _need(path).open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            premise = _clean(row["evidence"])
            out.append(
                NLIPair(
                    premise,
                    _clean(row["claim"]),
                    _HEALTHVER[row["label"].strip()],
                    "healthver",
                    split_of("healthver:" + premise),
                    f"healthver:{row['id']}",
                )
            )
    return out


def _read_tsv(path: Path) -> list[list[str]]:
    with _need(path).open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows[1:]


def read_covidfact_rte(path: Path) -> list[NLIPair]:
    """COVID-Fact in RTE form. not_entailment rows are counter-claims made by swapping words
    of a true claim, so they contradict the evidence rather than being merely unrelated."""
    out = []
    for row in _read_tsv(path):
        _, premise, hypothesis, label = row[:4]
        premise = _clean(premise)
        lab = Label.entailment if label.strip() == "entailment" else Label.contradiction
        out.append(
            NLIPair(
                premise,
                _clean(hypothesis),
                lab,
                "covidfact",
                split_of("covidfact:" + premise),
                f"covidfact:{path.stem}:{row[0]}",
            )
        )
    return out


def load_covidfact(root: Path) -> list[NLIPair]:
    base = root / "covidfact" / "RTE-covidfact"
    return read_covidfact_rte(base / "train.tsv") + read_covidfact_rte(base / "dev.tsv")


_SICK = {
    "ENTAILMENT": Label.entailment,
    "NEUTRAL": Label.neutral,
    "CONTRADICTION": Label.contradiction,
}


def read_sick(path: Path) -> list[NLIPair]:
    out = []
    for row in _read_tsv(path):
        pid, a, b, _, label = row[:5]
        out.append(
            NLIPair(
                _clean(a),
                _clean(b),
                _SICK[label.strip()],
                "sick",
                split_of("sick:" + _clean(a)),
                f"sick:{pid}",
            )
        )
    return out


def read_rte(path: Path) -> list[NLIPair]:
    """GLUE RTE (0 = entailment, 1 = not_entailment, read as neutral)."""
    out = []
    for row in _read_tsv(path):
        premise, hypothesis, label, idx = row[:4]
        lab = Label.entailment if label.strip() == "0" else Label.neutral
        out.append(
            NLIPair(
                _clean(premise),
                _clean(hypothesis),
                lab,
                "rte",
                split_of("rte:" + _clean(premise)),
                f"rte:{idx}",
            )
        )
    return out


def read_nli_jsonl(path: Path, *, source: str = "jsonl") -> list[NLIPair]:
    """Our own {"premise", "hypothesis", "label"} lines (split is heldout: it is eval data)."""
    out = []
    with _need(path).open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                label = Label(rec["label"])
                out.append(
                    NLIPair(
                        rec["premise"],
                        rec["hypothesis"],
                        label,
                        rec.get("source", source),
                        "heldout",
                        rec.get("pair_id", f"{source}:{n}"),
                    )
                )
            except (KeyError, ValueError) as exc:
                raise InputError(
                    f"line {n}: not an NLI record ({exc})",
                    path=path,
                    hint='each line needs "premise", "hypothesis" and "label" '
                    "(entailment, neutral or contradiction)",
                ) from exc
    return out


# --- perturbations ---------------------------------------------------------------------

_PLAIN: dict[str, Callable[..., str | None]] = {
    "number": pt.perturb_number,
    "unit": pt.perturb_unit,
    "negation": pt.perturb_negation,
    "direction": pt.perturb_direction,
    "drop_condition": pt.perturb_drop_condition,
    "add_statistic": pt.perturb_add_statistic,
    "paraphrase": pt.paraphrase_light,
    "shorten": pt.perturb_shorten,
    "frame": pt.perturb_frame,
}


def perturbation_pairs(
    sentence: str,
    *,
    source: str,
    split: Split,
    pair_id: str,
    entities: list[str],
    premise: str | None = None,
) -> list[NLIPair]:
    """All applicable edits of `sentence`, each read against `premise` (default: the sentence)."""
    base = premise if premise is not None else sentence
    out = []
    # A shortened or framed sentence is entailed by the sentence itself; the same edit of a
    # claim against someone else's evidence is only as sound as the claim, so it is not made.
    edits = {
        kind: fn(sentence)
        for kind, fn in _PLAIN.items()
        if not (kind in ("shorten", "frame") and premise is not None)
    }
    edits["entity"] = pt.perturb_entity(sentence, entities)
    for kind, hyp in edits.items():
        if hyp and hyp != sentence:
            out.append(
                NLIPair(
                    base, hyp, pt.LABEL_OF_KIND[kind], f"perturb-{kind}", split, f"{pair_id}:{kind}"
                )
            )
    return out


def _evidence_sentences(root: Path) -> Iterable[tuple[str, str, Split, str, list[str], str | None]]:
    """(sentence, id, split, origin, entity pool, premise) from SciFact / HealthVer / COVID-Fact."""
    claims_path, corpus_path = (
        root / "scifact" / "claims_train.jsonl",
        root / "scifact" / "corpus.jsonl.gz",
    )
    docs = read_scifact_corpus(corpus_path)
    claims = read_scifact_claims(claims_path)
    groups = scifact_groups(claims)
    seen: set[tuple[int, int]] = set()
    for c in claims:
        split = split_of(groups[int(c["id"])])
        for doc_id, sets in sorted(c.get("evidence", {}).items()):
            sents = docs.get(int(doc_id), [])
            pool = pt.entity_candidates(" ".join(sents))
            for ev in sets:
                for i in sorted(ev["sentences"]):
                    if i < len(sents) and (int(doc_id), i) not in seen:
                        seen.add((int(doc_id), i))
                        yield sents[i], f"scifact-ev:{doc_id}:{i}", split, "scifact", pool, None
                if ev["label"] == "SUPPORT":
                    # Edits of a supported claim, read against its rationale: the realistic case.
                    premise = " ".join(sents[i] for i in sorted(ev["sentences"]) if i < len(sents))
                    yield (
                        _clean(c["claim"]),
                        f"scifact-claim:{c['id']}:{doc_id}",
                        split,
                        "scifact",
                        pool,
                        premise,
                    )
    for p in read_healthver(root / "healthver" / "healthver_dev.csv"):
        if p.label == Label.entailment:
            yield (
                p.hypothesis,
                p.pair_id + ":claim",
                p.split,
                "healthver",
                pt.entity_candidates(p.premise),
                p.premise,
            )
    hv_seen: set[str] = set()
    for p in read_healthver(root / "healthver" / "healthver_dev.csv"):
        if p.premise not in hv_seen:
            hv_seen.add(p.premise)
            sents = [
                s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", p.premise) if len(s.split()) >= 6
            ]
            pool = pt.entity_candidates(p.premise)
            for k, s in enumerate(sents[:3]):
                yield s, f"{p.pair_id}:ev{k}", p.split, "healthver", pool, None
    for p in load_covidfact(root):
        if p.label == Label.entailment:
            yield (
                p.hypothesis,
                p.pair_id + ":claim",
                p.split,
                "covidfact",
                pt.entity_candidates(p.premise),
                p.premise,
            )


def load_perturbations(root: Path, *, per_kind_cap: int = 900) -> list[NLIPair]:
    """Edited real sentences, capped per edit kind so one kind does not dominate."""
    by_kind: dict[str, list[NLIPair]] = defaultdict(list)
    for sentence, sid, split, origin, pool, premise in _evidence_sentences(root):
        if len(sentence.split()) < 4:
            continue
        for p in perturbation_pairs(
            sentence, source=origin, split=split, pair_id=sid, entities=pool, premise=premise
        ):
            by_kind[p.source].append(p)
        if premise is None:
            # The unedited sentence as its own hypothesis: without it, near-copies would only
            # ever be contradictions and the model would learn "small edit means contradiction".
            by_kind["perturb-identity"].append(
                NLIPair(
                    sentence,
                    sentence,
                    Label.entailment,
                    "perturb-identity",
                    split,
                    f"{sid}:identity",
                )
            )
    out: list[NLIPair] = []
    for kind in sorted(by_kind):
        rows = sorted(by_kind[kind], key=lambda p: hashlib.sha256(p.pair_id.encode()).hexdigest())
        cap = per_kind_cap // 3 if kind == "perturb-unit" else per_kind_cap
        out.extend(sorted(rows[:cap], key=lambda p: p.pair_id))
    return out


# --- all sources -----------------------------------------------------------------------

def _title_pairs(root: Path) -> list[NLIPair]:
    from .titles import load_title_pairs  # titles builds on this module's readers

    return load_title_pairs(root)


def _context_pairs(root: Path) -> list[NLIPair]:
    from .context import load_context_pairs

    return load_context_pairs(root)


def _conjoin_pairs(root: Path) -> list[NLIPair]:
    from .context import load_conjoin_pairs

    return load_conjoin_pairs(root)


SOURCES: dict[str, Callable[[Path], list[NLIPair]]] = {
    "scifact": load_scifact,
    "scifact-context": _context_pairs,
    "conjoin": _conjoin_pairs,
    "scifact-flip": load_scifact_flips,
    "scifact-title": _title_pairs,
    "healthver": lambda root: read_healthver(root / "healthver" / "healthver_dev.csv"),
    "covidfact": load_covidfact,
    "sick": lambda root: read_sick(root / "sick" / "SICK_train.txt"),
    "rte": lambda root: read_rte(root / "rte" / "dev.tsv"),
    "perturb": load_perturbations,
}


def load_pairs(
    corpora_root: Path,
    split: Split | Literal["all"] = "train",
    *,
    sources: Iterable[str] | None = None,
) -> list[NLIPair]:
    """Pairs of the chosen sources and split, in a fixed order."""
    names = list(sources) if sources is not None else list(SOURCES)
    unknown = [n for n in names if n not in SOURCES]
    if unknown:
        raise InputError(
            f"unknown NLI source(s): {', '.join(unknown)}", hint=f"choose from {', '.join(SOURCES)}"
        )
    out: list[NLIPair] = []
    for name in names:
        out.extend(
            p for p in SOURCES[name](Path(corpora_root)) if split == "all" or p.split == split
        )
    return out


def write_jsonl(pairs: Iterable[NLIPair], path: Path) -> int:
    """Write {"premise", "hypothesis", "label", "source", "pair_id"} lines; returns the count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(
                json.dumps(
                    {
                        "premise": p.premise,
                        "hypothesis": p.hypothesis,
                        "label": str(p.label),
                        "source": p.source,
                        "pair_id": p.pair_id,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
            n += 1
    return n


def convert_file(path: Path, *, scifact_corpus: Path | None = None) -> list[NLIPair]:
    """Read any supported shared format into pairs, chosen by the file's name and header."""
    path = Path(path)
    name = path.name.lower()
    if name.endswith(".csv"):
        return read_healthver(path)
    if name.startswith("sick") and name.endswith(".txt"):
        return read_sick(path)
    if name.endswith(".tsv"):
        header = _need(path).open(encoding="utf-8").readline().lower().split("\t")
        return read_covidfact_rte(path) if header[:2] == ["index", "sentence1"] else read_rte(path)
    if name.endswith(".jsonl"):
        first = json.loads(_need(path).open(encoding="utf-8").readline() or "{}")
        if "claim" in first and "evidence" in first and isinstance(first["evidence"], dict):
            corpus = scifact_corpus or path.with_name("corpus.jsonl.gz")
            return read_scifact(path, corpus)
        return read_nli_jsonl(path)
    raise InputError(
        "unknown NLI data format",
        path=path,
        hint="use a SciFact claims .jsonl, HealthVer .csv, COVID-Fact/RTE .tsv, SICK .txt "
        'or {"premise","hypothesis","label"} .jsonl',
    )
