#pragma once

#include "adminevent.h"
#include "livestate.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QJsonObject>
#include <QPointer>
#include <QStringList>
#include <QVariantList>

namespace Gatehouse::Console {

class AdminClient;

// The dashboard's charts: the backend's per-minute counters of the last hour
// (GET /admin/v1/stats/series on every (re)connect, then the stats.series events that carry
// the current minute). One row per minute, oldest first, the current minute last; the
// properties are what the tiles show (totals over the hour, peaks to scale the bars by, the
// grant types in legend order). A scoped admin token gets only the counters of the areas it
// may read: the *Visible properties say which.
class DashboardStats : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(Gatehouse::Console::LiveState *live READ live CONSTANT)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changed)
    Q_PROPERTY(int bucketSeconds READ bucketSeconds NOTIFY changed)
    Q_PROPERTY(int count READ count NOTIFY changed)
    // Which counters the token may read (orders, oauth, cluster); true until the first answer.
    Q_PROPERTY(bool ordersVisible READ ordersVisible NOTIFY changed)
    Q_PROPERTY(bool oauthVisible READ oauthVisible NOTIFY changed)
    Q_PROPERTY(bool clusterVisible READ clusterVisible NOTIFY changed)
    // Sums over the rows.
    Q_PROPERTY(int ordersTotal READ ordersTotal NOTIFY changed)
    Q_PROPERTY(int deliveriesSucceededTotal READ deliveriesSucceededTotal NOTIFY changed)
    Q_PROPERTY(int deliveriesFailedTotal READ deliveriesFailedTotal NOTIFY changed)
    Q_PROPERTY(int tokensTotal READ tokensTotal NOTIFY changed)
    Q_PROPERTY(int clusterAllowedTotal READ clusterAllowedTotal NOTIFY changed)
    Q_PROPERTY(int clusterDeniedTotal READ clusterDeniedTotal NOTIFY changed)
    // The current (last) minute.
    Q_PROPERTY(int ordersThisMinute READ ordersThisMinute NOTIFY changed)
    // The highest bar of each chart (at least 1), to scale the bars by.
    Q_PROPERTY(int ordersPeak READ ordersPeak NOTIFY changed)
    Q_PROPERTY(int deliveriesPeak READ deliveriesPeak NOTIFY changed)
    Q_PROPERTY(int tokensPeak READ tokensPeak NOTIFY changed)
    Q_PROPERTY(int clusterPeak READ clusterPeak NOTIFY changed)
    // The grant types in the tokens chart's stacking and legend order (most tokens first; at
    // most MaxGrantSeries, the rest as "other"): [{grant, label, total}].
    Q_PROPERTY(QVariantList grants READ grants NOTIFY changed)

public:
    enum Role {
        StartRole = Qt::UserRole + 1, // QDateTime (UTC)
        TimeTextRole,                 // "10:05", local time
        OrdersRole,
        DeliveriesSucceededRole,
        DeliveriesFailedRole,
        TokensRole,        // all grants
        TokenSegmentsRole, // [n per entry of grants], the tokens chart's stack
        ClusterAllowedRole,
        ClusterDeniedRole,
    };
    Q_ENUM(Role)

    static constexpr int MaxGrantSeries = 3;

    // client may be null (unit tests feed answers and events directly).
    explicit DashboardStats(AdminClient *client, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    LiveState *live() { return &m_live; }
    bool loaded() const { return m_loaded; }
    int bucketSeconds() const { return m_bucketSeconds; }
    int count() const { return int(m_rows.size()); }
    bool ordersVisible() const { return m_areas.contains(QLatin1String("orders")); }
    bool oauthVisible() const { return m_areas.contains(QLatin1String("oauth")); }
    bool clusterVisible() const { return m_areas.contains(QLatin1String("cluster")); }
    int ordersTotal() const { return int(m_totals.orders); }
    int deliveriesSucceededTotal() const { return int(m_totals.deliveriesSucceeded); }
    int deliveriesFailedTotal() const { return int(m_totals.deliveriesFailed); }
    int tokensTotal() const { return int(m_totals.tokens()); }
    int clusterAllowedTotal() const { return int(m_totals.clusterAllowed); }
    int clusterDeniedTotal() const { return int(m_totals.clusterDenied); }
    int ordersThisMinute() const { return m_rows.isEmpty() ? 0 : int(m_rows.last().orders); }
    int ordersPeak() const { return m_ordersPeak; }
    int deliveriesPeak() const { return m_deliveriesPeak; }
    int tokensPeak() const { return m_tokensPeak; }
    int clusterPeak() const { return m_clusterPeak; }
    QVariantList grants() const;

    // "device_code" for "urn:ietf:params:oauth:grant-type:device_code"; others as they are.
    static QString grantLabel(const QString &grantType);

    // Reads the series again (does nothing unless the client is online).
    Q_INVOKABLE void reload();
    // A live event (stats.series); others are ignored. Kept while a reload runs.
    void handleEvent(const Gatehouse::Console::AdminEvent &event);
    // Replaces the rows with a GET /admin/v1/stats/series answer.
    void applySeries(const QJsonObject &series);
    // One minute's bucket (a stats.series event's "bucket"): updates its row, or appends it
    // (with empty minutes in between) and drops rows older than the hour.
    void applyBucket(const QJsonObject &bucket);

signals:
    void changed();

private:
    struct Row
    {
        QDateTime start;
        qint64 orders = 0;
        qint64 deliveriesSucceeded = 0;
        qint64 deliveriesFailed = 0;
        QMap<QString, qint64> tokensByGrant;
        qint64 clusterAllowed = 0;
        qint64 clusterDenied = 0;
        qint64 tokens() const;
        bool operator==(const Row &other) const;
    };
    static Row rowFrom(const QJsonObject &bucket);
    QVariantList segmentsOf(const Row &row) const;
    // Totals, peaks and the grant order from the rows; true when the grant order changed.
    bool recompute();
    void setAreas(const QJsonValue &areas);

    QPointer<AdminClient> m_client;
    LiveState m_live;
    QList<Row> m_rows; // oldest first
    int m_bucketSeconds = 60;
    int m_capacity = 60;
    bool m_loaded = false;
    bool m_loading = false;
    quint64 m_generation = 0;
    QList<AdminEvent> m_eventsDuringLoad;
    QStringList m_areas{QStringLiteral("orders"), QStringLiteral("oauth"),
                        QStringLiteral("cluster")};
    Row m_totals;
    QStringList m_grantOrder; // stacking order; "other" last when there are more
    int m_ordersPeak = 1;
    int m_deliveriesPeak = 1;
    int m_tokensPeak = 1;
    int m_clusterPeak = 1;
};

} // namespace Gatehouse::Console
