"""Read a candidate's OpDef from its op_host source, give the op a unique per-candidate name, and describe it as
the op-description JSON that `msopgen gen -i` takes.

The OpDef is read by parsing (never by running candidate code on the harness): the `this->Input("x")
.ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ...}).Format({ge::FORMAT_ND, ...})` chains, `Output(...)` likewise,
and `Attr("name").AttrType(OPTIONAL).Float(1.0)` style attributes.

Unique naming: every candidate builds op type `<Op>Kg<tag>` (kernel `<kernel>_kg<tag>`; the tag is 10 hash
digits written as letters), so two candidates
never share a kernel binary, an aclnn symbol or a vendor directory, and no built-in aclnn op can have that name.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

# ge::DataType spelling -> msopgen type name
GE_TO_MSOPGEN = {
    "DT_FLOAT": "float", "DT_FLOAT16": "float16", "DT_BF16": "bfloat16", "DT_INT8": "int8", "DT_INT16": "int16",
    "DT_INT32": "int32", "DT_INT64": "int64", "DT_UINT8": "uint8", "DT_UINT16": "uint16", "DT_UINT32": "uint32",
    "DT_UINT64": "uint64", "DT_BOOL": "bool", "DT_DOUBLE": "double", "DT_COMPLEX64": "complex64",
}
_PORT = re.compile(r"\b(Input|Output)\s*\(\s*\"(\w+)\"\s*\)((?:\s*\.\s*\w+\s*\((?:[^()]|\([^()]*\))*\))*)")
_CALL = re.compile(r"\.\s*(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)")
_ATTR = re.compile(r"\bAttr\s*\(\s*\"(\w+)\"\s*\)((?:\s*\.\s*\w+\s*\((?:[^()]|\([^()]*\))*\))*)")
_ATTR_TYPES = {"Int": "int", "Float": "float", "Bool": "bool", "String": "string", "ListInt": "listInt",
               "ListFloat": "listFloat", "ListBool": "listBool"}


class OpDefError(ValueError):
    """The host source defines no usable OpDef for the task's op."""


@dataclass
class Port:
    name: str
    param_type: str            # required | optional | dynamic
    dtypes: list[str]          # msopgen names
    formats: list[str]         # ND, NCHW, ...


@dataclass
class OpDesc:
    op_type: str
    inputs: list[Port] = field(default_factory=list)
    outputs: list[Port] = field(default_factory=list)
    attrs: list[dict] = field(default_factory=list)

    def msopgen_json(self) -> str:
        """The op description file for `msopgen gen -i <file> -lan cpp` (one op, a JSON list)."""
        def port(p: Port) -> dict:
            return {"name": p.name, "param_type": p.param_type, "format": p.formats, "type": p.dtypes}
        op = {"op": self.op_type, "language": "cpp", "input_desc": [port(p) for p in self.inputs],
              "output_desc": [port(p) for p in self.outputs]}
        if self.attrs:
            op["attr"] = self.attrs
        return json.dumps([op], indent=2)


def _class_body(text: str, op: str) -> str:
    m = re.search(rf"class\s+{re.escape(op)}\s*:\s*public\s+(?:ops::)?OpDef\s*\{{", text)
    if not m:
        raise OpDefError(f"no `class {op} : public OpDef` in the op_host source")
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[m.end():i]


def _resolve(arg: str, body: str) -> str:
    """A DataType/Format argument given as a local vector variable -> that variable's initialiser list."""
    name = arg.strip()
    if re.fullmatch(r"\w+", name):
        m = re.search(rf"\b{name}\s*(?:=\s*)?\{{([^}}]*)\}}", body)
        return m.group(1) if m else ""
    return arg


def parse_opdef(host: str | dict[str, str], op: str) -> OpDesc:
    """The OpDef of `op` from one host source, or from whichever op_host file (relpath -> text) defines it."""
    texts = [host] if isinstance(host, str) else list(host.values())
    found = [t for t in texts if re.search(rf"class\s+{re.escape(op)}\s*:\s*public\s+(?:ops::)?OpDef\b", t)]
    body = _class_body(found[0] if found else texts[0] if texts else "", op)
    desc = OpDesc(op_type=op)
    for kind, name, chain in _PORT.findall(body):
        calls = {c: a for c, a in _CALL.findall(chain)}
        dtypes = [GE_TO_MSOPGEN.get(d, d.lower().removeprefix("dt_"))
                  for d in re.findall(r"ge::(DT_\w+)", _resolve(calls.get("DataType", ""), body))]
        formats = re.findall(r"ge::FORMAT_(\w+)", _resolve(calls.get("Format", ""), body))
        if len(formats) != len(dtypes):   # a size-constructed format vector: one ND per dtype
            formats = [formats[0] if formats else "ND"] * len(dtypes)
        ptype = (re.search(r"(REQUIRED|OPTIONAL|DYNAMIC)", calls.get("ParamType", "REQUIRED")) or ["", "REQUIRED"])[1]
        if not dtypes:
            raise OpDefError(f"{kind}(\"{name}\") of {op} declares no DataType")
        (desc.inputs if kind == "Input" else desc.outputs).append(Port(name, ptype.lower(), dtypes, formats))
    for name, chain in _ATTR.findall(body):
        calls = _CALL.findall(chain)
        attr = {"name": name, "param_type": "optional"}
        for c, a in calls:
            if c == "AttrType":
                attr["param_type"] = "required" if "REQUIRED" in a else "optional"
            elif c in _ATTR_TYPES:
                attr["type"] = _ATTR_TYPES[c]
                if a.strip():
                    attr["default_value"] = a.strip().strip('"').rstrip("fF") if c == "Float" else a.strip().strip('"')
        desc.attrs.append(attr)
    if not desc.outputs:
        raise OpDefError(f"OpDef {op} declares no Output")
    return desc


def snake(op_type: str) -> str:
    """CamelCase op type -> the snake_case kernel name msopgen derives from it."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])|(?<=[A-Z])([A-Z])(?=[a-z])", r"_\1\2", op_type).lower()


_LETTERS = str.maketrans("0123456789", "ghijklmnop")


def unique_names(op: str, kernel: str, content_sha256: str) -> tuple[str, str]:
    """Letters only after `Kg` (hex digits mapped to g..p), so the CamelCase -> snake_case conversion the op
    project applies has no digit boundaries to guess about."""
    tag = content_sha256[:10].lower().translate(_LETTERS)
    return f"{op}Kg{tag}", f"{kernel}_kg{tag}"


def rename_host(text: str, op: str, new_op: str) -> str:
    """Every whole-word use of the op type in host code (class, constructor, OP_ADD, REGISTER_TILING_DATA_CLASS)."""
    return re.sub(rf"\b{re.escape(op)}\b", new_op, text)


_ENTRY = r'(\b(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+){name}(\s*\()'


def rename_kernel_entry(text: str, kernel: str, new_kernel: str) -> str:
    out, n = re.subn(_ENTRY.format(name=re.escape(kernel)), rf"\g<1>{new_kernel}\g<2>", text)
    if n == 0:
        raise OpDefError(f"kernel entry `__global__ __aicore__ void {kernel}(...)` not found")
    return out
