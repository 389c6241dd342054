#pragma once

#include "livelistmodel.h"

namespace Gatehouse::Console {

// The cluster's nodes (GET /admin/v1/cluster/k8s/api/v1/nodes: the cluster API read through the
// admin API, as gatehouse-admin), by name. A cluster.object.changed event for a node reads that
// node again (the event only names it) or drops it.
class NodeListModel : public Gatehouse::Console::LiveListModel
{
    Q_OBJECT

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        ReadyRole,      // the Ready condition is "True"
        ReadyTextRole,  // "Ready", "Not ready", "Unknown"
        LabelCountRole, // metadata.labels
        KubeletVersionRole,
        ZoneRole, // topology.kubernetes.io/zone, "" when none
        CreatedTextRole,
        ResourceVersionRole,
    };
    Q_ENUM(Role)

    explicit NodeListModel(AdminClient *client, QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;

    // The node's object as listed; empty when there is no such node.
    QJsonObject node(const QString &name) const;
    // Reads one node again (GET .../nodes/{name}) and updates its row.
    Q_INVOKABLE void reloadNode(const QString &name);

    // The path of the nodes collection below /admin/v1.
    static QString collectionPath();

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    QString idOf(const QJsonObject &row) const override;
    ApiCall listCall() const override;
    bool listedBefore(const QJsonObject &a, const QJsonObject &b) const override;
    void applyEvent(const AdminEvent &event) override;
};

} // namespace Gatehouse::Console
