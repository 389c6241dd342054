#include "oauth/oautherror.h"

#include "core/database.h"
#include "oauth/oauthlogging.h"

#include <QJsonObject>

namespace Gatehouse::OAuth {

Core::HttpResponse noStore(Core::HttpResponse r)
{
    r.setHeader("Cache-Control", "no-store");
    r.setHeader("Pragma", "no-cache");
    return r;
}

Core::HttpResponse OAuthError::toResponse() const
{
    QJsonObject o{{QStringLiteral("error"), error}};
    if (!description.isEmpty())
        o.insert(QStringLiteral("error_description"), description);
    Core::HttpResponse r = noStore(Core::HttpResponse::json(status, o));
    if (retryAfterS > 0)
        r.setHeader("Retry-After", QByteArray::number(retryAfterS));
    if (basicChallenge)
        r.setHeader("WWW-Authenticate", "Basic realm=\"gatehouse\", charset=\"UTF-8\"");
    return r;
}

OAuthError storageError(const Core::Error &e, const QString &what)
{
    if (e.code == QLatin1String(Core::kDatabaseUnavailable)) {
        OAuthError busy{QStringLiteral("temporarily_unavailable"), e.message, 503};
        busy.retryAfterS = Core::kDatabaseRetryAfterS;
        return busy;
    }
    // The detail (a database's own text: tables, constraints, paths) for the operator's log; the
    // caller, often unauthenticated, gets `what`, which says only what could not be done.
    qCWarning(lcOAuth).noquote() << what << "-" << e.message;
    return {QStringLiteral("server_error"), what, 500};
}

OAuthError issuingError(const QString &code, const QString &message, int httpStatus)
{
    if (httpStatus == 400 && !code.isEmpty())
        return {code, message};
    return storageError(Core::Error{code, message, httpStatus},
                        QStringLiteral("the token could not be issued"));
}

} // namespace Gatehouse::OAuth
