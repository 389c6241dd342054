#pragma once

#include "core/httpserver.h"
#include "oauth/granthandler.h"

#include <QJsonArray>
#include <QJsonObject>

#include <functional>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

class SigningKeys;

// What the admin console asks of the authorization server (through the admin API, never the
// service listener): token previews, effective access, what the server knows of a JWT, the
// active tokens, revoking one by its id, and client_credentials tokens minted without the
// client's secret. Reads the same records and runs the same grant handlers as the endpoints.
class OAuthConsole
{
public:
    // The token endpoint's storing and answering (OAuthApi::commit), for minted tokens.
    using Commit = std::function<void(GrantResult result, const QString &grantType,
                                      const Core::Responder &respond)>;

    OAuthConsole(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                 const Core::Clock &clock, QString issuer, const ClientRegistry &clients,
                 const UserStore &users, const SigningKeys &keys, const TokenIssuer &tokens,
                 const GrantHandlers &grants, Commit commit);

    // A client_credentials token for a confidential client without its secret (console
    // demos): `client` as the caller read it and checked its permissions against, so that
    // the token carries no scope the check did not see.
    void mintClientCredentials(const Client &client, const QHash<QString, QString> &params,
                               const Core::Responder &respond) const;
    // The active tokens (newest first).
    QJsonArray activeTokens(const QString &clientId, const QString &subject, int limit) const;
    // What this server knows of a JWT (the server-aware inspector): whether it issued it, its
    // signing key (active, next, retired, or no longer published), whether the token is stored
    // and still active, revoked or expired (by the hash of its value; `id` revokes it through
    // DELETE /admin/v1/tokens/{id}), and whether its client and user still exist.
    QJsonObject tokenStatus(const QByteArray &token, const QJsonObject &header,
                            const QJsonObject &payload) const;
    // The token preview: a dry run of the real issuing code for a client and grant type.
    // request: {"client_id", "grant_type", "scope"?, "resource"?, "audience"?, "username"?
    // (user grants), "subject_token"/"subject_token_type"/"actor_token"/"actor_token_type"
    // (token exchange)}. Answers the access token's header and claims, each claim with its
    // source, and what else would be issued; nothing is stored, no event says "issued", the
    // signed value never leaves this function. An error: {"error", "error_description"}.
    QJsonObject previewToken(const QJsonObject &request) const;
    // Effective access of an OAuth user ({"username"}) or client ({"client_id"}): every scope
    // and claim it can obtain, each with its source, read off token previews with every
    // allowed scope (so from the real issuing code). An error: {"error", "error_description"}.
    QJsonObject effectiveAccess(const QJsonObject &request) const;
    // Revokes one token by its id (the hash); a refresh token takes its family with it.
    void revokeById(const QString &id, std::function<void(Core::Result<void>)> done) const;

private:
    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    QString m_issuer;
    const ClientRegistry &m_clients;
    const UserStore &m_users;
    const SigningKeys &m_keys;
    const TokenIssuer &m_tokens;
    const GrantHandlers &m_grants;
    Commit m_commit;
};

} // namespace Gatehouse::OAuth
