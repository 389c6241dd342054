#include "settingsmodel.h"
#include "fields.h"

#include <QJsonArray>

namespace Gatehouse::Console {

SettingsModel::SettingsModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{
    connect(this, &QAbstractItemModel::modelReset, this, &SettingsModel::updateRestartRequired);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(this, signal, this, &SettingsModel::updateRestartRequired);
    connect(this, &QAbstractItemModel::dataChanged, this, &SettingsModel::updateRestartRequired);
}

QHash<int, QByteArray> SettingsModel::roleNames() const
{
    return {
        {KeyRole, "key"},
        {GroupRole, "group"},
        {GroupTitleRole, "groupTitle"},
        {TypeRole, "type"},
        {DescriptionRole, "description"},
        {ValueRole, "value"},
        {DefaultRole, "defaultValue"},
        {SourceRole, "source"},
        {SourceTextRole, "sourceText"},
        {LiveRole, "live"},
        {PendingRole, "pending"},
        {RestartRequiredRole, "restartRequired"},
        {EditableRole, "editable"},
        {EnvironmentRole, "environment"},
        {ErrorRole, "error"},
    };
}

QString SettingsModel::groupTitle(const QString &group)
{
    if (group == QLatin1String("listeners"))
        return tr("Listeners");
    if (group == QLatin1String("limits"))
        return tr("Connection limits");
    if (group == QLatin1String("oauth"))
        return tr("Authorization server");
    if (group == QLatin1String("webhooks"))
        return tr("Orders and webhooks");
    if (group == QLatin1String("cluster"))
        return tr("Cluster API");
    if (group == QLatin1String("storage"))
        return tr("Storage");
    return group;
}

QVariant SettingsModel::value(const QJsonObject &row, int role) const
{
    const QString key = str(row, "key");
    switch (role) {
    case Qt::DisplayRole:
    case KeyRole:
        return key;
    case GroupRole:
        return str(row, "group");
    case GroupTitleRole:
        return groupTitle(str(row, "group"));
    case TypeRole:
        return str(row, "type");
    case DescriptionRole:
        return str(row, "description");
    case ValueRole:
        return str(row, "value");
    case DefaultRole:
        return str(row, "default");
    case SourceRole:
        return str(row, "source");
    case SourceTextRole: {
        const QString source = str(row, "source");
        if (source == QLatin1String("default"))
            return tr("default");
        if (source == QLatin1String("admin API"))
            return tr("changed through the admin API");
        return source; // "flag --x", "environment GATEHOUSE_X", "config file /etc/..."
    }
    case LiveRole:
        return str(row, "applies") == QLatin1String("live");
    case PendingRole:
        return row.value(QLatin1String("pending")).toString();
    case RestartRequiredRole:
        return row.value(QLatin1String("restartRequired")).toBool();
    case EditableRole:
        return row.value(QLatin1String("editable")).toBool();
    case EnvironmentRole:
        return str(row, "environment");
    case ErrorRole:
        return m_errors.value(key);
    }
    return {};
}

bool SettingsModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    static const QStringList order{QStringLiteral("listeners"), QStringLiteral("limits"),
                                   QStringLiteral("oauth"),     QStringLiteral("webhooks"),
                                   QStringLiteral("cluster"),   QStringLiteral("storage")};
    auto rank = [](const QJsonObject &o) {
        const qsizetype i = order.indexOf(str(o, "group"));
        return i < 0 ? order.size() : i;
    };
    return rank(a) < rank(b);
}

ApiCall SettingsModel::listCall() const
{
    return {"GET", QStringLiteral("/settings"), {}, {}};
}

bool SettingsModel::accepts(const QJsonObject &row) const
{
    if (m_filter.isEmpty())
        return true;
    for (const char *field : {"key", "description", "value"})
        if (str(row, field).contains(m_filter, Qt::CaseInsensitive))
            return true;
    return groupTitle(str(row, "group")).contains(m_filter, Qt::CaseInsensitive);
}

void SettingsModel::setFilter(const QString &filter)
{
    if (m_filter == filter)
        return;
    m_filter = filter;
    emit filterChanged();
    filtersChanged();
}

void SettingsModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("setting.changed"))
        upsert(event.data);
    else if (event.type == QLatin1String("cluster.settings.changed"))
        reload(); // the live cluster settings, changed on the RBAC page or the CLI
}

void SettingsModel::apply(const QString &key, const QString &value)
{
    change({"PUT", QStringLiteral("/settings/%1").arg(key), {}, QJsonObject{{"value", value}}},
           key);
}

void SettingsModel::reset(const QString &key)
{
    change({"DELETE", QStringLiteral("/settings/%1").arg(key), {}, {}}, key);
}

void SettingsModel::change(const ApiCall &call, const QString &key)
{
    if (key.isEmpty() || !client())
        return;
    setBusyKey(key);
    client()->callApi(call, this, [this, key](const ApiResult &result) {
        setBusyKey(QString());
        if (result.canceled)
            return;
        if (!result.ok()) {
            // On the setting's own row: the server's words, e.g. "service-port: expected an
            // integer from 0 to 65535".
            setRowError(key, result.errorMessage);
            return;
        }
        setRowError(key, QString());
        const QJsonObject answer = result.object();
        upsert(answer);
        emit applied(key, str(answer, "applies") == QLatin1String("live"));
    });
}

void SettingsModel::setRowError(const QString &key, const QString &message)
{
    if (m_errors.value(key) == message)
        return;
    if (message.isEmpty())
        m_errors.remove(key);
    else
        m_errors.insert(key, message);
    const int row = indexOfId(key);
    if (row >= 0)
        emit dataChanged(index(row), index(row), {ErrorRole});
}

void SettingsModel::setBusyKey(const QString &key)
{
    if (m_busyKey == key)
        return;
    m_busyKey = key;
    emit busyKeyChanged();
}

void SettingsModel::updateRestartRequired()
{
    bool any = false;
    for (const QJsonObject &row : rows())
        any = any || row.value(QLatin1String("restartRequired")).toBool();
    if (any == m_restartRequired)
        return;
    m_restartRequired = any;
    emit restartRequiredChanged();
}

} // namespace Gatehouse::Console
