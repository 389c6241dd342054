#include "attemptlistmodel.h"

#include "orderstatus.h"

#include <algorithm>

namespace Gatehouse::Console {

AttemptListModel::AttemptListModel(QObject *parent) : JsonListModel(parent) {}

QHash<int, QByteArray> AttemptListModel::roleNames() const
{
    return {
        {NumberRole, "number"},
        {AtTextRole, "atText"},
        {UrlRole, "url"},
        {TriggerRole, "trigger"},
        {TriggerTextRole, "triggerText"},
        {StatusRole, "status"},
        {StatusTextRole, "statusText"},
        {LatencyRole, "latencyMs"},
        {LatencyTextRole, "latencyText"},
        {ResponseBodyRole, "responseBody"},
        {ResponsePreviewRole, "responsePreview"},
        {ErrorRole, "error"},
        {FailedRole, "failed"},
        {HeadersTextRole, "headersText"},
    };
}

void AttemptListModel::setAttempts(const QJsonArray &attempts)
{
    QList<QJsonObject> next;
    next.reserve(attempts.size());
    for (const QJsonValue attempt : attempts)
        next.append(attempt.toObject());
    std::stable_sort(next.begin(), next.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QLatin1String("number")).toInt() > b.value(QLatin1String("number")).toInt();
    });
    if (next != rows())
        setRows(std::move(next));
}

QVariant AttemptListModel::value(const QJsonObject &row, int role) const
{
    const int status = row.value(QLatin1String("status")).toInt();
    const QJsonValue latency = row.value(QLatin1String("latencyMs"));
    const QString trigger = row.value(QLatin1String("trigger")).toString();
    switch (role) {
    case NumberRole:
        return row.value(QLatin1String("number")).toInt();
    case AtTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("at")));
    case UrlRole:
        return row.value(QLatin1String("url")).toString();
    case TriggerRole:
        return trigger;
    case TriggerTextRole:
        return trigger == QLatin1String("manual")      ? tr("Manual")
               : trigger == QLatin1String("scheduled") ? tr("Scheduled")
                                                       : trigger;
    case StatusRole:
        return status;
    case StatusTextRole:
    case Qt::DisplayRole:
        return status > 0 ? QString::number(status) : tr("No answer");
    case LatencyRole:
        return latency.isDouble() ? latency.toInteger() : qint64(-1);
    case LatencyTextRole:
        return ConsoleFormat::latency(latency.isDouble() ? latency.toInteger() : -1);
    case ResponseBodyRole:
        return row.value(QLatin1String("responseBody")).toString();
    case ResponsePreviewRole:
        return ConsoleFormat::preview(row.value(QLatin1String("responseBody")).toString());
    case ErrorRole:
        return row.value(QLatin1String("error")).toString();
    case FailedRole:
        return status < 200 || status >= 300;
    case HeadersTextRole: {
        const QJsonObject headers = row.value(QLatin1String("requestHeaders")).toObject();
        QStringList lines;
        for (auto it = headers.begin(); it != headers.end(); ++it)
            lines.append(it.key() + QStringLiteral(": ") + it.value().toString());
        return lines.join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

QString AttemptListModel::idOf(const QJsonObject &row) const
{
    return QString::number(row.value(QLatin1String("number")).toInt());
}

} // namespace Gatehouse::Console
