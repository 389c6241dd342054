#include "cluster/status.h"
#include "core/jsontypename.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QVarLengthArray>

#include <algorithm>

namespace Gatehouse::Cluster {

namespace {

// Kubernetes' Go struct field order for the keys its objects share; other keys follow,
// sorted (map keys in Go are sorted too).
int keyRank(const QString &k)
{
    static const QHash<QString, int> ranks = [] {
        const char *order[] = {"kind",
                               "apiVersion",
                               "metadata",
                               "name",
                               "generateName",
                               "namespace",
                               "selfLink",
                               "uid",
                               "resourceVersion",
                               "generation",
                               "creationTimestamp",
                               "deletionTimestamp",
                               "deletionGracePeriodSeconds",
                               "labels",
                               "annotations",
                               "ownerReferences",
                               "finalizers",
                               "spec",
                               "status"};
        QHash<QString, int> r;
        int i = 0;
        for (const char *k : order)
            r.insert(QString::fromLatin1(k), i++);
        return r;
    }();
    return ranks.value(k, 1000);
}

void appendEscaped(QByteArray &out, const QString &s)
{
    out.append('"');
    const QByteArray utf8 = s.toUtf8();
    static const char hex[] = "0123456789abcdef";
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        switch (c) {
        case '"':
            out.append("\\\"");
            continue;
        case '\\':
            out.append("\\\\");
            continue;
        case '\n':
            out.append("\\n");
            continue;
        case '\r':
            out.append("\\r");
            continue;
        case '\t':
            out.append("\\t");
            continue;
        case '\b':
            out.append("\\b");
            continue;
        case '\f':
            out.append("\\f");
            continue;
        case '<':
        case '>':
        case '&':
            out.append("\\u00").append(hex[c >> 4]).append(hex[c & 0xf]);
            continue;
        default:
            break;
        }
        if (c < 0x20) {
            out.append("\\u00").append(hex[c >> 4]).append(hex[c & 0xf]);
            continue;
        }
        // U+2028 and U+2029 (E2 80 A8 / E2 80 A9) break JavaScript: Go escapes them.
        if (c == 0xe2 && i + 2 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(utf8[i + 2]) & 0xfe) == 0xa8) {
            out.append(static_cast<unsigned char>(utf8[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029");
            i += 2;
            continue;
        }
        out.append(char(c));
    }
    out.append('"');
}

} // namespace

void JsonWriter::newline()
{
    if (!m_pretty)
        return;
    m_out.append('\n');
    m_out.append(QByteArray(2 * m_stack.size(), ' '));
}

void JsonWriter::separator()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_stack.isEmpty())
        return;
    Level &l = m_stack.last();
    if (l.count++ > 0)
        m_out.append(',');
    newline();
}

JsonWriter &JsonWriter::beginObject()
{
    separator();
    m_out.append('{');
    m_stack.append(Level{true, 0});
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    const Level l = m_stack.takeLast();
    if (l.count > 0)
        newline();
    m_out.append('}');
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    separator();
    m_out.append('[');
    m_stack.append(Level{false, 0});
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    const Level l = m_stack.takeLast();
    if (l.count > 0)
        newline();
    m_out.append(']');
    return *this;
}

JsonWriter &JsonWriter::key(const QString &k)
{
    separator();
    appendEscaped(m_out, k);
    m_out.append(m_pretty ? ": " : ":");
    m_afterKey = true;
    return *this;
}

JsonWriter &JsonWriter::value(const QString &s)
{
    separator();
    appendEscaped(m_out, s);
    return *this;
}

JsonWriter &JsonWriter::value(qint64 n)
{
    separator();
    m_out.append(QByteArray::number(n));
    return *this;
}

JsonWriter &JsonWriter::value(bool b)
{
    separator();
    m_out.append(b ? "true" : "false");
    return *this;
}

JsonWriter &JsonWriter::value(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        separator();
        m_out.append("null");
        return *this;
    case QJsonValue::Bool:
        return value(v.toBool());
    case QJsonValue::Double: {
        if (const std::optional<qint64> whole = Core::jsonInteger(v))
            return value(*whole);
        const double d = v.toDouble();
        separator();
        m_out.append(QByteArray::number(d, 'g', 17));
        return *this;
    }
    case QJsonValue::String:
        return value(v.toString());
    case QJsonValue::Array: {
        beginArray();
        for (const QJsonValue e : v.toArray())
            value(e);
        return endArray();
    }
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        // QJsonObject iterates its keys sorted; ranking each once keeps that order among
        // equal ranks (stable sort).
        QVarLengthArray<std::pair<int, QJsonObject::const_iterator>, 16> entries;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            entries.append({keyRank(it.key()), it});
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        beginObject();
        for (const auto &e : entries)
            key(e.second.key()).value(e.second.value());
        return endObject();
    }
    }
    return *this;
}

QByteArray JsonWriter::take()
{
    m_stack.clear();
    m_afterKey = false;
    return std::exchange(m_out, QByteArray());
}

QByteArray JsonWriter::encode(const QJsonValue &v, bool pretty)
{
    JsonWriter w(pretty);
    w.value(v);
    return w.take();
}

QString Status::groupResource(const QString &group, const QString &resource)
{
    return group.isEmpty() ? resource : resource + QLatin1Char('.') + group;
}

namespace {

Status makeStatus(int code, const char *reason, const QString &message)
{
    Status s;
    s.code = code;
    s.reason = QString::fromLatin1(reason);
    s.message = message;
    return s;
}

StatusDetails detailsFor(const QString &group, const QString &kind, const QString &name)
{
    StatusDetails d;
    d.name = name;
    d.group = group;
    d.kind = kind;
    return d;
}

} // namespace

Status Status::unauthorized()
{
    return makeStatus(401, "Unauthorized", QStringLiteral("Unauthorized"));
}

Status Status::forbidden(const QString &group, const QString &resource, const QString &name,
                         const QString &err)
{
    const QString gr = groupResource(group, resource);
    QString message;
    if (gr.isEmpty())
        message = QStringLiteral("forbidden: %1").arg(err);
    else if (name.isEmpty())
        message = QStringLiteral("%1 is forbidden: %2").arg(gr, err);
    else
        message = QStringLiteral("%1 \"%2\" is forbidden: %3").arg(gr, name, err);
    Status s = makeStatus(403, "Forbidden", message);
    s.details = detailsFor(group, resource, name);
    return s;
}

Status Status::notFound(const QString &group, const QString &resource, const QString &name)
{
    Status s =
        makeStatus(404, "NotFound",
                   QStringLiteral("%1 \"%2\" not found").arg(groupResource(group, resource), name));
    s.details = detailsFor(group, resource, name);
    return s;
}

Status Status::alreadyExists(const QString &group, const QString &resource, const QString &name)
{
    Status s = makeStatus(
        409, "AlreadyExists",
        QStringLiteral("%1 \"%2\" already exists").arg(groupResource(group, resource), name));
    s.details = detailsFor(group, resource, name);
    return s;
}

Status Status::conflict(const QString &group, const QString &resource, const QString &name,
                        const QString &err)
{
    Status s = makeStatus(409, "Conflict",
                          QStringLiteral("Operation cannot be fulfilled on %1 \"%2\": %3")
                              .arg(groupResource(group, resource), name, err));
    s.details = detailsFor(group, resource, name);
    return s;
}

Status Status::staleResourceVersion(const QString &group, const QString &resource,
                                    const QString &name)
{
    return conflict(group, resource, name,
                    QStringLiteral("the object has been modified; please apply your changes to "
                                   "the latest version and try again"));
}

Status Status::invalid(const QString &group, const QString &kind, const QString &name,
                       const QList<StatusCause> &causes)
{
    QStringList parts;
    for (const StatusCause &c : causes)
        parts.append(c.field.isEmpty() ? c.message : c.field + QStringLiteral(": ") + c.message);
    QString errs = parts.size() == 1
                       ? parts.first()
                       : QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    Status s =
        makeStatus(422, "Invalid",
                   QStringLiteral("%1 \"%2\" is invalid: %3")
                       .arg(group.isEmpty() ? kind : kind + QLatin1Char('.') + group, name, errs));
    StatusDetails d = detailsFor(group, kind, name);
    d.causes = causes;
    s.details = d;
    return s;
}

Status Status::badRequest(const QString &message)
{
    return makeStatus(400, "BadRequest", message);
}

Status Status::internalError(const QString &err)
{
    Status s =
        makeStatus(500, "InternalError", QStringLiteral("Internal error occurred: %1").arg(err));
    StatusDetails d;
    d.causes.append(StatusCause{QString(), err, QString()});
    s.details = d;
    return s;
}

Status Status::unsupportedMediaType(const QStringList &accepted)
{
    return makeStatus(
        415, "UnsupportedMediaType",
        QStringLiteral("the body of the request was in an unknown format - accepted media "
                       "types include: %1")
            .arg(accepted.join(QStringLiteral(", "))));
}

Status Status::notAcceptable(const QStringList &accepted)
{
    return makeStatus(406, "NotAcceptable",
                      QStringLiteral("only the following media types are accepted: %1")
                          .arg(accepted.join(QStringLiteral(", "))));
}

Status Status::routeNotFound()
{
    Status s = makeStatus(404, "NotFound",
                          QStringLiteral("the server could not find the requested resource"));
    s.details = StatusDetails();
    return s;
}

Status Status::methodNotAllowed()
{
    Status s = makeStatus(
        405, "MethodNotAllowed",
        QStringLiteral("the server does not allow this method on the requested resource"));
    s.details = StatusDetails();
    return s;
}

Status Status::methodNotSupported(const QString &action, const QString &group,
                                  const QString &resource)
{
    Status s = makeStatus(405, "MethodNotAllowed",
                          QStringLiteral("%1 is not supported on resources of kind \"%2\"")
                              .arg(action, groupResource(group, resource)));
    s.details = detailsFor(group, resource, QString());
    return s;
}

Status Status::requestTooLarge(const QString &message)
{
    return makeStatus(413, "RequestEntityTooLarge", message);
}

Status Status::tooManyRequests(const QString &message)
{
    return makeStatus(429, "TooManyRequests", message);
}

Status Status::serviceUnavailable(const QString &message, int retryAfterSeconds)
{
    Status s = makeStatus(503, "ServiceUnavailable", message);
    StatusDetails d;
    d.retryAfterSeconds = retryAfterSeconds;
    s.details = d;
    return s;
}

Status Status::tooLargeResourceVersion(qint64 asked, qint64 current)
{
    Status s = makeStatus(
        504, "Timeout",
        QStringLiteral("Too large resource version: %1, current: %2").arg(asked).arg(current));
    StatusDetails d;
    d.causes.append(StatusCause{QStringLiteral("ResourceVersionTooLarge"),
                                QStringLiteral("Too large resource version"), QString()});
    d.retryAfterSeconds = 1;
    s.details = d;
    return s;
}

QByteArray Status::body(bool pretty) const
{
    JsonWriter w(pretty);
    w.beginObject();
    w.field(QStringLiteral("kind"), QStringLiteral("Status"));
    w.field(QStringLiteral("apiVersion"), QStringLiteral("v1"));
    w.key(QStringLiteral("metadata")).beginObject().endObject();
    w.field(QStringLiteral("status"), QStringLiteral("Failure"));
    if (!message.isEmpty())
        w.field(QStringLiteral("message"), message);
    if (!reason.isEmpty())
        w.field(QStringLiteral("reason"), reason);
    if (details) {
        w.key(QStringLiteral("details")).beginObject();
        if (!details->name.isEmpty())
            w.field(QStringLiteral("name"), details->name);
        if (!details->group.isEmpty())
            w.field(QStringLiteral("group"), details->group);
        if (!details->kind.isEmpty())
            w.field(QStringLiteral("kind"), details->kind);
        if (!details->causes.isEmpty()) {
            w.key(QStringLiteral("causes")).beginArray();
            for (const StatusCause &c : details->causes) {
                w.beginObject();
                if (!c.reason.isEmpty())
                    w.field(QStringLiteral("reason"), c.reason);
                if (!c.message.isEmpty())
                    w.field(QStringLiteral("message"), c.message);
                if (!c.field.isEmpty())
                    w.field(QStringLiteral("field"), c.field);
                w.endObject();
            }
            w.endArray();
        }
        if (details->retryAfterSeconds > 0)
            w.key(QStringLiteral("retryAfterSeconds")).value(details->retryAfterSeconds);
        w.endObject();
    }
    if (code != 0)
        w.key(QStringLiteral("code")).value(code);
    w.endObject();
    QByteArray out = w.take();
    if (!pretty)
        out.append('\n');
    return out;
}

Core::HttpResponse Status::response(bool pretty) const
{
    Core::HttpResponse r;
    r.status = code;
    r.body = body(pretty);
    r.setHeader("Content-Type", "application/json");
    r.setHeader("X-Content-Type-Options", "nosniff");
    if (details && details->retryAfterSeconds > 0)
        r.setHeader("Retry-After", QByteArray::number(details->retryAfterSeconds));
    return r;
}

bool wantsPretty(const Core::HttpRequest &request)
{
    const QString p = request.query.queryItemValue(QStringLiteral("pretty")).toLower();
    if (!p.isEmpty()) {
        static const QStringList yes{QStringLiteral("1"), QStringLiteral("t"),
                                     QStringLiteral("true")};
        return yes.contains(p);
    }
    const QByteArray ua = request.header("user-agent");
    return ua.startsWith("curl") || ua.startsWith("Wget") || ua.startsWith("Mozilla/5.0");
}

Core::HttpResponse objectResponse(int status, const QJsonValue &object, bool pretty,
                                  const QByteArray &contentType)
{
    Core::HttpResponse r;
    r.status = status;
    r.body = JsonWriter::encode(object, pretty);
    if (!pretty)
        r.body.append('\n');
    r.setHeader("Content-Type", contentType);
    return r;
}

} // namespace Gatehouse::Cluster
