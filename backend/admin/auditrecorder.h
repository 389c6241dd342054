#pragma once

#include "core/auditlog.h"
#include "core/httpserver.h"

#include <QJsonObject>

namespace Gatehouse::Core {
class Database;
class HttpServer;
struct HttpRequest;
struct HttpResponse;
} // namespace Gatehouse::Core
namespace Gatehouse::Cluster {
class ClusterApi;
}

namespace Gatehouse::Admin {

class AdminTokens;

// Turns every changing admin API request (POST, PUT, PATCH, DELETE under /admin/v1 that is not
// a dry run) into an audit entry: what kind of thing it changed and which one, the actor (the
// X-Gatehouse-Actor header, the client program and address), and the thing before and after,
// read through the admin API's own GET routes (so in the shape an administrator already sees,
// and without secrets) or the cluster's object store. Serves /admin/v1/audit and registers
// what each kind of change causes next.
class AuditRecorder
{
public:
    AuditRecorder(Core::HttpServer &admin, Core::AuditLog &log, Core::Database &database,
                  Cluster::ClusterApi &cluster, const AdminTokens &tokens);

    struct Target
    {
        bool audited = false;
        QString kind;
        QString action;
        QString target;
        QString snapshotPath;    // an admin GET path, or
        QString clusterResource; // an object in the cluster store
        QString clusterNamespace;
        QString clusterName;
        // The answer is 200 with the cluster's own answer ({"code", ...}) inside
        // (/admin/v1/cluster/requests): that code says whether anything changed.
        bool innerStatus = false;
    };
    // Which thing a request changes; audited false for reads and dry runs. Public for tests.
    static Target classify(const Core::HttpRequest &request);

private:
    QJsonValue snapshot(const Target &t) const;
    // An RBAC import: one entry per object it created or replaced, with the object before and
    // after (the import's own answer says which; before, one "manifests" entry named none).
    Core::HttpServer::AfterResponse recordImport(const Core::HttpRequest &req);
    void registerRoutes();
    void registerConsequences();

    Core::HttpServer &m_admin;
    Core::AuditLog &m_log;
    Core::Database &m_database;
    Cluster::ClusterApi &m_cluster;
    const AdminTokens &m_tokens;
};

} // namespace Gatehouse::Admin
