"""Numbers in scientific prose: values with units, percentages, folds, ranges, p-values, CIs, n.

`parse_quantities(text)` finds them with their char spans, the direction word attached to each
("increased by 20%", "a 3-fold reduction") and the content words around it, which is how the
number check decides that two numbers describe the same quantity.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from sciverify.entail import lexicon as lx
from sciverify.entail.lexicon import STOPWORDS, Word, direction, stem, words
from sciverify.records import Finding

# "3·1" is how some journals (The Lancet) print 3.1.
# Thousands separated by a comma, an apostrophe ("10’000") or a thin space ("10 000").
_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[’'\u2009\u202f]\d{3})+(?!\d)|\d+)(?:[.·]\d+)?|\.\d+"
# "1.2 × 10^5", "1.2x10-5", "3e-4", "10^6"
_SCI = r"(?:\s*[×xX*]\s*10\s*(?:\^|\*\*)?\s*(?P<exp>[-−–]?\d+)|[eE](?P<exp2>[-+−]?\d+)(?![A-Za-z]))"
_UNITS = (
    r"-(?:months?|weeks?|years?|days?|hours?|minutes?)|"  # "12-month", "5-year"
    r"percentage[\s-]points?|pp\b|percent(?:age)?|per\s?cent|%|[\s-]?fold|°\s?C|º\s?C|"
    r"[×xX](?![A-Za-z0-9])(?!\s*\d)|[KMGTP]i?B(?![A-Za-z])|"  # "1.25x", "2.3 × faster"; "4 GB"
    r"degrees?\s(?:C|Celsius)|mmHg|mmol/[lL]|µmol/[lL]|mg/kg|mg/d[lL]|g/d[lL]|ng/m[lL]|pg/m[lL]|"
    r"µg|μg|ug|mcg|ng|pg|mg|kg|g|m[lL]|µ[lL]|μ[lL]|nm|µm|μm|mm|cm|km|kDa|bp|kb|Gy|mM|µM|μM|nM|"
    r"[kMGT]?H[zZ]|[kMGT]?hz|ms|hours?|hrs?|h|minutes?|mins|min|seconds?|secs|sec|s|days?|d|weeks?|wks?|wk|months?|mo|"
    r"years?|yrs?|y"
)
# What a unit is given per: "g/l", "ng/kg/min", "mg/m2", "mL/min/1.73 m2" up to the number.
_PER = r"(?:[dcmµμn]?[lL](?![A-Za-z])|m[23²³]|kg|mg|g|day|d|hours?|hr|h|min|s|weeks?|wk|years?|yr)"
# An adjective that may stand between a number and what it counts ("20 extra minutes").
_UNIT_ADJECTIVE = r"(?:(?:extra|additional|further)\s+)"
_UNIT_CANON = {
    "percentage point": "pp",
    "percentage points": "pp",
    "pp": "pp",
    "percent": "%",
    "percentage": "%",
    "per cent": "%",
    "percent age": "%",
    "%": "%",
    "fold": "fold",
    "x": "fold",
    "X": "fold",
    "×": "fold",
    "°c": "°C",
    "ºc": "°C",
    "mL": "ml",  # a litre is "l" or "L" alike
    "µL": "µl",
    "dL": "dl",
    "degree c": "°C",
    "degrees c": "°C",
    "degree celsius": "°C",
    "degrees celsius": "°C",
    "hour": "h",
    "hours": "h",
    "hr": "h",
    "hrs": "h",
    "h": "h",
    "minute": "min",
    "minutes": "min",
    "min": "min",
    "second": "s",
    "seconds": "s",
    "sec": "s",
    "secs": "s",
    "mins": "min",
    "s": "s",
    "day": "day",
    "days": "day",
    "d": "day",
    "week": "week",
    "weeks": "week",
    "wk": "week",
    "wks": "week",
    "month": "month",
    "months": "month",
    "mo": "month",
    "year": "year",
    "years": "year",
    "yr": "year",
    "yrs": "year",
    "y": "year",
    "μg": "µg",
    "ug": "µg",
    "mcg": "µg",
    "μl": "µl",
    "μm": "µm",
    "μM": "µM",
    # "2.16Ghz" as a PDF's text layer or an author writes it
    "hz": "Hz",
    "khz": "kHz",
    "Mhz": "MHz",
    "Ghz": "GHz",
    "GHZ": "GHz",
    "Thz": "THz",
}
# "81.1M papers", "12k images", "1.2B tokens": a multiplier glued to a count of things (a
# plural noun or one of these). "0.5M sucrose" is a concentration.
_COUNTED = r"(?:[a-z]+s|model|vocabulary|corpus|dataset|population|cohort)\b"
_VALUE = re.compile(
    rf"(?<![\w.,^/])(?<![A-Za-z]-)(?<!\^[-−])(?P<num>{_NUM})(?:{_SCI})?"
    rf"(?:\s*[-–—]\s*(?P<hi>{_NUM}))?"
    r"(?:\s+(?P<mult>thousand|million|billion)\b|(?P<glued>[kKMB]|bn)(?=\s+" + _COUNTED + r"))?"
    rf"(?:\s*{_UNIT_ADJECTIVE}?(?P<unit>(?:{_UNITS})(?:/{_PER})*)(?![A-Za-z]))?"
    r"(?![\w'’′]|[-‐][A-Za-z]|\.\d|,\d{3})"
)
# "10^6 cells", "10^-27", "10**5", "10⁻²⁷": a power of ten without a mantissa ("1.2 × 10^5" is
# read whole by _VALUE's scientific part).
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_TO_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# "∝10−27", "~106": an exponent a PDF's text layer flattened onto the line. Read as a power of
# ten only where a claim's number may mean it (`flattened_powers`): "105" is also 105.
_AFTER_MATH_SIGN = r"(?:(?<=[∝~∼≈=×^])|(?<=[∝~∼≈=×^]\s))"
_FLAT_POWER = re.compile(_AFTER_MATH_SIGN + r"10(?P<sign>[−-]?)(?P<digits>\d{1,3})(?!\d)")
_POWER = re.compile(
    r"(?<![\w.×xX*])(?<![×xX*]\s)10\s*(?:(?:\^|\*\*)\s*\(?(?P<exp>[-−–]?\d+)\)?|"
    r"(?P<sup>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))(?![\d⁰¹²³⁴⁵⁶⁷⁸⁹])"
)
# "a 10,000-iteration run", "3,000-patient cohorts": a count written as a modifier (a name
# such as "5-HT" or "IL-6" never has a thousands separator).
_COUNT_MODIFIER = re.compile(
    r"(?<![\w.,])(?P<num>\d{1,3}(?:[,’'\u2009\u202f]\d{3})+)[-‐](?P<noun>[A-Za-z]{3,})\b"
)
# "a 10-to-1 reduction", "a 3:1 ratio": one value, the first number over the second.
_RATIO = re.compile(rf"(?<![\w.:])(?P<a>{_NUM})(?:-to-|\s*:\s*)(?P<b>{_NUM})(?![\w:]|\.\d)")
_PVALUE = re.compile(
    rf"\b[pP]\s*(?:-?\s?values?)?\s*(?P<cmp><=|>=|[<>≤≥=]|of|was|is)\s*(?P<num>{_NUM})(?:{_SCI})?"
)
_NVALUE = re.compile(rf"\b[nN]\s*=\s*(?P<num>{_NUM})")
_CI = re.compile(
    rf"(?P<level>\d{{2}}(?:\.\d+)?)\s*%\s*(?:CI|confidence intervals?|C\.I\.)\s*[:,=]?\s*(?:of\s*)?"
    rf"[\[(]?\s*(?P<lo>-?(?:{_NUM}))\s*%?\s*(?:-|–|—|to|,)\s*(?P<hi>-?(?:{_NUM}))(?:\s*%)?"
)  # the bounds of a share may each carry their "%": "95% CI 2.2% to 4.3%"
# A number right after one of these words is a label, not a measurement.
_LABEL_WORDS = frozenset(
    lx.split_words(
        """
        fig figs figure figures table tables ref refs reference eq equation section chapter
        supplementary appendix box panel
        """
    )
)
_MULTIPLIERS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_NAMING_WORDS = frozenset(
    lx.split_words(
        """
        class type grade stage phase exon intron step level site region domain isoform subunit
        receptor serotype genotype version strain group arm lane chapter item
        """
    )
)
_GLUED = {"k": "thousand", "K": "thousand", "M": "million", "B": "billion", "bn": "billion"}
_WORD_FOLD = re.compile(
    r"\b(?P<word>two|three|four|five|six|seven|eight|nine|ten)[\s-]?fold\b", re.IGNORECASE
)
_WORD_VALUES = {
    w: float(i)
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    )
}
_CMP = {
    "<": "<",
    ">": ">",
    "=": "=",
    "≤": "<=",
    "≥": ">=",
    "<=": "<=",
    ">=": ">=",
    "of": "=",
    "was": "=",
    "is": "=",
}


@dataclass(frozen=True, slots=True)
class Quantity:
    kind: str  # value | p | n | ci
    value: float  # the low end for a range or CI
    high: float | None  # the high end of a range or CI
    unit: str  # canonical unit, a following noun's stem ("patient"), or ""
    span: tuple[int, int]
    decimals: int
    comparator: str = "="  # for p-values
    direction: int = 0  # +1 "increased by", -1 "a 20% reduction", 0 none
    context: frozenset[str] = field(default_factory=frozenset)
    level: float | None = None  # CI level, e.g. 95
    approx: bool = False  # "about 40%", "roughly 1,200", "~3 h": a rounded figure
    bound: int = 0  # +1 "more than 90%", "over 500"; -1 "less than 5%", "up to 40%"; -2 "nearly"

    def text_of(self, text: str) -> str:
        return text[self.span[0] : self.span[1]]


def to_float(raw: str, exp: str | None = None) -> float:
    for sep in (",", "’", "'", "\u2009", "\u202f"):
        raw = raw.replace(sep, "")
    value = float(raw.replace("·", ".").replace("−", "-").replace("–", "-"))
    if exp:
        value *= 10.0 ** int(exp.replace("−", "-").replace("–", "-"))
    return value


def decimals_of(raw: str) -> int:
    raw = raw.replace("·", ".")
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def canon_unit(raw: str | None) -> str:
    if not raw:
        return ""
    key = re.sub(r"[\s-]+", " ", raw.strip()).strip().replace("μ", "µ")
    if "/" in key:
        # "mmol/L" is "mmol/l", "g/dL" is "g/dl"; the base keeps its case ("mM" is not "mm").
        base, _, per = key.partition("/")
        return f"{canon_unit(base)}/{per.lower()}"
    return _UNIT_CANON.get(key.lower(), _UNIT_CANON.get(key, key))


def is_physical(unit: str) -> bool:
    """A measurement unit specific enough that one shared context word makes two numbers
    rivals: "mg", "mmHg", and any unit per another ("g/l", "ng/kg/min")."""
    return unit in _PHYSICAL_UNITS or ("/" in unit and unit.partition("/")[0] in _PHYSICAL_UNITS)


def parse_quantities(text: str) -> list[Quantity]:
    """Every number in `text` that reads as a measurement, in text order."""
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    for m in _CI.finditer(text):
        found.append(
            Quantity(
                "ci",
                to_float(m["lo"]),
                to_float(m["hi"]),
                "%" if "%" in text[m.start("lo") : m.end()] else "",
                m.span(),
                max(decimals_of(m["lo"]), decimals_of(m["hi"])),
                level=float(m["level"]),
            )
        )
        taken.append(m.span())
    for m in _PVALUE.finditer(text):
        if free(*m.span()) and m["num"] in ("0", "1") and not (m["exp"] or m["exp2"]):
            # "p = 1", "p < 1", "p = 0": a parameter named p (a probability, a share), which no
            # test reports as its p-value; neither a p-value nor a figure to check.
            taken.append(m.span())
        elif free(*m.span()):
            found.append(
                Quantity(
                    "p",
                    to_float(m["num"], m["exp"] or m["exp2"]),
                    None,
                    "",
                    m.span(),
                    decimals_of(m["num"]),
                    comparator=_CMP[m["cmp"]],
                )
            )
            taken.append(m.span())
    for m in _NVALUE.finditer(text):
        if free(*m.span()):
            found.append(Quantity("n", to_float(m["num"]), None, "", m.span(), 0))
            taken.append(m.span())
    for m in _RATIO.finditer(text):
        below = to_float(m["b"])
        if free(*m.span()) and below and (m.group().count(":") == 0 or m["b"] == "1"):
            value = to_float(m["a"]) / below
            found.append(Quantity("value", value, None, "ratio", m.span(), 2))
            taken.append(m.span())
    for m in _WORD_FOLD.finditer(text):
        found.append(Quantity("value", _WORD_VALUES[m["word"].lower()], None, "fold", m.span(), 0))
        taken.append(m.span())
    for m in _COUNT_MODIFIER.finditer(text):
        if free(*m.span()):
            unit = stem(m["noun"].lower())
            found.append(Quantity("value", to_float(m["num"]), None, unit, m.span(), 0))
            taken.append(m.span())
    for m in _POWER.finditer(text):
        if free(*m.span()):
            value = 10.0 ** int(_power_exponent(m))
            found.append(Quantity("value", value, None, _noun_unit(text, m.end()), m.span(), 0))
            taken.append(m.span())
    for m in _VALUE.finditer(text):
        if not free(*m.span()) or _after_label_word(text, m.start()):
            continue
        if m["glued"] and _after_word(text, m.start(), _NAMING_WORDS):
            continue  # "class 2B drugs", "exon 4B encodes": a name, not 2 billion
        unit = canon_unit(m["unit"]) or _noun_unit(text, m.end())
        scale = _MULTIPLIERS.get(m["mult"] or _GLUED.get(m["glued"] or "", ""), 1.0)
        hi = to_float(m["hi"]) * scale if m["hi"] else None
        value = to_float(m["num"], m["exp"] or m["exp2"]) * scale
        # "1.5 million" is precise to the hundred thousand: -5 decimals.
        decimals = decimals_of(m["num"]) - round(math.log10(scale))
        found.append(Quantity("value", value, hi, unit, m.span(), decimals))
        taken.append(m.span())
    found.sort(key=lambda q: q.span)
    return [_with_surroundings(text, q) for q in _spread_units(text, found)]


# "±", "+/-", and "+−" as some PDFs' text layers write "±".
_PLUS_MINUS = r"±|\+/-|\+\s?[−–-]"
_SPREAD_SIGN = re.compile(rf"\s*(?:{_PLUS_MINUS})\s*")


def _spread_units(text: str, found: list[Quantity]) -> list[Quantity]:
    """A value followed by its spread takes the spread's unit: "11.21 ± 0.74 nM" is 11.21 nM
    (and 0.74 nM), not a bare 11.21 beside 0.74 nM."""
    out = list(found)
    for k in range(len(out) - 1):
        q, spread = out[k], out[k + 1]
        if (
            q.kind == spread.kind == "value"
            and not q.unit
            and spread.unit
            and _SPREAD_SIGN.fullmatch(text[q.span[1] : spread.span[0]])
        ):
            out[k] = replace(q, unit=spread.unit)
    return out


def _power_exponent(m: re.Match[str]) -> str:
    """The exponent of a `_POWER` match, written with ASCII digits and an ASCII minus."""
    exp = m["exp"] or m["sup"].translate(_SUPERSCRIPT)
    return exp.replace("−", "-").replace("–", "-")


def flattened_powers(text: str) -> list[float]:
    """The powers of ten that flattened superscripts in `text` may stand for ("α ∝10−27" for
    10^-27, "xB ∝105" for 10^5), besides the numbers they read as."""
    out = []
    for m in _FLAT_POWER.finditer(text):
        exp = int(m["digits"])
        out.append(10.0 ** (-exp if m["sign"] else exp))
    return out


def _after_label_word(text: str, start: int) -> bool:
    return _after_word(text, start, _LABEL_WORDS)


def _after_word(text: str, start: int, names: frozenset[str]) -> bool:
    before = re.findall(r"[A-Za-z]+", text[max(0, start - 16) : start])
    return bool(before) and before[-1].lower() in names and text[start - 1] in " ."


def _noun_unit(text: str, end: int) -> str:
    """A count noun right after a bare number ("45 patients") acts as its unit."""
    # "20 extra minutes", "12 additional patients": the count's noun follows the adjective.
    m = re.match(rf"\s+{_UNIT_ADJECTIVE}?([a-z][a-z\-]{{2,}})", text[end:])
    if not m or m.group(1) in STOPWORDS - {"patient", "patients"}:
        return ""
    if m.group(1) == "times" and _TIMES_AS_FOLD.match(text, end + m.end()):
        return "fold"  # "2.7 times as often", "3 times higher": the same as "2.7x"
    # "12.1 years-at-liberty", "3 mg-per-day": a unit that opens a compound is the unit.
    head = m.group(1).split("-")[0]
    if head != m.group(1) and len(head) > 1 and _UNIT_WORD.fullmatch(head):
        return canon_unit(head)
    return stem(m.group(1))


_UNIT_WORD = re.compile(rf"(?:{_UNITS})", re.IGNORECASE)
_TIMES_AS_FOLD = re.compile(
    r"\s+(?:as|more|less|fewer|the|that|higher|lower|greater|larger|smaller|faster|slower|"
    r"longer|shorter|better|worse|bigger|wider|stronger|weaker|likelier)\b",
    re.IGNORECASE,
)


def _with_surroundings(text: str, q: Quantity) -> Quantity:
    """Attach the direction word and the content-word context of a quantity."""
    # Stop at a clause break so "X rose 5%, while Y fell 7%" keeps X and Y apart.
    before = words(_clause_tail(text[max(0, q.span[0] - 60) : q.span[0]]))
    after = words(_clause_head(text[q.span[1] : q.span[1] + 40]))
    near = _without_bound(before)[-3:] + after[:2]
    dirn = next((direction(w.lower) for w in reversed(near) if direction(w.lower)), 0)
    ctx = {
        w.stem
        for w in before[-5:] + after[:3]
        if w.lower not in STOPWORDS and not w.lower[0].isdigit() and not direction(w.lower)
    }
    ctx.discard(q.unit)
    approx = q.kind == "value" and bool(_APPROX_BEFORE.search(text, 0, q.span[0]))
    bound = 0
    if q.kind == "value" and q.high is None:
        m = _BOUND_BEFORE.search(text, 0, q.span[0])
        if m is not None:
            bound = 1 if m["above"] or m["above2"] else -2 if m["near"] else -1
    return replace(q, direction=dirn, context=frozenset(ctx), approx=approx, bound=bound)


# "more than 90%", "over 500 patients", "at least 3"; "less than 5%", "up to 40%", "nearly 2".
_BOUND_BEFORE = re.compile(
    r"\b(?:(?P<above>(?:more|greater|higher) than|over|above|exceeding|at least|in excess of)|"
    r"(?P<near>nearly|almost|just under)|"
    r"(?P<below>(?:less|fewer|lower) than|under|below|up to|at most))"
    r"\s+(?:a |an )?$|(?P<above2>>|≥)\s?$|(?P<below2><|≤)\s?$",
    re.IGNORECASE,
)
_BOUND_REACH = 1.5  # how far a bound may lie from the value it states (a factor)


# "about 40%", "roughly 1,200 patients", "~3 h", "some 20 sites": the word right before.
_APPROX_BEFORE = re.compile(
    r"(?:\b(?:approximately|about|around|roughly|some|circa|ca\.)\s+|[~≈∼]\s?)$", re.IGNORECASE
)
_APPROX_SHARE = 0.05  # how far an approximate figure may be from the value it rounds


_BOUND_WORDS = frozenset(["less", "more", "fewer", "greater", "lower", "higher"])


def _without_bound(before: list[Word]) -> list[Word]:
    """The words before a number less a bound on it: "less than (a) 1% increase" is a small
    increase, not a fall; "more than 200 patients" says nothing of a rise."""
    k = 1 if before and before[-1].lower in ("a", "an") else 0
    if (
        len(before) >= k + 2
        and before[-1 - k].lower == "than"
        and before[-2 - k].lower in _BOUND_WORDS
    ):
        return before[: -2 - k]
    return before


def _clause_tail(s: str) -> str:
    # "efavirenz (2.5-fold)": a bracket right before the number does not start a new clause.
    s = s.rstrip()
    s = s[:-1] if s.endswith(("(", "[")) else s
    parts = re.split(r"[;,()\[\]]|\b(?:while|whereas|but|and)\b", s)
    return parts[-1]


def _clause_head(s: str) -> str:
    return re.split(r"[;,()\[\]]|\b(?:while|whereas|but|and)\b", s)[0]


def same_number(a: float, b: float, dec_a: int, dec_b: int) -> bool:
    """The claim's `a` states the evidence's `b`: `b` rounds to `a` at the claim's precision.
    A claim may round (12.5 states 12.46) but not add digits the evidence lacks: 3.9 does not
    state 4, nor 4.2 (an invented decimal); 4.0 does."""
    tol = 0.5 * 10.0 ** (-dec_a)
    if dec_a < 0:  # "1.5 million" states 1,512,340
        return abs(a - b) <= tol
    if abs(a) >= 1e4 or (0 < abs(a) < 1e-3):  # scientific notation: compare relatively
        return abs(a - b) <= 0.005 * max(abs(a), abs(b))
    return abs(a - b) <= tol + 1e-12


def same_order(a: float, b: float) -> bool:
    """`a` and `b` are of one sign and within a factor of ten of each other: a changed figure
    ("192" for 182, "3.8" for 3.2), not another measure that happens to stand in its place."""
    return bool(b) and 0.1 <= a / b <= 10


# Measurement units specific enough that one shared context word makes two numbers rivals.
_PHYSICAL_UNITS = frozenset(
    canon_unit(u)
    for u in lx.split_words(
        """
        fold °C mmHg mg/kg mg/dl mmol/l ng/ml mg kg g µg ng ml mm cm nm µm kDa bp kb Gy mM µM
        nM Hz h min s day week month year pp KB MB GB TB PB KiB MiB GiB TiB
        """
    )
)


# --- the number check ----------------------------------------------------------------------------


# A spread: "± 9", "SD 3.2", "standard error of 0.4" (the number after the cue); "+−0.74" is
# how some PDFs' text layers write "±".
DISPERSION = re.compile(
    rf"(?:\b(?:SDs?|SEM?|IQR)\b|standard (?:deviation|error)|interquartile range|{_PLUS_MINUS})"
    r"\s*(?:of|was|were|=|:)?\s*[-−]?\d[\d.,]*",
    re.IGNORECASE,
)


# "Mean (SD) score: 4.5 (1.2)", "values are mean ± SD": the spreads stand in brackets.
_SPREAD_HEADER = re.compile(r"\((?:SDs?|SEM?|IQR)\)|±\s*(?:SD|SEM?)\b")


def check_numbers(claim: str, evidence: str) -> list[Finding]:
    """Numbers, units, percentages, p-values, CIs and sample sizes of the claim vs the evidence."""
    evidence = _closed_thousands(claim, evidence)
    ev = parse_quantities(evidence)
    ev += [
        w for w in spelled_quantities(evidence) if not any(_overlaps(w.span, e.span) for e in ev)
    ]
    claimed = parse_quantities(claim)
    # A count the claim spells out from eleven up ("another eighty images") is a figure like
    # its digits; the small ones ("two groups", "one of the reasons") are plain words.
    claimed += [
        w
        for w in spelled_counts(claim)
        if w.value > 10 and not any(_overlaps(w.span, c.span) for c in claimed)
    ]
    # A spread the evidence gives none of ("-437 ± 9" against a table's "-437") is invented;
    # matched against the evidence's other numbers it would pass as any "9" there.
    reported = DISPERSION.search(evidence) or _SPREAD_HEADER.search(evidence)
    spreads = [] if reported else [m.span() for m in DISPERSION.finditer(claim)]
    out: list[Finding] = []
    for q in claimed:
        spread = next(((a, b) for a, b in spreads if a <= q.span[0] < b), None)
        if spread is not None:
            out.append(
                lx.finding(
                    "number",
                    "partial",
                    f"the claim gives a spread ({claim[spread[0] : spread[1]]}) that the "
                    "evidence does not report",
                    claim,
                    evidence,
                    q.span,
                    None,
                )
            )
        elif q.kind == "p":
            out.append(_check_p(q, [e for e in ev if e.kind == "p"], claim, evidence))
        elif q.kind == "ci":
            out.append(
                _check_ci(q, [e for e in ev if e.kind == "ci"], claim, evidence, claimed, ev)
            )
        elif q.kind == "n":
            out.append(_check_n(q, ev, claim, evidence))
        else:
            values = [e for e in ev if e.kind == "value"]
            # "the 147 cases" against "(n = 147)": a count the evidence gives as a sample size.
            counted = [e for e in ev if e.kind == "n" and _same_values(q, e)]
            if counted and not is_physical(q.unit) and q.unit != "%":
                values = counted + values
            found = _check_value(q, values, claimed, claim, evidence)
            bound = None if found.effect == "ok" else _interval_bound(q, ev)
            if bound is not None:
                # "(82%, 70% to 89%)" against "82% [95% CI, 70%-89%]": a bound of an interval
                found = lx.finding(
                    "number",
                    "ok",
                    f"{q.text_of(claim)} matches the evidence",
                    claim,
                    evidence,
                    q.span,
                    bound.span,
                )
            out.append(found)
    return out


def _interval_bound(q: Quantity, ev: Sequence[Quantity]) -> Quantity | None:
    """The evidence's interval one of whose bounds the claim's value `q` gives as written:
    the same unit, and a share or a decimal, not a rounded whole number ("4 years" is no
    bound of "95% CI, -0.84 to 4.39 points")."""
    if q.approx or q.bound or not (q.unit == "%" or q.decimals >= 1):
        return None
    return next(
        (
            e
            for e in ev
            if e.kind == "ci"
            and e.high is not None
            and e.unit == q.unit
            and any(abs(q.value - end) < 1e-9 for end in (e.value, e.high))
        ),
        None,
    )


_SPELLED = {
    w: float(i)
    for i, w in enumerate(
        lx.split_words(
            """zero one two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
        )
    )
} | {
    w: 10.0 * i
    for i, w in enumerate(lx.split_words("thirty forty fifty sixty seventy eighty ninety"), 3)
}
_SPELLED_COUNT = re.compile(
    rf"\b(?P<tens>{'|'.join(k for k, v in _SPELLED.items() if v >= 20)})-"
    rf"(?P<ones>{'|'.join(k for k, v in _SPELLED.items() if 1 <= v <= 9)})\b|"
    rf"\b(?P<word>{'|'.join(_SPELLED)})\b(?=\s+[A-Za-z])",
    re.IGNORECASE,
)


def spelled_counts(text: str) -> list[Quantity]:
    """Counts a paper spells out before a noun ("Seven infants were randomized", "twenty-five
    sites"), for matching a claim's digits; read on the evidence side only, where "one of the
    reasons" never has to be found."""
    out = []
    for m in _SPELLED_COUNT.finditer(text):
        if m["word"]:
            value = _SPELLED[m["word"].lower()]
        else:
            value = _SPELLED[m["tens"].lower()] + _SPELLED[m["ones"].lower()]
        out.append(
            _with_surroundings(
                text, Quantity("value", value, None, _noun_unit(text, m.end()), m.span(), 0)
            )
        )
    return out


# Shares a paper writes in words: "half of", "two-thirds of", "one in five".
_FRACTIONS = {
    "half": 50.0,
    "a third": 100 / 3,
    "one third": 100 / 3,
    "one-third": 100 / 3,
    "two thirds": 200 / 3,
    "two-thirds": 200 / 3,
    "a quarter": 25.0,
    "one quarter": 25.0,
    "one-quarter": 25.0,
    "three quarters": 75.0,
    "three-quarters": 75.0,
}
_SPELLED_SHARE = re.compile(
    rf"\b(?P<frac>{'|'.join(sorted(_FRACTIONS, key=len, reverse=True))})\s+of\b|"
    r"\bone\s+in\s+(?P<den>two|three|four|five|six|seven|eight|nine|ten|\d{1,3})\b",
    re.IGNORECASE,
)


def spelled_shares(text: str) -> list[Quantity]:
    """Shares a paper writes in words, as percentages: "half of" 50%, "one in five" 20%. The
    claim's "48%" does not state "half of"; only a claim that rounds alike does (50%, 33%)."""
    out = []
    for m in _SPELLED_SHARE.finditer(text):
        if m["frac"]:
            value = _FRACTIONS[m["frac"].lower()]
        else:
            den = m["den"].lower()
            value = 100.0 / (_SPELLED[den] if den in _SPELLED else float(den))
        out.append(_with_surroundings(text, Quantity("value", value, None, "%", m.span(), 0)))
    return out


def spelled_quantities(text: str) -> list[Quantity]:
    """The shares and counts a paper writes in words (`spelled_shares`, `spelled_counts`)."""
    return [*spelled_shares(text), *spelled_counts(text)]


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


# A claim's count of thousands, written with commas or without: "10,395", "10395".
_CLAIM_THOUSANDS = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d{4,6})(?![\d]|[.,]\d)")


def _closed_thousands(claim: str, evidence: str) -> str:
    """The evidence with the number glitches of PDF text layers mended where the claim shows
    what was meant: "1, 000" (a space after a thousands comma) for the claim's 1,000 and for
    round thousands (a list such as "12, 345 patients" stays two numbers), "2e76" for the
    claim's range 2 to 76. The text keeps its length, so spans still point into the original."""
    for number in set(re.findall(r"\b\d{1,3}(?:,\d{3})+\b", claim)):
        spaced = r"\b" + r",\s".join(re.escape(g) for g in number.split(",")) + r"\b"
        evidence = re.sub(spaced, lambda m: m.group().replace(" ", "") + " ", evidence)
    # "10 395" in a table (a space for the thousands separator) for the claim's 10,395 or 10395.
    for number in set(re.findall(_CLAIM_THOUSANDS, claim)):
        digits = number.replace(",", "")
        groups = [digits[: len(digits) % 3 or 3]]
        groups += [digits[i : i + 3] for i in range(len(groups[0]), len(digits), 3)]
        spaced = r"(?<![\d.,])" + r" ".join(groups) + r"(?![\d.,]?\d)"
        evidence = re.sub(spaced, lambda m: m.group().replace(" ", "") + " ", evidence)
    # "ranging in age from 2e76 years": a PDF font that maps the en dash of "2–76" to "e".
    for lo, hi in re.findall(r"\b(\d+)\s*(?:-|–|—|to)\s*(\d+)\b", claim):
        evidence = re.sub(rf"\b{lo}e{hi}\b", f"{lo}–{hi}", evidence)
    # "α ∝10−27 (xB ∝105)": superscript exponents flattened onto the line, for the claim's
    # 10^-27 and 10^5. A minus sign (U+2212) right after the 10 marks an exponent; an unsigned
    # one is read so only after a mathematical sign ("∝105", "~ 106"), never "105 patients".
    for m in _POWER.finditer(claim):
        exp = _power_exponent(m)
        digits = exp.lstrip("-")
        if exp.startswith("-"):
            pattern = rf"(?<![\w.])10−{digits}(?!\d)"
        else:
            pattern = rf"{_AFTER_MATH_SIGN}10{digits}(?!\d)"
        # Every match starts at the "10"; the superscript keeps the text's length.
        evidence = re.sub(pattern, "10" + exp.translate(_TO_SUPERSCRIPT), evidence)
    # "100, 000 sentences": a group of three zeros after a comma is a thousands group anyway.
    return re.sub(r"\b\d{1,3}(?:,\s000)+\b", lambda m: m.group().replace(" ", "") + " ", evidence)


def _same_values(a: Quantity, b: Quantity) -> bool:
    if (a.high is None) != (b.high is None):
        return False
    if a.approx and a.high is None and not b.approx:
        # "about 40%" states 41.2%; "about 40%" against "about 44%" are two roundings.
        return abs(a.value - b.value) <= _APPROX_SHARE * abs(b.value)
    if a.bound and not b.bound and b.high is None and a.value > 0 and b.value > 0:
        # "more than 90%" states 93.5%, "up to 40%" states 38%, within a factor of 1.5: a
        # bound that far off ("more than 5" for 5,000) misleads although it holds.
        if a.bound > 0:
            return a.value <= b.value <= _BOUND_REACH * a.value
        if a.bound == -2:  # "nearly 40%": just below it
            return (1 - _APPROX_SHARE) * a.value <= b.value <= a.value
        return a.value / _BOUND_REACH <= b.value <= a.value
    lows = same_number(a.value, b.value, a.decimals, b.decimals)
    return lows and (a.high is None or same_number(a.high, b.high or 0.0, a.decimals, b.decimals))


def _units_agree(a: str, b: str) -> bool:
    """The same unit, or one left unsaid, or one that says per what and the other not
    ("10 mg/kg/day" against "10 mg/kg daily"); "g/l" against "g/dl" is another unit."""
    return a == b or not a or not b or a.startswith(f"{b}/") or b.startswith(f"{a}/")


# Time units in days: "12 months" states "one year", "3 weeks" states "21 days".
_DAYS = {"s": 1 / 86400, "min": 1 / 1440, "h": 1 / 24, "day": 1.0, "week": 7.0}
_DAYS |= {"month": 365.25 / 12, "year": 365.25}


_POINTS = ("pp", "point", "points")  # units of a difference of percentages
_ABSOLUTE = re.compile(r"\babsolute(?:ly)?\b", re.IGNORECASE)
_ABSOLUTE_REACH = 40  # characters before a percentage (and half as many after) read for "absolute"


def _absolute_percent(points: Quantity, percent: Quantity, text: str) -> bool:
    """`points` ("2.3 points", "2.3 percentage points") against a percentage that `text` calls
    an absolute change ("drops by an absolute margin of 2.3% on F1", "2.3% absolute"): a
    difference of percentages, given in points either way."""
    if points.unit not in _POINTS or percent.unit != "%":
        return False
    a, b = percent.span
    return bool(_ABSOLUTE.search(text, max(0, a - _ABSOLUTE_REACH), b + _ABSOLUTE_REACH // 2))


def _equal_duration(q: Quantity, e: Quantity) -> bool:
    """The evidence's duration equals the claim's, in another time unit (within 2%)."""
    if q.unit not in _DAYS or e.unit not in _DAYS or q.unit == e.unit:
        return False
    if q.high is not None or e.high is not None:
        return False
    days = q.value * _DAYS[q.unit]
    return abs(e.value * _DAYS[e.unit] - days) <= 0.02 * days


def _taken(e: Quantity, q: Quantity, claimed: list[Quantity], ev: list[Quantity]) -> bool:
    """Whether the claim's other numbers state every value of the evidence like `e` (its value
    in its unit), leaving none to `q`."""
    mine = sum(1 for c in claimed if c is not q and c.unit == e.unit and _same_values(c, e))
    theirs = sum(1 for x in ev if x.unit == e.unit and _same_values(x, e))
    return mine >= theirs > 0


def _check_value(
    q: Quantity, ev: list[Quantity], claimed: list[Quantity], claim: str, evidence: str
) -> Finding:
    said = q.text_of(claim)

    def f(effect: str, msg: str, e: Quantity | None = None) -> Finding:
        return lx.finding("number", effect, msg, claim, evidence, q.span, e.span if e else None)

    exact = (
        [e for e in ev if _same_values(q, e)]
        or _as_range_end(q, ev)
        or [e for e in ev if _equal_duration(q, e)]
    )
    # A ratio ("7-to-1", "7:1") is written as one; a bare 7 in a table is no ratio.
    exact = [e for e in exact if (q.unit == "ratio") == (e.unit == "ratio")]
    agreeing = sorted(
        (e for e in exact if _units_agree(q.unit, e.unit) or _equal_duration(q, e)),
        key=lambda e: -len(q.context & e.context),
    )
    if agreeing:
        e = agreeing[0]
        if q.direction and e.direction and q.direction != e.direction:
            return f(
                "contradict",
                f"the claim has {said} going {_dir(q.direction)}, the "
                f"evidence has {e.text_of(evidence)} going {_dir(e.direction)}",
                e,
            )
        return f("ok", f"{said} matches the evidence", e)
    # An evidence value that another number of the claim states in its own unit is that
    # number's: "12% ethyl acetate ... (8 mg)" against "12% ethyl acetate gave 12 mg" leaves
    # 12 mg to the 8 mg, not to the 12% (unless the evidence gives the 12% more often).
    exact = [e for e in exact if e.unit == q.unit or not _taken(e, q, claimed, ev)]
    if exact:
        e = exact[0]
        if _absolute_percent(q, e, evidence) or _absolute_percent(e, q, claim):
            return f(
                "ok",
                f"{said} matches the evidence ({e.text_of(evidence)}): an absolute change "
                "in percent is a change in points",
                e,
            )
        if {q.unit, e.unit} == {"%", "pp"}:
            return f(
                "partial",
                f"the claim gives {said}, the evidence {e.text_of(evidence)}: "
                "percent and percentage points are not the same",
                e,
            )
        if not any(is_physical(u) or u == "%" for u in (q.unit, e.unit)):
            # Two count nouns ("95 patients" / "95 respondents"): the same count, named in
            # other words; what is counted is the entity and condition checks' business.
            return f("ok", f"{said} matches the evidence ({e.text_of(evidence)})", e)
        # "5 hours" against "5 minutes": the unit itself was changed.
        changed = is_physical(q.unit) and is_physical(e.unit)
        return f(
            "contradict" if changed else "partial",
            f"{said} in the claim has another unit in the evidence ({e.text_of(evidence)})",
            e,
        )
    ratio = _ratio_as_change(q, ev, claim, evidence)
    if ratio is not None:
        return f(
            "ok",
            f"{said} is the change that the ratio {ratio.text_of(evidence)} states",
            ratio,
        )
    # Another value "for the same quantity": same unit (a bare number is never enough) and two
    # shared context words, so "mortality fell 15%" vs "mortality fell 25%" conflicts but
    # "15% of patients" vs "25% response rate" does not.
    need = 2 if q.unit == "%" or not is_physical(q.unit) else 1
    # An evidence value that another number of the claim restates is accounted for: in "up to
    # 1.25x, and 1.11x on average" against "up to 1.25x", 1.11x is unreported, not a rival.
    rivals = sorted(
        (
            e
            for e in ev
            if q.unit
            and e.unit == q.unit
            and len(q.context & e.context) >= need
            and not any(c is not q and _same_values(c, e) for c in claimed)
        ),
        key=lambda e: -len(q.context & e.context),
    )
    if rivals:
        e = rivals[0]
        if e.high is not None and q.high is None and e.value <= q.value <= e.high:
            return f(
                "partial",
                f"the claim gives {said}, the evidence only the range {e.text_of(evidence)}",
                e,
            )
        return f(
            "contradict",
            f"the claim gives {said}, the evidence {e.text_of(evidence)} for the same quantity",
            e,
        )
    row = _table_cell(q, ev, claimed, evidence)
    if row is not None:
        e, label = row
        return f(
            "contradict",
            f"the claim gives {said} where the evidence's row {label!r} has {e.text_of(evidence)}",
            e,
        )
    slot = _same_slot(q, ev, claimed, claim, evidence) or _series_slot(q, ev, claimed)
    if slot is not None:
        return f(
            "contradict",
            f"the claim gives {said} where the evidence has {slot.text_of(evidence)}",
            slot,
        )
    named = _named_in(q, claim, evidence)
    if named:
        return f("ok", f"{said} is part of a name ({named!r}) that the evidence also has")
    share = _as_share(q, ev)
    if share is not None:
        return f("ok", f"{said} is the share {share.text_of(evidence)} as a percentage", share)
    part = _share_of_counts(q, claimed)
    if part:
        return f("ok", f"{said} is {part}, counts that the claim gives")
    worked = _worked_out(q, evidence)
    if worked:
        return f("ok", f"{said} is {worked} in the evidence")
    return f("partial", f"the number {said} in the claim is not in the evidence")


def _as_share(q: Quantity, ev: list[Quantity]) -> Quantity | None:
    """The evidence's share for the claim's percentage or the other way round: "an accuracy
    of 92.3%" against "an accuracy of 0.923", "a recall of 0.81" against "recall 81%". The
    two name the same measure (a shared context word): a table's cells hold many shares, and
    one of them would match almost any percentage."""
    if q.high is not None:
        return None
    for e in ev:
        if e.high is not None or e.kind != "value" or not q.context & e.context:
            continue
        if {q.unit, e.unit} != {"%", ""}:
            continue
        fraction = e if q.unit == "%" else q
        if not (0 < fraction.value <= 1 and fraction.decimals >= 2):
            continue
        (a, dec_a), (b, dec_b) = _in_percent(q), _in_percent(e)
        if same_number(a, b, dec_a, dec_b):
            return e
    return None


def _in_percent(x: Quantity) -> tuple[float, int]:
    """A percentage's value and decimals, or a fraction's as a percentage (0.923 -> 92.3, 1)."""
    return (x.value, x.decimals) if x.unit == "%" else (100 * x.value, x.decimals - 2)


# "520 of the 1,000 participants", "520/1000", "520 out of 1000"; "from 120 ms to 80 ms".
_N = r"(\d[\d,]*(?:\.\d+)?)"
_OF = re.compile(rf"(?<![\d.,]){_N}\s*(?:of(?: the)?|out of|/)\s*{_N}(?![\d.,]*\d)")
_FROM_TO = re.compile(
    rf"\bfrom\s+{_N}\s*(?P<u1>%|[^\W\d]{{0,6}})\s+(?:to|down to|up to)\s+{_N}\s*"
    r"(?P<u2>%|[^\W\d]{0,6})"
)


def _worked_out(q: Quantity, evidence: str) -> str:
    """The claim's figure worked out from two the evidence pairs: a percentage of "520 of
    the 1,000 participants" (52%), the change of "from 120 ms to 80 ms" (40 ms, or 33% as a
    relative change). Only pairs written as one phrase count, so that no two unrelated figures
    of a table combine by chance."""
    if q.high is not None or q.kind != "value":
        return ""
    if q.unit == "%":
        for m in _OF.finditer(evidence):
            if _is_share(q, to_float(m[1]), to_float(m[2])):
                return f"{m[1]} of {m[2]}"
    for m in _FROM_TO.finditer(evidence):
        a, b = to_float(m[1]), to_float(m[3])
        unit = canon_unit(m["u1"] or m["u2"])
        change = abs(b - a)
        if a and q.unit == "%" and same_number(q.value, 100 * change / a, q.decimals, 9):
            return f"the relative change from {m[1]} to {m[3]}"
        points = unit == "%" and q.unit in _POINTS  # "rose by 10 points"
        if (q.unit == unit and q.unit != "%" or points) and same_number(
            q.value, change, q.decimals, 9
        ):
            return f"the change from {m[1]} to {m[3]}"
    return ""


def _share_of_counts(q: Quantity, claimed: list[Quantity]) -> str:
    """The claim's percentage worked out from two of its own counts ("190 of the 287 women
    (66%) declined"): checked through those counts, not looked for in the evidence."""
    if q.unit != "%" or q.high is not None:
        return ""
    counts = [
        c
        for c in claimed
        if c is not q
        and c.kind in ("value", "n")
        and c.unit != "%"
        and c.decimals == 0
        and c.value > 0
        and c.high is None
    ]
    for part in counts:
        for whole in counts:
            if _is_share(q, part.value, whole.value):
                return f"{part.value:g} of {whole.value:g}"
    return ""


def _is_share(q: Quantity, part: float, whole: float) -> bool:
    """The claim's percentage `q` is `part` of `whole`, at the claim's precision."""
    return 0 < part < whole and same_number(q.value, 100 * part / whole, q.decimals, 9)


# The names of a hazard, risk, rate or odds ratio ("HR", "aOR", "relative risk").
RATIO_NAMES = (
    r"\b(?:a?HRs?|RRs?|a?ORs?|IRR|(?:hazard|risk|rate|odds|incidence rate) ratios?|"
    r"relative risks?)\b"
)
_RATIO_BEFORE = re.compile(RATIO_NAMES + r"[^.;\d]{0,24}$")
_ABOUT = re.compile(r"\b(?:approximately|about|around|roughly|nearly|almost|some)\b|~|≈")


def _ratio_as_change(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Quantity | None:
    """ "Reduced the risk by 50%" stated as "HR 0.50", "raised the odds by 32%" as "OR 1.32":
    the evidence's hazard, risk or odds ratio is one minus (or plus) the claim's percentage."""
    if q.unit != "%" or q.high is not None or not 0 < q.value < 100:
        return None
    ways = {lx.direction(w.lower) for w in lx.words(claim)} - {0}
    if len(ways) != 1:
        return None
    expected = 1 + ways.pop() * q.value / 100
    slack = 0.006 + (0.025 if _ABOUT.search(claim) else 0.0)
    for e in ev:
        if (
            e.kind == "value"
            and not e.unit
            and e.high is None
            and abs(e.value - expected) <= slack
            and _RATIO_BEFORE.search(evidence[max(0, e.span[0] - 40) : e.span[0]])
        ):
            return e
    return None


_CELL_BREAK = re.compile(r"[,;:.()\[\]]|\d")


def _table_cell(
    q: Quantity, ev: list[Quantity], claimed: list[Quantity], evidence: str
) -> tuple[Quantity, str] | None:
    """A bare number right after a label that names what the claim counts, as in a table
    flattened into text ("Average worker machines per job 157" for "the average job used 257
    worker machines"): the label has the claim's count noun and two more of its words."""
    if not q.unit or is_physical(q.unit) or q.unit in ("%", "pp", "fold", "ratio"):
        return None
    for e in ev:
        if e.kind != "value" or e.unit or e.high is not None:
            continue
        if any(_same_values(c, e) for c in claimed):
            continue
        before = evidence[max(0, e.span[0] - 80) : e.span[0]]
        cut = list(_CELL_BREAK.finditer(before))
        label_text = before[cut[-1].end() :] if cut else before
        label_words = words(label_text)[-6:]
        label = {w.stem for w in label_words if w.lower not in STOPWORDS}
        if q.unit in label and len(label & q.context) >= 2:
            return e, " ".join(w.text for w in label_words)
    return None


_NAME_BEFORE = re.compile(r"([A-Za-z][A-Za-z\-]*)[ \-]$")
_TOKEN = re.compile(r"[\w\-]+")


def _named_in(q: Quantity, claim: str, evidence: str) -> str:
    """The claim's "Type 1", "COVID 19", "BRCA 1", "T-helper 17" when the evidence writes the
    same name with its number, however spelled ("COVID-19", "T1D", "Th17", "BRCA1"); else "".

    Only a bare integer under 1000 right after a content word is read as part of a name (the
    noun after it, "Type 1 diabetes", is no unit); a number written with a unit, a decimal or
    a range stays a measurement."""
    digits = claim[q.span[0] : q.span[1]]
    if not digits.isdigit() or q.high is not None or not 0 <= q.value < 1000:
        return ""
    m = _NAME_BEFORE.search(claim[: q.span[0]])
    if not m or m.group(1).lower() in STOPWORDS or direction(m.group(1).lower()):
        return ""
    inside = re.compile(rf"(?<!\d){re.escape(digits)}(?!\d)")
    for token in _TOKEN.findall(evidence):
        if any(c.isalpha() for c in token) and inside.search(token):
            return f"{m.group(1)} {digits}"
    return ""


_ALPHA = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def _neighbours(text: str, span: tuple[int, int]) -> tuple[str, str]:
    """The words right before and right after a number ("ACE) 2 receptors" -> ace, receptors)."""
    before = _ALPHA.findall(re.split(r"[.;:!?]\s", text[max(0, span[0] - 30) : span[0]])[-1])
    after = _ALPHA.findall(re.split(r"[.;:!?]\s", text[span[1] : span[1] + 30])[0])
    return (before[-1].lower() if before else "", after[0].lower() if after else "")


def _same_slot(
    q: Quantity, ev: list[Quantity], claimed: list[Quantity], claim: str, evidence: str
) -> Quantity | None:
    """An evidence number that the claim's number replaced: same unit, and the same word right
    before or after it ("February 29" -> "February 14", "80% adoption" -> "160% adoption").

    Only evidence numbers that no number of the claim matches are candidates, so a claim that
    adds a statistic next to the evidence's own numbers is not read as changing one of them.
    """
    prev, nxt = _neighbours(claim, q.span)
    for e in ev:
        if e.unit != q.unit or any(_same_values(c, e) for c in claimed):
            continue
        e_prev, e_next = _neighbours(evidence, e.span)
        same_prev = bool(prev) and prev == e_prev
        same_next = bool(nxt) and nxt == e_next
        if (
            (same_prev and same_next)
            or (same_prev and prev not in STOPWORDS)
            or (same_next and nxt not in STOPWORDS)
        ):
            return e
    return None


def _series_slot(q: Quantity, ev: list[Quantity], claimed: list[Quantity]) -> Quantity | None:
    """The evidence number in the claim's number's place in a list of figures of one kind:
    "1.4 false alarms per true alarm, against 2.2 for the base MGP-RNN and 3.8 for the NEWS
    score" against "1.4 false alarms ..., the 2.2 false alarms the base MGP-RNN has, and the
    3.2 false alarms that the NEWS score ... had". The claim's figure before it matches the
    evidence's figure before that place (a precise one: a decimal or a number from 10 up), the
    figure after it (if the claim gives one) the evidence's next, and the number in that place
    has the list's unit, matches no figure of the claim and is of the same order of magnitude."""
    mine = sorted((c for c in claimed if c.kind == "value"), key=lambda c: c.span)
    theirs = sorted((e for e in ev if e.kind == "value"), key=lambda e: e.span)
    k = next((n for n, c in enumerate(mine) if c is q), 0)
    if k == 0 or q.high is not None:
        return None

    def place(c: Quantity) -> int | None:
        return next(
            (
                n
                for n, e in enumerate(theirs)
                if _same_values(c, e) and _units_agree(c.unit, e.unit)
            ),
            None,
        )

    anchor = mine[k - 1]
    i = place(anchor)
    if i is None or i + 1 >= len(theirs) or not (anchor.decimals or anchor.value >= 10):
        return None
    slot = theirs[i + 1]
    if (
        not slot.unit
        or slot.unit != theirs[i].unit
        or q.unit not in ("", slot.unit)
        or slot.high is not None
        or any(_same_values(c, slot) for c in claimed)
        or not same_order(q.value, slot.value)
    ):
        return None
    if k + 1 < len(mine) and place(mine[k + 1]) != i + 2:
        return None
    return slot


def _as_range_end(q: Quantity, ev: list[Quantity]) -> list[Quantity]:
    """Evidence that states q's number as one end of a range, or q's range as two numbers
    ("aged 16 to 24" against "aged 16-24 years")."""
    if q.high is None:
        return [
            e
            for e in ev
            if e.high is not None
            and (
                same_number(q.value, e.value, q.decimals, e.decimals)
                or same_number(q.value, e.high, q.decimals, e.decimals)
            )
        ]
    lo = [e for e in ev if same_number(q.value, e.value, q.decimals, e.decimals)]
    hi = [
        e
        for e in ev
        if same_number(q.high, e.high if e.high is not None else e.value, q.decimals, e.decimals)
    ]
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
        return lx.finding(
            "number",
            "partial",
            f"the claim's {said} is not in the evidence",
            claim,
            evidence,
            q.span,
        )
    for e in ev:
        if _p_consistent(q, e):
            return lx.finding(
                "number",
                "ok",
                f"{said} agrees with {e.text_of(evidence)}",
                claim,
                evidence,
                q.span,
                e.span,
            )
    e = ev[0]
    return lx.finding(
        "number",
        "contradict",
        f"the claim says {said}, the evidence reports {e.text_of(evidence)}",
        claim,
        evidence,
        q.span,
        e.span,
    )


def _check_ci(
    q: Quantity,
    ev: list[Quantity],
    claim: str,
    evidence: str,
    claimed: Sequence[Quantity],
    values: Sequence[Quantity],
) -> Finding:
    said = q.text_of(claim)
    same_level = [e for e in ev if e.level == q.level]
    for e in same_level:
        if _same_values(q, e):
            return lx.finding(
                "number", "ok", f"{said} matches the evidence", claim, evidence, q.span, e.span
            )
    for e in ev:
        if e.level != q.level and _same_values(q, e):
            return lx.finding(
                "number",
                "contradict",
                f"the claim gives {said}, the evidence the same bounds as a {e.level:g}% interval",
                claim,
                evidence,
                q.span,
                e.span,
            )
    bare = _bare_interval(q, evidence)
    if bare is not None:
        return lx.finding(
            "number", "ok", f"{said} matches the evidence", claim, evidence, q.span, bare
        )
    rival = _rival_interval(q, same_level, claimed, values)
    if rival is not None:
        e = rival
        return lx.finding(
            "number",
            "contradict",
            f"the claim gives {said}, the evidence {e.text_of(evidence)}",
            claim,
            evidence,
            q.span,
            e.span,
        )
    return lx.finding(
        "number", "partial", f"the claim's {said} is not in the evidence", claim, evidence, q.span
    )


# An interval in brackets with no label, as a table gives it after its estimate:
# "265.60 (61.36 to 469.84)", "1.12 (1.06-1.19)".
_BARE_INTERVAL = re.compile(
    rf"\(\s*(?P<low>[-−]?(?:{_NUM}))\s*(?:to|[-–—]|,)\s*(?P<high>[-−]?(?:{_NUM}))\s*\)"
)


def _bare_interval(q: Quantity, evidence: str) -> tuple[int, int] | None:
    """The span of an unlabelled interval of the evidence with the bounds of the claim's
    interval `q` ("95% CI 61.36 to 469.84" against a table's "(61.36 to 469.84)")."""
    if q.high is None:
        return None
    for m in _BARE_INTERVAL.finditer(evidence):
        low, high = (to_float(m[k]) for k in ("low", "high"))
        if same_number(q.value, low, q.decimals, decimals_of(m["low"])) and same_number(
            q.high, high, q.decimals, decimals_of(m["high"])
        ):
            return m.span()
    return None


def _rival_interval(
    q: Quantity, same_level: list[Quantity], claimed: Sequence[Quantity], values: Sequence[Quantity]
) -> Quantity | None:
    """The evidence's interval that the claim's `q` changes: the only one at its level (unless
    it follows another estimate), or of several, the one after the claim's own estimate
    ("63%; 95% CI, 25%-73%" against "(63%; 95% CI, 50%-73%) ... (62%; 95% CI, 57%-66%)")."""
    if len(same_level) == 1:
        e = same_level[0]
        return None if _other_estimate(q, e, claimed, values) else e
    mine = _estimate_of(q, claimed)
    if mine is None:
        return None
    paired = [e for e in same_level if (est := _estimate_of(e, values)) and _same_values(mine, est)]
    return paired[0] if len(paired) == 1 else None


_ESTIMATE_GAP = 80  # characters from an estimate to the interval that follows it


def _estimate_of(ci: Quantity, quantities: Sequence[Quantity]) -> Quantity | None:
    """The value an interval belongs to: the one just before it ("265.60 MET-minutes per week
    (95% CI 61.36 to 469.84)")."""
    before = [
        v
        for v in quantities
        if v.kind == "value" and v.span[1] <= ci.span[0] <= v.span[1] + _ESTIMATE_GAP
    ]
    return max(before, key=lambda v: v.span[1]) if before else None


def _other_estimate(
    q: Quantity, e: Quantity, claimed: Sequence[Quantity], values: Sequence[Quantity]
) -> bool:
    """Whether the claim's interval `q` and the evidence's `e` follow two different estimates
    ("household activity by an adjusted 265.60 MET-minutes per week (95% CI 61.36 to 469.84)"
    against "total physical activity (adjusted difference in means 359.76 ...; 95% CI 74.87 to
    644.65)"): another result of the paper, not a changed interval of this one. The claim's
    estimate shortly before `e` is the same result said another way ("a 71% reduction in risk
    (adjusted OR, 0.29; 95% CI ...)")."""
    mine, theirs = _estimate_of(q, claimed), _estimate_of(e, values)
    if mine is None or theirs is None or _same_values(mine, theirs):
        return False
    return not any(
        _same_values(mine, v) and v.span[1] <= e.span[0] <= v.span[1] + 2 * _ESTIMATE_GAP
        for v in values
        if v.kind == "value"
    )


def _check_n(q: Quantity, ev: list[Quantity], claim: str, evidence: str) -> Finding:
    said = q.text_of(claim)
    ns = [e for e in ev if e.kind == "n"]
    counts = ns + [e for e in ev if e.kind == "value" and e.high is None and e.unit]
    match = next((e for e in counts if same_number(q.value, e.value, 0, 0)), None)
    if match or (len(ns) > 1 and same_number(q.value, sum(e.value for e in ns), 0, 0)):
        return lx.finding(
            "number",
            "ok",
            f"{said} matches the evidence",
            claim,
            evidence,
            q.span,
            match.span if match else None,
        )
    if len(ns) == 1:
        return lx.finding(
            "number",
            "contradict",
            f"the claim says {said}, the evidence {ns[0].text_of(evidence)}",
            claim,
            evidence,
            q.span,
            ns[0].span,
        )
    return lx.finding(
        "number",
        "partial",
        f"the sample size {said} is not in the evidence",
        claim,
        evidence,
        q.span,
    )


def related(claim: str, evidence: str) -> bool:
    """Claim and evidence talk about the same thing: they share enough content words, or, for a
    claim with numbers, enough words and numbers together (numbers weigh 0.3, as in `verify`'s
    relevance): "the fits establish that a universe dominated by ultra-light bosons (Ω_B = 0.2) is
    favoured for x_B of order 10^5 and τ between 0.05 and 0.19" shares few words with "a universe
    ULBDM-dominated (ΩB = 0.2) could be allowed for xB ∝105 and τ between 0.05 and 0.19"."""
    share = lx.overlap(claim, evidence)
    if share >= lx.RELATED_OVERLAP:
        return True
    nums = [(q.value, q.decimals) for q in parse_quantities(claim)]
    if not nums:
        return False
    ev = [(q.value, q.decimals) for q in parse_quantities(evidence)]
    ev += [(v, 0) for v in flattened_powers(evidence)]
    return 0.7 * share + 0.3 * numbers_found(nums, ev) / len(nums) >= lx.RELATED_OVERLAP


def numbers_found(
    claimed: Sequence[tuple[float, int]], evidence: Sequence[tuple[float, int]]
) -> int:
    """How many of the claim's (value, decimals) some evidence value states (`same_number`)."""
    return sum(1 for v, d in claimed if any(same_number(v, w, d, dw) for w, dw in evidence))
