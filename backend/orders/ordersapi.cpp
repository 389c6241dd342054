#include "orders/ordersapi.h"

#include "core/database.h"
#include "core/httpserver.h"
#include "crypto/digest.h"
#include "orders/openapidocument.h"
#include "orders/orderservice.h"
#include "orders/orderslogging.h"
#include "orders/orderstore.h"
#include "orders/problem.h"
#include "webhooks/demoreceiver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

namespace Gatehouse::Orders {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

HttpResponse fromError(const Core::Error &e, const HttpRequest &req)
{
    const int status = e.httpStatus > 0 ? e.httpStatus : 500;
    if (status >= 500 && status != 503) {
        // What failed inside (SQL text, table names) goes to the log, not to the client.
        qCWarning(lcOrders) << req.method << req.path << "failed:" << e.code << e.message
                            << "request" << req.requestId;
        return problem(status, QStringLiteral("internal-error"),
                       QStringLiteral("the server could not complete the request; its log has "
                                      "the details under this requestId"),
                       &req);
    }
    HttpResponse r = problem(status, e.code, e.message, &req);
    if (e.code == QLatin1String(Core::kDatabaseUnavailable))
        r.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
    return r;
}

// The answer when the customer of a /v1 path cannot be used: 404 customer-not-found, or the
// read's error (503 while the database cannot be reached: never "not found" for that).
std::optional<HttpResponse> customerRefusal(const QSqlDatabase &db, const QString &id,
                                            const HttpRequest &req)
{
    const auto customer = OrderStore::customer(db, id);
    if (!customer)
        return fromError(customer.error(), req);
    if (!*customer)
        return problem(404, QStringLiteral("customer-not-found"),
                       QStringLiteral("no customer with id %1").arg(id), &req);
    return std::nullopt;
}

HttpResponse orderResponse(int status, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.setHeader("Content-Type", "application/json");
    return r;
}

HttpResponse pageResponse(const OrderStore::Page &page, int pageNumber, int pageSize)
{
    QJsonArray content;
    for (const QJsonObject &o : page.items)
        content.append(o);
    const qint64 pages = (page.total + pageSize - 1) / pageSize;
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("content"), content},
                                               {QStringLiteral("pageNumber"), pageNumber},
                                               {QStringLiteral("pageSize"), pageSize},
                                               {QStringLiteral("totalElements"), page.total},
                                               {QStringLiteral("totalPages"), pages}});
}

// pageNumber (default 0) and pageSize (default 25, at most 100).
std::optional<HttpResponse> readPaging(const HttpRequest &req, int *pageNumber, int *pageSize)
{
    auto read = [&req](const QString &name, int def, int min, int max,
                       int *out) -> std::optional<HttpResponse> {
        if (!req.query.hasQueryItem(name)) {
            *out = def;
            return std::nullopt;
        }
        bool ok = false;
        const int v = req.query.queryItemValue(name).toInt(&ok);
        if (!ok || v < min || v > max)
            return problem(
                400, QStringLiteral("invalid-query-parameter"),
                QStringLiteral("%1 must be an integer from %2 to %3").arg(name).arg(min).arg(max),
                &req);
        *out = v;
        return std::nullopt;
    };
    if (auto e = read(QStringLiteral("pageNumber"), 0, 0, 1'000'000, pageNumber))
        return e;
    return read(QStringLiteral("pageSize"), 25, 1, 100, pageSize);
}

std::optional<QString> pathUuid(const HttpRequest &req, const QString &name, HttpResponse *error)
{
    auto id = canonicalUuid(req.pathParam(name));
    if (!id)
        *error = problem(
            400, QStringLiteral("invalid-path-parameter"),
            QStringLiteral("%1 must be a UUID, got '%2'").arg(name, req.pathParam(name)), &req);
    return id;
}

bool isJsonMediaType(const QByteArray &contentType)
{
    const QByteArray type = contentType.split(';').first().trimmed().toLower();
    return type == "application/json" ||
           (type.startsWith("application/") && type.endsWith("+json"));
}

} // namespace

OrdersApi::OrdersApi(Core::HttpServer &server, Core::Database &database, OrderService &service,
                     Options options)
    : m_server(server), m_database(database), m_service(service), m_options(std::move(options)),
      m_policy(m_options.urlPolicy)
{
    registerRoutes();
}

QString OrdersApi::takeLookup(LookupBudget &budget, const QString &customerId)
{
    QMutexLocker lock(&budget.mutex);
    if (budget.total >= kMaxLookups)
        return QStringLiteral("callback host names");
    int &mine = budget.perCustomer[customerId];
    if (mine >= kMaxCustomerLookups)
        return QStringLiteral("of this customer's callback host names");
    ++mine;
    ++budget.total;
    return {};
}

void OrdersApi::giveLookup(LookupBudget &budget, const QString &customerId)
{
    QMutexLocker lock(&budget.mutex);
    --budget.total;
    if (auto n = budget.perCustomer.find(customerId); n != budget.perCustomer.end() && --*n <= 0)
        budget.perCustomer.erase(n);
}

void OrdersApi::registerRoutes()
{
    // The listener's own URL unless a public base URL is configured (known after listen()).
    auto base = [this] {
        return m_options.publicBaseUrl.isEmpty() ? m_server.url() : m_options.publicBaseUrl;
    };
    m_server.route("GET", QStringLiteral("/openapi.json"), [base](const HttpRequest &) {
        return HttpResponse::text(200, OpenApiDocument::json(base()), "application/json");
    });
    m_server.route("GET", QStringLiteral("/openapi.yaml"), [base](const HttpRequest &) {
        return HttpResponse::text(200, OpenApiDocument::yaml(base()),
                                  "application/yaml; charset=utf-8");
    });

    m_server.routeDeferred(
        "POST", QStringLiteral("/v1/customers/{customerId}/orders"),
        [this](const HttpRequest &req, const Responder &respond) {
            HttpResponse error;
            const auto customerId = pathUuid(req, QStringLiteral("customerId"), &error);
            if (!customerId)
                return respond(error);
            if (!req.body.trimmed().isEmpty() && req.hasHeader("content-type") &&
                !isJsonMediaType(req.header("content-type")))
                return respond(problem(415, QStringLiteral("unsupported-media-type"),
                                       QStringLiteral("the body must be application/json, not %1")
                                           .arg(QString::fromLatin1(req.header("content-type"))),
                                       &req));
            QString key;
            if (req.hasHeader("idempotency-key")) {
                const QByteArray raw = req.header("idempotency-key");
                const bool visible = std::all_of(raw.begin(), raw.end(),
                                                 [](char c) { return c > 0x20 && c < 0x7f; });
                if (raw.isEmpty() || raw.size() > 255 || !visible)
                    return respond(problem(400, QStringLiteral("invalid-header"),
                                           QStringLiteral("Idempotency-Key must be 1 to 255 "
                                                          "visible ASCII characters"),
                                           &req));
                key = QString::fromLatin1(raw);
            }
            QList<FieldError> errors;
            auto parsed = parseOrderRequest(req.body, *customerId, &errors);
            if (!parsed)
                return respond(
                    problem(400, parsed.error().code, parsed.error().message, &req, errors));
            const QByteArray hash = Crypto::Digest::sha256(req.body);
            const QString &cid = *customerId;
            const OrderRequest request = *parsed;
            auto submit = [this, cid, request, key, hash, respond, req]() {
                m_service.create(cid, request, key, hash,
                                 [respond, req](Core::Result<OrderService::Created> r) {
                                     if (!r)
                                         return respond(fromError(r.error(), req));
                                     HttpResponse resp = orderResponse(201, r->body);
                                     resp.setHeader("Location", r->order.location().toLatin1());
                                     if (r->replayed)
                                         resp.setHeader("Idempotent-Replayed", "true");
                                     respond(resp);
                                 });
            };
            if (request.callbackUrl.isEmpty())
                return submit();
            auto refused = [req, respond](const QString &why) {
                respond(problem(400, QStringLiteral("validation-failed"),
                                QStringLiteral("the request body has 1 invalid field"), &req,
                                {FieldError{QStringLiteral("/orderStatusCallbackUrl"),
                                            QStringLiteral("callback-url-refused"), why}}));
            };
            auto target = m_policy.parse(request.callbackUrl);
            if (!target)
                return refused(target.error().message);
            if (Webhooks::DemoReceiver::isHookOf(QUrl(m_options.trustedOrigin), *target, cid))
                return submit();
            // An IP literal is decided at once (UrlPolicy::checkLiteral, as the dispatcher
            // does at each attempt); a name is looked up first.
            if (const auto literal = m_policy.checkLiteral(*target))
                return *literal ? submit() : refused(literal->error().message);
            // A name lookup costs time and one of kMaxLookups places: nobody gets one for a
            // customer that does not exist.
            if (auto refusal = customerRefusal(m_database.connection(), cid, req))
                return respond(*refusal);
            auto busy = [req, respond](const QString &what) {
                HttpResponse r =
                    problem(503, QString::fromLatin1(Webhooks::kCallbackLookupsBusy),
                            QStringLiteral("too many %1 are being looked up; try again in a second")
                                .arg(what),
                            &req);
                r.setHeader("Retry-After", "1");
                respond(r);
            };
            if (const QString full = takeLookup(*m_lookups, cid); !full.isEmpty())
                return busy(full);
            // One answer whether the name does not resolve or resolves to an address that is
            // not public: what a name resolves to (split-horizon DNS inside the network) is not
            // the placer's to learn. The log and the attempts the admin API shows say which.
            m_policy.resolve(
                *target, &m_server,
                [submit, refused, busy, host = target->host, lookups = m_lookups,
                 cid](const Core::Result<QHostAddress> &address) {
                    giveLookup(*lookups, cid);
                    // The process's lookups were all taken (other services' included):
                    // nothing was learnt about the name.
                    if (!address &&
                        address.error().code == QLatin1String(Webhooks::kCallbackLookupsBusy))
                        return busy(QStringLiteral("callback host names"));
                    if (!address)
                        return refused(
                            QStringLiteral("%1 does not resolve to a public address").arg(host));
                    submit();
                });
        });

    m_server.route(
        "GET", QStringLiteral("/v1/customers/{customerId}/orders"), [this](const HttpRequest &req) {
            HttpResponse error;
            const auto customerId = pathUuid(req, QStringLiteral("customerId"), &error);
            if (!customerId)
                return error;
            int pageNumber = 0;
            int pageSize = 25;
            if (auto e = readPaging(req, &pageNumber, &pageSize))
                return *e;
            QSqlDatabase db = m_database.connection();
            if (auto refusal = customerRefusal(db, *customerId, req))
                return *refusal;
            const auto page = OrderStore::customerOrders(db, *customerId, pageNumber, pageSize);
            if (!page)
                return fromError(page.error(), req);
            return pageResponse(*page, pageNumber, pageSize);
        });

    m_server.route("GET", QStringLiteral("/v1/customers/{customerId}/orders/{orderId}"),
                   [this](const HttpRequest &req) {
                       HttpResponse error;
                       const auto customerId = pathUuid(req, QStringLiteral("customerId"), &error);
                       if (!customerId)
                           return error;
                       const auto orderId = pathUuid(req, QStringLiteral("orderId"), &error);
                       if (!orderId)
                           return error;
                       QSqlDatabase db = m_database.connection();
                       if (auto refusal = customerRefusal(db, *customerId, req))
                           return *refusal;
                       const auto found = OrderStore::order(db, *orderId);
                       if (!found)
                           return fromError(found.error(), req);
                       const std::optional<Order> &order = *found;
                       if (!order || order->customerId != *customerId)
                           return problem(404, QStringLiteral("order-not-found"),
                                          QStringLiteral("customer %1 has no order with id %2")
                                              .arg(*customerId, *orderId),
                                          &req);
                       return orderResponse(200, order->toJsonText());
                   });

    const struct
    {
        const char *verb;
        OrderService::Action action;
    } actions[] = {{"pickup", OrderService::Action::Pickup},
                   {"cancel", OrderService::Action::Cancel}};
    for (const auto &a : actions) {
        const OrderService::Action action = a.action;
        m_server.routeDeferred(
            "PUT",
            QStringLiteral("/v1/customers/{customerId}/orders/{orderId}/") + QLatin1String(a.verb),
            [this, action](const HttpRequest &req, const Responder &respond) {
                HttpResponse error;
                const auto customerId = pathUuid(req, QStringLiteral("customerId"), &error);
                if (!customerId)
                    return respond(error);
                const auto orderId = pathUuid(req, QStringLiteral("orderId"), &error);
                if (!orderId)
                    return respond(error);
                if (auto refusal = customerRefusal(m_database.connection(), *customerId, req))
                    return respond(*refusal);
                m_service.act(*orderId, *customerId, action, [respond, req](Core::Result<Order> r) {
                    if (!r)
                        return respond(fromError(r.error(), req));
                    respond(orderResponse(200, r->toJsonText()));
                });
            });
    }

    m_server.route("GET", QStringLiteral("/v1/beers"), [this](const HttpRequest &req) {
        int pageNumber = 0;
        int pageSize = 25;
        if (auto e = readPaging(req, &pageNumber, &pageSize))
            return *e;
        OrderStore::BeerFilter f;
        f.name = req.query.queryItemValue(QStringLiteral("beerName"), QUrl::FullyDecoded);
        f.style = req.query.queryItemValue(QStringLiteral("beerStyle"));
        if (!f.style.isEmpty() && !beerStyles().contains(f.style))
            return problem(400, QStringLiteral("invalid-query-parameter"),
                           QStringLiteral("beerStyle must be one of %1")
                               .arg(beerStyles().join(QStringLiteral(", "))),
                           &req);
        const auto page =
            OrderStore::beers(m_database.connection(), f, pageNumber, pageSize, false);
        if (!page)
            return fromError(page.error(), req);
        return pageResponse(*page, pageNumber, pageSize);
    });
    m_server.route("GET", QStringLiteral("/v1/beers/{beerId}"), [this](const HttpRequest &req) {
        HttpResponse error;
        const auto beerId = pathUuid(req, QStringLiteral("beerId"), &error);
        if (!beerId)
            return error;
        const auto found = OrderStore::beer(m_database.connection(), *beerId, false);
        if (!found)
            return fromError(found.error(), req);
        const std::optional<Beer> &beer = *found;
        if (!beer)
            return problem(404, QStringLiteral("beer-not-found"),
                           QStringLiteral("no beer with id %1").arg(*beerId), &req);
        return HttpResponse::json(200, beer->toJson());
    });
    m_server.route("GET", QStringLiteral("/v1/beers/upc/{upc}"), [this](const HttpRequest &req) {
        const QString upc = req.pathParam(QStringLiteral("upc"));
        const auto found = OrderStore::beer(m_database.connection(), upc, true);
        if (!found)
            return fromError(found.error(), req);
        const std::optional<Beer> &beer = *found;
        if (!beer)
            return problem(404, QStringLiteral("beer-not-found"),
                           QStringLiteral("no beer with upc %1").arg(upc), &req);
        return HttpResponse::json(200, beer->toJson());
    });
}

} // namespace Gatehouse::Orders
