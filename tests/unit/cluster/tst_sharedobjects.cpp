// The cluster's objects shared by several instances on one PostgreSQL database
// (backend/cluster/objectstore.*, shared; docs/storage.md "Cluster objects across instances"):
// instances in one process, each with its own connections, cluster writer, change feed and
// watch hub, on a database of the test server. Writes from both never lose one another's,
// revisions are one sequence, each instance's watchers see the other's changes in order, what
// is read is only what committed, and an instance that cannot follow (its log pruned) reads
// everything anew and ends its watches with 410.
#include "capturedstream.h"
#include "cluster/objectstore.h"
#include "cluster/status.h"
#include "cluster/watch.h"

#include "core/changefeed.h"
#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"

#include <QJsonDocument>
#include <QMutex>
#include <QProcess>
#include <QThread>
#include <QtTest>

#include <memory>

using namespace Gatehouse;
using namespace Gatehouse::Cluster;

namespace {

qint64 storedRevision(const QJsonObject &object)
{
    return object[QStringLiteral("metadata")][QStringLiteral("resourceVersion")]
        .toString()
        .toLongLong();
}

QString labelOf(const std::optional<QJsonObject> &node, const QString &key)
{
    return node ? (*node)[QStringLiteral("metadata")][QStringLiteral("labels")][key].toString()
                : QString();
}

QJsonObject nodeNamed(const QString &name, const QJsonObject &labels)
{
    return QJsonObject{
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}}};
}

// One instance of the database as the backend makes it on PostgreSQL.
struct SharedInstance
{
    std::unique_ptr<Core::Database> db;
    std::unique_ptr<Core::WriteQueue> writer;
    std::unique_ptr<ObjectStore> store;
    std::unique_ptr<WatchHub> hub;
    std::unique_ptr<Core::ChangeFeed> feed;

    SharedInstance(const QString &url, const Core::Clock &clock, const QString &name)
    {
        auto opened = Core::Database::open(url,
                                           Core::Database::coreMigrations()
                                               << ObjectStore::migration()
                                               << Core::Database::changeFeedMigration()
                                               << ObjectStore::changeLogMigration(),
                                           clock);
        if (!opened) {
            qWarning() << opened.error().message;
            return;
        }
        db = std::move(*opened);
        writer = std::make_unique<Core::WriteQueue>(*db, name, 1); // as the backend's
        store = std::make_unique<ObjectStore>(*writer);
        store->setShared(true);
        if (auto r = store->load(*db); !r) {
            qWarning() << r.error().message;
            store.reset();
            return;
        }
        hub = std::make_unique<WatchHub>(*store);
        feed = std::make_unique<Core::ChangeFeed>(*db);
        ObjectStore *s = store.get();
        feed->subscribe(QStringLiteral("cluster_state"), [s](const QString &) { s->sync(); });
        if (auto r = feed->start(); !r) {
            qWarning() << r.error().message;
            store.reset();
        }
    }
    ~SharedInstance()
    {
        feed.reset();
        if (writer)
            writer->stop();
        hub.reset();
        store.reset();
        writer.reset();
    }
    bool ok() const { return store != nullptr; }

    // Sets label `key` of node `name` to what `next` makes of its value now (empty: none):
    // computed on the objects as the write finds them. Returns the revision, or -1.
    qint64 update(const QString &name, const QString &key,
                  const std::function<QString(const QString &)> &next)
    {
        ObjectStore *s = store.get();
        const auto outcome = store->commitAndWait([s, name, key, next]() -> ObjectStore::Outcome {
            const std::optional<QJsonObject> now = s->get(QStringLiteral("nodes"), QString(), name);
            QJsonObject labels =
                now ? (*now)[QStringLiteral("metadata")][QStringLiteral("labels")].toObject()
                    : QJsonObject();
            labels.insert(key, next(labelOf(now, key)));
            return QList<ObjectChange>{
                ObjectChange{now ? ObjectChange::Kind::Modified : ObjectChange::Kind::Added,
                             QStringLiteral("nodes"), QString(), name, nodeNamed(name, labels)}};
        });
        const auto *applied = std::get_if<QList<ObjectChange>>(&outcome);
        return applied && !applied->isEmpty() ? storedRevision(applied->first().object) : -1;
    }

    // Creates node `name` unless it exists (then 409, as a create computes it).
    ObjectStore::Outcome create(const QString &name)
    {
        ObjectStore *s = store.get();
        return store->commitAndWait([s, name]() -> ObjectStore::Outcome {
            if (s->get(QStringLiteral("nodes"), QString(), name))
                return Status::alreadyExists(QString(), QStringLiteral("nodes"), name);
            return QList<ObjectChange>{ObjectChange{ObjectChange::Kind::Added,
                                                    QStringLiteral("nodes"), QString(), name,
                                                    nodeNamed(name, {})}};
        });
    }

    std::unique_ptr<CapturedStream> watch()
    {
        auto stream = std::make_unique<CapturedStream>();
        WatchOptions o;
        o.resource = QStringLiteral("nodes");
        o.since = store->resourceVersion().toLongLong();
        o.timeoutSeconds = 0;
        o.encode = encodeJsonLine;
        hub->start(stream.get(), o);
        return stream;
    }
};

QString createTestDatabase(const QString &prefix)
{
    QString base = qEnvironmentVariable("GATEHOUSE_TEST_POSTGRES");
    if (!base.startsWith(QLatin1String("postgres"))) {
        QFile f(base);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        base = QString::fromUtf8(f.readAll()).trimmed();
    }
    const QString name =
        QStringLiteral("%1_%2").arg(prefix).arg(QCoreApplication::applicationPid());
    QProcess createdb;
    createdb.start(QStringLiteral("createdb"), {QStringLiteral("--maintenance-db"), base, name});
    if (!createdb.waitForFinished(30000) || createdb.exitCode() != 0)
        return {};
    QUrl u(base);
    u.setPath(QLatin1Char('/') + name);
    return u.toString();
}

// As an administrator would, with psql.
bool runSql(const QString &url, const QString &sql)
{
    QProcess psql;
    psql.start(QStringLiteral("psql"),
               {QStringLiteral("-qAt"), QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"),
                url, QStringLiteral("-c"), sql});
    if (!psql.waitForFinished(30000) || psql.exitCode() != 0) {
        qWarning() << psql.readAllStandardError();
        return false;
    }
    return true;
}

} // namespace

class TestSharedObjects : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("GATEHOUSE_TEST_POSTGRES"))
            QSKIP("GATEHOUSE_TEST_POSTGRES is not set (ctest runs this as tst_cluster_postgres)");
    }

    void writesOfTwoInstancesAreOneSequence()
    {
        const QString url = createTestDatabase(QStringLiteral("cluster_shared"));
        QVERIFY(!url.isEmpty());
        Core::SystemClock clock;
        SharedInstance a(url, clock, QStringLiteral("cluster-writer-a"));
        SharedInstance b(url, clock, QStringLiteral("cluster-writer-b"));
        QVERIFY(a.ok() && b.ok());
        auto watchA = a.watch();
        auto watchB = b.watch();

        // 1. Both increment one counter at once, each write computed on what it finds: none
        // is lost, and the revisions of all writes are one sequence without repeats.
        constexpr int kEach = 60;
        QList<qint64> revisions[2];
        auto count = [](SharedInstance *i, QList<qint64> *out) {
            return QThread::create([i, out] {
                for (int n = 0; n < kEach; ++n)
                    out->append(
                        i->update(QStringLiteral("counter"), QStringLiteral("count"),
                                  [](const QString &v) { return QString::number(v.toInt() + 1); }));
            });
        };
        std::unique_ptr<QThread> ta(count(&a, &revisions[0]));
        std::unique_ptr<QThread> tb(count(&b, &revisions[1]));
        ta->start();
        tb->start();
        QVERIFY(ta->wait(120000) && tb->wait(120000));
        QList<qint64> all = revisions[0] + revisions[1];
        std::sort(all.begin(), all.end());
        QCOMPARE(all.size(), 2 * kEach);
        QCOMPARE(all.first(), qint64(1));
        for (int i = 1; i < all.size(); ++i)
            QCOMPARE(all[i], all[i - 1] + 1);
        // Each instance sees the final count (the other's last write announced and read).
        const QString total = QString::number(2 * kEach);
        QTRY_COMPARE(
            labelOf(a.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("counter")),
                    QStringLiteral("count")),
            total);
        QTRY_COMPARE(
            labelOf(b.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("counter")),
                    QStringLiteral("count")),
            total);
        QCOMPARE(a.store->resourceVersion(), QString::number(2 * kEach));
        QTRY_COMPARE(b.store->resourceVersion(), QString::number(2 * kEach));
        // Every watcher saw every change, in revision order, counting up one by one.
        for (CapturedStream *w : {watchA.get(), watchB.get()}) {
            QTRY_COMPARE(w->events.size(), 2 * kEach);
            for (int i = 0; i < w->events.size(); ++i) {
                const QJsonObject o = w->events[i][QStringLiteral("object")].toObject();
                QCOMPARE(storedRevision(o), qint64(i + 1));
                QCOMPARE(
                    o[QStringLiteral("metadata")][QStringLiteral("labels")][QStringLiteral("count")]
                        .toString(),
                    QString::number(i + 1));
                QCOMPARE(w->events[i][QStringLiteral("type")].toString(),
                         i == 0 ? QStringLiteral("ADDED") : QStringLiteral("MODIFIED"));
            }
            QVERIFY(w->open);
        }
        QVERIFY(b.store->followedChanges() > 0);
        QCOMPARE(a.store->reloads() + b.store->reloads(), qint64(0));

        // 2. A create on one instance of what the other just created is refused (the write
        // reads what the other committed before it computes).
        QVERIFY(std::holds_alternative<QList<ObjectChange>>(a.create(QStringLiteral("shared"))));
        const ObjectStore::Outcome again = b.create(QStringLiteral("shared"));
        QVERIFY(std::holds_alternative<Status>(again));
        QCOMPARE(std::get<Status>(again).code, 409);

        // 3. A deletion made on one is seen on the other, as DELETED.
        QTRY_COMPARE(int(watchB->events.size()), 2 * kEach + 1); // the creation, ADDED
        const int before = int(watchB->events.size());
        const auto deleted = a.store->commitAndWait([]() -> ObjectStore::Outcome {
            return QList<ObjectChange>{
                ObjectChange{ObjectChange::Kind::Deleted, QStringLiteral("nodes"), QString(),
                             QStringLiteral("shared"), nodeNamed(QStringLiteral("shared"), {})}};
        });
        QVERIFY(std::holds_alternative<QList<ObjectChange>>(deleted));
        QTRY_VERIFY(!b.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("shared")));
        QTRY_COMPARE(int(watchB->events.size()), before + 1);
        QCOMPARE(watchB->events.last()[QStringLiteral("type")].toString(),
                 QStringLiteral("DELETED"));

        // 4. A third instance started now reads it all, and follows.
        SharedInstance c(url, clock, QStringLiteral("cluster-writer-c"));
        QVERIFY(c.ok());
        QCOMPARE(c.store->resourceVersion(), a.store->resourceVersion());
        QCOMPARE(
            labelOf(c.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("counter")),
                    QStringLiteral("count")),
            total);
        QVERIFY(!c.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("shared")));
        QVERIFY(c.update(QStringLiteral("counter"), QStringLiteral("by"),
                         [](const QString &) { return QStringLiteral("c"); }) > 0);
        QTRY_COMPARE(
            labelOf(a.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("counter")),
                    QStringLiteral("by")),
            QStringLiteral("c"));
    }

    void anInstanceThatCannotFollowReadsEverythingAnew()
    {
        const QString url = createTestDatabase(QStringLiteral("cluster_reload"));
        QVERIFY(!url.isEmpty());
        Core::SystemClock clock;
        SharedInstance a(url, clock, QStringLiteral("cluster-writer-a"));
        SharedInstance b(url, clock, QStringLiteral("cluster-writer-b"));
        QVERIFY(a.ok() && b.ok());
        for (int i = 0; i < 5; ++i)
            QVERIFY(a.update(QStringLiteral("n%1").arg(i), QStringLiteral("step"),
                             [](const QString &) { return QStringLiteral("1"); }) > 0);
        QTRY_COMPARE(b.store->resourceVersion(), QStringLiteral("5"));
        auto watchB = b.watch();

        // 1. The log no longer reaches back to b's revision (pruned while b was behind): b
        // reads every object anew, and its watchers end with 410 Expired.
        b.feed->stop(); // b hears nothing meanwhile
        for (int i = 0; i < 5; ++i)
            QVERIFY(a.update(QStringLiteral("n%1").arg(i), QStringLiteral("step"),
                             [](const QString &) { return QStringLiteral("2"); }) > 0);
        QVERIFY(runSql(url, QStringLiteral("DELETE FROM cluster_changes WHERE revision <= 7")));
        QCOMPARE(b.store->resourceVersion(), QStringLiteral("5"));
        b.store->sync();
        QTRY_COMPARE(b.store->resourceVersion(), QStringLiteral("10"));
        QTRY_COMPARE(b.store->reloads(), qint64(1));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(labelOf(b.store->get(QStringLiteral("nodes"), QString(),
                                          QStringLiteral("n%1").arg(i)),
                             QStringLiteral("step")),
                     QStringLiteral("2"));
        QTRY_VERIFY(!watchB->open);
        QCOMPARE(watchB->events.size(), 1);
        QCOMPARE(watchB->events[0][QStringLiteral("type")].toString(), QStringLiteral("ERROR"));
        QCOMPARE(watchB->events[0][QStringLiteral("object")][QStringLiteral("code")].toInt(), 410);
        // A watch from before the reload is refused; one from now on sees what follows.
        CapturedStream old;
        WatchOptions o;
        o.resource = QStringLiteral("nodes");
        o.since = 6;
        o.timeoutSeconds = 0;
        o.encode = encodeJsonLine;
        b.hub->start(&old, o);
        QTRY_VERIFY(!old.open);
        QCOMPARE(old.events[0][QStringLiteral("object")][QStringLiteral("code")].toInt(), 410);
        auto fresh = b.watch();
        QVERIFY(b.update(QStringLiteral("n0"), QStringLiteral("step"),
                         [](const QString &) { return QStringLiteral("3"); }) == 11);
        QTRY_COMPARE(fresh->events.size(), 1);
        QCOMPARE(storedRevision(fresh->events[0][QStringLiteral("object")].toObject()), qint64(11));
        b.feed = std::make_unique<Core::ChangeFeed>(*b.db); // b listens again
        ObjectStore *bs = b.store.get();
        b.feed->subscribe(QStringLiteral("cluster_state"), [bs](const QString &) { bs->sync(); });
        QVERIFY(b.feed->start().ok());

        // 2. Writes the database refuses (a trigger stands in for any failure) or that take
        // their time: what others read here is only ever what committed.
        QVERIFY(runSql(
            url, QStringLiteral("CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql "
                                "AS $$ BEGIN IF NEW.name = 'poison' THEN RAISE EXCEPTION "
                                "'refused'; END IF; IF NEW.name = 'slow' THEN PERFORM "
                                "pg_sleep(1); END IF; RETURN NEW; END $$")));
        QVERIFY(runSql(url, QStringLiteral("CREATE TRIGGER refuse_poison BEFORE INSERT ON "
                                           "cluster_objects FOR EACH ROW EXECUTE FUNCTION "
                                           "refuse_poison()")));
        QTRY_COMPARE(a.store->resourceVersion(), QStringLiteral("11"));
        auto watchA = a.watch();
        // Three writes queued at once, the refused one between two others: answered in order,
        // the refused one with 500; its revision is the next write's, and no watcher hears of it.
        QList<std::optional<ObjectStore::Outcome>> answers(3);
        int answered = 0;
        QMutex mutex;
        const QStringList names{QStringLiteral("first"), QStringLiteral("poison"),
                                QStringLiteral("second")};
        for (int i = 0; i < 3; ++i) {
            const QString &name = names[i];
            a.store->commit(
                [name]() -> ObjectStore::Outcome {
                    return QList<ObjectChange>{ObjectChange{ObjectChange::Kind::Added,
                                                            QStringLiteral("nodes"), QString(),
                                                            name, nodeNamed(name, {})}};
                },
                [&, i](const ObjectStore::Outcome &o) {
                    QMutexLocker lock(&mutex);
                    answers[i] = o;
                    ++answered;
                });
        }
        QTRY_COMPARE(
            [&] {
                QMutexLocker lock(&mutex);
                return answered;
            }(),
            3);
        QVERIFY(std::holds_alternative<QList<ObjectChange>>(*answers[0]));
        QCOMPARE(std::get<Status>(*answers[1]).code, 500);
        QVERIFY(std::holds_alternative<QList<ObjectChange>>(*answers[2]));
        QCOMPARE(storedRevision(std::get<QList<ObjectChange>>(*answers[0]).first().object), 12);
        QCOMPARE(storedRevision(std::get<QList<ObjectChange>>(*answers[2]).first().object), 13);
        QVERIFY(!a.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("poison")));
        QCOMPARE(a.store->resourceVersion(), QStringLiteral("13"));
        QTRY_COMPARE(watchA->events.size(), 2);
        QCOMPARE(storedRevision(watchA->events[0][QStringLiteral("object")].toObject()), 12);
        QCOMPARE(storedRevision(watchA->events[1][QStringLiteral("object")].toObject()), 13);
        QVERIFY(watchA->open);
        QCOMPARE(a.store->reloads(), qint64(0));
        // A write on its way to the database is not read here until it committed.
        bool slowDone = false;
        a.store->commit(
            []() -> ObjectStore::Outcome {
                return QList<ObjectChange>{
                    ObjectChange{ObjectChange::Kind::Added, QStringLiteral("nodes"), QString(),
                                 QStringLiteral("slow"), nodeNamed(QStringLiteral("slow"), {})}};
            },
            [&](const ObjectStore::Outcome &) {
                QMutexLocker lock(&mutex);
                slowDone = true;
            });
        QTest::qWait(300);
        {
            QMutexLocker lock(&mutex);
            QVERIFY(!slowDone);
        }
        QVERIFY(!a.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("slow")));
        QCOMPARE(a.store->resourceVersion(), QStringLiteral("13"));
        QTRY_VERIFY(a.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("slow")));
        QCOMPARE(a.store->resourceVersion(), QStringLiteral("14"));
        // On the other instance: the same, in the same order, without what was refused.
        QTRY_COMPARE(b.store->resourceVersion(), QStringLiteral("14"));
        for (const char *name : {"first", "second", "slow"})
            QVERIFY(b.store->get(QStringLiteral("nodes"), QString(), QLatin1String(name)));
        QVERIFY(!b.store->get(QStringLiteral("nodes"), QString(), QStringLiteral("poison")));
    }
};

int runSharedObjectTests(int argc, char **argv)
{
    TestSharedObjects t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_sharedobjects.moc"
