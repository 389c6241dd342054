#pragma once

#include "oauth/clientregistry.h"
#include "oauth/oautherror.h"
#include "oauth/tokenissuer.h"

#include <QHash>
#include <QJsonObject>

#include <optional>

namespace Gatehouse::OAuth {

struct TokenRequest
{
    QHash<QString, QString> params; // the form, each parameter once
    Client client;                  // authenticated (or identified, for public clients)
    qint64 now = 0;                 // ms
};

struct GrantResult
{
    std::optional<OAuthError> error;
    QJsonObject response;      // the token response (RFC 6749 §5.1)
    QList<IssuedToken> tokens; // to store before answering
};

// One per grant type (ORY fosite's shape): the token endpoint knows no grant itself.
class GrantHandler
{
public:
    virtual ~GrantHandler() = default;
    virtual QString grantType() const = 0;
    virtual GrantResult handle(const TokenRequest &request) const = 0;
};

// RFC 6749 §4.4: a confidential client on its own behalf.
class ClientCredentialsGrant final : public GrantHandler
{
public:
    explicit ClientCredentialsGrant(const TokenIssuer &issuer) : m_issuer(issuer) {}
    QString grantType() const override { return QStringLiteral("client_credentials"); }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
};

} // namespace Gatehouse::OAuth
