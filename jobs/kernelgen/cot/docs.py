"""Stage 1, documentation CoT: chunk Markdown docs → questions → BM25 retrieval → answer with <think>."""
from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from rank_bm25 import BM25Okapi

from . import prompts
from .context import StageContext
from .decontam import doc_api_names
from .records import CoTRecord
from .teacher import TeacherRequest
from .text import (
    doc_language,
    extract_tag,
    retrieval_tokens,
    split_questions,
)

# The fixed section template of API pages (zh and en headings); a page with >= 3 of them is an API page, and
# its sections are the natural chunk boundaries and "technical points".
API_SECTIONS = {
    "产品支持情况": "support", "功能说明": "function", "函数原型": "prototype", "参数说明": "parameters",
    "返回值说明": "returns", "返回值": "returns", "约束说明": "constraints", "调用示例": "example",
    "product support": "support", "function description": "function", "functionality": "function",
    "prototype": "prototype", "function prototype": "prototype", "parameters": "parameters",
    "parameter description": "parameters", "returns": "returns", "return value": "returns",
    "constraints": "constraints", "restrictions": "constraints", "example": "example", "examples": "example",
    "call example": "example",
}

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_NPU_TAG = re.compile(r"<!--\s*npu=\"([^\"]*)\"[^>]*-->")
_FENCE_LINE = re.compile(r"[ \t]*(```+|~~~+)[ \t]*([^\s`]*)")
_TABLE = re.compile(r"<table\b.*?(?:</table\s*>|\Z)", re.DOTALL | re.IGNORECASE)
# HTML that doc exports carry around Markdown; only these names are tags (C++ in inline code has <T>, <half>...).
_HTML_TAGS = ("a|p|span|div|term|strong|b|i|em|u|s|del|ins|code|sup|sub|ul|ol|li|hr|img|font|center|pre|"
              "h[1-6]|details|summary|caption|colgroup|col|thead|tbody|tfoot|tr|td|th|table|section|article|cite|"
              "kbd|samp|var|mark|small|big|dl|dt|dd|blockquote|figure|figcaption|label|abbr")
_TAG = re.compile(rf"</?(?:{_HTML_TAGS})\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>", re.IGNORECASE)
log = logging.getLogger(__name__)


class _TableReader(HTMLParser):
    """Rows of cell texts of one HTML table (nested markup flattened, <br> as a space)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            if not self.rows:
                self.rows.append([])
            self._cell = []
        elif tag in ("br", "p", "li") and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(re.sub(r"\s+", " ", "".join(self._cell)).strip().replace("|", "\\|"))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_table_to_markdown(table_html: str) -> str:
    reader = _TableReader()
    reader.feed(table_html)
    reader.close()
    rows = [r for r in reader.rows if any(c for c in r)]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def fenced_lines(text: str) -> list[tuple[str, bool]]:
    """(line with its newline, inside a code fence). Pages often leave a fence open and start the next block with
    ```cpp; an opener with a language inside a fence is taken as closing the old block and opening a new one (a
    closing fence never has one), so one missed close does not turn the rest of the page into code."""
    out, fence = [], None
    for line in text.splitlines(keepends=True):
        m = _FENCE_LINE.match(line)
        if m and fence is None:
            fence = m.group(1)[0]
            out.append((line, True))
        elif m and m.group(1)[0] == fence:
            out.append((line, True))
            if not m.group(2):
                fence = None
        else:
            out.append((line, fence is not None))
    return out


def _clean_prose(text: str) -> str:
    text = _TABLE.sub(lambda m: "\n\n" + html_table_to_markdown(m.group(0)) + "\n\n", text)
    text = re.sub(r"<br\s*/?>", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    return _TAG.sub("", text)


@dataclass
class Chunk:
    id: str
    path: str                # relative to the source root
    title: str               # page title (first heading)
    section: str             # heading of this chunk ("" for a whole page)
    text: str
    lang: str
    api_page: bool = False
    npu: list[str] = field(default_factory=list)
    apis: list[str] = field(default_factory=list)   # aclnn APIs the page is about (title, prototypes): decontamination


def clean_markdown(text: str) -> tuple[str, list[str]]:
    """Drop anchors and HTML noise that doc exports carry; return (text, npu applicability tags)."""
    npu = sorted({t.strip() for m in _NPU_TAG.finditer(text) for t in m.group(1).split(",") if t.strip()})
    text = _NPU_TAG.sub("", text)
    # HTML (anchors, tables, <term>...) is removed outside code fences only: code keeps its angle brackets.
    out, prose = [], []
    for line, code in fenced_lines(text):
        if code:
            if prose:
                out.append(html.unescape(_clean_prose("".join(prose))))
                prose = []
            out.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(html.unescape(_clean_prose("".join(prose))))
    text = "".join(out).replace("\u00a0", " ")
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip(), npu


def _sections(text: str) -> list[tuple[int, str, str]]:
    """(level, heading, body) in order; text before the first heading has level 0."""
    out: list[tuple[int, str, list[str]]] = [(0, "", [])]
    for line, in_fence in fenced_lines(text):
        line = line.rstrip("\n")
        m = None if in_fence else _HEADING.match(line)
        if m:
            out.append((len(m.group(1)), m.group(2).strip(), []))
        else:
            out[-1][2].append(line)
    return [(lvl, h, "\n".join(body).strip()) for lvl, h, body in out if h or "\n".join(body).strip()]


def _split_long(text: str, cap: int, overlap: float = 0.12) -> list[str]:
    """Paragraph-aligned pieces of at most ~cap chars, each starting with the tail of the previous one."""
    if len(text) <= cap:
        return [text]
    paras, pieces, cur = text.split("\n\n"), [], ""
    for p in paras:
        while len(p) > cap:                       # one giant paragraph (a table): hard cut
            pieces.append((cur + "\n\n" + p[:cap]).strip() if cur else p[:cap])
            cur, p = "", p[cap:]
        if cur and len(cur) + len(p) + 2 > cap:
            pieces.append(cur)
            tail = cur[-int(cap * overlap):]
            cur = tail + "\n\n" + p
        else:
            cur = (cur + "\n\n" + p) if cur else p
    if cur.strip():
        pieces.append(cur)
    return pieces


def chunk_page(rel: str, raw: str, *, cap: int, language: str = "auto") -> list[Chunk]:
    text, npu = clean_markdown(raw)
    secs = _sections(text)
    title = next((h for lvl, h, _ in secs if lvl > 0), Path(rel).stem)
    lang = doc_language(text) if language == "auto" else language
    known = [API_SECTIONS.get(h.lower()) for _, h, _ in secs]
    api_page = sum(1 for k in known if k) >= 3
    apis = doc_api_names(text, [title])        # page-wide: every chunk of an aclnn page belongs to that API
    chunks: list[Chunk] = []
    used: set[str] = set()

    def add(section: str, body: str) -> None:
        for i, piece in enumerate(_split_long(body, cap)):
            cid = f"{rel}#{len(chunks)}" if not section else f"{rel}#{section}" + (f"-{i}" if i else "")
            k = 2
            while cid in used:                 # a heading repeated on one page (one per overload, per product...)
                cid = f"{rel}#{section}~{k}" + (f"-{i}" if i else "")
                k += 1
            used.add(cid)
            chunks.append(Chunk(id=cid, path=rel, title=title, section=section, text=piece, lang=lang,
                                api_page=api_page, npu=npu, apis=apis))

    if api_page and len(text) <= cap:
        add("", text)                  # a short API page is one knowledge unit
    elif api_page:
        for lvl, h, body in secs:
            if body:
                add(API_SECTIONS.get(h.lower(), h), f"# {title}\n## {h}\n{body}")
    else:
        for lvl, h, body in secs:
            if body and len(body) >= 40:
                add(h, (f"# {title}\n## {h}\n" if h and h != title else f"# {title}\n") + body)
    return chunks


def not_text(raw: str) -> bool:
    """NUL bytes, or bytes that did not decode (read as U+FFFD): a binary file with a .md name."""
    return "\0" in raw or raw.count("\ufffd") > max(2, len(raw) // 1000)


def load_chunks(root: Path, *, cap: int, language: str = "auto",
                on_skip: Callable[[str, str, str], None] | None = None) -> list[Chunk]:
    """Chunks of every Markdown file under root. A file that is not text, or cannot be read or chunked, is skipped
    and reported to on_skip(rel, reason, detail) (else logged): one bad page never aborts the build."""
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*")
                                                 if p.suffix.lower() in (".md", ".markdown") and p.is_file())
    chunks: list[Chunk] = []

    def skip(rel: str, reason: str, detail: str) -> None:
        if on_skip is None:
            log.warning("docs: skipping %s (%s: %s)", rel, reason, detail)
        else:
            on_skip(rel, reason, detail)

    for f in files:
        rel = f.name if root.is_file() else f.relative_to(root).as_posix()
        try:
            raw = f.read_text(encoding="utf-8", errors="replace")
            if not_text(raw):
                skip(rel, "not_text", "NUL bytes or undecodable bytes")
                continue
            chunks.extend(chunk_page(rel, raw, cap=cap, language=language))
        except (MemoryError, KeyboardInterrupt):
            raise
        except Exception as e:  # noqa: BLE001 - one bad page never aborts the build
            skip(rel, f"bad_input:{type(e).__name__}", str(e))
    return chunks


class ChunkIndex:
    """BM25 over chunks, with same-page chunks ranked first (a question is usually about its own page)."""

    def __init__(self, chunks: list[Chunk]):
        self.chunks = chunks
        self.bm25 = BM25Okapi([retrieval_tokens(c.text) or ["_"] for c in chunks]) if chunks else None

    def search(self, query: str, k: int, *, page: str | None = None) -> list[Chunk]:
        if not self.bm25:
            return []
        scores = self.bm25.get_scores(retrieval_tokens(query) or ["_"])
        order = sorted(range(len(self.chunks)), key=lambda i: (-(self.chunks[i].path == page), -scores[i], i))
        hits = [self.chunks[i] for i in order if scores[i] > 0 or self.chunks[i].path == page]
        return hits[:k]


def reasoning_and_answer(rep) -> tuple[str, str]:
    reasoning = rep.reasoning.strip() or (extract_tag(rep.content, "think") or "")
    content = re.sub(r"<think>.*?(</think>|$)", "", rep.content, flags=re.DOTALL | re.IGNORECASE)
    answer = extract_tag(content, "answer")
    return reasoning, (answer if answer is not None else content).strip()


def run_docs(ctx: StageContext, sources) -> list[CoTRecord]:
    st = ctx.stage_stats("docs")
    mark = ctx.teacher_mark()
    records: list[CoTRecord] = []
    for src in sources:
        root = Path(src.local_path)
        chunks = load_chunks(root, cap=ctx.options.chunk_chars, language=src.language,
                             on_skip=lambda rel, reason, detail: st.drop(reason, item=rel, detail=detail))
        index = ChunkIndex(chunks)
        mine = [c for c in chunks if ctx.mine(f"docs:{src.uri}:{c.id}")]
        st.inputs += len(mine)
        st.extra["chunks"] = st.extra.get("chunks", 0) + len(mine)
        if ctx.decontam is not None:
            kept = []
            for c in mine:
                hit = ctx.decontam.check_text(c.text, names=[c.title, *c.apis])
                if hit:
                    st.drop("decontam:" + hit.reason, item=c.id)
                    ctx.decontam.report("docs", f"{src.uri}:{c.id}", hit)
                else:
                    kept.append(c)
            mine = kept
        def ask_questions(c: Chunk):
            return prompts.doc_questions(c.text, c.title, ctx.options.questions_per_chunk, c.lang)
        mine = [c for c in mine if ctx.fits(st, c.id, ask_questions(c))]
        qreqs = [TeacherRequest(key=c.id, messages=ask_questions(c), accept=lambda r: bool(split_questions(r.content, 1)))
                 for c in mine]
        qreps = ctx.teacher.ask(qreqs)
        questions: list[tuple[Chunk, str, object]] = []
        for c in mine:
            rep = qreps.get(c.id)
            if rep is None:
                st.drop("no_questions", item=c.id)
                continue
            for q in split_questions(rep.content, ctx.options.questions_per_chunk):
                questions.append((c, q, rep))
        st.extra["questions"] = st.extra.get("questions", 0) + len(questions)
        areqs, retrieved = [], {}
        for c, q, _ in questions:
            key = f"{c.id}|{q}"
            hits = index.search(q, ctx.options.retrieve_k, page=c.path)
            if c not in hits:                # the chunk the question came from is always in the context
                hits = [c, *hits[:ctx.options.retrieve_k - 1]]
            # Too long for the teacher: drop the lowest-ranked documents first (the source chunk stays).
            while len(hits) > 1 and not ctx.fits(st, key, prompts.doc_answer(q, [h.text for h in hits], c.lang),
                                                 record=False):
                hits = [h for h in hits if h is c] + [h for h in hits if h is not c][:len(hits) - 2]
                st.extra["answer_context_trimmed"] = st.extra.get("answer_context_trimmed", 0) + 1
            if not ctx.fits(st, key, prompts.doc_answer(q, [h.text for h in hits], c.lang)):
                continue
            retrieved[key] = hits
            areqs.append(TeacherRequest(key=key, messages=prompts.doc_answer(q, [h.text for h in hits], c.lang),
                                        accept=lambda r: bool(r.content.strip() or r.reasoning.strip())))
        areps = ctx.teacher.ask(areqs)
        for c, q, qrep in questions:
            key = f"{c.id}|{q}"
            if key not in retrieved:
                continue
            rep = areps.get(key)
            if not ctx.keep_reply(rep, st, item=key):
                continue
            reasoning, answer = reasoning_and_answer(rep)
            if not answer:
                st.drop("empty_answer", item=key)
                continue
            records.append(CoTRecord(
                kind="doc_qa", source=src.uri, prompt=q, reasoning=reasoning, answer=answer, lang=c.lang,
                licence=ctx.options.licence,
                provenance={"path": c.path, "chunk": c.id, "title": c.title, "section": c.section, "npu": c.npu,
                            "retrieved": [h.id for h in retrieved[key]], "commit": src.commit},
                teacher={"question": qrep.provenance(), "answer": rep.provenance(),
                         "prompt_version": prompts.PROMPT_VERSION},
                meta={"api_page": c.api_page}))
    st.outputs += len(records)
    ctx.count_teacher(st, mark)
    return records
