// TestAdminServer's audit log (docs/audit.md): GET /admin/v1/audit (kind, actor and target
// matched exactly as the backend's AuditLog::list does, before=ID, limit 1..1000, newest
// first) and GET /admin/v1/audit/{id}, with entries and consequences in the real backend's
// shapes (copied from its answers), and audit.entry events for new entries.

#include "testadminserver.h"

#include <QTcpSocket>

namespace {

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject change(const QString &field, const QJsonValue &before, const QJsonValue &after)
{
    QJsonObject c{{"field", field}, {"before", before}, {"after", after}};
    if (before.isNull())
        c.insert("added", true);
    else if (after.isNull())
        c.insert("removed", true);
    return c;
}

} // namespace

void TestAdminServer::resetAuditData()
{
    m_audit.clear();
    m_auditId = 0;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString cli = QStringLiteral(" (gatehouse-admin-cli/0.1.0 from 127.0.0.1)");
    // Older filler first: order pickups by the console, enough for more than one page.
    for (int i = 0; i < 120; ++i) {
        const QString order =
            QStringLiteral("0b5c9e1a-0000-4000-8000-%1").arg(i, 12, 10, QChar('0'));
        appendAuditEntry(
            now.addSecs(-86400 + i * 60), QStringLiteral("order"), QStringLiteral("pickup"), order,
            QStringLiteral("console (gatehouse-console/0.1.0 from 127.0.0.1)"),
            QStringLiteral("POST"), QStringLiteral("/admin/v1/orders/%1/pickup").arg(order), 200,
            {change("orderStatus", "ALLOCATED", "PICKED_UP")}, {});
    }
    appendAuditEntry(now.addSecs(-3600), QStringLiteral("customer"), QStringLiteral("create"),
                     QStringLiteral("93d11447-dc20-43e1-92c2-07bb73696187"),
                     QStringLiteral("alice (curl/7.88.1 from 127.0.0.1)"), "POST",
                     QStringLiteral("/admin/v1/customers"), 201,
                     {change("id", QJsonValue::Null, "93d11447-dc20-43e1-92c2-07bb73696187"),
                      change("name", QJsonValue::Null, "Audit Pub"),
                      change("orderCount", QJsonValue::Null, 0),
                      change("secretFingerprints", QJsonValue::Null, QJsonArray{"e0f449c7"})},
                     {});
    const QString client = clientId(1);
    const QJsonObject tokens{{"items", QJsonArray{QJsonObject{{"clientId", client},
                                                              {"issuedAt", iso(now.addSecs(-600))},
                                                              {"kind", "access"},
                                                              {"subject", client}}}},
                             {"summary", "1 token(s) issued under this client record"},
                             {"tokensIssued", 1},
                             {"until", iso(now)}};
    appendAuditEntry(now.addSecs(-1800), QStringLiteral("client"), QStringLiteral("update"), client,
                     QStringLiteral("alice (gatehouse-console/0.1.0 from 127.0.0.1)"), "PUT",
                     QStringLiteral("/admin/v1/clients/%1").arg(client), 200,
                     {change("client_name", "Billing", "Billing service"),
                      change("scope", "orders:read orders:write", "orders:read")},
                     tokens);
    const QJsonObject verdicts{
        {"allowed", 1},
        {"denied", 1},
        {"items",
         QJsonArray{QJsonObject{{"code", 403},
                                {"groups", QJsonArray{"system:nodes", "system:authenticated"}},
                                {"method", "PATCH"},
                                {"name", "node-1"},
                                {"namespace", ""},
                                {"path", "/api/v1/nodes/node-1"},
                                {"resource", "nodes"},
                                {"stage", "admission"},
                                {"time", iso(now.addSecs(-300))},
                                {"user", "system:node:node-2"},
                                {"verb", "patch"},
                                {"verdict", "denied"}},
                    QJsonObject{{"code", 200},
                                {"groups", QJsonArray{"system:masters", "system:authenticated"}},
                                {"method", "PATCH"},
                                {"name", "node-1"},
                                {"namespace", ""},
                                {"path", "/api/v1/nodes/node-1"},
                                {"resource", "nodes"},
                                {"stage", "ok"},
                                {"time", iso(now.addSecs(-590))},
                                {"user", "gatehouse-admin"},
                                {"verb", "patch"},
                                {"verdict", "allowed"}}}},
        {"summary", "4 earlier request(s) decided otherwise after it (1 now allowed, 3 now "
                    "denied); 1 request(s) allowed and 1 denied since"},
        {"verdictsChanged", 4},
        {"verdictChanges",
         QJsonArray{
             QJsonObject{{"method", "GET"},
                         {"path", "/api/v1/nodes/node-1"},
                         {"user", "system:node:node-2"},
                         {"groups", QJsonArray{"system:nodes", "system:authenticated"}},
                         {"verb", "get"},
                         {"requests", 3},
                         {"firstTime", iso(now.addSecs(-900))},
                         {"lastTime", iso(now.addSecs(-700))},
                         {"verdict", "now denied"},
                         {"then", QJsonObject{{"stage", "authorization"}, {"authorized", true}}},
                         {"now", QJsonObject{{"stage", "authorization"},
                                             {"authorized", false},
                                             {"reason", "nodes \"node-1\" is forbidden: User "
                                                        "\"system:node:node-2\" cannot get "
                                                        "resource \"nodes\""}}}},
             QJsonObject{{"method", "GET"},
                         {"path", "/version"},
                         {"user", "system:anonymous"},
                         {"anonymous", true},
                         {"verb", "get"},
                         {"requests", 1},
                         {"firstTime", iso(now.addSecs(-650))},
                         {"lastTime", iso(now.addSecs(-650))},
                         {"verdict", "now allowed"},
                         {"then", QJsonObject{{"stage", "authentication"}, {"authorized", false}}},
                         {"now", QJsonObject{{"stage", "authorization"},
                                             {"authorized", true},
                                             {"reason", "RBAC: allowed by ClusterRoleBinding "
                                                        "\"system:public-info-viewer\""}}}}}},
        {"until", iso(now)}};
    appendAuditEntry(now.addSecs(-600), QStringLiteral("node"), QStringLiteral("patch"),
                     QStringLiteral("node-1"), QStringLiteral("admin token") + cli, "PATCH",
                     QStringLiteral("/admin/v1/cluster/k8s/api/v1/nodes/node-1"), 200,
                     {change("metadata.labels.rack", QJsonValue::Null, "r1"),
                      change("metadata.labels.tier", "gold", QJsonValue::Null)},
                     verdicts);
}

void TestAdminServer::appendAuditEntry(const QDateTime &at, const QString &kind,
                                       const QString &action, const QString &target,
                                       const QString &actor, const QString &method,
                                       const QString &path, int status, const QJsonArray &changes,
                                       const QJsonObject &consequences)
{
    m_audit.append(QJsonObject{{"id", QString::number(++m_auditId)},
                               {"at", iso(at)},
                               {"actor", actor},
                               {"kind", kind},
                               {"action", action},
                               {"target", target},
                               {"method", method},
                               {"path", path},
                               {"status", status},
                               {"before", QJsonValue::Null},
                               {"after", QJsonValue::Null},
                               {"changes", changes},
                               {"consequences", consequences}});
}

QString TestAdminServer::addAuditEntry(const QString &kind, const QString &action,
                                       const QString &target, const QString &actor,
                                       const QJsonArray &changes)
{
    appendAuditEntry(QDateTime::currentDateTimeUtc(), kind, action, target, actor,
                     QStringLiteral("POST"), QStringLiteral("/admin/v1/%1s/%2").arg(kind, target),
                     200, changes, {});
    QJsonObject event = m_audit.last();
    event.remove("consequences"); // the event carries the entry as recorded
    sendEvent(QStringLiteral("audit.entry"), event);
    return event.value("id").toString();
}

bool TestAdminServer::handleAudit(QTcpSocket *socket, const QByteArray &method,
                                  const QString &resource, const QString &id,
                                  const QUrlQuery &query)
{
    if (resource != QLatin1String("audit"))
        return false;
    if (method != "GET") {
        respondError(socket, 405, "method-not-allowed",
                     QStringLiteral("method %1 is not allowed on /admin/v1/audit")
                         .arg(QString::fromLatin1(method)));
        return true;
    }
    if (m_auditForbidden) {
        respondError(socket, 403, "forbidden", "this admin token may not read the audit log");
        return true;
    }
    if (!id.isEmpty()) {
        for (const QJsonObject &e : std::as_const(m_audit))
            if (e.value("id").toString() == id) {
                respondJson(socket, 200, e);
                return true;
            }
        respondError(socket, 404, "audit-entry-not-found",
                     QStringLiteral("no audit entry %1").arg(id));
        return true;
    }
    bool ok = true;
    const QString before = query.queryItemValue("before");
    const qint64 beforeId = before.isEmpty() ? 0 : before.toLongLong(&ok);
    if (!ok || (!before.isEmpty() && beforeId <= 0)) {
        respondError(socket, 400, "invalid-query-parameter", "before must be an entry id");
        return true;
    }
    const QString limitText = query.queryItemValue("limit");
    const int limit = limitText.isEmpty() ? 100 : limitText.toInt(&ok);
    if (!ok || limit < 1 || limit > 1000) {
        respondError(socket, 400, "invalid-query-parameter", "limit must be 1 to 1000");
        return true;
    }
    QJsonArray items;
    for (qsizetype i = m_audit.size() - 1; i >= 0 && items.size() < limit; --i) {
        const QJsonObject &e = m_audit.at(i);
        if (beforeId > 0 && e.value("id").toString().toLongLong() >= beforeId)
            continue;
        bool match = true;
        for (const char *key : {"kind", "actor", "target"}) {
            const QString wanted = query.queryItemValue(QLatin1String(key), QUrl::FullyDecoded);
            if (!wanted.isEmpty() && e.value(QLatin1String(key)).toString() != wanted)
                match = false;
        }
        if (match)
            items.append(e);
    }
    respondJson(socket, 200, {{"items", items}});
    return true;
}
