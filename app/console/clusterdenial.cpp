#include "clusterdenial.h"
#include "fields.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>

namespace Gatehouse::Console {

namespace {

QString qualified(const QString &ns, const QString &name)
{
    return ns.isEmpty() ? name : ns + QLatin1Char('/') + name;
}

QString kindAndName(const QString &kind, const QString &name)
{
    return kind.isEmpty() ? name : kind + QLatin1Char(' ') + name;
}

QVariantMap quote(const QString &who, const QString &decision, const QString &text)
{
    return {{QStringLiteral("who"), who},
            {QStringLiteral("decision"), decision},
            {QStringLiteral("text"), text}};
}

// Only authorization has quotes of its own (each authorizer's words); the other stages' words
// are the message: the admission plugin's, the authenticator's reason, the Status message.
QVariantList quotesFor(const QString &stage, const QString &by, const QString &message,
                       const QJsonValue &quotes)
{
    if (stage == QLatin1String("authorization"))
        return ClusterDenial::quotesOf(quotes);
    if (message.isEmpty())
        return {};
    return {quote(by, QStringLiteral("deny"), message)};
}

QVariantMap ruleMiss(const QJsonObject &r)
{
    QStringList codes;
    QStringList codeTexts;
    for (const QJsonValue c : r.value(QLatin1String("codes")).toArray()) {
        if (!c.isString())
            continue;
        codes.append(c.toString());
        codeTexts.append(ClusterDenial::missText(c.toString()));
    }
    QStringList messages;
    for (const QJsonValue m : r.value(QLatin1String("messages")).toArray())
        if (m.isString())
            messages.append(m.toString());
    return {{QStringLiteral("index"), r.value(QLatin1String("ruleIndex")).toInt(-1)},
            {QStringLiteral("rule"), str(r, "rule")},
            {QStringLiteral("codes"), codes},
            {QStringLiteral("missText"), codeTexts.join(QStringLiteral(", "))},
            {QStringLiteral("messages"), messages},
            {QStringLiteral("text"), messages.join(QStringLiteral("; "))}};
}

// The groups an OIDC token claimed that the cluster dropped, as one more quote: often the reason
// itself ("why am I not cluster-admin?").
void addDroppedGroups(QVariantList *quotes, const QJsonValue &dropped)
{
    QStringList groups;
    for (const QJsonValue g : dropped.toArray())
        if (g.isString())
            groups.append(g.toString());
    if (groups.isEmpty())
        return;
    quotes->append(quote(QStringLiteral("oidc"), QStringLiteral("dropped"),
                         QCoreApplication::translate(
                             "ClusterDenial",
                             "Groups of the token the cluster dropped: %1 (a system: group reaches "
                             "the cluster only through an oidc-group-mappings entry)")
                             .arg(groups.join(QStringLiteral(", ")))));
}

} // namespace

ClusterDenial ClusterDenial::fromTrace(const QJsonObject &trace)
{
    ClusterDenial d;
    const QJsonObject denial = trace.value(QLatin1String("denial")).toObject();
    d.stage = str(denial, "stage");
    if (d.stage.isEmpty())
        return {};
    d.by = str(denial, "by");
    d.message = str(denial, "message");
    d.quotes = quotesFor(d.stage, d.by, d.message, denial.value(QLatin1String("quotes")));
    addDroppedGroups(&d.quotes, denial.value(QLatin1String("droppedGroups")));
    d.nearMisses = nearMissesOf(
        trace.value(QLatin1String("authorization")).toObject().value(QLatin1String("nearMisses")));
    return d;
}

ClusterDenial ClusterDenial::fromRecordedRequest(const QJsonObject &entry)
{
    const bool denied = str(entry, "verdict") == QLatin1String("denied") ||
                        entry.value(QLatin1String("code")).toInt() >= 400;
    if (!denied)
        return {};
    ClusterDenial d;
    d.stage = str(entry, "stage");
    if (d.stage.isEmpty() || d.stage == QLatin1String("ok"))
        d.stage = QStringLiteral("handler");
    d.by = str(entry, "deniedBy");
    d.message = str(entry, "reason");
    d.quotes = quotesFor(d.stage, d.by, d.message, entry.value(QLatin1String("quotes")));
    addDroppedGroups(&d.quotes, entry.value(QLatin1String("droppedGroups")));
    d.nearMisses = nearMissesOf(entry.value(QLatin1String("nearMisses")));
    return d;
}

QString ClusterDenial::stageTitle(const QString &stage)
{
    if (stage == QLatin1String("authentication"))
        return QCoreApplication::translate("ClusterDenial", "Authentication");
    if (stage == QLatin1String("authorization"))
        return QCoreApplication::translate("ClusterDenial", "Authorization");
    if (stage == QLatin1String("admission"))
        return QCoreApplication::translate("ClusterDenial", "Admission");
    if (stage == QLatin1String("validation"))
        return QCoreApplication::translate("ClusterDenial", "Validation");
    if (stage == QLatin1String("handler"))
        return QCoreApplication::translate("ClusterDenial", "Handler");
    return stage;
}

QString ClusterDenial::headline(const QString &stage, const QString &by)
{
    if (stage.isEmpty())
        return {};
    if (stage == QLatin1String("authentication"))
        return QCoreApplication::translate("ClusterDenial", "Refused at authentication");
    if (stage == QLatin1String("authorization"))
        return by.isEmpty()
                   ? QCoreApplication::translate("ClusterDenial", "Refused at authorization")
                   : QCoreApplication::translate("ClusterDenial", "Refused at authorization by %1")
                         .arg(by);
    if (stage == QLatin1String("admission"))
        return by.isEmpty()
                   ? QCoreApplication::translate("ClusterDenial", "Refused at admission")
                   : QCoreApplication::translate("ClusterDenial", "Refused at admission by %1")
                         .arg(by);
    if (stage == QLatin1String("validation"))
        return QCoreApplication::translate("ClusterDenial", "Refused at validation");
    if (stage == QLatin1String("handler"))
        return QCoreApplication::translate("ClusterDenial", "Refused by the request's handler");
    return by.isEmpty()
               ? QCoreApplication::translate("ClusterDenial", "Refused at %1").arg(stage)
               : QCoreApplication::translate("ClusterDenial", "Refused at %1 by %2").arg(stage, by);
}

QVariantList ClusterDenial::quotesOf(const QJsonValue &quotes)
{
    QVariantList out;
    for (const QJsonValue v : quotes.toArray()) {
        const QJsonObject q = v.toObject();
        const QString text = str(q, "reason");
        if (text.isEmpty())
            continue;
        out.append(quote(str(q, "authorizer"), str(q, "decision"), text));
    }
    return out;
}

QVariantList ClusterDenial::nearMissesOf(const QJsonValue &nearMisses)
{
    QVariantList out;
    for (const QJsonValue v : nearMisses.toArray()) {
        if (!v.isObject())
            continue;
        const QJsonObject n = v.toObject();
        const QJsonObject subject = n.value(QLatin1String("subject")).toObject();
        const QString bindingKind = str(n, "bindingKind");
        const QString bindingNamespace = str(n, "bindingNamespace");
        const QString bindingName = str(n, "bindingName");
        const QString roleKind = str(n, "roleKind");
        const QString roleName = str(n, "roleName");
        const QString subjectKind = str(subject, "kind");
        const QString subjectName = str(subject, "name");
        const QString subjectNamespace = str(subject, "namespace");
        const QString code = str(n, "code");
        QVariantList rules;
        for (const QJsonValue r : n.value(QLatin1String("rules")).toArray())
            if (r.isObject())
                rules.append(ruleMiss(r.toObject()));
        out.append(QVariantMap{{QStringLiteral("bindingKind"), bindingKind},
                               {QStringLiteral("bindingNamespace"), bindingNamespace},
                               {QStringLiteral("bindingName"), bindingName},
                               {QStringLiteral("bindingText"),
                                kindAndName(bindingKind, qualified(bindingNamespace, bindingName))},
                               {QStringLiteral("roleKind"), roleKind},
                               {QStringLiteral("roleName"), roleName},
                               {QStringLiteral("roleText"), kindAndName(roleKind, roleName)},
                               {QStringLiteral("subjectKind"), subjectKind},
                               {QStringLiteral("subjectName"), subjectName},
                               {QStringLiteral("subjectNamespace"), subjectNamespace},
                               {QStringLiteral("subjectText"),
                                kindAndName(subjectKind, qualified(subjectNamespace, subjectName))},
                               {QStringLiteral("code"), code},
                               {QStringLiteral("reasonText"), reasonText(code)},
                               {QStringLiteral("message"), str(n, "message")},
                               {QStringLiteral("rules"), rules}});
    }
    return out;
}

int ClusterDenial::nearMissCountOf(const QJsonValue &nearMisses)
{
    const QJsonArray array = nearMisses.toArray();
    return int(std::count_if(array.begin(), array.end(),
                             [](const QJsonValue &v) { return v.isObject(); }));
}

QString ClusterDenial::reasonText(const QString &code)
{
    if (code == QLatin1String("namespace"))
        return QCoreApplication::translate("ClusterDenial", "other namespace");
    if (code == QLatin1String("roleNotFound"))
        return QCoreApplication::translate("ClusterDenial", "role missing");
    if (code == QLatin1String("noRuleMatches"))
        return QCoreApplication::translate("ClusterDenial", "no rule matches");
    return code;
}

QString ClusterDenial::missText(const QString &code)
{
    if (code == QLatin1String("verb"))
        return QCoreApplication::translate("ClusterDenial", "verb");
    if (code == QLatin1String("apiGroup"))
        return QCoreApplication::translate("ClusterDenial", "API group");
    if (code == QLatin1String("resource"))
        return QCoreApplication::translate("ClusterDenial", "resource");
    if (code == QLatin1String("resourceName"))
        return QCoreApplication::translate("ClusterDenial", "resource name");
    if (code == QLatin1String("nonResourceURL"))
        return QCoreApplication::translate("ClusterDenial", "URL path");
    if (code == QLatin1String("resourceRule"))
        return QCoreApplication::translate("ClusterDenial", "rule kind (it covers resources)");
    if (code == QLatin1String("nonResourceRule"))
        return QCoreApplication::translate("ClusterDenial", "rule kind (it covers URL paths)");
    return code;
}

} // namespace Gatehouse::Console
