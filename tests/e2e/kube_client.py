#!/usr/bin/python3
"""One call of the official Python Kubernetes client (Debian's python3-kubernetes) against the
gatehouse cluster API, for cluster.test.mjs.

    kube_client.py KUBECONFIG ACTION [ARGS...]

Actions:
    version                      VersionApi().get_code()
    list_nodes                   CoreV1Api().list_node()
    read_node NAME               CoreV1Api().read_node(NAME)
    patch_labels NAME JSON       CoreV1Api().patch_node(NAME, {"metadata": {"labels": JSON}})
                                 (a dict body: application/strategic-merge-patch+json)
    can_i VERB RESOURCE [NAME]   AuthorizationV1Api().create_self_subject_access_review(...)
    local_can_i NS BODY_NS USER VERB RESOURCE
                                 AuthorizationV1Api().create_namespaced_local_subject_access_review
                                 (NS, ...) with metadata.namespace BODY_NS ("-": none), as
                                 callers of the client write it
    watch_nodes RV COUNT SELECTOR
                                 watch.Watch().stream(CoreV1Api().list_node, resource_version=RV,
                                 label_selector=SELECTOR, timeout_seconds=20): the first COUNT
                                 events as {type, name, resourceVersion, labels}
    list_events_v1 NS SELECTOR   EventsV1Api().list_namespaced_event(NS, field_selector=SELECTOR)
    create_event_v1 NS JSON      EventsV1Api().create_namespaced_event(NS, JSON)

Prints one JSON object on stdout and exits 0 on success:
    {"ok": true, "result": {...}}
On an ApiException it prints, and exits 2:
    {"ok": false, "status": <HTTP code>, "reason": <HTTP reason phrase>,
     "body": <parsed Status JSON or the raw text>, "contentType": <response Content-Type>}
On any other error: {"ok": false, "error": <exception class>, "message": <text>}, exit 3.
"""

import json
import sys
import warnings

warnings.filterwarnings("ignore")

from kubernetes import client, config, watch  # noqa: E402
from kubernetes.client.rest import ApiException  # noqa: E402


def run(api_client, action, args):
    core = client.CoreV1Api(api_client)
    if action == "version":
        v = client.VersionApi(api_client).get_code()
        return {"git_version": v.git_version, "major": v.major, "minor": v.minor,
                "platform": v.platform}
    if action == "list_nodes":
        nodes = core.list_node()
        return {"kind": nodes.kind, "names": [n.metadata.name for n in nodes.items]}
    if action == "read_node":
        n = core.read_node(args[0])
        return {"name": n.metadata.name, "labels": n.metadata.labels or {},
                "kubeletVersion": n.status.node_info.kubelet_version if n.status and n.status.node_info else None}
    if action == "patch_labels":
        n = core.patch_node(args[0], {"metadata": {"labels": json.loads(args[1])}})
        return {"name": n.metadata.name, "labels": n.metadata.labels or {}}
    if action == "can_i":
        attrs = client.V1ResourceAttributes(verb=args[0], resource=args[1],
                                            name=args[2] if len(args) > 2 else None)
        review = client.V1SelfSubjectAccessReview(
            spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=attrs))
        r = client.AuthorizationV1Api(api_client).create_self_subject_access_review(review)
        return {"allowed": r.status.allowed, "denied": r.status.denied, "reason": r.status.reason}
    if action == "local_can_i":
        attrs = client.V1ResourceAttributes(namespace=args[0], verb=args[3], resource=args[4])
        review = client.V1LocalSubjectAccessReview(
            metadata=client.V1ObjectMeta(namespace=None if args[1] == "-" else args[1]),
            spec=client.V1SubjectAccessReviewSpec(resource_attributes=attrs, user=args[2]))
        r = client.AuthorizationV1Api(api_client).create_namespaced_local_subject_access_review(
            args[0], review)
        return {"allowed": r.status.allowed, "denied": r.status.denied, "reason": r.status.reason,
                "namespace": r.metadata.namespace if r.metadata else None}
    if action == "watch_nodes":
        events = []
        w = watch.Watch()
        for e in w.stream(core.list_node, resource_version=args[0], label_selector=args[2],
                          timeout_seconds=20):
            node = e["object"]
            events.append({"type": e["type"], "name": node.metadata.name,
                           "resourceVersion": node.metadata.resource_version,
                           "labels": node.metadata.labels or {}})
            if len(events) >= int(args[1]):
                w.stop()
        return {"events": events}
    if action in ("list_events_v1", "create_event_v1"):
        events_v1 = client.EventsV1Api(api_client)
        if action == "create_event_v1":
            items = [events_v1.create_namespaced_event(args[0], json.loads(args[1]))]
        else:
            items = events_v1.list_namespaced_event(args[0], field_selector=args[1]).items
        return {"items": [{"name": e.metadata.name, "namespace": e.metadata.namespace,
                           "reason": e.reason, "note": e.note, "type": e.type,
                           "action": e.action,
                           "eventTime": e.event_time.isoformat() if e.event_time else None,
                           "regarding": {"kind": e.regarding.kind, "name": e.regarding.name}
                           if e.regarding else None,
                           "reportingController": e.reporting_controller,
                           "deprecatedCount": e.deprecated_count} for e in items]}
    raise ValueError("unknown action %r" % action)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    kubeconfig, action, args = argv[1], argv[2], argv[3:]
    try:
        api_client = config.new_client_from_config(config_file=kubeconfig)
        result = run(api_client, action, args)
    except ApiException as e:
        body = e.body
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        try:
            body = json.loads(body)
        except (TypeError, ValueError):
            pass
        headers = e.headers or {}
        print(json.dumps({"ok": False, "status": e.status, "reason": e.reason, "body": body,
                          "contentType": headers.get("Content-Type")}))
        return 2
    except Exception as e:  # noqa: BLE001 - reported to the test as data
        print(json.dumps({"ok": False, "error": type(e).__name__, "message": str(e)}))
        return 3
    print(json.dumps({"ok": True, "result": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
