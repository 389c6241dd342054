#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

namespace Gatehouse::Core {

class Clock;
class WriteQueue;

// The Gatehouse processes of one database (docs/storage.md "Instances and the lead"). Each
// writes a heartbeat row every few seconds (gatehouse_instances: its id, version, listeners,
// start and last heartbeat), so that any of them can name all; and one of them at a time holds
// the lead (gatehouse_leader, a row with a holder and an expiry that only the holder moves),
// under which the periodic jobs run (token retention, the redelivery jobs' history). An
// instance that stops removes its row and gives the lead up; one that dies loses the lead a
// lead time after its last heartbeat. On SQLite the one process is the only instance and leads.
class Instances : public QObject
{
    Q_OBJECT
public:
    struct Self
    {
        QString id; // one per process (newProcessId())
        QString version;
        qint64 startedAt = 0;
    };
    static constexpr qint64 kHeartbeatMs = 5'000;
    static constexpr qint64 kAliveMs = 3 * kHeartbeatMs; // a heartbeat missed twice: gone
    static constexpr qint64 kLeadMs = 3 * kHeartbeatMs;
    static constexpr qint64 kForgetMs = 3'600'000; // rows of instances gone, kept this long

    Instances(Database &database, WriteQueue &writer, const Clock &clock, Self self,
              qint64 heartbeatMs = kHeartbeatMs);
    ~Instances() override;

    static Migration migration(); // schema version 25

    // The first heartbeat (and a try for the lead), committed before it returns; then one
    // every heartbeat interval. `soleInstance`: this process has the database alone (SQLite),
    // so a lead still held is a dead process's, dropped first (a restart right after a kill -9
    // leads at once). On PostgreSQL a dead instance's lead expires (kLeadMs).
    Result<void> start(bool soleInstance = false);
    // Removes this instance's row and gives the lead up (committed before it returns). Call it
    // before the writer stops.
    void stop();

    bool leads() const { return m_leads->load(); }
    // The listeners' URLs (name -> URL), once they listen: written with the next heartbeat,
    // which comes at once. On this object's thread.
    void setListeners(const QJsonObject &listeners);
    const QString &id() const { return m_self.id; }
    // Every instance seen on the database, newest heartbeat first, read on the calling thread:
    // id, version, listeners, startedAt, heartbeatAt, alive, leads, self.
    QJsonArray list();
    // The ids of the instances alive now (a heartbeat in the last kAliveMs, this one included),
    // read on the calling thread; nullopt when they cannot be read. A process of this machine
    // that has ended is not alive, however fresh its last heartbeat (ranHereAndEnded()): a
    // crashed instance restarted at once takes up what it left without waiting kAliveMs.
    std::optional<QSet<QString>> aliveIds();

    // A new process's id: "host/pid/unique" (`unique`: random characters without a '/', so
    // that a pid used again is another id).
    static QString newProcessId(const QString &unique);
    // Whether `id` (newProcessId()'s form) is another process of this machine that no longer
    // runs: its pid names no process, or names this one. False when it cannot tell (another
    // machine, another form of id, a pid that runs again for another program).
    static bool ranHereAndEnded(const QString &id);

private:
    void beat();

    Database &m_database;
    WriteQueue &m_writer;
    const Clock &m_clock;
    const Self m_self;
    QByteArray m_listeners = "{}"; // JSON, as stored
    const qint64 m_heartbeatMs;
    QTimer m_timer;
    // Shared with the heartbeat jobs' answers, which may come after this is gone.
    std::shared_ptr<std::atomic<bool>> m_leads = std::make_shared<std::atomic<bool>>(false);
};

} // namespace Gatehouse::Core
