#include "oauth/clientauthenticator.h"

#include "core/clock.h"
#include "oauth/assertions.h"
#include "oauth/form.h"

namespace Gatehouse::OAuth {

using Core::HttpRequest;

namespace {

// The client id and secret of HTTP Basic credentials (RFC 6749 §2.3.1: form-encoded, then
// Base64); nullopt when the header is not Basic, the pair without a colon: malformed.
std::optional<std::pair<QString, QString>> basicCredentials(const HttpRequest &req, bool *malformed)
{
    *malformed = false;
    const QByteArray authz = req.header("authorization");
    if (authz.left(6).compare("Basic ", Qt::CaseInsensitive) != 0)
        return std::nullopt;
    const QByteArray decoded = QByteArray::fromBase64(authz.mid(6).trimmed());
    const qsizetype colon = decoded.indexOf(':');
    if (colon < 0) {
        *malformed = true;
        return std::pair<QString, QString>();
    }
    return std::pair{formDecode(decoded.left(colon)), formDecode(decoded.mid(colon + 1))};
}

// The client a token request names (Basic or client_id), before it is authenticated.
QString namedClientId(const HttpRequest &req, const QHash<QString, QString> &form)
{
    bool malformed = false;
    if (const auto basic = basicCredentials(req, &malformed))
        return basic->first;
    return form.value(QStringLiteral("client_id"));
}

} // namespace

ClientAuthenticator::ClientAuthenticator(const ClientRegistry &clients, JtiCache &jti,
                                         const Core::Clock &clock, QString issuer)
    : m_clients(clients), m_jti(jti), m_clock(clock), m_issuer(std::move(issuer))
{}

std::optional<Client> ClientAuthenticator::named(const HttpRequest &req,
                                                 const QHash<QString, QString> &form) const
{
    return m_clients.find(namedClientId(req, form));
}

std::optional<OAuthError> ClientAuthenticator::authenticate(const HttpRequest &req,
                                                            const QHash<QString, QString> &form,
                                                            Client *client) const
{
    bool malformed = false;
    const auto credentials = basicCredentials(req, &malformed);
    const bool basic = credentials.has_value();
    const bool post = form.contains(QStringLiteral("client_secret"));
    const bool assertion = form.contains(QStringLiteral("client_assertion_type")) ||
                           form.contains(QStringLiteral("client_assertion"));
    // RFC 6749 §2.3: one method per request. Otherwise a client could pass with the method it
    // was not registered for beside the one it was.
    if (int(basic) + int(post) + int(assertion) > 1)
        return invalidRequest(QStringLiteral("use one client authentication method, not two"));
    QString id;
    QString secret;
    QString method;
    if (basic) {
        if (malformed)
            return invalidClient(QStringLiteral("malformed Basic credentials"), true);
        id = credentials->first;
        secret = credentials->second;
        method = QStringLiteral("client_secret_basic");
        // A client_id beside Basic names the same client, or the request is not one client's.
        if (form.contains(QStringLiteral("client_id")) &&
            form.value(QStringLiteral("client_id")) != id)
            return invalidRequest(QStringLiteral("client_id in the body is not the client of the "
                                                 "Basic credentials"));
    } else if (post) {
        id = form.value(QStringLiteral("client_id"));
        secret = form.value(QStringLiteral("client_secret"));
        method = QStringLiteral("client_secret_post");
    } else if (assertion) {
        return authenticateAssertion(form, client);
    } else {
        id = form.value(QStringLiteral("client_id"));
        method = QStringLiteral("none");
    }
    if (id.isEmpty())
        return invalidClient(QStringLiteral("client authentication is required"), basic);
    const auto lookedUp = m_clients.lookup(id);
    if (!lookedUp) // not read (the database cannot be reached): try again, not "unknown"
        return storageError(lookedUp.error(), QStringLiteral("the client could not be read"));
    const std::optional<Client> &found = *lookedUp;
    // Fail closed with one answer for an unknown client and a wrong secret.
    if (!found)
        return invalidClient(QStringLiteral("unknown client or wrong credentials"), basic);
    // The secret before the method: how a client authenticates is told only to whoever holds
    // its secret (or sent none).
    if (method != QLatin1String("none") && !ClientRegistry::secretMatches(*found, secret))
        return invalidClient(QStringLiteral("unknown client or wrong credentials"), basic);
    if (found->tokenEndpointAuthMethod != method)
        return invalidClient(
            QStringLiteral("this client authenticates with %1").arg(found->tokenEndpointAuthMethod),
            basic);
    if (auto ended = credentialsEnded(*found, basic))
        return ended;
    *client = *found;
    return std::nullopt;
}

std::optional<OAuthError>
ClientAuthenticator::authenticateAssertion(const QHash<QString, QString> &form,
                                           Client *client) const
{
    // RFC 7523 §2.2 / RFC 7521 §4.2: a JWT signed with one of the client's registered keys.
    if (form.value(QStringLiteral("client_assertion_type")) !=
        QLatin1String("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
        return invalidClient(
            QStringLiteral("client_assertion_type must be "
                           "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            false);
    const QByteArray assertion = form.value(QStringLiteral("client_assertion")).toUtf8();
    if (assertion.isEmpty())
        return invalidClient(QStringLiteral("client_assertion is required"), false);
    const QString id = peekIssuer(assertion);
    const QString named = form.value(QStringLiteral("client_id"));
    if (id.isEmpty() || (!named.isEmpty() && named != id))
        return invalidClient(QStringLiteral("the assertion's iss must be the client_id"), false);
    const auto lookedUp = m_clients.lookup(id);
    if (!lookedUp) // not read (the database cannot be reached): try again, not "unknown"
        return storageError(lookedUp.error(), QStringLiteral("the client could not be read"));
    const std::optional<Client> &found = *lookedUp;
    if (!found || found->tokenEndpointAuthMethod != QLatin1String("private_key_jwt"))
        return invalidClient(QStringLiteral("unknown client or not a private_key_jwt client"),
                             false);
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    // `aud` is the issuer identifier, one string (draft-ietf-oauth-rfc7523bis, after the
    // OpenID Foundation's 2025 disclosure): an authorization server of the attacker's that names
    // this server's token endpoint as its own got assertions a client made for it with that URL
    // (or a list holding it) as their aud, good here as that client's credentials.
    auto claims = verifyAssertion(assertion, found->jwks, id, id, {m_issuer}, now, 600);
    if (!claims)
        return invalidClient(claims.error().message, false);
    if (!claims->value(QStringLiteral("aud")).isString())
        return invalidClient(QStringLiteral("aud must be this server's issuer identifier (%1) "
                                            "as one string, not a list")
                                 .arg(m_issuer),
                             false);
    if (!m_jti.claim(id, claims->value(QStringLiteral("jti")).toString(), jtiKeptUntilMs(*claims),
                     now))
        return invalidClient(QStringLiteral("this client_assertion was already used (jti)"), false);
    if (auto ended = credentialsEnded(*found, false))
        return ended;
    *client = *found;
    return std::nullopt;
}

std::optional<OAuthError> ClientAuthenticator::credentialsEnded(const Client &c, bool basic) const
{
    // Told only to whoever proved to hold them (checked after the proof).
    if (!c.credentialsEnded(m_clock.now().toMSecsSinceEpoch()))
        return std::nullopt;
    return invalidClient(
        QStringLiteral("this client's credentials ended at %1, with the admin token that issued "
                       "them: an administrator can issue new ones (rotate-secret)")
            .arg(Core::isoTimeMs(c.credentialsUntil)),
        basic);
}

} // namespace Gatehouse::OAuth
