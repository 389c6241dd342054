// Unit tests of backend/core: configuration precedence, migrations, events, metrics.
#include "core/auditlog.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/eventqueue.h"
#include "core/eventrelay.h"
#include "core/httpmessage.h"
#include "core/httpparser.h"
#include "core/httpserver.h"
#include "core/instances.h"
#include "core/jsonwriter.h"
#include "core/logging.h"
#include "core/metrics.h"
#include "core/postgres.h"
#include "core/repeatedfailure.h"
#include "core/resolver.h"
#include "core/settingsstore.h"
#include "core/threadstate.h"
#include "core/writequeue.h"
#include "helpers/filemode.h"
#include "helpers/testtimeouts.h"
#include "platform/platform.h"

#include <QDir>
#include <QFileInfo>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSet>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>

using namespace Gatehouse;
using namespace Gatehouse::Core;
using Gatehouse::Test::timeoutMs;

// An instance id of this machine with the process `pid` (Instances::newProcessId()'s form).
QString idHere(qint64 pid, const char *unique)
{
    return QStringLiteral("%1/%2/%3")
        .arg(QSysInfo::machineHostName())
        .arg(pid)
        .arg(QLatin1String(unique));
}

// The pid of a process that ran and has ended (a real `sleep`, killed); 0 if none started.
qint64 endedPid()
{
    QProcess ended;
    ended.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    if (!ended.waitForStarted())
        return 0;
    const qint64 pid = ended.processId(); // 0 once it has ended
    ended.kill();
    return ended.waitForFinished() ? pid : 0;
}

class TestCore : public QObject
{
    Q_OBJECT

private:
    SystemClock m_clock; // the migrations' and settings' times where a test does not look at them

    QString writeConfig(const QTemporaryDir &dir, const QByteArray &json)
    {
        QString path = dir.filePath(QStringLiteral("gatehouse.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(json);
        return path;
    }

    // The core migrations and a table `rows (id, n)`, and a job that adds a row to it.
    static QList<Migration> withRowsTable()
    {
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("test: rows"),
                  {QStringLiteral("CREATE TABLE rows (id INTEGER PRIMARY KEY, n INTEGER)")}});
        return m;
    }
    static WriteQueue::Work insertRow(int n)
    {
        return [n](WriteTransaction &tx) -> Result<void> {
            Statement &q = tx.stmt("INSERT INTO rows (n) VALUES (?)");
            if (!q.bind(1, n).exec())
                return WriteTransaction::sqlError(q, "insert");
            return {};
        };
    }

    // A new, empty PostgreSQL database on the server of GATEHOUSE_TEST_POSTGRES (a URL, or the
    // file tests/postgres/server.sh wrote it to; ctest's tst_core_postgres starts one), or an
    // empty string (skip).
    static QString newPostgresDatabase()
    {
        QString base = qEnvironmentVariable("GATEHOUSE_TEST_POSTGRES");
        if (base.isEmpty())
            return {};
        if (!base.startsWith(QLatin1String("postgres"))) {
            QFile f(base);
            if (!f.open(QIODevice::ReadOnly))
                qFatal("cannot read %s", qPrintable(base));
            base = QString::fromUtf8(f.readAll()).trimmed();
        }
        static int n = 0;
        const QString name =
            QStringLiteral("core_%1_%2").arg(QCoreApplication::applicationPid()).arg(++n);
        QProcess createdb;
        createdb.start(QStringLiteral("createdb"),
                       {QStringLiteral("--maintenance-db"), base, name});
        if (!createdb.waitForFinished(30000) || createdb.exitCode() != 0)
            qFatal("createdb failed: %s", createdb.readAllStandardError().constData());
        QUrl u(base);
        u.setPath(QLatin1Char('/') + name);
        return u.toString();
    }

private slots:
    void isoTimeMatchesQDateTime();
    void jsonSecondsClampsWhatNoDateNeeds();
    // What a client chose, fit for one log line and its fields: a request line's closing quote,
    // C1's NEL, U+2028 and bidi controls are %-encoded as C0 was (a path wrote a whole access
    // line of its own after NEL, and its own status and rid after a '"').
    void loggableKeepsALineAndItsFields()
    {
        using Gatehouse::Core::loggable;
        QCOMPARE(loggable(QStringLiteral("/v1/ok")), QStringLiteral("/v1/ok"));
        QCOMPARE(loggable(QStringLiteral("/x\n")), QStringLiteral("/x%0A"));
        QCOMPARE(loggable(QStringLiteral("/x\" 200 12 rid=a")),
                 QStringLiteral("/x%22 200 12 rid=a"));
        QCOMPARE(loggable(QString::fromUtf8("/a\u0085b\u2028c\u202Ed\u009B31m")),
                 QStringLiteral("/a%85b%u2028c%u202Ed%9B31m"));
        QCOMPARE(loggable(QString::fromUtf8("/caf\u00e9/\u00fc")),
                 QString::fromUtf8("/caf\u00e9/\u00fc"));
    }
    void privateFilesAndDirectories();
    // A client certificate's identity, verified at the handshake, as each request on that
    // connection takes it: unchanged until the chain's notAfter, then Invalid with kube's
    // reason (a kept-alive connection does not carry an expired certificate's identity on).
    void peerIdentityEndsWithItsCertificate()
    {
        PeerIdentity verified;
        verified.state = PeerIdentity::State::Verified;
        verified.commonName = QStringLiteral("admin");
        verified.organizations = {QStringLiteral("system:masters")};
        verified.notAfterMs = 1'000'000;
        for (const qint64 now : {qint64(0), qint64(999'999), qint64(1'000'000)}) {
            const PeerIdentity at = verified.at(now);
            QVERIFY2(at.verified(), qPrintable(QString::number(now)));
            QCOMPARE(at.commonName, QStringLiteral("admin"));
            QCOMPARE(at.organizations, verified.organizations);
        }
        const PeerIdentity expired = verified.at(1'000'001);
        QCOMPARE(expired.state, PeerIdentity::State::Invalid);
        QCOMPARE(expired.invalidReason, QStringLiteral("certificate has expired"));
        QVERIFY(expired.commonName.isEmpty());
        QVERIFY(expired.organizations.isEmpty());
        // Not known (0): as verified. Without a certificate, or one refused: as it was.
        verified.notAfterMs = 0;
        QVERIFY(verified.at(std::numeric_limits<qint64>::max()).verified());
        PeerIdentity refused;
        refused.state = PeerIdentity::State::Invalid;
        refused.invalidReason = QStringLiteral("unable to get local issuer certificate");
        QCOMPARE(refused.at(5).invalidReason, refused.invalidReason);
        QCOMPARE(PeerIdentity().at(5).state, PeerIdentity::State::None);
    }

    void auditDiffFlattensAndSkipsNoise()
    {
        const QJsonObject before =
            QJsonDocument::fromJson(
                R"({"name":"a","metadata":{"labels":{"x":"1","y":"2"},"resourceVersion":"5"},"list":[1,2]})")
                .object();
        const QJsonObject after =
            QJsonDocument::fromJson(
                R"({"name":"b","metadata":{"labels":{"x":"1","z":"3"},"resourceVersion":"6"},"list":[1,2,3]})")
                .object();
        const QJsonArray d = Gatehouse::Core::AuditLog::diff(before, after);
        QStringList fields;
        for (const QJsonValue c : d)
            fields.append(c.toObject().value("field").toString());
        // sorted by field; arrays compare whole; the resourceVersion is noise
        QCOMPARE(fields, (QStringList{"list", "metadata.labels.y", "metadata.labels.z", "name"}));
        QCOMPARE(d[1].toObject().value("removed").toBool(), true);
        QCOMPARE(d[2].toObject().value("added").toBool(), true);
        QCOMPARE(d[3].toObject().value("before").toString(), QStringLiteral("a"));
        QCOMPARE(d[3].toObject().value("after").toString(), QStringLiteral("b"));
        QVERIFY(Gatehouse::Core::AuditLog::diff(before, before).isEmpty());
        // created: every field added (name, list, labels x and z; not the resourceVersion)
        QCOMPARE(Gatehouse::Core::AuditLog::diff(QJsonValue(), after).size(), 4);
    }
    void auditRedactsSecretsOnly()
    {
        const QJsonObject in = QJsonDocument::fromJson(R"({
            "client_secret":"s1","webhookSecret":"whsec_x","password":"p","access_token":"t",
            "registration_access_token":"r","kubeconfig":"k","keyPem":"PEM","private_key":"x",
            "assertion":"a","nested":{"refresh_token":"rt","items":[{"secret":"deep"}]},
            "access_token_lifetime":3600,"token_exchange_audiences":["a"],
            "token_endpoint_auth_method":"none","client_secret_expires_at":0,"kid":"k1",
            "secretRotatedAt":"2026","certificatePem":"public","email_verified":true})")
                                   .object();
        const QJsonObject out = Gatehouse::Core::AuditLog::redact(in).toObject();
        for (const char *secret :
             {"client_secret", "webhookSecret", "password", "access_token",
              "registration_access_token", "kubeconfig", "keyPem", "private_key", "assertion"})
            QCOMPARE(out.value(QLatin1String(secret)).toString(), QStringLiteral("[redacted]"));
        QCOMPARE(out.value("nested").toObject().value("refresh_token").toString(),
                 QStringLiteral("[redacted]"));
        QCOMPARE(
            out.value("nested").toObject().value("items").toArray()[0].toObject().value("secret"),
            QJsonValue(QStringLiteral("[redacted]")));
        for (const char *kept : {"access_token_lifetime", "token_exchange_audiences",
                                 "token_endpoint_auth_method", "client_secret_expires_at", "kid",
                                 "secretRotatedAt", "certificatePem", "email_verified"})
            QCOMPARE(out.value(QLatin1String(kept)), in.value(QLatin1String(kept)));
    }
    void defaults()
    {
        auto c = ConfigResolver::resolve({}, QProcessEnvironment());
        QVERIFY(c.ok());
        QCOMPARE(c->service.address, QStringLiteral("127.0.0.1"));
        QCOMPARE(c->service.port, 8080);
        QCOMPARE(c->cluster.port, 6443);
        QCOMPARE(c->admin.port, 8081);
        QCOMPARE(c->maxHeaderBytes, 16 * 1024);
        QCOMPARE(c->maxBodyBytes, 1024 * 1024);
        QVERIFY(!c->dataDir.isEmpty());
        QCOMPARE(c->sources.value(QStringLiteral("service-port")), QStringLiteral("default"));
    }

    // The settings page shows every setting's value as its flag would take it: every option
    // has one, and it reads back to the same configuration.
    void everySettingHasAValueThatRoundTrips()
    {
        Core::Config changed;
        changed.dataDir = QStringLiteral("/var/lib/gatehouse");
        changed.database =
            QStringLiteral("postgresql://gh@db.example:5432/gatehouse?sslmode=require");
        changed.databaseKeyFile = QStringLiteral("/etc/gatehouse/database-key");
        changed.tlsExtraSans = {QStringLiteral("api.example.com"), QStringLiteral("10.0.0.5")};
        changed.publicBaseUrl = QStringLiteral("https://api.example.com");
        changed.webhookAllowlist = {QStringLiteral("10.0.0.0/8")};
        changed.trustedProxies = {QStringLiteral("10.0.0.0/24"), QStringLiteral("fd00::1")};
        changed.webhookRetryScheduleMs = {1500, 60'000, 86'400'000};
        changed.oidcIssuerUrl = QStringLiteral("https://issuer.example.com");
        changed.oidcUsernamePrefix = QStringLiteral("oidc:");
        changed.oidcGroupsPrefix = QStringLiteral("oidc:");
        changed.oauthCodeLifetimeMs = 90'000;
        changed.oauthRegistrationAudiences = {QStringLiteral("https://api.example.com/x")};
        changed.ordersResource = QStringLiteral("https://api.example.com/v1");
        changed.oidcGroupMappings = {QStringLiteral("ops=system:masters")};
        for (const Core::ConfigOption &o : ConfigResolver::options()) {
            const QString value = ConfigResolver::valueOf(changed, o.key);
            QVERIFY2(!value.isEmpty(), qPrintable(o.key));
            Core::Config copy;
            QVERIFY2(ConfigResolver::set(copy, o.key, value, QStringLiteral("test")).ok(),
                     qPrintable(o.key + QLatin1Char('=') + value));
            QCOMPARE(ConfigResolver::valueOf(copy, o.key), value);
            QCOMPARE(copy.sources.value(o.key), QStringLiteral("test"));
        }
        QCOMPARE(ConfigResolver::valueOf(changed, QStringLiteral("webhook-retry-schedule")),
                 QStringLiteral("1500ms,1m,1d"));
        QCOMPARE(ConfigResolver::valueOf(changed, QStringLiteral("oauth-code-lifetime")),
                 QStringLiteral("90s"));
        QCOMPARE(ConfigResolver::valueOf(changed, QStringLiteral("no-such-key")), QString());
        Core::Config c;
        const auto bad = ConfigResolver::set(c, QStringLiteral("service-port"),
                                             QStringLiteral("70000"), QStringLiteral("test"));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().message,
                 QStringLiteral("service-port: expected an integer from 0 to 65535"));
        QCOMPARE(c.service.port, 8080);
        QCOMPARE(ConfigResolver::set(c, QStringLiteral("nope"), QStringLiteral("1"),
                                     QStringLiteral("test"))
                     .error()
                     .httpStatus,
                 404);
        // A group mapping is one oidc-group=cluster-group pair per entry.
        for (const char *badMapping : {"ops", "=system:masters", "ops=", "a=b=c"})
            QVERIFY2(!ConfigResolver::set(c, QStringLiteral("oidc-group-mappings"),
                                          QLatin1String(badMapping), QStringLiteral("test"))
                          .ok(),
                     badMapping);
        QVERIFY(ConfigResolver::set(c, QStringLiteral("oidc-group-mappings"),
                                    QStringLiteral(" ops = system:masters , devs=dev "),
                                    QStringLiteral("test"))
                    .ok());
        QCOMPARE(c.oidcGroupMappings,
                 QStringList({QStringLiteral("ops=system:masters"), QStringLiteral("devs=dev")}));
        QVERIFY(!ConfigResolver::set(c, QStringLiteral("orders-resource"),
                                     QStringLiteral("not a uri#x"), QStringLiteral("test"))
                     .ok());
        QCOMPARE(ConfigResolver::formatDurationMs(0), QStringLiteral("0s"));
        QCOMPARE(ConfigResolver::formatDurationMs(7'200'000), QStringLiteral("2h"));
    }

    void precedence_data()
    {
        QTest::addColumn<bool>("inFile");
        QTest::addColumn<bool>("inEnv");
        QTest::addColumn<bool>("inFlag");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("source");
        QTest::newRow("default only") << false << false << false << 8080 << "default";
        QTest::newRow("file over default") << true << false << false << 1111 << "config file";
        QTest::newRow("env over file")
            << true << true << false << 2222 << "environment GATEHOUSE_SERVICE_PORT";
        QTest::newRow("flag over env") << true << true << true << 3333 << "flag --service-port";
        QTest::newRow("flag over file") << true << false << true << 3333 << "flag --service-port";
        QTest::newRow("env over default")
            << false << true << false << 2222 << "environment GATEHOUSE_SERVICE_PORT";
    }

    void precedence()
    {
        QFETCH(bool, inFile);
        QFETCH(bool, inEnv);
        QFETCH(bool, inFlag);
        QFETCH(int, expected);
        QFETCH(QString, source);
        QTemporaryDir dir;
        QMap<QString, QString> cli;
        QProcessEnvironment env;
        if (inFile)
            cli.insert(QStringLiteral("config"),
                       writeConfig(dir, R"({"service-port": 1111, "admin-port": 4444})"));
        if (inEnv)
            env.insert(QStringLiteral("GATEHOUSE_SERVICE_PORT"), QStringLiteral("2222"));
        if (inFlag)
            cli.insert(QStringLiteral("service-port"), QStringLiteral("3333"));
        auto c = ConfigResolver::resolve(cli, env);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->service.port, expected);
        QVERIFY2(c->sources.value(QStringLiteral("service-port")).startsWith(source),
                 qPrintable(c->sources.value(QStringLiteral("service-port"))));
        // A key only in the file still comes from the file whatever else is set.
        QCOMPARE(c->admin.port, inFile ? 4444 : 8081);
    }

    void configFileFromEnvironment()
    {
        QTemporaryDir dir;
        QProcessEnvironment env;
        env.insert(
            QStringLiteral("GATEHOUSE_CONFIG"),
            writeConfig(dir,
                        R"({"data-dir": "/tmp/gh-x", "tls-extra-sans": ["a.example", "10.0.0.1"],
                         "trusted-proxies": ["10.0.0.0/24", "::1"]})"));
        auto c = ConfigResolver::resolve({}, env);
        QVERIFY(c.ok());
        QCOMPARE(c->dataDir, QStringLiteral("/tmp/gh-x"));
        QCOMPARE(c->tlsExtraSans,
                 (QStringList{QStringLiteral("a.example"), QStringLiteral("10.0.0.1")}));
        QCOMPARE(c->trustedProxies,
                 (QStringList{QStringLiteral("10.0.0.0/24"), QStringLiteral("::1")}));
        QCOMPARE(ConfigResolver::valueOf(*c, QStringLiteral("trusted-proxies")),
                 QStringLiteral("10.0.0.0/24,::1"));
    }

    void invalidConfig_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("port not a number") << "service-port"
                                           << "http"
                                           << "expected an integer from 0 to 65535";
        QTest::newRow("port too big") << "admin-port"
                                      << "70000"
                                      << "expected an integer from 0 to 65535";
        QTest::newRow("negative port") << "cluster-port"
                                       << "-1"
                                       << "expected an integer";
        QTest::newRow("bad address") << "service-address"
                                     << "not-an-ip"
                                     << "expected an IP address";
        QTest::newRow("tiny header limit") << "max-header-bytes"
                                           << "10"
                                           << "from 1024";
        QTest::newRow("empty data dir") << "data-dir"
                                        << ""
                                        << "must not be empty";
        QTest::newRow("proxy by name") << "trusted-proxies"
                                       << "10.0.0.1,lb.example"
                                       << "\"lb.example\" is neither an IP address";
        QTest::newRow("proxy prefix too long") << "trusted-proxies"
                                               << "10.0.0.0/33"
                                               << "\"10.0.0.0/33\" is neither";
        QTest::newRow("every address a proxy") << "trusted-proxies"
                                               << "10.0.0.1, 0.0.0.0/0"
                                               << "would believe every client";
        QTest::newRow("every IPv6 address a proxy") << "trusted-proxies"
                                                    << "::/0"
                                                    << "would believe every client";
        QTest::newRow("proxy with zone") << "trusted-proxies"
                                         << "fe80::1%eth0"
                                         << "neither an IP address nor a CIDR range";
        QTest::newRow("password hash memory under 7 MiB") << "password-hash-memory"
                                                          << "4096"
                                                          << "from 7168";
        QTest::newRow("no password hash pass") << "password-hash-iterations"
                                               << "0"
                                               << "from 1 to 32";
        // 8 MiB with the default 3 passes: under OWASP's least argon2id cost.
        QTest::newRow("password hash under OWASP's minimum") << "password-hash-memory"
                                                             << "8192"
                                                             << "below OWASP's minimum";
        QTest::newRow("refresh max lifetime over ten years") << "oauth-refresh-max-lifetime"
                                                             << "3651d"
                                                             << "must be from 0 ms";
        QTest::newRow("refresh max lifetime not a duration") << "oauth-refresh-max-lifetime"
                                                             << "forever"
                                                             << "is not a duration";
    }

    // oauth-refresh-max-lifetime: 90 days by default, 0 for none, shown as it is given.
    void refreshMaxLifetime()
    {
        auto d = ConfigResolver::resolve({}, QProcessEnvironment());
        QVERIFY(d.ok());
        QCOMPARE(d->oauthRefreshMaxLifetimeMs, 90LL * 86'400'000);
        QCOMPARE(ConfigResolver::valueOf(*d, QStringLiteral("oauth-refresh-max-lifetime")),
                 QStringLiteral("90d"));
        QProcessEnvironment env;
        env.insert(QStringLiteral("GATEHOUSE_OAUTH_REFRESH_MAX_LIFETIME"), QStringLiteral("0"));
        auto none = ConfigResolver::resolve({}, env);
        QVERIFY(none.ok());
        QCOMPARE(none->oauthRefreshMaxLifetimeMs, qint64(0));
        QCOMPARE(ConfigResolver::valueOf(*none, QStringLiteral("oauth-refresh-max-lifetime")),
                 QStringLiteral("0s"));
        auto flag = ConfigResolver::resolve(
            {{QStringLiteral("oauth-refresh-max-lifetime"), QStringLiteral("12h")}}, env);
        QVERIFY(flag.ok());
        QCOMPARE(flag->oauthRefreshMaxLifetimeMs, 12LL * 3'600'000);
    }

    // argon2id's cost for new password hashes: the default, OWASP's least pairs accepted, the
    // product of both checked whichever sets them.
    void passwordHashCost()
    {
        auto d = ConfigResolver::resolve({}, QProcessEnvironment());
        QVERIFY(d.ok());
        QCOMPARE(d->passwordHashMemoryKiB, qint64(65536));
        QCOMPARE(d->passwordHashIterations, 3);
        QVERIFY(ConfigResolver::check(Config{}).ok());
        QProcessEnvironment env;
        env.insert(QStringLiteral("GATEHOUSE_PASSWORD_HASH_ITERATIONS"), QStringLiteral("2"));
        auto c = ConfigResolver::resolve(
            {{QStringLiteral("password-hash-memory"), QStringLiteral("19456")}}, env);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->passwordHashMemoryKiB, qint64(19456));
        QCOMPARE(c->passwordHashIterations, 2);
        QCOMPARE(ConfigResolver::valueOf(*c, QStringLiteral("password-hash-memory")),
                 QStringLiteral("19456"));
        QVERIFY(ConfigResolver::resolve(
                    {{QStringLiteral("password-hash-memory"), QStringLiteral("7168")},
                     {QStringLiteral("password-hash-iterations"), QStringLiteral("5")}},
                    QProcessEnvironment())
                    .ok());
        // One pass with 19 MiB is below: the message names both values and where they came from.
        env.insert(QStringLiteral("GATEHOUSE_PASSWORD_HASH_ITERATIONS"), QStringLiteral("1"));
        auto low = ConfigResolver::resolve(
            {{QStringLiteral("password-hash-memory"), QStringLiteral("19456")}}, env);
        QVERIFY(!low.ok());
        QCOMPARE(low.error().message,
                 QStringLiteral("password-hash-memory 19456 (flag --password-hash-memory) x "
                                "password-hash-iterations 1 (environment "
                                "GATEHOUSE_PASSWORD_HASH_ITERATIONS) is below OWASP's minimum for "
                                "argon2id: 35840 KiB-passes, e.g. 19456 with 2"));
        // A Config changed after resolve() (a value kept through the admin API) is checked too.
        Config changed = *d;
        QVERIFY(ConfigResolver::set(changed, QStringLiteral("password-hash-iterations"),
                                    QStringLiteral("1"), QStringLiteral("admin API"))
                    .ok());
        QVERIFY(ConfigResolver::check(changed).ok()); // 64 MiB with 1 pass
        QVERIFY(ConfigResolver::set(changed, QStringLiteral("password-hash-memory"),
                                    QStringLiteral("16384"), QStringLiteral("admin API"))
                    .ok());
        QVERIFY(!ConfigResolver::check(changed).ok());
    }

    void invalidConfig()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, messagePart);
        auto c = ConfigResolver::resolve({{key, value}}, QProcessEnvironment());
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(messagePart), qPrintable(c.error().message));
        QVERIFY2(c.error().message.contains(QStringLiteral("flag --") + key),
                 qPrintable(c.error().message));
        // The same value from the environment names the variable.
        QProcessEnvironment env;
        env.insert(ConfigResolver::envName(key), value);
        auto e = ConfigResolver::resolve({}, env);
        QVERIFY(!e.ok());
        QVERIFY2(e.error().message.contains(ConfigResolver::envName(key)),
                 qPrintable(e.error().message));
    }

    void badConfigFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("not json") << QByteArray("service-port = 1") << "is not a JSON object";
        QTest::newRow("array") << QByteArray("[1,2]") << "is not a JSON object";
        QTest::newRow("unknown key")
            << QByteArray(R"({"servce-port": 1})") << "unknown key 'servce-port'";
        QTest::newRow("object value")
            << QByteArray(R"({"service-port": {"a":1}})") << "must be a string or number";
        QTest::newRow("bad value")
            << QByteArray(R"({"service-port": "x"})") << "invalid value 'x' for service-port";
    }

    void badConfigFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, messagePart);
        QTemporaryDir dir;
        auto c = ConfigResolver::resolve({{QStringLiteral("config"), writeConfig(dir, content)}},
                                         QProcessEnvironment());
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(messagePart), qPrintable(c.error().message));
    }

    void missingConfigFile()
    {
        auto c = ConfigResolver::resolve(
            {{QStringLiteral("config"), QStringLiteral("/nonexistent/gh.json")}},
            QProcessEnvironment());
        QVERIFY(!c.ok());
        QVERIFY(c.error().message.contains(
            QStringLiteral("cannot read config file /nonexistent/gh.json")));
    }

    void migrationsFresh()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("test: widgets"),
                  {QStringLiteral("CREATE TABLE widgets (id INTEGER PRIMARY KEY, name TEXT)")}});
        auto db = Database::open(path, m, m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        QCOMPARE((*db)->schemaVersion(), 2);
        QSqlQuery q((*db)->connection());
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        QVERIFY(q.exec(
            QStringLiteral("SELECT version, description FROM schema_migrations ORDER BY version")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(q.next());
        QCOMPARE(q.value(1).toString(), QStringLiteral("test: widgets"));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO widgets (name) VALUES ('a')")));
    }

    // A process of this machine that has ended is not alive, however fresh its heartbeat: an
    // instance restarted right after a crash takes up the orders and jobs of the one before
    // (docs/storage.md "Orders across instances"). Another machine's, or one it cannot tell,
    // counts by its heartbeat.
    void endedProcessesOfThisMachineAreNotAlive()
    {
        QTemporaryDir dir;
        SystemClock clock;
        QList<Migration> m = Database::coreMigrations();
        m.append(Instances::migration());
        auto db = Database::open(dir.filePath(QStringLiteral("i.db")), m, clock);
        QVERIFY(db.ok());
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        const QString me = Instances::newProcessId(QStringLiteral("me"));
        QCOMPARE(me, QStringLiteral("%1/%2/me")
                         .arg(QSysInfo::machineHostName())
                         .arg(QCoreApplication::applicationPid()));
        Instances instances(**db, writer, clock, Instances::Self{me, QStringLiteral("1.0.0"), 0});
        QVERIFY(instances.start(true));
        QProcess running;
        running.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(running.waitForStarted());
        const qint64 pid = endedPid();
        QVERIFY(pid > 0);
        const QString runningId = idHere(running.processId(), "run");
        const QString endedId = idHere(pid, "end");
        const QString samePid = idHere(QCoreApplication::applicationPid(), "before");
        const QString elsewhere = QStringLiteral("elsewhere.invalid/1/x");
        const QString unnamed = QStringLiteral("instance-a");
        const QString garbled = idHere(0, "zero");
        const qint64 now = clock.now().toMSecsSinceEpoch();
        QSqlQuery q((*db)->connection());
        for (const QString &id : {runningId, endedId, samePid, elsewhere, unnamed, garbled})
            QVERIFY(q.exec(QStringLiteral("INSERT INTO gatehouse_instances (id, version, "
                                          "listeners, started_at, heartbeat_at) VALUES ('%1', "
                                          "'1.0.0', '{}', %2, %2)")
                               .arg(id)
                               .arg(now)));
        QVERIFY(Instances::ranHereAndEnded(endedId));
        QVERIFY(Instances::ranHereAndEnded(samePid));
        QVERIFY(!Instances::ranHereAndEnded(runningId));
        QVERIFY(!Instances::ranHereAndEnded(elsewhere));
        QVERIFY(!Instances::ranHereAndEnded(unnamed));
        QVERIFY(!Instances::ranHereAndEnded(garbled));
        QVERIFY(!Instances::ranHereAndEnded(QStringLiteral("/1/x")));
        auto alive = instances.aliveIds();
        QVERIFY(alive);
        QCOMPARE(*alive, (QSet<QString>{me, runningId, elsewhere, unnamed, garbled}));
        running.kill();
        QVERIFY(running.waitForFinished());
        alive = instances.aliveIds();
        QVERIFY(alive);
        QCOMPARE(*alive, (QSet<QString>{me, elsewhere, unnamed, garbled}));
        instances.stop();
        writer.stop();
    }

    // The lead of the periodic jobs held by a process of this machine that has ended is
    // taken at the next heartbeat, not when its time runs out; one held by a process that
    // runs, or by another machine's, is left to its holder. The dashboard's list shows the
    // ended process as not alive.
    void leadOfAnEndedProcessIsTakenAtOnce()
    {
        QTemporaryDir dir;
        SystemClock clock;
        QList<Migration> m = Database::coreMigrations();
        m.append(Instances::migration());
        auto db = Database::open(dir.filePath(QStringLiteral("l.db")), m, clock);
        QVERIFY(db.ok());
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        QProcess running;
        running.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(running.waitForStarted());
        const qint64 pid = endedPid();
        QVERIFY(pid > 0);
        const QString runningId = idHere(running.processId(), "run");
        const QString endedId = idHere(pid, "end");
        const QString elsewhere = QStringLiteral("elsewhere.invalid/1/x");
        const qint64 now = clock.now().toMSecsSinceEpoch();
        QSqlQuery q((*db)->connection());
        for (const QString &id : {runningId, endedId, elsewhere})
            QVERIFY(q.exec(QStringLiteral("INSERT INTO gatehouse_instances (id, version, "
                                          "listeners, started_at, heartbeat_at) VALUES ('%1', "
                                          "'1.0.0', '{}', %2, %2)")
                               .arg(id)
                               .arg(now)));
        const auto leadHeldBy = [&](const QString &holder) {
            QSqlQuery u((*db)->connection());
            return u.exec(QStringLiteral("INSERT INTO gatehouse_leader VALUES ('periodic-jobs', "
                                         "'%1', %2) ON CONFLICT (name) DO UPDATE SET holder = "
                                         "excluded.holder, expires_at = excluded.expires_at")
                              .arg(holder)
                              .arg(now + 3'600'000));
        };
        const auto leader = [&] {
            QSqlQuery u((*db)->connection());
            return u.exec(QStringLiteral("SELECT holder FROM gatehouse_leader")) && u.next()
                       ? u.value(0).toString()
                       : QString();
        };
        QVERIFY(leadHeldBy(runningId));
        const QString me = Instances::newProcessId(QStringLiteral("me"));
        Instances instances(**db, writer, clock, Instances::Self{me, QStringLiteral("1.0.0"), 0},
                            100);
        QVERIFY(instances.start(false));
        QVERIFY(!instances.leads());
        QTest::qWait(300); // three heartbeats
        QVERIFY(!instances.leads());
        QCOMPARE(leader(), runningId);
        QVERIFY(leadHeldBy(elsewhere));
        QTest::qWait(300);
        QVERIFY(!instances.leads());
        QCOMPARE(leader(), elsewhere);
        QVERIFY(leadHeldBy(endedId));
        QTRY_VERIFY_WITH_TIMEOUT(instances.leads(), 5000);
        QCOMPARE(leader(), me);
        QHash<QString, bool> alive;
        const QJsonArray listed = instances.list();
        for (const auto &v : listed)
            alive.insert(v.toObject().value(QLatin1String("id")).toString(),
                         v.toObject().value(QLatin1String("alive")).toBool());
        QCOMPARE(alive, (QHash<QString, bool>{
                            {me, true}, {runningId, true}, {endedId, false}, {elsewhere, true}}));
        instances.stop();
        writer.stop();
        running.kill();
        QVERIFY(running.waitForFinished());
    }

    // A failure that repeats is logged once, then once per interval with how many came
    // between, and its end once.
    void repeatedFailuresAreLoggedOncePerInterval()
    {
        RepeatedFailure f(std::chrono::milliseconds(200));
        QVERIFY(!f.succeeded());
        const auto first = f.failed();
        QVERIFY(first.log && first.first);
        QCOMPARE(first.unlogged, 0);
        for (int i = 0; i < 1000; ++i) {
            const auto again = f.failed();
            QVERIFY(!again.log && !again.first);
        }
        QTest::qWait(250);
        const auto later = f.failed();
        QVERIFY(later.log && !later.first);
        QCOMPARE(later.unlogged, 1000);
        QVERIFY(later.lastedMs >= 200);
        QVERIFY(!f.failed().log);
        qint64 lasted = 0;
        QVERIFY(f.succeeded(&lasted));
        QVERIFY(lasted >= 200);
        QVERIFY(!f.succeeded());
        const auto next = f.failed(); // another outage: logged at once again
        QVERIFY(next.log && next.first);
    }

    void migrationsAndSettingsTakeTheClocksTime()
    {
        // Recorded with the injected clock's time, not the machine's.
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2031, 2, 3), QTime(4, 5, 6, 789), Qt::UTC));
        auto db =
            Database::open(dir.filePath(QStringLiteral("g.db")), Database::coreMigrations(), clock);
        QVERIFY(db.ok());
        QSqlQuery q((*db)->connection());
        QVERIFY(q.exec(QStringLiteral("SELECT applied_at FROM schema_migrations")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("2031-02-03T04:05:06.789Z"));
        clock.advance(60'000);
        SqlSettingsStore settings(**db, clock);
        QVERIFY(settings.setValue(QStringLiteral("k"), QStringLiteral("v")).ok());
        QVERIFY(q.exec(QStringLiteral("SELECT updated_at FROM settings WHERE key = 'k'")) &&
                q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("2031-02-03T04:06:06.789Z"));
    }

    void readStatementsPreparedOnceAndReset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("test: widgets"),
                  {QStringLiteral("CREATE TABLE widgets (id INTEGER PRIMARY KEY, name TEXT)"),
                   QStringLiteral("INSERT INTO widgets (name) VALUES ('a'), ('b'), ('c')")}});
        auto db = Database::open(path, m, m_clock);
        QVERIFY(db.ok());
        Database &d = **db;
        const char *byName = "SELECT id FROM widgets WHERE name = ?";
        const Statement *first = nullptr;
        {
            const ReadStatement q = d.read(byName);
            first = &*q;
            q->bind(1, QStringLiteral("b"));
            QVERIFY(q->next());
            QCOMPARE(q->int64(0), 2);
            QVERIFY(!q->next());
            // A second statement while the first is in use (address stability).
            const ReadStatement all = d.read("SELECT name FROM widgets ORDER BY id");
            QVERIFY(all->next());
            QCOMPARE(all->text(0), QStringLiteral("a"));
            // Left after one row of three: going out of scope resets it.
        }
        {
            const ReadStatement q = d.read(byName);
            QCOMPARE(&*q, first); // the same prepared statement, bindings cleared
            QVERIFY(!q->next());  // NULL never equals a name
        }
        // No read transaction was left open: a truncating checkpoint from another connection
        // completes (busy = 0) after a write.
        {
            QSqlQuery w(d.connection());
            QVERIFY(w.exec(QStringLiteral("INSERT INTO widgets (name) VALUES ('d')")));
            QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"),
                                                           QStringLiteral("checkpointer"));
            other.setDatabaseName(path);
            QVERIFY(other.open());
            QSqlQuery c(other);
            QVERIFY(c.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) && c.next());
            QCOMPARE(c.value(0).toInt(), 0); // busy
            other.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("checkpointer"));
        // Bad SQL: no rows and the reason.
        {
            const ReadStatement bad = d.read("SELECT nope FROM widgets");
            QVERIFY(!bad->ok());
            QVERIFY(!bad->next());
        }
        // Another thread's statements go with its connection when it ends.
        QString seen;
        std::unique_ptr<QThread> worker(QThread::create([&] {
            const ReadStatement q = d.read("SELECT name FROM widgets WHERE id = ?");
            q->bind(1, qint64(3));
            if (q->next())
                seen = q->text(0);
        }));
        worker->start();
        QVERIFY(worker->wait(5000));
        QCOMPARE(seen, QStringLiteral("c"));
        d.close(); // finalizes this thread's statements before closing its connection
    }

    void eventQueueRunsInPostOrderAndDrainsOnStop()
    {
        // Work runs on the queue's own thread in the order it was posted, from any thread;
        // work posted while the thread is busy runs after it; stop() runs everything posted
        // before it (and what that work posts), later posts are dropped.
        EventQueue queue;
        QMutex mutex;
        QList<int> seen;
        QSet<QThread *> threads;
        auto record = [&](int n) {
            return [&, n] {
                QMutexLocker lock(&mutex);
                seen.append(n);
                threads.insert(QThread::currentThread());
            };
        };
        QSemaphore started, release;
        queue.post([&] {
            started.release();
            release.acquire(); // the queue's thread is busy while the rest is posted
        });
        QVERIFY(started.tryAcquire(1, 5000));
        for (int i = 0; i < 100; ++i)
            queue.post(record(i));
        std::unique_ptr<QThread> other(QThread::create([&] {
            for (int i = 100; i < 200; ++i)
                queue.post(record(i));
        }));
        other->start();
        QVERIFY(other->wait(5000));
        queue.post([&, record] { queue.post(record(200)); }); // posted by queued work
        release.release();
        queue.stop();
        QCOMPARE(seen.size(), 201);
        for (int i = 0; i < 201; ++i)
            QCOMPARE(seen.at(i), i);
        QCOMPARE(threads.size(), 1);
        QVERIFY(!threads.contains(QThread::currentThread()));
        queue.post(record(999)); // after stop: dropped, nothing runs
        QThread::msleep(20);
        QCOMPARE(seen.size(), 201);
    }

    void everyThreadReleasesItsStateBeforeItsOwnerReturns()
    {
        // OpenSSL frees a thread's state from a thread-exit destructor that runs after
        // QThread::wait() returned (core/threadstate.h): each thread of Core releases it itself
        // as its last act, so it is done by the time the object that owns the thread is gone.
        static QMutex mutex;
        static QStringList released;
        static QSet<QThread *> threads;
        ThreadState::setRelease([] {
            QMutexLocker lock(&mutex);
            released.append(QThread::currentThread()->objectName());
            threads.insert(QThread::currentThread());
        });
        auto take = [] {
            QMutexLocker lock(&mutex);
            QStringList names = released;
            released.clear();
            threads.clear();
            return names;
        };
        QTemporaryDir dir;
        const QList<Migration> m = withRowsTable();
        auto db = Database::open(dir.filePath(QStringLiteral("t.db")), m, m_clock);
        QVERIFY(db.ok());
        {
            WriteQueue writer(**db, QStringLiteral("test-writer"));
            QVERIFY(writer.run(insertRow(1)).ok());
            QVERIFY(take().isEmpty()); // nothing released while the threads run
        }
        QStringList names = take();
        names.sort();
        QCOMPARE(names, (QStringList{"test-writer", "test-writer-checkpoint"}));
        {
            EventQueue queue;
            queue.post([] {});
        }
        QCOMPARE(take(), QStringList{"events"});
        Metrics metrics;
        int poolThreads = 0;
        {
            HttpServer server(ListenerOptions{}, metrics, m_clock);
            QVERIFY(take().isEmpty());
        }
        {
            QMutexLocker lock(&mutex);
            poolThreads = int(threads.size());
            QVERIFY(!threads.contains(QThread::currentThread()));
        }
        // Each thread of both pools (the isolated one: a core fewer), once.
        QCOMPARE(poolThreads, std::max(2, QThread::idealThreadCount()) +
                                  std::max(1, QThread::idealThreadCount() - 1));
        QCOMPARE(take().size(), poolThreads);
        ThreadState::setRelease(nullptr);
        {
            WriteQueue writer(**db, QStringLiteral("test-writer"));
        }
        QVERIFY(take().isEmpty()); // nothing set: nothing runs
    }
    void eventQueuePostOrRunWithoutAQueueRunsAtOnce()
    {
        // No queue (tests, tools): the work runs in the caller, before postOrRun returns.
        QThread *ranOn = nullptr;
        EventQueue::postOrRun(nullptr, [&] { ranOn = QThread::currentThread(); });
        QCOMPARE(ranOn, QThread::currentThread());
        // With a queue: on the queue's thread, after what was posted before it.
        EventQueue queue;
        QList<int> seen;
        QThread *queued = nullptr;
        queue.post([&] { seen.append(1); });
        EventQueue::postOrRun(&queue, [&] {
            seen.append(2);
            queued = QThread::currentThread();
        });
        queue.stop();
        QCOMPARE(seen, (QList<int>{1, 2}));
        QVERIFY(queued && queued != QThread::currentThread());
    }

    void eventQueuePostAfterWaitsAndIsDroppedAtStop()
    {
        // postAfter: on the queue's thread, not before the delay; one still waiting when the
        // queue stops never runs. Without a queue it runs at once.
        int direct = 0;
        EventQueue::postAfterOrRun(nullptr, std::chrono::milliseconds(5000), [&] { ++direct; });
        QCOMPARE(direct, 1);
        EventQueue queue;
        QElapsedTimer clock;
        clock.start();
        std::atomic<qint64> ranAfter{-1};
        std::atomic<QThread *> ranOn{nullptr};
        std::atomic<int> late{0};
        queue.postAfter(std::chrono::milliseconds(150), [&] {
            ranAfter = clock.elapsed();
            ranOn = QThread::currentThread();
        });
        queue.postAfter(std::chrono::milliseconds(60'000), [&] { ++late; });
        QTRY_VERIFY_WITH_TIMEOUT(ranAfter.load() >= 0, 5000);
        QVERIFY2(ranAfter.load() >= 149, qPrintable(QString::number(ranAfter.load())));
        QVERIFY(ranOn.load() && ranOn.load() != QThread::currentThread());
        queue.stop();
        queue.postAfter(std::chrono::milliseconds(0), [&] { ++late; }); // after stop: dropped
        QTest::qWait(50);
        QCOMPARE(late.load(), 0);
    }

    void eventQueueRunsWorkPostedWhilePaced()
    {
        // After a busy run the next one is paced (PaceInterval later): work posted in that
        // window joins it, and work posted once the queue went idle again wakes it at once.
        EventQueue queue;
        QSemaphore ran;
        for (int round = 0; round < 50; ++round) {
            queue.post([&] { ran.release(); });
            QVERIFY(ran.tryAcquire(1, 5000)); // inside the paced window, or just after it
            if (round % 10 == 9)
                QThread::msleep(5); // the paced run found nothing: idle
        }
        for (int i = 0; i < 1000; ++i) // a burst from another thread while runs are paced
            queue.post([&] { ran.release(); });
        QVERIFY(ran.tryAcquire(1000, 5000));
        QThread::msleep(5);
        queue.post([&] { ran.release(); });
        QVERIFY(ran.tryAcquire(1, 5000));
    }

    void jsonWriterWritesWhatQtWrites()
    {
        // Byte for byte what QJsonDocument writes for the same object (members in Qt's sorted
        // order), for every kind of character a claim or a token response can hold.
        QStringList strings{
            QString(), QStringLiteral("plain"), QStringLiteral("quote\" back\\slash / solidus"),
            QStringLiteral("latin-1 \u00e9\u00fc, BMP \u20ac \u4e2d, astral \U0001F600"),
            QStringLiteral("https://api.example.test/r?x=1&y=<2>")};
        QString controls;
        for (char16_t c = 0; c < 0x20; ++c)
            controls.append(QChar(c));
        controls.append(QChar(0x7f));
        strings.append(controls);
        quint64 x = 0x9e3779b97f4a7c15ULL;
        for (int i = 0; i < 500; ++i) { // random text, lone and paired surrogates included
            QString r;
            for (int k = 0; k < 24; ++k) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                const char16_t c = char16_t(k % 3 == 0 ? x % 0x80 : (k % 3 == 1 ? x % 0xd800 : x));
                r.append(QChar(c));
            }
            strings.append(r);
        }
        for (const QString &v : std::as_const(strings)) {
            JsonObjectWriter w;
            w.add("a", v).add("b", qint64(-9007199254740991LL)).add("c", qint64(0));
            w.add(QStringLiteral("d\"e"), QJsonValue(QJsonArray{v, true, QJsonValue::Null, 1.5}));
            const QByteArray mine = w.finish();
            const QJsonObject o{
                {QStringLiteral("a"), v},
                {QStringLiteral("b"), qint64(-9007199254740991LL)},
                {QStringLiteral("c"), 0},
                {QStringLiteral("d\"e"), QJsonArray{v, true, QJsonValue::Null, 1.5}}};
            QCOMPARE(mine, QJsonDocument(o).toJson(QJsonDocument::Compact));
        }
        // A lone surrogate (no valid UTF-8 form) is escaped, as Qt writes it, and reads back.
        JsonObjectWriter w;
        const QString lone = QStringView(u"a\xd800"
                                         u"b\xdc00"
                                         u"\xd83d\xde00")
                                 .toString();
        const QByteArray loneText = w.add("s", lone).finish();
        QCOMPARE(loneText, QByteArray("{\"s\":\"a\\ud800b\\udc00\xf0\x9f\x98\x80\"}"));
        QCOMPARE(
            loneText,
            QJsonDocument(QJsonObject{{QStringLiteral("s"), lone}}).toJson(QJsonDocument::Compact));
        QJsonParseError err{};
        QCOMPARE(QJsonDocument::fromJson(loneText, &err).object().value("s").toString(), lone);
        QCOMPARE(err.error, QJsonParseError::NoError);
        // The writer starts over after finish().
        QCOMPARE(w.add("k", qint64(1)).finish(), QByteArray("{\"k\":1}"));
    }

    void jsonWriterNullBoolDoubleRaw()
    {
        // Each as QJsonDocument writes it: doubles in their shortest round-trip form (an
        // integral one without ".0"), a non-finite one as null.
        const QList<double> doubles{0.0, 12.0, 1.5, 0.1, 1234.5678, 1e-7, 3e21, -2.25};
        for (double d : doubles) {
            JsonObjectWriter w;
            const QByteArray mine = w.addDouble("d", d).finish();
            QCOMPARE(mine, QJsonDocument(QJsonObject{{QStringLiteral("d"), d}})
                               .toJson(QJsonDocument::Compact));
        }
        JsonObjectWriter w;
        QCOMPARE(w.addDouble("n", std::nan("")).addDouble("i", HUGE_VAL).finish(),
                 QByteArray(R"({"n":null,"i":null})"));
        QCOMPARE(w.addNull("a")
                     .addBool("t", true)
                     .addBool("f", false)
                     .addTextOrNull("e", QString())
                     .addTextOrNull("s", QStringLiteral("x\"y"))
                     .addRaw("o", R"({"k":[1,2]})")
                     .finish(),
                 QByteArray("{\"a\":null,\"t\":true,\"f\":false,\"e\":null,\"s\":\"x\\\"y\","
                            "\"o\":{\"k\":[1,2]}}"));
    }

    void jsonObjectMemberAsQtReadsIt()
    {
        // Every member of varied objects, compact and spaced, found as QJsonDocument reads it.
        QList<QByteArray> texts;
        texts << QByteArray("{\"a\":1,\"b\":\"x\",\"c\":null,\"d\":true,\"e\":false,"
                            "\"f\":-1.5e3,\"g\":[1,{\"h\":\"}\"}],\"i\":{}}");
        texts << QByteArray("{\"state\":\"succeeded\",\"nested\":{\"state\":\"failed\"},"
                            "\"s\":\"\\\"state\\\":\\\"x\\\"\"}");
        texts << QByteArray(" { \"a\" : [ ] , \"b\" :\t{ \"a\" : 2 } ,\n\"c\":\"q\\\"}\\\\\" } ");
        texts << QByteArray("{\"k\\u0065y\":\"escaped name\",\"key2\":\"\\u00e9\\ud83d\\ude00\"}");
        texts << QByteArray("{}");
        quint64 x = 0x2545f4914f6cdd1dULL;
        for (int i = 0; i < 300; ++i) { // random strings as values, with escapes of all kinds
            JsonObjectWriter w;
            for (int m = 0; m < 4; ++m) {
                QString v;
                for (int k = 0; k < 12; ++k) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    v.append(QChar(char16_t(k % 2 ? x % 0x80 : x % 0xd800)));
                }
                w.add(QByteArray("m" + QByteArray::number(m)).constData(), v);
            }
            w.add("n", qint64(x % 100000) - 50000).addDouble("d", double(x % 1000) / 8);
            if (texts.size() > 5)
                w.addRaw("o", texts.last()); // a nested object with all of the above
            texts.append(w.finish());
        }
        for (const QByteArray &t : std::as_const(texts)) {
            const QJsonObject o = QJsonDocument::fromJson(t).object();
            QVERIFY2(!QJsonDocument::fromJson(t).isNull(), t.constData());
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QByteArray key = it.key().toLatin1();
                const auto found = jsonObjectMember(t, QLatin1StringView(key));
                QVERIFY2(found.has_value(), t.constData());
                QCOMPARE(*found, it.value());
            }
            QVERIFY(!jsonObjectMember(t, QLatin1StringView("absent")));
        }
        // Only top-level names count: "state" inside a nested object or a string is not it.
        QCOMPARE(jsonObjectMember(texts.at(1), QLatin1StringView("state"))->toString(),
                 QStringLiteral("succeeded"));
        QVERIFY(!jsonObjectMember("{\"n\":{\"state\":\"x\"}}", QLatin1StringView("state")));
        QCOMPARE(jsonObjectMember(texts.at(3), QLatin1StringView("key"))->toString(),
                 QStringLiteral("escaped name"));
        // Not an object, or broken where it had to be read: no member, no crash. Every
        // truncation of a valid object, and some malformed ones.
        const QByteArray whole = texts.at(0);
        const QStringList names = QJsonDocument::fromJson(whole).object().keys();
        for (qsizetype n = 0; n < whole.size(); ++n) {
            QVERIFY(!jsonObjectMember(whole.left(n), QLatin1StringView("absent")));
            for (const QString &name : names) {
                const QByteArray latin = name.toLatin1();
                QVERIFY2(!jsonObjectMember(whole.left(n), QLatin1StringView(latin)),
                         whole.left(n).constData());
            }
        }
        // A name twice: the last one, as Qt reads it. Something after the object: no object.
        const QByteArray twice("{\"a\":1,\"b\":0,\"a\":[2]}");
        QCOMPARE(*jsonObjectMember(twice, QLatin1StringView("a")),
                 QJsonDocument::fromJson(twice).object().value(QStringLiteral("a")));
        QCOMPARE(jsonObjectMember("{\"a\":1} \n", QLatin1StringView("a"))->toInt(), 1);
        QVERIFY(!jsonObjectMember("{\"a\":1} x", QLatin1StringView("a")));
        QVERIFY(!jsonObjectMember("{\"a\":1}{}", QLatin1StringView("a")));
        for (const char *bad : {"", "[1]", "\"a\"", "{\"a\" 1}", "{\"a\":}", "{a:1}",
                                "{\"a\":1 \"b\":2}", "{\"a\":\"x}", "{\"b\":[1,2}", "{\"b\":tru}"})
            QVERIFY(!jsonObjectMember(bad, QLatin1StringView("b")));
    }

    void eventPublishedAsTextReadsAsItsObject()
    {
        ManualClock clock(QDateTime(QDate(2026, 11, 27), QTime(5, 0, 1, 250), Qt::UTC));
        EventBus bus(clock, 10);
        QSignalSpy spy(&bus, &EventBus::published);
        const QString tricky = QStringLiteral("quote \" backslash \\ tab \t \u00e9\u4e2d");
        JsonObjectWriter w;
        const QByteArray text = w.add("orderId", tricky)
                                    .add("version", qint64(7))
                                    .addNull("error")
                                    .addBool("attempted", true)
                                    .addDouble("latencyMs", 1.25)
                                    .finish();
        const QJsonObject expected{{QStringLiteral("orderId"), tricky},
                                   {QStringLiteral("version"), 7},
                                   {QStringLiteral("error"), QJsonValue::Null},
                                   {QStringLiteral("attempted"), true},
                                   {QStringLiteral("latencyMs"), 1.25}};
        const Event sent = bus.publishJson(QStringLiteral("order.status"), text);
        bus.publish(QStringLiteral("as.object"), expected);
        QCOMPARE(spy.count(), 2);
        const Event got = spy.at(0).at(0).value<Event>();
        QCOMPARE(got.seq, 1);
        QCOMPARE(got.data(), expected);
        QCOMPARE(got.dataJson(), text);
        QCOMPARE(sent.data(), expected);
        QCOMPARE(got.value(QLatin1StringView("orderId")).toString(), tricky);
        QCOMPARE(got.value(QLatin1StringView("latencyMs")).toDouble(), 1.25);
        QVERIFY(got.value(QLatin1StringView("error")).isNull());
        QVERIFY(got.value(QLatin1StringView("nope")).isUndefined());
        // The history keeps the text; the object form of the other event gives the same answers.
        const QList<Event> history = bus.since(0);
        QCOMPARE(history.size(), 2);
        QCOMPARE(history.at(0).data(), expected);
        QCOMPARE(history.at(1).data(), expected);
        QCOMPARE(QJsonDocument::fromJson(history.at(1).dataJson()).object(), expected);
        // What the SSE stream sends: the same envelope either way, parsing to toJson().
        for (const Event &e : history) {
            QJsonParseError err{};
            const QJsonObject envelope = QJsonDocument::fromJson(e.toJsonText(), &err).object();
            QCOMPARE(err.error, QJsonParseError::NoError);
            QCOMPARE(envelope, e.toJson());
            QCOMPARE(envelope.value(QStringLiteral("time")).toString(),
                     QStringLiteral("2026-11-27T05:00:01.250Z"));
            QCOMPARE(envelope.value(QStringLiteral("data")).toObject(), expected);
        }
        // Empty text is an empty object, never invalid JSON on the stream.
        QCOMPARE(bus.publishJson(QStringLiteral("e"), QByteArray()).toJsonText(),
                 QByteArray(R"({"data":{},"seq":3,"time":"2026-11-27T05:00:01.250Z","type":"e"})"));
    }

    void writerCommitsAnEventLoopPassTogether()
    {
        // Jobs submitted inside a DeferWakes scope (HttpServer: one event-loop pass) wait
        // for wakeDeferred() and then commit in one transaction; a job from another thread
        // or run() inside the scope still wakes the writer at once and takes them along.
        QTemporaryDir dir;
        const QList<Migration> m = withRowsTable();
        auto db = Database::open(dir.filePath(QStringLiteral("g.db")), m, m_clock);
        QVERIFY(db.ok());
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        std::atomic<int> done{0};
        auto count = [&done](const Result<void> &r) {
            if (r)
                ++done;
        };
        QVERIFY(writer.run(insertRow(0)).ok());
        QTRY_COMPARE(writer.committedJobs(), 1);
        QThread::msleep(20); // the writer is idle, waiting for a wake
        {
            WriteQueue::DeferWakes pass;
            for (int i = 0; i < 5; ++i) {
                writer.submit(insertRow(i), count);
                QThread::msleep(20); // woken one by one, each would have committed alone
            }
        }
        QVERIFY(WriteQueue::hasDeferred());
        QCOMPARE(done.load(), 0);
        QCOMPARE(writer.committedBatches(), 1);
        WriteQueue::wakeDeferred();
        QVERIFY(!WriteQueue::hasDeferred());
        QTRY_COMPARE(done.load(), 5);
        // (the counters follow the done callbacks)
        QTRY_COMPARE(writer.committedJobs(), 6);
        QCOMPARE(writer.committedBatches(), 2); // the five in one transaction

        // Another thread's job, then run(), while this thread defers.
        {
            WriteQueue::DeferWakes pass;
            writer.submit(insertRow(5), count);
            QThread::msleep(20);
            QCOMPARE(done.load(), 5);
            std::unique_ptr<QThread> other(
                QThread::create([&] { writer.submit(insertRow(6), count); }));
            other->start();
            QVERIFY(other->wait(5000));
            QTRY_COMPARE(done.load(), 7); // both: the other thread's submit woke the writer
            QVERIFY(writer.run(insertRow(7)).ok());
        }
        WriteQueue::wakeDeferred(); // nothing left to wake
        QTRY_COMPARE(writer.committedJobs(), 9);
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT COUNT(*), SUM(n) FROM rows")) && rows.next());
        QCOMPARE(rows.value(0).toInt(), 9);
        QCOMPARE(rows.value(1).toInt(), 28);
    }

    void writerJobsJournalInMemory()
    {
        // Every writer job runs in a SAVEPOINT, and SQLite copies each page the job changes
        // into a statement journal. Above SQLite's default of 64 KiB that journal became a
        // temporary file (deleted at once, named etilqs_*): a write per page and a file per
        // batch. A job that changes about 100 KiB of existing pages (an order with its
        // deliveries changes fewer) keeps it in memory: no such file is open while it runs.
        //
        // A job that changes far more (6 MiB) keeps its journal in memory too: the writer's
        // connection holds temporary files in memory (WriteQueue::loop). Before, past 128 KiB
        // the journal went to a file, written a page at a time for the rest of the batch,
        // which an order with its deliveries reached whenever a B-tree page split. It still
        // commits beside the jobs batched with it; and one that fails after changing every
        // row is undone alone, from that journal.
        QTemporaryDir dir;
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("test: rows"),
                  {QStringLiteral("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB)")}});
        auto db = Database::open(dir.filePath(QStringLiteral("j.db")), m, m_clock);
        QVERIFY(db.ok());
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        auto seeded = writer.run([](WriteTransaction &tx) -> Result<void> {
            for (int i = 0; i < 6000; ++i) { // about 1,500 pages, 6 MiB
                Statement &q = tx.stmt("INSERT INTO rows (data) VALUES (zeroblob(1000))");
                if (!q.exec())
                    return WriteTransaction::sqlError(q, "seed");
            }
            return {};
        });
        QVERIFY(seeded.ok());
        auto journalFiles = [] { // open files named etilqs_* (deleted at once by SQLite)
            int n = 0;
            const QDir fds(QStringLiteral("/proc/self/fd"));
            for (const QString &fd : fds.entryList(QDir::AllEntries | QDir::System)) {
                char target[4096];
                const ssize_t len =
                    readlink(fds.filePath(fd).toLocal8Bit().constData(), target, sizeof target - 1);
                if (len > 0 && QByteArray(target, int(len)).contains("etilqs_"))
                    ++n;
            }
            return n;
        };
        auto update = [&](int rows, int *changed, int *files) {
            return [=, &journalFiles](WriteTransaction &tx) -> Result<void> {
                Statement &q = tx.stmt("UPDATE rows SET data = zeroblob(1001) WHERE id <= ?");
                if (!q.bind(1, rows).exec())
                    return WriteTransaction::sqlError(q, "update");
                *changed = q.changes();
                *files = journalFiles();
                return {};
            };
        };
        int changed = 0;
        int files = -1;
        auto small = writer.run(update(100, &changed, &files)); // 25 pages
        QVERIFY2(small.ok(), qPrintable(small.ok() ? QString() : small.error().message));
        QCOMPARE(changed, 100);
        QCOMPARE(files, 0);

        // Every row in one job, a small job in the same batch.
        int bigChanged = 0;
        int bigFiles = -1;
        std::optional<Result<void>> big;
        std::optional<Result<void>> beside;
        writer.submit(update(6000, &bigChanged, &bigFiles),
                      [&](const Result<void> &r) { big = r; });
        writer.submit(
            [](WriteTransaction &tx) -> Result<void> {
                Statement &q = tx.stmt("INSERT INTO rows (data) VALUES (zeroblob(10))");
                return q.exec() ? Result<void>() : WriteTransaction::sqlError(q, "insert");
            },
            [&](const Result<void> &r) { beside = r; });
        QTRY_VERIFY(big && beside);
        QVERIFY2(*big, qPrintable(*big ? QString() : big->error().message));
        QVERIFY2(*beside, qPrintable(*beside ? QString() : beside->error().message));
        QCOMPARE(bigChanged, 6000);
        QCOMPARE(bigFiles, 0);
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT COUNT(*), SUM(length(data)) FROM rows")) &&
                rows.next());
        QCOMPARE(rows.value(0).toInt(), 6001);
        QCOMPARE(rows.value(1).toLongLong(), 6000LL * 1001 + 10);
        rows.finish();

        // Every row changed, then a failure: that job is undone, the one beside it is kept.
        std::optional<Result<void>> failed;
        beside.reset();
        int failedChanged = 0;
        writer.submit(
            [&](WriteTransaction &tx) -> Result<void> {
                Statement &q = tx.stmt("UPDATE rows SET data = zeroblob(1002) WHERE id <= 6000");
                if (!q.exec())
                    return WriteTransaction::sqlError(q, "update");
                failedChanged = q.changes();
                return makeError(QStringLiteral("test"),
                                 QStringLiteral("refused after the update"));
            },
            [&](const Result<void> &r) { failed = r; });
        writer.submit(
            [](WriteTransaction &tx) -> Result<void> {
                Statement &q = tx.stmt("INSERT INTO rows (data) VALUES (zeroblob(20))");
                return q.exec() ? Result<void>() : WriteTransaction::sqlError(q, "insert");
            },
            [&](const Result<void> &r) { beside = r; });
        QTRY_VERIFY(failed && beside);
        QVERIFY(!*failed);
        QCOMPARE(failed->error().message, QStringLiteral("refused after the update"));
        QVERIFY2(*beside, qPrintable(*beside ? QString() : beside->error().message));
        QCOMPARE(failedChanged, 6000);
        QVERIFY(rows.exec(QStringLiteral("SELECT COUNT(*), SUM(length(data)) FROM rows")) &&
                rows.next());
        QCOMPARE(rows.value(0).toInt(), 6002);
        QCOMPARE(rows.value(1).toLongLong(), 6000LL * 1001 + 10 + 20);
    }

    void writerJobThatEndsItsTransaction()
    {
        // Some statement errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) make SQLite roll the
        // whole transaction back, undoing the jobs batched before. The job that failed keeps
        // its own error, and the others of its batch name it, instead of all saying "cannot
        // commit - no transaction is active". The next batch commits as usual. (A job that
        // runs ROLLBACK itself stands in for SQLite here.)
        QTemporaryDir dir;
        const QList<Migration> m = withRowsTable();
        auto db = Database::open(dir.filePath(QStringLiteral("e.db")), m, m_clock);
        QVERIFY(db.ok());
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        QVERIFY(writer.run(insertRow(0)).ok());
        QThread::msleep(20); // the writer is idle, waiting for a wake
        std::vector<std::optional<Result<void>>> results(3);
        auto keep = [&results](int i) {
            return [&results, i](const Result<void> &r) { results[size_t(i)] = r; };
        };
        {
            WriteQueue::DeferWakes pass; // the three in one batch
            writer.submit(insertRow(1), keep(0));
            writer.submit(
                [](WriteTransaction &tx) -> Result<void> {
                    Statement &q = tx.stmt("ROLLBACK");
                    if (!q.exec())
                        return WriteTransaction::sqlError(q, "rollback");
                    return makeError(QStringLiteral("test"), QStringLiteral("disk full"));
                },
                keep(1));
            writer.submit(insertRow(3), keep(2));
        }
        WriteQueue::wakeDeferred();
        QTRY_VERIFY(results[0] && results[1] && results[2]);
        QVERIFY(!*results[1]);
        QCOMPARE(results[1]->error().message, QStringLiteral("disk full"));
        for (size_t i : {size_t(0), size_t(2)}) {
            QVERIFY(!*results[i]);
            QCOMPARE(results[i]->error().code, QStringLiteral("database-error"));
            QCOMPARE(results[i]->error().message,
                     QStringLiteral("the database did not accept the write: disk full"));
        }
        QVERIFY(writer.run(insertRow(4)).ok());
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT group_concat(n) FROM rows")) && rows.next());
        QCOMPARE(rows.value(0).toString(), QStringLiteral("0,4"));
    }

    void writerCheckpointsTheWalOnItsOwnThread()
    {
        // The writer's commits hand WAL checkpoints to a thread of their own (SQLite's
        // automatic checkpoint would run them inside a commit and hold up every request in that
        // batch). They still happen: after 8,000 commits of one 4 KiB row, far more than the
        // 1,000-page threshold, the WAL file has been reused from its start instead of growing
        // to ~32 MB, and every row is there after a reopen. The writer's share of the
        // checkpointing never collides with a pass of the checkpoint thread (that collision
        // kept the WAL from restarting: "checkpoint failed: database is locked"), and a pass
        // slowed down by a busy disk holds the writer once the WAL reached 3,000 pages (it
        // grew to 37 MB in a CI run beside other tests' writes before).
        QTest::failOnWarning(QRegularExpression(QStringLiteral("checkpoint failed")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("test: blobs"),
                  {QStringLiteral("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")}});
        {
            auto db = Database::open(path, m, m_clock);
            QVERIFY(db.ok());
            WriteQueue writer(**db, QStringLiteral("test-writer"));
            constexpr int Commits = 8000;
            for (int i = 0; i < Commits; ++i) {
                auto r = writer.run([](WriteTransaction &tx) -> Result<void> {
                    QSqlQuery &q = tx.query(
                        QStringLiteral("INSERT INTO blobs (data) VALUES (zeroblob(4096))"));
                    if (!q.exec())
                        return WriteTransaction::sqlError(q, "insert blob");
                    return {};
                });
                QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
            }
            const qint64 walBytes = QFileInfo(path + QStringLiteral("-wal")).size();
            QVERIFY2(walBytes < 16LL * 1024 * 1024,
                     qPrintable(QStringLiteral("WAL of %1 bytes").arg(walBytes)));
            QVERIFY(walBytes > 0);
        }
        auto again = Database::open(path, m, m_clock);
        QVERIFY(again.ok());
        QSqlQuery count((*again)->connection());
        QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM blobs")) && count.next());
        QCOMPARE(count.value(0).toInt(), 8000);
    }

    void migrationsUpgradeKeepsData()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        {
            auto db = Database::open(path, Database::coreMigrations(), m_clock);
            QVERIFY(db.ok());
            SqlSettingsStore settings(**db, m_clock);
            QVERIFY(settings.setValue(QStringLiteral("k"), QStringLiteral("v1")).ok());
        }
        QList<Migration> m = Database::coreMigrations();
        m.append({2,
                  QStringLiteral("add column"),
                  {QStringLiteral("ALTER TABLE settings ADD COLUMN note TEXT")}});
        m.append(
            {3, QStringLiteral("fill"), {QStringLiteral("UPDATE settings SET note = 'migrated'")}});
        auto db = Database::open(path, m, m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        QCOMPARE((*db)->schemaVersion(), 3);
        SqlSettingsStore settings(**db, m_clock);
        QCOMPARE(*settings.value(QStringLiteral("k")), QStringLiteral("v1"));
        QSqlQuery q((*db)->connection());
        QVERIFY(q.exec(QStringLiteral("SELECT note FROM settings WHERE key = 'k'")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("migrated"));
        // Re-opening applies nothing twice.
        (*db).reset();
        auto again = Database::open(path, m, m_clock);
        QVERIFY(again.ok());
        QSqlQuery c((*again)->connection());
        QVERIFY(c.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && c.next());
        QCOMPARE(c.value(0).toInt(), 3);
    }

    void failingMigrationRollsBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        QList<Migration> m = Database::coreMigrations();
        m.append(
            {2,
             QStringLiteral("broken"),
             {QStringLiteral("CREATE TABLE t2 (id INTEGER)"), QStringLiteral("THIS IS NOT SQL")}});
        auto db = Database::open(path, m, m_clock);
        QVERIFY(!db.ok());
        QCOMPARE(db.error().code, QStringLiteral("migration-failed"));
        QVERIFY(db.error().message.contains(QStringLiteral("migration 2 (broken)")));
        auto ok = Database::open(path, Database::coreMigrations(), m_clock);
        QVERIFY(ok.ok());
        QCOMPARE((*ok)->schemaVersion(), 1);
        QSqlQuery q((*ok)->connection());
        QVERIFY(!q.exec(QStringLiteral("SELECT * FROM t2"))); // rolled back with its migration
    }

    void postgresDialect()
    {
        // Placeholders: `?` numbered in order, `?N` kept, none inside literals or quoted names.
        int params = 0;
        QCOMPARE(pgPlaceholders("SELECT a FROM t WHERE b = ? AND c = '?' AND \"d?\" = ?", &params),
                 QByteArray("SELECT a FROM t WHERE b = $1 AND c = '?' AND \"d?\" = $2"));
        QCOMPARE(params, 2);
        QCOMPARE(pgPlaceholders("UPDATE s SET r = ?1 WHERE id = 1 AND r < ?1", &params),
                 QByteArray("UPDATE s SET r = $1 WHERE id = 1 AND r < $1"));
        QCOMPARE(params, 1);
        QCOMPARE(pgPlaceholders("SELECT ?3, ?1, ?, 'it''s ?'", &params),
                 QByteArray("SELECT $3, $1, $4, 'it''s ?'")); // as SQLite numbers them
        QCOMPARE(params, 4);
        QCOMPARE(pgPlaceholders("SELECT 1", &params), QByteArray("SELECT 1"));
        QCOMPARE(params, 0);
        // DDL: SQLite's types in PostgreSQL's, text compared byte-wise, NOCASE as citext.
        QCOMPARE(
            pgDdl(QStringLiteral("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                                 "n INTEGER NOT NULL, r REAL, b BLOB NOT NULL, s TEXT, u TEXT "
                                 "NOT NULL UNIQUE COLLATE NOCASE, PRIMARY KEY (s)) WITHOUT ROWID")),
            QStringLiteral("CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY "
                           "KEY, n BIGINT NOT NULL, r DOUBLE PRECISION, b BYTEA NOT NULL, s "
                           "TEXT COLLATE \"C\", u CITEXT NOT NULL UNIQUE, PRIMARY KEY (s))"));
        QCOMPARE(pgDdl(QStringLiteral("ALTER TABLE t ADD COLUMN x INTEGER")),
                 QStringLiteral("ALTER TABLE t ADD COLUMN x BIGINT"));
        // Anything but CREATE TABLE and ALTER TABLE is left as it is.
        QCOMPARE(pgDdl(QStringLiteral("INSERT INTO t (s) VALUES ('INTEGER TEXT BLOB')")),
                 QStringLiteral("INSERT INTO t (s) VALUES ('INTEGER TEXT BLOB')"));
        // URLs: the password never reaches messages; libpq options pass; junk is refused.
        const auto t = parsePostgresUrl(
            QStringLiteral("postgresql://gh:s%40cret@db.example:6432/gate?sslmode=verify-full"));
        QVERIFY(t.ok());
        QCOMPARE(t->user, QStringLiteral("gh"));
        QCOMPARE(t->password, QStringLiteral("s@cret"));
        QCOMPARE(t->host, QStringLiteral("db.example"));
        QCOMPARE(t->port, 6432);
        QCOMPARE(t->database, QStringLiteral("gate"));
        QCOMPARE(t->options, QStringLiteral("sslmode=verify-full;connect_timeout=10"));
        QVERIFY(!t->display.contains(QStringLiteral("cret")));
        QCOMPARE(parsePostgresUrl(QStringLiteral("postgresql:///gate?host=/run/pg&connect_"
                                                 "timeout=3&user=gh"))
                     ->options,
                 QStringLiteral("host=/run/pg;connect_timeout=3;user=gh"));
        // Options cannot smuggle another libpq keyword in (it splits on any white space) nor
        // name a password; unknown keys are refused.
        for (const char *bad :
             {"postgresql://host/", "postgresql://host", "mysql://h/db",
              "postgresql://h/db?sslmode=a%20host=evil", "postgresql://h/db?sslmode=a%09host=evil",
              "postgresql://h/db?application_name=x%0Apassword=y", "postgresql://h/db?sslmode='a'",
              "postgresql://h/db?password=x", "postgresql://h/db?sslpassword=x",
              "postgresql://h/db?options=-c%20x", "postgresql://h/db?service=evil",
              "postgresql://h/a/b"})
            QVERIFY2(!parsePostgresUrl(QString::fromLatin1(bad)).ok(), bad);
        // As a setting: refused without echoing the value, and shown without the password.
        auto bad = ConfigResolver::resolve(
            {{QStringLiteral("database"), QStringLiteral("postgresql://u:hunter2@h/")}},
            QProcessEnvironment());
        QVERIFY(!bad.ok());
        QVERIFY2(!bad.error().message.contains(QStringLiteral("hunter2")),
                 qPrintable(bad.error().message));
        auto good = ConfigResolver::resolve(
            {{QStringLiteral("database"), QStringLiteral("postgresql://u:hunter2@h/db")}},
            QProcessEnvironment());
        QVERIFY(good.ok());
        QCOMPARE(good->database, QStringLiteral("postgresql://u:hunter2@h/db"));
        QCOMPARE(ConfigResolver::valueOf(*good, QStringLiteral("database")),
                 QStringLiteral("postgresql://u@h/db"));
    }

    void postgresStatementsRoundTrip()
    {
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        QList<Migration> m = withRowsTable();
        m.append({3,
                  QStringLiteral("test: values"),
                  {QStringLiteral("CREATE TABLE vals (k TEXT PRIMARY KEY, name TEXT NOT NULL "
                                  "UNIQUE COLLATE NOCASE, i INTEGER, r REAL, b BLOB)")}});
        auto db = Database::open(url, m, m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        QCOMPARE((*db)->engine(), Database::Engine::PostgreSQL);
        QCOMPARE((*db)->driverName(), QStringLiteral("QPSQL"));
        QCOMPARE((*db)->schemaVersion(), 3);
        {
            // Every connection is set up alike (PgSessionSetup): no JIT compilation, whose
            // 10-30 ms a plan costed high on stale statistics paid for a few rows.
            QSqlQuery jit((*db)->connection());
            QVERIFY(jit.exec(QStringLiteral("SHOW jit")) && jit.next());
            QCOMPARE(jit.value(0).toString(), QStringLiteral("off"));
        }
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        const QByteArray blob("\0\x01\xff'\\x00", 8); // NUL, high bytes, a quote, a backslash
        const QString unicode = QStringLiteral("Grüße 🍺 '?'");
        QVERIFY(writer
                    .run([&](WriteTransaction &tx) -> Result<void> {
                        Statement &q =
                            tx.stmt("INSERT INTO vals (k, name, i, r, b) VALUES (?, ?, ?, ?, ?)");
                        if (!q.bind(1, QStringLiteral("a"))
                                 .bind(2, unicode)
                                 .bind(3, qint64(9'007'199'254'740'993))
                                 .bind(4, 0.1)
                                 .bindBlob(5, blob)
                                 .exec())
                            return WriteTransaction::sqlError(q, "insert");
                        if (q.changes() != 1)
                            return makeError(QStringLiteral("test"), QStringLiteral("changes"));
                        Statement &n = tx.stmt("INSERT INTO vals (k, name) VALUES (?, ?)");
                        if (!n.bind(1, QStringLiteral("b")).bind(2, QStringLiteral("Bob")).exec())
                            return WriteTransaction::sqlError(n, "insert");
                        return {};
                    })
                    .ok());
        {
            const ReadStatement q =
                (*db)->read("SELECT name, i, r, b, i IS NULL FROM vals WHERE k = ?");
            q->bind(1, QStringLiteral("a"));
            QVERIFY(q->next());
            QCOMPARE(q->text(0), unicode);
            QCOMPARE(q->int64(1), qint64(9'007'199'254'740'993));
            QCOMPARE(q->real(2), 0.1);
            QCOMPARE(q->blob(3), blob);
            QCOMPARE(q->int64(4), 0); // a boolean reads as SQLite's 0 and 1
            QVERIFY(!q->isNull(3));
            QVERIFY(!q->next());
        }
        {
            const ReadStatement q = (*db)->read("SELECT i, b, i IS NULL FROM vals WHERE k = ?");
            q->bind(1, QStringLiteral("b"));
            QVERIFY(q->next());
            QVERIFY(q->isNull(0));
            QVERIFY(q->isNull(1));
            QCOMPARE(q->int64(2), 1);
        }
        // Text with a NUL cannot travel (libpq ends text there): refused, not cut short.
        const Result<void> nul = writer.run([](WriteTransaction &tx) -> Result<void> {
            Statement &n = tx.stmt("INSERT INTO vals (k, name) VALUES (?, ?)");
            if (!n.bind(1, QStringLiteral("n"))
                     .bind(2, QStringLiteral("a") + QChar(0) + QStringLiteral("b"))
                     .exec())
                return WriteTransaction::sqlError(n, "insert");
            return {};
        });
        QVERIFY(!nul.ok());
        QVERIFY2(nul.error().message.contains(QStringLiteral("NUL")),
                 qPrintable(nul.error().message));
        // NOCASE (citext): a name differing in case is the same name; order is byte-wise.
        QVERIFY(!writer
                     .run([](WriteTransaction &tx) -> Result<void> {
                         Statement &n = tx.stmt("INSERT INTO vals (k, name) VALUES (?, ?)");
                         if (!n.bind(1, QStringLiteral("c")).bind(2, QStringLiteral("BOB")).exec())
                             return WriteTransaction::sqlError(n, "insert");
                         return {};
                     })
                     .ok());
        const ReadStatement byName = (*db)->read("SELECT k FROM vals WHERE name = ? ORDER BY k");
        byName->bind(1, QStringLiteral("bob"));
        QVERIFY(byName->next());
        QCOMPARE(byName->text(0), QStringLiteral("b"));
        // Byte-wise order comes from the migrated columns themselves (TEXT COLLATE "C"), not
        // from the database's locale.
        QSqlQuery order((*db)->connection());
        QVERIFY(order.exec(QStringLiteral("SELECT collation_name FROM information_schema.columns "
                                          "WHERE table_name = 'vals' AND column_name = 'k'")) &&
                order.next());
        QCOMPARE(order.value(0).toString(), QStringLiteral("C"));
        QVERIFY(
            order.exec(QStringLiteral("INSERT INTO vals (k, name) VALUES ('B', 'x'), ('_', 'y')")));
        QVERIFY(order.exec(QStringLiteral("SELECT k FROM vals ORDER BY k")));
        QStringList keys;
        while (order.next())
            keys << order.value(0).toString();
        QCOMPARE(keys, (QStringList{QStringLiteral("B"), QStringLiteral("_"), QStringLiteral("a"),
                                    QStringLiteral("b")}));
    }

    // The NOTIFY payloads of the event relay: under PostgreSQL's 8000 bytes each, every event
    // in one of them in order, read back as the sender's; a payload of one's own, a watch
    // announcement and malformed ones give nothing; an event too big alone goes truncated.
    void eventRelayPayloads()
    {
        QList<Event> events;
        const QDateTime t0 =
            QDateTime::fromString(QStringLiteral("2026-11-29T10:00:00.123Z"), Qt::ISODateWithMs);
        for (int i = 0; i < 500; ++i) {
            Event e;
            e.seq = i + 1;
            e.type = QStringLiteral("order.created");
            e.time = t0.addMSecs(i);
            e.instance = QStringLiteral("host/1/a");
            if (i % 2)
                e.setData(QJsonObject{{QStringLiteral("n"), i},
                                      {QStringLiteral("pad"), QString(150, QLatin1Char('x'))}});
            else
                e.setDataJson("{\"n\":" + QByteArray::number(i) + ",\"quote\":\"\\\"\"}");
            events.append(e);
        }
        Event big;
        big.type = QStringLiteral("cluster.decision");
        big.time = t0;
        big.setData(QJsonObject{{QStringLiteral("huge"), QString(9000, QLatin1Char('y'))}});
        events.append(big);

        const auto payloads = EventRelay::payloads(QStringLiteral("host/1/a"), events);
        QVERIFY(payloads.size() > 10);
        QList<Event> back;
        int counted = 0;
        for (const auto &p : payloads) {
            QVERIFY2(p.text.size() < 8000, qPrintable(QString::number(p.text.size())));
            QVERIFY(p.text.size() <= EventRelay::kMaxPayload);
            QVERIFY(EventRelay::eventsOf(p.text, QStringLiteral("host/1/a")).isEmpty());
            const auto got = EventRelay::eventsOf(p.text, QStringLiteral("host/2/b"));
            QCOMPARE(got.size(), p.events);
            counted += p.events;
            back.append(got);
        }
        QCOMPARE(counted, 501);
        QCOMPARE(back.size(), 501);
        for (int i = 0; i < 500; ++i) {
            QCOMPARE(back[i].type, QStringLiteral("order.created"));
            QCOMPARE(back[i].time, t0.addMSecs(i));
            QCOMPARE(back[i].instance, QStringLiteral("host/1/a"));
            QCOMPARE(back[i].value(QLatin1String("n")).toInt(), i);
            QCOMPARE(back[i].data(), events[i].data());
        }
        QCOMPARE(back[500].type, QStringLiteral("cluster.decision"));
        QCOMPARE(back[500].data(), (QJsonObject{{QStringLiteral("truncated"), true}}));

        for (const QByteArray &bad :
             {QByteArray("not json"), QByteArray("{\"w\":\"host/1/a\"}"), QByteArray("[]"),
              QByteArray("{\"i\":\"x\",\"e\":[{\"type\":\"a\",\"data\":{}}]}"),
              QByteArray("{\"i\":\"x\",\"e\":[{\"time\":\"2026-11-29T10:00:00Z\",\"data\":{}}]}"),
              QByteArray("{\"i\":\"x\",\"e\":[{\"type\":\"a\",\"time\":\"2026-11-29T10:00:00Z\","
                         "\"data\":[1]}]}"),
              QByteArray("{\"i\":\"\",\"e\":[{\"type\":\"a\",\"time\":\"2026-11-29T10:00:00Z\","
                         "\"data\":{}}]}"),
              QByteArray("{\"i\":7,\"e\":\"x\"}")})
            QVERIFY2(EventRelay::eventsOf(bad, QStringLiteral("me")).isEmpty(), bad.constData());
    }

    // Two instances' relays on one PostgreSQL database: nothing is sent while nobody watches;
    // once the other has a stream open, this one's events reach its bus within a moment with
    // their instance, time and data; the dashboard's per-instance counters stay at home; and
    // an instance with no stream open shows nobody's events.
    void postgresEventsReachTheWatchingInstance()
    {
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        auto dbA = Database::open(url, withRowsTable(), m_clock);
        QVERIFY2(dbA.ok(), qPrintable(dbA.ok() ? QString() : dbA.error().message));
        auto dbB = Database::open(url, withRowsTable(), m_clock);
        QVERIFY2(dbB.ok(), qPrintable(dbB.ok() ? QString() : dbB.error().message));
        // Both seal, as the backend's databases do (here with a stand-in for the database key:
        // tst_crypto tests the real one), so that what the instances did not seal is refused.
        const Database::Sealer sealer{
            [](const QByteArray &plain, const QByteArray &context) {
                return "sealed:test:" + (context + '|' + plain).toBase64();
            },
            [](const QByteArray &stored, const QByteArray &context) -> Result<QByteArray> {
                if (!stored.startsWith("sealed:test:"))
                    return stored; // as the real one: what is not sealed is returned as it is
                const QByteArray opened = QByteArray::fromBase64(stored.mid(12));
                if (!opened.startsWith(context + '|'))
                    return makeError(QStringLiteral("unsealing-failed"), QStringLiteral("no"));
                return opened.mid(context.size() + 1);
            }};
        (*dbA)->setSealer(sealer);
        (*dbB)->setSealer(sealer);
        EventBus busA(m_clock), busB(m_clock);
        // Published on b's relay thread, read here (declared before the relays that use them).
        QMutex seenMutex;
        QList<Event> seenList;
        auto watchingA = std::make_shared<std::atomic<int>>(0);
        auto watchingB = std::make_shared<std::atomic<int>>(0);
        EventRelay relayA(**dbA, busA, QStringLiteral("a"), watchingA);
        EventRelay relayB(**dbB, busB, QStringLiteral("b"), watchingB);
        QVERIFY(relayA.start().ok());
        QVERIFY(relayB.start().ok());
        const auto stopRelays = qScopeGuard([&] {
            relayB.stop();
            relayA.stop();
        });

        // Nobody watches: nothing leaves either instance.
        busA.publish(QStringLiteral("order.created"), QJsonObject{{QStringLiteral("n"), 0}});
        QThread::msleep(300); // a settle on purpose: proving nothing arrives takes a wait
        QCOMPARE(relayA.sentCount(), 0);
        QCOMPARE(busB.lastSeq(), 0);
        QCOMPARE(busA.since(0).value(0).instance, QStringLiteral("a"));

        // b opens a stream: a's events arrive there, once b's announcement reached a.
        watchingB->store(1);
        QObject::connect(
            &busB, &EventBus::published, &busB,
            [&](const Event &e) {
                QMutexLocker lock(&seenMutex);
                seenList.append(e);
            },
            Qt::DirectConnection);
        auto seen = [&] {
            QMutexLocker lock(&seenMutex);
            return seenList;
        };
        auto forget = [&] {
            QMutexLocker lock(&seenMutex);
            seenList.clear();
        };
        int n = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                busA.publish(QStringLiteral("order.created"),
                             QJsonObject{{QStringLiteral("n"), ++n}});
                return !seen().isEmpty();
            }(),
            timeoutMs());
        const Event first = seen().first();
        QVERIFY(first.relayed);
        QCOMPARE(first.instance, QStringLiteral("a"));
        QCOMPARE(first.type, QStringLiteral("order.created"));
        // The rest of the tries arrive too, in order: wait for one published after them.
        busA.publish(QStringLiteral("test.flush"));
        QTRY_VERIFY_WITH_TIMEOUT(seen().last().type == QStringLiteral("test.flush"), timeoutMs());
        // Those published before a heard b were not sent; from then on every one, in order.
        const QList<Event> tries = seen();
        for (qsizetype i = 0; i + 1 < tries.size(); ++i)
            QCOMPARE(tries[i].value(QLatin1String("n")).toInt(),
                     tries.first().value(QLatin1String("n")).toInt() + int(i));
        QCOMPARE(tries[tries.size() - 2].value(QLatin1String("n")).toInt(), n);
        forget();
        const Event sent = busA.publish(QStringLiteral("delivery.succeeded"),
                                        QJsonObject{{QStringLiteral("attempt"), 3}});
        busA.publish(QStringLiteral("stats"), QJsonObject{{QStringLiteral("requests"), 1}});
        busA.publish(QStringLiteral("stats.series"), QJsonObject{{QStringLiteral("bucket"), 1}});
        busA.publish(QStringLiteral("token.issued"), QJsonObject{{QStringLiteral("x"), 1}});
        QTRY_VERIFY_WITH_TIMEOUT(
            !seen().isEmpty() && seen().last().type == QStringLiteral("token.issued"), timeoutMs());
        const QList<Event> after = seen();
        QStringList types;
        for (const Event &e : after)
            types << e.type;
        QCOMPARE(types, (QStringList{QStringLiteral("delivery.succeeded"),
                                     QStringLiteral("token.issued")}));
        QCOMPARE(after.first().time, sent.time);
        QCOMPARE(after.first().data(), sent.data());
        QVERIFY(after.first().seq > first.seq); // numbered by b's bus
        QVERIFY(relayA.sentCount() >= 3);
        QCOMPARE(relayA.droppedCount(), 0);

        // b's own events are b's, and go nowhere: nobody else watches.
        QCOMPARE(busB.publish(QStringLiteral("order.created")).instance, QStringLiteral("b"));
        QThread::msleep(150); // a settle on purpose: three of the relay's 50 ms rounds
        QCOMPARE(relayB.sentCount(), 0);

        // What another role on the database sends is not believed: plain JSON, a forged seal,
        // a seal of another context. Nothing of it reaches b's bus.
        forget();
        QSqlQuery forge((*dbA)->connection());
        const QByteArray plain = R"({"i":"evil","e":[{"type":"order.created",)"
                                 R"("time":"2026-11-29T10:00:00.000Z","data":{"x":1}}]})";
        for (const QByteArray &payload :
             {plain, QByteArray("sealed:test:") + plain.toBase64(),
              "sealed:test:" + ("elsewhere|" + plain).toBase64(), QByteArray("sealed:garbage")}) {
            forge.prepare(QStringLiteral("SELECT pg_notify('gatehouse_events', ?)"));
            forge.addBindValue(QString::fromLatin1(payload));
            QVERIFY2(forge.exec(), qPrintable(forge.lastError().text()));
        }
        QTRY_COMPARE_WITH_TIMEOUT(relayB.refusedCount(), 4, timeoutMs());
        busA.publish(QStringLiteral("test.flush"));
        QTRY_VERIFY_WITH_TIMEOUT(!seen().isEmpty(), timeoutMs());
        QCOMPARE(seen().size(), 1);
        QCOMPARE(seen().first().type, QStringLiteral("test.flush"));
        QCOMPARE(relayA.refusedCount(), 4); // a heard them too

        // b's stream closes: a still sends for a while (it cannot know at once), but b shows
        // nothing more.
        watchingB->store(0);
        QThread::msleep(100); // b's relay reads the count every 50 ms
        const qint64 before = busB.lastSeq();
        const qint64 sentBefore = relayA.sentCount();
        busA.publish(QStringLiteral("order.created"));
        QTRY_VERIFY_WITH_TIMEOUT(relayA.sentCount() > sentBefore, timeoutMs());
        QThread::msleep(200); // a settle on purpose: b has heard it and dropped it
        QCOMPARE(busB.lastSeq(), before);
    }

    void postgresWriterJobsFailAlone()
    {
        // A job whose statement fails is rolled back alone, on PostgreSQL too (where the
        // failed statement ends everything until ROLLBACK TO): the jobs batched beside it
        // commit. A job that went on after a failed statement and said it succeeded cannot
        // have done what it says: it fails, instead of its batch's COMMIT quietly being a
        // ROLLBACK of everything.
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        auto db = Database::open(url, withRowsTable(), m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        QVERIFY(writer.run(insertRow(0)).ok());
        QThread::msleep(20);
        std::vector<std::optional<Result<void>>> results(4);
        auto keep = [&results](int i) {
            return [&results, i](const Result<void> &r) { results[size_t(i)] = r; };
        };
        {
            WriteQueue::DeferWakes pass; // the four in one batch
            writer.submit(insertRow(1), keep(0));
            writer.submit(
                [](WriteTransaction &tx) -> Result<void> {
                    Statement &q = tx.stmt("INSERT INTO rows (id, n) VALUES (1, 2)"); // id taken
                    if (!q.exec())
                        return WriteTransaction::sqlError(q, "insert");
                    return {};
                },
                keep(1));
            writer.submit(
                [](WriteTransaction &tx) -> Result<void> {
                    // Both ignored: one fails when it runs, one cannot even be prepared.
                    (void)tx.stmt("INSERT INTO rows (id, n) VALUES (1, 3)").exec();
                    (void)tx.stmt("INSERT INTO nowhere (n) VALUES (3)").exec();
                    return {};
                },
                keep(2));
            writer.submit(insertRow(4), keep(3));
        }
        WriteQueue::wakeDeferred();
        QTRY_VERIFY(results[0] && results[1] && results[2] && results[3]);
        QVERIFY(*results[0]);
        QVERIFY(!*results[1]);
        QVERIFY2(results[1]->error().message.contains(QStringLiteral("duplicate key")),
                 qPrintable(results[1]->error().message));
        QVERIFY(!*results[2]);
        QCOMPARE(results[2]->error().code, QStringLiteral("database-error"));
        QVERIFY(*results[3]);
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT n FROM rows ORDER BY id")));
        QList<int> ns;
        while (rows.next())
            ns << rows.value(0).toInt();
        QCOMPARE(ns, (QList<int>{0, 1, 4}));
    }

    void writerCountsWhatItQueued_data()
    {
        QTest::addColumn<bool>("postgres");
        QTest::newRow("sqlite") << false;
        QTest::newRow("postgres") << true;
    }

    void writerCountsWhatItQueued()
    {
        // Statement::execLater(int *) and WriteTransaction::readQueued(): writes queued with
        // the count of rows each changed, read together, more than the pipeline holds at once
        // (read on the way); a failure among them fails readQueued() and the job, and its
        // writes are not kept.
        QFETCH(bool, postgres);
        QTemporaryDir dir;
        const QString target =
            postgres ? newPostgresDatabase() : dir.filePath(QStringLiteral("t.db"));
        if (target.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        auto db = Database::open(target, withRowsTable(), m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        QVERIFY(writer
                    .run([](WriteTransaction &tx) -> Result<void> {
                        for (int i = 0; i < 300; ++i) {
                            Statement &q = tx.stmt("INSERT INTO rows (id, n) VALUES (?, ?)");
                            if (!q.bind(1, i).bind(2, i % 3).execLater())
                                return WriteTransaction::sqlError(q, "insert");
                        }
                        return {};
                    })
                    .ok());
        // 300 updates, each of one id: those of an even id exist (changed 1), the odd ones
        // are shifted past the table (changed 0); then one update of every row with n = 2.
        std::vector<int> counts(301, -7);
        const Result<void> r = writer.run([&counts](WriteTransaction &tx) -> Result<void> {
            for (int i = 0; i < 300; ++i) {
                Statement &q = tx.stmt("UPDATE rows SET n = n + 10 WHERE id = ?");
                if (!q.bind(1, i % 2 == 0 ? i : 1000 + i).execLater(&counts[size_t(i)]))
                    return WriteTransaction::sqlError(q, "update");
            }
            Statement &all = tx.stmt("UPDATE rows SET n = n WHERE n = 2");
            if (!all.execLater(&counts[300]))
                return WriteTransaction::sqlError(all, "update all");
            return tx.readQueued();
        });
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        for (int i = 0; i < 300; ++i)
            QCOMPARE(counts[size_t(i)], i % 2 == 0 ? 1 : 0);
        QCOMPARE(counts[300], 50); // n = 2: ids 2 mod 3 that are odd (the even ones are 12)
        int failedCount = -7;
        const Result<void> failed = writer.run([&](WriteTransaction &tx) -> Result<void> {
            Statement &q = tx.stmt("UPDATE rows SET n = 99 WHERE id = ?");
            if (!q.bind(1, 0).execLater(&failedCount))
                return WriteTransaction::sqlError(q, "update");
            Statement &dup = tx.stmt("INSERT INTO rows (id, n) VALUES (?, ?)");
            if (!dup.bind(1, 1).bind(2, 0).execLater()) // id 1 exists
                return WriteTransaction::sqlError(dup, "insert");
            return tx.readQueued();
        });
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code, QStringLiteral("database-error"));
        const QString failure = failed.error().message; // SQLite's at once, PostgreSQL's read
        QVERIFY2(failure.contains(QStringLiteral("UNIQUE")) ||
                     failure.contains(QStringLiteral("duplicate key")),
                 qPrintable(failure));
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT n FROM rows WHERE id = 0")));
        QVERIFY(rows.next());
        QCOMPARE(rows.value(0).toInt(), 10); // the failed job's update was not kept
    }

    void postgresConnectionLostUnderALiveReadIsKeptUntilItEnds()
    {
        // A ReadStatement holds one of its thread's statements: a connection found lost while
        // it lives is not replaced (the statements would go with it, and the read's end
        // touched freed memory: ASan saw it when the token endpoint read a client after the
        // token). Reads on it fail as "unavailable" meanwhile; the next call without a live
        // read opens a new one. An idle connection the server ended is replaced before use.
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        auto db = Database::open(url, withRowsTable(), m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        static const char *const kCount = "SELECT COUNT(*) FROM rows";
        {
            const ReadStatement q = (*db)->read(kCount);
            QVERIFY(q->next());
            QSqlQuery end((*db)->connection());
            QVERIFY(!end.exec(QStringLiteral("SELECT pg_terminate_backend(pg_backend_pid())")));
            const QSqlDatabase broken = (*db)->connection(); // not replaced: q lives
            QSqlQuery after(broken);
            QVERIFY(!after.exec(QStringLiteral("SELECT 1")));
            QCOMPARE(Database::readFailed(broken, after.lastError().text()).code,
                     QString::fromLatin1(kDatabaseUnavailable));
            const ReadStatement nested = (*db)->read(kCount);
            QVERIFY(!nested->next());
            QCOMPARE(Database::readFailed(*nested).httpStatus, 503);
        }
        {
            const ReadStatement again = (*db)->read(kCount); // a new connection
            QVERIFY(again->next());
            QCOMPARE(again->int64(0), qint64(0));
        }
        // Ended by the server while idle (from another session): found before the next read.
        QSqlQuery pid((*db)->connection());
        QVERIFY(pid.exec(QStringLiteral("SELECT pg_backend_pid()")) && pid.next());
        const qint64 backend = pid.value(0).toLongLong();
        pid.finish();
        QString error;
        pg_conn *other = (*db)->connectPostgres(&error);
        QVERIFY2(other, qPrintable(error));
        const QByteArray kill =
            "SELECT pg_terminate_backend(" + QByteArray::number(backend) + ", 5000)";
        const bool killed = pgExec(other, kill.constData(), &error);
        pgClose(other);
        QVERIFY2(killed, qPrintable(error));
        QTest::qWait(30); // idle for longer than the check's 20 ms
        const ReadStatement fresh = (*db)->read(kCount);
        QVERIFY2(fresh->next(), qPrintable(fresh->error()));
    }

    void postgresWriterPipelinesWhatNobodyWaitsFor()
    {
        // Statement::execLater() on PostgreSQL: the writes travel in libpq's pipeline with the
        // next statement waited for (which sees them), or are read when the job ends. Their
        // failure fails their job alone, even when the job did not look; a job's error undoes
        // what it queued; a queue longer than the pipeline's limit is read on the way; a
        // QSqlQuery in between (QPSQL cannot run in pipeline mode) still works.
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        auto db = Database::open(url, withRowsTable(), m_clock);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        WriteQueue writer(**db, QStringLiteral("test-writer"));
        QVERIFY(writer.run(insertRow(0)).ok());
        // Prepared beforehand (a statement's first use prepares it, which reads the queue
        // first): below, the count is sent in the pipeline behind the writes queued before it,
        // and the connection is ended in the middle of a pipeline.
        static const char *const kCount = "SELECT COUNT(*) FROM rows WHERE id >= 1000";
        static const char *const kEnd = "SELECT pg_terminate_backend(pg_backend_pid())";
        QVERIFY(writer
                    .run([](WriteTransaction &tx) -> Result<void> {
                        (void)tx.stmt(kEnd); // prepared, not run
                        Statement &c = tx.stmt(kCount);
                        if (!c.next() || c.int64(0) != 0)
                            return WriteTransaction::sqlError(c, "count");
                        return {};
                    })
                    .ok());
        auto later = [](WriteTransaction &tx, int id, int n) {
            Statement &q = tx.stmt("INSERT INTO rows (id, n) VALUES (?, ?)");
            return q.bind(1, id).bind(2, n).execLater();
        };
        std::vector<std::optional<Result<void>>> results(6);
        auto keep = [&results](int i) {
            return [&results, i](const Result<void> &r) { results[size_t(i)] = r; };
        };
        qint64 seen = -1;
        QString seenByQuery;
        {
            WriteQueue::DeferWakes pass; // all in one batch
            writer.submit(
                [&](WriteTransaction &tx) -> Result<void> {
                    if (!later(tx, 1000, 10) || !later(tx, 1001, 11))
                        return makeError(QStringLiteral("send"), QStringLiteral("not sent"));
                    Statement &c = tx.stmt(kCount);
                    if (!c.next())
                        return WriteTransaction::sqlError(c, "count");
                    seen = c.int64(0);
                    return {};
                },
                keep(0));
            writer.submit(
                [&](WriteTransaction &tx) -> Result<void> {
                    (void)later(tx, 1002, 12);
                    (void)later(tx, 1000, 99); // id taken: fails on the server, unread
                    (void)later(tx, 1003, 13);
                    return {};
                },
                keep(1));
            writer.submit(
                [&](WriteTransaction &tx) -> Result<void> {
                    (void)later(tx, 1004, 14);
                    QSqlQuery &q = tx.query(QStringLiteral("SELECT n FROM rows WHERE id = ?"));
                    q.addBindValue(1004);
                    if (!q.exec() || !q.next())
                        return WriteTransaction::sqlError(q, "select");
                    seenByQuery = q.value(0).toString();
                    return {};
                },
                keep(2));
            writer.submit(
                [&](WriteTransaction &tx) -> Result<void> {
                    for (int i = 0; i < 600; ++i)
                        if (!later(tx, 2000 + i, i))
                            return makeError(QStringLiteral("send"), QStringLiteral("not sent"));
                    return {};
                },
                keep(3));
            writer.submit(
                [&](WriteTransaction &tx) -> Result<void> {
                    (void)later(tx, 1005, 15);
                    return makeError(QStringLiteral("rule"), QStringLiteral("no"), 409);
                },
                keep(4));
            writer.submit(insertRow(6), keep(5));
        }
        WriteQueue::wakeDeferred();
        QTRY_VERIFY(std::all_of(results.begin(), results.end(), [](const auto &r) { return r; }));
        QVERIFY(*results[0]);
        QCOMPARE(seen, 2);
        QVERIFY(!*results[1]);
        QCOMPARE(results[1]->error().code, QStringLiteral("database-error"));
        QVERIFY2(results[1]->error().message.contains(QStringLiteral("duplicate key")),
                 qPrintable(results[1]->error().message));
        QVERIFY(*results[2]);
        QCOMPARE(seenByQuery, QStringLiteral("14"));
        QVERIFY(*results[3]);
        QVERIFY(!*results[4]);
        QCOMPARE(results[4]->error().code, QStringLiteral("rule"));
        QVERIFY(*results[5]);
        QSqlQuery rows((*db)->connection());
        QVERIFY(rows.exec(QStringLiteral("SELECT id, n FROM rows WHERE id >= 1000 AND id < 2000 "
                                         "ORDER BY id")));
        QList<int> ids;
        while (rows.next())
            ids << rows.value(0).toInt();
        QCOMPARE(ids, (QList<int>{1000, 1001, 1004}));
        QVERIFY(rows.exec(QStringLiteral("SELECT COUNT(*), SUM(n) FROM rows WHERE id >= 2000")));
        QVERIFY(rows.next());
        QCOMPARE(rows.value(0).toInt(), 600);
        QCOMPARE(rows.value(1).toInt(), 599 * 600 / 2);
        QVERIFY(
            rows.exec(QStringLiteral("SELECT COUNT(*) FROM rows WHERE id < 1000 AND n IN (0, 6)")));
        QVERIFY(rows.next());
        QCOMPARE(rows.value(0).toInt(), 2);
        // The connection ends while writes are queued before a read: the job fails, nothing
        // waits forever, what it queued is not kept, and the next job runs on a new connection.
        const Result<void> ended = writer.run([&](WriteTransaction &tx) -> Result<void> {
            (void)later(tx, 3000, 1);
            Statement &k = tx.stmt(kEnd);
            if (!k.next())
                return WriteTransaction::sqlError(k, "end");
            return {};
        });
        QVERIFY(!ended.ok());
        QCOMPARE(ended.error().code, QStringLiteral("database-error"));
        QVERIFY(writer.run(insertRow(7)).ok());
        QSqlQuery after((*db)->connection());
        QVERIFY(after.exec(
            QStringLiteral("SELECT COUNT(*) FROM rows WHERE id = 3000 OR (id < 1000 AND n = 7)")));
        QVERIFY(after.next());
        QCOMPARE(after.value(0).toInt(), 1);
    }

    void postgresMigratesOnceAndRefusesNewer()
    {
        // Instances starting together: each opens the database, one migrates (advisory lock),
        // the others find the schema done. An older build refuses a newer schema, and the
        // message names the database without its password.
        const QString url = newPostgresDatabase();
        if (url.isEmpty())
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_core_postgres)");
        QList<Migration> m = withRowsTable();
        m.append({3,
                  QStringLiteral("test: slow"),
                  {QStringLiteral("SELECT pg_sleep(0.3)"),
                   QStringLiteral("INSERT INTO rows (n) VALUES (42)")}});
        std::vector<std::unique_ptr<QThread>> threads;
        std::atomic<int> opened{0};
        for (int i = 0; i < 3; ++i) {
            threads.emplace_back(QThread::create([&] {
                if (Database::open(url, m, m_clock).ok())
                    ++opened;
            }));
            threads.back()->start();
        }
        for (auto &t : threads)
            QVERIFY(t->wait(60000));
        QCOMPARE(opened.load(), 3);
        auto db = Database::open(url, m, m_clock);
        QVERIFY(db.ok());
        QSqlQuery q((*db)->connection());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM rows WHERE n = 42")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1); // the migration ran once
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && q.next());
        QCOMPARE(q.value(0).toInt(), 3);

        // A build that changes the schema is refused while instances run on the database (a
        // heartbeat in the last 15 s), before it migrates anything: they would find the schema
        // changed under them. The same build starts beside them; once they are gone, the newer
        // one migrates.
        {
            QList<Migration> withInstances = m;
            withInstances.append(Instances::migration());
            QVERIFY(Database::open(url, withInstances, m_clock).ok()); // no instance runs yet
            const qint64 now = m_clock.now().toMSecsSinceEpoch();
            QVERIFY(
                q.exec(QStringLiteral("INSERT INTO gatehouse_instances (id, version, listeners, "
                                      "started_at, heartbeat_at) VALUES ('host/1/running', "
                                      "'0.9.0', '{}', %1, %1)")
                           .arg(now - 1000)));
            QVERIFY(Database::open(url, withInstances, m_clock).ok()); // nothing to migrate
            // A process of this machine that has ended, its heartbeat fresh: not waited for.
            QProcess ended;
            ended.start(QStringLiteral("sleep"), {QStringLiteral("60")});
            QVERIFY(ended.waitForStarted());
            const QString endedId = QStringLiteral("%1/%2/ended")
                                        .arg(QSysInfo::machineHostName())
                                        .arg(ended.processId());
            ended.kill();
            QVERIFY(ended.waitForFinished());
            QVERIFY(
                q.exec(QStringLiteral("INSERT INTO gatehouse_instances (id, version, listeners, "
                                      "started_at, heartbeat_at) VALUES ('%1', '0.9.0', '{}', "
                                      "%2, %2)")
                           .arg(endedId)
                           .arg(now - 500)));
            QList<Migration> newer = withInstances;
            newer.append({26,
                          QStringLiteral("test: newer"),
                          {QStringLiteral("CREATE TABLE newer (id INTEGER)")}});
            auto refused = Database::open(url, newer, m_clock);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, QStringLiteral("database-in-use"));
            QVERIFY2(refused.error().message.contains(
                         QStringLiteral("has schema version 25 and this Gatehouse build changes it "
                                        "to 26, which the instances running on it do not know: "
                                        "host/1/running (0.9.0). Stop")),
                     qPrintable(refused.error().message));
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 4);
            QVERIFY(q.exec(QStringLiteral("SELECT to_regclass('newer') IS NULL")) && q.next());
            QVERIFY(q.value(0).toBool());
            // Its last heartbeat 16 s ago: gone.
            QVERIFY(q.exec(QStringLiteral("UPDATE gatehouse_instances SET heartbeat_at = %1")
                               .arg(now - 16'000)));
            QVERIFY(Database::open(url, newer, m_clock).ok());
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 5);
            m = newer; // what the database has now
        }
        // The instance lock (Role::Instance, the backend): held shared by each instance, so that
        // a build that migrates is refused even by an instance not seen yet (no heartbeat); and
        // an older build, which held it exclusively while it ran, keeps every instance out.
        {
            auto first = Database::open(url, m, m_clock, Database::Role::Instance);
            QVERIFY(first.ok());
            auto beside = Database::open(url, m, m_clock, Database::Role::Instance);
            QVERIFY(beside.ok());
            QList<Migration> newer = m;
            newer.append({27,
                          QStringLiteral("test: newer still"),
                          {QStringLiteral("CREATE TABLE newer_still (id INTEGER)")}});
            auto refused = Database::open(url, newer, m_clock, Database::Role::Instance);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, QStringLiteral("database-in-use"));
            QVERIFY2(refused.error().message.contains(
                         QStringLiteral("has not written its heartbeat yet")),
                     qPrintable(refused.error().message));
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 5);
            QVERIFY((*first)->checkInstanceLock().ok());
            (*first)->close();
            (*beside)->close();
            QString error;
            pg_conn *older = pgConnect(url, &error);
            QVERIFY2(older, qPrintable(error));
            auto closeOlder = qScopeGuard([&older] { pgClose(older); });
            // PostgreSQL gives a closed session's advisory locks back once its server process
            // has read the goodbye, a moment after close() returned: tried until it has.
            bool held = false;
            QTRY_VERIFY_WITH_TIMEOUT(pgTryLock(older, 7418235100418, false, &held, &error) && held,
                                     timeoutMs());
            auto alone = Database::open(url, m, m_clock, Database::Role::Instance);
            QVERIFY(!alone.ok());
            QCOMPARE(alone.error().code, QStringLiteral("database-in-use"));
            QVERIFY2(alone.error().message.contains(QStringLiteral("runs only alone")),
                     qPrintable(alone.error().message));
            closeOlder.dismiss();
            pgClose(older);
            // Exclusively again once the server has let go of the closed session's lock.
            auto upgraded = Database::open(url, newer, m_clock, Database::Role::Instance);
            QTRY_VERIFY_WITH_TIMEOUT(
                upgraded.ok() ||
                    (upgraded = Database::open(url, newer, m_clock, Database::Role::Instance)).ok(),
                timeoutMs());
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")) && q.next());
            QCOMPARE(q.value(0).toInt(), 6);
            // Its exclusive hold given back once migrated: another instance starts beside it.
            QVERIFY(Database::open(url, newer, m_clock, Database::Role::Instance).ok());
            m = newer;
        }

        QUrl withPassword(url);
        withPassword.setUserName(QStringLiteral("gatehouse"));
        withPassword.setPassword(QStringLiteral("hunter2")); // trust auth ignores it
        auto older = Database::open(withPassword.toString(), Database::coreMigrations(), m_clock);
        QVERIFY(!older.ok());
        QCOMPARE(older.error().code, QStringLiteral("database-too-new"));
        QVERIFY(!older.error().message.contains(QStringLiteral("hunter2")));
        QVERIFY2(older.error().message.contains(QUrl(url).path().mid(1)),
                 qPrintable(older.error().message));

        // No such database: a clear error, without the password either.
        QUrl missing(withPassword);
        missing.setPath(QStringLiteral("/no_such_database"));
        auto none = Database::open(missing.toString(), m, m_clock);
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, QStringLiteral("database-open-failed"));
        QVERIFY2(none.error().message.contains(QStringLiteral("no_such_database")),
                 qPrintable(none.error().message));
        QVERIFY(!none.error().message.contains(QStringLiteral("hunter2")));
    }

    void newerDatabaseRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("g.db"));
        {
            QList<Migration> m = Database::coreMigrations();
            m.append({7,
                      QStringLiteral("from the future"),
                      {QStringLiteral("CREATE TABLE future (x)")}});
            QVERIFY(Database::open(path, m, m_clock).ok());
        }
        auto db = Database::open(path, Database::coreMigrations(), m_clock);
        QVERIFY(!db.ok());
        QCOMPARE(db.error().code, QStringLiteral("database-too-new"));
        QVERIFY2(db.error().message.contains(QStringLiteral("schema version 7")),
                 qPrintable(db.error().message));
        QVERIFY(db.error().message.contains(QStringLiteral("up to 1")));
    }

    void connectionPerThread()
    {
        QTemporaryDir dir;
        auto db = Database::open(dir.filePath(QStringLiteral("g.db")), Database::coreMigrations(),
                                 m_clock);
        QVERIFY(db.ok());
        SqlSettingsStore settings(**db, m_clock);
        QVERIFY(settings.setValue(QStringLiteral("main"), QStringLiteral("1")).ok());
        QString fromThread;
        QString mainName = (*db)->connection().connectionName();
        QString threadName;
        QThread *t = QThread::create([&] {
            threadName = (*db)->connection().connectionName();
            auto v = settings.value(QStringLiteral("main"));
            fromThread = v ? *v : v.error().message;
            (void)settings.setValue(QStringLiteral("thread"), QStringLiteral("2"));
        });
        t->start();
        QVERIFY(t->wait(10000));
        delete t;
        QCOMPARE(fromThread, QStringLiteral("1"));
        QVERIFY(threadName != mainName);
        QCOMPARE(*settings.value(QStringLiteral("thread")), QStringLiteral("2"));
        auto missing = settings.value(QStringLiteral("nope"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().httpStatus, 404);
    }

    void eventBusHistory()
    {
        ManualClock clock(QDateTime(QDate(2026, 11, 21), QTime(8, 0), Qt::UTC));
        EventBus bus(clock, 3);
        QSignalSpy spy(&bus, &EventBus::published);
        for (int i = 0; i < 5; ++i) {
            bus.publish(QStringLiteral("t"), QJsonObject{{QStringLiteral("i"), i}});
            clock.advance(1000);
        }
        QCOMPARE(spy.count(), 5);
        QCOMPARE(bus.lastSeq(), 5);
        const auto since = bus.since(0);
        QCOMPARE(since.size(), 3); // bounded history
        QCOMPARE(since.first().seq, 3);
        QCOMPARE(bus.since(4).size(), 1);
        const QJsonObject j = since.last().toJson();
        QCOMPARE(j.value(QStringLiteral("type")).toString(), QStringLiteral("t"));
        QCOMPARE(j.value(QStringLiteral("time")).toString(),
                 QStringLiteral("2026-11-21T08:00:04.000Z"));
        QCOMPARE(j.value(QStringLiteral("data")).toObject().value(QStringLiteral("i")).toInt(), 4);
    }

    void parseHeadFields()
    {
        auto r =
            Http1::parseHead("POST http://h:1/v1/a%2Fb/c?x=1%202&y HTTP/1.1\r\nHost: h\r\n"
                             "Content-Length: 12\r\nConnection: Close\r\nExpect: 100-Continue\r\n"
                             "X-Dup: 1\r\nx-dup: 2");
        QVERIFY(std::holds_alternative<Http1::RequestHead>(r));
        const auto &h = std::get<Http1::RequestHead>(r);
        QCOMPARE(h.method, QByteArray("POST"));
        QCOMPARE(h.path, QStringLiteral("/v1/a/b/c"));
        QCOMPARE(h.segments, (QStringList{"v1", "a/b", "c"}));
        QCOMPARE(h.query.queryItemValue(QStringLiteral("x"), QUrl::FullyDecoded),
                 QStringLiteral("1 2"));
        QCOMPARE(h.contentLength, 12);
        QVERIFY(!h.keepAlive);
        QVERIFY(h.expectContinue);
        QCOMPARE(h.headers.size(), 6);
        QCOMPARE(h.headers.last().first, QByteArray("x-dup"));
    }

    // Targets whose path the prefix filters and the router would read differently, and header
    // values a proxy in front would read differently, are refused; what they are near passes.
    void parseHeadRefusesAmbiguousTargetsAndValues()
    {
        const auto refused = [](const QByteArray &head, const char *why) {
            const auto r = Http1::parseHead(head);
            QVERIFY2(std::holds_alternative<Http1::ParseError>(r), head.constData());
            QCOMPARE(std::get<Http1::ParseError>(r).status, 400);
            QCOMPARE(std::get<Http1::ParseError>(r).message, QString::fromLatin1(why));
        };
        for (const char *target : {"http:x/admin/v1/users", "http:/admin/v1/users", "https:x",
                                   "http:admin", "http:?q", "x/admin", "*"})
            refused(QByteArray("GET ") + target + " HTTP/1.1\r\nHost: h",
                    "malformed request target");
        for (const char *value : {"chunked\x0b",
                                  "\x0c"
                                  "5",
                                  "a\x01"
                                  "b",
                                  "a\x7f"})
            refused(QByteArray("POST / HTTP/1.1\r\nHost: h\r\nX-V: ") + value,
                    "invalid character in header value");
        for (const auto &[head, path] :
             {std::pair{QByteArray("GET http://h HTTP/1.1\r\nHost: h"), QStringLiteral("/")},
              std::pair{QByteArray("GET https://h:1/a/b?c HTTP/1.1\r\nHost: h"),
                        QStringLiteral("/a/b")},
              std::pair{QByteArray("OPTIONS * HTTP/1.1\r\nHost: h"), QStringLiteral("*")}}) {
            const auto r = Http1::parseHead(head);
            QVERIFY2(std::holds_alternative<Http1::RequestHead>(r), head.constData());
            QCOMPARE(std::get<Http1::RequestHead>(r).path, path);
        }
        // Optional whitespace (SP, HTAB) around a value is no part of it; a tab inside is kept.
        const auto r = Http1::parseHead("GET / HTTP/1.1\r\nHost: h\r\nX-V: \t a\tb \t");
        QVERIFY(std::holds_alternative<Http1::RequestHead>(r));
        QCOMPARE(std::get<Http1::RequestHead>(r).header("x-v"), QByteArray("a\tb"));
    }

    void takeHeadAtEverySplit()
    {
        const QByteArray req = "\r\nGET /a HTTP/1.1\r\nHost: h\r\n\r\nrest";
        for (qsizetype cut = 0; cut <= req.size(); ++cut) {
            QByteArray head;
            qsizetype consumed = 0;
            Http1::ParseError e;
            const auto st = Http1::takeHead(req.left(cut), 1024, &head, &consumed, &e);
            if (cut < req.size() - 4) {
                QCOMPARE(st, Http1::HeadStatus::NeedMore);
            } else {
                QCOMPARE(st, Http1::HeadStatus::Complete);
                QCOMPARE(head, QByteArray("GET /a HTTP/1.1\r\nHost: h"));
                QCOMPARE(consumed, req.size() - 4);
            }
        }
        QByteArray head;
        qsizetype consumed = 0;
        Http1::ParseError e;
        QCOMPARE(Http1::takeHead("GET / HTTP/1.1\r\nX: " + QByteArray(2000, 'a'), 1024, &head,
                                 &consumed, &e),
                 Http1::HeadStatus::Error);
        QCOMPARE(e.status, 431);
    }

    void chunkedAtEverySplit()
    {
        const QByteArray wire =
            "4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nT: 1\r\n\r\nNEXT";
        for (qsizetype cut = 0; cut <= wire.size(); ++cut) {
            Http1::ChunkedDecoder d;
            QByteArray in = wire.left(cut), body;
            Http1::ParseError e;
            auto st = d.feed(in, body, 1 << 20, 1024, &e);
            in += wire.mid(cut);
            if (st == Http1::ChunkedDecoder::Status::NeedMore)
                st = d.feed(in, body, 1 << 20, 1024, &e);
            QCOMPARE(st, Http1::ChunkedDecoder::Status::Done);
            QCOMPARE(body, QByteArray("Wikipedia in\r\n\r\nchunks."));
            QCOMPARE(in, QByteArray("NEXT"));
        }
    }

    void chunkedErrors_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<int>("status");
        QTest::newRow("not hex") << QByteArray("zz\r\n") << 400;
        QTest::newRow("negative") << QByteArray("-5\r\nabcde\r\n") << 400;
        QTest::newRow("huge size") << QByteArray("ffffffffffffffffff\r\n") << 400;
        QTest::newRow("over limit") << QByteArray("11\r\n") << 413;
        QTest::newRow("missing crlf") << QByteArray("3\r\nabcX\r\n") << 400;
        QTest::newRow("endless size line") << QByteArray(2000, '1') << 400;
    }

    void chunkedErrors()
    {
        QFETCH(QByteArray, wire);
        QFETCH(int, status);
        Http1::ChunkedDecoder d;
        QByteArray body;
        Http1::ParseError e;
        QCOMPARE(d.feed(wire, body, 16, 1024, &e), Http1::ChunkedDecoder::Status::Error);
        QCOMPARE(e.status, status);
    }

    void metricsRender()
    {
        Metrics m;
        m.recordRequest(QStringLiteral("service"), QStringLiteral("/v1/x/{id}"), "GET", 200, 0.002);
        m.recordRequest(QStringLiteral("service"), QStringLiteral("/v1/x/{id}"), "GET", 200, 0.3);
        m.recordRequest(QStringLiteral("admin"), QStringLiteral("unmatched"), "POST", 404, 0.0001);
        m.connectionOpened(QStringLiteral("service"));
        const QByteArray text = m.render();
        QVERIFY(text.contains("gatehouse_http_requests_total{listener=\"service\",route=\"/v1/x/"
                              "{id}\",method=\"GET\",code=\"200\"} 2\n"));
        QVERIFY(text.contains("gatehouse_http_request_duration_seconds_bucket{listener=\"service\","
                              "route=\"/v1/x/{id}\",le=\"0.0025\"} 1\n"));
        QVERIFY(text.contains("gatehouse_http_request_duration_seconds_bucket{listener=\"service\","
                              "route=\"/v1/x/{id}\",le=\"0.5\"} 2\n"));
        QVERIFY(text.contains("gatehouse_http_request_duration_seconds_count{listener=\"service\","
                              "route=\"/v1/x/{id}\"} 2\n"));
        QVERIFY(text.contains("gatehouse_http_connections_open{listener=\"service\"} 1\n"));
        QCOMPARE(m.requestCount(QStringLiteral("service")), 2);
        QCOMPARE(m.requestCount(QStringLiteral("admin")), 1);
    }

    // Resolver (c-ares): many lookups wait at once without a thread each; each answer comes on
    // the caller's thread in an event of its own, and none to a context that is gone.
    void resolverAnswersManyAtOnce()
    {
        constexpr int N = 300; // far more than Qt's lookup pool has threads (20)
        QObject context;
        int answered = 0;
        int loopback = 0;
        QStringList errors;
        for (int i = 0; i < N; ++i)
            Resolver::lookup(QStringLiteral("localhost"), &context,
                             [&](const QList<QHostAddress> &addresses, const QString &error) {
                                 QCOMPARE(QThread::currentThread(), context.thread());
                                 ++answered;
                                 if (!addresses.isEmpty() && addresses.first().isLoopback())
                                     ++loopback;
                                 else
                                     errors.append(error);
                             });
        QCOMPARE(answered, 0); // never inside lookup()
        QTRY_COMPARE(answered, N);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char(';'))));
        QCOMPARE(loopback, N);
        QTRY_COMPARE(Resolver::pending(), 0);
    }

    // Beyond the limit a lookup is answered at once with an error callers can tell from a
    // name that does not resolve (Resolver::isBusy), in an event of its own; room again, names
    // resolve.
    void resolverFullSaysBusy()
    {
        QObject context;
        Resolver::setLimitForTesting(0);
        auto restore = qScopeGuard([] { Resolver::setLimitForTesting(Resolver::MaxPending); });
        std::optional<QList<QHostAddress>> addresses;
        QString error;
        Resolver::lookup(QStringLiteral("localhost"), &context,
                         [&](const QList<QHostAddress> &a, const QString &e) {
                             addresses = a;
                             error = e;
                         });
        QVERIFY(!addresses);
        QTRY_VERIFY(addresses.has_value());
        QVERIFY(addresses->isEmpty());
        QVERIFY2(Resolver::isBusy(error), qPrintable(error));
        QCOMPARE(Resolver::pending(), 0);
        QVERIFY(!Resolver::isBusy(QStringLiteral("Domain name not found")));
        QVERIFY(!Resolver::isBusy(QString()));

        restore.dismiss();
        Resolver::setLimitForTesting(Resolver::MaxPending);
        addresses.reset();
        Resolver::lookup(QStringLiteral("localhost"), &context,
                         [&](const QList<QHostAddress> &a, const QString &e) {
                             addresses = a;
                             error = e;
                         });
        QTRY_VERIFY(addresses.has_value());
        QVERIFY2(!addresses->isEmpty(), qPrintable(error));
        QVERIFY(!Resolver::isBusy(error));
    }

    void resolverAnswersNoOneGone()
    {
        bool called = false;
        {
            QObject gone;
            Resolver::lookup(
                QStringLiteral("localhost"), &gone,
                [&called](const QList<QHostAddress> &, const QString &) { called = true; });
        }
        // A context destroyed by another answer while its own lookup may still be out: if its
        // answer comes at all, it comes while it exists.
        QObject context;
        auto dying = std::make_unique<QObject>();
        bool afterDeath = false;
        std::optional<QList<QHostAddress>> first;
        QString firstError;
        Resolver::lookup(QStringLiteral("localhost"), &context,
                         [&](const QList<QHostAddress> &addresses, const QString &error) {
                             dying.reset();
                             first = addresses;
                             firstError = error;
                         });
        Resolver::lookup(
            QStringLiteral("localhost"), dying.get(),
            [&](const QList<QHostAddress> &, const QString &) { afterDeath = !dying; });
        QTRY_VERIFY(first.has_value());
        QVERIFY2(!first->isEmpty(), qPrintable(firstError));
        QTRY_COMPARE(Resolver::pending(), 0);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QVERIFY(!called);
        QVERIFY(!afterDeath);
    }
};

void TestCore::isoTimeMatchesQDateTime()
{
    // Fixed points around leap days, the epoch, and a spread of pseudo-random instants.
    QList<qint64> samples{0,
                          1,
                          999,
                          1000,
                          -1,
                          -1000,
                          951782400000,
                          951868799999,
                          4107542400000,
                          1614265330123,
                          253402300799999,
                          -62135596800000, // 0001-01-01T00:00:00.000Z
                          -30610224000001,
                          -30610224000000};
    // Just outside the years written digit by digit: the general path, the same format.
    QCOMPARE(Gatehouse::Core::isoTimeMs(253402300800000),
             QStringLiteral("10000-01-01T00:00:00.000Z"));
    QCOMPARE(Gatehouse::Core::isoTimeMs(-62167219200000),
             QStringLiteral("0000-01-01T00:00:00.000Z"));
    QCOMPARE(Gatehouse::Core::isoTimeMs(-62167219200001),
             QStringLiteral("-001-12-31T23:59:59.999Z"));
    quint64 x = 88172645463325252ULL;
    for (int i = 0; i < 2000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        samples.append(qint64(x % 8'000'000'000'000ULL) - 1'000'000'000'000LL);
    }
    for (qint64 ms : std::as_const(samples))
        QCOMPARE(Gatehouse::Core::isoTimeMs(ms),
                 QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs));
}

// A JWT's exp of 1.8e27 (what fuzz_jwt_assertion found in the JWT inspector) or -1e300 is no
// date anyone means: clamped, so that converting and adding leeway or × 1000 stay defined.
void TestCore::jsonSecondsClampsWhatNoDateNeeds()
{
    using Gatehouse::Core::jsonSeconds;
    QCOMPARE(jsonSeconds(QJsonValue(1700000000.0)), qint64(1700000000));
    QCOMPARE(jsonSeconds(QJsonValue(1700000000.9)), qint64(1700000000));
    QCOMPARE(jsonSeconds(QJsonValue(-5.0)), qint64(-5));
    QCOMPARE(jsonSeconds(QJsonValue(1.8e27)), qint64(10'000'000'000'000));
    QCOMPARE(jsonSeconds(QJsonValue(-1e300)), qint64(-10'000'000'000'000));
    QCOMPARE(jsonSeconds(QJsonValue(QStringLiteral("1700000000"))), qint64(0));
    QCOMPARE(jsonSeconds(QJsonValue()), qint64(0));
    // What the callers then do with it stays in range.
    QVERIFY(jsonSeconds(QJsonValue(1e308)) * 1000 + 60'000 > 0);
}

// platform/platform.h on this platform: what 0600 / 0700 mean for the admin token,
// keys and the database, whatever the umask.
void TestCore::privateFilesAndDirectories()
{
    namespace P = Gatehouse::Platform;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const TestHelpers::ScopedUmask umask(0); // the most permissive umask must not widen anything
    const auto mode = TestHelpers::fileMode;
    const QString secret = dir.filePath(QStringLiteral("secret"));
    QVERIFY(P::writePrivateFile(secret, "s3cret\n").ok());
    QCOMPARE(mode(secret), 0600);
    QVERIFY(P::writeFileAtomically(secret, "replaced\n", 0600).ok());
    QFile read(secret);
    QVERIFY(read.open(QIODevice::ReadOnly));
    QCOMPARE(read.readAll(), QByteArray("replaced\n"));
    const QString open = dir.filePath(QStringLiteral("ca.crt"));
    QVERIFY(P::writeFileAtomically(open, "cert", 0644).ok());
    QCOMPARE(mode(open), 0644);

    // An existing file and directory made private; a new nested directory private at its end.
    QVERIFY(P::restrictToOwner(open).ok());
    QCOMPARE(mode(open), 0600);
    const QString shared = dir.filePath(QStringLiteral("shared"));
    QVERIFY(QDir().mkdir(shared));
    QVERIFY(QFile::setPermissions(shared, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                              QFile::ReadOther | QFile::ExeOther));
    QVERIFY(P::restrictToOwner(shared).ok());
    QCOMPARE(mode(shared), 0700);
    const QString nested = dir.filePath(QStringLiteral("a/b/data"));
    QVERIFY(P::ensurePrivateDirectory(nested).ok());
    QCOMPARE(mode(nested), 0700);
#ifdef Q_OS_UNIX
    // The parents it made are writable by nobody else (mkpath made them 0777 under umask 000:
    // anyone could have renamed the data directory away).
    QCOMPARE(mode(dir.filePath(QStringLiteral("a"))), 0755);
    QCOMPARE(mode(dir.filePath(QStringLiteral("a/b"))), 0755);
#endif

    // Bad input: a clear error naming the path, nothing left behind.
    const QString nowhere = dir.filePath(QStringLiteral("missing/secret"));
    const auto failed = P::writePrivateFile(nowhere, "x");
    QVERIFY(!failed.ok());
    QCOMPARE(failed.error().code, QStringLiteral("io_error"));
    QCOMPARE(failed.error().message,
             QStringLiteral("cannot create temporary file for %1: No such file or directory")
                 .arg(nowhere));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("missing"))));
    const auto notDir = P::ensurePrivateDirectory(secret);
    QVERIFY(!notDir.ok());
    QCOMPARE(notDir.error().message,
             QStringLiteral("%1 exists and is not a directory").arg(secret));
    QVERIFY(!P::restrictToOwner(nowhere).ok());
    QCOMPARE(QDir(dir.path()).entryList(QStringList{QStringLiteral("*.tmp-*")}, QDir::Files),
             QStringList());
    QCOMPARE(P::mallocName(), QStringLiteral("system")); // tst_core is not linked with mimalloc
    QVERIFY(P::shutdownWrite(-1) == false);
}

QTEST_GUILESS_MAIN(TestCore)
#include "tst_core.moc"
