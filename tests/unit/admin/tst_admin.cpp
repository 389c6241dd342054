// Unit tests of backend/admin: the dashboard's per-minute series (what counts, buckets and
// the window, what a scoped admin token may see), the admin areas of its path and event, and
// scoped admin tokens' expiry on the injected clock.
#include "admin/admintokens.h"
#include "admin/statsseries.h"
#include "core/adminproof.h"
#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/writequeue.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <future>
#include <optional>

using namespace Gatehouse;
using Admin::StatsSeries;

namespace {

const QDateTime Start = QDateTime::fromString(QStringLiteral("2026-11-21T10:05:30Z"), Qt::ISODate);

Core::Event makeEvent(const QString &type, const QJsonObject &data, const QDateTime &time)
{
    Core::Event e;
    e.type = type;
    e.setData(data);
    e.time = time;
    return e;
}

QJsonObject cluster(std::initializer_list<int> codes)
{
    QJsonArray requests;
    for (int code : codes)
        requests.append(QJsonObject{{"code", code}, {"verb", "get"}});
    return {{"requests", requests}};
}

Admin::AdminPrincipal scoped(const QStringList &permissions)
{
    Admin::AdminPrincipal p;
    p.name = QStringLiteral("scoped");
    QString error;
    if (!Admin::AdminTokens::parsePermissions(permissions, p, &error))
        qFatal("bad permissions in the test: %s", qPrintable(error));
    return p;
}

// Scoped admin tokens on a database of their own, on a manual clock, with the root principal;
// create() answers through a future (done runs on the writer thread).
struct TokenFixture
{
    QTemporaryDir dir;
    Core::ManualClock clock{Start};
    Core::Result<std::unique_ptr<Core::Database>> db = Core::Database::open(
        dir.filePath(QStringLiteral("admin.db")),
        Core::Database::coreMigrations()
            << Admin::AdminTokens::migration() << Admin::AdminTokens::proofKeyMigration(),
        clock);
    std::optional<Core::WriteQueue> writer;
    std::optional<Admin::AdminTokens> tokens;
    Admin::AdminPrincipal root;

    bool open()
    {
        if (!db)
            return false;
        writer.emplace(**db, QStringLiteral("admin-writer"));
        tokens.emplace(**db, *writer, clock, QStringLiteral("the-root-token"));
        root.root = true;
        root.name = QStringLiteral("root");
        return tokens->load().ok();
    }

    std::future<Core::Result<Admin::AdminTokens::Created>> create(const Admin::AdminPrincipal &by,
                                                                  const QString &name,
                                                                  const QStringList &permissions,
                                                                  qint64 expiresInMs = 0)
    {
        auto promise = std::make_shared<std::promise<Core::Result<Admin::AdminTokens::Created>>>();
        auto future = promise->get_future();
        tokens->create(by, name, permissions, expiresInMs, by.name,
                       [promise](Core::Result<Admin::AdminTokens::Created> r) {
                           promise->set_value(std::move(r));
                       });
        return future;
    }
};

} // namespace

class TestAdmin : public QObject
{
    Q_OBJECT

private slots:
    // /admin-proof's token proof (GET /admin-proof?nonce&token=ID): keyed with the token's
    // proof key, kept apart from the stored hash (a reader of the database has the hash, and
    // with a hash-keyed proof could prove to the CLI and be sent the token), for scoped tokens
    // and the root token; a token made before proof keys were kept says it cannot prove; an
    // unknown id, or an expired token, is not found.
    void tokenProofsAreKeyedWithTheProofKey()
    {
        TokenFixture f;
        QVERIFY(f.open());
        const auto made = f.create(f.root, QStringLiteral("prover"), {"orders:read"}, 60'000).get();
        QVERIFY(made.ok());
        const QByteArray nonce("AAAAAAAAAAAAAAAAAAAAAA");
        const QString endpoint = QStringLiteral("127.0.0.1:8081");
        const QString id = Core::adminProofTokenId(Core::adminTokenDigest(made->token));
        bool unprovable = true;
        const auto proof = f.tokens->tokenProof(id, nonce, endpoint, &unprovable);
        QVERIFY(proof);
        QVERIFY(!unprovable);
        QCOMPARE(*proof,
                 Core::adminTokenProof(Core::adminTokenProofKey(made->token), nonce, endpoint));
        QVERIFY(*proof !=
                Core::adminTokenProof(Core::adminTokenDigest(made->token), nonce, endpoint));
        // Read back from the database (another instance, a restart): the same.
        QVERIFY(f.tokens->load());
        QCOMPARE(f.tokens->tokenProof(id, nonce, endpoint, &unprovable), proof);
        const QString root = QStringLiteral("the-root-token");
        QCOMPARE(f.tokens->tokenProof(Core::adminProofTokenId(Core::adminTokenDigest(root)), nonce,
                                      endpoint, &unprovable),
                 Core::adminTokenProof(Core::adminTokenProofKey(root), nonce, endpoint));
        QVERIFY(!f.tokens->tokenProof(QStringLiteral("no-such-token-id-00000"), nonce, endpoint,
                                      &unprovable));
        QVERIFY(!unprovable);
        // Made before schema 41: no proof key, so no proof (and it says why).
        QVERIFY(f.writer->run([](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &q = tx.stmt("UPDATE admin_tokens SET proof_key = NULL");
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "test");
            return {};
        }));
        QVERIFY(f.tokens->load());
        QVERIFY(!f.tokens->tokenProof(id, nonce, endpoint, &unprovable));
        QVERIFY(unprovable);
        QVERIFY(f.tokens->authenticate(made->token)); // it still authenticates
        // Expired: not found.
        f.clock.advance(61'000);
        QVERIFY(!f.tokens->tokenProof(id, nonce, endpoint, &unprovable));
        QVERIFY(!unprovable);
    }

    void countsEvents_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QJsonObject>("data");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("grant"); // for tokensByGrant
        QTest::addColumn<int>("expected");

        QTest::newRow("order.created") << "order.created" << QJsonObject{{"id", "o1"}} << "orders"
                                       << "" << 1;
        QTest::newRow("order.status is no new order")
            << "order.status" << QJsonObject{{"status", "ALLOCATED"}} << "orders"
            << "" << 0;
        QTest::newRow("delivery succeeded")
            << "delivery.state" << QJsonObject{{"state", "succeeded"}} << "deliveriesSucceeded"
            << "" << 1;
        QTest::newRow("delivery failed")
            << "delivery.state" << QJsonObject{{"state", "failed"}} << "deliveriesFailed"
            << "" << 1;
        QTest::newRow("delivery pending (a redelivery) is neither")
            << "delivery.state" << QJsonObject{{"state", "pending"}} << "deliveriesSucceeded"
            << "" << 0;
        QTest::newRow("delivery.attempt is not an outcome")
            << "delivery.attempt" << QJsonObject{{"state", "succeeded"}} << "deliveriesSucceeded"
            << "" << 0;
        QTest::newRow("access token by grant")
            << "oauth.token.issued"
            << QJsonObject{{"grantType", "client_credentials"}, {"kind", "access"}}
            << "tokensByGrant"
            << "client_credentials" << 1;
        QTest::newRow("refresh token not counted again")
            << "oauth.token.issued"
            << QJsonObject{{"grantType", "authorization_code"}, {"kind", "refresh"}}
            << "tokensByGrant"
            << "authorization_code" << 0;
        QTest::newRow("no grant type: unknown")
            << "oauth.token.issued" << QJsonObject{{"kind", "access"}} << "tokensByGrant"
            << "unknown" << 1;
        QTest::newRow("cluster counts win over the capped batch")
            << "cluster.requests"
            << QJsonObject{{"requests", cluster({200}).value("requests")},
                           {"allowed", 150},
                           {"denied", 7}}
            << "clusterAllowed"
            << "" << 150;
        QTest::newRow("cluster denied from counts")
            << "cluster.requests"
            << QJsonObject{{"requests", cluster({403}).value("requests")},
                           {"allowed", 0},
                           {"denied", 7}}
            << "clusterDenied"
            << "" << 7;
        QTest::newRow("cluster allowed from the batch (older event)")
            << "cluster.requests" << cluster({200, 201, 403, 404, 304}) << "clusterAllowed"
            << "" << 3;
        QTest::newRow("cluster denied from the batch (older event)")
            << "cluster.requests" << cluster({200, 201, 403, 404, 304}) << "clusterDenied"
            << "" << 2;
        QTest::newRow("the admin API's own reads are not cluster traffic")
            << "cluster.requests"
            << QJsonObject{{"requests",
                            QJsonArray{
                                QJsonObject{
                                    {"code", 200}, {"user", "gatehouse-admin"}, {"method", "GET"}},
                                QJsonObject{{"code", 200},
                                            {"user", "gatehouse-admin"},
                                            {"method", "PATCH"}},
                                QJsonObject{{"code", 200}, {"user", "alice"}, {"method", "GET"}}}},
                           {"allowed", 3},
                           {"denied", 0}}
            << "clusterAllowed"
            << "" << 2;
        QTest::newRow("nor in an older event's batch")
            << "cluster.requests"
            << QJsonObject{{"requests", QJsonArray{QJsonObject{{"code", 200},
                                                               {"user", "gatehouse-admin"},
                                                               {"method", "GET"}},
                                                   QJsonObject{{"code", 403},
                                                               {"user", "gatehouse-admin"},
                                                               {"method", "GET"}}}}}
            << "clusterAllowed"
            << "" << 0;
        QTest::newRow("stats are not counted")
            << "stats" << QJsonObject{{"requests", QJsonObject{{"service", 5}}}} << "orders"
            << "" << 0;
    }
    void countsEvents()
    {
        QFETCH(QString, type);
        QFETCH(QJsonObject, data);
        QFETCH(QString, field);
        QFETCH(QString, grant);
        QFETCH(int, expected);
        // The same counts whether the event's data was published as an object or as text.
        for (const bool asText : {false, true}) {
            Core::ManualClock clock(Start);
            StatsSeries series(clock);
            Core::Event e = makeEvent(type, data, clock.now());
            if (asText)
                e.setDataJson(QJsonDocument(data).toJson(QJsonDocument::Compact));
            series.count(e);
            const QJsonObject bucket = series.currentBucket();
            const QJsonObject totals = series.series().value("totals").toObject();
            if (field == QLatin1String("tokensByGrant")) {
                QCOMPARE(bucket.value(field).toObject().value(grant).toInt(), expected);
                QCOMPARE(totals.value(field).toObject().value(grant).toInt(), expected);
            } else {
                QCOMPARE(bucket.value(field).toInt(-1), expected);
                QCOMPARE(totals.value(field).toInt(-1), expected);
            }
        }
    }

    void bucketsByMinuteOldestFirst()
    {
        Core::ManualClock clock(Start); // 10:05:30
        StatsSeries series(clock);
        series.count(makeEvent("order.created", {}, clock.now()));
        series.count(makeEvent("order.created", {}, clock.now().addSecs(29))); // 10:05:59
        clock.advance(40'000);                                                 // 10:06:10
        series.count(makeEvent("order.created", {}, clock.now()));
        series.count(makeEvent("delivery.state", {{"state", "failed"}}, clock.now()));
        clock.advance(3 * 60'000); // 10:09:10; nothing since 10:06

        const QJsonObject s = series.series();
        QCOMPARE(s.value("bucketSeconds").toInt(), 60);
        const QJsonArray buckets = s.value("buckets").toArray();
        QCOMPARE(buckets.size(), 60);
        QCOMPARE(buckets.last().toObject().value("start").toString(),
                 QStringLiteral("2026-11-21T10:09:00Z"));
        QCOMPARE(buckets.first().toObject().value("start").toString(),
                 QStringLiteral("2026-11-21T09:10:00Z"));
        const QJsonObject at0605 = buckets.at(55).toObject();
        const QJsonObject at0606 = buckets.at(56).toObject();
        QCOMPARE(at0605.value("start").toString(), QStringLiteral("2026-11-21T10:05:00Z"));
        QCOMPARE(at0605.value("orders").toInt(), 2);
        QCOMPARE(at0606.value("orders").toInt(), 1);
        QCOMPARE(at0606.value("deliveriesFailed").toInt(), 1);
        QCOMPARE(buckets.last().toObject().value("orders").toInt(), 0);
        QCOMPARE(buckets.last().toObject().value("tokensByGrant").toObject(), QJsonObject());
        const QJsonObject totals = s.value("totals").toObject();
        QCOMPARE(totals.value("orders").toInt(), 3);
        QCOMPARE(totals.value("deliveriesFailed").toInt(), 1);
        QVERIFY(!totals.contains("start"));
        // Every bucket has every field.
        for (const QJsonValue b : buckets)
            QCOMPARE(b.toObject().keys(),
                     (QStringList{"clusterAllowed", "clusterDenied", "deliveriesFailed",
                                  "deliveriesSucceeded", "orders", "start", "tokensByGrant"}));
        QCOMPARE(series.currentBucket().value("start").toString(),
                 QStringLiteral("2026-11-21T10:09:00Z"));
    }

    void aMinuteCountedInAfterItsLastPublicationIsPublishedAgain()
    {
        Core::ManualClock clock(Start); // 10:05:30
        StatsSeries series(clock);
        const auto ordersOf = [](const QList<QJsonObject> &changes) {
            QStringList out;
            for (const QJsonObject &b : changes)
                out.append(QStringLiteral("%1=%2").arg(b.value("start").toString().mid(11, 5),
                                                       QString::number(b.value("orders").toInt())));
            return out;
        };
        // The first call answers the current minute, even empty; then only changes.
        QCOMPARE(ordersOf(series.takeChanges()), QStringList{"10:05=0"});
        series.count(makeEvent("order.created", {}, clock.now()));
        QCOMPARE(ordersOf(series.takeChanges()), QStringList{"10:05=1"});
        QCOMPARE(ordersOf(series.takeChanges()), QStringList());
        // An order in the minute's last moment, after its last publication (10:05:59.6): the
        // next publication, in the new minute, carries 10:05's final numbers before 10:06.
        clock.set(Start.addMSecs(29'600));
        series.count(makeEvent("order.created", {}, clock.now()));
        clock.advance(1'000); // 10:06:00.6
        QCOMPARE(ordersOf(series.takeChanges()), (QStringList{"10:05=2", "10:06=0"}));
        // A minute that did not change after it was published is not sent again.
        clock.advance(60'000); // 10:07:00.6
        QCOMPARE(ordersOf(series.takeChanges()), QStringList{"10:07=0"});
        // Minutes skipped (a stalled thread): the one last published, when it changed, and now.
        series.count(makeEvent("order.created", {}, clock.now()));
        clock.advance(5 * 60'000); // 10:12:00.6
        QCOMPARE(ordersOf(series.takeChanges()), (QStringList{"10:07=1", "10:12=0"}));
        // A publisher slower still: stamped 10:11:59.9 (its clock read), counted only after 10:12
        // and 10:13 were published. Any minute of the hour counted in again is sent again.
        clock.advance(60'000); // 10:13:00.6
        QCOMPARE(ordersOf(series.takeChanges()), QStringList{"10:13=0"});
        series.count(makeEvent("order.created", {}, Start.addMSecs(389'900)));
        series.count(makeEvent("order.created", {}, clock.now()));
        QCOMPARE(ordersOf(series.takeChanges()), (QStringList{"10:11=1", "10:13=1"}));
        // Stamped after this publication read the clock (10:14:00.0 against 10:13:59.9): sent
        // once its minute is the current one, not before the minute it follows.
        clock.set(Start.addMSecs(509'900)); // 10:13:59.9
        series.count(makeEvent("order.created", {}, Start.addMSecs(510'000)));
        QCOMPARE(ordersOf(series.takeChanges()), QStringList());
        clock.advance(200); // 10:14:00.1
        QCOMPARE(ordersOf(series.takeChanges()), QStringList{"10:14=1"});
        QCOMPARE(ordersOf(series.takeChanges()), QStringList());
    }

    void windowIsTheLastHour()
    {
        Core::ManualClock clock(Start);
        StatsSeries series(clock);
        series.count(makeEvent("oauth.token.issued",
                               {{"grantType", "password"}, {"kind", "access"}}, clock.now()));
        clock.advance(59 * 60'000); // 11:04:30: 10:05 is the oldest bucket
        QCOMPARE(series.series().value("totals").toObject().value("tokensByGrant").toObject(),
                 (QJsonObject{{"password", 1}}));
        clock.advance(60'000); // 11:05:30: 10:05 has left the window
        QCOMPARE(series.series().value("totals").toObject().value("tokensByGrant").toObject(),
                 QJsonObject());
        // An event from before the window (a slow publisher) is not counted.
        series.count(makeEvent("order.created", {}, Start));
        QCOMPARE(series.series().value("totals").toObject().value("orders").toInt(), 0);
        // Several grants in one minute.
        for (const char *grant : {"client_credentials", "client_credentials", "refresh_token"})
            series.count(makeEvent("oauth.token.issued", {{"grantType", grant}, {"kind", "access"}},
                                   clock.now()));
        QCOMPARE(series.currentBucket().value("tokensByGrant").toObject(),
                 (QJsonObject{{"client_credentials", 2}, {"refresh_token", 1}}));
    }

    void countsWhatTheBusPublishes()
    {
        Core::ManualClock clock(Start);
        Core::EventBus bus(clock);
        StatsSeries series(bus, clock);
        bus.publish("order.created", {{"id", "o1"}});
        // From another thread, as the writer and the dispatcher publish.
        QThread *publisher = QThread::create([&bus] {
            for (int i = 0; i < 50; ++i)
                bus.publish("delivery.state", {{"state", "succeeded"}});
        });
        publisher->start();
        QVERIFY(publisher->wait(10'000));
        delete publisher;
        bus.publish(StatsSeries::eventType(), {{"bucket", series.currentBucket()}});
        const QJsonObject bucket = series.currentBucket();
        QCOMPARE(bucket.value("orders").toInt(), 1);
        QCOMPARE(bucket.value("deliveriesSucceeded").toInt(), 50);
    }

    void scopedTokensSeeOnlyTheirAreas()
    {
        Core::ManualClock clock(Start);
        StatsSeries series(clock);
        series.count(makeEvent("order.created", {}, clock.now()));
        series.count(makeEvent("oauth.token.issued",
                               {{"grantType", "client_credentials"}, {"kind", "access"}},
                               clock.now()));
        series.count(makeEvent("cluster.requests", cluster({200, 403}), clock.now()));

        Admin::AdminPrincipal root;
        root.root = true;
        const QJsonObject all = StatsSeries::forReader(series.series(), root);
        QCOMPARE(all.value("areas").toArray(), (QJsonArray{"orders", "oauth", "cluster"}));
        QCOMPARE(all.value("totals").toObject().value("clusterDenied").toInt(), 1);

        const QJsonObject orders = StatsSeries::forReader(series.series(), scoped({"orders:read"}));
        QCOMPARE(orders.value("areas").toArray(), QJsonArray{"orders"});
        QCOMPARE(orders.value("totals").toObject().keys(),
                 (QStringList{"deliveriesFailed", "deliveriesSucceeded", "orders"}));
        QCOMPARE(orders.value("buckets").toArray().size(), 60);
        for (const QJsonValue b : orders.value("buckets").toArray())
            QCOMPARE(b.toObject().keys(),
                     (QStringList{"deliveriesFailed", "deliveriesSucceeded", "orders", "start"}));

        // Write includes read; the audit and admin areas count nothing here.
        const QJsonObject oauth =
            StatsSeries::forReader(series.series(), scoped({"oauth:write", "audit:read"}));
        QCOMPARE(oauth.value("areas").toArray(), QJsonArray{"oauth"});
        QCOMPARE(oauth.value("totals").toObject().keys(), QStringList{"tokensByGrant"});
        QCOMPARE(oauth.value("totals").toObject().value("tokensByGrant").toObject(),
                 (QJsonObject{{"client_credentials", 1}}));

        // The live event's bucket is filtered the same way.
        const QJsonObject live{{"bucketSeconds", 60}, {"bucket", series.currentBucket()}};
        const QJsonObject forCluster = StatsSeries::forReader(live, scoped({"cluster:read"}));
        QCOMPARE(forCluster.value("bucket").toObject().keys(),
                 (QStringList{"clusterAllowed", "clusterDenied", "start"}));
        QCOMPARE(forCluster.value("bucketSeconds").toInt(), 60);
        const QJsonObject nothing = StatsSeries::forReader(live, scoped({"audit:read"}));
        QCOMPARE(nothing.value("bucket").toObject().keys(), QStringList{"start"});
        QCOMPARE(nothing.value("areas").toArray(), QJsonArray());
    }

    void seriesPathIsForEveryTokenAndEventForEverybody()
    {
        QCOMPARE(Admin::AdminTokens::areaOfPath("/admin/v1/stats/series"), QString());
        QCOMPARE(Admin::AdminTokens::areaOfPath("/admin/v1/stats/other"), QStringLiteral("admin"));
        QCOMPARE(Admin::AdminTokens::areaOfEvent(StatsSeries::eventType()), QString());
        QCOMPARE(Admin::AdminTokens::areaOfEvent("stats"), QString());
        QCOMPARE(Admin::AdminTokens::areaOfEvent("backend.started"), QString());
        QCOMPARE(Admin::AdminTokens::areaOfEvent("order.created"), QStringLiteral("orders"));
        QCOMPARE(Admin::AdminTokens::areaOfEvent("oauth.token.issued"), QStringLiteral("oauth"));
        // A family nobody mapped (a newer instance's, relayed) is for admin readers only.
        QCOMPARE(Admin::AdminTokens::areaOfEvent("backend.secrets"), QStringLiteral("admin"));
        QCOMPARE(Admin::AdminTokens::areaOfEvent("newthing.created"), QStringLiteral("admin"));
        QCOMPARE(StatsSeries::areaOfField("deliveriesFailed"), QStringLiteral("orders"));
        QCOMPARE(StatsSeries::areaOfField("tokensByGrant"), QStringLiteral("oauth"));
        QCOMPARE(StatsSeries::areaOfField("clusterAllowed"), QStringLiteral("cluster"));
        QCOMPARE(StatsSeries::areaOfField("start"), QString());
    }

    void scopedTokenExpiresOnTheClock()
    {
        // A scoped token created with an expiry is accepted until then and refused from then
        // on, by the injected clock: nothing sleeps. The root token never expires.
        TokenFixture f;
        QVERIFY(f.open());
        constexpr qint64 Hour = 3'600'000;
        const auto created =
            f.create(f.root, QStringLiteral("ci-reader"), {QStringLiteral("orders:read")}, Hour)
                .get();
        QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
        QCOMPARE(created->createdAt, Start.toMSecsSinceEpoch());
        QCOMPARE(created->expiresAt, Start.toMSecsSinceEpoch() + Hour);

        f.clock.advance(Hour - 1);
        const auto before = f.tokens->authenticate(created->token);
        QVERIFY(before);
        QCOMPARE(before->name, QStringLiteral("ci-reader"));
        QVERIFY(before->may(QStringLiteral("orders"), false));

        f.clock.advance(1); // its expiry: refused
        QVERIFY(!f.tokens->authenticate(created->token));
        f.clock.advance(365LL * 24 * Hour);
        QVERIFY(!f.tokens->authenticate(created->token));
        QVERIFY(f.tokens->authenticate(QStringLiteral("the-root-token")));
    }

    void aTokenRevokedWhileItCreatesLeavesNoChild()
    {
        // Token A asks for a child; A's revocation commits between A's check (in memory, on
        // the request's thread) and the child's insert (in the writer): the child is not
        // stored. Made deterministic by holding the writer while the revocation and then the
        // child's insert are queued behind it.
        TokenFixture f;
        QVERIFY(f.open());
        const QStringList write{QStringLiteral("admin:write")};
        const auto a = f.create(f.root, QStringLiteral("contractor"), write).get();
        QVERIFY(a);
        const auto principal = f.tokens->authenticate(a->token);
        QVERIFY(principal);

        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        f.writer->submit([released](Core::WriteTransaction &) -> Core::Result<void> {
            released.wait();
            return {};
        });
        const QString id = a->principal.id;
        f.writer->submit([id](Core::WriteTransaction &tx) -> Core::Result<void> {
            Core::Statement &d = tx.stmt("DELETE FROM admin_tokens WHERE id = ?");
            if (!d.bind(1, id).exec())
                return Core::WriteTransaction::sqlError(d, "revoke");
            return {};
        });
        auto child = f.create(*principal, QStringLiteral("child"), write);
        release.set_value();
        const auto refused = child.get();
        QVERIFY2(!refused, "a child stored after its creator's revocation");
        QCOMPARE(refused.error().httpStatus, 401);
        QCOMPARE(refused.error().message, QStringLiteral("the admin token that asked was revoked"));
        for (const QJsonValue t : f.tokens->list())
            QVERIFY2(t[QStringLiteral("name")].toString() != QLatin1String("child"),
                     "the refused child is listed");
        // A live scoped token still creates children.
        const auto b = f.create(f.root, QStringLiteral("other contractor"), write).get();
        QVERIFY(b);
        const auto bPrincipal = f.tokens->authenticate(b->token);
        QVERIFY(bPrincipal);
        QVERIFY(f.create(*bPrincipal, QStringLiteral("grandchild"), write).get());
    }

    void aTokenNotLoadedHereIsRevokedOnlyByAHolderOfItsPowers()
    {
        // Rows this instance has not loaded: one another instance made since the last reload
        // (it holds cluster:write), and one a newer version wrote (an area unknown here). A
        // token with admin:write alone revokes neither; one that holds the powers does, and
        // the root token revokes the unknown one.
        TokenFixture f;
        QVERIFY(f.open());
        const auto narrow =
            f.create(f.root, QStringLiteral("narrow"), {QStringLiteral("admin:write")}).get();
        const auto broad =
            f.create(f.root, QStringLiteral("broad"),
                     {QStringLiteral("admin:write"), QStringLiteral("cluster:write")})
                .get();
        QVERIFY(narrow && broad);
        const auto narrowPrincipal = f.tokens->authenticate(narrow->token);
        const auto broadPrincipal = f.tokens->authenticate(broad->token);
        QVERIFY(narrowPrincipal && broadPrincipal);
        const auto insert = [&f](const QString &id, const QString &permissions) {
            auto promise = std::make_shared<std::promise<Core::Result<void>>>();
            auto future = promise->get_future();
            f.writer->submit(
                [id, permissions](Core::WriteTransaction &tx) -> Core::Result<void> {
                    Core::Statement &i = tx.stmt(
                        "INSERT INTO admin_tokens (id, name, hash, permissions, created_at, "
                        "expires_at, created_by) VALUES (?, ?, ?, ?, 0, 0, 'root')");
                    if (!i.bind(1, id).bind(2, id).bind(3, id).bind(4, permissions).exec())
                        return Core::WriteTransaction::sqlError(i, "insert");
                    return {};
                },
                [promise](const Core::Result<void> &r) { promise->set_value(r); });
            return future.get();
        };
        QVERIFY(insert(QStringLiteral("elsewhere"), QStringLiteral("cluster:write")));
        QVERIFY(insert(QStringLiteral("newer"), QStringLiteral("future:write")));
        const auto revoke = [&f](const Admin::AdminPrincipal &by, const QString &id) {
            auto promise = std::make_shared<std::promise<Core::Result<void>>>();
            auto future = promise->get_future();
            f.tokens->revoke(by, id,
                             [promise](const Core::Result<void> &r) { promise->set_value(r); });
            return future.get();
        };
        for (const char *id : {"elsewhere", "newer"}) {
            const auto refused = revoke(*narrowPrincipal, QLatin1String(id));
            QVERIFY2(!refused, id);
            QCOMPARE(refused.error().httpStatus, 403);
        }
        QVERIFY(revoke(*narrowPrincipal, QStringLiteral("newer"))
                    .error()
                    .message.contains(QLatin1String("only the root admin token may")));
        QVERIFY(revoke(*narrowPrincipal, QStringLiteral("elsewhere"))
                    .error()
                    .message.contains(QLatin1String("cluster:write, which it does not hold")));
        QVERIFY(!revoke(*broadPrincipal, QStringLiteral("newer")));
        QVERIFY(revoke(*broadPrincipal, QStringLiteral("elsewhere")));
        QVERIFY(revoke(f.root, QStringLiteral("newer")));
        QCOMPARE(revoke(f.root, QStringLiteral("newer")).error().httpStatus, 404);
    }
};

QTEST_GUILESS_MAIN(TestAdmin)

#include "tst_admin.moc"
