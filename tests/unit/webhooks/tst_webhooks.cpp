#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/instances.h"
#include "core/jsonwriter.h"
#include "core/resolver.h"
#include "core/writequeue.h"
#include "crypto/certificateauthority.h"
#include "helpers/testtimeouts.h"
#include "orders/orderservice.h"
#include "orders/orderstore.h"
#include "webhooks/dispatcher.h"
#include "webhooks/httpclient.h"
#include "webhooks/redeliveryjobs.h"
#include "webhooks/signer.h"
#include "webhooks/urlpolicy.h"
#include "webhooks/webhookservice.h"
#include "webhooks/webhookstore.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlError>
#include <QSqlQuery>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <functional>
#include <map>
#include <memory>
#include <optional>

using namespace Gatehouse;
using namespace Gatehouse::Webhooks;
using Gatehouse::Test::timeoutMs;

namespace {

// One request as the test server saw it.
struct SeenRequest
{
    int connection = 0;        // index of the connection it came on
    int indexOnConnection = 0; // 0 for the first request on that connection
    QByteArray head;           // request line and headers, without the empty line
    QByteArray body;

    QByteArray requestLine() const { return head.left(head.indexOf("\r\n")); }
    // The raw value of the first header with this (case-insensitive) name.
    QByteArray header(const QByteArray &name) const
    {
        const QList<QByteArray> lines = head.split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) {
            QByteArray line = lines[i];
            line.chop(line.endsWith('\r') ? 1 : 0);
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
    int headerCount(const QByteArray &name) const
    {
        int n = 0;
        for (const QByteArray &line : head.split('\n'))
            n += line.toLower().startsWith(name.toLower() + ':') ? 1 : 0;
        return n;
    }
};

// A scripted HTTP/1.1 receiver on 127.0.0.1, port 0 (optionally TLS). For every complete
// request it calls the handler, which writes whatever raw bytes the test wants.
class TestServer : public QTcpServer
{
public:
    using Handler = std::function<void(QTcpSocket *, const SeenRequest &)>;

    explicit TestServer(Handler handler = {}) : m_handler(std::move(handler)) {}

    bool start() { return listen(QHostAddress::LocalHost, 0); }
    void setHandler(Handler handler) { m_handler = std::move(handler); }
    void enableTls(const QSslCertificate &certificate, const QSslKey &key)
    {
        m_certificate = certificate;
        m_key = key;
    }
    quint16 port() const { return serverPort(); }

    int connections = 0;
    QList<SeenRequest> requests;
    QList<QPointer<QTcpSocket>> sockets;

protected:
    void incomingConnection(qintptr descriptor) override
    {
        QTcpSocket *socket = nullptr;
        if (!m_certificate.isNull()) {
            auto *tls = new QSslSocket(this);
            tls->setSocketDescriptor(descriptor);
            tls->setLocalCertificate(m_certificate);
            tls->setPrivateKey(m_key);
            tls->startServerEncryption();
            socket = tls;
        } else {
            socket = new QTcpSocket(this);
            socket->setSocketDescriptor(descriptor);
        }
        const int index = connections++;
        sockets.append(socket);
        auto buffer = std::make_shared<QByteArray>();
        auto served = std::make_shared<int>(0);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer, served, index] {
            buffer->append(socket->readAll());
            for (;;) {
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                SeenRequest request;
                request.connection = index;
                request.indexOnConnection = *served;
                request.head = buffer->left(end);
                const qint64 length = request.header("content-length").toLongLong();
                if (buffer->size() < end + 4 + length)
                    return;
                request.body = buffer->mid(end + 4, length);
                buffer->remove(0, end + 4 + length);
                ++*served;
                requests.append(request);
                if (m_handler)
                    m_handler(socket, request);
                if (socket->state() != QAbstractSocket::ConnectedState)
                    return;
            }
        });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    }

private:
    Handler m_handler;
    QSslCertificate m_certificate;
    QSslKey m_key;
};

TestServer::Handler reply(const QByteArray &raw)
{
    return [raw](QTcpSocket *socket, const SeenRequest &) { socket->write(raw); };
}

TestServer::Handler replyAndClose(const QByteArray &raw)
{
    return [raw](QTcpSocket *socket, const SeenRequest &) {
        socket->write(raw);
        socket->disconnectFromHost();
    };
}

const QByteArray kOk = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

OutboundRequest requestTo(quint16 port, const QByteArray &body = "{}")
{
    OutboundRequest r;
    r.address = QHostAddress(QHostAddress::LocalHost);
    r.port = port;
    r.hostHeader = "receiver.test:" + QByteArray::number(port);
    r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    r.body = body;
    r.timeoutMs = 10000;
    return r;
}

QString messageOf(const Result<CallbackTarget> &r)
{
    return r.ok() ? QString() : r.error().message;
}

// A webhook receiver on loopback, HTTP/1.1 with keep-alive: answers 200 after `delayMs`, or
// keeps the requests unanswered while `holding`; records each request's webhook-id, order and
// seq (from the payload), when it came and when it was answered or its connection closed.
class Receiver : public QObject
{
public:
    struct Hit
    {
        QByteArray id;
        QString subject;
        qint64 seq = 0;
        qint64 start = 0;
        QByteArray signature; // the webhook-signature header as received
        qint64 timestamp = 0; // webhook-timestamp
        qint64 end = 0;       // 0: not answered (yet)
        bool answered = false;
    };
    std::vector<Hit> hits;
    int delayMs = 10;
    bool holding = false;
    QByteArray status = "200 OK"; // what the next answers say

    Receiver()
    {
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection())
                serve(s);
        });
    }
    QString url() const
    {
        return QStringLiteral("http://127.0.0.1:%1/hook").arg(m_server.serverPort());
    }
    static qint64 now() { return QDateTime::currentMSecsSinceEpoch(); }
    void release()
    {
        holding = false;
        const auto held = std::exchange(m_held, {});
        for (const auto &[socket, index] : held)
            if (socket)
                answer(socket, index);
    }

private:
    void serve(QTcpSocket *s)
    {
        auto buffer = std::make_shared<QByteArray>();
        connect(s, &QTcpSocket::readyRead, s, [this, s, buffer] {
            buffer->append(s->readAll());
            for (;;) {
                const qsizetype head = buffer->indexOf("\r\n\r\n");
                if (head < 0)
                    return;
                QByteArray id;
                QByteArray signature;
                qint64 timestamp = 0;
                qsizetype length = 0;
                for (const QByteArray &line : buffer->left(head).split('\n')) {
                    const qsizetype colon = line.indexOf(':');
                    const QByteArray name = line.left(colon).trimmed().toLower();
                    if (name == "webhook-id")
                        id = line.mid(colon + 1).trimmed();
                    else if (name == "webhook-signature")
                        signature = line.mid(colon + 1).trimmed();
                    else if (name == "webhook-timestamp")
                        timestamp = line.mid(colon + 1).trimmed().toLongLong();
                    else if (name == "content-length")
                        length = line.mid(colon + 1).trimmed().toLongLong();
                }
                if (buffer->size() < head + 4 + length)
                    return;
                const QJsonObject body =
                    QJsonDocument::fromJson(buffer->mid(head + 4, length)).object();
                buffer->remove(0, head + 4 + length);
                hits.push_back(Hit{id, body.value(QStringLiteral("subject")).toString(),
                                   body.value(QStringLiteral("seq")).toInteger(), now(), signature,
                                   timestamp});
                const size_t index = hits.size() - 1;
                if (holding)
                    m_held.emplace_back(QPointer<QTcpSocket>(s), index);
                else
                    QTimer::singleShot(delayMs, s, [this, s, index] { answer(s, index); });
            }
        });
        connect(s, &QTcpSocket::disconnected, s, [this, s] {
            for (auto &[socket, index] : m_held)
                if (socket == s && hits[index].end == 0)
                    hits[index].end = now(); // cut off: its sender went away
            s->deleteLater();
        });
    }
    void answer(QTcpSocket *s, size_t index)
    {
        hits[index].end = now();
        hits[index].answered = true;
        s->write("HTTP/1.1 " + status + "\r\nContent-Length: 0\r\n\r\n");
    }

    QTcpServer m_server;
    std::vector<std::pair<QPointer<QTcpSocket>, size_t>> m_held;
};

// One Gatehouse instance's outbox on a shared PostgreSQL database: its own connections, writer
// and dispatcher, holding leases as `holder`.
struct Instance
{
    // Destroyed in reverse: the dispatcher, then the writer (whose last batch's callbacks
    // publish the attempts it recorded), then the event bus they publish to, as the backend
    // stops them. (With the bus destroyed first, a batch that ended as a test did published
    // into freed memory: UBSan, once in a CI run.)
    std::unique_ptr<Core::Database> database;
    std::unique_ptr<Core::EventBus> events;
    std::unique_ptr<Core::WriteQueue> writer;
    std::unique_ptr<Dispatcher> dispatcher;

    Instance(const QString &url, const QString &holder, const Core::Clock &clock,
             int maxInFlight = 128, int maxInMemory = 50'000,
             const std::function<void(Dispatcher::Options &)> &tweak = {})
    {
        auto db = Core::Database::open(
            url,
            Core::Database::coreMigrations()
                << WebhookStore::migration() << WebhookStore::leaseMigration()
                << RedeliveryJobs::migration() << RedeliveryJobs::holderMigration()
                << WebhookStore::holderMigration() << WebhookStore::handOverMigration()
                << RedeliveryJobs::starterMigration(),
            clock);
        if (!db)
            qFatal("%s", qPrintable(db.error().message));
        database = std::move(*db);
        writer = std::make_unique<Core::WriteQueue>(*database, holder + QStringLiteral("-writer"));
        events = std::make_unique<Core::EventBus>(clock);
        Dispatcher::Options o;
        o.urlPolicy.allowLoopback = true;
        o.leaseHolder = holder;
        o.leaseTtlMs = kLeaseTtlMs;
        o.retry.scheduleMs = {200, 200, 200};
        o.retry.maxInFlight = maxInFlight;
        o.maxInMemory = maxInMemory;
        if (tweak)
            tweak(o);
        dispatcher = std::make_unique<Dispatcher>(*database, *writer, *events, clock, o);
        dispatcher->start();
    }
    // Created here (committed), then handed to this instance's dispatcher, as an order does.
    Delivery create(const QString &url, const QString &subject, qint64 seq,
                    const QString &owner = QStringLiteral("customer"))
    {
        NewDelivery n;
        n.ownerId = owner;
        n.subjectId = subject;
        n.seq = seq;
        n.eventType = QStringLiteral("order.status");
        n.label = QStringLiteral("S%1").arg(seq);
        n.url = url;
        n.payload = QJsonDocument(QJsonObject{{QStringLiteral("subject"), subject},
                                              {QStringLiteral("seq"), seq}})
                        .toJson(QJsonDocument::Compact);
        Delivery made;
        const auto r = writer->run([&](Core::WriteTransaction &tx) -> Core::Result<void> {
            auto d = WebhookStore::enqueue(tx, n, QDateTime::currentMSecsSinceEpoch());
            if (!d)
                return d.error();
            made = *d;
            return {};
        });
        if (!r)
            qFatal("%s", qPrintable(r.error().message));
        dispatcher->add(made);
        return made;
    }
    // A process killed: nothing more is written, nothing renewed or given up.
    void die()
    {
        writer->stop();
        dispatcher.reset();
    }
    int count(const QString &sql)
    {
        QSqlQuery q(database->connection());
        if (!q.exec(sql) || !q.next())
            qFatal("%s", qPrintable(sql));
        return q.value(0).toInt();
    }
    static constexpr qint64 kLeaseTtlMs = 1'500;
};

// An Instance with the bulk redelivery jobs of the process `holder`, which sees the instances
// `alive` as alive (itself among them).
struct JobsInstance : Instance
{
    std::unique_ptr<WebhookService> webhooks;
    std::unique_ptr<RedeliveryJobs> jobs;

    JobsInstance(const QString &url, const QString &holder, const Core::Clock &clock,
                 const QSet<QString> &alive)
        : Instance(url, holder, clock)
    {
        webhooks = std::make_unique<WebhookService>(
            *database, *writer, *events, clock, dispatcher.get(),
            [](Core::WriteTransaction &, const QString &) { return Core::Result<bool>(true); });
        jobs = std::make_unique<RedeliveryJobs>(*database, *writer, *events, clock, *webhooks, 0);
        jobs->setInstance(holder, [alive] { return alive; });
        if (!jobs->start())
            qFatal("redelivery jobs did not start");
    }
    // {"state": "succeeded"} at `rate` a second: the job's id.
    QString startJob(double rate)
    {
        QString id;
        jobs->create(
            QJsonObject{{QStringLiteral("filter"),
                         QJsonObject{{QStringLiteral("state"), QStringLiteral("succeeded")}}},
                        {QStringLiteral("ratePerSecond"), rate}},
            [&id](Core::Result<QJsonObject> r) {
                if (!r)
                    qFatal("%s", qPrintable(r.error().message));
                id = r->value(QLatin1String("id")).toString();
            });
        QElapsedTimer t;
        t.start();
        while (id.isEmpty() && !t.hasExpired(10000))
            QTest::qWait(10); // answered on this thread
        if (id.isEmpty())
            qFatal("the job was not created in 10 s");
        return id;
    }
    QJsonObject job(const QString &id) { return jobs->job(id).value_or(QJsonObject()); }
    void die()
    {
        jobs.reset();
        Instance::die();
    }
    // The writer, whose answers reach the webhook service, stops before it goes.
    ~JobsInstance() { die(); }
    JobsInstance(const JobsInstance &) = delete;
    JobsInstance &operator=(const JobsInstance &) = delete;
};

// The test server's URL (GATEHOUSE_TEST_POSTGRES: a URL, or a file that holds one); empty when
// none is given.
QString postgresBase()
{
    QString base = qEnvironmentVariable("GATEHOUSE_TEST_POSTGRES");
    if (!base.isEmpty() && !base.startsWith(QLatin1String("postgres"))) {
        QFile f(base);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(base));
        base = QString::fromUtf8(f.readAll()).trimmed();
    }
    return base;
}

// The id an instance of this machine had whose process has ended (a real `sleep`, killed);
// empty if it could not be started.
QString endedProcessId(const QString &unique)
{
    QProcess ended;
    ended.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    if (!ended.waitForStarted())
        return {};
    const qint64 pid = ended.processId();
    ended.kill();
    if (!ended.waitForFinished())
        return {};
    return Core::Instances::newProcessId(unique).replace(
        QStringLiteral("/%1/").arg(QCoreApplication::applicationPid()),
        QStringLiteral("/%1/").arg(pid));
}

// A new database on that server, named `prefix_<pid>`; its URL.
QString createDatabase(const QString &base, const QString &prefix)
{
    const QString name =
        QStringLiteral("%1_%2").arg(prefix).arg(QCoreApplication::applicationPid());
    QProcess createdb;
    createdb.start(QStringLiteral("createdb"), {QStringLiteral("--maintenance-db"), base, name});
    if (!createdb.waitForFinished(30000) || createdb.exitCode() != 0)
        qFatal("createdb %s failed: %s", qPrintable(name),
               createdb.readAllStandardError().constData());
    QUrl u(base);
    u.setPath(QLatin1Char('/') + name);
    return u.toString();
}

// One Gatehouse process's order service on a shared database: its own connections and writer,
// no dispatcher (the orders here have no callback URL).
struct OrderInstance
{
    // Destroyed in reverse: the writer before the event queue and bus its callbacks post to
    // (Instance).
    std::unique_ptr<Core::Database> database;
    std::unique_ptr<Core::EventBus> events;
    std::unique_ptr<Core::EventQueue> eventQueue;
    std::unique_ptr<Core::WriteQueue> writer;
    std::unique_ptr<Orders::OrderService> orders;

    // `alive`: the instances this one sees alive (their names), as the backend's heartbeats
    // tell; null: it names none (as before schema 37).
    OrderInstance(const QString &url, const QString &name, const Core::Clock &clock,
                  const std::shared_ptr<const QSet<QString>> &alive = {})
    {
        auto db =
            Core::Database::open(url,
                                 Core::Database::coreMigrations()
                                     << WebhookStore::migration() << Orders::OrderStore::migration()
                                     << Orders::OrderStore::lifecycleByMigration(),
                                 clock);
        if (!db)
            qFatal("%s", qPrintable(db.error().message));
        database = std::move(*db);
        writer = std::make_unique<Core::WriteQueue>(*database, name + QStringLiteral("-writer"));
        events = std::make_unique<Core::EventBus>(clock);
        eventQueue = std::make_unique<Core::EventQueue>();
        orders = std::make_unique<Orders::OrderService>(*database, *writer, *events, clock, nullptr,
                                                        eventQueue.get());
        if (alive)
            orders->setInstance(name, [alive] { return std::optional<QSet<QString>>(*alive); });
    }
    // A customer "Taproom" and a beer with `stock` units; the customer's id, or empty.
    QString customerAndBeer(const QString &beerId, const QString &upc, int stock)
    {
        auto customer = wait<Orders::OrderService::NewSecret>(
            [&](auto done) { orders->createCustomer(QStringLiteral("Taproom"), {}, done); });
        if (!customer)
            return {};
        const Core::Result<void> stocked = writer->run([&](Core::WriteTransaction &tx) {
            return Orders::OrderStore::insertBeer(
                tx,
                Orders::Beer{beerId, QStringLiteral("Mango Bobs"), QStringLiteral("IPA"), upc,
                             QStringLiteral("12.95"), stock, false},
                QDateTime::currentMSecsSinceEpoch());
        });
        return stocked.ok() ? customer->customer.id : QString();
    }

    // `count` orders of one unit of `upc` each, all submitted before the first is answered;
    // returns once all were (their lifecycle runs behind).
    QStringList create(const QString &customerId, const QString &upc, int count)
    {
        auto ids = std::make_shared<QStringList>();
        auto answered = std::make_shared<std::atomic<int>>(0);
        for (int i = 0; i < count; ++i) {
            Orders::OrderRequest request;
            request.lines.append(Orders::OrderRequest::Line{upc, 1});
            orders->create(customerId, request, {}, {},
                           [ids, answered](Core::Result<Orders::OrderService::Created> r) {
                               if (!r)
                                   qFatal("%s", qPrintable(r.error().message));
                               ids->append(r->order.id); // on the writer thread, one at a time
                               ++*answered;
                           });
        }
        QElapsedTimer t;
        t.start();
        while (answered->load() < count) {
            if (t.hasExpired(30000))
                qFatal("%d of %d orders answered in 30 s", answered->load(), count);
            QThread::msleep(5);
        }
        return *ids;
    }
    template <typename T, typename Call> Core::Result<T> wait(Call call)
    {
        std::optional<Core::Result<T>> result;
        QMutex mutex;
        call([&](Core::Result<T> r) {
            QMutexLocker lock(&mutex);
            result = std::move(r);
        });
        QElapsedTimer t;
        t.start();
        for (;;) {
            {
                QMutexLocker lock(&mutex);
                if (result)
                    return *result;
            }
            if (t.hasExpired(30000))
                qFatal("no answer in 30 s");
            QThread::msleep(5);
        }
    }
    int count(const QString &sql)
    {
        QSqlQuery q(database->connection());
        if (!q.exec(sql) || !q.next())
            qFatal("%s", qPrintable(sql));
        return q.value(0).toInt();
    }
    // A process killed: nothing more is written.
    void die()
    {
        writer->stop();
        eventQueue->stop();
        orders.reset();
    }
    // As the backend stops: the writer (whose answers reach the order service) and the events'
    // thread first.
    ~OrderInstance() { die(); }
    OrderInstance(const OrderInstance &) = delete;
    OrderInstance &operator=(const OrderInstance &) = delete;
};

// Per order: no two requests at once (one instance at a time, one delivery at a time), and
// the deliveries answered in seq order.
void checkOrderedAndAlone(const std::vector<Receiver::Hit> &hits)
{
    std::map<QString, std::vector<Receiver::Hit>> bySubject;
    for (const Receiver::Hit &h : hits)
        bySubject[h.subject].push_back(h);
    for (auto &[subject, list] : bySubject) {
        std::sort(list.begin(), list.end(),
                  [](const auto &a, const auto &b) { return a.start < b.start; });
        qint64 lastSeq = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            if (i > 0)
                QVERIFY2(list[i].start >= list[i - 1].end,
                         qPrintable(QStringLiteral("order %1: seq %2 began before seq %3 ended")
                                        .arg(subject)
                                        .arg(list[i].seq)
                                        .arg(list[i - 1].seq)));
            if (list[i].answered) {
                QVERIFY2(list[i].seq >= lastSeq,
                         qPrintable(QStringLiteral("order %1: seq %2 after seq %3")
                                        .arg(subject)
                                        .arg(list[i].seq)
                                        .arg(lastSeq)));
                lastSeq = list[i].seq;
            }
        }
    }
}

} // namespace

class TestWebhooks : public QObject
{
    Q_OBJECT

private:
    std::optional<Crypto::CertificateAuthority> m_ca;
    QSslCertificate m_serverCertificate;
    QSslKey m_serverKey;

private slots:
    void initTestCase()
    {
        auto ca = Crypto::CertificateAuthority::create(QStringLiteral("Webhooks Test CA"),
                                                       Crypto::KeyType::EcP256,
                                                       QDateTime::currentDateTimeUtc());
        QVERIFY2(ca.ok(), qPrintable(ca.ok() ? QString() : ca.error().message));
        m_ca = *ca;
        Crypto::CertificateRequest request;
        request.commonName = QStringLiteral("receiver.test");
        request.dnsNames = {QStringLiteral("receiver.test")};
        request.usage = Crypto::CertificateRequest::ServerAuth;
        request.setValidity(QDateTime::currentDateTimeUtc());
        auto issued = m_ca->issue(request);
        QVERIFY2(issued.ok(), qPrintable(issued.ok() ? QString() : issued.error().message));
        m_serverCertificate = issued->sslCertificate();
        m_serverKey = issued->sslKey();
        QVERIFY(!m_serverCertificate.isNull());
        QVERIFY(!m_serverKey.isNull());
    }

    // Every host name lookup of the process taken (the resolver's limit, here 0) says nothing of
    // the callback's name: the attempt waits and asks again, and once there is room the
    // delivery goes out at its first attempt. No failed attempt is counted against the
    // endpoint (it was: "cannot resolve host", attempt 1 failed, the endpoint failing).
    void busyResolverCountsNoAttempt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver receiver;
        Instance one(dir.filePath(QStringLiteral("busy.db")), QString(), clock);
        const QString url =
            receiver.url().replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
        Core::Resolver::setLimitForTesting(0);
        auto restore =
            qScopeGuard([] { Core::Resolver::setLimitForTesting(Core::Resolver::MaxPending); });
        const Delivery d = one.create(url, QStringLiteral("busy-1"), 1);
        QTest::qWait(600); // three times the dispatcher asks again
        QCOMPARE(int(receiver.hits.size()), 0);
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_attempts")), 0);
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE "
                                          "failing_since IS NOT NULL")),
                 0);
        restore.dismiss();
        Core::Resolver::setLimitForTesting(Core::Resolver::MaxPending);
        QTRY_COMPARE(int(receiver.hits.size()), 1);
        QCOMPARE(QString::fromLatin1(receiver.hits[0].id), d.id);
        QTRY_COMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE "
                                              "state = 'succeeded' AND attempts = 1")),
                     1);
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_attempts")), 1);
    }

    // An endpoint that keeps succeeding: its last success is written once per step (on
    // PostgreSQL every write of that row made the instances' result writers take turns). The
    // first success is written at once, and so is the first after a failure, with
    // failing_since cleared; past the step the next success is written again.
    void endpointSuccessIsWrittenOncePerStep()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver receiver;
        const QString failing = QStringLiteral(
            "SELECT COUNT(*) FROM webhook_endpoints WHERE failing_since IS NOT NULL");
        // 1 when the endpoint's last success is when the subject's delivery succeeded.
        const auto lastSuccessOf = [](const QString &subject) {
            return QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE last_success_at = "
                                  "(SELECT completed_at FROM webhook_deliveries WHERE "
                                  "subject_id = '%1')")
                .arg(subject);
        };
        {
            Instance one(dir.filePath(QStringLiteral("step.db")), QString(), clock, 128, 50'000,
                         [](Dispatcher::Options &o) { o.lastSuccessStepMs = 3'600'000; });
            auto succeeded = [&one](int n) {
                return one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE "
                                                "state = 'succeeded'")) == n;
            };
            one.create(receiver.url(), QStringLiteral("step-1"), 1);
            QTRY_VERIFY(succeeded(1));
            QCOMPARE(one.count(lastSuccessOf(QStringLiteral("step-1"))), 1); // at once
            for (int i = 2; i <= 4; ++i) {
                one.create(receiver.url(), QStringLiteral("step-%1").arg(i), 1);
                QTRY_VERIFY(succeeded(i));
            }
            // The later successes, within the step, left the row alone.
            QCOMPARE(one.count(lastSuccessOf(QStringLiteral("step-1"))), 1);
            // A failure, then a success: written at once, failing_since cleared.
            receiver.status = "500 Internal Server Error";
            one.create(receiver.url(), QStringLiteral("step-5"), 1);
            QTRY_COMPARE(one.count(failing), 1);
            receiver.status = "200 OK";
            QTRY_VERIFY(succeeded(5)); // its retry (200 ms)
            QCOMPARE(one.count(failing), 0);
            QCOMPARE(one.count(lastSuccessOf(QStringLiteral("step-5"))), 1);
        }
        {
            // Past the step (here 1 ms), every success moves it.
            Instance two(dir.filePath(QStringLiteral("step-short.db")), QString(), clock, 128,
                         50'000, [](Dispatcher::Options &o) { o.lastSuccessStepMs = 1; });
            for (int i = 1; i <= 3; ++i) {
                two.create(receiver.url(), QStringLiteral("short-%1").arg(i), 1);
                QTRY_COMPARE(two.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries "
                                                      "WHERE state = 'succeeded'")),
                             i);
                QCOMPARE(two.count(lastSuccessOf(QStringLiteral("short-%1").arg(i))), 1);
                QTest::qWait(5); // past the step
            }
        }
    }

    void decideSaysBusyAs503()
    {
        const UrlPolicy policy;
        const auto busy = policy.decide(QStringLiteral("hooks.example.com"), {},
                                        QStringLiteral("too many lookups in progress"));
        QVERIFY(!busy.ok());
        QCOMPARE(busy.error().code, QString::fromLatin1(kCallbackLookupsBusy));
        QCOMPARE(busy.error().httpStatus, 503);
        const auto unknown = policy.decide(QStringLiteral("hooks.example.com"), {},
                                           QStringLiteral("Domain name not found"));
        QCOMPARE(unknown.error().code, QString::fromLatin1(kCallbackHostUnresolved));
        QCOMPARE(unknown.error().httpStatus, 400);
    }

    // One customer's receiver that never answers holds at most its share of the attempts in
    // flight (a quarter of webhook-max-in-flight): another customer's deliveries go out
    // meanwhile, and the first customer's wait their turn, none lost.
    void customersShareTheSlots()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver slow;
        slow.holding = true;
        Receiver fast;
        Instance one(dir.filePath(QStringLiteral("share.db")), QString(), clock, 8);
        QSet<QString> greedy;
        for (int i = 0; i < 12; ++i)
            greedy.insert(one.create(slow.url(), QStringLiteral("slow-%1").arg(i), 1,
                                     QStringLiteral("greedy"))
                              .id);
        QTRY_COMPARE(int(slow.hits.size()), 2); // 8 / 4
        for (int i = 0; i < 5; ++i)
            one.create(fast.url(), QStringLiteral("fast-%1").arg(i), 1, QStringLiteral("patient"));
        QTRY_COMPARE(int(fast.hits.size()), 5);
        QCOMPARE(int(slow.hits.size()), 2);
        QTRY_COMPARE(one.dispatcher->inFlight(), 2); // the patient ones answered
        // Answered: the rest of the greedy customer's deliveries go out, two at a time, each once.
        slow.release();
        QTRY_COMPARE_WITH_TIMEOUT(
            one.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            17, 20000);
        QCOMPARE(int(slow.hits.size()), 12);
        QSet<QString> sent;
        for (const Receiver::Hit &h : slow.hits)
            sent.insert(QString::fromLatin1(h.id));
        QCOMPARE(sent, greedy);
    }

    // Customers whose receivers never answer leave the last eighth of the slots to customers
    // with none in flight, however they arrive (8 slots: 2, 2, 2, then 1 for the fourth, whose
    // second would take the last; the patient customer gets the 8th). Four took all 8 before.
    void manyCustomersLeaveASlot()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver slow;
        slow.holding = true;
        Receiver fast;
        Instance one(dir.filePath(QStringLiteral("shares.db")), QString(), clock, 8);
        for (int c = 0; c < 4; ++c) {
            for (int i = 0; i < 3; ++i)
                one.create(slow.url(), QStringLiteral("slow-%1-%2").arg(c).arg(i), 1,
                           QStringLiteral("greedy-%1").arg(c));
            QTRY_COMPARE(int(slow.hits.size()), std::min(2 * (c + 1), 7));
        }
        QTest::qWait(200);
        QCOMPARE(int(slow.hits.size()), 7);
        for (int i = 0; i < 3; ++i)
            one.create(fast.url(), QStringLiteral("fast-%1").arg(i), 1, QStringLiteral("patient"));
        QTRY_COMPARE(int(fast.hits.size()), 3);
        QCOMPARE(int(slow.hits.size()), 7);
        slow.release();
        QTRY_COMPARE_WITH_TIMEOUT(
            one.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            15, 20000);
    }

    // Customers whose receivers never answer fill at most three quarters of the deliveries
    // held in memory, each at most its share (16 held: 4, 4, 4, then 1 for the fourth): a
    // patient customer's delivery is still taken and goes out at once. Four such customers
    // filled all 16 before, and the patient one's waited in the database until theirs gave up.
    void failingCustomersLeaveRoomInMemory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver slow;
        slow.holding = true;
        Receiver fast;
        Instance one(dir.filePath(QStringLiteral("memory.db")), QString(), clock, 8, 16);
        for (int c = 0; c < 4; ++c)
            for (int i = 0; i < 5; ++i)
                one.create(slow.url(), QStringLiteral("slow-%1-%2").arg(c).arg(i), 1,
                           QStringLiteral("greedy-%1").arg(c));
        // In flight: 2 + 2 + 2 + 1 (the last eighth of the slots is kept, as above).
        QTRY_COMPARE(int(slow.hits.size()), 7);
        QTest::qWait(200);
        QCOMPARE(int(slow.hits.size()), 7);
        QCOMPARE(one.dispatcher->queuedSubjects(), 13);
        for (int i = 0; i < 2; ++i)
            one.create(fast.url(), QStringLiteral("fast-%1").arg(i), 1, QStringLiteral("patient"));
        QTRY_COMPARE(int(fast.hits.size()), 2);
        QCOMPARE(int(slow.hits.size()), 7);
        // Answered: every one goes out, once, none lost.
        slow.release();
        QTRY_COMPARE_WITH_TIMEOUT(
            one.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            22, 30000);
        QSet<QByteArray> sent;
        for (const Receiver::Hit &h : slow.hits)
            sent.insert(h.id);
        QCOMPARE(int(sent.size()), 20);
    }

    // An endpoint disabled while an attempt to it was in flight (here by another instance,
    // whose announcement has not reached this dispatcher: its copy still says enabled) stays
    // disabled: the attempt's result records its facts (the success), never the state read
    // before the administrator's change.
    // A delivery is never sent as if its customer had no secret, nor as if its endpoint were
    // enabled, because a read failed (the database down, or refusing the statement): it
    // waits, unsent and not counted as an attempt, and goes out signed once its secrets can
    // be read; an endpoint disabled meanwhile gets nothing more. Before, a failed read of the
    // secrets sent it with an empty webhook-signature, and a failed read of the endpoint
    // counted it as enabled.
    void deliveriesWaitWhileWhatTheyNeedCannotBeRead()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver receiver;
        Instance one(dir.filePath(QStringLiteral("unread.db")), QString(), clock);
        const auto exec = [&one](const QString &sql) {
            return one.writer->run([sql](Core::WriteTransaction &tx) -> Core::Result<void> {
                QSqlQuery &q = tx.query(sql);
                if (!q.exec())
                    return Core::WriteTransaction::sqlError(q, "test statement");
                return {};
            });
        };
        const QString secret = Signer::generateSecret();
        QVERIFY(one.writer->run([&](Core::WriteTransaction &tx) {
            return WebhookStore::addSecret(tx, *one.database, QStringLiteral("customer"), secret,
                                           QDateTime::currentMSecsSinceEpoch());
        }));
        const auto key = Signer::decodeSecret(secret);
        QVERIFY(key);

        // The secrets cannot be read: nothing goes out, nothing is counted.
        QVERIFY(exec(QStringLiteral("ALTER TABLE webhook_secrets RENAME TO secrets_away")));
        const Delivery first = one.create(receiver.url(), QStringLiteral("unread-1"), 1);
        QTest::qWait(700);
        QCOMPARE(int(receiver.hits.size()), 0);
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_attempts")), 0);
        QCOMPARE(one.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'")),
                 1);
        // Readable again: sent at its first attempt, signed with the customer's secret.
        QVERIFY(exec(QStringLiteral("ALTER TABLE secrets_away RENAME TO webhook_secrets")));
        QTRY_COMPARE(int(receiver.hits.size()), 1);
        const Receiver::Hit &hit = receiver.hits[0];
        QCOMPARE(QString::fromLatin1(hit.id), first.id);
        QVERIFY2(Signer::verify({*key}, hit.signature, hit.id, hit.timestamp, first.payload),
                 hit.signature.constData());
        QTRY_COMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE "
                                              "state = 'succeeded' AND attempts = 1")),
                     1);

        // An endpoint whose state cannot be read is not sent to as if it were enabled: here an
        // administrator disabled it meanwhile (the change feed dropped what was held).
        receiver.status = "500 Internal Server Error"; // retried every 200 ms
        const Delivery second = one.create(receiver.url(), QStringLiteral("unread-2"), 1);
        QTRY_VERIFY(receiver.hits.size() >= 2);
        QVERIFY(exec(
            QStringLiteral("UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'an "
                           "administrator', disabled_at = 1")));
        QVERIFY(exec(QStringLiteral("ALTER TABLE webhook_endpoints RENAME TO endpoints_away")));
        one.dispatcher->endpointChangedElsewhere(second.endpointId);
        QTest::qWait(300); // an attempt in flight ends
        const size_t seen = receiver.hits.size();
        QTest::qWait(700);
        QCOMPARE(receiver.hits.size(), seen);
        QVERIFY(exec(QStringLiteral("ALTER TABLE endpoints_away RENAME TO webhook_endpoints")));
        QTRY_COMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE "
                                              "subject_id = 'unread-2' AND state = 'failed'")),
                     1);
        QCOMPARE(receiver.hits.size(), seen);
    }

    void anEndpointDisabledMeanwhileStaysDisabled()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Core::SystemClock clock;
        Receiver slow;
        slow.holding = true;
        Instance one(dir.filePath(QStringLiteral("disable.db")), QString(), clock, 8);
        one.create(slow.url(), QStringLiteral("order-1"), 1, QStringLiteral("customer"));
        QTRY_COMPARE(int(slow.hits.size()), 1);
        const auto disabled = one.writer->run([](Core::WriteTransaction &tx) -> Core::Result<void> {
            QSqlQuery &q = tx.query(QStringLiteral(
                "UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'an "
                "administrator', disabled_at = 1"));
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "disable");
            return {};
        });
        QVERIFY(disabled);
        slow.release();
        QTRY_COMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE "
                                              "last_success_at IS NOT NULL")),
                     1);
        QCOMPARE(one.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
                 1);
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE state = "
                                          "'disabled' AND disabled_reason = 'an administrator'")),
                 1);
    }

    // Retention's endpoint pass looks at the endpoints a chunk at a time in primary key order
    // (3 here): 17 endpoints take 6 writer jobs, however few of them go. Before, each job searched
    // the table for `chunk` removable ones, reading every kept endpoint before them (and all of
    // them, in one job, at the end of each pass). What goes: the enabled, healthy endpoints made
    // before the window that no delivery refers to, wherever they sort among the kept ones.
    void endpointPruneLooksAtAChunkPerJob_data()
    {
        QTest::addColumn<bool>("postgres");
        QTest::newRow("sqlite") << false;
        QTest::newRow("postgres") << true;
    }
    void endpointPruneLooksAtAChunkPerJob()
    {
        QFETCH(bool, postgres);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString url = dir.filePath(QStringLiteral("prune.db"));
        if (postgres) {
            const QString base = postgresBase();
            if (base.isEmpty())
                QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as "
                      "tst_webhooks_postgres)");
            url = createDatabase(base, QStringLiteral("prune"));
        }
        Core::SystemClock clock;
        Receiver receiver;
        // (A lease holder on PostgreSQL, as several instances share it; none on SQLite.)
        Instance one(url, postgres ? QStringLiteral("pruner") : QString(), clock);
        // 10 endpoints with a delivery each (kept: a recent delivery refers to them).
        for (int i = 0; i < 10; ++i)
            one.create(receiver.url(), QStringLiteral("order-%1").arg(i), 1,
                       QStringLiteral("kept-%1").arg(i));
        QTRY_COMPARE_WITH_TIMEOUT(
            one.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            10, timeoutMs());
        const qint64 day = 24LL * 3600 * 1000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        // 7 without a delivery, sorting before and after the kept ones (their ids are UUIDv7s,
        // "01..."): 4 old, enabled and healthy ones go; a disabled, a failing and a recent one
        // stay.
        const auto seeded = one.writer->run([&](Core::WriteTransaction &tx) -> Core::Result<void> {
            for (const auto &[id, state, failing, created] :
                 {std::tuple<const char *, const char *, qint64, qint64>{"00-old-a", "enabled", 0,
                                                                         now - 31 * day},
                  {"00-old-b", "enabled", 0, now - 40 * day},
                  {"zz-old-c", "enabled", 0, now - 31 * day},
                  {"zz-old-d", "enabled", 0, now - 60 * day},
                  {"00-disabled", "disabled", 0, now - 31 * day},
                  {"zz-failing", "enabled", now - 2 * day, now - 31 * day},
                  {"zz-recent", "enabled", 0, now - 29 * day}}) {
                Core::Statement &e = tx.stmt(
                    "INSERT INTO webhook_endpoints (id, owner_id, url, state, failing_since, "
                    "created_at) VALUES (?, 'unused', ?, ?, ?, ?)");
                e.bind(1, QLatin1String(id))
                    .bind(2, QStringLiteral("http://example.invalid/") + QLatin1String(id))
                    .bind(3, QLatin1String(state));
                if (failing)
                    e.bind(4, failing);
                else
                    e.bindNull(4);
                if (!e.bind(5, created).exec())
                    return Core::WriteTransaction::sqlError(e, "endpoint");
            }
            return {};
        });
        QVERIFY2(seeded, qPrintable(seeded ? QString() : seeded.error().message));
        QCOMPARE(one.count(QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints")), 17);

        WebhookService webhooks(
            *one.database, *one.writer, *one.events, clock, one.dispatcher.get(),
            [](Core::WriteTransaction &, const QString &) { return Core::Result<bool>(true); });
        RedeliveryJobs jobs(*one.database, *one.writer, *one.events, clock, webhooks, 30, 3);
        const qint64 jobsBefore = one.writer->committedJobs();
        std::optional<Core::Result<int>> pruned;
        jobs.prune(now, [&](const Core::Result<int> &r) { pruned = r; });
        QTRY_VERIFY_WITH_TIMEOUT(pruned.has_value(), timeoutMs());
        QVERIFY2(*pruned, qPrintable(*pruned ? QString() : pruned->error().message));
        QCOMPARE(**pruned, 0); // no delivery is old enough
        // 3, 3, 3, 3, 3 and the last 2 (at least: a job of the dispatcher's may commit too).
        const qint64 passJobs = one.writer->committedJobs() - jobsBefore;
        QVERIFY2(passJobs >= 6, qPrintable(QStringLiteral("%1 writer jobs").arg(passJobs)));
        QStringList left;
        QSqlQuery q(one.database->connection());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT id FROM webhook_endpoints WHERE owner_id = 'unused' ORDER BY owner_id")));
        while (q.next())
            left.append(q.value(0).toString());
        left.sort();
        QCOMPARE(left, (QStringList{QStringLiteral("00-disabled"), QStringLiteral("zz-failing"),
                                    QStringLiteral("zz-recent")}));
        QCOMPARE(one.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_endpoints WHERE owner_id LIKE 'kept-%'")),
                 10);
    }

    // Several instances on one PostgreSQL database (docs/storage.md "Webhook deliveries and
    // leases"): deliveries of one order created on two instances go out from one of them at a time,
    // in order, each once; an instance that dies holding orders loses them to the other once their
    // leases expire (not before), which sends everything again under its own fence; the dead one's
    // late results are not recorded.
    void leasesShareTheOutboxAcrossInstances()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("leases"));

        Core::SystemClock clock;
        Receiver receiver;
        // a gives its idle leases up three per statement (a turn of its event loop each), b
        // all at once (1,000 per statement).
        Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000,
                   [](Dispatcher::Options &o) { o.leaseReleaseChunk = 3; });
        Instance b(url, QStringLiteral("instance-b"), clock);

        // 1. Orders whose status changes are made on both instances, alternately.
        QSet<QByteArray> ids;
        for (int seq = 1; seq <= 4; ++seq)
            for (int order = 0; order < 25; ++order)
                ids.insert(((seq + order) % 2 ? a : b)
                               .create(receiver.url(), QStringLiteral("order-%1").arg(order), seq)
                               .id.toLatin1());
        QTRY_COMPARE_WITH_TIMEOUT(
            a.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            100, 60000);
        checkOrderedAndAlone(receiver.hits);
        if (QTest::currentTestFailed())
            return;
        QMap<QByteArray, int> times;
        for (const Receiver::Hit &h : receiver.hits)
            ++times[h.id];
        QCOMPARE(QSet<QByteArray>(times.keyBegin(), times.keyEnd()), ids);
        for (auto it = times.cbegin(); it != times.cend(); ++it)
            QVERIFY2(it.value() == 1, it.key().constData()); // no lease expired: each sent once
        // Idle leases are given up within a renewal.
        QTRY_COMPARE_WITH_TIMEOUT(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases")), 0,
                                  10000);

        // 2. An instance dies while its orders' first deliveries are on the wire.
        receiver.hits.clear();
        receiver.holding = true;
        Instance doomed(url, QStringLiteral("instance-doomed"), clock);
        QSet<QByteArray> second;
        for (int order = 0; order < 10; ++order)
            for (int seq = 1; seq <= 2; ++seq)
                second.insert(
                    doomed.create(receiver.url(), QStringLiteral("late-%1").arg(order), seq)
                        .id.toLatin1());
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 10, 10000);
        const qint64 renewedBefore =
            Receiver::now() - Instance::kLeaseTtlMs / 3; // renewed at most a third ago
        doomed.die();
        const qint64 diedAt = Receiver::now();
        receiver.release(); // the other instance's requests are answered
        QTRY_COMPARE_WITH_TIMEOUT(
            a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE state = "
                                   "'succeeded' AND subject_id LIKE 'late-%'")),
            20, 30000);
        checkOrderedAndAlone(receiver.hits);
        if (QTest::currentTestFailed())
            return;
        QSet<QByteArray> answered;
        for (const Receiver::Hit &h : receiver.hits) {
            if (h.start >= diedAt) // sent by a or b, only once the dead one's leases expired
                QVERIFY2(
                    h.start >= renewedBefore + Instance::kLeaseTtlMs - 50,
                    qPrintable(QStringLiteral("sent %1 ms after the death").arg(h.start - diedAt)));
            if (h.answered)
                answered.insert(h.id);
        }
        QCOMPARE(answered, second);
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_leases WHERE holder = 'instance-doomed'")),
                 0);
        // A result written under the dead instance's fence is not recorded.
        QSqlQuery q(a.database->connection());
        QVERIFY(q.exec(QStringLiteral("SELECT id FROM webhook_deliveries WHERE subject_id = "
                                      "'late-0' AND seq = 1")) &&
                q.next());
        Delivery late;
        late.id = q.value(0).toString();
        late.subjectId = QStringLiteral("late-0");
        late.state = QStringLiteral("failed");
        std::optional<bool> written;
        QVERIFY(b.writer
                    ->run([&](Core::WriteTransaction &tx) -> Core::Result<void> {
                        auto r = WebhookStore::updateDeliveryFenced(
                            tx, late, 500, QStringLiteral("late"), 1, 1,
                            QStringLiteral("instance-doomed"), 1);
                        if (!r)
                            return r.error();
                        written = *r;
                        return {};
                    })
                    .ok());
        QCOMPARE(written, std::optional<bool>(false));

        // Fences never repeat for a subject: a lease given up (its row deleted) and taken
        // again gets a new one, so a result still carrying the old fence is refused; a
        // takeover once the holder's time ran out gets the next one.
        const QSqlDatabase db = a.database->connection();
        const QString x = QStringLiteral("x");
        const QString y = QStringLiteral("y");
        const qint64 t0 = QDateTime::currentMSecsSinceEpoch();
        const QStringList subject{QStringLiteral("fenced-order")};
        // x's first renewal: it had no row, so no time that could have held anything.
        auto renewed = WebhookStore::renewHolder(db, x, t0, t0 + 100);
        QVERIFY(renewed && !*renewed);
        auto first = WebhookStore::acquireLeases(*a.database, subject, x, t0);
        QVERIFY(first && first->size() == 1);
        auto released = WebhookStore::releaseIdleLeases(db, subject, x);
        QVERIFY(released && *released == subject);
        QTest::qWait(5);
        const qint64 t1 = QDateTime::currentMSecsSinceEpoch();
        auto again = WebhookStore::acquireLeases(*a.database, subject, x, t1);
        QVERIFY(again && again->size() == 1);
        QVERIFY2(
            again->at(0).fence > first->at(0).fence,
            qPrintable(
                QStringLiteral("%1 after %2").arg(again->at(0).fence).arg(first->at(0).fence)));
        // Renewed before its time ran out: every lease it holds is still its own.
        renewed = WebhookStore::renewHolder(db, x, t0 + 50, t0 + 150);
        QVERIFY(renewed && *renewed);
        auto refused = WebhookStore::acquireLeases(*a.database, subject, y, t0 + 150);
        QVERIFY(refused && refused->isEmpty()); // x's time runs until t0 + 150
        auto taken = WebhookStore::acquireLeases(*a.database, subject, y, t0 + 151);
        QVERIFY(taken && taken->size() == 1);
        QCOMPARE(taken->at(0).fence, again->at(0).fence + 1);
        // x renews after its time ran out: told so, and its leases, read, lack the one taken.
        renewed = WebhookStore::renewHolder(db, x, t0 + 300, t0 + 400);
        QVERIFY(renewed && !*renewed);
        auto held = WebhookStore::heldLeases(db, x);
        QVERIFY(held && held->isEmpty());
        held = WebhookStore::heldLeases(db, y);
        QVERIFY(held && held->size() == 1 && held->at(0).subjectId == subject.at(0));
        // A holder that was never renewed has no time: another takes its leases at once.
        const QStringList other{QStringLiteral("unrenewed-order")};
        auto z = WebhookStore::acquireLeases(*a.database, other, QStringLiteral("z"), t1);
        QVERIFY(z && z->size() == 1);
        auto fromZ = WebhookStore::acquireLeases(*a.database, other, x, t1);
        QVERIFY(fromZ && fromZ->size() == 1);
        QCOMPARE(fromZ->at(0).fence, z->at(0).fence + 1);
        // Every lease's holder has a row (how claimOrphans finds what a dead holder held).
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_leases l WHERE NOT EXISTS (SELECT 1 FROM "
                     "webhook_lease_holders h WHERE h.holder = l.holder)")),
                 0);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE "
                                        "subject_id = 'late-0' AND state = 'succeeded'")),
                 2);
    }

    // A renewal gives time to the holder, not to each lease: however many orders an instance
    // holds, it rewrites one row (each lease's row was rewritten at every renewal: 60,000
    // leases took 0.31 s a tick, measured in psql).
    void renewingLeasesWritesOneRow()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("renewal"));
        Core::SystemClock clock;
        Receiver receiver;
        receiver.holding = true; // every order's delivery stays on the wire: its lease is held
        Instance a(url, QStringLiteral("instance-a"), clock);
        for (int order = 0; order < 30; ++order)
            a.create(receiver.url(), QStringLiteral("held-%1").arg(order), 1);
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 30, 10000);
        const QString leases = QStringLiteral(
            "SELECT string_agg(subject_id || ' ' || holder || ' ' || fence || ' ' || xmin::text, "
            "',' ORDER BY subject_id) FROM webhook_leases");
        const auto text = [&](const QString &sql) {
            QSqlQuery q(a.database->connection());
            if (!q.exec(sql) || !q.next())
                qFatal("%s", qPrintable(sql));
            return q.value(0).toString();
        };
        const auto expiry = [&] {
            return text(QStringLiteral("SELECT expires_at FROM webhook_lease_holders WHERE "
                                       "holder = 'instance-a'"))
                .toLongLong();
        };
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases WHERE holder = "
                                        "'instance-a'")),
                 30);
        const QString before = text(leases);
        const qint64 renewedAt = expiry();
        // Three renewals (one every third of the lease's time).
        QTRY_VERIFY_WITH_TIMEOUT(expiry() >= renewedAt + Instance::kLeaseTtlMs, 10000);
        QCOMPARE(text(leases), before); // no lease's row was written
        receiver.release();
        QTRY_COMPARE_WITH_TIMEOUT(
            a.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            30, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases")), 0,
                                  10000);
        QCOMPARE(int(receiver.hits.size()), 30); // each sent once
    }

    // An instance whose time ran out (stalled past its lease time) may have lost orders to
    // others meanwhile: its next renewal says so, and it reads which leases are still its own
    // and forgets the orders it lost, instead of keeping them queued until an attempt's result
    // is refused.
    void holderWhoseTimeRanOutLearnsWhatItLost()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("timeout"));
        Core::SystemClock clock;
        Receiver receiver;
        receiver.status = "500 Internal Server Error";
        // A failed attempt is tried again a minute later: the order stays queued, leased.
        Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000,
                   [](Dispatcher::Options &o) { o.retry.scheduleMs = {60'000}; });
        a.create(receiver.url(), QStringLiteral("kept"), 1);
        a.create(receiver.url(), QStringLiteral("lost"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(
            a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE attempts = 1")),
            2, 10000);
        QCOMPARE(a.dispatcher->queuedSubjects(), 2);
        const auto expiry = [&] {
            return a.count(QStringLiteral("SELECT (expires_at / 1000)::int FROM "
                                          "webhook_lease_holders WHERE holder = 'instance-a'"));
        };
        // A renewal while its time had not run out reads nothing and keeps both.
        const int first = expiry();
        QTRY_VERIFY_WITH_TIMEOUT(expiry() > first, 10000);
        QCOMPARE(a.dispatcher->queuedSubjects(), 2);
        // Its time runs out, and another holder takes one of its orders, in one transaction
        // (before its next renewal).
        QSqlQuery q(a.database->connection());
        QVERIFY(q.exec(QStringLiteral(
            "WITH gone AS (UPDATE webhook_lease_holders SET expires_at = 0 WHERE holder = "
            "'instance-a' RETURNING holder), other AS (INSERT INTO webhook_lease_holders (holder, "
            "expires_at) VALUES ('instance-b', 9000000000000)) UPDATE webhook_leases SET holder = "
            "'instance-b', fence = fence + 1 WHERE subject_id = 'lost' AND holder IN (SELECT "
            "holder FROM gone)")));
        QCOMPARE(q.numRowsAffected(), 1);
        // Its next renewal finds its time ran out, reads its leases and forgets "lost".
        QTRY_COMPARE_WITH_TIMEOUT(a.dispatcher->queuedSubjects(), 1, 10000);
        QVERIFY(expiry() > first);
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_leases WHERE holder = 'instance-a' AND "
                     "subject_id = 'kept'")),
                 1);
    }

    // An instance that stops hands over the leases of its orders with deliveries pending: the
    // next instance that looks takes them over from the holders' rows, as it takes a dead
    // holder's (deleted at the stop, they waited to be found unleased: due for a lease time,
    // and looked for a chunk of pending deliveries at a time). A lease with nothing pending is
    // given up, and the stopped holder's row deleted.
    void stoppingInstanceHandsItsLeasesOver()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("handover"));
        Core::SystemClock clock;
        Receiver receiver;
        receiver.status = "500 Internal Server Error";
        const QString pending = QStringLiteral(
            "SELECT COUNT(*) FROM webhook_leases WHERE subject_id = 'pending' AND holder = '%1' "
            "AND fence = %2");
        qint64 fence = 0; // a new lease's fence is the time it was taken
        {
            // A failed attempt is tried again a minute later: the order stays leased.
            Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000,
                       [](Dispatcher::Options &o) { o.retry.scheduleMs = {60'000}; });
            a.create(receiver.url(), QStringLiteral("pending"), 1);
            QTRY_COMPARE_WITH_TIMEOUT(a.count(QStringLiteral("SELECT COUNT(*) FROM "
                                                             "webhook_deliveries WHERE attempts = "
                                                             "1")),
                                      1, 10000);
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral(
                        "SELECT fence FROM webhook_leases WHERE subject_id = 'pending'")) &&
                    q.next());
            fence = q.value(0).toLongLong();
            QCOMPARE(a.count(pending.arg(QStringLiteral("instance-a")).arg(fence)), 1);
            // A lease of an order whose deliveries all went out.
            QVERIFY(q.exec(
                QStringLiteral("INSERT INTO webhook_leases VALUES ('idle', 'instance-a', 7)")));
            // The stop: the dispatcher's release goes to the writer, which writes it and stops.
            a.dispatcher->stop();
            a.writer->stop();
            QCOMPARE(a.count(pending.arg(QString()).arg(fence + 1)), 1);
            QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases")), 1);
            QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE "
                                            "holder = 'instance-a'")),
                     0);
            // Its retry is due now (not for a lease time, when an unleased one is looked for).
            QVERIFY(q.exec(QStringLiteral("UPDATE webhook_deliveries SET next_attempt_at = %1")
                               .arg(QDateTime::currentMSecsSinceEpoch())));
        }
        receiver.status = "200 OK";
        receiver.holding = true; // the attempt stays on the wire: its lease is held meanwhile
        Instance b(url, QStringLiteral("instance-b"), clock);
        // Taken over (the fence moved once more), not claimed as unleased (a new row's fence is
        // the time), and sent again with the same webhook-id.
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 2, 10000);
        QCOMPARE(receiver.hits.at(1).id, receiver.hits.at(0).id);
        QCOMPARE(b.count(pending.arg(QStringLiteral("instance-b")).arg(fence + 2)), 1);
        receiver.release();
        QTRY_COMPARE_WITH_TIMEOUT(
            b.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE state = "
                                   "'succeeded'")),
            1, 10000);
        QCOMPARE(int(receiver.hits.size()), 2);
        // The holder of what was handed over stays, with no time, for the next stop.
        QCOMPARE(b.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE holder "
                                        "= '' AND expires_at = 0")),
                 1);
    }

    // A new instance holds no lease yet, so it has nothing to doubt: it sends at once what it
    // is handed and what the instance before it left pending, not after its first tick (a
    // third of the lease time: 5 s after every start with the default 15 s).
    void newInstanceSendsAtOnce()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("fresh_start"));
        Core::SystemClock clock;
        Receiver receiver;
        receiver.status = "500 Internal Server Error";
        // The first tick comes after 200 s; a failed attempt is tried again a minute later.
        const auto longLease = [](Dispatcher::Options &o) {
            o.leaseTtlMs = 600'000;
            o.retry.scheduleMs = {60'000};
        };
        {
            Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000, longLease);
            a.create(receiver.url(), QStringLiteral("first"), 1);
            QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 1, 20'000);
            a.dispatcher->stop();
            a.writer->stop();
            // Its retry is due now.
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral("UPDATE webhook_deliveries SET next_attempt_at = %1")
                               .arg(QDateTime::currentMSecsSinceEpoch())));
        }
        receiver.status = "200 OK";
        Instance b(url, QStringLiteral("instance-b"), clock, 128, 50'000, longLease);
        // What was pending at its start, with the same webhook-id...
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 2, 20'000);
        QCOMPARE(receiver.hits.at(1).id, receiver.hits.at(0).id);
        QCOMPARE(receiver.hits.at(1).subject, QStringLiteral("first"));
        // ...and what it is handed.
        b.create(receiver.url(), QStringLiteral("second"), 1);
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 3, 20'000);
        QCOMPARE(receiver.hits.at(2).subject, QStringLiteral("second"));
        QTRY_COMPARE_WITH_TIMEOUT(
            b.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE state = "
                                   "'succeeded'")),
            2, 10'000);
    }

    // A holder that was a process of this machine and has ended (a crash restarted at once,
    // instances of one machine) will not renew: the next instance that looks ends its time and
    // takes its orders over then, not when its time would have run out.
    void endedProcessesLeasesAreTakenOverAtOnce()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("ended"));
        Core::SystemClock clock;
        Receiver receiver;
        const QString gone = endedProcessId(QStringLiteral("gone"));
        QVERIFY(!gone.isEmpty());
        // A live-looking holder elsewhere, whose time runs for an hour too.
        const QString elsewhere = QStringLiteral("elsewhere.invalid/1/x");
        Instance a(url, QStringLiteral("instance-a"), clock);
        const qint64 hour = QDateTime::currentMSecsSinceEpoch() + 3'600'000;
        {
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_endpoints (id, owner_id, url, "
                                          "created_at) VALUES ('e', 'customer', '%1', 0)")
                               .arg(receiver.url())));
            for (const QString &holder : {gone, elsewhere}) {
                const QString subject =
                    holder == gone ? QStringLiteral("of-gone") : QStringLiteral("of-elsewhere");
                QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_lease_holders VALUES ('%1', "
                                              "%2)")
                                   .arg(holder)
                                   .arg(hour)));
                QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_leases VALUES ('%1', '%2', 1)")
                                   .arg(subject, holder)));
                QVERIFY2(
                    q.exec(QStringLiteral(
                               "INSERT INTO webhook_deliveries (id, endpoint_id, owner_id, "
                               "subject_id, seq, event_type, label, payload, state, "
                               "next_attempt_at, created_at) VALUES ('d-%1', 'e', 'customer', "
                               "'%1', 1, 'order.status', 'S1', '{\"subject\":\"%1\",\"seq\":1}', "
                               "'pending', 0, 0)")
                               .arg(subject)),
                    qPrintable(q.lastError().text()));
            }
            // Processes that died two hours ago: one holds nothing any more, the other still
            // holds the lease of an order with nothing to send.
            const qint64 twoHoursAgo = QDateTime::currentMSecsSinceEpoch() - 7'200'000;
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_lease_holders VALUES ('long-gone', "
                                          "%1), ('long-gone-leased', %1)")
                               .arg(twoHoursAgo)));
            QVERIFY(q.exec(QStringLiteral(
                "INSERT INTO webhook_leases VALUES ('quiet', 'long-gone-leased', 1)")));
        }
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 1, 10000);
        QCOMPARE(receiver.hits.at(0).subject, QStringLiteral("of-gone"));
        // The holders' rows that the tick forgot: the ended process's (its time ended, its
        // lease taken over) and the one long gone that holds nothing. The one long gone with
        // a lease and the hand-over holder stay.
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE "
                                        "holder IN ('long-gone', '%1')")
                             .arg(gone)),
                 0);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE "
                                        "holder IN ('long-gone-leased', '')")),
                 2);
        // The other holder's time is its own: its order waits.
        QTest::qWait(3 * Instance::kLeaseTtlMs);
        QCOMPARE(int(receiver.hits.size()), 1);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases WHERE holder = '%1'")
                             .arg(elsewhere)),
                 1);
    }

    // What an instance wrote but had not leased yet when it was killed goes out as soon as
    // another instance sees it gone, not a lease time after it was due: an unleased delivery
    // due for a while (less than a lease time) is left alone while every holder runs, and is
    // taken at the next tick once a holder's process ends.
    void deliveriesAnEndedProcessNeverLeasedGoOutSoon()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("unleased_ended"));
        Core::SystemClock clock;
        Receiver receiver;
        const QString gone = endedProcessId(QStringLiteral("gone"));
        QVERIFY(!gone.isEmpty());
        // Ticks every 4 s; without a holder gone, an unleased delivery waits until it has been
        // due for 12 s.
        constexpr qint64 ttl = 12'000;
        QElapsedTimer since; // ticks at 4, 8 and 12 s of it
        since.start();
        Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000,
                   [](Dispatcher::Options &o) { o.leaseTtlMs = ttl; });
        // Written once the dispatcher has read what was pending at its start (which it
        // leases, whoever wrote it).
        QTest::qWait(1'000);
        {
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_endpoints (id, owner_id, url, "
                                          "created_at) VALUES ('e', 'customer', '%1', 0)")
                               .arg(receiver.url())));
            QVERIFY2(
                q.exec(QStringLiteral("INSERT INTO webhook_deliveries (id, endpoint_id, owner_id, "
                                      "subject_id, seq, event_type, label, payload, state, "
                                      "next_attempt_at, created_at) VALUES ('d-unleased', 'e', "
                                      "'customer', 'unleased', 1, 'order.status', 'S1', "
                                      "'{\"subject\":\"unleased\",\"seq\":1}', 'pending', %1, %1)")
                           .arg(QDateTime::currentMSecsSinceEpoch() - 1'500)),
                qPrintable(q.lastError().text()));
        }
        // The first tick (at 4 s) passes: nobody is gone, the delivery is left to its writer.
        QTest::qWait(int(ttl / 3));
        QCOMPARE(int(receiver.hits.size()), 0);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases")), 0);
        // Its writer's process has ended (its holder's row, time for an hour, no lease yet).
        {
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_lease_holders VALUES ('%1', %2)")
                               .arg(gone)
                               .arg(QDateTime::currentMSecsSinceEpoch() + 3'600'000)));
        }
        // Taken at the next tick (8 s), not at the one (12 s) where it has been due for a
        // lease time.
        QTRY_COMPARE_WITH_TIMEOUT(int(receiver.hits.size()), 1, 10'000);
        QVERIFY2(since.elapsed() < 10'000,
                 qPrintable(
                     QStringLiteral("sent %1 ms after the instance started").arg(since.elapsed())));
        QCOMPARE(receiver.hits.at(0).subject, QStringLiteral("unleased"));
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_leases WHERE subject_id = "
                                        "'unleased' AND holder = 'instance-a'")),
                 1);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE "
                                        "expires_at = 0 AND holder = '%1'")
                             .arg(gone)),
                 1);
    }

    // Deliveries that nobody ever leased (an instance died after it wrote them, before it
    // took their order's lease) are looked for a chunk of pending deliveries at a time, from
    // where the last look stopped: a look at every pending delivery at each tick took 0.33 s
    // with 300,000 pending. However many leased ones come first, they are found and sent.
    void unleasedDeliveriesAreFoundAChunkAtATime()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        Core::SystemClock clock;
        Receiver receiver;
        const qint64 longAgo = QDateTime::currentMSecsSinceEpoch() - 60'000;
        // Pending deliveries written straight into the database: one per subject, due a minute
        // ago; those of `leased` held by a live holder ("busy", whose time runs for hours).
        const auto seed = [&](const QSqlDatabase &db, const QStringList &subjects,
                              const QStringList &leased) {
            QSqlQuery q(db);
            const qint64 hours = QDateTime::currentMSecsSinceEpoch() + 36'000'000;
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_endpoints (id, owner_id, url, "
                                          "created_at) VALUES ('e', 'customer', '%1', 0) ON "
                                          "CONFLICT DO NOTHING")
                               .arg(receiver.url())));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_lease_holders VALUES ('busy', %1) "
                                          "ON CONFLICT DO NOTHING")
                               .arg(hours)));
            for (const QString &subject : subjects) {
                QVERIFY(q.prepare(QStringLiteral(
                    "INSERT INTO webhook_deliveries (id, endpoint_id, owner_id, subject_id, seq, "
                    "event_type, label, payload, state, next_attempt_at, created_at) VALUES (?, "
                    "'e', 'customer', ?, 1, 'order.status', 'S1', ?, 'pending', ?, ?)")));
                q.addBindValue(QStringLiteral("d-") + subject);
                q.addBindValue(subject);
                q.addBindValue(QJsonDocument(QJsonObject{{QStringLiteral("subject"), subject},
                                                         {QStringLiteral("seq"), 1}})
                                   .toJson(QJsonDocument::Compact));
                q.addBindValue(longAgo);
                q.addBindValue(longAgo);
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
                if (leased.contains(subject))
                    QVERIFY(q.exec(QStringLiteral("INSERT INTO webhook_leases VALUES ('%1', "
                                                  "'busy', 1)")
                                       .arg(subject)));
            }
        };
        QStringList busy;
        for (int i = 0; i < 10; ++i)
            busy.append(QStringLiteral("a-%1").arg(i, 2, 10, QLatin1Char('0')));

        // 1. The looks themselves, four deliveries each (no dispatcher on this database).
        {
            auto db = Core::Database::open(createDatabase(base, QStringLiteral("orphans")),
                                           Core::Database::coreMigrations()
                                               << WebhookStore::migration()
                                               << WebhookStore::leaseMigration()
                                               << WebhookStore::holderMigration(),
                                           clock);
            QVERIFY(db);
            const QSqlDatabase c = (*db)->connection();
            seed(c,
                 busy + QStringList{QStringLiteral("b-orphan"), QStringLiteral("c-1"),
                                    QStringLiteral("c-2")},
                 busy);
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            QString cursor;
            const auto look = [&](int limit) {
                auto r = WebhookStore::claimOrphans(c, QStringLiteral("x"), now, now - 1000, limit,
                                                    &cursor, 4);
                if (!r)
                    qFatal("%s", qPrintable(r.error().message));
                QStringList out;
                for (const WebhookStore::Lease &l : *r)
                    out.append(l.subjectId);
                return out;
            };
            QCOMPARE(look(500), QStringList{});
            QCOMPARE(cursor, QStringLiteral("a-03")); // a-00 to a-03 looked at
            QCOMPARE(look(500), QStringList{});
            QCOMPARE(cursor, QStringLiteral("a-07"));
            // a-08, a-09, b-orphan, c-1: two found, one wanted: on after it.
            QCOMPARE(look(1), QStringList{QStringLiteral("b-orphan")});
            QCOMPARE(cursor, QStringLiteral("b-orphan"));
            const QStringList both{QStringLiteral("c-1"), QStringLiteral("c-2")};
            QCOMPARE(look(500), both);
            QVERIFY(cursor.isEmpty()); // the end: from the start next time
            QCOMPARE(look(500), QStringList{});
            QCOMPARE(cursor, QStringLiteral("a-03"));
        }

        // 2. A running instance looking at three a tick finds the one nobody leased behind ten
        // leased ones, and sends it.
        const QString url = createDatabase(base, QStringLiteral("orphansent"));
        Instance a(url, QStringLiteral("instance-a"), clock, 128, 50'000,
                   [](Dispatcher::Options &o) { o.orphanScan = 3; });
        // Written after its start read what was pending (its holder's row is made just before).
        QTRY_COMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_lease_holders WHERE "
                                            "holder = 'instance-a'")),
                     1);
        QTest::qWait(200);
        QElapsedTimer found;
        found.start();
        seed(a.database->connection(), busy + QStringList{QStringLiteral("z-orphan")}, busy);
        QTRY_COMPARE_WITH_TIMEOUT(
            a.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE subject_id = "
                                   "'z-orphan' AND state = 'succeeded'")),
            1, 20000);
        QCOMPARE(int(receiver.hits.size()), 1);
        QCOMPARE(receiver.hits.front().subject, QStringLiteral("z-orphan"));
        // Found by the looks (by the fourth, each a third of the lease's time after the one
        // before), not by the first: a look at every pending delivery found it at once.
        QVERIFY2(found.elapsed() >= Instance::kLeaseTtlMs / 3 * 2,
                 qPrintable(QStringLiteral("sent after %1 ms").arg(found.elapsed())));
        // The leased ones are left to their holder.
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'")),
                 10);
    }

    // While another instance has the orders' turn, an instance's lifecycle waits for it without
    // holding up its writer: orders placed meanwhile are answered and other jobs commit, and the
    // lifecycle runs once the turn is free. (A batch that waited for the lock held up every job
    // behind it, for as long as the other held the turn, at most 10 s.)
    void lifecycleWaitsForTheTurnWithoutHoldingTheWriter()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("turns"));
        Core::SystemClock clock;
        OrderInstance a(url, QStringLiteral("instance-a"), clock);
        OrderInstance b(url, QStringLiteral("instance-b"), clock);
        const QString upc = QStringLiteral("0631234200036");
        const QString customerId =
            a.customerAndBeer(QStringLiteral("00000000-0000-4000-8000-000000000001"), upc, 100);
        QVERIFY(!customerId.isEmpty());
        // Instance b takes the turn and keeps it until told.
        std::atomic<bool> holding{false};
        std::atomic<bool> release{false};
        std::optional<Core::Result<void>> held;
        b.writer->submitAtStart(
            [&](Core::WriteTransaction &tx) -> Core::Result<void> {
                if (auto turn = Orders::OrderStore::lockLifecycle(tx); !turn)
                    return turn;
                holding = true;
                while (!release)
                    QThread::msleep(5);
                return {};
            },
            [&](const Core::Result<void> &r) { held = r; });
        QTRY_VERIFY(holding.load());
        const QStringList ids = a.create(customerId, upc, 20);
        QCOMPARE(ids.size(), 20);
        const auto inStatus = [&](const char *status) {
            return a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE status = '%1'")
                               .arg(QLatin1String(status)));
        };
        // Another job of a's writer commits while b still has the turn, and well before the
        // 10 s a wait for the lock would take to give up.
        std::atomic<bool> committed{false};
        a.writer->submit([](Core::WriteTransaction &) -> Core::Result<void> { return {}; },
                         [&](const Core::Result<void> &r) { committed = r.ok(); });
        QTRY_VERIFY_WITH_TIMEOUT(committed.load(), 5000);
        QVERIFY(!release.load());
        QCOMPARE(inStatus("NEW"), 20); // nothing of the lifecycle ran without the turn
        release = true;
        QTRY_VERIFY(held.has_value());
        QVERIFY(held->ok());
        QTRY_COMPARE_WITH_TIMEOUT(inStatus("ALLOCATED"), 20, 30000);
    }

    // Several instances on one PostgreSQL database (docs/storage.md "Orders across instances"):
    // their lifecycles, the orders' actions and restocks take turns, so that stock is never
    // handed out twice and every order goes through each status once; orders an instance left
    // behind when it died are taken up by another.
    void ordersTakeTurnsAcrossInstances()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("orders"));
        Core::SystemClock clock;
        auto alive = std::make_shared<QSet<QString>>(
            QSet<QString>{QStringLiteral("instance-a"), QStringLiteral("instance-b")});
        OrderInstance a(url, QStringLiteral("instance-a"), clock, alive);
        OrderInstance b(url, QStringLiteral("instance-b"), clock, alive);
        const QString upc = QStringLiteral("0631234200036");
        const QString beerId = QStringLiteral("00000000-0000-4000-8000-000000000001");
        const QString customerId = a.customerAndBeer(beerId, upc, 100);
        QVERIFY(!customerId.isEmpty());
        const auto stockOf = [&] {
            return a.count(
                QStringLiteral("SELECT quantity_on_hand FROM beers WHERE id = '%1'").arg(beerId));
        };
        const auto allocated = [&] {
            return a.count(QStringLiteral(
                "SELECT COALESCE(SUM(l.quantity_allocated), 0) FROM order_lines l JOIN orders o ON "
                "o.id = l.order_id WHERE o.status <> 'CANCELLED'"));
        };
        const auto unfinished = [&] {
            return a.count(QStringLiteral(
                "SELECT COUNT(*) FROM orders WHERE status IN ('NEW', 'VALIDATION_PENDING', "
                "'VALIDATED', 'ALLOCATION_PENDING')"));
        };

        // 1. 300 orders for one unit each, half on each instance at once, for 100 in stock.
        QStringList ids;
        {
            QStringList onA, onB;
            QThread *other = QThread::create([&] { onB = b.create(customerId, upc, 150); });
            other->start();
            onA = a.create(customerId, upc, 150);
            QVERIFY(other->wait(60000));
            delete other;
            ids = onA + onB;
        }
        QCOMPARE(ids.size(), 300);
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(), 0, 60000);
        QCOMPARE(stockOf(), 0);
        QCOMPARE(allocated(), 100); // handed out once: none twice, none lost
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE status = 'ALLOCATED'")),
                 100);
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM orders WHERE status = 'PENDING_INVENTORY'")),
                 200);
        // Each order went through each status once: NEW, VALIDATION_PENDING, VALIDATED,
        // ALLOCATION_PENDING, and ALLOCATED or PENDING_INVENTORY.
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM order_history")), 300 * 5);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM (SELECT DISTINCT order_id, status "
                                        "FROM order_history) AS h")),
                 300 * 5);

        // 2. Cancellations on one instance while the other restocks: what is given back and
        // added goes to the waiting orders, each unit once.
        QStringList allocatedIds;
        {
            QSqlQuery q(a.database->connection());
            QVERIFY(q.exec(QStringLiteral(
                "SELECT id FROM orders WHERE status = 'ALLOCATED' ORDER BY id LIMIT 40")));
            while (q.next())
                allocatedIds.append(q.value(0).toString());
        }
        QCOMPARE(allocatedIds.size(), 40);
        auto cancelled = std::make_shared<std::atomic<int>>(0);
        auto restocked = std::make_shared<std::atomic<int>>(0);
        for (int i = 0; i < 40; ++i) {
            a.orders->act(allocatedIds[i], customerId, Orders::OrderService::Action::Cancel,
                          [cancelled](const Core::Result<Orders::Order> &r) {
                              if (!r)
                                  qFatal("cancel: %s", qPrintable(r.error().message));
                              ++*cancelled;
                          });
            b.orders->restock(beerId, 2, [restocked](const Core::Result<Orders::Beer> &r) {
                if (!r)
                    qFatal("restock: %s", qPrintable(r.error().message));
                ++*restocked;
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(cancelled->load() + restocked->load(), 80, 60000);
        // 100 + 80 units came in, all handed out (the 40 cancelled orders' went to waiting ones):
        // the 60 left allocated, plus 120 of the 200 waiting; none on the shelf.
        QCOMPARE(allocated(), 180);
        QCOMPARE(stockOf(), 0);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE status = 'ALLOCATED'")),
                 180);
        QCOMPARE(a.count(QStringLiteral(
                     "SELECT COUNT(*) FROM orders WHERE status = 'PENDING_INVENTORY'")),
                 80);

        // Each order names the instance that ran its lifecycle: the one it was placed on.
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by = "
                                        "'instance-a'")),
                 150);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by = "
                                        "'instance-b'")),
                 150);

        // 3. An instance dies with its orders still in the lifecycle (held there); they stay
        // NEW while it is believed alive, are taken up as soon as it is known to be gone,
        // however recently they changed, and then run once.
        QVERIFY(a.writer->run([&](Core::WriteTransaction &tx) {
            return Orders::OrderStore::setStock(tx, beerId, 30);
        }));
        const QString doomedName = QStringLiteral("instance-doomed");
        alive->insert(doomedName);
        const auto named = [&](const QString &instance) {
            return a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by = '%1' "
                                          "AND status = 'NEW'")
                               .arg(instance));
        };
        {
            OrderInstance doomed(url, doomedName, clock, alive);
            doomed.orders->setLifecycleHeld(true);
            QCOMPARE(doomed.create(customerId, upc, 20).size(), 20);
            doomed.die();
        }
        QCOMPARE(named(doomedName), 20);
        // Its heartbeat is still fresh: left alone, however long they waited.
        a.orders->takeUpStalled(0);
        QTest::qWait(500);
        QCOMPARE(named(doomedName), 20);
        alive->remove(doomedName);
        // Held here: nothing is taken up either.
        b.orders->setLifecycleHeld(true);
        b.orders->takeUpStalled(0);
        QTest::qWait(500);
        QCOMPARE(unfinished(), 20);
        b.orders->setLifecycleHeld(false);
        // Both take them up at once (the idle time is for orders that name nobody): each order
        // still runs its lifecycle once.
        a.orders->takeUpStalled(600'000);
        b.orders->takeUpStalled(600'000);
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(), 0, 30000);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM order_history")),
                 300 * 5 + 40 + 120 + 20 * 5); // 40 cancelled, 120 allocated later, 20 new
        QCOMPARE(stockOf(), 10);
        QCOMPARE(allocated(), 180 + 20);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by IN "
                                        "('instance-a', 'instance-b')")),
                 300 + 20);

        // 4. Orders that name no instance (placed before schema 37): taken up once they
        // stalled for the idle time given.
        {
            OrderInstance unnamed(url, QStringLiteral("instance-unnamed"), clock);
            unnamed.orders->setLifecycleHeld(true);
            QCOMPARE(unnamed.create(customerId, upc, 5).size(), 5);
            unnamed.die();
        }
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by IS NULL "
                                        "AND status = 'NEW'")),
                 5);
        a.orders->takeUpStalled(600'000);
        QTest::qWait(500);
        QCOMPARE(unfinished(), 5);
        a.orders->takeUpStalled(0);
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(), 0, 30000);
        QCOMPARE(named(QStringLiteral("instance-a")), 0);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by IS NULL")),
                 0);
        QCOMPARE(stockOf(), 5);

        // 5. An instance that starts takes up the orders of instances gone, not those of an
        // instance alive.
        const QString livingName = QStringLiteral("instance-living");
        alive->unite({doomedName, livingName});
        for (const QString &name : {doomedName, livingName}) {
            OrderInstance left(url, name, clock, alive);
            left.orders->setLifecycleHeld(true);
            QCOMPARE(left.create(customerId, upc, 3).size(), 3);
            left.die();
        }
        alive->remove(doomedName);
        const QString startingName = QStringLiteral("instance-starting");
        alive->insert(startingName);
        OrderInstance starting(url, startingName, clock, alive);
        QVERIFY(starting.orders->start(false));
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(), 3, 30000);
        QCOMPARE(named(livingName), 3);
        QCOMPARE(a.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE lifecycle_by = '%1' "
                                        "AND status = 'ALLOCATED'")
                             .arg(startingName)),
                 3);
        QCOMPARE(stockOf(), 2);
    }

    // Bulk redelivery jobs on PostgreSQL (docs/storage.md "Bulk redelivery jobs across
    // instances"): a job is run by the instance it was started on; one whose instance died is
    // taken over by a live one, where it goes on and ends; one whose instance lives is left to
    // it; a job cancelled through another instance stops where it runs.
    // A bulk redelivery job ends with the admin token that started it: when it expires, or once
    // it is revoked (gone); the root token's runs to its end. Before, an `orders:write` token
    // that expired in a minute left a job sending its 10,000 redeliveries for a day.
    void redeliveryJobsEndWithTheAdminTokenThatStartedThem()
    {
        QTemporaryDir dir;
        Core::SystemClock clock;
        Receiver receiver;
        Instance one(dir.filePath(QStringLiteral("jobs.db")), QString(), clock);
        for (int i = 0; i < 6; ++i)
            one.create(receiver.url(), QStringLiteral("o-%1").arg(i), 1);
        QTRY_COMPARE_WITH_TIMEOUT(
            one.count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            6, timeoutMs());
        WebhookService webhooks(
            *one.database, *one.writer, *one.events, clock, one.dispatcher.get(),
            [](Core::WriteTransaction &, const QString &) { return Core::Result<bool>(true); });
        RedeliveryJobs jobs(*one.database, *one.writer, *one.events, clock, webhooks, 30);
        bool revokedAlive = true;
        jobs.setTokenAlive([&revokedAlive](const QString &id) {
            return id != QLatin1String("tok-revoked") || revokedAlive;
        });
        QVERIFY(jobs.start().ok());
        auto startJob = [&jobs](double rate, const RedeliveryJobs::Starter &by) {
            QString id;
            jobs.create(
                QJsonObject{{QStringLiteral("filter"),
                             QJsonObject{{QStringLiteral("state"), QStringLiteral("succeeded")}}},
                            {QStringLiteral("ratePerSecond"), rate}},
                [&id](Core::Result<QJsonObject> r) {
                    id = r ? r->value(QLatin1String("id")).toString() : QStringLiteral("-");
                },
                by);
            QDeadlineTimer deadline(timeoutMs());
            while (id.isEmpty() && !deadline.hasExpired())
                QTest::qWait(10); // answered on this thread
            return id;
        };
        auto field = [&jobs](const QString &id, const char *name) {
            const auto j = jobs.job(id);
            return j ? j->value(QLatin1String(name)) : QJsonValue();
        };
        // Its token expires in a second and a half: cancelled then, before its six are sent.
        const QString expiring = startJob(
            1, {QStringLiteral("tok-expiring"), QDateTime::currentMSecsSinceEpoch() + 1500});
        QTRY_COMPARE_WITH_TIMEOUT(field(expiring, "state").toString(), QStringLiteral("cancelled"),
                                  timeoutMs());
        QCOMPARE(field(expiring, "lastError").toString(),
                 QStringLiteral("the admin token that started it has expired"));
        QVERIFY2(field(expiring, "sent").toInt() < 6,
                 qPrintable(field(expiring, "sent").toString()));
        // Its token is revoked once it has sent one.
        const QString revoked = startJob(1, {QStringLiteral("tok-revoked"), 0});
        QTRY_VERIFY_WITH_TIMEOUT(field(revoked, "sent").toInt() >= 1, timeoutMs());
        revokedAlive = false;
        QTRY_COMPARE_WITH_TIMEOUT(field(revoked, "state").toString(), QStringLiteral("cancelled"),
                                  timeoutMs());
        QCOMPARE(field(revoked, "lastError").toString(),
                 QStringLiteral("the admin token that started it was revoked"));
        QVERIFY(field(revoked, "sent").toInt() < 6);
        // The root token's (and a token that neither ends nor goes) runs to its end.
        for (const RedeliveryJobs::Starter &by :
             {RedeliveryJobs::Starter{}, RedeliveryJobs::Starter{QStringLiteral("tok-live"), 0}}) {
            // (What the jobs before redelivered is done again first: the job takes the six.)
            QTRY_COMPARE_WITH_TIMEOUT(
                one.count(QStringLiteral(
                    "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
                6, timeoutMs());
            const QString whole = startJob(100, by);
            QTRY_COMPARE_WITH_TIMEOUT(field(whole, "state").toString(), QStringLiteral("completed"),
                                      timeoutMs());
            QCOMPARE(field(whole, "sent").toInt(), 6);
        }
    }

    void redeliveryJobsMoveToALiveInstance()
    {
        const QString base = postgresBase();
        if (base.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_webhooks_postgres)");
        const QString url = createDatabase(base, QStringLiteral("jobs"));
        Core::SystemClock clock;
        Receiver receiver;
        receiver.delayMs = 1;
        const QString a = QStringLiteral("instance-a"), b = QStringLiteral("instance-b"),
                      c = QStringLiteral("instance-c");
        auto doomed = std::make_unique<JobsInstance>(url, a, clock, QSet<QString>{a, b, c});
        JobsInstance second(url, b, clock, QSet<QString>{b, c}); // a is dead to b and c
        JobsInstance third(url, c, clock, QSet<QString>{b, c});
        QSet<QByteArray> ids;
        for (int order = 0; order < 20; ++order)
            ids.insert(
                doomed->create(receiver.url(), QStringLiteral("o-%1").arg(order), 1).id.toLatin1());
        QTRY_COMPARE_WITH_TIMEOUT(
            doomed->count(QStringLiteral(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'succeeded'")),
            20, 30000);
        receiver.hits.clear();

        // 1. A job started on a runs there, then a dies.
        const QString moved = doomed->startJob(8);
        QCOMPARE(doomed->job(moved).value(QLatin1String("instance")).toString(), a);
        QTRY_VERIFY_WITH_TIMEOUT(doomed->count(QStringLiteral("SELECT next_index FROM "
                                                              "webhook_redelivery_jobs WHERE id = "
                                                              "'%1'")
                                                   .arg(moved)) >= 3,
                                 10000);
        doomed->die();
        const int sentByA =
            second.count(QStringLiteral("SELECT next_index FROM webhook_redelivery_jobs WHERE id = "
                                        "'%1'")
                             .arg(moved));
        QVERIFY(sentByA < 20);
        // 2. c takes it over (at its next look, as the lead does every 5 s) and finishes it.
        third.jobs->adoptOrphans();
        QTRY_COMPARE_WITH_TIMEOUT(third.job(moved).value(QLatin1String("state")).toString(),
                                  QStringLiteral("completed"), 20000);
        const QJsonObject done = third.job(moved);
        QCOMPARE(done.value(QLatin1String("instance")).toString(), c);
        QCOMPARE(done.value(QLatin1String("sent")).toInt(), 20);
        // c counted all it sent (a's last answers died with it).
        QVERIFY(done.value(QLatin1String("done")).toInt() +
                    done.value(QLatin1String("failed")).toInt() >=
                20 - sentByA);
        // Every delivery was sent again (those a sent before it died at least once; no
        // delivery left out).
        QTRY_COMPARE_WITH_TIMEOUT(
            second.count(QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE state = "
                                        "'succeeded' AND attempts >= 2")),
            20, 20000);
        QSet<QByteArray> redelivered;
        for (const Receiver::Hit &h : receiver.hits)
            redelivered.insert(h.id);
        QCOMPARE(redelivered, ids);

        // 3. A job of b's, alive, is not taken by c; cancelled through c, it stops on b.
        const QString slow = second.startJob(2);
        third.jobs->adoptOrphans();
        QTRY_VERIFY_WITH_TIMEOUT(second.job(slow).value(QLatin1String("sent")).toInt() >= 2, 10000);
        QCOMPARE(third.count(QStringLiteral("SELECT COUNT(*) FROM webhook_redelivery_jobs WHERE "
                                            "id = '%1' AND holder = 'instance-b' AND state = "
                                            "'running'")
                                 .arg(slow)),
                 1);
        QCOMPARE(third.job(slow).value(QLatin1String("instance")).toString(), b);
        std::optional<Core::Result<QJsonObject>> cancelled;
        third.jobs->cancel(slow, [&](const Core::Result<QJsonObject> &r) { cancelled = r; });
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.has_value(), 10000);
        QVERIFY2(*cancelled, *cancelled ? "" : qPrintable(cancelled->error().message));
        QCOMPARE((*cancelled)->value(QLatin1String("state")).toString(),
                 QStringLiteral("cancelled"));
        QCOMPARE((*cancelled)->value(QLatin1String("instance")).toString(), b);
        // b stops at its next write of progress: its own view then reads the row, cancelled,
        // and nothing more reaches the receiver.
        QTRY_COMPARE_WITH_TIMEOUT(second.job(slow).value(QLatin1String("state")).toString(),
                                  QStringLiteral("cancelled"), 5000);
        QVERIFY(second.job(slow).value(QLatin1String("sent")).toInt() < 20);
        QTest::qWait(300); // what it sent last, answered
        const size_t hitsWhenStopped = receiver.hits.size();
        QTest::qWait(1500); // three more at 2 a second, had it gone on
        QCOMPARE(receiver.hits.size(), hitsWhenStopped);
        // A second cancel is a conflict, on either.
        cancelled.reset();
        second.jobs->cancel(slow, [&](const Core::Result<QJsonObject> &r) { cancelled = r; });
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.has_value(), 10000);
        QVERIFY(!*cancelled);
        QCOMPARE(cancelled->error().httpStatus, 409);

        // 4. An instance that takes over a job whose instance lives after all (it missed its
        // heartbeats for a while): the job goes on there alone, and the first one stops.
        const QString contested = second.startJob(4);
        QTRY_VERIFY_WITH_TIMEOUT(second.job(contested).value(QLatin1String("sent")).toInt() >= 1,
                                 10000);
        const QString d = QStringLiteral("instance-d");
        JobsInstance fourth(url, d, clock, QSet<QString>{c, d}); // b is dead to d
        QTRY_COMPARE_WITH_TIMEOUT(fourth.job(contested).value(QLatin1String("instance")).toString(),
                                  d, 10000);
        // b stops at its next write (a quarter of a second at 4 a second), long before the job
        // would end: its own view is then the row, d's.
        QTRY_COMPARE_WITH_TIMEOUT(second.job(contested).value(QLatin1String("instance")).toString(),
                                  d, 2000);
        QCOMPARE(second.job(contested).value(QLatin1String("state")).toString(),
                 QStringLiteral("running"));
        QTRY_COMPARE_WITH_TIMEOUT(fourth.job(contested).value(QLatin1String("state")).toString(),
                                  QStringLiteral("completed"), 20000);
        QCOMPARE(second.job(contested).value(QLatin1String("sent")).toInt(), 20);
    }

    void deliveryJsonHasEveryMember()
    {
        // A delivery as the admin API and the events show it: every member, nextAttemptAt only
        // while pending (null otherwise), the URL's characters read back as they were.
        Delivery d;
        d.id = QStringLiteral("msg_2x9");
        d.endpointId = QStringLiteral("ep_1");
        d.ownerId = QStringLiteral("7c1f0b5e-0000-4000-8000-000000000001");
        d.subjectId = QStringLiteral("0190aaaa-0000-7000-8000-000000000002");
        d.seq = 3;
        d.label = QStringLiteral("ALLOCATED");
        d.url = QStringLiteral("https://hooks.example.test/in?a=\"b\"&c=\u00e9");
        d.attempts = 2;
        d.createdAt = 1'795'000'000'123;
        for (const QString &state :
             {QStringLiteral("pending"), QStringLiteral("succeeded"), QStringLiteral("failed")}) {
            d.state = state;
            for (const qint64 next : {qint64(0), qint64(1'795'000'005'000)}) {
                d.nextAttemptAt = next;
                Core::JsonObjectWriter out;
                d.writeJson(out);
                QJsonParseError err{};
                const QJsonObject j = QJsonDocument::fromJson(out.finish(), &err).object();
                QCOMPARE(err.error, QJsonParseError::NoError);
                QCOMPARE(j, d.toJson());
                QCOMPARE(j.keys(), (QStringList{"attempts", "createdAt", "customerId", "endpointId",
                                                "id", "nextAttemptAt", "orderId", "orderStatus",
                                                "seq", "state", "url"}));
                QCOMPARE(j.value(QStringLiteral("id")).toString(), d.id);
                QCOMPARE(j.value(QStringLiteral("orderId")).toString(), d.subjectId);
                QCOMPARE(j.value(QStringLiteral("customerId")).toString(), d.ownerId);
                QCOMPARE(j.value(QStringLiteral("endpointId")).toString(), d.endpointId);
                QCOMPARE(j.value(QStringLiteral("url")).toString(), d.url);
                QCOMPARE(j.value(QStringLiteral("orderStatus")).toString(), d.label);
                QCOMPARE(j.value(QStringLiteral("seq")).toInt(), 3);
                QCOMPARE(j.value(QStringLiteral("state")).toString(), state);
                QCOMPARE(j.value(QStringLiteral("attempts")).toInt(), 2);
                QCOMPARE(j.value(QStringLiteral("createdAt")).toString(),
                         QStringLiteral("2026-11-18T11:06:40.123Z"));
                if (state == QLatin1String("pending") && next > 0)
                    QCOMPARE(j.value(QStringLiteral("nextAttemptAt")).toString(),
                             QStringLiteral("2026-11-18T11:06:45.000Z"));
                else
                    QVERIFY(j.value(QStringLiteral("nextAttemptAt")).isNull());
            }
        }
    }

    // ---- URL policy ------------------------------------------------------------------

    // The end result of parse() and then resolve(): allowed (with the address to connect
    // to) or refused (with a message naming the category).
    void policy_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("allowLoopback");
        QTest::addColumn<QStringList>("allowlist");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("expected"); // the address, or a part of the message

        const QStringList none;
        auto refuse = [&](const char *tag, const QString &url, const QString &why) {
            QTest::newRow(tag) << url << false << none << false << why;
        };
        auto allow = [&](const char *tag, const QString &url, const QString &address) {
            QTest::newRow(tag) << url << false << none << true << address;
        };

        // Syntax
        refuse("ftp", QStringLiteral("ftp://example.com/x"),
               QStringLiteral("scheme ftp is not allowed; use http or https"));
        refuse("file", QStringLiteral("file:///etc/passwd"), QStringLiteral("scheme file"));
        refuse("javascript", QStringLiteral("javascript:alert(1)"),
               QStringLiteral("scheme javascript"));
        refuse("gopher", QStringLiteral("gopher://93.184.216.34:70/_GET"),
               QStringLiteral("scheme gopher"));
        refuse("ws", QStringLiteral("ws://93.184.216.34/"), QStringLiteral("scheme ws"));
        refuse("no host", QStringLiteral("http:///hook"), QStringLiteral("no host"));
        refuse("empty host with port", QStringLiteral("http://:8080/hook"),
               QStringLiteral("no host"));
        refuse("user-info", QStringLiteral("http://user:secret@93.184.216.34/"),
               QStringLiteral("user-info"));
        refuse("user only", QStringLiteral("http://user@93.184.216.34/"),
               QStringLiteral("user-info"));
        refuse("relative path", QStringLiteral("/hooks/orders"), QStringLiteral("absolute"));
        refuse("scheme-relative", QStringLiteral("//93.184.216.34/hook"),
               QStringLiteral("absolute"));
        refuse("no scheme", QStringLiteral("93.184.216.34/hook"), QStringLiteral("absolute"));
        refuse("empty", QString(), QStringLiteral("empty"));
        refuse("white space", QStringLiteral(" http://93.184.216.34/"),
               QStringLiteral("white space"));
        refuse("backslash user-info", QStringLiteral("http://evil.example\\@93.184.216.34/"),
               QStringLiteral("malformed URL"));
        refuse("percent in host", QStringLiteral("http://exa%41mple.com/"),
               QStringLiteral("malformed URL"));
        refuse("too long",
               QStringLiteral("http://93.184.216.34/") + QString(2030, QLatin1Char('a')),
               QStringLiteral("longer than 2048"));
        // Fragments are refused, not dropped: they never reach the receiver.
        refuse("fragment", QStringLiteral("http://93.184.216.34/hook#part"),
               QStringLiteral("fragment"));
        refuse("empty fragment", QStringLiteral("http://93.184.216.34/hook#"),
               QStringLiteral("fragment"));
        refuse("port 0", QStringLiteral("http://93.184.216.34:0/"), QStringLiteral("port 0"));
        refuse("port too big", QStringLiteral("http://93.184.216.34:65536/"),
               QStringLiteral("malformed URL"));
        refuse("space in host", QStringLiteral("http://exa mple.com/"),
               QStringLiteral("malformed URL"));
        refuse("too big for IPv4", QStringLiteral("http://4294967296/"),
               QStringLiteral("neither an IPv4 address nor a host name"));
        refuse("five parts", QStringLiteral("http://1.2.3.4.5/"),
               QStringLiteral("neither an IPv4 address nor a host name"));
        refuse("zone id", QStringLiteral("http://[fe80::1%25eth0]/"), QStringLiteral("zone"));
        refuse("IPvFuture", QStringLiteral("http://[v1.fe]/"), QStringLiteral("IPvFuture"));

        // IPv4 ranges
        refuse("10/8", QStringLiteral("http://10.0.0.1/"),
               QStringLiteral("10.0.0.1 is a private address"));
        refuse("172.16/12", QStringLiteral("http://172.16.5.4/"),
               QStringLiteral("172.16.5.4 is a private address"));
        refuse("192.168/16", QStringLiteral("https://192.168.1.1/"),
               QStringLiteral("192.168.1.1 is a private address"));
        refuse("127.0.0.1", QStringLiteral("http://127.0.0.1:8080/"),
               QStringLiteral("127.0.0.1 is a loopback address"));
        refuse("127.1.2.3", QStringLiteral("http://127.1.2.3/"),
               QStringLiteral("127.1.2.3 is a loopback address"));
        refuse("0.0.0.0", QStringLiteral("http://0.0.0.0/"), QStringLiteral("this network"));
        refuse("0", QStringLiteral("http://0/"), QStringLiteral("0.0.0.0 is a \"this network\""));
        refuse("metadata", QStringLiteral("http://169.254.169.254/latest/meta-data/"),
               QStringLiteral("169.254.169.254 is a link-local (cloud metadata) address"));
        refuse("link-local", QStringLiteral("http://169.254.10.1/"),
               QStringLiteral("link-local address"));
        refuse("CGNAT", QStringLiteral("http://100.64.0.1/"),
               QStringLiteral("shared (carrier-grade NAT)"));
        refuse("multicast", QStringLiteral("http://224.0.0.1/"),
               QStringLiteral("224.0.0.1 is a multicast address"));
        refuse("reserved", QStringLiteral("http://240.0.0.1/"),
               QStringLiteral("240.0.0.1 is a reserved address"));
        refuse("broadcast", QStringLiteral("http://255.255.255.255/"), QStringLiteral("broadcast"));
        refuse("benchmarking", QStringLiteral("http://198.18.0.1/"),
               QStringLiteral("benchmarking"));
        refuse("TEST-NET-1", QStringLiteral("http://192.0.2.10/"), QStringLiteral("documentation"));
        refuse("TEST-NET-3", QStringLiteral("http://203.0.113.7/"),
               QStringLiteral("documentation"));
        refuse("IETF protocol", QStringLiteral("http://192.0.0.8/"),
               QStringLiteral("IETF protocol assignments"));

        // Numeric IPv4 forms: QUrl turns them into dotted quads, the address rule refuses.
        refuse("decimal", QStringLiteral("http://2130706433/"),
               QStringLiteral("127.0.0.1 is a loopback address"));
        refuse("hex", QStringLiteral("http://0x7f000001/"),
               QStringLiteral("127.0.0.1 is a loopback address"));
        refuse("octal", QStringLiteral("http://0177.0.0.1/"),
               QStringLiteral("127.0.0.1 is a loopback address"));
        refuse("short", QStringLiteral("http://127.1/"),
               QStringLiteral("127.0.0.1 is a loopback address"));
        refuse("hex private", QStringLiteral("http://0x0a.0.0.1/"),
               QStringLiteral("10.0.0.1 is a private address"));

        // IPv6 ranges and IPv4 embedded in IPv6
        refuse("::1", QStringLiteral("http://[::1]/"), QStringLiteral("::1 is a loopback"));
        refuse("::", QStringLiteral("http://[::]/"), QStringLiteral("unspecified"));
        refuse("fe80::1", QStringLiteral("http://[fe80::1]/"), QStringLiteral("link-local"));
        refuse("fc00::1", QStringLiteral("http://[fc00::1]/"), QStringLiteral("unique-local"));
        refuse("fd12::1", QStringLiteral("http://[fd12::1]:8443/"), QStringLiteral("unique-local"));
        refuse("ff02::1", QStringLiteral("http://[ff02::1]/"), QStringLiteral("multicast"));
        refuse("2001:db8::1", QStringLiteral("http://[2001:db8::1]/"),
               QStringLiteral("documentation"));
        refuse("100::1", QStringLiteral("http://[100::1]/"), QStringLiteral("discard-only"));
        refuse("fec0::1", QStringLiteral("http://[fec0::1]/"), QStringLiteral("site-local"));
        refuse("unassigned v6", QStringLiteral("http://[4000::1]/"), QStringLiteral("reserved"));
        refuse("mapped loopback", QStringLiteral("http://[::ffff:127.0.0.1]/"),
               QStringLiteral("(IPv4-mapped 127.0.0.1) is a loopback address"));
        refuse("mapped private", QStringLiteral("http://[::ffff:10.0.0.1]/"),
               QStringLiteral("(IPv4-mapped 10.0.0.1) is a private address"));
        refuse("mapped metadata", QStringLiteral("http://[::ffff:169.254.169.254]/"),
               QStringLiteral("link-local (cloud metadata)"));
        refuse("mapped hex", QStringLiteral("http://[::ffff:a9fe:a9fe]/"),
               QStringLiteral("link-local (cloud metadata)"));
        refuse("NAT64 metadata", QStringLiteral("http://[64:ff9b::a9fe:a9fe]/"),
               QStringLiteral("(NAT64 169.254.169.254) is a link-local (cloud metadata) address"));
        refuse("compatible loopback", QStringLiteral("http://[::127.0.0.1]/"),
               QStringLiteral("(IPv4-compatible 127.0.0.1) is a loopback"));
        refuse("translated private", QStringLiteral("http://[::ffff:0:10.0.0.1]/"),
               QStringLiteral("(IPv4-translated 10.0.0.1) is a private"));
        refuse("6to4 private", QStringLiteral("http://[2002:a00:1::1]/"),
               QStringLiteral("(6to4 10.0.0.1) is a private"));
        refuse("local NAT64", QStringLiteral("http://[64:ff9b:1::a00:1]/"),
               QStringLiteral("local-use NAT64"));
        refuse("Teredo", QStringLiteral("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"),
               QStringLiteral("is an IETF protocol (Teredo) address"));
        refuse("IETF protocol block", QStringLiteral("http://[2001:1ff::1]/"),
               QStringLiteral("is an IETF protocol (Teredo) address"));

        // Names (only /etc/hosts is used: localhost, which is 127.0.0.1 alone on some machines
        // and ::1 and 127.0.0.1 on a stock Debian; either is a loopback address).
        refuse("localhost", QStringLiteral("http://localhost:8080/"),
               QStringLiteral("is a loopback address"));
        refuse("LOCALHOST", QStringLiteral("http://LOCALHOST/"),
               QStringLiteral("loopback address"));

        // Public
        allow("public v4", QStringLiteral("http://93.184.216.34/hook"),
              QStringLiteral("93.184.216.34"));
        allow("public https", QStringLiteral("https://8.8.8.8:8443/x?y=1"),
              QStringLiteral("8.8.8.8"));
        allow("public v6", QStringLiteral("https://[2606:4700:4700::1111]/"),
              QStringLiteral("2606:4700:4700::1111"));
        allow("mapped public", QStringLiteral("http://[::ffff:8.8.8.8]/"),
              QStringLiteral("8.8.8.8"));
        allow("NAT64 public", QStringLiteral("http://[64:ff9b::808:808]/"),
              QStringLiteral("64:ff9b::808:808"));
        allow("6to4 public", QStringLiteral("http://[2002:808:808::1]/"),
              QStringLiteral("2002:808:808::1"));
        allow("172.32 is public", QStringLiteral("http://172.32.0.1/"),
              QStringLiteral("172.32.0.1"));
        allow("100.128 is public", QStringLiteral("http://100.128.0.1/"),
              QStringLiteral("100.128.0.1"));

        // --webhook-allow-loopback
        QTest::newRow("loopback on: 127.0.0.1") << QStringLiteral("http://127.0.0.1:9000/") << true
                                                << none << true << QStringLiteral("127.0.0.1");
        QTest::newRow("loopback on: ::1") << QStringLiteral("http://[::1]:9000/") << true << none
                                          << true << QStringLiteral("::1");
        QTest::newRow("loopback on: mapped") << QStringLiteral("http://[::ffff:127.0.0.1]/") << true
                                             << none << true << QStringLiteral("127.0.0.1");
        QTest::newRow("loopback on: localhost") << QStringLiteral("http://localhost/") << true
                                                << none << true << QStringLiteral("<loopback>");
        QTest::newRow("loopback on: 10.0.0.1")
            << QStringLiteral("http://10.0.0.1/") << true << none << false
            << QStringLiteral("10.0.0.1 is a private address");
        QTest::newRow("loopback on: metadata") << QStringLiteral("http://169.254.169.254/") << true
                                               << none << false << QStringLiteral("cloud metadata");
        QTest::newRow("loopback on: NAT64 loopback")
            << QStringLiteral("http://[64:ff9b::7f00:1]/") << true << none << false
            << QStringLiteral("loopback");

        // --webhook-allowlist
        const QStringList cidr{QStringLiteral("10.1.0.0/16")};
        QTest::newRow("allowlist CIDR inside") << QStringLiteral("http://10.1.2.3/") << false
                                               << cidr << true << QStringLiteral("10.1.2.3");
        QTest::newRow("allowlist CIDR mapped")
            << QStringLiteral("http://[::ffff:10.1.2.3]/") << false << cidr << true
            << QStringLiteral("10.1.2.3");
        QTest::newRow("allowlist CIDR outside") << QStringLiteral("http://10.2.0.1/") << false
                                                << cidr << false << QStringLiteral("private");
        QTest::newRow("allowlist v6 CIDR")
            << QStringLiteral("http://[fd12::1]/") << false
            << QStringList{QStringLiteral("fd00::/8")} << true << QStringLiteral("fd12::1");
        // An IPv6 range that takes in IPv4 in IPv6 form reaches it only as narrowly as an IPv4
        // entry may (/8): the settings refuse such an entry, and the policy ignores its width.
        const QStringList mapped{QStringLiteral("::ffff:0:0/96")};
        QTest::newRow("allowlist v6 range over all IPv4: mapped loopback")
            << QStringLiteral("http://[::ffff:127.0.0.1]/") << false << mapped << false
            << QStringLiteral("loopback");
        QTest::newRow("allowlist v6 range over all IPv4: mapped metadata")
            << QStringLiteral("http://[::ffff:169.254.169.254]/") << false << mapped << false
            << QStringLiteral("cloud metadata");
        QTest::newRow("allowlist ::/16: compatible private")
            << QStringLiteral("http://[::10.0.0.1]/") << false
            << QStringList{QStringLiteral("::/16")} << false << QStringLiteral("private");
        QTest::newRow("allowlist 2002::/16: 6to4 private")
            << QStringLiteral("http://[2002:a00:1::1]/") << false
            << QStringList{QStringLiteral("2002::/16")} << false << QStringLiteral("private");
        QTest::newRow("allowlist mapped /104 (10/8)")
            << QStringLiteral("http://[::ffff:10.1.2.3]/") << false
            << QStringList{QStringLiteral("::ffff:10.0.0.0/104")} << true
            << QStringLiteral("10.1.2.3");
        QTest::newRow("allowlist single IP") << QStringLiteral("http://192.168.1.10/") << false
                                             << QStringList{QStringLiteral("192.168.1.10")} << true
                                             << QStringLiteral("192.168.1.10");
        QTest::newRow("allowlist single IP, neighbour")
            << QStringLiteral("http://192.168.1.11/") << false
            << QStringList{QStringLiteral("192.168.1.10")} << false << QStringLiteral("private");
        QTest::newRow("allowlist loopback CIDR")
            << QStringLiteral("http://127.0.0.1/") << false
            << QStringList{QStringLiteral("127.0.0.0/8")} << true << QStringLiteral("127.0.0.1");
        // A listed name reaches public and private-network addresses, never loopback: its DNS
        // may answer 127.0.0.1 between two attempts (rebinding).
        QTest::newRow("allowlist host name, resolving to loopback")
            << QStringLiteral("http://localhost:8080/") << false
            << QStringList{QStringLiteral("LocalHost")} << false
            << QStringLiteral("localhost resolves to");
        QTest::newRow("allowlist other host name")
            << QStringLiteral("http://localhost/") << false
            << QStringList{QStringLiteral("receiver.internal")} << false
            << QStringLiteral("localhost resolves to");
        QTest::newRow("allowlist name is not an IP")
            << QStringLiteral("http://127.0.0.1/") << false
            << QStringList{QStringLiteral("localhost")} << false << QStringLiteral("loopback");
    }

    void policy()
    {
        QFETCH(QString, url);
        QFETCH(bool, allowLoopback);
        QFETCH(QStringList, allowlist);
        QFETCH(bool, allowed);
        QFETCH(QString, expected);

        const UrlPolicy policy(UrlPolicySettings{allowLoopback, allowlist});
        const auto target = policy.parse(url);
        if (!target.ok()) {
            QVERIFY2(!allowed, qPrintable(target.error().message));
            QCOMPARE(target.error().code, QStringLiteral("callback-url-refused"));
            QCOMPARE(target.error().httpStatus, 400);
            QVERIFY2(target.error().message.contains(expected), qPrintable(target.error().message));
            return;
        }
        std::optional<Result<QHostAddress>> result;
        QObject context;
        policy.resolve(*target, &context,
                       [&result](Result<QHostAddress> r) { result.emplace(std::move(r)); });
        QVERIFY2(!result, "done must not run inside resolve()");
        QTRY_VERIFY(result.has_value());
        // The dispatcher's synchronous check of IP literals answers exactly as resolve();
        // for host names it has no answer.
        const auto literal = policy.checkLiteral(*target);
        QCOMPARE(literal.has_value(), !QHostAddress(target->host).isNull());
        if (literal) {
            QCOMPARE(literal->ok(), result->ok());
            if (literal->ok())
                QCOMPARE(literal->value(), result->value());
            else
                QCOMPARE(literal->error().message, result->error().message);
        }
        if (allowed) {
            QVERIFY2(result->ok(), qPrintable(result->ok() ? QString() : result->error().message));
            if (expected == QStringLiteral("<loopback>")) // localhost: ::1 or 127.0.0.1
                QVERIFY2(result->value().isLoopback(), qPrintable(result->value().toString()));
            else
                QCOMPARE(result->value().toString(), expected);
            // The same rule directly (an allowlisted name may also reach private networks).
            if (!policy.isAllowlistedHost(target->host))
                QVERIFY(policy.checkAddress(result->value()).ok());
        } else {
            QVERIFY2(!result->ok(),
                     qPrintable(result->ok() ? result->value().toString() : QString()));
            QCOMPARE(result->error().code, QStringLiteral("callback-url-refused"));
            QCOMPARE(result->error().httpStatus, 400);
            QVERIFY2(result->error().message.contains(expected),
                     qPrintable(result->error().message));
        }
    }

    void parseAnswersTheSameFromItsCache()
    {
        // parse() keeps its answers per thread (at most 256 texts, then it starts over): the
        // answer for a text is the same the first time, the second, after the cache was
        // emptied by 600 other texts, on another thread, and under other settings.
        const QStringList urls{QStringLiteral("https://hooks.example.com:8443/a/b?x=1&y=%20z"),
                               QStringLiteral("http://[2606:4700:4700::1111]/x"),
                               QStringLiteral("http://user:pw@example.com/"),
                               QStringLiteral("ftp://example.com/"),
                               QStringLiteral("http://10.0.0.1/private")};
        const auto describe = [](const Result<CallbackTarget> &r) {
            if (!r.ok())
                return QStringLiteral("refused %1 %2: %3")
                    .arg(r.error().code)
                    .arg(r.error().httpStatus)
                    .arg(r.error().message);
            return QStringLiteral("%1 %2 %3 %4 %5 %6")
                .arg(r->url.toString(QUrl::FullyEncoded), r->host)
                .arg(r->port)
                .arg(QString::fromLatin1(r->hostHeader), QString::fromLatin1(r->pathAndQuery))
                .arg(r->tls);
        };
        const UrlPolicy strict;
        const UrlPolicy loose(UrlPolicySettings{true, {QStringLiteral("example.com")}});
        QStringList first;
        for (const QString &u : urls)
            first.append(describe(strict.parse(u)));
        QVERIFY(
            first.at(0).startsWith(QStringLiteral("https://hooks.example.com:8443/a/b?x=1&y=%20z "
                                                  "hooks.example.com 8443")));
        QVERIFY(first.at(2).startsWith(QStringLiteral("refused callback-url-refused 400: ")));
        QVERIFY(first.at(3).contains(QStringLiteral("scheme ftp is not allowed")));
        for (const QString &u : urls)
            QCOMPARE(describe(loose.parse(u)), first.at(urls.indexOf(u)));
        for (int i = 0; i < 600; ++i) {
            const auto r = strict.parse(QStringLiteral("https://h%1.example.com/p?i=%1").arg(i));
            QVERIFY(r.ok());
            QCOMPARE(r->host, QStringLiteral("h%1.example.com").arg(i));
            QCOMPARE(r->pathAndQuery, "/p?i=" + QByteArray::number(i));
        }
        for (const QString &u : urls)
            QCOMPARE(describe(strict.parse(u)), first.at(urls.indexOf(u)));
        QStringList elsewhere;
        std::unique_ptr<QThread> t(QThread::create([&] {
            for (const QString &u : urls)
                elsewhere.append(describe(strict.parse(u)));
        }));
        t->start();
        QVERIFY(t->wait(10000));
        QCOMPARE(elsewhere, first);
    }

    void parsedTarget_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QByteArray>("hostHeader");
        QTest::addColumn<QByteArray>("pathAndQuery");

        QTest::newRow("http default port")
            << QStringLiteral("HTTP://Example.COM") << false << QStringLiteral("example.com") << 80
            << QByteArray("example.com") << QByteArray("/");
        QTest::newRow("https default port")
            << QStringLiteral("https://hooks.example.com/orders") << true
            << QStringLiteral("hooks.example.com") << 443 << QByteArray("hooks.example.com")
            << QByteArray("/orders");
        QTest::newRow("explicit default port")
            << QStringLiteral("https://example.com:443/a") << true << QStringLiteral("example.com")
            << 443 << QByteArray("example.com") << QByteArray("/a");
        QTest::newRow("other scheme's port")
            << QStringLiteral("http://example.com:443/a") << false << QStringLiteral("example.com")
            << 443 << QByteArray("example.com:443") << QByteArray("/a");
        QTest::newRow("port and query")
            << QStringLiteral("https://example.com:8443/a/b?x=1&y=%20z") << true
            << QStringLiteral("example.com") << 8443 << QByteArray("example.com:8443")
            << QByteArray("/a/b?x=1&y=%20z");
        QTest::newRow("empty query kept")
            << QStringLiteral("http://example.com/a?") << false << QStringLiteral("example.com")
            << 80 << QByteArray("example.com") << QByteArray("/a?");
        QTest::newRow("IPv6 literal")
            << QStringLiteral("http://[2606:4700:4700::1111]:8080/x") << false
            << QStringLiteral("2606:4700:4700::1111") << 8080
            << QByteArray("[2606:4700:4700::1111]:8080") << QByteArray("/x");
        QTest::newRow("IPv6 default port")
            << QStringLiteral("https://[2606:4700:4700::1111]") << true
            << QStringLiteral("2606:4700:4700::1111") << 443 << QByteArray("[2606:4700:4700::1111]")
            << QByteArray("/");
        QTest::newRow("IDN as ACE") << QStringLiteral("https://b\u00fccher.example/") << true
                                    << QStringLiteral("xn--bcher-kva.example") << 443
                                    << QByteArray("xn--bcher-kva.example") << QByteArray("/");
        QTest::newRow("decimal IPv4 normalised")
            << QStringLiteral("http://1572395042/") << false << QStringLiteral("93.184.216.34")
            << 80 << QByteArray("93.184.216.34") << QByteArray("/");
        QTest::newRow("percent-encoded path")
            << QStringLiteral("http://example.com/a%2Fb/%7Euser") << false
            << QStringLiteral("example.com") << 80 << QByteArray("example.com")
            << QByteArray("/a%2Fb/~user");
    }

    void parsedTarget()
    {
        QFETCH(QString, url);
        QFETCH(bool, tls);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QByteArray, hostHeader);
        QFETCH(QByteArray, pathAndQuery);

        const auto target = UrlPolicy().parse(url);
        QVERIFY2(target.ok(), qPrintable(messageOf(target)));
        QCOMPARE(target->tls, tls);
        QCOMPARE(target->host, host);
        QCOMPARE(int(target->port), port);
        QCOMPARE(target->hostHeader, hostHeader);
        QCOMPARE(target->pathAndQuery, pathAndQuery);
        QVERIFY(target->url.isValid());
    }

    void checkAddressDirect()
    {
        const UrlPolicy policy;
        QVERIFY(!policy.checkAddress(QHostAddress()).ok());
        QVERIFY(policy.checkAddress(QHostAddress(QStringLiteral("1.1.1.1"))).ok());
        QHostAddress scoped(QStringLiteral("fe80::1"));
        scoped.setScopeId(QStringLiteral("eth0"));
        const auto r = policy.checkAddress(scoped);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("link-local")),
                 qPrintable(r.error().message));
        QVERIFY(!policy.checkAddress(QHostAddress(QHostAddress::Broadcast)).ok());
        QVERIFY(!policy.checkAddress(QHostAddress(QHostAddress::AnyIPv4)).ok());
        // Invalid allowlist entries are ignored, not fatal.
        QTest::ignoreMessage(QtWarningMsg,
                             "ignoring invalid webhook allowlist entry \"10.0.0.0/99\"");
        const UrlPolicy lenient(
            UrlPolicySettings{false, {QStringLiteral("10.0.0.0/99"), QStringLiteral(" ")}});
        QVERIFY(!lenient.checkAddress(QHostAddress(QStringLiteral("10.0.0.1"))).ok());
        QCOMPARE(lenient.settings().allowlist.size(), 2);
    }

    void resolveLocalhostRefused()
    {
        const UrlPolicy policy;
        const auto target = policy.parse(QStringLiteral("http://localhost:9999/hook"));
        QVERIFY(target.ok());
        std::optional<Result<QHostAddress>> result;
        QObject context;
        policy.resolve(*target, &context,
                       [&result](Result<QHostAddress> r) { result.emplace(std::move(r)); });
        QVERIFY(!result);
        QTRY_VERIFY(result.has_value());
        QVERIFY(!result->ok());
        const QString message = result->error().message;
        QVERIFY2(message.contains(QStringLiteral("localhost")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("127.0.0.1")) ||
                     message.contains(QStringLiteral("::1")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("loopback")), qPrintable(message));
    }

    void resolveLocalhostWithLoopbackAllowed()
    {
        const UrlPolicy policy(UrlPolicySettings{true, {}});
        const auto target = policy.parse(QStringLiteral("http://localhost:9999/hook"));
        QVERIFY(target.ok());
        std::optional<Result<QHostAddress>> result;
        QObject context;
        policy.resolve(*target, &context,
                       [&result](Result<QHostAddress> r) { result.emplace(std::move(r)); });
        QTRY_VERIFY(result.has_value());
        QVERIFY2(result->ok(), qPrintable(result->ok() ? QString() : result->error().message));
        QVERIFY(result->value().isLoopback());
    }

    void resolveLiteralWithoutDns()
    {
        const UrlPolicy policy;
        const auto target = policy.parse(QStringLiteral("https://[2606:4700:4700::1111]:8443/"));
        QVERIFY(target.ok());
        std::optional<Result<QHostAddress>> result;
        QObject context;
        QElapsedTimer clock;
        clock.start();
        policy.resolve(*target, &context,
                       [&result](Result<QHostAddress> r) { result.emplace(std::move(r)); });
        QVERIFY(!result);
        // One pass of the event loop is enough: no lookup is involved.
        QCoreApplication::processEvents();
        QVERIFY(result.has_value());
        QVERIFY(result->ok());
        QCOMPARE(result->value(), QHostAddress(QStringLiteral("2606:4700:4700::1111")));
    }

    void resolveUnknownHost()
    {
        const UrlPolicy policy;
        const auto target = policy.parse(QStringLiteral("https://nonexistent.invalid/hook"));
        QVERIFY(target.ok());
        std::optional<Result<QHostAddress>> result;
        QObject context;
        policy.resolve(*target, &context,
                       [&result](Result<QHostAddress> r) { result.emplace(std::move(r)); });
        QVERIFY(!result);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 30000);
        QVERIFY(!result->ok());
        QCOMPARE(result->error().code, QStringLiteral("callback-host-unresolved"));
        QCOMPARE(result->error().httpStatus, 400);
        QVERIFY2(result->error().message.startsWith(
                     QStringLiteral("cannot resolve host nonexistent.invalid")),
                 qPrintable(result->error().message));
    }

    void resolveOutlivesPolicyAndContext()
    {
        const auto target = UrlPolicy().parse(QStringLiteral("http://8.8.4.4/"));
        QVERIFY(target.ok());
        std::optional<Result<QHostAddress>> first;
        std::optional<Result<QHostAddress>> second;
        QObject context;
        {
            // The policy goes away before the answer comes.
            auto policy = std::make_unique<UrlPolicy>();
            policy->resolve(*target, &context,
                            [&first](Result<QHostAddress> r) { first.emplace(std::move(r)); });
        }
        // A destroyed context gets no call.
        bool called = false;
        {
            auto gone = std::make_unique<QObject>();
            UrlPolicy().resolve(*target, gone.get(),
                                [&called](const Result<QHostAddress> &) { called = true; });
        }
        UrlPolicy().resolve(*target, &context,
                            [&second](Result<QHostAddress> r) { second.emplace(std::move(r)); });
        QTRY_VERIFY(first.has_value() && second.has_value());
        QVERIFY(first->ok());
        QCOMPARE(first->value(), QHostAddress(QStringLiteral("8.8.4.4")));
        QVERIFY(!called);
    }

    // ---- Response parser (socket-free) -------------------------------------------------

    void parser_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<bool>("closeAfter"); // finish() after the bytes
        QTest::addColumn<int>("status");      // 0: failed
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("bodyBytes");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<QString>("error");

        const QByteArray post = "POST";
        QTest::newRow("content-length")
            << post << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") << false
            << 200 << QByteArray("hello") << qint64(5) << true << QString();
        QTest::newRow("bare LF") << post
                                 << QByteArray("HTTP/1.1 201 Created\nContent-Length: 2\n\nok")
                                 << false << 201 << QByteArray("ok") << qint64(2) << true
                                 << QString();
        QTest::newRow("no reason phrase")
            << post << QByteArray("HTTP/1.1 202\r\nContent-Length: 0\r\n\r\n") << false << 202
            << QByteArray() << qint64(0) << true << QString();
        QTest::newRow("chunked with trailers")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-T: 1\r\n\r\n")
            << false << 200 << QByteArray("hello world") << qint64(11) << true << QString();
        QTest::newRow("until close")
            << post << QByteArray("HTTP/1.1 200 OK\r\n\r\nuntil the end") << true << 200
            << QByteArray("until the end") << qint64(13) << false << QString();
        QTest::newRow("HTTP/1.0 closes")
            << post << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx") << false << 200
            << QByteArray("x") << qint64(1) << false << QString();
        QTest::newRow("HTTP/1.0 keep-alive")
            << post
            << QByteArray("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx")
            << false << 200 << QByteArray("x") << qint64(1) << true << QString();
        QTest::newRow("connection close")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 1\r\n\r\nx")
            << false << 200 << QByteArray("x") << qint64(1) << false << QString();
        QTest::newRow("204 has no body")
            << post << QByteArray("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n") << false
            << 204 << QByteArray() << qint64(0) << true << QString();
        QTest::newRow("304 has no body")
            << post << QByteArray("HTTP/1.1 304 Not Modified\r\n\r\n") << false << 304
            << QByteArray() << qint64(0) << true << QString();
        QTest::newRow("HEAD has no body")
            << QByteArray("HEAD") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n")
            << false << 200 << QByteArray() << qint64(0) << true << QString();
        QTest::newRow("interim responses skipped")
            << post
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n"
                          "\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            << false << 200 << QByteArray("ok") << qint64(2) << true << QString();
        QTest::newRow("same Content-Length twice")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok")
            << false << 200 << QByteArray("ok") << qint64(2) << true << QString();
        QTest::newRow("TE beats CL, no reuse")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked"
                          "\r\n\r\n2\r\nok\r\n0\r\n\r\n")
            << false << 200 << QByteArray("ok") << qint64(2) << false << QString();
        QTest::newRow("gzip then until close")
            << post << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz") << true
            << 200 << QByteArray("zz") << qint64(2) << false << QString();
        QTest::newRow("obs-fold unfolded")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: 0\r\n\r\n")
            << false << 200 << QByteArray() << qint64(0) << true << QString();

        QTest::newRow("HTTP/2 status line")
            << post << QByteArray("HTTP/2 200 OK\r\n\r\n") << false << 0 << QByteArray()
            << qint64(0) << false << QStringLiteral("malformed response: unsupported HTTP version");
        QTest::newRow("not HTTP") << post << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false << 0
                                  << QByteArray() << qint64(0) << false
                                  << QStringLiteral("malformed response: malformed status line");
        QTest::newRow("letters in status")
            << post << QByteArray("HTTP/1.1 2OO OK\r\n\r\n") << false << 0 << QByteArray()
            << qint64(0) << false << QStringLiteral("malformed response: malformed status code");
        QTest::newRow("status out of range")
            << post << QByteArray("HTTP/1.1 700 Odd\r\n\r\n") << false << 0 << QByteArray()
            << qint64(0) << false
            << QStringLiteral("malformed response: status code 700 out of range");
        QTest::newRow("101") << post << QByteArray("HTTP/1.1 101 Switching Protocols\r\n\r\n")
                             << false << 0 << QByteArray() << qint64(0) << false
                             << QStringLiteral(
                                    "malformed response: unexpected 101 Switching Protocols");
        QTest::newRow("bad Content-Length")
            << post << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") << false << 0
            << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: invalid Content-Length");
        QTest::newRow("conflicting Content-Length")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
            << false << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: invalid Content-Length");
        QTest::newRow("bad header line")
            << post << QByteArray("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n") << false << 0
            << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: malformed header field");
        QTest::newRow("space before colon")
            << post << QByteArray("HTTP/1.1 200 OK\r\nX-A : 1\r\n\r\n") << false << 0
            << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: malformed header field");
        QTest::newRow("bad chunk size")
            << post << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            << false << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: malformed chunk size");
        QTest::newRow("chunk without CRLF")
            << post
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokay\r\n")
            << false << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: chunk data not followed by CRLF");
        QTest::newRow("double chunked")
            << post << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n")
            << false << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: chunked applied more than once or not last");
        QTest::newRow("head too large")
            << post << QByteArray("HTTP/1.1 200 OK\r\nX: " + QByteArray(17000, 'a') + "\r\n\r\n")
            << false << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("malformed response: response head exceeds 16384 bytes");
        QTest::newRow("closed early")
            << post << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf") << true << 0
            << QByteArray() << qint64(0) << false
            << QStringLiteral("incomplete response: connection closed after 4 of 10 body bytes");
        QTest::newRow("closed in chunked body")
            << post << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
            << true << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("incomplete response: connection closed inside the chunked body");
        QTest::newRow("closed in head")
            << post << QByteArray("HTTP/1.1 200 OK\r\nContent-") << true << 0 << QByteArray()
            << qint64(0) << false
            << QStringLiteral("incomplete response: connection closed in the response head");
        QTest::newRow("closed at once")
            << post << QByteArray() << true << 0 << QByteArray() << qint64(0) << false
            << QStringLiteral("connection closed before any response");
    }

    // Whole, byte by byte and split at every point: the same answer.
    void parser()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, input);
        QFETCH(bool, closeAfter);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(qint64, bodyBytes);
        QFETCH(bool, keepAlive);
        QFETCH(QString, error);

        auto check = [&](Http1ResponseParser &p, const char *how) {
            if (closeAfter)
                p.finish();
            const OutboundResponse r = p.toResponse();
            const QByteArray where = QByteArray(how) + ": " + r.error.toUtf8();
            QVERIFY2(r.status == status, where.constData());
            QVERIFY2(r.error == error, where.constData());
            QVERIFY2(r.body == body, where.constData());
            QVERIFY2(r.bodyBytes == bodyBytes, where.constData());
            if (status != 0)
                QVERIFY2(p.keepAlive() == keepAlive, where.constData());
        };
        {
            Http1ResponseParser p(method);
            p.feed(input);
            check(p, "whole");
        }
        {
            Http1ResponseParser p(method);
            for (char c : std::as_const(input))
                p.feed(QByteArrayView(&c, 1));
            check(p, "byte by byte");
        }
        for (qsizetype split = 1; split < input.size() && input.size() < 400; ++split) {
            Http1ResponseParser p(method);
            const qsizetype used = p.feed(QByteArrayView(input).first(split));
            QVERIFY(used <= split);
            if (used == split)
                p.feed(QByteArrayView(input).sliced(split));
            check(p, "split");
        }
    }

    void parserHeadersAndLeftover()
    {
        Http1ResponseParser p("POST", 16 * 1024, 3);
        const QByteArray input = "HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Type: text/plain"
                                 "\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\n";
        const qsizetype used = p.feed(input);
        QCOMPARE(used, input.indexOf("helloHTTP") + 5);
        QVERIFY(p.done());
        QCOMPARE(p.header("x-a"), QByteArray("one two"));
        QCOMPARE(p.header("content-type"), QByteArray("text/plain"));
        QCOMPARE(p.body(), QByteArray("hel"));
        QCOMPARE(p.bodyBytes(), qint64(5));
        QCOMPARE(p.feed("more"), qsizetype(0));
    }

    // ---- HttpClient -------------------------------------------------------------------

    void contentLengthResponse()
    {
        TestServer server(reply("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                                "Content-Length: 5\r\n\r\nhello"));
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QVERIFY(!got);
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 200);
        QVERIFY(got->ok());
        QCOMPARE(got->body, QByteArray("hello"));
        QCOMPARE(got->bodyBytes, qint64(5));
        QCOMPARE(got->header("content-type"), QByteArray("text/plain"));
        QVERIFY(got->latencyMs > 0);
        QCOMPARE(server.requests.size(), 1);
    }

    void chunkedResponse()
    {
        TestServer server([](QTcpSocket *s, const SeenRequest &) {
            // In pieces, to cross read boundaries.
            s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            s->flush();
            s->write("5;ext=1\r\nhello\r\n");
            s->flush();
            s->write("6\r\n world\r\n0\r\nX-Checksum: abc\r\n\r\n");
        });
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 200);
        QCOMPARE(got->body, QByteArray("hello world"));
        QCOMPARE(got->bodyBytes, qint64(11));
        QCOMPARE(client.idleConnections(), 1);
    }

    void readUntilClose()
    {
        TestServer server(replyAndClose("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
                                        "all of it until the end"));
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 200);
        QCOMPARE(got->body, QByteArray("all of it until the end"));
        QCOMPARE(client.openConnections(), 0);
    }

    void noContent()
    {
        TestServer server(reply("HTTP/1.1 204 No Content\r\n\r\n"));
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 204);
        QVERIFY(got->ok());
        QVERIFY(got->body.isEmpty());
        QCOMPARE(client.idleConnections(), 1);
    }

    void redirectNotFollowed()
    {
        TestServer server;
        QVERIFY(server.start());
        const QByteArray location =
            "http://127.0.0.1:" + QByteArray::number(server.port()) + "/elsewhere";
        server.setHandler(
            reply("HTTP/1.1 302 Found\r\nLocation: " + location + "\r\nContent-Length: 0\r\n\r\n"));
        std::optional<OutboundResponse> got;
        int requestsAtAnswer = -1;
        HttpClient client;
        client.send(requestTo(server.port()), [&](OutboundResponse r) {
            requestsAtAnswer = int(server.requests.size());
            got = std::move(r);
        });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 302);
        QVERIFY(!got->ok());
        QVERIFY(got->error.isEmpty());
        QCOMPARE(got->header("location"), location);
        QCOMPARE(requestsAtAnswer, 1);
        QCOMPARE(server.requests.size(), 1);
    }

    void bodyKeptUpToCap_data()
    {
        QTest::addColumn<int>("cap");
        QTest::addColumn<int>("length");
        QTest::addColumn<bool>("chunked");
        QTest::newRow("default cap, Content-Length") << -1 << 10000 << false;
        QTest::newRow("default cap, chunked") << -1 << 10000 << true;
        QTest::newRow("small cap") << 10 << 100 << false;
        QTest::newRow("zero cap") << 0 << 100 << true;
        QTest::newRow("below cap") << -1 << 4000 << false;
    }

    void bodyKeptUpToCap()
    {
        QFETCH(int, cap);
        QFETCH(int, length);
        QFETCH(bool, chunked);
        QByteArray payload;
        for (int i = 0; i < length; ++i)
            payload.append(char('a' + i % 26));
        QByteArray raw = "HTTP/1.1 500 Internal Server Error\r\n";
        if (chunked) {
            raw += "Transfer-Encoding: chunked\r\n\r\n";
            for (qsizetype at = 0; at < payload.size(); at += 1000) {
                const QByteArray part = payload.mid(at, 1000);
                raw += QByteArray::number(part.size(), 16) + "\r\n" + part + "\r\n";
            }
            raw += "0\r\n\r\n";
        } else {
            raw += "Content-Length: " + QByteArray::number(length) + "\r\n\r\n" + payload;
        }
        TestServer server(reply(raw));
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        if (cap >= 0)
            client.setMaxKeptBodyBytes(cap);
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 500);
        const int kept = qMin(length, cap >= 0 ? cap : 4096);
        QCOMPARE(got->body, payload.left(kept));
        QCOMPARE(got->bodyBytes, qint64(length));
        QCOMPARE(client.idleConnections(), 1); // fully read: reusable
    }

    void responseTooLarge()
    {
        TestServer server(
            reply("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + QByteArray(100000, 'x')));
        QVERIFY(server.start());
        std::optional<OutboundResponse> got;
        HttpClient client;
        client.setMaxResponseBytes(2000);
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 200); // status kept
        QCOMPARE(got->body.size(), 2000 - qsizetype(QByteArray("HTTP/1.1 200 OK\r\nContent-Length: "
                                                               "100000\r\n\r\n")
                                                        .size()));
        QVERIFY(got->bodyBytes < 100000);
        QCOMPARE(client.openConnections(), 0); // closed, not pooled

        // Headers alone over the limit: an error.
        TestServer big(reply("HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(5000, 'b') +
                             "\r\nContent-Length: 0\r\n\r\n"));
        QVERIFY(big.start());
        got.reset();
        client.send(requestTo(big.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 0);
        QVERIFY2(got->error.startsWith(QStringLiteral("response too large")),
                 qPrintable(got->error));
        QCOMPARE(client.openConnections(), 0);
    }

    void keepAliveReuse()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> first;
        client.send(requestTo(server.port()),
                    [&first](OutboundResponse r) { first = std::move(r); });
        QTRY_VERIFY(first.has_value());
        QCOMPARE(first->status, 200);
        QCOMPARE(client.openConnections(), 1);
        QCOMPARE(client.idleConnections(), 1);
        std::optional<OutboundResponse> second;
        client.send(requestTo(server.port()),
                    [&second](OutboundResponse r) { second = std::move(r); });
        QTRY_VERIFY(second.has_value());
        QCOMPARE(second->status, 200);
        QCOMPARE(server.connections, 1);
        QCOMPARE(server.requests.size(), 2);
        QCOMPARE(server.requests.at(1).indexOnConnection, 1);
        QCOMPARE(client.openConnections(), 1);
    }

    // Bytes an idle connection received that the event loop has not read yet (an unsolicited
    // response after the last answer): the connection is not reused. Before, a stray 410 was
    // read as the next delivery's answer (another order's, another endpoint's), and disabled its
    // endpoint.
    void noReuseOfAConnectionWithUnreadBytes()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> first;
        client.send(requestTo(server.port()),
                    [&first](OutboundResponse r) { first = std::move(r); });
        QTRY_VERIFY(first.has_value());
        QCOMPARE(first->status, 200);
        QCOMPARE(client.idleConnections(), 1);
        // Written to the kernel now; the client's event loop does not run before the next send.
        QTcpSocket *serverSide = server.sockets.at(0);
        serverSide->write("HTTP/1.1 410 Gone\r\nContent-Length: 5\r\n\r\nstray");
        QVERIFY(serverSide->waitForBytesWritten(1000) || serverSide->bytesToWrite() == 0);
        std::optional<OutboundResponse> second;
        client.send(requestTo(server.port()),
                    [&second](OutboundResponse r) { second = std::move(r); });
        QTRY_VERIFY(second.has_value());
        QCOMPARE(second->status, 200);
        QCOMPARE(second->body, first->body);
        QCOMPARE(server.connections, 2);
        QCOMPARE(server.requests.size(), 2);
    }

    void noReuseAfterConnectionClose()
    {
        TestServer server(reply("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n"
                                "\r\nok"));
        QVERIFY(server.start());
        HttpClient client;
        int answers = 0;
        client.send(requestTo(server.port()),
                    [&answers](const OutboundResponse &r) { answers += r.status == 200 ? 1 : 0; });
        QTRY_COMPARE(answers, 1);
        QCOMPARE(client.openConnections(), 0);
        client.send(requestTo(server.port()),
                    [&answers](const OutboundResponse &r) { answers += r.status == 200 ? 1 : 0; });
        QTRY_COMPARE(answers, 2);
        QCOMPARE(server.connections, 2);
    }

    // The server closes the connection right after the response; the next send (started
    // from the callback, before the close is noticed) still succeeds.
    void staleConnectionAfterServerClose()
    {
        TestServer server(replyAndClose(kOk));
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> second;
        client.send(requestTo(server.port()), [&](const OutboundResponse &r) {
            QCOMPARE(r.status, 200);
            client.send(requestTo(server.port()),
                        [&second](OutboundResponse r2) { second = std::move(r2); });
        });
        QTRY_VERIFY(second.has_value());
        QVERIFY2(second->error.isEmpty(), qPrintable(second->error));
        QCOMPARE(second->status, 200);
        QCOMPARE(server.connections, 2);
    }

    // A pooled connection that fails before any response byte is retried once on a fresh
    // connection.
    void staleConnectionRetried()
    {
        TestServer server([](QTcpSocket *s, const SeenRequest &request) {
            if (request.connection == 0 && request.indexOnConnection == 1) {
                s->abort(); // as if the idle connection had been closed meanwhile
                return;
            }
            s->write(kOk);
        });
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> got;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(client.idleConnections(), 1);
        got.reset();
        client.send(requestTo(server.port(), "second"),
                    [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 200);
        QCOMPARE(server.connections, 2);
        QCOMPARE(server.requests.size(), 3);
        QCOMPARE(server.requests.at(2).body, QByteArray("second"));
        QCOMPARE(server.requests.at(2).connection, 1);
    }

    // A fresh connection that closes without an answer is not retried.
    void freshConnectionNotRetried()
    {
        TestServer server([](QTcpSocket *s, const SeenRequest &) { s->disconnectFromHost(); });
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> got;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 0);
        QCOMPARE(got->error, QStringLiteral("connection closed before any response"));
        QCOMPARE(server.requests.size(), 1);
        QCOMPARE(server.connections, 1);
    }

    void timeout()
    {
        TestServer server([](QTcpSocket *, const SeenRequest &) {}); // never answers
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> got;
        OutboundRequest request = requestTo(server.port());
        request.timeoutMs = 300;
        QElapsedTimer clock;
        clock.start();
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 5000);
        const qint64 elapsed = clock.elapsed();
        QCOMPARE(got->status, 0);
        QCOMPARE(got->error, QStringLiteral("timed out after 300 ms"));
        QVERIFY2(elapsed >= 299 && elapsed < 2300, qPrintable(QString::number(elapsed)));
        QVERIFY(got->latencyMs >= 299);
        QCOMPARE(client.openConnections(), 0);
        QCOMPARE(server.requests.size(), 1);
    }

    void timeoutsOfDifferentLengths()
    {
        // One timer serves every deadline: a shorter timeout sent after a longer one still
        // ends on time, and the longer one neither early nor late.
        TestServer server([](QTcpSocket *, const SeenRequest &) {}); // never answers
        QVERIFY(server.start());
        HttpClient client;
        QElapsedTimer clock;
        clock.start();
        qint64 longAt = -1;
        qint64 shortAt = -1;
        QString longError;
        QString shortError;
        OutboundRequest slow = requestTo(server.port());
        slow.timeoutMs = 1200;
        client.send(slow, [&](const OutboundResponse &r) {
            longAt = clock.elapsed();
            longError = r.error;
        });
        OutboundRequest quick = requestTo(server.port());
        quick.timeoutMs = 200;
        client.send(quick, [&](const OutboundResponse &r) {
            shortAt = clock.elapsed();
            shortError = r.error;
        });
        QTRY_VERIFY_WITH_TIMEOUT(longAt >= 0, 5000);
        QCOMPARE(shortError, QStringLiteral("timed out after 200 ms"));
        QCOMPARE(longError, QStringLiteral("timed out after 1200 ms"));
        QVERIFY2(shortAt >= 199 && shortAt < 1000, qPrintable(QString::number(shortAt)));
        QVERIFY2(longAt >= 1199, qPrintable(QString::number(longAt)));
        QCOMPARE(client.openConnections(), 0);
    }

    void connectionRefused()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        } // nothing listens there now
        HttpClient client;
        std::optional<OutboundResponse> got;
        client.send(requestTo(port), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 0);
        QCOMPARE(got->error, QStringLiteral("connection refused"));
        QCOMPARE(client.openConnections(), 0);
    }

    void malformedResponse_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<QString>("error");
        QTest::newRow("garbage status line")
            << QByteArray("HELLO THERE\r\n\r\n")
            << QStringLiteral("malformed response: malformed status line");
        QTest::newRow("HTTP/0.9 style body")
            << QByteArray("<html>hi</html>\r\n\r\n")
            << QStringLiteral("malformed response: malformed status line");
        QTest::newRow("HTTP/2") << QByteArray("HTTP/2.0 200 OK\r\n\r\n")
                                << QStringLiteral("malformed response: unsupported HTTP version");
        QTest::newRow("bad status code")
            << QByteArray("HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n")
            << QStringLiteral("malformed response: malformed status code");
        QTest::newRow("bad Content-Length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n")
            << QStringLiteral("malformed response: invalid Content-Length");
    }

    void malformedResponse()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QString, error);
        TestServer server(reply(raw));
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> got;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 0);
        QCOMPARE(got->error, error);
        QVERIFY(!got->ok());
        QCOMPARE(client.openConnections(), 0);
    }

    void requestBytesExactlyAsSent()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        OutboundRequest request;
        request.address = QHostAddress(QHostAddress::LocalHost);
        request.port = server.port();
        request.pathAndQuery = "/hooks/orders?tenant=a%20b";
        request.hostHeader = "receiver.example:8443";
        request.headers = {
            qMakePair(QByteArray("Content-Type"), QByteArray("application/json")),
            qMakePair(QByteArray("webhook-id"), QByteArray("msg_123")),
            // The client owns framing: these are ignored.
            qMakePair(QByteArray("Content-Length"), QByteArray("0")),
            qMakePair(QByteArray("Transfer-Encoding"), QByteArray("chunked")),
            qMakePair(QByteArray("Host"), QByteArray("evil.example")),
        };
        static const char raw[] = "{\"orderId\":\"o-1\",\"x\":\"\r\n\\u0000\"}\0tail";
        const QByteArray body(raw, sizeof(raw) - 1); // with the NUL byte
        request.body = body;
        std::optional<OutboundResponse> got;
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 200);
        QCOMPARE(server.requests.size(), 1);
        const SeenRequest &seen = server.requests.first();
        QCOMPARE(seen.requestLine(), QByteArray("POST /hooks/orders?tenant=a%20b HTTP/1.1"));
        QCOMPARE(seen.header("host"), QByteArray("receiver.example:8443"));
        QCOMPARE(seen.headerCount("host"), 1);
        QCOMPARE(seen.header("content-length"), QByteArray::number(body.size()));
        QCOMPARE(seen.headerCount("content-length"), 1);
        QCOMPARE(seen.headerCount("transfer-encoding"), 0);
        QCOMPARE(seen.header("user-agent"), QByteArray("Gatehouse-Webhooks/1"));
        QCOMPARE(seen.header("connection"), QByteArray("keep-alive"));
        QCOMPARE(seen.header("content-type"), QByteArray("application/json"));
        QCOMPARE(seen.header("webhook-id"), QByteArray("msg_123"));
        QCOMPARE(seen.body, body);
    }

    void defaultHostHeader()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        OutboundRequest request = requestTo(server.port());
        request.hostHeader.clear();
        std::optional<OutboundResponse> got;
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(server.requests.first().header("host"),
                 "127.0.0.1:" + QByteArray::number(server.port()));
    }

    void invalidRequestRefused_data()
    {
        QTest::addColumn<QByteArray>("headerName");
        QTest::addColumn<QByteArray>("headerValue");
        QTest::addColumn<QByteArray>("path");
        QTest::newRow("CRLF in value")
            << QByteArray("X-A") << QByteArray("a\r\nX-Evil: 1") << QByteArray("/");
        QTest::newRow("bad name") << QByteArray("X A") << QByteArray("1") << QByteArray("/");
        QTest::newRow("space in path")
            << QByteArray("X-A") << QByteArray("1") << QByteArray("/a b HTTP/1.1\r\nX: y");
    }

    void invalidRequestRefused()
    {
        QFETCH(QByteArray, headerName);
        QFETCH(QByteArray, headerValue);
        QFETCH(QByteArray, path);
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        OutboundRequest request = requestTo(server.port());
        request.headers.append(qMakePair(headerName, headerValue));
        request.pathAndQuery = path;
        std::optional<OutboundResponse> got;
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QVERIFY(!got); // not even an invalid request is answered synchronously
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 0);
        QVERIFY2(got->error.startsWith(QStringLiteral("invalid request")), qPrintable(got->error));
        QCOMPARE(server.connections, 0);
    }

    void interimResponseSkipped()
    {
        TestServer server(reply("HTTP/1.1 100 Continue\r\n\r\n"
                                "HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n"
                                "HTTP/1.1 201 Created\r\nContent-Length: 7\r\n\r\ncreated"));
        QVERIFY(server.start());
        HttpClient client;
        std::optional<OutboundResponse> got;
        client.send(requestTo(server.port()), [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
        QCOMPARE(got->status, 201);
        QCOMPARE(got->body, QByteArray("created"));
        QVERIFY(got->header("link").isNull());
    }

    void headRequest()
    {
        TestServer server(reply("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n"));
        QVERIFY(server.start());
        HttpClient client;
        OutboundRequest request = requestTo(server.port(), QByteArray());
        request.method = "HEAD";
        std::optional<OutboundResponse> got;
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->status, 200);
        QCOMPARE(got->bodyBytes, qint64(0));
        QCOMPARE(server.requests.first().headerCount("content-length"), 0);
        QCOMPARE(client.idleConnections(), 1);
    }

    void idleConnectionsExpireAndAreCapped()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        client.setIdleTimeoutMs(50);
        int answers = 0;
        client.send(requestTo(server.port()), [&answers](const OutboundResponse &) { ++answers; });
        QTRY_COMPARE(answers, 1);
        QCOMPARE(client.idleConnections(), 1);
        QTRY_COMPARE(client.openConnections(), 0); // idle timeout
        QTRY_COMPARE(server.sockets.count(nullptr), server.sockets.size());

        HttpClient none;
        none.setMaxIdleConnectionsPerTarget(0);
        none.send(requestTo(server.port()), [&answers](const OutboundResponse &) { ++answers; });
        QTRY_COMPARE(answers, 2);
        QCOMPARE(none.openConnections(), 0);

        // Concurrent sends open parallel connections; the pool keeps at most the cap.
        HttpClient two;
        two.setMaxIdleConnectionsPerTarget(2);
        for (int i = 0; i < 4; ++i)
            two.send(requestTo(server.port()), [&answers](const OutboundResponse &) { ++answers; });
        QTRY_COMPARE(answers, 6);
        QCOMPARE(two.idleConnections(), 2);
        QCOMPARE(two.openConnections(), 2);

        // All targets together: a third target's connection closes the one idle longest (every
        // callback URL is a target, chosen by whoever places an order).
        TestServer a(reply(kOk)), b(reply(kOk)), c(reply(kOk));
        QVERIFY(a.start() && b.start() && c.start());
        HttpClient capped;
        capped.setMaxIdleConnections(2);
        for (TestServer *t : {&a, &b, &c}) {
            const int before = answers;
            capped.send(requestTo(t->port()), [&answers](const OutboundResponse &) { ++answers; });
            QTRY_COMPARE(answers, before + 1);
        }
        QCOMPARE(capped.idleConnections(), 2);
        QCOMPARE(capped.openConnections(), 2);
        QCOMPARE(a.sockets.size(), 1);
        QTRY_COMPARE(a.sockets.count(nullptr), 1); // a's, the oldest, closed
        QCOMPARE(b.sockets.count(nullptr), 0);
        QCOMPARE(c.sockets.count(nullptr), 0);
        // The kept ones are used again.
        capped.send(requestTo(c.port()), [&answers](const OutboundResponse &) { ++answers; });
        QTRY_COMPARE(answers, 10);
        QCOMPARE(c.sockets.size(), 1);
    }

    void idleConnectionClosedByServer()
    {
        TestServer server(reply(kOk));
        QVERIFY(server.start());
        HttpClient client;
        int answers = 0;
        client.send(requestTo(server.port()), [&answers](const OutboundResponse &) { ++answers; });
        QTRY_COMPARE(answers, 1);
        QCOMPARE(client.idleConnections(), 1);
        QTRY_VERIFY(!server.sockets.isEmpty() && server.sockets.first());
        server.sockets.first()->disconnectFromHost();
        QTRY_COMPARE(client.openConnections(), 0);
    }

    void destroyedWithPendingRequests()
    {
        TestServer server([](QTcpSocket *, const SeenRequest &) {});
        QVERIFY(server.start());
        bool called = false;
        {
            HttpClient client;
            client.send(requestTo(server.port()),
                        [&called](const OutboundResponse &) { called = true; });
            QTRY_COMPARE(server.requests.size(), 1);
        }
        QCoreApplication::processEvents();
        QVERIFY(!called);
    }

    // ---- TLS --------------------------------------------------------------------------

    void tls_data()
    {
        QTest::addColumn<QString>("peerName");
        QTest::addColumn<bool>("trustCa");
        QTest::addColumn<QString>("error"); // empty: 200 expected; else the error's start
        QTest::newRow("valid") << QStringLiteral("receiver.test") << true << QString();
        QTest::newRow("host name mismatch")
            << QStringLiteral("other.test") << true
            << QStringLiteral("TLS handshake failed: The host name did not match");
        QTest::newRow("no peer name: the IP")
            << QString() << true << QStringLiteral("TLS handshake failed");
        QTest::newRow("unknown CA")
            << QStringLiteral("receiver.test") << false << QStringLiteral("TLS handshake failed");
    }

    void tls()
    {
        QFETCH(QString, peerName);
        QFETCH(bool, trustCa);
        QFETCH(QString, error);
        TestServer server(reply(kOk));
        server.enableTls(m_serverCertificate, m_serverKey);
        QVERIFY(server.start());
        HttpClient client;
        if (trustCa) {
            QSslConfiguration config = QSslConfiguration::defaultConfiguration();
            config.setCaCertificates({m_ca->sslCertificate()});
            client.setSslConfiguration(config);
        }
        OutboundRequest request = requestTo(server.port());
        request.tls = true;
        request.tlsPeerName = peerName;
        std::optional<OutboundResponse> got;
        client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 10000);
        if (error.isEmpty()) {
            QVERIFY2(got->error.isEmpty(), qPrintable(got->error));
            QCOMPARE(got->status, 200);
            QCOMPARE(server.requests.size(), 1);
            QCOMPARE(server.requests.first().header("host"), request.hostHeader);
            // Reused over the same TLS session.
            got.reset();
            client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
            QTRY_VERIFY(got.has_value());
            QCOMPARE(got->status, 200);
            QCOMPARE(server.connections, 1);
            // Another peer name is another pool key: a new connection (and here a failure).
            request.tlsPeerName = QStringLiteral("other.test");
            got.reset();
            client.send(request, [&got](OutboundResponse r) { got = std::move(r); });
            QTRY_VERIFY(got.has_value());
            QCOMPARE(got->status, 0);
            QCOMPARE(server.connections, 2);
        } else {
            QCOMPARE(got->status, 0);
            QVERIFY2(got->error.startsWith(error), qPrintable(got->error));
            QCOMPARE(server.requests.size(), 0);
            QCOMPARE(client.openConnections(), 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestWebhooks)
#include "tst_webhooks.moc"
