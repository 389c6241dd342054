#include "embeddedbackend.h"

#include "admin/backend.h"
#include "core/threadstate.h"

#include <QEventLoop>

namespace Gatehouse {

EmbeddedBackend::EmbeddedBackend(Core::Config config) : m_config(std::move(config))
{
    m_thread.setObjectName(QStringLiteral("gatehouse-backend"));
    Core::ThreadState::releaseAtFinish(m_thread);
}

EmbeddedBackend::~EmbeddedBackend()
{
    stop();
}

Result<void> EmbeddedBackend::start()
{
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    Result<void> result;
    QMetaObject::invokeMethod(
        m_context,
        [this, &result] {
            m_backend = new Admin::Backend(m_config);
            result = m_backend->start();
            if (result) {
                m_adminUrl = m_backend->adminUrl();
                m_adminToken = m_backend->adminToken();
            }
        },
        Qt::BlockingQueuedConnection);
    return result;
}

void EmbeddedBackend::stop()
{
    if (!m_thread.isRunning())
        return;
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            if (m_backend) {
                QEventLoop loop;
                bool done = false;
                m_backend->stop([&] {
                    done = true;
                    loop.quit();
                });
                if (!done)
                    loop.exec();
                delete m_backend;
                m_backend = nullptr;
            }
            delete m_context;
            m_context = nullptr;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace Gatehouse
