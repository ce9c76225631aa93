"""A Store over an S3 prefix (AWS or any S3-compatible server), with boto3.

Configuration, first found wins for each setting:
- endpoint: the explicit argument (spec.output.endpoint), KERNELGEN_S3_ENDPOINT, AWS_ENDPOINT_URL_S3,
  AWS_ENDPOINT_URL, else AWS itself;
- region: the explicit argument, AWS_REGION, AWS_DEFAULT_REGION, else us-east-1;
- credentials: a mounted secret directory (KERNELGEN_S3_SECRET_DIR, or the argument; files named
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and optionally AWS_SESSION_TOKEN, as a Kubernetes Secret volume lays
  them out), else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else boto3's own chain (config
  files, instance roles).
A custom endpoint uses path-style addressing, which S3-compatible servers expect.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernelgen.storage.base import Store, StoreError, clean_key

SECRET_KEYS = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")
DEFAULT_CACHE = Path(os.environ.get("KERNELGEN_CACHE", Path.home() / ".cache" / "kernelgen")) / "s3"
SYNC_STATE = ".kernelgen-sync.json"


@dataclass(frozen=True)
class S3Config:
    endpoint: str | None = None
    region: str | None = None
    access_key: str | None = None
    secret_key: str | None = None
    session_token: str | None = None
    max_attempts: int = 5

    @classmethod
    def resolve(
        cls, endpoint: str | None = None, region: str | None = None, secret_dir: str | Path | None = None
    ) -> S3Config:
        env = os.environ
        endpoint = (
            endpoint
            or env.get("KERNELGEN_S3_ENDPOINT")
            or env.get("AWS_ENDPOINT_URL_S3")
            or env.get("AWS_ENDPOINT_URL")
            or None
        )
        region = region or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1"
        creds: dict[str, str] = {}
        secret_dir = secret_dir or env.get("KERNELGEN_S3_SECRET_DIR")
        if secret_dir:
            for name in SECRET_KEYS:
                f = Path(secret_dir) / name
                if f.is_file():
                    creds[name] = f.read_text(encoding="utf-8").strip()
            if "AWS_ACCESS_KEY_ID" not in creds or "AWS_SECRET_ACCESS_KEY" not in creds:
                raise StoreError(
                    f"S3 secret directory {secret_dir} must contain AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                )
        elif env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY"):
            # Read here rather than left to boto3 so that they are part of the (cached) client's identity.
            creds = {k: env[k] for k in SECRET_KEYS if env.get(k)}
        return cls(
            endpoint=endpoint,
            region=region,
            access_key=creds.get("AWS_ACCESS_KEY_ID"),
            secret_key=creds.get("AWS_SECRET_ACCESS_KEY"),
            session_token=creds.get("AWS_SESSION_TOKEN"),
        )

    def client(self) -> Any:
        """A boto3 S3 client (cached per configuration: creating one takes a noticeable fraction of a second)."""
        return _client(self)


@functools.lru_cache(maxsize=32)
def _client(self: S3Config) -> Any:
    import boto3
    from botocore.config import Config

    cfg = Config(
        retries={"max_attempts": self.max_attempts, "mode": "standard"},
        s3={"addressing_style": "path" if self.endpoint else "auto"},
        # Our own servers and S3-compatible ones may not speak the newer default checksum headers.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    return boto3.session.Session().client(
        "s3",
        endpoint_url=self.endpoint,
        region_name=self.region,
        aws_access_key_id=self.access_key,
        aws_secret_access_key=self.secret_key,
        aws_session_token=self.session_token,
        config=cfg,
    )


def parse_s3_uri(uri: str) -> tuple[str, str]:
    """s3://bucket/some/prefix -> ("bucket", "some/prefix")."""
    if not uri.startswith("s3://"):
        raise StoreError(f"not an s3:// URI: {uri!r}")
    rest = uri[len("s3://") :]
    bucket, _, prefix = rest.partition("/")
    if not bucket:
        raise StoreError(f"s3 URI has no bucket: {uri!r}")
    return bucket, clean_key(prefix)


def _is_not_found(e: Exception) -> bool:
    code = getattr(e, "response", {}).get("Error", {}).get("Code", "")
    return code in ("404", "NoSuchKey", "NotFound")


class S3Store(Store):
    def __init__(self, uri: str, config: S3Config | None = None, client: Any = None):
        self.bucket, self.prefix = parse_s3_uri(uri)
        self.config = config or S3Config.resolve()
        self._client = client
        self.uri = f"s3://{self.bucket}" + (f"/{self.prefix}" if self.prefix else "")

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self.config.client()
        return self._client

    def _key(self, key: str) -> str:
        key = clean_key(key)
        return f"{self.prefix}/{key}" if self.prefix and key else (self.prefix or key)

    def _rel(self, full: str) -> str:
        return full[len(self.prefix) + 1 :] if self.prefix else full

    def _wrap(self, what: str, key: str, e: Exception) -> StoreError:
        if _is_not_found(e):
            return StoreError(f"not found: {self.url(key)}")
        return StoreError(f"S3 {what} {self.url(key)} failed: {e}")

    def read_bytes(self, key: str) -> bytes:
        try:
            return self.client.get_object(Bucket=self.bucket, Key=self._key(key))["Body"].read()
        except Exception as e:  # noqa: BLE001 - botocore raises many types
            raise self._wrap("get", key, e) from e

    def write_bytes(self, key: str, data: bytes) -> None:
        try:
            self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)
        except Exception as e:  # noqa: BLE001
            raise self._wrap("put", key, e) from e

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(key))
            return True
        except Exception as e:  # noqa: BLE001
            if _is_not_found(e):
                return False
            raise self._wrap("head", key, e) from e

    def _objects(self, prefix: str = "", directory: bool = False) -> list[dict[str, Any]]:
        """Objects whose key starts with prefix (a string prefix, as S3 lists), or lie under it as a directory."""
        full = self._key(prefix)
        if full and (directory or not clean_key(prefix) or str(prefix).endswith("/")):
            full += "/"
        out = []
        try:
            for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=full):
                out.extend(page.get("Contents", []))
        except Exception as e:  # noqa: BLE001
            raise self._wrap("list", prefix, e) from e
        return [o for o in out if not o["Key"].endswith("/")]

    def list(self, prefix: str = "") -> list[str]:
        return sorted(self._rel(o["Key"]) for o in self._objects(prefix))

    def delete(self, key: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self._key(key))
        except Exception as e:  # noqa: BLE001
            if not _is_not_found(e):
                raise self._wrap("delete", key, e) from e

    def upload_file(self, key: str, path: str | Path) -> None:
        # upload_file switches to multipart for large files; a multipart object appears only when complete.
        try:
            self.client.upload_file(str(path), self.bucket, self._key(key))
        except Exception as e:  # noqa: BLE001
            raise self._wrap("upload", key, e) from e

    def download_file(self, key: str, path: str | Path) -> Path:
        dest = Path(path)
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=dest.parent)
        os.close(fd)
        try:
            self.client.download_file(self.bucket, self._key(key), tmp)
            os.replace(tmp, dest)
        except Exception as e:  # noqa: BLE001
            Path(tmp).unlink(missing_ok=True)
            raise self._wrap("download", key, e) from e
        return dest

    def child(self, prefix: str) -> S3Store:
        return S3Store(self.url(prefix), self.config, self._client)

    def local_dir(self, prefix: str = "", cache_dir: str | Path | None = None) -> Path:
        """Sync everything under prefix into cache_dir (default ~/.cache/kernelgen/s3/<bucket>/<key>), fetching only
        objects whose ETag changed since the last sync, and removing local files deleted upstream."""
        prefix = clean_key(prefix)
        dest = Path(cache_dir) if cache_dir else DEFAULT_CACHE / self.bucket / self._key(prefix)
        dest.mkdir(parents=True, exist_ok=True)
        state_file = dest / SYNC_STATE
        try:
            state: dict[str, str] = json.loads(state_file.read_text()) if state_file.is_file() else {}
        except ValueError:
            state = {}
        base = self._key(prefix)
        seen: dict[str, str] = {}
        for obj in self._objects(prefix, directory=True):
            rel = obj["Key"][len(base) :].lstrip("/") if base else obj["Key"]
            if not rel or rel == SYNC_STATE:
                continue
            etag = obj.get("ETag", "")
            seen[rel] = etag
            local = dest / clean_key(rel)
            if state.get(rel) == etag and local.is_file() and local.stat().st_size == obj.get("Size"):
                continue
            self.download_file(self._rel(obj["Key"]), local)
        for rel in set(state) - set(seen):
            (dest / rel).unlink(missing_ok=True)
        state_file.write_text(json.dumps(seen, indent=1, sort_keys=True))
        return dest
