#include "auditlogmodel.h"
#include "fields.h"

#include "orderstatus.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Console {

namespace {
qint64 numericId(const QJsonObject &o)
{
    const QJsonValue id = o.value(QLatin1String("id"));
    return id.isDouble() ? id.toInteger() : id.toString().toLongLong();
}

// The kinds docs/audit.md lists, in its order.
const char *const Kinds[] = {"client",  "user",    "customer",
                             "beer",    "order",   "endpoint",
                             "consent", "token",   "initial-access-token",
                             "key",     "issuer",  "redelivery",
                             "node",    "rbac",    "namespace",
                             "pod",     "setting", "kubeconfig"};
} // namespace

AuditLogModel::AuditLogModel(AdminClient *client, QObject *parent) : LiveListModel(client, parent)
{
    setCapacity(5000); // paging back adds to the rows; live entries push the oldest out
    connect(this, &QAbstractItemModel::modelReset, this, [this] {
        // A reload starts over with the newest page.
        ++m_olderGeneration;
        setPaging(count() >= PageSize, false);
    });
}

QHash<int, QByteArray> AuditLogModel::roleNames() const
{
    return {
        {IdRole, "entryId"},
        {AtTextRole, "atText"},
        {ActorRole, "actor"},
        {ActorNameRole, "actorName"},
        {KindRole, "kind"},
        {ActionRole, "actionName"},
        {TargetRole, "target"},
        {MethodRole, "method"},
        {PathRole, "path"},
        {StatusRole, "status"},
        {ChangedFieldsRole, "changedFields"},
        {ChangeCountRole, "changeCount"},
        {SummaryRole, "summary"},
    };
}

QString AuditLogModel::changedFieldsText(const QJsonArray &changes, int shown)
{
    QStringList fields;
    for (const QJsonValue c : changes) {
        if (fields.size() == shown)
            break;
        const QString field = c.toObject().value(QLatin1String("field")).toString();
        if (!field.isEmpty())
            fields.append(field);
    }
    QString text = fields.join(QStringLiteral(", "));
    if (changes.size() > fields.size() && !fields.isEmpty())
        text += QStringLiteral(" +%1").arg(changes.size() - fields.size());
    return text;
}

QString AuditLogModel::actorName(const QString &actor)
{
    const qsizetype paren = actor.indexOf(QLatin1String(" ("));
    return paren > 0 ? actor.left(paren) : actor;
}

QVariant AuditLogModel::value(const QJsonObject &row, int role) const
{
    switch (role) {
    case IdRole:
        return idOf(row);
    case AtTextRole:
        return ConsoleFormat::time(row.value(QLatin1String("at")));
    case ActorRole:
        return str(row, "actor");
    case ActorNameRole:
        return actorName(str(row, "actor"));
    case KindRole:
        return str(row, "kind");
    case ActionRole:
    case Qt::DisplayRole:
        return str(row, "action");
    case TargetRole:
        return str(row, "target");
    case MethodRole:
        return str(row, "method");
    case PathRole:
        return str(row, "path");
    case StatusRole:
        return row.value(QLatin1String("status")).toInt();
    case ChangedFieldsRole:
        return changedFieldsText(row.value(QLatin1String("changes")).toArray());
    case ChangeCountRole:
        return int(row.value(QLatin1String("changes")).toArray().size());
    case SummaryRole:
        return row.value(QLatin1String("consequences"))
            .toObject()
            .value(QLatin1String("summary"))
            .toString();
    default:
        return {};
    }
}

void AuditLogModel::setKindFilter(const QString &kind)
{
    if (m_kindFilter == kind)
        return;
    m_kindFilter = kind;
    emit kindFilterChanged();
    filtersChanged();
}

void AuditLogModel::setTargetFilter(const QString &text)
{
    if (m_targetFilter == text)
        return;
    m_targetFilter = text;
    emit targetFilterChanged();
    filtersChanged();
}

void AuditLogModel::setActorFilter(const QString &text)
{
    if (m_actorFilter == text)
        return;
    m_actorFilter = text;
    emit actorFilterChanged();
    filtersChanged();
}

QVariantList AuditLogModel::kindOptions() const
{
    QVariantList options{QVariantMap{{"value", QString()}, {"text", tr("All kinds")}}};
    for (const char *kind : Kinds)
        options.append(QVariantMap{{"value", QLatin1String(kind)}, {"text", QLatin1String(kind)}});
    return options;
}

void AuditLogModel::retranslate()
{
    LiveListModel::retranslate();
    emit kindOptionsChanged();
}

void AuditLogModel::loadOlder()
{
    AdminClient *admin = client();
    if (!admin || admin->connectionState() != AdminClient::Online || m_loadingOlder ||
        !m_hasOlder || count() == 0)
        return;
    ApiCall call = listCall();
    call.query.addQueryItem(QStringLiteral("before"), idAt(count() - 1));
    const quint64 generation = ++m_olderGeneration;
    setPaging(m_hasOlder, true);
    admin->callApi(call, this, [this, generation](const ApiResult &result) {
        if (generation != m_olderGeneration)
            return; // a reload started over
        if (!result.ok()) {
            if (!result.canceled)
                setError(result.errorMessage);
            setPaging(m_hasOlder, false);
            return;
        }
        appendOlder(result.object().value(QLatin1String("items")).toArray());
    });
}

void AuditLogModel::appendOlder(const QJsonArray &items)
{
    for (const QJsonValue item : items) {
        const QJsonObject row = item.toObject();
        if (idOf(row).isEmpty() || indexOfId(idOf(row)) >= 0 || !accepts(row))
            continue;
        if (count() >= capacity())
            break;
        insertRowAt(count(), row);
    }
    setPaging(items.size() >= PageSize, false);
}

ApiCall AuditLogModel::listCall() const
{
    ApiCall call{"GET", QStringLiteral("/audit"), {}, {}};
    if (!m_kindFilter.isEmpty())
        call.query.addQueryItem(QStringLiteral("kind"), m_kindFilter);
    call.query.addQueryItem(QStringLiteral("limit"), QString::number(PageSize));
    return call;
}

bool AuditLogModel::accepts(const QJsonObject &row) const
{
    return (m_kindFilter.isEmpty() || str(row, "kind") == m_kindFilter) &&
           (m_targetFilter.isEmpty() ||
            str(row, "target").contains(m_targetFilter.trimmed(), Qt::CaseInsensitive)) &&
           (m_actorFilter.isEmpty() ||
            str(row, "actor").contains(m_actorFilter.trimmed(), Qt::CaseInsensitive));
}

bool AuditLogModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    // Ids grow with every entry: the newest has the highest.
    return numericId(a) > numericId(b);
}

void AuditLogModel::applyEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("audit.entry"))
        upsert(event.data);
}

void AuditLogModel::setPaging(bool hasOlder, bool loadingOlder)
{
    if (m_hasOlder == hasOlder && m_loadingOlder == loadingOlder)
        return;
    m_hasOlder = hasOlder;
    m_loadingOlder = loadingOlder;
    emit pagingChanged();
}

// ---- AuditDetail ----

AuditDetail::AuditDetail(AdminClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    if (!client)
        return;
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
    // A newer change of the same thing ends the time its consequences are counted for.
    connect(client, &AdminClient::eventReceived, this, [this](const AdminEvent &event) {
        if (event.type == QLatin1String("audit.entry") && loaded() &&
            str(event.data, "kind") == kind() && str(event.data, "target") == target())
            reload();
    });
}

void AuditDetail::setEntryId(const QString &id)
{
    if (m_entryId == id)
        return;
    m_entryId = id;
    ++m_generation;
    setLoading(false);
    setError(QString());
    m_entry = {};
    m_changes.clear();
    m_items.clear();
    emit entryIdChanged();
    emit changed();
    reload();
}

QString AuditDetail::atText() const
{
    return loaded() ? ConsoleFormat::time(m_entry.value(QLatin1String("at"))) : QString();
}

QString AuditDetail::actor() const
{
    return str(m_entry, "actor");
}

QString AuditDetail::kind() const
{
    return str(m_entry, "kind");
}

QString AuditDetail::action() const
{
    return str(m_entry, "action");
}

QString AuditDetail::target() const
{
    return str(m_entry, "target");
}

QString AuditDetail::request() const
{
    if (!loaded())
        return {};
    const int status = m_entry.value(QLatin1String("status")).toInt();
    return QStringLiteral("%1 %2 → %3")
        .arg(str(m_entry, "method"), str(m_entry, "path"))
        .arg(status > 0 ? QString::number(status) : QStringLiteral("–"));
}

QString AuditDetail::consequenceSummary() const
{
    // Said again from the counts, in the console's language; the server's sentence otherwise.
    const QJsonObject c = m_entry.value(QLatin1String("consequences")).toObject();
    const QJsonValue tokens = c.value(QLatin1String("tokensIssued"));
    if (tokens.isDouble()) {
        const int n = tokens.toInt();
        return kind() == QLatin1String("user")
                   ? tr("%n token(s) issued to this user", "", n)
                   : tr("%n token(s) issued under this client record", "", n);
    }
    const QJsonValue allowed = c.value(QLatin1String("allowed"));
    const QJsonValue denied = c.value(QLatin1String("denied"));
    if (allowed.isDouble() && denied.isDouble()) {
        QString since = tr("%1 request(s) allowed and %2 denied since")
                            .arg(allowed.toInt())
                            .arg(denied.toInt());
        const QJsonValue turned = c.value(QLatin1String("verdictsChanged"));
        if (!turned.isDouble())
            return since;
        return tr("%n earlier request(s) decided otherwise after it; %1", "", turned.toInt())
            .arg(since);
    }
    const QJsonValue succeeded = c.value(QLatin1String("attemptsSucceeded"));
    const QJsonValue failed = c.value(QLatin1String("attemptsFailed"));
    if (succeeded.isDouble() && failed.isDouble())
        return tr("%1 delivery attempt(s) sent: %2 succeeded, %3 failed")
            .arg(succeeded.toInt() + failed.toInt())
            .arg(succeeded.toInt())
            .arg(failed.toInt());
    return c.value(QLatin1String("summary")).toString();
}

QString AuditDetail::consequenceUntilText() const
{
    const QDateTime until = ConsoleFormat::parseTime(
        m_entry.value(QLatin1String("consequences")).toObject().value(QLatin1String("until")));
    return until.isValid() ? ConsoleFormat::time(until) : QString();
}

void AuditDetail::reload()
{
    if (!m_client || m_entryId.isEmpty() || m_client->connectionState() != AdminClient::Online)
        return;
    const quint64 generation = m_generation;
    setLoading(true);
    m_client->callApi({"GET", QStringLiteral("/audit/%1").arg(m_entryId), {}, {}}, this,
                      [this, generation](const ApiResult &result) {
                          if (generation != m_generation)
                              return;
                          setLoading(false);
                          if (result.canceled)
                              return;
                          if (!result.ok()) {
                              setError(result.errorMessage);
                              return;
                          }
                          setError(QString());
                          apply(result.object());
                      });
}

void AuditDetail::clearError()
{
    setError(QString());
}

void AuditDetail::retranslate()
{
    if (loaded())
        apply(m_entry);
}

QVariantMap AuditDetail::itemLine(const QJsonObject &item)
{
    QVariantMap line;
    QString at = str(item, "issuedAt");
    if (at.isEmpty())
        at = str(item, "at");
    if (at.isEmpty())
        at = str(item, "time");
    line.insert(QStringLiteral("atText"),
                at.isEmpty() ? QString() : ConsoleFormat::time(QJsonValue(at)));
    bool failed = false;
    QString text;
    if (item.contains(QLatin1String("clientId")) || item.contains(QLatin1String("subject"))) {
        // A token issued.
        text = tr("%1 to %2 (client %3)")
                   .arg(str(item, "kind"), str(item, "subject"), str(item, "clientId"));
    } else if (item.contains(QLatin1String("deliveryId"))) {
        // A delivery attempt.
        const QJsonValue status = item.value(QLatin1String("status"));
        failed = !status.isDouble() || status.toInt() < 200 || status.toInt() >= 300;
        text = status.isDouble()
                   ? tr("Delivery %1: HTTP %2").arg(str(item, "deliveryId")).arg(status.toInt())
                   : tr("Delivery %1: no answer").arg(str(item, "deliveryId"));
    } else if (item.contains(QLatin1String("code"))) {
        // A cluster request.
        const int code = item.value(QLatin1String("code")).toInt();
        failed = code >= 400;
        QString user = str(item, "user");
        if (user.isEmpty())
            user = item.value(QLatin1String("user"))
                       .toObject()
                       .value(QLatin1String("name"))
                       .toString();
        const QString what = QStringLiteral("%1 %2").arg(str(item, "method"), str(item, "path"));
        text = (failed ? tr("Denied (%1): %2 by %3") : tr("Allowed (%1): %2 by %3"))
                   .arg(code)
                   .arg(what.trimmed(), user.isEmpty() ? tr("anonymous") : user);
    } else {
        QStringList parts;
        for (auto it = item.begin(); it != item.end(); ++it)
            parts.append(QStringLiteral("%1: %2").arg(it.key(), jsonValueText(it.value())));
        text = parts.join(QStringLiteral(", "));
    }
    line.insert(QStringLiteral("text"), text);
    line.insert(QStringLiteral("failed"), failed);
    return line;
}

QVariantMap AuditDetail::verdictChangeLine(const QJsonObject &change)
{
    const QJsonObject now = change.value(QLatin1String("now")).toObject();
    const bool nowAllowed = now.value(QLatin1String("authorized")).toBool();
    const int requests = std::max(1, change.value(QLatin1String("requests")).toInt());
    QString user = str(change, "user");
    if (change.value(QLatin1String("anonymous")).toBool() || user.isEmpty())
        user = tr("anonymous");
    const QString what =
        QStringLiteral("%1 %2").arg(str(change, "method"), str(change, "path")).trimmed();
    const QString line =
        (nowAllowed ? tr("Now allowed: %1 by %2") : tr("Now denied: %1 by %2")).arg(what, user);
    return QVariantMap{
        {QStringLiteral("text"),
         requests > 1 ? tr("%1 (%n request(s))", "", requests).arg(line) : line},
        {QStringLiteral("reason"), str(now, "reason")},
        {QStringLiteral("nowAllowed"), nowAllowed},
        {QStringLiteral("requests"), requests},
        {QStringLiteral("atText"), ConsoleFormat::time(change.value(QLatin1String("lastTime")))}};
}

void AuditDetail::apply(const QJsonObject &entry)
{
    m_entry = entry;
    m_changes.clear();
    for (const QJsonValue v : entry.value(QLatin1String("changes")).toArray()) {
        const QJsonObject c = v.toObject();
        if (c.isEmpty())
            continue;
        const QString change = c.value(QLatin1String("added")).toBool() ? QStringLiteral("added")
                               : c.value(QLatin1String("removed")).toBool()
                                   ? QStringLiteral("removed")
                                   : QStringLiteral("changed");
        m_changes.append(QVariantMap{{"field", str(c, "field")},
                                     {"before", jsonValueText(c.value(QLatin1String("before")))},
                                     {"after", jsonValueText(c.value(QLatin1String("after")))},
                                     {"change", change}});
    }
    const QJsonObject consequences = entry.value(QLatin1String("consequences")).toObject();
    auto lines = [&consequences](const char *key, QVariantMap (*line)(const QJsonObject &)) {
        QVariantList out;
        for (const QJsonValue v : consequences.value(QLatin1String(key)).toArray())
            if (v.isObject())
                out.append(line(v.toObject()));
        return out;
    };
    m_items = lines("items", &AuditDetail::itemLine);
    m_verdictChanges = lines("verdictChanges", &AuditDetail::verdictChangeLine);
    emit changed();
}

void AuditDetail::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void AuditDetail::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace Gatehouse::Console
