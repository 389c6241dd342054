// The settings of TestAdminServer: GET/PUT/DELETE /admin/v1/settings[/{key}] with the real
// backend's item shape (backend/admin/settingsadmin.cpp) and setting.changed events.
#include "testadminserver.h"

#include <QJsonArray>

namespace {

QJsonObject settingItem(const QString &key, const QString &group, const QString &type,
                        const QString &description, const QString &value,
                        const QString &defaultValue, const QString &source, bool live,
                        bool editable)
{
    return {
        {"id", key},
        {"key", key},
        {"group", group},
        {"type", type},
        {"valueName", type},
        {"description", description},
        {"value", value},
        {"default", defaultValue},
        {"source", source},
        {"applies", live ? "live" : "restart"},
        {"pending", QJsonValue::Null},
        {"restartRequired", false},
        {"editable", editable},
        {"environment", QStringLiteral("GATEHOUSE_") +
                            QString(key).replace(QLatin1Char('-'), QLatin1Char('_')).toUpper()}};
}

} // namespace

void TestAdminServer::resetSettings()
{
    m_settings = {
        settingItem("service-port", "listeners", "number",
                    "Port of the service listener (0: any free port).", "8080", "8080",
                    "flag --service-port", false, false),
        settingItem("public-base-url", "listeners", "url",
                    "Public base URL of the service listener (OpenAPI servers, OAuth issuer); "
                    "default: the listener's own URL.",
                    "", "", "default", false, true),
        settingItem("max-connections", "limits", "number",
                    "Open connections per listener (503 above).", "1024", "1024", "default", false,
                    true),
        settingItem("oauth-code-lifetime", "oauth", "duration",
                    "Lifetime of authorization codes (default 60s).", "1m", "1m", "default", false,
                    true),
        settingItem("webhook-retry-schedule", "webhooks", "list",
                    "Delays between webhook attempts, e.g. 5s,5m,30m,2h,5h,10h,10h (the "
                    "default).",
                    "5s,5m,30m,2h,5h,10h,10h", "5s,5m,30m,2h,5h,10h,10h", "default", false, true),
        settingItem("anonymous-auth", "cluster", "bool",
                    "Cluster API: treat requests without credentials as system:anonymous "
                    "(default true); false answers them 401.",
                    "true", "true", "default", true, true),
        settingItem("authorization-mode", "cluster", "list",
                    "Cluster API authorizers in order, comma-separated (default Node,RBAC; must "
                    "include RBAC; also AlwaysAllow, AlwaysDeny).",
                    "Node,RBAC", "Node,RBAC", "default", true, true),
        settingItem("data-dir", "storage", "text",
                    "Data directory (database, keys, admin token, ports.json).", "/tmp/gatehouse",
                    "", "flag --data-dir", false, false),
    };
}

QJsonObject TestAdminServer::setting(const QString &key) const
{
    for (const QJsonObject &s : m_settings)
        if (s.value("key").toString() == key)
            return s;
    return {};
}

bool TestAdminServer::handleSettings(QTcpSocket *socket, const QByteArray &method,
                                     const QString &resource, const QString &id,
                                     const QJsonObject &in)
{
    if (resource != QLatin1String("settings"))
        return false;
    if (id.isEmpty()) {
        if (method != "GET") {
            respondError(socket, 405, "method-not-allowed", "use PUT /admin/v1/settings/{key}");
            return true;
        }
        QJsonArray items;
        bool restart = false;
        for (const QJsonObject &s : std::as_const(m_settings)) {
            items.append(s);
            restart = restart || s.value("restartRequired").toBool();
        }
        respondJson(socket, 200, {{"items", items}, {"restartRequired", restart}});
        return true;
    }
    const auto it = std::find_if(m_settings.begin(), m_settings.end(), [&id](const QJsonObject &s) {
        return s.value("key").toString() == id;
    });
    if (it == m_settings.end()) {
        respondError(socket, 404, "setting-not-found", QStringLiteral("no setting %1").arg(id));
        return true;
    }
    QJsonObject &s = *it;
    if (method == "GET") {
        respondJson(socket, 200, s);
        return true;
    }
    const bool live = s.value("applies").toString() == QLatin1String("live");
    if (method == "DELETE") {
        if (live) {
            respondError(
                socket, 409, "setting-not-pending",
                QStringLiteral("%1 has no value kept for the next start; set it with PUT").arg(id));
            return true;
        }
        s.insert("pending", QJsonValue::Null);
        s.insert("restartRequired", false);
    } else if (method == "PUT") {
        if (!s.value("editable").toBool()) {
            respondError(socket, 409, "setting-fixed",
                         QStringLiteral("%1 is given by %2, which wins at every start; change it "
                                        "there")
                             .arg(id, s.value("source").toString()));
            return true;
        }
        const QJsonValue v = in.value("value");
        if (!v.isString()) {
            respondError(socket, 400, "malformed-json",
                         "the body must be {\"value\": a string, a boolean or a whole number}");
            return true;
        }
        const QString value = v.toString().trimmed();
        const QString type = s.value("type").toString();
        bool ok = true;
        if (type == QLatin1String("number")) {
            const qint64 n = value.toLongLong(&ok);
            ok = ok && n >= 1 && n <= 1'000'000;
            if (!ok) {
                respondError(socket, 400, "invalid-setting",
                             QStringLiteral("%1: expected an integer from 1 to 1000000").arg(id));
                return true;
            }
        } else if (type == QLatin1String("bool") && value != QLatin1String("true") &&
                   value != QLatin1String("false")) {
            respondError(socket, 400, "invalid-setting",
                         QStringLiteral("%1: expected true or false").arg(id));
            return true;
        } else if (id == QLatin1String("authorization-mode") &&
                   !value.split(',').contains(QStringLiteral("RBAC"))) {
            respondError(socket, 400, "invalid-setting",
                         "authorization modes must include RBAC (Gatehouse manages access with "
                         "RBAC)");
            return true;
        }
        if (live) {
            s.insert("value", value);
            s.insert("source", "admin API");
        } else {
            const bool same = value == s.value("value").toString();
            s.insert("pending", same ? QJsonValue(QJsonValue::Null) : QJsonValue(value));
            s.insert("restartRequired", !same);
        }
    } else {
        respondError(
            socket, 405, "method-not-allowed",
            QStringLiteral("method %1 is not allowed here").arg(QString::fromLatin1(method)));
        return true;
    }
    const QJsonObject answer = s;
    respondJson(socket, 200, answer);
    sendEvent("setting.changed", answer);
    return true;
}
