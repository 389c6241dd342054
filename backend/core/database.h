#pragma once

#include "core/result.h"

#include <QHash>
#include <QMutex>
#include <QSqlDatabase>
#include <QStringList>

#include <memory>

class QThread;

namespace Gatehouse::Core {

// A numbered schema change. Versions are global across modules and strictly increasing;
// each migration runs in one transaction and is recorded in schema_migrations.
struct Migration
{
    int version = 0;
    QString description;
    QStringList statements;
};

// SQLite (WAL) through QtSql with one connection per thread. Callers use store
// interfaces on top of this; SQL stays inside Sql* store implementations.
class Database
{
public:
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating if needed) the SQLite file and applies pending migrations.
    // Refuses a database whose schema is newer than the newest migration known here.
    static Result<std::unique_ptr<Database>> open(const QString &path,
                                                  const QList<Migration> &migrations);

    // The calling thread's connection (created on first use).
    QSqlDatabase connection();
    QString path() const { return m_path; }
    QString driverName() const { return QStringLiteral("QSQLITE"); }
    int schemaVersion() const { return m_schemaVersion; }
    void close();

    static QList<Migration> coreMigrations();

private:
    explicit Database(QString path);
    Result<QSqlDatabase> openConnection(const QString &name);
    Result<void> migrate(const QList<Migration> &migrations);

    QString m_path;
    QString m_prefix;
    int m_schemaVersion = 0;
    // Shared with the thread-finished handlers, which may run after this object is gone.
    struct Connections
    {
        QMutex mutex;
        QHash<QThread *, QString> names;
    };
    std::shared_ptr<Connections> m_connections = std::make_shared<Connections>();
};

} // namespace Gatehouse::Core
