#pragma once

#include "core/httpmessage.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Gatehouse::Cluster {

// JSON the way Go's encoding/json writes it (what kube-apiserver sends): keys in the order
// they are written, '<' '>' '&' U+2028 U+2029 as \u escapes, compact, or indented by two
// spaces (json.MarshalIndent). Objects given as QJsonObject are written in Kubernetes'
// struct order (kind, apiVersion, metadata, name, ..., spec, status), then alphabetically.
class JsonWriter
{
public:
    explicit JsonWriter(bool pretty = false) : m_pretty(pretty) {}

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(const QString &k);
    JsonWriter &value(const QString &s);
    JsonWriter &value(const char *s) { return value(QString::fromUtf8(s)); }
    JsonWriter &value(qint64 n);
    JsonWriter &value(int n) { return value(qint64(n)); }
    JsonWriter &value(bool b);
    JsonWriter &value(const QJsonValue &v);
    JsonWriter &field(const QString &k, const QString &s) { return key(k).value(s); }
    JsonWriter &field(const QString &k, const QJsonValue &v) { return key(k).value(v); }

    QByteArray take();
    static QByteArray encode(const QJsonValue &v, bool pretty = false);

private:
    void separator();
    void newline();

    struct Level
    {
        bool object = false;
        int count = 0;
    };
    QByteArray m_out;
    QList<Level> m_stack;
    bool m_pretty;
    bool m_afterKey = false;
};

struct StatusCause
{
    QString reason; // FieldValueInvalid, FieldValueRequired, ...
    QString message;
    QString field;
};

struct StatusDetails
{
    QString name;
    QString group;
    QString kind;
    QList<StatusCause> causes;
    int retryAfterSeconds = 0;
};

// A Kubernetes metav1.Status failure (reference kube.md §1), built by the constructors
// apimachinery's errors package has.
struct Status
{
    int code = 500;
    QString reason;
    QString message;
    std::optional<StatusDetails> details; // absent: no "details" key at all

    static Status unauthorized();
    // Forbidden for group/resource (resource empty: "forbidden: <err>").
    static Status forbidden(const QString &group, const QString &resource, const QString &name,
                            const QString &err);
    static Status notFound(const QString &group, const QString &resource, const QString &name);
    static Status alreadyExists(const QString &group, const QString &resource, const QString &name);
    static Status conflict(const QString &group, const QString &resource, const QString &name,
                           const QString &err);
    static Status staleResourceVersion(const QString &group, const QString &resource,
                                       const QString &name);
    // 422. kind is the Kind ("Node"); causes give "<field>: <message>" each.
    static Status invalid(const QString &group, const QString &kind, const QString &name,
                          const QList<StatusCause> &causes);
    static Status badRequest(const QString &message);
    static Status internalError(const QString &err);
    static Status unsupportedMediaType(const QStringList &accepted);
    static Status notAcceptable(const QStringList &accepted);
    static Status routeNotFound();    // 404 inside an API group-version
    static Status methodNotAllowed(); // 405 from routing
    static Status methodNotSupported(const QString &action, const QString &group,
                                     const QString &resource);
    static Status requestTooLarge(const QString &message);
    static Status tooManyRequests(const QString &message);
    static Status serviceUnavailable(const QString &message, int retryAfterSeconds);
    // 504 Timeout, "Too large resource version: ASKED, current: CURRENT", with the cause
    // ResourceVersionTooLarge (apimachinery's NewTooLargeResourceVersionError): client-go's
    // reflector lists again on it.
    static Status tooLargeResourceVersion(qint64 asked, qint64 current);

    // "nodes", "deployments.apps".
    static QString groupResource(const QString &group, const QString &resource);

    QByteArray body(bool pretty) const;
    Core::HttpResponse response(bool pretty) const;
};

// Kubernetes pretty-prints for ?pretty=true and for curl, Wget and browser User-Agents.
bool wantsPretty(const Core::HttpRequest &request);

// An object answer: compact plus "\n", or indented without a trailing newline.
Core::HttpResponse objectResponse(int status, const QJsonValue &object, bool pretty,
                                  const QByteArray &contentType = "application/json");

} // namespace Gatehouse::Cluster
