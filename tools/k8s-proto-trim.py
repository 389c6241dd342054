#!/usr/bin/env python3
"""Writes backend/cluster/proto/: the Kubernetes protobuf messages Gatehouse serves.

Usage: tools/k8s-proto-trim.py REFERENCE_DIR [OUT_DIR]

REFERENCE_DIR holds the generated.proto files of k8s.io/api and k8s.io/apimachinery (v0.32.13,
Kubernetes 1.32; Apache License 2.0) laid out by import path (k8s.io/api/core/v1/...). The
script keeps the messages named in ROOTS and every message they reach, with their comments
(the descriptions of the OpenAPI documents), field names and field numbers unchanged, so that
kubectl's bytes decode. Each kept file gets `optimize_for = CODE_SIZE`: the converter in
backend/cluster/protobuf.cpp works through reflection only, and the generated C++ stays small
enough for a quick build.

The build never runs this script (a clone has no reference directory): its output is
committed. Run it again when ROOTS changes, then review the diff.

proto/k8s.io/api/events/v1/generated.proto is not written here (the reference set lacks the
events.k8s.io group): it is kept by hand, and this script leaves it alone.
"""

import os
import re
import sys

# What is served, by package: the kinds of backend/cluster/resources.cpp with their lists,
# the reviews, and what the protocol itself carries (Status, WatchEvent, DeleteOptions, the
# runtime envelope).
ROOTS = {
    "k8s.io.api.core.v1": [
        "Namespace", "NamespaceList", "Node", "NodeList", "Pod", "PodList", "Service",
        "ServiceList", "ServiceAccount", "ServiceAccountList", "Event", "EventList",
    ],
    "k8s.io.api.rbac.v1": [
        "ClusterRole", "ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role",
        "RoleList", "RoleBinding", "RoleBindingList",
    ],
    "k8s.io.api.authorization.v1": [
        "SelfSubjectAccessReview", "SubjectAccessReview", "LocalSubjectAccessReview",
        "SelfSubjectRulesReview",
    ],
    "k8s.io.api.authentication.v1": ["TokenReview", "TokenRequest", "SelfSubjectReview"],
    "k8s.io.api.admissionregistration.v1": [
        "ValidatingWebhookConfiguration", "ValidatingWebhookConfigurationList",
        "MutatingWebhookConfiguration", "MutatingWebhookConfigurationList",
    ],
    "k8s.io.apimachinery.pkg.apis.meta.v1": [
        "Status", "WatchEvent", "DeleteOptions", "List", "Time", "MicroTime", "Duration",
    ],
    "k8s.io.apimachinery.pkg.runtime": ["Unknown", "RawExtension", "TypeMeta"],
}

LICENSE_END = "*/"


class Message:
    def __init__(self, package, name, lines):
        self.package = package
        self.name = name
        self.lines = lines  # the comment above it, the declaration and the closing brace

    @property
    def full(self):
        return self.package + "." + self.name

    def references(self):
        refs = set()
        for line in self.lines:
            code = line.split("//", 1)[0].strip()
            m = re.match(r"(?:optional|repeated)\s+(\S+)\s+\w+\s*=", code)
            if m:
                refs.add(m.group(1))
            m = re.match(r"map<\s*\w+\s*,\s*(\S+?)\s*>", code)
            if m:
                refs.add(m.group(1))
        scalars = {"string", "bytes", "bool", "int32", "int64", "uint32", "uint64", "double",
                   "float", "sint32", "sint64", "fixed32", "fixed64"}
        full = set()
        for ref in refs:
            if ref in scalars:
                continue
            full.add(ref[1:] if ref.startswith(".") else self.package + "." + ref)
        return full


class ProtoFile:
    def __init__(self, path, text):
        self.path = path
        lines = text.split("\n")
        self.package = next(re.match(r"package\s+([\w.]+);", l).group(1)
                            for l in lines if l.startswith("package "))
        end = next(i for i, l in enumerate(lines) if l.strip() == LICENSE_END)
        self.license = lines[: end + 1]
        self.imports = [re.match(r'import\s+"([^"]+)";', l).group(1)
                        for l in lines if l.startswith("import ")]
        self.messages = []
        i = 0
        while i < len(lines):
            m = re.match(r"message\s+(\w+)\s*\{", lines[i])
            if not m:
                i += 1
                continue
            start = i
            while start > 0 and lines[start - 1].startswith("//"):
                start -= 1
            j = i
            while lines[j] != "}":
                j += 1
            self.messages.append(Message(self.package, m.group(1), lines[start: j + 1]))
            i = j + 1


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    ref = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "backend", "cluster", "proto")
    files = {}
    for root, _, names in os.walk(ref):
        for name in names:
            if name.endswith(".proto"):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, ref)
                with open(path, encoding="utf-8") as f:
                    files[rel] = ProtoFile(rel, f.read())
    by_full = {m.full: (f, m) for f in files.values() for m in f.messages}
    file_of_package = {f.package: f for f in files.values()}

    keep = set()
    todo = [p + "." + n for p, names in ROOTS.items() for n in names]
    while todo:
        full = todo.pop()
        if full in keep:
            continue
        if full not in by_full:
            sys.exit("unknown message " + full)
        keep.add(full)
        todo.extend(by_full[full][1].references())

    for rel, f in sorted(files.items()):
        kept = [m for m in f.messages if m.full in keep]
        if not kept:
            continue
        used_packages = {r.rsplit(".", 1)[0] for m in kept for r in m.references()}
        imports = [i for i in f.imports
                   if any(file_of_package[p].path == i for p in used_packages if p != f.package)]
        text = f.license + [
            "",
            "// Trimmed by tools/k8s-proto-trim.py from the generated.proto of k8s.io/api and",
            "// k8s.io/apimachinery v0.32.13 (Kubernetes 1.32) to the messages Gatehouse serves.",
            "// Field names and numbers are Kubernetes' own: do not edit, run the script again.",
            "",
            'syntax = "proto2";',
            "",
            "package %s;" % f.package,
            "",
        ]
        text += ['import "%s";' % i for i in imports]
        if imports:
            text.append("")
        text += ["option optimize_for = CODE_SIZE;", ""]
        for m in kept:
            text += m.lines + [""]
        target = os.path.join(out, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as o:
            o.write("\n".join(text).rstrip("\n") + "\n")
        print("%s: %d of %d messages" % (rel, len(kept), len(f.messages)))


if __name__ == "__main__":
    main()
