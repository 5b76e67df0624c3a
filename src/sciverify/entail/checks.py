"""Deterministic checks of a claim against one evidence span, no model needed.

Each `check_xxx(claim, evidence)` returns `Finding`s: `contradict` (the evidence states
another value, the opposite polarity or direction, another entity of the same kind), `partial`
(a number, entity or condition of one side is missing from the other, or the claim is stated
more strongly than the evidence) or `ok` (a number that agrees). Spans are char offsets into the
claim and the evidence. The checks aim for precision: a `contradict` finding overrides a model's
"entailment" in `decide()`, so each one fires only on clear, local evidence.

The number check lives with the number parser (`quantities.py`), the check of figures listed
"respectively" in `respectively.py`, the entity and condition checks in `mentions.py`; all
are importable from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from sciverify.chunk import split_sentences
from sciverify.entail import lexicon as lx
from sciverify.entail.aims import only_aims
from sciverify.entail.mentions import check_conditions, check_entities
from sciverify.entail.quantities import (
    RATIO_NAMES,
    Quantity,
    check_numbers,
    parse_quantities,
    related,
)
from sciverify.entail.respectively import check_respectively, respective_cases
from sciverify.records import Finding

__all__ = [
    "CHECKS",
    "check_comparatives",
    "check_conditions",
    "check_entities",
    "check_hedging",
    "check_negation",
    "check_numbers",
    "check_respectively",
    "check_restatement",
    "run_checks",
]


# --- negation and polarity -----------------------------------------------------------------

# "effects for A and none for B": "none" stands for a predicate left out, so what it denies is
# not in its scope (only what it is denied of, which the other side may name for any reason).
_NOT_NEGATIONS = re.compile(
    r"\b(?:no|not)\s+(?:more|less|later|earlier|fewer|greater|only)\b|\bwhether or not\b|"
    r"\bor without\b|\bnot\s+(?:always|necessarily)\b|\bor not\b|"
    r"\bnone\s+(?:for|in|on|among|with|at)\b",
    re.IGNORECASE,
)


_CONTRAST = re.compile(r"\b(?:rather than|instead of|as opposed to)\b", re.IGNORECASE)


def _scopes(
    text: str, *, conditions: bool = False
) -> list[tuple[tuple[int, int], set[str], list[lx.Word]]]:
    """Each negation cue: the span from cue to scope end, its scope's content stems and words
    (with `conditions`, also the cues that state a condition rather than a finding)."""
    ws = lx.words(text)
    skip = [m.span() for m in _NOT_NEGATIONS.finditer(text)]
    out = []
    for i, w in enumerate(ws):
        if any(a <= w.start < b for a, b in skip) or _nominal(text, ws, i):
            continue
        if not conditions and _conditional(text, ws, i):
            continue
        if lx.is_negation(w):
            scope = lx.run(text, ws, i, +1)
        elif w.lower in lx.NEGATION_SUFFIX:
            scope = lx.run(text, ws, i, -1)
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
    if _failed_as_adjective(ws, i):
        return True
    if w.lower not in ("lack", "absence"):
        return False
    if w.lower == "lack" and not (i + 1 < len(ws) and ws[i + 1].lower == "of"):
        return False  # "X lacks Y" / "X lack Y": a verb, a real negation
    before = text[max(0, w.start - 12) : w.start].lower()
    at_clause_start = i == 0 or bool(re.search(r"[,;:.(]\s*(?:the\s+|a\s+)?$", before))
    # "the lack of X", "a lack of X", "an absence of X": a noun phrase whatever the article.
    return at_clause_start or bool(re.search(r"\b(?:the|a|an)\s*$", before))


def _failed_as_adjective(ws: list[lx.Word], i: int) -> bool:
    """ "The risk of failed procedures", "while failed retrieval occurred": an adjective before
    its noun, nothing denied; "failed to", "has failed", "failed in", "failed completely" are
    the verb."""
    if ws[i].lower != "failed" or i + 1 >= len(ws):
        return False
    after, before = ws[i + 1].lower, ws[i - 1].lower if i else ""
    return (
        after not in _AFTER_VERB
        and not after.endswith("ly")
        and before not in _AUX
        and not lx.direction(after)
    )


# Words after "failed" that make it the verb.
_AFTER_VERB = frozenset(
    lx.split_words(
        """to in at on for with when because as after by during under against despite and or
        but if since the a an its their his her this these those"""
    )
)


_CLAUSE_START = re.compile(r"(?:^|[,;:.(]|\bthat)\s*$", re.IGNORECASE)
_IF = re.compile(r"\b(?:if|unless|whether|when|whenever)\b[^,;:.()]*$", re.IGNORECASE)


def _conditional(text: str, ws: list[lx.Word], i: int) -> bool:
    """A negation that states a condition, not a finding: "goes extinct if an equilibrium
    cannot be reached", "without incoherence conditions, exact recovery is impossible"."""
    before = text[max(0, ws[i].start - 80) : ws[i].start]
    if _IF.search(before):
        return True
    return ws[i].lower == "without" and bool(_CLAUSE_START.search(before))


_NOT_AS = re.compile(r"(?:not|n't)\s+(?:as|so)\s+[\w-]+\s+as\b", re.IGNORECASE)
_THAN = re.compile(r"\b(?:[a-z]+er|less|more|worse|better)\s+than\b", re.IGNORECASE)
_POSSIBLE = re.compile(
    r"\b(?:may|might|could|would|possibly|perhaps|potential(?:ly)?(?: to)?)\b", re.IGNORECASE
)


# A method that measures something ("the antimicrobial activity of the fractions was
# determined by the disc diffusion method") says nothing of whether there was any.
_MEASURED = re.compile(
    r"\b(?:was|were|is|are|been)\s+(?:determined|measured|assessed|evaluated|tested|examined|"
    r"screened|quantified|estimated|analy[sz]ed|recorded)\b",
    re.IGNORECASE,
)


def _enough(shared: set[str], scope: set[str]) -> bool:
    # "significant" alone is shared by too many unrelated statements to carry a polarity, and
    # one shared word ("without training") is too little to say the same thing is negated.
    return len(shared - {"significant"}) >= 1 and len(shared) >= 2


# Degree words and framing nouns before the denied predicate ("no significant effect", "not
# statistically different", "no evidence that X altered"): the head is the word after them.
_NOT_HEADS = frozenset(
    lx.split_words(
        """significant significantly statistically clinically any longer more less much very
    further clear clearly evident detectable measurable meaningful substantial appreciable
    evidence indication sign signs proof again even ever yet once"""
    )
)


# "No difference in glycaemic index" denies "reduced glycaemic index" too: a denied change,
# effect or association is denied whatever verb the other side states it with.
_CHANGE = frozenset(
    w.stem
    for w in lx.words(
        """difference differences differ differed change changes changed effect effects impact
        association associated correlation correlated relationship benefit improvement
        increase decrease reduction"""
    )
)


_CHANGE_PREFIXES = frozenset(stem[:5] for stem in _CHANGE)


def _asserted(head: str, stems: set[str]) -> bool:
    # Prefix match, as `mentions._mentions`: "differ" / "difference", "increas" / "increase".
    if head in stems or (len(head) >= 5 and any(s[:5] == head[:5] for s in stems)):
        return True
    # "waves do not require extracellular Ca2+" denies "waves depend on extracellular Ca2+".
    return head.startswith(_NEEDS) and any(s.startswith(_NEEDS) for s in stems)


# Stem prefixes of the words that say one thing needs another.
_NEEDS = ("requir", "need", "depend", "necess", "essenti", "indispens")


def _negated_shared(
    negated: list[tuple[tuple[int, int], set[str], list[lx.Word]]], other: str
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The first negation scope whose content `other` asserts: (scope span, span in `other`)."""
    words = lx.words(other)
    stems_of_other = lx.content_stems(words)
    for span, stems, scope in negated:
        shared = stems & stems_of_other
        head = next((w.stem for w in scope if lx.is_content(w) and w.lower not in _NOT_HEADS), None)
        if head is not None and head not in _CHANGE and not _asserted(head, stems_of_other):
            # "not confined to the minimal model" against "using a minimal model": the other
            # side never says what is denied, only what it is said of.
            continue
        if head in _CHANGE and not (
            any(s[:5] in _CHANGE_PREFIXES for s in stems_of_other)
            or any(lx.direction(w.lower) for w in words)
        ):
            # "did not differ between trial types" against a methods sentence about "two types
            # of metric" and "the trial animals": no difference, change or effect is stated.
            continue
        if _enough(shared, stems):
            hits = [w for w in words if w.stem in shared]
            return span, (min(w.start for w in hits), max(w.end for w in hits))
    return None


def _also_affirmed(
    text: str, scopes: list[tuple[tuple[int, int], set[str], list[lx.Word]]], span: tuple[int, int]
) -> bool:
    """The text also states, outside any negation, what the scope at `span` denies: both cases
    are reported ("with no follow-up telephone calls ... 5.1%. With ... follow-up telephone
    calls ... 8.8%"; "local only (i.e., no global feedback). ... (i.e., global feedback)"), so
    the denial alone does not tell which one a claim is about. Only for a scope of two content
    words or more: "but not in group B" is one case denied against another named otherwise."""
    stems = next((st for sp, st, _ in scopes if sp == span), set())
    if len(stems) < 2:
        return False
    free = [
        w
        for w in lx.words(text)
        if lx.is_content(w) and not any(a <= w.start < b for (a, b), _, _ in scopes)
    ]
    window = len(stems) + 2
    return any(stems <= {w.stem for w in free[i : i + window]} for i in range(len(free)))


_ELIDED_AFFIRMATION = re.compile(
    r"[^.;]{0,80}?,?\s+(?:whereas|while|but)\s+(?P<who>(?:[\w-]+\s+){1,4}?)"
    r"(?:did|does|do|was|were|could|can|has|had|is|are)\b(?!\s*(?:not|n't|never))\s*[.;,)]",
    re.IGNORECASE,
)


def _affirmed_after(evidence: str, end: int, claim: str) -> bool:
    """The clause after a denial affirms the same of what the claim is about: "the baseline
    failed to generalise to new domains, whereas our model did" for a claim about the model."""
    m = _ELIDED_AFFIRMATION.match(evidence, end)
    if m is None:
        return False
    who = lx.content_stems(lx.words(m["who"]))
    return bool(who & lx.content_stems(lx.words(claim)))


def check_negation(claim: str, evidence: str) -> list[Finding]:
    """A polarity mismatch on the content the claim and the evidence share."""
    if lx.overlap(claim, evidence) < lx.RELATED_OVERLAP:
        return []
    c_neg, e_neg = _scopes(claim), _scopes(evidence)
    # A negation in a condition ("if collaboration is absent") still matches one stated as a
    # finding on the other side ("when collaboration is absent"); it only asserts nothing.
    c_any = bool(c_neg) or bool(_scopes(claim, conditions=True))
    e_any = bool(e_neg) or bool(_scopes(evidence, conditions=True))
    if c_any == e_any:
        return []
    if e_neg and _CONTRAST.search(claim):
        return []  # "a particle rather than a scalar field" negates too, in other words
    if e_neg:  # the evidence negates what the claim asserts
        hit = _negated_shared(e_neg, claim)
        if hit is None:
            return []
        e_span, c_span = hit
        if (
            _narrower(e_neg, e_span, claim)
            or _loss_of_function(evidence, e_span, claim)
            or _other_branch(evidence, e_span, claim)
            or _also_affirmed(evidence, e_neg, e_span)
            or _affirmed_after(evidence, e_span[1], claim)
        ):
            return []
        negated = evidence[e_span[0] : e_span[1]]
        if _NOT_AS.match(negated) and _THAN.search(claim):
            return []  # "not as fast as V8" is "slower than V8": the comparative check's call
        message = f"the evidence negates what the claim asserts: {negated!r}"
    else:
        hit = _negated_shared(c_neg, evidence)
        if hit is None:
            return []
        c_span, e_span = hit
        if (
            _narrower(c_neg, c_span, evidence)
            or _loss_of_function(claim, c_span, evidence)
            or _other_branch(claim, c_span, evidence)
            or _deed_unstated(claim, c_span, evidence)
        ):
            return []
        if _POSSIBLE.search(evidence[max(0, e_span[0] - 40) : e_span[1]]):
            return []  # "had the potential to alter" is no finding that it altered
        if _MEASURED.search(evidence[e_span[0] : e_span[1]]):
            return []  # "the activity was determined by disc diffusion" asserts no activity
        if _NOT_AS.match(claim[c_span[0] : c_span[1]]) and _THAN.search(evidence):
            return []
        message = f"the claim negates {claim[c_span[0] : c_span[1]]!r}, the evidence asserts it"
    return [lx.finding("negation", "contradict", message, claim, evidence, c_span, e_span)]


# "Mice with targeted ablation of osteocytes fail to mobilize HSPCs": a failure after something
# is removed shows that it is needed ("osteocytes have an essential role in mobilization").
_REMOVED = re.compile(
    r"\b(?:ablat\w*|delet\w*|knock-?(?:out|down|ed)\w*|deficien\w*|lacking|loss of|"
    r"deplet\w*|silenc\w*|null|disrupt\w*|inhibit\w*|block\w*|mutant|mutations? in)\b|"
    r"[-−]/[-−]",
    re.IGNORECASE,
)
_NEEDED = re.compile(
    r"\b(?:essential|required|requires?|requirement|necessary|needed|needs?|critical|"
    r"crucial|indispensable|depends?|dependent|key role|role)\b",
    re.IGNORECASE,
)


# Verbs that only say something was there or was seen: "showed no effect", "had no effect".
_LIGHT_VERBS = frozenset(
    lx.split_words(
        """have has had show shows showed shown find finds found observe observes observed see
        saw seen detect detected report reports reported yield yielded produce produced give
        gave make made exert exerted exhibit exhibited display displayed reveal revealed cause
        caused"""
    )
)


def _deed_unstated(claim: str, span: tuple[int, int], evidence: str) -> bool:
    """ "101 papers ran no human evaluation" denies a deed, running one; evidence about "the
    challenges of human evaluation" names the thing but not the deed, and does not assert it.
    Only for "no" after a verb of its own (not "had no effect", "found no difference")."""
    ws = lx.words(claim)
    at = next((i for i, w in enumerate(ws) if w.start == span[0]), None)
    if at is None or at == 0 or ws[at].lower != "no":
        return False
    verb = ws[at - 1]
    if not lx.is_content(verb) or verb.lower in _LIGHT_VERBS:
        return False
    return not any(w.stem[:4] == verb.stem[:4] for w in lx.words(evidence))


def _loss_of_function(text: str, span: tuple[int, int], other: str) -> bool:
    """The negation reports what fails once something is removed, and the other side says that
    something is needed: the same finding, not a polarity conflict."""
    return bool(_REMOVED.search(_sentence_before(text, span[0])) and _NEEDED.search(other))


_SENTENCE_END = re.compile(r"[;.](?:\s|$)")
_BUT_NOT = re.compile(r"(?:\bbut|\band|\byet|,)\s*$", re.IGNORECASE)


def _other_branch(text: str, span: tuple[int, int], other: str) -> bool:
    """ "Correlates with T cells in the lymph node but not with T cells in the blood": the
    sentence affirms one case and denies another; the other side speaks of the affirmed one
    when it shares more of what sets that case apart than of what sets the denied one apart."""
    if not _BUT_NOT.search(text[max(0, span[0] - 6) : span[0]]):
        return False
    before = _sentence_before(text, span[0])
    end = _SENTENCE_END.search(text, span[1])
    affirmed = lx.content_stems(lx.words(before)[-14:])
    denied = lx.content_stems(lx.words(text[span[0] : end.start() if end else len(text)]))
    mine = lx.content_stems(lx.words(other))
    return len((affirmed - denied) & mine) > len((denied - affirmed) & mine)


def _narrower(
    scopes: list[tuple[tuple[int, int], set[str], list[lx.Word]]],
    span: tuple[int, int],
    other: str,
) -> bool:
    """The negation denies a narrower class than the other side asserts: its first word is a
    qualifier the other side never uses ("no serious adverse events" against "two adverse
    events were reported")."""
    scope = next((words for sp, _, words in scopes if sp == span), [])
    if len(scope) < 2 or scope[0].lower not in _QUALIFIERS:
        return False
    stems = {w.stem for w in lx.words(other)}
    return scope[0].stem not in stems and scope[1].stem in stems


# Adjectives that narrow what a "no" denies: "no serious adverse events".
_QUALIFIERS = frozenset(
    lx.split_words(
        """
        serious severe major grave fatal life-threatening unexpected unanticipated long-term
        lasting permanent clinically clinical meaningful relevant substantial additional
        """
    )
)


def negation_agrees(claim: str, evidence: str) -> bool:
    """Both sides negate the content they share ("no longer calls into the monitor" and "will
    never again call into the monitor"), as a finding or as a condition ("when collaboration is
    absent" and "if collaboration is completely absent"): the evidence states the claim's
    polarity."""
    c_neg, e_neg = _scopes(claim, conditions=True), _scopes(evidence, conditions=True)
    return bool(c_neg and e_neg) and (
        _negated_shared(c_neg, evidence) is not None and _negated_shared(e_neg, claim) is not None
    )


# --- hedging strength ----------------------------------------------------------------------


_AUX = frozenset(["is", "are", "was", "were", "be", "been", "being", "has", "have", "had"])
_DETERMINERS = frozenset(["the", "each", "every", "this", "these", "those"])
_OFFERS = frozenset(["with", "show", "shows", "showed", "offer", "offers", "offered", "having"])


# "If k is the degree ..., the player would choose C when ...": the consequence of a condition
# the sentence states, as in a model or a proof; no hedge.
_CONDITIONAL = re.compile(
    r"\b(?:if|when|whenever|unless|provided|assuming|suppose)\b", re.IGNORECASE
)


def _after_condition(text: str, at: int) -> bool:
    """A condition opens earlier in the sentence that `at` falls in."""
    return bool(_CONDITIONAL.search(_sentence_before(text, at)))


def _adjectival(ws: list[lx.Word], i: int) -> bool:
    """ "confirmed cases", "established risk factors", "suspected sepsis", "an associated cost":
    a label, not a claim of proof or a hedge; "it should be noted that": a turn of phrase."""
    w = ws[i].lower
    before = ws[i - 1].lower if i > 0 else ""
    after = ws[i + 1].lower if i + 1 < len(ws) else ""
    if w == "potential" and before in _DETERMINERS and after not in ("to", "for", "of"):
        # "each PIN's fourth digit, the potential digit giving feedback": the one that may be
        # picked, a label; "has the potential to", "is a potential cause" hedge.
        prev2 = ws[i - 2].lower if i > 1 else ""
        return prev2 not in _AUX and prev2 not in _OFFERS
    if w == "associated":
        # "was associated with" hedges a finding; "an associated cost", "each encounter
        # associated with a label", "components have associated decay rates" describe.
        linked = "with" in (after, ws[i + 2].lower if i + 2 < len(ws) else "")
        return not linked or (before not in _AUX | _NOT and not before.endswith("ly"))
    if w in ("suggest", "suggested"):
        # "27% suggested 'patient focus'", "respondents suggested longer opening hours": what
        # people answered, reported as a finding; no hedge.
        share = before.isdigit() and ws[i].start - ws[i - 1].end == 2  # a "%" between
        return share or before in _RESPONDENTS
    if w in ("correlation", "association"):
        # "a shared correlation function across time", "a genome-wide association study":
        # the name of a thing, not a finding stated as a correlation.
        return after in _NAMED_BY
    after2 = ws[i + 2].lower if i + 2 < len(ws) else ""
    if w == "should":
        # "it should be noted that": a turn of phrase. "this should be resolved for a
        # commercially viable system", "future work should explore": what ought to be done
        # next, not doubt about what was found.
        return (after == "be" and after2 in _DISCOURSE | _TO_BE_DONE) or after in _TO_DO
    if w == "likely" and before in ("more", "less", "as", "equally", "how"):
        # "smokers were more likely to relapse", "twice as likely", "predict how likely it is
        # that a patient will acquire sepsis": a measured probability, not a hedge.
        return True
    if w == "consistent" and after == "with" and after2 in _EARLIER:
        # "count performance is consistent with previously reported results": agreement with
        # other work, not a finding stated as a mere consistency.
        return True
    if w == "could":
        # "A smaller amplitude could be observed", "we could use 748 of the sites": what was
        # seen or done (past ability), not a possibility.
        return (after == "be" and after2 in _SEEN) or (before in _WE and after in _DONE)
    if w in ("proved", "proves", "prove", "proven") and (
        after in _COPULA_AFTER or after.endswith("ly") and after2 in _COPULA_AFTER
    ):
        # "had proved slightly better", "proved useful": turned out, not proof.
        return True
    if w == "established":
        # Proof: "it is established that", "well established", "established as a risk
        # factor"; otherwise the verb's other sense, "are established prior to birth" (formed).
        prev2 = ws[i - 2].lower if i > 1 else ""
        return not (
            after in ("that", "as")
            or before in _FIRMLY
            or (before in _AUX and prev2 in ("it", "now", "been"))
        )
    if w in ("indicate", "indicates", "indicated"):
        # "Local data indicated that ...": records report a figure; no hedge.
        return before in _RECORDS
    if w in ("appear", "appears", "appeared"):
        # "edges appear and disappear over time", "first appeared in 2001": what comes into
        # view, not a hedge; "appears to", "it appears that", "appeared safe" hedge.
        ends = i + 1 == len(ws) or ws[i + 1].start > ws[i].end + 1  # ".", ", and"
        return ends or after in _APPEAR_PLAIN
    if w not in ("confirmed", "suspected"):
        return False
    return before not in _AUX and after != "that"


# Words after "appear" that make it "come into view" rather than "seem".
_APPEAR_PLAIN = frozenset(
    lx.split_words(
        """and or in on at as after before during within from when where first only again
    over under between among across near alongside"""
    )
)


_RESPONDENTS = frozenset(
    lx.split_words(
        """respondents participants interviewees informants stakeholders staff patients
    parents nurses physicians doctors clinicians students teachers experts members users"""
    )
)
_NAMED_BY = frozenset(
    lx.split_words(
        """function functions matrix matrices kernel kernels length lengths structure structures
    study studies mapping rule rules"""
    )
)
_SEEN = frozenset(
    lx.split_words(
        """observed found detected seen identified measured recorded confirmed replicated
    reproduced verified noted demonstrated achieved obtained reached elicited evoked attained
    extracted estimated determined"""
    )
)
_WE = frozenset(["we", "they", "i"])
_DONE = frozenset(
    lx.split_words(
        """use obtain include identify detect observe find measure record retrieve collect
    recruit enrol enroll analyse analyze evaluate confirm replicate reproduce access extract
    locate trace contact follow verify"""
    )
)
_RECORDS = frozenset(
    lx.split_words("data records statistics figures census registry registries surveys")
)


_FIRMLY = frozenset(
    ["well", "firmly", "clearly", "widely", "conclusively", "definitively", "now", "been"]
)
_COPULA_AFTER = frozenset(
    lx.split_words(
        """useful difficult effective ineffective successful unsuccessful valuable helpful
    better worse superior inferior more less most least too very quite fruitful popular
    robust reliable unreliable challenging costly essential crucial insufficient easier
    harder simpler faster slower larger smaller higher lower greater stronger weaker cheaper"""
    )
)


_NOT = frozenset(["not", "never", "neither", "nor"])
_DISCOURSE = frozenset(["noted", "mentioned", "emphasized", "emphasised", "stressed", "pointed"])
_TO_BE_DONE = frozenset(
    lx.split_words(
        """resolved addressed investigated explored studied examined considered pursued
    clarified tackled"""
    )
)
_TO_DO = frozenset(
    lx.split_words("""investigate explore address examine consider resolve pursue focus""")
)
_EARLIER = frozenset(
    lx.split_words("""previous previously prior earlier past published existing""")
)


def _strength(
    text: str,
    *,
    strongest: bool,
    whole: str | None = None,
    keep: Callable[[tuple[int, int]], bool] | None = None,
) -> tuple[int, tuple[int, int] | None]:
    """How strongly a text asserts, on the scale in `lexicon.HEDGE_LEVELS`, and the cue's span.
    `whole` is the text before parts of it were blanked (same offsets); `keep` picks the cues
    that count."""
    ws = lx.words(text)
    cues = [
        (lx.HEDGE_LEVEL[w.lower], (w.start, w.end))
        for i, w in enumerate(ws)
        if w.lower in lx.HEDGE_LEVEL
        and not _adjectival(ws, i)
        and not (w.lower == "would" and _after_condition(whole or text, w.start))
    ]
    cues += [
        (_PHRASE_CUES[(w.lower, ws[i + 1].lower)], (w.start, ws[i + 1].end))
        for i, w in enumerate(ws[:-1])
        if (w.lower, ws[i + 1].lower) in _PHRASE_CUES
    ]
    if keep is not None:
        cues = [c for c in cues if keep(c[1])]
    if not cues:
        return lx.ASSERTION_LEVEL, None
    top = [c for c in cues if c[0] == 4]
    if strongest and top:  # "always", "proves" in a claim overclaim even next to "may"
        return top[0]
    return min(cues)


# Two-word hedges, (word, next word) -> level. "A triplet that pointed to an alpha-oriented
# hydroxy group" infers from what was seen, as cautious as "suggested" ("at this point" is no
# cue); "it is possible that q turns negative" is as cautious as "may" ("it is possible to
# fit" says what can be done); "as proof", "proof that" claim proof.
_PHRASE_CUES = {
    **{
        (verb, to): lx.HEDGE_LEVEL["suggests"]
        for verb in ("point", "points", "pointed", "pointing")
        for to in ("to", "toward", "towards")
    },
    **{(word, "that"): lx.HEDGE_LEVEL["may"] for word in ("possible", "plausible", "conceivable")},
    # "take these results as proof that ...": proof claimed; "a proof of Lemma 2" is none.
    # "One explanation is that ...", "a possible explanation": one reading among others.
    **{
        (word, "explanation"): lx.HEDGE_LEVEL["may"]
        for word in ("one", "possible", "plausible", "potential", "alternative")
    },
    ("as", "proof"): lx.HEDGE_LEVEL["proves"],
    ("proof", "that"): lx.HEDGE_LEVEL["proves"],
}


# ", suggesting that ...", ", which may ...": an inference appended to a finding. Its hedge
# qualifies the inference, not the finding before it.
_INFERENCE_TAIL = re.compile(
    r",\s*(?:suggesting|indicating|implying|consistent with|which (?:suggests?|indicates?|"
    r"implies|may|might|could))\b",
    re.IGNORECASE,
)


def _hedge_scope(claim: str, evidence: str) -> str:
    """The part of the evidence whose certainty the claim restates: of several sentences, the
    one the claim matches best; of a finding with an inference appended, the finding alone when
    the claim matches it at least as well. Cut text is blanked so spans keep their offsets."""
    parts = split_sentences(evidence)
    if len(parts) > 1:
        a, b = max(parts, key=lambda ab: lx.overlap(claim, evidence[ab[0] : ab[1]]))
        if lx.overlap(claim, evidence[a:b]) >= lx.RELATED_OVERLAP:
            evidence = " " * a + evidence[a:b] + " " * (len(evidence) - b)
    m = _INFERENCE_TAIL.search(evidence)
    if m is not None:
        head, tail = evidence[: m.start()], evidence[m.start() :]
        if lx.overlap(claim, head) >= max(lx.overlap(claim, tail), lx.RELATED_OVERLAP):
            evidence = head + " " * len(tail)
    return _restated_clauses(claim, evidence)


# "..., probably by inhibiting proteolysis": a finding with a hedged explanation appended. A
# claim that states the cause ("arises from", "because", "is caused by") restates that clause,
# however few words it shares with it.
_HEDGED_CAUSE = re.compile(
    r"\b(?:probably|possibly|likely|presumably|perhaps|maybe|potentially)\s+"
    r"(?:by|because|due to|through|via|owing to|as a result of|from)\b",
    re.IGNORECASE,
)
_CAUSAL = re.compile(
    r"\b(?:because|due to|owing to|caused|causes|cause|arises?|arising|results? from|resulting from|"
    r"mechanism|driven by|explained by|explains?|attributable|attributed)\b",
    re.IGNORECASE,
)
_BUT = re.compile(r"[,;:]?\s*(?:but|whereas|while|although|though|yet)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[,;:]\s+|\s+(?:but|whereas|while|although|though)\s+", re.IGNORECASE)


def _restated_clauses(claim: str, evidence: str) -> str:
    """The clauses of the evidence that the claim restates: a clause sharing at most half as
    many content words and numbers with the claim as the best one is blanked ("X may occur as waves, but
    they rarely spread": a claim about the spreading keeps the second clause only)."""
    cuts = [0] + [x for m in _CLAUSE.finditer(evidence) for x in m.span()] + [len(evidence)]
    clauses = list(zip(cuts[::2], cuts[1::2], strict=True))
    if len(clauses) < 2:
        return evidence

    def terms(text: str) -> set[str]:
        ws = [w for w in lx.words(text) if lx.is_content(w)]
        parts = {p for w in ws for p in lx.hyphen_parts(w.text)}
        return {w.stem for w in ws} | parts | set(re.findall(r"\d+(?:\.\d+)?", text))

    wanted = terms(claim)
    each = [wanted & terms(evidence[a:b]) for a, b in clauses]
    shared = [len(t) for t in each]
    # What a clause alone shares with the claim: "X may occur as waves, but they rarely spread
    # from cell to cell, even in adjacent cells" restated over the last two clauses shares
    # "cell" and "wave" with the first as well. Only a clause that a contrast ends ("..., but")
    # is a statement of its own; "X could benefit Y, for example by Z" hedges Z too.
    own = [
        len(t - set().union(*(u for j, u in enumerate(each) if j != i))) for i, t in enumerate(each)
    ]
    top, top_own = max(shared), max(own)
    causal = _CAUSAL.search(claim) is not None
    out = list(evidence)
    for (a, b), n, k in zip(clauses, shared, own, strict=True):
        if causal and _HEDGED_CAUSE.search(evidence, a, b):
            continue  # the claim states a cause, the evidence only a likely one
        contrasted = _BUT.match(evidence, b) is not None
        if 2 * n <= top or (contrasted and n < top and 2 * k <= top_own):
            out[a:b] = " " * (b - a)
    return "".join(out)


def _same_phrase(claim: str, span: tuple[int, int], evidence: str) -> bool:
    """The claim's cue and the word after it stand together in the evidence: "other proven
    preventive measures" repeated from a clause the hedge scope leaves out."""
    ws = lx.words(claim)
    at = next((i for i, w in enumerate(ws) if w.start == span[0]), None)
    if at is None or at + 1 >= len(ws):
        return False
    ev = [w.lower for w in lx.words(evidence)]
    pair = [ws[at].lower, ws[at + 1].lower]
    return any(ev[i : i + 2] == pair for i in range(len(ev) - 1))


# A claim that reports what the authors think ("they argue that", "the authors reckon that")
# states a view, not a finding; only a word of proof in it ("argue that X proves Y") overclaims.
_OPINION = re.compile(
    r"\b(?:argue[sd]?|arguing|reckon(?:s|ed)?|believe[sd]?|think|thinks|thought|"
    r"contend(?:s|ed)?|posit(?:s|ed)?|maintain(?:s|ed)?|caution(?:s|ed)?|warn(?:s|ed)?)\s+that\b",
    re.IGNORECASE,
)


def check_hedging(claim: str, evidence: str) -> list[Finding]:
    """The claim states more certainty than the evidence does (may -> proves). An aim ("To
    evaluate the association between early screening and mortality") hedges no finding."""
    if not _related_beyond_framing(claim, evidence) or only_aims(evidence):
        return []
    c_level, c_span = _strength(claim, strongest=True)
    if c_level < lx.HEDGE_LEVELS[-1][0] and _OPINION.search(claim):
        return []  # "the authors reckon that ..." reports a view, as cautious as "should"
    scope = _hedge_scope(claim, evidence)
    # A cue counts only where the claim says what it qualifies: "they described how X could
    # have severe consequences" hedges the consequences, not the description.
    e_level, e_span = _strength(
        scope,
        strongest=False,
        whole=evidence,
        keep=lambda span: _hedged_words_restated(claim, scope, span),
    )
    if c_level <= e_level:
        return []
    if c_span and (
        lx.stem(claim[c_span[0] : c_span[1]].lower()) in {w.stem for w in lx.words(scope)}
        or _same_phrase(claim, c_span, evidence)
    ):
        return []  # the evidence says it too: "always stable ... regardless of", "we prove"
    c_word = claim[c_span[0] : c_span[1]] if c_span else "a plain assertion"
    e_word = evidence[e_span[0] : e_span[1]] if e_span else "a plain assertion"
    if e_word.lower() in _DEONTIC and _RECOMMENDS.search(claim):
        return []  # "they recommend tagging neonates" restates "neonates should be tagged"
    if (
        e_word.lower() in _ASSOCIATION_CUES
        and _STATES_ASSOCIATION.search(claim)
        and c_level < lx.HEDGE_LEVELS[-1][0]
    ):
        # "reveals a link between sleep and memory" against "an association between sleep and
        # memory": the association is what both state, not a hedge of it ("proves" still is).
        return []
    if (
        c_span is None
        and e_level == c_level - 1
        and e_word.lower() in _EVIDENTIAL
        and not _CAUSAL.search(claim)
    ):
        # "The results suggest that X lowers Y" summed up as "X lowered Y": a summary states
        # what a paper concludes; one step down from "shows" is its reading, not a doubt.
        # Not so for association ("X was associated with lower Y" is no "X lowers Y"), for
        # "may" (two steps), for a claim that names its certainty ("demonstrates") or one
        # that makes a suggested link a cause ("suggesting resetting" / "causes resetting").
        return []
    return [
        lx.finding(
            "hedge",
            "partial",
            f"the claim is stronger ({c_word!r}) than the evidence ({e_word!r})",
            claim,
            evidence,
            c_span,
            e_span,
        )
    ]


_HEDGED_END = re.compile(r"[;:()–—]|[,.](?=\s|$)|\s(?:but|whereas|even|although|though)\s")


def _hedged_words_restated(claim: str, evidence: str, cue: tuple[int, int]) -> bool:
    """Whether the claim says what the evidence's hedge qualifies: a content word after the
    cue, up to the clause's end. "They described how missing related work could have
    severe consequences" hedges the consequences; a claim that they "described a fear of
    missing prior work" restates the description, not the consequences."""
    end = _HEDGED_END.search(evidence, cue[1])
    tail = evidence[cue[1] : end.start() if end else len(evidence)]
    hedged = [w for w in lx.words(tail) if lx.is_content(w) and w.lower not in lx.HEDGE_LEVEL]
    numbers = set(re.findall(r"\d+(?:\.\d+)?", tail))
    if not hedged and not numbers:
        return True  # "..., as it may.": nothing to compare, keep the finding
    if numbers & set(re.findall(r"\d+(?:\.\d+)?", claim)):
        return True
    claim_words = [w for w in lx.words(claim) if lx.is_content(w)]
    stems = {w.stem for w in claim_words} | {
        p for w in claim_words for p in lx.hyphen_parts(w.text)
    }
    for w in hedged:
        if w.stem in stems or any(
            len(w.stem) >= 5 and len(s) >= 5 and (w.stem in s or s in w.stem) for s in stems
        ):
            return True
    return False


def _related_beyond_framing(claim: str, evidence: str) -> bool:
    """`related`, or so once the claim's reporting words ("the authors establish that") are
    set aside: they frame the statement whose certainty is compared, they are not its topic."""
    if related(claim, evidence):
        return True
    kept = [
        w.text
        for w in lx.words(claim)
        if w.lower not in lx.FRAMING and w.lower not in lx.HEDGE_LEVEL
    ]
    return lx.overlap(" ".join(kept), evidence) >= lx.RELATED_OVERLAP


# Words that state an association; as the evidence's cue they hedge a claim of effect only.
_ASSOCIATION_CUES = frozenset(
    lx.split_words("""associated association correlated correlates correlation linked""")
)
_STATES_ASSOCIATION = re.compile(
    r"\b(?:associat\w*|correlat\w*|links?|linked|relationship|related)\b", re.IGNORECASE
)


# Verbs of inference one step below "shows": how a paper words its conclusion.
_EVIDENTIAL = frozenset(
    lx.split_words(
        """suggest suggests suggested suggesting indicate indicates indicated appear appears
    appeared seem seems seemed support supports tend tends apparently"""
    )
)


# "Should" and "must" in a recommendation say what ought to be done, not how sure a finding is.
_DEONTIC = frozenset(["should", "must", "ought"])
_RECOMMENDS = re.compile(
    r"\b(?:recommend\w*|advis\w*|advocat\w*|urg\w*|call(?:s|ed)? for|propos\w*|"
    r"encourag\w*)\b",
    re.IGNORECASE,
)


# --- comparatives and direction ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Cue:
    direction: int  # +1 up, -1 down
    span: tuple[int, int]
    before: set[str]  # words just before the cue ("smoking" increases ...)
    after: set[str]  # words just after it (... increases "the risk of lung cancer")
    left: set[str]  # the compared side: "A" in "higher in A than in B", "A" in "A outperforms B"
    right: set[str]  # the compared-to side: "B"
    nominal: bool = False  # "a drop in X", "an increase of X": what changes comes after
    evaluative: bool = False  # "better", "improved": says which way is good, not which is more
    subject: set[str] = field(default_factory=set)  # the clause before it ("adding rings")
    removed: bool = False  # its clause speaks of something removed ("vitamin D deficiency")

    def towards(self, other: _Cue) -> int | None:
        """This cue's direction read against `other`: as it stands when both say how much or
        both say how good; when one says how good, "better" and "a decreased risk" agree, and
        "better" says nothing against a change in a quantity of unknown sign."""
        if self.evaluative == other.evaluative or not self.evaluative:
            return self.direction
        sign = _good_way(other.after | other.before)
        return None if sign is None else self.direction * sign


def _directions(text: str) -> list[_Cue]:
    """Every un-negated direction word that is not part of a number ("increased by 20%")."""
    ws = lx.words(text)
    number_spans = [q.span for q in parse_quantities(text)]
    negations = {i for i, w in enumerate(ws) if lx.is_negation(w)}
    # Word positions of numbers: a cue within two words of one ("increased by 20%", "a 3-fold
    # reduction") is the number check's to compare; so is "more than ten".
    in_number = {k for k, x in enumerate(ws) if any(a <= x.start < b for a, b in number_spans)}
    quantifier = in_number | {k for k, x in enumerate(ws) if x.lower in _NUMBER_WORDS}
    out: list[_Cue] = []
    for i, w in enumerate(ws):
        d = lx.direction(w.lower) or _signed(ws, i) or _phrasal(ws, i)
        if not d or negations & set(range(i - 3, i)):
            continue  # a negated direction is the negation check's business
        if i + 1 < len(ws) and lx.direction(ws[i + 1].lower):
            continue  # "a greater reduction in yield": the change it sizes says which way
        if in_number & ({i + 1, i + 2} | {i - 1, i - 2}) or (
            i + 2 < len(ws) and ws[i + 1].lower == "than" and i + 2 in quantifier
        ):
            continue
        nominal = i + 1 < len(ws) and ws[i + 1].lower in ("in", "of")
        after = lx.run(text, ws, i, +1, limit=4)
        if nominal and _side(after) <= _MEASURES:
            # "a reduction in the incidence of tuberculosis": past a measure word lies what
            # it measures.
            after = lx.run(text, ws, i, +1, limit=_NOMINAL_REACH)
        before = _side(lx.run(text, ws, i, -1, limit=3))
        target = _side(after)
        if i + 1 < len(ws) and ws[i + 1].lower in _OBJECT_PRONOUNS and out:
            # "adding heteroatoms increases solubility, and adding rings increases it
            # further": the pronoun stands for what the cue before changes.
            target = out[-1].after
        clause = lx.run(text, ws, i, +1, limit=16)
        than = next((k for k, x in enumerate(clause) if x.lower == "than"), None)
        left, right = before, set()
        if than is not None:
            right = _side(lx.run(text, ws, ws.index(clause[than]), +1, limit=4))
            left = _side(clause[:than]) or before  # "higher in A than in B"
        elif w.lower.startswith(_OBJECT_VERBS):
            if i and ws[i - 1].lower in _AUX and i + 1 < len(ws) and ws[i + 1].lower == "by":
                left, right = target, before  # "B was outperformed by A"
            else:
                right = _side(after)  # "A outperforms B"
        elif compared := _COMPARED_FIRST.search(_sentence_before(text, w.start)):
            # "A, rather than B, were more likely"
            left, right = _side(lx.words(compared["a"])), _side(lx.words(compared["b"]))
        evaluative = w.lower in _EVALUATIVE_WORDS
        back = lx.run(text, ws, i, -1, limit=_SUBJECT_WORDS)
        opener = next((k for k, x in enumerate(back) if x.lower in _CLAUSE_OPENERS), len(back))
        subject = _side(back[:opener])  # "indicate that [adding rings] increases"
        removed = any(_ABSENT.fullmatch(x.lower) for x in back[:opener])
        out.append(
            _Cue(
                d,
                (w.start, w.end),
                before,
                target,
                left,
                right,
                nominal,
                evaluative,
                subject,
                removed,
            )
        )
    return out


_OBJECT_PRONOUNS = frozenset(["it", "them"])
# Words that make what follows absent: "vitamin D deficiency", "Sirt1 knockout mice", "loss
# of", "mice lacking". (Not verbs such as "inhibits", which say what the subject does.)
_ABSENT = re.compile(
    r"deficien(?:cy|cies|t)|knock-?(?:out|down)s?|deplet(?:ion|ed)|delet(?:ion|ed)|"
    r"ablat(?:ion|ed)|loss|lack|lacking|absence|absent|null|silenc(?:ing|ed)|mutants?"
)
_NOMINAL_REACH = 6  # words read after "a drop in the rate of ..." to find what it measures
_SUBJECT_WORDS = 12  # words of a cue's clause read before it
_CLAUSE_OPENERS = frozenset(["that", "which", "who", "whether"])


def _rival_subject(cue: _Cue, agreeing: list[_Cue], ev: list[_Cue]) -> bool:
    """Of the evidence's cues on the claim cue's target, one that goes the other way has a
    subject much closer to the claim's: "adding heteroatoms increases solubility, while adding
    rings makes the molecule less soluble" does not support "adding rings increases
    solubility"; the first clause agrees in words only."""
    if not cue.subject:
        return False
    rivals = [e for e in ev if _against(cue, e)]
    best_rival = max((len(_shared(cue.subject, e.subject)) for e in rivals), default=0)
    best_agreeing = max(len(_shared(cue.subject, e.subject)) for e in agreeing)
    return best_rival >= 2 and best_rival > best_agreeing


def _other_sides(cue: _Cue, e: _Cue) -> bool:
    """The evidence compares two sides that the claim's subject is neither of: "partial
    annotation raises variance" against "fine-grained annotations have lower variance than
    coarse-grained ones" (stems alike in their first four letters count as one word)."""
    if not e.right or cue.right:
        return False
    named = e.before | e.left | e.right
    named |= {p for t in named for p in t.split("-")}
    own = cue.before - cue.after
    return any(len(w) >= 4 and not any(t[:4] == w[:4] for t in named) for w in own)


def _against(cue: _Cue, e: _Cue) -> bool:
    """The evidence cue `e` says the other way about what the claim cue `cue` acts on (or
    compares the same two sides the other way round)."""
    mine, theirs = cue.towards(e), e.towards(cue)
    if mine is None or theirs is None or cue.removed != e.removed:
        # "vitamin D deficiency increases the risk" and "vitamin D reduces it" agree: a
        # direction said of something removed is the opposite one said of it present.
        return False
    return _same_target(cue, e) and (theirs != mine) != _swapped(cue, e)


# "a positive correlation", "negative associations", "a negative effect on": a sign, as
# "positively correlated" is a direction; "PCR positive", "negative controls" are not.
_SIGNS = {"positive": 1, "negative": -1}
_SIGNED = ("correl", "associ", "relationship", "effect", "impact", "influenc", "trend", "slope")


# "The error went up", "costs go down": a verb of motion and the way it goes.
_MOTION = frozenset(lx.split_words("go goes went gone going"))
_WAY = {"up": 1, "down": -1}


def _phrasal(ws: list[lx.Word], i: int) -> int:
    if ws[i].lower in _MOTION and i + 1 < len(ws):
        return _WAY.get(ws[i + 1].lower, 0)
    return 0


def _signed(ws: list[lx.Word], i: int) -> int:
    sign = _SIGNS.get(ws[i].lower, 0)
    if sign and i + 1 < len(ws) and ws[i + 1].stem.startswith(_SIGNED):
        return sign
    return 0


_EVALUATIVE_WORDS = frozenset(
    lx.split_words(
        """improve improved improves improving improvement better outperform outperforms
        outperformed superior worse worsen worsens worsened underperform underperforms
        underperformed inferior impair impaired impairs"""
    )
)
# Stem prefixes of measures where less is better, and of those where more is better.
_LESS_IS_GOOD = lx.split_words(
    """risk mortal death incidenc infect reject toxic advers complic morbid recurr relaps failur
    pain symptom error loss latenc runtim time second cost perplex rmse mae mse wer cer fid
    distanc memory overhead delay hospit readmiss"""
)
_MORE_IS_GOOD = lx.split_words(
    """accura precis recal f1 auc auroc surviv sensitiv specific efficac effectiv perform yield
    throughput speedup quality function"""
)


def _good_way(target: set[str]) -> int | None:
    """+1 when more of what `target` names is better, -1 when less is, None when unknown."""
    if any(t.startswith(_LESS_IS_GOOD) for t in target):
        return -1
    if any(t.startswith(_MORE_IS_GOOD) for t in target):
        return 1
    return None


# "A, rather than B, were more likely", "A, compared with B, had higher": the two sides come
# before the direction word.
_COMPARED_FIRST = re.compile(
    r"(?P<a>[^,;]{3,120}?),?\s+(?:rather than|compared (?:with|to)|in comparison (?:with|to)|"
    r"relative to|as opposed to|versus|vs\.?)\s+(?P<b>[^,;]{3,120}),[^,;]*$",
    re.IGNORECASE,
)


def _sentence_before(text: str, end: int) -> str:
    """The text of the sentence that `end` falls in, up to `end`."""
    start = max(text.rfind(". ", 0, end), text.rfind("; ", 0, end))
    return text[start + 2 if start >= 0 else 0 : end]


_NUMBER_WORDS = frozenset(
    ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twice"]
)


def _same_target(a: _Cue, b: _Cue) -> bool:
    """Two direction words act on the same thing: the words on one side of each agree
    ("increases the risk of lung cancer" / "decreases the risk of lung cancer"), or they
    compare the same two sides ("higher in A than in B" / "higher in B than in A")."""
    if a.right and b.right and len((a.left | a.right) & (b.left | b.right)) >= 2:
        return True
    sides = [(a.before, b.before), (a.after, b.after)]
    # "throughput rose" / "a drop in throughput": the subject of the verb is what the noun's
    # "in ..." names.
    if a.nominal and not b.nominal:
        sides.append((a.after, b.before))
    elif b.nominal and not a.nominal:
        sides.append((a.before, b.after))
    for mine, theirs in sides:
        shared = _shared(mine, theirs)
        if len(shared) >= 2:
            return True
        # One shared word counts when it is all one side has ("slows atherosclerosis" /
        # "accelerates atherosclerosis in mice") and says more than "risk" or "level"; a
        # measure word beside it does not count ("increases rates of tuberculosis" / "a
        # reduction in the incidence of tuberculosis").
        whole = shared >= mine - _MEASURES or _shared(theirs, mine) >= theirs - _MEASURES
        if shared and whole and not shared <= _GENERIC_TARGETS:
            return True
    return False


def _shared(mine: set[str], theirs: set[str]) -> set[str]:
    """The stems of `mine` that `theirs` has too, "sensitivity" and "sensitive" alike (the
    first seven letters of two long stems), "solubility" and "soluble" too (the noun of a
    quality read as its adjective)."""
    long = {t[:7] for t in theirs if len(t) >= 7}
    bases = {_quality_base(t) for t in theirs}
    return {
        m
        for m in mine
        if m in theirs or (len(m) >= 7 and m[:7] in long) or _quality_base(m) in bases
    }


# The endings of a quality noun and of its adjective: "solubility" / "soluble".
_QUALITY_ENDINGS = (("bility", "bl"), ("icity", "ic"), ("ivity", "iv"), ("idity", "id"))


def _quality_base(stem: str) -> str:
    """The adjective's stem of a quality noun's stem (solubility -> solubl, toxicity -> toxic,
    sensitivity -> sensitiv, acidity -> acid); any other stem as it is."""
    for noun, adjective in _QUALITY_ENDINGS:
        if stem.endswith(noun) and len(stem) - len(noun) >= 2:
            return stem[: -len(noun)] + adjective
    return stem


# Measure words, by stem: what a target is tells it apart, not whether its rate, level or
# incidence is named. (Not time: a shorter time is a faster process, the other direction.)
_MEASURES = frozenset(
    lx.stem(w)
    for w in lx.split_words(
        """
        risk level rate amount number incidence prevalence frequency odds likelihood probability
        """
    )
)

# Words too general to tell two targets apart, by stem: the measure words and these.
_GENERIC_TARGETS = _MEASURES | frozenset(
    lx.stem(w) for w in lx.split_words("expression activity effect time case significant score")
)


def _swapped(a: _Cue, b: _Cue) -> bool:
    """ "A is higher than B" against "B is higher than A": the distinctive words trade sides."""
    if not (a.right and b.right):
        return False
    # The subject before the word counts as its side: "smokers had a higher risk of cancer
    # than non-smokers" against "non-smokers had a lower risk of cancer than smokers".
    a_left, b_left = a.left | (a.before - a.right), b.left | (b.before - b.right)
    return bool((a_left - a.right) & (b.right - b_left) and (a.right - a_left) & (b_left - b.right))


_ACRONYM = re.compile(r"[A-Z]{2,6}s?")
_LINKING = frozenset(["of", "and", "the", "in", "for", "to"])


def _spelled_out_in(text: str, other: str) -> dict[str, set[str]]:
    """Acronyms of `text` that `other` spells out, each with the stems of its words ("BAT":
    "brown adipose tissue"), the way a paper abbreviates what a summary writes in full."""
    alpha = [ch for ch in text if ch.isalpha()]
    if sum(ch.isupper() for ch in alpha) > 0.5 * max(1, len(alpha)):
        return {}  # "VITAMIN D LEVELS MAY ..." is written in capitals, not in acronyms
    ws = [w for w in lx.words(other) if w.lower not in _LINKING]
    out: dict[str, set[str]] = {}
    for w in lx.words(text):
        if not _ACRONYM.fullmatch(w.text):
            continue
        letters = w.text.rstrip("s").lower()
        n = len(letters)
        for i in range(len(ws) - n + 1):
            run = ws[i : i + n]
            if "".join(x.lower[0] for x in run) == letters and all(x.text.isalpha() for x in run):
                out[w.stem] = {x.stem for x in run}
                break
    return out


def _with_acronyms(cues: list[_Cue], spelled: dict[str, set[str]]) -> list[_Cue]:
    """Cues whose word sets also hold the stems each acronym in them stands for."""
    if not spelled:
        return cues

    def grow(side: set[str]) -> set[str]:
        return side.union(*(spelled[a] for a in side & spelled.keys()))

    return [
        replace(
            c,
            before=grow(c.before),
            after=grow(c.after),
            left=grow(c.left),
            right=grow(c.right),
            subject=grow(c.subject),
        )
        for c in cues
    ]


def check_comparatives(claim: str, evidence: str) -> list[Finding]:
    """The direction of a change or comparison reversed between claim and evidence."""
    spelled = _spelled_out_in(evidence, claim) | _spelled_out_in(claim, evidence)
    # What the evidence abbreviates counts as said in it ("BAT" for "brown adipose tissue").
    said = " ".join([evidence, *(" ".join(stems) for stems in spelled.values())])
    if lx.overlap(claim, said) < lx.RELATED_OVERLAP:
        return []
    ev = _with_acronyms(_directions(evidence), spelled)
    out: list[Finding] = []
    rows: dict[str, tuple[list[float], tuple[int, int]]] | None = None  # read when needed
    for cue in _with_acronyms(_directions(claim), spelled):
        agreeing = [
            e
            for e in ev
            if e.towards(cue) == cue.towards(e) and _same_target(cue, e) and not _swapped(cue, e)
        ]
        if agreeing and not _rival_subject(cue, agreeing, ev):
            continue  # the evidence says the same thing somewhere
        for e in ev:
            if _against(cue, e) and not _other_sides(cue, e):
                said = claim[cue.span[0] : cue.span[1]]
                message = (
                    f"the claim compares the two sides of {said!r} the other way round"
                    if _swapped(cue, e)
                    else f"the claim says {said!r}, the evidence "
                    f"{evidence[e.span[0] : e.span[1]]!r} about the same thing"
                )
                out.append(
                    lx.finding(
                        "comparative",
                        "contradict",
                        message,
                        claim,
                        evidence,
                        cue.span,
                        e.span,
                    )
                )
                break
        else:
            swap = _implicit_swap(cue, ev, claim, evidence)
            if swap is not None:
                out.append(swap)
                continue
            if rows is None:
                rows = _table_rows(evidence)
            ranked = (
                _table_rank(cue, rows, claim, evidence)
                or _value_order(cue, claim, evidence)
                or _ratio_direction(cue, claim, evidence)
            )
            if ranked is not None:
                out.append(ranked)
    if not any(f.effect == "contradict" for f in out):
        out += covariation_conflicts(claim, evidence)
    if not any(f.effect == "contradict" for f in out):
        out += _polar_swaps(claim, evidence)
    return out


# Plain adjectives of degree and their opposites: "high recall" is not "low recall".
_POLAR = {
    "high": "low",
    "low": "high",
    "large": "small",
    "small": "large",
    "strong": "weak",
    "weak": "strong",
    "fast": "slow",
    "slow": "fast",
}
_POLAR_NOT_MEASURES = frozenset(lx.split_words("group groups arm arms cohort dose doses"))


def _polar_pairs(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    """(adjective, stem of the noun it qualifies, span) for "high recall", "very low precision";
    not for hyphenated words ("low-dose") or group names ("the high dose group")."""
    ws = lx.words(text)
    out = []
    for i, w in enumerate(ws):
        if w.lower not in _POLAR:
            continue
        j = i + 1  # the noun right after the adjective ("very low precision": low, precision)
        if j >= len(ws) or not lx.is_content(ws[j]) or "-" in ws[j].text:
            continue
        if text[w.end : ws[j].start].strip(" ") or ws[j].lower in _POLAR_NOT_MEASURES:
            continue
        if j + 1 < len(ws) and ws[j + 1].lower in _POLAR_NOT_MEASURES:
            continue
        out.append((w.lower, ws[j].stem, (w.start, ws[j].end)))
    return out


def _polar_swaps(claim: str, evidence: str) -> list[Finding]:
    """ "Aimed for high precision while accepting very low recall" against "target a high
    recall ... and accept very low precision": the evidence gives the claim's measure the
    opposite degree and never the claim's."""
    ev = _polar_pairs(evidence)
    said = {(adj, noun) for adj, noun, _ in ev}
    for adj, noun, span in _polar_pairs(claim):
        if (adj, noun) in said:
            continue
        other = next((e for e in ev if e[0] == _POLAR[adj] and e[1] == noun), None)
        if other is not None:
            return [
                lx.finding(
                    "comparative",
                    "contradict",
                    f"the claim says {claim[span[0] : span[1]]!r}, the evidence "
                    f"{evidence[other[2][0] : other[2][1]]!r}",
                    claim,
                    evidence,
                    span,
                    other[2],
                )
            ]
    return []


# --- co-variation: "A weakens as B increases" against "a positive relationship between A and B"

_COVARY_UP = lx.UP_WORDS | frozenset(
    lx.split_words("strengthen strengthens strengthened grow grows grew intensify intensifies")
)
_COVARY_DOWN = lx.DOWN_WORDS | frozenset(
    lx.split_words("weaken weakens weakened weakening shrinks")
)
_RELATION = re.compile(
    r"\b(?P<sign>positive|negative|inverse|direct)(?:ly)?\s+(?:linear\s+|monotonic\s+)?"
    r"(?:relationship|relation|correlation|association|dependence|link)\s+between\s+"
    r"(?P<a>[^.;:()]+?)\s+and\s+(?P<b>[^.;:(),]+)",
    re.IGNORECASE,
)
_RELATED = re.compile(
    r"\b(?P<sign>positively|negatively|inversely)\s+(?:correlated|associated|related)\s+"
    r"(?:with|to)\s+(?P<b>[^.;:(),]+)",
    re.IGNORECASE,
)
_AS = re.compile(
    r"\b(?:as|when|while)\b|"
    r"\bwith\s+(?=(?:increasing|decreasing|rising|falling|higher|lower|greater)\b)",
    re.IGNORECASE,
)
_GENERIC_COVARY = frozenset(lx.split_words("level levels value values degree amount"))


def _covary_sign(word: str) -> int:
    w = word.lower()
    return 1 if w in _COVARY_UP else -1 if w in _COVARY_DOWN else 0


def _variables(text: str) -> set[str]:
    return lx.content_stems(lx.words(text)[:8]) - _GENERIC_COVARY


def _covariations(text: str) -> list[tuple[int, set[str], set[str], tuple[int, int]]]:
    """(sign, A's stems, B's stems, span) of each statement that two quantities move together
    (+1) or against each other (-1): "a positive relationship between A and B", "A was
    negatively correlated with B", "A should weaken as B increases", "A rises with increasing B"."""
    out = []
    for m in _RELATION.finditer(text):
        sign = 1 if m["sign"].lower() in ("positive", "direct") else -1
        span = (m.start(), m.start("b") + len(m["b"].rstrip()))
        out.append((sign, _variables(m["a"]), _variables(m["b"]), span))
    ws = lx.words(text)
    for m in _RELATED.finditer(text):
        k = _word_from(ws, m.start())
        if k is None:
            continue
        subject = lx.content_stems(lx.run(text, ws, k, -1, limit=6))
        subject -= {"correl", "associ", "relat"} | _GENERIC_COVARY
        sign = 1 if m["sign"].lower() == "positively" else -1
        span = (m.start(), m.start("b") + len(m["b"].rstrip()))
        out.append((sign, subject, _variables(m["b"]), span))
    for m in _AS.finditer(text):
        k = _word_from(ws, m.start())
        if k is None or k == 0:
            continue
        sign_a = _covary_sign(ws[k - 1].text)
        verb = ws[k - 1] if sign_a else None
        if verb is None and k >= 2 and ws[k - 2].lower in _MOTION and ws[k - 1].lower in _WAY:
            verb, sign_a = ws[k - 2], _WAY[ws[k - 1].lower]  # "the error went up as ..."
        if verb is None:
            continue
        subject = lx.content_stems(lx.run(text, ws, ws.index(verb), -1, limit=8))
        subject -= _GENERIC_COVARY
        rest = lx.run(text, ws, k, +1, limit=9)
        if m.group().lower().startswith("with"):
            # "rises with increasing B": the direction word opens the clause.
            sign_b = _covary_sign(rest[0].text) if rest else 0
            b = lx.content_stems(rest[1:]) - _GENERIC_COVARY
        else:
            moved = next((j for j, w in enumerate(rest) if _covary_sign(w.text)), None)
            if moved is None:
                continue
            sign_b = _covary_sign(rest[moved].text)
            b = lx.content_stems(rest[:moved]) - _GENERIC_COVARY
        if sign_b and subject and b:
            end = rest[-1].end if rest else m.end()
            out.append((sign_a * sign_b, subject, b, (verb.start, end)))
    return out


def _word_from(ws: list[lx.Word], at: int) -> int | None:
    """The index of the first word that starts at or after offset `at`."""
    return next((i for i, w in enumerate(ws) if w.start >= at), None)


def _covariation_pairs(
    claim: str, evidence: str, *, close: bool = False
) -> Iterator[tuple[int, tuple[int, int], int, tuple[int, int]]]:
    """(sign, span, evidence's sign, evidence's span) of each statement of the claim that two
    quantities move together, with each statement of the evidence about the same two. With
    `close`, the two sides of each quantity share more than half the words of the shorter
    one: "colony growth rate" is not "colony size"."""
    same = _same_quantity if close else _shared
    ev = _covariations(evidence)
    for sign, a, b, span in _covariations(claim):
        for e_sign, ea, eb, e_span in ev:
            if (same(a, ea) and same(b, eb)) or (same(a, eb) and same(b, ea)):
                yield sign, span, e_sign, e_span


def _same_quantity(mine: set[str], theirs: set[str]) -> bool:
    return len(_shared(mine, theirs)) > min(len(mine), len(theirs)) / 2


def covariation_agreement(claim: str, evidence: str, *, close: bool = False) -> int:
    """+1 when the evidence says two quantities of the claim move together the way the claim
    says, -1 when it says only the other way, 0 when it says neither (`close`: see
    `_covariation_pairs`)."""
    signs = {
        sign * e_sign for sign, _, e_sign, _ in _covariation_pairs(claim, evidence, close=close)
    }
    return 1 if 1 in signs else -1 if signs else 0


def covariation_conflicts(claim: str, evidence: str) -> list[Finding]:
    """The claim says two quantities move one way together, the evidence the other way."""
    out: list[Finding] = []
    done: set[tuple[int, int]] = set()
    for sign, span, e_sign, e_span in _covariation_pairs(claim, evidence):
        if span in done or e_sign == sign:
            continue
        done.add(span)  # the first statement of the evidence against each of the claim's
        out.append(
            lx.finding(
                "comparative",
                "contradict",
                f"the claim says {claim[span[0] : span[1]]!r} (they move "
                f"{'together' if sign > 0 else 'against each other'}), the evidence "
                f"{evidence[e_span[0] : e_span[1]]!r}",
                claim,
                evidence,
                span,
                e_span,
            )
        )
    return out


_COMPARATIVE = re.compile(
    r"(?:larg|small|high|low|great|long|short|bigg|fast|slow|strong|weak|old|young)er|more|less|"
    r"fewer",
    re.IGNORECASE,
)


def _implicit_swap(cue: _Cue, ev: list[_Cue], claim: str, evidence: str) -> Finding | None:
    """ "A were larger than B" against "... both A and B ..., B were larger": the evidence
    names the other side as the larger one without a "than", and names the claim's side
    elsewhere (Atlantic sharpnose sharks: "backtransformed age estimates were significantly
    larger" for "the direct vertebral ages were significantly larger than the backtransformed
    ones")."""
    word = claim[cue.span[0] : cue.span[1]]
    if not cue.right or not _COMPARATIVE.fullmatch(word):
        return None
    ws = lx.words(claim)
    k = next(i for i, w in enumerate(ws) if w.start == cue.span[0])
    mine = lx.content_stems(lx.run(claim, ws, k, -1, limit=8)) - cue.right
    theirs_only = cue.right - mine
    ev_ws = lx.words(evidence)
    for e in ev:
        said = evidence[e.span[0] : e.span[1]]
        if e.right or e.direction != cue.direction or not _COMPARATIVE.fullmatch(said):
            continue
        j = next(i for i, w in enumerate(ev_ws) if w.start == e.span[0])
        subject = lx.run(evidence, ev_ws, j, -1, limit=8)
        stems = lx.content_stems(subject)
        elsewhere = lx.content_stems([w for w in ev_ws if w not in subject])
        if stems & theirs_only and (mine - stems) & elsewhere and not mine & theirs_only:
            return lx.finding(
                "comparative",
                "contradict",
                f"the claim says {word!r} of the other side: the evidence's {said!r} is of "
                f"{' '.join(w.text for w in reversed(subject))!r}",
                claim,
                evidence,
                cue.span,
                e.span,
            )
    return None


# --- a comparison read off two numbers -----------------------------------------------------

_THAN_WORD = re.compile(r"\bthan\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:.]\s|[,;:.]$")
_LABEL_STOP = re.compile(r"[;.]\s|\b(?:and|vs\.?|versus|compared|whereas|while|but)\b|,")


def _comparison_sides(cue: _Cue, claim: str) -> tuple[set[str], set[str], set[str]] | None:
    """The words of side A, side B and the measure of a claim's "A ... less/more ... than B"
    (or "A outperforms B"). B is what follows "than"; of the words between the direction word
    and "than" and the words before the direction word, side A is the set that shares a word
    with B ("in people treated with X than in people treated with Y", "the surgical group had
    a higher rate than the conventional group") and the other names the measure."""
    if not cue.right:
        return None
    m = _THAN_WORD.search(claim, cue.span[1])
    if m is not None:
        stop = _CLAUSE_END.search(claim, m.end())
        b_words = lx.words(claim[m.end() : stop.start() if stop else len(claim)])[:9]
        b = _side(b_words) | _absence(b_words)
    else:
        b = cue.right
    left, before = cue.left - {"than"}, cue.before
    if _shared(left, b) and not _shared(before, b):
        a, measure = left, before
    elif _shared(before, b) and not _shared(left, b):
        a, measure = before, left
    else:
        a, measure = left | before, set()
    a, b = a - b, b - a
    return (a, b, measure) if a and b else None


def _labels(sentence: str, values: list[Quantity], after: bool) -> list[set[str]]:
    """The words that name what each value is of: those after it up to the next value or
    clause ("73% in the surgical group"), or before it back to the previous one ("surgical
    group: 73%")."""
    out = []
    for k, q in enumerate(values):
        if after:
            end = values[k + 1].span[0] if k + 1 < len(values) else len(sentence)
            text = sentence[q.span[1] : end]
            stop = _LABEL_STOP.search(text)
            text = text[: stop.start()] if stop else text
        else:
            start = values[k - 1].span[1] if k else 0
            text = sentence[start : q.span[0]]
            cut = list(_LABEL_STOP.finditer(text))
            text = text[cut[-1].end() :] if cut else text
        ws = lx.words(text)[:8]
        out.append(
            _side(ws) | _absence(ws) | {part for w in ws for part in lx.hyphen_parts(w.text)}
        )
    return out


def _absence(ws: list[lx.Word]) -> set[str]:
    """A side named by what it lacks: "participants without dementia", "those who stayed
    dementia-free", "non-smokers" all give the marker "without"."""
    if any(
        w.lower in ("without", "non", "free")
        or w.lower.endswith("-free")
        or w.lower.startswith("non-")
        for w in ws
    ):
        return {"without"}
    return set()


def _pick(labels: list[set[str]], side: set[str], other: set[str]) -> int | None:
    """The one value whose label shares more words with `side` than with `other`."""
    hits = [
        k
        for k, label in enumerate(labels)
        if len(_shared(label, side)) > len(_shared(label, other))
    ]
    return hits[0] if len(hits) == 1 else None


def _value_order(cue: _Cue, claim: str, evidence: str) -> Finding | None:
    """ "Remission occurs less with conventional therapy than with gastric banding" against
    "remission was achieved by 22 (73%) in the surgical group and 4 (13%) in the conventional-
    therapy group": the evidence gives one value for each side, of the same unit, in a
    sentence about the claim's measure; their order supports or reverses the claim's.

    A value is tied to a side by the words next to it. A reversal needs both sides found by
    name; support may take the second of exactly two values as the other side's."""
    sides = _comparison_sides(cue, claim)
    if sides is None:
        return None
    a_side, b_side, measure = sides
    claim_stems = lx.content_stems(lx.words(claim)) - {lx.stem(claim[slice(*cue.span)])}
    for lo, hi in split_sentences(evidence):
        sentence = evidence[lo:hi]
        stems = lx.content_stems(lx.words(sentence))
        if measure and not _shared(measure, stems):
            continue  # the sentence does not give the claim's measure
        topic = claim_stems & stems
        if len(topic) < 2:
            continue  # a sentence about something else
        # "Better" goes the way of a measure that both sides name ("a lower error rate").
        way = _good_way(topic) if cue.evaluative else 1
        if way is None:
            continue
        sign = cue.direction * way
        by_unit: dict[str, list[Quantity]] = {}
        for q in parse_quantities(sentence):
            # A bare small integer is as often a label ("Figure 2", "model 3") as a measure;
            # a year dates a finding; a spread ("SD = 2.6") belongs to the value before it.
            bare = not q.unit and (q.decimals == 0 and (q.value < 10 or 1800 <= q.value <= 2100))
            spread = _SPREAD_BEFORE.search(sentence, 0, q.span[0]) is not None
            if q.kind == "value" and q.high is None and not bare and not spread:
                by_unit.setdefault(q.unit, []).append(q)
        # Percentages first: counts of groups of different sizes do not compare.
        for unit in sorted(by_unit, key=lambda u: (u != "%", u == "")):
            values = by_unit[unit]
            for after in (True, False):
                found = _ordered(sentence, values, after, (a_side, b_side))
                if found is None:
                    continue
                qa, qb, named = found
                agrees = (qa.value > qb.value) == (sign > 0)
                if not agrees and not named:
                    continue
                said = claim[cue.span[0] : cue.span[1]]
                shown = f"{qa.text_of(sentence)} against {qb.text_of(sentence)}"
                first, last = sorted((qa.span, qb.span))
                return lx.finding(
                    "comparative",
                    "support" if agrees else "contradict",
                    f"the claim says {said!r}; the evidence gives {shown}"
                    + ("" if agrees else ", the other way round"),
                    claim,
                    evidence,
                    cue.span,
                    (lo + first[0], lo + last[1]),
                )
    return None


_SPREAD_BEFORE = re.compile(r"(?:\b(?:SDs?|SEM?|s\.[de]\.)\s*[=:]?|±|\+/-)\s*$")


def _ordered(
    sentence: str,
    values: list[Quantity],
    after: bool,
    sides: tuple[set[str], set[str]],
) -> tuple[Quantity, Quantity, bool] | None:
    """The values of side A and side B in one sentence, and whether both were found by name
    (else B is the other of exactly two values, and A's label names it by two words)."""
    if len(values) < 2:
        return None
    a_side, b_side = sides
    # "Women and men had recall of 0.71 and 0.64, respectively": the list says whose is which.
    labels = respective_cases(sentence, values) or _labels(sentence, values, after)
    a, b = _pick(labels, a_side, b_side), _pick(labels, b_side, a_side)
    named = a is not None and b is not None
    if a is not None and b is None and len(values) == 2:
        b = 1 - a
        named = len(_shared(labels[a], a_side)) >= 2
    elif a is None and b is None and len(values) == 2:
        # Two labels alike but for a word ("participants who developed dementia reported a
        # mean of 3.0 ..., and participants without dementia reported a mean of 3.7"): that
        # word names the side, and the rest of the label must name the claim's side A.
        common = labels[0] & labels[1]
        own = [label - common for label in labels]
        b = _pick(own, b_side, a_side)
        if b is not None:
            a = 1 - b
            named = len(_shared(labels[a], a_side)) >= 2
    if a is None or b is None or a == b or values[a].value == values[b].value:
        return None
    return values[a], values[b], named


# "HR 0.50 (95% CI, 0.36-0.69)", "odds ratio 1.32 (1.10 to 1.50)": an estimate and its interval.
_NUM = r"\d+(?:[.·]\d+)?"
_RATIO_CI = re.compile(
    RATIO_NAMES + r"[^.;]{0,120}?(?P<est>" + _NUM + r")\s*[(\[,;]\s*(?:\d{2}\s*%\s*)?"
    r"(?:CI|confidence intervals?)?\s*[,:=]?\s*(?P<lo>" + _NUM + r")(?:\s*\[[^\]]{0,20}\])?"
    r"\s*(?:-|–|−|to|,)\s*(?P<hi>" + _NUM + r")"
)
_RISK_WORDS = ("risk", "odd", "hazard", "incid", "mortal", "death", "likelihood", "chanc")


def _ratio_direction(cue: _Cue, claim: str, evidence: str) -> Finding | None:
    """ "Whole fruit increases the risk of type 2 diabetes" against "the pooled hazard ratio of
    type 2 diabetes for every three servings/week of whole fruit was 0.98 (95% confidence
    interval 0.97 to 0.99)": a ratio whose interval lies wholly below 1 is a lower risk, wholly
    above 1 a higher one. An interval that spans 1 says neither."""
    target = cue.after | cue.before
    if not any(t.startswith(_RISK_WORDS) for t in target):
        return None
    claim_stems = {
        t for t in lx.content_stems(lx.words(claim)) if not t.startswith(_RISK_WORDS)
    } - {lx.stem(claim[slice(*cue.span)])}
    for m in _RATIO_CI.finditer(evidence):
        est, lo, hi = (float(m[k].replace("·", ".")) for k in ("est", "lo", "hi"))
        if not lo <= est <= hi:
            continue
        way = -1 if hi < 1 else 1 if lo > 1 else 0
        sentence = _sentence_before(evidence, m.end())
        if not way or len(claim_stems & lx.content_stems(lx.words(sentence))) < 2:
            continue
        said = claim[cue.span[0] : cue.span[1]]
        side = "below" if way < 0 else "above"
        agrees = way == cue.direction
        return lx.finding(
            "comparative",
            "support" if agrees else "contradict",
            f"the claim says {said!r}; the evidence's ratio {m['est']} ({m['lo']} to {m['hi']}) "
            f"lies {side} 1" + ("" if agrees else ", the other way"),
            claim,
            evidence,
            cue.span,
            (m.start("est"), m.end("hi")),
        )
    return None


# A row of a table flattened into text: a label, then at least two numbers ("GANomaly 0.830256
# 0.841112 0.835648").
_TABLE_ROW = re.compile(
    r"(?<![\w/+\-])(?P<label>[A-Za-z][\w/+\-]*[\w+])[∗*†‡]?(?:\s+\([^()]{1,20}\))?"
    r"(?P<cells>(?:\s+[-+−]?\d+(?:\.\d+)?%?){2,})(?![\w.])"
)
_CELL = re.compile(r"[-+−]?\d+(?:\.\d+)?")


def _table_rows(evidence: str) -> dict[str, tuple[list[float], tuple[int, int]]]:
    """The rows of a table flattened into the evidence, by label stem; a label seen twice, or
    rows of different lengths, make no table."""
    rows: dict[str, tuple[list[float], tuple[int, int]]] = {}
    seen: set[str] = set()
    for m in _TABLE_ROW.finditer(evidence):
        key = lx.stem(m["label"])
        cells = [float(c.replace("−", "-")) for c in _CELL.findall(m["cells"])]
        if key in seen:
            rows.pop(key, None)
            continue
        seen.add(key)
        rows[key] = (cells, m.span())
    if len({len(v[0]) for v in rows.values()}) != 1:
        return {}
    return rows


def _table_rank(
    cue: _Cue, rows: dict[str, tuple[list[float], tuple[int, int]]], claim: str, evidence: str
) -> Finding | None:
    """ "A outperformed B" or "A had higher scores than B" against a table flattened into the
    evidence (its `_table_rows`) where A's row is below B's in every column (or above, for
    "lower")."""
    if not cue.right or len(rows) < 2:
        return None
    a = [k for k in rows if k in (cue.left | cue.before) - cue.right]
    b = [k for k in rows if k in cue.right - cue.left]
    if len(a) != 1 or len(b) != 1:
        return None
    said = claim[cue.span[0] : cue.span[1]]
    if cue.evaluative and _good_way(lx.content_stems(lx.words(f"{claim} {evidence}"))) == -1:
        return None  # "outperformed" on an error or a runtime: which way the rows rank is not said
    (mine, span), (theirs, _) = rows[a[0]], rows[b[0]]
    if cue.direction > 0 and all(x < y for x, y in zip(mine, theirs, strict=True)):
        relation = "below"
    elif cue.direction < 0 and all(x > y for x, y in zip(mine, theirs, strict=True)):
        relation = "above"
    else:
        return None
    return lx.finding(
        "comparative",
        "contradict",
        f"the claim says {said!r}, but in the evidence's table its row is {relation} the "
        "other in every column",
        claim,
        evidence,
        cue.span,
        span,
    )


_OBJECT_VERBS = ("outperform", "exceed", "surpass", "beat", "underperform")


def _side(ws: list[lx.Word]) -> set[str]:
    # Keep "A" and "B" in "model A" / "group B": they are what tells the two sides apart.
    return {
        w.stem
        for w in ws
        if (w.lower not in lx.STOPWORDS or w.text.isupper())
        and not lx.direction(w.lower)
        and w.lower != "than"
    }


# --- restatement ---------------------------------------------------------------------------

RESTATEMENT_MIN_WORDS = 6
RESTATEMENT_COVERAGE = 0.85
_DIGITS = re.compile(r"\d+(?:[.,·]\d+)*")


def check_restatement(claim: str, evidence: str) -> list[Finding]:
    """A `support` finding when the claim repeats the evidence word for word, `ok` when it
    nearly does (or a negation `contradict` finding when the repeat adds or drops a "not").

    At least 85% of the claim's content words (and at least six of them) appear in the
    evidence, and every word it does not take from there is a plain lower-case word: no name,
    symbol, number, negation or direction word. A small model can misread a long sentence full
    of numbers that it is handed back unchanged; this finding lets `decide()` keep such a quote
    supported, while the other checks still catch a changed number, polarity or condition.
    """
    ws = lx.words(claim)
    content = [w for w in ws if lx.is_content(w)]
    if len(content) < RESTATEMENT_MIN_WORDS:
        return []
    ev = lx.words(evidence)
    missing = _unmatched(content, ev)
    if missing is None:
        return []
    swapped = _swapped_number(claim, evidence)
    if swapped is not None:
        return [swapped]
    # A negation added or dropped in front of a shared word ("was met" / "was not met") is,
    # on a near-verbatim claim, a clear contradiction: near-verbatim to one sentence. Several
    # sentences read together (a paper's statements joined for a compound claim) each
    # negate in their own order.
    claim_neg, ev_neg = _negated(ws, claim), _negated(ev, evidence)
    # The same negation a few words further off ("without any human input" / "without
    # requiring any human input") is not a flip: a flip must hold at the wider reach too.
    claim_far, ev_far = _negated(ws, claim, reach=4), _negated(ev, evidence, reach=4)
    # As many negations on both sides, one of them on the same word ("was not significant
    # (p = 0.06)" / "was not significantly different ... (p = 0.06)"): the "not" reaches
    # other words in the reworded sentence, it has not been added or dropped.
    # The same holds at the wider reach: "computed without AnoGAN's optimisation steps" /
    # "computing ... without optimization steps ... as it happens in AnoGAN".
    same_cues = sum(map(lx.is_negation, ws)) == sum(map(lx.is_negation, ev))
    moved = same_cues and any(
        True in v and True in theirs.get(s, ())
        for mine, theirs in ((claim_neg, ev_neg), (claim_far, ev_far))
        for s, v in mine.items()
    )
    for w in [] if moved or not _restates_one(content, evidence) else content:
        if (
            w.stem in ev_neg
            and _flipped(claim_neg[w.stem], ev_neg[w.stem])
            and _flipped(claim_far[w.stem], ev_far[w.stem])
        ):
            added = True in claim_neg[w.stem]
            # The other side negates the verb after the word instead: "no response arrived" /
            # "the response did not arrive", "that the sources do not contain" / "that does
            # not exist in the source".
            if _negated_after(ev if added else ws, w.stem, evidence if added else claim):
                continue
            said = "adds a negation before" if added else "drops the negation before"
            return [
                lx.finding(
                    "negation",
                    "contradict",
                    f"the claim restates the evidence but {said} '{w.text}'",
                    claim,
                    evidence,
                    (w.start, w.end),
                )
            ]
    for w in missing:
        plain = w.text.isalpha() and (w.text.islower() or w is ws[0] and w.text[1:].islower())
        if (
            not plain
            or lx.direction(w.lower)
            or w.lower in lx.NEGATION_PREFIX
            or w.lower in lx.NEGATION_SUFFIX
        ):
            return []
    # Every number as written (a year, a dose, "5'" in "5'-->3'") must be in the evidence too.
    if not set(_DIGITS.findall(claim)) <= set(_DIGITS.findall(evidence)):
        return []
    covered = len(content) - len(missing)
    # Only a claim that takes every content word from the evidence overrides the model: a
    # swapped word ("benefit" -> "harm", "positive" -> "negative") is left to the model.
    return [
        lx.finding(
            "restatement",
            "ok" if missing else "support",
            f"the claim restates the evidence ({covered} of its {len(content)} content words)",
            claim,
            evidence,
            (0, len(claim)),
        )
    ]


_TOKEN = re.compile(r"\d+(?:[.,·]\d+)*|[^\W\d_]+", re.UNICODE)


def _swapped_number(claim: str, evidence: str) -> Finding | None:
    """In a near-verbatim restatement, a number written where the evidence has another one:
    "recurrence was 76.4%" against "recurrence was 46.8%", even when 76.4 appears elsewhere in
    the evidence (which is how a number moved from one group to another slips past a check that
    only asks whether the value is there)."""
    import difflib

    c_tok = [(m.group().lower(), m.span()) for m in _TOKEN.finditer(claim)]
    e_tok = [(m.group().lower(), m.span()) for m in _TOKEN.finditer(evidence)]
    matcher = difflib.SequenceMatcher(
        a=[t for t, _ in e_tok], b=[t for t, _ in c_tok], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
            continue
        (e_text, e_span), (c_text, c_span) = e_tok[i1], c_tok[j1]
        if not (e_text[0].isdigit() and c_text[0].isdigit()) or e_text == c_text:
            continue
        # The words on both sides agree: the same slot holds another number.
        before = i1 > 0 and j1 > 0 and e_tok[i1 - 1][0] == c_tok[j1 - 1][0]
        after = i2 < len(e_tok) and j2 < len(c_tok) and e_tok[i2][0] == c_tok[j2][0]
        if before and after:
            return lx.finding(
                "number",
                "contradict",
                f"the claim restates the evidence with {claim[c_span[0] : c_span[1]]!r} where "
                f"it has {evidence[e_span[0] : e_span[1]]!r}",
                claim,
                evidence,
                c_span,
                e_span,
            )
    return None


# Cues that bound or list rather than negate; unlike `_NOT_NEGATIONS`, "not necessarily"
# and "not always" stay negations here, where only a flip of the same words is looked for.
_BOUNDS = re.compile(
    r"\b(?:no|not)\s+(?:more|less|later|earlier|fewer|greater)\s+than\b|\bwhether or not\b|"
    r"\bor without\b|\bor not\b",
    re.IGNORECASE,
)
_SCOPE_BREAK = re.compile(
    r"[,;:)\]]|\b(?:if|when|whenever|because|since|unless|while|whereas|which|that)\b"
)


def _flipped(claim: list[bool], evidence: list[bool]) -> bool:
    """Whether a word's negation differs between claim and evidence. With as many occurrences
    on both sides they are read in order ("is not regulated ..., suggesting that size is
    regulated" against two plain ones); with fewer in the claim, a word the evidence states
    both ways ("Myocardial injury is associated with fatal outcome, while ... without
    myocardial injury ...") is no flip for a claim that keeps one of them: a shortened
    sentence drops the clause that negates it."""
    if len(claim) == len(evidence):
        return claim != evidence
    return not set(claim) & set(evidence)


def _restates_one(content: list[lx.Word], evidence: str) -> bool:
    """Whether one sentence of the evidence has nearly all of the claim's content words."""
    spans = split_sentences(evidence)
    if len(spans) <= 1:
        return True
    return any(_unmatched(content, lx.words(evidence[a:b])) is not None for a, b in spans)


def _unmatched(content: list[lx.Word], ev: list[lx.Word]) -> list[lx.Word] | None:
    """The claim's content words that `ev` lacks, or None when it lacks more than a
    restatement may (`RESTATEMENT_COVERAGE`)."""
    known = {w.stem for w in ev} | {w.lower for w in ev}
    missing = [w for w in content if w.stem not in known and w.lower not in known]
    return None if len(missing) > (1.0 - RESTATEMENT_COVERAGE) * len(content) else missing


def _negated_after(ws: list[lx.Word], stem: str, text: str, *, within: int = 3) -> bool:
    """Whether a negation follows the word `stem` within `within` words of its clause."""
    for i, w in enumerate(ws):
        if w.stem != stem:
            continue
        for v in ws[i + 1 : i + 1 + within]:
            if _SCOPE_BREAK.search(text, w.end, v.start):
                break
            if lx.is_negation(v):
                return True
    return False


def _negated(ws: list[lx.Word], text: str, *, reach: int = 2) -> dict[str, list[bool]]:
    """Stem -> for each of its occurrences in order, whether it stands under an odd number of
    negations.

    A negation covers the next `reach` content words within `reach + 3` words, so "was not
    46.8% in the WBRT group" negates "WBRT" and "group", and "not no proven" cancels out. It
    stops at a clause or a closing bracket: "marks it as failed if no response arrives" negates
    "response" once; "(via letter only, without follow-up) would require" leaves "require".
    A cue that is a bound, not a negation ("no more than three levels"), covers nothing.
    """
    skip = [m.span() for m in _BOUNDS.finditer(text)]
    cues = [
        j
        for j, w in enumerate(ws)
        if lx.is_negation(w)
        and not any(a <= w.start < b for a, b in skip)
        and not _failed_as_adjective(ws, j)
    ]
    out: dict[str, list[bool]] = {}
    for i, w in enumerate(ws):
        if lx.is_negation(w) or not lx.is_content(w):
            continue
        covering = 0
        for j in cues:
            if not i - reach - 3 <= j < i or _SCOPE_BREAK.search(text, ws[j].end, w.start):
                continue
            between = [v for v in ws[j + 1 : i] if lx.is_content(v) and not lx.is_negation(v)]
            covering += len(between) < reach
        out.setdefault(w.stem, []).append(covering % 2 == 1)
    return out


CHECKS: tuple[Callable[[str, str], list[Finding]], ...] = (
    check_numbers,
    check_respectively,
    check_negation,
    check_entities,
    check_hedging,
    check_conditions,
    check_comparatives,
    check_restatement,
)


def run_checks(claim: str, evidence: str) -> list[Finding]:
    """All deterministic checks of `claim` against one evidence span, in a fixed order."""
    return [finding for check in CHECKS for finding in check(claim, evidence)]
