#include "core/metrics.h"

#include <QStringList>

#include <algorithm>

namespace Gatehouse::Core {

namespace {
const QChar kSep(0x1f);

QByteArray escapeLabel(const QString &v)
{
    QByteArray b = v.toUtf8();
    b.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return b;
}
} // namespace

void Metrics::recordRequest(const QString &listener, const QString &route,
                            const QByteArray &requestMethod, int status, double seconds)
{
    // A method of the client's own invention counts as OTHER: one series per made-up name
    // would let anybody grow this map (and every scrape) without bound.
    static const QByteArray kMethods[] = {"GET",    "HEAD",    "POST",    "PUT",  "PATCH",
                                          "DELETE", "OPTIONS", "CONNECT", "TRACE"};
    const bool known =
        std::find(std::begin(kMethods), std::end(kMethods), requestMethod) != std::end(kMethods);
    const QByteArray &method = known ? requestMethod : QByteArrayLiteral("OTHER");
    // The keys are built once each, before the lock.
    QString series;
    series.reserve(listener.size() + route.size() + method.size() + 8);
    series.append(listener).append(kSep).append(route);
    QString key = series;
    key.append(kSep).append(QLatin1String(method)).append(kSep).append(QString::number(status));
    QMutexLocker lock(&m_mutex);
    ++m_requests[key];
    ++m_perListener[listener];
    Histogram &h = m_latency[series];
    for (size_t i = 0; i < kBuckets.size(); ++i)
        if (seconds <= kBuckets[i])
            ++h.buckets[i];
    ++h.count;
    h.sum += seconds;
}

void Metrics::connectionOpened(const QString &listener)
{
    QMutexLocker lock(&m_mutex);
    ++m_openConnections[listener];
}

void Metrics::connectionClosed(const QString &listener)
{
    QMutexLocker lock(&m_mutex);
    --m_openConnections[listener];
}

qint64 Metrics::requestCount(const QString &listener) const
{
    QMutexLocker lock(&m_mutex);
    return m_perListener.value(listener);
}

QByteArray Metrics::render() const
{
    QMutexLocker lock(&m_mutex);
    QByteArray out;
    out += "# HELP gatehouse_http_requests_total HTTP requests by listener, route, method and "
           "status code.\n# TYPE gatehouse_http_requests_total counter\n";
    QStringList keys = m_requests.keys();
    keys.sort();
    for (const QString &k : std::as_const(keys)) {
        const QStringList p = k.split(kSep);
        out += "gatehouse_http_requests_total{listener=\"" + escapeLabel(p[0]) + "\",route=\"" +
               escapeLabel(p[1]) + "\",method=\"" + escapeLabel(p[2]) + "\",code=\"" +
               p[3].toLatin1() + "\"} " + QByteArray::number(m_requests.value(k)) + '\n';
    }
    out += "# HELP gatehouse_http_request_duration_seconds Time from a complete request to its "
           "response.\n# TYPE gatehouse_http_request_duration_seconds histogram\n";
    keys = m_latency.keys();
    keys.sort();
    for (const QString &k : std::as_const(keys)) {
        const QStringList p = k.split(kSep);
        const Histogram &h = m_latency[k];
        const QByteArray labels =
            "listener=\"" + escapeLabel(p[0]) + "\",route=\"" + escapeLabel(p[1]) + '"';
        for (size_t i = 0; i < kBuckets.size(); ++i)
            out += "gatehouse_http_request_duration_seconds_bucket{" + labels + ",le=\"" +
                   QByteArray::number(kBuckets[i]) + "\"} " + QByteArray::number(h.buckets[i]) +
                   '\n';
        out += "gatehouse_http_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} " +
               QByteArray::number(h.count) + '\n';
        out += "gatehouse_http_request_duration_seconds_sum{" + labels + "} " +
               QByteArray::number(h.sum, 'g', 9) + '\n';
        out += "gatehouse_http_request_duration_seconds_count{" + labels + "} " +
               QByteArray::number(h.count) + '\n';
    }
    out += "# HELP gatehouse_http_connections_open Open connections by listener.\n"
           "# TYPE gatehouse_http_connections_open gauge\n";
    keys = m_openConnections.keys();
    keys.sort();
    for (const QString &k : std::as_const(keys))
        out += "gatehouse_http_connections_open{listener=\"" + escapeLabel(k) + "\"} " +
               QByteArray::number(m_openConnections.value(k)) + '\n';
    return out;
}

} // namespace Gatehouse::Core
