#pragma once

#include "core/httpmessage.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

class QJsonObject;

namespace Gatehouse::Cluster {

// The OpenAPI v3 documents kube-apiserver serves under /openapi/v3, made from the Kubernetes
// schemas (cluster/schemas.h: field names, types, comments, Go's tags) and the served
// resources (paths, verbs, query parameters). kubectl reads them to decide that the server
// validates fields itself (the fieldValidation parameter of each kind's PATCH), for `kubectl
// explain`, and for `kubectl apply`'s strategic merge (x-kubernetes-patch-merge-key and
// -strategy). Made once; they never change while the process runs.
struct OpenApiDocument
{
    QByteArray body; // compact JSON
    QByteArray hash; // SHA-512, upper-case hex, as kube's ?hash= and ETag
};

// {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}, ...}}.
const QByteArray &openApiV3Root();
// The document of "api/v1" or "apis/<group>/<version>", or nullptr.
const OpenApiDocument *openApiV3Document(const QString &path);

// The answer to GET /openapi/v3, /openapi/v3/ and /openapi/v3/<group version>, as kube's:
// the root uncached; a document with its ETag, immutable when asked by its current hash,
// 301 to the current hash for an old one, 304 for a matching If-None-Match; 404 for an
// unknown group version. nullopt: not an /openapi/v3 path.
std::optional<Core::HttpResponse> openApiV3Response(const Core::HttpRequest &request);

// Field validation (fieldValidation=Strict|Warn|Ignore): removes the members of a JSON object
// that its kind does not have (Go's decoder drops them) and names them as kube does
// ("spec.foo", "spec.containers[0].bar"; maps take any key). apiVersion and kind are known at
// the top; strategic merge directives ("$patch", ...) stay. Nothing for a kind without a
// schema.
QStringList pruneUnknownFields(QJsonObject *object, const QString &apiVersion, const QString &kind);

} // namespace Gatehouse::Cluster
