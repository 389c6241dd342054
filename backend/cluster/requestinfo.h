#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrlQuery>

namespace Gatehouse::Cluster {

// Who a request is from, as Kubernetes' authenticators produce it.
struct UserInfo
{
    QString name;
    QStringList groups;
    QString uid;
    QString authenticator; // "x509", "serviceaccount", "oidc", "anonymous", "" (hypothetical)
    // OIDC groups the token carried that did not become cluster groups (system: groups
    // without an oidc-group-mappings entry): shown by the denial explainer.
    QStringList droppedGroups;
    // A bearer token's audiences the authentication asked for and the token is for (a
    // TokenReview's status.audiences).
    QStringList audiences;
    // When the credential this identity was taken from ends, if it must bound what the
    // request issues (ms since the epoch; 0: no bound): a client certificate's notAfter, a
    // service account token's gatehouse.io/not-after. A TokenRequest never outlives it.
    qint64 credentialsUntilMs = 0;

    bool isAnonymous() const { return name == QLatin1String("system:anonymous"); }
};

inline constexpr char kAnonymousUser[] = "system:anonymous";
inline constexpr char kUnauthenticatedGroup[] = "system:unauthenticated";
inline constexpr char kAuthenticatedGroup[] = "system:authenticated";
inline constexpr char kMastersGroup[] = "system:masters";
inline constexpr char kNodesGroup[] = "system:nodes";
inline constexpr char kNodeUserPrefix[] = "system:node:";
inline constexpr char kServiceAccountPrefix[] = "system:serviceaccount:";

// Adds system:authenticated after a successful authentication, unless the user is
// anonymous or already carries system:authenticated / system:unauthenticated.
void addAuthenticatedGroup(UserInfo &user);

// Kubernetes' RequestInfo, parsed from method, path and query (reference kube.md §3.1).
struct RequestInfo
{
    bool isResourceRequest = false;
    QString path;
    QString verb;
    QString apiPrefix; // "api" or "apis"
    QString apiGroup;  // "" for core
    QString apiVersion;
    QString namespaceName;
    // The path went through namespaces/<ns>/ to another resource (not the namespace itself):
    // only namespaced resources have such routes (namespaces/a/namespaces/b is no route).
    bool inNamespace = false;
    // The legacy /watch/ prefix: only GET routes live there (the verb comes from the path,
    // whatever the method; any other method is 405, never a write authorized as a watch).
    bool legacyWatch = false;
    QString resource;
    QString subresource;
    QString name;
    QStringList parts;
    QString fieldSelector;
    QString labelSelector;
    // 1.32: a list or watch selecting metadata.name=<x> is authorized as a request for x
    // (the kubelet relies on this); routing still sees a list.
    QString selectorName;

    static RequestInfo parse(const QByteArray &method, const QString &path, const QUrlQuery &query);
};

// The attributes an authorizer decides on: a request's info plus its user.
struct Attributes
{
    UserInfo user;
    QString verb;
    bool resourceRequest = false;
    QString path; // non-resource requests
    QString namespaceName;
    QString apiGroup;
    QString apiVersion = QStringLiteral("*");
    QString resource;
    QString subresource;
    QString name;
    QString fieldSelector;
    QString labelSelector;

    static Attributes from(const UserInfo &user, const RequestInfo &info);
    // "nodes" or "nodes/status".
    QString resourceWithSubresource() const;
};

} // namespace Gatehouse::Cluster
