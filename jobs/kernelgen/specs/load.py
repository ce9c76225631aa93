"""Reading a spec YAML (file or text) into the model of its kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from kernelgen.specs.benchrun import BenchRun
from kernelgen.specs.common import Resource
from kernelgen.specs.cotbuild import CoTBuild
from kernelgen.specs.errors import SpecError, format_validation_errors
from kernelgen.specs.trainrun import TrainRun

KINDS: dict[str, type[Resource]] = {"BenchRun": BenchRun, "TrainRun": TrainRun, "CoTBuild": CoTBuild}

R = TypeVar("R", bound=Resource)


def _read(path_or_text: str | Path | dict[str, Any]) -> tuple[Any, str | None]:
    if isinstance(path_or_text, dict):
        return path_or_text, None
    text = str(path_or_text)
    looks_like_path = "\n" not in text and (Path(text).is_file() or text.endswith((".yaml", ".yml", ".json")))
    if isinstance(path_or_text, Path) or looks_like_path:
        path = Path(path_or_text)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise SpecError([f"{path}: cannot read: {e.strerror or e}"], str(path)) from e
        source: str | None = str(path)
    else:
        text, source = str(path_or_text), None
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise SpecError([f"{source or '<spec>'}: invalid YAML: {where}{getattr(e, 'problem', None) or e}"], source) from e
    if len(docs) != 1:
        raise SpecError([f"{source or '<spec>'}: expected exactly one YAML document, found {len(docs)}"], source)
    return docs[0], source


def load_spec(path_or_text: str | Path | dict[str, Any], expect: type[R] | None = None) -> R | Resource:
    """Parse and validate a spec; dispatch on `kind`. Raises SpecError with one line per bad field.

    `path_or_text` is a path to a YAML file, YAML text, or an already-parsed dict. With `expect`, a spec of another
    kind is an error (`kernelgen bench run -f` given a TrainRun).
    """
    doc, source = _read(path_or_text)
    if not isinstance(doc, dict):
        raise SpecError([f"{source or '<spec>'}: expected a mapping with apiVersion, kind, metadata, spec"], source)
    kind = doc.get("kind")
    # isinstance first: a mapping or list as kind is unhashable, and `in KINDS` would raise TypeError.
    if not isinstance(kind, str) or kind not in KINDS:
        got = repr(kind) if isinstance(kind, (str, int, float, bool)) or kind is None else type(kind).__name__
        raise SpecError([f"kind: must be one of {', '.join(KINDS)} (got {got})"], source)
    model: type[Resource] = KINDS[kind]
    if expect is not None and model is not expect:
        raise SpecError([f"kind: expected {expect.kind_name} (got {kind})"], source)
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        raise SpecError(format_validation_errors(e, model), source) from e


def validate_model(model: type[BaseModel], data: Any) -> BaseModel:
    """Validate data against one model, raising SpecError (for sub-objects, e.g. CLI flags)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise SpecError(format_validation_errors(e, model)) from e
