"""Stage 6, decontamination against a benchmark suite (NPUKernelBench layout), in layers (cot-pipeline §3.3):

1. names: task names (CamelCase, snake_case, aclnn<Op>, with Math/Custom suffixes stripped) and the kernel
   entry/class names the reference answers define, matched against op directories, file stems and the names the
   candidate file itself defines (not the shared headers it includes: a helper `Muls` in a common header says
   nothing about the kernels that include it); for documentation, the aclnn API names a page is about, from its
   title (combined titles such as `aclnnX&aclnnInplaceX` split, Inplace/GetWorkspaceSize forms folded) and from
   the prototypes it declares, so a page in any language is matched; plus the spec's extra blocklist strings,
   matched as substrings;
2. code n-gram containment: share of a reference answer's comment-free C++ token n-grams found in the
   candidate (identifiers kept);
3. similarity on normalised token streams: the same with identifiers abstracted to ID (API callee names and
   keywords kept), so renaming does not hide a copy; measured as the overlap of n-gram sets relative to the
   smaller one, and only when both sides have at least `min_grams` n-grams (relative to a tiny code block,
   any shared idiom would score 1.0); kernel answers only (host registration code is the same for every op);
4. prompt side: word n-gram containment of a task's api_desc.md in natural-language text.
Every drop is reported with its layer, the matched task and the score.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from .cpp import called_names, code_tokens, defined_names

_CJK = re.compile(r"[\u3400-\u9fff]")


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return s.lower()


def norm_name(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def text_tokens(text: str) -> list[str]:
    """Words (lower-case) and single CJK characters: n-grams over these work for en and zh."""
    return [t.lower() for t in re.findall(r"[\u3400-\u9fff]|[A-Za-z0-9_]+", text)]


_ACLNN_SPLIT = re.compile(r"[&、,，/;；\s]+|和|与")
_ACLNN_DECL = re.compile(r"\baclnnStatus\s+(aclnn\w+)\s*\(")
_ACLNN_HEADING = re.compile(r"^#{1,6}\s+(aclnn\w+)\s*$", re.MULTILINE)


def aclnn_base(name: str) -> str:
    """aclnnInplaceSqrt / aclnnSqrtGetWorkspaceSize -> aclnnSqrt: the op an aclnn entry point belongs to."""
    name = re.sub(r"GetWorkspaceSize$", "", name)
    return re.sub(r"^aclnnInplace(?=[A-Z])", "aclnn", name)


def doc_api_names(text: str, titles=()) -> list[str]:
    """The aclnn APIs a documentation chunk is about: its title's parts and the prototypes/headings it declares."""
    found = [part for t in titles for part in _ACLNN_SPLIT.split(t) if part.startswith("aclnn")]
    found += _ACLNN_DECL.findall(text) + _ACLNN_HEADING.findall(text)
    out: list[str] = []
    for nm in found:
        base = aclnn_base(nm)
        if base not in out:
            out.append(base)
    return out


def ngrams(toks: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)}


@dataclass
class Hit:
    reason: str          # name | blocklist | ngram | similarity | text_ngram
    task: str
    score: float = 1.0
    detail: str = ""


@dataclass
class BenchTask:
    task_id: str
    op_name: str
    names: set[str]                         # normalised blocked names
    code: list[tuple[str, set, set]]        # (file, identifier n-grams, abstracted n-grams)
    desc: set                               # api_desc word n-grams


def find_tasks_root(suite: Path) -> Path:
    return suite / "tasks" if (suite / "tasks").is_dir() else suite


def builtin_suite() -> Path:
    import kernelgen.bench

    return Path(kernelgen.bench.__file__).parent / "suite" / "builtin"


class Decontaminator:
    def __init__(self, suite: Path | None, *, n: int = 13, containment: float = 0.5, similarity: float = 0.8,
                 blocklist: list[str] = (), text_n: int = 8, min_grams: int = 64):
        self.n, self.containment, self.similarity, self.text_n = n, containment, similarity, text_n
        self.min_grams = min_grams
        self.blocklist = [b for b in blocklist if b]
        self.tasks: list[BenchTask] = []
        self.dropped: list[dict] = []
        if suite is not None and Path(suite).exists():
            self._load(find_tasks_root(Path(suite)))
        self.blocked = {nm: t.task_id for t in self.tasks for nm in t.names}

    def _load(self, root: Path) -> None:
        for desc in sorted(root.glob("level*/*/*/api_desc.md")):
            tdir = desc.parent
            op = tdir.name.split("_")[0]
            level, cat = tdir.parent.parent.name, tdir.parent.name
            base = re.sub(r"(Math|Custom)$", "", op) or op
            names = {norm_name(x) for x in (op, base, snake(op), snake(base), f"aclnn{op}", f"aclnn{base}")}
            code = []
            answers = sorted(p for p in tdir.glob("answer/*/op_kernel/*") if p.is_file())
            answers += sorted(p for p in tdir.glob("answer/*/op_host/*") if p.is_file())
            for f in answers:
                src = f.read_text(encoding="utf-8", errors="replace")
                if f.parent.name == "op_kernel":
                    # Kernel entry and class names that carry the op's name (KernelSoftShrink, soft_shrink);
                    # generic ones (Init, Process, CopyIn) would block every kernel.
                    for nm in defined_names(src):
                        if norm_name(base) in norm_name(nm):
                            names.add(norm_name(nm))
                keep = frozenset(called_names(src))
                # Host code is op registration and tiling boilerplate: with identifiers abstracted, every op's
                # OpDef chain looks the same (doc examples of OpDef scored 0.8+ against any answer), so host files
                # take part in the identifier-kept containment layer only.
                abstract = (ngrams(code_tokens(src, abstract_identifiers=True, keep=keep), self.n)
                            if f.parent.name == "op_kernel" else set())
                code.append((f.relative_to(tdir).as_posix(), ngrams(code_tokens(src), self.n), abstract))
            self.tasks.append(BenchTask(f"{level}/{cat}/{op}", op, names, code,
                                        ngrams(text_tokens(desc.read_text(encoding="utf-8", errors="replace")),
                                               self.text_n)))

    # ----- checks; each returns the first hit or None -----

    def check_names(self, names) -> Hit | None:
        """A blocked name, also with a version suffix dropped (clip_by_value_v2, GeluV2: the same op, revised)."""
        for nm in names:
            t = self.blocked.get(norm_name(nm)) or self.blocked.get(norm_name(re.sub(r"_?[vV]\d+$", "", nm)))
            if t:
                return Hit("name", t, 1.0, nm)
        return None

    def check_blocklist(self, text: str) -> Hit | None:
        low = text.lower()
        for b in self.blocklist:
            if b.lower() in low:
                return Hit("blocklist", "", 1.0, b)
        return None

    def check_code(self, src: str, *, path: str = "", own_source: str | None = None) -> Hit | None:
        """`src` is what would be published (a snippet with its headers inlined); names are taken from the path and
        from `own_source`, the file's own text, when given (else from src)."""
        parts = [p for p in re.split(r"[/\\]", path) if p]
        names = [*parts[:-1], Path(parts[-1]).stem] if parts else []
        own = src if own_source is None else own_source
        hit = self.check_names([*names, *defined_names(own)]) or self.check_blocklist(src)
        if hit:
            return hit
        return self._code_overlap(src)

    def _index(self):
        """n-gram -> reference files holding it, so a candidate is scored against every file in one pass."""
        if getattr(self, "_ident_idx", None) is None:
            self._ident_idx: dict = {}
            self._abs_idx: dict = {}
            self._files: list[tuple[str, str, int, int]] = []     # (task, file, |ident grams|, |abstract grams|)
            for t in self.tasks:
                for fname, bi, ba in t.code:
                    fid = len(self._files)
                    self._files.append((t.task_id, fname, len(bi), len(ba)))
                    for g in bi:
                        self._ident_idx.setdefault(g, []).append(fid)
                    for g in ba:
                        self._abs_idx.setdefault(g, []).append(fid)
        return self._ident_idx, self._abs_idx, self._files

    def _code_overlap(self, src: str) -> Hit | None:
        if not self.tasks:
            return None
        ident = ngrams(code_tokens(src), self.n)
        if not ident:
            return None
        keep = frozenset(called_names(src))
        abstract = ngrams(code_tokens(src, abstract_identifiers=True, keep=keep), self.n)
        ident_idx, abs_idx, files = self._index()
        hits_i: dict[int, int] = {}
        for g in ident:
            for fid in ident_idx.get(g, ()):
                hits_i[fid] = hits_i.get(fid, 0) + 1
        hits_a: dict[int, int] = {}
        for g in abstract:
            for fid in abs_idx.get(g, ()):
                hits_a[fid] = hits_a.get(fid, 0) + 1
        best: Hit | None = None
        for fid, (task, fname, ni, na) in enumerate(files):
            c = hits_i.get(fid, 0) / ni if ni else 0.0
            if c >= self.containment and (best is None or c > best.score):
                best = Hit("ngram", task, round(c, 3), fname)
        if best:
            return best
        for fid, (task, fname, ni, na) in enumerate(files):
            if not na or min(na, len(abstract)) < self.min_grams:
                continue
            sim = hits_a.get(fid, 0) / min(na, len(abstract))
            if sim >= self.similarity and (best is None or sim > best.score):
                best = Hit("similarity", task, round(sim, 3), fname)
        return best

    def check_text(self, text: str, *, names: list[str] = ()) -> Hit | None:
        """Natural-language text (docs, questions, general CoT), possibly with code blocks in it."""
        hit = self.check_blocklist(text)
        if hit:
            return hit
        # Only aclnn names: a title such as "Muls" is an AscendC API page, which every kernel writer needs.
        hit = self.check_names(doc_api_names(text, names))
        if hit:
            return hit
        toks = ngrams(text_tokens(text), self.text_n)
        for t in self.tasks:
            if t.desc and toks:
                c = len(t.desc & toks) / len(t.desc)
                if c >= self.containment:
                    return Hit("text_ngram", t.task_id, round(c, 3), "api_desc.md")
        for block in re.findall(r"```[a-zA-Z+]*\n(.*?)```", text, flags=re.DOTALL):
            hit = self._code_overlap(block)
            if hit:
                return hit
        return None

    def report(self, stage: str, item: str, hit: Hit) -> None:
        self.dropped.append({"stage": stage, "item": item, **asdict(hit)})

    def summary(self) -> dict:
        by: dict[str, int] = {}
        for d in self.dropped:
            by[d["reason"]] = by.get(d["reason"], 0) + 1
        return {"tasks": len(self.tasks), "dropped": len(self.dropped), "by_reason": by}

    def write_report(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as fh:
            for d in self.dropped:
                fh.write(json.dumps(d, ensure_ascii=False) + "\n")
