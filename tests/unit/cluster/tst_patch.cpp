#include "cluster/patch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Gatehouse::Cluster;

namespace {

// Any JSON value from text, scalars included (QJsonDocument only parses objects and arrays);
// Undefined if the text is not JSON.
QJsonValue json(const QByteArray &text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson('[' + text + ']', &error);
    if (error.error != QJsonParseError::NoError || document.array().size() != 1)
        return QJsonValue(QJsonValue::Undefined);
    return document.array().at(0);
}

// Canonical compact text: object keys sorted, so two values compare equal as text exactly
// when they are equal as JSON.
QByteArray compact(const QJsonValue &value)
{
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

// The columns of every table of patch outcomes. status 0: the patch applies and gives
// expected; otherwise it fails with that status and, unless message is empty, exactly that
// message.
void addOutcomeColumns()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
}

void applies(const char *name, const QByteArray &target, const QByteArray &patch,
             const QByteArray &expected)
{
    QTest::newRow(name) << target << patch << expected << 0 << QString();
}

void fails(const char *name, const QByteArray &target, const QByteArray &patch, int status,
           const QString &message = QString())
{
    QTest::newRow(name) << target << patch << QByteArray() << status << message;
}

template <typename T>
void checkOutcome(const std::variant<T, PatchError> &result, const QByteArray &expected, int status,
                  const QString &message)
{
    if (status == 0) {
        const PatchError *e = std::get_if<PatchError>(&result);
        QVERIFY2(!e, qPrintable(e ? QString::number(e->status) + u' ' + e->message : QString()));
        const QJsonValue want = json(expected);
        QVERIFY2(!want.isUndefined(), "the expected result in the table is not JSON");
        QCOMPARE(compact(QJsonValue(std::get<T>(result))), compact(want));
        QCOMPARE(QJsonValue(std::get<T>(result)), want);
        return;
    }
    QVERIFY2(std::holds_alternative<PatchError>(result),
             std::holds_alternative<T>(result)
                 ? compact(QJsonValue(std::get<T>(result))).constData()
                 : "");
    const PatchError &error = std::get<PatchError>(result);
    QCOMPARE(error.status, status);
    QVERIFY(!error.message.isEmpty());
    QVERIFY2(!error.message.contains(u'\n') && !error.message.contains(u'\r'),
             qPrintable(error.message));
    if (!message.isEmpty())
        QCOMPARE(error.message, message);
}

// levels objects nested in each other: {"a":{"a":...{"a":1}...}}.
QByteArray nested(int levels)
{
    return QByteArray(R"({"a":)").repeated(levels) + '1' + QByteArray("}").repeated(levels);
}

} // namespace

class TestPatch : public QObject
{
    Q_OBJECT

private slots:
    void contentType_data();
    void contentType();
    void mergePatch_data();
    void mergePatch();
    void mergePatchTooDeepLeavesTarget();
    void jsonPatch_data();
    void jsonPatch();
    void jsonPatchLimits();
    void strategicMerge_data();
    void strategicMerge();
    void applyPatch_data();
    void applyPatch();
    void depthLimit_data();
    void depthLimit();
};

void TestPatch::contentType_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<int>("expected"); // a PatchType, or -1 for none

    const int merge = int(PatchType::Merge);
    const int strategic = int(PatchType::StrategicMerge);
    const int jsonPatch = int(PatchType::Json);
    QTest::newRow("merge") << QByteArray("application/merge-patch+json") << merge;
    QTest::newRow("strategic") << QByteArray("application/strategic-merge-patch+json") << strategic;
    QTest::newRow("json patch") << QByteArray("application/json-patch+json") << jsonPatch;
    QTest::newRow("charset parameter")
        << QByteArray("application/merge-patch+json; charset=utf-8") << merge;
    QTest::newRow("parameter without space")
        << QByteArray("application/json-patch+json;charset=UTF-8") << jsonPatch;
    QTest::newRow("several parameters")
        << QByteArray("application/strategic-merge-patch+json; charset=utf-8; q=1") << strategic;
    QTest::newRow("mixed case") << QByteArray("Application/JSON-Patch+JSON") << jsonPatch;
    QTest::newRow("upper case with parameter")
        << QByteArray("APPLICATION/STRATEGIC-MERGE-PATCH+JSON; Charset=UTF-8") << strategic;
    QTest::newRow("surrounding whitespace")
        << QByteArray("  application/merge-patch+json ;charset=utf-8 ") << merge;
    QTest::newRow("plain json") << QByteArray("application/json") << -1;
    QTest::newRow("server-side apply") << QByteArray("application/apply-patch+yaml") << -1;
    QTest::newRow("empty") << QByteArray() << -1;
    QTest::newRow("only parameters") << QByteArray("; charset=utf-8") << -1;
    QTest::newRow("without +json") << QByteArray("application/merge-patch") << -1;
    QTest::newRow("longer subtype") << QByteArray("application/merge-patch+json-seq") << -1;
    QTest::newRow("type inside a parameter")
        << QByteArray("text/plain; x=application/json-patch+json") << -1;
}

void TestPatch::contentType()
{
    QFETCH(QByteArray, contentType);
    QFETCH(int, expected);
    const std::optional<PatchType> type = patchTypeFromContentType(contentType);
    QCOMPARE(type ? int(*type) : -1, expected);
}

void TestPatch::mergePatch_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");

    // RFC 7386 appendix A, every example.
    const auto rfc = [](const char *name, const char *target, const char *patch,
                        const char *expected) {
        QTest::newRow(name) << QByteArray(target) << QByteArray(patch) << QByteArray(expected);
    };
    rfc("A.1 replace member", R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})");
    rfc("A.2 add member", R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})");
    rfc("A.3 null removes", R"({"a":"b"})", R"({"a":null})", R"({})");
    rfc("A.4 null removes one", R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})");
    rfc("A.5 string replaces array", R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})");
    rfc("A.6 array replaces string", R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})");
    rfc("A.7 nested merge", R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})",
        R"({"a":{"b":"d"}})");
    rfc("A.8 array replaced whole", R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})");
    rfc("A.9 array patch on array", R"(["a","b"])", R"(["c","d"])", R"(["c","d"])");
    rfc("A.10 array patch on object", R"({"a":"b"})", R"(["c"])", R"(["c"])");
    rfc("A.11 null patch", R"({"a":"foo"})", "null", "null");
    rfc("A.12 string patch", R"({"a":"foo"})", R"("bar")", R"("bar")");
    rfc("A.13 existing null kept", R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})");
    rfc("A.14 object patch on array", R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})");
    rfc("A.15 nulls in new objects dropped", R"({})", R"({"a":{"bb":{"ccc":null}}})",
        R"({"a":{"bb":{}}})");

    rfc("kubectl label set", R"({"metadata":{"name":"n1","labels":{"a":"1"}}})",
        R"({"metadata":{"labels":{"foo":"bar"}}})",
        R"({"metadata":{"name":"n1","labels":{"a":"1","foo":"bar"}}})");
    rfc("kubectl label remove", R"({"metadata":{"name":"n1","labels":{"a":"1","foo":"bar"}}})",
        R"({"metadata":{"labels":{"foo":null}}})",
        R"({"metadata":{"name":"n1","labels":{"a":"1"}}})");
    rfc("null for an absent member", R"({"a":1})", R"({"b":null})", R"({"a":1})");
    rfc("empty patch", R"({"a":1,"b":[1,2]})", R"({})", R"({"a":1,"b":[1,2]})");
    rfc("arrays taken verbatim, nulls included", R"({"a":[1,2]})", R"({"a":[null,{"b":null}]})",
        R"({"a":[null,{"b":null}]})");
    rfc("object patch on scalar member", R"({"a":1})", R"({"a":{"b":null,"c":2}})",
        R"({"a":{"c":2}})");
    rfc("no directives in merge patches", R"({"a":{"b":1}})", R"({"a":{"$patch":"delete"}})",
        R"({"a":{"$patch":"delete","b":1}})");
    rfc("numbers", R"({"a":1})", R"({"a":1.5,"b":-2,"c":1e3})", R"({"a":1.5,"b":-2,"c":1000})");
}

void TestPatch::mergePatch()
{
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);
    const QJsonValue targetValue = json(target);
    const QJsonValue patchValue = json(patch);
    QVERIFY(!targetValue.isUndefined() && !patchValue.isUndefined());
    const QJsonValue result = applyMergePatch(targetValue, patchValue);
    QCOMPARE(compact(result), compact(json(expected)));
    QCOMPARE(result, json(expected));
}

void TestPatch::mergePatchTooDeepLeavesTarget()
{
    // applyMergePatch cannot report an error: past 64 levels it leaves the target alone
    // (applyPatch answers 422, see depthLimit).
    const QJsonValue target = json(R"({"keep":true})");
    QCOMPARE(applyMergePatch(target, json(nested(65))), target);
    const QJsonValue merged = applyMergePatch(target, json(nested(64)));
    QCOMPARE(merged.toObject().value(QLatin1String("keep")), QJsonValue(true));
    QCOMPARE(merged.toObject().value(QLatin1String("a")), json(nested(63)));
}

void TestPatch::jsonPatch_data()
{
    addOutcomeColumns();

    // RFC 6902 appendix A (A.13, a duplicate member, only shows in the text: see applyPatch).
    applies("A.1 add object member", R"({"foo":"bar"})",
            R"([{"op":"add","path":"/baz","value":"qux"}])", R"({"baz":"qux","foo":"bar"})");
    applies("A.2 add array element", R"({"foo":["bar","baz"]})",
            R"([{"op":"add","path":"/foo/1","value":"qux"}])", R"({"foo":["bar","qux","baz"]})");
    applies("A.3 remove object member", R"({"baz":"qux","foo":"bar"})",
            R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})");
    applies("A.4 remove array element", R"({"foo":["bar","qux","baz"]})",
            R"([{"op":"remove","path":"/foo/1"}])", R"({"foo":["bar","baz"]})");
    applies("A.5 replace value", R"({"baz":"qux","foo":"bar"})",
            R"([{"op":"replace","path":"/baz","value":"boo"}])", R"({"baz":"boo","foo":"bar"})");
    applies("A.6 move value", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
            R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
            R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})");
    applies("A.7 move array element", R"({"foo":["all","grass","cows","eat"]})",
            R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
            R"({"foo":["all","cows","eat","grass"]})");
    applies(
        "A.8 test success", R"({"baz":"qux","foo":["a",2,"c"]})",
        R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
        R"({"baz":"qux","foo":["a",2,"c"]})");
    fails("A.9 test failure", R"({"baz":"qux"})", R"([{"op":"test","path":"/baz","value":"bar"}])",
          422, R"(JSON patch test failed: /baz is "qux", expected "bar")");
    applies("A.10 add nested member object", R"({"foo":"bar"})",
            R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
            R"({"foo":"bar","child":{"grandchild":{}}})");
    applies("A.11 unrecognized members ignored", R"({"foo":"bar"})",
            R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])",
            R"({"foo":"bar","baz":"qux"})");
    fails("A.12 add to nonexistent target", R"({"foo":"bar"})",
          R"([{"op":"add","path":"/baz/bat","value":"qux"}])", 422,
          "JSON patch operation 0 (add /baz/bat): /baz does not exist");
    fails("A.13 (as often cited) invalid op", R"({"foo":"bar"})",
          R"([{"op":"baz","path":"/baz","value":"qux"}])", 400,
          R"(invalid JSON patch: operation 0: unknown op "baz")");
    applies("A.14 ~ escape ordering", R"({"/":9,"~1":10})",
            R"([{"op":"test","path":"/~01","value":10}])", R"({"/":9,"~1":10})");
    fails("A.15 string is not number", R"({"/":9,"~1":10})",
          R"([{"op":"test","path":"/~01","value":"10"}])", 422,
          R"(JSON patch test failed: /~01 is 10, expected "10")");
    applies("A.16 add array value", R"({"foo":["bar"]})",
            R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
            R"({"foo":["bar",["abc","def"]]})");

    // "-" and array indices.
    applies("- appends", R"({"a":[1,2]})", R"([{"op":"add","path":"/a/-","value":3}])",
            R"({"a":[1,2,3]})");
    applies("- appends to empty array", R"({"a":[]})",
            R"([{"op":"add","path":"/a/-","value":{"x":1}},{"op":"add","path":"/a/-","value":2}])",
            R"({"a":[{"x":1},2]})");
    applies("add at index == size appends", R"({"a":[1,2]})",
            R"([{"op":"add","path":"/a/2","value":3}])", R"({"a":[1,2,3]})");
    applies("add at index 0 prepends", R"({"a":[1,2]})",
            R"([{"op":"add","path":"/a/0","value":0}])", R"({"a":[0,1,2]})");
    fails("add past the end", R"({"a":[1,2]})", R"([{"op":"add","path":"/a/3","value":3}])", 422,
          "JSON patch operation 0 (add /a/3): index 3 is out of range (/a has 2 elements)");
    fails("add at leading-zero index", R"({"a":[1,2]})",
          R"([{"op":"add","path":"/a/01","value":3}])", 422,
          R"(JSON patch operation 0 (add /a/01): "01" is not an array index)");
    fails("add at negative index", R"({"a":[1,2]})", R"([{"op":"add","path":"/a/-1","value":3}])",
          422);
    fails("remove -", R"({"a":[1]})", R"([{"op":"remove","path":"/a/-"}])", 422,
          "JSON patch operation 0 (remove /a/-): /a/- does not exist");
    fails("replace -", R"({"a":[1]})", R"([{"op":"replace","path":"/a/-","value":2}])", 422);
    fails("test -", R"({"a":[1]})", R"([{"op":"test","path":"/a/-","value":1}])", 422,
          "JSON patch test failed: /a/- does not exist, expected 1");
    fails("- inside a path", R"({"a":[[1]]})", R"([{"op":"add","path":"/a/-/0","value":2}])", 422,
          "JSON patch operation 0 (add /a/-/0): /a/- does not exist");
    fails("remove index out of range", R"({"a":[1,2]})", R"([{"op":"remove","path":"/a/2"}])", 422,
          "JSON patch operation 0 (remove /a/2): /a/2 does not exist");
    applies("digits are member names in objects", R"({"0":"x","a":{"1":"y"}})",
            R"([{"op":"replace","path":"/0","value":"z"},{"op":"remove","path":"/a/1"}])",
            R"({"0":"z","a":{}})");

    // ~0 and ~1.
    applies("~1 and ~0 name members", R"({"a/b":1,"m~n":2,"k":3})",
            R"([{"op":"replace","path":"/a~1b","value":10},{"op":"remove","path":"/m~0n"}])",
            R"({"a/b":10,"k":3})");
    applies("~1~0 adds a member named /~", R"({})", R"([{"op":"add","path":"/~1~0","value":true}])",
            R"({"/~":true})");
    applies("~01 is ~1, not /", R"({"~1":1,"/":2})", R"([{"op":"remove","path":"/~01"}])",
            R"({"/":2})");
    applies("empty member name", R"({"":1,"a":2})", R"([{"op":"replace","path":"/","value":3}])",
            R"({"":3,"a":2})");
    fails("~2 is no escape", R"({})", R"([{"op":"add","path":"/a~2","value":1}])", 400,
          R"(invalid JSON patch: operation 0: "path" is not a JSON pointer: "/a~2")");
    fails("trailing ~", R"({})", R"([{"op":"add","path":"/a~","value":1}])", 400);
    fails("pointer without leading /", R"({"a":1})", R"([{"op":"replace","path":"a","value":2}])",
          400, R"(invalid JSON patch: operation 0: "path" is not a JSON pointer: "a")");
    fails("from is not a pointer", R"({"a":1})", R"([{"op":"copy","from":"a","path":"/b"}])", 400,
          R"(invalid JSON patch: operation 0: "from" is not a JSON pointer: "a")");

    // Move and copy.
    applies("move between objects", R"({"a":{"x":1},"b":{}})",
            R"([{"op":"move","from":"/a/x","path":"/b/y"}])", R"({"a":{},"b":{"y":1}})");
    applies("move array element backwards", R"({"a":[1,2,3,4]})",
            R"([{"op":"move","from":"/a/3","path":"/a/0"}])", R"({"a":[4,1,2,3]})");
    applies("move to -", R"({"a":[1,2,3]})", R"([{"op":"move","from":"/a/0","path":"/a/-"}])",
            R"({"a":[2,3,1]})");
    applies("move replaces an existing member", R"({"a":1,"b":2})",
            R"([{"op":"move","from":"/a","path":"/b"}])", R"({"b":1})");
    applies("move onto itself", R"({"a":{"b":1}})", R"([{"op":"move","from":"/a","path":"/a"}])",
            R"({"a":{"b":1}})");
    applies("move a member up a level", R"({"a":{"b":{"c":1}}})",
            R"([{"op":"move","from":"/a/b","path":"/a"}])", R"({"a":{"c":1}})");
    fails("move into own child", R"({"a":{"b":1}})",
          R"([{"op":"move","from":"/a","path":"/a/b/c"}])", 422,
          "JSON patch operation 0 (move /a/b/c): cannot move /a into itself");
    fails("move from missing", R"({"a":1})", R"([{"op":"move","from":"/x","path":"/y"}])", 422,
          "JSON patch operation 0 (move /y): /x does not exist");
    applies("move to similar prefix", R"({"a":1})", R"([{"op":"move","from":"/a","path":"/ab"}])",
            R"({"ab":1})");
    applies("copy object", R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/c"}])",
            R"({"a":{"b":1},"c":{"b":1}})");
    applies("copy is a copy", R"({"a":{"b":1}})",
            R"([{"op":"copy","from":"/a","path":"/c"},{"op":"replace","path":"/c/b","value":2}])",
            R"({"a":{"b":1},"c":{"b":2}})");
    applies("copy array element to -", R"({"a":[1,2]})",
            R"([{"op":"copy","from":"/a/0","path":"/a/-"}])", R"({"a":[1,2,1]})");
    applies("copy the root into itself", R"({"a":1})", R"([{"op":"copy","from":"","path":"/b"}])",
            R"({"a":1,"b":{"a":1}})");
    fails("copy from missing", R"({"a":1})", R"([{"op":"copy","from":"/x/y","path":"/b"}])", 422,
          "JSON patch operation 0 (copy /b): /x does not exist");

    // Add, remove, replace, test.
    applies("add replaces an existing member", R"({"a":1})",
            R"([{"op":"add","path":"/a","value":[2]}])", R"({"a":[2]})");
    applies("add null value", R"({})", R"([{"op":"add","path":"/a","value":null}])",
            R"({"a":null})");
    applies("deep replace", R"({"a":{"b":{"c":[1,{"d":2}]}}})",
            R"([{"op":"replace","path":"/a/b/c/1/d","value":3}])",
            R"({"a":{"b":{"c":[1,{"d":3}]}}})");
    applies("replace the root", R"({"a":1})", R"([{"op":"replace","path":"","value":[1]}])", "[1]");
    applies("add at the root", R"({"a":1})", R"([{"op":"add","path":"","value":{"b":2}}])",
            R"({"b":2})");
    fails("remove the root", R"({"a":1})", R"([{"op":"remove","path":""}])", 422,
          R"(JSON patch operation 0 (remove ""): the document root cannot be removed)");
    fails("remove missing member", R"({"a":1})", R"([{"op":"remove","path":"/b"}])", 422,
          "JSON patch operation 0 (remove /b): /b does not exist");
    fails("replace missing member", R"({"a":1})", R"([{"op":"replace","path":"/b","value":1}])",
          422, "JSON patch operation 0 (replace /b): /b does not exist");
    fails("add below a scalar", R"({"a":1})", R"([{"op":"add","path":"/a/b","value":1}])", 422,
          "JSON patch operation 0 (add /a/b): /a is not an object or array");
    fails("add below the scalar root", "1", R"([{"op":"add","path":"/a","value":1}])", 422,
          "JSON patch operation 0 (add /a): the document root is not an object or array");
    applies("test 1 equals 1.0", R"({"a":1})", R"([{"op":"test","path":"/a","value":1.0}])",
            R"({"a":1})");
    applies("test ignores member order", R"({"a":{"x":1,"y":[1,2]}})",
            R"([{"op":"test","path":"/a","value":{"y":[1,2],"x":1}}])",
            R"({"a":{"x":1,"y":[1,2]}})");
    fails("test sees array order", R"({"a":[1,2]})", R"([{"op":"test","path":"/a","value":[2,1]}])",
          422, "JSON patch test failed: /a is [1,2], expected [2,1]");
    applies("test null", R"({"a":null})", R"([{"op":"test","path":"/a","value":null}])",
            R"({"a":null})");
    fails("test missing member", R"({"a":1})", R"([{"op":"test","path":"/b","value":null}])", 422,
          "JSON patch test failed: /b does not exist, expected null");
    fails("test the root", R"({"a":1})", R"([{"op":"test","path":"","value":{}}])", 422,
          R"(JSON patch test failed: the document root is {"a":1}, expected {})");
    fails("test label guard", R"({"metadata":{"labels":{"a":"x"}}})",
          R"([{"op":"test","path":"/metadata/labels/a","value":"y"},)"
          R"({"op":"replace","path":"/metadata/labels/a","value":"z"}])",
          422, R"(JSON patch test failed: /metadata/labels/a is "x", expected "y")");
    fails("later operation sees earlier ones", R"({})",
          R"([{"op":"add","path":"/a","value":1},{"op":"test","path":"/a","value":2}])", 422,
          "JSON patch test failed: /a is 1, expected 2");
    applies("operations apply in order", R"({})",
            R"([{"op":"add","path":"/a","value":{}},{"op":"add","path":"/a/b","value":1},)"
            R"({"op":"move","from":"/a/b","path":"/c"},{"op":"test","path":"/c","value":1}])",
            R"({"a":{},"c":1})");
    applies("no operations", R"({"a":1})", "[]", R"({"a":1})");
    fails("line breaks escaped in messages", R"({})", R"([{"op":"remove","path":"/a\nb"}])", 422,
          R"(JSON patch operation 0 (remove /a\u000ab): /a\u000ab does not exist)");

    // Malformed patches: 400, checked before any operation applies.
    fails("not an array", R"({})", R"({"op":"add","path":"/a","value":1})", 400,
          "invalid JSON patch: not an array of operations");
    fails("operation not an object", R"({})", R"([1])", 400,
          "invalid JSON patch: operation 0: not a JSON object");
    fails("op missing", R"({})", R"([{"path":"/a","value":1}])", 400,
          R"(invalid JSON patch: operation 0: missing "op")");
    fails("op not a string", R"({})", R"([{"op":1,"path":"/a","value":1}])", 400,
          R"(invalid JSON patch: operation 0: "op" is not a string)");
    fails("unknown op", R"({"a":1})",
          R"([{"op":"test","path":"/a","value":1},{"op":"mov","from":"/a","path":"/b"}])", 400,
          R"(invalid JSON patch: operation 1: unknown op "mov")");
    fails("ops are case-sensitive", R"({})", R"([{"op":"ADD","path":"/a","value":1}])", 400);
    fails("path missing", R"({"a":1})", R"([{"op":"remove"}])", 400,
          R"(invalid JSON patch: operation 0: missing "path")");
    fails("path not a string", R"({"a":1})", R"([{"op":"remove","path":["a"]}])", 400,
          R"(invalid JSON patch: operation 0: "path" is not a string)");
    fails("move without from", R"({"a":1})", R"([{"op":"move","path":"/b"}])", 400,
          R"(invalid JSON patch: operation 0: missing "from")");
    fails("copy from not a string", R"({"a":1})", R"([{"op":"copy","from":1,"path":"/b"}])", 400);
    fails("add without value", R"({})", R"([{"op":"add","path":"/a"}])", 400,
          R"(invalid JSON patch: operation 0: missing "value")");
    fails("replace without value", R"({"a":1})", R"([{"op":"replace","path":"/a"}])", 400);
    fails("test without value", R"({"a":1})", R"([{"op":"test","path":"/a"}])", 400);
    fails("400 wins over an earlier 422", R"({})",
          R"([{"op":"remove","path":"/missing"},{"op":"add","path":"/a"}])", 400);
}

void TestPatch::jsonPatch()
{
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);
    QFETCH(int, status);
    QFETCH(QString, message);
    const QJsonValue targetValue = json(target);
    const QJsonValue patchValue = json(patch);
    QVERIFY(!targetValue.isUndefined() && !patchValue.isUndefined());
    checkOutcome(applyJsonPatch(targetValue, patchValue), expected, status, message);
}

// A copy doubles what the next one copies: 40 of them would make a terabyte of 1 KiB.
void TestPatch::jsonPatchLimits()
{
    QJsonArray doubling;
    for (int i = 0; i < 40; ++i)
        doubling.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("copy")},
                                    {QStringLiteral("from"), QStringLiteral("/spec")},
                                    {QStringLiteral("path"), QStringLiteral("/spec/a%1").arg(i)}});
    const QJsonObject target{{QStringLiteral("spec"),
                              QJsonObject{{QStringLiteral("x"), QString(1024, QLatin1Char('x'))}}}};
    auto r = applyJsonPatch(target, doubling);
    QVERIFY(std::holds_alternative<PatchError>(r));
    QCOMPARE(std::get<PatchError>(r).status, 422);
    QVERIFY2(std::get<PatchError>(r).message.endsWith(
                 QLatin1String("the values copied add up to more than 10485760 bytes")),
             qPrintable(std::get<PatchError>(r).message));

    QJsonArray many;
    for (int i = 0; i < 10001; ++i)
        many.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("test")},
                                {QStringLiteral("path"), QStringLiteral("/spec")},
                                {QStringLiteral("value"), QJsonValue()}});
    auto tooMany = applyJsonPatch(target, many);
    QCOMPARE(std::get<PatchError>(tooMany).status, 413);
    QCOMPARE(std::get<PatchError>(tooMany).message,
             QStringLiteral("The allowed maximum operations in a JSON patch is 10000, got 10001"));
}

void TestPatch::strategicMerge_data()
{
    addOutcomeColumns();

    // Labels, as kubectl label sends them.
    const QByteArray node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",)"
                            R"("labels":{"kubernetes.io/hostname":"n1","foo":"old"}}})";
    applies("kubectl label foo=bar", node, R"({"metadata":{"labels":{"foo":"bar"}}})",
            R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",)"
            R"("labels":{"kubernetes.io/hostname":"n1","foo":"bar"}}})");
    applies("kubectl label foo-", node, R"({"metadata":{"labels":{"foo":null}}})",
            R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1",)"
            R"("labels":{"kubernetes.io/hostname":"n1"}}})");
    applies("label a node without labels", R"({"metadata":{"name":"n1"}})",
            R"({"metadata":{"labels":{"foo":"bar"}}})",
            R"({"metadata":{"name":"n1","labels":{"foo":"bar"}}})");
    applies("unlabel an absent label", R"({"metadata":{"name":"n1","labels":{"a":"1"}}})",
            R"({"metadata":{"labels":{"foo":null}}})",
            R"({"metadata":{"name":"n1","labels":{"a":"1"}}})");

    // Taints, merged on "key", as kubectl taint sends them.
    const QByteArray tainted =
        R"({"spec":{"unschedulable":true,"taints":[{"key":"a","value":"1","effect":"NoSchedule"},)"
        R"({"key":"b","effect":"NoExecute"}]}})";
    applies(
        "kubectl taint adds", tainted,
        R"({"spec":{"$setElementOrder/taints":[{"key":"a"},{"key":"b"},{"key":"c"}],)"
        R"("taints":[{"effect":"NoSchedule","key":"c","value":"x"}]}})",
        R"({"spec":{"unschedulable":true,"taints":[{"key":"a","value":"1","effect":"NoSchedule"},)"
        R"({"key":"b","effect":"NoExecute"},{"key":"c","value":"x","effect":"NoSchedule"}]}})");
    applies(
        "taint merged on key", tainted, R"({"spec":{"taints":[{"key":"a","value":"2"}]}})",
        R"({"spec":{"unschedulable":true,"taints":[{"key":"a","value":"2","effect":"NoSchedule"},)"
        R"({"key":"b","effect":"NoExecute"}]}})");
    applies("null removes a field of a taint", tainted,
            R"({"spec":{"taints":[{"key":"a","value":null}]}})",
            R"({"spec":{"unschedulable":true,"taints":[{"key":"a","effect":"NoSchedule"},)"
            R"({"key":"b","effect":"NoExecute"}]}})");
    applies("kubectl taint a- deletes", tainted,
            R"({"spec":{"$setElementOrder/taints":[{"key":"b"}],)"
            R"("taints":[{"$patch":"delete","key":"a"}]}})",
            R"({"spec":{"unschedulable":true,"taints":[{"key":"b","effect":"NoExecute"}]}})");
    applies("deleting an absent taint", tainted,
            R"({"spec":{"taints":[{"$patch":"delete","key":"zz"}]}})", tainted);
    applies(
        "delete and re-add in one patch", tainted,
        R"({"spec":{"taints":[{"key":"a","effect":"NoExecute"},{"key":"a","$patch":"delete"}]}})",
        R"({"spec":{"unschedulable":true,"taints":[{"key":"b","effect":"NoExecute"},)"
        R"({"key":"a","effect":"NoExecute"}]}})");
    applies("$patch replace on the taint list", tainted,
            R"({"spec":{"taints":[{"$patch":"replace"},{"key":"c","effect":"NoSchedule"}]}})",
            R"({"spec":{"unschedulable":true,"taints":[{"key":"c","effect":"NoSchedule"}]}})");
    applies(
        "$patch merge marker in a list", tainted,
        R"({"spec":{"taints":[{"$patch":"merge"},{"key":"b","value":"v"}]}})",
        R"({"spec":{"unschedulable":true,"taints":[{"key":"a","value":"1","effect":"NoSchedule"},)"
        R"({"key":"b","value":"v","effect":"NoExecute"}]}})");
    applies("empty taint list changes nothing", tainted, R"({"spec":{"taints":[]}})", tainted);
    applies("null taint list removes it", tainted, R"({"spec":{"taints":null}})",
            R"({"spec":{"unschedulable":true}})");
    applies("first taints", R"({"spec":{"podCIDR":"10.0.0.0/24"}})",
            R"({"spec":{"taints":[{"key":"c","value":null,"effect":"NoSchedule"},)"
            R"({"key":"gone","$patch":"delete"}]}})",
            R"({"spec":{"podCIDR":"10.0.0.0/24","taints":[{"key":"c","effect":"NoSchedule"}]}})");
    applies("same key twice in a patch", R"({"spec":{}})",
            R"({"spec":{"taints":[{"key":"c","value":"1"},{"key":"c","effect":"NoSchedule"}]}})",
            R"({"spec":{"taints":[{"key":"c","value":"1","effect":"NoSchedule"}]}})");
    fails("taint without its key", tainted, R"({"spec":{"taints":[{"effect":"NoSchedule"}]}})", 422,
          R"(strategic merge patch: spec.taints: element 0 has no merge key "key")");
    fails("taint that is not an object", tainted, R"({"spec":{"taints":[{"key":"c"},"d"]}})", 422,
          "strategic merge patch: spec.taints: element 1 is not an object");
    fails("delete without the key", tainted, R"({"spec":{"taints":[{"$patch":"delete"}]}})", 422,
          R"(strategic merge patch: spec.taints: element 0 deletes without its merge key "key")");
    fails("unknown $patch in a list", tainted,
          R"({"spec":{"taints":[{"key":"a","$patch":"remove"}]}})", 422,
          R"(strategic merge patch: spec.taints: element 0: unknown "$patch" directive "remove")");
    fails("unknown directive in a list element", tainted,
          R"({"spec":{"taints":[{"key":"a","$bogus":1}]}})", 422,
          R"(strategic merge patch: spec.taints: unknown directive "$bogus")");

    // Node status: conditions and addresses merged on "type".
    const QByteArray status =
        R"({"status":{"conditions":[{"type":"MemoryPressure","status":"False"},)"
        R"({"type":"Ready","status":"True","reason":"KubeletReady"}],)"
        R"("addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}]}})";
    applies(
        "condition updated by type", status,
        R"({"status":{"conditions":[{"type":"Ready","status":"False",)"
        R"("reason":"KubeletNotReady","message":"PLEG is not healthy"}]}})",
        R"({"status":{"conditions":[{"type":"MemoryPressure","status":"False"},)"
        R"({"type":"Ready","status":"False","reason":"KubeletNotReady","message":"PLEG is not healthy"}],)"
        R"("addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}]}})");
    applies(
        "condition of a new type appended", status,
        R"({"status":{"conditions":[{"type":"DiskPressure","status":"False"}]}})",
        R"({"status":{"conditions":[{"type":"MemoryPressure","status":"False"},)"
        R"({"type":"Ready","status":"True","reason":"KubeletReady"},{"type":"DiskPressure","status":"False"}],)"
        R"("addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}]}})");
    applies(
        "address updated by type", status,
        R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.2"}]}})",
        R"({"status":{"conditions":[{"type":"MemoryPressure","status":"False"},)"
        R"({"type":"Ready","status":"True","reason":"KubeletReady"}],)"
        R"("addresses":[{"type":"InternalIP","address":"10.0.0.2"},{"type":"Hostname","address":"n1"}]}})");

    // Finalizers: a list of primitives that is unioned.
    const QByteArray finalized = R"({"metadata":{"name":"x","finalizers":["a","b"]}})";
    applies("finalizers unioned", finalized, R"({"metadata":{"finalizers":["b","c","c"]}})",
            R"({"metadata":{"name":"x","finalizers":["a","b","c"]}})");
    applies("first finalizer", R"({"metadata":{"name":"x"}})",
            R"({"metadata":{"finalizers":["a"]}})",
            R"({"metadata":{"name":"x","finalizers":["a"]}})");
    fails("finalizer that is an object", finalized, R"({"metadata":{"finalizers":[{"name":"c"}]}})",
          422, "strategic merge patch: metadata.finalizers: element 0 is not a primitive value");
    applies("$deleteFromPrimitiveList", R"({"metadata":{"finalizers":["a","b","c","b"]}})",
            R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b","x"]}})",
            R"({"metadata":{"finalizers":["a","c"]}})");
    applies("$deleteFromPrimitiveList before additions", finalized,
            R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["d"]}})",
            R"({"metadata":{"name":"x","finalizers":["b","d"]}})");
    applies("$deleteFromPrimitiveList of an absent list", R"({"metadata":{"name":"x"}})",
            R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})",
            R"({"metadata":{"name":"x"}})");
    applies("$deleteFromPrimitiveList of a replaced list",
            R"({"spec":{"containers":[{"name":"c","args":["-v","-x","-y"]}]}})",
            R"({"spec":{"containers":[{"name":"c","$deleteFromPrimitiveList/args":["-x"]}]}})",
            R"({"spec":{"containers":[{"name":"c","args":["-v","-y"]}]}})");
    fails(
        "$deleteFromPrimitiveList not a list", finalized,
        R"({"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}})", 422,
        R"(strategic merge patch: metadata: "$deleteFromPrimitiveList/finalizers" is not a list)");

    // $retainKeys.
    const QByteArray deployment =
        R"({"spec":{"replicas":2,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})";
    applies("$retainKeys drops unlisted keys", deployment,
            R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})",
            R"({"spec":{"replicas":2,"strategy":{"type":"Recreate"}}})");
    applies(
        "$retainKeys keeps listed keys", deployment,
        R"({"spec":{"strategy":{"$retainKeys":["type","rollingUpdate"],"rollingUpdate":null}}})",
        R"({"spec":{"replicas":2,"strategy":{"type":"RollingUpdate"}}})");
    fails("$retainKeys must list patched keys", deployment,
          R"({"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":2}}}})", 422,
          R"(strategic merge patch: spec.strategy: "$retainKeys" does not list "rollingUpdate")");
    fails("$retainKeys not a list of strings", deployment,
          R"({"spec":{"strategy":{"$retainKeys":["type",1]}}})", 422,
          R"(strategic merge patch: spec.strategy: "$retainKeys" is not a list of strings)");

    // $patch in an object.
    const QByteArray labelled =
        R"({"metadata":{"name":"x","labels":{"a":"1","b":"2"},"annotations":{"n":"v"}}})";
    applies("$patch replace on a map", labelled,
            R"({"metadata":{"labels":{"$patch":"replace","c":"3","d":null}}})",
            R"({"metadata":{"name":"x","labels":{"c":"3"},"annotations":{"n":"v"}}})");
    applies("$patch delete on a map", labelled,
            R"({"metadata":{"annotations":{"$patch":"delete","x":"y"}}})",
            R"({"metadata":{"name":"x","labels":{"a":"1","b":"2"}}})");
    applies("$patch delete on an absent map", R"({"metadata":{"name":"x"}})",
            R"({"metadata":{"annotations":{"$patch":"delete"}}})", R"({"metadata":{"name":"x"}})");
    applies("$patch merge on a map", labelled,
            R"({"metadata":{"labels":{"$patch":"merge","a":null,"c":"3"}}})",
            R"({"metadata":{"name":"x","labels":{"b":"2","c":"3"},"annotations":{"n":"v"}}})");
    applies("$patch replace at the root", labelled,
            R"({"$patch":"replace","kind":"ConfigMap","data":{"k":"v"}})",
            R"({"kind":"ConfigMap","data":{"k":"v"}})");
    applies("$patch delete at the root", labelled, R"({"$patch":"delete"})", "null");
    fails("unknown $patch", labelled, R"({"metadata":{"labels":{"$patch":"remove"}}})", 422,
          R"(strategic merge patch: metadata.labels: unknown "$patch" directive "remove")");
    fails("$patch not a string", labelled, R"({"metadata":{"$patch":true}})", 422,
          R"(strategic merge patch: metadata: unknown "$patch" directive true)");
    applies("$setElementOrder ignored", tainted,
            R"({"spec":{"$setElementOrder/taints":[{"key":"b"},{"key":"a"}]}})", tainted);
    fails("unknown directive", labelled, R"({"metadata":{"$foo":1}})", 422,
          R"(strategic merge patch: metadata: unknown directive "$foo")");
    fails("unknown directive at the root", labelled, R"({"$unknown":[]})", 422,
          R"(strategic merge patch: unknown directive "$unknown")");
    fails("unknown directive in a new map", R"({})", R"({"spec":{"template":{"$x":null}}})", 422,
          R"(strategic merge patch: spec.template: unknown directive "$x")");
    fails("line break in a directive", labelled, R"({"metadata":{"$a\nb":1}})", 422,
          R"(strategic merge patch: metadata: unknown directive "$a\nb")");
    fails("not an object", labelled, R"([{"metadata":{}}])", 400,
          "invalid strategic merge patch: not an object");

    // Pods: containers and init containers on name, their ports on containerPort and env on
    // name, volumes on name; other lists are replaced.
    const QByteArray pod =
        R"({"spec":{"containers":[{"name":"app","image":"app:1","args":["-a","-b"],)"
        R"("ports":[{"containerPort":80,"name":"http"},{"containerPort":9090,"name":"metrics"}],)"
        R"("env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]},)"
        R"({"name":"sidecar","image":"side:1"}],)"
        R"("initContainers":[{"name":"init","image":"init:1"}],)"
        R"("volumes":[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"c"}}]}})";
    applies(
        "containers merged on name, ports and env inside", pod,
        R"({"spec":{"containers":[{"name":"app","image":"app:2",)"
        R"("ports":[{"containerPort":443,"name":"https"},{"containerPort":9090,"protocol":"TCP"}],)"
        R"("env":[{"name":"B","value":"3"},{"name":"C","value":"4"},{"name":"A","$patch":"delete"}]}]}})",
        R"({"spec":{"containers":[{"name":"app","image":"app:2","args":["-a","-b"],)"
        R"("ports":[{"containerPort":80,"name":"http"},{"containerPort":9090,"name":"metrics","protocol":"TCP"},)"
        R"({"containerPort":443,"name":"https"}],)"
        R"("env":[{"name":"B","value":"3"},{"name":"C","value":"4"}]},)"
        R"({"name":"sidecar","image":"side:1"}],)"
        R"("initContainers":[{"name":"init","image":"init:1"}],)"
        R"("volumes":[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"c"}}]}})");
    applies(
        "container args replaced", pod,
        R"({"spec":{"containers":[{"name":"app","args":["-c"]},{"name":"sidecar","$patch":"delete"}],)"
        R"("initContainers":[{"name":"init","image":"init:2"},{"name":"init2","image":"i"}],)"
        R"("volumes":[{"name":"data","$patch":"delete"}]}})",
        R"({"spec":{"containers":[{"name":"app","image":"app:1","args":["-c"],)"
        R"("ports":[{"containerPort":80,"name":"http"},{"containerPort":9090,"name":"metrics"}],)"
        R"("env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}],)"
        R"("initContainers":[{"name":"init","image":"init:2"},{"name":"init2","image":"i"}],)"
        R"("volumes":[{"name":"cfg","configMap":{"name":"c"}}]}})");
    fails(
        "container port without containerPort", pod,
        R"({"spec":{"containers":[{"name":"app","ports":[{"name":"x"}]}]}})", 422,
        R"(strategic merge patch: spec.containers.ports: element 0 has no merge key "containerPort")");
    applies("lists at other paths are replaced",
            R"({"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"}]}}}})",
            R"({"spec":{"template":{"spec":{"containers":[{"name":"b","image":"2"}]}}}})",
            R"({"spec":{"template":{"spec":{"containers":[{"name":"b","image":"2"}]}}}})");

    // Services, owner references, bindings.
    applies("service ports merged on port",
            R"({"spec":{"type":"ClusterIP","ports":[{"port":80,"targetPort":8080,"name":"http"},)"
            R"({"port":443,"targetPort":8443,"name":"https"}]}})",
            R"({"spec":{"ports":[{"port":80,"targetPort":9090},{"port":8125,"protocol":"UDP"}]}})",
            R"({"spec":{"type":"ClusterIP","ports":[{"port":80,"targetPort":9090,"name":"http"},)"
            R"({"port":443,"targetPort":8443,"name":"https"},{"port":8125,"protocol":"UDP"}]}})");
    applies(
        "ownerReferences merged on uid",
        R"({"metadata":{"ownerReferences":[{"uid":"u1","kind":"ReplicaSet","name":"rs"},)"
        R"({"uid":"u2","kind":"Node","name":"n1"}]}})",
        R"({"metadata":{"ownerReferences":[{"uid":"u1","controller":true},{"uid":"u2","$patch":"delete"}]}})",
        R"({"metadata":{"ownerReferences":[{"uid":"u1","kind":"ReplicaSet","name":"rs","controller":true}]}})");
    applies("subjects merged on name",
            R"({"kind":"RoleBinding","roleRef":{"kind":"Role","name":"r"},)"
            R"("subjects":[{"kind":"User","name":"alice"},{"kind":"User","name":"bob"}]})",
            R"({"subjects":[{"kind":"Group","name":"bob"},{"kind":"User","name":"carol"}]})",
            R"({"kind":"RoleBinding","roleRef":{"kind":"Role","name":"r"},)"
            R"("subjects":[{"kind":"User","name":"alice"},{"kind":"Group","name":"bob"},)"
            R"({"kind":"User","name":"carol"}]})");
    applies("rules replaced", R"({"rules":[{"verbs":["get"],"resources":["pods"]}]})",
            R"({"rules":[{"verbs":["list"]}]})", R"({"rules":[{"verbs":["list"]}]})");

    // Like a merge patch elsewhere.
    applies("object over a scalar", R"({"a":1})", R"({"a":{"b":null,"c":1}})", R"({"a":{"c":1}})");
    applies("scalar over an object", R"({"a":{"b":1}})", R"({"a":"x"})", R"({"a":"x"})");
    applies("empty patch", labelled, R"({})", labelled);
}

void TestPatch::strategicMerge()
{
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);
    QFETCH(int, status);
    QFETCH(QString, message);
    const QJsonValue targetValue = json(target);
    const QJsonValue patchValue = json(patch);
    QVERIFY(!targetValue.isUndefined() && !patchValue.isUndefined());
    checkOutcome(applyStrategicMergePatch(targetValue, patchValue), expected, status, message);
}

void TestPatch::applyPatch_data()
{
    QTest::addColumn<int>("type"); // a PatchType
    addOutcomeColumns();

    const int merge = int(PatchType::Merge);
    const int strategic = int(PatchType::StrategicMerge);
    const int jsonPatch = int(PatchType::Json);
    const QByteArray node = R"({"kind":"Node","metadata":{"name":"n1","labels":{"a":"1"}}})";
    const auto row = [](const char *name, int type, const QByteArray &original,
                        const QByteArray &body, const QByteArray &expected, int status,
                        const QString &message) {
        QTest::newRow(name) << type << original << body << expected << status << message;
    };

    row("merge", merge, node, R"({"metadata":{"labels":{"foo":"bar","a":null}}})",
        R"({"kind":"Node","metadata":{"name":"n1","labels":{"foo":"bar"}}})", 0, {});
    row("strategic merge", strategic, node,
        R"({"metadata":{"labels":{"foo":"bar"}},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}})",
        R"({"kind":"Node","metadata":{"name":"n1","labels":{"a":"1","foo":"bar"}},)"
        R"("spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}})",
        0, {});
    row("json patch", jsonPatch, node,
        R"([{"op":"add","path":"/metadata/labels/foo","value":"bar"}])",
        R"({"kind":"Node","metadata":{"name":"n1","labels":{"a":"1","foo":"bar"}}})", 0, {});
    row("json patch replacing the root with an object", jsonPatch, node,
        R"([{"op":"replace","path":"","value":{"kind":"Pod"}}])", R"({"kind":"Pod"})", 0, {});

    // Not JSON: 400 for every type.
    row("merge: not JSON", merge, node, "{\"metadata\":", {}, 400,
        "invalid merge patch: not valid JSON (unterminated object at offset 12)");
    row("strategic: not JSON", strategic, node, "labels: {a: 1}", {}, 400, {});
    row("json patch: not JSON", jsonPatch, node, "[{\"op\":\"add\",}]", {}, 400, {});
    row("empty body", merge, node, "", {}, 400, {});
    row("trailing garbage", jsonPatch, node, "[] []", {}, 400, {});
    row("scalar body", merge, node, "null", {}, 400, {});
    row("invalid UTF-8", merge, node, "{\"a\":\"\xff\"}", {}, 400, {});

    // Not the shape the type requires: 400.
    row("merge patch that is an array", merge, node, R"([{"metadata":{}}])", {}, 400,
        "invalid merge patch: not an object");
    row("strategic merge patch that is an array", strategic, node, "[]", {}, 400,
        "invalid strategic merge patch: not an object");
    row("json patch that is an object", jsonPatch, node, R"({"op":"add","path":"/a","value":1})",
        {}, 400, "invalid JSON patch: not an array of operations");
    row("json patch op missing path", jsonPatch, node, R"([{"op":"add","value":1}])", {}, 400,
        R"(invalid JSON patch: operation 0: missing "path")");
    row("json patch invalid op", jsonPatch, node, R"([{"op":"delete","path":"/kind"}])", {}, 400,
        R"(invalid JSON patch: operation 0: unknown op "delete")");
    // RFC 6902 A.13: a member twice makes the patch invalid, though JSON parsers keep one.
    row("RFC 6902 A.13 duplicate member", jsonPatch, R"({"foo":"bar"})",
        R"([{"op":"add","path":"/baz","value":"qux","op":"remove"}])", {}, 400,
        R"(invalid JSON patch: operation 0: duplicate member "op")");
    row("duplicate member spelled with an escape", jsonPatch, node,
        R"([{"op":"test","path":"/kind","value":"Node"}, {"path":"/a","\u0070ath":"/b","op":"remove"}])",
        {}, 400, R"(invalid JSON patch: operation 1: duplicate member "path")");
    row("duplicates inside a value are data", jsonPatch, node,
        R"([{"op":"add","path":"/x","value":{"k":1,"k":2,"s":"\"op\":{,}[]"}}])",
        R"({"kind":"Node","metadata":{"name":"n1","labels":{"a":"1"}},"x":{"k":2,"s":"\"op\":{,}[]"}})",
        0, {});

    // Well-formed but cannot apply: 422.
    row("json patch test failure", jsonPatch, node,
        R"([{"op":"test","path":"/metadata/labels/a","value":"2"}])", {}, 422,
        R"(JSON patch test failed: /metadata/labels/a is "1", expected "2")");
    row("json patch path that does not exist", jsonPatch, node,
        R"([{"op":"remove","path":"/spec/taints/0"}])", {}, 422,
        "JSON patch operation 0 (remove /spec/taints/0): /spec does not exist");
    row("strategic merge unknown directive", strategic, node, R"({"$foo":1})", {}, 422,
        R"(strategic merge patch: unknown directive "$foo")");

    // The result must stay an object: 422.
    row("json patch replacing the root with an array", jsonPatch, node,
        R"([{"op":"replace","path":"","value":[1]}])", {}, 422,
        "the JSON patch turns the object into an array");
    row("json patch adding a string root", jsonPatch, node,
        R"([{"op":"add","path":"","value":"x"}])", {}, 422,
        "the JSON patch turns the object into a string");
    row("json patch moving a member to the root", jsonPatch, node,
        R"([{"op":"move","from":"/kind","path":""}])", {}, 422,
        "the JSON patch turns the object into a string");
    row("strategic merge deleting the root", strategic, node, R"({"$patch":"delete"})", {}, 422,
        "the strategic merge patch turns the object into null");
}

void TestPatch::applyPatch()
{
    QFETCH(int, type);
    QFETCH(QByteArray, target);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);
    QFETCH(int, status);
    QFETCH(QString, message);
    const QJsonValue original = json(target);
    QVERIFY(original.isObject());
    checkOutcome(Gatehouse::Cluster::applyPatch(PatchType(type), original.toObject(), patch),
                 expected, status, message);
}

void TestPatch::depthLimit_data()
{
    QTest::addColumn<int>("type"); // a PatchType
    QTest::addColumn<int>("levels");
    QTest::addColumn<int>("status");

    QTest::newRow("merge, 64 levels") << int(PatchType::Merge) << 64 << 0;
    QTest::newRow("merge, 65 levels") << int(PatchType::Merge) << 65 << 422;
    QTest::newRow("merge, 500 levels") << int(PatchType::Merge) << 500 << 422;
    QTest::newRow("strategic, 64 levels") << int(PatchType::StrategicMerge) << 64 << 0;
    QTest::newRow("strategic, 65 levels") << int(PatchType::StrategicMerge) << 65 << 422;
    QTest::newRow("strategic, 500 levels") << int(PatchType::StrategicMerge) << 500 << 422;
}

void TestPatch::depthLimit()
{
    QFETCH(int, type);
    QFETCH(int, levels);
    QFETCH(int, status);
    const QByteArray body = nested(levels);
    const auto result = Gatehouse::Cluster::applyPatch(PatchType(type), QJsonObject(), body);
    if (status == 0) {
        QVERIFY(std::holds_alternative<QJsonObject>(result));
        QCOMPARE(QJsonDocument(std::get<QJsonObject>(result)).toJson(QJsonDocument::Compact), body);
    } else {
        QVERIFY(std::holds_alternative<PatchError>(result));
        QCOMPARE(std::get<PatchError>(result).status, status);
        QVERIFY(std::get<PatchError>(result).message.contains(QLatin1String("64")));
    }
}

int runPatchTests(int argc, char **argv)
{
    TestPatch t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_patch.moc"
