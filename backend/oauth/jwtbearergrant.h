#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

class JtiCache;
class TrustedIssuers;

// RFC 7523 §2.1: a JWT from a trusted issuer (signature, iss, sub, aud, exp, jti; a replayed
// jti is refused) becomes an access token for its subject, with at most the scopes an
// administrator set for that issuer.
class JwtBearerGrant final : public GrantHandler
{
public:
    JwtBearerGrant(const TokenIssuer &issuer, const TrustedIssuers &trusted, JtiCache &jti,
                   const UserStore &users)
        : m_issuer(issuer), m_trusted(trusted), m_jti(jti), m_users(users)
    {}
    QString grantType() const override
    {
        return QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer");
    }
    GrantResult handle(const TokenRequest &request) const override;

private:
    const TokenIssuer &m_issuer;
    const TrustedIssuers &m_trusted;
    JtiCache &m_jti;
    const UserStore &m_users;
};

} // namespace Gatehouse::OAuth
