#include "dashboardstats.h"

#include "adminclient.h"

#include <QJsonArray>

#include <algorithm>

namespace Gatehouse::Console {

namespace {

constexpr qsizetype MaxBufferedStatsEvents = 200;
const QString OtherGrants = QStringLiteral("other");

qint64 countOf(const QJsonObject &o, const char *key)
{
    return std::max<qint64>(0, o.value(QLatin1String(key)).toInteger());
}

} // namespace

qint64 DashboardStats::Row::tokens() const
{
    qint64 sum = 0;
    for (qint64 n : tokensByGrant)
        sum += n;
    return sum;
}

bool DashboardStats::Row::operator==(const Row &other) const
{
    return start == other.start && orders == other.orders &&
           deliveriesSucceeded == other.deliveriesSucceeded &&
           deliveriesFailed == other.deliveriesFailed && tokensByGrant == other.tokensByGrant &&
           clusterAllowed == other.clusterAllowed && clusterDenied == other.clusterDenied;
}

DashboardStats::DashboardStats(AdminClient *client, QObject *parent)
    : QAbstractListModel(parent), m_client(client), m_live(client)
{
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &DashboardStats::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload(); // minutes may have passed while we were away
    });
}

int DashboardStats::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant DashboardStats::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case StartRole:
        return row.start;
    case TimeTextRole:
    case Qt::DisplayRole:
        return row.start.toLocalTime().toString(QStringLiteral("HH:mm"));
    case OrdersRole:
        return int(row.orders);
    case DeliveriesSucceededRole:
        return int(row.deliveriesSucceeded);
    case DeliveriesFailedRole:
        return int(row.deliveriesFailed);
    case TokensRole:
        return int(row.tokens());
    case TokenSegmentsRole:
        return segmentsOf(row);
    case ClusterAllowedRole:
        return int(row.clusterAllowed);
    case ClusterDeniedRole:
        return int(row.clusterDenied);
    default:
        return {};
    }
}

QHash<int, QByteArray> DashboardStats::roleNames() const
{
    return {
        {StartRole, "start"},
        {TimeTextRole, "timeText"},
        {OrdersRole, "orders"},
        {DeliveriesSucceededRole, "deliveriesSucceeded"},
        {DeliveriesFailedRole, "deliveriesFailed"},
        {TokensRole, "tokens"},
        {TokenSegmentsRole, "tokenSegments"},
        {ClusterAllowedRole, "clusterAllowed"},
        {ClusterDeniedRole, "clusterDenied"},
    };
}

QVariantList DashboardStats::grants() const
{
    QVariantList out;
    for (const QString &grant : m_grantOrder) {
        qint64 total = 0;
        if (grant == OtherGrants) {
            for (auto it = m_totals.tokensByGrant.begin(); it != m_totals.tokensByGrant.end(); ++it)
                if (!m_grantOrder.contains(it.key()))
                    total += it.value();
        } else {
            total = m_totals.tokensByGrant.value(grant);
        }
        out.append(QVariantMap{
            {QStringLiteral("grant"), grant},
            {QStringLiteral("label"), grant == OtherGrants ? tr("other") : grantLabel(grant)},
            {QStringLiteral("total"), int(total)},
        });
    }
    return out;
}

QString DashboardStats::grantLabel(const QString &grantType)
{
    static const QLatin1String urnPrefix("urn:ietf:params:oauth:grant-type:");
    if (grantType.startsWith(urnPrefix))
        return grantType.mid(urnPrefix.size());
    return grantType;
}

QVariantList DashboardStats::segmentsOf(const Row &row) const
{
    QVariantList segments;
    for (const QString &grant : m_grantOrder) {
        qint64 n = 0;
        if (grant == OtherGrants) {
            for (auto it = row.tokensByGrant.begin(); it != row.tokensByGrant.end(); ++it)
                if (!m_grantOrder.contains(it.key()))
                    n += it.value();
        } else {
            n = row.tokensByGrant.value(grant);
        }
        segments.append(int(n));
    }
    return segments;
}

void DashboardStats::reload()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    const quint64 generation = ++m_generation;
    m_loading = true;
    m_eventsDuringLoad.clear();
    m_live.noteSyncStarted();
    ApiCall call;
    call.path = QStringLiteral("/stats/series");
    m_client->callApi(call, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        m_loading = false;
        const QList<AdminEvent> events = std::exchange(m_eventsDuringLoad, {});
        if (result.canceled) {
            m_live.noteSyncCanceled();
            return;
        }
        if (!result.ok()) {
            m_live.noteSyncFailed(result.httpStatus, result.errorMessage);
            return;
        }
        applySeries(result.object());
        m_live.noteSynced();
        for (const AdminEvent &event : events)
            handleEvent(event);
    });
}

void DashboardStats::handleEvent(const AdminEvent &event)
{
    if (event.type != QLatin1String("stats.series"))
        return;
    if (m_loading) {
        if (m_eventsDuringLoad.size() < MaxBufferedStatsEvents)
            m_eventsDuringLoad.append(event);
        return;
    }
    if (!m_loaded)
        return; // an answer that never came (an older backend): nothing to update
    if (event.data.contains(QLatin1String("areas")))
        setAreas(event.data.value(QLatin1String("areas")));
    applyBucket(event.data.value(QLatin1String("bucket")).toObject());
}

DashboardStats::Row DashboardStats::rowFrom(const QJsonObject &bucket)
{
    Row row;
    row.start =
        QDateTime::fromString(bucket.value(QLatin1String("start")).toString(), Qt::ISODateWithMs)
            .toUTC();
    row.orders = countOf(bucket, "orders");
    row.deliveriesSucceeded = countOf(bucket, "deliveriesSucceeded");
    row.deliveriesFailed = countOf(bucket, "deliveriesFailed");
    const QJsonObject grants = bucket.value(QLatin1String("tokensByGrant")).toObject();
    for (auto it = grants.begin(); it != grants.end(); ++it)
        if (it.value().toInteger() > 0)
            row.tokensByGrant.insert(it.key(), it.value().toInteger());
    row.clusterAllowed = countOf(bucket, "clusterAllowed");
    row.clusterDenied = countOf(bucket, "clusterDenied");
    return row;
}

void DashboardStats::setAreas(const QJsonValue &areas)
{
    QStringList list;
    for (const QJsonValue a : areas.toArray())
        list.append(a.toString());
    m_areas = list;
}

void DashboardStats::applySeries(const QJsonObject &series)
{
    QList<Row> rows;
    for (const QJsonValue b : series.value(QLatin1String("buckets")).toArray()) {
        Row row = rowFrom(b.toObject());
        if (!row.start.isValid() || (!rows.isEmpty() && row.start <= rows.last().start))
            continue; // not the API's shape: oldest first, one per minute
        rows.append(std::move(row));
    }
    beginResetModel();
    m_rows = rows;
    m_bucketSeconds = std::max(1, series.value(QLatin1String("bucketSeconds")).toInt(60));
    m_capacity = std::max(1, int(rows.size()));
    if (series.contains(QLatin1String("areas")))
        setAreas(series.value(QLatin1String("areas")));
    recompute();
    m_loaded = true;
    endResetModel();
    emit changed();
}

void DashboardStats::applyBucket(const QJsonObject &bucket)
{
    Row row = rowFrom(bucket);
    if (!row.start.isValid())
        return;
    if (!m_rows.isEmpty() && row.start < m_rows.first().start)
        return; // older than the hour shown
    bool orderChanged = false;
    int at = -1;
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (m_rows.at(i).start == row.start) {
            at = i;
            break;
        }
        if (m_rows.at(i).start < row.start)
            break;
    }
    if (at >= 0) {
        if (m_rows.at(at) == row)
            return;
        m_rows[at] = row;
        orderChanged = recompute();
        if (orderChanged)
            emit dataChanged(index(0), index(int(m_rows.size()) - 1));
        else
            emit dataChanged(index(at), index(at));
    } else {
        if (!m_rows.isEmpty() && row.start < m_rows.last().start)
            return; // a minute that was not in the answer: not the API's shape
        // The minutes between the last row and this one were quiet.
        QList<Row> added;
        QDateTime next =
            m_rows.isEmpty() ? row.start : m_rows.last().start.addSecs(m_bucketSeconds);
        while (next < row.start && added.size() < m_capacity) {
            Row empty;
            empty.start = next;
            added.append(empty);
            next = next.addSecs(m_bucketSeconds);
        }
        added.append(row);
        if (added.size() > m_capacity)
            added = added.mid(added.size() - m_capacity);
        const int drop =
            std::min(int(m_rows.size()), int(m_rows.size() + added.size()) - m_capacity);
        if (drop > 0) {
            beginRemoveRows({}, 0, drop - 1);
            m_rows.remove(0, drop);
            endRemoveRows();
        }
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_rows.append(added);
        endInsertRows();
        if (recompute())
            emit dataChanged(index(0), index(int(m_rows.size()) - 1), {TokenSegmentsRole});
    }
    m_live.noteChange();
    emit changed();
}

bool DashboardStats::recompute()
{
    Row totals;
    int ordersPeak = 1;
    int deliveriesPeak = 1;
    int tokensPeak = 1;
    int clusterPeak = 1;
    for (const Row &row : std::as_const(m_rows)) {
        totals.orders += row.orders;
        totals.deliveriesSucceeded += row.deliveriesSucceeded;
        totals.deliveriesFailed += row.deliveriesFailed;
        for (auto it = row.tokensByGrant.begin(); it != row.tokensByGrant.end(); ++it)
            totals.tokensByGrant[it.key()] += it.value();
        totals.clusterAllowed += row.clusterAllowed;
        totals.clusterDenied += row.clusterDenied;
        ordersPeak = std::max(ordersPeak, int(row.orders));
        deliveriesPeak =
            std::max(deliveriesPeak, int(row.deliveriesSucceeded + row.deliveriesFailed));
        tokensPeak = std::max(tokensPeak, int(row.tokens()));
        clusterPeak = std::max(clusterPeak, int(row.clusterAllowed + row.clusterDenied));
    }
    m_totals = totals;
    m_ordersPeak = ordersPeak;
    m_deliveriesPeak = deliveriesPeak;
    m_tokensPeak = tokensPeak;
    m_clusterPeak = clusterPeak;

    // Most tokens first (ties by name); beyond MaxGrantSeries - 1 of them, the rest as "other".
    QStringList byTotal = totals.tokensByGrant.keys();
    std::stable_sort(byTotal.begin(), byTotal.end(), [&totals](const QString &a, const QString &b) {
        return totals.tokensByGrant.value(a) > totals.tokensByGrant.value(b);
    });
    if (byTotal.size() > MaxGrantSeries) {
        byTotal = byTotal.mid(0, MaxGrantSeries - 1);
        byTotal.append(OtherGrants);
    }
    if (byTotal == m_grantOrder)
        return false;
    m_grantOrder = byTotal;
    return true;
}

} // namespace Gatehouse::Console
