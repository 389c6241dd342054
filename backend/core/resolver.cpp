#include "core/resolver.h"

#include "core/postguard.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QMutex>
#include <QPointer>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>

#include <ares.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>
#include <vector>

Q_LOGGING_CATEGORY(lcResolver, "gatehouse.core.resolver")

namespace Gatehouse::Core {

namespace {

std::atomic<int> g_pending{0};
std::atomic<int> g_limit{Resolver::MaxPending};
// The error of a lookup refused for want of room (Resolver::isBusy).
constexpr char kBusy[] = "too many lookups in progress";

// Lives in the resolver's thread: the c-ares channels, a notifier per socket c-ares watches,
// and the timer for their timeouts. Only ever touched on that thread.
//
// c-ares reads the system's configuration (resolv.conf, on Windows the registry) when a
// channel is made, and not again: a laptop that changed networks would go on asking DNS
// servers it can no longer reach. So new lookups go to a channel made after the last change
// of /etc/resolv.conf (looked at once a second at most, as glibc does) and at most a minute
// old (the registry has no such file); an older one ends once its lookups have.
class Engine : public QObject
{
public:
    Engine() : m_timer(this) // moved to the resolver's thread with the engine
    {
        m_timer.setSingleShot(true);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            for (const auto &c : m_channels)
                ares_process_fd(c->handle, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
            settle();
        });
    }

    ~Engine() override
    {
        // Every lookup still waiting is answered (ARES_EDESTRUCTION) as its channel goes.
        while (!m_channels.empty())
            close(m_channels.size() - 1);
    }

    // A lookup, started on this thread. The answer goes to `guard`'s object, if still there.
    void start(const QByteArray &host, std::weak_ptr<PostGuard> guard, Resolver::Done done)
    {
        Channel *channel = current();
        if (!channel) {
            auto *request = new Request{nullptr, std::move(guard), std::move(done)};
            finish(request, {}, QStringLiteral("the resolver could not start: %1").arg(m_error));
            return;
        }
        auto *request = new Request{channel, std::move(guard), std::move(done)};
        ++channel->pending;
        ares_addrinfo_hints hints{};
        hints.ai_family = AF_UNSPEC;     // A and AAAA
        hints.ai_socktype = SOCK_STREAM; // one entry an address
        ares_getaddrinfo(channel->handle, host.constData(), nullptr, &hints, &Engine::answered,
                         request);
        settle();
    }

private:
    // A DNS server that does not answer: 3 s for the first try, 6 s for the second (c-ares
    // doubles it), each server in turn. About glibc's default (5 s, twice), whatever
    // resolv.conf's options say: a lookup holds a place of the intake's for 9 s a server.
    static constexpr int TimeoutMs = 3000;
    static constexpr int Tries = 2;
    static constexpr qint64 ChannelAgeMs = 60'000;
    static constexpr qint64 ConfigCheckMs = 1'000;

    struct Notifiers
    {
        QPointer<QSocketNotifier> read;
        QPointer<QSocketNotifier> write;
    };

    struct Channel
    {
        Engine *engine = nullptr;
        ares_channel handle = nullptr;
        int pending = 0; // lookups sent on it and not answered
        QElapsedTimer age;
        QDateTime config; // configStamp() when it was made
        QHash<ares_socket_t, Notifiers> notifiers;
    };

    struct Request
    {
        Channel *channel; // null: answered without one
        std::weak_ptr<PostGuard> guard;
        Resolver::Done done;
    };

    // When the system's resolver configuration last changed, as far as a file tells.
    QDateTime configStamp()
    {
        if (!m_configChecked.isValid() || m_configChecked.elapsed() >= ConfigCheckMs) {
            m_configChecked.start();
            m_config = QFileInfo(QStringLiteral("/etc/resolv.conf")).lastModified();
        }
        return m_config;
    }

    // The channel for a new lookup: the newest, or a new one once that is a minute old or
    // the configuration changed since it was made.
    Channel *current()
    {
        const QDateTime config = configStamp();
        if (!m_channels.empty() && m_channels.back()->age.elapsed() < ChannelAgeMs &&
            m_channels.back()->config == config)
            return m_channels.back().get();
        auto c = std::make_unique<Channel>();
        c->engine = this;
        ares_options options{};
        options.sock_state_cb = &Engine::socketState;
        options.sock_state_cb_data = c.get();
        options.timeout = TimeoutMs;
        options.tries = Tries;
        const int rc = ares_init_options(
            &c->handle, &options, ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES);
        if (rc != ARES_SUCCESS) {
            m_error = QString::fromUtf8(ares_strerror(rc));
            qCWarning(lcResolver) << "c-ares did not start:" << m_error;
            // The one before, however old, rather than none.
            return m_channels.empty() ? nullptr : m_channels.back().get();
        }
        c->age.start();
        c->config = config;
        m_channels.push_back(std::move(c));
        return m_channels.back().get();
    }

    static void finish(Request *request, QList<QHostAddress> addresses, QString error)
    {
        g_pending.fetch_sub(1, std::memory_order_relaxed);
        if (request->channel)
            --request->channel->pending;
        PostGuard::post(request->guard,
                        [done = std::move(request->done), addresses = std::move(addresses),
                         error = std::move(error)] { done(addresses, error); });
        delete request;
    }

    static void answered(void *arg, int status, int /*timeouts*/, ares_addrinfo *result)
    {
        auto *request = static_cast<Request *>(arg);
        QList<QHostAddress> addresses;
        if (status == ARES_SUCCESS && result) {
            for (const ares_addrinfo_node *n = result->nodes; n; n = n->ai_next) {
                if (n->ai_family != AF_INET && n->ai_family != AF_INET6)
                    continue;
                const QHostAddress a(n->ai_addr);
                if (!a.isNull() && !addresses.contains(a))
                    addresses.append(a);
            }
        }
        if (result)
            ares_freeaddrinfo(result);
        QString error;
        if (addresses.isEmpty())
            error = status == ARES_SUCCESS ? QStringLiteral("no addresses")
                                           : QString::fromUtf8(ares_strerror(status));
        finish(request, std::move(addresses), std::move(error));
    }

    // c-ares opens, watches and closes its sockets; a notifier follows each.
    static void socketState(void *data, ares_socket_t socket, int readable, int writable)
    {
        auto *channel = static_cast<Channel *>(data);
        Engine *self = channel->engine;
        Notifiers &n = channel->notifiers[socket];
        self->watch(channel, n.read, socket, QSocketNotifier::Read, readable != 0);
        self->watch(channel, n.write, socket, QSocketNotifier::Write, writable != 0);
        if (!readable && !writable)
            channel->notifiers.remove(socket);
    }

    void watch(Channel *channel, QPointer<QSocketNotifier> &notifier, ares_socket_t socket,
               QSocketNotifier::Type type, bool on)
    {
        if (on && !notifier) {
            notifier = new QSocketNotifier(qintptr(socket), type, this);
            QObject::connect(notifier, &QSocketNotifier::activated, this,
                             [this, channel, socket, type] {
                                 if (type == QSocketNotifier::Read)
                                     ares_process_fd(channel->handle, socket, ARES_SOCKET_BAD);
                                 else
                                     ares_process_fd(channel->handle, ARES_SOCKET_BAD, socket);
                                 settle();
                             });
        } else if (!on && notifier) {
            // Possibly from inside its own activated(): not deleted there.
            notifier->setEnabled(false);
            notifier->deleteLater();
            notifier = nullptr;
        }
    }

    // Ends the channel at `index` (its notifiers with it); never from inside its callbacks.
    void close(size_t index)
    {
        std::unique_ptr<Channel> c = std::move(m_channels[index]);
        m_channels.erase(m_channels.begin() + qsizetype(index));
        ares_destroy(c->handle); // closes its sockets (socketState) and answers its lookups
        for (const Notifiers &n : std::as_const(c->notifiers))
            for (QSocketNotifier *x : {n.read.data(), n.write.data()})
                if (x) {
                    x->setEnabled(false);
                    x->deleteLater();
                }
    }

    // After c-ares ran: older channels whose lookups are all answered end (on the next turn of
    // the event loop: this may be inside one of their callbacks), and the timer is set for the
    // next timeout of any channel.
    void settle()
    {
        bool idleOld = false;
        for (size_t i = 0; i + 1 < m_channels.size(); ++i)
            idleOld = idleOld || m_channels[i]->pending == 0;
        if (idleOld && !m_closeQueued) {
            m_closeQueued = true;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    m_closeQueued = false;
                    for (size_t i = m_channels.size(); i-- > 1;)
                        if (m_channels[i - 1]->pending == 0)
                            close(i - 1);
                },
                Qt::QueuedConnection);
        }
        qint64 next = -1;
        for (const auto &c : m_channels) {
            timeval tv{};
            if (const timeval *t = ares_timeout(c->handle, nullptr, &tv)) {
                const qint64 ms = qint64(t->tv_sec) * 1000 + (t->tv_usec + 999) / 1000;
                next = next < 0 ? ms : std::min(next, ms);
            }
        }
        if (next < 0)
            m_timer.stop();
        else
            // At least 1 ms: c-ares counts in milliseconds, and a query due within the current
            // one would otherwise have the timer fire again and again until it is.
            m_timer.start(int(std::max<qint64>(1, next)));
    }

    std::vector<std::unique_ptr<Channel>> m_channels; // oldest first; the last takes new lookups
    bool m_closeQueued = false;
    QElapsedTimer m_configChecked;
    QDateTime m_config;
    QString m_error;
    QTimer m_timer;
};

// The thread and its engine, made at the first lookup, ended with the application.
class Service
{
public:
    // Runs `post` with the engine, under the lock that ends the service: the engine cannot be
    // deleted between (the post routine takes the same lock). False once the application's
    // post routines ran: no thread is started again that nothing would stop.
    static bool withEngine(const std::function<void(Engine *)> &post)
    {
        static QMutex mutex;
        QMutexLocker lock(&mutex);
        if (s_ended)
            return false;
        if (!s_instance) {
            s_instance = new Service;
            qAddPostRoutine([] {
                QMutexLocker lock(&mutex);
                s_ended = true;
                delete std::exchange(s_instance, nullptr);
            });
        }
        post(s_instance->m_engine);
        return true;
    }

private:
    Service()
    {
        static const int initialised = ares_library_init(ARES_LIB_INIT_ALL);
        if (initialised != ARES_SUCCESS)
            qCWarning(lcResolver) << "c-ares did not initialise:" << ares_strerror(initialised);
        m_thread.setObjectName(QStringLiteral("resolver"));
        m_engine = new Engine;
        m_engine->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
        m_thread.start();
    }

    ~Service()
    {
        // The engine is deleted on its thread as the thread finishes (deleteLater runs then).
        m_thread.quit();
        m_thread.wait();
    }

    static inline Service *s_instance = nullptr;
    static inline bool s_ended = false;
    QThread m_thread;
    Engine *m_engine = nullptr;
};

// The caller's side of one lookup: a child of its context, so that the answer dies with it.
class Waiter : public QObject
{
public:
    explicit Waiter(QObject *context) : QObject(context), guard(std::make_shared<PostGuard>(this))
    {}
    ~Waiter() override { guard->release(); }

    std::shared_ptr<PostGuard> guard;
};

} // namespace

void Resolver::lookup(const QString &host, QObject *context, Done done)
{
    Q_ASSERT(context && context->thread() == QThread::currentThread());
    auto *waiter = new Waiter(context);
    QPointer<Waiter> alive(waiter);
    auto answer = [alive, done = std::move(done)](const QList<QHostAddress> &addresses,
                                                  const QString &error) {
        // Runs on the context's thread, in an event of the waiter's own. `done` goes in an
        // event of the context's: it may delete the context, and with it the waiter.
        if (!alive)
            return;
        QObject *context = alive->parent();
        alive->deleteLater();
        QMetaObject::invokeMethod(
            context, [done, addresses, error] { done(addresses, error); }, Qt::QueuedConnection);
    };
    if (g_pending.fetch_add(1, std::memory_order_relaxed) >=
        g_limit.load(std::memory_order_relaxed)) {
        g_pending.fetch_sub(1, std::memory_order_relaxed);
        PostGuard::post(waiter->guard, [answer] { answer({}, QLatin1String(kBusy)); });
        return;
    }
    const bool posted = Service::withEngine([&](Engine *engine) {
        QMetaObject::invokeMethod(
            engine,
            [engine, name = host.toUtf8(), guard = std::weak_ptr(waiter->guard), answer]() mutable {
                engine->start(name, std::move(guard), std::move(answer));
            },
            Qt::QueuedConnection);
    });
    if (!posted) { // the application is ending
        g_pending.fetch_sub(1, std::memory_order_relaxed);
        PostGuard::post(waiter->guard, [answer] {
            answer({}, QStringLiteral("the application is shutting down"));
        });
    }
}

int Resolver::pending()
{
    return g_pending.load(std::memory_order_relaxed);
}

bool Resolver::isBusy(const QString &error)
{
    return error == QLatin1String(kBusy);
}

bool Resolver::isNotFound(const QString &error)
{
    // The texts lookups answer with (finished() above): ours for an answer without
    // addresses, c-ares' own for NXDOMAIN and NODATA.
    return error == QLatin1String("no addresses") ||
           error == QLatin1String(ares_strerror(ARES_ENOTFOUND)) ||
           error == QLatin1String(ares_strerror(ARES_ENODATA));
}

void Resolver::setLimitForTesting(int limit)
{
    g_limit.store(limit, std::memory_order_relaxed);
}

} // namespace Gatehouse::Core
