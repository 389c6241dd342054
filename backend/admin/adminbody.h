#pragma once

// Shared by the admin API's handlers: a request's JSON object body, an error's answer.

#include "core/httpmessage.h"
#include "core/result.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace Gatehouse::Admin {

// A JSON object body; an empty body counts as {}, anything else that is not an object is
// nullopt.
inline std::optional<QJsonObject> objectBody(const Core::HttpRequest &req)
{
    if (req.body.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return doc.object();
}

// A service error as the admin API's problem answer.
inline Core::HttpResponse errorAnswer(const Core::Error &e)
{
    Core::HttpResponse r = Core::HttpResponse::error(e.httpStatus, e.code, e.message);
    // A 401 names its scheme (RFC 7235 §3.1), as the admin API's guard does.
    if (e.httpStatus == 401)
        r.setHeader("WWW-Authenticate", "Bearer realm=\"gatehouse-admin\"");
    if (e.code == QLatin1String(Core::kDatabaseUnavailable))
        r.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
    return r;
}

} // namespace Gatehouse::Admin
