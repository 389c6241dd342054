#pragma once

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

namespace Gatehouse::Crypto {
class CertificateAuthority;
}

class TestHttpServer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void basicRoutingAndKeepAlive();
    void connectionCloseHonoured_data();
    void connectionCloseHonoured();
    void malformedRequests_data();
    void malformedRequests();
    void methodNotAllowed();
    void headerLimit();
    void bodyLimits();
    void pipelinedResponsesInOrder();
    void clientLeavesBeforeAsyncResponse();
    void slowClientsDoNotBlockOthers();
    void idleConnectionsClosed();
    void connectionCap();
    void clientCertificateIdentity_data();
    void clientCertificateIdentity();
    void abortedHandshakesDoNotWedge();

private:
    std::shared_ptr<Gatehouse::Crypto::CertificateAuthority> m_ca;
    std::shared_ptr<Gatehouse::Crypto::CertificateAuthority> m_foreignCa;
};

// The real `gatehouse --headless` binary as a separate process.
class TestHeadlessBackend : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void listenersAnswerHealth();
    void privateFilesAreOwnerOnly();
    void adminApiNeedsToken_data();
    void adminApiNeedsToken();
    void adminStatus();
    void metricsNeedTokenAndCount();
    void eventStream();
    void oversizedBodyDoesNotGrowMemory();
    void adminCli();
    void cliUsageErrors_data();
    void cliUsageErrors();
    void sigtermStopsCleanly();
    void restartKeepsTokenAndCa();
    void newerDatabaseRefused();
    void portInUseIsReported();

private:
    bool startBackend(const QStringList &extraArgs = {});
    QJsonObject ports() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_proc;
    QString m_token;
};
