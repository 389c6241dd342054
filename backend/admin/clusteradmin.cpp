#include "admin/clusteradmin.h"

#include "admin/adminbody.h"
#include "admin/admintokens.h"
#include "cluster/clusterapi.h"
#include "cluster/kubeconfig.h"
#include "core/clock.h"
#include "core/httpserver.h"
#include "core/jsontypename.h"
#include "core/settingsstore.h"
#include "core/text.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

namespace Gatehouse::Admin {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

// The longest a certificate issued with a scoped admin token that never expires lasts: it may
// be revoked at any moment, and what it issued cannot be.
constexpr qint64 kScopedCertificateMs = 24LL * 3600 * 1000;

HttpResponse bad(const QString &message, const char *code = "invalid-request")
{
    return HttpResponse::error(400, QLatin1String(code), message);
}

// The identity the admin API acts as for its own cluster reads and writes.
QJsonObject adminIdentity()
{
    return QJsonObject{{QStringLiteral("user"), QStringLiteral("gatehouse-admin")},
                       {QStringLiteral("groups"), QJsonArray{QStringLiteral("system:masters")}}};
}

} // namespace

QString ClusterAdminApi::settingsKey()
{
    return QStringLiteral("cluster.settings");
}

QJsonObject ClusterAdminApi::changedFields(const Cluster::ClusterSettings &s,
                                           const QJsonObject &asked)
{
    const QJsonObject all = s.toJson();
    QJsonObject out;
    for (auto it = asked.begin(); it != asked.end(); ++it)
        if (all.contains(it.key()))
            out.insert(it.key(), all.value(it.key()));
    return out;
}

std::variant<QList<QJsonObject>, QString> rbacManifestObjects(const QByteArray &body)
{
    auto docs = Cluster::yamlDocumentsToJson(body);
    if (auto *e = std::get_if<QString>(&docs))
        return *e;
    QList<QJsonObject> objects;
    for (const QJsonValue &d : std::get<QList<QJsonValue>>(docs)) {
        const QJsonObject o = d.toObject();
        if (o.value(QLatin1String("kind")).toString().endsWith(QLatin1String("List")))
            for (const QJsonValue item : o.value(QLatin1String("items")).toArray())
                objects.append(item.toObject());
        else
            objects.append(o);
    }
    return objects;
}

ClusterAdminApi::ClusterAdminApi(Core::HttpServer &server, Cluster::ClusterApi &cluster,
                                 Core::SettingsStore &settings, Crypto::CertificateAuthority ca,
                                 QString serverUrl, const Core::Clock &clock,
                                 const AdminTokens &tokens)
    : m_server(server), m_cluster(cluster), m_settings(settings), m_ca(std::move(ca)),
      m_serverUrl(std::move(serverUrl)), m_clock(clock), m_tokens(tokens)
{
    m_server.route("GET", QStringLiteral("/admin/v1/cluster/settings"),
                   [this](const HttpRequest &) {
                       return HttpResponse::json(200, m_cluster.settings().toJson());
                   });
    m_server.route(
        "PUT", QStringLiteral("/admin/v1/cluster/settings"), [this](const HttpRequest &req) {
            const auto body = objectBody(req);
            if (!body)
                return bad(QStringLiteral("the body must be a JSON object"), "malformed-json");
            // Merged, stored and applied as one change: stored first, so that what runs here
            // is never what the database does not hold.
            const auto changing = m_settings.lockChanges();
            auto parsed = Cluster::ClusterSettings::fromJson(*body, m_cluster.settings());
            if (auto *e = std::get_if<QString>(&parsed))
                return bad(*e, "invalid-setting");
            const auto &s = std::get<Cluster::ClusterSettings>(parsed);
            if (QString e = Cluster::ClusterApi::validateSettings(s); !e.isEmpty())
                return bad(e, "invalid-setting");
            // Only the fields asked for go into the stored row, merged with what it holds
            // now: another instance's change to another field since is kept, not written back
            // as this instance last saw it (and it reaches this one through the change feed).
            if (auto r = m_settings.mergeJsonObject(settingsKey(), changedFields(s, *body)); !r)
                return HttpResponse::error(r.error().httpStatus == 503 ? 503 : 500, r.error().code,
                                           r.error().message);
            m_cluster.applySettings(s);
            return HttpResponse::json(200, s.toJson());
        });

    m_server.route(
        "POST", QStringLiteral("/admin/v1/cluster/kubeconfigs"), [this](const HttpRequest &req) {
            const auto body = objectBody(req);
            if (!body)
                return bad(QStringLiteral("the body must be a JSON object"), "malformed-json");
            if (auto unknown = unknownMember(
                    *body, {"kind", "name", "groups", "server", "validityDays", "files"}))
                return *unknown;
            // Wrong types are refused, never read as defaults (a certificate missing a group).
            const std::pair<const char *, QJsonValue::Type> types[] = {
                {"kind", QJsonValue::String},         {"name", QJsonValue::String},
                {"groups", QJsonValue::Array},        {"server", QJsonValue::String},
                {"validityDays", QJsonValue::Double}, {"files", QJsonValue::Object}};
            for (const auto &[field, type] : types) {
                const QJsonValue v = body->value(QLatin1String(field));
                if (!v.isUndefined() && v.type() != type)
                    return bad(
                        QStringLiteral("\"%1\" has the wrong type").arg(QLatin1String(field)));
            }
            for (const char *f : {"ca", "certificate", "key"}) {
                const QJsonValue v =
                    body->value(QLatin1String("files")).toObject().value(QLatin1String(f));
                if (!v.isUndefined() && !v.isString())
                    return bad(QStringLiteral("files.%1 must be a path").arg(QLatin1String(f)));
            }
            const QString kind =
                body->value(QLatin1String("kind")).toString(QStringLiteral("user"));
            const QString name = body->value(QLatin1String("name")).toString().trimmed();
            if (kind != QLatin1String("user") && kind != QLatin1String("node"))
                return bad(QStringLiteral("kind must be \"user\" or \"node\""));
            if (name.isEmpty() || name.size() > 200)
                return bad(QStringLiteral("name must be 1 to 200 characters"));
            QStringList groups;
            for (const QJsonValue g : body->value(QLatin1String("groups")).toArray()) {
                if (!g.isString() || g.toString().trimmed().isEmpty())
                    return bad(QStringLiteral("groups must be non-empty strings"));
                groups.append(g.toString().trimmed());
            }
            Crypto::CertificateRequest cr;
            cr.usage = Crypto::CertificateRequest::ClientAuth;
            if (kind == QLatin1String("node")) {
                if (name.startsWith(QLatin1String("system:")))
                    return bad(QStringLiteral("give the node's name (n1), not the user name"));
                cr.commonName = QStringLiteral("system:node:") + name;
                cr.organizations = QStringList{QStringLiteral("system:nodes")} + groups;
            } else {
                cr.commonName = name;
                cr.organizations = groups;
            }
            // A certificate's names are read by people and tools: no control or bidi characters
            // (a newline in a CN, a NUL in an organization).
            for (const QString &text : QStringList{cr.commonName} + cr.organizations)
                if (const QString problem = Core::textProblem(text, true); !problem.isEmpty())
                    return bad(QStringLiteral("name and groups ") + problem);
            // X.520's upper bounds (64 characters a CN or O): OpenSSL refuses more, which was a
            // 500.
            if (cr.commonName.size() > 64)
                return bad(kind == QLatin1String("node")
                               ? QStringLiteral("name must be at most 52 characters for a node "
                                                "(its certificate names system:node:<name>, at "
                                                "most 64)")
                               : QStringLiteral("name must be at most 64 characters (a "
                                                "certificate's common name)"));
            for (const QString &g : std::as_const(cr.organizations))
                if (g.size() > 64)
                    return bad(QStringLiteral("groups must be at most 64 characters each (a "
                                              "certificate's organization)"));
            const std::optional<qint64> days =
                Core::integerOr(body->value(QLatin1String("validityDays")), 365);
            if (!days || *days < 1 || *days > 3650)
                return bad(QStringLiteral("validityDays must be a whole number from 1 to 3650"));
            cr.setValidity(m_clock.now(), int(*days));
            // No credential outlives the admin token that asked for it: these certificates
            // cannot be revoked, so a token that ends could otherwise leave itself a cluster
            // identity for years. A scoped token's end is its expiry, or any moment an
            // administrator revokes it: one without an expiry issues for a day at most
            // (kScopedCertificateMs). Capped, as kube's signer caps a CSR's duration; the
            // answer's expiresAt says until when. The root token issues what it asks for.
            const auto by = m_tokens.authenticate(req.bearerToken());
            if (!by) // expired or revoked since the area check: nothing is issued
                return HttpResponse::error(401, QStringLiteral("unauthorized"),
                                           QStringLiteral("invalid admin token"));
            qint64 endsAt = by->expiresAt;
            if (!by->root && endsAt <= 0)
                endsAt = m_clock.now().toMSecsSinceEpoch() + kScopedCertificateMs;
            if (endsAt > 0 && cr.notAfter > QDateTime::fromMSecsSinceEpoch(endsAt, Qt::UTC))
                cr.notAfter = QDateTime::fromMSecsSinceEpoch(endsAt, Qt::UTC);
            auto issued = m_ca.issue(cr);
            if (!issued)
                return HttpResponse::error(500, issued.error().code, issued.error().message);
            // As issued: no certificate outlives the CA that signed it.
            cr.notAfter = issued->sslCertificate().expiryDate().toUTC();
            Cluster::Kubeconfig k;
            k.server = body->value(QLatin1String("server")).toString(m_serverUrl);
            k.userName = cr.commonName;
            k.caPem = m_ca.certificatePem();
            k.certificatePem = issued->certificatePem;
            k.keyPem = issued->key.toPem();
            const QJsonObject files = body->value(QLatin1String("files")).toObject();
            k.caFile = files.value(QLatin1String("ca")).toString();
            k.certificateFile = files.value(QLatin1String("certificate")).toString();
            k.keyFile = files.value(QLatin1String("key")).toString();
            if (k.certificateFile.isEmpty() != k.keyFile.isEmpty())
                return bad(QStringLiteral("files needs both \"certificate\" and \"key\""));
            const QByteArray yaml = k.toYaml();
            auto redacted = Cluster::redactKubeconfig(yaml);
            QJsonObject answer{
                {QStringLiteral("user"), cr.commonName},
                {QStringLiteral("groups"), QJsonArray::fromStringList(cr.organizations)},
                {QStringLiteral("server"), k.server},
                {QStringLiteral("expiresAt"), cr.notAfter.toString(Qt::ISODate)},
                {QStringLiteral("kubeconfig"), QString::fromUtf8(yaml)},
                {QStringLiteral("redacted"), QString::fromUtf8(std::get_if<QByteArray>(&redacted)
                                                                   ? std::get<QByteArray>(redacted)
                                                                   : QByteArray())},
                {QStringLiteral("caPem"), QString::fromLatin1(k.caPem)},
                {QStringLiteral("certificatePem"), QString::fromLatin1(k.certificatePem)},
                {QStringLiteral("keyPem"), QString::fromLatin1(k.keyPem)}};
            // An Event for operators: who got a credential, valid until when (nothing secret).
            QJsonObject involved{{QStringLiteral("kind"), kind == QLatin1String("node")
                                                              ? QStringLiteral("Node")
                                                              : QStringLiteral("User")},
                                 {QStringLiteral("name"), name}};
            if (kind == QLatin1String("node")) {
                involved.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
                if (auto node = m_cluster.store().get(QStringLiteral("nodes"), QString(), name))
                    involved.insert(QStringLiteral("uid"), node->value(QLatin1String("metadata"))
                                                               .toObject()
                                                               .value(QLatin1String("uid")));
            }
            m_cluster.recordEvent(
                {QStringLiteral("Normal"), QStringLiteral("KubeconfigIssued"),
                 QStringLiteral("kubeconfig issued to %1%2, client certificate valid until %3")
                     .arg(cr.commonName,
                          cr.organizations.isEmpty()
                              ? QString()
                              : QStringLiteral(" (groups %1)")
                                    .arg(cr.organizations.join(QStringLiteral(", "))),
                          cr.notAfter.toUTC().toString(Qt::ISODate)),
                 involved});
            HttpResponse r = HttpResponse::json(201, answer);
            r.setHeader("Cache-Control", "no-store");
            return r;
        });

    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/cluster/explain"),
        [this](const HttpRequest &req, const Responder &respond) {
            const auto body = objectBody(req);
            if (!body)
                return respond(
                    bad(QStringLiteral("the body must be a JSON object"), "malformed-json"));
            // Explaining is reading (cluster:read), but an AdmissionReview tells the operator's
            // webhooks that the named user is making this request: only a caller who may write
            // to the cluster has them asked.
            const auto principal = m_tokens.authenticate(req.bearerToken());
            const bool askWebhooks = principal && principal->may(QStringLiteral("cluster"), true);
            m_cluster.explain(
                *body,
                [respond](const std::variant<QJsonObject, QString> &r) {
                    if (const auto *e = std::get_if<QString>(&r))
                        return respond(bad(*e));
                    respond(HttpResponse::json(200, std::get<QJsonObject>(r)));
                },
                askWebhooks);
        });
    m_server.route(
        "POST", QStringLiteral("/admin/v1/cluster/access"), [this](const HttpRequest &req) {
            const auto body = objectBody(req);
            if (!body)
                return bad(QStringLiteral("the body must be a JSON object"), "malformed-json");
            auto r = m_cluster.access(*body);
            if (auto *e = std::get_if<QString>(&r))
                return bad(*e);
            return HttpResponse::json(200, std::get<QJsonObject>(r));
        });
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/cluster/requests"),
        [this](const HttpRequest &req, const Responder &respond) {
            const auto body = objectBody(req);
            if (!body)
                return respond(
                    bad(QStringLiteral("the body must be a JSON object"), "malformed-json"));
            m_cluster.perform(
                *body,
                [respond](const QJsonObject &o) {
                    if (o.contains(QLatin1String("error")))
                        return respond(bad(o.value(QLatin1String("error")).toString()));
                    respond(HttpResponse::json(200, o));
                },
                credentialsUntil(req));
        });
    m_server.route(
        "GET", QStringLiteral("/admin/v1/cluster/requests"), [this](const HttpRequest &req) {
            const int limit = req.query.queryItemValue(QStringLiteral("limit")).toInt();
            return HttpResponse::json(
                200,
                QJsonObject{{QStringLiteral("items"),
                             m_cluster.recentRequests(limit > 0 ? std::min(limit, 500) : 200)}});
        });

    // Who can: every subject named by a binding, and for each verb whether it may do it.
    m_server.route(
        "GET", QStringLiteral("/admin/v1/cluster/who-can"), [this](const HttpRequest &req) {
            const QString resource = req.query.queryItemValue(QStringLiteral("resource"));
            if (resource.isEmpty())
                return bad(QStringLiteral("give ?resource= (e.g. nodes)"));
            QStringList verbs = req.query.queryItemValue(QStringLiteral("verbs"))
                                    .split(QLatin1Char(','), Qt::SkipEmptyParts);
            if (verbs.isEmpty())
                verbs = {QStringLiteral("get"),    QStringLiteral("list"),
                         QStringLiteral("watch"),  QStringLiteral("create"),
                         QStringLiteral("update"), QStringLiteral("patch"),
                         QStringLiteral("delete")};
            QJsonArray subjects;
            QSet<QString> seen;
            const auto policy = m_cluster.rbac();
            for (const Cluster::RbacBinding &b : policy->bindings()) {
                for (const Cluster::RbacSubject &s : b.subjects) {
                    const QString key =
                        s.kind + QLatin1Char('/') + s.namespaceName + QLatin1Char('/') + s.name;
                    if (seen.contains(key))
                        continue;
                    seen.insert(key);
                    QJsonObject row{{QStringLiteral("kind"), s.kind},
                                    {QStringLiteral("name"), s.name}};
                    if (!s.namespaceName.isEmpty())
                        row.insert(QStringLiteral("namespace"), s.namespaceName);
                    QJsonObject allowed;
                    for (const QString &verb : std::as_const(verbs)) {
                        QJsonObject q;
                        if (s.kind == QLatin1String("Group")) {
                            q = QJsonObject{
                                {QStringLiteral("user"), QStringLiteral("(any member)")},
                                {QStringLiteral("groups"), QJsonArray{s.name}}};
                        } else if (s.kind == QLatin1String("ServiceAccount")) {
                            q = QJsonObject{{QStringLiteral("user"),
                                             QStringLiteral("system:serviceaccount:%1:%2")
                                                 .arg(s.namespaceName, s.name)},
                                            {QStringLiteral("groups"),
                                             QJsonArray{QStringLiteral("system:serviceaccounts"),
                                                        QStringLiteral("system:serviceaccounts:") +
                                                            s.namespaceName}}};
                        } else {
                            q = QJsonObject{{QStringLiteral("user"), s.name}};
                        }
                        const QString ns = req.query.queryItemValue(QStringLiteral("namespace"));
                        const QString group = req.query.queryItemValue(QStringLiteral("group"));
                        QString path = group.isEmpty() ? QStringLiteral("/api/v1/")
                                                       : QStringLiteral("/apis/%1/v1/").arg(group);
                        if (!ns.isEmpty())
                            path += QStringLiteral("namespaces/%1/").arg(ns);
                        path += resource;
                        static const QHash<QString, QString> methods{
                            {QStringLiteral("get"), QStringLiteral("GET")},
                            {QStringLiteral("list"), QStringLiteral("GET")},
                            {QStringLiteral("watch"), QStringLiteral("GET")},
                            {QStringLiteral("create"), QStringLiteral("POST")},
                            {QStringLiteral("update"), QStringLiteral("PUT")},
                            {QStringLiteral("patch"), QStringLiteral("PATCH")},
                            {QStringLiteral("delete"), QStringLiteral("DELETE")},
                            {QStringLiteral("deletecollection"), QStringLiteral("DELETE")}};
                        const bool named =
                            verb == QLatin1String("get") || verb == QLatin1String("update") ||
                            verb == QLatin1String("patch") || verb == QLatin1String("delete");
                        q.insert(QStringLiteral("method"),
                                 methods.value(verb, QStringLiteral("GET")));
                        q.insert(QStringLiteral("path"),
                                 path + (named ? QStringLiteral("/x") : QString()) +
                                     (verb == QLatin1String("watch") ? QStringLiteral("?watch=1")
                                                                     : QString()));
                        auto r = m_cluster.explainAuthorization(q);
                        const QJsonObject t =
                            std::get_if<QJsonObject>(&r) ? std::get<QJsonObject>(r) : QJsonObject();
                        allowed.insert(verb, t.value(QLatin1String("authorization"))
                                                     .toObject()
                                                     .value(QLatin1String("decision"))
                                                     .toString() == QLatin1String("allow"));
                    }
                    row.insert(QStringLiteral("verbs"), allowed);
                    subjects.append(row);
                }
            }
            return HttpResponse::json(
                200, QJsonObject{{QStringLiteral("resource"), resource},
                                 {QStringLiteral("verbs"), QJsonArray::fromStringList(verbs)},
                                 {QStringLiteral("subjects"), subjects}});
        });

    // RBAC manifests (YAML or JSON, several documents, List kinds unwrapped): each object
    // created, or replaced when it exists, through the cluster API as cluster-admin.
    m_server.routeDeferred(
        "POST", QStringLiteral("/admin/v1/cluster/rbac/import"),
        [this](const HttpRequest &req, const Responder &respond) {
            auto parsed = rbacManifestObjects(req.body);
            if (auto *e = std::get_if<QString>(&parsed))
                return respond(bad(*e, "malformed-manifest"));
            const QList<QJsonObject> objects = std::get<QList<QJsonObject>>(parsed);
            static const QHash<QString, QString> plural{
                {QStringLiteral("Role"), QStringLiteral("roles")},
                {QStringLiteral("ClusterRole"), QStringLiteral("clusterroles")},
                {QStringLiteral("RoleBinding"), QStringLiteral("rolebindings")},
                {QStringLiteral("ClusterRoleBinding"), QStringLiteral("clusterrolebindings")}};
            for (const QJsonObject &o : std::as_const(objects)) {
                const QString kind = o.value(QLatin1String("kind")).toString();
                if (!plural.contains(kind))
                    return respond(bad(QStringLiteral("only Role, ClusterRole, RoleBinding and "
                                                      "ClusterRoleBinding can be imported (found "
                                                      "\"%1\")")
                                           .arg(kind),
                                       "malformed-manifest"));
            }
            auto results = std::make_shared<QJsonArray>();
            auto remaining = std::make_shared<QList<QJsonObject>>(objects);
            auto next = std::make_shared<std::function<void()>>();
            // Each step holds the chain only weakly; the pending callback keeps it alive.
            std::weak_ptr<std::function<void()>> weakNext = next;
            *next = [this, results, remaining, weakNext, respond]() {
                const std::shared_ptr<std::function<void()>> next = weakNext.lock();
                if (remaining->isEmpty() || !next) {
                    respond(HttpResponse::json(200,
                                               QJsonObject{{QStringLiteral("results"), *results}}));
                    return;
                }
                const QJsonObject o = remaining->takeFirst();
                const QString kind = o.value(QLatin1String("kind")).toString();
                const QString name = o.value(QLatin1String("metadata"))
                                         .toObject()
                                         .value(QLatin1String("name"))
                                         .toString();
                QString ns = o.value(QLatin1String("metadata"))
                                 .toObject()
                                 .value(QLatin1String("namespace"))
                                 .toString();
                const bool namespaced =
                    kind == QLatin1String("Role") || kind == QLatin1String("RoleBinding");
                if (namespaced && ns.isEmpty())
                    ns = QStringLiteral("default");
                QString collection = QStringLiteral("/apis/rbac.authorization.k8s.io/v1/");
                if (namespaced)
                    collection += QStringLiteral("namespaces/%1/").arg(ns);
                collection += plural.value(kind);
                QJsonObject body = o;
                QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
                if (namespaced)
                    meta.insert(QStringLiteral("namespace"), ns);
                body.insert(QStringLiteral("metadata"), meta);
                QJsonObject create = adminIdentity();
                create.insert(QStringLiteral("method"), QStringLiteral("POST"));
                create.insert(QStringLiteral("path"), collection);
                create.insert(QStringLiteral("body"), body);
                m_cluster.perform(create, [this, results, next, kind, name, ns, namespaced,
                                           collection, body](const QJsonObject &created) {
                    auto report = [results, next, kind, name, ns, namespaced](const QJsonObject &r,
                                                                              const char *action) {
                        const int code = r.value(QLatin1String("code")).toInt();
                        QJsonObject row{{QStringLiteral("kind"), kind},
                                        {QStringLiteral("name"), name},
                                        {QStringLiteral("code"), code},
                                        {QStringLiteral("action"), code < 300
                                                                       ? QLatin1String(action)
                                                                       : QLatin1String("error")}};
                        if (namespaced)
                            row.insert(QStringLiteral("namespace"), ns);
                        if (code >= 300)
                            row.insert(QStringLiteral("message"),
                                       r.value(QLatin1String("body"))
                                           .toObject()
                                           .value(QLatin1String("message"))
                                           .toString());
                        results->append(row);
                        QMetaObject::invokeMethod(
                            QCoreApplication::instance(),
                            [next] {
                                if (*next)
                                    (*next)();
                            },
                            Qt::QueuedConnection);
                    };
                    if (created.value(QLatin1String("code")).toInt() != 409) {
                        report(created, "created");
                        return;
                    }
                    QJsonObject replace = adminIdentity();
                    replace.insert(QStringLiteral("method"), QStringLiteral("PUT"));
                    replace.insert(QStringLiteral("path"), collection + QLatin1Char('/') + name);
                    replace.insert(QStringLiteral("body"), body);
                    m_cluster.perform(replace,
                                      [report](const QJsonObject &r) { report(r, "replaced"); });
                });
            };
            (*next)();
        });

    // The cluster API itself, as cluster-admin: /admin/v1/cluster/k8s/api/v1/nodes and so on.
    for (const QByteArray &method : {QByteArray("GET"), QByteArray("POST"), QByteArray("PUT"),
                                     QByteArray("PATCH"), QByteArray("DELETE")}) {
        m_server.routeDeferred(
            method, QStringLiteral("/admin/v1/cluster/k8s/*"),
            [this](const HttpRequest &req, const Responder &respond) {
                QJsonObject r = adminIdentity();
                r.insert(QStringLiteral("method"), QString::fromLatin1(req.method));
                QString path = req.path.mid(int(qstrlen("/admin/v1/cluster/k8s")));
                if (!req.query.isEmpty())
                    path += QLatin1Char('?') + req.query.toString(QUrl::FullyEncoded);
                r.insert(QStringLiteral("path"), path);
                if (!req.body.isEmpty())
                    r.insert(QStringLiteral("body"), QString::fromUtf8(req.body));
                const QByteArray ct = req.header("content-type");
                if (!ct.isEmpty())
                    r.insert(QStringLiteral("contentType"), QString::fromLatin1(ct));
                m_cluster.perform(
                    r,
                    [respond](const QJsonObject &o) {
                        if (o.contains(QLatin1String("error")))
                            return respond(bad(o.value(QLatin1String("error")).toString()));
                        const QJsonValue body = o.value(QLatin1String("body"));
                        HttpResponse resp;
                        resp.status = o.value(QLatin1String("code")).toInt();
                        resp.body =
                            body.isObject()
                                ? QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact)
                                : body.toString().toUtf8();
                        resp.setHeader("Content-Type", body.isObject()
                                                           ? "application/json"
                                                           : "text/plain; charset=utf-8");
                        respond(resp);
                    },
                    credentialsUntil(req));
            });
    }
}

qint64 ClusterAdminApi::credentialsUntil(const HttpRequest &req) const
{
    const auto by = m_tokens.authenticate(req.bearerToken());
    if (!by)
        return 1;
    if (by->root)
        return 0;
    // A scoped token that never expires may still be revoked at any moment: what it issues
    // lasts a day at most, as its certificates do.
    return by->expiresAt > 0 ? by->expiresAt
                             : m_clock.now().toMSecsSinceEpoch() + kScopedCertificateMs;
}

} // namespace Gatehouse::Admin
