#include "oauth/clientcredentialsgrant.h"

#include "core/jsonwriter.h"
#include "oauth/clientauthenticator.h"

#include <QUrl>

namespace Gatehouse::OAuth {

bool ClientCredentialsGrant::runsInline(const QHash<QString, QString> &params,
                                        const NamedClient &client) const
{
    // Signing (RSA, ECDSA) and client assertions run on the server's pool. An opaque token
    // needs neither (a SHA-256 of the secret, random bytes, a hash) and is made on the
    // connection's thread: handing it to the pool cost more than making it (a thread woken
    // per request). Only the client's cached record is read here, the form is not copied.
    if (params.contains(QStringLiteral("client_assertion")))
        return false;
    const auto named = client.find();
    return named && named->accessTokenFormat == QLatin1String("opaque");
}

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
    // RFC 8707 resource indicator: an absolute URI without fragment, from the client's
    // allow-list (the orders API's for a client holding an orders scope), becomes the
    // audience; none requested: the default resource of the scopes.
    QString audience;
    if (req.params.contains(QStringLiteral("resource"))) {
        const QString resource = req.params.value(QStringLiteral("resource"));
        const QUrl r(resource, QUrl::StrictMode);
        if (!r.isValid() || r.isRelative() || r.hasFragment()) {
            out.error = OAuthError{QStringLiteral("invalid_target"),
                                   QStringLiteral("resource must be an absolute URI without a "
                                                  "fragment")};
            return out;
        }
        if (!m_issuer.mayRequestResource(c, resource)) {
            out.error = OAuthError{QStringLiteral("invalid_target"),
                                   QStringLiteral("resource '%1' is not among this client's "
                                                  "allowed_resources")
                                       .arg(resource.left(200))};
            return out;
        }
        audience = resource;
        noteSource(req.sources, QStringLiteral("aud"), QStringLiteral("request"),
                   QStringLiteral("the resource parameter (RFC 8707), allowed by the client "
                                  "record"));
    } else {
        audience = m_issuer.defaultAudience(c, scopes, req.sources);
    }
    noteSource(req.sources, QStringLiteral("sub"), QStringLiteral("clientRecord"),
               QStringLiteral("client_id: a client_credentials client acts for itself"));
    auto token = m_issuer.accessToken(c, c.clientId, scopes.join(QLatin1Char(' ')), audience,
                                      req.now, {}, req.sources);
    if (!token) {
        out.error =
            issuingError(token.error().code, token.error().message, token.error().httpStatus);
        return out;
    }
    // Serialized here, on the thread that signed: the members in a QJsonObject's order.
    Core::JsonObjectWriter body;
    body.add("access_token", token->value).add("expires_in", token->expiresIn(req.now));
    if (!token->scope.isEmpty())
        body.add("scope", token->scope);
    body.add("token_type", u"Bearer");
    out.responseBody = body.finish();
    out.tokens.append(*token);
    return out;
}

} // namespace Gatehouse::OAuth
