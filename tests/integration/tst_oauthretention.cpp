#include "helpers/testtimeouts.h"
#include "integration/tst_integration.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/instances.h"
#include "core/writequeue.h"
#include "oauth/oauthstore.h"
#include "oauth/tokenretention.h"

#include <QSqlQuery>
#include <QtTest>

using namespace Gatehouse;
using Gatehouse::Test::timeoutMs;

namespace {

constexpr qint64 kDay = 24LL * 3600 * 1000;

// A real SQLite file with the OAuth tables, its writer, and a manual clock at `t`.
struct Store
{
    const QDateTime now =
        QDateTime::fromString(QStringLiteral("2026-11-21T12:00:00Z"), Qt::ISODate);
    const qint64 t = now.toMSecsSinceEpoch();
    Core::ManualClock clock{now};
    QTemporaryDir dir;
    std::unique_ptr<Core::Database> db;
    std::unique_ptr<Core::WriteQueue> writer;

    bool open()
    {
        auto opened =
            Core::Database::open(dir.filePath(QStringLiteral("retention.db")),
                                 Core::Database::coreMigrations()
                                     << OAuth::OAuthStore::all() << Core::Instances::migration(),
                                 clock);
        if (!opened) {
            qWarning() << opened.error().message;
            return false;
        }
        db = std::move(*opened);
        writer = std::make_unique<Core::WriteQueue>(*db, QStringLiteral("retention-writer"));
        return true;
    }

    bool exec(const QString &sql, const QVariantList &values = {})
    {
        auto r = writer->run([&](Core::WriteTransaction &tx) -> Core::Result<void> {
            QSqlQuery &q = tx.query(sql);
            for (const QVariant &v : values)
                q.addBindValue(v);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "seed");
            return {};
        });
        if (!r)
            qWarning() << r.error().message;
        return bool(r);
    }

    // A token row: issued and expiring at the given times, optionally from a code.
    bool token(const QString &hash, qint64 issuedAt, qint64 expiresAt, const QString &code = {})
    {
        return exec(QStringLiteral("INSERT INTO oauth_tokens (hash, kind, format, client_id, "
                                   "subject, scope, audience, issued_at, expires_at, code_hash) "
                                   "VALUES (?, 'access', 'opaque', 'c', 'c', '', '', ?, ?, ?)"),
                    {hash, issuedAt, expiresAt,
                     code.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : code});
    }

    QStringList column(const QString &sql) const
    {
        QStringList out;
        QSqlQuery q(db->connection());
        if (q.exec(sql))
            while (q.next())
                out.append(q.value(0).toString());
        out.sort();
        return out;
    }
};

// Runs one pass to its end on this thread's event loop.
std::optional<OAuth::TokenRetention::Pruned> runPass(OAuth::TokenRetention &retention)
{
    std::optional<Core::Result<OAuth::TokenRetention::Pruned>> result;
    retention.prune([&](const Core::Result<OAuth::TokenRetention::Pruned> &r) { result = r; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, timeoutMs()))
        return std::nullopt;
    if (!*result) {
        qWarning() << result->error().message;
        return std::nullopt;
    }
    return **result;
}

} // namespace

void TestOAuthRetention::tokensGoTheirDaysAfterTheyExpired()
{
    Store s;
    QVERIFY(s.open());
    const qint64 t = s.t;
    Core::ManualClock &clock = s.clock;
    // Issue order (rowid) as the token endpoint writes them: oldest first.
    QVERIFY(s.token(QStringLiteral("expired-40d"), t - 41 * kDay, t - 40 * kDay));
    QVERIFY(s.token(QStringLiteral("long-lived"), t - 40 * kDay, t + 10 * kDay)); // not expired
    QVERIFY(s.token(QStringLiteral("from-old-code"), t - 39 * kDay, t - 38 * kDay,
                    QStringLiteral("code-a")));
    QVERIFY(s.token(QStringLiteral("expired-31d"), t - 32 * kDay, t - 31 * kDay));
    QVERIFY(s.token(QStringLiteral("kept-code-token"), t - 31 * kDay, t - 29 * kDay,
                    QStringLiteral("code-b")));
    QVERIFY(s.token(QStringLiteral("expired-29d"), t - 30 * kDay, t - 29 * kDay));
    QVERIFY(s.token(QStringLiteral("expired-1d"), t - 2 * kDay, t - 1 * kDay));
    QVERIFY(s.token(QStringLiteral("active"), t - 1000, t + 3600 * 1000));
    // A row issued after the cutoff yet expired long before it (a clock set back): the pass
    // stops at the first row issued after the cutoff (expired-29d) and never reads it.
    QVERIFY(s.token(QStringLiteral("after-cutoff"), t - 1 * kDay, t - 90 * kDay));

    const QString code = QStringLiteral(
        "INSERT INTO oauth_codes (hash, client_id, user_id, scope, auth_time, issued_at, "
        "expires_at) VALUES (?, 'c', 'u', '', 0, ?, ?)");
    QVERIFY(s.exec(code, {QStringLiteral("code-a"), t - 39 * kDay, t - 39 * kDay + 60'000}));
    QVERIFY(s.exec(code, {QStringLiteral("code-b"), t - 31 * kDay, t - 31 * kDay + 60'000}));
    QVERIFY(s.exec(code, {QStringLiteral("code-unused"), t - 35 * kDay, t - 35 * kDay + 60'000}));
    QVERIFY(s.exec(code, {QStringLiteral("code-recent"), t - 1000, t + 59'000}));
    const QString device = QStringLiteral(
        "INSERT INTO oauth_device_codes (hash, user_code, client_id, scope, status, issued_at, "
        "expires_at, interval_s) VALUES (?, ?, 'c', '', 'pending', ?, ?, 5)");
    QVERIFY(s.exec(device, {QStringLiteral("device-old"), QStringLiteral("AAAA"), t - 40 * kDay,
                            t - 40 * kDay + 600'000}));
    QVERIFY(s.exec(
        device, {QStringLiteral("device-recent"), QStringLiteral("BBBB"), t - 1000, t + 599'000}));
    // Never redeemed and expired more than an hour ago: gone now, not 30 days later; within
    // the hour (a device still polling is told expired_token), or redeemed: kept.
    QVERIFY(s.exec(device, {QStringLiteral("device-unused-2h"), QStringLiteral("CCCC"),
                            t - 2 * 3600'000 - 600'000, t - 2 * 3600'000}));
    QVERIFY(s.exec(device, {QStringLiteral("device-unused-30m"), QStringLiteral("DDDD"),
                            t - 1800'000 - 600'000, t - 1800'000}));
    QVERIFY(s.exec(device, {QStringLiteral("device-used-2h"), QStringLiteral("EEEE"),
                            t - 2 * 3600'000 - 600'000, t - 2 * 3600'000}));
    QVERIFY(s.exec(QStringLiteral("UPDATE oauth_device_codes SET status = 'used' WHERE hash = ?"),
                   {QStringLiteral("device-used-2h")}));

    // Chunks of 2 rows: the pass is a chain of writer jobs.
    OAuth::TokenRetention retention(*s.writer, clock, 30, 2);
    const auto pruned = runPass(retention);
    QVERIFY(pruned);
    QCOMPARE(pruned->tokens, 3);      // expired-40d, from-old-code, expired-31d
    QCOMPARE(pruned->codes, 2);       // code-a (its token went in this pass), code-unused
    QCOMPARE(pruned->deviceCodes, 2); // device-old, device-unused-2h
    QVERIFY(!retention.running());
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_tokens")),
             (QStringList{QStringLiteral("active"), QStringLiteral("after-cutoff"),
                          QStringLiteral("expired-1d"), QStringLiteral("expired-29d"),
                          QStringLiteral("kept-code-token"), QStringLiteral("long-lived")}));
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_codes")),
             (QStringList{QStringLiteral("code-b"), QStringLiteral("code-recent")}));
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_device_codes")),
             (QStringList{QStringLiteral("device-recent"), QStringLiteral("device-unused-30m"),
                          QStringLiteral("device-used-2h")}));

    // A second pass finds nothing more; two days later expired-29d and kept-code-token go,
    // and code-b with its last token.
    QCOMPARE(runPass(retention)->tokens, 0);
    clock.advance(2 * kDay);
    const auto later = runPass(retention);
    QVERIFY(later);
    QCOMPARE(later->tokens, 2);
    QCOMPARE(later->codes, 1);
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_codes")),
             QStringList{QStringLiteral("code-recent")});

    // 0 days keeps everything.
    clock.advance(1000 * kDay);
    OAuth::TokenRetention keepAll(*s.writer, clock, 0, 2);
    const auto none = runPass(keepAll);
    QVERIFY(none);
    QCOMPARE(none->tokens + none->codes + none->deviceCodes, 0);
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_tokens")).size(), 4);
    s.writer->stop();
}

// A call while a pass runs joins it: both callers hear of the one pass. Destroying the
// retention with a writer job in flight is safe (the job's callback finds no owner).
void TestOAuthRetention::concurrentCallsJoinOnePass()
{
    Store s;
    QVERIFY(s.open());
    const qint64 t = s.t;
    Core::ManualClock &clock = s.clock;
    for (int i = 0; i < 50; ++i)
        QVERIFY(s.token(QStringLiteral("old-%1").arg(i), t - 60 * kDay + i, t - 50 * kDay));
    OAuth::TokenRetention retention(*s.writer, clock, 30, 7);
    int calls = 0;
    int total = 0;
    auto done = [&](const Core::Result<OAuth::TokenRetention::Pruned> &r) {
        ++calls;
        total += r ? r->tokens : -1000;
    };
    retention.prune(done);
    QVERIFY(retention.running());
    retention.prune(done);
    QVERIFY(QTest::qWaitFor([&] { return calls == 2; }, timeoutMs()));
    QCOMPARE(total, 100); // both saw the pass that removed the 50
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_tokens")).size(), 0);

    for (int i = 0; i < 50; ++i)
        QVERIFY(s.token(QStringLiteral("again-%1").arg(i), t - 60 * kDay + i, t - 50 * kDay));
    {
        OAuth::TokenRetention shortLived(*s.writer, clock, 30, 1);
        shortLived.prune();
    } // destroyed with its first job queued
    QVERIFY(s.writer->run([](Core::WriteTransaction &) { return Core::Result<void>(); }));
    QCoreApplication::processEvents();
    QCOMPARE(s.column(QStringLiteral("SELECT hash FROM oauth_tokens")).size(), 49);
    s.writer->stop();
}

// Instances of one database (Core::Instances, docs/storage.md "Instances and the lead"): one
// leads at a time, and only it runs the scheduled passes. The lead passes on when its holder
// stops, and a lead time after the last heartbeat of one that died; the list shows who is alive.
void TestOAuthRetention::onlyTheInstanceThatLeadsPrunesOnSchedule()
{
    Store s;
    QVERIFY(s.open());
    const qint64 t = s.t;
    QVERIFY(s.token(QStringLiteral("expired-40d"), t - 41 * kDay, t - 40 * kDay));
    const auto tokens = [&] { return s.column(QStringLiteral("SELECT hash FROM oauth_tokens")); };
    constexpr qint64 kBeat = 50; // ms of real time between heartbeats here
    auto first = std::make_unique<Core::Instances>(
        *s.db, *s.writer, s.clock,
        Core::Instances::Self{QStringLiteral("host-a/1/aaaa"), QStringLiteral("1.0"), t}, kBeat);
    auto second = std::make_unique<Core::Instances>(
        *s.db, *s.writer, s.clock,
        Core::Instances::Self{QStringLiteral("host-b/2/bbbb"), QStringLiteral("1.0"), t}, kBeat);
    QVERIFY(first->start());
    QVERIFY(second->start());
    QVERIFY(first->leads());
    QVERIFY(!second->leads());
    first->setListeners(QJsonObject{{QStringLiteral("admin"), QStringLiteral("https://a:1")}});

    // The one that does not lead runs no pass at start (nor every hour).
    OAuth::TokenRetention follower(*s.writer, s.clock, 30, 2);
    follower.setScheduled([&] { return second->leads(); });
    follower.start();
    QTest::qWait(200);
    QVERIFY(!follower.running());
    QCOMPARE(tokens(), QStringList{QStringLiteral("expired-40d")});
    // The one that leads does.
    OAuth::TokenRetention leader(*s.writer, s.clock, 30, 2);
    leader.setScheduled([&] { return first->leads(); });
    leader.start();
    QTRY_COMPARE_WITH_TIMEOUT(tokens(), QStringList(), timeoutMs());

    // Both listed, alive; the lead and the listeners as written.
    const auto listenersOfFirst = [&] {
        for (const QJsonValue v : second->list())
            if (v.toObject().value(QStringLiteral("id")).toString() == first->id())
                return v.toObject().value(QStringLiteral("listeners")).toObject();
        return QJsonObject();
    };
    QTRY_COMPARE_WITH_TIMEOUT(
        listenersOfFirst(), (QJsonObject{{QStringLiteral("admin"), QStringLiteral("https://a:1")}}),
        timeoutMs());
    QJsonArray listed = second->list();
    QCOMPARE(listed.size(), 2);
    for (const QJsonValue v : listed) {
        const QJsonObject i = v.toObject();
        const bool isFirst = i.value(QStringLiteral("id")).toString() == first->id();
        QCOMPARE(i.value(QStringLiteral("alive")).toBool(), true);
        QCOMPARE(i.value(QStringLiteral("leads")).toBool(), isFirst);
        QCOMPARE(i.value(QStringLiteral("self")).toBool(), !isFirst);
        QCOMPARE(i.value(QStringLiteral("version")).toString(), QStringLiteral("1.0"));
    }

    // The leader stops: its row goes, and the other leads at its next heartbeat.
    first->stop();
    QVERIFY(!first->leads());
    first.reset();
    QTRY_VERIFY_WITH_TIMEOUT(second->leads(), timeoutMs());
    QCOMPARE(second->list().size(), 1);

    // The new leader dies (no stop: its row and its lead stay). A third does not lead while
    // the dead one's lead runs, and leads once it expired; the dead one is then listed as gone.
    second.reset();
    auto third = std::make_unique<Core::Instances>(
        *s.db, *s.writer, s.clock,
        Core::Instances::Self{QStringLiteral("host-c/3/cccc"), QStringLiteral("1.1"), t}, kBeat);
    QVERIFY(third->start());
    QVERIFY(!third->leads());
    s.clock.advance(Core::Instances::kLeadMs - 1000);
    QTest::qWait(int(4 * kBeat));
    QVERIFY(!third->leads()); // kLeadMs after the dead one's last heartbeat: not yet
    s.clock.advance(2000);
    QTRY_VERIFY_WITH_TIMEOUT(third->leads(), timeoutMs());
    listed = third->list();
    QCOMPARE(listed.size(), 2);
    QCOMPARE(listed.at(0).toObject().value(QStringLiteral("id")).toString(),
             QStringLiteral("host-c/3/cccc"));
    QCOMPARE(listed.at(0).toObject().value(QStringLiteral("alive")).toBool(), true);
    QCOMPARE(listed.at(0).toObject().value(QStringLiteral("leads")).toBool(), true);
    QCOMPARE(listed.at(1).toObject().value(QStringLiteral("alive")).toBool(), false);
    QCOMPARE(listed.at(1).toObject().value(QStringLiteral("leads")).toBool(), false);
    // Rows of instances gone for long are removed by the one that leads.
    s.clock.advance(Core::Instances::kForgetMs);
    QTRY_COMPARE_WITH_TIMEOUT(third->list().size(), 1, timeoutMs());
    // An instance that holds the database alone (a restart after a kill -9: the lead still
    // held is a dead process's) leads at once.
    third.reset();
    Core::Instances restarted(
        *s.db, *s.writer, s.clock,
        Core::Instances::Self{QStringLiteral("host-c/4/dddd"), QStringLiteral("1.1"), t}, kBeat);
    QVERIFY(restarted.start(true));
    QVERIFY(restarted.leads());
    restarted.stop();
    s.writer->stop();
}
