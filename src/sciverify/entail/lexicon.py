"""Word lists and word-level helpers shared by the deterministic checks.

The lists are data: extend them here, not inside the check functions.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sciverify.records import Finding

# Claim and evidence must share this share of the claim's content words before a polarity,
# direction, entity swap or dropped condition means anything.
RELATED_OVERLAP = 0.3


def split_words(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of a word list written as one string."""
    return tuple(text.split())


def _mapping(text: str) -> dict[str, str]:
    """ "mice:mouse rats:rat" -> {"mice": "mouse", "rats": "rat"}."""
    return dict(item.split(":") for item in text.split())


STOPWORDS = frozenset(
    split_words(
        """
        a an the and or but if then than that this these those there their its it is are was
        were be been being of in on at by for with from to into onto as about over under
        between among within without after before during while whereas which who whom whose
        what when where why how we our they them he she his her you your i me my has have had
        having do does did done can also such both each other some any all more most less least
        very so too only just same per via vs versus et al use used using based may might could
        would should will shall study studies result results data patient patients
        """
    )
)

# Words that frame a statement rather than state it: connectives and the words a summary uses
# to report a paper ("the authors therefore argue that ..."). A paper's sentence need not
# repeat them to state the claim.
FRAMING = frozenset(
    split_words(
        """
        however therefore thus hence moreover furthermore nonetheless nevertheless yet
        together indeed accordingly consequently although though
        authors author colleagues coworkers
        describe describes described argue argues argued conclude concludes concluded
        report reports reported
        """
    )
)

# Cues whose scope runs forward ("did not reduce X") ...
NEGATION_PREFIX = split_words(
    """
    no not never none neither nor without cannot lack lacks lacked lacking absence fail fails
    failed unable non-significant nonsignificant insignificant devoid
    """
)
# ... and cues whose scope runs backward ("X remained unchanged").
NEGATION_SUFFIX = split_words("unchanged unaffected unaltered undetectable absent")
# Words that end a negation's scope: a new clause starts, or a condition or a reason ("cannot
# be selected if competition with the ancestor prevents ..." negates the selection only).
SCOPE_BREAKERS = frozenset(
    split_words(
        """but however whereas while although though yet instead rather except unlike if unless
        whenever because"""
    )
)

# Strength of a statement, weakest first. A claim stronger than its evidence is partial.
HEDGE_LEVELS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        split_words(
            """
        may might could possibly potentially perhaps plausibly hypothesize hypothesized
        hypothesise speculate speculated likely putative putatively presumably potential
        should would hopefully suspect suspects suspected unclear probably conceivably
        """
        ),
    ),
    (
        2,
        split_words(
            """
        suggest suggests suggested suggesting indicate indicates indicated associated
        association correlated correlates correlation linked consistent appear appears appeared
        seem seems seemed implicate implicates implicated tend tends support supports
        apparently believe believes believed
        """
        ),
    ),
    (
        3,
        split_words(
            """
        show shows showed shown demonstrate demonstrates demonstrated find finds found reveal
        reveals revealed observe observed report reports reported identify identified
        """
        ),
    ),
    (
        4,
        split_words(
            """
        prove proves proved proven establish establishes established confirm confirms confirmed
        always conclusively definitively unequivocally undoubtedly certainly definitely
        invariably
        """
        ),
    ),
)
ASSERTION_LEVEL = 3  # a bare statement ("X reduces Y") asserts as strongly as "shows"
HEDGE_LEVEL = {word: level for level, words in HEDGE_LEVELS for word in words}

UP_WORDS = frozenset(
    split_words(
        """
        higher greater more larger increase increased increases increasing elevated elevate
        elevates raise raised raises rise rises rose improve improved improves improving
        improvement enhance enhanced enhances better outperform outperforms outperformed exceed
        exceeds exceeded superior boost boosts boosted gain gains upregulated up-regulated
        upregulates promote promotes promoted accelerate accelerates accelerated longer
        increment widen widens widened widening wider broaden broadens broadened broadening
        broader maximise maximises maximised maximising maximize maximizes maximized maximizing
        positively
        """
    )
)
DOWN_WORDS = frozenset(
    split_words(
        """
        lower less fewer smaller decrease decreased decreases decreasing reduce reduced reduces
        reducing reduction decline declined declines drop dropped drops fall fell falls worse
        worsen worsened underperform underperforms underperformed inferior diminish diminished
        diminishes impair impaired impairs attenuate attenuated attenuates suppress suppressed
        suppresses inhibit inhibited inhibits downregulated down-regulated downregulates
        shorter loss lowered lowers slow slows slowed slowing delay delays delayed retard
        retards retarded narrows narrowed narrowing narrower shrink shrinks shrank shrunk
        shrinking minimise minimises minimised minimising minimize minimizes minimized
        minimizing negatively inversely
        """
    )
)

# Species names and the one key each stands for.
SPECIES = _mapping(
    """
    mouse:mouse mice:mouse murine:mouse rat:rat rats:rat human:human humans:human people:human
    zebrafish:zebrafish drosophila:fly flies:fly yeast:yeast yeasts:yeast monkey:primate
    monkeys:primate macaque:primate macaques:primate primate:primate primates:primate pig:pig
    pigs:pig porcine:pig dog:dog dogs:dog canine:dog rabbit:rabbit rabbits:rabbit
    chicken:chicken chickens:chicken worm:worm worms:worm elegans:worm hamster:hamster
    hamsters:hamster sheep:sheep cattle:cattle cows:cattle bovine:cattle
    """
)

_IRREGULAR = _mapping(
    """
    mice:mouse children:child women:woman men:man feet:foot teeth:tooth analyses:analysis
    data:datum
    """
)

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-+/.]*[A-Za-z0-9+]|[A-Za-z0-9]")
_FOOTNOTE = re.compile(r"([A-Za-z][a-z]{2,})\.\d{1,3}(?:[,\-–]\d{1,3})*$")


@dataclass(frozen=True, slots=True)
class Word:
    text: str  # as written
    lower: str
    stem: str
    start: int
    end: int


# British spellings and their American forms, so that a draft written in one matches a paper
# written in the other ("randomised" / "randomized", "tumour" / "tumor", "haemoglobin" /
# "hemoglobin", "centre" / "center"). Applied to every word alike, so a rewrite that is no
# spelling variant ("exercise" -> "exercize") only has to keep the word's forms together.
_SPELLINGS = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"^([a-z]{4,}?)is(?=(?:e|es|ed|ely|ing|ation|ations|ational|er|ers|able)$)", r"\1iz"),
        (r"ys(?=(?:e|ed|ing|er|ers)$)", "yz"),  # not "analyses", the plural of "analysis"
        (
            r"(?<=[a-z]{3})our(?=(?:|s|al|ally|ed|ing|able|ably|ite|ites|hood|er|ers|less|ful)$)",
            "or",
        ),
        (r"aem", "em"),
        (r"(?:^|(?<=o))paed", "ped"),
        (r"^aetiol", "etiol"),
        (r"anaesth", "anesth"),
        (r"^(faec|gynaec|caesar|palaeo)", lambda m: m[1].replace("ae", "e")),
        (r"^oe(?=d|str|soph)", "e"),
        (r"^foet", "fet"),
        (r"rrhoe", "rrhe"),
        (r"^coeliac", "celiac"),
        (r"(cent|lit|met|fib|calib|theat|spect|lust|somb|sab)re(?=$|s$|d$)", r"\1er"),
        (r"^programme", "program"),
        (r"^ageing", "aging"),
        (r"(?<=judg|ledg)ement", "ment"),
        (r"(?<=[a-z]{3})(?:logue)(?=$|s$)", "log"),
        (r"^(def|lic|off)ence", r"\1ense"),
        (r"^artefact", "artifact"),
        (r"^scept", "skept"),
        (r"^sulph", "sulf"),
        (r"^aluminium", "aluminum"),
        (r"^grey", "gray"),
        (r"^enrolment", "enrollment"),
    )
)


@functools.lru_cache(maxsize=50000)
def american(word: str) -> str:
    """The American spelling of a lower-case word written the British way ("optimisation":
    "optimization"); other words as they are."""
    if len(word) < 5 or not word.isalpha():
        return word
    for pattern, repl in _SPELLINGS:
        word = pattern.sub(repl, word)
    return word


def stem(word: str) -> str:
    """A crude suffix-stripping stem; enough to match "increased" with "increases" (and
    "randomised" with "randomized")."""
    w = word.lower()
    if w.endswith(("'s", "’s")) and len(w) > 4:  # "oxytocin’s role": the possessive
        w = w[:-2]
    w = w.strip("'’")
    if w in _IRREGULAR:
        return stem(_IRREGULAR[w])  # "mice": the stem of "mouse"
    w = american(w)
    if w.endswith("n't"):
        return "not"
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: len(w) - len(suffix)] + repl
            if suffix in ("ing", "ed") and w.endswith("ell") and len(w) >= 6:
                w = w[:-1]  # "labelled", "modelling": British spelling of "labeled", "modeling"
            break
    # "improve" / "improved" / "improves" all end up as "improv".
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def words(text: str) -> list[Word]:
    """Words with their char offsets; a trailing full stop is not part of a word."""
    out = []
    for m in _WORD.finditer(text):
        raw = m.group()
        start, end = m.start(), m.end()
        while raw.endswith(".") and len(raw) > 1:  # the regex cannot end on ".", but be safe
            raw, end = raw[:-1], end - 1
        glued = _FOOTNOTE.match(raw)
        if glued:  # "proteolysis.35": a reference number glued to the sentence's last word
            raw, end = glued.group(1), start + len(glued.group(1))
        out.append(Word(raw, raw.lower(), stem(raw), start, end))
    return out


def is_content(w: Word) -> bool:
    """A word that carries content: no stopword, no bare number."""
    return w.lower not in STOPWORDS and not w.lower[0].isdigit()


def is_negation(w: Word) -> bool:
    """A negation cue read forward: "not", "no", "without", "fails", "isn't"..."""
    return w.lower in NEGATION_PREFIX or w.lower.endswith("n't")


def content_stems(ws: list[Word]) -> set[str]:
    """Stems of the words that carry content (no stopwords, no bare numbers)."""
    return {w.stem for w in ws if is_content(w)}


def overlap(claim: str, evidence: str) -> float:
    """Share of the claim's content words that the evidence also uses."""
    cw = [w for w in words(claim) if is_content(w)]
    if not cw:
        return 0.0
    ew = [w for w in words(evidence) if is_content(w)]
    e = {w.stem for w in ew} | {p for w in ew for p in hyphen_parts(w.text)}
    # "bismuth-based" and "bismuth based" are the same words, hyphenated or not.
    c = {w.stem: hyphen_parts(w.text) for w in cw}
    shared = [s for s, parts in c.items() if s in e or (parts and all(p in e for p in parts))]
    return len(shared) / len(c)


def hyphen_parts(word: str) -> list[str]:
    """The content stems of a hyphenated word's parts ("bismuth-based": bismuth); none else."""
    if "-" not in word.strip("-"):
        return []
    return [
        stem(p) for p in word.split("-") if p and p.lower() not in STOPWORDS and not p[0].isdigit()
    ]


def direction(word: str) -> int:
    """+1 for an upward word (higher, increased), -1 for a downward one, 0 otherwise."""
    w = word.lower()
    if w in UP_WORDS:
        return 1
    if w in DOWN_WORDS:
        return -1
    return 0


def finding(
    check: str,
    effect: str,
    message: str,
    claim: str,
    evidence: str,
    claim_span: tuple[int, int] | None = None,
    evidence_span: tuple[int, int] | None = None,
) -> Finding:
    """A `Finding` whose quoted texts are cut from the spans, so they always agree."""
    return Finding(
        check=check,
        effect=effect,
        message=message,
        claim_span=claim_span,
        evidence_span=evidence_span,
        claim_text=claim[claim_span[0] : claim_span[1]] if claim_span else "",
        evidence_text=evidence[evidence_span[0] : evidence_span[1]] if evidence_span else "",
    )


def run(text: str, ws: list[Word], i: int, step: int, limit: int = 7) -> list[Word]:
    """Words from ws[i] in one direction (step +1 / -1) until a clause break, at most `limit`."""
    out: list[Word] = []
    j = i
    while len(out) < limit:
        k = j + step
        if not 0 <= k < len(ws):
            break
        gap = text[min(ws[j].end, ws[k].end) : max(ws[j].start, ws[k].start)]
        # A dash sets off a clause ("it is never split—to ensure that ..."); a hyphen or en
        # dash inside a word or range does not.
        if re.search(r"[,;:.()—]|\s[-–]\s", gap) or ws[k].lower in SCOPE_BREAKERS:
            break
        out.append(ws[k])
        j = k
    return out
