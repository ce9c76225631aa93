#!/usr/bin/env bash
# Builds the operator and CPU job images here, without Docker or any registry:
#   1. a Debian bookworm root filesystem from Debian packages (mmdebstrap), imported as the local base image
#      (the stand-in for python:3.11-slim-bookworm: Debian's python3.11 + venv);
#   2. a wheelhouse of the images' Python sets, downloaded from PyPI once (images/<role>/requirements.txt is
#      `uv export` of uv.lock, hash-checked), so image builds install offline;
#   3. images/<role>/Dockerfile built with buildah (--build-arg PYTHON_IMAGE=<local base>, the wheelhouse mounted);
#   4. each image saved as an uncompressed docker-archive for `ctr images import` on the test node.
# Everything lives under ${KERNELGEN_CACHE:-~/.cache/kernelgen}/images (buildah storage, rootfs tarballs, wheels,
# archives). An image is tagged with a content key (base + Dockerfile + requirements + project sources), so a warm
# run only hashes files and finds the tag. The NPU image (CANN base) cannot be built here: no CANN base image.
# Also the test node's pod sandbox image (pause, from Kubernetes' pause.c).
# Usage: hack/images/build.sh [pause] [operator] [cpu]   (default: all); prints one line per image: <role> <ref> <archive>
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${KERNELGEN_CACHE:-$HOME/.cache/kernelgen}/images"
mkdir -p "$cache"/{storage,wheels,archives,tmp,base}
log() { printf '[images %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# One build at a time per cache (buildah storage is shared; tests may call this while make is building).
exec 8>"$cache/.lock"
if ! flock -n 8; then log "another build holds $cache/.lock; waiting"; flock 8; fi

for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null || { log "$tool missing: apt-get install mmdebstrap buildah (Debian packages)"; exit 3; }
done
export TMPDIR="$cache/tmp"
bah=(buildah --root "$cache/storage" --runroot "$cache/tmp/runroot" --storage-driver overlay)
nice_cmd=(nice -n 5)

# ------------------------------------------------------------------------------------------------ base
# Debian bookworm + its python3.11 (venv, ensurepip), CA certificates; docs and locales left out as in -slim.
SUITE=bookworm
# libpython3.11-dev: Python.h, which python:3.11-slim ships too (the simulator builds pybind11 bindings against it).
BASE_PACKAGES="python3,python3-venv,python-is-python3,libpython3.11-dev,ca-certificates"
base_key="$(printf '%s\n' "$SUITE" "$BASE_PACKAGES" "v1" | sha256sum | cut -c1-12)"
base_ref="localhost/kernelgen-base:$SUITE-$base_key"
if ! "${bah[@]}" inspect --type image "$base_ref" >/dev/null 2>&1; then
  tarball="$cache/base/$SUITE-$base_key.tar"
  if [[ ! -s "$tarball" ]]; then
    log "base: mmdebstrap $SUITE ($BASE_PACKAGES)"
    # System python3 for mmdebstrap's tar filter (a pyenv shim on PATH costs a second per package).
    PATH="/usr/sbin:/usr/bin:$PATH" "${nice_cmd[@]}" mmdebstrap --quiet --format=tar --variant=minbase --include="$BASE_PACKAGES" \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
      --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
      "$SUITE" "$tarball.part" \
      "deb http://deb.debian.org/debian $SUITE main" "deb http://deb.debian.org/debian $SUITE-updates main" \
      "deb http://deb.debian.org/debian-security $SUITE-security main"
    mv "$tarball.part" "$tarball"
  fi
  log "base: importing $tarball as $base_ref"
  ctr="$("${bah[@]}" from --quiet scratch)"
  "${bah[@]}" add --quiet "$ctr" "$tarball" / >/dev/null
  "${bah[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env LANG=C.UTF-8 \
    --cmd python3 "$ctr"
  "${bah[@]}" commit --quiet --rm "$ctr" "$base_ref" >/dev/null
fi

# -------------------------------------------------------------------------------------------- wheelhouse
# pip download (not uv): it writes plain wheel files that pip in the image installs with --no-index --find-links.
# The requirement files carry every wheel's hash, so a tampered or swapped wheel fails the image build.
wheels() {  # role
  local req="$repo/images/$1/requirements.txt" stamp
  stamp="$cache/wheels/.$1-$(sha256sum "$req" | cut -c1-16)"
  [[ -e "$stamp" ]] && return
  log "$1: downloading its wheels into $cache/wheels"
  # Every manylinux tag glibc 2.36 (bookworm) accepts: pip matches --platform tags literally.
  local plat=() m
  for m in $(seq 36 -1 17); do plat+=(--platform "manylinux_2_${m}_x86_64"); done
  plat+=(--platform manylinux2014_x86_64 --platform linux_x86_64)
  python3 -m pip download --quiet --no-cache-dir --disable-pip-version-check --no-deps --require-hashes \
    --only-binary=:all: \
    "${plat[@]}" --python-version 3.11 --implementation cp --abi cp311 --abi abi3 --abi none \
    -d "$cache/wheels" -r "$req"
  # The project's build backend (pyproject [build-system]) for the isolated build of the project itself.
  python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --python-version 3.11 \
    -d "$cache/wheels" "setuptools>=69" wheel
  touch "$stamp"
}

# ------------------------------------------------------------------------------------------------ images
sources_key() {  # role: what the image copies in, by content (tracked and untracked-but-not-ignored files)
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard -- pyproject.toml README.md jobs operator sim \
      "images/$1" | sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16
}

build() {  # role
  local role="$1" key ref archive t0
  key="$(printf '%s\n' "$base_key" "$(sources_key "$role")" | sha256sum | cut -c1-16)"
  ref="localhost/kernelgen-$role:$key"
  archive="$cache/archives/kernelgen-$role-$key.tar"
  if ! "${bah[@]}" inspect --type image "$ref" >/dev/null 2>&1; then
    wheels "$role"
    log "$role: buildah bud -> $ref"
    t0=$SECONDS
    # --network host: the CPU image's apt-get (g++) reaches deb.debian.org; pip installs offline from /wheels.
    (cd "$repo" && "${nice_cmd[@]}" "${bah[@]}" bud --quiet --layers --network host --isolation chroot \
        --volume "$cache/wheels:/wheels:ro" \
        --build-arg "PYTHON_IMAGE=$base_ref" --build-arg PIP_NO_INDEX=1 --build-arg PIP_FIND_LINKS=/wheels \
        -f "images/$role/Dockerfile" -t "$ref" . >/dev/null)
    log "$role: built in $((SECONDS - t0)) s"
    # Older tags of this role: their private layers go (the CPU image's venv is ~6 GB); layers shared with the new
    # image stay, and so does the layer cache of the lock's dependency set.
    local old
    for old in $("${bah[@]}" images --format '{{.Name}}:{{.Tag}}' | grep "^localhost/kernelgen-$role:" | grep -vxF "$ref"); do
      "${bah[@]}" rmi "$old" >/dev/null 2>&1 || true
    done
  fi
  if [[ ! -s "$archive" ]]; then
    rm -f "$cache/archives/kernelgen-$role-"*.tar  # one archive per role: the old ones are stale
    log "$role: saving $archive"
    "${bah[@]}" push --quiet --disable-compression "$ref" "docker-archive:$archive.part:$ref" >/dev/null
    mv "$archive.part" "$archive"
  fi
  echo "$role $ref $archive"
}

# The pod sandbox image of the test node's containerd: Kubernetes' own pause.c (from the release's module), static.
build_pause() {
  local version pause_src key ref archive dir ctr
  version="$(sed -n 's/^K8S_VERSION=//p' "$repo/hack/testenv/versions.env")"
  pause_src="$(go env GOMODCACHE)/k8s.io/kubernetes@$version/build/pause/linux/pause.c"
  [[ -f "$pause_src" ]] || (cd "$cache/tmp" && go mod download "k8s.io/kubernetes@$version" >/dev/null)
  key="$(sha256sum "$pause_src" | cut -c1-12)"
  ref="localhost/kernelgen-pause:$version-$key"
  archive="$cache/archives/kernelgen-pause-$key.tar"
  if [[ ! -s "$archive" ]]; then
    dir="$(mktemp -d "$cache/tmp/pause.XXXX")"
    gcc -Os -static -DVERSION="$version" -o "$dir/pause" "$pause_src"
    ctr="$("${bah[@]}" from --quiet scratch)"
    "${bah[@]}" copy --quiet "$ctr" "$dir/pause" /pause >/dev/null
    "${bah[@]}" config --entrypoint '["/pause"]' --user 65535:65535 "$ctr"
    "${bah[@]}" commit --quiet --rm "$ctr" "$ref" >/dev/null
    "${bah[@]}" push --quiet --disable-compression "$ref" "docker-archive:$archive.part:$ref" >/dev/null
    mv "$archive.part" "$archive"
    rm -rf "$dir"
  fi
  echo "pause $ref $archive"
}

roles=("$@")
[[ ${#roles[@]} -gt 0 ]] || roles=(pause operator cpu)
for r in "${roles[@]}"; do
  case "$r" in
    operator|cpu) build "$r" ;;
    pause) build_pause ;;
    npu) log "npu: not buildable here (its base is the CANN image quay.io/ascend/cann, unreachable)"; exit 3 ;;
    *) log "unknown image $r"; exit 2 ;;
  esac
done
