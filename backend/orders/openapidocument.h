#pragma once

#include <QByteArray>
#include <QString>

namespace Gatehouse::Orders {

// The OpenAPI 3.0.2 description of the /v1 API, served as /openapi.json and /openapi.yaml.
// The source is the resource :/gatehouse/orders/openapi.json; both renderings carry
// `servers: [{url: serverUrl}]` and keep the key order of that file. Each rendering is
// computed once per server URL and cached; the same input always gives the same bytes.
// Thread-safe. Both answer an empty QByteArray only if the built-in resource is broken
// (a build defect; the route should answer 500).
class OpenApiDocument
{
public:
    static constexpr char JsonMediaType[] = "application/json";
    static constexpr char YamlMediaType[] = "application/yaml"; // RFC 9512

    // serverUrl: the public base URL of the service listener, e.g. "http://127.0.0.1:8080".
    static QByteArray json(const QString &serverUrl);
    static QByteArray yaml(const QString &serverUrl);
};

} // namespace Gatehouse::Orders
