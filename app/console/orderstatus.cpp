#include "orderstatus.h"

#include <QLocale>

namespace Gatehouse::Console {

namespace {

struct StatusInfo
{
    const char *status;
    const char *name;
    const char *family;
};

// Translated with QCoreApplication::translate() in the contexts named here.
constexpr StatusInfo Statuses[] = {
    {"NEW", QT_TRANSLATE_NOOP("OrderStatus", "New"), "progress"},
    {"VALIDATION_PENDING", QT_TRANSLATE_NOOP("OrderStatus", "Validation pending"), "progress"},
    {"VALIDATED", QT_TRANSLATE_NOOP("OrderStatus", "Validated"), "progress"},
    {"VALIDATION_EXCEPTION", QT_TRANSLATE_NOOP("OrderStatus", "Validation exception"), "exception"},
    {"ALLOCATION_PENDING", QT_TRANSLATE_NOOP("OrderStatus", "Allocation pending"), "progress"},
    {"ALLOCATED", QT_TRANSLATE_NOOP("OrderStatus", "Allocated"), "progress"},
    {"PENDING_INVENTORY", QT_TRANSLATE_NOOP("OrderStatus", "Pending inventory"), "waiting"},
    {"ALLOCATION_EXCEPTION", QT_TRANSLATE_NOOP("OrderStatus", "Allocation exception"), "exception"},
    {"PICKED_UP", QT_TRANSLATE_NOOP("OrderStatus", "Picked up"), "progress"},
    {"DELIVERED", QT_TRANSLATE_NOOP("OrderStatus", "Delivered"), "ok"},
    {"CANCELLED", QT_TRANSLATE_NOOP("OrderStatus", "Cancelled"), "cancelled"},
};

const StatusInfo *findStatus(const QString &status)
{
    for (const StatusInfo &info : Statuses) {
        if (status == QLatin1String(info.status))
            return &info;
    }
    return nullptr;
}

struct StateInfo
{
    const char *state;
    const char *name;
    const char *family;
};

constexpr StateInfo States[] = {
    {"pending", QT_TRANSLATE_NOOP("DeliveryState", "Pending"), "progress"},
    {"succeeded", QT_TRANSLATE_NOOP("DeliveryState", "Succeeded"), "ok"},
    {"failed", QT_TRANSLATE_NOOP("DeliveryState", "Failed"), "exception"},
};

} // namespace

const QStringList &OrderStatus::all()
{
    static const QStringList statuses = [] {
        QStringList list;
        for (const StatusInfo &info : Statuses)
            list.append(QString::fromLatin1(info.status));
        return list;
    }();
    return statuses;
}

QString OrderStatus::displayName(const QString &status)
{
    const StatusInfo *info = findStatus(status);
    return info ? QCoreApplication::translate("OrderStatus", info->name) : status;
}

QString OrderStatus::family(const QString &status)
{
    const StatusInfo *info = findStatus(status);
    return info ? QString::fromLatin1(info->family) : QStringLiteral("unknown");
}

bool OrderStatus::canPickup(const QString &status)
{
    return status == QLatin1String("ALLOCATED");
}

bool OrderStatus::canDeliver(const QString &status)
{
    return status == QLatin1String("PICKED_UP");
}

bool OrderStatus::canCancel(const QString &status)
{
    // docs/orders.md, Lifecycle: CANCELLED from these only.
    static const QStringList cancellable{
        QStringLiteral("NEW"),       QStringLiteral("VALIDATION_PENDING"),
        QStringLiteral("VALIDATED"), QStringLiteral("ALLOCATION_PENDING"),
        QStringLiteral("ALLOCATED"), QStringLiteral("PENDING_INVENTORY"),
    };
    return cancellable.contains(status);
}

QVariantList OrderStatus::filterOptions()
{
    QVariantList options{QVariantMap{
        {QStringLiteral("value"), QString()},
        {QStringLiteral("text"), QCoreApplication::translate("OrderStatus", "All statuses")}}};
    for (const QString &status : all())
        options.append(QVariantMap{{QStringLiteral("value"), status},
                                   {QStringLiteral("text"), displayName(status)}});
    return options;
}

const QStringList &DeliveryState::all()
{
    static const QStringList states = [] {
        QStringList list;
        for (const StateInfo &info : States)
            list.append(QString::fromLatin1(info.state));
        return list;
    }();
    return states;
}

QString DeliveryState::displayName(const QString &state)
{
    for (const StateInfo &info : States) {
        if (state == QLatin1String(info.state))
            return QCoreApplication::translate("DeliveryState", info.name);
    }
    return state;
}

QString DeliveryState::family(const QString &state)
{
    for (const StateInfo &info : States) {
        if (state == QLatin1String(info.state))
            return QString::fromLatin1(info.family);
    }
    return QStringLiteral("unknown");
}

QVariantList DeliveryState::filterOptions()
{
    QVariantList options{QVariantMap{
        {QStringLiteral("value"), QString()},
        {QStringLiteral("text"), QCoreApplication::translate("DeliveryState", "All states")}}};
    for (const QString &state : all())
        options.append(QVariantMap{{QStringLiteral("value"), state},
                                   {QStringLiteral("text"), displayName(state)}});
    return options;
}

QDateTime ConsoleFormat::parseTime(const QJsonValue &value)
{
    if (!value.isString())
        return {};
    QDateTime time = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(value.toString(), Qt::ISODate);
    return time.isValid() ? time.toUTC() : QDateTime();
}

QString ConsoleFormat::time(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return QStringLiteral("–");
    const QDateTime local = time.toLocalTime();
    const QDate today = now.toLocalTime().date();
    if (local.date() == today)
        return local.toString(QStringLiteral("HH:mm:ss"));
    if (local.date().year() == today.year())
        return QLocale().toString(local, QStringLiteral("d MMM HH:mm"));
    return local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString ConsoleFormat::time(const QJsonValue &value)
{
    return time(parseTime(value));
}

QString ConsoleFormat::shortId(const QString &id)
{
    // The last 8 characters: ids here are UUIDv7, whose first ones are the creation time
    // and the same for everything made in the same few seconds.
    return id.right(8);
}

QString ConsoleFormat::latency(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("–");
    if (ms < 1000)
        return QCoreApplication::translate("ConsoleFormat", "%1 ms").arg(ms);
    return QCoreApplication::translate("ConsoleFormat", "%1 s")
        .arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
}

QString ConsoleFormat::preview(const QString &text, int maxLines, int maxChars)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    bool cut = false;
    if (lines.size() > maxLines) {
        lines = lines.mid(0, maxLines);
        cut = true;
    }
    QString result = lines.join(QLatin1Char('\n'));
    result.remove(QLatin1Char('\r'));
    if (result.size() > maxChars) {
        result.truncate(maxChars);
        cut = true;
    }
    if (cut)
        result += QChar(0x2026);
    return result;
}

} // namespace Gatehouse::Console
