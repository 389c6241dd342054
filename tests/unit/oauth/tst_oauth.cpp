// Unit tests of backend/oauth: client authentication (ClientAuthenticator) as the token,
// introspection, revocation and device authorization endpoints use it, against clients
// registered in a real SQLite file, with the exact error a client would see.
#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "crypto/sealing.h"
#include "oauth/assertions.h"
#include "oauth/clientauthenticator.h"
#include "oauth/clientregistry.h"
#include "oauth/form.h"
#include "oauth/granthandler.h"
#include "oauth/oauthstore.h"
#include "oauth/signingkeys.h"
#include "oauth/signinstore.h"
#include "oauth/userstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <future>
#include <memory>

using namespace Gatehouse;
using OAuth::Client;
using OAuth::ClientAuthenticator;

namespace {

const QString Issuer = QStringLiteral("https://issuer.test");
const QDateTime Start = QDateTime::fromString(QStringLiteral("2026-11-21T12:00:00Z"), Qt::ISODate);
const QString JwtBearerType =
    QStringLiteral("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");

QByteArray basicHeader(const QString &id, const QString &secret)
{
    return "Basic " +
           (QUrl::toPercentEncoding(id) + ':' + QUrl::toPercentEncoding(secret)).toBase64();
}

Core::HttpRequest tokenRequest(const QByteArray &authorization = {})
{
    Core::HttpRequest req;
    req.method = "POST";
    req.path = QStringLiteral("/oauth2/token");
    if (!authorization.isEmpty())
        req.headers.append({QByteArray("authorization"), authorization});
    return req;
}

} // namespace

class TestOAuth : public QObject
{
    Q_OBJECT

    Core::ManualClock m_clock{Start};
    QTemporaryDir m_dir;
    std::unique_ptr<Core::Database> m_db;
    std::unique_ptr<Core::WriteQueue> m_writer;
    std::unique_ptr<OAuth::ClientRegistry> m_clients;
    std::unique_ptr<OAuth::JtiCache> m_jti;
    std::unique_ptr<ClientAuthenticator> m_auth;
    Crypto::PrivateKey m_clientKey; // the private_key_jwt client's registered key
    Crypto::PrivateKey m_otherKey;  // a key the server does not know
    // By role: "basic", "post", "public", "jwt"; the secret of those that have one.
    QHash<QString, OAuth::ClientRegistry::Registered> m_registered;

    QString idOf(const QString &role) const
    {
        return role == QLatin1String("unknown") ? QStringLiteral("no-such-client")
                                                : m_registered.value(role).client.clientId;
    }
    QString secretOf(const QString &role) const
    {
        const QString s = m_registered.value(role).secret;
        return s.isEmpty() ? QStringLiteral("not-a-secret") : s;
    }

    void registerClient(const QString &role, QJsonObject metadata)
    {
        metadata.insert(QStringLiteral("client_name"), role);
        auto client = OAuth::ClientRegistry::fromMetadata(metadata);
        QVERIFY2(client, qPrintable(client ? QString() : client.error().message));
        std::promise<Core::Result<OAuth::ClientRegistry::Registered>> promise;
        auto future = promise.get_future();
        m_clients->registerClient(*client, [&promise](auto r) { promise.set_value(std::move(r)); });
        const auto registered = future.get();
        QVERIFY2(registered, qPrintable(registered ? QString() : registered.error().message));
        m_registered.insert(role, *registered);
    }

    // A client assertion (RFC 7523 §3) for `id`, signed with `key`, valid for `lifetimeS` from
    // the clock's now (negative: expired).
    QString assertion(const QString &id, const Crypto::PrivateKey &key, qint64 lifetimeS = 300,
                      const QJsonValue &audience = Issuer) const
    {
        const qint64 now = m_clock.now().toSecsSinceEpoch();
        const QJsonObject claims{{QStringLiteral("iss"), id},
                                 {QStringLiteral("sub"), id},
                                 {QStringLiteral("aud"), audience},
                                 {QStringLiteral("iat"), now},
                                 {QStringLiteral("exp"), now + lifetimeS},
                                 {QStringLiteral("jti"), Crypto::Random::token(16)}};
        const auto signed_ =
            Crypto::Jws::sign(key, QStringLiteral("ES256"), {{QStringLiteral("typ"), "JWT"}},
                              QJsonDocument(claims).toJson(QJsonDocument::Compact));
        if (!signed_)
            qFatal("signing the test assertion failed: %s", qPrintable(signed_.error().message));
        return QString::fromLatin1(*signed_);
    }

    // What a client would see for a refusal: status, body, the two headers that matter.
    static QJsonObject answer(const OAuth::OAuthError &e)
    {
        const Core::HttpResponse r = e.toResponse();
        return QJsonObject{
            {QStringLiteral("status"), r.status},
            {QStringLiteral("body"), QJsonDocument::fromJson(r.body).object()},
            {QStringLiteral("wwwAuthenticate"), QString::fromLatin1(r.header("WWW-Authenticate"))},
            {QStringLiteral("cacheControl"), QString::fromLatin1(r.header("Cache-Control"))}};
    }

    static QJsonObject refusal(int status, const QString &error, const QString &description,
                               bool challenge)
    {
        return QJsonObject{{QStringLiteral("status"), status},
                           {QStringLiteral("body"),
                            QJsonObject{{QStringLiteral("error"), error},
                                        {QStringLiteral("error_description"), description}}},
                           {QStringLiteral("wwwAuthenticate"),
                            challenge
                                ? QStringLiteral("Basic realm=\"gatehouse\", charset=\"UTF-8\"")
                                : QString()},
                           {QStringLiteral("cacheControl"), QStringLiteral("no-store")}};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto opened = Core::Database::open(
            m_dir.filePath(QStringLiteral("oauth.db")),
            Core::Database::coreMigrations() << OAuth::OAuthStore::all(), m_clock);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
        m_db = std::move(*opened);
        m_writer = std::make_unique<Core::WriteQueue>(*m_db, QStringLiteral("oauth-writer"));
        m_clients = std::make_unique<OAuth::ClientRegistry>(*m_db, *m_writer, m_clock);
        m_jti = std::make_unique<OAuth::JtiCache>(*m_db, *m_writer);
        m_auth = std::make_unique<ClientAuthenticator>(*m_clients, *m_jti, m_clock, Issuer);

        auto clientKey = Crypto::PrivateKey::generate(Crypto::KeyType::EcP256);
        auto otherKey = Crypto::PrivateKey::generate(Crypto::KeyType::EcP256);
        QVERIFY(clientKey && otherKey);
        m_clientKey = *clientKey;
        m_otherKey = *otherKey;

        const QJsonArray cc{QStringLiteral("client_credentials")};
        registerClient(QStringLiteral("basic"), {{QStringLiteral("grant_types"), cc},
                                                 {QStringLiteral("token_endpoint_auth_method"),
                                                  QStringLiteral("client_secret_basic")}});
        registerClient(QStringLiteral("post"), {{QStringLiteral("grant_types"), cc},
                                                {QStringLiteral("token_endpoint_auth_method"),
                                                 QStringLiteral("client_secret_post")}});
        registerClient(
            QStringLiteral("public"),
            {{QStringLiteral("grant_types"),
              QJsonArray{QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")}},
             {QStringLiteral("token_endpoint_auth_method"), QStringLiteral("none")}});
        registerClient(
            QStringLiteral("jwt"),
            {{QStringLiteral("grant_types"), cc},
             {QStringLiteral("token_endpoint_auth_method"), QStringLiteral("private_key_jwt")},
             {QStringLiteral("jwks"),
              Crypto::Jws::jwks({Crypto::Jws::publicJwk(m_clientKey, QStringLiteral("k1"),
                                                        QStringLiteral("ES256"))})}});
        QVERIFY(!m_registered.value(QStringLiteral("basic")).secret.isEmpty());
        QVERIFY(m_registered.value(QStringLiteral("public")).secret.isEmpty());
    }

    // Each method with the credentials of the client registered for it, and the ways a
    // client is refused: wrong secret, another method than its registered one, two methods
    // at once, unknown or no client, a bad assertion.
    void authenticates_data()
    {
        QTest::addColumn<QString>("client"); // the registered role, or "unknown"
        QTest::addColumn<QStringList>(
            "shows"); // basic, post, id, other-id, assertion, malformed-basic
        QTest::addColumn<bool>("rightSecret");
        QTest::addColumn<QJsonObject>("expected"); // empty: accepted as `client`

        const QString wrong = QStringLiteral("unknown client or wrong credentials");
        const QString twoMethods = QStringLiteral("use one client authentication method, not two");
        const auto refused = [](const QString &d, bool basic) {
            return refusal(401, QStringLiteral("invalid_client"), d, basic);
        };
        const auto registeredFor = [](const QString &method) {
            return QStringLiteral("this client authenticates with %1").arg(method);
        };

        QTest::newRow("client_secret_basic")
            << "basic" << QStringList{"basic"} << true << QJsonObject();
        QTest::newRow("client_secret_post")
            << "post" << QStringList{"post"} << true << QJsonObject();
        QTest::newRow("none: a public client names itself")
            << "public" << QStringList{"id"} << true << QJsonObject();
        QTest::newRow("private_key_jwt")
            << "jwt" << QStringList{"assertion"} << true << QJsonObject();

        QTest::newRow("basic, wrong secret: challenged")
            << "basic" << QStringList{"basic"} << false << refused(wrong, true);
        QTest::newRow("post, wrong secret: no challenge")
            << "post" << QStringList{"post"} << false << refused(wrong, false);
        QTest::newRow("unknown client, same answer as a wrong secret")
            << "unknown" << QStringList{"basic"} << true << refused(wrong, true);

        QTest::newRow("basic client posting its secret")
            << "basic" << QStringList{"post"} << true
            << refused(registeredFor(QStringLiteral("client_secret_basic")), false);
        QTest::newRow("post client with Basic")
            << "post" << QStringList{"basic"} << true
            << refused(registeredFor(QStringLiteral("client_secret_post")), true);
        QTest::newRow("confidential client without credentials")
            << "basic" << QStringList{"id"} << true
            << refused(registeredFor(QStringLiteral("client_secret_basic")), false);
        // How a client authenticates is told only to whoever holds its secret (or sent none):
        // a secret it does not have is a wrong one.
        QTest::newRow("public client with a secret")
            << "public" << QStringList{"basic"} << true << refused(wrong, true);
        QTest::newRow("private_key_jwt client with a secret")
            << "jwt" << QStringList{"post"} << true << refused(wrong, false);
        QTest::newRow("post client with Basic and a wrong secret")
            << "post" << QStringList{"basic"} << false << refused(wrong, true);
        QTest::newRow("Basic and another client's client_id in the body")
            << "basic" << QStringList{"basic", "other-id"} << true
            << refusal(400, QStringLiteral("invalid_request"),
                       QStringLiteral("client_id in the body is not the client of the Basic "
                                      "credentials"),
                       false);
        QTest::newRow("Basic and its own client_id in the body")
            << "basic" << QStringList{"basic", "id"} << true << QJsonObject();
        QTest::newRow("assertion of a client_secret_basic client")
            << "basic" << QStringList{"assertion"} << true
            << refused(QStringLiteral("unknown client or not a private_key_jwt client"), false);

        QTest::newRow("Basic and client_secret")
            << "basic" << QStringList{"basic", "post"} << true
            << refusal(400, QStringLiteral("invalid_request"), twoMethods, false);
        QTest::newRow("Basic and client_assertion")
            << "jwt" << QStringList{"basic", "assertion"} << true
            << refusal(400, QStringLiteral("invalid_request"), twoMethods, false);
        // One method per request (RFC 6749 §2.3), whichever the client is registered for:
        // a method beside the registered one is not a way in.
        QTest::newRow("private_key_jwt client: client_secret beside client_assertion")
            << "jwt" << QStringList{"assertion", "post"} << true
            << refusal(400, QStringLiteral("invalid_request"), twoMethods, false);
        QTest::newRow("client_secret_post client: client_secret beside client_assertion")
            << "post" << QStringList{"post", "assertion"} << true
            << refusal(400, QStringLiteral("invalid_request"), twoMethods, false);

        QTest::newRow("malformed Basic")
            << "basic" << QStringList{"malformed-basic"} << true
            << refused(QStringLiteral("malformed Basic credentials"), true);
        QTest::newRow("no client at all") << "basic" << QStringList() << true
                                          << refused(QStringLiteral("client authentication is "
                                                                    "required"),
                                                     false);
    }

    void authenticates()
    {
        QFETCH(QString, client);
        QFETCH(QStringList, shows);
        QFETCH(bool, rightSecret);
        QFETCH(QJsonObject, expected);

        const QString id = idOf(client);
        const QString secret = rightSecret ? secretOf(client) : secretOf(client) + 'x';
        QByteArray authorization;
        QHash<QString, QString> form{
            {QStringLiteral("grant_type"), QStringLiteral("client_credentials")}};
        if (shows.contains(QStringLiteral("basic")))
            authorization = basicHeader(id, secret);
        if (shows.contains(QStringLiteral("malformed-basic")))
            authorization = "Basic " + id.toUtf8().toBase64(); // no colon
        if (shows.contains(QStringLiteral("post"))) {
            form.insert(QStringLiteral("client_id"), id);
            form.insert(QStringLiteral("client_secret"), secret);
        }
        if (shows.contains(QStringLiteral("id")))
            form.insert(QStringLiteral("client_id"), id);
        if (shows.contains(QStringLiteral("other-id")))
            form.insert(QStringLiteral("client_id"), idOf(QStringLiteral("post")));
        if (shows.contains(QStringLiteral("assertion"))) {
            form.insert(QStringLiteral("client_assertion_type"), JwtBearerType);
            form.insert(QStringLiteral("client_assertion"), assertion(id, m_clientKey));
        }

        Client authenticated;
        const auto error = m_auth->authenticate(tokenRequest(authorization), form, &authenticated);
        if (expected.isEmpty()) {
            QVERIFY2(!error, qPrintable(error ? error->description : QString()));
            QCOMPARE(authenticated.clientId, id);
            QCOMPARE(authenticated.tokenEndpointAuthMethod,
                     m_registered.value(client).client.tokenEndpointAuthMethod);
        } else {
            QVERIFY(error);
            QCOMPARE(answer(*error), expected);
            QVERIFY(authenticated.clientId.isEmpty());
        }
    }

    void clientAssertionIsRefused_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("description");

        QTest::newRow("expired") << "expired"
                                 << "the assertion has expired";
        QTest::newRow("another client's iss") << "client_id differs"
                                              << "the assertion's iss must be the client_id";
        QTest::newRow("wrong client_assertion_type")
            << "type"
            << "client_assertion_type must be " + JwtBearerType;
        QTest::newRow("empty assertion") << "empty"
                                         << "client_assertion is required";
        QTest::newRow("signed with an unregistered key")
            << "other key"
            << "the assertion's signature does not verify";
        QTest::newRow("addressed to another server") << "audience"
                                                     << "aud must name this server";
    }

    void clientAssertionIsRefused()
    {
        QFETCH(QString, which);
        QFETCH(QString, description);
        const QString id = idOf(QStringLiteral("jwt"));
        QHash<QString, QString> form{
            {QStringLiteral("client_assertion_type"), JwtBearerType},
            {QStringLiteral("client_assertion"),
             which == QLatin1String("expired")     ? assertion(id, m_clientKey, -120)
             : which == QLatin1String("other key") ? assertion(id, m_otherKey)
             : which == QLatin1String("audience")
                 ? assertion(id, m_clientKey, 300, QStringLiteral("https://elsewhere.test"))
             : which == QLatin1String("empty") ? QString()
                                               : assertion(id, m_clientKey)}};
        if (which == QLatin1String("client_id differs"))
            form.insert(QStringLiteral("client_id"), idOf(QStringLiteral("basic")));
        if (which == QLatin1String("type"))
            form.insert(QStringLiteral("client_assertion_type"), QStringLiteral("jwt"));

        Client authenticated;
        const auto error = m_auth->authenticate(tokenRequest(), form, &authenticated);
        QVERIFY(error);
        const QJsonObject seen = answer(*error);
        QCOMPARE(seen.value("status").toInt(), 401);
        QCOMPARE(seen.value("wwwAuthenticate").toString(), QString());
        const QJsonObject body = seen.value("body").toObject();
        QCOMPARE(body.value("error").toString(), QStringLiteral("invalid_client"));
        // The verifier's message names the rule; some carry a detail after it.
        QVERIFY2(body.value("error_description").toString().startsWith(description),
                 qPrintable(body.value("error_description").toString()));
        QVERIFY(authenticated.clientId.isEmpty());
    }

    void clientAssertionIsUsedOnce()
    {
        // RFC 7523 §3: the jti of an accepted assertion is spent; the same JWT again is refused.
        const QString id = idOf(QStringLiteral("jwt"));
        const QHash<QString, QString> form{
            {QStringLiteral("client_assertion_type"), JwtBearerType},
            {QStringLiteral("client_assertion"), assertion(id, m_clientKey)},
            {QStringLiteral("client_id"), id}};
        Client first;
        QVERIFY(!m_auth->authenticate(tokenRequest(), form, &first));
        QCOMPARE(first.clientId, id);
        Client second;
        const auto replay = m_auth->authenticate(tokenRequest(), form, &second);
        QVERIFY(replay);
        QCOMPARE(answer(*replay),
                 refusal(401, QStringLiteral("invalid_client"),
                         QStringLiteral("this client_assertion was already used (jti)"), false));
    }

    // Whether a jti was spent before a restart is read from the database: when it cannot be read
    // the assertion is refused (as seen), never taken as new; readable again, a new one passes.
    void unreadableJtiIsRefusedAsSeen()
    {
        const QString id = idOf(QStringLiteral("jwt"));
        const auto exec = [this](const QString &sql) {
            return m_writer->run([sql](Core::WriteTransaction &tx) -> Core::Result<void> {
                QSqlQuery &q = tx.query(sql);
                if (!q.exec())
                    return Core::WriteTransaction::sqlError(q, "test statement");
                return {};
            });
        };
        const auto authenticate = [&]() {
            const QHash<QString, QString> form{
                {QStringLiteral("client_assertion_type"), JwtBearerType},
                {QStringLiteral("client_assertion"), assertion(id, m_clientKey)},
                {QStringLiteral("client_id"), id}};
            Client client;
            const auto error = m_auth->authenticate(tokenRequest(), form, &client);
            return error ? QStringLiteral("%1 %2").arg(error->status).arg(error->description)
                         : client.clientId;
        };
        QVERIFY(exec(QStringLiteral("ALTER TABLE oauth_jti RENAME TO jti_away")));
        QCOMPARE(authenticate(),
                 QStringLiteral("401 this client_assertion was already used (jti)"));
        QVERIFY(exec(QStringLiteral("ALTER TABLE jti_away RENAME TO oauth_jti")));
        QCOMPARE(authenticate(), id);
    }

    void assertionNamesOnlyTheIssuer()
    {
        // aud is the issuer identifier, one string, wherever the assertion is sent. The token
        // endpoint's URL (or a list naming it) is what a client gives an authorization server of
        // an attacker's that advertises this token endpoint as its own (the OpenID Foundation's
        // 2025 audience injection): it is refused, after the signature was checked.
        const QString id = idOf(QStringLiteral("jwt"));
        Core::HttpRequest introspect = tokenRequest();
        introspect.path = QStringLiteral("/oauth2/introspect");
        const auto authenticate = [&](const Core::HttpRequest &req, const QJsonValue &aud) {
            const QHash<QString, QString> form{
                {QStringLiteral("client_assertion_type"), JwtBearerType},
                {QStringLiteral("client_assertion"), assertion(id, m_clientKey, 300, aud)}};
            Client client;
            auto error = m_auth->authenticate(req, form, &client);
            if (!error)
                return client.clientId;
            return QStringLiteral("%1 %2").arg(error->status).arg(error->description);
        };
        QCOMPARE(authenticate(tokenRequest(), Issuer), id);
        QCOMPARE(authenticate(introspect, Issuer), id);
        const QString notIssuer = QStringLiteral("401 aud must name this server (%1)").arg(Issuer);
        QCOMPARE(authenticate(tokenRequest(), Issuer + QStringLiteral("/oauth2/token")), notIssuer);
        QCOMPARE(authenticate(introspect, Issuer + QStringLiteral("/oauth2/introspect")),
                 notIssuer);
        QCOMPARE(authenticate(tokenRequest(), Issuer + QLatin1Char('/')), notIssuer);
        QCOMPARE(
            authenticate(tokenRequest(), QJsonArray{Issuer + QStringLiteral("/oauth2/token"),
                                                    QStringLiteral("https://attacker.example")}),
            notIssuer);
        QCOMPARE(authenticate(tokenRequest(), QJsonArray{Issuer}),
                 QStringLiteral("401 aud must be this server's issuer identifier (%1) as one "
                                "string, not a list")
                     .arg(Issuer));
    }

    void patternsEndAtTheLastCharacter()
    {
        // PCRE's $ also matches before a final newline: "alice\n" passed as a username (a
        // second "alice" in every listing), and a value ending in one was quoted on an error
        // page as a plain token.
        QVERIFY(OAuth::UserInput::fromJson({{QStringLiteral("username"), QStringLiteral("alice")}},
                                           false)
                    .ok());
        const auto trailing = OAuth::UserInput::fromJson(
            {{QStringLiteral("username"), QStringLiteral("alice\n")}}, false);
        QVERIFY(!trailing.ok());
        QCOMPARE(trailing.error().message,
                 QStringLiteral("username: 1 to 64 characters of A-Z a-z 0-9 . _ @ - required"));
        QCOMPARE(OAuth::quotedToken(QStringLiteral("openid"), QStringLiteral("-")),
                 QStringLiteral("'openid'"));
        QCOMPARE(OAuth::quotedToken(QStringLiteral("openid\n"), QStringLiteral("-")),
                 QStringLiteral("-"));
        QCOMPARE(OAuth::repeatedParameter(QStringLiteral("scope\n")),
                 QStringLiteral("a parameter is repeated"));
    }

    void namesTheClientBeforeAuthenticating()
    {
        // What the token endpoint reads before it authenticates (where a request runs):
        // Basic's id first, else client_id; a wrong secret still names the client.
        const QString basicId = idOf(QStringLiteral("basic"));
        const QString postId = idOf(QStringLiteral("post"));
        const auto viaBasic = m_auth->named(tokenRequest(basicHeader(basicId, "wrong")),
                                            {{QStringLiteral("client_id"), postId}});
        QVERIFY(viaBasic);
        QCOMPARE(viaBasic->clientId, basicId);
        const auto viaForm = m_auth->named(tokenRequest(), {{QStringLiteral("client_id"), postId}});
        QVERIFY(viaForm);
        QCOMPARE(viaForm->clientId, postId);
        QVERIFY(!m_auth->named(tokenRequest(), {{QStringLiteral("client_id"), "no-such-client"}}));
        QVERIFY(!m_auth->named(tokenRequest(), {}));
    }

    void signInStoreRefusesWhatAnAttackerWouldTry()
    {
        // A locked or deleted user gets no session and leaves the sign-in unmarked (the
        // consent page would take a marked one); a consent is used once; one address stops at
        // its cap while another still starts; a session is read back only with its hash.
        QTemporaryDir dir;
        auto opened = Core::Database::open(
            dir.filePath(QStringLiteral("signins.db")),
            Core::Database::coreMigrations() << OAuth::OAuthStore::all(), m_clock);
        QVERIFY(opened);
        Core::Database &db = **opened;
        Core::WriteQueue writer(db, QStringLiteral("signin-writer"));
        OAuth::SignInStore store(db, writer);
        store.setLimits({5, 2, 100});
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        QSqlQuery users(db.connection());
        for (const auto &[id, locked] :
             {std::pair{"alice", QVariant(QMetaType::fromType<qint64>())},
              std::pair{"bob", QVariant(QMetaType::fromType<qint64>())},
              std::pair{"mallory", QVariant(qint64(OAuth::User::kLockedByAdministrator))}}) {
            users.prepare(QStringLiteral("INSERT INTO oauth_users (id, username, password_hash, "
                                         "locked_until, created_at, updated_at) VALUES (?, ?, "
                                         "'x', ?, 0, 0)"));
            users.addBindValue(QString::fromLatin1(id));
            users.addBindValue(QString::fromLatin1(id));
            users.addBindValue(locked);
            QVERIFY2(users.exec(), qPrintable(users.lastError().text()));
        }
        auto wait = [](auto call) {
            std::promise<Core::Result<bool>> p;
            call([&p](Core::Result<bool> r) { p.set_value(std::move(r)); });
            return p.get_future().get();
        };
        auto start = [&](const QString &id, const QString &address) {
            OAuth::Interaction ia;
            ia.id = id;
            ia.address = address;
            ia.cookieHash = QStringLiteral("hash-of-") + id;
            ia.csrf = QStringLiteral("csrf");
            ia.request.clientId = QStringLiteral("c");
            ia.request.scopes = {QStringLiteral("openid")};
            ia.expiresAt = now + 60'000;
            return wait([&](auto done) { store.create(ia, now, done); });
        };
        QCOMPARE(start(QStringLiteral("i1"), QStringLiteral("10.0.0.1")).value(), true);
        QCOMPARE(start(QStringLiteral("i2"), QStringLiteral("10.0.0.1")).value(), true);
        QCOMPARE(start(QStringLiteral("i3"), QStringLiteral("10.0.0.1")).value(), false); // cap
        QCOMPARE(store.pendingOf(QStringLiteral("10.0.0.1"), now), 2);
        QCOMPARE(start(QStringLiteral("i4"), QStringLiteral("10.0.0.2")).value(), true);
        // Read back only with the cookie's hash, and with the request as it was asked.
        QVERIFY(!store.interaction(QStringLiteral("i1"), QStringLiteral("forged"), now));
        const auto i1 = store.interaction(QStringLiteral("i1"), QStringLiteral("hash-of-i1"), now);
        QVERIFY(i1);
        QCOMPARE(i1->request.scopes, QStringList{QStringLiteral("openid")});
        QVERIFY(!store.interaction(QStringLiteral("i1"), QStringLiteral("hash-of-i1"),
                                   now + 60'000)); // expired
        // Locked by an administrator, or deleted: no session, the sign-in stays unmarked.
        for (const QString &who : {QStringLiteral("mallory"), QStringLiteral("nobody")}) {
            const auto r = wait([&](auto done) {
                store.signIn(QStringLiteral("i1"), who, 0, now, QStringLiteral("s-") + who,
                             QString(), now + 60'000, false, done);
            });
            QCOMPARE(r.value(), false);
            QVERIFY(!store.session(QStringLiteral("s-") + who, now));
            QVERIFY(store.interaction(QStringLiteral("i1"), QStringLiteral("hash-of-i1"), now)
                        ->userId.isEmpty());
        }
        QCOMPARE(wait([&](auto done) {
                     store.createSession(QStringLiteral("s-m"), QString(),
                                         QStringLiteral("mallory"), 0, now, now + 60'000, done);
                 }).value(),
                 false);
        QVERIFY(!store.session(QStringLiteral("s-m"), now));
        // Changed by an administrator since her password was checked (her updated_at was 0 when
        // read; a new password makes it move): no session, the sign-in stays unmarked.
        QCOMPARE(wait([&](auto done) {
                     store.signIn(QStringLiteral("i1"), QStringLiteral("alice"), -5, now,
                                  QStringLiteral("s-stale"), QString(), now + 60'000, false, done);
                 }).value(),
                 false);
        QVERIFY(!store.session(QStringLiteral("s-stale"), now));
        QCOMPARE(wait([&](auto done) {
                     store.createSession(QStringLiteral("s-stale"), QString(),
                                         QStringLiteral("alice"), -5, now, now + 60'000, done);
                 }).value(),
                 false);
        // Alice signs in: marked, a session; the consent is consumed once.
        QCOMPARE(wait([&](auto done) {
                     store.signIn(QStringLiteral("i1"), QStringLiteral("alice"), 0, now,
                                  QStringLiteral("s-alice"), QString(), now + 60'000, false, done);
                 }).value(),
                 true);
        QCOMPARE(store.session(QStringLiteral("s-alice"), now)->userId, QStringLiteral("alice"));
        QCOMPARE(store.interaction(QStringLiteral("i1"), QStringLiteral("hash-of-i1"), now)->userId,
                 QStringLiteral("alice"));
        QCOMPARE(wait([&](auto done) { store.consume(QStringLiteral("i1"), done); }).value(), true);
        QCOMPARE(wait([&](auto done) { store.consume(QStringLiteral("i1"), done); }).value(),
                 false);
        // One user holds at most sessionsPerUser sessions, their oldest going first; another
        // user's session stays (one account signed in from many addresses does not sign
        // everyone else out at the global cap).
        store.setLimits({5, 2, 100, 3});
        QCOMPARE(wait([&](auto done) {
                     store.createSession(QStringLiteral("s-bob"), QString(), QStringLiteral("bob"),
                                         0, now, now + 1'000, done);
                 }).value(),
                 true);
        for (int i = 1; i <= 4; ++i)
            QCOMPARE(wait([&](auto done) {
                         store.createSession(QStringLiteral("s-alice-%1").arg(i), QString(),
                                             QStringLiteral("alice"), 0, now, now + 60'000 + i,
                                             done);
                     }).value(),
                     true);
        // s-alice plus four more, three at most: s-alice and s-alice-1 went, oldest first.
        QVERIFY(!store.session(QStringLiteral("s-alice"), now));
        QVERIFY(!store.session(QStringLiteral("s-alice-1"), now));
        for (int i = 2; i <= 4; ++i)
            QVERIFY(store.session(QStringLiteral("s-alice-%1").arg(i), now));
        // A session that goes past the cap ends as a sign-out ends it: the tokens of its codes
        // revoked and its codes refused, the kept sessions' left alone. (Before, only its row
        // went: a sign-out in that browser found no session to end.)
        QSqlQuery issued(db.connection());
        for (const QString &session : {QStringLiteral("s-alice-2"), QStringLiteral("s-alice-3"),
                                       QStringLiteral("s-alice-4")}) {
            issued.prepare(QStringLiteral(
                "INSERT INTO oauth_codes (hash, client_id, user_id, scope, auth_time, issued_at, "
                "expires_at, session_hash) VALUES (?, 'app', 'alice', 'openid', 0, 0, ?, ?)"));
            issued.addBindValue(QStringLiteral("code-") + session);
            issued.addBindValue(now + 60'000);
            issued.addBindValue(session);
            QVERIFY2(issued.exec(), qPrintable(issued.lastError().text()));
            issued.prepare(QStringLiteral(
                "INSERT INTO oauth_tokens (hash, kind, format, client_id, subject, scope, "
                "audience, issued_at, expires_at, code_hash) VALUES (?, 'access', 'jwt', 'app', "
                "'alice', 'openid', 'app', 0, ?, ?)"));
            issued.addBindValue(QStringLiteral("token-") + session);
            issued.addBindValue(now + 3'600'000);
            issued.addBindValue(QStringLiteral("code-") + session);
            QVERIFY2(issued.exec(), qPrintable(issued.lastError().text()));
        }
        QCOMPARE(wait([&](auto done) {
                     store.createSession(QStringLiteral("s-alice-6"), QString(),
                                         QStringLiteral("alice"), 0, now, now + 60'006, done);
                 }).value(),
                 true);
        QVERIFY(!store.session(QStringLiteral("s-alice-2"), now));
        const auto revokedAndExpiry = [&](const QString &session) {
            QSqlQuery q(db.connection());
            q.prepare(QStringLiteral("SELECT t.revoked_at IS NOT NULL, c.expires_at FROM "
                                     "oauth_tokens t JOIN oauth_codes c ON c.hash = t.code_hash "
                                     "WHERE c.session_hash = ?"));
            q.addBindValue(session);
            return q.exec() && q.next() ? std::pair{q.value(0).toBool(), q.value(1).toLongLong()}
                                        : std::pair{false, qint64(-1)};
        };
        QCOMPARE(revokedAndExpiry(QStringLiteral("s-alice-2")), (std::pair{true, qint64(0)}));
        QCOMPARE(revokedAndExpiry(QStringLiteral("s-alice-3")),
                 (std::pair{false, qint64(now + 60'000)}));
        QCOMPARE(revokedAndExpiry(QStringLiteral("s-alice-4")),
                 (std::pair{false, qint64(now + 60'000)}));
        QCOMPARE(store.session(QStringLiteral("s-bob"), now)->userId, QStringLiteral("bob"));
        // Signing in again in a browser replaces the session its cookie named.
        QCOMPARE(wait([&](auto done) {
                     store.createSession(QStringLiteral("s-alice-5"), QStringLiteral("s-alice-4"),
                                         QStringLiteral("alice"), 0, now, now + 60'005, done);
                 }).value(),
                 true);
        QVERIFY(!store.session(QStringLiteral("s-alice-4"), now));
        QVERIFY(store.session(QStringLiteral("s-alice-5"), now));
        QVERIFY(store.session(QStringLiteral("s-alice-3"), now));
        // What she was issued in the replaced session moved with her, alive.
        QCOMPARE(revokedAndExpiry(QStringLiteral("s-alice-5")),
                 (std::pair{false, qint64(now + 60'000)}));
        store.setLimits({5, 2, 100});
        // Her sessions end: none is read back.
        std::promise<Core::Result<void>> ended;
        store.endSessions(QStringLiteral("alice"),
                          [&ended](Core::Result<void> r) { ended.set_value(std::move(r)); });
        QVERIFY(ended.get_future().get().ok());
        QVERIFY(!store.session(QStringLiteral("s-alice"), now));

        // A change that revokes her tokens (here her email; a new password alike) and a lock
        // end her sessions in their own transaction: none is left for a device approval or a
        // code to rest on, even before the admin API's own endSessions runs.
        OAuth::UserStore userStore(db, writer, m_clock);
        for (const bool lock : {false, true}) {
            const qint64 updatedAt = userStore.find(QStringLiteral("alice"))->updatedAt;
            QCOMPARE(wait([&](auto done) {
                         store.createSession(QStringLiteral("s-again"), QString(),
                                             QStringLiteral("alice"), updatedAt, now, now + 60'000,
                                             done);
                     }).value(),
                     true);
            QVERIFY(store.session(QStringLiteral("s-again"), now));
            std::promise<Core::Result<OAuth::User>> changed;
            auto answered = [&changed](Core::Result<OAuth::User> r) {
                changed.set_value(std::move(r));
            };
            if (lock) {
                userStore.lock(QStringLiteral("alice"), answered);
            } else {
                OAuth::UserInput input;
                input.email = QStringLiteral("alice@example.com");
                userStore.update(QStringLiteral("alice"), input, answered);
            }
            QVERIFY(changed.get_future().get().ok());
            QVERIFY2(!store.session(QStringLiteral("s-again"), now),
                     lock ? "a session outlived the lock" : "a session outlived the change");
        }
    }

    void signingKeysAreSealedInTheDatabase()
    {
        // Keys an older build stored as PEM are sealed when a sealing key is there (the
        // backend installs one), and read back the same; with another key they cannot be read.
        QTemporaryDir dir;
        auto opened = Core::Database::open(
            dir.filePath(QStringLiteral("keys.db")),
            Core::Database::coreMigrations() << OAuth::OAuthStore::all(), m_clock);
        QVERIFY(opened);
        Core::Database &db = **opened;
        Core::WriteQueue writer(db, QStringLiteral("keys-writer"));
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        auto stored = [&db] {
            QStringList values;
            QSqlQuery q(db.connection());
            if (q.exec(QStringLiteral("SELECT private_pem FROM oauth_signing_keys ORDER BY kid")))
                while (q.next())
                    values << q.value(0).toString();
            return values;
        };
        QJsonObject jwks;
        {
            OAuth::SigningKeys plain(db, writer); // no sealer: an older build
            QVERIFY(plain.load(now).ok());
            jwks = plain.jwks();
        }
        QCOMPARE(stored().size(), 4); // RS256 and ES256, active and next
        for (const QString &v : stored())
            QVERIFY(v.startsWith(QLatin1String("-----BEGIN PRIVATE KEY-----")));
        auto install = [&db](const Crypto::SealingKey &key) {
            db.setSealer(
                {[key](const QByteArray &p, const QByteArray &c) { return key.seal(p, c); },
                 [key](const QByteArray &s, const QByteArray &c) { return key.open(s, c); }});
        };
        install(Crypto::SealingKey::fromBytes(Crypto::Random::bytes(32)));
        {
            OAuth::SigningKeys sealed(db, writer);
            QVERIFY(sealed.load(now).ok());
            QCOMPARE(sealed.jwks(), jwks); // the same keys
        }
        for (const QString &v : stored()) {
            QVERIFY2(v.startsWith(QLatin1String("sealed:v1:")), qPrintable(v.left(20)));
            QVERIFY(!v.contains(QLatin1String("PRIVATE KEY")));
        }
        // A rotation stores its new key sealed as well.
        {
            OAuth::SigningKeys keys(db, writer);
            QVERIFY(keys.load(now).ok());
            std::promise<Core::Result<void>> rotated;
            keys.rotate(QStringLiteral("ES256"), now,
                        [&](const Core::Result<void> &r) { rotated.set_value(r); });
            QVERIFY(rotated.get_future().get().ok());
        }
        QCOMPARE(stored().size(), 5);
        for (const QString &v : stored())
            QVERIFY(v.startsWith(QLatin1String("sealed:v1:")));
        // Another data directory's key: refused at start, nothing read as a key.
        install(Crypto::SealingKey::fromBytes(QByteArray(32, 'k')));
        OAuth::SigningKeys wrong(db, writer);
        const auto loaded = wrong.load(now);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().message.contains(QStringLiteral("database-key")),
                 qPrintable(loaded.error().message));
    }

    // A retired key leaves the JWKS when its time is over, in a process that keeps running (it
    // stayed until the next rotation or restart, and relying parties kept accepting it).
    void retiredKeyLeavesTheJwksOnTime()
    {
        OAuth::SigningKeys keys(*m_db, *m_writer);
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        QVERIFY(keys.load(now).ok());
        const QString retiring = keys.active(QStringLiteral("ES256")).kid;
        const auto kids = [&keys] {
            QStringList out;
            for (const QJsonValue k : keys.jwks().value(QStringLiteral("keys")).toArray())
                out.append(k.toObject().value(QStringLiteral("kid")).toString());
            return out;
        };
        std::promise<Core::Result<void>> rotated;
        keys.rotate(QStringLiteral("ES256"), now,
                    [&](const Core::Result<void> &r) { rotated.set_value(r); });
        QVERIFY(rotated.get_future().get().ok());
        QVERIFY(kids().contains(retiring));
        const qint64 end = now + OAuth::SigningKeys::kRetiredPublishedMs;
        keys.dropRetired(end - 1);
        QVERIFY(kids().contains(retiring));
        QVERIFY(QString::fromUtf8(keys.jwksJson()).contains(retiring));
        keys.dropRetired(end);
        QVERIFY(!kids().contains(retiring));
        QVERIFY(!QString::fromUtf8(keys.jwksJson()).contains(retiring));
        QCOMPARE(kids().size(), 4); // RS256 and ES256, active and next
    }

    // oauth-refresh-max-lifetime: a refresh token never outlives the sign-in by more than the
    // limit, and none is issued from a sign-in already past it.
    void refreshTokensEndWithTheSignIn()
    {
        OAuth::SigningKeys keys(*m_db, *m_writer);
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        QVERIFY(keys.load(now).ok());
        OAuth::TokenIssuer issuer(keys, Issuer);
        constexpr qint64 hour = 3'600'000;
        constexpr qint64 fortnight = 14 * 24 * hour;
        issuer.setRefreshLifetimeMs(fortnight);
        issuer.setRefreshMaxLifetimeMs(hour);
        QVERIFY(!issuer.signInTooOld(0, now)); // no sign-in: no limit
        QVERIFY(!issuer.signInTooOld(now - hour + 1, now));
        QVERIFY(issuer.signInTooOld(now - hour, now));

        OAuth::Client c;
        c.clientId = QStringLiteral("app");
        c.grantTypes = {QStringLiteral("password"), QStringLiteral("refresh_token")};
        c.scopes = {QStringLiteral("openid"), QStringLiteral("offline_access")};
        OAuth::User u;
        u.id = QStringLiteral("3b6e0a4c-5d2e-4f43-9b1a-0c7d2e8f4a61");
        u.username = QStringLiteral("ivy");
        const QStringList offline{QStringLiteral("openid"), QStringLiteral("offline_access")};
        const auto issue = [&](qint64 authTime, const QStringList &scopes, bool rotation) {
            OAuth::UserTokenRequest r;
            r.client = &c;
            r.user = &u;
            r.scopes = scopes;
            r.authTime = authTime;
            r.family = QStringLiteral("family");
            r.now = now;
            r.rotation = rotation;
            OAuth::GrantResult out;
            OAuth::issueUserTokens(issuer, r, &out);
            return out;
        };
        const auto refreshOf = [](const OAuth::GrantResult &out) {
            std::optional<OAuth::IssuedToken> found;
            for (const OAuth::IssuedToken &t : out.tokens)
                if (t.kind == QLatin1String("refresh"))
                    found = t;
            return found;
        };
        // Ten minutes after the sign-in: it ends an hour after the sign-in, not 14 days on.
        const auto young = issue(now - 10 * 60'000, offline, false);
        QVERIFY(!young.error);
        QVERIFY(young.response.contains(QStringLiteral("refresh_token")));
        QCOMPARE(refreshOf(young)->expiresAt, now - 10 * 60'000 + hour);
        // An hour after it (a browser session's sign-in can be): tokens, but no refresh token.
        const auto old = issue(now - hour, offline, false);
        QVERIFY(!old.error);
        QVERIFY(old.response.contains(QStringLiteral("access_token")));
        QVERIFY(!old.response.contains(QStringLiteral("refresh_token")));
        QVERIFY(!refreshOf(old));
        // No limit: 14 days from now.
        issuer.setRefreshMaxLifetimeMs(0);
        const auto unlimited = issue(now - 30 * 24 * hour, offline, false);
        QCOMPARE(refreshOf(unlimited)->expiresAt, now + fortnight);
        // Without offline_access a grant gets no refresh token: it ends with its access token.
        const auto online = issue(now - 10 * 60'000, {QStringLiteral("openid")}, false);
        QVERIFY(!online.error);
        QVERIFY(online.response.contains(QStringLiteral("access_token")));
        QVERIFY(!online.response.contains(QStringLiteral("refresh_token")));
        QVERIFY(!refreshOf(online));
        // A rotation (the refresh grant, its scope narrowed below offline_access) replaces the
        // refresh token presented.
        const auto rotated = issue(now - 10 * 60'000, {QStringLiteral("openid")}, true);
        QVERIFY(rotated.response.contains(QStringLiteral("refresh_token")));
        // Nor without the refresh_token grant, offline_access or not.
        c.grantTypes = {QStringLiteral("password")};
        QVERIFY(!issue(now - 10 * 60'000, offline, false)
                     .response.contains(QStringLiteral("refresh_token")));
    }

    // An administrator's change, secret rotation or deletion checked at the request is checked
    // again against the client as stored in the writer's transaction: a client allowed to act
    // for the cluster since (by another administrator) is refused then, and nothing is written.
    void storedCheckSeesWhatChangedSinceTheRequest()
    {
        registerClient(
            QStringLiteral("guarded"),
            {{QStringLiteral("grant_types"), QJsonArray{QStringLiteral("client_credentials")}},
             {QStringLiteral("scope"), QStringLiteral("openid")}});
        const QString id = idOf(QStringLiteral("guarded"));
        const auto before = m_clients->find(id);
        QVERIFY(before && !before->clusterAccess); // what a request's check would have seen
        // Runs `start(callback)` and waits for the callback: the error it got, if any.
        auto sync = [](auto start) {
            std::promise<bool> done;
            auto f = done.get_future();
            std::optional<Core::Error> error;
            start([&](const auto &r) {
                if (!r)
                    error = r.error();
                done.set_value(true);
            });
            f.get();
            return error;
        };
        QVERIFY(!sync([&](auto cb) { m_clients->setClusterAccess(id, true, cb); }));
        int asked = 0;
        const OAuth::ClientRegistry::StoredCheck noCluster =
            [&asked](const OAuth::Client &stored) -> std::optional<Core::Error> {
            ++asked;
            if (stored.clusterAccess)
                return Core::Error{QStringLiteral("forbidden"),
                                   QStringLiteral("may not change a client allowed to act for the "
                                                  "cluster"),
                                   403};
            return std::nullopt;
        };
        auto changed = *before;
        changed.clientName = QStringLiteral("renamed");
        const auto update = sync([&](auto cb) {
            m_clients->update(id, changed, cb, OAuth::ClientRegistry::By::Admin, {}, noCluster);
        });
        QVERIFY(update);
        QCOMPARE(update->httpStatus, 403);
        QCOMPARE(update->message,
                 QStringLiteral("may not change a client allowed to act for the cluster"));
        const auto rotate = sync([&](auto cb) { m_clients->rotateSecret(id, cb, noCluster); });
        QVERIFY(rotate);
        QCOMPARE(rotate->httpStatus, 403);
        const auto removed = sync([&](auto cb) {
            m_clients->remove(id, cb, OAuth::ClientRegistry::By::Admin, {}, noCluster);
        });
        QVERIFY(removed);
        QCOMPARE(removed->httpStatus, 403);
        QCOMPARE(asked, 3);
        // Nothing was written: the name, the secret, the client itself.
        const auto after = m_clients->find(id);
        QVERIFY(after);
        QCOMPARE(after->clientName, QStringLiteral("guarded"));
        QCOMPARE(after->secretHash, before->secretHash);
        QVERIFY(after->clusterAccess);
        // Without the flag the same change goes through.
        QVERIFY(!sync([&](auto cb) { m_clients->setClusterAccess(id, false, cb); }));
        QVERIFY(!sync([&](auto cb) {
            m_clients->update(id, changed, cb, OAuth::ClientRegistry::By::Admin, {}, noCluster);
        }));
        QCOMPARE(m_clients->find(id)->clientName, QStringLiteral("renamed"));
        QVERIFY(!sync([&](auto cb) {
            m_clients->remove(id, cb, OAuth::ClientRegistry::By::Admin, {}, noCluster);
        }));
        QVERIFY(!m_clients->find(id));
    }

    // A grant read the client, then an administrator took a scope from it: in the writer's
    // transaction (where the grant's tokens are stored, OAuthApi::commit) what it would store
    // is held to the client as stored now, so that narrowClientGrants, which found nothing of
    // it to narrow, is not undone. A deleted client gives nothing either.
    void tokensAboutToBeStoredAreHeldToTheClientAsStoredNow()
    {
        registerClient(
            QStringLiteral("narrowed"),
            {{QStringLiteral("grant_types"), QJsonArray{QStringLiteral("client_credentials")}},
             {QStringLiteral("scope"), QStringLiteral("openid email orders:read")}});
        const QString id = idOf(QStringLiteral("narrowed"));
        auto token = [&id](const QString &scope) {
            OAuth::IssuedToken t;
            t.clientId = id;
            t.scope = scope;
            return t;
        };
        // What the writer's transaction finds: the refusal's description, or "" for none.
        auto check = [this](const QList<OAuth::IssuedToken> &tokens) {
            std::promise<QString> found;
            auto future = found.get_future();
            m_writer->submit([&found, tokens](Core::WriteTransaction &tx) -> Core::Result<void> {
                const auto e = OAuth::scopesTakenMeanwhile(tx, tokens);
                found.set_value(e ? e->error + QLatin1Char(' ') + e->description : QString());
                return {};
            });
            return future.get();
        };
        const QList<OAuth::IssuedToken> issued{token(QStringLiteral("openid email")),
                                               token(QStringLiteral("openid orders:read"))};
        QCOMPARE(check(issued), QString());
        auto narrowed = *m_clients->find(id);
        narrowed.scopes = {QStringLiteral("openid"), QStringLiteral("email")};
        std::promise<bool> updated;
        m_clients->update(id, narrowed, [&updated](const auto &r) { updated.set_value(bool(r)); },
                          OAuth::ClientRegistry::By::Admin, {}, {});
        QVERIFY(updated.get_future().get());
        QCOMPARE(check(issued),
                 QStringLiteral("invalid_grant scope 'orders:read' was taken from the client "
                                "while the request was handled; send it again"));
        QCOMPARE(check({token(QStringLiteral("openid email"))}), QString());
        QCOMPARE(check({token(QString())}), QString());
        std::promise<bool> removed;
        m_clients->remove(id, [&removed](const auto &r) { removed.set_value(bool(r)); },
                          OAuth::ClientRegistry::By::Admin, {}, {});
        QVERIFY(removed.get_future().get());
        QCOMPARE(check({token(QStringLiteral("openid"))}),
                 QStringLiteral("invalid_grant the client was deleted while the request was "
                                "handled"));
    }
};

QTEST_GUILESS_MAIN(TestOAuth)

#include "tst_oauth.moc"
