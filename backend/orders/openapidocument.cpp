#include "orders/openapidocument.h"
#include "orders/orderslogging.h"

#include "core/jsonwriter.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMutex>
#include <QMutexLocker>

#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

namespace Gatehouse::Orders {

namespace {

constexpr auto kResource = ":/gatehouse/orders/openapi.json";
// The server URL normally comes from the listener's configuration; the bound only keeps a
// caller that passes request-derived URLs from growing the cache without limit.
constexpr qsizetype kMaxCachedUrls = 16;

// The resource, parsed once. JSON is YAML 1.2 flow style, and yaml-cpp keeps a mapping's keys
// in document order (QJsonObject would sort them). yaml-cpp tags a quoted scalar "!" and a
// plain one "?": that tells JSON strings from numbers and booleans (null becomes a Null node).
struct Source
{
    YAML::Node root;
    bool ok = false;
};

const Source &source()
{
    static const Source parsed = [] {
        Source s;
        QFile f(QString::fromLatin1(kResource));
        if (!f.open(QIODevice::ReadOnly)) {
            qCCritical(lcOrders) << "cannot read" << kResource << f.errorString();
            return s;
        }
        const QByteArray text = f.readAll();
        try {
            s.root = YAML::Load(text.toStdString());
        } catch (const YAML::Exception &e) {
            qCCritical(lcOrders) << "cannot parse" << kResource << e.what();
            return s;
        }
        s.ok = s.root.IsMap();
        if (!s.ok)
            qCCritical(lcOrders) << kResource << "is not a JSON object";
        return s;
    }();
    return parsed;
}

bool isString(const YAML::Node &n)
{
    return n.IsScalar() && n.Tag() == "!";
}

YAML::Node stringNode(const QString &value)
{
    YAML::Node n(value.toStdString());
    n.SetTag("!");
    return n;
}

using Entries = std::vector<std::pair<std::string, YAML::Node>>;

// The top-level members in document order, `servers` replaced (or inserted after `info`).
Entries topLevel(const YAML::Node &root, const QString &serverUrl)
{
    YAML::Node server(YAML::NodeType::Map);
    server["url"] = stringNode(serverUrl);
    YAML::Node servers(YAML::NodeType::Sequence);
    servers.push_back(server);

    bool hasServers = false;
    for (auto it = root.begin(); it != root.end(); ++it)
        hasServers = hasServers || it->first.Scalar() == "servers";

    Entries entries;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it->first.Scalar();
        entries.emplace_back(key, key == "servers" ? servers : it->second);
        if (key == "info" && !hasServers)
            entries.emplace_back("servers", servers);
    }
    return entries;
}

// --- JSON ---------------------------------------------------------------------------------

void appendJsonString(QByteArray &out, const std::string &value)
{
    Core::appendJsonString(out, QString::fromStdString(value));
}

void appendIndent(QByteArray &out, int depth)
{
    out += '\n';
    out += QByteArray(qsizetype(depth) * 2, ' ');
}

void appendJson(QByteArray &out, const YAML::Node &n, int depth);

void appendJsonMembers(QByteArray &out, const Entries &members, int depth)
{
    if (members.empty()) {
        out += "{}";
        return;
    }
    out += '{';
    bool first = true;
    for (const auto &[key, value] : members) {
        if (!first)
            out += ',';
        first = false;
        appendIndent(out, depth + 1);
        appendJsonString(out, key);
        out += ": ";
        appendJson(out, value, depth + 1);
    }
    appendIndent(out, depth);
    out += '}';
}

void appendJson(QByteArray &out, const YAML::Node &n, int depth)
{
    switch (n.Type()) {
    case YAML::NodeType::Scalar:
        if (isString(n))
            appendJsonString(out, n.Scalar());
        else // a number, true or false exactly as written in the resource
            out += QByteArray::fromStdString(n.Scalar());
        return;
    case YAML::NodeType::Sequence: {
        if (n.size() == 0) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < n.size(); ++i) {
            if (i > 0)
                out += ',';
            appendIndent(out, depth + 1);
            appendJson(out, n[i], depth + 1);
        }
        appendIndent(out, depth);
        out += ']';
        return;
    }
    case YAML::NodeType::Map: {
        Entries members;
        for (auto it = n.begin(); it != n.end(); ++it)
            members.emplace_back(it->first.Scalar(), it->second);
        appendJsonMembers(out, members, depth);
        return;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        out += "null";
        return;
    }
}

// --- YAML ---------------------------------------------------------------------------------

// A string that a YAML 1.1 or 1.2 reader (js-yaml, PyYAML, yaml-cpp) could resolve to
// something else when written plain: a number ("201", "1e3", "0x1F"), a bool ("true", "yes",
// "on"), null, a timestamp ("2026-11-21"), or the merge key. Every string that starts like a
// number is quoted ("3.0.2" too): more than needed, and a simple rule.
bool needsQuotes(const std::string &s)
{
    if (s.empty())
        return true;
    const char c = s.front();
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')
        return true;
    const QString lower = QString::fromStdString(s).toLower();
    static const QStringList special = {
        QStringLiteral("null"),  QStringLiteral("~"),   QStringLiteral("true"),
        QStringLiteral("false"), QStringLiteral("yes"), QStringLiteral("no"),
        QStringLiteral("on"),    QStringLiteral("off"), QStringLiteral("y"),
        QStringLiteral("n"),     QStringLiteral("<<"),  QStringLiteral("="),
    };
    return special.contains(lower);
}

void emitString(YAML::Emitter &out, const std::string &s)
{
    // Without DoubleQuoted the emitter decides: plain when it is a valid plain scalar (it does
    // not consider numbers or booleans), else double-quoted with escapes.
    if (needsQuotes(s))
        out << YAML::DoubleQuoted;
    out << s;
}

void emitYaml(YAML::Emitter &out, const YAML::Node &n);

void emitYamlMembers(YAML::Emitter &out, const Entries &members)
{
    if (members.empty()) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
    }
    out << YAML::BeginMap;
    for (const auto &[key, value] : members) {
        out << YAML::Key;
        emitString(out, key);
        out << YAML::Value;
        emitYaml(out, value);
    }
    out << YAML::EndMap;
}

void emitYaml(YAML::Emitter &out, const YAML::Node &n)
{
    switch (n.Type()) {
    case YAML::NodeType::Scalar:
        if (isString(n))
            emitString(out, n.Scalar());
        else if (n.Scalar() == "true" || n.Scalar() == "false")
            out << (n.Scalar() == "true");
        else // a JSON number is a valid plain YAML number
            out << n.Scalar();
        return;
    case YAML::NodeType::Sequence:
        if (n.size() == 0) {
            out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
            return;
        }
        out << YAML::BeginSeq;
        for (std::size_t i = 0; i < n.size(); ++i)
            emitYaml(out, n[i]);
        out << YAML::EndSeq;
        return;
    case YAML::NodeType::Map: {
        Entries members;
        for (auto it = n.begin(); it != n.end(); ++it)
            members.emplace_back(it->first.Scalar(), it->second);
        emitYamlMembers(out, members);
        return;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        out << YAML::Null;
        return;
    }
}

// --- rendering and cache ------------------------------------------------------------------

struct Rendered
{
    QByteArray json;
    QByteArray yaml;
};

Rendered render(const QString &serverUrl)
{
    const Source &src = source();
    if (!src.ok)
        return {};
    const Entries members = topLevel(src.root, serverUrl);

    Rendered r;
    appendJsonMembers(r.json, members, 0);
    r.json += '\n';
    QJsonParseError error{};
    if (QJsonDocument::fromJson(r.json, &error).isNull()) {
        qCCritical(lcOrders) << "rendered OpenAPI JSON does not parse:" << error.errorString();
        return {};
    }

    YAML::Emitter out;
    out.SetIndent(2);
    emitYamlMembers(out, members);
    if (!out.good()) {
        qCCritical(lcOrders) << "cannot emit OpenAPI YAML:" << out.GetLastError().c_str();
        return {};
    }
    r.yaml = QByteArray(out.c_str(), qsizetype(out.size()));
    r.yaml += '\n';
    return r;
}

Rendered rendered(const QString &serverUrl)
{
    static QMutex mutex;
    static QHash<QString, Rendered> cache;
    const QMutexLocker lock(&mutex);
    auto it = cache.constFind(serverUrl);
    if (it != cache.constEnd())
        return *it;
    Rendered r = render(serverUrl);
    if (r.json.isEmpty())
        return r;
    if (cache.size() >= kMaxCachedUrls)
        cache.clear();
    cache.insert(serverUrl, r);
    return r;
}

} // namespace

QByteArray OpenApiDocument::json(const QString &serverUrl)
{
    return rendered(serverUrl).json;
}

QByteArray OpenApiDocument::yaml(const QString &serverUrl)
{
    return rendered(serverUrl).yaml;
}

} // namespace Gatehouse::Orders
