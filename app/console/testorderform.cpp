#include "testorderform.h"

#include <QJsonArray>

namespace Gatehouse::Console {

TestOrderForm::TestOrderForm(AdminClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{}

void TestOrderForm::setCustomerId(const QString &customerId)
{
    if (m_customerId == customerId)
        return;
    m_customerId = customerId;
    emit changed();
}

void TestOrderForm::setCustomerRef(const QString &customerRef)
{
    if (m_customerRef == customerRef)
        return;
    m_customerRef = customerRef;
    emit changed();
}

int TestOrderForm::totalQuantity() const
{
    int total = 0;
    for (const int quantity : m_quantities)
        total += quantity;
    return total;
}

bool TestOrderForm::canSubmit() const
{
    return !m_busy && m_client && !m_customerId.isEmpty() && lineCount() <= MaxLines &&
           m_customerRef.trimmed().size() <= MaxCustomerRefLength;
}

void TestOrderForm::setQuantity(const QString &upc, int quantity)
{
    if (upc.isEmpty())
        return;
    quantity = std::clamp(quantity, 0, MaxQuantity);
    if (quantity == m_quantities.value(upc))
        return;
    if (quantity == 0)
        m_quantities.remove(upc);
    else
        m_quantities.insert(upc, quantity);
    emit changed();
}

void TestOrderForm::reset()
{
    if (m_quantities.isEmpty() && m_customerRef.isEmpty() && m_error.isEmpty())
        return;
    m_quantities.clear();
    m_customerRef.clear();
    m_error.clear();
    emit changed();
}

QJsonObject TestOrderForm::requestBody() const
{
    QJsonObject body;
    if (!m_customerId.isEmpty())
        body.insert(QStringLiteral("customerId"), m_customerId);
    if (const QString ref = m_customerRef.trimmed(); !ref.isEmpty())
        body.insert(QStringLiteral("customerRef"), ref);
    // No beers chosen: "lines" is left out and the server picks (docs/orders.md: optional).
    if (m_quantities.isEmpty())
        return body;
    QJsonArray lines;
    for (auto it = m_quantities.cbegin(); it != m_quantities.cend(); ++it)
        lines.append(QJsonObject{{"upc", it.key()}, {"orderQuantity", it.value()}});
    body.insert(QStringLiteral("lines"), lines);
    return body;
}

void TestOrderForm::submit()
{
    if (!canSubmit())
        return;
    m_busy = true;
    m_error.clear();
    emit changed();
    m_client->callApi({"POST", QStringLiteral("/test-orders"), {}, requestBody()}, this,
                      [this](const ApiResult &result) {
                          m_busy = false;
                          if (result.ok()) {
                              m_quantities.clear();
                              m_customerRef.clear();
                              emit changed();
                              emit placed(result.object());
                              return;
                          }
                          if (!result.canceled)
                              m_error = result.errorMessage;
                          emit changed();
                      });
}

} // namespace Gatehouse::Console
