#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QObject>
#include <QString>

#include <deque>

namespace Gatehouse::Core {
class Clock;
class EventBus;
struct Event;
} // namespace Gatehouse::Core

namespace Gatehouse::Admin {

struct AdminPrincipal;

// The dashboard's per-minute counters of the last hour, counted from what the backend
// publishes on its event bus (nothing is stored; a restart starts from zero):
//
//   orders               order.created (also test orders; idempotent replays publish nothing)
//   deliveriesSucceeded  delivery.state with state "succeeded"
//   deliveriesFailed     delivery.state with state "failed" (a redelivery that then succeeds
//                        counts once more, as a success, in its own minute)
//   tokensByGrant        oauth.token.issued of kind "access", by grantType: one per token
//                        response; the refresh tokens issued beside them are not counted again
//   clusterAllowed       cluster.requests: code < 400, as the Requests view calls it allowed
//   clusterDenied        cluster.requests: the others
//                        (neither counts the admin API's own reads as gatehouse-admin: the
//                        console's lists, hidden in the Requests view too)
//
// Buckets are whole minutes of the event time (UTC). Each field belongs to the admin area
// whose events it counts (orders, oauth, cluster): forReader() leaves out what a scoped token
// may not read, so the numbers say no more than the events it may see.
class StatsSeries : public QObject
{
    Q_OBJECT
public:
    static constexpr int BucketSeconds = 60;
    static constexpr int BucketCount = 60;
    // The live event carrying a bucket (Backend publishes takeChanges() about once a second).
    static QString eventType() { return QStringLiteral("stats.series"); }

    // Counts every event the bus publishes (from whichever thread publishes it).
    StatsSeries(Core::EventBus &events, const Core::Clock &clock, QObject *parent = nullptr);
    // Without a bus: count() is fed by hand (tests).
    explicit StatsSeries(const Core::Clock &clock, QObject *parent = nullptr);

    void count(const Core::Event &event);

    // {"bucketSeconds":60,"buckets":[60 × bucket, oldest first, the current minute last],
    //  "totals":{the same fields summed over the buckets}}, every field. Thread-safe.
    QJsonObject series() const;
    // The current minute's bucket: {"start","orders",...,"tokensByGrant":{...},...}.
    QJsonObject currentBucket() const;
    // The buckets to publish as stats.series since the last call, oldest first: every minute
    // of the hour counted in since it was last published (also one that had ended by then: an
    // event stamped in a minute's last moment can be counted after the new minute's first
    // publication, when its publisher was slow; otherwise the stream never carried that
    // minute's final numbers), then the current minute's, when it is new.
    QList<QJsonObject> takeChanges();

    // The area whose readers may see a field ("orders", "oauth", "cluster"); empty for "start".
    static QString areaOfField(const QString &field);
    // A series answer or a stats.series event's data with only the fields this reader may
    // read, plus "areas": the counted areas it may read (in a fixed order).
    static QJsonObject forReader(const QJsonObject &data, const AdminPrincipal &reader);

private:
    struct Bucket
    {
        qint64 minute = 0; // minutes since the epoch
        qint64 orders = 0;
        qint64 deliveriesSucceeded = 0;
        qint64 deliveriesFailed = 0;
        QMap<QString, qint64> tokensByGrant;
        qint64 clusterAllowed = 0;
        qint64 clusterDenied = 0;
        bool changed = false; // counted in since takeChanges() last answered it
    };
    Bucket &bucketAt(qint64 minute);             // under m_mutex
    QJsonObject bucketJson(qint64 minute) const; // under m_mutex; an empty one if untouched
    static QJsonObject toJson(const Bucket &bucket);
    qint64 currentMinute() const;

    const Core::Clock &m_clock;
    mutable QMutex m_mutex;
    std::deque<Bucket> m_buckets;  // touched minutes only, oldest first, within the hour
    qint64 m_publishedMinute = -1; // takeChanges(): the current minute when it last answered
};

} // namespace Gatehouse::Admin
