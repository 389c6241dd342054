// Resource-server protection of the orders API (docs/oauth.md): RFC 6750 bearer tokens from
// this server, JWTs checked locally (signature, type, issuer, expiry, audience) and, like opaque
// tokens, looked up so that a revoked one is refused at once.
#include "core/clock.h"
#include "core/database.h"
#include "crypto/jws.h"
#include "oauth/granthandler.h"
#include "oauth/oauthapi.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;

namespace {

HttpResponse bearerProblem(int status, const QByteArray &error, const QString &detail,
                           const QString &scope = {})
{
    QJsonObject body{{QStringLiteral("type"),
                      QStringLiteral("urn:gatehouse:problem:") +
                          (error.isEmpty() ? QStringLiteral("unauthorized")
                                           : QString::fromLatin1(error).replace(QLatin1Char('_'),
                                                                                QLatin1Char('-')))},
                     {QStringLiteral("title"),
                      status == 401 ? QStringLiteral("Unauthorized") : QStringLiteral("Forbidden")},
                     {QStringLiteral("status"), status},
                     {QStringLiteral("detail"), detail}};
    HttpResponse r = HttpResponse::text(status, QJsonDocument(body).toJson(QJsonDocument::Compact),
                                        "application/problem+json");
    QByteArray challenge = "Bearer realm=\"gatehouse\"";
    if (!error.isEmpty())
        challenge += ", error=\"" + error + "\", error_description=\"" + detail.toUtf8() + "\"";
    if (!scope.isEmpty())
        challenge += ", scope=\"" + scope.toUtf8() + "\"";
    r.setHeader("WWW-Authenticate", challenge);
    r.setHeader("Cache-Control", "no-store");
    return r;
}

// A token that could not be looked up is not refused as invalid (its client would throw a
// good token away): 503 with Retry-After while the database cannot be reached, else 500.
HttpResponse lookupFailed(const Core::Error &e)
{
    const bool unavailable = e.code == QLatin1String(Core::kDatabaseUnavailable);
    const int status = unavailable ? 503 : 500;
    QJsonObject body{
        {QStringLiteral("type"), QStringLiteral("urn:gatehouse:problem:") +
                                     (unavailable ? e.code : QStringLiteral("internal-error"))},
        {QStringLiteral("title"), unavailable ? QStringLiteral("Service Unavailable")
                                              : QStringLiteral("Internal Server Error")},
        {QStringLiteral("status"), status},
        {QStringLiteral("detail"),
         unavailable ? e.message : QStringLiteral("the access token could not be checked")}};
    HttpResponse r = HttpResponse::text(status, QJsonDocument(body).toJson(QJsonDocument::Compact),
                                        "application/problem+json");
    if (unavailable)
        r.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
    r.setHeader("Cache-Control", "no-store");
    return r;
}

} // namespace

Core::Filter OAuthApi::resourceServerFilter(const ClientCheck &forClient)
{
    return [this, forClient](const HttpRequest &req) -> std::optional<HttpResponse> {
        const bool write = req.method != "GET" && req.method != "HEAD";
        const QString needed =
            write ? QStringLiteral("orders:write") : QStringLiteral("orders:read");
        const QString token = req.bearerToken();
        if (token.isEmpty())
            return bearerProblem(
                401, {},
                QStringLiteral("a bearer token with the scope %1 is required").arg(needed));
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        const QString &resource = m_trust.ordersResource();
        QStringList scopes;
        QString clientId;
        QString parent; // the subject token it was exchanged from (RFC 8693), if any
        if (token.count(QLatin1Char('.')) == 2) {
            // A JWT access token: verified locally against the JWKS (RFC 9068 §4).
            auto verified = Crypto::Jws::verifyWithJwks(token.toUtf8(), m_keys.jwks());
            const QJsonObject claims =
                verified ? QJsonDocument::fromJson(verified->payload).object() : QJsonObject();
            if (!verified ||
                verified->header.value(QStringLiteral("typ"))
                        .toString()
                        .compare(QLatin1String("at+jwt"), Qt::CaseInsensitive) != 0 ||
                claims.value(QStringLiteral("iss")).toString() != m_issuer ||
                Core::jsonSeconds(claims.value(QStringLiteral("exp"))) * 1000 <= now)
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("the access token is not valid (signature, "
                                                    "type, issuer or expiry)"));
            // RFC 9068 §4: a token for another audience (another API, the cluster, a client's
            // own id) is not for this one.
            const QJsonValue aud = claims.value(QStringLiteral("aud"));
            bool forUs = aud.toString() == resource;
            for (const QJsonValue a : aud.toArray())
                forUs = forUs || a.toString() == resource;
            if (!forUs)
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("the access token is not for this API (its "
                                                    "audience is not %1)")
                                         .arg(resource));
            // Revocation reaches a JWT at once, as it does an opaque token (an administrator's,
            // a consent's, a user's lock or password change, a refresh token's reuse): the
            // token must still be recorded and not revoked. Retention removes a revoked row
            // only after it expired, so a missing row is refused too.
            const Core::ReadStatement q = m_database.read(
                "SELECT revoked_at, kind, parent, scope FROM oauth_tokens WHERE hash = ?");
            q->bind(1, TokenIssuer::storageKey(token));
            const bool found = q->next();
            if (!found && !q->ok())
                return lookupFailed(Core::Database::readFailed(*q));
            if (!found || !q->isNull(0) || q->text(1) != QLatin1String("access"))
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("the access token is unknown, expired or "
                                                    "revoked"));
            // The scope as stored: what an administrator took from the client since is gone
            // from it (narrowClientGrants), though the token's own text still names it.
            scopes = q->text(3).split(QLatin1Char(' '));
            clientId = claims.value(QStringLiteral("client_id")).toString();
            parent = q->text(2);
        } else {
            // Opaque: introspected (RFC 7662) in process.
            const Core::ReadStatement q = m_database.read(
                "SELECT scope, expires_at, revoked_at, kind, audience, client_id, parent FROM "
                "oauth_tokens WHERE hash = ?");
            q->bind(1, TokenIssuer::storageKey(token));
            const bool found = q->next();
            if (!found && !q->ok())
                return lookupFailed(Core::Database::readFailed(*q));
            if (!found || !q->isNull(2) || q->int64(1) <= now ||
                q->text(3) != QLatin1String("access"))
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("the access token is unknown, expired or "
                                                    "revoked"));
            if (q->text(4) != resource)
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("the access token is not for this API (its "
                                                    "audience is not %1)")
                                         .arg(resource));
            scopes = q->text(0).split(QLatin1Char(' '));
            clientId = q->text(5);
            parent = q->text(6);
        }
        const auto lookedUp = m_clients.lookup(clientId);
        if (!lookedUp)
            return lookupFailed(lookedUp.error());
        const std::optional<Client> &client = *lookedUp;
        if (!client)
            return bearerProblem(401, "invalid_token",
                                 QStringLiteral("the access token's client no longer exists"));
        // A scope an administrator took from the client is taken from its live tokens too, as
        // from its refresh tokens (the token's own text cannot change; the client's record and
        // the stored scope can).
        if (!client->scopes.contains(needed))
            return bearerProblem(403, "insufficient_scope",
                                 QStringLiteral("this request needs the scope %1, which the "
                                                "access token's client does not have")
                                     .arg(needed),
                                 needed);
        if (!scopes.contains(needed))
            return bearerProblem(403, "insufficient_scope",
                                 QStringLiteral("this request needs the scope %1").arg(needed),
                                 needed);
        if (!forClient)
            return std::nullopt;
        if (auto refused = forClient(req, *client))
            return refused;
        if (parent.isEmpty())
            return std::nullopt;
        // An exchanged token reaches no more than the tokens it was made from: the client of
        // every one of them up the chain is asked too (a client bound to customers did not
        // become unbound because a gateway, bound to others or to none, exchanged its user's
        // token), as it is now, so that narrowing one narrows what was exchanged from it.
        const auto ancestors = tokenChainClients(m_database, parent);
        if (!ancestors)
            return lookupFailed(ancestors.error());
        for (const QString &ancestorId : *ancestors) {
            if (ancestorId == clientId)
                continue;
            const auto ancestor = m_clients.lookup(ancestorId);
            if (!ancestor)
                return lookupFailed(ancestor.error());
            if (!*ancestor)
                return bearerProblem(401, "invalid_token",
                                     QStringLiteral("a client the access token was exchanged "
                                                    "from no longer exists"));
            if (auto refused = forClient(req, **ancestor))
                return refused;
        }
        return std::nullopt;
    };
}

} // namespace Gatehouse::OAuth
