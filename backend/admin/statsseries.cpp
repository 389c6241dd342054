#include "admin/statsseries.h"

#include "admin/admintokens.h"
#include "core/clock.h"
#include "core/eventbus.h"

#include <QDateTime>
#include <QJsonArray>

namespace Gatehouse::Admin {

namespace {

constexpr qint64 MinuteMs = qint64(StatsSeries::BucketSeconds) * 1000;

// The counted areas, in the order "areas" lists them.
const QStringList &countedAreas()
{
    static const QStringList areas{QStringLiteral("orders"), QStringLiteral("oauth"),
                                   QStringLiteral("cluster")};
    return areas;
}

QString minuteText(qint64 minute)
{
    return QDateTime::fromMSecsSinceEpoch(minute * MinuteMs, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject grantsJson(const QMap<QString, qint64> &grants)
{
    QJsonObject o;
    for (auto it = grants.begin(); it != grants.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

// Keeps the fields of bucket-shaped objects this reader may read.
QJsonObject filterFields(const QJsonObject &bucket, const AdminPrincipal &reader)
{
    QJsonObject out;
    for (auto it = bucket.begin(); it != bucket.end(); ++it) {
        const QString area = StatsSeries::areaOfField(it.key());
        if (area.isEmpty() || reader.may(area, false))
            out.insert(it.key(), it.value());
    }
    return out;
}

} // namespace

StatsSeries::StatsSeries(Core::EventBus &events, const Core::Clock &clock, QObject *parent)
    : StatsSeries(clock, parent)
{
    // Direct: publishers on any thread count at once; the mutex guards the buckets.
    connect(&events, &Core::EventBus::published, this, &StatsSeries::count, Qt::DirectConnection);
}

StatsSeries::StatsSeries(const Core::Clock &clock, QObject *parent)
    : QObject(parent), m_clock(clock)
{}

qint64 StatsSeries::currentMinute() const
{
    return m_clock.now().toMSecsSinceEpoch() / MinuteMs;
}

StatsSeries::Bucket &StatsSeries::bucketAt(qint64 minute)
{
    // Events arrive nearly in time order (several publishing threads): search from the end.
    auto it = m_buckets.end();
    while (it != m_buckets.begin() && std::prev(it)->minute > minute)
        --it;
    if (it != m_buckets.begin() && std::prev(it)->minute == minute)
        return *std::prev(it);
    it = m_buckets.insert(it, Bucket{});
    it->minute = minute;
    return *it;
}

void StatsSeries::count(const Core::Event &event)
{
    if (event.relayed)
        return; // another instance's: its own series counts it
    const QString &type = event.type;
    // Members are read one by one: an order makes some twenty events, published as text,
    // and parsing all of their data here cost more than making it.
    const qint64 minute = event.time.toMSecsSinceEpoch() / MinuteMs;
    QMutexLocker lock(&m_mutex);
    // Older than the window: nothing to count (the window only moves forward).
    const qint64 oldest = std::max(minute, currentMinute()) - (BucketCount - 1);
    if (minute < oldest)
        return;
    auto at = [&]() -> Bucket & {
        Bucket &b = bucketAt(minute);
        b.changed = true;
        return b;
    };
    if (type == QLatin1String("order.created")) {
        ++at().orders;
    } else if (type == QLatin1String("delivery.state")) {
        const QString state = event.value(QLatin1String("state")).toString();
        if (state == QLatin1String("succeeded"))
            ++at().deliveriesSucceeded;
        else if (state == QLatin1String("failed"))
            ++at().deliveriesFailed;
    } else if (type == QLatin1String("oauth.token.issued")) {
        // Every event names its token's kind; only access tokens count (one per response).
        if (event.value(QLatin1String("kind")).toString(QStringLiteral("access")) !=
            QLatin1String("access"))
            return;
        QString grant = event.value(QLatin1String("grantType")).toString();
        if (grant.isEmpty())
            grant = QStringLiteral("unknown");
        ++at().tokensByGrant[grant];
    } else if (type == QLatin1String("cluster.requests")) {
        const QJsonObject data = event.data();
        const bool counted =
            data.contains(QLatin1String("allowed")) || data.contains(QLatin1String("denied"));
        // Counts of every request, also those beyond the batch's cap; older events: the batch.
        qint64 allowed = data.value(QLatin1String("allowed")).toInteger();
        qint64 denied = data.value(QLatin1String("denied")).toInteger();
        for (const QJsonValue v : data.value(QLatin1String("requests")).toArray()) {
            const QJsonObject r = v.toObject();
            const bool ok = r.value(QLatin1String("code")).toInt() < 400;
            // The admin API's own reads (the console's lists, as gatehouse-admin) are not
            // cluster traffic; the Requests view hides them too. Those beyond the batch's cap
            // (more than 400 requests a second) are counted.
            const bool adminRead =
                r.value(QLatin1String("user")).toString() == QLatin1String("gatehouse-admin") &&
                r.value(QLatin1String("method")).toString() == QLatin1String("GET");
            const int delta = (counted ? 0 : 1) - (adminRead ? 1 : 0);
            (ok ? allowed : denied) += delta;
        }
        allowed = std::max<qint64>(0, allowed);
        denied = std::max<qint64>(0, denied);
        if (allowed <= 0 && denied <= 0)
            return;
        Bucket &b = at();
        b.clusterAllowed += allowed;
        b.clusterDenied += denied;
    } else {
        return;
    }
    while (!m_buckets.empty() && m_buckets.front().minute < oldest)
        m_buckets.pop_front();
}

QJsonObject StatsSeries::toJson(const Bucket &b)
{
    return QJsonObject{{QStringLiteral("start"), minuteText(b.minute)},
                       {QStringLiteral("orders"), b.orders},
                       {QStringLiteral("deliveriesSucceeded"), b.deliveriesSucceeded},
                       {QStringLiteral("deliveriesFailed"), b.deliveriesFailed},
                       {QStringLiteral("tokensByGrant"), grantsJson(b.tokensByGrant)},
                       {QStringLiteral("clusterAllowed"), b.clusterAllowed},
                       {QStringLiteral("clusterDenied"), b.clusterDenied}};
}

QJsonObject StatsSeries::bucketJson(qint64 minute) const
{
    for (auto it = m_buckets.rbegin(); it != m_buckets.rend(); ++it) {
        if (it->minute == minute)
            return toJson(*it);
        if (it->minute < minute)
            break;
    }
    Bucket empty;
    empty.minute = minute;
    return toJson(empty);
}

QJsonObject StatsSeries::currentBucket() const
{
    const qint64 now = currentMinute();
    QMutexLocker lock(&m_mutex);
    return bucketJson(now);
}

QList<QJsonObject> StatsSeries::takeChanges()
{
    const qint64 now = currentMinute();
    QMutexLocker lock(&m_mutex);
    QList<QJsonObject> changes;
    bool currentAnswered = false;
    for (Bucket &b : m_buckets) {
        // A minute after `now` (a publisher's clock read after this one's) waits for its turn.
        if (!b.changed || b.minute > now)
            continue;
        b.changed = false;
        changes.append(toJson(b));
        currentAnswered = b.minute == now;
    }
    if (!currentAnswered && m_publishedMinute != now)
        changes.append(bucketJson(now)); // a new minute, even empty: the chart moves on
    m_publishedMinute = now;
    return changes;
}

QJsonObject StatsSeries::series() const
{
    const qint64 now = currentMinute();
    const qint64 first = now - (BucketCount - 1);
    QJsonArray buckets;
    Bucket totals;
    QMutexLocker lock(&m_mutex);
    auto it = m_buckets.begin();
    for (qint64 minute = first; minute <= now; ++minute) {
        while (it != m_buckets.end() && it->minute < minute)
            ++it;
        Bucket b;
        if (it != m_buckets.end() && it->minute == minute)
            b = *it;
        b.minute = minute;
        totals.orders += b.orders;
        totals.deliveriesSucceeded += b.deliveriesSucceeded;
        totals.deliveriesFailed += b.deliveriesFailed;
        for (auto g = b.tokensByGrant.begin(); g != b.tokensByGrant.end(); ++g)
            totals.tokensByGrant[g.key()] += g.value();
        totals.clusterAllowed += b.clusterAllowed;
        totals.clusterDenied += b.clusterDenied;
        buckets.append(toJson(b));
    }
    lock.unlock();
    QJsonObject totalsJson = toJson(totals);
    totalsJson.remove(QStringLiteral("start"));
    return QJsonObject{{QStringLiteral("bucketSeconds"), BucketSeconds},
                       {QStringLiteral("buckets"), buckets},
                       {QStringLiteral("totals"), totalsJson}};
}

QString StatsSeries::areaOfField(const QString &field)
{
    if (field == QLatin1String("orders") || field.startsWith(QLatin1String("deliveries")))
        return QStringLiteral("orders");
    if (field == QLatin1String("tokensByGrant"))
        return QStringLiteral("oauth");
    if (field.startsWith(QLatin1String("cluster")))
        return QStringLiteral("cluster");
    return {};
}

QJsonObject StatsSeries::forReader(const QJsonObject &data, const AdminPrincipal &reader)
{
    QJsonObject out = data;
    if (data.contains(QLatin1String("buckets"))) {
        QJsonArray buckets;
        for (const QJsonValue b : data.value(QLatin1String("buckets")).toArray())
            buckets.append(filterFields(b.toObject(), reader));
        out.insert(QStringLiteral("buckets"), buckets);
    }
    for (const char *key : {"totals", "bucket"}) {
        if (data.contains(QLatin1String(key)))
            out.insert(QLatin1String(key),
                       filterFields(data.value(QLatin1String(key)).toObject(), reader));
    }
    QJsonArray areas;
    for (const QString &area : countedAreas()) {
        if (reader.may(area, false))
            areas.append(area);
    }
    out.insert(QStringLiteral("areas"), areas);
    return out;
}

} // namespace Gatehouse::Admin
