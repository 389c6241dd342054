// Unit tests of the admission webhooks' pure parts (backend/cluster/admissionwebhooks.*): which
// requests a webhook's rules and selectors take, kube's defaults and validation messages for a
// configuration, and how an answer (or a broken one) becomes a verdict. Calling real webhooks
// over TLS is tests/e2e/admissionwebhooks.test.mjs.
#include "cluster/admissionwebhooks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Gatehouse::Cluster;

namespace {

QJsonObject parsedObject(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

// A configuration with one webhook, defaults applied, as stored.
AdmissionWebhook hook(const QByteArray &webhookJson, bool mutating = false)
{
    QJsonObject config{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("c")}}},
        {QStringLiteral("webhooks"), QJsonArray{parsedObject(webhookJson)}}};
    defaultWebhookConfiguration(config, mutating);
    return webhooksOf(config, mutating).value(0);
}

WebhookAttributes nodeUpdate()
{
    WebhookAttributes a;
    a.operation = QStringLiteral("UPDATE");
    a.version = QStringLiteral("v1");
    a.resource = QStringLiteral("nodes");
    a.kind = QStringLiteral("Node");
    a.name = QStringLiteral("node-1");
    a.object =
        parsedObject(R"({"kind":"Node","metadata":{"name":"node-1","labels":{"team":"a"}}})");
    a.oldObject = parsedObject(R"({"kind":"Node","metadata":{"name":"node-1"}})");
    return a;
}

QStringList messages(const QList<StatusCause> &causes)
{
    QStringList out;
    for (const StatusCause &c : causes)
        out.append(c.field + QStringLiteral(": ") + c.message);
    return out;
}

QByteArray review(const char *response)
{
    return QByteArray(
               R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":)") +
           response + '}';
}

// An answer (uid "u") with a JSONPatch and warnings.
QByteArray withPatch(bool allowed, const QByteArray &patch, const QJsonArray &warnings)
{
    const QJsonObject response{{QStringLiteral("uid"), QStringLiteral("u")},
                               {QStringLiteral("allowed"), allowed},
                               {QStringLiteral("patchType"), QStringLiteral("JSONPatch")},
                               {QStringLiteral("patch"), QString::fromLatin1(patch.toBase64())},
                               {QStringLiteral("warnings"), warnings}};
    return review(QJsonDocument(response).toJson(QJsonDocument::Compact));
}

} // namespace

class TestAdmissionWebhooks : public QObject
{
    Q_OBJECT

private slots:
    void rulesMatchLikeKube()
    {
        const AdmissionWebhook nodes = hook(
            R"({"name":"a.b.c","rules":[{"operations":["UPDATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["nodes"]}]})");
        WebhookAttributes a = nodeUpdate();
        QVERIFY(matches(nodes, a));
        a.operation = QStringLiteral("CREATE");
        QVERIFY(!matches(nodes, a));
        a = nodeUpdate();
        a.subresource = QStringLiteral("status"); // "nodes" is the main resource only
        QVERIFY(!matches(nodes, a));
        QVERIFY(matches(
            hook(
                R"({"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["nodes/*"]}]})"),
            a));
        QVERIFY(matches(
            hook(
                R"({"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*/*"]}]})"),
            a));
        QVERIFY(!matches(
            hook(
                R"({"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"]}]})"),
            a));
        a = nodeUpdate();
        QVERIFY(!matches(
            hook(
                R"({"rules":[{"operations":["*"],"apiGroups":["apps"],"apiVersions":["*"],"resources":["*"]}]})"),
            a));

        // Scope: a node is cluster-scoped; a namespace object counts as cluster-scoped too.
        const char *namespaced =
            R"({"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"],"scope":"Namespaced"}]})";
        const char *cluster =
            R"({"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"],"scope":"Cluster"}]})";
        QVERIFY(!matches(hook(namespaced), a));
        QVERIFY(matches(hook(cluster), a));
        WebhookAttributes pod = a;
        pod.resource = QStringLiteral("pods");
        pod.namespaceName = QStringLiteral("team-a");
        QVERIFY(matches(hook(namespaced), pod));
        QVERIFY(!matches(hook(cluster), pod));
        WebhookAttributes ns = a;
        ns.resource = QStringLiteral("namespaces");
        ns.namespaceName = QStringLiteral("team-a");
        QVERIFY(!matches(hook(namespaced), ns));
        QVERIFY(matches(hook(cluster), ns));
    }

    void selectorsChooseObjectsAndNamespaces()
    {
        const char *all =
            R"("rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"]}])";
        WebhookAttributes a = nodeUpdate();
        // The object selector takes the new object or the old one.
        QVERIFY(matches(
            hook(QByteArray("{") + all + R"(,"objectSelector":{"matchLabels":{"team":"a"}}})"), a));
        QVERIFY(!matches(
            hook(QByteArray("{") + all + R"(,"objectSelector":{"matchLabels":{"team":"b"}}})"), a));
        a.object = parsedObject(R"({"metadata":{"labels":{}}})");
        a.oldObject = parsedObject(R"({"metadata":{"labels":{"team":"a"}}})");
        QVERIFY(matches(
            hook(QByteArray("{") + all + R"(,"objectSelector":{"matchLabels":{"team":"a"}}})"), a));
        QVERIFY(matches(
            hook(
                QByteArray("{") + all +
                R"(,"objectSelector":{"matchExpressions":[{"key":"skip","operator":"DoesNotExist"}]}})"),
            a));
        const AdmissionWebhook notA = hook(
            QByteArray("{") + all +
            R"(,"objectSelector":{"matchExpressions":[{"key":"team","operator":"NotIn","values":["a"]}]}})");
        QVERIFY(matches(notA, a)); // the new object has no team label
        a.object = a.oldObject;
        QVERIFY(!matches(notA, a));

        // The namespace selector never exempts a cluster-scoped object that is not a namespace.
        const AdmissionWebhook enforced =
            hook(QByteArray("{") + all +
                 R"(,"namespaceSelector":{"matchLabels":{"policy":"enforced"}}})");
        QVERIFY(matches(enforced, nodeUpdate()));
        WebhookAttributes pod = nodeUpdate();
        pod.resource = QStringLiteral("pods");
        pod.namespaceName = QStringLiteral("team-a");
        QVERIFY(!matches(enforced, pod));
        pod.namespaceLabels = parsedObject(R"({"policy":"enforced"})");
        QVERIFY(matches(enforced, pod));
        const AdmissionWebhook exists = hook(
            QByteArray("{") + all +
            R"(,"namespaceSelector":{"matchExpressions":[{"key":"policy","operator":"In","values":["enforced","audit"]}]}})");
        QVERIFY(matches(exists, pod));
    }

    void defaultsAreKubes()
    {
        QJsonObject config = parsedObject(
            R"({"webhooks":[{"name":"a.b.c","clientConfig":{"service":{"namespace":"n","name":"s"}},"rules":[{"operations":["*"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"]}]}]})");
        defaultWebhookConfiguration(config, true);
        const QJsonObject w = config[QStringLiteral("webhooks")][0].toObject();
        QCOMPARE(w[QStringLiteral("failurePolicy")].toString(), QStringLiteral("Fail"));
        QCOMPARE(w[QStringLiteral("matchPolicy")].toString(), QStringLiteral("Equivalent"));
        QCOMPARE(w[QStringLiteral("timeoutSeconds")].toInt(), 10);
        QCOMPARE(w[QStringLiteral("reinvocationPolicy")].toString(), QStringLiteral("Never"));
        QCOMPARE(w[QStringLiteral("namespaceSelector")], QJsonValue(QJsonObject()));
        QCOMPARE(w[QStringLiteral("objectSelector")], QJsonValue(QJsonObject()));
        QCOMPARE(w[QStringLiteral("rules")][0][QStringLiteral("scope")].toString(),
                 QStringLiteral("*"));
        QCOMPARE(
            w[QStringLiteral("clientConfig")][QStringLiteral("service")][QStringLiteral("port")]
                .toInt(),
            443);
        const AdmissionWebhook h = webhooksOf(config, true).value(0);
        QCOMPARE(h.displayUrl(), QStringLiteral("https://s.n.svc:443"));
        QVERIFY(!h.failOpen);
        QVERIFY(!h.reinvokeIfNeeded);
    }

    void validationSpeaksKube()
    {
        QJsonObject config = parsedObject(R"({"webhooks":[
            {"name":"ab","clientConfig":{"url":"https:\/\/u:p@example.com/x?y=1"},"rules":[{"operations":["CREATE","*"],"apiGroups":[],"apiVersions":["v1"],"resources":["a/b/c"],"scope":"Everywhere"}],
             "failurePolicy":"Sometimes","sideEffects":"Unknown","admissionReviewVersions":["v1beta1"],"timeoutSeconds":0,
             "namespaceSelector":{"matchExpressions":[{"key":"k","operator":"In"},{"key":"k","operator":"Exists","values":["x"]},{"key":"k","operator":"Like"}]}},
            {"name":"ab","clientConfig":{"service":{"name":"","namespace":"n","path":"x","port":70000},"caBundle":"bm90IGEgY2VydGlmaWNhdGU="},"rules":[],"sideEffects":"None","admissionReviewVersions":[]},
            {"name":"ok.example.com","clientConfig":{},"sideEffects":"None","admissionReviewVersions":["v1"]}]})");
        defaultWebhookConfiguration(config, false);
        const QStringList got = messages(validateWebhookConfiguration(config, false));
        const QStringList expected{
            QStringLiteral("webhooks[0].name: Invalid value: \"ab\": should be a domain with at "
                           "least three segments separated by dots"),
            QStringLiteral("webhooks[0].rules[0].operations: Invalid value: []string{\"CREATE\", "
                           "\"*\"}: if '*' is present, must not specify other operations"),
            QStringLiteral("webhooks[0].rules[0].apiGroups: Required value"),
            QStringLiteral("webhooks[0].rules[0].resources[0]: Invalid value: \"a/b/c\": must be a "
                           "resource or resource/subresource"),
            QStringLiteral("webhooks[0].rules[0].scope: Unsupported value: \"Everywhere\": "
                           "supported values: \"*\", \"Cluster\", \"Namespaced\""),
            QStringLiteral("webhooks[0].failurePolicy: Unsupported value: \"Sometimes\": supported "
                           "values: \"Fail\", \"Ignore\""),
            QStringLiteral("webhooks[0].sideEffects: Unsupported value: \"Unknown\": supported "
                           "values: \"None\", \"NoneOnDryRun\""),
            QStringLiteral("webhooks[0].admissionReviewVersions: Invalid value: "
                           "[]string{\"v1beta1\"}: must include at least one of v1"),
            QStringLiteral("webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must "
                           "be between 1 and 30 seconds"),
            QStringLiteral("webhooks[0].namespaceSelector.matchExpressions[0].values: Required "
                           "value: must be specified when `operator` is 'In' or 'NotIn'"),
            QStringLiteral("webhooks[0].namespaceSelector.matchExpressions[1].values: Forbidden: "
                           "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
            QStringLiteral("webhooks[0].namespaceSelector.matchExpressions[2].operator: Invalid "
                           "value: \"Like\": not a valid selector operator"),
            QStringLiteral(
                "webhooks[0].clientConfig.url: Invalid value: \"https://u:p@example.com/x?y=1\": "
                "user information is not permitted in the URL"),
            QStringLiteral("webhooks[1].name: Invalid value: \"ab\": should be a domain with at "
                           "least three segments separated by dots"),
            QStringLiteral("webhooks[1].name: Duplicate value: \"ab\""),
            QStringLiteral(
                "webhooks[1].admissionReviewVersions: Required value: must specify one of v1"),
            QStringLiteral(
                "webhooks[1].clientConfig.service.name: Required value: service name is required"),
            QStringLiteral("webhooks[1].clientConfig.service.path: Invalid value: \"x\": must "
                           "start with a '/'"),
            QStringLiteral("webhooks[1].clientConfig.service.port: Invalid value: 70000: port is "
                           "not valid: must be between 1 and 65535, inclusive"),
            QStringLiteral("webhooks[1].clientConfig.caBundle: Invalid value: \"...\": no "
                           "PEM-encoded certificate found"),
            QStringLiteral("webhooks[2].clientConfig: Required value: exactly one of url or "
                           "service is required"),
        };
        QCOMPARE(got, expected);
        QVERIFY(
            validateWebhookConfiguration(
                parsedObject(
                    R"({"webhooks":[{"name":"ok.example.com","clientConfig":{"url":"https:\/\/127.0.0.1:8443/v"},"rules":[{"operations":["UPDATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["nodes"],"scope":"*"}],"failurePolicy":"Ignore","matchPolicy":"Exact","sideEffects":"NoneOnDryRun","admissionReviewVersions":["v1beta1","v1"],"timeoutSeconds":30}]})"),
                false)
                .isEmpty());
    }

    void reviewCarriesWhatKubeSends()
    {
        WebhookAttributes a = nodeUpdate();
        a.user.name = QStringLiteral("alice");
        a.user.groups = {QStringLiteral("devs"), QStringLiteral("system:authenticated")};
        a.dryRun = true;
        const QJsonObject r =
            WebhookCaller::review(a, QStringLiteral("uid-1"))[QStringLiteral("request")].toObject();
        QCOMPARE(r[QStringLiteral("uid")].toString(), QStringLiteral("uid-1"));
        QCOMPARE(r[QStringLiteral("operation")].toString(), QStringLiteral("UPDATE"));
        QCOMPARE(r[QStringLiteral("kind")].toObject(),
                 parsedObject(R"({"group":"","version":"v1","kind":"Node"})"));
        QCOMPARE(r[QStringLiteral("requestResource")].toObject(),
                 parsedObject(R"({"group":"","version":"v1","resource":"nodes"})"));
        QCOMPARE(r[QStringLiteral("userInfo")].toObject(),
                 parsedObject(R"({"username":"alice","groups":["devs","system:authenticated"]})"));
        QCOMPARE(r[QStringLiteral("dryRun")].toBool(), true);
        QVERIFY(!r.contains(QStringLiteral("namespace")));
        QVERIFY(!r.contains(QStringLiteral("subResource")));
        a.operation = QStringLiteral("CREATE");
        a.oldObject = QJsonObject();
        const QJsonObject c =
            WebhookCaller::review(a, QStringLiteral("u"))[QStringLiteral("request")].toObject();
        QVERIFY(c[QStringLiteral("oldObject")].isNull());
        QCOMPARE(c[QStringLiteral("options")].toObject(),
                 parsedObject(R"({"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1"})"));
    }

    void answersBecomeVerdicts_data()
    {
        QTest::addColumn<bool>("mutating");
        QTest::addColumn<bool>("failOpen");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");

        const QString failed =
            QStringLiteral("Internal error occurred: failed calling webhook \"w.example.com\": ");
        QTest::newRow("allowed") << false << false << 200
                                 << review(R"({"uid":"u1","allowed":true})") << true << 0
                                 << QString();
        QTest::newRow("denied, kube's wording")
            << false << false << 200
            << review(
                   R"({"uid":"u1","allowed":false,"status":{"code":403,"reason":"Forbidden","message":"no"}})")
            << false << 403
            << QStringLiteral("admission webhook \"w.example.com\" denied the request: no");
        QTest::newRow("denied with a 2xx code: 400")
            << false << false << 200
            << review(R"({"uid":"u1","allowed":false,"status":{"code":200,"message":"no"}})")
            << false << 400
            << QStringLiteral("admission webhook \"w.example.com\" denied the request: no");
        QTest::newRow("denied, the reason only")
            << false << false << 200
            << review(R"({"uid":"u1","allowed":false,"status":{"reason":"Nope"}})") << false << 400
            << QStringLiteral("admission webhook \"w.example.com\" denied the request: Nope");
        QTest::newRow("denied without explanation")
            << false << false << 200 << review(R"({"uid":"u1","allowed":false})") << false << 400
            << QStringLiteral(
                   "admission webhook \"w.example.com\" denied the request without explanation");
        QTest::newRow("wrong uid")
            << false << false << 200 << review(R"({"uid":"u2","allowed":true})") << false << 500
            << failed + QStringLiteral("received invalid webhook response: expected "
                                       "response.uid=\"u1\", got \"u2\"");
        QTest::newRow("wrong uid, failurePolicy Ignore")
            << false << true << 200 << review(R"({"uid":"u2","allowed":true})") << true << 0
            << QString();
        QTest::newRow("no response")
            << false << false << 200
            << QByteArray(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})")
            << false << 500
            << failed +
                   QStringLiteral("received invalid webhook response: webhook response was absent");
        QTest::newRow("another kind")
            << false << false << 200
            << QByteArray(
                   R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","response":{"uid":"u1","allowed":true}})")
            << false << 500
            << failed + QStringLiteral("received invalid webhook response: expected webhook "
                                       "response of admission.k8s.io/v1, Kind=AdmissionReview, got "
                                       "admission.k8s.io/v1beta1, Kind=AdmissionReview");
        QTest::newRow("allowed is not a bool")
            << false << false << 200 << review(R"({"uid":"u1","allowed":"yes"})") << false << 500
            << failed +
                   QStringLiteral(
                       "received invalid webhook response: response.allowed must be true or false");
        QTest::newRow("malformed JSON")
            << false << false << 200 << QByteArray("{\"apiVersion\":") << false << 500
            << failed + QStringLiteral("received invalid webhook response: malformed JSON: "
                                       "unterminated object at offset 14");
        QTest::newRow("HTTP 500")
            << false << false << 500 << QByteArray("oops") << false << 500
            << failed +
                   QStringLiteral("failed to call webhook: Post "
                                  "\"https://h.example.com/v?timeout=10s\": the server responded "
                                  "with the status code 500 but did not return an AdmissionReview");
        QTest::newRow("validating webhook with a patch")
            << false << false << 200
            << review(R"({"uid":"u1","allowed":true,"patchType":"JSONPatch","patch":"W10="})")
            << false << 500
            << failed + QStringLiteral("received invalid webhook response: validating webhook may "
                                       "not return a patch");
        QTest::newRow("patch without patchType")
            << true << false << 200 << review(R"({"uid":"u1","allowed":true,"patch":"W10="})")
            << false << 500
            << failed + QStringLiteral("received invalid webhook response: webhook returned "
                                       "response.patch but not response.patchType");
        QTest::newRow("another patchType")
            << true << false << 200
            << review(R"({"uid":"u1","allowed":true,"patchType":"MergePatch","patch":"W10="})")
            << false << 500
            << failed + QStringLiteral("received invalid webhook response: webhook returned "
                                       "invalid response.patchType of \"MergePatch\"");
        QTest::newRow("patch not base64")
            << true << false << 200
            << review(R"({"uid":"u1","allowed":true,"patchType":"JSONPatch","patch":"!!"})")
            << false << 500
            << failed + QStringLiteral(
                            "received invalid webhook response: response.patch is not base64");
    }

    void answersBecomeVerdicts()
    {
        QFETCH(bool, mutating);
        QFETCH(bool, failOpen);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, allowed);
        QFETCH(int, code);
        QFETCH(QString, message);
        AdmissionWebhook w;
        w.name = QStringLiteral("w.example.com");
        w.url = QStringLiteral("https://h.example.com/v");
        w.mutating = mutating;
        w.failOpen = failOpen;
        const WebhookAnswer a = WebhookCaller::interpret(w, QStringLiteral("u1"), status, body);
        QCOMPARE(a.allowed, allowed);
        if (!allowed) {
            QCOMPARE(a.status.code, code);
            QCOMPARE(a.status.message, message);
            QCOMPARE(a.step().allowed, false);
            QCOMPARE(a.step().plugin, QLatin1String(mutating ? "MutatingAdmissionWebhook"
                                                             : "ValidatingAdmissionWebhook"));
        }
        if (failOpen)
            QVERIFY(a.ignored && a.callFailed);
    }

    void patchesAndWarnings()
    {
        AdmissionWebhook w;
        w.name = QStringLiteral("m.example.com");
        w.mutating = true;
        const QByteArray patch = R"([{"op":"add","path":"/metadata/labels/a","value":"b"}])";
        const WebhookAnswer a = WebhookCaller::interpret(
            w, QStringLiteral("u"), 200,
            withPatch(true, patch,
                      QJsonArray{QStringLiteral("one"), QStringLiteral("two\nlines"), QString(),
                                 QStringLiteral("x"), QStringLiteral("x"), QStringLiteral("x"),
                                 QStringLiteral("x"), QStringLiteral("x"), QStringLiteral("x"),
                                 QStringLiteral("x"), QStringLiteral("x"), QStringLiteral("x")}));
        QVERIFY(a.allowed);
        QCOMPARE(a.patch, patch);
        QVERIFY(a.step().patched);
        // At most ten, control characters removed (they become Warning headers).
        QCOMPARE(a.warnings.size(), 10);
        QCOMPARE(a.warnings.value(1), QStringLiteral("twolines"));
        // A denial carries no patch.
        const WebhookAnswer d = WebhookCaller::interpret(w, QStringLiteral("u"), 200,
                                                         withPatch(false, patch, QJsonArray()));
        QVERIFY(!d.allowed);
        QVERIFY(d.patch.isEmpty());
    }
};

int runAdmissionWebhookTests(int argc, char **argv)
{
    TestAdmissionWebhooks t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_admissionwebhooks.moc"
