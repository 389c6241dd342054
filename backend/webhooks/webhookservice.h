#pragma once

#include "core/result.h"
#include "webhooks/webhookstore.h"

#include <QJsonObject>

#include <functional>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class EventQueue;
class WriteQueue;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::Webhooks {

class Dispatcher;

// What an administrator does to webhook deliveries and their endpoints and secrets: rotate an
// owner's signing secret, redeliver one delivery, enable or disable an endpoint (bulk
// redelivery is RedeliveryJobs, built on redeliver()). Each is one job on the single database
// writer; after the commit the dispatcher is told and the event published, in commit order
// with every other module's events when an EventQueue is given.
class WebhookService
{
public:
    // Whether the owner of deliveries and secrets (a customer of the orders service) exists:
    // asked in the rotation's transaction, so that an unknown owner is a 404 and gets no secret.
    using OwnerExists =
        std::function<Core::Result<bool>(Core::WriteTransaction &, const QString &)>;

    WebhookService(Core::Database &database, Core::WriteQueue &writer, Core::EventBus &events,
                   const Core::Clock &clock, Dispatcher *dispatcher, OwnerExists ownerExists,
                   Core::EventQueue *eventQueue = nullptr);

    // How long a rotated-out secret still signs (next to the new one); 24 hours by default.
    void setSecretOverlapMs(qint64 ms) { m_secretOverlapMs = ms; }

    struct RotatedSecret
    {
        QString ownerId;
        QString secret; // shown once
        qint64 previousExpiresAt = 0;
    };
    // 404 customer-not-found for an unknown owner.
    void rotateSecret(const QString &ownerId,
                      std::function<void(Core::Result<RotatedSecret>)> done);
    // alsoInTransaction runs in the transaction that marks the delivery (a bulk job counts it
    // there, so its progress survives a crash exactly).
    void
    redeliver(const QString &deliveryId, std::function<void(Core::Result<Delivery>)> done,
              std::function<Core::Result<void>(Core::WriteTransaction &)> alsoInTransaction = {});
    void setEndpointEnabled(const QString &endpointId, bool enabled,
                            std::function<void(Core::Result<Endpoint>)> done);

private:
    template <typename T>
    void commit(std::function<Core::Result<void>(Core::WriteTransaction &, T &)> work,
                std::function<void(Core::Result<T>)> done,
                std::function<void(const T &)> afterCommit);
    void emitEvent(const QString &type, const QJsonObject &data); // in commit order
    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    Dispatcher *m_dispatcher;
    OwnerExists m_ownerExists;
    Core::EventQueue *m_eventQueue; // events published there; null: inline
    qint64 m_secretOverlapMs = 24LL * 3600 * 1000;
};

} // namespace Gatehouse::Webhooks
