#pragma once

#include "core/httpmessage.h"

#include <QString>

namespace Gatehouse::OAuth {

// An RFC 6749 §5.2 error as a value: {"error", "error_description"}, no-store.
struct OAuthError
{
    QString error;
    QString description;
    int status = 400;
    bool basicChallenge = false; // 401 invalid_client after HTTP Basic: WWW-Authenticate

    Core::HttpResponse toResponse() const;
};

inline OAuthError invalidRequest(const QString &d)
{
    return {QStringLiteral("invalid_request"), d};
}
inline OAuthError invalidClient(const QString &d, bool basic)
{
    return {QStringLiteral("invalid_client"), d, 401, basic};
}
inline OAuthError invalidScope(const QString &d)
{
    return {QStringLiteral("invalid_scope"), d};
}
inline OAuthError unauthorizedClient(const QString &d)
{
    return {QStringLiteral("unauthorized_client"), d};
}
inline OAuthError unsupportedGrantType(const QString &d)
{
    return {QStringLiteral("unsupported_grant_type"), d};
}

// Adds Cache-Control: no-store and Pragma: no-cache (RFC 6749 §5.1).
Core::HttpResponse noStore(Core::HttpResponse r);

} // namespace Gatehouse::OAuth
