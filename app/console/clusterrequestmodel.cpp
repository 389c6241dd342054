#include "clusterrequestmodel.h"
#include "fields.h"

#include "clusterdenial.h"
#include "orderstatus.h"

#include <QJsonDocument>
#include <QUrlQuery>

#include <algorithm>

namespace Gatehouse::Console {

ClusterRequestModel::ClusterRequestModel(AdminClient *client, QObject *parent)
    : QAbstractListModel(parent), m_client(client), m_live(client)
{
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &ClusterRequestModel::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload(); // we may have missed some while away
    });
}

int ClusterRequestModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

QVariant ClusterRequestModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject &row = m_rows.at(index.row());
    switch (role) {
    case TimeTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("time")));
    case UserRole:
        return str(row, "user");
    case GroupsTextRole: {
        QStringList groups;
        for (const QJsonValue g : row.value(QLatin1String("groups")).toArray())
            groups.append(g.toString());
        return groups.join(QStringLiteral(", "));
    }
    case MethodRole:
        return str(row, "method");
    case PathRole:
    case Qt::DisplayRole:
        return str(row, "path");
    case VerbRole:
        return str(row, "verb");
    case ResourceRole:
        return str(row, "resource");
    case CodeRole:
        return row.value(QLatin1String("code")).toInt();
    case VerdictRole:
        return str(row, "verdict");
    case DeniedRole:
        return isDenied(row);
    case StageRole:
        return str(row, "stage");
    case ReasonRole:
        return str(row, "reason");
    case DeniedByRole:
        return isDenied(row) ? str(row, "deniedBy") : QString();
    case DenialHeadlineRole:
        return ClusterDenial::fromRecordedRequest(row).headline();
    case QuotesRole:
        return ClusterDenial::fromRecordedRequest(row).quotes;
    case NearMissesRole:
        return isDenied(row) ? ClusterDenial::nearMissesOf(row.value(QLatin1String("nearMisses")))
                             : QVariantList();
    case NearMissCountRole:
        return isDenied(row)
                   ? ClusterDenial::nearMissCountOf(row.value(QLatin1String("nearMisses")))
                   : 0;
    case ExpandedRole:
        return !m_expanded.isEmpty() && m_expanded.contains(keyOf(row));
    default:
        return {};
    }
}

QHash<int, QByteArray> ClusterRequestModel::roleNames() const
{
    return {
        {TimeTextRole, "timeText"},
        {UserRole, "user"},
        {GroupsTextRole, "groupsText"},
        {MethodRole, "method"},
        {PathRole, "path"},
        {VerbRole, "verb"},
        {ResourceRole, "resource"},
        {CodeRole, "code"},
        {VerdictRole, "verdict"},
        {DeniedRole, "denied"},
        {StageRole, "stage"},
        {ReasonRole, "reason"},
        {DeniedByRole, "deniedBy"},
        {DenialHeadlineRole, "denialHeadline"},
        {QuotesRole, "quotes"},
        {NearMissesRole, "nearMisses"},
        {NearMissCountRole, "nearMissCount"},
        {ExpandedRole, "expanded"},
    };
}

int ClusterRequestModel::deniedCount() const
{
    return int(std::count_if(m_all.begin(), m_all.end(), &ClusterRequestModel::isDenied));
}

bool ClusterRequestModel::isDenied(const QJsonObject &item)
{
    return str(item, "verdict") == QLatin1String("denied") ||
           item.value(QLatin1String("code")).toInt() >= 400;
}

bool ClusterRequestModel::accepts(const QJsonObject &item) const
{
    if (m_deniedOnly && !isDenied(item))
        return false;
    return !(m_hideAdminReads && str(item, "user") == QLatin1String("gatehouse-admin") &&
             str(item, "method") == QLatin1String("GET"));
}

void ClusterRequestModel::setDeniedOnly(bool on)
{
    if (m_deniedOnly == on)
        return;
    m_deniedOnly = on;
    refilter();
    emit filtersChanged();
}

void ClusterRequestModel::setHideAdminReads(bool on)
{
    if (m_hideAdminReads == on)
        return;
    m_hideAdminReads = on;
    refilter();
    emit filtersChanged();
}

void ClusterRequestModel::refilter()
{
    const int before = count();
    beginResetModel();
    m_rows.clear();
    for (const QJsonObject &item : std::as_const(m_all))
        if (accepts(item))
            m_rows.append(item);
    endResetModel();
    if (count() != before)
        emit countChanged();
}

void ClusterRequestModel::reload()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    const quint64 generation = ++m_generation;
    m_duringLoad = {};
    m_loading = true;
    emit loadingChanged();
    m_live.noteSyncStarted();
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(LoadLimit));
    m_client->callApi({"GET", QStringLiteral("/cluster/requests"), query, {}}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          const QJsonArray during = std::exchange(m_duringLoad, {});
                          m_loading = false;
                          if (result.ok()) {
                              setError(QString());
                              m_loaded = true;
                              resetFrom(result.object().value(QLatin1String("items")).toArray());
                              m_live.noteSynced();
                          } else if (!result.canceled) {
                              setError(result.httpStatus == 403 ? QString() : result.errorMessage);
                              if (result.httpStatus == 403)
                                  resetFrom({});
                              m_live.noteSyncFailed(result.httpStatus, result.errorMessage);
                          } else {
                              m_live.noteSyncCanceled();
                          }
                          emit loadingChanged();
                          append(during);
                      });
}

void ClusterRequestModel::clear()
{
    resetFrom({});
}

void ClusterRequestModel::setExpanded(int row, bool expanded)
{
    if (row < 0 || row >= count())
        return;
    const QJsonObject &item = m_rows.at(row);
    if (expanded && !isDenied(item))
        return;
    const QString key = keyOf(item);
    if (m_expanded.contains(key) == expanded)
        return;
    if (expanded)
        m_expanded.insert(key);
    else
        m_expanded.remove(key);
    emit dataChanged(index(row), index(row), {ExpandedRole});
}

void ClusterRequestModel::toggleExpanded(int row)
{
    if (row >= 0 && row < count())
        setExpanded(row, !m_expanded.contains(keyOf(m_rows.at(row))));
}

void ClusterRequestModel::resetFrom(const QJsonArray &items)
{
    m_all.clear();
    m_keys.clear();
    for (qsizetype i = items.size() - 1; i >= 0 && m_all.size() < m_capacity; --i) {
        const QJsonObject item = items.at(i).toObject();
        m_all.append(item);
        m_keys.insert(keyOf(item));
    }
    m_expanded.intersect(m_keys); // a reload keeps what is still listed open
    refilter();
    emit countChanged(); // totalCount, deniedCount
}

void ClusterRequestModel::append(const QJsonArray &items)
{
    bool added = false;
    for (const QJsonValue value : items) {
        const QJsonObject item = value.toObject();
        const QString key = keyOf(item);
        if (m_keys.contains(key))
            continue;
        m_all.prepend(item);
        m_keys.insert(key);
        added = true;
        if (accepts(item)) {
            beginInsertRows({}, 0, 0);
            m_rows.prepend(item);
            endInsertRows();
        }
        if (m_all.size() > m_capacity) {
            const QJsonObject dropped = m_all.takeLast();
            m_keys.remove(keyOf(dropped));
            m_expanded.remove(keyOf(dropped));
            if (!m_rows.isEmpty() && m_rows.constLast() == dropped) {
                const int last = count() - 1;
                beginRemoveRows({}, last, last);
                m_rows.removeLast();
                endRemoveRows();
            }
        }
    }
    if (added)
        emit countChanged();
}

void ClusterRequestModel::handleEvent(const AdminEvent &event)
{
    if (event.type != QLatin1String("cluster.requests"))
        return;
    const QJsonArray requests = event.data.value(QLatin1String("requests")).toArray();
    if (m_loading) {
        for (const QJsonValue r : requests)
            if (m_duringLoad.size() < m_capacity)
                m_duringLoad.append(r);
        return;
    }
    append(requests);
    if (!requests.isEmpty())
        m_live.noteChange();
}

QString ClusterRequestModel::keyOf(const QJsonObject &item)
{
    // Requests have no id; the whole entry (with its millisecond time) tells them apart.
    return QString::fromUtf8(QJsonDocument(item).toJson(QJsonDocument::Compact));
}

void ClusterRequestModel::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

void ClusterRequestModel::retranslate()
{
    if (!m_rows.isEmpty())
        emit dataChanged(index(0), index(count() - 1));
}

} // namespace Gatehouse::Console
