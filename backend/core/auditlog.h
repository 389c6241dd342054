#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace Gatehouse::Core {

class Clock;
class EventBus;
class WriteQueue;

// The audit log (docs/audit.md): every administrative change with its actor, time, the object
// before and after and the field-by-field difference, stored in `audit_log` and published as
// `audit.entry`. Reading an entry adds what it caused next, from providers per kind (tokens
// issued under a new client record, cluster verdicts after an RBAC change, deliveries sent by a
// redelivery). Secrets never enter it: fields whose names say secret, password, token or key
// are replaced by "[redacted]" before anything is stored.
class AuditLog
{
public:
    struct Entry
    {
        qint64 id = 0;
        qint64 at = 0; // ms
        QString actor;
        QString kind;   // client, user, key, node, rbac, setting, redelivery, ...
        QString action; // create, update, delete, or the action's own name (rotate-secret, ...)
        QString target; // what the change was made to (an id or a name)
        QString method;
        QString path;
        int status = 0;     // the admin API's answer
        QJsonValue before;  // null: did not exist / not known
        QJsonValue after;   // null: deleted / not known
        QJsonArray changes; // [{"field", "before", "after"}]
        // What the change did at the moment it was made, when that cannot be read later
        // (cluster verdicts that changed: {"verdictChanges": {...}}); empty for most kinds.
        QJsonObject effects;
        QJsonObject toJson() const;
    };
    struct Filter
    {
        QString kind;
        QString actor;
        QString target;
        qint64 since = 0;    // ms
        qint64 beforeId = 0; // paging: entries older than this id
        int limit = 100;
    };
    // What followed an entry: {"summary": "...", "items": [...]}; `until` is the next change
    // of the same kind and target (or now).
    using Consequences = std::function<QJsonObject(const Entry &entry, qint64 until)>;

    AuditLog(Database &database, WriteQueue &writer, EventBus &events, const Clock &clock);

    static Migration migration();     // schema version 11
    static Migration effectsColumn(); // schema version 14

    // Stores the entry (changes computed from before/after) and publishes it.
    void record(Entry entry);
    QList<Entry> list(const Filter &filter) const;
    std::optional<Entry> entry(qint64 id) const;
    void setConsequences(const QString &kind, const Consequences &provider);
    QJsonObject consequences(const Entry &entry) const;

    // Field-by-field difference of two JSON values, nested objects flattened with dots
    // ("metadata.labels.rack"); arrays compare whole.
    static QJsonArray diff(const QJsonValue &before, const QJsonValue &after);
    // A copy with secret-looking fields replaced by "[redacted]".
    static QJsonValue redact(const QJsonValue &value);

private:
    Database &m_database;
    WriteQueue &m_writer;
    EventBus &m_events;
    const Clock &m_clock;
    QHash<QString, Consequences> m_consequences;
};

} // namespace Gatehouse::Core
