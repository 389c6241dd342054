#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

// RFC 6749 §6 with rotation: a used refresh token presented again revokes its family.
class RefreshTokenGrant final : public StoredGrant
{
public:
    using StoredGrant::StoredGrant;
    QString grantType() const override { return QStringLiteral("refresh_token"); }
    GrantResult handle(const TokenRequest &request) const override;
};

} // namespace Gatehouse::OAuth
