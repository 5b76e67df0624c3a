"""Sentences that state what a study set out to do, or what is not known, rather than a finding.

"OBJECTIVE To assess whether screening leads to improved vision", "We investigated whether ER
stress is necessary for apoptosis", "It remains unclear whether iPSCs retain a memory": such a
sentence shares every word of a claim about its topic, and an NLI model reads it as entailing
the claim, but it says nothing about the answer. It can back a claim that itself describes the
study ("The trial assessed whether screening improves vision"), never a claimed finding.
"""

from __future__ import annotations

import functools
import re

from sciverify.chunk import split_sentences

_VERBS = (
    r"determine|assess|examine|evaluate|investigate|test|compare|explore|identify|"
    r"characteri[sz]e|describe|estimate|quantify|measure|clarify|establish|understand|study|"
    r"analy[sz]e|ascertain|address|review|summari[sz]e|elucidate|define"
)
# A structured-abstract label, a stated aim, an infinitive of purpose opening the sentence.
_AIM = re.compile(
    r"^(?:OBJECTIVES?|AIMS?|PURPOSE|GOALS?)\b|"
    r"^(?:(?:BACKGROUND|CONTEXT|INTRODUCTION|DESIGN|METHODS?)\s+)?To\s+(?:" + _VERBS + r")\b|"
    r"\b(?:the|our|this|its)\s+(?:main\s+|primary\s+|principal\s+)?"
    r"(?:aim|objective|purpose|goal)s?\s+(?:of\s+(?:this|the|our|these)\s+[\w\s-]{0,40}?)?"
    r"(?:was|were|is|are)\s+to\b|"
    r"\b(?:we|this\s+(?:study|work|paper|trial|review|analysis)|the\s+present\s+study)\s+"
    r"(?:aim(?:ed|s)?|sought|seek|set\s+out|want(?:ed)?|intend(?:ed)?)\s+to\b|"
    r"\bwe\s+(?:investigated|examined|assessed|evaluated|explored|tested|asked|studied|"
    r"investigate|examine|assess|evaluate|explore|test|ask|study)\s+(?:whether|if|how|which)\b|"
    # "We now turn to simulations ..., in this case studying how the error scales with d".
    r"\b(?:investigating|examining|assessing|evaluating|exploring|testing|asking|studying)\s+"
    r"(?:whether|if|how|which)\b",
    re.IGNORECASE,
)
# What is not known: "It remains unclear whether", "we do not know which".
_OPEN = re.compile(
    r"\b(?:remains?|is|are|was|were|has\s+been|have\s+been)\s+(?:still\s+|largely\s+|"
    r"currently\s+|poorly\s+)?(?:unclear|unknown|not\s+known|not\s+clear|uncertain|"
    r"controversial|debated|unresolved|not\s+(?:well\s+)?understood)\b|"
    r"\b(?:we|it)\s+(?:do|does|did)\s+not\s+know\b|"
    r"\blittle\s+is\s+known\b|\?\s*$",
    re.IGNORECASE,
)
# A finding stated in the same sentence: "We investigated whether X and found that Y".
_RESULT = re.compile(
    r"\b(?:found|find|show(?:s|ed|n)?|demonstrat\w*|reveal\w*|observed|indicat\w*|"
    r"suggest\w*|conclud\w*|confirm\w*|resulted|led\s+to|we\s+report)\b",
    re.IGNORECASE,
)
# A claim that describes the study itself ("The trial assessed whether ...") may rest on one.
_ABOUT_STUDY = re.compile(
    r"\b(?:whether|aim(?:s|ed)?|objectives?|purpose|goals?|sought|set\s+out|assess(?:es|ed)?|"
    r"pose[sd]?|introduc(?:es|ed)|propos(?:es|ed)|address(?:es|ed)|ask(?:s|ed)|questions?|"
    r"examin(?:es|ed)|evaluat(?:es|ed)|investigat(?:es|ed)|explor(?:es|ed)|studied|"
    r"analy[sz](?:es|ed))\b",
    re.IGNORECASE,
)


_MAIN_CLAUSE = re.compile(r",\s+[^,]*\b(?:we|was|were|is|are|has|have|had)\b", re.IGNORECASE)
# "..., although the confidence interval on this mean is not known": a finding with a caveat.
_CONCESSIVE = re.compile(r"\b(?:although|though|but|while|whereas|yet)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=20000)
def is_aim(sentence: str) -> bool:
    """One sentence that states an aim or an open question and no finding (cached: verify asks
    it of the same candidate sentences when it picks, ranks and decides)."""
    text = " ".join(sentence.split())
    if _RESULT.search(text):
        return False
    aim = _AIM.search(text)
    purpose = aim and aim.group().lower().startswith(("to ", "background", "context", "intro"))
    if purpose and _MAIN_CLAUSE.search(text):
        aim = None  # "To evaluate the seeds, FIDD and SIDD were run ...": purpose, then method
    open_question = _OPEN.search(text)
    if open_question and (
        _CONCESSIVE.search(text, 0, open_question.start())
        or _CONCESSIVE.search(text, open_question.end())
    ):
        # "..., although X is not known" and "The reason is not clear, but we suspect X":
        # a finding with a caveat.
        open_question = None
    return bool(aim or open_question)


def only_aims(text: str) -> bool:
    """Every sentence of `text` states an aim or an open question (and there is one)."""
    parts = [text[a:b] for a, b in split_sentences(text)] or [text]
    parts = [p for p in parts if p.strip()]
    return bool(parts) and all(is_aim(p) for p in parts)


def about_study(claim: str) -> bool:
    """The claim describes what a study did or asked, not what it found."""
    return bool(_ABOUT_STUDY.search(claim)) or is_aim(claim)
