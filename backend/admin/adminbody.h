#pragma once

// Shared by the admin API's handlers: a request's JSON object body, an error's answer.

#include "core/httpmessage.h"
#include "core/result.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <initializer_list>
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

// 400 validation-failed naming the first member of `body` that is not among `known`, or nothing.
// A misspelt member read as absent gave the longest credential: {"expires_in": 60} made an
// admin token that never expires, {"validity_days": 1} a certificate for a year.
inline std::optional<Core::HttpResponse> unknownMember(const QJsonObject &body,
                                                       std::initializer_list<const char *> known)
{
    for (auto it = body.begin(); it != body.end(); ++it)
        if (std::none_of(known.begin(), known.end(),
                         [&it](const char *k) { return it.key() == QLatin1String(k); }))
            return Core::HttpResponse::error(
                400, QStringLiteral("validation-failed"),
                QStringLiteral("unknown field '%1' (known: %2)").arg(it.key().left(100), [&known] {
                    QStringList names;
                    for (const char *k : known)
                        names.append(QLatin1String(k));
                    return names.join(QStringLiteral(", "));
                }()));
    return std::nullopt;
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
