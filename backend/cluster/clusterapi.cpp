#include "cluster/clusterapi_p.h"
#include "cluster/impersonation.h"
#include "core/logging.h"

#include <QHostAddress>

namespace Gatehouse::Cluster {

namespace ApiInternal {

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

std::optional<Status> fieldValidation(const QString &directive, const QStringList &unknown,
                                      const QStringList &duplicates, const QString &prefix,
                                      QStringList *warnings)
{
    if ((unknown.isEmpty() && duplicates.isEmpty()) || directive == QLatin1String("Ignore"))
        return std::nullopt;
    QStringList messages;
    for (const QString &path : unknown)
        messages.append(QStringLiteral("unknown field \"%1\"").arg(path));
    for (const QString &path : duplicates)
        messages.append(QStringLiteral("duplicate field \"%1\"").arg(path));
    if (directive == QLatin1String("Strict"))
        return Status::badRequest(prefix + QStringLiteral("strict decoding error: ") +
                                  messages.join(QStringLiteral(", ")));
    *warnings += messages;
    return std::nullopt;
}

// The 403 Status Kubernetes answers when authorization refuses: "<resource> \"<name>\" is
// forbidden: User ... cannot ...", or "forbidden: ..." for a non-resource path.
Status authorizationRefusal(const Attributes &a, const QString &name, const QString &reason)
{
    const QString msg = forbiddenMessage(a, reason);
    return a.resourceRequest ? Status::forbidden(a.apiGroup, a.resource, name, msg)
                             : Status::forbidden(QString(), QString(), QString(), msg);
}

} // namespace ApiInternal

using namespace ApiInternal;

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

ClusterApi::ClusterApi(ObjectStore &store, Core::EventBus &events, Core::Clock &clock,
                       Options options)
    : m_store(store), m_events(events), m_clock(clock), m_options(std::move(options)),
      m_watch(store), m_settings(m_options.settings)
{
    m_watchGate->api = this;
    m_authenticator.setAnonymousEnabled(m_settings.anonymousAuth);
    m_publishTimer.setInterval(250);
    connect(&m_publishTimer, &QTimer::timeout, this, &ClusterApi::publishRecent);
    m_store.addListener([this](const ObjectChange &c) { onChange(c); });
    // Read anew (several instances): what is derived from the objects is made again.
    m_store.addReloadListener([this](qint64) {
        {
            // A database put back (a backup) numbers changes again from an older revision:
            // a cached body's resourceVersion may now name another state of its object.
            QMutexLocker lock(&m_cacheMutex);
            m_bodyCache.clear();
            m_bodyCacheBytes = 0;
        }
        rebuildPolicy();
        rebuildWebhooks();
        setNodePort(
            m_store.get(QStringLiteral("services"), QStringLiteral("default"), kServiceName));
    });
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
            if (spec.value(QLatin1String("type")).toString() == QLatin1String("ExternalName")) {
                const QString host = spec.value(QLatin1String("externalName")).toString();
                // Checked again: a Service stored before its externalName was validated.
                if (QHostAddress literal; literal.setAddress(host))
                    if (const QString e = Validation::specialIp(host); !e.isEmpty())
                        return {QString(), QStringLiteral("service \"%1/%2\": spec.externalName "
                                                          "%3")
                                               .arg(ns, name, e)};
                return {host, QString()};
            }
            const QJsonArray ips = spec.value(QLatin1String("externalIPs")).toArray();
            // Checked again: a Service stored before its external IPs were validated.
            if (!ips.isEmpty()) {
                const QString ip = ips.first().toString();
                if (const QString e = Validation::specialIp(ip); !e.isEmpty())
                    return {QString(), QStringLiteral("service \"%1/%2\": spec.externalIPs[0] "
                                                      "%3")
                                           .arg(ns, name, e)};
                return {ip, QString()};
            }
            return {QString(), QStringLiteral("service \"%1/%2\" has no address to reach: "
                                              "give it spec.externalIPs or make it an "
                                              "ExternalName service")
                                   .arg(ns, name)};
        });
}

ClusterApi::~ClusterApi()
{
    QWriteLocker lock(&m_watchGate->lock); // waits for a check under way
    m_watchGate->api = nullptr;
}

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

QString ClusterApi::validateSettings(const ClusterSettings &s)
{
    if (QString e = AuthorizerChain::validateModes(s.authorizationModes); !e.isEmpty())
        return e;
    if (QString e = AdmissionChain::validatePlugins(s.admissionPlugins); !e.isEmpty())
        return e;
    return ClusterSettings::validateGroupMappings(s.oidcGroupMappings);
}

QString ClusterApi::applySettings(const ClusterSettings &s)
{
    if (QString e = validateSettings(s); !e.isEmpty())
        return e;
    {
        QMutexLocker lock(&m_mutex);
        m_settings = s;
    }
    m_authenticator.setAnonymousEnabled(s.anonymousAuth);
    // Anonymous access turned off, a group mapping taken away: at once for the open watches
    // too, which rebuildPolicy checks again.
    rebuildPolicy();
    m_events.publish(QStringLiteral("cluster.settings.changed"), s.toJson());
    return {};
}

void ClusterApi::rebuildPolicy()
{
    QList<QJsonObject> roleObjects;
    QList<RbacBinding> bindings;
    for (const char *r : {"clusterroles", "roles"}) {
        auto page = m_store.list(QLatin1String(r), QString(), {}, 0, QString());
        roleObjects += std::get<ObjectStore::Page>(page).items;
    }
    QList<RbacRole> roles = rolesFromJson(roleObjects);
    if (!aggregatedRulesToWrite(roleObjects).isEmpty())
        writeAggregatedRules();
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
        if (!fieldValue(*n, QStringLiteral("metadata.deletionTimestamp")).isEmpty())
            return QStringLiteral("Terminating"); // whatever its status says
        return fieldValue(*n, QStringLiteral("status.phase"));
    };
    ctx.nodeUid = [store](const QString &name) {
        const std::optional<QJsonObject> n = store->get(QStringLiteral("nodes"), QString(), name);
        return n ? fieldValue(*n, QStringLiteral("metadata.uid")) : QString();
    };
    ctx.pod = [store](const QString &ns, const QString &name) {
        return store->get(QStringLiteral("pods"), ns, name);
    };
    ctx.serviceAccountExists = [store](const QString &ns, const QString &name) {
        return store->get(QStringLiteral("serviceaccounts"), ns, name).has_value();
    };
    {
        QMutexLocker lock(&m_mutex);
        m_rbac = policy;
        m_authorizer =
            std::make_shared<const AuthorizerChain>(m_settings.authorizationModes, policy, podNode);
        m_admission = std::make_shared<const AdmissionChain>(m_settings.admissionPlugins, ctx);
    }
    // A binding taken away ends the watches it allowed now, not at their timeout.
    m_watch.recheck();
}

void ClusterApi::writeAggregatedRules()
{
    if (m_aggregationQueued.exchange(true))
        return; // one write at a time: it reads the roles as they are when it runs
    QMetaObject::invokeMethod(
        this,
        [this] {
            // Cleared before the write: the write reads the roles as they are when it runs, and
            // one that never ran (a shared store that could not catch up) must not leave later
            // changes unwritten.
            m_aggregationQueued = false;
            m_store.commit(
                [this]() -> ObjectStore::Outcome {
                    auto page =
                        m_store.list(QStringLiteral("clusterroles"), QString(), {}, 0, QString());
                    const QList<QJsonObject> &objects = std::get<ObjectStore::Page>(page).items;
                    QList<ObjectChange> changes;
                    const QHash<QString, QJsonArray> rules = aggregatedRulesToWrite(objects);
                    for (auto it = rules.cbegin(); it != rules.cend(); ++it) {
                        std::optional<QJsonObject> role =
                            m_store.get(QStringLiteral("clusterroles"), QString(), it.key());
                        if (!role)
                            continue;
                        role->insert(QStringLiteral("rules"), it.value());
                        changes.append({ObjectChange::Kind::Modified,
                                        QStringLiteral("clusterroles"), QString(), it.key(),
                                        *role});
                    }
                    return changes;
                },
                nullptr);
        },
        Qt::QueuedConnection);
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
    // A service account gone: the watches of its tokens end now (every other credential's end
    // is found within WatchOptions::kRecheckSeconds).
    if (c.kind == ObjectChange::Kind::Deleted && c.resource == QLatin1String("serviceaccounts"))
        m_watch.recheck();
    if (c.resource == QLatin1String("services") && c.namespaceName == QLatin1String("default") &&
        c.name == kServiceName)
        setNodePort(c.kind == ObjectChange::Kind::Deleted ? std::nullopt
                                                          : std::optional<QJsonObject>(c.object));
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

namespace {

int nodePortOf(const std::optional<QJsonObject> &service)
{
    if (!service || fieldValue(*service, QStringLiteral("spec.type")) != QLatin1String("NodePort"))
        return 0;
    return service->value(QLatin1String("spec"))
        .toObject()
        .value(QLatin1String("ports"))
        .toArray()
        .first()
        .toObject()
        .value(QLatin1String("nodePort"))
        .toInt();
}

} // namespace

void ClusterApi::setNodePort(const std::optional<QJsonObject> &service)
{
    const int port = nodePortOf(service);
    if (m_nodePort.exchange(port) != port)
        QMetaObject::invokeMethod(
            this, [this, port] { emit nodePortChanged(port); }, Qt::QueuedConnection);
}

Result<void> ClusterApi::start()
{
    rebuildPolicy();
    rebuildWebhooks();
    if (auto r = bootstrap(); !r)
        return r;
    rebuildPolicy();
    m_nodePort = nodePortOf(
        m_store.get(QStringLiteral("services"), QStringLiteral("default"), kServiceName));
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
                    std::optional<ObjectChange> change = eventChange(m_store, event, now);
                    return change ? QList<ObjectChange>{*change} : QList<ObjectChange>{};
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
    // kube's limits (the apiserver's warning recorder): the same text once; past 4 KiB in all,
    // each cut to 256 characters, and what still does not fit is left out. A body with a
    // hundred thousand unknown fields gets a few lines of warnings, not megabytes of headers.
    constexpr qsizetype kTotal = 4 * 1024;
    constexpr qsizetype kEach = 256;
    QStringList warnings = ctx->warnings;
    warnings.removeDuplicates();
    qsizetype total = 0;
    for (const QString &w : std::as_const(warnings))
        total += w.size();
    if (total > kTotal) {
        QStringList kept;
        qsizetype used = 0;
        for (const QString &w : std::as_const(warnings)) {
            const QString cut = w.size() > kEach ? w.left(kEach) : w;
            if (used + cut.size() > kTotal)
                break;
            used += cut.size();
            kept.append(cut);
        }
        warnings = kept;
    }
    for (QString w : std::as_const(warnings)) {
        // The text comes from the client (unknown field names) and from webhooks: no control
        // character may end the header line and start another.
        for (QChar &c : w)
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                c = QLatin1Char(' ');
        response.headers.append(
            {"Warning",
             "299 - \"" + w.replace(QLatin1Char('"'), QStringLiteral("\\\"")).toUtf8() + '"'});
    }
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
    entry.impersonatedBy = ctx.impersonator;
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
    // Who acted as `user` (kube's audit: user and impersonatedUser): what was done is theirs.
    if (!impersonatedBy.isEmpty() && authenticated)
        o.insert(QStringLiteral("impersonatedBy"), impersonatedBy);
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

std::optional<Status> ClusterApi::admit(const Core::HttpRequest &req,
                                        const std::optional<UserInfo> &actAs,
                                        const AuthorizerChain &authorizer, RequestTrace &trace,
                                        Attributes &attributes, QString &impersonator) const
{
    if (actAs) {
        trace.authentication.outcome = actAs->isAnonymous()
                                           ? AuthenticationResult::Outcome::Anonymous
                                           : AuthenticationResult::Outcome::Authenticated;
        trace.authentication.user = *actAs;
        trace.authentication.reason =
            QStringLiteral("acting as this identity through the admin API");
    } else {
        trace.authentication = m_authenticator.authenticate(req.identity, req.bearerToken());
    }
    if (!trace.authentication.ok())
        return Status::unauthorized();
    // Impersonate-* headers (kubectl --as, --as-group; proxies acting for their users): each
    // allowed by the caller's `impersonate` rights, else refused; the request then acts as
    // that identity through authorization, admission and the request log.
    if (const Impersonation imp =
            impersonate(req, trace.authentication.user,
                        [&authorizer](const Attributes &a) { return authorizer.authorize(a); });
        imp.requested) {
        if (imp.refusal) {
            trace.info = RequestInfo::parse(req.method, req.path, req.query);
            return imp.refusal;
        }
        trace.authentication.reason =
            QStringLiteral("%1 impersonates this identity (%2)")
                .arg(trace.authentication.user.name, trace.authentication.reason);
        impersonator = trace.authentication.user.name;
        const qint64 until = trace.authentication.user.credentialsUntilMs;
        trace.authentication.user = imp.user;
        trace.authentication.user.credentialsUntilMs = until; // the caller's credential's end
    }
    trace.info = RequestInfo::parse(req.method, req.path, req.query);
    attributes = Attributes::from(trace.authentication.user, trace.info);
    trace.authorization = authorizer.authorize(attributes);
    trace.authorized = trace.authorization.allowed();
    if (!trace.authorized)
        return authorizationRefusal(attributes, trace.info.name, trace.authorization.reason);
    return std::nullopt;
}

std::optional<QJsonObject> ClusterApi::recheckWatch(Core::HttpRequest request,
                                                    const std::optional<UserInfo> &actAs) const
{
    std::shared_ptr<const AuthorizerChain> authorizer;
    {
        QMutexLocker lock(&m_mutex);
        authorizer = m_authorizer;
    }
    // A client certificate as it stands now (it may have expired since the watch began).
    request.identity = request.identity.at(m_clock.now().toMSecsSinceEpoch());
    RequestTrace trace;
    Attributes attributes;
    QString impersonator;
    const std::optional<Status> refusal =
        admit(request, actAs, *authorizer, trace, attributes, impersonator);
    if (!refusal)
        return std::nullopt;
    const bool authenticated = trace.authentication.ok();
    // The credential could not be checked now (its issuer's records could not be read): no
    // decision, the stream goes on and is checked again at the next turn. Only a refusal ends it.
    if (!authenticated && trace.authentication.unavailable) {
        qCWarning(lcCluster).noquote()
            << QStringLiteral("watch %1: its credential could not be checked now: %2")
                   .arg(Core::loggable(request.path), Core::loggable(trace.authentication.reason));
        return std::nullopt;
    }
    qCInfo(lcCluster).noquote()
        << QStringLiteral("watch %1 of %2 ended: %3 (%4)")
               .arg(Core::loggable(request.path),
                    authenticated ? Core::loggable(trace.authentication.user.name)
                                  : QStringLiteral("a credential"),
                    Core::loggable(refusal->message),
                    Core::loggable(authenticated ? refusal->reason : trace.authentication.reason));
    return QJsonDocument::fromJson(refusal->body(false)).object();
}

void ClusterApi::process(const std::shared_ptr<Context> &ctx)
{
    const Core::HttpRequest &req = ctx->request;
    RequestTrace &trace = ctx->trace;
    trace.method = QString::fromLatin1(req.method);
    trace.path = req.path;
    {
        QMutexLocker lock(&m_mutex);
        ctx->authorizer = m_authorizer;
        ctx->admission = m_admission;
        if (ctx->askWebhooks)
            ctx->webhooks = m_webhooks;
    }
    if (std::optional<Status> refusal =
            admit(req, ctx->actAs, *ctx->authorizer, trace, ctx->attributes, ctx->impersonator)) {
        finish(ctx, refusal->response(ctx->pretty));
        return;
    }
    // What this request issues ends with the credential that asked, if that ends (a client
    // certificate, a service account token issued under such a bound), as with the admin
    // token's end through the admin API: the earlier of the two.
    if (const qint64 until = trace.authentication.user.credentialsUntilMs;
        until > 0 && (ctx->credentialsUntilMs <= 0 || until < ctx->credentialsUntilMs))
        ctx->credentialsUntilMs = until;
    if (ctx->authorizationOnly) {
        finish(ctx, Core::HttpResponse());
        return;
    }
    if (trace.info.isResourceRequest)
        handleResource(ctx);
    else
        handleNonResource(ctx);
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
    // The URL must fit the resource's scope and subresources, as go-restful's routes do:
    // namespaces/<ns>/namespaces[/<name>] is no route (authorized in <ns>, it would otherwise
    // reach every namespace), nor is namespaces/<ns>/<a cluster-scoped resource>.
    const bool namespacedUrl = info.inNamespace;
    if (info.parts.size() > 3 || (namespacedUrl && !type->namespaced) ||
        (!info.subresource.isEmpty() && !type->hasSubresource(info.subresource)) ||
        info.verb == QLatin1String("proxy")) {
        finish(ctx, Status::routeNotFound().response(pretty));
        return;
    }
    if (info.legacyWatch && req.method != "GET" && req.method != "HEAD") {
        finish(ctx, Status::methodNotAllowed().response(pretty));
        return;
    }
    // A subresource serves its own verbs only: a GET of serviceaccounts/<n>/token (create
    // only) or namespaces/<n>/finalize (update only) is 405, as in kube, never the parent
    // object to someone allowed only that subresource.
    if (!info.subresource.isEmpty()) {
        const auto sub =
            std::find_if(type->subresources.cbegin(), type->subresources.cend(),
                         [&info](const Subresource &s) { return s.name == info.subresource; });
        if (sub == type->subresources.cend() || !sub->verbs.contains(info.verb)) {
            finish(ctx, Status::methodNotAllowed().response(pretty));
            return;
        }
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
                // resourceVersion (a new one never repeats while the counter only grows; a
                // database put back empties the cache, see the reload listener).
                const QString key = type->apiVersion() + QLatin1Char('/') + type->name +
                                    QLatin1Char('/') + ns + QLatin1Char('/') + info.name;
                const QString rv = fieldValue(*o, QStringLiteral("metadata.resourceVersion"));
                QByteArray body;
                {
                    QMutexLocker lock(&m_cacheMutex);
                    const auto it = m_bodyCache.constFind(key);
                    if (it != m_bodyCache.constEnd() && it->first == rv)
                        body = it->second;
                }
                if (body.isEmpty()) {
                    body = JsonWriter::encode(typed(*type, servedObject(*type, *o)));
                    body.append('\n');
                    QMutexLocker lock(&m_cacheMutex);
                    // Bounded by bytes too: objects near the 1.5 MiB limit, created, read and
                    // deleted in a loop, held gigabytes at 20,000 entries.
                    if (m_bodyCache.size() >= 20000 || m_bodyCacheBytes > 64 * 1024 * 1024) {
                        m_bodyCache.clear();
                        m_bodyCacheBytes = 0;
                    }
                    if (const auto old = m_bodyCache.constFind(key); old != m_bodyCache.constEnd())
                        m_bodyCacheBytes -= old->second.size();
                    m_bodyCache.insert(key, {rv, body});
                    m_bodyCacheBytes += body.size();
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
                finish(ctx, typedResponse(req, 200, typed(*type, servedObject(*type, *o)), pretty));
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
        const QString fieldSelector = type->view && type->name == QLatin1String("events")
                                          ? coreEventFieldSelector(info.fieldSelector)
                                          : info.fieldSelector;
        const std::optional<Selector> fields =
            labels ? Selector::parseFields(fieldSelector, extraFields, &error) : std::nullopt;
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
            items.append(servedObject(*type, o));
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

} // namespace Gatehouse::Cluster
