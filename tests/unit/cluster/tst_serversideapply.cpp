// Unit tests of server-side apply (backend/cluster/serversideapply.*): the field sets of
// FieldsV1 for Kubernetes' own list kinds, what an apply merges, removes and refuses (kube's
// conflict texts), and how updates by other writers move ownership. kubectl apply
// --server-side against the binary is tests/e2e/kubectl.test.mjs.
#include "cluster/schemas.h"
#include "cluster/serversideapply.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Gatehouse::Cluster;
using namespace Gatehouse::Cluster::ServerSideApply;

namespace {

QJsonObject object(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

const google::protobuf::Descriptor *pod()
{
    return KubeSchemas::forKind(QStringLiteral("v1"), QStringLiteral("Pod"));
}

const google::protobuf::Descriptor *node()
{
    return KubeSchemas::forKind(QStringLiteral("v1"), QStringLiteral("Node"));
}

Request as(const char *manager, bool force = false)
{
    return Request{QString::fromLatin1(manager), force, QStringLiteral("v1"),
                   QDateTime(QDate(2026, 11, 28), QTime(12, 0), Qt::UTC)};
}

QJsonArray managers(const QJsonObject &o)
{
    return o[QStringLiteral("metadata")][QStringLiteral("managedFields")].toArray();
}

QJsonObject labels(const QJsonObject &o)
{
    return o[QStringLiteral("metadata")][QStringLiteral("labels")].toObject();
}

QJsonObject applied(const std::variant<QJsonObject, Status> &r)
{
    if (const auto *s = std::get_if<Status>(&r)) {
        qWarning() << "refused:" << s->message;
        return {};
    }
    return std::get<QJsonObject>(r);
}

} // namespace

class TestServerSideApply : public QObject
{
    Q_OBJECT

private slots:
    void fieldSetsFollowKubernetesListKinds()
    {
        const QJsonObject p =
            object(R"({"metadata":{"name":"web","labels":{"app":"web"},"finalizers":["a/b"]},
            "spec":{"containers":[{"name":"c","image":"busybox","args":["sleep","1"],"ports":[{"containerPort":80,"protocol":"TCP"}]}],
                    "tolerations":[{"key":"k"}]},"status":{"phase":"Running"}})");
        const FieldSet set = fieldsOf(p, pod());
        QCOMPARE(toFieldsV1(set),
                 object("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}},\"f:finalizers\":{\"v:\\\"a/"
                        "b\\\"\":{}}},"
                        "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{},"
                        "\"f:name\":{},"
                        "\"f:image\":{},\"f:args\":{},\"f:ports\":{\"k:{\\\"containerPort\\\":80,"
                        "\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{},\"f:"
                        "protocol\":{}}}}},"
                        "\"f:tolerations\":{}}}"));
        QCOMPARE(fromFieldsV1(toFieldsV1(set)), set);
        QCOMPARE(displayPath(QStringLiteral("f:spec\nf:containers\nk:{\"name\":\"c\"}\nf:image")),
                 QStringLiteral(".spec.containers[name=\"c\"].image"));
        QCOMPARE(displayPath(QStringLiteral("f:metadata\nf:finalizers\nv:\"a/b\"")),
                 QStringLiteral(".metadata.finalizers[=\"a/b\"]"));
    }

    void applyCreatesMergesAndRemovesWhatItNoLongerApplies()
    {
        const QJsonObject first = applied(apply(
            {},
            object(
                R"({"metadata":{"name":"node-1","labels":{"team":"a","tier":"1"}},"spec":{"podCIDR":"10.0.0.0/24"}})"),
            node(), as("ops")));
        QCOMPARE(labels(first), object(R"({"team":"a","tier":"1"})"));
        QCOMPARE(managers(first).size(), 1);
        const QJsonObject entry = managers(first).first().toObject();
        QCOMPARE(entry[QStringLiteral("manager")].toString(), QStringLiteral("ops"));
        QCOMPARE(entry[QStringLiteral("operation")].toString(), QStringLiteral("Apply"));
        QCOMPARE(entry[QStringLiteral("time")].toString(), QStringLiteral("2026-11-28T12:00:00Z"));
        QCOMPARE(entry[QStringLiteral("fieldsType")].toString(), QStringLiteral("FieldsV1"));
        QCOMPARE(
            entry[QStringLiteral("fieldsV1")].toObject(),
            object(
                R"({"f:metadata":{"f:labels":{"f:team":{},"f:tier":{}}},"f:spec":{"f:podCIDR":{}}})"));

        // Another writer adds a label: it becomes that writer's.
        QJsonObject edited = first;
        QJsonObject meta = edited[QStringLiteral("metadata")].toObject();
        QJsonObject l = labels(first);
        l.insert(QStringLiteral("owner"), QStringLiteral("bob"));
        meta.insert(QStringLiteral("labels"), l);
        edited.insert(QStringLiteral("metadata"), meta);
        edited = trackUpdate(first, edited, node(), QStringLiteral("kubectl-label"),
                             QStringLiteral("v1"),
                             QDateTime(QDate(2026, 11, 28), QTime(12, 1), Qt::UTC));
        QCOMPARE(managers(edited).size(), 2);
        QCOMPARE(managers(edited)[1][QStringLiteral("fieldsV1")].toObject(),
                 object(R"({"f:metadata":{"f:labels":{"f:owner":{}}}})"));

        // The same manager applies without tier: tier goes; owner (bob's) stays.
        const QJsonObject second = applied(apply(
            edited,
            object(
                R"({"metadata":{"name":"node-1","labels":{"team":"a"}},"spec":{"podCIDR":"10.0.0.0/24"}})"),
            node(), as("ops")));
        QCOMPARE(labels(second), object(R"({"team":"a","owner":"bob"})"));
    }

    void conflictsAreKubes()
    {
        const QJsonObject first = applied(apply(
            {},
            object(
                R"({"metadata":{"name":"node-1","labels":{"team":"a"}},"spec":{"podCIDR":"10.0.0.0/24"}})"),
            node(), as("ops")));
        // The same value from another manager is no conflict: the field is shared.
        const QJsonObject shared =
            applied(apply(first, object(R"({"metadata":{"name":"node-1","labels":{"team":"a"}}})"),
                          node(), as("audit")));
        QCOMPARE(managers(shared).size(), 2);

        auto refused =
            apply(shared, object(R"({"metadata":{"name":"node-1","labels":{"team":"b"}}})"), node(),
                  as("audit"));
        QVERIFY(std::holds_alternative<Status>(refused));
        const Status s = std::get<Status>(refused);
        QCOMPARE(s.code, 409);
        QCOMPARE(s.reason, QStringLiteral("Conflict"));
        QCOMPARE(s.message,
                 QStringLiteral(
                     "Apply failed with 1 conflict: conflict with \"ops\": .metadata.labels.team"));
        QCOMPARE(s.details->causes.size(), 1);
        QCOMPARE(s.details->causes[0].reason, QStringLiteral("FieldManagerConflict"));
        QCOMPARE(s.details->causes[0].field, QStringLiteral(".metadata.labels.team"));

        auto two = apply(
            shared,
            object(
                R"({"metadata":{"name":"node-1","labels":{"team":"b"}},"spec":{"podCIDR":"10.9.0.0/24"}})"),
            node(), as("audit"));
        QCOMPARE(std::get<Status>(two).message,
                 QStringLiteral("Apply failed with 2 conflicts: conflicts with \"ops\":\n- "
                                ".metadata.labels.team\n- .spec.podCIDR"));

        // Forced: the value and the field change hands.
        const QJsonObject forced =
            applied(apply(shared, object(R"({"metadata":{"name":"node-1","labels":{"team":"b"}}})"),
                          node(), as("audit", true)));
        QCOMPARE(labels(forced)[QStringLiteral("team")].toString(), QStringLiteral("b"));
        QCOMPARE(managers(forced)[0][QStringLiteral("fieldsV1")].toObject(),
                 object(R"({"f:spec":{"f:podCIDR":{}}})"));
    }

    void objectsWrittenBeforeTheFirstApplyAreOwned()
    {
        const QJsonObject stored =
            object(R"({"metadata":{"name":"node-1","uid":"u","labels":{"team":"a"}}})");
        auto r = apply(stored, object(R"({"metadata":{"name":"node-1","labels":{"team":"b"}}})"),
                       node(), as("ops"));
        QCOMPARE(std::get<Status>(r).message,
                 QStringLiteral(
                     "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: "
                     ".metadata.labels.team"));
        // Adding is no conflict; untracked objects stay untracked by updates.
        const QJsonObject added =
            applied(apply(stored, object(R"({"metadata":{"name":"node-1","labels":{"zone":"z"}}})"),
                          node(), as("ops")));
        QCOMPARE(labels(added), object(R"({"team":"a","zone":"z"})"));
        QCOMPARE(trackUpdate(stored, stored, node(), QStringLiteral("x"), QStringLiteral("v1"),
                             QDateTime()),
                 stored);
    }

    void keyedListsMergeByKey()
    {
        const QJsonObject base = applied(apply(
            {},
            object(
                R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"one"},{"name":"b","image":"two"}]}})"),
            pod(), as("deployer")));
        const QJsonObject sidecar = applied(apply(
            base,
            object(
                R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"log","image":"fluent"}]}})"),
            pod(), as("injector")));
        QCOMPARE(sidecar[QStringLiteral("spec")][QStringLiteral("containers")].toArray().size(), 3);
        // The deployer drops b: only b goes, the injector's container stays.
        const QJsonObject dropped = applied(apply(
            sidecar,
            object(
                R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"one"}]}})"),
            pod(), as("deployer")));
        QStringList names;
        for (const QJsonValue c :
             dropped[QStringLiteral("spec")][QStringLiteral("containers")].toArray())
            names.append(c[QStringLiteral("name")].toString());
        QCOMPARE(names, (QStringList{QStringLiteral("a"), QStringLiteral("log")}));
        auto clash = apply(
            dropped,
            object(
                R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"evil"}]}})"),
            pod(), as("injector"));
        QCOMPARE(std::get<Status>(clash).message,
                 QStringLiteral("Apply failed with 1 conflict: conflict with \"deployer\": "
                                ".spec.containers[name=\"a\"].image"));
    }
};

int runServerSideApplyTests(int argc, char **argv)
{
    TestServerSideApply t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_serversideapply.moc"
