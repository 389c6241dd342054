// The body of POST /v1/customers/{customerId}/orders: JSON from anyone on the network.
#include "orders/order.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Orders;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QString customer = QStringLiteral("2b0d7c2e-4a53-4a8e-9b0c-5d6f1a2b3c4d");
    static const QStringList codes{QStringLiteral("wrong-type"),   QStringLiteral("required"),
                                   QStringLiteral("out-of-range"), QStringLiteral("invalid-format"),
                                   QStringLiteral("read-only"),    QStringLiteral("unknown-field"),
                                   QStringLiteral("mismatch")};
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<FieldError> errors;
    auto r = parseOrderRequest(body, customer, &errors);
    if (!r) {
        FUZZ_ASSERT(r.error().httpStatus == 400, "every refusal is a 400");
        FUZZ_ASSERT(!r.error().message.isEmpty(), "every refusal explains itself");
        FUZZ_ASSERT((r.error().code == QLatin1String("validation-failed")) == !errors.isEmpty(),
                    "field errors come exactly with validation-failed");
        for (const FieldError &e : std::as_const(errors)) {
            FUZZ_ASSERT(e.field.startsWith(QLatin1Char('/')), "a field is a JSON Pointer");
            FUZZ_ASSERT(codes.contains(e.code), "a field error has a documented code");
            FUZZ_ASSERT(!e.message.isEmpty(), "a field error explains itself");
        }
        return 0;
    }
    FUZZ_ASSERT(errors.isEmpty(), "an accepted body has no field errors");
    FUZZ_ASSERT(r->lines.size() <= MaxLines, "line count limit");
    QJsonArray lines;
    for (const OrderRequest::Line &l : r->lines) {
        FUZZ_ASSERT(l.orderQuantity >= 1 && l.orderQuantity <= 999, "orderQuantity 1..999");
        FUZZ_ASSERT(!l.upc.isEmpty() && l.upc.size() <= MaxUpc, "upc 1..64 characters");
        lines.append(QJsonObject{{QStringLiteral("upc"), l.upc},
                                 {QStringLiteral("orderQuantity"), l.orderQuantity}});
    }
    FUZZ_ASSERT(!r->customerRef ||
                    (!r->customerRef->isEmpty() && r->customerRef->size() <= MaxCustomerRef),
                "customerRef 1..255 characters");
    // What was accepted, written back as JSON, is accepted again with the same meaning.
    QJsonObject again{{QStringLiteral("beerOrderLines"), lines}};
    if (r->customerRef)
        again.insert(QStringLiteral("customerRef"), *r->customerRef);
    if (!r->callbackUrl.isEmpty())
        again.insert(QStringLiteral("orderStatusCallbackUrl"), r->callbackUrl);
    QList<FieldError> errors2;
    auto r2 = parseOrderRequest(QJsonDocument(again).toJson(), customer, &errors2);
    FUZZ_ASSERT(r2.ok(), "an accepted order round-trips");
    FUZZ_ASSERT(r2->lines.size() == r->lines.size() && r2->customerRef == r->customerRef &&
                    r2->callbackUrl == r->callbackUrl,
                "the round trip keeps the meaning");
    return 0;
}
