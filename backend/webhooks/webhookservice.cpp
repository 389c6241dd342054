#include "webhooks/webhookservice.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/writequeue.h"
#include "webhooks/dispatcher.h"
#include "webhooks/signer.h"

#include <memory>

namespace Gatehouse::Webhooks {

using Core::Result;
using Core::WriteTransaction;

WebhookService::WebhookService(Core::Database &database, Core::WriteQueue &writer,
                               Core::EventBus &events, const Core::Clock &clock,
                               Dispatcher *dispatcher, OwnerExists ownerExists,
                               Core::EventQueue *eventQueue)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_dispatcher(dispatcher), m_ownerExists(std::move(ownerExists)), m_eventQueue(eventQueue)
{}

qint64 WebhookService::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

template <typename T>
void WebhookService::commit(std::function<Result<void>(WriteTransaction &, T &)> work,
                            std::function<void(Result<T>)> done,
                            std::function<void(const T &)> afterCommit)
{
    auto result = std::make_shared<T>();
    m_writer.submit(
        [result, work = std::move(work)](WriteTransaction &tx) { return work(tx, *result); },
        [result, done = std::move(done),
         afterCommit = std::move(afterCommit)](const Result<void> &r) {
            if (!r) {
                done(r.error());
                return;
            }
            afterCommit(*result);
            done(*result);
        });
}

void WebhookService::emitEvent(const QString &type, const QJsonObject &data)
{
    Core::EventQueue::postOrRun(m_eventQueue, [this, type, data] { m_events.publish(type, data); });
}

void WebhookService::rotateSecret(const QString &ownerId,
                                  std::function<void(Result<RotatedSecret>)> done)
{
    const QString secret = Signer::generateSecret();
    const qint64 overlap = m_secretOverlapMs;
    commit<RotatedSecret>(
        [this, secret, ownerId, overlap](WriteTransaction &tx,
                                         RotatedSecret &result) -> Result<void> {
            auto exists = m_ownerExists(tx, ownerId);
            if (!exists)
                return exists.error();
            if (!*exists)
                return Core::Error{QStringLiteral("customer-not-found"),
                                   QStringLiteral("no customer with id %1").arg(ownerId), 404};
            auto expires =
                WebhookStore::rotateSecret(tx, m_database, ownerId, secret, nowMs(), overlap);
            if (!expires)
                return expires.error();
            result.secret = secret;
            result.ownerId = ownerId;
            result.previousExpiresAt = *expires;
            return {};
        },
        std::move(done),
        [this](const RotatedSecret &result) {
            if (m_dispatcher)
                m_dispatcher->secretsChanged(result.ownerId);
            emitEvent(QStringLiteral("customer.secret-rotated"),
                      QJsonObject{{QStringLiteral("id"), result.ownerId},
                                  {QStringLiteral("previousSecretExpiresAt"),
                                   isoTime(result.previousExpiresAt)}});
        });
}

void WebhookService::redeliver(const QString &deliveryId,
                               std::function<void(Result<Delivery>)> done,
                               std::function<Result<void>(WriteTransaction &)> alsoInTransaction)
{
    commit<Delivery>(
        [this, deliveryId, also = std::move(alsoInTransaction)](WriteTransaction &tx,
                                                                Delivery &result) -> Result<void> {
            auto d = WebhookStore::markForRedelivery(tx, deliveryId, nowMs());
            if (!d)
                return d.error();
            if (also)
                if (auto r = also(tx); !r)
                    return r;
            result = *d;
            return {};
        },
        std::move(done),
        [this](const Delivery &result) {
            emitEvent(QStringLiteral("delivery.state"), result.toJson());
            if (m_dispatcher)
                m_dispatcher->add(result);
        });
}

void WebhookService::setEndpointEnabled(const QString &endpointId, bool enabled,
                                        std::function<void(Result<Endpoint>)> done)
{
    commit<Endpoint>(
        [this, endpointId, enabled](WriteTransaction &tx, Endpoint &result) -> Result<void> {
            auto e = WebhookStore::setEndpointEnabled(
                tx, endpointId, enabled, QStringLiteral("disabled by an administrator"), nowMs());
            if (!e)
                return e.error();
            result = *e;
            return {};
        },
        std::move(done),
        [this](const Endpoint &result) {
            if (m_dispatcher)
                m_dispatcher->endpointChanged(result);
            emitEvent(QStringLiteral("endpoint.state"),
                      WebhookStore::endpointJson(m_database.connection(), result));
        });
}

} // namespace Gatehouse::Webhooks
