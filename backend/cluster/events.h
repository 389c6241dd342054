#pragma once

#include "cluster/objectstore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

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

// The change that records e at now. As kube's event recorder aggregates: the same event (same
// object, type, reason and message) seen again within ten minutes is the same Event with its
// count raised and lastTimestamp moved; otherwise a new one, named <object>.<hex>, in the
// object's namespace ("default" for cluster-scoped objects).
ObjectChange eventChange(const ObjectStore &store, const EventRecord &e, const QDateTime &now);
// The events last seen more than ttlSeconds ago, as deletions.
QList<ObjectChange> expiredEvents(const ObjectStore &store, const QDateTime &now,
                                  qint64 ttlSeconds);

// kubectl get events: kube's columns (Last Seen, Type, Reason, Object, Message; with -o wide
// Subobject, Source, First Seen, Count, Name).
QJsonObject eventsTable(const QList<QJsonObject> &events, const QString &resourceVersion,
                        const QString &continueToken, qint64 nowMs);

// The field selectors events take besides metadata.name and metadata.namespace.
QStringList eventFieldSelectors();

} // namespace Gatehouse::Cluster
