"""Deterministic checks of a claim against one evidence span, no model needed.

Each `check_xxx(claim, evidence)` returns `Finding`s: `contradict` (the evidence states
another value, the opposite polarity or direction, another entity of the same kind), `partial`
(a number, entity or condition of one side is missing from the other, or the claim is stated
more strongly than the evidence) or `ok` (a number that agrees). Spans are char offsets into the
claim and the evidence. The checks aim for precision: a `contradict` finding overrides a model's
"entailment" in `decide()`, so each one fires only on clear, local evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sciverify.entail import lexicon as lx
from sciverify.entail.quantities import Quantity, canon_unit, parse_quantities, same_number
from sciverify.records import Finding

# Measurement units specific enough that one shared context word makes two numbers rivals.
_PHYSICAL_UNITS = frozenset(canon_unit(u) for u in (
    "fold", "°C", "mmHg", "mg/kg", "mg/dl", "mmol/l", "ng/ml", "mg", "kg", "g", "µg", "ng", "ml",
    "mm", "cm", "nm", "µm", "kDa", "bp", "kb", "Gy", "mM", "µM", "nM", "Hz", "h", "min", "s",
    "day", "week", "month", "year", "pp",
))

# Claim and evidence must share this share of the claim's content words before a polarity,
# direction, entity swap or dropped condition means anything.
RELATED_OVERLAP = 0.3


def _finding(
    check: str,
    effect: str,
    message: str,
    claim: str,
    evidence: str,
    claim_span: tuple[int, int] | None = None,
    evidence_span: tuple[int, int] | None = None,
) -> Finding:
    return Finding(
        check=check,
        effect=effect,
        message=message,
        claim_span=claim_span,
        evidence_span=evidence_span,
        claim_text=claim[claim_span[0] : claim_span[1]] if claim_span else "",
        evidence_text=evidence[evidence_span[0] : evidence_span[1]] if evidence_span else "",
    )


# --- numbers -------------------------------------------------------------------------------


def check_numbers(claim: str, evidence: str) -> list[Finding]:
    """Numbers, units, percentages, p-values, CIs and sample sizes of the claim vs the evidence."""
    ev = parse_quantities(evidence)
    out: list[Finding] = []
    for q in parse_quantities(claim):
        if q.kind == "p":
            out.append(_check_p(q, [e for e in ev if e.kind == "p"], claim, evidence))
        elif q.kind == "ci":
            out.append(_check_ci(q, [e for e in ev if e.kind == "ci"], claim, evidence))
        elif q.kind == "n":
            out.append(_check_n(q, ev, claim, evidence))
        else:
            out.append(_check_value(q, [e for e in ev if e.kind == "value"], claim, evidence))
    return out


def _same_values(a: Quantity, b: Quantity) -> bool:
    if (a.high is None) != (b.high is None):
        return False
    lows = same_number(a.value, b.value, a.decimals, b.decimals)
    return lows and (a.high is None or same_number(a.high, b.high or 0.0, a.decimals, b.decimals))


def _units_agree(a: str, b: str) -> bool:
    return a == b or not a or not b


def _check_value(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Finding:
    said = q.text_of(claim)

    def f(effect: str, msg: str, e: Quantity | None = None) -> Finding:
        return _finding("number", effect, msg, claim, evidence, q.span, e.span if e else None)

    exact = [e for e in ev if _same_values(q, e)] or _as_range_end(q, ev)
    agreeing = sorted((e for e in exact if _units_agree(q.unit, e.unit)),
                      key=lambda e: -len(q.context & e.context))
    if agreeing:
        e = agreeing[0]
        if q.direction and e.direction and q.direction != e.direction:
            return f("contradict", f"the claim has {said} going {_dir(q.direction)}, the "
                     f"evidence has {e.text_of(evidence)} going {_dir(e.direction)}", e)
        return f("ok", f"{said} matches the evidence", e)
    if exact:
        e = exact[0]
        if {q.unit, e.unit} == {"%", "pp"}:
            return f("partial", f"the claim gives {said}, the evidence {e.text_of(evidence)}: "
                     "percent and percentage points are not the same", e)
        return f("partial", f"{said} in the claim has another unit in the evidence "
                 f"({e.text_of(evidence)})", e)
    # Another value "for the same quantity": same unit (a bare number is never enough) and two
    # shared context words, so "mortality fell 15%" vs "mortality fell 25%" conflicts but
    # "15% of patients" vs "25% response rate" does not.
    need = 2 if q.unit == "%" or q.unit not in _PHYSICAL_UNITS else 1
    rivals = sorted(
        (e for e in ev if q.unit and e.unit == q.unit and len(q.context & e.context) >= need),
        key=lambda e: -len(q.context & e.context),
    )
    if rivals:
        e = rivals[0]
        if e.high is not None and q.high is None and e.value <= q.value <= e.high:
            return f("partial", f"the claim gives {said}, the evidence only the range "
                     f"{e.text_of(evidence)}", e)
        return f("contradict", f"the claim gives {said}, the evidence {e.text_of(evidence)} for "
                 "the same quantity", e)
    return f("partial", f"the number {said} in the claim is not in the evidence")


def _as_range_end(q: Quantity, ev: list[Quantity]) -> list[Quantity]:
    """Evidence that states q's number as one end of a range, or q's range as two numbers
    ("aged 16 to 24" against "aged 16-24 years")."""
    if q.high is None:
        return [e for e in ev if e.high is not None
                and (same_number(q.value, e.value, q.decimals, e.decimals)
                     or same_number(q.value, e.high, q.decimals, e.decimals))]
    lo = [e for e in ev if same_number(q.value, e.value, q.decimals, e.decimals)]
    hi = [e for e in ev if same_number(q.high, e.high if e.high is not None else e.value,
                                       q.decimals, e.decimals)]
    return lo[:1] if lo and hi else []


def _dir(d: int) -> str:
    return "up" if d > 0 else "down"


def _p_consistent(c: Quantity, e: Quantity) -> bool:
    """Whether a claimed p-value statement can hold given the evidence's p-value statement."""
    lo_c, hi_c = _p_interval(c)
    lo_e, hi_e = _p_interval(e)
    if c.comparator == "=" and e.comparator == "=":
        return same_number(c.value, e.value, c.decimals, e.decimals)
    return lo_c < hi_e and lo_e < hi_c


def _p_interval(q: Quantity) -> tuple[float, float]:
    # Open intervals of the p-values a statement allows; "=" is a point widened by its rounding.
    if q.comparator in ("<", "<="):
        return 0.0, q.value + (1e-12 if q.comparator == "<=" else 0.0)
    if q.comparator in (">", ">="):
        return q.value - (1e-12 if q.comparator == ">=" else 0.0), 1.0 + 1e-9
    half = 0.5 * 10.0 ** (-q.decimals)
    return q.value - half, q.value + half


def _check_p(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Finding:
    said = q.text_of(claim)
    if not ev:
        return _finding("number", "partial", f"the claim's {said} is not in the evidence",
                        claim, evidence, q.span)
    for e in ev:
        if _p_consistent(q, e):
            return _finding("number", "ok", f"{said} agrees with {e.text_of(evidence)}",
                            claim, evidence, q.span, e.span)
    e = ev[0]
    return _finding("number", "contradict", f"the claim says {said}, the evidence reports "
                    f"{e.text_of(evidence)}", claim, evidence, q.span, e.span)


def _check_ci(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Finding:
    said = q.text_of(claim)
    same_level = [e for e in ev if e.level == q.level]
    for e in same_level:
        if _same_values(q, e):
            return _finding("number", "ok", f"{said} matches the evidence", claim, evidence,
                            q.span, e.span)
    if len(same_level) == 1:
        e = same_level[0]
        return _finding("number", "contradict", f"the claim gives {said}, the evidence "
                        f"{e.text_of(evidence)}", claim, evidence, q.span, e.span)
    return _finding("number", "partial", f"the claim's {said} is not in the evidence",
                    claim, evidence, q.span)


def _check_n(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Finding:
    said = q.text_of(claim)
    ns = [e for e in ev if e.kind == "n"]
    counts = ns + [e for e in ev if e.kind == "value" and e.high is None and e.unit]
    match = next((e for e in counts if same_number(q.value, e.value, 0, 0)), None)
    if match or (len(ns) > 1 and same_number(q.value, sum(e.value for e in ns), 0, 0)):
        return _finding("number", "ok", f"{said} matches the evidence", claim, evidence, q.span,
                        match.span if match else None)
    if len(ns) == 1:
        return _finding("number", "contradict", f"the claim says {said}, the evidence "
                        f"{ns[0].text_of(evidence)}", claim, evidence, q.span, ns[0].span)
    return _finding("number", "partial", f"the sample size {said} is not in the evidence",
                    claim, evidence, q.span)


# --- negation and polarity -----------------------------------------------------------------

_NOT_NEGATIONS = re.compile(
    r"\b(?:no|not)\s+(?:more|less|later|earlier|fewer|greater|only)\b|\bwhether or not\b|"
    r"\bor without\b|\bnot\s+(?:always|necessarily)\b",
    re.IGNORECASE,
)


def _scopes(text: str) -> list[tuple[tuple[int, int], set[str], list[lx.Word]]]:
    """Each negation cue: the span from cue to scope end, its scope's content stems and words."""
    ws = lx.words(text)
    skip = [m.span() for m in _NOT_NEGATIONS.finditer(text)]
    out = []
    for i, w in enumerate(ws):
        if any(a <= w.start < b for a, b in skip) or _nominal(text, ws, i):
            continue
        if w.lower in lx.NEGATION_PREFIX or w.lower.endswith("n't"):
            scope = _run(text, ws, i, +1)
        elif w.lower in lx.NEGATION_SUFFIX:
            scope = _run(text, ws, i, -1)
        else:
            continue
        stems = lx.content_stems(scope)
        lo = min([w.start] + [s.start for s in scope])
        hi = max([w.end] + [s.end for s in scope])
        out.append(((lo, hi), stems, scope))
    return out


def _nominal(text: str, ws: list[lx.Word], i: int) -> bool:
    """ "Lack of X leads to ...", "in the absence of X": the negation sits in a noun phrase
    (the subject or a condition), not in what the sentence asserts."""
    w = ws[i]
    if w.lower == "lacking" and i > 0 and ws[i - 1].lower not in _AUX:
        return True  # "mice lacking Sirt1": a knockout named, not a negated statement
    if w.lower not in ("lack", "absence"):
        return False
    if w.lower == "lack" and not (i + 1 < len(ws) and ws[i + 1].lower == "of"):
        return False  # "X lacks Y" / "X lack Y": a verb, a real negation
    before = text[max(0, w.start - 12) : w.start].lower()
    at_clause_start = i == 0 or bool(re.search(r"[,;:.(]\s*(?:the\s+|a\s+)?$", before))
    return at_clause_start or before.rstrip().endswith(("in the", "the"))


def _run(text: str, ws: list[lx.Word], i: int, step: int, limit: int = 7) -> list[lx.Word]:
    """Words from ws[i] in one direction until a clause break, at most `limit`."""
    out: list[lx.Word] = []
    j = i
    while len(out) < limit:
        k = j + step
        if not 0 <= k < len(ws):
            break
        gap = text[min(ws[j].end, ws[k].end) : max(ws[j].start, ws[k].start)]
        if re.search(r"[,;:.()]", gap) or ws[k].lower in lx.SCOPE_BREAKERS:
            break
        out.append(ws[k])
        j = k
    return out


def _enough(shared: set[str], scope: set[str]) -> bool:
    # "significant" alone is shared by too many unrelated statements to carry a polarity, and
    # one shared word ("without training") is too little to say the same thing is negated.
    return len(shared - {"significant"}) >= 1 and len(shared) >= 2


def check_negation(claim: str, evidence: str) -> list[Finding]:
    """A polarity mismatch on the content the claim and the evidence share."""
    if lx.overlap(claim, evidence) < RELATED_OVERLAP:
        return []
    c_neg, e_neg = _scopes(claim), _scopes(evidence)
    if bool(c_neg) == bool(e_neg):
        return []
    if e_neg:  # the evidence negates what the claim asserts
        claim_words = lx.words(claim)
        c_stems = lx.content_stems(claim_words)
        for span, stems, _ in e_neg:
            shared = stems & c_stems
            if _enough(shared, stems):
                hits = [w for w in claim_words if w.stem in shared]
                c_span = (min(w.start for w in hits), max(w.end for w in hits))
                return [_finding("negation", "contradict", "the evidence negates what the claim "
                                 f"asserts: {evidence[span[0]:span[1]]!r}", claim, evidence,
                                 c_span, span)]
        return []
    e_words = lx.words(evidence)
    e_stems = lx.content_stems(e_words)
    for span, stems, _ in c_neg:
        shared = stems & e_stems
        if _enough(shared, stems):
            hits = [w for w in e_words if w.stem in shared]
            e_span = (min(w.start for w in hits), max(w.end for w in hits))
            return [_finding("negation", "contradict", f"the claim negates "
                             f"{claim[span[0]:span[1]]!r}, the evidence asserts it", claim,
                             evidence, span, e_span)]
    return []


# --- entities and identifiers --------------------------------------------------------------

_GROUP = re.compile(
    r"\b(?:(?P<kind>group|arm|cohort)\s+(?P<label>[A-Z]\b|\d{1,2}\b|I{1,3}V?\b))|"
    r"\b(?P<role>control|placebo|treatment|treated|intervention|experimental|sham|vehicle)"
    r"[\s-](?:group|arm|cohort)s?\b",
    re.IGNORECASE,
)
# TP53, IL-6, BRCA1, CIFAR-10, ResNet-50, mTOR, miR-21, p53, TNF-α, HIV, ImageNet
_IDENT = re.compile(
    r"(?<![\w-])(?:[A-Z][A-Za-z]*\d[\w-]*[\wα-ω+]?|[A-Z]{2,}[a-z]?(?:-?[\dα-ω]+[A-Za-z]?)?|"
    r"[a-z]{1,3}[A-Z]{2,}[\w-]*|[a-z]\d{2,}|[A-Z][a-z]+[A-Z][\w-]*)(?![\w-])"
)
_HUMAN_WORDS = frozenset(
    "patients participants volunteers women men children adults infants adolescents".split()
)


def _norm_ident(text: str) -> str:
    return re.sub(r"[\s\-‐]", "", text).lower()


def _family(key: str) -> tuple[str, str] | None:
    """'il6' -> ('il', '6'): identifiers that differ only in their number are one family."""
    m = re.fullmatch(r"([a-z]+)(\d+)[a-z]?", key)
    return (m[1], m[2]) if m else None


_SCOPE_SPECIES = re.compile(
    r"\b(?:in|of|from|using|among)\s+(?:[\w-]+\s+){0,2}?(?P<sp>" +
    "|".join(sorted(lx.SPECIES, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def _scoped_species(text: str) -> set[str]:
    """Species named as the scope of a statement ("in mice"), not as a modifier ("human cells")."""
    return {lx.SPECIES[m["sp"].lower()] for m in _SCOPE_SPECIES.finditer(text)}


def _entities(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    """(kind, key, span) for species, groups and identifiers in a text."""
    out = []
    for w in lx.words(text):
        if w.lower in lx.SPECIES:
            out.append(("species", lx.SPECIES[w.lower], (w.start, w.end)))
    for m in _GROUP.finditer(text):
        key = (m["kind"] + " " + m["label"]).lower() if m["kind"] else m["role"].lower()
        out.append(("group", key.replace("treated", "treatment"), m.span()))
    for m in _IDENT.finditer(text):
        ident = m.group().rstrip("-")
        out.append(("identifier", _norm_ident(ident), (m.start(), m.start() + len(ident))))
    return out


def _species_of(text: str) -> set[str]:
    found = {key for kind, key, _ in _entities(text) if kind == "species"}
    if any(w.lower in _HUMAN_WORDS for w in lx.words(text)):
        found.add("human")
    return found


def _spelled_out(acronym: str, evidence: str) -> bool:
    """Whether the evidence spells the acronym out (BMI: "body mass index")."""
    if not re.fullmatch(r"[A-Z]{2,6}s?", acronym):
        return False
    letters = acronym.rstrip("s").lower()
    ws = [w for w in lx.words(evidence) if w.lower not in ("of", "and", "the", "in", "for")]
    initials = "".join(w.lower[0] for w in ws)
    return letters in initials


def _word_forms(text: str) -> set[str]:
    """Normalised single words and adjacent pairs, so "IL 6" and "IL-6" both match "il6"."""
    raw = [w.text for w in lx.words(text)]
    ws = [_norm_ident(w) for w in raw]
    parts = {_norm_ident(p) for w in raw for p in re.split(r"[-/]", w) if p}  # "Egr3-defective"
    return set(ws) | parts | {a + b for a, b in zip(ws, ws[1:], strict=False)}


def check_entities(claim: str, evidence: str) -> list[Finding]:
    """Claim entities missing from the evidence (partial) or swapped for another (contradict)."""
    ev_entities = _entities(evidence)
    ev_keys = {(kind, key) for kind, key, _ in ev_entities}
    ev_forms = _word_forms(evidence)
    ev_species = _species_of(evidence)
    related = lx.overlap(claim, evidence) >= RELATED_OVERLAP
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for kind, key, span in _entities(claim):
        if (kind, key) in seen:
            continue
        seen.add((kind, key))
        said = claim[span[0] : span[1]]
        if kind == "species" and key in ev_species or (kind, key) in ev_keys:
            continue
        if kind == "identifier" and (
            key in ev_forms
            or _spelled_out(said, evidence)
            or any(f.startswith(key) and len(f) == len(key) + 1 for f in ev_forms)  # FOXO3A
        ):
            continue
        if kind == "group" and key in evidence.lower():
            continue
        rival = _rival(kind, key, ev_entities, claim, evidence) if related else None
        if kind == "species" and key not in _scoped_species(claim):
            rival = None  # "human embryonic stem cells" tested in mice is not a swap
        if rival is not None:
            r_span = rival[2]
            out.append(_finding("entity", "contradict", f"the claim is about {said!r}, the "
                                f"evidence about {evidence[r_span[0]:r_span[1]]!r}", claim,
                                evidence, span, r_span))
        else:
            out.append(_finding("entity", "partial", f"{said!r} is not mentioned in the evidence",
                                claim, evidence, span))
    return out


def _rival(
    kind: str,
    key: str,
    ev_entities: list[tuple[str, str, tuple[int, int]]],
    claim: str,
    evidence: str,
) -> tuple[str, str, tuple[int, int]] | None:
    """An evidence entity of the same kind, absent from the claim, that takes the claim's place."""
    claim_keys = {k for _, k, _ in _entities(claim)}
    ev_scoped = _scoped_species(evidence) if kind == "species" else set()
    for other in ev_entities:
        o_kind, o_key, _ = other
        if o_kind != kind or o_key in claim_keys:
            continue
        if kind == "group" or (kind == "species" and o_key in ev_scoped):
            return other
        fam, o_fam = _family(key), _family(o_key)
        if fam and o_fam and fam[0] == o_fam[0] and fam[1] != o_fam[1]:
            return other
    return None


# --- hedging strength ----------------------------------------------------------------------


_AUX = frozenset("is are was were be been being has have had".split())


def _adjectival(ws: list[lx.Word], i: int) -> bool:
    """ "confirmed cases", "established risk factors": a label, not a claim of proof."""
    if ws[i].lower not in ("confirmed", "established"):
        return False
    after = ws[i + 1].lower if i + 1 < len(ws) else ""
    before = ws[i - 1].lower if i > 0 else ""
    return before not in _AUX and after != "that"


def _strength(text: str, *, strongest: bool) -> tuple[int, tuple[int, int] | None]:
    """How strongly a text asserts, on the scale in `lexicon.HEDGE_LEVELS`, and the cue's span."""
    ws = lx.words(text)
    cues = [(lx.HEDGE_LEVEL[w.lower], (w.start, w.end)) for i, w in enumerate(ws)
            if w.lower in lx.HEDGE_LEVEL and not _adjectival(ws, i)]
    if not cues:
        return lx.ASSERTION_LEVEL, None
    top = [c for c in cues if c[0] == 4]
    if strongest and top:  # "always", "proves" in a claim overclaim even next to "may"
        return top[0]
    return min(cues)


def check_hedging(claim: str, evidence: str) -> list[Finding]:
    """The claim states more certainty than the evidence does (may -> proves)."""
    if lx.overlap(claim, evidence) < RELATED_OVERLAP:
        return []
    c_level, c_span = _strength(claim, strongest=True)
    e_level, e_span = _strength(evidence, strongest=False)
    if c_level <= e_level:
        return []
    c_word = claim[c_span[0] : c_span[1]] if c_span else "a plain assertion"
    e_word = evidence[e_span[0] : e_span[1]] if e_span else "a plain assertion"
    return [_finding("hedge", "partial", f"the claim is stronger ({c_word!r}) than the evidence "
                     f"({e_word!r})", claim, evidence, c_span, e_span)]


# --- conditions and scope ------------------------------------------------------------------

_SPECIES_WORDS = "|".join(sorted(lx.SPECIES, key=len, reverse=True))
_POPULATION = (
    r"patients|children|adults|women|men|infants|neonates|adolescents|individuals|participants|"
    r"subjects|smokers|survivors|elderly|pregnant women|girls|boys|veterans|volunteers"
)
_CONDITIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("setting", re.compile(r"\bin\s+(?:vitro|vivo|silico|situ)\b", re.IGNORECASE)),
    ("species", re.compile(rf"\b(?:in|of|from|using)\s+(?:[\w-]+\s+){{0,2}}?(?:{_SPECIES_WORDS})\b",
                           re.IGNORECASE)),
    ("population", re.compile(
        rf"\b(?:in|among|for)\s+(?:[\w-]+\s+){{0,3}}?(?:{_POPULATION})"
        r"(?:\s+(?:with|aged|under|over|older than|younger than|who|without)\s+[^,;.()]{1,40})?",
        re.IGNORECASE)),
    ("circumstance", re.compile(r"\bunder\s+(?:[\w-]+\s+){0,3}?conditions\b", re.IGNORECASE)),
    ("dataset", re.compile(r"\bon\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?\s+"
                           r"(?:dataset|benchmark|corpus|data set)s?\b")),
    ("temperature", re.compile(r"\bat\s+-?\d+(?:\.\d+)?\s*[°º]\s?C\b")),
    ("age", re.compile(r"\b(?:aged|under(?: the age of)?|over|older than|younger than)\s+\d+"
                       r"(?:\s*(?:-|–|to)\s*\d+)?\s*(?:years?|months?|yrs?)?(?:\s+of age|\s+old)?",
                       re.IGNORECASE)),
    ("presence", re.compile(r"\bin the (?:presence|absence) of\s+[\w-]+(?:\s+[\w-]+)?",
                            re.IGNORECASE)),
)
_CONFLICTING_SETTINGS = {"vitro", "vivo", "silico"}
_GENERIC = frozenset({"condition", "conditions", "dataset", "benchmark", "corpus", "presence",
                      "absence", "aged", "year", "years", "month", "months", "old", "age"})


def _conditions(text: str) -> list[tuple[str, tuple[int, int], set[str]]]:
    out = []
    for kind, pattern in _CONDITIONS:
        for m in pattern.finditer(text):
            keys = {w.stem for w in lx.words(m.group())
                    if w.lower not in lx.STOPWORDS and w.lower not in _GENERIC}
            if kind in ("age", "temperature"):  # the number is the condition
                keys = set(re.findall(r"\d+(?:\.\d+)?", m.group()))
            out.append((kind, m.span(), keys))
    return out


def _mentions(keys: set[str], stems: set[str]) -> bool:
    # Prefix match: "diabetes" and "diabetic" share a stem only to five letters.
    return any(k in stems or (len(k) >= 5 and any(s[:5] == k[:5] for s in stems)) for k in keys)


def check_conditions(claim: str, evidence: str) -> list[Finding]:
    """Evidence conditions the claim drops (partial) or changes (contradict)."""
    if lx.overlap(claim, evidence) < RELATED_OVERLAP:
        return []
    c_conds = _conditions(claim)
    c_stems = {w.stem for w in lx.words(claim)} | set(re.findall(r"\d+(?:\.\d+)?", claim))
    c_species = _species_of(claim)
    out: list[Finding] = []
    for kind, span, keys in _conditions(evidence):
        if not keys or _mentions(keys, c_stems):
            continue
        said = evidence[span[0] : span[1]]
        same_kind = [c for c in c_conds if c[0] == kind]
        if kind == "species" and c_species:
            continue  # another species in the claim: the entity check reports the swap
        if kind in ("setting", "temperature") and same_kind:
            c_span = same_kind[0][1]
            if kind == "temperature" or (same_kind[0][2] | keys) <= _CONFLICTING_SETTINGS:
                out.append(_finding("condition", "contradict", f"the claim says "
                                    f"{claim[c_span[0]:c_span[1]]!r}, the evidence {said!r}",
                                    claim, evidence, c_span, span))
                continue
        out.append(_finding("condition", "partial", f"the claim drops the evidence's condition "
                            f"{said!r}", claim, evidence, None, span))
    return out


# --- comparatives and direction ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Cue:
    direction: int  # +1 up, -1 down
    span: tuple[int, int]
    before: set[str]  # words just before the cue ("smoking" increases ...)
    after: set[str]  # words just after it (... increases "the risk of lung cancer")
    left: set[str]  # the compared side: "A" in "higher in A than in B", "A" in "A outperforms B"
    right: set[str]  # the compared-to side: "B"


def _directions(text: str) -> list[_Cue]:
    """Every un-negated direction word that is not part of a number ("increased by 20%")."""
    ws = lx.words(text)
    number_spans = [q.span for q in parse_quantities(text)]
    negations = {i for i, w in enumerate(ws) if w.lower in lx.NEGATION_PREFIX
                 or w.lower.endswith("n't")}
    # Word positions of numbers: a cue within two words of one ("increased by 20%", "a 3-fold
    # reduction") is the number check's to compare; so is "more than ten".
    in_number = {k for k, x in enumerate(ws) if any(a <= x.start < b for a, b in number_spans)}
    quantifier = in_number | {k for k, x in enumerate(ws) if x.lower in _NUMBER_WORDS}
    out = []
    for i, w in enumerate(ws):
        d = lx.direction(w.lower)
        if not d or negations & set(range(i - 3, i)):
            continue  # a negated direction is the negation check's business
        if in_number & ({i + 1, i + 2} | {i - 1, i - 2}) or (
            i + 2 < len(ws) and ws[i + 1].lower == "than" and i + 2 in quantifier
        ):
            continue
        after = _run(text, ws, i, +1, limit=4)
        before = _side(_run(text, ws, i, -1, limit=3))
        clause = _run(text, ws, i, +1, limit=16)
        than = next((k for k, x in enumerate(clause) if x.lower == "than"), None)
        left, right = before, set()
        if than is not None:
            right = _side(_run(text, ws, ws.index(clause[than]), +1, limit=4))
            left = _side(clause[:than]) or before  # "higher in A than in B"
        elif w.lower.startswith(_OBJECT_VERBS):  # "A outperforms B"
            right = _side(after)
        out.append(_Cue(d, (w.start, w.end), before, _side(after), left, right))
    return out


_NUMBER_WORDS = frozenset("two three four five six seven eight nine ten twice".split())


def _same_target(a: _Cue, b: _Cue) -> bool:
    """Two direction words act on the same thing: the words on one side of each agree
    ("increases the risk of lung cancer" / "decreases the risk of lung cancer"), or they
    compare the same two sides ("higher in A than in B" / "higher in B than in A")."""
    if a.right and b.right and len((a.left | a.right) & (b.left | b.right)) >= 2:
        return True
    for mine, theirs in ((a.before, b.before), (a.after, b.after)):
        shared = mine & theirs
        if len(shared) >= 2:
            return True
        # One shared word counts when it is all one side has ("slows atherosclerosis" /
        # "accelerates atherosclerosis in mice") and says more than "risk" or "level".
        if shared and shared in (mine, theirs) and not shared <= _GENERIC_TARGETS:
            return True
    return False


_GENERIC_TARGETS = frozenset({"risk", "level", "rate", "expression", "activity", "number",
                              "amount", "effect", "time", "case", "significant", "score"})


def _swapped(a: _Cue, b: _Cue) -> bool:
    """ "A is higher than B" against "B is higher than A": the distinctive words trade sides."""
    if not (a.right and b.right):
        return False
    return bool((a.left - a.right) & (b.right - b.left) and (a.right - a.left) & (b.left - b.right))


def check_comparatives(claim: str, evidence: str) -> list[Finding]:
    """The direction of a change or comparison reversed between claim and evidence."""
    if lx.overlap(claim, evidence) < RELATED_OVERLAP:
        return []
    ev = _directions(evidence)
    out: list[Finding] = []
    for cue in _directions(claim):
        if any(e.direction == cue.direction and _same_target(cue, e) and not _swapped(cue, e)
               for e in ev):
            continue  # the evidence says the same thing somewhere
        for e in ev:
            if _same_target(cue, e) and (e.direction != cue.direction) != _swapped(cue, e):
                out.append(_finding("comparative", "contradict", f"the claim says "
                                    f"{claim[cue.span[0]:cue.span[1]]!r}, the evidence "
                                    f"{evidence[e.span[0]:e.span[1]]!r} about the same thing",
                                    claim, evidence, cue.span, e.span))
                break
    return out


_OBJECT_VERBS = ("outperform", "exceed", "surpass", "beat", "underperform")


def _side(ws: list[lx.Word]) -> set[str]:
    # Keep "A" and "B" in "model A" / "group B": they are what tells the two sides apart.
    return {w.stem for w in ws if (w.lower not in lx.STOPWORDS or w.text.isupper())
            and not lx.direction(w.lower) and w.lower != "than"}


CHECKS: tuple[Callable[[str, str], list[Finding]], ...] = (
    check_numbers, check_negation, check_entities, check_hedging, check_conditions,
    check_comparatives,
)


def run_checks(claim: str, evidence: str) -> list[Finding]:
    """All deterministic checks of `claim` against one evidence span, in a fixed order."""
    return [finding for check in CHECKS for finding in check(claim, evidence)]
