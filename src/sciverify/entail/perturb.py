"""Rule-based edits of real sentences that change (or keep) what they claim.

Each function returns the edited sentence, or None when the edit does not apply. Choices
are made from a hash of the sentence and `seed`, so the same call gives the same edit.
Labels when the edited sentence is read as a hypothesis against the original as premise:

- contradiction: perturb_number, perturb_unit, perturb_negation, perturb_direction, perturb_entity
- neutral: perturb_drop_condition, perturb_add_statistic
- entailment: paraphrase_light
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from sciverify.records import Label


def _pick(sentence: str, seed: int, n: int, salt: str) -> int:
    digest = hashlib.sha256(f"{salt}|{seed}|{sentence}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % max(n, 1)


def _match_case(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


# A number standing on its own: not part of an identifier such as COVID-19, IL-6 or CD4.
_NUMBER = re.compile(r"(?<![\w.\-/])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w\-])")


def _is_year(text: str) -> bool:
    return len(text) == 4 and text.isdigit() and 1900 <= int(text) <= 2030


def perturb_number(sentence: str, *, seed: int = 0) -> str | None:
    """Change one stated value (count, percentage, ratio) to a clearly different one."""
    spans = [m for m in _NUMBER.finditer(sentence) if not _is_year(m.group(0))]
    if not spans:
        return None
    m = spans[_pick(sentence, seed, len(spans), "number")]
    whole, frac = m.group(1).replace(",", ""), m.group(2) or ""
    value = float(whole + frac)
    factors = (2.0, 3.0, 0.5, 1.5, 4.0)
    factor = factors[_pick(sentence, seed, len(factors), "factor")]
    new = value * factor
    if frac:
        text = f"{new:.{len(frac) - 1}f}"
        if float(text) == value:
            text = f"{value + 10 ** -(len(frac) - 1):.{len(frac) - 1}f}"
    else:
        as_int = round(new)
        if as_int == int(value):
            as_int = int(value) + 1 if value < 2 else int(value) * 2
        text = f"{as_int:,}" if "," in m.group(1) else str(as_int)
    if text == m.group(0):
        return None
    return sentence[: m.start()] + text + sentence[m.end() :]


_UNIT_SWAPS: tuple[tuple[str, str], ...] = (
    ("mg", "g"),
    ("μg", "mg"),
    ("µg", "mg"),
    ("ng", "μg"),
    ("ml", "l"),
    ("mL", "L"),
    ("mm", "cm"),
    ("nm", "μm"),
    ("kg", "g"),
    ("mmol", "mol"),
    ("hours", "days"),
    ("hour", "day"),
    ("days", "weeks"),
    ("day", "week"),
    ("weeks", "months"),
    ("week", "month"),
    ("months", "years"),
    ("month", "year"),
    ("minutes", "hours"),
    ("seconds", "minutes"),
    ("h", "min"),
    ("min", "h"),
    ("fold", "percent"),
)
_UNIT_AFTER_NUMBER = re.compile(
    r"(?<=\d)(\s?)("
    + "|".join(sorted({re.escape(a) for a, _ in _UNIT_SWAPS}, key=len, reverse=True))
    + r")\b"
)


def perturb_unit(sentence: str, *, seed: int = 0) -> str | None:
    """Change the unit that follows a number (mg -> g, days -> weeks), leaving the number."""
    spans = list(_UNIT_AFTER_NUMBER.finditer(sentence))
    if not spans:
        return None
    m = spans[_pick(sentence, seed, len(spans), "unit")]
    swap = dict(_UNIT_SWAPS)
    return sentence[: m.start(2)] + swap[m.group(2)] + sentence[m.end(2) :]


# Verbs common in findings: base form -> (third person singular, past tense).
_VERBS: dict[str, tuple[str, str]] = {
    v: (
        v + ("es" if v.endswith(("s", "sh", "ch")) else "s"),
        v + ("d" if v.endswith("e") else "ed"),
    )
    for v in (
        "increase",
        "decrease",
        "reduce",
        "improve",
        "cause",
        "induce",
        "inhibit",
        "promote",
        "prevent",
        "enhance",
        "affect",
        "alter",
        "predict",
        "protect",
        "suppress",
        "activate",
        "regulate",
        "require",
        "impair",
        "lower",
        "raise",
        "correlate",
        "mediate",
        "block",
        "stimulate",
        "contribute",
        "restore",
        "attenuate",
        "elevate",
        "produce",
        "express",
    )
}
_REMOVE_NEGATION: tuple[tuple[str, str], ...] = (
    (r"\bdoes not (\w+)", "does \\1"),
    (r"\bdo not (\w+)", "do \\1"),
    (r"\bdid not (\w+)", "did \\1"),
    (r"\bis not\b", "is"),
    (r"\bare not\b", "are"),
    (r"\bwas not\b", "was"),
    (r"\bwere not\b", "were"),
    (r"\bcannot\b", "can"),
    (r"\bcould not\b", "could"),
    (r"\bwill not\b", "will"),
    (r"\bhas not\b", "has"),
    (r"\bhave not\b", "have"),
    (r"\bno significant\b", "a significant"),
    (r"\bnot significantly\b", "significantly"),
    (r"\bnon-significant\b", "significant"),
    (r"\bnot associated\b", "associated"),
    (r"\bdoesn't\b", "does"),
    (r"\bdon't\b", "do"),
    (r"\bfailed to\b", "was able to"),
    (r"\bnot\b ", ""),
)
_AUX = re.compile(
    r"\b(is|are|was|were|can|could|may|might|will|has|have|had|should|would)\b(?! not\b)"
)
_VERB_FORMS = {
    f: (base, "does" if f.endswith("s") and f != base else "did")
    for base, (s3, past) in _VERBS.items()
    for f in (s3, past)
}
_VERB_RE = re.compile(
    r"\b(" + "|".join(sorted(_VERB_FORMS, key=len, reverse=True)) + r")\b", re.IGNORECASE
)


def has_negation(sentence: str) -> bool:
    return any(
        re.search(p, sentence, flags=re.IGNORECASE) for p, _ in _REMOVE_NEGATION[:-1]
    ) or bool(re.search(r"\bnot\b|\bno\b|\bnever\b|\bwithout\b", sentence, flags=re.IGNORECASE))


def perturb_negation(sentence: str, *, seed: int = 0) -> str | None:
    """Remove the sentence's first negation, or negate its first auxiliary or finding verb."""
    for pattern, repl in _REMOVE_NEGATION:
        m = re.search(pattern, sentence)
        if m:
            return sentence[: m.start()] + m.expand(repl) + sentence[m.end() :]
    aux, verb = _AUX.search(sentence), _VERB_RE.search(sentence)
    if verb and (not aux or verb.start() < aux.start()):
        base, helper = _VERB_FORMS[verb.group(1).lower()]
        return (
            sentence[: verb.start()]
            + _match_case(f"{helper} not {base}", verb.group(1))
            + sentence[verb.end() :]
        )
    if aux:
        word = aux.group(1)
        neg = "cannot" if word.lower() == "can" else f"{word} not"
        return sentence[: aux.start()] + _match_case(neg, word) + sentence[aux.end() :]
    return None


_DIRECTION_PAIRS: tuple[tuple[str, str], ...] = (
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("increases", "decreases"),
    ("increasing", "decreasing"),
    ("higher", "lower"),
    ("highest", "lowest"),
    ("more", "less"),
    ("greater", "smaller"),
    ("larger", "smaller"),
    ("longer", "shorter"),
    ("faster", "slower"),
    ("better", "worse"),
    ("above", "below"),
    ("positive", "negative"),
    ("positively", "negatively"),
    ("upregulated", "downregulated"),
    ("up-regulated", "down-regulated"),
    ("upregulation", "downregulation"),
    ("up-regulation", "down-regulation"),
    ("upregulates", "downregulates"),
    ("elevated", "reduced"),
    ("gain", "loss"),
    ("rise", "fall"),
    ("maximum", "minimum"),
    ("improved", "worsened"),
    ("improves", "worsens"),
    ("activates", "inhibits"),
    ("activated", "inhibited"),
    ("promotes", "suppresses"),
    ("promoted", "suppressed"),
    ("enhanced", "impaired"),
    ("enhances", "impairs"),
    ("benefit", "harm"),
    ("beneficial", "harmful"),
    ("risk", "protection"),
    ("efficient", "inefficient"),
    ("effective", "ineffective"),
    ("stable", "unstable"),
    ("sensitive", "resistant"),
    ("present", "absent"),
    ("before", "after"),
    ("early", "late"),
)
_DIRECTION_MAP: dict[str, str] = {a: b for a, b in _DIRECTION_PAIRS} | {
    b: a for a, b in _DIRECTION_PAIRS
}
_DIRECTION_RE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _DIRECTION_MAP), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def perturb_direction(sentence: str, *, seed: int = 0) -> str | None:
    """Reverse one direction word: increase <-> decrease, higher <-> lower, more <-> less."""
    spans = list(_DIRECTION_RE.finditer(sentence))
    if not spans:
        return None
    m = spans[_pick(sentence, seed, len(spans), "direction")]
    word = m.group(1)
    return (
        sentence[: m.start()]
        + _match_case(_DIRECTION_MAP[word.lower()], word)
        + sentence[m.end() :]
    )


# Gene / protein / acronym-like names (IL-6, TNF-α, BRCA1, p53, CD4+, mTORC1) and organisms.
_ENTITY_RE = re.compile(
    r"(?<![\w\-])((?:[A-Z][A-Za-z]*\d[\w\-]*|[a-z]{1,2}\d{2,3}|[A-Z]{2,}[a-z]?[A-Z\d\-α-ω]*)\+?)(?![\w\-])"
)
_NOT_ENTITIES = frozenset(
    [
        "CI",
        "OR",
        "HR",
        "RR",
        "SD",
        "SE",
        "SEM",
        "US",
        "USA",
        "UK",
        "EU",
        "DNA",
        "RNA",
        "MRI",
        "CT",
        "PCR",
        "ROC",
        "AUC",
        "BMI",
        "II",
        "III",
        "IV",
        "VI",
        "WHO",
        "HIV",
        "COVID",
        "COVID-19",
        "SARS-CoV-2",
        "NA",
        "ANOVA",
        "IQR",
        "NS",
        "RCT",
        "RCTs",
        "ICU",
        "ID",
        "IDs",
    ]
)
_ORGANISMS = (
    "mice",
    "rats",
    "zebrafish",
    "humans",
    "pigs",
    "dogs",
    "monkeys",
    "rabbits",
    "yeast",
    "flies",
)


def entity_candidates(text: str) -> list[str]:
    """Entity-like names in a text, in first-seen order, for swapping within one abstract."""
    seen: dict[str, None] = {}
    for m in _ENTITY_RE.finditer(text):
        name = m.group(1)
        if name not in _NOT_ENTITIES and len(name) <= 16:
            seen.setdefault(name, None)
    return list(seen)


def perturb_entity(sentence: str, candidates: Sequence[str], *, seed: int = 0) -> str | None:
    """Swap one named entity for another of the same kind (another gene name, another organism)."""
    present = [m for m in _ENTITY_RE.finditer(sentence) if m.group(1) in candidates]
    if present:
        m = present[_pick(sentence, seed, len(present), "entity")]
        others = [c for c in candidates if c != m.group(1) and c.lower() not in sentence.lower()]
        if others:
            new = others[_pick(sentence, seed, len(others), "entity-new")]
            return sentence[: m.start(1)] + new + sentence[m.end(1) :]
    org = re.search(r"\b(" + "|".join(_ORGANISMS) + r")\b", sentence)
    if org:
        others = [o for o in _ORGANISMS if o != org.group(1)]
        new = others[_pick(sentence, seed, len(others), "organism")]
        return sentence[: org.start()] + new + sentence[org.end() :]
    return None


_CONDITIONS = re.compile(
    r",?\s+(?:"
    r"in (?:"
    + "|".join(_ORGANISMS)
    + r"|vitro|vivo|cell culture|cultured cells|animal models?|transgenic \w+)"
    r"|in (?:patients|women|men|children|adults|infants|individuals|subjects|people|participants|elderly|older adults)"
    r"(?: (?:with|who|aged|over|under|from|receiving|treated|undergoing)\b[^,.;]*)?"
    r"|under [^,.;]{0,60}?conditions"
    r"|among [^,.;]{3,60}"
    r"|at (?:high|low) doses?"
    r"|at doses? (?:of|above|below) [^,.;]{1,40}"
    r"|when [^,.;]{3,60}"
    r"|after \d[^,.;]{1,40}"
    r")(?=[,.;]|$)",
    re.IGNORECASE,
)


def perturb_drop_condition(sentence: str, *, seed: int = 0) -> str | None:
    """Drop a scope condition ("in mice", "in patients with ...", "under ... conditions")."""
    spans = [m for m in _CONDITIONS.finditer(sentence)]
    if not spans:
        return None
    m = spans[_pick(sentence, seed, len(spans), "condition")]
    out = (sentence[: m.start()] + sentence[m.end() :]).strip()
    return out if out and out != sentence.strip() and len(out.split()) >= 4 else None


_HAS_STAT = re.compile(r"\bp\s*[<=>]|\bSD\b|±|\b95%|\bCI\b", re.IGNORECASE)
# Only a finite verb ("was reduced", "significantly increased") takes "by N%", not an adjective.
_STAT_VERB = re.compile(
    r"\b(?:was|were|is|are|been|significantly|markedly) (?:increased|decreased|reduced|improved|elevated|lowered|raised|declined)\b",
    re.IGNORECASE,
)


def perturb_add_statistic(sentence: str, *, seed: int = 0) -> str | None:
    """Add an invented statistic (a percentage change, a p-value, an SD) the premise lacks."""
    if _HAS_STAT.search(sentence) or not sentence.strip():
        return None
    body = sentence.rstrip()
    end = body[-1] if body[-1] in ".;!" else ""
    body = body[:-1] if end else body
    k = _pick(sentence, seed, 1000, "stat")
    verb = _STAT_VERB.search(body)
    if verb and "%" not in body and k % 2 == 0:
        return body[: verb.end()] + f" by {12 + k % 61}%" + body[verb.end() :] + end
    number = list(_NUMBER.finditer(body))
    if number and k % 3 == 0:
        m = number[-1]
        sd = max(
            0.1,
            round(float(m.group(1).replace(",", "") + (m.group(2) or "")) * 0.2 + (k % 7) / 10, 1),
        )
        return body[: m.end()] + f" (SD {sd})" + body[m.end() :] + end
    return body + f" (p = 0.0{1 + k % 4})" + end


_PARAPHRASES: tuple[tuple[str, str], ...] = (
    (
        r"^(?:We|Here we|In this study,? we|Our (?:results|data|findings)) (?:found|showed?|demonstrated?|observed|report) that (\w)",
        "\\1",
    ),
    (
        r"^(?:However|Moreover|In addition|Furthermore|Additionally|Thus|Therefore|Overall|Importantly),\s+(\w)",
        "\\1",
    ),
    (r"\s\([A-Z][A-Za-z0-9\-]{1,10}s?\)", ""),
    (r"\bdemonstrated\b", "showed"),
    (r"\bdemonstrates\b", "shows"),
    (r"\butilized\b", "used"),
    (r"\bapproximately\b", "about"),
    (r"\bindividuals\b", "people"),
    (r"\bsubsequently\b", "later"),
    (r"\bsignificantly\s", ""),
    (r"\bin order to\b", "to"),
)


def paraphrase_light(sentence: str, *, seed: int = 0) -> str | None:
    """A meaning-preserving rewrite (drop a lead-in or an abbreviation, a plainer word)."""
    out = sentence
    for pattern, repl in _PARAPHRASES:

        def expand(m: re.Match[str], r: str = repl) -> str:
            return m.expand(r).upper() if r == "\\1" else m.expand(r)

        new = re.sub(
            pattern,
            expand,
            out,
            count=1,
        )
        out = new
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out if out != sentence.strip() else None


# Where a sentence can be cut and keep what it asserts: an appended inference or contrast, a
# second coordinated clause, a non-restrictive relative clause.
_CLAUSE_CUT = re.compile(
    r"(?:;\s+|,\s+(?:and|but|whereas|while|which|thereby|suggesting|indicating|implying|"
    r"consistent with|with\s+(?:a|an|the)\b)\s*)"
)
_PARENTHESIS = re.compile(r"\s+\([^()]{1,120}\)")  # not "E(-/-)": that is part of a name


def perturb_shorten(sentence: str, *, seed: int = 0) -> str | None:
    """The sentence with part of what it says left out: a parenthesis, or everything after a
    clause boundary. It is still entailed: a faithful summary omits detail. (A dropped scope
    condition is not such a cut: that is `perturb_drop_condition`, neutral.)"""
    cuts: list[str] = []
    asides = [m for m in _PARENTHESIS.finditer(sentence) if not _CONDITIONS.search(m.group())]
    for m in asides:
        cuts.append(sentence[: m.start()] + sentence[m.end() :])
    if len(asides) > 1:  # every aside at once
        cuts.append(
            _PARENTHESIS.sub(lambda m: m.group() if _CONDITIONS.search(m.group()) else "", sentence)
        )
    for m in _CLAUSE_CUT.finditer(sentence):
        head, tail = sentence[: m.start()].rstrip(" ,;"), sentence[m.start() :]
        if len(head.split()) >= 4 and not _CONDITIONS.search(tail):
            cuts.append(head + ".")
    cuts = [c.strip() for c in cuts if len(c.split()) >= 5 and c.strip() != sentence.strip()]
    if not cuts:
        return None
    return cuts[_pick(sentence, seed, len(cuts), "shorten")]


# How a review introduces what a paper says; none of them changes what is asserted.
_FRAMES = (
    "The authors report that {}",
    "In this study, {}",
    "The study found that {}",
    "Notably, {}",
    "According to the paper, {}",
    "The results showed that {}",
    "As reported, {}",
    "It was found that {}",
)


def perturb_frame(sentence: str, *, seed: int = 0) -> str | None:
    """The sentence introduced the way a review cites it ("The authors report that ..."):
    words added around a statement, not to it, so it is still entailed. Without such pairs
    every small edit the model sees in training is a contradiction."""
    body = sentence.strip()
    first = body.split(" ", 1)[0]
    if len(body.split()) < 5 or not body[:1].isalpha():
        return None
    # "Smokers were ..." -> "that smokers were ..."; keep "DUSP4", "FGF21", "Kaplan-Meier".
    if first[:1].isupper() and first[1:].islower() and first.isalpha():
        body = body[0].lower() + body[1:]
    return _FRAMES[_pick(sentence, seed, len(_FRAMES), "frame")].format(body)


CONTRADICTING = ("number", "unit", "negation", "direction", "entity")
NEUTRALISING = ("drop_condition", "add_statistic")
ENTAILING = ("paraphrase", "identity", "shorten", "frame")
LABEL_OF_KIND: dict[str, Label] = (
    {k: Label.contradiction for k in CONTRADICTING}
    | {k: Label.neutral for k in NEUTRALISING}
    | {k: Label.entailment for k in ENTAILING}
)
