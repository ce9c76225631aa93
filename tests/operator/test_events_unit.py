"""Pure parts of Events and stuck-pod detection: which status changes are worth an Event, which pods count as stuck,
and what counts as a changed placement. The same behaviour against the real API server: test_newcomer.py."""

from __future__ import annotations

from kernelgen_operator.events import Event, transitions
from kernelgen_operator.status import pending_summary, placement, pod_pending_reason


def cond(ctype, status, reason="", message=""):
    return {"type": ctype, "status": status, "reason": reason, "message": message}


def test_stage_start_finish_retry_and_end_are_events():
    running = {"conditions": [cond("Running", "True")],
               "stages": [{"name": "generate", "jobName": "b-generate-r0"}]}
    assert transitions({}, running) == [Event("Normal", "StageStarted", "stage generate: Job b-generate-r0")]
    done = {"conditions": [cond("Running", "True")],
            "stages": [{"name": "generate", "jobName": "b-generate-r0", "completionTime": "t"},
                       {"name": "evaluate", "jobName": "b-evaluate-r0"}]}
    assert [e.reason for e in transitions(running, done)] == ["StageCompleted", "StageStarted"]
    retried = {**done, "restarts": 1, "stages": [done["stages"][0], {"name": "evaluate", "jobName": "b-evaluate-r1"}]}
    [ev] = transitions(done, retried)
    assert (ev.type, ev.reason) == ("Warning", "StageRetried") and "replaces b-evaluate-r0 (restart 1)" in ev.message
    failed = {**retried, "conditions": [cond("Running", "False"), cond("Failed", "True", "NoResults", "no results")]}
    assert transitions(retried, failed) == [Event("Warning", "NoResults", "no results")]
    assert transitions(failed, failed) == []  # nothing changed, nothing to tell


def test_pods_pending_is_told_once_per_reason():
    base = {"conditions": [cond("Running", "True")]}
    stuck = {"conditions": [cond("Running", "True"), cond("PodsPending", "True", "Unschedulable", "0/4 nodes")]}
    assert transitions(base, stuck) == [Event("Warning", "PodsPending", "Unschedulable: 0/4 nodes")]
    assert transitions(stuck, stuck) == []
    other = {"conditions": [cond("Running", "True"), cond("PodsPending", "True", "ImagePullBackOff", "x")]}
    assert [e.reason for e in transitions(stuck, other)] == ["PodsPending"]


def test_suspend_resume_and_waiting():
    sus = {"conditions": [cond("Suspended", "True")]}
    resumed = {"conditions": [cond("Suspended", "False", "Resumed")]}
    assert [e.reason for e in transitions({}, sus)] == ["Suspended"]
    assert [e.reason for e in transitions(sus, resumed)] == ["Resumed"]
    waiting = {"conditions": [cond("Waiting", "True", "DependencyNotReady", "waiting for CoTBuild c")]}
    assert transitions({}, waiting) == [Event("Normal", "WaitingForDependency", "waiting for CoTBuild c")]


def pod(phase="Pending", conditions=(), waiting=None, deleting=False):
    p = {"metadata": {"name": "p"}, "status": {"phase": phase, "conditions": list(conditions)}}
    if waiting:
        p["status"]["containerStatuses"] = [{"name": "main", "state": {"waiting": waiting}}]
    if deleting:
        p["metadata"]["deletionTimestamp"] = "t"
    return p


def test_stuck_pods_and_their_reasons():
    unsched = pod(conditions=[{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                               "message": "0/4 nodes are available: 4 node(s) had untolerated taint"}])
    assert pod_pending_reason(unsched) == ("Unschedulable", "0/4 nodes are available: 4 node(s) had untolerated taint")
    secret = pod(waiting={"reason": "CreateContainerConfigError", "message": 'secret "s3" not found'})
    assert pod_pending_reason(secret) == ("CreateContainerConfigError", 'container main: secret "s3" not found')
    assert pod_pending_reason(pod(waiting={"reason": "ContainerCreating"})) is None  # progress, not trouble
    assert pod_pending_reason(pod("Running")) is None
    assert pod_pending_reason({**unsched, "metadata": {"name": "p", "deletionTimestamp": "t"}}) is None
    assert pending_summary([unsched, secret, pod("Running")])[:2] == (2, "Unschedulable")
    assert pending_summary([unsched])[3] is False and pending_summary([pod("Running")])[3] is True


def test_placement_sees_tolerations_selector_and_image():
    job = {"spec": {"template": {"spec": {"tolerations": [{"key": "a", "operator": "Exists"}],
                                          "containers": [{"image": "i:1", "imagePullPolicy": "IfNotPresent"}]}}}}
    same = {"spec": {"template": {"spec": {"tolerations": [{"key": "a", "operator": "Exists"}], "nodeSelector": {},
                                           "containers": [{"image": "i:1", "imagePullPolicy": "IfNotPresent"}]}}}}
    assert placement(job) == placement(same)
    more = {"spec": {"template": {"spec": {**same["spec"]["template"]["spec"], "nodeSelector": {"x": "y"}}}}}
    assert placement(job) != placement(more)
