#pragma once

#include "oauth/granthandler.h"

namespace Gatehouse::OAuth {

// RFC 6749 §4.3, only for clients registered with it (obsolete in OAuth 2.1). The same
// per-address rate limit and account lockout as the login page (counted before the password
// is checked, so parallel guesses cannot pass the threshold).
class PasswordGrant final : public GrantHandler
{
public:
    PasswordGrant(const TokenIssuer &issuer, UserStore &users, LockoutPolicy policy,
                  LoginRateLimit rateLimit)
        : m_issuer(issuer), m_users(users), m_policy(policy), m_rateLimit(std::move(rateLimit))
    {}
    QString grantType() const override { return QStringLiteral("password"); }
    GrantResult handle(const TokenRequest &request) const override;
    bool checksPasswords() const override { return true; }

private:
    const TokenIssuer &m_issuer;
    UserStore &m_users;
    LockoutPolicy m_policy;
    LoginRateLimit m_rateLimit;
};

} // namespace Gatehouse::OAuth
