#include "cluster/openapi.h"

#include "cluster/resources.h"
#include "cluster/schemas.h"

#include <google/protobuf/descriptor.h>

#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

namespace pb = google::protobuf;

namespace Gatehouse::Cluster {

namespace {

using namespace KubeSchemas;

const char kApiVersionDescription[] =
    "APIVersion defines the versioned schema of this representation of an object. Servers "
    "should convert recognized schemas to the latest internal value, and may reject "
    "unrecognized values. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#resources";
const char kKindDescription[] =
    "Kind is a string value representing the REST resource this object represents. Servers "
    "may infer this from the endpoint the client submits requests to. Cannot be updated. In "
    "CamelCase. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#types-kinds";

// "k8s.io.api.core.v1.Pod" -> "io.k8s.api.core.v1.Pod", as kube names its schemas.
QString schemaName(const pb::Descriptor *d)
{
    QString name = fromStd(d->full_name());
    if (name.startsWith(QLatin1String("k8s.io.")))
        name = QStringLiteral("io.k8s.") + name.mid(7);
    return name;
}

QJsonObject ref(const pb::Descriptor *d)
{
    return {{QStringLiteral("$ref"), QStringLiteral("#/components/schemas/") + schemaName(d)}};
}

// Go doc comments as openapi-gen writes them: lines of a paragraph joined by spaces,
// paragraphs by a blank line, list items on their own line.
QString prose(const QString &comment)
{
    static const QRegularExpression item(QStringLiteral(R"(^([-*]|\d+\.)\s)"));
    QString out;
    bool paragraphBreak = false;
    for (const QString &raw : comment.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty()) {
            paragraphBreak = !out.isEmpty();
            continue;
        }
        if (out.isEmpty())
            out = line;
        else if (paragraphBreak)
            out += QStringLiteral("\n\n") + line;
        else if (item.match(line).hasMatch())
            out += QLatin1Char('\n') + line;
        else
            out += QLatin1Char(' ') + line;
        paragraphBreak = false;
    }
    return out;
}

QJsonObject scalarSchema(const pb::FieldDescriptor *f)
{
    switch (f->type()) {
    case pb::FieldDescriptor::TYPE_STRING:
        return {{QStringLiteral("type"), QStringLiteral("string")}};
    case pb::FieldDescriptor::TYPE_BYTES:
        return {{QStringLiteral("type"), QStringLiteral("string")},
                {QStringLiteral("format"), QStringLiteral("byte")}};
    case pb::FieldDescriptor::TYPE_BOOL:
        return {{QStringLiteral("type"), QStringLiteral("boolean")}};
    case pb::FieldDescriptor::TYPE_DOUBLE:
    case pb::FieldDescriptor::TYPE_FLOAT:
        return {{QStringLiteral("type"), QStringLiteral("number")},
                {QStringLiteral("format"), QStringLiteral("double")}};
    case pb::FieldDescriptor::TYPE_INT32:
    case pb::FieldDescriptor::TYPE_SINT32:
    case pb::FieldDescriptor::TYPE_UINT32:
        return {{QStringLiteral("type"), QStringLiteral("integer")},
                {QStringLiteral("format"), QStringLiteral("int32")}};
    default:
        return {{QStringLiteral("type"), QStringLiteral("integer")},
                {QStringLiteral("format"), QStringLiteral("int64")}};
    }
}

// The schema of one value of f (an item, for a repeated field); messages go to `needed`.
QJsonObject valueSchema(const pb::FieldDescriptor *f, QList<const pb::Descriptor *> *needed)
{
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
        return scalarSchema(f);
    needed->append(f->message_type());
    return {{QStringLiteral("allOf"), QJsonArray{ref(f->message_type())}}};
}

QJsonObject fieldSchema(const pb::FieldDescriptor *f, QList<const pb::Descriptor *> *needed)
{
    QJsonObject schema;
    if (f->is_map()) {
        schema = {{QStringLiteral("type"), QStringLiteral("object")},
                  {QStringLiteral("additionalProperties"),
                   valueSchema(f->message_type()->map_value(), needed)}};
    } else if (f->is_repeated()) {
        schema = {{QStringLiteral("type"), QStringLiteral("array")},
                  {QStringLiteral("items"), valueSchema(f, needed)}};
        const QMultiHash<QString, QString> t = goTags(f);
        if (t.contains(QStringLiteral("listType")))
            schema.insert(QStringLiteral("x-kubernetes-list-type"),
                          t.value(QStringLiteral("listType")));
        const QStringList keys = t.values(QStringLiteral("listMapKey"));
        if (!keys.isEmpty()) {
            QStringList ordered(keys.rbegin(), keys.rend()); // QMultiHash: newest first
            schema.insert(QStringLiteral("x-kubernetes-list-map-keys"),
                          QJsonArray::fromStringList(ordered));
        }
        if (t.contains(QStringLiteral("patchMergeKey")))
            schema.insert(QStringLiteral("x-kubernetes-patch-merge-key"),
                          t.value(QStringLiteral("patchMergeKey")));
        if (t.contains(QStringLiteral("patchStrategy")))
            schema.insert(QStringLiteral("x-kubernetes-patch-strategy"),
                          t.value(QStringLiteral("patchStrategy")));
    } else {
        schema = valueSchema(f, needed);
    }
    const QString text = prose(description(f));
    if (!text.isEmpty())
        schema.insert(QStringLiteral("description"), text);
    return schema;
}

// Properties of d (inline structs flattened) into `properties` and `required`.
void addProperties(const pb::Descriptor *d, QJsonObject *properties, QStringList *required,
                   QList<const pb::Descriptor *> *needed)
{
    for (int i = 0; i < d->field_count(); ++i) {
        const pb::FieldDescriptor *f = d->field(i);
        if (isInline(f)) {
            addProperties(f->message_type(), properties, required, needed);
            continue;
        }
        const QString name = jsonName(f);
        properties->insert(name, fieldSchema(f, needed));
        if (!isOptional(f) && !f->is_repeated())
            required->append(name);
    }
}

QJsonObject specialSchema(Special special)
{
    switch (special) {
    case Special::Time:
    case Special::MicroTime:
        return {{QStringLiteral("type"), QStringLiteral("string")},
                {QStringLiteral("format"), QStringLiteral("date-time")}};
    case Special::Duration:
        return {{QStringLiteral("type"), QStringLiteral("string")}};
    // Types with OpenAPIV3OneOfTypes in Go (kubectl explain names them by their schema).
    case Special::Quantity:
        return {{QStringLiteral("oneOf"),
                 QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}},
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}}}};
    case Special::IntOrString:
        return {{QStringLiteral("format"), QStringLiteral("int-or-string")},
                {QStringLiteral("oneOf"),
                 QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}},
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}};
    case Special::FieldsV1:
    case Special::RawExtension:
        return {{QStringLiteral("type"), QStringLiteral("object")}};
    case Special::StringList:
        return {{QStringLiteral("type"), QStringLiteral("array")},
                {QStringLiteral("items"),
                 QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}};
    case Special::None:
        break;
    }
    return {};
}

QJsonObject gvk(const QString &group, const QString &version, const QString &kind)
{
    return {{QStringLiteral("group"), group},
            {QStringLiteral("version"), version},
            {QStringLiteral("kind"), kind}};
}

QJsonObject queryParameter(const QString &name, const QString &description,
                           const QString &type = QStringLiteral("string"))
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("in"), QStringLiteral("query")},
            {QStringLiteral("description"), description},
            {QStringLiteral("schema"),
             QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("uniqueItems"), true}}}};
}

QJsonObject pathParameter(const QString &name, const QString &description)
{
    return {
        {QStringLiteral("name"), name},
        {QStringLiteral("in"), QStringLiteral("path")},
        {QStringLiteral("required"), true},
        {QStringLiteral("description"), description},
        {QStringLiteral("schema"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                               {QStringLiteral("uniqueItems"), true}}}};
}

QJsonArray writeParameters(bool patch)
{
    QJsonArray p{
        queryParameter(QStringLiteral("dryRun"),
                       QStringLiteral("When present, indicates that modifications should not be "
                                      "persisted. Valid values are: - All: all dry run stages "
                                      "will be processed")),
        queryParameter(QStringLiteral("fieldManager"),
                       QStringLiteral("fieldManager is a name associated with the actor or "
                                      "entity that is making these changes.")),
        queryParameter(
            QStringLiteral("fieldValidation"),
            QStringLiteral("fieldValidation instructs the server on how to handle objects in the "
                           "request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid "
                           "values are: - Ignore: This will ignore any unknown fields that are "
                           "silently dropped from the object, and will ignore all but the last "
                           "duplicate field that the decoder encounters. - Warn: This will send "
                           "a warning via the standard warning response header for each unknown "
                           "field that is dropped from the object, and for each duplicate field "
                           "that is encountered. This is the default. - Strict: This will fail "
                           "the request with a BadRequest error if any unknown fields would be "
                           "dropped from the object, or if any duplicate fields are present."))};
    if (patch)
        p.append(queryParameter(QStringLiteral("force"),
                                QStringLiteral("Force is going to \"force\" Apply requests."),
                                QStringLiteral("boolean")));
    return p;
}

QJsonObject content(const QJsonObject &schema, const QStringList &types)
{
    QJsonObject c;
    for (const QString &t : types)
        c.insert(t, QJsonObject{{QStringLiteral("schema"), schema}});
    return c;
}

const QStringList kAnswerTypes{QStringLiteral("application/json"),
                               QStringLiteral("application/yaml"),
                               QStringLiteral("application/vnd.kubernetes.protobuf")};

QJsonObject operation(const QString &action, const QString &operationId, const QString &description,
                      const QString &tag, const QJsonObject &kindGvk, const QJsonObject &answer,
                      const QJsonArray &parameters, const QJsonObject &body = {},
                      const QStringList &bodyTypes = {QStringLiteral("*/*")})
{
    QJsonObject op{
        {QStringLiteral("tags"), QJsonArray{tag}},
        {QStringLiteral("description"), description},
        {QStringLiteral("operationId"), operationId},
        {QStringLiteral("responses"),
         QJsonObject{{QStringLiteral("200"),
                      QJsonObject{{QStringLiteral("description"), QStringLiteral("OK")},
                                  {QStringLiteral("content"), content(answer, kAnswerTypes)}}},
                     {QStringLiteral("401"), QJsonObject{{QStringLiteral("description"),
                                                          QStringLiteral("Unauthorized")}}}}},
        {QStringLiteral("x-kubernetes-action"), action},
        {QStringLiteral("x-kubernetes-group-version-kind"), kindGvk}};
    if (!parameters.isEmpty())
        op.insert(QStringLiteral("parameters"), parameters);
    if (!body.isEmpty())
        op.insert(QStringLiteral("requestBody"),
                  QJsonObject{{QStringLiteral("content"), content(body, bodyTypes)},
                              {QStringLiteral("required"), true}});
    return op;
}

// "rbac.authorization.k8s.io" + "v1" -> "RbacAuthorizationV1"; "" -> "CoreV1".
QString operationGroup(const ResourceType &t)
{
    QString out;
    for (const QString &part :
         (t.group.isEmpty() ? QStringLiteral("core") : t.group.section(QLatin1Char('.'), 0, -3))
             .split(QLatin1Char('.')))
        out += part.left(1).toUpper() + part.mid(1);
    return out + t.version.left(1).toUpper() + t.version.mid(1);
}

QJsonObject document(const QString &group, const QString &version)
{
    QJsonObject paths;
    QList<const pb::Descriptor *> needed;
    const QString base = group.isEmpty() ? QStringLiteral("/api/") + version
                                         : QStringLiteral("/apis/%1/%2").arg(group, version);
    const QString tag =
        (group.isEmpty() ? QStringLiteral("core") : group.section(QLatin1Char('.'), 0, 0)) +
        QLatin1Char('_') + version;
    const QJsonObject patchBody{{QStringLiteral("type"), QStringLiteral("object")}};
    const QStringList patchTypes{QStringLiteral("application/apply-patch+yaml"),
                                 QStringLiteral("application/json-patch+json"),
                                 QStringLiteral("application/merge-patch+json"),
                                 QStringLiteral("application/strategic-merge-patch+json")};
    QHash<QString, const pb::Descriptor *> kinds; // kind -> message, for the GVK extension
    for (const ResourceType &t : servedResources()) {
        if (t.group != group || t.version != version)
            continue;
        const pb::Descriptor *d = forKind(t.apiVersion(), t.kind);
        if (!d)
            continue;
        needed.append(d);
        kinds.insert(t.kind, d);
        const QJsonObject kindGvk = gvk(group, version, t.kind);
        const QJsonObject object = ref(d);
        const QString op = operationGroup(t);
        const QString nsSuffix = t.namespaced ? QStringLiteral("Namespaced") : QString();
        const QString collection = t.namespaced
                                       ? base + QStringLiteral("/namespaces/{namespace}/") + t.name
                                       : base + QLatin1Char('/') + t.name;
        QJsonArray scope{
            queryParameter(QStringLiteral("pretty"),
                           QStringLiteral("If 'true', then the output is pretty printed."))};
        if (t.namespaced)
            scope.prepend(pathParameter(
                QStringLiteral("namespace"),
                QStringLiteral("object name and auth scope, such as for teams and projects")));
        if (!t.stored) {
            paths.insert(collection,
                         QJsonObject{{QStringLiteral("post"),
                                      operation(QStringLiteral("post"),
                                                QStringLiteral("create") + op + nsSuffix + t.kind,
                                                QStringLiteral("create a ") + t.kind, tag, kindGvk,
                                                object, writeParameters(false), object)},
                                     {QStringLiteral("parameters"), scope}});
            continue;
        }
        const pb::Descriptor *list = forKind(t.apiVersion(), t.kind + QStringLiteral("List"));
        if (list) {
            needed.append(list);
            kinds.insert(t.kind + QStringLiteral("List"), list);
        }
        const QJsonObject listRef = list ? ref(list) : object;
        const QJsonArray listParameters{
            queryParameter(
                QStringLiteral("labelSelector"),
                QStringLiteral(
                    "A selector to restrict the list of returned objects by their labels.")),
            queryParameter(
                QStringLiteral("fieldSelector"),
                QStringLiteral(
                    "A selector to restrict the list of returned objects by their fields.")),
            queryParameter(
                QStringLiteral("limit"),
                QStringLiteral("limit is a maximum number of responses to return for a list call."),
                QStringLiteral("integer")),
            queryParameter(QStringLiteral("continue"),
                           QStringLiteral("The continue option should be set when retrieving more "
                                          "results from the server.")),
            queryParameter(QStringLiteral("resourceVersion"),
                           QStringLiteral("resourceVersion sets a constraint on what resource "
                                          "versions a request may be served from.")),
            queryParameter(
                QStringLiteral("watch"),
                QStringLiteral("Watch for changes to the described resources and return them as a "
                               "stream of add, update, and remove notifications."),
                QStringLiteral("boolean"))};
        paths.insert(
            collection,
            QJsonObject{
                {QStringLiteral("get"),
                 operation(QStringLiteral("list"), QStringLiteral("list") + op + nsSuffix + t.kind,
                           QStringLiteral("list or watch objects of kind ") + t.kind, tag, kindGvk,
                           listRef, listParameters)},
                {QStringLiteral("post"),
                 operation(QStringLiteral("post"),
                           QStringLiteral("create") + op + nsSuffix + t.kind,
                           QStringLiteral("create a ") + t.kind, tag, kindGvk, object,
                           writeParameters(false), object)},
                {QStringLiteral("parameters"), scope}});
        if (t.namespaced)
            paths.insert(
                base + QLatin1Char('/') + t.name,
                QJsonObject{{QStringLiteral("get"),
                             operation(QStringLiteral("list"),
                                       QStringLiteral("list") + op + t.kind +
                                           QStringLiteral("ForAllNamespaces"),
                                       QStringLiteral("list or watch objects of kind ") + t.kind,
                                       tag, kindGvk, listRef, listParameters)}});
        QJsonArray itemScope = scope;
        itemScope.prepend(
            pathParameter(QStringLiteral("name"), QStringLiteral("name of the ") + t.kind));
        auto item = [&](const QString &path, const QString &suffix, const QString &what) {
            paths.insert(
                path,
                QJsonObject{
                    {QStringLiteral("get"),
                     operation(QStringLiteral("get"),
                               QStringLiteral("read") + op + nsSuffix + t.kind + suffix,
                               QStringLiteral("read ") + what +
                                   QStringLiteral(" of the specified ") + t.kind,
                               tag, kindGvk, object, {})},
                    {QStringLiteral("put"),
                     operation(QStringLiteral("put"),
                               QStringLiteral("replace") + op + nsSuffix + t.kind + suffix,
                               QStringLiteral("replace ") + what +
                                   QStringLiteral(" of the specified ") + t.kind,
                               tag, kindGvk, object, writeParameters(false), object)},
                    {QStringLiteral("patch"),
                     operation(QStringLiteral("patch"),
                               QStringLiteral("patch") + op + nsSuffix + t.kind + suffix,
                               QStringLiteral("partially update ") + what +
                                   QStringLiteral(" of the specified ") + t.kind,
                               tag, kindGvk, object, writeParameters(true), patchBody, patchTypes)},
                    {QStringLiteral("parameters"), itemScope}});
        };
        item(collection + QStringLiteral("/{name}"), QString(), QStringLiteral("the"));
        QJsonObject itemPath = paths.value(collection + QStringLiteral("/{name}")).toObject();
        itemPath.insert(
            QStringLiteral("delete"),
            operation(
                QStringLiteral("delete"), QStringLiteral("delete") + op + nsSuffix + t.kind,
                QStringLiteral("delete a ") + t.kind, tag, kindGvk, object,
                QJsonArray{queryParameter(
                    QStringLiteral("dryRun"),
                    QStringLiteral(
                        "When present, indicates that modifications should not be persisted."))}));
        paths.insert(collection + QStringLiteral("/{name}"), itemPath);
        if (t.hasStatus())
            item(collection + QStringLiteral("/{name}/status"), QStringLiteral("Status"),
                 QStringLiteral("status"));
    }

    // Every message the kinds reach, and Status and DeleteOptions.
    for (const char *meta : {"Status", "DeleteOptions"})
        if (const pb::Descriptor *d = forKind(QStringLiteral("v1"), QLatin1String(meta)))
            needed.append(d);
    QJsonObject schemas;
    QSet<const pb::Descriptor *> done;
    while (!needed.isEmpty()) {
        const pb::Descriptor *d = needed.takeLast();
        if (done.contains(d))
            continue;
        done.insert(d);
        QJsonObject schema = specialSchema(specialOf(d));
        if (schema.isEmpty()) {
            QJsonObject properties;
            QStringList required;
            addProperties(d, &properties, &required, &needed);
            schema = {{QStringLiteral("type"), QStringLiteral("object")},
                      {QStringLiteral("properties"), properties}};
            if (!required.isEmpty())
                schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
        }
        const QString text = prose(description(d));
        if (!text.isEmpty())
            schema.insert(QStringLiteral("description"), text);
        for (auto it = kinds.cbegin(); it != kinds.cend(); ++it) {
            if (it.value() != d)
                continue;
            QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
            properties.insert(QStringLiteral("apiVersion"),
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                          {QStringLiteral("description"),
                                           QLatin1String(kApiVersionDescription)}});
            properties.insert(
                QStringLiteral("kind"),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                            {QStringLiteral("description"), QLatin1String(kKindDescription)}});
            schema.insert(QStringLiteral("properties"), properties);
            schema.insert(QStringLiteral("x-kubernetes-group-version-kind"),
                          QJsonArray{gvk(group, version, it.key())});
        }
        schemas.insert(schemaName(d), schema);
    }
    return {
        {QStringLiteral("openapi"), QStringLiteral("3.0.0")},
        {QStringLiteral("info"),
         QJsonObject{{QStringLiteral("title"), QStringLiteral("Kubernetes")},
                     {QStringLiteral("version"), QStringLiteral("v1.32.0")}}},
        {QStringLiteral("paths"), paths},
        {QStringLiteral("components"),
         QJsonObject{
             {QStringLiteral("schemas"), schemas},
             {QStringLiteral("securitySchemes"),
              QJsonObject{{QStringLiteral("BearerToken"),
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("apiKey")},
                                       {QStringLiteral("description"),
                                        QStringLiteral("Bearer Token authentication")},
                                       {QStringLiteral("name"), QStringLiteral("authorization")},
                                       {QStringLiteral("in"), QStringLiteral("header")}}}}}}},
        {QStringLiteral("security"),
         QJsonArray{QJsonObject{{QStringLiteral("BearerToken"), QJsonArray{}}}}}};
}

struct Documents
{
    QByteArray root;
    QHash<QString, OpenApiDocument> byPath;

    static const Documents &instance()
    {
        static const Documents documents;
        return documents;
    }

private:
    Documents()
    {
        QJsonObject rootPaths;
        for (const QString &group : servedGroups()) {
            QSet<QString> versions;
            for (const ResourceType &t : servedResources())
                if (t.group == group)
                    versions.insert(t.version);
            for (const QString &version : std::as_const(versions)) {
                const QString path = group.isEmpty()
                                         ? QStringLiteral("api/") + version
                                         : QStringLiteral("apis/%1/%2").arg(group, version);
                OpenApiDocument doc;
                doc.body = QJsonDocument(document(group, version)).toJson(QJsonDocument::Compact);
                doc.hash = QCryptographicHash::hash(doc.body, QCryptographicHash::Sha512)
                               .toHex()
                               .toUpper();
                rootPaths.insert(path, QJsonObject{{QStringLiteral("serverRelativeURL"),
                                                    QStringLiteral("/openapi/v3/") + path +
                                                        QStringLiteral("?hash=") +
                                                        QString::fromLatin1(doc.hash)}});
                byPath.insert(path, doc);
            }
        }
        root = QJsonDocument(QJsonObject{{QStringLiteral("paths"), rootPaths}})
                   .toJson(QJsonDocument::Compact);
    }
};

// value without the members d does not have; their paths go to out. Strategic merge
// directives ("$patch", "$setElementOrder/...") are no fields and stay.
QJsonValue prune(const QJsonValue &value, const pb::Descriptor *d, const QString &path, bool top,
                 QStringList *out)
{
    if (specialOf(d) != Special::None || !value.isObject())
        return value;
    QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end();) {
        const QString key = it.key();
        if ((top && (key == QLatin1String("apiVersion") || key == QLatin1String("kind"))) ||
            key.startsWith(QLatin1Char('$'))) {
            ++it;
            continue;
        }
        const QString where = path.isEmpty() ? key : path + QLatin1Char('.') + key;
        const pb::FieldDescriptor *f = jsonField(d, key);
        if (!f) {
            out->append(where);
            it = object.erase(it);
            continue;
        }
        if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
            if (f->is_map()) {
                const pb::FieldDescriptor *v = f->message_type()->map_value();
                if (v->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
                    it.value().isObject()) {
                    QJsonObject map = it.value().toObject();
                    for (auto e = map.begin(); e != map.end(); ++e)
                        e.value() = prune(e.value(), v->message_type(),
                                          where + QLatin1Char('.') + e.key(), false, out);
                    it.value() = map;
                }
            } else if (f->is_repeated()) {
                if (it.value().isArray()) {
                    QJsonArray items = it.value().toArray();
                    for (qsizetype i = 0; i < items.size(); ++i)
                        items[i] =
                            prune(items.at(i), f->message_type(),
                                  where + QLatin1Char('[') + QString::number(i) + QLatin1Char(']'),
                                  false, out);
                    it.value() = items;
                }
            } else {
                it.value() = prune(it.value(), f->message_type(), where, false, out);
            }
        }
        ++it;
    }
    return object;
}

} // namespace

const QByteArray &openApiV3Root()
{
    return Documents::instance().root;
}

const OpenApiDocument *openApiV3Document(const QString &path)
{
    const Documents &documents = Documents::instance();
    const auto it = documents.byPath.constFind(path);
    return it == documents.byPath.constEnd() ? nullptr : &it.value();
}

std::optional<Core::HttpResponse> openApiV3Response(const Core::HttpRequest &request)
{
    const QString &path = request.path;
    if (path != QLatin1String("/openapi/v3") && !path.startsWith(QLatin1String("/openapi/v3/")))
        return std::nullopt;
    Core::HttpResponse r;
    r.setHeader("Content-Type", "application/json");
    const QString rest = path.mid(int(sizeof "/openapi/v3/") - 1);
    if (rest.isEmpty()) {
        r.body = openApiV3Root();
        r.setHeader("Cache-Control", "no-cache, private");
        return r;
    }
    const OpenApiDocument *doc = openApiV3Document(rest);
    if (!doc)
        return Core::HttpResponse::text(404, "404 page not found\n");
    const QByteArray etag = '"' + doc->hash + '"';
    const QString asked = request.query.queryItemValue(QStringLiteral("hash"));
    if (!asked.isEmpty() && asked.toLatin1() != doc->hash) {
        Core::HttpResponse moved;
        moved.status = 301;
        moved.setHeader("Location", "/openapi/v3/" + rest.toUtf8() + "?hash=" + doc->hash);
        return moved;
    }
    r.setHeader("Etag", etag);
    r.setHeader("Cache-Control", asked.isEmpty() ? QByteArray("no-cache, private")
                                                 : QByteArray("public, immutable"));
    if (request.header("if-none-match") == etag) {
        r.status = 304;
        return r;
    }
    r.body = doc->body;
    return r;
}

QStringList pruneUnknownFields(QJsonObject *object, const QString &apiVersion, const QString &kind)
{
    QStringList out;
    if (const pb::Descriptor *d = forKind(apiVersion, kind))
        *object = prune(*object, d, QString(), true, &out).toObject();
    return out;
}

} // namespace Gatehouse::Cluster
