#include "admin/auditrecorder.h"

#include "admin/admintokens.h"
#include "admin/clusteradmin.h"
#include "admin/settingsadmin.h"

#include "cluster/clusterapi.h"
#include "cluster/requestinfo.h"
#include "core/clock.h"
#include "core/database.h"
#include "core/httpserver.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>
#include <QUrlQuery>
#include <algorithm>

#include <optional>

namespace Gatehouse::Admin {

using Core::AuditLog;
using Core::HttpRequest;
using Core::HttpResponse;

namespace {

// Admin collections and the kind of thing each holds.
const QHash<QString, QString> &kinds()
{
    static const QHash<QString, QString> k{
        {QStringLiteral("clients"), QStringLiteral("client")},
        {QStringLiteral("users"), QStringLiteral("user")},
        {QStringLiteral("signing-keys"), QStringLiteral("key")},
        {QStringLiteral("trusted-issuers"), QStringLiteral("issuer")},
        {QStringLiteral("initial-access-tokens"), QStringLiteral("initial-access-token")},
        {QStringLiteral("consents"), QStringLiteral("consent")},
        {QStringLiteral("tokens"), QStringLiteral("token")},
        {QStringLiteral("customers"), QStringLiteral("customer")},
        {QStringLiteral("beers"), QStringLiteral("beer")},
        {QStringLiteral("orders"), QStringLiteral("order")},
        {QStringLiteral("test-orders"), QStringLiteral("order")},
        {QStringLiteral("deliveries"), QStringLiteral("redelivery")},
        {QStringLiteral("redeliveries"), QStringLiteral("redelivery")},
        {QStringLiteral("endpoints"), QStringLiteral("endpoint")},
        {QStringLiteral("admin-tokens"), QStringLiteral("admin-token")},
        {QStringLiteral("settings"), QStringLiteral("setting")}};
    return k;
}

QString clusterKind(const QString &resource)
{
    if (resource.endsWith(QLatin1String("roles")) ||
        resource.endsWith(QLatin1String("rolebindings")))
        return QStringLiteral("rbac");
    if (resource == QLatin1String("nodes"))
        return QStringLiteral("node");
    if (resource.isEmpty())
        return QStringLiteral("cluster");
    return resource.endsWith(QLatin1Char('s')) ? resource.chopped(1) : resource;
}

// The new object's id in a create answer.
QString createdId(const QJsonObject &answer)
{
    for (const char *key : {"id", "client_id", "username"})
        if (answer.value(QLatin1String(key)).isString())
            return answer.value(QLatin1String(key)).toString();
    for (const char *outer : {"customer", "order"})
        if (const QJsonObject o = answer.value(QLatin1String(outer)).toObject(); !o.isEmpty())
            return o.value(QLatin1String("id")).toString();
    return {};
}

// Changes that can turn a cluster request's verdict: RBAC objects, nodes, namespaces and the
// cluster's live settings.
bool affectsClusterVerdicts(const QString &kind, const QString &target)
{
    if (kind == QLatin1String("setting"))
        return target == QLatin1String("cluster") || SettingsAdminApi::isClusterLive(target);
    return kind == QLatin1String("rbac") || kind == QLatin1String("node") ||
           kind == QLatin1String("namespace");
}

QString actorOf(const HttpRequest &req, const AdminTokens &tokens)
{
    // The caller's own word for who they are (the CLI sends $USER): a label, never able to
    // hide the token's name. Without parentheses (the Audit page shows the actor up to its
    // first " (": "admin token (…)" passed for the root's entries) and without format or
    // separator characters (a right-to-left override reversed the part that told the truth).
    QString who = QString::fromUtf8(req.header("x-gatehouse-actor"));
    who.removeIf([](QChar c) {
        return c == QLatin1Char('(') || c == QLatin1Char(')') ||
               c.category() == QChar::Other_Format || c.category() == QChar::Other_Control ||
               c.category() == QChar::Separator_Line || c.category() == QChar::Separator_Paragraph;
    });
    who = who.trimmed().left(100);
    // A scoped token names itself, with its id: "alice via admin token 'ci' #2b810650", or the
    // token alone.
    const auto principal = tokens.authenticate(req.bearerToken());
    if (principal && !principal->root)
        who = who.isEmpty() ? principal->identify()
                            : QStringLiteral("%1 via %2").arg(who, principal->identify());
    if (who.isEmpty())
        who = QStringLiteral("admin token");
    QString agent = QString::fromUtf8(req.header("user-agent")).section(QLatin1Char(' '), 0, 0);
    agent = agent.left(60);
    return QStringLiteral("%1 (%2 from %3)")
        .arg(who, agent.isEmpty() ? QStringLiteral("unknown client") : agent,
             req.peerAddress.toString());
}

} // namespace

AuditRecorder::AuditRecorder(Core::HttpServer &admin, Core::AuditLog &log, Core::Database &database,
                             Cluster::ClusterApi &cluster, const AdminTokens &tokens)
    : m_admin(admin), m_log(log), m_database(database), m_cluster(cluster), m_tokens(tokens)
{
    m_admin.addObserver(
        QStringLiteral("/admin/v1/"),
        [this](const HttpRequest &req) -> Core::HttpServer::AfterResponse {
            const Target t = classify(req);
            if (!t.audited)
                return {};
            if (t.action == QLatin1String("import"))
                return recordImport(req);
            // A create's snapshot path is its collection: nothing before.
            const QJsonValue before = t.action.startsWith(QLatin1String("create"))
                                          ? QJsonValue(QJsonValue::Null)
                                          : snapshot(t);
            const QString actor = actorOf(req, m_tokens);
            const QString method = QString::fromLatin1(req.method);
            const QString path = req.path;
            // The cluster's policy before the change, to tell which verdicts it turns.
            std::optional<Cluster::ClusterApi::DecisionPolicy> policy;
            if (affectsClusterVerdicts(t.kind, t.target))
                policy = m_cluster.decisionPolicy();
            return [this, t, before, actor, method, path, policy](const HttpResponse &response) {
                if (response.status >= 400)
                    return; // refused: nothing changed
                Target after = t;
                const QJsonDocument answer = QJsonDocument::fromJson(response.body);
                // A request performed as another identity answers 200 with the cluster's own
                // answer inside: refused there (403, 404, 422), it changed nothing either. It
                // was recorded as done ("rbac delete 'cluster-admin'" for a 403).
                if (t.innerStatus && answer.object().value(QLatin1String("code")).toInt() >= 400)
                    return;
                if (after.action.startsWith(QLatin1String("create")) && after.target.isEmpty()) {
                    after.target = createdId(answer.object());
                    // The new object's own GET, else the answer itself.
                    if (after.target.isEmpty())
                        after.snapshotPath.clear();
                    else if (!after.snapshotPath.isEmpty())
                        after.snapshotPath += QLatin1Char('/') + after.target;
                }
                AuditLog::Entry e;
                e.actor = actor;
                e.kind = after.kind;
                e.action = after.action;
                e.target = after.target;
                e.method = method;
                e.path = path;
                e.status = t.innerStatus ? answer.object().value(QLatin1String("code")).toInt()
                                         : response.status;
                e.before = before;
                e.after = after.action == QLatin1String("delete") ? QJsonValue(QJsonValue::Null)
                                                                  : snapshot(after);
                // Nothing to read back: what the API answered is the after.
                if (e.after.isNull() && after.action != QLatin1String("delete"))
                    e.after = answer.isObject() ? QJsonValue(answer.object())
                                                : QJsonValue(QJsonValue::Null);
                // Which recent requests the change turns: decided under the policy before it
                // and the one right after it, now, since that cannot be known later.
                if (policy)
                    e.effects.insert(QStringLiteral("verdictChanges"),
                                     m_cluster.verdictChanges(*policy));
                m_log.record(std::move(e));
            };
        });
    registerRoutes();
    registerConsequences();
}

AuditRecorder::Target AuditRecorder::classify(const HttpRequest &req)
{
    Target t;
    if (req.method == "GET" || req.method == "HEAD" || req.method == "OPTIONS")
        return t;
    QStringList s = req.path.mid(QStringLiteral("/admin/v1/").size()).split(QLatin1Char('/'));
    if (!s.isEmpty() && s.last().isEmpty())
        s.removeLast();
    if (s.isEmpty())
        return t;
    // Dry runs and reads that take a body change nothing: the routes the token check counts as
    // reads, by their whole path (an object named "access" or "preview" is changed like any).
    if (!AdminTokens::isWrite(req.method, req.path) || s.first() == QLatin1String("audit"))
        return t;
    const QString method = QString::fromLatin1(req.method);
    if (s.first() == QLatin1String("cluster")) {
        if (s.size() < 2)
            return t;
        t.audited = true;
        if (s[1] == QLatin1String("settings")) {
            t.kind = QStringLiteral("setting");
            t.action = QStringLiteral("update");
            t.target = QStringLiteral("cluster");
            t.snapshotPath = QStringLiteral("/admin/v1/cluster/settings");
            return t;
        }
        if (s[1] == QLatin1String("kubeconfigs")) {
            t.kind = QStringLiteral("kubeconfig");
            t.action = QStringLiteral("issue");
            const QJsonObject body = QJsonDocument::fromJson(req.body).object();
            t.target = body.value(QLatin1String("kind")).toString() + QLatin1Char('/') +
                       body.value(QLatin1String("name")).toString();
            return t;
        }
        if (s[1] == QLatin1String("rbac")) {
            t.kind = QStringLiteral("rbac");
            t.action = QStringLiteral("import");
            t.target = QStringLiteral("manifests");
            return t;
        }
        if (s[1] == QLatin1String("requests")) {
            // A request performed as another identity: what it changes is in its body.
            const QJsonObject body = QJsonDocument::fromJson(req.body).object();
            if (body.contains(QLatin1String("node"))) {
                t.kind = QStringLiteral("node");
                t.action = QStringLiteral("label");
                t.clusterResource = QStringLiteral("nodes");
                t.clusterName = body.value(QLatin1String("node")).toString();
                t.target = t.clusterName;
                return t;
            }
            const QString m = body.value(QLatin1String("method")).toString(QStringLiteral("GET"));
            if (m.compare(QLatin1String("GET"), Qt::CaseInsensitive) == 0) {
                t.audited = false;
                return t;
            }
            // Read as ClusterApi::perform reads it (QUrl: decoded once, the query and a
            // fragment split off): "%6Fps-admins" changes ops-admins, and is recorded so.
            const QUrl url(QStringLiteral("http://x") +
                           body.value(QLatin1String("path")).toString());
            const Cluster::RequestInfo info =
                Cluster::RequestInfo::parse(m.toUpper().toLatin1(), url.path(), QUrlQuery(url));
            t.innerStatus = true;
            t.kind = clusterKind(info.resource);
            t.action = info.verb;
            t.clusterResource = info.resource;
            t.clusterNamespace = info.namespaceName;
            t.clusterName = info.name;
            t.target = info.namespaceName.isEmpty()
                           ? info.name
                           : info.namespaceName + QLatin1Char('/') + info.name;
            return t;
        }
        if (s[1] == QLatin1String("k8s")) {
            // The path as the route hands it to ClusterApi::perform, and as perform reads it
            // (decoded again): %256F is an "o" there, and so here.
            QString kubePath = req.path.mid(QStringLiteral("/admin/v1/cluster/k8s").size());
            if (!req.query.isEmpty())
                kubePath += QLatin1Char('?') + req.query.toString(QUrl::FullyEncoded);
            const QUrl url(QStringLiteral("http://x") + kubePath);
            const Cluster::RequestInfo info =
                Cluster::RequestInfo::parse(req.method, url.path(), QUrlQuery(url));
            t.kind = clusterKind(info.resource);
            t.action = info.verb;
            t.clusterResource = info.resource;
            t.clusterNamespace = info.namespaceName;
            t.clusterName = info.name;
            if (info.verb == QLatin1String("create")) {
                const QJsonObject meta = QJsonDocument::fromJson(req.body)
                                             .object()
                                             .value(QLatin1String("metadata"))
                                             .toObject();
                t.clusterName = meta.value(QLatin1String("name")).toString();
            }
            t.target = t.clusterNamespace.isEmpty()
                           ? t.clusterName
                           : t.clusterNamespace + QLatin1Char('/') + t.clusterName;
            return t;
        }
        t.kind = QStringLiteral("cluster");
        t.action = method.toLower();
        t.target = s.mid(1).join(QLatin1Char('/'));
        return t;
    }
    const auto kind = kinds().constFind(s.first());
    if (kind == kinds().constEnd())
        return t; // an unknown path: 404s are not changes
    t.audited = true;
    t.kind = *kind;
    const QString collection = QStringLiteral("/admin/v1/") + s.first();
    if (s.first() == QLatin1String("signing-keys")) {
        t.action = s.value(1, QStringLiteral("change"));
        t.target = QJsonDocument::fromJson(req.body)
                       .object()
                       .value(QLatin1String("alg"))
                       .toString(QStringLiteral("RS256"));
        t.snapshotPath = collection; // the key list
        return t;
    }
    if (s.first() == QLatin1String("trusted-issuers")) {
        t.action =
            method == QLatin1String("DELETE") ? QStringLiteral("delete") : QStringLiteral("put");
        t.target = method == QLatin1String("DELETE")
                       ? req.query.queryItemValue(QStringLiteral("issuer"), QUrl::FullyDecoded)
                       : QJsonDocument::fromJson(req.body)
                             .object()
                             .value(QLatin1String("issuer"))
                             .toString();
        t.snapshotPath = collection;
        return t;
    }
    if (s.first() == QLatin1String("tokens") && s.size() == 1) {
        // A demo token minted for a client: the client is what it was made for.
        t.action = QStringLiteral("mint");
        t.target =
            QJsonDocument::fromJson(req.body).object().value(QLatin1String("client_id")).toString();
        return t;
    }
    if (s.size() == 1) { // POST on a collection
        t.action = s.first() == QLatin1String("test-orders") ? QStringLiteral("create-test-order")
                                                             : QStringLiteral("create");
        t.snapshotPath = s.first() == QLatin1String("test-orders")
                             ? QStringLiteral("/admin/v1/orders")
                             : collection;
        return t;
    }
    t.target = s[1];
    t.snapshotPath = collection + QLatin1Char('/') + s[1];
    if (s.size() == 2)
        t.action =
            method == QLatin1String("DELETE") ? QStringLiteral("delete") : QStringLiteral("update");
    else
        t.action = s.mid(2).join(QLatin1Char('/')); // rotate-secret, cancel, redeliver, ...
    if (s.first() == QLatin1String("consents") && s.size() >= 3) {
        t.target = s[1] + QLatin1Char('/') + s[2]; // user / client
        t.action = QStringLiteral("revoke");
        t.snapshotPath.clear();
    }
    return t;
}

Core::HttpServer::AfterResponse AuditRecorder::recordImport(const HttpRequest &req)
{
    static const QHash<QString, QString> plural{
        {QStringLiteral("Role"), QStringLiteral("roles")},
        {QStringLiteral("ClusterRole"), QStringLiteral("clusterroles")},
        {QStringLiteral("RoleBinding"), QStringLiteral("rolebindings")},
        {QStringLiteral("ClusterRoleBinding"), QStringLiteral("clusterrolebindings")}};
    // The objects the manifests name, as the import reads them (a List's items unwrapped; a
    // Role or RoleBinding without a namespace goes to "default").
    QList<Target> named;
    const auto parsed = rbacManifestObjects(req.body);
    if (const auto *objects = std::get_if<QList<QJsonObject>>(&parsed)) {
        for (const QJsonObject &o : *objects) {
            const QString kind = o.value(QLatin1String("kind")).toString();
            if (!plural.contains(kind))
                continue;
            const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
            Target t;
            t.audited = true;
            t.kind = QStringLiteral("rbac");
            t.clusterResource = plural.value(kind);
            t.clusterName = meta.value(QLatin1String("name")).toString();
            if (kind == QLatin1String("Role") || kind == QLatin1String("RoleBinding"))
                t.clusterNamespace =
                    meta.value(QLatin1String("namespace")).toString(QStringLiteral("default"));
            t.target = t.clusterNamespace.isEmpty()
                           ? t.clusterName
                           : t.clusterNamespace + QLatin1Char('/') + t.clusterName;
            named.append(t);
        }
    }
    QList<QJsonValue> before;
    for (const Target &t : std::as_const(named))
        before.append(snapshot(t));
    const QString actor = actorOf(req, m_tokens);
    const QString method = QString::fromLatin1(req.method);
    const QString path = req.path;
    const Cluster::ClusterApi::DecisionPolicy policy = m_cluster.decisionPolicy();
    return [this, named, before, actor, method, path, policy](const HttpResponse &response) {
        if (response.status >= 400)
            return;
        const QJsonArray results = QJsonDocument::fromJson(response.body)
                                       .object()
                                       .value(QLatin1String("results"))
                                       .toArray();
        QList<AuditLog::Entry> made;
        for (const QJsonValue v : results) {
            const QJsonObject row = v.toObject();
            const int code = row.value(QLatin1String("code")).toInt();
            if (code >= 300)
                continue; // refused: nothing changed
            const QString resource = plural.value(row.value(QLatin1String("kind")).toString());
            const QString name = row.value(QLatin1String("name")).toString();
            const QString ns = row.value(QLatin1String("namespace")).toString();
            for (qsizetype i = 0; i < named.size(); ++i) {
                const Target &t = named[i];
                if (t.clusterResource != resource || t.clusterName != name ||
                    t.clusterNamespace != ns)
                    continue;
                AuditLog::Entry e;
                e.actor = actor;
                e.kind = t.kind;
                e.action = row.value(QLatin1String("action")).toString() == QLatin1String("created")
                               ? QStringLiteral("create")
                               : QStringLiteral("update");
                e.target = t.target;
                e.method = method;
                e.path = path;
                e.status = code;
                e.before = before[i];
                e.after = snapshot(t);
                made.append(std::move(e));
                break;
            }
        }
        // Which recent requests the whole import turns: with its last entry.
        if (!made.isEmpty())
            made.last().effects.insert(QStringLiteral("verdictChanges"),
                                       m_cluster.verdictChanges(policy));
        for (AuditLog::Entry &e : made)
            m_log.record(std::move(e));
    };
}

QJsonValue AuditRecorder::snapshot(const Target &t) const
{
    if (!t.clusterResource.isEmpty()) {
        if (t.clusterName.isEmpty())
            return QJsonValue(QJsonValue::Null);
        auto o = m_cluster.store().get(t.clusterResource, t.clusterNamespace, t.clusterName);
        if (!o)
            return QJsonValue(QJsonValue::Null);
        // The kind is the entry's; stored objects carry apiVersion and kind only sometimes.
        o->remove(QStringLiteral("apiVersion"));
        o->remove(QStringLiteral("kind"));
        return *o;
    }
    if (t.snapshotPath.isEmpty())
        return QJsonValue(QJsonValue::Null);
    const auto r = m_admin.callLocal("GET", t.snapshotPath);
    if (!r || r->status != 200)
        return QJsonValue(QJsonValue::Null);
    const QJsonDocument d = QJsonDocument::fromJson(r->body);
    return d.isObject() ? QJsonValue(d.object()) : QJsonValue(QJsonValue::Null);
}

void AuditRecorder::registerRoutes()
{
    // The log, newest first: ?kind=&actor=&target=&since=ISO&before=ID&limit=
    m_admin.route("GET", QStringLiteral("/admin/v1/audit"), [this](const HttpRequest &req) {
        AuditLog::Filter f;
        f.kind = req.query.queryItemValue(QStringLiteral("kind"), QUrl::FullyDecoded);
        f.actor = req.query.queryItemValue(QStringLiteral("actor"), QUrl::FullyDecoded);
        f.target = req.query.queryItemValue(QStringLiteral("target"), QUrl::FullyDecoded);
        const QString since = req.query.queryItemValue(QStringLiteral("since"), QUrl::FullyDecoded);
        if (!since.isEmpty()) {
            const QDateTime t = QDateTime::fromString(since, Qt::ISODateWithMs);
            if (!t.isValid())
                return HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                           QStringLiteral("since must be an ISO 8601 time"));
            f.since = t.toMSecsSinceEpoch();
        }
        bool ok = true;
        const QString before = req.query.queryItemValue(QStringLiteral("before"));
        if (!before.isEmpty()) {
            f.beforeId = before.toLongLong(&ok);
            if (!ok || f.beforeId <= 0)
                return HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                           QStringLiteral("before must be an entry id"));
        }
        const QString limit = req.query.queryItemValue(QStringLiteral("limit"));
        f.limit = limit.isEmpty() ? 100 : limit.toInt(&ok);
        if (!ok || f.limit < 1 || f.limit > 1000)
            return HttpResponse::error(400, QStringLiteral("invalid-query-parameter"),
                                       QStringLiteral("limit must be 1 to 1000"));
        QJsonArray items;
        for (const AuditLog::Entry &e : m_log.list(f)) {
            QJsonObject o = e.toJson();
            o.insert(QStringLiteral("consequences"), m_log.consequences(e));
            items.append(o);
        }
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items}});
    });
    m_admin.route("GET", QStringLiteral("/admin/v1/audit/{id}"), [this](const HttpRequest &req) {
        bool ok = false;
        const qint64 id = req.pathParam(QStringLiteral("id")).toLongLong(&ok);
        const auto e = ok ? m_log.entry(id) : std::nullopt;
        if (!e)
            return HttpResponse::error(
                404, QStringLiteral("audit-entry-not-found"),
                QStringLiteral("no audit entry %1").arg(req.pathParam(QStringLiteral("id"))));
        QJsonObject o = e->toJson();
        o.insert(QStringLiteral("consequences"), m_log.consequences(*e));
        return HttpResponse::json(200, o);
    });
}

void AuditRecorder::registerConsequences()
{
    Core::Database *db = &m_database;
    // Tokens issued under a client record (until it changed again), or to a user.
    auto tokens = [db](const QString &column, const QString &value, const AuditLog::Entry &e,
                       qint64 until, const QString &what) {
        QSqlQuery q(db->connection());
        // A user's tokens: the partial subject index (subject <> client_id) answers it.
        q.prepare(QStringLiteral("SELECT kind, client_id, subject, issued_at FROM oauth_tokens "
                                 "WHERE %1 = ? AND issued_at >= ? AND issued_at < ? AND kind <> "
                                 "'id' %2 ORDER BY "
                                 "issued_at DESC")
                      .arg(column, column == QLatin1String("subject")
                                       ? QLatin1String("AND subject <> client_id")
                                       : QLatin1String("")));
        q.addBindValue(value);
        q.addBindValue(e.at);
        q.addBindValue(until);
        QJsonArray items;
        int n = 0;
        if (q.exec())
            while (q.next()) {
                if (n++ < 10)
                    items.append(QJsonObject{
                        {QStringLiteral("kind"), q.value(0).toString()},
                        {QStringLiteral("clientId"), q.value(1).toString()},
                        {QStringLiteral("subject"), q.value(2).toString()},
                        {QStringLiteral("issuedAt"), Core::isoTimeMs(q.value(3).toLongLong())}});
            }
        return QJsonObject{
            {QStringLiteral("summary"), QStringLiteral("%1 token(s) issued %2").arg(n).arg(what)},
            {QStringLiteral("tokensIssued"), n},
            {QStringLiteral("items"), items}};
    };
    m_log.setConsequences(QStringLiteral("client"),
                          [tokens](const AuditLog::Entry &e, qint64 until) {
                              return tokens(QStringLiteral("client_id"), e.target, e, until,
                                            QStringLiteral("under this client record"));
                          });
    m_log.setConsequences(QStringLiteral("user"), [tokens](const AuditLog::Entry &e, qint64 until) {
        QString id = e.after.toObject().value(QLatin1String("id")).toString();
        if (id.isEmpty())
            id = e.before.toObject().value(QLatin1String("id")).toString(e.target);
        return tokens(QStringLiteral("subject"), id, e, until, QStringLiteral("to this user"));
    });
    // Cluster changes: the decisions that followed (allowed and denied), newest first.
    Cluster::ClusterApi *cluster = &m_cluster;
    auto verdicts = [cluster](const AuditLog::Entry &e, qint64 until) {
        // Of the settings, only the cluster's change verdicts.
        if (!affectsClusterVerdicts(e.kind, e.target))
            return QJsonObject();
        const QJsonArray recent = cluster->recentRequests(500);
        QJsonArray items;
        int allowed = 0;
        int denied = 0;
        for (qsizetype i = recent.size() - 1; i >= 0; --i) {
            const QJsonObject r = recent[i].toObject();
            const qint64 t =
                QDateTime::fromString(r.value(QLatin1String("time")).toString(), Qt::ISODateWithMs)
                    .toMSecsSinceEpoch();
            if (t < e.at || t >= until)
                continue;
            if (e.kind == QLatin1String("node") &&
                !r.value(QLatin1String("path")).toString().contains(e.target))
                continue;
            (r.value(QLatin1String("code")).toInt() < 400 ? allowed : denied)++;
            if (items.size() < 10)
                items.append(r);
        }
        QString summary =
            QStringLiteral("%1 request(s) allowed and %2 denied since").arg(allowed).arg(denied);
        QJsonObject out{{QStringLiteral("allowed"), allowed},
                        {QStringLiteral("denied"), denied},
                        {QStringLiteral("items"), items}};
        // Recorded with the change: the earlier requests it turned.
        const QJsonObject turned = e.effects.value(QLatin1String("verdictChanges")).toObject();
        if (!turned.isEmpty()) {
            const int nowAllowed = turned.value(QLatin1String("nowAllowed")).toInt();
            const int nowDenied = turned.value(QLatin1String("nowDenied")).toInt();
            summary = QStringLiteral("%1 earlier request(s) decided otherwise after it (%2 now "
                                     "allowed, %3 now denied); %4")
                          .arg(nowAllowed + nowDenied)
                          .arg(nowAllowed)
                          .arg(nowDenied)
                          .arg(summary);
            out.insert(QStringLiteral("verdictsChanged"), nowAllowed + nowDenied);
            out.insert(QStringLiteral("verdictChanges"),
                       turned.value(QLatin1String("changes")).toArray());
        }
        out.insert(QStringLiteral("summary"), summary);
        return out;
    };
    for (const char *kind : {"rbac", "node", "setting", "namespace"})
        m_log.setConsequences(QLatin1String(kind), verdicts);
    // Redeliveries and endpoints: the attempts sent since.
    m_log.setConsequences(QStringLiteral("redelivery"), [db](const AuditLog::Entry &e,
                                                             qint64 until) {
        QSqlQuery q(db->connection());
        // A single redelivery names its delivery; a bulk job's deliveries are the ids the job
        // stored (its entry's target is the job). None found: no attempt is the entry's.
        QStringList ids;
        qint64 since = e.at;
        if (e.path.endsWith(QLatin1String("/redeliver"))) {
            ids.append(e.target);
        } else {
            QSqlQuery job(db->connection());
            job.prepare(QStringLiteral(
                "SELECT delivery_ids, created_at FROM webhook_redelivery_jobs WHERE id = ?"));
            job.addBindValue(e.target);
            if (job.exec() && job.next()) {
                for (const QJsonValue v :
                     QJsonDocument::fromJson(job.value(0).toString().toUtf8()).array())
                    ids.append(v.toString());
                // The entry is written when the answer is: a job starts sending before that
                // (a loaded machine took its first attempts out of the count).
                since = std::min(since, job.value(1).toLongLong());
            }
        }
        q.prepare(QStringLiteral("SELECT a.delivery_id, a.status, a.at FROM webhook_attempts a "
                                 "WHERE a.trigger = 'manual' AND a.at >= ? AND a.at < ? AND "
                                 "a.delivery_id IN (%1) ORDER BY a.at DESC")
                      .arg(QStringList(ids.size(), QStringLiteral("?")).join(QLatin1Char(','))));
        q.addBindValue(since);
        q.addBindValue(until);
        for (const QString &id : std::as_const(ids))
            q.addBindValue(id);
        int ok = 0;
        int failed = 0;
        QJsonArray items;
        if (!ids.isEmpty() && q.exec())
            while (q.next()) {
                const bool success =
                    !q.value(1).isNull() && q.value(1).toInt() >= 200 && q.value(1).toInt() < 300;
                (success ? ok : failed)++;
                if (items.size() < 10)
                    items.append(QJsonObject{
                        {QStringLiteral("deliveryId"), q.value(0).toString()},
                        {QStringLiteral("status"), q.value(1).isNull()
                                                       ? QJsonValue(QJsonValue::Null)
                                                       : QJsonValue(q.value(1).toInt())},
                        {QStringLiteral("at"), Core::isoTimeMs(q.value(2).toLongLong())}});
            }
        return QJsonObject{{QStringLiteral("summary"),
                            QStringLiteral("%1 delivery attempt(s) sent: %2 succeeded, %3 failed")
                                .arg(ok + failed)
                                .arg(ok)
                                .arg(failed)},
                           {QStringLiteral("attemptsSucceeded"), ok},
                           {QStringLiteral("attemptsFailed"), failed},
                           {QStringLiteral("items"), items}};
    });
}

} // namespace Gatehouse::Admin
