#pragma once

#include "oauth/clientregistry.h"
#include "oauth/oautherror.h"
#include "oauth/tokenissuer.h"
#include "oauth/userstore.h"

#include <QHash>
#include <QJsonObject>
#include <QSqlDatabase>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Gatehouse::Core {
class Database;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

class NamedClient;
struct TrustedIssuer;

struct TokenRequest
{
    QHash<QString, QString> params;  // the form, each parameter once
    Client client;                   // authenticated (or identified, for public clients)
    qint64 now = 0;                  // ms
    ClaimSources *sources = nullptr; // the token preview: where each claim came from
    QString address;                 // the client's address (rate limits)
};

// Sign-in attempts per client address: true (and the wait) when over the limit. The login
// page's limiter, shared with the password grant.
using LoginRateLimit =
    std::function<bool(const QString &address, qint64 now, qint64 *retryAfterMs)>;

struct GrantResult
{
    std::optional<OAuthError> error;
    QJsonObject response;      // the token response (RFC 6749 §5.1)
    QByteArray responseBody;   // or it already serialized (client_credentials builds only this)
    QList<IssuedToken> tokens; // to store before answering
    // Runs first in the writer's transaction (e.g. marks a code used). An error it returns
    // is answered instead and the tokens are not stored, but its own writes (revoking a
    // replayed code's tokens) are committed.
    std::function<std::optional<OAuthError>(Core::WriteTransaction &)> consume;
};

// One per grant type (ORY fosite's shape): the token endpoint knows no grant itself. Each
// grant has its own file (clientcredentialsgrant.h, authorizationcodegrant.h, ...); what
// several share is below (granthandler.cpp).
class GrantHandler
{
public:
    virtual ~GrantHandler() = default;
    virtual QString grantType() const = 0;
    virtual GrantResult handle(const TokenRequest &request) const = 0;
    // Asked before the client is authenticated: whether this request is answered on the
    // connection's thread instead of the server's pool, because all its work (client
    // authentication included) costs less than waking a pool thread. Default: the pool.
    virtual bool runsInline(const QHash<QString, QString> & /*params*/,
                            const NamedClient & /*client*/) const
    {
        return false;
    }
    // Whether it checks a user's password (argon2id): then it runs on the server's isolated
    // pool (RouteOptions::isolated), never holding up the other grants.
    virtual bool checksPasswords() const { return false; }
    // Whether it takes RFC 8707's `resource` (client_credentials, token exchange); the others
    // refuse it (resourceNotTaken).
    virtual bool takesResource() const { return false; }
};

using GrantHandlers = std::vector<std::unique_ptr<GrantHandler>>;

// A user grant that redeems what this server stored (a code, a refresh token, a device code):
// read from the database, issued for a user that still exists.
class StoredGrant : public GrantHandler
{
public:
    StoredGrant(const TokenIssuer &issuer, Core::Database &database, const UserStore &users)
        : m_issuer(issuer), m_database(database), m_users(users)
    {}

protected:
    const TokenIssuer &m_issuer;
    Core::Database &m_database;
    const UserStore &m_users;
};

// The handler of a grant type, or nullptr.
const GrantHandler *grantHandlerFor(const GrantHandlers &grants, const QString &grantType);

// What several grants share.

inline OAuthError invalidGrant(const QString &d)
{
    return {QStringLiteral("invalid_grant"), d};
}
inline OAuthError serverError(const QString &d)
{
    return {QStringLiteral("server_error"), d, 500};
}
// A GrantResult that only answers this error.
GrantResult grantFailed(const OAuthError &e);
// The answer when a grant could not read its code or token (`q` failed, or `db` is not open):
// 503 temporarily_unavailable while the database cannot be reached, nothing spent, else
// server_error. Never invalid_grant: a code that could not be read is not unknown, and a
// client told so would throw it away.
GrantResult grantReadFailed(const QSqlDatabase &db, const QSqlQuery *q);

// RFC 8707 `resource` where it is not taken (the user grants, the authorization and device
// authorization requests: their tokens' audience is the client's, or the orders API's for its
// orders scopes): invalid_target, not ignored. A client that named a resource server to bind
// its token to would otherwise hand that server a token good at the orders API and userinfo.
std::optional<OAuthError> resourceNotTaken(const QHash<QString, QString> &params);

// Scopes asked for (the `scope` parameter), each allowed to the client; none asked for: all
// the client's.
std::optional<OAuthError> requestedScopes(const Client &client, const QString &scope,
                                          QStringList *scopes);

// Shared by the user grants: the access token, a refresh token when the client may refresh
// and the grant is offline (below), and an id_token for `openid`. Fills result.response and
// result.tokens.
struct UserTokenRequest
{
    const Client *client = nullptr;
    const User *user = nullptr;
    QStringList scopes;
    QString nonce;
    qint64 authTime = 0;
    QString family;
    QString codeHash;
    qint64 now = 0;
    // The refresh grant: the refresh token presented is replaced by a new one (its family was
    // granted offline access when it began). Else a refresh token is issued only when the
    // scopes granted include `offline_access`, the scope the consent page shows as "Stay
    // signed in when you are not using it" (OpenID Connect Core §11, node oidc-provider's
    // rule): without it, the grant lasts as long as its access token.
    bool rotation = false;
    ClaimSources *sources = nullptr; // the token preview: where each claim came from
};
void issueUserTokens(const TokenIssuer &issuer, const UserTokenRequest &request,
                     GrantResult *result);

// In the transaction that stores the tokens: the user still exists and is not locked by an
// administrator (a lock or delete may have committed since the grant was checked). A lock after
// failed sign-ins does not count: it guards the password, not the tokens already granted.
std::optional<OAuthError> userRefusal(Core::WriteTransaction &tx, const QString &userId,
                                      qint64 expectedUpdatedAt = -1);
// A GrantResult::consume for a grant from another issuer's assertion or token: refused when an
// administrator removed the issuer meanwhile (its tokens are revoked with it), or, when userId
// is one of this server's users, userRefusal(userId, expectedUpdatedAt).
// `scopes`, the scopes of the token to be stored, must all still be allowed for the issuer (an
// administrator's narrowing that committed after the grant read them).
// `subjectNames` (subjectNames()) must still be a subject the issuer may assert.
std::function<std::optional<OAuthError>(Core::WriteTransaction &)>
stillTrusted(const QString &issuer, const QString &userId, qint64 expectedUpdatedAt,
             const QStringList &scopes, const QStringList &subjectNames);

// The names a trusted issuer's `sub` goes by here: the id and stored username of the local
// user it names (user: UserStore::find(sub)), else the `sub` itself.
QStringList subjectNames(const QString &sub, const User *user);
// invalid_grant when `issuer` may not assert that subject (TrustedIssuer::mayAssert).
std::optional<OAuthError> subjectRefused(const TrustedIssuer &issuer, const QString &sub,
                                         const User *user);

// Whether every one of `scopes` is still among the client's, read in the writer's transaction
// (an administrator's narrowing that committed after a token exchange read the client): the
// refusal, or nullopt.
std::optional<OAuthError> scopesStillAllowed(Core::WriteTransaction &tx, const QString &clientId,
                                             const QStringList &scopes);

// Whether each token a grant is about to store is within its client's scopes as stored now, in
// the writer's transaction: an administrator's narrowing (narrowClientGrants) that committed
// after the grant read the client finds nothing of it to narrow, and would leave the scope in
// what is stored (to come back when the scope is given back). invalid_grant, nothing spent
// (the caller runs it before the grant consumes its code or token), or nullopt.
std::optional<OAuthError> scopesTakenMeanwhile(Core::WriteTransaction &tx,
                                               const QList<IssuedToken> &tokens);

// The local user a grant's subject names (`user`, found by the caller: by id or username for
// another issuer's `sub`, by id only for this server's tokens) gives `sub` the user's id and
// the scoped claims (the grants that take a JWT from elsewhere: jwt-bearer, token exchange).
// Without a user: no claims, `sub` unchanged.
QJsonObject subjectClaims(const User *user, QString *sub, const QStringList &scopes,
                          ClaimSources *sources = nullptr);

// Revoke every live token of a family, or issued from a code (in the writer's transaction).
bool revokeFamily(Core::WriteTransaction &tx, const QString &family, qint64 now);
bool revokeCodeTokens(Core::WriteTransaction &tx, const QString &codeHash, qint64 now);
// Revoke every live token exchanged from the token stored as `hash`, and from those, down the
// whole chain (an exchanged token dies with its subject token: revoked by the client, an
// administrator, or with its client).
bool revokeDescendants(Core::WriteTransaction &tx, const QString &hash, qint64 now);
// The same for every token of a client.
bool revokeClientDescendants(Core::WriteTransaction &tx, const QString &clientId, qint64 now);
// Every refresh token of the client, revoked (offline_access taken from it).
bool revokeClientRefreshTokens(Core::WriteTransaction &tx, const QString &clientId, qint64 now);
// Scopes an administrator (or a registrant) took from a client leave what it was given, so that
// giving them back gives them to new grants only: the stored scope of its tokens (access,
// refresh, id; what the resource server, introspection, userinfo, refresh and token exchange
// read), of its codes not yet redeemed, of its device codes, and of its users' consents (a
// consent left with no scope goes).
bool narrowClientGrants(Core::WriteTransaction &tx, const QString &clientId,
                        const QStringList &removed);
// The clients of the token stored as `hash` and of every token up its chain (the subject
// tokens it was exchanged from), each once; an error when it could not be read.
Core::Result<QStringList> tokenChainClients(Core::Database &database, const QString &hash);

} // namespace Gatehouse::OAuth
