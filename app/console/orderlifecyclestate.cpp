#include "orderlifecyclestate.h"

namespace Gatehouse::Console {

OrderLifecycleState::OrderLifecycleState(AdminClient *client, QObject *parent)
    : ServerState(client, QStringLiteral("/orders/lifecycle"), QStringLiteral("order.lifecycle"),
                  parent)
{}

void OrderLifecycleState::setHeld(bool held)
{
    change("POST", held ? QStringLiteral("/orders/lifecycle/hold")
                        : QStringLiteral("/orders/lifecycle/release"));
}

void OrderLifecycleState::read(const QJsonObject &state)
{
    m_held = state.value(QLatin1String("held")).toBool();
    m_backlog = state.value(QLatin1String("backlog")).toInt();
}

void OrderLifecycleState::otherEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("order.created") && m_held) {
        ++m_backlog; // accepted while held: it waits with the others
        emit changed();
    }
}

} // namespace Gatehouse::Console
