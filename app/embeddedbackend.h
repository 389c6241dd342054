#pragma once

#include "core/config.h"
#include "core/result.h"

#include <QThread>

namespace Gatehouse::Admin {
class Backend;
}

namespace Gatehouse {

// The backend on its own thread, so the GUI never blocks on request handling.
class EmbeddedBackend
{
public:
    explicit EmbeddedBackend(Core::Config config);
    ~EmbeddedBackend();

    Result<void> start();
    void stop(); // blocks until the backend has finished in-flight requests and closed
    QString adminUrl() const { return m_adminUrl; }
    QString adminToken() const { return m_adminToken; }

private:
    Core::Config m_config;
    QThread m_thread;
    QObject *m_context = nullptr;
    Admin::Backend *m_backend = nullptr;
    QString m_adminUrl;
    QString m_adminToken;
};

} // namespace Gatehouse
