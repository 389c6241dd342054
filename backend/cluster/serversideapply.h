#pragma once

#include "cluster/status.h"

#include <QDateTime>
#include <QJsonObject>
#include <QSet>
#include <QString>

#include <variant>

namespace google::protobuf {
class Descriptor;
}

namespace Gatehouse::Cluster {

// Server-side apply (PATCH with application/apply-patch+yaml) and the field ownership it keeps
// in metadata.managedFields, as kube-apiserver's structured-merge-diff does (docs/cluster.md,
// "Server-side apply"). Field paths are in FieldsV1's own terms: "f:<field>" for a struct
// field or a map key, "k:{...}" for an item of a keyed list, "v:<json>" for an item of a set,
// "." for a list item itself; lists without keys and scalars are leaves. What a list is comes
// from Kubernetes' own schema tags (+listType, +listMapKey, +patchMergeKey).
namespace ServerSideApply {

// A set of field paths, each its FieldsV1 keys joined by '\n'.
using FieldSet = QSet<QString>;

// The fields an object sets (applied configuration or stored object), without what the server
// owns (apiVersion, kind, name, namespace, uid, resourceVersion, creationTimestamp,
// managedFields; status unless `withStatus`).
FieldSet fieldsOf(const QJsonObject &object, const google::protobuf::Descriptor *d,
                  bool withStatus = false);
// FieldsV1 JSON for a set, and back.
QJsonObject toFieldsV1(const FieldSet &set);
FieldSet fromFieldsV1(const QJsonObject &fieldsV1);
// kube's fieldpath text: ".spec.containers[name=\"web\"].image", ".metadata.finalizers[=\"x\"]".
QString displayPath(const QString &path);

struct Request
{
    QString manager; // fieldManager (required)
    bool force = false;
    QString apiVersion;
    QDateTime now;
};

// The object after applying `applied` (the configuration the manager wants, apiVersion and kind
// stripped) over `current` (empty: the object does not exist yet), with managedFields updated;
// or 409 Conflict (kube's "Apply failed with N conflict(s): ...") when it would change fields
// another manager owns and force is false.
std::variant<QJsonObject, Status> apply(const QJsonObject &current, const QJsonObject &applied,
                                        const google::protobuf::Descriptor *d, const Request &r);

// A write that is not an apply (create, update, patch) by `manager`: the fields it changed
// become its own (operation Update) and no longer anybody else's. Objects are tracked from
// their first apply on: one without managedFields is returned as it is.
QJsonObject trackUpdate(const QJsonObject &before, const QJsonObject &after,
                        const google::protobuf::Descriptor *d, const QString &manager,
                        const QString &apiVersion, const QDateTime &now);

} // namespace ServerSideApply
} // namespace Gatehouse::Cluster
