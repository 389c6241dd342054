#include "rbaclistmodel.h"
#include "fields.h"

#include <QJsonArray>

#include <algorithm>

namespace Gatehouse::Console {

namespace {

QString scopeText(const QString &ns)
{
    return ns.isEmpty() ? RbacListModel::tr("cluster-wide")
                        : RbacListModel::tr("namespace %1").arg(ns);
}

} // namespace

RbacListModel::RbacListModel(AdminClient *client, QString clusterResource,
                             QString namespacedResource, QObject *parent)
    : JsonListModel(parent), m_client(client), m_live(client),
      m_clusterResource(std::move(clusterResource)),
      m_namespacedResource(std::move(namespacedResource))
{
    m_reloadSoon.setSingleShot(true);
    m_reloadSoon.setInterval(ReloadDelayMs);
    connect(&m_reloadSoon, &QTimer::timeout, this, &RbacListModel::reload);
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &RbacListModel::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
}

QString RbacListModel::collectionPath(const QString &resource)
{
    return QStringLiteral("/cluster/k8s/apis/rbac.authorization.k8s.io/v1/") + resource;
}

void RbacListModel::reload()
{
    m_reloadSoon.stop();
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    const quint64 generation = ++m_generation;
    setLoading(true);
    m_live.noteSyncStarted();
    // Both lists, then one reset: the rows never show one kind without the other.
    struct Pending
    {
        QJsonArray clusterItems;
        QJsonArray namespacedItems;
        int answers = 0;
        QString error;
        int errorStatus = 0;
        bool canceled = false;
    };
    auto pending = std::make_shared<Pending>();
    auto finish = [this, generation, pending] {
        if (++pending->answers < 2 || generation != m_generation)
            return;
        setLoading(false);
        if (pending->canceled) {
            m_live.noteSyncCanceled();
            return;
        }
        if (!pending->error.isEmpty()) {
            setError(pending->errorStatus == 403 ? QString() : pending->error);
            if (pending->errorStatus == 403)
                resetFrom({}, {});
            m_live.noteSyncFailed(pending->errorStatus, pending->error);
            return;
        }
        setError(QString());
        m_loaded = true;
        resetFrom(pending->clusterItems, pending->namespacedItems);
        emit loadingChanged();
        m_live.noteSynced();
    };
    for (const bool cluster : {true, false}) {
        m_client->callApi(
            {"GET", collectionPath(cluster ? m_clusterResource : m_namespacedResource), {}, {}},
            this, [pending, finish, cluster](const ApiResult &result) {
                if (result.canceled)
                    pending->canceled = true;
                else if (!result.ok()) {
                    pending->error = result.errorMessage;
                    pending->errorStatus = result.httpStatus;
                } else
                    (cluster ? pending->clusterItems : pending->namespacedItems) =
                        result.object().value(QLatin1String("items")).toArray();
                finish();
            });
    }
}

void RbacListModel::clearError()
{
    setError(QString());
}

void RbacListModel::resetFrom(const QJsonArray &clusterItems, const QJsonArray &namespacedItems)
{
    // List items carry no kind of their own; the list they came from says it.
    const QString clusterKind = m_clusterResource == QLatin1String("clusterroles")
                                    ? QStringLiteral("ClusterRole")
                                    : QStringLiteral("ClusterRoleBinding");
    const QString namespacedKind = m_namespacedResource == QLatin1String("roles")
                                       ? QStringLiteral("Role")
                                       : QStringLiteral("RoleBinding");
    QList<QJsonObject> next;
    for (const auto &[items, kind] :
         {std::pair{clusterItems, clusterKind}, std::pair{namespacedItems, namespacedKind}}) {
        for (const QJsonValue item : items) {
            QJsonObject row = item.toObject();
            row.insert(QStringLiteral("kind"), kind);
            next.append(row);
        }
    }
    std::stable_sort(next.begin(), next.end(), [](const QJsonObject &a, const QJsonObject &b) {
        const QString na = namespaceOf(a);
        const QString nb = namespaceOf(b);
        if (na.isEmpty() != nb.isEmpty())
            return na.isEmpty();
        if (na != nb)
            return na < nb;
        return nameOf(a) < nameOf(b);
    });
    if (next != rows())
        setRows(std::move(next));
}

QString RbacListModel::idOf(const QJsonObject &row) const
{
    return kindOf(row) + QLatin1Char('/') + namespaceOf(row) + QLatin1Char('/') + nameOf(row);
}

QString RbacListModel::kindOf(const QJsonObject &row)
{
    return row.value(QLatin1String("kind")).toString();
}

QString RbacListModel::nameOf(const QJsonObject &row)
{
    return metadata(row).value(QLatin1String("name")).toString();
}

QString RbacListModel::namespaceOf(const QJsonObject &row)
{
    return metadata(row).value(QLatin1String("namespace")).toString();
}

void RbacListModel::handleEvent(const AdminEvent &event)
{
    if (event.type != QLatin1String("cluster.object.changed"))
        return;
    const QString resource = event.data.value(QLatin1String("resource")).toString();
    if (resource == m_clusterResource || resource == m_namespacedResource)
        m_reloadSoon.start();
}

void RbacListModel::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void RbacListModel::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

// ---- roles --------------------------------------------------------------------------------

RbacRoleModel::RbacRoleModel(AdminClient *client, QObject *parent)
    : RbacListModel(client, QStringLiteral("clusterroles"), QStringLiteral("roles"), parent)
{}

QHash<int, QByteArray> RbacRoleModel::roleNames() const
{
    return {
        {KindRole, "kind"},
        {NameRole, "name"},
        {NamespaceRole, "namespaceName"},
        {ScopeTextRole, "scopeText"},
        {RuleCountRole, "ruleCount"},
        {RulesRole, "rules"},
        {BuiltInRole, "builtIn"},
    };
}

QString RbacRoleModel::ruleText(const QJsonObject &rule)
{
    const QString verbs = strings(rule.value(QLatin1String("verbs"))).join(QStringLiteral(", "));
    const QStringList urls = strings(rule.value(QLatin1String("nonResourceURLs")));
    if (!urls.isEmpty())
        return tr("%1 on %2").arg(verbs, urls.join(QStringLiteral(", ")));
    QStringList groups;
    for (const QString &g : strings(rule.value(QLatin1String("apiGroups"))))
        groups.append(g.isEmpty() ? tr("core") : g);
    QString text =
        tr("%1 on %2 (%3)")
            .arg(verbs, strings(rule.value(QLatin1String("resources"))).join(QStringLiteral(", ")),
                 groups.join(QStringLiteral(", ")));
    if (const QStringList names = strings(rule.value(QLatin1String("resourceNames")));
        !names.isEmpty())
        text += QLatin1Char(' ') + tr("named %1").arg(names.join(QStringLiteral(", ")));
    return text;
}

QVariant RbacRoleModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case KindRole:
        return kindOf(row);
    case NameRole:
    case Qt::DisplayRole:
        return nameOf(row);
    case NamespaceRole:
        return namespaceOf(row);
    case ScopeTextRole:
        return scopeText(namespaceOf(row));
    case RuleCountRole:
        return int(row.value(QLatin1String("rules")).toArray().size());
    case RulesRole: {
        QStringList rules;
        for (const QJsonValue rule : row.value(QLatin1String("rules")).toArray())
            rules.append(ruleText(rule.toObject()));
        return rules;
    }
    case BuiltInRole:
        return metadata(row)
                   .value(QLatin1String("labels"))
                   .toObject()
                   .value(QLatin1String("kubernetes.io/bootstrapping"))
                   .toString() == QLatin1String("rbac-defaults");
    default:
        return {};
    }
}

// ---- bindings -----------------------------------------------------------------------------

RbacBindingModel::RbacBindingModel(AdminClient *client, QObject *parent)
    : RbacListModel(client, QStringLiteral("clusterrolebindings"), QStringLiteral("rolebindings"),
                    parent)
{}

QHash<int, QByteArray> RbacBindingModel::roleNames() const
{
    return {
        {KindRole, "kind"},
        {NameRole, "name"},
        {NamespaceRole, "namespaceName"},
        {ScopeTextRole, "scopeText"},
        {RoleRefKindRole, "roleRefKind"},
        {RoleRefNameRole, "roleRefName"},
        {RoleRefTextRole, "roleRefText"},
        {SubjectsRole, "subjects"},
        {SubjectCountRole, "subjectCount"},
    };
}

QVariant RbacBindingModel::value(const QJsonObject &row, int role) const
{
    const QJsonObject roleRef = row.value(QLatin1String("roleRef")).toObject();
    switch (role) {
    case KindRole:
        return kindOf(row);
    case NameRole:
    case Qt::DisplayRole:
        return nameOf(row);
    case NamespaceRole:
        return namespaceOf(row);
    case ScopeTextRole:
        return scopeText(namespaceOf(row));
    case RoleRefKindRole:
        return roleRef.value(QLatin1String("kind")).toString();
    case RoleRefNameRole:
        return roleRef.value(QLatin1String("name")).toString();
    case RoleRefTextRole:
        return QStringLiteral("%1 %2").arg(roleRef.value(QLatin1String("kind")).toString(),
                                           roleRef.value(QLatin1String("name")).toString());
    case SubjectsRole: {
        QStringList subjects;
        for (const QJsonValue s : row.value(QLatin1String("subjects")).toArray()) {
            const QJsonObject subject = s.toObject();
            const QString ns = subject.value(QLatin1String("namespace")).toString();
            const QString name = subject.value(QLatin1String("name")).toString();
            subjects.append(
                QStringLiteral("%1 %2").arg(subject.value(QLatin1String("kind")).toString(),
                                            ns.isEmpty() ? name : ns + QLatin1Char('/') + name));
        }
        return subjects;
    }
    case SubjectCountRole:
        return int(row.value(QLatin1String("subjects")).toArray().size());
    default:
        return {};
    }
}

} // namespace Gatehouse::Console
