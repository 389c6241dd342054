// RFC 8693: a token from this server or a trusted issuer exchanged for another.
#include "oauth/tokenexchangegrant.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "oauth/assertions.h"
#include "oauth/signingkeys.h"
#include "oauth/trustsettings.h"

#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>

namespace Gatehouse::OAuth {

namespace {

const QString kAccessToken = QStringLiteral("urn:ietf:params:oauth:token-type:access_token");
const QString kJwt = QStringLiteral("urn:ietf:params:oauth:token-type:jwt");
const QString kIdToken = QStringLiteral("urn:ietf:params:oauth:token-type:id_token");
// The longest chain of delegation an exchanged token names (act within act): each exchange
// with an actor adds one.
constexpr int kMaxActors = 8;

OAuthError invalidTarget(const QString &d)
{
    return {QStringLiteral("invalid_target"), d};
}

} // namespace

std::optional<OAuthError> TokenExchangeGrant::resolve(const QString &token, const QString &type,
                                                      const Client &client, qint64 now, Role role,
                                                      Subject *out) const
{
    if (type != kAccessToken && type != kJwt && type != kIdToken)
        return invalidRequest(
            QStringLiteral("token type '%1' is not supported (access_token, jwt, id_token)")
                .arg(type));
    const QString self = m_issuer.issuer();
    // This server's token, by its stored row: alive (not revoked, not expired) and of the
    // kind the type names. What it was granted bounds the exchange (fail closed: a token
    // this server did not record is refused, never taken at its word).
    auto stored = [&](const QString &kind) -> std::optional<OAuthError> {
        QSqlQuery q(m_database.connection());
        q.prepare(QStringLiteral("SELECT kind, client_id, subject, scope, audience, expires_at, "
                                 "revoked_at, family, code_hash, origin, act FROM oauth_tokens "
                                 "WHERE hash = ?"));
        out->hash = TokenIssuer::storageKey(token);
        q.addBindValue(out->hash);
        if (!q.exec() || !q.next() || q.value(0).toString() != kind)
            return invalidGrant(QStringLiteral("the %1 is unknown to this server")
                                    .arg(kind == QLatin1String("id") ? QStringLiteral("id_token")
                                                                     : QStringLiteral("token")));
        if (!q.value(6).isNull())
            return invalidGrant(QStringLiteral("the token was revoked (with the grant it came "
                                               "from)"));
        if (q.value(5).toLongLong() <= now)
            return invalidGrant(QStringLiteral("the token has expired"));
        out->local = true;
        out->iss = self;
        out->clientId = q.value(1).toString();
        out->sub = q.value(2).toString();
        out->scopes = q.value(3).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        // A scope an administrator took from the token's client since is taken from the token
        // (as the orders API and introspection take it): an exchange does not bring it back.
        const std::optional<Client> issuedTo = m_clients.find(out->clientId);
        if (!issuedTo)
            return invalidGrant(QStringLiteral("the token's client no longer exists"));
        out->scopes.removeIf(
            [&issuedTo](const QString &s) { return !issuedTo->scopes.contains(s); });
        out->audience = q.value(4).toString();
        out->expiresAt = q.value(5).toLongLong();
        out->family = q.value(7).toString();
        out->codeHash = q.value(8).toString();
        out->origin = q.value(9).toString();
        // Its chain of delegation as recorded (an opaque token carries no claims; a JWT's
        // act claim, read below, is the same).
        out->act = QJsonDocument::fromJson(q.value(10).toString().toUtf8()).object();
        return std::nullopt;
    };
    const QByteArray compact = token.toUtf8();
    if (token.count(QLatin1Char('.')) != 2) {
        // Opaque: only this server's access tokens are opaque.
        if (type != kAccessToken)
            return invalidGrant(QStringLiteral("a token of type %1 must be a JWT").arg(type));
        return stored(QStringLiteral("access"));
    }
    const QString iss = peekIssuer(compact);
    if (iss == self) {
        // An id_token must have been issued to the exchanging client; an access token may be
        // any client's (the gateway pattern).
        // The type named must be the token's own (RFC 9068 §2.1 at+jwt, OIDC's JWT): an
        // id_token is not an access token and is not bounded like one. Read before the
        // signature is checked: either way the mismatch is refused.
        const auto decoded = Crypto::Jws::decodeUnverified(compact);
        const QString typ = decoded ? decoded->value(QLatin1String("header"))
                                          .toObject()
                                          .value(QLatin1String("typ"))
                                          .toString()
                                    : QString();
        const bool accessJwt = typ.compare(QLatin1String("at+jwt"), Qt::CaseInsensitive) == 0;
        if (type == kIdToken && accessJwt)
            return invalidRequest(QStringLiteral("subject_token_type is id_token, but the token "
                                                 "is an access token (typ at+jwt)"));
        if (type != kIdToken && !accessJwt)
            return invalidRequest(QStringLiteral("subject_token_type is %1, but the token is not "
                                                 "an access token (typ %2, not at+jwt)")
                                      .arg(type.section(QLatin1Char(':'), -1),
                                           typ.isEmpty() ? QStringLiteral("missing") : typ));
        const QStringList audiences =
            type == kIdToken ? QStringList{client.clientId} : QStringList{};
        auto claims =
            verifyAssertion(compact, m_keys.jwks(), self, {}, audiences, now, 400 * 86400, false);
        if (!claims)
            return invalidGrant(claims.error().message);
        if (auto e = stored(type == kIdToken ? QStringLiteral("id") : QStringLiteral("access")))
            return e;
        if (type == kIdToken && out->clientId != client.clientId)
            return invalidGrant(QStringLiteral("the id_token was issued to another client"));
        out->act = claims->value(QStringLiteral("act")).toObject();
        return std::nullopt;
    }
    if (const auto trusted = m_trusted.find(iss, now)) { // its trust not ended
        // As a subject it is worth what the same JWT is worth to the jwt-bearer grant (which
        // takes the same audiences): an exchange must not be a way round its hour and its jti.
        const bool subject = role == Role::Subject;
        auto claims = verifyAssertion(compact, trusted->jwks, iss, {},
                                      {self, self + QStringLiteral("/oauth2/token")}, now,
                                      subject ? 3600 : 400 * 86400, subject);
        if (!claims)
            return invalidGrant(claims.error().message);
        if (subject) {
            out->jti = claims->value(QStringLiteral("jti")).toString();
            out->jtiKeptUntil = jtiKeptUntilMs(*claims);
        }
        // Within the leeway a token just past its exp still verifies: nothing is made of it.
        out->expiresAt = Core::jsonSeconds(claims->value(QStringLiteral("exp"))) * 1000;
        if (out->expiresAt <= now)
            return invalidGrant(QStringLiteral("the token has expired"));
        // What is made of it ends with the trust in its keys (an expiring admin token's).
        if (trusted->expiresAt > 0)
            out->expiresAt = std::min(out->expiresAt, trusted->expiresAt);
        out->sub = claims->value(QStringLiteral("sub")).toString();
        out->iss = iss;
        out->scopes = trusted->scopes; // the administrator's bound for this issuer
        // As a subject, whom it names must be whom the issuer may assert (an actor only names
        // who acts: act.sub, never whom the token is for).
        if (subject) {
            // Not read: refused (fail closed), never taken for "no such user".
            const auto userRead = m_users.lookup(out->sub);
            if (!userRead)
                return storageError(userRead.error(), QStringLiteral("the user could not be read"));
            const std::optional<User> &user = *userRead;
            out->names = subjectNames(out->sub, user ? &*user : nullptr);
            if (auto e = subjectRefused(*trusted, out->sub, user ? &*user : nullptr))
                return e;
        }
        return std::nullopt;
    }
    return invalidGrant(QStringLiteral("the token is not from this server or a trusted issuer"));
}

QString TokenExchangeGrant::ancestorWithoutClusterAccess(const QString &hash) const
{
    const auto chain = tokenChainClients(m_database, hash);
    if (!chain)
        return QStringLiteral("(unreadable)"); // fail closed
    for (const QString &clientId : *chain) {
        const auto client = m_clients.find(clientId);
        if (!client || !client->clusterAccess)
            return clientId;
    }
    return {};
}

GrantResult TokenExchangeGrant::handle(const TokenRequest &req) const
{
    const Client &c = req.client;
    // Stored before the registry refused it (clientregistry.cpp): refused here as well.
    if (!c.confidential())
        return grantFailed(
            unauthorizedClient(QStringLiteral("a public client cannot use token exchange")));
    if (!c.grantTypes.contains(grantType()))
        return grantFailed(unauthorizedClient(
            QStringLiteral("token exchange is not among this client's grant_types")));
    const QString subjectToken = req.params.value(QStringLiteral("subject_token"));
    const QString subjectType = req.params.value(QStringLiteral("subject_token_type"));
    if (subjectToken.isEmpty() || subjectType.isEmpty())
        return grantFailed(
            invalidRequest(QStringLiteral("subject_token and subject_token_type are required")));
    const QString requested = req.params.value(QStringLiteral("requested_token_type"));
    if (!requested.isEmpty() && requested != kAccessToken && requested != kJwt)
        return grantFailed(
            invalidRequest(QStringLiteral("requested_token_type must be access_token or jwt")));
    const QString actorToken = req.params.value(QStringLiteral("actor_token"));
    const QString actorType = req.params.value(QStringLiteral("actor_token_type"));
    if (actorToken.isEmpty() != actorType.isEmpty())
        return grantFailed(
            invalidRequest(QStringLiteral("actor_token and actor_token_type go together")));
    Subject subject;
    if (auto e = resolve(subjectToken, subjectType, c, req.now, Role::Subject, &subject))
        return grantFailed(*e);
    std::optional<Subject> actor;
    if (!actorToken.isEmpty()) {
        actor.emplace();
        if (auto e = resolve(actorToken, actorType, c, req.now, Role::Actor, &*actor))
            return grantFailed(*e);
        // The actor is the caller (RFC 8693 §1.1): one of this server's tokens is an actor
        // token only for the client it was issued to. Another client's token would name a
        // delegation that never took place. (A trusted issuer's token names its own subjects.)
        if (actor->local && actor->clientId != c.clientId)
            return grantFailed(invalidGrant(
                QStringLiteral("the actor_token was issued to another client: the actor is the "
                               "client that asks")));
        // And it names the client itself (its client_credentials token): a user's token it
        // holds would make the issuer vouch for a delegation by that user which never happened.
        if (actor->local && actor->sub != c.clientId)
            return grantFailed(invalidGrant(
                QStringLiteral("the actor_token names a user, not the client that asks: this "
                               "server's actor token is the client's own (client_credentials)")));
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
                return grantFailed(invalidTarget(
                    QStringLiteral("resource must be an absolute URI without a fragment")));
        }
        if (!c.tokenExchangeAudiences.contains(v))
            return grantFailed(invalidTarget(
                QStringLiteral("this client may not exchange tokens for '%1'").arg(v)));
        targets.append(v);
    }
    targets.removeDuplicates();
    if (targets.size() > 1)
        return grantFailed(invalidTarget(QStringLiteral("name one audience")));
    QStringList scopes;
    if (auto e = requestedScopes(c, req.params.value(QStringLiteral("scope")), &scopes))
        return grantFailed(*e);
    // Never more than the subject token was granted (RFC 8693 §2.1 leaves the policy to the
    // server; this one only narrows).
    if (req.params.contains(QStringLiteral("scope"))) {
        for (const QString &s : std::as_const(scopes))
            if (!subject.scopes.contains(s))
                return grantFailed(invalidScope(
                    QStringLiteral("scope '%1' exceeds what the subject token was granted (less "
                                   "what an administrator took from its client since)")
                        .arg(s)));
    } else {
        scopes.removeIf([&subject](const QString &s) { return !subject.scopes.contains(s); });
    }
    // No audience requested: the default resource of the scopes (RFC 9068 §3).
    const QString audience =
        targets.isEmpty() ? m_issuer.defaultAudience(c, scopes, req.sources) : targets.first();
    if (m_trust.isClusterAudience(audience)) {
        // Into the cluster: only a client an administrator allowed, and only from a token
        // that itself was issued for the cluster (fail closed; docs/oauth.md).
        if (!c.clusterAccess)
            return grantFailed(invalidTarget(
                QStringLiteral("'%1' is the cluster API's audience, and an administrator has not "
                               "allowed this client to act for the cluster")
                    .arg(audience)));
        if (!subject.local)
            return grantFailed(invalidTarget(QStringLiteral(
                "a token from another issuer is never exchanged for the cluster API")));
        // Nor one this server minted from another issuer's token or assertion: exchanging
        // first for another audience does not launder it.
        if (!subject.origin.isEmpty())
            return grantFailed(invalidTarget(
                QStringLiteral("the subject token descends from another issuer (%1) and is never "
                               "exchanged for the cluster API")
                    .arg(subject.origin)));
        // Nor with another issuer's actor: the token's `act` would name an identity of that
        // issuer, which removing the issuer would not revoke (its tokens go by origin).
        if (actor && (!actor->local || !actor->origin.isEmpty()))
            return grantFailed(invalidTarget(
                QStringLiteral("the actor_token comes from another issuer (%1), and is never "
                               "part of a token for the cluster API")
                    .arg(actor->local ? actor->origin : actor->iss)));
        // Its client allowed now: one issued for the cluster before an administrator took
        // that client's access away is not exchanged into it again.
        const auto issuedTo = m_clients.find(subject.clientId);
        if (!(issuedTo && issuedTo->clusterAccess))
            return grantFailed(invalidTarget(
                subject.audience == audience
                    ? QStringLiteral("the subject token's client is no longer allowed to act for "
                                     "the cluster")
                    : QStringLiteral("the subject token was not issued for the cluster API: its "
                                     "client is not allowed to act for the cluster")));
        // Nor one exchanged from a token of a client that is not: a gateway's own exchange of
        // a relying party's token first (no cluster involved) does not launder it.
        if (const QString other = ancestorWithoutClusterAccess(subject.hash); !other.isEmpty())
            return grantFailed(invalidTarget(
                QStringLiteral("the subject token descends from a token of a client not allowed "
                               "to act for the cluster (%1)")
                    .arg(other)));
    }
    // The client's own token (client_credentials: no user behind it) is exchanged only for what
    // the client may ask client_credentials for: token_exchange_audiences, kept apart from
    // allowed_resources, pass users' tokens on; exchanging its own would get round that.
    if (subject.local && subject.clientId == c.clientId && subject.sub == c.clientId &&
        !targets.isEmpty() && !m_issuer.mayRequestResource(c, audience))
        return grantFailed(invalidTarget(
            QStringLiteral("the subject token is this client's own (client_credentials): it is "
                           "exchanged only for an audience the client may ask for directly "
                           "(allowed_resources), not for '%1'")
                .arg(audience)));
    QString sub = subject.sub;
    // This server's token names a user by id, or is a client's own (client_credentials: its
    // client_id): a username that happens to equal a client_id does not make it theirs.
    // Not read: refused (fail closed), never taken for "no such user" (whose administrator's
    // lock below would not be looked at).
    const auto userRead = subject.local ? m_users.lookupById(sub) : m_users.lookup(sub);
    if (!userRead)
        return grantFailed(
            storageError(userRead.error(), QStringLiteral("the user could not be read")));
    const std::optional<User> &user = *userRead;
    QJsonObject extra = subjectClaims(user ? &*user : nullptr, &sub, scopes, req.sources);
    if (req.sources)
        noteSource(req.sources, QStringLiteral("sub"), QStringLiteral("subjectToken"),
                   QStringLiteral("the subject token's subject (issuer %1)").arg(subject.iss));
    noteSource(req.sources, QStringLiteral("scope"),
               req.params.contains(QStringLiteral("scope")) ? QStringLiteral("requestedScope")
                                                            : QStringLiteral("subjectToken"),
               req.params.contains(QStringLiteral("scope"))
                   ? QStringLiteral("the scope parameter, within the client record and the "
                                    "subject token's scope")
               : subject.local
                   ? QStringLiteral("no scope requested: the client's allowed scopes that the "
                                    "subject token also had")
                   : QStringLiteral("no scope requested: the client's allowed scopes that an "
                                    "administrator allows for issuer %1")
                         .arg(subject.iss));
    if (!targets.isEmpty())
        noteSource(req.sources, QStringLiteral("aud"), QStringLiteral("exchangePolicy"),
                   QStringLiteral("requested and allowed by the client's "
                                  "token_exchange_audiences"));
    // Who acts: the actor token's subject, with the subject token's own actors nested under it
    // (RFC 8693 §4.1, the chain of delegation); without an actor token, the subject token's
    // actors stay: a delegated token exchanged again does not pass for the user's own.
    QJsonObject act = subject.act;
    if (actor) {
        QJsonObject current{{QStringLiteral("sub"), actor->sub}};
        if (actor->iss != m_issuer.issuer())
            current.insert(QStringLiteral("iss"), actor->iss);
        if (!act.isEmpty())
            current.insert(QStringLiteral("act"), act);
        act = current;
        noteSource(req.sources, QStringLiteral("act"), QStringLiteral("actorToken"),
                   QStringLiteral("delegation: the actor token's subject acts for the subject "
                                  "(RFC 8693 §4.1)"));
    } else if (!act.isEmpty()) {
        noteSource(req.sources, QStringLiteral("act"), QStringLiteral("subjectToken"),
                   QStringLiteral("the subject token's delegation, kept (RFC 8693 §4.1)"));
    }
    int depth = 0;
    for (QJsonObject a = act; !a.isEmpty(); a = a.value(QStringLiteral("act")).toObject())
        ++depth;
    if (depth > kMaxActors)
        return grantFailed(
            invalidRequest(QStringLiteral("the chain of delegation would name more than %1 actors")
                               .arg(kMaxActors)));
    if (!act.isEmpty())
        extra.insert(QStringLiteral("act"), act);
    if (user && user->lockedByAdministrator())
        return grantFailed(
            invalidGrant(QStringLiteral("the user's account is locked by an administrator")));
    // An exchanged token lives no longer than its subject token (this server's or a trusted
    // issuer's: a short-lived partner token never became a day-long local one), and dies with
    // the grant it came from (its family and code: a replayed code, a reused refresh token, a
    // revoked consent).
    auto token = m_issuer.accessToken(c, sub, scopes.join(QLatin1Char(' ')), audience, req.now,
                                      extra, req.sources, subject.expiresAt);
    if (!token)
        return grantFailed(
            issuingError(token.error().code, token.error().message, token.error().httpStatus));
    token->family = subject.family;
    token->codeHash = subject.codeHash;
    if (!act.isEmpty())
        token->act = QJsonDocument(act).toJson(QJsonDocument::Compact);
    token->origin = subject.local ? subject.origin : subject.iss;
    if (subject.local)
        token->parent = subject.hash; // revoked with it (revokeDescendants)
    GrantResult out;
    out.response = QJsonObject{{QStringLiteral("access_token"), token->value},
                               {QStringLiteral("issued_token_type"), kAccessToken},
                               {QStringLiteral("token_type"), QStringLiteral("Bearer")},
                               {QStringLiteral("expires_in"), token->expiresIn(req.now)},
                               {QStringLiteral("scope"), token->scope}};
    out.tokens.append(*token);
    // The subject token is still alive when the result is stored (it was read before the
    // writer's transaction); a trusted issuer's is still trusted; the user (one of this
    // server's) not deleted, locked or changed by an administrator meanwhile.
    const QString userId = user ? user->id : QString();
    const qint64 updatedAt = user ? user->updatedAt : -1;
    if (subject.local) {
        const QString hash = subject.hash;
        const qint64 now = req.now;
        out.consume =
            [hash, now, userId, updatedAt, clientId = subject.clientId, scopes,
             origin = subject.origin](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
            // Descended from a trusted issuer: its row locked for share on PostgreSQL, so that
            // an administrator's narrowing or removal on another instance (which locks it, then
            // revokes the tokens of that origin) either sees this token or is seen by it.
            if (!origin.isEmpty() && tx.isPostgres()) {
                Core::Statement &o =
                    tx.stmt("SELECT 1 FROM oauth_trusted_issuers WHERE issuer = ? FOR SHARE");
                if (!o.bind(1, origin).next())
                    return invalidGrant(QStringLiteral("the issuer is no longer trusted"));
                o.next(); // done with it
            }
            Core::Statement &q =
                tx.stmt("SELECT revoked_at, expires_at FROM oauth_tokens WHERE hash = ?");
            q.bind(1, hash);
            if (!q.next() || !q.isNull(0) || q.int64(1) <= now)
                return invalidGrant(
                    QStringLiteral("the token was revoked (with the grant it came from)"));
            q.next(); // done with it
            // A scope taken from the subject token's client since it was read: what is stored
            // now would keep it (the revocation of what was exchanged ran before this).
            if (auto e = scopesStillAllowed(tx, clientId, scopes))
                return e;
            if (!userId.isEmpty())
                return userRefusal(tx, userId, updatedAt);
            return std::nullopt;
        };
    } else {
        // The assertion is spent last, when nothing else refused: the grant gives tokens.
        auto trusted = stillTrusted(subject.iss, userId, updatedAt, scopes, subject.names);
        JtiCache *jtis = &m_jti;
        out.consume = [trusted = std::move(trusted), jtis, iss = subject.iss, jti = subject.jti,
                       keptUntil = subject.jtiKeptUntil,
                       now = req.now](Core::WriteTransaction &tx) -> std::optional<OAuthError> {
            if (auto e = trusted(tx))
                return e;
            if (!jtis->claimIn(tx, iss, jti, keptUntil, now))
                return invalidGrant(QStringLiteral("this token was already used (jti)"));
            return std::nullopt;
        };
    }
    return out;
}

} // namespace Gatehouse::OAuth
