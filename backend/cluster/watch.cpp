#include "cluster/watch.h"

#include "cluster/status.h"

#include <QHash>
#include <QJsonDocument>
#include <QMutex>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <deque>
#include <utility>

namespace Gatehouse::Cluster {

namespace {

qint64 revisionOf(const QJsonObject &object)
{
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("resourceVersion"))
        .toString()
        .toLongLong();
}

QString namespaceOf(const QJsonObject &object)
{
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("namespace"))
        .toString();
}

QString objectName(const QJsonObject &object)
{
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("name"))
        .toString();
}

QJsonObject withRevision(QJsonObject object, qint64 revision)
{
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("resourceVersion"), QString::number(revision));
    object.insert(QStringLiteral("metadata"), meta);
    return object;
}

QJsonObject expired(const QString &message)
{
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("Status")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("metadata"), QJsonObject()},
                       {QStringLiteral("status"), QStringLiteral("Failure")},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("reason"), QStringLiteral("Expired")},
                       {QStringLiteral("code"), 410}};
}

} // namespace

struct WatchHub::State
{
    QMutex mutex;
    int window = 0;
    int queueLimit = 0;
    std::deque<ObjectChange> history;   // the last `window` changes, oldest first
    std::deque<qsizetype> historySizes; // each change's object, as compact JSON bytes
    qsizetype historyBytes = 0;         // their sum: at most windowBytes
    qsizetype windowBytes = 0;
    qint64 firstRevision = 1; // the oldest change a resume can still see
    QList<Watcher *> watchers;

    // Encoded events shared by the watchers of one encoding: the newest few thousand.
    QMutex encodedMutex;
    QHash<QString, QByteArray> encoded;
    std::deque<QString> encodedOrder;

    QByteArray encode(const WatchEvent &e, const WatchOptions &o)
    {
        if (e.revision <= 0 || o.encoding.isEmpty())
            return o.encode(e);
        const QString key = o.encoding + QLatin1Char('\n') + e.type + QLatin1Char('\n') +
                            QString::number(e.revision);
        {
            QMutexLocker lock(&encodedMutex);
            if (const auto it = encoded.constFind(key); it != encoded.constEnd())
                return it.value();
        }
        QByteArray bytes = o.encode(e);
        QMutexLocker lock(&encodedMutex);
        if (!encoded.contains(key)) {
            encoded.insert(key, bytes);
            encodedOrder.push_back(key);
            if (encodedOrder.size() > 4096) {
                encoded.remove(encodedOrder.front());
                encodedOrder.pop_front();
            }
        }
        return bytes;
    }
};

// One watch stream: lives in the stream's thread; the hub hands it changes from the writer's
// thread (under the hub's mutex) and it writes them out in its own.
class WatchHub::Watcher : public QObject
{
public:
    Watcher(std::shared_ptr<WatchHub::State> state, Core::HttpStream *stream, WatchOptions options)
        : QObject(stream), m_state(std::move(state)), m_stream(stream),
          m_options(std::move(options))
    {}

    ~Watcher() override
    {
        QMutexLocker lock(&m_state->mutex);
        m_state->watchers.removeOne(this);
    }

    const WatchOptions &options() const { return m_options; }

    // In the watcher's thread: a requester no longer let in ends the stream with the Status.
    void recheck()
    {
        if (!m_options.recheck || !m_stream || !m_stream->isOpen() || ending())
            return;
        if (std::optional<QJsonObject> refusal = m_options.recheck())
            fail(*refusal);
    }

    // From any thread (WatchHub::recheck): one check, kSettleMs from now, however many times it
    // is asked meanwhile. A burst of changes (a namespace's deletion, Helm's Secrets) costs each
    // watcher one check, and a role or binding replaced (kubectl replace --force: deleted, then
    // made again) is judged as it stands after the replacement.
    void recheckSoon()
    {
        if (m_recheckQueued.exchange(true))
            return;
        QMetaObject::invokeMethod(
            this,
            [this] {
                QTimer::singleShot(kSettleMs, this, [this] {
                    m_recheckQueued.store(false);
                    recheck();
                });
            },
            Qt::QueuedConnection);
    }
    static constexpr int kSettleMs = 100;

    bool ending() const
    {
        QMutexLocker lock(&m_queueMutex);
        return m_endAfterDrain || m_overflow;
    }

    bool passes(const QJsonObject &object, const QString &ns, const QString &name) const
    {
        if (!m_options.namespaceName.isEmpty() && ns != m_options.namespaceName)
            return false;
        if (!m_options.name.isEmpty() && name != m_options.name)
            return false;
        return !m_options.matches || m_options.matches(object);
    }

    // Under the hub's mutex, from the writer's thread.
    void offer(const ObjectChange &c)
    {
        if (c.resource != m_options.resource)
            return;
        const qint64 revision = revisionOf(c.object);
        if (revision <= m_after)
            return;
        const bool now =
            c.kind != ObjectChange::Kind::Deleted && passes(c.object, c.namespaceName, c.name);
        const bool before = !c.previous.isEmpty() && passes(c.previous, c.namespaceName, c.name);
        WatchEvent e;
        if (now && before)
            e = {QStringLiteral("MODIFIED"), c.object, revision};
        else if (now)
            e = {QStringLiteral("ADDED"), c.object, revision};
        else if (before)
            e = {QStringLiteral("DELETED"),
                 c.kind == ObjectChange::Kind::Deleted ? c.object
                                                       : withRevision(c.previous, revision),
                 revision};
        else
            return;
        m_after = revision;
        enqueue(std::move(e));
    }

    // live: a change (bounded by the queue limit); the first events and bookmarks are not.
    void enqueue(WatchEvent e, bool live = true)
    {
        QMutexLocker lock(&m_queueMutex);
        if (m_overflow || m_endAfterDrain) // nothing after the end, not even to a refused one
            return;
        if (live && m_live >= m_state->queueLimit) {
            m_overflow = true;
            m_queue.clear();
        } else {
            m_queue.push_back(std::move(e));
            m_live += live ? 1 : 0;
        }
        if (!m_scheduled) {
            m_scheduled = true;
            QMetaObject::invokeMethod(
                this, [this] { drain(); }, Qt::QueuedConnection);
        }
    }

    // An ERROR event, then the end of the stream; once (the first reason to end it is told).
    void fail(const QJsonObject &status)
    {
        QMutexLocker lock(&m_queueMutex);
        if (m_overflow || m_endAfterDrain)
            return;
        m_endAfterDrain = true;
        m_queue.push_back({QStringLiteral("ERROR"), status});
        if (!m_scheduled) {
            m_scheduled = true;
            QMetaObject::invokeMethod(
                this, [this] { drain(); }, Qt::QueuedConnection);
        }
    }

    void startTimers()
    {
        if (m_options.timeoutSeconds > 0) {
            auto *timeout = new QTimer(this);
            timeout->setSingleShot(true);
            connect(timeout, &QTimer::timeout, this, [this] {
                if (m_stream)
                    m_stream->close();
            });
            timeout->start(std::chrono::seconds(m_options.timeoutSeconds));
        }
        if (m_options.recheck && m_options.recheckSeconds > 0) {
            auto *again = new QTimer(this);
            connect(again, &QTimer::timeout, this, [this] { recheck(); });
            again->start(std::chrono::seconds(m_options.recheckSeconds));
        }
        if (m_options.bookmarks) {
            auto *bookmark = new QTimer(this);
            connect(bookmark, &QTimer::timeout, this, [this] {
                qint64 revision = 0;
                {
                    QMutexLocker lock(&m_state->mutex);
                    revision = m_after;
                }
                enqueue(bookmarkEvent(revision, false), false);
            });
            bookmark->start(m_options.bookmarkSeconds * 1000);
        }
    }

    static WatchEvent bookmarkEvent(qint64 revision, bool initialEventsEnd)
    {
        QJsonObject meta{{QStringLiteral("resourceVersion"), QString::number(revision)}};
        if (initialEventsEnd)
            meta.insert(
                QStringLiteral("annotations"),
                QJsonObject{{QStringLiteral("k8s.io/initial-events-end"), QStringLiteral("true")}});
        return {QStringLiteral("BOOKMARK"), QJsonObject{{QStringLiteral("metadata"), meta}}};
    }

    // Under the hub's mutex.
    void setAfter(qint64 after) { m_after = after; }

private:
    void drain()
    {
        std::deque<WatchEvent> events;
        bool overflow = false;
        bool end = false;
        {
            QMutexLocker lock(&m_queueMutex);
            events.swap(m_queue);
            overflow = m_overflow;
            end = m_endAfterDrain;
            m_scheduled = false;
            m_live = 0;
        }
        if (!m_stream || !m_stream->isOpen())
            return;
        QByteArray out;
        for (const WatchEvent &e : events)
            out += m_state->encode(e, m_options);
        if (overflow)
            out += m_options.encode(
                {QStringLiteral("ERROR"),
                 expired(QStringLiteral("the watch fell behind by more than %1 events; list and "
                                        "watch again")
                             .arg(m_state->queueLimit))});
        m_stream->write(out);
        if (overflow || end)
            m_stream->close();
    }

    std::shared_ptr<WatchHub::State> m_state;
    QPointer<Core::HttpStream> m_stream;
    WatchOptions m_options;
    qint64 m_after = 0; // the last revision handed to this watcher (under the hub's mutex)

    mutable QMutex m_queueMutex;
    std::deque<WatchEvent> m_queue;
    int m_live = 0; // changes in m_queue
    bool m_overflow = false;
    bool m_endAfterDrain = false;
    bool m_scheduled = false;
    std::atomic<bool> m_recheckQueued{false}; // recheckSoon() asked, not yet run
};

WatchHub::WatchHub(ObjectStore &store, int window, int queueLimit, qsizetype windowBytes)
    : m_store(store), m_state(std::make_shared<State>())
{
    m_state->window = window;
    m_state->windowBytes = windowBytes;
    m_state->queueLimit = queueLimit;
    m_state->firstRevision = store.resourceVersion().toLongLong() + 1;
    std::weak_ptr<State> weak = m_state;
    store.addListener([weak](const ObjectChange &c) {
        const std::shared_ptr<State> state = weak.lock();
        if (!state)
            return;
        // As the store keeps it; measured outside the lock where the store did not say.
        const qsizetype size = c.bodySize >= 0
                                   ? c.bodySize
                                   : QJsonDocument(c.object).toJson(QJsonDocument::Compact).size();
        QMutexLocker lock(&state->mutex);
        state->history.push_back(c);
        state->historySizes.push_back(size);
        state->historyBytes += size;
        // By count and by bytes: a node patching its own Node with a 260 KB annotation 1,600
        // times held 446 MB here, for every watcher's possible resume.
        while (int(state->history.size()) > state->window ||
               (state->history.size() > 1 && state->historyBytes > state->windowBytes)) {
            state->history.pop_front();
            state->historyBytes -= state->historySizes.front();
            state->historySizes.pop_front();
            state->firstRevision = revisionOf(state->history.front().object);
        }
        for (Watcher *w : std::as_const(state->watchers))
            w->offer(c);
    });
    // Read anew (several instances, docs/storage.md): what the watchers were told may not be
    // all that happened, so they end with 410 Expired and their clients list again, as from a
    // kube-apiserver whose watch cache was re-initialised.
    store.addReloadListener([weak](qint64 revision) {
        const std::shared_ptr<State> state = weak.lock();
        if (!state)
            return;
        {
            // A database put back (a backup) numbers changes again from an older revision.
            QMutexLocker encoded(&state->encodedMutex);
            state->encoded.clear();
            state->encodedOrder.clear();
        }
        QMutexLocker lock(&state->mutex);
        state->history.clear();
        state->historySizes.clear();
        state->historyBytes = 0;
        state->firstRevision = revision + 1;
        const QList<Watcher *> watchers = std::exchange(state->watchers, {});
        for (Watcher *w : watchers)
            w->fail(expired(QStringLiteral("the cluster's objects were read anew from the "
                                           "database: list and watch again")));
    });
}

WatchHub::~WatchHub() = default;

int WatchHub::watcherCount() const
{
    QMutexLocker lock(&m_state->mutex);
    return int(m_state->watchers.size());
}

void WatchHub::recheck()
{
    // Under the mutex a listed watcher is alive (its destructor takes itself off the list
    // under it); the queued call is dropped if it goes before the call runs.
    QMutexLocker lock(&m_state->mutex);
    for (Watcher *w : std::as_const(m_state->watchers))
        if (w->options().recheck)
            w->recheckSoon();
}

void WatchHub::start(Core::HttpStream *stream, WatchOptions options)
{
    auto *watcher = new Watcher(m_state, stream, options);
    QMutexLocker lock(&m_state->mutex);
    if (options.since && *options.since < m_state->firstRevision - 1) {
        const qint64 oldest = m_state->firstRevision - 1;
        lock.unlock();
        watcher->fail(expired(
            QStringLiteral("too old resource version: %1 (%2)").arg(*options.since).arg(oldest)));
        return;
    }
    if (!options.since || options.sendInitialEvents) {
        // The current objects; the writer waits for the hub's mutex meanwhile, so the first
        // change this watcher is offered is the first one after the list.
        auto page = m_store.list(
            options.resource, options.namespaceName,
            [watcher](const QJsonObject &o) {
                return watcher->passes(o, namespaceOf(o), objectName(o));
            },
            0, QString());
        qint64 after = m_store.resourceVersion().toLongLong();
        if (const auto *p = std::get_if<ObjectStore::Page>(&page)) {
            for (const QJsonObject &o : p->items)
                watcher->enqueue({QStringLiteral("ADDED"), o, revisionOf(o)}, false);
            after = p->resourceVersion.toLongLong();
        }
        watcher->setAfter(after);
        if (options.sendInitialEvents && options.bookmarks)
            watcher->enqueue(Watcher::bookmarkEvent(after, true), false);
    } else {
        // The changes after `since`, from the window.
        watcher->setAfter(*options.since);
        for (const ObjectChange &c : m_state->history)
            watcher->offer(c);
    }
    m_state->watchers.append(watcher);
    lock.unlock();
    watcher->startTimers();
}

} // namespace Gatehouse::Cluster
