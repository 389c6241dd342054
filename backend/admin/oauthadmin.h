#pragma once

#include "core/httpmessage.h"
#include "core/result.h"
#include "oauth/clientregistry.h"

#include <QJsonObject>

#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class HttpServer;
} // namespace Gatehouse::Core
namespace Gatehouse::OAuth {
class OAuthApi;
struct User;
} // namespace Gatehouse::OAuth

namespace Gatehouse::Admin {

class AdminTokens;

// /admin/v1 nouns of the authorization server so far: clients, signing keys, users, consents,
// tokens, and the console's JWT inspector.
class OAuthAdminApi
{
public:
    // tokens: who is calling, for the changes that also need the cluster area (a client's
    // cluster access, a user's system: groups).
    OAuthAdminApi(Core::HttpServer &server, OAuth::OAuthApi &oauth, const AdminTokens &tokens,
                  const Core::Clock &clock);

    // What a user is in the cluster when they sign in through a client allowed to act for it
    // (the effective-access answer's "cluster"); set by the composition, which knows the
    // cluster's OIDC settings.
    void setClusterIdentity(std::function<QJsonObject(const QString &username)> identity)
    {
        m_clusterIdentity = std::move(identity);
    }

    // Whether a user group is a privileged cluster group: system:*, or a group
    // oidc-group-mappings maps (set by the composition, which knows the cluster's settings).
    void setPrivilegedGroup(std::function<bool(const QString &group)> privileged)
    {
        m_privilegedGroup = std::move(privileged);
    }

    // Why a user is a cluster identity by RBAC (a binding names the cluster username their
    // id_token would give, or one of their cluster groups), as a phrase; empty when none does.
    // Set by the composition, which knows the cluster's OIDC settings and RBAC.
    void setClusterBinding(std::function<QString(const OAuth::User &user)> binding)
    {
        m_clusterBinding = std::move(binding);
    }

    // Whether another user already gives the cluster the username `after` would give (a claim
    // that is not unique among users: email, name), as a sentence; empty when none does or the
    // change keeps the username `before` had (null: a new user). Set by the composition.
    void setClusterTwin(
        std::function<Core::Result<QString>(const OAuth::User *before, const OAuth::User &after)>
            twin)
    {
        m_clusterTwin = std::move(twin);
    }

private:
    bool privilegedGroup(const QString &group) const
    {
        return group.startsWith(QLatin1String("system:")) ||
               (m_privilegedGroup && m_privilegedGroup(group));
    }
    void registerUserRoutes();
    void registerTokenRoutes();

    // The 403 for a caller that may not read (write: change) `area` as well, naming what it
    // tried; nullopt when allowed.
    std::optional<Core::HttpResponse> needsArea(const Core::HttpRequest &req, const QString &area,
                                                bool write, const QString &what) const;
    // The same refusal as an error (403 forbidden), for a check made again later.
    std::optional<Core::Error> areaRefusal(const Core::HttpRequest &req, const QString &area,
                                           bool write, const QString &what) const;
    // The areas this caller lacks, applied again to the client as stored in the writer's
    // transaction (ClientRegistry::StoredCheck): a client another administrator allowed to act
    // for the cluster, or gave the orders API's scopes, after this request's check is refused
    // as it would have been before ("may not VERB a client ...").
    OAuth::ClientRegistry::StoredCheck storedClientCheck(const Core::HttpRequest &req,
                                                         const QString &verb) const;
    // The 403 for a caller without cluster:write, naming what it tried; nullopt when allowed.
    std::optional<Core::HttpResponse> needsClusterWrite(const Core::HttpRequest &req,
                                                        const QString &what) const;
    // The same for a client whose scopes reach the orders API (orders:read, orders:write):
    // making it, changing it, its secret and its tokens hand out what those scopes give, so the
    // caller needs the orders area as well (orders:write for a client with orders:write,
    // orders:read for one that only reads). `scopes`: every scope the client has or is to
    // have. nullopt when allowed or when no orders scope is among them.
    std::optional<Core::HttpResponse> needsOrdersArea(const Core::HttpRequest &req,
                                                      const QStringList &scopes,
                                                      const QString &what) const;
    // Users sign in to clients: where a client with the orders API's scopes takes a user's
    // grant (authorization_code, password, device_code, token-exchange), or a registration
    // policy lets a registrant make one, whoever knows a user's password reads (or changes)
    // the orders that client reaches, as a token minted for it would. Making a user, resetting
    // a password or lifting an administrator's lock then needs the orders area as well (as
    // needsOrdersArea, for the union of those scopes); nullopt when allowed or when no such
    // client or policy exists. `what` names the change ("may not create a user").
    std::optional<Core::HttpResponse> needsOrdersAreaForUsers(const Core::HttpRequest &req,
                                                              const QString &what) const;
    // When what this request issues that authenticates (a client's secret or keys, the
    // registrations of an initial access token, the trust in an issuer's keys, a user's
    // password) ends: the end
    // of the expiring admin token that asked, so that none outlives it; 0: never (the root
    // token, a scoped token without expiry: what it issues is listed, and can be rotated or
    // removed); 1 (long past) for a token that ended since the area check.
    qint64 credentialsUntil(const Core::HttpRequest &req) const;
    // Both of the above for what an existing client is now ("may not VERB a client allowed to
    // act for the cluster", "... with the orders API's scopes"): its secret rotated, deleted.
    std::optional<Core::HttpResponse> needsAreasOfClient(const Core::HttpRequest &req,
                                                         const QString &clientId,
                                                         const QString &verb) const;

    Core::HttpServer &m_server;
    OAuth::OAuthApi &m_oauth;
    const AdminTokens &m_tokens;
    const Core::Clock &m_clock; // key rotation, users' lock state, the JWT inspector's "now"
    std::function<QJsonObject(const QString &username)> m_clusterIdentity;
    std::function<bool(const QString &group)> m_privilegedGroup;
    std::function<QString(const OAuth::User &user)> m_clusterBinding;
    std::function<Core::Result<QString>(const OAuth::User *before, const OAuth::User &after)>
        m_clusterTwin;
};

} // namespace Gatehouse::Admin
