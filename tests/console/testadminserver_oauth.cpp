// TestAdminServer's OAuth administration (docs/oauth.md): the client registry with the
// backend's validation (ClientRegistry::fromMetadata), active tokens, minting
// client_credentials tokens and the JWT inspector (oauth/jwtinspector.cpp), answering with
// the real backend's shapes, codes and messages.

#include "testadminserver.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>
#include <QTcpSocket>

#include <algorithm>
#include <cmath>

namespace {

constexpr auto Kid = "test-key-1";
const QByteArray SigningKey = "gatehouse-console-test-signing-key";
constexpr auto UrnPrefix = "urn:ietf:params:oauth:grant-type:";

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QByteArray b64url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QString randomToken(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    for (char &c : raw)
        c = char(QRandomGenerator::global()->bounded(256));
    return QString::fromLatin1(b64url(raw));
}

QString tokenHash(const QString &token)
{
    return QString::fromLatin1(
        b64url(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256)));
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const auto &v : value.toArray())
        out.append(v.toString());
    return out;
}

const QStringList &supportedGrants()
{
    static const QStringList grants{
        "authorization_code",
        "client_credentials",
        "refresh_token",
        "password",
        QLatin1String(UrnPrefix) + "device_code",
        QLatin1String(UrnPrefix) + "jwt-bearer",
        QLatin1String(UrnPrefix) + "token-exchange",
    };
    return grants;
}

// ClientRegistry::fromMetadata: the normalized client, or {code, message} in error.
QJsonObject validateMetadata(const QJsonObject &m, QString *code, QString *message)
{
    auto fail = [&](const char *c, const QString &msg) {
        *code = QLatin1String(c);
        *message = msg;
        return QJsonObject();
    };
    const QJsonValue name = m.value("client_name");
    if (!name.isString() || name.toString().trimmed().isEmpty() || name.toString().size() > 200)
        return fail("invalid_client_metadata", "client_name is required: 1 to 200 characters");
    const QString method = m.value("token_endpoint_auth_method").toString("client_secret_basic");
    const QStringList methods{"client_secret_basic", "client_secret_post", "none"};
    if (!methods.contains(method))
        return fail("invalid_client_metadata",
                    "token_endpoint_auth_method must be one of " + methods.join(", "));
    const QJsonValue grantsValue = m.value("grant_types");
    if (!grantsValue.isUndefined() && !grantsValue.isArray())
        return fail("invalid_client_metadata", "grant_types must be an array of strings");
    const QStringList grants =
        grantsValue.isUndefined() ? QStringList{"authorization_code"} : strings(grantsValue);
    for (const QString &g : grants)
        if (!supportedGrants().contains(g))
            return fail("invalid_client_metadata",
                        QStringLiteral("grant type '%1' is not supported").arg(g));
    if (method == QLatin1String("none") && grants.contains("client_credentials"))
        return fail("invalid_client_metadata",
                    "client_credentials needs a confidential client (token_endpoint_auth_method "
                    "other than none)");
    const QJsonValue urisValue = m.value("redirect_uris");
    if (!urisValue.isUndefined() && !urisValue.isArray())
        return fail("invalid_redirect_uri", "redirect_uris must be an array of URLs");
    const QStringList uris = strings(urisValue);
    for (const QString &u : uris) {
        const QUrl url(u, QUrl::StrictMode);
        const bool loopback =
            url.host() == "127.0.0.1" || url.host() == "localhost" || url.host() == "::1";
        if (!url.isValid() || url.isRelative() || url.hasFragment() ||
            (url.scheme() == "http" && !loopback) ||
            (url.scheme() != "https" && url.scheme() != "http" && !url.scheme().contains('.')))
            return fail("invalid_redirect_uri",
                        QStringLiteral("'%1' is not an allowed redirect URI: absolute, no "
                                       "fragment, https (http only for loopback) or a "
                                       "reverse-domain private-use scheme")
                            .arg(u));
    }
    if (grants.contains("authorization_code") && uris.isEmpty())
        return fail("invalid_redirect_uri", "authorization_code needs at least one redirect_uri");
    const QString format = m.value("access_token_format").toString("jwt");
    if (format != "jwt" && format != "opaque")
        return fail("invalid_client_metadata", "access_token_format must be jwt or opaque");
    const QJsonValue lifetimeValue = m.value("access_token_lifetime");
    const double lifetime =
        lifetimeValue.isUndefined() || lifetimeValue.isNull() ? 3600 : lifetimeValue.toDouble(-1);
    if (!(lifetime >= 30 && lifetime <= 86400) || lifetime != std::trunc(lifetime))
        return fail("invalid_client_metadata",
                    "access_token_lifetime must be a whole number of seconds from 30 to 86400");
    QJsonObject client{
        {"client_name", name.toString().trimmed()},
        {"redirect_uris", QJsonArray::fromStringList(uris)},
        {"grant_types", QJsonArray::fromStringList(grants)},
        {"scope", m.value("scope").toString().split(' ', Qt::SkipEmptyParts).join(' ')},
        {"token_endpoint_auth_method", method},
        {"contacts", QJsonArray::fromStringList(strings(m.value("contacts")))},
        {"access_token_format", format},
        {"access_token_lifetime", lifetime},
        {"client_id_issued_at", QDateTime::currentSecsSinceEpoch()},
    };
    if (const QString logo = m.value("logo_uri").toString(); !logo.isEmpty())
        client.insert("logo_uri", logo);
    return client;
}

QString span(qint64 seconds)
{
    seconds = std::abs(seconds);
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 7200)
        return QStringLiteral("%1 min").arg(seconds / 60);
    if (seconds < 2 * 86400)
        return QStringLiteral("%1 h").arg(seconds / 3600);
    return QStringLiteral("%1 days").arg(seconds / 86400);
}

} // namespace

void TestAdminServer::resetOAuthData()
{
    m_revokedTokens.clear();
    m_clients.clear();
    m_tokens.clear();
    m_registrationRefusal = {};
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    auto client = [&](const char *id, const char *name, const char *method,
                      const QStringList &grants, const QStringList &uris, const char *scope,
                      const char *format, int lifetime, int daysAgo, const QStringList &contacts) {
        m_clients.append({{"client_id", id},
                          {"client_name", name},
                          {"redirect_uris", QJsonArray::fromStringList(uris)},
                          {"grant_types", QJsonArray::fromStringList(grants)},
                          {"scope", scope},
                          {"token_endpoint_auth_method", method},
                          {"contacts", QJsonArray::fromStringList(contacts)},
                          {"access_token_format", format},
                          {"access_token_lifetime", lifetime},
                          {"client_id_issued_at", now - daysAgo * 86400},
                          {"self_registered", false},
                          {"redirects_vetted", true}});
    };
    // Newest first, as the console lists them.
    client("tl4Kc9QwPz2mVn7Rb3Xy8sDa", "Legacy till (POS)", "client_secret_post",
           {"password", "refresh_token"}, {}, "orders:write", "opaque", 1800, 3, {});
    client("Wh5sYnc2Lr8Tq4Zp1Kv6Mb9e", "Warehouse sync", "client_secret_basic",
           {"client_credentials"}, {}, "orders:read orders:write", "jwt", 3600, 12,
           {"warehouse-team@example.com"});
    client("sPa7Dash3Bq9Xw2Lm5Nc8Rt4", "Orders dashboard", "none",
           {"authorization_code", "refresh_token"},
           {"https://dashboard.example.com/callback", "http://127.0.0.1:5173/callback"},
           "openid profile email orders:read", "jwt", 900, 20, {"ops@example.com"});
    // The dashboard registered itself (RFC 7591) and nobody vetted its redirect URIs.
    m_clients.last().insert("self_registered", true);
    m_clients.last().insert("redirects_vetted", false);
    m_clients.last().insert("post_logout_redirect_uris",
                            QJsonArray{"https://dashboard.example.com/signed-out"});
    // Confidential clients show when their secret ends (client_secret_expires_at, 0: never):
    // the till's ended an hour ago, the warehouse's ends in two hours (both issued by admin
    // tokens that expire, docs/admin-tokens.md).
    m_clients[0].insert("client_secret_expires_at", now - 3600);
    m_clients[1].insert("client_secret_expires_at", now + 2 * 3600);

    const QDateTime t = QDateTime::currentDateTimeUtc();
    auto token = [&](const QString &value, const char *kind, const char *format, int client,
                     const char *subject, const char *username, const char *scope, qint64 issuedAgo,
                     qint64 expiresIn) {
        QJsonObject row{{"id", tokenHash(value)},
                        {"kind", kind},
                        {"format", format},
                        {"clientId", m_clients.at(client).value("client_id")},
                        {"subject", subject},
                        {"scope", scope},
                        {"audience", m_clients.at(client).value("client_id")},
                        {"issuedAt", iso(t.addSecs(-issuedAgo))},
                        {"expiresAt", iso(t.addSecs(expiresIn))}};
        if (username)
            row.insert("username", username);
        m_tokens.append(row);
    };
    token(QStringLiteral("seed-access-1"), "access", "jwt", 1, "Wh5sYnc2Lr8Tq4Zp1Kv6Mb9e", nullptr,
          "orders:read", 10 * 60, 50 * 60);
    token(QStringLiteral("seed-access-2"), "access", "opaque", 0,
          "0195f3a2-7c1e-7b40-9d2a-5e6f7a8b9c0d", "anna", "orders:write", 25 * 60, 5 * 60);
    token(QStringLiteral("seed-refresh-1"), "refresh", "opaque", 0,
          "0195f3a2-7c1e-7b40-9d2a-5e6f7a8b9c0d", "anna", "orders:write", 25 * 60, 20 * 86400);
}

QString TestAdminServer::registerClientElsewhere(const QString &name)
{
    QString id = randomToken(18);
    m_clients.prepend({{"client_id", id},
                       {"client_name", name},
                       {"redirect_uris", QJsonArray{}},
                       {"grant_types", QJsonArray{"client_credentials"}},
                       {"scope", "read"},
                       {"token_endpoint_auth_method", "client_secret_basic"},
                       {"contacts", QJsonArray{}},
                       {"access_token_format", "jwt"},
                       {"access_token_lifetime", 600},
                       {"client_id_issued_at", QDateTime::currentSecsSinceEpoch()}});
    sendEvent(QStringLiteral("oauth.client.registered"), {{"clientId", id}, {"via", "dynamic"}});
    return id;
}

void TestAdminServer::removeClientElsewhere(const QString &clientId)
{
    for (qsizetype i = 0; i < m_clients.size(); ++i)
        if (str(m_clients.at(i), "client_id") == clientId) {
            m_clients.removeAt(i);
            break;
        }
    sendEvent(QStringLiteral("oauth.client.deleted"), {{"clientId", clientId}});
}

QString TestAdminServer::clientId(int index) const
{
    return str(m_clients.value(index), "client_id");
}

QString TestAdminServer::signature(const QByteArray &signingInput) const
{
    return QString::fromLatin1(b64url(
        QMessageAuthenticationCode::hash(signingInput, SigningKey, QCryptographicHash::Sha256)));
}

QString TestAdminServer::makeJwt(const QString &clientId, const QString &scope, qint64 expiresIn,
                                 const QString &audience, const QJsonObject &overrides) const
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject header{{"alg", "RS256"}, {"kid", Kid}, {"typ", "at+jwt"}};
    QJsonObject payload{{"iss", issuer()},
                        {"sub", clientId},
                        {"aud", audience.isEmpty() ? clientId : audience},
                        {"client_id", clientId},
                        {"iat", std::min(now, now + expiresIn - 60)},
                        {"exp", now + expiresIn},
                        {"jti", randomToken(16)}};
    if (!scope.isEmpty())
        payload.insert("scope", scope);
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        payload.insert(it.key(), it.value());
    const QByteArray input = b64url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                             b64url(QJsonDocument(payload).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(input) + QLatin1Char('.') + signature(input);
}

bool TestAdminServer::handleOAuth(QTcpSocket *socket, const QByteArray &method,
                                  const QString &resource, const QString &id, const QString &action,
                                  const QJsonObject &in, const QUrlQuery &query)
{
    const bool get = method == "GET";
    const bool post = method == "POST";
    const bool del = method == "DELETE";
    const bool put = method == "PUT";
    auto indexOfClient = [this](const QString &clientId) {
        for (qsizetype i = 0; i < m_clients.size(); ++i)
            if (str(m_clients.at(i), "client_id") == clientId)
                return int(i);
        return -1;
    };
    // The metadata of a POST or PUT, or a 400 answered (false).
    auto validated = [this, socket, &in](QJsonObject *client) {
        QString code;
        QString message;
        *client = validateMetadata(in, &code, &message);
        if (client->isEmpty())
            respondError(socket, 400, code, message);
        return !client->isEmpty();
    };
    auto withSecret = [this](int status, QJsonObject client, QTcpSocket *to) {
        if (str(client, "token_endpoint_auth_method") != QLatin1String("none")) {
            client.insert("client_secret", randomToken(32));
            client.insert("client_secret_expires_at", 0);
        }
        respondJson(to, status, client);
    };

    if (resource == "clients") {
        if (get && id.isEmpty()) {
            QJsonArray items;
            for (const QJsonObject &c : std::as_const(m_clients))
                items.append(c);
            respondJson(socket, 200, {{"items", items}});
            return true;
        }
        if (post && id.isEmpty()) {
            if (!m_registrationRefusal.isEmpty()) {
                respondJson(socket, 400, std::exchange(m_registrationRefusal, {}));
                return true;
            }
            QJsonObject client;
            if (!validated(&client))
                return true;
            client.insert("client_id", randomToken(18));
            m_clients.prepend(client);
            withSecret(201, client, socket);
            // As the real backend: every change of a client is an oauth.client.* event.
            sendEvent(QStringLiteral("oauth.client.registered"),
                      {{"clientId", str(client, "client_id")}, {"via", "admin"}});
            return true;
        }
        const int i = indexOfClient(id);
        if (i < 0) {
            respondError(socket, 404, "client-not-found", QStringLiteral("no client %1").arg(id));
            return true;
        }
        if (get && action.isEmpty()) {
            respondJson(socket, 200, m_clients.at(i));
            return true;
        }
        // An administrator's save, as the real backend: the metadata replaced, the client's origin
        // kept, and its redirect URIs vouched for.
        if (put && action.isEmpty()) {
            QJsonObject client;
            if (!validated(&client))
                return true;
            for (const char *kept : {"client_id", "client_id_issued_at", "self_registered"})
                client.insert(QLatin1String(kept), m_clients.at(i).value(QLatin1String(kept)));
            client.insert("redirects_vetted", true);
            m_clients[i] = client;
            respondJson(socket, 200, client);
            sendEvent(QStringLiteral("oauth.client.updated"), {{"clientId", id}, {"via", "admin"}});
            return true;
        }
        if (post && action == "rotate-secret") {
            if (str(m_clients.at(i), "token_endpoint_auth_method") == QLatin1String("none")) {
                respondError(socket, 409, "public-client",
                             QStringLiteral("client %1 is public and has no secret").arg(id));
                return true;
            }
            withSecret(200, m_clients.at(i), socket);
            sendEvent(QStringLiteral("oauth.client.secret-rotated"), {{"clientId", id}});
            return true;
        }
        if (del && action.isEmpty()) {
            m_clients.removeAt(i);
            sendEvent(QStringLiteral("oauth.client.deleted"), {{"clientId", id}});
            for (qsizetype t = m_tokens.size() - 1; t >= 0; --t)
                if (str(m_tokens.at(t), "clientId") == id) {
                    m_revokedTokens.insert(str(m_tokens.at(t), "id"),
                                           iso(QDateTime::currentDateTimeUtc()));
                    m_tokens.removeAt(t); // revoked with their client, without events
                }
            respond(socket, 204, "No Content", "application/json", {});
            return true;
        }
        return false;
    }
    if (resource == "tokens") {
        if (get && id.isEmpty()) {
            const QString client = query.queryItemValue("client");
            const QString now = iso(QDateTime::currentDateTimeUtc());
            const int limit =
                query.hasQueryItem("limit") ? query.queryItemValue("limit").toInt() : 200;
            QJsonArray items;
            for (const QJsonObject &t : std::as_const(m_tokens))
                if (str(t, "expiresAt") > now &&
                    (client.isEmpty() || str(t, "clientId") == client) && items.size() < limit)
                    items.append(t);
            respondJson(socket, 200, {{"items", items}});
            return true;
        }
        if (post && id == "preview") {
            previewToken(socket, in);
            return true;
        }
        if (post && id.isEmpty()) {
            mintToken(socket, in);
            return true;
        }
        if (del && action.isEmpty()) {
            for (qsizetype t = 0; t < m_tokens.size(); ++t) {
                if (str(m_tokens.at(t), "id") != id)
                    continue;
                m_revokedTokens.insert(id, iso(QDateTime::currentDateTimeUtc()));
                m_tokens.removeAt(t);
                sendEvent(QStringLiteral("oauth.token.revoked"),
                          {{"tokenHashPrefix", id.left(8)}, {"by", "admin"}});
                respond(socket, 204, "No Content", "application/json", {});
                return true;
            }
            respondError(socket, 404, "token-not-found",
                         QStringLiteral("no active token %1").arg(id));
            return true;
        }
        return false;
    }
    if (resource == "jwt" && id == "inspect" && post) {
        if (!in.value("token").isString()) {
            respondError(socket, 400, "malformed-json",
                         "the body must be a JSON object with token");
            return true;
        }
        respondJson(socket, 200, inspectJwt(in));
        return true;
    }
    return false;
}

void TestAdminServer::mintToken(QTcpSocket *socket, const QJsonObject &in)
{
    auto oauthError = [this, socket](int status, const char *code, const QString &description) {
        respondJson(socket, status, {{"error", code}, {"error_description", description}});
    };
    if (!in.value("client_id").isString()) {
        respondError(socket, 400, "malformed-json",
                     "the body must be a JSON object with client_id (and optionally scope and "
                     "resource)");
        return;
    }
    const QString clientId = str(in, "client_id");
    QJsonObject client;
    for (const QJsonObject &c : std::as_const(m_clients))
        if (str(c, "client_id") == clientId)
            client = c;
    if (client.isEmpty())
        return oauthError(404, "client-not-found", QStringLiteral("no client %1").arg(clientId));
    if (str(client, "token_endpoint_auth_method") == QLatin1String("none"))
        return oauthError(400, "unauthorized_client",
                          "a public client cannot use client_credentials");
    if (!strings(client.value("grant_types")).contains("client_credentials"))
        return oauthError(400, "unauthorized_client",
                          "the client is not registered for client_credentials");
    const QStringList allowed = str(client, "scope").split(' ', Qt::SkipEmptyParts);
    QStringList scopes = str(in, "scope").split(' ', Qt::SkipEmptyParts);
    for (const QString &s : std::as_const(scopes))
        if (!allowed.contains(s))
            return oauthError(400, "invalid_scope",
                              QStringLiteral("scope '%1' is not allowed for this client").arg(s));
    if (scopes.isEmpty())
        scopes = allowed;
    const int lifetime = client.value("access_token_lifetime").toInt(3600);
    const bool jwt = str(client, "access_token_format") == QLatin1String("jwt");
    const QString scope = scopes.join(' ');
    const QString token = jwt ? makeJwt(clientId, scope, lifetime) : randomToken(32);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString hash = tokenHash(token);
    m_tokens.prepend({{"id", hash},
                      {"kind", "access"},
                      {"format", jwt ? "jwt" : "opaque"},
                      {"clientId", clientId},
                      {"subject", clientId},
                      {"scope", scope},
                      {"audience", clientId},
                      {"issuedAt", iso(now)},
                      {"expiresAt", iso(now.addSecs(lifetime))}});
    respondJson(socket, 200,
                {{"access_token", token},
                 {"token_type", "Bearer"},
                 {"expires_in", lifetime},
                 {"scope", scope}});
    sendEvent(QStringLiteral("oauth.token.issued"), {{"clientId", clientId},
                                                     {"grantType", "client_credentials"},
                                                     {"kind", "access"},
                                                     {"format", jwt ? "jwt" : "opaque"},
                                                     {"scope", scope},
                                                     {"tokenHashPrefix", hash.left(8)},
                                                     {"expiresAt", iso(now.addSecs(lifetime))}});
}

// OAuthApi::tokenStatus: issued here, the key, the stored token, its client and user.
QJsonObject TestAdminServer::tokenStatus(const QByteArray &token, const QJsonObject &header,
                                         const QJsonObject &payload) const
{
    const bool here = str(payload, "iss") == issuer();
    QJsonObject out{{"issuedHere", here}};
    const QString kid = str(header, "kid");
    if (kid == QLatin1String(Kid))
        out.insert("key", QJsonObject{{"kid", kid},
                                      {"alg", "RS256"},
                                      {"state", "active"},
                                      {"known", true},
                                      {"createdAt", "2026-11-21T08:00:00.000Z"},
                                      {"detail", "the active signing key"}});
    else
        out.insert("key", QJsonObject{{"kid", kid},
                                      {"known", false},
                                      {"detail", here ? "not among this server's published keys "
                                                        "(rotated out, or never ours)"
                                                      : "not a key of this server"}});
    const QString hash = tokenHash(QString::fromLatin1(token));
    const QString now = iso(QDateTime::currentDateTimeUtc());
    QJsonObject stored{{"state", "notStored"},
                       {"revocable", false},
                       {"detail", !here ? "not issued by this server"
                                        : "no stored token has this value: not issued here, or "
                                          "removed after it expired"}};
    for (const QJsonObject &t : m_tokens)
        if (str(t, "id") == hash) {
            const bool expired = str(t, "expiresAt") <= now;
            stored = {{"id", hash},
                      {"kind", t.value("kind")},
                      {"state", expired ? "expired" : "active"},
                      {"expiresAt", t.value("expiresAt")},
                      {"revocable", !expired}};
        }
    if (m_revokedTokens.contains(hash))
        stored = {{"id", hash},
                  {"kind", "access"},
                  {"state", "revoked"},
                  {"revokedAt", m_revokedTokens.value(hash)},
                  {"revocable", false}};
    out.insert("stored", stored);
    if (here) {
        const QString clientId = str(payload, "client_id");
        if (!clientId.isEmpty()) {
            QJsonObject client{{"clientId", clientId}, {"exists", false}};
            for (const QJsonObject &c : m_clients)
                if (str(c, "client_id") == clientId) {
                    client.insert("exists", true);
                    client.insert("clientName", c.value("client_name"));
                }
            out.insert("client", client);
        }
        const QString sub = str(payload, "sub");
        if (!sub.isEmpty() && sub != clientId)
            out.insert("user", QJsonObject{{"id", sub}, {"exists", false}});
    }
    return out;
}

// POST /admin/v1/tokens/preview: the claims a client_credentials or user-grant token would
// have, with the real backend's sources and errors; nothing stored, no event.
void TestAdminServer::previewToken(QTcpSocket *socket, const QJsonObject &in)
{
    const QString clientId = str(in, "client_id");
    const QJsonObject *client = nullptr;
    for (const QJsonObject &c : std::as_const(m_clients))
        if (str(c, "client_id") == clientId)
            client = &c;
    if (!client) {
        respondError(socket, 404, "invalid_client", QStringLiteral("no client '%1'").arg(clientId));
        return;
    }
    const QString grant = in.value("grant_type").toString(QStringLiteral("client_credentials"));
    const QStringList grants = strings(client->value("grant_types"));
    const bool userGrant = grant == "authorization_code" || grant == "password" ||
                           grant == "refresh_token" || grant.endsWith(":device_code");
    if (grant != "client_credentials" && !userGrant) {
        respondError(socket, 400, "unsupported_grant_type",
                     QStringLiteral("%1 cannot be previewed").arg(grant));
        return;
    }
    if (!grants.contains(grant)) {
        respondError(socket, 400, "unauthorized_client",
                     userGrant
                         ? QStringLiteral("%1 is not among this client's grant_types").arg(grant)
                         : QStringLiteral("the client may not use client_credentials"));
        return;
    }
    const QString username = str(in, "username");
    if (userGrant && username != "alice" && username != "bob") {
        respondError(socket, 400, "invalid_request",
                     "a user grant needs \"username\" of an existing user");
        return;
    }
    const QStringList allowed = str(*client, "scope").split(' ', Qt::SkipEmptyParts);
    QStringList scopes = str(in, "scope").split(' ', Qt::SkipEmptyParts);
    for (const QString &sc : std::as_const(scopes))
        if (!allowed.contains(sc)) {
            respondError(socket, 400, "invalid_scope",
                         QStringLiteral("scope '%1' is not allowed for this client").arg(sc));
            return;
        }
    const bool requested = !scopes.isEmpty();
    if (scopes.isEmpty())
        scopes = allowed;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const int lifetime = client->value("access_token_lifetime").toInt(3600);
    const QString resource = str(in, "resource");
    const QString sub = userGrant ? QStringLiteral("user-%1").arg(username) : clientId;
    QJsonObject claims{{"aud", resource.isEmpty() ? clientId : resource},
                       {"client_id", clientId},
                       {"exp", now + lifetime},
                       {"iat", now},
                       {"iss", issuer()},
                       {"jti", randomToken(16)},
                       {"scope", scopes.join(' ')},
                       {"sub", sub}};
    auto src = [](const char *source, const QString &detail) {
        return QJsonObject{{"source", source}, {"detail", detail}};
    };
    QJsonObject sources{
        {"aud", resource.isEmpty()
                    ? src("clientRecord", "no resource requested: the client's own client_id")
                    : src("request", "the resource parameter")},
        {"client_id", src("clientRecord", "client_id of the client record")},
        {"exp", src("clientRecord",
                    QStringLiteral("issue time + the client's access_token_lifetime (%1 s)")
                        .arg(lifetime))},
        {"iat", src("time", "the time of issue")},
        {"iss", src("server", "this server's issuer (public-base-url)")},
        {"jti", src("random", "128 random bits, new for every token")},
        {"scope",
         requested ? src("requestedScope", "the scope parameter, each allowed by the client record")
                   : src("clientRecord", "no scope requested: the client's scope")},
        {"sub", userGrant ? src("userAttribute", "the user's id")
                          : src("clientRecord",
                                "client_id: a client_credentials client acts for itself")}};
    if (userGrant) {
        claims.insert("preferred_username", username);
        sources.insert("preferred_username", src("userAttribute", "the user's username"));
    }
    const bool jwt = str(*client, "access_token_format") == QLatin1String("jwt");
    QJsonArray also;
    if (userGrant && grants.contains("refresh_token"))
        also.append("refresh_token");
    if (userGrant && scopes.contains("openid"))
        also.append("id_token");
    respondJson(socket, 200,
                {{"alsoIssued", also},
                 {"claims", claims},
                 {"clientId", clientId},
                 {"format", jwt ? "jwt" : "opaque"},
                 {"grantType", grant},
                 {"header", jwt ? QJsonObject{{"alg", "RS256"}, {"kid", Kid}, {"typ", "at+jwt"}}
                                : QJsonObject{}},
                 {"note", "a dry run of the real issuing code: the signature is withheld and "
                          "nothing is stored; iat, exp and jti differ in a real token"},
                 {"sources", sources},
                 {"stored", false}});
}

QJsonObject TestAdminServer::inspectJwt(const QJsonObject &request) const
{
    const QByteArray token = request.value("token").toString().trimmed().toUtf8();
    const QList<QByteArray> parts = token.split('.');
    auto notJwt = [](const QString &why) {
        return QJsonObject{
            {"valid", false}, {"verdict", "Not a JWT: " + why}, {"checks", QJsonArray()}};
    };
    if (parts.size() != 3)
        return notJwt("a compact JWS has exactly three parts");
    auto decode = [](const QByteArray &part, QJsonDocument *doc) {
        const auto bytes = QByteArray::fromBase64Encoding(
            part, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        *doc = QJsonDocument::fromJson(*bytes);
        return bool(bytes);
    };
    QJsonDocument headerDoc;
    QJsonDocument payloadDoc;
    if (!decode(parts.at(0), &headerDoc) || !headerDoc.isObject())
        return notJwt("the header is not base64url-encoded JSON");
    if (!decode(parts.at(1), &payloadDoc) || !payloadDoc.isObject())
        return notJwt("the payload is not base64url-encoded JSON");
    const QJsonObject header = headerDoc.object();
    const QJsonObject payload = payloadDoc.object();

    QJsonArray checks;
    QStringList failures;
    auto add = [&](const char *name, const char *status, const QString &detail) {
        checks.append(QJsonObject{{"name", name}, {"status", status}, {"detail", detail}});
        if (qstrcmp(status, "fail") == 0)
            failures.append(detail);
    };
    const QString alg = str(header, "alg");
    const bool algOk = alg == "RS256" || alg == "PS256" || alg == "ES256";
    if (alg.isEmpty())
        add("alg", "fail", "the header has no alg");
    else if (alg.compare("none", Qt::CaseInsensitive) == 0)
        add("alg", "fail", "alg \"none\" means unsigned: refused");
    else if (alg.startsWith("HS"))
        add("alg", "fail",
            QStringLiteral("alg %1 is a shared-secret MAC: refused (a public key must never "
                           "verify it)")
                .arg(alg));
    else if (!algOk)
        add("alg", "fail",
            QStringLiteral("alg %1 is not supported (RS256, PS256, ES256)").arg(alg));
    else
        add("alg", "pass", QStringLiteral("alg %1").arg(alg));

    const QString pem = request.value("pem").toString().trimmed();
    const QJsonObject jwks = request.value("jwks").toObject();
    const QString source = !pem.isEmpty()    ? QStringLiteral("pasted-pem")
                           : !jwks.isEmpty() ? QStringLiteral("pasted-jwks")
                                             : QStringLiteral("server-jwks");
    const QString kid = str(header, "kid");
    const bool ours =
        signature(parts.at(0) + '.' + parts.at(1)) == QString::fromLatin1(parts.at(2));
    if (source == "pasted-pem") {
        add("kid", "skip", "a pasted PEM key is used whatever the kid");
        add("signature", "fail", "signature not verified: the signature does not match the key");
    } else {
        const QJsonArray keys = source == "server-jwks"
                                    ? QJsonArray{QJsonObject{{"kid", Kid}, {"kty", "RSA"}}}
                                : jwks.contains("keys") ? jwks.value("keys").toArray()
                                                        : QJsonArray{jwks};
        bool found = false;
        for (const auto &k : keys)
            found = found || (!kid.isEmpty() && str(k.toObject(), "kid") == kid);
        if (kid.isEmpty())
            add("kid", keys.size() == 1 ? "pass" : "fail",
                keys.size() == 1
                    ? QStringLiteral("no kid; the key set has one key")
                    : QStringLiteral("no kid, and the key set has %1 keys").arg(keys.size()));
        else if (!found)
            add("kid", "fail", QStringLiteral("kid %1 is not in the key set").arg(kid));
        else
            add("kid", "pass", QStringLiteral("kid %1 found").arg(kid));
        if (!algOk)
            add("signature", "fail", "not verified: the alg is refused");
        else if (ours && found)
            add("signature", "pass",
                QStringLiteral("signature verified (%1, %2)")
                    .arg(alg, source == "server-jwks" ? "this server's JWKS" : "the pasted JWKS"));
        else
            add("signature", "fail",
                "signature not verified: the signature does not match any key of the set");
    }

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const qint64 leeway = 60;
    // As the backend reads them (Core::jsonSeconds): clamped before the cast.
    const auto seconds = [](const QJsonValue &v) {
        return qint64(std::clamp(v.toDouble(), -1e13, 1e13));
    };
    const QJsonValue exp = payload.value("exp");
    if (!exp.isDouble())
        add("exp", "fail", "no exp claim: the token never expires");
    else if (seconds(exp) + leeway < now)
        add("exp", "fail", QStringLiteral("expired %1 ago").arg(span(now - seconds(exp))));
    else
        add("exp", "pass", QStringLiteral("expires in %1").arg(span(seconds(exp) - now)));
    const QJsonValue nbf = payload.value("nbf");
    if (nbf.isUndefined())
        add("nbf", "skip", "no nbf claim");
    else if (!nbf.isDouble() || seconds(nbf) - leeway > now)
        add("nbf", "fail",
            QStringLiteral("not valid before %1 from now").arg(span(seconds(nbf) - now)));
    else
        add("nbf", "pass", QStringLiteral("valid since %1").arg(span(now - seconds(nbf))));
    const QJsonValue iat = payload.value("iat");
    if (iat.isDouble() && seconds(iat) - leeway > now)
        add("iat", "fail",
            QStringLiteral("issued in the future (%1 from now)").arg(span(seconds(iat) - now)));
    else if (iat.isDouble())
        add("iat", "pass", QStringLiteral("issued %1 ago").arg(span(now - seconds(iat))));
    else
        add("iat", "skip", "no iat claim");
    const QString expectedIssuer =
        request.value("issuer").toString(source == "server-jwks" ? issuer() : QString());
    const QString iss = str(payload, "iss");
    if (expectedIssuer.isEmpty())
        add("iss", "skip", "issuer not checked");
    else if (iss != expectedIssuer)
        add("iss", "fail",
            QStringLiteral("iss is \"%1\", expected \"%2\"").arg(iss, expectedIssuer));
    else
        add("iss", "pass", QStringLiteral("iss is %1").arg(iss));
    const QString audience = str(request, "audience");
    const QJsonValue aud = payload.value("aud");
    const bool audOk =
        aud.isString() ? aud.toString() == audience : strings(aud).contains(audience);
    if (audience.isEmpty())
        add("aud", "skip", "audience not checked");
    else if (!audOk)
        add("aud", "fail", QStringLiteral("aud does not contain \"%1\"").arg(audience));
    else
        add("aud", "pass", QStringLiteral("aud contains %1").arg(audience));

    const bool valid = failures.isEmpty();
    QJsonArray warnings;
    for (const char *claim : {"exp", "nbf", "iat", "auth_time"}) {
        const QJsonValue v = payload.value(QLatin1String(claim));
        if (v.isDouble() && v.toDouble() > 1e11)
            warnings.append(QStringLiteral("%1 is %2: that looks like milliseconds, not seconds "
                                           "(as seconds it is after the year 5000)")
                                .arg(QLatin1String(claim))
                                .arg(seconds(v)));
    }
    return {{"header", header},
            {"payload", payload},
            {"keySource", source},
            {"checks", checks},
            {"warnings", warnings},
            {"server", tokenStatus(token, header, payload)},
            {"valid", valid},
            {"verdict", valid ? QStringLiteral("Valid: every check passed.")
                              : QStringLiteral("Invalid: %1.").arg(failures.join("; "))}};
}
