#pragma once

#include "core/result.h"

#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace Gatehouse::Core {

struct ListenerSettings
{
    QString address;
    int port = 0;
};

// Everything the backend is configured with. Resolution order (highest first):
// command-line flags, GATEHOUSE_* environment variables, the config file (--config),
// built-in defaults.
struct Config
{
    QString dataDir;
    // Empty: SQLite in the data directory. Else a postgresql:// URL (docs/storage.md); it may
    // hold a password, so it is shown only through ConfigResolver::valueOf (without it).
    QString database;
    // Empty: <data-dir>/database-key, created at first start. Else a key file that must exist
    // (the same on every instance of one database; docs/storage.md).
    QString databaseKeyFile;
    QString configFile;
    ListenerSettings service{QStringLiteral("127.0.0.1"), 8080};
    ListenerSettings cluster{QStringLiteral("127.0.0.1"), 6443};
    ListenerSettings admin{QStringLiteral("127.0.0.1"), 8081};
    qint64 maxHeaderBytes = 16 * 1024;
    qint64 maxBodyBytes = 1024 * 1024;
    int headerTimeoutMs = 10'000;
    int bodyTimeoutMs = 30'000;
    int idleTimeoutMs = 60'000;
    int handshakeTimeoutMs = 5'000;
    int maxConnections = 1024;
    int maxConnectionsPerClient = 256;
    int shutdownGraceMs = 10'000;
    QStringList tlsExtraSans; // extra DNS names / IP addresses for the cluster server certificate
    QString publicBaseUrl;    // empty: the service listener's own URL
    bool adminTls = false;    // the admin listener over HTTPS (remote consoles pin its certificate)
    // Load balancers whose X-Forwarded-For the service and admin listeners believe (addresses
    // and CIDR ranges; clientaddress.h). Empty: the header is never read.
    QStringList trustedProxies;

    // Orders and webhooks (docs/orders.md).
    bool demoData = true;
    bool demo = false; // --demo: seed the training data and guide through the console
    // Demo mode with the service listener beyond loopback (its users' password is public).
    bool demoAllowNetwork = false;
    int demoReceiverPort = 0; // 0: the port of the last run, else any free one
    bool webhookAllowLoopback = false;
    QStringList webhookAllowlist;
    QList<qint64> webhookRetryScheduleMs{5'000,      300'000,    1'800'000, 7'200'000,
                                         18'000'000, 36'000'000, 36'000'000};
    int webhookJitterPercent = 20;
    int webhookTimeoutMs = 15'000;
    qint64 webhookDisableAfterMs = 5LL * 24 * 3600 * 1000;
    int webhookMaxInFlight = 128;
    int webhookMaxQueued = 50'000;
    qint64 webhookSecretOverlapMs = 24LL * 3600 * 1000;
    int deliveryHistoryDays = 30; // finished deliveries and redelivery jobs; 0 keeps them all

    // Authorization server sign-in (docs/oauth.md).
    int oauthLoginRate = 20;
    int oauthPendingSignIns = 10'000;
    int oauthLockoutThreshold = 5;
    // argon2id cost of new password hashes (crypto/password.h); each hash keeps its own.
    qint64 passwordHashMemoryKiB = 65536;
    int passwordHashIterations = 3;
    qint64 oauthLockoutDurationMs = 15 * 60'000;
    qint64 oauthCodeLifetimeMs = 60'000;
    qint64 oauthRefreshLifetimeMs = 14LL * 24 * 3600 * 1000;
    qint64 oauthRefreshMaxLifetimeMs = 90LL * 24 * 3600 * 1000; // from the sign-in; 0: none
    qint64 oauthDeviceCodeLifetimeMs = 10 * 60'000;
    bool oauthOpenRegistration = false;
    // What RFC 7591 registrations may ask for (live; docs/oauth.md, "Trust boundaries").
    QStringList oauthRegistrationGrantTypes{
        QStringLiteral("authorization_code"), QStringLiteral("refresh_token"),
        QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")};
    QStringList oauthRegistrationScopes{QStringLiteral("openid"), QStringLiteral("profile"),
                                        QStringLiteral("email"), QStringLiteral("offline_access")};
    QStringList oauthRegistrationAudiences;
    QString ordersResource;          // empty: <issuer>/v1
    int oauthTokenHistoryDays = 30;  // expired tokens and codes; 0 keeps them all
    bool ordersRequireToken = false; // /v1 needs a bearer token from the authorization server

    // Cluster API (docs/cluster.md); live changes through the admin API are kept in the
    // database and win over these defaults, not over values given explicitly.
    bool clusterAnonymousAuth = true;
    QStringList clusterAuthorizationModes{QStringLiteral("Node"), QStringLiteral("RBAC")};
    // OIDC bearer tokens (kube-apiserver's --oidc-* flags); the issuer is the embedded
    // authorization server's unless "none".
    QString oidcIssuerUrl;
    QString oidcClientId = QStringLiteral("kubernetes");
    QString oidcUsernameClaim = QStringLiteral("sub");
    QString oidcUsernamePrefix;
    QString oidcGroupsClaim = QStringLiteral("groups");
    QString oidcGroupsPrefix;
    // "oidc-group=cluster-group" pairs: the only way a system: group reaches the cluster from
    // an OIDC token (live).
    QStringList oidcGroupMappings;
    QStringList clusterAdmissionPlugins{
        QStringLiteral("NamespaceLifecycle"), QStringLiteral("NodeRestriction"),
        QStringLiteral("ServiceAccount"), QStringLiteral("MutatingAdmissionWebhook"),
        QStringLiteral("ValidatingAdmissionWebhook")};

    // Where each value came from ("default", "config file", "environment GATEHOUSE_X", "flag --x").
    QMap<QString, QString> sources;
    // GATEHOUSE_* variables of the environment that name no setting and nothing else Gatehouse,
    // its CLI or its scripts read: "GATEHOUSE_ORDERS_REQUIRE_TOKENS (did you mean
    // GATEHOUSE_ORDERS_REQUIRE_TOKEN?)". Ignored, so that a test harness's own variables never
    // stop a start; the backend logs a warning for each (a config file's unknown key is refused).
    QStringList unknownEnvironment;
};

// One configurable setting: its key is the flag name (--key), the config-file key and,
// upper-cased with '-' -> '_' and prefixed GATEHOUSE_, the environment variable.
struct ConfigOption
{
    QString key;
    QString valueName; // empty: a switch (--key alone means true)
    QString description;
};

// "500ms", "5s", "5m", "2h", "1d"; a bare number is seconds.
Result<qint64> parseDurationMs(const QString &text);

// Files of a data directory that clients on the same machine read (`gatehouse admin`): the
// root admin token, and the URLs the listeners bound (written at start, removed at stop).
QString adminTokenPath(const QString &dataDir);
QString portsPath(const QString &dataDir);

class ConfigResolver
{
public:
    static const QList<ConfigOption> &options();
    static QString envName(const QString &key);
    // GATEHOUSE_* names read by the CLI, the console and the project's scripts and tests, not
    // settings: never reported as unknown (ADMIN_TOKEN, CONFIG, BINARY, ...).
    static const QStringList &otherEnvNames();
    static QString defaultDataDir();

    // cli: values given on the command line keyed by option key (only those present).
    static Result<Config> resolve(const QMap<QString, QString> &cli,
                                  const QProcessEnvironment &env);

    // The value of a setting as its flag would take it ("5s,5m", "true", "127.0.0.1"); empty
    // for an unknown key.
    static QString valueOf(const Config &config, const QString &key);
    // Sets one setting from text, validated as its flag would be; records the source.
    static Result<void> set(Config &config, const QString &key, const QString &value,
                            const QString &source);
    static bool isKnown(const QString &key);
    // What no single value says: argon2id's memory x passes at least OWASP's minimum. resolve()
    // runs it; so does whatever changes a Config afterwards (the settings kept by the admin API).
    static Result<void> check(const Config &config);
    // "5s", "30m", "14d", "1500ms": the largest unit that divides the duration evenly.
    static QString formatDurationMs(qint64 ms);
};

} // namespace Gatehouse::Core
