#include "nodelistmodel.h"
#include "fields.h"

#include "orderstatus.h"

#include <QJsonArray>

namespace Gatehouse::Console {

namespace {

QString readyStatus(const QJsonObject &node)
{
    const QJsonArray conditions =
        node.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray();
    for (const QJsonValue c : conditions) {
        const QJsonObject condition = c.toObject();
        if (condition.value(QLatin1String("type")).toString() == QLatin1String("Ready"))
            return condition.value(QLatin1String("status")).toString();
    }
    return QStringLiteral("Unknown");
}

} // namespace

NodeListModel::NodeListModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{}

QString NodeListModel::collectionPath()
{
    return QStringLiteral("/cluster/k8s/api/v1/nodes");
}

QHash<int, QByteArray> NodeListModel::roleNames() const
{
    return {
        {NameRole, "name"},
        {ReadyRole, "ready"},
        {ReadyTextRole, "readyText"},
        {LabelCountRole, "labelCount"},
        {KubeletVersionRole, "kubeletVersion"},
        {ZoneRole, "zone"},
        {CreatedTextRole, "createdText"},
        {ResourceVersionRole, "resourceVersion"},
    };
}

QJsonObject NodeListModel::node(const QString &name) const
{
    return rowAt(indexOfId(name));
}

void NodeListModel::reloadNode(const QString &name)
{
    if (!name.isEmpty())
        fetchAndUpsert(collectionPath() + QLatin1Char('/') + name);
}

QVariant NodeListModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case NameRole:
    case Qt::DisplayRole:
        return idOf(row);
    case ReadyRole:
        return readyStatus(row) == QLatin1String("True");
    case ReadyTextRole: {
        const QString status = readyStatus(row);
        if (status == QLatin1String("True"))
            return tr("Ready");
        if (status == QLatin1String("False"))
            return tr("Not ready");
        return tr("Unknown");
    }
    case LabelCountRole:
        return int(metadata(row).value(QLatin1String("labels")).toObject().size());
    case KubeletVersionRole:
        return row.value(QLatin1String("status"))
            .toObject()
            .value(QLatin1String("nodeInfo"))
            .toObject()
            .value(QLatin1String("kubeletVersion"))
            .toString();
    case ZoneRole:
        return metadata(row)
            .value(QLatin1String("labels"))
            .toObject()
            .value(QLatin1String("topology.kubernetes.io/zone"))
            .toString();
    case CreatedTextRole:
        return ConsoleFormat::time(metadata(row).value(QLatin1String("creationTimestamp")));
    case ResourceVersionRole:
        return metadata(row).value(QLatin1String("resourceVersion")).toString();
    default:
        return {};
    }
}

QString NodeListModel::idOf(const QJsonObject &row) const
{
    return metadata(row).value(QLatin1String("name")).toString();
}

ApiCall NodeListModel::listCall() const
{
    return {"GET", collectionPath(), {}, {}};
}

bool NodeListModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    return idOf(a) < idOf(b);
}

void NodeListModel::applyEvent(const AdminEvent &event)
{
    if (event.type != QLatin1String("cluster.object.changed") ||
        event.data.value(QLatin1String("resource")).toString() != QLatin1String("nodes"))
        return;
    const QString name = event.data.value(QLatin1String("name")).toString();
    if (event.data.value(QLatin1String("type")).toString() == QLatin1String("DELETED")) {
        removeRowAt(indexOfId(name));
        return;
    }
    // Already current (our own change, answered before its event came).
    const QString version = event.data.value(QLatin1String("resourceVersion")).toString();
    if (!version.isEmpty() &&
        metadata(node(name)).value(QLatin1String("resourceVersion")) == QJsonValue(version))
        return;
    reloadNode(name);
}

} // namespace Gatehouse::Console
