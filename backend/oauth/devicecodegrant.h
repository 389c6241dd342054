#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

// RFC 8628 §3.4–3.5: polls answer authorization_pending, slow_down (polling faster than the
// interval, which then grows by 5 s), access_denied, expired_token; an approved code gives
// tokens once. The device authorization endpoint (§3.1–3.2) is in oauthapi.cpp.
class DeviceCodeGrant final : public StoredGrant
{
public:
    using StoredGrant::StoredGrant;
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:device_code");
    }
    GrantResult handle(const TokenRequest &request) const override;
};

} // namespace Gatehouse::OAuth
