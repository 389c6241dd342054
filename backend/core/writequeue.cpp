#include "core/writequeue.h"

#include "core/database.h"
#include "core/logging.h"

#include <QSqlError>
#include <QThread>

namespace Gatehouse::Core {

QSqlQuery &WriteTransaction::query(const QString &sql)
{
    auto it = m_cache->find(sql);
    if (it == m_cache->end()) {
        QSqlQuery q(m_db);
        if (!q.prepare(sql))
            qCCritical(lcDb) << "cannot prepare" << sql << q.lastError().text();
        it = m_cache->insert(sql, q);
    }
    it->finish();
    return *it;
}

Error WriteTransaction::sqlError(const QSqlQuery &q, const char *what)
{
    return Error{QStringLiteral("database-error"),
                 QStringLiteral("%1: %2").arg(QString::fromLatin1(what), q.lastError().text()),
                 500};
}

WriteQueue::WriteQueue(Database &database, QString name, int maxBatch)
    : m_database(database), m_name(std::move(name)), m_maxBatch(maxBatch)
{
    m_thread.reset(QThread::create([this] { loop(); }));
    m_thread->setObjectName(m_name);
    m_thread->start();
}

WriteQueue::~WriteQueue()
{
    stop();
}

void WriteQueue::stop()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    if (m_thread && m_thread->isRunning())
        m_thread->wait();
}

void WriteQueue::submit(Work work, Done done)
{
    QMutexLocker lock(&m_mutex);
    if (m_stopping) {
        lock.unlock();
        if (done)
            done(makeError(QStringLiteral("shutting-down"),
                           QStringLiteral("the server is shutting down"), 503));
        return;
    }
    m_jobs.push_back(Job{std::move(work), std::move(done)});
    if (m_jobs.size() == 1)
        m_wake.wakeOne();
}

Result<void> WriteQueue::run(Work work)
{
    QMutex mutex;
    QWaitCondition cond;
    bool finished = false;
    Result<void> result;
    submit(std::move(work), [&](const Result<void> &r) {
        QMutexLocker lock(&mutex);
        result = r;
        finished = true;
        cond.wakeAll();
    });
    QMutexLocker lock(&mutex);
    while (!finished)
        cond.wait(&mutex);
    return result;
}

qint64 WriteQueue::committedBatches() const
{
    QMutexLocker lock(&m_mutex);
    return m_batches;
}

qint64 WriteQueue::committedJobs() const
{
    QMutexLocker lock(&m_mutex);
    return m_committed;
}

int WriteQueue::queued() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_jobs.size());
}

void WriteQueue::loop()
{
    QSqlDatabase db = m_database.connection();
    QHash<QString, QSqlQuery> cache;
    QSqlQuery control(db);
    std::vector<Job> batch;
    std::vector<Result<void>> results;
    std::vector<std::vector<std::function<void()>>> after;
    for (;;) {
        batch.clear();
        {
            QMutexLocker lock(&m_mutex);
            while (m_jobs.empty() && !m_stopping)
                m_wake.wait(&m_mutex);
            if (m_jobs.empty() && m_stopping)
                break;
            while (!m_jobs.empty() && int(batch.size()) < m_maxBatch) {
                batch.push_back(std::move(m_jobs.front()));
                m_jobs.pop_front();
            }
        }
        results.assign(batch.size(), Result<void>());
        after.assign(batch.size(), {});
        bool committed = false;
        if (control.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
            for (size_t i = 0; i < batch.size(); ++i) {
                WriteTransaction tx;
                tx.m_db = db;
                tx.m_cache = &cache;
                control.exec(QStringLiteral("SAVEPOINT job"));
                Result<void> r = batch[i].work(tx);
                if (r) {
                    control.exec(QStringLiteral("RELEASE job"));
                    after[i] = std::move(tx.m_after);
                } else {
                    control.exec(QStringLiteral("ROLLBACK TO job"));
                    control.exec(QStringLiteral("RELEASE job"));
                }
                results[i] = std::move(r);
            }
            for (auto &q : cache)
                q.finish();
            committed = control.exec(QStringLiteral("COMMIT"));
            if (!committed) {
                qCCritical(lcDb) << m_name << "commit failed:" << control.lastError().text();
                control.exec(QStringLiteral("ROLLBACK"));
            }
        } else {
            qCCritical(lcDb) << m_name << "begin failed:" << control.lastError().text();
        }
        if (!committed) {
            const Error e{QStringLiteral("database-error"),
                          QStringLiteral("the database did not accept the write: %1")
                              .arg(control.lastError().text()),
                          500};
            for (auto &r : results)
                r = e;
            for (auto &a : after)
                a.clear();
        }
        int ok = 0;
        for (size_t i = 0; i < batch.size(); ++i) {
            if (results[i])
                ++ok;
            for (auto &fn : after[i])
                fn();
            if (batch[i].done)
                batch[i].done(results[i]);
        }
        QMutexLocker lock(&m_mutex);
        if (committed) {
            ++m_batches;
            m_committed += ok;
        }
    }
    cache.clear();
    control = QSqlQuery();
}

} // namespace Gatehouse::Core
