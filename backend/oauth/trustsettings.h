#pragma once

#include "oauth/clientregistry.h"

#include <QMutex>
#include <QString>

namespace Gatehouse::OAuth {

// Where the authorization server meets the other services (docs/oauth.md, "Trust
// boundaries"): the audience the cluster API accepts (oidc-client-id) and the orders API's
// resource indicator, both fixed before the server starts, and the registration policy for
// RFC 7591 clients, which changes live.
class TrustSettings
{
public:
    // Set once, before any request is served (read without a lock on the token path).
    void setClusterAudience(QString audience) { m_clusterAudience = std::move(audience); }
    void setOrdersResource(QString resource) { m_ordersResource = std::move(resource); }
    // The audience whose tokens the cluster API accepts as users; empty: none.
    const QString &clusterAudience() const { return m_clusterAudience; }
    bool isClusterAudience(const QString &audience) const
    {
        return !m_clusterAudience.isEmpty() && audience == m_clusterAudience;
    }
    // The orders API's resource indicator (RFC 8707): its tokens' audience.
    const QString &ordersResource() const { return m_ordersResource; }

    RegistrationPolicy registrationPolicy() const
    {
        QMutexLocker lock(&m_mutex);
        return m_registration;
    }
    void setRegistrationPolicy(RegistrationPolicy policy)
    {
        QMutexLocker lock(&m_mutex);
        m_registration = std::move(policy);
    }

private:
    QString m_clusterAudience;
    QString m_ordersResource;
    mutable QMutex m_mutex;
    RegistrationPolicy m_registration = RegistrationPolicy::defaults();
};

} // namespace Gatehouse::OAuth
