#include "core/instances.h"

#include "core/clock.h"
#include "core/logging.h"
#include "core/writequeue.h"
#include "platform/platform.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QSysInfo>

namespace Gatehouse::Core {

namespace {

constexpr const char *kLead = "periodic-jobs";

QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

// One heartbeat: the row kept fresh, the lead taken (free or expired) or kept, and rows of
// instances long gone removed by the one that leads. Answers whether this instance leads.
Result<bool> heartbeat(WriteTransaction &tx, const Instances::Self &self,
                       const QByteArray &listeners, qint64 now)
{
    Statement &row = tx.stmt(
        "INSERT INTO gatehouse_instances (id, version, listeners, started_at, heartbeat_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET heartbeat_at = "
        "excluded.heartbeat_at, listeners = excluded.listeners");
    row.bind(1, self.id).bind(2, self.version).bindUtf8(3, listeners);
    if (!row.bind(4, self.startedAt).bind(5, now).exec())
        return WriteTransaction::sqlError(row, "heartbeat");
    // A lead held by a process of this machine that has ended is taken at once, not when its
    // time runs out (a lead time): the periodic jobs (bulk redelivery jobs taken up among
    // them) went on 15 s after a crash restarted at once. Taken only from that holder (the
    // row is checked again as it is updated), so two instances never both take it.
    Statement &current =
        tx.stmt("SELECT holder FROM gatehouse_leader WHERE name = ? AND holder <> ?");
    current.bind(1, QString::fromLatin1(kLead)).bind(2, self.id);
    QString ended;
    if (current.next() && Instances::ranHereAndEnded(current.text(0)))
        ended = current.text(0);
    if (!current.ok())
        return WriteTransaction::sqlError(current, "lead");
    Statement &lead = tx.stmt(
        "INSERT INTO gatehouse_leader (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT "
        "(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE "
        "gatehouse_leader.holder = excluded.holder OR gatehouse_leader.expires_at < ? OR "
        "gatehouse_leader.holder = ?");
    lead.bind(1, QString::fromLatin1(kLead)).bind(2, self.id);
    if (!lead.bind(3, now + Instances::kLeadMs).bind(4, now).bind(5, ended).exec())
        return WriteTransaction::sqlError(lead, "lead");
    if (!ended.isEmpty())
        qCInfo(lcDb).noquote() << "the process" << ended
                               << "led the periodic jobs and has ended: the lead is free now";
    Statement &holder = tx.stmt("SELECT holder FROM gatehouse_leader WHERE name = ?");
    holder.bind(1, QString::fromLatin1(kLead));
    const bool leads = holder.next() && holder.text(0) == self.id;
    if (!holder.ok())
        return WriteTransaction::sqlError(holder, "lead");
    if (leads) {
        Statement &forget =
            tx.stmt("DELETE FROM gatehouse_instances WHERE heartbeat_at < ? AND id <> ?");
        if (!forget.bind(1, now - Instances::kForgetMs).bind(2, self.id).exec())
            return WriteTransaction::sqlError(forget, "forget instances");
    }
    return leads;
}

} // namespace

Instances::Instances(Database &database, WriteQueue &writer, const Clock &clock, Self self,
                     qint64 heartbeatMs)
    : m_database(database), m_writer(writer), m_clock(clock), m_self(std::move(self)),
      m_heartbeatMs(heartbeatMs)
{
    m_timer.setInterval(int(m_heartbeatMs));
    connect(&m_timer, &QTimer::timeout, this, [this] { beat(); });
}

Instances::~Instances() = default;

Migration Instances::migration()
{
    return {25,
            QStringLiteral("core: instances (heartbeats) and the lead for periodic jobs"),
            {QStringLiteral("CREATE TABLE gatehouse_instances (id TEXT PRIMARY KEY, version TEXT "
                            "NOT NULL, listeners TEXT NOT NULL, started_at BIGINT NOT NULL, "
                            "heartbeat_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE TABLE gatehouse_leader (name TEXT PRIMARY KEY, holder TEXT "
                            "NOT NULL, expires_at BIGINT NOT NULL)")}};
}

Result<void> Instances::start(bool soleInstance)
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    bool leads = false;
    auto r = m_writer.run([&](WriteTransaction &tx) -> Result<void> {
        if (soleInstance) {
            Statement &gone = tx.stmt("DELETE FROM gatehouse_leader");
            if (!gone.exec())
                return WriteTransaction::sqlError(gone, "lead");
        }
        auto l = heartbeat(tx, m_self, m_listeners, now);
        if (!l)
            return l.error();
        leads = *l;
        return {};
    });
    if (!r)
        return r;
    m_leads->store(leads);
    qCInfo(lcDb).noquote() << "instance" << m_self.id
                           << (leads ? "leads the periodic jobs"
                                     : "started; another instance leads the periodic jobs");
    m_timer.start();
    return {};
}

void Instances::setListeners(const QJsonObject &listeners)
{
    m_listeners = QJsonDocument(listeners).toJson(QJsonDocument::Compact);
    beat();
}

void Instances::beat()
{
    auto leads = std::make_shared<bool>(false);
    m_writer.submit(
        [self = m_self, listeners = m_listeners, now = m_clock.now().toMSecsSinceEpoch(),
         leads](WriteTransaction &tx) -> Result<void> {
            auto l = heartbeat(tx, self, listeners, now);
            if (!l)
                return l.error();
            *leads = *l;
            return {};
        },
        [flag = m_leads, leads, id = m_self.id](const Result<void> &r) {
            if (!r) {
                // Not renewed: the lead is given up here before it expires for the others.
                qCWarning(lcDb).noquote() << "heartbeat not written:" << r.error().message;
                flag->store(false);
                return;
            }
            if (flag->exchange(*leads) != *leads)
                qCInfo(lcDb).noquote() << "instance" << id
                                       << (*leads ? "leads the periodic jobs now"
                                                  : "no longer leads the periodic jobs");
        });
}

void Instances::stop()
{
    m_timer.stop();
    m_leads->store(false);
    (void)m_writer.run([id = m_self.id](WriteTransaction &tx) -> Result<void> {
        Statement &row = tx.stmt("DELETE FROM gatehouse_instances WHERE id = ?");
        if (!row.bind(1, id).exec())
            return WriteTransaction::sqlError(row, "instance row");
        Statement &lead = tx.stmt("DELETE FROM gatehouse_leader WHERE holder = ?");
        if (!lead.bind(1, id).exec())
            return WriteTransaction::sqlError(lead, "lead");
        return {};
    });
}

QJsonArray Instances::list()
{
    QJsonArray out;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery q(m_database.connection());
    q.setForwardOnly(true);
    if (!q.exec(
            QStringLiteral(
                "SELECT i.id, i.version, i.listeners, i.started_at, i.heartbeat_at, (SELECT "
                "COUNT(*) FROM gatehouse_leader l WHERE l.holder = i.id AND l.expires_at >= %1) "
                "FROM gatehouse_instances i ORDER BY i.heartbeat_at DESC, i.id")
                .arg(now)))
        return out;
    while (q.next()) {
        const QString id = q.value(0).toString();
        const qint64 heartbeatAt = q.value(4).toLongLong();
        // A process of this machine that has ended is gone, however fresh its heartbeat.
        const bool alive =
            now - heartbeatAt <= kAliveMs && (id == m_self.id || !ranHereAndEnded(id));
        out.append(QJsonObject{{QStringLiteral("id"), id},
                               {QStringLiteral("version"), q.value(1).toString()},
                               {QStringLiteral("listeners"),
                                QJsonDocument::fromJson(q.value(2).toString().toUtf8()).object()},
                               {QStringLiteral("startedAt"), isoTime(q.value(3).toLongLong())},
                               {QStringLiteral("heartbeatAt"), isoTime(heartbeatAt)},
                               {QStringLiteral("alive"), alive},
                               {QStringLiteral("leads"), q.value(5).toInt() > 0},
                               {QStringLiteral("self"), id == m_self.id}});
    }
    return out;
}

std::optional<QSet<QString>> Instances::aliveIds()
{
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral("SELECT id FROM gatehouse_instances WHERE heartbeat_at >= ?"));
    q.addBindValue(m_clock.now().toMSecsSinceEpoch() - kAliveMs);
    if (!q.exec())
        return std::nullopt;
    QSet<QString> ids;
    while (q.next()) {
        const QString id = q.value(0).toString();
        if (id == m_self.id || !ranHereAndEnded(id))
            ids.insert(id);
    }
    return ids;
}

QString Instances::newProcessId(const QString &unique)
{
    return QStringLiteral("%1/%2/%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(unique);
}

bool Instances::ranHereAndEnded(const QString &id)
{
    const qsizetype last = id.lastIndexOf(QLatin1Char('/'));
    const qsizetype middle = last > 0 ? id.lastIndexOf(QLatin1Char('/'), last - 1) : -1;
    if (middle <= 0 || QStringView(id).left(middle) != QSysInfo::machineHostName())
        return false;
    bool ok = false;
    const qint64 pid = QStringView(id).mid(middle + 1, last - middle - 1).toLongLong(&ok);
    if (!ok || pid <= 0)
        return false;
    // This process's pid in another id: a process before this one, which had the same pid.
    return pid == QCoreApplication::applicationPid() || !Platform::processExists(pid);
}

} // namespace Gatehouse::Core
