#include "webhooks/demoreceiver.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "webhooks/signer.h"
#include "webhooks/webhookstore.h"

#include <QJsonDocument>
#include <QUuid>

namespace Gatehouse::Webhooks {

namespace {
constexpr int Kept = 200;
// Requests whose signature does not verify are anyone's on this host: kept apart and few, so
// that they never push out what the server really sent (210 forged POSTs left the list with
// forgeries only).
constexpr int KeptUnverified = 20;
constexpr qint64 ToleranceSeconds = 300; // as the Standard Webhooks reference libraries
} // namespace

DemoReceiver::DemoReceiver(Core::Database &database, Core::EventBus &events, Core::Metrics &metrics,
                           const Core::Clock &clock)
    : m_database(database), m_events(events), m_metrics(metrics), m_clock(clock)
{}

DemoReceiver::~DemoReceiver() = default;

std::unique_ptr<Core::HttpServer> DemoReceiver::makeServer(quint16 port)
{
    Core::ListenerOptions o;
    o.name = QStringLiteral("demo-receiver");
    o.address = QHostAddress::LocalHost;
    o.port = port;
    o.maxBodyBytes = 64 * 1024;
    auto server = std::make_unique<Core::HttpServer>(o, m_metrics, m_clock);
    server->route("POST", QStringLiteral("/hooks/{customerId}"),
                  [this](const Core::HttpRequest &req) { return handle(req); });
    // What it received is read through the admin API (GET /admin/v1/demo-receiver, the orders
    // area), never here: any local user could read customers' orders from this port.
    return server;
}

Core::Result<void> DemoReceiver::listen(quint16 preferredPort)
{
    // The port of the last run is preferred so that callback URLs stored in orders keep
    // working across restarts; when it is taken, any free port will do.
    m_server = makeServer(preferredPort);
    auto r = m_server->listen();
    if (r || preferredPort == 0)
        return r;
    m_server = makeServer(0);
    return m_server->listen();
}

QString DemoReceiver::origin() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m_server->serverPort());
}

QString DemoReceiver::hookUrl(const QString &customerId) const
{
    return origin() + QStringLiteral("/hooks/") + customerId;
}

bool DemoReceiver::isHookOf(const QUrl &origin, const CallbackTarget &target,
                            const QString &customerId)
{
    if (origin.isEmpty() || customerId.isEmpty() || target.tls)
        return false;
    if (target.host != origin.host() || int(target.port) != origin.port())
        return false;
    const QByteArray path = "/hooks/" + customerId.toUtf8();
    const QByteArray &p = target.pathAndQuery;
    return p.startsWith(path) && (p.size() == path.size() || p.at(path.size()) == '?');
}

quint16 DemoReceiver::port() const
{
    return m_server->serverPort();
}

QJsonArray DemoReceiver::received() const
{
    QMutexLocker lock(&m_mutex);
    // Newest first, both kinds: merged by their time of arrival (ISO text sorts by time).
    QJsonArray a;
    auto v = m_received.cbegin();
    auto u = m_unverified.cbegin();
    while (v != m_received.cend() || u != m_unverified.cend()) {
        const bool takeVerified =
            u == m_unverified.cend() ||
            (v != m_received.cend() &&
             v->value(QLatin1String("at")).toString() >= u->value(QLatin1String("at")).toString());
        a.append(takeVerified ? *v++ : *u++);
    }
    return a;
}

Core::HttpResponse DemoReceiver::handle(const Core::HttpRequest &req)
{
    const QString customerId = req.pathParam(QStringLiteral("customerId"));
    const QByteArray id = req.header("webhook-id");
    const QByteArray ts = req.header("webhook-timestamp");
    const QByteArray sig = req.header("webhook-signature");
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QString error;
    bool tsOk = false;
    const qint64 timestamp = ts.toLongLong(&tsOk);
    if (id.isEmpty() || !tsOk || sig.isEmpty()) {
        error = QStringLiteral("missing or malformed webhook-id / webhook-timestamp / "
                               "webhook-signature headers");
    } else if (timestamp < now / 1000 - ToleranceSeconds ||
               timestamp > now / 1000 + ToleranceSeconds) { // no subtraction that overflows
        error = QStringLiteral("timestamp outside the 5-minute tolerance");
    } else {
        const auto keys = WebhookStore::activeKeys(m_database, customerId, now);
        // Not read: 503, for the sender to try again (not "no matching signature").
        if (!keys)
            return Core::HttpResponse::json(
                503, QJsonObject{{QStringLiteral("verified"), false},
                                 {QStringLiteral("error"),
                                  QStringLiteral("the receiver could not read the secrets; try "
                                                 "again")}});
        // One answer for an unknown customer and a wrong signature: whether a customer exists
        // is not for whoever can reach this port to learn.
        if (keys->isEmpty() || !Signer::verify(*keys, sig, id, timestamp, req.body))
            error = QStringLiteral("no matching signature");
    }
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    int attempt = 0;
    {
        QMutexLocker lock(&m_mutex);
        attempt = ++m_attemptsById[QString::fromLatin1(id)];
        if (m_attemptsById.size() > 10 * Kept)
            m_attemptsById.clear();
    }
    int status = error.isEmpty() ? 204 : 400;
    const int failFirst = req.query.queryItemValue(QStringLiteral("fail")).toInt();
    const int forced = req.query.queryItemValue(QStringLiteral("status")).toInt();
    if (status == 204 && forced >= 200 && forced <= 599)
        status = forced;
    else if (status == 204 && attempt <= failFirst)
        status = 500;
    const QJsonObject record{
        {QStringLiteral("at"), isoTime(now)},
        {QStringLiteral("customerId"), customerId},
        {QStringLiteral("webhookId"), QString::fromLatin1(id)},
        {QStringLiteral("orderId"), body.value(QStringLiteral("orderId"))},
        {QStringLiteral("orderStatus"), body.value(QStringLiteral("orderStatus"))},
        {QStringLiteral("verified"), error.isEmpty()},
        {QStringLiteral("attempt"), attempt},
        {QStringLiteral("answered"), status},
        {QStringLiteral("error"),
         error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error)}};
    {
        QMutexLocker lock(&m_mutex);
        std::deque<QJsonObject> &kept = error.isEmpty() ? m_received : m_unverified;
        kept.push_front(record);
        while (int(kept.size()) > (error.isEmpty() ? Kept : KeptUnverified))
            kept.pop_back();
    }
    m_events.publish(QStringLiteral("demo.received"), record);
    if (status == 204)
        return Core::HttpResponse{204, {}, {}, {}};
    return Core::HttpResponse::json(
        status, QJsonObject{{QStringLiteral("verified"), error.isEmpty()},
                            {QStringLiteral("error"),
                             error.isEmpty() ? QStringLiteral("failing on purpose") : error}});
}

} // namespace Gatehouse::Webhooks
