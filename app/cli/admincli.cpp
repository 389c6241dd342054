#include "cli/admincli.h"

#include "cli/command.h"
#include "cli/commandtable.h"

#include <QCommandLineParser>

namespace Gatehouse::Cli {

namespace {

QCommandLineOption option(const QString &name, const char *description, const char *value = "")
{
    return QCommandLineOption(name, QString::fromUtf8(description), QString::fromUtf8(value));
}

// Where the backend is, and the output format: every command takes these.
QList<QCommandLineOption> commonOptions()
{
    return {
        option(QStringLiteral("data-dir"), "Data directory of the backend.", "dir"),
        option(QStringLiteral("config"), "Config file of the backend.", "file"),
        option(QStringLiteral("admin-url"), "Admin API URL (default: from ports.json).", "url"),
        option(QStringLiteral("admin-token"),
               "Admin token (default: <data-dir>/admin-token). On the command line other local "
               "users can see it (ps): prefer --admin-token-file or GATEHOUSE_ADMIN_TOKEN.",
               "token"),
        option(QStringLiteral("admin-token-file"),
               "Read the admin token from this file (its first line; or "
               "GATEHOUSE_ADMIN_TOKEN_FILE).",
               "file"),
        option(QStringLiteral("admin-fingerprint"),
               "HTTPS admin API: trust the certificate with this SHA-256 fingerprint (as the "
               "backend logs it at start; or GATEHOUSE_ADMIN_FINGERPRINT).",
               "sha256"),
        QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")},
                           QStringLiteral("Output format: text or json."), QStringLiteral("format"),
                           QStringLiteral("text")),
    };
}

// The options some commands take (their synopses in the command table name them).
QList<QCommandLineOption> commandOptions()
{
    return {
        option(QStringLiteral("customer"),
               "orders list, deliveries redeliver-all: only this customer's.", "id"),
        option(QStringLiteral("status"), "orders list: only orders in this status.", "status"),
        option(QStringLiteral("order"),
               "deliveries list, deliveries redeliver-all: only this order's.", "id"),
        option(QStringLiteral("state"),
               "deliveries list: pending, succeeded or failed; deliveries redeliver-all: failed, "
               "succeeded or any.",
               "state"),
        option(QStringLiteral("limit"), "list: at most this many rows.", "n"),
        option(QStringLiteral("user"), "consents or tokens list: only this user's (id).", "id"),
        option(QStringLiteral("client"), "consents or tokens list: only this client's.", "id"),
        option(QStringLiteral("kind"), "audit list: only changes of this kind (client, node, ...).",
               "kind"),
        option(QStringLiteral("target"), "audit list: only changes to this (an id or a name).",
               "target"),
        option(QStringLiteral("endpoint"), "deliveries redeliver-all: only this endpoint's.", "id"),
        option(QStringLiteral("from"), "deliveries redeliver-all: created at or after (ISO 8601).",
               "time"),
        option(QStringLiteral("to"), "deliveries redeliver-all: created before (ISO 8601).",
               "time"),
        option(QStringLiteral("rate"),
               "deliveries redeliver-all: redeliveries per second (default 10).", "n"),
        option(QStringLiteral("dry-run"),
               "deliveries redeliver-all: only count and show what would be sent."),
        option(QStringLiteral("alg"), "keys rotate: RS256 (default) or ES256.", "alg"),
        option(QStringLiteral("expires-in"),
               "initial-access-tokens create: lifetime in seconds (default 86400); admin-tokens "
               "create: (default: no expiry).",
               "seconds"),
        option(QStringLiteral("allow"),
               "admin-tokens create: permissions, e.g. orders:read,audit:read (repeat or "
               "separate with commas).",
               "permissions"),
        option(QStringLiteral("max-uses"),
               "initial-access-tokens create: registrations allowed (default 1).", "n"),
        option(QStringLiteral("group"),
               "kubeconfig, explain, labels, rbac access: a group (repeat).", "group"),
        option(QStringLiteral("as"), "explain, labels, rbac access: act as this user.", "user"),
        option(QStringLiteral("anonymous"),
               "explain, labels, rbac access: act as system:anonymous."),
        QCommandLineOption({QStringLiteral("n"), QStringLiteral("namespace")},
                           QStringLiteral("rbac, explain: the namespace."), QStringLiteral("ns")),
        option(QStringLiteral("subresource"), "explain: the subresource (status).", "name"),
        option(QStringLiteral("label"), "nodes or namespaces create: a label KEY=VALUE (repeat).",
               "label"),
        option(QStringLiteral("file"), "kubeconfig: write it to this file (0600).", "path"),
        option(QStringLiteral("reference-files"),
               "kubeconfig: write the certificate and key next to --file and reference them."),
        option(QStringLiteral("server"), "kubeconfig: the server URL to put in it.", "url"),
        option(QStringLiteral("days"), "kubeconfig: certificate validity (default 365).", "n"),
    };
}

} // namespace

int runAdminCli(const QStringList &args, const QProcessEnvironment &env, QTextStream &out,
                QTextStream &err)
{
    QCommandLineParser p;
    p.addHelpOption();
    p.addOptions(commonOptions());
    p.addOptions(commandOptions());
    if (!p.parse(args)) {
        err << "gatehouse admin: " << p.errorText() << "\n";
        return 2;
    }
    const QStringList pos = p.positionalArguments();
    if (p.isSet(QStringLiteral("help"))) {
        const QString noun = pos.value(0);
        out << helpText(commonOptions(), commandOptions(), isNoun(noun) ? noun : QString());
        return 0;
    }
    if (pos.isEmpty()) {
        err << "gatehouse admin: missing noun; try 'gatehouse admin status'\n";
        return 2;
    }
    const auto format = parseFormat(p.value(QStringLiteral("output")));
    if (!format) {
        err << "gatehouse admin: --output must be text or json\n";
        return 2;
    }
    // An admin noun's command is checked before connecting; the cluster nouns connect first
    // and answer a misuse with all of their usage lines.
    const bool cluster = isClusterNoun(pos.first());
    const Match match = findCommand(pos.first(), pos.mid(1));
    if (!cluster && match.misused && !match.command) {
        err << "gatehouse admin: usage: gatehouse admin " << usage(*match.misused) << "\n";
        return 2;
    }
    if (!cluster && !match.command) {
        err << "gatehouse admin: unknown command '" << pos.join(QLatin1Char(' ')) << "'; known:\n"
            << usageLines();
        return 2;
    }
    const auto connection = openConnection(p, env, err);
    if (const int *code = std::get_if<int>(&connection))
        return *code;
    if (!match.command)
        return printClusterUsage(err);
    const Connection &backend = std::get<Connection>(connection);
    // What a command prints is mostly the server's strings, other people's words among them:
    // written out once made terminal-safe (no command streams).
    QString printed;
    QTextStream buffer(&printed);
    const Invocation in{*match.command, match.args, p, backend, *format, buffer, err};
    const int code = match.command->run(in);
    buffer.flush();
    out << terminalSafe(printed);
    return code;
}

} // namespace Gatehouse::Cli
