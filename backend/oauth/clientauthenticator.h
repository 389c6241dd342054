#pragma once

#include "core/httpmessage.h"
#include "oauth/clientregistry.h"
#include "oauth/oautherror.h"

#include <QHash>

#include <optional>

namespace Gatehouse::Core {
class Clock;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

class JtiCache;

// Client authentication (RFC 6749 §2.3.1; RFC 7521 §4.2 and RFC 7523 §2.2) at every endpoint
// a client calls with its credentials: token, introspection, revocation, device
// authorization. A client authenticates the one way it registered
// (token_endpoint_auth_method):
//   client_secret_basic  HTTP Basic: the client id and secret, form-encoded, then Base64
//   client_secret_post   client_id and client_secret in the form
//   private_key_jwt      client_assertion: a JWT signed with one of the client's registered
//                        keys (jwks), its jti used once
//   none                 a public client names itself with client_id and proves nothing
// Refusals are RFC 6749 §5.2 errors: 401 invalid_client (with WWW-Authenticate: Basic when
// Basic was used), 400 invalid_request for two methods at once.
class ClientAuthenticator
{
public:
    // issuer: this server's; a client assertion's aud names it, its token endpoint or the
    // endpoint called.
    ClientAuthenticator(const ClientRegistry &clients, JtiCache &jti, const Core::Clock &clock,
                        QString issuer);

    // The authenticated client in *client, or the error to answer.
    std::optional<OAuthError> authenticate(const Core::HttpRequest &req,
                                           const QHash<QString, QString> &form,
                                           Client *client) const;

    // The client a request names (HTTP Basic's id, else client_id) before it is
    // authenticated: the registry's cached record, no proof of anything.
    std::optional<Client> named(const Core::HttpRequest &req,
                                const QHash<QString, QString> &form) const;

private:
    // invalid_client when the client's credentials ended (Client::credentialsUntil).
    std::optional<OAuthError> credentialsEnded(const Client &c, bool basic) const;
    std::optional<OAuthError> authenticateAssertion(const QHash<QString, QString> &form,
                                                    Client *client) const;

    const ClientRegistry &m_clients;
    JtiCache &m_jti;
    const Core::Clock &m_clock;
    QString m_issuer;
};

// The client a token request names, looked up only when asked: the token endpoint asks its
// grant handler where a request runs before the client is authenticated
// (GrantHandler::runsInline). Lives on the caller's stack; holds references only.
class NamedClient
{
public:
    NamedClient(const ClientAuthenticator &authenticator, const Core::HttpRequest &req,
                const QHash<QString, QString> &form)
        : m_authenticator(authenticator), m_req(req), m_form(form)
    {}
    std::optional<Client> find() const { return m_authenticator.named(m_req, m_form); }

private:
    const ClientAuthenticator &m_authenticator;
    const Core::HttpRequest &m_req;
    const QHash<QString, QString> &m_form;
};

} // namespace Gatehouse::OAuth
