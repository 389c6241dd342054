#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <variant>

namespace Gatehouse::Cluster {

// The three patch formats of the Kubernetes API (what kubectl and client libraries send).
enum class PatchType {
    Merge,          // application/merge-patch+json (RFC 7386)
    StrategicMerge, // application/strategic-merge-patch+json (Kubernetes)
    Json,           // application/json-patch+json (RFC 6902)
};

// The patch type named by a Content-Type header value (parameters such as
// "; charset=utf-8" ignored, case-insensitive); nullopt for anything else (the caller
// answers 415).
std::optional<PatchType> patchTypeFromContentType(const QByteArray &contentType);

// A JSON value's identity for sets and indexes: equal values (QJsonValue's ==) give equal
// keys. Merging lists through it stays linear: a patch of a hundred thousand list elements
// compared each with each would hold the store's writer for minutes.
QByteArray jsonValueKey(const QJsonValue &value);

// Why a patch could not be applied. status is 400 (the patch document is not valid JSON,
// or not the shape its format requires: merge patches must be an object, JSON patches an
// array of operations with valid "op"/"path"/"from"/"value") or 422 (a well-formed patch
// that cannot apply: a JSON patch "test" that fails, a path that does not exist, an index
// out of range, a strategic-merge directive that is not understood).
// message is a single human-readable line, e.g.
//   "invalid JSON patch: operation 1: unknown op \"mov\"" or
//   "JSON patch test failed: /metadata/labels/a is \"x\", expected \"y\"".
// Operations are numbered from 0 (their index in the patch array). Nesting deeper than 64
// levels in a merge or strategic merge patch is a 422. A JSON patch of more than 10,000
// operations is a 413; copies that add up to more than 10 MiB are a 422.
struct PatchError
{
    int status = 400;
    QString message;
};

// RFC 7386 JSON merge patch: objects merge recursively, null deletes a key, anything
// else (arrays included) replaces. Having no error channel, it leaves the target unchanged
// when the patch nests deeper than 64 levels (applyPatch answers 422).
QJsonValue applyMergePatch(const QJsonValue &target, const QJsonValue &patch);

// RFC 6902 JSON patch (add, remove, replace, move, copy, test; RFC 6901 pointers with
// ~0/~1 escapes; "-" appends to an array). Every operation is checked (400) before any
// applies; the patch applies as a whole or not at all. Moving a location into its own child
// and removing the root "" are 422s.
std::variant<QJsonValue, PatchError> applyJsonPatch(const QJsonValue &target,
                                                    const QJsonValue &operations);

// Kubernetes strategic merge patch for the resources Gatehouse serves. Like a merge patch,
// except for lists with a merge key, which are merged element by element on that key (an
// element that is {"<key>": v, "$patch": "delete"} removes the element with that key):
//   metadata.ownerReferences: uid     spec.taints: key         status.conditions: type
//   status.addresses: type            spec.containers, spec.initContainers: name
//   spec.containers[].ports: containerPort     spec.containers[].env: name
//   spec.volumes: name                spec.ports (services): port
//   subjects (bindings): name         (rules stay a replaced list)
//   webhooks (admission webhook configurations): name
// and lists of primitives with the merge strategy (metadata.finalizers), which are
// unioned. Directives: "$patch": "replace" | "delete" | "merge" in an object,
// "$deleteFromPrimitiveList/<field>": [...], "$setElementOrder/<field>" (accepted and
// ignored), "$retainKeys": [...] (keys of that object not listed are dropped). Any other
// "$..." key is a 422. Paths are matched on field names from the object root, array
// indices skipped (spec.containers[].ports is "spec.containers.ports").
// As in Kubernetes: "$patch" elements of a list act before its other elements merge; an
// element {"$patch": "replace"} replaces the whole list with the other elements; an empty
// list patch leaves a merged list as it is (null removes it). Matched elements keep their
// place, new ones are appended in patch order. "$deleteFromPrimitiveList" applies before
// the same object's other fields. "$patch": "delete" on a nested object removes that field;
// on the root it gives null, like a null merge patch. A patch that is not an object is a 400.
std::variant<QJsonValue, PatchError> applyStrategicMergePatch(const QJsonValue &target,
                                                              const QJsonValue &patch);

// Parses body per its type and applies it to original. The result must still be a JSON
// object (a patch that turns the object into anything else is a 422). A body that is not
// JSON is a 400 for every type; so is a JSON patch operation with a member twice (RFC 6902
// A.13), which only the text shows.
std::variant<QJsonObject, PatchError> applyPatch(PatchType type, const QJsonObject &original,
                                                 const QByteArray &body);

} // namespace Gatehouse::Cluster
