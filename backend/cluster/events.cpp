#include "cluster/events.h"

#include "cluster/admission.h"
#include "cluster/resources.h"
#include "crypto/random.h"

#include <QCryptographicHash>
#include <QHostInfo>
#include <QJsonArray>

#include <limits>

namespace Gatehouse::Cluster {

namespace {

constexpr qint64 kAggregationSeconds = 600;

QString eventTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

// metav1.MicroTime: "2006-01-02T15:04:05.000000Z".
QString microTimestamp(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) + QStringLiteral("000Z");
}

// What was done, for events.k8s.io/v1's action (machine-readable, like kube's "Binding").
QString actionOf(const QString &reason)
{
    if (reason == QLatin1String("KubeconfigIssued"))
        return QStringLiteral("IssueKubeconfig");
    if (reason == QLatin1String("AdmissionDenied"))
        return QStringLiteral("Admit");
    if (reason == QLatin1String("LabelsChanged"))
        return QStringLiteral("UpdateLabels");
    return reason;
}

QDateTime parseTimestamp(const QJsonValue &v)
{
    return QDateTime::fromString(v.toString(), Qt::ISODate);
}

QString since(const QJsonValue &t, qint64 nowMs)
{
    const QDateTime at = parseTimestamp(t);
    return at.isValid() ? humanDuration((nowMs - at.toMSecsSinceEpoch()) / 1000)
                        : QStringLiteral("<unknown>");
}

} // namespace

bool EventSpamFilter::allow(const EventRecord &e, const QDateTime &now)
{
    const QJsonObject &o = e.involvedObject;
    const QByteArray key = QCryptographicHash::hash(
        (o.value(QLatin1String("kind")).toString() + QLatin1Char('\n') +
         o.value(QLatin1String("namespace")).toString() + QLatin1Char('\n') +
         o.value(QLatin1String("name")).toString() + QLatin1Char('\n') + e.reason)
            .toUtf8(),
        QCryptographicHash::Sha256);
    QMutexLocker lock(&m_mutex);
    if (m_buckets.size() > kMaxBuckets) {
        // Forget the buckets that have filled up again: they behave as new ones. Still too
        // many (new objects each time, within the refill time): all are forgotten, as kube's
        // LRU of 4,096 forgets the oldest; the Events themselves are bounded by their TTL.
        for (auto it = m_buckets.begin(); it != m_buckets.end();)
            it = it->updated.secsTo(now) >= kBurst * kRefillSeconds ? m_buckets.erase(it) : ++it;
        if (m_buckets.size() > kMaxBuckets)
            m_buckets.clear();
    }
    Bucket &b = m_buckets[key];
    if (b.updated.isValid())
        b.tokens = qMin<double>(kBurst, b.tokens + double(b.updated.secsTo(now)) / kRefillSeconds);
    b.updated = now;
    if (b.tokens < 1)
        return false;
    b.tokens -= 1;
    return true;
}

std::optional<ObjectChange> eventChange(const ObjectStore &store, const EventRecord &e,
                                        const QDateTime &now)
{
    const QJsonObject &involved = e.involvedObject;
    QString ns = involved.value(QLatin1String("namespace")).toString();
    if (ns.isEmpty())
        ns = QStringLiteral("default");
    const std::optional<QJsonObject> space = store.get(QStringLiteral("namespaces"), QString(), ns);
    if (!space || space->value(QLatin1String("status")).toObject().value(QLatin1String("phase")) ==
                      QLatin1String("Terminating"))
        return std::nullopt;
    const QByteArray key = (involved.value(QLatin1String("kind")).toString() + '\n' +
                            involved.value(QLatin1String("namespace")).toString() + '\n' +
                            involved.value(QLatin1String("name")).toString() + '\n' +
                            involved.value(QLatin1String("uid")).toString() + '\n' + e.type + '\n' +
                            e.reason + '\n' + e.message)
                               .toUtf8();
    // A name of at most 253 characters, as every object's: <object, cut>.<16 hex digits>.
    const QString name =
        involved.value(QLatin1String("name")).toString().left(236) + QLatin1Char('.') +
        QString::fromLatin1(
            QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
    std::optional<QJsonObject> seen = store.get(QStringLiteral("events"), ns, name);
    if (seen) {
        const QDateTime last = parseTimestamp(seen->value(QLatin1String("lastTimestamp")));
        if (last.isValid() && last.secsTo(now) <= kAggregationSeconds) {
            // Saturated: the count is the event's own (anyone who may patch events sets it), and
            // the largest int + 1 was an overflow on the server's own write.
            const int count = seen->value(QLatin1String("count")).toInt(1);
            seen->insert(QStringLiteral("count"),
                         count < std::numeric_limits<int>::max() ? count + 1 : count);
            seen->insert(QStringLiteral("lastTimestamp"), eventTime(now));
            return ObjectChange{ObjectChange::Kind::Modified, QStringLiteral("events"), ns, name,
                                *seen};
        }
    }
    static const QString host = QHostInfo::localHostName();
    const QJsonObject event{{QStringLiteral("metadata"),
                             QJsonObject{{QStringLiteral("name"), name},
                                         {QStringLiteral("namespace"), ns},
                                         {QStringLiteral("uid"), Crypto::Random::uuid()},
                                         {QStringLiteral("creationTimestamp"), eventTime(now)}}},
                            {QStringLiteral("involvedObject"), involved},
                            {QStringLiteral("reason"), e.reason},
                            {QStringLiteral("message"), e.message},
                            {QStringLiteral("source"),
                             QJsonObject{{QStringLiteral("component"), QLatin1String(kEventSource)},
                                         {QStringLiteral("host"), host}}},
                            {QStringLiteral("firstTimestamp"), eventTime(now)},
                            {QStringLiteral("lastTimestamp"), eventTime(now)},
                            {QStringLiteral("count"), 1},
                            {QStringLiteral("type"), e.type},
                            // Set, with an action, so that events.k8s.io/v1 clients (the
                            // Python client requires eventTime) read these Events too.
                            {QStringLiteral("eventTime"), microTimestamp(now)},
                            {QStringLiteral("action"), actionOf(e.reason)},
                            {QStringLiteral("reportingComponent"), QLatin1String(kEventSource)},
                            {QStringLiteral("reportingInstance"), host}};
    return ObjectChange{seen ? ObjectChange::Kind::Modified : ObjectChange::Kind::Added,
                        QStringLiteral("events"), ns, name, event};
}

QList<ObjectChange> expiredEvents(const ObjectStore &store, const QDateTime &now, qint64 ttlSeconds)
{
    QList<ObjectChange> out;
    auto page = store.list(
        QStringLiteral("events"), QString(),
        [&](const QJsonObject &e) {
            QDateTime last = parseTimestamp(e.value(QLatin1String("lastTimestamp")));
            if (!last.isValid())
                last = parseTimestamp(e.value(QLatin1String("metadata"))
                                          .toObject()
                                          .value(QLatin1String("creationTimestamp")));
            return last.isValid() && last.secsTo(now) > ttlSeconds;
        },
        0, QString());
    if (const auto *p = std::get_if<ObjectStore::Page>(&page))
        for (const QJsonObject &e : p->items) {
            const QJsonObject meta = e.value(QLatin1String("metadata")).toObject();
            out.append({ObjectChange::Kind::Deleted, QStringLiteral("events"),
                        meta.value(QLatin1String("namespace")).toString(),
                        meta.value(QLatin1String("name")).toString(), e});
        }
    return out;
}

QJsonObject eventsTable(const QList<QJsonObject> &events, const QString &resourceVersion,
                        const QString &continueToken, qint64 nowMs)
{
    const QJsonArray columns{
        tableColumn("Last Seen",
                    "The time at which the most recent occurrence of this event was recorded."),
        tableColumn("Type",
                    "Type of this event (Normal, Warning), new types could be added in the future"),
        tableColumn(
            "Reason",
            "This should be a short, machine understandable string that gives the reason for the "
            "transition into the object's current status."),
        tableColumn("Object", "The object that this event is about."),
        tableColumn("Subobject", "The field of the object this event is about.", 1),
        tableColumn("Source",
                    "The component reporting this event. Should be a short machine understandable "
                    "string.",
                    1),
        tableColumn("Message", "A human-readable description of the status of this operation."),
        tableColumn("First Seen",
                    "The time at which the event was first recorded. (Time of server receipt is in "
                    "TypeMeta.)",
                    1),
        tableColumn("Count", "The number of times this event has occurred.", 1),
        tableColumn("Name", "Name must be unique within a namespace.", 1, "name")};
    QJsonArray rows;
    for (const QJsonObject &e : events) {
        const QJsonObject meta = e.value(QLatin1String("metadata")).toObject();
        const QJsonObject involved = e.value(QLatin1String("involvedObject")).toObject();
        const QJsonObject source = e.value(QLatin1String("source")).toObject();
        QString from = source.value(QLatin1String("component")).toString();
        if (!source.value(QLatin1String("host")).toString().isEmpty())
            from += QStringLiteral(", ") + source.value(QLatin1String("host")).toString();
        const QJsonValue last = e.contains(QLatin1String("lastTimestamp"))
                                    ? e.value(QLatin1String("lastTimestamp"))
                                    : e.value(QLatin1String("eventTime"));
        QJsonArray cells{since(last, nowMs),
                         e.value(QLatin1String("type")).toString(),
                         e.value(QLatin1String("reason")).toString(),
                         involved.value(QLatin1String("kind")).toString().toLower() +
                             QLatin1Char('/') + involved.value(QLatin1String("name")).toString(),
                         involved.value(QLatin1String("fieldPath")).toString(),
                         from,
                         e.value(QLatin1String("message")).toString().trimmed(),
                         since(e.value(QLatin1String("firstTimestamp")), nowMs),
                         e.value(QLatin1String("count")).toInt(1),
                         meta.value(QLatin1String("name")).toString()};
        rows.append(tableRow(cells, meta));
    }
    return table(columns, rows, resourceVersion, continueToken);
}

QStringList eventFieldSelectors()
{
    return {QStringLiteral("involvedObject.kind"),
            QStringLiteral("involvedObject.namespace"),
            QStringLiteral("involvedObject.name"),
            QStringLiteral("involvedObject.uid"),
            QStringLiteral("involvedObject.apiVersion"),
            QStringLiteral("involvedObject.resourceVersion"),
            QStringLiteral("involvedObject.fieldPath"),
            QStringLiteral("reason"),
            QStringLiteral("reportingComponent"),
            QStringLiteral("type")};
}

namespace {

// core/v1 member -> events.k8s.io/v1 member, where the names differ.
constexpr std::pair<const char *, const char *> kEventsV1Renames[] = {
    {"involvedObject", "regarding"},
    {"message", "note"},
    {"reportingComponent", "reportingController"},
    {"source", "deprecatedSource"},
    {"firstTimestamp", "deprecatedFirstTimestamp"},
    {"lastTimestamp", "deprecatedLastTimestamp"},
    {"count", "deprecatedCount"},
};

QJsonObject renamed(const QJsonObject &in, bool toV1)
{
    QJsonObject out = in;
    for (const auto &[core, v1] : kEventsV1Renames) {
        const QLatin1String from(toV1 ? core : v1);
        const QLatin1String to(toV1 ? v1 : core);
        out.remove(to); // a member of the other shape has no place here
        if (in.contains(from)) {
            out.insert(to, in.value(from));
            out.remove(from);
        }
    }
    return out;
}

bool isSet(const QJsonValue &v)
{
    if (v.isString())
        return !v.toString().isEmpty();
    if (v.isDouble())
        return v.toDouble() != 0;
    if (v.isObject())
        return !v.toObject().isEmpty();
    return !v.isUndefined() && !v.isNull();
}

QString eventString(const QJsonObject &e, const char *key)
{
    return e.value(QLatin1String(key)).toString();
}

} // namespace

QJsonObject eventsV1FromCore(const QJsonObject &core)
{
    return renamed(core, true);
}

QJsonObject coreFromEventsV1(const QJsonObject &v1)
{
    return renamed(v1, false);
}

QString coreEventFieldSelector(const QString &v1Selector)
{
    QStringList terms = v1Selector.split(QLatin1Char(','));
    for (QString &t : terms) {
        const QString trimmed = t.trimmed();
        if (trimmed.startsWith(QLatin1String("regarding.")))
            t = QStringLiteral("involvedObject.") + trimmed.mid(10);
        else if (trimmed.startsWith(QLatin1String("reportingController")))
            t = QStringLiteral("reportingComponent") + trimmed.mid(19);
    }
    return terms.join(QLatin1Char(','));
}

QList<StatusCause> validateEventsV1(const QJsonObject &event,
                                    const std::optional<QJsonObject> &current)
{
    using namespace Validation;
    QList<StatusCause> causes;
    auto tooLong = [&](const char *key, const char *field, int limit) {
        if (eventString(event, key).size() > limit)
            causes.append(
                invalidCause(QLatin1String(field), QString(),
                             QStringLiteral("can have at most %1 characters").arg(limit)));
    };
    if (current) {
        // ValidateEventUpdate: what the Event says may not change; its series may.
        for (const char *key :
             {"reason", "note", "type", "action", "reportingController", "reportingInstance"}) {
            const QJsonValue now = event.value(QLatin1String(key));
            if (now != current->value(QLatin1String(key))) {
                const QString field = QLatin1String(key) == QLatin1String("note")
                                          ? QStringLiteral("message")
                                          : QLatin1String(key);
                causes.append(
                    invalidCause(field, now.toString(), QStringLiteral("field is immutable")));
            }
        }
        for (const char *key : {"regarding", "related"})
            if (event.value(QLatin1String(key)) != current->value(QLatin1String(key)))
                causes.append(StatusCause{QStringLiteral("FieldValueInvalid"),
                                          QStringLiteral("Invalid value: field is immutable"),
                                          QLatin1String(key) == QLatin1String("regarding")
                                              ? QStringLiteral("involvedObject")
                                              : QStringLiteral("related")});
        return causes;
    }
    const QJsonObject meta = event.value(QLatin1String("metadata")).toObject();
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString regardingNs = event.value(QLatin1String("regarding"))
                                    .toObject()
                                    .value(QLatin1String("namespace"))
                                    .toString();
    const bool hasEventTime = isSet(event.value(QLatin1String("eventTime")));
    // legacyValidateEvent, which every Event passes.
    if (!hasEventTime) {
        if (regardingNs.isEmpty() ? ns != QLatin1String("default") && !ns.isEmpty()
                                  : ns != regardingNs)
            causes.append(invalidCause(QStringLiteral("involvedObject.namespace"), regardingNs,
                                       QStringLiteral("does not match event.namespace")));
    } else {
        if (regardingNs.isEmpty() && ns != QLatin1String("default") &&
            ns != QLatin1String("kube-system"))
            causes.append(invalidCause(QStringLiteral("involvedObject.namespace"), regardingNs,
                                       QStringLiteral("does not match event.namespace")));
        const QString controller = eventString(event, "reportingController");
        if (controller.isEmpty())
            causes.append(requiredCause(QStringLiteral("reportingController")));
        for (const QString &e : qualifiedName(controller))
            causes.append(invalidCause(QStringLiteral("reportingController"), controller, e));
        if (eventString(event, "reportingInstance").isEmpty())
            causes.append(requiredCause(QStringLiteral("reportingInstance")));
        tooLong("reportingInstance", "reportingInstance", 128);
        if (eventString(event, "action").isEmpty())
            causes.append(requiredCause(QStringLiteral("action")));
        tooLong("action", "action", 128);
        if (eventString(event, "reason").isEmpty())
            causes.append(requiredCause(QStringLiteral("reason")));
        tooLong("reason", "reason", 128);
        tooLong("note", "message", 1024);
    }
    // The strict checks of events.k8s.io/v1 and later.
    if (event.contains(QLatin1String("series")) && !event.value(QLatin1String("series")).isNull()) {
        const QJsonObject series = event.value(QLatin1String("series")).toObject();
        if (series.value(QLatin1String("count")).toInt() < 2)
            causes.append(invalidCause(QStringLiteral("series.count"), QString(),
                                       QStringLiteral("should be at least 2")));
        if (!isSet(series.value(QLatin1String("lastObservedTime"))))
            causes.append(requiredCause(QStringLiteral("series.lastObservedTime")));
    }
    if (!hasEventTime)
        causes.append(requiredCause(QStringLiteral("eventTime")));
    const QString type = eventString(event, "type");
    if (type != QLatin1String("Normal") && type != QLatin1String("Warning"))
        causes.append(invalidCause(QStringLiteral("type"), QString(),
                                   QStringLiteral("has invalid value: ") + type));
    for (const char *key :
         {"deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount"})
        if (isSet(event.value(QLatin1String(key))))
            causes.append(
                invalidCause(QLatin1String(key), QString(), QStringLiteral("needs to be unset")));
    const QJsonObject source = event.value(QLatin1String("deprecatedSource")).toObject();
    if (isSet(source.value(QLatin1String("component"))) ||
        isSet(source.value(QLatin1String("host"))))
        causes.append(invalidCause(QStringLiteral("deprecatedSource"), QString(),
                                   QStringLiteral("needs to be unset")));
    return causes;
}

} // namespace Gatehouse::Cluster
