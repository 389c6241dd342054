// TestAdminServer's bulk redelivery (docs/orders.md, /admin/v1/redeliveries): preview, jobs
// that redeliver one delivery per step (advanceRedelivery, or on a timer with auto-advance),
// cancel and the history, with the real backend's shapes, codes and messages and a
// redelivery.progress event per step.

#include "testadminserver.h"

#include <QTcpSocket>
#include <QTimer>
#include <QUuid>

#include <algorithm>

namespace {

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

constexpr int MaxJobDeliveries = 10000;

} // namespace

QJsonObject TestAdminServer::jobJson(const QJsonObject &job)
{
    QJsonObject out = job;
    out.remove("deliveryIds");
    return out;
}

// The finished deliveries the filter selects, oldest first; error set for a bad filter.
QStringList TestAdminServer::redeliveryMatches(const QJsonValue &filterValue, QString *error) const
{
    if (!filterValue.isUndefined() && !filterValue.isNull() && !filterValue.isObject()) {
        *error = QStringLiteral("filter must be an object");
        return {};
    }
    const QJsonObject filter = filterValue.toObject();
    static const QStringList fields{"state", "customerId", "orderId", "endpointId", "from", "to"};
    for (auto it = filter.begin(); it != filter.end(); ++it) {
        if (!fields.contains(it.key())) {
            *error = QStringLiteral("filter.%1 is not a filter field").arg(it.key());
            return {};
        }
        if (!it.value().isString()) {
            *error = QStringLiteral("filter.%1 must be a string").arg(it.key());
            return {};
        }
    }
    const QString state = filter.value("state").toString(QStringLiteral("failed"));
    if (state != "failed" && state != "succeeded" && state != "any") {
        *error = QStringLiteral("filter.state must be failed, succeeded or any");
        return {};
    }
    QDateTime from;
    QDateTime to;
    for (auto [key, time] : {std::pair{"from", &from}, std::pair{"to", &to}}) {
        const QString text = str(filter, key);
        if (text.isEmpty())
            continue;
        *time = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!time->isValid()) {
            *error = QStringLiteral("filter.%1 must be an ISO 8601 time").arg(QLatin1String(key));
            return {};
        }
    }
    QStringList ids;
    for (qsizetype i = m_deliveries.size() - 1; i >= 0; --i) { // oldest first
        const QJsonObject &d = m_deliveries.at(i);
        const QString s = str(d, "state");
        const QDateTime created = QDateTime::fromString(str(d, "createdAt"), Qt::ISODateWithMs);
        if (s == "pending" || (state != "any" && s != state))
            continue;
        bool match = true;
        for (const char *key : {"customerId", "orderId", "endpointId"})
            if (!str(filter, key).isEmpty() && str(d, key) != str(filter, key))
                match = false;
        if ((from.isValid() && created < from) || (to.isValid() && created > to))
            match = false;
        if (match)
            ids.append(str(d, "id"));
    }
    return ids;
}

bool TestAdminServer::advanceRedelivery(const QString &jobId, int steps)
{
    const auto job = std::find_if(m_redeliveryJobs.begin(), m_redeliveryJobs.end(),
                                  [&](const QJsonObject &j) { return str(j, "id") == jobId; });
    if (job == m_redeliveryJobs.end() || str(*job, "state") != "running")
        return false;
    const QJsonArray ids = job->value("deliveryIds").toArray();
    for (int step = 0; step < steps; ++step) {
        const int sent = job->value("sent").toInt();
        if (sent >= ids.size())
            break;
        const int i = indexOf(m_deliveries, ids.at(sent).toString());
        QJsonObject &d = m_deliveries[i];
        const int e = indexOf(m_endpoints, str(d, "endpointId"));
        job->insert("sent", sent + 1);
        if (e >= 0 && str(m_endpoints.at(e), "state") == QLatin1String("disabled")) {
            job->insert("failed", job->value("failed").toInt() + 1);
            job->insert("lastError", "the endpoint is disabled; enable it before redelivering");
        } else {
            d.insert("state", "pending");
            d.insert("redelivered", true);
            d.insert("nextAttemptAt", iso(QDateTime::currentDateTimeUtc()));
            d.insert("completedAt", QJsonValue::Null);
            sendEvent(QStringLiteral("delivery.state"), deliveryJson(d));
            job->insert("done", job->value("done").toInt() + 1);
        }
        if (sent + 1 >= job->value("total").toInt()) {
            job->insert("state", "completed");
            job->insert("finishedAt", iso(QDateTime::currentDateTimeUtc()));
        }
        sendEvent(QStringLiteral("redelivery.progress"), jobJson(*job));
        if (str(*job, "state") != "running")
            break;
    }
    return true;
}

QString TestAdminServer::runningRedeliveryJob() const
{
    for (const QJsonObject &job : m_redeliveryJobs)
        if (str(job, "state") == "running")
            return str(job, "id");
    return {};
}

bool TestAdminServer::handleRedeliveries(QTcpSocket *socket, const QByteArray &method,
                                         const QString &resource, const QString &id,
                                         const QString &action, const QJsonObject &in,
                                         const QUrlQuery &query)
{
    if (resource != QLatin1String("redeliveries"))
        return false;
    if (method == "POST" && id == "preview") {
        QString error;
        const QStringList ids = redeliveryMatches(in.value("filter"), &error);
        if (!error.isEmpty()) {
            respondError(socket, 400, "invalid-filter", error);
            return true;
        }
        QJsonArray deliveries;
        for (const QString &deliveryId : ids) {
            if (deliveries.size() == 20)
                break;
            const QJsonObject d = m_deliveries.at(indexOf(m_deliveries, deliveryId));
            deliveries.append(QJsonObject{
                {"attempts", d.value("attempts")},
                {"createdAt", d.value("createdAt")},
                {"customerId", d.value("customerId")},
                {"id", deliveryId},
                {"lastError", d.value("lastError")},
                {"orderId", d.value("orderId")},
                {"orderStatus", d.value("orderStatus")},
                {"payload", QStringLiteral("{\"orderId\":\"%1\",\"orderStatus\":\"%2\"}")
                                .arg(str(d, "orderId"), str(d, "orderStatus"))},
                {"state", d.value("state")},
                {"url", d.value("url")}});
        }
        const int matching = int(ids.size()) + m_extraRedeliveryMatches;
        respondJson(socket, 200,
                    {{"capped", matching > MaxJobDeliveries},
                     {"count", std::min(matching, MaxJobDeliveries)},
                     {"deliveries", deliveries},
                     {"matching", matching}});
        return true;
    }
    if (method == "POST" && id.isEmpty()) {
        QString error;
        const QStringList ids = redeliveryMatches(in.value("filter"), &error);
        if (!error.isEmpty()) {
            respondError(socket, 400, "invalid-filter", error);
            return true;
        }
        const QJsonValue rate = in.value("ratePerSecond");
        if (!rate.isUndefined() &&
            (!rate.isDouble() || rate.toDouble() < 0.1 || rate.toDouble() > 1000)) {
            respondError(socket, 400, "invalid-rate",
                         "ratePerSecond must be a number from 0.1 to 1000");
            return true;
        }
        if (ids.isEmpty()) {
            respondError(socket, 422, "nothing-to-redeliver",
                         "no finished delivery matches the filter");
            return true;
        }
        QJsonArray idArray;
        for (const QString &deliveryId : ids.mid(0, MaxJobDeliveries))
            idArray.append(deliveryId);
        const QJsonObject job{{"actor", in.value("actor").toString(QStringLiteral("admin-api"))},
                              {"createdAt", iso(QDateTime::currentDateTimeUtc())},
                              {"done", 0},
                              {"failed", 0},
                              {"filter", in.value("filter").toObject()},
                              {"finishedAt", QJsonValue::Null},
                              {"id", QUuid::createUuid().toString(QUuid::WithoutBraces)},
                              {"lastError", QJsonValue::Null},
                              {"ratePerSecond", rate.isUndefined() ? 10.0 : rate.toDouble()},
                              {"sent", 0},
                              {"state", "running"},
                              {"total", idArray.size()},
                              {"deliveryIds", idArray}};
        m_redeliveryJobs.prepend(job);
        respondJson(socket, 201, jobJson(job));
        if (m_autoAdvance) {
            const int interval = std::max(100, int(1000 / job.value("ratePerSecond").toDouble()));
            auto *timer = new QTimer(this);
            timer->setInterval(interval);
            connect(timer, &QTimer::timeout, this, [this, timer, jobId = str(job, "id")] {
                if (!advanceRedelivery(jobId, 1))
                    timer->deleteLater();
            });
            timer->start();
        }
        return true;
    }
    if (method == "GET" && id.isEmpty()) {
        const int limit = query.hasQueryItem("limit") ? query.queryItemValue("limit").toInt() : 50;
        QJsonArray items;
        for (const QJsonObject &job : std::as_const(m_redeliveryJobs))
            if (items.size() < std::clamp(limit, 1, 500))
                items.append(jobJson(job));
        respondJson(socket, 200, {{"items", items}});
        return true;
    }
    const auto job = std::find_if(m_redeliveryJobs.begin(), m_redeliveryJobs.end(),
                                  [&](const QJsonObject &j) { return str(j, "id") == id; });
    if (job == m_redeliveryJobs.end()) {
        respondError(socket, 404, "job-not-found", QStringLiteral("no redelivery job %1").arg(id));
        return true;
    }
    if (method == "GET" && action.isEmpty()) {
        respondJson(socket, 200, jobJson(*job));
        return true;
    }
    if (method == "POST" && action == "cancel") {
        if (str(*job, "state") != "running") {
            respondError(
                socket, 409, "job-finished",
                QStringLiteral("redelivery job %1 is already %2").arg(id, str(*job, "state")));
            return true;
        }
        job->insert("state", "cancelled");
        job->insert("finishedAt", iso(QDateTime::currentDateTimeUtc()));
        sendEvent(QStringLiteral("redelivery.progress"), jobJson(*job));
        respondJson(socket, 200, jobJson(*job));
        return true;
    }
    respondError(socket, 405, "method-not-allowed",
                 QStringLiteral("method %1 is not allowed on %2")
                     .arg(QString::fromLatin1(method), QStringLiteral("/admin/v1/redeliveries")));
    return true;
}
