"""A small language guess: the models (MiniLM embeddings, the NLI model) read English only.

Function words identify a European language from a few sentences; scripts identify the rest.
"""

from __future__ import annotations

import re
import unicodedata

SUPPORTED = ("English",)
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    name: frozenset(words.split())
    for name, words in {
        "English": "the of and to in is that for with was were are by on as this from be which "
        "a an or not at it we these than have has been its their within across",
        "German": "der die das und ist nicht mit von den dem ein eine zu auf für sich des im "
        "wurde werden sind auch bei aus nach wir",
        "French": "le la les et des est une un du dans pour que qui sur au avec pas sont ont "
        "par été cette nous aux ces",
        "Spanish": "el la los las y de que en un una es por con para del se al fue son como "
        "más pero sus este esta han",
        "Italian": "il lo la gli le e di che un una è per con del della nel sono non si dei "
        "alla anche questo stato",
        "Portuguese": "o a os as e de que em um uma é para com do da no na não se por foi são "
        "dos das mais",
        "Dutch": "de het een en van is dat op te in voor met zijn niet aan er ook werd worden "
        "wordt bij door",
    }.items()
}
_SCRIPTS = (
    ("CJK", "Chinese/Japanese"),
    ("HIRAGANA", "Japanese"),
    ("KATAKANA", "Japanese"),
    ("HANGUL", "Korean"),
    ("CYRILLIC", "Russian (Cyrillic script)"),
    ("ARABIC", "Arabic"),
    ("HEBREW", "Hebrew"),
    ("GREEK", "Greek"),
    ("DEVANAGARI", "Hindi (Devanagari)"),
    ("THAI", "Thai"),
)


def guess_language(text: str, *, min_words: int = 12) -> str | None:
    """The language name ("English", "German", ...), or None when the text is too short."""
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) < 20:
        return None
    counts: dict[str, int] = {}
    for ch in letters:
        if ch.isascii():
            continue
        name = unicodedata.name(ch, "")
        script = next((label for key, label in _SCRIPTS if name.startswith(key)), None)
        if script:
            counts[script] = counts.get(script, 0) + 1
    if counts:
        script, n = max(counts.items(), key=lambda kv: kv[1])
        if n / len(letters) > 0.3:
            return script
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < min_words:
        return None
    shares = {
        lang: sum(w in fw for w in words) / len(words) for lang, fw in _FUNCTION_WORDS.items()
    }
    best = max(shares, key=lambda lang: (shares[lang], lang == "English"))
    distinct = {w for w in words if w in _FUNCTION_WORDS[best]}
    # Technical text (tables of terms, lists of names) has few function words in any language;
    # it is read as English unless another language's function words are plainly there.
    if best != "English" and (shares[best] < 0.15 or len(distinct) < 3):
        return "English"
    return best
