#include "admin/ordersadmin.h"
#include "admin/adminbody.h"
#include "admin/adminlogging.h"
#include "admin/admintokens.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/httpserver.h"
#include "core/jsontypename.h"
#include "core/settingsstore.h"
#include "core/text.h"
#include "orders/orderservice.h"
#include "orders/orderstore.h"
#include "webhooks/demoreceiver.h"
#include "webhooks/redeliveryjobs.h"
#include "webhooks/webhookservice.h"
#include "webhooks/webhookstore.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;
using Orders::OrderService;
using Orders::OrderStore;

namespace {

HttpResponse fromError(const Core::Error &e)
{
    return errorAnswer(Core::Error{e.code, e.message, e.httpStatus > 0 ? e.httpStatus : 500});
}

// An order as the admin API shows it: with its customer's name where it can be read.
void addCustomerName(QJsonObject *order, const QSqlDatabase &db, const QString &customerId)
{
    if (const auto c = OrderStore::customer(db, customerId); c && *c)
        order->insert(QStringLiteral("customerName"), (*c)->name);
}

HttpResponse items(const QList<QJsonObject> &list)
{
    QJsonArray a;
    for (const QJsonObject &o : list)
        a.append(o);
    return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), a}});
}

// The JSON object body of an admin request; an empty body is an empty object.
std::optional<QJsonObject> jsonBody(const HttpRequest &req, HttpResponse *error)
{
    if (req.body.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = HttpResponse::error(400, QStringLiteral("malformed-json"),
                                     QStringLiteral("the body must be a JSON object"));
        return std::nullopt;
    }
    return doc.object();
}

std::optional<QString> uuidParam(const HttpRequest &req, const QString &name, HttpResponse *error)
{
    auto id = Orders::canonicalUuid(req.pathParam(name));
    if (!id)
        *error = HttpResponse::error(400, QStringLiteral("invalid-path-parameter"),
                                     QStringLiteral("%1 must be a UUID").arg(name));
    return id;
}

int limitParam(const HttpRequest &req, int def, int max)
{
    bool ok = false;
    const int v = req.query.queryItemValue(QStringLiteral("limit")).toInt(&ok);
    return ok && v > 0 ? std::min(v, max) : def;
}

QJsonObject customerJson(Core::Database &db, const QString &id)
{
    for (const QJsonObject &c : OrderStore::customers(db.connection()))
        if (c.value(QStringLiteral("id")).toString() == id)
            return c;
    return {};
}

} // namespace

OrdersAdminApi::OrdersAdminApi(Core::HttpServer &server, Core::Database &database,
                               Orders::OrderService &orders, Webhooks::WebhookService &webhooks,
                               Webhooks::RedeliveryJobs &redeliveries,
                               Webhooks::DemoReceiver &demoReceiver, Core::SettingsStore &settings,
                               const Core::Clock &clock, const AdminTokens &tokens)
    : m_server(server), m_database(database), m_orders(orders), m_webhooks(webhooks),
      m_redeliveries(redeliveries), m_demo(demoReceiver), m_settings(settings), m_clock(clock),
      m_tokens(tokens)
{
    registerRoutes();
}

std::optional<HttpResponse> OrdersAdminApi::secretOutlivesToken(const HttpRequest &req,
                                                                const QString &what) const
{
    const auto by = m_tokens.authenticate(req.bearerToken());
    if (by && (by->root || by->expiresAt <= 0))
        return std::nullopt;
    return HttpResponse::error(
        403, QStringLiteral("secret-outlives-token"),
        QStringLiteral("%1 expires, and may not %2: a webhook signing secret is shared with the "
                       "customer's receiver and cannot end with the token. Use a token without "
                       "an expiry.")
            .arg(by ? by->describe() : QStringLiteral("the admin token"), what));
}

QString OrdersAdminApi::lifecycleHeldKey()
{
    return QStringLiteral("orders-lifecycle-held");
}

void OrdersAdminApi::lifecycleChangedElsewhere()
{
    const auto changing = m_settings.lockChanges();
    const auto held = m_settings.value(lifecycleHeldKey());
    if (!held && held.error().code != QLatin1String("not-found")) {
        qCWarning(lcAdmin).noquote()
            << "the order lifecycle changed elsewhere, and cannot be read:" << held.error().message;
        return;
    }
    if (bool(held) != m_orders.lifecycleHeld()) {
        qCInfo(lcAdmin) << "order lifecycle" << (held ? "held" : "released")
                        << "by another instance";
        m_orders.setLifecycleHeld(bool(held));
    }
}

void OrdersAdminApi::registerRoutes()
{
    // --- customers ---
    m_server.route("GET", QStringLiteral("/admin/v1/customers"), [this](const HttpRequest &) {
        QList<QJsonObject> list = OrderStore::customers(m_database.connection());
        const qint64 now = m_clock.now().toMSecsSinceEpoch();
        for (QJsonObject &c : list) {
            const QJsonObject info = Webhooks::WebhookStore::secretInfo(
                m_database, c.value(QStringLiteral("id")).toString(), now);
            for (auto it = info.begin(); it != info.end(); ++it)
                c.insert(it.key(), it.value());
        }
        return items(list);
    });
    m_server.route("GET", QStringLiteral("/admin/v1/customers/{id}"),
                   [this](const HttpRequest &req) {
                       HttpResponse error;
                       const auto id = uuidParam(req, QStringLiteral("id"), &error);
                       if (!id)
                           return error;
                       QJsonObject c = customerJson(m_database, *id);
                       if (c.isEmpty())
                           return HttpResponse::error(404, QStringLiteral("customer-not-found"),
                                                      QStringLiteral("no customer %1").arg(*id));
                       const QJsonObject info = Webhooks::WebhookStore::secretInfo(
                           m_database, *id, m_clock.now().toMSecsSinceEpoch());
                       for (auto it = info.begin(); it != info.end(); ++it)
                           c.insert(it.key(), it.value());
                       return HttpResponse::json(200, c);
                   });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/customers"),
        [this](const HttpRequest &req, const Responder &respond) {
            if (auto refused = secretOutlivesToken(
                    req, QStringLiteral("create a customer (its answer holds the customer's "
                                        "webhook signing secret)")))
                return respond(*refused);
            HttpResponse error;
            const auto body = jsonBody(req, &error);
            if (!body)
                return respond(error);
            if (auto unknown = unknownMember(*body, {"name", "id"}))
                return respond(*unknown);
            const QString name = body->value(QStringLiteral("name")).toString().trimmed();
            if (name.isEmpty() || name.size() > 200)
                return respond(HttpResponse::error(400, QStringLiteral("invalid-name"),
                                                   QStringLiteral("name must be 1 to 200 "
                                                                  "characters")));
            // Shown to people (console, CLI, the demo receiver's records): no control or
            // bidi characters, no lone surrogates.
            if (const QString problem = Core::textProblem(name, true); !problem.isEmpty())
                return respond(HttpResponse::error(400, QStringLiteral("invalid-name"),
                                                   QStringLiteral("name ") + problem));
            QString id;
            if (body->contains(QStringLiteral("id"))) {
                auto canonical =
                    Orders::canonicalUuid(body->value(QStringLiteral("id")).toString());
                if (!canonical)
                    return respond(HttpResponse::error(400, QStringLiteral("invalid-id"),
                                                       QStringLiteral("id must be a UUID")));
                id = *canonical;
            }
            m_orders.createCustomer(name, id, [respond](Core::Result<OrderService::NewSecret> r) {
                if (!r)
                    return respond(fromError(r.error()));
                HttpResponse resp = HttpResponse::json(
                    201, QJsonObject{{QStringLiteral("customer"),
                                      QJsonObject{{QStringLiteral("id"), r->customer.id},
                                                  {QStringLiteral("name"), r->customer.name},
                                                  {QStringLiteral("createdAt"),
                                                   Orders::isoTime(r->customer.createdAt)},
                                                  {QStringLiteral("orderCount"), 0}}},
                                     {QStringLiteral("webhookSecret"), r->secret}});
                resp.setHeader("Cache-Control", "no-store");
                respond(resp);
            });
        });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/customers/{id}/rotate-secret"),
        [this](const HttpRequest &req, const Responder &respond) {
            HttpResponse error;
            const auto id = uuidParam(req, QStringLiteral("id"), &error);
            if (!id)
                return respond(error);
            if (auto refused = secretOutlivesToken(
                    req, QStringLiteral("rotate a customer's webhook signing secret")))
                return respond(*refused);
            m_webhooks.rotateSecret(
                *id, [respond](Core::Result<Webhooks::WebhookService::RotatedSecret> r) {
                    if (!r)
                        return respond(fromError(r.error()));
                    HttpResponse resp = HttpResponse::json(
                        200, QJsonObject{{QStringLiteral("webhookSecret"), r->secret},
                                         {QStringLiteral("previousSecretExpiresAt"),
                                          Webhooks::isoTime(r->previousExpiresAt)}});
                    resp.setHeader("Cache-Control", "no-store");
                    respond(resp);
                });
        });

    // --- beers ---
    m_server.route("GET", QStringLiteral("/admin/v1/beers"), [this](const HttpRequest &req) {
        OrderStore::BeerFilter f;
        f.name = req.query.queryItemValue(QStringLiteral("beerName"), QUrl::FullyDecoded);
        f.style = req.query.queryItemValue(QStringLiteral("beerStyle"));
        const auto page = OrderStore::beers(m_database.connection(), f, 0, 1000, true);
        if (!page)
            return fromError(page.error());
        return items(page->items);
    });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/beers/{id}/restock"),
        [this](const HttpRequest &req, const Responder &respond) {
            HttpResponse error;
            const auto id = uuidParam(req, QStringLiteral("id"), &error);
            if (!id)
                return respond(error);
            const auto body = jsonBody(req, &error);
            if (!body)
                return respond(error);
            if (auto unknown = unknownMember(*body, {"quantity"}))
                return respond(*unknown);
            const QJsonValue q = body->value(QStringLiteral("quantity"));
            const std::optional<qint64> quantity = Core::jsonInteger(q);
            if (!quantity || *quantity < 1 || *quantity > 100'000)
                return respond(HttpResponse::error(400, QStringLiteral("invalid-quantity"),
                                                   QStringLiteral("quantity must be an integer "
                                                                  "from 1 to 100000")));
            m_orders.restock(*id, int(*quantity), [respond](Core::Result<Orders::Beer> r) {
                if (!r)
                    return respond(fromError(r.error()));
                respond(HttpResponse::json(200, r->toJson(true)));
            });
        });
    for (const char *verb : {"discontinue", "reinstate"}) {
        const bool discontinue = QByteArray(verb) == "discontinue";
        m_server.routeDeferred(
            "POST", QStringLiteral("/admin/v1/beers/{id}/") + QLatin1String(verb),
            [this, discontinue](const HttpRequest &req, const Responder &respond) {
                HttpResponse error;
                const auto id = uuidParam(req, QStringLiteral("id"), &error);
                if (!id)
                    return respond(error);
                m_orders.setDiscontinued(*id, discontinue, [respond](Core::Result<Orders::Beer> r) {
                    if (!r)
                        return respond(fromError(r.error()));
                    respond(HttpResponse::json(200, r->toJson(true)));
                });
            });
    }

    // --- orders ---
    m_server.route("GET", QStringLiteral("/admin/v1/orders"), [this](const HttpRequest &req) {
        OrderStore::OrderFilter f;
        f.customerId = req.query.queryItemValue(QStringLiteral("customerId"));
        f.status = req.query.queryItemValue(QStringLiteral("status"));
        f.before = req.query.queryItemValue(QStringLiteral("before"));
        f.limit = limitParam(req, 100, 1000);
        if (!f.status.isEmpty() && !Orders::parseStatus(f.status))
            return HttpResponse::error(400, QStringLiteral("invalid-status"),
                                       QStringLiteral("status must be one of %1")
                                           .arg(Orders::statusNames().join(QStringLiteral(", "))));
        return items(OrderStore::adminOrders(m_database.connection(), f));
    });
    // Before /orders/{id}: the first route that matches answers.
    const auto lifecycle = [this] {
        return HttpResponse::json(
            200, QJsonObject{{QStringLiteral("held"), m_orders.lifecycleHeld()},
                             {QStringLiteral("backlog"), m_orders.lifecycleBacklog()}});
    };
    m_server.route("GET", QStringLiteral("/admin/v1/orders/lifecycle"),
                   [lifecycle](const HttpRequest &) { return lifecycle(); });
    for (const bool hold : {true, false}) {
        m_server.route("POST",
                       hold ? QStringLiteral("/admin/v1/orders/lifecycle/hold")
                            : QStringLiteral("/admin/v1/orders/lifecycle/release"),
                       [this, hold, lifecycle](const HttpRequest &) {
                           // Kept first: a restart must not release what an operator held. Stored
                           // and applied as one step (lifecycleChangedElsewhere).
                           const auto changing = m_settings.lockChanges();
                           auto saved = hold ? m_settings.setValue(lifecycleHeldKey(),
                                                                   QStringLiteral("true"))
                                             : m_settings.remove(lifecycleHeldKey());
                           if (!saved)
                               return fromError(saved.error());
                           m_orders.setLifecycleHeld(hold);
                           return lifecycle();
                       });
    }
    m_server.route("GET", QStringLiteral("/admin/v1/orders/{id}"), [this](const HttpRequest &req) {
        HttpResponse error;
        const auto id = uuidParam(req, QStringLiteral("id"), &error);
        if (!id)
            return error;
        QSqlDatabase db = m_database.connection();
        const auto found = OrderStore::order(db, *id);
        if (!found)
            return fromError(found.error());
        const std::optional<Orders::Order> &order = *found;
        if (!order)
            return HttpResponse::error(404, QStringLiteral("order-not-found"),
                                       QStringLiteral("no order %1").arg(*id));
        QJsonObject o = order->toJson();
        addCustomerName(&o, db, order->customerId);
        QJsonArray history;
        for (const QJsonObject &h : OrderStore::history(db, *id))
            history.append(h);
        o.insert(QStringLiteral("history"), history);
        QJsonArray deliveries;
        Webhooks::WebhookStore::DeliveryFilter f;
        f.subjectId = *id;
        f.limit = 1000;
        for (const QJsonObject &d : Webhooks::WebhookStore::deliveries(db, f))
            deliveries.append(d);
        o.insert(QStringLiteral("deliveries"), deliveries);
        return HttpResponse::json(200, o);
    });
    const struct
    {
        const char *verb;
        OrderService::Action action;
    } actions[] = {{"pickup", OrderService::Action::Pickup},
                   {"deliver", OrderService::Action::Deliver},
                   {"cancel", OrderService::Action::Cancel}};
    for (const auto &a : actions) {
        const OrderService::Action action = a.action;
        m_server.routeDeferred(
            "POST", QStringLiteral("/admin/v1/orders/{id}/") + QLatin1String(a.verb),
            [this, action](const HttpRequest &req, const Responder &respond) {
                HttpResponse error;
                const auto id = uuidParam(req, QStringLiteral("id"), &error);
                if (!id)
                    return respond(error);
                Core::Database *db = &m_database;
                m_orders.act(*id, QString(), action, [respond, db](Core::Result<Orders::Order> r) {
                    if (!r)
                        return respond(fromError(r.error()));
                    QJsonObject o = r->toJson();
                    addCustomerName(&o, db->connection(), r->customerId);
                    respond(HttpResponse::json(200, o));
                });
            });
    }
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/test-orders"),
        [this](const HttpRequest &req, const Responder &respond) {
            HttpResponse error;
            const auto body = jsonBody(req, &error);
            if (!body)
                return respond(error);
            if (auto unknown = unknownMember(*body, {"customerId", "customerRef", "lines"}))
                return respond(*unknown);
            // Wrong types refused, never read as the default (a number for customerId placed
            // the order for the first customer; a string for lines, an order of nothing).
            if (body->contains(QStringLiteral("customerId")) &&
                !body->value(QStringLiteral("customerId")).isString())
                return respond(HttpResponse::error(400, QStringLiteral("invalid-customer-id"),
                                                   QStringLiteral("customerId must be a UUID")));
            if (body->contains(QStringLiteral("lines")) &&
                !body->value(QStringLiteral("lines")).isArray())
                return respond(HttpResponse::error(400, QStringLiteral("wrong-type"),
                                                   QStringLiteral("lines must be an array of "
                                                                  "{upc, orderQuantity}")));
            QSqlDatabase db = m_database.connection();
            QString customerId = body->value(QStringLiteral("customerId")).toString();
            if (customerId.isEmpty()) {
                const QList<QJsonObject> customers = OrderStore::customers(db);
                if (customers.isEmpty())
                    return respond(HttpResponse::error(
                        409, QStringLiteral("no-customers"),
                        QStringLiteral("create a customer first (gatehouse admin customers "
                                       "create NAME)")));
                customerId = customers.first().value(QStringLiteral("id")).toString();
            }
            const auto cid = Orders::canonicalUuid(customerId);
            if (!cid)
                return respond(HttpResponse::error(400, QStringLiteral("invalid-customer-id"),
                                                   QStringLiteral("customerId must be a UUID")));
            // The same rules as the public API: build the BeerOrder and parse it.
            QJsonObject order{{QStringLiteral("orderStatusCallbackUrl"), m_demo.hookUrl(*cid)}};
            if (body->contains(QStringLiteral("customerRef")))
                order.insert(QStringLiteral("customerRef"),
                             body->value(QStringLiteral("customerRef")));
            QJsonArray lines;
            if (body->contains(QStringLiteral("lines"))) {
                for (const auto &l : body->value(QStringLiteral("lines")).toArray())
                    lines.append(l);
            } else {
                const auto beers = OrderStore::beers(db, {}, 0, 2, false);
                if (!beers)
                    return respond(fromError(beers.error()));
                for (const QJsonObject &b : beers->items)
                    lines.append(
                        QJsonObject{{QStringLiteral("upc"), b.value(QStringLiteral("upc"))},
                                    {QStringLiteral("orderQuantity"), 1}});
            }
            order.insert(QStringLiteral("beerOrderLines"), lines);
            QList<Orders::FieldError> errors;
            auto parsed = Orders::parseOrderRequest(QJsonDocument(order).toJson(), *cid, &errors);
            if (!parsed) {
                QStringList why;
                for (const auto &e : std::as_const(errors))
                    why.append(e.field + QStringLiteral(": ") + e.message);
                return respond(HttpResponse::error(400, parsed.error().code,
                                                   why.isEmpty() ? parsed.error().message
                                                                 : why.join(QStringLiteral("; "))));
            }
            Core::Database *database = &m_database;
            m_orders.create(*cid, *parsed, QString(), QByteArray(),
                            [respond, database](Core::Result<OrderService::Created> r) {
                                if (!r)
                                    return respond(fromError(r.error()));
                                QJsonObject o = r->order.toJson();
                                addCustomerName(&o, database->connection(), r->order.customerId);
                                respond(HttpResponse::json(201, o));
                            });
        });

    // --- deliveries and endpoints ---
    m_server.route("GET", QStringLiteral("/admin/v1/deliveries"), [this](const HttpRequest &req) {
        Webhooks::WebhookStore::DeliveryFilter f;
        f.subjectId = req.query.queryItemValue(QStringLiteral("orderId"));
        f.state = req.query.queryItemValue(QStringLiteral("state"));
        f.endpointId = req.query.queryItemValue(QStringLiteral("endpointId"));
        f.limit = limitParam(req, 100, 1000);
        if (!f.state.isEmpty() && f.state != QLatin1String("pending") &&
            f.state != QLatin1String("succeeded") && f.state != QLatin1String("failed"))
            return HttpResponse::error(
                400, QStringLiteral("invalid-state"),
                QStringLiteral("state must be pending, succeeded or failed"));
        return items(Webhooks::WebhookStore::deliveries(m_database.connection(), f));
    });
    m_server.route(
        "GET", QStringLiteral("/admin/v1/deliveries/{id}"), [this](const HttpRequest &req) {
            const QString id = req.pathParam(QStringLiteral("id"));
            const auto d = Webhooks::WebhookStore::delivery(m_database.connection(), id, true);
            if (!d)
                return HttpResponse::error(404, QStringLiteral("delivery-not-found"),
                                           QStringLiteral("no delivery %1").arg(id));
            return HttpResponse::json(200, *d);
        });
    m_server.routeDeferred("POST", QStringLiteral("/admin/v1/deliveries/{id}/redeliver"),
                           [this](const HttpRequest &req, const Responder &respond) {
                               m_webhooks.redeliver(req.pathParam(QStringLiteral("id")),
                                                    [respond](Core::Result<Webhooks::Delivery> r) {
                                                        if (!r)
                                                            return respond(fromError(r.error()));
                                                        respond(
                                                            HttpResponse::json(200, r->toJson()));
                                                    });
                           });
    // Safe bulk redelivery: preview, start (rate-limited), progress, cancel, history.
    m_server.route("POST", QStringLiteral("/admin/v1/redeliveries/preview"),
                   [this](const HttpRequest &req) {
                       HttpResponse error;
                       const auto body = jsonBody(req, &error);
                       if (!body)
                           return error;
                       if (auto unknown = unknownMember(*body, {"filter"}))
                           return *unknown;
                       const QJsonValue filter = body->value(QStringLiteral("filter"));
                       if (!filter.isUndefined() && !filter.isObject())
                           return HttpResponse::error(400, QStringLiteral("invalid-filter"),
                                                      QStringLiteral("filter must be an object"));
                       auto r = m_redeliveries.preview(filter.toObject());
                       if (!r)
                           return fromError(r.error());
                       return HttpResponse::json(200, *r);
                   });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/redeliveries"),
        [this](const HttpRequest &req, const Responder &respond) {
            HttpResponse error;
            const auto body = jsonBody(req, &error);
            if (!body)
                return respond(error);
            if (auto unknown = unknownMember(*body, {"filter", "ratePerSecond", "actor"}))
                return respond(*unknown);
            QJsonObject request = *body;
            // The job names who started it, as the audit log does.
            if (!request.contains(QStringLiteral("actor")) &&
                !req.header("x-gatehouse-actor").isEmpty())
                request.insert(
                    QStringLiteral("actor"),
                    QString::fromUtf8(req.header("x-gatehouse-actor")).trimmed().left(100));
            // It ends with the admin token that starts it: when that expires or is revoked.
            Webhooks::RedeliveryJobs::Starter starter;
            if (const auto by = m_tokens.authenticate(req.bearerToken()); by && !by->root)
                starter = {by->id, by->expiresAt};
            m_redeliveries.create(
                request,
                [respond](Core::Result<QJsonObject> r) {
                    if (!r)
                        return respond(fromError(r.error()));
                    respond(HttpResponse::json(201, *r));
                },
                starter);
        });
    m_server.route("GET", QStringLiteral("/admin/v1/redeliveries"), [this](const HttpRequest &req) {
        return HttpResponse::json(
            200,
            QJsonObject{{QStringLiteral("items"), m_redeliveries.list(limitParam(req, 50, 500))}});
    });
    m_server.route(
        "GET", QStringLiteral("/admin/v1/redeliveries/{id}"), [this](const HttpRequest &req) {
            const QString id = req.pathParam(QStringLiteral("id"));
            const auto j = m_redeliveries.job(id);
            if (!j)
                return HttpResponse::error(404, QStringLiteral("job-not-found"),
                                           QStringLiteral("no redelivery job %1").arg(id));
            return HttpResponse::json(200, *j);
        });
    m_server.routeDeferred("POST", QStringLiteral("/admin/v1/redeliveries/{id}/cancel"),
                           [this](const HttpRequest &req, const Responder &respond) {
                               m_redeliveries.cancel(req.pathParam(QStringLiteral("id")),
                                                     [respond](Core::Result<QJsonObject> r) {
                                                         if (!r)
                                                             return respond(fromError(r.error()));
                                                         respond(HttpResponse::json(200, *r));
                                                     });
                           });
    // A page at a time (every distinct callback URL of a customer is an endpoint).
    m_server.route("GET", QStringLiteral("/admin/v1/endpoints"), [this](const HttpRequest &req) {
        Webhooks::WebhookStore::EndpointFilter f;
        f.customerId = req.query.queryItemValue(QStringLiteral("customerId"));
        f.state = req.query.queryItemValue(QStringLiteral("state"));
        f.before = req.query.queryItemValue(QStringLiteral("before"));
        f.limit = limitParam(req, 100, 1000);
        if (!f.state.isEmpty() && f.state != QLatin1String("enabled") &&
            f.state != QLatin1String("disabled"))
            return HttpResponse::error(400, QStringLiteral("invalid-state"),
                                       QStringLiteral("state must be enabled or disabled"));
        const auto list = Webhooks::WebhookStore::endpointList(m_database.connection(), f);
        if (!list)
            return fromError(list.error());
        return items(*list);
    });
    for (const char *verb : {"enable", "disable"}) {
        const bool enable = QByteArray(verb) == "enable";
        m_server.routeDeferred(
            "POST", QStringLiteral("/admin/v1/endpoints/{id}/") + QLatin1String(verb),
            [this, enable](const HttpRequest &req, const Responder &respond) {
                Core::Database *db = &m_database;
                m_webhooks.setEndpointEnabled(
                    req.pathParam(QStringLiteral("id")), enable,
                    [respond, db](Core::Result<Webhooks::Endpoint> r) {
                        if (!r)
                            return respond(fromError(r.error()));
                        respond(HttpResponse::json(
                            200, Webhooks::WebhookStore::endpointJson(db->connection(), *r)));
                    });
            });
    }
    m_server.route("GET", QStringLiteral("/admin/v1/demo-receiver"), [this](const HttpRequest &) {
        return HttpResponse::json(200,
                                  QJsonObject{{QStringLiteral("url"), m_demo.origin()},
                                              {QStringLiteral("received"), m_demo.received()}});
    });
}

} // namespace Gatehouse::Admin
