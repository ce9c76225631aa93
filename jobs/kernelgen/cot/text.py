"""Text helpers shared by the stages: retrieval tokens, language ID, tag and JSON extraction."""
from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def normalize(text: str) -> str:
    """NFKC and collapsed blank runs: full-width forms and odd spaces become their plain forms."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


def retrieval_tokens(text: str) -> list[str]:
    """BM25 tokens for mixed Chinese/English/code text.

    Chinese has no spaces, so each CJK run contributes character bigrams (and the single characters of runs of
    one). Identifiers are kept whole (DataCopy) and also split on camelCase/underscores (data, copy), lower-cased,
    so a question about "data copy" still finds the DataCopy page.
    """
    text = unicodedata.normalize("NFKC", text)
    toks: list[str] = []
    for run in _CJK_RUN.findall(text):
        toks.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
    for w in _WORD.findall(text):
        low = w.lower()
        toks.append(low)
        parts = [p.lower() for piece in w.split("_") for p in _CAMEL.findall(piece)]
        if len(parts) > 1:
            toks.extend(parts)
    return toks


def cjk_ratio(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if _CJK_RUN.match(c)) / len(letters)


# Language IDs a detector may give a Chinese text (dialects and the macrolanguage); all become "zh".
_ZH_FAMILY = frozenset({"zh", "cmn", "wuu", "yue", "gan", "hak", "hsn", "nan", "cdo", "lzh", "zh-cn", "zh-tw"})


def han_count(text: str) -> int:
    return sum(len(r) for r in _CJK_RUN.findall(text))


def doc_language(text: str, supported: tuple[str, ...] = ("en", "zh")) -> str:
    """The pipeline language of a documentation text: one of `supported` (the first when nothing fits).

    Chinese API pages are mostly identifiers, tables and code, so their share of Han characters is low and a
    character-level detector calls them Wu, Kabyle or "no language"; a text with a real amount of Han characters
    is Chinese here, and a detected dialect of Chinese counts as Chinese."""
    han = han_count(text)
    if "zh" in supported and (cjk_ratio(text) > 0.3 or (han >= 10 and cjk_ratio(text) >= 0.05)):
        return "zh"
    code = detect_language(text)[0]
    code = "zh" if code in _ZH_FAMILY else code
    return code if code in supported else supported[0]


@lru_cache(maxsize=1)
def _langid():
    # py3langid ships its model inside the wheel (numpy only, no download), so it works offline and in CI.
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect_language(text: str) -> tuple[str, float]:
    """(ISO 639-1 code, probability). Code is stripped first: identifiers would read as English."""
    prose = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    prose = prose[:4000]
    if not prose.strip():
        return "", 0.0
    lang, prob = _langid().classify(prose)
    return lang, float(prob)


_TAG_CACHE: dict[str, re.Pattern] = {}


def extract_tag(text: str, tag: str) -> str | None:
    """Content of <tag>…</tag>; an unclosed tag runs to the end. None when the tag is absent."""
    pat = _TAG_CACHE.setdefault(tag, re.compile(rf"<{tag}>(.*?)(?:</{tag}>|$)", re.DOTALL | re.IGNORECASE))
    m = pat.search(text)
    return m.group(1).strip() if m else None


def extract_json_object(text: str) -> dict | None:
    """The last top-level {...} object in text that parses (teachers wrap it in prose or a code fence)."""
    best: tuple[int, int, dict] | None = None
    for m in re.finditer(r"\{", text):
        s, depth = m.start(), 0
        if best is not None and s < best[1]:
            continue                     # inside an object already found
        for i in range(s, len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    try:
                        obj = json.loads(text[s:i + 1])
                    except json.JSONDecodeError:
                        break
                    if isinstance(obj, dict):
                        best = (s, i + 1, obj)
                    break
    return best[2] if best else None


def split_questions(text: str, limit: int) -> list[str]:
    """Questions from a teacher's list: numbered/bulleted lines or lines ending in a question mark."""
    out: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)、]|Q\d*[:：])\s*", "", line).strip()
        if len(line) >= 8 and (line.endswith(("?", "？")) or re.match(r"^(how|what|why|which|when|can|does|is)\b", line, re.IGNORECASE)):
            out.append(line)
    if not out:
        # A teacher that ignored the list format still asked something: keep its first sentence-sized line.
        first = next((ln.strip() for ln in text.splitlines() if len(ln.strip()) >= 8 and not ln.strip().startswith("```")),
                     "")
        if first:
            out.append(first[:300])
    seen, uniq = set(), []
    for q in out:
        k = q.lower()
        if k not in seen:
            seen.add(k)
            uniq.append(q)
    return uniq[:limit]
