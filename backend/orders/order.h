#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Gatehouse::Orders {

// The lifecycle of mssc-beer-order-service's state machine (see docs/orders.md).
enum class OrderStatus {
    New,
    ValidationPending,
    Validated,
    ValidationException,
    AllocationPending,
    Allocated,
    AllocationException,
    PendingInventory,
    PickedUp,
    Delivered,
    Cancelled,
};

QString statusName(OrderStatus s);
std::optional<OrderStatus> parseStatus(const QString &name);
const QStringList &statusNames();
bool isCancellable(OrderStatus s);

struct OrderLine
{
    QString id;
    QString beerId; // empty while the upc is not in the catalog
    QString upc;
    int orderQuantity = 0;
    int quantityAllocated = 0;
};

struct Order
{
    QString id;
    QString customerId;
    std::optional<QString> customerRef;
    QList<OrderLine> lines;
    QString callbackUrl; // empty: none
    OrderStatus status = OrderStatus::New;
    int version = 1;
    qint64 createdAt = 0; // ms since the epoch
    qint64 updatedAt = 0;

    QJsonObject toJson() const;
    // toJson() as compact text, written directly (the order's 201 body is made on the
    // database writer's thread, the one serial point of order creation).
    QByteArray toJsonText() const;
    QString location() const; // /v1/customers/{customerId}/orders/{id}
};

struct Beer
{
    QString id;
    QString beerName;
    QString beerStyle;
    QString upc;
    QString price; // decimal string
    int quantityOnHand = 0;
    bool discontinued = false;

    QJsonObject toJson(bool admin = false) const;
};

const QStringList &beerStyles();

struct Customer
{
    QString id;
    QString name;
    qint64 createdAt = 0;
};

struct FieldError
{
    QString field; // JSON Pointer
    QString code;
    QString message;
};

struct OrderRequest
{
    std::optional<QString> customerRef;
    struct Line
    {
        QString upc;
        int orderQuantity = 0;
    };
    QList<Line> lines;
    QString callbackUrl;
};

constexpr int MaxLines = 100;
constexpr int MaxCustomerRef = 255;
constexpr int MaxUpc = 64;
constexpr int MaxCallbackUrl = 2048;

// The body of POST /v1/customers/{customerId}/orders. Malformed JSON gives an Error with
// code malformed-json; field problems are all collected into `errors` (code
// validation-failed). `pathCustomerId` is canonical (lower-case).
Core::Result<OrderRequest> parseOrderRequest(const QByteArray &body, const QString &pathCustomerId,
                                             QList<FieldError> *errors);

// A UUID in canonical 8-4-4-4-12 form (any case); answered lower-case.
std::optional<QString> canonicalUuid(const QString &text);

QString isoTime(qint64 ms);

} // namespace Gatehouse::Orders
