#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

// RFC 6749 §4.4: a confidential client on its own behalf.
class ClientCredentialsGrant final : public GrantHandler
{
public:
    explicit ClientCredentialsGrant(const TokenIssuer &issuer) : m_issuer(issuer) {}
    QString grantType() const override { return QStringLiteral("client_credentials"); }
    GrantResult handle(const TokenRequest &request) const override;
    bool takesResource() const override { return true; }
    // The opaque fast path: a client whose tokens are opaque, authenticating with a secret.
    bool runsInline(const QHash<QString, QString> &params,
                    const NamedClient &client) const override;

private:
    const TokenIssuer &m_issuer;
};

} // namespace Gatehouse::OAuth
