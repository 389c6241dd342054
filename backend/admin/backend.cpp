#include "admin/backend.h"
#include "admin/adminapi.h"
#include "admin/adminlogging.h"
#include "admin/admintokens.h"
#include "admin/auditrecorder.h"
#include "admin/clusteradmin.h"
#include "admin/demoseeder.h"
#include "admin/oauthadmin.h"
#include "admin/ordersadmin.h"
#include "admin/settingsadmin.h"
#include "admin/statsseries.h"

#include "cluster/clusterapi.h"
#include "cluster/objectstore.h"
#include "cluster/sharedpki.h"
#include "cluster/tokenauth.h"
#include "core/changefeed.h"
#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/eventrelay.h"
#include "core/httpserver.h"
#include "core/instances.h"
#include "core/metrics.h"
#include "core/postgres.h"
#include "core/settingsstore.h"
#include "core/threadstate.h"
#include "core/writequeue.h"
#include "crypto/certificateauthority.h"
#include "crypto/random.h"
#include "crypto/sealing.h"
#include "crypto/tls.h"
#include "oauth/oauthapi.h"
#include "oauth/oauthstore.h"
#include "oauth/signingkeys.h"
#include "oauth/tokenretention.h"
#include "orders/ordersapi.h"
#include "orders/orderservice.h"
#include "orders/orderstore.h"
#include "orders/problem.h"
#include "platform/platform.h"
#include "webhooks/demoreceiver.h"
#include "webhooks/dispatcher.h"
#include "webhooks/redeliveryjobs.h"
#include "webhooks/webhookservice.h"
#include "webhooks/webhookstore.h"

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QSaveFile>
#include <QSqlQuery>
#include <QSslCertificate>
#include <QSslKey>
#include <QUuid>

#include <memory>

namespace Gatehouse::Admin {

namespace {

bool loopbackAddress(const QString &address)
{
    return address == QLatin1String("localhost") || QHostAddress(address).isLoopback();
}

// The data directory's public files (ports.json, the lock) are made with the umask's mode,
// everybody-writable under umask 000: the group's and others' write bits are taken away
// (nothing is widened under a stricter umask).
void denyOthersWrite(const QString &path)
{
    const QFile::Permissions now = QFile::permissions(path);
    const QFile::Permissions wanted = now & ~(QFile::WriteGroup | QFile::WriteOther);
    if (now != wanted && !QFile::setPermissions(path, wanted))
        qCWarning(lcAdmin) << "cannot take the group's and others' write access from" << path;
}

} // namespace

Backend::Backend(Core::Config config, QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_clock(std::make_unique<Core::SystemClock>()),
      m_metrics(std::make_unique<Core::Metrics>()),
      m_events(std::make_unique<Core::EventBus>(*m_clock)),
      m_series(std::make_unique<StatsSeries>(*m_events, *m_clock))
{
    // Every thread of the backend frees OpenSSL's per-thread state as it ends.
    Core::ThreadState::setRelease(&Crypto::Random::releaseThreadState);
    m_statsTimer.setInterval(1000);
    connect(&m_statsTimer, &QTimer::timeout, this, &Backend::publishStats);
}

Backend::~Backend()
{
    stopWorkers();
}

void Backend::stopWorkers()
{
    if (m_relay)
        m_relay->stop();
    if (m_changes)
        m_changes->stop();
    if (m_instances && m_writer)
        m_instances->stop(); // the lead given up before the writer stops
    if (m_dispatcher)
        m_dispatcher->stop();
    if (m_resultWriter)
        m_resultWriter->stop();
    if (m_clusterWriter)
        m_clusterWriter->stop();
    if (m_writer)
        m_writer->stop();
    if (m_eventQueue)
        m_eventQueue->stop();
}

Result<void> Backend::startOrders()
{
    m_eventQueue = std::make_unique<Core::EventQueue>();
    m_demoReceiver =
        std::make_unique<Webhooks::DemoReceiver>(*m_database, *m_events, *m_metrics, *m_clock);
    quint16 demoPort = quint16(m_config.demoReceiverPort);
    if (demoPort == 0)
        if (auto last = m_settings->value(QStringLiteral("demo-receiver-port")))
            demoPort = quint16(last->toUInt());
    if (auto r = m_demoReceiver->listen(demoPort); !r)
        return r;
    if (auto r = m_settings->setValue(QStringLiteral("demo-receiver-port"),
                                      QString::number(m_demoReceiver->port()));
        !r)
        return r;

    Webhooks::Dispatcher::Options d;
    d.retry.scheduleMs = m_config.webhookRetryScheduleMs;
    d.retry.jitterPercent = m_config.webhookJitterPercent;
    d.retry.timeoutMs = m_config.webhookTimeoutMs;
    d.retry.disableAfterMs = m_config.webhookDisableAfterMs;
    d.retry.maxInFlight = m_config.webhookMaxInFlight;
    d.maxInMemory = m_config.webhookMaxQueued;
    d.urlPolicy.allowLoopback = m_config.webhookAllowLoopback;
    d.urlPolicy.allowlist = m_config.webhookAllowlist;
    d.trustedOrigin = m_demoReceiver->origin();
    if (m_database->engine() == Core::Database::Engine::PostgreSQL) {
        // Who sends which order's deliveries (docs/storage.md "Webhook deliveries and
        // leases").
        d.leaseHolder = m_processId;
    }
    if (m_database->engine() == Core::Database::Engine::PostgreSQL) {
        // The attempts' results (each delivery's state, its attempt row, its endpoint's
        // health) have a writer and a connection of their own: PostgreSQL locks rows, not the
        // database, so they are written beside the orders' writes instead of between them, as
        // another instance's results already are (docs/storage.md "Speed"). SQLite has one
        // writer.
        m_resultWriter =
            std::make_unique<Core::WriteQueue>(*m_database, QStringLiteral("result-writer"));
    }
    m_dispatcher = std::make_unique<Webhooks::Dispatcher>(
        *m_database, m_resultWriter ? *m_resultWriter : *m_writer, *m_events, *m_clock, d,
        m_eventQueue.get());
    m_orders = std::make_unique<Orders::OrderService>(*m_database, *m_writer, *m_events, *m_clock,
                                                      m_dispatcher.get(), m_eventQueue.get());
    // Each order names the instance that runs its lifecycle: those of an instance gone are
    // taken up as soon as it is known to be (docs/storage.md "Orders across instances").
    if (m_database->engine() == Core::Database::Engine::PostgreSQL)
        m_orders->setInstance(m_processId,
                              [instances = m_instances.get()] { return instances->aliveIds(); });
    // Held by an administrator before a stop: still held (the take-up waits for a release).
    if (const auto held = m_settings->value(OrdersAdminApi::lifecycleHeldKey()); held)
        m_orders->setLifecycleHeld(true);
    else if (held.error().code != QLatin1String("not-found"))
        return held.error(); // not released by a database that could not be read
    if (auto r = m_orders->start(m_config.demoData); !r)
        return r;
    // The webhooks' owners are the orders' customers.
    m_webhooks = std::make_unique<Webhooks::WebhookService>(
        *m_database, *m_writer, *m_events, *m_clock, m_dispatcher.get(),
        [](Core::WriteTransaction &tx, const QString &customerId) {
            return Orders::OrderStore::customerExists(tx, customerId);
        },
        m_eventQueue.get());
    m_webhooks->setSecretOverlapMs(m_config.webhookSecretOverlapMs);
    m_redeliveries = std::make_unique<Webhooks::RedeliveryJobs>(
        *m_database, *m_writer, *m_events, *m_clock, *m_webhooks, m_config.deliveryHistoryDays);
    // Its history is pruned by the instance that leads the periodic jobs.
    m_redeliveries->setScheduled([instances = m_instances.get()] { return instances->leads(); });
    // A job ends with the admin token that started it (revoked: gone from the tokens).
    m_redeliveries->setTokenAlive([this](const QString &id) {
        return !m_adminTokens || m_adminTokens->find(id).has_value();
    });
    // Jobs are run by the instance they were started on; on PostgreSQL those of an instance
    // that died are taken over (docs/storage.md "Bulk redelivery jobs across instances").
    std::function<std::optional<QSet<QString>>()> alive;
    if (m_database->engine() == Core::Database::Engine::PostgreSQL)
        alive = [instances = m_instances.get()] { return instances->aliveIds(); };
    m_redeliveries->setInstance(m_processId, std::move(alive));
    if (auto r = m_redeliveries->start(); !r)
        return r;
    return {};
}

QString Backend::adminTokenPath(const QString &dataDir)
{
    return Core::adminTokenPath(dataDir);
}

QString Backend::portsPath(const QString &dataDir)
{
    return Core::portsPath(dataDir);
}

Result<void> Backend::prepareDataDir()
{
    // Keys and tokens live here: a new data directory is private to the owner (0700, an
    // owner-only ACL on Windows); an existing one is left as its owner set it.
    if (!QFileInfo::exists(m_config.dataDir)) {
        if (auto r = Platform::ensurePrivateDirectory(m_config.dataDir); !r)
            return makeError(QStringLiteral("data-dir"),
                             QStringLiteral("cannot create data directory %1: %2")
                                 .arg(m_config.dataDir, r.error().message));
    }
    // Keys and tokens are read from here (admin-token, database-key, pki/): refused when
    // another user owns it or may write in it, whatever they put there (fail closed).
    if (auto r = Platform::checkOwnDirectory(m_config.dataDir); !r)
        return makeError(QStringLiteral("data-dir"),
                         QStringLiteral("data directory %1").arg(r.error().message));
    if (!QFileInfo(m_config.dataDir).isWritable())
        return makeError(QStringLiteral("data-dir"),
                         QStringLiteral("data directory %1 is not writable").arg(m_config.dataDir));
    // One process per data directory: a second one on the same SQLite outbox sent every
    // delivery twice (two dispatchers, no leases) and removed the first one's ports.json when
    // it stopped. The lock of a process that died (kill -9) is taken over.
    auto lock = std::make_unique<QLockFile>(m_config.dataDir + QStringLiteral("/gatehouse.lock"));
    lock->setStaleLockTime(0); // stale only when its process is gone, never by age
    if (!lock->tryLock(0)) {
        qint64 pid = 0;
        QString host;
        QString app;
        lock->getLockInfo(&pid, &host, &app);
        return makeError(
            QStringLiteral("data-dir-in-use"),
            lock->error() == QLockFile::LockFailedError
                ? QStringLiteral("data directory %1 is in use by another Gatehouse (pid %2 on "
                                 "%3): one process per data directory (instances that share a "
                                 "PostgreSQL database each have their own)")
                      .arg(m_config.dataDir)
                      .arg(pid)
                      .arg(host)
                : QStringLiteral("cannot lock data directory %1 (%2/gatehouse.lock)")
                      .arg(m_config.dataDir, m_config.dataDir));
    }
    m_dataDirLock = std::move(lock);
    denyOthersWrite(m_config.dataDir + QStringLiteral("/gatehouse.lock"));
    return {};
}

qint64 Backend::newestAuditEntry() const
{
    QSqlQuery q(m_database->connection());
    if (!q.exec(QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM audit_log")) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

void Backend::checkAuditMark()
{
    const QString path = m_config.dataDir + QStringLiteral("/audit-mark");
    QFile f(path);
    qint64 marked = -1;
    if (f.open(QIODevice::ReadOnly)) {
        bool ok = false;
        marked = f.readAll().trimmed().toLongLong(&ok);
        if (!ok)
            marked = -1;
    }
    const qint64 newest = newestAuditEntry();
    if (marked > 0 && newest >= 0 && newest < marked)
        qCWarning(lcAdmin).noquote().nospace()
            << "the database is older than this data directory has seen: its newest audit "
               "entry is #"
            << newest << ", entries up to #" << marked
            << " were written here before. Was it put back from a backup? Whatever was "
               "revoked, deleted, locked or rotated since is alive again: redo it "
               "(docs/storage.md, \"Putting a backup back\").";
    m_auditMark = marked;
    keepAuditMark();
}

void Backend::keepAuditMark()
{
    const qint64 newest = newestAuditEntry();
    if (newest < 0 || newest == m_auditMark)
        return;
    if (auto r = Platform::writePrivateFile(m_config.dataDir + QStringLiteral("/audit-mark"),
                                            QByteArray::number(newest) + '\n');
        !r) {
        qCWarning(lcAdmin).noquote() << "cannot keep the audit mark:" << r.error().message;
        return;
    }
    m_auditMark = newest;
}

Result<void> Backend::loadOrCreateAdminToken()
{
    const QString path = adminTokenPath(m_config.dataDir);
    QFile f(path);
    if (f.exists()) {
        // Whoever can read it holds every area: refused when open to others, as the database
        // key is (0600; 0640 when root owns it).
        if (auto r = Platform::checkPrivateFile(path); !r)
            return makeError(QStringLiteral("admin-token"), r.error().message);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("admin-token"),
                             QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        m_adminToken = QString::fromUtf8(f.readAll()).trimmed();
        // At least as long as a generated one's 32 characters: /admin-proof answers anyone an
        // HMAC keyed with this token, so a short, chosen one can be guessed offline from it.
        if (m_adminToken.size() < 32)
            return makeError(QStringLiteral("admin-token"),
                             QStringLiteral("%1 holds no usable token (at least 32 characters); "
                                            "delete it to generate a new one")
                                 .arg(path));
        return {};
    }
    m_adminToken = Crypto::Random::token(32);
    // Owner-only from its first byte (0600; an owner-only ACL on Windows).
    if (auto r = Platform::writePrivateFile(path, m_adminToken.toUtf8() + '\n'); !r)
        return makeError(QStringLiteral("admin-token"), r.error().message);
    qCInfo(lcAdmin).noquote() << "created a new admin token in" << path;
    return {};
}

QJsonObject Backend::ports() const
{
    QJsonObject urls, addresses;
    const std::pair<const char *, Core::HttpServer *> ls[] = {
        {"service", m_service.get()}, {"cluster", m_cluster.get()}, {"admin", m_admin.get()}};
    QJsonObject o;
    for (const auto &[name, server] : ls) {
        if (!server)
            continue;
        o.insert(QLatin1String(name), server->serverPort());
        urls.insert(QLatin1String(name), server->url());
        addresses.insert(QLatin1String(name), server->serverAddress().toString());
    }
    if (m_demoReceiver) {
        o.insert(QStringLiteral("demoReceiver"), m_demoReceiver->port());
        urls.insert(QStringLiteral("demoReceiver"), m_demoReceiver->origin());
    }
    o.insert(QStringLiteral("urls"), urls);
    o.insert(QStringLiteral("addresses"), addresses);
    o.insert(QStringLiteral("pid"), QCoreApplication::applicationPid());
    return o;
}

Result<void> Backend::writePorts()
{
    const QString path = portsPath(m_config.dataDir);
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return makeError(QStringLiteral("ports-file"),
                         QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
    out.write(QJsonDocument(ports()).toJson(QJsonDocument::Indented));
    if (!out.commit())
        return makeError(QStringLiteral("ports-file"),
                         QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
    denyOthersWrite(path);
    return {};
}

Result<void> Backend::start()
{
    m_startedAt = m_clock->now();
    for (const QString &unknown : std::as_const(m_config.unknownEnvironment))
        qCWarning(lcAdmin).noquote()
            << "the environment variable" << unknown
            << "is not a setting of Gatehouse and is ignored (gatehouse --help lists the "
               "settings; each is GATEHOUSE_ and the option's name, upper case, - as _)";
    if (auto r = prepareDataDir(); !r)
        return r;

    // The database holds webhook secrets: owner only, from its first byte. SQLite gives the
    // -wal and -shm files the database file's permissions.
    // Or PostgreSQL, when --database names it (docs/storage.md).
    const bool sqlite = m_config.database.isEmpty();
    if (!sqlite &&
        m_config.sources.value(QStringLiteral("database")).startsWith(QLatin1String("flag")))
        if (const auto t = Core::parsePostgresUrl(m_config.database); t && !t->password.isEmpty())
            qCWarning(lcAdmin) << "the database password given with --database can be read by "
                                  "every user of this machine in the process list: use a passfile, "
                                  "PGPASSWORD or GATEHOUSE_DATABASE (docs/storage.md)";
    const QString dbPath =
        sqlite ? m_config.dataDir + QStringLiteral("/gatehouse.db") : m_config.database;
    if (sqlite && !QFile::exists(dbPath)) {
        QFile create(dbPath);
        // Created 0600 (not chmod'ed afterwards: a reader who opened it in between would keep
        // its handle), and only if it does not exist (NewOnly: no link followed).
        if (!create.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                         QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return makeError(
                QStringLiteral("database-open-failed"),
                QStringLiteral("cannot create %1: %2").arg(dbPath, create.errorString()));
    }
    if (auto r = sqlite ? Platform::restrictToOwner(dbPath) : Result<void>{}; !r)
        return makeError(QStringLiteral("database-open-failed"), r.error().message);
    // A -wal or -shm (or rollback journal) left by a run that was killed keeps its own
    // permissions when SQLite opens it again: owner only too, before SQLite writes the next
    // commits into it.
    if (sqlite)
        for (const char *suffix : {"-wal", "-shm", "-journal"})
            if (const QString side = dbPath + QLatin1String(suffix); QFile::exists(side))
                if (auto r = Platform::restrictToOwner(side); !r)
                    return makeError(QStringLiteral("database-open-failed"), r.error().message);
    // The key that seals the secrets the database holds (docs/storage.md): in the data
    // directory or a file of the administrator's, never in the database.
    auto sealing =
        m_config.databaseKeyFile.isEmpty()
            ? Crypto::SealingKey::loadOrCreate(m_config.dataDir + QStringLiteral("/database-key"))
            : Crypto::SealingKey::load(m_config.databaseKeyFile);
    if (!sealing)
        return sealing.error();
    auto db = Core::Database::open(
        dbPath,
        Core::Database::coreMigrations()
            << Webhooks::WebhookStore::migration() << Orders::OrderStore::migration()
            << OAuth::OAuthStore::all() << Cluster::ObjectStore::migration()
            << Webhooks::RedeliveryJobs::migration() << Core::AuditLog::migration()
            << AdminTokens::migration() << Core::AuditLog::effectsColumn()
            << Core::Database::changeFeedMigration() << AdminTokens::changesAnnounced()
            << Webhooks::WebhookStore::leaseMigration() << Core::Instances::migration()
            << Cluster::ObjectStore::changeLogMigration() << Cluster::SharedPki::migration()
            << Webhooks::RedeliveryJobs::holderMigration()
            << Webhooks::WebhookStore::changesMigration()
            << Webhooks::WebhookStore::ownerPendingMigration()
            << Orders::OrderStore::idempotencyExpiryMigration()
            << Webhooks::WebhookStore::holderMigration()
            << Webhooks::WebhookStore::handOverMigration()
            << Orders::OrderStore::lifecycleByMigration()
            << Webhooks::RedeliveryJobs::starterMigration() << AdminTokens::proofKeyMigration(),
        *m_clock, Core::Database::Role::Instance);
    if (!db)
        return db.error();
    m_database = std::move(*db);
    m_database->setSealer({[key = *sealing](const QByteArray &plain, const QByteArray &context) {
                               return key.seal(plain, context);
                           },
                           [key = *sealing](const QByteArray &stored, const QByteArray &context) {
                               return key.open(stored, context);
                           }});
    // Webhook secrets an older build stored in the clear are sealed now (the signing keys are
    // when they load); a secret sealed with another key stops the start here.
    if (auto r = Webhooks::WebhookStore::sealStoredSecrets(*m_database); !r)
        return r;
    m_settings = std::make_unique<Core::SqlSettingsStore>(*m_database, *m_clock);
    // Values changed through the admin API for this start (docs/settings.md).
    SettingsAdminApi::applyStored(m_config, *m_settings);
    if (m_config.demo)
        m_config.demoData = true; // the demo's test orders need the catalog
    // Demo mode's users have a password anyone can read (docs/demo.md): only on loopback,
    // unless the operator says otherwise (fail closed).
    if (m_config.demo && !loopbackAddress(m_config.service.address)) {
        const auto source = [this](const char *key) {
            return m_config.sources.value(QLatin1String(key), QStringLiteral("default"));
        };
        if (!m_config.demoAllowNetwork)
            return makeError(
                QStringLiteral("demo-on-network"),
                QStringLiteral("demo mode (%1) with the service listener on %2, which is not "
                               "loopback (%3): the demo users alice and bob have a public "
                               "password (docs/demo.md), and anyone who reaches that address "
                               "could sign in as them. Bind the service listener to 127.0.0.1 "
                               "(--service-address), turn demo mode off, or pass "
                               "--demo-allow-network if everyone on that network may")
                    .arg(source("demo"), m_config.service.address, source("service-address")));
        qCWarning(lcAdmin).noquote()
            << QStringLiteral("demo mode with the service listener on %1 (demo-allow-network "
                              "from %2): anyone who reaches it signs in as the demo users alice "
                              "and bob with their public password (docs/demo.md)")
                   .arg(m_config.service.address, source("demo-allow-network"));
    }
    if (auto id = m_settings->value(QStringLiteral("instance-id")); id) {
        m_instanceId = *id;
    } else {
        m_instanceId = Crypto::Random::uuid();
        if (auto r = m_settings->setValue(QStringLiteral("instance-id"), m_instanceId); !r)
            return r;
    }

    if (auto r = loadOrCreateAdminToken(); !r)
        return r;
    checkAuditMark();

    // Cluster PKI: a CA created once and a server certificate for the cluster listener.
    const QString pkiDir = m_config.dataDir + QStringLiteral("/pki");
    // On PostgreSQL the CA and the service-account key are the database's, the same for every
    // instance (docs/storage.md): written into pki/ first, read from there below.
    if (m_database->engine() == Core::Database::Engine::PostgreSQL)
        if (auto r = Cluster::SharedPki::adopt(*m_database, pkiDir, m_clock->now()); !r)
            return r;
    auto ca = Crypto::CertificateAuthority::loadOrCreate(
        pkiDir, QStringLiteral("gatehouse-cluster-ca"), m_clock->now());
    if (!ca)
        return ca.error();
    QStringList extraDns, extraIps;
    for (const QString &san : std::as_const(m_config.tlsExtraSans)) {
        if (QHostAddress(san).isNull())
            extraDns.append(san);
        else
            extraIps.append(san);
    }
    auto serverCert = ca->loadOrIssueServerCertificate(pkiDir, m_clock->now(), extraDns, extraIps);
    if (!serverCert)
        return serverCert.error();

    Core::TlsSettings tls;
    tls.certificate = serverCert->sslCertificate();
    tls.privateKey = serverCert->sslKey();
    tls.clientCaCertificates = {ca->sslCertificate()};
    if (tls.certificate.isNull() || tls.privateKey.isNull())
        return makeError(QStringLiteral("tls"),
                         QStringLiteral("cannot load the cluster server certificate"));
    auto engine = Crypto::tlsServerEngine(tls);
    if (!engine)
        return makeError(QStringLiteral("tls"),
                         QStringLiteral("cluster TLS: %1").arg(engine.error().message));
    tls.engine = *engine;

    // Validated when the setting was read; the cluster listener believes no proxy.
    const auto trustedProxies = Core::TrustedProxies::parse(m_config.trustedProxies);
    if (!trustedProxies)
        return trustedProxies.error();
    auto serviceOptions =
        Core::ListenerOptions::fromConfig(QStringLiteral("service"), m_config, m_config.service);
    serviceOptions.trustedProxies = *trustedProxies;
    m_service = std::make_unique<Core::HttpServer>(serviceOptions, *m_metrics, *m_clock);
    auto clusterOptions =
        Core::ListenerOptions::fromConfig(QStringLiteral("cluster"), m_config, m_config.cluster);
    clusterOptions.tls = tls;
    // The cluster listener reads no X-Forwarded-For (nginx passes its TLS through untouched),
    // but a trusted proxy's connections carry many clients there too: not capped per client.
    clusterOptions.sharedClients = *trustedProxies;
    m_cluster = std::make_unique<Core::HttpServer>(clusterOptions, *m_metrics, *m_clock);
    auto adminOptions =
        Core::ListenerOptions::fromConfig(QStringLiteral("admin"), m_config, m_config.admin);
    adminOptions.trustedProxies = *trustedProxies;
    if (m_config.adminTls) {
        // The same server certificate; no client certificate is asked for (the admin token
        // authenticates). Remote consoles pin it by this fingerprint (docs/remote.md).
        Core::TlsSettings adminTls;
        adminTls.certificate = tls.certificate;
        adminTls.privateKey = tls.privateKey;
        auto adminEngine = Crypto::tlsServerEngine(adminTls);
        if (!adminEngine)
            return makeError(QStringLiteral("tls"),
                             QStringLiteral("admin TLS: %1").arg(adminEngine.error().message));
        adminTls.engine = *adminEngine;
        adminOptions.tls = adminTls;
        qCInfo(lcAdmin).noquote() << "admin API over HTTPS; certificate SHA-256 fingerprint"
                                  << Core::certificateFingerprint(tls.certificate);
    } else if (!loopbackAddress(m_config.admin.address)) {
        qCWarning(lcAdmin).noquote()
            << "the admin API listens on" << m_config.admin.address
            << "without TLS: its bearer token crosses the network in clear; use --admin-tls";
    }
    m_admin = std::make_unique<Core::HttpServer>(adminOptions, *m_metrics, *m_clock);
    // The single writer of the database, for every module.
    m_writer = std::make_unique<Core::WriteQueue>(*m_database, QStringLiteral("db-writer"));
    // Named among the instances of the database (its heartbeat row, its webhook leases).
    m_processId = Core::Instances::newProcessId(Crypto::Random::identifier(8));
    m_instances = std::make_unique<Core::Instances>(
        *m_database, *m_writer, *m_clock,
        Core::Instances::Self{m_processId, QStringLiteral(GATEHOUSE_VERSION),
                              m_startedAt.toMSecsSinceEpoch()});
    // Alone on the database on SQLite (a lead still held is a dead process's); on PostgreSQL
    // other instances may run, and a dead one's lead expires.
    if (auto r = m_instances->start(m_database->engine() == Core::Database::Engine::SQLite); !r)
        return r;
    m_adminTokens = std::make_unique<AdminTokens>(*m_database, *m_writer, *m_clock, m_adminToken);
    if (auto r = m_adminTokens->load(); !r)
        return r;
    m_adminApi = std::make_unique<AdminApi>(*m_admin, *m_events, *m_metrics, *m_adminTokens,
                                            [this] { return status(); });
    m_adminApi->serveStatsSeries(*m_series);

    if (auto r = startOrders(); !r)
        return r;
    // The service listener's own errors (404, 405, 408, 413, 431, ...) in the /v1 API's
    // problem shape; 413 under the code docs/orders.md names.
    m_service->setErrorFormatter([](int status, const QString &code, const QString &message) {
        return Orders::problem(status, status == 413 ? QStringLiteral("payload-too-large") : code,
                               message);
    });
    m_ordersApi = std::make_unique<Orders::OrdersApi>(
        *m_service, *m_database, *m_orders,
        Orders::OrdersApi::Options{{m_config.webhookAllowLoopback, m_config.webhookAllowlist},
                                   m_demoReceiver->origin(),
                                   m_config.publicBaseUrl});
    m_ordersAdminApi = std::make_unique<OrdersAdminApi>(
        *m_admin, *m_database, *m_orders, *m_webhooks, *m_redeliveries, *m_demoReceiver,
        *m_settings, *m_clock, *m_adminTokens);

    if (auto r = startCluster(*ca, tls); !r)
        return r;

    for (Core::HttpServer *s : {m_service.get(), m_cluster.get(), m_admin.get()})
        if (auto r = s->listen(); !r)
            return r;
    m_instances->setListeners(QJsonObject{{QStringLiteral("service"), m_service->url()},
                                          {QStringLiteral("cluster"), m_cluster->url()},
                                          {QStringLiteral("admin"), m_admin->url()}});
    m_clusterApi->setServerAddress(QStringLiteral("%1:%2").arg(
        m_cluster->serverAddress().toString(), QString::number(m_cluster->serverPort())));
    m_clusterAdminApi = std::make_unique<ClusterAdminApi>(
        *m_admin, *m_clusterApi, *m_settings, *ca, m_cluster->url(), *m_clock, *m_adminTokens);
    m_settingsAdminApi = std::make_unique<SettingsAdminApi>(*m_admin, m_config, *m_settings,
                                                            *m_clusterApi, *m_events);
    // Every administrative change from here on is recorded (docs/audit.md).
    m_audit = std::make_unique<Core::AuditLog>(*m_database, *m_writer, *m_events, *m_clock);
    m_auditRecorder = std::make_unique<AuditRecorder>(*m_admin, *m_audit, *m_database,
                                                      *m_clusterApi, *m_adminTokens);
    // The issuer is the public base URL, else the service listener's own URL (known now).
    OAuth::AuthorizeSettings authorize;
    authorize.loginRatePerMinute = m_config.oauthLoginRate;
    authorize.maxInteractions = m_config.oauthPendingSignIns;
    authorize.lockout.threshold = m_config.oauthLockoutThreshold;
    authorize.lockout.durationMs = m_config.oauthLockoutDurationMs;
    authorize.codeLifetimeMs = m_config.oauthCodeLifetimeMs;
    authorize.refreshLifetimeMs = m_config.oauthRefreshLifetimeMs;
    authorize.refreshMaxLifetimeMs = m_config.oauthRefreshMaxLifetimeMs;
    authorize.deviceCodeLifetimeMs = m_config.oauthDeviceCodeLifetimeMs;
    authorize.openRegistration = m_config.oauthOpenRegistration;
    authorize.passwordHashing.memoryKiB = quint32(m_config.passwordHashMemoryKiB);
    authorize.passwordHashing.timeCost = quint32(m_config.passwordHashIterations);
    m_oauth = std::make_unique<OAuth::OAuthApi>(
        *m_service, *m_database, *m_writer, *m_events, *m_clock,
        m_config.publicBaseUrl.isEmpty() ? m_service->url() : m_config.publicBaseUrl, authorize);
    m_oauth->setEventQueue(m_eventQueue.get());
    // Where the services meet (docs/oauth.md, "Trust boundaries"): the cluster's audience,
    // the orders API's resource, and what dynamic registrations may ask for.
    m_oauth->trust().setClusterAudience(
        m_config.oidcIssuerUrl == QLatin1String("none") ? QString() : m_config.oidcClientId);
    m_oauth->trust().setOrdersResource(m_config.ordersResource.isEmpty()
                                           ? m_oauth->issuer() + QStringLiteral("/v1")
                                           : m_config.ordersResource);
    {
        auto policy = OAuth::RegistrationPolicy::fromJson(
            QJsonObject{{QStringLiteral("grantTypes"),
                         QJsonArray::fromStringList(m_config.oauthRegistrationGrantTypes)},
                        {QStringLiteral("scopes"),
                         QJsonArray::fromStringList(m_config.oauthRegistrationScopes)},
                        {QStringLiteral("audiences"),
                         QJsonArray::fromStringList(m_config.oauthRegistrationAudiences)}},
            OAuth::RegistrationPolicy::defaults());
        if (!policy)
            return makeError(
                QStringLiteral("invalid-config"),
                QStringLiteral("oauth-registration-*: %1").arg(policy.error().message));
        m_oauth->trust().setRegistrationPolicy(*policy);
    }
    if (auto r = m_oauth->start(); !r)
        return r;
    // What other instances on the same PostgreSQL database change, this one reads again
    // (docs/storage.md, "Several instances"); nothing to hear on SQLite.
    m_changes = std::make_unique<Core::ChangeFeed>(*m_database);
    // A read that fails is tried again (ChangeFeed::readAgainLater): a change heard and not
    // read would otherwise wait for the next one (a revoked admin token kept working here).
    m_changes->subscribeTable(QStringLiteral("admin_tokens"), [this](const QString &) {
        if (auto r = m_adminTokens->load(); !r) {
            qCWarning(lcAdmin).noquote() << r.error().message << "(reading again in a second)";
            m_changes->readAgainLater(QStringLiteral("admin_tokens"));
        }
    });
    m_changes->subscribe(QStringLiteral("oauth_clients"),
                         [this](const QString &id) { m_oauth->clients().changedElsewhere(id); });
    m_changes->subscribe(QStringLiteral("webhook_endpoints"),
                         [this](const QString &id) { m_dispatcher->endpointChangedElsewhere(id); });
    m_changes->subscribe(QStringLiteral("webhook_secrets"),
                         [this](const QString &owner) { m_dispatcher->secretsChanged(owner); });
    m_changes->subscribeTable(QStringLiteral("cluster_state"),
                              [this](const QString &) { m_clusterStore->sync(); });
    m_changes->subscribe(QStringLiteral("settings"), [this](const QString &key) {
        if (!m_settingsAdminApi->changedElsewhere(key))
            m_changes->readAgainLater(QStringLiteral("settings"));
        if (key.isEmpty() || key == OrdersAdminApi::lifecycleHeldKey())
            m_ordersAdminApi->lifecycleChangedElsewhere();
    });
    m_changes->subscribeTable(QStringLiteral("oauth_signing_keys"), [this](const QString &) {
        if (auto r = m_oauth->keys().reload(m_clock->now().toMSecsSinceEpoch()); !r) {
            qCWarning(lcAdmin).noquote() << r.error().message << "(reading again in a second)";
            m_changes->readAgainLater(QStringLiteral("oauth_signing_keys"));
        }
    });
    m_tokenRetention = std::make_unique<OAuth::TokenRetention>(*m_writer, *m_clock,
                                                               m_config.oauthTokenHistoryDays);
    m_tokenRetention->setScheduled([instances = m_instances.get()] { return instances->leads(); });
    m_tokenRetention->start();
    // OIDC bearer tokens for the cluster API: by default from the embedded authorization server.
    if (m_config.oidcIssuerUrl != QLatin1String("none")) {
        if (!m_config.oidcIssuerUrl.isEmpty() && m_config.oidcIssuerUrl != m_oauth->issuer())
            return makeError(
                QStringLiteral("invalid-config"),
                QStringLiteral("oidc-issuer-url: only this Gatehouse's own issuer (%1) "
                               "is supported, or \"none\"")
                    .arg(m_oauth->issuer()));
        Cluster::OidcOptions oidc;
        oidc.issuer = m_oauth->issuer();
        oidc.clientId = m_config.oidcClientId;
        oidc.usernameClaim = m_config.oidcUsernameClaim;
        oidc.usernamePrefix = m_config.oidcUsernamePrefix;
        oidc.groupsClaim = m_config.oidcGroupsClaim;
        oidc.groupsPrefix = m_config.oidcGroupsPrefix;
        OAuth::OAuthApi *oauth = m_oauth.get();
        Cluster::ClusterApi *cluster = m_clusterApi.get();
        oidc.groupMappings = [cluster] { return cluster->settings().oidcGroupMappings; };
        // The issuer vouches for its own tokens: recorded, alive, and issued to a client an
        // administrator allowed to act for the cluster.
        oidc.vet = [oauth](const QString &token, QJsonObject &claims)
            -> std::optional<std::variant<QString, Cluster::TokenUnavailable>> {
            bool unavailable = false;
            std::optional<QString> refused =
                oauth->clusterTokenRefusal(token, claims, &unavailable);
            if (!refused)
                return std::nullopt;
            if (unavailable)
                return Cluster::TokenUnavailable{*refused};
            return *refused;
        };
        m_clusterApi->authenticator().addTokenAuthenticator(
            QStringLiteral("oidc"), Cluster::oidcAuthenticator(
                                        oidc, [oauth] { return oauth->keys().jwks(); }, *m_clock));
    }
    if (m_config.ordersRequireToken)
        m_service->addFilter(
            QStringLiteral("/v1/"),
            m_oauth->resourceServerFilter(
                [](const Core::HttpRequest &req,
                   const OAuth::Client &client) -> std::optional<Core::HttpResponse> {
                    // A client bound to customers (orders_customers) reaches no other customer's
                    // orders: the answer is that of a customer that does not exist.
                    if (client.ordersCustomers.isEmpty())
                        return std::nullopt;
                    const QStringList parts = req.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
                    if (parts.size() < 3 || parts[1] != QLatin1String("customers"))
                        return std::nullopt;
                    // Read as the API reads it (the nil UUID is a customer id there too).
                    const std::optional<QString> id = Orders::canonicalUuid(parts[2]);
                    if (!id) // not a customer id: the API's own 400
                        return std::nullopt;
                    const QString &customer = *id;
                    if (client.ordersCustomers.contains(customer))
                        return std::nullopt;
                    return Orders::problem(404, QStringLiteral("customer-not-found"),
                                           QStringLiteral("no customer with id %1").arg(customer),
                                           &req);
                }));
    m_oauthAdminApi = std::make_unique<OAuthAdminApi>(*m_admin, *m_oauth, *m_adminTokens, *m_clock);
    m_oauthAdminApi->setClusterIdentity(
        [this](const QString &username) { return clusterIdentityOf(username); });
    m_oauthAdminApi->setClusterBinding(
        [this](const OAuth::User &user) { return clusterBindingOf(user); });
    m_oauthAdminApi->setClusterTwin([this](const OAuth::User *before, const OAuth::User &after) {
        return clusterTwinOf(before, after);
    });
    m_oauthAdminApi->setPrivilegedGroup([this](const QString &group) {
        for (const QString &m : m_clusterApi->settings().oidcGroupMappings)
            if (m.section(QLatin1Char('='), 0, 0) == group)
                return true;
        return false;
    });
    m_settingsAdminApi->setOAuth(m_oauth.get());
    m_settingsAdminApi->setTokens(m_adminTokens.get());
    if (auto r = m_changes->start(); !r) // everything it calls exists now
        return r;
    // The events of every instance on each one's stream, while somebody watches (PostgreSQL).
    m_relay = std::make_unique<Core::EventRelay>(*m_database, *m_events, m_instances->id(),
                                                 m_adminApi->openStreams());
    if (auto r = m_relay->start(); !r)
        return r;
    if (auto r = writePorts(); !r)
        return r;
    m_dispatcher->start();
    m_statsTimer.start();
    if (m_clusterStore->isShared()) {
        // Every 5 s on PostgreSQL (docs/storage.md): the cluster's objects are followed
        // (announcements are heard within 50 ms; this catches up after one missed or a read
        // that failed); each instance takes up the orders of instances gone (no heartbeat for
        // as long as an instance counts as alive without one; each order goes to one), and
        // those that name no instance (written before schema 37) once they stalled for twice
        // as long. Not only the lead: when the lead is what died, the others do not wait for
        // its lead to expire first. The instance that leads adopts orphaned redelivery jobs.
        m_sharedTimer.setInterval(5000);
        connect(&m_sharedTimer, &QTimer::timeout, this, [this] {
            m_clusterStore->sync();
            m_orders->takeUpStalled(2 * Core::Instances::kAliveMs);
            if (m_instances->leads())
                m_redeliveries->adoptOrphans();
        });
        m_sharedTimer.start();
    }
    m_events->publish(QStringLiteral("backend.started"),
                      QJsonObject{{QStringLiteral("version"), QStringLiteral(GATEHOUSE_VERSION)},
                                  {QStringLiteral("ports"), ports()}});
    qCInfo(lcAdmin).noquote() << "Gatehouse" << GATEHOUSE_VERSION << "ready; data dir"
                              << m_config.dataDir << "; database" << m_database->path() << "; ports"
                              << QJsonDocument(ports()).toJson(QJsonDocument::Compact);
    if (m_config.demo) {
        // Through the admin API, once the listeners answer (docs/demo.md).
        // Not read: taken as holding accounts (the demo's users are not created over them).
        const auto users = m_oauth->users().all();
        const auto clients = m_oauth->clients().all();
        const bool holdsAccounts = !users || !clients || !users->isEmpty() || !clients->isEmpty();
        auto *seeder = new DemoSeeder(m_admin->url(), m_adminToken, *m_settings, *m_clock,
                                      holdsAccounts, this);
        connect(seeder, &DemoSeeder::finished, seeder, &QObject::deleteLater);
        QMetaObject::invokeMethod(seeder, &DemoSeeder::start, Qt::QueuedConnection);
    } else {
        // Demo mode turned off: its users keep their public password until changed.
        DemoSeeder::warnOfDemoUsersLeft(*m_database, *m_settings, m_service->url());
    }
    return {};
}

QJsonObject Backend::clusterIdentityOf(const QString &username) const
{
    // As the cluster's OIDC authenticator would see this user's token (docs/cluster.md).
    const auto user = m_oauth->users().find(username);
    if (!user)
        return {};
    QJsonArray through;
    const auto clients = m_oauth->clients().all();
    for (const OAuth::Client &c : clients ? *clients : QList<OAuth::Client>())
        if (c.clusterAccess)
            through.append(QJsonObject{{QStringLiteral("clientId"), c.clientId},
                                       {QStringLiteral("clientName"), c.clientName}});
    if (m_config.oidcIssuerUrl == QLatin1String("none"))
        return QJsonObject{
            {QStringLiteral("reachable"), false},
            {QStringLiteral("reason"), QStringLiteral("the cluster accepts no OIDC tokens "
                                                      "(oidc-issuer-url is none)")},
            {QStringLiteral("clients"), through}};
    const QString claim = m_config.oidcUsernameClaim;
    const QString clusterUsername = clusterUsernameOf(*user);
    QStringList dropped;
    QStringList groups =
        Cluster::oidcClusterGroups(user->groups, m_config.oidcGroupsPrefix,
                                   m_clusterApi->settings().oidcGroupMappings, &dropped);
    groups.append(QStringLiteral("system:authenticated"));
    QJsonObject o{{QStringLiteral("reachable"), !through.isEmpty() && !clusterUsername.isEmpty()},
                  {QStringLiteral("username"), clusterUsername},
                  {QStringLiteral("groups"), QJsonArray::fromStringList(groups)},
                  {QStringLiteral("droppedGroups"), QJsonArray::fromStringList(dropped)},
                  {QStringLiteral("audience"), m_config.oidcClientId},
                  {QStringLiteral("clients"), through}};
    if (through.isEmpty())
        o.insert(QStringLiteral("reason"),
                 QStringLiteral("no client is allowed to act for the cluster, so no token of this "
                                "user reaches it"));
    else if (clusterUsername.isEmpty())
        o.insert(QStringLiteral("reason"),
                 QStringLiteral("the user has no %1 for oidc-username-claim").arg(claim));
    if (!dropped.isEmpty())
        o.insert(QStringLiteral("droppedReason"),
                 QStringLiteral("groups beginning with system: reach the cluster only through an "
                                "oidc-group-mappings entry"));
    return o;
}

QString Backend::clusterUsernameOf(const OAuth::User &user) const
{
    const QString claim = m_config.oidcUsernameClaim;
    const QString value = claim == QLatin1String("sub")                  ? user.id
                          : claim == QLatin1String("email")              ? user.email
                          : claim == QLatin1String("preferred_username") ? user.username
                          : claim == QLatin1String("name")               ? user.name
                                                                         : QString();
    if (value.isEmpty())
        return {};
    Cluster::OidcOptions oidc;
    oidc.issuer = m_oauth->issuer();
    oidc.usernameClaim = claim;
    oidc.usernamePrefix = m_config.oidcUsernamePrefix;
    return Cluster::oidcUsernamePrefix(oidc) + value;
}

Core::Result<QString> Backend::clusterTwinOf(const OAuth::User *before,
                                             const OAuth::User &after) const
{
    // sub is the user's id and preferred_username the username, both unique; email and name
    // are not.
    const QString claim = m_config.oidcUsernameClaim;
    if (m_config.oidcIssuerUrl == QLatin1String("none") ||
        (claim != QLatin1String("email") && claim != QLatin1String("name")))
        return QString();
    const QString name = clusterUsernameOf(after);
    if (name.isEmpty() || (before && clusterUsernameOf(*before) == name))
        return QString();
    const auto users = m_oauth->users().all();
    if (!users)
        return users.error();
    for (const OAuth::User &u : *users)
        if (u.id != after.id && clusterUsernameOf(u) == name)
            return QStringLiteral("user \"%1\" already has this %2, which is the username the "
                                  "cluster knows them by (oidc-username-claim %2): two users "
                                  "would be one cluster user, each with what is given to the "
                                  "other")
                .arg(u.username, claim);
    return QString();
}

QString Backend::clusterBindingOf(const OAuth::User &user) const
{
    // Whether a client may act for the cluster now does not matter: one may be allowed later,
    // and a password reset done before that would still hold (fail closed).
    if (!m_clusterApi)
        return {};
    const QString name = clusterUsernameOf(user);
    QStringList dropped;
    const QStringList groups =
        Cluster::oidcClusterGroups(user.groups, m_config.oidcGroupsPrefix,
                                   m_clusterApi->settings().oidcGroupMappings, &dropped);
    const auto policy = m_clusterApi->rbac();
    for (const Cluster::RbacBinding &b : policy->bindings()) {
        const QString binding = b.namespaceName.isEmpty()
                                    ? QStringLiteral("ClusterRoleBinding \"%1\"").arg(b.name)
                                    : QStringLiteral("RoleBinding \"%1\" in namespace \"%2\"")
                                          .arg(b.name, b.namespaceName);
        for (const Cluster::RbacSubject &s : b.subjects) {
            if (s.kind == QLatin1String("User") && !name.isEmpty() && s.name == name)
                return QStringLiteral("the cluster's %1 names them").arg(binding);
            if (s.kind == QLatin1String("Group") && groups.contains(s.name))
                return QStringLiteral("the cluster's %1 names their group \"%2\"")
                    .arg(binding, s.name);
        }
    }
    // A binding to system:authenticated names every user: where it gives more than the
    // defaults do (discovery, reviews of oneself, public information), any user is one.
    Cluster::UserInfo everyone;
    everyone.groups = {QLatin1String(Cluster::kAuthenticatedGroup)};
    if (const QString beyond = Cluster::accessBeyondDefaults(*policy, everyone); !beyond.isEmpty())
        return QStringLiteral("the cluster lets every signed-in user (system:authenticated) %1")
            .arg(beyond);
    return {};
}

Result<void> Backend::startCluster(const Crypto::CertificateAuthority &ca,
                                   const Core::TlsSettings &tls)
{
    Q_UNUSED(ca)
    m_clusterTls = tls;
    Cluster::ClusterSettings settings;
    settings.anonymousAuth = m_config.clusterAnonymousAuth;
    settings.authorizationModes = m_config.clusterAuthorizationModes;
    settings.admissionPlugins = m_config.clusterAdmissionPlugins;
    settings.oidcGroupMappings = m_config.oidcGroupMappings;
    // Live changes made through the admin API are kept; a value given explicitly at start wins.
    if (auto saved = m_settings->value(ClusterAdminApi::settingsKey()); saved) {
        const QJsonObject o = QJsonDocument::fromJson(saved->toUtf8()).object();
        const std::pair<const char *, const char *> keys[] = {
            {"anonymous-auth", "anonymousAuth"},
            {"authorization-mode", "authorizationModes"},
            {"enable-admission-plugins", "admissionPlugins"},
            {"oidc-group-mappings", "oidcGroupMappings"}};
        QJsonObject keep;
        for (const auto &[flag, field] : keys)
            if (m_config.sources.value(QLatin1String(flag), QStringLiteral("default")) ==
                    QLatin1String("default") &&
                o.contains(QLatin1String(field)))
                keep.insert(QLatin1String(field), o.value(QLatin1String(field)));
        auto merged = Cluster::ClusterSettings::fromJson(keep, settings);
        if (auto *m = std::get_if<Cluster::ClusterSettings>(&merged))
            settings = *m;
        else
            qCWarning(lcAdmin).noquote()
                << "ignoring stored cluster settings:" << std::get<QString>(merged);
    }
    if (QString e = Cluster::AuthorizerChain::validateModes(settings.authorizationModes);
        !e.isEmpty())
        return makeError(QStringLiteral("invalid-config"), e);
    if (QString e = Cluster::AdmissionChain::validatePlugins(settings.admissionPlugins);
        !e.isEmpty())
        return makeError(QStringLiteral("invalid-config"), e);
    if (QString e = Cluster::ClusterSettings::validateGroupMappings(settings.oidcGroupMappings);
        !e.isEmpty())
        return makeError(QStringLiteral("invalid-config"), e);

    if (m_database->engine() == Core::Database::Engine::PostgreSQL) {
        // Shared with the other instances of the database (docs/storage.md, "Cluster objects
        // across instances"), written by a writer of its own, one write per transaction: a
        // write holds the cluster's revision row until it commits.
        m_clusterWriter =
            std::make_unique<Core::WriteQueue>(*m_database, QStringLiteral("cluster-writer"), 1);
        m_clusterStore = std::make_unique<Cluster::ObjectStore>(*m_clusterWriter);
        m_clusterStore->setShared(true);
    } else {
        m_clusterStore = std::make_unique<Cluster::ObjectStore>(*m_writer);
    }
    if (auto r = m_clusterStore->load(*m_database); !r)
        return r;
    Cluster::ClusterApi::Options options;
    options.settings = settings;
    options.demoData = m_config.demoData;
    m_clusterApi =
        std::make_unique<Cluster::ClusterApi>(*m_clusterStore, *m_events, *m_clock, options);
    if (auto r = m_clusterApi->start(); !r)
        return r;
    auto saKey =
        Cluster::ServiceAccountTokens::loadOrCreateKey(m_config.dataDir + QStringLiteral("/pki"));
    if (!saKey)
        return saKey.error();
    m_serviceAccountTokens =
        std::make_unique<Cluster::ServiceAccountTokens>(*saKey, *m_clusterStore, *m_clock);
    m_clusterApi->setServiceAccountTokens(m_serviceAccountTokens.get());
    m_clusterApi->install(*m_cluster);
    connect(m_clusterApi.get(), &Cluster::ClusterApi::nodePortChanged, this,
            &Backend::openNodePort);
    if (m_clusterApi->nodePort() > 0)
        QMetaObject::invokeMethod(
            this, [this] { openNodePort(m_clusterApi->nodePort()); }, Qt::QueuedConnection);
    return {};
}

// The kubernetes service as NodePort: the API is reachable on that port too (same TLS, same
// pipeline), on the cluster listener's address.
void Backend::openNodePort(int port)
{
    if (m_stopping)
        return;
    if (m_nodePortListener && m_nodePortListener->serverPort() == port)
        return;
    if (m_nodePortListener) {
        std::shared_ptr<Core::HttpServer> old(std::move(m_nodePortListener));
        old->shutdown(1'000, [old]() mutable { QTimer::singleShot(0, [old] {}); });
    }
    if (port <= 0)
        return;
    Core::ListenerSettings where{m_config.cluster.address, port};
    auto options = Core::ListenerOptions::fromConfig(QStringLiteral("nodeport"), m_config, where);
    options.tls = m_clusterTls;
    auto listener = std::make_unique<Core::HttpServer>(options, *m_metrics, *m_clock);
    m_clusterApi->install(*listener);
    if (auto r = listener->listen(); !r) {
        qCWarning(lcAdmin).noquote()
            << "cannot open the kubernetes service's node port" << port << ":" << r.error().message;
        return;
    }
    qCInfo(lcAdmin) << "cluster API also on node port" << port;
    m_nodePortListener = std::move(listener);
    m_events->publish(QStringLiteral("cluster.nodeport.opened"),
                      QJsonObject{{QStringLiteral("port"), port}});
}

QString Backend::adminUrl() const
{
    return m_admin ? m_admin->url() : QString();
}

QJsonObject Backend::status() const
{
    static const QString allocator = Platform::mallocName();
    QJsonArray listeners;
    QJsonObject requests;
    const std::pair<const char *, Core::HttpServer *> ls[] = {
        {"service", m_service.get()}, {"cluster", m_cluster.get()}, {"admin", m_admin.get()}};
    for (const auto &[name, server] : ls) {
        if (!server)
            continue;
        listeners.append(
            QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                        {QStringLiteral("address"), server->serverAddress().toString()},
                        {QStringLiteral("port"), server->serverPort()},
                        {QStringLiteral("tls"), server->options().tls.has_value()},
                        {QStringLiteral("url"), server->url()},
                        {QStringLiteral("connections"), server->connectionCount()}});
        requests.insert(QLatin1String(name), m_metrics->requestCount(QLatin1String(name)));
    }
    const auto writerStats = [](const Core::WriteQueue *w) {
        return w ? QJsonObject{{QStringLiteral("batches"), w->committedBatches()},
                               {QStringLiteral("jobs"), w->committedJobs()},
                               {QStringLiteral("queued"), w->queued()}}
                 : QJsonObject();
    };
    QJsonObject status{
        {QStringLiteral("version"), QStringLiteral(GATEHOUSE_VERSION)},
        {QStringLiteral("allocator"), allocator},
        {QStringLiteral("eventDispatcher"),
         QString::fromLatin1(
             QAbstractEventDispatcher::instance(thread())->metaObject()->className())},
        {QStringLiteral("instanceId"), m_instanceId},
        {QStringLiteral("processId"), m_processId},
        {QStringLiteral("instances"), m_instances ? m_instances->list() : QJsonArray()},
        {QStringLiteral("startedAt"), m_startedAt.toUTC().toString(Qt::ISODate)},
        {QStringLiteral("uptimeSeconds"), m_startedAt.secsTo(m_clock->now())},
        {QStringLiteral("dataDir"), m_config.dataDir},
        {QStringLiteral("demo"), m_config.demo},
        {QStringLiteral("listeners"), listeners},
        {QStringLiteral("database"),
         QJsonObject{
             {QStringLiteral("driver"), m_database ? m_database->driverName() : QString()},
             {QStringLiteral("path"), m_database ? m_database->path() : QString()},
             {QStringLiteral("schemaVersion"), m_database ? m_database->schemaVersion() : 0}}},
        {QStringLiteral("counters"),
         QJsonObject{{QStringLiteral("requests"), requests},
                     {QStringLiteral("events"), m_events->publishedCount()}}},
        {QStringLiteral("webhooks"),
         m_dispatcher
             ? QJsonObject{{QStringLiteral("attempts"), m_dispatcher->attemptsMade()},
                           {QStringLiteral("succeeded"), m_dispatcher->succeeded()},
                           {QStringLiteral("inFlight"), m_dispatcher->inFlight()},
                           {QStringLiteral("ordersWaiting"), m_dispatcher->queuedSubjects()},
                           {QStringLiteral("endpointsHeld"), m_dispatcher->endpointsHeld()},
                           {QStringLiteral("demoReceiver"), m_demoReceiver->origin()}}
             : QJsonObject()},
        {QStringLiteral("orders"),
         m_orders ? QJsonObject{{QStringLiteral("lifecycleBacklog"), m_orders->lifecycleBacklog()},
                                {QStringLiteral("lifecycleHeld"), m_orders->lifecycleHeld()}}
                  : QJsonObject()},
        {QStringLiteral("writer"), writerStats(m_writer.get())},
    };
    if (m_resultWriter)
        status.insert(QStringLiteral("resultWriter"), writerStats(m_resultWriter.get()));
    return status;
}

void Backend::publishStats()
{
    // The instance lock still held (PostgreSQL: docs/storage.md), every 5 s. If an older build
    // (that runs only alone) took the database while this one's connection was gone, this one
    // stops.
    if (++m_statsTicks % 5 == 0 && m_database && !m_stopping) {
        if (auto r = m_database->checkInstanceLock(); !r) {
            qCCritical(lcAdmin).noquote() << r.error().message << "- stopping";
            emit fatalError(r.error().message);
            stop({}); // unless the handler stopped it already
            return;
        }
    }
    // The newest audit entry seen, kept in the data directory once a minute (checkAuditMark).
    if (m_statsTicks % 60 == 0 && m_database && !m_stopping)
        keepAuditMark();
    // Retired signing keys leave the JWKS (and verification) when their time is over.
    if (m_oauth)
        m_oauth->keys().dropRetired(m_clock->now().toMSecsSinceEpoch());
    // The dashboard's minutes that changed: the current one, and the one before it when counted
    // in after its last publication.
    for (const QJsonObject &bucket : m_series->takeChanges())
        m_events->publish(StatsSeries::eventType(),
                          QJsonObject{{QStringLiteral("bucketSeconds"), StatsSeries::BucketSeconds},
                                      {QStringLiteral("bucket"), bucket}});
    QJsonObject requests;
    for (const char *name : {"service", "cluster", "admin"})
        requests.insert(QLatin1String(name), m_metrics->requestCount(QLatin1String(name)));
    if (requests == m_lastStats)
        return;
    m_lastStats = requests;
    m_events->publish(QStringLiteral("stats"), QJsonObject{{QStringLiteral("requests"), requests},
                                                           {QStringLiteral("uptimeSeconds"),
                                                            m_startedAt.secsTo(m_clock->now())}});
}

void Backend::stop(std::function<void()> done)
{
    if (m_stopping)
        return;
    if (m_database)
        keepAuditMark();
    m_stopping = true;
    m_statsTimer.stop();
    m_sharedTimer.stop();
    qCInfo(lcAdmin) << "stopping: finishing in-flight requests";
    auto remaining = std::make_shared<int>(0);
    auto finish = [this, done = std::move(done)]() {
        stopWorkers();
        if (m_database)
            m_database->close();
        QFile::remove(portsPath(m_config.dataDir));
        m_dataDirLock.reset(); // the next process may start here
        qCInfo(lcAdmin) << "stopped";
        if (done)
            done();
    };
    QList<Core::HttpServer *> servers;
    for (Core::HttpServer *s :
         {m_service.get(), m_cluster.get(), m_admin.get(), m_nodePortListener.get(),
          m_demoReceiver ? &m_demoReceiver->server() : nullptr})
        if (s)
            servers.append(s);
    if (servers.isEmpty()) {
        finish();
        return;
    }
    *remaining = int(servers.size());
    auto shared = std::make_shared<std::function<void()>>(std::move(finish));
    for (Core::HttpServer *s : servers)
        s->shutdown(m_config.shutdownGraceMs, [remaining, shared] {
            if (--*remaining == 0)
                (*shared)();
        });
}

} // namespace Gatehouse::Admin
