#pragma once

#include <QMultiHash>
#include <QString>

#include <memory>
#include <string>

namespace google::protobuf {
class Descriptor;
class DescriptorPool;
class FieldDescriptor;
class Message;
} // namespace google::protobuf

// Kubernetes' schemas as Gatehouse serves them: the messages of backend/cluster/proto/
// (Kubernetes 1.32's own, trimmed to the served kinds), compiled by protoc in the build into a
// descriptor set with their comments and loaded once. What Go's JSON does differently from
// the messages is here too: the special types, structs embedded inline, pointers. Used by the
// protobuf wire format (protobuf.cpp), the OpenAPI documents (openapi.cpp) and field
// validation.
namespace Gatehouse::Cluster::KubeSchemas {

// False when the descriptor set is missing or does not build (logged at start).
bool loaded();
const google::protobuf::DescriptorPool &pool();
// runtime.Unknown, the envelope of protobuf bodies.
const google::protobuf::Descriptor *unknownEnvelope();
// The message of apiVersion/kind (the served kinds, their lists, the reviews, TokenRequest,
// Status, DeleteOptions, Event), or nullptr.
const google::protobuf::Descriptor *forKind(const QString &apiVersion, const QString &kind);
// A new, empty message of d.
std::unique_ptr<google::protobuf::Message> make(const google::protobuf::Descriptor *d);

// Messages whose JSON is not an object of their fields.
enum class Special {
    None,
    Time,         // "2006-01-02T15:04:05Z"
    MicroTime,    // "2006-01-02T15:04:05.000000Z"
    Duration,     // "1h2m3s"
    FieldsV1,     // the JSON it holds
    RawExtension, // the JSON it holds
    IntOrString,  // a number or a string
    Quantity,     // "500m"
    StringList,   // ExtraValue: an array of strings
};
Special specialOf(const google::protobuf::Descriptor *d);
// A Go struct embedded with json:",inline": its fields are its parent's in JSON.
bool isInline(const google::protobuf::FieldDescriptor *f);
// A Go pointer to a scalar: a zero value on the wire was set by the client.
bool isPointerScalar(const google::protobuf::FieldDescriptor *f);
// The field's JSON name: its proto name, except where Go's json tag differs (the webhook
// configurations' "Webhooks").
QString jsonName(const google::protobuf::FieldDescriptor *f);
// d's field of that JSON name (not through inline structs), or null.
const google::protobuf::FieldDescriptor *fieldByJsonName(const google::protobuf::Descriptor *d,
                                                         const QString &name);
// The same through Go's inline structs (the JSON object's member); null for no field or no d.
const google::protobuf::FieldDescriptor *jsonField(const google::protobuf::Descriptor *d,
                                                   const QString &name);

// Go's tags in a field's comment ("+listType=map", "+patchMergeKey=name", ...); a tag given
// more than once (listMapKey) has its values newest first.
QMultiHash<QString, QString> goTags(const google::protobuf::FieldDescriptor *f);

// The comment of a message or field, as kube-apiserver's OpenAPI descriptions: Go's "+tag"
// lines left out, and everything after a "---" line.
QString description(const google::protobuf::Descriptor *d);
QString description(const google::protobuf::FieldDescriptor *f);
// Whether the field's comment says "+optional".
bool isOptional(const google::protobuf::FieldDescriptor *f);

// UTF-8, invalid bytes as U+FFFD and a leading U+FEFF kept.
QString fromStd(const std::string &s);
std::string toStd(const QString &s);

} // namespace Gatehouse::Cluster::KubeSchemas
