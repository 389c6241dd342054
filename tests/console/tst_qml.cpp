// Qt Quick Test runner for the console's QML. Each test file gets a fresh engine with real
// ConsoleServices published to it, connected to a real in-test admin server.

#include "console/adminclient.h"
#include "console/adminevent.h"
#include "console/consoleservices.h"
#include "console/orderlistmodel.h"
#include "helpers/filemode.h"
#include "helpers/leakcheck.h"
#include "helpers/testtimeouts.h"
#include "testadminserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QQmlEngine>
#include <QQuickStyle>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtQuickTest>

using namespace std::chrono_literals;

namespace {
const QByteArray Token = "qml-test-token";
}

// The one bound for every tryCompare()/tryVerify() (Wait singleton): Wait.ms, from
// GATEHOUSE_TEST_TIMEOUT_MS (tests/helpers/testtimeouts.h). Waits end with their event; only a
// hang reaches it.
class TestWait : public QObject
{
    Q_OBJECT
    Q_PROPERTY(int ms READ ms CONSTANT)

public:
    int ms() const { return Gatehouse::Test::timeoutMs(); }
};

// Lets QML tests make the backend do things (TestBackend singleton).
class TestBackend : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString token READ token CONSTANT)

public:
    explicit TestBackend(TestAdminServer *server) : m_server(server) {}

    QString token() const { return QString::fromLatin1(Token); }
    void setServices(Gatehouse::Console::ConsoleServices *services)
    {
        m_services = services;
        m_handledSeq = 0; // a new engine, a new client
        connect(services->adminClient(), &Gatehouse::Console::AdminClient::eventReceived, this,
                [this](const Gatehouse::Console::AdminEvent &event) {
                    m_handledSeq = std::max(m_handledSeq, event.seq);
                });
    }

    Q_INVOKABLE void sendStats(int service, int cluster, int admin)
    {
        m_server->sendEvent(QStringLiteral("stats"), {{"requests", QJsonObject{{"service", service},
                                                                               {"cluster", cluster},
                                                                               {"admin", admin}}},
                                                      {"uptimeSeconds", 3725}});
    }
    Q_INVOKABLE void sendEvent(const QString &type, const QJsonObject &data)
    {
        m_server->sendEvent(type, data);
    }
    // An event of another instance of the database (its envelope names it).
    Q_INVOKABLE void sendEventFrom(const QString &instance, const QString &type,
                                   const QJsonObject &data)
    {
        m_server->sendEvent(type, data, instance);
    }
    // The event stream as a barrier: markEventStream() sends a "test.mark" event and returns its
    // number; eventStreamReached(mark) is true once the console has handled it, and so every
    // event sent before it (the stream is ordered). E.g. no live event of an earlier test is
    // still on its way: tryVerify(() => TestBackend.eventStreamReached(mark), Wait.ms).
    Q_INVOKABLE int markEventStream()
    {
        return int(m_server->sendEvent(QStringLiteral("test.mark"), {}));
    }
    Q_INVOKABLE bool eventStreamReached(int mark) const { return m_handledSeq >= mark; }

    // Orders and webhooks (TestAdminServer's in-memory store).
    Q_INVOKABLE void setInstances(const QJsonArray &instances, const QString &driver)
    {
        m_server->setInstances(instances, driver);
    }
    Q_INVOKABLE void resetOrders() { m_server->resetOrderData(); }
    // Rows per page of the Orders list (1,000 in the console): a few make it page back.
    Q_INVOKABLE void setOrdersPageSize(int rows) { m_services->orders()->setCapacity(rows); }
    Q_INVOKABLE QString orderIdWithStatus(const QString &status) const
    {
        return m_server->orderIdWithStatus(status);
    }
    Q_INVOKABLE QStringList deliveryIds(const QString &state) const
    {
        QStringList ids;
        for (const QString &id : m_server->deliveryIds())
            if (m_server->delivery(id).value("state").toString() == state)
                ids.append(id);
        return ids;
    }
    Q_INVOKABLE QString disabledEndpointId() const { return m_server->disabledEndpointId(); }
    Q_INVOKABLE QString customerId(int index) const { return m_server->customerId(index); }
    Q_INVOKABLE QString beerUpc(int index) const { return m_server->beerUpc(index); }
    // The backend's own workflow moves an order on (order.status, delivery.created).
    Q_INVOKABLE bool setOrderStatus(const QString &orderId, const QString &status)
    {
        return m_server->setOrderStatus(orderId, status);
    }
    // An order placed through the service API (order.created); returns its id.
    Q_INVOKABLE QString createOrder(int customer, const QString &customerRef)
    {
        const QJsonArray lines{QJsonObject{{"upc", m_server->beerUpc(1)}, {"orderQuantity", 6}}};
        return m_server
            ->createOrder(m_server->customerId(customer), QJsonValue(customerRef), lines, {})
            .value("id")
            .toString();
    }
    // The dispatcher's next attempt (delivery.attempt, delivery.state).
    Q_INVOKABLE bool recordAttempt(const QString &deliveryId, int status, int latencyMs,
                                   const QString &error, const QString &state)
    {
        return m_server->recordAttempt(deliveryId, status, latencyMs, error, state);
    }
    // OAuth (TestAdminServer's clients and tokens).
    Q_INVOKABLE void resetOAuth() { m_server->resetOAuthData(); }
    Q_INVOKABLE QString clientId(int index) const { return m_server->clientId(index); }
    // A client_credentials client registered by someone else (RFC 7591), named as given.
    Q_INVOKABLE QString registerClient(const QString &name)
    {
        return m_server->registerClientElsewhere(name);
    }
    Q_INVOKABLE int tokenCount() const { return m_server->tokenCount(); }
    Q_INVOKABLE void refuseNextRegistration(const QString &code, const QString &message)
    {
        m_server->refuseNextRegistration(code, message);
    }
    // A JWT the server's inspector verifies; expiresIn seconds from now (negative: expired).
    Q_INVOKABLE QString makeJwt(int client, const QString &scope, int expiresIn,
                                const QString &audience) const
    {
        return m_server->makeJwt(m_server->clientId(client), scope, expiresIn, audience);
    }
    // The same with payload claims replaced (e.g. {exp: <milliseconds>}).
    Q_INVOKABLE QString makeJwtWith(int client, const QString &scope, int expiresIn,
                                    const QJsonObject &overrides) const
    {
        return m_server->makeJwt(m_server->clientId(client), scope, expiresIn, {}, overrides);
    }
    // The JSON body of the last "METHOD /path" request (e.g. "POST /admin/v1/clients").
    Q_INVOKABLE QJsonObject lastBody(const QString &methodAndPath) const
    {
        return m_server->lastBody(methodAndPath);
    }
    // Cluster (TestAdminServer's nodes, RBAC objects, settings and recent requests).
    Q_INVOKABLE void resetCluster() { m_server->resetClusterData(); }
    Q_INVOKABLE QJsonObject nodeLabels(const QString &node) const
    {
        return m_server->clusterNode(node).value("metadata").toObject().value("labels").toObject();
    }
    // Someone else changes a label (cluster.object.changed); null removes it.
    Q_INVOKABLE void setNodeLabel(const QString &node, const QString &key, const QJsonValue &value)
    {
        m_server->setClusterNodeLabel(node, key, value);
    }
    Q_INVOKABLE int clusterRequestCount() const { return m_server->clusterRequestCount(); }
    // An RBAC object created or replaced elsewhere (`gatehouse admin rbac import`).
    Q_INVOKABLE void importRbac(const QJsonObject &object) { m_server->importClusterRbac(object); }
    // Settings changed elsewhere (the CLI), e.g. {authorizationModes: ["Node", "RBAC"]}.
    Q_INVOKABLE void changeClusterSettings(const QJsonObject &changes)
    {
        m_server->changeClusterSettings(changes);
    }
    // Bulk redelivery.
    Q_INVOKABLE void resetRedeliveries() { m_server->resetRedeliveries(); }
    Q_INVOKABLE bool advanceRedelivery(const QString &jobId, int steps)
    {
        return m_server->advanceRedelivery(jobId, steps);
    }
    Q_INVOKABLE QString runningRedeliveryJob() const { return m_server->runningRedeliveryJob(); }
    Q_INVOKABLE void setExtraRedeliveryMatches(int extra)
    {
        m_server->setExtraRedeliveryMatches(extra);
    }
    // The dashboard's series: back to the seeded hour; stats.series after each counted event.
    Q_INVOKABLE void resetSeries() { m_server->resetStatsSeries(); }
    Q_INVOKABLE void setSeriesPublishing(bool on) { m_server->setSeriesPublishing(on); }
    // As for a scoped admin token that may read only these areas (reset by resetSeries).
    Q_INVOKABLE void setSeriesAreas(const QJsonArray &areas) { m_server->setSeriesAreas(areas); }
    // Audit log (TestAdminServer's entries).
    Q_INVOKABLE void resetAudit() { m_server->resetAuditData(); }
    Q_INVOKABLE int auditEntryCount() const { return m_server->auditEntryCount(); }
    Q_INVOKABLE QString addAuditEntry(const QString &kind, const QString &action,
                                      const QString &target, const QString &actor,
                                      const QJsonArray &changes)
    {
        return m_server->addAuditEntry(kind, action, target, actor, changes);
    }
    Q_INVOKABLE void setAuditForbidden(bool forbidden) { m_server->setAuditForbidden(forbidden); }
    Q_INVOKABLE void resetSettings() { m_server->resetSettings(); }
    Q_INVOKABLE void setDemo(bool demo) { m_server->setDemo(demo); }
    Q_INVOKABLE QJsonObject setting(const QString &key) const { return m_server->setting(key); }
    // The backend goes away (every connection closed) and comes back on the same port.
    Q_INVOKABLE void stopServer()
    {
        m_port = m_server->port();
        m_server->stop();
    }
    Q_INVOKABLE bool restartServer() { return m_server->listen(m_port); }
    // Files: a path in the test's temporary directory, a file's mode bits (e.g. 0600; -1 when
    // it is not there) and its text.
    Q_INVOKABLE QString tempPath(const QString &name) const { return m_dir.filePath(name); }
    Q_INVOKABLE int fileMode(const QString &path) const { return TestHelpers::fileMode(path); }
    Q_INVOKABLE QString fileText(const QString &path) const
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
    // Writes a file world-readable (0644), as if it were there before.
    Q_INVOKABLE bool writePublicFile(const QString &path, const QString &text) const
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0)
            return false;
        file.close();
        return QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                               QFileDevice::ReadGroup | QFileDevice::ReadOther);
    }
    // How many requests started with prefix ("GET /admin/v1/orders?").
    Q_INVOKABLE int requestCount(const QString &prefix) const
    {
        return m_server->countRequests(prefix);
    }

private:
    TestAdminServer *m_server;
    Gatehouse::Console::ConsoleServices *m_services = nullptr; // set when QML starts
    qint64 m_handledSeq = 0; // the last event the console's client has handled
    QTemporaryDir m_dir;
    quint16 m_port = 0;
};

class Setup : public QObject
{
    Q_OBJECT

public slots:
    void applicationAvailable()
    {
        QQuickStyle::setStyle(QStringLiteral("Fusion"));
        // The console's language choice (QSettings) goes below ~/.qttest, not the user's.
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_server.listen());
        qmlRegisterSingletonInstance("GatehouseTest", 1, 0, "TestBackend", &m_backend);
        qmlRegisterSingletonInstance("GatehouseTest", 1, 0, "Wait", &m_wait);
    }

    void qmlEngineAvailable(QQmlEngine *engine)
    {
        auto *services = new Gatehouse::Console::ConsoleServices(engine);
        services->publishTo(engine);
        m_backend.setServices(services);
        Gatehouse::Console::AdminClient *client = services->adminClient();
        client->setReconnectDelays(50ms, 500ms);
        client->connectTo(m_server.url(), QString::fromLatin1(Token));
    }

    // After the last test file; every engine and what the console made in it is gone.
    void cleanupTestCase() { Gatehouse::Test::checkLeaksNow(); }

private:
    TestAdminServer m_server{Token};
    TestBackend m_backend{&m_server};
    TestWait m_wait;
};

QUICK_TEST_MAIN_WITH_SETUP(tst_qml, Setup)

#include "tst_qml.moc"
