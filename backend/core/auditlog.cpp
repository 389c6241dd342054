#include "core/auditlog.h"
#include "core/sqlwhere.h"

#include "core/clock.h"
#include "core/eventbus.h"
#include "core/logging.h"
#include "core/writequeue.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

#include <map>

namespace Gatehouse::Core {

namespace {

bool secretName(const QString &name)
{
    const QString n = name.toLower();
    static const QStringList exact{QStringLiteral("assertion"),  QStringLiteral("client_assertion"),
                                   QStringLiteral("code"),       QStringLiteral("device_code"),
                                   QStringLiteral("kubeconfig"), QStringLiteral("private_key"),
                                   QStringLiteral("key_pem"),    QStringLiteral("client-key-data")};
    // Suffixes, not substrings: "access_token_lifetime" and "token_exchange_audiences" are
    // settings, "client_secret" and "registration_access_token" are secrets.
    static const char *const suffixes[] = {"secret", "password",   "token",
                                           "keypem", "privatekey", "key-data"};
    if (exact.contains(n))
        return true;
    for (const char *suffix : suffixes)
        if (n.endsWith(QLatin1String(suffix)))
            return true;
    return false;
}

void flatten(const QString &prefix, const QJsonValue &v, std::map<QString, QJsonValue> *out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        if (o.isEmpty() && !prefix.isEmpty())
            (*out)[prefix] = QJsonObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key(), it.value(),
                    out);
        return;
    }
    if (!prefix.isEmpty())
        (*out)[prefix] = v;
}

AuditLog::Entry entryFromRow(const QSqlQuery &q)
{
    AuditLog::Entry e;
    e.id = q.value(0).toLongLong();
    e.at = q.value(1).toLongLong();
    e.actor = q.value(2).toString();
    e.kind = q.value(3).toString();
    e.action = q.value(4).toString();
    e.target = q.value(5).toString();
    e.method = q.value(6).toString();
    e.path = q.value(7).toString();
    e.status = q.value(8).toInt();
    auto json = [](const QVariant &v) -> QJsonValue {
        if (v.isNull())
            return QJsonValue(QJsonValue::Null);
        const QJsonDocument d = QJsonDocument::fromJson("[" + v.toByteArray() + "]");
        return d.array().isEmpty() ? QJsonValue(QJsonValue::Null) : d.array().first();
    };
    e.before = json(q.value(9));
    e.after = json(q.value(10));
    e.changes = json(q.value(11)).toArray();
    e.effects = json(q.value(12)).toObject();
    return e;
}

const char *const kColumns =
    "id, at, actor, kind, action, target, method, path, status, before, after, changes, effects";

QByteArray compact(const QJsonValue &v)
{
    return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
}

} // namespace

QJsonObject AuditLog::Entry::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), QString::number(id)},
                  {QStringLiteral("at"), isoTimeMs(at)},
                  {QStringLiteral("actor"), actor},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("action"), action},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("method"), method},
                  {QStringLiteral("path"), path},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("before"), before},
                  {QStringLiteral("after"), after},
                  {QStringLiteral("changes"), changes}};
    if (!effects.isEmpty())
        o.insert(QStringLiteral("effects"), effects);
    return o;
}

AuditLog::AuditLog(Database &database, WriteQueue &writer, EventBus &events, const Clock &clock)
    : m_database(database), m_writer(writer), m_events(events), m_clock(clock)
{}

Migration AuditLog::migration()
{
    return {11,
            QStringLiteral("audit log of administrative changes"),
            {QStringLiteral("CREATE TABLE audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at "
                            "INTEGER NOT NULL, actor TEXT NOT NULL, kind TEXT NOT NULL, action "
                            "TEXT NOT NULL, target TEXT NOT NULL, method TEXT NOT NULL, path TEXT "
                            "NOT NULL, status INTEGER NOT NULL, before TEXT, after TEXT, changes "
                            "TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX audit_log_kind_target ON audit_log(kind, target, id)")}};
}

Migration AuditLog::effectsColumn()
{
    return {14,
            QStringLiteral("audit log: what a change did when it was made"),
            {QStringLiteral("ALTER TABLE audit_log ADD COLUMN effects TEXT")}};
}

QJsonValue AuditLog::redact(const QJsonValue &value)
{
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (secretName(it.key()) && !it.value().isNull() && !it.value().isBool())
                *it = QStringLiteral("[redacted]");
            else
                *it = redact(*it);
        }
        return o;
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (auto it = a.begin(); it != a.end(); ++it)
            *it = redact(*it);
        return a;
    }
    return value;
}

QJsonArray AuditLog::diff(const QJsonValue &before, const QJsonValue &after)
{
    std::map<QString, QJsonValue> b;
    std::map<QString, QJsonValue> a;
    flatten(QString(), before, &b);
    flatten(QString(), after, &a);
    QJsonArray out;
    auto bi = b.begin();
    auto ai = a.begin();
    const QJsonValue absent(QJsonValue::Undefined);
    while (bi != b.end() || ai != a.end()) {
        if (ai == a.end() || (bi != b.end() && bi->first < ai->first)) {
            out.append(QJsonObject{{QStringLiteral("field"), bi->first},
                                   {QStringLiteral("before"), bi->second},
                                   {QStringLiteral("after"), QJsonValue::Null},
                                   {QStringLiteral("removed"), true}});
            ++bi;
        } else if (bi == b.end() || ai->first < bi->first) {
            out.append(QJsonObject{{QStringLiteral("field"), ai->first},
                                   {QStringLiteral("before"), QJsonValue::Null},
                                   {QStringLiteral("after"), ai->second},
                                   {QStringLiteral("added"), true}});
            ++ai;
        } else {
            if (bi->second != ai->second)
                out.append(QJsonObject{{QStringLiteral("field"), ai->first},
                                       {QStringLiteral("before"), bi->second},
                                       {QStringLiteral("after"), ai->second}});
            ++ai;
            ++bi;
        }
    }
    // Fields that change on every write say nothing about the change itself.
    QJsonArray meaningful;
    static const QStringList noise{
        QStringLiteral("metadata.resourceVersion"), QStringLiteral("metadata.managedFields"),
        QStringLiteral("updatedAt"), QStringLiteral("version"), QStringLiteral("lastModifiedDate")};
    for (const QJsonValue c : std::as_const(out))
        if (!noise.contains(c.toObject().value(QLatin1String("field")).toString()))
            meaningful.append(c);
    return meaningful;
}

void AuditLog::record(Entry e)
{
    e.at = e.at ? e.at : m_clock.now().toMSecsSinceEpoch();
    if (e.target.isEmpty())
        e.target = QStringLiteral("-"); // e.g. a minted token: nothing with an id was created
    e.before = redact(e.before);
    e.after = redact(e.after);
    e.changes = diff(e.before, e.after);
    auto shared = std::make_shared<Entry>(std::move(e));
    EventBus *events = &m_events;
    m_writer.submit(
        [shared](WriteTransaction &tx) -> Result<void> {
            QSqlQuery &q = tx.query(QStringLiteral(
                "INSERT INTO audit_log (at, actor, kind, action, target, method, path, status, "
                "before, after, changes, effects) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
            const Entry &x = *shared;
            q.addBindValue(x.at);
            q.addBindValue(x.actor);
            q.addBindValue(x.kind);
            q.addBindValue(x.action);
            q.addBindValue(x.target);
            q.addBindValue(x.method);
            q.addBindValue(x.path);
            q.addBindValue(x.status);
            q.addBindValue(QString::fromUtf8(compact(x.before)));
            q.addBindValue(QString::fromUtf8(compact(x.after)));
            q.addBindValue(QString::fromUtf8(compact(x.changes)));
            q.addBindValue(x.effects.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                               : QVariant(QString::fromUtf8(compact(x.effects))));
            if (!q.exec())
                return WriteTransaction::sqlError(q, "insert audit entry");
            shared->id = q.lastInsertId().toLongLong();
            return {};
        },
        [shared, events](const Result<void> &r) {
            if (!r) {
                qCWarning(lcDb) << "audit entry not stored:" << r.error().message;
                return;
            }
            events->publish(QStringLiteral("audit.entry"), shared->toJson());
        });
}

QList<AuditLog::Entry> AuditLog::list(const Filter &f) const
{
    SqlWhere where;
    where.equalIfSet("kind", f.kind).equalIfSet("actor", f.actor).equalIfSet("target", f.target);
    if (f.since > 0)
        where.add(u"at >= ?", {f.since});
    if (f.beforeId > 0)
        where.add(u"id < ?", {f.beforeId});
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    QList<Entry> out;
    if (!where.exec(q, QStringLiteral("SELECT %1 FROM audit_log").arg(QLatin1String(kColumns)),
                    u" ORDER BY id DESC LIMIT ?", {f.limit}))
        return out;
    while (q.next())
        out.append(entryFromRow(q));
    return out;
}

std::optional<AuditLog::Entry> AuditLog::entry(qint64 id) const
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT %1 FROM audit_log WHERE id = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(id);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return entryFromRow(q);
}

void AuditLog::setConsequences(const QString &kind, const Consequences &provider)
{
    m_consequences.insert(kind, provider);
}

QJsonObject AuditLog::consequences(const Entry &e) const
{
    const auto provider = m_consequences.constFind(e.kind);
    if (provider == m_consequences.constEnd())
        return {};
    // Until the next change of the same thing: what followed is this change's doing.
    qint64 until = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral(
        "SELECT at FROM audit_log WHERE kind = ? AND target = ? AND id > ? ORDER BY id LIMIT 1"));
    q.addBindValue(e.kind);
    q.addBindValue(e.target);
    q.addBindValue(e.id);
    if (q.exec() && q.next())
        until = q.value(0).toLongLong();
    QJsonObject c = (*provider)(e, until);
    if (c.isEmpty())
        return c; // nothing this change could have caused
    c.insert(QStringLiteral("until"), isoTimeMs(until));
    return c;
}

} // namespace Gatehouse::Core
