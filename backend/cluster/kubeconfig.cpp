#include "cluster/kubeconfig.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <sstream>

namespace Gatehouse::Cluster {

namespace {

std::string s(const QString &v)
{
    return v.toStdString();
}

std::string b64(const QByteArray &pem)
{
    return pem.toBase64().toStdString();
}

// budget: how many more values may be made. yaml-cpp shares one node for every alias of it,
// so a few hundred bytes of nested aliases would otherwise expand to billions of values
// (kube's CVE-2019-11253); without aliases a document has fewer values than bytes.
QJsonValue toJson(const YAML::Node &n, int depth, qint64 &budget)
{
    if (depth > 64 || --budget < 0)
        return QJsonValue();
    switch (n.Type()) {
    case YAML::NodeType::Map: {
        QJsonObject o;
        for (const auto &kv : n)
            o.insert(QString::fromStdString(kv.first.as<std::string>()),
                     toJson(kv.second, depth + 1, budget));
        return o;
    }
    case YAML::NodeType::Sequence: {
        QJsonArray a;
        for (const auto &e : n)
            a.append(toJson(e, depth + 1, budget));
        return a;
    }
    case YAML::NodeType::Scalar: {
        const std::string &v = n.Scalar();
        // Quoted scalars stay strings; plain ones may be numbers, booleans or null.
        if (n.Tag() == "!")
            return QString::fromStdString(v);
        if (v == "true" || v == "True" || v == "TRUE")
            return true;
        if (v == "false" || v == "False" || v == "FALSE")
            return false;
        if (v == "null" || v == "~" || v == "Null" || v == "NULL")
            return QJsonValue();
        bool ok = false;
        const QString q = QString::fromStdString(v);
        const qlonglong i = q.toLongLong(&ok);
        if (ok)
            return double(i);
        const double d = q.toDouble(&ok);
        if (ok && !q.contains(QLatin1Char('_')))
            return d;
        return q;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        break;
    }
    return QJsonValue();
}

} // namespace

QByteArray Kubeconfig::toYaml() const
{
    const QString context =
        contextName.isEmpty() ? userName + QLatin1Char('@') + clusterName : contextName;
    YAML::Emitter e;
    e << YAML::BeginMap;
    e << YAML::Key << "apiVersion" << YAML::Value << "v1";
    e << YAML::Key << "kind" << YAML::Value << "Config";
    e << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    e << YAML::Key << "name" << YAML::Value << s(clusterName);
    e << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "server" << YAML::Value << s(server);
    if (!caFile.isEmpty())
        e << YAML::Key << "certificate-authority" << YAML::Value << s(caFile);
    else
        e << YAML::Key << "certificate-authority-data" << YAML::Value << b64(caPem);
    e << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    e << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    e << YAML::Key << "name" << YAML::Value << s(context);
    e << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "cluster" << YAML::Value << s(clusterName);
    e << YAML::Key << "user" << YAML::Value << s(userName);
    if (!namespaceName.isEmpty())
        e << YAML::Key << "namespace" << YAML::Value << s(namespaceName);
    e << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    e << YAML::Key << "current-context" << YAML::Value << s(context);
    e << YAML::Key << "preferences" << YAML::Value << YAML::BeginMap << YAML::EndMap;
    e << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    e << YAML::Key << "name" << YAML::Value << s(userName);
    e << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
    if (!certificateFile.isEmpty()) {
        e << YAML::Key << "client-certificate" << YAML::Value << s(certificateFile);
        e << YAML::Key << "client-key" << YAML::Value << s(keyFile);
    } else {
        e << YAML::Key << "client-certificate-data" << YAML::Value << b64(certificatePem);
        e << YAML::Key << "client-key-data" << YAML::Value << b64(keyPem);
    }
    e << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    e << YAML::EndMap;
    QByteArray out(e.c_str());
    out.append('\n');
    return out;
}

std::variant<QByteArray, QString> redactKubeconfig(const QByteArray &yaml)
{
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::Exception &ex) {
        return QStringLiteral("not YAML: %1").arg(QString::fromStdString(ex.what()));
    }
    if (!root.IsMap() || !root["kind"] || root["kind"].as<std::string>("") != "Config")
        return QStringLiteral("not a kubeconfig (kind: Config)");
    // kubectl config view hides the *-data fields, token and password. Gatehouse also hides the
    // credentials kubectl 1.32 prints: the values of an auth-provider's config that name a
    // secret or a token (client-secret, id-token, refresh-token, access-token...), every exec
    // plugin environment value (an API key more often than not) and the password of a proxy URL.
    const auto secretName = [](std::string key) {
        for (char &c : key)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        for (const char *word : {"secret", "token", "password", "passwd", "key", "credential"})
            if (key.find(word) != std::string::npos)
                return true;
        return false;
    };
    const auto scalar = [](const YAML::Node &n) { return n.IsDefined() && n.IsScalar(); };
    // A map's child without inserting it (a non-const operator[] would), or an undefined node.
    const auto child = [](const YAML::Node &map, const char *key) {
        if (!map.IsMap())
            return YAML::Node(YAML::NodeType::Undefined);
        const YAML::Node found = map[key];
        return found ? YAML::Node(found) : YAML::Node(YAML::NodeType::Undefined);
    };
    auto scrub = [&](const YAML::Node &section, const char *inner) {
        if (!section.IsSequence())
            return;
        for (YAML::Node entry : section) {
            YAML::Node body = child(entry, inner);
            if (!body.IsMap())
                continue;
            for (auto kv : body) {
                if (!scalar(kv.first))
                    continue;
                const std::string key = kv.first.as<std::string>();
                if (key.size() > 5 && key.compare(key.size() - 5, 5, "-data") == 0)
                    kv.second = "DATA+OMITTED";
                else if (key == "token" || key == "password")
                    kv.second = "REDACTED";
            }
            if (YAML::Node config = child(child(body, "auth-provider"), "config"); config.IsMap())
                for (auto kv : config)
                    if (scalar(kv.first) && secretName(kv.first.as<std::string>()))
                        kv.second = "REDACTED";
            if (YAML::Node env = child(child(body, "exec"), "env"); env.IsSequence())
                for (YAML::Node var : env)
                    if (child(var, "value"))
                        var["value"] = "REDACTED";
            if (const YAML::Node proxy = child(body, "proxy-url"); scalar(proxy)) {
                QUrl url(QString::fromStdString(proxy.as<std::string>()));
                if (url.isValid() && !url.password().isEmpty()) {
                    url.setPassword(QStringLiteral("REDACTED"));
                    body["proxy-url"] = url.toString().toStdString();
                }
            }
        }
    };
    try {
        scrub(child(root, "clusters"), "cluster");
        scrub(child(root, "users"), "user");
    } catch (const YAML::Exception &ex) {
        return QStringLiteral("not a kubeconfig: %1").arg(QString::fromStdString(ex.msg));
    }
    YAML::Emitter e;
    e << root;
    QByteArray out(e.c_str());
    out.append('\n');
    return out;
}

std::variant<QList<QJsonValue>, QString> yamlDocumentsToJson(const QByteArray &yaml)
{
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(yaml.toStdString());
    } catch (const YAML::Exception &ex) {
        return QStringLiteral("not YAML (line %1, column %2): %3")
            .arg(ex.mark.line + 1)
            .arg(ex.mark.column + 1)
            .arg(QString::fromStdString(ex.msg));
    }
    QList<QJsonValue> out;
    qint64 budget = yaml.size() + 64;
    try {
        for (const YAML::Node &d : docs)
            if (d.IsDefined() && !d.IsNull())
                out.append(toJson(d, 0, budget));
    } catch (const YAML::Exception &ex) {
        // A key that is not a scalar ({[a]: b}), for example.
        return QStringLiteral("not a JSON-compatible document: %1")
            .arg(QString::fromStdString(ex.msg));
    }
    if (budget < 0)
        return QStringLiteral("the YAML expands to more values than it has bytes (aliases are "
                              "not expanded here)");
    return out;
}

} // namespace Gatehouse::Cluster
