// Unit tests of the watch hub (backend/cluster/watch.*) on a real object store (SQLite in a
// temporary directory, the real database writer): events in resourceVersion order, the
// resume window and its 410, and the bound on what a slow watcher may hold. And the core/v1
// Events the access layer records (backend/cluster/events.*): aggregation and expiry. And the
// service-account tokens' tie to their objects on the same store (backend/cluster/tokenauth.*).
#include "capturedstream.h"
#include "cluster/watch.h"

#include "cluster/events.h"
#include "cluster/tokenauth.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/writequeue.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <limits>
#include <memory>

using namespace Gatehouse;
using namespace Gatehouse::Cluster;

namespace {

QString revisionOf(const QJsonObject &event)
{
    return event[QStringLiteral("object")][QStringLiteral("metadata")]
                [QStringLiteral("resourceVersion")]
                    .toString();
}

QJsonObject namespaceObject(const char *name)
{
    return QJsonObject{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QLatin1String(name)}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}}}};
}

struct Fixture
{
    QTemporaryDir dir;
    Core::ManualClock clock{QDateTime::fromSecsSinceEpoch(1'800'000'000, Qt::UTC)};
    std::unique_ptr<Core::Database> db;
    std::unique_ptr<Core::WriteQueue> writer;
    std::unique_ptr<ObjectStore> store;

    bool open()
    {
        auto opened = Core::Database::open(
            dir.filePath(QStringLiteral("cluster.db")),
            Core::Database::coreMigrations() << ObjectStore::migration(), clock);
        if (!opened)
            return false;
        db = std::move(*opened);
        writer = std::make_unique<Core::WriteQueue>(*db, QStringLiteral("watch-writer"));
        store = std::make_unique<ObjectStore>(*writer);
        return store->load(*db).ok();
    }

    // Puts `object` (its metadata names it) into `resource`; false when refused.
    bool putObject(const QString &resource, const QString &ns, const QJsonObject &object)
    {
        const QString name = object[QStringLiteral("metadata")][QStringLiteral("name")].toString();
        const bool exists = store->get(resource, ns, name).has_value();
        ObjectChange c{exists ? ObjectChange::Kind::Modified : ObjectChange::Kind::Added,
                       resource,
                       ns,
                       name,
                       object,
                       {}};
        const auto outcome =
            store->commitAndWait([c]() -> ObjectStore::Outcome { return QList<ObjectChange>{c}; });
        return std::get_if<QList<ObjectChange>>(&outcome) != nullptr;
    }

    // Puts node `name` with label step=`step`; returns its resourceVersion.
    qint64 put(const QString &name, int step, bool deleted = false)
    {
        const QJsonObject node{
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), name},
                         {QStringLiteral("labels"),
                          QJsonObject{{QStringLiteral("step"), QString::number(step)}}}}}};
        const bool exists = store->get(QStringLiteral("nodes"), QString(), name).has_value();
        ObjectChange c{deleted
                           ? ObjectChange::Kind::Deleted
                           : (exists ? ObjectChange::Kind::Modified : ObjectChange::Kind::Added),
                       QStringLiteral("nodes"),
                       QString(),
                       name,
                       node,
                       {}};
        const auto outcome =
            store->commitAndWait([c]() -> ObjectStore::Outcome { return QList<ObjectChange>{c}; });
        const auto *applied = std::get_if<QList<ObjectChange>>(&outcome);
        return applied ? applied->first()
                             .object[QStringLiteral("metadata")][QStringLiteral("resourceVersion")]
                             .toString()
                             .toLongLong()
                       : -1;
    }
};

WatchOptions nodes(std::optional<qint64> since)
{
    WatchOptions o;
    o.resource = QStringLiteral("nodes");
    o.since = since;
    o.timeoutSeconds = 0;
    o.encode = encodeJsonLine;
    return o;
}

} // namespace

class TestWatch : public QObject
{
    Q_OBJECT

private slots:
    void eventsInOrderAndSelectorsTurnIntoAddedAndDeleted()
    {
        Fixture f;
        QVERIFY(f.open());
        const qint64 first = f.put(QStringLiteral("a"), 1);
        WatchHub hub(*f.store);
        CapturedStream stream;
        WatchOptions o = nodes(std::nullopt);
        o.matches = [](const QJsonObject &n) {
            return n[QStringLiteral("metadata")][QStringLiteral("labels")][QStringLiteral("step")]
                       .toString() != QLatin1String("3");
        };
        hub.start(&stream, o);
        QCOMPARE(hub.watcherCount(), 1);
        f.put(QStringLiteral("a"), 2); // MODIFIED
        f.put(QStringLiteral("a"), 3); // leaves the selector: DELETED
        f.put(QStringLiteral("a"), 4); // comes back: ADDED
        f.put(QStringLiteral("a"), 4, true);
        QTRY_COMPARE(stream.events.size(), 5);
        QCOMPARE(stream.types(), (QStringList{QStringLiteral("ADDED"), QStringLiteral("MODIFIED"),
                                              QStringLiteral("DELETED"), QStringLiteral("ADDED"),
                                              QStringLiteral("DELETED")}));
        QCOMPARE(revisionOf(stream.events[0]), QString::number(first));
        // The DELETED for leaving the selector carries the object before, at the new version.
        QCOMPARE(stream
                     .events[2][QStringLiteral("object")][QStringLiteral("metadata")]
                            [QStringLiteral("labels")][QStringLiteral("step")]
                     .toString(),
                 QStringLiteral("2"));
        QCOMPARE(revisionOf(stream.events[2]), QString::number(first + 2));
        for (int i = 1; i < stream.events.size(); ++i)
            QVERIFY(revisionOf(stream.events[i]).toLongLong() >
                    revisionOf(stream.events[i - 1]).toLongLong());
    }

    void resumeInsideTheWindowAnd410Outside()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store, 5);
        QList<qint64> rvs;
        for (int i = 0; i < 10; ++i)
            rvs.append(f.put(QStringLiteral("n%1").arg(i), i));
        // The window holds rvs[5..9]: a resume from rvs[4] on still sees every change.

        CapturedStream inside;
        hub.start(&inside, nodes(rvs[6]));
        QTRY_COMPARE(inside.events.size(), 3);
        QCOMPARE(revisionOf(inside.events[0]), QString::number(rvs[7]));
        QVERIFY(inside.open);

        CapturedStream outside;
        hub.start(&outside, nodes(rvs[2]));
        QTRY_VERIFY(!outside.open);
        QCOMPARE(outside.types(), QStringList{QStringLiteral("ERROR")});
        const QJsonObject status = outside.events[0][QStringLiteral("object")].toObject();
        QCOMPARE(status[QStringLiteral("code")].toInt(), 410);
        QCOMPARE(status[QStringLiteral("reason")].toString(), QStringLiteral("Expired"));
        QCOMPARE(status[QStringLiteral("message")].toString(),
                 QStringLiteral("too old resource version: %1 (%2)").arg(rvs[2]).arg(rvs[4]));
    }

    // The window is bounded by bytes too: a node patching its own Node with a 260 KB annotation
    // 1,600 times held 446 MB in 5,000 changes. Older changes leave it; a resume from them is
    // 410, from the newest still served.
    void theWindowIsBoundedByBytes()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store, 5000, 1000, 1024); // about five small nodes
        QList<qint64> rvs;
        for (int i = 0; i < 20; ++i)
            rvs.append(f.put(QStringLiteral("n%1").arg(i), i));
        CapturedStream recent;
        hub.start(&recent, nodes(rvs[17]));
        QTRY_COMPARE(recent.events.size(), 2);
        QCOMPARE(revisionOf(recent.events[0]), QString::number(rvs[18]));
        QVERIFY(recent.open);
        CapturedStream old;
        hub.start(&old, nodes(rvs[2]));
        QTRY_VERIFY(!old.open);
        QCOMPARE(old.types(), QStringList{QStringLiteral("ERROR")});
        QCOMPARE(old.events[0][QStringLiteral("object")][QStringLiteral("code")].toInt(), 410);
    }

    // A watcher that does not keep up holds at most queueLimit events, then ends with an ERROR.
    void slowWatcherIsClosedWithAnErrorAndHoldsBoundedMemory()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store, 100, 10);
        CapturedStream slow;
        hub.start(&slow, nodes(f.store->resourceVersion().toLongLong()));
        // No event loop runs while the changes come: nothing is written meanwhile.
        for (int i = 0; i < 50; ++i)
            f.put(QStringLiteral("n"), i);
        QVERIFY(slow.events.isEmpty());
        QTRY_VERIFY(!slow.open);
        QCOMPARE(slow.types(), QStringList{QStringLiteral("ERROR")});
        QVERIFY(
            slow.events[0][QStringLiteral("object")][QStringLiteral("message")].toString().contains(
                QStringLiteral("fell behind by more than 10 events")));

        // One that keeps up sees every change.
        CapturedStream fast;
        hub.start(&fast, nodes(f.store->resourceVersion().toLongLong()));
        for (int i = 0; i < 200; ++i) {
            f.put(QStringLiteral("m"), i);
            if (i % 5 == 0)
                QCoreApplication::processEvents();
        }
        QTRY_COMPARE(fast.events.size(), 200);
        QVERIFY(fast.open);
    }

    void eventsAggregateAndExpire()
    {
        Fixture f;
        QVERIFY(f.open());
        QVERIFY(f.putObject(QStringLiteral("namespaces"), QString(), namespaceObject("default")));
        const EventRecord e{QStringLiteral("Warning"), QStringLiteral("AdmissionDenied"),
                            QStringLiteral("no"),
                            QJsonObject{{QStringLiteral("kind"), QStringLiteral("Node")},
                                        {QStringLiteral("name"), QStringLiteral("n1")}}};
        const QDateTime t0 = f.clock.now();
        auto commit = [&f](const ObjectChange &c) {
            return f.store->commitAndWait(
                [c]() -> ObjectStore::Outcome { return QList<ObjectChange>{c}; });
        };
        const ObjectChange first = *eventChange(*f.store, e, t0);
        QCOMPARE(first.kind, ObjectChange::Kind::Added);
        QCOMPARE(first.namespaceName, QStringLiteral("default")); // a cluster-scoped object's
        QVERIFY(first.name.startsWith(QStringLiteral("n1.")));
        QCOMPARE(first.object[QStringLiteral("count")].toInt(), 1);
        QCOMPARE(first.object[QStringLiteral("source")][QStringLiteral("component")].toString(),
                 QStringLiteral("gatehouse"));
        commit(first);

        // The same within ten minutes: the same Event, counted.
        const ObjectChange again = *eventChange(*f.store, e, t0.addSecs(300));
        QCOMPARE(again.kind, ObjectChange::Kind::Modified);
        QCOMPARE(again.name, first.name);
        QCOMPARE(again.object[QStringLiteral("count")].toInt(), 2);
        QCOMPARE(again.object[QStringLiteral("firstTimestamp")],
                 first.object[QStringLiteral("firstTimestamp")]);
        commit(again);

        EventRecord other = e;
        other.message = QStringLiteral("something else");
        QVERIFY(eventChange(*f.store, other, t0)->name != first.name);

        // More than ten minutes after it was last seen: counted from 1 again.
        const ObjectChange late = *eventChange(*f.store, e, t0.addSecs(300 + 601));
        QCOMPARE(late.object[QStringLiteral("count")].toInt(), 1);
        commit(late);

        // Kept for an hour after it was last seen.
        QVERIFY(expiredEvents(*f.store, t0.addSecs(901 + 3600), kEventTtlSeconds).isEmpty());
        const QList<ObjectChange> expired =
            expiredEvents(*f.store, t0.addSecs(901 + 3601), kEventTtlSeconds);
        QCOMPARE(expired.size(), 1);
        QCOMPARE(expired.first().kind, ObjectChange::Kind::Deleted);
        QCOMPARE(expired.first().name, first.name);
    }

    // An Event goes only where NamespaceLifecycle would let one be created: the namespace exists
    // and is not being deleted. Its name stays within 253 characters, and its count, which
    // anyone who may patch events sets, is saturated rather than overflowed.
    void eventsOnlyInLiveNamespacesWithBoundedNamesAndCounts()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto podEvent = [](const QString &ns, const QString &name) {
            return EventRecord{QStringLiteral("Warning"), QStringLiteral("AdmissionDenied"),
                               QStringLiteral("no"),
                               QJsonObject{{QStringLiteral("kind"), QStringLiteral("Pod")},
                                           {QStringLiteral("namespace"), ns},
                                           {QStringLiteral("name"), name}}};
        };
        const QDateTime t0 = f.clock.now();
        QVERIFY(!eventChange(*f.store, podEvent(QStringLiteral("later"), QStringLiteral("p")), t0));
        QJsonObject ending = namespaceObject("ending");
        ending.insert(QStringLiteral("status"),
                      QJsonObject{{QStringLiteral("phase"), QStringLiteral("Terminating")}});
        QVERIFY(f.putObject(QStringLiteral("namespaces"), QString(), ending));
        QVERIFY(
            !eventChange(*f.store, podEvent(QStringLiteral("ending"), QStringLiteral("p")), t0));
        QVERIFY(f.putObject(QStringLiteral("namespaces"), QString(), namespaceObject("team")));
        const QString longName(253, QLatin1Char('a'));
        const std::optional<ObjectChange> c =
            eventChange(*f.store, podEvent(QStringLiteral("team"), longName), t0);
        QVERIFY(c);
        QCOMPARE(c->name.size(), 253);
        QVERIFY(c->name.startsWith(longName.left(236) + QLatin1Char('.')));
        QCOMPARE(c->object[QStringLiteral("involvedObject")][QStringLiteral("name")].toString(),
                 longName);
        QJsonObject counted = c->object;
        counted.insert(QStringLiteral("count"), std::numeric_limits<int>::max());
        QVERIFY(f.putObject(QStringLiteral("events"), QStringLiteral("team"), counted));
        const std::optional<ObjectChange> again =
            eventChange(*f.store, podEvent(QStringLiteral("team"), longName), t0.addSecs(1));
        QVERIFY(again);
        QCOMPARE(again->object[QStringLiteral("count")].toInt(), std::numeric_limits<int>::max());
    }

    // events.k8s.io/v1 is core/v1's Event renamed; a round trip loses nothing, and a member of
    // the other shape does not survive into this one.
    void eventsV1IsCoreRenamed()
    {
        Fixture f;
        QVERIFY(f.open());
        const EventRecord e{QStringLiteral("Normal"), QStringLiteral("LabelsChanged"),
                            QStringLiteral("labels changed"),
                            QJsonObject{{QStringLiteral("kind"), QStringLiteral("Node")},
                                        {QStringLiteral("name"), QStringLiteral("n1")}}};
        QVERIFY(f.putObject(QStringLiteral("namespaces"), QString(), namespaceObject("default")));
        const QJsonObject core = eventChange(*f.store, e, f.clock.now())->object;
        // Recorded with eventTime and action, so that v1 clients (the Python client requires
        // eventTime) read it.
        QVERIFY(core[QStringLiteral("eventTime")].toString().endsWith(QStringLiteral("000Z")));
        QCOMPARE(core[QStringLiteral("action")].toString(), QStringLiteral("UpdateLabels"));
        const QJsonObject v1 = eventsV1FromCore(core);
        QCOMPARE(v1[QStringLiteral("note")].toString(), QStringLiteral("labels changed"));
        QCOMPARE(v1[QStringLiteral("regarding")][QStringLiteral("name")].toString(),
                 QStringLiteral("n1"));
        QCOMPARE(v1[QStringLiteral("reportingController")].toString(), QStringLiteral("gatehouse"));
        QCOMPARE(v1[QStringLiteral("deprecatedCount")].toInt(), 1);
        QCOMPARE(v1[QStringLiteral("deprecatedSource")], core[QStringLiteral("source")]);
        for (const char *gone : {"message", "involvedObject", "reportingComponent", "source",
                                 "count", "firstTimestamp", "lastTimestamp"})
            QVERIFY2(!v1.contains(QLatin1String(gone)), gone);
        QCOMPARE(coreFromEventsV1(v1), core);
        QJsonObject mixed = v1;
        mixed.insert(QStringLiteral("message"), QStringLiteral("smuggled"));
        QCOMPARE(coreFromEventsV1(mixed)[QStringLiteral("message")].toString(),
                 QStringLiteral("labels changed"));
        QCOMPARE(coreEventFieldSelector(
                     QStringLiteral("regarding.name=n1,reportingController=x,type=Normal")),
                 QStringLiteral("involvedObject.name=n1,reportingComponent=x,type=Normal"));
    }

    // 25 at once per object and reason, then one every five minutes.
    void eventSpamFilter()
    {
        EventSpamFilter filter;
        const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1'800'000'000, Qt::UTC);
        EventRecord e{QStringLiteral("Normal"), QStringLiteral("LabelsChanged"), QString(),
                      QJsonObject{{QStringLiteral("kind"), QStringLiteral("Node")},
                                  {QStringLiteral("name"), QStringLiteral("n1")}}};
        int allowed = 0;
        for (int i = 0; i < 100; ++i) {
            e.message = QString::number(i); // every message different: no aggregation helps
            allowed += filter.allow(e, t0) ? 1 : 0;
        }
        QCOMPARE(allowed, EventSpamFilter::kBurst);
        QVERIFY(!filter.allow(e, t0.addSecs(299)));
        QVERIFY(filter.allow(e, t0.addSecs(300)));
        QVERIFY(!filter.allow(e, t0.addSecs(301)));
        // Another reason or another object has its own bucket.
        EventRecord denied = e;
        denied.reason = QStringLiteral("AdmissionDenied");
        QVERIFY(filter.allow(denied, t0));
        EventRecord other = e;
        other.involvedObject[QStringLiteral("name")] = QStringLiteral("n2");
        QVERIFY(filter.allow(other, t0));
    }

    // Watchers of one encoding share each event's bytes: encoded once, not once per watcher.
    void watchersOfOneEncodingShareTheBytes()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store);
        auto calls = std::make_shared<std::atomic<int>>(0);
        WatchOptions o = nodes(f.store->resourceVersion().toLongLong());
        o.encoding = QStringLiteral("json:v1/nodes");
        o.encode = [calls](const WatchEvent &e) {
            ++*calls;
            return encodeJsonLine(e);
        };
        CapturedStream a, b, c;
        hub.start(&a, o);
        hub.start(&b, o);
        WatchOptions own = o;
        own.encoding.clear(); // never shared
        hub.start(&c, own);
        for (int i = 0; i < 10; ++i)
            f.put(QStringLiteral("n"), i);
        QTRY_COMPARE(a.events.size(), 10);
        QTRY_COMPARE(b.events.size(), 10);
        QTRY_COMPARE(c.events.size(), 10);
        QCOMPARE(a.events, b.events);
        QCOMPARE(calls->load(), 20); // 10 for a and b together, 10 for c
    }

    // WatchOptions::recheck: a requester no longer let in ends its stream with the Status,
    // when the hub is told to check (RBAC changed) or at its own periodic check; a watch still
    // allowed, or one without a check, goes on.
    void aRequesterNoLongerLetInEndsWithTheStatus()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store);
        auto allowed = std::make_shared<std::atomic<bool>>(true);
        auto checks = std::make_shared<std::atomic<int>>(0);
        const QJsonObject forbidden{{QStringLiteral("kind"), QStringLiteral("Status")},
                                    {QStringLiteral("reason"), QStringLiteral("Forbidden")},
                                    {QStringLiteral("code"), 403}};
        WatchOptions checked = nodes(f.store->resourceVersion().toLongLong());
        checked.recheckSeconds = 0; // only when the hub asks
        checked.recheck = [allowed, checks, forbidden]() -> std::optional<QJsonObject> {
            ++*checks;
            return allowed->load() ? std::nullopt : std::optional<QJsonObject>(forbidden);
        };
        CapturedStream a, unchecked;
        hub.start(&a, checked);
        hub.start(&unchecked, nodes(f.store->resourceVersion().toLongLong()));
        f.put(QStringLiteral("n"), 1);
        QTRY_COMPARE(a.events.size(), 1);
        // A burst of asks (a namespace's deletion) is one check a little later.
        for (int i = 0; i < 50; ++i)
            hub.recheck();
        QTRY_COMPARE(checks->load(), 1);
        QTest::qWait(300);
        QCOMPARE(checks->load(), 1);
        QVERIFY(a.open); // still allowed
        allowed->store(false);
        hub.recheck();
        QTRY_VERIFY(!a.open);
        QCOMPARE(checks->load(), 2);
        QCOMPARE(a.types(), (QStringList{QStringLiteral("ADDED"), QStringLiteral("ERROR")}));
        QCOMPARE(a.events.last()[QStringLiteral("object")].toObject(), forbidden);
        f.put(QStringLiteral("n"), 2);
        QTRY_COMPARE(unchecked.events.size(), 2);
        QCOMPARE(a.events.size(), 2); // nothing after the end
        hub.recheck();
        QTest::qWait(300);
        QCOMPARE(checks->load(), 2); // an ended watch is not asked again
        QVERIFY(unchecked.open);

        // Its own timer, without the hub asking.
        WatchOptions periodic = checked;
        periodic.recheckSeconds = 1;
        periodic.since = f.store->resourceVersion().toLongLong();
        CapturedStream b;
        hub.start(&b, periodic);
        QTRY_VERIFY_WITH_TIMEOUT(!b.open, 5000);
        QCOMPARE(b.types(), QStringList{QStringLiteral("ERROR")});

        // Ended once: the hub's check and the watch's own timer both refuse it, one ERROR.
        auto refusals = std::make_shared<std::atomic<int>>(0);
        WatchOptions twice = nodes(f.store->resourceVersion().toLongLong());
        twice.recheckSeconds = 1;
        twice.recheck = [forbidden, refusals]() -> std::optional<QJsonObject> {
            ++*refusals;
            return forbidden;
        };
        CapturedStream c;
        hub.start(&c, twice);
        hub.recheck();
        QTRY_VERIFY(!c.open);
        QTest::qWait(1500); // past the watch's own check
        QCOMPARE(refusals->load(), 1);
        QCOMPARE(c.types(), QStringList{QStringLiteral("ERROR")});
    }

    void aClosedStreamLeavesTheHub()
    {
        Fixture f;
        QVERIFY(f.open());
        WatchHub hub(*f.store);
        auto *stream = new CapturedStream;
        hub.start(stream, nodes(std::nullopt));
        QCOMPARE(hub.watcherCount(), 1);
        delete stream; // the connection went away
        QCOMPARE(hub.watcherCount(), 0);
        f.put(QStringLiteral("x"), 1); // nobody to hand it to
    }

    // kube's claims validator: a service account or a bound pod that a finalizer holds after
    // its deletion backs its tokens for 60 s after deletionTimestamp, then no more.
    void serviceAccountTokensEndAMinuteAfterADeletionAFinalizerHolds()
    {
        Fixture f;
        QVERIFY(f.open());
        auto key = ServiceAccountTokens::loadOrCreateKey(f.dir.path());
        QVERIFY(key.ok());
        ServiceAccountTokens tokens(*key, *f.store, f.clock);
        const auto meta = [](const char *name, const char *uid, const QString &deletion) {
            QJsonObject m{
                {QStringLiteral("name"), QString::fromLatin1(name)},
                {QStringLiteral("namespace"), QStringLiteral("t")},
                {QStringLiteral("uid"), QString::fromLatin1(uid)},
                {QStringLiteral("finalizers"), QJsonArray{QStringLiteral("example.com/keep")}}};
            if (!deletion.isEmpty())
                m.insert(QStringLiteral("deletionTimestamp"), deletion);
            return QJsonObject{{QStringLiteral("metadata"), m}};
        };
        const QString sa = QStringLiteral("serviceaccounts");
        QVERIFY(f.putObject(sa, QStringLiteral("t"), meta("bot", "uid-bot", {})));
        QVERIFY(f.putObject(QStringLiteral("pods"), QStringLiteral("t"), meta("p", "uid-p", {})));
        const auto plain = tokens.issue(QStringLiteral("t"), QStringLiteral("bot"),
                                        QStringLiteral("uid-bot"), 3600, {});
        const auto bound = tokens.issue(
            QStringLiteral("t"), QStringLiteral("bot"), QStringLiteral("uid-bot"), 3600, {},
            QJsonObject{{QStringLiteral("pod"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("p")},
                                     {QStringLiteral("uid"), QStringLiteral("uid-p")}}}});
        QVERIFY(plain.ok() && bound.ok());
        const TokenAuthenticator auth = tokens.authenticator();
        const QStringList api{QString::fromLatin1(ServiceAccountTokens::kIssuer)};
        const auto outcome = [&](const Result<QJsonObject> &t) {
            const auto r = auth((*t)[QStringLiteral("token")].toString(), api);
            if (!r)
                return QStringLiteral("not mine");
            if (const auto *user = std::get_if<UserInfo>(&*r))
                return user->name;
            return std::get<QString>(*r);
        };
        const QString who = QStringLiteral("system:serviceaccount:t:bot");
        QCOMPARE(outcome(plain), who);
        QCOMPARE(outcome(bound), who);
        // The pod is deleted; its finalizer keeps it: the bound token works for 60 s, not after.
        const QString podDeleted = f.clock.now().toUTC().toString(Qt::ISODate);
        QVERIFY(f.putObject(QStringLiteral("pods"), QStringLiteral("t"),
                            meta("p", "uid-p", podDeleted)));
        f.clock.advance(59'000);
        QCOMPARE(outcome(bound), who);
        f.clock.advance(1'000);
        QCOMPARE(
            outcome(bound),
            QStringLiteral("service account token: the pod t/p it is bound to no longer exists"));
        QCOMPARE(outcome(plain), who); // the account itself is still there
        // Then the service account: all its tokens end a minute on.
        QVERIFY(f.putObject(sa, QStringLiteral("t"),
                            meta("bot", "uid-bot", f.clock.now().toUTC().toString(Qt::ISODate))));
        f.clock.advance(30'000);
        QCOMPARE(outcome(plain), who);
        f.clock.advance(30'000);
        QCOMPARE(
            outcome(plain),
            QStringLiteral("service account token: the service account t/bot no longer exists"));
    }
};

int runWatchTests(int argc, char **argv)
{
    TestWatch t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_watch.moc"
