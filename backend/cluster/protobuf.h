#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <variant>

namespace google::protobuf {
class Descriptor;
}

namespace Gatehouse::Cluster {

// The Content-Type kubectl and client-go's typed clients use for protobuf bodies.
inline constexpr char kProtobufContentType[] = "application/vnd.kubernetes.protobuf";
// The Content-Type of a protobuf watch stream, as kube-apiserver answers it.
inline constexpr char kProtobufWatchContentType[] =
    "application/vnd.kubernetes.protobuf;stream=watch";

// Kubernetes' protobuf wire format for the served kinds, through libprotobuf.
//
// The schemas are cluster/schemas.h's; every conversion goes through libprotobuf's reflection.
//
// A body is the 4-byte magic "k8s\0" and a runtime.Unknown {1 typeMeta{1 apiVersion,
// 2 kind}, 2 raw, 3 contentEncoding, 4 contentType}; raw is the object's message.
//
// Protobuf to JSON gives the JSON object a client would have sent for the same object:
// - a message field on the wire is an object, even when empty; a Time or MicroTime at zero
//   (what kubectl writes for an unset creationTimestamp) is left out, as Go writes null;
// - a string, number or bool at its zero value is left out, as Go's omitempty does; except
//   the fields that are pointers in Go (automountServiceAccountToken, runAsUser, ...), which
//   keep a zero that is on the wire;
// - repeated fields and maps are left out when empty, in wire order otherwise;
// - Time -> "2006-01-02T15:04:05Z", MicroTime -> "...05.000000Z", Duration -> "1h2m3s",
//   IntOrString -> a number or a string, Quantity -> its string, RawExtension and FieldsV1
//   -> the JSON they hold, ExtraValue -> an array of strings, bytes -> base64;
// - strings are UTF-8 (libprotobuf checks nothing in proto2: invalid bytes become U+FFFD).
// JSON to protobuf is the reverse, for answers: members the message lacks are skipped
// (apiVersion and kind travel in the envelope).
//
// Malformed input is an error, never a crash: libprotobuf parses with its nesting limit.
struct ProtobufError
{
    bool unsupportedKind = false; // the envelope was fine but its kind has no protobuf form
    QString message;
};
std::variant<QJsonObject, ProtobufError> decodeProtobufObject(const QByteArray &body);

// The object (with its "apiVersion" and "kind") as a protobuf body, envelope included; an
// error when its kind has no protobuf form or a member does not fit its field.
std::variant<QByteArray, ProtobufError> encodeProtobufObject(const QJsonObject &object);

// Where a member of `object` does not fit its field of message `d` ("spec.priority is not a
// 32-bit integer"): kube's decoding refuses such a body, and a stored one breaks every typed
// client that reads it. Nothing when every member fits, or when `d` is null (a kind without a
// schema). Members `d` lacks are not looked at (pruneUnknownFields drops them).
std::optional<QString> protobufTypeMismatch(const QJsonObject &object,
                                            const google::protobuf::Descriptor *d);

// One frame of a protobuf watch stream, as kube-apiserver writes it: a 4-byte big-endian
// length, then a meta.v1.WatchEvent {1 type, 2 object: RawExtension {1 raw}} without an
// envelope, whose raw is the object's protobuf body (envelope included, as
// encodeProtobufObject gives it). client-go reads the frame, then the object in raw.
std::variant<QByteArray, ProtobufError> encodeProtobufWatchFrame(const QString &type,
                                                                 const QJsonObject &object);

} // namespace Gatehouse::Cluster
