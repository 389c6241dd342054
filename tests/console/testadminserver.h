#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>
#include <QUrlQuery>

class QTcpSocket;

// A tiny real HTTP/1.1 server speaking the admin API's subset the console uses:
// GET /admin/v1/status and the SSE stream GET /admin/v1/events, bearer-token protected; and
// the orders and webhooks administration of docs/orders.md (customers, beers, orders, test
// orders, deliveries, endpoints, demo receiver) over an in-memory store with realistic seed
// data, pushing the events the real backend would (order.created, order.status,
// delivery.created, delivery.attempt, delivery.state, endpoint.state, beer.stock,
// customer.created). A stand-in until the real orders module can run under the console tests.
// Also the OAuth administration of docs/oauth.md (testadminserver_oauth.cpp): clients with
// the registry's validation, active tokens, minting client_credentials tokens, and the JWT
// inspector, with oauth.token.issued / oauth.token.revoked events. Its JWTs carry a stand-in
// signature (HMAC under kid test-key-1, labelled RS256) that only its own inspector accepts.
// And the cluster administration (testadminserver_cluster.cpp): nodes and RBAC objects read
// through /admin/v1/cluster/k8s, explain and perform of node label changes with the real
// backend's trace (authentication, Node / RBAC / privileged-group authorization,
// NodeRestriction admission, label validation), recent requests, who-can, kubeconfigs and the
// live settings, with cluster.requests, cluster.object.changed and cluster.settings.changed
// events. And the dashboard's per-minute series (testadminserver_stats.cpp), counted from the
// events it sends, with stats.series events.
class TestAdminServer : public QObject
{
    Q_OBJECT

public:
    explicit TestAdminServer(QByteArray token, QObject *parent = nullptr);
    ~TestAdminServer() override;

    // Listens on 127.0.0.1:port (0: any free port). Listening again after stop() on the same
    // port simulates a backend restart that keeps its address.
    bool listen(quint16 port = 0);
    // Closes the listening socket and every open connection, streams included.
    void stop();
    quint16 port() const { return m_port; }
    QUrl url() const;

    void setToken(const QByteArray &token) { m_token = token; }
    // GET /admin-proof?nonce=N&token=ID answers a proof it cannot have made (a program that took
    // a Gatehouse's port), instead of the token's proof (as the backend, Core::adminTokenProof).
    void setForgeProof(bool forge) { m_forgeProof = forge; }
    int proofRequests() const { return m_proofRequests; }
    // Serve the event stream with Transfer-Encoding: chunked instead of close-delimited.
    void setChunked(bool chunked) { m_chunked = chunked; }
    // The status says "demo": true (gatehouse --demo).
    void setDemo(bool demo) { m_demo = demo; }
    // The status lists these instances (several on one PostgreSQL database) and names that
    // driver ("QSQLITE" unless set).
    void setInstances(const QJsonArray &instances, const QString &driver)
    {
        m_instances = instances;
        m_driver = driver;
    }
    // Accept event-stream requests but never answer them (a hung backend).
    void setStreamHangs(bool hangs) { m_streamHangs = hangs; }
    void setRequestCount(const QString &listener, qint64 count);
    // Behave like a new backend process: new start time, event sequence starting over.
    void simulateProcessRestart();

    // Sends one event to every open stream and remembers it for Last-Event-ID replays.
    // Returns its sequence number.
    qint64 sendEvent(const QString &type, const QJsonObject &data, const QString &instance = {});
    // Sends bytes as they are to every open stream.
    void sendRaw(const QByteArray &bytes);

    // ---- orders and webhooks ----
    // Back to the seed data (3 customers, 6 beers, 7 orders in various states, their
    // deliveries: succeeded, failed and pending, and 3 endpoints, one disabled). No events.
    void resetOrderData();
    // Test orders advance on their own (NEW ... ALLOCATED) and the demo receiver answers their
    // deliveries, like the real backend, a step every interval; off by default.
    void setAutoAdvance(bool on, int intervalMs = 400);
    // What the backend's workflow would do; each pushes its events. False for unknown ids.
    QJsonObject createOrder(const QString &customerId, const QJsonValue &customerRef,
                            const QJsonArray &lines, const QString &callbackUrl);
    bool setOrderStatus(const QString &orderId, const QString &status);
    // One delivery attempt: status 0 means no answer (error says why). state is the
    // delivery's state afterwards ("pending", "succeeded", "failed").
    bool recordAttempt(const QString &deliveryId, int status, int latencyMs, const QString &error,
                       const QString &state);
    bool setEndpointState(const QString &endpointId, const QString &state, const QString &reason);
    QJsonObject order(const QString &orderId) const;       // AdminOrder with history, deliveries
    QJsonObject delivery(const QString &deliveryId) const; // Delivery with its attempts
    // Ids for tests: the newest order in this status, the newest delivery in this state, the
    // first disabled endpoint; "" when there is none.
    QString orderIdWithStatus(const QString &status) const;
    QString deliveryIdWithState(const QString &state) const;
    QStringList deliveryIds() const; // newest first
    QString disabledEndpointId() const;
    QString customerId(int index) const;
    QString beerUpc(int index) const;
    // "METHOD /path?query" of every request, oldest first.
    QStringList requestLog() const { return m_requestLog; }
    // How many requests started with this ("GET /admin/v1/orders").
    int countRequests(const QString &prefix) const;
    QString demoReceiverUrl() const;

    // ---- OAuth ----
    // Back to the seed data (3 clients: a public SPA with authorization_code, a confidential
    // client_credentials service, a confidential client with the password grant; 3 active
    // tokens). No events.
    void resetOAuthData();
    QString clientId(int index) const; // seed order
    // A confidential client_credentials client made by someone else (the CLI, RFC 7591), with
    // its oauth.client.registered event; returns its id. And one deleted elsewhere.
    QString registerClientElsewhere(const QString &name);
    void removeClientElsewhere(const QString &clientId);
    // A JWT from this server's issuer for the client, expiring expiresIn seconds from now
    // (negative: already expired); audience "" means the client id. Not stored.
    QString makeJwt(const QString &clientId, const QString &scope, qint64 expiresIn,
                    const QString &audience = QString(), const QJsonObject &overrides = {}) const;
    QString issuer() const { return QStringLiteral("http://127.0.0.1:8080"); }
    // The next POST /admin/v1/clients is refused with 400 {code, message} (a rule of the
    // server's that the console does not know).
    void refuseNextRegistration(const QString &code, const QString &message)
    {
        m_registrationRefusal = {{"error", code}, {"message", message}};
    }
    int tokenCount() const { return int(m_tokens.size()); }
    // The JSON body of the last request "METHOD /path" (e.g. "POST /admin/v1/clients").
    QJsonObject lastBody(const QString &methodAndPath) const
    {
        return m_lastBodies.value(methodAndPath);
    }

    // ---- cluster ----
    // Back to the seed data (node-1, node-2 Ready, node-3 not; the bootstrap roles and
    // bindings plus node-labeler bound to Group devs and, in namespace shop, pod-reader bound to
    // User alice and ServiceAccount shop/default; anonymous access on; a few recent requests,
    // one denied). No events.
    void resetClusterData();
    QJsonObject clusterNode(const QString &name) const; // {} when there is none
    QJsonObject clusterSettings() const { return m_clusterSettings; }
    // Validating admission webhooks the fake cluster asks after validation, in order: each
    // {"name", "denyKey" (a label key it refuses), "message", "latencyMs"}.
    void setAdmissionWebhooks(const QJsonArray &webhooks) { m_admissionWebhooks = webhooks; }
    // As the backend answers a cluster:read caller: the webhooks configured but not asked.
    void setWebhooksNotAsked(bool notAsked) { m_webhooksNotAsked = notAsked; }
    // GET /admin/v1/orders/lifecycle: {"held", "backlog"}.
    QJsonObject lifecycle() const
    {
        return {{"held", m_lifecycleHeld}, {"backlog", m_lifecycleBacklog}};
    }
    int clusterRequestCount() const { return int(m_clusterRequests.size()); }
    // The trace POST /admin/v1/cluster/explain answers; error set (and {} returned) for a
    // request the admin API refuses with 400.
    QJsonObject explainCluster(const QJsonObject &request, QString *error) const;
    // A label change of the node by someone else (cluster.object.changed, no request).
    void setClusterNodeLabel(const QString &node, const QString &key, const QJsonValue &value);
    // An RBAC object (ClusterRole, ClusterRoleBinding, Role, RoleBinding) created or replaced,
    // as `gatehouse admin rbac import` does (cluster.object.changed).
    void importClusterRbac(const QJsonObject &object);
    // Settings changed elsewhere (the CLI): merged, cluster.settings.changed sent.
    void changeClusterSettings(const QJsonObject &changes);

    // ---- bulk redelivery ----
    // The running job's next steps: each redelivers one delivery (a failure when its
    // endpoint is disabled) and sends redelivery.progress. False for an unknown or ended job.
    bool advanceRedelivery(const QString &jobId, int steps = 1);
    QString runningRedeliveryJob() const; // "" when none
    // Previews count this many more matches (to see "capped" without 10,000 deliveries).
    void setExtraRedeliveryMatches(int extra) { m_extraRedeliveryMatches = extra; }
    void resetRedeliveries()
    {
        m_redeliveryJobs.clear();
        m_extraRedeliveryMatches = 0;
    }

    // ---- audit log ----
    // Back to the seed data: 120 order pickups a day ago, then a customer created, a client
    // updated (a token issued since) and a node labelled (one request allowed, one denied).
    void resetAuditData();
    int auditEntryCount() const { return int(m_audit.size()); }
    // A new entry (audit.entry event); returns its id.
    QString addAuditEntry(const QString &kind, const QString &action, const QString &target,
                          const QString &actor, const QJsonArray &changes);
    // GET /admin/v1/audit... answers 403 (a token that may not read it).
    void setAuditForbidden(bool forbidden) { m_auditForbidden = forbidden; }
    // ---- settings (testadminserver_settings.cpp) ----
    // Back to the seed: a few settings of each kind (live, kept for the next start, given by a
    // flag, read-only) as GET /admin/v1/settings answers them. No events.
    void resetSettings();
    QJsonObject setting(const QString &key) const; // {} when there is none

    // ---- dashboard series ----
    // Back to the seeded hour: the oldest 5 minutes quiet, then these totals spread over the
    // rest (tokens: seedTokensByGrant()). Events sent afterwards are counted as the backend
    // counts them; with setSeriesPublishing(true) each is followed by stats.series (off by
    // default, so tests that count events see only theirs).
    static constexpr int SeedOrders = 184;
    static constexpr int SeedDeliveriesSucceeded = 171;
    static constexpr int SeedDeliveriesFailed = 9;
    static constexpr int SeedClusterAllowed = 312;
    static constexpr int SeedClusterDenied = 17;
    static const QJsonObject &seedTokensByGrant();
    void resetStatsSeries();
    void setSeriesPublishing(bool on) { m_seriesPublishing = on; }
    // The areas the token may read (default all three): the series and its events carry only
    // their counters, as the backend does for a scoped admin token.
    void setSeriesAreas(const QJsonArray &areas) { m_seriesAreas = areas; }
    QJsonObject statsSeries() const; // GET /admin/v1/stats/series

    int openStreams() const;
    int statusRequests() const { return m_statusRequests; }
    int streamRequests() const { return m_streamRequests; }
    int unauthorizedRequests() const { return m_unauthorizedRequests; }
    QByteArray lastEventIdHeader() const { return m_lastEventIdHeader; }
    QList<QByteArray> authorizationHeaders() const { return m_authorizationHeaders; }

signals:
    void streamOpened();

private:
    struct Connection
    {
        QByteArray buffer;
        bool streaming = false;
    };
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void respond(QTcpSocket *socket, int status, const QByteArray &reason,
                 const QByteArray &contentType, const QByteArray &body);
    void writeToStream(QTcpSocket *socket, const QByteArray &bytes);
    QJsonObject status() const;
    void handleApi(QTcpSocket *socket, const QByteArray &method, const QString &path,
                   const QUrlQuery &query, const QByteArray &body);
    void respondJson(QTcpSocket *socket, int status, const QJsonObject &body);
    void respondError(QTcpSocket *socket, int status, const QString &code, const QString &message);

    // OAuth resources (clients, tokens, jwt); false when resource is none of them.
    bool handleOAuth(QTcpSocket *socket, const QByteArray &method, const QString &resource,
                     const QString &id, const QString &action, const QJsonObject &in,
                     const QUrlQuery &query);
    void mintToken(QTcpSocket *socket, const QJsonObject &in);
    QJsonObject inspectJwt(const QJsonObject &request) const;
    QJsonObject tokenStatus(const QByteArray &token, const QJsonObject &header,
                            const QJsonObject &payload) const;
    void previewToken(QTcpSocket *socket, const QJsonObject &in);
    // Cluster routes (path below /admin/v1); false when path is not one of them.
    bool handleCluster(QTcpSocket *socket, const QByteArray &method, const QString &path,
                       const QJsonObject &in, const QUrlQuery &query);
    // POST /admin/v1/cluster/requests: {code, body, trace}; the node changes on success.
    QJsonObject performCluster(const QJsonObject &request);
    QJsonObject whoCan(const QUrlQuery &query) const;
    void recordClusterRequest(const QJsonObject &trace);
    // RbacPolicy::nearMisses for a cluster-scoped resource request (core API group): every
    // binding naming the user, one of its groups or its service account, with why it does not
    // allow the request; [] when one does.
    QJsonArray clusterNearMisses(const QString &user, const QStringList &groups,
                                 const QString &verb, const QString &resource,
                                 const QString &name) const;
    QJsonObject bumpNode(QJsonObject node);
    bool handleRedeliveries(QTcpSocket *socket, const QByteArray &method, const QString &resource,
                            const QString &id, const QString &action, const QJsonObject &in,
                            const QUrlQuery &query);
    QStringList redeliveryMatches(const QJsonValue &filter, QString *error) const;
    static QJsonObject jobJson(const QJsonObject &job);
    bool handleAccess(QTcpSocket *socket, const QByteArray &method, const QString &path,
                      const QJsonObject &in);
    void respondOAuthAccess(QTcpSocket *socket, const QJsonObject &in);
    void respondClusterAccess(QTcpSocket *socket, const QJsonObject &in);
    bool handleAudit(QTcpSocket *socket, const QByteArray &method, const QString &resource,
                     const QString &id, const QUrlQuery &query);
    bool handleSettings(QTcpSocket *socket, const QByteArray &method, const QString &resource,
                        const QString &id, const QJsonObject &in);
    void appendAuditEntry(const QDateTime &at, const QString &kind, const QString &action,
                          const QString &target, const QString &actor, const QString &method,
                          const QString &path, int status, const QJsonArray &changes,
                          const QJsonObject &consequences);
    QString signature(const QByteArray &signingInput) const;
    bool handleStats(QTcpSocket *socket, const QByteArray &method, const QString &path);
    void countInSeries(const QString &type, const QJsonObject &data);

    QJsonObject customerJson(const QJsonObject &customer) const;
    QJsonObject orderJson(const QJsonObject &order) const;       // AdminOrder, no history
    QJsonObject deliveryJson(const QJsonObject &delivery) const; // Delivery, no attempts
    int indexOf(const QList<QJsonObject> &list, const QString &id) const;
    QString endpointFor(const QString &customerId, const QString &url);
    void addDelivery(const QJsonObject &order, const QString &status, const QDateTime &at);
    void transition(QJsonObject &order, const QString &status, const QDateTime &at);
    void autoAdvance(const QString &orderId);
    QString nextId(const char *prefix);

    // Seed helpers (no events).
    void seedOrder(const QString &id, int customer, const QJsonValue &ref, const QJsonArray &lines,
                   const QStringList &path, const QDateTime &created, bool withCallback);
    void seedAttempt(QJsonObject &delivery, int status, int latencyMs, const QString &error,
                     const QDateTime &at);

    QTcpServer m_server;
    QByteArray m_token;
    quint16 m_port = 0;
    bool m_chunked = false;
    bool m_demo = false;
    QJsonArray m_instances;
    QString m_driver = QStringLiteral("QSQLITE");
    bool m_streamHangs = false;
    bool m_forgeProof = false;
    int m_proofRequests = 0;
    QHash<QTcpSocket *, Connection> m_connections;
    QList<QPointer<QTcpSocket>> m_streams;
    QList<QPair<qint64, QByteArray>> m_history; // seq, SSE frame
    qint64 m_seq = 0;
    QString m_startedAt = QStringLiteral("2026-11-21T08:00:00Z");
    QJsonObject m_requests;
    int m_statusRequests = 0;
    int m_streamRequests = 0;
    int m_unauthorizedRequests = 0;
    QByteArray m_lastEventIdHeader;
    QList<QByteArray> m_authorizationHeaders;
    QStringList m_requestLog;

    QList<QJsonObject> m_customers;  // Customer (orderCount computed)
    QList<QJsonObject> m_beers;      // admin Beer
    QList<QJsonObject> m_orders;     // AdminOrder plus "history"; newest first
    QList<QJsonObject> m_deliveries; // Delivery plus "attemptLog"; newest first
    QList<QJsonObject> m_endpoints;  // Endpoint
    QList<QJsonObject> m_received;   // demo receiver, newest first
    QList<QJsonObject> m_clients;    // RFC 7591 metadata as GET /admin/v1/clients has it
    QList<QJsonObject> m_tokens;     // admin token rows, newest first
    QHash<QString, QJsonObject> m_lastBodies;
    QHash<QString, QString> m_revokedTokens; // hash -> revokedAt
    QJsonObject m_registrationRefusal;
    QList<QJsonObject> m_nodes; // Kubernetes Node objects, by name
    QList<QJsonObject> m_clusterRoles;
    QList<QJsonObject> m_clusterRoleBindings;
    QList<QJsonObject> m_roles;
    QList<QJsonObject> m_roleBindings;
    QJsonObject m_clusterSettings;
    QJsonArray m_admissionWebhooks;
    bool m_webhooksNotAsked = false;
    bool m_lifecycleHeld = false;
    int m_lifecycleBacklog = 0;
    QStringList m_heldOrders;             // auto-advanced after the release
    QList<QJsonObject> m_clusterRequests; // oldest first
    qint64 m_clusterVersion = 100;        // resourceVersion counter
    quint64 m_idCounter = 0;
    QList<QJsonObject> m_redeliveryJobs; // newest first, with "deliveryIds"
    int m_extraRedeliveryMatches = 0;
    QList<QJsonObject> m_audit; // oldest first
    qint64 m_auditId = 0;
    bool m_auditForbidden = false;
    QList<QJsonObject> m_settings;
    QHash<qint64, QJsonObject> m_series; // minute since the epoch -> bucket
    bool m_seriesPublishing = false;
    QJsonArray m_seriesAreas{"orders", "oauth", "cluster"};
    bool m_autoAdvance = false;
    int m_autoAdvanceMs = 400;
};
