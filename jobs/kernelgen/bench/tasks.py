"""Task loader for the NPUKernelBench layout: ``tasks/level<N>/<Category>/<OpName>/``.

Every task directory holds ``api_desc.md``, ``question/op_host/<kernel>.cpp``, ``question/op_kernel/<kernel>.cpp``,
``validation/{module.py, prepare_inputs.py, pybind.cpp, test_cases.csv}`` and usually ``answer/0/``.
A malformed task becomes a `TaskLoadError` naming the file and the problem; the rest of the suite still loads.

``test_cases.csv`` is ``;``-separated with ``case_id`` first and any column set after it (NPUKernelBench has 62
distinct sets). Each cell is kept as raw text (`TestCase.raw`) and as a Python literal where it parses as one
(`TestCase.values`). `case_row` rebuilds the row exactly as NPUKernelBench hands it to ``get_inputs``: a
pandas-typed row (per-column int / float / bool, list cells left as strings for the task's own ``eval``),
with float columns that hold only integers cast to int.
"""
from __future__ import annotations

import ast
import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .model import Task, TestCase

BUILTIN = "builtin"
REQUIRED_VALIDATION = ("module.py", "prepare_inputs.py", "pybind.cpp", "test_cases.csv")
SHAPE_MODES = ("static", "dynamic")


def builtin_suite_dir() -> Path:
    """The package's own suite (written from scratch, same layout)."""
    return Path(__file__).resolve().parent / "suite" / "builtin" / "tasks"


def camel_to_snake(name: str) -> str:
    """NPUKernelBench's kernel naming: TopKV3 -> top_kv3, GeGluV2 -> ge_glu_v2, AddCustom -> add_custom."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


class TaskError(Exception):
    def __init__(self, path: Path, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = Path(path), problem


@dataclass
class TaskLoadError:
    task_dir: Path
    path: Path          # the file (or directory) at fault
    problem: str

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


@dataclass
class Suite:
    name: str
    root: Path
    tasks: list[Task] = field(default_factory=list)
    errors: list[TaskLoadError] = field(default_factory=list)

    def by_id(self) -> dict[str, Task]:
        return {t.task_id: t for t in self.tasks}


def _parse_cell(text: str) -> Any:
    text = text.strip()
    if text == "":
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


def parse_cases(csv_path: Path) -> list[TestCase]:
    """Parse a test_cases.csv; raises TaskError with the line at fault."""
    try:
        text = csv_path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise TaskError(csv_path, f"cannot read: {e.strerror or e}") from e
    lines = [ln for ln in csv.reader(io.StringIO(text), delimiter=";")]
    rows = [(i + 1, r) for i, r in enumerate(lines) if any(c.strip() for c in r)]
    if not rows:
        raise TaskError(csv_path, "empty file (expected a 'case_id;...' header and at least one case)")
    _, header = rows[0]
    header = [h.strip() for h in header]
    if header[0] != "case_id":
        raise TaskError(csv_path, f"first column must be 'case_id', found {header[0]!r} (is the separator ';'?)")
    if len(set(header)) != len(header):
        raise TaskError(csv_path, f"duplicate column names in header {header}")
    cases: list[TestCase] = []
    seen: set[int] = set()
    for lineno, cells in rows[1:]:
        if len(cells) != len(header):
            raise TaskError(csv_path, f"line {lineno}: {len(cells)} cells, header has {len(header)} columns")
        try:
            cid = int(cells[0].strip())
        except ValueError:
            raise TaskError(csv_path, f"line {lineno}: case_id {cells[0]!r} is not an integer") from None
        if cid in seen:
            raise TaskError(csv_path, f"line {lineno}: duplicate case_id {cid}")
        seen.add(cid)
        raw = {h: c.strip() for h, c in zip(header[1:], cells[1:])}
        cases.append(TestCase(case_id=cid, values={h: _parse_cell(c) for h, c in raw.items()}, raw=raw))
    if not cases:
        raise TaskError(csv_path, "no test cases below the header")
    return cases


def _column_type(cells: list[str]) -> type | None:
    present = [c for c in cells if c != ""]
    if not present:
        return None
    if all(re.fullmatch(r"[+-]?\d+", c) for c in present):
        return int
    if all(c in ("True", "False", "TRUE", "FALSE", "true", "false") for c in present):
        return bool
    try:
        vals = [float(c) for c in present]
    except ValueError:
        return str
    if all(v == v and abs(v) != float("inf") and v == int(v) for v in vals):
        return int   # NPUKernelBench casts float columns that hold only integers to int
    return float


def case_row(task: Task, case: TestCase) -> dict[str, Any]:
    """The row `get_inputs(row, device)` receives, typed column-wise like pandas.read_csv(sep=';')."""
    row: dict[str, Any] = {}
    raw = case.raw or {k: (v if isinstance(v, str) else repr(v)) for k, v in case.values.items()}
    for col, text in raw.items():
        kind = _column_type([(c.raw or {}).get(col, "") if c.raw else str(c.values.get(col, ""))
                             for c in task.cases] or [text])
        if text == "" or kind is None:
            row[col] = None
        elif kind is int:
            row[col] = int(float(text))
        elif kind is float:
            row[col] = float(text)
        elif kind is bool:
            row[col] = text.lower() == "true"
        else:
            row[col] = text
    return row


def task_sha256(task: Task) -> str:
    """Content hash of what defines a task for evaluation (api_desc, question templates, validation files)."""
    import hashlib
    h = hashlib.sha256(task.api_desc.encode())
    for rel in sorted(task.question_files):
        h.update(rel.encode() + b"\0" + task.question_files[rel].encode() + b"\0")
    for p in sorted(task.validation_dir.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(task.validation_dir).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def select_cases(task: Task, shape_mode: str = "static", max_cases: int | None = None) -> list[TestCase]:
    """Static mode (NPUKernelBench's default) evaluates the first case only unless max_cases asks for more;
    dynamic mode evaluates every case (capped by max_cases)."""
    if shape_mode not in SHAPE_MODES:
        raise ValueError(f"shape mode must be one of {SHAPE_MODES}, got {shape_mode!r}")
    cases = sorted(task.cases, key=lambda c: c.case_id)
    if shape_mode == "static":
        return cases[: max_cases or 1]
    return cases[:max_cases] if max_cases else cases


def load_task(task_dir: Path, suite: str = "") -> Task:
    """Load one task directory; raises TaskError naming the file at fault."""
    task_dir = Path(task_dir)
    category_dir, level_dir = task_dir.parent, task_dir.parent.parent
    m = re.fullmatch(r"level(\d+)", level_dir.name)
    if not m:
        raise TaskError(task_dir, f"not under a level<N> directory (found {level_dir.name!r})")
    op_name = task_dir.name.split("_")[0]
    if not op_name or not op_name[0].isalpha():
        raise TaskError(task_dir, f"directory name {task_dir.name!r} does not start with a CamelCase op name")
    api = task_dir / "api_desc.md"
    if not api.is_file():
        raise TaskError(api, "missing (the natural-language spec that goes into the prompt)")
    vdir = task_dir / "validation"
    for name in REQUIRED_VALIDATION:
        if not (vdir / name).is_file():
            raise TaskError(vdir / name, "missing validation file")
    _check_python(vdir / "module.py", classes=("Model", "ModelNew"), functions=())
    _check_python(vdir / "prepare_inputs.py", classes=(), functions=("get_inputs",))
    kernel_dir = task_dir / "question" / "op_kernel"
    stubs = sorted(kernel_dir.glob("*.cpp")) if kernel_dir.is_dir() else []
    if not stubs:
        raise TaskError(kernel_dir, "missing kernel stub question/op_kernel/<kernel>.cpp")
    expected = camel_to_snake(op_name)
    kernel_name = expected if any(s.stem == expected for s in stubs) else stubs[0].stem
    host = task_dir / "question" / "op_host" / f"{kernel_name}.cpp"
    if not host.is_file():
        raise TaskError(host, "missing host template question/op_host/<kernel>.cpp")
    question_files: dict[str, str] = {}
    for p in sorted((task_dir / "question").rglob("*")):
        if p.is_file() and p.name != "api_desc.md":
            try:
                question_files[p.relative_to(task_dir / "question").as_posix()] = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise TaskError(p, f"unreadable: {e}") from e
    try:
        api_text = api.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TaskError(api, f"unreadable: {e}") from e
    if not api_text.strip():
        raise TaskError(api, "empty")
    cases = parse_cases(vdir / "test_cases.csv")
    answer = task_dir / "answer" / "0"
    return Task(root=task_dir, level=int(m.group(1)), category=category_dir.name, op_name=op_name,
                kernel_name=kernel_name, api_desc=api_text, question_files=question_files,
                answer_dir=answer if answer.is_dir() else None, cases=cases, validation_dir=vdir, suite=suite)


def _check_python(path: Path, *, classes: tuple[str, ...], functions: tuple[str, ...]) -> None:
    """Parse (never execute) a validation file and check it defines what the harness calls."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as e:
        raise TaskError(path, f"line {e.lineno}: syntax error: {e.msg}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise TaskError(path, f"unreadable: {e}") from e
    defined_classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    defined_functions = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    missing = [f"class {c}" for c in classes if c not in defined_classes] + \
              [f"function {f}" for f in functions if f not in defined_functions]
    if missing:
        raise TaskError(path, f"does not define {', '.join(missing)}")


def resolve_suite_root(uri: str | Path) -> tuple[str, Path]:
    """(suite name, the tasks/ directory) for "builtin", a tasks/ dir, or a dir that contains tasks/."""
    text = str(uri)
    if text in ("", BUILTIN):
        return BUILTIN, builtin_suite_dir()
    if text.startswith("file://"):
        text = text[len("file://"):]
    if "://" in text:
        raise ValueError(f"suite URI {text!r}: only 'builtin' and local paths are loaded directly; "
                         f"fetch remote suites to a local directory first")
    root = Path(text).expanduser()
    if (root / "tasks").is_dir() and not any(root.glob("level*")):
        root = root / "tasks"
    name = root.parent.name if root.name == "tasks" else root.name
    return name, root


def _matches(task_dir: Path, level: int, names: set[str]) -> bool:
    op = task_dir.name.split("_")[0].lower()
    return not names or task_dir.name.lower() in names or op in names or \
        f"level{level}/{task_dir.parent.name}/{op}".lower() in names


def load_suite(uri: str | Path = BUILTIN, *, levels: Iterable[int] | None = None,
               categories: Iterable[str] | None = None, names: Iterable[str] | None = None,
               limit: int | None = None) -> Suite:
    """Load every task under a suite root (filters by level, category and op/dir name; case-insensitive)."""
    name, root = resolve_suite_root(uri)
    suite = Suite(name=name, root=root)
    if not root.is_dir():
        suite.errors.append(TaskLoadError(root, root, "suite directory does not exist"))
        return suite
    want_levels = set(levels or [])
    want_cats = {c.lower() for c in categories or []}
    want_names = {n.lower() for n in names or []}
    for level_dir in sorted(root.iterdir()):
        m = re.fullmatch(r"level(\d+)", level_dir.name)
        if not level_dir.is_dir() or not m:
            continue
        level = int(m.group(1))
        if want_levels and level not in want_levels:
            continue
        for cat_dir in sorted(p for p in level_dir.iterdir() if p.is_dir()):
            if want_cats and cat_dir.name.lower() not in want_cats:
                continue
            for task_dir in sorted(p for p in cat_dir.iterdir() if p.is_dir()):
                if not _matches(task_dir, level, want_names):
                    continue
                try:
                    suite.tasks.append(load_task(task_dir, suite=name))
                except TaskError as e:
                    suite.errors.append(TaskLoadError(task_dir, e.path, e.problem))
                if limit and len(suite.tasks) >= limit:
                    return suite
    return suite
