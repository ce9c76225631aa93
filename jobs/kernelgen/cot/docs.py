"""Stage 1, documentation CoT: chunk Markdown docs → questions → BM25 retrieval → answer with <think>."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from rank_bm25 import BM25Okapi

from . import prompts
from .context import StageContext
from .records import CoTRecord
from .teacher import TeacherRequest
from .text import (
    cjk_ratio,
    detect_language,
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


def clean_markdown(text: str) -> tuple[str, list[str]]:
    """Drop anchors and HTML noise that doc exports carry; return (text, npu applicability tags)."""
    npu = sorted({t.strip() for m in _NPU_TAG.finditer(text) for t in m.group(1).split(",") if t.strip()})
    text = _NPU_TAG.sub("", text)
    text = re.sub(r"<a\s+name=[^>]*>\s*</a>", "", text, flags=re.IGNORECASE)
    text = re.sub(r"<br\s*/?>", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = html.unescape(text).replace("\u00a0", " ")
    return re.sub(r"\n{3,}", "\n\n", text).strip(), npu


def _sections(text: str) -> list[tuple[int, str, str]]:
    """(level, heading, body) in order; text before the first heading has level 0."""
    out: list[tuple[int, str, list[str]]] = [(0, "", [])]
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
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
    if language == "auto":
        lang = "zh" if cjk_ratio(text) > 0.3 else (detect_language(text)[0] or "en")
    else:
        lang = language
    known = [API_SECTIONS.get(h.lower()) for _, h, _ in secs]
    api_page = sum(1 for k in known if k) >= 3
    chunks: list[Chunk] = []

    def add(section: str, body: str) -> None:
        for i, piece in enumerate(_split_long(body, cap)):
            cid = f"{rel}#{len(chunks)}" if not section else f"{rel}#{section}" + (f"-{i}" if i else "")
            chunks.append(Chunk(id=cid, path=rel, title=title, section=section, text=piece, lang=lang,
                                api_page=api_page, npu=npu))

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


def load_chunks(root: Path, *, cap: int, language: str = "auto") -> list[Chunk]:
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.suffix.lower() in (".md", ".markdown"))
    chunks: list[Chunk] = []
    for f in files:
        rel = f.name if root.is_file() else f.relative_to(root).as_posix()
        chunks.extend(chunk_page(rel, f.read_text(encoding="utf-8", errors="replace"), cap=cap, language=language))
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
        chunks = load_chunks(root, cap=ctx.options.chunk_chars, language=src.language)
        index = ChunkIndex(chunks)
        mine = [c for c in chunks if ctx.mine(f"docs:{src.uri}:{c.id}")]
        st.inputs += len(mine)
        st.extra["chunks"] = st.extra.get("chunks", 0) + len(mine)
        if ctx.decontam is not None:
            kept = []
            for c in mine:
                hit = ctx.decontam.check_text(c.text, names=[c.title])
                if hit:
                    st.drop("decontam:" + hit.reason, item=c.id)
                    ctx.decontam.report("docs", f"{src.uri}:{c.id}", hit)
                else:
                    kept.append(c)
            mine = kept
        qreqs = [TeacherRequest(key=c.id, messages=prompts.doc_questions(c.text, c.title, ctx.options.questions_per_chunk,
                                                                         c.lang),
                                accept=lambda r: bool(split_questions(r.content, 1)))
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
            retrieved[key] = hits
            areqs.append(TeacherRequest(key=key, messages=prompts.doc_answer(q, [h.text for h in hits], c.lang),
                                        accept=lambda r: bool(r.content.strip() or r.reasoning.strip())))
        areps = ctx.teacher.ask(areqs)
        for c, q, qrep in questions:
            key = f"{c.id}|{q}"
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
