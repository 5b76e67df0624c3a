"""Figures given in a "respectively" list, read against the claim that states one of them.

"The accuracies of the CNN and the LSTM were 85.2% and 90.1%, respectively" gives 90.1% to
the LSTM. A claim that the CNN reached 90.1% states a figure the evidence has, so the number
check finds nothing wrong; the figure has moved from one case to the other. This check pairs
the list of figures with the list of cases in order and reports a claim that ties a figure to
another case of the list.

It stays silent where the pairing is unsure: two lists of cases in the sentence ("the
sensitivity and specificity of CT and MRI"), a figure that the evidence also gives elsewhere, a
case the claim does not name, or a claim that lists the figures side by side itself without
"respectively".
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from sciverify.entail import lexicon as lx
from sciverify.entail.quantities import Quantity, parse_quantities, same_number
from sciverify.records import Finding

_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)
# What stands between two figures of one list: "85.2% and 90.1%", "12, 18, and 20", "0.64 vs 0.71".
_JOIN = re.compile(r"\s*(?:,\s*(?:and|or)?|and|or|vs\.?|versus|/)\s*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;](?=\s)")
_OPERATOR_BEFORE = re.compile(r"(?:[×*/^=+−]|\bx)\s*$")
_OPERATOR_AFTER = re.compile(r"\s*(?:[×*/^=+−]|x\b)")
_DETERMINERS = frozenset(("the", "a", "an"))
# Where a claim's clause ends: a case named past it is not the one its figure goes with.
_CLAUSE_BREAK = re.compile(r"[;]|,\s*(?:whereas|while|but)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _List:
    values: list[Quantity]
    cases: list[lx.Word]  # one word naming each case, in the order of the values


def check_respectively(claim: str, evidence: str) -> list[Finding]:
    """A claim figure from an evidence "respectively" list tied to another case of the list."""
    if not _RESPECTIVELY.search(evidence):
        return []
    ev_quantities = parse_quantities(evidence)
    claim_quantities = [q for q in parse_quantities(claim) if q.kind == "value"]
    claim_lists = _lists(claim, claim_quantities)
    claim_words = lx.words(claim)
    out: list[Finding] = []
    for listed in _lists(evidence, ev_quantities):
        for q in claim_quantities:
            at = [i for i, v in enumerate(listed.values) if _states(q, v)]
            if len(at) != 1 or _given_elsewhere(q, listed, ev_quantities):
                continue
            i = at[0]
            said = _case_in_claim(q, listed, claim, claim_words, claim_lists, claim_quantities)
            if said is None or said == i:
                continue
            value = listed.values[i]
            out.append(
                lx.finding(
                    "number",
                    "contradict",
                    f"the evidence gives {value.text_of(evidence)!r} to "
                    f"{listed.cases[i].text!r}, not to {listed.cases[said].text!r} "
                    "(its figures are listed 'respectively')",
                    claim,
                    evidence,
                    q.span,
                    value.span,
                )
            )
    return out


def _states(q: Quantity, v: Quantity) -> bool:
    return (
        v.kind == "value"
        and v.high is None
        and same_number(q.value, v.value, q.decimals, v.decimals)
    )


def _given_elsewhere(q: Quantity, listed: _List, quantities: list[Quantity]) -> bool:
    """The evidence states the claim's figure outside the list too: the pairing is unsure."""
    spans = {v.span for v in listed.values}
    return any(_states(q, v) for v in quantities if v.span not in spans)


def _lists(text: str, quantities: list[Quantity]) -> list[_List]:
    """Each "respectively" of `text` with its figures and the one list of cases they go with."""
    out = []
    start = 0
    for m in _RESPECTIVELY.finditer(text):
        ends = [e.end() for e in _SENTENCE_END.finditer(text, start, m.start())]
        segment_start = ends[-1] if ends else start
        start = m.end()
        values = _last_run(text, [q for q in quantities if segment_start <= q.span[0] < m.start()])
        if values is None:
            continue
        ws = [w for w in lx.words(text[: m.start()]) if w.start >= segment_start]
        lists = [c for c in _coordinations(text, ws, len(values)) if _apart(c, values)]
        if len(lists) == 1:
            out.append(_List(values, lists[0]))
    return out


def _last_run(text: str, quantities: list[Quantity]) -> list[Quantity] | None:
    """The last figures written one after another as a list ("12% and 18%"), two or more."""
    runs: list[list[Quantity]] = []
    for q in quantities:
        if q.kind != "value":
            continue
        if runs and _JOIN.fullmatch(text, runs[-1][-1].span[1], q.span[0]):
            runs[-1].append(q)
        else:
            runs.append([q])
    runs = [r for r in runs if len(r) >= 2]
    if not runs or sum(len(r) == len(runs[-1]) for r in runs) > 1:
        return None  # "frames 840 and 910 are 2 and 1 dB down": which list is whose is unsure
    run = runs[-1]
    if _OPERATOR_BEFORE.search(text, 0, run[0].span[0]) or _OPERATOR_AFTER.match(
        text, run[-1].span[1]
    ):
        return None  # "10000 × 10 and 1000 × 10": the figures are parts of larger terms
    return run


def _apart(cases: list[lx.Word], values: list[Quantity]) -> bool:
    lo, hi = values[0].span[0], values[-1].span[1]
    return all(not lo <= w.start < hi for w in cases)


def _coordinations(text: str, ws: list[lx.Word], n: int) -> list[list[lx.Word]]:
    """Lists of exactly `n` cases ("women and men", "the CNN and the LSTM", "A, B and C"),
    each case by the word next to its separator: the last word before "and" or a comma, the
    first after "and" ("the treated and control groups": treated, control)."""
    out = []
    for k, w in enumerate(ws):
        if w.lower not in ("and", "or") or k == 0 or k + 1 >= len(ws):
            continue
        right = k + 1
        if ws[right].lower in _DETERMINERS and right + 1 < len(ws):
            right += 1
        if not _name_word(ws[right]) or not _plain_gap(text, ws[right - 1], ws[right]):
            continue
        cases = [ws[right]]
        j = k - 1
        # "the treatment group and the control group": the head written twice names no case.
        after = right + 1
        if after < len(ws) and ws[after].stem == ws[j].stem and j > 0 and _name_word(ws[j - 1]):
            j -= 1
        while True:
            if not _name_word(ws[j]):
                break
            cases.insert(0, ws[j])
            # Before this case: a comma and another case makes the list longer.
            first = _phrase_start(text, ws, j)
            prev = first - 1
            if prev < 0 or text[ws[prev].end : ws[first].start].strip() != ",":
                break
            j = prev
        if len(cases) == n and len({c.stem for c in cases}) == n:
            out.append(cases)
    return out


def _phrase_start(text: str, ws: list[lx.Word], j: int) -> int:
    """The first word of the case phrase ending at ws[j] ("the treated" from "treated")."""
    i = j
    while i > 0 and i > j - 2 and lx.is_content(ws[i - 1]) and _plain_gap(text, ws[i - 1], ws[i]):
        i -= 1
    if i > 0 and ws[i - 1].lower in _DETERMINERS and _plain_gap(text, ws[i - 1], ws[i]):
        return i - 1
    return i


def _name_word(w: lx.Word) -> bool:
    return lx.is_content(w) and w.lower != "respectively"


def _plain_gap(text: str, a: lx.Word, b: lx.Word) -> bool:
    return not text[a.end : b.start].strip(" -")


def _case_in_claim(
    q: Quantity,
    listed: _List,
    claim: str,
    claim_words: list[lx.Word],
    claim_lists: list[_List],
    claim_quantities: list[Quantity],
) -> int | None:
    """Which case of the evidence's list the claim ties its figure `q` to, if it is clear."""
    stems = [c.stem for c in listed.cases]
    for own in claim_lists:  # the claim's own "respectively" list pairs by order
        if any(v.span == q.span for v in own.values):
            said = own.cases[[v.span for v in own.values].index(q.span)]
            return stems.index(said.stem) if said.stem in stems else None
    if any(
        _JOIN.fullmatch(claim, a.span[1], b.span[0])
        for a, b in itertools.pairwise(claim_quantities)
        if q in (a, b)
    ):
        return None  # "(0.64 vs 0.71)": figures side by side, their order unknown
    mentions = [(w, stems.index(w.stem)) for w in claim_words if w.stem in stems]

    def near(a: Quantity) -> tuple[list[int], list[int]]:
        """The cases named before and after figure `a`, up to the figures next to it."""
        j = claim_quantities.index(a)
        lo = claim_quantities[j - 1].span[1] if j else 0
        hi = claim_quantities[j + 1].span[0] if j + 1 < len(claim_quantities) else len(claim)
        before = [
            i
            for w, i in mentions
            if lo <= w.start
            and w.end <= a.span[0]
            and not _CLAUSE_BREAK.search(claim, w.end, a.span[0])
        ]
        after = [
            i
            for w, i in mentions
            if a.span[1] <= w.start
            and w.end <= hi
            and not _CLAUSE_BREAK.search(claim, a.span[1], w.start)
        ]
        return before, after

    before, after = near(q)
    if len(claim_quantities) == 1:
        # One figure: clear only when the claim names one case of the list around it ("the
        # CNN reached 90.1%"); "the LSTM beat the CNN with 90.1%" names two.
        named = set(before) | set(after)
        return named.pop() if len(named) == 1 else None
    # Several figures, each named on the same side: "women 0.71 and men 0.64" (before) or
    # "856 pressure records and 890 response records" (after); the first figure tells which.
    first_before, _ = near(claim_quantities[0])
    if first_before:
        return before[-1] if before else None
    return after[0] if after else None


def respective_cases(sentence: str, values: list[Quantity]) -> list[set[str]] | None:
    """The case each of `values` is given to when they all stand in one "respectively" list of
    `sentence` (as the stem of the word naming it); None when they do not."""
    if not _RESPECTIVELY.search(sentence):
        return None  # the common case: no list to read, nothing to parse
    for listed in _lists(sentence, parse_quantities(sentence)):
        spans = [v.span for v in listed.values]
        if all(v.span in spans for v in values):
            return [{listed.cases[spans.index(v.span)].stem} for v in values]
    return None
