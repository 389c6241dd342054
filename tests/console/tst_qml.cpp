// Qt Quick Test runner for the console's QML. Each test file gets a fresh engine with real
// ConsoleServices published to it, connected to a real in-test admin server.

#include "console/adminclient.h"
#include "console/consoleservices.h"
#include "testadminserver.h"

#include <QJsonObject>
#include <QQmlEngine>
#include <QQuickStyle>
#include <QtQuickTest>

using namespace std::chrono_literals;

namespace {
const QByteArray Token = "qml-test-token";
}

// Lets QML tests make the backend do things (TestBackend singleton).
class TestBackend : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString token READ token CONSTANT)

public:
    explicit TestBackend(TestAdminServer *server) : m_server(server) {}

    QString token() const { return QString::fromLatin1(Token); }

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

private:
    TestAdminServer *m_server;
};

class Setup : public QObject
{
    Q_OBJECT

public slots:
    void applicationAvailable()
    {
        QQuickStyle::setStyle(QStringLiteral("Fusion"));
        QVERIFY(m_server.listen());
        qmlRegisterSingletonInstance("GatehouseTest", 1, 0, "TestBackend", &m_backend);
    }

    void qmlEngineAvailable(QQmlEngine *engine)
    {
        auto *services = new Gatehouse::Console::ConsoleServices(engine);
        services->publishTo(engine);
        Gatehouse::Console::AdminClient *client = services->adminClient();
        client->setReconnectDelays(50ms, 500ms);
        client->connectTo(m_server.url(), QString::fromLatin1(Token));
    }

private:
    TestAdminServer m_server{Token};
    TestBackend m_backend{&m_server};
};

QUICK_TEST_MAIN_WITH_SETUP(tst_qml, Setup)

#include "tst_qml.moc"
