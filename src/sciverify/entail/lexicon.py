"""Word lists and word-level helpers shared by the deterministic checks.

The lists are data: extend them here, not inside the check functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STOPWORDS = frozenset(
    """a an the and or but if then than that this these those there their its it is are was were
    be been being of in on at by for with from to into onto as about over under between among
    within without after before during while whereas which who whom whose what when where why how
    we our they them he she his her you your i me my has have had having do does did done can
    also such both each other some any all more most less least very so too only just same
    per via vs versus et al use used using based may might could would should will shall
    study studies result results data patient patients""".split()
)

# Cues whose scope runs forward ("did not reduce X") ...
NEGATION_PREFIX = (
    "no", "not", "never", "none", "neither", "nor", "without", "cannot", "lack", "lacks",
    "lacked", "lacking", "absence", "fail", "fails", "failed", "unable", "non-significant",
    "nonsignificant", "insignificant", "devoid",
)
# ... and cues whose scope runs backward ("X remained unchanged").
NEGATION_SUFFIX = ("unchanged", "unaffected", "unaltered", "undetectable", "absent")
# Words that end a negation's scope: a new clause starts.
SCOPE_BREAKERS = frozenset(
    "but however whereas while although though yet instead rather except unlike".split()
)

# Strength of a statement, weakest first. A claim stronger than its evidence is partial.
HEDGE_LEVELS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("may", "might", "could", "possibly", "potentially", "perhaps", "plausibly",
         "hypothesize", "hypothesized", "hypothesise", "speculate", "speculated",
         "likely", "putative", "putatively", "presumably")),
    (2, ("suggest", "suggests", "suggested", "suggesting", "indicate", "indicates",
         "indicated", "associated", "association", "correlated", "correlates", "correlation",
         "linked", "consistent", "appear", "appears", "appeared", "seem", "seems", "seemed",
         "implicate", "implicates", "implicated", "tend", "tends", "support", "supports")),
    (3, ("show", "shows", "showed", "shown", "demonstrate", "demonstrates", "demonstrated",
         "find", "finds", "found", "reveal", "reveals", "revealed", "observe", "observed",
         "report", "reports", "reported", "identify", "identified")),
    (4, ("prove", "proves", "proved", "proven", "establish", "establishes", "established",
         "confirm", "confirms", "confirmed", "always", "conclusively", "definitively",
         "unequivocally", "undoubtedly", "certainly", "definitely", "invariably")),
)
ASSERTION_LEVEL = 3  # a bare statement ("X reduces Y") asserts as strongly as "shows"
HEDGE_LEVEL = {word: level for level, words in HEDGE_LEVELS for word in words}

UP_WORDS = frozenset(
    """higher greater more larger increase increased increases increasing elevated elevate
    elevates raise raised raises rise rises rose improve improved improves improving improvement
    enhance enhanced enhances better outperform outperforms outperformed exceed exceeds exceeded
    superior boost boosts boosted gain gains upregulated up-regulated upregulates promote promotes
    promoted accelerate accelerates accelerated longer increment""".split()
)
DOWN_WORDS = frozenset(
    """lower less fewer smaller decrease decreased decreases decreasing reduce reduced reduces
    reducing reduction decline declined declines drop dropped drops fall fell falls worse worsen
    worsened underperform underperforms underperformed inferior diminish diminished diminishes
    impair impaired impairs attenuate attenuated attenuates suppress suppressed suppresses
    inhibit inhibited inhibits downregulated down-regulated downregulates shorter loss lowered
    lowers slow slows slowed slowing delay delays delayed retard retards retarded""".split()
)

SPECIES = {
    "mouse": "mouse", "mice": "mouse", "murine": "mouse",
    "rat": "rat", "rats": "rat",
    "human": "human", "humans": "human", "people": "human",
    "zebrafish": "zebrafish",
    "drosophila": "fly", "flies": "fly",
    "yeast": "yeast", "yeasts": "yeast",
    "monkey": "primate", "monkeys": "primate", "macaque": "primate", "macaques": "primate",
    "primate": "primate", "primates": "primate",
    "pig": "pig", "pigs": "pig", "porcine": "pig",
    "dog": "dog", "dogs": "dog", "canine": "dog",
    "rabbit": "rabbit", "rabbits": "rabbit",
    "chicken": "chicken", "chickens": "chicken",
    "worm": "worm", "worms": "worm", "elegans": "worm",
    "hamster": "hamster", "hamsters": "hamster",
    "sheep": "sheep", "cattle": "cattle", "cows": "cattle", "bovine": "cattle",
}

_IRREGULAR = {"mice": "mouse", "children": "child", "women": "woman", "men": "man",
              "feet": "foot", "teeth": "tooth", "analyses": "analysis", "data": "datum"}

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-+/.]*[A-Za-z0-9+]|[A-Za-z0-9]")


@dataclass(frozen=True, slots=True)
class Word:
    text: str  # as written
    lower: str
    stem: str
    start: int
    end: int


def stem(word: str) -> str:
    """A crude suffix-stripping stem; enough to match "increased" with "increases"."""
    w = word.lower().strip("'’")
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith("n't"):
        return "not"
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: len(w) - len(suffix)] + repl
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
        out.append(Word(raw, raw.lower(), stem(raw), start, end))
    return out


def content_stems(ws: list[Word]) -> set[str]:
    """Stems of the words that carry content (no stopwords, no bare numbers)."""
    return {w.stem for w in ws if w.lower not in STOPWORDS and not w.lower[0].isdigit()}


def overlap(claim: str, evidence: str) -> float:
    """Share of the claim's content words that the evidence also uses."""
    c = content_stems(words(claim))
    if not c:
        return 0.0
    return len(c & content_stems(words(evidence))) / len(c)


def direction(word: str) -> int:
    """+1 for an upward word (higher, increased), -1 for a downward one, 0 otherwise."""
    w = word.lower()
    if w in UP_WORDS:
        return 1
    if w in DOWN_WORDS:
        return -1
    return 0
