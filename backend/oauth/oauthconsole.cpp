// The admin console's questions to the authorization server: token previews, effective
// access, token status, active tokens, revocation by id, minted client_credentials tokens.
#include "oauth/oauthconsole.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "oauth/signingkeys.h"
#include "oauth/tokenissuer.h"
#include "oauth/trustsettings.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

using Core::Responder;

namespace {

// A console answer's error: {"error", "error_description"}.
QJsonObject consoleError(const QString &error, const QString &description)
{
    return QJsonObject{{QStringLiteral("error"), error},
                       {QStringLiteral("error_description"), description}};
}

// The token preview's id_token: its claims, each with its source (the user claims share the
// access token's); nullopt when it does not decode.
std::optional<QJsonObject> idTokenPreview(const QString &idToken, const ClaimSources &sources)
{
    const auto decoded = Crypto::Jws::decodeUnverified(idToken.toLatin1());
    if (!decoded)
        return std::nullopt;
    const QJsonObject idClaims = decoded->value(QLatin1String("payload")).toObject();
    static const QHash<QString, std::pair<QString, QString>> fixed{
        {QStringLiteral("aud"),
         {QStringLiteral("clientRecord"), QStringLiteral("the client's client_id")}},
        {QStringLiteral("exp"),
         {QStringLiteral("clientRecord"),
          QStringLiteral("issue time + the client's access_token_lifetime")}},
        {QStringLiteral("auth_time"),
         {QStringLiteral("time"), QStringLiteral("when the user signed in")}},
        {QStringLiteral("at_hash"),
         {QStringLiteral("server"),
          QStringLiteral("the left half of SHA-256 of the access token")}},
        {QStringLiteral("nonce"),
         {QStringLiteral("request"), QStringLiteral("the nonce of the authorization "
                                                    "request")}},
        {QStringLiteral("jti"),
         {QStringLiteral("random"), QStringLiteral("the time of issue (ms, hex) and 128 "
                                                   "random bits, new for every token")}}};
    QJsonObject idSources;
    for (auto it = idClaims.begin(); it != idClaims.end(); ++it) {
        ClaimSource cs = sources.value(it.key());
        if (const auto f = fixed.constFind(it.key()); f != fixed.constEnd())
            cs = ClaimSource{f->first, f->second};
        if (cs.source.isEmpty())
            cs = ClaimSource{QStringLiteral("unknown"), QString()};
        idSources.insert(it.key(), QJsonObject{{QStringLiteral("source"), cs.source},
                                               {QStringLiteral("detail"), cs.detail}});
    }
    return QJsonObject{{QStringLiteral("claims"), idClaims},
                       {QStringLiteral("sources"), idSources}};
}

} // namespace

OAuthConsole::OAuthConsole(Core::Database &database, Core::WriteQueue &writer,
                           Core::EventBus &events, const Core::Clock &clock, QString issuer,
                           const ClientRegistry &clients, const UserStore &users,
                           const SigningKeys &keys, const TokenIssuer &tokens,
                           const GrantHandlers &grants, Commit commit)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_issuer(std::move(issuer)), m_clients(clients), m_users(users), m_keys(keys),
      m_tokens(tokens), m_grants(grants), m_commit(std::move(commit))
{}

void OAuthConsole::mintClientCredentials(const Client &client,
                                         const QHash<QString, QString> &params,
                                         const Responder &respond) const
{
    const QString grantType = QStringLiteral("client_credentials");
    const GrantHandler *handler = grantHandlerFor(m_grants, grantType);
    if (!handler)
        return respond(unsupportedGrantType(grantType).toResponse());
    TokenRequest tr;
    tr.params = params;
    tr.client = client;
    tr.now = m_clock.now().toMSecsSinceEpoch();
    GrantResult result = handler->handle(tr);
    if (result.error)
        return respond(result.error->toResponse());
    m_commit(std::move(result), grantType, respond);
}

QJsonObject OAuthConsole::previewToken(const QJsonObject &request) const
{
    QHash<QString, QString> params;
    for (auto it = request.begin(); it != request.end(); ++it) {
        if (!it.value().isString())
            return consoleError(QStringLiteral("invalid_request"),
                                QStringLiteral("%1 must be a string").arg(it.key()));
        params.insert(it.key(), it.value().toString());
    }
    const auto client = m_clients.find(params.value(QStringLiteral("client_id")));
    if (!client)
        return consoleError(
            QStringLiteral("invalid_client"),
            QStringLiteral("no client '%1'").arg(params.value(QStringLiteral("client_id"))));
    const QString grant =
        params.value(QStringLiteral("grant_type"), QStringLiteral("client_credentials"));
    ClaimSources sources;
    GrantResult result;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    static const QStringList userGrants{
        QStringLiteral("authorization_code"), QStringLiteral("password"),
        QStringLiteral("refresh_token"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")};
    if (grant == QLatin1String("client_credentials") ||
        grant == QLatin1String("urn:ietf:params:oauth:grant-type:token-exchange")) {
        // The grant's own handler, as the token endpoint runs it, minus storing.
        TokenRequest tr;
        tr.params = params;
        tr.client = *client;
        tr.now = now;
        tr.sources = &sources;
        if (const GrantHandler *handler = grantHandlerFor(m_grants, grant))
            result = handler->handle(tr);
    } else if (userGrants.contains(grant)) {
        // The user grants differ in how they establish the user (a code, a password, a
        // device approval, a refresh token) and share the issuing: issueUserTokens.
        if (!client->grantTypes.contains(grant))
            return consoleError(
                QStringLiteral("unauthorized_client"),
                QStringLiteral("%1 is not among this client's grant_types").arg(grant));
        const auto user = m_users.find(params.value(QStringLiteral("username")));
        if (!user)
            return consoleError(
                QStringLiteral("invalid_request"),
                QStringLiteral("a user grant needs \"username\" of an existing user"));
        UserTokenRequest utr;
        utr.client = &*client;
        utr.user = &*user;
        if (auto e = requestedScopes(*client, params.value(QStringLiteral("scope")), &utr.scopes))
            return consoleError(e->error, e->description);
        noteSource(&sources, QStringLiteral("scope"),
                   params.value(QStringLiteral("scope")).isEmpty()
                       ? QStringLiteral("clientRecord")
                       : QStringLiteral("requestedScope"),
                   params.value(QStringLiteral("scope")).isEmpty()
                       ? QStringLiteral("no scope requested: all the client's allowed scopes")
                       : QStringLiteral("the scope parameter (consented), each allowed by the "
                                        "client record"));
        utr.authTime = now;
        utr.now = now;
        utr.sources = &sources;
        issueUserTokens(m_tokens, utr, &result);
        // The id_token's user claims come from the same function with the id_token's rules
        // (profile included): note their sources too.
        scopedUserClaims(*user, utr.scopes, false, &sources);
    } else if (grant == QLatin1String("urn:ietf:params:oauth:grant-type:jwt-bearer")) {
        return consoleError(
            QStringLiteral("unsupported_grant_type"),
            QStringLiteral("a dry run of jwt-bearer would spend the assertion's jti; "
                           "preview it as the token exchange of the same JWT"));
    } else {
        return consoleError(QStringLiteral("unsupported_grant_type"),
                            QStringLiteral("unknown grant_type '%1'").arg(grant));
    }
    if (result.error)
        return consoleError(result.error->error, result.error->description);
    if (result.tokens.isEmpty())
        return consoleError(QStringLiteral("server_error"),
                            QStringLiteral("nothing would be issued"));
    const IssuedToken &access = result.tokens.first();
    QJsonObject out{{QStringLiteral("clientId"), client->clientId},
                    {QStringLiteral("grantType"), grant},
                    {QStringLiteral("format"), access.format},
                    {QStringLiteral("stored"), false}};
    QJsonObject claims;
    if (access.format == QLatin1String("jwt")) {
        // Header and claims only: the signed value would be a valid token nobody recorded.
        const auto decoded = Crypto::Jws::decodeUnverified(access.value.toLatin1());
        if (!decoded)
            return consoleError(QStringLiteral("server_error"), decoded.error().message);
        out.insert(QStringLiteral("header"), decoded->value(QLatin1String("header")));
        claims = decoded->value(QLatin1String("payload")).toObject();
        out.insert(QStringLiteral("note"),
                   QStringLiteral("a dry run of the real issuing code: the signature is withheld "
                                  "and nothing is stored; iat, exp and jti differ in a real "
                                  "token"));
    } else {
        // Opaque: what introspection would answer for it.
        claims = QJsonObject{{QStringLiteral("iss"), m_issuer},
                             {QStringLiteral("sub"), access.subject},
                             {QStringLiteral("aud"), access.audience},
                             {QStringLiteral("client_id"), access.clientId},
                             {QStringLiteral("iat"), access.issuedAt / 1000},
                             {QStringLiteral("exp"), access.expiresAt / 1000}};
        if (!access.scope.isEmpty())
            claims.insert(QStringLiteral("scope"), access.scope);
        if (!access.act.isEmpty())
            claims.insert(QStringLiteral("act"), QJsonDocument::fromJson(access.act).object());
        out.insert(QStringLiteral("note"),
                   QStringLiteral("an opaque token: these are the fields introspection would "
                                  "answer; the value is withheld and nothing is stored"));
    }
    out.insert(QStringLiteral("claims"), claims);
    QJsonObject src;
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        const ClaimSource cs =
            sources.value(it.key(), ClaimSource{QStringLiteral("unknown"), QString()});
        src.insert(it.key(), QJsonObject{{QStringLiteral("source"), cs.source},
                                         {QStringLiteral("detail"), cs.detail}});
    }
    out.insert(QStringLiteral("sources"), src);
    QJsonArray also;
    for (const char *k : {"refresh_token", "id_token"})
        if (result.response.contains(QLatin1String(k)))
            also.append(QLatin1String(k));
    out.insert(QStringLiteral("alsoIssued"), also);
    // The id_token's claims too (openid): the user claims share the access token's sources.
    if (const QString id = result.response.value(QLatin1String("id_token")).toString();
        !id.isEmpty())
        if (const auto idToken = idTokenPreview(id, sources))
            out.insert(QStringLiteral("idToken"), *idToken);
    return out;
}

QJsonObject OAuthConsole::effectiveAccess(const QJsonObject &request) const
{
    static const QStringList userGrants{
        QStringLiteral("authorization_code"), QStringLiteral("password"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")};
    auto scopeRows = [](const Client &c) {
        QJsonArray rows;
        for (const QString &s : c.scopes)
            rows.append(QJsonObject{
                {QStringLiteral("scope"), s},
                {QStringLiteral("source"), QStringLiteral("clientRecord")},
                {QStringLiteral("detail"),
                 QStringLiteral("allowed by the scope of client \"%1\"").arg(c.clientName)}});
        return rows;
    };
    const QString username = request.value(QLatin1String("username")).toString();
    const QString clientId = request.value(QLatin1String("client_id")).toString();
    if (username.isEmpty() == clientId.isEmpty())
        return consoleError(QStringLiteral("invalid_request"),
                            QStringLiteral("give either \"username\" or \"client_id\""));
    if (!username.isEmpty()) {
        const auto user = m_users.find(username);
        if (!user)
            return consoleError(QStringLiteral("invalid_request"),
                                QStringLiteral("no user '%1'").arg(username));
        const auto all = m_clients.all();
        if (!all)
            return consoleError(QStringLiteral("server_error"), all.error().message);
        QJsonArray clients;
        for (const Client &c : *all) {
            QString grant;
            for (const QString &g : userGrants)
                if (c.grantTypes.contains(g)) {
                    grant = g;
                    break;
                }
            if (grant.isEmpty())
                continue; // a client without a user grant never acts for a user
            QJsonObject entry{
                {QStringLiteral("clientId"), c.clientId},
                {QStringLiteral("clientName"), c.clientName},
                {QStringLiteral("grantTypes"), QJsonArray::fromStringList(c.grantTypes)},
                {QStringLiteral("scopes"), scopeRows(c)}};
            const QList<QJsonObject> consent = m_users.consents(user->id, c.clientId);
            entry.insert(QStringLiteral("consent"), consent.isEmpty()
                                                        ? QJsonValue(QJsonValue::Null)
                                                        : QJsonValue(consent.first()));
            // Every allowed scope at once: every claim the user can reach through this client.
            const QJsonObject p = previewToken(
                QJsonObject{{QStringLiteral("client_id"), c.clientId},
                            {QStringLiteral("grant_type"), grant},
                            {QStringLiteral("username"), user->username},
                            {QStringLiteral("scope"), c.scopes.join(QLatin1Char(' '))}});
            if (p.contains(QLatin1String("error"))) {
                entry.insert(QStringLiteral("error"), p.value(QLatin1String("error_description")));
            } else {
                entry.insert(
                    QStringLiteral("accessToken"),
                    QJsonObject{{QStringLiteral("claims"), p.value(QLatin1String("claims"))},
                                {QStringLiteral("sources"), p.value(QLatin1String("sources"))}});
                if (p.contains(QLatin1String("idToken")))
                    entry.insert(QStringLiteral("idToken"), p.value(QLatin1String("idToken")));
            }
            clients.append(entry);
        }
        return QJsonObject{
            {QStringLiteral("subject"),
             QJsonObject{{QStringLiteral("kind"), QStringLiteral("user")},
                         {QStringLiteral("id"), user->id},
                         {QStringLiteral("username"), user->username},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(user->groups)}}},
            {QStringLiteral("clients"), clients}};
    }
    const auto c = m_clients.find(clientId);
    if (!c)
        return consoleError(QStringLiteral("invalid_client"),
                            QStringLiteral("no client '%1'").arg(clientId));
    QJsonArray audiences{
        QJsonObject{{QStringLiteral("audience"), c->clientId},
                    {QStringLiteral("source"), QStringLiteral("clientRecord")},
                    {QStringLiteral("detail"), QStringLiteral("the default: its own client_id")}}};
    if (c->grantTypes.contains(QStringLiteral("client_credentials"))) {
        // What the resource parameter may name (TokenIssuer::mayRequestResource).
        QStringList resources = c->allowedResources;
        if (const TrustSettings *trust = m_tokens.trust();
            trust && m_tokens.mayRequestResource(*c, trust->ordersResource()))
            resources.prepend(trust->ordersResource());
        resources.removeDuplicates();
        for (const QString &r : std::as_const(resources))
            audiences.append(QJsonObject{
                {QStringLiteral("audience"), r},
                {QStringLiteral("source"), QStringLiteral("request")},
                {QStringLiteral("detail"),
                 QStringLiteral("client_credentials: the resource parameter (RFC 8707)")}});
    }
    for (const QString &a : c->tokenExchangeAudiences)
        audiences.append(QJsonObject{
            {QStringLiteral("audience"), a},
            {QStringLiteral("source"), QStringLiteral("exchangePolicy")},
            {QStringLiteral("detail"),
             QStringLiteral("token exchange of another subject's token: token_exchange_audiences "
                            "(its own token only where client_credentials goes)")}});
    QJsonObject out{
        {QStringLiteral("subject"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("client")},
                                                {QStringLiteral("clientId"), c->clientId},
                                                {QStringLiteral("clientName"), c->clientName}}},
        {QStringLiteral("grantTypes"), QJsonArray::fromStringList(c->grantTypes)},
        {QStringLiteral("scopes"), scopeRows(*c)},
        {QStringLiteral("audiences"), audiences},
        {QStringLiteral("actsForUsers"),
         std::any_of(userGrants.begin(), userGrants.end(),
                     [&c](const QString &g) { return c->grantTypes.contains(g); })}};
    if (c->grantTypes.contains(QStringLiteral("client_credentials"))) {
        const QJsonObject p = previewToken(
            QJsonObject{{QStringLiteral("client_id"), c->clientId},
                        {QStringLiteral("grant_type"), QStringLiteral("client_credentials")}});
        if (!p.contains(QLatin1String("error")))
            out.insert(QStringLiteral("clientCredentials"),
                       QJsonObject{{QStringLiteral("claims"), p.value(QLatin1String("claims"))},
                                   {QStringLiteral("sources"), p.value(QLatin1String("sources"))}});
    }
    return out;
}

QJsonObject OAuthConsole::tokenStatus(const QByteArray &token, const QJsonObject &header,
                                      const QJsonObject &payload) const
{
    // Issued here: signed with one of this server's published keys, not merely naming this
    // issuer and a kid of ours (anyone can write those; the facts below then vouched for a
    // forged token: "issued here", "the active signing key", the real client's name).
    const bool namesHere = payload.value(QLatin1String("iss")).toString() == m_issuer;
    const bool here = namesHere && Crypto::Jws::verifyWithJwks(token, m_keys.jwks()).ok();
    QJsonObject out{{QStringLiteral("issuedHere"), here}};
    // The signing key: one of ours (and in which state), or unknown.
    const QString kid = header.value(QLatin1String("kid")).toString();
    QJsonObject key{{QStringLiteral("kid"), kid}, {QStringLiteral("known"), false}};
    for (const QJsonObject &k : m_keys.list())
        if (here && !kid.isEmpty() && k.value(QLatin1String("kid")).toString() == kid) {
            key = k;
            key.insert(QStringLiteral("known"), true);
            key.insert(QStringLiteral("detail"),
                       k.value(QLatin1String("state")) == QLatin1String("retired")
                           ? QStringLiteral("a retired key, still published until every token "
                                            "it signed has expired")
                       : k.value(QLatin1String("state")) == QLatin1String("next")
                           ? QStringLiteral("the next key: published, but it signs nothing yet")
                           : QStringLiteral("the active signing key"));
        }
    if (!key.value(QLatin1String("known")).toBool())
        key.insert(QStringLiteral("detail"),
                   namesHere ? QStringLiteral("its signature does not verify with this server's "
                                              "published keys (rotated out, forged, or never "
                                              "ours)")
                             : QStringLiteral("not a key of this server"));
    out.insert(QStringLiteral("key"), key);

    // The stored token, found by its storage key (issue time and hash; never the value).
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const QString hash = TokenIssuer::storageKey(QString::fromLatin1(token));
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT kind, client_id, subject, expires_at, revoked_at FROM "
                             "oauth_tokens WHERE hash = ?"));
    q.addBindValue(hash);
    if (q.exec() && q.next()) {
        const bool revoked = !q.value(4).isNull();
        const bool expired = q.value(3).toLongLong() <= now;
        QJsonObject stored{{QStringLiteral("id"), hash},
                           {QStringLiteral("kind"), q.value(0).toString()},
                           {QStringLiteral("state"), revoked   ? QStringLiteral("revoked")
                                                     : expired ? QStringLiteral("expired")
                                                               : QStringLiteral("active")},
                           {QStringLiteral("expiresAt"), Core::isoTimeMs(q.value(3).toLongLong())},
                           {QStringLiteral("revocable"), !revoked && !expired}};
        if (revoked)
            stored.insert(QStringLiteral("revokedAt"), Core::isoTimeMs(q.value(4).toLongLong()));
        out.insert(QStringLiteral("stored"), stored);
    } else {
        out.insert(
            QStringLiteral("stored"),
            QJsonObject{{QStringLiteral("state"), QStringLiteral("notStored")},
                        {QStringLiteral("revocable"), false},
                        {QStringLiteral("detail"),
                         !here ? QStringLiteral("not issued by this server")
                         : header.value(QLatin1String("typ")) == QLatin1String("at+jwt") ||
                                 payload.contains(QLatin1String("at_hash"))
                             ? QStringLiteral("no stored token has this value: not issued here, "
                                              "or removed after it expired")
                             : QStringLiteral("assertions are not stored")}});
    }

    // Its client and user: do they still exist?
    if (here) {
        QString clientId = payload.value(QLatin1String("client_id")).toString();
        if (clientId.isEmpty() && payload.value(QLatin1String("aud")).isString())
            clientId = payload.value(QLatin1String("aud")).toString(); // an id_token
        if (!clientId.isEmpty()) {
            const auto c = m_clients.find(clientId);
            QJsonObject client{{QStringLiteral("clientId"), clientId},
                               {QStringLiteral("exists"), c.has_value()}};
            if (c)
                client.insert(QStringLiteral("clientName"), c->clientName);
            out.insert(QStringLiteral("client"), client);
        }
        const QString sub = payload.value(QLatin1String("sub")).toString();
        if (!sub.isEmpty() && sub != clientId) {
            const auto u = m_users.findById(sub); // this server's tokens name users by id
            QJsonObject user{{QStringLiteral("id"), sub},
                             {QStringLiteral("exists"), u.has_value()}};
            if (u)
                user.insert(QStringLiteral("username"), u->username);
            out.insert(QStringLiteral("user"), user);
        }
    }
    return out;
}

QJsonArray OAuthConsole::activeTokens(const QString &clientId, const QString &subject,
                                      int limit) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral(
        "SELECT t.hash, t.kind, t.format, t.client_id, t.subject, u.username, t.scope, "
        "t.audience, t.issued_at, t.expires_at FROM oauth_tokens t LEFT JOIN oauth_users u ON "
        "u.id = t.subject WHERE t.revoked_at IS NULL AND t.expires_at > ? AND t.kind <> 'id' AND "
        "(? = '' OR t.client_id = ?) AND (? = '' OR t.subject = ?) AND NOT (t.kind = 'refresh' "
        "AND CAST(? AS BIGINT) > 0 AND COALESCE(t.auth_time, 0) > 0 AND t.auth_time + ? <= ?) "
        "ORDER BY t.id DESC LIMIT ?"));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    q.addBindValue(now);
    for (const QString &v : {clientId, clientId, subject, subject})
        q.addBindValue(v.isNull() ? QString(QLatin1String("")) : v);
    // A refresh token whose sign-in a lowered oauth-refresh-max-lifetime passed: refused by the
    // refresh grant and introspection, so not listed as active either.
    q.addBindValue(m_tokens.refreshMaxLifetimeMs());
    q.addBindValue(m_tokens.refreshMaxLifetimeMs());
    q.addBindValue(now);
    q.addBindValue(limit);
    QJsonArray items;
    if (q.exec())
        while (q.next()) {
            QJsonObject o{{QStringLiteral("id"), q.value(0).toString()},
                          {QStringLiteral("kind"), q.value(1).toString()},
                          {QStringLiteral("format"), q.value(2).toString()},
                          {QStringLiteral("clientId"), q.value(3).toString()},
                          {QStringLiteral("subject"), q.value(4).toString()},
                          {QStringLiteral("scope"), q.value(6).toString()},
                          {QStringLiteral("audience"), q.value(7).toString()},
                          {QStringLiteral("issuedAt"), Core::isoTimeMs(q.value(8).toLongLong())},
                          {QStringLiteral("expiresAt"), Core::isoTimeMs(q.value(9).toLongLong())}};
            if (!q.value(5).isNull())
                o.insert(QStringLiteral("username"), q.value(5).toString());
            items.append(o);
        }
    return items;
}

void OAuthConsole::revokeById(const QString &id, std::function<void(Core::Result<void>)> done) const
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    Core::EventBus *events = &m_events;
    m_writer.submit(
        [id, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &q = tx.stmt(
                "SELECT kind, family FROM oauth_tokens WHERE hash = ? AND revoked_at IS NULL");
            q.bind(1, id);
            if (!q.next())
                return Core::Error{QStringLiteral("token-not-found"),
                                   QStringLiteral("no active token %1").arg(id), 404};
            const QString family = q.text(1);
            if (q.text(0) == QLatin1String("refresh") && !family.isEmpty() &&
                !revokeFamily(tx, family, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("the token's family could not be revoked"), 500};
            Core::Statement &u = tx.stmt("UPDATE oauth_tokens SET revoked_at = ? WHERE hash = ? "
                                         "AND revoked_at IS NULL");
            if (!u.bind(1, now).bind(2, id).exec())
                return Core::WriteTransaction::sqlError(u, "revoke token");
            // What was exchanged from it dies with it.
            if (!revokeDescendants(tx, id, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("revoking the tokens exchanged from %1 failed")
                                       .arg(TokenIssuer::keyPrefix(id)),
                                   500};
            return {};
        },
        [id, events, done = std::move(done)](const Core::Result<void> &r) {
            if (r)
                events->publish(
                    QStringLiteral("oauth.token.revoked"),
                    QJsonObject{{QStringLiteral("tokenHashPrefix"), TokenIssuer::keyPrefix(id)},
                                {QStringLiteral("by"), QStringLiteral("admin")}});
            done(r);
        });
}

} // namespace Gatehouse::OAuth
