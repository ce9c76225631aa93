#!/usr/bin/env bash
# Builds the hermetic test cluster's binaries from the Go module proxy into a version-keyed cache outside the repo:
#   ${KERNELGEN_CACHE:-~/.cache/kernelgen}/testenv/<k8s-version>/bin/
#     kube-apiserver kube-controller-manager kube-scheduler kubectl   (wrapper module around k8s.io/kubernetes)
#     kubelet, ascend-device-plugin (the real node: hack/testenv/node.py; same wrapper module)
#     containerd, containerd-shim-runc-v2, ctr, runc (the real node's runtime; go install pkg@version)
#     etcd (wrapper module around go.etcd.io/etcd/server/v3), kwok, helm (go install pkg@version)
# Each binary is rebuilt only when its marker (.built-<name>-<version>) is missing, so a warm run takes seconds.
# Usage: hack/testenv/build.sh [--print-bin]
#   TESTENV_GO_PARALLEL (default 2) bounds concurrent compiles (go build -p); the first build takes 30-60 min on 2 cores.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"

cache_root="${KERNELGEN_CACHE:-$HOME/.cache/kernelgen}/testenv"
root="$cache_root/$K8S_VERSION"
bin="$root/bin"
src="$root/src"
if [[ "${1:-}" == "--print-bin" ]]; then echo "$bin"; exit 0; fi

mkdir -p "$bin" "$src"
log() { printf '[testenv-build %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# One build at a time per cache (make test may start while a background build is still going).
exec 9>"$root/.lock"
if ! flock -n 9; then log "another build holds $root/.lock; waiting"; flock 9; fi

export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
export GOFLAGS="-mod=mod -buildvcs=false -p=${TESTENV_GO_PARALLEL:-2}"
export CGO_ENABLED=0
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
nice_cmd=(nice -n 5)

have() { [[ -x "$bin/$1" && -e "$bin/.built-$1-$2" ]]; }
mark() { rm -f "$bin"/.built-"$1"-*; touch "$bin/.built-$1-$2"; }

# The version ldflags of hack/lib/version.sh (`kubectl version` reports the release); the module's time is the build date.
k8s_ldflags() {
  local major minor modtime ld="-s -w" pkg
  major="${K8S_VERSION#v}"; major="${major%%.*}"
  minor="$(cut -d. -f2 <<<"$K8S_VERSION")"
  modtime="$(cd "$src/kubernetes" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
    python3 -c 'import json,sys; print(json.load(open(json.load(sys.stdin)["Info"]))["Time"])')"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
    ld+=" -X $pkg.gitCommit=0000000000000000000000000000000000000000 -X $pkg.gitTreeState=clean -X $pkg.buildDate=$modtime"
  done
  echo "$ld"
}

build_kubernetes() {
  local names=(kube-apiserver kube-controller-manager kube-scheduler kubectl) n missing=0
  for n in "${names[@]}"; do have "$n" "$K8S_VERSION" || missing=1; done
  [[ $missing == 0 ]] && { log "kubernetes $K8S_VERSION: cached"; return; }
  log "kubernetes $K8S_VERSION: preparing wrapper module"
  local dir="$src/kubernetes" staging
  mkdir -p "$dir"
  staging="v0.${K8S_VERSION#v1.}"  # v1.36.3 -> v0.36.3
  local info gomod
  info="$(cd "$dir" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION")"
  gomod="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])' <<<"$info")"
  {
    echo "module kernelgen.local/testenv/kubernetes"
    echo
    # Same language version and GODEBUG defaults as the release itself.
    grep -E '^go [0-9.]+$' "$gomod"
    awk '/^godebug \(/{p=1} p{print} p&&/^\)/{p=0} /^godebug [^(]/{print}' "$gomod"
    echo
    echo "require k8s.io/kubernetes $K8S_VERSION"
    echo
    # Every staging module (replace k8s.io/X => ./staging/src/k8s.io/X upstream) pinned to the matching v0.Y.Z.
    grep -oE 'k8s\.io/[a-z0-9-]+ => \./staging/src/k8s\.io/[a-z0-9-]+' "$gomod" | awk -v v="$staging" '{print "replace " $1 " => " $1 " " v}'
  } >"$dir/go.mod"
  log "kubernetes: go.mod has $(grep -c '^replace' "$dir/go.mod") staging replaces"
  # Explicit @version: a bare package path means @upgrade and would move k8s.io/kubernetes to the newest release.
  (cd "$dir" && go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@$K8S_VERSION" \
      "k8s.io/kubernetes/cmd/kube-controller-manager@$K8S_VERSION" \
      "k8s.io/kubernetes/cmd/kube-scheduler@$K8S_VERSION" "k8s.io/kubernetes/cmd/kubectl@$K8S_VERSION")
  grep -q "k8s.io/kubernetes $K8S_VERSION" "$dir/go.mod" || { log "kubernetes: go get moved k8s.io/kubernetes off $K8S_VERSION"; exit 1; }
  log "kubernetes: compiling (GOFLAGS=$GOFLAGS)"
  (cd "$dir" && "${nice_cmd[@]}" go build -trimpath -ldflags "$(k8s_ldflags)" -o "$bin/" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
      k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)
  for n in "${names[@]}"; do mark "$n" "$K8S_VERSION"; done
  log "kubernetes: done ($("$bin/kube-apiserver" --version))"
}

# kubelet for the real node (hack/testenv/node.py), from the same wrapper module and version as the control plane.
build_kubelet() {
  have kubelet "$K8S_VERSION" && { log "kubelet $K8S_VERSION: cached"; return; }
  local dir="$src/kubernetes"
  [[ -f "$dir/go.mod" ]] || { log "kubelet: the wrapper module is missing (build_kubernetes makes it)"; exit 1; }
  (cd "$dir" && go get -tool "k8s.io/kubernetes/cmd/kubelet@$K8S_VERSION")
  grep -q "k8s.io/kubernetes $K8S_VERSION" "$dir/go.mod" || { log "kubelet: go get moved k8s.io/kubernetes off $K8S_VERSION"; exit 1; }
  log "kubelet: compiling (GOFLAGS=$GOFLAGS)"
  (cd "$dir" && "${nice_cmd[@]}" go build -trimpath -ldflags "$(k8s_ldflags)" -o "$bin/" k8s.io/kubernetes/cmd/kubelet)
  mark kubelet "$K8S_VERSION"
  log "kubelet: done ($("$bin/kubelet" --version))"
}

# The real node's device plugin (device-plugin/main.go), compiled in the wrapper module: the kubelet's own
# deviceplugin/v1beta1 API and grpc at the versions Kubernetes pins. Rebuilt when the source changes.
build_device_plugin() {
  local key
  key="$(sha256sum "$here/device-plugin/main.go" | cut -c1-12)"
  have ascend-device-plugin "$key" && { log "ascend-device-plugin $key: cached"; return; }
  local dir="$src/kubernetes"
  mkdir -p "$dir/cmd/ascend-device-plugin"
  cp "$here/device-plugin/main.go" "$dir/cmd/ascend-device-plugin/main.go"
  log "ascend-device-plugin: compiling"
  (cd "$dir" && "${nice_cmd[@]}" go build -trimpath -ldflags "-s -w" -o "$bin/ascend-device-plugin" ./cmd/ascend-device-plugin)
  mark ascend-device-plugin "$key"
}

build_etcd() {
  have etcd "$ETCD_VERSION" && { log "etcd $ETCD_VERSION: cached"; return; }
  local dir="$src/etcd"
  mkdir -p "$dir"
  # The server module's own replace lines (../api etc.) are ignored in a dependency; its siblings resolve from the proxy.
  [[ -f "$dir/go.mod" ]] || (cd "$dir" && go mod init kernelgen.local/testenv/etcd >/dev/null 2>&1)
  log "etcd $ETCD_VERSION: go get + build"
  (cd "$dir" && go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" && \
    "${nice_cmd[@]}" go build -trimpath -ldflags "-s -w" -o "$bin/etcd" go.etcd.io/etcd/server/v3)
  mark etcd "$ETCD_VERSION"
  log "etcd: done ($("$bin/etcd" --version | head -1))"
}

# The real node's runtime: containerd (+ its runc shim and ctr) and runc, from the Go module proxy. runc needs cgo
# (its nsenter is C) and libseccomp (Debian libseccomp-dev) for the runtime-default seccomp profile.
build_runtime() {
  local ctrd=github.com/containerd/containerd/v2
  if ! have containerd "$CONTAINERD_VERSION"; then
    log "containerd $CONTAINERD_VERSION: go install"
    GOFLAGS="${GOFLAGS/-mod=mod /}" GOBIN="$bin" "${nice_cmd[@]}" go install -trimpath -tags "no_btrfs no_devmapper no_zfs" \
      -ldflags "-s -w -X $ctrd/version.Version=$CONTAINERD_VERSION" "$ctrd/cmd/containerd@$CONTAINERD_VERSION" \
      "$ctrd/cmd/containerd-shim-runc-v2@$CONTAINERD_VERSION" "$ctrd/cmd/ctr@$CONTAINERD_VERSION"
    mark containerd "$CONTAINERD_VERSION"
  fi
  if ! have runc "$RUNC_VERSION"; then
    pkg-config --exists libseccomp || { log "runc: libseccomp missing (Debian libseccomp-dev; bash hack/images/install.sh)"; exit 3; }
    log "runc $RUNC_VERSION: go install (cgo, seccomp)"
    GOFLAGS="${GOFLAGS/-mod=mod /}" CGO_ENABLED=1 GOBIN="$bin" "${nice_cmd[@]}" go install -trimpath -tags seccomp \
      -ldflags "-s -w -X main.version=${RUNC_VERSION#v}" "github.com/opencontainers/runc@$RUNC_VERSION"
    mark runc "$RUNC_VERSION"
  fi
}

go_install() {  # name version package
  have "$1" "$2" && { log "$1 $2: cached"; return; }
  log "$1 $2: go install $3@$2"
  GOFLAGS="${GOFLAGS/-mod=mod /}" GOBIN="$bin" "${nice_cmd[@]}" go install -trimpath -ldflags "${4:-} -s -w" "$3@$2"
  mark "$1" "$2"
}

build_kubernetes
build_kubelet
build_device_plugin
build_etcd
build_runtime
go_install kwok "$KWOK_VERSION" sigs.k8s.io/kwok/cmd/kwok "-X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_VERSION"
go_install helm "$HELM_VERSION" helm.sh/helm/v3/cmd/helm \
  "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
log "all binaries in $bin"
echo "$bin"
