#include "oauth/granthandler.h"

#include "core/jsonwriter.h"

#include <QUrl>

namespace Gatehouse::OAuth {

GrantResult ClientCredentialsGrant::handle(const TokenRequest &req) const
{
    GrantResult out;
    const Client &c = req.client;
    if (!c.confidential()) {
        out.error =
            unauthorizedClient(QStringLiteral("a public client cannot use client_credentials"));
        return out;
    }
    if (!c.grantTypes.contains(grantType())) {
        out.error = unauthorizedClient(
            QStringLiteral("client_credentials is not among this client's grant_types"));
        return out;
    }
    // Scopes: a subset of the client's allowed scopes; none asked for: all of them.
    QStringList scopes =
        req.params.value(QStringLiteral("scope")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &s : std::as_const(scopes)) {
        if (!c.scopes.contains(s)) {
            out.error =
                invalidScope(QStringLiteral("scope '%1' is not allowed for this client").arg(s));
            return out;
        }
    }
    noteSource(req.sources, QStringLiteral("scope"),
               scopes.isEmpty() ? QStringLiteral("clientRecord") : QStringLiteral("requestedScope"),
               scopes.isEmpty() ? QStringLiteral("no scope requested: all the client's allowed "
                                                 "scopes")
                                : QStringLiteral("the scope parameter, each allowed by the client "
                                                 "record"));
    if (scopes.isEmpty())
        scopes = c.scopes;
    scopes.removeDuplicates();
    // RFC 8707 resource indicator: an absolute URI without fragment becomes the audience.
    QString audience = c.clientId;
    if (req.params.contains(QStringLiteral("resource"))) {
        const QUrl r(req.params.value(QStringLiteral("resource")), QUrl::StrictMode);
        if (!r.isValid() || r.isRelative() || r.hasFragment()) {
            out.error = OAuthError{QStringLiteral("invalid_target"),
                                   QStringLiteral("resource must be an absolute URI without a "
                                                  "fragment")};
            return out;
        }
        audience = r.toString();
    }
    noteSource(req.sources, QStringLiteral("aud"),
               audience == c.clientId ? QStringLiteral("clientRecord") : QStringLiteral("request"),
               audience == c.clientId
                   ? QStringLiteral("no resource requested: the client's own client_id")
                   : QStringLiteral("the resource parameter (RFC 8707)"));
    noteSource(req.sources, QStringLiteral("sub"), QStringLiteral("clientRecord"),
               QStringLiteral("client_id: a client_credentials client acts for itself"));
    auto token = m_issuer.accessToken(c, c.clientId, scopes.join(QLatin1Char(' ')), audience,
                                      req.now, {}, req.sources);
    if (!token) {
        out.error = OAuthError{QStringLiteral("server_error"), token.error().message, 500};
        return out;
    }
    // Serialized here, on the thread that signed: the members in a QJsonObject's order.
    Core::JsonObjectWriter body;
    body.add("access_token", token->value).add("expires_in", qint64(c.accessTokenLifetime));
    if (!token->scope.isEmpty())
        body.add("scope", token->scope);
    body.add("token_type", u"Bearer");
    out.responseBody = body.finish();
    out.tokens.append(*token);
    return out;
}

} // namespace Gatehouse::OAuth
