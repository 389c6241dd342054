#include "cluster/clusterapi.h"
#include "cluster/clusterlogging.h"

#include "cluster/kubeconfig.h"
#include "cluster/openapi.h"
#include "cluster/patch.h"
#include "cluster/protobuf.h"
#include "cluster/resources.h"
#include "cluster/schemas.h"
#include "cluster/selector.h"
#include "cluster/serversideapply.h"
#include "core/clock.h"
#include "core/eventbus.h"
#include "crypto/random.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTcpServer>

namespace Gatehouse::Cluster {

namespace {

constexpr int kRecentMax = 500;
const QString kServiceName = QStringLiteral("kubernetes");

QJsonArray toArray(const QStringList &l)
{
    return QJsonArray::fromStringList(l);
}

QStringList toStrings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue e : v.toArray())
        out.append(e.toString());
    return out;
}

QString decisionName(Decision d)
{
    switch (d) {
    case Decision::Allow:
        return QStringLiteral("allow");
    case Decision::Deny:
        return QStringLiteral("deny");
    case Decision::NoOpinion:
        break;
    }
    return QStringLiteral("no-opinion");
}

QJsonObject userJson(const UserInfo &u)
{
    QJsonObject o{{QStringLiteral("username"), u.name},
                  {QStringLiteral("groups"), toArray(u.groups)}};
    if (!u.uid.isEmpty())
        o.insert(QStringLiteral("uid"), u.uid);
    if (!u.droppedGroups.isEmpty())
        o.insert(QStringLiteral("droppedGroups"), toArray(u.droppedGroups));
    return o;
}

QJsonObject metaOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject();
}

QString nameOf(const QJsonObject &o)
{
    return metaOf(o).value(QLatin1String("name")).toString();
}

void setMeta(QJsonObject &o, const QString &key, const QJsonValue &v)
{
    QJsonObject m = metaOf(o);
    if (v.isUndefined())
        m.remove(key);
    else
        m.insert(key, v);
    o.insert(QStringLiteral("metadata"), m);
}

QString timestamp(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

bool isJsonContentType(const QByteArray &ct)
{
    const QByteArray base = ct.split(';').value(0).trimmed().toLower();
    return base.isEmpty() || base == "application/json";
}

bool isProtobufContentType(const QByteArray &ct)
{
    return ct.split(';').value(0).trimmed().toLower() == kProtobufContentType;
}

// client-go's typed clients send "application/vnd.kubernetes.protobuf,application/json":
// protobuf first is a preference, answered in protobuf where the kind has a form.
bool prefersProtobuf(const QByteArray &accept)
{
    return accept.split(',').value(0).split(';').value(0).trimmed().toLower() ==
           kProtobufContentType;
}

// An object, a list or a review answer in the client's preferred form.
Core::HttpResponse typedResponse(const Core::HttpRequest &req, int status,
                                 const QJsonObject &object, bool pretty)
{
    if (prefersProtobuf(req.header("accept"))) {
        auto encoded = encodeProtobufObject(object);
        if (auto *bytes = std::get_if<QByteArray>(&encoded)) {
            Core::HttpResponse r;
            r.status = status;
            r.body = std::move(*bytes);
            r.setHeader("Content-Type", kProtobufContentType);
            return r;
        }
        // JSON is always understood; a kind without a form is no error, a misfit is a bug.
        if (!std::get<ProtobufError>(encoded).unsupportedKind)
            qCWarning(lcCluster).noquote() << "answering in JSON, the protobuf form failed:"
                                           << std::get<ProtobufError>(encoded).message;
    }
    return objectResponse(status, object, pretty);
}

// "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" anywhere in Accept.
bool wantsAggregatedDiscovery(const QByteArray &accept)
{
    for (const QByteArray &entry : accept.split(',')) {
        const QList<QByteArray> params = entry.split(';');
        bool g = false, v = false, as = false;
        for (const QByteArray &p : params) {
            const QByteArray t = p.trimmed();
            g |= t == "g=apidiscovery.k8s.io";
            v |= t == "v=v2" || t == "v=v2beta1";
            as |= t == "as=APIGroupDiscoveryList";
        }
        if (g && v && as)
            return true;
    }
    return false;
}

bool wantsTable(const QByteArray &accept)
{
    for (const QByteArray &entry : accept.split(',')) {
        const QList<QByteArray> params = entry.split(';');
        bool table = false, group = false;
        for (const QByteArray &p : params) {
            const QByteArray t = p.trimmed();
            table |= t == "as=Table";
            group |= t == "g=meta.k8s.io";
        }
        if (table && group)
            return true;
    }
    return false;
}

// Accept headers that allow JSON (or say nothing).
bool acceptsJson(const QByteArray &accept)
{
    if (accept.trimmed().isEmpty())
        return true;
    for (const QByteArray &entry : accept.split(',')) {
        const QByteArray base = entry.split(';').value(0).trimmed().toLower();
        if (base == "application/json" || base == "*/*" || base == "application/*")
            return true;
    }
    return false;
}

// Accept headers that allow an object answer: JSON, or protobuf alone.
bool acceptsObject(const QByteArray &accept)
{
    return acceptsJson(accept) || prefersProtobuf(accept);
}

QString quotedList(const QStringList &l)
{
    QStringList q;
    for (const QString &s : l)
        q.append(QLatin1Char('"') + s + QLatin1Char('"'));
    return QLatin1Char('[') + q.join(QLatin1Char(' ')) + QLatin1Char(']');
}

// Go's %+v of a PolicyRule, as escalation errors print it.
QString goRule(const PolicyRule &r)
{
    QStringList parts;
    if (!r.apiGroups.isEmpty() || !r.resources.isEmpty())
        parts.append(QStringLiteral("APIGroups:") +
                     quotedList(r.apiGroups).replace(' ', QStringLiteral(", ")));
    if (!r.resources.isEmpty())
        parts.append(QStringLiteral("Resources:") +
                     quotedList(r.resources).replace(' ', QStringLiteral(", ")));
    if (!r.resourceNames.isEmpty())
        parts.append(QStringLiteral("ResourceNames:") +
                     quotedList(r.resourceNames).replace(' ', QStringLiteral(", ")));
    if (!r.nonResourceURLs.isEmpty())
        parts.append(QStringLiteral("NonResourceURLs:") +
                     quotedList(r.nonResourceURLs).replace(' ', QStringLiteral(", ")));
    parts.append(QStringLiteral("Verbs:") + quotedList(r.verbs).replace(' ', QStringLiteral(", ")));
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

QString generatedSuffix()
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    const QByteArray random = Crypto::Random::token(8).toLatin1();
    QString out;
    for (int i = 0; i < 5; ++i)
        out += QLatin1Char(alphabet[uchar(random[i]) % (sizeof(alphabet) - 1)]);
    return out;
}

QJsonObject nodeStatus(const QString &name, int index)
{
    const QString ip = QStringLiteral("10.0.0.%1").arg(10 + index);
    return QJsonObject{
        {QStringLiteral("capacity"),
         QJsonObject{{QStringLiteral("cpu"), QStringLiteral("4")},
                     {QStringLiteral("memory"), QStringLiteral("16318404Ki")},
                     {QStringLiteral("pods"), QStringLiteral("110")}}},
        {QStringLiteral("allocatable"),
         QJsonObject{{QStringLiteral("cpu"), QStringLiteral("4")},
                     {QStringLiteral("memory"), QStringLiteral("16216004Ki")},
                     {QStringLiteral("pods"), QStringLiteral("110")}}},
        {QStringLiteral("conditions"),
         QJsonArray{QJsonObject{
             {QStringLiteral("type"), QStringLiteral("Ready")},
             {QStringLiteral("status"), QStringLiteral("True")},
             {QStringLiteral("reason"), QStringLiteral("KubeletReady")},
             {QStringLiteral("message"), QStringLiteral("kubelet is posting ready status")}}}},
        {QStringLiteral("addresses"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("InternalIP")},
                                {QStringLiteral("address"), ip}},
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("Hostname")},
                                {QStringLiteral("address"), name}}}},
        {QStringLiteral("nodeInfo"),
         QJsonObject{
             {QStringLiteral("machineID"),
              QStringLiteral("%1").arg(index, 32, 10, QLatin1Char('0'))},
             {QStringLiteral("systemUUID"), Crypto::Random::uuid()},
             {QStringLiteral("bootID"), Crypto::Random::uuid()},
             {QStringLiteral("kernelVersion"), QStringLiteral("6.1.0-28-amd64")},
             {QStringLiteral("osImage"), QStringLiteral("Debian GNU/Linux 12 (bookworm)")},
             {QStringLiteral("containerRuntimeVersion"), QStringLiteral("containerd://1.7.24")},
             {QStringLiteral("kubeletVersion"), QStringLiteral("v1.32.4")},
             {QStringLiteral("kubeProxyVersion"), QStringLiteral("v1.32.4")},
             {QStringLiteral("operatingSystem"), QStringLiteral("linux")},
             {QStringLiteral("architecture"), QStringLiteral("amd64")}}}};
}

QJsonObject typed(const ResourceType &t, QJsonObject o)
{
    o.insert(QStringLiteral("kind"), t.kind);
    o.insert(QStringLiteral("apiVersion"), t.apiVersion());
    return o;
}

} // namespace

QJsonObject ClusterSettings::toJson() const
{
    return QJsonObject{{QStringLiteral("anonymousAuth"), anonymousAuth},
                       {QStringLiteral("authorizationModes"), toArray(authorizationModes)},
                       {QStringLiteral("admissionPlugins"), toArray(admissionPlugins)},
                       {QStringLiteral("oidcGroupMappings"), toArray(oidcGroupMappings)}};
}

QString ClusterSettings::validateGroupMappings(const QStringList &mappings)
{
    QSet<QString> from;
    for (const QString &m : mappings) {
        const qsizetype eq = m.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == m.size() - 1 || m.indexOf(QLatin1Char('='), eq + 1) >= 0 ||
            m.size() > 512)
            return QStringLiteral("oidcGroupMappings: \"%1\" is not an "
                                  "oidc-group=cluster-group pair")
                .arg(m.left(200));
        if (from.contains(m.left(eq)))
            return QStringLiteral("oidcGroupMappings: the OIDC group \"%1\" is mapped twice")
                .arg(m.left(eq));
        from.insert(m.left(eq));
    }
    return {};
}

std::variant<ClusterSettings, QString> ClusterSettings::fromJson(const QJsonObject &o,
                                                                 const ClusterSettings &base)
{
    ClusterSettings s = base;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString &k = it.key();
        if (k == QLatin1String("anonymousAuth")) {
            if (!it->isBool())
                return QStringLiteral("anonymousAuth must be true or false");
            s.anonymousAuth = it->toBool();
        } else if (k == QLatin1String("authorizationModes") ||
                   k == QLatin1String("admissionPlugins") ||
                   k == QLatin1String("oidcGroupMappings")) {
            if (!it->isArray())
                return QStringLiteral("%1 must be an array of strings").arg(k);
            QStringList l;
            for (const QJsonValue v : it->toArray()) {
                if (!v.isString())
                    return QStringLiteral("%1 must be an array of strings").arg(k);
                l.append(v.toString());
            }
            (k == QLatin1String("authorizationModes") ? s.authorizationModes
             : k == QLatin1String("admissionPlugins") ? s.admissionPlugins
                                                      : s.oidcGroupMappings) = l;
        } else {
            return QStringLiteral("unknown setting \"%1\" (known: anonymousAuth, "
                                  "authorizationModes, admissionPlugins, oidcGroupMappings)")
                .arg(k);
        }
    }
    if (QString e = validateGroupMappings(s.oidcGroupMappings); !e.isEmpty())
        return e;
    if (QString e = AuthorizerChain::validateModes(s.authorizationModes); !e.isEmpty())
        return e;
    if (QString e = AdmissionChain::validatePlugins(s.admissionPlugins); !e.isEmpty())
        return e;
    return s;
}

QJsonObject RequestTrace::toJson() const
{
    QJsonObject authn{{QStringLiteral("decision"),
                       authentication.outcome == AuthenticationResult::Outcome::Authenticated
                           ? QStringLiteral("authenticated")
                       : authentication.outcome == AuthenticationResult::Outcome::Anonymous
                           ? QStringLiteral("anonymous")
                           : QStringLiteral("unauthorized")},
                      {QStringLiteral("reason"), authentication.reason}};
    if (authentication.ok()) {
        authn.insert(QStringLiteral("authenticator"), authentication.user.authenticator);
        authn.insert(QStringLiteral("user"), userJson(authentication.user));
    }
    QJsonObject out{{QStringLiteral("method"), method},
                    {QStringLiteral("path"), path},
                    {QStringLiteral("authentication"), authn},
                    {QStringLiteral("code"), code}};
    if (!authentication.ok())
        return out.insert(QStringLiteral("status"), status), out;
    QJsonObject request{{QStringLiteral("verb"), info.verb},
                        {QStringLiteral("resourceRequest"), info.isResourceRequest}};
    if (info.isResourceRequest) {
        request.insert(QStringLiteral("apiGroup"), info.apiGroup);
        request.insert(QStringLiteral("apiVersion"), info.apiVersion);
        request.insert(QStringLiteral("resource"), info.resource);
        if (!info.subresource.isEmpty())
            request.insert(QStringLiteral("subresource"), info.subresource);
        if (!info.namespaceName.isEmpty())
            request.insert(QStringLiteral("namespace"), info.namespaceName);
        if (!info.name.isEmpty())
            request.insert(QStringLiteral("name"), info.name);
    }
    out.insert(QStringLiteral("request"), request);
    QJsonArray steps;
    for (const AuthorizerStep &s : authorization.steps)
        steps.append(QJsonObject{{QStringLiteral("authorizer"), s.authorizer},
                                 {QStringLiteral("decision"), decisionName(s.decision)},
                                 {QStringLiteral("reason"), s.reason}});
    QJsonObject authz{
        {QStringLiteral("decision"), authorized ? QStringLiteral("allow") : QStringLiteral("deny")},
        {QStringLiteral("decidedBy"), authorization.decidedBy},
        {QStringLiteral("reason"), authorization.reason},
        {QStringLiteral("steps"), steps}};
    if (authorization.rbac.allowed)
        authz.insert(
            QStringLiteral("rbac"),
            QJsonObject{{QStringLiteral("bindingKind"), authorization.rbac.bindingKind},
                        {QStringLiteral("bindingName"), authorization.rbac.bindingName},
                        {QStringLiteral("bindingNamespace"), authorization.rbac.bindingNamespace},
                        {QStringLiteral("roleKind"), authorization.rbac.roleKind},
                        {QStringLiteral("roleName"), authorization.rbac.roleName},
                        {QStringLiteral("ruleIndex"), authorization.rbac.ruleIndex},
                        {QStringLiteral("subject"),
                         QJsonObject{{QStringLiteral("kind"), authorization.rbac.subject.kind},
                                     {QStringLiteral("name"), authorization.rbac.subject.name}}}});
    if (!authorized) {
        QJsonArray misses;
        for (const NearMiss &n : authorization.nearMisses)
            misses.append(n.toJson());
        authz.insert(QStringLiteral("nearMisses"), misses);
    }
    out.insert(QStringLiteral("authorization"), authz);
    if (admission) {
        QJsonArray plugins;
        for (const AdmissionStep &s : admission->steps) {
            QJsonObject step{{QStringLiteral("plugin"), s.plugin},
                             {QStringLiteral("decision"),
                              s.allowed ? QStringLiteral("allow") : QStringLiteral("deny")},
                             {QStringLiteral("message"), s.message}};
            if (!s.webhook.isEmpty()) {
                step.insert(QStringLiteral("webhook"), s.webhook);
                step.insert(QStringLiteral("latencyMs"), qRound(s.latencyMs * 10) / 10.0);
                step.insert(QStringLiteral("patched"), s.patched);
                if (s.callFailed)
                    step.insert(QStringLiteral("callFailed"), true);
                if (s.ignored)
                    step.insert(QStringLiteral("ignored"), true);
            }
            plugins.append(step);
        }
        QJsonObject adm{{QStringLiteral("decision"),
                         admission->allowed ? QStringLiteral("allow") : QStringLiteral("deny")},
                        {QStringLiteral("steps"), plugins}};
        if (!admission->allowed) {
            adm.insert(QStringLiteral("plugin"), admission->plugin);
            adm.insert(QStringLiteral("message"), admission->status.message);
            if (!admission->webhook.isEmpty())
                adm.insert(QStringLiteral("webhook"), admission->webhook);
        }
        out.insert(QStringLiteral("admission"), adm);
    }
    if (!validation.isEmpty()) {
        QJsonArray causes;
        for (const StatusCause &c : validation)
            causes.append(QJsonObject{{QStringLiteral("reason"), c.reason},
                                      {QStringLiteral("message"), c.message},
                                      {QStringLiteral("field"), c.field}});
        out.insert(QStringLiteral("validation"), causes);
    }
    if (!status.isEmpty())
        out.insert(QStringLiteral("status"), status);
    if (const QJsonObject d = denial(); !d.isEmpty())
        out.insert(QStringLiteral("denial"), d);
    return out;
}

QJsonObject RequestTrace::denial() const
{
    const QString statusMessage = status.value(QLatin1String("message")).toString();
    if (!authentication.ok())
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("authentication")},
                           {QStringLiteral("message"), authentication.reason}};
    if (!authorized) {
        // Which authorizers refused, each quoted; RBAC's near misses say why no binding applied.
        QJsonArray quotes;
        QStringList by;
        for (const AuthorizerStep &s : authorization.steps) {
            by.append(s.authorizer);
            if (!s.reason.isEmpty())
                quotes.append(QJsonObject{{QStringLiteral("authorizer"), s.authorizer},
                                          {QStringLiteral("decision"), decisionName(s.decision)},
                                          {QStringLiteral("reason"), s.reason}});
        }
        QJsonObject d{{QStringLiteral("stage"), QStringLiteral("authorization")},
                      {QStringLiteral("by"), authorization.decidedBy.isEmpty()
                                                 ? by.join(QStringLiteral(", "))
                                                 : authorization.decidedBy},
                      {QStringLiteral("message"), statusMessage},
                      {QStringLiteral("quotes"), quotes},
                      {QStringLiteral("nearMisses"), int(authorization.nearMisses.size())}};
        // Groups the token claimed but the cluster did not take: often the reason itself.
        if (!authentication.user.droppedGroups.isEmpty()) {
            d.insert(QStringLiteral("droppedGroups"), toArray(authentication.user.droppedGroups));
            d.insert(QStringLiteral("droppedGroupsReason"),
                     QStringLiteral("groups from an OIDC token that begin with system: reach the "
                                    "cluster only through an oidc-group-mappings entry"));
        }
        return d;
    }
    if (admission && !admission->allowed) {
        QJsonObject d{{QStringLiteral("stage"), QStringLiteral("admission")},
                      {QStringLiteral("by"), admission->plugin},
                      {QStringLiteral("message"),
                       statusMessage.isEmpty() ? admission->status.message : statusMessage}};
        // The webhook that said no, by its name: the operator's own service to look at.
        if (!admission->webhook.isEmpty()) {
            d.insert(QStringLiteral("by"),
                     QStringLiteral("admission webhook \"%1\"").arg(admission->webhook));
            d.insert(QStringLiteral("webhook"), admission->webhook);
        }
        return d;
    }
    if (!validation.isEmpty() || code == 422)
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("validation")},
                           {QStringLiteral("message"), statusMessage}};
    if (code >= 400)
        return QJsonObject{{QStringLiteral("stage"), QStringLiteral("handler")},
                           {QStringLiteral("message"), statusMessage}};
    return {};
}

struct ClusterApi::Context
{
    Core::HttpRequest request;
    Core::Responder respond;
    bool pretty = false;
    bool dryRun = false;            // nothing is stored (?dryRun=All, and the admin API's explain)
    bool explaining = false;        // the admin API's explain: not a request anybody made
    bool authorizationOnly = false; // stop once authorization has decided
    bool anonymousRefused = false;  // acting as anonymous while anonymous access is off
    std::optional<UserInfo> actAs;
    RequestTrace trace;
    Attributes attributes;
    std::shared_ptr<const AuthorizerChain> authorizer;
    std::shared_ptr<const AdmissionChain> admission;
    std::shared_ptr<const WebhookSet> webhooks;
    std::function<void(const Core::HttpResponse &, const RequestTrace &)> onDone;
    QStringList warnings; // sent as "Warning: 299 - ..." headers
};

ClusterApi::ClusterApi(ObjectStore &store, Core::EventBus &events, Core::Clock &clock,
                       Options options)
    : m_store(store), m_events(events), m_clock(clock), m_options(std::move(options)),
      m_watch(store), m_settings(m_options.settings)
{
    m_authenticator.setAnonymousEnabled(m_settings.anonymousAuth);
    m_publishTimer.setInterval(250);
    connect(&m_publishTimer, &QTimer::timeout, this, &ClusterApi::publishRecent);
    m_store.addListener([this](const ObjectChange &c) { onChange(c); });
    // A webhook named by a service reference is reached at the Service's external address:
    // cluster IPs here lead nowhere.
    ObjectStore *objects = &m_store;
    m_webhookCaller = std::make_unique<WebhookCaller>(
        [objects](const QString &ns, const QString &name) -> ServiceTarget {
            const std::optional<QJsonObject> svc =
                objects->get(QStringLiteral("services"), ns, name);
            if (!svc)
                return {QString(), QStringLiteral("service \"%1\" not found").arg(name)};
            const QJsonObject spec = svc->value(QLatin1String("spec")).toObject();
            if (spec.value(QLatin1String("type")).toString() == QLatin1String("ExternalName"))
                return {spec.value(QLatin1String("externalName")).toString(), QString()};
            const QJsonArray ips = spec.value(QLatin1String("externalIPs")).toArray();
            if (!ips.isEmpty())
                return {ips.first().toString(), QString()};
            return {QString(), QStringLiteral("service \"%1/%2\" has no address to reach: "
                                              "give it spec.externalIPs or make it an "
                                              "ExternalName service")
                                   .arg(ns, name)};
        });
}

ClusterApi::~ClusterApi() = default;

std::shared_ptr<const RbacPolicy> ClusterApi::rbac() const
{
    QMutexLocker lock(&m_mutex);
    return m_rbac;
}

int ClusterApi::nodePort() const
{
    return m_nodePort.load();
}

void ClusterApi::setServiceAccountTokens(const ServiceAccountTokens *tokens)
{
    m_serviceAccounts = tokens;
    if (tokens)
        m_authenticator.addTokenAuthenticator(QStringLiteral("serviceaccount"),
                                              tokens->authenticator());
}

void ClusterApi::setServerAddress(const QString &address)
{
    QMutexLocker lock(&m_mutex);
    m_options.serverAddress = address;
}

ClusterSettings ClusterApi::settings() const
{
    QMutexLocker lock(&m_mutex);
    return m_settings;
}

QString ClusterApi::applySettings(const ClusterSettings &s)
{
    if (QString e = AuthorizerChain::validateModes(s.authorizationModes); !e.isEmpty())
        return e;
    if (QString e = AdmissionChain::validatePlugins(s.admissionPlugins); !e.isEmpty())
        return e;
    if (QString e = ClusterSettings::validateGroupMappings(s.oidcGroupMappings); !e.isEmpty())
        return e;
    {
        QMutexLocker lock(&m_mutex);
        m_settings = s;
    }
    m_authenticator.setAnonymousEnabled(s.anonymousAuth);
    rebuildPolicy();
    m_events.publish(QStringLiteral("cluster.settings.changed"), s.toJson());
    return {};
}

void ClusterApi::rebuildPolicy()
{
    QList<RbacRole> roles;
    QList<RbacBinding> bindings;
    for (const char *r : {"clusterroles", "roles"}) {
        auto page = m_store.list(QLatin1String(r), QString(), {}, 0, QString());
        for (const QJsonObject &o : std::get<ObjectStore::Page>(page).items)
            roles.append(roleFromJson(o));
    }
    for (const char *r : {"clusterrolebindings", "rolebindings"}) {
        auto page = m_store.list(QLatin1String(r), QString(), {}, 0, QString());
        for (const QJsonObject &o : std::get<ObjectStore::Page>(page).items)
            bindings.append(bindingFromJson(o));
    }
    auto policy = std::make_shared<const RbacPolicy>(std::move(roles), std::move(bindings));
    ObjectStore *store = &m_store;
    PodNodeLookup podNode = [store](const QString &ns, const QString &pod) {
        const std::optional<QJsonObject> p = store->get(QStringLiteral("pods"), ns, pod);
        return p ? fieldValue(*p, QStringLiteral("spec.nodeName")) : QString();
    };
    AdmissionContext ctx;
    ctx.namespacePhase = [store](const QString &name) -> std::optional<QString> {
        const std::optional<QJsonObject> n =
            store->get(QStringLiteral("namespaces"), QString(), name);
        if (!n)
            return std::nullopt;
        return fieldValue(*n, QStringLiteral("status.phase"));
    };
    ctx.nodeUid = [store](const QString &name) {
        const std::optional<QJsonObject> n = store->get(QStringLiteral("nodes"), QString(), name);
        return n ? fieldValue(*n, QStringLiteral("metadata.uid")) : QString();
    };
    QMutexLocker lock(&m_mutex);
    m_rbac = policy;
    m_authorizer =
        std::make_shared<const AuthorizerChain>(m_settings.authorizationModes, policy, podNode);
    m_admission = std::make_shared<const AdmissionChain>(m_settings.admissionPlugins, ctx);
}

void ClusterApi::rebuildWebhooks()
{
    auto set = std::make_shared<WebhookSet>();
    for (const bool mutating : {true, false}) {
        const QString resource = mutating ? QStringLiteral("mutatingwebhookconfigurations")
                                          : QStringLiteral("validatingwebhookconfigurations");
        // In the order of the configurations' names, as kube-apiserver asks them.
        auto page = m_store.list(resource, QString(), {}, 0, QString());
        for (const QJsonObject &o : std::get<ObjectStore::Page>(page).items)
            (mutating ? set->mutating : set->validating) += webhooksOf(o, mutating);
    }
    QMutexLocker lock(&m_mutex);
    m_webhooks = std::move(set);
}

void ClusterApi::onChange(const ObjectChange &c)
{
    if (c.resource.endsWith(QLatin1String("roles")) ||
        c.resource.endsWith(QLatin1String("rolebindings")))
        rebuildPolicy();
    if (c.resource.endsWith(QLatin1String("webhookconfigurations")))
        rebuildWebhooks();
    if (c.resource == QLatin1String("services") && c.namespaceName == QLatin1String("default") &&
        c.name == kServiceName) {
        int port = 0;
        if (c.kind != ObjectChange::Kind::Deleted &&
            fieldValue(c.object, QStringLiteral("spec.type")) == QLatin1String("NodePort"))
            port = c.object.value(QLatin1String("spec"))
                       .toObject()
                       .value(QLatin1String("ports"))
                       .toArray()
                       .first()
                       .toObject()
                       .value(QLatin1String("nodePort"))
                       .toInt();
        if (m_nodePort.exchange(port) != port)
            QMetaObject::invokeMethod(
                this, [this, port] { emit nodePortChanged(port); }, Qt::QueuedConnection);
    }
    static const QHash<ObjectChange::Kind, QString> kinds{
        {ObjectChange::Kind::Added, QStringLiteral("ADDED")},
        {ObjectChange::Kind::Modified, QStringLiteral("MODIFIED")},
        {ObjectChange::Kind::Deleted, QStringLiteral("DELETED")}};
    m_events.publish(
        QStringLiteral("cluster.object.changed"),
        QJsonObject{{QStringLiteral("type"), kinds.value(c.kind)},
                    {QStringLiteral("resource"), c.resource},
                    {QStringLiteral("namespace"), c.namespaceName},
                    {QStringLiteral("name"), c.name},
                    {QStringLiteral("resourceVersion"),
                     fieldValue(c.object, QStringLiteral("metadata.resourceVersion"))}});
}

Result<void> ClusterApi::bootstrap()
{
    const QDateTime now = m_clock.now();
    auto outcome = m_store.commitAndWait([&]() -> ObjectStore::Outcome {
        QList<ObjectChange> changes;
        auto ensure = [&](const QString &resource, const QString &ns, QJsonObject object) {
            const QString name = nameOf(object);
            if (m_store.get(resource, ns, name))
                return;
            setMeta(object, QStringLiteral("uid"), Crypto::Random::uuid());
            setMeta(object, QStringLiteral("creationTimestamp"), timestamp(now));
            if (!ns.isEmpty())
                setMeta(object, QStringLiteral("namespace"), ns);
            changes.append(ObjectChange{ObjectChange::Kind::Added, resource, ns, name, object});
        };
        for (const QJsonObject &r : bootstrapClusterRoles())
            ensure(QStringLiteral("clusterroles"), QString(), r);
        for (const QJsonObject &b : bootstrapClusterRoleBindings())
            ensure(QStringLiteral("clusterrolebindings"), QString(), b);
        for (const char *ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
            ensure(QStringLiteral("namespaces"), QString(),
                   QJsonObject{
                       {QStringLiteral("kind"), QStringLiteral("Namespace")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("name"), QLatin1String(ns)},
                                    {QStringLiteral("labels"),
                                     QJsonObject{{QStringLiteral("kubernetes.io/metadata.name"),
                                                  QLatin1String(ns)}}}}},
                       {QStringLiteral("spec"),
                        QJsonObject{{QStringLiteral("finalizers"),
                                     QJsonArray{QStringLiteral("kubernetes")}}}},
                       {QStringLiteral("status"),
                        QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}}}});
            ensure(QStringLiteral("serviceaccounts"), QLatin1String(ns),
                   QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                               {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                               {QStringLiteral("metadata"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("default")}}},
                               {QStringLiteral("automountServiceAccountToken"), false}});
        }
        ensure(QStringLiteral("services"), QStringLiteral("default"),
               QJsonObject{
                   {QStringLiteral("kind"), QStringLiteral("Service")},
                   {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                   {QStringLiteral("metadata"),
                    QJsonObject{
                        {QStringLiteral("name"), kServiceName},
                        {QStringLiteral("labels"),
                         QJsonObject{{QStringLiteral("component"), QStringLiteral("apiserver")},
                                     {QStringLiteral("provider"), QStringLiteral("kubernetes")}}}}},
                   {QStringLiteral("spec"),
                    QJsonObject{
                        {QStringLiteral("type"), QStringLiteral("ClusterIP")},
                        {QStringLiteral("clusterIP"), QStringLiteral("10.96.0.1")},
                        {QStringLiteral("clusterIPs"), QJsonArray{QStringLiteral("10.96.0.1")}},
                        {QStringLiteral("ipFamilies"), QJsonArray{QStringLiteral("IPv4")}},
                        {QStringLiteral("ipFamilyPolicy"), QStringLiteral("SingleStack")},
                        {QStringLiteral("sessionAffinity"), QStringLiteral("None")},
                        {QStringLiteral("internalTrafficPolicy"), QStringLiteral("Cluster")},
                        {QStringLiteral("ports"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("https")},
                                                {QStringLiteral("protocol"), QStringLiteral("TCP")},
                                                {QStringLiteral("port"), 443},
                                                {QStringLiteral("targetPort"), 6443}}}}}},
                   {QStringLiteral("status"),
                    QJsonObject{{QStringLiteral("loadBalancer"), QJsonObject()}}}});
        // Demo nodes only on a brand-new cluster, so deleting them stays deleted.
        if (m_options.demoData && m_store.count(QStringLiteral("nodes")) == 0 &&
            !m_store.get(QStringLiteral("namespaces"), QString(), QStringLiteral("default"))) {
            int i = 0;
            for (const char *n : {"node-1", "node-2", "node-3"}) {
                ++i;
                ensure(
                    QStringLiteral("nodes"), QString(),
                    QJsonObject{
                        {QStringLiteral("kind"), QStringLiteral("Node")},
                        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                        {QStringLiteral("metadata"),
                         QJsonObject{
                             {QStringLiteral("name"), QLatin1String(n)},
                             {QStringLiteral("labels"),
                              QJsonObject{
                                  {QStringLiteral("kubernetes.io/hostname"), QLatin1String(n)},
                                  {QStringLiteral("kubernetes.io/os"), QStringLiteral("linux")},
                                  {QStringLiteral("kubernetes.io/arch"), QStringLiteral("amd64")},
                                  {QStringLiteral("topology.kubernetes.io/zone"),
                                   i == 3 ? QStringLiteral("zone-b")
                                          : QStringLiteral("zone-a")}}}}},
                        {QStringLiteral("spec"),
                         QJsonObject{
                             {QStringLiteral("podCIDR"), QStringLiteral("10.244.%1.0/24").arg(i)}}},
                        {QStringLiteral("status"), nodeStatus(QLatin1String(n), i)}});
            }
        }
        return changes;
    });
    if (const auto *s = std::get_if<Status>(&outcome))
        return makeError(QStringLiteral("cluster-bootstrap"), s->message);
    return {};
}

Result<void> ClusterApi::start()
{
    rebuildPolicy();
    rebuildWebhooks();
    if (auto r = bootstrap(); !r)
        return r;
    rebuildPolicy();
    const std::optional<QJsonObject> svc =
        m_store.get(QStringLiteral("services"), QStringLiteral("default"), kServiceName);
    if (svc && fieldValue(*svc, QStringLiteral("spec.type")) == QLatin1String("NodePort"))
        m_nodePort = svc->value(QLatin1String("spec"))
                         .toObject()
                         .value(QLatin1String("ports"))
                         .toArray()
                         .first()
                         .toObject()
                         .value(QLatin1String("nodePort"))
                         .toInt();
    m_publishTimer.start();
    connect(&m_eventExpiry, &QTimer::timeout, this, [this] {
        const QDateTime now = m_clock.now();
        m_store.commit(
            [this, now]() -> ObjectStore::Outcome {
                return expiredEvents(m_store, now, kEventTtlSeconds);
            },
            nullptr);
    });
    m_eventExpiry.start(60'000);
    return {};
}

void ClusterApi::recordLabelChange(const ObjectChange &c, const QString &user)
{
    if (c.kind != ObjectChange::Kind::Modified)
        return;
    const QJsonObject before = c.previous.value(QLatin1String("metadata"))
                                   .toObject()
                                   .value(QLatin1String("labels"))
                                   .toObject();
    const QJsonObject after = c.object.value(QLatin1String("metadata"))
                                  .toObject()
                                  .value(QLatin1String("labels"))
                                  .toObject();
    if (before == after)
        return;
    QStringList parts;
    for (auto it = after.begin(); it != after.end(); ++it) {
        if (!before.contains(it.key()))
            parts.append(QStringLiteral("+%1=%2").arg(it.key(), it.value().toString()));
        else if (before.value(it.key()) != it.value())
            parts.append(
                QStringLiteral("%1=%2->%3")
                    .arg(it.key(), before.value(it.key()).toString(), it.value().toString()));
    }
    for (auto it = before.begin(); it != before.end(); ++it)
        if (!after.contains(it.key()))
            parts.append(QStringLiteral("-%1").arg(it.key()));
    recordEvent(
        {QStringLiteral("Normal"), QStringLiteral("LabelsChanged"),
         QStringLiteral("labels changed by %1: %2").arg(user, parts.join(QStringLiteral(", "))),
         QJsonObject{{QStringLiteral("kind"), QStringLiteral("Node")},
                     {QStringLiteral("name"), c.name},
                     {QStringLiteral("uid"), fieldValue(c.object, QStringLiteral("metadata.uid"))},
                     {QStringLiteral("apiVersion"), QStringLiteral("v1")}}});
}

void ClusterApi::recordEvent(const EventRecord &event)
{
    if (!m_eventFilter.allow(event, m_clock.now()))
        return;
    QMetaObject::invokeMethod(
        this,
        [this, event] {
            const QDateTime now = m_clock.now();
            m_store.commit(
                [this, event, now]() -> ObjectStore::Outcome {
                    return QList<ObjectChange>{eventChange(m_store, event, now)};
                },
                nullptr);
        },
        Qt::QueuedConnection);
}

void ClusterApi::install(Core::HttpServer &server)
{
    server.setErrorFormatter([](int status, const QString &, const QString &message) {
        Status s;
        s.code = status;
        s.reason = QString::fromLatin1(Core::reasonPhrase(status)).remove(QLatin1Char(' '));
        if (status == 413)
            s.reason = QStringLiteral("RequestEntityTooLarge");
        s.message = message;
        return s.response(false);
    });
    // Health checks too go through authentication and authorization, as in Kubernetes.
    server.clearRoutes();
    server.setFallbackDeferred([this](const Core::HttpRequest &request, Core::Responder respond) {
        handle(request, std::move(respond));
    });
}

void ClusterApi::handle(const Core::HttpRequest &request, Core::Responder respond)
{
    auto ctx = std::make_shared<Context>();
    ctx->request = request;
    ctx->respond = std::move(respond);
    ctx->pretty = wantsPretty(request);
    process(ctx);
}

void ClusterApi::finish(const std::shared_ptr<Context> &ctx, Core::HttpResponse response)
{
    ctx->trace.code = response.status;
    for (QString w : std::as_const(ctx->warnings))
        response.headers.append(
            {"Warning",
             "299 - \"" + w.replace(QLatin1Char('"'), QStringLiteral("\\\"")).toUtf8() + '"'});
    if (response.status >= 400 && response.header("Content-Type").startsWith("application/json"))
        ctx->trace.status = QJsonDocument::fromJson(response.body).object();
    if (!ctx->explaining)
        record(*ctx);
    if (ctx->onDone)
        ctx->onDone(response, ctx->trace);
    if (ctx->respond)
        ctx->respond(std::move(response));
}

void ClusterApi::record(const Context &ctx)
{
    const RequestTrace &t = ctx.trace;
    const QJsonObject denial = t.denial();
    const QString stage =
        denial.isEmpty() ? QStringLiteral("ok") : denial.value(QLatin1String("stage")).toString();
    const QString reason = denial.isEmpty() ? t.authorization.reason
                                            : denial.value(QLatin1String("message")).toString();
    RecentRequest entry;
    entry.timeMs = m_clock.now().toMSecsSinceEpoch();
    entry.method = t.method;
    entry.path = t.path;
    entry.code = t.code;
    entry.stage = stage;
    entry.reason = reason;
    switch (t.authentication.outcome) {
    case AuthenticationResult::Outcome::Authenticated:
        entry.credentials = RecentRequest::Credentials::Accepted;
        entry.attributes = ctx.attributes;
        break;
    case AuthenticationResult::Outcome::Anonymous:
        entry.credentials = RecentRequest::Credentials::Anonymous;
        entry.attributes = ctx.attributes;
        break;
    case AuthenticationResult::Outcome::Unauthorized:
        // Nothing presented (anonymous access off): what it asked for, should anonymous
        // access come back. A rejected credential stays a 401 whatever changes.
        if (!ctx.actAs && ctx.request.identity.state != Core::PeerIdentity::State::Invalid &&
            ctx.request.bearerToken().isEmpty()) {
            entry.credentials = RecentRequest::Credentials::None;
            entry.attributes = Attributes::from(
                UserInfo(),
                RequestInfo::parse(ctx.request.method, ctx.request.path, ctx.request.query));
        } else {
            entry.credentials = RecentRequest::Credentials::Rejected;
        }
        break;
    }
    entry.authorized = t.authorized;
    entry.deniedBy = denial.value(QLatin1String("by")).toString();
    entry.quotes = denial.value(QLatin1String("quotes")).toArray();
    if (!t.authorized)
        entry.nearMisses = t.authorization.nearMisses;
    QMutexLocker lock(&m_recentMutex);
    ++(entry.code < 400 ? m_unpublishedAllowed : m_unpublishedDenied);
    m_recent.push_back(entry);
    if (m_recent.size() > kRecentMax)
        m_recent.pop_front();
    if (m_unpublished.size() < 100)
        m_unpublished.push_back(std::move(entry));
}

QJsonObject ClusterApi::RecentRequest::toJson() const
{
    // A refused credential or none: no user, and the request was not looked into.
    const bool authenticated =
        credentials == Credentials::Accepted || credentials == Credentials::Anonymous;
    const Attributes none;
    const Attributes &a = authenticated ? attributes : none;
    QJsonObject o{{QStringLiteral("time"),
                   QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC).toString(Qt::ISODateWithMs)},
                  {QStringLiteral("method"), method},
                  {QStringLiteral("path"), path},
                  {QStringLiteral("user"), a.user.name},
                  {QStringLiteral("groups"), toArray(a.user.groups)},
                  {QStringLiteral("verb"), a.verb},
                  {QStringLiteral("code"), code},
                  {QStringLiteral("verdict"),
                   code < 400 ? QStringLiteral("allowed") : QStringLiteral("denied")},
                  {QStringLiteral("stage"), stage},
                  {QStringLiteral("reason"), reason}};
    if (a.resourceRequest) {
        o.insert(QStringLiteral("resource"), a.resource);
        o.insert(QStringLiteral("namespace"), a.namespaceName);
        o.insert(QStringLiteral("name"), a.name);
    }
    if (!deniedBy.isEmpty())
        o.insert(QStringLiteral("deniedBy"), deniedBy);
    if (!quotes.isEmpty())
        o.insert(QStringLiteral("quotes"), quotes);
    if (!a.user.droppedGroups.isEmpty())
        o.insert(QStringLiteral("droppedGroups"), toArray(a.user.droppedGroups));
    if (stage == QLatin1String("authorization")) {
        QJsonArray misses;
        for (const NearMiss &n : nearMisses)
            misses.append(n.toJson());
        o.insert(QStringLiteral("nearMisses"), misses);
    }
    return o;
}

void ClusterApi::publishRecent()
{
    std::vector<RecentRequest> pending;
    qint64 allowed = 0;
    qint64 denied = 0;
    {
        QMutexLocker lock(&m_recentMutex);
        if (m_unpublished.empty())
            return;
        pending.swap(m_unpublished);
        allowed = std::exchange(m_unpublishedAllowed, 0);
        denied = std::exchange(m_unpublishedDenied, 0);
    }
    QJsonArray batch;
    for (const RecentRequest &r : pending)
        batch.append(r.toJson());
    // The batch holds at most 100 requests; the counts are of all of them (the dashboard's
    // per-minute series counts from these).
    m_events.publish(QStringLiteral("cluster.requests"),
                     QJsonObject{{QStringLiteral("requests"), batch},
                                 {QStringLiteral("allowed"), allowed},
                                 {QStringLiteral("denied"), denied}});
}

QJsonArray ClusterApi::recentRequests(int max) const
{
    QMutexLocker lock(&m_recentMutex);
    QJsonArray out;
    const int n = int(m_recent.size());
    for (int i = std::max(0, n - max); i < n; ++i)
        out.append(m_recent[size_t(i)].toJson());
    return out;
}

ClusterApi::DecisionPolicy ClusterApi::decisionPolicy() const
{
    QMutexLocker lock(&m_mutex);
    return DecisionPolicy{m_authorizer, m_authenticator.anonymousEnabled()};
}

namespace {

struct Verdict
{
    QString stage; // authentication or authorization
    bool allowed = false;
    QString reason;
    QString decidedBy;
    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("stage"), stage},
                      {QStringLiteral("authorized"), allowed},
                      {QStringLiteral("reason"), reason}};
        if (!decidedBy.isEmpty())
            o.insert(QStringLiteral("decidedBy"), decidedBy);
        return o;
    }
};

// The 403 Status Kubernetes answers when authorization refuses: "<resource> \"<name>\" is
// forbidden: User ... cannot ...", or "forbidden: ..." for a non-resource path.
Status authorizationRefusal(const Attributes &a, const QString &name, const QString &reason)
{
    const QString msg = forbiddenMessage(a, reason);
    return a.resourceRequest ? Status::forbidden(a.apiGroup, a.resource, name, msg)
                             : Status::forbidden(QString(), QString(), QString(), msg);
}

// A recorded request authenticated and authorized again under a policy: anonymous requests
// (and those that presented nothing) depend on anonymous access, everyone on the authorizers.
Verdict decideAgain(Attributes a, bool presentedCredentials, bool anonymousCredentials,
                    const AuthorizerChain &authorizer, bool anonymousOn)
{
    Verdict v;
    if (!presentedCredentials && !anonymousOn) {
        v.stage = QStringLiteral("authentication");
        v.reason = QStringLiteral("no credentials presented and anonymous access is off");
        return v;
    }
    if (!presentedCredentials && !anonymousCredentials) {
        a.user.name = QLatin1String(kAnonymousUser);
        a.user.groups = {QLatin1String(kUnauthenticatedGroup)};
        a.user.authenticator = QStringLiteral("anonymous");
    }
    v.stage = QStringLiteral("authorization");
    const AuthorizationResult result = authorizer.authorize(a);
    v.allowed = result.allowed();
    v.decidedBy = result.decidedBy;
    if (!v.allowed) // the 403's message
        v.reason = authorizationRefusal(a, a.name, result.reason).message;
    else if (!result.reason.isEmpty())
        v.reason = result.reason; // RBAC's binding, role and subject
    else
        v.reason = QStringLiteral("allowed by the %1 authorizer").arg(v.decidedBy);
    return v;
}

} // namespace

QJsonObject ClusterApi::verdictChanges(const DecisionPolicy &before) const
{
    std::vector<RecentRequest> recent;
    {
        QMutexLocker lock(&m_recentMutex);
        recent.reserve(m_recent.size());
        for (const RecentRequest &r : m_recent)
            if (r.credentials != RecentRequest::Credentials::Rejected)
                recent.push_back(r);
    }
    const DecisionPolicy now = decisionPolicy();
    if (!before.authorizer || !now.authorizer)
        return {};

    // The same identity asking the same thing is one line with a count.
    struct Group
    {
        const RecentRequest *first = nullptr;
        const RecentRequest *last = nullptr;
        int count = 0;
    };
    std::vector<Group> groups;
    QHash<QString, size_t> index;
    for (const RecentRequest &r : recent) {
        const Attributes &a = r.attributes;
        const QString key = QStringList{QString::number(int(r.credentials)),
                                        a.user.name,
                                        a.user.groups.join(QLatin1Char(',')),
                                        r.method,
                                        r.path,
                                        a.verb}
                                .join(QChar(0));
        auto it = index.constFind(key);
        if (it == index.constEnd()) {
            it = index.insert(key, groups.size());
            groups.push_back(Group{&r, &r, 0});
        }
        Group &g = groups[*it];
        g.last = &r;
        ++g.count;
    }

    QJsonArray changes;
    int changedRequests = 0;
    int nowAllowed = 0;
    int nowDenied = 0;
    for (const Group &g : groups) {
        const RecentRequest &r = *g.first;
        const bool presented = r.credentials == RecentRequest::Credentials::Accepted;
        const bool anonymous = r.credentials == RecentRequest::Credentials::Anonymous;
        const Verdict then =
            decideAgain(r.attributes, presented, anonymous, *before.authorizer, before.anonymous);
        const Verdict after =
            decideAgain(r.attributes, presented, anonymous, *now.authorizer, now.anonymous);
        if (then.allowed == after.allowed)
            continue;
        changedRequests += g.count;
        (after.allowed ? nowAllowed : nowDenied) += g.count;
        if (changes.size() >= 20)
            continue;
        QJsonObject c{
            {QStringLiteral("method"), r.method},
            {QStringLiteral("path"), r.path},
            {QStringLiteral("user"),
             presented || anonymous ? r.attributes.user.name : QLatin1String(kAnonymousUser)},
            {QStringLiteral("groups"),
             toArray(presented || anonymous ? r.attributes.user.groups
                                            : QStringList{QLatin1String(kUnauthenticatedGroup)})},
            {QStringLiteral("verb"), r.attributes.verb},
            {QStringLiteral("requests"), g.count},
            {QStringLiteral("firstTime"), Core::isoTimeMs(g.first->timeMs)},
            {QStringLiteral("lastTime"), Core::isoTimeMs(g.last->timeMs)},
            {QStringLiteral("then"), then.toJson()},
            {QStringLiteral("now"), after.toJson()},
            {QStringLiteral("verdict"),
             after.allowed ? QStringLiteral("now allowed") : QStringLiteral("now denied")}};
        if (!presented && !anonymous)
            c.insert(QStringLiteral("anonymous"), true); // presented nothing
        changes.append(c);
    }
    return QJsonObject{{QStringLiteral("checked"), int(recent.size())},
                       {QStringLiteral("changedRequests"), changedRequests},
                       {QStringLiteral("nowAllowed"), nowAllowed},
                       {QStringLiteral("nowDenied"), nowDenied},
                       {QStringLiteral("changes"), changes}};
}

void ClusterApi::process(const std::shared_ptr<Context> &ctx)
{
    const Core::HttpRequest &req = ctx->request;
    RequestTrace &trace = ctx->trace;
    trace.method = QString::fromLatin1(req.method);
    trace.path = req.path;
    if (ctx->actAs) {
        trace.authentication.outcome = ctx->actAs->isAnonymous()
                                           ? AuthenticationResult::Outcome::Anonymous
                                           : AuthenticationResult::Outcome::Authenticated;
        trace.authentication.user = *ctx->actAs;
        trace.authentication.reason =
            QStringLiteral("acting as this identity through the admin API");
    } else {
        trace.authentication = m_authenticator.authenticate(req.identity, req.bearerToken());
    }
    if (!trace.authentication.ok()) {
        finish(ctx, Status::unauthorized().response(ctx->pretty));
        return;
    }
    trace.info = RequestInfo::parse(req.method, req.path, req.query);
    ctx->attributes = Attributes::from(trace.authentication.user, trace.info);
    {
        QMutexLocker lock(&m_mutex);
        ctx->authorizer = m_authorizer;
        ctx->admission = m_admission;
        ctx->webhooks = m_webhooks;
    }
    trace.authorization = ctx->authorizer->authorize(ctx->attributes);
    trace.authorized = trace.authorization.allowed();
    if (!trace.authorized) {
        const Status s =
            authorizationRefusal(ctx->attributes, trace.info.name, trace.authorization.reason);
        finish(ctx, s.response(ctx->pretty));
        return;
    }
    if (ctx->authorizationOnly) {
        finish(ctx, Core::HttpResponse());
        return;
    }
    if (trace.info.isResourceRequest)
        handleResource(ctx);
    else
        handleNonResource(ctx);
}

void ClusterApi::handleNonResource(const std::shared_ptr<Context> &ctx)
{
    const Core::HttpRequest &req = ctx->request;
    const QString &path = req.path;
    const bool get = req.method == "GET" || req.method == "HEAD";
    const QByteArray accept = req.header("accept");
    auto text = [&](int status, const QByteArray &body) {
        finish(ctx, Core::HttpResponse::text(status, body));
    };
    auto json = [&](const QJsonObject &o, bool alwaysPretty = false,
                    const QByteArray &type = "application/json") {
        finish(ctx, objectResponse(200, o, alwaysPretty || ctx->pretty, type));
    };

    static const QStringList health{QStringLiteral("/healthz"), QStringLiteral("/livez"),
                                    QStringLiteral("/readyz")};
    for (const QString &h : health) {
        if (path == h || path == h + QStringLiteral("/ping") ||
            (h == QLatin1String("/readyz") && path == QLatin1String("/readyz/shutdown"))) {
            if (!get) {
                finish(ctx, Status::methodNotAllowed().response(ctx->pretty));
                return;
            }
            text(200, "ok");
            return;
        }
    }
    if (!get) {
        // Known discovery paths answer 405 for other methods, like go-restful does.
        static const QStringList known{QStringLiteral("/"), QStringLiteral("/version"),
                                       QStringLiteral("/api"), QStringLiteral("/apis")};
        if (known.contains(path) || path.startsWith(QLatin1String("/api/")) ||
            path.startsWith(QLatin1String("/apis/")))
            finish(ctx, Status::methodNotAllowed().response(ctx->pretty));
        else
            text(404, "404 page not found\n");
        return;
    }
    if (path == QLatin1String("/")) {
        QStringList paths{QStringLiteral("/.well-known/openid-configuration"),
                          QStringLiteral("/api"),
                          QStringLiteral("/api/v1"),
                          QStringLiteral("/apis"),
                          QStringLiteral("/apis/"),
                          QStringLiteral("/healthz"),
                          QStringLiteral("/healthz/ping"),
                          QStringLiteral("/livez"),
                          QStringLiteral("/livez/ping"),
                          QStringLiteral("/openapi/v3"),
                          QStringLiteral("/openapi/v3/"),
                          QStringLiteral("/openid/v1/jwks"),
                          QStringLiteral("/readyz"),
                          QStringLiteral("/readyz/ping"),
                          QStringLiteral("/readyz/shutdown"),
                          QStringLiteral("/version")};
        for (const QString &g : servedGroups())
            if (!g.isEmpty())
                paths << QStringLiteral("/apis/") + g << QStringLiteral("/apis/%1/v1").arg(g);
        paths.sort();
        JsonWriter w(true);
        w.beginObject().key(QStringLiteral("paths")).beginArray();
        for (const QString &p : std::as_const(paths))
            w.value(p);
        w.endArray().endObject();
        Core::HttpResponse r;
        r.body = w.take();
        r.setHeader("Content-Type", "application/json");
        finish(ctx, std::move(r));
        return;
    }
    if (path == QLatin1String("/version") || path == QLatin1String("/version/")) {
        JsonWriter w(true);
        w.beginObject()
            .field(QStringLiteral("major"), QStringLiteral("1"))
            .field(QStringLiteral("minor"), QStringLiteral("32"))
            .field(QStringLiteral("gitVersion"), QStringLiteral("v1.32.4"))
            .field(QStringLiteral("gitCommit"),
                   QStringLiteral("59526cd4867447956156ae3a602fcbac10a2c335"))
            .field(QStringLiteral("gitTreeState"), QStringLiteral("clean"))
            .field(QStringLiteral("buildDate"), QStringLiteral("2025-04-22T16:02:27Z"))
            .field(QStringLiteral("goVersion"), QStringLiteral("go1.23.6"))
            .field(QStringLiteral("compiler"), QStringLiteral("gc"))
            .field(QStringLiteral("platform"), QStringLiteral("linux/amd64"))
            .endObject();
        Core::HttpResponse r;
        r.body = w.take();
        r.setHeader("Content-Type", "application/json");
        finish(ctx, std::move(r));
        return;
    }
    if (auto answer = openApiV3Response(req)) {
        finish(ctx, std::move(*answer));
        return;
    }
    const QByteArray aggregated =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    if (path == QLatin1String("/api") || path == QLatin1String("/api/")) {
        if (wantsAggregatedDiscovery(accept))
            json(aggregatedDiscovery(true), false, aggregated);
        else
            json(apiVersions(m_options.serverAddress));
        return;
    }
    if (path == QLatin1String("/apis") || path == QLatin1String("/apis/")) {
        if (wantsAggregatedDiscovery(accept))
            json(aggregatedDiscovery(false), false, aggregated);
        else
            json(apiGroupList());
        return;
    }
    if (path == QLatin1String("/api/v1") || path == QLatin1String("/api/v1/")) {
        json(apiResourceList(QString(), QStringLiteral("v1")));
        return;
    }
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.value(0) == QLatin1String("apis") && servedGroups().contains(parts.value(1)) &&
        !parts.value(1).isEmpty()) {
        if (parts.size() == 2) {
            json(apiGroup(parts[1]));
            return;
        }
        if (parts.size() == 3 && parts[2] == QLatin1String("v1")) {
            json(apiResourceList(parts[1], QStringLiteral("v1")));
            return;
        }
    }
    if (path == QLatin1String("/.well-known/openid-configuration") ||
        path == QLatin1String("/openid/v1/jwks")) {
        const QString issuer = QStringLiteral("https://kubernetes.default.svc.cluster.local");
        if (path.startsWith(QLatin1String("/openid")))
            json(m_serviceAccounts ? m_serviceAccounts->jwks()
                                   : QJsonObject{{QStringLiteral("keys"), QJsonArray()}},
                 false, "application/jwk-set+json");
        else
            json(QJsonObject{
                {QStringLiteral("issuer"), issuer},
                {QStringLiteral("jwks_uri"),
                 QStringLiteral("https://%1/openid/v1/jwks").arg(m_options.serverAddress)},
                {QStringLiteral("response_types_supported"),
                 QJsonArray{QStringLiteral("id_token")}},
                {QStringLiteral("subject_types_supported"), QJsonArray{QStringLiteral("public")}},
                {QStringLiteral("id_token_signing_alg_values_supported"),
                 QJsonArray{QStringLiteral("ES256")}}});
        return;
    }
    if (path.startsWith(QLatin1String("/api/")) || path.startsWith(QLatin1String("/apis/"))) {
        finish(ctx, Status::routeNotFound().response(ctx->pretty));
        return;
    }
    text(404, "404 page not found\n");
}

void ClusterApi::handleResource(const std::shared_ptr<Context> &ctx)
{
    const Core::HttpRequest &req = ctx->request;
    const RequestInfo &info = ctx->trace.info;
    const bool pretty = ctx->pretty;
    const ResourceType *type = findResource(info.apiGroup, info.apiVersion, info.resource);
    if (!type) {
        const bool servedGroupVersion =
            servedGroups().contains(info.apiGroup) && info.apiVersion == QLatin1String("v1");
        if (servedGroupVersion)
            finish(ctx, Status::routeNotFound().response(pretty));
        else
            finish(ctx, Core::HttpResponse::text(404, "404 page not found\n"));
        return;
    }
    // The URL must fit the resource's scope and subresources, as go-restful's routes do.
    const bool namespacedUrl =
        !info.namespaceName.isEmpty() && info.resource != QLatin1String("namespaces");
    if (info.parts.size() > 3 || (namespacedUrl && !type->namespaced) ||
        (!info.subresource.isEmpty() && !type->hasSubresource(info.subresource)) ||
        info.verb == QLatin1String("proxy")) {
        finish(ctx, Status::routeNotFound().response(pretty));
        return;
    }
    if (!type->stored) {
        if (req.method != "POST" || !info.name.isEmpty()) {
            finish(ctx, Status::methodNotAllowed().response(pretty));
            return;
        }
        if (type->namespaced != namespacedUrl) {
            finish(ctx, Status::routeNotFound().response(pretty));
            return;
        }
        handleReview(ctx, *type);
        return;
    }
    // A namespaced object is addressed inside its namespace; only lists span namespaces.
    if (type->namespaced && !namespacedUrl && !(info.name.isEmpty() && req.method == "GET")) {
        finish(ctx, Status::routeNotFound().response(pretty));
        return;
    }
    if (!acceptsObject(req.header("accept"))) {
        finish(ctx, Status::notAcceptable(
                        {QStringLiteral("application/json"), QLatin1String(kProtobufContentType)})
                        .response(pretty));
        return;
    }
    const QString ns = type->namespaced ? info.namespaceName : QString();
    if (req.method == "GET" || req.method == "HEAD") {
        const bool table = wantsTable(req.header("accept"));
        const qint64 nowMs = m_clock.now().toMSecsSinceEpoch();
        if (!info.name.isEmpty() && info.verb != QLatin1String("watch")) {
            const std::optional<QJsonObject> o = m_store.get(type->name, ns, info.name);
            if (!o) {
                finish(ctx, Status::notFound(type->group, type->name, info.name).response(pretty));
                return;
            }
            if (!table && !pretty && !prefersProtobuf(req.header("accept"))) {
                // Objects change rarely and are read often: their encoded form is cached by
                // resourceVersion (a new one never repeats: the counter only grows).
                const QString key =
                    type->name + QLatin1Char('/') + ns + QLatin1Char('/') + info.name;
                const QString rv = fieldValue(*o, QStringLiteral("metadata.resourceVersion"));
                QByteArray body;
                {
                    QMutexLocker lock(&m_cacheMutex);
                    const auto it = m_bodyCache.constFind(key);
                    if (it != m_bodyCache.constEnd() && it->first == rv)
                        body = it->second;
                }
                if (body.isEmpty()) {
                    body = JsonWriter::encode(typed(*type, *o));
                    body.append('\n');
                    QMutexLocker lock(&m_cacheMutex);
                    if (m_bodyCache.size() >= 20000)
                        m_bodyCache.clear();
                    m_bodyCache.insert(key, {rv, body});
                }
                Core::HttpResponse r;
                r.body = body;
                r.setHeader("Content-Type", "application/json");
                finish(ctx, std::move(r));
            } else if (table)
                finish(ctx, objectResponse(
                                200,
                                tableFor(*type, {*o},
                                         fieldValue(*o, QStringLiteral("metadata.resourceVersion")),
                                         QString(), nowMs),
                                pretty));
            else
                finish(ctx, typedResponse(req, 200, typed(*type, *o), pretty));
            return;
        }
        QString error;
        const std::optional<Selector> labels = Selector::parseLabels(info.labelSelector, &error);
        QStringList extraFields;
        if (type->name == QLatin1String("pods"))
            extraFields = {QStringLiteral("spec.nodeName"), QStringLiteral("status.phase"),
                           QStringLiteral("spec.serviceAccountName")};
        else if (type->name == QLatin1String("namespaces"))
            extraFields = {QStringLiteral("status.phase")};
        else if (type->name == QLatin1String("nodes"))
            extraFields = {QStringLiteral("spec.unschedulable")};
        else if (type->name == QLatin1String("services"))
            extraFields = {QStringLiteral("spec.type")};
        else if (type->name == QLatin1String("events"))
            extraFields = eventFieldSelectors();
        const std::optional<Selector> fields =
            labels ? Selector::parseFields(info.fieldSelector, extraFields, &error) : std::nullopt;
        if (!labels || !fields) {
            finish(ctx, Status::badRequest(error).response(pretty));
            return;
        }
        if (info.verb == QLatin1String("watch")) {
            handleWatch(ctx, *type, [labels, fields](const QJsonObject &o) {
                return labels->matchesLabels(o) && fields->matchesFields(o);
            });
            return;
        }
        const QString limitText = req.query.queryItemValue(QStringLiteral("limit"));
        bool limitOk = true;
        const int limit = limitText.isEmpty() ? 0 : limitText.toInt(&limitOk);
        if (!limitOk || limit < 0) {
            finish(ctx, Status::badRequest(QStringLiteral("invalid limit: %1").arg(limitText))
                            .response(pretty));
            return;
        }
        auto result = m_store.list(
            type->name, ns,
            [&](const QJsonObject &o) {
                return labels->matchesLabels(o) && fields->matchesFields(o);
            },
            limit, req.query.queryItemValue(QStringLiteral("continue"), QUrl::FullyDecoded));
        if (const auto *s = std::get_if<Status>(&result)) {
            finish(ctx, s->response(pretty));
            return;
        }
        const ObjectStore::Page &page = std::get<ObjectStore::Page>(result);
        if (table) {
            finish(ctx, objectResponse(200,
                                       tableFor(*type, page.items, page.resourceVersion,
                                                page.continueToken, nowMs),
                                       pretty));
            return;
        }
        QJsonArray items;
        for (const QJsonObject &o : page.items)
            items.append(o);
        QJsonObject listMeta{{QStringLiteral("resourceVersion"), page.resourceVersion}};
        if (!page.continueToken.isEmpty()) {
            listMeta.insert(QStringLiteral("continue"), page.continueToken);
            listMeta.insert(QStringLiteral("remainingItemCount"), page.remaining);
        }
        finish(ctx, typedResponse(
                        req, 200,
                        QJsonObject{{QStringLiteral("kind"), type->kind + QStringLiteral("List")},
                                    {QStringLiteral("apiVersion"), type->apiVersion()},
                                    {QStringLiteral("metadata"), listMeta},
                                    {QStringLiteral("items"), items}},
                        pretty));
        return;
    }
    const QByteArray &m = req.method;
    const bool named = !info.name.isEmpty();
    if (type->name == QLatin1String("serviceaccounts") &&
        info.subresource == QLatin1String("token")) {
        if (m != "POST") {
            finish(ctx, Status::methodNotAllowed().response(pretty));
            return;
        }
        handleTokenRequest(ctx);
        return;
    }
    const bool allowed = (m == "POST" && !named && info.subresource.isEmpty()) ||
                         ((m == "PUT" || m == "PATCH") && named) || (m == "DELETE");
    if (!allowed || (m == "DELETE" && !info.subresource.isEmpty()) ||
        (info.subresource == QLatin1String("finalize") && m != "PUT")) {
        finish(ctx, Status::methodNotAllowed().response(pretty));
        return;
    }
    handleWrite(ctx, *type);
}

namespace {

// Node ports in use by services other than (ns, name).
QSet<int> usedNodePorts(ObjectStore &store, const QString &ns, const QString &name)
{
    QSet<int> used;
    auto page = store.list(QStringLiteral("services"), QString(), {}, 0, QString());
    for (const QJsonObject &s : std::get<ObjectStore::Page>(page).items) {
        if (fieldValue(s, QStringLiteral("metadata.namespace")) == ns && nameOf(s) == name)
            continue;
        for (const QJsonValue p :
             s.value(QLatin1String("spec")).toObject().value(QLatin1String("ports")).toArray())
            if (int np = p.toObject().value(QLatin1String("nodePort")).toInt(); np > 0)
                used.insert(np);
    }
    return used;
}

bool portBindable(const QString &host, int port)
{
    QTcpServer probe;
    const bool ok = probe.listen(QHostAddress(host), quint16(port));
    probe.close();
    return ok;
}

QString nextClusterIp(ObjectStore &store)
{
    QSet<QString> used;
    auto page = store.list(QStringLiteral("services"), QString(), {}, 0, QString());
    for (const QJsonObject &s : std::get<ObjectStore::Page>(page).items)
        used.insert(fieldValue(s, QStringLiteral("spec.clusterIP")));
    for (int i = 10; i < 65000; ++i) {
        QString ip = QStringLiteral("10.96.%1.%2").arg(i / 250).arg(i % 250 + 1);
        if (!used.contains(ip))
            return ip;
    }
    return {};
}

// The object a create, update, review or TokenRequest carries: JSON, or protobuf where the
// kind has a decoder; anything else 415, malformed 400.
std::variant<QJsonObject, Status> requestObject(const Core::HttpRequest &req, bool allowProtobuf,
                                                bool allowEmpty)
{
    const QByteArray contentType = req.header("content-type");
    QStringList accepted{QStringLiteral("application/json")};
    if (allowProtobuf)
        accepted.append(QLatin1String(kProtobufContentType));
    if (isProtobufContentType(contentType) && allowProtobuf) {
        auto decoded = decodeProtobufObject(req.body);
        if (const auto *e = std::get_if<ProtobufError>(&decoded))
            return e->unsupportedKind ? Status::unsupportedMediaType(accepted)
                                      : Status::badRequest(e->message);
        return std::get<QJsonObject>(decoded);
    }
    if (!isJsonContentType(contentType))
        return Status::unsupportedMediaType(accepted);
    if (allowEmpty && req.body.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &err);
    if (!doc.isObject())
        return Status::badRequest(QStringLiteral("couldn't get version/kind; json parse error: %1")
                                      .arg(doc.isNull()
                                               ? err.errorString()
                                               : QStringLiteral("the body must be a JSON object")));
    return doc.object();
}

// fieldValidation: Strict refuses unknown fields (400), Warn (the default) drops them with a
// warning each, Ignore drops them. prefix: kube's words before a create or update's error.
std::optional<Status> fieldValidation(const QString &directive, const QStringList &unknown,
                                      const QString &prefix, QStringList *warnings)
{
    if (unknown.isEmpty() || directive == QLatin1String("Ignore"))
        return std::nullopt;
    QStringList messages;
    for (const QString &path : unknown)
        messages.append(QStringLiteral("unknown field \"%1\"").arg(path));
    if (directive == QLatin1String("Strict"))
        return Status::badRequest(prefix + QStringLiteral("strict decoding error: ") +
                                  messages.join(QStringLiteral(", ")));
    *warnings += messages;
    return std::nullopt;
}

} // namespace

// A write on its way through the chain, each step a function of its own:
//   decode -> prepare -> mutating webhooks -> admit (built-in plugins) -> validate
//   -> validating webhooks -> persist.
// Without a webhook to ask, prepare to persist run in one go under the store's write lock.
// With one, prepare, admit and validate run on the state of the moment and persist checks
// that the object is still the one the webhooks saw; when it is not, the chain starts again
// (kube-apiserver's GuaranteedUpdate), at most kWriteAttempts times.
struct ClusterApi::Write
{
    std::shared_ptr<Context> ctx;
    const ResourceType *type = nullptr;
    QString ns;
    QByteArray method;
    QString operation; // CREATE, UPDATE, DELETE
    QString directive; // fieldValidation
    QJsonObject body;  // what POST and PUT carry, and the configuration a server-side apply sends
    std::optional<PatchType> patchType;
    bool serverSideApply = false; // PATCH application/apply-patch+yaml
    bool force = false;           // ... taking fields other managers own
    QString fieldManager;         // ?fieldManager=, else the User-Agent's product
    QDateTime now;
    QString clusterHost;
    QStringList decodeWarnings;
    // The configured webhooks whose rules match this request (selectors are checked on the
    // object, once prepared).
    QList<AdmissionWebhook> mutating, validating;

    // From prepare on.
    std::optional<QJsonObject> current;
    QString currentVersion; // current's resourceVersion when prepared
    QString name;
    QJsonObject object; // what is to be stored (DELETE: the current object)

    QList<AdmissionStep> mutatingSteps, validatingSteps;
    std::optional<WebhookAnswer> webhookDenial;
    // The mutating webhooks to ask, by index, in order (the reinvoked ones appended), which
    // of those with reinvocationPolicy IfNeeded were asked, and the last one that changed
    // the object.
    QList<int> mutatingPlan;
    QList<int> askedIfNeeded;
    int lastChanged = -1;
    bool reinvoked = false;
    int attempts = 0;
    bool conflicted = false; // persist found the object changed since prepare
};

namespace {

constexpr int kWriteAttempts = 3;

QString resourceVersionOf(const std::optional<QJsonObject> &o)
{
    return o ? fieldValue(*o, QStringLiteral("metadata.resourceVersion")) : QString();
}

} // namespace

void ClusterApi::handleWrite(const std::shared_ptr<Context> &ctx, const ResourceType &type)
{
    auto w = std::make_shared<Write>();
    w->ctx = ctx;
    w->type = &type;
    w->ns = type.namespaced ? ctx->trace.info.namespaceName : QString();
    w->method = ctx->request.method;
    w->operation = w->method == "POST"     ? QStringLiteral("CREATE")
                   : w->method == "DELETE" ? QStringLiteral("DELETE")
                                           : QStringLiteral("UPDATE");
    w->now = m_clock.now();
    w->clusterHost = m_options.serverAddress.section(QLatin1Char(':'), 0, -2);
    if (auto refused = decodeWrite(*w)) {
        finish(ctx, refused->response(ctx->pretty));
        return;
    }
    w->decodeWarnings = ctx->warnings;
    if (w->serverSideApply && !m_store.get(type.name, w->ns, ctx->trace.info.name))
        w->operation = QStringLiteral("CREATE"); // an apply creates what does not exist yet
    selectWebhooks(*w);
    if (w->mutating.isEmpty() && w->validating.isEmpty()) {
        persistWrite(w, [this, w]() -> ObjectStore::Outcome {
            if (auto s = prepareWrite(*w))
                return *s;
            if (auto s = admitWrite(*w))
                return *s;
            if (auto s = validateWrite(*w))
                return *s;
            return changesOf(*w);
        });
        return;
    }
    askMutatingWebhooks(w);
}

std::optional<Status> ClusterApi::decodeWrite(Write &w)
{
    const Core::HttpRequest &req = w.ctx->request;
    const ResourceType &type = *w.type;
    const QString dryRun = req.query.queryItemValue(QStringLiteral("dryRun"));
    if (!dryRun.isEmpty()) {
        if (dryRun != QLatin1String("All"))
            return Status::invalid(
                QStringLiteral("meta.k8s.io"),
                w.operation == QLatin1String("CREATE")   ? QStringLiteral("CreateOptions")
                : w.operation == QLatin1String("DELETE") ? QStringLiteral("DeleteOptions")
                                                         : QStringLiteral("UpdateOptions"),
                QString(),
                {Validation::unsupportedCause(QStringLiteral("dryRun[0]"), dryRun,
                                              {QStringLiteral("All")})});
        w.ctx->dryRun = true;
    }
    QString directive = req.query.queryItemValue(QStringLiteral("fieldValidation"));
    if (directive.isEmpty())
        directive = QStringLiteral("Warn");
    if (directive != QLatin1String("Warn") && directive != QLatin1String("Strict") &&
        directive != QLatin1String("Ignore"))
        return Status::badRequest(QStringLiteral("fieldValidation: Unsupported value: "
                                                 "\"%1\": supported values: \"\", "
                                                 "\"Ignore\", \"Strict\", \"Warn\"")
                                      .arg(directive));
    w.directive = directive;
    // Unknown fields never reach the store: refused (Strict), warned about (Warn) or dropped.
    auto dropUnknownFields = [&](QJsonObject &body) {
        const QStringList unknown = pruneUnknownFields(&body, type.apiVersion(), type.kind);
        return fieldValidation(directive, unknown,
                               QStringLiteral("%1 in version \"%2\" cannot be handled as a %1: ")
                                   .arg(type.kind, type.apiVersion()),
                               &w.ctx->warnings);
    };
    if (w.method == "POST" || w.method == "PUT") {
        auto parsed = requestObject(req, true, false);
        if (const auto *st = std::get_if<Status>(&parsed))
            return *st;
        QJsonObject body = std::get<QJsonObject>(parsed);
        const QString apiVersion = body.value(QLatin1String("apiVersion")).toString();
        const QString kind = body.value(QLatin1String("kind")).toString();
        if (!apiVersion.isEmpty() && apiVersion != type.apiVersion())
            return Status::badRequest(QStringLiteral("the API version in the data (%1) does "
                                                     "not match the expected API version (%2)")
                                          .arg(apiVersion, type.apiVersion()));
        if (!kind.isEmpty() && kind != type.kind)
            return Status::badRequest(QStringLiteral("the kind in the data (%1) does not "
                                                     "match the expected kind (%2)")
                                          .arg(kind, type.kind));
        if (!body.value(QLatin1String("metadata")).isUndefined() &&
            !body.value(QLatin1String("metadata")).isObject())
            return Status::badRequest(QStringLiteral("metadata must be an object"));
        if (auto refused = dropUnknownFields(body))
            return refused;
        w.body = body;
    } else if (w.method == "PATCH") {
        const QByteArray contentType = req.header("content-type");
        w.patchType = patchTypeFromContentType(contentType);
        w.serverSideApply =
            contentType.split(';').value(0).trimmed().toLower() == "application/apply-patch+yaml";
        if (!w.patchType && !w.serverSideApply)
            return Status::unsupportedMediaType(
                {QStringLiteral("application/json-patch+json"),
                 QStringLiteral("application/merge-patch+json"),
                 QStringLiteral("application/strategic-merge-patch+json"),
                 QStringLiteral("application/apply-patch+yaml")});
    }
    w.fieldManager = req.query.queryItemValue(QStringLiteral("fieldManager"));
    if (w.fieldManager.size() > 128)
        return Status::invalid(
            QStringLiteral("meta.k8s.io"), QStringLiteral("PatchOptions"), QString(),
            {Validation::invalidCause(QStringLiteral("fieldManager"), w.fieldManager,
                                      QStringLiteral("must be no more than "
                                                     "128 characters"))});
    const QString force = req.query.queryItemValue(QStringLiteral("force"));
    w.force = force == QLatin1String("true") || force == QLatin1String("1");
    if (w.force && !w.serverSideApply)
        return Status::invalid(QStringLiteral("meta.k8s.io"), QStringLiteral("PatchOptions"),
                               QString(),
                               {StatusCause{QStringLiteral("FieldValueInvalid"),
                                            QStringLiteral("Invalid value: true: may not be "
                                                           "specified for non-apply patch"),
                                            QStringLiteral("force")}});
    if (w.serverSideApply) {
        if (w.fieldManager.isEmpty())
            return Status::invalid(QStringLiteral("meta.k8s.io"), QStringLiteral("PatchOptions"),
                                   QString(),
                                   {Validation::requiredCause(QStringLiteral("fieldManager"),
                                                              QStringLiteral("is required for "
                                                                             "apply patch"))});
        auto docs = yamlDocumentsToJson(req.body);
        if (const auto *e = std::get_if<QString>(&docs))
            return Status::badRequest(QStringLiteral("error decoding YAML: ") + *e);
        const QList<QJsonValue> values = std::get<QList<QJsonValue>>(docs);
        if (values.size() != 1 || !values.first().isObject())
            return Status::badRequest(QStringLiteral("an apply patch is one YAML or JSON object"));
        QJsonObject body = values.first().toObject();
        const QString apiVersion = body.value(QLatin1String("apiVersion")).toString();
        const QString kind = body.value(QLatin1String("kind")).toString();
        if (apiVersion != type.apiVersion() || kind != type.kind)
            return Status::badRequest(
                QStringLiteral("the apply patch must be a %1 of %2 (it is a %3 of \"%4\")")
                    .arg(type.kind, type.apiVersion(),
                         kind.isEmpty() ? QStringLiteral("\"\"") : kind, apiVersion));
        const QJsonObject meta = body.value(QLatin1String("metadata")).toObject();
        if (meta.contains(QLatin1String("managedFields")))
            return Status::badRequest(QStringLiteral("metadata.managedFields must be nil"));
        const QString name = meta.value(QLatin1String("name")).toString();
        if (name != w.ctx->trace.info.name)
            return Status::badRequest(QStringLiteral("the name of the object (%1) does not "
                                                     "match the name on the URL (%2)")
                                          .arg(name, w.ctx->trace.info.name));
        if (auto refused = dropUnknownFields(body))
            return refused;
        body.remove(QStringLiteral("apiVersion"));
        body.remove(QStringLiteral("kind"));
        w.body = body;
    } else if (w.fieldManager.isEmpty()) {
        // kube's default manager: the User-Agent's product ("kubectl" of "kubectl/v1.32 ...").
        w.fieldManager = QString::fromUtf8(req.header("user-agent").split('/').value(0)).left(128);
    }
    return std::nullopt;
}

void ClusterApi::selectWebhooks(Write &w)
{
    const ResourceType &type = *w.type;
    // As in kube-apiserver, the webhook configurations themselves are never sent to a
    // webhook: a broken or hostile webhook cannot keep an administrator from removing it.
    if (!w.ctx->webhooks || type.group == QLatin1String("admissionregistration.k8s.io"))
        return;
    WebhookAttributes a;
    a.operation = w.operation;
    a.group = type.group;
    a.version = type.version;
    a.resource = type.name;
    a.subresource = w.ctx->trace.info.subresource;
    a.namespaceName = w.ns;
    const QStringList &plugins = w.ctx->admission->plugins();
    if (plugins.contains(QLatin1String(AdmissionChain::kMutatingWebhook)))
        for (const AdmissionWebhook &h : w.ctx->webhooks->mutating)
            if (matchesRules(h, a))
                w.mutating.append(h);
    if (plugins.contains(QLatin1String(AdmissionChain::kValidatingWebhook)))
        for (const AdmissionWebhook &h : w.ctx->webhooks->validating)
            if (matchesRules(h, a))
                w.validating.append(h);
}

void ClusterApi::keepServerOwned(Write &w, QJsonObject &obj) const
{
    const ResourceType &type = *w.type;
    if (w.current && w.operation != QLatin1String("DELETE")) {
        // What clients may not change: identity, creation, and the other half of a
        // status-bearing object.
        QJsonObject meta = metaOf(obj);
        const QJsonObject oldMeta = metaOf(*w.current);
        for (const char *k : {"uid", "creationTimestamp", "namespace", "deletionTimestamp"}) {
            if (oldMeta.contains(QLatin1String(k)))
                meta.insert(QLatin1String(k), oldMeta.value(QLatin1String(k)));
            else
                meta.remove(QLatin1String(k));
        }
        obj.insert(QStringLiteral("metadata"), meta);
        if (w.ctx->trace.info.subresource == QLatin1String("status")) {
            QJsonObject next = *w.current;
            next.insert(QStringLiteral("status"), obj.value(QLatin1String("status")));
            obj = next;
        } else if (type.hasStatus()) {
            if (w.current->contains(QLatin1String("status")))
                obj.insert(QStringLiteral("status"), w.current->value(QLatin1String("status")));
            else
                obj.remove(QStringLiteral("status"));
        }
    }
    obj.remove(QStringLiteral("kind"));
    obj.remove(QStringLiteral("apiVersion"));
    if (type.namespaced)
        setMeta(obj, QStringLiteral("namespace"), w.ns);
}

std::optional<Status> ClusterApi::prepareWrite(Write &w)
{
    const ResourceType &type = *w.type;
    const RequestInfo &info = w.ctx->trace.info;
    const QByteArray &method = w.method;
    if (method == "DELETE" && info.name.isEmpty())
        return Status::methodNotSupported(QStringLiteral("deletecollection"), type.group,
                                          type.name);
    w.current.reset();
    if (!info.name.isEmpty()) {
        w.current = m_store.get(type.name, w.ns, info.name);
        if (!w.current && !w.serverSideApply)
            return Status::notFound(type.group, type.name, info.name);
    }
    w.operation = w.method == "POST" || (w.serverSideApply && !w.current) ? QStringLiteral("CREATE")
                  : w.method == "DELETE"                                  ? QStringLiteral("DELETE")
                                         : QStringLiteral("UPDATE");
    const google::protobuf::Descriptor *schema = KubeSchemas::forKind(type.apiVersion(), type.kind);
    w.currentVersion = resourceVersionOf(w.current);
    QJsonObject obj;
    QString name = info.name;
    if (method == "POST") {
        obj = w.body;
        QJsonObject meta = metaOf(obj);
        name = meta.value(QLatin1String("name")).toString();
        const QString generate = meta.value(QLatin1String("generateName")).toString();
        if (name.isEmpty() && !generate.isEmpty()) {
            name = generate + generatedSuffix();
            setMeta(obj, QStringLiteral("name"), name);
        }
        const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
        if (type.namespaced && !bodyNs.isEmpty() && bodyNs != w.ns)
            return Status::badRequest(QStringLiteral("the namespace of the provided object "
                                                     "does not match the namespace sent on "
                                                     "the request"));
    } else if (method == "PUT") {
        obj = w.body;
        const QString bodyName = nameOf(obj);
        if (bodyName != info.name && info.subresource != QLatin1String("finalize"))
            return Status::badRequest(QStringLiteral("the name of the object (%1) does not "
                                                     "match the name on the URL (%2)")
                                          .arg(bodyName, info.name));
    } else if (w.serverSideApply) {
        ServerSideApply::Request r{w.fieldManager, w.force,   type.apiVersion(), w.now,
                                   type.group,     type.name, info.name};
        auto applied = ServerSideApply::apply(w.current.value_or(QJsonObject()), w.body, schema, r);
        if (const auto *s = std::get_if<Status>(&applied))
            return *s;
        obj = std::get<QJsonObject>(applied);
    } else if (method == "PATCH") {
        auto patched = applyPatch(*w.patchType, *w.current, w.ctx->request.body);
        if (const auto *e = std::get_if<PatchError>(&patched)) {
            if (e->status == 422) {
                Status s;
                s.code = 422;
                s.reason = QStringLiteral("Invalid");
                s.message = e->message;
                return s;
            }
            return Status::badRequest(e->message);
        }
        obj = std::get<QJsonObject>(patched);
        // Only what this patch brings in counts (an object stored before may hold more).
        QJsonObject before = *w.current;
        const QStringList known = pruneUnknownFields(&before, type.apiVersion(), type.kind);
        QStringList unknown = pruneUnknownFields(&obj, type.apiVersion(), type.kind);
        unknown.removeIf([&known](const QString &p) { return known.contains(p); });
        if (auto refused = fieldValidation(w.directive, unknown, QString(), &w.ctx->warnings))
            return refused;
        if (nameOf(obj) != info.name)
            return Status::badRequest(QStringLiteral("the name of the object (%1) does not "
                                                     "match the name on the URL (%2)")
                                          .arg(nameOf(obj), info.name));
    } else {
        obj = *w.current;
    }
    if (w.current && method != "DELETE") {
        const QString wanted = fieldValue(obj, QStringLiteral("metadata.resourceVersion"));
        if (!wanted.isEmpty() && wanted != w.currentVersion)
            return Status::staleResourceVersion(type.group, type.name, info.name);
        // Field ownership, for objects that have been applied: what this write changed is now
        // its manager's.
        if (!w.serverSideApply && info.subresource.isEmpty())
            obj = ServerSideApply::trackUpdate(*w.current, obj, schema, w.fieldManager,
                                               type.apiVersion(), w.now);
    }
    keepServerOwned(w, obj);
    // kube's defaulting on decode: a Service without a type is a ClusterIP service.
    if (type.name == QLatin1String("services") && method != "DELETE" &&
        info.subresource.isEmpty()) {
        QJsonObject spec = obj.value(QLatin1String("spec")).toObject();
        if (spec.value(QLatin1String("type")).toString().isEmpty()) {
            spec.insert(QStringLiteral("type"), QStringLiteral("ClusterIP"));
            obj.insert(QStringLiteral("spec"), spec);
        }
    }
    if (type.group == QLatin1String("admissionregistration.k8s.io"))
        defaultWebhookConfiguration(obj, type.name.startsWith(QLatin1String("mutating")));
    // Built-in mutating admission (ServiceAccount) comes before the mutating webhooks.
    if (w.operation == QLatin1String("CREATE"))
        w.ctx->admission->mutate(
            AdmissionRequest{w.operation, w.ctx->attributes, name, QJsonObject(), obj}, obj);
    w.name = name;
    w.object = obj;
    return std::nullopt;
}

void ClusterApi::recordAdmissionDenied(const Write &w, const QString &message)
{
    if (w.ctx->dryRun)
        return;
    const ResourceType &type = *w.type;
    QJsonObject involved{{QStringLiteral("kind"), type.kind},
                         {QStringLiteral("name"), w.name},
                         {QStringLiteral("apiVersion"), type.apiVersion()}};
    if (type.namespaced)
        involved.insert(QStringLiteral("namespace"), w.ns);
    if (w.current)
        involved.insert(QStringLiteral("uid"),
                        fieldValue(*w.current, QStringLiteral("metadata.uid")));
    recordEvent({QStringLiteral("Warning"), QStringLiteral("AdmissionDenied"),
                 QStringLiteral("%1 by %2 denied: %3")
                     .arg(w.operation.toLower(), w.ctx->attributes.user.name, message),
                 involved});
}

std::optional<Status> ClusterApi::admitWrite(Write &w)
{
    RequestTrace &trace = w.ctx->trace;
    const AdmissionRequest ar{w.operation, w.ctx->attributes, w.name,
                              w.current.value_or(QJsonObject()), w.object};
    trace.admission = w.ctx->admission->admit(ar);
    if (trace.admission->allowed)
        return std::nullopt;
    recordAdmissionDenied(w, trace.admission->status.message);
    return trace.admission->status;
}

std::optional<Status> ClusterApi::validateWrite(Write &w)
{
    const ResourceType &type = *w.type;
    const std::shared_ptr<Context> &ctx = w.ctx;
    RequestTrace &trace = ctx->trace;
    const Attributes &attrs = ctx->attributes;
    const QString &ns = w.ns;
    const QString &name = w.name;
    const std::optional<QJsonObject> &current = w.current;
    QJsonObject &obj = w.object;
    if (w.operation == QLatin1String("DELETE"))
        return std::nullopt;
    if (type.name == QLatin1String("services") && current) {
        // Leaving NodePort: node ports carried over unchanged are dropped, not refused
        // (kube-apiserver's dropTypeDependentFields).
        QJsonObject spec = obj.value(QLatin1String("spec")).toObject();
        const QString t = spec.value(QLatin1String("type")).toString();
        if (t != QLatin1String("NodePort") && t != QLatin1String("LoadBalancer")) {
            const QJsonArray oldPorts = current->value(QLatin1String("spec"))
                                            .toObject()
                                            .value(QLatin1String("ports"))
                                            .toArray();
            QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
            for (int i = 0; i < ports.size(); ++i) {
                QJsonObject p = ports[i].toObject();
                const QJsonValue np = p.value(QLatin1String("nodePort"));
                for (const QJsonValue o : oldPorts)
                    if (o.toObject().value(QLatin1String("port")) ==
                            p.value(QLatin1String("port")) &&
                        o.toObject().value(QLatin1String("nodePort")) == np)
                        p.remove(QStringLiteral("nodePort"));
                ports[i] = p;
            }
            spec.insert(QStringLiteral("ports"), ports);
            obj.insert(QStringLiteral("spec"), spec);
        }
    }
    QList<StatusCause> causes = Validation::objectMeta(obj, type.name);
    causes += Validation::object(type.name, obj);
    if (type.group == QLatin1String("admissionregistration.k8s.io"))
        causes +=
            validateWebhookConfiguration(obj, type.name.startsWith(QLatin1String("mutating")));
    if (type.name == QLatin1String("services")) {
        // Node ports: allocate the missing ones, refuse one already taken.
        QJsonObject spec = obj.value(QLatin1String("spec")).toObject();
        if (!spec.contains(QLatin1String("type")))
            spec.insert(QStringLiteral("type"), QStringLiteral("ClusterIP"));
        const QString svcType = spec.value(QLatin1String("type")).toString();
        const bool wantsNodePorts =
            svcType == QLatin1String("NodePort") || svcType == QLatin1String("LoadBalancer");
        QSet<int> used = usedNodePorts(m_store, ns, name);
        QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
        for (int i = 0; i < ports.size(); ++i) {
            QJsonObject p = ports[i].toObject();
            if (!p.contains(QLatin1String("protocol")))
                p.insert(QStringLiteral("protocol"), QStringLiteral("TCP"));
            if (!p.contains(QLatin1String("targetPort")))
                p.insert(QStringLiteral("targetPort"), p.value(QLatin1String("port")));
            int np = p.value(QLatin1String("nodePort")).toInt();
            if (!wantsNodePorts) {
                p.remove(QStringLiteral("nodePort"));
            } else if (np == 0) {
                for (int tries = 0; tries < 200 && np == 0; ++tries) {
                    const int candidate = 30000 + int(QRandomGenerator::global()->bounded(2768));
                    if (!used.contains(candidate) && portBindable(w.clusterHost, candidate))
                        np = candidate;
                }
                p.insert(QStringLiteral("nodePort"), np);
            } else if (used.contains(np)) {
                causes.append(StatusCause{
                    QStringLiteral("FieldValueInvalid"),
                    QStringLiteral("Invalid value: %1: provided port is already allocated").arg(np),
                    QStringLiteral("spec.ports[%1].nodePort").arg(i)});
            }
            used.insert(np);
            ports[i] = p;
        }
        spec.insert(QStringLiteral("ports"), ports);
        if (svcType != QLatin1String("ExternalName") &&
            spec.value(QLatin1String("clusterIP")).toString().isEmpty()) {
            const QString ip = current ? fieldValue(*current, QStringLiteral("spec.clusterIP"))
                                       : nextClusterIp(m_store);
            spec.insert(QStringLiteral("clusterIP"), ip);
            spec.insert(QStringLiteral("clusterIPs"), QJsonArray{ip});
        }
        if (!spec.contains(QLatin1String("sessionAffinity")))
            spec.insert(QStringLiteral("sessionAffinity"), QStringLiteral("None"));
        obj.insert(QStringLiteral("spec"), spec);
    }
    if (!causes.isEmpty()) {
        trace.validation = causes;
        return Status::invalid(type.group, type.kind, name, causes);
    }
    trace.validation.clear();
    // Escalation prevention: nobody grants what they do not hold, unless allowed to
    // escalate (roles) or bind (bindings).
    if (type.group == QLatin1String("rbac.authorization.k8s.io") &&
        !attrs.user.groups.contains(QLatin1String(kMastersGroup))) {
        const RbacPolicy &policy = ctx->authorizer->rbac();
        const bool isBinding = type.name.endsWith(QLatin1String("bindings"));
        Attributes check = attrs;
        check.resourceRequest = true;
        check.apiGroup = type.group;
        check.subresource.clear();
        QList<PolicyRule> wanted;
        if (isBinding) {
            const RbacBinding b = bindingFromJson(obj);
            check.verb = QStringLiteral("bind");
            check.resource = b.roleRef.kind == QLatin1String("Role")
                                 ? QStringLiteral("roles")
                                 : QStringLiteral("clusterroles");
            check.name = b.roleRef.name;
            const RbacRole *role = policy.roleFor(b.roleRef, ns);
            if (!role && !ctx->authorizer->authorize(check).allowed())
                return Status::notFound(type.group, check.resource, b.roleRef.name);
            if (role)
                wanted = role->rules;
        } else {
            check.verb = QStringLiteral("escalate");
            check.resource = type.name;
            check.name = name;
            wanted = roleFromJson(obj).rules;
        }
        if (!ctx->authorizer->authorize(check).allowed()) {
            QList<PolicyRule> missing;
            if (!rulesCover(policy.rulesFor(attrs.user, ns), wanted, &missing)) {
                QStringList lines;
                for (const PolicyRule &r : std::as_const(missing))
                    lines.append(goRule(r));
                return Status::forbidden(
                    type.group, type.name, name,
                    QStringLiteral("user \"%1\" (groups=%2) is attempting to grant RBAC "
                                   "permissions not currently held:\n%3")
                        .arg(attrs.user.name, quotedList(attrs.user.groups),
                             lines.join(QLatin1Char('\n'))));
            }
        }
    }
    // A binding's roleRef is immutable (kube's ValidateRoleBindingUpdate): changing which
    // role a binding grants would re-target every subject in it at once. Checked after
    // escalation prevention, in kube-apiserver's order.
    if (current && type.name.endsWith(QLatin1String("bindings")) &&
        type.group == QLatin1String("rbac.authorization.k8s.io")) {
        const QJsonObject was = current->value(QLatin1String("roleRef")).toObject();
        const QJsonObject ref = obj.value(QLatin1String("roleRef")).toObject();
        auto field = [](const QJsonObject &o, const char *k) {
            return o.value(QLatin1String(k)).toString();
        };
        if (field(was, "apiGroup") != field(ref, "apiGroup") ||
            field(was, "kind") != field(ref, "kind") || field(was, "name") != field(ref, "name")) {
            const QList<StatusCause> roleRef{StatusCause{
                QStringLiteral("FieldValueInvalid"),
                QStringLiteral("Invalid value: rbac.RoleRef{APIGroup:\"%1\", Kind:\"%2\", "
                               "Name:\"%3\"}: cannot change roleRef")
                    .arg(field(ref, "apiGroup"), field(ref, "kind"), field(ref, "name")),
                QStringLiteral("roleRef")}};
            trace.validation = roleRef;
            return Status::invalid(type.group, type.kind, name, roleRef);
        }
    }
    return std::nullopt;
}

ObjectStore::Outcome ClusterApi::changesOf(Write &w)
{
    const ResourceType &type = *w.type;
    const QString &ns = w.ns;
    const QString &name = w.name;
    const QDateTime &now = w.now;
    QJsonObject obj = w.object;
    QList<ObjectChange> changes;
    if (w.operation == QLatin1String("CREATE")) {
        if (m_store.get(type.name, ns, name))
            return Status::alreadyExists(type.group, type.name, name);
        setMeta(obj, QStringLiteral("uid"), Crypto::Random::uuid());
        setMeta(obj, QStringLiteral("creationTimestamp"), timestamp(now));
        setMeta(obj, QStringLiteral("resourceVersion"), QJsonValue::Undefined);
        if (type.name == QLatin1String("namespaces")) {
            QJsonObject spec = obj.value(QLatin1String("spec")).toObject();
            if (!spec.contains(QLatin1String("finalizers")))
                spec.insert(QStringLiteral("finalizers"), QJsonArray{QStringLiteral("kubernetes")});
            obj.insert(QStringLiteral("spec"), spec);
            obj.insert(QStringLiteral("status"),
                       QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}});
            QJsonObject labels = metaOf(obj).value(QLatin1String("labels")).toObject();
            labels.insert(QStringLiteral("kubernetes.io/metadata.name"), name);
            setMeta(obj, QStringLiteral("labels"), labels);
            // The service-account controller's part: a default account in each namespace.
            QJsonObject sa{{QStringLiteral("metadata"),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("default")},
                                        {QStringLiteral("namespace"), name},
                                        {QStringLiteral("uid"), Crypto::Random::uuid()},
                                        {QStringLiteral("creationTimestamp"), timestamp(now)}}},
                           {QStringLiteral("automountServiceAccountToken"), false}};
            changes.append(ObjectChange{ObjectChange::Kind::Added,
                                        QStringLiteral("serviceaccounts"), name,
                                        QStringLiteral("default"), sa});
        } else if (type.name == QLatin1String("serviceaccounts")) {
            if (!obj.contains(QLatin1String("automountServiceAccountToken")))
                obj.insert(QStringLiteral("automountServiceAccountToken"), false);
        } else if (type.name == QLatin1String("pods")) {
            const QString node = fieldValue(obj, QStringLiteral("spec.nodeName"));
            QJsonObject status = obj.value(QLatin1String("status")).toObject();
            status.insert(QStringLiteral("phase"),
                          node.isEmpty() ? QStringLiteral("Pending") : QStringLiteral("Running"));
            if (!node.isEmpty()) {
                const QByteArray r = Crypto::Random::token(4).toLatin1();
                status.insert(QStringLiteral("podIP"), QStringLiteral("10.244.%1.%2")
                                                           .arg(uchar(r[0]) % 250)
                                                           .arg(uchar(r[1]) % 250 + 2));
                status.insert(QStringLiteral("startTime"), timestamp(now));
            }
            obj.insert(QStringLiteral("status"), status);
        } else if (type.name == QLatin1String("services")) {
            obj.insert(QStringLiteral("status"),
                       QJsonObject{{QStringLiteral("loadBalancer"), QJsonObject()}});
        }
        changes.prepend(ObjectChange{ObjectChange::Kind::Added, type.name, ns, name, obj});
        return changes;
    }
    if (w.operation == QLatin1String("DELETE")) {
        const QJsonArray finalizers = metaOf(obj).value(QLatin1String("finalizers")).toArray();
        if (type.name == QLatin1String("namespaces")) {
            // Terminating: the namespace controller's part removes what it holds, then the
            // namespace itself once no metadata finalizer holds it.
            if (!metaOf(obj).contains(QLatin1String("deletionTimestamp")))
                setMeta(obj, QStringLiteral("deletionTimestamp"), timestamp(now));
            obj.insert(QStringLiteral("status"),
                       QJsonObject{{QStringLiteral("phase"), QStringLiteral("Terminating")}});
            for (const ResourceType &t : servedResources()) {
                if (!t.namespaced || !t.stored)
                    continue;
                auto page = m_store.list(t.name, name, {}, 0, QString());
                for (const QJsonObject &o : std::get<ObjectStore::Page>(page).items)
                    changes.append(
                        ObjectChange{ObjectChange::Kind::Deleted, t.name, name, nameOf(o), o});
            }
            changes.append(ObjectChange{finalizers.isEmpty() ? ObjectChange::Kind::Deleted
                                                             : ObjectChange::Kind::Modified,
                                        type.name, ns, name, obj});
            return changes;
        }
        if (!finalizers.isEmpty()) {
            if (!metaOf(obj).contains(QLatin1String("deletionTimestamp")))
                setMeta(obj, QStringLiteral("deletionTimestamp"), timestamp(now));
            return QList<ObjectChange>{
                ObjectChange{ObjectChange::Kind::Modified, type.name, ns, name, obj}};
        }
        return QList<ObjectChange>{
            ObjectChange{ObjectChange::Kind::Deleted, type.name, ns, name, obj}};
    }
    // An object being deleted goes once its last finalizer is removed.
    const bool deleting = metaOf(obj).contains(QLatin1String("deletionTimestamp"));
    const bool released = metaOf(obj).value(QLatin1String("finalizers")).toArray().isEmpty();
    return QList<ObjectChange>{ObjectChange{deleting && released ? ObjectChange::Kind::Deleted
                                                                 : ObjectChange::Kind::Modified,
                                            type.name, ns, name, obj}};
}

void ClusterApi::persistWrite(const std::shared_ptr<Write> &w, const ObjectStore::Compute &compute)
{
    auto done = [this, w](const ObjectStore::Outcome &o) { finishWrite(w, o); };
    if (w->ctx->dryRun) {
        done(m_store.dryRun(compute));
        return;
    }
    m_store.commit(compute, done);
}

void ClusterApi::finishWrite(const std::shared_ptr<Write> &w, const ObjectStore::Outcome &o)
{
    const std::shared_ptr<Context> &ctx = w->ctx;
    if (w->conflicted) {
        w->conflicted = false;
        if (++w->attempts < kWriteAttempts) {
            askMutatingWebhooks(w);
            return;
        }
        finish(ctx, Status::staleResourceVersion(w->type->group, w->type->name, w->name)
                        .response(ctx->pretty));
        return;
    }
    // The admission verdict as a whole: mutating webhooks, the built-in plugins, then the
    // validating webhooks, in the order they were asked.
    if (!w->mutatingSteps.isEmpty() || !w->validatingSteps.isEmpty() || w->webhookDenial) {
        AdmissionVerdict v = ctx->trace.admission.value_or(AdmissionVerdict());
        v.steps = w->mutatingSteps + v.steps + w->validatingSteps;
        if (w->webhookDenial) {
            v.allowed = false;
            v.plugin =
                QLatin1String(w->webhookDenial->mutating ? AdmissionChain::kMutatingWebhook
                                                         : AdmissionChain::kValidatingWebhook);
            v.webhook = w->webhookDenial->webhook;
            v.status = w->webhookDenial->status;
        }
        ctx->trace.admission = v;
    }
    if (const auto *s = std::get_if<Status>(&o)) {
        finish(ctx, s->response(ctx->pretty));
        return;
    }
    const QList<ObjectChange> &changes = std::get<QList<ObjectChange>>(o);
    if (!ctx->dryRun)
        for (const ObjectChange &c : changes)
            if (c.resource == QLatin1String("nodes"))
                recordLabelChange(c, ctx->attributes.user.name);
    const QString &urlName = ctx->trace.info.name;
    QJsonObject result;
    for (const ObjectChange &c : changes)
        if (c.resource == w->type->name && (urlName.isEmpty() || c.name == urlName))
            result = c.object;
    if (result.isEmpty() && !changes.isEmpty())
        result = changes.first().object;
    const int successCode = w->operation == QLatin1String("CREATE") ? 201 : 200;
    finish(ctx, typedResponse(ctx->request, successCode, typed(*w->type, result), ctx->pretty));
}

WebhookAttributes ClusterApi::webhookAttributes(const Write &w) const
{
    const ResourceType &type = *w.type;
    WebhookAttributes a;
    a.operation = w.operation;
    a.group = type.group;
    a.version = type.version;
    a.resource = type.name;
    a.subresource = w.ctx->trace.info.subresource;
    a.kind = type.kind;
    a.namespaceName = w.ns;
    a.name = w.name;
    if (w.operation != QLatin1String("DELETE"))
        a.object = typed(type, w.object);
    if (w.current)
        a.oldObject = typed(type, *w.current);
    if (type.group.isEmpty() && type.name == QLatin1String("namespaces")) {
        a.namespaceLabels = metaOf(a.object.isEmpty() ? a.oldObject : a.object)
                                .value(QLatin1String("labels"))
                                .toObject();
    } else if (!w.ns.isEmpty()) {
        if (const auto n = m_store.get(QStringLiteral("namespaces"), QString(), w.ns))
            a.namespaceLabels = metaOf(*n).value(QLatin1String("labels")).toObject();
    }
    a.user = w.ctx->attributes.user;
    a.dryRun = w.ctx->dryRun;
    return a;
}

void ClusterApi::askMutatingWebhooks(const std::shared_ptr<Write> &w)
{
    w->ctx->warnings = w->decodeWarnings;
    w->mutatingSteps.clear();
    w->validatingSteps.clear();
    w->webhookDenial.reset();
    w->mutatingPlan.clear();
    for (int i = 0; i < w->mutating.size(); ++i)
        w->mutatingPlan.append(i);
    w->askedIfNeeded.clear();
    w->lastChanged = -1;
    w->reinvoked = false;
    std::optional<Status> refused;
    m_store.dryRun([&]() -> ObjectStore::Outcome {
        refused = prepareWrite(*w);
        return QList<ObjectChange>();
    });
    if (refused) {
        finishWrite(w, *refused);
        return;
    }
    mutateWithWebhook(w, 0);
}

void ClusterApi::mutateWithWebhook(const std::shared_ptr<Write> &w, int position)
{
    const WebhookAttributes a = webhookAttributes(*w);
    for (;; ++position) {
        if (position >= w->mutatingPlan.size()) {
            // reinvocationPolicy IfNeeded: asked once more when a later webhook changed the
            // object after it (kube-apiserver's single reinvocation).
            if (!w->reinvoked) {
                w->reinvoked = true;
                for (const int i : std::as_const(w->askedIfNeeded))
                    if (i < w->lastChanged)
                        w->mutatingPlan.append(i);
                if (position < w->mutatingPlan.size()) {
                    --position;
                    continue;
                }
            }
            askValidatingWebhooks(w);
            return;
        }
        if (matches(w->mutating[w->mutatingPlan[position]], a))
            break;
    }
    const int index = w->mutatingPlan[position];
    m_webhookCaller->call(w->mutating[index], a, [this, w, index, position](WebhookAnswer answer) {
        w->ctx->warnings += answer.warnings;
        if (answer.allowed && !answer.patch.isEmpty()) {
            const QJsonObject before = w->object;
            if (auto refused = applyWebhookPatch(*w, answer.webhook, answer.patch)) {
                answer.allowed = false;
                answer.callFailed = true;
                answer.error = refused->message;
                answer.status = *refused;
            } else if (w->object != before) {
                w->lastChanged = index;
            }
        }
        if (!w->reinvoked && w->mutating[index].reinvokeIfNeeded)
            w->askedIfNeeded.append(index);
        w->mutatingSteps.append(answer.step());
        if (!answer.allowed) {
            denyByWebhook(w, answer);
            return;
        }
        mutateWithWebhook(w, position + 1);
    });
}

std::optional<Status> ClusterApi::applyWebhookPatch(Write &w, const QString &webhook,
                                                    const QByteArray &patch)
{
    const QJsonObject before = typed(*w.type, w.object);
    auto patched = applyPatch(PatchType::Json, before, patch);
    if (const auto *e = std::get_if<PatchError>(&patched))
        return Status::internalError(
            QStringLiteral("admission webhook \"%1\" returned a patch that cannot be applied: %2")
                .arg(webhook, e->message));
    QJsonObject obj = std::get<QJsonObject>(patched);
    if (obj.value(QLatin1String("apiVersion")) != before.value(QLatin1String("apiVersion")) ||
        obj.value(QLatin1String("kind")) != before.value(QLatin1String("kind")))
        return Status::internalError(
            QStringLiteral("admission webhook \"%1\" changed the object's apiVersion or kind")
                .arg(webhook));
    if (nameOf(obj) != w.name)
        return Status::internalError(
            QStringLiteral("admission webhook \"%1\" changed metadata.name").arg(webhook));
    keepServerOwned(w, obj);
    w.object = obj;
    return std::nullopt;
}

void ClusterApi::askValidatingWebhooks(const std::shared_ptr<Write> &w)
{
    // Built-in admission and validation on the state of the moment (they are run again
    // when the write is persisted, should that state have moved on).
    std::optional<Status> refused;
    m_store.dryRun([&]() -> ObjectStore::Outcome {
        if (w->current &&
            resourceVersionOf(m_store.get(w->type->name, w->ns, w->name)) != w->currentVersion) {
            w->conflicted = true;
            refused = Status();
            return QList<ObjectChange>();
        }
        refused = admitWrite(*w);
        if (!refused)
            refused = validateWrite(*w);
        return QList<ObjectChange>();
    });
    if (refused) {
        finishWrite(w, *refused);
        return;
    }
    const WebhookAttributes a = webhookAttributes(*w);
    QList<AdmissionWebhook> asked;
    for (const AdmissionWebhook &h : std::as_const(w->validating))
        if (matches(h, a))
            asked.append(h);
    if (asked.isEmpty()) {
        commitAfterWebhooks(w);
        return;
    }
    // Side by side, as kube-apiserver asks them; answers are taken in configuration order.
    // Every callback runs on the webhook caller's thread, one at a time.
    struct Pending
    {
        QList<std::optional<WebhookAnswer>> answers;
        int left = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->answers.resize(asked.size());
    pending->left = int(asked.size());
    for (int i = 0; i < asked.size(); ++i)
        m_webhookCaller->call(asked[i], a, [this, w, pending, i](WebhookAnswer answer) {
            pending->answers[i] = std::move(answer);
            if (--pending->left > 0)
                return;
            std::optional<WebhookAnswer> denial;
            for (const std::optional<WebhookAnswer> &x : std::as_const(pending->answers)) {
                w->validatingSteps.append(x->step());
                w->ctx->warnings += x->warnings;
                if (!x->allowed && !denial)
                    denial = *x;
            }
            if (denial) {
                denyByWebhook(w, *denial);
                return;
            }
            commitAfterWebhooks(w);
        });
}

void ClusterApi::denyByWebhook(const std::shared_ptr<Write> &w, const WebhookAnswer &answer)
{
    w->webhookDenial = answer;
    recordAdmissionDenied(*w, answer.status.message);
    finishWrite(w, answer.status);
}

void ClusterApi::commitAfterWebhooks(const std::shared_ptr<Write> &w)
{
    persistWrite(w, [this, w]() -> ObjectStore::Outcome {
        if (w->current) {
            const std::optional<QJsonObject> now = m_store.get(w->type->name, w->ns, w->name);
            if (!now)
                return Status::notFound(w->type->group, w->type->name, w->name);
            if (resourceVersionOf(now) != w->currentVersion) {
                w->conflicted = true;
                return Status();
            }
        }
        // The cluster's state may have moved on while the webhooks answered (a policy, a
        // namespace): the built-in checks are cheap, and asked again on what is stored now.
        if (auto s = admitWrite(*w))
            return *s;
        if (auto s = validateWrite(*w))
            return *s;
        return changesOf(*w);
    });
}

void ClusterApi::handleWatch(const std::shared_ptr<Context> &ctx, const ResourceType &type,
                             std::function<bool(const QJsonObject &)> matches)
{
    const Core::HttpRequest &req = ctx->request;
    const RequestInfo &info = ctx->trace.info;
    const QUrlQuery &q = req.query;
    WatchOptions options;
    options.resource = type.name;
    options.namespaceName = type.namespaced ? info.namespaceName : QString();
    options.name = info.name;
    options.matches = std::move(matches);
    const QString rv = q.queryItemValue(QStringLiteral("resourceVersion"));
    if (!rv.isEmpty() && rv != QLatin1String("0")) {
        bool ok = false;
        const qint64 n = rv.toLongLong(&ok);
        if (!ok || n < 0) {
            finish(ctx, Status::badRequest(QStringLiteral("invalid resource version: %1").arg(rv))
                            .response(ctx->pretty));
            return;
        }
        options.since = n;
    }
    options.bookmarks =
        q.queryItemValue(QStringLiteral("allowWatchBookmarks")) == QLatin1String("true");
    options.sendInitialEvents =
        q.queryItemValue(QStringLiteral("sendInitialEvents")) == QLatin1String("true");
    if (q.hasQueryItem(QStringLiteral("sendInitialEvents"))) {
        // kube's ListOptions validation for streaming lists.
        QStringList errors;
        if (q.queryItemValue(QStringLiteral("resourceVersionMatch")) !=
            QLatin1String("NotOlderThan"))
            errors.append(
                QStringLiteral("resourceVersionMatch: Forbidden: sendInitialEvents requires "
                               "setting resourceVersionMatch to NotOlderThan"));
        if (!options.bookmarks)
            errors.append(QStringLiteral("allowWatchBookmarks: Required value: sendInitialEvents "
                                         "requires allowWatchBookmarks=true"));
        if (!errors.isEmpty()) {
            Status s;
            s.code = 422;
            s.reason = QStringLiteral("Invalid");
            s.message = QStringLiteral("ListOptions.meta.k8s.io \"\" is invalid: ") +
                        (errors.size() == 1 ? errors.first()
                                            : QLatin1Char('[') + errors.join(QStringLiteral(", ")) +
                                                  QLatin1Char(']'));
            finish(ctx, s.response(ctx->pretty));
            return;
        }
        if (rv.isEmpty())
            options.since.reset(); // "" with sendInitialEvents: the current state first
    }
    const QString timeout = q.queryItemValue(QStringLiteral("timeoutSeconds"));
    if (!timeout.isEmpty()) {
        bool ok = false;
        options.timeoutSeconds = timeout.toInt(&ok);
        if (!ok || options.timeoutSeconds < 0) {
            finish(ctx,
                   Status::badRequest(QStringLiteral("invalid timeoutSeconds: %1").arg(timeout))
                       .response(ctx->pretty));
            return;
        }
    }
    const bool table = wantsTable(req.header("accept"));
    Core::Clock *clock = &m_clock;
    options.encode = [type, table, clock](const WatchEvent &e) {
        QJsonObject object;
        if (e.type == QLatin1String("ERROR"))
            object = e.object;
        else if (table && e.type != QLatin1String("BOOKMARK"))
            object = tableFor(type, {e.object},
                              fieldValue(e.object, QStringLiteral("metadata.resourceVersion")),
                              QString(), clock->now().toMSecsSinceEpoch());
        else
            object = typed(type, e.object);
        QByteArray line = JsonWriter::encode(
            QJsonObject{{QStringLiteral("type"), e.type}, {QStringLiteral("object"), object}},
            false);
        line.append('\n');
        return line;
    };
    options.encoding = (table ? QStringLiteral("table:") : QStringLiteral("json:")) +
                       type.apiVersion() + QLatin1Char('/') + type.name;
    Core::HttpResponse r;
    r.setHeader("Content-Type", "application/json");
    WatchHub *hub = &m_watch;
    r.stream = [hub, options](Core::HttpStream *stream) { hub->start(stream, options); };
    finish(ctx, std::move(r));
}

void ClusterApi::handleTokenRequest(const std::shared_ptr<Context> &ctx)
{
    const RequestInfo &info = ctx->trace.info;
    const bool pretty = ctx->pretty;
    auto parsed = requestObject(ctx->request, true, true);
    if (const auto *st = std::get_if<Status>(&parsed)) {
        finish(ctx, st->response(pretty));
        return;
    }
    const QJsonObject spec = std::get<QJsonObject>(parsed).value(QLatin1String("spec")).toObject();
    const std::optional<QJsonObject> account =
        m_store.get(QStringLiteral("serviceaccounts"), info.namespaceName, info.name);
    if (!account) {
        finish(ctx, Status::notFound(QString(), QStringLiteral("serviceaccounts"), info.name)
                        .response(pretty));
        return;
    }
    const qint64 seconds = spec.contains(QLatin1String("expirationSeconds"))
                               ? Core::jsonSeconds(spec.value(QLatin1String("expirationSeconds")))
                               : 3600;
    if (seconds < 600 || seconds > 48 * 3600) {
        finish(ctx,
               Status::invalid(QStringLiteral("authentication.k8s.io"),
                               QStringLiteral("TokenRequest"), info.name,
                               {StatusCause{QStringLiteral("FieldValueInvalid"),
                                            QStringLiteral("Invalid value: %1: may not specify "
                                                           "a duration less than 10 minutes "
                                                           "or more than 48 hours")
                                                .arg(seconds),
                                            QStringLiteral("spec.expirationSeconds")}})
                   .response(pretty));
        return;
    }
    if (!m_serviceAccounts) {
        finish(ctx,
               Status::internalError(QStringLiteral("service account tokens are not configured"))
                   .response(pretty));
        return;
    }
    const QStringList audiences = toStrings(spec.value(QLatin1String("audiences")));
    auto token = m_serviceAccounts->issue(info.namespaceName, info.name,
                                          fieldValue(*account, QStringLiteral("metadata.uid")),
                                          seconds, audiences);
    if (!token) {
        finish(ctx, Status::internalError(token.error().message).response(pretty));
        return;
    }
    QJsonObject outSpec{
        {QStringLiteral("audiences"),
         QJsonArray::fromStringList(
             audiences.isEmpty() ? QStringList{QString::fromLatin1(ServiceAccountTokens::kIssuer)}
                                 : audiences)},
        {QStringLiteral("expirationSeconds"), seconds},
        {QStringLiteral("boundObjectRef"), QJsonValue::Null}};
    finish(ctx,
           typedResponse(
               ctx->request, 201,
               QJsonObject{
                   {QStringLiteral("kind"), QStringLiteral("TokenRequest")},
                   {QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/v1")},
                   {QStringLiteral("metadata"),
                    QJsonObject{{QStringLiteral("name"), info.name},
                                {QStringLiteral("namespace"), info.namespaceName},
                                {QStringLiteral("creationTimestamp"), timestamp(m_clock.now())}}},
                   {QStringLiteral("spec"), outSpec},
                   {QStringLiteral("status"), *token}},
               pretty));
}

void ClusterApi::handleReview(const std::shared_ptr<Context> &ctx, const ResourceType &type)
{
    const Core::HttpRequest &req = ctx->request;
    const bool pretty = ctx->pretty;
    auto parsed = requestObject(req, true, false);
    if (const auto *st = std::get_if<Status>(&parsed)) {
        finish(ctx, st->response(pretty));
        return;
    }
    const QJsonObject body = std::get<QJsonObject>(parsed);
    // The Python client sends neither apiVersion nor kind: the URL tells.
    const QString kind = body.value(QLatin1String("kind")).toString();
    if (!kind.isEmpty() && kind != type.kind) {
        finish(ctx, Status::badRequest(QStringLiteral("the kind in the data (%1) does not match "
                                                      "the expected kind (%2)")
                                           .arg(kind, type.kind))
                        .response(pretty));
        return;
    }
    QJsonObject spec = body.value(QLatin1String("spec")).toObject();
    const UserInfo &self = ctx->attributes.user;
    auto invalid = [&](const QString &field, const QString &message) {
        finish(ctx,
               Status::invalid(type.group, type.kind, QString(),
                               {StatusCause{QStringLiteral("FieldValueInvalid"), message, field}})
                   .response(pretty));
    };
    if (!metaOf(body).isEmpty() &&
        !(metaOf(body).size() == 1 &&
          metaOf(body).value(QLatin1String("creationTimestamp")).isNull())) {
        invalid(QStringLiteral("metadata"),
                QStringLiteral("Invalid value: %1: must be empty")
                    .arg(QString::fromUtf8(
                        QJsonDocument(metaOf(body)).toJson(QJsonDocument::Compact))));
        return;
    }
    QJsonObject status;
    const QString name = type.name;
    if (name.endsWith(QLatin1String("subjectaccessreviews"))) {
        const bool hasRes = spec.value(QLatin1String("resourceAttributes")).isObject();
        const bool hasNonRes = spec.value(QLatin1String("nonResourceAttributes")).isObject();
        if (hasRes == hasNonRes) {
            if (!hasRes)
                invalid(
                    QStringLiteral("spec.resourceAttributes"),
                    QStringLiteral("Invalid value: \"null\": exactly one of nonResourceAttributes "
                                   "or resourceAttributes must be specified"));
            else
                invalid(QStringLiteral("spec.nonResourceAttributes"),
                        QStringLiteral("Invalid value: \"{}\": cannot be specified in combination "
                                       "with resourceAttributes"));
            return;
        }
        Attributes a;
        if (name == QLatin1String("selfsubjectaccessreviews")) {
            a.user = self;
        } else {
            a.user.name = spec.value(QLatin1String("user")).toString();
            a.user.groups = toStrings(spec.value(QLatin1String("groups")));
            a.user.uid = spec.value(QLatin1String("uid")).toString();
            if (a.user.name.isEmpty() && a.user.groups.isEmpty()) {
                invalid(QStringLiteral("spec.user"),
                        QStringLiteral("Invalid value: \"\": at least one of user or group must "
                                       "be specified"));
                return;
            }
        }
        if (hasRes) {
            const QJsonObject r = spec.value(QLatin1String("resourceAttributes")).toObject();
            a.resourceRequest = true;
            a.namespaceName = r.value(QLatin1String("namespace")).toString();
            a.verb = r.value(QLatin1String("verb")).toString();
            a.apiGroup = r.value(QLatin1String("group")).toString();
            a.apiVersion = r.value(QLatin1String("version")).toString();
            if (a.apiVersion.isEmpty())
                a.apiVersion = QStringLiteral("*");
            a.resource = r.value(QLatin1String("resource")).toString();
            a.subresource = r.value(QLatin1String("subresource")).toString();
            a.name = r.value(QLatin1String("name")).toString();
            if (name == QLatin1String("localsubjectaccessreviews") &&
                a.namespaceName != ctx->trace.info.namespaceName) {
                invalid(QStringLiteral("spec.resourceAttributes.namespace"),
                        QStringLiteral("Invalid value: \"%1\": must match metadata.namespace")
                            .arg(a.namespaceName));
                return;
            }
        } else {
            const QJsonObject r = spec.value(QLatin1String("nonResourceAttributes")).toObject();
            a.path = r.value(QLatin1String("path")).toString();
            a.verb = r.value(QLatin1String("verb")).toString();
        }
        const AuthorizationResult result = ctx->authorizer->authorize(a);
        status.insert(QStringLiteral("allowed"), result.allowed());
        if (result.decision == Decision::Deny)
            status.insert(QStringLiteral("denied"), true);
        if (!result.reason.isEmpty())
            status.insert(QStringLiteral("reason"), result.reason);
    } else if (name == QLatin1String("selfsubjectrulesreviews")) {
        const QString ns = spec.value(QLatin1String("namespace")).toString();
        QJsonArray resourceRules, nonResourceRules;
        bool incomplete = false;
        for (const PolicyRule &r : ctx->authorizer->rbac().rulesFor(self, ns)) {
            if (r.nonResourceURLs.isEmpty())
                resourceRules.append(r.toJson());
            else
                nonResourceRules.append(
                    QJsonObject{{QStringLiteral("verbs"), toArray(r.verbs)},
                                {QStringLiteral("nonResourceURLs"), toArray(r.nonResourceURLs)}});
        }
        // The Node authorizer's rules depend on the object graph: not listable.
        if (isNodeUser(self) && settings().authorizationModes.contains(QLatin1String("Node")))
            incomplete = true;
        status = QJsonObject{{QStringLiteral("resourceRules"), resourceRules},
                             {QStringLiteral("nonResourceRules"), nonResourceRules},
                             {QStringLiteral("incomplete"), incomplete}};
        if (incomplete)
            status.insert(QStringLiteral("evaluationError"),
                          QStringLiteral("node authorizer does not support user rule resolution"));
    } else if (name == QLatin1String("selfsubjectreviews")) {
        status = QJsonObject{{QStringLiteral("userInfo"), userJson(self)}};
    } else if (name == QLatin1String("tokenreviews")) {
        const QString token = spec.value(QLatin1String("token")).toString();
        if (token.isEmpty()) {
            invalid(QStringLiteral("spec.token"),
                    QStringLiteral("Required value: token must not be empty"));
            return;
        }
        const AuthenticationResult r = m_authenticator.authenticateToken(token);
        status.insert(QStringLiteral("authenticated"), r.ok());
        if (r.ok())
            status.insert(QStringLiteral("user"), userJson(r.user));
        else
            status.insert(QStringLiteral("error"), r.reason);
        spec = QJsonObject(); // never echo a token
    }
    QJsonObject answer{{QStringLiteral("kind"), type.kind},
                       {QStringLiteral("apiVersion"), type.apiVersion()},
                       {QStringLiteral("metadata"),
                        QJsonObject{{QStringLiteral("creationTimestamp"), QJsonValue::Null}}},
                       {QStringLiteral("status"), status}};
    if (!spec.isEmpty() || name != QLatin1String("selfsubjectreviews"))
        answer.insert(QStringLiteral("spec"), spec);
    finish(ctx, typedResponse(ctx->request, 201, answer, pretty));
}

std::variant<UserInfo, QString> ClusterApi::identityFrom(const QJsonObject &request) const
{
    UserInfo user;
    if (request.value(QLatin1String("anonymous")).toBool() ||
        request.value(QLatin1String("user")).toString() == QLatin1String(kAnonymousUser)) {
        user.name = QLatin1String(kAnonymousUser);
        user.groups = {QLatin1String(kUnauthenticatedGroup)};
        user.authenticator = QStringLiteral("anonymous");
        return user;
    }
    user.name = request.value(QLatin1String("user")).toString();
    if (user.name.isEmpty())
        return QStringLiteral("give \"user\" (with optional \"groups\") or \"anonymous\": true");
    if (!request.value(QLatin1String("groups")).isUndefined() &&
        !request.value(QLatin1String("groups")).isArray())
        return QStringLiteral("\"groups\" must be an array of strings");
    user.groups = toStrings(request.value(QLatin1String("groups")));
    user.authenticator = QStringLiteral("admin-api");
    addAuthenticatedGroup(user);
    return user;
}

std::variant<QJsonObject, QString> ClusterApi::buildRequest(const QJsonObject &request,
                                                            std::shared_ptr<Context> &ctx)
{
    ctx = std::make_shared<Context>();
    auto identity = identityFrom(request);
    if (auto *e = std::get_if<QString>(&identity))
        return *e;
    const UserInfo user = std::get<UserInfo>(identity);
    if (user.authenticator == QLatin1String("anonymous")) {
        ctx->anonymousRefused = !m_authenticator.anonymousEnabled();
        if (ctx->anonymousRefused)
            ctx->trace.authentication.reason =
                QStringLiteral("no credentials presented and anonymous access is off");
    }
    ctx->actAs = user;
    Core::HttpRequest &req = ctx->request;
    req.listener = QStringLiteral("cluster");
    req.requestId = Crypto::Random::token(12);
    if (request.contains(QLatin1String("node"))) {
        const QString node = request.value(QLatin1String("node")).toString();
        if (node.isEmpty() || !request.value(QLatin1String("labels")).isObject())
            return QStringLiteral("a label change needs \"node\" and a \"labels\" object");
        req.method = "PATCH";
        req.path = QStringLiteral("/api/v1/nodes/") + node;
        req.headers.append(
            qMakePair(QByteArray("content-type"), QByteArray("application/merge-patch+json")));
        req.body =
            QJsonDocument(QJsonObject{{QStringLiteral("metadata"),
                                       QJsonObject{{QStringLiteral("labels"),
                                                    request.value(QLatin1String("labels"))}}}})
                .toJson(QJsonDocument::Compact);
    } else {
        const QString path = request.value(QLatin1String("path")).toString();
        if (!path.startsWith(QLatin1Char('/')))
            return QStringLiteral("\"path\" must be an absolute path such as /api/v1/nodes");
        req.method = request.value(QLatin1String("method"))
                         .toString(QStringLiteral("GET"))
                         .toUpper()
                         .toLatin1();
        const QUrl url(QStringLiteral("http://x") + path);
        req.path = url.path();
        req.query = QUrlQuery(url);
        const QJsonValue b = request.value(QLatin1String("body"));
        if (b.isObject() || b.isArray())
            req.body = b.isObject() ? QJsonDocument(b.toObject()).toJson(QJsonDocument::Compact)
                                    : QJsonDocument(b.toArray()).toJson(QJsonDocument::Compact);
        else if (b.isString())
            req.body = b.toString().toUtf8();
        QString ct = request.value(QLatin1String("contentType")).toString();
        if (ct.isEmpty() && !req.body.isEmpty())
            ct = req.method == "PATCH" ? QStringLiteral("application/merge-patch+json")
                                       : QStringLiteral("application/json");
        if (!ct.isEmpty())
            req.headers.append(qMakePair(QByteArray("content-type"), ct.toLatin1()));
    }
    req.target = req.path.toUtf8();
    return QJsonObject();
}

void ClusterApi::explain(const QJsonObject &request,
                         std::function<void(std::variant<QJsonObject, QString>)> done)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built)) {
        done(*e);
        return;
    }
    ctx->dryRun = true;
    ctx->explaining = true;
    ctx->onDone = [done = std::move(done)](const Core::HttpResponse &r, const RequestTrace &trace) {
        QJsonObject result = trace.toJson();
        result.insert(QStringLiteral("dryRun"), true);
        result.insert(QStringLiteral("code"), r.status);
        done(result);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
    } else {
        process(ctx);
    }
}

std::variant<QJsonObject, QString> ClusterApi::explainAuthorization(const QJsonObject &request)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built))
        return *e;
    ctx->dryRun = true;
    ctx->explaining = true;
    ctx->authorizationOnly = true;
    QJsonObject result;
    ctx->onDone = [&result](const Core::HttpResponse &r, const RequestTrace &trace) {
        result = trace.toJson();
        result.insert(QStringLiteral("code"), r.status);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
    } else {
        process(ctx); // finishes before it returns: nothing after authorization runs
    }
    return result;
}

std::variant<QJsonObject, QString> ClusterApi::access(const QJsonObject &request) const
{
    auto identity = identityFrom(request);
    if (auto *e = std::get_if<QString>(&identity))
        return *e;
    const UserInfo user = std::get<UserInfo>(identity);
    QJsonObject out{{QStringLiteral("user"), userJson(user)}};
    QJsonArray notes;
    if (user.authenticator == QLatin1String("anonymous") && !m_authenticator.anonymousEnabled())
        notes.append(QStringLiteral("anonymous access is off: every request without credentials "
                                    "is answered 401 before authorization"));
    std::shared_ptr<const AuthorizerChain> chain;
    {
        QMutexLocker lock(&m_mutex);
        chain = m_authorizer;
    }
    const bool privileged = user.groups.contains(QLatin1String(kMastersGroup));
    out.insert(QStringLiteral("privileged"), privileged);
    if (privileged)
        notes.append(QStringLiteral("member of system:masters: every request is allowed before "
                                    "the authorizers run"));
    QString node;
    if (isNodeUser(user, &node) && chain->modes().contains(QLatin1String("Node")))
        notes.append(QStringLiteral("the Node authorizer also grants node \"%1\" its own Node "
                                    "object (and its status), creating and updating nodes, "
                                    "and reading the pods bound to it")
                         .arg(node));
    QJsonArray cells;
    if (chain->modes().contains(QLatin1String("RBAC")))
        for (const AccessCell &c : chain->rbac().effectiveAccess(user))
            cells.append(c.toJson());
    out.insert(QStringLiteral("notes"), notes);
    out.insert(QStringLiteral("access"), cells);
    return out;
}

void ClusterApi::perform(const QJsonObject &request, std::function<void(QJsonObject)> done)
{
    std::shared_ptr<Context> ctx;
    auto built = buildRequest(request, ctx);
    if (auto *e = std::get_if<QString>(&built)) {
        done(QJsonObject{{QStringLiteral("error"), *e}});
        return;
    }
    ctx->onDone = [done = std::move(done)](const Core::HttpResponse &r, const RequestTrace &trace) {
        QJsonObject out{{QStringLiteral("code"), r.status},
                        {QStringLiteral("trace"), trace.toJson()}};
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (doc.isObject())
            out.insert(QStringLiteral("body"), doc.object());
        else
            out.insert(QStringLiteral("body"), QString::fromUtf8(r.body));
        done(out);
    };
    if (ctx->anonymousRefused) {
        ctx->trace.method = QString::fromLatin1(ctx->request.method);
        ctx->trace.path = ctx->request.path;
        finish(ctx, Status::unauthorized().response(false));
        return;
    }
    process(ctx);
}

} // namespace Gatehouse::Cluster
