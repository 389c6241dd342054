#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>

#include <array>

namespace Gatehouse::Core {

// Prometheus text exposition of HTTP request counts and latencies. Route labels are
// route patterns (never raw paths) so cardinality stays bounded.
class Metrics
{
public:
    void recordRequest(const QString &listener, const QString &route, const QByteArray &method,
                       int status, double seconds);
    void connectionOpened(const QString &listener);
    void connectionClosed(const QString &listener);
    qint64 requestCount(const QString &listener) const;
    QByteArray render() const;

    static constexpr std::array<double, 11> kBuckets{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                     0.05,   0.1,   0.25,   0.5,   1.0};

private:
    struct Histogram
    {
        std::array<qint64, kBuckets.size()> buckets{};
        qint64 count = 0;
        double sum = 0;
    };
    mutable QMutex m_mutex;
    QHash<QString, qint64> m_requests;   // "listener\x1froute\x1fmethod\x1fcode"
    QHash<QString, Histogram> m_latency; // "listener\x1froute"
    QHash<QString, qint64> m_perListener;
    QHash<QString, qint64> m_openConnections;
};

} // namespace Gatehouse::Core
