"""Turning pydantic validation errors into one line per bad field: `<path>: <what is wrong / allowed>`."""

from __future__ import annotations

import json
import re
import typing
from typing import Any

from pydantic import BaseModel, ValidationError


class SpecError(Exception):
    """A spec that cannot be used. `errors` holds one line per bad field; str() joins them."""

    def __init__(self, errors: list[str], source: str | None = None):
        self.errors = list(errors)
        self.source = source
        super().__init__("\n".join(self.errors))


_PLAIN_KEY = re.compile(r"^[A-Za-z_$][\w$-]*$")


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(str(part)):
            out += ("." if out else "") + str(part)
        else:  # a key such as "0", "a b" or "x:y" (unknown fields, map keys): quoted, so the path stays readable
            out += f"[{json.dumps(str(part))}]"
    return out or "<root>"


def _model_at(root: type[BaseModel] | None, loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that owns the object at loc (following aliases, list and dict items), if any."""
    model: Any = root
    for part in loc:
        if model is None:
            return None
        if isinstance(part, int) or not (isinstance(model, type) and issubclass(model, BaseModel)):
            model = _unwrap(model, part)
            continue
        field = next(
            (f for name, f in model.model_fields.items() if part in (name, f.alias)), None
        )
        if field is None:
            return None
        model = _unwrap(field.annotation, None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _unwrap(tp: Any, part: Any) -> Any:
    """Strip Optional/list/dict/Annotated down to a model class where there is one."""
    for _ in range(6):
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp
        args = typing.get_args(tp)
        if not args:
            return tp
        origin = typing.get_origin(tp)
        if origin in (list, tuple, set):
            tp = args[0]
        elif origin is dict:
            tp = args[1]
        else:  # Union / Annotated: take the first model-like argument
            models = [a for a in args if a is not type(None)]
            tp = models[0] if models else None
    return tp


def _allowed_fields(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def format_validation_errors(exc: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    """One line per bad field, e.g. `spec.evaluation.runTimeoutSeconds: must be >= 1 (got 0)`.

    `model` (the class that was validated) lets unknown-field errors list the allowed field names.
    """
    lines: list[str] = []
    seen: set[str] = set()
    for err in exc.errors(include_url=False):
        loc = tuple(err.get("loc", ()))
        ctx = err.get("ctx") or {}
        etype = err.get("type", "")
        if etype == "field_rule":
            loc = loc + (ctx["field"],)
            msg = ctx["message"]
        elif etype == "extra_forbidden":
            owner = _model_at(model, loc[:-1]) if model is not None else None
            msg = "unknown field"
            if owner is not None:
                msg += " (allowed: " + ", ".join(_allowed_fields(owner)) + ")"
        elif etype == "missing":
            msg = "required field is missing"
        else:
            msg = err.get("msg", "invalid")
            if "input" in err and etype not in ("model_type", "dict_type", "list_type") and _printable(err["input"]):
                msg += f" (got {err['input']!r})"
        path = _path(loc)
        # Unions report one error per branch; keep the first per field so each bad field gives one line.
        if path in seen:
            continue
        seen.add(path)
        lines.append(f"{path}: {msg}")
    return lines


def _printable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and len(repr(value)) <= 80
