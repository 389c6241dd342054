// Unit tests of the Kubernetes protobuf body decoder (backend/cluster/protobuf.*): the
// review kinds kubectl sends as application/vnd.kubernetes.protobuf, decoded to the JSON
// the same request would carry, and malformed bodies refused without a crash.
#include "cluster/protobuf.h"

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
    R"("resource":"namespaces"}}})";

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

class TestProtobuf : public QObject
{
    Q_OBJECT

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

    void decodes_data()
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
                          R"("spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"}}})");

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
                          R"("extra":{"scopes":["x","y"],"empty":[],"novalue":[]},"uid":"u-1"}})");

        QTest::newRow("LocalSubjectAccessReview: metadata namespace")
            << envelope(kAuthz, "LocalSubjectAccessReview",
                        ld(1, ld(3, "team-a")) +
                            ld(2, ld(1, ld(1, "team-a") + ld(2, "create") + ld(5, "pods")) +
                                      ld(3, "bob")))
            << QByteArray(
                   R"({"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview",)"
                   R"("metadata":{"namespace":"team-a"},"spec":{"resourceAttributes":)"
                   R"({"namespace":"team-a","verb":"create","resource":"pods"},"user":"bob"}})");

        QTest::newRow("SelfSubjectAccessReview: spec fields 3-6 are not its own")
            << envelope(kAuthz, kSsar,
                        ld(2, ld(2, ld(1, "/") + ld(2, "get")) + ld(3, "root") +
                                  ld(4, "system:masters") + ld(5, ld(1, "k")) + ld(6, "u")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                          R"("spec":{"nonResourceAttributes":{"path":"/","verb":"get"}}})");

        QTest::newRow("SelfSubjectRulesReview with a namespace")
            << envelope(kAuthz, "SelfSubjectRulesReview",
                        emptyMeta() + ld(2, ld(1, "kube-system")) + ld(3, boolean(3, true)))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectRulesReview","metadata":{},)"
                          R"("spec":{"namespace":"kube-system"}})");

        QTest::newRow("SelfSubjectRulesReview without spec")
            << envelope(kAuthz, "SelfSubjectRulesReview", emptyMeta())
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectRulesReview","metadata":{},"spec":{}})");

        for (const char *version : {"v1", "v1beta1", "v1alpha1"}) {
            const QByteArray apiVersion = QByteArray("authentication.k8s.io/") + version;
            QTest::addRow("SelfSubjectReview %s", version)
                << envelope(apiVersion, "SelfSubjectReview",
                            emptyMeta() + ld(2, ld(1, ld(1, "someone"))))
                << QByteArray(R"({"apiVersion":")" + apiVersion +
                              R"(","kind":"SelfSubjectReview","metadata":{}})");
        }

        QTest::newRow("fieldSelector and labelSelector rawSelector")
            << envelope(kAuthz, kSsar,
                        ld(2, ld(1, ld(2, "list") + ld(5, "pods") +
                                        ld(8, ld(1, "spec.nodeName=n1") +
                                                  ld(2, ld(1, "spec.nodeName") + ld(2, "In"))) +
                                        ld(9, ld(1, "app=web")))))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                          R"("spec":{"resourceAttributes":{"verb":"list","resource":"pods",)"
                          R"("fieldSelector":{"rawSelector":"spec.nodeName=n1"},)"
                          R"("labelSelector":{"rawSelector":"app=web"}}}})");

        QTest::newRow("attributes present but empty stay, as {}")
            << envelope(kAuthz, kSsar, ld(2, ld(1, ld(8, {}) + ld(9, ld(1, {})))))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                          R"("spec":{"resourceAttributes":{"fieldSelector":{},)"
                          R"("labelSelector":{}}}})");

        QTest::newRow("metadata: every field, labels and annotations")
            << envelope(kAuthz, kSsar,
                        ld(1, ld(1, "n") + ld(2, "gen-") + ld(3, "ns") + ld(4, "/self") +
                                  ld(5, "uid-1") + ld(6, "42") + entry(11, "app", "web") +
                                  entry(11, "empty", {}) + entry(11, "app", "db") +
                                  entry(12, "note", "a\"b") + ld(12, ld(2, "keyless"))))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{"name":"n",)"
                          R"("generateName":"gen-","namespace":"ns","uid":"uid-1",)"
                          R"("labels":{"app":"db","empty":""},)"
                          R"("annotations":{"note":"a\u0022b","":"keyless"}},"spec":{}})");

        QTest::newRow("status with fields set")
            << envelope(kAuthz, "SubjectAccessReview",
                        ld(3, boolean(1, true) + ld(2, "rbac") + ld(3, "oops")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview",)"
                          R"("metadata":{},"spec":{},"status":{"allowed":true,"reason":"rbac",)"
                          R"("evaluationError":"oops"}})");

        QTest::newRow("status denied only")
            << envelope(kAuthz, kSsar, ld(3, boolean(4, true) + boolean(1, false)))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},"spec":{},)"
                          R"("status":{"denied":true}})");

        QTest::newRow("last string wins, even empty; messages merge")
            << envelope(kAuthz, kSsar,
                        ld(2, ld(1, ld(2, "get") + ld(7, "a"))) +
                            ld(2, ld(1, ld(2, "list") + ld(7, {}))) + ld(1, ld(1, "x")) +
                            ld(1, ld(2, "y-")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview",)"
                          R"("metadata":{"name":"x","generateName":"y-"},)"
                          R"("spec":{"resourceAttributes":{"verb":"list"}}})");

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
                          R"("fieldSelector":{"rawSelector":"a=b"}}}})");

        QTest::newRow("fields in any order, typeMeta last")
            << magic() + ld(4, {}) + ld(2, ld(2, ld(2, ld(2, "get")))) + ld(1, ld(2, kSsar)) +
                   ld(1, ld(1, kAuthz))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},)"
                          R"("spec":{"nonResourceAttributes":{"verb":"get"}}})");

        QTest::newRow("no raw object: every field at its default")
            << magic() + ld(1, ld(1, kAuthz) + ld(2, kSsar))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},"spec":{}})");

        QTest::newRow("the last raw field wins")
            << magic() + ld(1, ld(1, kAuthz) + ld(2, kSsar)) + ld(2, ld(1, ld(1, "first"))) +
                   ld(2, ld(1, ld(1, "second")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{"name":"second"},)"
                          R"("spec":{}})");

        QTest::newRow("non-zero varints are true; 10-byte varints")
            << envelope(kAuthz, kSsar,
                        ld(3, tag(1, 0) + QByteArray(9, '\x80') + '\x01' + tag(4, 0) + '\x02') +
                            tag(7, 0) + QByteArray(9, '\xff') + '\x7f')
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{},"spec":{},)"
                          R"("status":{"allowed":true,"denied":true}})");

        QTest::newRow("UTF-8 strings; invalid bytes become U+FFFD")
            << envelope(kAuthz, kSsar, ld(1, ld(1, "caf\xc3\xa9") + ld(3, "a\xff")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview",)"
                          "\"metadata\":{\"name\":\"caf\xc3\xa9\",\"namespace\":\"a\xef\xbf\xbd\"},"
                          R"("spec":{}})");

        QTest::newRow("a leading byte order mark is kept")
            << envelope(kAuthz, kSsar, ld(1, ld(1, kBom + "admin") + ld(3, kBom)))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview",)"
                          R"("metadata":{"name":"\ufeffadmin","namespace":"\ufeff"},"spec":{}})");

        QTest::newRow("14 nested unknown groups (depth 16) are skipped")
            << envelope(kAuthz, kSsar, nestedGroups(14) + ld(1, ld(1, "deep")))
            << QByteArray(R"({"apiVersion":"authorization.k8s.io/v1",)"
                          R"("kind":"SelfSubjectAccessReview","metadata":{"name":"deep"},)"
                          R"("spec":{}})");
    }

    void decodes()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, json);
        QJsonParseError parseError{};
        const QJsonDocument expected = QJsonDocument::fromJson(json, &parseError);
        QVERIFY2(expected.isObject(), qPrintable(parseError.errorString()));

        const auto result = decodeProtobufObject(body);
        if (const auto *error = std::get_if<ProtobufError>(&result))
            QFAIL(qPrintable(error->message));
        QCOMPARE(compactObject(std::get<QJsonObject>(result)), compactObject(expected.object()));
    }

    void errors_data()
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

        QTest::newRow("truncated varint (tag)") << magic() + '\x8a' << false << "truncated varint";
        QTest::newRow("truncated varint (length)")
            << magic() + typeMeta + tag(2, 2) + '\x80' << false << "truncated varint";
        QTest::newRow("truncated varint (value)")
            << magic() + typeMeta + tag(9, 0) + "\xff\xff" << false << "truncated varint";
        QTest::newRow("length beyond the input")
            << magic() + typeMeta + tag(2, 2) + varint(5) + "abcd" << false << "runs past";
        QTest::newRow("huge length")
            << magic() + typeMeta + tag(2, 2) + varint(~quint64(0)) + "abcd" << false
            << "runs past";
        QTest::newRow("length beyond the enclosing message")
            << envelope(kAuthz, kSsar, tag(1, 2) + varint(6) + ld(1, "abcdefgh")) << false
            << "runs past";
        QTest::newRow("overlong varint (11 bytes)")
            << magic() + typeMeta + tag(9, 0) + QByteArray(10, '\x80') + '\x00' << false
            << "longer than 10 bytes";
        QTest::newRow("overlong varint as a tag")
            << magic() + QByteArray(11, '\xff') << false << "longer than 10 bytes";
        QTest::newRow("truncated 64-bit value")
            << magic() + typeMeta + tag(9, 1) + "1234567" << false << "truncated 64-bit";
        QTest::newRow("truncated 32-bit value")
            << magic() + typeMeta + tag(9, 5) + "123" << false << "truncated 32-bit";
        QTest::newRow("wire type 6")
            << magic() + typeMeta + tag(9, 6) << false << "invalid wire type 6";
        QTest::newRow("wire type 7")
            << magic() + typeMeta + tag(9, 7) << false << "invalid wire type 7";
        QTest::newRow("field number 0")
            << magic() + typeMeta + tag(0, 0) + '\x01' << false << "invalid field number 0";
        QTest::newRow("field number beyond 2^29-1")
            << magic() + typeMeta + varint(quint64(1) << 32) + '\x01' << false
            << "invalid field number";
        QTest::newRow("end group outside a group")
            << magic() + typeMeta + tag(9, 4) << false << "outside a group";
        QTest::newRow("group ended by another field number")
            << magic() + typeMeta + tag(9, 3) + tag(8, 4) << false << "ended as group 8";
        QTest::newRow("unterminated group")
            << magic() + typeMeta + tag(9, 3) + tag(1, 0) + '\x01' << false << "not terminated";
        QTest::newRow("known field with the wrong wire type")
            << envelope(kAuthz, kSsar, ld(1, tag(1, 0) + '\x01')) << false
            << "field 1 (name) is varint, expected length-delimited";
        QTest::newRow("bool as a string")
            << envelope(kAuthz, kSsar, ld(3, ld(1, "true"))) << false
            << "field 1 (allowed) is length-delimited, expected varint";
        QTest::newRow("typeMeta as a varint")
            << magic() + tag(1, 0) + '\x01' << false << "field 1 (typeMeta) is varint";
        QTest::newRow("malformed metadata inside raw")
            << envelope(kAuthz, kSsar, ld(1, tag(11, 2) + varint(3) + tag(1, 2) + varint(9) + 'x'))
            << false << "runs past";
        QTest::newRow("15 nested groups (depth 17)")
            << envelope(kAuthz, kSsar, nestedGroups(15)) << false << "nested deeper than 16";
        QTest::newRow("10000 nested groups")
            << envelope(kAuthz, kSsar, nestedGroups(10000)) << false << "nested deeper than 16";
        QTest::newRow("nested groups in the envelope")
            << magic() + typeMeta + nestedGroups(16) << false << "nested deeper than 16";

        QTest::newRow("kind Pod") << envelope("v1", "Pod", ld(1, ld(1, "p"))) << true << "Pod (v1)";
        QTest::newRow("kind Pod with a garbage raw object")
            << envelope("v1", "Pod", "\xff\xff\xff") << true << "not supported";
        QTest::newRow("SelfSubjectAccessReview of another version")
            << envelope("authorization.k8s.io/v1beta1", kSsar, {}) << true << "not supported";
        QTest::newRow("SelfSubjectReview of another group")
            << envelope(kAuthz, "SelfSubjectReview", {}) << true << "not supported";
        QTest::newRow("kind in another case")
            << envelope(kAuthz, "selfsubjectaccessreview", {}) << true << "not supported";
    }

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

    void errorSaysWhere()
    {
        // 4 magic bytes, typeMeta (2 + 50), then the raw field's tag at byte 56 and its
        // length varint at byte 57.
        const QByteArray body =
            magic() + ld(1, ld(1, kAuthz) + ld(2, kSsar)) + tag(2, 2) + varint(99) + "x";
        const auto result = decodeProtobufObject(body);
        QVERIFY(std::holds_alternative<ProtobufError>(result));
        QCOMPARE(std::get<ProtobufError>(result).message,
                 QStringLiteral("malformed protobuf body at byte 57: length 99 runs past the end "
                                "of its message (1 bytes left)"));
    }

    // Every prefix of the captured body is refused, except those ending between two fields of
    // the envelope, which are complete messages: protobuf has no end marker.
    void truncatedCapturedBody()
    {
        const QByteArray body = captured();
        QCOMPARE(body.size(), 129);
        const QByteArray full =
            compactObject(QJsonDocument::fromJson(kCanIListNamespacesJson).object());
        const QByteArray noRaw = R"({"apiVersion":"authorization.k8s.io/v1",)"
                                 R"("kind":"SelfSubjectAccessReview","metadata":{},"spec":{}})";
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
