#pragma once
// Internal to the HTTP server (backend/core/httpserver.cpp and httpconnection.cpp): the route
// table, the hub that carries answers from other threads, and the server's private state.

#include "core/httpserver.h"
#include "core/writequeue.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QPair>
#include <QTcpServer>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace Gatehouse::Core {

class Metrics;

struct Route
{
    QByteArray method;
    QString pattern;
    QStringList segments; // pattern segments; "{x}" captures, trailing "*" matches the rest
    Handler handler;
    DeferredHandler deferred;
    RouteOptions options;

    bool matchPath(const QStringList &pathSegments, QHash<QString, QString> *params) const
    {
        const bool rest = !segments.isEmpty() && segments.last() == QLatin1String("*");
        const qsizetype fixed = rest ? segments.size() - 1 : segments.size();
        if (rest ? pathSegments.size() < fixed : pathSegments.size() != fixed)
            return false;
        QHash<QString, QString> captured;
        for (qsizetype i = 0; i < fixed; ++i) {
            const QString &s = segments[i];
            if (s.startsWith(QLatin1Char('{')) && s.endsWith(QLatin1Char('}'))) {
                if (pathSegments[i].isEmpty())
                    return false;
                captured.insert(s.mid(1, s.size() - 2), pathSegments[i]);
            } else if (s != pathSegments[i]) {
                return false;
            }
        }
        if (rest)
            captured.insert(QStringLiteral("*"), pathSegments.mid(fixed).join(QLatin1Char('/')));
        if (params)
            *params = std::move(captured);
        return true;
    }
};

namespace Internal {
class Connection;
} // namespace Internal

// Lets Responders outlive the server: they post through the hub, which forgets the
// server when it is destroyed.
struct ResponderHub
{
    QMutex mutex;
    HttpServer::Private *server = nullptr;
    // Answers made on other threads (the database writer, the pool) wait here, and one queued
    // call drains them all: a writer that finishes a batch of N requests wakes the server's
    // thread once instead of N times (each wake-up is a system call).
    struct Answer
    {
        quint64 connectionId = 0;
        quint64 seq = 0;
        HttpResponse response;
    };
    std::vector<Answer> inbox;
    bool drainPosted = false;
    void post(quint64 connectionId, quint64 seq, HttpResponse response);
};

class HttpServer::Private : public QObject
{
public:
    Private(HttpServer *q, ListenerOptions o, Metrics &m, const Clock &c)
        : q(q), options(std::move(o)), metrics(m), clock(c)
    {
        pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        isolatedPool.setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
        sweepTimer.setInterval(std::clamp(
            std::min({options.headerTimeoutMs, options.idleTimeoutMs, options.bodyTimeoutMs,
                      options.lingerMs, options.handshakeTimeoutMs}) /
                4,
            25, 1000));
        QObject::connect(&sweepTimer, &QTimer::timeout, this, [this] { sweep(); });
        hub->server = this;
    }

    ~Private() override;

    HttpResponse formatError(int status, const QString &code, const QString &message) const
    {
        return errorFormatter ? errorFormatter(status, code, message)
                              : HttpResponse::error(status, code, message);
    }

    const Route *findRoute(const QByteArray &method, const QStringList &segments,
                           QHash<QString, QString> *params, QByteArrayList *allowed) const
    {
        const QByteArray effective = method == "HEAD" ? QByteArray("GET") : method;
        const Route *found = nullptr;
        for (const Route &r : routes) {
            QHash<QString, QString> p;
            if (!r.matchPath(segments, &p))
                continue;
            if (!allowed->contains(r.method))
                allowed->append(r.method);
            if (!found && (r.method == method || r.method == effective)) {
                found = &r;
                *params = std::move(p);
            }
        }
        return found;
    }

    void accept();
    // What every connection of this listener holds unsent (streams among them).
    qint64 unsentBytes() const;
    static QByteArray connectionKey(const QHostAddress &address);
    void connectionClosed(const QByteArray &clientKey);
    void sweep();
    void deliver(quint64 connectionId, quint64 seq, HttpResponse response);
    void drainAnswers();
    void finishShutdownIfDone();

    HttpServer *q;
    ListenerOptions options;
    Metrics &metrics;
    const Clock &clock;
    QList<Route> routes;
    QList<QPair<QString, Filter>> filters;
    QList<QPair<QString, HttpServer::Observer>> observers;
    // Observers' callbacks by (connection id, request seq), run when the response is complete.
    QHash<QPair<quint64, quint64>, QList<HttpServer::AfterResponse>> afters;
    void runAfters(quint64 connectionId, quint64 seq, const HttpResponse &response)
    {
        const auto it = afters.find(qMakePair(connectionId, seq));
        if (it == afters.end())
            return;
        const QList<HttpServer::AfterResponse> fns = std::move(*it);
        afters.erase(it);
        for (const auto &fn : fns)
            fn(response);
    }
    std::optional<Route> fallback;
    ErrorFormatter errorFormatter;
    bool ready = true;
    std::unique_ptr<QTcpServer> server;
    QHash<quint64, Internal::Connection *> connections;
    QHash<QByteArray, int> perClient; // open connections by connectionKey()
    quint64 nextConnectionId = 1;
    int inFlight = 0;
    QThreadPool pool;
    // RouteOptions::isolated work: its own threads (a core fewer than the machine has) and at
    // most kIsolatedWaiting jobs waiting, so that a flood of it (password hashing) neither
    // holds up the pool's other work nor queues without end.
    static constexpr int kIsolatedWaiting = 64;
    QThreadPool isolatedPool;
    std::atomic<int> isolatedPending{0}; // running and waiting
    bool startIsolated(std::function<void()> work)
    {
        if (isolatedPending.fetch_add(1) >= isolatedPool.maxThreadCount() + kIsolatedWaiting) {
            isolatedPending.fetch_sub(1);
            return false;
        }
        isolatedPool.start([this, work = std::move(work)] {
            work();
            isolatedPending.fetch_sub(1);
        });
        return true;
    }
    HttpResponse isolatedBusy() const
    {
        HttpResponse r = formatError(503, QStringLiteral("busy"),
                                     QStringLiteral("too many sign-ins are being checked; try "
                                                    "again in a moment"));
        r.setHeader("Retry-After", "1");
        return r;
    }
    std::shared_ptr<ResponderHub> hub = std::make_shared<ResponderHub>();
    QTimer sweepTimer;
    bool shuttingDown = false;
    // Database jobs that requests submit on this thread wake the writer once per event-loop
    // pass (WriteQueue::DeferWakes): a queued call after the pass wakes it.
    bool wakeScheduled = false;
    void scheduleWriterWake()
    {
        if (wakeScheduled || !WriteQueue::hasDeferred())
            return;
        wakeScheduled = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                wakeScheduled = false;
                WriteQueue::wakeDeferred();
            },
            Qt::QueuedConnection);
    }
    QElapsedTimer shutdownClock;
    int shutdownGraceMs = 0;
    std::function<void()> shutdownDone;
};

} // namespace Gatehouse::Core
