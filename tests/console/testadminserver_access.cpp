// TestAdminServer's effective access (docs/oauth.md "effective access", docs/cluster.md
// "Effective access"): POST /admin/v1/oauth/access for a client or a user (alice, bob) and
// POST /admin/v1/cluster/access computed from the seed RBAC objects, in the real backend's
// shapes and messages.

#include "testadminserver.h"

#include <QJsonDocument>
#include <QTcpSocket>

#include <map>

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue v : value.toArray())
        out.append(v.toString());
    return out;
}

QJsonObject src(const char *source, const QString &detail)
{
    return {{"source", source}, {"detail", detail}};
}

} // namespace

bool TestAdminServer::handleAccess(QTcpSocket *socket, const QByteArray &method,
                                   const QString &path, const QJsonObject &in)
{
    if (method != "POST")
        return false;
    if (path == QLatin1String("/oauth/access")) {
        respondOAuthAccess(socket, in);
        return true;
    }
    if (path == QLatin1String("/cluster/access")) {
        respondClusterAccess(socket, in);
        return true;
    }
    return false;
}

void TestAdminServer::respondOAuthAccess(QTcpSocket *socket, const QJsonObject &in)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    auto scopesOf = [](const QJsonObject &client) {
        QJsonArray scopes;
        for (const QString &s : str(client, "scope").split(' ', Qt::SkipEmptyParts))
            scopes.append(
                QJsonObject{{"scope", s},
                            {"source", "clientRecord"},
                            {"detail", QStringLiteral("allowed by the scope of client \"%1\"")
                                           .arg(str(client, "client_name"))}});
        return scopes;
    };
    const QString clientId = str(in, "client_id");
    const QString username = str(in, "username");
    if (clientId.isEmpty() == username.isEmpty()) {
        respondError(socket, 400, "invalid_request", "give either \"username\" or \"client_id\"");
        return;
    }
    if (!clientId.isEmpty()) {
        for (const QJsonObject &c : std::as_const(m_clients)) {
            if (str(c, "client_id") != clientId)
                continue;
            const QStringList grants = strings(c.value("grant_types"));
            QJsonObject answer{
                {"subject", QJsonObject{{"clientId", clientId},
                                        {"clientName", c.value("client_name")},
                                        {"kind", "client"}}},
                {"grantTypes", QJsonArray::fromStringList(grants)},
                {"actsForUsers",
                 grants.contains("password") || grants.contains("authorization_code")},
                {"scopes", scopesOf(c)},
                {"audiences", QJsonArray{QJsonObject{{"audience", clientId},
                                                     {"detail", "the default: its own client_id"},
                                                     {"source", "clientRecord"}}}}};
            if (grants.contains("client_credentials")) {
                QJsonArray audiences = answer.value("audiences").toArray();
                audiences.append(
                    QJsonObject{{"audience", "any absolute URI"},
                                {"detail", "client_credentials: the resource parameter (RFC 8707)"},
                                {"source", "request"}});
                answer.insert("audiences", audiences);
                const int lifetime = c.value("access_token_lifetime").toInt(3600);
                answer.insert(
                    "clientCredentials",
                    QJsonObject{
                        {"claims", QJsonObject{{"aud", clientId},
                                               {"client_id", clientId},
                                               {"exp", now + lifetime},
                                               {"iat", now},
                                               {"iss", issuer()},
                                               {"jti", "preview"},
                                               {"scope", str(c, "scope")},
                                               {"sub", clientId}}},
                        {"sources",
                         QJsonObject{
                             {"aud", src("clientRecord",
                                         "no resource requested: the client's own client_id")},
                             {"client_id", src("clientRecord", "client_id of the client record")},
                             {"exp",
                              src("clientRecord",
                                  QStringLiteral(
                                      "issue time + the client's access_token_lifetime (%1 s)")
                                      .arg(lifetime))},
                             {"iat", src("time", "the time of issue")},
                             {"iss", src("server", "this server's issuer (public-base-url)")},
                             {"jti", src("random", "128 random bits, new for every token")},
                             {"scope", src("clientRecord",
                                           "no scope requested: all the client's allowed scopes")},
                             {"sub",
                              src("clientRecord",
                                  "client_id: a client_credentials client acts for itself")}}}});
            }
            respondJson(socket, 200, answer);
            return;
        }
        respondError(socket, 404, "invalid_client", QStringLiteral("no client '%1'").arg(clientId));
        return;
    }
    if (username != "alice" && username != "bob") {
        respondError(socket, 400, "invalid_request", QStringLiteral("no user '%1'").arg(username));
        return;
    }
    const QString userId = QStringLiteral("user-%1").arg(username);
    QJsonArray clients;
    for (const QJsonObject &c : std::as_const(m_clients)) {
        const QStringList grants = strings(c.value("grant_types"));
        if (!grants.contains("password") && !grants.contains("authorization_code"))
            continue;
        const QString id = str(c, "client_id");
        QJsonObject entry{
            {"clientId", id},
            {"clientName", c.value("client_name")},
            {"consent", QJsonValue::Null},
            {"grantTypes", QJsonArray::fromStringList(grants)},
            {"scopes", scopesOf(c)},
            {"accessToken",
             QJsonObject{
                 {"claims", QJsonObject{{"aud", id},
                                        {"client_id", id},
                                        {"iss", issuer()},
                                        {"scope", str(c, "scope")},
                                        {"sub", userId}}},
                 {"sources",
                  QJsonObject{{"aud", src("clientRecord", "the client's own client_id")},
                              {"client_id", src("clientRecord", "client_id of the client record")},
                              {"iss", src("server", "this server's issuer (public-base-url)")},
                              {"scope", src("clientRecord", "every scope the client may ask for")},
                              {"sub", src("userAttribute", "the user's id")}}}}}};
        if (str(c, "scope").split(' ').contains("openid"))
            entry.insert(
                "idToken",
                QJsonObject{
                    {"claims",
                     QJsonObject{{"aud", id}, {"sub", userId}, {"preferred_username", username}}},
                    {"sources",
                     QJsonObject{{"aud", src("clientRecord", "the client's client_id")},
                                 {"sub", src("userAttribute", "the user's id")},
                                 {"preferred_username",
                                  src("userAttribute", "profile scope: the username")}}}});
        clients.append(entry);
    }
    // What the cluster makes of the user's OIDC tokens (the backend's clusterIdentityOf): alice
    // through kubectl, with system:masters dropped; bob not at all.
    const QJsonObject cluster =
        username == QLatin1String("alice")
            ? QJsonObject{{"reachable", true},
                          {"username", issuer() + QStringLiteral("#") + userId},
                          {"groups", QJsonArray{"system:authenticated"}},
                          {"droppedGroups", QJsonArray{"system:masters"}},
                          {"droppedReason", "groups beginning with system: reach the cluster only "
                                            "through an oidc-group-mappings entry"},
                          {"audience", "kubectl"},
                          {"clients", QJsonArray{QJsonObject{{"clientId", "kubectl"},
                                                             {"clientName", "kubectl"}}}}}
            : QJsonObject{{"reachable", false},
                          {"reason", "no client is allowed to act for the cluster, so no token "
                                     "of this user reaches it"},
                          {"groups", QJsonArray{"system:authenticated"}},
                          {"droppedGroups", QJsonArray()},
                          {"clients", QJsonArray()}};
    respondJson(
        socket, 200,
        {{"clients", clients},
         {"subject",
          QJsonObject{
              {"groups", QJsonArray()}, {"id", userId}, {"kind", "user"}, {"username", username}}},
         {"cluster", cluster}});
}

// RbacPolicy::access over the seed objects: every binding naming the user or one of its
// groups, every rule of its role, one cell per scope, verb and resource (or URL).
void TestAdminServer::respondClusterAccess(QTcpSocket *socket, const QJsonObject &in)
{
    const bool anonymous = in.value("anonymous").toBool();
    const QString user = anonymous ? QStringLiteral("system:anonymous") : str(in, "user");
    if (user.isEmpty()) {
        respondError(socket, 400, "invalid-request",
                     "give \"user\" (with optional \"groups\") or \"anonymous\": true");
        return;
    }
    QStringList groups =
        anonymous ? QStringList{"system:unauthenticated"} : strings(in.value("groups"));
    if (!anonymous && !groups.contains("system:authenticated"))
        groups.append("system:authenticated");
    std::map<QString, QJsonObject> cells; // key -> cell, sorted
    auto addBindings = [&](const QList<QJsonObject> &bindings) {
        for (const QJsonObject &b : bindings) {
            const QJsonObject ref = b.value("roleRef").toObject();
            const QString ns = b.value("metadata").toObject().value("namespace").toString();
            for (const QJsonValue sv : b.value("subjects").toArray()) {
                const QJsonObject s = sv.toObject();
                const bool match = (str(s, "kind") == "User" && str(s, "name") == user) ||
                                   (str(s, "kind") == "Group" && groups.contains(str(s, "name")));
                if (!match)
                    continue;
                const QList<QJsonObject> &roles =
                    str(ref, "kind") == "ClusterRole" ? m_clusterRoles : m_roles;
                for (const QJsonObject &role : roles) {
                    if (role.value("metadata").toObject().value("name").toString() !=
                        str(ref, "name"))
                        continue;
                    const QJsonArray rules = role.value("rules").toArray();
                    for (qsizetype r = 0; r < rules.size(); ++r) {
                        const QJsonObject rule = rules.at(r).toObject();
                        const QJsonObject via{
                            {"bindingKind", b.value("kind")},
                            {"bindingName", b.value("metadata").toObject().value("name")},
                            {"roleKind", ref.value("kind")},
                            {"roleName", ref.value("name")},
                            {"ruleIndex", int(r)},
                            {"subject",
                             QJsonObject{{"kind", s.value("kind")}, {"name", s.value("name")}}}};
                        auto add = [&](QJsonObject cell) {
                            if (ns.isEmpty())
                                cell.insert("scope", "cluster");
                            else {
                                cell.insert("scope", "namespace");
                                cell.insert("namespace", ns);
                            }
                            const QString key = QJsonDocument(cell).toJson(QJsonDocument::Compact);
                            QJsonObject &stored = cells[key];
                            if (stored.isEmpty())
                                stored = cell;
                            QJsonArray vias = stored.value("via").toArray();
                            vias.append(via);
                            stored.insert("via", vias);
                        };
                        for (const QString &verb : strings(rule.value("verbs"))) {
                            for (const QString &url : strings(rule.value("nonResourceURLs")))
                                add({{"verb", verb}, {"nonResourceURL", url}});
                            for (const QString &group : strings(rule.value("apiGroups")))
                                for (const QString &resource : strings(rule.value("resources")))
                                    add({{"verb", verb},
                                         {"apiGroup", group},
                                         {"resource", resource}});
                        }
                    }
                }
            }
        }
    };
    addBindings(m_clusterRoleBindings);
    addBindings(m_roleBindings);
    QJsonArray access;
    for (const auto &[key, cell] : cells)
        access.append(cell);
    QJsonArray notes;
    if (anonymous && !m_clusterSettings.value("anonymousAuth").toBool(true))
        notes.append("anonymous access is off: every anonymous request is refused before RBAC");
    respondJson(socket, 200,
                {{"access", access},
                 {"notes", notes},
                 {"privileged", groups.contains("system:masters")},
                 {"user", QJsonObject{{"username", user},
                                      {"groups", QJsonArray::fromStringList(groups)}}}});
}
