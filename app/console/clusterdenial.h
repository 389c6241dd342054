#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QVariantList>

namespace Gatehouse::Console {

// The denial explainer's answer (docs/cluster.md, "Why denied") read for the console: a
// trace's "denial" and "authorization.nearMisses", or a recorded request's "deniedBy",
// "quotes" and "nearMisses". Server words (messages, quotes, rules) stay verbatim; the console
// adds translated titles. Anything malformed is skipped: a wrong type gives an empty list.
// Texts are translated with QCoreApplication::translate() in the context "ClusterDenial".
class ClusterDenial
{
public:
    // The trace's denial: stage, by, message, quotes, nearMisses (the binding list); all
    // empty when the request succeeded.
    static ClusterDenial fromTrace(const QJsonObject &trace);
    // A recorded request (GET /admin/v1/cluster/requests, cluster.requests events); empty
    // unless it was denied.
    static ClusterDenial fromRecordedRequest(const QJsonObject &entry);

    bool isEmpty() const { return stage.isEmpty(); }
    // "Authorization", ...; the server's word for a stage the console does not know.
    static QString stageTitle(const QString &stage);
    // "Refused at authorization by Node, RBAC", "Refused at authentication".
    static QString headline(const QString &stage, const QString &by);
    QString headline() const { return headline(stage, by); }

    // [{who, decision, text}]: the refusing authorizers' own words (trace quotes). (For the
    // other stages fromTrace() and fromRecordedRequest() quote the message: who is the
    // admission plugin, "" for authentication, validation and the handler.)
    static QVariantList quotesOf(const QJsonValue &quotes);
    // [{bindingKind, bindingNamespace, bindingName, bindingText ("RoleBinding shop/read-pods"),
    //   roleKind, roleName, roleText, subjectKind, subjectName, subjectNamespace, subjectText
    //   ("ServiceAccount shop/default"), code, reasonText (translated: "other namespace"),
    //   message (the server's), rules: [{index, rule, codes, missText (translated: "verb,
    //   resource"), messages, text (the messages joined by "; ")}]}]
    static QVariantList nearMissesOf(const QJsonValue &nearMisses);
    // How many entries nearMissesOf() gives, without reading them.
    static int nearMissCountOf(const QJsonValue &nearMisses);
    // "other namespace", "role missing", "no rule matches"; the code itself when unknown.
    static QString reasonText(const QString &code);
    // "verb", "API group", "resource", "resource name", "URL path", ...
    static QString missText(const QString &code);

    bool operator==(const ClusterDenial &other) const = default;

    QString stage;   // authentication, authorization, admission, validation, handler
    QString by;      // "Node, RBAC", "NodeRestriction"; "" when the server names none
    QString message; // the Status message (authentication: its reason)
    QVariantList quotes;
    QVariantList nearMisses;
};

} // namespace Gatehouse::Console
