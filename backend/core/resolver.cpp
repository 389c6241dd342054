#include "core/resolver.h"

#include "core/postguard.h"

#include <QCoreApplication>
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

Q_LOGGING_CATEGORY(lcResolver, "gatehouse.core.resolver")

namespace Gatehouse::Core {

namespace {

std::atomic<int> g_pending{0};

// Lives in the resolver's thread: the c-ares channel, a notifier per socket c-ares watches,
// and the timer for its timeouts. Only ever touched on that thread.
class Engine : public QObject
{
public:
    Engine() : m_timer(this) // moved to the resolver's thread with the engine
    {
        m_timer.setSingleShot(true);
        QObject::connect(&m_timer, &QTimer::timeout, this,
                         [this] { process(ARES_SOCKET_BAD, ARES_SOCKET_BAD); });
    }

    ~Engine() override
    {
        if (m_channel) {
            // Every lookup still waiting is answered (ARES_EDESTRUCTION) before this returns.
            ares_destroy(m_channel);
            m_channel = nullptr;
        }
    }

    // A lookup, started on this thread. The answer goes to `guard`'s object, if still there.
    void start(const QByteArray &host, std::weak_ptr<PostGuard> guard, Resolver::Done done)
    {
        auto *request = new Request{std::move(guard), std::move(done)};
        if (!m_channel && !open()) {
            finish(request, {}, QStringLiteral("the resolver could not start: %1").arg(m_error));
            return;
        }
        ares_addrinfo_hints hints{};
        hints.ai_family = AF_UNSPEC;     // A and AAAA
        hints.ai_socktype = SOCK_STREAM; // one entry an address
        ares_getaddrinfo(m_channel, host.constData(), nullptr, &hints, &Engine::answered, request);
        rearm();
    }

private:
    // A DNS server that does not answer: 3 s for the first try, 6 s for the second (c-ares
    // doubles it), each server in turn. About glibc's default (5 s, twice), whatever
    // resolv.conf's options say: a lookup holds a place of the intake's for 9 s at most.
    static constexpr int TimeoutMs = 3000;
    static constexpr int Tries = 2;

    struct Request
    {
        std::weak_ptr<PostGuard> guard;
        Resolver::Done done;
    };

    bool open()
    {
        ares_options options{};
        options.sock_state_cb = &Engine::socketState;
        options.sock_state_cb_data = this;
        options.timeout = TimeoutMs;
        options.tries = Tries;
        const int rc = ares_init_options(
            &m_channel, &options, ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES);
        if (rc != ARES_SUCCESS) {
            m_channel = nullptr;
            m_error = QString::fromUtf8(ares_strerror(rc));
            qCWarning(lcResolver) << "c-ares did not start:" << m_error;
            return false;
        }
        return true;
    }

    static void finish(Request *request, QList<QHostAddress> addresses, QString error)
    {
        g_pending.fetch_sub(1, std::memory_order_relaxed);
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
        auto *self = static_cast<Engine *>(data);
        Notifiers &n = self->m_notifiers[socket];
        self->watch(n.read, socket, QSocketNotifier::Read, readable != 0);
        self->watch(n.write, socket, QSocketNotifier::Write, writable != 0);
        if (!readable && !writable)
            self->m_notifiers.remove(socket);
    }

    struct Notifiers
    {
        QPointer<QSocketNotifier> read;
        QPointer<QSocketNotifier> write;
    };

    void watch(QPointer<QSocketNotifier> &notifier, ares_socket_t socket,
               QSocketNotifier::Type type, bool on)
    {
        if (on && !notifier) {
            notifier = new QSocketNotifier(qintptr(socket), type, this);
            QObject::connect(notifier, &QSocketNotifier::activated, this, [this, socket, type] {
                if (type == QSocketNotifier::Read)
                    process(socket, ARES_SOCKET_BAD);
                else
                    process(ARES_SOCKET_BAD, socket);
            });
        } else if (!on && notifier) {
            // Possibly from inside its own activated(): not deleted there.
            notifier->setEnabled(false);
            notifier->deleteLater();
            notifier = nullptr;
        }
    }

    void process(ares_socket_t read, ares_socket_t write)
    {
        if (m_channel)
            ares_process_fd(m_channel, read, write);
        rearm();
    }

    void rearm()
    {
        if (!m_channel)
            return;
        timeval tv{};
        if (const timeval *next = ares_timeout(m_channel, nullptr, &tv))
            // At least 1 ms: c-ares counts in milliseconds, and a query due within the current
            // one would otherwise have the timer fire again and again until it is.
            m_timer.start(std::max(1, int(next->tv_sec * 1000 + (next->tv_usec + 999) / 1000)));
        else
            m_timer.stop();
    }

    ares_channel m_channel = nullptr;
    QString m_error;
    QHash<ares_socket_t, Notifiers> m_notifiers;
    QTimer m_timer;
};

// The thread and its engine, made at the first lookup, ended with the application.
class Service
{
public:
    static Service *instance()
    {
        static QMutex mutex;
        QMutexLocker lock(&mutex);
        if (!s_instance) {
            s_instance = new Service;
            qAddPostRoutine([] {
                QMutexLocker lock(&mutex);
                delete std::exchange(s_instance, nullptr);
            });
        }
        return s_instance;
    }

    Engine *engine() const { return m_engine; }

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
    if (g_pending.fetch_add(1, std::memory_order_relaxed) >= MaxPending) {
        g_pending.fetch_sub(1, std::memory_order_relaxed);
        PostGuard::post(waiter->guard,
                        [answer] { answer({}, QStringLiteral("too many lookups in progress")); });
        return;
    }
    Service *service = Service::instance();
    QMetaObject::invokeMethod(
        service->engine(),
        [engine = service->engine(), name = host.toUtf8(), guard = std::weak_ptr(waiter->guard),
         answer = std::move(answer)]() mutable {
            engine->start(name, std::move(guard), std::move(answer));
        },
        Qt::QueuedConnection);
}

int Resolver::pending()
{
    return g_pending.load(std::memory_order_relaxed);
}

} // namespace Gatehouse::Core
