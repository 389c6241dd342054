#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

// RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6): single use; a replayed code revokes every token
// issued from it.
class AuthorizationCodeGrant final : public StoredGrant
{
public:
    using StoredGrant::StoredGrant;
    QString grantType() const override { return QStringLiteral("authorization_code"); }
    GrantResult handle(const TokenRequest &request) const override;
};

} // namespace Gatehouse::OAuth
