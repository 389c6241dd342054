#include "cli/admincommands.h"

#include <QJsonArray>

namespace Gatehouse::Cli::AdminCommands {

namespace {

QString formatDuration(qint64 s)
{
    if (s < 60)
        return QStringLiteral("%1s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60);
    if (s < 86400)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60);
    return QStringLiteral("%1d%2h").arg(s / 86400).arg((s % 86400) / 3600);
}

void printStatus(const QJsonObject &s, QTextStream &out)
{
    out << "Gatehouse " << s.value(QStringLiteral("version")).toString() << "\n";
    out << "  uptime:    " << formatDuration(s.value(QStringLiteral("uptimeSeconds")).toInteger())
        << " (since " << s.value(QStringLiteral("startedAt")).toString() << ")\n";
    out << "  data dir:  " << s.value(QStringLiteral("dataDir")).toString() << "\n";
    if (const QJsonObject me = s.value(QStringLiteral("principal")).toObject(); !me.isEmpty())
        out << "  token:     "
            << (me.value(QStringLiteral("root")).toBool()
                    ? QStringLiteral("root (everything)")
                    : QStringLiteral("'%1' (%2)")
                          .arg(me.value(QStringLiteral("name")).toString(),
                               me.value(QStringLiteral("permissions"))
                                   .toVariant()
                                   .toStringList()
                                   .join(QLatin1String(", "))))
            << "\n";
    const QJsonObject db = s.value(QStringLiteral("database")).toObject();
    out << "  database:  " << db.value(QStringLiteral("driver")).toString() << " "
        << db.value(QStringLiteral("path")).toString() << " (schema version "
        << db.value(QStringLiteral("schemaVersion")).toInt() << ")\n";
    if (const QString a = s.value(QStringLiteral("allocator")).toString(); !a.isEmpty())
        out << "  allocator: " << a << "\n";
    if (const QJsonValue backlog =
            s.value(QStringLiteral("orders")).toObject().value(QStringLiteral("lifecycleBacklog"));
        backlog.isDouble())
        out << "  orders:    " << backlog.toInt() << " waiting for validation and allocation"
            << (s.value(QStringLiteral("orders"))
                        .toObject()
                        .value(QStringLiteral("lifecycleHeld"))
                        .toBool()
                    ? " (lifecycle held: gatehouse admin orders release)"
                    : "")
            << "\n";
    out << "  listeners:\n";
    const QJsonObject requests =
        s.value(QStringLiteral("counters")).toObject().value(QStringLiteral("requests")).toObject();
    for (const QJsonValue v : s.value(QStringLiteral("listeners")).toArray()) {
        const QJsonObject l = v.toObject();
        const QString name = l.value(QStringLiteral("name")).toString();
        out << "    " << name.leftJustified(8) << " " << l.value(QStringLiteral("url")).toString()
            << "  requests " << requests.value(name).toInteger() << "\n";
    }
    // Every Gatehouse process on the database (docs/storage.md "Instances and the lead").
    const QJsonArray instances = s.value(QStringLiteral("instances")).toArray();
    if (!instances.isEmpty())
        out << "  instances:\n";
    for (const QJsonValue v : instances) {
        const QJsonObject i = v.toObject();
        QStringList notes;
        if (i.value(QStringLiteral("self")).toBool())
            notes << QStringLiteral("this one");
        if (i.value(QStringLiteral("leads")).toBool())
            notes << QStringLiteral("leads the periodic jobs");
        if (!i.value(QStringLiteral("alive")).toBool())
            notes << QStringLiteral("gone");
        out << "    " << i.value(QStringLiteral("id")).toString() << "  "
            << i.value(QStringLiteral("version")).toString() << "  "
            << i.value(QStringLiteral("listeners"))
                   .toObject()
                   .value(QStringLiteral("admin"))
                   .toString(QStringLiteral("-"))
            << "  heartbeat " << i.value(QStringLiteral("heartbeatAt")).toString()
            << (notes.isEmpty() ? QString() : QStringLiteral("  (%1)").arg(notes.join(u", ")))
            << "\n";
    }
}

QString settingPath(const Invocation &in)
{
    return QStringLiteral("/admin/v1/settings/") + pathSegment(in.args[0]);
}

} // namespace

int status(const Invocation &in)
{
    return send(in, {"GET", QStringLiteral("/admin/v1/status")}, viewPrinter(in, printStatus));
}

int configList(const Invocation &in)
{
    return send(in, {"GET", QStringLiteral("/admin/v1/settings")},
                tablePrinter(in, {{"key", "KEY"},
                                  {"value", "VALUE"},
                                  {"source", "SOURCE"},
                                  {"applies", "APPLIES"},
                                  {"pending", "AT NEXT START"}}));
}

int configShow(const Invocation &in)
{
    return send(in, {"GET", settingPath(in)}, answerPrinter(in));
}

int configSet(const Invocation &in)
{
    return send(in, {"PUT", settingPath(in), QJsonObject{{QStringLiteral("value"), in.args[1]}}},
                answerPrinter(in));
}

int configReset(const Invocation &in)
{
    return send(in, {"DELETE", settingPath(in)}, answerPrinter(in));
}

int adminTokensCreate(const Invocation &in)
{
    QJsonArray permissions;
    for (const QString &v : in.values("allow"))
        for (const QString &item : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
            permissions.append(item.trimmed());
    if (permissions.isEmpty()) {
        in.err << "gatehouse admin: give what the token may do with --allow, e.g. --allow "
                  "orders:read,audit:read\n";
        return 2;
    }
    QJsonObject o{{QStringLiteral("name"), in.args[0]},
                  {QStringLiteral("permissions"), permissions}};
    if (!wholeNumber(in, "expires-in", "expiresIn", " of seconds", o))
        return 2;
    return send(in, {"POST", QStringLiteral("/admin/v1/admin-tokens"), o}, answerPrinter(in));
}

int adminTokensList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"name", "NAME"},
                          {"permissions", "PERMISSIONS"},
                          {"expiresAt", "EXPIRES"},
                          {"lastUsedAt", "LAST USED"},
                          {"createdBy", "CREATED BY"}});
}

int auditList(const Invocation &in)
{
    return sendList(in, in.noun(), [&in](const Answer &a) {
        QJsonArray shown;
        for (const QJsonValue v : a.body.value(QStringLiteral("items")).toArray()) {
            QJsonObject o = v.toObject();
            QStringList fields;
            for (const QJsonValue c : o.value(QStringLiteral("changes")).toArray())
                fields.append(c.toObject().value(QStringLiteral("field")).toString());
            o.insert(QStringLiteral("fields"),
                     fields.isEmpty() ? QStringLiteral("-") : fields.join(QStringLiteral(", ")));
            o.insert(QStringLiteral("caused"), o.value(QStringLiteral("consequences"))
                                                   .toObject()
                                                   .value(QStringLiteral("summary"))
                                                   .toString(QStringLiteral("-")));
            shown.append(o);
        }
        printTable(shown,
                   {{"id", "ID"},
                    {"at", "TIME"},
                    {"actor", "ACTOR"},
                    {"kind", "KIND"},
                    {"action", "ACTION"},
                    {"target", "TARGET"},
                    {"fields", "CHANGED"},
                    {"caused", "SINCE THEN"}},
                   in.out);
        return 0;
    });
}

} // namespace Gatehouse::Cli::AdminCommands
