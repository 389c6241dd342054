#include "cli/orderscommands.h"

#include "webhooks/redeliveryjobs.h"

#include <QJsonArray>

namespace Gatehouse::Cli::OrdersCommands {

namespace {

// A redelivery job in one line, and its last refusal.
void printJob(const QJsonObject &job, QTextStream &out)
{
    out << "job " << field(job, "id") << ": " << field(job, "state") << ", " << field(job, "done")
        << " of " << field(job, "total") << " redelivered, " << field(job, "failed")
        << " refused, at most " << field(job, "ratePerSecond") << " a second\n";
    if (!job.value(QStringLiteral("lastError")).isNull())
        out << "last refusal: " << field(job, "lastError") << "\n";
}

void printRedeliveryPreview(const QJsonObject &preview, QTextStream &out)
{
    out << field(preview, "count") << " deliveries would be redelivered"
        << (preview.value(QStringLiteral("capped")).toBool()
                ? QStringLiteral(" (of %1 matching; at most %2 per job)")
                      .arg(preview.value(QStringLiteral("matching")).toInt())
                      .arg(Webhooks::RedeliveryJobs::kMaxDeliveries)
                : QString())
        << "; the first " << preview.value(QStringLiteral("deliveries")).toArray().size() << ":\n";
    printTable(preview.value(QStringLiteral("deliveries")).toArray(),
               {{"id", "ID"},
                {"orderId", "ORDER"},
                {"orderStatus", "STATUS"},
                {"state", "STATE"},
                {"createdAt", "CREATED"},
                {"payload", "PAYLOAD"}},
               out);
}

} // namespace

int customersList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"name", "NAME"},
                          {"orderCount", "ORDERS"},
                          {"secretCreatedAt", "SECRET SINCE"}});
}

int customersCreate(const Invocation &in)
{
    return send(in,
                {"POST", QStringLiteral("/admin/v1/customers"),
                 QJsonObject{{QStringLiteral("name"), in.args[0]}}},
                answerPrinter(in));
}

int beersList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"beerName", "NAME"},
                          {"beerStyle", "STYLE"},
                          {"upc", "UPC"},
                          {"price", "PRICE"},
                          {"quantityOnHand", "ON HAND"},
                          {"discontinued", "DISCONTINUED"}});
}

int beersRestock(const Invocation &in)
{
    bool ok = false;
    const int quantity = in.args[1].toInt(&ok);
    if (!ok) {
        in.err << "gatehouse admin: QUANTITY must be an integer\n";
        return 2;
    }
    return send(in,
                {"POST", QStringLiteral("/admin/v1/beers/%1/restock").arg(pathSegment(in.args[0])),
                 QJsonObject{{QStringLiteral("quantity"), quantity}}},
                answerPrinter(in));
}

int ordersList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"customerName", "CUSTOMER"},
                          {"orderStatus", "STATUS"},
                          {"customerRef", "REF"},
                          {"lastModifiedDate", "CHANGED"}});
}

int ordersLifecycle(const Invocation &in)
{
    return send(in, {"POST", QStringLiteral("/admin/v1/orders/lifecycle/") + in.verb()},
                [&in](const Answer &a) {
                    in.out << "order lifecycle "
                           << (a.body.value(QStringLiteral("held")).toBool() ? "held" : "running")
                           << "; " << a.body.value(QStringLiteral("backlog")).toInt()
                           << " orders wait for validation and allocation\n";
                    return 0;
                });
}

int deliveriesList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"orderId", "ORDER"},
                          {"orderStatus", "STATUS"},
                          {"state", "STATE"},
                          {"attempts", "ATTEMPTS"},
                          {"lastStatus", "HTTP"},
                          {"lastError", "LAST ERROR"}});
}

int deliveriesRedeliverAll(const Invocation &in)
{
    QJsonObject filter;
    const std::pair<const char *, const char *> fields[] = {
        {"state", "state"},         {"customer", "customerId"}, {"order", "orderId"},
        {"endpoint", "endpointId"}, {"from", "from"},           {"to", "to"}};
    for (const auto &[option, member] : fields)
        if (in.isSet(option))
            filter.insert(QLatin1String(member), in.value(option));
    if (in.isSet("dry-run"))
        return send(in,
                    {"POST", QStringLiteral("/admin/v1/redeliveries/preview"),
                     QJsonObject{{QStringLiteral("filter"), filter}}},
                    viewPrinter(in, printRedeliveryPreview));
    QJsonObject o{{QStringLiteral("filter"), filter},
                  {QStringLiteral("actor"), QStringLiteral("gatehouse admin")}};
    if (in.isSet("rate")) {
        bool ok = false;
        const double rate = in.value("rate").toDouble(&ok);
        if (!ok) {
            in.err << "gatehouse admin: --rate must be a number\n";
            return 2;
        }
        o.insert(QStringLiteral("ratePerSecond"), rate);
    }
    return send(in, {"POST", QStringLiteral("/admin/v1/redeliveries"), o},
                viewPrinter(in, printJob));
}

int redeliveriesList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"state", "STATE"},
                          {"total", "TOTAL"},
                          {"done", "DONE"},
                          {"failed", "FAILED"},
                          {"ratePerSecond", "RATE/S"},
                          {"createdAt", "CREATED"}});
}

int redeliveriesShow(const Invocation &in)
{
    return send(in, {"GET", QStringLiteral("/admin/v1/redeliveries/") + pathSegment(in.args[0])},
                viewPrinter(in, printJob));
}

int redeliveriesCancel(const Invocation &in)
{
    return send(
        in,
        {"POST", QStringLiteral("/admin/v1/redeliveries/%1/cancel").arg(pathSegment(in.args[0]))},
        viewPrinter(in, printJob));
}

int endpointsList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"customerId", "CUSTOMER"},
                          {"url", "URL"},
                          {"state", "STATE"},
                          {"disabledReason", "REASON"},
                          {"pendingDeliveries", "PENDING"}});
}

} // namespace Gatehouse::Cli::OrdersCommands
