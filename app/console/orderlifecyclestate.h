#pragma once

#include "serverstate.h"

namespace Gatehouse::Console {

// Whether the order lifecycle runs or is held (GET /admin/v1/orders/lifecycle, POST .../hold
// and .../release, the order.lifecycle event). Held, new orders are accepted and wait in NEW: a
// demo shows the queue filling, then the release sends it through. While held, every
// order.created adds one to the orders waiting.
class OrderLifecycleState : public Gatehouse::Console::ServerState
{
    Q_OBJECT
    Q_PROPERTY(bool held READ held NOTIFY changed)
    // Orders waiting for validation and allocation (kept exact while held).
    Q_PROPERTY(int backlog READ backlog NOTIFY changed)

public:
    explicit OrderLifecycleState(AdminClient *client, QObject *parent = nullptr);

    bool held() const { return m_held; }
    int backlog() const { return m_backlog; }

    Q_INVOKABLE void setHeld(bool held);

protected:
    void read(const QJsonObject &state) override; // {"held", "backlog"}
    void otherEvent(const AdminEvent &event) override;

private:
    bool m_held = false;
    int m_backlog = 0;
};

} // namespace Gatehouse::Console
