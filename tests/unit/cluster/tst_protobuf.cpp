// Unit tests of the Kubernetes protobuf wire format (backend/cluster/protobuf.*, libprotobuf
// over Kubernetes 1.32's messages): the bodies kubectl sends as
// application/vnd.kubernetes.protobuf decoded to the JSON the same request would carry,
// answers encoded so that they decode back to the same JSON, and malformed bodies refused
// without a crash.
#include "cluster/protobuf.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Gatehouse::Cluster;

namespace {

// `kubectl auth can-i list namespaces` (kubectl 1.32), as captured on the wire.
const char kCanIListNamespaces[] =
    "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374"
    "41636365737352657669657712430a100a0012001a0022002a0032003800420012250a230a0764656661756c"
    "7412046c6973741a0022002a0a6e616d6573706163657332003a001a08080012001a0020001a002200";

const char kCanIListNamespacesJson[] =
    R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{},)"
    R"("spec":{"resourceAttributes":{"namespace":"default","verb":"list",)"
    R"("resource":"namespaces"}},"status":{}})";

QByteArray captured()
{
    return QByteArray::fromHex(kCanIListNamespaces);
}

// A small protobuf encoder for building bodies.
QByteArray varint(quint64 value)
{
    QByteArray out;
    do {
        char byte = char(value & 0x7fU);
        value >>= 7;
        if (value != 0)
            byte = char(uchar(byte) | 0x80U);
        out += byte;
    } while (value != 0);
    return out;
}

QByteArray tag(quint32 field, quint32 wireType)
{
    return varint((quint64(field) << 3) | wireType);
}

// A length-delimited field: a string, bytes or an embedded message.
QByteArray ld(quint32 field, const QByteArray &contents)
{
    return tag(field, 2) + varint(quint64(contents.size())) + contents;
}

QByteArray boolean(quint32 field, bool value)
{
    return tag(field, 0) + varint(value ? 1 : 0);
}

QByteArray entry(quint32 field, const QByteArray &key, const QByteArray &value)
{
    return ld(field, ld(1, key) + ld(2, value));
}

QByteArray magic()
{
    return QByteArray("k8s\0", 4);
}

// runtime.Unknown around raw, the way kubectl writes it (empty encoding and type included).
QByteArray envelope(const QByteArray &apiVersion, const QByteArray &kind, const QByteArray &raw)
{
    return magic() + ld(1, ld(1, apiVersion) + ld(2, kind)) + ld(2, raw) + ld(3, {}) + ld(4, {});
}

// ObjectMeta as kubectl sends it: every string present but empty, generation 0 and an
// empty creationTimestamp.
QByteArray emptyMeta()
{
    return ld(1, ld(1, {}) + ld(2, {}) + ld(3, {}) + ld(4, {}) + ld(5, {}) + ld(6, {}) +
                     boolean(7, false) + ld(8, {}));
}

// One unknown field of every wire type, numbered from first: varint, 64-bit,
// length-delimited, a group (holding a varint and a nested group) and 32-bit.
QByteArray unknowns(quint32 first)
{
    return tag(first, 0) + varint(300) + tag(first + 1, 1) + QByteArray(8, '\xff') +
           ld(first + 2, QByteArray("\x0a\x03xyz", 5)) + tag(first + 3, 3) + tag(1, 0) + varint(7) +
           tag(2, 3) + tag(1, 5) + QByteArray(4, 'a') + tag(2, 4) + tag(first + 3, 4) +
           tag(first + 4, 5) + QByteArray(4, '\x01');
}

// n groups nested in each other, as an unknown field 15.
QByteArray nestedGroups(int n)
{
    QByteArray out;
    for (int i = 0; i < n; ++i)
        out += tag(15, 3);
    for (int i = 0; i < n; ++i)
        out += tag(15, 4);
    return out;
}

QByteArray compactObject(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

const QByteArray kSsar = "SelfSubjectAccessReview";
const QByteArray kAuthz = "authorization.k8s.io/v1";
const QByteArray kBom = "\xef\xbb\xbf"; // U+FEFF in UTF-8

} // namespace

// The rows of the data-driven tests. (moc's tokenizer does not know raw string literals: a
// backslash before a quote in one, or an odd number of quotes, hides the class from it.)
void decodesRows()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("json");

    QTest::newRow("kubectl auth can-i list namespaces")
        << captured() << QByteArray(kCanIListNamespacesJson);

    QTest::newRow("kubectl auth can-i get /healthz")
        << envelope(kAuthz, kSsar,
                    emptyMeta() + ld(2, ld(2, ld(1, "/healthz") + ld(2, "get"))) +
                        ld(3, boolean(1, false) + ld(2, {}) + ld(3, {}) + boolean(4, false)))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                      R"("spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"}},)"
                      R"("status":{}})");

    const QByteArray everyAttribute = ld(1, "ns") + ld(2, "get") + ld(3, "apps") + ld(4, "v1") +
                                      ld(5, "deployments") + ld(6, "scale") + ld(7, "web");
    QTest::newRow("SubjectAccessReview: user, groups in order, extra, uid")
        << envelope(kAuthz, "SubjectAccessReview",
                    emptyMeta() +
                        ld(2, ld(1, everyAttribute) + ld(3, "alice") + ld(4, "system:b") +
                                  ld(4, "a-team") + ld(4, "system:b") +
                                  ld(5, ld(1, "scopes") + ld(2, ld(1, "x") + ld(1, "y"))) +
                                  ld(5, ld(1, "empty") + ld(2, {})) + ld(5, ld(1, "novalue")) +
                                  ld(6, "u-1")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview",)"
                      R"("metadata":{},"spec":{"resourceAttributes":{"namespace":"ns",)"
                      R"("verb":"get","group":"apps","version":"v1","resource":"deployments",)"
                      R"("subresource":"scale","name":"web"},"user":"alice",)"
                      R"("groups":["system:b","a-team","system:b"],)"
                      R"("extra":{"scopes":["x","y"],"empty":[],"novalue":[]},"uid":"u-1"},)"
                      R"("status":{}})");

    QTest::newRow("LocalSubjectAccessReview: metadata namespace")
        << envelope(
               kAuthz, "LocalSubjectAccessReview",
               ld(1, ld(3, "team-a")) +
                   ld(2, ld(1, ld(1, "team-a") + ld(2, "create") + ld(5, "pods")) + ld(3, "bob")))
        << QByteArray(
               R"({"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview",)"
               R"("metadata":{"namespace":"team-a"},"spec":{"resourceAttributes":)"
               R"({"namespace":"team-a","verb":"create","resource":"pods"},"user":"bob"},)"
               R"("status":{}})");

    QTest::newRow("SelfSubjectAccessReview: spec fields 3-6 are not its own")
        << envelope(kAuthz, kSsar,
                    ld(2, ld(2, ld(1, "/") + ld(2, "get")) + ld(3, "root") +
                              ld(4, "system:masters") + ld(5, ld(1, "k")) + ld(6, "u")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                      R"("spec":{"nonResourceAttributes":{"path":"/","verb":"get"}},)"
                      R"("status":{}})");

    QTest::newRow("SelfSubjectRulesReview without spec")
        << envelope(kAuthz, "SelfSubjectRulesReview", emptyMeta())
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectRulesReview","metadata":{},"spec":{},"status":{}})");

    for (const char *version : {"v1", "v1beta1", "v1alpha1"}) {
        const QByteArray apiVersion = QByteArray("authentication.k8s.io/") + version;
        QTest::addRow("SelfSubjectReview %s", version)
            << envelope(apiVersion, "SelfSubjectReview", emptyMeta())
            << QByteArray(R"({"apiVersion":")" + apiVersion +
                          R"(","kind":"SelfSubjectReview","metadata":{},"status":{}})");
    }

    QTest::newRow("attributes present but empty stay, as {}")
        << envelope(kAuthz, kSsar, ld(2, ld(1, ld(8, {}) + ld(9, ld(1, {})))))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                      R"("spec":{"resourceAttributes":{"fieldSelector":{},)"
                      R"("labelSelector":{}}},"status":{}})");

    QTest::newRow("metadata: every field, labels and annotations; the last key wins")
        << envelope(kAuthz, kSsar,
                    ld(1, ld(1, "n") + ld(2, "gen-") + ld(3, "ns") + ld(4, "/self") +
                              ld(5, "uid-1") + ld(6, "42") + entry(11, "app", "web") +
                              entry(11, "empty", {}) + entry(11, "app", "db") +
                              entry(12, "note", "a\"b") + ld(12, ld(2, "keyless"))))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{"name":"n",)"
                      R"("generateName":"gen-","namespace":"ns","selfLink":"/self",)"
                      R"("uid":"uid-1","resourceVersion":"42","labels":{"app":"db","empty":""},)"
                      R"("annotations":{"note":"a\u0022b","":"keyless"}},"spec":{},)"
                      R"("status":{}})");

    QTest::newRow("status: false is Go's default and left out")
        << envelope(kAuthz, "SubjectAccessReview",
                    ld(3, boolean(1, true) + ld(2, "rbac") + ld(3, "oops") + boolean(4, false)))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview",)"
                      R"("metadata":{},"spec":{},"status":{"allowed":true,"reason":"rbac",)"
                      R"("evaluationError":"oops"}})");

    QTest::newRow("last string wins, even empty; messages merge")
        << envelope(kAuthz, kSsar,
                    ld(2, ld(1, ld(2, "get") + ld(7, "a"))) +
                        ld(2, ld(1, ld(2, "list") + ld(7, {}))) + ld(1, ld(1, "x")) +
                        ld(1, ld(2, "y-")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview",)"
                      R"("metadata":{"name":"x","generateName":"y-"},)"
                      R"("spec":{"resourceAttributes":{"verb":"list"}},"status":{}})");

    QTest::newRow("unknown fields of every wire type, at every level")
        << magic() + unknowns(20) + ld(1, unknowns(30) + ld(1, kAuthz) + ld(2, kSsar)) +
               unknowns(40) +
               ld(2, unknowns(50) +
                         ld(1, unknowns(60) + ld(1, "n") +
                                   ld(11, unknowns(5) + ld(1, "k") + ld(2, "v"))) +
                         ld(2, unknowns(70) + ld(1, unknowns(80) + ld(2, "get") +
                                                        ld(8, unknowns(90) + ld(1, "a=b"))))) +
               unknowns(100)
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{"name":"n",)"
                      R"("labels":{"k":"v"}},"spec":{"resourceAttributes":{"verb":"get",)"
                      R"("fieldSelector":{"rawSelector":"a=b"}}},"status":{}})");

    QTest::newRow("fields in any order, typeMeta last")
        << magic() + ld(4, {}) + ld(2, ld(2, ld(2, ld(2, "get")))) + ld(1, ld(2, kSsar)) +
               ld(1, ld(1, kAuthz))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                      R"("spec":{"nonResourceAttributes":{"verb":"get"}},"status":{}})");

    QTest::newRow("no raw object: every field at its default")
        << magic() + ld(1, ld(1, kAuthz) + ld(2, kSsar))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{},"spec":{},)"
                      R"("status":{}})");

    QTest::newRow("the last raw field wins")
        << magic() + ld(1, ld(1, kAuthz) + ld(2, kSsar)) + ld(2, ld(1, ld(1, "first"))) +
               ld(2, ld(1, ld(1, "second")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{"name":"second"},)"
                      R"("spec":{},"status":{}})");

    QTest::newRow("UTF-8 strings; invalid bytes become U+FFFD")
        << envelope(kAuthz, kSsar, ld(1, ld(1, "caf\xc3\xa9") + ld(3, "a\xff")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview",)"
                      "\"metadata\":{\"name\":\"caf\xc3\xa9\",\"namespace\":\"a\xef\xbf\xbd\"},"
                      R"("spec":{},"status":{}})");

    QTest::newRow("a known field with another wire type is skipped as unknown")
        << envelope(kAuthz, kSsar, ld(1, tag(1, 0) + '\x01' + ld(3, "ns")))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview","metadata":{"namespace":"ns"},)"
                      R"("spec":{},"status":{}})");

    // Probe embeds ProbeHandler with json:",inline": its httpGet is the probe's own in JSON.
    QTest::newRow("Pod: an inline struct's fields are its parent's")
        << envelope("v1", "Pod", ld(2, ld(2, ld(1, "c") + ld(10, ld(1, ld(2, ld(1, "/healthz")))))))
        << QByteArray(R"({"apiVersion":"v1","kind":"Pod","metadata":{},"spec":{"containers":[)"
                      R"({"name":"c","livenessProbe":{"httpGet":{"path":"/healthz"}}}]},)"
                      R"("status":{}})");

    QTest::newRow("a leading byte order mark is kept")
        << envelope(kAuthz, kSsar, ld(1, ld(1, kBom + "admin") + ld(3, kBom)))
        << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                      R"("kind":"SelfSubjectAccessReview",)"
                      R"("metadata":{"name":"\ufeffadmin","namespace":"\ufeff"},"spec":{},)"
                      R"("status":{}})");

    // What kubectl create namespace team-a sends (kubectl 1.32, typed client): every
    // string of metadata present but empty, an empty creationTimestamp, spec and status.
    QTest::newRow("kubectl create namespace")
        << envelope("v1", "Namespace",
                    ld(1, ld(1, "team-a") + ld(2, {}) + ld(3, {}) + ld(4, {}) + ld(5, {}) +
                              ld(6, {}) + tag(7, 0) + varint(0) + ld(8, {})) +
                        ld(2, {}) + ld(3, ld(1, {})))
        << QByteArray(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"},)"
                      R"("spec":{},"status":{}})");

    QTest::newRow("ServiceAccount: a pointer keeps its false")
        << envelope("v1", "ServiceAccount",
                    ld(1, ld(1, "robot") + ld(3, "team-a")) + boolean(4, false))
        << QByteArray(R"({"apiVersion":"v1","kind":"ServiceAccount",)"
                      R"("metadata":{"name":"robot","namespace":"team-a"},)"
                      R"("automountServiceAccountToken":false})");

    QTest::newRow("ClusterRoleBinding: subjects and roleRef")
        << envelope(
               "rbac.authorization.k8s.io/v1", "ClusterRoleBinding",
               ld(1, ld(1, "ops")) +
                   ld(2, ld(1, "User") + ld(2, "rbac.authorization.k8s.io") + ld(3, "alice") +
                             ld(4, {})) +
                   ld(2, ld(1, "ServiceAccount") + ld(2, {}) + ld(3, "robot") + ld(4, "team-a")) +
                   ld(3, ld(1, "rbac.authorization.k8s.io") + ld(2, "ClusterRole") + ld(3, "view")))
        << QByteArray(R"({"apiVersion":"rbac.authorization.k8s.io/v1",)"
                      R"("kind":"ClusterRoleBinding","metadata":{"name":"ops"},)"
                      R"("subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io",)"
                      R"("name":"alice"},{"kind":"ServiceAccount","name":"robot",)"
                      R"("namespace":"team-a"}],"roleRef":{"apiGroup":)"
                      R"("rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}})");

    // Service port: port 80, targetPort "http" (IntOrString type 1), nodePort 0 on the wire.
    QTest::newRow("Service: IntOrString, a zero nodePort left out, a creation time")
        << envelope(
               "v1", "Service",
               ld(1, ld(1, "web") + ld(8, tag(1, 0) + varint(1700000000))) +
                   ld(2, ld(1, ld(1, "http") + ld(2, "TCP") + tag(3, 0) + varint(80) +
                                   ld(4, tag(1, 0) + varint(1) + ld(3, "http")) + tag(5, 0) +
                                   varint(0)) +
                             ld(1, ld(1, "metrics") + tag(3, 0) + varint(9090) +
                                       ld(4, tag(1, 0) + varint(0) + tag(2, 0) + varint(9091)))))
        << QByteArray(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"web",)"
                      R"("creationTimestamp":"2023-11-14T22:13:20Z"},"spec":{"ports":[)"
                      R"({"name":"http","protocol":"TCP","port":80,"targetPort":"http"},)"
                      R"({"name":"metrics","port":9090,"targetPort":9091}]},"status":{}})");
}

void roundTripsRows()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("Namespace") << QByteArray(
        R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a",)"
        R"("uid":"0b8e","resourceVersion":"17","creationTimestamp":)"
        R"("2026-11-28T10:00:00Z","labels":{"kubernetes.io/metadata.name":)"
        R"("team-a"},"managedFields":[{"manager":"kubectl-create","operation":)"
        R"("Update","apiVersion":"v1","time":"2026-11-28T10:00:00Z",)"
        R"("fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:phase":{}}}}]},)"
        R"("spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}})");
    QTest::newRow("NodeList") << QByteArray(
        R"({"apiVersion":"v1","kind":"NodeList","metadata":{"resourceVersion":)"
        R"("9","continue":"abc","remainingItemCount":0},"items":[{"metadata":)"
        R"({"name":"n1","labels":{"a":"b"}},"spec":{"unschedulable":true,)"
        R"("taints":[{"key":"k","effect":"NoSchedule"}]},"status":{)"
        R"("capacity":{"cpu":"2","memory":"24Gi"},"conditions":[{"type":)"
        R"("Ready","status":"True","lastHeartbeatTime":)"
        R"("2026-11-28T10:00:01Z"}],"daemonEndpoints":{"kubeletEndpoint":)"
        R"({"Port":10250}}}}]})");
    QTest::newRow("Pod with a pointer at zero")
        << QByteArray(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",)"
                      R"("namespace":"default"},"spec":{"containers":[{"name":"c","image":)"
                      R"("busybox","ports":[{"containerPort":80}],"resources":{"limits":)"
                      R"({"cpu":"500m"}},"livenessProbe":{"httpGet":{"path":"/","port":)"
                      R"("http"}}}],"securityContext":{"runAsUser":0},)"
                      R"("terminationGracePeriodSeconds":30},"status":{}})");
    QTest::newRow("Status") << QByteArray(
        R"({"apiVersion":"v1","kind":"Status","metadata":{},"status":)"
        R"("Failure","message":"namespaces \u0022x\u0022 not found","reason":)"
        R"("NotFound","details":{"name":"x","kind":"namespaces"},"code":404})");
    QTest::newRow("Event with MicroTime")
        << QByteArray(R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},)"
                      R"("involvedObject":{"kind":"Node","name":"n1"},"reason":"Denied",)"
                      R"("count":2,"eventTime":"2026-11-28T10:00:00.123456Z",)"
                      R"("firstTimestamp":"2026-11-28T10:00:00Z"})");
    QTest::newRow("RoleList") << QByteArray(
        R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleList",)"
        R"("metadata":{},"items":[{"metadata":{"name":"r","namespace":"a"},)"
        R"("rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":)"
        R"(["pods"]}]}]})");
    QTest::newRow("TokenReview answer")
        << QByteArray(R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview",)"
                      R"("metadata":{},"spec":{},"status":{"authenticated":true,"user":{)"
                      R"("username":"alice","groups":["devs"],"extra":{"scopes":["a"]}}}})");
}

void encodeErrorsRows()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("unsupportedKind");
    QTest::addColumn<QString>("message");
    QTest::newRow("kind not served")
        << QByteArray(R"({"apiVersion":"apps/v1","kind":"Deployment"})") << true
        << "Deployment (apps/v1) has no protobuf form";
    QTest::newRow("no kind") << QByteArray(R"({"metadata":{}})") << true << "no protobuf form";
    QTest::newRow("string for an integer")
        << QByteArray(R"({"apiVersion":"v1","kind":"Status","code":"404"})") << false
        << "code is not an integer";
    QTest::newRow("fraction for an integer")
        << QByteArray(R"({"apiVersion":"v1","kind":"Status","code":4.5})") << false
        << "code is not an integer";
    QTest::newRow("int32 out of range")
        << QByteArray(R"({"apiVersion":"v1","kind":"Status","code":4294967296})") << false
        << "code is not a 32-bit integer";
    QTest::newRow("object for a string")
        << QByteArray(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":{}}})") << false
        << "metadata.name is not a string";
    QTest::newRow("bad time") << QByteArray(R"({"apiVersion":"v1","kind":"Namespace","metadata":)"
                                            R"({"creationTimestamp":"yesterday"}})")
                              << false << "metadata.creationTimestamp is not an RFC 3339 time";
    QTest::newRow("array item of the wrong type")
        << QByteArray(R"({"apiVersion":"v1","kind":"Namespace","spec":{"finalizers":[1]}})")
        << false << "spec.finalizers[0] is not a string";
    QTest::newRow("map value of the wrong type")
        << QByteArray(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"labels":)"
                      R"({"a":true}}})")
        << false << "metadata.labels.a is not a string";
}

void errorsRows()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("unsupportedKind");
    QTest::addColumn<QString>("message");

    const QByteArray typeMeta = ld(1, ld(1, kAuthz) + ld(2, kSsar));

    QTest::newRow("empty body") << QByteArray() << false << "magic";
    QTest::newRow("JSON body") << QByteArray(R"({"kind":"Pod"})") << false << "magic";
    QTest::newRow("short magic") << QByteArray("k8s") << false << "magic";
    QTest::newRow("wrong magic") << QByteArray("k8s\1", 4) + typeMeta << false << "magic";
    QTest::newRow("magic only") << magic() << false << "without a kind";
    QTest::newRow("no apiVersion")
        << magic() + ld(1, ld(2, kSsar)) << false << "without an apiVersion";
    QTest::newRow("empty kind") << envelope(kAuthz, {}, ld(1, {})) << false << "without a kind";

    QTest::newRow("truncated varint (tag)") << magic() + '\x8a' << false << "envelope";
    QTest::newRow("length beyond the input")
        << magic() + typeMeta + tag(2, 2) + varint(5) + "abcd" << false << "envelope";
    QTest::newRow("huge length") << magic() + typeMeta + tag(2, 2) + varint(~quint64(0)) + "abcd"
                                 << false << "envelope";
    QTest::newRow("length beyond the enclosing message")
        << envelope(kAuthz, kSsar, tag(1, 2) + varint(6) + ld(1, "abcdefgh")) << false
        << "does not parse as SelfSubjectAccessReview (authorization.k8s.io/v1)";
    QTest::newRow("overlong varint")
        << magic() + typeMeta + tag(9, 0) + QByteArray(10, '\x80') + '\x00' << false << "envelope";
    QTest::newRow("wire type 6") << magic() + typeMeta + tag(9, 6) << false << "envelope";
    QTest::newRow("field number 0")
        << magic() + typeMeta + tag(0, 0) + '\x01' << false << "envelope";
    QTest::newRow("end group outside a group")
        << magic() + typeMeta + tag(9, 4) << false << "envelope";
    QTest::newRow("unterminated group")
        << magic() + typeMeta + tag(9, 3) + tag(1, 0) + '\x01' << false << "envelope";
    // (A known field with another wire type is an unknown field to protobuf.)
    QTest::newRow("typeMeta as a varint")
        << magic() + tag(1, 0) + '\x01' << false << "without a kind";
    QTest::newRow("malformed metadata inside raw")
        << envelope(kAuthz, kSsar, ld(1, tag(11, 2) + varint(3) + tag(1, 2) + varint(9) + 'x'))
        << false << "does not parse";
    QTest::newRow("10000 nested unknown groups")
        << envelope(kAuthz, kSsar, nestedGroups(10000)) << false << "does not parse";
    QTest::newRow("kind Deployment") << envelope("apps/v1", "Deployment", ld(1, ld(1, "d"))) << true
                                     << "Deployment (apps/v1) are not supported";
    QTest::newRow("SelfSubjectAccessReview of another version")
        << envelope("authorization.k8s.io/v1beta1", kSsar, {}) << true << "not supported";
    QTest::newRow("SelfSubjectReview of another group")
        << envelope(kAuthz, "SelfSubjectReview", {}) << true << "not supported";
    QTest::newRow("kind in another case")
        << envelope(kAuthz, "selfsubjectaccessreview", {}) << true << "not supported";
}

class TestProtobuf : public QObject
{
    Q_OBJECT

    static QJsonObject json(const QByteArray &text)
    {
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        if (!doc.isObject())
            qFatal("bad JSON in the test: %s", qPrintable(error.errorString()));
        return doc.object();
    }

private slots:
    void contentType()
    {
        QCOMPARE(QByteArray(kProtobufContentType),
                 QByteArray("application/vnd.kubernetes.protobuf"));
    }

    void capturedBodyIsExact()
    {
        const auto result = decodeProtobufObject(captured());
        QVERIFY(std::holds_alternative<QJsonObject>(result));
        const QJsonObject expected = QJsonDocument::fromJson(kCanIListNamespacesJson).object();
        QVERIFY(!expected.isEmpty());
        QCOMPARE(std::get<QJsonObject>(result), expected);
    }

    void decodes_data() { decodesRows(); }

    void decodes()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, json);
        const QJsonObject expected = TestProtobuf::json(json);

        const auto result = decodeProtobufObject(body);
        if (const auto *error = std::get_if<ProtobufError>(&result))
            QFAIL(qPrintable(error->message));
        QCOMPARE(compactObject(std::get<QJsonObject>(result)), compactObject(expected));
    }

    // Answers: JSON to protobuf and back gives the same JSON, for every served kind's shape.
    void roundTrips_data() { roundTripsRows(); }

    void roundTrips()
    {
        QFETCH(QByteArray, json);
        const QJsonObject object = TestProtobuf::json(json);
        const auto encoded = encodeProtobufObject(object);
        if (const auto *error = std::get_if<ProtobufError>(&encoded))
            QFAIL(qPrintable(error->message));
        const QByteArray bytes = std::get<QByteArray>(encoded);
        QVERIFY(bytes.startsWith(magic()));
        const auto decoded = decodeProtobufObject(bytes);
        if (const auto *error = std::get_if<ProtobufError>(&decoded))
            QFAIL(qPrintable(error->message));
        QCOMPARE(compactObject(std::get<QJsonObject>(decoded)), compactObject(object));
    }

    // The envelope kube-apiserver writes: typeMeta, raw, then empty contentEncoding and
    // contentType.
    void encodedEnvelope()
    {
        const auto encoded = encodeProtobufObject(
            json("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"a\"}}"));
        QVERIFY(std::holds_alternative<QByteArray>(encoded));
        QCOMPARE(std::get<QByteArray>(encoded).toHex(),
                 envelope("v1", "Namespace", ld(1, ld(1, "a"))).toHex());
    }

    void encodeErrors_data() { encodeErrorsRows(); }

    void encodeErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, unsupportedKind);
        QFETCH(QString, message);
        const auto encoded = encodeProtobufObject(TestProtobuf::json(json));
        QVERIFY(std::holds_alternative<ProtobufError>(encoded));
        QCOMPARE(std::get<ProtobufError>(encoded).unsupportedKind, unsupportedKind);
        QVERIFY2(std::get<ProtobufError>(encoded).message.contains(message),
                 qPrintable(std::get<ProtobufError>(encoded).message));
    }

    void errors_data() { errorsRows(); }

    void errors()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, unsupportedKind);
        QFETCH(QString, message);
        const auto result = decodeProtobufObject(body);
        if (const auto *object = std::get_if<QJsonObject>(&result))
            QFAIL(("decoded: " + compactObject(*object)).constData());
        const ProtobufError &error = std::get<ProtobufError>(result);
        QCOMPARE(error.unsupportedKind, unsupportedKind);
        QVERIFY2(error.message.contains(message), qPrintable(error.message));
    }

    // Every prefix of the captured body is refused, except those ending between two fields of
    // the envelope, which are complete messages: protobuf has no end marker.
    void truncatedCapturedBody()
    {
        const QByteArray body = captured();
        QCOMPARE(body.size(), 129);
        const QByteArray full =
            compactObject(QJsonDocument::fromJson(kCanIListNamespacesJson).object());
        const QByteArray noRaw = "{\"apiVersion\":\"authorization.k8s.io/v1\","
                                 "\"kind\":\"SelfSubjectAccessReview\",\"metadata\":{},"
                                 "\"spec\":{},\"status\":{}}";
        int refused = 0;
        for (qsizetype size = 0; size < body.size(); ++size) {
            const auto result = decodeProtobufObject(body.left(size));
            const auto *object = std::get_if<QJsonObject>(&result);
            switch (size) {
            case 56: // magic + typeMeta
                QVERIFY(object);
                QCOMPARE(compactObject(*object),
                         compactObject(QJsonDocument::fromJson(noRaw).object()));
                break;
            case 125: // + raw
            case 127: // + contentEncoding
                QVERIFY(object);
                QCOMPARE(compactObject(*object), full);
                break;
            default:
                QVERIFY2(!object, qPrintable(QStringLiteral("prefix of %1 bytes").arg(size)));
                QVERIFY(!std::get<ProtobufError>(result).unsupportedKind);
                QVERIFY(!std::get<ProtobufError>(result).message.isEmpty());
                ++refused;
            }
        }
        QCOMPARE(refused, 126);
    }

    // Repeated and map fields accumulate in linear time.
    void manyFields()
    {
        QByteArray groups;
        QByteArray labels;
        for (int i = 0; i < 50000; ++i) {
            groups += ld(4, QByteArray::number(i));
            labels += entry(11, QByteArray::number(i % 20000), QByteArray::number(i));
        }
        const auto result = decodeProtobufObject(
            envelope(kAuthz, "SubjectAccessReview", ld(1, labels) + ld(2, groups)));
        QVERIFY(std::holds_alternative<QJsonObject>(result));
        const QJsonObject object = std::get<QJsonObject>(result);
        const QJsonArray decodedGroups =
            object[QStringLiteral("spec")][QStringLiteral("groups")].toArray();
        QCOMPARE(decodedGroups.size(), 50000);
        QCOMPARE(decodedGroups.last().toString(), QStringLiteral("49999"));
        const QJsonObject decodedLabels =
            object[QStringLiteral("metadata")][QStringLiteral("labels")].toObject();
        QCOMPARE(decodedLabels.size(), 20000);
        QCOMPARE(decodedLabels[QStringLiteral("0")].toString(), QStringLiteral("40000"));
    }
};

int runProtobufTests(int argc, char **argv)
{
    TestProtobuf t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_protobuf.moc"
