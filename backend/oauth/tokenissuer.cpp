#include "oauth/tokenissuer.h"

#include "core/jsonwriter.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "oauth/signingkeys.h"
#include "oauth/trustsettings.h"
#include "oauth/userstore.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace Gatehouse::OAuth {

TokenIssuer::TokenIssuer(SigningKeys &keys, QString issuer)
    : m_keys(keys), m_issuer(std::move(issuer))
{}

QString TokenIssuer::hashToken(const QString &token)
{
    return QString::fromLatin1(
        Crypto::Digest::sha256(token.toUtf8())
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

namespace {

constexpr int kTimeDigits = 12;

// The 12 hex digits in front of a time-ordered value, or an empty view.
QStringView timePrefix(QStringView v)
{
    if (v.size() <= kTimeDigits || v.at(kTimeDigits) != QLatin1Char('.'))
        return {};
    for (int i = 0; i < kTimeDigits; ++i) {
        const char16_t c = v.at(i).unicode();
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            return {};
    }
    return v.left(kTimeDigits);
}

} // namespace

QString TokenIssuer::timeOrderedValue(qint64 nowMs, int randomBytes)
{
    return QStringLiteral("%1.").arg(quint64(std::max<qint64>(nowMs, 0)), kTimeDigits, 16,
                                     QLatin1Char('0')) +
           Crypto::Random::token(randomBytes);
}

QString TokenIssuer::storageKey(const QString &token)
{
    QStringView issued = timePrefix(token); // an opaque value of this build
    QString jti;
    if (issued.isEmpty() && token.count(QLatin1Char('.')) == 2) { // a JWT: its jti
        // Unverified: only to find the stored row, whose key also holds the whole value's hash.
        if (auto jws = Crypto::Jws::decodeUnverified(token.toLatin1()))
            jti = jws->value(QLatin1String("payload"))
                      .toObject()
                      .value(QLatin1String("jti"))
                      .toString();
        issued = timePrefix(jti);
    }
    if (issued.isEmpty())
        return hashToken(token);
    return issued.toString() + QLatin1Char('.') + hashToken(token);
}

QString TokenIssuer::keyPrefix(const QString &key)
{
    const qsizetype dot = key.indexOf(QLatin1Char('.'));
    return key.left(dot < 0 ? 8 : dot + 1 + 8);
}

void removeClaimsOfScopesTaken(QJsonObject &claims, const QStringList &scopesInForce)
{
    struct ScopeClaims
    {
        const char *scope;
        const char *claims[2]; // nullptr: none
    };
    static constexpr ScopeClaims byScope[] = {{"email", {"email", "email_verified"}},
                                              {"profile", {"name", "preferred_username"}},
                                              {"groups", {"groups", nullptr}}};
    for (const ScopeClaims &s : byScope)
        if (!scopesInForce.contains(QLatin1String(s.scope)))
            for (const char *name : s.claims)
                if (name)
                    claims.remove(QLatin1String(name));
}

QJsonObject scopedUserClaims(const User &user, const QStringList &scopes, bool accessToken,
                             ClaimSources *sources)
{
    QJsonObject o;
    // Only the token preview asks for sources; the token endpoint skips the texts.
    const QString who = sources ? QStringLiteral("user \"%1\"").arg(user.username) : QString();
    if (scopes.contains(QStringLiteral("email")) && !user.email.isEmpty()) {
        o.insert(QStringLiteral("email"), user.email);
        o.insert(QStringLiteral("email_verified"), user.emailVerified);
        noteSource(sources, QStringLiteral("email"), QStringLiteral("userAttribute"),
                   QStringLiteral("email of %1, granted by scope email").arg(who));
        noteSource(sources, QStringLiteral("email_verified"), QStringLiteral("userAttribute"),
                   QStringLiteral("email_verified of %1, granted by scope email").arg(who));
    }
    if (!accessToken && scopes.contains(QStringLiteral("profile"))) {
        if (!user.name.isEmpty()) {
            o.insert(QStringLiteral("name"), user.name);
            noteSource(sources, QStringLiteral("name"), QStringLiteral("userAttribute"),
                       QStringLiteral("name of %1, granted by scope profile").arg(who));
        }
        o.insert(QStringLiteral("preferred_username"), user.username);
        noteSource(sources, QStringLiteral("preferred_username"), QStringLiteral("userAttribute"),
                   QStringLiteral("username of %1, granted by scope profile").arg(who));
    }
    if (scopes.contains(QStringLiteral("groups"))) {
        o.insert(QStringLiteral("groups"), QJsonArray::fromStringList(user.groups));
        noteSource(sources, QStringLiteral("groups"), QStringLiteral("group"),
                   QStringLiteral("the groups of %1 (%2), granted by scope groups")
                       .arg(who, user.groups.isEmpty() ? QStringLiteral("none")
                                                       : user.groups.join(QStringLiteral(", "))));
    }
    return o;
}

Core::Result<QString> TokenIssuer::sign(const QJsonObject &claims, const char *typ,
                                        const QString &alg) const
{
    return signPayload(QJsonDocument(claims).toJson(QJsonDocument::Compact), typ, alg);
}

Core::Result<QString> TokenIssuer::signPayload(const QByteArray &payload, const char *typ,
                                               const QString &alg) const
{
    const SigningKeys::Active key = m_keys.active(alg);
    if (key.kid.isEmpty())
        return Core::makeError(QStringLiteral("server_error"),
                               QStringLiteral("no active signing key"), 500);
    auto jws = Crypto::Jws::sign(key.key, key.alg,
                                 QJsonObject{{QStringLiteral("alg"), key.alg},
                                             {QStringLiteral("kid"), key.kid},
                                             {QStringLiteral("typ"), QLatin1String(typ)}},
                                 payload);
    if (!jws)
        return jws.error();
    return QString::fromLatin1(*jws);
}

std::optional<Core::Error> TokenIssuer::audienceRefusal(const Client &client,
                                                        const QString &audience) const
{
    if (!m_trust || !m_trust->isClusterAudience(audience) || client.clusterAccess)
        return std::nullopt;
    return Core::Error{QStringLiteral("unauthorized_client"),
                       QStringLiteral("'%1' is the cluster API's audience (oidc-client-id), and "
                                      "an administrator has not allowed this client to act for "
                                      "the cluster")
                           .arg(audience),
                       400};
}

bool TokenIssuer::mayRequestResource(const Client &client, const QString &resource) const
{
    const bool orders =
        m_trust && resource == m_trust->ordersResource() &&
        std::any_of(client.scopes.begin(), client.scopes.end(),
                    [](const QString &s) { return s.startsWith(QLatin1String("orders:")); });
    return orders || client.allowedResources.contains(resource);
}

QString TokenIssuer::defaultAudience(const Client &client, const QStringList &scopes,
                                     ClaimSources *sources) const
{
    const bool orders = std::any_of(scopes.begin(), scopes.end(), [](const QString &s) {
        return s.startsWith(QLatin1String("orders:"));
    });
    if (orders && m_trust && !m_trust->ordersResource().isEmpty()) {
        noteSource(sources, QStringLiteral("aud"), QStringLiteral("requestedScope"),
                   QStringLiteral("an orders scope and no resource requested: the orders API's "
                                  "resource indicator (orders-resource)"));
        return m_trust->ordersResource();
    }
    noteSource(sources, QStringLiteral("aud"), QStringLiteral("clientRecord"),
               QStringLiteral("no resource requested: the client's own client_id"));
    return client.clientId;
}

Core::Result<IssuedToken> TokenIssuer::accessToken(const Client &client, const QString &subject,
                                                   const QString &scope, const QString &audience,
                                                   qint64 now, const QJsonObject &extraClaims,
                                                   ClaimSources *sources, qint64 notAfter) const
{
    if (auto refused = audienceRefusal(client, audience))
        return *refused;
    if (sources) { // the token preview only: no work on the token endpoint's path
        noteSource(sources, QStringLiteral("iss"), QStringLiteral("server"),
                   QStringLiteral("this server's issuer (public-base-url)"));
        noteSource(sources, QStringLiteral("iat"), QStringLiteral("time"),
                   QStringLiteral("the time of issue"));
        noteSource(sources, QStringLiteral("exp"), QStringLiteral("clientRecord"),
                   QStringLiteral("issue time + the client's access_token_lifetime (%1 s)")
                       .arg(client.accessTokenLifetime));
        noteSource(sources, QStringLiteral("client_id"), QStringLiteral("clientRecord"),
                   QStringLiteral("client_id of the client record"));
        if (client.accessTokenFormat != QLatin1String("opaque"))
            noteSource(sources, QStringLiteral("jti"), QStringLiteral("random"),
                       QStringLiteral("the time of issue (ms, hex) and 128 random bits, new for "
                                      "every token"));
    }
    IssuedToken t;
    t.format = client.accessTokenFormat;
    t.clientId = client.clientId;
    t.subject = subject;
    t.scope = scope;
    t.audience = audience;
    t.issuedAt = now;
    t.expiresAt = now + qint64(client.accessTokenLifetime) * 1000;
    // A client whose credentials end (an expiring admin token issued them): its tokens too.
    if (const qint64 end = client.credentialsEnd(); end > 0 && (notAfter <= 0 || end < notAfter))
        notAfter = end;
    if (notAfter > 0 && notAfter < t.expiresAt)
        t.expiresAt = std::max(now, notAfter) / 1000 * 1000; // whole seconds, as exp says
    // The storage key is the time in front of the value (or of the jti) and the value's hash.
    QString issued;
    if (t.format == QLatin1String("opaque")) {
        t.value = timeOrderedValue(now, 32);
        issued = t.value.left(kTimeDigits);
    } else {
        const QString jti = timeOrderedValue(now, 16);
        issued = jti.left(kTimeDigits);
        // The claims in the order a QJsonObject would write them (sorted keys); extra claims
        // (another grant's) may replace a standard one, so that case goes through QJsonObject.
        Core::Result<QString> jwt = QString();
        if (extraClaims.isEmpty()) {
            Core::JsonObjectWriter claims;
            claims.add("aud", audience)
                .add("client_id", client.clientId)
                .add("exp", t.expiresAt / 1000)
                .add("iat", now / 1000)
                .add("iss", m_issuer)
                .add("jti", jti);
            if (!scope.isEmpty())
                claims.add("scope", scope);
            claims.add("sub", subject);
            jwt = signPayload(claims.finish(), "at+jwt", client.accessTokenSigningAlg);
        } else {
            QJsonObject claims{{QStringLiteral("iss"), m_issuer},
                               {QStringLiteral("sub"), subject},
                               {QStringLiteral("aud"), audience},
                               {QStringLiteral("exp"), t.expiresAt / 1000},
                               {QStringLiteral("iat"), now / 1000},
                               {QStringLiteral("jti"), jti},
                               {QStringLiteral("client_id"), client.clientId}};
            if (!scope.isEmpty())
                claims.insert(QStringLiteral("scope"), scope);
            for (auto it = extraClaims.begin(); it != extraClaims.end(); ++it)
                claims.insert(it.key(), it.value());
            jwt = sign(claims, "at+jwt", client.accessTokenSigningAlg);
        }
        if (!jwt)
            return jwt.error();
        t.value = *jwt;
    }
    t.hash = issued + QLatin1Char('.') + hashToken(t.value);
    return t;
}

IssuedToken TokenIssuer::refreshToken(const Client &client, const IssuedToken &access, qint64 now,
                                      qint64 notAfter) const
{
    IssuedToken t = access;
    t.kind = QStringLiteral("refresh");
    t.format = QStringLiteral("opaque");
    t.clientId = client.clientId;
    t.value = timeOrderedValue(now, 32);
    t.hash = storageKey(t.value);
    t.issuedAt = now;
    t.expiresAt = now + m_refreshLifetimeMs;
    if (m_refreshMaxLifetimeMs > 0 && t.authTime > 0)
        t.expiresAt = std::min(t.expiresAt, t.authTime + m_refreshMaxLifetimeMs);
    for (const qint64 end : {client.credentialsEnd(), notAfter})
        if (end > 0)
            t.expiresAt = std::max(now, std::min(t.expiresAt, end));
    return t;
}

Core::Result<IssuedToken> TokenIssuer::idToken(const Client &client, const User &user,
                                               const QStringList &scopes, const QString &nonce,
                                               qint64 authTime, const IssuedToken &access,
                                               qint64 now) const
{
    if (auto refused = audienceRefusal(client, client.clientId))
        return *refused;
    // at_hash: the left half of SHA-256 of the access token, base64url (OIDC Core §3.1.3.6).
    const QByteArray digest = Crypto::Digest::sha256(access.value.toLatin1());
    const QString jti = timeOrderedValue(now, 16);
    // As the access token: not past the client's credentials (Client::credentialsUntil) nor
    // the user's password (User::passwordUntil).
    qint64 expS = now / 1000 + client.accessTokenLifetime;
    for (const qint64 end : {client.credentialsEnd(), user.passwordUntil})
        if (end > 0)
            expS = std::max(now / 1000, std::min(expS, end / 1000));
    QJsonObject claims{{QStringLiteral("iss"), m_issuer},
                       {QStringLiteral("sub"), user.id},
                       {QStringLiteral("aud"), client.clientId},
                       {QStringLiteral("exp"), expS},
                       {QStringLiteral("iat"), now / 1000},
                       {QStringLiteral("jti"), jti},
                       {QStringLiteral("auth_time"), authTime / 1000},
                       {QStringLiteral("at_hash"),
                        QString::fromLatin1(digest.left(16).toBase64(
                            QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals))}};
    if (!nonce.isEmpty())
        claims.insert(QStringLiteral("nonce"), nonce);
    const QJsonObject extra = scopedUserClaims(user, scopes, false);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        claims.insert(it.key(), it.value());
    auto signed_ = sign(claims, "JWT", client.idTokenSigningAlg);
    if (!signed_)
        return signed_.error();
    IssuedToken t = access;
    // Revoked with the access token it came with (revokeDescendants): an id_token is a bearer
    // credential where the cluster accepts the issuer's tokens.
    t.parent = access.hash;
    t.kind = QStringLiteral("id");
    t.format = QStringLiteral("jwt");
    t.value = *signed_;
    t.hash = jti.left(kTimeDigits) + QLatin1Char('.') + hashToken(t.value);
    t.scope = scopes.join(QLatin1Char(' '));
    t.audience = client.clientId;
    t.issuedAt = now;
    t.expiresAt = expS * 1000;
    return t;
}

Core::Result<void> TokenIssuer::store(Core::WriteTransaction &tx, const IssuedToken &t)
{
    Core::Statement &q = tx.stmt(
        "INSERT INTO oauth_tokens (hash, kind, format, client_id, subject, scope, audience, "
        "issued_at, expires_at, family, code_hash, auth_time, origin, parent, act) VALUES (?, ?, "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    // A null QString binds NULL: an empty scope (a client with none, an exchange that kept
    // none) is the empty text, not a refused NOT NULL.
    auto text = [](const QString &v) { return v.isNull() ? QString(QLatin1String("")) : v; };
    q.bind(1, t.hash).bind(2, t.kind).bind(3, t.format).bind(4, t.clientId).bind(5, t.subject);
    q.bind(6, text(t.scope)).bind(7, text(t.audience)).bind(8, t.issuedAt).bind(9, t.expiresAt);
    q.bindTextOrNull(10, t.family).bindTextOrNull(11, t.codeHash);
    if (t.authTime)
        q.bind(12, t.authTime);
    else
        q.bindNull(12);
    q.bindTextOrNull(13, t.origin).bindTextOrNull(14, t.parent);
    if (t.act.isEmpty())
        q.bindNull(15);
    else
        q.bindUtf8(15, t.act);
    if (!q.exec())
        return Core::WriteTransaction::sqlError(q, "store token");
    return {};
}

} // namespace Gatehouse::OAuth
