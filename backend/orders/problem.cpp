#include "orders/problem.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Orders {

Core::HttpResponse problem(int status, const QString &code, const QString &detail,
                           const Core::HttpRequest *request, const QList<FieldError> &errors)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("urn:gatehouse:problem:") + code},
                  {QStringLiteral("title"), QString::fromLatin1(Core::reasonPhrase(status))},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("code"), code},
                  {QStringLiteral("detail"), detail}};
    if (request) {
        // The path as sent (still percent-encoded): a valid URI reference.
        o.insert(QStringLiteral("instance"),
                 QString::fromLatin1(request->target.left(request->target.indexOf('?') < 0
                                                              ? request->target.size()
                                                              : request->target.indexOf('?'))));
        if (!request->requestId.isEmpty())
            o.insert(QStringLiteral("requestId"), request->requestId);
    }
    if (!errors.isEmpty()) {
        QJsonArray a;
        for (const FieldError &e : errors)
            a.append(QJsonObject{{QStringLiteral("field"), e.field},
                                 {QStringLiteral("code"), e.code},
                                 {QStringLiteral("message"), e.message}});
        o.insert(QStringLiteral("errors"), a);
    }
    Core::HttpResponse r;
    r.status = status;
    r.body = QJsonDocument(o).toJson(QJsonDocument::Compact);
    r.setHeader("Content-Type", "application/problem+json");
    return r;
}

} // namespace Gatehouse::Orders
