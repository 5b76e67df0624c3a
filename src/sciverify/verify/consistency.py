"""The consistency layer: one name per concept, one format per quantity, one citation style.

The conventions are learned from the whole draft; a card goes to each paragraph that breaks
them (the caller keeps only the paragraphs whose route includes this layer). Rules:
an abbreviation defined twice with different long forms, two abbreviations for one long form,
an abbreviation used before its definition; "%" mixed with "percent"; decimal commas mixed with
decimal points; one unit spelled two ways ("mg/dl" and "mg/dL", "h" and "hours"); numbered and
author-year (or Pandoc) citations mixed; a symbol defined twice with different meanings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sciverify.entail import lexicon as lx
from sciverify.records import Card
from sciverify.verify.citations import find_citations, strip_citations
from sciverify.verify.segment import Segment

_ABBR_DEF = re.compile(r"\(([A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*?s?|[A-Z]{2,}s?)\)")
_PERCENT_SIGN = re.compile(r"\d\s?%")
_PERCENT_WORD = re.compile(r"\d\s+(?:percent|per cent)\b", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])\d{1,3},\d{1,2}(?![\d,])")
_DECIMAL_POINT = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")
# Spellings of one unit; the first is only a label. Case variants are found without a list.
UNIT_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("h", "hr", "hrs", "hour", "hours"),
    ("min", "mins", "minute", "minutes"),
    ("s", "sec", "secs", "second", "seconds"),
    ("kg", "kilogram", "kilograms"),
    ("ms", "msec", "millisecond", "milliseconds"),
    ("d", "day", "days"),
)
_UNIT_AFTER_NUMBER = re.compile(r"\d\s?([A-Za-zµμ]{1,4}(?:/[A-Za-zµμ]{1,4})?)\b")
_SYMBOL_DEF = re.compile(
    r"\b(?:where|let)\s+\$?([A-Za-z](?:_\{?\w+\}?)?)\$?\s+(?:is|be|denotes|represents|"
    r"stands for)\s+(?:the\s+|a\s+|an\s+)?([^,.;$]{3,60})"
    r"|\$?\b([A-Za-z](?:_\{?\w+\}?)?)\$?\s+denotes\s+(?:the\s+|a\s+|an\s+)?([^,.;$]{3,60})"
)
_CITATION_FAMILY = {
    "pandoc": "Pandoc [@key]",
    "numeric": "numbered [n]",
    "superscript": "superscript numbers",
    "footnote": "footnotes [^n]",
    "author_year": "author-year (Name, year)",
}


@dataclass(frozen=True, slots=True)
class Issue:
    paragraph_id: str
    finding: str
    message: str
    subject: str  # what it is about ("IDA", "%", "g/l")
    confidence: float = 0.7


def _long_form(abbr: str, before: str) -> str | None:
    """Schwartz-Hearst style: the shortest run of words before "(ABBR)" whose first word
    starts with the abbreviation's first letter and which holds its letters in order."""
    letters = [c.lower() for c in abbr.rstrip("s") if c.isalnum()]
    words = re.findall(r"[\w'-]+", before)[-(len(letters) + 5) :]
    for n in range(1, len(words) + 1):
        cand = words[-n:]
        if cand[0][0].lower() != letters[0] or cand[0].lower() in ("the", "a", "an"):
            continue
        text = " ".join(cand).lower()
        pos = 0
        for ch in letters:
            pos = text.find(ch, pos)
            if pos < 0:
                break
            pos += 1
        else:
            # One word per capital, give or take: "FEStim" needs three words, "LMWH" three.
            capitals = sum(ch.isupper() for ch in abbr)
            if len(cand) >= max(1, capitals - 1) or len(letters) <= 2:
                return " ".join(cand)
    return None


def _norm_form(text: str) -> str:
    return " ".join(lx.stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()))


def abbreviation_issues(paragraphs: Sequence[Segment]) -> list[Issue]:
    defs: list[tuple[str, str, str, int]] = []  # abbr, long form, paragraph, absolute offset
    for p in paragraphs:
        for m in _ABBR_DEF.finditer(p.text):
            line_start = max(p.text.rfind("\n", 0, m.start()), p.text.rfind(". ", 0, m.start()))
            long = _long_form(m.group(1), p.text[line_start + 1 : m.start()])
            if long:
                defs.append(
                    (
                        m.group(1).rstrip("s") if m.group(1)[:-1].isupper() else m.group(1),
                        long,
                        p.paragraph_id,
                        p.span[0] + m.start(),
                    )
                )
    issues: list[Issue] = []
    first_def: dict[str, tuple[str, str, int]] = {}
    by_form: dict[str, str] = {}
    for abbr, long, pid, pos in defs:
        form = _norm_form(long)
        if abbr in first_def and _norm_form(first_def[abbr][0]) != form:
            issues.append(
                Issue(
                    pid,
                    "abbreviation_redefined",
                    f"{abbr} is defined as {long!r} here but as "
                    f"{first_def[abbr][0]!r} in {first_def[abbr][1]}",
                    abbr,
                    0.8,
                )
            )
        first_def.setdefault(abbr, (long, pid, pos))
        if form in by_form and by_form[form] != abbr:
            issues.append(
                Issue(
                    pid,
                    "two_names_one_concept",
                    f"{long!r} is abbreviated {abbr} here but {by_form[form]} earlier; "
                    "use one abbreviation",
                    abbr,
                    0.7,
                )
            )
        by_form.setdefault(form, abbr)
    for abbr, (_long, def_pid, def_pos) in first_def.items():
        use = re.compile(rf"(?<![\w(]){re.escape(abbr)}s?\b")
        for p in paragraphs:
            first_use = use.search(p.text)
            if first_use and p.span[0] + first_use.start() < def_pos:
                issues.append(
                    Issue(
                        p.paragraph_id,
                        "abbreviation_before_definition",
                        f"{abbr} is used here before it is defined (in {def_pid})",
                        abbr,
                        0.7,
                    )
                )
                break
    return issues


def _minority(counts: dict[str, list[str]]) -> tuple[str, str, list[str]] | None:
    """(majority, minority, paragraphs using the minority) when two styles are both used."""
    used = {k: v for k, v in counts.items() if v}
    if len(used) < 2:
        return None
    ranked = sorted(used, key=lambda k: (-len(used[k]), k))
    return ranked[0], ranked[1], sorted(set(used[ranked[1]]))


def format_issues(paragraphs: Sequence[Segment]) -> list[Issue]:
    texts = [(p.paragraph_id, strip_citations(p.text)) for p in paragraphs if p.kind != "table"]
    issues: list[Issue] = []
    pct = {
        "%": [pid for pid, t in texts for _ in _PERCENT_SIGN.finditer(t)],
        "percent": [pid for pid, t in texts for _ in _PERCENT_WORD.finditer(t)],
    }
    if (mix := _minority(pct)) is not None:
        for pid in mix[2]:
            issues.append(
                Issue(
                    pid,
                    "mixed_percent_format",
                    f"writes {mix[1]!r} where the rest of the draft writes {mix[0]!r}",
                    mix[1],
                    0.6,
                )
            )
    dec = {
        "decimal point": [pid for pid, t in texts for _ in _DECIMAL_POINT.finditer(t)],
        "decimal comma": [pid for pid, t in texts for _ in _DECIMAL_COMMA.finditer(t)],
    }
    if (mix := _minority(dec)) is not None:
        for pid in mix[2]:
            issues.append(
                Issue(
                    pid,
                    "mixed_decimal_separator",
                    f"uses a {mix[1]} where the rest of the draft uses a {mix[0]}",
                    mix[1],
                    0.6,
                )
            )
    spellings: dict[str, dict[str, list[str]]] = {}
    synonym = {w: group[0] for group in UNIT_SYNONYMS for w in group}
    for pid, t in texts:
        for m in _UNIT_AFTER_NUMBER.finditer(t):
            unit = m.group(1)
            key = (
                synonym.get(unit.lower(), unit.lower())
                if unit.lower() in synonym
                or "/" in unit
                or unit.lower() in ("ml", "dl", "mg", "mmol", "ng", "ug", "µg")
                else None
            )
            if key is None:
                continue
            spellings.setdefault(key, {}).setdefault(unit, []).append(pid)
    for key, forms in sorted(spellings.items()):
        if (mix := _minority(forms)) is not None:
            for pid in mix[2]:
                issues.append(
                    Issue(
                        pid,
                        "mixed_unit_spelling",
                        f"writes the unit as {mix[1]!r}; elsewhere it is {mix[0]!r}",
                        key,
                        0.6,
                    )
                )
    return issues


def citation_style_issues(paragraphs: Sequence[Segment]) -> list[Issue]:
    families: dict[str, list[str]] = {k: [] for k in _CITATION_FAMILY}
    for p in paragraphs:
        for c in find_citations(p.text):
            if c.style in families:
                families[c.style].append(p.paragraph_id)
    mix = _minority(families)
    if mix is None:
        return []
    major, minor = _CITATION_FAMILY[mix[0]], _CITATION_FAMILY[mix[1]]
    return [
        Issue(
            pid,
            "mixed_citation_style",
            f"cites in {minor} style; the draft mostly uses {major}",
            minor,
            0.6,
        )
        for pid in mix[2]
    ]


def symbol_issues(paragraphs: Sequence[Segment]) -> list[Issue]:
    seen: dict[str, tuple[str, str]] = {}
    issues = []
    for p in paragraphs:
        for m in _SYMBOL_DEF.finditer(p.text):
            symbol = m.group(1) or m.group(3)
            meaning = (m.group(2) or m.group(4) or "").strip()
            if not symbol or not meaning:
                continue
            if symbol in seen:
                old, pid = seen[symbol]
                a, b = lx.content_stems(lx.words(old)), lx.content_stems(lx.words(meaning))
                if a and b and len(a & b) / min(len(a), len(b)) < 0.5:
                    issues.append(
                        Issue(
                            p.paragraph_id,
                            "symbol_redefined",
                            f"{symbol} denotes {meaning!r} here but {old!r} in {pid}",
                            symbol,
                            0.75,
                        )
                    )
                continue
            seen[symbol] = (meaning, p.paragraph_id)
    return issues


def consistency_cards(paragraphs: Sequence[Segment], routed: set[str]) -> list[Card]:
    """Cards for the paragraphs in `routed` that break a convention of the whole draft."""
    issues = (
        abbreviation_issues(paragraphs)
        + format_issues(paragraphs)
        + citation_style_issues(paragraphs)
        + symbol_issues(paragraphs)
    )
    counted = Counter[tuple[str, str, str]]()
    cards = []
    for issue in issues:
        key = (issue.paragraph_id, issue.finding, issue.subject)
        if issue.paragraph_id not in routed or counted[key]:
            continue
        counted[key] += 1
        cards.append(
            Card(
                paragraph_id=issue.paragraph_id,
                layer="consistency",
                status="warning",
                confidence=issue.confidence,
                claim="",
                keyword=issue.subject,
                suggested_action=f"This paragraph {issue.message}."
                if issue.message.startswith(("writes", "uses", "cites"))
                else f"{issue.message[0].upper()}{issue.message[1:]}.",
                finding=issue.finding,
            )
        )
    return cards
