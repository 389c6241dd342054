#include "cluster/kubeconfig.h"

#include <QJsonArray>
#include <QJsonObject>

#include <yaml-cpp/yaml.h>

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
    auto scrub = [](const YAML::Node &section, const char *inner) {
        if (!section.IsSequence())
            return;
        for (YAML::Node entry : section) {
            YAML::Node body = entry[inner];
            if (!body.IsMap())
                continue;
            for (auto kv : body) {
                const std::string key = kv.first.as<std::string>();
                if (key.size() > 5 && key.compare(key.size() - 5, 5, "-data") == 0)
                    kv.second = "DATA+OMITTED";
                else if (key == "token" || key == "password")
                    kv.second = "REDACTED";
            }
        }
    };
    scrub(root["clusters"], "cluster");
    scrub(root["users"], "user");
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
