#include "core/settingsstore.h"
#include "core/clock.h"
#include "core/database.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

namespace Gatehouse::Core {

Result<QString> SqlSettingsStore::value(const QString &key) const
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("SELECT value FROM settings WHERE key = ?"));
    q.addBindValue(key);
    if (!q.exec())
        return makeError(QStringLiteral("database-error"), q.lastError().text());
    if (!q.next())
        return makeError(QStringLiteral("not-found"), QStringLiteral("no setting %1").arg(key),
                         404);
    return q.value(0).toString();
}

Result<void> SqlSettingsStore::setValue(const QString &key, const QString &value)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value, "
                             "updated_at = excluded.updated_at"));
    q.addBindValue(key);
    // An empty value (a list setting cleared) is "", never NULL: the column is NOT NULL, and
    // QSqlQuery binds a null QString (QStringList().join()) as NULL.
    q.addBindValue(value.isNull() ? QStringLiteral("") : value);
    q.addBindValue(m_clock.now().toString(Qt::ISODateWithMs));
    if (!q.exec())
        return makeError(QStringLiteral("database-error"), q.lastError().text());
    return {};
}

Result<QMap<QString, QString>> SqlSettingsStore::all() const
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT key, value FROM settings ORDER BY key")))
        return makeError(QStringLiteral("database-error"), q.lastError().text());
    QMap<QString, QString> out;
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toString());
    return out;
}

Result<void> SqlSettingsStore::remove(const QString &key)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("DELETE FROM settings WHERE key = ?"));
    q.addBindValue(key);
    if (!q.exec())
        return makeError(QStringLiteral("database-error"), q.lastError().text());
    return {};
}

Result<QJsonObject> SqlSettingsStore::mergeJsonObject(const QString &key, const QJsonObject &fields)
{
    QSqlDatabase db = m_db.connection();
    const bool pg = m_db.engine() == Database::Engine::PostgreSQL;
    QSqlQuery q(db);
    auto failed = [&db, pg](const QString &what) {
        Error e = Database::readFailed(db, what);
        if (pg)
            db.rollback();
        else
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return e;
    };
    // SQLite: IMMEDIATE, so that the write after the read cannot fail on a commit another
    // connection (the writer's) made in between (SQLITE_BUSY_SNAPSHOT); it waits instead.
    if (pg ? !db.transaction() : !q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return Database::readFailed(db, pg ? db.lastError().text() : q.lastError().text());
    if (pg) {
        q.prepare(QStringLiteral("SELECT pg_advisory_xact_lock(hashtext(?))"));
        q.addBindValue(QStringLiteral("gatehouse.settings:") + key);
        if (!q.exec())
            return failed(q.lastError().text());
    }
    q.prepare(QStringLiteral("SELECT value FROM settings WHERE key = ?"));
    q.addBindValue(key);
    if (!q.exec())
        return failed(q.lastError().text());
    QJsonObject merged =
        q.next() ? QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object() : QJsonObject();
    q.finish();
    for (auto it = fields.begin(); it != fields.end(); ++it)
        merged.insert(it.key(), it.value());
    q.prepare(QStringLiteral("INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value, "
                             "updated_at = excluded.updated_at"));
    q.addBindValue(key);
    q.addBindValue(QString::fromUtf8(QJsonDocument(merged).toJson(QJsonDocument::Compact)));
    q.addBindValue(m_clock.now().toString(Qt::ISODateWithMs));
    if (!q.exec())
        return failed(q.lastError().text());
    q.finish();
    if (pg ? !db.commit() : !q.exec(QStringLiteral("COMMIT")))
        return failed(pg ? db.lastError().text() : q.lastError().text());
    return merged;
}

} // namespace Gatehouse::Core
