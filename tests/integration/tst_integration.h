#pragma once

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

namespace Gatehouse::Crypto {
class CertificateAuthority;
}
namespace Gatehouse::Admin {
class Backend;
}
#include <QJsonDocument>
#include <QMap>

// An HTTP answer as a test sees it.
struct Reply
{
    int status = 0;
    QByteArray body;
    QMap<QByteArray, QByteArray> headers; // names lower-cased
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
};

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
    void fullPipelineStopsReading();
    void unreadStreamsShareOneBudget();
    void unreadStreamIsDropped();
    void headOfStreamSendsNoBody();
    void clientLeavesBeforeAsyncResponse();
    void slowClientsDoNotBlockOthers();
    void idleConnectionsClosed();
    void silentNewConnectionsGetTheHeaderTimeout();
    void unreadAnswersStopReading();
    void connectionCap();
    void connectionCapPerClient();
    void refusedRequestBodyIsNeverRead();
    void accessLogLinesCannotBeForged();
    void halfClosedRequestsKeepTheirAccessLine();
    void forwardedForOnlyFromTrustedProxies_data();
    void forwardedForOnlyFromTrustedProxies();
    void clientCertificateIdentity_data();
    void clientCertificateIdentity();
    void abortedHandshakesDoNotWedge();
    void tlsClientsGoneMidResponseLeaveNothingBehind();
    void stalledTlsHandshakeIsClosed();
    void tlsRequestWithCloseNotifyIsAnswered();

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
    void secondProcessOnTheDataDirIsRefused();
    void adminApiNeedsToken_data();
    void adminApiNeedsToken();
    void adminStatus();
    void metricsNeedTokenAndCount();
    void eventStream();
    void oversizedBodyDoesNotGrowMemory();
    void adminCli();
    void adminCliSendsNoTokenToAnImpostor();
    void adminCliOrderNouns();
    void adminCliAdminTokens();
    void adminCliConfig();
    void adminCliClients();
    void adminCliUsers();
    void adminCliCluster();
    void adminCliShowsOthersWordsAsText();
    void cliUsageErrors_data();
    void cliUsageErrors();
    void adminCliHelp();
    void adminCliNounHelp_data();
    void adminCliNounHelp();
    void sigtermStopsCleanly();
    void sigtermDuringTheStartStopsCleanly();
    void restartKeepsTokenAndCa();
    void newerDatabaseRefused();
    void tokensKeptThroughTheIssueOrderMigration();
    void expiredTokensArePrunedAtStart();
    void portInUseIsReported();
    void webhookSecretsAreSealedAndTheKeyFileChecked();
    void dataDirOthersMayWriteIsRefused();
    void olderDatabaseIsSaidAtStart();
    void keysAnotherUserOwnsAreRefused();
    void unknownEnvironmentVariableIsNamed();

private:
    bool startBackend(const QStringList &extraArgs = {});
    QJsonObject ports() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_proc;
    QString m_token;
};

// Retention of expired OAuth tokens and codes (OAuth::TokenRetention), in-process on a real
// SQLite file with a manual clock.
class TestOAuthRetention : public QObject
{
    Q_OBJECT
private slots:
    void tokensGoTheirDaysAfterTheyExpired();
    void concurrentCallsJoinOnePass();
    void onlyTheInstanceThatLeadsPrunesOnSchedule();
};

// The OAuth client registry under concurrency (real SQLite, threads).
class TestOAuthClients : public QObject
{
    Q_OBJECT
private slots:
    void cacheNeverBringsBackAChangedClient();
    void initialAccessTokenExpiresOnTheClock();
    void credentialsEndWithTheAdminTokenThatIssuedThem();
};

// The order service and its admin API, in-process on ephemeral ports.
class TestOrders : public QObject
{
    Q_OBJECT
public:
    TestOrders();
    ~TestOrders() override;

private slots:
    void initTestCase();
    void cleanupTestCase();
    void createdOrderHasLocationAndReadOnlyFields();
    void emptyBodyCreatesOrderWithoutLines();
    void badRequests_data();
    void badRequests();
    void callbackRefusalSaysWhy();
    void callbackLookupsBusyIs503();
    void notFound();
    void duplicateCustomerRefConflicts();
    void idempotencyKey();
    void idempotencyKeyIsRememberedForADay();
    void lifecycleToDelivered();
    void burstOfOrdersRunsEveryLifecycleOnce();
    void stopDuringTakeUpLosesNoOrder();
    void failedLifecycleBatchIsRetried();
    void orderJsonHasEveryMember();
    void pendingInventoryThenRestock();
    void validationAndAllocationExceptions();
    void cancelReturnsStock();
    void cancelledWaitingOrderLeavesItsStockToOthers();
    void reinstatedBeerAllocatesWaitingOrders();
    void pagingAndBeers();
    void oversizedBodyRefused();
    void demoReceiverGetsSignedCallbacksInOrder();
    void eventStreamKeepsEveryEventInOrder();
    void deliveryHistoryIsPrunedAfterItsDays();

private:
    QUrl service(const QString &path) const;
    Reply admin(const QByteArray &method, const QString &path, const QJsonObject &body = {});
    QJsonObject placeOrder(const QJsonArray &lines, const QString &customerId = {});
    QJsonObject order(const QString &id);
    QString statusOf(const QString &id);
    QJsonObject beer(const QString &upc);
    bool execInWriter(const QString &sql); // in the backend's writer (test set-up)

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Gatehouse::Admin::Backend> m_backend;
    QString m_customer;
};
