"""A real, single-node Kubernetes control plane on loopback, with kwok standing in for kubelets.

etcd, kube-apiserver (client-certificate authentication, RBAC authorization, service-account keys),
kube-controller-manager and kube-scheduler are the binaries built by ``hack/testenv/build.sh``; kwok moves
fake nodes and pods through their lifecycle with the stages of ``stages.yaml``. Nodes:

* ``ascend-<i>``: shaped like an Atlas 800T A2 server (arm64, 192 CPUs, 1.5 TiB, ``huawei.com/Ascend910: 8``),
  with the MindCluster labels of an 8-module 910B server and the taint ``huawei.com/Ascend910:NoSchedule``;
* ``cpu-<i>``: plain amd64 workers (64 CPUs, 256 GiB).

Every fake node also carries kwok's taint ``kwok.x-k8s.io/node=fake:NoSchedule``, so only workloads that
tolerate it (ours, configured to) land there.

Use from Python (``with TestCluster(workdir) as c: ...``) or from the shell (``hack/testenv/start.sh``).
Every process is started in its own process group with PR_SET_PDEATHSIG=SIGKILL, so nothing outlives the
process that started the cluster, even when it is killed; ``stop()`` terminates them explicitly.
"""

from __future__ import annotations

import argparse
import datetime as dt
import ipaddress
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
STAGES = HERE / "stages.yaml"

NPU_RESOURCE = "huawei.com/Ascend910"
FAKE_TAINT = {"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}
NPU_TAINT = {"key": NPU_RESOURCE, "effect": "NoSchedule"}
ASCEND_LABELS = {
    "accelerator": "huawei-Ascend910",
    "accelerator-type": "module-910b-8",
    "node.kubernetes.io/npu.chip.name": "910B3",
    "host-arch": "huawei-arm",
    "kubernetes.io/arch": "arm64",
    "kubernetes.io/os": "linux",
    "type": "kwok",
}
CPU_LABELS = {"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux", "type": "kwok",
              "node-role.kernelgen.ai/cpu": "true"}


REAL_NODE_NAME = "kernelgen-node-0"


def _node_module():
    """hack/testenv/node.py (imported by path: this module is itself loaded by path by its users)."""
    import importlib.util

    mod = sys.modules.get("kernelgen_testenv_node")
    if mod is None:
        spec = importlib.util.spec_from_file_location("kernelgen_testenv_node", HERE / "node.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["kernelgen_testenv_node"] = mod
        spec.loader.exec_module(mod)
    return mod


def read_versions() -> dict[str, str]:
    out = {}
    for line in (HERE / "versions.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def default_bin_dir() -> Path:
    cache = Path(os.environ.get("KERNELGEN_CACHE", Path.home() / ".cache" / "kernelgen"))
    return cache / "testenv" / read_versions()["K8S_VERSION"] / "bin"


REQUIRED_BINARIES = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kubectl")


def missing_binaries(bin_dir: Path | None = None) -> list[str]:
    bin_dir = bin_dir or default_bin_dir()
    return [b for b in REQUIRED_BINARIES if not os.access(bin_dir / b, os.X_OK)]


def operator_env(metrics_port: int = 0, timer_interval: float = 2.0) -> dict[str, str]:
    """Operator configuration (KERNELGEN_* variables) for this cluster: kwok's fake nodes carry the taint
    kwok.x-k8s.io/node=fake:NoSchedule, which real nodes don't, so the pods must tolerate it here."""
    fake = {"key": FAKE_TAINT["key"], "operator": "Exists", "effect": "NoSchedule"}
    npu = {"key": NPU_RESOURCE, "operator": "Exists", "effect": "NoSchedule"}
    return {
        "KERNELGEN_NPU_TOLERATIONS": json.dumps([npu, fake]),
        "KERNELGEN_CPU_TOLERATIONS": json.dumps([fake]),
        "KERNELGEN_TIMER_INTERVAL": str(timer_interval),
        "KERNELGEN_METRICS_PORT": str(metrics_port),
        "KERNELGEN_WATCH_TIMEOUT": "10",
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(cmd: list[str], log: Path, env: dict | None = None) -> subprocess.Popen:
    """Start a process that dies with us: its own session (so stop() can signal the whole group) and, through
    util-linux setpriv, PR_SET_PDEATHSIG=SIGKILL, so it is killed even when this process is (no preexec_fn, which
    is unsafe in a process with threads, such as pytest running KopfRunner)."""
    prefix = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
    with open(log, "ab") as fh:
        return subprocess.Popen(prefix + cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)


def terminate(proc: subprocess.Popen, grace: float = 10.0) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


# --------------------------------------------------------------------------------------------- PKI

def _pki(dirpath: Path, users: dict[str, tuple[str, list[str]]]) -> None:
    """CA, apiserver serving cert, one client cert per user (name -> (CN, [O...])), SA key pair."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)
    until = now + dt.timedelta(days=7)

    def key():
        return ec.generate_private_key(ec.SECP256R1())

    def write_key(k, name):
        (dirpath / name).write_bytes(k.private_bytes(serialization.Encoding.PEM,
                                                     serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption()))

    def write_cert(c, name):
        (dirpath / name).write_bytes(c.public_bytes(serialization.Encoding.PEM))

    ca_key = key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kernelgen-testenv-ca")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now).not_valid_after(until)
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    write_key(ca_key, "ca.key")
    write_cert(ca, "ca.crt")

    def leaf(name, cn, orgs, server=False):
        k = key()
        attrs = [x509.NameAttribute(NameOID.COMMON_NAME, cn)]
        attrs += [x509.NameAttribute(NameOID.ORGANIZATION_NAME, o) for o in orgs]
        b = (x509.CertificateBuilder().subject_name(x509.Name(attrs)).issuer_name(ca_name)
             .public_key(k.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now).not_valid_after(until)
             .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
             .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH if server
                                                   else ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False))
        if server:
            b = b.add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.DNSName("kubernetes"), x509.DNSName("kubernetes.default"),
                x509.DNSName("kubernetes.default.svc"), x509.DNSName("kubernetes.default.svc.cluster.local"),
                x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                x509.IPAddress(ipaddress.ip_address("10.0.0.1"))]), critical=False)
        write_key(k, f"{name}.key")
        write_cert(b.sign(ca_key, hashes.SHA256()), f"{name}.crt")

    leaf("apiserver", "kube-apiserver", [], server=True)
    for name, (cn, orgs) in users.items():
        leaf(name, cn, orgs)

    sa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    write_key(sa, "sa.key")
    (dirpath / "sa.pub").write_bytes(sa.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))


def _kubeconfig(path: Path, server: str, pki: Path, user: str) -> None:
    import yaml

    cfg = {
        "apiVersion": "v1", "kind": "Config", "current-context": "testenv",
        "clusters": [{"name": "testenv", "cluster": {"server": server,
                                                     "certificate-authority": str(pki / "ca.crt")}}],
        "users": [{"name": user, "user": {"client-certificate": str(pki / f"{user}.crt"),
                                          "client-key": str(pki / f"{user}.key")}}],
        "contexts": [{"name": "testenv", "context": {"cluster": "testenv", "user": user,
                                                     "namespace": "default"}}],
    }
    path.write_text(yaml.safe_dump(cfg))


# ------------------------------------------------------------------------------------------ cluster

class ClusterError(RuntimeError):
    pass


class TestCluster:
    __test__ = False  # not a pytest test class

    free_port = staticmethod(free_port)

    def __init__(self, workdir: Path | str | None = None, bin_dir: Path | None = None,
                 ascend_nodes: int = 2, cpu_nodes: int = 2, keep_workdir: bool = False,
                 real_node: bool = False, node_images: list[Path] = (), sandbox_image: str = ""):
        self.bin_dir = Path(bin_dir or default_bin_dir())
        self._own_workdir = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="kernelgen-testenv-"))
        self.keep_workdir = keep_workdir
        self.ascend_nodes, self.cpu_nodes = ascend_nodes, cpu_nodes
        self.procs: dict[str, subprocess.Popen] = {}
        self.pki = self.workdir / "pki"
        self.logs = self.workdir / "logs"
        self.kubeconfig = self.workdir / "admin.kubeconfig"
        self.server = ""
        # A real kubelet node (hack/testenv/node.py) next to kwok's, with these images imported into its containerd.
        self.real_node, self.node_images, self.sandbox_image = real_node, list(node_images), sandbox_image
        self.node = None

    # -- helpers
    def _bin(self, name: str) -> str:
        return str(self.bin_dir / name)

    def _start(self, name: str, cmd: list[str], env: dict | None = None) -> None:
        self.procs[name] = spawn(cmd, self.logs / f"{name}.log", env=env)

    def _check_alive(self) -> None:
        for name, p in self.procs.items():
            if p.poll() is not None:
                tail = (self.logs / f"{name}.log").read_text(errors="replace")[-3000:]
                raise ClusterError(f"{name} exited with {p.returncode}:\n{tail}")

    def _wait(self, what: str, pred, timeout: float = 90.0, interval: float = 0.25) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                if pred():
                    return
            except Exception:  # noqa: BLE001 - not up yet
                pass
            time.sleep(interval)
        raise ClusterError(f"timed out after {timeout:.0f}s waiting for {what}")

    def _https_ok(self, url: str, client: bool = True) -> bool:
        ctx = ssl.create_default_context(cafile=str(self.pki / "ca.crt")) if client else ssl._create_unverified_context()
        if client:
            ctx.load_cert_chain(str(self.pki / "admin.crt"), str(self.pki / "admin.key"))
        with urllib.request.urlopen(url, context=ctx, timeout=3) as r:  # noqa: S310 - loopback only
            return r.status == 200

    def env(self) -> dict[str, str]:
        e = dict(os.environ)
        e["KUBECONFIG"] = str(self.kubeconfig)
        e["PATH"] = f"{self.bin_dir}{os.pathsep}{e.get('PATH', '')}"
        return e

    def kubectl(self, *args: str, input: str | None = None, check: bool = True,
                timeout: float = 60) -> subprocess.CompletedProcess:
        cp = subprocess.run([self._bin("kubectl"), "--kubeconfig", str(self.kubeconfig), *args], input=input,
                            capture_output=True, text=True, timeout=timeout)
        if check and cp.returncode != 0:
            raise ClusterError(f"kubectl {' '.join(args)} failed ({cp.returncode}): {cp.stderr.strip()}")
        return cp

    # -- lifecycle
    def start(self) -> "TestCluster":
        missing = missing_binaries(self.bin_dir)
        if missing:
            raise ClusterError(f"missing binaries in {self.bin_dir}: {missing}; run hack/testenv/build.sh")
        for d in (self.pki, self.logs, self.workdir / "etcd"):
            d.mkdir(parents=True, exist_ok=True)
        try:
            self._start_all()
        except BaseException:
            self.stop()
            raise
        return self

    def _start_all(self) -> None:
        t0 = time.monotonic()
        users = {
            "admin": ("kubernetes-admin", ["system:masters"]),
            "controller-manager": ("system:kube-controller-manager", []),
            "scheduler": ("system:kube-scheduler", []),
            "kwok": ("kwok-controller", ["system:masters"]),
            # The real node's kubelet (Node authorizer identity) and the API server's client to kubelets.
            "kubelet": (f"system:node:{REAL_NODE_NAME}", ["system:nodes"]),
            "apiserver-kubelet-client": ("kube-apiserver-kubelet-client", []),
        }
        _pki(self.pki, users)
        etcd_port, peer_port, api_port, kcm_port, sched_port = (free_port() for _ in range(5))
        self.server = f"https://127.0.0.1:{api_port}"
        for user in users:
            _kubeconfig(self.workdir / f"{user}.kubeconfig", self.server, self.pki, user)
        p = self.pki

        etcd_url = f"http://127.0.0.1:{etcd_port}"
        peer_url = f"http://127.0.0.1:{peer_port}"
        self._start("etcd", [
            self._bin("etcd"), "--name=node0", f"--data-dir={self.workdir / 'etcd'}",
            f"--listen-client-urls={etcd_url}", f"--advertise-client-urls={etcd_url}",
            f"--listen-peer-urls={peer_url}", f"--initial-advertise-peer-urls={peer_url}",
            f"--initial-cluster=node0={peer_url}", "--unsafe-no-fsync", "--auto-compaction-retention=1",
            "--quota-backend-bytes=4294967296", "--log-level=warn"])
        self._wait("etcd", lambda: urllib.request.urlopen(f"{etcd_url}/health", timeout=2).status == 200)

        self._start("kube-apiserver", [
            self._bin("kube-apiserver"), f"--etcd-servers={etcd_url}",
            "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", f"--secure-port={api_port}",
            f"--tls-cert-file={p / 'apiserver.crt'}", f"--tls-private-key-file={p / 'apiserver.key'}",
            f"--client-ca-file={p / 'ca.crt'}",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            f"--service-account-key-file={p / 'sa.pub'}", f"--service-account-signing-key-file={p / 'sa.key'}",
            "--authorization-mode=Node,RBAC",
            f"--kubelet-client-certificate={p / 'apiserver-kubelet-client.crt'}",
            f"--kubelet-client-key={p / 'apiserver-kubelet-client.key'}",
            "--kubelet-preferred-address-types=InternalIP", "--service-cluster-ip-range=10.0.0.0/24", "--allow-privileged=true",
            # loopback advertise addresses are not valid endpoint IPs
            "--endpoint-reconciler-type=none",
            "--enable-priority-and-fairness=false", "--max-requests-inflight=0",
            "--max-mutating-requests-inflight=0", f"--cert-dir={p}", "--profiling=false"])
        self._wait("kube-apiserver /readyz", lambda: self._https_ok(f"{self.server}/readyz"), timeout=120)

        common = ["--leader-elect=false", "--bind-address=127.0.0.1",
                  "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics",
                  "--kube-api-qps=500", "--kube-api-burst=1000", "--profiling=false"]
        self._start("kube-controller-manager", [
            self._bin("kube-controller-manager"), f"--kubeconfig={self.workdir / 'controller-manager.kubeconfig'}",
            f"--authentication-kubeconfig={self.workdir / 'controller-manager.kubeconfig'}",
            f"--authorization-kubeconfig={self.workdir / 'controller-manager.kubeconfig'}",
            f"--secure-port={kcm_port}", f"--root-ca-file={p / 'ca.crt'}",
            f"--service-account-private-key-file={p / 'sa.key'}", "--use-service-account-credentials=true",
            "--concurrent-job-syncs=20", "--concurrent-gc-syncs=20", "--concurrent-ttl-after-finished-syncs=10",
            *common])
        self._start("kube-scheduler", [
            self._bin("kube-scheduler"), f"--kubeconfig={self.workdir / 'scheduler.kubeconfig'}",
            f"--authentication-kubeconfig={self.workdir / 'scheduler.kubeconfig'}",
            f"--authorization-kubeconfig={self.workdir / 'scheduler.kubeconfig'}",
            f"--secure-port={sched_port}", *common])
        self._start("kwok", [
            self._bin("kwok"), f"--kubeconfig={self.workdir / 'kwok.kubeconfig'}", f"--config={STAGES}",
            "--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
            "--node-ip=127.0.0.1", "--cidr=10.244.0.1/16", "--node-lease-duration-seconds=40"])

        self._wait("kube-controller-manager", lambda: self._https_ok(f"https://127.0.0.1:{kcm_port}/healthz", False))
        self._wait("kube-scheduler", lambda: self._https_ok(f"https://127.0.0.1:{sched_port}/healthz", False))
        self.create_nodes()
        self._wait("default service account",
                   lambda: self.kubectl("get", "serviceaccount", "default", check=False).returncode == 0)
        self._wait("nodes Ready", self._nodes_ready)
        if self.real_node:
            # Assigned before start(), so a failed start still cleans up what it began (containers, mounts).
            self.node = _node_module().RealNode(self, REAL_NODE_NAME, images=self.node_images,
                                                sandbox_image=self.sandbox_image)
            self.node.start()
        self.startup_seconds = time.monotonic() - t0

    def _nodes_ready(self) -> bool:
        out = json.loads(self.kubectl("get", "nodes", "-o", "json").stdout)
        ready = [n for n in out["items"] if n["metadata"].get("annotations", {}).get("kwok.x-k8s.io/node") == "fake"
                 and any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"].get("conditions", []))]
        return len(ready) == self.ascend_nodes + self.cpu_nodes

    def node_manifests(self) -> list[dict]:
        nodes = []
        for i in range(self.ascend_nodes):
            nodes.append(self._node(f"ascend-{i}", ASCEND_LABELS, [FAKE_TAINT, NPU_TAINT],
                                    {"cpu": "192", "memory": "1536Gi", "pods": "110", NPU_RESOURCE: "8"}, "arm64"))
        for i in range(self.cpu_nodes):
            nodes.append(self._node(f"cpu-{i}", CPU_LABELS, [FAKE_TAINT],
                                    {"cpu": "64", "memory": "256Gi", "pods": "110"}, "amd64"))
        return nodes

    @staticmethod
    def _node(name, labels, taints, capacity, arch) -> dict:
        return {
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
                         "labels": {**labels, "kubernetes.io/hostname": name}},
            "spec": {"taints": taints},
            "status": {"capacity": capacity, "allocatable": capacity,
                       "nodeInfo": {"architecture": arch, "operatingSystem": "linux", "machineID": name,
                                    "systemUUID": name, "bootID": "", "kernelVersion": "kwok",
                                    "osImage": "kwok", "containerRuntimeVersion": "kwok", "kubeletVersion": "kwok",
                                    "kubeProxyVersion": "kwok"}},
        }

    def create_nodes(self) -> None:
        docs = {"apiVersion": "v1", "kind": "List", "items": self.node_manifests()}
        self.kubectl("apply", "-f", "-", input=json.dumps(docs))

    def stop(self) -> None:
        # The real node first: its containers outlive containerd (detached shims), so they go while it still runs.
        if self.node is not None:
            for name in ("ascend-device-plugin", "kubelet"):
                if name in self.procs:
                    terminate(self.procs.pop(name))
            self.node.stop()
            self.node = None
        # Reverse start order: clients first, etcd last.
        for name in reversed(list(self.procs)):
            terminate(self.procs[name])
        self.procs.clear()
        if self._own_workdir and not self.keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> "TestCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Start the hermetic test cluster; Ctrl-C (or SIGTERM) tears it down.")
    ap.add_argument("--workdir", type=Path, help="state directory (default: a fresh temporary one, removed at exit)")
    ap.add_argument("--ascend-nodes", type=int, default=2)
    ap.add_argument("--cpu-nodes", type=int, default=2)
    ap.add_argument("--bin-dir", type=Path, default=None)
    ap.add_argument("--real-node", action="store_true",
                    help="also a real kubelet node with the images of hack/images/build.sh (needs root)")
    args = ap.parse_args(argv)
    images: dict[str, tuple[str, str]] = {}
    if args.real_node:
        out = subprocess.run(["bash", str(HERE.parent / "images" / "build.sh")], check=True, capture_output=True,
                             text=True).stdout
        images = {role: (ref, archive) for role, ref, archive in (line.split() for line in out.splitlines())}
    cluster = TestCluster(args.workdir, args.bin_dir, args.ascend_nodes, args.cpu_nodes,
                          keep_workdir=args.workdir is not None, real_node=args.real_node,
                          node_images=[Path(a) for _, a in images.values()],
                          sandbox_image=images.get("pause", ("", ""))[0])
    stop = {"now": False}

    def on_signal(*_):
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    env_file = cluster.workdir / "env.sh"
    env_file.unlink(missing_ok=True)  # a stale one from an earlier cluster in the same workdir
    try:
        cluster.start()
        env_file.write_text(shell_env(cluster))
        print(f"cluster up in {cluster.startup_seconds:.1f}s; in another shell: source {env_file}", flush=True)
        print(env_file.read_text(), end="", flush=True)
        for role, (ref, _) in images.items():
            print(f"# image {role}: {ref}", flush=True)
        while not stop["now"]:
            cluster._check_alive()
            time.sleep(0.5)
    finally:
        env_file.unlink(missing_ok=True)
        cluster.stop()
    return 0


def shell_env(cluster: TestCluster) -> str:
    """What a shell needs to use the cluster: its KUBECONFIG, a PATH whose kubectl matches the server (a system
    kubectl may be several minor versions older), and the operator settings for kwok's fake-node taint."""
    import shlex

    lines = ["# written by hack/testenv/cluster.py; removed when the cluster stops",
             f"export KUBECONFIG={shlex.quote(str(cluster.kubeconfig))}",
             f"export PATH={shlex.quote(str(cluster.bin_dir))}:\"$PATH\""]
    env = operator_env()
    for var in ("KERNELGEN_NPU_TOLERATIONS", "KERNELGEN_CPU_TOLERATIONS"):
        lines.append(f"export {var}={shlex.quote(env[var])}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
