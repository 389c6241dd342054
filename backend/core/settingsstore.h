#pragma once

#include "core/result.h"

#include <QJsonObject>
#include <QMap>
#include <QMutex>
#include <QString>

namespace Gatehouse::Core {

class Clock;
class Database;

// Key/value settings persisted with the data (instance id, live-changed settings).
class SettingsStore
{
public:
    virtual ~SettingsStore() = default;
    virtual Result<QString> value(const QString &key) const = 0; // Error "not-found" if absent
    virtual Result<void> setValue(const QString &key, const QString &value) = 0;
    virtual Result<QMap<QString, QString>> all() const = 0;
    virtual Result<void> remove(const QString &key) = 0; // no error when absent
    // The value is a JSON object (several settings in one row): `fields` replace its members
    // of the same names, in one step with the read, so that a member another instance stored
    // meanwhile is kept, never written back as this instance last saw it. Returns the object
    // stored.
    virtual Result<QJsonObject> mergeJsonObject(const QString &key, const QJsonObject &fields) = 0;

    // Held while a value is stored and then applied here, and while a value changed by another
    // instance is read again and applied: a value read before a local change is never applied
    // after it (which would undo the change until the next announcement), and two local changes
    // are stored in the order they are applied.
    [[nodiscard]] QMutexLocker<QMutex> lockChanges() const { return QMutexLocker(&m_changes); }

private:
    mutable QMutex m_changes;
};

class SqlSettingsStore final : public SettingsStore
{
public:
    SqlSettingsStore(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}
    Result<QString> value(const QString &key) const override;
    Result<void> setValue(const QString &key, const QString &value) override;
    Result<QMap<QString, QString>> all() const override;
    Result<void> remove(const QString &key) override;
    // In one transaction; on PostgreSQL under a transaction-scoped advisory lock on the key,
    // so that instances merging into the same row wait for each other (the row may not exist
    // yet: FOR UPDATE would lock nothing).
    Result<QJsonObject> mergeJsonObject(const QString &key, const QJsonObject &fields) override;

private:
    Database &m_db;
    const Clock &m_clock; // updated_at
};

} // namespace Gatehouse::Core
