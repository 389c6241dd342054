// The order service over real sockets: an in-process Backend on a temporary data
// directory (real SQLite file), requests through QNetworkAccessManager.
#include "helpers/testtimeouts.h"
#include "integration/tst_integration.h"

#include "admin/backend.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/resolver.h"
#include "core/writequeue.h"
#include "crypto/random.h"
#include "orders/orderservice.h"
#include "orders/orderstore.h"
#include "webhooks/redeliveryjobs.h"
#include "webhooks/webhookservice.h"
#include "webhooks/webhookstore.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QThread>
#include <QtTest>

#include <optional>

using Gatehouse::Admin::Backend;
using Gatehouse::Test::timeoutMs;

namespace {

Reply send(const QByteArray &method, const QUrl &url, const QByteArray &body = {},
           const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    QNetworkAccessManager nam;
    QNetworkRequest req(url);
    req.setTransferTimeout(timeoutMs());
    bool contentType = false;
    for (const auto &h : headers) {
        req.setRawHeader(h.first, h.second);
        contentType |= h.first.toLower() == "content-type";
    }
    if (!body.isEmpty() && !contentType)
        req.setRawHeader("Content-Type", "application/json");
    QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    for (const auto &p : reply->rawHeaderPairs())
        r.headers.insert(p.first.toLower(), p.second);
    delete reply;
    return r;
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool isUuid(const QString &s)
{
    static const QRegularExpression re(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
    return re.match(s).hasMatch();
}

} // namespace

TestOrders::TestOrders() = default;
TestOrders::~TestOrders() = default;

QUrl TestOrders::service(const QString &path) const
{
    return QUrl(m_backend->serviceListener().url() + path);
}

Reply TestOrders::admin(const QByteArray &method, const QString &path, const QJsonObject &body)
{
    return send(method, QUrl(m_backend->adminUrl() + path),
                body.isEmpty() ? QByteArray() : json(body),
                {{"Authorization", "Bearer " + m_backend->adminToken().toUtf8()}});
}

QJsonObject TestOrders::placeOrder(const QJsonArray &lines, const QString &customerId)
{
    const Reply r = send("POST",
                         service(QStringLiteral("/v1/customers/%1/orders")
                                     .arg(customerId.isEmpty() ? m_customer : customerId)),
                         json(QJsonObject{{QStringLiteral("beerOrderLines"), lines}}));
    if (r.status != 201)
        qWarning() << "placing an order answered" << r.status << r.body;
    return r.json();
}

QJsonObject TestOrders::order(const QString &id)
{
    return admin("GET", QStringLiteral("/admin/v1/orders/") + id).json();
}

QString TestOrders::statusOf(const QString &id)
{
    return order(id).value(QStringLiteral("orderStatus")).toString();
}

bool TestOrders::execInWriter(const QString &sql)
{
    return m_backend->writer()
        .run([sql](Gatehouse::Core::WriteTransaction &tx) -> Gatehouse::Core::Result<void> {
            QSqlQuery q(tx.database());
            if (!q.exec(sql))
                return Gatehouse::Core::WriteTransaction::sqlError(q, "test setup");
            return {};
        })
        .ok();
}

QJsonObject TestOrders::beer(const QString &upc)
{
    return send("GET", service(QStringLiteral("/v1/beers/upc/") + upc)).json();
}

void TestOrders::initTestCase()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    auto config = Gatehouse::Core::ConfigResolver::resolve(
        {{QStringLiteral("data-dir"), m_dir->path()},
         {QStringLiteral("service-port"), QStringLiteral("0")},
         {QStringLiteral("cluster-port"), QStringLiteral("0")},
         {QStringLiteral("admin-port"), QStringLiteral("0")},
         {QStringLiteral("max-body-bytes"), QStringLiteral("65536")},
         {QStringLiteral("webhook-retry-schedule"), QStringLiteral("50ms,50ms")},
         {QStringLiteral("webhook-jitter-percent"), QStringLiteral("0")}},
        QProcessEnvironment());
    QVERIFY2(config, qPrintable(config ? QString() : config.error().message));
    m_backend = std::make_unique<Backend>(*config);
    auto started = m_backend->start();
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));

    const Reply c = admin("POST", QStringLiteral("/admin/v1/customers"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("Test Pub")}});
    QCOMPARE(c.status, 201);
    QCOMPARE(c.header("cache-control"), QByteArray("no-store"));
    m_customer = c.json()
                     .value(QStringLiteral("customer"))
                     .toObject()
                     .value(QStringLiteral("id"))
                     .toString();
    QVERIFY(isUuid(m_customer));
    QVERIFY(c.json()
                .value(QStringLiteral("webhookSecret"))
                .toString()
                .startsWith(QStringLiteral("whsec_")));
}

void TestOrders::cleanupTestCase()
{
    if (m_backend) {
        bool stopped = false;
        m_backend->stop([&stopped] { stopped = true; });
        QTRY_VERIFY_WITH_TIMEOUT(stopped, timeoutMs());
        m_backend.reset();
    }
}

void TestOrders::createdOrderHasLocationAndReadOnlyFields()
{
    const QJsonObject mango = beer(QStringLiteral("0631234200036"));
    QCOMPARE(mango.value(QStringLiteral("beerName")).toString(), QStringLiteral("Mango Bobs"));
    const QByteArray body = json(QJsonObject{
        {QStringLiteral("customerId"), m_customer},
        {QStringLiteral("customerRef"), QStringLiteral("PO-1")},
        {QStringLiteral("beerOrderLines"),
         QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("0631234200036")},
                                {QStringLiteral("orderQuantity"), 2}},
                    QJsonObject{{QStringLiteral("upc"), QStringLiteral("0631234300019")},
                                {QStringLiteral("orderQuantity"), 1}}}}});
    const Reply r =
        send("POST", service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)), body);
    QCOMPARE(r.status, 201);
    QCOMPARE(r.header("content-type"), QByteArray("application/json"));
    const QJsonObject o = r.json();
    const QString id = o.value(QStringLiteral("id")).toString();
    QVERIFY(isUuid(id));
    QCOMPARE(QString::fromLatin1(r.header("location")),
             QStringLiteral("/v1/customers/%1/orders/%2").arg(m_customer, id));
    QCOMPARE(o.value(QStringLiteral("customerId")).toString(), m_customer);
    QCOMPARE(o.value(QStringLiteral("customerRef")).toString(), QStringLiteral("PO-1"));
    QCOMPARE(o.value(QStringLiteral("orderStatus")).toString(), QStringLiteral("NEW"));
    QVERIFY(!o.contains(QStringLiteral("orderStatusCallbackUrl")));
    const QJsonArray lines = o.value(QStringLiteral("beerOrderLines")).toArray();
    QCOMPARE(lines.size(), 2);
    QVERIFY(isUuid(lines[0].toObject().value(QStringLiteral("id")).toString()));
    QCOMPARE(lines[0].toObject().value(QStringLiteral("beerId")).toString(),
             mango.value(QStringLiteral("id")).toString());
    QCOMPARE(lines[0].toObject().value(QStringLiteral("orderQuantity")).toInt(), 2);
    QCOMPARE(lines[0].toObject().value(QStringLiteral("quantityAllocated")).toInt(), 0);

    const Reply get = send("GET", service(QString::fromLatin1(r.header("location"))));
    QCOMPARE(get.status, 200);
    QCOMPARE(get.json().value(QStringLiteral("id")).toString(), id);
}

void TestOrders::emptyBodyCreatesOrderWithoutLines()
{
    const Reply r =
        send("POST", service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)));
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json().value(QStringLiteral("beerOrderLines")).toArray().size(), 0);
    QCOMPARE(r.json().value(QStringLiteral("customerId")).toString(), m_customer);
}

void TestOrders::badRequests_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("fieldCode");

    const QString ok = QStringLiteral("/v1/customers/{c}/orders");
    const QByteArray js = "application/json";
    auto line = [](const QByteArray &fields) { return "{\"beerOrderLines\":[{" + fields + "}]}"; };
    QTest::newRow("malformed json")
        << ok << js << QByteArray("{\"customerRef\":") << 400 << "malformed-json"
        << ""
        << "";
    QTest::newRow("array body") << ok << js << QByteArray("[]") << 400 << "malformed-json"
                                << ""
                                << "";
    QTest::newRow("quantity as string")
        << ok << js << line("\"upc\":\"0631234200036\",\"orderQuantity\":\"3\"") << 400
        << "validation-failed"
        << "/beerOrderLines/0/orderQuantity"
        << "wrong-type";
    QTest::newRow("quantity fraction")
        << ok << js << line("\"upc\":\"0631234200036\",\"orderQuantity\":2.5") << 400
        << "validation-failed"
        << "/beerOrderLines/0/orderQuantity"
        << "wrong-type";
    QTest::newRow("quantity 0") << ok << js << line("\"upc\":\"0631234200036\",\"orderQuantity\":0")
                                << 400 << "validation-failed"
                                << "/beerOrderLines/0/orderQuantity"
                                << "out-of-range";
    QTest::newRow("quantity 1000")
        << ok << js << line("\"upc\":\"0631234200036\",\"orderQuantity\":1000") << 400
        << "validation-failed"
        << "/beerOrderLines/0/orderQuantity"
        << "out-of-range";
    QTest::newRow("missing upc") << ok << js << line("\"orderQuantity\":1") << 400
                                 << "validation-failed"
                                 << "/beerOrderLines/0/upc"
                                 << "required";
    QTest::newRow("missing quantity")
        << ok << js << line("\"upc\":\"0631234200036\"") << 400 << "validation-failed"
        << "/beerOrderLines/0/orderQuantity"
        << "required";
    QTest::newRow("upc number") << ok << js << line("\"upc\":631234200036,\"orderQuantity\":1")
                                << 400 << "validation-failed"
                                << "/beerOrderLines/0/upc"
                                << "wrong-type";
    QTest::newRow("read-only id") << ok << js
                                  << QByteArray("{\"id\":\"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11\"}")
                                  << 400 << "validation-failed"
                                  << "/id"
                                  << "read-only";
    QTest::newRow("read-only orderStatus")
        << ok << js << QByteArray("{\"orderStatus\":\"NEW\"}") << 400 << "validation-failed"
        << "/orderStatus"
        << "read-only";
    QTest::newRow("read-only line id")
        << ok << js
        << line("\"id\":\"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11\",\"upc\":\"1\",\"orderQuantity\":1")
        << 400 << "validation-failed"
        << "/beerOrderLines/0/id"
        << "read-only";
    QTest::newRow("read-only beerId") << ok << js
                                      << line("\"beerId\":\"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11\","
                                              "\"upc\":\"1\",\"orderQuantity\":1")
                                      << 400 << "validation-failed"
                                      << "/beerOrderLines/0/beerId"
                                      << "read-only";
    QTest::newRow("read-only quantityAllocated")
        << ok << js << line("\"quantityAllocated\":1,\"upc\":\"1\",\"orderQuantity\":1") << 400
        << "validation-failed"
        << "/beerOrderLines/0/quantityAllocated"
        << "read-only";
    QTest::newRow("unknown field") << ok << js << QByteArray("{\"orderStatusCallbackURL\":\"x\"}")
                                   << 400 << "validation-failed"
                                   << "/orderStatusCallbackURL"
                                   << "unknown-field";
    QTest::newRow("customerId differs")
        << ok << js << QByteArray("{\"customerId\":\"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11\"}")
        << 400 << "validation-failed"
        << "/customerId"
        << "mismatch";
    QTest::newRow("customerId not uuid")
        << ok << js << QByteArray("{\"customerId\":\"abc\"}") << 400 << "validation-failed"
        << "/customerId"
        << "invalid-format";
    QTest::newRow("customerId number")
        << ok << js << QByteArray("{\"customerId\":7}") << 400 << "validation-failed"
        << "/customerId"
        << "wrong-type";
    QTest::newRow("customerRef empty")
        << ok << js << QByteArray("{\"customerRef\":\"\"}") << 400 << "validation-failed"
        << "/customerRef"
        << "out-of-range";
    // Text stored as sent or refused: a lone surrogate (SQLite stored "Z\ud800Q" as U+10051),
    // control characters.
    QTest::newRow("customerRef lone surrogate")
        << ok << js << QByteArray("{\"customerRef\":\"Z\\ud800Q\"}") << 400 << "validation-failed"
        << "/customerRef"
        << "invalid-format";
    QTest::newRow("customerRef NUL")
        << ok << js << QByteArray("{\"customerRef\":\"a\\u0000b\"}") << 400 << "validation-failed"
        << "/customerRef"
        << "invalid-format";
    QTest::newRow("upc control character")
        << ok << js << line("\"upc\":\"0631\\u001b[2J\",\"orderQuantity\":1") << 400
        << "validation-failed"
        << "/beerOrderLines/0/upc"
        << "invalid-format";
    QTest::newRow("customerRef number")
        << ok << js << QByteArray("{\"customerRef\":5}") << 400 << "validation-failed"
        << "/customerRef"
        << "wrong-type";
    QTest::newRow("lines not array")
        << ok << js << QByteArray("{\"beerOrderLines\":{}}") << 400 << "validation-failed"
        << "/beerOrderLines"
        << "wrong-type";
    QTest::newRow("line not object")
        << ok << js << QByteArray("{\"beerOrderLines\":[7]}") << 400 << "validation-failed"
        << "/beerOrderLines/0"
        << "wrong-type";
    QByteArray many = "{\"beerOrderLines\":[";
    for (int i = 0; i < 101; ++i)
        many += QByteArray(i ? "," : "") + "{\"upc\":\"0631234200036\",\"orderQuantity\":1}";
    many += "]}";
    QTest::newRow("101 lines") << ok << js << many << 400 << "validation-failed"
                               << "/beerOrderLines"
                               << "out-of-range";
    const struct
    {
        const char *name;
        const char *url;
    } refused[] = {
        {"callback ftp", "ftp://example.com/hook"},
        {"callback relative", "/hooks/orders"},
        {"callback private 10.0.0.1", "http://10.0.0.1/hook"},
        {"callback metadata 169.254.169.254", "http://169.254.169.254/latest/meta-data/"},
        {"callback loopback 127.0.0.1", "http://127.0.0.1:9/hook"},
        {"callback [::1]", "http://[::1]:9/hook"},
        {"callback mapped ::ffff:127.0.0.1", "http://[::ffff:127.0.0.1]:9/hook"},
        {"callback localhost", "http://localhost:9/hook"},
        {"callback CGNAT", "https://100.64.1.1/hook"},
        {"callback ULA", "https://[fd00::1]/hook"},
    };
    for (const auto &r : refused)
        QTest::newRow(r.name) << ok << js
                              << ("{\"orderStatusCallbackUrl\":\"" + QByteArray(r.url) + "\"}")
                              << 400 << "validation-failed"
                              << "/orderStatusCallbackUrl"
                              << "callback-url-refused";
    QTest::newRow("callback number")
        << ok << js << QByteArray("{\"orderStatusCallbackUrl\":5}") << 400 << "validation-failed"
        << "/orderStatusCallbackUrl"
        << "wrong-type";
    QTest::newRow("customer id not uuid") << QStringLiteral("/v1/customers/not-a-uuid/orders") << js
                                          << QByteArray("{}") << 400 << "invalid-path-parameter"
                                          << ""
                                          << "";
    QTest::newRow("text/plain body")
        << ok << QByteArray("text/plain") << QByteArray("{}") << 415 << "unsupported-media-type"
        << ""
        << "";
    QTest::newRow("unknown customer")
        << QStringLiteral("/v1/customers/5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11/orders") << js
        << QByteArray("{}") << 404 << "customer-not-found"
        << ""
        << "";
    // Checked before the callback's host name is looked up (.invalid never resolves: 400
    // callback-url-refused after the lookup, before).
    QTest::newRow("unknown customer, callback by name")
        << QStringLiteral("/v1/customers/5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11/orders") << js
        << QByteArray("{\"orderStatusCallbackUrl\":\"https://hooks.example.invalid/orders\"}")
        << 404 << "customer-not-found"
        << ""
        << "";
}

void TestOrders::badRequests()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, contentType);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    QFETCH(QString, fieldCode);
    const qint64 ordersBefore = admin("GET", QStringLiteral("/admin/v1/orders?limit=1000"))
                                    .json()
                                    .value(QStringLiteral("items"))
                                    .toArray()
                                    .size();
    const Reply r = send("POST", service(QString(path).replace(QStringLiteral("{c}"), m_customer)),
                         body, {{"Content-Type", contentType}});
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
    const QJsonObject p = r.json();
    QCOMPARE(p.value(QStringLiteral("status")).toInt(), status);
    QCOMPARE(p.value(QStringLiteral("code")).toString(), code);
    QCOMPARE(p.value(QStringLiteral("type")).toString(),
             QStringLiteral("urn:gatehouse:problem:") + code);
    QVERIFY(!p.value(QStringLiteral("detail")).toString().isEmpty());
    QVERIFY(!p.value(QStringLiteral("title")).toString().isEmpty());
    if (!field.isEmpty()) {
        const QJsonArray errors = p.value(QStringLiteral("errors")).toArray();
        QVERIFY2(!errors.isEmpty(), r.body.constData());
        QCOMPARE(errors[0].toObject().value(QStringLiteral("field")).toString(), field);
        QCOMPARE(errors[0].toObject().value(QStringLiteral("code")).toString(), fieldCode);
        QVERIFY(!errors[0].toObject().value(QStringLiteral("message")).toString().isEmpty());
    }
    // Nothing was created by a refused request.
    QCOMPARE(admin("GET", QStringLiteral("/admin/v1/orders?limit=1000"))
                 .json()
                 .value(QStringLiteral("items"))
                 .toArray()
                 .size(),
             ordersBefore);
}

void TestOrders::callbackRefusalSaysWhy()
{
    const Reply r = send("POST", service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)),
                         "{\"orderStatusCallbackUrl\":\"http://169.254.169.254/\"}");
    QCOMPARE(r.status, 400);
    const QString message = r.json()
                                .value(QStringLiteral("errors"))
                                .toArray()[0]
                                .toObject()
                                .value(QStringLiteral("message"))
                                .toString();
    QVERIFY2(message.contains(QStringLiteral("169.254.169.254")) &&
                 message.contains(QStringLiteral("link-local")),
             qPrintable(message));
}

// Every host name lookup of the process taken (the resolver's limit, here 0): nothing is known
// of the name, so the order is refused for now (503, Retry-After), not as a name that does not
// resolve (400), and nothing is kept.
void TestOrders::callbackLookupsBusyIs503()
{
    const QString path = QStringLiteral("/v1/customers/%1/orders").arg(m_customer);
    const QUrl orders = service(path);
    const int before = send("GET", service(path + QStringLiteral("?pageSize=1")))
                           .json()
                           .value(QStringLiteral("totalElements"))
                           .toInt();
    Gatehouse::Core::Resolver::setLimitForTesting(0);
    auto restore = qScopeGuard([] {
        Gatehouse::Core::Resolver::setLimitForTesting(Gatehouse::Core::Resolver::MaxPending);
    });
    const QByteArray body = "{\"beerOrderLines\":[{\"upc\":\"0631234200036\",\"orderQuantity\":1}],"
                            "\"orderStatusCallbackUrl\":\"https://hooks.busy-lookups.example/x\"}";
    Reply r = send("POST", orders, body);
    QCOMPARE(r.status, 503);
    QCOMPARE(r.header("retry-after"), QByteArray("1"));
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("callback-lookups-busy"));
    QCOMPARE(send("GET", service(path + QStringLiteral("?pageSize=1")))
                 .json()
                 .value(QStringLiteral("totalElements"))
                 .toInt(),
             before);
    // Room again: a name is looked up (localhost, from the hosts file) and decided on.
    restore.dismiss();
    Gatehouse::Core::Resolver::setLimitForTesting(Gatehouse::Core::Resolver::MaxPending);
    r = send("POST", orders,
             "{\"beerOrderLines\":[{\"upc\":\"0631234200036\",\"orderQuantity\":1}],"
             "\"orderStatusCallbackUrl\":\"http://localhost:9/x\"}");
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.contains("does not resolve to a public address"), r.body.constData());
}

void TestOrders::notFound()
{
    const QString stranger = QStringLiteral("5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11");
    Reply r = send("GET",
                   service(QStringLiteral("/v1/customers/%1/orders/%2").arg(m_customer, stranger)));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("order-not-found"));
    r = send("GET", service(QStringLiteral("/v1/customers/%1/orders").arg(stranger)));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("customer-not-found"));
    r = send(
        "PUT",
        service(QStringLiteral("/v1/customers/%1/orders/%2/pickup").arg(m_customer, stranger)));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("order-not-found"));
    r = send("GET", service(QStringLiteral("/v1/beers/") + stranger));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("beer-not-found"));
    r = send("GET", service(QStringLiteral("/v1/beers/upc/0000")));
    QCOMPARE(r.status, 404);
    // Another customer's order is not found under this customer.
    const QString other = admin("POST", QStringLiteral("/admin/v1/customers"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("Other")}})
                              .json()
                              .value(QStringLiteral("customer"))
                              .toObject()
                              .value(QStringLiteral("id"))
                              .toString();
    const QString id = placeOrder({}, other).value(QStringLiteral("id")).toString();
    QVERIFY(isUuid(id));
    r = send("GET", service(QStringLiteral("/v1/customers/%1/orders/%2").arg(m_customer, id)));
    QCOMPARE(r.status, 404);
    // Unknown paths and methods answer in the same problem shape.
    r = send("DELETE", service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)));
    QCOMPARE(r.status, 405);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
    QVERIFY(r.header("allow").contains("POST"));
}

void TestOrders::duplicateCustomerRefConflicts()
{
    const QByteArray body = "{\"customerRef\":\"PO-dup\"}";
    const QUrl url = service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer));
    QCOMPARE(send("POST", url, body).status, 201);
    const Reply r = send("POST", url, body);
    QCOMPARE(r.status, 409);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("duplicate-customer-ref"));
    // The same reference for another customer is fine.
    const QString other = admin("POST", QStringLiteral("/admin/v1/customers"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("Other 2")}})
                              .json()
                              .value(QStringLiteral("customer"))
                              .toObject()
                              .value(QStringLiteral("id"))
                              .toString();
    QCOMPARE(
        send("POST", service(QStringLiteral("/v1/customers/%1/orders").arg(other)), body).status,
        201);
    // 255 characters are 255 code points: emoji (two UTF-16 units each) count once, and come
    // back as sent.
    QString emoji;
    for (int i = 0; i < 255; ++i)
        emoji += QString::fromUcs4(U"\U0001F37A", 1);
    const Reply beers =
        send("POST", url, json(QJsonObject{{QStringLiteral("customerRef"), emoji}}));
    QCOMPARE(beers.status, 201);
    QCOMPARE(order(beers.json().value(QStringLiteral("id")).toString())
                 .value(QStringLiteral("customerRef"))
                 .toString(),
             emoji);
    QCOMPARE(
        send("POST", url, json(QJsonObject{{QStringLiteral("customerRef"), emoji + 'x'}})).status,
        400);
}

void TestOrders::idempotencyKey()
{
    const QUrl url = service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer));
    const QByteArray body = "{\"customerRef\":\"PO-idem\"}";
    const Reply first = send("POST", url, body, {{"Idempotency-Key", "key-1"}});
    QCOMPARE(first.status, 201);
    const Reply again = send("POST", url, body, {{"Idempotency-Key", "key-1"}});
    QCOMPARE(again.status, 201);
    QCOMPARE(again.body, first.body);
    QCOMPARE(again.header("location"), first.header("location"));
    const Reply different =
        send("POST", url, "{\"customerRef\":\"PO-other\"}", {{"Idempotency-Key", "key-1"}});
    QCOMPARE(different.status, 409);
    QCOMPARE(different.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("idempotency-key-reused"));
    const Reply bad = send("POST", url, body, {{"Idempotency-Key", QByteArray(300, 'k')}});
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.json().value(QStringLiteral("code")).toString(), QStringLiteral("invalid-header"));
    int withRef = 0;
    for (const QJsonValue v :
         admin("GET", QStringLiteral("/admin/v1/orders?customerId=") + m_customer)
             .json()
             .value(QStringLiteral("items"))
             .toArray())
        withRef += v.toObject().value(QStringLiteral("customerRef")).toString() ==
                   QLatin1String("PO-idem");
    QCOMPARE(withRef, 1);
}

void TestOrders::idempotencyKeyIsRememberedForADay()
{
    // Stripe's rule: a key is remembered 24 hours, then the same key places a new order; and
    // storing a key deletes a few of the customer's expired ones, so that they do not pile up.
    const auto exec = [this](const QString &sql) { return execInWriter(sql); };
    const auto count = [this](const QString &where) {
        QSqlQuery q(m_backend->database().connection());
        if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM idempotency_keys WHERE ") + where) ||
            !q.next())
            return -1;
        return q.value(0).toInt();
    };
    const QString c = admin("POST", QStringLiteral("/admin/v1/customers"),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("A day")}})
                          .json()
                          .value(QStringLiteral("customer"))
                          .toObject()
                          .value(QStringLiteral("id"))
                          .toString();
    const QUrl url = service(QStringLiteral("/v1/customers/%1/orders").arg(c));
    const QByteArray body = "{\"customerRef\":\"PO-day\"}";
    const Reply first = send("POST", url, body, {{"Idempotency-Key", "day-1"}});
    QCOMPARE(first.status, 201);
    // 23 hours later: the same answer.
    QVERIFY(exec(QStringLiteral("UPDATE idempotency_keys SET created_at = created_at - %1 WHERE "
                                "key = 'day-1'")
                     .arg(23LL * 3600 * 1000)));
    QCOMPARE(send("POST", url, body, {{"Idempotency-Key", "day-1"}}).body, first.body);
    // A day and a moment later: a new order (the customerRef is free: use another body).
    QVERIFY(exec(QStringLiteral("UPDATE idempotency_keys SET created_at = created_at - %1 WHERE "
                                "key = 'day-1'")
                     .arg(3600LL * 1000 + 1)));
    const QByteArray other = "{\"customerRef\":\"PO-day-2\"}";
    const Reply renewed = send("POST", url, other, {{"Idempotency-Key", "day-1"}});
    QCOMPARE(renewed.status, 201);
    QVERIFY(renewed.json().value(QStringLiteral("id")) != first.json().value(QStringLiteral("id")));
    // ... which the key now answers.
    QCOMPARE(send("POST", url, other, {{"Idempotency-Key", "day-1"}}).body, renewed.body);
    QCOMPARE(send("POST", url, body, {{"Idempotency-Key", "day-1"}}).status, 409);

    // Ten keys two days old: the next key stored deletes eight of them.
    for (int i = 0; i < 10; ++i)
        QVERIFY(exec(QStringLiteral("INSERT INTO idempotency_keys (customer_id, key, body_hash, "
                                    "order_id, response, created_at) VALUES ('%1', 'old-%2', "
                                    "x'00', 'o', x'00', %3)")
                         .arg(c)
                         .arg(i)
                         .arg(QDateTime::currentMSecsSinceEpoch() - 2LL * 24 * 3600 * 1000)));
    const QString old = QStringLiteral("customer_id = '%1' AND key LIKE 'old-%'").arg(c);
    QCOMPARE(count(old), 10);
    QCOMPARE(send("POST", url, "{}", {{"Idempotency-Key", "day-2"}}).status, 201);
    QCOMPARE(count(old), 2);
    QCOMPARE(count(QStringLiteral("customer_id = '%1' AND key LIKE 'day-%'").arg(c)), 2);
}

void TestOrders::lifecycleToDelivered()
{
    const qint64 firstEvent = m_backend->events().lastSeq() + 1;
    const QJsonObject created =
        placeOrder(QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("0083783375221")},
                                          {QStringLiteral("orderQuantity"), 4}}});
    const QString id = created.value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("ALLOCATED"), timeoutMs());
    // The order.created event (written as text) is the 201 body with the customer's name.
    const auto createdEvent = [this, firstEvent, &id] {
        for (const Gatehouse::Core::Event &e : m_backend->events().since(firstEvent - 1))
            if (e.type == QLatin1String("order.created") &&
                e.value(QLatin1StringView("id")).toString() == id)
                return e.data();
        return QJsonObject();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!createdEvent().isEmpty(), timeoutMs());
    QJsonObject expectedEvent = created;
    expectedEvent.insert(QStringLiteral("customerName"), QStringLiteral("Test Pub"));
    QCOMPARE(createdEvent(), expectedEvent);
    const QJsonObject o = order(id);
    QCOMPARE(o.value(QStringLiteral("beerOrderLines"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("quantityAllocated"))
                 .toInt(),
             4);
    QStringList statuses;
    for (const QJsonValue h : o.value(QStringLiteral("history")).toArray()) {
        statuses.append(h.toObject().value(QStringLiteral("status")).toString());
        QVERIFY(!h.toObject().value(QStringLiteral("at")).toString().isEmpty());
    }
    QCOMPARE(statuses,
             (QStringList{QStringLiteral("NEW"), QStringLiteral("VALIDATION_PENDING"),
                          QStringLiteral("VALIDATED"), QStringLiteral("ALLOCATION_PENDING"),
                          QStringLiteral("ALLOCATED")}));
    const QString base = QStringLiteral("/v1/customers/%1/orders/%2").arg(m_customer, id);
    Reply r = send("PUT", service(base + QStringLiteral("/pickup")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("orderStatus")).toString(), QStringLiteral("PICKED_UP"));
    r = send("PUT", service(base + QStringLiteral("/pickup")));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("invalid-state-transition"));
    r = send("PUT", service(base + QStringLiteral("/cancel")));
    QCOMPARE(r.status, 409);
    r = admin("POST", QStringLiteral("/admin/v1/orders/%1/deliver").arg(id));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("orderStatus")).toString(), QStringLiteral("DELIVERED"));
    QCOMPARE(order(id).value(QStringLiteral("history")).toArray().size(), 7);
    // Every status change was announced on the admin event stream, with the order's creation
    // time (the console places the order in its list by it).
    // (Published from the events queue: they may come a moment after the answers.)
    const auto announced = [this, firstEvent, &id] {
        QStringList statuses;
        for (const Gatehouse::Core::Event &e : m_backend->events().since(firstEvent)) {
            if (e.type == QLatin1String("order.status") &&
                e.data().value(QStringLiteral("orderId")).toString() == id)
                statuses.append(e.data().value(QStringLiteral("orderStatus")).toString());
        }
        return statuses;
    };
    QTRY_COMPARE_WITH_TIMEOUT(
        announced(),
        (QStringList{QStringLiteral("VALIDATION_PENDING"), QStringLiteral("VALIDATED"),
                     QStringLiteral("ALLOCATION_PENDING"), QStringLiteral("ALLOCATED"),
                     QStringLiteral("PICKED_UP"), QStringLiteral("DELIVERED")}),
        timeoutMs());
    for (const Gatehouse::Core::Event &e : m_backend->events().since(firstEvent)) {
        if (e.type == QLatin1String("order.status") &&
            e.data().value(QStringLiteral("orderId")).toString() == id) {
            QCOMPARE(e.data().value(QStringLiteral("createdDate")),
                     o.value(QStringLiteral("createdDate")));
            QCOMPARE(e.data().value(QStringLiteral("customerId")).toString(), m_customer);
        }
    }
}

void TestOrders::orderJsonHasEveryMember()
{
    // An order as the API shows it (201 body, GET, lists, events), in every shape: optional
    // members null or absent as documented, escapes read back, times as ISO 8601 with ms.
    using Gatehouse::Orders::Order;
    using Gatehouse::Orders::OrderLine;
    using Gatehouse::Orders::OrderStatus;
    Order o;
    o.id = QStringLiteral("0190aaaa-0000-7000-8000-000000000002");
    o.customerId = QStringLiteral("7c1f0b5e-0000-4000-8000-000000000001");
    o.status = OrderStatus::PendingInventory;
    o.version = 6;
    o.createdAt = 1'795'000'000'123;
    o.updatedAt = 1'795'000'009'999;
    const QString ref = QStringLiteral("ref \"1\" \u00e9 \\ \xd800");
    const QString url = QStringLiteral("https://hooks.example.test/in?a=1&b=<2>");
    for (int shape = 0; shape < 4; ++shape) {
        o.customerRef = shape & 1 ? std::optional<QString>(ref) : std::nullopt;
        o.callbackUrl = shape & 2 ? url : QString();
        o.lines.clear();
        for (int n = 0; n < shape; ++n) {
            OrderLine l;
            l.id = QStringLiteral("line-%1").arg(n);
            l.upc = QStringLiteral("008378337522%1").arg(n);
            l.orderQuantity = 999 - n;
            l.quantityAllocated = n;
            if (n % 2)
                l.beerId = QStringLiteral("beer-%1").arg(n);
            o.lines.append(l);
        }
        QJsonParseError err{};
        const QJsonObject j = QJsonDocument::fromJson(o.toJsonText(), &err).object();
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(j, o.toJson());
        QStringList expectedKeys{"beerOrderLines", "createdDate", "customerId",
                                 "customerRef",    "id",          "lastModifiedDate",
                                 "orderStatus",    "version"};
        if (shape & 2)
            expectedKeys.append(QStringLiteral("orderStatusCallbackUrl"));
        expectedKeys.sort();
        QCOMPARE(j.keys(), expectedKeys);
        QCOMPARE(j.value(QStringLiteral("id")).toString(), o.id);
        QCOMPARE(j.value(QStringLiteral("customerId")).toString(), o.customerId);
        if (shape & 1)
            QCOMPARE(j.value(QStringLiteral("customerRef")).toString(), ref);
        else
            QVERIFY(j.value(QStringLiteral("customerRef")).isNull());
        if (shape & 2)
            QCOMPARE(j.value(QStringLiteral("orderStatusCallbackUrl")).toString(), url);
        QCOMPARE(j.value(QStringLiteral("orderStatus")).toString(),
                 QStringLiteral("PENDING_INVENTORY"));
        QVERIFY(j.value(QStringLiteral("version")).isDouble());
        QCOMPARE(j.value(QStringLiteral("version")).toInt(), 6);
        QCOMPARE(j.value(QStringLiteral("createdDate")).toString(),
                 QStringLiteral("2026-11-18T11:06:40.123Z"));
        QCOMPARE(j.value(QStringLiteral("lastModifiedDate")).toString(),
                 QStringLiteral("2026-11-18T11:06:49.999Z"));
        const QJsonArray lines = j.value(QStringLiteral("beerOrderLines")).toArray();
        QCOMPARE(lines.size(), shape);
        for (int n = 0; n < shape; ++n) {
            const QJsonObject l = lines.at(n).toObject();
            QCOMPARE(l.value(QStringLiteral("id")).toString(), QStringLiteral("line-%1").arg(n));
            QCOMPARE(l.value(QStringLiteral("upc")).toString(),
                     QStringLiteral("008378337522%1").arg(n));
            QCOMPARE(l.value(QStringLiteral("orderQuantity")).toInt(), 999 - n);
            QCOMPARE(l.value(QStringLiteral("quantityAllocated")).toInt(), n);
            QCOMPARE(l.contains(QStringLiteral("beerId")), n % 2 == 1);
            if (n % 2)
                QCOMPARE(l.value(QStringLiteral("beerId")).toString(),
                         QStringLiteral("beer-%1").arg(n));
        }
    }
}

void TestOrders::burstOfOrdersRunsEveryLifecycleOnce()
{
    // Orders placed at once are all answered 201 in NEW, and each runs its lifecycle exactly
    // once: every one ALLOCATED with one history row per status, the stock down by exactly
    // what they took, and the admin status's lifecycleBacklog at 0.
    constexpr int Orders = 120;
    const QString upc = QStringLiteral("0631234300019");
    const int stockBefore = beer(upc).value(QStringLiteral("quantityOnHand")).toInt();
    QVERIFY(stockBefore >= Orders);
    QNetworkAccessManager nam;
    QNetworkRequest req(service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    req.setTransferTimeout(timeoutMs());
    const QByteArray body =
        json(QJsonObject{{QStringLiteral("beerOrderLines"),
                          QJsonArray{QJsonObject{{QStringLiteral("upc"), upc},
                                                 {QStringLiteral("orderQuantity"), 1}}}}});
    QStringList ids;
    QStringList answeredStatus;
    int answered = 0;
    for (int i = 0; i < Orders; ++i) {
        QNetworkReply *reply = nam.post(req, body);
        QObject::connect(reply, &QNetworkReply::finished, reply, [&, reply] {
            ++answered;
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 201) {
                const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
                ids.append(o.value(QStringLiteral("id")).toString());
                answeredStatus.append(o.value(QStringLiteral("orderStatus")).toString());
            }
            reply->deleteLater();
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, Orders, timeoutMs());
    QCOMPARE(ids.size(), Orders);
    QCOMPARE(answeredStatus, QStringList(Orders, QStringLiteral("NEW")));
    const auto backlog = [this] {
        const QJsonValue v = admin("GET", QStringLiteral("/admin/v1/status"))
                                 .json()
                                 .value(QStringLiteral("orders"))
                                 .toObject()
                                 .value(QStringLiteral("lifecycleBacklog"));
        return v.isDouble() ? v.toInt() : -1;
    };
    QTRY_COMPARE_WITH_TIMEOUT(backlog(), 0, timeoutMs());
    const QStringList expected{QStringLiteral("NEW"), QStringLiteral("VALIDATION_PENDING"),
                               QStringLiteral("VALIDATED"), QStringLiteral("ALLOCATION_PENDING"),
                               QStringLiteral("ALLOCATED")};
    for (const QString &id : std::as_const(ids)) {
        const QJsonObject o = order(id);
        QCOMPARE(o.value(QStringLiteral("orderStatus")).toString(), QStringLiteral("ALLOCATED"));
        QStringList statuses;
        for (const QJsonValue h : o.value(QStringLiteral("history")).toArray())
            statuses.append(h.toObject().value(QStringLiteral("status")).toString());
        QCOMPARE(statuses, expected);
    }
    QCOMPARE(beer(upc).value(QStringLiteral("quantityOnHand")).toInt(), stockBefore - Orders);
}

void TestOrders::stopDuringTakeUpLosesNoOrder()
{
    // Orders a crash left in NEW are taken up at start, 256 at a time. A stop during that
    // take-up refuses its next batch; that ends it (it used to submit the refused batch again
    // from the refusal itself, without end), and the next start finishes every order.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto config = Gatehouse::Core::ConfigResolver::resolve(
        {{QStringLiteral("data-dir"), dir.path()},
         {QStringLiteral("service-port"), QStringLiteral("0")},
         {QStringLiteral("cluster-port"), QStringLiteral("0")},
         {QStringLiteral("admin-port"), QStringLiteral("0")}},
        QProcessEnvironment());
    QVERIFY(config);
    const auto stop = [](Backend &b) {
        bool stopped = false;
        b.stop([&stopped] { stopped = true; });
        QTRY_VERIFY_WITH_TIMEOUT(stopped, timeoutMs());
    };
    constexpr int Orders = 10000;
    {
        Backend b(*config);
        QVERIFY(b.start());
        auto written = b.writer().run(
            [](Gatehouse::Core::WriteTransaction &tx) -> Gatehouse::Core::Result<void> {
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                const Gatehouse::Orders::Customer c{Gatehouse::Crypto::Random::uuid(),
                                                    QStringLiteral("Crash Pub"), now};
                if (auto r = Gatehouse::Orders::OrderStore::insertCustomer(tx, c); !r)
                    return r;
                for (int i = 0; i < Orders; ++i) {
                    Gatehouse::Orders::Order o; // no lines: validates and allocates at once
                    o.id = Gatehouse::Crypto::Random::uuidV7(now);
                    o.customerId = c.id;
                    o.status = Gatehouse::Orders::OrderStatus::New;
                    o.version = 1;
                    o.createdAt = o.updatedAt = now;
                    if (auto r = Gatehouse::Orders::OrderStore::insertHistory(tx, o); !r)
                        return r;
                    if (auto r = Gatehouse::Orders::OrderStore::insertOrderRows(tx, o); !r)
                        return r;
                }
                return {};
            });
        QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
        stop(b);
    }
    {
        Backend b(*config);
        QVERIFY(b.start());
        QVERIFY(b.orders().lifecycleBacklog() > 0);
        stop(b); // during the take-up
    }
    Backend b(*config);
    QVERIFY(b.start());
    QTRY_COMPARE_WITH_TIMEOUT(b.orders().lifecycleBacklog(), 0, timeoutMs());
    QSqlQuery q(b.database().connection());
    QVERIFY(q.exec(QStringLiteral("SELECT status, COUNT(*) FROM orders GROUP BY status")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("ALLOCATED"));
    QCOMPARE(q.value(1).toInt(), Orders);
    QVERIFY(!q.next());
    q.finish();
    stop(b);
}

void TestOrders::failedLifecycleBatchIsRetried()
{
    // A lifecycle batch that fails (here a trigger refuses the next status while a flag is
    // set, as a busy database or a failed group commit would) loses no order: the orders are
    // tried again one by one after a pause, and end ALLOCATED, each transition once, once the
    // cause is gone. (Before, the orders of a failed batch waited for the next start.)
    const auto exec = [this](const QString &sql) { return execInWriter(sql); };
    QVERIFY(exec(QStringLiteral("CREATE TABLE test_fail (on_ INTEGER NOT NULL)")));
    QVERIFY(exec(QStringLiteral("INSERT INTO test_fail VALUES (1)")));
    QVERIFY(exec(QStringLiteral(
        "CREATE TRIGGER test_fail_validation BEFORE INSERT ON order_history WHEN "
        "NEW.status = 'VALIDATION_PENDING' AND (SELECT on_ FROM test_fail) = 1 BEGIN "
        "SELECT RAISE(ABORT, 'injected failure'); END")));
    QStringList ids;
    for (int i = 0; i < 3; ++i)
        ids.append(placeOrder(QJsonArray{QJsonObject{
                                  {QStringLiteral("upc"), QStringLiteral("0083783375221")},
                                  {QStringLiteral("orderQuantity"), 1}}})
                       .value(QStringLiteral("id"))
                       .toString());
    QTest::qWait(300); // the batch and a first retry fail meanwhile
    for (const QString &id : std::as_const(ids))
        QCOMPARE(statusOf(id), QStringLiteral("NEW"));
    QVERIFY(m_backend->orders().lifecycleBacklog() > 0); // still scheduled, not dropped
    QVERIFY(exec(QStringLiteral("UPDATE test_fail SET on_ = 0")));
    const QStringList expected{QStringLiteral("NEW"), QStringLiteral("VALIDATION_PENDING"),
                               QStringLiteral("VALIDATED"), QStringLiteral("ALLOCATION_PENDING"),
                               QStringLiteral("ALLOCATED")};
    for (const QString &id : std::as_const(ids)) {
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("ALLOCATED"), timeoutMs());
        QStringList statuses;
        for (const QJsonValue h : order(id).value(QStringLiteral("history")).toArray())
            statuses.append(h.toObject().value(QStringLiteral("status")).toString());
        QCOMPARE(statuses, expected);
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_backend->orders().lifecycleBacklog(), 0, timeoutMs());
    QVERIFY(exec(QStringLiteral("DROP TRIGGER test_fail_validation")));
    QVERIFY(exec(QStringLiteral("DROP TABLE test_fail")));
}

void TestOrders::pendingInventoryThenRestock()
{
    // Salty Shore starts with nothing on hand.
    const QJsonObject salty = beer(QStringLiteral("0083783375222"));
    QCOMPARE(salty.value(QStringLiteral("quantityOnHand")).toInt(), 0);
    const QString beerId = salty.value(QStringLiteral("id")).toString();
    const QString id =
        placeOrder(QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("0083783375222")},
                                          {QStringLiteral("orderQuantity"), 5}}})
            .value(QStringLiteral("id"))
            .toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("PENDING_INVENTORY"), timeoutMs());
    Reply r = admin("POST", QStringLiteral("/admin/v1/beers/%1/restock").arg(beerId),
                    QJsonObject{{QStringLiteral("quantity"), 3}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("quantityOnHand")).toInt(), 0); // all went to the order
    QCOMPARE(statusOf(id), QStringLiteral("PENDING_INVENTORY"));
    QCOMPARE(order(id)
                 .value(QStringLiteral("beerOrderLines"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("quantityAllocated"))
                 .toInt(),
             3);
    r = admin("POST", QStringLiteral("/admin/v1/beers/%1/restock").arg(beerId),
              QJsonObject{{QStringLiteral("quantity"), 10}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("quantityOnHand")).toInt(), 8);
    QCOMPARE(statusOf(id), QStringLiteral("ALLOCATED"));
    r = admin("POST", QStringLiteral("/admin/v1/beers/%1/restock").arg(beerId),
              QJsonObject{{QStringLiteral("quantity"), 0}});
    QCOMPARE(r.status, 400);
}

void TestOrders::validationAndAllocationExceptions()
{
    QString id =
        placeOrder(QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("999999999999")},
                                          {QStringLiteral("orderQuantity"), 1}}})
            .value(QStringLiteral("id"))
            .toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("VALIDATION_EXCEPTION"), timeoutMs());
    QVERIFY(!order(id)
                 .value(QStringLiteral("beerOrderLines"))
                 .toArray()[0]
                 .toObject()
                 .contains(QStringLiteral("beerId")));

    const QString beerId =
        beer(QStringLiteral("0083783375219")).value(QStringLiteral("id")).toString();
    QCOMPARE(admin("POST", QStringLiteral("/admin/v1/beers/%1/discontinue").arg(beerId)).status,
             200);
    id = placeOrder(QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("0083783375219")},
                                           {QStringLiteral("orderQuantity"), 1}}})
             .value(QStringLiteral("id"))
             .toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("ALLOCATION_EXCEPTION"), timeoutMs());
    QCOMPARE(admin("POST", QStringLiteral("/admin/v1/beers/%1/reinstate").arg(beerId)).status, 200);
    const Reply r = send(
        "PUT", service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, id)));
    QCOMPARE(r.status, 409);
}

void TestOrders::cancelReturnsStock()
{
    const int before =
        beer(QStringLiteral("0083783375215")).value(QStringLiteral("quantityOnHand")).toInt();
    const QString id =
        placeOrder(QJsonArray{QJsonObject{{QStringLiteral("upc"), QStringLiteral("0083783375215")},
                                          {QStringLiteral("orderQuantity"), 7}}})
            .value(QStringLiteral("id"))
            .toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("ALLOCATED"), timeoutMs());
    QCOMPARE(beer(QStringLiteral("0083783375215")).value(QStringLiteral("quantityOnHand")).toInt(),
             before - 7);
    const Reply r = send(
        "PUT", service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, id)));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("orderStatus")).toString(), QStringLiteral("CANCELLED"));
    QCOMPARE(beer(QStringLiteral("0083783375215")).value(QStringLiteral("quantityOnHand")).toInt(),
             before);
    QCOMPARE(send("PUT",
                  service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, id)))
                 .status,
             409);
}

namespace {

int allocatedOf(const QJsonObject &order, int line)
{
    return order.value(QStringLiteral("beerOrderLines"))
        .toArray()[line]
        .toObject()
        .value(QStringLiteral("quantityAllocated"))
        .toInt();
}

QJsonObject line(const char *upc, int quantity)
{
    return QJsonObject{{QStringLiteral("upc"), QLatin1String(upc)},
                       {QStringLiteral("orderQuantity"), quantity}};
}

} // namespace

void TestOrders::cancelledWaitingOrderLeavesItsStockToOthers()
{
    // Double Barrel Hunahpu's: A waits with all of it, B waits with none; A is cancelled.
    const char *upc = "0083783375220";
    const int onHand = beer(QLatin1String(upc)).value(QStringLiteral("quantityOnHand")).toInt();
    QVERIFY(onHand >= 2);
    const QString a =
        placeOrder(QJsonArray{line(upc, onHand + 5)}).value(QStringLiteral("id")).toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(a), QStringLiteral("PENDING_INVENTORY"), timeoutMs());
    const QString b = placeOrder(QJsonArray{line(upc, 2)}).value(QStringLiteral("id")).toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(b), QStringLiteral("PENDING_INVENTORY"), timeoutMs());
    QCOMPARE(allocatedOf(order(a), 0), onHand);
    QCOMPARE(allocatedOf(order(b), 0), 0);

    const Reply r = send(
        "PUT", service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, a)));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("orderStatus")).toString(), QStringLiteral("CANCELLED"));
    QCOMPARE(allocatedOf(r.json(), 0), 0);
    // Stored as answered: the cancelled order holds nothing; B, waiting, took its 2.
    QCOMPARE(statusOf(a), QStringLiteral("CANCELLED"));
    QCOMPARE(allocatedOf(order(a), 0), 0);
    QCOMPARE(statusOf(b), QStringLiteral("ALLOCATED"));
    QCOMPARE(beer(QLatin1String(upc)).value(QStringLiteral("quantityOnHand")).toInt(), onHand - 2);
    QCOMPARE(
        send("PUT", service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, b)))
            .status,
        200);
    QCOMPARE(beer(QLatin1String(upc)).value(QStringLiteral("quantityOnHand")).toInt(), onHand);
}

void TestOrders::reinstatedBeerAllocatesWaitingOrders()
{
    // Adjunct Trail runs short, Blessed is then discontinued: the order waits for both (a
    // restock of Adjunct Trail cannot complete it), and reinstating Blessed completes it.
    const char *trail = "0083783375218";
    const char *blessed = "0083783375217";
    const int trailOnHand =
        beer(QLatin1String(trail)).value(QStringLiteral("quantityOnHand")).toInt();
    const int blessedOnHand =
        beer(QLatin1String(blessed)).value(QStringLiteral("quantityOnHand")).toInt();
    QVERIFY(blessedOnHand >= 1);
    const QString id = placeOrder(QJsonArray{line(trail, trailOnHand + 5), line(blessed, 1)})
                           .value(QStringLiteral("id"))
                           .toString();
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("PENDING_INVENTORY"), timeoutMs());
    const QString trailId = beer(QLatin1String(trail)).value(QStringLiteral("id")).toString();
    const QString blessedId = beer(QLatin1String(blessed)).value(QStringLiteral("id")).toString();
    QCOMPARE(admin("POST", QStringLiteral("/admin/v1/beers/%1/discontinue").arg(blessedId)).status,
             200);
    Reply r = admin("POST", QStringLiteral("/admin/v1/beers/%1/restock").arg(trailId),
                    QJsonObject{{QStringLiteral("quantity"), 10}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("quantityOnHand")).toInt(), 10); // nothing taken
    QCOMPARE(statusOf(id), QStringLiteral("PENDING_INVENTORY"));

    r = admin("POST", QStringLiteral("/admin/v1/beers/%1/reinstate").arg(blessedId));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("discontinued")).toBool(), false);
    QCOMPARE(statusOf(id), QStringLiteral("ALLOCATED"));
    QCOMPARE(beer(QLatin1String(trail)).value(QStringLiteral("quantityOnHand")).toInt(), 5);

    r = send("PUT",
             service(QStringLiteral("/v1/customers/%1/orders/%2/cancel").arg(m_customer, id)));
    QCOMPARE(r.status, 200);
    QCOMPARE(beer(QLatin1String(trail)).value(QStringLiteral("quantityOnHand")).toInt(),
             trailOnHand + 10);
    QCOMPARE(beer(QLatin1String(blessed)).value(QStringLiteral("quantityOnHand")).toInt(),
             blessedOnHand);
}

void TestOrders::pagingAndBeers()
{
    const QString c = admin("POST", QStringLiteral("/admin/v1/customers"),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("Pager")}})
                          .json()
                          .value(QStringLiteral("customer"))
                          .toObject()
                          .value(QStringLiteral("id"))
                          .toString();
    for (int i = 0; i < 5; ++i)
        QVERIFY(!placeOrder({}, c).isEmpty());
    const QString list = QStringLiteral("/v1/customers/%1/orders").arg(c);
    Reply r = send("GET", service(list + QStringLiteral("?pageSize=2&pageNumber=2")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("totalElements")).toInt(), 5);
    QCOMPARE(r.json().value(QStringLiteral("totalPages")).toInt(), 3);
    QCOMPARE(r.json().value(QStringLiteral("content")).toArray().size(), 1);
    for (const char *bad : {"?pageSize=0", "?pageSize=101", "?pageNumber=-1", "?pageSize=abc"}) {
        r = send("GET", service(list + QLatin1String(bad)));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("invalid-query-parameter"));
    }
    r = send("GET", service(QStringLiteral("/v1/beers?beerName=porter")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("totalElements")).toInt(), 1);
    QCOMPARE(r.json()
                 .value(QStringLiteral("content"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("upc"))
                 .toString(),
             QStringLiteral("0083783375213"));
    r = send("GET", service(QStringLiteral("/v1/beers?beerStyle=STOUT&pageSize=100")));
    QCOMPARE(r.json().value(QStringLiteral("totalElements")).toInt(), 3);
    r = send("GET", service(QStringLiteral("/v1/beers?beerStyle=LAGERISH")));
    QCOMPARE(r.status, 400);
    const QJsonObject b = beer(QStringLiteral("0631234200036"));
    QCOMPARE(b.value(QStringLiteral("price")).toString(), QStringLiteral("12.95"));
    QCOMPARE(send("GET",
                  service(QStringLiteral("/v1/beers/") + b.value(QStringLiteral("id")).toString()))
                 .json(),
             b);
}

void TestOrders::oversizedBodyRefused()
{
    const Reply r = send("POST", service(QStringLiteral("/v1/customers/%1/orders").arg(m_customer)),
                         "{\"customerRef\":\"" + QByteArray(70'000, 'x') + "\"}");
    QCOMPARE(r.status, 413);
    QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
}

void TestOrders::demoReceiverGetsSignedCallbacksInOrder()
{
    const Reply r = admin("POST", QStringLiteral("/admin/v1/test-orders"),
                          QJsonObject{{QStringLiteral("customerId"), m_customer}});
    QCOMPARE(r.status, 201);
    const QString id = r.json().value(QStringLiteral("id")).toString();
    QVERIFY(r.json()
                .value(QStringLiteral("orderStatusCallbackUrl"))
                .toString()
                .contains(QStringLiteral("/hooks/") + m_customer));
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(id), QStringLiteral("ALLOCATED"), timeoutMs());
    // What the receiver got is for admin tokens that read the orders area
    // (/admin/v1/demo-receiver), not for anyone on this host who finds its port.
    const QUrl callback(r.json().value(QStringLiteral("orderStatusCallbackUrl")).toString());
    QCOMPARE(send("GET", callback.resolved(QUrl(QStringLiteral("/hooks")))).status, 404);
    QCOMPARE(send("GET", callback).status, 405);
    auto received = [this, id] {
        QStringList statuses;
        const QJsonArray all = admin("GET", QStringLiteral("/admin/v1/demo-receiver"))
                                   .json()
                                   .value(QStringLiteral("received"))
                                   .toArray();
        for (qsizetype i = all.size() - 1; i >= 0; --i) {
            const QJsonObject o = all[i].toObject();
            if (o.value(QStringLiteral("orderId")).toString() == id &&
                o.value(QStringLiteral("verified")).toBool())
                statuses.append(o.value(QStringLiteral("orderStatus")).toString());
        }
        return statuses;
    };
    QTRY_COMPARE_WITH_TIMEOUT(
        received(),
        (QStringList{QStringLiteral("NEW"), QStringLiteral("VALIDATION_PENDING"),
                     QStringLiteral("VALIDATED"), QStringLiteral("ALLOCATION_PENDING"),
                     QStringLiteral("ALLOCATED")}),
        timeoutMs());
    const QJsonArray deliveries = order(id).value(QStringLiteral("deliveries")).toArray();
    QCOMPARE(deliveries.size(), 5);
    for (const QJsonValue d : deliveries) {
        QTRY_COMPARE_WITH_TIMEOUT(
            admin("GET", QStringLiteral("/admin/v1/deliveries/") +
                             d.toObject().value(QStringLiteral("id")).toString())
                .json()
                .value(QStringLiteral("state"))
                .toString(),
            QStringLiteral("succeeded"), timeoutMs());
    }
    const QJsonObject detail =
        admin("GET", QStringLiteral("/admin/v1/deliveries/") +
                         deliveries[0].toObject().value(QStringLiteral("id")).toString())
            .json();
    const QJsonObject attempt = detail.value(QStringLiteral("attempts")).toArray()[0].toObject();
    QCOMPARE(attempt.value(QStringLiteral("status")).toInt(), 204);
    const QJsonObject sentHeaders = attempt.value(QStringLiteral("requestHeaders")).toObject();
    QVERIFY(sentHeaders.value(QStringLiteral("webhook-signature"))
                .toString()
                .startsWith(QStringLiteral("v1,")));
    QCOMPARE(sentHeaders.value(QStringLiteral("webhook-id")).toString(),
             deliveries[0].toObject().value(QStringLiteral("id")).toString());
    QCOMPARE(sentHeaders.value(QStringLiteral("content-type")).toString(),
             QStringLiteral("application/json"));
    QVERIFY(sentHeaders.value(QStringLiteral("webhook-timestamp")).toString().toLongLong() >
            1'700'000'000);
    QCOMPARE(sentHeaders.value(QStringLiteral("connected-to")).toString(),
             QStringLiteral("127.0.0.1"));
    QVERIFY(sentHeaders.value(QStringLiteral("host"))
                .toString()
                .startsWith(QStringLiteral("127.0.0.1:")));
    QCOMPARE(detail.value(QStringLiteral("payload")).toString(),
             QStringLiteral("{\"orderId\":\"%1\",\"orderStatus\":\"NEW\"}").arg(id));
}

void TestOrders::eventStreamKeepsEveryEventInOrder()
{
    // Events are published from several threads (writer, events queue, dispatcher, HTTP);
    // a subscriber must still get every one, in sequence.
    QTcpSocket sse;
    sse.connectToHost(QHostAddress::LocalHost, QUrl(m_backend->adminUrl()).port());
    QVERIFY(sse.waitForConnected(timeoutMs()));
    sse.write("GET /admin/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
              m_backend->adminToken().toUtf8() + "\r\n\r\n");
    QByteArray in;
    QTRY_VERIFY_WITH_TIMEOUT((in += sse.readAll()).contains(": gatehouse event stream"),
                             timeoutMs());
    const qint64 first = m_backend->events().lastSeq() + 1;
    constexpr int Threads = 4;
    constexpr int PerThread = 200;
    QList<QThread *> threads;
    for (int t = 0; t < Threads; ++t) {
        threads.append(QThread::create([this] {
            for (int i = 0; i < PerThread; ++i)
                m_backend->events().publish(QStringLiteral("test.burst"), {});
        }));
        threads.last()->start();
    }
    for (QThread *t : std::as_const(threads)) {
        QVERIFY(t->wait(10000));
        delete t;
    }
    // Other events (stats, ...) may interleave; every burst event must arrive, and the stream
    // must carry consecutive sequence numbers with no gap.
    auto burstCount = [&in] { return int(in.count("event: test.burst\n")); };
    QTRY_VERIFY_WITH_TIMEOUT((in += sse.readAll(), burstCount() == Threads * PerThread),
                             timeoutMs());
    QList<qint64> ids;
    for (const QByteArray &line : in.split('\n'))
        if (line.startsWith("id: "))
            ids.append(line.mid(4).toLongLong());
    ids.erase(std::remove_if(ids.begin(), ids.end(), [first](qint64 id) { return id < first; }),
              ids.end());
    QVERIFY(ids.size() >= Threads * PerThread);
    QCOMPARE(ids.first(), first);
    for (qsizetype i = 0; i < ids.size(); ++i)
        QCOMPARE(ids[i], first + i);
}

// Retention (delivery-history-days): finished deliveries with their attempts, and finished
// redelivery jobs, older than the window go; pending deliveries and recent ones stay. The pass
// is a chain of writer jobs (here of one delivery each); a call during a pass joins it, and a
// pass outliving its RedeliveryJobs calls nothing back.
void TestOrders::deliveryHistoryIsPrunedAfterItsDays()
{
    using namespace Gatehouse;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDateTime now =
        QDateTime::fromString(QStringLiteral("2026-11-21T12:00:00Z"), Qt::ISODate);
    Core::ManualClock clock(now);
    auto db = Core::Database::open(dir.filePath(QStringLiteral("history.db")),
                                   Core::Database::coreMigrations()
                                       << Webhooks::WebhookStore::migration()
                                       << Orders::OrderStore::migration()
                                       << Webhooks::RedeliveryJobs::migration(),
                                   clock);
    QVERIFY2(db, qPrintable(db ? QString() : db.error().message));
    Core::WriteQueue writer(**db, QStringLiteral("test-writer"));
    Core::EventBus events(clock);
    Webhooks::WebhookService webhooks(
        **db, writer, events, clock, nullptr,
        [](Core::WriteTransaction &, const QString &) -> Core::Result<bool> { return true; });
    Webhooks::RedeliveryJobs jobs(**db, writer, events, clock, webhooks, 30, 1);
    const qint64 day = 24LL * 3600 * 1000;
    const qint64 t = now.toMSecsSinceEpoch();
    // id, state, completed_at (0: NULL)
    const QList<std::tuple<QString, QString, qint64>> rows{
        {QStringLiteral("old-ok"), QStringLiteral("succeeded"), t - 31 * day},
        {QStringLiteral("old-failed"), QStringLiteral("failed"), t - 40 * day},
        {QStringLiteral("recent"), QStringLiteral("succeeded"), t - 29 * day},
        {QStringLiteral("old-pending"), QStringLiteral("pending"), 0}};
    auto seeded = writer.run([&](Core::WriteTransaction &tx) -> Core::Result<void> {
        QSqlQuery &e = tx.query(QStringLiteral(
            "INSERT INTO webhook_endpoints (id, owner_id, url, created_at) VALUES ('e', 'c', "
            "'http://example.invalid/', 0)"));
        if (!e.exec())
            return Core::WriteTransaction::sqlError(e, "endpoint");
        // Endpoints no delivery refers to: only the enabled, healthy one made before the
        // window goes.
        QSqlQuery &unused = tx.query(QStringLiteral(
            "INSERT INTO webhook_endpoints (id, owner_id, url, state, failing_since, "
            "created_at) VALUES (?, 'c', ?, ?, ?, ?)"));
        for (const auto &[id, state, failing, created] :
             {std::tuple<const char *, const char *, qint64, qint64>{"unused-old", "enabled", 0,
                                                                     t - 31 * day},
              {"unused-disabled", "disabled", 0, t - 31 * day},
              {"unused-failing", "enabled", t - 2 * day, t - 31 * day},
              {"unused-recent", "enabled", 0, t - 29 * day}}) {
            unused.addBindValue(QLatin1String(id));
            unused.addBindValue(QStringLiteral("http://example.invalid/") + QLatin1String(id));
            unused.addBindValue(QLatin1String(state));
            unused.addBindValue(failing ? QVariant(failing)
                                        : QVariant(QMetaType::fromType<qint64>()));
            unused.addBindValue(created);
            if (!unused.exec())
                return Core::WriteTransaction::sqlError(unused, "unused endpoint");
        }
        for (const auto &[id, state, completed] : rows) {
            QSqlQuery &d = tx.query(QStringLiteral(
                "INSERT INTO webhook_deliveries (id, endpoint_id, owner_id, subject_id, seq, "
                "event_type, label, payload, state, created_at, completed_at) VALUES (?, 'e', "
                "'c', 'o', 1, 'order.status', 'NEW', '{}', ?, ?, ?)"));
            d.addBindValue(id);
            d.addBindValue(state);
            d.addBindValue(t - 50 * day);
            d.addBindValue(completed ? QVariant(completed)
                                     : QVariant(QMetaType::fromType<qint64>()));
            if (!d.exec())
                return Core::WriteTransaction::sqlError(d, "delivery");
            QSqlQuery &a = tx.query(QStringLiteral(
                "INSERT INTO webhook_attempts (delivery_id, number, at, url, trigger, "
                "request_headers) VALUES (?, 1, ?, 'http://example.invalid/', 'schedule', '{}')"));
            a.addBindValue(id);
            a.addBindValue(t - 50 * day);
            if (!a.exec())
                return Core::WriteTransaction::sqlError(a, "attempt");
        }
        QSqlQuery &j = tx.query(QStringLiteral(
            "INSERT INTO webhook_redelivery_jobs (id, created_at, filter, rate, delivery_ids, "
            "total, state, finished_at) VALUES (?, 0, '{}', 1, '[]', 0, ?, ?)"));
        for (const auto &[id, state, finished] :
             {std::tuple<const char *, const char *, qint64>{"job-old", "completed", t - 31 * day},
              {"job-recent", "cancelled", t - 1 * day}}) {
            j.addBindValue(QLatin1String(id));
            j.addBindValue(QLatin1String(state));
            j.addBindValue(finished);
            if (!j.exec())
                return Core::WriteTransaction::sqlError(j, "job");
        }
        return {};
    });
    QVERIFY2(seeded, qPrintable(seeded ? QString() : seeded.error().message));

    std::optional<Core::Result<int>> pruned, joined;
    jobs.prune(t, [&](const Core::Result<int> &r) { pruned = r; });
    jobs.prune(t, [&](const Core::Result<int> &r) { joined = r; });
    QVERIFY(!pruned); // the writer's jobs are under way
    QTRY_VERIFY_WITH_TIMEOUT(pruned && joined, timeoutMs());
    QVERIFY2(*pruned, qPrintable(*pruned ? QString() : pruned->error().message));
    QCOMPARE(**pruned, 2);
    QVERIFY(*joined);
    QCOMPARE(**joined, 2);
    auto ids = [&](const QString &sql) {
        QStringList out;
        QSqlQuery q((*db)->connection());
        if (q.exec(sql))
            while (q.next())
                out.append(q.value(0).toString());
        out.sort();
        return out;
    };
    QCOMPARE(ids(QStringLiteral("SELECT id FROM webhook_deliveries")),
             (QStringList{QStringLiteral("old-pending"), QStringLiteral("recent")}));
    QCOMPARE(ids(QStringLiteral("SELECT DISTINCT delivery_id FROM webhook_attempts")),
             (QStringList{QStringLiteral("old-pending"), QStringLiteral("recent")}));
    QCOMPARE(ids(QStringLiteral("SELECT id FROM webhook_redelivery_jobs")),
             QStringList{QStringLiteral("job-recent")});
    QCOMPARE(ids(QStringLiteral("SELECT id FROM webhook_endpoints")),
             (QStringList{QStringLiteral("e"), QStringLiteral("unused-disabled"),
                          QStringLiteral("unused-failing"), QStringLiteral("unused-recent")}));
    // 0 days keeps everything.
    Webhooks::RedeliveryJobs keepAll(**db, writer, events, clock, webhooks, 0);
    std::optional<Core::Result<int>> kept;
    keepAll.prune(t + 1000 * day, [&](const Core::Result<int> &r) { kept = r; });
    QVERIFY(kept && *kept); // answered at once
    QCOMPARE(**kept, 0);
    QCOMPARE(ids(QStringLiteral("SELECT id FROM webhook_deliveries")).size(), 2);

    // Destroyed while its pass is under way: the chain stops, nothing is called back.
    bool calledBack = false;
    {
        Webhooks::RedeliveryJobs gone(**db, writer, events, clock, webhooks, 30, 1);
        gone.prune(t + 100 * day, [&](const Core::Result<int> &) { calledBack = true; });
    }
    auto after = writer.run([](Core::WriteTransaction &) -> Core::Result<void> { return {}; });
    QVERIFY(after);
    QCoreApplication::processEvents();
    QVERIFY(!calledBack);
    QCOMPARE(ids(QStringLiteral("SELECT id FROM webhook_deliveries")),
             QStringList{QStringLiteral("old-pending")}); // the one chunk that ran
    writer.stop();
}
