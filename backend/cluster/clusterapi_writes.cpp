// Writes: decode -> prepare -> mutating webhooks -> admit -> validate -> validating
// webhooks -> persist (docs/cluster.md, "What a write goes through").
#include "cluster/clusterapi_p.h"

namespace Gatehouse::Cluster {

using namespace ApiInternal;

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
    // DELETE: the DeleteOptions body's preconditions (empty: none).
    QString preconditionUid, preconditionVersion;
};

namespace {

constexpr int kWriteAttempts = 3;

// Who did it, as an Event tells: the identity the request acted as, and who impersonated it.
QString actorOf(const QString &user, const QString &impersonator)
{
    return impersonator.isEmpty()
               ? user
               : QStringLiteral("%1 (impersonated by %2)").arg(user, impersonator);
}

QString resourceVersionOf(const std::optional<QJsonObject> &o)
{
    return o ? fieldValue(*o, QStringLiteral("metadata.resourceVersion")) : QString();
}

// Whether an update of `was` into `obj` changes only what the garbage collector needs to
// delete it (kube's rbacregistry.IsOnlyMutatingGCFields: ownerReferences and finalizers),
// besides what the server keeps itself (resourceVersion, managedFields, ...).
bool onlyGcFieldsChange(QJsonObject obj, QJsonObject was)
{
    for (QJsonObject *o : {&obj, &was}) {
        QJsonObject meta = o->value(QLatin1String("metadata")).toObject();
        for (const char *k : {"ownerReferences", "finalizers", "resourceVersion", "managedFields",
                              "generation", "uid", "creationTimestamp", "selfLink"})
            meta.remove(QLatin1String(k));
        o->insert(QStringLiteral("metadata"), meta);
        o->remove(QStringLiteral("apiVersion"));
        o->remove(QStringLiteral("kind"));
    }
    return obj == was;
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

std::optional<Status> ApiInternal::dryRunOption(const Core::HttpRequest &req,
                                                const QString &optionsKind, bool *dryRun)
{
    const QString value = req.query.queryItemValue(QStringLiteral("dryRun"));
    if (value.isEmpty())
        return std::nullopt;
    if (value != QLatin1String("All"))
        return Status::invalid(QStringLiteral("meta.k8s.io"), optionsKind, QString(),
                               {Validation::unsupportedCause(QStringLiteral("dryRun[0]"), value,
                                                             {QStringLiteral("All")})});
    *dryRun = true;
    return std::nullopt;
}

std::optional<Status> ClusterApi::decodeWrite(Write &w)
{
    const Core::HttpRequest &req = w.ctx->request;
    const ResourceType &type = *w.type;
    if (auto refused =
            dryRunOption(req,
                         w.operation == QLatin1String("CREATE")   ? QStringLiteral("CreateOptions")
                         : w.operation == QLatin1String("DELETE") ? QStringLiteral("DeleteOptions")
                                                                  : QStringLiteral("UpdateOptions"),
                         &w.ctx->dryRun))
        return refused;
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
    // Duplicate members: in a JSON body only (protobuf has none; YAML is decoded apart).
    const QStringList duplicates = isJsonContentType(req.header("content-type"))
                                       ? duplicateJsonFields(req.body)
                                       : QStringList();
    auto dropUnknownFields = [&](QJsonObject &body) {
        const QStringList unknown = pruneUnknownFields(&body, type.apiVersion(), type.kind);
        return fieldValidation(directive, unknown, duplicates,
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
    } else if (w.method == "DELETE" && !req.body.trimmed().isEmpty()) {
        // DeleteOptions in the body, as client-go's Delete sends them (kubectl delete
        // --dry-run=server among them): its dryRun as the query's, and its preconditions.
        auto parsed = requestObject(req, true, true);
        if (const auto *st = std::get_if<Status>(&parsed))
            return *st;
        const QJsonObject options = std::get<QJsonObject>(parsed);
        const QString kind = options.value(QLatin1String("kind")).toString();
        if (!kind.isEmpty() && kind != QLatin1String("DeleteOptions"))
            return Status::badRequest(QStringLiteral("the kind in the data (%1) does not match "
                                                     "the expected kind (DeleteOptions)")
                                          .arg(kind));
        const QJsonValue dryRun = options.value(QLatin1String("dryRun"));
        if (!dryRun.isUndefined() && !dryRun.isNull() && !dryRun.isArray())
            return Status::badRequest(QStringLiteral("dryRun must be a list of strings"));
        const QJsonArray values = dryRun.toArray();
        for (int i = 0; i < values.size(); ++i)
            if (values[i].toString() != QLatin1String("All"))
                return Status::invalid(
                    QStringLiteral("meta.k8s.io"), QStringLiteral("DeleteOptions"), QString(),
                    {Validation::unsupportedCause(QStringLiteral("dryRun[%1]").arg(i),
                                                  values[i].toVariant().toString(),
                                                  {QStringLiteral("All")})});
        if (!values.isEmpty())
            w.ctx->dryRun = true;
        const QJsonValue pre = options.value(QLatin1String("preconditions"));
        if (!pre.isUndefined() && !pre.isNull() && !pre.isObject())
            return Status::badRequest(QStringLiteral("preconditions must be an object"));
        w.preconditionUid = pre.toObject().value(QLatin1String("uid")).toString();
        w.preconditionVersion = pre.toObject().value(QLatin1String("resourceVersion")).toString();
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
    WebhookAttributes a = requestAttributes(w);
    // An apply creates or updates depending on what is stored when it runs: both kinds of
    // webhooks are candidates (matches() decides once the object is prepared).
    WebhookAttributes other = a;
    other.operation = a.operation == QLatin1String("CREATE") ? QStringLiteral("UPDATE")
                                                             : QStringLiteral("CREATE");
    auto wanted = [&](const AdmissionWebhook &h) {
        return matchesRules(h, a) || (w.serverSideApply && matchesRules(h, other));
    };
    // matchPolicy Equivalent: a webhook for the same objects through the other resource
    // (core v1 / events.k8s.io/v1 Events) is asked too, in its own resource's form.
    const auto equivalent = equivalentAttributes(a);
    const auto equivalentOther = equivalentAttributes(other);
    auto wantedEquivalent = [&](const AdmissionWebhook &h) {
        return h.matchEquivalent && equivalent &&
               (matchesRules(h, *equivalent) ||
                (w.serverSideApply && matchesRules(h, *equivalentOther)));
    };
    auto choose = [&](const QList<AdmissionWebhook> &all, QList<AdmissionWebhook> &chosen) {
        for (const AdmissionWebhook &h : all) {
            if (wanted(h)) {
                chosen.append(h);
            } else if (wantedEquivalent(h)) {
                chosen.append(h);
                chosen.last().sendEquivalent = true;
            }
        }
    };
    const QStringList &plugins = w.ctx->admission->plugins();
    if (plugins.contains(QLatin1String(AdmissionChain::kMutatingWebhook)))
        choose(w.ctx->webhooks->mutating, w.mutating);
    if (plugins.contains(QLatin1String(AdmissionChain::kValidatingWebhook)))
        choose(w.ctx->webhooks->validating, w.validating);
}

// An object as stored is at most kMaxObjectBytes of JSON (etcd's request limit, which bounds
// kube's objects): a patch, a merge or a webhook that grows one past it is refused, so that no
// object (and no list of them) grows without end, request after request.
std::optional<Status> ClusterApi::tooLarge(const QJsonObject &obj)
{
    constexpr qsizetype kMaxObjectBytes = 1536 * 1024;
    const qsizetype size = QJsonDocument(obj).toJson(QJsonDocument::Compact).size();
    if (size <= kMaxObjectBytes)
        return std::nullopt;
    return Status::requestTooLarge(QStringLiteral("Request entity too large: the object would be "
                                                  "%1 bytes; the limit is %2")
                                       .arg(size)
                                       .arg(kMaxObjectBytes));
}

void ClusterApi::keepServerOwned(Write &w, QJsonObject &obj) const
{
    const ResourceType &type = *w.type;
    if (w.current && w.operation != QLatin1String("DELETE")) {
        // What clients may not change: identity, creation, and the other half of a
        // status-bearing object.
        QJsonObject meta = metaOf(obj);
        const QJsonObject oldMeta = metaOf(*w.current);
        for (const char *k : {"uid", "creationTimestamp", "namespace", "deletionTimestamp",
                              "deletionGracePeriodSeconds"}) {
            if (oldMeta.contains(QLatin1String(k)))
                meta.insert(QLatin1String(k), oldMeta.value(QLatin1String(k)));
            else
                meta.remove(QLatin1String(k));
        }
        obj.insert(QStringLiteral("metadata"), meta);
        const QString &subresource = w.ctx->trace.info.subresource;
        if (subresource == QLatin1String("status")) {
            QJsonObject next = *w.current;
            next.insert(QStringLiteral("status"), obj.value(QLatin1String("status")));
            obj = next;
        } else if (subresource == QLatin1String("finalize")) {
            // A namespace's finalize subresource moves spec.finalizers and nothing else.
            QJsonObject next = *w.current;
            QJsonObject spec = next.value(QLatin1String("spec")).toObject();
            const QJsonValue finalizers =
                obj.value(QLatin1String("spec")).toObject().value(QLatin1String("finalizers"));
            if (finalizers.isUndefined() || finalizers.isNull())
                spec.remove(QStringLiteral("finalizers"));
            else
                spec.insert(QStringLiteral("finalizers"), finalizers);
            next.insert(QStringLiteral("spec"), spec);
            obj = next;
        } else if (type.hasStatus()) {
            if (w.current->contains(QLatin1String("status")))
                obj.insert(QStringLiteral("status"), w.current->value(QLatin1String("status")));
            else
                obj.remove(QStringLiteral("status"));
        }
    }
    if (!w.current) {
        // kube's BeforeCreate: a new object is not being deleted, whatever the client (or a
        // mutating webhook) wrote. A deletionTimestamp set on create in the far future kept a
        // service account's tokens working after its deletion (tokenauth trusts it).
        QJsonObject meta = metaOf(obj);
        meta.remove(QStringLiteral("deletionTimestamp"));
        meta.remove(QStringLiteral("deletionGracePeriodSeconds"));
        obj.insert(QStringLiteral("metadata"), meta);
    }
    obj.remove(QStringLiteral("kind"));
    obj.remove(QStringLiteral("apiVersion"));
    if (w.operation != QLatin1String("DELETE"))
        convertDeprecatedFields(type.name, obj);
    if (type.namespaced) {
        setMeta(obj, QStringLiteral("namespace"), w.ns);
    } else if (metaOf(obj).contains(QLatin1String("namespace"))) {
        // A cluster-scoped object has no namespace (kube drops one sent): a ClusterRole or
        // ClusterRoleBinding that kept one would be read by RBAC as a Role or RoleBinding there.
        QJsonObject meta = metaOf(obj);
        meta.remove(QStringLiteral("namespace"));
        obj.insert(QStringLiteral("metadata"), meta);
    }
    // kube's namespace strategy: the kubernetes.io/metadata.name label is the name, on every
    // write (webhook namespaceSelectors trust it; a tenant must not wear kube-system's).
    if (type.name == QLatin1String("namespaces") && w.operation != QLatin1String("DELETE")) {
        QJsonObject labels = metaOf(obj).value(QLatin1String("labels")).toObject();
        labels.insert(QStringLiteral("kubernetes.io/metadata.name"), nameOf(obj));
        setMeta(obj, QStringLiteral("labels"), labels);
    }
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
        if (w.current)
            w.current = servedObject(type, *w.current); // the chain works in the served shape
        // A subresource (status, scale) is of an object that exists: even an apply through it
        // creates nothing (kube's status REST), or status rights would create whole objects.
        if (!w.current && (!w.serverSideApply || !info.subresource.isEmpty()))
            return Status::notFound(type.group, type.name, info.name);
    }
    w.operation = w.method == "POST" || (w.serverSideApply && !w.current) ? QStringLiteral("CREATE")
                  : w.method == "DELETE"                                  ? QStringLiteral("DELETE")
                                         : QStringLiteral("UPDATE");
    // An apply that creates needs the create verb too (kube's patch handler asks for it): patch
    // rights alone, or patch on one name, do not let a client create.
    if (w.serverSideApply && !w.current) {
        Attributes create = w.ctx->attributes;
        create.verb = QStringLiteral("create");
        const AuthorizationResult allowed = w.ctx->authorizer->authorize(create);
        if (!allowed.allowed())
            return authorizationRefusal(create, info.name, allowed.reason);
    }
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
            // kube's SimpleNameGenerator: the base cut to 58 characters, then 5 random ones.
            QString base = generate.left(58);
            if (!base.isEmpty() && base.back().isHighSurrogate())
                base.chop(1); // never half a character
            name = base + generatedSuffix();
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
        if (bodyName != info.name)
            return Status::badRequest(QStringLiteral("the name of the object (%1) does not "
                                                     "match the name on the URL (%2)")
                                          .arg(bodyName, info.name));
    } else if (w.serverSideApply) {
        ServerSideApply::Request r{w.fieldManager, w.force, type.apiVersion(), w.now};
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
            if (e->status == 413)
                return Status::requestTooLarge(e->message);
            return Status::badRequest(e->message);
        }
        obj = std::get<QJsonObject>(patched);
        // Only what this patch brings in counts (an object stored before may hold more).
        QJsonObject before = *w.current;
        const QStringList known = pruneUnknownFields(&before, type.apiVersion(), type.kind);
        QStringList unknown = pruneUnknownFields(&obj, type.apiVersion(), type.kind);
        unknown.removeIf([&known](const QString &p) { return known.contains(p); });
        // A merge or strategic patch is JSON: its own duplicate members count too.
        const QStringList duplicates = *w.patchType == PatchType::Json
                                           ? QStringList()
                                           : duplicateJsonFields(w.ctx->request.body);
        if (auto refused =
                fieldValidation(w.directive, unknown, duplicates, QString(), &w.ctx->warnings))
            return refused;
        if (nameOf(obj) != info.name)
            return Status::badRequest(QStringLiteral("the name of the object (%1) does not "
                                                     "match the name on the URL (%2)")
                                          .arg(nameOf(obj), info.name));
    } else {
        obj = *w.current;
        // DeleteOptions.preconditions, as kube's store checks them (a 409 naming both).
        const auto precondition = [&](const char *what, const QString &wanted,
                                      const QString &field) -> std::optional<Status> {
            const QString actual = fieldValue(obj, field);
            if (wanted.isEmpty() || wanted == actual)
                return std::nullopt;
            return Status::conflict(
                type.group, type.name, info.name,
                QStringLiteral("StorageError: invalid object, Code: 4, Key: /registry/%1%2/%3, "
                               "ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: %4 "
                               "in precondition: %5, %4 in object meta: %6")
                    .arg(type.name, w.ns.isEmpty() ? QString() : QLatin1Char('/') + w.ns, info.name,
                         QLatin1String(what), wanted, actual));
        };
        if (auto failed = precondition("UID", w.preconditionUid, QStringLiteral("metadata.uid")))
            return failed;
        if (auto failed = precondition("ResourceVersion", w.preconditionVersion,
                                       QStringLiteral("metadata.resourceVersion")))
            return failed;
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
    if (std::optional<Status> large = tooLarge(obj))
        return large;
    // Every member of its field's type, as kube's decoding demands: a string where a number
    // belongs, once stored, broke every typed client that lists the resource, and read as
    // "nothing" here (a numeric serviceAccountName passed admission as no account at all).
    if (method != "DELETE")
        if (const std::optional<QString> mismatch = protobufTypeMismatch(obj, schema))
            return Status::badRequest(
                QStringLiteral("%1 in version \"%2\" cannot be handled as a %1: %3")
                    .arg(type.kind, type.apiVersion(), *mismatch));
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
    // Admission comes before validation: the name is the client's, not yet checked. None that
    // no object could have (a megabyte of it, stored with every refused write, grew the server
    // 13-fold what was sent); the message at most kube's 1,024 characters of an Event note.
    if (w.name.size() > 253 || std::any_of(w.name.cbegin(), w.name.cend(), [](QChar c) {
            return c.unicode() <= 0x20 || c.unicode() >= 0x7f;
        }))
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
                     .arg(w.operation.toLower(),
                          actorOf(w.ctx->attributes.user.name, w.ctx->impersonator), message)
                     .left(1024),
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
    if (type.view && type.name == QLatin1String("events"))
        causes += validateEventsV1(obj, current);
    if (type.name == QLatin1String("namespaces") && current &&
        w.ctx->trace.info.subresource == QLatin1String("status")) {
        // kube's ValidateNamespaceStatusUpdate: the phase follows the deletion. A Terminating
        // namespace set back to Active would take new content that outlives its deletion.
        const bool deleting = metaOf(obj).contains(QLatin1String("deletionTimestamp"));
        QString phase = fieldValue(obj, QStringLiteral("status.phase"));
        if (phase.isEmpty()) { // kube's defaulting: a namespace's phase is Active unless said
            phase = QStringLiteral("Active");
            QJsonObject status = obj.value(QLatin1String("status")).toObject();
            status.insert(QStringLiteral("phase"), phase);
            obj.insert(QStringLiteral("status"), status);
        }
        if (deleting && phase != QLatin1String("Terminating"))
            causes.append(Validation::invalidCause(
                QStringLiteral("status.Phase"), phase,
                QStringLiteral("may only be 'Terminating' if `deletionTimestamp` is not empty")));
        else if (!deleting && phase != QLatin1String("Active"))
            causes.append(Validation::invalidCause(
                QStringLiteral("status.Phase"), phase,
                QStringLiteral("may only be 'Active' if `deletionTimestamp` is empty")));
    }
    // What an update may not change (kube's ValidatePodUpdate, ValidateNodeUpdate): for every
    // caller, administrators included. A subresource write keeps the spec it found.
    if (current && w.ctx->trace.info.subresource.isEmpty())
        causes += Validation::update(type.name, obj, *current);
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
        } else if (!current && svcType != QLatin1String("ExternalName")) {
            // A cluster IP given (by the client, or taken before the webhooks answered) is
            // this service's only if no other service holds it.
            const QString ip = spec.value(QLatin1String("clusterIP")).toString();
            auto page = m_store.list(QStringLiteral("services"), QString(), {}, 0, QString());
            for (const QJsonObject &other : std::get<ObjectStore::Page>(page).items)
                if (fieldValue(other, QStringLiteral("spec.clusterIP")) == ip &&
                    !(fieldValue(other, QStringLiteral("metadata.namespace")) == ns &&
                      nameOf(other) == name) &&
                    ip != QLatin1String("None"))
                    causes.append(StatusCause{
                        QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: []string{\"%1\"}: failed to allocate IP "
                                       "%1: provided IP is already allocated")
                            .arg(ip),
                        QStringLiteral("spec.clusterIPs")});
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
    // A change of only what the garbage collector changes grants nothing (kube's RBAC storage
    // lets it through before its checks).
    if (type.group == QLatin1String("rbac.authorization.k8s.io") &&
        !attrs.user.groups.contains(QLatin1String(kMastersGroup)) &&
        !(current && onlyGcFieldsChange(obj, *current))) {
        const RbacPolicy &policy = ctx->authorizer->rbac();
        const bool isBinding = type.name.endsWith(QLatin1String("bindings"));
        Attributes check = attrs;
        check.resourceRequest = true;
        check.apiGroup = type.group;
        check.subresource.clear();
        QList<PolicyRule> wanted;
        bool aggregating = false;
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
            // An aggregationRule can gather anything: creating, changing or removing an
            // aggregated ClusterRole needs cluster-admin's rules (kube's ClusterRole storage),
            // or escalate. Any change of one, not only of its rule: the rules sent are not what
            // it grants (its selectors' are), and a label added to it lets another aggregated
            // role, one the caller may be bound to, gather all it gathers.
            const auto aggregated = [](const QJsonObject &o) {
                return o.value(QLatin1String("aggregationRule")).isObject();
            };
            aggregating = type.name == QLatin1String("clusterroles") &&
                          (aggregated(obj) || (current && aggregated(*current)));
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
            if (aggregating &&
                !rulesCover(policy.rulesFor(attrs.user, ns), fullAuthority(), &missing))
                return Status::forbidden(type.group, type.name, name,
                                         QStringLiteral("must have cluster-admin privileges to "
                                                        "use the aggregationRule"));
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

QList<ObjectChange> ClusterApi::namespaceContents(const QString &name) const
{
    QList<ObjectChange> changes;
    for (const ResourceType &t : servedResources()) {
        if (!t.namespaced || !t.stored || t.view)
            continue;
        auto page = m_store.list(t.name, name, {}, 0, QString());
        for (const QJsonObject &o : std::get<ObjectStore::Page>(page).items)
            changes.append(ObjectChange{ObjectChange::Kind::Deleted, t.name, name, nameOf(o), o});
    }
    return changes;
}

ObjectStore::Outcome ClusterApi::changesOf(Write &w)
{
    const ResourceType &type = *w.type;
    const QString &ns = w.ns;
    const QString &name = w.name;
    const QDateTime &now = w.now;
    QJsonObject obj = storedObject(type, w.object);
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
            // (its kubernetes.io/metadata.name label: keepServerOwned, on every write)
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
            // The status is the server's and the node's, never the creator's (as Kubernetes
            // resets it): a pod status sent with the create would let anyone who may create
            // pods but not write pods/status (edit) set its conditions and addresses.
            const QString node = fieldValue(obj, QStringLiteral("spec.nodeName"));
            QJsonObject status;
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
            changes += namespaceContents(name);
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
    // An object being deleted goes once its last finalizer is removed; a namespace takes what
    // is in it then too (whatever a write racing its deletion placed there).
    const bool deleting = metaOf(obj).contains(QLatin1String("deletionTimestamp"));
    const bool released = metaOf(obj).value(QLatin1String("finalizers")).toArray().isEmpty();
    if (deleting && released && type.name == QLatin1String("namespaces")) {
        QList<ObjectChange> changes = namespaceContents(name);
        changes.append(ObjectChange{ObjectChange::Kind::Deleted, type.name, ns, name, obj});
        return changes;
    }
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
                recordLabelChange(c, actorOf(ctx->attributes.user.name, ctx->impersonator));
    const QString &urlName = ctx->trace.info.name;
    QJsonObject result;
    for (const ObjectChange &c : changes)
        if (c.resource == w->type->name && (urlName.isEmpty() || c.name == urlName))
            result = c.object;
    if (result.isEmpty() && !changes.isEmpty())
        result = changes.first().object;
    const int successCode = w->operation == QLatin1String("CREATE") ? 201 : 200;
    finish(ctx, typedResponse(ctx->request, successCode,
                              typed(*w->type, servedObject(*w->type, result)), ctx->pretty));
}

WebhookAttributes ClusterApi::requestAttributes(const Write &w)
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
    return a;
}

WebhookAttributes ClusterApi::webhookAttributes(const Write &w) const
{
    const ResourceType &type = *w.type;
    WebhookAttributes a = requestAttributes(w);
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
    const WebhookAttributes own = webhookAttributes(*w);
    const std::optional<WebhookAttributes> equivalent = equivalentAttributes(own);
    const auto formFor = [&](const AdmissionWebhook &h) -> const WebhookAttributes & {
        return h.sendEquivalent && equivalent ? *equivalent : own;
    };
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
        const AdmissionWebhook &h = w->mutating[w->mutatingPlan[position]];
        if (matches(h, formFor(h)))
            break;
    }
    const int index = w->mutatingPlan[position];
    const AdmissionWebhook &hook = w->mutating[index];
    const WebhookAttributes &a = formFor(hook);
    const bool inEquivalentForm = &a != &own;
    m_webhookCaller->call(
        hook, a, [this, w, index, position, inEquivalentForm](WebhookAnswer answer) {
            w->ctx->warnings += answer.warnings;
            if (answer.allowed && !answer.patch.isEmpty()) {
                const QJsonObject before = w->object;
                if (auto refused =
                        applyWebhookPatch(*w, answer.webhook, answer.patch, inEquivalentForm)) {
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
                                                    const QByteArray &patch, bool inEquivalentForm)
{
    if (w.operation == QLatin1String("DELETE"))
        return Status::internalError(QStringLiteral("admission webhook \"%1\" attempted to modify "
                                                    "the object, which is not supported for this "
                                                    "operation")
                                         .arg(webhook));
    // A webhook asked in the equivalent resource's form patched that form.
    const std::optional<WebhookAttributes> own =
        inEquivalentForm ? std::optional(webhookAttributes(w)) : std::nullopt;
    const std::optional<WebhookAttributes> equivalent =
        own ? equivalentAttributes(*own) : std::nullopt;
    const QJsonObject before = equivalent ? equivalent->object : typed(*w.type, w.object);
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
    if (equivalent)
        obj = fromEquivalent(*own, obj);
    // Fields this server does not know are dropped, as from any client (never stored).
    pruneUnknownFields(&obj, w.type->apiVersion(), w.type->kind);
    keepServerOwned(w, obj);
    if (std::optional<Status> large = tooLarge(obj))
        return large;
    if (const std::optional<QString> mismatch =
            protobufTypeMismatch(obj, KubeSchemas::forKind(w.type->apiVersion(), w.type->kind)))
        return Status::internalError(
            QStringLiteral("admission webhook \"%1\" returned an object that cannot be "
                           "handled as a %2: %3")
                .arg(webhook, w.type->kind, *mismatch));
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
    const WebhookAttributes own = webhookAttributes(*w);
    const std::optional<WebhookAttributes> equivalent = equivalentAttributes(own);
    const auto formFor = [&](const AdmissionWebhook &h) -> const WebhookAttributes & {
        return h.sendEquivalent && equivalent ? *equivalent : own;
    };
    QList<AdmissionWebhook> asked;
    for (const AdmissionWebhook &h : std::as_const(w->validating))
        if (matches(h, formFor(h)))
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
        m_webhookCaller->call(
            asked[i], formFor(asked[i]), [this, w, pending, i](WebhookAnswer answer) {
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
        // namespace): the built-in checks are cheap, and asked again on what is stored now,
        // RBAC's escalation check on the policy as it is now too (a binding of the caller's
        // removed meanwhile takes its rules away here, as kube-apiserver's check at storage
        // does).
        {
            QMutexLocker lock(&m_mutex);
            w->ctx->authorizer = m_authorizer;
        }
        if (auto s = admitWrite(*w))
            return *s;
        if (auto s = validateWrite(*w))
            return *s;
        return changesOf(*w);
    });
}

} // namespace Gatehouse::Cluster
