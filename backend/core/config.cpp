#include "core/config.h"
#include "core/clientaddress.h"
#include "core/postgres.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>
#include <functional>

namespace Gatehouse::Core {

namespace {

using Setter = std::function<Result<void>(Config &, const QString &)>;

Result<qint64> parseInt(const QString &value, qint64 min, qint64 max)
{
    bool ok = false;
    const qint64 v = value.trimmed().toLongLong(&ok);
    if (!ok || v < min || v > max)
        return makeError(QStringLiteral("invalid-config"),
                         QStringLiteral("expected an integer from %1 to %2").arg(min).arg(max),
                         400);
    return v;
}

// Levenshtein distance (insertions, deletions, substitutions), for "did you mean".
int editDistance(const QString &a, const QString &b)
{
    QList<int> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] =
                std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

Setter intSetter(qint64 min, qint64 max, std::function<void(Config &, qint64)> assign)
{
    return [min, max, assign = std::move(assign)](Config &c, const QString &v) -> Result<void> {
        auto r = parseInt(v, min, max);
        if (!r)
            return r.error();
        assign(c, *r);
        return {};
    };
}

Setter boolSetter(std::function<void(Config &, bool)> assign)
{
    return [assign = std::move(assign)](Config &c, const QString &v) -> Result<void> {
        const QString t = v.trimmed().toLower();
        if (t == QLatin1String("true") || t == QLatin1String("1") || t == QLatin1String("yes") ||
            t == QLatin1String("on"))
            assign(c, true);
        else if (t == QLatin1String("false") || t == QLatin1String("0") ||
                 t == QLatin1String("no") || t == QLatin1String("off"))
            assign(c, false);
        else
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("expected true or false"), 400);
        return {};
    };
}

Setter durationSetter(qint64 minMs, qint64 maxMs,
                      const std::function<void(Config &, qint64)> &assign)
{
    return [=](Config &c, const QString &v) -> Result<void> {
        auto d = parseDurationMs(v);
        if (!d)
            return d.error();
        if (*d < minMs || *d > maxMs)
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("must be from %1 ms to %2 ms").arg(minMs).arg(maxMs),
                             400);
        assign(c, *d);
        return {};
    };
}

// The IPv6 forms that carry an IPv4 address (the webhook URL policy checks the IPv4 address
// they carry): the form an allowlist range overlaps while being wider than /8 of its IPv4
// part, or empty. "::ffff:0:0/96" or "::/16" would take in every IPv4 address.
QString embeddingTooWide(const QPair<QHostAddress, int> &subnet)
{
    static const struct
    {
        const char *range;
        const char *form;
        int ipv4At; // the bit where the IPv4 address starts
    } forms[] = {{"::ffff:0:0/96", "IPv4-mapped addresses", 96},
                 {"::ffff:0:0:0/96", "IPv4-translated addresses", 96},
                 {"::/96", "IPv4-compatible addresses", 96},
                 {"64:ff9b::/96", "NAT64 addresses", 96},
                 {"64:ff9b:1::/48", "local-use NAT64 addresses", 96},
                 {"2002::/16", "6to4 addresses", 16}};
    if (subnet.first.protocol() != QAbstractSocket::IPv6Protocol)
        return {};
    for (const auto &f : forms) {
        const auto form = QHostAddress::parseSubnet(QLatin1String(f.range));
        const bool overlaps = form.first.isInSubnet(subnet.first, subnet.second) ||
                              subnet.first.isInSubnet(form.first, form.second);
        if (overlaps && subnet.second < f.ipv4At + 8)
            return QLatin1String(f.form);
    }
    return {};
}

QStringList splitList(const QString &v)
{
    QStringList out;
    for (const QString &s : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty())
            out.append(s.trimmed());
    return out;
}

Setter addressSetter(ListenerSettings Config::*listener)
{
    return [=](Config &c, const QString &v) -> Result<void> {
        QHostAddress a;
        const QString t = v.trimmed();
        if (t != QLatin1String("localhost") && !a.setAddress(t))
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("expected an IP address such as 127.0.0.1 or ::1"),
                             400);
        (c.*listener).address = t;
        return {};
    };
}

struct Entry
{
    ConfigOption option;
    Setter set;
};

const QList<Entry> &entries()
{
    static const QList<Entry> list = [] {
        QList<Entry> l;
        auto add = [&l](const char *key, const char *valueName, const char *desc, Setter s) {
            l.append(Entry{ConfigOption{QString::fromLatin1(key), QString::fromLatin1(valueName),
                                        QString::fromLatin1(desc)},
                           std::move(s)});
        };
        add("data-dir", "dir", "Data directory (database, keys, admin token, ports.json).",
            [](Config &c, const QString &v) -> Result<void> {
                if (v.trimmed().isEmpty())
                    return makeError(QStringLiteral("invalid-config"),
                                     QStringLiteral("must not be empty"), 400);
                c.dataDir = QDir::cleanPath(QDir(v.trimmed()).absolutePath());
                return {};
            });
        add("database", "url",
            "Database: empty for SQLite in the data directory, or "
            "postgresql://user@host:port/database (password from the URL, a passfile or PG* "
            "variables).",
            [](Config &c, const QString &v) -> Result<void> {
                const QString t = v.trimmed();
                if (!t.isEmpty())
                    if (auto r = parsePostgresUrl(t); !r)
                        return r.error();
                c.database = t;
                return {};
            });
        add("database-key-file", "file",
            "Key that seals the secrets the database holds (signing keys, webhook secrets): empty "
            "for <data-dir>/database-key, made at first start; else a file that must exist, the "
            "same on every instance sharing the database.",
            [](Config &c, const QString &v) -> Result<void> {
                const QString t = v.trimmed();
                c.databaseKeyFile =
                    t.isEmpty() ? QString() : QDir::cleanPath(QDir(t).absolutePath());
                return {};
            });
        const struct
        {
            const char *name;
            ListenerSettings Config::*member;
        } listeners[] = {{"service", &Config::service},
                         {"cluster", &Config::cluster},
                         {"admin", &Config::admin}};
        static QByteArray keys[6], descs[6];
        int i = 0;
        for (const auto &ls : listeners) {
            keys[i] = QByteArray(ls.name) + "-address";
            descs[i] = QByteArray("Address the ") + ls.name + " listener binds to.";
            add(keys[i].constData(), "ip", descs[i].constData(), addressSetter(ls.member));
            ++i;
            keys[i] = QByteArray(ls.name) + "-port";
            descs[i] = QByteArray("Port of the ") + ls.name + " listener (0: any free port).";
            auto member = ls.member;
            add(keys[i].constData(), "port", descs[i].constData(),
                intSetter(0, 65535, [member](Config &c, qint64 v) { (c.*member).port = int(v); }));
            ++i;
        }
        add("max-header-bytes", "bytes", "Limit for request line + headers (431 above).",
            intSetter(1024, 1 << 20, [](Config &c, qint64 v) { c.maxHeaderBytes = v; }));
        add("max-body-bytes", "bytes", "Default request body limit (413 above).",
            intSetter(0, qint64(1) << 32, [](Config &c, qint64 v) { c.maxBodyBytes = v; }));
        add("header-timeout-ms", "ms", "Time allowed to send request line and headers (408 after).",
            intSetter(100, 3'600'000, [](Config &c, qint64 v) { c.headerTimeoutMs = int(v); }));
        add("body-timeout-ms", "ms", "Time allowed to send a request body (408 after).",
            intSetter(100, 3'600'000, [](Config &c, qint64 v) { c.bodyTimeoutMs = int(v); }));
        add("idle-timeout-ms", "ms", "Idle keep-alive connections are closed after this time.",
            intSetter(100, 3'600'000, [](Config &c, qint64 v) { c.idleTimeoutMs = int(v); }));
        add("handshake-timeout-ms", "ms", "TLS handshakes not finished in this time are dropped.",
            intSetter(100, 600'000, [](Config &c, qint64 v) { c.handshakeTimeoutMs = int(v); }));
        add("max-connections", "n", "Open connections per listener (503 above).",
            intSetter(1, 1'000'000, [](Config &c, qint64 v) { c.maxConnections = int(v); }));
        add("max-connections-per-client", "n",
            "Open connections per listener from one client address (an IPv6 /64); trusted "
            "proxies are not counted (503 above).",
            intSetter(1, 1'000'000,
                      [](Config &c, qint64 v) { c.maxConnectionsPerClient = int(v); }));
        add("shutdown-grace-ms", "ms", "How long SIGTERM waits for in-flight requests.",
            intSetter(0, 600'000, [](Config &c, qint64 v) { c.shutdownGraceMs = int(v); }));
        add("tls-extra-sans", "names",
            "Comma-separated extra DNS names and IP addresses for the cluster server certificate.",
            [](Config &c, const QString &v) -> Result<void> {
                c.tlsExtraSans = splitList(v);
                return {};
            });
        add("admin-tls", "",
            "Serve the admin API over HTTPS with the server certificate, for remote consoles and "
            "`gatehouse admin` over a network; they trust it by its SHA-256 fingerprint, which "
            "is logged at start (off by default; the admin API is on loopback by default).",
            boolSetter([](Config &c, bool v) { c.adminTls = v; }));
        add("public-base-url", "url",
            "Public base URL of the service listener (OpenAPI servers, OAuth issuer); default: "
            "the listener's own URL.",
            [](Config &c, const QString &v) -> Result<void> {
                const QUrl u(v.trimmed(), QUrl::StrictMode);
                if (!u.isValid() ||
                    (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) ||
                    u.host().isEmpty() || u.hasQuery() || u.hasFragment())
                    return makeError(QStringLiteral("invalid-config"),
                                     QStringLiteral("expected an absolute http(s) URL without "
                                                    "query, e.g. https://api.example.com"),
                                     400);
                QString s = u.toString(QUrl::FullyEncoded);
                while (s.endsWith(QLatin1Char('/')))
                    s.chop(1);
                c.publicBaseUrl = s;
                return {};
            });
        add("trusted-proxies", "list",
            "Comma-separated addresses and CIDR ranges of load balancers in front of the service "
            "and admin listeners: from them, the client is the rightmost X-Forwarded-For address "
            "that is not one of them (for sign-in limits, logs and the audit log). Empty (the "
            "default): X-Forwarded-For is never read.",
            [](Config &c, const QString &v) -> Result<void> {
                const QStringList entries = splitList(v);
                if (auto parsed = TrustedProxies::parse(entries); !parsed)
                    return parsed.error();
                c.trustedProxies = entries;
                return {};
            });
        add("demo-data", "bool",
            "Create the demo beer catalog and a demo customer on a new "
            "database (default true).",
            boolSetter([](Config &c, bool v) { c.demoData = v; }));
        add("demo", "",
            "Demo mode for training: on a new data directory create demo users, OAuth clients, "
            "RBAC objects and test orders (docs/demo.md), and start the console's guided tour.",
            boolSetter([](Config &c, bool v) { c.demo = v; }));
        add("demo-allow-network", "",
            "Let demo mode run with the service listener on an address other than loopback, "
            "where anyone on that network signs in as the demo users with their public "
            "password (refused without it; docs/demo.md).",
            boolSetter([](Config &c, bool v) { c.demoAllowNetwork = v; }));
        add("demo-receiver-port", "port",
            "Port of the built-in demo webhook receiver on 127.0.0.1 (0: the last run's, else "
            "any).",
            intSetter(0, 65535, [](Config &c, qint64 v) { c.demoReceiverPort = int(v); }));
        add("webhook-allow-loopback", "",
            "Demo/dev: allow webhook receivers on loopback addresses (refused by default).",
            boolSetter([](Config &c, bool v) { c.webhookAllowLoopback = v; }));
        add("webhook-allowlist", "list",
            "Comma-separated host names, IP addresses or CIDR ranges (at most /8, IPv6 /16) "
            "that webhooks may reach even though they are not public.",
            [](Config &c, const QString &v) -> Result<void> {
                const QStringList entries = splitList(v);
                static const QRegularExpression hostName(QStringLiteral(
                    "^(?=.{1,253}\\z)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*"
                    "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\z"));
                for (const QString &raw : entries) {
                    const QString e = raw.trimmed();
                    if (e.contains(QLatin1Char('/'))) {
                        const auto subnet = QHostAddress::parseSubnet(e);
                        if (subnet.first.isNull())
                            return makeError(QStringLiteral("invalid-config"),
                                             QStringLiteral("'%1' is not a "
                                                            "CIDR range")
                                                 .arg(e),
                                             400);
                        // A range this wide lets webhooks reach nearly anything private:
                        // loopback, the metadata address, the whole network.
                        const int widest =
                            subnet.first.protocol() == QAbstractSocket::IPv4Protocol ? 8 : 16;
                        if (subnet.second < widest)
                            return makeError(QStringLiteral("invalid-config"),
                                             QStringLiteral("'%1' is wider "
                                                            "than /%2: name the networks "
                                                            "webhooks may reach")
                                                 .arg(e)
                                                 .arg(widest),
                                             400);
                        if (const QString form = embeddingTooWide(subnet); !form.isEmpty())
                            return makeError(
                                QStringLiteral("invalid-config"),
                                QStringLiteral("'%1' takes in %2 (IPv4 in IPv6 form) wider "
                                               "than /8: name the IPv4 networks instead")
                                    .arg(e, form),
                                400);
                    } else if (QHostAddress(e).isNull() && !hostName.match(e).hasMatch()) {
                        return makeError(QStringLiteral("invalid-config"),
                                         QStringLiteral("'%1' is not a host "
                                                        "name, an IP address or a CIDR range")
                                             .arg(e),
                                         400);
                    }
                }
                c.webhookAllowlist = entries;
                return {};
            });
        add("webhook-retry-schedule", "delays",
            "Delays between webhook attempts, e.g. 5s,5m,30m,2h,5h,10h,10h (the default).",
            [](Config &c, const QString &v) -> Result<void> {
                QList<qint64> out;
                const QStringList parts = splitList(v);
                if (parts.size() > 50)
                    return makeError(QStringLiteral("invalid-config"),
                                     QStringLiteral("at most 50 delays"), 400);
                for (const QString &p : parts) {
                    auto d = parseDurationMs(p);
                    if (!d)
                        return d.error();
                    out.append(*d);
                }
                c.webhookRetryScheduleMs = out;
                return {};
            });
        add("webhook-jitter-percent", "percent", "Random spread of each retry delay (default 20).",
            intSetter(0, 100, [](Config &c, qint64 v) { c.webhookJitterPercent = int(v); }));
        add("webhook-timeout-ms", "ms", "Time allowed for one webhook attempt (default 15000).",
            intSetter(100, 300'000, [](Config &c, qint64 v) { c.webhookTimeoutMs = int(v); }));
        add("webhook-disable-after", "duration",
            "An endpoint failing without a success for this long is disabled (default 5d).",
            durationSetter(1, 365LL * 86'400'000,
                           [](Config &c, qint64 v) { c.webhookDisableAfterMs = v; }));
        add("webhook-max-in-flight", "n", "Webhook attempts in flight at once (default 128).",
            intSetter(1, 10'000, [](Config &c, qint64 v) { c.webhookMaxInFlight = int(v); }));
        add("webhook-max-queued", "n",
            "Pending deliveries held in memory (default 50000); more wait in the database.",
            intSetter(10, 10'000'000, [](Config &c, qint64 v) { c.webhookMaxQueued = int(v); }));
        add("webhook-secret-overlap", "duration",
            "After a secret rotation the old secret also signs for this long (default 24h).",
            durationSetter(0, 30LL * 86'400'000,
                           [](Config &c, qint64 v) { c.webhookSecretOverlapMs = v; }));
        add("delivery-history-days", "days",
            "Finished webhook deliveries (with their attempt logs) and bulk redelivery jobs are "
            "kept this many days (default 30; 0 keeps them forever).",
            intSetter(0, 36'500, [](Config &c, qint64 v) { c.deliveryHistoryDays = int(v); }));
        add("oauth-login-rate", "n",
            "Sign-in attempts allowed per minute from one client address (default 20).",
            intSetter(1, 100'000, [](Config &c, qint64 v) { c.oauthLoginRate = int(v); }));
        add("oauth-pending-sign-ins", "n",
            "Sign-ins (login and consent interactions) pending at once, from all addresses "
            "(default 10000; one address holds at most 100). When full, the address holding "
            "the most gives up its oldest.",
            intSetter(10, 1'000'000, [](Config &c, qint64 v) { c.oauthPendingSignIns = int(v); }));
        add("oauth-lockout-threshold", "n",
            "Consecutive failed sign-ins that lock an account (default 5).",
            intSetter(1, 1'000, [](Config &c, qint64 v) { c.oauthLockoutThreshold = int(v); }));
        add("password-hash-memory", "KiB",
            "Memory of each new argon2id password hash, in KiB (default 65536, 64 MiB). With "
            "password-hash-iterations at least OWASP's minimum: memory x iterations >= 35840 "
            "(e.g. 19456 with 2). Stored hashes keep the cost they were made with.",
            intSetter(7168, 1 << 20, [](Config &c, qint64 v) { c.passwordHashMemoryKiB = v; }));
        add("password-hash-iterations", "n",
            "Passes of each new argon2id password hash (default 3; see password-hash-memory).",
            intSetter(1, 32, [](Config &c, qint64 v) { c.passwordHashIterations = int(v); }));
        add("oauth-lockout-duration", "duration",
            "How long a locked account stays locked (default 15m).",
            durationSetter(1'000, 7LL * 86'400'000,
                           [](Config &c, qint64 v) { c.oauthLockoutDurationMs = v; }));
        add("oauth-token-history-days", "days",
            "Expired access and refresh tokens, authorization codes and device codes are kept "
            "this many days after they expired (default 30; 0 keeps them forever).",
            intSetter(0, 36'500, [](Config &c, qint64 v) { c.oauthTokenHistoryDays = int(v); }));
        add("oauth-code-lifetime", "duration", "Lifetime of authorization codes (default 60s).",
            durationSetter(1'000, 600'000, [](Config &c, qint64 v) { c.oauthCodeLifetimeMs = v; }));
        add("oauth-refresh-lifetime", "duration",
            "Lifetime of refresh tokens, renewed on each rotation (default 14d).",
            durationSetter(60'000, 365LL * 86'400'000,
                           [](Config &c, qint64 v) { c.oauthRefreshLifetimeMs = v; }));
        add("oauth-refresh-max-lifetime", "duration",
            "How long after the user signed in their refresh tokens still work, however often "
            "they were rotated; then the user signs in again (default 90d; 0 for no limit).",
            durationSetter(0, 3650LL * 86'400'000,
                           [](Config &c, qint64 v) { c.oauthRefreshMaxLifetimeMs = v; }));
        add("orders-require-token", "",
            "Protect /v1 (orders, beers) as a resource server: a bearer token from this "
            "authorization server with orders:read to read, orders:write to change (off by "
            "default).",
            boolSetter([](Config &c, bool v) { c.ordersRequireToken = v; }));
        add("oauth-open-registration", "",
            "Let anyone register clients at /oauth2/register without an initial access token "
            "(off by default).",
            boolSetter([](Config &c, bool v) { c.oauthOpenRegistration = v; }));
        add("anonymous-auth", "bool",
            "Cluster API: treat requests without credentials as system:anonymous (default "
            "true); false answers them 401.",
            boolSetter([](Config &c, bool v) { c.clusterAnonymousAuth = v; }));
        auto listSetter = [](QStringList Config::*member) {
            return [member](Config &c, const QString &v) -> Result<void> {
                QStringList l;
                for (const QString &part : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
                    l.append(part.trimmed());
                c.*member = l;
                return {};
            };
        };
        add("authorization-mode", "modes",
            "Cluster API authorizers in order, comma-separated (default Node,RBAC; must include "
            "RBAC; also AlwaysAllow, AlwaysDeny).",
            listSetter(&Config::clusterAuthorizationModes));
        add("enable-admission-plugins", "plugins",
            "Cluster API admission plugins in order, comma-separated (default "
            "NamespaceLifecycle,NodeRestriction,ServiceAccount,MutatingAdmissionWebhook,"
            "ValidatingAdmissionWebhook; also AlwaysDeny).",
            listSetter(&Config::clusterAdmissionPlugins));
        auto stringSetter = [](QString Config::*member) {
            return [member](Config &c, const QString &v) -> Result<void> {
                c.*member = v.trimmed();
                return {};
            };
        };
        add("oidc-issuer-url", "url",
            "Cluster API: the OIDC issuer whose JWTs authenticate users (default: this "
            "Gatehouse's authorization server; \"none\" turns OIDC off).",
            stringSetter(&Config::oidcIssuerUrl));
        add("oidc-client-id", "id",
            "Cluster API: the audience an OIDC token must carry (default kubernetes). Tokens for "
            "it are issued only to clients an administrator allowed to act for the cluster "
            "(PUT /admin/v1/clients/{id}/cluster-access, needs cluster:write).",
            stringSetter(&Config::oidcClientId));
        add("oidc-username-claim", "claim",
            "Cluster API: the OIDC claim naming the user (default sub).",
            stringSetter(&Config::oidcUsernameClaim));
        add("oidc-username-prefix", "prefix",
            "Cluster API: prefix for OIDC user names (default \"<issuer>#\" unless the claim is "
            "email; \"-\" for none).",
            stringSetter(&Config::oidcUsernamePrefix));
        add("oidc-groups-claim", "claim",
            "Cluster API: the OIDC claim listing groups (default groups).",
            stringSetter(&Config::oidcGroupsClaim));
        add("oidc-groups-prefix", "prefix", "Cluster API: prefix for OIDC group names.",
            stringSetter(&Config::oidcGroupsPrefix));
        add("oauth-registration-grant-types", "list",
            "Grant types a dynamically registered client (RFC 7591) may have (default "
            "authorization_code,refresh_token,urn:ietf:params:oauth:grant-type:device_code); an "
            "initial access token may carry its own policy. Live.",
            listSetter(&Config::oauthRegistrationGrantTypes));
        add("oauth-registration-scopes", "list",
            "Scopes a dynamically registered client may have (default "
            "openid,profile,email,offline_access). Live.",
            listSetter(&Config::oauthRegistrationScopes));
        add("oauth-registration-audiences", "list",
            "Audiences a dynamically registered client may name in token_exchange_audiences or "
            "allowed_resources (default none). Live.",
            listSetter(&Config::oauthRegistrationAudiences));
        add("orders-resource", "url",
            "The orders API's resource indicator (RFC 8707): the audience its tokens must carry "
            "(default <issuer>/v1).",
            [](Config &c, const QString &v) -> Result<void> {
                const QString t = v.trimmed();
                const QUrl u(t, QUrl::StrictMode);
                if (!t.isEmpty() && (!u.isValid() || u.isRelative() || u.hasFragment()))
                    return makeError(QStringLiteral("invalid-config"),
                                     QStringLiteral("expected an absolute URI without a fragment"),
                                     400);
                c.ordersResource = t;
                return {};
            });
        add("oidc-group-mappings", "list",
            "Cluster API: OIDC groups mapped to cluster groups, comma-separated "
            "oidc-group=cluster-group pairs. Groups beginning with system: reach the cluster "
            "from an OIDC token only through a mapping; others are dropped. Live.",
            [](Config &c, const QString &v) -> Result<void> {
                QStringList l;
                for (const QString &part : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    const QString p = part.trimmed();
                    const qsizetype eq = p.indexOf(QLatin1Char('='));
                    if (eq <= 0 || eq == p.size() - 1 || p.indexOf(QLatin1Char('='), eq + 1) >= 0)
                        return makeError(QStringLiteral("invalid-config"),
                                         QStringLiteral("'%1' is not an oidc-group=cluster-group "
                                                        "pair")
                                             .arg(p.left(200)),
                                         400);
                    l.append(p.left(eq).trimmed() + QLatin1Char('=') + p.mid(eq + 1).trimmed());
                }
                c.oidcGroupMappings = l;
                return {};
            });
        add("oauth-device-code-lifetime", "duration",
            "Lifetime of device codes and their user codes (default 10m).",
            durationSetter(1'000, 3'600'000,
                           [](Config &c, qint64 v) { c.oauthDeviceCodeLifetimeMs = v; }));
        return l;
    }();
    return list;
}

} // namespace

Result<qint64> parseDurationMs(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d{1,9})\\s*(ms|s|m|h|d)?\\s*\\z"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return makeError(
            QStringLiteral("invalid-config"),
            QStringLiteral("'%1' is not a duration such as 500ms, 5s, 5m, 2h or 1d").arg(text),
            400);
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    qint64 factor = 1000;
    if (unit == QLatin1String("ms"))
        factor = 1;
    else if (unit == QLatin1String("m"))
        factor = 60'000;
    else if (unit == QLatin1String("h"))
        factor = 3'600'000;
    else if (unit == QLatin1String("d"))
        factor = 86'400'000;
    return n * factor;
}

const QList<ConfigOption> &ConfigResolver::options()
{
    static const QList<ConfigOption> opts = [] {
        QList<ConfigOption> o;
        for (const Entry &e : entries())
            o.append(e.option);
        return o;
    }();
    return opts;
}

QString ConfigResolver::envName(const QString &key)
{
    return QStringLiteral("GATEHOUSE_") +
           QString(key).replace(QLatin1Char('-'), QLatin1Char('_')).toUpper();
}

const QStringList &ConfigResolver::otherEnvNames()
{
    static const QStringList names = [] {
        // The CLI's and the console's (app/cli/connection.cpp, app/main.cpp) and the config
        // file's path; then what the build, test, package and deploy scripts read or set
        // (tests/, scripts/, deploy/, packaging/, CMake options), which may be exported
        // where a backend starts. Update it when a script reads a new GATEHOUSE_* variable.
        const QString listed = QStringLiteral(
            "ADMIN_TOKEN ADMIN_TOKEN_FILE ADMIN_URL ADMIN_FINGERPRINT CONFIG "
            "ARGS ATTACKS BINARY BUILD_CONSOLE BUILD_CONSOLE_BENCH BUILD_DIR BUILD_TESTS "
            "CACHE_DIR CHROMIUM CONFIGURED_PREFIX CREATEDB E2E_ENABLED E2E_KEEP FUZZ "
            "FUZZ_OPTIONS FUZZ_SECONDS HAVE_LLD INSTALL_SERVICE INSTANCES IN_NETNS JOBS "
            "LINKS_MIMALLOC LUPDATE_LIST MACDEPLOYQT MIMALLOC MOC MOC_DROP NODE_EXECUTABLE "
            "NOOPT_OPTIONS NPM_EXECUTABLE PACKAGE_HOMEPAGE PACKAGE_MAINTAINER PACKAGE_TEST "
            "PAGES_IN_XVFB PG_DURABLE PORT_BASE PYTHON QMLCACHEGEN QT_TOOL_WRAPPERS "
            "REQUIRE_POSTGRES ROOT SANITIZE SMOKE_IN_XVFB SYSTEMD_UNIT_DIR TEST_JOBS TEST_LSAN "
            "TEST_ONLY TEST_POSTGRES TEST_POSTGRES_DIR TEST_TIMEOUT_MS TIDY_CACHE TS_FILES "
            "UNITY_BATCH_SIZE UNITY_BUILD VERSION WINDEPLOYQT WITH_CONSOLE");
        QStringList n;
        for (const QString &name : listed.split(QLatin1Char(' ')))
            n.append(QStringLiteral("GATEHOUSE_") + name);
        return n;
    }();
    return names;
}

QString adminTokenPath(const QString &dataDir)
{
    return dataDir + QStringLiteral("/admin-token");
}

QString portsPath(const QString &dataDir)
{
    return dataDir + QStringLiteral("/ports.json");
}

QString ConfigResolver::defaultDataDir()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.gatehouse");
    return dir;
}

Result<Config> ConfigResolver::resolve(const QMap<QString, QString> &cli,
                                       const QProcessEnvironment &env)
{
    Config config;
    config.dataDir = defaultDataDir();
    for (const Entry &e : entries())
        config.sources.insert(e.option.key, QStringLiteral("default"));

    auto apply = [&config](const Entry &e, const QString &value,
                           const QString &source) -> Result<void> {
        auto r = e.set(config, value);
        if (!r)
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("invalid value '%1' for %2 (from %3): %4")
                                 .arg(e.option.key == QLatin1String("database")
                                          ? QStringLiteral("(not shown)") // it may hold a password
                                          : value,
                                      e.option.key, source, r.error().message),
                             400);
        config.sources.insert(e.option.key, source);
        return {};
    };

    // 1. Config file (lowest precedence after defaults). Its path itself can come
    //    from the flag or the environment.
    QString configPath = cli.value(QStringLiteral("config"));
    if (configPath.isEmpty())
        configPath = env.value(QStringLiteral("GATEHOUSE_CONFIG"));
    if (!configPath.isEmpty()) {
        QFile f(configPath);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(
                QStringLiteral("invalid-config"),
                QStringLiteral("cannot read config file %1: %2").arg(configPath, f.errorString()),
                400);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject())
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("config file %1 is not a JSON object: %2 at offset %3")
                                 .arg(configPath, pe.errorString())
                                 .arg(pe.offset),
                             400);
        const QJsonObject obj = doc.object();
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const auto found =
                std::find_if(entries().begin(), entries().end(),
                             [&](const Entry &e) { return e.option.key == it.key(); });
            if (found == entries().end()) // typos must not be silently ignored
                return makeError(
                    QStringLiteral("invalid-config"),
                    QStringLiteral("unknown key '%1' in config file %2").arg(it.key(), configPath),
                    400);
            QString value;
            if (it->isString())
                value = it->toString();
            else if (it->isBool())
                value = it->toBool() ? QStringLiteral("true") : QStringLiteral("false");
            else if (it->isDouble()) {
                // Integers only; converting an out-of-range double is undefined behaviour
                // (found by fuzz_config), and 1.5 must not silently become 1.
                const double d = it->toDouble();
                if (!(d >= -9.0e15 && d <= 9.0e15) || d != double(qint64(d)))
                    return makeError(QStringLiteral("invalid-config"),
                                     QStringLiteral("key '%1' in config file %2 must be an integer")
                                         .arg(it.key(), configPath),
                                     400);
                value = QString::number(qint64(d));
            } else if (it->isArray()) {
                QStringList parts;
                for (const auto &v : it->toArray())
                    parts.append(v.toVariant().toString());
                value = parts.join(QLatin1Char(','));
            } else
                return makeError(
                    QStringLiteral("invalid-config"),
                    QStringLiteral("key '%1' in config file %2 must be a string or number")
                        .arg(it.key(), configPath),
                    400);
            if (auto r = apply(*found, value, QStringLiteral("config file ") + configPath); !r)
                return r.error();
        }
        config.configFile = QFileInfo(configPath).absoluteFilePath();
    }
    // 2. Environment.
    QStringList known = otherEnvNames();
    for (const Entry &e : entries()) {
        const QString name = envName(e.option.key);
        known.append(name);
        if (env.contains(name))
            if (auto r = apply(e, env.value(name), QStringLiteral("environment ") + name); !r)
                return r.error();
    }
    // A misspelt variable would leave the weaker default in place without a word; refusing it
    // would stop a start over a harness's own variable: reported (the backend logs it).
    const QStringList names = env.keys();
    for (const QString &name : names) {
        if (!name.startsWith(QLatin1String("GATEHOUSE_")) || known.contains(name))
            continue;
        QString closest;
        int best = 4; // at most 3 edits away
        for (const QString &k : std::as_const(known))
            if (const int d = editDistance(name, k); d < best) {
                best = d;
                closest = k;
            }
        // Else one cut short or written out (GATEHOUSE_ANONYMOUS_AUTHENTICATION): the longest
        // name it begins with, or the shortest that begins with it.
        constexpr qsizetype MinPrefix = 14; // GATEHOUSE_ and 4 letters
        if (closest.isEmpty())
            for (const QString &k : std::as_const(known))
                if ((k.size() >= MinPrefix && name.startsWith(k) && k.size() > closest.size()) ||
                    (name.size() >= MinPrefix && k.startsWith(name) &&
                     (closest.isEmpty() || k.size() < closest.size())))
                    closest = k;
        config.unknownEnvironment.append(
            closest.isEmpty() ? name : QStringLiteral("%1 (did you mean %2?)").arg(name, closest));
    }
    // 3. Flags.
    for (const Entry &e : entries()) {
        if (cli.contains(e.option.key))
            if (auto r =
                    apply(e, cli.value(e.option.key), QStringLiteral("flag --") + e.option.key);
                !r)
                return r.error();
    }
    if (auto r = check(config); !r)
        return r.error();
    return config;
}

Result<void> ConfigResolver::check(const Config &config)
{
    // argon2id's cost grows with memory x passes; OWASP's Password Storage Cheat Sheet lists
    // 19 MiB with 2 passes ... 7 MiB with 5 as the least: 35840 KiB-passes.
    constexpr qint64 MinPasswordHashCost = 35840;
    if (config.passwordHashMemoryKiB * config.passwordHashIterations < MinPasswordHashCost)
        return makeError(
            QStringLiteral("invalid-config"),
            QStringLiteral("password-hash-memory %1 (%2) x password-hash-iterations %3 (%4) is "
                           "below OWASP's minimum for argon2id: %5 KiB-passes, e.g. 19456 with 2")
                .arg(QString::number(config.passwordHashMemoryKiB),
                     config.sources.value(QStringLiteral("password-hash-memory"),
                                          QStringLiteral("default")),
                     QString::number(config.passwordHashIterations),
                     config.sources.value(QStringLiteral("password-hash-iterations"),
                                          QStringLiteral("default")),
                     QString::number(MinPasswordHashCost)),
            400);
    return {};
}

QString ConfigResolver::formatDurationMs(qint64 ms)
{
    const std::pair<qint64, const char *> units[] = {
        {86'400'000, "d"}, {3'600'000, "h"}, {60'000, "m"}, {1'000, "s"}};
    for (const auto &[factor, unit] : units)
        if (ms != 0 && ms % factor == 0)
            return QString::number(ms / factor) + QLatin1String(unit);
    return ms == 0 ? QStringLiteral("0s") : QString::number(ms) + QLatin1String("ms");
}

bool ConfigResolver::isKnown(const QString &key)
{
    return std::any_of(entries().begin(), entries().end(),
                       [&key](const Entry &e) { return e.option.key == key; });
}

Result<void> ConfigResolver::set(Config &config, const QString &key, const QString &value,
                                 const QString &source)
{
    const auto found = std::find_if(entries().begin(), entries().end(),
                                    [&key](const Entry &e) { return e.option.key == key; });
    if (found == entries().end())
        return makeError(QStringLiteral("setting-not-found"),
                         QStringLiteral("no setting %1").arg(key), 404);
    if (auto r = found->set(config, value); !r)
        return makeError(QStringLiteral("invalid-setting"),
                         QStringLiteral("%1: %2").arg(key, r.error().message), 400);
    config.sources.insert(key, source);
    return {};
}

QString ConfigResolver::valueOf(const Config &c, const QString &key)
{
    using Get = std::function<QString(const Config &)>;
    auto num = [](auto member) -> Get {
        return [member](const Config &cfg) { return QString::number(cfg.*member); };
    };
    auto dur = [](qint64 Config::*member) -> Get {
        return [member](const Config &cfg) { return formatDurationMs(cfg.*member); };
    };
    auto flag = [](bool Config::*member) -> Get {
        return [member](const Config &cfg) {
            return cfg.*member ? QStringLiteral("true") : QStringLiteral("false");
        };
    };
    auto list = [](QStringList Config::*member) -> Get {
        return [member](const Config &cfg) { return (cfg.*member).join(QLatin1Char(',')); };
    };
    auto text = [](QString Config::*member) -> Get {
        return [member](const Config &cfg) { return cfg.*member; };
    };
    static const QHash<QString, Get> getters{
        {QStringLiteral("data-dir"), text(&Config::dataDir)},
        {QStringLiteral("database"),
         [](const Config &x) {
             const auto t = parsePostgresUrl(x.database);
             return x.database.isEmpty() ? QString() : t ? t->display : QStringLiteral("(invalid)");
         }},
        {QStringLiteral("database-key-file"), text(&Config::databaseKeyFile)},
        {QStringLiteral("service-address"), [](const Config &x) { return x.service.address; }},
        {QStringLiteral("service-port"),
         [](const Config &x) { return QString::number(x.service.port); }},
        {QStringLiteral("cluster-address"), [](const Config &x) { return x.cluster.address; }},
        {QStringLiteral("cluster-port"),
         [](const Config &x) { return QString::number(x.cluster.port); }},
        {QStringLiteral("admin-address"), [](const Config &x) { return x.admin.address; }},
        {QStringLiteral("admin-port"),
         [](const Config &x) { return QString::number(x.admin.port); }},
        {QStringLiteral("max-header-bytes"), num(&Config::maxHeaderBytes)},
        {QStringLiteral("max-body-bytes"), num(&Config::maxBodyBytes)},
        {QStringLiteral("header-timeout-ms"), num(&Config::headerTimeoutMs)},
        {QStringLiteral("body-timeout-ms"), num(&Config::bodyTimeoutMs)},
        {QStringLiteral("idle-timeout-ms"), num(&Config::idleTimeoutMs)},
        {QStringLiteral("handshake-timeout-ms"), num(&Config::handshakeTimeoutMs)},
        {QStringLiteral("max-connections"), num(&Config::maxConnections)},
        {QStringLiteral("max-connections-per-client"), num(&Config::maxConnectionsPerClient)},
        {QStringLiteral("shutdown-grace-ms"), num(&Config::shutdownGraceMs)},
        {QStringLiteral("tls-extra-sans"), list(&Config::tlsExtraSans)},
        {QStringLiteral("public-base-url"), text(&Config::publicBaseUrl)},
        {QStringLiteral("admin-tls"), flag(&Config::adminTls)},
        {QStringLiteral("trusted-proxies"), list(&Config::trustedProxies)},
        {QStringLiteral("demo-data"), flag(&Config::demoData)},
        {QStringLiteral("demo"), flag(&Config::demo)},
        {QStringLiteral("demo-allow-network"), flag(&Config::demoAllowNetwork)},
        {QStringLiteral("demo-receiver-port"), num(&Config::demoReceiverPort)},
        {QStringLiteral("webhook-allow-loopback"), flag(&Config::webhookAllowLoopback)},
        {QStringLiteral("webhook-allowlist"), list(&Config::webhookAllowlist)},
        {QStringLiteral("webhook-retry-schedule"),
         [](const Config &x) {
             QStringList parts;
             for (const qint64 ms : x.webhookRetryScheduleMs)
                 parts.append(formatDurationMs(ms));
             return parts.join(QLatin1Char(','));
         }},
        {QStringLiteral("webhook-jitter-percent"), num(&Config::webhookJitterPercent)},
        {QStringLiteral("webhook-timeout-ms"), num(&Config::webhookTimeoutMs)},
        {QStringLiteral("webhook-disable-after"), dur(&Config::webhookDisableAfterMs)},
        {QStringLiteral("webhook-max-in-flight"), num(&Config::webhookMaxInFlight)},
        {QStringLiteral("webhook-max-queued"), num(&Config::webhookMaxQueued)},
        {QStringLiteral("webhook-secret-overlap"), dur(&Config::webhookSecretOverlapMs)},
        {QStringLiteral("delivery-history-days"), num(&Config::deliveryHistoryDays)},
        {QStringLiteral("oauth-login-rate"), num(&Config::oauthLoginRate)},
        {QStringLiteral("oauth-pending-sign-ins"), num(&Config::oauthPendingSignIns)},
        {QStringLiteral("oauth-lockout-threshold"), num(&Config::oauthLockoutThreshold)},
        {QStringLiteral("oauth-lockout-duration"), dur(&Config::oauthLockoutDurationMs)},
        {QStringLiteral("password-hash-memory"), num(&Config::passwordHashMemoryKiB)},
        {QStringLiteral("password-hash-iterations"), num(&Config::passwordHashIterations)},
        {QStringLiteral("oauth-token-history-days"), num(&Config::oauthTokenHistoryDays)},
        {QStringLiteral("oauth-code-lifetime"), dur(&Config::oauthCodeLifetimeMs)},
        {QStringLiteral("oauth-refresh-lifetime"), dur(&Config::oauthRefreshLifetimeMs)},
        {QStringLiteral("oauth-refresh-max-lifetime"), dur(&Config::oauthRefreshMaxLifetimeMs)},
        {QStringLiteral("oauth-device-code-lifetime"), dur(&Config::oauthDeviceCodeLifetimeMs)},
        {QStringLiteral("orders-require-token"), flag(&Config::ordersRequireToken)},
        {QStringLiteral("oauth-open-registration"), flag(&Config::oauthOpenRegistration)},
        {QStringLiteral("anonymous-auth"), flag(&Config::clusterAnonymousAuth)},
        {QStringLiteral("authorization-mode"), list(&Config::clusterAuthorizationModes)},
        {QStringLiteral("enable-admission-plugins"), list(&Config::clusterAdmissionPlugins)},
        {QStringLiteral("oidc-issuer-url"), text(&Config::oidcIssuerUrl)},
        {QStringLiteral("oidc-client-id"), text(&Config::oidcClientId)},
        {QStringLiteral("oidc-username-claim"), text(&Config::oidcUsernameClaim)},
        {QStringLiteral("oidc-username-prefix"), text(&Config::oidcUsernamePrefix)},
        {QStringLiteral("oidc-groups-claim"), text(&Config::oidcGroupsClaim)},
        {QStringLiteral("oidc-groups-prefix"), text(&Config::oidcGroupsPrefix)},
        {QStringLiteral("oidc-group-mappings"), list(&Config::oidcGroupMappings)},
        {QStringLiteral("oauth-registration-grant-types"),
         list(&Config::oauthRegistrationGrantTypes)},
        {QStringLiteral("oauth-registration-scopes"), list(&Config::oauthRegistrationScopes)},
        {QStringLiteral("oauth-registration-audiences"), list(&Config::oauthRegistrationAudiences)},
        {QStringLiteral("orders-resource"), text(&Config::ordersResource)},
    };
    const auto it = getters.constFind(key);
    return it == getters.constEnd() ? QString() : (*it)(c);
}

} // namespace Gatehouse::Core
