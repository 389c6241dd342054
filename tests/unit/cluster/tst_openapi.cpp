// Unit tests of the OpenAPI v3 documents and field validation (backend/cluster/openapi.*):
// what kubectl reads from /openapi/v3 (the fieldValidation parameter of each kind's PATCH,
// the schemas behind `kubectl explain`, the strategic merge keys) and how unknown fields are
// found and dropped.
#include "cluster/openapi.h"
#include "cluster/strictjson.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace Gatehouse::Cluster;

namespace {

QJsonObject parse(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

QJsonObject coreV1()
{
    const OpenApiDocument *doc = openApiV3Document(QStringLiteral("api/v1"));
    return doc ? parse(doc->body) : QJsonObject();
}

QJsonObject schema(const QJsonObject &doc, const QString &name)
{
    return doc[QStringLiteral("components")][QStringLiteral("schemas")][name].toObject();
}

QJsonObject prop(const QJsonObject &schema, const QString &name)
{
    return schema[QStringLiteral("properties")][name].toObject();
}

QString refOf(const QJsonObject &property)
{
    return property[QStringLiteral("allOf")][0][QStringLiteral("$ref")].toString();
}

// Every "$ref" below value, and every "description".
void walk(const QJsonValue &value, QStringList *refs, QStringList *descriptions)
{
    if (value.isArray()) {
        for (const QJsonValue v : value.toArray())
            walk(v, refs, descriptions);
        return;
    }
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == QLatin1String("$ref"))
            refs->append(it.value().toString());
        else if (it.key() == QLatin1String("description") && it.value().isString())
            descriptions->append(it.value().toString());
        else
            walk(it.value(), refs, descriptions);
    }
}

Gatehouse::Core::HttpRequest get(const QString &path, const QString &query = {})
{
    Gatehouse::Core::HttpRequest r;
    r.method = "GET";
    r.path = path;
    r.query = QUrlQuery(query);
    return r;
}

} // namespace

class TestOpenApi : public QObject
{
    Q_OBJECT

private slots:
    void duplicateFieldsAreNamedAsKubeDoes_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("duplicates");
        QTest::newRow("none") << QByteArray(R"({"a":1,"b":{"a":2}})") << QStringList();
        QTest::newRow("top level") << QByteArray(R"({"a":1,"a":2,"a":3})")
                                   << QStringList{QStringLiteral("a"), QStringLiteral("a")};
        QTest::newRow("nested, in list items")
            << QByteArray(
                   R"({"spec":{"containers":[{"name":"x"},{"name":"y","name":"z"}]},"spec":{}})")
            << QStringList{QStringLiteral("spec.containers[1].name"), QStringLiteral("spec")};
        QTest::newRow("escaped names are the same name")
            << QByteArray("{\"a\\u0062\":1,\"ab\":2,\"q\\\"\":3,\"q\\\"\":4}")
            << QStringList{QStringLiteral("ab"), QStringLiteral("q\"")};
        QTest::newRow("values and names that look alike")
            << QByteArray(R"({"a":"b","b":"a","c":["a","a"],"d":{"e":1},"e":2})") << QStringList();
        QTest::newRow("malformed: what came before the fault")
            << QByteArray(R"({"a":1,"a":)") << QStringList{QStringLiteral("a")};
        QTest::newRow("deep nesting stops, no crash") << QByteArray(5000, '[') << QStringList();
    }

    void duplicateFieldsAreNamedAsKubeDoes()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, duplicates);
        QCOMPARE(duplicateJsonFields(json), duplicates);
    }

    void rootNamesEveryGroupVersionWithItsHash()
    {
        const QJsonObject paths = parse(openApiV3Root())[QStringLiteral("paths")].toObject();
        QCOMPARE(paths.keys(), (QStringList{QStringLiteral("api/v1"),
                                            QStringLiteral("apis/admissionregistration.k8s.io/v1"),
                                            QStringLiteral("apis/authentication.k8s.io/v1"),
                                            QStringLiteral("apis/authorization.k8s.io/v1"),
                                            QStringLiteral("apis/events.k8s.io/v1"),
                                            QStringLiteral("apis/rbac.authorization.k8s.io/v1")}));
        for (auto it = paths.begin(); it != paths.end(); ++it) {
            const OpenApiDocument *doc = openApiV3Document(it.key());
            QVERIFY(doc);
            QCOMPARE(
                doc->hash,
                QCryptographicHash::hash(doc->body, QCryptographicHash::Sha512).toHex().toUpper());
            QCOMPARE(it.value()[QStringLiteral("serverRelativeURL")].toString(),
                     QStringLiteral("/openapi/v3/") + it.key() + QStringLiteral("?hash=") +
                         QString::fromLatin1(doc->hash));
        }
        QVERIFY(!openApiV3Document(QStringLiteral("apis/apps/v1")));
    }

    // kubectl's QueryParamVerifierV3: the kind's PATCH operation, found by its
    // x-kubernetes-group-version-kind, has the fieldValidation query parameter.
    void patchOperationsOfferFieldValidation()
    {
        const QJsonObject paths = coreV1()[QStringLiteral("paths")].toObject();
        for (const char *path : {"/api/v1/nodes/{name}", "/api/v1/namespaces/{name}",
                                 "/api/v1/namespaces/{namespace}/pods/{name}",
                                 "/api/v1/namespaces/{namespace}/services/{name}/status"}) {
            const QJsonObject patch =
                paths[QLatin1String(path)][QStringLiteral("patch")].toObject();
            QVERIFY2(!patch.isEmpty(), path);
            const QJsonObject kind =
                patch[QStringLiteral("x-kubernetes-group-version-kind")].toObject();
            QCOMPARE(kind[QStringLiteral("version")].toString(), QStringLiteral("v1"));
            QCOMPARE(kind[QStringLiteral("group")].toString(), QString());
            QStringList query;
            for (const QJsonValue p : patch[QStringLiteral("parameters")].toArray())
                if (p[QStringLiteral("in")].toString() == QLatin1String("query"))
                    query.append(p[QStringLiteral("name")].toString());
            QVERIFY2(query.contains(QStringLiteral("fieldValidation")), path);
            QVERIFY2(query.contains(QStringLiteral("fieldManager")), path);
        }
        const QJsonObject rbac =
            parse(openApiV3Document(QStringLiteral("apis/rbac.authorization.k8s.io/v1"))->body);
        const QJsonObject rolePatch = rbac[QStringLiteral("paths")][QStringLiteral(
            "/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}/roles/{name}")]
                                          [QStringLiteral("patch")]
                                              .toObject();
        QCOMPARE(
            rolePatch[QStringLiteral("x-kubernetes-group-version-kind")][QStringLiteral("kind")]
                .toString(),
            QStringLiteral("Role"));
    }

    // What kubectl explain node.spec shows.
    void schemasCarryKindsDescriptionsAndReferences()
    {
        const QJsonObject doc = coreV1();
        const QJsonObject node = schema(doc, QStringLiteral("io.k8s.api.core.v1.Node"));
        QCOMPARE(node[QStringLiteral("x-kubernetes-group-version-kind")].toArray(),
                 (QJsonArray{QJsonObject{{QStringLiteral("group"), QString()},
                                         {QStringLiteral("kind"), QStringLiteral("Node")},
                                         {QStringLiteral("version"), QStringLiteral("v1")}}}));
        QVERIFY(node[QStringLiteral("description")].toString().startsWith(
            QStringLiteral("Node is a worker node in Kubernetes.")));
        QCOMPARE(prop(node, QStringLiteral("kind"))[QStringLiteral("type")].toString(),
                 QStringLiteral("string"));
        QCOMPARE(refOf(prop(node, QStringLiteral("spec"))),
                 QStringLiteral("#/components/schemas/io.k8s.api.core.v1.NodeSpec"));
        QCOMPARE(
            refOf(prop(node, QStringLiteral("metadata"))),
            QStringLiteral("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));

        const QJsonObject spec = schema(doc, QStringLiteral("io.k8s.api.core.v1.NodeSpec"));
        QCOMPARE(prop(spec, QStringLiteral("podCIDR")),
                 (QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                              {QStringLiteral("description"),
                               QStringLiteral(
                                   "PodCIDR represents the pod IP range assigned to the node.")}}));
        QCOMPARE(prop(spec, QStringLiteral("unschedulable"))[QStringLiteral("type")].toString(),
                 QStringLiteral("boolean"));
        const QJsonObject taints = prop(spec, QStringLiteral("taints"));
        QCOMPARE(taints[QStringLiteral("type")].toString(), QStringLiteral("array"));
        QCOMPARE(taints[QStringLiteral("items")][QStringLiteral("allOf")][0][QStringLiteral("$ref")]
                     .toString(),
                 QStringLiteral("#/components/schemas/io.k8s.api.core.v1.Taint"));

        // Special types as kube writes them.
        QCOMPARE(
            schema(doc, QStringLiteral(
                            "io.k8s.apimachinery.pkg.apis.meta.v1.Time"))[QStringLiteral("format")]
                .toString(),
            QStringLiteral("date-time"));
        QCOMPARE(
            schema(doc,
                   QStringLiteral(
                       "io.k8s.apimachinery.pkg.util.intstr.IntOrString"))[QStringLiteral("format")]
                .toString(),
            QStringLiteral("int-or-string"));
        QCOMPARE(
            schema(doc,
                   QStringLiteral(
                       "io.k8s.apimachinery.pkg.api.resource.Quantity"))[QStringLiteral("oneOf")]
                .toArray()
                .size(),
            2);

        // Every reference resolves; no Go tag leaks into a description.
        QStringList refs, descriptions;
        walk(doc, &refs, &descriptions);
        QVERIFY(refs.size() > 100);
        for (const QString &r : std::as_const(refs))
            QVERIFY2(!schema(doc, r.mid(int(sizeof "#/components/schemas/") - 1)).isEmpty(),
                     qPrintable(r));
        for (const QString &d : std::as_const(descriptions))
            QVERIFY2(!d.contains(QStringLiteral("+optional")) &&
                         !d.contains(QStringLiteral("+listType")),
                     qPrintable(d));
    }

    void inlineStructsAndMergeKeys()
    {
        const QJsonObject doc = coreV1();
        const QJsonObject probe = schema(doc, QStringLiteral("io.k8s.api.core.v1.Probe"));
        QVERIFY(probe[QStringLiteral("properties")].toObject().contains(QStringLiteral("httpGet")));
        QVERIFY(
            !probe[QStringLiteral("properties")].toObject().contains(QStringLiteral("handler")));
        const QJsonObject containers =
            prop(schema(doc, QStringLiteral("io.k8s.api.core.v1.PodSpec")),
                 QStringLiteral("containers"));
        QCOMPARE(containers[QStringLiteral("x-kubernetes-patch-merge-key")].toString(),
                 QStringLiteral("name"));
        QCOMPARE(containers[QStringLiteral("x-kubernetes-patch-strategy")].toString(),
                 QStringLiteral("merge"));
        QCOMPARE(containers[QStringLiteral("x-kubernetes-list-type")].toString(),
                 QStringLiteral("map"));
        QCOMPARE(containers[QStringLiteral("x-kubernetes-list-map-keys")].toArray(),
                 QJsonArray{QStringLiteral("name")});
    }

    void routes()
    {
        QVERIFY(!openApiV3Response(get(QStringLiteral("/openapi/v2"))));
        QVERIFY(!openApiV3Response(get(QStringLiteral("/api/v1"))));

        const auto root = openApiV3Response(get(QStringLiteral("/openapi/v3")));
        QVERIFY(root);
        QCOMPARE(root->status, 200);
        QCOMPARE(root->body, openApiV3Root());
        QCOMPARE(root->header("Cache-Control"), QByteArray("no-cache, private"));
        QCOMPARE(openApiV3Response(get(QStringLiteral("/openapi/v3/")))->body, openApiV3Root());

        const OpenApiDocument *doc = openApiV3Document(QStringLiteral("api/v1"));
        const auto current =
            openApiV3Response(get(QStringLiteral("/openapi/v3/api/v1"),
                                  QStringLiteral("hash=") + QString::fromLatin1(doc->hash)));
        QCOMPARE(current->status, 200);
        QCOMPARE(current->body, doc->body);
        QCOMPARE(current->header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(current->header("Cache-Control"), QByteArray("public, immutable"));
        QCOMPARE(current->header("Etag"), '"' + doc->hash + '"');

        const auto old = openApiV3Response(
            get(QStringLiteral("/openapi/v3/api/v1"), QStringLiteral("hash=ABC")));
        QCOMPARE(old->status, 301);
        QCOMPARE(old->header("Location"), "/openapi/v3/api/v1?hash=" + doc->hash);

        auto conditional = get(QStringLiteral("/openapi/v3/api/v1"));
        conditional.headers.append({"if-none-match", '"' + doc->hash + '"'});
        const auto notModified = openApiV3Response(conditional);
        QCOMPARE(notModified->status, 304);
        QVERIFY(notModified->body.isEmpty());

        QCOMPARE(openApiV3Response(get(QStringLiteral("/openapi/v3/apis/apps/v1")))->status, 404);
    }

    void unknownFieldsAreNamedAndDropped()
    {
        QJsonObject node = parse(
            R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":{"any":"key"}},)"
            R"("spec":{"foo":1,"taints":[{"key":"a","effect":"NoSchedule"},{"key":"b","bar":true}],)"
            R"("$patch":"merge"},"status":{"capacity":{"cpu":"2"}},"extra":{}})");
        const QStringList unknown =
            pruneUnknownFields(&node, QStringLiteral("v1"), QStringLiteral("Node"));
        QCOMPARE(unknown, (QStringList{QStringLiteral("extra"), QStringLiteral("spec.foo"),
                                       QStringLiteral("spec.taints[1].bar")}));
        QCOMPARE(node,
                 parse(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":)"
                       R"({"any":"key"}},"spec":{"taints":[{"key":"a","effect":"NoSchedule"},)"
                       R"({"key":"b"}],"$patch":"merge"},"status":{"capacity":{"cpu":"2"}}})"));

        // Inline structs: a probe's httpGet is known.
        QJsonObject pod = parse(R"({"spec":{"containers":[{"name":"c","livenessProbe":{"httpGet":)"
                                R"({"path":"/"},"handler":{}}}]}})");
        QCOMPARE(pruneUnknownFields(&pod, QStringLiteral("v1"), QStringLiteral("Pod")),
                 QStringList{QStringLiteral("spec.containers[0].livenessProbe.handler")});

        QJsonObject role = parse(R"({"rules":[{"verbs":["get"],"resource":["pods"]}]})");
        QCOMPARE(pruneUnknownFields(&role, QStringLiteral("rbac.authorization.k8s.io/v1"),
                                    QStringLiteral("Role")),
                 QStringList{QStringLiteral("rules[0].resource")});

        QJsonObject other = parse(R"({"spec":{"anything":1}})");
        QVERIFY(pruneUnknownFields(&other, QStringLiteral("apps/v1"), QStringLiteral("Deployment"))
                    .isEmpty());
        QCOMPARE(other, parse(R"({"spec":{"anything":1}})"));
    }
};

int runOpenApiTests(int argc, char **argv)
{
    TestOpenApi t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_openapi.moc"
