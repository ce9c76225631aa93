"""The real node's address (hack/testenv/node.py): a /32 on loopback hides any remote host of the same address, so it
must be one this machine uses for nothing. Runs anywhere (`ip -j` needs no root); the node itself is in
test_real_pods.py."""
from __future__ import annotations

import ipaddress
import json
import shutil
import subprocess

import pytest

from tests.deploy.helpers import load_testenv


@pytest.fixture(scope="module")
def node():
    return load_testenv()._node_module()


def _net(*cidrs):
    return [ipaddress.ip_network(c) for c in cidrs]


def _addr(*ips):
    return {ipaddress.ip_address(i) for i in ips}


def test_the_address_avoids_gateways_subnets_and_name_servers(node):
    # this VM's own layout: eth0 192.0.2.2/24, gateway 192.0.2.1 (once the fixed node address), DNS 10.255.255.53
    assert node.pick_node_ip(_net("192.0.2.0/24"), _addr("192.0.2.1", "192.0.2.2", "10.255.255.53")) == "198.18.0.1"
    assert node.pick_node_ip([], _addr("198.18.0.1")) == "198.18.128.1"              # a gateway
    assert node.pick_node_ip(_net("198.18.0.0/16"), set()) == "198.19.0.1"            # a connected subnet
    with pytest.raises(node.NodeError, match="in use"):
        node.pick_node_ip(_net("198.18.0.0/15"), set())
    with pytest.raises(node.NodeError, match="pod subnet 10.244.0.0/24 overlaps .*10.0.0.0/8"):
        node.pick_node_ip(_net("10.0.0.0/8"), set())


@pytest.mark.skipif(shutil.which("ip") is None, reason="iproute2 not installed")
def test_this_machines_gateways_and_addresses_are_never_chosen(node):
    nets, addrs = node.host_network()
    gateways = {ipaddress.ip_address(r["gateway"]) for r in _ip("route", "show", "default") if r.get("gateway")}
    own = {ipaddress.ip_address(a["local"]) for link in _ip("addr", "show") if link["ifname"] not in ("lo", node.BRIDGE)
           for a in link.get("addr_info", [])}
    assert gateways | own <= addrs
    chosen = ipaddress.ip_address(node.pick_node_ip(nets, addrs))
    assert chosen not in addrs and not any(chosen in n for n in nets)


def _ip(*args):
    return json.loads(subprocess.run(["ip", "-j", "-4", *args], capture_output=True, text=True, check=True).stdout
                      or "[]")
