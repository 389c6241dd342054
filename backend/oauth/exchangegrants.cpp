// Grants that take a JWT from elsewhere: RFC 7523 §2.1 (jwt-bearer) and RFC 8693 (token
// exchange).
#include "core/database.h"
#include "oauth/assertions.h"
#include "oauth/granthandler.h"
#include "oauth/signingkeys.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QUrl>

namespace Gatehouse::OAuth {

namespace {

const QString kAccessToken = QStringLiteral("urn:ietf:params:oauth:token-type:access_token");
const QString kJwt = QStringLiteral("urn:ietf:params:oauth:token-type:jwt");
const QString kIdToken = QStringLiteral("urn:ietf:params:oauth:token-type:id_token");

GrantResult failed(const OAuthError &e)
{
    GrantResult r;
    r.error = e;
    return r;
}

OAuthError invalidTarget(const QString &d)
{
    return {QStringLiteral("invalid_target"), d};
}

// A local user named by `sub` (id or username) gets the user's id and scoped claims.
QJsonObject subjectClaims(const UserStore &users, QString *sub, const QStringList &scopes,
                          ClaimSources *sources = nullptr)
{
    if (const auto user = users.find(*sub)) {
        *sub = user->id;
        return scopedUserClaims(*user, scopes, true, sources);
    }
    return {};
}

} // namespace

GrantResult JwtBearerGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("the jwt-bearer grant is not among this client's grant_types")));
    const QByteArray assertion = req.params.value(QStringLiteral("assertion")).toUtf8();
    if (assertion.isEmpty())
        return failed(invalidRequest(QStringLiteral("assertion is required")));
    const QString iss = peekIssuer(assertion);
    const auto trusted = m_trusted.find(iss);
    if (!trusted)
        return failed(invalidGrant(QStringLiteral("the assertion's issuer is not trusted")));
    const QString self = m_issuer.issuer();
    auto claims = verifyAssertion(assertion, trusted->jwks, iss, {},
                                  {self, self + QStringLiteral("/oauth2/token")}, req.now);
    if (!claims)
        return failed(invalidGrant(claims.error().message));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return failed(*e);
    if (!m_jti.claim(iss, claims->value(QStringLiteral("jti")).toString(),
                     qint64(claims->value(QStringLiteral("exp")).toDouble()) * 1000 + 60'000,
                     req.now))
        return failed(invalidGrant(QStringLiteral("this assertion was already used (jti)")));
    QString sub = claims->value(QStringLiteral("sub")).toString();
    const QJsonObject extra = subjectClaims(m_users, &sub, scopes);
    auto token =
        m_issuer.accessToken(c, sub, scopes.join(QLatin1Char(' ')), c.clientId, req.now, extra);
    if (!token)
        return failed({QStringLiteral("server_error"), token.error().message, 500});
    GrantResult out;
    out.response = QJsonObject{{QStringLiteral("access_token"), token->value},
                               {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                               {QStringLiteral("expires_in"), c.accessTokenLifetime},
                               {QStringLiteral("scope"), token->scope}};
    out.tokens.append(*token);
    return out;
}

std::optional<OAuthError> TokenExchangeGrant::resolve(const QString &token, const QString &type,
                                                      const Client &client, qint64 now,
                                                      Subject *out) const
{
    if (type != kAccessToken && type != kJwt && type != kIdToken)
        return invalidRequest(
            QStringLiteral("token type '%1' is not supported (access_token, jwt, id_token)")
                .arg(type));
    const QString self = m_issuer.issuer();
    if (type == kAccessToken) {
        // One of ours, opaque or JWT: looked up by its hash.
        QSqlQuery q(m_database.connection());
        q.prepare(QStringLiteral("SELECT subject, scope, expires_at, revoked_at, kind FROM "
                                 "oauth_tokens WHERE hash = ?"));
        q.addBindValue(TokenIssuer::storageKey(token));
        if (q.exec() && q.next()) {
            if (!q.value(3).isNull() || q.value(2).toLongLong() <= now ||
                q.value(4).toString() != QLatin1String("access"))
                return invalidGrant(QStringLiteral("the token is expired or revoked"));
            out->sub = q.value(0).toString();
            out->iss = self;
            out->scopes = q.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            out->scopesKnown = true;
            return std::nullopt;
        }
    }
    // A JWT: this server's (an id_token must be for the exchanging client) or a trusted
    // issuer's (it must name this server as audience).
    const QByteArray compact = token.toUtf8();
    const QString iss = peekIssuer(compact);
    Core::Result<QJsonObject> claims = Core::Error{};
    if (iss == self) {
        const QStringList audiences =
            type == kIdToken ? QStringList{client.clientId} : QStringList{};
        claims =
            verifyAssertion(compact, m_keys.jwks(), self, {}, audiences, now, 400 * 86400, false);
        if (claims && type != kIdToken) {
            // Our JWT access tokens are valid only while not revoked.
            QSqlQuery q(m_database.connection());
            q.prepare(QStringLiteral("SELECT revoked_at, scope FROM oauth_tokens WHERE hash = ?"));
            q.addBindValue(TokenIssuer::storageKey(token));
            if (!q.exec() || !q.next() || !q.value(0).isNull())
                return invalidGrant(QStringLiteral("the token is unknown or revoked"));
            out->scopes = q.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            out->scopesKnown = true;
        }
    } else if (const auto trusted = m_trusted.find(iss)) {
        claims = verifyAssertion(compact, trusted->jwks, iss, {},
                                 {self, self + QStringLiteral("/oauth2/token")}, now, 400 * 86400,
                                 false);
    } else {
        return invalidGrant(
            QStringLiteral("the token is not from this server or a trusted issuer"));
    }
    if (!claims)
        return invalidGrant(claims.error().message);
    out->sub = claims->value(QStringLiteral("sub")).toString();
    out->iss = iss;
    return std::nullopt;
}

GrantResult TokenExchangeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    if (!c.grantTypes.contains(grantType()))
        return failed(unauthorizedClient(
            QStringLiteral("token exchange is not among this client's grant_types")));
    const QString subjectToken = req.params.value(QStringLiteral("subject_token"));
    const QString subjectType = req.params.value(QStringLiteral("subject_token_type"));
    if (subjectToken.isEmpty() || subjectType.isEmpty())
        return failed(
            invalidRequest(QStringLiteral("subject_token and subject_token_type are required")));
    const QString requested = req.params.value(QStringLiteral("requested_token_type"));
    if (!requested.isEmpty() && requested != kAccessToken && requested != kJwt)
        return failed(
            invalidRequest(QStringLiteral("requested_token_type must be access_token or jwt")));
    const QString actorToken = req.params.value(QStringLiteral("actor_token"));
    const QString actorType = req.params.value(QStringLiteral("actor_token_type"));
    if (actorToken.isEmpty() != actorType.isEmpty())
        return failed(
            invalidRequest(QStringLiteral("actor_token and actor_token_type go together")));
    Subject subject;
    if (auto e = resolve(subjectToken, subjectType, c, req.now, &subject))
        return failed(*e);
    std::optional<Subject> actor;
    if (!actorToken.isEmpty()) {
        actor.emplace();
        if (auto e = resolve(actorToken, actorType, c, req.now, &*actor))
            return failed(*e);
    }
    // Audience: `audience` and / or `resource`, each allowed by the client's record.
    QStringList targets;
    for (const char *p : {"audience", "resource"}) {
        const QString v = req.params.value(QLatin1String(p));
        if (v.isEmpty())
            continue;
        if (QLatin1String(p) == QLatin1String("resource")) {
            const QUrl u(v, QUrl::StrictMode);
            if (!u.isValid() || u.isRelative() || u.hasFragment())
                return failed(invalidTarget(
                    QStringLiteral("resource must be an absolute URI without a fragment")));
        }
        if (!c.tokenExchangeAudiences.contains(v))
            return failed(invalidTarget(
                QStringLiteral("this client may not exchange tokens for '%1'").arg(v)));
        targets.append(v);
    }
    targets.removeDuplicates();
    if (targets.size() > 1)
        return failed(invalidTarget(QStringLiteral("name one audience")));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return failed(*e);
    if (subject.scopesKnown) {
        // Never more than the subject token had.
        if (req.params.contains(QStringLiteral("scope"))) {
            for (const QString &s : std::as_const(scopes))
                if (!subject.scopes.contains(s))
                    return failed(invalidScope(
                        QStringLiteral("scope '%1' exceeds the subject token's").arg(s)));
        } else {
            scopes.removeIf([&subject](const QString &s) { return !subject.scopes.contains(s); });
        }
    }
    QString sub = subject.sub;
    QJsonObject extra = subjectClaims(m_users, &sub, scopes, req.sources);
    if (req.sources)
        noteSource(req.sources, QStringLiteral("sub"), QStringLiteral("subjectToken"),
                   QStringLiteral("the subject token's subject (issuer %1)").arg(subject.iss));
    noteSource(req.sources, QStringLiteral("scope"),
               req.params.contains(QStringLiteral("scope")) ? QStringLiteral("requestedScope")
               : subject.scopesKnown                        ? QStringLiteral("subjectToken")
                                                            : QStringLiteral("clientRecord"),
               req.params.contains(QStringLiteral("scope"))
                   ? QStringLiteral("the scope parameter, within the client record and the "
                                    "subject token's scope")
               : subject.scopesKnown
                   ? QStringLiteral("no scope requested: the client's allowed scopes that the "
                                    "subject token also had")
                   : QStringLiteral("no scope requested: all the client's allowed scopes"));
    noteSource(
        req.sources, QStringLiteral("aud"),
        targets.isEmpty() ? QStringLiteral("clientRecord") : QStringLiteral("exchangePolicy"),
        targets.isEmpty() ? QStringLiteral("no audience requested: the client's own client_id")
                          : QStringLiteral("requested and allowed by the client's "
                                           "token_exchange_audiences"));
    if (actor) {
        QJsonObject act{{QStringLiteral("sub"), actor->sub}};
        if (actor->iss != m_issuer.issuer())
            act.insert(QStringLiteral("iss"), actor->iss);
        extra.insert(QStringLiteral("act"), act);
        noteSource(req.sources, QStringLiteral("act"), QStringLiteral("actorToken"),
                   QStringLiteral("delegation: the actor token's subject acts for the subject "
                                  "(RFC 8693 §4.1)"));
    }
    auto token = m_issuer.accessToken(c, sub, scopes.join(QLatin1Char(' ')),
                                      targets.isEmpty() ? c.clientId : targets.first(), req.now,
                                      extra, req.sources);
    if (!token)
        return failed({QStringLiteral("server_error"), token.error().message, 500});
    GrantResult out;
    out.response = QJsonObject{{QStringLiteral("access_token"), token->value},
                               {QStringLiteral("issued_token_type"), kAccessToken},
                               {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                               {QStringLiteral("expires_in"), c.accessTokenLifetime},
                               {QStringLiteral("scope"), token->scope}};
    out.tokens.append(*token);
    return out;
}

} // namespace Gatehouse::OAuth
