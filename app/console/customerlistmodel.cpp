#include "customerlistmodel.h"
#include "fields.h"
#include "secretclipboard.h"

#include "orderstatus.h"

namespace Gatehouse::Console {

CustomerListModel::CustomerListModel(AdminClient *client, QObject *parent)
    : LiveListModel(client, parent)
{
    connect(this, &QAbstractItemModel::modelReset, this, &CustomerListModel::filterOptionsChanged);
    connect(this, &QAbstractItemModel::rowsInserted, this,
            &CustomerListModel::filterOptionsChanged);
    connect(this, &QAbstractItemModel::rowsRemoved, this, &CustomerListModel::filterOptionsChanged);
    connect(this, &QAbstractItemModel::dataChanged, this, &CustomerListModel::filterOptionsChanged);
}

QHash<int, QByteArray> CustomerListModel::roleNames() const
{
    return {
        {IdRole, "customerId"},
        {NameRole, "name"},
        {ShortIdRole, "shortId"},
        {CreatedTextRole, "createdText"},
        {OrderCountRole, "orderCount"},
        {SecretRotatedTextRole, "secretRotatedText"},
        {PreviousSecretExpiresTextRole, "previousSecretExpiresText"},
    };
}

QVariantList CustomerListModel::filterOptions() const
{
    QVariantList options{QVariantMap{{QStringLiteral("value"), QString()},
                                     {QStringLiteral("text"), tr("All customers")}}};
    for (const QJsonObject &customer : rows())
        options.append(QVariantMap{{QStringLiteral("value"), str(customer, "id")},
                                   {QStringLiteral("text"), str(customer, "name")}});
    return options;
}

void CustomerListModel::retranslate()
{
    LiveListModel::retranslate();
    if (count() == 0)
        emit filterOptionsChanged(); // "All customers" (with rows, dataChanged says it)
}

QString CustomerListModel::nameOf(const QString &customerId) const
{
    const int row = indexOfId(customerId);
    return row >= 0 ? str(rowAt(row), "name") : QString();
}

void CustomerListModel::create(const QString &name)
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty() || m_busy)
        return;
    setBusy(true);
    runAction(
        {"POST", QStringLiteral("/customers"), {}, QJsonObject{{"name", trimmed}}},
        [this](const QJsonObject &answer) {
            const QJsonObject customer = answer.value(QLatin1String("customer")).toObject();
            upsert(customer);
            emit customerCreated(str(customer, "id"));
            emit secretIssued(str(customer, "id"), str(customer, "name"),
                              str(answer, "webhookSecret"), QString());
        },
        [this] { setBusy(false); });
}

void CustomerListModel::rotateSecret(const QString &customerId)
{
    if (customerId.isEmpty() || m_busy)
        return;
    setBusy(true);
    runAction(
        {"POST", QStringLiteral("/customers/%1/rotate-secret").arg(customerId), {}, {}},
        [this, customerId](const QJsonObject &answer) {
            const QString expires =
                ConsoleFormat::time(answer.value(QLatin1String("previousSecretExpiresAt")));
            emit secretIssued(customerId, nameOf(customerId), str(answer, "webhookSecret"),
                              expires);
            fetchAndUpsert(QStringLiteral("/customers/%1").arg(customerId));
        },
        [this] { setBusy(false); });
}

void CustomerListModel::copySecretToClipboard(const QString &secret) const
{
    Console::copySecretToClipboard(secret);
}

QVariant CustomerListModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case IdRole:
        return str(row, "id");
    case NameRole:
    case Qt::DisplayRole:
        return str(row, "name");
    case ShortIdRole:
        return ConsoleFormat::shortId(str(row, "id"));
    case CreatedTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("createdAt")));
    case OrderCountRole:
        return row.value(QLatin1String("orderCount")).toInt();
    case SecretRotatedTextRole: {
        const QDateTime at = ConsoleFormat::parseTime(row.value(QLatin1String("secretRotatedAt")));
        return at.isValid() ? ConsoleFormat::time(at) : QString();
    }
    case PreviousSecretExpiresTextRole: {
        const QDateTime at =
            ConsoleFormat::parseTime(row.value(QLatin1String("previousSecretExpiresAt")));
        return at.isValid() && at > QDateTime::currentDateTimeUtc() ? ConsoleFormat::time(at)
                                                                    : QString();
    }
    default:
        return {};
    }
}

ApiCall CustomerListModel::listCall() const
{
    return {"GET", QStringLiteral("/customers"), {}, {}};
}

bool CustomerListModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    return str(a, "name").compare(str(b, "name"), Qt::CaseInsensitive) < 0;
}

void CustomerListModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("customer.created"))
        upsert(event.data);
}

void CustomerListModel::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

} // namespace Gatehouse::Console
