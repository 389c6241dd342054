#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <variant>

namespace Gatehouse::Cluster {

// One client configuration file as kubectl reads it (apiVersion v1, kind Config): one
// cluster, one user, one context. Certificates are embedded (base64 *-data keys) unless
// file paths are given, then referenced (certificate-authority, client-certificate,
// client-key).
struct Kubeconfig
{
    QString clusterName = QStringLiteral("gatehouse");
    QString server;
    QString userName;
    QString contextName; // empty: "<user>@<cluster>"
    QString namespaceName;
    QByteArray caPem;
    QByteArray certificatePem;
    QByteArray keyPem;
    QString caFile;
    QString certificateFile;
    QString keyFile;

    QByteArray toYaml() const;
};

// `kubectl config view` without --raw: every *-data value becomes DATA+OMITTED, tokens and
// passwords REDACTED. An error string for input that is not a kubeconfig.
std::variant<QByteArray, QString> redactKubeconfig(const QByteArray &yaml);

// YAML (one or more documents, "---" separated) to JSON values, for manifests; an error names
// the document and line.
std::variant<QList<QJsonValue>, QString> yamlDocumentsToJson(const QByteArray &yaml);

} // namespace Gatehouse::Cluster
