#include "oauth/oautherror.h"

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

} // namespace Gatehouse::OAuth
