#include "core/config.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

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
        add("shutdown-grace-ms", "ms", "How long SIGTERM waits for in-flight requests.",
            intSetter(0, 600'000, [](Config &c, qint64 v) { c.shutdownGraceMs = int(v); }));
        add("tls-extra-sans", "names",
            "Comma-separated extra DNS names and IP addresses for the cluster server certificate.",
            [](Config &c, const QString &v) -> Result<void> {
                c.tlsExtraSans.clear();
                for (const QString &s : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
                    c.tlsExtraSans.append(s.trimmed());
                return {};
            });
        return l;
    }();
    return list;
}

} // namespace

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
                                 .arg(value, e.option.key, source, r.error().message),
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
    for (const Entry &e : entries()) {
        const QString name = envName(e.option.key);
        if (env.contains(name))
            if (auto r = apply(e, env.value(name), QStringLiteral("environment ") + name); !r)
                return r.error();
    }
    // 3. Flags.
    for (const Entry &e : entries()) {
        if (cli.contains(e.option.key))
            if (auto r =
                    apply(e, cli.value(e.option.key), QStringLiteral("flag --") + e.option.key);
                !r)
                return r.error();
    }
    return config;
}

} // namespace Gatehouse::Core
