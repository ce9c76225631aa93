"""How the operator finds the API server in a pod: the service address in the pod's environment, as client-go and the
Python client do, not kopf's kubernetes.default.svc (cluster DNS, which a hostNetwork pod does not use)."""
from __future__ import annotations

import kopf

from kernelgen_operator import handlers


def test_in_cluster_server_from_the_pod_environment():
    env = {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}
    assert handlers.in_cluster_server(env) == "https://10.96.0.1:443"
    assert handlers.in_cluster_server({"KUBERNETES_SERVICE_HOST": "fd00::1", "KUBERNETES_SERVICE_PORT": "6443"}) \
        == "https://[fd00::1]:6443"
    assert handlers.in_cluster_server({"KUBERNETES_SERVICE_HOST": "10.96.0.1"}) is None
    assert handlers.in_cluster_server({}) is None


def test_login_in_a_pod_uses_the_service_address(monkeypatch):
    # Test double at the boundary: kopf's service-account login reads the token files only a pod has mounted.
    sa = kopf.ConnectionInfo(server="https://kubernetes.default.svc", token="t", ca_path="/ca.crt",
                             default_namespace="kernelgen")
    monkeypatch.setattr(kopf, "login_with_service_account", lambda **_: sa)
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
    monkeypatch.setenv("KUBERNETES_SERVICE_PORT", "36443")
    info = handlers._login()
    assert info.server == "https://127.0.0.1:36443"
    assert (info.token, info.ca_path, info.default_namespace) == ("t", "/ca.crt", "kernelgen")
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST")
    assert handlers._login().server == "https://kubernetes.default.svc"   # no service address: kopf's default
