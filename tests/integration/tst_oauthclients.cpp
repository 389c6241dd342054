#include "integration/tst_integration.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"
#include "oauth/assertions.h"
#include "oauth/clientauthenticator.h"
#include "oauth/clientregistry.h"
#include "oauth/oauthstore.h"

#include <QJsonArray>
#include <QMutex>
#include <QThread>
#include <QWaitCondition>
#include <QtTest>

#include <atomic>
#include <memory>
#include <vector>

using namespace Gatehouse;

namespace {

// The client registry over a real SQLite file and its writer, on a manual clock.
struct Registry
{
    Core::ManualClock clock{
        QDateTime::fromString(QStringLiteral("2026-11-21T12:00:00Z"), Qt::ISODate)};
    QTemporaryDir dir;
    std::unique_ptr<Core::Database> db;
    std::unique_ptr<Core::WriteQueue> writer;
    std::unique_ptr<OAuth::ClientRegistry> clients;

    bool open()
    {
        auto opened = Core::Database::open(
            dir.filePath(QStringLiteral("clients.db")),
            Core::Database::coreMigrations() << OAuth::OAuthStore::all(), clock);
        if (!opened) {
            qWarning() << opened.error().message;
            return false;
        }
        db = std::move(*opened);
        writer = std::make_unique<Core::WriteQueue>(*db, QStringLiteral("clients-writer"));
        clients = std::make_unique<OAuth::ClientRegistry>(*db, *writer, clock);
        return true;
    }

    // Runs a registry call whose done callback comes from the writer, and waits for it.
    template <typename T, typename Call> Core::Result<T> wait(Call call)
    {
        std::optional<Core::Result<T>> out;
        QMutex mutex;
        QWaitCondition done;
        call([&](Core::Result<T> r) {
            QMutexLocker lock(&mutex);
            out = std::move(r);
            done.wakeAll();
        });
        QMutexLocker lock(&mutex);
        while (!out)
            done.wait(&mutex);
        return *out;
    }
};

OAuth::Client metadata(const QString &name)
{
    auto c = OAuth::ClientRegistry::fromMetadata(QJsonObject{
        {QStringLiteral("client_name"), name},
        {QStringLiteral("grant_types"), QJsonArray{QStringLiteral("client_credentials")}},
        {QStringLiteral("scope"), QStringLiteral("orders:read")}});
    return *c;
}

} // namespace

void TestOAuthClients::cacheNeverBringsBackAChangedClient()
{
    // Readers on other threads keep the cache busy while the client is renamed, its secret
    // rotated, and at last deleted: once a change has answered, every find() sees it. (The
    // cache was filled by a read that began before a change committed and inserted after the
    // change forgot the entry: a deleted or rotated client came back until the next change.)
    Registry r;
    QVERIFY(r.open());
    auto reg = r.wait<OAuth::ClientRegistry::Registered>(
        [&](auto done) { r.clients->registerClient(metadata(QStringLiteral("v0")), done); });
    QVERIFY2(reg, qPrintable(reg ? QString() : reg.error().message));
    const QString id = reg->client.clientId;

    std::atomic<bool> stop{false};
    std::atomic<int> reads{0};
    std::vector<std::unique_ptr<QThread>> readers;
    for (int i = 0; i < 3; ++i) {
        readers.emplace_back(QThread::create([&] {
            while (!stop.load()) {
                (void)r.clients->find(id);
                reads.fetch_add(1);
            }
        }));
        readers.back()->start();
    }
    int stale = 0;
    QString secretHash = reg->client.secretHash;
    for (int round = 1; round <= 400; ++round) {
        const QString name = QStringLiteral("v%1").arg(round);
        auto updated = r.wait<OAuth::ClientRegistry::Registered>(
            [&](auto done) { r.clients->update(id, metadata(name), done); });
        QVERIFY(updated);
        const auto seen = r.clients->find(id);
        QVERIFY(seen);
        stale += seen->clientName != name;
        if (round % 20 == 0) {
            auto rotated = r.wait<OAuth::ClientRegistry::Registered>(
                [&](auto done) { r.clients->rotateSecret(id, done); });
            QVERIFY(rotated);
            QVERIFY(rotated->client.secretHash != secretHash);
            secretHash = rotated->client.secretHash;
            stale += r.clients->find(id)->secretHash != secretHash;
        }
    }
    auto removed = r.wait<void>([&](auto done) { r.clients->remove(id, done); });
    QVERIFY(removed);
    for (int i = 0; i < 200; ++i)
        stale += r.clients->find(id).has_value();
    stop.store(true);
    for (auto &t : readers)
        t->wait();
    QVERIFY2(reads.load() > 1000, qPrintable(QString::number(reads.load())));
    QCOMPARE(stale, 0);
}

void TestOAuthClients::initialAccessTokenExpiresOnTheClock()
{
    // An initial access token (RFC 7591 §3) lives on the registry's clock: a registration
    // spends it until its lifetime is over and is refused from then on, without waiting.
    using Registered = OAuth::ClientRegistry::Registered;
    Registry r;
    QVERIFY(r.open());
    const qint64 t0 = r.clock.now().toMSecsSinceEpoch();
    auto created = r.wait<OAuth::ClientRegistry::InitialAccessToken>(
        [&](auto done) { r.clients->createInitialAccessToken(60'000, 5, std::nullopt, 0, done); });
    QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
    QCOMPARE(created->createdAt, t0);
    QCOMPARE(created->expiresAt, t0 + 60'000);
    const QString hash = OAuth::ClientRegistry::hashSecret(created->token);

    // A second before its end: a dynamic registration spends it.
    r.clock.advance(59'000);
    const auto usable =
        r.clients->usableInitialAccessToken(hash, r.clock.now().toMSecsSinceEpoch());
    QVERIFY(usable && *usable);
    auto early = r.wait<Registered>([&](auto done) {
        r.clients->registerClient(metadata(QStringLiteral("early")), done, true, hash);
    });
    QVERIFY2(early, qPrintable(early ? QString() : early.error().message));
    QVERIFY(!early->registrationToken.isEmpty());
    QCOMPARE(early->client.createdAt, t0 + 59'000);

    // At its end: invalid_token (401), and no client is made.
    r.clock.advance(1'000);
    auto late = r.wait<Registered>([&](auto done) {
        r.clients->registerClient(metadata(QStringLiteral("late")), done, true, hash);
    });
    QVERIFY(!late);
    QCOMPARE(late.error().code, QStringLiteral("invalid_token"));
    QCOMPARE(late.error().httpStatus, 401);
    QCOMPARE(r.clients->all()->size(), 1);
    const auto tokens = r.clients->initialAccessTokens();
    QVERIFY(tokens);
    QCOMPARE(tokens->size(), 1);
    QCOMPARE(tokens->first().usedCount, 1);
}

void TestOAuthClients::credentialsEndWithTheAdminTokenThatIssuedThem()
{
    // docs/admin-tokens.md: a client secret an expiring admin token issued (registering the
    // client, rotating its secret, through an initial access token it created) stops
    // authenticating the client when that admin token ends; a change that issues nothing keeps
    // the end, a registrant cannot move it, and a secret issued without a bound lifts it.
    using Registered = OAuth::ClientRegistry::Registered;
    Registry r;
    QVERIFY(r.open());
    OAuth::JtiCache jti(*r.db, *r.writer);
    const OAuth::ClientAuthenticator auth(*r.clients, jti, r.clock,
                                          QStringLiteral("https://gatehouse.test"));
    const qint64 t0 = r.clock.now().toMSecsSinceEpoch();
    const qint64 end = t0 + 600'000; // the expiring admin token's end
    auto client = [](const QString &name, qint64 until) {
        OAuth::Client c = *OAuth::ClientRegistry::fromMetadata(QJsonObject{
            {QStringLiteral("client_name"), name},
            {QStringLiteral("grant_types"), QJsonArray{QStringLiteral("client_credentials")}},
            {QStringLiteral("token_endpoint_auth_method"), QStringLiteral("client_secret_post")}});
        c.credentialsUntil = until;
        return c;
    };
    // What the token endpoint's client authentication answers for this id and secret.
    auto refusal = [&](const QString &id, const QString &secret) -> QString {
        Core::HttpRequest req;
        OAuth::Client authenticated;
        const auto e = auth.authenticate(
            req, {{QStringLiteral("client_id"), id}, {QStringLiteral("client_secret"), secret}},
            &authenticated);
        return e ? e->error + QLatin1Char(' ') + e->description : QString();
    };
    auto storedEnd = [&](const QString &id) {
        return r.clients->lookup(id)->value().credentialsUntil;
    };

    // Registered under the bound: the secret's end is in the metadata (RFC 7591, seconds).
    auto a = r.wait<Registered>(
        [&](auto done) { r.clients->registerClient(client(QStringLiteral("a"), end), done); });
    QVERIFY2(a, qPrintable(a ? QString() : a.error().message));
    const QString aId = a->client.clientId;
    QCOMPARE(storedEnd(aId), end);
    QCOMPARE(r.clients->lookup(aId)
                 ->value()
                 .toJson()
                 .value(QStringLiteral("client_secret_expires_at"))
                 .toInteger(),
             end / 1000);
    QCOMPARE(refusal(aId, a->secret), QString());
    // A change that issues nothing (a rename, by the root token or by a longer bound) keeps it;
    // so does a rotation under a later bound (the earlier end holds).
    QVERIFY(r.wait<Registered>(
        [&](auto done) { r.clients->update(aId, client(QStringLiteral("a2"), 0), done); }));
    QCOMPARE(storedEnd(aId), end);
    auto aRotated = r.wait<Registered>(
        [&](auto done) { r.clients->rotateSecret(aId, done, {}, end + 86'400'000); });
    QVERIFY(aRotated);
    QCOMPARE(aRotated->client.credentialsUntil, end);
    QCOMPARE(storedEnd(aId), end);
    QCOMPARE(r.clients->lookup(aId)->value().clientName, QStringLiteral("a2"));

    // The root token's client: no end, until a rotation under a bound gives it one, and the
    // root token's rotation (a new secret, its only credential) takes it away again.
    auto b = r.wait<Registered>(
        [&](auto done) { r.clients->registerClient(client(QStringLiteral("b"), 0), done); });
    QVERIFY(b);
    const QString bId = b->client.clientId;
    QCOMPARE(storedEnd(bId), 0);
    QVERIFY(r.wait<Registered>([&](auto done) { r.clients->rotateSecret(bId, done, {}, end); }));
    QCOMPARE(storedEnd(bId), end);
    auto bLifted =
        r.wait<Registered>([&](auto done) { r.clients->rotateSecret(bId, done, {}, 0); });
    QVERIFY(bLifted);
    QCOMPARE(storedEnd(bId), 0);

    // An initial access token made under the bound expires by then, and what registers with it
    // ends then; its registrant's own change cannot lift it.
    auto iat = r.wait<OAuth::ClientRegistry::InitialAccessToken>([&](auto done) {
        r.clients->createInitialAccessToken(86'400'000, 5, std::nullopt, end, done);
    });
    QVERIFY(iat);
    QCOMPARE(iat->expiresAt, end);
    QCOMPARE(r.clients->initialAccessTokens()->first().credentialsUntil, end);
    auto c = r.wait<Registered>([&](auto done) {
        r.clients->registerClient(client(QStringLiteral("c"), 0), done, true,
                                  OAuth::ClientRegistry::hashSecret(iat->token));
    });
    QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
    const QString cId = c->client.clientId;
    QCOMPARE(c->client.credentialsUntil, end);
    QCOMPARE(storedEnd(cId), end);
    QVERIFY(r.wait<Registered>([&](auto done) {
        r.clients->update(cId, client(QStringLiteral("c2"), 0), done,
                          OAuth::ClientRegistry::By::Registrant, c->registrationToken);
    }));
    QCOMPARE(storedEnd(cId), end);
    QCOMPARE(r.clients->lookup(cId)->value().clientName, QStringLiteral("c2"));

    // A second before the end every secret still works; at the end the bounded ones are
    // refused with the reason, and only to whoever holds them.
    r.clock.advance(599'000);
    QCOMPARE(refusal(aId, aRotated->secret), QString());
    QCOMPARE(refusal(cId, c->secret), QString());
    r.clock.advance(1'000);
    const QString ended = QStringLiteral(
        "invalid_client this client's credentials ended at 2026-11-21T12:10:00.000Z, with the "
        "admin token that issued them: an administrator can issue new ones (rotate-secret)");
    QCOMPARE(refusal(aId, aRotated->secret), ended);
    QCOMPARE(refusal(cId, c->secret), ended);
    QCOMPARE(refusal(aId, QStringLiteral("wrong")),
             QStringLiteral("invalid_client unknown client or wrong credentials"));
    QCOMPARE(refusal(bId, bLifted->secret), QString());
}
