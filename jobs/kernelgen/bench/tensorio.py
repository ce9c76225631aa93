"""The one file format between the judge and the candidate runner: nested tensors/scalars, raw bytes, no pickle.

Layout: ``MAGIC`` (8 bytes), header length (8 bytes little-endian), a JSON header, then the tensors' raw bytes.
Header: ``{"tree": node, "blobs": [{"dtype", "shape", "offset", "nbytes"}], "meta": {...}}`` where a node is
``{"t": "tensor", "i": n}``, ``{"t": "list"|"tuple", "v": [...]}``, ``{"t": "dict", "k": [...], "v": [...]}``,
``{"t": "value", "v": <JSON value>}`` or, for a sparse COO tensor (task inputs such as CoalesceSparse's),
``{"t": "sparse_coo", "shape": [...], "i": <indices node>, "v": <values node>, "coalesced": bool}``.

Files the candidate runner writes are hostile: `read` opens them without following symlinks, accepts only a
regular file below a size cap, and validates every field (dtype from a fixed list, offsets and sizes inside the
file, element counts that match the shape) before a byte becomes a tensor.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import struct
from pathlib import Path
from typing import Any, Iterator

MAGIC = b"KGTIO1\0\0"
DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128", "int8", "uint8", "int16",
          "int32", "int64", "bool", "uint16", "uint32", "uint64")
MAX_DEPTH = 8


class BadFile(ValueError):
    """A file that is not a well-formed tensor file (what a broken or cheating candidate may leave)."""


def _node(x: Any, blobs: list) -> dict:
    import torch
    if isinstance(x, torch.Tensor) and x.layout == torch.sparse_coo:
        x = x.detach().cpu()
        return {"t": "sparse_coo", "shape": list(x.shape), "i": _node(x._indices(), blobs),
                "v": _node(x._values(), blobs), "coalesced": x.is_coalesced()}
    if isinstance(x, torch.Tensor):
        if x.layout != torch.strided:
            raise TypeError(f"cannot store a {x.layout} tensor in a tensor file")
        blobs.append(x.detach().cpu().contiguous())
        return {"t": "tensor", "i": len(blobs) - 1}
    if isinstance(x, (list, tuple)):
        return {"t": "list" if isinstance(x, list) else "tuple", "v": [_node(v, blobs) for v in x]}
    if isinstance(x, dict) and all(isinstance(k, str) for k in x):
        return {"t": "dict", "k": list(x), "v": [_node(v, blobs) for v in x.values()]}
    if x is None or isinstance(x, (bool, int, float, str)):
        return {"t": "value", "v": x}
    raise TypeError(f"cannot store a {type(x).__name__} in a tensor file")


def write(path: str | Path, tree: Any, meta: dict | None = None) -> None:
    import torch
    blobs: list = []
    root = _node(tree, blobs)
    specs, raws, offset = [], [], 0
    for t in blobs:   # written from the tensors' own memory: a copy of a multi-GB input costs as much as the case
        flat = t.reshape(-1).to(torch.uint8) if t.dtype == torch.bool else t.reshape(-1).view(torch.uint8)
        raw = memoryview(flat.numpy())
        specs.append({"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "offset": offset,
                      "nbytes": raw.nbytes})
        raws.append(raw)
        offset += raw.nbytes
    header = json.dumps({"tree": root, "blobs": specs, "meta": meta or {}}).encode()
    tmp = Path(f"{path}.part")
    with open(tmp, "wb") as f:
        f.write(MAGIC + struct.pack("<Q", len(header)) + header)
        for raw in raws:
            f.write(raw)
    os.replace(tmp, path)


@contextlib.contextmanager
def _open_checked(path: Path, max_bytes: int) -> Iterator[tuple[int, int]]:
    """(fd, size) of a file the candidate side may have written: opened without following symlinks, a regular file,
    at most `max_bytes`; closed on leaving."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        raise BadFile(f"{path.name}: cannot open ({e.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadFile(f"{path.name}: not a regular file")
        if st.st_size > max_bytes:
            raise BadFile(f"{path.name}: {st.st_size} bytes, more than the {max_bytes} allowed")
        yield fd, st.st_size
    finally:
        os.close(fd)


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    """The whole of a small file the candidate side wrote (status, log), with the same checks as `read`."""
    with _open_checked(path, max_bytes) as (fd, size):
        chunks, left = [], size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def _pread_into(fd: int, buf: memoryview, pos: int, name: str) -> None:
    """Fill `buf` from the file at `pos`; a short file (truncated under us) is a bad file."""
    done = 0
    while done < len(buf):
        got = os.preadv(fd, [buf[done:]], pos + done)
        if got <= 0:
            raise BadFile(f"{name}: truncated")
        done += got


def read(path: str | Path, max_bytes: int = 1 << 34) -> tuple[Any, dict]:
    """(tree, meta) of a tensor file; raises BadFile for anything malformed. Each tensor is read straight into its
    own memory (one copy from the file, no whole-file buffer)."""
    import torch
    name = Path(path).name
    with _open_checked(Path(path), max_bytes) as (fd, size):
        if size < 16:
            raise BadFile(f"{name}: not a tensor file")
        lead = bytearray(16)
        _pread_into(fd, memoryview(lead), 0, name)
        if lead[:8] != MAGIC:
            raise BadFile(f"{name}: not a tensor file")
        (hlen,) = struct.unpack("<Q", lead[8:16])
        if hlen > size - 16:
            raise BadFile(f"{name}: truncated header")
        head = bytearray(hlen)
        _pread_into(fd, memoryview(head), 16, name)
        try:
            header = json.loads(head)
            blobs, root, meta = header["blobs"], header["tree"], header.get("meta", {})
        except (ValueError, KeyError, TypeError) as e:
            raise BadFile(f"{name}: bad header ({e})") from None
        if not isinstance(blobs, list) or not isinstance(meta, dict):
            raise BadFile(f"{name}: bad header")
        body_start, body_len = 16 + hlen, size - 16 - hlen
        tensors = []
        for b in blobs:
            try:
                dtype, shape, off, n = str(b["dtype"]), [int(d) for d in b["shape"]], int(b["offset"]), int(b["nbytes"])
            except (KeyError, TypeError, ValueError):
                raise BadFile(f"{name}: bad tensor entry") from None
            if dtype not in DTYPES or any(d < 0 for d in shape) or len(shape) > 16:
                raise BadFile(f"{name}: bad tensor dtype/shape {dtype} {shape}")
            tdt = getattr(torch, dtype)
            numel = 1
            for d in shape:
                numel *= d
            item = 1 if tdt == torch.bool else torch.empty((), dtype=tdt).element_size()
            if n != numel * item or off < 0 or off + n > body_len:
                raise BadFile(f"{name}: tensor bytes do not match shape {shape} ({dtype})")
            t = torch.empty(numel, dtype=torch.uint8 if tdt == torch.bool else tdt)
            if n:
                _pread_into(fd, memoryview(t.view(torch.uint8).numpy()), body_start + off, name)
            tensors.append((t.to(torch.bool) if tdt == torch.bool else t).reshape(shape))

    def build(node: Any, depth: int) -> Any:
        if depth > MAX_DEPTH or not isinstance(node, dict):
            raise BadFile(f"{name}: bad tree")
        kind = node.get("t")
        if kind == "tensor":
            i = node.get("i")
            if not isinstance(i, int) or not 0 <= i < len(tensors):
                raise BadFile(f"{name}: bad tensor index")
            return tensors[i]
        if kind in ("list", "tuple") and isinstance(node.get("v"), list):
            items = [build(v, depth + 1) for v in node["v"]]
            return items if kind == "list" else tuple(items)
        if kind == "dict" and isinstance(node.get("k"), list) and isinstance(node.get("v"), list) \
                and len(node["k"]) == len(node["v"]) and all(isinstance(k, str) for k in node["k"]):
            return dict(zip(node["k"], (build(v, depth + 1) for v in node["v"])))
        if kind == "sparse_coo":
            return sparse(node, depth)
        if kind == "value" and (node.get("v") is None or isinstance(node.get("v"), (bool, int, float, str))):
            return node["v"]
        raise BadFile(f"{name}: bad tree node")

    def sparse(node: dict, depth: int) -> Any:
        idx, val, shape = build(node.get("i"), depth + 1), build(node.get("v"), depth + 1), node.get("shape")
        if not (isinstance(idx, torch.Tensor) and isinstance(val, torch.Tensor) and idx.dtype == torch.int64
                and idx.dim() == 2 and isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)):
            raise BadFile(f"{name}: bad sparse tensor")
        try:   # the invariants (indices inside the shape, matching counts) are checked: the bytes may be hostile
            t = torch.sparse_coo_tensor(idx, val, shape, check_invariants=True)
        except (RuntimeError, ValueError) as e:
            raise BadFile(f"{name}: bad sparse tensor ({e})") from None
        return t.coalesce() if node.get("coalesced") is True else t

    return build(root, 0), meta
