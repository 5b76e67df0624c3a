"""Checks of what a claim mentions: entities and identifiers, and the evidence's conditions.

`check_entities`: a species, group, gene or other identifier of the claim that the evidence
lacks (partial) or replaces with another of the same kind (contradict). `check_conditions`: a
condition of the evidence ("in mice", "in vitro", "in patients with X", "at 37 °C") that the
claim drops (partial: it generalises) or changes (contradict).
"""

from __future__ import annotations

import itertools
import re

from sciverify.entail import lexicon as lx
from sciverify.records import Finding

# --- entities and identifiers --------------------------------------------------------------

_ROLES = r"control|placebo|treatment|treated|intervention|experimental|sham|vehicle"
# "the treated and control groups" names both groups.
_GROUP = re.compile(
    r"\b(?:(?P<kind>group|arm|cohort)\s+(?P<label>[A-Z]\b|\d{1,2}\b|I{1,3}V?\b))|"
    rf"\b(?P<role>{_ROLES})(?:\s+(?:and|or|vs\.?|versus)\s+(?:the\s+)?(?P<role2>{_ROLES}))?"
    r"[\s-](?:group|arm|cohort)s?\b",
    re.IGNORECASE,
)
# TP53, IL-6, BRCA1, CIFAR-10, ResNet-50, mTOR, miR-21, p53, TNF-α, HIV, ImageNet
_IDENT = re.compile(
    r"(?<![\w-])(?:[A-Z][A-Za-z]*\d[\w-]*[\wα-ω+]?|[A-Z]{2,}[a-z]?(?:-?[\dα-ω]+[A-Za-z]?)?|"
    r"[a-z]{1,3}[A-Z]{2,}[\w-]*|[a-z]\d{2,}|[A-Z][a-z]+[A-Z][\w-]*)(?![\w-])"
)
_HUMAN_WORDS = frozenset(
    lx.split_words(
        """
        patients participants volunteers women men children adults infants adolescents
        """
    )
)


# Greek letters in gene and protein names are often written out as their Latin initial:
# PKCζ / PKCz, TNF-α / TNF-a, IFN-γ / IFNg.
_GREEK = str.maketrans("αβγδεζηθικλμνξοπρστυφχψω", "abgdezhtiklmnxoprstufxpo")


def _norm_ident(text: str) -> str:
    return re.sub(r"[\s\-‐]", "", text).lower().translate(_GREEK)


def _family(key: str) -> tuple[str, str] | None:
    """'il6' -> ('il', '6'): identifiers that differ only in their number are one family."""
    m = re.fullmatch(r"([a-z]+)(\d+)[a-z]?", key)
    return (m[1], m[2]) if m else None


_SCOPE_SPECIES = re.compile(
    r"\b(?:in|of|from|using|among)\s+(?:[\w-]+\s+){0,2}?(?P<sp>"
    + "|".join(sorted(lx.SPECIES, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def _scoped_species(text: str) -> set[str]:
    """Species named as the scope of a statement ("in mice"), not as a modifier ("human cells")."""
    return {lx.SPECIES[m["sp"].lower()] for m in _SCOPE_SPECIES.finditer(text)}


_MODIFIER_TAIL = re.compile(r"(?<=[A-Za-z0-9])-[a-z]{3,}$")


def _entities(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    """(kind, key, span) for species, groups and identifiers in a text."""
    out = []
    for w in lx.words(text):
        if w.lower in lx.SPECIES:
            out.append(("species", lx.SPECIES[w.lower], (w.start, w.end)))
    for m in _GROUP.finditer(text):
        if m["kind"]:
            out.append(("group", (m["kind"] + " " + m["label"]).lower(), m.span()))
            continue
        roles = ("role", "role2") if m["role2"] else ("role",)
        for role in roles:
            key = m[role].lower().replace("treated", "treatment")
            out.append(("group", key, m.span(role) if m["role2"] else m.span()))
    for m in _IDENT.finditer(text):
        # "kNN-retrieved", "BERT-based": the name, without the word it is hyphened to.
        ident = _MODIFIER_TAIL.sub("", m.group().rstrip("-"))
        out.append(("identifier", _norm_ident(ident), (m.start(), m.start() + len(ident))))
    taken = {span for _, _, span in out}
    for m in _SOFTWARE.finditer(text):
        if m.span() not in taken:
            out.append(("identifier", _norm_ident(m.group()), m.span()))
    return out


# Software a method is built with, named in plain capitals that `_IDENT` does not take for an
# identifier ("built in Keras", "analysed in Stata"): a claim that names the wrong tool names
# something its evidence does not.
_PLAIN_SOFTWARE = lx.split_words(
    "Keras Theano Caffe Chainer Lasagne Matlab Stata Weka Numpy Scipy Jags Mplus Lisrel Nvivo"
)
_SOFTWARE = re.compile(rf"(?<![\w-])(?:{'|'.join(_PLAIN_SOFTWARE)})(?![\w-])")


# Software that analyses are run in or models built with, by the name's lower-case letters:
# those above and these.
_TOOL_NAMES = frozenset(name.lower() for name in _PLAIN_SOFTWARE) | frozenset(
    lx.split_words(
        """
        tensorflow pytorch torch mxnet jax sklearn scikit-learn octave sas spss r python julia
        excel graphpad prism minitab jmp mathematica maple stan winbugs openbugs beast mrbayes
        raxml paup mega phyml imagej fiji gromacs lammps comsol ansys openfoam word2vec glove
        fasttext
        """
    )
)
# Names written in lower case too; the others ("prism", "stan", "mega") are plain words so.
_LOWER_TOOLS = r"word2vec|glove|fasttext|numpy|scipy|pytorch|tensorflow|keras|sklearn"
# "implemented in Tensorflow2", "analyses were run in SAS 9.4", "performed using the
# statistical package R 2.15.0", "built their classifier in Keras", "word embeddings are
# initialized with GloVe".
_TOOL_FRAME = re.compile(
    r"\b(?:implemented|written|coded|programmed|built|developed|run|ran|performed|done|"
    r"carried\s+out|conducted|analy[sz]ed|fitted|computed|calculated|trained|"
    r"initiali[sz](?:e|es|ed|ing))\b"
    r"[^.;:()]{0,60}?\b(?:in|using|with)\s+(?:the\s+)?(?:[\w-]+\s+)?"
    r"(?:(?:package|software|library|framework|toolkit|language|environment)\s+)?"
    rf"(?P<name>(?-i:[A-Z][\w+-]*)|(?:{_LOWER_TOOLS})\b)",
    re.IGNORECASE,
)


def tools_named(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(name, span) of each known piece of software the text says work was done in or with
    ("implemented in Tensorflow2": "tensorflow"); the name lower-cased, its version left off."""
    out = []
    for m in _TOOL_FRAME.finditer(text):
        name = _tool_key(m["name"])
        if name in _TOOL_NAMES:
            out.append((name, m.span("name")))
    return out


def _tool_key(name: str) -> str:
    return re.sub(r"[\d.]+$", "", name.lower())


def mentions_tool(name: str, text: str) -> bool:
    """Whether the text names the tool `name` (a key of `tools_named`) anywhere, in any case
    and with any version ("TensorFlow", "tensorflow2"); "R" only as a capital."""
    if name == "r":
        return re.search(r"(?<![\w.-])R(?![\w-])", text) is not None
    named = rf"(?<![\w-]){re.escape(name)}[\d.]*(?![\w-])"
    return re.search(named, text, re.IGNORECASE) is not None


# Statistical tests by family: a claim that names one the paper never uses names the wrong one.
_TESTS = {
    "t-test": r"\bt[- ]tests?\b|\bStudent'?s t\b",
    "Wilcoxon test": r"\bWilcoxon\b",
    "Mann-Whitney test": r"\bMann[- ]Whitney\b",
    "ANOVA": r"\bANOVAs?\b|\banalys[ie]s of variance\b",
    "Kruskal-Wallis test": r"\bKruskal[- ]Wallis\b",
    "chi-squared test": r"\bchi[- ]?squared?\b|χ\s?(?:2|²)",
    "Fisher's exact test": r"\bFisher'?s exact\b",
    "Friedman test": r"\bFriedman(?:'s)? tests?\b",
    "log-rank test": r"\blog[- ]rank\b",
    "McNemar test": r"\bMcNemar\b",
}
_TEST = re.compile(
    "|".join(f"(?P<t{i}>{rx})" for i, rx in enumerate(_TESTS.values())), re.IGNORECASE
)
_TEST_NAMES = list(_TESTS)


def tests_named(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(family, span) of each statistical test the text names ("paired t-tests": "t-test")."""
    return [
        (_TEST_NAMES[int(next(k for k, v in m.groupdict().items() if v)[1:])], m.span())
        for m in _TEST.finditer(text)
    ]


def mentions_test(family: str, text: str) -> bool:
    """Whether the text names a statistical test of `family` (a key of `tests_named`)."""
    return re.search(_TESTS[family], text, re.IGNORECASE) is not None


def _species_of(text: str) -> set[str]:
    found = {key for kind, key, _ in _entities(text) if kind == "species"}
    if any(w.lower in _HUMAN_WORDS for w in lx.words(text)):
        found.add("human")
    return found


def _spelled_out(acronym: str, evidence: str) -> bool:
    """Whether the evidence spells the acronym out (BMI: "body mass index"; SREBP2: "sterol
    regulatory element-binding protein-2", the number included)."""
    m = re.fullmatch(r"([A-Z]{2,6})-?(\d{0,2})s?", acronym)
    if m is None:
        return False
    letters, number = m[1].lower(), m[2]
    if number and not re.search(rf"(?<!\d){number}(?!\d)", evidence):
        return False
    parts = [p for w in lx.words(evidence) for p in re.split(r"[-/]", w.lower) if p.isalpha()]
    initials = "".join(p[0] for p in parts if p not in ("of", "and", "the", "in", "for"))
    return letters in initials


def _word_forms(text: str) -> set[str]:
    """Normalised single words and adjacent pairs, so "IL 6" and "IL-6" both match "il6"."""
    raw = [w.text for w in lx.words(text)]
    ws = [_norm_ident(w) for w in raw]
    parts = {_norm_ident(p) for w in raw for p in re.split(r"[-/]", w) if p}  # "Egr3-defective"
    return set(ws) | parts | {a + b for a, b in itertools.pairwise(ws)}


# Names that stand for one thing in the evidence this project reads.
_ALIASES = (frozenset({"covid19", "covid", "sarscov2", "coronavirus", "2019ncov", "ncov"}),)


# An ion by its element symbol, whatever the charge notation (Ca2+, Ca++, Ca(2+), and "Ca21"
# where a PDF's text layer turned the superscript "+" into "1"), or by its name.
_ION = re.compile(r"(?P<el>[A-Z][a-z]?)(?:\d?\+{1,2}|\d?[-−]|\(\d?[+-]\))")
_ION_NAMES = {
    "Ca": "calcium",
    "Na": "sodium",
    "K": "potassium",
    "Mg": "magnesium",
    "Cl": "chloride",
    "Fe": "iron",
    "Zn": "zinc",
    "Cu": "copper",
    "Mn": "manganese",
    "H": "proton",
}


def _ion_present(said: str, evidence: str) -> bool:
    m = _ION.fullmatch(said)
    if m is None:
        return False
    el = m["el"]
    name = _ION_NAMES.get(el)
    return bool(
        re.search(rf"(?<![A-Za-z]){el}(?:\s?\(?\d?[+\-−1]|\b)", evidence)
        or (name and re.search(rf"\b{name}", evidence, re.IGNORECASE))
    )


def _identifier_present(
    said: str, key: str, evidence: str, ev_forms: set[str], shouting: bool
) -> bool:
    if _ion_present(said, evidence):
        return True
    singular = key[:-1] if key.endswith("s") and len(key) > 3 else key  # "lncRNAs"
    if key in ev_forms or singular in ev_forms or _spelled_out(said, evidence):
        return True
    if any(f.startswith(key) and len(f) == len(key) + 1 for f in ev_forms):  # FOXO3 / FOXO3A
        return True
    # A citation superscript that the PDF's text layer glued on: "SELFIES106" for SELFIES [106].
    if (
        len(key) >= 4
        and key[-1].isalpha()
        and any(re.fullmatch(rf"{re.escape(key)}\d{{1,3}}", f) for f in ev_forms)
    ):
        return True
    # A footnote marker glued on in front ("2PDFs store text" for PDFs), or a number glued to
    # its unit ("4GB of RAM" for GB).
    if singular[0].isalpha() and any(
        re.fullmatch(rf"\d{{1,2}}{re.escape(form)}", f)
        for form in (key, singular)
        for f in ev_forms
    ):
        return True
    # A unit after a number, glued or not, in any case: "GHz" written "2.16Ghz", "GB" in "4GB".
    if re.search(rf"\d\s?{re.escape(said)}(?![\w])", evidence, re.IGNORECASE):
        return True
    # A general acronym the evidence names in a specific form: RNA in "mRNAs", "mtRNA";
    # DNA in "cDNA". (Not the other way round: cAMP is not AMP.)
    if re.fullmatch(r"[A-Z]{3,}", said) and any(
        re.fullmatch(rf"[a-z]{{1,4}}{re.escape(key)}s?", f) for f in ev_forms
    ):
        return True
    if any(key in group and group & ev_forms for group in _ALIASES):
        return True
    # A data set or venue named with its year, written bare in a table header: "KDD" for
    # KDD99, "CoNLL" for CoNLL03; another year of it ("KDD04") in the evidence is a swap.
    fam = _family(key)
    if fam is not None and len(fam[0]) >= 3 and len(fam[1]) == 2 and fam[0] in ev_forms:
        return not any((f := _family(form)) and f[0] == fam[0] for form in ev_forms)
    # "VITAMIN LEVELS MAY..." written in capitals is shouting, not a list of acronyms.
    return said.isalpha() and (shouting or said.lower() in evidence.lower().split())


def check_entities(claim: str, evidence: str) -> list[Finding]:
    """Claim entities missing from the evidence (partial) or swapped for another (contradict)."""
    ev_entities = _entities(evidence)
    ev_keys = {(kind, key) for kind, key, _ in ev_entities}
    ev_forms = _word_forms(evidence)
    ev_species = _species_of(evidence)
    related = lx.overlap(claim, evidence) >= lx.RELATED_OVERLAP
    letters = [ch for ch in claim if ch.isalpha()]
    shouting = sum(ch.isupper() for ch in letters) > 0.5 * max(1, len(letters))
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for kind, key, span in _entities(claim):
        if (kind, key) in seen:
            continue
        seen.add((kind, key))
        said = claim[span[0] : span[1]]
        if kind == "species" and key in ev_species or (kind, key) in ev_keys:
            continue
        if kind == "identifier" and _identifier_present(said, key, evidence, ev_forms, shouting):
            continue
        glued = _NUMBER_AFTER.match(claim, span[1])
        if kind == "identifier" and glued and key + glued[1] in ev_forms:
            continue  # "ACE 2005" written "ACE2005"
        if kind == "group" and key in evidence.lower():
            continue
        rival = _rival(kind, key, ev_entities, claim, evidence) if related else None
        if kind == "species" and key not in _scoped_species(claim):
            rival = None  # "human embryonic stem cells" tested in mice is not a swap
        if rival is None and kind == "species" and key == "human":
            continue  # people are the default scope of a health claim; only a swap matters
        if rival is not None:
            r_span = rival[2]
            out.append(
                lx.finding(
                    "entity",
                    "contradict",
                    f"the claim is about {said!r}, the "
                    f"evidence about {evidence[r_span[0] : r_span[1]]!r}",
                    claim,
                    evidence,
                    span,
                    r_span,
                )
            )
        else:
            out.append(
                lx.finding(
                    "entity",
                    "partial",
                    f"{said!r} is not mentioned in the evidence",
                    claim,
                    evidence,
                    span,
                )
            )
    return out + _prefix_swaps(claim, evidence)


_NUMBER_AFTER = re.compile(r"[\s-](\d+)\b")


# Prefixes that name another group or setting of the same thing: "monogyne" / "polygyne",
# "intracellular" / "extracellular", "preoperative" / "postoperative".
_PREFIX_SETS = tuple(
    tuple(group.split("/"))
    for group in lx.split_words(
        "mono/poly/multi/uni/bi/oligo hyper/hypo/normo intra/extra/inter pre/post/peri/ante "
        "endo/exo/ecto homo/hetero over/under sub/supra micro/macro"
    )
)
_PREFIX_WORD = re.compile(r"[A-Za-z][a-z]+(?:-[a-z]+)*")


def _prefix_swaps(claim: str, evidence: str) -> list[Finding]:
    """A claim word that the evidence writes with another prefix of its set: the claim names
    another group ("monogyne" where the evidence has "polygyne"). It counts where the evidence
    never writes the claim's word, or writes the other one before the same words ("polygyne
    form of Formica exsecta") and the claim's one only elsewhere."""
    ev = _prefixed_words(evidence)
    out = []
    for word, span, after in _prefixed_words(claim):
        if len(word) < 7:
            continue
        mine = [a for w, _, a in ev if w == word]
        if after in mine:
            continue
        forms = _swapped_forms(word)
        swaps = [(w, sp) for w, sp, a in ev if w in forms and (not mine or a == after)]
        if swaps:
            e_span = swaps[0][1]
            out.append(
                lx.finding(
                    "entity",
                    "partial",
                    f"the claim says {claim[span[0] : span[1]]!r} where the evidence says "
                    f"{evidence[e_span[0] : e_span[1]]!r}",
                    claim,
                    evidence,
                    span,
                    e_span,
                )
            )
    return out


def _prefixed_words(text: str) -> list[tuple[str, tuple[int, int], tuple[str, ...]]]:
    """Each word (lower case), its span and the two content words after it."""
    found = [(m.group().lower(), m.span()) for m in _PREFIX_WORD.finditer(text)]
    out = []
    for i, (w, span) in enumerate(found):
        after = tuple(x for x, _ in found[i + 1 : i + 6] if x not in lx.STOPWORDS)[:2]
        out.append((w, span, after))
    return out


def _swapped_forms(word: str) -> set[str]:
    """The word with each other prefix of its set ("monogyne": polygyne, poly-gyne, ...)."""
    forms: set[str] = set()
    for group in _PREFIX_SETS:
        mine = next((p for p in group if word.startswith(p)), None)
        rest = word[len(mine) :].lstrip("-") if mine else ""
        if len(rest) < 4:
            continue
        forms.update(f"{other}{sep}{rest}" for other in group if other != mine for sep in ("", "-"))
    return forms


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


# --- conditions and scope ------------------------------------------------------------------

_SPECIES_WORDS = "|".join(sorted(lx.SPECIES, key=len, reverse=True))
_POPULATION = (
    r"patients|children|adults|women|men|infants|neonates|adolescents|individuals|participants|"
    r"subjects|smokers|survivors|elderly|pregnant women|girls|boys|veterans|volunteers|"
    r"males|females|juveniles"
)
_QUALIFIERS = (
    r"disadvantaged|deprived|low-income|overweight|obese|pregnant|elderly|older|frail|"
    r"critically ill|hospitali[sz]ed|preterm|premature|diabetic|hypertensive|postmenopausal|"
    r"premenopausal|treatment-naive|high-risk|low-risk|heavy|light|healthy|young|younger"
)
_CONDITIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("setting", re.compile(r"\bin\s+(?:vitro|vivo|silico|situ)\b", re.IGNORECASE)),
    (
        "species",
        re.compile(
            rf"\b(?:in|of|from|using)\s+(?:[\w-]+\s+){{0,2}}?(?:{_SPECIES_WORDS})\b", re.IGNORECASE
        ),
    ),
    (
        "population",
        re.compile(
            rf"\b(?:in|among|for)\s+(?:[\w-]+\s+){{0,3}}?(?:{_POPULATION})"
            r"(?:\s+(?:with|aged|under|over|older than|younger than|who|without)\s+[^,;.()]{1,40})?",
            re.IGNORECASE,
        ),
    ),
    # "recruiting disadvantaged smokers", "overweight or obese pregnant women": a word that
    # narrows the population (the claim that names the population without it drops it).
    (
        "qualifier",
        re.compile(
            rf"\b(?:{_QUALIFIERS})(?:\s+(?:or|and)\s+(?:{_QUALIFIERS}))?\s+"
            rf"(?:(?:{_QUALIFIERS})\s+)?(?:{_POPULATION})\b",
            re.IGNORECASE,
        ),
    ),
    ("circumstance", re.compile(r"\bunder\s+(?:[\w-]+\s+){0,3}?conditions\b", re.IGNORECASE)),
    # "spam sites in PageRank bucket 2 got demoted seven buckets on average": a finding of one
    # numbered part of the data (bucket, group, cohort, experiment), not of all of it.
    (
        "subset",
        re.compile(
            r"\b(?:in|of|for|from)\s+(?:the\s+)?(?:[A-Z][\w-]*\s+)?"
            r"(?:bucket|cohort|experiment|wave|round|batch|subgroup|cluster)\s+(?:[A-Z]|\d{1,3})\b"
        ),
    ),
    # "the first to find recognition abilities ... outside of reproductive contexts": the
    # setting the finding is confined to.
    (
        "context",
        re.compile(
            r"\b(?:outside|beyond)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?"
            r"(?:contexts?|settings?|seasons?|periods?|environments?)\b",
            re.IGNORECASE,
        ),
    ),
    # "the first with wild subjects", "in captive animals": wild and captive are the scope of
    # a behavioural finding.
    (
        "origin",
        re.compile(
            r"\b(?:with|in|on|among|using|of)\s+(?:[\w-]+\s+)?(?:wild|captive|free-ranging|"
            r"free-living|wild-caught|captive-bred|laboratory-reared|lab-reared)\s+"
            r"(?:[\w-]+\s+)?(?:subjects|animals|populations?|individuals|specimens|pups|"
            r"birds|fish|colonies)\b",
            re.IGNORECASE,
        ),
    ),
    # "outperforms the baselines on all metrics except BERT": an exception the claim drops
    # ("apart from" and "excluding" also mean "besides" and "by leaving out").
    (
        "exception",
        re.compile(
            r"\b(?:except(?:\s+for)?|with the exception of)\s+"
            r"(?!that\b|when\b|where\b|if\b)(?:the\s+)?[\w-]+(?:\s+(?!and\b|or\b)[\w-]+){0,3}",
            re.IGNORECASE,
        ),
    ),
    # "on programs amenable to tracing", "in patients eligible for surgery": what the finding
    # is restricted to (the noun before is the claim's too; the restriction is the condition).
    # "Adult seals were not suitable for this study" restricts nothing.
    (
        "restriction",
        re.compile(
            r"(?<=[\w)]\s)(?<!\bnot\s)(?:amenable|suited|suitable|susceptible|eligible|prone|restricted|"
            r"limited)\s+(?:to|for)\s+(?!the\b|a\b|an\b)[\w-]+"
            r"(?:\s+(?!(?:we|they|it|and|or|but|in|of|with|was|were|is|are)\b)[a-z][\w-]+)?",
            re.IGNORECASE,
        ),
    ),
    (
        "dataset",
        re.compile(
            r"\bon\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?\s+"
            r"(?:dataset|benchmark|corpus|data set)s?\b"
        ),
    ),
    ("temperature", re.compile(r"\bat\s+-?\d+(?:\.\d+)?\s*[°º]\s?C\b")),
    (
        "age",
        re.compile(
            r"\b(?:aged|under the age of|older than|younger than)\s+\d+"
            r"(?:\s*(?:-|–|to)\s*\d+)?\s*(?:years?|months?|yrs?)?(?:\s+of age|\s+old)?"
            # "over 18" / "under 5" are ages only with an age unit or on their own ("adults over
            # 18,"): "averaged over 10 trials" and "over 50%" are no age.
            r"|\b(?:under|over)\s+\d+(?:\s*(?:-|–|to)\s*\d+)?\s*"
            r"(?:(?:years?|months?|yrs?)(?:\s+of age|\s+old)?|(?=[,;)]|\s+(?:and|or|who|with)\b))",
            re.IGNORECASE,
        ),
    ),
    (
        "presence",
        re.compile(r"\bin the (?:presence|absence) of\s+[\w-]+(?:\s+[\w-]+)?", re.IGNORECASE),
    ),
    # A sentence that opens on the case it holds in: "If ...,", "When X are contraindicated,",
    # "For certain applications,", "In some patients,". A "when" clause in the past tense tells
    # when something was done ("When we tested X,"), not where the finding holds.
    (
        "clause",
        re.compile(
            r"(?:^|(?<=[.;:]\s))(?:"
            # "If we compare this to Eq. 1, we find ...": a step of the derivation, no case.
            r"(?:Only\s+)?(?:If|Unless|Provided that)\s(?!we\s+(?:compare|look|consider|examine|"
            r"substitute|plug|rewrite|write|apply|combine|take|insert)\b)[^,;]{3,120}"
            r"|(?:Only\s+)?When\s[^,;]{0,100}?\b(?:is|are|has|have|can|cannot|does|do)\b[^,;]{0,60}"
            r"|For\s+(?:certain|some|specific|particular|selected)\s+[^,;]{2,60}"
            r"|In\s+(?:some|certain|selected|specific)\s+(?:cases|settings|patients|conditions|"
            r"circumstances|situations|applications|subjects)[^,;]{0,40}"
            r")(?=,)"
        ),
    ),
)
_CONFLICTING_SETTINGS = {"vitro", "vivo", "silico"}
_GENERIC = frozenset(
    frozenset(
        lx.split_words(
            """
        condition conditions dataset benchmark corpus presence absence aged year years month
        months old age certain specific particular selected cases case situations circumstances
        """
        )
    )
)


def _conditions(text: str) -> list[tuple[str, tuple[int, int], set[str]]]:
    out = []
    for kind, pattern in _CONDITIONS:
        for m in pattern.finditer(text):
            keys = {
                w.stem
                for w in lx.words(m.group())
                if w.lower not in lx.STOPWORDS and w.lower not in _GENERIC
            }
            if kind in ("age", "temperature"):  # the number is the condition
                keys = set(re.findall(r"\d+(?:\.\d+)?", m.group()))
            elif kind == "qualifier":  # the narrowing words, not the population they narrow
                keys = {w.stem for w in lx.words(m.group())[:-1] if w.lower not in lx.STOPWORDS}
            out.append((kind, m.span(), keys))
    return out


def conditions_in(text: str) -> list[tuple[str, str]]:
    """The conditions a text states, as (kind, words) in text order: setting, species,
    population, qualifier, circumstance, subset, context, origin, exception, restriction,
    dataset, temperature, age, presence, clause."""
    found = sorted((span, kind) for kind, span, _keys in _conditions(text))
    return [(kind, text[s:e]) for (s, e), kind in found]


def _mentions(keys: set[str], stems: set[str]) -> bool:
    # Prefix match: "diabetes" and "diabetic" share a stem only to five letters.
    return any(k in stems or (len(k) >= 5 and any(s[:5] == k[:5] for s in stems)) for k in keys)


# "whatever the size of the network", "regardless of dose": the claim says the finding holds
# beyond any condition, which only a source that says so itself supports.
_WIDENED = re.compile(
    r"\b(?:whatever (?:the|its|their) [\w-]+(?: of (?:the )?[\w-]+)?|"
    r"whatever (?:a|an|his|her) [\w'’-]+(?: [\w-]+){0,3}|"
    r"(?:regardless|irrespective|independently) of (?:the )?[\w-]+|"
    r"under (?:all|any) (?:conditions?|circumstances?))",
    re.IGNORECASE,
)
_WIDE_WORDS = re.compile(
    r"\b(?:whatever|regardless|irrespective|independent(?:ly)? of|always|"
    r"(?:in|for|across|under) (?:all|any|every))\b",
    re.IGNORECASE,
)


# "in both cases" against "and in the latter case, they are minimax optimal": the evidence
# confines to one case what the claim says of all of them.
_EVERY_CASE = re.compile(
    r"\b(?:in|for) (?:both|all|either|each|every) (?:cases?|settings?)\b", re.IGNORECASE
)
_ONE_CASE = re.compile(
    r"\b(?:in|for) the (?:latter|former|first|second|third|last) (?:case|setting)\b", re.IGNORECASE
)


def _widened(claim: str, evidence: str) -> list[Finding]:
    every = _EVERY_CASE.search(claim)
    one = _ONE_CASE.search(evidence) if every else None
    if every is not None and one is not None:
        return [
            lx.finding(
                "condition",
                "partial",
                f"the claim says {every.group()!r}; the evidence says {one.group()!r}",
                claim,
                evidence,
                every.span(),
                one.span(),
            )
        ]
    m = _WIDENED.search(claim)
    if m is None or _WIDE_WORDS.search(evidence):
        return []
    return [
        lx.finding(
            "condition",
            "partial",
            f"the claim extends the finding {m.group()!r}; the evidence does not say so",
            claim,
            evidence,
            m.span(),
            None,
        )
    ]


# A clause appended to a statement: ", which induced ...", ", whereas ...", "; ...".
_TAIL = re.compile(
    r",\s+(?:which|while|whereas|but|although|though|and)\b|;\s+|,\s+(?=[a-z]+ing\b)",
)


def _unstated_tails(claim: str, evidence: str) -> list[tuple[int, int]]:
    """Appended clauses of the evidence that state something the claim does not: they share
    at most one content word with it while the evidence before them shares at least two. A
    condition there qualifies another statement: "we designed an oral delivery ..., which
    induced colorectal immunity in mice" does not restrict "we designed an oral delivery" to
    mice. A condition that opens the sentence ("In mice, ...") qualifies all of it."""
    wanted = lx.content_stems(lx.words(claim))
    cuts = [m.start() for m in _TAIL.finditer(evidence)] + [len(evidence)]
    out = []
    for a, b in itertools.pairwise(cuts):
        head = lx.content_stems(lx.words(evidence[:a])) & wanted
        tail = lx.content_stems(lx.words(evidence[a:b])) & wanted
        if len(head) >= 2 and len(tail - head) <= 1 and len(tail) <= 1:
            out.append((a, b))
    return out


def check_conditions(claim: str, evidence: str) -> list[Finding]:
    """Evidence conditions the claim drops (partial) or changes (contradict), and a claim
    that says its finding holds whatever the conditions (partial)."""
    if lx.overlap(claim, evidence) < lx.RELATED_OVERLAP:
        return []
    c_conds = _conditions(claim)
    c_stems = {w.stem for w in lx.words(claim)} | set(re.findall(r"\d+(?:\.\d+)?", claim))
    c_species = _species_of(claim)
    ev_conds = _conditions(evidence)
    # A finding the evidence reports both in vitro and in vivo is not narrowed by either.
    both_settings = (
        len(
            {k for kind, _, keys in ev_conds if kind == "setting" for k in keys}
            & _CONFLICTING_SETTINGS
        )
        > 1
    )
    out: list[Finding] = _widened(claim, evidence)
    tails = _unstated_tails(claim, evidence)
    for kind, span, keys in ev_conds:
        # A numbered part of the data is the claim's only when it names the part and its
        # number ("bucket 2"); other conditions when it names any of their words.
        if not keys or (
            all(_mentions({k}, c_stems) for k in keys)
            if kind == "subset"
            else _mentions(keys, c_stems)
        ):
            continue
        if any(a <= span[0] < b for a, b in tails):
            continue
        if kind == "qualifier":
            head = lx.words(evidence[span[0] : span[1]])[-1].stem
            if not _mentions({head}, c_stems) or any(
                k == kind and lx.words(claim[a:b])[-1].stem == head for k, (a, b), _ in c_conds
            ):
                # A claim about another population, or one it narrows in words of its own
                # ("critically ill patients" where the evidence has "hospitalised patients").
                continue
        if kind == "setting" and both_settings and keys <= _CONFLICTING_SETTINGS:
            continue
        said = evidence[span[0] : span[1]]
        same_kind = [c for c in c_conds if c[0] == kind]
        if kind == "species" and c_species:
            continue  # another species in the claim: the entity check reports the swap
        if kind == "circumstance" and same_kind:
            continue  # "under the same conditions" keeps "under the same experimental conditions"
        if kind in ("setting", "temperature") and same_kind:
            c_span = same_kind[0][1]
            if kind == "temperature" or (same_kind[0][2] | keys) <= _CONFLICTING_SETTINGS:
                out.append(
                    lx.finding(
                        "condition",
                        "contradict",
                        f"the claim says {claim[c_span[0] : c_span[1]]!r}, the evidence {said!r}",
                        claim,
                        evidence,
                        c_span,
                        span,
                    )
                )
                continue
        out.append(
            lx.finding(
                "condition",
                "partial",
                f"the claim drops the evidence's condition {said!r}",
                claim,
                evidence,
                None,
                span,
            )
        )
    return out
