#pragma once

namespace Gatehouse::Core {
class HttpServer;
}
namespace Gatehouse::OAuth {
class OAuthApi;
}

namespace Gatehouse::Admin {

// /admin/v1 nouns of the authorization server so far: clients, signing keys, users, consents,
// tokens, and the console's JWT inspector.
class OAuthAdminApi
{
public:
    OAuthAdminApi(Core::HttpServer &server, OAuth::OAuthApi &oauth);

private:
    void registerUserRoutes();
    void registerTokenRoutes();

    Core::HttpServer &m_server;
    OAuth::OAuthApi &m_oauth;
};

} // namespace Gatehouse::Admin
