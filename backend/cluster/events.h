#pragma once

#include "cluster/objectstore.h"
#include "cluster/status.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <optional>

namespace Gatehouse::Cluster {

// core/v1 Events that the access layer records where kube-apiserver's controllers would
// surface something to an operator (kubectl get events, kubectl describe node): admission
// denials, node label changes, kubeconfig issuance.
struct EventRecord
{
    QString type;   // "Normal" or "Warning"
    QString reason; // "AdmissionDenied", "LabelsChanged", "KubeconfigIssued"
    QString message;
    QJsonObject involvedObject; // kind, name, namespace (namespaced kinds), uid, apiVersion
};

// How long an event is kept after it was last seen, as kube-apiserver's --event-ttl.
inline constexpr qint64 kEventTtlSeconds = 3600;
inline constexpr char kEventSource[] = "gatehouse";

// kube's EventSourceObjectSpamFilter: a token bucket per object and reason (25 at once, then
// one every five minutes), so that a client churning a node's labels cannot fill the store
// with events. Events beyond it are dropped, as kube's recorder drops them. Thread-safe; idle
// buckets (full again) are forgotten, so its memory is bounded by the active objects.
class EventSpamFilter
{
public:
    static constexpr int kBurst = 25;
    static constexpr qint64 kRefillSeconds = 300;

    bool allow(const EventRecord &e, const QDateTime &now);

private:
    struct Bucket
    {
        double tokens = kBurst;
        QDateTime updated;
    };
    QMutex m_mutex;
    QHash<QByteArray, Bucket> m_buckets; // by a digest of the key: at most kMaxBuckets
    static constexpr qsizetype kMaxBuckets = 10000;
};

// The change that records e at now. As kube's event recorder aggregates: the same event (same
// object, type, reason and message) seen again within ten minutes is the same Event with its
// count raised and lastTimestamp moved; otherwise a new one, named <object>.<hex>, in the
// object's namespace ("default" for cluster-scoped objects). Nothing (std::nullopt) when that
// namespace does not exist or is being deleted: NamespaceLifecycle refuses an Event there, and
// a refused write naming a namespace nobody made yet left events for its future owner.
std::optional<ObjectChange> eventChange(const ObjectStore &store, const EventRecord &e,
                                        const QDateTime &now);
// The events last seen more than ttlSeconds ago, as deletions.
QList<ObjectChange> expiredEvents(const ObjectStore &store, const QDateTime &now,
                                  qint64 ttlSeconds);

// kubectl get events: kube's columns (Last Seen, Type, Reason, Object, Message; with -o wide
// Subobject, Source, First Seen, Count, Name).
QJsonObject eventsTable(const QList<QJsonObject> &events, const QString &resourceVersion,
                        const QString &continueToken, qint64 nowMs);

// The field selectors events take besides metadata.name and metadata.namespace.
QStringList eventFieldSelectors();

// events.k8s.io/v1 is another shape of the same Events, converted as kube-apiserver converts
// them: regarding <-> involvedObject, note <-> message, reportingController <->
// reportingComponent, deprecatedSource/FirstTimestamp/LastTimestamp/Count <-> source,
// firstTimestamp, lastTimestamp, count; every other member keeps its name.
QJsonObject eventsV1FromCore(const QJsonObject &core);
QJsonObject coreFromEventsV1(const QJsonObject &v1);
// An events.k8s.io/v1 field selector in core's terms ("regarding.name=x" is
// "involvedObject.name=x", "reportingController=y" is "reportingComponent=y").
QString coreEventFieldSelector(const QString &v1Selector);
// kube's checks of an Event written through events.k8s.io/v1 (ValidateEventCreate and
// ValidateEventUpdate), on the object in its v1 shape; the fields are named as kube names
// them, partly in core's terms (involvedObject.namespace, message).
QList<StatusCause> validateEventsV1(const QJsonObject &event,
                                    const std::optional<QJsonObject> &current);

} // namespace Gatehouse::Cluster
