#pragma once

#include "core/httpmessage.h"
#include "core/result.h"

#include <QString>

namespace Gatehouse::OAuth {

// An RFC 6749 §5.2 error as a value: {"error", "error_description"}, no-store.
struct OAuthError
{
    QString error;
    QString description;
    int status = 400;
    bool basicChallenge = false; // 401 invalid_client after HTTP Basic: WWW-Authenticate
    int retryAfterS = 0;         // a 429 or 503: Retry-After

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

// An error of the token issuer: its own OAuth code when it refused on a rule (status 400, e.g.
// unauthorized_client for the cluster's audience), else server_error.
OAuthError issuingError(const QString &code, const QString &message, int httpStatus);

// A write (or read) that failed, as the OAuth endpoints answer it: 503 temporarily_unavailable
// with Retry-After while the database cannot be reached (the client may try again; nothing
// was used up), else server_error with `what`.
OAuthError storageError(const Core::Error &e, const QString &what);

// Adds Cache-Control: no-store and Pragma: no-cache (RFC 6749 §5.1).
Core::HttpResponse noStore(Core::HttpResponse r);

} // namespace Gatehouse::OAuth
