#include "core/settingsstore.h"
#include "core/clock.h"
#include "core/database.h"

#include <QDateTime>
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

} // namespace Gatehouse::Core
