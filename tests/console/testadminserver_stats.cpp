// TestAdminServer's dashboard series, in the real backend's shapes (StatsSeries, AdminApi):
// GET /admin/v1/stats/series answers 60 one-minute buckets ending with the current minute,
// oldest first, with totals and the areas the token may read; the events the server sends
// are counted as the backend counts them (order.created, delivery.state succeeded / failed,
// oauth.token.issued access tokens by grant type, cluster.requests allowed / denied), each
// followed by a stats.series event with the current minute's bucket.

#include "testadminserver.h"

#include <QTcpSocket>

namespace {

constexpr qint64 MinuteMs = 60'000;
constexpr int Buckets = 60;
// The seed leaves the oldest minutes quiet, so a test that runs into the next minute (the
// window moves on) still sees the seeded totals.
constexpr int QuietOldest = 5;

qint64 currentMinute()
{
    return QDateTime::currentMSecsSinceEpoch() / MinuteMs;
}

QString minuteText(qint64 minute)
{
    return QDateTime::fromMSecsSinceEpoch(minute * MinuteMs, Qt::UTC).toString(Qt::ISODate);
}

// total spread over the active minutes in a lively but fixed pattern; sums to total exactly.
QList<int> spread(int total, int salt)
{
    const int active = Buckets - QuietOldest;
    QList<int> weights;
    int weightSum = 0;
    for (int k = 0; k < active; ++k) {
        // A slow swell with jitter: busier towards the middle of the hour.
        const int w = 2 + ((k * 37 + salt * 11) % 7) + (k > 15 && k < 40 ? 3 : 0);
        weights.append(w);
        weightSum += w;
    }
    QList<int> counts(Buckets, 0);
    int given = 0;
    for (int k = 0; k < active; ++k) {
        counts[QuietOldest + k] = total * weights[k] / weightSum;
        given += counts[QuietOldest + k];
    }
    for (int k = 0; given < total; k = (k + 7) % active, ++given)
        ++counts[QuietOldest + k];
    return counts;
}

QJsonObject emptyBucket(qint64 minute)
{
    return {{"start", minuteText(minute)},
            {"orders", 0},
            {"deliveriesSucceeded", 0},
            {"deliveriesFailed", 0},
            {"tokensByGrant", QJsonObject()},
            {"clusterAllowed", 0},
            {"clusterDenied", 0}};
}

// StatsSeries::forReader: the fields of the areas in areas, and "start".
QJsonObject forAreas(const QJsonObject &bucket, const QJsonArray &areas)
{
    QJsonObject out;
    for (auto it = bucket.begin(); it != bucket.end(); ++it) {
        const QString &field = it.key();
        const QString area = field == QLatin1String("orders") || field.startsWith("deliveries")
                                 ? QStringLiteral("orders")
                             : field == QLatin1String("tokensByGrant") ? QStringLiteral("oauth")
                             : field.startsWith("cluster")             ? QStringLiteral("cluster")
                                                                       : QString();
        if (area.isEmpty() || areas.contains(area))
            out.insert(field, it.value());
    }
    return out;
}

} // namespace

void TestAdminServer::resetStatsSeries()
{
    m_series.clear();
    m_seriesAreas = QJsonArray{"orders", "oauth", "cluster"};
    const qint64 now = currentMinute();
    const qint64 first = now - (Buckets - 1);
    const QList<int> orders = spread(SeedOrders, 1);
    const QList<int> succeeded = spread(SeedDeliveriesSucceeded, 2);
    const QList<int> failed = spread(SeedDeliveriesFailed, 3);
    const QList<int> allowed = spread(SeedClusterAllowed, 4);
    const QList<int> denied = spread(SeedClusterDenied, 5);
    QList<QPair<QString, QList<int>>> grants;
    for (auto it = seedTokensByGrant().begin(); it != seedTokensByGrant().end(); ++it)
        grants.append({it.key(), spread(it.value().toInt(), int(grants.size()) + 6)});
    for (int k = 0; k < Buckets; ++k) {
        QJsonObject b = emptyBucket(first + k);
        b.insert("orders", orders[k]);
        b.insert("deliveriesSucceeded", succeeded[k]);
        b.insert("deliveriesFailed", failed[k]);
        QJsonObject tokens;
        for (const auto &[grant, counts] : std::as_const(grants))
            if (counts[k] > 0)
                tokens.insert(grant, counts[k]);
        b.insert("tokensByGrant", tokens);
        b.insert("clusterAllowed", allowed[k]);
        b.insert("clusterDenied", denied[k]);
        m_series.insert(first + k, b);
    }
}

const QJsonObject &TestAdminServer::seedTokensByGrant()
{
    static const QJsonObject grants{{"client_credentials", 46},
                                    {"authorization_code", 21},
                                    {"refresh_token", 14},
                                    {"urn:ietf:params:oauth:grant-type:device_code", 3},
                                    {"password", 2}};
    return grants;
}

QJsonObject TestAdminServer::statsSeries() const
{
    const qint64 now = currentMinute();
    QJsonArray buckets;
    QJsonObject totals = emptyBucket(now);
    totals.remove("start");
    QJsonObject grantTotals;
    for (qint64 minute = now - (Buckets - 1); minute <= now; ++minute) {
        const QJsonObject b = m_series.value(minute, emptyBucket(minute));
        for (const char *field : {"orders", "deliveriesSucceeded", "deliveriesFailed",
                                  "clusterAllowed", "clusterDenied"})
            totals.insert(field, totals.value(field).toInteger() + b.value(field).toInteger());
        const QJsonObject grants = b.value("tokensByGrant").toObject();
        for (auto it = grants.begin(); it != grants.end(); ++it)
            grantTotals.insert(it.key(),
                               grantTotals.value(it.key()).toInteger() + it.value().toInteger());
        buckets.append(forAreas(b, m_seriesAreas));
    }
    totals.insert("tokensByGrant", grantTotals);
    return {{"bucketSeconds", 60},
            {"buckets", buckets},
            {"totals", forAreas(totals, m_seriesAreas)},
            {"areas", m_seriesAreas}};
}

void TestAdminServer::countInSeries(const QString &type, const QJsonObject &data)
{
    // StatsSeries::count
    const qint64 minute = currentMinute();
    QJsonObject b = m_series.value(minute, emptyBucket(minute));
    auto add = [&b](const char *field, qint64 n) {
        b.insert(field, b.value(field).toInteger() + n);
    };
    if (type == QLatin1String("order.created")) {
        add("orders", 1);
    } else if (type == QLatin1String("delivery.state")) {
        const QString state = data.value("state").toString();
        if (state == QLatin1String("succeeded"))
            add("deliveriesSucceeded", 1);
        else if (state == QLatin1String("failed"))
            add("deliveriesFailed", 1);
        else
            return;
    } else if (type == QLatin1String("oauth.token.issued")) {
        if (data.value("kind").toString() != QLatin1String("access"))
            return;
        QJsonObject grants = b.value("tokensByGrant").toObject();
        const QString grant = data.value("grantType").toString();
        grants.insert(grant, grants.value(grant).toInteger() + 1);
        b.insert("tokensByGrant", grants);
    } else if (type == QLatin1String("cluster.requests")) {
        add("clusterAllowed", data.value("allowed").toInteger());
        add("clusterDenied", data.value("denied").toInteger());
    } else {
        return;
    }
    m_series.insert(minute, b);
    if (!m_seriesPublishing)
        return;
    // Backend::publishStats sends the changed current minute (here at once).
    sendEvent(
        QStringLiteral("stats.series"),
        {{"bucketSeconds", 60}, {"bucket", forAreas(b, m_seriesAreas)}, {"areas", m_seriesAreas}});
}

bool TestAdminServer::handleStats(QTcpSocket *socket, const QByteArray &method, const QString &path)
{
    if (path != QLatin1String("/stats/series"))
        return false;
    if (method != "GET") {
        respondError(socket, 405, "method-not-allowed", "GET only");
        return true;
    }
    respondJson(socket, 200, statsSeries());
    return true;
}
