#include "orders/order.h"

#include "core/jsontypename.h"

#include "core/clock.h"
#include "core/jsonwriter.h"
#include "core/text.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace Gatehouse::Orders {

namespace {

struct StatusEntry
{
    OrderStatus status;
    const char *name;
};

constexpr StatusEntry Statuses[] = {
    {OrderStatus::New, "NEW"},
    {OrderStatus::ValidationPending, "VALIDATION_PENDING"},
    {OrderStatus::Validated, "VALIDATED"},
    {OrderStatus::ValidationException, "VALIDATION_EXCEPTION"},
    {OrderStatus::AllocationPending, "ALLOCATION_PENDING"},
    {OrderStatus::Allocated, "ALLOCATED"},
    {OrderStatus::AllocationException, "ALLOCATION_EXCEPTION"},
    {OrderStatus::PendingInventory, "PENDING_INVENTORY"},
    {OrderStatus::PickedUp, "PICKED_UP"},
    {OrderStatus::Delivered, "DELIVERED"},
    {OrderStatus::Cancelled, "CANCELLED"},
};

QString typeName(const QJsonValue &v)
{
    return Core::jsonTypeName(v);
}

// Characters as a reader counts them: code points, a surrogate pair is one.
qsizetype characters(const QString &s)
{
    return s.size() -
           std::count_if(s.cbegin(), s.cend(), [](QChar c) { return c.isLowSurrogate(); });
}

} // namespace

QString statusName(OrderStatus s)
{
    for (const auto &e : Statuses)
        if (e.status == s)
            return QString::fromLatin1(e.name);
    return QStringLiteral("NEW");
}

std::optional<OrderStatus> parseStatus(const QString &name)
{
    for (const auto &e : Statuses)
        if (name == QLatin1String(e.name))
            return e.status;
    return std::nullopt;
}

const QStringList &statusNames()
{
    static const QStringList names = [] {
        QStringList l;
        for (const auto &e : Statuses)
            l.append(QString::fromLatin1(e.name));
        return l;
    }();
    return names;
}

bool isCancellable(OrderStatus s)
{
    switch (s) {
    case OrderStatus::New:
    case OrderStatus::ValidationPending:
    case OrderStatus::Validated:
    case OrderStatus::AllocationPending:
    case OrderStatus::Allocated:
    case OrderStatus::PendingInventory:
        return true;
    default:
        return false;
    }
}

QString isoTime(qint64 ms)
{
    return Core::isoTimeMs(ms);
}

QJsonObject Order::toJson() const
{
    // One list of members: the text (written directly for the 201 body and the events), read
    // back.
    return QJsonDocument::fromJson(toJsonText()).object();
}

QByteArray Order::toJsonText() const
{
    Core::JsonObjectWriter out;
    QByteArray lineArray = QByteArrayLiteral("[");
    for (const OrderLine &l : lines) {
        out.add("id", l.id)
            .add("upc", l.upc)
            .add("orderQuantity", qint64(l.orderQuantity))
            .add("quantityAllocated", qint64(l.quantityAllocated));
        if (!l.beerId.isEmpty())
            out.add("beerId", l.beerId);
        if (lineArray.size() > 1)
            lineArray += ',';
        lineArray += out.finish();
    }
    lineArray += ']';
    out.add("id", id).add("customerId", customerId);
    if (customerRef)
        out.add("customerRef", *customerRef);
    else
        out.addNull("customerRef");
    out.addRaw("beerOrderLines", lineArray)
        .add("orderStatus", statusName(status))
        .add("version", qint64(version))
        .add("createdDate", isoTime(createdAt))
        .add("lastModifiedDate", isoTime(updatedAt));
    if (!callbackUrl.isEmpty())
        out.add("orderStatusCallbackUrl", callbackUrl);
    return out.finish();
}

QString Order::location() const
{
    return QStringLiteral("/v1/customers/%1/orders/%2").arg(customerId, id);
}

QJsonObject Beer::toJson(bool admin) const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("beerName"), beerName},
                  {QStringLiteral("beerStyle"), beerStyle},
                  {QStringLiteral("upc"), upc},
                  {QStringLiteral("price"), price},
                  {QStringLiteral("quantityOnHand"), quantityOnHand}};
    if (admin)
        o.insert(QStringLiteral("discontinued"), discontinued);
    return o;
}

const QStringList &beerStyles()
{
    static const QStringList styles{QStringLiteral("LAGER"),    QStringLiteral("PILSNER"),
                                    QStringLiteral("STOUT"),    QStringLiteral("GOSE"),
                                    QStringLiteral("PORTER"),   QStringLiteral("ALE"),
                                    QStringLiteral("WHEAT"),    QStringLiteral("IPA"),
                                    QStringLiteral("PALE_ALE"), QStringLiteral("SAISON")};
    return styles;
}

std::optional<QString> canonicalUuid(const QString &text)
{
    static const QRegularExpression re(QStringLiteral(
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\z"));
    if (text.size() != 36 || !re.match(text).hasMatch())
        return std::nullopt;
    return text.toLower();
}

Core::Result<OrderRequest> parseOrderRequest(const QByteArray &body, const QString &pathCustomerId,
                                             QList<FieldError> *errors)
{
    OrderRequest req;
    if (body.trimmed().isEmpty())
        return req; // the body is optional (required = false)
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError)
        return Core::makeError(QStringLiteral("malformed-json"),
                               QStringLiteral("the body is not valid JSON: %1 at offset %2")
                                   .arg(pe.errorString())
                                   .arg(pe.offset),
                               400);
    if (!doc.isObject())
        return Core::makeError(QStringLiteral("malformed-json"),
                               QStringLiteral("the body must be a JSON object (a BeerOrder)"), 400);
    const QJsonObject o = doc.object();
    auto fail = [errors](const QString &field, const char *code, const QString &message) {
        errors->append(FieldError{field, QString::fromLatin1(code), message});
    };
    static const QStringList readOnly{QStringLiteral("id"), QStringLiteral("orderStatus"),
                                      QStringLiteral("version"), QStringLiteral("createdDate"),
                                      QStringLiteral("lastModifiedDate")};
    static const QStringList known{QStringLiteral("customerId"), QStringLiteral("customerRef"),
                                   QStringLiteral("beerOrderLines"),
                                   QStringLiteral("orderStatusCallbackUrl")};
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString pointer = QLatin1Char('/') + it.key();
        if (readOnly.contains(it.key()))
            fail(pointer, "read-only",
                 QStringLiteral("%1 is read-only and set by the server").arg(it.key()));
        else if (!known.contains(it.key()))
            fail(pointer, "unknown-field",
                 QStringLiteral("%1 is not a field of BeerOrder").arg(it.key()));
    }

    if (o.contains(QStringLiteral("customerId"))) {
        const QJsonValue v = o.value(QStringLiteral("customerId"));
        if (!v.isString())
            fail(QStringLiteral("/customerId"), "wrong-type",
                 QStringLiteral("must be a string (uuid), not %1").arg(typeName(v)));
        else if (auto id = canonicalUuid(v.toString()); !id)
            fail(QStringLiteral("/customerId"), "invalid-format", QStringLiteral("must be a UUID"));
        else if (*id != pathCustomerId)
            fail(QStringLiteral("/customerId"), "mismatch",
                 QStringLiteral("must equal the customerId of the path (%1)").arg(pathCustomerId));
    }
    if (o.contains(QStringLiteral("customerRef"))) {
        const QJsonValue v = o.value(QStringLiteral("customerRef"));
        if (v.isString()) {
            const QString ref = v.toString();
            if (ref.isEmpty() || characters(ref) > MaxCustomerRef)
                fail(QStringLiteral("/customerRef"), "out-of-range",
                     QStringLiteral("must be 1 to %1 characters long").arg(MaxCustomerRef));
            else if (const QString problem = Core::textProblem(ref); !problem.isEmpty())
                fail(QStringLiteral("/customerRef"), "invalid-format", problem);
            else
                req.customerRef = ref;
        } else if (!v.isNull()) {
            fail(QStringLiteral("/customerRef"), "wrong-type",
                 QStringLiteral("must be a string or null, not %1").arg(typeName(v)));
        }
    }
    if (o.contains(QStringLiteral("orderStatusCallbackUrl"))) {
        const QJsonValue v = o.value(QStringLiteral("orderStatusCallbackUrl"));
        if (!v.isString())
            fail(QStringLiteral("/orderStatusCallbackUrl"), "wrong-type",
                 QStringLiteral("must be a string (uri), not %1").arg(typeName(v)));
        else
            req.callbackUrl = v.toString();
    }
    if (o.contains(QStringLiteral("beerOrderLines"))) {
        const QJsonValue v = o.value(QStringLiteral("beerOrderLines"));
        if (!v.isArray()) {
            fail(QStringLiteral("/beerOrderLines"), "wrong-type",
                 QStringLiteral("must be an array of BeerOrderLine, not %1").arg(typeName(v)));
        } else if (v.toArray().size() > MaxLines) {
            fail(QStringLiteral("/beerOrderLines"), "out-of-range",
                 QStringLiteral("at most %1 lines per order").arg(MaxLines));
        } else {
            const QJsonArray lines = v.toArray();
            for (qsizetype i = 0; i < lines.size(); ++i) {
                const QString base = QStringLiteral("/beerOrderLines/%1").arg(i);
                if (!lines[i].isObject()) {
                    fail(base, "wrong-type",
                         QStringLiteral("must be an object (BeerOrderLine), not %1")
                             .arg(typeName(lines[i])));
                    continue;
                }
                const QJsonObject l = lines[i].toObject();
                OrderRequest::Line line;
                for (auto it = l.begin(); it != l.end(); ++it) {
                    const QString k = it.key();
                    if (k == QLatin1String("id") || k == QLatin1String("beerId") ||
                        k == QLatin1String("quantityAllocated"))
                        fail(base + QLatin1Char('/') + k, "read-only",
                             QStringLiteral("%1 is read-only and set by the server").arg(k));
                    else if (k != QLatin1String("upc") && k != QLatin1String("orderQuantity"))
                        fail(base + QLatin1Char('/') + k, "unknown-field",
                             QStringLiteral("%1 is not a field of BeerOrderLine").arg(k));
                }
                const QJsonValue upc = l.value(QStringLiteral("upc"));
                if (upc.isUndefined())
                    fail(base + QStringLiteral("/upc"), "required",
                         QStringLiteral("upc is required"));
                else if (!upc.isString())
                    fail(base + QStringLiteral("/upc"), "wrong-type",
                         QStringLiteral("must be a string, not %1").arg(typeName(upc)));
                else if (upc.toString().isEmpty() || characters(upc.toString()) > MaxUpc)
                    fail(base + QStringLiteral("/upc"), "out-of-range",
                         QStringLiteral("must be 1 to %1 characters long").arg(MaxUpc));
                else if (const QString problem = Core::textProblem(upc.toString());
                         !problem.isEmpty())
                    fail(base + QStringLiteral("/upc"), "invalid-format", problem);
                else
                    line.upc = upc.toString();
                const QJsonValue qty = l.value(QStringLiteral("orderQuantity"));
                if (qty.isUndefined()) {
                    fail(base + QStringLiteral("/orderQuantity"), "required",
                         QStringLiteral("orderQuantity is required"));
                } else if (!qty.isDouble()) {
                    fail(base + QStringLiteral("/orderQuantity"), "wrong-type",
                         QStringLiteral("must be an integer, not %1").arg(typeName(qty)));
                } else {
                    const double d = qty.toDouble();
                    if (!std::isfinite(d) || std::floor(d) != d)
                        fail(base + QStringLiteral("/orderQuantity"), "wrong-type",
                             QStringLiteral("must be an integer"));
                    else if (d < 1 || d > 999)
                        fail(base + QStringLiteral("/orderQuantity"), "out-of-range",
                             QStringLiteral("must be an integer from 1 to 999"));
                    else
                        line.orderQuantity = int(d);
                }
                req.lines.append(line);
            }
        }
    }
    if (!errors->isEmpty())
        return Core::makeError(
            QStringLiteral("validation-failed"),
            errors->size() == 1
                ? QStringLiteral("the request body has 1 invalid field")
                : QStringLiteral("the request body has %1 invalid fields").arg(errors->size()),
            400);
    return req;
}

} // namespace Gatehouse::Orders
