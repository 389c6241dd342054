#include "whocanmodel.h"
#include "fields.h"

#include <QJsonArray>
#include <QUrlQuery>

namespace Gatehouse::Console {

WhoCanModel::WhoCanModel(AdminClient *client, QObject *parent)
    : QAbstractListModel(parent), m_client(client)
{
    m_reloadSoon.setSingleShot(true);
    m_reloadSoon.setInterval(ReloadDelayMs);
    connect(&m_reloadSoon, &QTimer::timeout, this, &WhoCanModel::rerun);
    if (!client)
        return;
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            rerun();
    });
    connect(client, &AdminClient::eventReceived, this, [this](const AdminEvent &event) {
        if (event.type != QLatin1String("cluster.object.changed"))
            return;
        static const QStringList rbac{QStringLiteral("clusterroles"), QStringLiteral("roles"),
                                      QStringLiteral("clusterrolebindings"),
                                      QStringLiteral("rolebindings")};
        if (rbac.contains(event.data.value(QLatin1String("resource")).toString()))
            m_reloadSoon.start();
    });
}

int WhoCanModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

QVariant WhoCanModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject &subject = m_subjects.at(index.row());
    switch (role) {
    case KindRole:
        return str(subject, "kind");
    case NameRole:
        return str(subject, "name");
    case NamespaceRole:
        return str(subject, "namespace");
    case SubjectTextRole:
    case Qt::DisplayRole: {
        const QString ns = str(subject, "namespace");
        return QStringLiteral("%1 %2").arg(
            str(subject, "kind"),
            ns.isEmpty() ? str(subject, "name") : ns + QLatin1Char('/') + str(subject, "name"));
    }
    case AllowedRole: {
        QVariantList allowed;
        for (const QString &verb : m_verbs)
            allowed.append(this->allowed(index.row(), verb));
        return allowed;
    }
    case AllowedCountRole: {
        int n = 0;
        for (const QString &verb : m_verbs)
            n += this->allowed(index.row(), verb) ? 1 : 0;
        return n;
    }
    case AllowedVerbsTextRole: {
        QStringList verbs;
        for (const QString &verb : m_verbs)
            if (this->allowed(index.row(), verb))
                verbs.append(verb);
        return verbs.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QHash<int, QByteArray> WhoCanModel::roleNames() const
{
    return {{KindRole, "kind"},
            {NameRole, "name"},
            {NamespaceRole, "namespaceName"},
            {SubjectTextRole, "subjectText"},
            {AllowedRole, "allowed"},
            {AllowedCountRole, "allowedCount"},
            {AllowedVerbsTextRole, "allowedVerbsText"}};
}

void WhoCanModel::setResource(const QString &resource)
{
    if (m_resource == resource)
        return;
    m_resource = resource;
    emit inputChanged();
}

void WhoCanModel::setNamespaceName(const QString &ns)
{
    if (m_namespace == ns)
        return;
    m_namespace = ns;
    emit inputChanged();
}

void WhoCanModel::setApiGroup(const QString &group)
{
    if (m_apiGroup == group)
        return;
    m_apiGroup = group;
    emit inputChanged();
}

QString WhoCanModel::answeredText() const
{
    if (m_asked.isEmpty())
        return {};
    QString resource = str(m_asked, "resource");
    if (const QString group = str(m_asked, "group"); !group.isEmpty())
        resource += QLatin1Char('.') + group;
    const QString ns = str(m_asked, "namespace");
    return ns.isEmpty() ? tr("%1, cluster-wide").arg(resource)
                        : tr("%1 in namespace %2").arg(resource, ns);
}

void WhoCanModel::query()
{
    ask(m_resource, m_namespace, m_apiGroup);
}

void WhoCanModel::rerun()
{
    // The question of the answer shown, not what is being typed; at first the default one.
    if (m_asked.isEmpty())
        query();
    else
        ask(str(m_asked, "resource"), str(m_asked, "namespace"), str(m_asked, "group"));
}

void WhoCanModel::ask(const QString &resource, const QString &ns, const QString &group)
{
    m_reloadSoon.stop();
    const QString r = resource.trimmed();
    if (!m_client || r.isEmpty())
        return;
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("resource"), r);
    QJsonObject asked{{QStringLiteral("resource"), r}};
    if (const QString n = ns.trimmed(); !n.isEmpty()) {
        q.addQueryItem(QStringLiteral("namespace"), n);
        asked.insert(QStringLiteral("namespace"), n);
    }
    if (const QString g = group.trimmed(); !g.isEmpty()) {
        q.addQueryItem(QStringLiteral("group"), g);
        asked.insert(QStringLiteral("group"), g);
    }
    const quint64 generation = ++m_generation;
    setLoading(true);
    m_client->callApi({"GET", QStringLiteral("/cluster/who-can"), q, {}}, this,
                      [this, generation, asked](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          setLoading(false);
                          if (result.canceled)
                              return;
                          if (!result.ok()) {
                              m_error = result.errorMessage;
                              emit resultChanged();
                              return;
                          }
                          m_asked = asked;
                          setAnswer(result.object());
                      });
}

bool WhoCanModel::allowed(int row, const QString &verb) const
{
    if (row < 0 || row >= count())
        return false;
    return m_subjects.at(row).value(QLatin1String("verbs")).toObject().value(verb).toBool();
}

void WhoCanModel::setAnswer(const QJsonObject &answer)
{
    QStringList verbs;
    for (const QJsonValue v : answer.value(QLatin1String("verbs")).toArray())
        verbs.append(v.toString());
    QList<QJsonObject> subjects;
    for (const QJsonValue s : answer.value(QLatin1String("subjects")).toArray())
        subjects.append(s.toObject());
    if (m_asked.isEmpty())
        m_asked = QJsonObject{{QStringLiteral("resource"), str(answer, "resource")}};
    beginResetModel();
    m_verbs = verbs;
    m_subjects = subjects;
    m_error.clear();
    endResetModel();
    emit resultChanged();
}

void WhoCanModel::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void WhoCanModel::retranslate()
{
    if (rowCount() > 0)
        emit dataChanged(index(0), index(rowCount() - 1));
    emit resultChanged();
}

} // namespace Gatehouse::Console
