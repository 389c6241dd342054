#pragma once

#include "cluster/admission.h"
#include "cluster/admissionwebhooks.h"
#include "cluster/authenticator.h"
#include "cluster/authorizer.h"
#include "cluster/events.h"
#include "cluster/objectstore.h"
#include "cluster/requestinfo.h"
#include "cluster/resources.h"
#include "cluster/status.h"
#include "cluster/tokenauth.h"
#include "cluster/watch.h"
#include "core/httpserver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QReadWriteLock>
#include <QStringList>
#include <QTimer>

#include <deque>
#include <memory>

namespace Gatehouse::Core {
class Clock;
class EventBus;
} // namespace Gatehouse::Core

namespace Gatehouse::Cluster {

// What an administrator can change while the cluster API runs (docs/cluster.md).
struct ClusterSettings
{
    bool anonymousAuth = true;
    QStringList authorizationModes{QStringLiteral("Node"), QStringLiteral("RBAC")};
    QStringList admissionPlugins = AdmissionChain::defaultPlugins();
    // "oidc-group=cluster-group" pairs: the only way a system: group reaches the cluster from
    // an OIDC token (docs/cluster.md, "Bearer tokens").
    QStringList oidcGroupMappings;

    QJsonObject toJson() const;
    // Empty when every entry is one oidc-group=cluster-group pair and no OIDC group is mapped
    // twice; else the error.
    static QString validateGroupMappings(const QStringList &mappings);
    // Validates every field; an error names the first bad one.
    static std::variant<ClusterSettings, QString> fromJson(const QJsonObject &o,
                                                           const ClusterSettings &base);
};

// One request as the pipeline saw it, stage by stage: what a dry run answers and what the
// cluster-requests view shows.
struct RequestTrace
{
    QString method;
    QString path;
    AuthenticationResult authentication;
    RequestInfo info;
    AuthorizationResult authorization;
    bool authorized = false;
    std::optional<AdmissionVerdict> admission;
    QList<StatusCause> validation;
    int code = 0;
    QJsonObject status; // the Status answered on failure
    QJsonObject toJson() const;
    // Which stage refused the request and its words (authorization: the authorizers quoted
    // and the count of RBAC near misses); empty when it succeeded.
    QJsonObject denial() const;
};

// The Kubernetes-compatible cluster API: authentication -> request info -> authorization ->
// routing -> admission -> validation -> storage, with Kubernetes' Status answers
// (docs/cluster.md, reference kube.md).
class ClusterApi : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString serverAddress; // host:port of the cluster listener (APIVersions)
        ClusterSettings settings;
        bool demoData = true;
    };

    ClusterApi(ObjectStore &store, Core::EventBus &events, Core::Clock &clock, Options options);
    ~ClusterApi() override;

    // Creates what a new cluster has (namespaces, the kubernetes service, bootstrap RBAC,
    // default service accounts; demo nodes when enabled) and reconciles the bootstrap roles.
    Result<void> start();
    // Serves the API on server (the cluster listener, and a NodePort listener).
    void install(Core::HttpServer &server);

    // host:port of the listener, once it listens (APIVersions, the service-account issuer).
    void setServerAddress(const QString &address);
    ClusterSettings settings() const;
    // Applies settings live; an invalid one is refused with the reason.
    QString applySettings(const ClusterSettings &settings);
    // Why applySettings would refuse these settings; empty when it would not.
    static QString validateSettings(const ClusterSettings &settings);

    // A dry run of one request through the real pipeline (nothing stored). The request is
    // {"user": "...", "groups": [...]} or {"anonymous": true}, plus either "method", "path"
    // (and optional "body", "contentType"), or for a node label change "node" with "labels"
    // ({"key": "value" | null}). Answers the stage-by-stage trace.
    // done runs once the verdict is in: at once, or after the admission webhooks answered
    // (on their thread). They are asked with dryRun true, and only when askWebhooks: an
    // AdmissionReview names the user the question is about, and the operator's webhooks take it
    // for that user's attempt (the admin API asks them for cluster:write callers only).
    void explain(const QJsonObject &request,
                 std::function<void(std::variant<QJsonObject, QString>)> done,
                 bool askWebhooks = true);
    // The same up to authorization only (no admission, nothing else), answered at once.
    std::variant<QJsonObject, QString> explainAuthorization(const QJsonObject &request);
    // Effective access of an identity ({"user","groups"} or {"anonymous":true}): every
    // verb x resource and URL it holds through RBAC with the bindings and rules behind each,
    // plus notes on what the privileged group and the Node authorizer grant beyond RBAC.
    std::variant<QJsonObject, QString> access(const QJsonObject &request) const;
    // The same request for real, as that identity; done gets {code, body, trace}. A service
    // account token it issues ends by credentialsUntilMs at the latest (0: no bound).
    void perform(const QJsonObject &request, std::function<void(QJsonObject)> done,
                 qint64 credentialsUntilMs = 0);

    QJsonArray recentRequests(int max = 200) const;
    // What authentication and authorization decide with: the authorizer chain (RBAC policy,
    // modes) and whether anonymous access is on. Cheap to take (a shared pointer).
    struct DecisionPolicy
    {
        std::shared_ptr<const AuthorizerChain> authorizer;
        bool anonymous = true;
    };
    DecisionPolicy decisionPolicy() const;
    // The recent requests (the last 500) authenticated and authorized under `before` and again
    // under the policy in force now: those decided otherwise, grouped by identity and request
    // ({"checked", "changedRequests", "nowAllowed", "nowDenied", "changes": [...]},
    // docs/audit.md). Admission and later stages are not run: they need the request's body,
    // which is not kept. A rejected credential stays rejected and is not looked at.
    QJsonObject verdictChanges(const DecisionPolicy &before) const;
    Authenticator &authenticator() { return m_authenticator; }
    // Service-account tokens: TokenRequest, their authenticator, /openid/v1/jwks.
    void setServiceAccountTokens(const ServiceAccountTokens *tokens);
    ObjectStore &store() { return m_store; }
    std::shared_ptr<const RbacPolicy> rbac() const;
    // The kubernetes service's node port, 0 while it is a ClusterIP service.
    int nodePort() const;
    // Records a core/v1 Event (aggregated and rate-limited per object and reason as kube's
    // recorder does; kept kEventTtlSeconds). Thread-safe; written after the current request,
    // never inside one.
    void recordEvent(const EventRecord &event);

signals:
    void nodePortChanged(int port);

private:
    struct Context;
    void handle(const Core::HttpRequest &request, Core::Responder respond);
    void process(const std::shared_ptr<Context> &ctx);
    void finish(const std::shared_ptr<Context> &ctx, Core::HttpResponse response);
    void handleNonResource(const std::shared_ptr<Context> &ctx);
    void handleResource(const std::shared_ptr<Context> &ctx);
    void handleReview(const std::shared_ptr<Context> &ctx, const ResourceType &type);
    // Writes (docs/cluster.md "What a write goes through"): each step is a function, in order.
    struct Write;
    struct WebhookSet
    {
        QList<AdmissionWebhook> mutating, validating;
    };
    void handleWrite(const std::shared_ptr<Context> &ctx, const ResourceType &type);
    std::optional<Status> decodeWrite(Write &w);
    void selectWebhooks(Write &w);
    std::optional<Status> prepareWrite(Write &w);
    void keepServerOwned(Write &w, QJsonObject &object) const;
    static std::optional<Status> tooLarge(const QJsonObject &object);
    void askMutatingWebhooks(const std::shared_ptr<Write> &w);
    void mutateWithWebhook(const std::shared_ptr<Write> &w, int position);
    std::optional<Status> applyWebhookPatch(Write &w, const QString &webhook,
                                            const QByteArray &patch, bool inEquivalentForm);
    std::optional<Status> admitWrite(Write &w);
    std::optional<Status> validateWrite(Write &w);
    void askValidatingWebhooks(const std::shared_ptr<Write> &w);
    void denyByWebhook(const std::shared_ptr<Write> &w, const WebhookAnswer &answer);
    void commitAfterWebhooks(const std::shared_ptr<Write> &w);
    ObjectStore::Outcome changesOf(Write &w);
    // The deletion of everything stored in a namespace (the namespace controller's part).
    QList<ObjectChange> namespaceContents(const QString &name) const;
    // The demo Service's NodePort (0: none), announced when it changes.
    void setNodePort(const std::optional<QJsonObject> &service);
    void persistWrite(const std::shared_ptr<Write> &w, const ObjectStore::Compute &compute);
    void finishWrite(const std::shared_ptr<Write> &w, const ObjectStore::Outcome &outcome);
    void recordAdmissionDenied(const Write &w, const QString &message);
    // What the webhooks' rules look at (the request alone), and what they are sent (with the
    // prepared object, the current one and the namespace's labels).
    static WebhookAttributes requestAttributes(const Write &w);
    WebhookAttributes webhookAttributes(const Write &w) const;
    void rebuildWebhooks();
    void handleTokenRequest(const std::shared_ptr<Context> &ctx);
    void issueToken(const std::shared_ptr<Context> &ctx, const QJsonObject &tokenRequest,
                    const QString &accountUid);
    void handleWatch(const std::shared_ptr<Context> &ctx, const ResourceType &type,
                     std::function<bool(const QJsonObject &)> matches);
    // Authentication (or actAs, the admin API's identity), Impersonate-*, request info and
    // authorization of one request under `authorizer`, into trace and attributes: nullopt when
    // it may go on, else the 401 or 403 it gets.
    std::optional<Status> admit(const Core::HttpRequest &request,
                                const std::optional<UserInfo> &actAs,
                                const AuthorizerChain &authorizer, RequestTrace &trace,
                                Attributes &attributes, QString &impersonator) const;
    // An open watch's request admitted again as things stand now (WatchOptions::recheck): its
    // credential, impersonation and RBAC; nullopt, or the Status its stream ends with.
    std::optional<QJsonObject> recheckWatch(Core::HttpRequest request,
                                            const std::optional<UserInfo> &actAs) const;
    // The watches' way back to recheckWatch: they run in their streams' threads and may
    // outlive this object by a moment at a shutdown (then they are no longer checked).
    struct WatchGate
    {
        QReadWriteLock lock;
        const ClusterApi *api = nullptr; // under lock
    };
    std::shared_ptr<WatchGate> m_watchGate = std::make_shared<WatchGate>();
    std::variant<UserInfo, QString> identityFrom(const QJsonObject &request) const;
    std::variant<QJsonObject, QString> buildRequest(const QJsonObject &request,
                                                    std::shared_ptr<Context> &ctx);
    void rebuildPolicy();
    // Writes the gathered rules into the aggregated ClusterRoles whose `rules` differ (kube's
    // clusterrole-aggregation controller), in a store write of its own, queued.
    void writeAggregatedRules();
    std::atomic<bool> m_aggregationQueued{false};
    void onChange(const ObjectChange &change);
    void recordLabelChange(const ObjectChange &change, const QString &user);
    void record(const Context &ctx);
    void publishRecent();
    Result<void> bootstrap();

    ObjectStore &m_store;
    Core::EventBus &m_events;
    Core::Clock &m_clock;
    Options m_options;
    Authenticator m_authenticator;
    WatchHub m_watch;
    const ServiceAccountTokens *m_serviceAccounts = nullptr;

    mutable QMutex m_mutex; // guards the policy, the chains and the settings
    ClusterSettings m_settings;
    std::shared_ptr<const RbacPolicy> m_rbac;
    std::shared_ptr<const AuthorizerChain> m_authorizer;
    std::shared_ptr<const AdmissionChain> m_admission;
    std::shared_ptr<const WebhookSet> m_webhooks;
    std::atomic<int> m_nodePort{0};

    // One decision for the cluster-requests view (kept raw; JSON only when read), with what
    // authentication and authorization decided on, so that it can be decided again.
    struct RecentRequest
    {
        enum class Credentials { Accepted, Anonymous, None, Rejected };
        qint64 timeMs = 0;
        QString method, path, stage, reason;
        Attributes attributes; // user, verb, resource, ... (empty when not authenticated)
        Credentials credentials = Credentials::None;
        bool authorized = false;    // passed authorization (later stages may still refuse)
        QString impersonatedBy;     // the caller who acted as `attributes.user` (Impersonate-*)
        QString deniedBy;           // the authorizer(s) or admission plugin that refused
        QJsonArray quotes;          // the refusing authorizers' own words
        QList<NearMiss> nearMisses; // RBAC bindings naming the user that did not apply
        int code = 0;
        QJsonObject toJson() const;
    };
    mutable QMutex m_recentMutex;
    std::deque<RecentRequest> m_recent;
    std::vector<RecentRequest> m_unpublished;
    // Every decision since the last cluster.requests event, also those beyond the batch cap.
    qint64 m_unpublishedAllowed = 0;
    qint64 m_unpublishedDenied = 0;

    mutable QMutex m_cacheMutex;
    QHash<QString, std::pair<QString, QByteArray>> m_bodyCache; // key -> (resourceVersion, body)
    qsizetype m_bodyCacheBytes = 0; // the bodies' sizes: started over past 64 MiB
    QTimer m_publishTimer;
    QTimer m_eventExpiry; // deletes events older than kEventTtlSeconds, once a minute
    EventSpamFilter m_eventFilter;
    // Last: destroyed first, so that no webhook answer arrives into a half-destroyed API.
    std::unique_ptr<WebhookCaller> m_webhookCaller;
};

} // namespace Gatehouse::Cluster
