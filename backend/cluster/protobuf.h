#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <variant>

namespace Gatehouse::Cluster {

// The Content-Type kubectl uses for protobuf bodies.
inline constexpr char kProtobufContentType[] = "application/vnd.kubernetes.protobuf";

// Decodes a Kubernetes protobuf request body: the 4-byte magic "k8s\0" followed by a
// runtime.Unknown message {1 typeMeta{1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding,
// 4 contentType}. The raw object is decoded for the kinds below into exactly the JSON
// object the same request would carry as JSON: "apiVersion" and "kind" from typeMeta,
// "metadata" with only the fields that are set (name, generateName, namespace, uid, labels,
// annotations; an empty ObjectMeta gives {}), "spec" with only non-empty fields, and no
// "status" unless a status field is set.
//
//   authorization.k8s.io/v1 SelfSubjectAccessReview, SubjectAccessReview,
//     LocalSubjectAccessReview: spec {1 resourceAttributes{1 namespace, 2 verb, 3 group,
//     4 version, 5 resource, 6 subresource, 7 name, 8 fieldSelector{1 rawSelector},
//     9 labelSelector{1 rawSelector}}, 2 nonResourceAttributes{1 path, 2 verb}, 3 user,
//     4 groups (repeated), 5 extra (map<string, ExtraValue{1 items repeated}>), 6 uid}
//     -> JSON spec.resourceAttributes.fieldSelector = {"rawSelector": "..."}, spec.extra =
//     {"k": ["v", ...]};
//   authorization.k8s.io/v1 SelfSubjectRulesReview: spec {1 namespace};
//   authentication.k8s.io/v1, v1beta1, v1alpha1 SelfSubjectReview: no spec;
//   authentication.k8s.io/v1 TokenRequest: spec {1 audiences, 4 expirationSeconds}.
//
// Unknown fields are skipped by wire type (varint, 64-bit, length-delimited, 32-bit), as
// protobuf requires. Truncated or malformed input, a missing magic, nesting deeper than
// 16, a length beyond the input, or a kind not listed above is an error string (the caller
// answers 400 BadRequest or 415 for an unsupported kind); never a crash, never a read
// outside the input.
//
// Details, following the API server's own (gogo-generated) decoding:
// - a string that occurs twice: the last wins (even when empty); a message that occurs twice
//   merges; repeated fields keep wire order; a map key that occurs twice: the last wins;
// - a known field with the wrong wire type is an error; unknown groups (wire types 3/4) are
//   skipped too, and only they can nest deeper than 16 (the envelope is level 1, the raw
//   object level 2); wire types 6 and 7, field number 0 and varints over 10 bytes are errors;
// - an envelope without a raw field decodes as an empty object ("metadata": {} and, for the
//   kinds with one, "spec": {}); its contentEncoding and contentType are ignored; an empty
//   kind or apiVersion is an error, not an unsupported kind;
// - SelfSubjectAccessReview's spec is only fields 1-2 (user, groups, extra and uid are
//   skipped there); resourceAttributes, nonResourceAttributes, fieldSelector and
//   labelSelector are kept, as {}, when present but empty (pointers in Go); the selectors'
//   requirements are skipped; an extra key without values gives [];
// - "spec" is always there for the kinds that have one; "status" holds only what is set
//   ("allowed" only when true); SelfSubjectRulesReview's and SelfSubjectReview's status
//   (the server's answer) is skipped;
// - strings are UTF-8 with invalid bytes replaced by U+FFFD; a leading U+FEFF is kept.
struct ProtobufError
{
    bool unsupportedKind = false; // the envelope was fine but its kind is not one of the above
    QString message;
};
std::variant<QJsonObject, ProtobufError> decodeProtobufObject(const QByteArray &body);

} // namespace Gatehouse::Cluster
