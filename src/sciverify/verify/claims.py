"""Paragraphs -> atomic claims: one checkable statement each, with what it asserts and cites.

A paragraph is split into sentences (`chunk.split_sentences`), then a sentence whose
coordinated clauses each carry their own finding ("X increased A, and Y reduced B") into one
claim per clause. Questions, transitions ("In this section we ..."), statements of intent
("We will ...") and sentences about the draft's own scope ("This list groups ...") are not
claims: they are skipped and counted. Each claim keeps its span in the draft, its numbers,
entities, hedges and conditions, and the citations written on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from sciverify.chunk import split_sentences
from sciverify.entail import lexicon as lx
from sciverify.verify.citations import Citation, find_citations, strip_citations
from sciverify.verify.segment import Segment

_QUESTION = re.compile(r"\?\s*[\"”’)]*\s*$")
_TRANSITION = re.compile(
    r"^(?:in this (?:section|chapter|review|paper|article|part)\b|"
    r"this (?:section|chapter|review|paper|article) (?:describes|presents|reviews|discusses|"
    r"summari[sz]es|outlines|covers|examines|is organi[sz]ed)\b|"
    r"the (?:rest|remainder) of (?:this|the) (?:section|review|paper|article)\b|"
    r"(?:next|below|here|now|first|finally|in what follows),? we (?:turn|describe|discuss|review|"
    r"present|summari[sz]e|consider|outline|examine|look)\b|"
    r"we (?:now|next|then) (?:turn|describe|discuss|review|present|consider)\b|"
    r"the following (?:section|sections|paragraphs?|subsections?)\b|"
    r"(?:table|figure|fig\.) \d+ (?:lists|summari[sz]es|gives|shows an overview)\b|"
    r"see (?:table|figure|section|appendix)\b|"
    r"(?:we|this review) (?:begin|start|conclude) (?:with|by)\b)",
    re.IGNORECASE,
)
_INTENT = re.compile(
    r"^(?:(?:we|i) (?:will|shall|intend to|plan to|aim to|propose to|would like to|want to)\b|"
    r"(?:our|the) (?:aim|goal|objective|purpose)(?: of this (?:review|section|paper|work))? "
    r"(?:is|was|here is) to\b|"
    r"this (?:review|paper|section|work|article) (?:aims|seeks|sets out|attempts|intends) to\b|"
    r"let us\b|future (?:work|studies|research) (?:will|should|could|may)\b)",
    re.IGNORECASE,
)
# Sentences about the draft itself, not the literature: what a list or review groups, covers or
# leaves out ("This list groups papers on ...", "Entries on X are limited to the forearm").
_SCOPE = re.compile(
    r"^(?:(?:this|the present|the following|our) (?:list|review|survey|overview|bibliography|"
    r"collection|selection|compilation|reading list|section|chapter|table)|"
    r"(?:the )?(?:entries|items|papers|studies|works|references) (?:listed|included|selected|"
    r"collected|cited|gathered) (?:here|below|above|in this (?:list|review|section|table))|"
    r"(?:the )?(?:entries|items) (?:on|about)\b[^.;]{0,80}?)\s+"
    r"(?:groups?|lists?|includes?|covers?|collects?|gathers?|brings? together|focus(?:es)? on|"
    r"concentrates? on|excludes?|omits?|(?:is|are) (?:limited|restricted|confined) to|"
    r"(?:is|are) (?:grouped|sorted|ordered|arranged))\b",
    re.IGNORECASE,
)
_MARKUP = (
    (re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+", re.MULTILINE), ""),  # list markers
    (re.compile(r"^\s*>\s?", re.MULTILINE), ""),  # quotes
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links and images -> their text
    (re.compile(r"(\*\*|__)(.+?)\1"), r"\2"),
    (re.compile(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])"), r"\2"),
    (re.compile(r"`([^`]*)`"), r"\1"),
    (re.compile(r"\s+"), " "),
)
CAUSAL = re.compile(
    r"\b(?:caus(?:e|es|ed|ing)|lead(?:s|ing)? to|led to|result(?:s|ed|ing)? in|due to|"
    r"because of|driv(?:e|es|en|ing)\b|induc(?:e|es|ed|ing)\b|responsible for|attributable to|"
    r"is the cause)",
    re.IGNORECASE,
)
UNIVERSAL = re.compile(
    r"\b(?:all|always|never|every|none|invariably|universally|without exception|"
    r"in (?:every|all) (?:cases?|patients?|stud(?:y|ies)|settings?))\b",
    re.IGNORECASE,
)
# "checked every three days", "every other service round": how often, not a claim about all.
_FREQUENCY = re.compile(
    r"\s+(?:other|few|\d[\d.,]*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"second|third|fourth|fifth)\b",
    re.IGNORECASE,
)


def universal_word(text: str) -> re.Match[str] | None:
    """The first word of `text` that makes it a claim about all cases ("all", "never", "in
    every study"); not a label in capitals ("a NONE class") or a frequency ("every three
    days")."""
    for m in UNIVERSAL.finditer(text):
        if m.group().isupper() and len(m.group()) > 1:
            continue
        if m.group().lower() == "every" and _FREQUENCY.match(text, m.end()):
            continue
        return m
    return None


_CONDITION = re.compile(
    r"\b(?:in|among|for|under|during|at)\s+(?:[\w-]+\s+){0,3}?(?:mice|rats?|children|adults|"
    r"women|men|infants|patients|participants|pups|animals|vitro|vivo|conditions|pregnancy|"
    r"trauma|weeks?|months?|years?)\b(?:\s+(?:who|with|aged|under|over)\s+[^,;.()]{1,40})?",
    re.IGNORECASE,
)
# Acronyms and symbols ("IDA", "Hb", "p53") anywhere; capitalised names after the first word.
_ACRONYM = re.compile(
    r"\b(?:[A-Z][a-z]?[A-Z0-9][\w-]*|[A-Z]{2,}s?|[A-Z][a-z](?=[\s,.;)])|"
    r"[A-Z]\.?\s[a-z]{3,}(?=[\s,.;)]))"
)
_NAME_WORD = re.compile(r"\b[A-Z][a-z][\w-]+")
_NOT_ENTITIES = frozenset(
    lx.split_words(
        "The This These Those That There Their It In On For We Our Table Figure However Moreover "
        "Furthermore Although While When Both Each All"
    )
)
_FINITE = frozenset(
    lx.split_words(
        """
        is are was were has have had showed show shows found find finds reported reports
        increased decreased reduced improved raised lowered caused led leads causes produced
        performed differed remained achieved yielded demonstrated suggested indicated revealed
        observed exceeded outperformed recognised recognized made took gave runs ran did
        does do differ differs differed change changed changes rose fell grew declined
        recognise recognize predicted predicts affects affected demonstrates establishes
        established proves proved confirms confirmed suggests indicates implies
        """
    )
)
# "..., which establishes that ...": what a finding is said to prove is a claim of its own,
# checked for its own strength ("This establishes that ...").
_PROOF = (
    r"(?:establish(?:es|ed)?|prov(?:es|ed|e)|demonstrat(?:es|ed|e)|show(?:s|ed)?|confirm(?:s|ed)?"
    r"|impl(?:ies|ied)|suggest(?:s|ed)?|indicat(?:es|ed)|mean(?:s|t))"
)
# A colon before a lower-case clause divides like a semicolon ("... for this kind of matter:
# bringing the model into agreement needs ...").
_CONJUNCTION_SPLIT = re.compile(
    r"(?:;\s+|:\s+(?=[a-z])|,\s+(?:and|but|whereas|while|although|though)\s+|\s+whereas\s+"
    r"|,\s+(?=which\s+(?:\w+\s+)?" + _PROOF + r"\s+that\b))"
)


@dataclass(frozen=True, slots=True)
class Claim:
    """One atomic, checkable statement of the draft."""

    claim_id: str  # "p_003.c2"
    paragraph_id: str
    text: str  # the statement, markup and citation markers removed
    span: tuple[int, int]  # its characters in the draft
    citations: tuple[Citation, ...] = ()  # written on this claim (or on its sentence)
    context_citations: tuple[Citation, ...] = ()  # from an earlier sentence it continues
    numbers: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    hedges: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    causal: bool = False
    universal: bool = False
    anaphoric: bool = False  # starts with "This", "They", "These": needs context to retrieve
    wording: str = ""  # as the draft words it: a narrative citation kept ("Roisin and Aron
    # (2003) modelled ..."), where `text` reads "The study modelled ..." for the models

    @property
    def shown(self) -> str:
        """The claim as cards and reports show it: the draft's own wording."""
        return self.wording or self.text

    @property
    def is_simple(self) -> bool:
        """Nothing specific to check: no number, entity, citation, finding or hedge word."""
        if self.numbers or self.entities or self.citations or self.hedges or self.causal:
            return False
        words = lx.words(self.text)
        if any(lx.direction(w.lower) for w in words):
            return False
        # "Malaria has a high vectorial capacity." states something in four content words;
        # "Simple words only here." and "Each has strengths and weaknesses." do not.
        named = bool(words) and words[0].lower not in _VAGUE_SUBJECTS
        if named and any(w.lower in _FINITE for w in words):
            return False
        return len(lx.content_stems(words)) <= 4


@dataclass(slots=True)
class ParagraphClaims:
    claims: list[Claim] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (sentence, reason)


def clean(text: str, *, keep_narrative: bool = False) -> str:
    """Sentence text for models and checks: citation markers and Markdown markup removed
    (a narrative citation reads "the study" unless `keep_narrative`). Citations go first: a
    link that cites ("[Dean & Ghemawat, 2004](https://doi.org/...)") goes whole, text and all."""
    text = strip_citations(text.strip(), keep_narrative=keep_narrative)
    for pattern, repl in _MARKUP:
        text = pattern.sub(repl, text)
    return text.strip()


def _as_claim(text: str, *, reported: bool = False) -> str:
    """A clause as a sentence: a dangling conjunction dropped, a capital, a full stop.
    `reported`: the clause is a second thing its sentence reports ("..., and that B")."""
    text = re.sub(r"[,;:]\s*(?:and|or)?\s*[.]?$", "", text).strip()
    text = re.sub(r"^which\s", "This ", text)  # "..., which establishes that": "This ..."
    if reported:
        text = re.sub(r"^that\s+", "", text)  # "..., and that B": B, the second thing reported
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and not text.endswith((".", "!")):
        text += "."
    return text


def skip_reason(sentence: str) -> str | None:
    """Why a sentence is not a claim (question, transition, intent, scope of the draft itself,
    lead-in, fragment), or None."""
    s = sentence.strip()
    if _QUESTION.search(s):
        return "question"
    if _TRANSITION.match(s):
        return "transition"
    if _INTENT.match(s):
        return "intent"
    if _SCOPE.match(s):
        return "scope"
    if s.endswith(":"):
        return "lead-in"
    n = len(re.findall(r"[A-Za-z]{2,}", s))
    # "DUSP4 decreases apoptosis." is a claim in three words; "Results shown below." is not.
    if n < 3 or (n == 3 and not (_has_finding(s) or _VERB_LIKE.search(s))):
        return "fragment"
    return None


_VAGUE_SUBJECTS = frozenset(
    lx.split_words(
        """each this that these those it they both all some many several such either neither
        there here one others we"""
    )
)
_VERB_LIKE = re.compile(r"\b[a-z]{3,}(?:es|s|ed)\b")


def _depth_zero(text: str) -> list[int]:
    """Positions of text outside any (...) or [...]."""
    depth, out = 0, []
    for i, ch in enumerate(text):
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        depth = max(depth, 0)
        if depth == 0:
            out.append(i)
    return out


def _has_finding(text: str) -> bool:
    words = lx.words(text)
    return any(w.lower in _FINITE or lx.direction(w.lower) for w in words) or bool(
        re.search(r"\d", text)
    )


# A verb that reports what a paper says, before its "that": "They observe that A, and that B".
_REPORTED = re.compile(
    r"\b(?:observ|note|find|found|report|show|argu|suggest|conclud|stat|claim|sa[iy]|propos|"
    r"demonstrat|indicat|reveal|explain|believ|hypothesi[sz]|expect|emphasi[sz]|stress|add|"
    r"recommend|confirm|establish|assert|caution|warn|writ|wrote|point(?:s|ed)? out)"
    r"(?:e|es|ed|s|d|ing)?\s+that\b",
    re.IGNORECASE,
)
_MODALS = frozenset(lx.split_words("can could may might will would should must"))


def _reported_before(sentence: str, at: int) -> bool:
    """A reporting verb with its "that" stands before `at`: what follows may be a second thing
    reported ("They observe that A, and that B")."""
    return _REPORTED.search(sentence, 0, at) is not None


def split_clauses(sentence: str) -> list[tuple[int, int]]:
    """Spans of the coordinated clauses of `sentence` that each carry their own finding."""
    free = set(_depth_zero(sentence))
    cuts: list[tuple[int, int]] = []
    for m in _CONJUNCTION_SPLIT.finditer(sentence):
        if m.start() in free:
            cuts.append(m.span())
    if not cuts:
        return [(0, len(sentence))]
    spans, start = [], 0
    for a, b in cuts:
        spans.append((start, a, b))
        start = b
    pieces = [(s, a) for s, a, _ in spans] + [(start, len(sentence))]
    after_semicolon = {b for _, a, b in spans if re.search("[;:]", sentence[a:b])}
    # "..., whereas fine-tuning managed only 5.64": a contrast has a subject of its own.
    # ("while" is left alone: "..., while just 6 collected judgments" leans on the clause before.)
    after_contrast = {b for _, a, b in spans if "whereas" in sentence[a:b]}
    out: list[tuple[int, int]] = []
    for s, e in pieces:
        part = sentence[s:e]
        ws = lx.words(part)
        # Its own subject: the clause does not start with its verb, and has one after its
        # first word ("the WMD of SF was ..."; not "penetrate the vessel wall"). After a
        # semicolon, any past-tense verb will do ("; the authors judged ...", "; 59% rated ...").
        # "They observe that A, and that B": a second thing reported, a claim of its own.
        reported = part.startswith("that ") and _reported_before(sentence, s)
        loose = s in after_semicolon or s in after_contrast or part.startswith("which ") or reported
        own_subject = (
            bool(ws)
            and ws[0].lower not in _FINITE
            and not lx.direction(ws[0].lower)
            and any(
                w.lower in _FINITE
                or _changes_its_own(ws, k)
                or (loose and len(w.lower) > 4 and w.lower.endswith("ed"))
                or (loose and re.fullmatch(_PROOF, w.lower) is not None)
                or (reported and w.lower in _MODALS)
                for k, w in enumerate(ws[1:], 1)
            )
        )
        if (
            out
            and len(re.findall(r"[A-Za-z]{2,}", part)) >= 4
            and (_has_finding(part) or loose)
            and own_subject
            and _has_finding(sentence[out[-1][0] : out[-1][1]])
        ):
            out.append((s, e))
        elif out:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


# "..., and it increases with the resampling rate": a verb of change in the present tense
# carries the clause's own finding; "..., and adding rings increases it further" changes what
# the clause before names, and stays with it.
_PRESENT_CHANGE = frozenset(
    lx.split_words("increases decreases reduces improves raises lowers worsens")
)


def _changes_its_own(ws: list[lx.Word], k: int) -> bool:
    after = ws[k + 1].lower if k + 1 < len(ws) else ""
    return ws[k].lower in _PRESENT_CHANGE and after not in ("it", "them")


_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+", re.MULTILINE)
_ANAPHOR = re.compile(
    r"^(?:this|these|those|it|its|they|their|such|the same|both)\b", re.IGNORECASE
)


def _features(text: str) -> dict[str, Any]:
    from sciverify.entail.quantities import parse_quantities

    words = lx.words(text)
    hedges = tuple(
        dict.fromkeys(
            w.lower for w in words if lx.HEDGE_LEVEL.get(w.lower, lx.ASSERTION_LEVEL) != 3
        )
    )
    first = words[0].start if words else 0
    found = [m.group() for m in _ACRONYM.finditer(text) if m.group() not in _NOT_ENTITIES]
    found += [
        m.group()
        for m in _NAME_WORD.finditer(text)
        if m.start() > first and m.group() not in _NOT_ENTITIES
    ]
    entities = tuple(dict.fromkeys(found))
    return {
        "numbers": tuple(q.text_of(text) for q in parse_quantities(text)),
        "entities": entities,
        "hedges": hedges,
        "conditions": tuple(m.group() for m in _CONDITION.finditer(text)),
        "causal": bool(CAUSAL.search(text)),
        "universal": universal_word(text) is not None,
        "anaphoric": bool(_ANAPHOR.match(text)),
    }


def extract_claims(paragraph: Segment) -> ParagraphClaims:
    """The claims of one paragraph (none for a table), and the sentences skipped as non-claims."""
    out = ParagraphClaims()
    if paragraph.kind == "table":
        return out
    base = paragraph.span[0]
    previous: tuple[Citation, ...] = ()
    n = 0
    first_item = _LIST_ITEM.search(paragraph.text) if paragraph.kind == "list" else None
    for s, e in split_sentences(paragraph.text):
        sentence = paragraph.text[s:e]
        text = clean(sentence)
        reason = skip_reason(text)
        if first_item is not None and s < first_item.start() and not reason:
            reason = "lead-in"  # the words that introduce a list are not a claim of their own
        if reason:
            out.skipped.append((text, reason))
            continue
        sentence_cites = tuple(find_citations(sentence, base + s))
        for cs, ce in split_clauses(sentence):
            part = sentence[cs:ce].strip(" ,;")
            offset = sentence.find(part, cs)
            reported = cs > 0 and _reported_before(sentence, cs)
            part_text = _as_claim(clean(part), reported=reported)
            if not part_text:
                continue
            own = tuple(find_citations(part, base + s + offset)) or sentence_cites
            n += 1
            features = _features(part_text)
            claim = replace(
                Claim(
                    f"{paragraph.paragraph_id}.c{n}",
                    paragraph.paragraph_id,
                    part_text,
                    (base + s + offset, base + s + offset + len(part)),
                    own,
                    () if own else previous,
                ),
                wording=_as_claim(clean(part, keep_narrative=True), reported=reported),
                **features,
            )
            out.claims.append(claim)
        if sentence_cites:
            previous = sentence_cites
    # A paragraph that opens with uncited sentences and cites its source later ("... virtually
    # no spam in the top buckets. ... a precision of 0.86 (Gyöngyi et al., 2004).") credits
    # those sentences to the same source.
    following: tuple[Citation, ...] = ()
    for i in range(len(out.claims) - 1, -1, -1):
        claim = out.claims[i]
        if claim.citations:
            following = claim.citations
        elif not claim.context_citations and following:
            out.claims[i] = replace(claim, context_citations=following)
    return out
