"""A real node for the hermetic test cluster: kubelet + containerd + runc, and a device plugin for Ascend NPUs.

Next to kwok's stand-ins, this node runs containers for real: containerd 2 and runc, the kubelet built from the
control plane's Kubernetes release (all by hack/testenv/build.sh), the images built by hack/images/build.sh
imported into containerd's ``k8s.io`` namespace (no registry is reachable), and ``ascend-device-plugin`` advertising
``huawei.com/Ascend910`` over the kubelet's device-plugin gRPC API, so the real scheduler and kubelet place
NPU-requesting pods here (the device environment of k8s-design.md §2.4, stand-in device nodes, no NPU).

Networking: the node's address is a /32 on the loopback interface (``RealNode.ip``, from 198.18.0.0/15 where this
machine does not use it). Pods get their own network namespace on a CNI bridge (``kgbr0``, 10.244.0.0/24, no
masquerade, no kube-proxy): a pod reaches the node's address through the bridge's gateway, so job pods reach S3
listening on it, and nothing is routed beyond the machine. The operator pod uses ``hostNetwork`` (chart value ``operator.hostNetwork``): it reaches the API server on
127.0.0.1 (there is no Service routing). Own network namespaces are what lets evaluate pods be user-namespaced
(``hostUsers: false`` is invalid with ``hostNetwork``), and so run the jail as on a production node.
cgroups: whatever this machine mounts (cgroup v1 here), with the cgroupfs driver; the kubelet is told not to refuse
v1 (``failCgroupV1: false``).

Needs root (containerd, mounts, cgroups). ``RealNode.unavailable()`` says why a machine cannot run it, so tests skip
with that reason.
"""

from __future__ import annotations

import fcntl
import ipaddress
import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import yaml

NPU_RESOURCE = "huawei.com/Ascend910"
NODE_LABELS = {
    "accelerator": "huawei-Ascend910",
    "accelerator-type": "module-910b-8",
    "node.kubernetes.io/npu.chip.name": "910B3",
    "kernelgen.ai/real-node": "true",
}
# The kubelet refuses a loopback node IP: the node's address is a /32 added to the loopback interface, so traffic to
# it (the API server to the kubelet, probes, Prometheus to hostNetwork pods, pods to S3) stays on this machine. A
# local address hides the remote host of the same address, so it is taken from the range reserved for network
# benchmarks (RFC 2544), and only where this machine uses it for nothing: no address of its own, gateway, connected
# subnet or name server (sandboxes use documentation ranges: this VM's gateway is 192.0.2.1). Removed on stop.
NODE_IP_CANDIDATES = ("198.18.0.1", "198.18.128.1", "198.19.0.1", "198.19.128.1")
CNI_BIN_DIR = Path("/usr/lib/cni")
# The kubelet's device-plugin registration socket lives here whatever its --root-dir (pluginapi.KubeletSocket), so
# only one real node per machine can take device plugins.
DEVICE_PLUGIN_DIR = Path("/var/lib/kubelet/device-plugins")
# Built by hack/testenv/build.sh (Debian's containerd 1.6 and runc 1.1 cannot run user-namespaced pods).
RUNTIME_BINARIES = ("containerd", "containerd-shim-runc-v2", "ctr", "runc")
BRIDGE, POD_SUBNET = "kgbr0", "10.244.0.0/24"
# The device plugin's stand-in nodes (character devices 1:3, the null device's numbers) go into the host's /dev: in a
# user-namespaced pod runc bind-mounts each device from the host path equal to its container path. stop() removes
# only nodes with those numbers; the plugin refuses to start where a real device has one of the names.
DEVICE_DIR = Path("/dev")
STAND_IN_NAMES = ("davinci_manager", "devmm_svm", "hisi_hdc")


class NodeError(RuntimeError):
    pass


def _cache_root() -> Path:
    return Path(os.environ.get("KERNELGEN_CACHE", Path.home() / ".cache" / "kernelgen"))


def host_network(resolv_conf: Path = Path("/etc/resolv.conf")) -> tuple[list, set]:
    """(subnets, addresses) this machine uses: its interfaces' subnets and the routed ones, its addresses, route
    gateways and name servers. Loopback's own /32s (a node address of an earlier run) and the pods' bridge are not
    counted."""
    def ip_json(*args: str) -> list[dict]:
        return json.loads(subprocess.run(["ip", "-j", "-4", *args], capture_output=True, text=True,
                                         check=True).stdout or "[]")

    nets, addrs = [], set()
    for link in ip_json("addr", "show"):
        if link.get("ifname") in ("lo", BRIDGE):
            continue
        for a in link.get("addr_info", []):
            addrs.add(ipaddress.ip_address(a["local"]))
            nets.append(ipaddress.ip_network(f"{a['local']}/{a['prefixlen']}", strict=False))
    for r in ip_json("route", "show", "table", "main"):
        if r.get("dev") == BRIDGE:
            continue
        if r.get("dst") not in (None, "default"):
            nets.append(ipaddress.ip_network(r["dst"] if "/" in r["dst"] else f"{r['dst']}/32", strict=False))
        if r.get("gateway"):
            addrs.add(ipaddress.ip_address(r["gateway"]))
    for line in resolv_conf.read_text().splitlines() if resolv_conf.exists() else []:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "nameserver":
            try:
                addrs.add(ipaddress.ip_address(parts[1]))
            except ValueError:
                pass
    return nets, addrs


def pick_node_ip(used_nets: list, used: set) -> str:
    """The first candidate this machine does not use; NodeError if none is free or the pod subnet clashes."""
    pods = ipaddress.ip_network(POD_SUBNET)
    clash = sorted({str(n) for n in used_nets if n.overlaps(pods)})
    if clash:
        raise NodeError(f"the pod subnet {POD_SUBNET} overlaps this machine's network ({', '.join(clash)})")
    for c in map(ipaddress.ip_address, NODE_IP_CANDIDATES):
        if c not in used and not any(c in n for n in used_nets):
            return str(c)
    raise NodeError(f"every node address candidate ({', '.join(NODE_IP_CANDIDATES)}) is in use here")


class RealNode:
    """One kubelet node attached to a running ``TestCluster`` (``cluster.server``, its PKI and kubeconfigs)."""

    def __init__(self, cluster, name: str = "kernelgen-node-0", npus: int = 8, images: list[Path] = (),
                 sandbox_image: str = ""):
        self.cluster, self.name, self.npus = cluster, name, npus
        self.images, self.sandbox_image = [Path(p) for p in images], sandbox_image
        # User-namespaced containers (the evaluate pods) start as an unprivileged uid of the host, which must reach
        # their rootfs and volumes under this directory: so not under the cluster's workdir (pytest's are 0700), but
        # a directory of its own that others may traverse (0711), linked from the workdir as node/.
        self.dir = Path(tempfile.mkdtemp(prefix="kernelgen-node-", dir="/var/tmp"))
        self.dir.chmod(0o711)
        (cluster.workdir / "node").symlink_to(self.dir)
        self.state = self.dir / "state"          # containerd state, sockets, task bundles
        self.kubelet_root = self.dir / "kubelet"
        self.socket = self.state / "containerd.sock"
        self.logs = cluster.logs
        self._lock_fh = None
        self.containerd_root: Path | None = None
        self.ip: str | None = None   # the node's address, chosen on start

    # ------------------------------------------------------------------ prerequisites
    @staticmethod
    def unavailable(bin_dir: Path) -> str | None:
        """Why this machine cannot run the node (None: it can)."""
        if os.geteuid() != 0:
            return "the real node needs root (containerd, mounts, cgroups)"
        if shutil.which("ip") is None:
            return "ip (iproute2) not installed"
        if not (CNI_BIN_DIR / "bridge").exists():
            return "CNI plugins not installed (Debian package containernetworking-plugins)"
        for b in ("kubelet", "ascend-device-plugin", *RUNTIME_BINARIES):
            if not os.access(bin_dir / b, os.X_OK):
                return f"{b} not built in {bin_dir} (bash hack/testenv/build.sh)"
        if not Path("/sys/fs/cgroup/memory").is_dir() and not Path("/sys/fs/cgroup/cgroup.controllers").exists():
            return "no usable cgroup hierarchy under /sys/fs/cgroup"
        return None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "RealNode":
        for d in (self.state, self.kubelet_root, self.dir / "cni"):
            d.mkdir(parents=True, exist_ok=True)
        self.ip = self._add_node_ip()
        self.containerd_root = self._claim_containerd_root()
        self._start_containerd()
        self._cleanup_containers()
        self._import_images()
        self._start_kubelet()
        self._wait(f"the kubelet's {DEVICE_PLUGIN_DIR}/kubelet.sock",
                   lambda: (DEVICE_PLUGIN_DIR / "kubelet.sock").exists(), 120)
        self.cluster._start("ascend-device-plugin", [
            str(self.cluster.bin_dir / "ascend-device-plugin"),
            f"-plugin-dir={DEVICE_PLUGIN_DIR}", f"-dev-dir={DEVICE_DIR}",
            f"-resource={NPU_RESOURCE}", f"-count={self.npus}"])
        self._wait(f"node {self.name} Ready with {self.npus} {NPU_RESOURCE}", self._ready, 180)
        return self

    def _add_node_ip(self) -> str:
        ip = pick_node_ip(*host_network())
        cp = subprocess.run(["ip", "addr", "add", f"{ip}/32", "dev", "lo"], capture_output=True, text=True)
        if cp.returncode != 0 and "exists" not in cp.stderr:
            raise NodeError(f"cannot add {ip} to lo: {cp.stderr.strip()}")
        return ip

    def _claim_containerd_root(self) -> Path:
        """The shared, persistent containerd root (imported images survive runs) when no other node uses it; else
        a private one in the workdir (then images are imported again)."""
        shared = _cache_root() / "testenv" / "containerd"
        shared.mkdir(parents=True, exist_ok=True)
        fh = open(shared.parent / "containerd.lock", "w")  # noqa: SIM115 - held for the node's lifetime
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            return self.dir / "containerd-root"
        self._lock_fh = fh
        return shared

    def _runtime_binary(self) -> str:
        """runc, or a wrapper where this machine forbids a negative oom_score_adj even to root (this VM does): the
        kubelet asks -998 for every pod sandbox, and runc's init dies on the refused write. The wrapper clamps
        negative values in the bundle's config.json to 0 before runc reads it; nothing else changes."""
        runc = str(self.cluster.bin_dir / "runc")
        probe = subprocess.run(["sh", "-c", "echo -1 > /proc/self/oom_score_adj"], capture_output=True)
        if probe.returncode == 0:
            return runc
        wrapper = self.dir / "runc-clamp-oom"
        wrapper.write_text(f"""#!/bin/sh
prev=""
for a in "$@"; do
  if [ "$prev" = "--bundle" ]; then sed -i -E 's/"oomScoreAdj":-[0-9]+/"oomScoreAdj":0/' "$a/config.json"; fi
  prev="$a"
done
exec {runc} "$@"
""")
        wrapper.chmod(0o755)
        return str(wrapper)

    def _start_containerd(self) -> None:
        # isGateway: the bridge holds 10.244.0.1, the pods' default route, through which they reach the node's
        # address. The bridge plugin then turns on IPv4 forwarding; stop() puts back the value found here.
        self._ip_forward = Path("/proc/sys/net/ipv4/ip_forward").read_text().strip()
        cni = {"cniVersion": "1.0.0", "name": "kernelgen-pods", "plugins": [{
            "type": "bridge", "bridge": BRIDGE, "isGateway": True, "ipMasq": False,
            "ipam": {"type": "host-local", "ranges": [[{"subnet": POD_SUBNET}]], "routes": [{"dst": "0.0.0.0/0"}],
                     "dataDir": str(self.dir / "cni-ipam")}}]}
        (self.dir / "cni" / "10-kernelgen-pods.conflist").write_text(json.dumps(cni))
        cri = 'plugins."io.containerd.grpc.v1.cri"'
        config = f"""version = 2
root = "{self.containerd_root}"
state = "{self.state}"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs",
                    "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs",
                    "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]
[grpc]
  address = "{self.socket}"
[ttrpc]
  address = "{self.state}/containerd.ttrpc.sock"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "{self.containerd_root}/opt"
[{cri}]
  sandbox_image = "{self.sandbox_image}"
  enable_cdi = false
  [{cri}.containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [{cri}.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [{cri}.containerd.runtimes.runc.options]
        BinaryName = "{self._runtime_binary()}"
        SystemdCgroup = false
  [{cri}.cni]
    bin_dir = "{CNI_BIN_DIR}"
    conf_dir = "{self.dir / 'cni'}"
"""
        (self.dir / "containerd.toml").write_text(config)
        # containerd finds its shim (containerd-shim-runc-v2) on PATH.
        env = {**os.environ, "PATH": f"{self.cluster.bin_dir}:{os.environ.get('PATH', '')}"}
        self.cluster._start("containerd", [str(self.cluster.bin_dir / "containerd"), "--config",
                                           str(self.dir / "containerd.toml"), "--log-level", "warn"], env=env)
        self._wait("containerd", lambda: self.ctr("version", check=False).returncode == 0, 60)

    def ctr(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess:
        cp = subprocess.run([str(self.cluster.bin_dir / "ctr"), "--address", str(self.socket), "--namespace", "k8s.io", *args],
                            capture_output=True, text=True, timeout=timeout)
        if check and cp.returncode != 0:
            raise NodeError(f"ctr {' '.join(args)}: {cp.stderr.strip()}")
        return cp

    def _cleanup_containers(self) -> None:
        """Containers left in a persistent root by an earlier run that was killed (their pods are gone)."""
        for cid in self.ctr("tasks", "ls", "-q", check=False).stdout.split():
            self.ctr("tasks", "kill", "-s", "SIGKILL", cid, check=False)
            self.ctr("tasks", "delete", "-f", cid, check=False)
        ids = self.ctr("containers", "ls", "-q", check=False).stdout.split()
        if ids:
            self.ctr("containers", "delete", *ids, check=False)

    def _import_images(self) -> None:
        """docker-archives from hack/images/build.sh; an image already present (same content-keyed tag) is skipped."""
        have = set(self.ctr("images", "ls", "-q").stdout.split())
        wanted = set()
        for archive in self.images:
            ref = self._archive_ref(archive)
            wanted |= {ref, f"docker.io/{ref}"}
            if ref in have or f"docker.io/{ref}" in have:
                continue
            t0 = time.monotonic()
            self.ctr("images", "import", "--no-unpack=false", "--snapshotter", "overlayfs", str(archive), timeout=1800)
            print(f"[node] imported {ref} in {time.monotonic() - t0:.0f}s", flush=True)
        # Earlier builds of the same images (other content keys) in the persistent root: containerd's garbage
        # collector then frees the layers only they used (the CPU image's venv layer is ~6 GB, shared while the
        # lock does not change).
        stale = [r for r in have - wanted if r.removeprefix("docker.io/").startswith("localhost/kernelgen-")]
        if stale:
            self.ctr("images", "rm", *stale, check=False)

    @staticmethod
    def _archive_ref(archive: Path) -> str:
        import tarfile

        with tarfile.open(archive) as tf:
            manifest = json.load(tf.extractfile("manifest.json"))
        return manifest[0]["RepoTags"][0]

    def _start_kubelet(self) -> None:
        c = self.cluster
        free_port = c.free_port
        cfg = {
            "apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
            # This machine mounts cgroup v1; kubelet 1.35+ refuses v1 unless told otherwise.
            "failCgroupV1": False, "cgroupDriver": "cgroupfs",
            "containerRuntimeEndpoint": f"unix://{self.socket}",
            "address": self.ip, "port": free_port(), "readOnlyPort": 0,
            "healthzBindAddress": "127.0.0.1", "healthzPort": free_port(),
            # The API server reaches the kubelet (logs, exec) with a client certificate of the cluster's CA.
            "authentication": {"anonymous": {"enabled": False}, "webhook": {"enabled": False},
                               "x509": {"clientCAFile": str(c.pki / "ca.crt")}},
            "authorization": {"mode": "AlwaysAllow"},
            "clusterDomain": "cluster.local", "resolvConf": "/etc/resolv.conf",
            # No registry to pull from again: never garbage-collect the imported images.
            "imageGCHighThresholdPercent": 100, "imageGCLowThresholdPercent": 99,
            "evictionHard": {"memory.available": "100Mi", "nodefs.available": "1%", "imagefs.available": "1%",
                             "nodefs.inodesFree": "1%"},
            "failSwapOn": False, "maxPods": 30, "serializeImagePulls": False,
            "registerWithTaints": [{"key": NPU_RESOURCE, "effect": "NoSchedule"}],
            "nodeStatusUpdateFrequency": "5s", "syncFrequency": "10s",
            "volumeStatsAggPeriod": "0s", "shutdownGracePeriod": "0s",
            "podLogsDir": str(self.dir / "pod-logs"),  # not /var/log/pods: everything stays in the workdir
        }
        (self.dir / "kubelet.yaml").write_text(yaml.safe_dump(cfg))
        labels = ",".join(f"{k}={v}" for k, v in NODE_LABELS.items())
        c._start("kubelet", [
            str(c.bin_dir / "kubelet"), f"--config={self.dir / 'kubelet.yaml'}",
            f"--kubeconfig={c.workdir / 'kubelet.kubeconfig'}", f"--root-dir={self.kubelet_root}",
            f"--cert-dir={self.dir / 'kubelet-pki'}", f"--hostname-override={self.name}", f"--node-ip={self.ip}",
            f"--node-labels={labels}", "--v=1"])

    def _remove_stand_in_devices(self) -> None:
        for i in range(self.npus):
            self._remove_if_stand_in(DEVICE_DIR / f"davinci{i}")
        for name in STAND_IN_NAMES:
            self._remove_if_stand_in(DEVICE_DIR / name)

    @staticmethod
    def _remove_if_stand_in(path: Path) -> None:
        try:
            st = path.lstat()
        except FileNotFoundError:
            return
        if stat.S_ISCHR(st.st_mode) and (os.major(st.st_rdev), os.minor(st.st_rdev)) == (1, 3):
            path.unlink()

    def _ready(self) -> bool:
        node = json.loads(self.cluster.kubectl("get", "node", self.name, "-o", "json").stdout)
        ready = any(x["type"] == "Ready" and x["status"] == "True" for x in node["status"].get("conditions", []))
        return ready and node["status"].get("allocatable", {}).get(NPU_RESOURCE) == str(self.npus)

    def _wait(self, what: str, pred, timeout: float) -> None:
        self.cluster._wait(what, pred, timeout=timeout, interval=0.5)

    def stop(self) -> None:
        """The cluster stops the processes; what outlives them is cleaned here: containers (their shims are
        detached from containerd), then every mount under the node's directory, deepest first."""
        if self.socket.exists() and self.cluster.procs.get("containerd") and self.cluster.procs["containerd"].poll() is None:
            self._cleanup_containers()
        mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
        for m in sorted((m for m in mounts if m.startswith(str(self.dir))), key=len, reverse=True):
            subprocess.run(["umount", "-l", m], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", BRIDGE], capture_output=True, check=False)
        if self.ip:
            subprocess.run(["ip", "addr", "del", f"{self.ip}/32", "dev", "lo"], capture_output=True, check=False)
        self._remove_stand_in_devices()
        if getattr(self, "_ip_forward", None) is not None:
            Path("/proc/sys/net/ipv4/ip_forward").write_text(self._ip_forward)
        if self._lock_fh is not None:
            self._lock_fh.close()
            self._lock_fh = None
        shutil.rmtree(self.dir, ignore_errors=True)
