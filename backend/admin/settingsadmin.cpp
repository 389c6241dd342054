#include "admin/settingsadmin.h"
#include "admin/adminlogging.h"

#include "admin/admintokens.h"
#include "admin/clusteradmin.h"
#include "cluster/clusterapi.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/settingsstore.h"
#include "oauth/oauthapi.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::Admin {

using Core::ConfigResolver;
using Core::HttpRequest;
using Core::HttpResponse;

namespace {

// The cluster's live settings and their field in the cluster's settings.
const QHash<QString, QString> &liveFields()
{
    static const QHash<QString, QString> fields{
        {QStringLiteral("anonymous-auth"), QStringLiteral("anonymousAuth")},
        {QStringLiteral("authorization-mode"), QStringLiteral("authorizationModes")},
        {QStringLiteral("enable-admission-plugins"), QStringLiteral("admissionPlugins")},
        {QStringLiteral("oidc-group-mappings"), QStringLiteral("oidcGroupMappings")}};
    return fields;
}

// The authorization server's live settings: its registration policy, member by member.
const QHash<QString, QString> &oauthLiveFields()
{
    static const QHash<QString, QString> fields{
        {QStringLiteral("oauth-registration-grant-types"), QStringLiteral("grantTypes")},
        {QStringLiteral("oauth-registration-scopes"), QStringLiteral("scopes")},
        {QStringLiteral("oauth-registration-audiences"), QStringLiteral("audiences")}};
    return fields;
}

QString liveValue(const Cluster::ClusterSettings &s, const QString &key)
{
    if (key == QLatin1String("anonymous-auth"))
        return s.anonymousAuth ? QStringLiteral("true") : QStringLiteral("false");
    if (key == QLatin1String("authorization-mode"))
        return s.authorizationModes.join(QLatin1Char(','));
    if (key == QLatin1String("oidc-group-mappings"))
        return s.oidcGroupMappings.join(QLatin1Char(','));
    return s.admissionPlugins.join(QLatin1Char(','));
}

QString oauthLiveValue(const OAuth::RegistrationPolicy &p, const QString &key)
{
    if (key == QLatin1String("oauth-registration-grant-types"))
        return p.grantTypes.join(QLatin1Char(','));
    if (key == QLatin1String("oauth-registration-scopes"))
        return p.scopes.join(QLatin1Char(','));
    return p.audiences.join(QLatin1Char(','));
}

// The area a change of this setting reaches besides the settings themselves: a setting of
// the cluster (anonymous access, authorization modes, admission plugins, OIDC) needs
// cluster:write, of the authorization server or the orders API's tokens oauth:write (and
// orders:write for the orders API and for the scopes dynamic registration may grant), of the
// webhooks orders:write; listeners (addresses,
// ports, admin TLS) and demo mode only the root admin token may change ("root"). Limits and storage
// are the administrator's own (admin:write alone).
QStringList extraAreas(const QString &key)
{
    // The admin listener's TLS and the certificates' names are the listeners' too.
    // Whose X-Forwarded-For is believed decides whose sign-in limit a client counts into.
    if (key.startsWith(QLatin1String("admin-")) || key == QLatin1String("tls-extra-sans") ||
        key == QLatin1String("trusted-proxies"))
        return {QStringLiteral("root")};
    // Demo mode creates users with a public password, OAuth clients and RBAC objects at the next
    // start (as the root token, docs/demo.md): only the root token may turn it on. The demo
    // data (catalog, customer) also puts nodes into an empty cluster.
    // Letting it run beyond loopback puts those users on the network.
    if (key == QLatin1String("demo") || key == QLatin1String("demo-allow-network"))
        return {QStringLiteral("root")};
    if (key == QLatin1String("demo-data"))
        return {QStringLiteral("orders"), QStringLiteral("cluster")};
    if (key.startsWith(QLatin1String("demo-")))
        return {QStringLiteral("orders")};
    const QString group = SettingsAdminApi::groupOf(key);
    if (group == QLatin1String("cluster"))
        return {QStringLiteral("cluster")};
    // Sign-in protection guards every user's password, the cluster identities' and the orders
    // clients' users' included, whom an oauth:write token alone may not reset or unlock: loosening
    // it (a lockout of one attempt in a thousand, a rate of 100,000 a minute) is their areas'
    // business too.
    if (key == QLatin1String("oauth-lockout-threshold") ||
        key == QLatin1String("oauth-lockout-duration") || key == QLatin1String("oauth-login-rate"))
        return {QStringLiteral("oauth"), QStringLiteral("cluster"), QStringLiteral("orders")};
    // The scopes strangers may register for (RFC 7591) include the orders API's when listed
    // there: that is the orders area's business too.
    if (group == QLatin1String("oauth"))
        return key.startsWith(QLatin1String("orders-")) ||
                       key == QLatin1String("oauth-registration-scopes")
                   ? QStringList{QStringLiteral("oauth"), QStringLiteral("orders")}
                   : QStringList{QStringLiteral("oauth")};
    if (group == QLatin1String("webhooks"))
        return {QStringLiteral("orders")};
    if (group == QLatin1String("listeners"))
        return {QStringLiteral("root")};
    return {};
}

// 403 unless the request's admin token may change key (fail closed: no token answer, no
// change).
std::optional<HttpResponse> refusedSetting(const AdminTokens *tokens, const HttpRequest &req,
                                           const QString &key)
{
    const QStringList areas = extraAreas(key);
    if (areas.isEmpty())
        return std::nullopt;
    const auto principal = tokens ? tokens->authenticate(req.bearerToken()) : std::nullopt;
    const QString who = principal ? principal->describe() : QStringLiteral("this admin token");
    for (const QString &area : areas) {
        if (area == QLatin1String("root")) {
            if (!principal || !principal->root)
                return HttpResponse::error(
                    403, QStringLiteral("forbidden"),
                    QStringLiteral("%1 may not change %2: only the root admin token changes %3")
                        .arg(who, key,
                             key == QLatin1String("demo") ||
                                     key == QLatin1String("demo-allow-network")
                                 ? QStringLiteral("demo mode (it creates users with a public "
                                                  "password, OAuth clients and RBAC objects)")
                                 : QStringLiteral("listeners")));
            continue;
        }
        if (!principal || !principal->may(area, true))
            return HttpResponse::error(
                403, QStringLiteral("forbidden"),
                QStringLiteral("%1 may not change %2: that also needs %3:write")
                    .arg(who, key, area));
    }
    return std::nullopt;
}

// What kind of editor suits the value: bool, duration, list, number, url or text.
QString typeOf(const Core::ConfigOption &o)
{
    const QString v = o.valueName;
    if (v.isEmpty() || v == QLatin1String("bool"))
        return QStringLiteral("bool");
    if (v == QLatin1String("duration"))
        return QStringLiteral("duration");
    if (v == QLatin1String("delays") || v == QLatin1String("list") || v == QLatin1String("names") ||
        v == QLatin1String("modes") || v == QLatin1String("plugins"))
        return QStringLiteral("list");
    if (v == QLatin1String("port") || v == QLatin1String("n") || v == QLatin1String("ms") ||
        v == QLatin1String("bytes") || v == QLatin1String("days") || v == QLatin1String("percent"))
        return QStringLiteral("number");
    if (v == QLatin1String("url"))
        return QStringLiteral("url");
    return QStringLiteral("text");
}

std::optional<Core::ConfigOption> optionOf(const QString &key)
{
    for (const Core::ConfigOption &o : ConfigResolver::options())
        if (o.key == key)
            return o;
    return std::nullopt;
}

HttpResponse notFound(const QString &key)
{
    return HttpResponse::error(404, QStringLiteral("setting-not-found"),
                               QStringLiteral("no setting %1").arg(key.left(100)));
}

bool explicitSource(const QString &source)
{
    return source != QLatin1String("default") && !source.startsWith(QLatin1String("admin API"));
}

// The password hashing cost: two settings that ConfigResolver::check() judges together.
const QStringList CostKeys{QStringLiteral("password-hash-memory"),
                           QStringLiteral("password-hash-iterations")};

} // namespace

QString SettingsAdminApi::storeKey(const QString &key)
{
    return QStringLiteral("config:") + key;
}

bool SettingsAdminApi::isLive(const QString &key)
{
    return isClusterLive(key) || isOAuthLive(key);
}

bool SettingsAdminApi::isClusterLive(const QString &key)
{
    return liveFields().contains(key);
}

bool SettingsAdminApi::isOAuthLive(const QString &key)
{
    return oauthLiveFields().contains(key);
}

bool SettingsAdminApi::isReadOnly(const QString &key)
{
    return key == QLatin1String("data-dir") || key == QLatin1String("database") ||
           key == QLatin1String("database-key-file");
}

QString SettingsAdminApi::groupOf(const QString &key)
{
    if (key.endsWith(QLatin1String("-address")) || key.endsWith(QLatin1String("-port")) ||
        key == QLatin1String("public-base-url") || key == QLatin1String("trusted-proxies") ||
        key == QLatin1String("demo-allow-network"))
        return key == QLatin1String("demo-receiver-port") ? QStringLiteral("webhooks")
                                                          : QStringLiteral("listeners");
    if (key.startsWith(QLatin1String("max-")) || key.endsWith(QLatin1String("-timeout-ms")) ||
        key == QLatin1String("shutdown-grace-ms"))
        return key.startsWith(QLatin1String("webhook-")) ? QStringLiteral("webhooks")
                                                         : QStringLiteral("limits");
    if (key.startsWith(QLatin1String("oauth-")) ||
        key.startsWith(QLatin1String("password-hash-")) ||
        key == QLatin1String("orders-require-token") || key == QLatin1String("orders-resource"))
        return QStringLiteral("oauth");
    if (key.startsWith(QLatin1String("webhook-")) || key.startsWith(QLatin1String("demo-")) ||
        key == QLatin1String("delivery-history-days"))
        return QStringLiteral("webhooks");
    if (isReadOnly(key))
        return QStringLiteral("storage");
    return QStringLiteral("cluster"); // anonymous-auth, modes, plugins, oidc-*, tls-extra-sans
}

void SettingsAdminApi::applyStored(Core::Config &config, const Core::SettingsStore &store)
{
    const auto all = store.all();
    if (!all)
        return;
    const Core::Config started = config;
    for (const Core::ConfigOption &o : ConfigResolver::options()) {
        if (isClusterLive(o.key) || isReadOnly(o.key))
            continue; // the cluster keeps its live settings itself
        const auto kept = all->constFind(storeKey(o.key));
        if (kept == all->constEnd())
            continue;
        const QString source = config.sources.value(o.key, QStringLiteral("default"));
        if (explicitSource(source)) {
            qCInfo(lcAdmin).noquote() << "setting" << o.key << "is given by" << source
                                      << "; the value kept through the admin API is not used";
            continue;
        }
        if (auto r = ConfigResolver::set(config, o.key, *kept, QStringLiteral("admin API")); !r)
            qCWarning(lcAdmin).noquote()
                << "ignoring the kept value of" << o.key << ":" << r.error().message;
    }
    // What no single value says (ConfigResolver::check), with every kept value in place: the
    // password hashing cost is a pair; a kept pair below the minimum is not used, as a pair.
    if (auto r = ConfigResolver::check(config); !r) {
        qCWarning(lcAdmin).noquote()
            << "ignoring the kept values of password-hash-memory and password-hash-iterations:"
            << r.error().message;
        config.passwordHashMemoryKiB = started.passwordHashMemoryKiB;
        config.passwordHashIterations = started.passwordHashIterations;
        for (const QString &key : CostKeys)
            config.sources.insert(key, started.sources.value(key, QStringLiteral("default")));
    }
}

SettingsAdminApi::SettingsAdminApi(Core::HttpServer &server, const Core::Config &effective,
                                   Core::SettingsStore &store, Cluster::ClusterApi &cluster,
                                   Core::EventBus &events)
    : m_server(server), m_effective(effective), m_store(store), m_cluster(cluster), m_events(events)
{
    registerRoutes();
}

QJsonObject SettingsAdminApi::item(const Core::ConfigOption &o) const
{
    const bool live = isLive(o.key);
    const QString started = ConfigResolver::valueOf(m_effective, o.key);
    const QString value = isClusterLive(o.key) ? liveValue(m_cluster.settings(), o.key)
                          : isOAuthLive(o.key) && m_oauth
                              ? oauthLiveValue(m_oauth->trust().registrationPolicy(), o.key)
                              : started;
    QString source = m_effective.sources.value(o.key, QStringLiteral("default"));
    if (live && value != started)
        source = QStringLiteral("admin API");
    QJsonValue pending = QJsonValue::Null;
    if (!live) {
        if (const auto kept = m_store.value(storeKey(o.key)); kept && *kept != started)
            pending = *kept;
    }
    const bool fixed = isReadOnly(o.key) || (!live && explicitSource(source));
    return {{QStringLiteral("id"), o.key},
            {QStringLiteral("key"), o.key},
            {QStringLiteral("group"), groupOf(o.key)},
            {QStringLiteral("type"), typeOf(o)},
            {QStringLiteral("valueName"), o.valueName},
            {QStringLiteral("description"), o.description},
            {QStringLiteral("value"), value},
            {QStringLiteral("default"), ConfigResolver::valueOf(Core::Config{}, o.key)},
            {QStringLiteral("source"), source},
            {QStringLiteral("applies"), live ? QStringLiteral("live") : QStringLiteral("restart")},
            {QStringLiteral("pending"), pending},
            {QStringLiteral("restartRequired"), !pending.isNull()},
            {QStringLiteral("editable"), !fixed},
            {QStringLiteral("environment"), ConfigResolver::envName(o.key)}};
}

void SettingsAdminApi::registerRoutes()
{
    m_server.route("GET", QStringLiteral("/admin/v1/settings"), [this](const HttpRequest &) {
        QJsonArray items;
        bool restart = false;
        for (const Core::ConfigOption &o : ConfigResolver::options()) {
            const QJsonObject i = item(o);
            restart = restart || i.value(QLatin1String("restartRequired")).toBool();
            items.append(i);
        }
        return HttpResponse::json(200, QJsonObject{{QStringLiteral("items"), items},
                                                   {QStringLiteral("restartRequired"), restart}});
    });
    m_server.route("GET", QStringLiteral("/admin/v1/settings/{key}"),
                   [this](const HttpRequest &req) {
                       const QString key = req.pathParam(QStringLiteral("key"));
                       const auto o = optionOf(key);
                       return o ? HttpResponse::json(200, item(*o)) : notFound(key);
                   });
    // {"value": "5s,5m" | true | 42}
    m_server.route(
        "PUT", QStringLiteral("/admin/v1/settings/{key}"), [this](const HttpRequest &req) {
            const QString key = req.pathParam(QStringLiteral("key"));
            const auto o = optionOf(key);
            if (!o)
                return notFound(key);
            if (isReadOnly(key))
                return HttpResponse::error(409, QStringLiteral("setting-read-only"),
                                           QStringLiteral("%1 cannot be changed while the backend "
                                                          "runs from it")
                                               .arg(key));
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(req.body, &pe);
            const QJsonValue v = doc.object().value(QStringLiteral("value"));
            QString text;
            if (v.isString())
                text = v.toString();
            else if (v.isBool())
                text = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
            else if (v.isDouble() && v.toDouble() == double(v.toInteger()))
                text = QString::number(v.toInteger());
            if (pe.error != QJsonParseError::NoError || !doc.isObject() ||
                (!v.isString() && !v.isBool() && !v.isDouble()) ||
                (v.isDouble() && text.isEmpty()) || text.size() > 4096)
                return HttpResponse::error(
                    400, QStringLiteral("malformed-json"),
                    QStringLiteral("the body must be {\"value\": a string, a boolean or a whole "
                                   "number}"));
            // Validated exactly as the flag would be, and with the other half of the password
            // hashing cost as the next start will have it (its kept value, if any).
            Core::Config probe = m_effective;
            if (auto r = ConfigResolver::set(probe, key, text, QStringLiteral("admin API")); !r)
                return HttpResponse::error(400, r.error().code, r.error().message);
            if (const qsizetype half = CostKeys.indexOf(key); half >= 0) {
                const QString &other = CostKeys.at(1 - half);
                const auto kept = m_store.value(storeKey(other));
                if (kept && !explicitSource(probe.sources.value(other, QStringLiteral("default"))))
                    static_cast<void>(
                        ConfigResolver::set(probe, other, *kept, QStringLiteral("admin API")));
            }
            if (auto r = ConfigResolver::check(probe); !r)
                return HttpResponse::error(400, r.error().code, r.error().message);
            const QString normalized = ConfigResolver::valueOf(probe, key);
            // What reaches into another area needs that area's write permission as well.
            if (auto refused = refusedSetting(m_tokens, req, key))
                return *refused;
            if (isOAuthLive(key)) {
                if (!m_oauth)
                    return HttpResponse::error(503, QStringLiteral("not-ready"),
                                               QStringLiteral("the authorization server is not "
                                                              "started yet"));
                const QStringList list = normalized.split(QLatin1Char(','), Qt::SkipEmptyParts);
                const auto changing = m_store.lockChanges();
                auto policy = OAuth::RegistrationPolicy::fromJson(
                    QJsonObject{{oauthLiveFields().value(key), QJsonArray::fromStringList(list)}},
                    m_oauth->trust().registrationPolicy());
                if (!policy)
                    return HttpResponse::error(
                        400, QStringLiteral("invalid-setting"),
                        QStringLiteral("%1: %2").arg(key, policy.error().message));
                // Kept for the next start (unless given explicitly there), applied now.
                if (auto r = m_store.setValue(storeKey(key), normalized); !r)
                    return HttpResponse::error(500, r.error().code, r.error().message);
                m_oauth->trust().setRegistrationPolicy(*policy);
                const QJsonObject answer = item(*o);
                m_events.publish(QStringLiteral("setting.changed"), answer);
                return HttpResponse::json(200, answer);
            }
            if (isLive(key)) {
                QJsonObject field;
                if (key == QLatin1String("anonymous-auth"))
                    field.insert(liveFields().value(key), probe.clusterAnonymousAuth);
                else
                    field.insert(
                        liveFields().value(key),
                        QJsonArray::fromStringList(key == QLatin1String("authorization-mode")
                                                       ? probe.clusterAuthorizationModes
                                                   : key == QLatin1String("oidc-group-mappings")
                                                       ? probe.oidcGroupMappings
                                                       : probe.clusterAdmissionPlugins));
                const auto changing = m_store.lockChanges();
                auto parsed = Cluster::ClusterSettings::fromJson(field, m_cluster.settings());
                if (auto *e = std::get_if<QString>(&parsed))
                    return HttpResponse::error(400, QStringLiteral("invalid-setting"), *e);
                const auto &s = std::get<Cluster::ClusterSettings>(parsed);
                if (QString e = Cluster::ClusterApi::validateSettings(s); !e.isEmpty())
                    return HttpResponse::error(400, QStringLiteral("invalid-setting"), e);
                // This field alone, merged with the stored row (ClusterAdminApi's PUT does the
                // same): another instance's change to another field since is kept.
                if (auto r = m_store.mergeJsonObject(ClusterAdminApi::settingsKey(),
                                                     ClusterAdminApi::changedFields(s, field));
                    !r)
                    return HttpResponse::error(r.error().httpStatus == 503 ? 503 : 500,
                                               r.error().code, r.error().message);
                m_cluster.applySettings(s);
            } else {
                const QString source = m_effective.sources.value(key, QStringLiteral("default"));
                if (explicitSource(source))
                    return HttpResponse::error(
                        409, QStringLiteral("setting-fixed"),
                        QStringLiteral("%1 is given by %2, which wins at every start; change it "
                                       "there")
                            .arg(key, source));
                // Back to what runs now: nothing is pending any more.
                auto r = normalized == ConfigResolver::valueOf(m_effective, key)
                             ? m_store.remove(storeKey(key))
                             : m_store.setValue(storeKey(key), normalized);
                if (!r)
                    return HttpResponse::error(500, r.error().code, r.error().message);
            }
            const QJsonObject answer = item(*o);
            m_events.publish(QStringLiteral("setting.changed"), answer);
            return HttpResponse::json(200, answer);
        });
    // Drops the value kept for the next start.
    m_server.route("DELETE", QStringLiteral("/admin/v1/settings/{key}"),
                   [this](const HttpRequest &req) {
                       const QString key = req.pathParam(QStringLiteral("key"));
                       const auto o = optionOf(key);
                       if (!o)
                           return notFound(key);
                       if (isLive(key) || isReadOnly(key))
                           return HttpResponse::error(
                               409, QStringLiteral("setting-not-pending"),
                               QStringLiteral("%1 has no value kept for the next start; set it "
                                              "with PUT")
                                   .arg(key));
                       // Dropping a value kept for the next start changes that area too.
                       if (auto refused = refusedSetting(m_tokens, req, key))
                           return *refused;
                       if (auto r = m_store.remove(storeKey(key)); !r)
                           return HttpResponse::error(500, r.error().code, r.error().message);
                       const QJsonObject answer = item(*o);
                       m_events.publish(QStringLiteral("setting.changed"), answer);
                       return HttpResponse::json(200, answer);
                   });
}

bool SettingsAdminApi::changedElsewhere(const QString &changed)
{
    // Read and applied as one step, never around a change made here (SettingsStore).
    const auto changing = m_store.lockChanges();
    // A read that failed (not a setting that is not stored): the caller reads again later.
    bool readAll = true;
    auto failed = [&readAll](const Core::Error &e) {
        if (e.code == QLatin1String("not-found"))
            return;
        qCWarning(lcAdmin).noquote()
            << "settings changed elsewhere could not be read:" << e.message;
        readAll = false;
    };
    if (changed.isEmpty() || changed == ClusterAdminApi::settingsKey()) {
        const auto saved = m_store.value(ClusterAdminApi::settingsKey());
        if (!saved)
            failed(saved.error());
        if (saved) {
            // As at start: a setting given explicitly (flag, environment, config file) is not
            // overridden by what is stored.
            const QJsonObject stored = QJsonDocument::fromJson(saved->toUtf8()).object();
            QJsonObject keep;
            for (auto it = liveFields().cbegin(); it != liveFields().cend(); ++it)
                if (!explicitSource(
                        m_effective.sources.value(it.key(), QStringLiteral("default"))) &&
                    stored.contains(it.value()))
                    keep.insert(it.value(), stored.value(it.value()));
            auto parsed = Cluster::ClusterSettings::fromJson(keep, m_cluster.settings());
            // Unreadable (a newer build's?) or unchanged: nothing to do.
            const auto *s = std::get_if<Cluster::ClusterSettings>(&parsed);
            if (s && s->toJson() != m_cluster.settings().toJson()) {
                const Cluster::ClusterSettings before = m_cluster.settings();
                if (const QString e = m_cluster.applySettings(*s); !e.isEmpty()) {
                    qCWarning(lcAdmin).noquote() << "cluster settings changed elsewhere:" << e;
                } else {
                    qCInfo(lcAdmin) << "cluster settings changed by another instance applied";
                    for (auto it = liveFields().cbegin(); it != liveFields().cend(); ++it)
                        if (liveValue(before, it.key()) != liveValue(*s, it.key()))
                            if (const auto o = optionOf(it.key()))
                                m_events.publish(QStringLiteral("setting.changed"), item(*o));
                }
            }
        }
    }
    if (!m_oauth)
        return readAll;
    for (auto it = oauthLiveFields().cbegin(); it != oauthLiveFields().cend(); ++it) {
        if ((!changed.isEmpty() && changed != storeKey(it.key())) ||
            explicitSource(m_effective.sources.value(it.key(), QStringLiteral("default"))))
            continue;
        const auto kept = m_store.value(storeKey(it.key()));
        if (!kept) {
            failed(kept.error());
            continue;
        }
        auto policy = OAuth::RegistrationPolicy::fromJson(
            QJsonObject{{it.value(), QJsonArray::fromStringList(
                                         kept->split(QLatin1Char(','), Qt::SkipEmptyParts))}},
            m_oauth->trust().registrationPolicy());
        if (!policy) {
            qCWarning(lcAdmin).noquote()
                << it.key() << "changed elsewhere:" << policy.error().message;
            continue;
        }
        if (oauthLiveValue(*policy, it.key()) ==
            oauthLiveValue(m_oauth->trust().registrationPolicy(), it.key()))
            continue;
        m_oauth->trust().setRegistrationPolicy(*policy);
        qCInfo(lcAdmin).noquote() << it.key() << "changed by another instance applied";
        if (const auto o = optionOf(it.key()))
            m_events.publish(QStringLiteral("setting.changed"), item(*o));
    }
    return readAll;
}

} // namespace Gatehouse::Admin
