#include "cli/clusterviews.h"

#include "cli/output.h"

#include <QJsonArray>
#include <QStringList>

#include <functional>

namespace Gatehouse::Cli::ClusterViews {

namespace {

QJsonObject metadata(const QJsonObject &o)
{
    return o.value(QStringLiteral("metadata")).toObject();
}

// The items of a list answer, one row each.
QJsonArray rowsOf(const QJsonObject &list,
                  const std::function<QJsonObject(const QJsonObject &)> &row)
{
    QJsonArray rows;
    for (const QJsonValue v : list.value(QStringLiteral("items")).toArray())
        rows.append(row(v.toObject()));
    return rows;
}

} // namespace

void printNodes(const QJsonObject &list, QTextStream &out)
{
    printTable(rowsOf(list,
                      [](const QJsonObject &o) {
                          QStringList labels;
                          const QJsonObject l =
                              metadata(o).value(QStringLiteral("labels")).toObject();
                          for (auto it = l.begin(); it != l.end(); ++it)
                              labels.append(it.key() + QLatin1Char('=') + it.value().toString());
                          return QJsonObject{
                              {QStringLiteral("name"), metadata(o).value(QStringLiteral("name"))},
                              {QStringLiteral("created"),
                               metadata(o).value(QStringLiteral("creationTimestamp"))},
                              {QStringLiteral("labels"), labels.join(QLatin1Char(','))}};
                      }),
               {{"name", "NAME"}, {"created", "CREATED"}, {"labels", "LABELS"}}, out);
}

void printNamespaces(const QJsonObject &list, QTextStream &out)
{
    printTable(
        rowsOf(
            list,
            [](const QJsonObject &o) {
                return QJsonObject{
                    {QStringLiteral("name"), metadata(o).value(QStringLiteral("name"))},
                    {QStringLiteral("phase"),
                     o.value(QStringLiteral("status")).toObject().value(QStringLiteral("phase"))},
                    {QStringLiteral("created"),
                     metadata(o).value(QStringLiteral("creationTimestamp"))}};
            }),
        {{"name", "NAME"}, {"phase", "STATUS"}, {"created", "CREATED"}}, out);
}

void printRoles(const QJsonObject &list, QTextStream &out)
{
    printTable(rowsOf(list,
                      [](const QJsonObject &o) {
                          return QJsonObject{
                              {QStringLiteral("name"), metadata(o).value(QStringLiteral("name"))},
                              {QStringLiteral("namespace"),
                               metadata(o).value(QStringLiteral("namespace"))},
                              {QStringLiteral("rules"),
                               o.value(QStringLiteral("rules")).toArray().size()}};
                      }),
               {{"name", "NAME"}, {"namespace", "NAMESPACE"}, {"rules", "RULES"}}, out);
}

void printBindings(const QJsonObject &list, QTextStream &out)
{
    printTable(
        rowsOf(list,
               [](const QJsonObject &o) {
                   QStringList subjects;
                   for (const QJsonValue s : o.value(QStringLiteral("subjects")).toArray())
                       subjects.append(s.toObject().value(QStringLiteral("kind")).toString() +
                                       QLatin1Char(':') +
                                       s.toObject().value(QStringLiteral("name")).toString());
                   const QJsonObject ref = o.value(QStringLiteral("roleRef")).toObject();
                   return QJsonObject{
                       {QStringLiteral("name"), metadata(o).value(QStringLiteral("name"))},
                       {QStringLiteral("role"), ref.value(QStringLiteral("kind")).toString() +
                                                    QLatin1Char('/') +
                                                    ref.value(QStringLiteral("name")).toString()},
                       {QStringLiteral("subjects"), subjects.join(QLatin1Char(','))}};
               }),
        {{"name", "NAME"}, {"role", "ROLE"}, {"subjects", "SUBJECTS"}}, out);
}

void printLabels(const QJsonObject &object, QTextStream &out)
{
    const QJsonObject labels = metadata(object).value(QStringLiteral("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        out << it.key() << "=" << it.value().toString() << "\n";
}

void printTrace(const QJsonObject &t, QTextStream &out)
{
    const QJsonObject authn = t.value(QStringLiteral("authentication")).toObject();
    const QJsonObject user = authn.value(QStringLiteral("user")).toObject();
    out << "request:        " << t.value(QStringLiteral("method")).toString() << " "
        << t.value(QStringLiteral("path")).toString() << "\n";
    out << "authentication: " << authn.value(QStringLiteral("decision")).toString();
    if (!user.isEmpty())
        out << " as " << user.value(QStringLiteral("username")).toString() << " ["
            << field(user, "groups") << "]";
    out << " - " << authn.value(QStringLiteral("reason")).toString() << "\n";
    if (t.contains(QStringLiteral("authorization"))) {
        const QJsonObject a = t.value(QStringLiteral("authorization")).toObject();
        out << "authorization:  " << a.value(QStringLiteral("decision")).toString();
        if (!a.value(QStringLiteral("decidedBy")).toString().isEmpty())
            out << " by " << a.value(QStringLiteral("decidedBy")).toString();
        if (!a.value(QStringLiteral("reason")).toString().isEmpty())
            out << " - " << a.value(QStringLiteral("reason")).toString();
        out << "\n";
    }
    if (t.contains(QStringLiteral("admission"))) {
        const QJsonObject a = t.value(QStringLiteral("admission")).toObject();
        out << "admission:      " << a.value(QStringLiteral("decision")).toString();
        if (a.contains(QStringLiteral("plugin")))
            out << " by " << a.value(QStringLiteral("plugin")).toString() << " - "
                << a.value(QStringLiteral("message")).toString();
        out << "\n";
    }
    const QJsonObject denial = t.value(QStringLiteral("denial")).toObject();
    if (!denial.isEmpty()) {
        out << "denied at:      " << denial.value(QStringLiteral("stage")).toString();
        if (!denial.value(QStringLiteral("by")).toString().isEmpty())
            out << " by " << denial.value(QStringLiteral("by")).toString();
        out << "\n";
        for (const QJsonValue q : denial.value(QStringLiteral("quotes")).toArray())
            out << "  " << q.toObject().value(QStringLiteral("authorizer")).toString()
                << " said: \"" << q.toObject().value(QStringLiteral("reason")).toString() << "\"\n";
    }
    const QJsonArray misses = t.value(QStringLiteral("authorization"))
                                  .toObject()
                                  .value(QStringLiteral("nearMisses"))
                                  .toArray();
    if (!misses.isEmpty())
        out << "near misses:    bindings naming this user that did not apply\n";
    for (const QJsonValue v : misses) {
        const QJsonObject n = v.toObject();
        const QJsonObject subject = n.value(QStringLiteral("subject")).toObject();
        out << "  " << n.value(QStringLiteral("bindingKind")).toString() << " ";
        if (n.contains(QStringLiteral("bindingNamespace")))
            out << n.value(QStringLiteral("bindingNamespace")).toString() << "/";
        out << n.value(QStringLiteral("bindingName")).toString() << " -> "
            << n.value(QStringLiteral("roleKind")).toString() << " "
            << n.value(QStringLiteral("roleName")).toString() << " (via "
            << subject.value(QStringLiteral("kind")).toString() << " "
            << subject.value(QStringLiteral("name")).toString()
            << "): " << n.value(QStringLiteral("message")).toString() << "\n";
        for (const QJsonValue r : n.value(QStringLiteral("rules")).toArray()) {
            const QJsonObject rule = r.toObject();
            out << "    rule " << rule.value(QStringLiteral("ruleIndex")).toInt() << " "
                << rule.value(QStringLiteral("rule")).toString() << ": ";
            QStringList messages;
            for (const QJsonValue m : rule.value(QStringLiteral("messages")).toArray())
                messages.append(m.toString());
            out << messages.join(QStringLiteral("; ")) << "\n";
        }
    }
    out << "answer:         " << t.value(QStringLiteral("code")).toInt();
    const QString message =
        t.value(QStringLiteral("status")).toObject().value(QStringLiteral("message")).toString();
    if (!message.isEmpty())
        out << " " << message;
    out << "\n";
}

// Effective access: every verb x resource held, and the bindings and rules behind each.
void printAccess(const QJsonObject &answer, QTextStream &out)
{
    for (const QJsonValue n : answer.value(QStringLiteral("notes")).toArray())
        out << "note: " << n.toString() << "\n";
    QJsonArray rows;
    for (const QJsonValue v : answer.value(QStringLiteral("access")).toArray()) {
        const QJsonObject c = v.toObject();
        QString what = c.value(QStringLiteral("nonResourceURL")).toString();
        if (what.isEmpty()) {
            const QString group = c.value(QStringLiteral("apiGroup")).toString();
            what = c.value(QStringLiteral("resource")).toString() +
                   (group.isEmpty() ? QString() : QLatin1Char('.') + group);
            const QJsonArray names = c.value(QStringLiteral("resourceNames")).toArray();
            if (!names.isEmpty())
                what += QLatin1Char('/') + field(c, "resourceNames").replace(',', '|');
        }
        QStringList via;
        for (const QJsonValue s : c.value(QStringLiteral("via")).toArray()) {
            const QJsonObject src = s.toObject();
            via.append(QStringLiteral("%1 %2%3 -> %4 %5 rule %6")
                           .arg(src.value(QStringLiteral("bindingKind")).toString(),
                                src.contains(QStringLiteral("bindingNamespace"))
                                    ? src.value(QStringLiteral("bindingNamespace")).toString() +
                                          QLatin1Char('/')
                                    : QString(),
                                src.value(QStringLiteral("bindingName")).toString(),
                                src.value(QStringLiteral("roleKind")).toString(),
                                src.value(QStringLiteral("roleName")).toString())
                           .arg(src.value(QStringLiteral("ruleIndex")).toInt()));
        }
        rows.append(QJsonObject{
            {QStringLiteral("scope"),
             c.value(QStringLiteral("namespace")).toString(QStringLiteral("(cluster)"))},
            {QStringLiteral("verb"), c.value(QStringLiteral("verb")).toString()},
            {QStringLiteral("what"), what},
            {QStringLiteral("via"), via.join(QStringLiteral("; "))}});
    }
    // Not printTable: it shortens wide cells, and VIA is the point of this listing.
    printWideTable(
        rows, {{"scope", "SCOPE"}, {"verb", "VERB"}, {"what", "RESOURCE"}, {"via", "VIA"}}, out);
}

void printWhoCan(const QJsonObject &answer, QTextStream &out)
{
    QList<Column> columns{{"subject", "SUBJECT"}};
    for (const QJsonValue v : answer.value(QStringLiteral("verbs")).toArray())
        columns.append(Column(v.toString().toUtf8(), v.toString()));
    QJsonArray rows;
    for (const QJsonValue v : answer.value(QStringLiteral("subjects")).toArray()) {
        const QJsonObject s = v.toObject();
        QJsonObject row{{QStringLiteral("subject"),
                         s.value(QStringLiteral("kind")).toString() + QLatin1Char(':') +
                             s.value(QStringLiteral("name")).toString()}};
        const QJsonObject allowed = s.value(QStringLiteral("verbs")).toObject();
        for (auto it = allowed.begin(); it != allowed.end(); ++it)
            row.insert(it.key(), it.value().toBool() ? QStringLiteral("yes") : QStringLiteral("-"));
        rows.append(row);
    }
    printTable(rows, columns, out);
}

void printSettings(const QJsonObject &settings, QTextStream &out)
{
    out << "anonymous-auth:           " << field(settings, "anonymousAuth") << "\n"
        << "authorization-mode:       " << field(settings, "authorizationModes") << "\n"
        << "enable-admission-plugins: " << field(settings, "admissionPlugins") << "\n";
}

} // namespace Gatehouse::Cli::ClusterViews
